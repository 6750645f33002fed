//! The dedicated solver for every shape: one candidate bit set per cell, propagation of naked
//! and hidden singles, and minimum-remaining-values branching. 9x9 grids with 3x3 boxes go to
//! the band solver (`band.rs`), which is several times faster on them.
//!
//! The state is the candidate set of every cell plus a "placed" flag; a guess pushes a copy
//! of the state with the guessed value removed from the cell, and backtracking pops it. Cells
//! are placed through a queue: placing a value removes it from the cell's peers, and a peer
//! left with one candidate joins the queue (naked single). When the queue is empty, every
//! unit (row, column, box) is scanned with bit-sliced counters: a missing value is a
//! contradiction, a value with one possible cell is placed (hidden single).

use super::band::BandSolver;
use super::{Grid, Options, Report, Shape, Stop};

/// Solves or counts `grid` (`micros` left 0 for the caller).
pub(super) fn search(grid: &Grid, options: &Options) -> Report {
    if grid.shape() == Shape::CLASSIC {
        BandSolver::default().search(grid, options)
    } else {
        Generic::new(grid.shape()).search(grid, options)
    }
}

/// A contradiction: the current branch has no solution.
struct Dead;

/// Tables of one shape and the search's buffers.
#[derive(Debug)]
struct Generic {
    shape: Shape,
    /// All values' bits.
    all: u32,
    /// `peers[cell * npeers..][..npeers]`: the other cells of the cell's row, column, box.
    peers: Vec<u16>,
    npeers: usize,
    /// `units[u * side..][..side]`: the cells of unit `u` (rows, then columns, then boxes).
    units: Vec<u16>,
    /// Cells waiting to be placed.
    queue: Vec<u16>,
    /// Saved states: candidates then placed flags, `2 * cells` words each.
    stack: Vec<u32>,
}

impl Generic {
    fn new(shape: Shape) -> Generic {
        let side = shape.side();
        let cells = shape.cells();
        let mut units = Vec::with_capacity(3 * cells);
        for r in 0..side {
            units.extend((0..side).map(|c| (r * side + c) as u16));
        }
        for c in 0..side {
            units.extend((0..side).map(|r| (r * side + c) as u16));
        }
        for bx in 0..side {
            let (r0, c0) = (
                (bx / shape.box_rows()) * shape.box_rows(),
                (bx % shape.box_rows()) * shape.box_cols(),
            );
            for r in r0..r0 + shape.box_rows() {
                units.extend((c0..c0 + shape.box_cols()).map(|c| (r * side + c) as u16));
            }
        }
        let mut peers = Vec::new();
        let mut npeers = 0;
        for cell in 0..cells {
            let (r, c) = (cell / side, cell % side);
            let start = peers.len();
            for other in 0..cells {
                let (r2, c2) = (other / side, other % side);
                let peer = r2 == r || c2 == c || shape.box_of(r, c) == shape.box_of(r2, c2);
                if peer && other != cell {
                    peers.push(other as u16);
                }
            }
            npeers = peers.len() - start;
        }
        let all = if side == 32 { u32::MAX } else { (1u32 << side) - 1 };
        Generic { shape, all, peers, npeers, units, queue: Vec::new(), stack: Vec::new() }
    }

    /// Places value bit `bit` in `cell` and removes it from the peers.
    fn place(&mut self, state: &mut [u32], cell: usize, bit: u32) -> Result<(), Dead> {
        let cells = self.shape.cells();
        let (cand, placed) = state.split_at_mut(cells);
        cand[cell] = bit;
        placed[cell] = 1;
        for &p in &self.peers[cell * self.npeers..(cell + 1) * self.npeers] {
            let p = usize::from(p);
            let x = cand[p];
            if x & bit != 0 {
                let x = x & !bit;
                cand[p] = x;
                if x == 0 {
                    return Err(Dead);
                }
                if x & (x - 1) == 0 && placed[p] == 0 {
                    self.queue.push(p as u16);
                }
            }
        }
        Ok(())
    }

