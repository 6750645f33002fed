//! `POST /api/target-sudoku`: the weighted ("target-shaped") sudoku; the body is 9 lines of
//! 9 digits.
//!
//! The model's branch and bound ([`TargetSudoku::solve_limited`]) runs under the server's
//! node and time budget and the request's cancel flag. When it ends (`"complete": true`) the
//! score is the maximum; when the budget stops it, the answer is the best completion found so
//! far (a lower bound), with `"complete": false`.

use std::time::Instant;

use axum::extract::State;
use axum::response::Response;
use dancecard_engine::Budget;
use dancecard_models::target::{TargetOutcome, TargetSudoku};
use serde_json::json;

use super::json::stop_name;
use super::search::{self, Need, SMALL_REPLY};
use super::{body_text, ApiBody, ApiError};
use crate::AppState;

/// Memory of the branch and bound (a 9x9 grid, its candidates and the best completion, level
/// by level), rounded far up.
const WORK_BYTES: usize = 4 << 20;

/// Memory of parsing per byte of the body: the parser lists the body's lines first (a
/// 1 MiB body of empty lines: 524,288 of them, 24 bytes each).
const PARSE_BYTES_PER_BYTE: usize = 32;

/// The branch and bound within `budget` (its node and time limits and its cancel flag), with
/// the seconds it took and why it stopped (`exhausted`, `node-limit`, `time-limit` or
/// `cancelled`).
pub(crate) fn best_completion(
    puzzle: &TargetSudoku,
    budget: &Budget,
) -> (TargetOutcome, f64, &'static str) {
    let started = Instant::now();
    let outcome = puzzle.solve_limited(budget);
    let seconds = started.elapsed().as_secs_f64();
    let stop = stop_name(outcome.stop);
    (outcome, seconds, stop)
}

/// Answers `dancecard target-sudoku --format json` (`{"score", "grid", "complete",
/// "stats": {"nodes", "seconds"}}`: the maximum score, -1 when there is no completion, and a
/// best grid or `null`; nodes are the branch and bound's) with `stop`, the `puzzle` and its
/// number of `givens`.
///
/// When the budget stops the search, `score` and `grid` are the best completion found so far
/// (or `null` and `null` if none was: -1 would read as "no completion"), with
/// `"complete": false`.
pub(super) async fn handle(
    State(state): State<AppState>,
    ApiBody(body): ApiBody,
) -> Result<Response, ApiError> {
    let need = Need { work: WORK_BYTES + body.len() * PARSE_BYTES_PER_BYTE, reply: SMALL_REPLY };
    search::run(&state, need, move |budget| {
        let puzzle = TargetSudoku::parse(body_text(&body)?)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let (found, seconds, stop) = best_completion(&puzzle, &budget.budget());
        budget.answer(&json!({
            "score": (found.best.is_some() || found.is_complete()).then(|| found.score()),
            "grid": found.best.as_ref().map(|b| b.grid),
            "complete": found.is_complete(),
            "stats": { "nodes": found.nodes, "seconds": seconds },
            "stop": stop,
            "puzzle": puzzle.grid(),
            "givens": puzzle.givens(),
        }))
    })
    .await
}

#[cfg(test)]
mod tests {
    use dancecard_models::target;

    use super::*;

    fn sample(name: &str) -> TargetSudoku {
        let path = format!("{}/../../testdata/target-sudoku/{name}", env!("CARGO_MANIFEST_DIR"));
        TargetSudoku::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn the_statements_samples_score_as_the_command_line() {
        for (name, expected) in [("sample1.in", 2829), ("sample2.in", 2852)] {
            let (found, _, stop) = best_completion(&sample(name), &Budget::default());
            assert_eq!(stop, "exhausted", "{name}");
            let best = found.best.unwrap();
            assert_eq!(best.score, expected, "{name}");
            assert!(target::is_valid_solution(&best.grid));
        }
    }

    #[test]
    fn a_budget_stops_an_empty_grid_with_a_valid_completion() {
        let empty = TargetSudoku::from_grid([[0; 9]; 9]).unwrap();
        let budget = Budget::new().max_nodes(500);
        let (found, _, stop) = best_completion(&empty, &budget);
        assert_eq!((found.is_complete(), stop), (false, "node-limit"));
        let best = found.best.expect("a completion comes early");
        assert!(target::is_valid_solution(&best.grid));
        assert_eq!(best.score, target::score(&best.grid));
    }

    #[test]
    fn clashing_givens_have_no_completion() {
        // Two 5s in the first row.
        let text = format!("5.......5\n{}", ".........\n".repeat(8));
        let puzzle = TargetSudoku::parse(&text).unwrap();
        let (found, _, stop) = best_completion(&puzzle, &Budget::default());
        assert_eq!((found.best, stop), (None, "exhausted"));
    }
}
