//! BISHI79: choose cells of an `N x M` grid of non-negative numbers, no two chosen cells
//! 8-adjacent (sharing a side or a corner), with the largest sum.
//!
//! # Method
//!
//! Row-mask dynamic programming, the chapter's lesson that structure beats search: whether
//! a row's choice is allowed depends only on the row above, so the state after each row is
//! the `M`-bit mask of its chosen columns. A mask is allowed within a row when
//! `mask & (mask << 1) == 0`, and two consecutive rows' masks `s`, `t` are compatible when
//! `spread(s) & t == 0`, with `spread(s) = s | s << 1 | s >> 1` (straight above and both
//! diagonals at once).
//!
//! The naive transition tries every pair of allowed masks: `F(M+2)²` pairs (6.7 million for
//! `M = 16`). Instead, `t` is compatible with exactly the masks inside `~spread(t)`, so the
//! best predecessor of every `t` is a *subset maximum*, computed for all masks at once by
//! the sum-over-subsets recurrence in `M 2^M` steps (one million for `M = 16`) per row.
//!
//! ```
//! use dancecard_search::grid_pick;
//!
//! let grid = vec![vec![75, 15, 21], vec![75, 15, 28], vec![34, 70, 5]];
//! assert_eq!(grid_pick::max_weight(&grid)?, 166); // 75 + 21 + 70
//! # Ok::<(), grid_pick::GridError>(())
//! ```

/// The widest grid supported (the DP has `2^M` states).
pub const MAX_WIDTH: usize = 16;

/// An error of [`max_weight`] or [`parse_cases`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GridError {
    /// Rows of different lengths.
    #[error("row {row} has {found} numbers, expected {expected}")]
    Ragged {
        /// The row (1-based).
        row: usize,
        /// Its length.
        found: usize,
        /// The first row's length.
        expected: usize,
    },
    /// Wider than [`MAX_WIDTH`] (the narrower side of a grid can be used as its width, so
    /// only grids with both sides above it fail).
    #[error("both sides exceed {MAX_WIDTH} ({rows} x {cols})")]
    TooWide {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// The input is not T, then T times `N M` and N rows of M numbers.
    #[error("{0}")]
    Parse(String),
}

/// A grid: rows of numbers.
pub type Grid = Vec<Vec<u64>>;

/// The grid transposed when that makes it narrow enough.
fn oriented(grid: &[Vec<u64>]) -> Result<Grid, GridError> {
    let rows = grid.len();
    let cols = grid.first().map_or(0, Vec::len);
    for (r, row) in grid.iter().enumerate() {
        if row.len() != cols {
            return Err(GridError::Ragged { row: r + 1, found: row.len(), expected: cols });
        }
    }
    if cols <= MAX_WIDTH {
        Ok(grid.to_vec())
    } else if rows <= MAX_WIDTH {
        Ok((0..cols).map(|c| grid.iter().map(|row| row[c]).collect()).collect())
    } else {
        Err(GridError::TooWide { rows, cols })
    }
}

/// `best[mask] = max over sub ⊆ mask of best[sub]`, in place (sum over subsets with max).
fn subset_max(best: &mut [Option<u128>], width: usize) {
    for bit in 0..width {
        for mask in 0..best.len() {
            if mask >> bit & 1 == 1 {
                let sub = best[mask ^ (1 << bit)];
                if sub > best[mask] {
                    best[mask] = sub;
                }
            }
        }
    }
}

/// The largest sum of cells, no two 8-adjacent (0 for an empty grid).
pub fn max_weight(grid: &[Vec<u64>]) -> Result<u128, GridError> {
    let grid = oriented(grid)?;
    let width = grid.first().map_or(0, Vec::len);
    let full = 1usize << width;
    let allowed: Vec<bool> = (0..full).map(|m| m & (m << 1) == 0).collect();
    let spread = |m: usize| (m | m << 1 | m >> 1) & (full - 1);
    // best[mask]: the best sum of the rows so far with the last row choosing `mask`.
    let mut best: Vec<Option<u128>> = vec![None; full];
    best[0] = Some(0);
    let mut value = vec![0u128; full];
    for row in &grid {
        for m in 1..full {
            let low = m.trailing_zeros() as usize;
            value[m] = value[m & (m - 1)] + u128::from(row[low]);
        }
        subset_max(&mut best, width);
        let before = best.clone();
        for t in 0..full {
            best[t] = if allowed[t] {
                before[(full - 1) & !spread(t)].map(|b| b + value[t])
            } else {
                None
            };
        }
    }
    Ok(best.into_iter().flatten().max().unwrap_or(0))
}

