//! Searching one problem with several threads.
//!
//! The tree is split into *units*, each a choice prefix (see [`Solver::set_prefix`]), searched
//! by a thread with its own [`Solver`]. Splitting is dynamic: the search starts with the units
//! it is given (by default the whole tree), and whenever the queue of waiting units is empty,
//! every busy thread gives away the untried options of the shallowest level that has some
//! (see [`Visitor::donate`]). A lopsided tree therefore keeps every thread busy to the end, and
//! a balanced one is split only as much as needed. Units are scheduled by rayon's work-stealing
//! pool.
//!
//! Counts are identical to a single thread's; solutions are the same set, in another order.
//!
//! # Example
//!
//! ```
//! use dancecard_engine::parallel::ParallelSearch;
//! use dancecard_engine::{Config, ProblemBuilder};
//!
//! // Domino tilings of a 4x4 board: 36.
//! let mut b = ProblemBuilder::new();
//! let cells: Vec<_> = (0..16).map(|k| b.primary(&format!("c{k}")).unwrap()).collect();
//! for r in 0..4 {
//!     for c in 0..4 {
//!         if c + 1 < 4 {
//!             b.option([cells[4 * r + c], cells[4 * r + c + 1]]).unwrap();
//!         }
//!         if r + 1 < 4 {
//!             b.option([cells[4 * r + c], cells[4 * r + c + 4]]).unwrap();
//!         }
//!     }
//! }
//! let problem = b.build();
//! let (outcome, stats) = ParallelSearch::new(&problem, Config::default(), 2).count();
//! assert_eq!(outcome.solutions, 36);
//! assert_eq!(stats.solutions, 36);
//! ```

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::kernels::memo::SharedTable;
use crate::{
    Basis, Config, Count, Kernel, MemoConfig, MemoError, MemoOutcome, MemoStats, OptionId, Outcome,
    Problem, Solution, Solver, Stats, Stop, Visitor,
};

/// A search of one problem by several threads. See the [module documentation](self).
#[derive(Debug)]
pub struct ParallelSearch<'p> {
    problem: &'p Problem,
    config: Config,
    threads: usize,
    units: Vec<Vec<u32>>,
}

pub use crate::config::Progress;

impl<'p> ParallelSearch<'p> {
    /// A search of `problem` with `threads` threads (0 means one per core).
    ///
    /// The configuration's heuristic, time limit and cancel flag apply to every thread; its
    /// solution and node limits apply to the total (the node limit is checked every
    /// [`Config::CHECK_INTERVAL`] nodes of each thread, so it can be overshot by that much per
    /// thread).
    pub fn new(problem: &'p Problem, config: Config, threads: usize) -> Self {
        ParallelSearch { problem, config, threads, units: vec![Vec::new()] }
    }

    /// Searches only these units (choice prefixes) instead of the whole tree; they must not
    /// overlap (for example, some of the units listed by [`Solver::prefixes`]).
    pub fn units(mut self, units: Vec<Vec<u32>>) -> Self {
        self.units = units;
        self
    }

