//! Taxes for the minimum-cost search (`cost.rs`): DLX5's, and those of the linear relaxation.
//!
//! A *tax* `t(i)` on each primary item, taken off every option that holds the item, leaves
//! each option a *net cost* `c(o) - sum of t(i), i in o`, and every solution's cost drops by
//! the same total tax `T = sum of t(i)` (each primary item is covered once). When every net
//! cost is nonnegative, `T` is a lower bound on the least cost, and the search on net costs
//! prunes an option whose net cost alone reaches what is left to spend (DLX5's cutoff): in
//! the words of linear programming, the taxes are a feasible solution of the dual of the
//! relaxation (`min c x`, `A x = 1`, `x >= 0`), `T` its objective, and the net costs are
//! reduced costs, so the cutoff is *reduced-cost fixing*.
//!
//! - **DLX5's taxes** ([`greedy`]): each primary item in turn is taxed the least net cost of
//!   its options (a pass of coordinate ascent on the dual, from zero).
//! - **The relaxation's taxes** ([`relaxation`]): the dual is maximised first, approximately,
//!   by subgradient ascent on the Lagrangian `L(u) = sum of u(i) + sum over options of
//!   min(0, c(o) - sum of u(i), i in o)`, which is a lower bound for every `u` and whose
//!   maximum is the relaxation's optimum. The best `u` found is scaled to integers (net costs
//!   in units of `1 / scale`), made feasible (an option whose net cost would be negative takes
//!   the difference back from its items' taxes) and finished by DLX5's pass. On problems whose
//!   relaxation is integral (assignments, dominoes on a board: bipartite matchings) `T` is
//!   then within a fraction of a unit of the least cost, and the search proves the optimum at
//!   its first solution.
//!
//! Floating point only steers the ascent: the taxes are integers, checked feasible in integer
//! arithmetic, so the bound is exact whatever the rounding.
//!
//! # Invariants
//!
//! - **(R1)** Every net cost `c(o) * scale - sum of t(i), i in o` is nonnegative.
//! - **(R2)** `total` is the sum of the taxes, and `total <= scale * (least cost)`.
//!
//! # Bibliography
//!
//! - Michael Held, Philip Wolfe and Harlan P. Crowder, "Validation of subgradient
//!   optimization", *Mathematical Programming* 6 (1974), 62-88 (the step rule).
//! - Marshall L. Fisher, "The Lagrangian relaxation method for solving integer programming
//!   problems", *Management Science* 27 (1981), 1-18.

use crate::Budget;

/// Taxes per primary item and their unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Taxes {
    /// Per item (index 0 unused, then the primary items `1..=n1`): its tax, in units of
    /// `1 / scale`. The relaxation's may be negative (each item is covered exactly once, so
    /// its dual is free).
    pub(crate) per_item: Vec<i128>,
    /// Costs are multiplied by this (a power of two; 1 for DLX5's taxes).
    pub(crate) scale: u64,
    /// The sum of the taxes (R2).
    pub(crate) total: i128,
}

/// An option as the taxes see it: its primary items (`1..=n1`) and its cost.
pub(crate) struct Priced<'a> {
    /// The primary items.
    pub(crate) items: &'a [u32],
    /// The cost.
    pub(crate) cost: u64,
}

