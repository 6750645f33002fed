//! The fast 9x9 solver: one 27-bit bitboard per digit and band.
//!
//! # Representation
//!
//! The grid is three bands of three rows. For band `b` and digit `d`, the word `f[b][d]` has
//! bit `9 r + c` set when the cell in row `r` of the band and column `c` may hold `d` (a
//! placed cell stays set in its digit's word). `unsolved[b]` holds the band's empty cells.
//! The nine words of a band are contiguous, so that a placement clears a cell from all of
//! them with three 16-byte operations.
//!
//! # Propagation
//!
//! A word is *dirty* when it changed since its last band update; [`State::propagate`] runs
//! these to a fixed point (band updates up to three words at a time, so that the CPU overlaps
//! them):
//!
//! - **Band update** of a word: in a band, the digit's three rows and three boxes must meet
//!   in a permutation (one mini-row per row and per box), so a mini-row (row x box) that is in
//!   no permutation matrix of the word's non-empty mini-rows loses its cells. This is locked
//!   candidates (pointing and claiming) and hidden singles in boxes at once. A row left with
//!   one empty cell places the digit there: the cell leaves the other digits' words and its
//!   column leaves the digit's words of the other bands.
//! - **Naked singles**: a cell with one candidate keeps only that cell in its row of the
//!   digit's word, and the band update places it.
//! - **Stack update**: the same permutation rule on the columns of a stack, for the digits
//!   whose words changed.
//!
//! # Search
//!
//! Depth first, on an explicit stack of states. A node is one propagation (the root, and
//! each side of each guess). The guess is a cell with two candidates, the one with the most
//! empty cells in its row, column and box (or, if there is none, the first cell with the
//! fewest candidates); the first side places one candidate, the other the second.
//!
//! On x86-64 CPUs with AVX2 and BMI2 (x86-64-v3), the search runs a copy compiled for them,
//! where the maps between mini-rows and bits are `pext` and `pdep`; elsewhere they are
//! tables. Both copies build the same tree (a test compares them).
//!
//! # Invariants
//!
//! At every node, after a propagation that found no contradiction (checked by
//! [`State::check_invariants`] at every node in the tests):
//!
//! - **(U1)** Words hold band cells only (27 bits); words 9 to 15 of a band and
//!   `unsolved[3]` are 0.
//! - **(U2)** A placed cell (in a band, not in `unsolved`) is set in exactly one digit's
//!   word.
//! - **(U3)** A placed digit rules its houses: its word has no other cell in the placed
//!   cell's row or box, and the digit's words of the three bands no other cell in its column.
//! - **(U4)** Fixed point: every empty cell has at least two candidates, and no row of a word
//!   has exactly one empty cell and no placed one.

use super::{Grid, Options, Report, Shape, Stop};

/// The 27 bits of a band.
const BAND: u32 = (1 << 27) - 1;
/// Column 0 of a band (rows 0, 1, 2); multiplying a 9-bit column set by it spreads the set
/// over the three rows (no carries).
const COL0: u32 = 1 | 1 << 9 | 1 << 18;
/// Box 0 of a band (columns 0-2 of its three rows).
const BOX0: u32 = 7 * COL0;

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

/// For a set of mini-rows (bit `3 r + k`: row `r`, box `k`), the band cells of the union of
/// the permutation matrices inside it: the cells a digit may keep.
const COMPLEX: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        let v = PERM[s] as usize;
        let mut i = 0;
        while i < 9 {
            if v & (1 << i) != 0 {
                t[s] |= 7 << (9 * (i / 3) + 3 * (i % 3));
            }
            i += 1;
        }
        s += 1;
    }
    t
};

/// Bits 0, 3, ..., 24: the first bit of each 3-bit group of a band word.
const GROUPS: u32 = 0x124_9249;

/// Bit `3 j` for each bit `j` of a 9-bit set (`pdep` over [`GROUPS`]): spreads a band's
/// columns over the mini-columns of its stacks, bit `3 c` for column `c`.
#[inline(always)]
fn spread<const BMI2: bool>(x: u32) -> u32 {
    debug_assert!(x < 512);
    #[cfg(target_arch = "x86_64")]
    if BMI2 {
        // SAFETY: `BMI2` is true only in code compiled for BMI2 CPUs (`search_v3`).
        return unsafe { core::arch::x86_64::_pdep_u32(x, GROUPS) };
    }
    SPREAD[x as usize]
}

/// [`spread`] as a table, for CPUs without BMI2.
const SPREAD: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        let mut j = 0;
        while j < 9 {
            t[x] |= ((x as u32 >> j) & 1) << (3 * j);
            j += 1;
        }
        x += 1;
    }
    t
};

/// Bit `j` set when the 3-bit group `j` of a 27-bit word (bits `3 j` to `3 j + 2`) is not
/// empty: the mini-rows of a band word that have a cell, or (for a word with bits at
/// multiples of 3 only) the inverse of [`spread`].
#[inline(always)]
fn groups<const BMI2: bool>(x: u32) -> u32 {
    debug_assert!(x < 1 << 27);
    #[cfg(target_arch = "x86_64")]
    if BMI2 {
        // SAFETY: as in `spread`.
        return unsafe { core::arch::x86_64::_pext_u32(x | x >> 1 | x >> 2, GROUPS) };
    }
    u32::from(ROWBOX[(x & 0x1FF) as usize])
        | u32::from(ROWBOX[((x >> 9) & 0x1FF) as usize]) << 3
        | u32::from(ROWBOX[((x >> 18) & 0x1FF) as usize]) << 6
}

