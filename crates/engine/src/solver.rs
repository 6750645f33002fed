//! The [`Solver`]: the mutable side of a search on one [`Problem`], its entry points (first,
//! solutions, visit, count, min-cost, prefixes and subtrees) and the choice of kernel. The
//! search loops themselves are in `kernels/` (the links, Algorithm M, bit sets, costs,
//! memoisation), side by side; the vocabulary they share is in `config.rs` and `plumbing.rs`.
//!
//! The loops on the links are iterative, bounded and resumable: they keep their choices on an
//! explicit stack (`choice`), never recursing: the depth is bounded only by the number of
//! primary items, and is preallocated.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use crate::arena::Arena;
use crate::config::{Basis, Budget, Config, Heuristic, Kernel, Outcome, Stop, Subtree};
use crate::ids::{ItemId, OptionId};
use crate::kernels::bits::Bits;
use crate::kernels::cost::{self, CostError, CostProgress, LowerBound, MinCost};
use crate::kernels::cost_bits::{self, CostBits};
use crate::kernels::mcc_state::Mcc;
use crate::kernels::sliced::Sliced;
use crate::plumbing::{self, CountJob, Limits};
use crate::problem::Problem;
use crate::stats::Stats;

/// A prefix given to [`Solver::set_prefix`] that does not name a subtree.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PrefixError {
    /// At this level the chosen item has fewer options than the index asks for.
    #[error("choice {index} at level {level} is out of range: the item has {len} options")]
    OutOfRange {
        /// The level (0 is the root).
        level: usize,
        /// The requested index.
        index: u32,
        /// The number of options of the item chosen at that level.
        len: u32,
    },
    /// The prefix continues past a solution.
    #[error("the prefix reaches a solution at level {level} and cannot continue")]
    PastSolution {
        /// The level where the solution was reached.
        level: usize,
    },
}

/// A solution found by the search: the chosen options, in the order they were chosen.
#[derive(Clone, Copy, Debug)]
pub struct Solution<'a> {
    pub(crate) nodes: &'a [u32],
    pub(crate) arena: &'a Arena,
}

impl<'a> Solution<'a> {
    /// The number of options in the solution.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the solution is empty (only for a problem without primary items).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The chosen options, level by level.
    pub fn options(&self) -> impl ExactSizeIterator<Item = OptionId> + 'a {
        let arena = self.arena;
        self.nodes.iter().map(move |&x| arena.option_of(x))
    }

    /// The chosen options as a vector.
    pub fn to_vec(&self) -> Vec<OptionId> {
        self.options().collect()
    }
}

/// Receives solutions and periodic progress calls from [`Solver::visit`].
///
/// Both methods have defaults that continue the search.
pub trait Visitor {
    /// A solution; return `Break` to stop the search.
    fn solution(&mut self, _solution: Solution<'_>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// Called about every [`Config::CHECK_INTERVAL`] nodes with the solver (for
    /// [`Solver::progress`] and [`Solver::stats`]); return `Break` to cancel the search.
    fn tick(&mut self, _solver: &Solver) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// Asked after each `tick`: whether this search should give away part of its remaining
    /// work (for load balancing between threads). If so, the solver splits off every untried
    /// option of its shallowest level that has some, and passes them to [`Visitor::donate`].
    fn hungry(&self) -> bool {
        false
    }
    /// Receives the subtrees split off from this search, as choice prefixes (see
    /// [`Solver::set_prefix`]). This search will not visit them. `fraction` estimates the
    /// share of this search's tree that they hold together (from the number of options at
    /// each level, as [`Solver::progress`] does).
    fn donate(&mut self, _units: Vec<Vec<u32>>, _fraction: f64) {}
}

/// Untried subtrees split off a running search to give away: the search's new floor, their
/// choice prefixes, and the estimated fraction of the search's tree that they hold.
pub(crate) type Donation = (usize, Vec<Vec<u32>>, f64);

/// What the search reports to while it runs. All methods have empty defaults, so that a sink
/// implements only what it needs and the rest compiles away.
pub(crate) trait Sink {
    /// A solution; `Break` pauses the search right after it (it can be resumed).
    #[inline(always)]
    fn solution(&mut self, _solution: Solution<'_>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// The search reached the depth cap with `choice` made (used to list subtrees).
    #[inline(always)]
    fn frontier(&mut self, _solver: &Solver, _level: usize) {}
    /// Called every [`Config::CHECK_INTERVAL`] nodes; `Break` cancels the search.
    #[inline(always)]
    fn tick(&mut self, _solver: &Solver) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// See [`Visitor::hungry`].
    #[inline(always)]
    fn hungry(&self) -> bool {
        false
    }
    /// See [`Visitor::donate`].
    #[inline(always)]
    fn donate(&mut self, _units: Vec<Vec<u32>>, _fraction: f64) {}
    /// Whether the loop of Algorithm M asks [`Sink::prune`] at every node (a constant, so
    /// the call compiles away for the other sinks).
    const PRUNES: bool = false;
    /// Algorithm M's loop entering the node reached by `choice` (one move per level above
    /// it), before it looks for a solution: `true` leaves the node at once, as a node with
    /// too few options is left (the min-cost search's cutoff, `cost_mcc.rs`).
    #[inline(always)]
    fn prune(&mut self, _arena: &Arena, _m: &Mcc, _choice: &[u32]) -> bool {
        false
    }
    /// Whether the trace hooks below are wanted (a constant, so they compile away).
    const TRACE: bool = false;
    /// An event of the trace.
    #[inline(always)]
    fn event(&mut self, _event: Event, _nodes: u64) {}
}

/// One step of the search, as reported by [`Solver::trace`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A level was entered (a node of the search tree).
    Enter {
        /// The level (0 is the root).
        level: usize,
    },
    /// The item to branch on was chosen; it has `len` options left.
    Choose {
        /// The level.
        level: usize,
        /// The chosen item.
        item: ItemId,
        /// Its number of active options.
        len: u32,
    },
    /// An item was covered (removed with every option through it).
    Cover {
        /// The item.
        item: ItemId,
    },
    /// An item was uncovered (restored).
    Uncover {
        /// The item.
        item: ItemId,
    },
    /// An option was tried at a level.
    Try {
        /// The level.
        level: usize,
        /// The option.
        option: OptionId,
    },
    /// An option was taken back at a level.
    Untry {
        /// The level.
        level: usize,
        /// The option.
        option: OptionId,
    },
    /// A solution was found (the options tried at levels 0..=level).
    Solution {
        /// The deepest level.
        level: usize,
    },
    /// The options of a level's item are exhausted: the search backs up.
    Backtrack {
        /// The level left.
        level: usize,
    },
}

/// Where a paused search stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Not started (or finished and reset): the arena is pristine.
    Fresh,
    /// Paused right after reporting a solution at `level`: levels `0..=level` are applied.
    AtSolution,
}

