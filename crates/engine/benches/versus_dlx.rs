//! dancecard's engine against the `dlx` crate (0.8.5, a faithful port of Knuth's DLX1) on the
//! same DLX files, in the same run, single thread.
//!
//! Both count all solutions with the minimum-remaining-values heuristic, so both search the
//! same tree: the bench checks that their node counts agree before it times anything.
//! dancecard runs twice: on its dancing links (`Kernel::Links`, the like-for-like comparison
//! with DLX1) and with the kernel it picks by default (`Kernel::Auto`: the fastest of the links
//! and the bit sets on the first 10,000 nodes; same tree, same nodes and updates). The runs
//! alternate between the engines (to spread the machine's noise over all), and the table gives
//! median times, machine-independent work (nodes, updates) and the speed ratios: each the
//! median over the runs of that run's ratio (the `dlx` crate's time over ours).
//!
//! `cargo bench -p dancecard-engine --bench versus_dlx` (set `DANCECARD_BENCH_RUNS` to change
//! the number of timed runs per engine, 5 by default; pass instance names to pick some). A run
//! of a short instance repeats its search until it lasts about 0.3 s and reports the mean.

use std::time::{Duration, Instant};

use dancecard_engine::{Config, Kernel, Solver};
use dlx::choose::{mrv_chooser, no_tiebreak, prefer_any};

mod common;
use common::median;

const INSTANCES: [&str; 3] = ["domino8x8", "pent6x10", "queens12"];

struct Run {
    time: Duration,
    solutions: u128,
    nodes: u64,
    updates: u64,
}

fn links(text: &str) -> Run {
    ours(text, Kernel::Links)
}

fn auto(text: &str) -> Run {
    ours(text, Kernel::Auto)
}

fn ours(text: &str, kernel: Kernel) -> Run {
    let doc = dancecard_format::parse_dlx(text.as_bytes()).expect("instance parses");
    let started = Instant::now();
    let mut solver = Solver::with_config(&doc.problem, Config { kernel, ..Config::default() });
    let outcome = solver.count();
    let time = started.elapsed();
    let s = solver.stats();
    Run { time, solutions: outcome.solutions, nodes: s.nodes, updates: s.updates }
}

fn theirs(text: &str) -> Run {
    let spec = dlx::Spec::new(text, false).expect("dlx reads the instance");
    let mut problem =
        dlx::x::Problem::from_spec(&spec, dlx::OptOrder::Seq).expect("dlx builds the instance");
    let started = Instant::now();
    let mut solver = dlx::Solver::new(&mut problem);
    let mut chooser = mrv_chooser(prefer_any(), no_tiebreak());
    let mut solutions = 0u128;
    while solver.next_solution(&mut chooser) {
        solutions += 1;
    }
    let time = started.elapsed();
    // dlx keeps a per-level profile of nodes entered; DLX1 adds one node per solution.
    let nodes = solver.get_profile().iter().sum::<usize>() as u64 + solutions as u64;
    let updates = solver.get_updates() as u64;
    Run { time, solutions, nodes, updates }
}

fn main() {
    let runs: usize =
        std::env::var("DANCECARD_BENCH_RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(5);
    let picked: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    // `DANCECARD_BENCH_ENGINE=ours|dlx` runs one engine only, once (for profilers).
    match std::env::var("DANCECARD_BENCH_ENGINE").as_deref() {
        Ok("ours") => {
            return picked
                .iter()
                .for_each(|n| println!("{}", auto(&dancecard_testkit::instance_text(n)).nodes))
        }
        Ok("links") => {
            return picked
                .iter()
                .for_each(|n| println!("{}", links(&dancecard_testkit::instance_text(n)).nodes))
        }
        Ok("dlx") => {
            return picked
                .iter()
                .for_each(|n| println!("{}", theirs(&dancecard_testkit::instance_text(n)).nodes))
        }
        _ => {}
    }
    println!(
        "{runs} runs alternating links, auto, dlx (DANCECARD_BENCH_RUNS); times: medians; \
         ratios: the median of the runs' ratios (dlx's time over ours)"
    );
    println!(
        "{:<10} {:>12} {:>14} {:>15} {:>9} {:>9} {:>9} {:>7} {:>7}",
        "instance",
        "solutions",
        "nodes",
        "updates",
        "links",
        "auto",
        "dlx 0.8.5",
        "links x",
        "auto x"
    );
    for name in INSTANCES {
        if !picked.is_empty() && !picked.iter().any(|p| p == name) {
            continue;
        }
        let text = dancecard_testkit::instance_text(name);
        // A short instance is searched several times per timed run (at least ~0.3 s of each
        // engine), so that timer and scheduler noise stay small against the run.
        let warm = links(&text);
        let reps = (0.3 / warm.time.as_secs_f64().max(1e-6)).ceil().clamp(1.0, 1000.0) as u32;
        let repeat = |engine: fn(&str) -> Run| {
            let mut total = Duration::ZERO;
            let mut run = engine(&text);
            total += run.time;
            for _ in 1..reps {
                run = engine(&text);
                total += run.time;
            }
            run.time = total / reps;
            run
        };
        let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
        let (mut links_x, mut auto_x) = (Vec::new(), Vec::new());
        let mut last = None;
        for _ in 0..runs.max(1) {
            let x = repeat(links);
            let z = repeat(auto);
            let y = repeat(theirs);
            assert_eq!(x.solutions, y.solutions, "{name}: solution counts differ");
            assert_eq!(x.nodes, y.nodes, "{name}: the two engines searched different trees");
            assert_eq!(
                (z.solutions, z.nodes, z.updates),
                (x.solutions, x.nodes, x.updates),
                "{name}: the kernels searched different trees"
            );
            // (The `dlx` crate counts updates its own way, so only ours, which are DLX1's, are
            // shown; the node counts prove the trees equal.)
            let _ = y.updates;
            links_x.push(y.time.as_secs_f64() / x.time.as_secs_f64());
            auto_x.push(y.time.as_secs_f64() / z.time.as_secs_f64());
            a.push(x.time);
            c.push(z.time);
            b.push(y.time);
            last = Some(x);
        }
        let run = last.expect("at least one run");
        let (a, b, c) = (median(a).as_secs_f64(), median(b).as_secs_f64(), median(c).as_secs_f64());
        println!(
            "{:<10} {:>12} {:>14} {:>15} {:>8.3}s {:>8.3}s {:>8.3}s {:>6.2}x {:>6.2}x",
            name,
            run.solutions,
            run.nodes,
            run.updates,
            a,
            c,
            b,
            median(links_x),
            median(auto_x)
        );
    }
}
