//! Minimum-cost exact cover (Knuth's DLX5): the best costs and DLX5's own tree on the files of
//! `testdata/instances`, the brute-force oracle, and assignment problems against the
//! Hungarian algorithm.

use dancecard_engine::{
    Budget, Config, Heuristic, Kernel, LowerBound, Problem, ProblemBuilder, Solver, Stop,
};
use dancecard_testkit::{family_problem, k_best_costs, FamilyProblem};
use proptest::prelude::*;

mod common;
use common::{from_family, instance};

/// The best `k` costs of `problem` under `bound`, checked: each solution verifies and costs
/// what it says, and the arena is restored (I5).
fn best_costs(problem: &Problem, k: usize, bound: LowerBound) -> (Vec<u64>, u64, u64) {
    let mut solver = Solver::new(problem);
    let result = solver.min_cost_with(k, bound).unwrap();
    assert!(result.is_complete());
    for s in &result.best {
        problem.verify(&s.options).expect("a best solution verifies");
        let cost: u64 = s.options.iter().map(|&o| problem.option_cost(o)).sum();
        assert_eq!(cost, s.cost);
    }
    assert!(solver.is_pristine(problem), "(I5) after a min-cost search");
    let costs = result.best.iter().map(|s| s.cost).collect();
    (costs, result.stats.nodes, result.stats.updates)
}

#[test]
fn cost_domino6x6_best_three() {
    let p = instance("cost_domino6x6");
    for bound in
        [LowerBound::Dlx5, LowerBound::ItemShares, LowerBound::Relaxation, LowerBound::Auto]
    {
        assert_eq!(best_costs(&p, 3, bound).0, [43, 44, 46], "{bound:?}");
        assert_eq!(best_costs(&p, 1, bound).0, [43], "{bound:?}");
    }
}

/// DLX5's tree, node for node: `dlx5 k1` and `dlx5 k3` on cost_pent6x10.dlx
/// (testdata/instances/README.md, and DLX5's closing line for k = 3: 15 solutions,
/// 67,853,551 updates, 204,170 nodes).
#[test]
fn cost_pent6x10_as_dlx5() {
    let p = instance("cost_pent6x10");
    let (costs, nodes, updates) = best_costs(&p, 3, LowerBound::Dlx5);
    assert_eq!(costs, [235, 253, 259]);
    assert_eq!((nodes, updates), (204_170, 67_853_551));
    let (costs, nodes, _) = best_costs(&p, 1, LowerBound::Dlx5);
    assert_eq!((costs, nodes), (vec![235], 56_154));
}

#[test]
fn cost_pent6x10_with_item_shares() {
    let p = instance("cost_pent6x10");
    let (costs, nodes, _) = best_costs(&p, 3, LowerBound::ItemShares);
    assert_eq!(costs, [235, 253, 259]);
    assert!(nodes < 204_170, "the item shares cut DLX5's tree: {nodes} nodes");
}

/// The relaxation's taxes on problems whose relaxation is integral (bipartite matchings):
/// the optimum (Google OR-tools', testdata/instances/README.md) is proven in a tree of a few
/// thousand nodes at most, where DLX5 and the item shares on its taxes prove none of the last
/// three in minutes. The node counts are this version's, machine-independent.
#[test]
fn costs_at_scale_by_the_relaxation() {
    // Auto's nodes: 2,048 on DLX5's taxes (it tries them first), then the relaxation's tree
    // with a cutoff from the start.
    let cases = [
        ("cost_domino12x12", 187, 73, 2_121),
        ("cost_domino14x14", 247, 403, 2_451),
        ("cost_domino16x16", 319, 129, 2_177),
        ("cost_assign60", 204, 61, 2_109),
        ("cost_assign100", 206, 1_969, 2_613),
    ];
    for (name, least, relaxed, auto) in cases {
        let p = instance(name);
        for (bound, nodes) in [(LowerBound::Auto, auto), (LowerBound::Relaxation, relaxed)] {
            let (costs, n, _) = best_costs(&p, 1, bound);
            assert_eq!((costs, n), (vec![least], nodes), "{name}, {bound:?}");
        }
    }
    // The 3 best of a domino board: the same tree shape, more solutions to beat.
    let p = instance("cost_domino12x12");
    let (costs, _, _) = best_costs(&p, 3, LowerBound::Auto);
    assert_eq!(costs[0], 187);
    assert!(costs.windows(2).all(|w| w[0] <= w[1]), "{costs:?}");
}

