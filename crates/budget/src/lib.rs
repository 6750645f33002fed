//! When a search stops and why: the one budget and the one stop vocabulary of dancecard.
//!
//! Every solver of the project reads its limits from one [`Budget`], which each front end
//! (the command line, the web API, the Python package, the shard and MPI workers) builds
//! once, and ends with a [`Stop`]: the exact cover engine and its kernels, the sudoku
//! solvers, the target sudoku's branch and bound, the heuristic searches (IDA*, A*, BFS, ...).
//! Each solver reads the limits that mean something to it (see each field of [`Budget`]) and
//! returns the reasons that can happen to it (the engine never returns [`Stop::Found`], a
//! heuristic search never [`Stop::SolutionLimit`]); the front ends word all of them from one
//! table: [`Stop::name`].
//!
//! The crate depends on nothing, so that every other crate, the engine and the heuristic
//! search alike, can depend on it.
//!
//! ```
//! use std::time::Duration;
//! use dancecard_budget::{Budget, Stop};
//!
//! let budget = Budget::new().max_nodes(1_000_000).time_limit(Duration::from_secs(10));
//! assert_eq!(budget.max_nodes, Some(1_000_000));
//! assert!(!budget.is_cancelled()); // no cancel flag
//!
//! let stop = Stop::from_name("node-limit").unwrap();
//! assert_eq!(stop, Stop::NodeLimit);
//! assert!(!stop.is_answered()); // cut short: what it found is partial
//! assert!(Stop::Found.is_answered() && !Stop::Found.is_complete());
//! assert_eq!(Stop::TimeLimit.to_string(), "time-limit");
//! ```

