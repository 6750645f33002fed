//! Long searches that Ctrl-C can stop.
//!
//! A search runs with the GIL released, so other Python threads go on meanwhile. But Python
//! runs signal handlers only on the main thread, and only when that thread calls
//! `PyErr_CheckSignals`: a search that kept the calling thread busy would make Ctrl-C wait
//! for its end. So the search runs on a helper thread, and the calling thread sleeps in steps
//! of [`POLL`], checking for signals between steps. When a handler raises (Ctrl-C raises
//! `KeyboardInterrupt`), the calling thread raises the search's cancel flag, which the engine
//! looks at every [`Config::CHECK_INTERVAL`](dancecard_engine::Config::CHECK_INTERVAL) nodes
//! (well under a millisecond), waits for the helper to stop, and returns the exception.
//!
//! Off the main thread no handler can run, so there is nothing to poll for: the search then
//! runs on the calling thread with the GIL released once. (Polling there would also take
//! the GIL back every [`POLL`]; a daemon thread that does so while the interpreter shuts
//! down is ended by CPython in a way that unwinds through Rust frames, and the process
//! aborts.)

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use dancecard_engine::{Budget, Config, Problem, Solver};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How long the calling thread sleeps between two looks at pending signals: Ctrl-C stops a
/// search within about this much time.
pub(crate) const POLL: Duration = Duration::from_millis(50);

/// Whether the calling thread is Python's main thread (the only one that runs signal
/// handlers). If that cannot be told, assume it is (and poll).
pub(crate) fn on_main_thread(py: Python<'_>) -> bool {
    let check = || -> PyResult<bool> {
        let threading = py.import("threading")?;
        let current = threading.call_method0("current_thread")?;
        Ok(current.is(&threading.call_method0("main_thread")?))
    };
    check().unwrap_or(true)
}

/// The message of a caught panic.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned())
}

/// Runs `work` on the calling thread with the GIL released once (off the main thread, where
/// no signal handler runs); a panic becomes a `RuntimeError`.
fn run_released<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    F: FnOnce() -> T + Send,
    T: Send,
{
    py.allow_threads(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))).map_err(
        |panic| PyRuntimeError::new_err(format!("the search failed: {}", panic_message(&*panic))),
    )
}

/// A search of a problem that Ctrl-C can stop: its configuration holds `cancel`, the flag
/// that [`run_interruptible`] raises when a signal handler raises.
#[derive(Debug)]
pub(crate) struct Interruptible<'a> {
    /// The problem searched.
    pub(crate) problem: &'a Problem,
    /// The search's configuration, whose cancel flag is `cancel`.
    pub(crate) config: Config,
    /// The cancel flag.
    pub(crate) cancel: Arc<AtomicBool>,
}

impl<'a> Interruptible<'a> {
    /// A search of `problem` under `config`, given a fresh cancel flag.
    pub(crate) fn new(problem: &'a Problem, config: Config) -> Self {
        let cancel = Arc::new(AtomicBool::new(false));
        let config = Config {
            budget: Budget { cancel: Some(cancel.clone()), ..config.budget.clone() },
            ..config
        };
        Interruptible { problem, config, cancel }
    }

