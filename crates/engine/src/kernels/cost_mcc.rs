//! Minimum-cost covers with multiplicities: Algorithm M (`mcc.rs`, DLX3's tree) with a cutoff.
//!
//! No program of Knuth's takes both DLX3's bounds and DLX5's costs; this one walks Algorithm
//! M's tree and cuts it by branch and bound. The `k` least costs found so far are kept; once
//! there are `k`, the largest is the *cutoff*, and a node whose path already costs that much,
//! or whose path cost plus a lower bound on the rest reaches it, is left at once (as a node
//! with too few options is). The bound is the *item shares*: each option's cost split equally
//! among its primary items, each item's *share* the least such part over all of its options;
//! an active primary item that must still be covered `need` more times (its `BOUND` less its
//! `SLACK`) pays at least `need` times its share, and the rest of the path at least the sum of
//! those. Shares are in units of `1 / SCALE`, rounded down (a smaller share stays a bound).
//!
//! Solutions are those of Algorithm M, each once (a set of options, not a sequence), so the
//! `k` best are `k` distinct covers, as in `cost.rs`; costs are exact (no taxes).
//!
//! # Invariants
//!
//! - **(P1)** `path[l]` is the cost of the options chosen at levels `0..l` (null moves cost
//!   nothing), for every level `l` up to the current one.
//! - **(P2)** `share[i] * p <= c * SCALE` for every option of cost `c` with `p` primary items
//!   that holds primary item `i`: the sum over the active items of `need * share` is at most
//!   `SCALE` times the cost of any completion.

use std::collections::BinaryHeap;
use std::ops::ControlFlow;

use super::cost::{CostProgress, CostSolution, CostTick, LowerBound, MinCost, NO_CUTOFF};
use super::mcc_state::Mcc;
use crate::arena::Arena;
use crate::ids::OptionId;
use crate::solver::{Sink, Solution, Solver};

/// The unit of the shares: costs are multiplied by this before they are split.
const SCALE: u128 = 1 << 16;

/// A solution kept among the best: its cost, then the order found (the heap's largest is the
/// dearest, and among equals the latest).
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Kept {
    cost: u64,
    found: u64,
    options: Vec<OptionId>,
}

/// The branch and bound, as a sink of Algorithm M's loop.
struct Cutoff<'c, 'p> {
    /// The progress callback.
    tick: CostTick<'p>,
    /// A lower bound on every solution's cost: the shares of what each item must have.
    root: u64,
    /// The options' costs by option index (empty: all 0).
    costs: &'c [u64],
    /// Per arena item: its share (P2); 0 for secondary items.
    share: Vec<u128>,
    /// Per level: the cost of the path to it (P1).
    path: Vec<u64>,
    /// The number of items (nodes past `n + 1` are option nodes).
    n: u32,
    /// The cost of the path to the node `prune` saw last.
    here: u64,
    k: usize,
    best: BinaryHeap<Kept>,
    /// A path stops when its cost reaches the cutoff ([`NO_CUTOFF`]: none yet).
    cutoff: u128,
    found: u64,
}

impl Cutoff<'_, '_> {
    fn cost(&self, option: OptionId) -> u64 {
        self.costs.get(option.index()).copied().unwrap_or(0)
    }
}

impl Sink for Cutoff<'_, '_> {
    const PRUNES: bool = true;

    #[inline]
    fn prune(&mut self, arena: &Arena, m: &Mcc, choice: &[u32]) -> bool {
        let level = choice.len();
        let here = match level.checked_sub(1) {
            None => 0,
            Some(above) => {
                let x = choice[above];
                let step = if x > self.n + 1 { self.cost(arena.option_of(x)) } else { 0 };
                self.path[above].saturating_add(step)
            }
        };
        self.path[level] = here;
        self.here = here;
        if u128::from(here) >= self.cutoff {
            return true;
        }
        if self.cutoff == NO_CUTOFF {
            return false;
        }
        let mut rest: u128 = 0;
        let mut i = arena.item(0).next;
        while i != 0 {
            let need = m.bound[i as usize].saturating_sub(m.slack[i as usize]);
            rest = rest.saturating_add(u128::from(need) * self.share[i as usize]);
            i = arena.item(i).next;
        }
        let rest = rest.div_ceil(SCALE);
        u128::from(here) + rest >= self.cutoff
    }

