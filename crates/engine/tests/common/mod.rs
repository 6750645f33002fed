//! Helpers shared by the engine's integration tests (each test file is its own crate and
//! uses some of them).
#![allow(dead_code, reason = "each test crate uses its own subset of the helpers")]

use dancecard_engine::{Config, Heuristic, Kernel, OptionId, Outcome, Problem, Solver};

/// A problem in Knuth's DLX text format.
pub(crate) fn parse(text: &str) -> Problem {
    dancecard_format::parse_dlx(text.as_bytes()).expect("the problem parses").problem
}

/// `testdata/instances/NAME.dlx`.
pub(crate) fn instance(name: &str) -> Problem {
    parse(&dancecard_testkit::instance_text(name))
}

/// Sorted solutions, each a sorted list of option indices.
pub(crate) fn sorted(solutions: impl Iterator<Item = Vec<OptionId>>) -> Vec<Vec<usize>> {
    let mut all: Vec<Vec<usize>> = solutions
        .map(|s| {
            let mut v: Vec<usize> = s.iter().map(|o| o.index()).collect();
            v.sort();
            v
        })
        .collect();
    all.sort();
    all
}

/// Every solution of `problem` under `heuristic`, sorted as the oracle's, each checked to
/// verify, and the arena (and the bounds) checked to be restored (I5).
pub(crate) fn all_solutions(problem: &Problem, heuristic: Heuristic) -> Vec<Vec<usize>> {
    let mut solver = Solver::with_config(problem, Config::with_heuristic(heuristic));
    let all = sorted(solver.solutions().inspect(|s| {
        problem.verify(s).expect("every solution verifies");
    }));
    assert!(solver.is_pristine(problem), "(I5) the arena and the bounds are restored");
    all
}

/// Counts `problem` under `config` on the given kernel, in the subtree of `prefix`: the
/// outcome and the counters, the arena checked to be restored (I5).
pub(crate) fn count_on(
    problem: &Problem,
    config: &Config,
    kernel: Kernel,
    prefix: &[u32],
) -> (Outcome, u64, u64) {
    let mut solver = Solver::with_config(problem, Config { kernel, ..config.clone() });
    solver.set_prefix(prefix);
    let outcome = solver.count();
    assert!(solver.is_pristine(problem), "(I5) after a count on {kernel:?}");
    (outcome, solver.stats().nodes, solver.stats().updates)
}

/// The engine's problem of a testkit problem.
pub(crate) fn from_raw(raw: &dancecard_testkit::RawProblem) -> Problem {
    parse(&raw.to_dlx())
}

/// The engine's problem of a testkit problem of the whole family (bounds and costs).
pub(crate) fn from_family(f: &dancecard_testkit::FamilyProblem) -> Problem {
    parse(&f.to_dlx())
}

/// Counts `testdata/instances/NAME.dlx` on each of `kernels` and compares with the
/// solutions, nodes and updates of Knuth's program (testdata/instances/README.md); checks
/// the arena is restored (I5).
pub(crate) fn check_counts(
    name: &str,
    kernels: &[Kernel],
    solutions: u128,
    nodes: u64,
    updates: u64,
) {
    let problem = instance(name);
    for &kernel in kernels {
        let mut solver = Solver::with_config(&problem, Config { kernel, ..Config::default() });
        let outcome = solver.count();
        assert!(outcome.is_complete());
        let stats = *solver.stats();
        assert_eq!(stats.solutions, outcome.solutions);
        assert_eq!(
            (outcome.solutions, stats.nodes, stats.updates),
            (solutions, nodes, updates),
            "{name} on {kernel:?}: solutions, nodes, updates"
        );
        assert!(solver.is_pristine(&problem), "(I5) after {name}");
    }
}

/// Checks that `problem` has exactly the oracle's solutions `expected`, listed under both
/// heuristics and counted, and that the arena is restored after the count (I5).
pub(crate) fn same_as_oracle(
    problem: &Problem,
    expected: &[Vec<usize>],
) -> Result<(), proptest::test_runner::TestCaseError> {
    proptest::prop_assert_eq!(&all_solutions(problem, Heuristic::Mrv), expected);
    proptest::prop_assert_eq!(&all_solutions(problem, Heuristic::Leftmost), expected);
    let mut solver = Solver::new(problem);
    proptest::prop_assert_eq!(solver.count().solutions, expected.len() as u128);
    proptest::prop_assert!(solver.is_pristine(problem));
    Ok(())
}
