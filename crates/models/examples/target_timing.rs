//! Times the target sudoku's branch and bound on generated puzzles: random solved grids
//! (a base pattern with shuffled digits, rows in bands, bands, columns in stacks and
//! stacks) with all but `GIVENS` squares blanked, and on the statement's samples.
//!
//! ```text
//! cargo run --release -p dancecard-models --example target_timing -- [GIVENS] [PUZZLES]
//! ```

use std::time::{Duration, Instant};

use dancecard_models::target::TargetSudoku;

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

fn puzzle(rng: &mut Rng, givens: usize) -> TargetSudoku {
    let mut digits: Vec<u8> = (1..=9).collect();
    rng.shuffle(&mut digits);
    let order = |rng: &mut Rng| -> Vec<usize> {
        let mut bands = [0, 1, 2];
        rng.shuffle(&mut bands);
        let mut out = Vec::new();
        for b in bands {
            let mut inner = [0, 1, 2];
            rng.shuffle(&mut inner);
            out.extend(inner.iter().map(|k| b * 3 + k));
        }
        out
    };
    let (rows, cols) = (order(rng), order(rng));
    let mut grid = [[0u8; 9]; 9];
    for r in 0..9 {
        for c in 0..9 {
            let (a, b) = (rows[r], cols[c]);
            grid[r][c] = digits[(a * 3 + a / 3 + b) % 9];
        }
    }
    let mut cells: Vec<usize> = (0..81).collect();
    rng.shuffle(&mut cells);
    for &k in &cells[givens..] {
        grid[k / 9][k % 9] = 0;
    }
    TargetSudoku::from_grid(grid).expect("digits are in range")
}

fn main() {
    let mut args = std::env::args().skip(1);
    let givens: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(24);
    let count: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut worst: Option<(u64, TargetSudoku)> = None;
    let mut times: Vec<(Duration, u64)> = (0..count)
        .map(|_| {
            let p = puzzle(&mut rng, givens.min(81));
            let t = Instant::now();
            let result = p.solve();
            let elapsed = t.elapsed();
            if worst.as_ref().map_or(true, |w| w.0 < result.nodes) {
                worst = Some((result.nodes, p));
            }
            (elapsed, result.nodes)
        })
        .collect();
    let most_nodes = times.iter().map(|t| t.1).max().unwrap_or(0);
    times.sort();
    let pick = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    println!(
        "{count} puzzles with {givens} givens: median {:.2} ms ({} nodes), 90% {:.2} ms, max {:.2} ms ({} nodes); most nodes {most_nodes}",
        pick(0.5).0.as_secs_f64() * 1e3,
        pick(0.5).1,
        pick(0.9).0.as_secs_f64() * 1e3,
        pick(1.0).0.as_secs_f64() * 1e3,
        pick(1.0).1,
    );
    // SHOW_WORST=1 prints the puzzle with the most nodes (to time it alone, or count its
    // instructions with callgrind through `dancecard target-sudoku`).
    if std::env::var_os("SHOW_WORST").is_some() {
        if let Some((_, p)) = worst {
            for row in p.grid() {
                let digits: Vec<String> = row.iter().map(u8::to_string).collect();
                println!("{}", digits.join(" "));
            }
        }
    }
}
