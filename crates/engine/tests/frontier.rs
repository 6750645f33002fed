//! The count by stages from both ends (`CountMethod::Frontier`, #32): lines found where a
//! latin square's rows are, counts equal to the plain search's on random latin square
//! completions and to the known counts of Nishino et al.'s latin files, counts past 2^128,
//! the limits, and `auto` handing a latin square to it. Every method on every kind of small
//! random problem against the oracle is `dancecard-fuzz`'s cross test.

use std::ops::ControlFlow;

use dancecard_engine::{
    count, Budget, Config, Count, CountMethod, CountRequest, Counted, MemoConfig, Problem,
    ProblemBuilder, Solver, Stop,
};
use proptest::prelude::*;

fn frontier(problem: &Problem, config: Config) -> Counted {
    let request = CountRequest { method: CountMethod::Frontier, config, ..CountRequest::default() };
    count(problem, &request, &|_| {}).expect("frontier takes the problem")
}

fn plain_count(problem: &Problem) -> Count {
    let request = CountRequest { method: CountMethod::Search, ..CountRequest::default() };
    count(problem, &request, &|_| {}).unwrap().count
}

/// The completions of a partial latin square of order `n` (`None` for an empty cell) as exact
/// cover: items for the empty cells, and for the symbols each row and each column lacks; an
/// option puts a symbol in an empty cell.
fn completions(square: &[Vec<Option<usize>>]) -> Problem {
    let n = square.len();
    let in_row = |r: usize, s: usize| square[r].contains(&Some(s));
    let in_col = |c: usize, s: usize| (0..n).any(|r| square[r][c] == Some(s));
    let mut b = ProblemBuilder::new();
    let mut cell = vec![vec![None; n]; n];
    let mut row = vec![vec![None; n]; n];
    let mut col = vec![vec![None; n]; n];
    for r in 0..n {
        for c in 0..n {
            if square[r][c].is_none() {
                cell[r][c] = Some(b.primary(&format!("p{r}{c}")).unwrap());
            }
        }
    }
    for x in 0..n {
        for s in 0..n {
            if !in_row(x, s) {
                row[x][s] = Some(b.primary(&format!("r{x}{s}")).unwrap());
            }
            if !in_col(x, s) {
                col[x][s] = Some(b.primary(&format!("c{x}{s}")).unwrap());
            }
        }
    }
    for r in 0..n {
        for c in 0..n {
            for s in 0..n {
                if let (Some(p), Some(q), Some(t)) = (cell[r][c], row[r][s], col[c][s]) {
                    b.option([p, q, t]).unwrap();
                }
            }
        }
    }
    b.build()
}

/// A latin square of order `n` (the cyclic one, rows, columns and symbols permuted by the
/// seeds) with the cells of `holes` emptied.
fn square(n: usize, seeds: [u64; 3], holes: &[bool]) -> Vec<Vec<Option<usize>>> {
    let perm = |seed: u64| {
        let mut p: Vec<usize> = (0..n).collect();
        let mut x = seed | 1;
        for i in (1..n).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            p.swap(i, (x % (i as u64 + 1)) as usize);
        }
        p
    };
    let (pr, pc, ps) = (perm(seeds[0]), perm(seeds[1]), perm(seeds[2]));
    (0..n)
        .map(|r| (0..n).map(|c| (!holes[r * n + c]).then_some(ps[(pr[r] + pc[c]) % n])).collect())
        .collect()
}

proptest! {
    #![proptest_config(dancecard_testkit::proptest_config(200))]

    /// On latin square completions (orders 2 to 5, any cells emptied) the count by stages
    /// equals the plain search's.
    #[test]
    fn equals_the_plain_search_on_latin_square_completions(
        n in 2usize..=5,
        seeds in any::<[u64; 3]>(),
        holes in proptest::collection::vec(any::<bool>(), 25),
    ) {
        let problem = completions(&square(n, seeds, &holes[..n * n]));
        let counted = frontier(&problem, Config::default());
        prop_assert_eq!(counted.stop, Stop::Exhausted);
        prop_assert_eq!(counted.method, CountMethod::Frontier);
        prop_assert_eq!(counted.count, plain_count(&problem));
    }
}

#[test]
fn an_empty_square_has_its_rows_for_lines() {
    // Order 5, all cells empty: 161,280 latin squares (OEIS A002860).
    let problem = completions(&vec![vec![None; 5]; 5]);
    let counted = frontier(&problem, Config::default());
    assert_eq!(counted.count, 161_280);
    let stats = counted.frontier.unwrap();
    assert!(stats.lines);
    assert_eq!(stats.stages, 5, "the rows (or the columns, or the symbols)");
    assert!(stats.forward > 0 && stats.forward < 5, "both ends: {stats:?}");
}

#[test]
fn nishino_latin_files_count_as_their_known_counts() {
    let counts = String::from_utf8(dancecard_testkit::testdata("instances/ec/counts.tsv")).unwrap();
    let mut seen = 0;
    for line in counts.lines().filter(|l| l.starts_with("latin")) {
        let (file, want) = line.split_once('\t').unwrap();
        let bytes = dancecard_testkit::testdata(&format!("instances/ec/{file}"));
        let problem = dancecard_format::parse_ec(&bytes).unwrap().problem;
        let counted = frontier(&problem, Config::default());
        assert_eq!(counted.count.to_string(), want, "{file}");
        assert!(counted.frontier.unwrap().lines, "{file}: lines");
        seen += 1;
    }
    assert_eq!(seen, 16, "latin6 and latin7 files");
}

