//! The minimum-cost search (`solve --min-cost`) against Knuth's DLX5 and Google OR-tools'
//! CP-SAT, on the cost files of `testdata/instances` and on larger families generated here.
//!
//! Neither anchor is in the Rust registry, so this bench builds nothing of them: set
//! `DANCECARD_DLX5` to a DLX5 binary built by hand (from Knuth's `dlx5.w`, outside the
//! project), and CP-SAT runs when `python3` (or `DANCECARD_PYTHON`) imports `ortools`
//! (`pip install ortools`), through `benches/cpsat_mincost.py` (one worker; the model: one
//! Boolean per option, exactly one per primary item, at most one per secondary item). Each is
//! skipped, with a line saying so, when it is not there.
//!
//! Each row is the median of `DANCECARD_BENCH_RUNS` rounds (3); a round runs ours with the
//! default bound ([`LowerBound::Auto`]), ours with the item shares on DLX5's taxes (the
//! default before the relaxation's taxes), ours with the relaxation's taxes (the two that
//! `Auto` chooses between), DLX5, then CP-SAT, each stopped after
//! `DANCECARD_BENCH_LIMIT` seconds (60). Ours is timed in this process by the wall clock (one
//! thread; the problem parsed beforehand, the taxes included); DLX5 by `/usr/bin/time` (user +
//! system, reading the file included); CP-SAT by the wall clock of its solve (one worker, the
//! model built beforehand). The bench checks that every run that proves an optimum proves the same one.
//! Nodes are machine-independent: they are printed beside the times.
//!
//! ```text
//! DANCECARD_DLX5=/path/dlx5 cargo bench -p dancecard-models --bench mincost
//! cargo bench -p dancecard-models --bench mincost -- domino16   (the rows whose name has it)
//! ```
//!
//! `DANCECARD_BENCH_KEEP=DIR` writes each row's DLX file into `DIR` (`pent8x8-centre.dlx`, ...)
//! to run by hand.
//!
//! The generated families (no target; recorded): dominoes on 20x20 and 24x24 with costs 0..9
//! (seed 7, as `cost_domino*.dlx`), and the twelve pentominoes on 8x8 minus its centre with
//! costs 0..99 (seed 5, as `cost_pent6x10.dlx`), each placement's cost drawn in option order
//! from the engine's SplitMix64.

use std::process::Command;
use std::time::{Duration, Instant};

use dancecard_engine::{Budget, Config, LowerBound, Problem, Solver, SplitMix64};
use dancecard_models::tiling::{named_set, Board, Tiling};

/// One row: a name, the DLX text, how many best solutions, the optimum when known.
struct Case {
    name: String,
    text: String,
    k: usize,
    optimum: Option<u64>,
}

/// What one run found: the best cost, whether proven, its time in seconds, and nodes.
#[derive(Clone, Debug)]
struct Run {
    cost: Option<u64>,
    proven: bool,
    seconds: f64,
    nodes: Option<u64>,
}

fn instance(name: &str) -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/instances");
    std::fs::read_to_string(format!("{dir}/{name}.dlx")).expect("the instance")
}

/// A tiling's exact cover in DLX text, each option given a cost in `0..=high` drawn in option
/// order from SplitMix64 seeded with `seed`.
fn with_costs(title: &str, tiling: &Tiling, high: u64, seed: u64) -> String {
    let problem = tiling.exact_cover();
    let mut rng = SplitMix64::new(seed);
    let plain = dancecard_format::write_dlx(problem);
    let mut lines = plain.lines().filter(|l| !l.starts_with('|'));
    let mut text = format!("| {title}, each placement with a cost 0..{high} from seed {seed}\n");
    text.push_str(lines.next().expect("the item line"));
    text.push('\n');
    for line in lines {
        text.push_str(&format!("{line} |{}\n", rng.next_u64() % (high + 1)));
    }
    text
}

fn dominoes(n: usize) -> String {
    let board = Board::rectangle(n, n).expect("a board");
    let tiling =
        Tiling::builder(board, named_set("dominoes").expect("dominoes")).build().expect("a tiling");
    with_costs(&format!("dominoes on {n}x{n}"), &tiling, 9, 7)
}

fn pentominoes_8x8_minus_centre() -> String {
    let art = "########\n########\n########\n###..###\n###..###\n########\n########\n########\n";
    let board = Board::parse(art).expect("a board");
    let tiling = Tiling::builder(board, named_set("pentominoes").expect("pentominoes"))
        .once(true)
        .build()
        .expect("a tiling");
    with_costs("the 12 pentominoes on 8x8 minus its centre", &tiling, 99, 5)
}

