//! The target sudoku (NOIP 2009 "靶形数独"): among all completions of a sudoku, find one that
//! maximises the sum of digit times ring weight, the weights going from 10 on the centre
//! square down to 6 on the border.
//!
//! [`TargetSudoku::solve`] is a dedicated branch and bound, not an exact cover search:
//!
//! - rows, columns and boxes keep their used digits as bit sets (bit `d` for digit `d`), so a
//!   square's candidates are one `!(row | column | box)`;
//! - it fills the blank with the fewest candidates first (minimum remaining values), trying
//!   the largest digit first so that good scores come early;
//! - it prunes a node when the score so far plus an upper bound on what the blanks can add
//!   cannot beat the best score found. The bound starts from each blank's largest candidate
//!   times its weight, and tightens it line by line: the blanks of a row (or column) take
//!   exactly its missing digits, so they add at most the pairing of those digits, largest
//!   first, with the blanks' weights, heaviest first; and each missing digit goes at best on
//!   the heaviest blank of the line where it is still a candidate (a digit with no such blank
//!   ends the branch). Per line the least of the three is taken, and the bound is the least
//!   of the sums over rows, over columns and over boxes. Before visiting a child, its bound is
//!   recomputed for the three lines through the square just filled (with this node's
//!   candidates, a superset of the child's), and a child that cannot win is skipped.
//!
//! [`TargetSudoku`] is also a [`Model`]: the plain sudoku exact cover problem (324 primary
//! items), whose solutions are all the completions, which tests use as a brute-force check.
//!
//! ```
//! use dancecard_models::target::TargetSudoku;
//!
//! let puzzle = TargetSudoku::parse(
//!     "7 0 0 9 0 0 0 0 1\n1 0 0 0 0 5 9 0 0\n0 0 0 2 0 0 0 8 0\n\
//!      0 0 5 0 2 0 0 0 3\n0 0 0 0 0 0 6 4 8\n4 1 3 0 0 0 0 0 0\n\
//!      0 0 7 0 0 2 0 9 0\n2 0 1 0 6 0 8 0 4\n0 8 0 5 0 4 0 1 2\n",
//! )?;
//! let result = puzzle.solve();
//! assert_eq!(result.score(), 2829);
//! # Ok::<(), dancecard_models::target::TargetError>(())
//! ```

use dancecard_engine::{OptionId, Problem, ProblemBuilder};

use crate::Model;

/// A 9 x 9 grid, row by row; 0 is a blank.
pub type Grid = [[u8; 9]; 9];

/// Why a target sudoku could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TargetError {
    /// The input does not have 9 non-empty lines.
    #[error("expected 9 lines of 9 digits, found {found} non-empty lines")]
    LineCount {
        /// The number of non-empty lines.
        found: usize,
    },
    /// A line does not have 9 digits.
    #[error("line {line}: expected 9 digits, found {found}")]
    LineLength {
        /// The line number (from 1).
        line: usize,
        /// The number of digits on it.
        found: usize,
    },
    /// A character other than a digit, `.` or a space.
    #[error("line {line}, column {column}: unexpected character {ch:?} (digits 0-9, 0 or . for a blank)")]
    BadChar {
        /// The line number (from 1).
        line: usize,
        /// The column (from 1, in characters).
        column: usize,
        /// The character.
        ch: char,
    },
    /// A grid value out of 0..=9.
    #[error("row {row}, column {column}: {value} is not a digit")]
    BadValue {
        /// The row (from 1).
        row: usize,
        /// The column (from 1).
        column: usize,
        /// The value.
        value: u8,
    },
}

/// A target sudoku puzzle: givens and blanks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetSudoku {
    grid: Grid,
}

/// The weight of the square on row `r`, column `c` (from 0): 10 at the centre, one less per
/// ring outwards, 6 on the border.
pub fn weight(r: usize, c: usize) -> u32 {
    10 - r.abs_diff(4).max(c.abs_diff(4)) as u32
}

/// The score of a grid: the sum of digit times weight (blanks score 0).
pub fn score(grid: &Grid) -> u32 {
    let mut s = 0;
    for (r, row) in grid.iter().enumerate() {
        for (c, &d) in row.iter().enumerate() {
            s += u32::from(d) * weight(r, c);
        }
    }
    s
}

