//! The JSON API: one module per endpoint, the bounds of a request, the search budget, and
//! the JSON shapes.
//!
//! Every answer is JSON, errors included (`{"error": "...", "bound": "..."}`, `bound` naming
//! the [`ServerConfig`](crate::ServerConfig) field that refused the request, when one did): the handlers return
//! [`ApiError`], and [`json_errors`] rewrites the few plain-text errors that come from outside
//! the handlers (413 from the body limit, 405, 404) into the same shape. The one exception is
//! `GET /api/queens/dlx` and `GET /api/tile/dlx`, whose answers are DLX files (`text/plain`).
//!
//! [`ENDPOINTS`] is the list of the API's routes: the router is built from it, and a test
//! checks it against the OpenAPI description (`openapi.json`, served at
//! `GET /api/openapi.json`).

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, FromRequest, FromRequestParts, Query, Request};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post, MethodRouter};
use axum::{Json, Router};
use dancecard_engine::Heuristic;
use dancecard_format::Document;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::limit::RequestBodyLimitLayer;

use crate::AppState;

mod json;
pub(crate) mod limits;
mod parse;
mod queens;
pub(crate) mod reply;
pub(crate) mod search;
mod solve;
mod sudoku;
mod target;
mod tile;
mod trace;

/// The OpenAPI 3 description of the API, served at `GET /api/openapi.json`.
pub(crate) const OPENAPI: &str = include_str!("openapi.json");

/// One route of the API: its path, its method and its handler.
pub(crate) struct Endpoint {
    /// The path, as the router and the OpenAPI description write it.
    pub(crate) path: &'static str,
    /// The one method it answers.
    pub(crate) method: Method,
    handler: fn() -> MethodRouter<AppState>,
}

/// Every route of the API. The router is built from this list, `not_found` and the `405`
/// answers name its entries, and a test checks that the OpenAPI description documents exactly
/// these.
pub(crate) const ENDPOINTS: &[Endpoint] = &[
    Endpoint { path: "/api/parse", method: Method::POST, handler: || post(parse::handle) },
    Endpoint { path: "/api/solve", method: Method::POST, handler: || post(solve::handle) },
    Endpoint { path: "/api/trace", method: Method::POST, handler: || post(trace::handle) },
    Endpoint { path: "/api/sudoku", method: Method::POST, handler: || post(sudoku::handle) },
    Endpoint { path: "/api/queens", method: Method::GET, handler: || get(queens::handle) },
    Endpoint { path: "/api/queens/dlx", method: Method::GET, handler: || get(queens::dlx) },
    Endpoint { path: "/api/tile", method: Method::GET, handler: || get(tile::handle) },
    Endpoint { path: "/api/tile/dlx", method: Method::GET, handler: || get(tile::dlx) },
    Endpoint { path: "/api/target-sudoku", method: Method::POST, handler: || post(target::handle) },
    Endpoint { path: "/api/openapi.json", method: Method::GET, handler: || get(openapi) },
];

/// The API's routes, with the admission of each request (bounds on requests in flight,
/// memory, the body and its deadline), the JSON error shape and panic catching.
pub(crate) fn routes(state: &AppState) -> Router<AppState> {
    let config = &state.config;
    let mut router = Router::new();
    for endpoint in ENDPOINTS {
        router = router.route(endpoint.path, (endpoint.handler)());
    }
    router
        .route("/api/{*rest}", any(not_found))
        .route("/api", any(not_found))
        // Every request is admitted (or refused) before its handler runs, and holds what it
        // was given until its answer is sent.
        .layer(axum::middleware::from_fn_with_state(state.clone(), limits::admit))
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

/// `GET /api/openapi.json`.
async fn openapi() -> Response {
    let mut response = ([(header::CONTENT_TYPE, "application/json")], OPENAPI).into_response();
    let _ =
        response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// An error answer: a status and a message, sent as `{"error": message}`, with
/// `"bound": name` when a bound of the server refused the request.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    message: String,
    bound: Option<&'static str>,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError { status, message: message.into(), bound: None }
    }

    /// Names the bound (a [`ServerConfig`](crate::ServerConfig) field) that refused the
    /// request.
    pub(crate) fn bound(mut self, bound: &'static str) -> Self {
        self.bound = Some(bound);
        self
    }

    /// A `503 Service Unavailable` for a bound shared by all requests.
    pub(crate) fn busy(message: impl Into<String>, bound: &'static str) -> Self {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message).bound(bound)
    }

    /// A `413` for an answer that would pass [`ServerConfig::max_reply_bytes`](crate::ServerConfig).
    pub(crate) fn reply_too_large(what: &str, cap: usize) -> Self {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "{what} would pass the reply limit of {} (max_reply_bytes; `dancecard serve \
                 --max-reply`)",
                limits::human(cap)
            ),
        )
        .bound("max_reply_bytes")
    }

    /// A `400 Bad Request`.
    pub(crate) fn bad_request(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = match self.bound {
            Some(bound) => serde_json::json!({ "error": self.message, "bound": bound }),
            None => serde_json::json!({ "error": self.message }),
        };
        (self.status, Json(body)).into_response()
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
            ApiError::new(status, "the request body is too large").bound("max_body_bytes")
        } else {
            ApiError::new(status, rejection.body_text())
        }
    }
}

/// A request's query string, as `P`; a bad one is answered as an [`ApiError`].
pub(crate) struct ApiQuery<P>(pub(crate) P);

impl<P: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for ApiQuery<P> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Query(params) = Query::<P>::from_request_parts(parts, state).await?;
        Ok(ApiQuery(params))
    }
}