/// The family problem with every bound 1:1 (an exact cover with costs).
fn with_costs(f: &FamilyProblem) -> (FamilyProblem, Problem) {
    let f = FamilyProblem { bounds: vec![(1, 1); f.raw.primary], ..f.clone() };
    let p = from_family(&f);
    (f, p)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The k best costs are the brute force's, on every bound and heuristic, colors included.
    #[test]
    fn best_costs_are_the_brute_force_ones(f in family_problem(true, true), k in 1usize..5) {
        let (f, p) = with_costs(&f);
        let expected = k_best_costs(&f, k);
        // DLX5's tree on the links; the item shares on the taxes of DLX5, of the relaxation
        // and the larger of the two, on the links and (where they pay) on bit sets.
        let runs = [
            (LowerBound::Dlx5, Kernel::Auto),
            (LowerBound::ItemShares, Kernel::Links),
            (LowerBound::ItemShares, Kernel::Auto),
            (LowerBound::Relaxation, Kernel::Links),
            (LowerBound::Relaxation, Kernel::Auto),
            (LowerBound::Auto, Kernel::Links),
            (LowerBound::Auto, Kernel::Auto),
        ];
        for (bound, kernel) in runs {
            for heuristic in [Heuristic::Mrv, Heuristic::Leftmost] {
                let config = Config { kernel, ..Config::with_heuristic(heuristic) };
                let mut solver = Solver::with_config(&p, config);
                let result = solver.min_cost_with(k, bound).unwrap();
                prop_assert!(result.is_complete());
                let costs: Vec<u64> = result.best.iter().map(|s| s.cost).collect();
                prop_assert_eq!(&costs, &expected, "{:?} {:?} {:?}", bound, kernel, heuristic);
                for s in &result.best {
                    prop_assert!(p.verify(&s.options).is_ok());
                }
                prop_assert!(solver.is_pristine(&p));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// With multiplicities (`lo:hi` on primary items, `0:b` and `b > 1` among them): the k
    /// best costs are the brute force's, each a distinct solution, for both heuristics and
    /// every `LowerBound` (they do not apply to Algorithm M's cutoff, and change nothing).
    #[test]
    fn best_costs_with_multiplicities_are_the_brute_force_ones(
        f in family_problem(true, true),
        k in 1usize..6,
    ) {
        let p = from_family(&f);
        let expected = k_best_costs(&f, k);
        for heuristic in [Heuristic::Mrv, Heuristic::Leftmost] {
            for bound in [LowerBound::Auto, LowerBound::Dlx5] {
                let mut solver = Solver::with_config(&p, Config::with_heuristic(heuristic));
                let result = solver.min_cost_with(k, bound).unwrap();
                prop_assert!(result.is_complete());
                let costs: Vec<u64> = result.best.iter().map(|s| s.cost).collect();
                prop_assert_eq!(&costs, &expected, "{:?} {:?}", heuristic, bound);
                let mut distinct: Vec<Vec<usize>> = result
                    .best
                    .iter()
                    .map(|s| {
                        let mut o: Vec<usize> = s.options.iter().map(|o| o.index()).collect();
                        o.sort_unstable();
                        o
                    })
                    .collect();
                for s in &result.best {
                    prop_assert!(p.verify(&s.options).is_ok());
                    prop_assert_eq!(p.cost_of(&s.options), s.cost);
                }
                distinct.sort();
                distinct.dedup();
                prop_assert_eq!(distinct.len(), result.best.len(), "a solution twice");
                prop_assert!(solver.is_pristine(&p));
            }
        }
    }
}

/// Min-cost with multiplicities on a file: the 12-queens problem with bounds 1:2 on the rows
/// (testdata/instances/mult_queens_12_6.dlx, 128 solutions), every option given a cost; the
/// k best against the costs of all solutions, listed by the plain search.
#[test]
fn multiplicities_on_a_file() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/instances/mult_queens_12_6.dlx"
    ))
    .unwrap();
    let mut costed = String::new();
    let mut k = 0u64;
    for line in text.lines() {
        let option = !line.starts_with('|') && !costed.lines().all(|l| l.starts_with('|'));
        costed.push_str(line);
        if option && !line.trim().is_empty() {
            k += 1;
            costed.push_str(&format!(" |{}", (k * 37) % 11));
        }
        costed.push('\n');
    }
    let p = dancecard_format::parse_dlx(costed.as_bytes()).unwrap().problem;
    assert!(p.has_bounds() && p.has_costs());
    let mut all: Vec<u64> = Solver::new(&p).solutions().map(|s| p.cost_of(&s)).collect();
    assert_eq!(all.len(), 128);
    all.sort_unstable();
    for k in [1, 5, 128, 200] {
        let (costs, _, _) = best_costs(&p, k, LowerBound::Auto);
        assert_eq!(costs, all[..k.min(128)], "k = {k}");
    }
}

