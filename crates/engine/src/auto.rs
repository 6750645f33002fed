//! Counting by the better of two methods: the plain search or the memoised one, decided from
//! the run itself.
//!
//! Memoisation wins by orders of magnitude where many paths reach the same remaining problem
//! (domino tilings: 2,317 nodes instead of 50 million on 8 x 8) and loses several times over
//! where they rarely do (queens, pentominoes placed once each), where each of its nodes costs
//! more than a plain one (the key, the table) for few saved. [`CountMethod::Auto`] decides
//! from the run itself, by a measurement that is exact and machine-independent, so the choice
//! is reproducible:
//!
//! **The memoised search starts, and shows whether it pays.** Every time its node count
//! doubles from [`FIRST_CHECK`] on, it compares the nodes the plain search would have spent on
//! the same part of the tree ([`MemoStats::plain_nodes`]: its own nodes, plus the subtrees its
//! hits skipped) with its own. A ratio under [`NOT_PAYING`] means the table saves almost
//! nothing, and another method takes over (from the start): the count by stages
//! ([`CountMethod::Frontier`]) where the options fall into lines (a latin square's rows;
//! the search for them is the module docs of `frontier.rs`), else the plain search; a ratio of [`PAYING`] or more
//! settles it, and the memoised search runs to the end, as it does when it ends before the
//! first look.
//!
//! What the decision costs: where memoisation does not pay, the memoised nodes before the look
//! that gives up: [`FIRST_CHECK`] on every instance file (0.4-3 ms: 3% of the plain count of 12
//! queens, 0.2% of pentominoes on 6 x 10), more where the ratio stays between the two
//! thresholds for a while; nothing where it pays. The ratio at the first look separates the
//! files cleanly: 1.00-1.34 where memoisation does not pay (queens, pentominoes, sudoku,
//! Kirkman and Steiner systems, latin squares), 6.9-98 where it does (dominoes, bell,
//! double factorials, multiplicities). An up-front estimate (Knuth's random probes, which this
//! rule used before) needs about 1,000 probes to come within 2x on lopsided trees (on the
//! bell family 64 probes said 9.4e5 plain nodes where there are 8.4e6), and 1,000 probes cost
//! more than the count itself there.

use std::ops::ControlFlow;

use crate::config::{Config, Outcome, Stop};
use crate::frontier::FrontierStats;
use crate::kernels::memo::{MemoConfig, MemoError, MemoStats};
use crate::solver::Solver;
use crate::zdd::Zdd;
use crate::{Count, Stats};

/// How to count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CountMethod {
    /// The plain search (on the kernel [`Config::kernel`] picks), one step per solution at
    /// least.
    Search,
    /// The memoised search ([`Solver::count_memo`]).
    Memo,
    /// Whichever pays, decided from the run (see the module docs in the source, `auto.rs`).
    #[default]
    Auto,
    /// By stages from both ends ([`FrontierStats`]; the module docs in the source,
    /// `frontier.rs`): for problems whose options fall into lines, as latin squares'.
    Frontier,
}

impl CountMethod {
    /// `search`, `memo`, `auto` or `frontier`.
    pub fn name(self) -> &'static str {
        match self {
            CountMethod::Search => "search",
            CountMethod::Memo => "memo",
            CountMethod::Auto => "auto",
            CountMethod::Frontier => "frontier",
        }
    }
}

/// Memoised nodes before the first look at whether the table pays.
pub const FIRST_CHECK: u64 = 1_024;

/// Below this ratio of plain-search nodes to memoised nodes, the table does not pay for its
/// cost per node (measured at 2-20 times a plain node on the instance files).
pub const NOT_PAYING: f64 = 2.0;

/// From this ratio on, the memoised search is kept to the end.
pub const PAYING: f64 = 8.0;

/// The most memoised nodes [`Solver::pick_method`] spends before it settles for memo (the
/// ratio having stayed between [`NOT_PAYING`] and [`PAYING`]).
pub const PICK_NODES: u64 = 1 << 20;

