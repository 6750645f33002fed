//! The other puzzles that read numbers or text from a user: the target sudoku, Langford pairs,
//! N-queens and the constant-sum matrix, the sliding-tile states and pattern databases, the
//! knight swaps, domination and guarding, the grid pick, the subset count and Egyptian
//! fractions.

use std::ops::ControlFlow;

use dancecard_engine::{Budget, Config, Solver, Stop as EngineStop};
use dancecard_models::langford::{is_langford, Langford};
use dancecard_models::queens::{self, Queens};
use dancecard_models::sudoku::{self as classic, Method, Options, Shape};
use dancecard_models::target::{self, TargetSudoku};
use dancecard_models::Model;
use dancecard_search::constant_sum::{ConstantSum, Layout};
use dancecard_search::dominate::{self, Piece};
use dancecard_search::slide::{self, Algorithm, Board, Goal, Heuristic, Pdb, SolveOptions};
use dancecard_search::Stop;
use dancecard_search::{egyptian as egypt, grid_pick as pick, knights as swap, subset as sums};

use crate::{accepted, split, text};

/// The target sudoku (`dancecard target-sudoku`): [`TargetSudoku::parse`].
///
/// Checks: a parsed puzzle keeps its givens; the branch and bound under a node limit returns
/// a valid completion of the givens whose score is its weighted sum; when it ends exhausted
/// without one, the sudoku solver finds none either (when its own search is exact).
pub fn target_sudoku(data: &[u8]) {
    let text = text(data);
    let Some(puzzle) = accepted(TargetSudoku::parse(&text)) else {
        return;
    };
    let grid = *puzzle.grid();
    assert_eq!(TargetSudoku::from_grid(grid).as_ref(), Ok(&puzzle), "from_grid round trip");
    let outcome = puzzle.solve_limited(&Budget::new().max_nodes(100));
    assert!(outcome.nodes <= 101, "{} nodes past a limit of 100", outcome.nodes);
    if let Some(best) = &outcome.best {
        assert!(target::is_valid_solution(&best.grid), "not a sudoku: {:?}", best.grid);
        for (r, row) in grid.iter().enumerate() {
            for (c, &d) in row.iter().enumerate() {
                assert!(d == 0 || best.grid[r][c] == d, "a given changed at ({r}, {c})");
            }
        }
        assert_eq!(best.score, target::score(&best.grid), "the score is the weighted sum");
    }
    let values: Vec<u8> = grid.iter().flatten().copied().collect();
    let Ok(classic) = classic::Grid::from_values(Shape::CLASSIC, values) else {
        panic!("a parsed target sudoku is not a 9x9 grid");
    };
    let report = classic::search(&classic, &Options::new(Method::Fast).limit(1).max_nodes(500));
    if outcome.stop == EngineStop::Exhausted && report.is_exact() {
        assert_eq!(
            outcome.best.is_some(),
            report.solutions > 0,
            "the target sudoku and the sudoku solver disagree on solvability"
        );
    }
}

/// Numbers that commands take from users: `dancecard langford N`, `queens N`,
/// `constant-sum N K`, and the box shape of `sudoku --box RxC`.
///
/// The first byte selects the command (`b % 4`), the rest is its text, read as the command
/// line reads it (`str::parse`). Checks: the models accept exactly their documented range;
/// small Langford and queens models find solutions that verify, with the counts of the
/// dedicated counters; a constant-sum matrix has every line summing to K.
pub fn sizes(data: &[u8]) {
    let (selector, rest) = split(data);
    let text = text(rest);
    let words: Vec<&str> = text.split_whitespace().collect();
    match selector % 4 {
        0 => {
            let Some(Ok(n)) = words.first().map(|w| w.parse::<usize>()) else { return };
            langford(n);
        }
        1 => {
            let Some(Ok(n)) = words.first().map(|w| w.parse::<usize>()) else { return };
            n_queens(n);
        }
        2 => {
            let (Some(Ok(n)), Some(Ok(k))) = (
                words.first().map(|w| w.parse::<usize>()),
                words.get(1).map(|w| w.parse::<i128>()),
            ) else {
                return;
            };
            // The command takes N from 1 to 20,000.
            if !(1..=20_000).contains(&n) {
                return;
            }
            let layout = if selector & 4 != 0 { Layout::Even } else { Layout::Diagonal };
            match ConstantSum::new(n, k, layout) {
                Some(m) => {
                    assert!(k >= 0);
                    let row = m.row(n / 2);
                    assert_eq!(row.iter().sum::<u128>(), k as u128, "row sum");
                    assert_eq!(m.row_text(0).split(' ').count(), n);
                    if n <= 200 {
                        assert!(m.check(), "n={n} k={k} {layout:?}");
                    }
                }
                None => assert!(k < 0, "no matrix for k = {k}"),
            }
        }
        _ => {
            if let Ok(shape) = text.trim().parse::<Shape>() {
                assert!((1..=Shape::MAX_SIDE).contains(&shape.side()));
                assert_eq!(shape.to_string().parse::<Shape>(), Ok(shape));
            }
        }
    }
}

