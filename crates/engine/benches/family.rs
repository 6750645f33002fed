//! Algorithm M (multiplicities) against Knuth's DLX3 on the A001499 encoding (n = 7 and 8).
//!
//! Knuth's programs are not in any registry, so this bench builds nothing of them: set
//! `DANCECARD_DLX3` to a binary built by hand (from his `dlx3.w`, outside the project), and
//! its runs alternate with ours; without it its published figures
//! (`testdata/instances/README.md`) are printed, labelled as such. Each row is the median of
//! `DANCECARD_BENCH_RUNS` runs (3); a run of ours is the search alone (parsing excluded), in
//! this process; a run of theirs reads the file from stdin under `/usr/bin/time`. The machine
//! is noisy, so both the wall clock and the CPU time are given (ours from
//! `/proc/thread-self/schedstat`, theirs user + system from `/usr/bin/time`), and the ratio is
//! the median of the runs' ratios of CPU times. The bench also checks that both programs
//! report the same solutions, nodes and updates.
//!
//! ```text
//! DANCECARD_DLX3=/path/dlx3 cargo bench -p dancecard-engine --bench family
//! ```
//!
//! The minimum-cost search runs against DLX5 the same way (`DANCECARD_DLX5`, run as `dlx5 k3`)
//! on `testdata/instances/cost_pent6x10.dlx` and `cost_domino6x6.dlx`, with DLX5's own tree
//! ([`LowerBound::Dlx5`]: same nodes and updates, checked) and with the item shares (the
//! default: fewer nodes).
//!
//! The memoised count with multiplicities (#28; no anchor: DLX6 has no multiplicities) runs
//! as `solve --count` runs it (`dancecard_engine::count`, method `auto`) and as `--method
//! memo`, against our plain search and DLX3, on A001499 for n = 6 to 8, and alone for n = 10
//! and 12, where the plain searches would take hours.
//!
//! `cargo bench -p dancecard-engine --bench family -- mcc` (or `-- cost`, `-- memo`) runs that
//! part.

use std::time::{Duration, Instant};

use dancecard_engine::{CountMethod, CountRequest, LowerBound, Solver};

mod common;
use common::problem;

/// The A001499 encoding of `n x n`: items `2|R0 .. 2|C{n-1}`, one option `Ri Cj` per cell.
fn a001499(n: usize) -> String {
    let mut text =
        format!("| {n}x{n} 0/1 matrices with two 1s in every row and column (OEIS A001499)\n");
    let rows = (0..n).map(|i| format!("2|R{i}"));
    let cols = (0..n).map(|j| format!("2|C{j}"));
    text.push_str(&rows.chain(cols).collect::<Vec<_>>().join(" "));
    text.push('\n');
    for i in 0..n {
        for j in 0..n {
            text.push_str(&format!("R{i} C{j}\n"));
        }
    }
    text
}

/// CPU time of this thread so far (`/proc/thread-self/schedstat`, in nanoseconds).
fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

/// A timed run: wall clock and CPU time.
#[derive(Clone, Copy, Debug)]
struct Timed {
    wall: f64,
    cpu: f64,
}

fn time<T>(f: impl FnOnce() -> T) -> (T, Timed) {
    let (cpu0, started) = (thread_cpu(), Instant::now());
    let out = f();
    let timed =
        Timed { wall: started.elapsed().as_secs_f64(), cpu: (thread_cpu() - cpu0).as_secs_f64() };
    (out, timed)
}

/// What one of Knuth's programs printed, and its times.
struct Theirs {
    timed: Timed,
    /// Its `stderr`.
    report: String,
}

/// Runs `program args < text` under `/usr/bin/time`; `None` if it cannot be run.
fn theirs(program: &str, args: &[&str], text: &str) -> Option<Theirs> {
    let report = common::run_timed(program, args, "TIME %e %U %S", text)?;
    let time = report.lines().find(|l| l.starts_with("TIME "))?;
    let t: Vec<f64> = time.split_whitespace().skip(1).filter_map(|w| w.parse().ok()).collect();
    Some(Theirs { timed: Timed { wall: *t.first()?, cpu: t.get(1)? + t.get(2)? }, report })
}

/// The number just before `what` in Knuth's "Altogether ..." line.
fn knuth_figure(report: &str, what: &str) -> Option<u128> {
    let line = report.lines().find(|l| l.starts_with("Altogether"))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let k = words.iter().position(|w| w.trim_end_matches([',', '.']).starts_with(what))?;
    words[k - 1].trim_end_matches(',').rsplit('+').next()?.parse().ok()
}

fn median(v: Vec<f64>) -> f64 {
    if v.is_empty() {
        f64::NAN
    } else {
        common::median(v)
    }
}

