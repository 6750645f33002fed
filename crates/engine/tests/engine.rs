//! The engine against known counts, Knuth's DLX1 statistics and a brute-force oracle.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use dancecard_engine::{
    checks_invariants, Budget, Config, Event, Heuristic, Kernel, OptionId, Problem, ProblemBuilder,
    Solver, Stop,
};
use dancecard_testkit::{brute_force, nightly, raw_problem, RawProblem};
use proptest::prelude::*;

mod common;
use common::{all_solutions, check_counts, count_on, from_raw, instance, same_as_oracle};

fn toy() -> Problem {
    common::parse("a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n")
}

/// Langford pairs: values `1..=n` and positions `1..=2n`, all primary; value `v` at
/// positions `j` and `j + v + 1`.
fn langford(n: usize) -> Problem {
    let mut b = ProblemBuilder::new();
    let values: Vec<_> = (1..=n).map(|v| b.primary(&format!("v{v}")).unwrap()).collect();
    let slots: Vec<_> = (1..=2 * n).map(|s| b.primary(&format!("s{s}")).unwrap()).collect();
    for v in 1..=n {
        for j in 0..2 * n {
            if j + v + 1 < 2 * n {
                b.option([values[v - 1], slots[j], slots[j + v + 1]]).unwrap();
            }
        }
    }
    b.build()
}

#[test]
fn knuth_toy_problem() {
    let p = toy();
    let mut solver = Solver::new(&p);
    let first = solver.first().unwrap();
    let text: Vec<String> = first.iter().map(|&o| p.option_text(o)).collect();
    assert_eq!(text, ["a d f", "b g", "c e"]);
    let outcome = solver.count();
    assert_eq!((outcome.solutions, outcome.stop), (1, Stop::Exhausted));
    assert!(solver.is_pristine(&p));
    assert_eq!(all_solutions(&p, Heuristic::Leftmost), [[0, 3, 4]]);
}

#[test]
fn unsolvable_problem() {
    // Item c is in no option.
    let mut b = ProblemBuilder::new();
    for name in ["a", "b", "c"] {
        b.primary(name).unwrap();
    }
    b.option_by_names(["a", "b"]).unwrap();
    b.option_by_names(["a"]).unwrap();
    b.option_by_names(["b"]).unwrap();
    let p = b.build();
    let mut solver = Solver::new(&p);
    assert_eq!(solver.first(), None);
    let outcome = solver.count();
    assert_eq!(outcome.solutions, 0);
    assert!(outcome.is_complete());
    // MRV picks c at once (no options): one node.
    assert_eq!(solver.stats().nodes, 1);
    let mut left = Solver::with_config(&p, Config::with_heuristic(Heuristic::Leftmost));
    assert_eq!(left.count().solutions, 0);
    assert!(left.stats().nodes > 1);
    assert!(left.is_pristine(&p));
}

#[test]
fn no_primary_items_has_the_empty_solution() {
    let p = ProblemBuilder::new().build();
    let mut solver = Solver::new(&p);
    assert_eq!(solver.first(), Some(vec![]));
    assert_eq!(solver.count().solutions, 1);
}

#[test]
fn colors() {
    // Two rows of a 2-cell strip must agree on the color of the shared edge `x`.
    // Options 0 to 4; in option 3 an uncolored `x`, exclusive.
    let p = common::parse("a c | x y\na x:red\na x:blue\nc x:red y\nc x\nc x:blue\n");
    assert_eq!(all_solutions(&p, Heuristic::Mrv), [[0, 2], [1, 4]]);
    assert_eq!(all_solutions(&p, Heuristic::Leftmost), [[0, 2], [1, 4]]);
}

#[test]
fn uncolored_secondary_is_covered_at_most_once() {
    let mut b = ProblemBuilder::new();
    for name in ["a", "b"] {
        b.primary(name).unwrap();
    }
    b.secondary("x").unwrap();
    b.option_by_names(["a", "x"]).unwrap();
    b.option_by_names(["b", "x"]).unwrap();
    b.option_by_names(["b"]).unwrap();
    b.option_by_names(["a"]).unwrap();
    let p = b.build();
    assert_eq!(all_solutions(&p, Heuristic::Mrv), [[0, 2], [1, 3], [2, 3]]);
}

