//! The target sudoku (NOIP 2009 "靶形数独"): among all completions of a sudoku, find one that
//! maximises the sum of digit times ring weight, the weights going from 10 on the centre
//! square down to 6 on the border.
//!
//! [`TargetSudoku::solve`] is a dedicated branch and bound, not an exact cover search:
//!
//! - rows, columns and boxes keep their used digits as bit sets (bit `d` for digit `d`), so a
//!   square's candidates are one `!(row | column | box)`;
//! - every node first fills naked singles (a blank with one candidate) and hidden singles (a
//!   digit with one place left in a row, column or box), then branches on the blank with the
//!   fewest candidates (the heavier among equals), largest digit first;
//! - two upper bounds on what the blanks can still add prune the nodes that cannot beat the
//!   best completion found. Both look at the problem digit by digit: the blanks that will
//!   hold digit `d` form a *transversal* of its missing rows, columns and boxes (one square in
//!   each), found by a small dynamic program over the missing rows in order whose state is
//!   the set of columns used and the stacks used in the current band (at most
//!   `2^9 * 8` states, few of them reachable).
//!   - *Weight ranges*: the total weight `T_d` of digit `d`'s transversal lies between the
//!     least and the greatest such total, and the `T_d` add up to the blanks' weight, so the
//!     blanks add at most `sum d * T_d` for the best such split (every digit at its least,
//!     the remaining weight to the largest digits first). A digit without a transversal ends
//!     the branch.
//!   - *Lagrangian relaxation* of "each blank holds one digit": with a price on each blank,
//!     each digit takes its transversal of greatest value `d * weight - price`
//!     independently, and the sum of those maxima plus the prices bounds the blanks' score
//!     for any prices. Ten subgradient steps per node (Polyak's step towards the score that
//!     would beat the best) improve the prices, which the children inherit; at the root they
//!     start proportional to the weights, where the bound equals the weight-range one.
//!     Prices are integers in 1/64 points, so the bound is exact arithmetic. When the digits'
//!     transversals happen to fit together, they form a completion that scores exactly the
//!     bound: the best of its subtree.
//!
//! On the hardest generated 24-given puzzles the weight ranges leave about 10 points above
//! the optimum at the root, the converged Lagrangian bound about 2; the search takes at most
//! a few hundred nodes where the previous per-line bounds took up to 629,364.
//!
//! [`TargetSudoku`] is also a [`Model`]: the plain sudoku exact cover problem (324 primary
//! items), whose solutions are all the completions, which tests use as a brute-force check.
//! With costs, `(10 - d) * weight` for digit `d` on a square, the same problem is the target
//! sudoku as *minimum-cost exact cover* ([`TargetSudoku::cost_problem`]): the engine's DLX5
//! ([`Solver::min_cost`]) solves it, [`TargetSudoku::solve_by`] with
//! [`TargetMethod::ExactCover`]. It finds the same maximum, but the branch and bound is the
//! faster (release build, medians of 21 alternating runs, load 10 on 2 CPUs): 0.010 against
//! 0.23 ms on the first sample, 0.17 against 0.40 ms on the second, 0.3-1.1 against 13-53 ms
//! on generated 24-given puzzles, where DLX5 takes 8,000 to 28,000 nodes to the branch and
//! bound's 35 to 115. DLX5's bound (the items' least net costs, shared out) knows nothing of
//! the digits' transversals.
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

use std::time::{Duration, Instant};

use dancecard_engine::{Budget, Config, Kernel, OptionId, Problem, ProblemBuilder, Solver, Stop};

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

/// The best completion found by [`TargetSudoku::solve`] or [`TargetSudoku::solve_by`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetSolution {
    /// Its score.
    pub score: u32,
    /// The completed grid.
    pub grid: Grid,
}

/// The result of [`TargetSudoku::solve`] and [`TargetSudoku::solve_by`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetOutcome {
    /// A completion of maximum score, or `None` when the puzzle has no solution.
    pub best: Option<TargetSolution>,
    /// Nodes of the search. Branch and bound: the root and one per branch taken (the squares
    /// that propagation fills are not counted). Exact cover: the engine's
    /// [`Stats::nodes`](dancecard_engine::Stats::nodes), one per level entered (a given's
    /// option takes a level too) and one per solution met.
    pub nodes: u64,
    /// Why the search ended: [`Stop::Exhausted`] when it ran to its end. When a
    /// [`Budget`] limit stopped it ([`Stop::NodeLimit`], [`Stop::TimeLimit`] or
    /// [`Stop::Cancelled`]), `best` is the best completion found so far (its score a lower
    /// bound of the maximum), and `None` says only that none was found yet.
    pub stop: Stop,
}

/// How [`TargetSudoku::solve_by`] finds a completion of maximum score.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TargetMethod {
    /// The dedicated branch and bound of [`TargetSudoku::solve_limited`] (see the
    /// [module docs](self)).
    #[default]
    BranchAndBound,
    /// Minimum-cost exact cover ([`TargetSudoku::cost_problem`]) by the engine's DLX5,
    /// [`Solver::min_cost`].
    ExactCover,
}

