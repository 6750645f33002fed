//! The rest of Knuth's exact cover family: multiplicities (DLX3, Algorithm M), minimum-cost
//! exact cover (DLX5) and preprocessing (DLX-PRE), against Knuth's own counts on the files of
//! `testdata/instances` and a brute-force oracle.

use dancecard_engine::parallel::ParallelSearch;
use dancecard_engine::{Budget, Config, Heuristic, Kernel, Solver, Stop};
use dancecard_testkit::{brute_force_family, family_problem};
use proptest::prelude::*;

mod common;
use common::{all_solutions, check_counts, count_on, from_family, instance, same_as_oracle};

/// Counts `name` on both kernels and compares with DLX3's solutions, nodes and updates.
fn check_dlx3(name: &str, solutions: u128, nodes: u64, updates: u64) {
    assert!(instance(name).has_bounds());
    check_counts(name, &[Kernel::Links, Kernel::Auto], solutions, nodes, updates);
}

#[test]
fn dlx3_counts_a001499_6() {
    check_dlx3("mult_a001499_6", 67_950, 198_658, 715_151);
}

#[test]
fn dlx3_counts_queens_12_6() {
    check_dlx3("mult_queens_12_6", 128, 1_119, 8_231);
}

#[test]
fn knuth_example_of_dlx3() {
    // DLX3's opening example: `A B 2:3|C | X Y`, whose unique solution is given there.
    let text = "A B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n";
    let problem = common::parse(text);
    assert_eq!(all_solutions(&problem, Heuristic::Mrv), [[1, 3, 4]]);
}

#[test]
fn a_null_move_settles_an_item_whose_lower_bound_is_met() {
    // `0:2|a b`: a taken 0, 1 or 2 times, b once.
    let text = "0:2|a b\na\na\nb\na b\n";
    let problem = common::parse(text);
    let all = all_solutions(&problem, Heuristic::Mrv);
    assert_eq!(
        all,
        [vec![0, 1, 2], vec![0, 2], vec![0, 3], vec![1, 2], vec![1, 3], vec![2], vec![3]]
    );
}

#[test]
fn limits_and_the_first_solution_under_bounds() {
    let problem = instance("mult_a001499_6");
    let mut solver = Solver::new(&problem);
    let first = solver.first().unwrap();
    problem.verify(&first).unwrap();
    assert!(solver.is_pristine(&problem));
    for max in [1u128, 7, 1000] {
        let config = Config::with_budget(Budget::new().max_solutions(max));
        let mut solver = Solver::with_config(&problem, config);
        let outcome = solver.count();
        assert_eq!((outcome.solutions, outcome.stop), (max, Stop::SolutionLimit));
        assert!(solver.is_pristine(&problem));
    }
    let config = Config::with_budget(Budget::new().max_nodes(5000));
    let mut solver = Solver::with_config(&problem, config);
    let outcome = solver.count();
    assert_eq!(outcome.stop, Stop::NodeLimit);
    assert_eq!(solver.stats().nodes, 5000);
    assert!(solver.is_pristine(&problem));
}

#[test]
fn the_iterator_pauses_and_resumes_under_bounds() {
    let problem = instance("mult_queens_12_6");
    let mut solver = Solver::new(&problem);
    let some: Vec<_> = solver.solutions().take(5).collect();
    assert_eq!(some.len(), 5);
    // A new search abandons the paused one (restoring everything) and starts afresh.
    let again: Vec<_> = solver.solutions().take(5).collect();
    assert_eq!(again, some);
    assert_eq!(solver.solutions().count(), 128);
    assert!(solver.is_pristine(&problem));
    assert_eq!(solver.stats().nodes, 1_119);
    assert_eq!(solver.stats().updates, 8_231);
}

