//! Ground truth from `testdata/sudoku` (see its README), and agreement of the two methods.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::*;
use crate::Model;

const TDOKU: &str = include_str!("../../../../testdata/sudoku/tdoku_test_puzzles");
const EASY: &str = include_str!("../../../../testdata/sudoku/emerentius_lines/easy_sudokus.txt");
const EASY_SOLVED: &str =
    include_str!("../../../../testdata/sudoku/emerentius_lines/solved_easy_sudokus.txt");
const MEDIUM: &str =
    include_str!("../../../../testdata/sudoku/emerentius_lines/medium_sudokus.txt");
const MEDIUM_SOLVED: &str =
    include_str!("../../../../testdata/sudoku/emerentius_lines/solved_medium_sudokus.txt");
const HARD: &str = include_str!("../../../../testdata/sudoku/emerentius_lines/hard_sudokus.txt");
const HARD_SOLVED: &str =
    include_str!("../../../../testdata/sudoku/emerentius_lines/solved_hard_sudokus.txt");
const INVALID: &str =
    include_str!("../../../../testdata/sudoku/emerentius_lines/invalid_sudokus.txt");
const NORVIG: &str = include_str!("../../../../testdata/sudoku/norvig_top95.txt");
const HARDEST_1106: &str = include_str!("../../../../testdata/sudoku/puzzles6_forum_hardest_1106");

fn grids(text: &str) -> Vec<Grid> {
    parse_puzzles(text, None).into_iter().map(|p| p.expect("valid puzzle").grid).collect()
}

/// Counts with both methods, checks they agree and that every solution is valid.
fn count_both(grid: &Grid, limit: Option<u64>) -> u64 {
    let fast = grid.count(Method::Fast, limit);
    let dlx = grid.count(Method::Dlx, limit);
    assert_eq!(fast.solutions, dlx.solutions, "{grid}");
    assert!(fast.is_exact() && dlx.is_exact());
    for s in [&fast.solution, &dlx.solution].into_iter().flatten() {
        assert!(s.is_solution_of(grid), "{s} does not solve {grid}");
    }
    assert_eq!(fast.solution.is_some(), fast.solutions > 0);
    fast.solutions
}

#[test]
fn tdoku_test_puzzles_counts() {
    let mut kinds = [0; 3];
    for line in TDOKU.lines().filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let mut fields = line.split(':');
        let grid = Grid::parse_line(fields.next().unwrap(), None).unwrap();
        let expected: u64 = fields.next().unwrap().parse().unwrap();
        assert_eq!(count_both(&grid, None), expected, "{line}");
        kinds[expected.min(2) as usize] += 1;
        if expected == 1 {
            let solution = Grid::parse_line(fields.next().unwrap(), None).unwrap();
            assert_eq!(grid.solve(Method::Fast).solution, Some(solution.clone()));
            assert_eq!(grid.solve(Method::Dlx).solution, Some(solution));
        }
        let expected_uniqueness = match expected {
            0 => Uniqueness::None,
            1 => Uniqueness::Unique,
            _ => Uniqueness::Multiple,
        };
        assert_eq!(grid.uniqueness(Method::Fast), expected_uniqueness);
        assert_eq!(grid.uniqueness(Method::Dlx), expected_uniqueness);
    }
    assert_eq!(kinds, [10, 18, 15]);
}

#[test]
fn whole_tdoku_lines_parse_to_their_puzzles() {
    // `parse_puzzles` reads tdoku's `puzzle:count:solution` lines as they are.
    let puzzles = parse_puzzles(TDOKU, None);
    let lines: Vec<&str> = TDOKU.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    assert_eq!(puzzles.len(), lines.len());
    for (p, line) in puzzles.iter().zip(lines) {
        let p = p.as_ref().expect("a valid puzzle");
        assert_eq!(p.grid.to_string(), line.split(':').next().unwrap(), "{line}");
    }
    // A bad symbol before the ':' is still reported at its column.
    let err = Grid::parse_line(&format!("{}*:1", ".".repeat(80)), None).unwrap_err();
    assert!(err.to_string().contains("column 81"), "{err}");
}

#[test]
fn emerentius_solutions() {
    for (puzzles, solved) in [(EASY, EASY_SOLVED), (MEDIUM, MEDIUM_SOLVED), (HARD, HARD_SOLVED)] {
        let puzzles = grids(puzzles);
        let solved = grids(solved);
        assert_eq!(puzzles.len(), solved.len());
        for (p, s) in puzzles.iter().zip(&solved) {
            assert_eq!(count_both(p, None), 1);
            assert_eq!(p.solve(Method::Fast).solution.as_ref(), Some(s));
            assert_eq!(p.solve(Method::Dlx).solution.as_ref(), Some(s));
        }
    }
}

