//! Counting with several threads against one thread (what `dancecard solve --count --method
//! search --threads N` runs), same instance, same run, runs alternating, with the default
//! kernel (`Kernel::Auto`).
//!
//! The instances: domino6x6, domino8x8 and pent6x10 (testdata/instances), dominoes on 8 x 9,
//! and queens 12 to 14 (written here in the encoding of testdata/instances/queens12.dlx). For
//! each: the median wall time and CPU time of each side, the nodes (equal), and the speed-up:
//! the median of the runs' ratios of one thread's time over N threads'.
//!
//! `cargo bench -p dancecard-engine --bench threads [INSTANCE...]` (set
//! `DANCECARD_BENCH_RUNS`, default 3, and `DANCECARD_BENCH_THREADS`, default 2).

use std::time::{Duration, Instant};

use dancecard_engine::parallel::ParallelSearch;
use dancecard_engine::{Config, Problem, Solver};
use dancecard_testkit::{dominoes, queens};

mod common;
use common::{median, problem};

const INSTANCES: [&str; 7] =
    ["domino6x6", "domino8x8", "domino8x9", "pent6x10", "queens12", "queens13", "queens14"];

fn load(name: &str) -> Problem {
    problem(&match name {
        "domino8x9" => dominoes(8, 9),
        "queens13" => queens(13),
        "queens14" => queens(14),
        _ => dancecard_testkit::instance_text(name),
    })
}

/// The process's CPU time so far (user and system), from /proc/self/stat.
fn cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command (in parentheses): utime and stime are the 12th and 13th.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let field = |k: usize| fields.get(k).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
    let ticks = field(11) + field(12);
    // The clock ticks per second of Linux's /proc (USER_HZ) are 100.
    Duration::from_millis(ticks * 10)
}

/// Times `f`: wall and CPU time.
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration, Duration) {
    let (wall, cpu0) = (Instant::now(), cpu());
    let out = f();
    (out, wall.elapsed(), cpu().saturating_sub(cpu0))
}

fn main() {
    let runs: usize =
        std::env::var("DANCECARD_BENCH_RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(3);
    let threads: usize =
        std::env::var("DANCECARD_BENCH_THREADS").ok().and_then(|r| r.parse().ok()).unwrap_or(2);
    let picked: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let picked: Vec<&str> = if picked.is_empty() {
        INSTANCES.to_vec()
    } else {
        picked.iter().map(String::as_str).collect()
    };
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        println!("load average: {}", load.split_whitespace().take(3).collect::<Vec<_>>().join(" "));
    }
    println!("{runs} alternating runs of 1 and {threads} threads, default kernel; medians");
    println!(
        "{:<10} {:>12} {:>13} {:>9} {:>8} {:>9} {:>8} {:>8}",
        "instance", "solutions", "nodes", "1 thread", "CPU", "N thr.", "CPU", "speed-up"
    );
    for name in picked {
        let problem = load(name);
        let config = Config::default();
        let (mut one, mut many, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        let (mut cpu1, mut cpu_n) = (Vec::new(), Vec::new());
        let (mut nodes, mut count) = (0, 0);
        for _ in 0..runs.max(1) {
            let ((outcome, n1), a, ca) = timed(|| {
                let mut solver = Solver::with_config(&problem, config.clone());
                let outcome = solver.count();
                (outcome, solver.stats().nodes)
            });
            let ((outcome_n, stats), b, cb) =
                timed(|| ParallelSearch::new(&problem, config.clone(), threads).count());
            assert_eq!(outcome_n.solutions, outcome.solutions, "{name}: counts differ");
            // The same tree, less the nodes above the units the threads split it into (the
            // units' prefixes are applied, not searched).
            assert!(stats.nodes <= n1 && stats.nodes + 100_000 >= n1, "{name}: another tree");
            (nodes, count) = (n1, outcome.solutions);
            one.push(a.as_secs_f64());
            many.push(b.as_secs_f64());
            cpu1.push(ca.as_secs_f64());
            cpu_n.push(cb.as_secs_f64());
            ratios.push(a.as_secs_f64() / b.as_secs_f64());
        }
        println!(
            "{name:<10} {count:>12} {nodes:>13} {:>8.3}s {:>7.2}s {:>8.3}s {:>7.2}s {:>7.2}x",
            median(one),
            median(cpu1),
            median(many),
            median(cpu_n),
            median(ratios)
        );
    }
}
