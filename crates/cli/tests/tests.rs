//! Integration tests of the `dancecard` command, all in one test binary (as ripgrep does).

mod util;

#[cfg(feature = "mpi")]
mod mpi;
mod scale;
mod search;
mod solve;
mod sudoku;
mod langford;
mod queens;
mod target_sudoku;
mod tile;
