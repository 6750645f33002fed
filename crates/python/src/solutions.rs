//! The lazy iterator of solutions (`SolutionIterator`), the search thread behind it, and how
//! the caller numbers and names the options of a solution ([`OptionMap`], [`numbers`]).

use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;

use dancecard_engine::{Config, OptionId, Problem, Solver, Stats, Stop};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::interrupt::{on_main_thread, POLL};
use crate::labels::Labels;
use crate::stats::{record, LastStats, PyStats};

/// How the caller numbers and names the options of an engine problem (and its items): what
/// a problem and its ZDD need to answer in the caller's terms.
#[derive(Clone, Debug)]
pub(crate) struct OptionMap {
    /// For each option of the engine's problem, its number among the options given.
    pub(crate) index: Arc<Vec<usize>>,
    /// The caller's objects behind the names of items, colors and options (`None`: the
    /// items are their names and the options are numbered).
    pub(crate) labels: Option<Arc<Labels>>,
}

/// The given numbers of a solution's options, in increasing order.
pub(crate) fn numbers(index: &[usize], options: &[OptionId]) -> Vec<usize> {
    let mut out: Vec<usize> = options.iter().map(|o| index[o.index()]).collect();
    out.sort_unstable();
    out
}

/// Solutions sent by the search thread of a [`PySolutions`], on request.
#[derive(Debug)]
struct Batch {
    solutions: Vec<Vec<usize>>,
    /// The engine's counters so far (none for the models' own solvers).
    stats: Option<Stats>,
    /// Set on the last batch: why the search ended.
    stop: Option<Stop>,
}

/// The largest batch of solutions asked of the search thread at once. Batches start at one
/// solution and double while the caller keeps iterating, so taking a few solutions computes
/// no more than those, and a long iteration pays the thread round trip (some microseconds)
/// once per this many solutions.
const MAX_BATCH: usize = 1024;

/// Gives a solution to the consumer; `Break` asks the producer to stop (the iterator was
/// dropped, closed or interrupted).
pub(crate) type Emit<'a> = dyn FnMut(Vec<usize>) -> ControlFlow<()> + 'a;

/// The lazy iterator of Problem.solutions() (and of Zdd.solutions(), Tiling.solutions()
/// and queens.solutions()).
///
/// Each next() resumes the search where it paused: taking a few solutions computes no
/// more than those. The search runs with the GIL released, and Ctrl-C stops it
/// (KeyboardInterrupt; the stats then say "cancelled"). stats holds the counters so far,
/// close() ends the search.
///
/// Example:
///     >>> import dancecard
///     >>> it = dancecard.queens.problem(8).solutions(limit=2)
///     >>> next(it)
///     [3, 14, 20, 26, 32, 45, 55, 57]
///     >>> it.stats.solutions, it.stats.stop
///     (1, 'paused')
///     >>> it.close()
///     >>> list(it)
///     []
//
// It owns a search thread, which searches only when asked for a batch: either an engine
// [`Solver`] paused at its last solution (resumed by each request), or a model's solver
// whose callback blocks until the next request. The calling thread waits for a batch with
// the GIL released, looking at signals every [`POLL`] as [`run_interruptible`] does.
#[pyclass(module = "dancecard", name = "SolutionIterator")]
#[derive(Debug)]
pub(crate) struct PySolutions {
    requests: Option<mpsc::Sender<usize>>,
    /// In a mutex only because a pyclass must be `Sync`; used by one thread at a time.
    replies: Option<Mutex<mpsc::Receiver<Batch>>>,
    buffer: VecDeque<Vec<usize>>,
    /// The size of the next batch to ask for.
    batch: usize,
    /// No more batches will come.
    finished: bool,
    cancel: Arc<AtomicBool>,
    stats: Option<PyStats>,
    last: Option<LastStats>,
    /// Turns each solution into what the iterator yields (a model's answer).
    map: Option<Py<PyAny>>,
    /// The names of the options, when the problem's options were given as a dict.
    labels: Option<Arc<Labels>>,
}

