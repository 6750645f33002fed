//! `auto` against the better of the plain and the memoised search, on every instance file,
//! and the five families of Nishino et al.'s memoised exact cover benchmark against Knuth's
//! DLX6.
//!
//! Two tables, each from one run:
//!
//! 1. **The instance files** of `testdata/instances` (those without costs): the plain search,
//!    the memoised search and `auto`, `DANCECARD_BENCH_RUNS` (3) rounds, each round the
//!    three in turn; times are medians, and `auto/best` is the median over the rounds of
//!    auto's time over the faster of the other two in that round.
//! 2. **The five families** (bell, doublefact, kts15, sts15, latin6/7), read from their own
//!    `.ec` files in `testdata/instances/ec`, with the same three columns and DLX6 beside them. DLX6 is not in
//!    any registry, so this bench builds nothing of it: set `DANCECARD_DLX6` to a DLX6 binary
//!    built by hand (from Knuth's `dlx6.w`, outside the project); it reads the problem in DLX
//!    text on its standard input, and its time (wall clock around its process, parsing
//!    included) alternates with ours. Its count must agree with ours.
//!
//! Both tables also time the count by stages (`frontier`, in the same rounds) and give its
//! states; `a/best` stays auto over the better of the plain and the memoised search (the
//! issue's measure), and the summary names the files where the count by stages is the
//! fastest of the three.
//!
//! 3. **latin8** (`DANCECARD_BENCH_LARGE=1`): each of the ten files by auto and by `frontier`
//!    (the plain search takes 1-3 minutes a file, the memo about two and 2.4 GB, DLX6 over
//!    two and 10 GB: not run), the counts checked against `latin8-counts.tsv`, with the peak
//!    resident memory of this process.
//!
//! The plain search runs only where its tree (known exactly from the memoised count's
//! `plain_nodes`) has at most [`PLAIN_CAP`] nodes; elsewhere memoisation wins by orders of
//! magnitude and the column says so. The summary gives the worst ratio twice: over the files
//! the better method counts in 10 ms or more (the issue's "files that finish under 10 ms
//! either way aside": noise and fixed costs dominate below), and over the files the slower
//! one does (an unwalked plain tree counts as slow).
//!
//! ```text
//! DANCECARD_DLX6=/path/to/dlx6 cargo bench -p dancecard-engine --bench auto
//! ```

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

use dancecard_engine::{CountMethod, FrontierStats, MemoConfig, Problem, Solver};

mod common;
use common::median;

/// The largest plain tree the bench walks (about 10 s).
const PLAIN_CAP: u64 = 100_000_000;

/// The summary's threshold in seconds (see the module docs).
const TINY: f64 = 0.010;

/// One method's count: seconds, the count, its nodes, and for auto what it picked.
struct Run {
    seconds: f64,
    count: String,
    nodes: u64,
    picked: CountMethod,
    frontier: Option<FrontierStats>,
}

fn count(p: &Problem, method: CountMethod) -> Run {
    let started = Instant::now();
    let mut solver = Solver::new(p);
    let counted = solver
        .count_by(method, &MemoConfig::default(), &mut |_| ControlFlow::Continue(()))
        .expect("the count succeeds");
    let seconds = started.elapsed().as_secs_f64();
    let nodes = counted.memo.map_or(counted.stats.nodes, |m| m.nodes);
    let frontier = counted.frontier;
    Run { seconds, count: counted.count.to_string(), nodes, picked: counted.method, frontier }
}

/// The count by stages within 1 GiB of states, or `None` where the gate refuses the problem
/// (multiplicities) or the states pass the limit (pentominoes, for example).
fn frontier(p: &Problem) -> Option<Run> {
    let started = Instant::now();
    let memo = MemoConfig { limit_bytes: 1 << 30, ..MemoConfig::default() };
    let counted = Solver::new(p)
        .count_by(CountMethod::Frontier, &memo, &mut |_| ControlFlow::Continue(()))
        .ok()?;
    let seconds = started.elapsed().as_secs_f64();
    counted.stop.is_complete().then(|| Run {
        seconds,
        count: counted.count.to_string(),
        nodes: counted.stats.nodes,
        picked: counted.method,
        frontier: counted.frontier,
    })
}

/// The exact plain-search tree size, from a memoised count.
fn plain_nodes(p: &Problem) -> u64 {
    Solver::new(p)
        .count_memo(&MemoConfig::default(), |_, _| ControlFlow::Continue(()))
        .expect("the count succeeds")
        .stats
        .plain_nodes
}

/// DLX6 on `input` (DLX text): its wall time, count and search nodes.
fn dlx6(program: &str, input: &Path) -> Option<(f64, String, u64)> {
    let (seconds, err) = common::run_clocked(program, input)?;
    let stats = err.lines().find(|l| l.starts_with("Altogether"))?;
    let words: Vec<&str> = stats.split_whitespace().collect();
    let k = words.iter().position(|w| w.trim_end_matches(',').starts_with("search"))?;
    let nodes = words[k - 1].trim_end_matches(',').parse().ok()?;
    Some((seconds, words.get(1)?.to_string(), nodes))
}

