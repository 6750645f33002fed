//! The fast 9x9 solver: one 27-bit bitboard per digit and band.
//!
//! # Representation
//!
//! A *band* is three rows of boxes (rows 0-2, 3-5, 6-8). For digit `d` (0-8) and band `b`,
//! `cand[3 d + b]` is a 27-bit set: bit `9 r + c` says that `d + 1` may still go in row
//! `3 b + r`, column `c`. `unsolved[b]` is the set of the band's cells not yet placed. A cell
//! that holds `d` keeps its bit in `cand[3 d + b]` and in no other digit's set, so a solved
//! grid is read off the 27 sets. The whole state is 128 bytes and is copied on each guess:
//! backtracking is restoring a copy (no undo log), and nothing is allocated per puzzle.
//!
//! # Propagation
//!
//! - **Within a band** (`update`): digit `d` occupies one cell of each of the band's 3 rows and
//!   of its 3 boxes, so the *mini-rows* (row `r` x box `k`, 3 cells) it uses form a 3x3
//!   permutation matrix. A table gives, for each of the 512 sets of non-empty mini-rows, the
//!   union of the permutation matrices it contains; cells outside are removed. This is the
//!   hidden single in a box, pointing and claiming (locked candidates) between the band's
//!   rows and boxes, in one lookup. A row left with one unsolved cell is then placed (hidden
//!   single in a row).
//! - **Within a stack** (`columns`): the same table applied to *mini-columns* (column `c` x
//!   band `b`) gives locked candidates between columns and boxes; then columns with one cell
//!   left are placed (hidden single in a column).
//! - **Naked singles**: per band, bit-sliced counters over the 9 digits give the cells with
//!   no candidate (a contradiction) and with exactly one.
//!
//! Band updates are driven by a dirty set of the 27 bitboards; the stack pass only looks at
//! digits whose bitboards changed since its last run.
//!
//! # Branching
//!
//! When propagation stalls, the solver picks a cell with two candidates if there is one
//! (else one with the fewest), places its first candidate, and pushes a copy of the state
//! with that candidate removed, to be resumed on backtracking. Among cells with two
//! candidates it takes the one with the most unsolved cells in its row, column and box:
//! either choice then removes the most candidates. Measured on tdoku's sets in `--unique`
//! mode, this cut search-tree nodes by 25-40% against taking the first such cell
//! (forum_hardest_1905_11+: 282 to 166 nodes a puzzle; forum_hardest_1106: 573 to 284), for
//! about 20 instructions a candidate cell.
//!
//! Tried and dropped: band "triads" (a mini-row with only three candidate digits locks them,
//! and three digits forced into a mini-row fill it) cut nodes by only 4-9% on the hard sets
//! and cost more CPU time than they saved; processing dirty bitboards in sweeps instead of
//! lowest-first doubled the time.

use super::{Grid, Options, Report, Shape, Stop};

/// The 27 bits of a band.
const BAND: u32 = (1 << 27) - 1;
/// Column 0 of a band (rows 0, 1, 2).
const COL0: u32 = 1 | 1 << 9 | 1 << 18;

/// Bit `k` set when box `k` of a 9-bit row has a bit.
const ROWBOX: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        let mut k = 0;
        while k < 3 {
            if (x >> (3 * k)) & 7 != 0 {
                t[x] |= 1 << k;
            }
            k += 1;
        }
        x += 1;
    }
    t
};

/// A 9-bit row if it has exactly one bit, else 0.
const SINGLE: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut i = 0;
    while i < 9 {
        t[1 << i] = 1 << i;
        i += 1;
    }
    t
};

/// For a 3x3 bit matrix (bit `3 r + k`), the union of the permutation matrices inside it.
const PERM: [u16; 512] = {
    let mut t = [0u16; 512];
    let perms: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    let mut m = 0;
    while m < 512 {
        let mut p = 0;
        while p < 6 {
            let s = perms[p];
            let bits = (1 << s[0]) | (1 << (3 + s[1])) | (1 << (6 + s[2]));
            if m & bits == bits {
                t[m] |= bits as u16;
            }
            p += 1;
        }
        m += 1;
    }
    t
};

/// The band cells of a set of mini-rows (bit `3 r + k`: row `r`, box `k`).
const EXPAND: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        let mut i = 0;
        while i < 9 {
            if v & (1 << i) != 0 {
                t[v] |= 7 << (9 * (i / 3) + 3 * (i % 3));
            }
            i += 1;
        }
        v += 1;
    }
    t
};

