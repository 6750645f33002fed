//! The branch and bound of [`TargetSudoku::solve`], with a node budget and a cancel flag.
//!
//! `dancecard_models::target::TargetSudoku::solve` has neither, and a sparse grid can keep it
//! busy for minutes (an empty grid: far longer): a server cannot call it. This is the same
//! search, step for step (the same order, the same bounds, so the same nodes and the same best
//! grid), that stops at the budget with the best completion found so far. The tests check it
//! against the model's `solve` on the statement's samples and on generated puzzles.
//!
//! [`TargetSudoku::solve`]: dancecard_models::target::TargetSudoku::solve

use std::sync::atomic::{AtomicBool, Ordering};

use dancecard_models::target::Grid;

/// Why the search stopped before the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cut {
    /// The node budget was spent.
    Nodes,
    /// The cancel flag was raised.
    Cancelled,
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Outcome {
    /// The best completion found and its score (the maximum when `cut` is `None`).
    pub(crate) best: Option<(u32, Grid)>,
    /// Nodes: one per blank filled, the root included.
    pub(crate) nodes: u64,
    /// Why the search stopped early, if it did.
    pub(crate) cut: Option<Cut>,
}

/// The cancel flag is looked at once every this many nodes.
const CHECK_INTERVAL: u64 = 1024;

const FULL: u16 = 0b11_1111_1110;

/// Weights by square index: 10 on the centre square, one less per ring, 6 on the border.
const WEIGHTS: [u8; 81] = {
    let mut w = [0u8; 81];
    let mut k: usize = 0;
    while k < 81 {
        let (r, c) = (k / 9, k % 9);
        let dr = r.abs_diff(4);
        let dc = c.abs_diff(4);
        w[k] = 10 - if dr > dc { dr } else { dc } as u8;
        k += 1;
    }
    w
};

/// Finds a completion of `grid` (0 for a blank) of maximum score, within `max_nodes` nodes
/// and until `cancel` is raised.
pub(crate) fn solve(grid: &Grid, max_nodes: u64, cancel: &AtomicBool) -> Outcome {
    let mut s = Search {
        rows: [0; 9],
        cols: [0; 9],
        boxes: [0; 9],
        grid: [0; 81],
        blanks: Vec::new(),
        best: 0,
        best_grid: None,
        nodes: 0,
        max_nodes,
        cancel,
        cut: None,
    };
    let mut given = 0;
    for (r, row) in grid.iter().enumerate() {
        for (c, &d) in row.iter().enumerate() {
            if d == 0 {
                s.blanks.push((r * 9 + c) as u8);
                continue;
            }
            let bit = 1u16 << d;
            let b = r / 3 * 3 + c / 3;
            if (s.rows[r] | s.cols[c] | s.boxes[b]) & bit != 0 {
                // Two equal givens in one unit: no completion.
                return Outcome { best: None, nodes: 0, cut: None };
            }
            s.rows[r] |= bit;
            s.cols[c] |= bit;
            s.boxes[b] |= bit;
            s.grid[r * 9 + c] = d;
            given += u32::from(d) * u32::from(WEIGHTS[r * 9 + c]);
        }
    }
    s.dfs(0, given);
    let best = s.best_grid.map(|g| {
        let mut grid = [[0u8; 9]; 9];
        for (k, &d) in g.iter().enumerate() {
            grid[k / 9][k % 9] = d;
        }
        (s.best, grid)
    });
    Outcome { best, nodes: s.nodes, cut: s.cut }
}

/// The search's state.
struct Search<'a> {
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    grid: [u8; 81],
    /// The blanks; `blanks[..filled]` are filled, in the order they were.
    blanks: Vec<u8>,
    best: u32,
    best_grid: Option<[u8; 81]>,
    nodes: u64,
    max_nodes: u64,
    cancel: &'a AtomicBool,
    cut: Option<Cut>,
}

/// The bound of one line (a row, column or box), or `None` when one of its `missing` digits
/// fits none of its blanks: the least of the sum of its blanks' largest candidate times
/// weight (`cells`); the pairing of its missing digits, largest first, with its blanks'
/// weights, heaviest first (`weights[w - 6]` blanks of weight `w`); and the sum over its
/// missing digits of the digit times the heaviest blank where it is a candidate (`fits[w - 6]`:
/// the candidates of the blanks of weight `w`).
fn line_bound(mut missing: u16, cells: u32, mut weights: [u8; 5], fits: &[u16; 5]) -> Option<u32> {
    let mut pairing = 0;
    let mut by_digit = 0;
    let mut w = 4;
    while missing != 0 {
        let d = 15 - missing.leading_zeros();
        missing ^= 1 << d;
        let bit = 1u16 << d;
        let heaviest = (0..5).rev().find(|&k| fits[k] & bit != 0)?;
        by_digit += d * (heaviest as u32 + 6);
        while w > 0 && weights[w] == 0 {
            w -= 1;
        }
        weights[w] = weights[w].saturating_sub(1);
        pairing += d * (w as u32 + 6);
    }
    Some(pairing.min(cells).min(by_digit))
}