/// One test per instance file, `dlx1_counts_NAME`, with DLX1's exact solutions, nodes and
/// updates (testdata/instances/README.md).
macro_rules! dlx1_counts {
    ($($test:ident: $name:literal, $solutions:expr, $nodes:expr, $updates:expr;)*) => {$(
        #[test]
        fn $test() {
            check_counts($name, &[Kernel::Auto], $solutions, $nodes, $updates);
        }
    )*};
}

dlx1_counts! {
    dlx1_counts_queens8: "queens8", 92, 1_049, 16_680;
    dlx1_counts_domino6x6: "domino6x6", 6_728, 25_695, 95_296;
    dlx1_counts_sudoku_inkala: "sudoku_inkala", 1, 2_826, 50_570;
    dlx1_counts_queens12: "queens12", 14_200, 211_716, 3_594_752;
    dlx1_counts_domino8x8: "domino8x8", 12_988_816, 50_102_176, 184_609_612;
    dlx1_counts_pent6x10: "pent6x10", 9_356, 3_637_261, 1_242_377_480;
}

#[test]
fn langford_pairs() {
    let truth =
        String::from_utf8(dancecard_testkit::testdata("ground-truth/langford_L2n.tsv")).unwrap();
    for line in truth.lines().filter(|l| !l.starts_with('#') && !l.starts_with('n')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let n: usize = cols[0].parse().unwrap();
        if n > 8 {
            continue;
        }
        let count: u128 = cols[2].parse().unwrap();
        assert_eq!(Solver::new(&langford(n)).count().solutions, count, "Langford n = {n}");
    }
    assert_eq!(Solver::new(&langford(7)).count().solutions, 52);
}

#[test]
fn iterator_is_lazy_and_resumable() {
    let p = instance("domino8x8");
    let mut solver = Solver::new(&p);
    let three: Vec<Vec<OptionId>> = solver.solutions().take(3).collect();
    assert_eq!(three.len(), 3);
    assert!(solver.stats().nodes < 200, "taking 3 solutions must not search the tree");
    for s in &three {
        p.verify(s).unwrap();
    }
    assert_ne!(three[0], three[1]);
    // A new search after an abandoned iteration starts from scratch and restores the arena.
    let again: Vec<Vec<OptionId>> = solver.solutions().take(3).collect();
    assert_eq!(again, three);
    let small = instance("queens8");
    let mut solver = Solver::new(&small);
    let mut it = solver.solutions();
    let all: Vec<_> = it.by_ref().collect();
    assert_eq!(all.len(), 92);
    assert_eq!(it.outcome(), Some(Stop::Exhausted));
    assert!(solver.is_pristine(&small));
}

#[test]
fn visitor_can_stop_the_search() {
    let p = instance("queens8");
    let mut solver = Solver::new(&p);
    let mut seen = 0;
    let outcome = solver.solve_with(|_| {
        seen += 1;
        if seen == 10 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!((outcome.solutions, outcome.stop), (10, Stop::Visitor));
    assert!(solver.is_pristine(&p));
}

#[test]
fn limits_stop_the_search_and_say_so() {
    let p = instance("queens12");
    let limited = |config: Config| {
        let mut solver = Solver::with_config(&p, config);
        let outcome = solver.count();
        assert!(solver.is_pristine(&p), "(I5) after a stop");
        (outcome, *solver.stats())
    };
    let (o, _) = limited(Config::with_budget(Budget::new().max_solutions(100)));
    assert_eq!((o.solutions, o.stop), (100, Stop::SolutionLimit));
    let (o, s) = limited(Config::with_budget(Budget::new().max_nodes(5_000)));
    assert_eq!(o.stop, Stop::NodeLimit);
    assert_eq!(s.nodes, 5_000);
    assert!(o.solutions < 14_200);
    let cancel = Arc::new(AtomicBool::new(true));
    let (o, s) = limited(Config::with_budget(Budget::new().cancel(cancel)));
    assert_eq!(o.stop, Stop::Cancelled);
    assert_eq!(s.nodes, Config::CHECK_INTERVAL);
    let (o, _) = limited(Config::with_budget(Budget::new().time_limit(Duration::ZERO)));
    assert_eq!(o.stop, Stop::TimeLimit);
    // The collected solutions of a stopped search are real.
    let mut solver = Solver::with_config(&p, Config::with_budget(Budget::new().max_solutions(5)));
    let got: Vec<_> = solver.solutions().collect();
    assert_eq!(got.len(), 5);
    for s in &got {
        p.verify(s).unwrap();
    }
}

#[test]
fn cancel_from_another_thread() {
    let p = instance("pent6x10");
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        flag.store(true, Ordering::Relaxed);
    });
    let mut solver = Solver::with_config(&p, Config::with_budget(Budget::new().cancel(cancel)));
    let outcome = solver.count();
    stopper.join().unwrap();
    assert_eq!(outcome.stop, Stop::Cancelled);
    assert!(solver.stats().elapsed < Duration::from_secs(60));
    assert!(solver.is_pristine(&p));
}