/// The Hungarian algorithm (Kuhn-Munkres with potentials, O(n^3)): the least total cost of a
/// perfect matching of rows to columns.
fn hungarian(cost: &[Vec<u64>]) -> u64 {
    let n = cost.len();
    let inf = i64::MAX / 4;
    // 1-based, as in the textbook version: p[j] is the row matched to column j.
    let (mut u, mut v) = (vec![0i64; n + 1], vec![0i64; n + 1]);
    let (mut p, mut way) = (vec![0usize; n + 1], vec![0usize; n + 1]);
    for i in 1..=n {
        p[0] = i;
        let mut j0 = 0;
        let mut minv = vec![inf; n + 1];
        let mut used = vec![false; n + 1];
        loop {
            used[j0] = true;
            let (i0, mut delta, mut j1) = (p[j0], inf, 0);
            for j in 1..=n {
                if !used[j] {
                    let cur = cost[i0 - 1][j - 1] as i64 - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=n {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    (1..=n).map(|j| cost[p[j] - 1][j - 1]).sum()
}

/// Rows and columns as primary items, one option `r_i c_j` per cell with its cost.
fn assignment(cost: &[Vec<u64>]) -> Problem {
    let n = cost.len();
    let mut b = ProblemBuilder::new();
    let rows: Vec<_> = (0..n).map(|i| b.primary(&format!("r{i}")).unwrap()).collect();
    let cols: Vec<_> = (0..n).map(|j| b.primary(&format!("c{j}")).unwrap()).collect();
    for i in 0..n {
        for j in 0..n {
            b.option_with_cost([rows[i], cols[j]], cost[i][j]).unwrap();
        }
    }
    b.build()
}

fn matrix(max_n: usize, max_cost: u64) -> impl Strategy<Value = Vec<Vec<u64>>> {
    (1..=max_n).prop_flat_map(move |n| {
        proptest::collection::vec(proptest::collection::vec(0..max_cost, n), n)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// An assignment problem's least cost is the Hungarian algorithm's.
    #[test]
    fn assignments_cost_what_the_hungarian_algorithm_says(cost in matrix(9, 1000)) {
        let p = assignment(&cost);
        let expected = hungarian(&cost);
        let bounds = [LowerBound::Dlx5, LowerBound::ItemShares, LowerBound::Relaxation, LowerBound::Auto];
        for bound in bounds {
            let result = Solver::new(&p).min_cost_with(1, bound).unwrap();
            prop_assert!(result.is_complete());
            prop_assert_eq!(result.best.len(), 1);
            prop_assert_eq!(result.best[0].cost, expected, "{:?}", bound);
            prop_assert!(p.verify(&result.best[0].options).is_ok());
        }
    }
}

#[test]
fn hungarian_reference_on_a_known_matrix() {
    // The classic 3x3 example: rows take columns 1, 0, 2 for 2 + 4 + 3... in fact the
    // optimum is 1 + 2 + 2 = 5 (row 0 column 1, row 1 column 0, row 2 column 2).
    let cost = vec![vec![4, 1, 3], vec![2, 0, 5], vec![3, 2, 2]];
    assert_eq!(hungarian(&cost), 5);
    assert_eq!(Solver::new(&assignment(&cost)).min_cost(1).unwrap().best[0].cost, 5);
}

/// A search stopped by a node limit, a time limit or the cancel flag restores the arena and
/// keeps the best found so far; the same solver then finds the proven best.
#[test]
fn a_stopped_search_keeps_its_best_and_the_arena() {
    let p = instance("cost_pent6x10");
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let configs = [
        (Config::with_budget(Budget::new().max_nodes(5_000)), Stop::NodeLimit),
        (Config::with_budget(Budget::new().max_solutions(4)), Stop::SolutionLimit),
        (Config::with_budget(Budget::new().time_limit(std::time::Duration::ZERO)), Stop::TimeLimit),
        (Config::with_budget(Budget::new().cancel(cancel)), Stop::Cancelled),
    ];
    for (config, stop) in configs {
        let mut solver = Solver::with_config(&p, config);
        let result = solver.min_cost(3).unwrap();
        assert_eq!(result.stop, stop);
        assert!(!result.is_complete());
        assert!(solver.is_pristine(&p), "(I5) after {stop:?}");
        for s in &result.best {
            p.verify(&s.options).unwrap();
        }
        solver.set_config(Config::default());
        let costs: Vec<u64> = solver.min_cost(3).unwrap().best.iter().map(|s| s.cost).collect();
        assert_eq!(costs, [235, 253, 259], "after {stop:?}");
    }
}

#[test]
fn small_and_odd_problems() {
    // No primary item: the empty solution, cost 0.
    let mut b = ProblemBuilder::new();
    let _ = b.secondary("s").unwrap();
    let p = b.build();
    let result = Solver::new(&p).min_cost(2).unwrap();
    assert_eq!(result.best.len(), 1);
    assert_eq!((result.best[0].cost, result.best[0].options.len()), (0, 0));
    // No solution: nothing listed, complete.
    let mut b = ProblemBuilder::new();
    let (x, y) = (b.primary("x").unwrap(), b.primary("y").unwrap());
    b.option_with_cost([x], 3).unwrap();
    let _ = y;
    let p = b.build();
    let result = Solver::new(&p).min_cost(1).unwrap();
    assert!(result.best.is_empty() && result.is_complete());
    // A huge k reserves nothing up front: it lists the solutions there are.
    let q = instance("queens8");
    assert_eq!(Solver::new(&q).min_cost(usize::MAX).unwrap().best.len(), 92);
    // k = 0 asks for nothing.
    assert!(Solver::new(&p).min_cost(0).unwrap().best.is_empty());
    // Costs without any: every solution costs 0, k of them listed.
    let q = instance("queens8");
    let result = Solver::new(&q).min_cost(5).unwrap();
    assert_eq!(result.best.iter().map(|s| s.cost).collect::<Vec<_>>(), [0; 5]);
    // Bounds without costs: every solution costs 0, each listed once.
    let m = instance("mult_queens_12_6");
    let result = Solver::new(&m).min_cost(200).unwrap();
    assert_eq!(result.best.len(), 128);
    assert!(result.best.iter().all(|s| s.cost == 0) && result.is_complete());
    // Bounds with the empty solution: `0:2|a` may be left uncovered, and that costs 0;
    // then one option (3), then both (3 + 4).
    let mut b = ProblemBuilder::new();
    let a = b.primary_with_bounds("a", 0, 2).unwrap();
    b.option_with_cost([a], 3).unwrap();
    b.option_with_cost([a], 4).unwrap();
    let p = b.build();
    let result = Solver::new(&p).min_cost(5).unwrap();
    let costs: Vec<u64> = result.best.iter().map(|s| s.cost).collect();
    assert_eq!(costs, [0, 3, 4, 7]);
    assert!(result.best[0].options.is_empty());
}

/// Progress of a min-cost search (#30): the best cost only falls, the proven lower bound only
/// rises and never passes the best nor the least cost; a complete search ends with the bound
/// at the least cost; `Break` stops it with the best so far and a bound at most that.
#[test]
fn progress_brackets_the_least_cost() {
    let cases = [
        ("cost_pent6x10", 235, LowerBound::Dlx5, Kernel::Links),
        ("cost_pent6x10", 235, LowerBound::ItemShares, Kernel::Auto),
        ("cost_pent6x10", 235, LowerBound::Auto, Kernel::Links),
        ("cost_mult_a001499_6", 20, LowerBound::Auto, Kernel::Auto),
    ];
    for (name, least, bound, kernel) in cases {
        let p = instance(name);
        let config = Config { kernel, ..Config::default() };
        let mut seen = Vec::new();
        let result = Solver::with_config(&p, config.clone())
            .min_cost_with_progress(1, bound, |progress| {
                seen.push(*progress);
                std::ops::ControlFlow::Continue(())
            })
            .unwrap();
        assert!(result.is_complete());
        assert_eq!((result.best[0].cost, result.lower_bound), (least, Some(least)), "{name}");
        assert_eq!(result.gap(), Some(0.0));
        assert!(!seen.is_empty(), "{name} {bound:?}: no progress reported");
        for w in seen.windows(2) {
            assert!(w[0].lower_bound <= w[1].lower_bound, "{name}: {w:?}");
            assert!(w[1].best.is_none() || w[0].best.is_none() || w[1].best <= w[0].best);
            assert!(w[0].nodes < w[1].nodes && (0.0..=1.0).contains(&w[1].fraction));
        }
        for s in &seen {
            assert!(s.lower_bound <= least, "{name} {bound:?}: {s:?}");
            assert!(s.best.is_none_or(|b| b >= least && s.lower_bound <= b), "{s:?}");
        }
        // Stopped at the first report that has a solution.
        let stopped = Solver::with_config(&p, config)
            .min_cost_with_progress(1, bound, |progress| {
                if progress.best.is_some() {
                    std::ops::ControlFlow::Break(())
                } else {
                    std::ops::ControlFlow::Continue(())
                }
            })
            .unwrap();
        if stopped.stop == Stop::Cancelled {
            let best = stopped.best[0].cost;
            let bound = stopped.lower_bound.unwrap();
            assert!(bound <= least && least <= best, "{name}: {bound} {best}");
            assert!(stopped.gap().is_some_and(|g| (0.0..=1.0).contains(&g)));
        } else {
            assert!(stopped.is_complete(), "{name}: {:?}", stopped.stop);
        }
    }
}

/// A node limit leaves the best found and a proven bound below it: domino16x16 on DLX5's
/// taxes (which prove nothing there in minutes), and the relaxation's bound from the start.
#[test]
fn a_limited_search_brackets_the_optimum() {
    let p = instance("cost_domino16x16");
    let config = Config { budget: Budget::new().max_nodes(20_000), ..Config::default() };
    let result = Solver::with_config(&p, config).min_cost_with(1, LowerBound::Dlx5).unwrap();
    assert_eq!(result.stop, Stop::NodeLimit);
    let (best, bound) = (result.best[0].cost, result.lower_bound.unwrap());
    assert!(bound <= 319 && 319 <= best, "{bound} {best}");
    // The relaxation's bound alone, before any search: within a unit of 319.
    let config = Config { budget: Budget::new().max_nodes(1), ..Config::default() };
    let result = Solver::with_config(&p, config).min_cost_with(1, LowerBound::Relaxation).unwrap();
    assert_eq!(result.lower_bound, Some(319));
    assert!(result.best.is_empty() && result.gap().is_none());
    // Auto's two searches share the node limit: stopped in the first (2,048 nodes on DLX5's
    // taxes), just past it, or in the second; the 3 best, ties and all.
    let (least3, _, _) = best_costs(&p, 3, LowerBound::Relaxation);
    for limit in [1, 2_000, 2_048, 2_049, 2_050, 2_060, 2_100, 2_200, 100_000] {
        for k in [1, 3] {
            let config = Config { budget: Budget::new().max_nodes(limit), ..Config::default() };
            let result =
                Solver::with_config(&p, config).min_cost_with(k, LowerBound::Auto).unwrap();
            assert!(result.stats.nodes <= limit + 2 * k as u64, "{limit}: {:?}", result.stats);
            let costs: Vec<u64> = result.best.iter().map(|s| s.cost).collect();
            assert!(costs.windows(2).all(|w| w[0] <= w[1]) && costs.len() <= k, "{costs:?}");
            for s in &result.best {
                p.verify(&s.options).unwrap();
                assert_eq!(p.cost_of(&s.options), s.cost);
            }
            if result.is_complete() {
                let want: Vec<u64> = least3.iter().copied().take(k).collect();
                assert_eq!(costs, want, "{limit}");
            } else {
                assert_eq!(result.stop, Stop::NodeLimit);
                let bound = result.lower_bound.unwrap();
                assert!(bound <= 319 && costs.first().is_none_or(|&b| bound <= b), "{limit}");
            }
        }
    }
}

/// `f` with its costs made huge: multiplied so that they add up to nearly `u64::MAX`, the
/// rest added to the last costly option, so that all the option costs add up to `u64::MAX`
/// exactly (as much as a problem may hold) and a solution may cost that much.
fn with_huge_costs(f: &FamilyProblem) -> FamilyProblem {
    let mut f = f.clone();
    let total: u64 = f.costs.iter().sum();
    if total == 0 {
        return f;
    }
    let m = u64::MAX / total;
    for c in &mut f.costs {
        *c *= m;
    }
    let rest = u64::MAX - f.costs.iter().sum::<u64>();
    if let Some(c) = f.costs.iter_mut().rev().find(|c| **c > 0) {
        *c += rest;
    }
    f
}

/// Costs at the edge of `u64` (#30's review): a solution that costs `u64::MAX` exactly, or
/// just under, is found like any other, on every bound and kernel, with and without
/// multiplicities (the cutoffs are past every net cost, not `u64::MAX` itself).
#[test]
fn costs_at_the_edge_of_u64() {
    const MAX: u64 = u64::MAX;
    let mut b = ProblemBuilder::new();
    let (x, y) = (b.primary("x").unwrap(), b.primary("y").unwrap());
    b.option_with_cost([x], 0).unwrap();
    b.option_with_cost([x], MAX).unwrap();
    b.option_with_cost([y], 0).unwrap();
    b.option_with_cost([y], 0).unwrap();
    let p = b.build();
    let mut b = ProblemBuilder::new();
    let (x, y) = (b.primary("x").unwrap(), b.primary("y").unwrap());
    b.option_with_cost([x], 1 << 63).unwrap();
    b.option_with_cost([y], (1 << 63) - 2).unwrap();
    b.option_with_cost([y], 1).unwrap();
    let q = b.build();
    let mut b = ProblemBuilder::new();
    let a = b.primary_with_bounds("a", 0, 2).unwrap();
    b.option_with_cost([a], MAX - 1).unwrap();
    b.option_with_cost([a], 1).unwrap();
    let m = b.build();
    let cases: [(&Problem, usize, &[u64]); 4] = [
        (&p, 4, &[0, 0, MAX, MAX]),
        (&q, 3, &[(1 << 63) + 1, MAX - 1]),
        (&q, 1, &[(1 << 63) + 1]),
        (&m, 4, &[0, 1, MAX - 1, MAX]),
    ];
    for (problem, k, expected) in cases {
        for bound in [LowerBound::Auto, LowerBound::Relaxation, LowerBound::ItemShares] {
            for kernel in [Kernel::Links, Kernel::Auto] {
                let config = Config { kernel, ..Config::default() };
                let result = Solver::with_config(problem, config).min_cost_with(k, bound).unwrap();
                assert!(result.is_complete());
                let costs: Vec<u64> = result.best.iter().map(|s| s.cost).collect();
                assert_eq!(costs, expected, "{bound:?} {kernel:?}");
            }
        }
        let (costs, _, _) = best_costs(problem, k, LowerBound::Dlx5);
        assert_eq!(costs, expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Huge costs, all of them adding up to `u64::MAX`: the k best are the brute force's on
    /// every bound, with and without multiplicities.
    #[test]
    fn huge_costs_are_the_brute_force_ones(
        f in family_problem(true, true),
        k in 1usize..5,
        exact in any::<bool>(),
    ) {
        let f = if exact { with_costs(&f).0 } else { f };
        let f = with_huge_costs(&f);
        let p = from_family(&f);
        let expected = k_best_costs(&f, k);
        for bound in [LowerBound::Dlx5, LowerBound::ItemShares, LowerBound::Relaxation, LowerBound::Auto] {
            for kernel in [Kernel::Links, Kernel::Auto] {
                let config = Config { kernel, ..Config::default() };
                let mut solver = Solver::with_config(&p, config);
                let result = solver.min_cost_with(k, bound).unwrap();
                prop_assert!(result.is_complete());
                let costs: Vec<u64> = result.best.iter().map(|s| s.cost).collect();
                prop_assert_eq!(&costs, &expected, "{:?} {:?}", bound, kernel);
                for s in &result.best {
                    prop_assert_eq!(p.cost_of(&s.options), s.cost);
                }
                prop_assert!(solver.is_pristine(&p));
            }
        }
    }
}