    fn propagate(&mut self, state: &mut [u32]) -> Result<(), Dead> {
        let cells = self.shape.cells();
        let side = self.shape.side();
        loop {
            while let Some(cell) = self.queue.pop() {
                let cell = usize::from(cell);
                let x = state[cell];
                if state[cells + cell] == 0 && x & (x - 1) == 0 {
                    if x == 0 {
                        return Err(Dead);
                    }
                    self.place(state, cell, x)?;
                }
            }
            let mut progress = false;
            for u in 0..3 * side {
                let (mut one, mut two, mut done) = (0u32, 0u32, 0u32);
                for &cell in &self.units[u * side..(u + 1) * side] {
                    let cell = usize::from(cell);
                    let x = state[cell];
                    if state[cells + cell] != 0 {
                        done |= x;
                    } else {
                        two |= one & x;
                        one |= x;
                    }
                }
                if (one | done) != self.all {
                    return Err(Dead);
                }
                let mut singles = one & !two & !done;
                while singles != 0 {
                    let bit = singles & singles.wrapping_neg();
                    singles &= singles - 1;
                    let cell = self.units[u * side..(u + 1) * side]
                        .iter()
                        .map(|&c| usize::from(c))
                        .find(|&c| state[cells + c] == 0 && state[c] & bit != 0);
                    // The value may have lost its cell to a placement made just before.
                    let cell = cell.ok_or(Dead)?;
                    self.place(state, cell, bit)?;
                    progress = true;
                }
            }
            if !progress && self.queue.is_empty() {
                return Ok(());
            }
        }
    }

    fn search(&mut self, grid: &Grid, options: &Options) -> Report {
        let cells = self.shape.cells();
        let (mut report, limit) = match options.start() {
            Ok(start) => start,
            Err(refused) => return refused,
        };
        let mut state = vec![self.all; cells];
        state.resize(2 * cells, 0);
        self.queue.clear();
        for (cell, &v) in grid.values().iter().enumerate() {
            if v != 0 {
                let bit = 1u32 << (v - 1);
                if state[cell] & bit == 0 || state[cells + cell] != 0 {
                    return report;
                }
                if self.place(&mut state, cell, bit).is_err() {
                    return report;
                }
            }
        }
        let guard = options.guard();
        self.stack.clear();
        while guard.enter(&mut report) {
            if self.propagate(&mut state).is_ok() {
                // Minimum remaining values: the unplaced cell with the fewest candidates.
                let best = (0..cells)
                    .filter(|&c| state[cells + c] == 0)
                    .min_by_key(|&c| state[c].count_ones());
                match best {
                    None => {
                        report.solutions += 1;
                        if report.solution.is_none() && !options.skip_solution {
                            let values = state[..cells]
                                .iter()
                                .map(|&x| x.trailing_zeros() as u8 + 1)
                                .collect();
                            report.solution = Grid::from_values(self.shape, values).ok();
                        }
                        if report.solutions >= limit {
                            report.stop = Stop::SolutionLimit;
                            break;
                        }
                    }
                    Some(cell) => {
                        let x = state[cell];
                        let bit = x & x.wrapping_neg();
                        // The other branch: the same state without this value in the cell.
                        let at = self.stack.len();
                        self.stack.extend_from_slice(&state);
                        self.stack[at + cell] &= !bit;
                        self.queue.clear();
                        if self.place(&mut state, cell, bit).is_ok() {
                            continue;
                        }
                    }
                }
            }
            // Backtrack: resume the most recent saved state.
            if self.stack.is_empty() {
                break;
            }
            let at = self.stack.len() - 2 * cells;
            state.copy_from_slice(&self.stack[at..]);
            self.stack.truncate(at);
            self.queue.clear();
            for cell in 0..cells {
                let x = state[cell];
                if state[cells + cell] == 0 && x & (x - 1) == 0 {
                    self.queue.push(cell as u16);
                }
            }
        }
        report
    }
}