#[test]
fn subtree_counts_add_up() {
    for (name, total) in [("queens8", 92u128), ("domino6x6", 6_728), ("queens12", 14_200)] {
        let p = instance(name);
        for heuristic in [Heuristic::Mrv, Heuristic::Leftmost] {
            for depth in [0, 1, 2, 3, 5] {
                let mut solver = Solver::with_config(&p, Config::with_heuristic(heuristic));
                let units = solver.prefixes(depth);
                assert!(solver.is_pristine(&p));
                let mut sum = 0;
                for unit in &units {
                    assert!(unit.len() <= depth);
                    solver.check_prefix(unit).unwrap();
                    solver.set_prefix(unit);
                    sum += solver.count().solutions;
                }
                assert!(solver.is_pristine(&p));
                assert_eq!(sum, total, "{name} {heuristic:?} depth {depth}: {} units", units.len());
            }
        }
    }
    // A prefix that goes past a solution, or out of range, is refused.
    let p = toy();
    let mut solver = Solver::new(&p);
    assert!(solver.check_prefix(&[5]).is_err());
    assert!(solver.check_prefix(&[1, 0, 0, 0]).is_err());
    assert!(solver.is_pristine(&p));
}

#[test]
fn deep_search_does_not_overflow_the_stack() {
    // 100,000 items, each with one option of its own: the only solution has 100,000 levels.
    // With the invariants checked at every node the search is quadratic (95 s): 10,000
    // levels then, but at the nightly size.
    let n = if checks_invariants() && !nightly() { 10_000 } else { 100_000 };
    let mut b = ProblemBuilder::new();
    let items: Vec<_> = (0..n).map(|k| b.primary(&format!("i{k}")).unwrap()).collect();
    for &item in &items {
        b.option([item]).unwrap();
    }
    let p = b.build();
    // Leftmost keeps the test linear; MRV would scan every remaining item at every level.
    let config = Config::with_heuristic(Heuristic::Leftmost);
    let mut solver = Solver::with_config(&p, config.clone());
    assert_eq!(solver.first().unwrap().len(), n);
    let mut solver = Solver::with_config(&p, config);
    assert_eq!(solver.count().solutions, 1);
    assert_eq!(solver.stats().nodes, n as u64 + 1);
    assert!(solver.is_pristine(&p));
}

#[test]
fn trace_shows_the_search() {
    let p = toy();
    let mut solver = Solver::new(&p);
    let (events, complete) = solver.trace(10_000);
    assert!(complete);
    assert!(matches!(events[0].0, Event::Enter { level: 0 }));
    assert!(matches!(events[1].0, Event::Choose { level: 0, len: 2, .. }));
    let solutions = events.iter().filter(|e| matches!(e.0, Event::Solution { .. })).count();
    assert_eq!(solutions, 1);
    let enters = events.iter().filter(|e| matches!(e.0, Event::Enter { .. })).count() as u64;
    assert_eq!(enters + 1, solver.stats().nodes);
    let (short, complete) = solver.trace(5);
    assert_eq!(short.len(), 5);
    assert!(!complete);
    assert!(solver.is_pristine(&p));
}

