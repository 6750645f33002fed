//! Sudoku of any box shape: parsing, two solvers, counting, and a seeded generator.
//!
//! # Brief overview
//!
//! - [`Shape`] is the shape of a box (`3x3` for the classic 9x9 grid, `2x3` for 6x6, `4x4`
//!   for 16x16...); the grid's side is `rows * cols`, from 1 to [`Shape::MAX_SIDE`].
//! - [`Grid`] holds the values (0 for an empty cell); it is read from a line of symbols
//!   ([`Grid::parse_line`]: `.` or `0` for a blank, `1`-`9` then `A`-`Z` for values above 9)
//!   or from a grid of whitespace-separated numbers ([`Grid::parse_numbers`]), and whole files
//!   of puzzles are read by [`parse_puzzles`]. Errors are [`Error`]s naming the line and column.
//! - [`search`] solves or counts with either [`Method`]: [`Method::Dlx`], the exact cover model
//!   of [`SudokuModel`] on the dancing-links engine, or [`Method::Fast`], a dedicated solver
//!   (bit sets, constraint propagation, minimum-remaining-values branching; for 9x9 a
//!   band-oriented bitboard solver). [`Grid::solve`], [`Grid::count`] and [`Grid::uniqueness`]
//!   are shortcuts. Every search returns a [`Report`]: solutions counted, the first solution,
//!   nodes of the search tree, and microseconds.
//! - [`generate()`] makes puzzles with a unique solution from a seed (deterministic).
//!
//! # Example
//!
//! ```
//! use dancecard_models::sudoku::{Grid, Method, Uniqueness};
//!
//! let line = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
//! let grid = Grid::parse_line(line, None)?;
//! let fast = grid.solve(Method::Fast);
//! let dlx = grid.solve(Method::Dlx);
//! let solution = fast.solution.expect("this puzzle has a solution");
//! assert_eq!(Some(&solution), dlx.solution.as_ref());
//! assert!(solution.is_solution_of(&grid));
//! assert_eq!(
//!     solution.to_string(),
//!     "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
//! );
//! assert_eq!(grid.uniqueness(Method::Fast), Uniqueness::Unique);
//! # Ok::<(), dancecard_models::sudoku::Error>(())
//! ```

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

pub use dancecard_engine::Budget;

mod band;
mod dlx;
mod fast;
mod generate;

pub use dlx::SudokuModel;
pub use generate::{generate, Generated};

/// Why a puzzle could not be read, or is not a valid puzzle.
///
/// Lines and columns count from 1; a column is a character position in the line (or, in a
/// grid of numbers, the position of the number in its row).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A box shape that is not supported.
    #[error("unsupported box shape {rows}x{cols}: the side rows*cols must be 1 to {max}", max = Shape::MAX_SIDE)]
    BadShape {
        /// Rows of a box.
        rows: usize,
        /// Columns of a box.
        cols: usize,
    },
    /// A box shape written wrongly (not `RxC`).
    #[error("bad box shape `{text}`: expected ROWSxCOLS, like 2x3")]
    BadShapeText {
        /// The text given.
        text: String,
    },
    /// A puzzle line whose length is not the number of cells of a supported grid.
    #[error("line {line}: {found} cells, expected {expected}")]
    Length {
        /// The line.
        line: usize,
        /// The number of cell symbols found.
        found: usize,
        /// What was expected (for example `81 (9x9)`, or `16, 81, 256 or 625`).
        expected: String,
    },
    /// A character that is not a cell symbol, or a value too large for the grid.
    #[error("line {line}, column {column}: bad symbol `{symbol}` for a {side}x{side} grid (blanks are `.` or `0`, values 1 to {side} are written {range})", range = symbol_range(*side))]
    BadSymbol {
        /// The line.
        line: usize,
        /// The column.
        column: usize,
        /// The offending symbol (a character, or a number in grid input).
        symbol: String,
        /// The grid's side.
        side: usize,
    },
    /// A row of a grid of numbers with the wrong count of numbers.
    #[error("line {line}: {found} numbers in a grid row, expected {expected}")]
    RowLength {
        /// The line.
        line: usize,
        /// Numbers found.
        found: usize,
        /// Numbers expected (the side).
        expected: usize,
    },
    /// A grid of numbers that ends before its last row.
    #[error("line {line}: the grid starting here has {found} rows, expected {expected}")]
    MissingRows {
        /// The grid's first line.
        line: usize,
        /// Rows found.
        found: usize,
        /// Rows expected (the side).
        expected: usize,
    },
    /// Two givens with the same value in one row, column or box.
    #[error("line {line}: value {value} is given twice in {unit}: at row {}, column {} and at row {}, column {}", first.0 + 1, first.1 + 1, second.0 + 1, second.1 + 1, value = symbol(*value))]
    Clash {
        /// The puzzle's line.
        line: usize,
        /// The repeated value.
        value: u8,
        /// Which unit holds both (`row 3`, `column 5`, `box 2`).
        unit: String,
        /// The first cell (row, column), from 0.
        first: (usize, usize),
        /// The second cell (row, column), from 0.
        second: (usize, usize),
    },
    /// A grid's value list of the wrong size, or a value out of range (library use).
    #[error("bad grid: {reason}")]
    BadGrid {
        /// What is wrong.
        reason: String,
    },
}

