//! One way into the engine's counts: a [`CountRequest`] (the method, the threads, the memo's
//! budget, the limits) and [`count`], which checks the request against the capability table
//! ([`gate`](crate::gate)), runs it, and reports progress as [`Progress`] snapshots, on one
//! thread or several alike. [`sample`] is the same door for uniform samples, and
//! [`estimate`] for Knuth's estimate. The command line, the web API and the Python package
//! count through here, so that a method can never be run from one of them on a problem it
//! does not handle, and `auto` is the same decision everywhere.
//!
//! ```
//! use dancecard_engine::{count, CountMethod, CountRequest, ProblemBuilder};
//!
//! // Two 1s in every row and column of a 4 x 4 0/1 matrix: 90 of them (OEIS A001499).
//! let mut b = ProblemBuilder::new();
//! let rows: Vec<_> = (0..4).map(|r| b.primary_with_bounds(&format!("r{r}"), 2, 2)).collect::<Result<_, _>>()?;
//! let cols: Vec<_> = (0..4).map(|c| b.primary_with_bounds(&format!("c{c}"), 2, 2)).collect::<Result<_, _>>()?;
//! for &r in &rows {
//!     for &c in &cols {
//!         b.option([r, c])?;
//!     }
//! }
//! let problem = b.build();
//! for method in [CountMethod::Search, CountMethod::Memo, CountMethod::Auto] {
//!     let request = CountRequest { method, ..CountRequest::default() };
//!     let counted = count(&problem, &request, &|_| {})?;
//!     assert_eq!(counted.count, 90);
//!     assert!(counted.stop.is_complete());
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::ops::ControlFlow;

use crate::auto::{CountMethod, Counted};
use crate::config::{Config, Progress};
use crate::estimate::Estimate;
use crate::gate::{self, Method, Unsupported};
use crate::kernels::memo::{MemoConfig, MemoError};
use crate::problem::Problem;
use crate::solver::Solver;

/// A solver's progress, from one of its ticks.
fn snapshot(solver: &Solver) -> Progress {
    let stats = solver.stats();
    Progress {
        fraction: solver.progress(),
        basis: solver.progress_basis(),
        solutions: stats.solutions,
        nodes: stats.nodes,
    }
}

/// What to count and how: the one request every front end builds.
#[derive(Clone, Debug)]
pub struct CountRequest {
    /// How to count: the plain search, the memoised search, or whichever pays.
    pub method: CountMethod,
    /// Threads for the plain search: 1 counts on the calling thread, 0 on one per core.
    /// (The memoised count runs on one thread; `auto` picks the method first, then counts
    /// plainly on the threads or memoised on one.) Without the `parallel` feature, every
    /// count is on the calling thread.
    pub threads: usize,
    /// The memoised count's memory limit, and whether it builds the ZDD (which needs the
    /// memoised count: `memo` or `auto`, no solution limit).
    pub memo: MemoConfig,
    /// The heuristic, the limits (nodes, time, solutions) and the cancel flag.
    pub config: Config,
}

impl Default for CountRequest {
    fn default() -> CountRequest {
        CountRequest {
            method: CountMethod::Auto,
            threads: 1,
            memo: MemoConfig::default(),
            config: Config::default(),
        }
    }
}

impl CountRequest {
    /// The methods of the capability table this request runs, for the gate.
    fn methods(&self) -> Vec<Method> {
        let mut methods = vec![match self.method {
            CountMethod::Search => Method::Search,
            CountMethod::Memo => Method::Memo,
            CountMethod::Auto => Method::Auto,
            CountMethod::Frontier => Method::Frontier,
        }];
        if self.memo.zdd {
            methods.push(Method::Zdd);
        }
        if self.threads != 1 {
            methods.push(Method::Threads);
        }
        methods
    }
}

