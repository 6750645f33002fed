//! `Stats`: what a search did (its counters, as Knuth's DLX1 counts them, and why it ended),
//! shared by a problem and its iterators.

use std::sync::{Arc, Mutex};

use dancecard_engine::{Count, CountMethod, Counted, MemoStats, Stats, Stop};
use num_bigint::BigUint;
use pyo3::prelude::*;

/// What a search did: its counters, as Knuth's DLX1 counts them, and why it ended.
///
/// Every search of a Problem sets Problem.stats (and an iterator's stats): first(),
/// count(), solutions(), zdd(), sample() and min_cost(). A memoised count (Knuth's DLX6)
/// counts its own nodes: see method and memo.
///
/// Attributes:
///     nodes, updates, solutions, seconds: the counters (see each).
///     complete: whether the whole tree was explored (a count is then exact).
///     stop: why the search ended.
///     method, reason, memo: how a count was made (the plain or the memoised search).
///     lower_bound, gap: after min_cost, a proven lower bound on the least cost and its gap
///         to the best found.
///
/// Example:
///     >>> import dancecard
///     >>> p = dancecard.Problem("a b", options=["a", "b", "a b"])
///     >>> p.count(method="search")
///     2
///     >>> s = p.stats
///     >>> s.nodes, s.updates, s.solutions, s.complete, s.stop, s.method
///     (4, 4, 2, True, 'exhausted', 'search')
#[pyclass(frozen, module = "dancecard", name = "Stats")]
#[derive(Clone, Debug)]
pub(crate) struct PyStats {
    /// Search-tree nodes, counted as Knuth's DLX1 counts them (for a memoised count, as his
    /// DLX6 does: the memoised search's own nodes).
    #[pyo3(get)]
    pub(crate) nodes: u64,
    /// Link updates (one per item covered, one per option node hidden).
    #[pyo3(get)]
    pub(crate) updates: u64,
    /// Solutions found (the exact count, of any size, after a count).
    pub(crate) solutions: Count,
    /// Wall-clock seconds.
    #[pyo3(get)]
    pub(crate) seconds: f64,
    /// Why the search ended (`None`: paused, an iterator that can go on).
    pub(crate) stop: Option<Stop>,
    /// The method of the search: [`CountMethod::Search`] or [`CountMethod::Memo`].
    pub(crate) method: CountMethod,
    /// Why `auto` chose the method (empty when no choice was made).
    pub(crate) reason: String,
    /// The memoised search's counters, when it made (or started) the count.
    pub(crate) memo: Option<MemoStats>,
    /// After `min_cost`: a proven lower bound on the least cost, and the best cost found.
    pub(crate) bound: Option<(Option<u64>, Option<u64>)>,
}

impl PyStats {
    pub(crate) fn new(stats: &Stats, seconds: f64, stop: Option<Stop>) -> Self {
        PyStats {
            nodes: stats.nodes,
            updates: stats.updates,
            solutions: Count::from(stats.solutions),
            seconds,
            stop,
            method: CountMethod::Search,
            reason: String::new(),
            memo: None,
            bound: None,
        }
    }

    /// The counters of a count through the engine's one way in (or the memoised search alone).
    pub(crate) fn counted(seconds: f64, counted: &Counted) -> Self {
        PyStats {
            solutions: counted.count.clone(),
            method: counted.method,
            reason: counted.reason.clone(),
            memo: counted.memo,
            ..PyStats::new(&counted.stats, seconds, Some(counted.stop))
        }
    }
}

/// The Python name of a reason to stop: [`Stop::name`] with underscores for dashes, and
/// `stopped` for the visitor (a loop over the solutions left early), `paused` for none yet.
pub(crate) fn stop_name(stop: Option<Stop>) -> &'static str {
    let Some(stop) = stop else { return "paused" };
    match stop {
        Stop::Exhausted => "exhausted",
        Stop::Found => "found",
        Stop::SolutionLimit => "solution_limit",
        Stop::CostLimit => "cost_limit",
        Stop::NodeLimit => "node_limit",
        Stop::TimeLimit => "time_limit",
        Stop::MemoryLimit => "memory_limit",
        Stop::Cancelled => "cancelled",
        Stop::Visitor => "stopped",
    }
}

#[pymethods]
impl PyStats {
    /// Solutions found: for a count, the exact count (an int of any size).
    #[getter]
    fn solutions(&self) -> BigUint {
        self.solutions.to_biguint()
    }

    /// Whether the whole search tree was explored (so counts are exact).
    #[getter]
    fn complete(&self) -> bool {
        self.stop.is_some_and(Stop::is_complete)
    }