/// The symbol of value `v`: `.` for 0, `1`-`9`, then `A`-`Z`.
pub fn symbol(v: u8) -> char {
    match v {
        0 => '.',
        1..=9 => char::from(b'0' + v),
        10..=35 => char::from(b'A' + v - 10),
        _ => '?',
    }
}

/// The value of a cell symbol: `.` and `0` are 0, `1`-`9`, `A`-`Z` (or `a`-`z`) are 1 to 35.
fn symbol_value(c: u8) -> Option<u8> {
    match c {
        b'.' | b'0' => Some(0),
        b'1'..=b'9' => Some(c - b'0'),
        b'A'..=b'Z' => Some(c - b'A' + 10),
        b'a'..=b'z' => Some(c - b'a' + 10),
        _ => None,
    }
}

fn symbol_range(side: usize) -> String {
    match side {
        0..=9 => format!("1-{side}"),
        10 => "1-9 and A".to_owned(),
        _ => format!("1-9 and A-{}", symbol(side as u8)),
    }
}

/// The shape of a box: `rows` x `cols` cells. The grid is `rows * cols` cells on a side; it
/// has `cols` bands of boxes stacked vertically and `rows` stacks side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    rows: u8,
    cols: u8,
}

impl Shape {
    /// The largest side supported (candidate sets are 32-bit masks).
    pub const MAX_SIDE: usize = 32;

    /// The classic 9x9 shape (3x3 boxes).
    pub const CLASSIC: Shape = Shape { rows: 3, cols: 3 };

    /// A box of `rows` x `cols` cells.
    pub fn new(rows: usize, cols: usize) -> Result<Shape, Error> {
        if rows == 0 || cols == 0 || rows.checked_mul(cols).map_or(true, |s| s > Self::MAX_SIDE) {
            return Err(Error::BadShape { rows, cols });
        }
        Ok(Shape { rows: rows as u8, cols: cols as u8 })
    }

    /// A square box of side `n`: the grid is `n^2` x `n^2`.
    pub fn square(n: usize) -> Result<Shape, Error> {
        Shape::new(n, n)
    }

    /// The square shape whose grid has `cells` cells: 16, 81, 256 or 625 (4x4 to 25x25).
    pub fn for_cells(cells: usize) -> Option<Shape> {
        (2..=5).map(|n| Shape { rows: n, cols: n }).find(|s| s.cells() == cells)
    }

    /// Rows of a box.
    pub fn box_rows(self) -> usize {
        usize::from(self.rows)
    }