/// Columns (9 bits) to mini-column bits, band 0: column `c` goes to bit `9 (c / 3) + 3 (c % 3)`.
const STACKBITS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        let mut c = 0;
        while c < 9 {
            if x & (1 << c) != 0 {
                t[x] |= 1 << (9 * (c / 3) + 3 * (c % 3));
            }
            c += 1;
        }
        x += 1;
    }
    t
};

/// Mini-columns of a stack (bit `3 c + b`) to columns per band (bit `3 b + c`): a transpose.
const TRANSPOSE: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut v = 0;
    while v < 512 {
        let mut i = 0;
        while i < 9 {
            if v & (1 << i) != 0 {
                t[v] |= 1 << (3 * (i % 3) + i / 3);
            }
            i += 1;
        }
        v += 1;
    }
    t
};

/// A set of columns (9 bits) spread over the band's three rows.
const COLUMNS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = (x | x << 9 | x << 18) as u32;
        x += 1;
    }
    t
};

/// The band cells sharing a row or a box with band cell `p` (`p` excluded).
const PEERS: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let row = 0x1FF << (9 * (p / 9));
        let bx = (7 * COL0) << (3 * ((p % 9) / 3));
        t[p] = (row | bx) & !(1 << p);
        p += 1;
    }
    t
};

/// The search state (see the module documentation).
#[derive(Clone, Copy, Debug)]
struct State {
    /// Candidate cells of digit `d` in band `b`, at `3 d + b`.
    cand: [u32; 27],
    /// Unplaced cells of each band.
    unsolved: [u32; 3],
    /// Bitboards changed since their last `update`.
    dirty: u32,
    /// Digits whose bitboards changed since the last stack pass.
    digits: u32,
}

/// A contradiction: the current branch has no solution.
struct Dead;

type Step = Result<(), Dead>;

impl State {
    fn new() -> State {
        State { cand: [BAND; 27], unsolved: [BAND; 3], dirty: 0, digits: 0 }
    }

