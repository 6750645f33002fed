//! Work counters of a search.

use std::time::Duration;

/// What a search did, counted the way Knuth's DLX1 counts it (see the arena's cost model).
///
/// Nodes and updates do not depend on the machine: they are the numbers to compare between
/// programs and runs; `elapsed` is the wall-clock time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Search-tree nodes: one each time a level is entered (the root included), plus one per
    /// solution.
    pub nodes: u64,
    /// Link removals: one per item covered, one per option node hidden.
    pub updates: u64,
    /// Solutions found.
    pub solutions: u128,
    /// Wall-clock time spent searching.
    pub elapsed: Duration,
}

impl Stats {
    /// Adds another run's counters to these (for searches split into subtrees). Times add up
    /// too: for runs made at the same time on several threads, that is thread time, not the
    /// wall clock.
    pub fn add(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.updates += other.updates;
        self.solutions += other.solutions;
        self.elapsed += other.elapsed;
    }
}