/// Prints one row: our median times, theirs, and the median ratio of CPU times.
fn row(name: &str, ours: &[Timed], theirs: &[Timed], published: Option<f64>, figures: &str) {
    let ow = median(ours.iter().map(|t| t.wall).collect());
    let oc = median(ours.iter().map(|t| t.cpu).collect());
    if theirs.is_empty() {
        let p = published.unwrap_or(f64::NAN);
        println!(
            "{name:<22} {ow:>8.3} {oc:>8.3} | {:>8} {p:>8.3} | {:>6.2}x (published){figures}",
            "-",
            p / oc
        );
        return;
    }
    let tw = median(theirs.iter().map(|t| t.wall).collect());
    let tc = median(theirs.iter().map(|t| t.cpu).collect());
    let ratio = median(ours.iter().zip(theirs).map(|(o, t)| t.cpu / o.cpu).collect());
    println!("{name:<22} {ow:>8.3} {oc:>8.3} | {tw:>8.3} {tc:>8.3} | {ratio:>6.2}x{figures}");
}

fn header(what: &str, anchor: &str, var: &str, path: &Option<String>, runs: usize) {
    match path {
        Some(p) => println!("\n{what} against {anchor} ({p}), {runs} alternating runs"),
        None => println!(
            "\n{what}, {runs} runs; {anchor}'s figures are the published ones (set {var} to run it)"
        ),
    }
    println!(
        "{:<22} {:>8} {:>8} | {:>8} {:>8} | {:>7}",
        "instance", "wall s", "cpu s", "wall s", "cpu s", "speed"
    );
}

/// Algorithm M against DLX3: A001499 for n = 7 and 8.
fn mcc(runs: usize) {
    let dlx3 = std::env::var("DANCECARD_DLX3").ok();
    header("Algorithm M", "DLX3", "DANCECARD_DLX3", &dlx3, runs);
    // n, solutions, DLX3's nodes and updates, DLX3's published time (the issue's figures).
    let cases = [
        (7, 3_110_940u128, 8_857_320u64, 32_081_499u64, 0.58),
        (8, 187_530_840, 525_481_923, 1_907_916_979, 26.8),
    ];
    for (n, solutions, nodes, updates, published) in cases {
        let text = a001499(n);
        let p = problem(&text);
        let (mut ours, mut their_times) = (Vec::new(), Vec::new());
        for _ in 0..runs {
            let mut solver = Solver::new(&p);
            let (outcome, timed) = time(|| solver.count());
            let s = solver.stats();
            assert_eq!((outcome.solutions, s.nodes, s.updates), (solutions, nodes, updates));
            ours.push(timed);
            if let Some(t) = dlx3.as_deref().and_then(|path| theirs(path, &[], &text)) {
                assert_eq!(knuth_figure(&t.report, "solution"), Some(solutions), "DLX3 n = {n}");
                assert_eq!(knuth_figure(&t.report, "nodes"), Some(u128::from(nodes)));
                assert_eq!(knuth_figure(&t.report, "updates"), Some(u128::from(updates)));
                their_times.push(t.timed);
            }
        }
        let figures = format!("  ({solutions} solutions, {nodes} nodes, {updates} updates)");
        row(&format!("A001499 n = {n}"), &ours, &their_times, Some(published), &figures);
    }
}

