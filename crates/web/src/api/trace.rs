//! `POST /api/trace?heuristic=mrv|leftmost&limit=N&solutions=K`: the problem and the events
//! of its search, for the page's stepper and the sudoku view's board.

use std::sync::atomic::Ordering;

use axum::extract::State;
use axum::response::Response;
use dancecard_engine::{Event, Solver, Stop};
use serde::Deserialize;

use super::search::{self, Need};
use super::{json, parse_problem, ApiError, ApiQueryBody, HeuristicParam, PROBLEM_BYTES_PER_BYTE};
use crate::AppState;

/// The query string.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Params {
    #[serde(default)]
    heuristic: HeuristicParam,
    /// Most events to record (capped by the server's `max_trace_events`).
    limit: Option<usize>,
    /// Stop the search after this many solutions (the sudoku view stops at the first, so
    /// that the node counter ends where `/api/sudoku` counts).
    solutions: Option<u64>,
}

/// Answers `{"items": [...], "options": [...], "heuristic": "mrv", "events": [...],
/// "complete": bool, "stop": "...", "stats": {...}}`: the problem as [`json::problem`]
/// gives it, and each event as [`json::event`] gives it.
///
/// The search runs to its end (every solution) unless the event limit, the solution limit
/// (`solutions=K`) or the budget stops it first: then `complete` is false and `stop` says
/// which (`event-limit`, `solution-limit`, `node-limit`, `time-limit`, `cancelled`). Events that would not fit in the reply are left out
/// (`reply-limit`); a problem whose description alone would not fit gets `413`.
pub(super) async fn handle(
    State(state): State<AppState>,
    ApiQueryBody(params, body): ApiQueryBody<Params>,
) -> Result<Response, ApiError> {
    if params.heuristic == HeuristicParam::Ssxcc {
        return Err(ApiError::bad_request(
            "heuristic: the trace follows the dancing links, which branch by mrv or leftmost \
             (ssxcc counts on sparse sets, with no events)",
        ));
    }
    let max_events = params
        .limit
        .map_or(state.config.max_trace_events, |l| l.min(state.config.max_trace_events));
    // The events are kept (a few words each) until they are written.
    let events_bytes = max_events.saturating_mul(std::mem::size_of::<(Event, u64)>());
    let need = Need {
        work: (body.len() * PROBLEM_BYTES_PER_BYTE).saturating_add(events_bytes),
        reply: state.config.max_reply_bytes,
    };
    search::run(&state, need, move |budget| {
        let doc = parse_problem(&body)?;
        let mut config = budget.config();
        config.heuristic = params.heuristic.into();
        config.budget.max_solutions = params.solutions.map(u128::from);
        let max_solutions = config.budget.max_solutions;
        let max_nodes = config.budget.max_nodes;
        let cancel = config.budget.cancel.clone();
        let mut solver = Solver::with_config(&doc.problem, config);
        let (events, complete) = solver.trace(max_events);
        let stats = *solver.stats();
        drop(solver);
        // `Solver::trace` says whether the search ended, not why it stopped: infer the reason
        // from the limits, checking them in the order the engine does.
        let mut stop = if complete {
            Stop::Exhausted.name()
        } else if events.len() >= max_events {
            "event-limit"
        } else if max_solutions.is_some_and(|m| stats.solutions >= m) {
            Stop::SolutionLimit.name()
        } else if max_nodes.is_some_and(|m| stats.nodes >= m) {
            Stop::NodeLimit.name()
        } else if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            Stop::Cancelled.name()
        } else {
            Stop::TimeLimit.name()
        };
        let mut reply = budget.reply();
        json::problem(&mut reply, &doc).map_err(|_| {
            ApiError::reply_too_large("the problem's description", budget.reply_cap)
        })?;
        let heuristic = dancecard_engine::Heuristic::from(params.heuristic).name();
        let tail = |_| ApiError::reply_too_large("the trace", budget.reply_cap);
        reply.field("heuristic", heuristic).map_err(tail)?;
        let mut list = reply.list("events").map_err(tail)?;
        for (event, nodes) in &events {
            if list.push(&json::event(&doc, event, *nodes)).is_err() {
                stop = json::REPLY_LIMIT;
                break;
            }
        }
        list.close();
        reply.field("complete", &(complete && stop == Stop::Exhausted.name())).map_err(tail)?;
        reply.field("stop", stop).map_err(tail)?;
        reply.field("stats", &json::stats(&stats)).map_err(tail)?;
        Ok(reply.finish())
    })
    .await
}
