//! One module per subcommand: its `Args` (clap) and its `run`.

pub(crate) mod solve;
pub(crate) mod sudoku;