#[test]
fn progress_estimate_grows() {
    let p = instance("domino6x6");
    let mut solver = Solver::new(&p);
    let mut seen = Vec::new();
    let outcome = solver.count_with_progress(|s| {
        seen.push(s.progress());
        ControlFlow::Continue(())
    });
    assert!(outcome.is_complete());
    assert!(seen.len() > 10);
    assert!(seen.iter().all(|&f| (0.0..=1.0).contains(&f)));
    assert!(seen.windows(2).all(|w| w[0] <= w[1] + 1e-12), "monotone");
}

#[test]
fn bit_set_kernel_counts_like_the_links() {
    // Whole trees (pent6x10 cut at 30,000 nodes, past the calibration of `Auto`).
    for (name, max_nodes) in [
        ("queens8", None),
        ("domino6x6", None),
        ("sudoku_inkala", None),
        ("queens12", None),
        ("pent6x10", Some(30_000)),
    ] {
        let p = instance(name);
        for heuristic in [Heuristic::Mrv, Heuristic::Leftmost] {
            let config = Config {
                heuristic,
                budget: Budget { max_nodes, ..Budget::default() },
                ..Config::default()
            };
            let links = count_on(&p, &config, Kernel::Links, &[]);
            for kernel in [Kernel::BitsCounted, Kernel::BitsKept, Kernel::BitsSliced, Kernel::Auto]
            {
                assert_eq!(
                    count_on(&p, &config, kernel, &[]),
                    links,
                    "{name} {heuristic:?} {kernel:?}"
                );
            }
        }
    }
}

/// `Heuristic::Ssxcc`'s counts walk Knuth's SSXCC tree: the nodes and updates SSXCC
/// reports on the same files (testdata/instances/README.md), on every kernel asked for.
#[test]
fn ssxcc_counts_are_knuths_ssxcc() {
    for (name, solutions, nodes, updates) in [
        ("queens8", 92, 857, 15_736),
        ("queens12", 14_200, 172_166, 3_356_705),
        ("sudoku_inkala", 1, 2_503, 46_667),
        ("domino6x6", 6_728, 25_695, 95_296),
        ("colors_costs", 114, 301, 2_341),
        ("pent6x10", 9_356, 1_210_954, 1_040_447_865),
    ] {
        let p = instance(name);
        // Every kernel asked for counts on the sparse sets: the big tree once.
        let kernels: &[Kernel] = if nodes > 1_000_000 {
            &[Kernel::Auto]
        } else {
            &[Kernel::Auto, Kernel::Links, Kernel::BitsKept]
        };
        for &kernel in kernels {
            let config = Config { heuristic: Heuristic::Ssxcc, kernel, ..Config::default() };
            let mut solver = Solver::with_config(&p, config);
            let outcome = solver.count();
            assert!(outcome.is_complete(), "{name}");
            let stats = solver.stats();
            assert_eq!(
                (outcome.solutions, stats.nodes, stats.updates),
                (solutions, nodes, updates),
                "{name} {kernel:?}"
            );
        }
    }
}

