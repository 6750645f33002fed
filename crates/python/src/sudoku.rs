//! Sudoku from Python: the native half of `dancecard.sudoku` (the Python module
//! `dancecard/sudoku.py` converts puzzles and answers).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use dancecard_models::sudoku::{search, Error, Grid, Method, Options, Shape, Stop};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::interrupt::{run_interruptible, value_error};

/// Reads a puzzle: one line of symbols (`.` or `0` for blanks), or rows of whitespace-separated
/// numbers, told apart as `dancecard sudoku` does; then checks that no given clashes.
fn parse(puzzle: &str, shape: Option<Shape>) -> Result<Grid, Error> {
    let first = puzzle.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#'));
    let numbers = first.is_some_and(|l| {
        let tokens: Vec<&str> = l.split_whitespace().collect();
        tokens.len() > 1 && tokens.iter().all(|t| t.chars().count() <= 2)
    });
    let grid = if numbers {
        Grid::parse_numbers(puzzle, shape)?
    } else {
        Grid::parse_line(first.unwrap_or(""), shape)?
    };
    grid.check()?;
    Ok(grid)
}

/// The parser's message, with the command line's advice put in Python's terms.
fn message(e: &Error) -> String {
    e.to_string()
        .replace("use --box for rectangular boxes", "pass box=\"RxC\" for rectangular boxes")
}

/// Solves or counts a sudoku.
///
/// Returns `(solutions, first solution's values row by row or None, side, exact)`, where
/// `exact` is false when the count was cut short.
#[pyfunction]
#[pyo3(signature = (puzzle, limit = None, method = "fast", box_shape = None))]
pub(crate) fn sudoku_search(
    py: Python<'_>,
    puzzle: &str,
    limit: Option<u64>,
    method: &str,
    box_shape: Option<&str>,
) -> PyResult<(u64, Option<Vec<u32>>, usize, bool)> {
    let method = match method {
        "fast" => Method::Fast,
        "dlx" => Method::Dlx,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown method {method:?}: expected \"fast\" or \"dlx\""
            )))
        }
    };
    let shape =
        box_shape.map(str::parse::<Shape>).transpose().map_err(|e| value_error(message(&e)))?;
    let grid = parse(puzzle, shape).map_err(|e| value_error(message(&e)))?;
    let cancel = Arc::new(AtomicBool::new(false));
    let mut options = Options::new(method).cancel(cancel.clone());
    options.limit = limit;
    // Up to two solutions of a 9x9 grid take microseconds to milliseconds: not worth a thread.
    let short = grid.shape() == Shape::CLASSIC && limit.is_some_and(|l| l <= 2);
    let report = if short {
        py.allow_threads(|| search(&grid, &options))
    } else {
        run_interruptible(py, &cancel, || search(&grid, &options))?
    };
    let exact = matches!(report.stop, Stop::Exhausted | Stop::SolutionLimit);
    let values = report.solution.map(|g| g.values().iter().map(|&v| u32::from(v)).collect());
    Ok((report.solutions, values, grid.side(), exact))
}