impl PySolutions {
    fn idle(last: Option<LastStats>, map: Option<Py<PyAny>>) -> Self {
        PySolutions {
            requests: None,
            replies: None,
            buffer: VecDeque::new(),
            batch: 1,
            finished: true,
            cancel: Arc::new(AtomicBool::new(false)),
            stats: None,
            last,
            map,
            labels: None,
        }
    }

    /// The same iterator, its solutions listing the options by the names in `labels`.
    pub(crate) fn labelled(mut self, labels: Option<Arc<Labels>>) -> Self {
        self.labels = labels;
        self
    }

    /// Starts the search thread running `work` with the ends of the two channels.
    fn spawn<W>(mut self, work: W) -> PyResult<Self>
    where
        W: FnOnce(mpsc::Receiver<usize>, mpsc::Sender<Batch>) + Send + 'static,
    {
        let (request_tx, request_rx) = mpsc::channel::<usize>();
        let (reply_tx, reply_rx) = mpsc::channel::<Batch>();
        let _detached = thread::Builder::new()
            .name("dancecard-solutions".into())
            .spawn(move || work(request_rx, reply_tx))
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a search thread: {e}")))?;
        self.requests = Some(request_tx);
        self.replies = Some(Mutex::new(reply_rx));
        self.finished = false;
        Ok(self)
    }

    /// An iterator over the solutions of an engine problem, options numbered by `index`.
    pub(crate) fn engine(
        problem: Arc<Problem>,
        index: Arc<Vec<usize>>,
        mut config: Config,
        last: Option<LastStats>,
        map: Option<Py<PyAny>>,
    ) -> PyResult<Self> {
        let it = PySolutions::idle(last, map);
        if config.budget.max_solutions == Some(0) {
            return Ok(it);
        }
        config.budget.cancel = Some(it.cancel.clone());
        it.spawn(move |requests, replies| {
            let mut solver = Solver::with_config(&problem, config);
            let mut solutions = solver.solutions();
            // Ends when the iterator is dropped (its sender with it).
            for want in requests {
                let mut batch = Batch { solutions: Vec::new(), stats: None, stop: None };
                while batch.solutions.len() < want {
                    match solutions.next() {
                        Some(s) => batch.solutions.push(numbers(&index, &s)),
                        None => {
                            batch.stop = Some(solutions.outcome().unwrap_or(Stop::Exhausted));
                            break;
                        }
                    }
                }
                batch.stats = Some(*solutions.stats());
                let last = batch.stop.is_some();
                if replies.send(batch).is_err() || last {
                    break;
                }
            }
        })
    }

    /// An iterator over what `produce` emits: it runs on the search thread from the first
    /// request on, and each emit blocks once a batch is full, until the next request.
    /// `produce` should stop when an emit returns `Break`.
    pub(crate) fn producer<P>(map: Option<Py<PyAny>>, produce: P) -> PyResult<Self>
    where
        P: FnOnce(&mut Emit<'_>) + Send + 'static,
    {
        let it = PySolutions::idle(None, map);
        let cancel = it.cancel.clone();
        it.spawn(move |requests, replies| {
            let Ok(mut want) = requests.recv() else { return };
            let mut solutions = Vec::new();
            let mut gone = false;
            let mut emit = |s: Vec<usize>| {
                solutions.push(s);
                if solutions.len() < want {
                    return ControlFlow::Continue(());
                }
                let batch =
                    Batch { solutions: std::mem::take(&mut solutions), stats: None, stop: None };
                if replies.send(batch).is_err() {
                    gone = true;
                    return ControlFlow::Break(());
                }
                match requests.recv() {
                    Ok(w) if !cancel.load(Ordering::Relaxed) => {
                        want = w;
                        ControlFlow::Continue(())
                    }
                    _ => {
                        gone = true;
                        ControlFlow::Break(())
                    }
                }
            };
            produce(&mut emit);
            if !gone {
                let stop = Some(Stop::Exhausted);
                let _ = replies.send(Batch { solutions, stats: None, stop });
            }
        })
    }

    /// Stops the search thread (it ends at its next look at the cancel flag) and forgets it.
    fn stop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        self.finished = true;
        self.requests = None;
        self.replies = None;
    }