#[test]
fn bit_set_kernel_limits_and_progress() {
    let p = instance("pent6x10");
    for kernel in [Kernel::BitsCounted, Kernel::BitsKept, Kernel::BitsSliced] {
        let bits = |config: Config| count_on(&p, &config, kernel, &[]);
        let (o, nodes, _) = bits(Config::with_budget(Budget::new().max_solutions(100)));
        assert_eq!((o.solutions, o.stop), (100, Stop::SolutionLimit));
        let (o, nodes_at_100, _) = bits(Config::with_budget(Budget::new().max_nodes(nodes)));
        assert_eq!((o.stop, nodes_at_100), (Stop::NodeLimit, nodes));
        let cancel = Arc::new(AtomicBool::new(true));
        let (o, nodes, _) = bits(Config::with_budget(Budget::new().cancel(cancel)));
        assert_eq!((o.stop, nodes), (Stop::Cancelled, Config::CHECK_INTERVAL));
        let (o, _, _) = bits(Config::with_budget(Budget::new().time_limit(Duration::ZERO)));
        assert_eq!(o.stop, Stop::TimeLimit);
    }
    // Progress from the bit sets: current stats, a growing estimate, and Break cancels.
    let mut solver =
        Solver::with_config(&p, Config { kernel: Kernel::BitsCounted, ..Config::default() });
    let mut seen = Vec::new();
    let outcome = solver.count_with_progress(|s| {
        seen.push((s.progress(), s.stats().nodes));
        if seen.len() == 200 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!(outcome.stop, Stop::Cancelled);
    assert_eq!(seen.len(), 200);
    assert!(seen.iter().all(|&(f, _)| (0.0..=1.0).contains(&f)));
    assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0 + 1e-12), "monotone");
    assert!(seen.iter().all(|&(_, nodes)| nodes % Config::CHECK_INTERVAL == 0));
    assert!(seen.windows(2).all(|w| w[0].1 < w[1].1), "the stats are current");
    assert!(solver.is_pristine(&p));
}

/// A random problem from a seed: `primary` primary and `secondary` secondary items,
/// `options` options of 1 to 4 items, the first item in every `heavy`-th option (so that
/// its `LEN` needs many bits).
fn wide_problem(
    seed: u64,
    primary: usize,
    secondary: usize,
    options: usize,
    heavy: usize,
) -> Problem {
    let mut s = seed;
    let mut next = |m: usize| {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (s >> 33) as usize % m
    };
    let mut raw = RawProblem { primary, secondary, options: Vec::new() };
    for k in 0..options {
        let mut o: Vec<(usize, Option<usize>)> =
            vec![(if k % heavy == 0 { 0 } else { next(primary) }, None)];
        for _ in 0..next(4) {
            let i = next(primary + secondary);
            if o.iter().all(|&(j, _)| j != i) {
                o.push((i, None));
            }
        }
        raw.options.push(o);
    }
    from_raw(&raw)
}

#[test]
fn sliced_kernel_on_every_width() {
    // Options around each width of the sliced kernel's sets (1, 2, 4, 8 words) and past it,
    // primary items up to its 64 and past; every 3rd option holding item 0 makes its `LEN`
    // need more than 4 planes from 48 options on. Counts under a node limit (some end
    // within it), both heuristics, each against the links.
    let mut seed = 7;
    let mut complete = 0;
    for (primary, options) in [
        (12, 40),
        (30, 64),
        (30, 65),
        (40, 128),
        (40, 129),
        (64, 256),
        (64, 257),
        (64, 512),
        (65, 300),
        (50, 513),
    ] {
        for (secondary, heavy) in [(0, 3), (5, 1000)] {
            seed += 1;
            let p = wide_problem(seed, primary, secondary, options, heavy);
            for heuristic in [Heuristic::Mrv, Heuristic::Leftmost] {
                let config = Config {
                    heuristic,
                    budget: Budget { max_nodes: Some(20_000), ..Budget::default() },
                    ..Config::default()
                };
                let links = count_on(&p, &config, Kernel::Links, &[]);
                let sliced = count_on(&p, &config, Kernel::BitsSliced, &[]);
                assert_eq!(sliced, links, "{primary} {options} {secondary} {heuristic:?}");
                complete += usize::from(links.0.stop == Stop::Exhausted);
            }
            // Subtrees, as threads and shards use them.
            let mut solver = Solver::new(&p);
            for unit in solver.prefixes(2).into_iter().take(20) {
                let run = |kernel| {
                    let config = Config {
                        kernel,
                        budget: Budget { max_nodes: Some(2_000), ..Budget::default() },
                        ..Config::default()
                    };
                    let mut s = Solver::with_config(&p, config);
                    s.set_prefix(&unit);
                    (s.count(), s.stats().nodes, s.stats().updates)
                };
                assert_eq!(run(Kernel::BitsSliced), run(Kernel::Links), "{unit:?}");
            }
        }
    }
    assert!(complete > 0, "no count was whole");
}

