//! The models against the counts in `testdata/ground-truth/` (read from the files, never
//! retyped) and against brute force.

use std::ops::ControlFlow;
use std::path::PathBuf;

use dancecard_engine::{Config, Count, Solver};
use dancecard_models::langford::{self, Langford};
use dancecard_models::queens::{self, Queens};
use dancecard_models::target::{self, TargetSudoku};
use dancecard_models::tiling::{named_set, Board, Tiling, TilingError};
use dancecard_models::Model;

fn testdata(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata").join(path)
}

/// The data rows of a tab-separated ground-truth file (comments and the header skipped).
fn tsv(name: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(testdata(&format!("ground-truth/{name}"))).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .skip(1)
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect()
}

fn num(s: &str) -> u128 {
    s.trim().parse().unwrap_or_else(|_| panic!("not a number: {s:?}"))
}

/// The rows `n, a, b` of a ground-truth file of two sequences, for `n <= most`.
fn two_counts(name: &str, most: usize) -> Vec<(usize, u128, u128)> {
    let rows = tsv(name).into_iter();
    let counts = rows.map(|row| (num(&row[0]) as usize, num(&row[1]), num(&row[2])));
    counts.filter(|&(n, _, _)| n <= most).collect()
}

#[test]
fn queens_bits_and_dlx_against_oeis() {
    for (n, total, distinct) in two_counts("nqueens.tsv", 16) {
        let c = queens::count(n).unwrap();
        assert_eq!((u128::from(c.total), u128::from(c.distinct)), (total, distinct), "bits n={n}");
        if n <= 14 {
            let model = Queens::new(n).unwrap();
            let problem = model.problem();
            let mut solver = Solver::new(&problem);
            let mut canonical = 0u128;
            let outcome = solver.solve_with(|s| {
                let p = model.decode(&s.to_vec());
                assert!(queens::is_solution(&p));
                canonical += u128::from(queens::is_canonical(&p));
                ControlFlow::Continue(())
            });
            assert_eq!((outcome.solutions, canonical), (total, distinct), "dlx n={n}");
        }
    }
}

#[test]
fn queens_threads_agree() {
    let one = queens::count(13).unwrap();
    let options = dancecard_models::count::CountRequest { threads: 2, ..Default::default() };
    let two = queens::count_with(13, &options).unwrap();
    assert_eq!((one.total, one.distinct, one.nodes), (two.total, two.distinct, two.nodes));
}

#[test]
fn queens_dlx_tree_is_the_instance_files_tree() {
    // Nodes as reported by Knuth's DLX1 on testdata/instances (see its README).
    for (n, nodes) in [(8, 1049), (12, 211_716)] {
        let problem = Queens::new(n).unwrap().problem();
        let mut solver = Solver::new(&problem);
        let _ = solver.count();
        assert_eq!(solver.stats().nodes, nodes, "n = {n}");
    }
}

#[test]
fn langford_against_oeis() {
    for (n, l, raw) in two_counts("langford_L2n.tsv", 12) {
        assert_eq!(Langford::new(n).unwrap().count().0.solutions, l, "n = {n}");
        if n <= 11 {
            assert_eq!(Langford::with_reversals(n).unwrap().count().0.solutions, raw, "n = {n}");
        }
    }
    let model = Langford::new(8).unwrap();
    let mut solver = Solver::new(&model.problem());
    assert!(solver.solutions().all(|s| langford::is_langford(&model.decode(&s))));
}

fn rect(rows: usize, cols: usize, set: &str) -> Result<Tiling, TilingError> {
    Tiling::builder(Board::rectangle(rows, cols)?, named_set(set).unwrap()).build()
}

#[test]
fn dominoes_by_dlx_and_dp() {
    for row in tsv("domino_tilings.tsv") {
        let (m, n, count) = (num(&row[0]) as usize, num(&row[1]) as usize, num(&row[2]));
        match rect(m, n, "dominoes") {
            // An odd area: no tiling, and the builder says so.
            Err(TilingError::AreaUnreachable { .. }) => assert_eq!(count, 0, "{m}x{n}"),
            Err(e) => panic!("{m}x{n}: {e}"),
            Ok(t) => {
                assert_eq!(t.count_dp().unwrap(), count, "dp {m}x{n}");
                if m <= 8 && n <= 8 {
                    assert_eq!(t.count(Config::default()).0.solutions, count, "dlx {m}x{n}");
                }
            }
        }
    }
}

#[test]
fn domino_squares_by_dp_past_u128() {
    for row in tsv("domino_square_A004003.tsv") {
        let n = num(&row[0]) as usize;
        if n == 0 {
            continue;
        }
        let t = rect(2 * n, 2 * n, "dominoes").unwrap();
        // 18x18 and 20x20 exceed 2^128: exact all the same, in big integers.
        let expected: Count = row[2].trim().parse().expect("a count");
        assert_eq!(t.count_dp().unwrap(), expected, "{0}x{0}", 2 * n);
    }
}

#[test]
fn strips_of_trominoes_and_tetrominoes() {
    for row in tsv("polyomino_tilings.tsv") {
        let (set, height) = match row[1].as_str() {
            "I3,L3" => ("trominoes", 3),
            "tetrominoes" => ("tetrominoes", 4),
            _ => continue,
        };
        let counts: Vec<u128> = row[4].split(',').map(num).collect();
        for (n, &count) in counts.iter().enumerate().skip(1) {
            let t = rect(height, n, set).unwrap();
            assert_eq!(t.count_dp().unwrap(), count, "{set} {height}x{n}");
            if n <= 7 {
                assert_eq!(t.count(Config::default()).0.solutions, count, "dlx {set} {height}x{n}");
            }
        }
    }
}