/// A search over one [`Problem`]: the mutable arena, the choice stack and the counters.
///
/// The problem stays immutable; a solver owns everything that changes, so several solvers can
/// search one problem at the same time (for example one per thread, each under its own
/// [prefix](Solver::set_prefix)).
///
/// # Example
///
/// ```
/// use dancecard_engine::{ProblemBuilder, Solver};
///
/// let mut b = ProblemBuilder::new();
/// for name in ["a", "b", "c"] {
///     b.primary(name)?;
/// }
/// for option in [["a", "b"], ["c", "a"], ["b", "c"]] {
///     b.option_by_names(option)?;
/// }
/// b.option_by_names(["c"])?;
/// let problem = b.build();
/// let mut solver = Solver::new(&problem);
/// let outcome = solver.count();
/// assert_eq!(outcome.solutions, 1);
/// assert!(outcome.is_complete());
/// assert_eq!(solver.stats().nodes, 4);
/// # Ok::<(), dancecard_engine::BuildError>(())
/// ```
#[derive(Debug)]
pub struct Solver {
    pub(crate) arena: Arena,
    pub(crate) config: Config,
    pub(crate) stats: Stats,
    /// `choice[l]` is the option node tried at level `l` (`x_l` in Knuth).
    pub(crate) choice: Vec<u32>,
    /// The choice indices of the subtree this solver is restricted to.
    pub(crate) prefix: Vec<u32>,
    /// Search levels are capped here (used to list subtrees).
    pub(crate) cap: usize,
    /// The search ends when it backs up to this level: the prefix's length, or more once
    /// the untried options of shallower levels were given away (see [`Visitor::donate`]).
    pub(crate) floor: usize,
    pub(crate) level: usize,
    pub(crate) phase: Phase,
    pub(crate) last_stop: Stop,
    pub(crate) colored: bool,
    /// The bit-set kernel of counts, built at the first count that can use it.
    pub(crate) bits: Option<Box<Sets>>,
    /// The kernel `bits` was built for (it is `None` for problems it does not take).
    pub(crate) bits_kernel: Option<Kernel>,
    /// During a count on `bits`, its progress estimate (for [`Solver::progress`]).
    pub(crate) bits_fraction: Option<f64>,
    /// What [`Solver::progress`] measures now: [`Basis::Search`] but during a memoised count
    /// or a count by stages.
    pub(crate) basis: Basis,
    /// The kernel [`Kernel::Auto`] picked by calibration (see [`Solver::calibrate`]).
    pub(crate) picked: Option<Kernel>,
    /// Algorithm M's state (bounds, tweaks) when the problem has bounds (see `mcc.rs`).
    pub(crate) mcc: Option<Box<Mcc>>,
    /// Where a count stopped early writes the subtrees it did not search, when wanted (see
    /// [`Solver::count_with_rest`]).
    pub(crate) rest: Option<Vec<Subtree>>,
    /// The options' costs (DLX5), by option index; empty when every option costs 0.
    pub(crate) costs: Box<[u64]>,
    /// The problem's features that some method refuses, with their places (for the gate).
    pub(crate) features: Box<crate::gate::Features>,
}

/// A bit-set kernel, built for one problem.
#[derive(Debug)]
pub(crate) enum Sets {
    /// [`Kernel::BitsCounted`] or [`Kernel::BitsKept`].
    Bits(Bits),
    /// [`Kernel::BitsSliced`].
    Sliced(Sliced),
}

impl Sets {
    /// The kernel for `kernel` on the arena's problem, if it takes it (for
    /// [`Kernel::BitsSliced`], the one of [`Kernel::BitsKept`] if that one does not).
    pub(crate) fn new(arena: &Arena, kernel: Kernel) -> Option<Sets> {
        match kernel {
            Kernel::BitsSliced => match Sliced::new(arena) {
                Some(sliced) => Some(Sets::Sliced(sliced)),
                None => Bits::new(arena, true).map(Sets::Bits),
            },
            Kernel::BitsKept => Bits::new(arena, true).map(Sets::Bits),
            Kernel::BitsCounted => Bits::new(arena, false).map(Sets::Bits),
            Kernel::Links | Kernel::Auto => None,
        }
    }

    pub(crate) fn count(&self, job: CountJob<'_>) -> plumbing::Counted {
        match self {
            Sets::Bits(bits) => bits.count(job),
            Sets::Sliced(sliced) => sliced.count(job),
        }
    }
}

/// The nodes of each kernel's timed run when [`Kernel::Auto`] calibrates.
const CALIBRATION_NODES: u64 = 10_000;

/// The progress callback of the counts.
pub(crate) type Progress<'p> = &'p mut dyn FnMut(&Solver) -> ControlFlow<()>;

impl Solver {
    /// A solver for `problem` with the default configuration (MRV, no limits).
    pub fn new(problem: &Problem) -> Solver {
        Solver::with_config(problem, Config::default())
    }

