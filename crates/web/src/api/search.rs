//! The budget of a search: its memory, a slot among
//! [`ServerConfig::max_searches`](crate::ServerConfig), a blocking thread, the time and node
//! limits, and the cap on its answer.
//!
//! Before it starts, a search reserves from the server's memory budget what it may take
//! ([`Need`]: its work, estimated from above by its endpoint, and its answer, whose cap it
//! is given), then waits for a slot; both within
//! [`ServerConfig::queue_wait`](crate::ServerConfig), or `503`. When it ends, the reservation
//! shrinks to the answer's bytes, which keep it until they are sent.
//!
//! A search never runs on the async workers (a long one would stall every other request): it
//! runs on tokio's blocking pool, holding its slot until it ends. If the client goes away, the
//! handler's future is dropped, and with it a guard that raises the search's cancel flag, so
//! the slot comes back within [`Config::CHECK_INTERVAL`] nodes instead of at the budget.
//!
//! The engine and the target sudoku take the time limit of their [`Budget`]. The model counts
//! and the sudoku solvers run under [`run_timed`] instead, whose timer raises their cancel flag
//! when the time is up (a time limit in a count's budget would turn the tilings' `auto` away
//! from the profile DP); [`Allowance::cancel_reason`] tells that apart from a client that left.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use axum::response::Response;
use dancecard_engine::{Budget, Config, Stop};
use tokio::time::Instant;

use super::reply::{Finished, Reply};
use super::{limits, ApiError};
use crate::AppState;

/// What a search may take: memory for its work, and the cap of its answer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Need {
    /// Bytes of memory its work may take, at most (parsing, models, the search, lists kept
    /// before they are written).
    pub(crate) work: usize,
    /// Bytes of its answer, at most.
    pub(crate) reply: usize,
}

/// The cap of an answer of a fixed shape (counts, one grid of at most 25x25, stats): far
/// more than any needs.
pub(crate) const SMALL_REPLY: usize = 16 * 1024;

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
pub(crate) struct Allowance {
    /// Node budget ([`ServerConfig::max_nodes`](crate::ServerConfig)).
    pub(crate) max_nodes: u64,
    /// Time budget of this job.
    pub(crate) time_limit: Duration,
    /// Raised when the client goes away and, under [`run_timed`], when the time is up.
    pub(crate) cancel: Arc<AtomicBool>,
    /// Raised by the timer of [`run_timed`] when the time is up.
    expired: Arc<AtomicBool>,
    /// The cap of the answer.
    pub(crate) reply_cap: usize,
}

impl Allowance {
    /// An empty JSON answer, capped as the search's [`Need`] said.
    pub(crate) fn reply(&self) -> Reply {
        Reply::json(self.reply_cap)
    }

    /// `value` as the whole answer (a small one, of a fixed shape), or `413` naming
    /// `max_reply_bytes` if it passes the cap.
    pub(crate) fn answer<T: serde::Serialize + ?Sized>(
        &self,
        value: &T,
    ) -> Result<Finished, ApiError> {
        Reply::whole(self.reply_cap, value)
            .map_err(|_| ApiError::reply_too_large("the answer", self.reply_cap))
    }

    /// The limits of a job under this allowance: its node and time budget and its cancel
    /// flag (the job adds its own solution limit).
    pub(crate) fn budget(&self) -> Budget {
        Budget::new()
            .max_nodes(self.max_nodes)
            .time_limit(self.time_limit)
            .cancel(self.cancel.clone())
    }

    /// An engine configuration with this allowance's [`budget`](Allowance::budget) (the job
    /// sets the heuristic and its own solution limit).
    pub(crate) fn config(&self) -> Config {
        Config::with_budget(self.budget())
    }

    /// The limits of a model's count (or sudoku solve) under this allowance, stopping after
    /// `limit` solutions: its nodes and its cancel flag. Its time goes by the timer of
    /// [`run_timed`], which raises the flag: a time limit would turn the tilings' `auto` away
    /// from the profile DP, which has no partial count.
    pub(crate) fn count_budget(&self, limit: Option<u64>) -> Budget {
        Budget {
            max_solutions: limit.map(u128::from),
            ..Budget::new().max_nodes(self.max_nodes).cancel(self.cancel.clone())
        }
    }