/// The result of [`Solver::count_by`].
#[derive(Clone, Debug, PartialEq)]
pub struct Counted {
    /// The number of solutions, exact at any size (a lower bound when a limit stopped the
    /// count).
    pub count: Count,
    /// Why the count ended.
    pub stop: Stop,
    /// The method that made the count ([`CountMethod::Search`] or [`CountMethod::Memo`]).
    pub method: CountMethod,
    /// Why that method (for [`CountMethod::Auto`]; empty otherwise).
    pub reason: String,
    /// The memoised search's counters, when it made the count (`None` when auto gave it up
    /// for the plain search).
    pub memo: Option<MemoStats>,
    /// The count by stages' counters, when it made the count.
    pub frontier: Option<FrontierStats>,
    /// The ZDD, when the memoised search made the whole count and one was asked for.
    pub zdd: Option<Zdd>,
    /// The counters of the method that made the count (for the memoised search, its own
    /// nodes; `solutions` saturates at `u128::MAX`, the count itself does not).
    pub stats: Stats,
}

impl Solver {
    /// Counts the solutions by `method`. The configuration's limits apply; with a solution
    /// limit, [`CountMethod::Auto`] counts plainly and [`CountMethod::Memo`] is refused
    /// ([`MemoError::SolutionLimit`]). `progress` is called about every
    /// [`Config::CHECK_INTERVAL`] nodes (with [`Solver::progress`] and [`Solver::stats`]
    /// current); `Break` cancels. [`Solver::stats`] afterwards has the counters of the
    /// method that made the count (for the memoised search, its own nodes).
    ///
    /// ```
    /// use dancecard_engine::{CountMethod, MemoConfig, ProblemBuilder, Solver};
    ///
    /// let mut b = ProblemBuilder::new();
    /// for name in ["a", "b", "c"] {
    ///     let item = b.primary(name)?;
    ///     b.option([item])?;
    ///     b.option([item])?;
    /// }
    /// let problem = b.build();
    /// let counted = Solver::new(&problem).count_by(
    ///     CountMethod::Auto,
    ///     &MemoConfig::default(),
    ///     &mut |_| std::ops::ControlFlow::Continue(()),
    /// )?;
    /// assert_eq!(counted.count, 8);
    /// assert_eq!(counted.method, CountMethod::Memo); // ended before the first look
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn count_by(
        &mut self,
        method: CountMethod,
        memo: &MemoConfig,
        progress: &mut dyn FnMut(&Solver) -> ControlFlow<()>,
    ) -> Result<Counted, MemoError> {
        self.check(match method {
            CountMethod::Search => crate::gate::Method::Search,
            CountMethod::Memo => crate::gate::Method::Memo,
            CountMethod::Auto => crate::gate::Method::Auto,
            CountMethod::Frontier => crate::gate::Method::Frontier,
        })?;
        let mut counted = match method {
            CountMethod::Search => {
                let outcome = self.count_with_progress(&mut *progress);
                plain(outcome, String::new())
            }
            CountMethod::Memo => {
                let m = self.count_memo(memo, |s, _| progress(s))?;
                Counted {
                    count: m.count,
                    stop: m.stop,
                    method: CountMethod::Memo,
                    reason: String::new(),
                    memo: Some(m.stats),
                    frontier: None,
                    zdd: m.zdd,
                    stats: Stats::default(),
                }
            }
            CountMethod::Auto => self.count_auto(memo, progress)?,
            CountMethod::Frontier if !self.prefix.is_empty() => {
                // The count by stages counts whole problems; a subtree (a prefix, as shards
                // and the threads' jobs set) is counted by the memo, which takes prefixes.
                let m = self.count_memo(memo, |s, _| progress(s))?;
                Counted {
                    count: m.count,
                    stop: m.stop,
                    method: CountMethod::Memo,
                    reason: "a subtree: the count by stages counts whole problems: memo".to_owned(),
                    memo: Some(m.stats),
                    frontier: None,
                    zdd: m.zdd,
                    stats: Stats::default(),
                }
            }
            CountMethod::Frontier => {
                if self.config.budget.max_solutions.is_some() {
                    return Err(MemoError::SolutionLimit);
                }
                let f = self.count_frontier(memo.limit_bytes, progress);
                Counted {
                    count: f.count,
                    stop: f.stop,
                    method: CountMethod::Frontier,
                    reason: String::new(),
                    memo: None,
                    frontier: Some(f.stats),
                    zdd: None,
                    stats: Stats::default(),
                }
            }
        };
        counted.stats = self.stats;
        Ok(counted)
    }

