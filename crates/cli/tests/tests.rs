//! Integration tests of the `dancecard` command, all in one test binary (as ripgrep does).

mod util;

#[cfg(feature = "mpi")]
mod mpi;
mod scale;
mod serve;
mod solve;
