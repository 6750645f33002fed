//! The models' counts by method (`queens::count_by`, `Tiling::count_by`) under every kind of
//! request: each answer is the whole count, or a part of it said to be partial, or a refusal
//! with a message; never a wrong number. What each method must answer and what it must refuse
//! is said per method and per kind of request ([`Must`]), so a method that starts refusing
//! what it answered (or answering what it cannot count) fails the check.

use std::fmt::Display;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use dancecard_engine::{Budget, Stop};
use dancecard_models::count::{CountRequest, ModelCount};

/// A kind of request tried by [`check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// No limit.
    All,
    /// Up to symmetry, no limit.
    Distinct,
    /// At most this many solutions.
    MaxSolutions(u128),
    /// At most this many nodes.
    MaxNodes(u64),
    /// A time limit already past.
    TimeLimit,
    /// A cancel flag already raised.
    Cancel,
}

/// What a method owes a kind of request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Must {
    /// An answer (whole, or a part said to be partial).
    Answer,
    /// A refusal with a message.
    Refuse,
    /// Either (a limit the method may meet before it looks at it).
    Either,
}

/// The requests tried: none, up to symmetry, solution limits around `total`, small node
/// limits, a time limit already past and a cancel flag already raised.
fn requests(total: u128) -> Vec<(Kind, CountRequest<'static>)> {
    let with = |budget: Budget| CountRequest { budget, threads: 1, ..CountRequest::default() };
    let mut all = vec![
        (Kind::All, with(Budget::new())),
        (Kind::Distinct, CountRequest { distinct: true, ..with(Budget::new()) }),
    ];
    for k in [0, 1, total / 2, total, total + 1] {
        all.push((Kind::MaxSolutions(k), with(Budget::new().max_solutions(k))));
    }
    for n in [1, 10, 1_000] {
        all.push((Kind::MaxNodes(n), with(Budget::new().max_nodes(n))));
    }
    all.push((Kind::TimeLimit, with(Budget::new().time_limit(Duration::ZERO))));
    let raised = Arc::new(AtomicBool::new(true));
    all.push((Kind::Cancel, with(Budget::new().cancel(raised))));
    all
}

/// Checks `count` (one method of a model) under every request of [`requests`] against the
/// whole count `total` and the count up to symmetry `distinct`; `must` says, for each kind of
/// request, whether the method owes an answer or a refusal.
pub(crate) fn check<E: Display>(
    what: &str,
    total: u128,
    distinct: u128,
    must: impl Fn(Kind) -> Must,
    count: impl Fn(&CountRequest<'_>) -> Result<ModelCount, E>,
) {
    for (kind, request) in requests(total) {
        let due = must(kind);
        let c = match count(&request) {
            Ok(c) => c,
            Err(e) => {
                let message = e.to_string();
                assert!(!message.is_empty(), "{what}, {kind:?}: an empty refusal");
                assert!(due != Must::Answer, "{what}, {kind:?}: refused: {message}");
                continue;
            }
        };
        assert!(due != Must::Refuse, "{what}, {kind:?}: answered ({:?}), not refused", c.stop);
        let got = c.total.to_u128().unwrap_or_else(|| panic!("{what}, {kind:?}: past u128"));
        assert!(got <= total, "{what}, {kind:?}: {got} solutions of {total}");
        match request.budget.max_solutions {
            Some(k) => {
                assert_eq!(got, k.min(total), "{what}, {kind:?}");
                if k < total {
                    assert_eq!(c.stop, Stop::SolutionLimit, "{what}, {kind:?}");
                }
            }
            None if c.is_complete() => assert_eq!(got, total, "{what}, {kind:?}"),
            None => assert!(!c.stop.is_answered(), "{what}, {kind:?}: {:?} with a part", c.stop),
        }
        if matches!(kind, Kind::All | Kind::Distinct) {
            assert!(c.is_complete(), "{what}, {kind:?}: stopped ({:?}) without a limit", c.stop);
        }
        if c.is_complete() && request.distinct {
            let d = c.distinct.as_ref().and_then(|d| d.to_u128());
            assert_eq!(d, Some(distinct), "{what}, {kind:?}: up to symmetry");
        }
        if let Some(d) = c.distinct.as_ref().and_then(|d| d.to_u128()) {
            assert!(d <= got, "{what}, {kind:?}: {d} distinct of {got}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Kind, Must};
    use dancecard_models::count::CountRequest;
    use dancecard_models::queens;
    use dancecard_models::tiling::{named_set, Board, Tiling};

    /// The rows by name, whatever the corpora hold: the queens up to 8 by each method, and
    /// tilings the DP takes (a rectangle), and does not (each piece once; a board with a hole).
    #[test]
    fn queens_and_tilings_by_every_method() {
        for n in 1..=8 {
            assert!(crate::puzzles::n_queens(n), "{n}-queens by method not checked");
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
            assert!(crate::tiling::check_tiling(&t), "{set}: by method not checked");
        }
    }

    /// 6-queens has 4 solutions, 1 up to symmetry.
    fn six_queens(must: impl Fn(Kind) -> Must, total: u128, method: queens::Method) {
        super::check("6-queens", total, 1, must, |r: &CountRequest<'_>| {
            queens::count_by(6, Some(method), r)
        });
    }

    /// The check passes on the right count and on the refusals owed.
    #[test]
    fn the_right_count_passes() {
        let bits = |k| if matches!(k, Kind::MaxSolutions(_)) { Must::Refuse } else { Must::Answer };
        six_queens(bits, 4, queens::Method::Bits);
        six_queens(|_| Must::Answer, 4, queens::Method::Dlx);
    }

    /// The check fails on a wrong count: the rows above can fail.
    #[test]
    #[should_panic(expected = "6-queens, All")]
    fn a_wrong_count_fails() {
        six_queens(|_| Must::Answer, 5, queens::Method::Dlx);
    }

    /// The check fails on a refusal where an answer is owed.
    #[test]
    #[should_panic(expected = "6-queens, MaxSolutions(0): refused")]
    fn a_refusal_owed_an_answer_fails() {
        six_queens(|_| Must::Answer, 4, queens::Method::Bits);
    }

    /// The check fails on an answer where a refusal is owed.
    #[test]
    #[should_panic(expected = "6-queens, All: answered")]
    fn an_answer_owed_a_refusal_fails() {
        six_queens(|_| Must::Refuse, 4, queens::Method::Dlx);
    }
}
