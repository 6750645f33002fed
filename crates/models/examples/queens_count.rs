//! Counts N-queens with the library's counter or with the classic mirror-only counter (the
//! baseline of `benches/queens.rs`), for timing and instruction counts outside criterion:
//!
//! ```text
//! cargo run --release -p dancecard-models --example queens_count -- ours 16
//! valgrind --tool=callgrind target/release/examples/queens_count baseline 13
//! ```

struct Baseline {
    full: u32,
    count: u64,
}

impl Baseline {
    fn search(&mut self, cols: u32, ld: u32, rd: u32) {
        if cols == self.full {
            self.count += 1;
            return;
        }
        let mut avail = self.full & !(cols | ld | rd);
        while avail != 0 {
            let bit = avail & avail.wrapping_neg();
            avail ^= bit;
            self.search(cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
        }
    }
}

fn baseline(n: usize) -> u64 {
    let mut b = Baseline { full: (1u32 << n) - 1, count: 0 };
    for c in 0..n / 2 {
        let bit = 1 << c;
        b.search(bit, bit << 1, bit >> 1);
    }
    let mut total = 2 * b.count;
    if n % 2 == 1 {
        b.count = 0;
        let bit = 1 << (n / 2);
        b.search(bit, bit << 1, bit >> 1);
        total += b.count;
    }
    total
}

fn main() {
    let mut args = std::env::args().skip(1);
    let method = args.next().unwrap_or_else(|| "ours".to_owned());
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(12).clamp(1, 31);
    let started = std::time::Instant::now();
    let total = if method == "baseline" {
        baseline(n)
    } else {
        dancecard_models::queens::count(n).map(|c| c.total).unwrap_or(0)
    };
    println!("{method} n={n}: {total} in {:.3} s", started.elapsed().as_secs_f64());
}
