//! Minimum-cost exact cover: Knuth's DLX5, by branch and bound on dancing links.
//!
//! Options may carry a nonnegative cost (see [`ProblemBuilder::option_with_cost`]); the cost
//! of a solution is the sum of its options' costs. [`Solver::min_cost`] finds a solution of
//! least cost, or the `k` best solutions (the `k` least costs, each with one solution).
//!
//! # Method
//!
//! As in DLX5:
//!
//! - **Taxes.** Each primary item in turn is *taxed* the least cost of its options, and that
//!   tax is taken off every option that contains it. Every solution's cost drops by the same
//!   total tax, the options' *net costs* stay nonnegative, and every item has an option of net
//!   cost 0 at the start. Beyond DLX5, [`LowerBound::Auto`] (the default) and
//!   [`LowerBound::Relaxation`] first ascend the dual of the linear relaxation (`relax.rs`):
//!   its taxes are in units of `1 / scale` and their total is near the relaxation's optimum,
//!   so that on assignments and domino tilings (integral relaxations) the first solution
//!   found is proven least. `Auto` weighs the ascent's cost against what it saves (see
//!   [`LowerBound::Auto`]).
//! - **Sorted lists.** The options are laid out in order of net cost (ties in input order), so
//!   every item's list runs from its cheapest option to its dearest, and a search that may
//!   spend at most `b` more stops reading a list at the first option of net cost `b` or more:
//!   `cover` and `purify` leave such options in place (they can be in no better solution),
//!   with the same threshold when they undo, however the cutoff has moved since.
//! - **Branching.** The item with the fewest options cheap enough to use (at most 10 of them
//!   are counted, then its `LEN` stands for the rest), ties going to the item whose cheapest
//!   option is dearest, because that cost must be paid anyway.
//! - **Cutoff.** A search for the `k` best keeps the `k` least costs found so far; once it has
//!   `k`, the largest of them is the cutoff, and no path whose cost reaches it goes on.
//!
//! On top of DLX5's rule (a path stops when one item's cheapest option alone reaches the
//! cutoff), [`LowerBound::ItemShares`] adds a bound on the whole rest of the path: each option
//! of a completion covers its primary items, all still active, so its net cost splits among
//! them in equal shares, and each active item `i` pays at least its cheapest option's net cost
//! divided by the largest number of primary items in an option of `i`. The sum over the active
//! items is a lower bound on the cost still to pay; a path whose cost plus that bound reaches
//! the cutoff stops. The bound is computed in the scan that picks the item, at no extra pass.
//! [`LowerBound::Dlx5`] leaves it out and walks exactly DLX5's tree (its nodes and updates).
//!
//! # Kernels
//!
//! [`LowerBound::Dlx5`] always searches on the links of this module. With the other bounds,
//! problems without colors, with at most 16,384 options and long
//! enough item lists for the sets to pay (a rough count of the work per node: the links'
//! updates against the sets' word operations) are searched on bit sets (`cost_bits.rs`: one
//! set of live options per level, whose items' affordable options are counted exactly),
//! unless [`Config::kernel`] is [`Kernel::Links`].
//! The two kernels walk different trees to the same best costs; on cost_pent6x10.dlx (3
//! best) the bit sets take about half the time of the links for the same number of nodes.
//!
//! # Invariants
//!
//! Those of the arena ((I1)-(I5) in `arena.rs`), and besides:
//!
//! - **(K1)** Option nodes lie in order of net cost: for option nodes `x < y`, the net cost of
//!   `x`'s option is at most that of `y`'s. Hence each item's list is sorted by net cost, and
//!   "the options of net cost below `b`" are the nodes below one index.
//! - **(K2)** Every net cost is nonnegative, and the net cost of a solution plus the total tax
//!   is its cost.
//! - **(K3)** `cover(i, b)` and `uncover(i, b)` visit the same options of `i`'s list (those
//!   below `b`), in the same order, and so do `purify` and `unpurify`.
//!
//! # Bibliography
//!
//! - Donald E. Knuth, DLX5 (CWEB program, 2018-2020): min-cost exact cover with taxes and
//!   sorted lists.
//! - Robert S. Garfinkel and George L. Nemhauser, "The set-partitioning problem: set covering
//!   with equality constraints", *Operations Research* 17 (1969), 848-856 (the cutoff rule).
//!
//! [`ProblemBuilder::option_with_cost`]: crate::ProblemBuilder::option_with_cost

use std::collections::BinaryHeap;
use std::ops::ControlFlow;
use std::time::Instant;

use super::relax::{self, Priced, Taxes};
use crate::arena::Arena;
use crate::config::{Budget, Config, Heuristic, Stop};
use crate::ids::OptionId;
use crate::plumbing::Limits;
use crate::stats::Stats;

