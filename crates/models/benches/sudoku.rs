//! Sudoku benchmark over tdoku's datasets (`testdata/sudoku/puzzles*`), in `--unique` mode
//! (count up to 2 solutions, no solution grid built, as `dancecard sudoku --unique` does),
//! single thread: the mode of published rates.
//!
//! Before criterion's measurements, one timed pass per dataset and method prints puzzles per
//! second and search-tree nodes per puzzle (nodes do not depend on the machine). The DLX pass
//! takes the first 2000 puzzles of each set. Run with `cargo bench -p dancecard-models`.

use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dancecard_models::sudoku::{parse_puzzles, Grid, Method, Options, Solver};

const SETS: [&str; 5] = [
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
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

fn sudoku(c: &mut Criterion) {
    let mut group = c.benchmark_group("sudoku-unique");
    group.sample_size(10);
    for set in SETS {
        let grids = load(set);
        let mut solver = Solver::new();
        for (method, name, take) in
            [(Method::Fast, "fast", grids.len()), (Method::Dlx, "dlx", 2000)]
        {
            let grids = &grids[..take.min(grids.len())];
            let options = Options::new(method).limit(2).skip_solution();
            let started = Instant::now();
            let nodes = run(&mut solver, grids, &options);
            let seconds = started.elapsed().as_secs_f64();
            println!(
                "{set:<34} {name:<4} {:>6} puzzles {:>10.0} puzzles/s {:>8.1} nodes/puzzle",
                grids.len(),
                grids.len() as f64 / seconds,
                nodes as f64 / grids.len() as f64
            );
        }
        let options = Options::new(Method::Fast).limit(2).skip_solution();
        group.throughput(Throughput::Elements(grids.len() as u64));
        group.bench_function(format!("fast/{set}"), |b| {
            b.iter(|| run(&mut solver, &grids, &options));
        });
    }
    group.finish();
}

criterion_group!(benches, sudoku);
criterion_main!(benches);
