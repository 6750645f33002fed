//! Why a search stopped: the one stop vocabulary of dancecard.
//!
//! Every solver of the project ends with a [`Stop`]: the exact cover engine and its kernels,
//! the sudoku solvers, the target sudoku's branch and bound, the heuristic searches (IDA*,
//! A*, BFS, ...). Each solver returns the reasons that can happen to it (the engine never
//! returns [`Stop::Found`], a heuristic search never [`Stop::SolutionLimit`]), and the front
//! ends (the command line, the web API, the Python package, the shard files) word all of
//! them from one table: [`Stop::name`].
//!
//! The crate depends on nothing, so that every other crate, the engine and the heuristic
//! search alike, can depend on it.
//!
//! ```
//! use dancecard_budget::Stop;
//!
//! let stop = Stop::from_name("node-limit").unwrap();
//! assert_eq!(stop, Stop::NodeLimit);
//! assert!(!stop.is_answered()); // cut short: what it found is partial
//! assert!(Stop::Found.is_answered() && !Stop::Found.is_complete());
//! assert_eq!(Stop::TimeLimit.to_string(), "time-limit");
//! ```

#![deny(missing_docs)]

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
