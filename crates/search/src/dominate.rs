//! Chessboard domination: the fewest pieces of one kind that attack or occupy every square
//! (or every marked square, as in UVa 11214 "Guarding the Chessboard").
//!
//! A minimum repeat cover ([`crate::cover`]): the items are the squares to guard, and each
//! square a piece may stand on is an option covering itself and the squares it attacks.
//! Known values (OEIS A075458 for queens; kings `ceil(n/3)²`; rooks and bishops `n`) are the
//! tests.
//!
//! ```
//! use dancecard_search::dominate::{self, Board, Piece};
//!
//! let d = dominate::dominate(Piece::Queen, Board::all(5, 5), &Default::default())?;
//! assert_eq!(d.minimum, Some(3));
//! # Ok::<(), dominate::DominateError>(())
//! ```

use std::fmt::Write;

use crate::cover::{self, CoverError};
use crate::stats::{Budget, Stats, Stop};

/// The largest board side.
pub const MAX_SIDE: usize = 64;

/// A chess piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// Any distance along ranks, files and diagonals.
    Queen,
    /// One step in any of eight directions.
    King,
    /// Any distance along ranks and files.
    Rook,
    /// Any distance along diagonals.
    Bishop,
    /// The eight L-shaped jumps.
    Knight,
}

impl Piece {
    /// The piece's letter on a drawn board.
    pub fn letter(self) -> char {
        match self {
            Piece::Queen => 'Q',
            Piece::King => 'K',
            Piece::Rook => 'R',
            Piece::Bishop => 'B',
            Piece::Knight => 'N',
        }
    }

    /// `queen`, `king`, `rook`, `bishop` or `knight`.
    pub fn name(self) -> &'static str {
        match self {
            Piece::Queen => "queen",
            Piece::King => "king",
            Piece::Rook => "rook",
            Piece::Bishop => "bishop",
            Piece::Knight => "knight",
        }
    }
}

