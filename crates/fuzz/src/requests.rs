//! The models' counts by method (`queens::count_by`, `Tiling::count_by`) under every kind of
//! request: each answer is the whole count, or a part of it said to be partial, or a refusal
//! with a message; never a wrong number.

use std::fmt::Display;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use dancecard_engine::{Budget, Stop};
use dancecard_models::count::{CountRequest, ModelCount};

/// The requests tried: none, up to symmetry, solution limits around `total`, small node
/// limits, a time limit already past and a cancel flag already raised.
fn requests(total: u128) -> Vec<(String, CountRequest<'static>)> {
    let with = |budget: Budget| CountRequest { budget, threads: 1, ..CountRequest::default() };
    let mut all = vec![
        ("no limit".to_string(), with(Budget::new())),
        ("up to symmetry".to_string(), CountRequest { distinct: true, ..with(Budget::new()) }),
    ];
    for k in [0, 1, total / 2, total, total + 1] {
        all.push((format!("max_solutions {k}"), with(Budget::new().max_solutions(k))));
    }
    for n in [1, 10, 1_000] {
        all.push((format!("max_nodes {n}"), with(Budget::new().max_nodes(n))));
    }
    all.push(("time_limit 0".to_string(), with(Budget::new().time_limit(Duration::ZERO))));
    let raised = Arc::new(AtomicBool::new(true));
    all.push(("cancel raised".to_string(), with(Budget::new().cancel(raised))));
    all
}

/// Checks `count` (one method of a model) under every request of [`requests`] against the
/// whole count `total` and the count up to symmetry `distinct`. A request without limits
/// must be answered when `answers_all` (the method takes the model); any other may be
/// refused, with a message.
pub(crate) fn check<E: Display>(
    what: &str,
    total: u128,
    distinct: u128,
    answers_all: bool,
    count: impl Fn(&CountRequest<'_>) -> Result<ModelCount, E>,
) {
    for (name, request) in requests(total) {
        let c = match count(&request) {
            Ok(c) => c,
            Err(e) => {
                let message = e.to_string();
                assert!(!message.is_empty(), "{what}, {name}: an empty refusal");
                let limited = name != "no limit" && name != "up to symmetry";
                assert!(!answers_all || limited, "{what}, {name}: refused: {message}");
                continue;
            }
        };
        let got = c.total.to_u128().unwrap_or_else(|| panic!("{what}, {name}: past u128"));
        assert!(got <= total, "{what}, {name}: {got} solutions of {total}");
        match request.budget.max_solutions {
            Some(k) => {
                assert_eq!(got, k.min(total), "{what}, {name}");
                if k < total {
                    assert_eq!(c.stop, Stop::SolutionLimit, "{what}, {name}");
                }
            }
            None if c.is_complete() => assert_eq!(got, total, "{what}, {name}"),
            None => assert!(!c.stop.is_answered(), "{what}, {name}: {:?} with a part", c.stop),
        }
        if c.is_complete() && request.distinct {
            let d = c.distinct.as_ref().and_then(|d| d.to_u128());
            assert_eq!(d, Some(distinct), "{what}, {name}: up to symmetry");
        }
        if let Some(d) = c.distinct.as_ref().and_then(|d| d.to_u128()) {
            assert!(d <= got, "{what}, {name}: {d} distinct of {got}");
        }
    }
}

#[cfg(test)]
mod tests {
    use dancecard_models::count::CountRequest;
    use dancecard_models::queens;
    use dancecard_models::tiling::{named_set, Board, Tiling};

    /// The rows by name, whatever the corpora hold: the queens up to 8 by each method, and
    /// tilings the DP takes (a rectangle), and does not (each piece once; a board with a hole).
    #[test]
    fn queens_and_tilings_by_every_method() {
        for n in 1..=8 {
            crate::puzzles::n_queens(n);
        }
        let tilings = [
            (Board::parse_size("3x6"), "trominoes", false),
            (Board::parse_size("4x5"), "tetrominoes", true),
            (Board::parse("####\n#.##\n####\n####"), "trominoes", false),
        ];
        for (board, set, once) in tilings {
            let board = board.expect("a board");
            let pieces = named_set(set).expect("a named set");
            let t = Tiling::builder(board, pieces).once(once).build().expect("a tiling");
            crate::tiling::check_tiling(&t);
        }
    }

    /// The check fails on a wrong count: the rows above can fail.
    #[test]
    #[should_panic(expected = "6-queens")]
    fn a_wrong_count_fails() {
        super::check("6-queens", 5, 1, true, |r: &CountRequest<'_>| queens::count_by(6, None, r));
    }
}
