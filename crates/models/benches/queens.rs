//! N-queens counting: `dancecard_models::queens::count` (border pre-placement and the eight
//! symmetries) against the classic recursive bitwise counter that uses only the left-right
//! mirror, written here as the baseline. Both run on one thread.
//!
//! Besides criterion's timings, the bench prints one line per size with the median time and
//! the nodes (queens placed) of each, and their ratios. The times come from rounds that run
//! the baseline then ours (5, or `DANCECARD_BENCH_RUNS`); the speed-up is the median of the
//! rounds' ratios:
//!
//! ```text
//! cargo bench -p dancecard-models --bench queens
//! ```

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use dancecard_models::queens;

/// The baseline: recursive bitwise backtracking; the first queen on the left half only, the
/// count doubled, plus the middle file for odd `n`.
/// Nodes are counted only when `NODES` (the timed runs do not count them).
struct Baseline<const NODES: bool> {
    full: u32,
    count: u64,
    nodes: u64,
}

impl<const NODES: bool> Baseline<NODES> {
    fn search(&mut self, cols: u32, ld: u32, rd: u32) {
        if cols == self.full {
            self.count += 1;
            return;
        }
        let mut avail = self.full & !(cols | ld | rd);
        while avail != 0 {
            let bit = avail & avail.wrapping_neg();
            avail ^= bit;
            if NODES {
                self.nodes += 1;
            }
            self.search(cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
        }
    }

    fn count(n: usize) -> (u64, u64) {
        let full = (1u32 << n) - 1;
        let mut b = Baseline::<NODES> { full, count: 0, nodes: 0 };
        for c in 0..n / 2 {
            let bit = 1 << c;
            b.nodes += 1;
            b.search(bit, bit << 1, bit >> 1);
        }
        let mut total = 2 * b.count;
        if n % 2 == 1 {
            b.count = 0;
            let bit = 1 << (n / 2);
            b.nodes += 1;
            b.search(bit, bit << 1, bit >> 1);
            total += b.count;
        }
        (total, b.nodes)
    }
}

fn ours(n: usize) -> (u64, u64) {
    let c = queens::count(n).expect("a valid size");
    (c.total, c.nodes)
}

/// What [`rounds`] measures: the median time of the baseline and of ours, the median of the
/// rounds' ratios, and the (count, nodes) of each.
type Rounds = ((Duration, Duration, f64), (u64, u64), (u64, u64));

/// Times `runs` rounds, each running the baseline then ours (alternating, so that both see
/// the same load).
fn rounds(n: usize, runs: usize) -> Rounds {
    let mut base = Vec::with_capacity(runs);
    let mut mine = Vec::with_capacity(runs);
    let mut ratios = Vec::with_capacity(runs);
    let (mut b, mut o) = ((0, 0), (0, 0));
    for _ in 0..runs {
        let t = Instant::now();
        b = black_box(Baseline::<false>::count(black_box(n)));
        let tb = t.elapsed();
        let t = Instant::now();
        o = black_box(ours(black_box(n)));
        let to = t.elapsed();
        base.push(tb);
        mine.push(to);
        ratios.push(tb.as_secs_f64() / to.as_secs_f64());
    }
    base.sort();
    mine.sort();
    ratios.sort_by(f64::total_cmp);
    ((base[runs / 2], mine[runs / 2], ratios[runs / 2]), b, o)
}

fn side_by_side() {
    let runs: usize =
        std::env::var("DANCECARD_BENCH_RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(5);
    println!("{runs} rounds, each the baseline then ours; medians, and the median of the ratios");
    println!("n   baseline (s)  nodes          ours (s)  nodes          speed-up  node ratio");
    for n in [15, 16] {
        let ((tb, to, ratio), (cb, _), (co, no)) = rounds(n, runs);
        let nb = Baseline::<true>::count(n).1;
        assert_eq!(cb, co, "the two counters disagree on n = {n}");
        println!(
            "{n:<3} {:<13.4} {nb:<14} {:<9.4} {no:<14} {:<9.2} {:.2}",
            tb.as_secs_f64(),
            to.as_secs_f64(),
            ratio,
            nb as f64 / no as f64
        );
    }
}

fn bench(c: &mut Criterion) {
    side_by_side();
    let mut group = c.benchmark_group("queens");
    group.sample_size(10);
    for n in [15, 16] {
        group.bench_function(format!("baseline/{n}"), |b| {
            b.iter(|| Baseline::<false>::count(black_box(n)))
        });
        group.bench_function(format!("ours/{n}"), |b| b.iter(|| ours(black_box(n))));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
