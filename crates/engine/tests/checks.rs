//! Every kernel checks its invariants at every node when `DANCECARD_CHECK_INVARIANTS` asks it
//! to, on the tests' own build (debug assertions): what `./scripts/test`'s checked run relies
//! on (#46). One test in this binary, so that the variable is set before any search reads it.

use dancecard_engine::{
    checks_invariants, checks_made, Config, Heuristic, Kernel, LowerBound, MemoConfig, Solver,
};

mod common;
use common::instance;

#[test]
fn every_kernel_checks_at_every_node_when_asked() {
    if !cfg!(debug_assertions) {
        // A release build compiles no check (nothing to ask).
        assert_eq!(checks_made(), 0);
        return;
    }
    std::env::set_var("DANCECARD_CHECK_INVARIANTS", "1");
    assert!(checks_invariants());
    let plain = instance("queens8");
    let bounded = instance("mult_queens_12_6");
    let costs = instance("cost_domino6x6");
    let config = |kernel, heuristic| Config { kernel, heuristic, ..Config::default() };
    let checked = |what: &str, run: &mut dyn FnMut() -> u64| {
        let before = checks_made();
        let nodes = run();
        let made = checks_made() - before;
        assert!(nodes > 1 && made >= nodes / 2, "{what}: {made} checks in {nodes} nodes");
    };
    for (kernel, heuristic, what) in [
        (Kernel::Links, Heuristic::Mrv, "the links"),
        (Kernel::BitsCounted, Heuristic::Mrv, "the bit sets"),
        (Kernel::BitsSliced, Heuristic::Mrv, "the sliced bit sets"),
        (Kernel::Links, Heuristic::Ssxcc, "SSXCC's sparse sets"),
    ] {
        checked(what, &mut || {
            let mut s = Solver::with_config(&plain, config(kernel, heuristic));
            assert_eq!(s.count().solutions, 92, "{what}");
            s.stats().nodes
        });
    }
    for (kernel, what) in
        [(Kernel::Links, "Algorithm M"), (Kernel::BitsCounted, "Algorithm M on bit sets")]
    {
        checked(what, &mut || {
            let mut s = Solver::with_config(&bounded, config(kernel, Heuristic::Mrv));
            assert_eq!(s.count().solutions, 128, "{what}");
            s.stats().nodes
        });
    }
    for (problem, what) in [(&plain, "the memo"), (&bounded, "the memo with multiplicities")] {
        checked(what, &mut || {
            let mut s = Solver::new(problem);
            let m =
                s.count_memo(&MemoConfig::default(), |_, _| std::ops::ControlFlow::Continue(()));
            m.expect("the memo counts").stats.nodes
        });
    }
    for (kernel, bound, what) in [
        (Kernel::Links, LowerBound::Dlx5, "DLX5's branch and bound"),
        (Kernel::Auto, LowerBound::Auto, "the branch and bound on bit sets"),
    ] {
        checked(what, &mut || {
            let mut s = Solver::with_config(&costs, config(kernel, Heuristic::Mrv));
            let best = s.min_cost_with(1, bound).expect("a least cost");
            assert_eq!(best.best[0].cost, 43, "{what}");
            best.stats.nodes
        });
    }
}