/// Whether `grid` is a complete, valid sudoku.
pub fn is_valid_solution(grid: &Grid) -> bool {
    let mut seen = [[0u16; 9]; 3];
    for (r, row) in grid.iter().enumerate() {
        for (c, &d) in row.iter().enumerate() {
            if !(1..=9).contains(&d) {
                return false;
            }
            let bit = 1u16 << d;
            for (k, unit) in [r, c, r / 3 * 3 + c / 3].into_iter().enumerate() {
                if seen[k][unit] & bit != 0 {
                    return false;
                }
            }
            seen[0][r] |= bit;
            seen[1][c] |= bit;
            seen[2][r / 3 * 3 + c / 3] |= bit;
        }
    }
    true
}

/// The best completion found by [`TargetSudoku::solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetSolution {
    /// Its score.
    pub score: u32,
    /// The completed grid.
    pub grid: Grid,
}

/// The result of [`TargetSudoku::solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetOutcome {
    /// A completion of maximum score, or `None` when the puzzle has no solution.
    pub best: Option<TargetSolution>,
    /// Nodes of the branch and bound (one per blank filled, the root included).
    pub nodes: u64,
}

impl TargetOutcome {
    /// The maximum score, or -1 when there is no solution (the puzzle's convention).
    pub fn score(&self) -> i64 {
        self.best.as_ref().map_or(-1, |b| i64::from(b.score))
    }
}

const FULL: u16 = 0b11_1111_1110;

impl TargetSudoku {
    /// Reads 9 lines of 9 digits (`0` or `.` for a blank; spaces between digits are allowed).
    /// Blank lines are skipped.
    pub fn parse(text: &str) -> Result<TargetSudoku, TargetError> {
        let lines: Vec<(usize, &str)> =
            text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).collect();
        if lines.len() != 9 {
            return Err(TargetError::LineCount { found: lines.len() });
        }
        let mut grid = [[0u8; 9]; 9];
        for (r, (number, line)) in lines.into_iter().enumerate() {
            let mut digits = Vec::new();
            for (column, ch) in line.chars().enumerate() {
                match ch {
                    '0'..='9' => digits.push(ch as u8 - b'0'),
                    '.' => digits.push(0),
                    ' ' | '\t' | '\r' => {}
                    _ => {
                        return Err(TargetError::BadChar {
                            line: number + 1,
                            column: column + 1,
                            ch,
                        })
                    }
                }
            }
            if digits.len() != 9 {
                return Err(TargetError::LineLength { line: number + 1, found: digits.len() });
            }
            grid[r].copy_from_slice(&digits);
        }
        Ok(TargetSudoku { grid })
    }

    /// A puzzle from a grid (0 for a blank).
    pub fn from_grid(grid: Grid) -> Result<TargetSudoku, TargetError> {
        for (r, row) in grid.iter().enumerate() {
            for (c, &value) in row.iter().enumerate() {
                if value > 9 {
                    return Err(TargetError::BadValue { row: r + 1, column: c + 1, value });
                }
            }
        }
        Ok(TargetSudoku { grid })
    }

    /// The givens (0 for a blank).
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The number of givens.
    pub fn givens(&self) -> usize {
        self.grid.iter().flatten().filter(|&&d| d != 0).count()
    }

    /// Finds a completion of maximum score by branch and bound (see the [module docs](self)).
    pub fn solve(&self) -> TargetOutcome {
        let mut s = Search {
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
            grid: [0; 81],
            blanks: Vec::new(),
            best: 0,
            best_grid: None,
            nodes: 0,
        };
        let mut given = 0;
        for (r, row) in self.grid.iter().enumerate() {
            for (c, &d) in row.iter().enumerate() {
                if d == 0 {
                    s.blanks.push((r * 9 + c) as u8);
                    continue;
                }
                let bit = 1u16 << d;
                let b = r / 3 * 3 + c / 3;
                if (s.rows[r] | s.cols[c] | s.boxes[b]) & bit != 0 {
                    // Two equal givens in one unit: no completion.
                    return TargetOutcome { best: None, nodes: 0 };
                }
                s.rows[r] |= bit;
                s.cols[c] |= bit;
                s.boxes[b] |= bit;
                s.grid[r * 9 + c] = d;
                given += u32::from(d) * weight(r, c);
            }
        }
        s.dfs(0, given);
        let best = s.best_grid.map(|g| {
            let mut grid = [[0u8; 9]; 9];
            for (k, &d) in g.iter().enumerate() {
                grid[k / 9][k % 9] = d;
            }
            TargetSolution { score: s.best, grid }
        });
        TargetOutcome { best, nodes: s.nodes }
    }
}

