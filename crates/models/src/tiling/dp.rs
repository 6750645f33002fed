//! Counting tilings of a rectangle by a profile (broken-line) dynamic program.
//!
//! The cells are visited in reading order over the narrower side (the board and the pieces
//! are transposed when the board is wider than tall, which is a bijection of tilings). At
//! cell `k` the state is the set of cells `k, k + 1, ..., k + w - 1` already covered, as a
//! bit mask (`w`, the *window*, reaches one cell past the farthest cell any orientation can
//! cover when anchored at its first cell). Every tiling places, at the first uncovered cell,
//! a piece whose first cell (in reading order) is that cell; so the count of states after
//! the last cell, with nothing pending, is the number of tilings, and it is exact in `u128`
//! (checked on every addition).
//!
//! The number of states grows like `2^window` in the worst case; dominoes on a 12-wide board
//! have at most `2^13`, pentominoes on a 6-wide one some ten thousand.

use std::sync::atomic::{AtomicBool, Ordering};

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
    /// The count does not fit in 128 bits.
    #[error("the number of tilings exceeds 2^128")]
    Overflow,
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
/// # Ok::<(), dancecard_models::tiling::DpError>(())
/// ```
pub fn count_rectangle(
    rows: usize,
    cols: usize,
    orientations: &[Shape],
    cancel: Option<&AtomicBool>,
) -> Result<u128, DpError> {
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
) -> Result<u128, DpError> {
    let too_many = DpError::TooManyStates { limit: max_states };
    if rows == 0 || cols == 0 {
        return Ok(1);
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
    let mut states: Vec<(u64, u128)> = vec![(0, 1)];
    let mut next: Vec<(u64, u128)> = Vec::new();
    for k in 0..h * w {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(DpError::Cancelled);
        }
        let (r, c) = (k / w, k % w);
        next.clear();
        for (j, &(s, n)) in states.iter().enumerate() {
            if j % 65_536 == 65_535 && cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                return Err(DpError::Cancelled);
            }
            if s & 1 != 0 {
                next.push((s >> 1, n));
                continue;
            }
            for st in &stamps {
                if st.left <= c && c + st.right < w && r + st.down < h && s & st.mask == 0 {
                    next.push(((s | st.mask) >> 1, n));
                }
            }
            // Before merging, `next` holds up to one entry per state and stamp: bound it too,
            // so that an explosion is reported instead of exhausting memory.
            if next.len() > 4 * max_states {
                return Err(too_many);
            }
        }
        next.sort_unstable_by_key(|e| e.0);
        states.clear();
        for &(s, n) in &next {
            match states.last_mut() {
                Some(last) if last.0 == s => {
                    last.1 = last.1.checked_add(n).ok_or(DpError::Overflow)?;
                }
                _ => states.push((s, n)),
            }
        }
        if states.len() > max_states {
            return Err(too_many);
        }
    }
    Ok(states.iter().find(|e| e.0 == 0).map_or(0, |e| e.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dominoes() -> Vec<Shape> {
        vec![vec![(0, 0), (0, 1)], vec![(0, 0), (1, 0)]]
    }

    #[test]
    fn small_domino_counts() {
        assert_eq!(count_rectangle(2, 3, &dominoes(), None), Ok(3));
        assert_eq!(count_rectangle(3, 2, &dominoes(), None), Ok(3));
        assert_eq!(count_rectangle(3, 3, &dominoes(), None), Ok(0));
        assert_eq!(count_rectangle(4, 4, &dominoes(), None), Ok(36));
        assert_eq!(count_rectangle(1, 1, &dominoes(), None), Ok(0));
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
