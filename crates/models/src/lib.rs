//! Puzzle models: each puzzle turned into an exact cover [`Problem`] for the engine, and
//! solutions decoded back, so that the command line, the web explorer and the Python package
//! share one model per puzzle.
//!
//! # Brief overview
//!
//! Every model implements [`Model`]: [`Model::problem`] builds the exact cover problem (which
//! `dancecard-format` can write in Knuth's DLX format), [`Model::decode`] turns a solution's
//! options back into the puzzle's own answer. Some puzzles also have dedicated solvers that do
//! not go through exact cover, when a specialised algorithm is much faster.

#![deny(missing_docs, rustdoc::broken_intra_doc_links)]

use dancecard_engine::{OptionId, Problem};

pub mod sudoku;

/// A puzzle that can be solved as an exact cover problem.
pub trait Model {
    /// What a solution of the puzzle looks like (a grid, a board, a sequence...).
    type Answer;

    /// The exact cover problem whose solutions are this puzzle's solutions.
    fn problem(&self) -> Problem;

    /// The puzzle's answer for a solution of [`Model::problem`] (its options, in any order).
    fn decode(&self, solution: &[OptionId]) -> Self::Answer;
}

/// Every answer of `model`, found by the engine, in the engine's order.
#[cfg(test)]
fn all_answers<M: Model>(model: &M) -> Vec<M::Answer> {
    let problem = model.problem();
    let mut solver = dancecard_engine::Solver::new(&problem);
    solver.solutions().map(|s| model.decode(&s)).collect()
}

pub mod count;
pub mod langford;
pub mod queens;
mod rng;
pub mod target;
pub mod tiling;
pub mod watch;