    /// Columns of a box.
    pub fn box_cols(self) -> usize {
        usize::from(self.cols)
    }

    /// The grid's side (and number of values).
    pub fn side(self) -> usize {
        self.box_rows() * self.box_cols()
    }

    /// The number of cells.
    pub fn cells(self) -> usize {
        self.side() * self.side()
    }

    /// The box (numbered row by row from 0) of a cell.
    pub fn box_of(self, row: usize, col: usize) -> usize {
        (row / self.box_rows()) * self.box_rows() + col / self.box_cols()
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl std::str::FromStr for Shape {
    type Err = Error;

    /// Reads `RxC` (`2x3`, `3X4`).
    fn from_str(s: &str) -> Result<Shape, Error> {
        let bad = || Error::BadShapeText { text: s.to_owned() };
        let (r, c) = s.split_once(['x', 'X']).ok_or_else(bad)?;
        let r: usize = r.trim().parse().map_err(|_| bad())?;
        let c: usize = c.trim().parse().map_err(|_| bad())?;
        Shape::new(r, c)
    }
}

/// A sudoku grid: a box shape and the value of each cell, row by row (0 = empty).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: Shape,
    cells: Vec<u8>,
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({}, {self})", self.shape)
    }
}

/// The line form: one symbol per cell, row by row, `.` for an empty cell.
impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(self.cells.len());
        s.extend(self.cells.iter().map(|&v| symbol(v)));
        f.write_str(&s)
    }
}

impl Grid {
    /// An empty grid of this shape.
    pub fn empty(shape: Shape) -> Grid {
        Grid { shape, cells: vec![0; shape.cells()] }
    }

    /// A grid from its values, row by row (0 = empty); checks the count and range only.
    pub fn from_values(shape: Shape, values: Vec<u8>) -> Result<Grid, Error> {
        if values.len() != shape.cells() {
            return Err(Error::BadGrid {
                reason: format!("{} values for {} cells", values.len(), shape.cells()),
            });
        }
        if let Some(&v) = values.iter().find(|&&v| usize::from(v) > shape.side()) {
            return Err(Error::BadGrid {
                reason: format!("value {v} is larger than the side {}", shape.side()),
            });
        }
        Ok(Grid { shape, cells: values })
    }

    /// Reads a puzzle line: one symbol per cell, `.` or `0` for blanks, `1`-`9` then `A`-`Z`
    /// (or lowercase) for values. Text after the cells, after a space or a `:`
    /// (tdoku's `puzzle:count:solution` lines), is ignored.
    /// Without a shape, the length decides (16, 81, 256 or 625 cells: square boxes).
    ///
    /// Errors name line 1; [`parse_puzzles`] gives real line numbers. The givens are not
    /// checked against each other: see [`Grid::check`].
    pub fn parse_line(line: &str, shape: Option<Shape>) -> Result<Grid, Error> {
        parse_line_at(line, shape, 1)
    }

    /// Reads a grid of whitespace-separated numbers (0 or `.` for blanks), one row a line;
    /// blank lines and lines starting with `#` are skipped. Without a shape, the count of
    /// numbers in the first row decides (a square shape).
    pub fn parse_numbers(text: &str, shape: Option<Shape>) -> Result<Grid, Error> {
        let mut grids = parse_number_grids(text, shape, 1)?;
        match grids.len() {
            0 => Err(Error::BadGrid { reason: "no grid in the input".to_owned() }),
            _ => Ok(grids.swap_remove(0).1),
        }
    }

    /// The box shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The grid's side.
    pub fn side(&self) -> usize {
        self.shape.side()
    }

    /// The values, row by row (0 = empty).
    pub fn values(&self) -> &[u8] {
        &self.cells
    }