/// How [`Solver::min_cost`](crate::Solver::min_cost) bounds the cost of the rest of a path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LowerBound {
    /// The item shares on the taxes of DLX5 or of the linear relaxation, decided from the run
    /// (the ascent costs a pass over the options per step, 1,000 steps at most):
    ///
    /// 1. The search runs on DLX5's taxes for its first 2,048 nodes; if it ends there, that
    ///    is the answer (the ascent would cost more than the whole tree).
    /// 2. Otherwise 250 steps of the ascent are measured against the best cost that search
    ///    found: if the bound at the root (the total tax plus the item shares of the net
    ///    costs) is within 50% of it, the relaxation is near the optimum (assignments, domino
    ///    tilings), and the whole ascent runs; beyond, its bound cannot prove the optimum,
    ///    and the taxes of those 250 steps are kept (they order the search about as well).
    ///    DLX5's taxes stay where the relaxation's do not raise the bound at the root.
    /// 3. The search starts again on those taxes, needing no solution costlier than the
    ///    ones found (its cutoff starts there).
    ///
    /// [`MinCost::bound`] and [`MinCost::reason`] say what it chose and why.
    #[default]
    Auto,
    /// The item shares on the linear relaxation's taxes (`relax.rs`): reduced-cost fixing
    /// with a bound near the relaxation's optimum.
    Relaxation,
    /// DLX5's rule and the item shares on DLX5's taxes (see the module docs): fewer nodes
    /// than DLX5, same answers.
    ItemShares,
    /// DLX5's rule alone: a path stops when one item's cheapest option reaches the cutoff.
    /// The tree, its nodes and its updates are DLX5's.
    Dlx5,
}

impl LowerBound {
    /// `auto`, `relaxation`, `shares` or `dlx5` (the CLI's names).
    pub fn name(self) -> &'static str {
        match self {
            LowerBound::Auto => "auto",
            LowerBound::Relaxation => "relaxation",
            LowerBound::ItemShares => "shares",
            LowerBound::Dlx5 => "dlx5",
        }
    }
}

/// One of the best solutions: its cost and its options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostSolution {
    /// The sum of the options' costs.
    pub cost: u64,
    /// The options, in the order the search chose them.
    pub options: Vec<OptionId>,
}

/// Why [`Solver::min_cost`](crate::Solver::min_cost) cannot search a problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CostError {
    /// The problem has a feature the minimum-cost search does not handle (see the
    /// [capability table](crate::gate); since multiplicities are handled, none is refused).
    #[error(transparent)]
    Unsupported(#[from] crate::gate::Unsupported),
}

/// A snapshot of a running minimum-cost search, for progress reports (see
/// [`Solver::min_cost_with_progress`](crate::Solver::min_cost_with_progress)).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CostProgress {
    /// The least cost found so far, if any.
    pub best: Option<u64>,
    /// A proven lower bound on the least cost: no solution costs less. It never passes
    /// `best`, and it only grows as the search goes on.
    pub lower_bound: u64,
    /// Nodes searched so far.
    pub nodes: u64,
    /// The estimated fraction of the tree explored (from the options of the root's item
    /// tried so far).
    pub fraction: f64,
}

impl CostProgress {
    /// The relative gap between the best cost and the lower bound, `(best - bound) / best`
    /// (0 when the best costs 0); `None` before a solution is found.
    pub fn gap(&self) -> Option<f64> {
        self.best.map(|b| gap(b, self.lower_bound))
    }
}

/// `(best - bound) / best`, 0 when `best` is 0.
pub(crate) fn gap(best: u64, bound: u64) -> f64 {
    if best == 0 {
        0.0
    } else {
        best.saturating_sub(bound) as f64 / best as f64
    }
}

/// The progress callback of the min-cost searches: called every
/// [`Config::CHECK_INTERVAL`] nodes; `Break` stops the search ([`Stop::Cancelled`]).
pub(crate) type CostTick<'p> = &'p mut dyn FnMut(&CostProgress) -> ControlFlow<()>;

/// What a min-cost search is asked: its configuration (limits, heuristic), how many best
/// solutions, and whom to tell its progress.
pub(crate) struct CostJob<'j> {
    pub(crate) config: &'j Config,
    pub(crate) k: usize,
    pub(crate) tick: CostTick<'j>,
    /// The cost of the `k`-th best of `k` solutions known (costlier ones are not searched),
    /// if any.
    pub(crate) ceiling: Option<u64>,
}

/// The result of [`Solver::min_cost`](crate::Solver::min_cost).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MinCost {
    /// The best solutions found, by cost (ties in the order found). When `stop` is
    /// [`Stop::Exhausted`], these are `k` solutions of least cost (fewer if the problem has
    /// fewer solutions): no solution left out costs less than the last one listed.
    pub best: Vec<CostSolution>,
    /// Why the search ended.
    pub stop: Stop,
    /// Nodes, updates and time; `solutions` counts every solution the search met (each one
    /// better than the `k`-th best at the time). On bit sets (see the module docs),
    /// `updates` counts the options set aside, one per option and level, not link changes.
    pub stats: Stats,
    /// A proven lower bound on the least cost: no solution costs less. When the search is
    /// complete, the least cost itself (`None` when there is no solution; 0 for `k = 0`,
    /// which searches nothing); when a limit stopped it, at most the best cost found.
    pub lower_bound: Option<u64>,
    /// The bound the search ran with: the one asked for, or for [`LowerBound::Auto`] the one
    /// it chose ([`LowerBound::ItemShares`] or [`LowerBound::Relaxation`]). With
    /// multiplicities, where the bound asked does not apply, [`LowerBound::ItemShares`].
    pub bound: LowerBound,
    /// For [`LowerBound::Auto`], why it chose [`MinCost::bound`] (empty otherwise).
    pub reason: String,
}

impl MinCost {
    /// Whether the whole tree was searched (the costs in [`MinCost::best`] are then proven
    /// least).
    pub fn is_complete(&self) -> bool {
        self.stop.is_complete()
    }