    /// Counts the solutions.
    pub fn count(self) -> (Outcome, Stats) {
        self.run(&|_: Solution<'_>| ControlFlow::Continue(()), &|_| {}, true)
    }

    /// Counts the solutions, calling `progress` from the worker threads now and then (about
    /// every [`Config::CHECK_INTERVAL`] nodes of each thread).
    pub fn count_with_progress<P>(self, progress: &P) -> (Outcome, Stats)
    where
        P: Fn(Progress) + Sync,
    {
        self.run(&|_: Solution<'_>| ControlFlow::Continue(()), progress, true)
    }

    /// Calls `visit` with every solution, from the worker threads (one call at a time per
    /// thread: make `visit` lock what it shares). `Break` stops the whole search.
    pub fn visit<F, P>(self, visit: &F, progress: &P) -> (Outcome, Stats)
    where
        F: Fn(Solution<'_>) -> ControlFlow<()> + Sync,
        P: Fn(Progress) + Sync,
    {
        self.run(visit, progress, false)
    }

    /// Counts the solutions by memoisation (see [`Solver::count_memo`]) on several threads
    /// sharing one table: the tree is cut into units (at least 16 per thread, where the tree is
    /// that wide within 12 levels), which the threads take one after another, each looking up
    /// and storing remaining problems in the shared table (in shards behind locks, within
    /// `memo.limit_bytes`). Counts are exact and equal to one thread's; the nodes and hits vary
    /// from run to run (which thread meets a remaining problem first). No ZDD: `memo.zdd` is
    /// ignored. `progress` is called from the threads now and then.
    ///
    /// The configuration's node limit applies to the total (checked when a unit starts and
    /// within units); a solution limit is refused ([`MemoError::SolutionLimit`]).
    pub fn count_memo<P>(
        self,
        memo: &MemoConfig,
        progress: &P,
    ) -> Result<(MemoOutcome, Stats), MemoError>
    where
        P: Fn(Progress) + Sync,
    {
        if self.config.budget.max_solutions.is_some() {
            return Err(MemoError::SolutionLimit);
        }
        let threads = if self.threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            self.threads
        };
        let mut lister =
            Solver::with_config(self.problem, Config::with_heuristic(self.config.heuristic));
        let mut units = self.units;
        if units == [Vec::<u32>::new()] && threads > 1 {
            for depth in 1..=12 {
                units = lister.prefixes(depth);
                if units.len() >= 16 * threads {
                    break;
                }
            }
        }
        let store = SharedTable::new(lister.key_words(), memo.limit_bytes, 64);
        let max_nodes = self.config.budget.max_nodes.unwrap_or(u64::MAX);
        let next = AtomicUsize::new(0);
        let done = AtomicUsize::new(0);
        let stopped = AtomicBool::new(false);
        let nodes = AtomicU64::new(0);
        // The count so far, the first stop that was not "exhausted", the first error.
        let total: Mutex<(Count, Option<Stop>, Option<MemoError>)> =
            Mutex::new((Count::ZERO, None, None));
        let sums: Mutex<(MemoStats, Stats)> = Mutex::new(Default::default());
        let started = std::time::Instant::now();
        let halt = |stop: Option<Stop>, error: Option<MemoError>| {
            let mut t = lock(&total);
            if t.1.is_none() && t.2.is_none() {
                t.1 = stop;
                t.2 = error;
            }
            stopped.store(true, Ordering::SeqCst);
        };
        std::thread::scope(|scope| {
            for _ in 0..threads.min(units.len()).max(1) {
                let _ = scope.spawn(|| {
                    let mut solver = Solver::with_config(self.problem, self.config.clone());
                    loop {
                        let k = next.fetch_add(1, Ordering::SeqCst);
                        if k >= units.len() || stopped.load(Ordering::SeqCst) {
                            break;
                        }
                        let left = max_nodes.saturating_sub(nodes.load(Ordering::Relaxed));
                        if left == 0 {
                            halt(Some(Stop::NodeLimit), None);
                            break;
                        }
                        let mut config = self.config.clone();
                        config.budget.max_nodes = (max_nodes != u64::MAX).then_some(left);
                        solver.set_config(config);
                        solver.set_prefix(&units[k]);
                        let mut reported = 0u64;
                        let result = solver.count_memo_in(&store, &mut |_, st| {
                            let _ = nodes.fetch_add(st.nodes - reported, Ordering::Relaxed);
                            reported = st.nodes;
                            let fraction = done.load(Ordering::Relaxed) as f64 / units.len() as f64;
                            let solutions = lock(&total).0.to_u128().unwrap_or(u128::MAX);
                            progress(Progress {
                                fraction,
                                basis: Basis::Units,
                                solutions,
                                nodes: nodes.load(Ordering::Relaxed),
                            });
                            if stopped.load(Ordering::Relaxed) {
                                ControlFlow::Break(())
                            } else {
                                ControlFlow::Continue(())
                            }
                        });
                        match result {
                            Ok(m) => {
                                let _ =
                                    nodes.fetch_add(m.stats.nodes - reported, Ordering::Relaxed);
                                lock(&total).0 += &m.count;
                                {
                                    let mut s = lock(&sums);
                                    s.0.nodes += m.stats.nodes;
                                    s.0.hits += m.stats.hits;
                                    s.0.entries += m.stats.entries;
                                    s.0.plain_nodes =
                                        s.0.plain_nodes.saturating_add(m.stats.plain_nodes);
                                    s.1.add(solver.stats());
                                }
                                let _ = done.fetch_add(1, Ordering::Relaxed);
                                if m.stop != Stop::Exhausted {
                                    halt(Some(m.stop), None);
                                }
                            }
                            Err(e) => halt(None, Some(e)),
                        }
                    }
                });
            }
        });
        let (count, stop, error) = std::mem::take(&mut *lock(&total));
        if let Some(e) = error {
            return Err(e);
        }
        let (mut memo_stats, stats) = *lock(&sums);
        memo_stats.peak_bytes = {
            use crate::kernels::memo::Store;
            (&store).bytes()
        };
        memo_stats.clears = {
            use crate::kernels::memo::Store;
            (&store).clears()
        };
        let stop = stop.unwrap_or(Stop::Exhausted);
        let solutions = count.to_u128().unwrap_or(u128::MAX);
        if stop == Stop::Exhausted {
            let nodes = memo_stats.nodes;
            progress(Progress { fraction: 1.0, basis: Basis::Units, solutions, nodes });
        }
        let stats = Stats { solutions, elapsed: started.elapsed(), ..stats };
        Ok((MemoOutcome { count, stop, stats: memo_stats, zdd: None }, stats))
    }

    /// Collects every solution (in no particular order).
    pub fn solutions(self) -> (Vec<Vec<OptionId>>, Outcome) {
        let found = Mutex::new(Vec::new());
        let (outcome, _) = self.run(
            &|s: Solution<'_>| {
                lock(&found).push(s.to_vec());
                ControlFlow::Continue(())
            },
            &|_| {},
            false,
        );
        (found.into_inner().unwrap_or_else(|e| e.into_inner()), outcome)
    }

    /// The search; `count_only` when no solution needs to be seen, so that the units may be
    /// counted on the bit-set kernel (see [`Kernel`](crate::Kernel)).
    fn run<F, P>(self, visit: &F, progress: &P, count_only: bool) -> (Outcome, Stats)
    where
        F: Fn(Solution<'_>) -> ControlFlow<()> + Sync,
        P: Fn(Progress) + Sync,
    {
        if self.config.budget.max_solutions == Some(0) {
            // No solution wanted: nothing to search.
            return (Outcome { solutions: 0, stop: Stop::SolutionLimit }, Stats::default());
        }
        let threads = if self.threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            self.threads
        };
        let mut worker_config = self.config.clone();
        worker_config.budget.max_solutions = None;
        worker_config.budget.max_nodes = None;
        let mut shared = Shared {
            problem: self.problem,
            config: worker_config,
            max_solutions: self.config.budget.max_solutions.unwrap_or(u128::MAX),
            max_nodes: self.config.budget.max_nodes.unwrap_or(u64::MAX),
            visit,
            progress,
            solvers: Mutex::new(Vec::new()),
            pending: AtomicUsize::new(0),
            stopped: AtomicBool::new(false),
            stop: Mutex::new(None),
            solutions: Mutex::new(0),
            nodes: AtomicU64::new(0),
            stats: Mutex::new(Stats::default()),
            done: Mutex::new(0.0),
            running: Mutex::new(vec![0.0; threads + 1]),
            bits: false,
        };
        // Counting on bit sets: the units cannot split later (the kernel has no visitor), so
        // the whole tree is split up front, into at least 32 units per thread where the
        // tree is that wide within 8 levels. (A solution limit needs every solution seen:
        // the links then.)
        let mut units = self.units;
        if count_only && self.config.budget.max_solutions.is_none() {
            let mut probe = Solver::with_config(self.problem, shared.config.clone());
            let kernel = probe.pick_kernel();
            if kernel != Kernel::Links {
                shared.config.kernel = kernel;
                shared.bits = true;
                if units == [Vec::<u32>::new()] {
                    for depth in 1..=8 {
                        units = probe.prefixes(depth);
                        if units.len() >= 32 * threads {
                            break;
                        }
                    }
                }
            }
        }
        let weight = 1.0 / units.len().max(1) as f64;
        let started = std::time::Instant::now();
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.scope(|scope| shared.start(scope, units, weight)),
            // No pool could be made: use rayon's global one.
            Err(_) => rayon::scope(|scope| shared.start(scope, units, weight)),
        }
        let stats = *lock(&shared.stats);
        let solutions = *lock(&shared.solutions);
        let stop = lock(&shared.stop).unwrap_or(Stop::Exhausted);
        if stop == Stop::Exhausted {
            // The last report says the search is done (the ticks, every
            // `Config::CHECK_INTERVAL` nodes of a thread, may all have come early).
            let nodes = stats.nodes;
            (shared.progress)(Progress { fraction: 1.0, basis: Basis::Search, solutions, nodes });
        }
        // The units' times add up the threads' time: report the wall clock instead.
        (Outcome { solutions, stop }, Stats { solutions, elapsed: started.elapsed(), ..stats })
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic in a visitor poisons nothing we cannot still read.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// State shared by the worker threads.
struct Shared<'a, F, P> {
    problem: &'a Problem,
    config: Config,
    max_solutions: u128,
    max_nodes: u64,
    visit: &'a F,
    progress: &'a P,
    /// Idle solvers, reused by later units (building one costs a pass over the problem).
    solvers: Mutex<Vec<Solver>>,
    /// Units spawned and not yet started: when 0, busy threads split their work.
    pending: AtomicUsize,
    stopped: AtomicBool,
    stop: Mutex<Option<Stop>>,
    solutions: Mutex<u128>,
    nodes: AtomicU64,
    stats: Mutex<Stats>,
    /// Fraction of the tree in finished units.
    done: Mutex<f64>,
    /// Per thread: the fraction of the tree explored in its current unit.
    running: Mutex<Vec<f64>>,
    /// Whether units are counted on the bit-set kernel (no visitor, no splitting).
    bits: bool,
}

impl<'a, F, P> Shared<'a, F, P>
where
    F: Fn(Solution<'_>) -> ControlFlow<()> + Sync,
    P: Fn(Progress) + Sync,
{
    fn start<'s>(&'s self, scope: &rayon::Scope<'s>, units: Vec<Vec<u32>>, weight: f64) {
        for unit in units {
            self.spawn(scope, unit, weight);
        }
    }

    fn spawn<'s>(&'s self, scope: &rayon::Scope<'s>, unit: Vec<u32>, weight: f64) {
        let _ = self.pending.fetch_add(1, Ordering::SeqCst);
        scope.spawn(move |scope| {
            let _ = self.pending.fetch_sub(1, Ordering::SeqCst);
            self.search(scope, unit, weight);
        });
    }