// Pentominoes on 6x10 (9356 tilings, 2339 distinct, and DLX1's node count) are checked
// through the command line, in crates/cli/tests/tile.rs: one run of a few seconds.

#[test]
fn pentominoes_around_a_central_hole_have_65_solutions() {
    // Dana Scott's 1958 problem: the 8x8 board without its central 2x2 square has 65
    // tilings by the twelve pentominoes up to symmetry, 520 in all (no tiling is symmetric).
    let mut art = String::new();
    for r in 0..8 {
        for c in 0..8 {
            art.push(if (3..5).contains(&r) && (3..5).contains(&c) { '.' } else { '#' });
        }
        art.push('\n');
    }
    let board = Board::parse(&art).unwrap();
    assert_eq!(board.symmetries(true).len(), 8);
    let t = Tiling::builder(board, named_set("pentominoes").unwrap()).once(true).build().unwrap();
    let d = t.count_distinct(Config::default());
    assert_eq!((d.total, d.distinct), (520, 65));
}

#[test]
fn one_sided_tetrominoes_count_rotations_only() {
    // Without flips L and J (and S and Z) are different pieces; the five given pieces then
    // lose their mirror images: fewer tilings, and the DP and DLX still agree.
    let board = Board::rectangle(4, 6).unwrap();
    let t = Tiling::builder(board, named_set("tetrominoes").unwrap()).flips(false).build().unwrap();
    let dlx = t.count(Config::default()).0.solutions;
    assert_eq!(t.count_dp().unwrap(), dlx);
    let free = rect(4, 6, "tetrominoes").unwrap().count_dp().unwrap();
    assert!(free > dlx);
    // Distinct tilings under rotations only: every orbit has 1 or 2 members on a 4x6.
    let d = t.count_distinct(Config::default());
    assert!(2 * d.distinct >= d.total && d.distinct <= d.total);
}

/// A tiny deterministic generator (xorshift) for the generated puzzles.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random solved grid: a base pattern with digits, rows within bands, bands, columns
/// within stacks and stacks shuffled.
fn solved_grid(rng: &mut Rng) -> target::Grid {
    let mut digits: Vec<u8> = (1..=9).collect();
    for i in (1..9).rev() {
        digits.swap(i, rng.below(i + 1));
    }
    let perm = |rng: &mut Rng| -> Vec<usize> {
        let mut bands = [0, 1, 2];
        for i in (1..3).rev() {
            bands.swap(i, rng.below(i + 1));
        }
        let mut order = Vec::new();
        for b in bands {
            let mut inner = [0, 1, 2];
            for i in (1..3).rev() {
                inner.swap(i, rng.below(i + 1));
            }
            order.extend(inner.iter().map(|k| b * 3 + k));
        }
        order
    };
    let rows = perm(rng);
    let cols = perm(rng);
    let mut grid = [[0u8; 9]; 9];
    for r in 0..9 {
        for c in 0..9 {
            let (a, b) = (rows[r], cols[c]);
            grid[r][c] = digits[(a * 3 + a / 3 + b) % 9];
        }
    }
    assert!(target::is_valid_solution(&grid));
    grid
}

fn puzzle(rng: &mut Rng, givens: usize) -> TargetSudoku {
    let mut grid = solved_grid(rng);
    let mut cells: Vec<usize> = (0..81).collect();
    for i in (1..81).rev() {
        cells.swap(i, rng.below(i + 1));
    }
    for &k in &cells[givens..] {
        grid[k / 9][k % 9] = 0;
    }
    TargetSudoku::from_grid(grid).unwrap()
}

#[test]
fn target_sudoku_agrees_with_enumerating_every_completion() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..60 {
        // 22 to 41 givens: the sparse ones have up to a million completions.
        let givens = 22 + round % 20;
        let p = puzzle(&mut rng, givens);
        let problem = p.problem();
        let mut solver = Solver::new(&problem);
        let mut best: i64 = -1;
        let mut completions = 0;
        let _ = solver.solve_with(|s| {
            let grid = p.decode(&s.to_vec());
            assert!(target::is_valid_solution(&grid));
            best = best.max(i64::from(target::score(&grid)));
            completions += 1;
            ControlFlow::Continue(())
        });
        let result = p.solve();
        assert_eq!(result.score(), best, "round {round}, {completions} completions");
        let found = result.best.unwrap();
        assert!(target::is_valid_solution(&found.grid));
        assert_eq!(target::score(&found.grid), found.score);
        let givens = p.grid();
        assert!(
            (0..81)
                .all(|k| givens[k / 9][k % 9] == 0
                    || givens[k / 9][k % 9] == found.grid[k / 9][k % 9])
        );
    }
}

#[test]
fn target_sudoku_unsolvable_and_samples() {
    for (input, output) in [("sample1.in", "sample1.out"), ("sample2.in", "sample2.out")] {
        let text = std::fs::read_to_string(testdata(&format!("target-sudoku/{input}"))).unwrap();
        let want: i64 = std::fs::read_to_string(testdata(&format!("target-sudoku/{output}")))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert_eq!(TargetSudoku::parse(&text).unwrap().solve().score(), want, "{input}");
    }
    // Consistent givens, but the top-left square has no candidate left.
    let mut grid = [[0u8; 9]; 9];
    for (c, d) in (1..9).zip(1..=8u8) {
        grid[0][c] = d;
    }
    grid[1][0] = 9;
    let p = TargetSudoku::from_grid(grid).unwrap();
    assert_eq!(p.solve().score(), -1);
}