/// A file's row: the three methods (and DLX6), `runs` rounds; the worst-ratio candidate.
struct Row {
    auto_over_best: f64,
    best: f64,
    worst: f64,
    /// Whether the count by stages beat both the plain and the memoised search.
    frontier_fastest: bool,
}

fn row(name: &str, p: &Problem, runs: usize, theirs: Option<(&str, &Path)>) -> Row {
    let plain_tree = plain_nodes(p);
    let walk_plain = plain_tree <= PLAIN_CAP;
    let (mut search_t, mut memo_t, mut auto_t, mut ratios, mut dlx6_t) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut frontier_t = Vec::new();
    let mut states = None;
    let mut last = None;
    let mut dlx6_nodes = None;
    for _ in 0..runs {
        let s = walk_plain.then(|| count(p, CountMethod::Search));
        let m = count(p, CountMethod::Memo);
        let a = count(p, CountMethod::Auto);
        if let Some(f) = frontier(p) {
            assert_eq!(f.count, m.count, "{name}: frontier and the memoised search disagree");
            frontier_t.push(f.seconds);
            states = f.frontier.map(|f| f.states);
        }
        if let Some(s) = &s {
            assert_eq!(s.count, m.count, "{name}: the plain and the memoised search disagree");
            search_t.push(s.seconds);
        }
        assert_eq!(a.count, m.count, "{name}: auto and the memoised search disagree");
        if let Some((program, input)) = theirs {
            let ran = dlx6(program, input);
            assert!(ran.is_some(), "{name}: DLX6 ({program}) did not run or printed no count");
            if let Some((t, c, n)) = ran {
                // DLX6 counts in 64 bits: past 2^64 its count is ours modulo 2^64.
                let ours: u128 = m.count.parse().expect("the families count within u128");
                assert_eq!(c, (ours % (1u128 << 64)).to_string(), "{name}: DLX6 disagrees");
                dlx6_t.push(t);
                dlx6_nodes = Some(n);
            }
        }
        let best = s.as_ref().map_or(m.seconds, |s| s.seconds.min(m.seconds));
        ratios.push(a.seconds / best);
        memo_t.push(m.seconds);
        auto_t.push(a.seconds);
        last = Some((s, m, a));
    }
    let (s, m, a) = last.expect("at least one round");
    let search = if walk_plain {
        format!("{:>9.4} {:>11}", median(search_t.clone()), s.map_or(0, |s| s.nodes))
    } else {
        format!("{:>9} {:>11.3e}", "-", plain_tree as f64)
    };
    let memo = median(memo_t);
    let (best, worst) = if walk_plain {
        let search = median(search_t);
        (memo.min(search), memo.max(search))
    } else {
        (memo, f64::INFINITY)
    };
    let theirs = match dlx6_nodes {
        Some(n) => format!("{:>9.4} {:>10}", median(dlx6_t), n),
        None => format!("{:>9} {:>10}", "-", "-"),
    };
    let ratio = median(ratios);
    let frontier = (!frontier_t.is_empty()).then(|| median(frontier_t));
    let by_stages = match (frontier, states) {
        (Some(t), Some(n)) => format!("{t:>10.4} {n:>9}"),
        _ => format!("{:>10} {:>9}", "-", "-"),
    };
    println!(
        "{name:<22} {:>20} {search} {memo:>9.4} {:>9} {:>9.4} {:>8} {ratio:>6.2}x {by_stages} \
         {theirs}",
        m.count,
        m.nodes,
        median(auto_t),
        a.picked.name(),
    );
    Row { auto_over_best: ratio, best, worst, frontier_fastest: frontier.is_some_and(|f| f < best) }
}

fn header(last: &str) {
    println!(
        "{:<22} {:>20} {:>9} {:>11} {:>9} {:>9} {:>9} {:>8} {:>7} {:>10} {:>9} {last}",
        "file",
        "count",
        "search s",
        "nodes",
        "memo s",
        "nodes",
        "auto s",
        "picked",
        "a/best",
        "frontier s",
        "states",
    );
}

fn summary(rows: &[(String, Row)]) {
    let fastest: Vec<&str> =
        rows.iter().filter(|(_, r)| r.frontier_fastest).map(|(n, _)| n.as_str()).collect();
    println!("frontier faster than both the plain and the memoised search: {}", fastest.join(" "));
    for (which, keep) in [
        ("the better method", &(|r: &Row| r.best >= TINY) as &dyn Fn(&Row) -> bool),
        ("the slower method", &|r: &Row| r.worst >= TINY),
    ] {
        let judged: Vec<_> = rows.iter().filter(|(_, r)| keep(r)).collect();
        if let Some((name, worst)) =
            judged.iter().max_by(|a, b| a.1.auto_over_best.total_cmp(&b.1.auto_over_best))
        {
            println!(
                "worst auto/best over the {} files {which} counts in {TINY} s or more: {:.2}x \
                 ({name})",
                judged.len(),
                worst.auto_over_best
            );
        }
    }
}

