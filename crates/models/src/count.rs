//! Counting a model's solutions: the request every front end builds once ([`CountRequest`]:
//! limits, threads, the memo's budget, progress, whether to count up to symmetry) and the
//! answer ([`ModelCount`]). The models choose their method from it
//! ([`queens::count_by`](crate::queens::count_by),
//! [`Tiling::count_by`](crate::tiling::Tiling::count_by)), so that the command line, the web
//! API and the Python package count the same way and say the same thing.
//!
//! ```
//! use dancecard_models::count::CountRequest;
//! use dancecard_models::queens;
//!
//! let request = CountRequest { distinct: true, ..CountRequest::default() };
//! let c = queens::count_by(8, None, &request)?;
//! assert_eq!((c.method, c.total.to_string(), c.distinct.map(|d| d.to_string())),
//!            ("bits", "92".to_owned(), Some("12".to_owned())));
//! # Ok::<(), dancecard_models::queens::QueensError>(())
//! ```

use std::ops::ControlFlow;

use dancecard_engine::{
    Budget, Config, Count, CountError, CountMethod, CountRequest as EngineRequest, MemoConfig,
    OptionId, Problem, Progress, Solution, Solver, Stats, Stop, Visitor,
};

/// What a count of a model is asked: its limits, threads, the memo's budget, whether to count
/// up to the board's symmetries too, and where to report progress. The default: no limit,
/// one thread, the memo's default budget, no count up to symmetry, no progress.
#[derive(Clone, Default)]
pub struct CountRequest<'a> {
    /// The limits: a solution limit (only the engine's search can stop after `k` solutions:
    /// a method that counts whole classes of solutions refuses it), about how many nodes, how
    /// long, and the cancel flag (Ctrl-C, a timer, a client gone).
    pub budget: Budget,
    /// Threads, for the methods that take them (0: one per core; 1: the calling thread).
    pub threads: usize,
    /// The memoised count's memory limit (`None`: [`MemoConfig::default_limit_bytes`]).
    pub memo_limit_bytes: Option<usize>,
    /// Count the solutions up to the board's symmetries too (on the engine, each solution is
    /// then visited: no memoisation).
    pub distinct: bool,
    /// Called now and then with the count's progress.
    pub progress: Option<&'a (dyn Fn(Progress) + Sync)>,
}

impl std::fmt::Debug for CountRequest<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CountRequest")
            .field("budget", &self.budget)
            .field("threads", &self.threads)
            .field("memo_limit_bytes", &self.memo_limit_bytes)
            .field("distinct", &self.distinct)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

impl CountRequest<'_> {
    /// The engine's configuration of this request's limits.
    pub fn config(&self) -> Config {
        Config::with_budget(self.budget.clone())
    }

    /// Whether a limit of the search may stop the count before the end: a solution, node or
    /// time limit (a method without search nodes, the tilings' profile DP, takes none of
    /// them).
    pub fn is_limited(&self) -> bool {
        let budget = &self.budget;
        budget.max_solutions.is_some() || budget.max_nodes.is_some() || budget.time_limit.is_some()
    }

    /// Reports `progress` to [`CountRequest::progress`], if any.
    pub(crate) fn report(&self, progress: Progress) {
        if let Some(report) = self.progress {
            report(progress);
        }
    }
}

/// A model's count: by which method, how many solutions, how many up to symmetry, the
/// counters and how the count ended.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelCount {
    /// The model's method: `dlx` (the exact cover model on the engine), `bits` (the queens'
    /// bitwise counter) or `dp` (the tilings' profile DP).
    pub method: &'static str,
    /// What counted: on `dlx` the engine's method (`search` or `memo`), else as `method`.
    pub count_method: &'static str,
    /// The number of solutions (so far, when [`ModelCount::stop`] is not
    /// [`Stop::Exhausted`]), exact at any size.
    pub total: Count,
    /// The number of solutions up to the board's symmetries, when it was counted.
    pub distinct: Option<Count>,
    /// The counters (nodes are the method's own; the DP has none).
    pub stats: Stats,
    /// How the count ended.
    pub stop: Stop,
}

impl ModelCount {
    /// Whether the count is the whole count.
    pub fn is_complete(&self) -> bool {
        self.stop.is_complete()
    }
}

/// Counts the solutions of a model's `problem` on the engine: by its one way in (the plain
/// search or the memoised one, whichever pays) when no count up to symmetry is asked; else by
/// visiting every solution, `canonical` saying which ones are the least of their class.
pub(crate) fn on_engine(
    problem: &Problem,
    request: &CountRequest<'_>,
    canonical: &mut dyn FnMut(&[OptionId]) -> bool,
) -> Result<ModelCount, CountError> {
    if !request.distinct {
        let memo = MemoConfig {
            limit_bytes: request.memo_limit_bytes.unwrap_or_else(MemoConfig::default_limit_bytes),
            zdd: false,
        };
        let engine =
            EngineRequest { method: CountMethod::Auto, threads: 1, memo, config: request.config() };
        let counted = dancecard_engine::count(problem, &engine, &|p| request.report(p))?;
        return Ok(ModelCount {
            method: "dlx",
            count_method: counted.method.name(),
            total: counted.count,
            distinct: None,
            stats: counted.stats,
            stop: counted.stop,
        });
    }
    struct Distinct<'r, 'a, 'c> {
        request: &'r CountRequest<'a>,
        canonical: &'c mut dyn FnMut(&[OptionId]) -> bool,
        options: Vec<OptionId>,
        distinct: u128,
    }
    impl Visitor for Distinct<'_, '_, '_> {
        fn solution(&mut self, solution: Solution<'_>) -> ControlFlow<()> {
            self.options.clear();
            self.options.extend(solution.options());
            self.distinct += u128::from((self.canonical)(&self.options));
            ControlFlow::Continue(())
        }

        fn tick(&mut self, solver: &Solver) -> ControlFlow<()> {
            let stats = solver.stats();
            self.request.report(Progress {
                fraction: solver.progress(),
                basis: solver.progress_basis(),
                solutions: stats.solutions,
                nodes: stats.nodes,
            });
            ControlFlow::Continue(())
        }
    }
    let mut solver = Solver::with_config(problem, request.config());
    let mut visitor = Distinct { request, canonical, options: Vec::new(), distinct: 0 };
    let outcome = solver.visit(&mut visitor);
    Ok(ModelCount {
        method: "dlx",
        count_method: "search",
        total: Count::from(outcome.solutions),
        distinct: Some(Count::from(visitor.distinct)),
        stats: *solver.stats(),
        stop: outcome.stop,
    })
}
