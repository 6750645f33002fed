//! The budget of a search: a slot among [`ServerConfig::max_searches`](crate::ServerConfig),
//! a blocking thread, and the time and node limits.
//!
//! A search never runs on the async workers (a long one would stall every other request): it
//! runs on tokio's blocking pool, holding its slot until it ends. If the client goes away, the
//! handler's future is dropped, and with it a guard that raises the search's cancel flag, so
//! the slot comes back within [`Config::CHECK_INTERVAL`] nodes instead of at the budget.
//!
//! The engine enforces its own time limit. The puzzle solvers of `dancecard-models` take a
//! cancel flag but no time limit: [`run_timed`] arms a timer that raises their flag when the
//! time is up, and [`Budget::cancel_reason`] tells that apart from a client that left.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use dancecard_engine::{Config, Stop};

use super::ApiError;
use crate::AppState;

/// Raises the cancel flag when dropped (the request finished, or was abandoned).
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Stops a timer task when dropped.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// What a job may spend, and the flags that stop it.
#[derive(Clone, Debug)]
pub(crate) struct Budget {
    /// Node budget ([`ServerConfig::max_nodes`](crate::ServerConfig)).
    pub(crate) max_nodes: u64,
    /// Time budget of this job.
    pub(crate) time_limit: Duration,
    /// Raised when the client goes away and, under [`run_timed`], when the time is up.
    pub(crate) cancel: Arc<AtomicBool>,
    /// Raised by the timer of [`run_timed`] when the time is up.
    expired: Arc<AtomicBool>,
}

impl Budget {
    /// An engine configuration with this budget (the job sets the heuristic and its own
    /// solution limit).
    pub(crate) fn config(&self) -> Config {
        Config {
            max_nodes: Some(self.max_nodes),
            time_limit: Some(self.time_limit),
            cancel: Some(self.cancel.clone()),
            ..Config::default()
        }
    }

    /// Whether the job should stop: the time is up or the client left.
    pub(crate) fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// Why the cancel flag was raised: `time-limit` (the timer of [`run_timed`]) or
    /// `cancelled` (the client left).
    pub(crate) fn cancel_reason(&self) -> &'static str {
        if self.expired.load(Ordering::Relaxed) {
            "time-limit"
        } else {
            "cancelled"
        }
    }

    /// The name of an engine stop under this budget: a cancel raised by the timer is the
    /// time limit.
    pub(crate) fn stop_name(&self, stop: Stop) -> &'static str {
        match stop {
            Stop::Cancelled => self.cancel_reason(),
            other => super::json::stop_name(other),
        }
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
    run_budget(state, state.config.time_limit, false, move |budget| job(budget.config())).await
}

/// Like [`run`], for solvers that stop on a cancel flag but have no time limit of their own:
/// a timer raises the flag after `time_limit` (and [`Budget::cancel_reason`] then says
/// `time-limit`).
pub(crate) async fn run_timed<T, F>(
    state: &AppState,
    time_limit: Duration,
    job: F,
) -> Result<T, ApiError>
where
    F: FnOnce(Budget) -> Result<T, ApiError> + Send + 'static,
    T: Send + 'static,
{
    run_budget(state, time_limit, true, job).await
}

async fn run_budget<T, F>(
    state: &AppState,
    time_limit: Duration,
    timer: bool,
    job: F,
) -> Result<T, ApiError>
where
    F: FnOnce(Budget) -> Result<T, ApiError> + Send + 'static,
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
    let budget = Budget {
        max_nodes: state.config.max_nodes,
        time_limit,
        cancel: Arc::new(AtomicBool::new(false)),
        expired: Arc::new(AtomicBool::new(false)),
    };
    let _guard = CancelOnDrop(budget.cancel.clone());
    let _timer = timer.then(|| {
        let (cancel, expired) = (budget.cancel.clone(), budget.expired.clone());
        AbortOnDrop(tokio::spawn(async move {
            tokio::time::sleep(time_limit).await;
            expired.store(true, Ordering::Relaxed);
            cancel.store(true, Ordering::Relaxed);
        }))
    });
    let task = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        job(budget)
    });
    match task.await {
        Ok(result) => result,
        Err(_) => Err(ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the search failed")),
    }
}