    /// The relative gap between the best cost found and [`MinCost::lower_bound`]: 0 when the
    /// search is complete; `None` when no solution was found.
    pub fn gap(&self) -> Option<f64> {
        let best = self.best.first()?.cost;
        Some(gap(best, self.lower_bound.unwrap_or(best)))
    }
}

/// At most this many usable options are counted in an item's list when choosing the item to
/// branch on (DLX5's `lenthresh`); past it the item's `LEN` stands for the count.
const LEN_THRESHOLD: u32 = 10;

/// [`LowerBound::Auto`] first searches this many nodes on DLX5's taxes (see
/// `Solver::min_cost_auto`).
pub(crate) const PROBE_NODES: u64 = 2_048;

/// [`LowerBound::Auto`] with a solution known: the ascent's first steps, after which it goes
/// on (from the start, to its full length) only if the gap between the bound at the root and
/// that solution's cost is at most [`WIDEST_GAP`].
const FIRST_ITERATIONS: usize = 250;

/// See [`FIRST_ITERATIONS`].
const WIDEST_GAP: f64 = 0.5;

/// Largest common multiple of the option sizes under which the item shares are kept exact.
const EXACT_SCALE: u64 = 1 << 20;

/// The cutoff of a search with none: past every path's net cost (net costs add up to at most
/// the sum of all option costs, which the parser keeps within `u64`).
pub(crate) const NO_CUTOFF: u128 = 1 << 64;

/// An option as the arena holds it: its id, its items with their colors, its cost.
type ArenaOption = (OptionId, Vec<(u32, i32)>, u64);

/// The links and the costs of a min-cost search. See the module docs.
pub(crate) struct CostArena {
    /// The links, options laid out by rank (option `r` of the arena is the option of rank
    /// `r`), with `arena.rs`'s invariants.
    pub(crate) arena: Arena,
    /// Per node: its option's rank in order of net cost (option nodes; 0 elsewhere).
    ranks: Vec<u32>,
    pub(crate) n_primary: u32,
    /// Per rank: the option's net cost. Ascending (K1).
    pub(crate) net: Vec<u64>,
    /// Per rank: the first node of the option.
    pub(crate) start: Vec<u32>,
    /// Per rank: the option's id in the problem.
    option_ids: Vec<OptionId>,
    /// Per item: its weight in the item-shares bound, in units of `1 / scale`.
    pub(crate) shares: Vec<u64>,
    /// Per item: its weight in the apart bound, in units of `1 / scale`.
    pub(crate) weights: Vec<u64>,
    /// The unit of the weights.
    pub(crate) scale: u64,
    total_tax: i128,
    /// Costs are in units of `1 / unit` (the taxes' scale, `relax.rs`): a solution's cost is
    /// its net cost plus the total tax, divided by `unit`.
    pub(crate) unit: u64,
    updates: u64,
    /// The taxes laid on: [`LowerBound::Relaxation`]'s, or DLX5's (any other bound).
    pub(crate) taxed: LowerBound,
    /// For [`LowerBound::Auto`]: why these taxes.
    pub(crate) reason: String,
}