/// DLX5's taxes: each primary item `1..=n1` in order is taxed the least net cost of its
/// options (`containing[i]`: the options holding item `i`).
pub(crate) fn greedy(options: &[Priced<'_>], containing: &[Vec<usize>], n1: usize) -> Taxes {
    let mut net: Vec<u64> = options.iter().map(|o| o.cost).collect();
    let mut per_item = vec![0i128; n1 + 1];
    let total = finish_greedy(&mut net, containing, &mut per_item, n1);
    Taxes { per_item, scale: 1, total }
}

/// DLX5's pass on the net costs `net`: adds to each item's tax the least net cost of its
/// options; the total of the taxes.
fn finish_greedy(
    net: &mut [u64],
    containing: &[Vec<usize>],
    per_item: &mut [i128],
    n1: usize,
) -> i128 {
    for i in 1..=n1 {
        let Some(tax) = containing[i].iter().map(|&k| net[k]).min() else { continue };
        if tax > 0 {
            per_item[i] += i128::from(tax);
            for &k in &containing[i] {
                net[k] -= tax;
            }
        }
    }
    per_item.iter().sum()
}

/// Iterations of the subgradient ascent at most.
pub(crate) const MAX_ITERATIONS: usize = 1_000;

/// Work of the ascent at most, in item entries read (an iteration reads each option's items).
const MAX_WORK: u64 = 200_000_000;

/// Iterations without a better bound before the step halves.
const PATIENCE: usize = 20;

/// The relaxation's taxes (see the module docs) after at most `iterations` steps of the
/// ascent (and at most [`MAX_WORK`] entries read in all), or `None` when the costs are too
/// large to scale, or `budget` stops the ascent (its cancel flag or its time limit, looked at
/// every iteration). The ascent starts from `start`: DLX5's taxes, or the taxes of an earlier
/// ascent to go on from.
pub(crate) fn relaxation(
    options: &[Priced<'_>],
    containing: &[Vec<usize>],
    n1: usize,
    start: &Taxes,
    iterations: usize,
    budget: &Budget,
) -> Option<Taxes> {
    let scale = scale_for(options, n1)?;
    let entries: u64 = options.iter().map(|o| o.items.len() as u64).sum::<u64>().max(1);
    let iterations = iterations.min((MAX_WORK / entries) as usize);
    let deadline = budget.deadline(std::time::Instant::now());
    let unit = start.scale as f64;
    let mut u: Vec<f64> = start.per_item.iter().map(|&t| t as f64 / unit).collect();
    let mut best = u.clone();
    let mut best_value = start.total as f64 / unit;
    let mut step_size = 2.0;
    let mut stalled = 0;
    let mut gradient = vec![0f64; n1 + 1];
    for _ in 0..iterations {
        if budget.is_cancelled() || deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            return None;
        }
        // L(u) and a subgradient: 1 - (the options of negative reduced cost holding i).
        let mut value: f64 = u[1..].iter().sum();
        gradient[1..].fill(1.0);
        for o in options {
            let reduced = o.cost as f64 - o.items.iter().map(|&i| u[i as usize]).sum::<f64>();
            if reduced < 0.0 {
                value += reduced;
                for &i in o.items {
                    gradient[i as usize] -= 1.0;
                }
            }
        }
        if value > best_value + 1e-9 * best_value.abs().max(1.0) {
            best_value = value;
            best.copy_from_slice(&u);
            stalled = 0;
        } else {
            stalled += 1;
            if stalled >= PATIENCE {
                step_size /= 2.0;
                stalled = 0;
                if step_size < 1e-4 {
                    break;
                }
            }
        }
        let norm: f64 = gradient[1..].iter().map(|g| g * g).sum();
        if norm == 0.0 {
            // 0 is a subgradient: u maximises L.
            break;
        }
        let target = best_value + (0.05 * best_value.abs()).max(1.0);
        let step = step_size * (target - value) / norm;
        for i in 1..=n1 {
            u[i] += step * gradient[i];
        }
    }
    // To integers, feasible (R1): an option whose taxes pass its cost takes the difference
    // back from its first item (an option without primary items costs what it costs); then
    // DLX5's pass. In 128 bits, then checked to fit (else no relaxation taxes).
    let bound = 1i128 << 60;
    let mut wide: Vec<i128> = best
        .iter()
        .map(|&x| {
            if x.is_finite() {
                ((x * scale as f64).floor() as i128).clamp(-bound, bound)
            } else {
                0
            }
        })
        .collect();
    wide[0] = 0;
    let taxed =
        |wide: &[i128], o: &Priced<'_>| -> i128 { o.items.iter().map(|&i| wide[i as usize]).sum() };
    for o in options {
        let full = i128::from(o.cost) * i128::from(scale);
        let t = taxed(&wide, o);
        if let (true, Some(&first)) = (t > full, o.items.first()) {
            wide[first as usize] -= t - full;
        }
    }
    let fits = |x: i128| x.unsigned_abs() <= 1u128 << 62;
    let mut net = Vec::with_capacity(options.len());
    for o in options {
        let n = i128::from(o.cost) * i128::from(scale) - taxed(&wide, o);
        if n < 0 || !fits(n) {
            return None;
        }
        net.push(n as u64);
    }
    if !fits(wide.iter().sum()) || !wide.iter().all(|&t| fits(t)) {
        return None;
    }
    let total = finish_greedy(&mut net, containing, &mut wide, n1);
    let per_item = wide;
    Some(Taxes { per_item, scale, total })
}

/// The unit of the relaxation's taxes: `2^16`, or less where the costs need the room (the
/// largest cost times the scale times the number of items must stay far below 2^63); `None`
/// when even 1 is too much.
fn scale_for(options: &[Priced<'_>], n1: usize) -> Option<u64> {
    let largest = options.iter().map(|o| o.cost).max().unwrap_or(0).max(1);
    let room = (1u64 << 60) / largest / (n1 as u64 + 1);
    if room == 0 {
        return None;
    }
    Some(1u64 << room.ilog2().min(16))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// DLX5's taxes and the relaxation's of `options` (items `1..=n1`), checked for (R1)
    /// and (R2) against the least cost `least`.
    fn taxes(options: &[(Vec<u32>, u64)], n1: usize, least: u64) -> (Taxes, Taxes) {
        let priced: Vec<Priced<'_>> =
            options.iter().map(|(items, cost)| Priced { items, cost: *cost }).collect();
        let mut containing = vec![Vec::new(); n1 + 1];
        for (k, (items, _)) in options.iter().enumerate() {
            for &i in items {
                containing[i as usize].push(k);
            }
        }
        let g = greedy(&priced, &containing, n1);
        let r = relaxation(&priced, &containing, n1, &g, MAX_ITERATIONS, &Budget::new())
            .expect("taxes");
        // Ten steps, then the rest from there: a warm start keeps (R1)-(R2), and its bound.
        let early = relaxation(&priced, &containing, n1, &g, 10, &Budget::new()).expect("taxes");
        let warm = relaxation(&priced, &containing, n1, &early, MAX_ITERATIONS, &Budget::new())
            .expect("taxes");
        // (Rounding to integers may lose less than a unit per item.)
        assert_eq!(warm.scale, early.scale);
        assert!(warm.total + n1 as i128 >= early.total, "{early:?} {warm:?}");
        for t in [&g, &r, &early, &warm] {
            for (items, cost) in options {
                let taxed: i128 = items.iter().map(|&i| t.per_item[i as usize]).sum();
                assert!(taxed <= i128::from(cost * t.scale), "(R1) {t:?}");
            }
            assert_eq!(t.total, t.per_item.iter().sum::<i128>(), "(R2)");
            assert!(t.total <= i128::from(least * t.scale), "(R2) {t:?}");
        }
        (g, r)
    }

    /// A 3x3 assignment: the relaxation is integral (5, the least cost); DLX5's taxes stop
    /// at 4, the relaxation's pass it.
    #[test]
    fn an_assignment() {
        let cost = [[4, 1, 3], [2, 0, 5], [3, 2, 2]];
        let mut options = Vec::new();
        for (r, row) in cost.iter().enumerate() {
            for (c, &x) in row.iter().enumerate() {
                options.push((vec![1 + r as u32, 4 + c as u32], x));
            }
        }
        // The least: row 0 col 1 (1), row 1 col 0 (2), row 2 col 2 (2) = 5.
        let (g, r) = taxes(&options, 6, 5);
        assert_eq!((g.scale, g.total), (1, 4));
        assert!(r.total > 4 * i128::from(r.scale), "{r:?}");
    }

    /// A triangle of pairs and singles: the relaxation is fractional (a half of each pair).
    #[test]
    fn a_fractional_relaxation() {
        let options = vec![
            (vec![1, 2], 2),
            (vec![2, 3], 2),
            (vec![1, 3], 2),
            (vec![1], 3),
            (vec![2], 3),
            (vec![3], 3),
        ];
        // The least: a pair and a single, 5; the relaxation: half of each pair, 3.
        let (g, r) = taxes(&options, 3, 5);
        assert_eq!((g.scale, g.total), (1, 2));
        assert!(r.total > 2 * i128::from(r.scale) && r.total <= 3 * i128::from(r.scale), "{r:?}");
    }

    /// Costs too large to scale: no relaxation taxes.
    #[test]
    fn huge_costs() {
        let items = [1u32];
        let options = [Priced { items: &items, cost: u64::MAX / 2 }];
        assert_eq!(scale_for(&options, 1), None);
        let options = [Priced { items: &items, cost: 1 << 40 }];
        assert_eq!(scale_for(&options, 1), Some(1 << 16));
        let options = [Priced { items: &items, cost: 1 << 50 }];
        assert_eq!(scale_for(&options, 1), Some(1 << 9));
    }
}