    /// A model count's request under this allowance ([`count_budget`](Self::count_budget)),
    /// on the job's one thread.
    pub(crate) fn count_request(
        &self,
        limit: Option<u64>,
    ) -> dancecard_models::count::CountRequest<'static> {
        dancecard_models::count::CountRequest {
            budget: self.count_budget(limit),
            threads: 1,
            ..Default::default()
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
            Stop::TimeLimit.name()
        } else {
            Stop::Cancelled.name()
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

/// A search's work: run once on a blocking thread with its [`Allowance`], it gives the answer.
pub(crate) trait Job:
    FnOnce(Allowance) -> Result<Finished, ApiError> + Send + 'static
{
}

impl<F> Job for F where F: FnOnce(Allowance) -> Result<Finished, ApiError> + Send + 'static {}

/// Runs `job` on a blocking thread once its memory is reserved and a search slot is free,
/// handing it a [`Allowance`] that carries the server's time and node budget, a cancel flag and
/// the cap of its answer (the job sets the heuristic and its own limits).
///
/// Answers `503` if the memory or a slot does not free up within the configured wait, `413`
/// if the need is more than the whole memory budget, `500` if the job panicked.
pub(crate) async fn run(state: &AppState, need: Need, job: impl Job) -> Result<Response, ApiError> {
    run_budget(state, need, state.config.time_limit, false, job).await
}

/// Answers a model's text in Knuth's DLX format (`text/plain`), written by `model` in a
/// search slot as [`run`] gives one; `413` when it would not fit in a reply.
pub(crate) async fn dlx<F>(state: &AppState, need: Need, model: F) -> Result<Response, ApiError>
where
    F: FnOnce() -> Result<String, ApiError> + Send + 'static,
{
    run(state, need, move |budget| {
        let text = model()?;
        Reply::text(budget.reply_cap, &text)
            .map(Reply::finish)
            .map_err(|_| ApiError::reply_too_large("the model's DLX text", budget.reply_cap))
    })
    .await
}

/// Like [`run`], for solvers that stop on a cancel flag but have no time limit of their own:
/// a timer raises the flag after `time_limit` (and [`Allowance::cancel_reason`] then says
/// `time-limit`).
pub(crate) async fn run_timed(
    state: &AppState,
    need: Need,
    time_limit: Duration,
    job: impl Job,
) -> Result<Response, ApiError> {
    run_budget(state, need, time_limit, true, job).await
}

async fn run_budget(
    state: &AppState,
    need: Need,
    time_limit: Duration,
    timer: bool,
    job: impl Job,
) -> Result<Response, ApiError> {
    let deadline = Instant::now() + state.config.queue_wait;
    let memory = limits::reserve(state, need.work.saturating_add(need.reply), deadline).await?;
    let permit =
        match tokio::time::timeout_at(deadline, state.searches.clone().acquire_owned()).await {
            Ok(Ok(permit)) => permit,
            // The semaphore is never closed; treat it like a full one all the same.
            Ok(Err(_)) | Err(_) => {
                return Err(ApiError::busy(
                    format!(
                        "the server is busy: {} searches are running (max_searches); try again \
                     shortly",
                        state.config.max_searches
                    ),
                    "max_searches",
                ))
            }
        };
    let budget = Allowance {
        max_nodes: state.config.max_nodes,
        time_limit,
        cancel: Arc::new(AtomicBool::new(false)),
        expired: Arc::new(AtomicBool::new(false)),
        reply_cap: need.reply,
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
    // The server shutting down cancels the search (a server without a shutdown signal drops
    // its sender: nothing to wait for then).
    let mut shutdown = state.shutdown.clone();
    let cancel = budget.cancel.clone();
    let _on_shutdown = AbortOnDrop(tokio::spawn(async move {
        if shutdown.wait_for(|&down| down).await.is_ok() {
            cancel.store(true, Ordering::Relaxed);
        }
    }));
    let task = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let result = job(budget);
        if need.work >= limits::TRIM_AFTER_BYTES {
            // The job's work is dropped: give its pages back (see the function).
            limits::release_free_memory();
        }
        result
    });
    match task.await {
        Ok(Ok(finished)) => {
            // The work's memory is free again; the answer keeps its own until it is sent.
            let kept = memory.keep(finished.held());
            Ok(finished.into_response(Some(kept)))
        }
        Ok(Err(e)) => Err(e),
        Err(_) => Err(ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the search failed")),
    }
}