impl CostArena {
    /// The cost arena of the problem whose pristine arena is `arena`, with the options' costs
    /// by option index (`costs` may be empty: every option costs 0), taxed as `bound` asks
    /// (the relaxation's ascent stops early, on DLX5's taxes, when `budget` is cancelled or
    /// out of time). For [`LowerBound::Auto`], `ceiling` is the cost of a solution known, if
    /// any (see `Solver::min_cost_auto`).
    pub(crate) fn new(
        arena: &Arena,
        costs: &[u64],
        bound: LowerBound,
        budget: &Budget,
        ceiling: Option<u64>,
    ) -> CostArena {
        let n = arena.n_items as usize;
        let n1 = arena.n_primary;
        let colored = !arena.colors.is_empty();
        // The options as the arena holds them: items, colors, cost.
        let mut options: Vec<ArenaOption> = arena
            .option_nodes()
            .enumerate()
            .map(|(k, nodes)| {
                let entries = nodes
                    .map(|x| (arena.nodes[x].top as u32, if colored { arena.colors[x] } else { 0 }))
                    .collect();
                (OptionId::from_u32(k as u32), entries, costs.get(k).copied().unwrap_or(0))
            })
            .collect();
        let mut containing: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        for (k, (_, items, _)) in options.iter().enumerate() {
            for &(i, _) in items {
                containing[i as usize].push(k);
            }
        }
        let size = |k: usize| options[k].1.iter().filter(|&&(i, _)| i <= n1).count() as u64;
        let mut largest = vec![0u64; n + 1];
        for (k, (_, items, _)) in options.iter().enumerate() {
            for &(i, _) in items {
                largest[i as usize] = largest[i as usize].max(size(k));
            }
        }
        // Weights in units of 1 / scale (exact when the option sizes' least common multiple
        // is at most EXACT_SCALE, rounded down otherwise: smaller weights stay valid).
        let mut scale = 1u64;
        for &s in &largest[1..=n1 as usize] {
            if s > 0 {
                scale = lcm(scale, s);
            }
        }
        if scale > EXACT_SCALE {
            scale = EXACT_SCALE;
        }
        let shares: Vec<u64> = largest.iter().map(|&s| scale.checked_div(s).unwrap_or(0)).collect();
        // Apart: a greedy set of primary items no option holds two of (items with the most
        // options first), weight 1; the other items share what each option has left.
        let mut apart = vec![false; n + 1];
        let mut barred = vec![false; n + 1];
        let mut by_options: Vec<u32> = (1..=n1).collect();
        by_options.sort_by_key(|&i| std::cmp::Reverse(containing[i as usize].len()));
        for &i in &by_options {
            if barred[i as usize] || containing[i as usize].is_empty() {
                continue;
            }
            apart[i as usize] = true;
            for &k in &containing[i as usize] {
                for &(j, _) in &options[k].1 {
                    barred[j as usize] = true;
                }
            }
        }
        let mut weights = vec![0u64; n + 1];
        for i in 1..=n1 as usize {
            weights[i] = if apart[i] {
                scale
            } else {
                containing[i]
                    .iter()
                    .map(|&k| {
                        let items = &options[k].1;
                        let taken = items.iter().any(|&(j, _)| apart[j as usize]);
                        let rest = items.iter().filter(|&&(j, _)| j <= n1 && !apart[j as usize]);
                        if taken {
                            0
                        } else {
                            scale / rest.count() as u64
                        }
                    })
                    .min()
                    .unwrap_or(0)
            };
        }
        // Taxes (`relax.rs`): DLX5's, or the relaxation's where asked and (for `Auto`) where
        // the bound at the root is higher with them: the total tax plus the item shares (or
        // the apart bound) of the net costs left.
        let primary: Vec<Vec<u32>> = options
            .iter()
            .map(|(_, items, _)| items.iter().map(|&(i, _)| i).filter(|&i| i <= n1).collect())
            .collect();
        let priced: Vec<Priced<'_>> =
            primary.iter().zip(&options).map(|(items, o)| Priced { items, cost: o.2 }).collect();
        let dlx5 = relax::greedy(&priced, &containing, n1 as usize);
        let mut reason = String::new();
        let mut taxed = bound;
        let taxes = match bound {
            LowerBound::Dlx5 | LowerBound::ItemShares => dlx5,
            LowerBound::Relaxation | LowerBound::Auto => {
                let root = |t: &Taxes| -> f64 {
                    // The least net cost of each item's options, in units of 1 / t.scale.
                    let mut least = vec![i128::MAX; n1 as usize + 1];
                    for (items, o) in primary.iter().zip(&options) {
                        let taxed: i128 = items.iter().map(|&i| t.per_item[i as usize]).sum();
                        let net = i128::from(o.2) * i128::from(t.scale) - taxed;
                        for &i in items {
                            least[i as usize] = least[i as usize].min(net);
                        }
                    }
                    let sum = |w: &[u64]| -> f64 {
                        (1..=n1 as usize)
                            .filter(|&i| least[i] != i128::MAX)
                            .map(|i| least[i] as f64 * w[i] as f64)
                            .sum()
                    };
                    let rest = sum(&shares).max(sum(&weights)) / scale as f64;
                    (t.total as f64 + rest) / t.scale as f64
                };
                let ascend = |start: &Taxes, iterations| {
                    relax::relaxation(&priced, &containing, n1 as usize, start, iterations, budget)
                };
                let (low, first) = (root(&dlx5), FIRST_ITERATIONS);
                let chosen = match (bound, ceiling) {
                    (LowerBound::Relaxation, _) => ascend(&dlx5, relax::MAX_ITERATIONS),
                    // Auto with a solution known: the first steps of the ascent show whether
                    // the relaxation comes near that solution's cost (the gap between them).
                    (_, Some(high)) => match ascend(&dlx5, first) {
                        Some(early) => {
                            let gap = if high > 0 { 1.0 - root(&early) / high as f64 } else { 0.0 };
                            reason = format!(
                                "{first} steps of the ascent raised the bound at the root from \
                                 {low:.1} to {:.1}, a gap of {:.0}% to the best cost found, {high}",
                                root(&early),
                                gap * 100.0
                            );
                            if gap <= WIDEST_GAP {
                                // From the start again: the relaxation's own taxes (going on
                                // from `early` with a fresh step size ended lower on dominoes
                                // 24x24, and its tree was 27 times larger).
                                ascend(&dlx5, relax::MAX_ITERATIONS).or(Some(early))
                            } else {
                                // The bound will not prove the optimum: the early taxes
                                // order the search about as well, for a quarter of the
                                // ascent (cost_pent6x10: 39,142 nodes against 35,145 after
                                // the whole ascent and 54,250 on DLX5's).
                                reason.push_str(&format!(
                                    " (over {:.0}%: the ascent stops there)",
                                    WIDEST_GAP * 100.0
                                ));
                                Some(early)
                            }
                        }
                        None => None,
                    },
                    (_, None) => ascend(&dlx5, relax::MAX_ITERATIONS),
                };
                match chosen {
                    Some(r) if bound == LowerBound::Relaxation => r,
                    Some(r) if root(&r) > low => {
                        if reason.is_empty() {
                            reason = format!(
                                "the relaxation's taxes raise the bound at the root from {low:.1} \
                                 to {:.1}",
                                root(&r)
                            );
                        }
                        r
                    }
                    _ => {
                        taxed = LowerBound::ItemShares;
                        if !reason.is_empty() {
                            reason.push_str("; then ");
                        }
                        reason.push_str(
                            "the relaxation's taxes do not raise the bound at the root: DLX5's",
                        );
                        dlx5
                    }
                }
            }
        };
        if taxed == LowerBound::Auto {
            taxed = LowerBound::Relaxation;
        }
        drop(priced);
        for (o, items) in options.iter_mut().zip(&primary) {
            // (R1): nonnegative, and within u64 (`relax.rs` checked the relaxation's).
            let taxed: i128 = items.iter().map(|&i| taxes.per_item[i as usize]).sum();
            o.2 = (i128::from(o.2) * i128::from(taxes.scale) - taxed) as u64;
        }
        let (total_tax, unit) = (taxes.total, taxes.scale);
        // (K1): ranks in order of net cost, ties in input order.
        let mut order: Vec<usize> = (0..options.len()).collect();
        order.sort_by_key(|&k| options[k].2);
        let entries = order.iter().map(|&k| options[k].1.len()).sum();
        let laid_out = Arena::from_options(
            arena.item_ids.clone(),
            n1,
            colored,
            (options.len(), entries),
            order.iter().map(|&k| options[k].1.iter().copied()),
        );
        let mut ranks = vec![0u32; laid_out.nodes.len()];
        let mut start = Vec::with_capacity(options.len());
        let mut x = n + 2;
        for rank in 0..options.len() {
            start.push(x as u32);
            while laid_out.nodes[x].top > 0 {
                ranks[x] = rank as u32;
                x += 1;
            }
            x += 1;
        }
        CostArena {
            arena: laid_out,
            ranks,
            n_primary: n1,
            net: order.iter().map(|&k| options[k].2).collect(),
            start,
            option_ids: order.iter().map(|&k| options[k].0).collect(),
            shares,
            weights,
            scale,
            total_tax,
            unit,
            updates: 0,
            taxed,
            reason,
        }
    }

