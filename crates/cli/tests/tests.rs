//! Integration tests of the `dancecard` command, all in one test binary (as ripgrep does).

// The crate's clippy.toml bans the printing macros, which panic on a closed pipe; a test
// prints to the test harness.
#![allow(clippy::disallowed_macros, reason = "tests print to the test harness, not to a pipe")]

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
mod pipe;
mod pre;
mod progress;
mod queens;
mod scale;
mod search;
mod serve;
mod soak;
mod solve;
mod sudoku;
mod target_sudoku;
mod tile;
