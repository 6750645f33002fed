//! One module per subcommand: its `Args` (clap) and its `run`.

pub(crate) mod constant_sum;
pub(crate) mod dominate;
pub(crate) mod egyptian;
pub(crate) mod estimate;
pub(crate) mod export;
pub(crate) mod grid_pick;
pub(crate) mod guard;
pub(crate) mod knights;
pub(crate) mod langford;
pub(crate) mod merge;
pub(crate) mod min_cover;
pub(crate) mod pre;
pub(crate) mod queens;
pub(crate) mod serve;
pub(crate) mod slide;
pub(crate) mod solve;
pub(crate) mod subset_count;
pub(crate) mod sudoku;
pub(crate) mod target_sudoku;
pub(crate) mod tile;