/// An error of this module.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DominateError {
    /// A side is 0 or above [`MAX_SIDE`].
    #[error("board sides must be 1 to {MAX_SIDE} (got {rows} x {cols})")]
    Size {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// The marks do not match the board.
    #[error("{0}")]
    Marks(String),
    /// The input is not in the expected format.
    #[error("line {line}: {message}")]
    Parse {
        /// The line (1-based).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The cover problem could not be built.
    #[error(transparent)]
    Cover(#[from] CoverError),
}

/// The squares a piece on `(r, c)` attacks or occupies, row-major indices.
pub fn guarded(piece: Piece, rows: usize, cols: usize, r: usize, c: usize) -> Vec<usize> {
    let (rows_i, cols_i) = (rows as i64, cols as i64);
    let inside = |r: i64, c: i64| (0..rows_i).contains(&r) && (0..cols_i).contains(&c);
    let mut out = vec![r * cols + c];
    let (r, c) = (r as i64, c as i64);
    let ray = |dr: i64, dc: i64, far: bool, out: &mut Vec<usize>| {
        let (mut y, mut x) = (r + dr, c + dc);
        while inside(y, x) {
            out.push(y as usize * cols + x as usize);
            if !far {
                break;
            }
            y += dr;
            x += dc;
        }
    };
    const STRAIGHT: [(i64, i64); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    const DIAGONAL: [(i64, i64); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    const JUMPS: [(i64, i64); 8] =
        [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)];
    match piece {
        Piece::Queen => {
            STRAIGHT.iter().chain(&DIAGONAL).for_each(|&(a, b)| ray(a, b, true, &mut out))
        }
        Piece::Rook => STRAIGHT.iter().for_each(|&(a, b)| ray(a, b, true, &mut out)),
        Piece::Bishop => DIAGONAL.iter().for_each(|&(a, b)| ray(a, b, true, &mut out)),
        Piece::King => {
            STRAIGHT.iter().chain(&DIAGONAL).for_each(|&(a, b)| ray(a, b, false, &mut out))
        }
        Piece::Knight => JUMPS.iter().for_each(|&(a, b)| ray(a, b, false, &mut out)),
    }
    out
}

/// A minimum dominating placement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Domination {
    /// The minimum number of pieces (`None` if a limit stopped the search).
    pub minimum: Option<usize>,
    /// The squares `(row, column)` of one minimum placement, sorted.
    pub placement: Vec<(usize, usize)>,
    /// Why the search stopped.
    pub stop: Stop,
    /// Work counters of the repeat cover search.
    pub stats: Stats,
}

/// The board of a domination problem: `rows x cols` squares, every one to be guarded or,
/// with `marked` (row-major, `rows * cols` long), those marked `true`. Pieces may stand on
/// any square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board<'a> {
    /// The number of rows.
    pub rows: usize,
    /// The number of columns.
    pub cols: usize,
    /// The squares to guard, row-major (`None`: all of them).
    pub marked: Option<&'a [bool]>,
}

impl<'a> Board<'a> {
    /// A `rows x cols` board whose every square is to be guarded.
    pub fn all(rows: usize, cols: usize) -> Self {
        Board { rows, cols, marked: None }
    }

    /// A `rows x cols` board whose squares marked `true` (row-major) are to be guarded.
    pub fn marked(rows: usize, cols: usize, marked: &'a [bool]) -> Self {
        Board { rows, cols, marked: Some(marked) }
    }

    /// A board of marks as [`parse_marks`] and [`parse_guard_cases`] give them.
    pub fn of_marks(marks: &'a Marks) -> Self {
        Board::marked(marks.0, marks.1, &marks.2)
    }

    /// Whether square `s` (row-major) is to be guarded.
    fn is_marked(&self, s: usize) -> bool {
        self.marked.map_or(true, |m| m[s])
    }
}

/// The fewest `piece`s on `board` that guard every square to be guarded.
pub fn dominate(
    piece: Piece,
    board: Board<'_>,
    limits: &Budget,
) -> Result<Domination, DominateError> {
    let Board { rows, cols, marked } = board;
    if !(1..=MAX_SIDE).contains(&rows) || !(1..=MAX_SIDE).contains(&cols) {
        return Err(DominateError::Size { rows, cols });
    }
    let cells = rows * cols;
    if let Some(m) = marked {
        if m.len() != cells {
            return Err(DominateError::Marks(format!(
                "{} marks for a {rows} x {cols} board",
                m.len()
            )));
        }
    }
    // Items: the marked squares, renumbered.
    let mut item_of = vec![usize::MAX; cells];
    let mut items = 0;
    for (s, slot) in item_of.iter_mut().enumerate() {
        if board.is_marked(s) {
            *slot = items;
            items += 1;
        }
    }
    let mut options = Vec::new();
    let mut square_of = Vec::new();
    for s in 0..cells {
        let covered: Vec<usize> = guarded(piece, rows, cols, s / cols, s % cols)
            .into_iter()
            .filter(|&t| board.is_marked(t))
            .map(|t| item_of[t])
            .collect();
        if !covered.is_empty() {
            options.push(covered);
            square_of.push(s);
        }
    }
    let result = cover::min_cover(items, &options, limits)?;
    let mut placement: Vec<(usize, usize)> = result
        .options
        .iter()
        .flatten()
        .map(|&o| (square_of[o] / cols, square_of[o] % cols))
        .collect();
    placement.sort_unstable();
    Ok(Domination {
        minimum: result.options.as_ref().map(Vec::len),
        placement,
        stop: result.stop,
        stats: result.stats,
    })
}

/// `board` drawn with the pieces' letters, `x` on marked empty squares (when marks are
/// given) and `.` elsewhere, one line per row.
pub fn draw(piece: Piece, board: Board<'_>, placement: &[(usize, usize)]) -> String {
    let Board { rows, cols, marked } = board;
    let mut text = String::with_capacity(rows * (2 * cols + 1));
    for r in 0..rows {
        for c in 0..cols {
            if c > 0 {
                text.push(' ');
            }
            let ch = if placement.contains(&(r, c)) {
                piece.letter()
            } else if marked.is_some_and(|m| m.get(r * cols + c) == Some(&true)) {
                'x'
            } else {
                '.'
            };
            text.push(ch);
        }
        text.push('\n');
    }
    text
}

/// Whether every square of `board` to be guarded is guarded by some piece of `placement`.
pub fn check(piece: Piece, board: Board<'_>, placement: &[(usize, usize)]) -> bool {
    let Board { rows, cols, .. } = board;
    let mut guarded_squares = vec![false; rows * cols];
    for &(r, c) in placement {
        for s in guarded(piece, rows, cols, r, c) {
            guarded_squares[s] = true;
        }
    }
    (0..rows * cols).all(|s| guarded_squares[s] || !board.is_marked(s))
}

/// A board of marks: `rows`, `cols` and the marks row-major.
pub type Marks = (usize, usize, Vec<bool>);

/// Parses a board of marks: one line per row, `X` (or `x`) for a square to guard and `.`
/// for one that need not be (spaces between squares are allowed).
pub fn parse_marks(text: &str) -> Result<Marks, DominateError> {
    let mut marks = Vec::new();
    let mut cols = None;
    let mut rows = 0;
    for (i, line) in text.lines().enumerate() {
        let row: String = line.chars().filter(|c| !c.is_whitespace()).collect();
        if row.is_empty() {
            continue;
        }
        let parsed = parse_row(&row, i + 1)?;
        if *cols.get_or_insert(parsed.len()) != parsed.len() {
            return Err(DominateError::Parse {
                line: i + 1,
                message: format!("{} squares, expected {}", parsed.len(), cols.unwrap_or(0)),
            });
        }
        marks.extend(parsed);
        rows += 1;
    }
    let cols = cols.unwrap_or(0);
    if rows == 0 || rows > MAX_SIDE || cols > MAX_SIDE {
        return Err(DominateError::Size { rows, cols });
    }
    Ok((rows, cols, marks))
}

fn parse_row(row: &str, line: usize) -> Result<Vec<bool>, DominateError> {
    row.chars()
        .map(|ch| match ch {
            'X' | 'x' => Ok(true),
            '.' => Ok(false),
            other => Err(DominateError::Parse {
                line,
                message: format!("unexpected {other:?} (use X for a square to guard, . otherwise)"),
            }),
        })
        .collect()
}

/// Parses UVa 11214's input: cases of a line `n m` and `n` lines of `m` characters (`X`
/// marked, `.` not), ended by a line `0` (or the end of the input).
pub fn parse_guard_cases(text: &str) -> Result<Vec<Marks>, DominateError> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let mut cases = Vec::new();
    while let Some((i, head)) = lines.next() {
        let numbers: Vec<&str> = head.split_whitespace().collect();
        if numbers == ["0"] {
            break;
        }
        let bad = |message: String| DominateError::Parse { line: i + 1, message };
        let [n, m] = numbers[..] else {
            return Err(bad(format!("expected `n m` or `0`, found {:?}", head.trim())));
        };
        let (Ok(n), Ok(m)) = (n.parse::<usize>(), m.parse::<usize>()) else {
            return Err(bad(format!("expected two numbers `n m`, found {:?}", head.trim())));
        };
        if !(1..=MAX_SIDE).contains(&n) || !(1..=MAX_SIDE).contains(&m) {
            return Err(bad(DominateError::Size { rows: n, cols: m }.to_string()));
        }
        let mut marks = Vec::with_capacity(n * m);
        for r in 0..n {
            let Some((j, line)) = lines.next() else {
                return Err(bad(format!("the board ends after {r} of {n} rows")));
            };
            let row: String = line.chars().filter(|c| !c.is_whitespace()).collect();
            let parsed = parse_row(&row, j + 1)?;
            if parsed.len() != m {
                return Err(DominateError::Parse {
                    line: j + 1,
                    message: format!("{} squares, expected {m}", parsed.len()),
                });
            }
            marks.extend(parsed);
        }
        cases.push((n, m, marks));
    }
    Ok(cases)
}