    /// The value at (`row`, `col`), 0 if empty. Panics out of the grid.
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[row * self.side() + col]
    }

    /// Sets the value at (`row`, `col`) (0 empties it). Panics out of the grid or if `value`
    /// is larger than the side.
    pub fn set(&mut self, row: usize, col: usize, value: u8) {
        assert!(usize::from(value) <= self.side(), "value {value} larger than the side");
        let side = self.side();
        self.cells[row * side + col] = value;
    }

    /// The number of givens (non-empty cells).
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Whether every cell is filled.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// Checks that no value is given twice in a row, column or box; the error's line is 1.
    pub fn check(&self) -> Result<(), Error> {
        self.check_at(1)
    }

    fn check_at(&self, line: usize) -> Result<(), Error> {
        let side = self.side();
        // Per unit kind and unit: the cell where each value was first seen.
        let mut seen = vec![u16::MAX; 3 * side * (side + 1)];
        for r in 0..side {
            for c in 0..side {
                let v = self.get(r, c);
                if v == 0 {
                    continue;
                }
                let units = [("row", r), ("column", c), ("box", self.shape.box_of(r, c))];
                for (kind, (name, u)) in units.into_iter().enumerate() {
                    let slot = &mut seen[(kind * side + u) * (side + 1) + usize::from(v)];
                    if *slot != u16::MAX {
                        let f = usize::from(*slot);
                        return Err(Error::Clash {
                            line,
                            value: v,
                            unit: format!("{name} {}", u + 1),
                            first: (f / side, f % side),
                            second: (r, c),
                        });
                    }
                    *slot = (r * side + c) as u16;
                }
            }
        }
        Ok(())
    }

    /// Whether `self` is a complete, valid grid that agrees with every given of `puzzle`.
    pub fn is_solution_of(&self, puzzle: &Grid) -> bool {
        self.shape == puzzle.shape
            && self.is_full()
            && self.check().is_ok()
            && self.cells.iter().zip(&puzzle.cells).all(|(&s, &p)| p == 0 || s == p)
    }

    /// The grid as rows of space-separated numbers (0 for blanks), one row a line.
    pub fn to_number_rows(&self) -> String {
        let mut s = String::new();
        for row in self.cells.chunks(self.side()) {
            let texts: Vec<String> = row.iter().map(u8::to_string).collect();
            s.push_str(&texts.join(" "));
            s.push('\n');
        }
        s
    }

    /// Solves with `method`: the first solution, if any (a search with limit 1).
    pub fn solve(&self, method: Method) -> Report {
        search(self, &Options::new(method).limit(1))
    }

    /// Counts solutions with `method`, stopping at `limit` if given.
    pub fn count(&self, method: Method, limit: Option<u64>) -> Report {
        let mut options = Options::new(method);
        options.budget.max_solutions = limit.map(u128::from);
        search(self, &options)
    }

    /// Whether the puzzle has no solution, one, or several (a count up to 2).
    pub fn uniqueness(&self, method: Method) -> Uniqueness {
        search(self, &Options::new(method).limit(2).skip_solution()).uniqueness()
    }
}

fn parse_line_at(line: &str, shape: Option<Shape>, line_no: usize) -> Result<Grid, Error> {
    let text = line.trim_start();
    let offset = line.len() - text.len();
    // The puzzle ends at a space or a ':' (tdoku's files: `puzzle:count:solution`).
    let token = text.split(|c: char| c.is_whitespace() || c == ':').next().unwrap_or("");
    let n = token.chars().count();
    let shape = match shape {
        Some(s) if s.cells() == n => s,
        Some(s) => {
            return Err(Error::Length {
                line: line_no,
                found: n,
                expected: format!("{} ({}x{} grid, boxes {s})", s.cells(), s.side(), s.side()),
            })
        }
        None => Shape::for_cells(n).ok_or_else(|| Error::Length {
            line: line_no,
            found: n,
            expected: "16, 81, 256 or 625 (use --box for rectangular boxes)".to_owned(),
        })?,
    };
    let side = shape.side();
    let mut cells = Vec::with_capacity(n);
    for (k, ch) in token.chars().enumerate() {
        let v = u8::try_from(ch)
            .ok()
            .and_then(symbol_value)
            .filter(|&v| usize::from(v) <= side)
            .ok_or_else(|| Error::BadSymbol {
                line: line_no,
                column: offset + k + 1,
                symbol: ch.to_string(),
                side,
            })?;
        cells.push(v);
    }
    Ok(Grid { shape, cells })
}

