//! Running the engine with callbacks instead of a generic visitor, so that front ends (the
//! command line, the web explorer, the Python package) get the search loop compiled here,
//! once and optimised, whatever their own build settings.

use std::ops::ControlFlow;

use dancecard_engine::{Config, Outcome, Problem, Solution, Solver, Stats, Visitor};

/// What [`search`] reports to: each solution, and a tick about every
/// [`Config::CHECK_INTERVAL`] nodes (for progress bars). Returning `Break` from either stops
/// the search.
pub struct Callbacks<'a> {
    /// Called with each solution.
    pub solution: &'a mut dyn FnMut(Solution<'_>) -> ControlFlow<()>,
    /// Called with the solver during the search ([`Solver::progress`], [`Solver::stats`]).
    pub tick: &'a mut dyn FnMut(&Solver) -> ControlFlow<()>,
}

impl std::fmt::Debug for Callbacks<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Callbacks")
    }
}

impl Visitor for Callbacks<'_> {
    fn solution(&mut self, solution: Solution<'_>) -> ControlFlow<()> {
        (self.solution)(solution)
    }

    fn tick(&mut self, solver: &Solver) -> ControlFlow<()> {
        (self.tick)(solver)
    }
}

/// Searches `problem` under `config`, reporting to `callbacks`; returns how the search ended
/// and its counters.
///
/// ```
/// use std::ops::ControlFlow;
/// use dancecard_engine::Config;
/// use dancecard_models::{queens::Queens, watch, Model};
///
/// let problem = Queens::new(6)?.problem();
/// let mut found = 0;
/// let (outcome, stats) = watch::search(&problem, Config::default(), watch::Callbacks {
///     solution: &mut |_| { found += 1; ControlFlow::Continue(()) },
///     tick: &mut |_| ControlFlow::Continue(()),
/// });
/// assert_eq!((outcome.solutions, found), (4, 4));
/// assert!(stats.nodes > 0);
/// # Ok::<(), dancecard_models::queens::QueensError>(())
/// ```
pub fn search(problem: &Problem, config: Config, mut callbacks: Callbacks<'_>) -> (Outcome, Stats) {
    let mut solver = Solver::with_config(problem, config);
    let outcome = solver.visit(&mut callbacks);
    (outcome, *solver.stats())
}