#![deny(missing_docs)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Builder methods of [`Budget`], one per limit: `name(value)` sets the field `name`.
macro_rules! setters {
    ($($(#[$doc:meta])* $name:ident($arg:ident: $ty:ty) = $value:expr;)*) => {$(
        $(#[$doc])*
        #[must_use]
        pub fn $name(mut self, $arg: $ty) -> Budget {
            self.$name = $value;
            self
        }
    )*};
}

/// The limits of a search. All are off by default; past any of them the search stops with
/// what it found and says why ([`Stop`]).
///
/// Each solver reads the limits that mean something to it:
///
/// | limit | read by | stop |
/// |---|---|---|
/// | `max_solutions` | the exact cover engine, the sudoku solvers | [`Stop::SolutionLimit`] |
/// | `max_nodes` | every solver | [`Stop::NodeLimit`] |
/// | `time_limit` | every solver | [`Stop::TimeLimit`] |
/// | `max_states` | BFS, bidirectional BFS, A* | [`Stop::MemoryLimit`] |
/// | `max_cost` | the heuristic searches | [`Stop::CostLimit`] |
/// | `cancel` | every solver | [`Stop::Cancelled`] |
///
/// A solver that cannot honour a limit it is given refuses the request (the engine's
/// memoised count refuses `max_solutions`, for one) rather than ignore it.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// Stop after this many solutions (with 0, no search is made).
    pub max_solutions: Option<u128>,
    /// Stop before entering more than this many search-tree nodes.
    pub max_nodes: Option<u64>,
    /// Stop this long after the search starts (looked at every thousand nodes or so).
    pub time_limit: Option<Duration>,
    /// Stop when more than this many states would be stored: the memory guard of the
    /// searches that store states (IDA* and IDDFS store only the current path).
    pub max_states: Option<usize>,
    /// Stop deepening past this cost or depth (IDA*, IDDFS), past this many moves (BFS,
    /// bidirectional BFS) or past this f (A*).
    pub max_cost: Option<u64>,
    /// Stop soon after this flag becomes true (Ctrl-C, a timer, a client gone, a caller's
    /// flag); looked at like the time limit.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// No limits.
    pub fn new() -> Budget {
        Budget::default()
    }

    setters! {
        /// With a solution limit.
        max_solutions(n: u128) = Some(n);
        /// With a node limit.
        max_nodes(n: u64) = Some(n);
        /// With a time limit.
        time_limit(limit: Duration) = Some(limit);
        /// With a bound on stored states.
        max_states(n: usize) = Some(n);
        /// With a cost or depth bound.
        max_cost(cost: u64) = Some(cost);
        /// With a cancel flag.
        cancel(flag: Arc<AtomicBool>) = Some(flag);
    }

    /// Whether the cancel flag is raised.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// The instant the time limit passes for a search started at `start` (`None` without a
    /// time limit, or past the end of the clock).
    pub fn deadline(&self, start: Instant) -> Option<Instant> {
        self.time_limit.and_then(|limit| start.checked_add(limit))
    }

    /// This budget with its node and time limits lowered by what a search that started at
    /// `started` and searched `nodes` nodes has spent: the budget of a search that goes on
    /// from where it stopped.
    #[must_use]
    pub fn less(&self, nodes: u64, started: Instant) -> Budget {
        Budget {
            max_nodes: self.max_nodes.map(|m| m.saturating_sub(nodes)),
            time_limit: self.time_limit.map(|t| t.saturating_sub(started.elapsed())),
            ..self.clone()
        }
    }
}

/// Why a search ended.
///
/// Two questions tell the reasons apart: was the whole space searched
/// ([`Stop::is_complete`]), and did the search give all that was asked of it
/// ([`Stop::is_answered`]), as opposed to being cut short by a budget, a cancel or its
/// caller?
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stop {
    /// The whole tree (or the whole reachable space) was searched: the results are complete.
    Exhausted,
    /// A goal was reached: a heuristic search holds an optimal path (for its measure).
    Found,
    /// The number of solutions asked for was found.
    SolutionLimit,
    /// No goal within the cost or depth bound of a heuristic search.
    CostLimit,
    /// The node budget ran out (a count is then a lower bound).
    NodeLimit,
    /// The time limit passed.
    TimeLimit,
    /// The bound on stored states was reached (BFS, bidirectional BFS and A*).
    MemoryLimit,
    /// The cancel flag was raised (Ctrl-C, a closed connection, a caller's flag).
    Cancelled,
    /// The visitor (the caller's callback) asked to stop.
    Visitor,
}

impl Stop {
    /// Every stop reason, in declaration order.
    pub const ALL: [Stop; 9] = [
        Stop::Exhausted,
        Stop::Found,
        Stop::SolutionLimit,
        Stop::CostLimit,
        Stop::NodeLimit,
        Stop::TimeLimit,
        Stop::MemoryLimit,
        Stop::Cancelled,
        Stop::Visitor,
    ];

    /// Whether the whole tree was searched.
    pub fn is_complete(self) -> bool {
        self == Stop::Exhausted
    }

    /// Whether the search gave all that was asked of it: it searched the whole space, found
    /// its goal, stopped at the number of solutions asked for, or proved that no goal lies
    /// within its cost bound. False when a node, time or memory budget, a cancel or the
    /// visitor cut it short: its results are partial.
    pub fn is_answered(self) -> bool {
        matches!(self, Stop::Exhausted | Stop::Found | Stop::SolutionLimit | Stop::CostLimit)
    }

    /// The reason's name, as the command line, the web API, the Python package and the
    /// shard files write it: `exhausted`, `found`, `solution-limit`, `cost-limit`,
    /// `node-limit`, `time-limit`, `memory-limit`, `cancelled` or `visitor`
    /// ([`Stop::from_name`] reads it back).
    pub fn name(self) -> &'static str {
        match self {
            Stop::Exhausted => "exhausted",
            Stop::Found => "found",
            Stop::SolutionLimit => "solution-limit",
            Stop::CostLimit => "cost-limit",
            Stop::NodeLimit => "node-limit",
            Stop::TimeLimit => "time-limit",
            Stop::MemoryLimit => "memory-limit",
            Stop::Cancelled => "cancelled",
            Stop::Visitor => "visitor",
        }
    }

    /// The stop reason named `name` by [`Stop::name`], if any.
    pub fn from_name(name: &str) -> Option<Stop> {
        Stop::ALL.into_iter().find(|stop| stop.name() == name)
    }
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::Stop;

    #[test]
    fn names_are_distinct_and_read_back() {
        for stop in Stop::ALL {
            assert_eq!(Stop::from_name(stop.name()), Some(stop));
            assert_eq!(Stop::ALL.iter().filter(|s| s.name() == stop.name()).count(), 1);
        }
        assert_eq!(Stop::from_name("Exhausted"), None);
    }

    #[test]
    fn complete_implies_answered() {
        for stop in Stop::ALL {
            assert!(!stop.is_complete() || stop.is_answered(), "{stop}");
        }
        let cut =
            [Stop::NodeLimit, Stop::TimeLimit, Stop::MemoryLimit, Stop::Cancelled, Stop::Visitor];
        for stop in cut {
            assert!(!stop.is_answered(), "{stop}");
        }
    }
}