/// The number of allowed selections (the empty one included) in a `rows x cols` grid: the
/// independent sets of the king's graph.
pub fn count_selections(rows: usize, cols: usize) -> Result<u128, GridError> {
    let (rows, width) = if cols <= MAX_WIDTH {
        (rows, cols)
    } else if rows <= MAX_WIDTH {
        (cols, rows)
    } else {
        return Err(GridError::TooWide { rows, cols });
    };
    let full = 1usize << width;
    let spread = |m: usize| (m | m << 1 | m >> 1) & (full - 1);
    let mut ways = vec![0u128; full];
    ways[0] = 1;
    for _ in 0..rows {
        // Sum over subsets, then read each allowed mask's compatible total.
        for bit in 0..width {
            for mask in 0..full {
                if mask >> bit & 1 == 1 {
                    ways[mask] += ways[mask ^ (1 << bit)];
                }
            }
        }
        let sums = ways.clone();
        for t in 0..full {
            ways[t] = if t & (t << 1) == 0 { sums[(full - 1) & !spread(t)] } else { 0 };
        }
    }
    Ok(ways.iter().sum())
}

/// Parses the exercise's input: T, then for each case `N M` and N rows of M numbers.
pub fn parse_cases(text: &str) -> Result<Vec<Grid>, GridError> {
    let mut words = text.split_whitespace();
    let mut number = |what: &dyn Fn() -> String| -> Result<u64, GridError> {
        let w = words.next().ok_or_else(|| GridError::Parse(format!("missing {}", what())))?;
        w.parse()
            .map_err(|_| GridError::Parse(format!("{}: not a non-negative integer: {w:?}", what())))
    };
    let t = number(&|| "T (the number of cases)".to_owned())?;
    let mut cases = Vec::new();
    for case in 1..=t {
        let n = number(&|| format!("case {case}: N"))? as usize;
        let m = number(&|| format!("case {case}: M"))? as usize;
        if n > MAX_WIDTH && m > MAX_WIDTH {
            return Err(GridError::TooWide { rows: n, cols: m });
        }
        if m == 0 {
            // No columns: no numbers to read and no cell to pick (the best sum is 0). The
            // empty rows are not stored: n comes from the input, up to 2^64 of them.
            cases.push(Vec::new());
            continue;
        }
        let mut grid = Vec::new(); // n comes from the input: no allocation by it
        for r in 1..=n {
            let row = (1..=m)
                .map(|c| number(&|| format!("case {case}: row {r}, column {c}")))
                .collect::<Result<Vec<u64>, _>>()?;
            grid.push(row);
        }
        cases.push(grid);
    }
    if words.next().is_some() {
        return Err(GridError::Parse(format!("unexpected text after {t} cases")));
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn brute(grid: &[Vec<u64>]) -> u128 {
        let rows = grid.len();
        let cols = grid.first().map_or(0, Vec::len);
        let cells = rows * cols;
        let mut best = 0;
        'subsets: for mask in 0u32..1 << cells {
            let mut sum = 0u128;
            for a in 0..cells {
                if mask >> a & 1 == 0 {
                    continue;
                }
                for b in a + 1..cells {
                    if mask >> b & 1 == 1
                        && (a / cols).abs_diff(b / cols) <= 1
                        && (a % cols).abs_diff(b % cols) <= 1
                    {
                        continue 'subsets;
                    }
                }
                sum += u128::from(grid[a / cols][a % cols]);
            }
            best = best.max(sum);
        }
        best
    }

    proptest! {
        #[test]
        fn matches_brute_force(
            (rows, cols) in (1usize..=4, 1usize..=4),
            seed in proptest::collection::vec(0u64..100_000, 16),
        ) {
            let grid: Grid = (0..rows).map(|r| seed[r * cols..r * cols + cols].to_vec()).collect();
            prop_assert_eq!(max_weight(&grid).unwrap(), brute(&grid));
        }
    }

    const SAMPLES: &str = include_str!("../../../testdata/ground-truth/small_problems.json");

    #[test]
    fn ground_truth_counts_and_weights() {
        let all: serde_json::Value = serde_json::from_str(SAMPLES).unwrap();
        let g = &all["no_two_8_adjacent_row_mask_dp"];
        for (n, count) in g["independent_set_counts_n1_10"].as_array().unwrap().iter().enumerate() {
            let n = n + 1;
            assert_eq!(
                count_selections(n, n).unwrap(),
                u128::from(count.as_u64().unwrap()),
                "{n}x{n}"
            );
        }
        for (n, count) in
            g["independent_set_counts_3xn_n1_10"].as_array().unwrap().iter().enumerate()
        {
            let n = n + 1;
            assert_eq!(
                count_selections(3, n).unwrap(),
                u128::from(count.as_u64().unwrap()),
                "3x{n}"
            );
            assert_eq!(
                count_selections(n, 3).unwrap(),
                u128::from(count.as_u64().unwrap()),
                "{n}x3"
            );
        }
        for case in g["max_weight_instances"].as_array().unwrap() {
            let n = case["n"].as_u64().unwrap();
            let grid: Grid = (0..n)
                .map(|i| (0..n).map(|j| (131 * i + 71 * j + 17 * i * j) % 100).collect())
                .collect();
            assert_eq!(
                max_weight(&grid).unwrap(),
                u128::from(case["max_weight"].as_u64().unwrap()),
                "n={n}"
            );
        }
        let small: Grid = serde_json::from_value(g["small_example"]["grid"].clone()).unwrap();
        assert_eq!(max_weight(&small).unwrap(), 166);
        // Width 16: 2^16 masks per row.
        let wide: Grid = (0..16).map(|i| (0..16).map(|j| (i * 16 + j) % 7).collect()).collect();
        assert_eq!(max_weight(&wide).unwrap(), max_weight(&transpose(&wide)).unwrap());
    }

    fn transpose(g: &[Vec<u64>]) -> Grid {
        (0..g[0].len()).map(|c| g.iter().map(|r| r[c]).collect()).collect()
    }

    #[test]
    fn wide_grids_are_transposed_or_refused() {
        let tall: Grid = (0..20).map(|r| vec![r]).collect();
        let wide: Grid = vec![(0..20).collect()];
        assert_eq!(max_weight(&tall).unwrap(), max_weight(&wide).unwrap());
        let huge: Grid = vec![vec![1; 17]; 17];
        assert!(matches!(max_weight(&huge), Err(GridError::TooWide { .. })));
        assert!(matches!(
            max_weight(&[vec![1, 2], vec![3]]),
            Err(GridError::Ragged { row: 2, .. })
        ));
        assert_eq!(max_weight(&[]).unwrap(), 0);
    }

    #[test]
    fn parse_cases_and_errors() {
        let cases = parse_cases("2\n1 2\n3 4\n2 1\n5\n6\n").unwrap();
        assert_eq!(cases, vec![vec![vec![3, 4]], vec![vec![5], vec![6]]]);
        assert!(parse_cases("1\n2 2\n1 2 3\n").is_err());
        assert!(parse_cases("1\n1 1\n-5\n").is_err());
        assert!(parse_cases("1\n1 1\n5 6\n").is_err());
        assert!(parse_cases("1\n1000000000000000000 1\n5\n").is_err());
        assert!(parse_cases("99999999999999999\n").is_err());
        assert!(parse_cases("1\n1 1000000000000\n5\n").is_err());
    }

    // See: #16 (found by the `grid_pick` fuzz target: 14 billion empty rows, a timeout).
    #[test]
    fn issue_16_rows_without_columns_are_not_stored() {
        let cases = parse_cases("2\n18446744073709551615 0\n1 1\n7\n").unwrap();
        assert_eq!(cases, vec![vec![], vec![vec![7]]]);
        assert_eq!(max_weight(&cases[0]).unwrap(), 0);
    }
}
