//! `POST /api/parse`: the problem as the page draws it, or the parser's error.

use axum::extract::State;
use axum::response::Response;

use super::search::{self, Need};
use super::{json, parse_problem, ApiBody, ApiError, PROBLEM_BYTES_PER_BYTE};
use crate::AppState;

/// Answers [`json::problem`] for the body: `{"items": [...], "options": [...]}`; `413` naming
/// `max_reply_bytes` when that description would not fit in a reply.
pub(super) async fn handle(
    State(state): State<AppState>,
    ApiBody(body): ApiBody,
) -> Result<Response, ApiError> {
    // Parsing a large body takes a while too: it runs in a search slot like a search.
    let need =
        Need { work: body.len() * PROBLEM_BYTES_PER_BYTE, reply: state.config.max_reply_bytes };
    search::run(&state, need, move |budget| {
        let doc = parse_problem(&body)?;
        let mut reply = budget.reply();
        json::problem(&mut reply, &doc).map_err(|_| {
            ApiError::reply_too_large("the problem's description", budget.reply_cap)
        })?;
        Ok(reply.finish())
    })
    .await
}