/// Reads every grid of numbers in `text`; `first_line` is the number of `text`'s first line.
fn parse_number_grids(
    text: &str,
    shape: Option<Shape>,
    first_line: usize,
) -> Result<Vec<(usize, Grid)>, Error> {
    let mut grids = Vec::new();
    let mut shape = shape;
    let mut cells: Vec<u8> = Vec::new();
    let mut start = 0;
    let mut rows = 0;
    for (k, line) in text.lines().enumerate() {
        let line_no = first_line + k;
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            if rows > 0 {
                let side = shape.map_or(0, Shape::side);
                return Err(Error::MissingRows { line: start, found: rows, expected: side });
            }
            continue;
        }
        let tokens: Vec<(usize, &str)> = line
            .split(char::is_whitespace)
            .scan(0usize, |pos, tok| {
                let at = *pos;
                *pos += tok.len() + 1;
                Some((at, tok))
            })
            .filter(|(_, tok)| !tok.is_empty())
            .collect();
        let s = match shape {
            Some(s) => s,
            None => {
                let s = (2..=5)
                    .map(|n| Shape { rows: n, cols: n })
                    .find(|s| s.side() == tokens.len())
                    .ok_or(Error::RowLength { line: line_no, found: tokens.len(), expected: 9 })?;
                shape = Some(s);
                s
            }
        };
        let side = s.side();
        if tokens.len() != side {
            return Err(Error::RowLength { line: line_no, found: tokens.len(), expected: side });
        }
        if rows == 0 {
            start = line_no;
        }
        for (at, tok) in tokens {
            let v = if tok == "." { Some(0) } else { tok.parse::<u8>().ok() }
                .filter(|&v| usize::from(v) <= side)
                .ok_or_else(|| Error::BadSymbol {
                    line: line_no,
                    column: at + 1,
                    symbol: tok.to_owned(),
                    side,
                })?;
            cells.push(v);
        }
        rows += 1;
        if rows == side {
            grids.push((start, Grid { shape: s, cells: std::mem::take(&mut cells) }));
            rows = 0;
        }
    }
    if rows > 0 {
        let side = shape.map_or(0, Shape::side);
        return Err(Error::MissingRows { line: start, found: rows, expected: side });
    }
    Ok(grids)
}

/// A puzzle read from a file, with the line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The line (from 1) of the puzzle in its input.
    pub line: usize,
    /// The puzzle.
    pub grid: Grid,
}

/// Reads every puzzle of a text, in order, each as a [`Puzzle`] or an [`Error`] naming its
/// line. Also rejects puzzles whose givens clash ([`Error::Clash`]).
///
/// The format is detected from the first line that is neither blank nor a `#` comment: if it
/// holds several whitespace-separated tokens of at most two characters, the text is grids of
/// numbers (see [`Grid::parse_numbers`]; an error there ends the reading); otherwise it is one
/// puzzle a line (see [`Grid::parse_line`]), blank and `#` lines skipped, and a bad line does
/// not stop the others.
pub fn parse_puzzles(text: &str, shape: Option<Shape>) -> Vec<Result<Puzzle, Error>> {
    let first = text.lines().map(str::trim).find(|t| !t.is_empty() && !t.starts_with('#'));
    let numbers = first.is_some_and(|t| {
        let tokens: Vec<&str> = t.split_whitespace().collect();
        tokens.len() > 1 && tokens.iter().all(|tok| tok.len() <= 2)
    });
    let checked = |line: usize, grid: Grid| grid.check_at(line).map(|()| Puzzle { line, grid });
    if numbers {
        return match parse_number_grids(text, shape, 1) {
            Ok(grids) => grids.into_iter().map(|(line, grid)| checked(line, grid)).collect(),
            Err(e) => vec![Err(e)],
        };
    }
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#')
        })
        .map(|(k, l)| parse_line_at(l, shape, k + 1).and_then(|g| checked(k + 1, g)))
        .collect()
}