    /// How far the root's item has got when its option node `x` is being tried: the share of
    /// its options before `x`.
    fn fraction(&self, x: u32) -> f64 {
        let item = self.node(x).top as u32;
        let (mut before, mut y) = (0u32, self.node(item).down);
        while y != x && y != item {
            before += 1;
            y = self.node(y).down;
        }
        f64::from(before) / f64::from(self.node(item).top.max(1) as u32)
    }

    /// The cost of a solution of net cost `net`.
    pub(crate) fn cost_of(&self, net: u64) -> u64 {
        ((i128::from(net) + self.total_tax) / i128::from(self.unit)) as u64
    }

    /// The least cost of a solution whose net cost is at least `net` (costs are integers).
    pub(crate) fn at_least(&self, net: u64) -> u64 {
        let t = i128::from(net) + self.total_tax;
        if t <= 0 {
            0
        } else {
            ((t + i128::from(self.unit) - 1) / i128::from(self.unit)) as u64
        }
    }

    /// The progress of a search whose unexplored part has net cost `lb_net` or more, whose
    /// best solution so far has net cost `least` (if there is one).
    pub(crate) fn progress(
        &self,
        least: Option<u64>,
        lb_net: u64,
        nodes: u64,
        fraction: f64,
    ) -> CostProgress {
        let best = least.map(|n| self.cost_of(n));
        let bound = self.at_least(lb_net);
        CostProgress { best, lower_bound: best.map_or(bound, |b| bound.min(b)), nodes, fraction }
    }

    /// The cutoff when the `k`-th best solution has net cost `net`: a better solution costs a
    /// whole unit less (costs are integers), so a path stops when its net cost reaches
    /// `net - (unit - 1)`.
    pub(crate) fn cutoff(&self, net: u64) -> u128 {
        u128::from(net.saturating_sub(self.unit - 1))
    }

    /// The cutoff for a search that needs no solution costing more than `ceiling`: a path
    /// stops when its net cost passes that of cost `ceiling` (a solution's net cost is its
    /// cost times `unit`, less the total tax); [`NO_CUTOFF`] for none.
    pub(crate) fn first_cutoff(&self, ceiling: Option<u64>) -> u128 {
        ceiling.map_or(NO_CUTOFF, |c| {
            let net = i128::from(c) * i128::from(self.unit) - self.total_tax + 1;
            net.clamp(0, NO_CUTOFF as i128) as u128
        })
    }

    /// The first node of the options whose net cost is `budget` or more (those a path that may
    /// spend less than `budget` can never take).
    fn limit(&self, budget: u128) -> u32 {
        // `c < budget` in `u64` (net costs are within it).
        let rank = match u64::try_from(budget) {
            Ok(budget) => self.net.partition_point(|&c| c < budget),
            Err(_) => self.net.len(),
        };
        match self.start.get(rank) {
            Some(&x) => x,
            None => self.arena.nodes.len() as u32,
        }
    }

    fn net_of(&self, x: u32) -> u64 {
        self.net[self.ranks[x as usize] as usize]
    }

    /// `arena.node(x)`.
    #[inline(always)]
    fn node(&self, x: u32) -> &crate::arena::Node {
        self.arena.node(x)
    }

    /// Hides the option of node `r` from every list but `r`'s (`arena.rs`'s `hide`).
    #[inline(always)]
    fn hide<const COLORED: bool>(&mut self, r: u32) {
        self.updates += self.arena.hide::<COLORED>(r);
    }

    #[inline(always)]
    fn unhide<const COLORED: bool>(&mut self, r: u32) {
        self.arena.unhide::<COLORED>(r);
    }