    /// Stops the search after a signal handler raised: the stats say it was cancelled (the
    /// solutions already fetched can still be taken).
    fn interrupt(&mut self) {
        self.stop();
        let mut stats =
            self.stats.take().unwrap_or_else(|| PyStats::new(&Stats::default(), 0.0, None));
        stats.stop = Some(Stop::Cancelled);
        if let Some(last) = &self.last {
            record(last, stats.clone());
        }
        self.stats = Some(stats);
    }

    /// Asks the search thread for the next batch and waits for it.
    fn fetch(&mut self, py: Python<'_>) -> PyResult<()> {
        let replies =
            self.replies.take().map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()));
        let (Some(requests), Some(mut replies)) = (self.requests.as_ref(), replies) else {
            self.finished = true;
            return Ok(());
        };
        if requests.send(self.batch).is_err() {
            self.stop();
            return Err(PyRuntimeError::new_err("the search thread ended unexpectedly"));
        }
        self.batch = (self.batch * 2).min(MAX_BATCH);
        // Off the main thread no signal handler runs: wait with the GIL released once (see
        // the `interrupt` module).
        let main = on_main_thread(py);
        let batch = loop {
            if !main {
                let (back, reply) = py.allow_threads(move || {
                    let reply = replies.recv();
                    (replies, reply)
                });
                replies = back;
                match reply {
                    Ok(batch) => break batch,
                    Err(_) => {
                        self.stop();
                        return Err(PyRuntimeError::new_err(
                            "the search thread ended unexpectedly",
                        ));
                    }
                }
            }
            let (back, reply) = py.allow_threads(move || {
                let reply = replies.recv_timeout(POLL);
                (replies, reply)
            });
            replies = back;
            match reply {
                Ok(batch) => break batch,
                Err(RecvTimeoutError::Disconnected) => {
                    self.stop();
                    return Err(PyRuntimeError::new_err("the search thread ended unexpectedly"));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            if let Err(e) = py.check_signals() {
                self.interrupt();
                return Err(e);
            }
        };
        self.replies = Some(Mutex::new(replies));
        if let Some(stats) = batch.stats {
            // Seconds spent searching, not waiting for the caller.
            let stats = PyStats::new(&stats, stats.elapsed.as_secs_f64(), batch.stop);
            if let Some(last) = &self.last {
                record(last, stats.clone());
            }
            self.stats = Some(stats);
        }
        self.buffer.extend(batch.solutions);
        if batch.stop.is_some() {
            self.finished = true;
            self.requests = None;
            self.replies = None;
        }
        Ok(())
    }
}

impl Drop for PySolutions {
    fn drop(&mut self) {
        self.stop();
    }
}

#[pymethods]
impl PySolutions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        // A consumer written in C (`list(it)`, `sum(...)`) runs no bytecode between two
        // solutions, so Python would not look at pending signals: look here (a flag test).
        if let Err(e) = py.check_signals() {
            self.interrupt();
            return Err(e);
        }
        if self.buffer.is_empty() && !self.finished {
            self.fetch(py)?;
        }
        let Some(solution) = self.buffer.pop_front() else { return Ok(None) };
        let solution = Labels::options(self.labels.as_deref(), py, &solution)?;
        match &self.map {
            Some(map) => map.call1(py, (solution,)).map(Some),
            None => Ok(Some(solution)),
        }
    }

    /// The counters of the search so far (`None` before the first solution is asked for).
    #[getter]
    fn stats(&self) -> Option<PyStats> {
        self.stats.clone()
    }

    /// Stops the search; the iterator then ends.
    fn close(&mut self) {
        self.stop();
        self.buffer.clear();
    }
}