/// The branch and bound's state.
struct Search {
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    grid: [u8; 81],
    /// The blanks; `blanks[..filled]` are filled, in the order they were.
    blanks: Vec<u8>,
    best: u32,
    best_grid: Option<[u8; 81]>,
    nodes: u64,
}

/// Weights by square index.
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

impl Search {
    fn dfs(&mut self, filled: usize, score: u32) {
        self.nodes += 1;
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
        while cand != 0 {
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

impl TargetSudoku {
    /// The options of [`Model::problem`], in order: `(row, column, digit)` for each given and
    /// for each digit of a blank that no given in its row, column or box forbids.
    fn options(&self) -> Vec<(usize, usize, u8)> {
        let g = &self.grid;
        let seen = |r: usize, c: usize, d: u8| {
            (0..9).any(|j| {
                g[r][j] == d || g[j][c] == d || g[r / 3 * 3 + j / 3][c / 3 * 3 + j % 3] == d
            })
        };
        let mut options = Vec::new();
        for (r, row) in g.iter().enumerate() {
            for (c, &cell) in row.iter().enumerate() {
                for d in 1..=9u8 {
                    if (cell != 0 && cell == d) || (cell == 0 && !seen(r, c, d)) {
                        options.push((r, c, d));
                    }
                }
            }
        }
        options
    }
}

impl Model for TargetSudoku {
    type Answer = Grid;

    /// The sudoku as exact cover: items `pRC` (square filled), `rRD`, `cCD` and `bBD` (digit
    /// `D` in row, column, box); one option per candidate digit of a blank and one per given.
    fn problem(&self) -> Problem {
        let mut b = ProblemBuilder::new();
        let mut items = Vec::with_capacity(324);
        for prefix in ["p", "r", "c", "b"] {
            for u in 0..9 {
                for v in 0..9 {
                    let v = if prefix == "p" { v } else { v + 1 };
                    items.push(b.primary(&format!("{prefix}{u}{v}")).ok());
                }
            }
        }
        for (r, c, d) in self.options() {
            let x = usize::from(d) - 1;
            let option = [
                items[r * 9 + c],
                items[81 + r * 9 + x],
                items[162 + c * 9 + x],
                items[243 + (r / 3 * 3 + c / 3) * 9 + x],
            ];
            let _ = b.option(option.into_iter().flatten());
        }
        b.build()
    }

    fn decode(&self, solution: &[OptionId]) -> Grid {
        let options = self.options();
        let mut grid = self.grid;
        for o in solution {
            if let Some(&(r, c, d)) = options.get(o.index()) {
                grid[r][c] = d;
            }
        }
        grid
    }
}

#[cfg(test)]
mod tests {
    use dancecard_engine::Solver;

    use super::*;

    #[test]
    fn weights_form_rings() {
        assert_eq!(weight(4, 4), 10);
        assert_eq!(weight(0, 0), 6);
        assert_eq!(weight(3, 5), 9);
        assert_eq!(weight(8, 2), 6);
        assert_eq!(WEIGHTS[4 * 9 + 4], 10);
        // 32 border squares weigh 6, then 24, 16 and 8 squares, and the centre.
        let total: u32 = WEIGHTS.iter().map(|&w| u32::from(w)).sum();
        assert_eq!(total, 32 * 6 + 24 * 7 + 16 * 8 + 8 * 9 + 10);
    }

    #[test]
    fn parse_errors() {
        assert_eq!(TargetSudoku::parse(""), Err(TargetError::LineCount { found: 0 }));
        let short = "123456789\n".repeat(8) + "12345678\n";
        assert_eq!(TargetSudoku::parse(&short), Err(TargetError::LineLength { line: 9, found: 8 }));
        let bad = "12345678x\n".repeat(9);
        assert!(matches!(
            TargetSudoku::parse(&bad),
            Err(TargetError::BadChar { line: 1, column: 9, ch: 'x' })
        ));
        assert!(TargetSudoku::from_grid([[10; 9]; 9]).is_err());
    }

    #[test]
    fn equal_givens_in_a_row_have_no_solution() {
        let mut grid = [[0u8; 9]; 9];
        grid[0][0] = 5;
        grid[0][8] = 5;
        let p = TargetSudoku::from_grid(grid).unwrap();
        assert_eq!(p.solve().score(), -1);
        let problem = p.problem();
        assert_eq!(Solver::new(&problem).first(), None);
    }
}
