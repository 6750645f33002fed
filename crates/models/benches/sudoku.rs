//! Sudoku benchmark over tdoku's datasets (`testdata/sudoku/puzzles*`), in `--unique` mode
//! (count up to 2 solutions, no solution grid built and no per-puzzle time taken, as
//! `dancecard sudoku --unique` does), one thread: the mode of published rates.
//!
//! Side by side, in the same run, alternating (the order flips every round): the fast
//! solver, the Rust [`sudoku`](https://crates.io/crates/sudoku) crate from crates.io (always),
//! and tdoku itself when `DANCECARD_TDOKU` names its `run_benchmark` program (built from
//! t-dillon/tdoku's source outside this project: `./BUILD.sh run_benchmark`). Each round
//! warms every solver up (1 s) and then passes over the whole set repeatedly for
//! `DANCECARD_BENCH_SECS` seconds (default 2; tdoku takes whole seconds): the rate is
//! puzzles / time of those passes, as tdoku's own benchmark measures (`-r0` keeps its
//! puzzles as given, not permuted, so all three solve the same puzzles). The headline is the
//! median over `DANCECARD_BENCH_RUNS` rounds (default 5) of the per-round ratios.
//!
//! The sudoku crate gets pre-parsed puzzles, as dancecard does; tdoku reads each puzzle's 81
//! characters inside its timed loop (a loop over 81 bytes, small beside a search).
//! `PUBLISHED` keeps the rates an earlier issue gave as targets, for reference only.
//! One DLX pass over the first 2000 puzzles of each set follows. Run with
//! `DANCECARD_TDOKU=/path/to/run_benchmark cargo bench -p dancecard-models --bench sudoku --
//! nomatch` (without `nomatch`, criterion measures the fast solver afterwards).

use std::process::Command;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dancecard_models::sudoku::{parse_puzzles, Grid, Method, Options, Solver};

/// The sets, each with a published rate in puzzles per second: the targets an earlier issue
/// gave for tdoku on this kind of machine. Printed for reference; the ratios come from
/// measurements in the same run.
const PUBLISHED: [(&str, f64); 5] = [
    ("puzzles2_17_clue", 3.1e5),
    ("puzzles3_magictour_top1465", 1.1e5),
    ("puzzles5_forum_hardest_1905_11+", 1.3e4),
    ("puzzles6_forum_hardest_1106", 1.2e4),
    ("puzzles7_serg_benchmark", 4.5e5),
];