    /// A solver for `problem` with the given configuration.
    pub fn with_config(problem: &Problem, config: Config) -> Solver {
        let arena = Arena::new(problem);
        let mcc = Mcc::new(problem, &arena);
        let colored = !arena.colors.is_empty();
        Solver {
            choice: vec![0; arena.n_primary as usize + 1],
            arena,
            config,
            stats: Stats::default(),
            prefix: Vec::new(),
            cap: usize::MAX,
            floor: 0,
            level: 0,
            phase: Phase::Fresh,
            last_stop: Stop::Exhausted,
            colored,
            bits: None,
            bits_kernel: None,
            bits_fraction: None,
            basis: Basis::Search,
            picked: None,
            mcc,
            rest: None,
            costs: if problem.has_costs() {
                problem.options().map(|o| problem.option_cost(o)).collect()
            } else {
                Box::default()
            },
            features: Box::new(crate::gate::Features::of(problem)),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Changes the configuration (abandoning a paused search).
    pub fn set_config(&mut self, config: Config) {
        self.abandon();
        if config.heuristic != self.config.heuristic {
            self.picked = None;
        }
        self.config = config;
    }

    /// The counters of the last search (or of the current one, from a visitor).
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Restricts later searches to the subtree reached by these choice indices: at level `l`
    /// the search takes the `prefix[l]`-th option (from 0, top to bottom) of the item the
    /// heuristic chooses. See [`Solver::prefixes`]. An empty prefix is the whole tree.
    ///
    /// The prefix is checked when the search starts; a bad one makes it end at once with no
    /// solution (use [`Solver::check_prefix`] to get the reason).
    pub fn set_prefix(&mut self, prefix: &[u32]) {
        self.abandon();
        self.prefix = prefix.to_vec();
    }

    /// Checks that `prefix` names a subtree of this problem under the current heuristic.
    pub fn check_prefix(&mut self, prefix: &[u32]) -> Result<(), PrefixError> {
        self.abandon();
        let saved = std::mem::replace(&mut self.prefix, prefix.to_vec());
        let result = self.apply_prefix().map(|_| ());
        self.undo_levels(self.level);
        self.prefix = saved;
        result
    }

    /// The choice prefixes of the subtrees at `depth` (under the current prefix, if any).
    ///
    /// Each returned prefix is either `depth` choices long and names a subtree, or shorter
    /// and ends in a solution reached above `depth`. Every solution lies under exactly one
    /// returned prefix, so the counts under all of them add up to the total count.
    pub fn prefixes(&mut self, depth: usize) -> Vec<Vec<u32>> {
        self.subtrees(depth).into_iter().map(|s| s.prefix).collect()
    }

    /// [`Solver::prefixes`] with each subtree's share of the tree (Knuth's estimate: the
    /// product of one over the number of options at each level of its prefix).
    pub fn subtrees(&mut self, depth: usize) -> Vec<Subtree> {
        struct Collect(Vec<Subtree>);
        impl Sink for Collect {
            fn solution(&mut self, _: Solution<'_>) -> ControlFlow<()> {
                ControlFlow::Continue(())
            }
            fn frontier(&mut self, solver: &Solver, level: usize) {
                let mut share = 1.0;
                let prefix = (0..level)
                    .map(|l| {
                        let (k, len) = solver.index_at(l);
                        share /= f64::from(len.max(1));
                        k
                    })
                    .collect();
                self.0.push(Subtree { prefix, share });
            }
        }
        let mut sink = Collect(Vec::new());
        // Solutions above the cap are reported through `frontier` as well (see `run`).
        self.cap = depth.max(self.prefix.len());
        let saved = std::mem::take(&mut self.config);
        self.config = Config::with_heuristic(saved.heuristic);
        self.config.budget.cancel = saved.budget.cancel.clone();
        self.start();
        let _ = self.run(&mut sink, true);
        self.cap = usize::MAX;
        self.config = saved;
        sink.0
    }

    /// The choice indices of levels `0..levels`: for each level, the position (from 0) of the
    /// option tried in its item's list.
    pub(crate) fn choice_indices(&self, levels: usize) -> Vec<u32> {
        (0..levels).map(|l| self.index_at(l).0).collect()
    }

    /// At level `l`: the position of the tried option in its item's list, and the list's length.
    pub(crate) fn index_at(&self, l: usize) -> (u32, u32) {
        if self.mcc.is_some() {
            return self.index_at_m(l);
        }
        let x = self.choice[l];
        let i = self.arena.node(x).top as u32;
        let mut k = 0;
        let mut p = self.arena.node(i).down;
        while p != x {
            k += 1;
            p = self.arena.nodes[p as usize].down;
        }
        (k, self.arena.len(i))
    }

    /// An estimate of the fraction of the tree explored so far, from the choice indices of the
    /// current levels (Knuth's progress estimate: the tried option `k` of `n` at each level).
    /// Meaningful during a search (from [`Visitor::tick`]): the subtrees left of the current
    /// path count as done, the current path's own subtree as half done.
    pub fn progress(&self) -> f64 {
        if let Some(fraction) = self.bits_fraction {
            return fraction;
        }
        let mut fraction = 0.0;
        let mut weight = 1.0;
        for l in self.prefix.len()..self.level {
            let (k, n) = self.index_at(l);
            weight /= f64::from(n.max(1));
            fraction += weight * f64::from(k);
        }
        fraction + weight / 2.0
    }

    /// What [`Solver::progress`] measures now: [`Basis::Search`] (the plain search's tree,
    /// on the links or on bit sets), [`Basis::Tree`] during a memoised count (its own tree)
    /// or [`Basis::Stages`] during a count by stages.
    pub fn progress_basis(&self) -> Basis {
        self.basis
    }

    /// The current depth of the search (for progress reports).
    pub fn level(&self) -> usize {
        self.level
    }

    /// Finds the first solution (in search order), or `None`.
    pub fn first(&mut self) -> Option<Vec<OptionId>> {
        let mut found = None;
        let _ = self.solve_with(|s| {
            found = Some(s.to_vec());
            ControlFlow::Break(())
        });
        found
    }

    /// The `k` best solutions by cost: Knuth's DLX5 (minimum-cost exact cover, branch and
    /// bound with taxes and lists sorted by cost), with stronger lower bounds
    /// ([`LowerBound::Auto`]: the linear relaxation's taxes where they give a higher bound
    /// at the root than DLX5's, and the item shares; see [`Solver::min_cost_with`]). With
    /// multiplicities, Algorithm M's tree with a cutoff (`cost_mcc.rs`).
    ///
    /// The cost of a solution is the sum of its options' costs
    /// ([`ProblemBuilder::option_with_cost`](crate::ProblemBuilder::option_with_cost); a
    /// problem without costs has every solution cost 0). The result lists at most `k`
    /// solutions, least cost first; it is proven when the search was not stopped by the
    /// configured node limit, time limit or cancel flag (or `max_solutions`, which counts the
    /// improving solutions met). The prefix and the kernel are not used.
    ///
    /// ```
    /// use dancecard_engine::{ProblemBuilder, Solver};
    ///
    /// let mut b = ProblemBuilder::new();
    /// let (x, y) = (b.primary("x")?, b.primary("y")?);
    /// b.option_with_cost([x, y], 5)?;
    /// b.option_with_cost([x], 1)?;
    /// b.option_with_cost([y], 2)?;
    /// let problem = b.build();
    /// let best = Solver::new(&problem).min_cost(2)?;
    /// let costs: Vec<u64> = best.best.iter().map(|s| s.cost).collect();
    /// assert_eq!(costs, [3, 5]);
    /// assert!(best.is_complete());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`CostError::Unsupported`] for a problem the [capability table](crate::gate) says
    /// min-cost does not handle (today it handles every kind).
    pub fn min_cost(&mut self, k: usize) -> Result<MinCost, CostError> {
        self.min_cost_with(k, LowerBound::default())
    }

    /// [`Solver::min_cost`] with the given lower bound: [`LowerBound::Dlx5`] walks DLX5's own
    /// tree (its nodes and updates), [`LowerBound::ItemShares`] cuts more of it, and
    /// [`LowerBound::Relaxation`] starts from the linear relaxation's taxes.
    ///
    /// # Errors
    ///
    /// [`CostError::Unsupported`] for a problem the [capability table](crate::gate) says
    /// min-cost does not handle (today it handles every kind).
    pub fn min_cost_with(&mut self, k: usize, bound: LowerBound) -> Result<MinCost, CostError> {
        self.min_cost_with_progress(k, bound, |_| ControlFlow::Continue(()))
    }

    /// [`Solver::min_cost_with`], calling `progress` about every
    /// [`Config::CHECK_INTERVAL`] nodes with the best cost so far and a proven lower bound
    /// (their gap: [`CostProgress::gap`]); `Break` stops the search ([`Stop::Cancelled`]),
    /// which returns the best found so far.
    ///
    /// # Errors
    ///
    /// As [`Solver::min_cost`].
    pub fn min_cost_with_progress<F>(
        &mut self,
        k: usize,
        bound: LowerBound,
        mut progress: F,
    ) -> Result<MinCost, CostError>
    where
        F: FnMut(&CostProgress) -> ControlFlow<()>,
    {
        self.check(crate::gate::Method::MinCost)?;
        self.start();
        if k == 0 {
            return Ok(MinCost {
                best: Vec::new(),
                stop: Stop::Exhausted,
                stats: Stats::default(),
                lower_bound: Some(0),
                bound,
                reason: String::new(),
            });
        }
        let tick: cost::CostTick<'_> = &mut progress;
        if self.mcc.is_some() {
            // Bounds: Algorithm M with a cutoff (`cost_mcc.rs`); `bound` does not apply.
            let started = std::time::Instant::now();
            let mut result = self.min_cost_m(k, tick);
            result.stats.elapsed = started.elapsed();
            self.stats = result.stats;
            self.last_stop = result.stop;
            return Ok(result);
        }
        // The taxes (the relaxation's ascent) count in the time.
        let started = std::time::Instant::now();
        let mut result = if bound == LowerBound::Auto {
            self.min_cost_auto(k, tick, cost::PROBE_NODES)
        } else {
            let arena =
                cost::CostArena::new(&self.arena, &self.costs, bound, &self.config.budget, None);
            self.min_cost_on(arena, &self.config, k, tick, None)
        };
        result.stats.elapsed = started.elapsed();
        self.stats = result.stats;
        self.last_stop = result.stop;
        Ok(result)
    }

    /// The search for the `k` best on `arena`'s taxes, on bit sets where they take the
    /// problem, with `config`'s limits, searching no solution costlier than `ceiling`.
    fn min_cost_on(
        &self,
        mut arena: cost::CostArena,
        config: &Config,
        k: usize,
        tick: cost::CostTick<'_>,
        ceiling: Option<u64>,
    ) -> MinCost {
        let bound = arena.taxed;
        let bits =
            (bound != LowerBound::Dlx5 && config.kernel != Kernel::Links && arena.n_primary > 0)
                .then(|| CostBits::new(&arena))
                .flatten();
        let job = cost::CostJob { config, k, tick, ceiling };
        let mut result = match bits {
            Some(bits) => cost_bits::search(&arena, &bits, job),
            None => cost::search(&mut arena, job, bound),
        };
        result.bound = bound;
        result.reason = std::mem::take(&mut arena.reason);
        result
    }

    /// [`LowerBound::Auto`]: the item shares on DLX5's taxes for the first `probe` nodes
    /// ([`cost::PROBE_NODES`]); a search that ends there is the answer (the ascent is not
    /// worth its cost on so small a tree). Otherwise, the first steps of the relaxation's
    /// ascent are measured against the best cost that probe found: where they close at least
    /// half of the gap at the root between DLX5's bound and that cost, the ascent goes on and
    /// the search runs on the relaxation's taxes (if they raise the bound); elsewhere on
    /// DLX5's. That search starts again from the root, needing no solution costlier than the
    /// probe's (its cutoff starts there), with what is left of the limits.
    fn min_cost_auto(&self, k: usize, tick: cost::CostTick<'_>, probe: u64) -> MinCost {
        let started = std::time::Instant::now();
        let budget = &self.config.budget;
        // Progress across the two searches: the best cost only falls, the bound only rises,
        // the nodes add up. `seen`: the best and the bound so far, the first search's nodes.
        let mut seen: (Option<u64>, u64, u64) = (None, 0, 0);
        let mut merged = |p: &CostProgress, seen: &mut (Option<u64>, u64, u64)| {
            let best = match (p.best, seen.0) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let bound = p.lower_bound.max(seen.1).min(best.unwrap_or(u64::MAX));
            (seen.0, seen.1) = (best, bound);
            let nodes = p.nodes + seen.2;
            tick(&CostProgress { best, lower_bound: bound, nodes, ..*p })
        };
        let user_nodes = budget.max_nodes.unwrap_or(u64::MAX);
        let mut probe_config = self.config.clone();
        probe_config.budget.max_nodes = Some(user_nodes.min(probe));
        let shares =
            cost::CostArena::new(&self.arena, &self.costs, LowerBound::ItemShares, budget, None);
        let mut first =
            self.min_cost_on(shares, &probe_config, k, &mut |p| merged(p, &mut seen), None);
        if first.stop != Stop::NodeLimit || user_nodes <= probe {
            first.reason = match first.stop {
                Stop::NodeLimit => "the node limit came within the first nodes".to_owned(),
                Stop::Exhausted => {
                    format!("the search on DLX5's taxes ended within its first {probe} nodes")
                }
                _ => "stopped within the first nodes".to_owned(),
            };
            return first;
        }
        seen.2 = first.stats.nodes;
        // What is left of the limits.
        let mut config = self.config.clone();
        let spent = started.elapsed();
        if let Some(t) = budget.time_limit {
            config.budget.time_limit = Some(t.saturating_sub(spent));
        }
        config.budget.max_nodes = budget.max_nodes.map(|n| n.saturating_sub(first.stats.nodes));
        config.budget.max_solutions =
            budget.max_solutions.map(|m| m.saturating_sub(first.stats.solutions));
        let ceiling = (first.best.len() == k).then(|| first.best[k - 1].cost);
        let arena = cost::CostArena::new(
            &self.arena,
            &self.costs,
            LowerBound::Auto,
            &config.budget,
            ceiling,
        );
        if let Some(t) = budget.time_limit {
            // The ascent's time too (it stopped within what was left).
            config.budget.time_limit = Some(t.saturating_sub(started.elapsed()));
        }
        let mut result =
            self.min_cost_on(arena, &config, k, &mut |p| merged(p, &mut seen), ceiling);
        result.stats.nodes += first.stats.nodes;
        result.stats.updates += first.stats.updates;
        result.stats.solutions += first.stats.solutions;
        if !result.is_complete() {
            // The best of both searches, each cover once; the better bound.
            for s in first.best {
                if !result
                    .best
                    .iter()
                    .any(|b| b.cost == s.cost && same_cover(&b.options, &s.options))
                {
                    result.best.push(s);
                }
            }
            result.best.sort_by_key(|s| s.cost);
            result.best.truncate(k);
            let best = result.best.first().map(|s| s.cost);
            result.lower_bound = match (result.lower_bound, first.lower_bound) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            }
            .map(|l| l.min(best.unwrap_or(u64::MAX)));
        }
        result
    }

    /// Counts the solutions (all of them, unless a limit stops the search first).
    ///
    /// The configured [`Kernel`] decides the data structure (the tree and the counters are
    /// the same on all).
    pub fn count(&mut self) -> Outcome {
        struct Count;
        impl Sink for Count {}
        self.start();
        if let Some(outcome) = self.count_fast(&mut |_| ControlFlow::Continue(())) {
            return outcome;
        }
        self.run(&mut Count, false)
    }

    /// Counts like [`Solver::count`], and calls `progress(self)` about every
    /// [`Config::CHECK_INTERVAL`] nodes (for a progress bar); returning `Break` cancels.
    pub fn count_with_progress<F>(&mut self, progress: F) -> Outcome
    where
        F: FnMut(&Solver) -> ControlFlow<()>,
    {
        let mut progress = progress;
        self.count_dyn(&mut progress)
    }

    /// [`Solver::count_with_progress`] behind a reference to the callback: one compiled copy
    /// of the search loop for every caller (a copy inlined into each caller's code ran up to
    /// 8% slower in one of them than in another, from the code's layout alone).
    #[inline(never)]
    pub(crate) fn count_dyn(&mut self, progress: Progress<'_>) -> Outcome {
        struct Ticks<'p, 'q>(&'q mut Progress<'p>);
        impl Visitor for Ticks<'_, '_> {
            fn tick(&mut self, solver: &Solver) -> ControlFlow<()> {
                (self.0)(solver)
            }
        }
        self.start();
        let mut progress = progress;
        if let Some(outcome) = self.count_fast(&mut |s| progress(s)) {
            return outcome;
        }
        self.visit(&mut Ticks(&mut progress))
    }

    /// Counts like [`Solver::count_with_progress`], and when a limit stops the count early
    /// (the node or time limit, the cancel flag, `Break` from `progress`), also returns the
    /// subtrees it did not search: the untried options of every level of the path it was
    /// on, and the node it was entering. They are disjoint and together exactly what was
    /// left, so counting them all (with [`Solver::set_prefix`], anywhere, in any order) and
    /// adding the count returned gives the whole count. Empty when the count is complete.
    /// This is how a budgeted job hands back its unfinished work (as in Avis and Jordan's
    /// mplrs), and how a stopped count can be resumed exactly.
    ///
    /// ```
    /// use dancecard_engine::{Budget, Config, ProblemBuilder, Solver};
    ///
    /// // 2^6 = 64 solutions: six items with two options each.
    /// let mut b = ProblemBuilder::new();
    /// for k in 0..6 {
    ///     let item = b.primary(&format!("i{k}"))?;
    ///     b.option([item])?;
    ///     b.option([item])?;
    /// }
    /// let problem = b.build();
    /// let mut solver = Solver::with_config(&problem, Config::with_budget(Budget::new().max_nodes(20)));
    /// let (first, rest) = solver.count_with_rest(|_| std::ops::ControlFlow::Continue(()));
    /// assert!(first.solutions < 64 && !rest.is_empty());
    /// let mut total = first.solutions;
    /// let mut full = Solver::new(&problem);
    /// for subtree in &rest {
    ///     full.set_prefix(&subtree.prefix);
    ///     total += full.count().solutions;
    /// }
    /// assert_eq!(total, 64);
    /// # Ok::<(), dancecard_engine::BuildError>(())
    /// ```
    pub fn count_with_rest<F>(&mut self, progress: F) -> (Outcome, Vec<Subtree>)
    where
        F: FnMut(&Solver) -> ControlFlow<()>,
    {
        self.rest = Some(Vec::new());
        let outcome = self.count_with_progress(progress);
        let rest = self.rest.take().unwrap_or_default();
        (outcome, rest)
    }

    /// The subtrees a search of the links stopped at `level` (entering it: levels
    /// `0..level` applied) did not search, levels below `floor` being fixed (the prefix, and
    /// any level whose untried options were given away); see [`Solver::count_with_rest`].
    pub(crate) fn links_rest(&self, floor: usize, level: usize) -> Vec<Subtree> {
        let fixed = self.choice_indices(floor);
        let levels = (0..level).map(|l| {
            let (k, len) = self.index_at(l);
            (len, len - k - 1)
        });
        plumbing::rest_of(&fixed, levels)
    }

    /// Counts on bit sets if that is the kernel configured or picked (see [`Kernel::Auto`]);
    /// `None` when the count is left to the links. Under `Auto`, a first count may end
    /// within the calibration: its outcome is then returned as it is.
    pub(crate) fn count_fast(&mut self, progress: Progress<'_>) -> Option<Outcome> {
        if self.mcc.is_some() {
            return self.count_fast_m(progress);
        }
        if self.config.heuristic == Heuristic::Ssxcc
            && self.prefix.is_empty()
            && self.rest.is_none()
        {
            // SSXCC's tree on the sparse sets (a count that must name the subtrees it left
            // runs on the links: subtrees are paths in their tree).
            let cells = crate::kernels::cells::Cells::new(&self.arena);
            return Some(self.count_outside(progress, |job| cells.count(job.config, job.tick)));
        }
        let kernel = match self.config.kernel {
            Kernel::Auto => match self.picked {
                Some(kernel) => kernel,
                None => match self.calibrate() {
                    Ok(outcome) => return Some(outcome),
                    Err(kernel) => kernel,
                },
            },
            kernel => kernel,
        };
        self.count_on_bits(kernel, progress)
    }

    /// Counts on the bit-set kernel `kernel`, calling `progress` every
    /// [`Config::CHECK_INTERVAL`] nodes with the stats and [`Solver::progress`] kept current;
    /// `None` if `kernel` is the links or the problem is not one the bit sets take.
    pub(crate) fn count_on_bits(
        &mut self,
        kernel: Kernel,
        progress: Progress<'_>,
    ) -> Option<Outcome> {
        if matches!(kernel, Kernel::Links | Kernel::Auto) {
            return None;
        }
        if self.bits_kernel != Some(kernel) {
            self.bits_kernel = Some(kernel);
            self.bits = Sets::new(&self.arena, kernel).map(Box::new);
        }
        let bits = self.bits.take()?;
        let outcome = self.count_outside(progress, |job| bits.count(job));
        self.bits = Some(bits);
        Some(outcome)
    }

    /// Runs `count`, a count on a kernel held outside the arena (the bit sets), with this
    /// solver's configuration, prefix and list of subtrees left; `progress` sees the stats and
    /// [`Solver::progress`] kept current. The count's stats and stop become the solver's.
    pub(crate) fn count_outside(
        &mut self,
        progress: Progress<'_>,
        count: impl FnOnce(CountJob<'_>) -> plumbing::Counted,
    ) -> Outcome {
        let config = self.config.clone();
        let prefix = self.prefix.clone();
        let mut rest = self.rest.take();
        if let Some(rest) = &mut rest {
            rest.clear();
        }
        let (outcome, stats) = count(CountJob {
            config: &config,
            prefix: &prefix,
            tick: &mut |fraction, stats| {
                self.stats = *stats;
                self.bits_fraction = Some(fraction);
                progress(self)
            },
            rest: rest.as_mut(),
        });
        self.rest = rest;
        self.bits_fraction = None;
        self.stats = stats;
        self.last_stop = outcome.stop;
        outcome
    }

    /// The kernel [`Kernel::Auto`] counts on for this solver's problem and heuristic,
    /// calibrating if it has not yet: the links when the problem is not one the bit sets
    /// take, or when it is so small that the calibration counts it all.
    #[cfg(feature = "parallel")]
    pub(crate) fn pick_kernel(&mut self) -> Kernel {
        if self.mcc.is_some() {
            return self.pick_kernel_m();
        }
        match self.config.kernel {
            Kernel::Auto => self.picked.unwrap_or_else(|| {
                self.start();
                // A count that ends within the calibration: the links will do.
                let kernel = self.calibrate().err().unwrap_or(Kernel::Links);
                self.start();
                kernel
            }),
            kernel => kernel,
        }
    }

    /// [`Kernel::Auto`]'s choice: counts the first [`CALIBRATION_NODES`] nodes on the links
    /// and on two bit-set kernels (kept `LEN`, bit-sliced where [`Kernel::BitsSliced`] takes
    /// the problem, and counted `LEN`), timed, and keeps the fastest for this solver. Returns
    /// `Ok` with the outcome if the first run was the whole count (a small problem, or the
    /// configured limits reached), `Err` with the kernel picked otherwise.
    ///
    /// The pick depends on the machine and its load, never the results: every kernel walks
    /// the same tree with the same counters.
    pub(crate) fn calibrate(&mut self) -> Result<Outcome, Kernel> {
        struct Count;
        impl Sink for Count {}
        if !Bits::takes(&self.arena) {
            self.picked = Some(Kernel::Links);
            return Err(Kernel::Links);
        }
        let saved = self.config.clone();
        let limit = saved.budget.max_nodes.unwrap_or(u64::MAX);
        let budget = CALIBRATION_NODES.min(limit);
        // Where the bit-sliced `LEN` applies, it does the work of the kept one with fewer
        // operations (a few per plane where the other scans the items), and it usually
        // wins: it runs first, and the runs after it are cut off as soon as they are slower
        // than the best so far (their time limit is looked at every `CHECK_INTERVAL` nodes).
        let kernels = if Sliced::takes(&self.arena) {
            [Kernel::BitsSliced, Kernel::Links, Kernel::BitsCounted]
        } else {
            [Kernel::Links, Kernel::BitsKept, Kernel::BitsCounted]
        };
        let mut best: Option<(Duration, Kernel)> = None;
        for kernel in kernels {
            self.start();
            let time_limit = match (saved.budget.time_limit, best) {
                (Some(t), Some((b, _))) => Some(t.min(b)),
                (t, b) => t.or(b.map(|b| b.0)),
            };
            let limits = Budget { max_nodes: Some(budget), time_limit, ..saved.budget.clone() };
            self.config = Config { kernel, budget: limits, ..saved.clone() };
            let started = Instant::now();
            let outcome = match kernel {
                Kernel::Links => Some(self.run(&mut Count, false)),
                kernel => self.count_on_bits(kernel, &mut |_| ControlFlow::Continue(())),
            };
            let time = started.elapsed();
            let Some(outcome) = outcome else { continue };
            if best.is_none() && (outcome.stop != Stop::NodeLimit || budget == limit) {
                // The first run was the whole count (a small problem, or the configured
                // limits reached).
                self.config = saved;
                return Ok(outcome);
            }
            if outcome.stop == Stop::NodeLimit && best.map_or(true, |b| time < b.0) {
                best = Some((time, kernel));
            }
        }
        let best = best.map_or(Kernel::Links, |b| b.1);
        self.config = saved;
        self.start();
        self.picked = Some(best);
        Err(best)
    }

    /// Calls `visit` with every solution until it returns `Break` or the search ends.
    pub fn solve_with<F>(&mut self, visit: F) -> Outcome
    where
        F: FnMut(Solution<'_>) -> ControlFlow<()>,
    {
        struct Visit<F>(F);
        impl<F: FnMut(Solution<'_>) -> ControlFlow<()>> Visitor for Visit<F> {
            fn solution(&mut self, solution: Solution<'_>) -> ControlFlow<()> {
                (self.0)(solution)
            }
        }
        self.visit(&mut Visit(visit))
    }

    /// Runs the search, reporting to `visitor`. Ends with [`Stop::Visitor`] if the visitor
    /// stopped it at a solution, [`Stop::Cancelled`] if it cancelled it from `tick`.
    pub fn visit<V: Visitor>(&mut self, visitor: &mut V) -> Outcome {
        struct Adapter<'v, V>(&'v mut V, bool);
        impl<V: Visitor> Sink for Adapter<'_, V> {
            fn solution(&mut self, solution: Solution<'_>) -> ControlFlow<()> {
                let flow = self.0.solution(solution);
                self.1 = flow.is_break();
                flow
            }
            fn tick(&mut self, solver: &Solver) -> ControlFlow<()> {
                self.0.tick(solver)
            }
            fn hungry(&self) -> bool {
                self.0.hungry()
            }
            fn donate(&mut self, units: Vec<Vec<u32>>, fraction: f64) {
                self.0.donate(units, fraction);
            }
        }
        self.start();
        let mut sink = Adapter(visitor, false);
        let outcome = self.run(&mut sink, false);
        if sink.1 {
            self.abandon();
            return Outcome { solutions: outcome.solutions, stop: Stop::Visitor };
        }
        outcome
    }

    /// All solutions as a lazy iterator: each `next` resumes the search where it paused.
    pub fn solutions(&mut self) -> Solutions<'_> {
        self.start();
        Solutions { solver: self, done: false }
    }