    /// Unlinks item `i` from its horizontal list.
    fn unlink_item(&mut self, i: u32) {
        let crate::arena::Link { prev, next } = self.arena.items[i as usize];
        self.arena.items[prev as usize].next = next;
        self.arena.items[next as usize].prev = prev;
        self.updates += 1;
    }

    fn relink_item(&mut self, i: u32) {
        let crate::arena::Link { prev, next } = self.arena.items[i as usize];
        self.arena.items[prev as usize].next = i;
        self.arena.items[next as usize].prev = i;
    }

    /// The next active primary item after `i` (0 is the root).
    #[inline(always)]
    fn next_item(&self, i: u32) -> u32 {
        self.arena.item(i).next
    }

    /// Covers item `i`, hiding its options below node `limit` (K3).
    fn cover<const COLORED: bool>(&mut self, i: u32, limit: u32) {
        self.unlink_item(i);
        let mut r = self.node(i).down;
        while r != i && r < limit {
            self.hide::<COLORED>(r);
            r = self.node(r).down;
        }
    }

    /// Undoes `cover(i, limit)`: the options in the same order (DLX5 shows that works).
    fn uncover<const COLORED: bool>(&mut self, i: u32, limit: u32) {
        let mut r = self.node(i).down;
        while r != i && r < limit {
            self.unhide::<COLORED>(r);
            r = self.node(r).down;
        }
        self.relink_item(i);
    }

    /// Purifies the item of node `x` for `x`'s color, below node `limit` (K3).
    fn purify(&mut self, x: u32, limit: u32) {
        let i = self.node(x).top as u32;
        let color = self.arena.colors[x as usize];
        let mut r = self.node(i).down;
        while r != i && r < limit {
            if self.arena.colors[r as usize] != color {
                self.hide::<true>(r);
            } else if r != x {
                self.arena.colors[r as usize] = -1;
            }
            r = self.node(r).down;
        }
    }

    fn unpurify(&mut self, x: u32, limit: u32) {
        let i = self.node(x).top as u32;
        let color = self.arena.colors[x as usize];
        let mut r = self.node(i).down;
        while r != i && r < limit {
            if self.arena.colors[r as usize] < 0 {
                self.arena.colors[r as usize] = color;
            } else if r != x {
                self.unhide::<true>(r);
            }
            r = self.node(r).down;
        }
    }

    /// Covers the other items of option node `x` (left to right, as DLX5).
    fn cover_others<const COLORED: bool>(&mut self, x: u32, limit: u32) {
        let mut y = self.node(x).first;
        while self.node(y).top > 0 {
            if y != x {
                self.cover_node::<COLORED, false>(y, limit);
            }
            y += 1;
        }
    }

    /// Undoes `cover_others(x, limit)`, right to left.
    fn uncover_others<const COLORED: bool>(&mut self, x: u32, limit: u32) {
        let first = self.node(x).first;
        let mut y = first;
        while self.node(y + 1).top > 0 {
            y += 1;
        }
        loop {
            if y != x {
                self.cover_node::<COLORED, true>(y, limit);
            }
            if y == first {
                break;
            }
            y -= 1;
        }
    }

    /// Covers the item of node `y` of a chosen option, or purifies it when `y` has a color;
    /// with `BACK`, undoes that (uncovers, unpurifies). A node whose color is negative (its
    /// item purified already, by an option chosen earlier with the same color) needs neither.
    #[inline(always)]
    fn cover_node<const COLORED: bool, const BACK: bool>(&mut self, y: u32, limit: u32) {
        let color = if COLORED { self.arena.colors[y as usize] } else { 0 };
        if color == 0 {
            let i = self.node(y).top as u32;
            if BACK {
                self.uncover::<COLORED>(i, limit);
            } else {
                self.cover::<COLORED>(i, limit);
            }
        } else if color > 0 {
            if BACK {
                self.unpurify(y, limit);
            } else {
                self.purify(y, limit);
            }
        }
    }

