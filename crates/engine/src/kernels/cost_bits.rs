//! Minimum-cost exact cover on bit sets: the branch and bound of `cost.rs` with the live
//! options of each level kept as one bit per option.
//!
//! The options are ranked by net cost as in `cost.rs` ((K1): the taxes, the order, the item
//! weights of the bounds are that arena's). Each level keeps its own set of live options,
//! copied from the level above without the options that clash with the one chosen, and its
//! own list of active primary items; backing up is free (nothing to undo). Because ranks
//! follow net costs, "the options a path may still afford" are the ranks below one bound,
//! that is the first words of a set: a level reads and writes only those.
//!
//! The branching rule counts, for each active item, its live options the path can afford,
//! exactly (DLX5 counts up to 10 of them, then takes the item's `LEN`, which counts options
//! it cannot afford too), ties going to the item whose cheapest option is dearest. The tree
//! therefore differs from DLX5's and from the links' (`LowerBound::Dlx5` keeps the links and
//! DLX5's tree); the best costs are the same (the `k` least of all the solutions' costs).
//! `Stats::updates` counts the options set aside (one per option hidden at a level), not
//! link changes.
//!
//! # Invariants
//!
//! - **(KB1)** At level `l`, `live[l]` (below the level's rank bound) holds exactly the
//!   options that share no item with the options chosen at levels `0..l`, and `active[l]`
//!   the primary items none of them covers.
//! - **(KB2)** The rank bound of a level is set when the level is entered, for the cutoff
//!   then; a child's bound is at most its parent's (the cutoff only falls and the path's cost
//!   only rises). Words of `live[l]` past the bound are not read.

use std::collections::BinaryHeap;
use std::time::Instant;

use super::cost::{enter_node, finish, CostArena, CostJob, Kept, MinCost, NO_CUTOFF};
use crate::config::{Config, Heuristic, Stop};
use crate::plumbing::Limits;
use crate::stats::Stats;

/// At most this many options are taken on bit sets (above, the links do less work per node).
pub(crate) const MAX_OPTIONS: usize = 1 << 14;

/// The problem on bit sets, built from its cost arena.
pub(crate) struct CostBits {
    /// Words per set.
    words: usize,
    /// Per item (arena index, secondary items too), its options as a set of ranks.
    masks: Vec<u64>,
    /// The items of each option, by rank (`items[item_start[r]..item_start[r + 1]]`).
    items: Vec<u32>,
    item_start: Vec<u32>,
    n_primary: u32,
    options: usize,
}

impl CostBits {
    /// The bit sets of `a`, or `None` when the problem has colors, too many options, or
    /// lists too short for the sets to pay (see [`pays`]).
    pub(crate) fn new(a: &CostArena) -> Option<CostBits> {
        let options = a.net.len();
        if !a.arena.colors.is_empty() || options > MAX_OPTIONS || options == 0 {
            return None;
        }
        let words = options.div_ceil(64);
        let entries = a.arena.nodes.len() - a.arena.n_items as usize - 2 - options;
        if !pays(a.n_primary as usize, a.arena.n_items as usize, options, entries) {
            return None;
        }
        let n = a.arena.n_items as usize;
        let mut masks = vec![0u64; (n + 1) * words];
        let mut items = Vec::new();
        let mut item_start = Vec::with_capacity(options + 1);
        for (rank, &first) in a.start.iter().enumerate() {
            item_start.push(items.len() as u32);
            let mut x = first as usize;
            while a.arena.nodes[x].top > 0 {
                let i = a.arena.nodes[x].top as usize;
                masks[i * words + rank / 64] |= 1 << (rank % 64);
                items.push(i as u32);
                x += 1;
            }
        }
        item_start.push(items.len() as u32);
        Some(CostBits { words, masks, items, item_start, n_primary: a.n_primary, options })
    }

    fn mask(&self, i: u32) -> &[u64] {
        &self.masks[i as usize * self.words..(i as usize + 1) * self.words]
    }

    fn option_items(&self, rank: u32) -> &[u32] {
        &self.items
            [self.item_start[rank as usize] as usize..self.item_start[rank as usize + 1] as usize]
    }
}

/// The bits of word `word` of a set that stand for ranks below `bound`.
#[inline(always)]
fn below(bound: usize, word: usize) -> u64 {
    let base = word * 64;
    if bound >= base + 64 {
        !0
    } else if bound <= base {
        0
    } else {
        (1u64 << (bound - base)) - 1
    }
}