    /// Runs the search and records its events (at most `max_events`), for teaching tools.
    /// Returns the events and whether the search ended before the cap.
    pub fn trace(&mut self, max_events: usize) -> (Vec<(Event, u64)>, bool) {
        struct Trace {
            events: Vec<(Event, u64)>,
            max: usize,
        }
        impl Sink for Trace {
            const TRACE: bool = true;
            fn solution(&mut self, _: Solution<'_>) -> ControlFlow<()> {
                if self.events.len() >= self.max {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            }
            fn event(&mut self, event: Event, nodes: u64) {
                if self.events.len() < self.max {
                    self.events.push((event, nodes));
                }
            }
            fn tick(&mut self, _: &Solver) -> ControlFlow<()> {
                if self.events.len() >= self.max {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            }
        }
        self.start();
        let mut sink = Trace { events: Vec::new(), max: max_events };
        let outcome = self.run(&mut sink, false);
        self.abandon();
        let complete = outcome.is_complete() && sink.events.len() < max_events;
        (sink.events, complete)
    }

    /// The items of the problem in the order the arena keeps them (primaries first).
    pub(crate) fn item_id(&self, i: u32) -> ItemId {
        self.arena.item_ids[i as usize]
    }

    /// Gets ready for a new search: abandons a paused one and clears the counters.
    pub(crate) fn start(&mut self) {
        self.abandon();
        self.stats = Stats::default();
    }

    /// Undoes the levels of a paused search, restoring the arena (I5).
    pub(crate) fn abandon(&mut self) {
        if self.phase == Phase::AtSolution {
            self.undo_levels(self.level + 1);
            self.phase = Phase::Fresh;
        }
        self.level = 0;
    }

    /// Undoes levels `0..levels`, each with its item covered and its option's items covered.
    pub(crate) fn undo_levels(&mut self, levels: usize) {
        if self.mcc.is_some() {
            return self.undo_levels_m(levels);
        }
        for l in (0..levels).rev() {
            let x = self.choice[l];
            let i = self.arena.node(x).top as u32;
            if self.colored {
                self.arena.uncover_others::<true>(x);
                self.arena.uncover::<true>(i);
            } else {
                self.arena.uncover_others::<false>(x);
                self.arena.uncover::<false>(i);
            }
        }
    }

    /// Applies the prefix: returns `Ok(true)` if it ends in a solution. On error, the levels
    /// applied so far are `0..self.level`.
    pub(crate) fn apply_prefix(&mut self) -> Result<bool, PrefixError> {
        if self.mcc.is_some() {
            return self.apply_prefix_m();
        }
        self.level = 0;
        for (l, &k) in self.prefix.clone().iter().enumerate() {
            if self.arena.item(0).next == 0 {
                return Err(PrefixError::PastSolution { level: l.saturating_sub(1) });
            }
            let i = self.choose();
            let len = self.arena.len(i);
            if k >= len {
                return Err(PrefixError::OutOfRange { level: l, index: k, len });
            }
            let mut x = self.arena.node(i).down;
            for _ in 0..k {
                x = self.arena.node(x).down;
            }
            self.choice[l] = x;
            if self.colored {
                self.stats.updates += self.arena.cover::<true>(i);
                self.stats.updates += self.arena.cover_others::<true>(x);
            } else {
                self.stats.updates += self.arena.cover::<false>(i);
                self.stats.updates += self.arena.cover_others::<false>(x);
            }
            self.level = l + 1;
        }
        Ok(!self.prefix.is_empty() && self.arena.item(0).next == 0)
    }

    /// X3: the item to branch on, by the configured heuristic.
    #[inline(always)]
    pub(crate) fn choose(&self) -> u32 {
        let first = self.arena.item(0).next;
        match self.config.heuristic {
            Heuristic::Leftmost => first,
            Heuristic::Mrv | Heuristic::Ssxcc => {
                let mut best = first;
                let mut t = u32::MAX;
                let mut k = first;
                // Branch-free selection (conditional moves): which item is shorter is data
                // the branch predictor cannot learn. An empty item ends the scan at once.
                while k != 0 {
                    let len = self.arena.len(k);
                    let shorter = len < t;
                    best = if shorter { k } else { best };
                    t = if shorter { len } else { t };
                    if len == 0 {
                        break;
                    }
                    k = self.arena.item(k).next;
                }
                best
            }
        }
    }

    pub(crate) fn run<S: Sink>(&mut self, sink: &mut S, listing: bool) -> Outcome {
        let started = Instant::now();
        let outcome = if self.mcc.is_some() {
            self.run_m(sink, listing)
        } else if self.colored {
            self.run_x::<true, S>(sink, listing)
        } else {
            self.run_x::<false, S>(sink, listing)
        };
        self.stats.elapsed += started.elapsed();
        self.last_stop = outcome.stop;
        outcome
    }

    /// The look a links kernel (Algorithms X, C and M) takes every [`Config::CHECK_INTERVAL`]
    /// nodes, entering `level` after `nodes` nodes above `floor`: the limits
    /// ([`Limits::expired`]), the sink's tick, and, when the sink is hungry, the untried
    /// subtrees that `split` splits off, given away. `Ok` with the floor to search on (moved
    /// up past what was given away), or `Err` with the stop that ends the search. Out of line:
    /// it runs once per thousand nodes (and takes and returns the floor by value, so that the
    /// loop keeps it in a register).
    #[cold]
    #[inline(never)]
    pub(crate) fn poll<S: Sink>(
        &mut self,
        sink: &mut S,
        limits: &Limits<'_>,
        at: (u64, usize, usize),
        split: fn(&Solver, usize, usize) -> Option<Donation>,
    ) -> Result<usize, Stop> {
        let (nodes, level, floor) = at;
        self.stats.nodes = nodes;
        self.level = level;
        if let Some(stop) = limits.expired() {
            return Err(stop);
        }
        if sink.tick(self).is_break() {
            return Err(Stop::Cancelled);
        }
        if sink.hungry() {
            if let Some((new_floor, units, fraction)) = split(self, level, floor) {
                sink.donate(units, fraction);
                return Ok(new_floor);
            }
        }
        Ok(floor)
    }

    /// Splits off the untried options of the shallowest level in `floor..level` that has any:
    /// returns the new floor (that level plus one), their choice prefixes, and the estimated
    /// fraction of this search's tree that they hold.
    pub(crate) fn split_off(&self, level: usize, floor: usize) -> Option<Donation> {
        let l = (floor..level).find(|&l| {
            let x = self.choice[l];
            self.arena.node(x).down != self.arena.node(x).top as u32
        })?;
        Some(self.split_off_at(l))
    }

    /// Splits off the untried moves of level `l`, which has some: the new floor `l + 1`,
    /// their choice prefixes, and the estimated fraction of this search's tree that they hold.
    pub(crate) fn split_off_at(&self, l: usize) -> (usize, Vec<Vec<u32>>, f64) {
        let path = self.choice_indices(l);
        let (k, len) = self.index_at(l);
        let mut fraction = f64::from(len - k - 1) / f64::from(len);
        for j in self.prefix.len()..l {
            fraction /= f64::from(self.index_at(j).1.max(1));
        }
        let units = (k + 1..len)
            .map(|j| {
                let mut unit = path.clone();
                unit.push(j);
                unit
            })
            .collect();
        (l + 1, units, fraction)
    }

    /// Whether `method` handles this solver's problem (the [capability table](crate::gate)).
    ///
    /// # Errors
    ///
    /// [`Unsupported`](crate::Unsupported), naming the feature the method does not handle
    /// and where the problem has it.
    pub fn check(&self, method: crate::gate::Method) -> Result<(), crate::gate::Unsupported> {
        self.features.check(method)
    }

    /// Checks the arena's invariants (I1)-(I3), panicking with the broken one's number.
    pub fn check_invariants(&self) {
        self.arena.check_invariants();
        self.check_invariants_m();
    }

    /// Whether the arena is back in its initial state (I5), compared with a fresh build.
    pub fn is_pristine(&self, problem: &Problem) -> bool {
        self.arena == Arena::new(problem) && self.mcc.as_ref().map_or(true, |m| m.is_pristine())
    }
}

/// The lazy iterator of [`Solver::solutions`]; each item is a solution's options, level by level.
#[derive(Debug)]
pub struct Solutions<'s> {
    solver: &'s mut Solver,
    done: bool,
}

impl Solutions<'_> {
    /// The search's counters so far.
    pub fn stats(&self) -> &Stats {
        self.solver.stats()
    }