proptest! {
    #![proptest_config(dancecard_testkit::proptest_config(512))]

    #[test]
    fn same_solutions_as_brute_force(raw in raw_problem(true)) {
        same_as_oracle(&from_raw(&raw), &brute_force(&raw))?;
    }

    #[test]
    fn bit_set_kernel_walks_the_same_tree(
        raw in raw_problem(true),
        leftmost in any::<bool>(),
        limit in 0u64..40,
    ) {
        let p = from_raw(&raw);
        let heuristic = if leftmost { Heuristic::Leftmost } else { Heuristic::Mrv };
        for config in [
            Config { heuristic, ..Config::default() },
            Config { heuristic, budget: Budget { max_nodes: Some(limit), ..Budget::default() }, ..Config::default() },
            Config { heuristic, budget: Budget { max_solutions: Some(u128::from(limit) + 1), ..Budget::default() }, ..Config::default() },
        ] {
            let links = count_on(&p, &config, Kernel::Links, &[]);
            for kernel in [Kernel::BitsCounted, Kernel::BitsKept, Kernel::BitsSliced, Kernel::Auto] {
                prop_assert_eq!(count_on(&p, &config, kernel, &[]), links, "{:?}", kernel);
            }
        }
    }

    #[test]
    fn ssxcc_counts_as_the_oracle(raw in raw_problem(true), limit in 1u64..40) {
        let p = from_raw(&raw);
        let want = brute_force(&raw).len() as u128;
        let config = Config { heuristic: Heuristic::Ssxcc, ..Config::default() };
        let mut solver = Solver::with_config(&p, config.clone());
        prop_assert_eq!(solver.count().solutions, want);
        let whole = solver.stats().nodes;
        let limited = Config { budget: Budget::new().max_nodes(limit), ..config };
        let mut solver = Solver::with_config(&p, limited);
        let outcome = solver.count();
        prop_assert!(solver.stats().nodes <= limit.min(whole));
        prop_assert_eq!(outcome.is_complete(), whole <= limit);
    }

    #[test]
    fn bit_set_kernel_walks_the_same_subtrees(raw in raw_problem(false), depth in 0usize..4) {
        let p = from_raw(&raw);
        let mut units = Solver::new(&p).prefixes(depth);
        units.push(vec![99]);
        units.push(vec![0; 30]);
        for unit in units {
            let mut links =
                Solver::with_config(&p, Config { kernel: Kernel::Links, ..Config::default() });
            links.set_prefix(&unit);
            let expected = (links.count(), links.stats().nodes, links.stats().updates);
            for kernel in [Kernel::BitsCounted, Kernel::BitsKept, Kernel::BitsSliced] {
                let mut bits = Solver::with_config(&p, Config { kernel, ..Config::default() });
                bits.set_prefix(&unit);
                let got = (bits.count(), bits.stats().nodes, bits.stats().updates);
                prop_assert_eq!(got, expected, "{:?} {:?}", kernel, &unit);
            }
        }
    }

    #[test]
    fn subtrees_partition_the_solutions(raw in raw_problem(true), depth in 0usize..4) {
        let p = from_raw(&raw);
        let mut solver = Solver::new(&p);
        let total = solver.count().solutions;
        let mut sum = 0;
        for unit in solver.prefixes(depth) {
            solver.set_prefix(&unit);
            sum += solver.count().solutions;
        }
        prop_assert_eq!(sum, total);
        prop_assert!(solver.is_pristine(&p));
    }

    #[test]
    fn deterministic_and_order_independent(raw in raw_problem(false), seed in any::<u64>()) {
        let p = from_raw(&raw);
        let a = all_solutions(&p, Heuristic::Mrv);
        prop_assert_eq!(&a, &all_solutions(&p, Heuristic::Mrv));
        // Shuffle the options: the same solutions, renumbered.
        let mut order: Vec<usize> = (0..raw.options.len()).collect();
        let mut s = seed;
        for k in (1..order.len()).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            order.swap(k, (s >> 33) as usize % (k + 1));
        }
        let shuffled = RawProblem {
            options: order.iter().map(|&k| raw.options[k].clone()).collect(),
            ..raw.clone()
        };
        let mut b: Vec<Vec<usize>> = all_solutions(&from_raw(&shuffled), Heuristic::Mrv)
            .into_iter()
            .map(|s| { let mut v: Vec<usize> = s.iter().map(|&k| order[k]).collect(); v.sort(); v })
            .collect();
        b.sort();
        prop_assert_eq!(a, b);
    }
}