/// Why a count was refused or failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CountError {
    /// The request asks for a method that does not handle a feature of the problem.
    #[error(transparent)]
    Unsupported(#[from] Unsupported),
    /// The request's parts do not go together (a ZDD from the plain search, a memoised count
    /// with a solution limit).
    #[error("{0}")]
    Request(&'static str),
    /// The memoised count failed (its ZDD does not fit within the memory limit).
    #[error(transparent)]
    Memo(#[from] MemoError),
}

/// Counts the solutions of `problem` as `request` asks, calling `progress` now and then
/// (about every [`Config::CHECK_INTERVAL`] nodes of each thread). The count is exact at any
/// size; when a limit (or the cancel flag) stops it, it is the count so far and
/// [`Counted::stop`] says why.
///
/// # Errors
///
/// [`CountError::Unsupported`] for a method that does not handle the problem (see the
/// [capability table](crate::gate)); [`CountError::Request`] for a ZDD asked of the plain
/// search, or a memoised count with a solution limit; [`CountError::Memo`] for a ZDD that
/// does not fit within the memory limit.
pub fn count(
    problem: &Problem,
    request: &CountRequest,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Counted, CountError> {
    for method in request.methods() {
        gate::check(problem, method)?;
    }
    let limited = request.config.budget.max_solutions.is_some();
    let whole = matches!(request.method, CountMethod::Search | CountMethod::Frontier);
    if request.memo.zdd && (whole || limited) {
        return Err(CountError::Request(
            "a ZDD is built by the memoised count: method memo or auto, and no solution limit",
        ));
    }
    if request.method == CountMethod::Memo && limited {
        return Err(MemoError::SolutionLimit.into());
    }
    if request.method == CountMethod::Frontier && limited {
        return Err(CountError::Request(
            "a count by stages takes no solution limit (no solution is known before its end)",
        ));
    }
    let threads = match request.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    if threads > 1 && !request.memo.zdd && cfg!(feature = "parallel") {
        #[cfg(feature = "parallel")]
        return on_threads(problem, request, threads, progress);
    }
    // The ZDD is the memoised count's: `auto` with a ZDD is `memo`.
    let method = if request.memo.zdd { CountMethod::Memo } else { request.method };
    let mut solver = Solver::with_config(problem, request.config.clone());
    let mut tick = |s: &Solver| {
        progress(snapshot(s));
        ControlFlow::Continue(())
    };
    Ok(solver.count_by(method, &request.memo, &mut tick)?)
}

/// The count on `threads` threads: the method `auto` picks (unless the request names one),
/// then the plain search on the threads, or the memoised search on one thread (threads
/// sharing its table were slower than one thread on every board measured: dominoes 14x14
/// 0.6x, 16x16 0.7x on two cores; both threads meet the same subproblems, and the table's
/// locks cost more than the work they share).
#[cfg(feature = "parallel")]
fn on_threads(
    problem: &Problem,
    request: &CountRequest,
    threads: usize,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Counted, CountError> {
    use crate::parallel::ParallelSearch;
    let mut solver = Solver::with_config(problem, request.config.clone());
    let (method, reason) = match request.method {
        CountMethod::Auto => solver.pick_method(&request.memo),
        m => (m, String::new()),
    };
    if matches!(method, CountMethod::Memo | CountMethod::Frontier) {
        let mut tick = |s: &Solver| {
            progress(snapshot(s));
            ControlFlow::Continue(())
        };
        let counted = solver.count_by(method, &request.memo, &mut tick)?;
        return Ok(Counted { reason, ..counted });
    }
    let (outcome, stats) = ParallelSearch::new(problem, request.config.clone(), threads)
        .count_with_progress(&|p| progress(p));
    Ok(Counted { stats, ..crate::auto::plain(outcome, reason) })
}

/// The memoised count of `problem` with its ZDD, from which [`Zdd::samples`](crate::Zdd::samples)
/// draws exactly uniform samples: [`count`] with `memo.zdd` set and the method `memo`, after
/// the gate's check of [`Method::Sample`]. [`Counted::zdd`] is `None` when a limit stopped
/// the count before the ZDD was whole.
///
/// # Errors
///
/// As [`count`]'s.
pub fn sample(
    problem: &Problem,
    request: &CountRequest,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Counted, CountError> {
    gate::check(problem, Method::Sample)?;
    if matches!(request.method, CountMethod::Search | CountMethod::Frontier) {
        return Err(CountError::Request("samples are drawn from the ZDD of the memoised count"));
    }
    let request = CountRequest {
        method: CountMethod::Memo,
        threads: 1,
        memo: MemoConfig { zdd: true, ..request.memo },
        config: request.config.clone(),
    };
    count(problem, &request, progress)
}

/// Knuth's estimate of the plain search's tree on `problem` ([`Solver::estimate`]): `probes`
/// random probes from `seed`, under `config`'s heuristic and cancel flag, after the gate's
/// check of [`Method::Estimate`].
///
/// # Errors
///
/// [`Unsupported`] for a problem the estimate does not handle (none today: see the
/// [capability table](crate::gate)).
pub fn estimate(
    problem: &Problem,
    config: Config,
    probes: u64,
    seed: u64,
) -> Result<Estimate, Unsupported> {
    gate::check(problem, Method::Estimate)?;
    Ok(Solver::with_config(problem, config).estimate(probes, seed))
}
