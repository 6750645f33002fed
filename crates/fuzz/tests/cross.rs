//! Every method on every kind of problem (#28): random problems of every kind (plain,
//! secondary items, colors, multiplicities with `0:b` and `b > 1`, costs, the empty solution,
//! mixtures) through every method of the engine's capability table, each agreeing with the
//! brute-force oracle or refused by the gate ([`dancecard_fuzz::check_family`]).
//!
//! `cargo test` runs a fast slice (`DANCECARD_CROSS_CASES`, 1,000 cases of at most 10
//! options unless set); a nightly-size run sets more and larger ones:
//! `DANCECARD_CROSS_CASES=20000 DANCECARD_CROSS_OPTIONS=14 cargo test --release -p
//! dancecard-fuzz --test cross`.

use dancecard_fuzz::{check_family, CrossOptions};
use dancecard_testkit::{any_problem, FamilyProblem, RawProblem};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("DANCECARD_CROSS_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000)
}

/// The most options of a case (`DANCECARD_CROSS_OPTIONS`, 10 unless set; the oracle
/// enumerates their subsets).
fn max_options() -> usize {
    std::env::var("DANCECARD_CROSS_OPTIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(10)
}

proptest! {
    #![proptest_config(dancecard_testkit::proptest_config(cases()))]

    #[test]
    fn every_method_on_every_kind_of_problem(problem in any_problem(max_options())) {
        check_family(&problem, CrossOptions::default());
    }
}

/// The kinds the issue names, one problem each, so that a regression in one of them fails by
/// name whatever the random cases drew.
#[test]
fn every_kind_by_name() {
    let raw = |primary, secondary, options: &[&[(usize, Option<usize>)]]| RawProblem {
        primary,
        secondary,
        options: options.iter().map(|o| o.to_vec()).collect(),
    };
    let family = |raw: RawProblem, bounds: Vec<(u32, u32)>, costs: Vec<u64>| FamilyProblem {
        raw,
        bounds,
        costs,
    };
    let p = |i| (i, None);
    let cases = [
        // Plain: Knuth's toy problem.
        family(
            raw(
                7,
                0,
                &[
                    &[p(2), p(4)],
                    &[p(0), p(3), p(6)],
                    &[p(1), p(2), p(5)],
                    &[p(0), p(3), p(5)],
                    &[p(1), p(6)],
                    &[p(3), p(4), p(6)],
                ],
            ),
            vec![(1, 1); 7],
            vec![0; 6],
        ),
        // Secondary items and colors.
        family(
            raw(
                2,
                1,
                &[
                    &[p(0), (2, Some(0))],
                    &[p(1), (2, Some(0))],
                    &[p(1), (2, Some(1))],
                    &[p(1), p(2)],
                ],
            ),
            vec![(1, 1); 2],
            vec![0; 4],
        ),
        // Multiplicities: `3|a` with four options `a` (the ZDD's sets of the issue).
        family(raw(1, 0, &[&[p(0)], &[p(0)], &[p(0)], &[p(0)]]), vec![(3, 3)], vec![0; 4]),
        // The empty solution: `0:1|a` and no option.
        family(raw(1, 0, &[]), vec![(0, 1)], vec![]),
        // `a 0:1|b | y` with the option `a y:g b` (auto after the estimate answered 0).
        family(raw(2, 1, &[&[p(0), (2, Some(0)), p(1)]]), vec![(1, 1), (0, 1)], vec![0]),
        // Costs.
        family(raw(2, 0, &[&[p(0), p(1)], &[p(0)], &[p(1)]]), vec![(1, 1); 2], vec![5, 1, 2]),
        // A mixture: bounds, colors and costs together.
        family(
            raw(
                3,
                1,
                &[
                    &[p(0), (3, Some(0))],
                    &[p(0), p(1)],
                    &[p(1), (3, Some(1))],
                    &[p(2)],
                    &[p(2), p(0)],
                ],
            ),
            vec![(0, 2), (1, 2), (1, 1)],
            vec![3, 1, 4, 1, 5],
        ),
    ];
    for case in &cases {
        check_family(case, CrossOptions::default());
    }
}