/// A request's body, whole; one that cannot be read (too large) is answered as an
/// [`ApiError`].
pub(crate) struct ApiBody(pub(crate) Bytes);

impl<S: Send + Sync> FromRequest<S> for ApiBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        Ok(ApiBody(Bytes::from_request(req, state).await?))
    }
}

/// A request's query string, as `P`, and its body: the body is read whole even when the query
/// is bad (the answer then names the query's fault, as it comes first).
pub(crate) struct ApiQueryBody<P>(pub(crate) P, pub(crate) Bytes);

impl<P: DeserializeOwned + Send, S: Send + Sync> FromRequest<S> for ApiQueryBody<P> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let (mut parts, body) = req.into_parts();
        let params = Query::<P>::from_request_parts(&mut parts, state).await;
        let bytes = Bytes::from_request(Request::from_parts(parts, body), state).await;
        let Query(params) = params?;
        Ok(ApiQueryBody(params, bytes?))
    }
}

/// The item-choice heuristic, as a query value: `mrv` (Knuth's "S"), `leftmost` or `ssxcc`
/// (Knuth's SSXCC tree, for counts; the trace refuses it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum HeuristicParam {
    #[default]
    Mrv,
    Leftmost,
    Ssxcc,
}

impl From<HeuristicParam> for Heuristic {
    fn from(h: HeuristicParam) -> Heuristic {
        match h {
            HeuristicParam::Mrv => Heuristic::Mrv,
            HeuristicParam::Leftmost => Heuristic::Leftmost,
            HeuristicParam::Ssxcc => Heuristic::Ssxcc,
        }
    }
}

/// Memory a parsed problem may take, per byte of its text: the [`Document`] (problem, labels,
/// input indices) and a [`Solver`](dancecard_engine::Solver)'s arena over it. Measured on the
/// worst shape, one-item options (`a\n` lines: 524,287 options in 1 MiB), at about 56 bytes
/// a byte in the server's resident memory; rounded up.
pub(crate) const PROBLEM_BYTES_PER_BYTE: usize = 64;

/// Parses a request body as `dancecard solve` does: DLX, a 0/1 matrix or `.ec`, detected.
pub(crate) fn parse_problem(body: &Bytes) -> Result<Document, ApiError> {
    dancecard_format::parse_auto(body)
        .map(|(doc, _)| doc)
        .map_err(|e| ApiError::bad_request(e.to_string()))
}

/// `/api/...` paths that name no endpoint.
async fn not_found() -> ApiError {
    let list: Vec<String> = ENDPOINTS.iter().map(|e| format!("{} {}", e.method, e.path)).collect();
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("no such endpoint: the API has {}", list.join(", ")),
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

/// Rewrites an error answer that is not JSON (from a layer or the router: 413, 405, 404)
/// into `{"error": "..."}`, keeping its status; a 405 names the method to use (and says it
/// in an `Allow` header).
async fn json_errors(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let method = ENDPOINTS.iter().find(|e| e.path == path).map_or("POST", |e| {
        if e.method == Method::GET {
            "GET"
        } else {
            "POST"
        }
    });
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let mut bound = None;
    let message = match status {
        StatusCode::PAYLOAD_TOO_LARGE => {
            bound = Some("max_body_bytes");
            "the request body is too large".to_owned()
        }
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
    let mut error = ApiError::new(status, message);
    error.bound = bound;
    let mut json = error.into_response();
    if let Some(allow) = allow {
        let _ = json.headers_mut().insert(header::ALLOW, allow);
    }
    json
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// The (method, path) pairs that the OpenAPI description documents.
    fn documented() -> BTreeSet<(String, String)> {
        let doc: serde_json::Value = serde_json::from_str(OPENAPI).expect("openapi.json parses");
        assert!(doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.")), "OpenAPI 3");
        let mut pairs = BTreeSet::new();
        for (path, item) in doc["paths"].as_object().expect("paths") {
            for method in item.as_object().expect("a path item").keys() {
                let _ = pairs.insert((method.to_ascii_uppercase(), path.clone()));
            }
        }
        pairs
    }

    #[test]
    fn the_openapi_description_documents_every_route_and_nothing_else() {
        let routes: BTreeSet<(String, String)> =
            ENDPOINTS.iter().map(|e| (e.method.to_string(), e.path.to_owned())).collect();
        assert_eq!(routes.len(), ENDPOINTS.len(), "a route is listed twice");
        assert_eq!(documented(), routes);
    }

    #[test]
    fn every_operation_documents_its_errors_and_every_reference_resolves() {
        let doc: serde_json::Value = serde_json::from_str(OPENAPI).unwrap();
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, op) in item.as_object().unwrap() {
                let responses = op["responses"].as_object().unwrap();
                for status in ["200", "400", "408", "413", "503"] {
                    assert!(responses.contains_key(status), "{method} {path}: no {status}");
                }
                assert!(!responses.contains_key("500"), "{method} {path}: a 500 is a bug");
            }
        }
        // Every `$ref` names a schema of the components.
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        let mut stack = vec![&doc];
        while let Some(value) = stack.pop() {
            match value {
                serde_json::Value::Object(map) => {
                    if let Some(target) = map.get("$ref").and_then(|r| r.as_str()) {
                        let name = target.trim_start_matches("#/components/schemas/");
                        assert!(schemas.contains_key(name), "dangling reference {target}");
                    }
                    stack.extend(map.values());
                }
                serde_json::Value::Array(items) => stack.extend(items),
                _ => {}
            }
        }
    }
}
