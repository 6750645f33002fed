//! Sudoku from Python: the native half of `dancecard.sudoku` (the Python module
//! `dancecard/sudoku.py` converts puzzles and answers).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use dancecard_models::sudoku::{search, Error, Grid, Method, Options, Shape, Stop};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::args;
use crate::interrupt::run_interruptible;

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

/// A puzzle as argument `puzzle` gives it: text, or rows of ints written as a text grid of
/// numbers (one row a line).
#[derive(Debug)]
pub(crate) enum Puzzle {
    /// A line of symbols or a text grid of numbers, told apart as `dancecard sudoku` does.
    Text(String),
    /// Rows of ints, as a text grid of numbers.
    Rows(String),
}

/// Reads argument `puzzle`: a str, or rows of ints (0 for a blank).
fn read_puzzle(obj: &Bound<'_, PyAny>) -> PyResult<Puzzle> {
    if let Ok(text) = obj.downcast::<PyString>() {
        return Ok(Puzzle::Text(args::str_of(text, "puzzle", &args::WHOLE)?.into_owned()));
    }
    let mut text = String::new();
    let rows = args::items(obj, &args::WHOLE, "a str, or rows of ints")?;
    for (r, row) in rows.enumerate() {
        let row = row?;
        let cells = args::items(&row, &args::Index::one("puzzle", r), "a row of ints")?;
        for (c, v) in cells.enumerate() {
            let at = args::Index::two("puzzle", r, c);
            let v = args::usize_in(&v?, "puzzle", &at, 0, Shape::MAX_SIDE)?;
            if c > 0 {
                text.push(' ');
            }
            text.push_str(&v.to_string());
        }
        text.push('\n');
    }
    if text.is_empty() {
        return Err(args::invalid("puzzle", "expected a str or rows of ints, got no rows"));
    }
    Ok(Puzzle::Rows(text))
}

/// Reads argument `method`.
fn read_method(obj: &Bound<'_, PyAny>) -> PyResult<&'static str> {
    args::choice(obj, "method", &["fast", "dlx"])
}

/// Reads argument `box` (in the body, see [`args::in_body`]): a box shape `"RxC"`, or `None`.
fn read_box(obj: &Bound<'_, PyAny>) -> PyResult<Option<Shape>> {
    if obj.is_none() {
        return Ok(None);
    }
    let text = obj
        .downcast::<PyString>()
        .map_err(|_| args::wrong_type(&args::WHOLE, "a box shape \"RxC\" or None", obj))?;
    let text = args::str_of(text, "box", &args::WHOLE)?;
    text.parse::<Shape>().map(Some).map_err(|e| args::invalid("box", message(&e)))
}

/// Reads argument `limit`.
fn read_limit(obj: &Bound<'_, PyAny>) -> PyResult<Option<u64>> {
    args::optional_u64(obj, "limit")
}

/// Solves or counts a sudoku: the engine of dancecard.sudoku's solve(), count() and
/// is_unique(), which give its answers their forms.
///
/// Arguments:
///     puzzle: a line of symbols, a text grid of numbers, or rows of ints from 0 (blank)
///         to 32 (see dancecard.sudoku).
///     limit: count up to this many solutions, an int from 0 to 2**64 - 1, or None.
///     method: "fast" (the dedicated solver) or "dlx" (the exact cover model).
///     box: the box shape "RxC", or None for square boxes.
///
/// Returns:
///     (solutions, values, side, exact): the number of solutions (at most limit), the
///     first one's values row by row (or None), the grid's side, and whether the search
///     ran to its end or to limit (false when it was stopped otherwise).
///
/// Raises:
///     ValueError: for a puzzle that cannot be read or whose givens clash, a bad box, an
///         unknown method or a limit out of range.
///     TypeError: for arguments of the wrong type.
///
/// Example:
///     >>> from dancecard import _native
///     >>> _native.sudoku_search("." * 16, 10)
///     (10, [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1], 4, True)
#[pyfunction]
// pyo3 shows the default of a raw identifier (`r#box`) as `...`: the text signature says it.
#[pyo3(
    signature = (puzzle, limit = None, method = "fast", r#box = None),
    text_signature = "(puzzle, limit=None, method=\"fast\", box=None)"
)]
pub(crate) fn sudoku_search(
    py: Python<'_>,
    #[pyo3(from_py_with = read_puzzle)] puzzle: Puzzle,
    #[pyo3(from_py_with = read_limit)] limit: Option<u64>,
    #[pyo3(from_py_with = read_method)] method: &str,
    // Read in the body: pyo3 would name a raw identifier `r#box` in its errors.
    r#box: Option<&Bound<'_, PyAny>>,
) -> PyResult<(u64, Option<Vec<u32>>, usize, bool)> {
    let shape = args::in_body(py, "box", r#box.map(read_box).transpose())?.flatten();
    let method = if method == "dlx" { Method::Dlx } else { Method::Fast };
    let grid = match &puzzle {
        Puzzle::Text(text) => parse(text, shape),
        Puzzle::Rows(text) => Grid::parse_numbers(text, shape).and_then(|g| g.check().map(|()| g)),
    };
    let grid = grid.map_err(|e| args::invalid("puzzle", message(&e)))?;
    let cancel = Arc::new(AtomicBool::new(false));
    let mut options = Options::new(method).cancel(cancel.clone());
    options.budget.max_solutions = limit.map(u128::from);
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