/// What a node knows about one family of lines (rows, columns or boxes) for the bound.
struct Family {
    /// Per line: the sum of its blanks' largest candidate times weight.
    cells: [u32; 9],
    /// Per line and weight `w`: the number of blanks of weight `w` (index `w - 6`).
    weights: [[u8; 5]; 9],
    /// Per line and weight: the union of the candidates of those blanks.
    fits: [[u16; 5]; 9],
    /// Per line: its bound ([`line_bound`]).
    bound: [u32; 9],
    /// The sum of the lines' bounds.
    total: u32,
}

impl Family {
    fn new() -> Family {
        Family { cells: [0; 9], weights: [[0; 5]; 9], fits: [[0; 5]; 9], bound: [0; 9], total: 0 }
    }

    fn add(&mut self, line: usize, top: u32, w: u8, cand: u16) {
        let k = usize::from(w - 6);
        self.cells[line] += top;
        self.weights[line][k] += 1;
        self.fits[line][k] |= cand;
    }

    /// Computes the lines' bounds; false if some line cannot be completed.
    fn finish(&mut self, used: &[u16; 9]) -> bool {
        self.total = 0;
        for (line, &used) in used.iter().enumerate() {
            let missing = FULL & !used;
            if missing == 0 {
                continue;
            }
            match line_bound(missing, self.cells[line], self.weights[line], &self.fits[line]) {
                Some(b) => {
                    self.bound[line] = b;
                    self.total += b;
                }
                None => return false,
            }
        }
        true
    }

    /// The family's bound once a blank of this line (weight `w`, largest candidate times
    /// weight `top`) takes digit `d`, or `None` if the line can then not be completed.
    fn without(&self, line: usize, used: u16, d: u32, top: u32, w: u8) -> Option<u32> {
        let mut weights = self.weights[line];
        weights[usize::from(w - 6)] -= 1;
        let missing = FULL & !used & !(1 << d);
        let b = line_bound(missing, self.cells[line] - top, weights, &self.fits[line])?;
        Some(self.total - self.bound[line] + b)
    }
}

impl Search<'_> {
    /// Counts a node, or stops the search if the budget is spent.
    fn enter(&mut self) -> bool {
        if self.nodes >= self.max_nodes {
            self.cut = Some(Cut::Nodes);
            return false;
        }
        if self.nodes % CHECK_INTERVAL == 0 && self.cancel.load(Ordering::Relaxed) {
            self.cut = Some(Cut::Cancelled);
            return false;
        }
        self.nodes += 1;
        true
    }

    fn dfs(&mut self, filled: usize, score: u32) {
        if !self.enter() {
            return;
        }
        if filled == self.blanks.len() {
            if score > self.best || self.best_grid.is_none() {
                self.best = score;
                self.best_grid = Some(self.grid);
            }
            return;
        }
        // One pass: the blank with the fewest candidates, and what the bound needs about
        // every row, column and box.
        let mut pick = filled;
        let mut fewest = u32::MAX;
        let mut pick_cand = 0u16;
        let mut families = [Family::new(), Family::new(), Family::new()];
        for j in filled..self.blanks.len() {
            let k = self.blanks[j] as usize;
            let (r, c) = (k / 9, k % 9);
            let b = r / 3 * 3 + c / 3;
            let cand = FULL & !(self.rows[r] | self.cols[c] | self.boxes[b]);
            if cand == 0 {
                return;
            }
            let w = WEIGHTS[k];
            let top = (15 - cand.leading_zeros()) * u32::from(w);
            families[0].add(r, top, w, cand);
            families[1].add(c, top, w, cand);
            families[2].add(b, top, w, cand);
            // Fewest candidates first; among equals, the heaviest square.
            let count = cand.count_ones() * 16 + 15 - u32::from(w);
            if count < fewest {
                fewest = count;
                pick = j;
                pick_cand = cand;
            }
        }
        let bounded = self.best_grid.is_some();
        if bounded {
            if score + families[0].cells.iter().sum::<u32>() <= self.best {
                return;
            }
            let complete = families[0].finish(&self.rows)
                && families[1].finish(&self.cols)
                && families[2].finish(&self.boxes);
            let bound = families.iter().map(|f| f.total).min().unwrap_or(0);
            if !complete || score + bound <= self.best {
                return;
            }
        }
        self.blanks.swap(filled, pick);
        let k = self.blanks[filled] as usize;
        let (r, c) = (k / 9, k % 9);
        let b = r / 3 * 3 + c / 3;
        let w8 = WEIGHTS[k];
        let w = u32::from(w8);
        let top = (15 - pick_cand.leading_zeros()) * w;
        let mut cand = pick_cand;
        while cand != 0 && self.cut.is_none() {
            let d = 15 - cand.leading_zeros();
            let bit = 1u16 << d;
            cand ^= bit;
            if bounded {
                // The child's bound with this node's candidates (a superset of the child's):
                // only the lines through the square change. Skipping here saves a visit.
                let child = families[0]
                    .without(r, self.rows[r], d, top, w8)
                    .zip(families[1].without(c, self.cols[c], d, top, w8))
                    .zip(families[2].without(b, self.boxes[b], d, top, w8))
                    .map(|((x, y), z)| x.min(y).min(z));
                if child.map_or(true, |bound| score + d * w + bound <= self.best) {
                    continue;
                }
            }
            self.rows[r] |= bit;
            self.cols[c] |= bit;
            self.boxes[b] |= bit;
            self.grid[k] = d as u8;
            self.dfs(filled + 1, score + d * w);
            self.rows[r] ^= bit;
            self.cols[c] ^= bit;
            self.boxes[b] ^= bit;
            self.grid[k] = 0;
        }
        self.blanks.swap(filled, pick);
    }
}