fn files(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("testdata is there")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(&keep))
        .collect();
    files.sort();
    files
}

fn main() {
    let runs: usize =
        std::env::var("DANCECARD_BENCH_RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(3);
    let large = std::env::var_os("DANCECARD_BENCH_LARGE").is_some();
    let program = std::env::var("DANCECARD_DLX6").ok();
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        println!("load average: {}", load.split_whitespace().take(3).collect::<Vec<_>>().join(" "));
    }
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/instances");

    println!("\nthe instance files, {runs} rounds (search, memo, auto in turn)");
    header("");
    let mut rows = Vec::new();
    for path in files(&testdata, |n| n.ends_with(".dlx") && !n.starts_with("cost_")) {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read(&path).expect("an instance file");
        let p = dancecard_format::parse_dlx(&text).expect("the instance parses").problem;
        let r = row(&name, &p, runs, None);
        rows.push((name, r));
    }
    summary(&rows);

    match &program {
        Some(path) => println!("\nthe five families against DLX6 ({path}), {runs} rounds"),
        None => println!("\nthe five families, {runs} rounds (set DANCECARD_DLX6 to run DLX6 too)"),
    }
    header("  DLX6 s      nodes");
    let mut rows = Vec::new();
    let scratch =
        std::env::temp_dir().join(format!("dancecard-bench-auto-{}.dlx", std::process::id()));
    for path in files(&testdata.join("ec"), |n| {
        (n.ends_with(".ec") || n.ends_with(".txt")) && !n.starts_with("latin8")
    }) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read(&path).expect("an instance file");
        let p = dancecard_format::parse_ec(&text).expect("the instance parses").problem;
        let theirs = program.as_deref().map(|program| {
            std::fs::write(&scratch, dancecard_format::write_dlx(&p)).expect("a scratch file");
            (program, scratch.as_path())
        });
        let r = row(&name, &p, runs, theirs);
        rows.push((name, r));
    }
    let _ = std::fs::remove_file(&scratch);
    summary(&rows);
    println!(
        "(a/best: auto's time over the faster of the plain and the memoised search, the median \
         of the rounds' ratios; `-` in the search column: its tree, from the memoised count, \
         is over {PLAIN_CAP:.0e} nodes, not walked; `-` in the frontier column: refused \
         (multiplicities) or past 1 GiB of states; DLX6's time is the wall clock around its \
         process, parsing included)"
    );
    if large {
        latin8(&testdata.join("ec"), runs);
    }
}

/// The ten latin8 files by auto and by the count by stages (see the module docs).
fn latin8(dir: &Path, runs: usize) {
    println!("\nlatin8, {runs} rounds (auto, frontier in turn)");
    println!(
        "{:<22} {:>12} {:>9} {:>10} {:>10} {:>9} {:>8} {:>12}",
        "file", "count", "auto s", "picked", "frontier s", "nodes", "states", "peak bytes"
    );
    let known = std::fs::read_to_string(dir.join("latin8-counts.tsv")).expect("latin8 counts");
    let mut worst: f64 = 0.0;
    for line in known.lines().filter(|l| !l.starts_with('#')) {
        let (file, want) = line.split_once('\t').expect("file and count");
        let text = std::fs::read(dir.join(file)).expect("a latin8 file");
        let p = dancecard_format::parse_ec(&text).expect("the instance parses").problem;
        let (mut auto_t, mut frontier_t) = (Vec::new(), Vec::new());
        let mut last = None;
        for _ in 0..runs {
            let a = count(&p, CountMethod::Auto);
            let f = frontier(&p).expect("frontier counts latin8");
            assert_eq!((a.count.as_str(), f.count.as_str()), (want, want), "{file}");
            auto_t.push(a.seconds);
            frontier_t.push(f.seconds);
            last = Some((a, f));
        }
        let (a, f) = last.expect("at least one round");
        let stats = f.frontier.expect("frontier's counters");
        let (auto_s, frontier_s) = (median(auto_t), median(frontier_t));
        worst = worst.max(auto_s);
        println!(
            "{file:<22} {want:>12} {auto_s:>9.3} {:>10} {frontier_s:>10.3} {:>9} {:>8} {:>12}",
            a.picked.name(),
            f.nodes,
            stats.states,
            stats.peak_bytes
        );
    }
    let rss = std::fs::read_to_string("/proc/self/status").ok().and_then(|s| {
        s.lines()
            .find(|l| l.starts_with("VmHWM:"))
            .map(|l| l.split_whitespace().nth(1).map(str::to_owned))
    });
    println!(
        "slowest latin8 file by auto: {worst:.3} s; peak resident memory of this process: {} kB",
        rss.flatten().unwrap_or_else(|| "?".to_owned())
    );
}
