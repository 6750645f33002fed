//! Helpers shared by the engine's benches (each bench is its own crate and uses some of
//! them).
#![allow(dead_code, reason = "each bench uses its own subset of the helpers")]

use std::process::Command;

use dancecard_engine::Problem;

/// A problem in Knuth's DLX text format.
pub(crate) fn problem(text: &str) -> Problem {
    dancecard_format::parse_dlx(text.as_bytes()).expect("the instance parses").problem
}

/// The median of `v` (the upper one of an even count); panics when `v` is empty.
pub(crate) fn median<T: PartialOrd + Copy>(mut v: Vec<T>) -> T {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    v[v.len() / 2]
}

/// Runs `program args < text` under `/usr/bin/time -f FORMAT` and hands back its `stderr`
/// (the program's report, then the line of `/usr/bin/time`); `None` if it cannot be run.
pub(crate) fn run_timed(program: &str, args: &[&str], format: &str, text: &str) -> Option<String> {
    let dir = std::env::temp_dir().join(format!("dancecard-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let input = dir.join("in.dlx");
    std::fs::write(&input, text).ok()?;
    let out = Command::new("/usr/bin/time")
        .args(["-f", format, program])
        .args(args)
        .stdin(std::fs::File::open(&input).ok()?)
        .output()
        .ok()?;
    Some(String::from_utf8_lossy(&out.stderr).into_owned())
}
