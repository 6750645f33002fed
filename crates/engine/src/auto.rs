//! Counting by the better of two methods: the plain search or the memoised one, decided from
//! the run itself.
//!
//! Memoisation wins by orders of magnitude where many paths reach the same remaining problem
//! (domino tilings: 2,317 nodes instead of 50 million on 8 x 8) and loses several times over
//! where they rarely do (queens, pentominoes placed once each), where each of its nodes costs
//! more than a plain one (the key, the table) for few saved. [`CountMethod::Auto`] decides
//! with two measurements, both exact and machine-independent, so the choice is reproducible:
//!
//! 1. **A small tree is counted plainly.** Knuth's estimate ([`Solver::estimate`], 64 probes)
//!    of the plain search's nodes: under [`SMALL_TREE`] nodes, the plain search runs, with a
//!    budget ten times the threshold in case the estimate was low (estimates of lopsided
//!    trees often are); past it, the decision goes on to step 2.
//! 2. **The memoised search shows whether it pays.** It starts, and every time its node count
//!    doubles from [`FIRST_CHECK`] on it compares the nodes the plain search would have spent
//!    on the same part of the tree ([`MemoStats::plain_nodes`]: its own nodes, plus the
//!    subtrees its hits skipped) with its own: a ratio under [`NOT_PAYING`] means the table
//!    saves almost nothing, and the plain search takes over (from the start); a ratio of
//!    [`PAYING`] or more settles it, and the memoised search runs to the end.
//!
//! The first step costs 64 probes (well under a millisecond on the instance files); the
//! second at most what the memoised search spent before giving up, a few percent of the plain
//! count on the instances where memoisation does not pay.

use std::ops::ControlFlow;

use crate::config::{Config, Outcome, Stop};
use crate::estimate::Estimate;
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
}

impl CountMethod {
    /// `search`, `memo` or `auto`.
    pub fn name(self) -> &'static str {
        match self {
            CountMethod::Search => "search",
            CountMethod::Memo => "memo",
            CountMethod::Auto => "auto",
        }
    }
}

/// Trees estimated under this many nodes are counted plainly at once (about a tenth of a
/// second of plain search).
pub const SMALL_TREE: f64 = 1e6;

/// Memoised nodes before the first look at whether the table pays.
pub const FIRST_CHECK: u64 = 16_384;

/// Below this ratio of plain-search nodes to memoised nodes, the table does not pay for its
/// cost per node (measured at 2-10 times a plain node on the instance files).
pub const NOT_PAYING: f64 = 2.0;

/// From this ratio on, the memoised search is kept to the end.
pub const PAYING: f64 = 8.0;

/// Probes of the estimate of step 1.
const PROBES: u64 = 64;