    /// Places digit `d` in band cell `p` of band `b` (a candidate, unplaced).
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, p: usize) {
        let bit = 1u32 << p;
        let own = self.cand[3 * d + b];
        // Branch-free: the dirty and digit sets are accumulated in registers.
        let mut dirty = 1u32 << (3 * d + b);
        let mut digits = 1u32 << d;
        for e in 0..9 {
            let j = 3 * e + b;
            let old = self.cand[j];
            let had = (old >> p) & 1;
            self.cand[j] = old & !bit;
            dirty |= had << j;
            digits |= had << e;
        }
        self.cand[3 * d + b] = own & !PEERS[p];
        let col = COL0 << (p % 9);
        for other in [(b + 1) % 3, (b + 2) % 3] {
            let j = 3 * d + other;
            let old = self.cand[j];
            self.cand[j] = old & !col;
            dirty |= u32::from(old & col != 0) << j;
        }
        self.dirty |= dirty;
        self.digits |= digits;
        self.unsolved[b] &= !bit;
    }

    /// Places `d` at `p` of band `b` if it is still a candidate there; a cell that already
    /// holds `d` is left alone, one that lost `d` is a contradiction.
    #[inline(always)]
    fn place_checked(&mut self, d: usize, b: usize, p: usize) -> Step {
        let bit = 1u32 << p;
        if self.cand[3 * d + b] & bit == 0 {
            return Err(Dead);
        }
        if self.unsolved[b] & bit != 0 {
            self.place(d, b, p);
        }
        Ok(())
    }

    /// Removes candidate `d` from band cell `p` of band `b`.
    fn eliminate(&mut self, d: usize, b: usize, p: usize) {
        self.cand[3 * d + b] &= !(1 << p);
        self.dirty |= 1 << (3 * d + b);
        self.digits |= 1 << d;
    }

    /// Band propagation of bitboard `idx`: mini-row permutations, then hidden singles in rows.
    #[inline(always)]
    fn update(&mut self, idx: usize) -> Step {
        let b = idx % 3;
        let d = idx / 3;
        let a = self.cand[idx];
        let m = u32::from(ROWBOX[(a & 0x1FF) as usize])
            | u32::from(ROWBOX[((a >> 9) & 0x1FF) as usize]) << 3
            | u32::from(ROWBOX[((a >> 18) & 0x1FF) as usize]) << 6;
        let v = PERM[m as usize];
        if v == 0 {
            return Err(Dead);
        }
        let a = a & EXPAND[v as usize];
        if a != self.cand[idx] {
            self.cand[idx] = a;
            self.digits |= 1 << d;
        }
        let u = a & self.unsolved[b];
        let mut singles = u32::from(SINGLE[(u & 0x1FF) as usize])
            | u32::from(SINGLE[((u >> 9) & 0x1FF) as usize]) << 9
            | u32::from(SINGLE[((u >> 18) & 0x1FF) as usize]) << 18;
        while singles != 0 {
            let p = singles.trailing_zeros() as usize;
            singles &= singles - 1;
            self.place_checked(d, b, p)?;
        }
        Ok(())
    }

    /// Naked singles in every band; returns whether any cell was placed.
    #[inline(always)]
    fn naked_singles(&mut self) -> Result<bool, Dead> {
        let mut placed = false;
        for b in 0..3 {
            let unsolved = self.unsolved[b];
            if unsolved == 0 {
                continue;
            }
            let (mut one, mut two) = (0u32, 0u32);
            for d in 0..9 {
                let x = self.cand[3 * d + b];
                two |= one & x;
                one |= x;
            }
            if unsolved & !one != 0 {
                return Err(Dead);
            }
            let mut singles = unsolved & !two;
            while singles != 0 {
                let p = singles.trailing_zeros() as usize;
                singles &= singles - 1;
                if self.unsolved[b] & (1 << p) == 0 {
                    continue;
                }
                let d = (0..9).find(|&d| self.cand[3 * d + b] & (1 << p) != 0).ok_or(Dead)?;
                self.place(d, b, p);
                placed = true;
            }
        }
        Ok(placed)
    }

    /// Stack propagation for the digits changed since the last call: mini-column
    /// permutations, then hidden singles in columns. Returns whether anything changed.
    fn columns(&mut self) -> Result<bool, Dead> {
        let mut changed = false;
        let mut digits = self.digits;
        self.digits = 0;
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let a = [self.cand[3 * d], self.cand[3 * d + 1], self.cand[3 * d + 2]];
            let fold = |x: u32| ((x | x >> 9 | x >> 18) & 0x1FF) as usize;
            let sb =
                STACKBITS[fold(a[0])] | STACKBITS[fold(a[1])] << 1 | STACKBITS[fold(a[2])] << 2;
            let v0 = PERM[(sb & 0x1FF) as usize];
            let v1 = PERM[((sb >> 9) & 0x1FF) as usize];
            let v2 = PERM[((sb >> 18) & 0x1FF) as usize];
            if v0 == 0 || v1 == 0 || v2 == 0 {
                return Err(Dead);
            }
            let w = [TRANSPOSE[v0 as usize], TRANSPOSE[v1 as usize], TRANSPOSE[v2 as usize]];
            let mut u = [0u32; 3];
            for b in 0..3 {
                let allowed = ((w[0] >> (3 * b)) & 7)
                    | ((w[1] >> (3 * b)) & 7) << 3
                    | ((w[2] >> (3 * b)) & 7) << 6;
                let x = a[b] & COLUMNS[allowed as usize];
                if x != a[b] {
                    self.cand[3 * d + b] = x;
                    self.dirty |= 1 << (3 * d + b);
                    changed = true;
                }
                u[b] = x & self.unsolved[b];
            }
            // Hidden singles in columns: bit-sliced counts over the nine rows.
            let (mut one, mut two) = (0u32, 0u32);
            for x in u {
                for r in 0..3 {
                    let row = (x >> (9 * r)) & 0x1FF;
                    two |= one & row;
                    one |= row;
                }
            }
            let mut singles = one & !two;
            while singles != 0 {
                let c = singles.trailing_zeros();
                singles &= singles - 1;
                for (b, &x) in u.iter().enumerate() {
                    let cell = x & (COL0 << c);
                    if cell != 0 {
                        self.place_checked(d, b, cell.trailing_zeros() as usize)?;
                        changed = true;
                    }
                }
            }
        }
        Ok(changed)
    }

    /// Propagates to a fixed point; `Err` on a contradiction.
    fn propagate(&mut self) -> Step {
        loop {
            while self.dirty != 0 {
                let idx = self.dirty.trailing_zeros() as usize;
                self.dirty &= self.dirty - 1;
                self.update(idx)?;
            }
            if self.naked_singles()? {
                continue;
            }
            if !self.columns()? {
                return Ok(());
            }
        }
    }

    fn solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// The cell to branch on, as (band, band cell, first candidate digit): among the cells
    /// with two candidates, the one with the most unsolved peers.
    fn choose(&self) -> (usize, usize, usize) {
        let mut best = (u32::MAX, 0, 0);
        for b in 0..3 {
            let unsolved = self.unsolved[b];
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.cand[3 * d + b];
                three |= two & x;
                two |= one & x;
                one |= x;
            }
            let mut pairs = unsolved & two & !three;
            while pairs != 0 {
                let p = pairs.trailing_zeros() as usize;
                pairs &= pairs - 1;
                let row = 0x1FF << (9 * (p / 9));
                let bx = (7 * COL0) << (3 * ((p % 9) / 3));
                let col = COL0 << (p % 9);
                let score = (unsolved & (row | bx)).count_ones()
                    + (self.unsolved[(b + 1) % 3] & col).count_ones()
                    + (self.unsolved[(b + 2) % 3] & col).count_ones();
                if best.0 == u32::MAX || score > best.0 {
                    best = (score, b, p);
                }
            }
        }
        if best.0 != u32::MAX {
            return (best.1, best.2, self.first_digit(best.1, best.2));
        }
        // No cell with two candidates: the first with the fewest.
        let mut best = (u32::MAX, 0, 0);
        for b in 0..3 {
            let mut unsolved = self.unsolved[b];
            while unsolved != 0 {
                let p = unsolved.trailing_zeros() as usize;
                unsolved &= unsolved - 1;
                let n = (0..9).filter(|&d| self.cand[3 * d + b] & (1 << p) != 0).count() as u32;
                if n < best.0 {
                    best = (n, b, p);
                }
            }
        }
        (best.1, best.2, self.first_digit(best.1, best.2))
    }

    fn first_digit(&self, b: usize, p: usize) -> usize {
        (0..9).find(|&d| self.cand[3 * d + b] & (1 << p) != 0).unwrap_or(0)
    }

    /// The solved grid's values, row by row (valid when `solved`).
    fn values(&self) -> Vec<u8> {
        let mut values = vec![0u8; 81];
        for d in 0..9 {
            for b in 0..3 {
                let mut x = self.cand[3 * d + b];
                while x != 0 {
                    let p = x.trailing_zeros() as usize;
                    x &= x - 1;
                    values[27 * b + p] = d as u8 + 1;
                }
            }
        }
        values
    }
}