#[test]
fn emerentius_invalid_all_rejected() {
    let results = parse_puzzles(INVALID, None);
    assert_eq!(results.len(), 7);
    let mut clashes = 0;
    for r in results {
        match r {
            Err(Error::Clash { .. }) => clashes += 1,
            Err(e) => panic!("unexpected error {e}"),
            Ok(p) => assert_eq!(count_both(&p.grid, None), 0, "{}", p.grid),
        }
    }
    assert_eq!(clashes, 3);
}

#[test]
fn methods_agree_on_hard_sets() {
    for grid in grids(NORVIG).iter().chain(grids(HARDEST_1106).iter().step_by(5)) {
        assert_eq!(count_both(grid, Some(2)), 1, "{grid}");
    }
}

#[test]
fn reused_solver_matches_search() {
    let mut solver = Solver::new();
    for grid in grids(HARDEST_1106).iter().take(40) {
        let options = Options::new(Method::Fast).limit(2);
        let a = solver.search(grid, &options);
        let b = search(grid, &options);
        assert_eq!((a.solutions, a.solution, a.nodes), (b.solutions, b.solution, b.nodes));
    }
}

#[test]
fn generated_16x16_and_25x25_unique() {
    for (n, blanks, seeds) in [(4, 150, 0..6), (5, 300, 0..2)] {
        let shape = Shape::square(n).unwrap();
        for seed in seeds {
            let g = generate(shape, seed, blanks);
            assert!(g.solution.is_full() && g.solution.check().is_ok());
            assert!(g.solution.is_solution_of(&g.puzzle));
            assert!(g.puzzle.givens() + blanks >= shape.cells() - 10, "{}", g.puzzle);
            assert_eq!(count_both(&g.puzzle, Some(2)), 1);
            assert_eq!(g.puzzle.solve(Method::Fast).solution, Some(g.solution.clone()));
            assert_eq!(g.puzzle.solve(Method::Dlx).solution, Some(g.solution.clone()));
            // Deterministic.
            assert_eq!(generate(shape, seed, blanks), g);
        }
    }
}

#[test]
fn rectangular_boxes() {
    for (r, c, blanks) in [(2, 3, 22), (3, 2, 20), (3, 4, 80), (2, 4, 36), (2, 2, 12)] {
        let shape = Shape::new(r, c).unwrap();
        let g = generate(shape, 42, blanks);
        assert_eq!(count_both(&g.puzzle, None), 1, "{shape} {}", g.puzzle);
        let line = g.puzzle.to_string();
        let back = parse_puzzles(&line, Some(shape)).pop().unwrap().unwrap();
        assert_eq!(back.grid, g.puzzle);
    }
    // The empty 4x4 grid has 288 solutions; 2x3 boxes with one full row fixed: 28200960 / 720.
    let empty = Grid::empty(Shape::square(2).unwrap());
    assert_eq!(count_both(&empty, None), 288);
    let mut six = Grid::empty(Shape::new(2, 3).unwrap());
    for c in 0..6 {
        six.set(0, c, c as u8 + 1);
    }
    assert_eq!(count_both(&six, None), 28_200_960 / 720);
}

#[test]
fn parsing_lines() {
    let g = Grid::parse_line("1234341221434321 trailing text", None).unwrap();
    assert_eq!(g.shape(), Shape::square(2).unwrap());
    assert!(g.is_full() && g.check().is_ok());
    assert_eq!(g.to_string(), "1234341221434321");
    let g = Grid::parse_line(&format!("G{}", "0".repeat(255)), None).unwrap();
    assert_eq!(g.get(0, 0), 16);
    assert_eq!(Grid::parse_line(&format!("g{}", ".".repeat(255)), None).unwrap().get(0, 0), 16);
    assert_eq!(
        Grid::parse_line("12345", None),
        Err(Error::Length {
            line: 1,
            found: 5,
            expected: "16, 81, 256 or 625 (use --box for rectangular boxes)".into()
        })
    );
    let e = Grid::parse_line("123.5...........", None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 1, column 5: bad symbol `5` for a 4x4 grid (blanks are `.` or `0`, values 1 to 4 are written 1-4)"
    );
    let e = Grid::parse_line(&format!("{}x", ".".repeat(80)), None).unwrap_err();
    assert!(matches!(e, Error::BadSymbol { column: 81, .. }), "{e}");
    let e = Grid::parse_line(&"é".repeat(16), None).unwrap_err();
    assert!(matches!(e, Error::BadSymbol { column: 1, .. }), "{e}");
    let e = parse_puzzles("# comment\n\n11..............\n", None).pop().unwrap().unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 3: value 1 is given twice in row 1: at row 1, column 1 and at row 1, column 2"
    );
    let e = Grid::parse_line(&".".repeat(36), Some(Shape::CLASSIC)).unwrap_err();
    assert!(e.to_string().contains("36 cells, expected 81 (9x9 grid, boxes 3x3)"), "{e}");
    let e = parse_puzzles("1...\n..1.\n....\n....", Some("2x2".parse().unwrap()));
    assert_eq!(e.len(), 4);
    // One symbol is not a grid unless the shape says 1x1.
    assert!(matches!(Grid::parse_line("1", None), Err(Error::Length { found: 1, .. })));
    let one = Grid::parse_line(".", Some(Shape::new(1, 1).unwrap())).unwrap();
    assert_eq!(count_both(&one, None), 1);
}