#[test]
fn subtrees_and_threads_under_bounds() {
    let problem = instance("mult_a001499_6");
    let mut solver = Solver::new(&problem);
    for depth in 0..5 {
        let units = solver.prefixes(depth);
        let mut total = 0;
        for unit in &units {
            solver.check_prefix(unit).unwrap();
            solver.set_prefix(unit);
            total += solver.count().solutions;
        }
        solver.set_prefix(&[]);
        assert_eq!(total, 67_950, "depth {depth}: {} units", units.len());
        assert!(solver.is_pristine(&problem));
    }
    for threads in [1, 2, 3] {
        let (outcome, stats) = ParallelSearch::new(&problem, Config::default(), threads).count();
        assert_eq!((outcome.solutions, stats.solutions), (67_950, 67_950), "{threads} threads");
        let (all, _) = ParallelSearch::new(&problem, Config::default(), threads).solutions();
        assert_eq!(all.len(), 67_950);
    }
}

proptest! {
    #![proptest_config(dancecard_testkit::proptest_config(400))]

    #[test]
    fn bounded_solutions_are_the_brute_force_ones(f in family_problem(true, false)) {
        same_as_oracle(&from_family(&f), &brute_force_family(&f))?;
    }

    #[test]
    fn bounded_bit_sets_walk_the_links_tree(
        f in family_problem(false, false),
        depth in 0usize..4,
        heuristic in prop_oneof![Just(Heuristic::Mrv), Just(Heuristic::Leftmost)],
        max_nodes in prop_oneof![Just(None), (1u64..200).prop_map(Some)],
        max_solutions in prop_oneof![Just(None), (1u128..20).prop_map(Some)],
    ) {
        let problem = from_family(&f);
        let config = Config { heuristic, budget: Budget { max_nodes, max_solutions, ..Budget::default() }, ..Config::default() };
        let units = Solver::with_config(&problem, Config::with_heuristic(heuristic)).prefixes(depth);
        for unit in units.iter().chain([&Vec::new()]) {
            let links = count_on(&problem, &config, Kernel::Links, unit);
            let bits = count_on(&problem, &config, Kernel::BitsKept, unit);
            prop_assert_eq!(links, bits, "unit {:?}", unit);
        }
        // A prefix that names no subtree counts nothing on either kernel.
        let bad = [u32::MAX];
        prop_assert_eq!(
            count_on(&problem, &config, Kernel::Links, &bad),
            count_on(&problem, &config, Kernel::BitsKept, &bad)
        );
    }

    #[test]
    fn bounded_subtrees_partition_the_solutions(f in family_problem(true, false), depth in 0usize..5) {
        let problem = from_family(&f);
        let mut solver = Solver::new(&problem);
        let total = solver.count().solutions;
        let nodes = solver.stats().nodes;
        let mut sum = 0;
        let units = solver.prefixes(depth);
        for unit in &units {
            prop_assert!(solver.check_prefix(unit).is_ok());
            solver.set_prefix(unit);
            sum += solver.count().solutions;
        }
        prop_assert_eq!(sum, total);
        prop_assert!(units.len() as u64 <= nodes.max(1));
        solver.set_prefix(&[]);
        prop_assert!(solver.is_pristine(&problem));
    }
}

#[test]
fn a_stopped_bounded_count_hands_back_the_rest() {
    // See `Solver::count_with_rest`: what a stopped count did not search, counted apart,
    // completes it, on both kernels.
    let problem = instance("mult_a001499_6");
    for kernel in [Kernel::Links, Kernel::Auto] {
        let config = Config {
            kernel,
            budget: Budget { max_nodes: Some(20_000), ..Budget::default() },
            ..Config::default()
        };
        let mut solver = Solver::with_config(&problem, config);
        let (first, rest) = solver.count_with_rest(|_| std::ops::ControlFlow::Continue(()));
        assert_eq!(first.stop, Stop::NodeLimit);
        assert!(!rest.is_empty());
        let mut total = first.solutions;
        let mut full = Solver::with_config(&problem, Config { kernel, ..Config::default() });
        for subtree in &rest {
            full.set_prefix(&subtree.prefix);
            total += full.count().solutions;
        }
        assert_eq!(total, 67_950, "{kernel:?}");
    }
}