/// Whether the bit sets should beat the links on a problem of `n1` primary items (`n` in
/// all), `options` options and `entries` entries, by a rough count of the work of a node: the
/// links hide, for each of the chosen option's `s` items, the other `s - 1` nodes of each
/// option in the item's list (`s * len * (s - 1)` updates, `len` the average list length);
/// the sets scan each primary item's words (`n1 * words` word operations, about four to an
/// update in time). Measured: pentominoes on 6x10 with costs (6,000 against 600) take half
/// the time on the sets; the target sudoku's cost model (110 against 970) two to six times
/// longer.
fn pays(n1: usize, n: usize, options: usize, entries: usize) -> bool {
    let size = entries as f64 / options as f64;
    let len = entries as f64 / n.max(1) as f64;
    let links = size * len * (size - 1.0).max(1.0);
    let sets = (n1 * options.div_ceil(64)) as f64 / 4.0;
    links > sets
}

/// The ranks a path that may spend less than `budget` can take: those below the result.
fn rank_bound(net: &[u64], budget: u128) -> usize {
    // `c < budget` in `u64` (net costs are within it).
    match u64::try_from(budget) {
        Ok(budget) => net.partition_point(|&c| c < budget),
        Err(_) => net.len(),
    }
}

/// Runs the branch and bound on bit sets for the `k` best solutions (`k >= 1`, at least one
/// primary item) with the lower bound of the items' shares (`LowerBound::ItemShares`, the
/// only bound the sets run), compiled for the CPU: with POPCNT, BMI and AVX2 where it has
/// them (the population counts of the item scan are most of the work), as `bits.rs` does.
pub(crate) fn search(a: &CostArena, b: &CostBits, job: CostJob<'_>) -> MinCost {
    #[cfg(target_arch = "x86_64")]
    if crate::plumbing::has_v3() {
        // SAFETY: the CPU has every feature `search_v3` is compiled for.
        return unsafe { search_v3(a, b, job) };
    }
    search_in(a, b, job)
}

/// [`search`] for x86-64-v3 CPUs.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
unsafe fn search_v3(a: &CostArena, b: &CostBits, job: CostJob<'_>) -> MinCost {
    search_in(a, b, job)
}

