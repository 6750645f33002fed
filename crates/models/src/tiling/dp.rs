//! Counting tilings of a rectangle by a profile (broken-line) dynamic program.
//!
//! The cells are visited in reading order over the narrower side (the board and the pieces
//! are transposed when the board is wider than tall, which is a bijection of tilings). At
//! cell `k` the state is the set of cells `k, k + 1, ..., k + w - 1` already covered, as a
//! bit mask (`w`, the *window*, reaches one cell past the farthest cell any orientation can
//! cover when anchored at its first cell). Every tiling places, at the first uncovered cell,
//! a piece whose first cell (in reading order) is that cell; so the count of states after
//! the last cell, with nothing pending, is the number of tilings. It is exact at any size:
//! the states' counts are `u128`s, checked on every addition, until one passes `u128::MAX`;
//! from that cell on they are big integers (the domino tilings of a 20 x 20 board number
//! about 1.27 x 10^48).
//!
//! The number of states grows like `2^window` in the worst case; dominoes on a 12-wide board
//! have at most `2^13`, pentominoes on a 6-wide one some ten thousand.

use std::sync::atomic::{AtomicBool, Ordering};

use dancecard_engine::{BigUint, Count};

use super::pieces::Shape;

/// The widest window the program handles (one bit per cell in a `u64`).
pub const MAX_WINDOW: usize = 64;

/// The most states kept at one cell before the program gives up.
pub const MAX_STATES: usize = 1 << 24;

/// Why the profile program cannot count this tiling.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DpError {
    /// The board has holes or is not a rectangle.
    #[error(
        "the profile DP counts tilings of full rectangles only; use the DLX method for this board"
    )]
    NotRectangle,
    /// Every piece exactly once is not a profile property.
    #[error("the profile DP counts tilings with any number of copies of each piece; use the DLX method with --once")]
    Once,
    /// The pieces reach too far ahead for the state to fit in 64 bits.
    #[error("the profile DP needs a window of {window} cells (at most {MAX_WINDOW}): the board is too wide for these pieces")]
    TooWide {
        /// The window needed.
        window: usize,
    },
    /// The number of states exploded past the limit ([`MAX_STATES`] unless the caller set
    /// another with [`count_rectangle_bounded`]).
    #[error("the profile DP would keep more than {limit} states")]
    TooManyStates {
        /// The limit.
        limit: usize,
    },
    /// The board is wider, on its narrow side, than the caller lets the DP take
    /// ([`DpLimits::max_side`](super::DpLimits::max_side)).
    #[error("the profile DP takes boards at most {max} squares wide in one direction here")]
    Side {
        /// The widest narrow side taken.
        max: usize,
    },
    /// The cancel flag was raised.
    #[error("cancelled")]
    Cancelled,
}

/// An orientation ready for the program: offsets of its cells from its first cell.
struct Stamp {
    mask: u64,
    /// How far the piece reaches left and right of its first cell, and down.
    left: usize,
    right: usize,
    down: usize,
}

/// Counts the tilings of a `rows x cols` rectangle by any number of copies of the given
/// orientations (each a normalised [`Shape`], all distinct).
///
/// ```
/// use dancecard_models::tiling::count_rectangle;
/// let domino = [vec![(0, 0), (0, 1)], vec![(0, 0), (1, 0)]];
/// assert_eq!(count_rectangle(8, 8, &domino, None)?, 12_988_816);
/// // Past 2^128: Kasteleyn's count of the domino tilings of 20 x 20 (OEIS A004003).
/// assert_eq!(
///     count_rectangle(20, 20, &domino, None)?.to_string(),
///     "1269984011256235834242602753102293934298576249856"
/// );
/// # Ok::<(), dancecard_models::tiling::DpError>(())
/// ```
pub fn count_rectangle(
    rows: usize,
    cols: usize,
    orientations: &[Shape],
    cancel: Option<&AtomicBool>,
) -> Result<Count, DpError> {
    count_rectangle_bounded(rows, cols, orientations, cancel, MAX_STATES)
}