/// The rows (9 bits each) of a 27-bit band word that have exactly one bit.
#[inline(always)]
fn single_rows(u: u32) -> u32 {
    #[inline(always)]
    fn one(x: u32) -> u32 {
        if x & x.wrapping_sub(1) == 0 {
            x
        } else {
            0
        }
    }
    one(u & 0x1FF) | one(u & 0x1FF << 9) | one(u & 0x1FF << 18)
}

/// The band cells that stay candidates of a digit placed in band cell `p`, as far as its
/// row goes: the cell and the other rows.
const RESTRICT: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        t[p] = (BAND & !(0x1FF << (9 * (p / 9)))) | 1 << p;
        p += 1;
    }
    t
};

/// The band cells sharing a row or a box with band cell `p` (`p` excluded).
const PEERS: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let row = 0x1FF << (9 * (p / 9));
        let bx = BOX0 << (3 * ((p % 9) / 3));
        t[p] = (row | bx) & !(1 << p);
        p += 1;
    }
    t
};

/// The peers of band cell `p` that [`State::choose`] counts, over 81 bits (the cell's band,
/// then the two other bands, 27 bits each; as two `u64`, low bits first): its row and box
/// in its band ([`PEERS`]) and its column in the other two.
const SCORE: [[u64; 2]; 27] = {
    let mut t = [[0u64; 2]; 27];
    let mut p = 0;
    while p < 27 {
        let col = (COL0 as u128) << (p % 9);
        let m = PEERS[p] as u128 | col << 27 | col << 54;
        t[p] = [m as u64, (m >> 64) as u64];
        p += 1;
    }
    t
};

/// The other two bands of each band.
const OTHER: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// Words per band in [`State::f`]: one per digit, padded with zeros to 16 so that a word's
/// index `16 b + d` is also its bit in the dirty sets. The SIMD code reads the first 12.
const LANES: usize = 16;

/// Columns of a band (9 bits) that have a bit in any of its rows.
#[inline(always)]
fn fold(x: u32) -> u32 {
    (x | x >> 9 | x >> 18) & 0x1FF
}

/// Operations on the nine digit words of a band at once: SSE2 on x86_64 (always
/// available there), plain loops elsewhere.
mod lanes {
    use super::LANES;

    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::*;

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn load(row: &[u32; LANES]) -> [__m128i; 3] {
        let p = row.as_ptr().cast::<__m128i>();
        // SAFETY: SSE2 is part of the x86_64 baseline; `row` holds 16 `u32`, of which
        // these read the first three 16-byte vectors (unaligned loads).
        unsafe { [_mm_loadu_si128(p), _mm_loadu_si128(p.add(1)), _mm_loadu_si128(p.add(2))] }
    }