fn langford(n: usize) {
    let model = match Langford::new(n) {
        Ok(model) => model,
        Err(e) => {
            assert!(n == 0 || n > dancecard_models::langford::MAX_N, "{n} refused: {e}");
            return;
        }
    };
    if n > 24 {
        return;
    }
    let problem = model.problem();
    let max_nodes = crate::oracle::node_budget(&problem, 5_000);
    let config = Config {
        budget: Budget { max_nodes: Some(max_nodes), max_solutions: Some(1), ..Budget::default() },
        ..Config::default()
    };
    let mut solver = Solver::with_config(&problem, config);
    if let Some(first) = solver.first() {
        let seq = model.decode(&first);
        assert!(is_langford(&seq), "not a Langford sequence: {seq:?}");
    }
    if n <= 8 {
        let (once, _) = model.count();
        let (both, _) = Langford::with_reversals(n).map(|m| m.count()).unwrap_or_else(|e| {
            panic!("with_reversals({n}): {e}");
        });
        assert_eq!(both.solutions, 2 * once.solutions, "each arrangement and its reversal");
    }
}

/// Checks `n`-queens: the engine's solutions, the listing and the counter agree, and for
/// boards up to 9 every method of [`queens::count_by`] under every kind of request
/// ([`crate::requests`]). Returns whether the by-method rows ran.
pub(crate) fn n_queens(n: usize) -> bool {
    let model = match Queens::new(n) {
        Ok(model) => model,
        Err(e) => {
            assert!(n == 0 || n > queens::MAX_DLX_N, "{n} refused: {e}");
            return false;
        }
    };
    if n <= 9 {
        let problem = model.problem();
        let mut solver = Solver::new(&problem);
        let (mut dlx, mut canonical) = (0u64, 0u64);
        let _ = solver.solve_with(|s| {
            let board = model.decode(&s.to_vec());
            assert!(queens::is_solution(&board), "not a solution: {board:?}");
            dlx += 1;
            canonical += u64::from(queens::is_canonical(&board));
            ControlFlow::Continue(())
        });
        let counted = queens::count(n).unwrap_or_else(|e| panic!("queens::count({n}): {e}"));
        let mut visited = 0u64;
        let _ = queens::solutions(n, |p| {
            assert!(queens::is_solution(p));
            visited += 1;
            ControlFlow::Continue(())
        });
        assert_eq!((dlx, visited), (counted.total, counted.total), "the counts of {n}-queens");
        assert_eq!(canonical, counted.distinct, "{n}-queens up to symmetry");
        let (total, distinct) = (u128::from(dlx), u128::from(canonical));
        for method in [None, Some(queens::Method::Bits), Some(queens::Method::Dlx)] {
            // The bitwise counter counts whole classes of boards: no solution limit.
            let must = |kind| match (method, kind) {
                (Some(queens::Method::Bits), crate::requests::Kind::MaxSolutions(_)) => {
                    crate::requests::Must::Refuse
                }
                _ => crate::requests::Must::Answer,
            };
            let what = format!("{n}-queens by {method:?}");
            crate::requests::check(&what, total, distinct, must, |request| {
                queens::count_by(n, method, request)
            });
        }
        true
    } else {
        if n <= 32 {
            let max_nodes = crate::oracle::node_budget(&model.problem(), 3_000);
            let config = Config::with_budget(Budget::new().max_nodes(max_nodes));
            let found = queens::first(n, &config, &mut |_| ControlFlow::Continue(()))
                .unwrap_or_else(|e| panic!("queens::first({n}): {e}"));
            if let Some(board) = found.board {
                assert!(queens::is_solution(&board), "not a solution: {board:?}");
            }
        }
        false
    }
}