mod parallel {
    use std::sync::Mutex;

    use dancecard_engine::parallel::ParallelSearch;

    use super::*;

    #[test]
    fn threads_count_the_same_as_one() {
        for (name, total) in [("queens8", 92u128), ("domino6x6", 6_728), ("queens12", 14_200)] {
            let p = instance(name);
            let mut one = Solver::new(&p);
            let single = one.count();
            for threads in [1, 2, 3, 4] {
                let (outcome, stats) = ParallelSearch::new(&p, Config::default(), threads).count();
                assert_eq!(outcome.solutions, total, "{name} with {threads} threads");
                assert_eq!(outcome.stop, Stop::Exhausted);
                assert_eq!(stats.solutions, single.solutions);
                assert!(stats.nodes >= one.stats().nodes / 2, "{name}: work is not lost");
            }
        }
    }

    #[test]
    fn threads_count_on_bit_sets() {
        let (q, p) = (instance("queens12"), instance("pent6x10"));
        for kernel in [Kernel::Auto, Kernel::BitsCounted, Kernel::BitsKept, Kernel::BitsSliced] {
            let config = Config { kernel, ..Config::default() };
            let mut fractions = Vec::new();
            let progress = Mutex::new(&mut fractions);
            let (outcome, stats) = ParallelSearch::new(&q, config.clone(), 2)
                .count_with_progress(&|p| progress.lock().unwrap().push(p.fraction));
            assert_eq!((outcome.solutions, outcome.stop), (14_200, Stop::Exhausted), "{kernel:?}");
            assert_eq!(stats.solutions, 14_200);
            assert!(!fractions.is_empty() && fractions.iter().all(|f| (0.0..=1.0).contains(f)));
            // Limits and cancellation reach every thread.
            let limited = Config {
                budget: Budget { max_nodes: Some(50_000), ..config.budget.clone() },
                ..config.clone()
            };
            let (outcome, stats) = ParallelSearch::new(&p, limited, 2).count();
            assert_eq!(outcome.stop, Stop::NodeLimit);
            assert!(stats.nodes >= 50_000 && stats.nodes < 50_000 + 4 * Config::CHECK_INTERVAL);
            let cancel = Arc::new(AtomicBool::new(true));
            let cancelled = Config {
                budget: Budget { cancel: Some(cancel), ..config.budget.clone() },
                ..config
            };
            let (outcome, _) = ParallelSearch::new(&p, cancelled, 2).count();
            assert_eq!(outcome.stop, Stop::Cancelled);
        }
    }

    #[test]
    fn threads_find_the_same_set_of_solutions() {
        let p = instance("queens8");
        let mut expected: Vec<Vec<OptionId>> = Solver::new(&p).solutions().collect();
        let (mut got, outcome) = ParallelSearch::new(&p, Config::default(), 3).solutions();
        assert!(outcome.is_complete());
        for s in expected.iter_mut().chain(got.iter_mut()) {
            s.sort();
        }
        expected.sort();
        got.sort();
        assert_eq!(got, expected);
    }

    #[test]
    fn a_lopsided_tree_is_split() {
        // Pentominoes: most of the tree lies under a few first choices. Count with 2 threads
        // under a node budget and check that both threads got work.
        let p = instance("domino8x8");
        let threads_seen = Mutex::new(std::collections::BTreeSet::new());
        let config = Config::with_budget(Budget::new().max_nodes(2_000_000));
        let (outcome, stats) = ParallelSearch::new(&p, config, 2).count_with_progress(&|_| {
            let _ =
                threads_seen.lock().unwrap().insert(format!("{:?}", std::thread::current().id()));
        });
        assert_eq!(outcome.stop, Stop::NodeLimit);
        assert!(stats.nodes >= 2_000_000);
        assert_eq!(threads_seen.lock().unwrap().len(), 2, "both threads searched");
    }