    /// The digits `4 k` to `4 k + 3`, whose words are the lanes of `v`, that have a bit of
    /// `m` (a bit set per digit, shifted to the digit's place).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn lanes_having(v: __m128i, m: __m128i, k: usize) -> u32 {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe {
            let miss = _mm_cmpeq_epi32(_mm_and_si128(v, m), _mm_setzero_si128());
            (_mm_movemask_ps(_mm_castsi128_ps(miss)) as u32 ^ 0xF) << (4 * k)
        }
    }

    /// Removes the cells `s` from every digit's word; returns the digits that had one.
    #[inline(always)]
    pub(super) fn clear(row: &mut [u32; LANES], s: u32) -> u32 {
        #[cfg(target_arch = "x86_64")]
        {
            let x = load(row);
            let p = row.as_mut_ptr().cast::<__m128i>();
            // SAFETY: SSE2 is part of the x86_64 baseline; the stores write the first three
            // 16-byte vectors of `row` (`k < 3`).
            unsafe {
                let m = _mm_set1_epi32(s as i32);
                let mut had = 0;
                for (k, v) in x.into_iter().enumerate() {
                    had |= lanes_having(v, m, k);
                    _mm_storeu_si128(p.add(k), _mm_andnot_si128(m, v));
                }
                had
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let mut had = 0;
            for (d, w) in row.iter_mut().enumerate() {
                had |= u32::from(*w & s != 0) << d;
                *w &= !s;
            }
            had
        }
    }

    /// The digits whose word has a bit of `s`.
    #[inline(always)]
    pub(super) fn having(row: &[u32; LANES], s: u32) -> u32 {
        #[cfg(target_arch = "x86_64")]
        {
            let x = load(row);
            // SAFETY: SSE2 is part of the x86_64 baseline.
            let m = unsafe { _mm_set1_epi32(s as i32) };
            x.into_iter().enumerate().fold(0, |had, (k, v)| had | lanes_having(v, m, k))
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            row.iter().enumerate().fold(0, |had, (d, &w)| had | u32::from(w & s != 0) << d)
        }
    }

    /// The cells holding each digit, as band words: word `16 b + d` (`[b][d]`) has the
    /// cells of band `b` whose byte in `cells` (the 81 cells, then zeros) is `d + 1`.
    #[inline(always)]
    pub(super) fn digit_cells(cells: &[u8; 96]) -> [[u32; LANES]; 3] {
        // Per digit, the bits of cells 0-63 and 64-95.
        let mut lo = [0u64; 9];
        let mut hi = [0u64; 9];
        // (Inlined into `search_v3`, this compiles to AVX2.)
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of the x86_64 baseline; the loads read the six 16-byte chunks
        // of `cells`.
        unsafe {
            let p = cells.as_ptr().cast::<__m128i>();
            let v: [__m128i; 6] = core::array::from_fn(|k| _mm_loadu_si128(p.add(k)));
            for d in 0..9 {
                let t = _mm_set1_epi8(d as i8 + 1);
                let m: [u64; 6] =
                    v.map(|v| u64::from(_mm_movemask_epi8(_mm_cmpeq_epi8(v, t)) as u16));
                lo[d] = m[0] | m[1] << 16 | m[2] << 32 | m[3] << 48;
                hi[d] = m[4] | m[5] << 16;
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        for (i, &c) in cells.iter().enumerate() {
            if let Some(d) = usize::from(c).checked_sub(1).filter(|&d| d < 9) {
                if i < 64 {
                    lo[d] |= 1 << i;
                } else {
                    hi[d] |= 1 << (i - 64);
                }
            }
        }
        let mut own = [[0u32; LANES]; 3];
        for d in 0..9 {
            own[0][d] = lo[d] as u32 & super::BAND;
            own[1][d] = (lo[d] >> 27) as u32 & super::BAND;
            own[2][d] = (lo[d] >> 54 | hi[d] << 10) as u32 & super::BAND;
        }
        own
    }

    /// Cells with at least one and at least two candidates.
    #[inline(always)]
    pub(super) fn one_two(row: &[u32; LANES]) -> (u32, u32) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe {
            let [x0, x1, x2] = load(row);
            let x01 = _mm_or_si128(x0, x1);
            let mut o = _mm_or_si128(x01, x2);
            let mut t = _mm_or_si128(_mm_and_si128(x0, x1), _mm_and_si128(x2, x01));
            let (o2, t2) = (_mm_shuffle_epi32::<0x4E>(o), _mm_shuffle_epi32::<0x4E>(t));
            t = _mm_or_si128(_mm_or_si128(t, t2), _mm_and_si128(o, o2));
            o = _mm_or_si128(o, o2);
            let (o2, t2) = (_mm_shuffle_epi32::<0xB1>(o), _mm_shuffle_epi32::<0xB1>(t));
            t = _mm_or_si128(_mm_or_si128(t, t2), _mm_and_si128(o, o2));
            o = _mm_or_si128(o, o2);
            (_mm_cvtsi128_si32(o) as u32, _mm_cvtsi128_si32(t) as u32)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let (mut one, mut two) = (0, 0);
            for &x in row {
                two |= one & x;
                one |= x;
            }
            (one, two)
        }
    }

    /// Cells with at least one, two and three candidates.
    #[inline(always)]
    pub(super) fn one_two_three(row: &[u32; LANES]) -> (u32, u32, u32) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe {
            let [x0, x1, x2] = load(row);
            let x01 = _mm_or_si128(x0, x1);
            let a01 = _mm_and_si128(x0, x1);
            let mut o = _mm_or_si128(x01, x2);
            let mut t = _mm_or_si128(a01, _mm_and_si128(x2, x01));
            let mut h = _mm_and_si128(a01, x2);
            macro_rules! fold_lanes {
                ($imm:literal) => {
                    let (o2, t2, h2) = (
                        _mm_shuffle_epi32::<$imm>(o),
                        _mm_shuffle_epi32::<$imm>(t),
                        _mm_shuffle_epi32::<$imm>(h),
                    );
                    h = _mm_or_si128(
                        _mm_or_si128(h, h2),
                        _mm_or_si128(_mm_and_si128(t, o2), _mm_and_si128(o, t2)),
                    );
                    t = _mm_or_si128(_mm_or_si128(t, t2), _mm_and_si128(o, o2));
                    o = _mm_or_si128(o, o2);
                };
            }
            fold_lanes!(0x4E);
            fold_lanes!(0xB1);
            (_mm_cvtsi128_si32(o) as u32, _mm_cvtsi128_si32(t) as u32, _mm_cvtsi128_si32(h) as u32)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let (mut one, mut two, mut three) = (0, 0, 0);
            for &x in row {
                three |= two & x;
                two |= one & x;
                one |= x;
            }
            (one, two, three)
        }
    }
}

/// Whether grid cells `i` and `j` (0-80, row by row) are peers: distinct, in one row, column
/// or box. For the tests' definitions.
#[cfg(test)]
fn grid_peers(i: usize, j: usize) -> bool {
    let (ri, ci, rj, cj) = (i / 9, i % 9, j / 9, j % 9);
    i != j && (ri == rj || ci == cj || (ri / 3 == rj / 3 && ci / 3 == cj / 3))
}

/// The search state (see the module documentation).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct State {
    /// Candidate cells of digit `d` in band `b` at `f[b][d]` (words 9-15 stay 0).
    f: [[u32; LANES]; 3],
    /// Unplaced cells of each band (the fourth word stays 0).
    unsolved: [u32; 4],
    /// Words changed since their last band update (bit `16 b + d`): set before a
    /// propagation, which keeps its own copy.
    dirty: u64,
}

