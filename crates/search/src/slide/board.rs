//! Boards, goals, moves and solvability.

use std::fmt;
use std::str::FromStr;

use super::SlideError;

/// The smallest board side (the 3-puzzle).
pub const MIN_SIDE: usize = 2;
/// The largest board side (the 24-puzzle): a state must pack into 128 bits.
pub const MAX_SIDE: usize = 5;

/// Where the blank goes in the solved position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Goal {
    /// `0 1 2 ... n²-1`: the blank top-left (Korf's 100 instances use this goal).
    #[default]
    BlankFirst,
    /// `1 2 ... n²-1 0`: the blank bottom-right.
    BlankLast,
}

impl Goal {
    /// The cell of tile `t` (0 for the blank) in the goal of a board of `cells` cells.
    pub fn cell_of(self, t: usize, cells: usize) -> usize {
        match self {
            Goal::BlankFirst => t,
            Goal::BlankLast => (t + cells - 1) % cells,
        }
    }

    /// `blank-first` or `blank-last`.
    pub fn name(self) -> &'static str {
        match self {
            Goal::BlankFirst => "blank-first",
            Goal::BlankLast => "blank-last",
        }
    }
}

/// A move: the direction the blank moves (the tile there slides the other way).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// The blank moves up one row.
    Up,
    /// The blank moves down one row.
    Down,
    /// The blank moves left one column.
    Left,
    /// The blank moves right one column.
    Right,
}

impl Dir {
    /// The four directions, in the order successors are generated.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Left, Dir::Right, Dir::Down];

    /// `U`, `D`, `L` or `R`.
    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }

    /// The direction of a letter `U`, `D`, `L`, `R` (either case).
    pub fn from_letter(c: char) -> Option<Dir> {
        match c.to_ascii_uppercase() {
            'U' => Some(Dir::Up),
            'D' => Some(Dir::Down),
            'L' => Some(Dir::Left),
            'R' => Some(Dir::Right),
            _ => None,
        }
    }

    /// The cell the blank moves to from `cell` on a board of side `n`, if on the board.
    pub fn step(self, cell: usize, n: usize) -> Option<usize> {
        let (r, c) = (cell / n, cell % n);
        match self {
            Dir::Up if r > 0 => Some(cell - n),
            Dir::Down if r + 1 < n => Some(cell + n),
            Dir::Left if c > 0 => Some(cell - 1),
            Dir::Right if c + 1 < n => Some(cell + 1),
            _ => None,
        }
    }
}

/// A position of an `n x n` sliding-tile puzzle: `n²` numbers row-major, each of `0..n²`
/// once, 0 for the blank.
///
/// ```
/// use dancecard_search::slide::{Board, Dir, Goal};
///
/// let board: Board = "1 2 3 4 0 5 6 7 8".parse()?;
/// assert_eq!(board.side(), 3);
/// assert_eq!(board.blank(), 4);
/// let moved = board.apply(&[Dir::Left]).unwrap();
/// assert_eq!(moved.tiles(), [1, 2, 3, 0, 4, 5, 6, 7, 8]);
/// assert!(board.is_solvable(Goal::BlankFirst));
/// # Ok::<(), dancecard_search::slide::SlideError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    side: usize,
    tiles: Vec<u8>,
}

impl Board {
    /// Checks that `tiles` is a position of an `n x n` puzzle with `2 <= n <= 5`.
    pub fn new(tiles: Vec<u8>) -> Result<Board, SlideError> {
        let len = tiles.len();
        let side = (1..=MAX_SIDE + 1).find(|s| s * s >= len).unwrap_or(MAX_SIDE + 1);
        if side * side != len {
            return Err(SlideError::NotSquare { len });
        }
        if !(MIN_SIDE..=MAX_SIDE).contains(&side) {
            return Err(SlideError::Size { side });
        }
        let mut seen = vec![false; len];
        for &t in &tiles {
            let t = usize::from(t);
            if t >= len {
                return Err(SlideError::NotPermutation {
                    cells: len,
                    detail: format!("{t} >= {len}"),
                });
            }
            if std::mem::replace(&mut seen[t], true) {
                return Err(SlideError::NotPermutation {
                    cells: len,
                    detail: format!("{t} twice"),
                });
            }
        }
        Ok(Board { side, tiles })
    }

    /// The solved position of side `n` (which must be in `2..=5`).
    ///
    /// # Panics
    ///
    /// If `n` is out of range.
    pub fn goal(n: usize, goal: Goal) -> Board {
        assert!((MIN_SIDE..=MAX_SIDE).contains(&n), "board side {n} out of range");
        let cells = n * n;
        let mut tiles = vec![0u8; cells];
        for t in 0..cells {
            tiles[goal.cell_of(t, cells)] = t as u8;
        }
        Board { side: n, tiles }
    }