    /// Runs `work` on a solver of the problem under the configuration, with the GIL
    /// released ([`run_interruptible`]).
    pub(crate) fn solve<T, F>(self, py: Python<'_>, work: F) -> PyResult<T>
    where
        F: FnOnce(Solver) -> T + Send,
        T: Send,
    {
        let Interruptible { problem, config, cancel } = self;
        run_interruptible(py, &cancel, || work(Solver::with_config(problem, config)))
    }
}

/// Runs `work` on a helper thread with the GIL released, checking for signals every [`POLL`];
/// if a signal handler raises, sets `cancel` (which `work` must watch), waits for `work` to
/// return and returns the handler's exception instead of its result.
///
/// Costs a thread start (some tens of microseconds): callers with work known to be short run
/// it directly under `allow_threads` instead.
pub(crate) fn run_interruptible<T, F>(
    py: Python<'_>,
    cancel: &Arc<AtomicBool>,
    work: F,
) -> PyResult<T>
where
    F: FnOnce() -> T + Send,
    T: Send,
{
    if !on_main_thread(py) {
        return run_released(py, work);
    }
    let done = AtomicBool::new(false);
    let caller = thread::current();
    thread::scope(|scope| {
        let helper = thread::Builder::new()
            .name("dancecard-search".into())
            .spawn_scoped(scope, || {
                let out = work();
                done.store(true, Ordering::Release);
                caller.unpark();
                out
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a search thread: {e}")))?;
        let mut interrupted = None;
        // `is_finished` also covers a helper that panicked (and so never set `done`).
        while !done.load(Ordering::Acquire) && !helper.is_finished() {
            py.allow_threads(|| thread::park_timeout(POLL));
            if let Err(e) = py.check_signals() {
                cancel.store(true, Ordering::Relaxed);
                interrupted = Some(e);
                break;
            }
        }
        let joined = py.allow_threads(|| helper.join());
        if let Some(e) = interrupted {
            return Err(e);
        }
        joined.map_err(|panic| {
            PyRuntimeError::new_err(format!("the search failed: {}", panic_message(&*panic)))
        })
    })
}

/// The most threads a search takes: far more than the cores of one machine, and few enough
/// that starting them is quick.
pub(crate) const MAX_THREADS: usize = 1024;

/// Reads argument `threads` (an int, see [`crate::args`]): 0 means one per core; more than
/// [`MAX_THREADS`] is a `ValueError`.
pub(crate) fn read_threads(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    let expected = format!("an int from 0 (one per core) to {MAX_THREADS}");
    let range = (0, MAX_THREADS as u128);
    match crate::args::int_in(obj, "threads", &crate::args::WHOLE, range, &expected)? {
        0 => Ok(thread::available_parallelism().map_or(1, |n| n.get())),
        t => Ok(usize::try_from(t).unwrap_or(MAX_THREADS)),
    }
}

/// Reads argument `time_limit`: `None` (no limit) for `None`, infinity or a limit too far to
/// represent; a `ValueError` for a negative number or NaN (see [`crate::args`]).
pub(crate) fn read_time_limit(obj: &Bound<'_, PyAny>) -> PyResult<Option<Duration>> {
    crate::args::optional_seconds(obj, "time_limit")
}

/// How long [`run_detached`] waits, after raising the cancel flag, for the helper to stop.
const GRACE: Duration = Duration::from_millis(200);

/// Like [`run_interruptible`], for work that may not look at its cancel flag often (or at
/// all): the helper thread owns its data, and on a signal the caller waits at most [`GRACE`]
/// for it to stop, then returns the exception and leaves the helper to finish on its own.
pub(crate) fn run_detached<T, F>(py: Python<'_>, cancel: &Arc<AtomicBool>, work: F) -> PyResult<T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    if !on_main_thread(py) {
        return run_released(py, work);
    }
    let (tx, mut rx) = mpsc::channel();
    let _detached = thread::Builder::new()
        .name("dancecard-search".into())
        .spawn(move || {
            let _ = tx.send(work());
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a search thread: {e}")))?;
    let mut interrupted: Option<PyErr> = None;
    loop {
        let wait = if interrupted.is_some() { GRACE } else { POLL };
        let (back, reply) = py.allow_threads(move || {
            let reply = rx.recv_timeout(wait);
            (rx, reply)
        });
        rx = back;
        match (reply, interrupted.take()) {
            (_, Some(e)) => return Err(e),
            (Ok(out), None) => return Ok(out),
            (Err(RecvTimeoutError::Disconnected), None) => {
                return Err(PyRuntimeError::new_err("the search failed (its thread panicked)"))
            }
            (Err(RecvTimeoutError::Timeout), None) => {}
        }
        if let Err(e) = py.check_signals() {
            cancel.store(true, Ordering::Relaxed);
            interrupted = Some(e);
        }
    }
}