/// A contradiction: the current branch has no solution.
struct Dead;

type Step = Result<(), Dead>;

/// Bits of `dirty` and `touched` that name words.
const WORDS: u64 = 0x1FF | 0x1FF << 16 | 0x1FF << 32;

impl State {
    /// The state of a grid's givens, placed (their peers lose the digit, their cells the
    /// other digits) but not propagated: every word is dirty. `None` if two givens clash.
    ///
    /// Branch free and vectorizable over the digits: a given is alone in its row and box
    /// when no row and no box of its digit's band word has two bits, and in its column when
    /// no two bands of the digit share a column.
    #[inline(always)]
    fn new(values: &[u8]) -> Option<State> {
        let mut cells = [0u8; 96];
        cells[..81].copy_from_slice(&values[..81]);
        let own = lanes::digit_cells(&cells);
        let given = own.map(|row| row.iter().fold(0, |g, &w| g | w));
        // Per digit: its columns, and the columns that two bands share (a clash).
        let mut cols = [0u32; LANES];
        let mut clash = 0;
        for d in 0..LANES {
            let c = [fold(own[0][d]), fold(own[1][d]), fold(own[2][d])];
            clash |= (c[0] & c[1]) | (c[0] & c[2]) | (c[1] & c[2]);
            cols[d] = (c[0] | c[1] | c[2]) * COL0;
        }
        let mut f = [[0u32; LANES]; 3];
        for b in 0..3 {
            let open = BAND & !given[b];
            for d in 0..LANES {
                let w = own[b][d];
                let mut peers = 0;
                for k in 0..3 {
                    let (row, bx) = (0x1FF << (9 * k), BOX0 << (3 * k));
                    let (r, x) = (w & row, w & bx);
                    clash |= (r & r.wrapping_sub(1)) | (x & x.wrapping_sub(1));
                    peers |= (row & 0u32.wrapping_sub(u32::from(r != 0)))
                        | (bx & 0u32.wrapping_sub(u32::from(x != 0)));
                }
                // Padding words (no digit: d > 8) stay 0.
                f[b][d] = ((open & !peers & !cols[d]) | w) & 0u32.wrapping_sub(u32::from(d < 9));
            }
        }
        if clash != 0 {
            return None;
        }
        let unsolved = [BAND & !given[0], BAND & !given[1], BAND & !given[2], 0];
        Some(State { f, unsolved, dirty: WORDS })
    }

    /// Word `i` = `16 b + d`, `f[b][d]`.
    #[inline(always)]
    fn get(&self, i: usize) -> u32 {
        debug_assert!(i >> 4 < 3 && i & 15 < 9);
        // SAFETY: callers pass word indices `16 b + d` with b < 3 and d < 9 (bits of `dirty`
        // or `touched`, which only ever hold `WORDS` bits), so `i < 48`, inside the 48
        // contiguous `u32` of `f`.
        unsafe { *self.f.as_ptr().cast::<u32>().add(i) }
    }

    #[inline(always)]
    fn set(&mut self, i: usize, x: u32) {
        debug_assert!(i >> 4 < 3 && i & 15 < 9);
        // SAFETY: as in `get`.
        unsafe { *self.f.as_mut_ptr().cast::<u32>().add(i) = x }
    }

    /// Band update of word `i` (band `i / 16`, digit `i % 16`), computed but not stored:
    /// the cells the digit keeps, those of the permutation matrices of its mini-rows (0: a
    /// contradiction), and the rows where that leaves one unplaced cell.
    #[inline(always)]
    fn reduce<const BMI2: bool>(&self, i: usize) -> (u32, u32) {
        let a = self.get(i);
        let s = groups::<BMI2>(a) as usize;
        debug_assert!(s < 512);
        // SAFETY: `groups` returns 9 bits, so `s < 512`.
        let a = a & unsafe { COMPLEX.get_unchecked(s) };
        (a, single_rows(a & self.unsolved[(i >> 4) & 3]))
    }

    /// Stores the reduction `a` of word `i` and places its `singles`; returns whether it
    /// placed cells.
    #[inline(always)]
    fn store(&mut self, i: usize, a: u32, singles: u32, dirty: &mut u64) -> bool {
        if singles != 0 {
            // `place` stores `a` (storing it here first would make the 16-byte loads of
            // `place` wait for this 4-byte store).
            self.place(i, a, singles, dirty);
            true
        } else {
            self.set(i, a);
            false
        }
    }

    /// [`State::store`] of a reduction made from the value `w` of word `i`, after other
    /// stores that `placed` cells or not. A placement may have changed the word: then the
    /// reduction is stale and is dropped, and the word is dirty again (`place` marks every
    /// word it changes). Returns whether cells were placed, before or here.
    #[inline(always)]
    fn store_unchanged(
        &mut self,
        placed: bool,
        i: usize,
        w: u32,
        a: u32,
        singles: u32,
        dirty: &mut u64,
    ) -> bool {
        if placed && self.get(i) != w {
            return true;
        }
        self.store(i, a, singles, dirty) | placed
    }

