//! The sliding-tile puzzle as a [`Space`], with its heuristics computed incrementally.

use std::hash::{Hash, Hasher};

use super::board::{Board, Dir, Goal};
use super::packed::Word;
use crate::space::{Cost, Reversible, Space, Step};

/// No neighbour in that direction.
const NONE: u8 = u8::MAX;

/// A position, packed (see [`super::packed`]), with its heuristic value.
///
/// Equality and hashing look at `cells` only: `pos` and `h` are functions of it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct State<W> {
    pub(crate) cells: W,
    pub(crate) pos: W,
    pub(crate) h: u16,
}

impl<W: Word> PartialEq for State<W> {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        self.cells == other.cells
    }
}

impl<W: Word> Eq for State<W> {}

impl<W: Word> Hash for State<W> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.cells.hash(state);
    }
}

/// The board's shape: sides, neighbours and goal cells.
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    pub(crate) n: usize,
    pub(crate) cells: usize,
    pub(crate) goal: Goal,
    /// `neighbors[cell][d]`: the cell the blank reaches from `cell` in direction
    /// `Dir::ALL[d]`, or `NONE`.
    neighbors: Vec<[u8; 4]>,
    /// Goal row and column of each tile.
    goal_row: Vec<u8>,
    goal_col: Vec<u8>,
}

impl Geometry {
    pub(crate) fn new(n: usize, goal: Goal) -> Geometry {
        let cells = n * n;
        let neighbors =
            (0..cells).map(|c| Dir::ALL.map(|d| d.step(c, n).map_or(NONE, |x| x as u8))).collect();
        let goal_row = (0..cells).map(|t| (goal.cell_of(t, cells) / n) as u8).collect();
        let goal_col = (0..cells).map(|t| (goal.cell_of(t, cells) % n) as u8).collect();
        Geometry { n, cells, goal, neighbors, goal_row, goal_col }
    }

    /// The cells next to `cell` (`u8::MAX` where the board ends), in the order of
    /// [`Dir::ALL`].
    #[inline(always)]
    pub(crate) fn neighbors(&self, cell: usize) -> &[u8; 4] {
        &self.neighbors[cell]
    }

    /// The packed state of a board.
    pub(crate) fn pack<W: Word, H: TileHeuristic<W>>(&self, board: &Board, h: &H) -> State<W> {
        let cells = W::from_fields(board.tiles());
        let mut pos = vec![0u8; self.cells];
        for (c, &t) in board.tiles().iter().enumerate() {
            pos[usize::from(t)] = c as u8;
        }
        let pos = W::from_fields(&pos);
        State { cells, pos, h: h.full(self, cells, pos) }
    }

    /// The cells of the goal, packed.
    pub(crate) fn goal_cells<W: Word>(&self) -> W {
        W::from_fields(Board::goal(self.n, self.goal).tiles())
    }
}

/// One move, as a heuristic sees it: tile `tile` slid from cell `from` to cell `to`, giving
/// the packed words `cells` and `pos`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slid<W> {
    pub(crate) tile: usize,
    pub(crate) from: usize,
    pub(crate) to: usize,
    pub(crate) cells: W,
    pub(crate) pos: W,
}

/// A heuristic that can be updated after one move.
pub(crate) trait TileHeuristic<W: Word> {
    /// The value of a position.
    fn full(&self, geo: &Geometry, cells: W, pos: W) -> u16;

    /// The value after the move `m` from `parent`.
    fn after_move(&self, geo: &Geometry, parent: &State<W>, m: &Slid<W>) -> u16;
}

/// Manhattan distance: the sum over tiles of their taxicab distance to their goal cells.
#[derive(Clone, Debug)]
pub(crate) struct Manhattan {
    /// `table[tile * cells + cell]`, 0 for the blank.
    table: Vec<u8>,
    cells: usize,
}

impl Manhattan {
    pub(crate) fn new(geo: &Geometry) -> Manhattan {
        let (n, cells) = (geo.n, geo.cells);
        let mut table = vec![0u8; cells * cells];
        for t in 1..cells {
            let g = geo.goal.cell_of(t, cells);
            for c in 0..cells {
                table[t * cells + c] = ((c / n).abs_diff(g / n) + (c % n).abs_diff(g % n)) as u8;
            }
        }
        Manhattan { table, cells }
    }

