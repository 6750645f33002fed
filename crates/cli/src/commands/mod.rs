//! One module per subcommand: its `Args` (clap) and its `run`.

pub(crate) mod serve;
pub(crate) mod solve;
