//! Checks shared by the targets that end in an exact cover problem: the engine against the
//! brute-force oracle of `dancecard-testkit` on small problems, and bounded searches whose
//! solutions must verify on the others.

use std::ops::ControlFlow;

use dancecard_engine::{
    Budget, Config, Heuristic, ItemKind, Kernel, OptionId, Outcome, Problem, Solver, Stop,
};
use dancecard_format::{parse_dlx, write_dlx};
use dancecard_testkit::{brute_force, RawProblem};

/// Every kernel [`Solver::count`] can run on.
const KERNELS: [Kernel; 5] =
    [Kernel::Links, Kernel::BitsCounted, Kernel::BitsKept, Kernel::BitsSliced, Kernel::Auto];

/// The most options a problem may have for the brute-force oracle (it enumerates subsets).
pub(crate) const ORACLE_OPTIONS: usize = 18;

/// The most items a problem may have for the brute-force oracle.
pub(crate) const ORACLE_ITEMS: usize = 40;

/// `problem` as plain data for the oracle: primary items first, each kind in declaration
/// order; option `k` of the result is option `k` of `problem`.
pub(crate) fn raw_of(problem: &Problem) -> RawProblem {
    let mut index = vec![0; problem.item_count()];
    let mut next = 0;
    for kind in [ItemKind::Primary, ItemKind::Secondary] {
        for item in problem.items().filter(|&i| problem.item_kind(i) == kind) {
            index[item.index()] = next;
            next += 1;
        }
    }
    let options = problem
        .options()
        .map(|o| {
            problem
                .option(o)
                .iter()
                .map(|e| (index[e.item.index()], e.color.map(|c| c.index())))
                .collect()
        })
        .collect();
    RawProblem {
        primary: problem.primary_count(),
        secondary: problem.item_count() - problem.primary_count(),
        options,
    }
}

/// How hard to push a search besides the full checks.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Knobs {
    /// A node limit for the limited runs (compared across kernels).
    pub(crate) max_nodes: u64,
    /// The depth of the subtrees that must partition the solutions.
    pub(crate) depth: usize,
}

/// The solutions of a search, each sorted, the list sorted, each verified.
fn all_solutions(problem: &Problem, heuristic: Heuristic) -> (Vec<Vec<usize>>, Option<Stop>) {
    let mut solver = Solver::with_config(problem, Config::with_heuristic(heuristic));
    let mut solutions = solver.solutions();
    let mut out = Vec::new();
    for s in solutions.by_ref() {
        if let Err(e) = problem.verify(&s) {
            panic!("a solution ({heuristic:?}) does not verify: {e}: {s:?}");
        }
        let mut v: Vec<usize> = s.iter().map(|o| o.index()).collect();
        v.sort_unstable();
        out.push(v);
    }
    let stop = solutions.outcome();
    assert!(solver.is_pristine(problem), "(I5) the arena is restored after solutions()");
    out.sort();
    (out, stop)
}

/// Counts on `kernel` under `config`: the outcome, nodes and updates; checks (I5).
fn count_on(problem: &Problem, config: &Config, kernel: Kernel) -> (Outcome, u64, u64) {
    let mut solver = Solver::with_config(problem, Config { kernel, ..config.clone() });
    let outcome = solver.count();
    assert!(solver.is_pristine(problem), "(I5) after a count on {kernel:?}");
    (outcome, solver.stats().nodes, solver.stats().updates)
}

/// The full check of a small problem (at most [`ORACLE_OPTIONS`] options): every way the
/// engine searches agrees with the brute-force oracle.
pub(crate) fn check_against_oracle(problem: &Problem, knobs: Knobs) {
    let raw = raw_of(problem);
    let expected = brute_force(&raw);
    let total = expected.len() as u128;
    for heuristic in Heuristic::ALL {
        let (found, stop) = all_solutions(problem, heuristic);
        assert_eq!(found, expected, "the solutions ({heuristic:?}) differ from the oracle's");
        assert_eq!(stop, Some(Stop::Exhausted), "solutions() ends exhausted");
        let config = Config::with_heuristic(heuristic);
        let links = count_on(problem, &config, Kernel::Links);
        assert_eq!(links.0, Outcome { solutions: total, stop: Stop::Exhausted });
        for kernel in KERNELS {
            let got = count_on(problem, &config, kernel);
            assert_eq!(got, links, "{kernel:?} ({heuristic:?}) walks another tree than the links");
        }
        // Limited runs stop at the same place on every kernel.
        for config in [
            Config {
                budget: Budget { max_nodes: Some(knobs.max_nodes), ..config.budget.clone() },
                ..config.clone()
            },
            Config {
                budget: Budget {
                    max_solutions: Some(u128::from(knobs.max_nodes % 4)),
                    ..config.budget.clone()
                },
                ..config.clone()
            },
        ] {
            let links = count_on(problem, &config, Kernel::Links);
            assert!(links.0.solutions <= total, "a limited count exceeds the total");
            for kernel in KERNELS {
                let got = count_on(problem, &config, kernel);
                assert_eq!(got, links, "{kernel:?} under {config:?} differs from the links");
            }
        }
    }
    // The first solution is the iterator's first.
    let mut solver = Solver::new(problem);
    let first = solver.first();
    let by_iterator = Solver::new(problem).solutions().next();
    assert_eq!(first, by_iterator, "first() and solutions().next() differ");
    assert!(solver.is_pristine(problem), "(I5) after first()");
    // The subtrees at a depth partition the solutions.
    let units = solver.prefixes(knobs.depth);
    let mut sum = 0;
    for unit in &units {
        solver.check_prefix(unit).unwrap_or_else(|e| panic!("prefix {unit:?} is bad: {e}"));
        solver.set_prefix(unit);
        sum += solver.count().solutions;
    }
    assert_eq!(sum, total, "the subtrees at depth {} miss solutions: {units:?}", knobs.depth);
    solver.set_prefix(&[]);
    assert!(solver.is_pristine(problem), "(I5) after the subtrees");
    // A trace (the web page's teaching view) leaves the arena as it found it.
    let _ = solver.trace(200);
    assert!(solver.is_pristine(problem), "(I5) after a trace");
}

