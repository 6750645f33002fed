//! The JSON API: one module per endpoint, the search budget, and the JSON shapes.
//!
//! Every answer is JSON, errors included (`{"error": "..."}`): the handlers return
//! [`ApiError`], and [`json_errors`] rewrites the few plain-text errors that come from outside
//! the handlers (413 from the body limit, 405, 404) into the same shape.

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::{Json, Router};
use dancecard_engine::Heuristic;
use dancecard_format::Document;
use serde::Deserialize;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::limit::RequestBodyLimitLayer;

use crate::{AppState, ServerConfig};

mod json;
mod parse;
mod queens;
pub(crate) mod search;
mod solve;
mod sudoku;
mod target;
mod tile;
mod trace;

/// The API's routes, with the body limit, the JSON error shape and panic catching.
pub(crate) fn routes(config: &ServerConfig) -> Router<AppState> {
    Router::new()
        .route("/api/parse", post(parse::handle))
        .route("/api/solve", post(solve::handle))
        .route("/api/trace", post(trace::handle))
        .route("/api/sudoku", post(sudoku::handle))
        .route("/api/queens", get(queens::handle))
        .route("/api/queens/dlx", get(queens::dlx))
        .route("/api/tile", get(tile::handle))
        .route("/api/target-sudoku", post(target::handle))
        .route("/api/{*rest}", any(not_found))
        .route("/api", any(not_found))
        // Refuses a declared length over the limit before reading anything, and cuts off a
        // streamed body when it passes the limit; both give 413.
        .layer(RequestBodyLimitLayer::new(config.max_body_bytes))
        .layer(DefaultBodyLimit::max(config.max_body_bytes))
        // Outside the limit, so that its 413 gets the JSON shape too.
        .layer(axum::middleware::from_fn(json_errors))
        .layer(CatchPanicLayer::custom(|_: Box<dyn std::any::Any + Send>| {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response()
        }))
}

/// An error answer: a status and a message, sent as `{"error": message}`.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError { status, message: message.into() }
    }

    /// A `400 Bad Request`.
    pub(crate) fn bad_request(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(serde_json::json!({ "error": self.message }))).into_response()
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> Self {
        ApiError::new(rejection.status(), rejection.body_text())
    }
}

impl From<BytesRejection> for ApiError {
    fn from(rejection: BytesRejection) -> Self {
        let status = rejection.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(status, "the request body is too large")
        } else {
            ApiError::new(status, rejection.body_text())
        }
    }
}

/// The item-choice heuristic, as a query value: `mrv` (Knuth's "S") or `leftmost`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum HeuristicParam {
    #[default]
    Mrv,
    Leftmost,
}

impl From<HeuristicParam> for Heuristic {
    fn from(h: HeuristicParam) -> Heuristic {
        match h {
            HeuristicParam::Mrv => Heuristic::Mrv,
            HeuristicParam::Leftmost => Heuristic::Leftmost,
        }
    }
}

/// Parses a request body as `dancecard solve` does: DLX or a 0/1 matrix, detected.
pub(crate) fn parse_problem(body: &Bytes) -> Result<Document, ApiError> {
    dancecard_format::parse_auto(body)
        .map(|(doc, _)| doc)
        .map_err(|e| ApiError::bad_request(e.to_string()))
}

/// `/api/...` paths that name no endpoint.
async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such endpoint: the API has POST /api/parse, /api/solve, /api/trace, /api/sudoku and \
         /api/target-sudoku, and GET /api/queens, /api/queens/dlx and /api/tile",
    )
}

/// A request body as text, or a `400` naming the first byte that is not UTF-8.
pub(crate) fn body_text(body: &Bytes) -> Result<&str, ApiError> {
    std::str::from_utf8(body).map_err(|e| {
        ApiError::bad_request(format!(
            "the request body is not UTF-8 text (byte {})",
            e.valid_up_to() + 1
        ))
    })
}

/// The endpoints read with `GET`; every other one is `POST`.
const GET_ENDPOINTS: &[&str] = &["/api/queens", "/api/queens/dlx", "/api/tile"];

/// Rewrites an error answer that is not JSON (from a layer or the router: 413, 405, 404)
/// into `{"error": "..."}`, keeping its status; a 405 names the method to use (and says it
/// in an `Allow` header).
async fn json_errors(request: Request, next: Next) -> Response {
    let method = if GET_ENDPOINTS.contains(&request.uri().path()) { "GET" } else { "POST" };
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let message = match status {
        StatusCode::PAYLOAD_TOO_LARGE => "the request body is too large".to_owned(),
        StatusCode::METHOD_NOT_ALLOWED => {
            format!("method not allowed; use {method}")
        }
        _ => status.canonical_reason().unwrap_or("error").to_owned(),
    };
    let allow = match response.headers().get(header::ALLOW) {
        Some(allow) => Some(allow.clone()),
        None if status == StatusCode::METHOD_NOT_ALLOWED => Some(HeaderValue::from_static(method)),
        None => None,
    };
    let mut json = ApiError::new(status, message).into_response();
    if let Some(allow) = allow {
        let _ = json.headers_mut().insert(header::ALLOW, allow);
    }
    json
}

/// A successful JSON answer that no cache keeps.
pub(crate) fn json_ok(value: serde_json::Value) -> Response {
    let mut response = Json(value).into_response();
    let _ =
        response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
