//! `POST /api/target-sudoku`: the weighted ("target-shaped") sudoku; the body is 9 lines of
//! 9 digits.

use std::time::Instant;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::response::Response;
use dancecard_models::target::TargetSudoku;
use serde_json::json;

use super::target_bnb::{self, Cut};
use super::{body_text, json_ok, search, ApiError};
use crate::AppState;

/// Answers `dancecard target-sudoku --format json` (`{"score", "grid", "stats": {"nodes",
/// "seconds"}}`: the maximum score, -1 when there is no completion, and a best grid or
/// `null`) with `complete`, `stop`, the `puzzle` and its number of `givens`.
///
/// When the budget stops the branch and bound, `score` and `grid` are the best completion
/// found so far (or -1 and `null` if none was), with `"complete": false`.
pub(super) async fn handle(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = body?;
    let time_limit = state.config.time_limit;
    let value = search::run_timed(&state, time_limit, move |budget| {
        let puzzle = TargetSudoku::parse(body_text(&body)?)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let started = Instant::now();
        let outcome = target_bnb::solve(puzzle.grid(), budget.max_nodes, &budget.cancel);
        let seconds = started.elapsed().as_secs_f64();
        let stop = match outcome.cut {
            None => "exhausted",
            Some(Cut::Nodes) => "node-limit",
            Some(Cut::Cancelled) => budget.cancel_reason(),
        };
        Ok(json!({
            "score": outcome.best.as_ref().map_or(-1, |b| i64::from(b.0)),
            "grid": outcome.best.as_ref().map(|b| b.1),
            "stats": { "nodes": outcome.nodes, "seconds": seconds },
            "complete": outcome.cut.is_none(),
            "stop": stop,
            "puzzle": puzzle.grid(),
            "givens": puzzle.givens(),
        }))
    })
    .await?;
    Ok(json_ok(value))
}
