//! Sudoku as exact cover.
//!
//! For a grid of side `s` (`s = n^2` with square boxes), the full model has `4 s^2` primary
//! items (`4 n^4`), in four families, as in Knuth's TAOCP 7.2.2.1 (his `sudoku2dlx`):
//!
//! | item | meaning | count |
//! | --- | --- | --- |
//! | `p{r}_{c}` | cell (r, c) holds a value | `s^2` |
//! | `r{r}_{v}` | row r holds value v | `s^2` |
//! | `c{c}_{v}` | column c holds value v | `s^2` |
//! | `b{b}_{v}` | box b holds value v | `s^2` |
//!
//! and one option `p{r}_{c} r{r}_{v} c{c}_{v} b{b}_{v}` per cell and value (`s^3` options);
//! rows, columns and boxes count from 0, values from 1.
//!
//! **Givens are fixed before the search by building the reduced problem**: the items a given
//! covers are left out, and so is every option that would clash with a given (its cell is
//! given, or its value is given in its row, column or box). This is exactly the arena that
//! covering the givens' options first would leave, so the engine's node counts are those of
//! the search proper. If the givens clash, the problem gets one extra primary item `clash`
//! with no option, so that it has no solution.

use std::ops::ControlFlow;

use dancecard_engine::{Config, OptionId, Problem, ProblemBuilder, Solver};

use super::{Grid, Options, Report, Stop};
use crate::Model;

/// The exact cover model of a sudoku puzzle (see the module documentation for the items).
///
/// ```
/// use dancecard_engine::Solver;
/// use dancecard_models::sudoku::{Grid, SudokuModel};
/// use dancecard_models::Model;
///
/// let grid = Grid::parse_line("1...........2..3", None)?;
/// let model = SudokuModel::new(&grid);
/// let problem = model.problem();
/// // 64 items for the empty 4x4 grid, less 4 for each of the 3 givens.
/// assert_eq!(problem.item_count(), 52);
/// let mut solver = Solver::new(&problem);
/// let solution = solver.first().expect("solvable");
/// assert!(model.decode(&solution).is_solution_of(&grid));
/// # Ok::<(), dancecard_models::sudoku::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct SudokuModel {
    grid: Grid,
    /// For each option of [`Model::problem`], in order: its cell index and value.
    options: Vec<(u16, u8)>,
}

impl SudokuModel {
    /// The model of `grid`'s puzzle.
    pub fn new(grid: &Grid) -> SudokuModel {
        let side = grid.side();
        let shape = grid.shape();
        let mut options = Vec::new();
        let (rows, cols, boxes) = used_masks(grid);
        for r in 0..side {
            for c in 0..side {
                if grid.get(r, c) != 0 {
                    continue;
                }
                let used = rows[r] | cols[c] | boxes[shape.box_of(r, c)];
                for v in 1..=side {
                    if used & (1 << v) == 0 {
                        options.push(((r * side + c) as u16, v as u8));
                    }
                }
            }
        }
        SudokuModel { grid: grid.clone(), options }
    }

    /// The puzzle.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The cell (row, column) and value of an option of [`Model::problem`].
    pub fn option_meaning(&self, option: OptionId) -> (usize, usize, u8) {
        let (cell, v) = self.options[option.index()];
        let side = self.grid.side();
        (usize::from(cell) / side, usize::from(cell) % side, v)
    }
}

/// Masks (bit v for value v) of the values given in each row, column and box.
fn used_masks(grid: &Grid) -> (Vec<u64>, Vec<u64>, Vec<u64>) {
    let side = grid.side();
    let mut rows = vec![0u64; side];
    let mut cols = vec![0u64; side];
    let mut boxes = vec![0u64; side];
    for r in 0..side {
        for c in 0..side {
            let v = grid.get(r, c);
            if v != 0 {
                rows[r] |= 1 << v;
                cols[c] |= 1 << v;
                boxes[grid.shape().box_of(r, c)] |= 1 << v;
            }
        }
    }
    (rows, cols, boxes)
}

impl Model for SudokuModel {
    type Answer = Grid;

    fn problem(&self) -> Problem {
        let grid = &self.grid;
        let side = grid.side();
        let shape = grid.shape();
        let (rows, cols, boxes) = used_masks(grid);
        let mut b = ProblemBuilder::new();
        // Item ids by family and index (None when a given covers it).
        let mut ids = vec![None; 4 * side * side];
        let declare = |b: &mut ProblemBuilder, name: String| {
            b.primary(&name).expect("sudoku item names are distinct and valid")
        };
        for r in 0..side {
            for c in 0..side {
                if grid.get(r, c) == 0 {
                    ids[r * side + c] = Some(declare(&mut b, format!("p{r}_{c}")));
                }
            }
        }
        for (family, (prefix, used)) in
            [("r", &rows), ("c", &cols), ("b", &boxes)].into_iter().enumerate()
        {
            for u in 0..side {
                for v in 1..=side {
                    if used[u] & (1 << v) == 0 {
                        ids[(family + 1) * side * side + u * side + (v - 1)] =
                            Some(declare(&mut b, format!("{prefix}{u}_{v}")));
                    }
                }
            }
        }
        if grid.check().is_err() {
            let _ = declare(&mut b, "clash".to_owned());
        }
        for &(cell, v) in &self.options {
            let (r, c) = (usize::from(cell) / side, usize::from(cell) % side);
            let v = usize::from(v) - 1;
            let items = [
                ids[r * side + c],
                ids[side * side + r * side + v],
                ids[2 * side * side + c * side + v],
                ids[3 * side * side + shape.box_of(r, c) * side + v],
            ];
            let items = items.map(|i| i.expect("an option's items are not covered by givens"));
            let _ = b.option(items).expect("sudoku options are valid");
        }
        b.build()
    }

    fn decode(&self, solution: &[OptionId]) -> Grid {
        let mut grid = self.grid.clone();
        for &o in solution {
            let (r, c, v) = self.option_meaning(o);
            grid.set(r, c, v);
        }
        grid
    }
}

/// Solves or counts with the dancing-links engine.
pub(super) fn search(grid: &Grid, options: &Options) -> Report {
    let model = SudokuModel::new(grid);
    let problem = model.problem();
    let config = Config::with_budget(options.budget.clone());
    let mut solver = Solver::with_config(&problem, config);
    let mut first = None;
    let outcome = if options.budget.max_solutions == Some(0) {
        None
    } else {
        Some(solver.solve_with(|s| {
            if first.is_none() && !options.skip_solution {
                first = Some(model.decode(&s.to_vec()));
            }
            ControlFlow::Continue(())
        }))
    };
    // The engine's stops are the sudoku's: a visitor that never stops, so it ends exhausted,
    // at the solution, node or time limit, or cancelled.
    let stop = outcome.map_or(Stop::SolutionLimit, |o| o.stop);
    Report {
        solutions: u64::try_from(solver.stats().solutions).unwrap_or(u64::MAX),
        solution: first,
        stop,
        nodes: solver.stats().nodes,
        micros: 0,
    }
}
