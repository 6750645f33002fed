//! `POST /api/parse`: the problem as the page draws it, or the parser's error.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::response::Response;

use super::{json, json_ok, parse_problem, search, ApiError};
use crate::AppState;

/// Answers [`json::problem`] for the body.
pub(super) async fn handle(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = body?;
    // Parsing a large body takes a while too: it runs in a search slot like a search.
    let value = search::run(&state, move |_| Ok(json::problem(&parse_problem(&body)?))).await?;
    Ok(json_ok(value))
}