fn path(name: &str) -> String {
    format!("{}/../../testdata/sudoku/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn load(name: &str) -> Vec<Grid> {
    let text = std::fs::read_to_string(path(name)).expect("benchmark data in testdata/sudoku");
    parse_puzzles(&text, None).into_iter().map(|p| p.expect("valid puzzle").grid).collect()
}

/// The same puzzles for the sudoku crate (cells 0 for empty, 1-9 for givens).
fn for_crate(grids: &[Grid]) -> Vec<sudoku::Sudoku> {
    grids
        .iter()
        .map(|g| sudoku::Sudoku::from_bytes_slice(g.values()).expect("a 9x9 puzzle"))
        .collect()
}

/// Solves every grid in `--unique` mode; returns the total nodes.
fn run(solver: &mut Solver, grids: &[Grid], options: &Options) -> u64 {
    grids.iter().map(|g| solver.search(g, options).nodes).sum()
}

/// Runs `pass` (one pass over `puzzles` puzzles) for 1 s to warm up, then for `seconds`:
/// puzzles per second over the measured passes.
fn rate(puzzles: usize, seconds: f64, mut pass: impl FnMut()) -> f64 {
    let warm = Instant::now();
    while warm.elapsed().as_secs_f64() < 1.0 {
        pass();
    }
    let started = Instant::now();
    let mut passes = 0;
    while passes == 0 || started.elapsed().as_secs_f64() < seconds {
        pass();
        passes += 1;
    }
    (passes * puzzles) as f64 / started.elapsed().as_secs_f64()
}

/// tdoku's rate on the set: `run_benchmark -r0 -n N -w1 -t S -s tdoku FILE`, its
/// puzzles/sec column.
fn tdoku(program: &str, set: &str, puzzles: usize, seconds: f64) -> f64 {
    let out = Command::new(program)
        .args(["-r0", "-w1", "-s", "tdoku", "-c1"])
        .arg(format!("-n{puzzles}"))
        .arg(format!("-t{}", seconds.ceil().max(1.0) as u64))
        .arg(path(set))
        .output()
        .expect("DANCECARD_TDOKU runs");
    let text = String::from_utf8_lossy(&out.stdout);
    // CSV: compiler, version, flags, file, solver, puzzles/sec, usec/puzzle, ...
    let line = text.lines().rev().find(|l| l.contains(",tdoku")).expect("tdoku's result line");
    line.split(',').nth(5).and_then(|f| f.trim().parse().ok()).expect("puzzles/sec")
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

fn sudoku(c: &mut Criterion) {
    let seconds: f64 = env("DANCECARD_BENCH_SECS", 2.0);
    let rounds: usize = env("DANCECARD_BENCH_RUNS", 5);
    let tdoku_program = std::env::var("DANCECARD_TDOKU").ok();
    println!(
        "{rounds} rounds (DANCECARD_BENCH_RUNS), each solver warm 1 s then {seconds} s of passes \
         (DANCECARD_BENCH_SECS), order flipped each round; medians of the rounds; tdoku: {}",
        tdoku_program.as_deref().unwrap_or("not run (set DANCECARD_TDOKU)")
    );
    let mut group = c.benchmark_group("sudoku-unique");
    group.sample_size(10);
    for (set, published) in PUBLISHED {
        let grids = load(set);
        let crate_grids = for_crate(&grids);
        let mut solver = Solver::new();
        let options = Options::new(Method::Fast).limit(2).skip_solution().skip_timing();
        let nodes = run(&mut solver, &grids, &options);
        let (mut ours, mut theirs, mut crates) = (Vec::new(), Vec::new(), Vec::new());
        let (mut vs_tdoku, mut vs_crate) = (Vec::new(), Vec::new());
        for round in 0..rounds {
            let mut measure = |which: usize| -> Option<f64> {
                match which {
                    0 => Some(rate(grids.len(), seconds, || {
                        std::hint::black_box(run(&mut solver, &grids, &options));
                    })),
                    1 => Some(rate(grids.len(), seconds, || {
                        let unique = crate_grids.iter().filter(|s| s.is_uniquely_solvable());
                        std::hint::black_box(unique.count());
                    })),
                    _ => tdoku_program.as_deref().map(|p| tdoku(p, set, grids.len(), seconds)),
                }
            };
            let order: [usize; 3] = if round % 2 == 0 { [0, 1, 2] } else { [2, 1, 0] };
            let mut got = [None; 3];
            for which in order {
                got[which] = measure(which);
            }
            let own = got[0].expect("always measured");
            ours.push(own);
            crates.push(got[1].expect("always measured"));
            vs_crate.push(own / got[1].expect("always measured"));
            if let Some(t) = got[2] {
                theirs.push(t);
                vs_tdoku.push(own / t);
            }
        }
        let tdoku_part = if theirs.is_empty() {
            "tdoku not run".to_string()
        } else {
            format!("tdoku {:>9.0}/s  dancecard/tdoku {:.2}", median(theirs), median(vs_tdoku))
        };
        println!(
            "{set:<34} {:>6} puzzles {:>6.1} nodes/puzzle  dancecard {:>9.0}/s  {tdoku_part}  \
             sudoku crate {:>9.0}/s  dancecard/crate {:.2}  (published {published:.0}/s)",
            grids.len(),
            nodes as f64 / grids.len() as f64,
            median(ours),
            median(crates),
            median(vs_crate),
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
