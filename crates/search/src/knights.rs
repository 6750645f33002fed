//! The knight puzzle (Luogu P2324, SCOI 2005 "骑士精神"): 12 white and 12 black knights and
//! one blank on a 5x5 board; a move jumps a knight into the blank. How few moves reach the
//! target position, if at most 15?
//!
//! ```text
//! target     1 = white, 0 = black, * = blank
//! 11111
//! 01111
//! 00*11
//! 00001
//! 00000
//! ```
//!
//! # Method
//!
//! [`ida_star`](crate::ida_star) over [`KnightSpace`], with h = the number of knights not on
//! a square of their colour in the target (a knight on the target's blank square counts).
//! A move moves one knight, so it changes h by at most one: h is admissible (and
//! consistent). The bound stops at 15 ([`MAX_MOVES`]): beyond it the answer is -1. A board
//! without exactly 12 white and 12 black knights can never reach the target and is answered
//! at once.
//!
//! ```
//! use dancecard_search::knights::{self, Board};
//!
//! let board: Board = "10110\n01*11\n10111\n01001\n00000".parse()?;
//! let answer = knights::solve(&board, knights::MAX_MOVES, &Default::default());
//! assert_eq!(answer.moves.map(|m| m.len()), Some(7));
//! # Ok::<(), knights::KnightsError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::space::{Cost, Space, Step};
use crate::stats::{Budget, Stats, Stop};

/// The board side.
pub const SIDE: usize = 5;
/// The most moves the puzzle asks about.
pub const MAX_MOVES: u32 = 15;

const CELLS: usize = SIDE * SIDE;

/// The target, row by row.
pub const TARGET: [&str; SIDE] = ["11111", "01111", "00*11", "00001", "00000"];

/// An error in a board or in the puzzle's input format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum KnightsError {
    /// A row is not five characters of `0`, `1` and `*`.
    #[error("row {row}: expected five characters 0, 1 or *, found {text:?}")]
    Row {
        /// The row (1-based within the board).
        row: usize,
        /// What was there.
        text: String,
    },
    /// The board does not have exactly one blank.
    #[error("a board needs exactly one blank '*', found {0}")]
    Blanks(usize),
    /// The board has fewer than five rows.
    #[error("a board has five rows, found {0}")]
    Rows(usize),
    /// A board of the input is bad: where, and why.
    #[error("line {line} (board {board}): {error}")]
    Board {
        /// The board (1-based).
        board: usize,
        /// The input line (1-based) of the bad row, or of the board's first row (the line
        /// after the input's end for a board cut short).
        line: usize,
        /// What is wrong with it.
        error: Box<KnightsError>,
    },
    /// The first line is not the number of boards.
    #[error("line {line}: expected the number of boards, found {text:?}")]
    Count {
        /// The line (1-based).
        line: usize,
        /// What was there.
        text: String,
    },
}

/// A position: the white knights' squares and the blank's square (the rest are black).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    white: u32,
    blank: u8,
}

impl Board {
    /// The target position.
    pub fn target() -> Board {
        parse_rows(&TARGET).unwrap_or(Board { white: 0, blank: 12 })
    }

    /// The square of the blank (row-major, 0 to 24).
    pub fn blank(&self) -> usize {
        usize::from(self.blank)
    }

    /// Whether a white knight is on `square`.
    pub fn is_white(&self, square: usize) -> bool {
        self.white >> square & 1 == 1
    }

    /// The position after jumping the knight on `square` into the blank (no check that the
    /// jump is a knight's move).
    pub fn jump(&self, square: usize) -> Board {
        let b = self.blank();
        let white =
            if self.is_white(square) { self.white & !(1 << square) | (1 << b) } else { self.white };
        Board { white, blank: square as u8 }
    }
}