fn cases() -> Vec<Case> {
    let file = |name: &str, k, optimum| Case {
        name: if k == 1 { name.to_string() } else { format!("{name} (k={k})") },
        text: instance(name),
        k,
        optimum: Some(optimum),
    };
    let generated = |name: &str, text| Case { name: name.to_string(), text, k: 1, optimum: None };
    vec![
        file("cost_pent6x10", 1, 235),
        file("cost_pent6x10", 3, 259),
        file("cost_domino12x12", 1, 187),
        file("cost_domino14x14", 1, 247),
        file("cost_domino16x16", 1, 319),
        file("cost_assign60", 1, 204),
        file("cost_assign100", 1, 206),
        generated("domino20x20", dominoes(20)),
        generated("domino24x24", dominoes(24)),
        generated("pent8x8-centre", pentominoes_8x8_minus_centre()),
    ]
}

/// Ours, with `bound`, stopped after `limit`.
fn ours(problem: &Problem, k: usize, bound: LowerBound, limit: Duration) -> Run {
    let config =
        Config { budget: Budget { time_limit: Some(limit), ..Budget::new() }, ..Config::default() };
    let mut solver = Solver::with_config(problem, config);
    let started = Instant::now();
    let found = solver.min_cost_with(k, bound).expect("no multiplicities");
    let seconds = started.elapsed().as_secs_f64();
    Run {
        cost: found.best.last().map(|s| s.cost),
        proven: found.is_complete(),
        seconds,
        nodes: Some(found.stats.nodes),
    }
}

/// The file the anchors read.
fn scratch_file(text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dancecard-mincost-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let path = dir.join("in.dlx");
    std::fs::write(&path, text).expect("the scratch file");
    path
}

/// DLX5 (`dlx5 k<k>`, reading the file on stdin) under `/usr/bin/time` and `timeout`.
fn dlx5(program: &str, path: &std::path::Path, k: usize, limit: Duration) -> Option<Run> {
    let out = Command::new("/usr/bin/time")
        .args(["-f", "TIME %e %U %S", "timeout", &format!("{}", limit.as_secs_f64())])
        .args([program, &format!("k{k}")])
        .stdin(std::fs::File::open(path).ok()?)
        .output()
        .ok()?;
    let report = String::from_utf8_lossy(&out.stderr);
    let proven = out.status.success();
    // "The optimum cost is $N" when it ends; the last "$N" it printed otherwise (stdout).
    let stdout = String::from_utf8_lossy(&out.stdout);
    let dollars = |text: &str| -> Option<u64> {
        text.lines().rev().find_map(|l| {
            let at = l.find('$')?;
            l[at + 1..].split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
        })
    };
    let cost = dollars(&report).or_else(|| dollars(&stdout));
    let times: Vec<f64> = report
        .lines()
        .find(|l| l.starts_with("TIME "))
        .map(|l| l.split_whitespace().skip(1).filter_map(|w| w.parse().ok()).collect())
        .unwrap_or_default();
    let seconds = if times.len() == 3 { times[1] + times[2] } else { limit.as_secs_f64() };
    let nodes = report.lines().find(|l| l.starts_with("Altogether")).and_then(|l| {
        let words: Vec<&str> = l.split_whitespace().collect();
        let at = words.iter().position(|w| w.starts_with("nodes"))?;
        words[at - 1].trim_end_matches(',').rsplit('+').next()?.parse().ok()
    });
    Some(Run { cost, proven: proven && times.len() == 3, seconds, nodes })
}

/// CP-SAT through `cpsat_mincost.py`; `None` when `ortools` is not importable.
fn cpsat(python: &str, path: &std::path::Path, limit: Duration) -> Option<Run> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/cpsat_mincost.py");
    let out = Command::new(python)
        .arg(script)
        .arg(path)
        .args(["--time-limit", &format!("{}", limit.as_secs_f64())])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let line = String::from_utf8_lossy(&out.stdout);
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() != 5 {
        return None;
    }
    Some(Run {
        cost: words[2].parse().ok(),
        proven: words[1] == "optimal",
        seconds: words[4].parse().ok()?,
        nodes: None,
    })
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// "0.012 s, 61 nodes", or "not proven in 60 s (best 325)" (`limit`: the wall-clock limit).
fn cell(runs: &[Run], limit: Duration) -> String {
    if runs.is_empty() {
        return "-".to_string();
    }
    let t = median(runs.iter().map(|r| r.seconds).collect());
    let last = &runs[runs.len() - 1];
    let nodes = last.nodes.map_or(String::new(), |n| format!(", {n} nodes"));
    if runs.iter().all(|r| r.proven) {
        format!("{t:.4} s{nodes}")
    } else {
        let best = last.cost.map_or("none".to_string(), |c| c.to_string());
        format!("not proven in {:.0} s (best {best}{nodes})", limit.as_secs_f64())
    }
}