/// The seed of the estimate of step 1 (fixed: the decision is reproducible).
const SEED: u64 = 0x5eed;

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
    /// The memoised search's counters, when it made (or started) the count.
    pub memo: Option<MemoStats>,
    /// The estimate of step 1, when one was made.
    pub estimate: Option<Estimate>,
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
    /// assert_eq!(counted.method, CountMethod::Search); // a small tree
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
        })?;
        let mut counted = match method {
            CountMethod::Search => {
                let outcome = self.count_with_progress(&mut *progress);
                plain(outcome, String::new(), None)
            }
            CountMethod::Memo => {
                let m = self.count_memo(memo, |s, _| progress(s))?;
                Counted {
                    count: m.count,
                    stop: m.stop,
                    method: CountMethod::Memo,
                    reason: String::new(),
                    memo: Some(m.stats),
                    estimate: None,
                    zdd: m.zdd,
                    stats: Stats::default(),
                }
            }
            CountMethod::Auto => self.count_auto(memo, progress)?,
        };
        counted.stats = self.stats;
        Ok(counted)
    }

    /// The method [`CountMethod::Auto`] picks for this problem, and why, without making the
    /// count: the estimate of step 1, then (for a large tree) the memoised search run until its
    /// verdict, at most until it has spent as many nodes as the plain search would in
    /// [`SMALL_TREE`] (when it ends within that, memo it is). For a caller that counts with
    /// another runner (threads) or only reports the choice; [`Solver::count_by`] itself keeps
    /// the memoised search it started rather than starting again.
    pub fn pick_method(&mut self, memo: &MemoConfig) -> (CountMethod, String, Estimate) {
        let estimate = self.estimate(PROBES, SEED);
        if self.config.budget.max_solutions.is_some() {
            let reason = "a solution limit: the plain search stops there".to_owned();
            return (CountMethod::Search, reason, estimate);
        }
        if let Err(refused) = self.check(crate::gate::Method::Memo) {
            return (CountMethod::Search, format!("{refused}: plain search"), estimate);
        }
        if estimate.nodes < SMALL_TREE {
            let reason = format!(
                "estimated {:.3e} plain nodes, under {SMALL_TREE:.0e}: plain search",
                estimate.nodes
            );
            return (CountMethod::Search, reason, estimate);
        }
        let saved = self.config.clone();
        self.config =
            Config { budget: saved.budget.clone().max_nodes(SMALL_TREE as u64), ..saved.clone() };
        let mut next_check = FIRST_CHECK;
        let mut verdict = None;
        let probe = self.count_memo(memo, |_, stats| {
            if stats.nodes >= next_check {
                let ratio = stats.plain_nodes as f64 / stats.nodes as f64;
                next_check = next_check.saturating_mul(2);
                if !(NOT_PAYING..PAYING).contains(&ratio) {
                    verdict = Some(ratio);
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        });
        self.config = saved;
        match (probe, verdict) {
            (Ok(m), _) if m.stop == Stop::Exhausted => {
                let reason = format!(
                    "the memoised search counts it in {} nodes (the plain search: about {:.3e})",
                    m.stats.nodes, estimate.nodes
                );
                (CountMethod::Memo, reason, estimate)
            }
            (_, Some(ratio)) if ratio < NOT_PAYING => (
                CountMethod::Search,
                format!(
                    "the memoised search saved little: {ratio:.2} plain nodes per memoised node \
                     (under {NOT_PAYING}): plain search"
                ),
                estimate,
            ),
            (_, Some(ratio)) => (
                CountMethod::Memo,
                format!(
                    "the memoised search saved {ratio:.3e} plain nodes per node (at least \
                     {PAYING}): memo"
                ),
                estimate,
            ),
            _ => (
                CountMethod::Memo,
                format!(
                    "estimated {:.3e} plain nodes; the memoised search kept saving between \
                     {NOT_PAYING} and {PAYING} plain nodes per node: memo",
                    estimate.nodes
                ),
                estimate,
            ),
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
            return Ok(plain(outcome, reason, None));
        }
        // Auto chooses only among the methods that handle the problem.
        if let Err(refused) = self.check(crate::gate::Method::Memo) {
            let outcome = self.count_with_progress(&mut *progress);
            return Ok(plain(outcome, format!("{refused}: plain search"), None));
        }
        // The configured limits hold for the whole count, over its runs: each run after the
        // first gets what the runs before it left.
        let started = std::time::Instant::now();
        let saved = self.config.clone();
        let mut used = 0u64;
        let left = |used: u64| Config { budget: saved.budget.less(used, started), ..saved.clone() };
        // Step 1: a small tree is counted plainly.
        let estimate = self.estimate(PROBES, SEED);
        if estimate.nodes < SMALL_TREE {
            let budget = (10.0 * SMALL_TREE) as u64;
            let own = saved.budget.max_nodes.unwrap_or(u64::MAX);
            let first = left(0);
            self.config = Config { budget: first.budget.max_nodes(own.min(budget)), ..first };
            let outcome = self.count_with_progress(&mut *progress);
            used += self.stats().nodes;
            self.config = saved.clone();
            if outcome.stop != Stop::NodeLimit || own <= budget {
                let reason = format!(
                    "estimated {:.3e} plain nodes, under {SMALL_TREE:.0e}: plain search",
                    estimate.nodes
                );
                return Ok(plain(outcome, reason, Some(estimate)));
            }
        }
        // Step 2: the memoised search, watched.
        let mut next_check = FIRST_CHECK;
        let mut verdict: Option<f64> = None;
        let mut gave_up = None;
        self.config = left(used);
        let m = self.count_memo(memo, |s, stats| {
            if verdict.is_none() && stats.nodes >= next_check {
                let ratio = stats.plain_nodes as f64 / stats.nodes as f64;
                if ratio < NOT_PAYING {
                    gave_up = Some((ratio, stats.nodes));
                    return ControlFlow::Break(());
                }
                if ratio >= PAYING {
                    verdict = Some(ratio);
                }
                next_check = next_check.saturating_mul(2);
            }
            progress(s)
        });
        self.config = saved.clone();
        let m = m?;
        used += m.stats.nodes;
        if let Some((ratio, nodes)) = gave_up {
            // The table does not pay: the plain search, from the start.
            self.config = left(used);
            let outcome = self.count_with_progress(&mut *progress);
            self.config = saved;
            let reason = format!(
                "the memoised search saved little: {ratio:.2} plain nodes per memoised node \
                 after {nodes} nodes (under {NOT_PAYING}): plain search"
            );
            return Ok(plain(outcome, reason, Some(estimate)));
        }
        let reason = match verdict {
            Some(ratio) => format!(
                "the memoised search saved {ratio:.3e} plain nodes per node (at least \
                 {PAYING}): memo"
            ),
            None => format!(
                "estimated {:.3e} plain nodes; the memoised search ended before it could be \
                 judged, or kept saving between {NOT_PAYING} and {PAYING} plain nodes per node",
                estimate.nodes
            ),
        };
        Ok(Counted {
            count: m.count,
            stop: m.stop,
            method: CountMethod::Memo,
            reason,
            memo: Some(m.stats),
            estimate: Some(estimate),
            zdd: m.zdd,
            stats: Stats::default(),
        })
    }
}

/// A count by the plain search (its `stats` left to the caller).
pub(crate) fn plain(outcome: Outcome, reason: String, estimate: Option<Estimate>) -> Counted {
    Counted {
        count: Count::from(outcome.solutions),
        stop: outcome.stop,
        method: CountMethod::Search,
        reason,
        memo: None,
        estimate,
        zdd: None,
        stats: Stats::default(),
    }
}
