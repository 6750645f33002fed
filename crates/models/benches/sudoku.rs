//! Sudoku benchmark over tdoku's datasets (`testdata/sudoku/puzzles*`), in `--unique` mode
//! (count up to 2 solutions, no solution grid built and no per-puzzle time taken, as
//! `dancecard sudoku --unique` does),
//! single thread: the mode of published rates.
//!
//! Before criterion's measurements, the fast solver passes over each set for 1.5 s
//! (`DANCECARD_BENCH_SECS`) and prints the median and the best pass in puzzles per second,
//! the best against the target rate, and search-tree nodes per puzzle (nodes do not depend on
//! the machine); one DLX pass over the first 2000 puzzles of each set follows. Run with
//! `cargo bench -p dancecard-models --bench sudoku` (add `-- nomatch` to skip criterion).

use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dancecard_models::sudoku::{parse_puzzles, Grid, Method, Options, Solver};

/// The sets, each with the published rate of the fastest solver on it in puzzles per second
/// (the targets, measured on this kind of machine).
const SETS: [(&str, f64); 5] = [
    ("puzzles2_17_clue", 3.1e5),
    ("puzzles3_magictour_top1465", 1.1e5),
    ("puzzles5_forum_hardest_1905_11+", 1.3e4),
    ("puzzles6_forum_hardest_1106", 1.2e4),
    ("puzzles7_serg_benchmark", 4.5e5),
];

fn load(name: &str) -> Vec<Grid> {
    let path = format!("{}/../../testdata/sudoku/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("benchmark data in testdata/sudoku");
    parse_puzzles(&text, None).into_iter().map(|p| p.expect("valid puzzle").grid).collect()
}

/// Solves every grid in `--unique` mode; returns the total nodes.
fn run(solver: &mut Solver, grids: &[Grid], options: &Options) -> u64 {
    grids.iter().map(|g| solver.search(g, options).nodes).sum()
}

/// Passes over `grids` for about `seconds` (at least 3): the median and the best rate in
/// puzzles per second, and the nodes of a pass. On a machine whose speed drifts, the best
/// pass is the steadiest figure.
fn passes(solver: &mut Solver, grids: &[Grid], options: &Options, seconds: f64) -> (f64, f64, u64) {
    let started = Instant::now();
    let mut rates = Vec::new();
    let mut nodes = 0;
    while rates.len() < 3 || started.elapsed().as_secs_f64() < seconds {
        let pass = Instant::now();
        nodes = run(solver, grids, options);
        rates.push(grids.len() as f64 / pass.elapsed().as_secs_f64());
    }
    rates.sort_by(f64::total_cmp);
    (rates[rates.len() / 2], rates[rates.len() - 1], nodes)
}

fn sudoku(c: &mut Criterion) {
    let seconds: f64 =
        std::env::var("DANCECARD_BENCH_SECS").ok().and_then(|s| s.parse().ok()).unwrap_or(1.5);
    println!(
        "passes over each set for {seconds} s (DANCECARD_BENCH_SECS): median and best pass; \
         DLX on the first 2000 puzzles, one pass"
    );
    let mut group = c.benchmark_group("sudoku-unique");
    group.sample_size(10);
    for (set, target) in SETS {
        let grids = load(set);
        let mut solver = Solver::new();
        let options = Options::new(Method::Fast).limit(2).skip_solution().skip_timing();
        let (median, best, nodes) = passes(&mut solver, &grids, &options, seconds);
        println!(
            "{set:<34} fast {:>6} puzzles {:>8.1} nodes/puzzle  median {median:>9.0}/s  \
             best {best:>9.0}/s  best/target {:.2}",
            grids.len(),
            nodes as f64 / grids.len() as f64,
            best / target,
        );
        let dlx = &grids[..2000.min(grids.len())];
        let options = Options::new(Method::Dlx).limit(2).skip_solution().skip_timing();
        let started = Instant::now();
        let nodes = run(&mut solver, dlx, &options);
        println!(
            "{set:<34} dlx  {:>6} puzzles {:>8.1} nodes/puzzle  one pass {:>7.0}/s",
            dlx.len(),
            nodes as f64 / dlx.len() as f64,
            dlx.len() as f64 / started.elapsed().as_secs_f64(),
        );
        let options = Options::new(Method::Fast).limit(2).skip_solution().skip_timing();
        group.throughput(Throughput::Elements(grids.len() as u64));
        group.bench_function(format!("fast/{set}"), |b| {
            b.iter(|| run(&mut solver, &grids, &options));
        });
    }
    group.finish();
}

criterion_group!(benches, sudoku);
criterion_main!(benches);