fn main() {
    let runs: usize =
        std::env::var("DANCECARD_BENCH_RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(3);
    let limit = Duration::from_secs_f64(
        std::env::var("DANCECARD_BENCH_LIMIT").ok().and_then(|r| r.parse().ok()).unwrap_or(60.0),
    );
    let only: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let dlx5_path = std::env::var("DANCECARD_DLX5").ok();
    let python = std::env::var("DANCECARD_PYTHON").unwrap_or_else(|_| "python3".to_string());
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        println!("load average: {}", load.split_whitespace().take(3).collect::<Vec<_>>().join(" "));
    }
    match &dlx5_path {
        Some(p) => println!("DLX5: {p}"),
        None => println!("DLX5: skipped (set DANCECARD_DLX5 to a dlx5 binary)"),
    }
    println!("{runs} alternating rounds, each run stopped after {} s", limit.as_secs_f64());
    let mut cpsat_there = true;
    let started = Instant::now();
    for case in cases() {
        if !only.is_empty() && !only.iter().any(|o| case.name.contains(o.as_str())) {
            continue;
        }
        let problem = dancecard_format::parse_dlx(case.text.as_bytes()).expect("parses").problem;
        let path = scratch_file(&case.text);
        if let Ok(dir) = std::env::var("DANCECARD_BENCH_KEEP") {
            let name: String = case.name.chars().take_while(|&c| c != ' ').collect();
            let kept = std::path::Path::new(&dir).join(format!("{name}.dlx"));
            std::fs::write(&kept, &case.text).expect("DANCECARD_BENCH_KEEP: a directory");
        }
        let (mut auto, mut shares, mut relaxed) = (vec![], vec![], vec![]);
        let (mut theirs5, mut sat) = (vec![], vec![]);
        for _ in 0..runs {
            auto.push(ours(&problem, case.k, LowerBound::Auto, limit));
            shares.push(ours(&problem, case.k, LowerBound::ItemShares, limit));
            relaxed.push(ours(&problem, case.k, LowerBound::Relaxation, limit));
            if let Some(p) = &dlx5_path {
                theirs5.extend(dlx5(p, &path, case.k, limit));
            }
            if cpsat_there && case.k == 1 {
                match cpsat(&python, &path, limit) {
                    Some(r) => sat.push(r),
                    None => {
                        println!("CP-SAT: skipped ({python} does not import ortools)");
                        cpsat_there = false;
                    }
                }
            }
        }
        // Every proven optimum is the same one.
        let proven: Vec<u64> = [&auto, &shares, &relaxed, &theirs5, &sat]
            .iter()
            .flat_map(|rs| rs.iter().filter(|r| r.proven).filter_map(|r| r.cost))
            .collect();
        let want = case.optimum.or(proven.first().copied());
        assert!(proven.iter().all(|&c| Some(c) == want), "{}: optima {proven:?}", case.name);
        let best_anchor = [&theirs5, &sat]
            .iter()
            .filter(|rs| !rs.is_empty() && rs.iter().all(|r| r.proven))
            .map(|rs| median(rs.iter().map(|r| r.seconds).collect()))
            .fold(f64::INFINITY, f64::min);
        let ours_t = median(auto.iter().map(|r| r.seconds).collect());
        let ratio = if best_anchor.is_finite() && auto.iter().all(|r| r.proven) {
            format!("{:.1}x", best_anchor / ours_t.max(1e-6))
        } else {
            "-".to_string()
        };
        let optimum = want.map_or("?".to_string(), |c| c.to_string());
        println!("\n{} (optimum {optimum})", case.name);
        println!("  ours, auto        {}", cell(&auto, limit));
        println!("  ours, shares      {}", cell(&shares, limit));
        println!("  ours, relaxation  {}", cell(&relaxed, limit));
        println!("  DLX5              {}", cell(&theirs5, limit));
        let sat = if case.k == 1 { cell(&sat, limit) } else { "(k = 1 only)".into() };
        println!("  CP-SAT (1 worker) {sat}");
        println!("  speed, the better anchor's time over ours: {ratio}");
    }
    println!(
        "\n(seconds: medians; ours and CP-SAT's by the wall clock, DLX5's in CPU time; {:.0} s in all)",
        started.elapsed().as_secs_f64()
    );
}
