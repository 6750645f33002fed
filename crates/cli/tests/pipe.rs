//! Every subcommand into a closed pipe (#46): `dancecard ... | head` closes stdout when `head`
//! has read enough, and `2>&1 | head -1` stderr with it. The command then stops quietly with
//! exit code 0 (as ripgrep does), never with a panic (101); a closed stderr alone loses nothing
//! of the answer on stdout.

use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{dancecard, dancecard_process, stderr, stdout};

/// One run of every subcommand, small enough to end in a moment, writing to stdout and, with
/// `--stats` where the command has it, to stderr.
const RUNS: &[(&str, &[&str])] = &[
    ("solve", &["solve", "--count", "--stats", "testdata/instances/queens8.dlx"]),
    (
        "merge",
        &["merge", "examples/shards/queens8-0-of-2.json", "examples/shards/queens8-1-of-2.json"],
    ),
    ("estimate", &["estimate", "testdata/instances/queens8.dlx"]),
    ("pre", &["pre", "examples/toy.dlx"]),
    ("export", &["export", "--to", "lp", "examples/toy.dlx"]),
    ("sudoku", &["sudoku", "--stats", "examples/puzzles.txt"]),
    ("slide", &["slide", "--stats", "8", "6", "7", "2", "5", "4", "3", "0", "1"]),
    ("knights", &["knights", "--stats", "examples/knights.txt"]),
    ("egyptian", &["egyptian", "--stats", "19", "45"]),
    ("min-cover", &["min-cover", "--stats", "examples/cover.dlx"]),
    ("dominate", &["dominate", "--stats", "--piece", "king", "3", "3"]),
    ("guard", &["guard", "examples/guard.txt"]),
    ("subset-count", &["subset-count", "examples/prices.txt"]),
    ("constant-sum", &["constant-sum", "3", "5"]),
    ("grid-pick", &["grid-pick", "examples/cases.txt"]),
    ("queens", &["queens", "--stats", "8"]),
    ("tile", &["tile", "--stats", "--board", "6x10", "--pieces", "pentominoes", "--once"]),
    ("langford", &["langford", "--stats", "7"]),
    ("target-sudoku", &["target-sudoku", "--stats", "testdata/target-sudoku/sample1.in"]),
];

/// More runs into closed pipes: JSON, every solution, help, an error, a search cut short.
const MORE: &[&[&str]] = &[
    &["pre", "--format", "json", "examples/toy.dlx"],
    &["solve", "--all", "testdata/instances/queens8.dlx"],
    &["solve", "--all", "--threads", "2", "testdata/instances/queens12.dlx"],
    &["solve", "--count", "--format", "json", "--stats", "testdata/instances/queens8.dlx"],
    &["solve", "--count", "--node-limit", "100", "testdata/instances/pent6x10.dlx"],
    &["queens", "--all", "8"],
    &["tile", "--board", "6x10", "--pieces", "pentominoes", "--all"],
    &["solve", "examples/bad.dlx"],
    &["--help"],
    &["solve", "--help"],
    &["--version"],
];

/// The repository's root, where the runs' paths start.
fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The write end of a pipe whose read end is already closed: every write fails with
/// `EPIPE`.
fn closed_pipe() -> OwnedFd {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors `pipe` writes.
    let made = unsafe { libc::pipe(fds.as_mut_ptr()) };
    assert_eq!(made, 0, "pipe: {}", std::io::Error::last_os_error());
    // SAFETY: `pipe` succeeded: both descriptors are open, and owned here alone.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    write
}

fn command(args: &[&str]) -> Command {
    let mut cmd = dancecard_process();
    let _ = cmd.args(args).current_dir(root()).env("DANCECARD_PROGRESS", "never");
    cmd
}

