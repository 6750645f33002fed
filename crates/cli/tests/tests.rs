//! Integration tests of the `dancecard` command, all in one test binary (as ripgrep does).

mod util;

mod langford;
mod queens;
mod solve;
mod target_sudoku;
mod tile;