    #[inline(always)]
    fn distance(&self, tile: usize, cell: usize) -> u16 {
        u16::from(self.table[tile * self.cells + cell])
    }
}

impl<W: Word> TileHeuristic<W> for Manhattan {
    fn full(&self, geo: &Geometry, cells: W, _: W) -> u16 {
        (0..geo.cells).map(|c| self.distance(cells.get(c), c)).sum()
    }

    #[inline(always)]
    fn after_move(&self, _: &Geometry, parent: &State<W>, m: &Slid<W>) -> u16 {
        // parent.h includes distance(tile, from), so this cannot underflow.
        parent.h - self.distance(m.tile, m.from) + self.distance(m.tile, m.to)
    }
}

/// Manhattan distance plus linear conflicts (Hansson, Mayer and Yung 1992).
///
/// Two tiles in their goal row (or column) but in the wrong order there cannot pass each
/// other without one leaving the line, which costs two moves that Manhattan distance does
/// not count. For each line, the fewest tiles to take out so that the rest are in order is
/// the number of such tiles minus the longest increasing subsequence of their goal places;
/// each costs 2. Row conflicts are resolved by vertical moves and column conflicts by
/// horizontal ones, so the two sums add, and the total stays admissible.
///
/// After a move only two lines change: a vertical move changes two rows (the tile leaves one
/// and enters the other) and no column's order; a horizontal move, two columns.
#[derive(Clone, Debug)]
pub(crate) struct LinearConflict {
    manhattan: Manhattan,
    /// For sides up to 4 (4-bit fields): the conflicts of every possible line content,
    /// indexed by `(kind * n + line) << 4n | content`, where `kind` is 1 for rows and 0 for
    /// columns and `content` the line's tiles packed 4 bits each. Empty for the 24-puzzle,
    /// whose lines are computed directly. (Measured on Korf's instances: the table makes
    /// IDA* with linear conflicts four times faster than computing the two lines before and
    /// after each move.)
    table: Vec<u8>,
}

impl LinearConflict {
    pub(crate) fn new(geo: &Geometry) -> LinearConflict {
        let n = geo.n;
        let mut table = Vec::new();
        if n <= 4 {
            let size = 1usize << (4 * n);
            table = vec![0u8; 2 * n * size];
            let mut tiles = [0usize; 4];
            for kind in 0..2 {
                for line in 0..n {
                    for content in 0..size {
                        for (j, t) in tiles.iter_mut().enumerate().take(n) {
                            *t = (content >> (4 * j)) & 0xf;
                        }
                        table[((kind * n + line) << (4 * n)) | content] =
                            Self::conflicts(geo, &tiles[..n], kind == 1, line) as u8;
                    }
                }
            }
        }
        LinearConflict { manhattan: Manhattan::new(geo), table }
    }

    /// The tiles to take out of row (`row == true`) or column `line` holding `tiles` in
    /// order (numbers not below the cell count are ignored).
    fn conflicts(geo: &Geometry, tiles: &[usize], row: bool, line: usize) -> usize {
        let mut seq = [0u8; 8];
        let mut k = 0;
        for &t in tiles {
            if t == 0 || t >= geo.cells {
                continue;
            }
            let (goal_line, goal_place) = if row {
                (geo.goal_row[t], geo.goal_col[t])
            } else {
                (geo.goal_col[t], geo.goal_row[t])
            };
            if usize::from(goal_line) == line {
                seq[k] = goal_place;
                k += 1;
            }
        }
        // Longest increasing subsequence, O(k²) for k <= 5.
        let mut best = [0u8; 8];
        let mut lis = 0;
        for i in 0..k {
            let mut b = 1;
            for j in 0..i {
                if seq[j] < seq[i] && best[j] + 1 > b {
                    b = best[j] + 1;
                }
            }
            best[i] = b;
            lis = lis.max(b);
        }
        k - usize::from(lis)
    }