/// How to solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Method {
    /// The exact cover model ([`SudokuModel`]) on the dancing-links engine.
    Dlx,
    /// The dedicated solver: bit sets, propagation (naked and hidden singles, and for 9x9
    /// locked candidates), minimum-remaining-values branching.
    #[default]
    Fast,
}

/// Why a search ended: the project's one stop vocabulary (shared with the engine and the
/// heuristic searches). A sudoku search ends with [`Stop::Exhausted`] (every solution was
/// counted), [`Stop::SolutionLimit`], or cut short (the count is then a lower bound) by
/// [`Stop::NodeLimit`], [`Stop::TimeLimit`] or [`Stop::Cancelled`].
pub use dancecard_budget::Stop;

/// Limits and method of a [`search`].
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Options {
    /// The solver.
    pub method: Method,
    /// The limits of each search: a solution limit, a node limit, a time limit (from the
    /// start of each puzzle's search) and a cancel flag (the last two looked at every
    /// thousand nodes or so).
    pub budget: Budget,
    /// Leave [`Report::solution`] empty: a count or a uniqueness check that shows no grid
    /// then builds none (one allocation less per puzzle).
    pub skip_solution: bool,
    /// Leave [`Report::micros`] 0: no clock reads (two per puzzle, a few percent of the time
    /// of an easy 9x9 puzzle).
    pub skip_timing: bool,
}

impl Options {
    /// Options with no limits.
    pub fn new(method: Method) -> Options {
        Options { method, ..Options::default() }
    }

    /// With a solution limit.
    pub fn limit(mut self, limit: u64) -> Options {
        self.budget.max_solutions = Some(u128::from(limit));
        self
    }

    /// With a node limit.
    pub fn max_nodes(mut self, nodes: u64) -> Options {
        self.budget.max_nodes = Some(nodes);
        self
    }

    /// With a cancel flag.
    pub fn cancel(mut self, flag: Arc<AtomicBool>) -> Options {
        self.budget.cancel = Some(flag);
        self
    }

    /// With these limits.
    pub fn budget(mut self, budget: Budget) -> Options {
        self.budget = budget;
        self
    }

    /// Without the solution grid in the report (see [`Options::skip_solution`]).
    pub fn skip_solution(mut self) -> Options {
        self.skip_solution = true;
        self
    }

    /// Without the time in the report (see [`Options::skip_timing`]).
    pub fn skip_timing(mut self) -> Options {
        self.skip_timing = true;
        self
    }

    /// An empty report to fill and the solution limit as the search loops read it
    /// (`u64::MAX`: none), or the report of a search that wants no solution
    /// ([`Stop::SolutionLimit`]: nothing to search, no node).
    pub(crate) fn start(&self) -> Result<(Report, u64), Report> {
        let mut report =
            Report { solutions: 0, solution: None, stop: Stop::Exhausted, nodes: 0, micros: 0 };
        match self.budget.max_solutions {
            Some(0) => {
                report.stop = Stop::SolutionLimit;
                Err(report)
            }
            limit => Ok((report, limit.map_or(u64::MAX, |m| u64::try_from(m).unwrap_or(u64::MAX)))),
        }
    }

    /// The node, time and cancel limits of a search that starts now, as its loop reads them
    /// (the clock is read only with a time limit).
    pub(crate) fn guard(&self) -> Guard<'_> {
        let deadline = self.budget.time_limit.and_then(|_| self.budget.deadline(Instant::now()));
        Guard {
            budget: &self.budget,
            max_nodes: self.budget.max_nodes.unwrap_or(u64::MAX),
            polls: self.budget.cancel.is_some() || deadline.is_some(),
            deadline,
        }
    }
}