/// [`count_rectangle`] keeping at most `max_states` states at any cell (the memory is about
/// 128 bytes per state at the peak); past it, [`DpError::TooManyStates`]. The cancel flag is
/// read before every cell and every 65,536 states within one.
pub fn count_rectangle_bounded(
    rows: usize,
    cols: usize,
    orientations: &[Shape],
    cancel: Option<&AtomicBool>,
    max_states: usize,
) -> Result<Count, DpError> {
    if rows == 0 || cols == 0 {
        return Ok(Count::ONE);
    }
    // Work along the narrower side.
    let (h, w, shapes): (usize, usize, Vec<Shape>) = if cols > rows {
        let t = orientations
            .iter()
            .map(|s| {
                let mut t: Shape = s.iter().map(|&(r, c)| (c, r)).collect();
                t.sort_unstable();
                t
            })
            .collect();
        (cols, rows, t)
    } else {
        (rows, cols, orientations.to_vec())
    };
    let mut stamps = Vec::new();
    for shape in &shapes {
        let Some(&(r0, c0)) = shape.first() else { continue };
        let height = shape.iter().map(|c| c.0 + 1).max().unwrap_or(0);
        let width = shape.iter().map(|c| c.1 + 1).max().unwrap_or(0);
        if height > h || width > w {
            continue;
        }
        let left = shape.iter().map(|&(_, c)| c0.saturating_sub(c)).max().unwrap_or(0);
        let right = shape.iter().map(|&(_, c)| c.saturating_sub(c0)).max().unwrap_or(0);
        let mut mask = 0u64;
        for &(r, c) in shape {
            // Cells left of the first one lie on later rows, so this does not underflow.
            let bit = (r - r0) * w + c - c0;
            if bit >= MAX_WINDOW {
                return Err(DpError::TooWide { window: bit + 1 });
            }
            mask |= 1 << bit;
        }
        stamps.push(Stamp { mask, left, right, down: height - 1 - r0 });
    }
    let program = Program { h, w, stamps, cancel, max_states };
    // The fast path in `u128`; past it, the same steps in big integers from the cell where a
    // count passed `u128::MAX`.
    match program.run(0, vec![(0, 1u128)])? {
        Run::Done(n) => Ok(Count::new(n)),
        Run::Overflow { cell, next } => {
            let mut next: States<BigUint> =
                next.into_iter().map(|(s, n)| (s, BigUint::from(n))).collect();
            let mut states = Vec::new();
            let merged = Program::merge(&mut next, &mut states);
            debug_assert!(merged, "big integers do not overflow");
            match program.run(cell + 1, states)? {
                Run::Done(n) => Ok(Count::from(n)),
                Run::Overflow { .. } => unreachable!("big integers do not overflow"),
            }
        }
    }
}

/// States (the masks of cells covered ahead) with their numbers of partial tilings.
type States<N> = Vec<(u64, N)>;

/// A number of partial tilings: `u128` (checked) or a big integer.
trait Tally: Clone + Default {
    /// Adds `other`; false when the sum does not fit (then `self` is unchanged).
    fn add(&mut self, other: &Self) -> bool;
}

impl Tally for u128 {
    #[inline]
    fn add(&mut self, other: &u128) -> bool {
        match self.checked_add(*other) {
            Some(sum) => {
                *self = sum;
                true
            }
            None => false,
        }
    }
}

impl Tally for BigUint {
    fn add(&mut self, other: &BigUint) -> bool {
        *self += other;
        true
    }
}

/// The profile program of one board and its pieces.
struct Program<'c> {
    h: usize,
    w: usize,
    stamps: Vec<Stamp>,
    cancel: Option<&'c AtomicBool>,
    max_states: usize,
}

