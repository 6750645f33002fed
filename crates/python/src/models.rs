//! The puzzle models of `dancecard-models` from Python: N-queens, polyomino tilings and the
//! target sudoku (the Python modules `dancecard/queens.py` and `dancecard/__init__.py` wrap
//! them).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use dancecard_engine::{Budget, OptionId};
use dancecard_models::count::CountRequest;
use dancecard_models::queens::{self, Queens, MAX_BITS_N, MAX_DLX_N};
use dancecard_models::target::TargetSudoku;
use dancecard_models::tiling::{
    named_set, parse_pieces, Board, DpLimits, Method as TilingMethod, Piece, Placement, Tiling,
    TilingAnswer, SET_NAMES,
};
use dancecard_models::Model;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::args;
use crate::counting;
use crate::interrupt::{read_threads, run_interruptible};
use crate::problem::{read_limit, PyProblem};
use crate::solutions::PySolutions;

/// Reads argument `n` of the bit-set queens functions: 1 to [`MAX_BITS_N`].
fn read_bits_n(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    args::usize_in(obj, "n", &args::WHOLE, 1, MAX_BITS_N)
}

/// Reads argument `n` of the exact cover model of queens: 1 to [`MAX_DLX_N`].
fn read_dlx_n(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    args::usize_in(obj, "n", &args::WHOLE, 1, MAX_DLX_N)
}

/// Counts the solutions of n-queens with the bit-set counter: the engine of
/// dancecard.queens.count().
///
/// Arguments:
///     n: the side of the board, an int from 1 to 32.
///     threads: threads to count on, 0 for one per core (at most 1024).
///     distinct: count up to the board's eight symmetries.
///
/// Returns:
///     The number of solutions (or of distinct ones).
///
/// Raises:
///     ValueError: unless 1 <= n <= 32 and 0 <= threads <= 1024.
///     TypeError: for arguments of the wrong type.
///
/// Example:
///     >>> from dancecard import _native
///     >>> _native.queens_count(8), _native.queens_count(8, 2, True)
///     (92, 12)
#[pyfunction]
#[pyo3(signature = (n, threads = 1, distinct = false))]
pub(crate) fn queens_count(
    py: Python<'_>,
    #[pyo3(from_py_with = read_bits_n)] n: usize,
    #[pyo3(from_py_with = read_threads)] threads: usize,
    #[pyo3(from_py_with = args::flag)] distinct: bool,
) -> PyResult<u64> {
    let cancel = Arc::new(AtomicBool::new(false));
    // The counter looks at the flag every `queens::POLL_STEPS` branching steps of each thread
    // (well under a millisecond): on Ctrl-C it stops soon, and is waited for.
    let request = CountRequest {
        threads,
        budget: Budget { cancel: Some(cancel.clone()), ..Budget::default() },
        ..CountRequest::default()
    };
    let count = run_interruptible(py, &cancel, || {
        queens::count_by(n, Some(queens::Method::Bits), &request)
    })?
    .map_err(|e| args::invalid("n", e))?;
    let shown = if distinct { count.distinct.unwrap_or_default() } else { count.total };
    // The bitwise counter counts in a u64.
    Ok(shown.to_u128().map_or(u64::MAX, |n| u64::try_from(n).unwrap_or(u64::MAX)))
}

/// The solutions of n-queens in lexicographic order, lazily: the engine of
/// dancecard.queens.solutions().
///
/// Arguments:
///     n: the side of the board, an int from 1 to 32.
///
/// Returns:
///     A SolutionIterator of lists of n ints: the file of the queen on each rank.
///
/// Raises:
///     ValueError: unless 1 <= n <= 32.
///     TypeError: unless n is an int.
///
/// Example:
///     >>> from dancecard import _native
///     >>> list(_native.queens_solutions(4))
///     [[1, 3, 0, 2], [2, 0, 3, 1]]
#[pyfunction]
pub(crate) fn queens_solutions(
    #[pyo3(from_py_with = read_bits_n)] n: usize,
) -> PyResult<PySolutions> {
    PySolutions::producer(None, move |emit| {
        let _ = queens::solutions(n, |p| emit(p.to_vec()));
    })
}

