//! Replays the fuzz corpora on stable: every file of `fuzz/corpus/<target>/` and of
//! `fuzz/regressions/<target>/` goes through the target's function, so that
//! `cargo test --workspace` re-checks every input that ever mattered.
//!
//! A missing or empty corpus folder fails the test: a replay must never pass by finding
//! nothing to replay.

use std::fs;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use dancecard_fuzz::{Target, TARGETS};

/// The repository's `fuzz/` folder.
fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

fn target(name: &str) -> Target {
    *TARGETS.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no target {name}"))
}

/// The files of a folder, sorted by name.
fn files(dir: &Path) -> Vec<PathBuf> {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut out: Vec<PathBuf> = entries
        .map(|e| e.unwrap_or_else(|e| panic!("{}: {e}", dir.display())).path())
        .filter(|p| p.is_file())
        .collect();
    out.sort();
    out
}

/// Runs every file of `dir` through `target`; returns how many there were. A panic names
/// the file.
fn replay_dir(target: Target, dir: &Path) -> usize {
    let files = files(dir);
    for file in &files {
        let data = fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let result = panic::catch_unwind(AssertUnwindSafe(|| (target.run)(&data)));
        if let Err(cause) = result {
            let message = cause
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| cause.downcast_ref::<&str>().copied())
                .unwrap_or("(no message)");
            panic!("{} fails on {}: {message}", target.name, file.display());
        }
    }
    files.len()
}

/// Replays the corpus (which must hold files) and the regressions (if any) of a target.
fn replay(name: &str) {
    let target = target(name);
    let corpus = fuzz_dir().join("corpus").join(name);
    assert!(corpus.is_dir(), "the corpus folder {} is missing", corpus.display());
    let replayed = replay_dir(target, &corpus);
    assert!(replayed > 0, "the corpus folder {} is empty", corpus.display());
    let regressions = fuzz_dir().join("regressions").join(name);
    if regressions.exists() {
        let replayed = replay_dir(target, &regressions);
        assert!(replayed > 0, "the regressions folder {} is empty", regressions.display());
    }
}

macro_rules! replay {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                replay(stringify!($name));
            }
        )*

        /// The names with a test here, in [`TARGETS`]' order.
        const TESTED: &[&str] = &[$(stringify!($name)),*];
    };
}

replay!(
    dlx,
    cross,
    matrix,
    auto,
    sudoku,
    tiling,
    target_sudoku,
    sizes,
    slide,
    knights,
    dominate,
    grid_pick,
    subset,
    egyptian,
    engine,
    shard,
    checkpoint,
);

/// The names of the files (without `.rs`) or folders inside `dir`.
fn names_in(dir: &Path, folders: bool) -> Vec<String> {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut out: Vec<String> = entries
        .map(|e| e.unwrap_or_else(|e| panic!("{}: {e}", dir.display())).path())
        .filter(|p| p.is_dir() == folders)
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?.to_owned();
            Some(name.strip_suffix(".rs").map_or(name.clone(), str::to_owned))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn every_target_has_a_replay_a_fuzz_target_and_a_corpus() {
    let mut targets: Vec<String> = TARGETS.iter().map(|t| t.name.to_owned()).collect();
    let tested: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
    assert_eq!(tested, TESTED, "every target has a replay test here");
    targets.sort();
    let dir = fuzz_dir();
    assert_eq!(names_in(&dir.join("fuzz_targets"), false), targets, "fuzz/fuzz_targets/*.rs");
    assert_eq!(names_in(&dir.join("corpus"), true), targets, "fuzz/corpus/*/");
    let regressions = dir.join("regressions");
    if regressions.exists() {
        for name in names_in(&regressions, true) {
            assert!(targets.contains(&name), "fuzz/regressions/{name} has no target");
        }
    }
}