/// A placement as JSON-friendly text `[[r, c], ...]` (for messages and tests).
pub fn placement_text(placement: &[(usize, usize)]) -> String {
    let mut s = String::from("[");
    for (i, (r, c)) in placement.iter().enumerate() {
        let _ = write!(s, "{}[{r}, {c}]", if i > 0 { ", " } else { "" });
    }
    s.push(']');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOMINATION: &str = include_str!("../../../testdata/ground-truth/domination_numbers.tsv");

    #[test]
    fn known_domination_numbers() {
        for line in DOMINATION.lines().filter(|l| !l.starts_with('#') && !l.starts_with('n')) {
            let v: Vec<usize> = line.split('\t').map(|x| x.parse().unwrap()).collect();
            let n = v[0];
            for (piece, expected) in
                [(Piece::Queen, v[1]), (Piece::King, v[2]), (Piece::Rook, v[3])]
            {
                let d = dominate(piece, Board::all(n, n), &Budget::new()).unwrap();
                assert_eq!(d.minimum, Some(expected), "{piece:?} n={n}");
                assert!(check(piece, Board::all(n, n), &d.placement), "{piece:?} n={n}");
            }
        }
    }

    #[test]
    fn bishops_and_knights_small() {
        for n in 1..=5 {
            let d = dominate(Piece::Bishop, Board::all(n, n), &Budget::new()).unwrap();
            assert_eq!(d.minimum, Some(n));
        }
        // Knights: 1, 4, 4, 4, 5 for n = 1..5 (OEIS A006075).
        for (n, k) in [(1, 1), (2, 4), (3, 4), (4, 4), (5, 5)] {
            let d = dominate(Piece::Knight, Board::all(n, n), &Budget::new()).unwrap();
            assert_eq!(d.minimum, Some(k), "n={n}");
            assert!(check(Piece::Knight, Board::all(n, n), &d.placement));
        }
    }

    #[test]
    fn marks_and_guard_cases() {
        let diagonal: Vec<bool> = (0..64).map(|s| s / 8 == s % 8).collect();
        let d = dominate(Piece::Queen, Board::marked(8, 8, &diagonal), &Budget::new()).unwrap();
        assert_eq!(d.minimum, Some(1));
        let none = vec![false; 9];
        let d = dominate(Piece::Queen, Board::marked(3, 3, &none), &Budget::new()).unwrap();
        assert_eq!((d.minimum, d.placement.len()), (Some(0), 0));
        let cases = parse_guard_cases("2 3\nX.X\n..X\n1 1\n.\n0\n").unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0], (2, 3, vec![true, false, true, false, false, true]));
        assert!(parse_guard_cases("2 2\nXX\n").is_err());
        assert!(parse_guard_cases("2 2\nXX\nX?\n").is_err());
        assert!(parse_guard_cases("two\n").is_err());
        assert_eq!(parse_marks("X.\n.X\n").unwrap(), (2, 2, vec![true, false, false, true]));
        assert!(parse_marks("X.\nX\n").is_err());
        assert!(parse_marks("").is_err());
        assert!(dominate(Piece::Queen, Board::all(0, 3), &Budget::new()).is_err());
        assert!(dominate(Piece::Queen, Board::marked(2, 2, &[true]), &Budget::new()).is_err());
        assert_eq!(
            draw(Piece::Rook, Board::marked(2, 2, &[true, true, false, false]), &[(0, 1)]),
            "x R\n. .\n"
        );
        assert_eq!(placement_text(&[(0, 1), (2, 3)]), "[[0, 1], [2, 3]]");
    }
}