#[inline(always)]
fn search_in(a: &CostArena, b: &CostBits, job: CostJob<'_>) -> MinCost {
    let CostJob { config, k, tick, ceiling } = job;
    let started = Instant::now();
    let limits = Limits::new(config);
    let leftmost = config.heuristic == Heuristic::Leftmost;
    let w = b.words;
    let n1 = b.n_primary as usize;
    let depth = n1 + 1;
    let mut live = vec![0u64; (depth + 1) * w];
    for r in 0..b.options {
        live[r / 64] |= 1 << (r % 64);
    }
    let mut active = vec![0u32; (depth + 1) * n1];
    for (j, slot) in active[..n1].iter_mut().enumerate() {
        *slot = j as u32 + 1;
    }
    let mut n_active = vec![0usize; depth + 1];
    n_active[0] = n1;
    // The counts met in the scan of a level, by place in its list of active items.
    let mut seen = vec![0u32; n1];
    // Per level: the item branched on, the next rank to try, the path's cost before the
    // level, the level's rank bound, the rank chosen.
    let mut item = vec![0u32; depth];
    let mut next_rank = vec![0usize; depth];
    let mut cost = vec![0u64; depth + 1];
    let mut bound_of = vec![0usize; depth + 1];
    let mut choice = vec![0u32; depth];
    let mut stats = Stats::default();
    let mut updates = 0u64;
    let mut best: BinaryHeap<Kept> = BinaryHeap::with_capacity(k.min(1 << 10) + 1);
    let mut cutoff = a.first_cutoff(ceiling);
    let mut stop = Stop::Exhausted;
    let mut level = 0usize;
    bound_of[0] = rank_bound(&a.net, cutoff).min(b.options);
    // The least net cost found.
    let mut least: Option<u64> = None;
    'search: loop {
        // A node: choose the item to branch on, or find that no completion can pay.
        {
            if let Some(why) = enter_node(&limits, &mut stats) {
                stop = why;
                break;
            }
            if stats.nodes % Config::CHECK_INTERVAL == 0 {
                // What is left costs at least the root option's net cost (ranks in order).
                let (lb, fraction) = if level == 0 {
                    (0, 0.0)
                } else {
                    (cost[1], root_fraction(b, &live[..w], item[0], choice[0], bound_of[0]))
                };
                if tick(&a.progress(least, lb, stats.nodes, fraction)).is_break() {
                    stop = Stop::Cancelled;
                    break;
                }
            }
            #[cfg(any(feature = "check-invariants", debug_assertions))]
            if crate::checks::costs() {
                check_level(
                    b,
                    &live[level * w..(level + 1) * w],
                    bound_of[level],
                    &choice[..level],
                    &active[level * n1..level * n1 + n_active[level]],
                );
            }
            let budget = cutoff - u128::from(cost[level]);
            let bounded = cutoff != NO_CUTOFF;
            // The level's bound was set for this cutoff when it was entered (KB2).
            let r = bound_of[level];
            debug_assert_eq!(r, rank_bound(&a.net, budget).min(r));
            let wl = r.div_ceil(64);
            let tail = below(r, wl.saturating_sub(1));
            let set = &live[level * w..level * w + wl];
            let budget_scaled = budget * u128::from(a.scale);
            let (mut shares_sum, mut apart_sum): (u128, u128) = (0, 0);
            let mut best_len = u32::MAX;
            let mut best_min = 0u64;
            let mut chosen = 0u32;
            let mut dead = wl == 0;
            let here = level * n1..level * n1 + n_active[level];
            for (slot, &i) in active[here.clone()].iter().enumerate() {
                let m = &b.mask(i)[..wl];
                let mut count = 0u32;
                let mut first = usize::MAX;
                for (word, (&x, &y)) in set.iter().zip(m).enumerate() {
                    let mut z = x & y;
                    if word + 1 == wl {
                        z &= tail;
                    }
                    if z != 0 {
                        if first == usize::MAX {
                            first = word * 64 + z.trailing_zeros() as usize;
                            if leftmost {
                                count = 1;
                                break;
                            }
                        }
                        count += z.count_ones();
                        if count > best_len {
                            break;
                        }
                    }
                }
                seen[slot] = count;
                if count == 0 {
                    dead = true;
                    break;
                }
                let min = a.net[first];
                if bounded {
                    shares_sum += u128::from(min) * u128::from(a.shares[i as usize]);
                    apart_sum += u128::from(min) * u128::from(a.weights[i as usize]);
                    if shares_sum.max(apart_sum) >= budget_scaled {
                        dead = true;
                        break;
                    }
                }
                if leftmost {
                    if chosen == 0 {
                        chosen = i;
                    }
                } else if count < best_len || (count == best_len && min > best_min) {
                    best_len = count;
                    best_min = min;
                    chosen = i;
                }
            }
            if !dead && !leftmost {
                // The items met with few options go first at this level and below, so that
                // the next scans find a small count early and stop counting the others
                // sooner (an insertion sort: the order is mostly kept from the level above).
                let list = &mut active[here];
                for j in 1..list.len() {
                    let (item, count) = (list[j], seen[j]);
                    let mut k = j;
                    while k > 0 && seen[k - 1] > count {
                        list[k] = list[k - 1];
                        seen[k] = seen[k - 1];
                        k -= 1;
                    }
                    list[k] = item;
                    seen[k] = count;
                }
            }
            if dead || chosen == 0 {
                // Back up to the level above.
                if level == 0 {
                    break;
                }
                level -= 1;
            } else {
                item[level] = chosen;
                next_rank[level] = 0;
            }
        }
        // Try the next option of `item[level]` (or back up).
        loop {
            let l = level;
            let i = item[l];
            let r = bound_of[l];
            let set = &live[l * w..l * w + w];
            let m = b.mask(i);
            // The next live option of `i` from `next_rank[l]`, below the bound.
            let mut rank = usize::MAX;
            let mut word = next_rank[l] / 64;
            while word * 64 < r {
                let mut z = set[word] & m[word];
                let from = next_rank[l].saturating_sub(word * 64);
                if from > 0 {
                    z &= if from >= 64 { 0 } else { !0u64 << from };
                }
                if z != 0 {
                    rank = word * 64 + z.trailing_zeros() as usize;
                    break;
                }
                word += 1;
            }
            let next_cost = if rank < r { cost[l] + a.net[rank] } else { u64::MAX };
            if rank >= r || u128::from(next_cost) >= cutoff {
                if level == 0 {
                    break 'search;
                }
                level -= 1;
                continue;
            }
            next_rank[l] = rank + 1;
            choice[l] = rank as u32;
            // The child's active items.
            let items = b.option_items(rank as u32);
            let (head, tail) = active.split_at_mut((l + 1) * n1);
            let parent = &head[l * n1..l * n1 + n_active[l]];
            let mut n = 0;
            for &j in parent {
                if !items.contains(&j) {
                    tail[n] = j;
                    n += 1;
                }
            }
            n_active[l + 1] = n;
            if n == 0 {
                // A solution, better than the k-th best.
                stats.nodes += 1;
                stats.solutions += 1;
                let ranks = choice[..=l].to_vec();
                least = Some(least.map_or(next_cost, |l| l.min(next_cost)));
                best.push(Kept { net: next_cost, found: stats.solutions as u64, ranks });
                if best.len() > k {
                    let _ = best.pop();
                }
                if best.len() == k {
                    cutoff = best.peek().map_or(NO_CUTOFF, |b| a.cutoff(b.net));
                }
                if config.budget.max_solutions.is_some_and(|m| stats.solutions >= m) {
                    stop = Stop::SolutionLimit;
                    break 'search;
                }
                continue;
            }
            // The child's live options: the parent's, but those clashing with `rank`, below
            // the child's bound (KB1, KB2).
            let child_bound = rank_bound(&a.net, cutoff - u128::from(next_cost)).min(r);
            let wl = child_bound.div_ceil(64);
            let (head, tail) = live.split_at_mut((l + 1) * w);
            let parent = &head[l * w..l * w + wl];
            let child = &mut tail[..wl];
            let mut hidden = 0u64;
            for (word, (c, &p)) in child.iter_mut().zip(parent).enumerate() {
                let mut clash = 0u64;
                for &j in items {
                    clash |= b.masks[j as usize * w + word];
                }
                *c = p & !clash;
                hidden += u64::from((p & clash).count_ones());
            }
            updates += hidden;
            bound_of[l + 1] = child_bound;
            cost[l + 1] = next_cost;
            level = l + 1;
            continue 'search;
        }
    }
    stats.updates = updates;
    let lb = if level == 0 { 0 } else { cost[1] };
    finish(a, best, stop, stats, started, lb)
}