/// A node limit for a bounded search of `problem`: the fuzz build checks the arena's
/// invariants at every node, a walk over every entry, so the limit shrinks as the problem
/// grows (about a million entries visited in all), from `most` down to 20.
pub(crate) fn node_budget(problem: &Problem, most: u64) -> u64 {
    let entries = problem.entry_count().max(1) as u64;
    (1_000_000 / entries).clamp(20, most.max(20))
}

/// A bounded check of a problem too large for the oracle: the first solutions found within
/// `max_nodes` nodes verify, every kernel stops at the same node, and the arena is restored.
pub(crate) fn check_bounded(problem: &Problem, max_nodes: u64) {
    let config = Config::with_budget(Budget::new().max_nodes(max_nodes));
    let mut solver = Solver::with_config(problem, config.clone());
    let mut seen = 0;
    let outcome = solver.solve_with(|s| {
        let options: Vec<OptionId> = s.to_vec();
        if let Err(e) = problem.verify(&options) {
            panic!("a solution does not verify: {e}: {options:?}");
        }
        seen += 1;
        if seen < 20 {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    });
    assert!(outcome.solutions <= 20);
    assert!(solver.is_pristine(problem), "(I5) after a bounded search");
    if problem.option_count() <= 8192 {
        let links = count_on(problem, &config, Kernel::Links);
        for kernel in [Kernel::BitsCounted, Kernel::BitsKept, Kernel::BitsSliced] {
            assert_eq!(count_on(problem, &config, kernel), links, "{kernel:?} differs");
        }
    }
}

/// Checks `problem` with the oracle when it is small, with a bounded search otherwise.
pub(crate) fn check_problem(problem: &Problem, knobs: Knobs) {
    if problem.option_count() <= ORACLE_OPTIONS && problem.item_count() <= ORACLE_ITEMS {
        check_against_oracle(problem, knobs);
    } else if problem.entry_count() <= 200_000 {
        check_bounded(problem, node_budget(problem, 2_000));
    }
}

/// The names of the items of one kind, in declaration order.
fn names(problem: &Problem, kind: ItemKind) -> Vec<&str> {
    problem
        .items()
        .filter(|&i| problem.item_kind(i) == kind)
        .map(|i| problem.item_name(i))
        .collect()
}

/// Whether two problems are the same up to the numbering of items (primary items first).
pub(crate) fn assert_same_problem(a: &Problem, b: &Problem) {
    for kind in [ItemKind::Primary, ItemKind::Secondary] {
        assert_eq!(names(a, kind), names(b, kind), "the {kind:?} items differ");
    }
    assert_eq!(a.option_count(), b.option_count(), "the number of options differs");
    for (x, y) in a.options().zip(b.options()) {
        assert_eq!(a.option_text(x), b.option_text(y), "option {} differs", x.index());
    }
}

/// `write_dlx` then `parse_dlx` gives the same problem, and writing it again the same text.
/// (A problem without items has no DLX text: the format needs an item line.)
pub(crate) fn check_round_trip(problem: &Problem) {
    if problem.primary_count() == 0 {
        return;
    }
    let text = write_dlx(problem);
    let back = match parse_dlx(text.as_bytes()) {
        Ok(doc) => doc,
        Err(e) => panic!("write_dlx's output does not parse: {e}\n{text}"),
    };
    assert_same_problem(problem, &back.problem);
    assert_eq!(write_dlx(&back.problem), text, "write_dlx is not stable");
}