    /// The side `n`.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The tiles, row-major (0 for the blank).
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The blank's cell.
    pub fn blank(&self) -> usize {
        self.tiles.iter().position(|&t| t == 0).unwrap_or(0)
    }

    /// The position after `moves`, or `None` if one moves the blank off the board.
    pub fn apply(&self, moves: &[Dir]) -> Option<Board> {
        let mut board = self.clone();
        let mut b = board.blank();
        for &d in moves {
            let c = d.step(b, self.side)?;
            board.tiles.swap(b, c);
            b = c;
        }
        Some(board)
    }

    /// The tiles slid by `moves`, in order (the tile on the cell the blank moves to).
    pub fn tiles_moved(&self, moves: &[Dir]) -> Option<Vec<u8>> {
        let mut board = self.clone();
        let mut b = board.blank();
        let mut out = Vec::with_capacity(moves.len());
        for &d in moves {
            let c = d.step(b, self.side)?;
            out.push(board.tiles[c]);
            board.tiles.swap(b, c);
            b = c;
        }
        Some(out)
    }

    /// Whether `goal` can be reached.
    ///
    /// Every move is a transposition of two cells (the blank and a tile) and moves the blank
    /// one step; so the parity of the permutation taking this position to the goal always
    /// equals the parity of the blank's taxicab distance to its goal cell. The condition is
    /// also sufficient (Johnson and Story, 1879), for every side.
    pub fn is_solvable(&self, goal: Goal) -> bool {
        let cells = self.tiles.len();
        let n = self.side;
        // perm[i]: the goal cell of the tile on cell i.
        let perm: Vec<usize> =
            self.tiles.iter().map(|&t| goal.cell_of(usize::from(t), cells)).collect();
        let mut seen = vec![false; cells];
        let mut transpositions = 0;
        for start in 0..cells {
            let mut len = 0usize;
            let mut i = start;
            while !seen[i] {
                seen[i] = true;
                i = perm[i];
                len += 1;
            }
            transpositions += len.saturating_sub(1);
        }
        let b = self.blank();
        let g = goal.cell_of(0, cells);
        let distance = (b / n).abs_diff(g / n) + (b % n).abs_diff(g % n);
        transpositions % 2 == distance % 2
    }
}

impl FromStr for Board {
    type Err = SlideError;

    /// Parses numbers separated by spaces, commas or newlines.
    fn from_str(s: &str) -> Result<Board, SlideError> {
        let mut tiles = Vec::new();
        for word in s.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()) {
            let t: u8 = word.parse().map_err(|_| SlideError::Parse { word: word.to_owned() })?;
            tiles.push(t);
        }
        Board::new(tiles)
    }
}

impl fmt::Display for Board {
    /// Rows on separate lines, numbers right-aligned.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = if self.tiles.len() > 10 { 2 } else { 1 };
        for row in self.tiles.chunks(self.side) {
            let line: Vec<String> = row.iter().map(|t| format!("{t:>width$}")).collect();
            writeln!(f, "{}", line.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        assert!("0 1 2 3".parse::<Board>().is_ok());
        assert!(matches!("0 1 2".parse::<Board>(), Err(SlideError::NotSquare { len: 3 })));
        assert!(matches!("0".parse::<Board>(), Err(SlideError::Size { side: 1 })));
        assert!(matches!("0 1 1 3".parse::<Board>(), Err(SlideError::NotPermutation { .. })));
        assert!(matches!("0 1 2 4".parse::<Board>(), Err(SlideError::NotPermutation { .. })));
        assert!(matches!("0 1 x 3".parse::<Board>(), Err(SlideError::Parse { .. })));
        assert!(matches!("0 1 2 300".parse::<Board>(), Err(SlideError::Parse { .. })));
        let big: Vec<u8> = (0..36).collect();
        assert!(matches!(Board::new(big), Err(SlideError::Size { side: 6 })));
        let huge: Vec<u8> = (0..200).collect();
        assert!(matches!(Board::new(huge), Err(SlideError::NotSquare { .. })));
    }

    #[test]
    fn solvability_follows_the_parity_rule() {
        for goal in [Goal::BlankFirst, Goal::BlankLast] {
            for n in 2..=5 {
                let g = Board::goal(n, goal);
                assert!(g.is_solvable(goal));
                // Swapping two tiles (not the blank) flips solvability.
                let mut t = g.tiles().to_vec();
                let (a, b) = if goal == Goal::BlankFirst { (1, 2) } else { (0, 1) };
                t.swap(a, b);
                assert!(!Board::new(t).unwrap().is_solvable(goal));
            }
        }
        // 4x4: 1..15,0 is a cyclic shift of 0..15 (15 transpositions) with the blank 6 steps
        // away: unreachable. 3x3: 8 transpositions, 4 steps: reachable.
        assert!(!Board::goal(4, Goal::BlankLast).is_solvable(Goal::BlankFirst));
        assert!(Board::goal(3, Goal::BlankLast).is_solvable(Goal::BlankFirst));
    }
}
