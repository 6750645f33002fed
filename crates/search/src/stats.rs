//! Limits, counters and results shared by every algorithm.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::space::Cost;

/// Bounds on a search. All are off by default.
///
/// ```
/// use std::sync::{atomic::AtomicBool, Arc};
/// use dancecard_search::Limits;
///
/// let cancel = Arc::new(AtomicBool::new(false));
/// let limits = Limits::new().max_nodes(1_000_000).max_states(100_000).cancel(cancel);
/// assert_eq!(limits.node_limit(), Some(1_000_000));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Limits {
    max_nodes: Option<u64>,
    max_states: Option<usize>,
    max_cost: Option<Cost>,
    cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// No limits.
    pub fn new() -> Limits {
        Limits::default()
    }

    /// Stops after `n` generated nodes ([`Stop::NodeLimit`]).
    #[must_use]
    pub fn max_nodes(mut self, n: u64) -> Limits {
        self.max_nodes = Some(n);
        self
    }

    /// Stops when more than `n` states would be stored ([`Stop::MemoryLimit`]): the memory
    /// guard of BFS, bidirectional BFS and A* (IDA* and IDDFS store only the current path).
    #[must_use]
    pub fn max_states(mut self, n: usize) -> Limits {
        self.max_states = Some(n);
        self
    }

    /// IDA* and IDDFS stop deepening past this cost or depth ([`Stop::CostLimit`]); BFS and
    /// bidirectional BFS stop past this many moves, A* past this f.
    #[must_use]
    pub fn max_cost(mut self, cost: Cost) -> Limits {
        self.max_cost = Some(cost);
        self
    }

    /// Stops soon after `flag` becomes true ([`Stop::Cancelled`]); it is polled every few
    /// thousand nodes.
    #[must_use]
    pub fn cancel(mut self, flag: Arc<AtomicBool>) -> Limits {
        self.cancel = Some(flag);
        self
    }

    /// The node budget, if any.
    pub fn node_limit(&self) -> Option<u64> {
        self.max_nodes
    }

    /// The stored-state budget, if any.
    pub fn state_limit(&self) -> Option<usize> {
        self.max_states
    }

    /// The cost bound, if any.
    pub fn cost_limit(&self) -> Option<Cost> {
        self.max_cost
    }

    /// Whether the cancel flag is set.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// The node budget as a number (`u64::MAX` when unlimited), for hot loops.
    pub(crate) fn node_budget(&self) -> u64 {
        self.max_nodes.unwrap_or(u64::MAX)
    }

    /// The stored-state budget as a number.
    pub(crate) fn state_budget(&self) -> usize {
        self.max_states.unwrap_or(usize::MAX)
    }

    /// The cost bound as a number.
    pub(crate) fn cost_bound(&self) -> Cost {
        self.max_cost.unwrap_or(Cost::MAX)
    }
}

/// How often (in expanded nodes, a power of two) the algorithms poll the cancel flag.
pub(crate) const POLL_MASK: u64 = (1 << 12) - 1;

/// Why a search stopped: the project's one stop vocabulary (from `dancecard-budget`, shared
/// with the exact cover engine and the models). A heuristic search ends with
/// [`Stop::Found`] (a goal was reached: the result holds an optimal path for the algorithm's
/// measure), [`Stop::Exhausted`] (no goal is reachable), [`Stop::CostLimit`] (no goal within
/// [`Limits::max_cost`]), [`Stop::NodeLimit`] ([`Limits::max_nodes`]), [`Stop::MemoryLimit`]
/// ([`Limits::max_states`]) or [`Stop::Cancelled`]; [`Stop::is_answered`] says whether it
/// answered the question (the first three).
pub use dancecard_budget::Stop;

/// Work counters of a search. They do not depend on the machine (except `elapsed`), so they
/// are the numbers to compare between algorithms and heuristics.
///
/// A node is *expanded* when its successors are computed and *generated* when it is produced
/// as a successor. IDA* and IDDFS do not generate the parent of a node again (the move that
/// undoes the last one), so their counts are those of Korf's papers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes whose successors were computed.
    pub expanded: u64,
    /// Nodes produced as successors (the start state not included).
    pub generated: u64,
    /// The most states stored at once (BFS, bidirectional BFS, A*), or the deepest path
    /// (IDA*, IDDFS).
    pub stored: usize,
    /// Iterations of IDA* or IDDFS (1 for the others).
    pub iterations: u32,
    /// The last bound searched by IDA* (cost) or IDDFS (depth); the last depth for BFS.
    pub bound: Cost,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl Stats {
    /// Generated nodes per second (0 when no time was measured).
    pub fn nodes_per_second(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.generated as f64 / secs
        } else {
            0.0
        }
    }

    /// Counts an iteration of iterative deepening with `bound` (IDA*'s cost bound), unless
    /// `bound` passes `max_cost`: then `false`, and the search stops at the cost limit.
    pub(crate) fn next_iteration(&mut self, bound: Cost, max_cost: Cost) -> bool {
        if bound > max_cost {
            return false;
        }
        self.iterations += 1;
        self.bound = bound;
        true
    }

    /// Adds another search's counters to these (for batches).
    pub fn add(&mut self, other: &Stats) {
        self.expanded += other.expanded;
        self.generated += other.generated;
        self.stored = self.stored.max(other.stored);
        self.iterations += other.iterations;
        self.bound = self.bound.max(other.bound);
        self.elapsed += other.elapsed;
    }
}

/// A path from the start to a goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Path<M> {
    /// The moves, in order.
    pub moves: Vec<M>,
    /// The sum of their costs.
    pub cost: Cost,
}

/// What a search returns: the path (when one was found), why it stopped, and its counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The path found, optimal for the algorithm's measure: cost for A* and IDA*, number of
    /// moves for BFS, bidirectional BFS and IDDFS. `Some` exactly when `stop` is
    /// [`Stop::Found`].
    pub path: Option<Path<M>>,
    /// Why the search stopped.
    pub stop: Stop,
    /// Work counters.
    pub stats: Stats,
}

impl<M> SearchResult<M> {
    /// The result of a search started at `started`: its counters get the time elapsed.
    pub(crate) fn finish(
        path: Option<Path<M>>,
        stop: Stop,
        mut stats: Stats,
        started: Instant,
    ) -> Self {
        stats.elapsed = started.elapsed();
        SearchResult { path, stop, stats }
    }
}