/// `k` items with two options each: 2^k solutions.
fn doubled(k: usize) -> Problem {
    let mut b = ProblemBuilder::new();
    for i in 0..k {
        let item = b.primary(&format!("x{i}")).unwrap();
        b.option([item]).unwrap();
        b.option([item]).unwrap();
    }
    b.build()
}

#[test]
fn counts_past_two_to_the_128() {
    let counted = frontier(&doubled(130), Config::default());
    assert_eq!(counted.stop, Stop::Exhausted);
    assert_eq!(counted.count.to_biguint(), dancecard_engine::BigUint::from(2u32).pow(130));
    let stats = counted.frontier.unwrap();
    assert!(!stats.lines);
    assert_eq!(stats.stages, 130);
}

#[test]
fn limits_stop_it_and_it_has_counted_nothing() {
    let problem = completions(&vec![vec![None; 5]; 5]);
    let nodes = Config { budget: Budget::new().max_nodes(2_000), ..Config::default() };
    let counted = frontier(&problem, nodes);
    assert_eq!((counted.stop, counted.count.is_zero()), (Stop::NodeLimit, true));
    let states = Config { budget: Budget::new().max_states(100), ..Config::default() };
    assert_eq!(frontier(&problem, states).stop, Stop::MemoryLimit);
    let bytes = CountRequest {
        method: CountMethod::Frontier,
        memo: MemoConfig { limit_bytes: 10_000, ..MemoConfig::default() },
        ..CountRequest::default()
    };
    assert_eq!(count(&problem, &bytes, &|_| {}).unwrap().stop, Stop::MemoryLimit);
    // The caller's Break is a cancel.
    let mut solver = Solver::new(&problem);
    let counted = solver
        .count_by(CountMethod::Frontier, &MemoConfig::default(), &mut |s| {
            assert!((0.0..=1.0).contains(&s.progress()));
            ControlFlow::Break(())
        })
        .unwrap();
    assert_eq!(counted.stop, Stop::Cancelled);
}

#[test]
fn auto_hands_a_latin_square_to_it() {
    let bytes = dancecard_testkit::testdata("instances/ec/latin7-blk-00001.ec");
    let problem = dancecard_format::parse_ec(&bytes).unwrap().problem;
    let counted = count(&problem, &CountRequest::default(), &|_| {}).unwrap();
    assert_eq!(counted.count, 10_752);
    assert_eq!(counted.method, CountMethod::Frontier);
    assert!(
        counted
            .reason
            .ends_with("the options fall into 6 lines: frontier (by stages from both ends)"),
        "{}",
        counted.reason
    );
    // Where memoisation pays, the memoised search keeps the count (dominoes have no lines).
    let text = dancecard_testkit::instance_text("domino6x6");
    let problem = dancecard_format::parse_dlx(text.as_bytes()).unwrap().problem;
    let counted = count(&problem, &CountRequest::default(), &|_| {}).unwrap();
    assert_eq!((counted.count, counted.method), (Count::from(6_728u64), CountMethod::Memo));
}

#[test]
fn the_node_limit_is_kept_to_the_node() {
    let problem = completions(&vec![vec![None; 4]; 4]);
    for limit in [0, 1, 5, 100] {
        let config = Config { budget: Budget::new().max_nodes(limit), ..Config::default() };
        let counted = frontier(&problem, config);
        assert_eq!((counted.stop, counted.stats.nodes), (Stop::NodeLimit, limit), "{limit}");
    }
}

#[test]
fn a_subtree_is_counted_by_the_memo() {
    // The count by stages counts whole problems: under a prefix, the memo counts the subtree.
    let problem = doubled(4);
    let mut solver = Solver::new(&problem);
    solver.set_prefix(&[0]);
    let go = &mut |_: &Solver| ControlFlow::Continue(());
    let counted = solver.count_by(CountMethod::Frontier, &MemoConfig::default(), go).unwrap();
    assert_eq!((counted.count, counted.method), (Count::from(8u64), CountMethod::Memo));
    assert!(counted.reason.contains("a subtree"), "{}", counted.reason);
    let counted = solver.count_by(CountMethod::Auto, &MemoConfig::default(), go).unwrap();
    assert_eq!(counted.count, 8);
}

#[test]
fn auto_gives_way_to_the_plain_search_when_the_states_do_not_fit() {
    let bytes = dancecard_testkit::testdata("instances/ec/latin7-blk-00001.ec");
    let problem = dancecard_format::parse_ec(&bytes).unwrap().problem;
    let request = CountRequest {
        memo: MemoConfig { limit_bytes: 100_000, ..MemoConfig::default() },
        ..CountRequest::default()
    };
    let counted = count(&problem, &request, &|_| {}).unwrap();
    assert_eq!((counted.count, counted.stop), (Count::from(10_752u64), Stop::Exhausted));
    assert_eq!(counted.method, CountMethod::Search);
    assert!(
        counted.reason.ends_with("its states passed the memory limit: plain search"),
        "{}",
        counted.reason
    );
}

#[test]
fn a_solution_limit_is_refused() {
    let config = Config { budget: Budget::new().max_solutions(1), ..Config::default() };
    let request = CountRequest { method: CountMethod::Frontier, config, ..CountRequest::default() };
    let refused = count(&doubled(3), &request, &|_| {}).unwrap_err();
    assert!(refused.to_string().contains("no solution limit"), "{refused}");
}