    /// The method [`CountMethod::Auto`] picks for this problem, and why, without making the
    /// count: the memoised search run until its verdict, at most [`PICK_NODES`] nodes (when
    /// it ends within that, memo it is). For a caller that counts with another runner
    /// (threads) or only reports the choice; [`Solver::count_by`] itself keeps the memoised
    /// search it started rather than starting again.
    pub fn pick_method(&mut self, memo: &MemoConfig) -> (CountMethod, String) {
        if self.config.budget.max_solutions.is_some() {
            let reason = "a solution limit: the plain search stops there".to_owned();
            return (CountMethod::Search, reason);
        }
        if let Err(refused) = self.check(crate::gate::Method::Memo) {
            return (CountMethod::Search, format!("{refused}: plain search"));
        }
        let saved = self.config.clone();
        let own = saved.budget.max_nodes.unwrap_or(u64::MAX);
        self.config =
            Config { budget: saved.budget.clone().max_nodes(own.min(PICK_NODES)), ..saved.clone() };
        let mut watch = Verdict::new();
        let probe = self.count_memo(memo, |_, stats| watch.look(stats));
        self.config = saved;
        match probe {
            Ok(m) if watch.gave_up.is_some() => {
                let reason = watch.reason(m.stop, m.stats.nodes);
                match self.line_count() {
                    Some(lines) => (CountMethod::Frontier, lines_reason(&reason, lines)),
                    None => (CountMethod::Search, reason),
                }
            }
            Ok(m) => (CountMethod::Memo, watch.reason(m.stop, m.stats.nodes)),
            // Not reached (no ZDD is asked for, the only error past the gate): the plain search.
            Err(e) => (CountMethod::Search, format!("{e}: plain search")),
        }
    }

    /// [`CountMethod::Auto`].
    fn count_auto(
        &mut self,
        memo: &MemoConfig,
        progress: &mut dyn FnMut(&Solver) -> ControlFlow<()>,
    ) -> Result<Counted, MemoError> {
        if self.config.budget.max_solutions.is_some() {
            let outcome = self.count_with_progress(&mut *progress);
            let reason = "a solution limit: the plain search stops there".to_owned();
            return Ok(plain(outcome, reason));
        }
        // Auto chooses only among the methods that handle the problem.
        if let Err(refused) = self.check(crate::gate::Method::Memo) {
            let outcome = self.count_with_progress(&mut *progress);
            return Ok(plain(outcome, format!("{refused}: plain search")));
        }
        // The configured limits hold for the whole count, over its runs: the plain search
        // after the memoised one gets what the first left.
        let started = std::time::Instant::now();
        let saved = self.config.clone();
        let mut watch = Verdict::new();
        let m = self.count_memo(memo, |s, stats| match watch.look(stats) {
            ControlFlow::Break(()) if watch.gave_up.is_some() => ControlFlow::Break(()),
            _ => progress(s),
        });
        self.config = saved.clone();
        let m = m?;
        let reason = watch.reason(m.stop, m.stats.nodes);
        if watch.gave_up.is_some() {
            // The table does not pay: the count by stages where the options fall into lines,
            // else the plain search, from the start.
            self.config =
                Config { budget: saved.budget.less(m.stats.nodes, started), ..saved.clone() };
            let counted = match self.line_count() {
                Some(lines) => {
                    let f = self.count_frontier(memo.limit_bytes, progress);
                    if f.stop == Stop::MemoryLimit {
                        // The states passed the memory limit: the plain search, which needs
                        // none, with what is left of the limits.
                        let spent = m.stats.nodes + self.stats.nodes;
                        self.config =
                            Config { budget: saved.budget.less(spent, started), ..saved.clone() };
                        let outcome = self.count_with_progress(&mut *progress);
                        self.config = saved;
                        let why = format!(
                            "{}; its states passed the memory limit: plain search",
                            lines_reason(&reason, lines)
                        );
                        return Ok(plain(outcome, why));
                    }
                    Counted {
                        count: f.count,
                        stop: f.stop,
                        method: CountMethod::Frontier,
                        reason: lines_reason(&reason, lines),
                        memo: None,
                        frontier: Some(f.stats),
                        zdd: None,
                        stats: Stats::default(),
                    }
                }
                None => plain(self.count_with_progress(&mut *progress), reason),
            };
            self.config = saved;
            return Ok(counted);
        }
        Ok(Counted {
            count: m.count,
            stop: m.stop,
            method: CountMethod::Memo,
            reason,
            memo: Some(m.stats),
            frontier: None,
            zdd: m.zdd,
            stats: Stats::default(),
        })
    }
}