    /// Records why the search stops (the first reason wins) and tells every thread.
    fn halt(&self, stop: Stop) {
        let mut first = lock(&self.stop);
        if first.is_none() {
            *first = Some(stop);
        }
        self.stopped.store(true, Ordering::SeqCst);
    }

    fn search<'s>(&'s self, scope: &rayon::Scope<'s>, unit: Vec<u32>, weight: f64) {
        if self.stopped.load(Ordering::SeqCst) {
            return;
        }
        let mut solver = lock(&self.solvers)
            .pop()
            .unwrap_or_else(|| Solver::with_config(self.problem, self.config.clone()));
        solver.set_prefix(&unit);
        if self.max_nodes != u64::MAX {
            // The nodes left of the budget (as far as the ticks have told): a unit that
            // reaches them stops, so that the limit holds between ticks too.
            let left = self.max_nodes.saturating_sub(self.nodes.load(Ordering::Relaxed));
            let mut config = self.config.clone();
            config.budget.max_nodes = Some(left);
            solver.set_config(config);
        }
        let mut worker =
            Worker { shared: self, scope, weight, donated: 0.0, reported_nodes: 0, found: 0 };
        let outcome = if self.bits {
            let outcome = solver.count_with_progress(|s| worker.tick(s));
            *lock(&self.solutions) += outcome.solutions;
            outcome
        } else {
            let outcome = solver.visit(&mut worker);
            worker.flush();
            outcome
        };
        match outcome.stop {
            Stop::Exhausted => {}
            // Breaks from `tick` and `solution` come from `halt`, which kept the reason.
            Stop::Visitor | Stop::Cancelled if self.stopped.load(Ordering::SeqCst) => {}
            other => self.halt(other),
        }
        let stats = *solver.stats();
        let _ = self.nodes.fetch_add(stats.nodes - worker.reported_nodes, Ordering::Relaxed);
        lock(&self.stats).add(&stats);
        if outcome.is_complete() {
            *lock(&self.done) += worker.weight - worker.donated;
        }
        let fraction = {
            let mut running = lock(&self.running);
            if let Some(slot) = rayon::current_thread_index().and_then(|t| running.get_mut(t)) {
                *slot = 0.0;
            }
            *lock(&self.done) + running.iter().sum::<f64>()
        };
        lock(&self.solvers).push(solver);
        if self.bits && !self.stopped.load(Ordering::Relaxed) {
            // Units on bit sets do not split and many are smaller than a tick: report each.
            (self.progress)(Progress {
                fraction: fraction.min(1.0),
                basis: Basis::Search,
                solutions: *lock(&self.solutions),
                nodes: self.nodes.load(Ordering::Relaxed),
            });
        }
    }
}

