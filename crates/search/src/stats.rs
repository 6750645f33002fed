//! Budget, counters and results shared by every algorithm.

use std::time::{Duration, Instant};

use crate::space::Cost;

/// The limits of a search: the project's one budget (from `dancecard-budget`, shared with
/// the exact cover engine and the models). The heuristic searches read `max_nodes`
/// (generated nodes, [`Stop::NodeLimit`]), `max_states` (the memory guard of BFS,
/// bidirectional BFS and A*: IDA* and IDDFS store only the current path,
/// [`Stop::MemoryLimit`]), `max_cost` (IDA* and IDDFS stop deepening past this cost or depth,
/// BFS and bidirectional BFS past this many moves, A* past this f: [`Stop::CostLimit`]),
/// `time_limit` ([`Stop::TimeLimit`]) and `cancel` ([`Stop::Cancelled`]), the last two polled
/// every few thousand nodes. They find one path: `max_solutions` does not apply.
///
/// ```
/// use std::sync::{atomic::AtomicBool, Arc};
/// use dancecard_search::Budget;
///
/// let cancel = Arc::new(AtomicBool::new(false));
/// let limits = Budget::new().max_nodes(1_000_000).max_states(100_000).cancel(cancel);
/// assert_eq!(limits.max_nodes, Some(1_000_000));
/// ```
pub use dancecard_budget::Budget;

/// The budget as numbers for the hot loops, and its polls.
pub(crate) trait Bounds {
    /// The node budget as a number (`u64::MAX` when unlimited).
    fn node_budget(&self) -> u64;
    /// The stored-state budget as a number.
    fn state_budget(&self) -> usize;
    /// The cost bound as a number.
    fn cost_bound(&self) -> Cost;
    /// Why a search started at `started` must stop now, if it must: the cancel flag, or the
    /// time limit.
    fn interrupted(&self, started: Instant) -> Option<Stop>;
}

impl Bounds for Budget {
    fn node_budget(&self) -> u64 {
        self.max_nodes.unwrap_or(u64::MAX)
    }

    fn state_budget(&self) -> usize {
        self.max_states.unwrap_or(usize::MAX)
    }

    fn cost_bound(&self) -> Cost {
        self.max_cost.unwrap_or(Cost::MAX)
    }

    #[cold]
    #[inline(never)]
    fn interrupted(&self, started: Instant) -> Option<Stop> {
        if self.is_cancelled() {
            Some(Stop::Cancelled)
        } else if self.time_limit.is_some_and(|limit| started.elapsed() >= limit) {
            Some(Stop::TimeLimit)
        } else {
            None
        }
    }
}

/// How often (in expanded nodes, a power of two) the algorithms poll the cancel flag.
pub(crate) const POLL_MASK: u64 = (1 << 12) - 1;

/// Why a search stopped: the project's one stop vocabulary (from `dancecard-budget`, shared
/// with the exact cover engine and the models). A heuristic search ends with
/// [`Stop::Found`] (a goal was reached: the result holds an optimal path for the algorithm's
/// measure), [`Stop::Exhausted`] (no goal is reachable), [`Stop::CostLimit`] (no goal within
/// [`Budget::max_cost`]), [`Stop::NodeLimit`] ([`Budget::max_nodes`]), [`Stop::MemoryLimit`]
/// ([`Budget::max_states`]), [`Stop::TimeLimit`] or [`Stop::Cancelled`]; [`Stop::is_answered`] says whether it
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