    /// Places the cells `s` of word `i` (one per row and box; `a` is the word after its
    /// update): removes them from the other digits and their columns from the digit's
    /// other bands.
    #[inline(always)]
    fn place(&mut self, i: usize, a: u32, s: u32, dirty: &mut u64) {
        let b = i >> 4;
        debug_assert!(b < 3);
        // SAFETY: `b < 3` (see `get`).
        let row = unsafe { self.f.get_unchecked_mut(b) };
        let had = lanes::clear(row, s);
        self.unsolved[b & 3] &= !s;
        // The digit's column in its three bands (in its own band, the cells of `s` only:
        // the other rows of their boxes are out already); then `a` is restored.
        let cols = fold(s) * COL0;
        let d = i & 15;
        let mut hit = 0u64;
        for k in 0..3 {
            let old = self.get(16 * k + d);
            self.set(16 * k + d, old & !cols);
            hit |= u64::from(old & cols != 0) << (16 * k);
        }
        self.set(i, a);
        *dirty |= (u64::from(had) << (i - d) | hit << d) & !(1 << i);
    }

    /// Naked singles: restricts the row of each cell left with one candidate to that cell
    /// (its band update places it). Returns whether there was one.
    #[inline(always)]
    fn naked_singles(&mut self, dirty: &mut u64) -> Result<bool, Dead> {
        let mut bad = 0;
        let mut any = 0;
        let mut n = [0u32; 3];
        for (b, n) in n.iter_mut().enumerate() {
            let (one, two) = lanes::one_two(&self.f[b]);
            bad |= self.unsolved[b] & !one;
            *n = self.unsolved[b] & !two;
            any |= *n;
        }
        if bad != 0 {
            return Err(Dead);
        }
        if any == 0 {
            return Ok(false);
        }
        for (b, &cells) in n.iter().enumerate() {
            let mut cells = cells;
            while cells != 0 {
                let p = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                // An earlier single of this pass may have taken the cell's last candidate.
                let digits = lanes::having(&self.f[b], 1 << p);
                if digits == 0 {
                    return Err(Dead);
                }
                let i = 16 * b + digits.trailing_zeros() as usize;
                self.set(i, self.get(i) & RESTRICT[p]);
                *dirty |= 1 << i;
            }
        }
        Ok(true)
    }

