//! The budget of a search: a slot among [`ServerConfig::max_searches`](crate::ServerConfig),
//! a blocking thread, and the time and node limits.
//!
//! A search never runs on the async workers (a long one would stall every other request): it
//! runs on tokio's blocking pool, holding its slot until it ends. If the client goes away, the
//! handler's future is dropped, and with it a guard that raises the search's cancel flag, so
//! the slot comes back within [`Config::CHECK_INTERVAL`] nodes instead of at the budget.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use axum::http::StatusCode;
use dancecard_engine::Config;

use super::ApiError;
use crate::AppState;

/// Raises the cancel flag when dropped (the request finished, or was abandoned).
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Runs `job` on a blocking thread once a search slot is free, handing it an engine
/// [`Config`] that carries the server's time and node budget and a cancel flag (the job sets
/// the heuristic and its own limits).
///
/// Answers `503` if no slot frees up within the configured wait, `500` if the job panicked.
pub(crate) async fn run<T, F>(state: &AppState, job: F) -> Result<T, ApiError>
where
    F: FnOnce(Config) -> Result<T, ApiError> + Send + 'static,
    T: Send + 'static,
{
    let wait = state.config.queue_wait;
    let permit = match tokio::time::timeout(wait, state.searches.clone().acquire_owned()).await {
        Ok(Ok(permit)) => permit,
        // The semaphore is never closed; treat it like a full one all the same.
        Ok(Err(_)) | Err(_) => {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the server is busy: {} searches are running; try again shortly",
                    state.config.max_searches
                ),
            ))
        }
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let _guard = CancelOnDrop(cancel.clone());
    let config = Config {
        max_nodes: Some(state.config.max_nodes),
        time_limit: Some(state.config.time_limit),
        cancel: Some(cancel),
        ..Config::default()
    };
    let task = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        job(config)
    });
    match task.await {
        Ok(result) => result,
        Err(_) => Err(ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the search failed")),
    }
}
