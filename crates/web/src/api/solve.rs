//! `POST /api/solve?mode=first|all|count&limit=N&heuristic=mrv|leftmost`: the document of
//! `dancecard solve --format json`.

use std::ops::ControlFlow;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::response::Response;
use dancecard_engine::{Solver, Stop};
use serde::Deserialize;
use serde_json::json;

use super::{json, json_ok, parse_problem, search, ApiError, HeuristicParam};
use crate::AppState;

/// What to search for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum Mode {
    /// The first solution, in search order.
    #[default]
    First,
    /// Every solution (up to `limit`, and up to the server's cap).
    All,
    /// The number of solutions; none are listed.
    Count,
}

/// The query string.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Params {
    #[serde(default)]
    mode: Mode,
    /// Stop after this many solutions.
    limit: Option<u64>,
    #[serde(default)]
    heuristic: HeuristicParam,
}

/// Answers `{"solutions": [[option index, ...], ...], "count": N, "complete": bool,
/// "stop": "...", "stats": {...}}`, as `dancecard solve --format json` prints it.
///
/// `complete` is true when the search did what was asked: it searched the whole tree, or it
/// stopped at the first solution (`mode=first`) or at the request's `limit`. It is false when
/// the time or node budget, or the server's cap on listed solutions, cut the search short.
pub(super) async fn handle(
    State(state): State<AppState>,
    params: Result<Query<Params>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let Query(params) = params?;
    let body = body?;
    let cap = state.config.max_listed_solutions;
    let value = search::run(&state, move |mut config| {
        let doc = parse_problem(&body)?;
        config.heuristic = params.heuristic.into();
        // The solution limit, and whether reaching it means the server's cap cut the list.
        let (limit, capped) = match (params.mode, params.limit) {
            (Mode::First, limit) => (Some(limit.map_or(1, |l| l.min(1))), false),
            (Mode::All, Some(l)) if l <= cap => (Some(l), false),
            (Mode::All, _) => (Some(cap), true),
            (Mode::Count, limit) => (limit, false),
        };
        config.max_solutions = limit.map(u128::from);
        let mut solutions: Vec<Vec<usize>> = Vec::new();
        let (outcome, stats) = {
            let mut solver = Solver::with_config(&doc.problem, config);
            let outcome = if params.mode == Mode::Count {
                solver.count()
            } else {
                solver.solve_with(|s| {
                    solutions.push(s.options().map(|o| json::option_index(&doc, o)).collect());
                    ControlFlow::Continue(())
                })
            };
            (outcome, *solver.stats())
        };
        let complete = match outcome.stop {
            Stop::Exhausted => true,
            Stop::SolutionLimit => !capped,
            Stop::NodeLimit | Stop::TimeLimit | Stop::Cancelled | Stop::Visitor => false,
        };
        Ok(json!({
            "solutions": solutions,
            "count": json::count(outcome.solutions),
            "complete": complete,
            "stop": json::stop_name(outcome.stop),
            "stats": json::stats(&stats),
        }))
    })
    .await?;
    Ok(json_ok(value))
}