/// The node, time and cancel limits of one search of the sudoku solvers ([`Options::guard`]).
pub(crate) struct Guard<'o> {
    budget: &'o Budget,
    /// The node limit (`u64::MAX`: none).
    max_nodes: u64,
    /// When the time limit passes.
    deadline: Option<Instant>,
    /// Whether there is a cancel flag or a deadline to look at.
    polls: bool,
}

impl Guard<'_> {
    /// Enters a node of the search: counts it in `report`, unless a limit stops the search
    /// first (the node limit before the node, the cancel flag and the clock every 1024 nodes);
    /// then it sets `report.stop` and returns `false`.
    #[inline(always)]
    pub(crate) fn enter(&self, report: &mut Report) -> bool {
        if report.nodes >= self.max_nodes {
            report.stop = Stop::NodeLimit;
            return false;
        }
        report.nodes += 1;
        if self.polls && report.nodes % 1024 == 0 {
            if let Some(stop) = self.poll() {
                report.stop = stop;
                return false;
            }
        }
        true
    }

    /// Why the search must stop now, if it must: the cancel flag, or the time limit.
    #[cold]
    #[inline(never)]
    fn poll(&self) -> Option<Stop> {
        if self.budget.is_cancelled() {
            Some(Stop::Cancelled)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Stop::TimeLimit)
        } else {
            None
        }
    }
}

/// What a search found and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Solutions found (all of them when `stop` is [`Stop::Exhausted`]).
    pub solutions: u64,
    /// The first solution found, if any (none with [`Options::skip_solution`]).
    pub solution: Option<Grid>,
    /// Why the search ended.
    pub stop: Stop,
    /// Nodes of the search tree: for [`Method::Dlx`] the engine's count (Knuth's), for
    /// [`Method::Fast`] one per propagation (the root and each guess).
    pub nodes: u64,
    /// Wall-clock microseconds of the search (0 with [`Options::skip_timing`]).
    pub micros: u64,
}

impl Report {
    /// No solution, one, or several (meaningful after a count up to at least 2).
    pub fn uniqueness(&self) -> Uniqueness {
        match self.solutions {
            0 => Uniqueness::None,
            1 => Uniqueness::Unique,
            _ => Uniqueness::Multiple,
        }
    }

    /// Whether the count is exact (the search was not cut by a node limit or cancelled).
    pub fn is_exact(&self) -> bool {
        matches!(self.stop, Stop::Exhausted | Stop::SolutionLimit)
    }
}

/// How many solutions a puzzle has, up to "several".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Uniqueness {
    /// No solution.
    None,
    /// Exactly one.
    Unique,
    /// Two or more.
    Multiple,
}

impl Uniqueness {
    /// `none`, `unique` or `multiple`.
    pub fn as_str(self) -> &'static str {
        match self {
            Uniqueness::None => "none",
            Uniqueness::Unique => "unique",
            Uniqueness::Multiple => "multiple",
        }
    }
}

impl fmt::Display for Uniqueness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Solves or counts `grid` as `options` say. Givens that clash give 0 solutions.
///
/// ```
/// use dancecard_models::sudoku::{search, Grid, Method, Options, Stop};
///
/// let grid = Grid::parse_line(&".".repeat(16), None)?; // an empty 4x4 grid
/// let report = search(&grid, &Options::new(Method::Dlx));
/// assert_eq!((report.solutions, report.stop), (288, Stop::Exhausted));
/// let report = search(&grid, &Options::new(Method::Fast).limit(10));
/// assert_eq!((report.solutions, report.stop), (10, Stop::SolutionLimit));
/// # Ok::<(), dancecard_models::sudoku::Error>(())
/// ```
pub fn search(grid: &Grid, options: &Options) -> Report {
    timed(options, || match options.method {
        Method::Dlx => dlx::search(grid, options),
        Method::Fast => fast::search(grid, options),
    })
}