/// The share of the root item's options (below the root's rank bound `r`) ranked before
/// `rank`.
fn root_fraction(b: &CostBits, live: &[u64], item: u32, rank: u32, r: usize) -> f64 {
    let m = b.mask(item);
    let (mut before, mut all) = (0u32, 0u32);
    for (word, (&x, &y)) in live.iter().zip(m).enumerate() {
        if word * 64 >= r {
            break;
        }
        let z = x & y & below(r, word);
        all += z.count_ones();
        before += (z & below(rank as usize, word)).count_ones();
    }
    if all == 0 {
        0.0
    } else {
        f64::from(before) / f64::from(all)
    }
}

/// Checks (KB1) at a level: below `bound`, the live options are exactly those sharing no item
/// with the options `chosen` above, and the active items exactly the primary items none of
/// them covers.
#[cfg(any(feature = "check-invariants", debug_assertions))]
fn check_level(b: &CostBits, live: &[u64], bound: usize, chosen: &[u32], active: &[u32]) {
    let mut covered = vec![false; b.masks.len() / b.words];
    for &rank in chosen {
        for &i in b.option_items(rank) {
            assert!(!covered[i as usize], "(KB1) item {i} covered twice");
            covered[i as usize] = true;
        }
    }
    for rank in 0..bound {
        let clash = b.option_items(rank as u32).iter().any(|&i| covered[i as usize]);
        let bit = live[rank / 64] >> (rank % 64) & 1 == 1;
        assert_eq!(bit, !clash, "(KB1) option of rank {rank} live: {bit}");
    }
    let mut expected: Vec<u32> = (1..=b.n_primary).filter(|&i| !covered[i as usize]).collect();
    let mut got = active.to_vec();
    expected.sort_unstable();
    got.sort_unstable();
    assert_eq!(got, expected, "(KB1) active items");
}