/// The exact cover model of n-queens: the engine of dancecard.queens.problem().
///
/// Ranks and files are primary items (in organ-pipe order), diagonals secondary; option
/// rank * n + file puts the queen on that square.
///
/// Arguments:
///     n: the side of the board, an int from 1 to 256.
///
/// Returns:
///     A Problem.
///
/// Raises:
///     ValueError: unless 1 <= n <= 256.
///     TypeError: unless n is an int.
///
/// Example:
///     >>> from dancecard import _native
///     >>> _native.queens_problem(4).first()
///     [1, 7, 8, 14]
#[pyfunction]
pub(crate) fn queens_problem(#[pyo3(from_py_with = read_dlx_n)] n: usize) -> PyResult<PyProblem> {
    let queens = Queens::new(n).map_err(|e| args::invalid("n", e))?;
    Ok(PyProblem::from_problem(queens.problem()))
}

/// The largest coordinate of a cell of a piece: the cells' span must leave room for the
/// arithmetic of the models (a connected piece spans fewer rows than it has cells anyway).
const MAX_COORDINATE: u128 = i64::MAX as u128;

/// Reads argument `board`: `"RxC"`, ASCII art (`#` a cell, `.` none), or `(rows, cols)`.
fn read_board(obj: &Bound<'_, PyAny>) -> PyResult<Board> {
    const EXPECTED: &str = "\"RxC\", ASCII art (`#` a cell, `.` none) or (rows, cols)";
    if let Ok(text) = obj.downcast::<PyString>() {
        let text = args::str_of(text, "board", &args::WHOLE)?;
        let art = text.contains('\n') || text.contains('#');
        return if art { Board::parse(&text) } else { Board::parse_size(&text) }
            .map_err(|e| args::invalid("board", e));
    }
    let mut size = Vec::new();
    for (i, v) in args::items(obj, &args::WHOLE, EXPECTED)?.enumerate() {
        if i == 2 {
            return Err(args::invalid("board", "expected (rows, cols), got more than 2 values"));
        }
        let at = args::Index::one("board", i);
        size.push(args::index_saturating(&v?, "board", &at, "an int >= 1")?);
    }
    match size[..] {
        [rows, cols] => Board::rectangle(rows, cols).map_err(|e| args::invalid("board", e)),
        _ => {
            Err(args::invalid("board", format!("expected (rows, cols), got {} values", size.len())))
        }
    }
}

