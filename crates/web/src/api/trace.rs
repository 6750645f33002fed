//! `POST /api/trace?heuristic=mrv|leftmost&limit=N`: the problem and the events of its
//! search, for the page's stepper.

use std::sync::atomic::Ordering;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::response::Response;
use dancecard_engine::Solver;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{json, json_ok, parse_problem, search, ApiError, HeuristicParam};
use crate::AppState;

/// The query string.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Params {
    #[serde(default)]
    heuristic: HeuristicParam,
    /// Most events to record (capped by the server's `max_trace_events`).
    limit: Option<usize>,
}

/// Answers `{"items": [...], "options": [...], "heuristic": "mrv", "events": [...],
/// "complete": bool, "stop": "...", "stats": {...}}`: the problem as [`json::problem`]
/// gives it, and each event as [`json::event`] gives it.
///
/// The search runs to its end (every solution) unless the event limit or the budget stops
/// it first: then `complete` is false and `stop` says which (`event-limit`, `node-limit`,
/// `time-limit`, `cancelled`).
pub(super) async fn handle(
    State(state): State<AppState>,
    params: Result<Query<Params>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let Query(params) = params?;
    let body = body?;
    let max_events = params
        .limit
        .map_or(state.config.max_trace_events, |l| l.min(state.config.max_trace_events));
    let value = search::run(&state, move |mut config| {
        let doc = parse_problem(&body)?;
        config.heuristic = params.heuristic.into();
        let max_nodes = config.max_nodes;
        let cancel = config.cancel.clone();
        let mut solver = Solver::with_config(&doc.problem, config);
        let (events, complete) = solver.trace(max_events);
        let stats = *solver.stats();
        // `Solver::trace` says whether the search ended, not why it stopped: infer the reason
        // from the limits, checking them in the order the engine does.
        let stop = if complete {
            "exhausted"
        } else if events.len() >= max_events {
            "event-limit"
        } else if max_nodes.is_some_and(|m| stats.nodes >= m) {
            "node-limit"
        } else if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            "cancelled"
        } else {
            "time-limit"
        };
        let mut value = json::problem(&doc);
        value["heuristic"] = Value::from(match params.heuristic {
            HeuristicParam::Mrv => "mrv",
            HeuristicParam::Leftmost => "leftmost",
        });
        value["events"] = events.iter().map(|(e, nodes)| json::event(&doc, e, *nodes)).collect();
        value["complete"] = json!(complete);
        value["stop"] = json!(stop);
        value["stats"] = json::stats(&stats);
        Ok(value)
    })
    .await?;
    Ok(json_ok(value))
}