    /// Checks (K1), and (I1)-(I3) of the links (`arena.rs`).
    #[cfg(any(feature = "check-invariants", debug_assertions))]
    pub(crate) fn check_invariants(&self) {
        assert!(self.net.windows(2).all(|w| w[0] <= w[1]), "(K1) ranks out of cost order");
        self.arena.check_invariants();
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn lcm(a: u64, b: u64) -> u64 {
    (a / gcd(a, b)).saturating_mul(b)
}

/// A solution kept among the best: its net cost, then the order found (the heap's largest is
/// the dearest, and among equals the latest).
#[derive(PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Kept {
    pub(crate) net: u64,
    pub(crate) found: u64,
    pub(crate) ranks: Vec<u32>,
}

/// Enters a node of the search: counts it, unless the node limit is reached; every
/// [`Config::CHECK_INTERVAL`] nodes, looks at the time limit and the cancel flag (as the
/// counts on bit sets do). The stop, if the search must stop.
#[inline(always)]
pub(crate) fn enter_node(limits: &Limits, stats: &mut Stats) -> Option<Stop> {
    if stats.nodes >= limits.max_nodes {
        return Some(Stop::NodeLimit);
    }
    stats.nodes += 1;
    if stats.nodes % Config::CHECK_INTERVAL == 0 {
        return limits.expired();
    }
    None
}

/// Runs the branch and bound for the `k` best solutions (`k >= 1`) on the links (the solver
/// picks [`CostBits`](super::cost_bits::CostBits) instead where it takes the problem).
pub(crate) fn search(a: &mut CostArena, job: CostJob<'_>, bound: LowerBound) -> MinCost {
    if a.arena.colors.is_empty() {
        search_in::<false>(a, job, bound)
    } else {
        search_in::<true>(a, job, bound)
    }
}

fn search_in<const COLORED: bool>(
    a: &mut CostArena,
    job: CostJob<'_>,
    bound: LowerBound,
) -> MinCost {
    let CostJob { config, k, tick, ceiling } = job;
    let started = Instant::now();
    if a.n_primary == 0 {
        // Nothing to cover: the empty solution (a root node and a solution node).
        let stats = Stats { nodes: 2, solutions: 1, ..Stats::default() };
        let best = BinaryHeap::from([Kept { net: 0, found: 1, ranks: Vec::new() }]);
        return finish(a, best, Stop::Exhausted, stats, started, 0);
    }
    let limits = Limits::new(config);
    let leftmost = config.heuristic == Heuristic::Leftmost;
    let shares = bound != LowerBound::Dlx5;
    a.updates = 0;
    let mut stats = Stats::default();
    let mut best: BinaryHeap<Kept> = BinaryHeap::with_capacity(k.min(1 << 10) + 1);
    let mut cutoff = a.first_cutoff(ceiling);
    // Per level: the node chosen, the cost before it, the limits of the item's cover and of
    // the other items' covers.
    let depth = a.n_primary as usize + 1;
    let mut choice = vec![0u32; depth];
    let mut part = vec![0u64; depth];
    let mut limit0 = vec![0u32; depth];
    let mut limit = vec![0u32; depth];
    let mut level = 0usize;
    let mut cost = 0u64;
    let mut stop = Stop::Exhausted;

    // The states of the loop, as DLX5's labels.
    enum At {
        Forward,
        Advance,
        Backup,
        Backdown,
        Recover,
    }
    let mut at = At::Forward;
    let mut item = 0u32;
    let mut next_cost = 0u64;
    // The least net cost found.
    let mut least: Option<u64> = None;
    // What is left unexplored costs at least the root option's net cost (K1: the root's
    // options are tried in order of net cost).
    let lb_net = |a: &CostArena, level: usize, choice: &[u32]| {
        if level == 0 {
            0
        } else {
            a.net_of(choice[0])
        }
    };
    loop {
        match at {
            At::Forward => {
                if let Some(why) = enter_node(&limits, &mut stats) {
                    stop = why;
                    break;
                }
                if stats.nodes % Config::CHECK_INTERVAL == 0 {
                    let fraction = if level == 0 { 0.0 } else { a.fraction(choice[0]) };
                    let lb = lb_net(a, level, &choice);
                    if tick(&a.progress(least, lb, stats.nodes, fraction)).is_break() {
                        stop = Stop::Cancelled;
                        break;
                    }
                }
                #[cfg(any(feature = "check-invariants", debug_assertions))]
                if crate::checks::costs() {
                    a.check_invariants();
                }
                // Choose the item (or find that no completion can beat the cutoff).
                let budget = cutoff - u128::from(cost);
                // The most an option may add (`budget >= 1`: the path costs less than the
                // cutoff), in `u64` for the scans: `net >= budget` is `net > over`.
                let over = (budget - 1).min(u128::from(u64::MAX)) as u64;
                let bounded = shares && cutoff != NO_CUTOFF;
                let mut best_len = u32::MAX;
                let mut best_min = 0u64;
                let mut chosen = 0u32;
                let (mut shares_sum, mut apart_sum): (u128, u128) = (0, 0);
                let budget_scaled = budget * u128::from(a.scale);
                let mut i = a.next_item(0);
                while i != 0 {
                    let p = a.node(i).down;
                    if p == i {
                        chosen = 0;
                        break;
                    }
                    let min = a.net_of(p);
                    if min > over {
                        chosen = 0;
                        break;
                    }
                    if bounded {
                        shares_sum += u128::from(min) * u128::from(a.shares[i as usize]);
                        apart_sum += u128::from(min) * u128::from(a.weights[i as usize]);
                        if shares_sum.max(apart_sum) >= budget_scaled {
                            chosen = 0;
                            break;
                        }
                    }
                    if leftmost {
                        if chosen == 0 {
                            chosen = i;
                            best_len = 1;
                        }
                    } else {
                        // Count the usable options, up to the best so far.
                        let mut s = 1u32;
                        let mut q = a.node(p).down;
                        let mut better = true;
                        loop {
                            if q == i || a.net_of(q) > over {
                                break;
                            }
                            if s == best_len {
                                better = false;
                                break;
                            }
                            if s >= LEN_THRESHOLD {
                                s = a.node(i).top as u32;
                                break;
                            }
                            s += 1;
                            q = a.node(q).down;
                        }
                        if better && (s < best_len || (s == best_len && min > best_min)) {
                            best_len = s;
                            best_min = min;
                            chosen = i;
                        }
                    }
                    i = a.next_item(i);
                }
                if chosen == 0 {
                    at = At::Backdown;
                    continue;
                }
                item = chosen;
                part[level] = cost;
                let x = a.node(item).down;
                choice[level] = x;
                next_cost = cost + a.net_of(x);
                limit0[level] = a.limit(cutoff - u128::from(next_cost));
                a.cover::<COLORED>(item, limit0[level]);
                at = At::Advance;
            }
            At::Advance => {
                let x = choice[level];
                limit[level] = a.limit(cutoff - u128::from(next_cost));
                a.cover_others::<COLORED>(x, limit[level]);
                if a.next_item(0) == 0 {
                    // A solution, better than the k-th best.
                    stats.nodes += 1;
                    stats.solutions += 1;
                    let ranks = choice[..=level].iter().map(|&x| a.ranks[x as usize]).collect();
                    least = Some(least.map_or(next_cost, |l| l.min(next_cost)));
                    best.push(Kept { net: next_cost, found: stats.solutions as u64, ranks });
                    if best.len() > k {
                        best.pop();
                    }
                    if best.len() == k {
                        cutoff = best.peek().map_or(NO_CUTOFF, |b| a.cutoff(b.net));
                    }
                    if config.budget.max_solutions.is_some_and(|m| stats.solutions >= m) {
                        // Levels 0..level are applied, and this one but for its option.
                        a.uncover_others::<COLORED>(x, limit[level]);
                        a.uncover::<COLORED>(item, limit0[level]);
                        stop = Stop::SolutionLimit;
                        break;
                    }
                    at = At::Recover;
                    continue;
                }
                level += 1;
                cost = next_cost;
                at = At::Forward;
            }
            At::Backup => {
                a.uncover::<COLORED>(item, limit0[level]);
                at = At::Backdown;
            }
            At::Backdown => {
                if level == 0 {
                    break;
                }
                level -= 1;
                let x = choice[level];
                item = a.node(x).top as u32;
                cost = part[level];
                at = At::Recover;
            }
            At::Recover => {
                let x = choice[level];
                a.uncover_others::<COLORED>(x, limit[level]);
                let y = a.node(x).down;
                choice[level] = y;
                if y == item {
                    at = At::Backup;
                    continue;
                }
                next_cost = cost + a.net_of(y);
                if u128::from(next_cost) >= cutoff {
                    at = At::Backup;
                    continue;
                }
                at = At::Advance;
            }
        }
    }
    if stop != Stop::Exhausted {
        // Stopped at `Forward` (or after undoing the level of a solution): levels `0..level`
        // have their item and their option applied.
        for l in (0..level).rev() {
            let x = choice[l];
            a.uncover_others::<COLORED>(x, limit[l]);
            let i = a.node(x).top as u32;
            a.uncover::<COLORED>(i, limit0[l]);
        }
    }
    stats.updates = a.updates;
    let lb = lb_net(a, level, &choice);
    finish(a, best, stop, stats, started, lb)
}

/// The result of a search that stopped with `stop`, its unexplored part of net cost `lb_net`
/// or more (irrelevant when it is complete).
pub(crate) fn finish(
    a: &CostArena,
    best: BinaryHeap<Kept>,
    stop: Stop,
    mut stats: Stats,
    started: Instant,
    lb_net: u64,
) -> MinCost {
    stats.elapsed = started.elapsed();
    let least = best.iter().map(|kept| kept.net).min();
    let lower_bound = if stop.is_complete() {
        least.map(|n| a.cost_of(n))
    } else {
        Some(a.progress(least, lb_net, stats.nodes, 0.0).lower_bound)
    };
    let best = best
        .into_sorted_vec()
        .into_iter()
        .map(|kept| CostSolution {
            cost: a.cost_of(kept.net),
            options: kept.ranks.iter().map(|&r| a.option_ids[r as usize]).collect(),
        })
        .collect();
    MinCost { best, stop, stats, lower_bound, bound: a.taxed, reason: String::new() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ProblemBuilder;

    /// The first cutoff lets through every solution that costs the ceiling, and none that
    /// costs more (#30's review: clamped below `u64::MAX`, it cut the solutions costing
    /// `u64::MAX - 1` when that was the ceiling).
    #[test]
    fn the_first_cutoff_keeps_the_ceiling() {
        let mut b = ProblemBuilder::new();
        let (x, y) = (b.primary("x").unwrap(), b.primary("y").unwrap());
        b.option([x]).unwrap();
        b.option([x, y]).unwrap();
        b.option([y]).unwrap();
        b.option([y]).unwrap();
        let arena = Arena::new(&b.build());
        let huge = [0, 1, u64::MAX - 2, u64::MAX - 1, u64::MAX];
        for (costs, ceilings) in
            [([0, u64::MAX - 1, 0, 1], &huge[..]), ([3, 5, 2, 4], &[4, 5, 6, 7])]
        {
            for bound in [LowerBound::Dlx5, LowerBound::ItemShares, LowerBound::Relaxation] {
                let a = CostArena::new(&arena, &costs, bound, &Budget::new(), None);
                // A solution's net cost: its cost times the unit, less the total tax.
                let net = |cost: u64| i128::from(cost) * i128::from(a.unit) - a.total_tax;
                for &c in ceilings {
                    let cutoff = a.first_cutoff(Some(c)) as i128;
                    assert!(net(c) < cutoff, "{bound:?} {costs:?}: cost {c} cut");
                    if c < u64::MAX {
                        assert!(net(c + 1) >= cutoff, "{bound:?} {costs:?}: cost {} kept", c + 1);
                    }
                }
                assert_eq!(a.first_cutoff(None), NO_CUTOFF);
            }
        }
    }
}
