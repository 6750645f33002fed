//! Polyomino tilings: boards, piece files, and the exact cover model built from them.

use std::ops::ControlFlow;

use dancecard_engine::{Budget, Config};
use dancecard_models::tiling::{self, named_set, parse_pieces, Board, Piece, Tiling, SET_NAMES};

use crate::{accepted, split, text};

/// The most cells of a board whose tiling model is built (the CLI builds any; the fuzz
/// target keeps each input in the milliseconds).
const BUILD_CELLS: usize = 400;

/// The most cells of a board whose tilings are searched.
const SOLVE_CELLS: usize = 64;

/// Boards (`dancecard tile --board`) and piece files (`--pieces`).
///
/// The first byte holds flags: bit 0 every piece once (`--once`), bit 1 no reflections,
/// bit 2 reads the board as a size `RxC` instead of ASCII art, bits 3-5 the named set used
/// when the input has no pieces. The rest is the board, then optionally a line `=` and the
/// pieces in ASCII art.
///
/// Checks: a board's cells, numbers and symmetries are consistent; each piece reads back
/// from its rendering, and its orientations share its canonical form; a small tiling model
/// has one option per placement inside the board, and its tilings found under a node limit
/// cover every cell once, agree with the count up to symmetry and, for rectangles, with the
/// profile dynamic program.
pub fn tiling(data: &[u8]) {
    let (flags, rest) = split(data);
    let once = flags & 1 != 0;
    let flips = flags & 2 == 0;
    let text = text(rest);
    let (board_text, pieces_text) = match text.split_once("\n=\n") {
        Some((board, pieces)) => (board, Some(pieces)),
        None => (&*text, None),
    };
    let board =
        if flags & 4 != 0 { Board::parse_size(board_text) } else { Board::parse(board_text) };
    let Some(board) = accepted(board) else {
        return;
    };
    check_board(&board, flips);
    let pieces = match pieces_text {
        Some(t) => match accepted(parse_pieces(t)) {
            Some(pieces) => pieces,
            None => return,
        },
        None => {
            let name = SET_NAMES[usize::from(flags >> 3) % SET_NAMES.len()];
            named_set(name).unwrap_or_else(|| panic!("the named set {name} is missing"))
        }
    };
    for piece in &pieces {
        check_piece(piece, flips);
    }
    if board.cell_count() > BUILD_CELLS {
        return;
    }
    let built = Tiling::builder(board.clone(), pieces).once(once).flips(flips).build();
    match built {
        Ok(t) => {
            check_tiling(&t);
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

fn check_board(board: &Board, flips: bool) {
    let cells: Vec<(usize, usize)> = board.cells().collect();
    assert_eq!(cells.len(), board.cell_count());
    assert!(board.cell_count() >= 1 && board.cell_count() <= tiling::MAX_CELLS);
    assert!(board.cell_count() <= board.rows() * board.cols());
    assert_eq!(board.is_rectangle(), board.cell_count() == board.rows() * board.cols());
    // The bounding box is tight: a cell on every side.
    assert!(cells.iter().any(|c| c.0 == 0) && cells.iter().any(|c| c.1 == 0));
    assert!(cells.iter().any(|c| c.0 + 1 == board.rows()));
    assert!(cells.iter().any(|c| c.1 + 1 == board.cols()));
    for (k, &(r, c)) in cells.iter().enumerate() {
        assert!(board.contains(r, c));
        assert_eq!(board.cell_index(r, c), Some(k), "cells are numbered in reading order");
    }
    if board.cell_count() > 4096 {
        return;
    }
    let symmetries = board.symmetries(flips);
    assert!(!symmetries.is_empty() && symmetries.len() <= 8);
    let identity: Vec<u32> = (0..board.cell_count() as u32).collect();
    assert_eq!(symmetries[0], identity, "the identity first");
    for image in &symmetries {
        let mut sorted = image.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, identity, "a symmetry is a permutation of the cells");
    }
}

fn check_piece(piece: &Piece, flips: bool) {
    assert!(piece.size() >= 1);
    assert_eq!(piece.cells().len(), piece.size());
    // The rendering reads back as the same piece.
    let art = format!("{}\n{}", piece.name(), piece.render());
    let back = parse_pieces(&art).unwrap_or_else(|e| panic!("a rendered piece: {e}\n{art}"));
    assert_eq!(back.len(), 1);
    assert_eq!(back[0].cells(), piece.cells(), "render and parse_pieces round trip");
    if piece.size() > 400 {
        return;
    }
    let orientations = piece.orientations(flips);
    assert!([1, 2, 4, 8].contains(&orientations.len()), "{} orientations", orientations.len());
    let canonical = piece.canonical(flips);
    for o in &orientations {
        let turned = Piece::new(piece.name(), o).unwrap_or_else(|e| panic!("orientation: {e}"));
        assert_eq!(turned.canonical(flips), canonical, "orientations share a canonical form");
        assert_eq!(turned.size(), piece.size());
    }
}

/// Checks a tiling's model, and on small boards its solutions and its counts by every method
/// under every kind of request ([`crate::requests`]). Returns whether the by-method rows ran.
pub(crate) fn check_tiling(t: &Tiling) -> bool {
    let board = t.board();
    let problem = t.exact_cover();
    let piece_items = if t.is_once() { t.pieces().len() } else { 0 };
    assert_eq!(problem.primary_count(), board.cell_count() + piece_items);
    for option in problem.options() {
        let placement = t.placement(option).unwrap_or_else(|| panic!("option without placement"));
        assert!(placement.piece < t.pieces().len());
        assert_eq!(placement.cells.len(), t.pieces()[placement.piece].size());
        assert!(placement.cells.iter().all(|&(r, c)| board.contains(r, c)), "placed off board");
        assert_eq!(problem.option(option).len(), placement.cells.len() + usize::from(t.is_once()));
    }
    if board.cell_count() > SOLVE_CELLS {
        return false;
    }
    let max_nodes = crate::oracle::node_budget(problem, 5_000);
    let config = Config::with_budget(Budget::new().max_nodes(max_nodes));
    let mut found = 0u32;
    let (outcome, _) = t.solve_with(config.clone(), |options| {
        let answer = dancecard_models::Model::decode(t, options);
        let mut covered = vec![0u32; board.cell_count()];
        for p in &answer.placements {
            for &(r, c) in &p.cells {
                let k = board.cell_index(r, c).unwrap_or_else(|| panic!("({r}, {c}) off board"));
                covered[k] += 1;
            }
        }
        assert!(covered.iter().all(|&n| n == 1), "a tiling covers every cell once");
        if t.is_once() {
            let mut used: Vec<usize> = answer.placements.iter().map(|p| p.piece).collect();
            used.sort_unstable();
            assert_eq!(used, (0..t.pieces().len()).collect::<Vec<_>>(), "each piece once");
        }
        let drawn = t.render(&answer);
        assert_eq!(drawn.lines().count(), board.rows(), "one line per row");
        found += 1;
        if found < 50 {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    });
    let distinct = t.count_distinct(config.clone());
    assert!(distinct.distinct <= distinct.total);
    if distinct.outcome.is_complete() {
        assert!(outcome.solutions <= distinct.total);
        assert!(distinct.total == 0 || distinct.distinct >= 1, "some tiling is the least");
        let (count, _) = t.count(config);
        assert_eq!(count.solutions, distinct.total, "count and count_distinct");
        let dp = tiling::DpLimits { max_states: 1 << 14, ..Default::default() };
        let narrow = board.rows().min(board.cols());
        let dp_applies = board.is_rectangle() && !t.is_once() && narrow <= dp.max_side;
        // Whether the DP counts the whole board within its states (it owes that count).
        let dp_counts = dp_applies
            && match t.count_dp_bounded(None, dp.max_states) {
                Ok(count) => {
                    assert_eq!(count, distinct.total, "the profile DP and DLX differ");
                    true
                }
                Err(e) => {
                    assert!(!e.to_string().is_empty());
                    false
                }
            };
        let (total, least) = (distinct.total, distinct.distinct);
        for method in [tiling::Method::Auto, tiling::Method::Dlx, tiling::Method::Dp] {
            use crate::requests::{Kind, Must};
            // The DP takes full rectangles only, within its states, and no limit but the
            // cancel flag, which stops it with a refusal (it has no partial count), unless it
            // ends before it looks at the flag; auto runs the DP where it applies.
            let must = |kind| match (method, kind) {
                (tiling::Method::Dp, Kind::All) if dp_counts => Must::Answer,
                (tiling::Method::Dp | tiling::Method::Auto, Kind::Cancel) if dp_applies => {
                    Must::Either
                }
                (tiling::Method::Dp, _) => Must::Refuse,
                _ => Must::Answer,
            };
            let what = format!("a {}x{} board by {}", board.rows(), board.cols(), method.name());
            crate::requests::check(&what, total, least, must, |r| t.count_by(method, r, dp));
        }
        true
    } else {
        false
    }
}