impl<F, P> Worker<'_, '_, '_, F, P> {
    /// Adds the solutions found since the last flush to the shared count.
    fn flush(&mut self) {
        if self.found > 0 {
            *lock(&self.shared.solutions) += self.found;
            self.found = 0;
        }
    }
}

/// The visitor of one unit's search.
struct Worker<'w, 's, 'a, F, P> {
    shared: &'s Shared<'a, F, P>,
    scope: &'w rayon::Scope<'s>,
    /// The fraction of the whole tree this unit stands for.
    weight: f64,
    /// The part of `weight` given away to other units.
    donated: f64,
    reported_nodes: u64,
    /// Solutions found and not yet added to the shared count (without a solution limit, the
    /// threads add theirs at each tick and at the end of the unit, not at every solution:
    /// one lock taken per solution by both threads made domino tilings, with their 10^8
    /// solutions, slower on two threads than on one, the lock's cache line moving between
    /// the cores at every solution).
    found: u128,
}

impl<'a, F, P> Visitor for Worker<'_, '_, 'a, F, P>
where
    F: Fn(Solution<'_>) -> ControlFlow<()> + Sync,
    P: Fn(Progress) + Sync,
{
    fn solution(&mut self, solution: Solution<'_>) -> ControlFlow<()> {
        let shared = self.shared;
        if shared.max_solutions == u128::MAX {
            // No limit to keep: counted here, added to the shared count at the next tick.
            if shared.stopped.load(Ordering::Relaxed) {
                return ControlFlow::Break(());
            }
            self.found += 1;
        } else {
            let mut count = lock(&shared.solutions);
            if *count >= shared.max_solutions || shared.stopped.load(Ordering::Relaxed) {
                return ControlFlow::Break(());
            }
            *count += 1;
            if *count >= shared.max_solutions {
                shared.halt(Stop::SolutionLimit);
            }
        }
        if (shared.visit)(solution).is_break() {
            shared.halt(Stop::Visitor);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    fn tick(&mut self, solver: &Solver) -> ControlFlow<()> {
        let shared = self.shared;
        self.flush();
        let nodes = solver.stats().nodes;
        let total = shared.nodes.fetch_add(nodes - self.reported_nodes, Ordering::Relaxed)
            + (nodes - self.reported_nodes);
        self.reported_nodes = nodes;
        if total >= shared.max_nodes {
            shared.halt(Stop::NodeLimit);
        }
        if shared.stopped.load(Ordering::Relaxed) {
            return ControlFlow::Break(());
        }
        let fraction = {
            let mut running = lock(&shared.running);
            if let Some(slot) = rayon::current_thread_index().and_then(|t| running.get_mut(t)) {
                *slot = (self.weight * solver.progress()).min(self.weight - self.donated);
            }
            *lock(&shared.done) + running.iter().sum::<f64>()
        };
        (shared.progress)(Progress {
            fraction: fraction.min(1.0),
            basis: Basis::Search,
            solutions: *lock(&shared.solutions),
            nodes: total,
        });
        ControlFlow::Continue(())
    }

    fn hungry(&self) -> bool {
        self.shared.pending.load(Ordering::Relaxed) == 0
    }

    fn donate(&mut self, units: Vec<Vec<u32>>, fraction: f64) {
        let each = self.weight * fraction / units.len().max(1) as f64;
        self.donated += each * units.len() as f64;
        for unit in units {
            self.shared.spawn(self.scope, unit, each);
        }
    }
}