#[test]
fn parsing_shapes() {
    assert_eq!("2x3".parse::<Shape>().unwrap(), Shape::new(2, 3).unwrap());
    assert_eq!("3X4".parse::<Shape>().unwrap().side(), 12);
    assert!(matches!("3".parse::<Shape>(), Err(Error::BadShapeText { .. })));
    assert!(matches!("0x3".parse::<Shape>(), Err(Error::BadShape { .. })));
    assert!(matches!("6x6".parse::<Shape>(), Err(Error::BadShape { .. })));
    assert_eq!(Shape::new(3, 4).unwrap().to_string(), "3x4");
}

#[test]
fn parsing_number_grids() {
    let text =
        "# a 4x4 grid\n1 0 0 0\n0 0 . 0\n0 0 0 2\n0 3 0 0\n\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 4\n";
    let puzzles = parse_puzzles(text, None);
    assert_eq!(puzzles.len(), 2);
    let first = puzzles[0].as_ref().unwrap();
    assert_eq!((first.line, first.grid.to_string()), (2, "1..........2.3..".to_owned()));
    assert_eq!(puzzles[1].as_ref().unwrap().line, 7);
    assert_eq!(Grid::parse_numbers(text, None).unwrap(), first.grid);
    let e = parse_puzzles("1 0 0 0\n0 0 0\n", None).pop().unwrap().unwrap_err();
    assert_eq!(e, Error::RowLength { line: 2, found: 3, expected: 4 });
    let e = parse_puzzles("1 0 0 0\n0 0 0 7\n", None).pop().unwrap().unwrap_err();
    assert!(matches!(e, Error::BadSymbol { line: 2, column: 7, .. }), "{e}");
    let e = parse_puzzles("1 0 0 0\n0 0 0 1\n", None).pop().unwrap().unwrap_err();
    assert_eq!(e, Error::MissingRows { line: 1, found: 2, expected: 4 });
    let twelve = "1 2 3 4 5 6 7 8 9 10 11 12\n".repeat(12);
    let e = parse_puzzles(&twelve, None).pop().unwrap().unwrap_err();
    assert!(matches!(e, Error::RowLength { .. }));
    let e = parse_puzzles(&twelve, Some("3x4".parse().unwrap())).pop().unwrap().unwrap_err();
    assert!(matches!(e, Error::Clash { .. }), "{e}");
}

#[test]
fn dlx_model_shape() {
    let empty = Grid::empty(Shape::CLASSIC);
    let problem = SudokuModel::new(&empty).problem();
    assert_eq!((problem.item_count(), problem.option_count()), (324, 729));
    let grid = grids(EASY).remove(0);
    let model = SudokuModel::new(&grid);
    let problem = model.problem();
    assert_eq!(problem.item_count(), 4 * (81 - grid.givens()));
    let (r, c, v) = model.option_meaning(dancecard_engine::OptionId::new(0).unwrap());
    assert_eq!(grid.get(r, c), 0);
    assert!(v >= 1);
    // Clashing givens: a problem without solutions.
    let clash = Grid::parse_line("11..............", None).unwrap();
    let problem = SudokuModel::new(&clash).problem();
    assert!(problem.find_item("clash").is_some());
    assert_eq!(count_both(&clash, None), 0);
}