impl TargetOutcome {
    /// The maximum score, or -1 when there is no solution (the puzzle's convention).
    pub fn score(&self) -> i64 {
        self.best.as_ref().map_or(-1, |b| i64::from(b.score))
    }

    /// Whether the search ran to its end (then `best` is a maximum).
    pub fn is_complete(&self) -> bool {
        self.stop.is_complete()
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
    ///
    /// Most puzzles with 24 or more givens take well under a millisecond, but a puzzle with
    /// few givens can take minutes (an empty grid: longer): use
    /// [`solve_limited`](Self::solve_limited) to bound the search.
    pub fn solve(&self) -> TargetOutcome {
        self.solve_limited(&Budget::default())
    }

    /// [`solve`](Self::solve), stopped by the first of `limits` reached
    /// (see [`TargetOutcome::stop`]).
    pub fn solve_limited(&self, budget: &Budget) -> TargetOutcome {
        let mut search = Search::new(budget);
        if let Some(mut board) = Board::from_grid(&self.grid) {
            search.nodes = 1;
            if board.propagate() {
                if board.branch_square().is_none() {
                    search.offer(&board.grid, board.score);
                } else if let Some(ranges) = search.ranges(&board) {
                    // Start the multipliers where the weight-range bound is: a price of
                    // `marginal` points per unit of weight (see `Search::ranges`).
                    let mut prices = [0i32; 81];
                    for (k, price) in prices.iter_mut().enumerate() {
                        *price = SCALE * ranges.marginal * i32::from(WEIGHTS[k]);
                    }
                    search.visit(&board, prices);
                }
            }
        }
        let best = search.best.map(|(score, g)| {
            let mut grid = [[0u8; 9]; 9];
            for (k, &d) in g.iter().enumerate() {
                grid[k / 9][k % 9] = d;
            }
            TargetSolution { score, grid }
        });
        TargetOutcome { best, nodes: search.nodes, stop: search.stopped.unwrap_or(Stop::Exhausted) }
    }
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

/// The box of each square.
const BOX_OF: [u8; 81] = {
    let mut b = [0u8; 81];
    let mut k: usize = 0;
    while k < 81 {
        b[k] = (k / 27 * 3 + k % 9 / 3) as u8;
        k += 1;
    }
    b
};

/// The squares of the 27 units: rows, then columns, then boxes.
const UNITS: [[u8; 9]; 27] = {
    let mut u = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            u[i][j] = (i * 9 + j) as u8;
            u[9 + i][j] = (j * 9 + i) as u8;
            u[18 + i][j] = ((i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3) as u8;
            j += 1;
        }
        i += 1;
    }
    u
};

/// A partly filled grid: the digits used by each row, column and box as bit sets (bit `d`
/// for digit `d`), the squares, and the score of the filled squares.
#[derive(Clone, Copy, Debug)]
struct Board {
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    grid: [u8; 81],
    score: u32,
}

impl Board {
    /// The board of the givens, or `None` when two equal givens share a unit.
    fn from_grid(givens: &Grid) -> Option<Board> {
        let mut board =
            Board { rows: [0; 9], cols: [0; 9], boxes: [0; 9], grid: [0; 81], score: 0 };
        for (k, &d) in givens.iter().flatten().enumerate() {
            if d != 0 {
                if board.candidates(k) & (1 << d) == 0 {
                    return None;
                }
                board.place(k, u32::from(d));
            }
        }
        Some(board)
    }

    /// The digits square `k` may take (as if it were blank).
    fn candidates(&self, k: usize) -> u16 {
        FULL & !(self.rows[k / 9] | self.cols[k % 9] | self.boxes[usize::from(BOX_OF[k])])
    }

    fn place(&mut self, k: usize, d: u32) {
        let bit = 1u16 << d;
        self.rows[k / 9] |= bit;
        self.cols[k % 9] |= bit;
        self.boxes[usize::from(BOX_OF[k])] |= bit;
        self.grid[k] = d as u8;
        self.score += d * u32::from(WEIGHTS[k]);
    }