/// Waits for `child` at most `seconds`; kills it past that (and fails).
fn wait(mut child: Child, what: &str, seconds: u64) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            return status;
        }
        if start.elapsed() > Duration::from_secs(seconds) {
            let _ = child.kill();
            panic!("{what}: still running after {seconds} s into a closed pipe");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Runs `args` with stdout and stderr on one closed pipe (`2>&1 | head -0`).
fn into_closed_pipe(args: &[&str]) -> std::process::ExitStatus {
    let pipe = closed_pipe();
    let child = command(args)
        .stdin(Stdio::null())
        .stdout(Stdio::from(pipe.try_clone().expect("the pipe's write end is duplicated")))
        .stderr(Stdio::from(pipe))
        .spawn()
        .expect("dancecard starts");
    wait(child, &args.join(" "), 60)
}

#[test]
fn every_subcommand_ends_quietly_into_a_closed_pipe() {
    for (name, args) in RUNS {
        let status = into_closed_pipe(args);
        assert_eq!(status.code(), Some(0), "dancecard {name} into a closed pipe: {status}");
    }
    for args in MORE {
        let status = into_closed_pipe(args);
        // An error is still an error (2), and a run cut by a limit still says so (3): only
        // the messages are lost. Never a panic (101).
        let expected = match args {
            ["solve", "examples/bad.dlx"] => 2,
            _ => 0,
        };
        assert_eq!(
            status.code(),
            Some(expected),
            "dancecard {} into a closed pipe",
            args.join(" ")
        );
    }
}

#[test]
fn every_subcommand_is_in_the_closed_pipe_test() {
    let out = dancecard().arg("--help").output().expect("dancecard runs");
    let help = stdout(&out);
    let listed: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // A command's line; its description's next lines are indented further.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&c| c != "help")
        .collect();
    assert!(listed.len() > 10, "{help}");
    for command in listed {
        let tested = RUNS.iter().any(|(name, _)| *name == command) || command == "serve";
        assert!(tested, "`dancecard {command}` is not run into a closed pipe here: add it to RUNS");
    }
}

/// With stdout closed alone, nothing is said of it (no panic message, no error on stderr).
#[test]
fn a_closed_stdout_is_not_an_error() {
    for (name, args) in RUNS {
        let out = command(args)
            .stdin(Stdio::null())
            .stdout(Stdio::from(closed_pipe()))
            .stderr(Stdio::piped())
            .output()
            .expect("dancecard runs");
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "dancecard {name}: {err}");
        assert!(!err.contains("panicked") && !err.contains("error"), "dancecard {name}: {err}");
    }
}

/// With stderr closed alone, the answer on stdout is whole, and the exit code the usual one.
#[test]
fn a_closed_stderr_loses_nothing_of_the_answer() {
    for (name, args) in RUNS {
        let whole = command(args).stdin(Stdio::null()).output().expect("dancecard runs");
        let out = command(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(closed_pipe()))
            .output()
            .expect("dancecard runs");
        assert_eq!(out.status.code(), whole.status.code(), "dancecard {name}");
        let answer = |o: &std::process::Output| {
            // The lines that vary from run to run: times.
            stdout(o).lines().filter(|l| !l.contains("seconds")).collect::<Vec<_>>().join("\n")
        };
        assert_eq!(answer(&out), answer(&whole), "dancecard {name}");
    }
}

/// `head -1`: the reader takes the first line, then leaves while the command still writes.
#[test]
fn a_reader_that_leaves_after_a_line_stops_the_command_quietly() {
    for args in [
        &["solve", "--all", "testdata/instances/pent6x10.dlx"][..],
        &["queens", "--all", "10"],
        &["solve", "--count", "--stats", "testdata/instances/queens8.dlx"],
    ] {
        let log = tempfile::NamedTempFile::new().expect("a temporary file");
        let mut child = command(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log.reopen().expect("the temporary file reopens")))
            .spawn()
            .expect("dancecard starts");
        let mut out = child.stdout.take().expect("stdout is piped");
        let mut first = [0u8; 1];
        let _ = out.read(&mut first).expect("the first byte is read");
        drop(out);
        let status = wait(child, &args.join(" "), 120);
        let err = std::fs::read_to_string(log.path()).expect("the log is read");
        assert_eq!(status.code(), Some(0), "dancecard {}: {err}", args.join(" "));
        assert!(!err.contains("panicked"), "dancecard {}: {err}", args.join(" "));
    }
}

/// `serve` is the one command whose answer is not on stdout: a closed stdout does not stop
/// the server.
#[test]
fn serve_goes_on_with_a_closed_stdout() {
    let pipe = closed_pipe();
    let mut child = command(&["serve", "--port", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::from(pipe.try_clone().expect("the pipe's write end is duplicated")))
        .stderr(Stdio::from(pipe))
        .spawn()
        .expect("dancecard starts");
    std::thread::sleep(Duration::from_millis(1500));
    let still = child.try_wait().expect("the child can be waited for");
    let _ = child.kill();
    let _ = child.wait();
    assert!(still.is_none(), "dancecard serve ended with a closed stdout: {still:?}");
}