fn parse_rows<S: AsRef<str>>(rows: &[S]) -> Result<Board, KnightsError> {
    if rows.len() != SIDE {
        return Err(KnightsError::Rows(rows.len()));
    }
    let mut white = 0u32;
    let mut blanks = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let text = row.as_ref().trim();
        let bad = || KnightsError::Row { row: r + 1, text: text.to_owned() };
        if text.chars().count() != SIDE {
            return Err(bad());
        }
        for (c, ch) in text.chars().enumerate() {
            match ch {
                '1' => white |= 1 << (r * SIDE + c),
                '0' => {}
                '*' => blanks.push(r * SIDE + c),
                _ => return Err(bad()),
            }
        }
    }
    match blanks[..] {
        [b] => Ok(Board { white, blank: b as u8 }),
        _ => Err(KnightsError::Blanks(blanks.len())),
    }
}

impl FromStr for Board {
    type Err = KnightsError;

    /// Five non-empty lines of five characters `0`, `1`, `*`.
    fn from_str(s: &str) -> Result<Board, KnightsError> {
        let rows: Vec<&str> = s.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        parse_rows(&rows)
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..SIDE {
            for c in 0..SIDE {
                let s = r * SIDE + c;
                let ch = if s == self.blank() {
                    '*'
                } else if self.is_white(s) {
                    '1'
                } else {
                    '0'
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Parses the puzzle's input: the number of boards T, then T boards of five lines each.
/// Blank lines are ignored.
pub fn parse_cases(text: &str) -> Result<Vec<Board>, KnightsError> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let Some((at, first)) = lines.next() else {
        return Ok(Vec::new());
    };
    let count: usize = first
        .trim()
        .parse()
        .map_err(|_| KnightsError::Count { line: at + 1, text: first.trim().to_owned() })?;
    let end = text.lines().count() + 1;
    let mut boards = Vec::new();
    for board in 1..=count {
        let taken: Vec<(usize, &str)> = lines.by_ref().take(SIDE).collect();
        let rows: Vec<&str> = taken.iter().map(|&(_, l)| l).collect();
        let board = parse_rows(&rows).map_err(|error| {
            let at = match error {
                KnightsError::Row { row, .. } => taken.get(row - 1),
                KnightsError::Rows(_) => None,
                _ => taken.first(),
            };
            let line = at.map_or(end, |&(i, _)| i + 1);
            KnightsError::Board { board, line, error: Box::new(error) }
        })?;
        boards.push(board);
    }
    Ok(boards)
}

/// The knight moves from each square.
fn jumps() -> [Vec<u8>; CELLS] {
    std::array::from_fn(|s| {
        let (r, c) = ((s / SIDE) as i32, (s % SIDE) as i32);
        [(-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)]
            .iter()
            .filter_map(|&(dr, dc)| {
                let (r, c) = (r + dr, c + dc);
                ((0..SIDE as i32).contains(&r) && (0..SIDE as i32).contains(&c))
                    .then(|| (r as usize * SIDE + c as usize) as u8)
            })
            .collect()
    })
}

/// The puzzle as a search space: a move is the square of the knight that jumps.
#[derive(Debug)]
pub struct KnightSpace {
    target: Board,
    jumps: [Vec<u8>; CELLS],
}

impl KnightSpace {
    /// The space with the standard target.
    pub fn new() -> KnightSpace {
        KnightSpace { target: Board::target(), jumps: jumps() }
    }
}

impl Default for KnightSpace {
    fn default() -> Self {
        KnightSpace::new()
    }
}

impl Space for KnightSpace {
    type State = Board;
    type Move = u8;

    fn successors(&self, s: &Board, out: &mut Vec<Step<Board, u8>>) {
        for &sq in &self.jumps[s.blank()] {
            out.push(Step { mv: sq, state: s.jump(usize::from(sq)), cost: 1 });
        }
    }

    fn is_goal(&self, s: &Board) -> bool {
        *s == self.target
    }

    fn heuristic(&self, s: &Board) -> Cost {
        let t = &self.target;
        let ignore = (1u32 << s.blank) | (1u32 << t.blank);
        let wrong_colour = ((s.white ^ t.white) & !ignore).count_ones();
        Cost::from(wrong_colour + u32::from(s.blank != t.blank))
    }
}

/// The answer for one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The squares of the knights that jump, in order (`None`: the target is more than
    /// `max_moves` away, or unreachable; the puzzle prints -1).
    pub moves: Option<Vec<u8>>,
    /// Why the search stopped ([`Stop::Found`], [`Stop::CostLimit`] or
    /// [`Stop::Exhausted`] when answered; a limit otherwise).
    pub stop: Stop,
    /// Work counters.
    pub stats: Stats,
}

impl Answer {
    /// The puzzle's output: the number of moves, or -1.
    pub fn value(&self) -> i64 {
        self.moves.as_ref().map_or(-1, |m| m.len() as i64)
    }
}

/// The fewest moves from `board` to the target, if at most `max_moves`.
pub fn solve(board: &Board, max_moves: u32, limits: &Budget) -> Answer {
    if board.white.count_ones() != Board::target().white.count_ones() {
        // The pieces never change colour: the target is unreachable.
        return Answer { moves: None, stop: Stop::Exhausted, stats: Stats::default() };
    }
    let limits = limits.clone().max_cost(Cost::from(max_moves));
    let result = crate::ida_star(&KnightSpace::new(), *board, &limits);
    Answer { moves: result.path.map(|p| p.moves), stop: result.stop, stats: result.stats }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_is_zero_moves_and_one_jump_is_one() {
        let t = Board::target();
        assert_eq!(solve(&t, MAX_MOVES, &Budget::new()).value(), 0);
        let one = t.jump(1); // (0,1) jumps to the centre
        assert_eq!(solve(&one, MAX_MOVES, &Budget::new()).value(), 1);
        assert_eq!(t.to_string(), TARGET.join("\n") + "\n");
    }

    #[test]
    fn bad_boards_are_errors() {
        assert_eq!(
            "11111\n01111\n00011\n00001\n00000".parse::<Board>(),
            Err(KnightsError::Blanks(0))
        );
        assert!(matches!(
            "1111\n01111\n00*11\n00001\n00000".parse::<Board>(),
            Err(KnightsError::Row { row: 1, .. })
        ));
        assert!(matches!(
            "11111\n01111\n00*11\n00001".parse::<Board>(),
            Err(KnightsError::Rows(4))
        ));
        assert!(matches!(parse_cases("x\n"), Err(KnightsError::Count { line: 1, .. })));
        let e = parse_cases("2\n11111\n01111\n00*11\n00001\n00000\n").unwrap_err();
        assert_eq!(e.to_string(), "line 7 (board 2): a board has five rows, found 0");
        let e = parse_cases(
            "2\n11111\n01111\n00*11\n00001\n00000\n\n1111*\n01x10\n00000\n00000\n00000\n",
        )
        .unwrap_err();
        assert!(e.to_string().starts_with("line 9 (board 2): row 2: expected five"), "{e}");
        let e = parse_cases("1\n11111\n01111\n00011\n00001\n00000\n").unwrap_err();
        assert_eq!(e.to_string(), "line 2 (board 1): a board needs exactly one blank '*', found 0");
    }

    #[test]
    fn wrong_piece_counts_are_unreachable() {
        let b: Board = "11111\n11111\n00*11\n00001\n00000".parse().unwrap();
        assert_eq!(solve(&b, MAX_MOVES, &Budget::new()).value(), -1);
    }

    #[test]
    fn answers_match_breadth_first_search() {
        // Random walks from the target; BFS gives the true distance.
        let space = KnightSpace::new();
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        for walk in 0..40 {
            let mut b = Board::target();
            for _ in 0..(walk % 12) {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let options = &space.jumps[b.blank()];
                b = b.jump(usize::from(options[rng as usize % options.len()]));
            }
            let by_bfs = crate::bfs(&space, b, &Budget::new()).path.unwrap().moves.len();
            let answer = solve(&b, MAX_MOVES, &Budget::new());
            assert_eq!(answer.value(), by_bfs as i64, "{b}");
            let mut replay = b;
            for &sq in answer.moves.as_ref().unwrap() {
                assert!(space.jumps[replay.blank()].contains(&sq));
                replay = replay.jump(usize::from(sq));
            }
            assert_eq!(replay, Board::target());
        }
    }
}
