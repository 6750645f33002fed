//! N-queens counting: `dancecard_models::queens::count` (border pre-placement and the eight
//! symmetries) against the classic recursive bitwise counter that uses only the left-right
//! mirror, written here as the baseline. Both run on one thread.
//!
//! Besides criterion's timings, the bench prints one line per size with the median time and
//! the nodes (queens placed) of each, and their ratios:
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

fn median(mut f: impl FnMut() -> (u64, u64), runs: usize) -> (Duration, u64, u64) {
    let mut times = Vec::with_capacity(runs);
    let mut last = (0, 0);
    for _ in 0..runs {
        let t = Instant::now();
        last = black_box(f());
        times.push(t.elapsed());
    }
    times.sort();
    (times[runs / 2], last.0, last.1)
}

fn side_by_side() {
    println!("n   baseline (s)  nodes          ours (s)  nodes          speed-up  node ratio");
    for n in [15, 16] {
        let (tb, cb, _) = median(|| Baseline::<false>::count(black_box(n)), 5);
        let nb = Baseline::<true>::count(n).1;
        let (to, co, no) = median(|| ours(black_box(n)), 5);
        assert_eq!(cb, co, "the two counters disagree on n = {n}");
        println!(
            "{n:<3} {:<13.4} {nb:<14} {:<9.4} {no:<14} {:<9.2} {:.2}",
            tb.as_secs_f64(),
            to.as_secs_f64(),
            tb.as_secs_f64() / to.as_secs_f64(),
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