#[cfg(test)]
mod tests {
    use dancecard_models::target::{self, TargetSudoku};

    use super::*;

    fn sample(name: &str) -> TargetSudoku {
        let path = format!("{}/../../testdata/target-sudoku/{name}", env!("CARGO_MANIFEST_DIR"));
        TargetSudoku::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    /// Runs both searches without a budget and checks that they agree on everything.
    fn agree(puzzle: &TargetSudoku) -> Outcome {
        let ours = solve(puzzle.grid(), u64::MAX, &AtomicBool::new(false));
        let model = puzzle.solve();
        assert_eq!(ours.cut, None);
        assert_eq!(ours.nodes, model.nodes, "{:?}", puzzle.grid());
        assert_eq!(ours.best, model.best.map(|b| (b.score, b.grid)));
        ours
    }

    #[test]
    fn the_statements_samples_score_as_the_model_does() {
        let one = agree(&sample("sample1.in"));
        assert_eq!(one.best.map(|b| b.0), Some(2829));
        let two = agree(&sample("sample2.in"));
        assert_eq!(two.best.map(|b| b.0), Some(2852));
    }

    #[test]
    fn generated_puzzles_agree_with_the_model() {
        // Completions of sample 1's best grid with cells blanked at random: many completions.
        let full = agree(&sample("sample1.in")).best.unwrap().1;
        assert!(target::is_valid_solution(&full));
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for givens in [81, 60, 40, 32, 28, 26] {
            for _ in 0..4 {
                let mut grid = full;
                let mut blanks = 81 - givens;
                while blanks > 0 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let k = (x % 81) as usize;
                    if grid[k / 9][k % 9] != 0 {
                        grid[k / 9][k % 9] = 0;
                        blanks -= 1;
                    }
                }
                let ours = agree(&TargetSudoku::from_grid(grid).unwrap());
                assert!(ours.best.is_some());
            }
        }
        // Clashing givens: no completion, as the model says.
        let mut clash = [[0u8; 9]; 9];
        clash[0][0] = 5;
        clash[0][8] = 5;
        assert_eq!(agree(&TargetSudoku::from_grid(clash).unwrap()).best, None);
    }

    #[test]
    fn the_budget_stops_an_empty_grid_with_a_valid_completion() {
        let empty = [[0u8; 9]; 9];
        let cut = solve(&empty, 5_000, &AtomicBool::new(false));
        assert_eq!((cut.cut, cut.nodes), (Some(Cut::Nodes), 5_000));
        let (score, grid) = cut.best.expect("a completion comes early");
        assert!(target::is_valid_solution(&grid));
        assert_eq!(score, target::score(&grid));

        let cancelled = solve(&empty, u64::MAX, &AtomicBool::new(true));
        assert_eq!((cancelled.cut, cancelled.nodes), (Some(Cut::Cancelled), 0));
    }
}
