//! Integration tests of the `dancecard` command, all in one test binary (as ripgrep does).

mod util;

mod search;
mod solve;
