//! Sudoku lines and grids of any box shape.

use dancecard_models::sudoku::{self, parse_puzzles, Grid, Method, Options, Shape, Stop};

use crate::{accepted, split, text};

/// Puzzles solved per input (the others are only parsed and round-tripped).
const SOLVED: usize = 2;

/// [`parse_puzzles`], with or without a box shape (`dancecard sudoku --box RxC`).
///
/// The first byte selects the shape: bit 0 clear, none (the length decides); set, rows
/// `1 + (b >> 1) % 8` by columns `1 + (b >> 4) % 8` (sides past 32 are refused with an
/// error). The rest is the text.
///
/// Checks: a parsed puzzle has the shape asked for and no clashing givens, and reads back
/// unchanged from its line form and from its rows of numbers; the first few are solved by
/// both methods (and the 9x9 band solver) under a node limit: every solution is a completion
/// of the puzzle, and when both searches are exact they count the same (up to 2).
pub fn sudoku(data: &[u8]) {
    let (selector, rest) = split(data);
    let shape = if selector & 1 == 0 {
        None
    } else {
        let rows = 1 + usize::from(selector >> 1) % 8;
        let cols = 1 + usize::from(selector >> 4) % 8;
        match Shape::new(rows, cols) {
            Ok(shape) => {
                assert_eq!(shape.to_string().parse::<Shape>(), Ok(shape), "shape round trip");
                Some(shape)
            }
            Err(e) => {
                assert!(rows * cols > Shape::MAX_SIDE, "a valid shape refused: {e}");
                return;
            }
        }
    };
    let text = text(rest);
    let lines = text.lines().count();
    let mut solved = 0;
    for entry in parse_puzzles(&text, shape) {
        let Some(puzzle) = accepted(entry) else {
            continue;
        };
        assert!(puzzle.line >= 1 && puzzle.line <= lines, "puzzle line {}", puzzle.line);
        let grid = &puzzle.grid;
        if let Some(shape) = shape {
            assert_eq!(grid.shape(), shape, "the shape asked for");
        }
        assert_eq!(grid.values().len(), grid.shape().cells());
        assert!(grid.values().iter().all(|&v| usize::from(v) <= grid.side()));
        grid.check().unwrap_or_else(|e| panic!("parse_puzzles let a clash through: {e}"));
        let line = grid.to_string();
        let back = Grid::parse_line(&line, Some(grid.shape()))
            .unwrap_or_else(|e| panic!("the line form does not parse: {e}: {line}"));
        assert_eq!(&back, grid, "line round trip");
        let rows = grid.to_number_rows();
        let back = Grid::parse_numbers(&rows, Some(grid.shape()))
            .unwrap_or_else(|e| panic!("the number rows do not parse: {e}:\n{rows}"));
        assert_eq!(&back, grid, "number rows round trip");
        if solved < SOLVED {
            solved += 1;
            solve(grid);
        }
    }
}

/// Solves `grid` by both methods under node limits and checks what they agree on.
fn solve(grid: &Grid) {
    let side = grid.side();
    // Nodes cost more on larger grids (and the fuzz build checks the arena at every node
    // of the DLX search): keep every search in the milliseconds.
    let (fast_nodes, dlx_nodes) = match side {
        0..=6 => (1_000, 1_000),
        7..=9 => (1_000, 250),
        _ => (200, 50),
    };
    let fast = sudoku::search(grid, &Options::new(Method::Fast).limit(2).max_nodes(fast_nodes));
    let dlx = sudoku::search(grid, &Options::new(Method::Dlx).limit(2).max_nodes(dlx_nodes));
    let mut reports = vec![("fast", fast), ("dlx", dlx)];
    if grid.shape() == Shape::CLASSIC {
        let options = Options::new(Method::Fast).limit(2).max_nodes(fast_nodes);
        let mut solver = sudoku::Solver::new();
        reports.push(("band", solver.search(grid, &options)));
        // A reused solver gives the same answer.
        reports.push(("band again", solver.search(grid, &options)));
    }
    for (name, report) in &reports {
        assert!(report.solutions <= 2, "{name}: more solutions than the limit");
        if let Some(solution) = &report.solution {
            assert!(solution.is_solution_of(grid), "{name}: {solution} does not solve {grid}");
        }
        assert_eq!(report.solution.is_some(), report.solutions > 0, "{name}: a solution shown");
        if report.stop == Stop::Exhausted {
            assert!(report.solutions < 2, "{name}: exhausted past the limit");
        }
    }
    let exact: Vec<&(&str, sudoku::Report)> = reports.iter().filter(|r| r.1.is_exact()).collect();
    for pair in exact.windows(2) {
        let ((a, ra), (b, rb)) = (pair[0], pair[1]);
        assert_eq!(ra.solutions, rb.solutions, "{a} and {b} count differently on {grid}");
    }
}