/// The 9x9 solver, with its stack of saved states (kept between puzzles).
#[derive(Debug, Default)]
pub(super) struct BandSolver {
    stack: Vec<State>,
}

impl BandSolver {
    /// Solves or counts a 9x9 grid with 3x3 boxes (`micros` left 0 for the caller).
    pub(super) fn search(&mut self, grid: &Grid, options: &Options) -> Report {
        debug_assert_eq!(grid.shape(), Shape::CLASSIC);
        let mut report =
            Report { solutions: 0, solution: None, stop: Stop::Exhausted, nodes: 0, micros: 0 };
        let limit = options.limit.unwrap_or(u64::MAX);
        if limit == 0 {
            report.stop = Stop::SolutionLimit;
            return report;
        }
        let mut st = State::new();
        for (i, &v) in grid.values().iter().enumerate() {
            if v == 0 {
                continue;
            }
            let (b, p, d) = (i / 27, i % 27, usize::from(v) - 1);
            if st.cand[3 * d + b] & (1 << p) == 0 {
                // A given that clashes with an earlier one.
                return report;
            }
            st.place(d, b, p);
        }
        let max_nodes = options.max_nodes.unwrap_or(u64::MAX);
        let check_cancel = options.cancel.is_some();
        self.stack.clear();
        loop {
            if report.nodes >= max_nodes {
                report.stop = Stop::NodeLimit;
                break;
            }
            report.nodes += 1;
            if check_cancel && report.nodes % 1024 == 0 && options.cancelled() {
                report.stop = Stop::Cancelled;
                break;
            }
            if st.propagate().is_ok() {
                if st.solved() {
                    report.solutions += 1;
                    if report.solution.is_none() {
                        report.solution = Grid::from_values(Shape::CLASSIC, st.values()).ok();
                    }
                    if report.solutions >= limit {
                        report.stop = Stop::SolutionLimit;
                        break;
                    }
                } else {
                    let (b, p, d) = st.choose();
                    let mut other = st;
                    other.eliminate(d, b, p);
                    self.stack.push(other);
                    st.place(d, b, p);
                    continue;
                }
            }
            match self.stack.pop() {
                Some(saved) => st = saved,
                None => break,
            }
        }
        report
    }
}