    /// How the search ended, once the iterator has returned `None`.
    pub fn outcome(&self) -> Option<Stop> {
        self.done.then_some(self.solver.last_stop)
    }
}

impl Iterator for Solutions<'_> {
    type Item = Vec<OptionId>;

    fn next(&mut self) -> Option<Vec<OptionId>> {
        if self.done {
            return None;
        }
        struct Take(Option<Vec<OptionId>>);
        impl Sink for Take {
            fn solution(&mut self, solution: Solution<'_>) -> ControlFlow<()> {
                self.0 = Some(solution.to_vec());
                ControlFlow::Break(())
            }
        }
        let mut take = Take(None);
        let _ = self.solver.run(&mut take, false);
        // Paused at a solution, or finished (the arena restored, `last_stop` recorded).
        self.done = self.solver.phase == Phase::Fresh;
        take.0
    }
}

/// Whether two lists of options are the same cover (the same options, in any order).
fn same_cover(a: &[OptionId], b: &[OptionId]) -> bool {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Entry, ProblemBuilder};

    /// Random problems with costs (up to 12 options on up to 6 primary and 2 secondary
    /// items, colored or not), their `k` least costs by brute force.
    fn costed_problems() -> Vec<(Problem, Vec<u64>)> {
        let mut rng = crate::SplitMix64::new(30);
        let mut out = Vec::new();
        for case in 0..300 {
            let (n1, n2) = (1 + rng.next_u64() % 6, rng.next_u64() % 3);
            let mut b = ProblemBuilder::new();
            let primary: Vec<_> = (0..n1).map(|i| b.primary(&format!("p{i}")).unwrap()).collect();
            let secondary: Vec<_> =
                (0..n2).map(|i| b.secondary(&format!("s{i}")).unwrap()).collect();
            let palette = [b.color("a").unwrap(), b.color("b").unwrap()];
            let mut options = Vec::new();
            for _ in 0..(1 + rng.next_u64() % 12) {
                let mut items: Vec<(usize, u32)> = Vec::new();
                for (j, _) in primary.iter().enumerate() {
                    if rng.next_u64() % 3 == 0 {
                        items.push((j, 0));
                    }
                }
                for (j, _) in secondary.iter().enumerate() {
                    if rng.next_u64() % 3 == 0 {
                        let color = if case % 2 == 0 { 0 } else { 1 + (rng.next_u64() % 2) as u32 };
                        items.push((primary.len() + j, color));
                    }
                }
                if !items.iter().any(|&(j, _)| j < primary.len()) {
                    items.insert(0, ((rng.next_u64() % n1) as usize, 0));
                }
                let cost = rng.next_u64() % 10;
                let entries = items.iter().map(|&(j, c)| match (j < primary.len(), c) {
                    (true, _) => Entry::plain(primary[j]),
                    (false, 0) => Entry::plain(secondary[j - primary.len()]),
                    (false, c) => {
                        Entry::colored(secondary[j - primary.len()], palette[c as usize - 1])
                    }
                });
                b.option_with_cost(entries, cost).unwrap();
                options.push((items, cost));
            }
            // Brute force: every set of options covering each primary item once, no secondary
            // item twice in two colors (or twice uncolored).
            let mut costs = Vec::new();
            for set in 0u32..(1 << options.len()) {
                let mut times = vec![0; primary.len()];
                let mut colors: Vec<Option<u32>> = vec![None; secondary.len()];
                let mut ok = true;
                let mut total = 0;
                for (o, (items, cost)) in options.iter().enumerate() {
                    if set >> o & 1 == 0 {
                        continue;
                    }
                    total += cost;
                    for &(j, c) in items {
                        if j < primary.len() {
                            times[j] += 1;
                        } else {
                            let seen = &mut colors[j - primary.len()];
                            ok &= match *seen {
                                Some(d) => c != 0 && c == d,
                                None => true,
                            };
                            *seen = Some(c);
                        }
                    }
                }
                if ok && times.iter().all(|&t| t == 1) {
                    costs.push(total);
                }
            }
            costs.sort_unstable();
            out.push((b.build(), costs));
        }
        out
    }

    /// `Auto` past its probe (of 0 to 3 nodes here, so that these small problems reach the
    /// second search, its ceiling and the merge): the brute force's least costs, and a
    /// progress whose best only falls and whose bound only rises, never past the least cost.
    #[test]
    fn auto_past_its_probe_finds_the_least_costs() {
        for (problem, costs) in costed_problems() {
            for k in 1..=3 {
                for probe in 0..4 {
                    let solver = Solver::new(&problem);
                    let (mut best, mut bound) = (u64::MAX, 0);
                    let least = costs.first().copied();
                    let mut tick = |p: &CostProgress| {
                        let b = p.best.unwrap_or(u64::MAX);
                        assert!(b <= best && p.lower_bound >= bound, "{p:?}");
                        assert!(least.is_none_or(|l| p.lower_bound <= l), "{p:?} {least:?}");
                        (best, bound) = (b, p.lower_bound);
                        ControlFlow::Continue(())
                    };
                    let result = solver.min_cost_auto(k, &mut tick, probe);
                    let found: Vec<u64> = result.best.iter().map(|s| s.cost).collect();
                    let want: Vec<u64> = costs.iter().copied().take(k).collect();
                    assert_eq!(found, want, "k {k} probe {probe}: {problem:?}");
                    assert!(result.is_complete());
                    assert_ne!(result.bound, LowerBound::Auto);
                    for s in &result.best {
                        assert_eq!(problem.cost_of(&s.options), s.cost);
                        problem.verify(&s.options).unwrap();
                    }
                }
            }
        }
    }

    // See: #16 (found by the `matrix` fuzz target on the matrix `0 0`).
    #[test]
    fn issue_16_prefixes_of_a_problem_without_primary_items() {
        let mut secondary_only = ProblemBuilder::new();
        secondary_only.secondary("x").unwrap();
        for problem in [ProblemBuilder::new().build(), secondary_only.build()] {
            let mut solver = Solver::new(&problem);
            assert_eq!(solver.count().solutions, 1, "the empty set is a solution");
            for depth in 0..3 {
                // The root is the one subtree, and it holds the empty solution.
                let units = solver.prefixes(depth);
                assert_eq!(units, [Vec::<u32>::new()], "depth {depth}");
                solver.set_prefix(&units[0]);
                assert_eq!(solver.count().solutions, 1);
                solver.set_prefix(&[]);
            }
            assert!(solver.is_pristine(&problem));
        }
    }
}
