//! A seeded generator of puzzles with a unique solution, for tests and benchmarks of the
//! larger grids (16x16, 25x25), for which no standard public corpus exists.
//!
//! A random solution grid comes from a fixed pattern, shuffled by the symmetries of sudoku
//! (rows within a band, bands, columns within a stack, stacks, relabelling of the values).
//! Then cells are emptied in a random order; a cell stays empty only if the puzzle keeps a
//! unique solution (checked by the fast solver, counting up to 2 under a node budget). The
//! random numbers are SplitMix64's, so a seed gives the same puzzle on every machine.

use super::{search, Grid, Method, Options, Shape};
use crate::rng::SplitMix64;

/// A generated puzzle and its unique solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle: the solution with some cells emptied.
    pub puzzle: Grid,
    /// The puzzle's only solution.
    pub solution: Grid,
}

/// Generates a puzzle of `shape` with a unique solution and at most `blanks` empty cells,
/// from `seed` (the same seed gives the same puzzle).
///
/// Each removal is kept only if a uniqueness check finishes within a node budget, so the
/// puzzle may have fewer blanks than asked for; it is never ambiguous.
///
/// ```
/// use dancecard_models::sudoku::{generate, Method, Shape, Uniqueness};
///
/// let g = generate(Shape::square(4)?, 7, 120);
/// assert_eq!(g.puzzle.values().iter().filter(|&&v| v == 0).count(), 120);
/// assert_eq!(g.puzzle.uniqueness(Method::Fast), Uniqueness::Unique);
/// assert!(g.solution.is_solution_of(&g.puzzle));
/// # Ok::<(), dancecard_models::sudoku::Error>(())
/// ```
pub fn generate(shape: Shape, seed: u64, blanks: usize) -> Generated {
    let mut rng = SplitMix64::new(seed);
    let side = shape.side();
    let (br, bc) = (shape.box_rows(), shape.box_cols());
    // Bands are `br` rows high and there are `bc` of them; stacks are `bc` columns wide and
    // there are `br` of them.
    let mut rows = Vec::with_capacity(side);
    let mut bands: Vec<usize> = (0..bc).collect();
    rng.shuffle(&mut bands);
    for band in bands {
        let mut within: Vec<usize> = (0..br).collect();
        rng.shuffle(&mut within);
        rows.extend(within.into_iter().map(|r| band * br + r));
    }
    let mut cols = Vec::with_capacity(side);
    let mut stacks: Vec<usize> = (0..br).collect();
    rng.shuffle(&mut stacks);
    for stack in stacks {
        let mut within: Vec<usize> = (0..bc).collect();
        rng.shuffle(&mut within);
        cols.extend(within.into_iter().map(|c| stack * bc + c));
    }
    let mut labels: Vec<u8> = (1..=side as u8).collect();
    rng.shuffle(&mut labels);
    let mut solution = Grid::empty(shape);
    for (r, &pr) in rows.iter().enumerate() {
        for (c, &pc) in cols.iter().enumerate() {
            // A valid pattern: row r is the sequence shifted by bc * (r % br) + r / br.
            let v = (bc * (pr % br) + pr / br + pc) % side;
            solution.set(r, c, labels[v]);
        }
    }
    let mut order: Vec<usize> = (0..shape.cells()).collect();
    rng.shuffle(&mut order);
    let mut puzzle = solution.clone();
    let options = Options::new(Method::Fast).limit(2).max_nodes(20_000);
    let mut removed = 0;
    for cell in order {
        if removed == blanks {
            break;
        }
        let (r, c) = (cell / side, cell % side);
        let v = puzzle.get(r, c);
        puzzle.set(r, c, 0);
        let report = search(&puzzle, &options);
        if report.solutions == 1 && report.is_exact() {
            removed += 1;
        } else {
            puzzle.set(r, c, v);
        }
    }
    Generated { puzzle, solution }
}