    /// Stack propagation for the digits of the words updated since the last call: the
    /// digit's mini-columns (column x band) in each stack must contain a permutation matrix.
    /// (A column left with one cell needs no check of its own: the permutation confines the
    /// digit's box in that stack to the column, and the band update places it.) Returns
    /// whether a word changed.
    #[inline(always)]
    fn stacks<const BMI2: bool>(&mut self, t: u64, dirty: &mut u64) -> Result<bool, Dead> {
        let mut digits = (t | t >> 16 | t >> 32) & 0x1FF;
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let a = [self.get(d), self.get(16 + d), self.get(32 + d)];
            // Bit `3 c + b`: column `c` of band `b`; each 9 bits is a stack, a 3x3 matrix.
            let m = spread::<BMI2>(fold(a[0]))
                | spread::<BMI2>(fold(a[1])) << 1
                | spread::<BMI2>(fold(a[2])) << 2;
            let v0 = u32::from(PERM[(m & 0x1FF) as usize]);
            let v1 = u32::from(PERM[((m >> 9) & 0x1FF) as usize]);
            let v2 = u32::from(PERM[((m >> 18) & 0x1FF) as usize]);
            if (v0 == 0) | (v1 == 0) | (v2 == 0) {
                return Err(Dead);
            }
            let v = v0 | v1 << 9 | v2 << 18;
            if v != m {
                for (b, &a) in a.iter().enumerate() {
                    let x = a & (groups::<BMI2>((v >> b) & GROUPS) * COL0);
                    if x != a {
                        self.set(16 * b + d, x);
                        *dirty |= 1 << (16 * b + d);
                    }
                }
            }
        }
        Ok(*dirty != 0)
    }

    /// Propagates to a fixed point; `Err` on a contradiction.
    #[inline(always)]
    fn propagate<const BMI2: bool>(&mut self) -> Step {
        // Kept in registers, not in the state.
        let mut dirty = self.dirty;
        let mut touched = 0;
        self.dirty = 0;
        loop {
            // Up to three words at a time: each is reduced before any is stored, so that the
            // CPU overlaps the reductions (about 10% faster than one at a time).
            while dirty != 0 {
                let i = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                let (a, a_singles) = self.reduce::<BMI2>(i);
                if dirty == 0 {
                    touched |= 1 << i;
                    if a == 0 {
                        return Err(Dead);
                    }
                    self.store(i, a, a_singles, &mut dirty);
                    continue;
                }
                let j = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                let (w, (b, b_singles)) = (self.get(j), self.reduce::<BMI2>(j));
                if dirty == 0 {
                    touched |= 1 << i | 1 << j;
                    if (a == 0) | (b == 0) {
                        return Err(Dead);
                    }
                    let placed = self.store(i, a, a_singles, &mut dirty);
                    self.store_unchanged(placed, j, w, b, b_singles, &mut dirty);
                    continue;
                }
                let k = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                let (x, (c, c_singles)) = (self.get(k), self.reduce::<BMI2>(k));
                touched |= 1 << i | 1 << j | 1 << k;
                if (a == 0) | (b == 0) | (c == 0) {
                    return Err(Dead);
                }
                let placed = self.store(i, a, a_singles, &mut dirty);
                let placed = self.store_unchanged(placed, j, w, b, b_singles, &mut dirty);
                self.store_unchanged(placed, k, x, c, c_singles, &mut dirty);
            }
            if self.solved() {
                return Ok(());
            }
            if self.naked_singles(&mut dirty)? {
                continue;
            }
            if !self.stacks::<BMI2>(touched, &mut dirty)? {
                return Ok(());
            }
            touched = 0;
        }
    }

    /// Checks (U1)-(U4) (see the module documentation) on a state after a propagation that
    /// found no contradiction.
    #[cfg(test)]
    fn check_invariants(&self) -> Result<(), String> {
        if self.unsolved[3] != 0 || self.f.iter().any(|row| row[9..].iter().any(|&w| w != 0)) {
            return Err("(U1) padding words are not 0".into());
        }
        for b in 0..3 {
            let row = &self.f[b];
            if self.unsolved[b] & !BAND != 0 || row.iter().any(|&w| w & !BAND != 0) {
                return Err(format!("(U1) band {b} has bits outside the band"));
            }
            let placed = BAND & !self.unsolved[b];
            for p in (0..27).filter(|&p| placed >> p & 1 == 1) {
                let digits: Vec<usize> = (0..9).filter(|&d| row[d] >> p & 1 == 1).collect();
                let [d] = digits[..] else {
                    return Err(format!("(U2) placed cell {p} of band {b} in digits {digits:?}"));
                };
                let col = COL0 << (p % 9);
                let others = (0..3).map(|k| self.f[k][d] & col).filter(|&x| x != 0).count();
                if row[d] & PEERS[p] != 0 || others != 1 || row[d] & col != 1 << p {
                    return Err(format!("(U3) digit {d} placed at cell {p} of band {b}"));
                }
            }
            let (one, two) = lanes::one_two(row);
            if self.unsolved[b] & !(one & two) != 0 {
                return Err(format!("(U4) band {b} has an empty cell with one candidate"));
            }
            for (d, &w) in row.iter().enumerate().take(9) {
                for r in 0..3 {
                    let (u, all) = (w & self.unsolved[b] & 0x1FF << (9 * r), w & 0x1FF << (9 * r));
                    if u.count_ones() == 1 && u == all {
                        return Err(format!("(U4) row {r} of digit {d} in band {b} is a single"));
                    }
                }
            }
        }
        Ok(())
    }

    /// [`State::choose`] by its definition, cell by cell over the grid: the first cell with
    /// two candidates and the most unplaced cells among its 20 peers, or if there is none,
    /// the first with the fewest candidates.
    #[cfg(test)]
    fn choose_by_definition(&self) -> (usize, usize) {
        let open = |i: usize| self.unsolved[i / 27] >> (i % 27) & 1 == 1;
        let candidates =
            |i: usize| (0..9).filter(|&d| self.f[i / 27][d] >> (i % 27) & 1 == 1).count();
        let score = |i: usize| (0..81).filter(|&j| open(j) && grid_peers(i, j)).count();
        let pairs = (0..81).filter(|&i| open(i) && candidates(i) == 2);
        // `max_by_key` keeps the last of equal maxima (go backwards to keep the first), and
        // `min_by_key` the first.
        let best = pairs.rev().max_by_key(|&i| score(i)).unwrap_or_else(|| {
            (0..81).filter(|&i| open(i)).min_by_key(|&i| candidates(i)).unwrap_or(0)
        });
        (best / 27, best % 27)
    }

    fn solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The cell to branch on, as (band, band cell): among the cells with two candidates,
    /// the one with the most unplaced cells in its row, column and box; if there is none,
    /// the first with the fewest candidates.
    #[inline(always)]
    fn choose(&self) -> (usize, usize) {
        // The best as `score << 8 | 255 - cell`: the first cell among equal scores wins.
        let mut best = 0;
        for (b, [o1, o2]) in OTHER.into_iter().enumerate() {
            let unsolved = self.unsolved[b];
            let (_, two, three) = lanes::one_two_three(&self.f[b]);
            let mut pairs = unsolved & two & !three;
            // The unplaced cells of the band, then of the two others, as 81 bits (see `SCORE`).
            let (u1, u2) = (u64::from(self.unsolved[o1]), u64::from(self.unsolved[o2]));
            let (lo, hi) = (u64::from(unsolved) | u1 << 27 | u2 << 54, u2 >> 10);
            while pairs != 0 {
                let p = pairs.trailing_zeros() as usize;
                pairs &= pairs - 1;
                let [mask_lo, mask_hi] = SCORE[p];
                let score = (lo & mask_lo).count_ones() + (hi & mask_hi).count_ones();
                best = best.max((score as usize) << 8 | (255 - 27 * b - p));
            }
        }
        if best != 0 {
            let cell = 255 - (best & 0xFF);
            let b = usize::from(cell >= 27) + usize::from(cell >= 54);
            return (b, cell - 27 * b);
        }
        let mut best = (u32::MAX, 0, 0);
        for b in 0..3 {
            let mut unsolved = self.unsolved[b];
            while unsolved != 0 {
                let p = unsolved.trailing_zeros() as usize;
                unsolved &= unsolved - 1;
                let n = lanes::having(&self.f[b], 1 << p).count_ones();
                if n < best.0 {
                    best = (n, b, p);
                }
            }
        }
        (best.1, best.2)
    }

    /// The solved grid (valid when `solved`: each row of a word has one cell).
    fn grid(&self) -> Grid {
        let mut cells = vec![0u8; 81];
        for (b, row) in self.f.iter().enumerate() {
            for (d, &w) in row.iter().enumerate().take(9) {
                for r in 0..3 {
                    let c = ((w >> (9 * r)) & 0x1FF).trailing_zeros() as usize;
                    if let Some(cell) = cells.get_mut(27 * b + 9 * r + c) {
                        *cell = d as u8 + 1;
                    }
                }
            }
        }
        Grid { shape: Shape::CLASSIC, cells }
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
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("lzcnt")
        {
            // SAFETY: the CPU has every feature `search_v3` is compiled for.
            return unsafe { self.search_v3(grid, options) };
        }
        self.run::<false>(grid, options)
    }

    /// [`BandSolver::run`] compiled for x86-64-v3 CPUs (AVX2, BMI1/2, POPCNT, LZCNT).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn search_v3(&mut self, grid: &Grid, options: &Options) -> Report {
        self.run::<true>(grid, options)
    }

    /// The search itself, inlined into each entry point.
    #[inline(always)]
    fn run<const BMI2: bool>(&mut self, grid: &Grid, options: &Options) -> Report {
        debug_assert_eq!(grid.shape(), Shape::CLASSIC);
        let (mut report, limit) = match options.start() {
            Ok(start) => start,
            Err(refused) => return refused,
        };
        let Some(mut st) = State::new(grid.values()) else {
            return report;
        };
        let guard = options.guard();
        self.stack.clear();
        while guard.enter(&mut report) {
            if st.propagate::<BMI2>().is_ok() {
                #[cfg(test)]
                if let Err(e) = st.check_invariants() {
                    panic!("{e}");
                }
                #[cfg(test)]
                if !st.solved() {
                    assert_eq!(st.choose(), st.choose_by_definition());
                }
                if st.solved() {
                    report.solutions += 1;
                    if report.solution.is_none() && !options.skip_solution {
                        report.solution = Some(st.grid());
                    }
                    if report.solutions >= limit {
                        report.stop = Stop::SolutionLimit;
                        break;
                    }
                } else {
                    let (b, p) = st.choose();
                    let digits = lanes::having(&st.f[b], 1 << p);
                    let d = digits.trailing_zeros() as usize;
                    let rest = digits & (digits - 1);
                    let mut other = st;
                    if rest.count_ones() == 1 {
                        // Two candidates: the other branch places the second.
                        let e = rest.trailing_zeros() as usize;
                        other.f[b][e] &= RESTRICT[p];
                        other.dirty |= 1 << (16 * b + e);
                    } else {
                        other.f[b][d] &= !(1 << p);
                        other.dirty |= 1 << (16 * b + d);
                    }
                    self.stack.push(other);
                    st.f[b][d] &= RESTRICT[p];
                    st.dirty |= 1 << (16 * b + d);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::{parse_puzzles, Method};

    const TDOKU: &str = include_str!("../../../../testdata/sudoku/tdoku_test_puzzles");
    const HARDEST_1106: &str =
        include_str!("../../../../testdata/sudoku/puzzles6_forum_hardest_1106");

    #[cfg(target_arch = "x86_64")]
    fn has_bmi2() -> bool {
        std::is_x86_feature_detected!("bmi2")
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn has_bmi2() -> bool {
        false
    }

    /// The table versions of the bit helpers against their definitions, and the BMI2
    /// versions against the tables where the CPU has BMI2.
    #[test]
    fn bit_helpers() {
        for x in 0..512u32 {
            let spread_def = (0..9).fold(0, |m, j| m | (x >> j & 1) << (3 * j));
            assert_eq!(spread::<false>(x), spread_def);
            assert_eq!(groups::<false>(spread_def), x);
            let one = |x: u32| if x.count_ones() == 1 { x } else { 0 };
            let (y, z) = (x ^ 0x155, (x * 7) & 0x1FF);
            assert_eq!(single_rows(x | y << 9 | z << 18), one(x) | one(y) << 9 | one(z) << 18);
        }
        // Groups of every word made of three 9-bit samples.
        let words = (0..512u32).flat_map(|x| [x | x << 9 | x << 18, x << 18 | (x ^ 0x155), x << 9]);
        for w in words {
            let def = (0..9).fold(0, |m, j| m | u32::from(w >> (3 * j) & 7 != 0) << j);
            assert_eq!(groups::<false>(w), def, "{w:#x}");
            if has_bmi2() {
                assert_eq!(groups::<true>(w), def, "{w:#x}");
            }
        }
        if has_bmi2() {
            for x in 0..512 {
                assert_eq!(spread::<true>(x), spread::<false>(x));
            }
        }
    }

    /// `State::new` against a cell-by-cell construction: on every pair of givens (the same
    /// digit, which clashes exactly when the cells are peers, and two digits) and on tdoku's
    /// test puzzles.
    #[test]
    fn new_state() {
        // Digit `d` may go in cell `i` when the cell holds it, or is empty and no peer does.
        fn by_cells(values: &[u8]) -> Option<State> {
            let clash = (0..81).any(|i| {
                (0..81).any(|j| values[i] != 0 && values[i] == values[j] && grid_peers(i, j))
            });
            if clash {
                return None;
            }
            let mut f = [[0u32; LANES]; 3];
            let mut unsolved = [0u32; 4];
            for i in 0..81 {
                let (b, p) = (i / 27, i % 27);
                unsolved[b] |= u32::from(values[i] == 0) << p;
                for d in 1..=9u8 {
                    let free =
                        values[i] == 0 && (0..81).all(|j| !grid_peers(i, j) || values[j] != d);
                    f[b][usize::from(d - 1)] |= u32::from(free || values[i] == d) << p;
                }
            }
            Some(State { f, unsolved, dirty: WORDS })
        }
        let same = |a: &Option<State>, b: &Option<State>| match (a, b) {
            (Some(a), Some(b)) => (a.f, a.unsolved, a.dirty) == (b.f, b.unsolved, b.dirty),
            (a, b) => a.is_none() && b.is_none(),
        };
        for i in 0..81 {
            for j in i + 1..81 {
                for e in [1, 9] {
                    let mut values = [0u8; 81];
                    (values[i], values[j]) = (1, e);
                    let st = State::new(&values);
                    assert_eq!(st.is_none(), e == 1 && grid_peers(i, j), "cells {i}, {j}");
                    assert!(same(&st, &by_cells(&values)), "cells {i}, {j}, digits 1, {e}");
                }
            }
        }
        for line in TDOKU.lines().filter_map(|l| l.split(':').next()) {
            let Ok(grid) = Grid::parse_line(line, None) else { continue };
            if grid.shape() == Shape::CLASSIC {
                assert!(same(&State::new(grid.values()), &by_cells(grid.values())), "{line}");
            }
        }
    }

    /// The portable search and the one the CPU runs (x86-64-v3 where it can) build the same
    /// trees: the same counts, nodes and first solutions.
    #[test]
    fn portable_search_matches() {
        let tdoku = TDOKU.lines().filter_map(|l| l.split(':').next());
        let text: String =
            tdoku.chain(HARDEST_1106.lines().take(60)).flat_map(|l| [l, "\n"]).collect();
        let mut solver = BandSolver::default();
        let mut portable = BandSolver::default();
        let mut checked = 0;
        for p in parse_puzzles(&text, None) {
            let Ok(p) = p else { continue };
            if p.grid.shape() != Shape::CLASSIC {
                continue;
            }
            for options in [Options::new(Method::Fast).limit(2), Options::new(Method::Fast)] {
                let a = solver.search(&p.grid, &options);
                let b = portable.run::<false>(&p.grid, &options);
                assert_eq!(a, b, "line {}", p.line);
            }
            checked += 1;
        }
        assert!(checked > 100, "{checked}");
    }

    /// The invariant check passes on propagated states and catches each kind of damage.
    #[test]
    fn invariants_catch_broken_states() {
        let line = HARDEST_1106.lines().find(|l| !l.starts_with('#')).expect("a puzzle");
        let grid = Grid::parse_line(line, None).expect("valid");
        let mut st = State::new(grid.values()).expect("no clash");
        assert!(st.propagate::<false>().is_ok());
        st.check_invariants().expect("a propagated state");
        let b = (0..3).find(|&b| st.unsolved[b] != BAND).expect("a band with a given");
        let p = (BAND & !st.unsolved[b]).trailing_zeros() as usize;
        let d = (0..9).find(|&d| st.f[b][d] >> p & 1 == 1).expect("the given's digit");
        let e = (d + 1) % 9;
        // Each damage gets the band, the given's cell and digit, and another digit.
        type Damage = fn(&mut State, usize, usize, usize, usize);
        let damage: [(&str, Damage); 5] = [
            ("(U1)", |st, b, _, _, _| st.f[b][12] = 1),
            ("(U2)", |st, b, p, _, e| st.f[b][e] |= 1 << p),
            ("(U3)", |st, b, p, d, _| st.f[b][d] |= PEERS[p] & st.unsolved[b]),
            ("(U4)", |st, b, _, _, _| {
                let q = st.unsolved[b].trailing_zeros();
                let keep = (0..9).find(|&d| st.f[b][d] >> q & 1 == 1).expect("a candidate");
                for d in (0..9).filter(|&d| d != keep) {
                    st.f[b][d] &= !(1 << q);
                }
            }),
            ("(U4)", |st, b, _, _, _| st.unsolved[b] = BAND),
        ];
        for (name, damage) in damage {
            let mut broken = st;
            damage(&mut broken, b, p, d, e);
            let err = broken.check_invariants().expect_err(name);
            assert!(err.starts_with(name), "{name}: {err}");
        }
    }

    /// `skip_solution` leaves the grid out and changes nothing else.
    #[test]
    fn skip_solution() {
        let mut solver = BandSolver::default();
        for line in HARDEST_1106.lines().take(20) {
            let Ok(grid) = Grid::parse_line(line, None) else { continue };
            let with = solver.search(&grid, &Options::new(Method::Fast).limit(2));
            let without =
                solver.search(&grid, &Options::new(Method::Fast).limit(2).skip_solution());
            assert!(with.solution.is_some() && without.solution.is_none());
            assert_eq!(Report { solution: None, ..with }, without);
        }
    }
}
