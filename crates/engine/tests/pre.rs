//! Preprocessing (`dancecard_engine::pre`, Knuth's DLX-PRE): the figures DLX-PRE prints on
//! the instance files, the counts kept, and the solutions kept on random problems (oracle).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use dancecard_engine::pre::{self, ItemRemoval, PreConfig, PreError};
use dancecard_engine::{Budget, OptionId, ProblemBuilder, Solver};
use dancecard_testkit::{brute_force, raw_problem};
use proptest::prelude::*;

mod common;
use common::{from_raw, instance, sorted};

/// DLX-PRE's summary line on each file ("Removed 144 options and 0 items, ... 2 rounds."),
/// from `dlx-pre < testdata/instances/NAME.dlx`, and the count of the file (README).
const FIGURES: [(&str, usize, usize, u32, u128); 4] = [
    ("pent6x10", 144, 0, 2, 9_356),
    ("queens8", 0, 0, 1, 92),
    ("domino6x6", 0, 0, 1, 6_728),
    ("sudoku_inkala", 0, 6, 2, 1),
];

#[test]
fn dlx_pre_figures_and_counts_kept() {
    for (name, options_out, items_out, rounds, count) in FIGURES {
        let p = instance(name);
        let r = pre::reduce(&p).unwrap();
        assert_eq!(r.removed_options.len(), options_out, "{name}: options removed");
        assert_eq!(r.removed_items.len(), items_out, "{name}: items removed");
        assert_eq!(r.rounds, rounds, "{name}: rounds");
        assert!(r.infeasible.is_none() && !r.stopped, "{name}");
        assert_eq!(r.problem.option_count(), p.option_count() - options_out, "{name}");
        assert_eq!(r.problem.item_count(), p.item_count() - items_out, "{name}");
        assert_eq!(r.option_map.len(), r.problem.option_count());
        assert_eq!(Solver::new(&r.problem).count().solutions, count, "{name}: count kept");
        // Every kept option is its original one minus removed items, names kept.
        for o in r.problem.options() {
            let orig = p.option(r.original_option(o));
            let kept: Vec<&str> =
                r.problem.option(o).iter().map(|e| r.problem.item_name(e.item)).collect();
            let mut from: Vec<&str> = orig.iter().map(|e| p.item_name(e.item)).collect();
            from.retain(|n| kept.contains(n));
            assert_eq!(kept, from, "{name}: option {o}");
        }
    }
}

#[test]
fn pent6x10_removes_options_in_the_first_round() {
    let p = instance("pent6x10");
    let r = pre::reduce(&p).unwrap();
    assert!(r.removed_options.iter().all(|x| x.round == 1));
    assert_eq!(r.problem.option_count(), 1_912);
    // One round only: the same 144 options, but not known to be final.
    let one =
        pre::reduce_with(&p, &PreConfig { max_rounds: Some(1), ..PreConfig::default() }).unwrap();
    assert_eq!((one.removed_options.len(), one.rounds, one.stopped), (144, 1, true));
}

/// The budget's cancel flag and time limit stop the rounds before the first test (what was
/// removed is sound, and said to be maybe incomplete); limits that preprocessing has nothing
/// to count by are refused.
#[test]
fn the_budget_stops_or_is_refused() {
    let p = instance("pent6x10");
    let stopped = |budget: Budget| {
        let r = pre::reduce_with(&p, &PreConfig { max_rounds: None, budget }).unwrap();
        (r.removed_options.len(), r.rounds, r.stopped)
    };
    let raised = Arc::new(AtomicBool::new(true));
    assert_eq!(stopped(Budget::new().cancel(raised)), (0, 0, true));
    assert_eq!(stopped(Budget::new().time_limit(Duration::ZERO)), (0, 0, true));
    let lowered = Arc::new(AtomicBool::new(false));
    let far = Duration::from_secs(3600);
    assert_eq!(stopped(Budget::new().cancel(lowered).time_limit(far)), (144, 2, false));
    for (budget, limit) in [
        (Budget::new().max_solutions(1), "max_solutions"),
        (Budget::new().max_nodes(1), "max_nodes"),
        (Budget::new().max_states(1), "max_states"),
        (Budget::new().max_cost(1), "max_cost"),
    ] {
        let refused = pre::reduce_with(&p, &PreConfig { max_rounds: None, budget }).unwrap_err();
        assert_eq!(refused, PreError::Limit { limit });
        assert!(refused.to_string().contains(limit), "{refused}");
    }
}

#[test]
fn sudoku_items_are_implied() {
    let r = pre::reduce(&instance("sudoku_inkala")).unwrap();
    assert!(r.removed_items.iter().all(|x| matches!(x.reason, ItemRemoval::Implied { .. })));
}

#[test]
fn bounds_are_refused() {
    let p = instance("mult_a001499_6");
    assert!(matches!(pre::reduce(&p), Err(PreError::Unsupported(_))));
}

#[test]
fn costs_ride_along() {
    let mut b = ProblemBuilder::new();
    let a = b.primary("a").unwrap();
    let c = b.primary("c").unwrap();
    let _ = b.option_with_cost([a], 5).unwrap();
    let _ = b.option_with_cost([a, c], 7).unwrap();
    let _ = b.option_with_cost([c], 2).unwrap();
    let p = b.build();
    let r = pre::reduce(&p).unwrap();
    // `a c` is kept (a solution), `a` and `c` too.
    assert_eq!(r.problem.option_count(), 3);
    let costs: Vec<u64> = r.problem.options().map(|k| r.problem.option_cost(k)).collect();
    assert_eq!(costs, [5, 7, 2]);
}

proptest! {
    #![proptest_config(dancecard_testkit::proptest_config(512))]

    /// The reduced problem's solutions, mapped back, are exactly the original's.
    #[test]
    fn same_solutions_as_brute_force(raw in raw_problem(true)) {
        let p = from_raw(&raw);
        let expected = brute_force(&raw);
        let r = pre::reduce(&p).unwrap();
        let got = sorted(Solver::new(&r.problem).solutions().map(|s| {
            r.problem.verify(&s).expect("a solution of the reduced problem");
            let orig: Vec<OptionId> = r.original_solution(&s);
            p.verify(&orig).expect("a solution of the original");
            orig
        }));
        prop_assert_eq!(&got, &expected);
        if expected.is_empty() {
            // Not always detected, but when it is, everything goes.
            if r.infeasible.is_some() {
                prop_assert_eq!(r.problem.option_count(), 0);
            }
        } else {
            // No option of a solution is removed.
            for x in &r.removed_options {
                prop_assert!(expected.iter().all(|s| !s.contains(&x.option.index())));
            }
        }
        // A second pass removes no option (the first went to the end).
        let again = pre::reduce(&r.problem).unwrap();
        prop_assert_eq!(again.removed_options.len(), 0);
    }
}
