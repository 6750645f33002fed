//! Counting with several threads against one thread, same instance, same run, with the
//! default kernel (`Kernel::Auto`: the bit sets on pent6x10) and on the dancing links.
//!
//! `cargo bench -p dancecard-engine --bench threads [INSTANCE...]` (default pent6x10; set
//! `DANCECARD_BENCH_RUNS`, default 3, and `DANCECARD_BENCH_THREADS`, default 2).

use std::time::{Duration, Instant};

use dancecard_engine::parallel::ParallelSearch;
use dancecard_engine::{Config, Kernel, Solver};

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let runs: usize =
        std::env::var("DANCECARD_BENCH_RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(3);
    let threads: usize =
        std::env::var("DANCECARD_BENCH_THREADS").ok().and_then(|r| r.parse().ok()).unwrap_or(2);
    let mut picked: Vec<String> =
        std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    if picked.is_empty() {
        picked.push("pent6x10".to_owned());
    }
    println!(
        "{:<10} {:<6} {:>10} {:>14} {:>10} {:>14} {:>9} {:>8}",
        "instance",
        "kernel",
        "solutions",
        "nodes (1)",
        "1 thread",
        "nodes (N)",
        "N threads",
        "speedup"
    );
    for (name, kernel) in picked.iter().flat_map(|n| [(n, Kernel::Auto), (n, Kernel::Links)]) {
        let config = Config { kernel, ..Config::default() };
        let path = format!("{}/../../testdata/instances/{name}.dlx", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let problem = dancecard_format::parse_dlx(&text).expect("instance parses").problem;
        let (mut one, mut many) = (Vec::new(), Vec::new());
        let (mut nodes1, mut nodes_n, mut count) = (0, 0, 0);
        for _ in 0..runs.max(1) {
            let started = Instant::now();
            let mut solver = Solver::with_config(&problem, config.clone());
            let outcome = solver.count();
            one.push(started.elapsed());
            nodes1 = solver.stats().nodes;
            count = outcome.solutions;

            let started = Instant::now();
            let (outcome, stats) = ParallelSearch::new(&problem, config.clone(), threads).count();
            many.push(started.elapsed());
            nodes_n = stats.nodes;
            assert_eq!(outcome.solutions, count, "{name}: counts differ");
        }
        let (a, b) = (median(one), median(many));
        println!(
            "{:<10} {:<6} {:>10} {:>14} {:>9.3}s {:>14} {:>8.3}s {:>7.2}x  ({threads} threads)",
            name,
            format!("{kernel:?}"),
            count,
            nodes1,
            a.as_secs_f64(),
            nodes_n,
            b.as_secs_f64(),
            a.as_secs_f64() / b.as_secs_f64()
        );
    }
}