/// Puzzles solved between two progress reports of [`search_all`] (and per batch of its
/// threads).
pub const BATCH: usize = 1024;

/// Solves or counts every grid as `options` say, on `threads` threads (1 or 0: the calling
/// thread), in batches of [`BATCH`], calling `progress` with the number of puzzles done after
/// each. The reports are in the order of `grids`.
///
/// The budget's cancel flag stops the run: the first puzzle whose search it cut short keeps its
/// partial report ([`Stop::Cancelled`]) and every puzzle after it gets `None` (with threads,
/// some later puzzles may have been solved: they are dropped, so that the reports stay a
/// prefix of the input that a front end can print in step with it).
///
/// ```
/// use dancecard_models::sudoku::{search_all, Grid, Method, Options};
///
/// let empty = Grid::parse_line(&".".repeat(16), None)?;
/// let solved = Grid::parse_line("1234341221434321", None)?;
/// let mut done = 0;
/// let reports = search_all(&[&empty, &solved], &Options::new(Method::Fast), 2, &mut |d| done = d);
/// let counts: Vec<u64> = reports.iter().map(|r| r.as_ref().unwrap().solutions).collect();
/// assert_eq!((counts, done), (vec![288, 1], 2));
/// # Ok::<(), dancecard_models::sudoku::Error>(())
/// ```
pub fn search_all(
    grids: &[&Grid],
    options: &Options,
    threads: usize,
    progress: &mut dyn FnMut(usize),
) -> Vec<Option<Report>> {
    use rayon::prelude::*;

    let mut reports: Vec<Option<Report>> = Vec::with_capacity(grids.len());
    // Without a pool (one thread asked, or none could start) the calling thread solves all.
    let pool = (threads > 1)
        .then(|| rayon::ThreadPoolBuilder::new().num_threads(threads).build().ok())
        .flatten();
    let mut solver = Solver::new();
    let stopped = || options.budget.is_cancelled();
    for batch in grids.chunks(BATCH) {
        if stopped() {
            break;
        }
        match &pool {
            Some(pool) => pool.install(|| {
                let part: Vec<Option<Report>> = batch
                    .par_iter()
                    .map_init(Solver::new, |solver, grid| Some(solver.search(grid, options)))
                    .collect();
                reports.extend(part);
            }),
            None => reports.extend(batch.iter().map(|grid| Some(solver.search(grid, options)))),
        }
        progress(reports.len());
    }
    if let Some(first) =
        reports.iter().position(|r| r.as_ref().is_some_and(|r| r.stop == Stop::Cancelled))
    {
        reports.truncate(first + 1);
    }
    reports.resize(grids.len(), None);
    reports
}

/// Runs a search and sets its [`Report::micros`], unless `options` skip timing.
#[inline(always)]
fn timed(options: &Options, search: impl FnOnce() -> Report) -> Report {
    if options.skip_timing {
        return search();
    }
    let started = Instant::now();
    let mut report = search();
    report.micros = started.elapsed().as_micros() as u64;
    report
}

/// A reusable solver for many puzzles in a row: keeps its buffers between searches, so the
/// fast 9x9 solver allocates nothing per puzzle except the solution grid it returns.
#[derive(Debug, Default)]
pub struct Solver {
    band: band::BandSolver,
}

impl Solver {
    /// A solver with empty buffers.
    pub fn new() -> Solver {
        Solver::default()
    }

    /// Like [`search`], reusing this solver's buffers.
    pub fn search(&mut self, grid: &Grid, options: &Options) -> Report {
        match options.method {
            Method::Fast if grid.shape() == Shape::CLASSIC => {
                timed(options, || self.band.search(grid, options))
            }
            _ => search(grid, options),
        }
    }
}

#[cfg(test)]
mod tests;