#[test]
fn limits_and_cancel() {
    let empty = Grid::empty(Shape::CLASSIC);
    for method in [Method::Fast, Method::Dlx] {
        let r = empty.count(method, Some(5));
        assert_eq!((r.solutions, r.stop), (5, Stop::SolutionLimit));
        let r = search(&empty, &Options::new(method).max_nodes(10));
        assert_eq!(r.stop, Stop::NodeLimit);
        assert!(!r.is_exact());
        let flag = Arc::new(AtomicBool::new(true));
        let r = search(&empty, &Options::new(method).cancel(flag));
        assert_eq!(r.stop, Stop::Cancelled);
        let r = empty.count(method, Some(0));
        assert_eq!((r.solutions, r.stop), (0, Stop::SolutionLimit));
    }
    let sixteen = Grid::empty(Shape::square(4).unwrap());
    let r = search(&sixteen, &Options::new(Method::Fast).limit(3));
    assert_eq!(r.solutions, 3);
    assert!(r.solution.unwrap().check().is_ok());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

    /// The fast 9x9 solver and the DLX model count the same solutions (up to a limit) on
    /// random puzzles: generated ones or forum_hardest_1106 ones, with extra blanks (several
    /// solutions) and sometimes a changed cell (often no solution, or clashing givens).
    #[test]
    fn fast_counts_match_dlx_on_random_puzzles(
        seed in proptest::prelude::any::<u64>(),
        hard in proptest::option::of(0usize..375),
        extra in proptest::collection::vec(0usize..81, 0..10),
        change in proptest::option::of((0usize..81, 1u8..=9)),
        limit in 1u64..40,
    ) {
        let mut grid = match hard {
            Some(i) => grids(HARDEST_1106).swap_remove(i),
            None => generate(Shape::CLASSIC, seed, 64).puzzle,
        };
        for cell in extra {
            grid.set(cell / 9, cell % 9, 0);
        }
        if let Some((cell, v)) = change {
            grid.set(cell / 9, cell % 9, v);
        }
        let fast = grid.count(Method::Fast, Some(limit));
        let dlx = grid.count(Method::Dlx, Some(limit));
        proptest::prop_assert_eq!(fast.solutions, dlx.solutions, "{}", grid);
        proptest::prop_assert!(fast.is_exact() && dlx.is_exact());
        proptest::prop_assert_eq!(fast.solution.is_some(), fast.solutions > 0);
        if let Some(s) = &fast.solution {
            proptest::prop_assert!(s.is_solution_of(&grid), "{} does not solve {}", s, grid);
        }
        let mut solver = Solver::new();
        let reused = solver.search(&grid, &Options::new(Method::Fast).limit(limit));
        proptest::prop_assert_eq!(reused.solutions, fast.solutions);
    }
}

/// `skip_timing` leaves `micros` 0 (and changes nothing else); without it, a search of many
/// nodes reports its time.
#[test]
fn skip_timing() {
    let empty = Grid::parse_line(&".".repeat(81), None).unwrap();
    let mut solver = Solver::new();
    for method in [Method::Fast, Method::Dlx] {
        let options = Options::new(method).max_nodes(20_000);
        let timed = solver.search(&empty, &options);
        assert!(timed.micros > 0, "{method:?}");
        for untimed in [
            solver.search(&empty, &options.clone().skip_timing()),
            search(&empty, &options.clone().skip_timing()),
        ] {
            assert_eq!(untimed.micros, 0, "{method:?}");
            assert_eq!(Report { micros: timed.micros, ..untimed }, timed, "{method:?}");
        }
    }
}

#[test]
fn search_all_is_search_in_order_and_stops_at_the_cancel() {
    let puzzles = grids(NORVIG);
    let refs: Vec<&Grid> = puzzles.iter().cycle().take(BATCH + 100).collect();
    for method in [Method::Fast, Method::Dlx] {
        let options = Options::new(method).limit(2).skip_timing();
        let alone: Vec<u64> = refs.iter().map(|g| search(g, &options).solutions).collect();
        for threads in [1, 2] {
            let mut seen = Vec::new();
            let reports = search_all(&refs, &options, threads, &mut |d| seen.push(d));
            let counts: Vec<u64> = reports.iter().map(|r| r.as_ref().unwrap().solutions).collect();
            assert_eq!(counts, alone, "{method:?} on {threads} threads");
            assert_eq!(seen, [BATCH, BATCH + 100]);
        }
    }
    let flag = Arc::new(AtomicBool::new(true));
    let options = Options::new(Method::Fast).cancel(flag);
    let reports = search_all(&refs, &options, 2, &mut |_| panic!("no batch runs"));
    assert_eq!(reports.len(), refs.len());
    assert!(reports.iter().all(Option::is_none));
}

#[test]
fn search_all_keeps_the_puzzles_before_a_cancel_and_drops_the_rest() {
    let puzzles = grids(NORVIG);
    let refs: Vec<&Grid> = puzzles.iter().cycle().take(2 * BATCH + 1).collect();
    let flag = Arc::new(AtomicBool::new(false));
    let options = Options::new(Method::Fast).cancel(flag.clone());
    // Raised after the first batch: the second never starts.
    let reports = search_all(&refs, &options, 1, &mut |_| {
        flag.store(true, std::sync::atomic::Ordering::Relaxed)
    });
    assert_eq!(reports.len(), refs.len());
    assert!(reports[..BATCH].iter().all(|r| r.as_ref().is_some_and(Report::is_exact)));
    assert!(reports[BATCH..].iter().all(Option::is_none));
}