    /// Fills naked singles (a blank with one candidate) and hidden singles (a digit with one
    /// place in a unit) until none is left; false when some blank, or some digit missing from
    /// a unit, has no place left.
    fn propagate(&mut self) -> bool {
        let mut cand = [0u16; 81];
        loop {
            let mut changed = false;
            for (k, c) in cand.iter_mut().enumerate() {
                *c = 0;
                if self.grid[k] != 0 {
                    continue;
                }
                let m = self.candidates(k);
                if m == 0 {
                    return false;
                }
                if m & (m - 1) == 0 {
                    self.place(k, m.trailing_zeros());
                    changed = true;
                } else {
                    *c = m;
                }
            }
            if changed {
                continue;
            }
            for (u, squares) in UNITS.iter().enumerate() {
                let (mut once, mut twice) = (0u16, 0u16);
                for &k in squares {
                    let m = cand[usize::from(k)];
                    twice |= once & m;
                    once |= m;
                }
                let used = match u {
                    0..=8 => self.rows[u],
                    9..=17 => self.cols[u - 9],
                    _ => self.boxes[u - 18],
                };
                if FULL & !used & !once != 0 {
                    return false;
                }
                let single = once & !twice;
                if single == 0 {
                    continue;
                }
                for &k in squares {
                    let k = usize::from(k);
                    let m = cand[k] & single;
                    if m == 0 || self.grid[k] != 0 {
                        continue;
                    }
                    let d = m.trailing_zeros();
                    if m & (m - 1) != 0 || self.candidates(k) & (1 << d) == 0 {
                        // Two digits need this square, or an earlier fill took the digit.
                        return false;
                    }
                    self.place(k, d);
                    changed = true;
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// The blank with the fewest candidates, the heavier among equals; `None` when full.
    fn branch_square(&self) -> Option<usize> {
        let mut pick = None;
        let mut fewest = u32::MAX;
        for (k, &weight) in WEIGHTS.iter().enumerate() {
            if self.grid[k] == 0 {
                let key = self.candidates(k).count_ones() * 16 + 15 - u32::from(weight);
                if key < fewest {
                    fewest = key;
                    pick = Some(k);
                }
            }
        }
        pick
    }

    /// The total weight of the blanks.
    fn blank_weight(&self) -> u32 {
        (0..81).filter(|&k| self.grid[k] == 0).map(|k| u32::from(WEIGHTS[k])).sum()
    }
}

/// The Lagrangian multipliers (prices of the squares) are integers in units of `1 / SCALE`
/// points, so the bound is computed exactly.
const SCALE: i32 = 64;

/// Subgradient steps per node.
const STEPS: usize = 10;

/// What [`Search::ranges`] finds: the weight-range bound on the blanks' score, and the digit at
/// which its greedy allocation runs out of weight (the marginal price per unit of weight).
struct Ranges {
    bound: u32,
    marginal: i32,
}

/// What the Lagrangian relaxation says about a node.
enum Relaxation {
    /// Some digit has no transversal left: no completion.
    Infeasible,
    /// An upper bound on the blanks' score, times `SCALE`.
    Bound(i32),
    /// The digits' best transversals fit together: a completion, best in the subtree.
    Complete([u8; 81], u32),
}

/// The branch and bound: the best completion so far, the node count and the scratch space of
/// the per-digit dynamic programs.
struct Search<'a> {
    best: Option<(u32, [u8; 81])>,
    nodes: u64,
    /// The limits: `max_nodes`, `time_limit` and `cancel` (looked at every node).
    budget: &'a Budget,
    /// When the time limit passes.
    deadline: Option<Instant>,
    /// The limit reached, if any: then every level returns.
    stopped: Option<Stop>,
    /// Per DP state (index `columns << 3 | stacks`): the best and worst sums, and the state
    /// and square it came from (for the best).
    high: Vec<i32>,
    low: Vec<i32>,
    back: Vec<(u16, u8)>,
    /// The state is valid in the current run when its stamp is `generation`.
    stamp: Vec<u32>,
    generation: u32,
    layer: Vec<u16>,
    next: Vec<u16>,
}

/// A digit's transversals in the dynamic program: its missing rows, in order, and, for row
/// `i`, the missing columns (by index in `cols`) whose square is blank and whose box lacks it.
#[derive(Clone, Copy, Debug, Default)]
struct Lines {
    rows: [usize; 9],
    cols: [usize; 9],
    open: [u16; 9],
    len: usize,
}

impl<'a> Search<'a> {
    fn new(budget: &'a Budget) -> Search<'a> {
        Search {
            best: None,
            nodes: 0,
            budget,
            deadline: budget.deadline(Instant::now()),
            stopped: None,
            high: vec![0; 4096],
            low: vec![0; 4096],
            back: vec![(0, 0); 4096],
            stamp: vec![0; 4096],
            generation: 0,
            layer: Vec::with_capacity(4096),
            next: Vec::with_capacity(4096),
        }
    }

    /// Whether a limit is reached (and then records which in `stopped`).
    fn out_of_bounds(&mut self) -> bool {
        if self.stopped.is_none() {
            self.stopped = if self.budget.max_nodes.is_some_and(|max| self.nodes >= max) {
                Some(Stop::NodeLimit)
            } else if self.budget.is_cancelled() {
                Some(Stop::Cancelled)
            } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
                Some(Stop::TimeLimit)
            } else {
                None
            };
        }
        self.stopped.is_some()
    }

    fn offer(&mut self, grid: &[u8; 81], score: u32) {
        if self.best.as_ref().map_or(true, |b| score > b.0) {
            self.best = Some((score, *grid));
        }
    }

    /// `board` is propagated and has blanks; searches its completions.
    fn visit(&mut self, board: &Board, mut prices: [i32; 81]) {
        let Some(ranges) = self.ranges(board) else { return };
        if let Some((best, _)) = self.best {
            if board.score + ranges.bound <= best {
                return;
            }
            // The blanks must add at least `best - score + 1` to matter.
            let target = SCALE * (best - board.score + 1) as i32;
            match self.lagrangian(board, &mut prices, target) {
                Relaxation::Infeasible => return,
                Relaxation::Bound(b) if b < target => return,
                Relaxation::Complete(grid, blanks) => {
                    self.offer(&grid, board.score + blanks);
                    return;
                }
                Relaxation::Bound(_) => {}
            }
        }
        let Some(k) = board.branch_square() else { return };
        let mut cand = board.candidates(k);
        while cand != 0 {
            let d = 15 - cand.leading_zeros();
            cand ^= 1 << d;
            if self.out_of_bounds() {
                return;
            }
            let mut child = *board;
            child.place(k, d);
            self.nodes += 1;
            if !child.propagate() {
                continue;
            }
            if child.branch_square().is_none() {
                self.offer(&child.grid, child.score);
            } else {
                self.visit(&child, prices);
            }
        }
    }

    fn lines(board: &Board, d: u32) -> Option<Lines> {
        let bit = 1u16 << d;
        let mut l = Lines { rows: [0; 9], cols: [0; 9], open: [0; 9], len: 0 };
        let mut ncols = 0;
        for i in 0..9 {
            if board.rows[i] & bit == 0 {
                l.rows[l.len] = i;
                l.len += 1;
            }
            if board.cols[i] & bit == 0 {
                l.cols[ncols] = i;
                ncols += 1;
            }
        }
        if ncols != l.len {
            return None;
        }
        for i in 0..l.len {
            for j in 0..l.len {
                let k = l.rows[i] * 9 + l.cols[j];
                if board.grid[k] == 0 && board.boxes[usize::from(BOX_OF[k])] & bit == 0 {
                    l.open[i] |= 1 << j;
                }
            }
        }
        Some(l)
    }

    /// The dynamic program over the transversals of one digit: rows in order, the state the
    /// columns used and the stacks used in the current band (so that each box gets at most
    /// one square), valued by `value[square]`. Returns the best and (with `LOW`) the worst
    /// total, or `None` when there is no transversal; with `TRACE`, adds the best one's
    /// squares to `used` and writes `d` on them in `assign`.
    fn transversals<const LOW: bool, const TRACE: bool>(
        &mut self,
        lines: &Lines,
        d: u8,
        value: &[i32; 81],
        used: &mut [u8; 81],
        assign: &mut [u8; 81],
    ) -> Option<(i32, i32)> {
        let k = lines.len;
        if k == 0 {
            return Some((0, 0));
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        let generation = self.generation;
        let mut layer = std::mem::take(&mut self.layer);
        let mut next = std::mem::take(&mut self.next);
        layer.clear();
        layer.push(0);
        self.stamp[0] = generation;
        self.high[0] = 0;
        self.low[0] = 0;
        for i in 0..k {
            let band_ends = i + 1 == k || lines.rows[i + 1] / 3 != lines.rows[i] / 3;
            next.clear();
            for &state in &layer {
                let state = usize::from(state);
                let (columns, stacks) = (state >> 3, state & 7);
                let (high, low) = (self.high[state], self.low[state]);
                let mut open = lines.open[i] & !(columns as u16);
                while open != 0 {
                    let j = open.trailing_zeros() as usize;
                    open &= open - 1;
                    let stack = 1 << (lines.cols[j] / 3);
                    if stacks & stack != 0 {
                        continue;
                    }
                    let square = lines.rows[i] * 9 + lines.cols[j];
                    let v = value[square];
                    let to = (columns | 1 << j) << 3 | if band_ends { 0 } else { stacks | stack };
                    if self.stamp[to] != generation {
                        self.stamp[to] = generation;
                        self.high[to] = high + v;
                        self.low[to] = low + v;
                        self.back[to] = (state as u16, square as u8);
                        next.push(to as u16);
                    } else {
                        if high + v > self.high[to] {
                            self.high[to] = high + v;
                            self.back[to] = (state as u16, square as u8);
                        }
                        if LOW && low + v < self.low[to] {
                            self.low[to] = low + v;
                        }
                    }
                }
            }
            std::mem::swap(&mut layer, &mut next);
            if layer.is_empty() {
                break;
            }
        }
        let full = ((1 << k) - 1) << 3;
        let found = !layer.is_empty() && self.stamp[full] == generation;
        self.layer = layer;
        self.next = next;
        if !found {
            return None;
        }
        if TRACE {
            let mut state = full;
            while state != 0 {
                let (from, square) = self.back[state];
                used[usize::from(square)] += 1;
                assign[usize::from(square)] = d;
                state = usize::from(from);
            }
        }
        Some((self.high[full], self.low[full]))
    }

    /// The weight-range bound. The blanks that will hold digit `d` form a transversal of its
    /// missing rows, columns and boxes, so their total weight `T_d` lies between the least and
    /// the greatest total of such a transversal (`L_d`, `U_d`, by the dynamic program), and
    /// the `T_d` add up to the blanks' weight `W`; the blanks add `sum d * T_d`, at most the
    /// greedy optimum: every `T_d = L_d`, then the rest of `W` to the largest digits, up to
    /// their `U_d`. `None` when some digit has no transversal or the ranges cannot add up to
    /// `W`.
    fn ranges(&mut self, board: &Board) -> Option<Ranges> {
        const VALUE: [i32; 81] = {
            let mut v = [0i32; 81];
            let mut k = 0;
            while k < 81 {
                v[k] = WEIGHTS[k] as i32;
                k += 1;
            }
            v
        };
        let (mut low, mut high) = ([0u32; 10], [0u32; 10]);
        let (mut used, mut assign) = ([0u8; 81], [0u8; 81]);
        for d in 1..=9 {
            let lines = Self::lines(board, d)?;
            let (h, l) =
                self.transversals::<true, false>(&lines, d as u8, &VALUE, &mut used, &mut assign)?;
            high[d as usize] = h as u32;
            low[d as usize] = l as u32;
        }
        let mut slack = board.blank_weight().checked_sub(low.iter().sum())?;
        let mut bound = 0;
        let mut marginal = 0;
        for d in (1..=9).rev() {
            let extra = (high[d] - low[d]).min(slack);
            if extra < high[d] - low[d] && marginal == 0 {
                marginal = d as i32;
            }
            slack -= extra;
            bound += d as u32 * (low[d] + extra);
        }
        (slack == 0).then_some(Ranges { bound, marginal })
    }

    /// The Lagrangian relaxation of "each blank holds one digit": with a price `p_s` on each
    /// blank `s`, every digit independently takes its transversal of greatest
    /// `sum (d * w_s * SCALE - p_s)`, and those maxima plus the sum of the prices bound the
    /// blanks' score (times `SCALE`) for any prices. Improves `prices` by subgradient steps
    /// (Polyak's rule, aiming at `target`) and keeps the best.
    fn lagrangian(&mut self, board: &Board, prices: &mut [i32; 81], target: i32) -> Relaxation {
        let mut best = i32::MAX;
        let mut best_prices = *prices;
        let mut all = [Lines::default(); 9];
        for (d, lines) in all.iter_mut().enumerate() {
            match Self::lines(board, d as u32 + 1) {
                Some(l) => *lines = l,
                None => return Relaxation::Infeasible,
            }
        }
        for _ in 0..STEPS {
            let mut used = [0u8; 81];
            let mut assign = board.grid;
            let mut total = 0;
            for (d, lines) in all.iter().enumerate() {
                let mut value = [0i32; 81];
                let dw = SCALE * (d as i32 + 1);
                for k in 0..81 {
                    value[k] = dw * i32::from(WEIGHTS[k]) - prices[k];
                }
                match self.transversals::<false, true>(
                    lines,
                    d as u8 + 1,
                    &value,
                    &mut used,
                    &mut assign,
                ) {
                    Some((h, _)) => total += h,
                    None => return Relaxation::Infeasible,
                }
            }
            let mut norm = 0i64;
            for k in 0..81 {
                if board.grid[k] == 0 {
                    total += prices[k];
                    let g = 1 - i64::from(used[k]);
                    norm += g * g;
                }
            }
            if norm == 0 {
                // Every blank taken exactly once: a completion scoring exactly the bound.
                return Relaxation::Complete(assign, (total / SCALE) as u32);
            }
            if total < best {
                best = total;
                best_prices = *prices;
            }
            if best < target {
                break;
            }
            let step = (total - target).max(SCALE / 2) as f64 / norm as f64;
            for k in 0..81 {
                if board.grid[k] == 0 {
                    prices[k] -= (step * (1.0 - f64::from(used[k]))).round() as i32;
                }
            }
        }
        *prices = best_prices;
        Relaxation::Bound(best)
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

/// The total weight of the 81 squares: a completion of cost `c` in
/// [`TargetSudoku::cost_problem`] scores `10 * TOTAL_WEIGHT - c`.
pub const TOTAL_WEIGHT: u32 = 32 * 6 + 24 * 7 + 16 * 8 + 8 * 9 + 10;

/// The cost of digit `d` on the square on row `r`, column `c` in
/// [`TargetSudoku::cost_problem`]: `(10 - d) * weight(r, c)`, what the square falls short of
/// the 10 points per unit of weight that no digit reaches. Nonnegative, and least for the
/// largest digit.
pub fn cost(r: usize, c: usize, d: u8) -> u64 {
    u64::from(10 - u32::from(d)) * u64::from(weight(r, c))
}

impl TargetSudoku {
    /// The sudoku's exact cover problem (the items and options of [`Model::problem`]), with
    /// costs when `costs` is set (see [`cost`]).
    fn exact_cover(&self, costs: bool) -> Problem {
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
            ]
            .into_iter()
            .flatten();
            // 324 distinct items and costs of at most 810 in all: the builder cannot fail.
            let _ =
                if costs { b.option_with_cost(option, cost(r, c, d)) } else { b.option(option) };
        }
        b.build()
    }

    /// The target sudoku as minimum-cost exact cover: the items and options of
    /// [`Model::problem`] (324 primary items: square, row-digit, column-digit, box-digit; one
    /// option per digit a blank may take, one per given), digit `d` on square `(r, c)` costing
    /// [`cost`]`(r, c, d) = (10 - d) * weight(r, c)`. Every completion covers all 81 squares,
    /// so its score is `10 * TOTAL_WEIGHT` minus its cost, and a completion of least cost is
    /// one of greatest score. [`Model::decode`] reads a solution's grid.
    ///
    /// ```
    /// use dancecard_engine::Solver;
    /// use dancecard_models::target::{self, TargetSudoku, TOTAL_WEIGHT};
    /// use dancecard_models::Model;
    ///
    /// let text = std::fs::read_to_string(concat!(
    ///     env!("CARGO_MANIFEST_DIR"),
    ///     "/../../testdata/target-sudoku/sample2.in"
    /// ))?;
    /// let puzzle = TargetSudoku::parse(&text)?;
    /// let problem = puzzle.cost_problem();
    /// let best = Solver::new(&problem).min_cost(1)?;
    /// let cheapest = &best.best[0];
    /// assert_eq!(10 * u64::from(TOTAL_WEIGHT) - cheapest.cost, 2852);
    /// assert_eq!(target::score(&puzzle.decode(&cheapest.options)), 2852);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cost_problem(&self) -> Problem {
        self.exact_cover(true)
    }

    /// Finds a completion of maximum score by `method`, stopped by the first limit of
    /// `budget` reached (`max_nodes`, `time_limit`, `cancel`; see [`TargetOutcome::stop`]). Both methods find the same maximum score (the
    /// grids may differ between equal scores).
    pub fn solve_by(&self, method: TargetMethod, budget: &Budget) -> TargetOutcome {
        match method {
            TargetMethod::BranchAndBound => self.solve_limited(budget),
            TargetMethod::ExactCover => self.solve_exact_cover(budget),
        }
    }

    /// [`TargetMethod::ExactCover`]: [`Solver::min_cost`] on [`cost_problem`](Self::cost_problem).
    fn solve_exact_cover(&self, budget: &Budget) -> TargetOutcome {
        let stopped = |stop| TargetOutcome { best: None, nodes: 0, stop };
        // The engine looks at the clock and the flag once every `Config::CHECK_INTERVAL`
        // nodes, not before the root: a limit already reached stops here.
        if budget.max_nodes == Some(0) {
            return stopped(Stop::NodeLimit);
        }
        if budget.is_cancelled() {
            return stopped(Stop::Cancelled);
        }
        if budget.time_limit == Some(Duration::ZERO) {
            return stopped(Stop::TimeLimit);
        }
        // The links, not the default bit sets: short options and short item lists, where the
        // bit sets' per-level copies do not pay (medians of 11 alternating runs, release:
        // 0.13 against 0.25 ms on the first sample, 13-36 against 35-113 ms on generated
        // 24-given puzzles).
        let config = Config { kernel: Kernel::Links, budget: budget.clone(), ..Config::default() };
        let problem = self.cost_problem();
        // The problem has no multiplicities, the only thing `min_cost` refuses.
        let result = Solver::with_config(&problem, config)
            .min_cost(1)
            .expect("the target sudoku's exact cover has no item bounds");
        let best = result.best.first().map(|found| {
            let grid = self.decode(&found.options);
            // Score recovered from the cost, and checked against the grid.
            let recovered = u64::from(10 * TOTAL_WEIGHT) - found.cost;
            let scored = score(&grid);
            assert!(
                is_valid_solution(&grid) && u64::from(scored) == recovered,
                "the exact cover's solution of cost {} is a completion scoring {recovered} \
                 (its grid scores {scored})",
                found.cost
            );
            TargetSolution { score: scored, grid }
        });
        TargetOutcome { best, nodes: result.stats.nodes, stop: result.stop }
    }
}

impl Model for TargetSudoku {
    type Answer = Grid;

    /// The sudoku as exact cover: items `pRC` (square filled), `rRD`, `cCD` and `bBD` (digit
    /// `D` in row, column, box); one option per candidate digit of a blank and one per given.
    fn problem(&self) -> Problem {
        self.exact_cover(false)
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
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    use super::*;
    use crate::rng::SplitMix64;

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

    #[test]
    fn limits_stop_the_search_with_the_best_so_far() {
        let empty = TargetSudoku::from_grid([[0; 9]; 9]).unwrap();
        let limited = empty.solve_limited(&Budget::new().max_nodes(500));
        assert_eq!(limited.stop, Stop::NodeLimit);
        assert!(limited.nodes <= 500);
        let best = limited.best.expect("a completion within 500 nodes");
        assert!(is_valid_solution(&best.grid));
        assert_eq!(score(&best.grid), best.score);

        let cancel = Arc::new(AtomicBool::new(true));
        let cancelled = empty.solve_limited(&Budget::new().cancel(cancel));
        assert_eq!(cancelled.stop, Stop::Cancelled);
        assert!(cancelled.nodes <= 1);

        let late = empty.solve_limited(&Budget::new().time_limit(Duration::ZERO));
        assert_eq!(late.stop, Stop::TimeLimit);

        // Generous limits change nothing.
        let mut grid = best.grid;
        for k in 0..50 {
            grid[k / 9][k % 9] = 0;
        }
        let p = TargetSudoku::from_grid(grid).unwrap();
        let free = p.solve();
        let bounded = p.solve_limited(
            &Budget::new().max_nodes(u64::MAX).cancel(Arc::new(AtomicBool::new(false))),
        );
        assert!(free.is_complete() && bounded.is_complete());
        assert_eq!(free, bounded);
    }

    const BOTH: [TargetMethod; 2] = [TargetMethod::BranchAndBound, TargetMethod::ExactCover];

    fn testdata(path: &str) -> String {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/");
        std::fs::read_to_string(format!("{root}{path}")).unwrap()
    }

    /// Both methods on `p` without limits: the same score, and a completion of the givens
    /// that scores it (or no solution for both). Returns the score.
    fn agree(p: &TargetSudoku, what: &str) -> i64 {
        let [bb, xc] = BOTH.map(|m| p.solve_by(m, &Budget::default()));
        assert!(bb.is_complete() && xc.is_complete(), "{what}");
        assert_eq!(bb.score(), xc.score(), "{what}");
        assert_eq!(bb, p.solve(), "{what}");
        for found in [&bb, &xc].into_iter().filter_map(|o| o.best.as_ref()) {
            assert!(is_valid_solution(&found.grid), "{what}");
            assert_eq!(score(&found.grid), found.score, "{what}");
            let givens = p.grid().iter().flatten();
            assert!(givens.zip(found.grid.iter().flatten()).all(|(&g, &d)| g == 0 || g == d));
        }
        xc.score()
    }

    #[test]
    fn costs_add_up_to_the_score() {
        assert_eq!(TOTAL_WEIGHT, WEIGHTS.iter().map(|&w| u32::from(w)).sum::<u32>());
        let text = testdata("target-sudoku/statement_filled_grid_2829.txt");
        let full = TargetSudoku::parse(&text).unwrap();
        let grid = *full.grid();
        let total: u64 = (0..81).map(|k| cost(k / 9, k % 9, grid[k / 9][k % 9])).sum();
        assert_eq!(10 * u64::from(TOTAL_WEIGHT) - total, 2829);
        assert_eq!(cost(4, 4, 9), 10);
        assert_eq!(cost(0, 0, 1), 54);
        // The cost problem is the plain one with costs: same items, same options.
        let (plain, costed) = (full.problem(), full.cost_problem());
        assert_eq!(plain.item_count(), 324);
        assert_eq!(costed.item_count(), 324);
        assert_eq!(plain.option_count(), 81);
        assert_eq!(costed.option_count(), 81);
    }

    #[test]
    fn both_methods_score_the_samples_as_the_statement_says() {
        for (input, output) in [("sample1.in", "sample1.out"), ("sample2.in", "sample2.out")] {
            let p = TargetSudoku::parse(&testdata(&format!("target-sudoku/{input}"))).unwrap();
            let want: i64 = testdata(&format!("target-sudoku/{output}")).trim().parse().unwrap();
            assert_eq!(agree(&p, input), want, "{input}");
        }
        let full = TargetSudoku::parse(&testdata("target-sudoku/statement_filled_grid_2829.txt"));
        assert_eq!(agree(&full.unwrap(), "the filled grid"), 2829);
    }

    /// The solved grids of `testdata/sudoku/emerentius_lines/solved_*.txt`.
    fn solved_grids() -> Vec<Grid> {
        let mut grids = Vec::new();
        for level in ["easy", "medium", "hard"] {
            let text = testdata(&format!("sudoku/emerentius_lines/solved_{level}_sudokus.txt"));
            for line in text.lines().filter(|l| l.len() >= 81) {
                let mut grid = [[0u8; 9]; 9];
                for (k, ch) in line.bytes().take(81).enumerate() {
                    grid[k / 9][k % 9] = ch - b'0';
                }
                assert!(is_valid_solution(&grid));
                grids.push(grid);
            }
        }
        grids
    }

    /// `grid` with all but `givens` random squares blanked.
    fn blank(grid: &Grid, givens: usize, rng: &mut SplitMix64) -> Grid {
        let mut cells: Vec<usize> = (0..81).collect();
        rng.shuffle(&mut cells);
        let mut puzzle = *grid;
        for &k in &cells[givens..] {
            puzzle[k / 9][k % 9] = 0;
        }
        puzzle
    }

    #[test]
    fn both_methods_agree_on_generated_puzzles() {
        let grids = solved_grids();
        let mut rng = SplitMix64::new(19);
        for round in 0..34 {
            let givens = 24 + round % 17;
            let grid = &grids[rng.below(grids.len())];
            let p = TargetSudoku::from_grid(blank(grid, givens, &mut rng)).unwrap();
            let score = agree(&p, &format!("round {round}, {givens} givens"));
            assert!(score >= i64::from(super::score(grid)), "the source grid completes it");
        }
    }

    #[test]
    fn both_methods_find_no_solution_alike() {
        // One given changed to a digit no other given in its row, column or box has: mostly
        // no completion left, sometimes another one.
        let grids = solved_grids();
        let mut rng = SplitMix64::new(2009);
        let mut unsolvable = 0;
        for round in 0..24 {
            let givens = 30 + round % 11;
            let mut puzzle = blank(&grids[rng.below(grids.len())], givens, &mut rng);
            let p = TargetSudoku::from_grid(puzzle).unwrap();
            let given: Vec<(usize, usize)> =
                p.options().iter().filter(|o| puzzle[o.0][o.1] != 0).map(|o| (o.0, o.1)).collect();
            let (r, c) = given[rng.below(given.len())];
            let d = puzzle[r][c];
            puzzle[r][c] = 0;
            let free = TargetSudoku::from_grid(puzzle).unwrap().options();
            let others: Vec<u8> =
                free.iter().filter(|o| (o.0, o.1) == (r, c) && o.2 != d).map(|o| o.2).collect();
            let Some(&other) = others.get(rng.below(others.len().max(1))) else { continue };
            puzzle[r][c] = other;
            let p = TargetSudoku::from_grid(puzzle).unwrap();
            let score = agree(&p, &format!("round {round}, ({r}, {c}) = {other}"));
            unsolvable += usize::from(score == -1);
        }
        assert!(unsolvable >= 12, "{unsolvable} of 24 without a completion");
        // Clashing givens, and a square left with no digit.
        let mut clash = [[0u8; 9]; 9];
        clash[0][0] = 5;
        clash[0][8] = 5;
        let mut empty_square = [[0u8; 9]; 9];
        for (c, d) in (1..9).zip(1..=8u8) {
            empty_square[0][c] = d;
        }
        empty_square[1][0] = 9;
        for grid in [clash, empty_square] {
            let p = TargetSudoku::from_grid(grid).unwrap();
            assert_eq!(agree(&p, "unsolvable"), -1);
            let xc = p.solve_by(TargetMethod::ExactCover, &Budget::default());
            assert_eq!((xc.best, xc.stop), (None, Stop::Exhausted));
        }
    }

    #[test]
    fn limits_stop_both_methods() {
        let empty = TargetSudoku::from_grid([[0; 9]; 9]).unwrap();
        for method in BOTH {
            let limits = Budget::new().max_nodes(500);
            let limited = empty.solve_by(method, &limits);
            assert_eq!(limited.stop, Stop::NodeLimit, "{method:?}");
            assert!(0 < limited.nodes && limited.nodes <= 500, "{method:?}: {}", limited.nodes);
            let best = limited.best.expect("a completion within 500 nodes");
            assert!(is_valid_solution(&best.grid));
            assert_eq!(score(&best.grid), best.score);

            let zero = Budget::new().max_nodes(0);
            let none = empty.solve_by(method, &zero);
            assert_eq!((none.best, none.stop), (None, Stop::NodeLimit), "{method:?}");

            let cancel = Budget::new().cancel(Arc::new(AtomicBool::new(true)));
            let cancelled = empty.solve_by(method, &cancel);
            assert_eq!(cancelled.stop, Stop::Cancelled, "{method:?}");
            assert!(cancelled.nodes <= 1);

            let late = Budget::new().time_limit(Duration::ZERO);
            assert_eq!(empty.solve_by(method, &late).stop, Stop::TimeLimit, "{method:?}");
        }
        // The exact cover past its first ten thousand nodes, with a cancel flag: the node
        // limit, the flag raised meanwhile, or the time limit. (The empty grid is solved in 885
        // nodes since the relaxation's taxes; these three givens take 1,447,876 nodes, about
        // a second in a release build.)
        let mut grid = [[0; 9]; 9];
        (grid[2][8], grid[6][1], grid[8][4]) = (5, 4, 9);
        let empty = TargetSudoku::from_grid(grid).unwrap();
        let lowered = Arc::new(AtomicBool::new(false));
        let long = Budget::new().max_nodes(15_000).cancel(Arc::clone(&lowered));
        let limited = empty.solve_by(TargetMethod::ExactCover, &long);
        assert_eq!((limited.stop, limited.nodes), (Stop::NodeLimit, 15_000));
        let raised = Arc::new(AtomicBool::new(false));
        let cancelled = std::thread::scope(|scope| {
            let _ = scope.spawn(|| {
                // Mostly after the first ten thousand nodes (about 10 ms in a release build).
                std::thread::sleep(Duration::from_millis(300));
                raised.store(true, Ordering::Relaxed);
            });
            let limits =
                Budget::new().cancel(Arc::clone(&raised)).time_limit(Duration::from_secs(60));
            empty.solve_by(TargetMethod::ExactCover, &limits)
        });
        assert_eq!(cancelled.stop, Stop::Cancelled);
        assert!(cancelled.nodes > 0, "{}", cancelled.nodes);
        let soon = Budget::new().time_limit(Duration::from_millis(100)).cancel(lowered);
        assert_eq!(empty.solve_by(TargetMethod::ExactCover, &soon).stop, Stop::TimeLimit);
    }
}
