//! Fuzz targets for dancecard: every entry point that takes bytes from a user, fed arbitrary
//! bytes, with the properties its output must keep.
//!
//! # Brief overview
//!
//! Each target is a function `fn(&[u8])` that panics **only** when a property is violated: a
//! parser that panics, a round trip that changes the problem, a solution that does not verify,
//! a count that differs from the brute-force oracle of `dancecard-testkit`, an arena that is
//! not restored after a search (I5). Bad input must come back as a typed error, which the
//! targets check and drop. Every target finishes an input well under a second: searches run
//! under node limits, and only small parsed problems are solved.
//!
//! The targets are listed in [`TARGETS`]. They are run two ways:
//!
//! - coverage-guided, by `cargo +nightly fuzz run <name>` in the `fuzz/` folder of the
//!   repository (one `fuzz_targets/<name>.rs` per target, each one line calling the function
//!   here; see `fuzz/README.md`);
//! - on stable, by this crate's `tests/replay.rs`, which runs every file of
//!   `fuzz/corpus/<name>/` and `fuzz/regressions/<name>/` through the same function, so that
//!   `cargo test --workspace` re-checks every input that ever mattered.
//!
//! Most targets read the first byte as a *selector* (a mode, a box shape, flags) and the rest
//! as the text the entry point reads; invalid UTF-8 is replaced (`from_utf8_lossy`), as the
//! command line does when it reads a file as text.
//!
//! # Example
//!
//! ```
//! // Knuth's toy problem: parsed, written back, read again, solved and checked.
//! let input = b"a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n";
//! dancecard_fuzz::dlx(input);
//! // Bad input is an error, not a panic.
//! dancecard_fuzz::dlx(b"a b\na z\n");
//! assert!(dancecard_fuzz::TARGETS.iter().any(|t| t.name == "dlx"));
//! ```

#![deny(missing_docs, rustdoc::broken_intra_doc_links)]

use std::borrow::Cow;

mod bytes;
mod cross;
mod engine;
mod format;
mod oracle;
mod puzzles;
mod requests;
mod scale;
mod sudoku;
mod tiling;

pub use cross::{check_family, cross, family_of, CrossOptions};
pub use engine::engine;
pub use format::{auto, dlx, matrix};
pub use puzzles::{dominate, egyptian, grid_pick, knights, sizes, slide, subset, target_sudoku};
pub use scale::{checkpoint, shard};
pub use sudoku::sudoku;
pub use tiling::tiling;

/// A fuzz target: its name (the `fuzz_targets/<name>.rs` file and the corpus folder) and the
/// function that checks one input.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// The target's name.
    pub name: &'static str,
    /// Checks one input; panics only on a violated property.
    pub run: fn(&[u8]),
}

/// Every fuzz target, by name.
pub const TARGETS: &[Target] = &[
    Target { name: "dlx", run: dlx },
    Target { name: "cross", run: cross },
    Target { name: "matrix", run: matrix },
    Target { name: "auto", run: auto },
    Target { name: "sudoku", run: sudoku },
    Target { name: "tiling", run: tiling },
    Target { name: "target_sudoku", run: target_sudoku },
    Target { name: "sizes", run: sizes },
    Target { name: "slide", run: slide },
    Target { name: "knights", run: knights },
    Target { name: "dominate", run: dominate },
    Target { name: "grid_pick", run: grid_pick },
    Target { name: "subset", run: subset },
    Target { name: "egyptian", run: egyptian },
    Target { name: "engine", run: engine },
    Target { name: "shard", run: shard },
    Target { name: "checkpoint", run: checkpoint },
];

/// The input as text, invalid UTF-8 replaced (as a reader of text files would).
fn text(data: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// The value of an accepted input; for a refused one, `None` after checking that the
/// error says something.
fn accepted<T, E: std::fmt::Display>(result: Result<T, E>) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(e) => {
            assert!(!e.to_string().is_empty());
            None
        }
    }
}

/// The first byte (the selector, 0 for an empty input) and the rest.
fn split(data: &[u8]) -> (u8, &[u8]) {
    match data.split_first() {
        Some((&first, rest)) => (first, rest),
        None => (0, data),
    }
}
