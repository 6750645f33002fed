//! The puzzle models of `dancecard-models` from Python: N-queens, polyomino tilings and the
//! target sudoku (the Python modules `dancecard/queens.py` and `dancecard/__init__.py` wrap
//! them).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use dancecard_engine::{Config, OptionId};
use dancecard_models::queens::{self, CountOptions, Queens, QueensError, MAX_BITS_N};
use dancecard_models::target::{TargetLimits, TargetSudoku};
use dancecard_models::tiling::{
    named_set, parse_pieces, Board, Piece, Placement, Tiling, TilingAnswer, SET_NAMES,
};
use dancecard_models::Model;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::interrupt::{run_detached, run_interruptible, value_error};
use crate::problem::{PyProblem, PySolutions};

/// Counts the solutions of `n`-queens with the bit-set counter: `(total, distinct)`.
#[pyfunction]
#[pyo3(signature = (n, threads = 1))]
pub(crate) fn queens_count(py: Python<'_>, n: usize, threads: usize) -> PyResult<(u64, u64)> {
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    let threads = crate::interrupt::threads(threads)?;
    // The counter looks at the flag only between its tasks (the placements of the first two
    // queens), which take hours each on large boards: on Ctrl-C the task in progress is
    // left to finish alone.
    let count = run_detached(py, &cancel, move || {
        queens::count_with(n, &CountOptions { threads, cancel: Some(&flag), progress: None })
    })?
    .map_err(value_error)?;
    Ok((count.total, count.distinct))
}

/// The solutions of `n`-queens in lexicographic order, lazily: each the file of the queen on
/// each rank.
#[pyfunction]
pub(crate) fn queens_solutions(n: usize) -> PyResult<PySolutions> {
    if n == 0 || n > MAX_BITS_N {
        return Err(value_error(QueensError::Size { n, max: MAX_BITS_N }));
    }
    PySolutions::producer(None, move |emit| {
        let _ = queens::solutions(n, |p| emit(p.to_vec()));
    })
}

/// The exact cover model of `n`-queens (ranks and files primary, in organ-pipe order;
/// diagonals secondary); option `rank * n + file` is the queen on that square.
#[pyfunction]
pub(crate) fn queens_problem(n: usize) -> PyResult<PyProblem> {
    let queens = Queens::new(n).map_err(value_error)?;
    Ok(PyProblem::from_problem(queens.problem()))
}

/// A board from Python: `"RxC"`, ASCII art (`#` a cell, `.` none), or `(rows, cols)`.
fn board(obj: &Bound<'_, PyAny>) -> PyResult<Board> {
    if let Ok(text) = obj.downcast::<PyString>() {
        let text = text.to_cow()?;
        let art = text.contains('\n') || text.contains('#');
        return if art { Board::parse(&text) } else { Board::parse_size(&text) }
            .map_err(value_error);
    }
    if let Ok((rows, cols)) = obj.extract::<(usize, usize)>() {
        return Board::rectangle(rows, cols).map_err(value_error);
    }
    Err(PyTypeError::new_err(
        "board: expected \"RxC\", ASCII art (`#` a cell, `.` none) or (rows, cols)",
    ))
}

/// Pieces from Python: a set name, ASCII art, or a mapping from names to cells `[(r, c)...]`
/// or to ASCII art.
fn pieces(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Piece>> {
    if let Ok(text) = obj.downcast::<PyString>() {
        let text = text.to_cow()?;
        if let Some(set) = named_set(text.trim()) {
            return Ok(set);
        }
        if !text.contains('#') {
            return Err(PyValueError::new_err(format!(
                "unknown piece set `{}`: expected one of {} or pieces in ASCII art",
                text.trim(),
                SET_NAMES.join(", ")
            )));
        }
        return parse_pieces(&text).map_err(value_error);
    }
    let Ok(mapping) = obj.downcast::<PyDict>() else {
        return Err(PyTypeError::new_err(
            "pieces: expected a set name, ASCII art, or a dict of names to cells or art",
        ));
    };
    let mut out = Vec::new();
    for (name, shape) in mapping.iter() {
        let name: String = name
            .extract()
            .map_err(|_| PyTypeError::new_err("pieces: the names must be strings"))?;
        let cells: Vec<(usize, usize)> = if let Ok(art) = shape.downcast::<PyString>() {
            let parsed = parse_pieces(&art.to_cow()?).map_err(value_error)?;
            match parsed.as_slice() {
                [one] => one.cells().to_vec(),
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "piece {name}: the art must draw one piece"
                    )))
                }
            }
        } else {
            shape.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "piece {name}: expected ASCII art or a list of (row, column) cells"
                ))
            })?
        };
        out.push(Piece::new(&name, &cells).map_err(value_error)?);
    }
    Ok(out)
}

/// A placement as Python sees it: the piece's name and the cells it covers.
type NamedPlacement = (String, Vec<(usize, usize)>);

/// A polyomino tiling problem: `dancecard.Tiling`, made by `dancecard.tile`.
#[pyclass(frozen, module = "dancecard", name = "Tiling")]
#[derive(Debug)]
pub(crate) struct PyTiling {
    tiling: Arc<Tiling>,
    problem: Py<PyProblem>,
}

