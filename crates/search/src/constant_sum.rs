//! BISHI28: an `n x n` matrix of non-negative integers whose rows and columns all sum to
//! `k`.
//!
//! The textbook chapter places it beside sudoku as the puzzle that only looks like one: its
//! constraints are linear sums, not "exactly once", so no exact cover (and no search) is
//! needed. `k` on the diagonal and 0 elsewhere works for every `n >= 1` and `k >= 0`; the
//! even layout spreads `k` as `q = k / n` everywhere plus 1 on `r = k mod n` cyclic
//! diagonals (cell `(i, j)` gets `q + 1` when `(j - i) mod n < r`), so that every row and
//! every column gets exactly `r` extra ones. A negative `k` has no answer.
//!
//! ```
//! use dancecard_search::constant_sum::{ConstantSum, Layout};
//!
//! let m = ConstantSum::new(3, 7, Layout::Even).unwrap();
//! assert_eq!(m.row(0), [3, 2, 2]);
//! assert!(m.check());
//! assert!(ConstantSum::new(3, -1, Layout::Diagonal).is_none());
//! ```

/// How `k` is placed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    /// `k` on the main diagonal, 0 elsewhere.
    #[default]
    Diagonal,
    /// As even as possible: every cell `k / n` or `k / n + 1`.
    Even,
}

/// The matrix, computed cell by cell (an `n = 1000` matrix is never stored).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstantSum {
    n: usize,
    k: u128,
    layout: Layout,
}

impl ConstantSum {
    /// The matrix for `n` and `k`, or `None` when `k < 0` (no non-negative matrix has a
    /// negative sum).
    pub fn new(n: usize, k: i128, layout: Layout) -> Option<ConstantSum> {
        let k = u128::try_from(k).ok()?;
        Some(ConstantSum { n, k, layout })
    }

    /// The side.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Cell `(i, j)`.
    pub fn cell(&self, i: usize, j: usize) -> u128 {
        match self.layout {
            Layout::Diagonal => {
                if i == j {
                    self.k
                } else {
                    0
                }
            }
            Layout::Even => {
                let n = self.n as u128;
                let (q, r) = (self.k / n, self.k % n);
                let diagonal = ((j + self.n - i) % self.n) as u128;
                q + u128::from(diagonal < r)
            }
        }
    }

    /// Row `i`.
    pub fn row(&self, i: usize) -> Vec<u128> {
        (0..self.n).map(|j| self.cell(i, j)).collect()
    }

    /// Row `i` as text: the numbers separated by single spaces.
    pub fn row_text(&self, i: usize) -> String {
        let mut line = String::with_capacity(2 * self.n + 20);
        for j in 0..self.n {
            if j > 0 {
                line.push(' ');
            }
            match self.cell(i, j) {
                0 => line.push('0'),
                v => line.push_str(&v.to_string()),
            }
        }
        line
    }

    /// Whether every row and column sums to `k` (a check for tests: `O(n²)`).
    pub fn check(&self) -> bool {
        let rows =
            (0..self.n).all(|i| (0..self.n).map(|j| self.cell(i, j)).sum::<u128>() == self.k);
        let cols =
            (0..self.n).all(|j| (0..self.n).map(|i| self.cell(i, j)).sum::<u128>() == self.k);
        rows && cols
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layout_sums_correctly() {
        for n in 1..12 {
            for k in [0, 1, 2, 5, 11, 12, 13, 1_000_000_000] {
                for layout in [Layout::Diagonal, Layout::Even] {
                    let m = ConstantSum::new(n, k, layout).unwrap();
                    assert!(m.check(), "n={n} k={k} {layout:?}");
                }
            }
        }
        assert_eq!(ConstantSum::new(2, 4, Layout::Diagonal).unwrap().row_text(1), "0 4");
        assert_eq!(ConstantSum::new(1, 9, Layout::Even).unwrap().row_text(0), "9");
        assert!(ConstantSum::new(4, -3, Layout::Even).is_none());
    }
}