/// The memoised count with multiplicities: A001499 by `auto` (as `solve --count`) and by
/// `memo`, side by side with our plain search (Algorithm M) and DLX3 where they finish.
fn memo(runs: usize) {
    let dlx3 = std::env::var("DANCECARD_DLX3").ok();
    println!(
        "\nCounting with multiplicities (A001499), {runs} runs, medians of wall-clock seconds"
    );
    println!(
        "{:<15} {:>9} {:>9} {:>10} {:>9} {:>9} | {:>9} {:>9} | {:>8}",
        "instance",
        "auto s",
        "memo s",
        "memo nodes",
        "hits",
        "entries",
        "plain s",
        "DLX3 s",
        "DLX3/auto"
    );
    // n, A001499(n), whether the plain searches run (n = 8: DLX3 about 20 s a run).
    let cases: [(usize, u128, bool); 5] = [
        (6, 67_950, true),
        (7, 3_110_940, true),
        (8, 187_530_840, true),
        (10, 1_371_785_398_200, false),
        (12, 21_959_547_410_077_200, false),
    ];
    for (n, solutions, plain_too) in cases {
        let text = a001499(n);
        let p = problem(&text);
        let (mut auto_t, mut memo_t, mut plain_t, mut dlx3_t) = (vec![], vec![], vec![], vec![]);
        let mut work = (0, 0, 0);
        let mut picked = CountMethod::Auto;
        for _ in 0..runs {
            for method in [CountMethod::Auto, CountMethod::Memo] {
                let request = CountRequest { method, ..CountRequest::default() };
                let (counted, timed) =
                    time(|| dancecard_engine::count(&p, &request, &|_| {}).expect("counts"));
                assert_eq!(counted.count, solutions, "A001499 n = {n} by {method:?}");
                match method {
                    CountMethod::Auto => {
                        picked = counted.method;
                        auto_t.push(timed.wall);
                    }
                    _ => {
                        let m = counted.memo.expect("the memoised count's counters");
                        work = (m.nodes, m.hits, m.entries);
                        memo_t.push(timed.wall);
                    }
                }
            }
            if plain_too {
                let mut solver = Solver::new(&p);
                let (outcome, timed) = time(|| solver.count());
                assert_eq!(outcome.solutions, solutions);
                plain_t.push(timed.wall);
                if let Some(t) = dlx3.as_deref().and_then(|path| theirs(path, &[], &text)) {
                    assert_eq!(
                        knuth_figure(&t.report, "solution"),
                        Some(solutions),
                        "DLX3 n = {n}"
                    );
                    dlx3_t.push(t.timed.wall);
                }
            }
        }
        let (auto, memo, plain, dlx3s) =
            (median(auto_t), median(memo_t), median(plain_t), median(dlx3_t));
        println!(
            "A001499 n = {n:<3} {auto:>9.4} {memo:>9.4} {:>10} {:>9} {:>9} | {plain:>9.3} {dlx3s:>9.3} | {:>7.0}x  (auto: {})",
            work.0,
            work.1,
            work.2,
            dlx3s / auto,
            picked.name()
        );
    }
}

/// The minimum-cost search against DLX5: the 3 best solutions of Knuth-style cost files.
fn cost(runs: usize) {
    let dlx5 = std::env::var("DANCECARD_DLX5").ok();
    header("Minimum cost, 3 best", "DLX5", "DANCECARD_DLX5", &dlx5, runs);
    // File, best costs, DLX5's nodes and updates (k = 3), DLX5's published time.
    let cases = [
        ("cost_pent6x10", [235u64, 253, 259], 204_170u64, 67_853_551u64, Some(0.63)),
        ("cost_domino6x6", [43, 44, 46], 0, 0, None),
    ];
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/instances");
    for (name, costs, nodes, updates, published) in cases {
        let text = std::fs::read_to_string(format!("{dir}/{name}.dlx")).expect("the instance");
        let p = problem(&text);
        for bound in [LowerBound::Dlx5, LowerBound::ItemShares] {
            let (mut ours, mut their_times) = (Vec::new(), Vec::new());
            let mut work = (0, 0);
            for _ in 0..runs {
                let mut solver = Solver::new(&p);
                let (result, timed) = time(|| solver.min_cost_with(3, bound).expect("no bounds"));
                let best: Vec<u64> = result.best.iter().map(|s| s.cost).collect();
                assert_eq!(best, costs, "{name}");
                work = (result.stats.nodes, result.stats.updates);
                if bound == LowerBound::Dlx5 && nodes > 0 {
                    assert_eq!(work, (nodes, updates), "DLX5's tree on {name}");
                }
                ours.push(timed);
                if let Some(t) = dlx5.as_deref().and_then(|path| theirs(path, &["k3"], &text)) {
                    if bound == LowerBound::Dlx5 {
                        assert_eq!(knuth_figure(&t.report, "nodes"), Some(u128::from(work.0)));
                        assert_eq!(knuth_figure(&t.report, "updates"), Some(u128::from(work.1)));
                    }
                    their_times.push(t.timed);
                }
            }
            let label = if bound == LowerBound::Dlx5 { "dlx5 tree" } else { "item shares" };
            let figures = format!("  ({label}: {} nodes, {} updates)", work.0, work.1);
            row(name, &ours, &their_times, published, &figures);
        }
    }
}

fn main() {
    let runs: usize =
        std::env::var("DANCECARD_BENCH_RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(3);
    let only: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let wanted = |part: &str| only.is_empty() || only.iter().any(|o| o == part);
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        println!("load average: {}", load.split_whitespace().take(3).collect::<Vec<_>>().join(" "));
    }
    if wanted("mcc") {
        mcc(runs);
    }
    if wanted("cost") {
        cost(runs);
    }
    if wanted("memo") {
        memo(runs);
    }
    println!("\n(cpu: CPU time; speed: the median over runs of theirs over ours, in CPU time)");
}