/// Sliding-tile puzzles (`dancecard slide`): states as text, and pattern database files.
///
/// The first byte selects: bit 0 clear, the rest is a state ([`Board`] from text), solved
/// by every algorithm under node and state limits; each solution reaches the goal in as many
/// moves as it claims, no fewer than the heuristic's estimate, and the complete searches agree
/// on the optimal length. Bit 0 set, the rest is a pattern database ([`Pdb::from_bytes`]),
/// its checksum fixed up first so that the fuzzer reaches the checks behind it; a database
/// that loads writes back to the same bytes and guides a search (perhaps badly, if its values
/// were tampered with) without panicking.
pub fn slide(data: &[u8]) {
    let (selector, rest) = split(data);
    if selector & 1 != 0 {
        return pattern_database(rest);
    }
    let text = text(rest);
    let Some(board) = accepted(text.parse::<Board>()) else {
        return;
    };
    assert_eq!(board.to_string().parse::<Board>().ok().as_ref(), Some(&board), "round trip");
    let goal = if selector & 2 != 0 { Goal::BlankLast } else { Goal::BlankFirst };
    let target = Board::goal(board.side(), goal);
    let mut optimal = None;
    for algorithm in [
        Algorithm::IdaStar,
        Algorithm::AStar,
        Algorithm::Bidirectional,
        Algorithm::Bfs,
        Algorithm::Iddfs,
    ] {
        for heuristic in [Heuristic::Manhattan, Heuristic::LinearConflict] {
            let limits = Budget::new().max_nodes(500).max_states(2_000);
            let options =
                SolveOptions::new(goal).algorithm(algorithm).heuristic(heuristic).limits(limits);
            match slide::solve(&board, &options) {
                Ok(solution) => {
                    assert!(board.is_solvable(goal), "solved an unsolvable state");
                    assert_eq!(solution.length, solution.moves.len());
                    assert_eq!(board.apply(&solution.moves).as_ref(), Some(&target), "goal");
                    assert_eq!(board.tiles_moved(&solution.moves), Some(solution.tiles.clone()));
                    assert!(solution.initial_estimate <= solution.length as u64, "inadmissible");
                    match optimal {
                        None => optimal = Some(solution.length),
                        Some(l) => assert_eq!(l, solution.length, "{algorithm:?} is not optimal"),
                    }
                }
                Err(slide::SlideError::Unsolvable { .. }) => {
                    assert!(!board.is_solvable(goal), "a solvable state called unsolvable");
                }
                Err(e) => assert!(!e.to_string().is_empty()),
            }
        }
    }
}