    /// The tiles to take out of row (`row == true`) or column `line` of `cells`.
    #[inline(always)]
    fn line<W: Word>(&self, geo: &Geometry, cells: W, row: bool, line: usize) -> u16 {
        let n = geo.n;
        if W::BITS == 4 && !self.table.is_empty() {
            let content = if row {
                cells.fields(line * n, n)
            } else {
                (0..n).fold(0, |v, j| v | (cells.get(j * n + line) << (4 * j)))
            };
            return u16::from(self.table[((usize::from(row) * n + line) << (4 * n)) | content]);
        }
        let mut tiles = [0usize; 8];
        for (j, t) in tiles.iter_mut().enumerate().take(n) {
            *t = cells.get(if row { line * n + j } else { j * n + line });
        }
        Self::conflicts(geo, &tiles[..n], row, line) as u16
    }
}

impl<W: Word> TileHeuristic<W> for LinearConflict {
    fn full(&self, geo: &Geometry, cells: W, pos: W) -> u16 {
        let md = <Manhattan as TileHeuristic<W>>::full(&self.manhattan, geo, cells, pos);
        let lc: u16 = (0..geo.n)
            .map(|i| self.line(geo, cells, true, i) + self.line(geo, cells, false, i))
            .sum();
        md + 2 * lc
    }

    #[inline]
    fn after_move(&self, geo: &Geometry, parent: &State<W>, m: &Slid<W>) -> u16 {
        let (n, tile, from, to, cells) = (geo.n, m.tile, m.from, m.to, m.cells);
        let (a, b, row) = if from / n == to / n {
            (from % n, to % n, false) // horizontal move: two columns change
        } else {
            (from / n, to / n, true) // vertical move: two rows change
        };
        let before = self.line(geo, parent.cells, row, a) + self.line(geo, parent.cells, row, b);
        let after = self.line(geo, cells, row, a) + self.line(geo, cells, row, b);
        let h = i32::from(parent.h) - i32::from(self.manhattan.distance(tile, from))
            + i32::from(self.manhattan.distance(tile, to))
            + 2 * (i32::from(after) - i32::from(before));
        h as u16
    }
}

/// The puzzle as a search space.
#[derive(Debug)]
pub(crate) struct TileSpace<'a, W, H> {
    pub(crate) geo: &'a Geometry,
    pub(crate) goal_cells: W,
    pub(crate) heuristic: &'a H,
}

impl<W: Word, H: TileHeuristic<W>> TileSpace<'_, W, H> {
    /// The successors of `s`, except the one whose blank is on cell `skip`.
    #[inline(always)]
    fn moves(&self, s: &State<W>, skip: usize, out: &mut Vec<Step<State<W>, Dir>>) {
        let b = s.pos.get(0);
        let around = self.geo.neighbors(b);
        for (d, &c) in around.iter().enumerate() {
            let c = usize::from(c);
            if c == usize::from(NONE) || c == skip {
                continue;
            }
            let t = s.cells.get(c);
            let cells = s.cells.xor(c, t).xor(b, t);
            let pos = s.pos.xor(t, b ^ c).xor(0, b ^ c);
            let h = self.heuristic.after_move(
                self.geo,
                s,
                &Slid { tile: t, from: c, to: b, cells, pos },
            );
            out.push(Step { mv: Dir::ALL[d], state: State { cells, pos, h }, cost: 1 });
        }
    }
}

impl<W: Word, H: TileHeuristic<W>> Space for TileSpace<'_, W, H> {
    type State = State<W>;
    type Move = Dir;

    #[inline(always)]
    fn successors(&self, s: &State<W>, out: &mut Vec<Step<State<W>, Dir>>) {
        self.moves(s, usize::MAX, out);
    }

    #[inline(always)]
    fn successors_except(
        &self,
        s: &State<W>,
        parent: &State<W>,
        out: &mut Vec<Step<State<W>, Dir>>,
    ) {
        // The parent's blank is where the reverse move would put the blank back.
        self.moves(s, parent.pos.get(0), out);
    }

    #[inline(always)]
    fn is_goal(&self, s: &State<W>) -> bool {
        s.cells == self.goal_cells
    }

    #[inline(always)]
    fn heuristic(&self, s: &State<W>) -> Cost {
        Cost::from(s.h)
    }
}

impl<W: Word, H: TileHeuristic<W>> Reversible for TileSpace<'_, W, H> {
    fn goal_state(&self) -> State<W> {
        self.geo.pack(&Board::goal(self.geo.n, self.geo.goal), self.heuristic)
    }
}