    #[test]
    fn limits_apply_to_the_total() {
        let p = instance("queens12");
        let config = Config::with_budget(Budget::new().max_solutions(1000));
        let (outcome, _) = ParallelSearch::new(&p, config, 3).count();
        assert_eq!((outcome.solutions, outcome.stop), (1000, Stop::SolutionLimit));
        let cancel = Arc::new(AtomicBool::new(true));
        let config = Config::with_budget(Budget::new().cancel(cancel));
        let (outcome, _) = ParallelSearch::new(&p, config, 2).count();
        assert_eq!(outcome.stop, Stop::Cancelled);
    }

    #[test]
    fn progress_reaches_the_end() {
        let p = instance("domino6x6");
        for kernel in
            [Kernel::Auto, Kernel::Links, Kernel::BitsCounted, Kernel::BitsKept, Kernel::BitsSliced]
        {
            let last = Mutex::new(0.0f64);
            let config = Config { kernel, ..Config::default() };
            let (outcome, _) = ParallelSearch::new(&p, config, 2).count_with_progress(&|pr| {
                assert!((0.0..=1.0).contains(&pr.fraction));
                *last.lock().unwrap() = pr.fraction;
            });
            assert!(outcome.is_complete());
            assert!(*last.lock().unwrap() > 0.5, "{kernel:?}: the estimate grows towards 1");
        }
    }

    #[test]
    fn units_partition_the_work() {
        let p = instance("queens12");
        let units = Solver::new(&p).prefixes(2);
        let (a, b): (Vec<_>, Vec<_>) = units.into_iter().enumerate().partition(|(k, _)| k % 2 == 0);
        let count = |part: Vec<(usize, Vec<u32>)>| {
            let units = part.into_iter().map(|(_, u)| u).collect();
            ParallelSearch::new(&p, Config::default(), 2).units(units).count().0.solutions
        };
        assert_eq!(count(a) + count(b), 14_200);
    }
}

#[test]
fn a_limit_of_zero_solutions_searches_nothing() {
    let problem = instance("queens8");
    for kernel in
        [Kernel::Auto, Kernel::Links, Kernel::BitsCounted, Kernel::BitsKept, Kernel::BitsSliced]
    {
        let config = Config {
            kernel,
            budget: Budget { max_solutions: Some(0), ..Budget::default() },
            ..Config::default()
        };
        let mut solver = Solver::with_config(&problem, config.clone());
        let outcome = solver.count();
        assert_eq!((outcome.solutions, outcome.stop), (0, Stop::SolutionLimit), "{kernel:?}");
        assert_eq!(solver.stats().nodes, 0, "{kernel:?}");
        assert_eq!(solver.first(), None, "{kernel:?}");
        assert_eq!(solver.solutions().count(), 0, "{kernel:?}");
        assert!(solver.is_pristine(&problem));
        for threads in [1, 2] {
            let (outcome, stats) =
                dancecard_engine::parallel::ParallelSearch::new(&problem, config.clone(), threads)
                    .count();
            assert_eq!((outcome.solutions, outcome.stop), (0, Stop::SolutionLimit));
            assert_eq!(stats.nodes, 0);
        }
    }
}

#[test]
fn threads_keep_a_node_limit_below_the_check_interval() {
    // The shared count of nodes is updated every `CHECK_INTERVAL` nodes; each unit also gets
    // what is left of the budget, so a small limit holds too (within one budget per thread).
    let problem = instance("queens8");
    for threads in [1, 2] {
        for kernel in [Kernel::Links, Kernel::Auto] {
            let config = Config {
                kernel,
                budget: Budget { max_nodes: Some(100), ..Budget::default() },
                ..Config::default()
            };
            let (outcome, stats) =
                dancecard_engine::parallel::ParallelSearch::new(&problem, config, threads).count();
            assert_eq!(outcome.stop, Stop::NodeLimit, "{threads} threads, {kernel:?}");
            assert!(stats.nodes >= 100 && stats.nodes <= 100 * threads as u64, "{stats:?}");
        }
    }
}
