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

/// `text` in a scratch file for a program's standard input (the caller removes it).
pub(crate) fn scratch_file(name: &str, text: &str) -> std::path::PathBuf {
    let path =
        std::env::temp_dir().join(format!("dancecard-bench-{name}-{}.dlx", std::process::id()));
    std::fs::write(&path, text).expect("a scratch file");
    path
}

/// Runs `program < input`, its standard output dropped: the wall time read from the clock
/// around its process (`/usr/bin/time` counts hundredths) and its standard error; `None` if
/// it cannot be run.
pub(crate) fn run_clocked(program: &str, input: &std::path::Path) -> Option<(f64, String)> {
    let started = std::time::Instant::now();
    let out = Command::new(program)
        .stdin(std::fs::File::open(input).ok()?)
        .stdout(std::process::Stdio::null())
        .output()
        .ok()?;
    let time = started.elapsed().as_secs_f64();
    Some((time, String::from_utf8_lossy(&out.stderr).into_owned()))
}