    fn tick(&mut self, solver: &Solver) -> ControlFlow<()> {
        let best = self.best.iter().map(|kept| kept.cost).min();
        let progress = CostProgress {
            best,
            lower_bound: best.map_or(self.root, |b| b.min(self.root)),
            nodes: solver.stats().nodes,
            fraction: solver.progress(),
        };
        (self.tick)(&progress)
    }

    fn solution(&mut self, solution: Solution<'_>) -> ControlFlow<()> {
        // `prune` ran at this node: its path costs `here`, below the cutoff.
        let cost = self.here;
        debug_assert_eq!(
            cost,
            solution.options().map(|o| self.cost(o)).fold(0u64, u64::saturating_add),
            "(P1) at a solution"
        );
        self.found += 1;
        self.best.push(Kept { cost, found: self.found, options: solution.to_vec() });
        if self.best.len() > self.k {
            self.best.pop();
        }
        if self.best.len() == self.k {
            self.cutoff = self.best.peek().map_or(NO_CUTOFF, |b| u128::from(b.cost));
        }
        ControlFlow::Continue(())
    }
}

impl Solver {
    /// The `k` best solutions (`k >= 1`) of a problem with bounds, by Algorithm M with a
    /// cutoff (see the module docs).
    pub(crate) fn min_cost_m(&mut self, k: usize, tick: CostTick<'_>) -> MinCost {
        let n = self.arena.n_items;
        let n1 = self.arena.n_primary;
        // The shares (P2), from the pristine arena's options.
        let mut share = vec![u128::MAX; n as usize + 2];
        for (option, nodes) in self.arena.option_nodes().enumerate() {
            let cost = u128::from(self.costs.get(option).copied().unwrap_or(0));
            let primary: Vec<u32> =
                nodes.map(|x| self.arena.nodes[x].top as u32).filter(|&i| i <= n1).collect();
            for &i in &primary {
                let part = cost * SCALE / primary.len() as u128;
                share[i as usize] = share[i as usize].min(part);
            }
        }
        for s in &mut share {
            if *s == u128::MAX {
                *s = 0;
            }
        }
        // Every solution covers each primary item at least `lo` times: `BOUND - SLACK` at
        // the root.
        let root = self.mcc.as_ref().map_or(0, |m| {
            let need = (1..=n1 as usize)
                .map(|i| u128::from(m.bound[i].saturating_sub(m.slack[i])) * share[i]);
            let total = need.fold(0u128, u128::saturating_add).div_ceil(SCALE);
            u64::try_from(total).unwrap_or(u64::MAX)
        });
        let depth = self.mcc.as_ref().map_or(1, |m| m.depth) + 1;
        // The costs leave the solver while its loop runs (the sink reads them).
        let costs = std::mem::take(&mut self.costs);
        let mut sink = Cutoff {
            tick,
            root,
            costs: &costs,
            share,
            path: vec![0; depth],
            n,
            here: 0,
            k,
            best: BinaryHeap::new(),
            cutoff: NO_CUTOFF,
            found: 0,
        };
        let outcome = self.run_m(&mut sink, false);
        let best: Vec<CostSolution> = std::mem::take(&mut sink.best)
            .into_sorted_vec()
            .into_iter()
            .map(|kept| CostSolution { cost: kept.cost, options: kept.options })
            .collect();
        self.costs = costs;
        let least = best.first().map(|s| s.cost);
        let lower_bound = if outcome.stop.is_complete() {
            least
        } else {
            Some(least.map_or(root, |b| b.min(root)))
        };
        // The item shares (P2), whatever bound was asked.
        let (bound, reason) = (LowerBound::ItemShares, String::new());
        MinCost { best, stop: outcome.stop, stats: self.stats, lower_bound, bound, reason }
    }
}