    /// Why the search ended: "exhausted", "solution_limit", "node_limit", "time_limit",
    /// "cancelled" or "stopped"; "paused" for an iterator that can go on.
    #[getter]
    fn stop(&self) -> &'static str {
        stop_name(self.stop)
    }

    /// The method of the search: `"search"` (the plain search, as every search but a count
    /// may be), `"memo"` (the memoised search) or `"frontier"` (the count by stages).
    #[getter]
    fn method(&self) -> &'static str {
        self.method.name()
    }

    /// Why `count(method="auto")` chose the method, or `min_cost(lower_bound="auto")` its
    /// bound (`"relaxation: ..."`, `"shares: ..."`); `""` when no choice was made.
    #[getter]
    fn reason(&self) -> String {
        self.reason.clone()
    }

    /// The memoised search's counters (`MemoStats`) when it made the count, else `None`.
    #[getter]
    fn memo(&self) -> Option<PyMemoStats> {
        self.memo.map(PyMemoStats::from)
    }

    /// After `min_cost`: a proven lower bound on the least cost (no solution costs less):
    /// the least cost itself when the search is complete (`None` when there is no
    /// solution), at most the best found when a limit stopped it. `None` after other
    /// searches.
    #[getter]
    fn lower_bound(&self) -> Option<u64> {
        self.bound.and_then(|(bound, _)| bound)
    }

    /// After `min_cost`: the relative gap `(best - lower_bound) / best` between the best cost
    /// found and the lower bound (0.0 when the search is complete); `None` when no solution
    /// was found, and after other searches.
    #[getter]
    fn gap(&self) -> Option<f64> {
        let (bound, best) = self.bound?;
        let best = best?;
        let bound = bound.unwrap_or(best);
        Some(if best == 0 { 0.0 } else { best.saturating_sub(bound) as f64 / best as f64 })
    }

    fn __repr__(&self) -> String {
        format!(
            "Stats(nodes={}, updates={}, solutions={}, seconds={:.6}, stop='{}', method='{}')",
            self.nodes,
            self.updates,
            self.solutions,
            self.seconds,
            stop_name(self.stop),
            self.method.name()
        )
    }
}

/// The counters of the last search of a problem, shared with its iterators.
pub(crate) type LastStats = Arc<Mutex<Option<PyStats>>>;

pub(crate) fn record(last: &LastStats, stats: PyStats) {
    *last.lock().unwrap_or_else(|e| e.into_inner()) = Some(stats);
}

/// What a memoised count did besides counting (Knuth's DLX6): the table's work.
///
/// Found in Stats.memo after a count by the memoised search (count(method="memo"), or
/// "auto" when it chose it), zdd() or sample(); None after a plain search.
///
/// Attributes:
///     nodes, hits, entries: the memoised search's nodes, those found in the table, and
///         the remaining problems counted in full.
///     clears, peak_bytes: how often the table was emptied to stay within memo_limit,
///         and the most bytes it took.
///     plain_nodes: the nodes the plain search would have spent on the same tree.
///     zdd_nodes: ZDD nodes built.
///
/// Example:
///     >>> import dancecard
///     >>> p = dancecard.tile("4x4", "dominoes").problem
///     >>> p.count(method="memo")
///     36
///     >>> m = p.stats.memo
///     >>> m.hits > 0, m.nodes < m.plain_nodes
///     (True, True)
#[pyclass(frozen, module = "dancecard", name = "MemoStats", get_all)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct PyMemoStats {
    /// Nodes of the memoised search (each level entered, hits included, plus one per
    /// solution leaf, as Knuth's DLX6 counts them).
    nodes: u64,
    /// Nodes whose remaining problem was in the table (counted at once).
    hits: u64,
    /// Entries written: remaining problems counted in full.
    entries: u64,
    /// Times the table was emptied to stay within `memo_limit`.
    clears: u64,
    /// The most bytes the table (and the ZDD) took at once.
    peak_bytes: usize,
    /// The nodes the plain search would have spent on the same part of the tree (saturates at
    /// 2**64 - 1).
    plain_nodes: u64,
    /// ZDD nodes built (0 when no ZDD was asked for).
    zdd_nodes: u64,
}

impl From<MemoStats> for PyMemoStats {
    fn from(m: MemoStats) -> Self {
        let MemoStats { nodes, hits, entries, clears, peak_bytes, plain_nodes, zdd_nodes, .. } = m;
        PyMemoStats { nodes, hits, entries, clears, peak_bytes, plain_nodes, zdd_nodes }
    }
}

#[pymethods]
impl PyMemoStats {
    fn __repr__(&self) -> String {
        let m = self;
        format!(
            "MemoStats(nodes={}, hits={}, entries={}, clears={}, peak_bytes={}, plain_nodes={}, \
             zdd_nodes={})",
            m.nodes, m.hits, m.entries, m.clears, m.peak_bytes, m.plain_nodes, m.zdd_nodes
        )
    }
}