/// Builds the tiling of `board` by `pieces` (see `dancecard.tile`).
#[pyfunction]
#[pyo3(signature = (board, pieces, once = false, *, flips = true))]
pub(crate) fn tile(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    pieces: &Bound<'_, PyAny>,
    once: bool,
    flips: bool,
) -> PyResult<PyTiling> {
    let board = self::board(board)?;
    let pieces = self::pieces(pieces)?;
    let tiling = Tiling::builder(board, pieces).once(once).flips(flips).build();
    let tiling = tiling.map_err(value_error)?;
    let problem = Py::new(py, PyProblem::from_problem(tiling.exact_cover().clone()))?;
    Ok(PyTiling { tiling: Arc::new(tiling), problem })
}

impl PyTiling {
    fn answer(&self, solution: &[usize]) -> PyResult<TilingAnswer> {
        let placements = solution
            .iter()
            .map(|&k| {
                OptionId::new(k)
                    .and_then(|o| self.tiling.placement(o))
                    .cloned()
                    .ok_or_else(|| PyValueError::new_err(format!("no placement {k}")))
            })
            .collect::<PyResult<Vec<Placement>>>()?;
        Ok(TilingAnswer { placements })
    }
}

#[pymethods]
impl PyTiling {
    /// The exact cover problem (one option per placement).
    #[getter]
    fn problem(&self, py: Python<'_>) -> Py<PyProblem> {
        self.problem.clone_ref(py)
    }

    /// The pieces' names (equal pieces merged when copies are unlimited).
    #[getter]
    fn pieces(&self) -> Vec<String> {
        self.tiling.pieces().iter().map(|p| p.name().to_owned()).collect()
    }

    /// Whether every piece is used exactly once.
    #[getter]
    fn once(&self) -> bool {
        self.tiling.is_once()
    }

    /// The placements of a solution: `(piece name, [(row, column)...])` for each option.
    fn decode(&self, solution: Vec<usize>) -> PyResult<Vec<NamedPlacement>> {
        let answer = self.answer(&solution)?;
        let pieces = self.tiling.pieces();
        Ok(answer
            .placements
            .into_iter()
            .map(|p| (pieces[p.piece].name().to_owned(), p.cells))
            .collect())
    }

    /// A solution drawn as text, one letter per piece.
    fn render(&self, solution: Vec<usize>) -> PyResult<String> {
        Ok(self.tiling.render(&self.answer(&solution)?))
    }

    /// The number of tilings (`threads`: 0 for one per core).
    #[pyo3(signature = (threads = 1))]
    fn count(&self, py: Python<'_>, threads: usize) -> PyResult<u128> {
        self.problem.get().count(py, threads, "mrv", None, None)
    }

    /// Tilings up to the board's symmetries (each orbit counted once).
    fn count_distinct(&self, py: Python<'_>) -> PyResult<u128> {
        let cancel = Arc::new(AtomicBool::new(false));
        let config = Config { cancel: Some(cancel.clone()), ..Config::default() };
        let tiling = &*self.tiling;
        let counts = run_interruptible(py, &cancel, || tiling.count_distinct(config))?;
        if !counts.outcome.is_complete() {
            return Err(PyRuntimeError::new_err("the count was cut short"));
        }
        Ok(counts.distinct)
    }

    /// Counts by the profile dynamic program (full rectangles, unlimited copies only).
    fn count_dp(&self, py: Python<'_>) -> PyResult<u128> {
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = &*cancel;
        let tiling = &*self.tiling;
        run_interruptible(py, &cancel, || tiling.count_dp_with(Some(flag)))?.map_err(value_error)
    }

    /// The tilings, lazily, each as `decode` gives it.
    #[pyo3(signature = (limit = None))]
    fn solutions(slf: &Bound<'_, Self>, limit: Option<u128>) -> PyResult<PySolutions> {
        let decode = slf.getattr("decode")?.unbind();
        let this = slf.get();
        this.problem.get().solutions_mapped(limit, Some(decode))
    }

    fn __repr__(&self) -> String {
        let b = self.tiling.board();
        format!(
            "Tiling(board={}x{} with {} cells, pieces={}, once={}, placements={})",
            b.rows(),
            b.cols(),
            b.cell_count(),
            self.tiling.pieces().len(),
            if self.tiling.is_once() { "True" } else { "False" },
            self.tiling.exact_cover().option_count()
        )
    }
}

/// Solves a target sudoku: `(score, grid)` for a completion of maximum score, or `None`.
///
/// Ctrl-C stops the branch and bound and raises `KeyboardInterrupt`.
#[pyfunction]
pub(crate) fn target_sudoku(
    py: Python<'_>,
    grid: &Bound<'_, PyAny>,
) -> PyResult<Option<(i64, Vec<Vec<u32>>)>> {
    let puzzle = if let Ok(text) = grid.downcast::<PyString>() {
        TargetSudoku::parse(&text.to_cow()?).map_err(value_error)?
    } else {
        let rows: Vec<Vec<u8>> = grid
            .extract()
            .map_err(|_| PyTypeError::new_err("grid: expected text or 9 rows of 9 ints"))?;
        let mut cells = [[0u8; 9]; 9];
        if rows.len() != 9 || rows.iter().any(|r| r.len() != 9) {
            return Err(PyValueError::new_err("grid: expected 9 rows of 9 ints"));
        }
        for (r, row) in rows.iter().enumerate() {
            cells[r].copy_from_slice(row);
        }
        TargetSudoku::from_grid(cells).map_err(value_error)?
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = &*cancel;
    let outcome = run_interruptible(py, &cancel, || {
        puzzle.solve_limited(&TargetLimits { cancel: Some(flag), ..TargetLimits::default() })
    })?;
    let score = outcome.score();
    Ok(outcome.best.map(|b| {
        (score, b.grid.iter().map(|r| r.iter().map(|&d| u32::from(d)).collect()).collect())
    }))
}
