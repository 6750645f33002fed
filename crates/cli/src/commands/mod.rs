//! One module per subcommand: its `Args` (clap) and its `run`.

pub(crate) mod langford;
pub(crate) mod queens;
pub(crate) mod solve;
pub(crate) mod target_sudoku;
pub(crate) mod tile;
mod watch;
