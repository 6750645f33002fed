//! Every command whose search can run long stops on Ctrl-C, on `--time-limit` and on
//! `--node-limit`, prints what it found marked incomplete, and exits with the documented code
//! (130 for Ctrl-C, 3 for a limit).
//!
//! One table: each row is a command with an input that would run for minutes or more, and what
//! its partial answer looks like. For each row the test sends SIGINT to the running command and
//! checks the exit code, the partial answer and the `incomplete` note, then runs it again with a
//! time limit and (where the command takes one) a node limit.
//!
//! The time from SIGINT to the exit is printed for each row (`cargo test -- --nocapture`
//! shows the table); it is asserted only to be under a few seconds (a command that ignores
//! the signal fails), never to be fast: the machines that run the tests are shared.

#![cfg(unix)]

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::util::testdata;

/// What the partial answer on stdout looks like.
#[derive(Clone, Copy, Debug)]
enum Partial {
    /// One number (a partial count, or a best score).
    Number,
    /// A JSON document whose value at this pointer is `false`.
    JsonFalse(&'static str),
    /// Text containing this.
    Contains(&'static str),
    /// At least one line (solutions printed as they were found).
    Lines,
    /// Nothing: the search has no partial answer (the note on stderr says why).
    Nothing,
}

/// A row of the table.
struct Case {
    /// The arguments after `dancecard`.
    args: Vec<String>,
    /// What stdout holds after a stop.
    partial: Partial,
    /// Whether the command takes `--node-limit` (with this limit, which it reaches).
    node_limit: Option<u64>,
    /// Extra environment.
    env: Vec<(String, String)>,
}

fn case(args: &[&str], partial: Partial, node_limit: Option<u64>) -> Case {
    Case { args: args.iter().map(|s| s.to_string()).collect(), partial, node_limit, env: vec![] }
}

/// Files the rows read, written once into a temporary directory.
struct Inputs {
    dir: tempfile::TempDir,
}

impl Inputs {
    fn new() -> Inputs {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
        // 20 queens as exact cover: hours to count.
        let out = crate::util::dancecard().args(["queens", "20", "--emit-dlx"]).output().unwrap();
        std::fs::write(dir.path().join("queens20.dlx"), out.stdout).unwrap();
        // An empty 16x16 sudoku: its count never ends.
        write("empty16.txt", &format!("{}\n", ".".repeat(256)));
        write("empty9.txt", &"0 0 0 0 0 0 0 0 0\n".repeat(9));
        // Twelve white knights in the far corner: IDA* to 60 moves takes ages.
        write("knights.txt", "1\n00000\n10000\n11*00\n11110\n11111\n");
        // Dominoes on 20 x 20: minutes for the memoised count.
        let mut dominoes = String::from("| domino tilings of 20 x 20\n");
        let cell = |r: usize, c: usize| format!("r{r}c{c}");
        let cells: Vec<String> =
            (0..20).flat_map(|r| (0..20).map(move |c| (r, c))).map(|(r, c)| cell(r, c)).collect();
        dominoes.push_str(&cells.join(" "));
        dominoes.push('\n');
        for r in 0..20 {
            for c in 0..20 {
                if c + 1 < 20 {
                    dominoes.push_str(&format!("{} {}\n", cell(r, c), cell(r, c + 1)));
                }
                if r + 1 < 20 {
                    dominoes.push_str(&format!("{} {}\n", cell(r, c), cell(r + 1, c)));
                }
            }
        }
        write("domino20.dlx", &dominoes);
        // The Aztec diamond of order 16: minutes for the memoised count.
        let half: Vec<String> = (0..16)
            .map(|i| format!("{0}{1}{0}", ".".repeat(15 - i), "#".repeat(2 * i + 2)))
            .collect();
        let aztec: Vec<&str> = half.iter().chain(half.iter().rev()).map(String::as_str).collect();
        write("aztec16.txt", &(aztec.join("\n") + "\n"));
        let row = "X".repeat(12);
        write("guard.txt", &format!("12 12\n{}0\n", format!("{row}\n").repeat(12)));
        Inputs { dir }
    }

    fn path(&self, name: &str) -> String {
        self.dir.path().join(name).display().to_string()
    }
}

fn table(inputs: &Inputs) -> Vec<Case> {
    let q20 = inputs.path("queens20.dlx");
    let d20 = inputs.path("domino20.dlx");
    let pent = testdata("instances/pent6x10.dlx").display().to_string();
    let korf24 = "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13";
    let korf15 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";
    let mut rows = vec![
        case(&["solve", "--count", &q20], Partial::Number, Some(100_000)),
        case(&["solve", "--count", "--threads", "2", &q20], Partial::Number, Some(100_000)),
        case(&["solve", "--all", &q20], Partial::Lines, Some(100_000)),
        case(
            &["solve", "--count", "--format", "json", &q20],
            Partial::JsonFalse("/complete"),
            Some(100_000),
        ),
        case(&["solve", "--count", "--method", "memo", &d20], Partial::Number, Some(100_000)),
        case(&["solve", "--count", &d20], Partial::Number, Some(100_000)),
        case(&["solve", "--zdd", &inputs.path("d20.zdd"), &d20], Partial::Number, Some(100_000)),
        case(&["solve", "--sample", "3", &d20], Partial::Nothing, Some(100_000)),
        case(&["sudoku", "--count", &inputs.path("empty16.txt")], Partial::Number, Some(1000)),
        case(
            &[
                "sudoku",
                "--count",
                "--method",
                "dlx",
                "--format",
                "json",
                &inputs.path("empty16.txt"),
            ],
            Partial::JsonFalse("/summary/complete"),
            Some(1000),
        ),
        case(&["target-sudoku", &inputs.path("empty9.txt")], Partial::Number, Some(1000)),
        case(&["queens", "30", "--count"], Partial::Number, Some(100_000)),
        case(&["queens", "30", "--count", "--threads", "2"], Partial::Number, Some(100_000)),
        case(
            &["queens", "30", "--count", "--format", "json"],
            Partial::JsonFalse("/complete"),
            Some(100_000),
        ),
        case(&["queens", "20", "--count", "--method", "dlx"], Partial::Number, Some(100_000)),
        case(&["queens", "24", "--all", "--method", "bits"], Partial::Lines, Some(1_000_000)),
        case(&["queens", "40", "--all"], Partial::Lines, Some(100_000)),
        case(
            &["tile", "--board", &inputs.path("aztec16.txt"), "--pieces", "dominoes", "--count"],
            Partial::Number,
            Some(100_000),
        ),
        case(
            &["tile", "--board", "10x30", "--pieces", "pentominoes", "--count", "--method", "dp"],
            Partial::Nothing,
            None,
        ),
        case(&["langford", "20"], Partial::Number, Some(100_000)),
        case(&["slide", korf24], Partial::Contains("incomplete"), Some(100_000)),
        case(
            &["knights", "--max", "60", &inputs.path("knights.txt")],
            Partial::Contains("incomplete"),
            Some(100_000),
        ),
        case(&["egyptian", "--max-terms", "20", "9", "1000003"], Partial::Nothing, Some(100_000)),
        case(&["min-cover", &pent], Partial::Nothing, Some(100_000)),
        case(&["dominate", "--piece", "queen", "12"], Partial::Nothing, Some(100_000)),
        case(
            &["guard", &inputs.path("guard.txt")],
            Partial::Contains("Case 1: incomplete"),
            Some(100_000),
        ),
    ];
    // The 15-puzzle's pattern database, built (seconds) in an empty cache: stopped while
    // building.
    let mut pdb =
        case(&["slide", "--heuristic", "pdb", korf15], Partial::Contains("incomplete"), None);
    let cache = inputs.dir.path().join("cache");
    pdb.env.push(("DANCECARD_CACHE_DIR".into(), cache.display().to_string()));
    rows.push(pdb);
    rows
}

/// A pipe read on a thread: what it kept, and how many bytes passed.
type Drained = JoinHandle<(Vec<u8>, usize)>;

/// Reads a pipe to its end on a thread, keeping at most the first 1 MiB (listings can be
/// long) and the number of bytes.
fn drain(mut pipe: impl Read + Send + 'static) -> Drained {
    std::thread::spawn(move || {
        let (mut kept, mut total) = (Vec::new(), 0);
        let mut buf = [0u8; 65536];
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            total += n;
            let room = (1usize << 20).saturating_sub(kept.len());
            kept.extend_from_slice(&buf[..n.min(room)]);
        }
        (kept, total)
    })
}

/// A finished run: exit code, stdout (at most 1 MiB of it), its length, stderr.
struct Run {
    code: Option<i32>,
    stdout: String,
    stdout_bytes: usize,
    stderr: String,
    /// From SIGINT to the exit, for interrupted runs.
    latency: Option<Duration>,
}

fn spawn(bin: &Path, case: &Case, extra: &[String]) -> (Child, Drained, Drained) {
    let mut cmd = Command::new(bin);
    cmd.args(&case.args)
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd.env("DANCECARD_PROGRESS", "never");
    for (k, v) in &case.env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    let out = drain(child.stdout.take().unwrap());
    let err = drain(child.stderr.take().unwrap());
    (child, out, err)
}

/// Waits for `child` to exit, at most `limit`; kills it (and fails) past that.
fn wait(child: &mut Child, limit: Duration, what: &str) -> Option<i32> {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running {limit:?} after it was asked to stop");
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn finish(code: Option<i32>, out: Drained, err: Drained, latency: Option<Duration>) -> Run {
    let (stdout, stdout_bytes) = out.join().unwrap();
    let (stderr, _) = err.join().unwrap();
    Run {
        code,
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stdout_bytes,
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        latency,
    }
}

/// Runs `case`, sends SIGINT after `after`, and waits for the exit.
fn interrupt(bin: &Path, case: &Case, after: Duration) -> Run {
    let (mut child, out, err) = spawn(bin, case, &[]);
    std::thread::sleep(after);
    assert!(child.try_wait().unwrap().is_none(), "{:?} ended before the signal", case.args);
    let sent = Instant::now();
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let code = wait(&mut child, Duration::from_secs(5), &format!("{:?} after SIGINT", case.args));
    let latency = sent.elapsed();
    finish(code, out, err, Some(latency))
}

/// Runs `case` with `extra` flags to its (limited) end.
fn limited(bin: &Path, case: &Case, extra: &[String]) -> Run {
    let (mut child, out, err) = spawn(bin, case, extra);
    let code = wait(&mut child, Duration::from_secs(30), &format!("{:?} {extra:?}", case.args));
    finish(code, out, err, None)
}

/// Checks the partial answer of a stopped run.
fn check_partial(case: &Case, run: &Run, what: &str) {
    let args = &case.args;
    assert!(
        run.stderr.contains("incomplete"),
        "{args:?} {what}: no incomplete note: {}",
        run.stderr
    );
    match case.partial {
        Partial::Number => {
            let text = run.stdout.trim();
            assert!(text.parse::<u128>().is_ok(), "{args:?} {what}: not a number: {text:?}");
        }
        Partial::JsonFalse(pointer) => {
            let json: serde_json::Value = serde_json::from_str(&run.stdout)
                .unwrap_or_else(|e| panic!("{args:?} {what}: not JSON ({e}): {:?}", run.stdout));
            assert_eq!(json.pointer(pointer), Some(&false.into()), "{args:?} {what}: {json}");
        }
        Partial::Contains(text) => {
            assert!(run.stdout.contains(text), "{args:?} {what}: {:?}", run.stdout)
        }
        Partial::Nothing => assert_eq!(run.stdout, "", "{args:?} {what}"),
        Partial::Lines => {
            assert!(run.stdout_bytes > 0, "{args:?} {what}: nothing printed");
            assert!(run.stdout.ends_with('\n') || run.stdout_bytes > run.stdout.len());
        }
    }
}

#[test]
fn every_long_search_stops_on_sigint_and_on_its_limits() {
    let bin = assert_cmd::cargo::cargo_bin("dancecard");
    let inputs = Inputs::new();
    let mut latencies = Vec::new();
    for case in table(&inputs) {
        let args = &case.args;
        // Ctrl-C: exit 130, what was found, marked incomplete.
        let run = interrupt(&bin, &case, Duration::from_millis(700));
        assert_eq!(run.code, Some(130), "{args:?} after SIGINT: {}", run.stderr);
        check_partial(&case, &run, "after SIGINT");
        assert!(run.stderr.contains("interrupted"), "{args:?}: {}", run.stderr);
        let latency = run.latency.unwrap();
        latencies.push((latency, args.join(" ")));

        // --time-limit: exit 3, the same partial answer.
        let run = limited(&bin, &case, &["--time-limit".into(), "0.5".into()]);
        assert_eq!(run.code, Some(3), "{args:?} --time-limit 0.5: {}", run.stderr);
        check_partial(&case, &run, "with --time-limit");
        assert!(run.stderr.contains("the time limit was reached"), "{args:?}: {}", run.stderr);

        // --node-limit: exit 3.
        if let Some(n) = case.node_limit {
            let run = limited(&bin, &case, &["--node-limit".into(), n.to_string()]);
            assert_eq!(run.code, Some(3), "{args:?} --node-limit {n}: {}", run.stderr);
            check_partial(&case, &run, "with --node-limit");
            assert!(run.stderr.contains("the node limit was reached"), "{args:?}: {}", run.stderr);
        }
    }
    latencies.sort();
    println!("from SIGINT to exit (ms), per command:");
    for (latency, command) in &latencies {
        println!("{:>8.1}  dancecard {command}", latency.as_secs_f64() * 1e3);
    }
    let median = latencies[latencies.len() / 2].0;
    println!(
        "median {:.1} ms, max {:.1} ms",
        median.as_secs_f64() * 1e3,
        latencies.last().unwrap().0.as_secs_f64() * 1e3
    );
}