/// The cells of piece `name` given as `[(row, column)...]`.
fn piece_cells(shape: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<(usize, usize)>> {
    const EXPECTED: &str = "ASCII art or a sequence of (row, column) cells";
    let mut cells = Vec::new();
    let piece = format!("pieces[{}]", args::quoted(name));
    for (i, cell) in args::items(shape, &piece, EXPECTED)?.enumerate() {
        let cell = cell?;
        let at = format!("{piece}[{i}]");
        let mut xy = [0usize; 2];
        let mut len = 0;
        for (j, v) in args::items(&cell, &at, "a (row, column) cell")?.enumerate() {
            if j == 2 {
                return Err(args::invalid(
                    "pieces",
                    format!("{at}: a cell is (row, column), got more than 2 values"),
                ));
            }
            let at = format!("{at}[{j}]");
            let expected = format!("an int from 0 to {MAX_COORDINATE}");
            let v = args::int_in(&v?, "pieces", &at, (0, MAX_COORDINATE), &expected)?;
            xy[j] = usize::try_from(v).unwrap_or(usize::MAX);
            len += 1;
        }
        if len != 2 {
            return Err(args::invalid(
                "pieces",
                format!("{at}: a cell is (row, column), got {len} values"),
            ));
        }
        cells.push((xy[0], xy[1]));
    }
    Ok(cells)
}

/// Reads argument `pieces`: a set name, ASCII art, or a mapping from names to cells
/// `[(r, c)...]` or to ASCII art.
fn read_pieces(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Piece>> {
    const EXPECTED: &str = "a set name, ASCII art, or a dict of names to cells or art";
    if let Ok(text) = obj.downcast::<PyString>() {
        let text = args::str_of(text, "pieces", &args::WHOLE)?;
        if let Some(set) = named_set(text.trim()) {
            return Ok(set);
        }
        if !text.contains('#') {
            return Err(args::invalid(
                "pieces",
                format!(
                    "unknown piece set `{}`: expected one of {} or pieces in ASCII art",
                    text.trim(),
                    SET_NAMES.join(", ")
                ),
            ));
        }
        return parse_pieces(&text).map_err(|e| args::invalid("pieces", e));
    }
    let mapping =
        obj.downcast::<PyDict>().map_err(|_| args::wrong_type(&args::WHOLE, EXPECTED, obj))?;
    let mut out = Vec::new();
    for (name, shape) in mapping.iter() {
        let name = name
            .downcast::<PyString>()
            .map_err(|_| args::wrong_type(&args::WHOLE, "a dict whose names are str", &name))?;
        let name = args::str_of(name, "pieces", &args::WHOLE)?;
        let cells = if let Ok(art) = shape.downcast::<PyString>() {
            let art =
                args::str_of(art, "pieces", &format_args!("pieces[{}]", args::quoted(&name)))?;
            let parsed = parse_pieces(&art).map_err(|e| args::invalid("pieces", e))?;
            match parsed.as_slice() {
                [one] => one.cells().to_vec(),
                _ => {
                    return Err(args::invalid(
                        "pieces",
                        format!("piece {name}: the art must draw one piece"),
                    ))
                }
            }
        } else {
            piece_cells(&shape, &name)?
        };
        out.push(Piece::new(&name, &cells).map_err(|e| args::invalid("pieces", e))?);
    }
    Ok(out)
}

/// A placement as Python sees it: the piece's name and the cells it covers.
type NamedPlacement = (String, Vec<(usize, usize)>);

/// Tilings of a board by polyominoes, made by tile(): an exact cover problem with one
/// primary item per cell (and one per piece when each is used once) and one option per
/// placement of an orientation of a piece.
///
/// count() counts the tilings as Problem.count() does, count_distinct() up to the board's
/// symmetries, count_dp() by the profile dynamic program (long rectangles); solutions()
/// lists them as placements, decode() and render() turn a solution of problem into
/// placements or a drawing.
///
/// Example:
///     >>> import dancecard
///     >>> t = dancecard.tile((4, 4), "dominoes")
///     >>> t.count(), t.count_dp(), t.count_distinct()
///     (36, 36, 9)
///     >>> t.decode(t.problem.first())[0]
///     ('D', [(0, 0), (0, 1)])
#[pyclass(frozen, module = "dancecard", name = "Tiling")]
#[derive(Debug)]
pub(crate) struct PyTiling {
    tiling: Arc<Tiling>,
    /// The exact cover problem: option `k` is placement `k` (one option per placement of an
    /// orientation of a piece).
    #[pyo3(get)]
    problem: Py<PyProblem>,
}

/// Tilings of a board by polyominoes: the exact cover problem, to count and list them.
///
/// Arguments:
///     board: "6x10", (6, 10) (any pair of ints), or ASCII art ("#" a cell, "." no cell,
///         one line a row); at most 65,536 cells.
///     pieces: a set name ("dominoes", "trominoes", "tetrominoes", "pentominoes",
///         "hexominoes", "monomino"), ASCII art (pieces separated by blank lines, each
///         optionally after a line holding its name), or a dict from names to cells
///         [(row, column), ...] (ints from 0 to 2**63 - 1) or to art.
///     once: use every piece exactly once (else any number of copies).
///     flips: whether pieces may be turned over (keyword only).
///
/// Returns:
///     A Tiling: its problem (one primary item per cell, and one per piece with once),
///     count(), count_distinct(), count_dp(), solutions(), decode() and render().
///
/// Raises:
///     ValueError: for a bad board or piece, or pieces that cannot cover the board's area.
///     TypeError: for arguments of the wrong type.
///
/// Example:
///     >>> import dancecard
///     >>> t = dancecard.tile("2x3", "dominoes")
///     >>> t.count(), t.pieces
///     (3, ['D'])
///     >>> print(t.render(t.problem.first()), end="")
///     AAB
///     CCB
///     >>> dancecard.tile("6x10", "pentominoes", once=True).count_distinct()
///     2339
#[pyfunction]
#[pyo3(signature = (board, pieces, once = false, *, flips = true))]
pub(crate) fn tile(
    py: Python<'_>,
    #[pyo3(from_py_with = read_board)] board: Board,
    #[pyo3(from_py_with = read_pieces)] pieces: Vec<Piece>,
    #[pyo3(from_py_with = args::flag)] once: bool,
    #[pyo3(from_py_with = args::flag)] flips: bool,
) -> PyResult<PyTiling> {
    let tiling = Tiling::builder(board, pieces).once(once).flips(flips).build();
    // The pieces cannot tile the board (too many placements, a wrong area...).
    let tiling = tiling.map_err(|e| args::invalid("pieces", e))?;
    let problem = Py::new(py, PyProblem::from_problem(tiling.exact_cover().clone()))?;
    Ok(PyTiling { tiling: Arc::new(tiling), problem })
}

/// Reads argument `solution` of `Tiling.decode` and `Tiling.render`: option numbers, at most
/// `max` of them (see [`PyTiling::answer`] for the rest).
fn read_solution(obj: &Bound<'_, PyAny>, max: usize) -> PyResult<Vec<usize>> {
    let mut out = Vec::new();
    for (i, v) in args::items(obj, &args::WHOLE, "a sequence of option numbers")?.enumerate() {
        if i == max {
            let message = format!("expected at most {max} distinct option numbers, got more");
            return Err(args::invalid("solution", message));
        }
        let at = args::Index::one("solution", i);
        out.push(args::index_saturating(&v?, "solution", &at, "an option number (an int >= 0)")?);
    }
    Ok(out)
}

impl PyTiling {
    /// The placements of distinct option numbers of the tiling's problem, read from argument
    /// `solution` (here, not by pyo3, to read no more numbers than there are options).
    fn answer(&self, py: Python<'_>, solution: &Bound<'_, PyAny>) -> PyResult<TilingAnswer> {
        let count = self.tiling.exact_cover().option_count();
        let solution = args::in_body(py, "solution", read_solution(solution, count))?;
        let mut seen = vec![false; count];
        let placements = solution
            .iter()
            .enumerate()
            .map(|(i, &k)| {
                let placement =
                    OptionId::new(k).and_then(|o| self.tiling.placement(o)).ok_or_else(|| {
                        let expected =
                            format!("an option number from 0 to {}", count.saturating_sub(1));
                        let shown =
                            if k == usize::MAX { "a larger int".to_owned() } else { k.to_string() };
                        args::wrong_value(
                            "solution",
                            &args::Index::one("solution", i),
                            &expected,
                            &shown,
                        )
                    })?;
                if std::mem::replace(&mut seen[k], true) {
                    return Err(args::invalid("solution", format!("option {k} is given twice")));
                }
                Ok(placement.clone())
            })
            .collect::<PyResult<Vec<Placement>>>()?;
        Ok(TilingAnswer { placements })
    }
}

#[pymethods]
impl PyTiling {
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
    fn decode(&self, py: Python<'_>, solution: &Bound<'_, PyAny>) -> PyResult<Vec<NamedPlacement>> {
        let answer = self.answer(py, solution)?;
        let pieces = self.tiling.pieces();
        Ok(answer
            .placements
            .into_iter()
            .map(|p| (pieces[p.piece].name().to_owned(), p.cells))
            .collect())
    }

    /// A solution drawn as text, one letter per piece.
    fn render(&self, py: Python<'_>, solution: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(self.tiling.render(&self.answer(py, solution)?))
    }

    /// The number of tilings (`threads`: 0 for one per core, at most 1024), counted as
    /// `problem.count` counts: `method` `"search"`, `"memo"`, `"auto"` (whichever pays) or
    /// `"frontier"`,
    /// `memo_limit` the most bytes of the memo table (`None`: the default).
    #[pyo3(signature = (threads = 1, method = "auto", memo_limit = None))]
    fn count(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = read_threads)] threads: usize,
        #[pyo3(from_py_with = counting::read_method)] method: &str,
        #[pyo3(from_py_with = counting::read_memo_limit)] memo_limit: Option<u64>,
    ) -> PyResult<num_bigint::BigUint> {
        self.problem
            .get()
            .count(py, threads, "mrv", None, None, method, memo_limit, None, None, None)
    }

    /// Tilings up to the board's symmetries (each orbit counted once).
    fn count_distinct(&self, py: Python<'_>) -> PyResult<u128> {
        let cancel = Arc::new(AtomicBool::new(false));
        let request = CountRequest {
            distinct: true,
            budget: Budget { cancel: Some(cancel.clone()), ..Budget::default() },
            ..CountRequest::default()
        };
        let tiling = &*self.tiling;
        let counted = run_interruptible(py, &cancel, || {
            tiling.count_by(TilingMethod::Dlx, &request, DpLimits::default())
        })?
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
        if !counted.is_complete() {
            return Err(PyRuntimeError::new_err("the count was cut short"));
        }
        Ok(counted.distinct.and_then(|d| d.to_u128()).unwrap_or_default())
    }

    /// Counts by the profile dynamic program (full rectangles, unlimited copies only): an int,
    /// exact at any size.
    fn count_dp(&self, py: Python<'_>) -> PyResult<num_bigint::BigUint> {
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = &*cancel;
        let tiling = &*self.tiling;
        run_interruptible(py, &cancel, || tiling.count_dp_with(Some(flag)))?
            .map(|n| counting::int(&n))
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The tilings (at most `limit`, an int below 2**128, or `None`), lazily, each as
    /// `decode` gives it.
    #[pyo3(signature = (limit = None))]
    fn solutions(
        slf: &Bound<'_, Self>,
        #[pyo3(from_py_with = read_limit)] limit: Option<u128>,
    ) -> PyResult<PySolutions> {
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

/// Reads argument `grid` of `target_sudoku`: 9 lines of 9 digits, or 9 rows of 9 ints.
fn read_target(obj: &Bound<'_, PyAny>) -> PyResult<TargetSudoku> {
    const EXPECTED: &str = "text or 9 rows of 9 ints";
    if let Ok(text) = obj.downcast::<PyString>() {
        let text = args::str_of(text, "grid", &args::WHOLE)?;
        return TargetSudoku::parse(&text).map_err(|e| args::invalid("grid", e));
    }
    let mut cells = [[0u8; 9]; 9];
    let mut rows = 0;
    for (r, row) in args::items(obj, &args::WHOLE, EXPECTED)?.enumerate() {
        let row = row?;
        let mut len = 0;
        for (c, v) in
            args::items(&row, &args::Index::one("grid", r), "a row of 9 ints")?.enumerate()
        {
            let at = args::Index::two("grid", r, c);
            let digit = args::usize_in(&v?, "grid", &at, 0, 9)?;
            if r < 9 && c < 9 {
                cells[r][c] = u8::try_from(digit).unwrap_or(0);
            }
            len += 1;
            if len > 9 {
                break;
            }
        }
        if len != 9 {
            return Err(args::invalid(
                "grid",
                format!(
                    "expected 9 rows of 9 ints: row {r} has {}",
                    if len > 9 { "more than 9".to_owned() } else { len.to_string() }
                ),
            ));
        }
        rows += 1;
        if rows > 9 {
            break;
        }
    }
    if rows != 9 {
        let found = if rows > 9 { "more than 9".to_owned() } else { rows.to_string() };
        return Err(args::invalid("grid", format!("expected 9 rows of 9 ints, got {found} rows")));
    }
    TargetSudoku::from_grid(cells).map_err(|e| args::invalid("grid", e))
}

/// The target sudoku (NOIP 2009): the completion of a 9x9 sudoku with the largest score.
///
/// The score of a grid is the sum of digit times weight: 10 on the centre square, one less
/// per ring out, 6 on the border. A branch and bound finds the best completion, with the
/// GIL released; Ctrl-C stops it (KeyboardInterrupt).
///
/// Arguments:
///     grid: 9 lines of 9 digits ("0" or "." blank), or 9 rows of 9 ints from 0 (blank)
///         to 9 (a 2-D numpy array will do).
///
/// Returns:
///     (score, grid), grid as 9 rows of 9 ints; or None when the puzzle has no completion.
///
/// Raises:
///     ValueError: for a grid that is not 9x9, holds values out of range, or whose givens
///         clash.
///     TypeError: for a grid of another type.
///
/// Example:
///     >>> import dancecard
///     >>> line = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
///     >>> text = "\n".join(line[r * 9:r * 9 + 9] for r in range(9))
///     >>> score, grid = dancecard.target_sudoku(text)
///     >>> score, grid[0]
///     (2861, [4, 8, 3, 9, 2, 1, 6, 5, 7])
#[pyfunction]
pub(crate) fn target_sudoku(
    py: Python<'_>,
    #[pyo3(from_py_with = read_target)] grid: TargetSudoku,
) -> PyResult<Option<(i64, Vec<Vec<u32>>)>> {
    let puzzle = grid;
    let cancel = Arc::new(AtomicBool::new(false));
    let budget = Budget::new().cancel(Arc::clone(&cancel));
    let outcome = run_interruptible(py, &cancel, || puzzle.solve_limited(&budget))?;
    let score = outcome.score();
    Ok(outcome.best.map(|b| {
        (score, b.grid.iter().map(|r| r.iter().map(|&d| u32::from(d)).collect()).collect())
    }))
}