/// How [`Program::run`] ended.
enum Run<N> {
    /// The number of tilings.
    Done(N),
    /// At `cell`, merging `next` (the unmerged states after the cell) passed what `N` holds.
    Overflow { cell: usize, next: Vec<(u64, N)> },
}

impl Program<'_> {
    /// Runs the cells from `first` on, from `states` (sorted, one entry per state).
    fn run<N: Tally>(&self, first: usize, mut states: States<N>) -> Result<Run<N>, DpError> {
        let (h, w) = (self.h, self.w);
        let too_many = DpError::TooManyStates { limit: self.max_states };
        let mut next: States<N> = Vec::new();
        for k in first..h * w {
            if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                return Err(DpError::Cancelled);
            }
            let (r, c) = (k / w, k % w);
            next.clear();
            for (j, (s, n)) in states.iter().enumerate() {
                let s = *s;
                if j % 65_536 == 65_535 && self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                    return Err(DpError::Cancelled);
                }
                if s & 1 != 0 {
                    next.push((s >> 1, n.clone()));
                    continue;
                }
                for st in &self.stamps {
                    if st.left <= c && c + st.right < w && r + st.down < h && s & st.mask == 0 {
                        next.push(((s | st.mask) >> 1, n.clone()));
                    }
                }
                // Before merging, `next` holds up to one entry per state and stamp: bound it
                // too, so that an explosion is reported instead of exhausting memory.
                if next.len() > 4 * self.max_states {
                    return Err(too_many);
                }
            }
            if !Self::merge(&mut next, &mut states) {
                return Ok(Run::Overflow { cell: k, next });
            }
            if states.len() > self.max_states {
                return Err(too_many);
            }
        }
        let total = states.into_iter().find(|e| e.0 == 0).map_or_else(N::default, |e| e.1);
        Ok(Run::Done(total))
    }

    /// Sorts `next` by state and writes into `states` one entry per state, its counts added
    /// up; false when a sum does not fit (`next` is then sorted, whole).
    fn merge<N: Tally>(next: &mut States<N>, states: &mut States<N>) -> bool {
        next.sort_unstable_by_key(|e| e.0);
        states.clear();
        for (s, n) in next.iter() {
            match states.last_mut() {
                Some(last) if last.0 == *s => {
                    if !last.1.add(n) {
                        return false;
                    }
                }
                _ => states.push((*s, n.clone())),
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dominoes() -> Vec<Shape> {
        vec![vec![(0, 0), (0, 1)], vec![(0, 0), (1, 0)]]
    }

    #[test]
    fn small_domino_counts() {
        let count = |r, c| count_rectangle(r, c, &dominoes(), None).map(|n| n.to_u128());
        assert_eq!(count(2, 3), Ok(Some(3)));
        assert_eq!(count(3, 2), Ok(Some(3)));
        assert_eq!(count(3, 3), Ok(Some(0)));
        assert_eq!(count(4, 4), Ok(Some(36)));
        assert_eq!(count(1, 1), Ok(Some(0)));
    }

    #[test]
    fn counts_past_u128_are_exact() {
        // OEIS A004003 (Kasteleyn's formula; checked here by an independent big-integer
        // program): 16 x 16 fits in u128, 18 x 18 passes it at some cell. (20 x 20 is in
        // tests/ground_truth.rs.)
        for (n, text) in [
            (16, "2444888770250892795802079170816"),
            (18, "548943583215388338077567813208427340288"),
        ] {
            let count = count_rectangle(n, n, &dominoes(), None).unwrap();
            assert_eq!(count.to_string(), text, "{n} x {n}");
        }
    }

    #[test]
    fn too_wide_and_cancel() {
        let long: Shape = (0..2).map(|r| (r, 0)).collect();
        assert_eq!(
            count_rectangle(70, 70, std::slice::from_ref(&long), None),
            Err(DpError::TooWide { window: 71 })
        );
        let stop = AtomicBool::new(true);
        assert_eq!(count_rectangle(4, 4, &[long], Some(&stop)), Err(DpError::Cancelled));
    }
}
