//! Boards: the cells to cover, and their symmetries.

use super::pieces::{is_rotation, transform};
use super::TilingError;

/// The most cells a board may have.
pub const MAX_CELLS: usize = 1 << 16;

/// A set of cells to cover, inside a `rows x cols` bounding box that it touches on all four
/// sides (rectangles, or any shape with holes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    rows: usize,
    cols: usize,
    /// Row by row: whether each square of the bounding box is a cell.
    cells: Vec<bool>,
    /// The number of each cell in reading order (`u32::MAX` for a square that is no cell).
    index: Vec<u32>,
    count: usize,
}

impl Board {
    /// A full `rows x cols` rectangle.
    pub fn rectangle(rows: usize, cols: usize) -> Result<Board, TilingError> {
        if rows == 0 || cols == 0 {
            return Err(TilingError::EmptyBoard);
        }
        if rows.checked_mul(cols).map_or(true, |n| n > MAX_CELLS) {
            return Err(TilingError::BoardTooLarge { max: MAX_CELLS });
        }
        Board::from_cells(rows, cols, vec![true; rows * cols])
    }

    /// A rectangle written `RxC` (e.g. `6x10`).
    pub fn parse_size(text: &str) -> Result<Board, TilingError> {
        let bad = || TilingError::BoardSize { text: text.to_owned() };
        let (r, c) = text.trim().split_once(['x', 'X']).ok_or_else(bad)?;
        let r: usize = r.parse().map_err(|_| bad())?;
        let c: usize = c.parse().map_err(|_| bad())?;
        Board::rectangle(r, c)
    }

    /// A board in ASCII art: `#` or any letter marks a cell, `.` or a space marks a square
    /// without one. Lines may have different lengths; empty rows and columns around the cells
    /// are dropped.
    ///
    /// ```
    /// use dancecard_models::tiling::Board;
    /// let b = Board::parse("###\n#.#\n###\n")?;
    /// assert_eq!((b.rows(), b.cols(), b.cell_count()), (3, 3, 8));
    /// assert!(!b.is_rectangle());
    /// # Ok::<(), dancecard_models::tiling::TilingError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Board, TilingError> {
        let mut marked = Vec::new();
        for (r, line) in text.lines().enumerate() {
            for (c, ch) in line.trim_end_matches('\r').chars().enumerate() {
                match ch {
                    '#' => marked.push((r, c)),
                    c2 if c2.is_ascii_alphabetic() => marked.push((r, c)),
                    '.' | ' ' => {}
                    _ => return Err(TilingError::BoardChar { line: r + 1, column: c + 1, ch }),
                }
            }
        }
        if marked.is_empty() {
            return Err(TilingError::EmptyBoard);
        }
        let r0 = marked.iter().map(|m| m.0).min().unwrap_or(0);
        let c0 = marked.iter().map(|m| m.1).min().unwrap_or(0);
        let rows = marked.iter().map(|m| m.0 - r0 + 1).max().unwrap_or(0);
        let cols = marked.iter().map(|m| m.1 - c0 + 1).max().unwrap_or(0);
        if rows.checked_mul(cols).map_or(true, |n| n > MAX_CELLS) {
            return Err(TilingError::BoardTooLarge { max: MAX_CELLS });
        }
        let mut cells = vec![false; rows * cols];
        for (r, c) in marked {
            cells[(r - r0) * cols + c - c0] = true;
        }
        Board::from_cells(rows, cols, cells)
    }

    fn from_cells(rows: usize, cols: usize, cells: Vec<bool>) -> Result<Board, TilingError> {
        let mut index = vec![u32::MAX; cells.len()];
        let mut count = 0;
        for (k, &cell) in cells.iter().enumerate() {
            if cell {
                index[k] = count as u32;
                count += 1;
            }
        }
        if count == 0 {
            return Err(TilingError::EmptyBoard);
        }
        Ok(Board { rows, cols, cells, index, count })
    }

    /// The height of the bounding box.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The width of the bounding box.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Whether `(r, c)` is a cell.
    pub fn contains(&self, r: usize, c: usize) -> bool {
        r < self.rows && c < self.cols && self.cells[r * self.cols + c]
    }

    /// The number of cells.
    pub fn cell_count(&self) -> usize {
        self.count
    }

    /// Whether every square of the bounding box is a cell.
    pub fn is_rectangle(&self) -> bool {
        self.count == self.rows * self.cols
    }

    /// The number (0-based, in reading order) of cell `(r, c)`.
    pub fn cell_index(&self, r: usize, c: usize) -> Option<usize> {
        if !self.contains(r, c) {
            return None;
        }
        Some(self.index[r * self.cols + c] as usize)
    }

    /// The cells in reading order.
    pub fn cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.rows * self.cols)
            .filter(|&k| self.cells[k])
            .map(|k| (k / self.cols, k % self.cols))
    }

    /// The board's symmetries (the identity first), each as the image of every cell number:
    /// the rotations and reflections of the bounding box that map the cells onto themselves,
    /// or only the rotations when `reflections` is false.
    pub fn symmetries(&self, reflections: bool) -> Vec<Vec<u32>> {
        let cells: Vec<(usize, usize)> = self.cells().collect();
        let mut out = Vec::new();
        for k in 0..8 {
            if (k & 1 != 0 && self.rows != self.cols) || (!reflections && !is_rotation(k)) {
                continue;
            }
            let image: Option<Vec<u32>> = cells
                .iter()
                .map(|&(r, c)| {
                    let (a, b) = transform(k, self.rows, self.cols, r, c);
                    self.cell_index(a, b).map(|i| i as u32)
                })
                .collect();
            if let Some(image) = image {
                out.push(image);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetry_groups() {
        assert_eq!(Board::rectangle(6, 10).unwrap().symmetries(true).len(), 4);
        assert_eq!(Board::rectangle(8, 8).unwrap().symmetries(true).len(), 8);
        assert_eq!(Board::rectangle(8, 8).unwrap().symmetries(false).len(), 4);
        assert_eq!(Board::rectangle(3, 5).unwrap().symmetries(false).len(), 2);
        // An L-shaped board: only the diagonal reflection and the identity.
        let l = Board::parse("#..\n#..\n###\n").unwrap();
        assert_eq!(l.symmetries(true).len(), 2);
        assert_eq!(l.symmetries(false).len(), 1);
        // Margins are trimmed, so a shifted square is still a square.
        let sq = Board::parse("....\n.##.\n.##.\n").unwrap();
        assert_eq!((sq.rows(), sq.cols(), sq.symmetries(true).len()), (2, 2, 8));
    }

    #[test]
    fn bad_boards() {
        assert!(matches!(Board::parse(".. .\n"), Err(TilingError::EmptyBoard)));
        assert!(matches!(
            Board::parse("#?\n"),
            Err(TilingError::BoardChar { line: 1, column: 2, .. })
        ));
        assert!(matches!(Board::parse_size("0x4"), Err(TilingError::EmptyBoard)));
        assert!(matches!(Board::parse_size("4by4"), Err(TilingError::BoardSize { .. })));
        assert!(matches!(
            Board::parse_size("100000x100000"),
            Err(TilingError::BoardTooLarge { .. })
        ));
        assert_eq!(Board::parse_size(" 3X4 ").unwrap().cell_count(), 12);
    }
}
