//! Integration tests of the `dancecard` command, all in one test binary (as ripgrep does).

mod util;

mod args;
mod count;
mod docs;
mod exact;
mod export;
mod interrupt;
mod langford;
mod min_cost;
#[cfg(feature = "mpi")]
mod mpi;
mod pre;
mod queens;
mod scale;
mod search;
mod serve;
mod soak;
mod solve;
mod sudoku;
mod target_sudoku;
mod tile;