/// What the watch over a memoised search has seen (see the module docs).
struct Verdict {
    /// The node count of the next look.
    next_check: u64,
    /// The ratio of plain nodes to memoised nodes that settled it for memo.
    paying: Option<f64>,
    /// The ratio, and the memoised nodes, when it gave up.
    gave_up: Option<(f64, u64)>,
    /// The ratio at the last look.
    last: Option<f64>,
}

impl Verdict {
    fn new() -> Verdict {
        Verdict { next_check: FIRST_CHECK, paying: None, gave_up: None, last: None }
    }

    /// A look at the counters of the memoised search: `Break` once the verdict is in.
    fn look(&mut self, stats: &MemoStats) -> ControlFlow<()> {
        if self.paying.is_some() || self.gave_up.is_some() || stats.nodes < self.next_check {
            return ControlFlow::Continue(());
        }
        let ratio = stats.plain_nodes as f64 / stats.nodes as f64;
        self.last = Some(ratio);
        self.next_check = stats.nodes.saturating_mul(2);
        if ratio < NOT_PAYING {
            self.gave_up = Some((ratio, stats.nodes));
            return ControlFlow::Break(());
        }
        if ratio >= PAYING {
            self.paying = Some(ratio);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    /// Why: the sentence `--stats` prints, the memoised search having ended by `stop` after
    /// `nodes`.
    fn reason(&self, stop: Stop, nodes: u64) -> String {
        match (self.gave_up, self.paying, self.last) {
            (Some((ratio, at)), _, _) => format!(
                "the memoised search saved little: {ratio:.2} plain nodes per memoised node \
                 after {at} nodes (under {NOT_PAYING}): plain search"
            ),
            (None, Some(ratio), _) => format!(
                "the memoised search saved {ratio:.3e} plain nodes per node (at least \
                 {PAYING}): memo"
            ),
            (None, None, Some(ratio)) => format!(
                "the memoised search kept saving between {NOT_PAYING} and {PAYING} plain nodes \
                 per node ({ratio:.2} at the last look): memo"
            ),
            (None, None, None) if stop == Stop::Exhausted => format!(
                "the memoised search ended in {nodes} nodes, before its first look at \
                 {FIRST_CHECK}: memo"
            ),
            (None, None, None) => format!(
                "stopped ({stop}) after {nodes} memoised nodes, before the first look at \
                 {FIRST_CHECK}: memo, unjudged"
            ),
        }
    }
}

/// The reason for a count by stages: `reason` said the plain search, but the options fall
/// into `lines` lines.
fn lines_reason(reason: &str, lines: usize) -> String {
    let memo = reason.strip_suffix(": plain search").unwrap_or(reason);
    format!("{memo}; the options fall into {lines} lines: frontier (by stages from both ends)")
}

/// A count by the plain search (its `stats` left to the caller).
pub(crate) fn plain(outcome: Outcome, reason: String) -> Counted {
    Counted {
        count: Count::from(outcome.solutions),
        stop: outcome.stop,
        method: CountMethod::Search,
        reason,
        memo: None,
        frontier: None,
        zdd: None,
        stats: Stats::default(),
    }
}