fn pattern_database(data: &[u8]) {
    let mut bytes = data.to_vec();
    if bytes.len() >= 24 {
        let body = bytes.len() - 8;
        let sum = Pdb::checksum(&bytes[..body]);
        bytes[body..].copy_from_slice(&sum.to_le_bytes());
    }
    let Some(pdb) = accepted(Pdb::from_bytes(&bytes)) else {
        return;
    };
    assert_eq!(pdb.to_bytes(), bytes, "a database writes back to the bytes it was read from");
    let goal = pdb.goal();
    let side = pdb.side();
    let mut tiles: Vec<u8> = Board::goal(side, goal).tiles().to_vec();
    // A state a few moves from the goal: turn the first cells around.
    tiles[..side.min(3)].reverse();
    let Ok(board) = Board::new(tiles) else { panic!("a permutation refused") };
    let pdb = std::sync::Arc::new(pdb);
    let limits = Budget::new().max_nodes(500).max_states(2_000);
    let options = SolveOptions::new(goal).heuristic(Heuristic::Pdb).pdb(pdb).limits(limits);
    match slide::solve(&board, &options) {
        Ok(solution) => {
            let target = Board::goal(side, goal);
            assert_eq!(board.apply(&solution.moves).as_ref(), Some(&target), "reaches the goal");
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

/// The knight-swap puzzle (`dancecard knights`): [`swap::parse_cases`].
///
/// Checks: a board reads back from its text; the answer within the node limit is a sequence
/// of knight jumps into the blank that ends on the target, at most 15 moves.
pub fn knights(data: &[u8]) {
    let text = text(data);
    let Some(boards) = accepted(swap::parse_cases(&text)) else {
        return;
    };
    for board in boards.iter().take(3) {
        assert_eq!(board.to_string().parse::<swap::Board>().as_ref(), Ok(board), "round trip");
        let answer = swap::solve(board, swap::MAX_MOVES, &Budget::new().max_nodes(5_000));
        if let Some(moves) = &answer.moves {
            assert!(moves.len() <= swap::MAX_MOVES as usize);
            let mut at = *board;
            for &square in moves {
                let (b, s) = (at.blank(), usize::from(square));
                let (dr, dc) = ((b / 5).abs_diff(s / 5), (b % 5).abs_diff(s % 5));
                assert!((dr, dc) == (1, 2) || (dr, dc) == (2, 1), "not a knight's jump");
                at = at.jump(s);
            }
            assert_eq!(at, swap::Board::target(), "the moves end on the target");
        }
    }
}

/// Chessboard domination (`dancecard dominate --marks`) and guarding (`dancecard guard`):
/// [`dominate::parse_marks`] and [`dominate::parse_guard_cases`].
///
/// The first byte selects: bit 0 clear, a board of marks, with the piece `b / 2 % 5`; set,
/// guard cases (queens). Checks: the marks fill the board; a minimum found under the node
/// limit is a placement of that many pieces that guards every marked square.
pub fn dominate(data: &[u8]) {
    let (selector, rest) = split(data);
    let text = text(rest);
    let pieces = [Piece::Queen, Piece::King, Piece::Rook, Piece::Bishop, Piece::Knight];
    let parsed = if selector & 1 == 0 {
        let piece = pieces[usize::from(selector / 2) % 5];
        accepted(dominate::parse_marks(&text)).map(|marks| (vec![marks], piece))
    } else {
        accepted(dominate::parse_guard_cases(&text)).map(|cases| (cases, Piece::Queen))
    };
    let Some((cases, piece)) = parsed else {
        return;
    };
    for marks in cases.iter().take(2) {
        let board = dominate::Board::of_marks(marks);
        let (rows, cols) = (board.rows, board.cols);
        assert_eq!(marks.2.len(), rows * cols, "the marks fill the board");
        assert!((1..=dominate::MAX_SIDE).contains(&rows) && cols <= dominate::MAX_SIDE);
        // Building the options of a 64 x 64 board of queens alone takes a million entries.
        if rows * cols > 1_024 {
            continue;
        }
        // A node of the repeat cover search computes a lower bound over every item.
        let limits = Budget::new().max_nodes(300);
        let result = match dominate::dominate(piece, board, &limits) {
            Ok(result) => result,
            Err(e) => panic!("dominate refuses parsed marks: {e}"),
        };
        if let Some(minimum) = result.minimum {
            assert_eq!(result.placement.len(), minimum);
            assert!(dominate::check(piece, board, &result.placement));
            let drawn = dominate::draw(piece, board, &result.placement);
            assert_eq!(drawn.lines().count(), rows);
        } else {
            assert!(result.placement.is_empty());
        }
    }
}

/// The no-two-adjacent grid pick (`dancecard grid-pick`): [`pick::parse_cases`].
///
/// Checks: small grids get the brute-force answer; others within a work bound are answered
/// without error once oriented.
pub fn grid_pick(data: &[u8]) {
    let text = text(data);
    let Some(cases) = accepted(pick::parse_cases(&text)) else {
        return;
    };
    for grid in cases.iter().take(4) {
        let rows = grid.len();
        let cols = grid.first().map_or(0, Vec::len);
        assert!(grid.iter().all(|r| r.len() == cols), "a ragged grid parsed");
        let width = rows.min(cols);
        // The dynamic program does about `rows * width * 2^width` steps.
        if rows.max(cols).saturating_mul(width << width) > 1_000_000 {
            continue;
        }
        let best = pick::max_weight(grid).unwrap_or_else(|e| panic!("max_weight: {e}"));
        if rows * cols <= 16 {
            assert_eq!(best, brute_pick(grid), "max_weight differs from brute force");
        }
    }
}

/// The best no-two-8-adjacent selection, by trying every subset.
fn brute_pick(grid: &[Vec<u64>]) -> u128 {
    let rows = grid.len();
    let cols = grid.first().map_or(0, Vec::len);
    let cells = rows * cols;
    let mut best = 0;
    for mask in 0u32..1 << cells {
        let chosen = |k: usize| mask >> k & 1 == 1;
        let clash = (0..cells).filter(|&a| chosen(a)).any(|a| {
            (a + 1..cells)
                .filter(|&b| chosen(b))
                .any(|b| (a / cols).abs_diff(b / cols) <= 1 && (a % cols).abs_diff(b % cols) <= 1)
        });
        if !clash {
            let sum =
                (0..cells).filter(|&k| chosen(k)).map(|k| u128::from(grid[k / cols][k % cols]));
            best = best.max(sum.sum());
        }
    }
    best
}

/// The subset count (`dancecard subset-count`): [`sums::parse`].
///
/// Checks: the count is that of brute force for up to 12 prices, and every count is between
/// 1 (the empty subset) and `2^n`.
pub fn subset(data: &[u8]) {
    let text = text(data);
    let Some((prices, budget)) = accepted(sums::parse(&text)) else {
        return;
    };
    assert!(prices.len() <= sums::MAX_ITEMS);
    if prices.len() > 24 {
        return;
    }
    let count = sums::count_within(&prices, budget).unwrap_or_else(|e| panic!("count: {e}"));
    assert!(count >= 1 && count <= 1 << prices.len(), "{count} subsets of {}", prices.len());
    if prices.len() <= 12 {
        let brute = (0u32..1 << prices.len())
            .filter(|mask| {
                let total: u128 = (0..prices.len())
                    .filter(|&i| mask >> i & 1 == 1)
                    .map(|i| u128::from(prices[i]))
                    .sum();
                total <= u128::from(budget)
            })
            .count() as u64;
        assert_eq!(count, brute, "count_within differs from brute force");
    }
}

/// Egyptian fractions (`dancecard egyptian A B`): two numbers, and optionally the most terms
/// and the largest denominator, as the command reads them.
///
/// Checks: an answer found under the node limit has increasing denominators within the
/// bounds, summing exactly to A/B.
pub fn egyptian(data: &[u8]) {
    let text = text(data);
    let words: Vec<&str> = text.split_whitespace().collect();
    let number = |k: usize| words.get(k).and_then(|w| w.parse::<u128>().ok());
    let (Some(a), Some(b)) = (number(0), number(1)) else { return };
    let max_terms = number(2).map_or(12, |t| (t % 16) as usize);
    let max_denominator = number(3).unwrap_or(u128::MAX);
    let options =
        egypt::Options { max_terms, max_denominator, limits: Budget::new().max_nodes(5_000) };
    match egypt::solve(a, b, &options) {
        Ok(answer) => {
            let d = &answer.denominators;
            assert!(!d.is_empty() && d.len() <= max_terms, "{} terms", d.len());
            assert!(d.windows(2).all(|w| w[0] < w[1]), "increasing: {d:?}");
            assert!(d.iter().all(|&x| x >= 1 && x <= max_denominator), "within bounds: {d:?}");
            if let Some(sum) = sum_of_units(d) {
                // p/q == a/b  <=>  p * b == a * q (compared without overflow by reducing).
                assert!(same_fraction(sum, (a, b)), "{d:?} does not sum to {a}/{b}");
            }
        }
        Err(e) => {
            if let egypt::EgyptianError::Stopped { stop, .. } = &e {
                assert_eq!(*stop, Stop::NodeLimit, "stopped for another reason");
            }
            assert!(!e.to_string().is_empty());
        }
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The sum of `1/x` over `d` as a reduced fraction, or `None` past 128 bits.
fn sum_of_units(d: &[u128]) -> Option<(u128, u128)> {
    let (mut p, mut q) = (0u128, 1u128);
    for &x in d {
        // p/q + 1/x = (p x + q) / (q x)
        let g = gcd(q, x);
        let (q1, x1) = (q / g, x / g);
        p = p.checked_mul(x1)?.checked_add(q1)?;
        q = q.checked_mul(x1)?;
        let h = gcd(p, q);
        (p, q) = (p / h, q / h);
    }
    Some((p, q))
}

/// Whether two fractions are equal (the first reduced, the second any).
fn same_fraction((p, q): (u128, u128), (a, b): (u128, u128)) -> bool {
    let g = gcd(a, b);
    (p, q) == (a / g, b / g)
}
