//! `POST /api/target-sudoku`: the weighted ("target-shaped") sudoku; the body is 9 lines of
//! 9 digits.
//!
//! `dancecard_models::target::TargetSudoku::solve` (the model's branch and bound) takes no
//! budget and no cancel flag, and a sparse grid keeps it busy for minutes: a server cannot
//! call it. What the model does offer with a budget is its exact cover problem
//! ([`Model::problem`], whose solutions are all the completions): the engine enumerates them
//! under the server's time and node budget and a cancel flag, each is scored with
//! [`target::score`], and the best is kept. When the enumeration ends (`"complete": true`) the
//! best score is the maximum, as the branch and bound finds it; when the budget stops it, the
//! answer is the best completion found so far, with `"complete": false`.
//!
//! The branch and bound would answer many more puzzles in full; it needs a node budget and a
//! cancel flag in the model (a `solve_with(max_nodes, cancel)` that returns the best so far)
//! for the server to call it.

use std::ops::ControlFlow;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::response::Response;
use dancecard_engine::{Solver, Stop};
use dancecard_models::target::{self, Grid, TargetSudoku};
use dancecard_models::Model;
use serde_json::json;

use super::{body_text, json, json_ok, search, ApiError};
use crate::AppState;

/// The best of the completions the engine enumerated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Best {
    /// The best score and a grid with it, or `None` if no completion was found.
    pub(crate) best: Option<(u32, Grid)>,
    /// The completions looked at.
    pub(crate) completions: u128,
    /// Why the enumeration stopped.
    pub(crate) stop: Stop,
    /// The engine's statistics.
    pub(crate) stats: dancecard_engine::Stats,
}

/// Enumerates the completions of `puzzle` under `config` and keeps the best.
pub(crate) fn best_completion(puzzle: &TargetSudoku, config: dancecard_engine::Config) -> Best {
    let problem = puzzle.problem();
    let mut solver = Solver::with_config(&problem, config);
    let mut best: Option<(u32, Grid)> = None;
    let outcome = solver.solve_with(|s| {
        let grid = puzzle.decode(&s.to_vec());
        let score = target::score(&grid);
        if best.as_ref().map_or(true, |b| score > b.0) {
            best = Some((score, grid));
        }
        ControlFlow::Continue(())
    });
    Best { best, completions: outcome.solutions, stop: outcome.stop, stats: *solver.stats() }
}

/// Answers `dancecard target-sudoku --format json` (`{"score", "grid", "stats"}`: the maximum
/// score, -1 when there is no completion, and a best grid or `null`) with `complete`, `stop`,
/// `completions` (how many completions were scored), the `puzzle` and its number of `givens`.
/// `stats` is the engine's (`nodes`, `updates`, `solutions`, `seconds`): its nodes count the
/// exact cover search's choices, not the branch and bound's.
///
/// When the budget stops the enumeration, `score` and `grid` are the best completion found
/// so far (or -1 and `null` if none was), with `"complete": false`.
pub(super) async fn handle(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = body?;
    let value = search::run(&state, move |config| {
        let puzzle = TargetSudoku::parse(body_text(&body)?)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let found = best_completion(&puzzle, config);
        Ok(json!({
            "score": found.best.as_ref().map_or(-1, |b| i64::from(b.0)),
            "grid": found.best.as_ref().map(|b| b.1),
            "stats": json::stats(&found.stats),
            "complete": found.stop.is_complete(),
            "stop": json::stop_name(found.stop),
            "completions": json::count(found.completions),
            "puzzle": puzzle.grid(),
            "givens": puzzle.givens(),
        }))
    })
    .await?;
    Ok(json_ok(value))
}

#[cfg(test)]
mod tests {
    use dancecard_engine::Config;

    use super::*;

    fn sample(name: &str) -> TargetSudoku {
        let path = format!("{}/../../testdata/target-sudoku/{name}", env!("CARGO_MANIFEST_DIR"));
        TargetSudoku::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn the_statements_samples_score_as_the_branch_and_bound() {
        for (name, expected) in [("sample1.in", 2829), ("sample2.in", 2852)] {
            let puzzle = sample(name);
            let found = best_completion(&puzzle, Config::default());
            assert_eq!(found.stop, Stop::Exhausted, "{name}");
            let (score, grid) = found.best.unwrap();
            assert_eq!(score, expected, "{name}");
            assert_eq!(i64::from(score), puzzle.solve().score(), "{name}");
            assert!(target::is_valid_solution(&grid));
        }
    }

    #[test]
    fn a_budget_stops_an_empty_grid_with_a_valid_completion() {
        let empty = TargetSudoku::from_grid([[0; 9]; 9]).unwrap();
        let config = Config { max_nodes: Some(5_000), ..Config::default() };
        let found = best_completion(&empty, config);
        assert_eq!(found.stop, Stop::NodeLimit);
        let (score, grid) = found.best.expect("a completion comes early");
        assert!(target::is_valid_solution(&grid));
        assert_eq!(score, target::score(&grid));
    }

    #[test]
    fn clashing_givens_have_no_completion() {
        let mut grid = [[0u8; 9]; 9];
        grid[0][0] = 5;
        grid[0][8] = 5;
        let found = best_completion(&TargetSudoku::from_grid(grid).unwrap(), Config::default());
        assert_eq!((found.best, found.stop), (None, Stop::Exhausted));
    }
}
