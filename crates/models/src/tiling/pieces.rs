//! Polyominoes: parsing, named sets, and orientations.

use std::collections::BTreeSet;

use super::TilingError;

/// A set of cells `(row, column)`, translated so that the least row and the least column are
/// 0, sorted in reading order.
pub type Shape = Vec<(usize, usize)>;

/// A polyomino with a name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    name: String,
    cells: Shape,
}

/// The names accepted by [`named_set`].
pub const SET_NAMES: [&str; 6] =
    ["monomino", "dominoes", "trominoes", "tetrominoes", "pentominoes", "hexominoes"];

/// The image of `(r, c)` under symmetry `k` (0..8) of a grid of `rows x cols` cells: bit 0
/// transposes, bit 1 turns the rows upside down, bit 2 the columns. Returns the image and
/// the image grid's dimensions. The rotations are the `k` with an even number of bits.
pub(crate) fn transform(k: usize, rows: usize, cols: usize, r: usize, c: usize) -> (usize, usize) {
    let (mut a, mut b, rows, cols) =
        if k & 1 != 0 { (c, r, cols, rows) } else { (r, c, rows, cols) };
    if k & 2 != 0 {
        a = rows - 1 - a;
    }
    if k & 4 != 0 {
        b = cols - 1 - b;
    }
    (a, b)
}

/// Whether symmetry `k` of [`transform`] is a rotation (keeps the handedness of pieces).
pub(crate) fn is_rotation(k: usize) -> bool {
    (k as u32).count_ones() % 2 == 0
}

/// Translates cells to the origin and sorts them.
fn normalize(cells: &[(usize, usize)]) -> Shape {
    let r0 = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let c0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let mut shape: Shape = cells.iter().map(|&(r, c)| (r - r0, c - c0)).collect();
    shape.sort_unstable();
    shape.dedup();
    shape
}

fn extent(shape: &[(usize, usize)]) -> (usize, usize) {
    let rows = shape.iter().map(|c| c.0 + 1).max().unwrap_or(0);
    let cols = shape.iter().map(|c| c.1 + 1).max().unwrap_or(0);
    (rows, cols)
}

/// The image of a shape under symmetry `k`, normalised.
fn image(shape: &[(usize, usize)], k: usize) -> Shape {
    let (rows, cols) = extent(shape);
    let cells: Vec<_> = shape.iter().map(|&(r, c)| transform(k, rows, cols, r, c)).collect();
    normalize(&cells)
}

fn connected(shape: &[(usize, usize)]) -> bool {
    let Some(&start) = shape.first() else { return false };
    let set: BTreeSet<_> = shape.iter().copied().collect();
    let mut seen = BTreeSet::from([start]);
    let mut stack = vec![start];
    while let Some((r, c)) = stack.pop() {
        let mut next = vec![(r + 1, c), (r, c + 1)];
        if r > 0 {
            next.push((r - 1, c));
        }
        if c > 0 {
            next.push((r, c - 1));
        }
        for n in next {
            if set.contains(&n) && seen.insert(n) {
                stack.push(n);
            }
        }
    }
    seen.len() == set.len()
}

/// Checks that a name can be an item name of the exact cover problem.
pub(crate) fn check_name(name: &str) -> Result<(), &'static str> {
    if name.is_empty() {
        Err("a name cannot be empty")
    } else if name.chars().any(|c| c.is_whitespace() || c == ':' || c == '|') {
        Err("a name cannot contain whitespace, `:` or `|`")
    } else {
        Ok(())
    }
}

impl Piece {
    /// A piece from its cells (any translation); it must be non-empty and connected (cells
    /// sharing an edge), and its name a valid item name (no whitespace, `:` or `|`).
    pub fn new(name: &str, cells: &[(usize, usize)]) -> Result<Piece, TilingError> {
        if let Err(reason) = check_name(name) {
            return Err(TilingError::PieceName { name: name.to_owned(), reason });
        }
        let mut seen = std::collections::BTreeSet::new();
        if let Some(&(row, col)) = cells.iter().find(|&&c| !seen.insert(c)) {
            return Err(TilingError::RepeatedCell { name: name.to_owned(), row, col });
        }
        let cells = normalize(cells);
        if cells.is_empty() {
            return Err(TilingError::EmptyPiece { name: name.to_owned() });
        }
        if !connected(&cells) {
            return Err(TilingError::DisconnectedPiece { name: name.to_owned() });
        }
        Ok(Piece { name: name.to_owned(), cells })
    }

    /// The name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The cells, normalised (see [`Shape`]).
    pub fn cells(&self) -> &[(usize, usize)] {
        &self.cells
    }

    /// The number of cells.
    pub fn size(&self) -> usize {
        self.cells.len()
    }

    /// The distinct orientations: all rotations, and the reflections too when `flips`
    /// (a square has one orientation, the L tetromino eight, or four without flips).
    pub fn orientations(&self, flips: bool) -> Vec<Shape> {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for k in 0..8 {
            if !flips && !is_rotation(k) {
                continue;
            }
            let shape = image(&self.cells, k);
            if seen.insert(shape.clone()) {
                out.push(shape);
            }
        }
        out
    }

    /// A canonical form of the piece up to its allowed motions: two pieces are the same
    /// (free, or one-sided without `flips`) polyomino exactly when their forms are equal.
    pub fn canonical(&self, flips: bool) -> Shape {
        self.orientations(flips).into_iter().min().unwrap_or_default()
    }

    /// ASCII art: `#` for a cell, `.` for an empty spot.
    pub fn render(&self) -> String {
        let (rows, cols) = extent(&self.cells);
        let mut s = String::new();
        for r in 0..rows {
            for c in 0..cols {
                s.push(if self.cells.binary_search(&(r, c)).is_ok() { '#' } else { '.' });
            }
            s.push('\n');
        }
        s
    }
}

/// Reads pieces in ASCII art: `#` a cell, `.` (or a space) an empty spot, pieces separated by
/// blank lines, each optionally preceded by a line holding only its name. Unnamed pieces are
/// called `P1`, `P2`, ... by their position.
///
/// ```
/// use dancecard_models::tiling::parse_pieces;
/// let pieces = parse_pieces("L\n#.\n#.\n##\n\n###\n")?;
/// assert_eq!(pieces[0].name(), "L");
/// assert_eq!(pieces[0].size(), 4);
/// assert_eq!(pieces[1].name(), "P2");
/// # Ok::<(), dancecard_models::tiling::TilingError>(())
/// ```
pub fn parse_pieces(text: &str) -> Result<Vec<Piece>, TilingError> {
    let mut pieces = Vec::new();
    let mut block: Vec<(usize, &str)> = Vec::new();
    let lines = text.lines().map(|l| l.trim_end_matches('\r'));
    for (number, line) in lines.chain(std::iter::once("")).enumerate() {
        if !line.trim().is_empty() {
            block.push((number + 1, line));
            continue;
        }
        if block.is_empty() {
            continue;
        }
        let mut rows = &block[..];
        let is_art = |l: &str| l.chars().all(|c| matches!(c, '#' | '.' | ' '));
        // A name line is one whose name (the line trimmed) is not art: a row indented with a
        // tab is a row (refused for its tab), not a piece named after its cells.
        let name = if !is_art(rows[0].1.trim()) {
            let (number, line) = rows[0];
            let name = line.trim();
            if let Err(reason) = check_name(name) {
                return Err(TilingError::PieceName {
                    name: format!("{name} (line {number})"),
                    reason,
                });
            }
            rows = &rows[1..];
            name.to_owned()
        } else {
            format!("P{}", pieces.len() + 1)
        };
        let mut cells = Vec::new();
        for (r, &(number, line)) in rows.iter().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                match ch {
                    '#' => cells.push((r, c)),
                    '.' | ' ' => {}
                    _ => return Err(TilingError::PieceChar { line: number, column: c + 1, ch }),
                }
            }
        }
        pieces.push(Piece::new(&name, &cells)?);
        block.clear();
    }
    if pieces.is_empty() {
        return Err(TilingError::NoPieces);
    }
    Ok(pieces)
}

/// Pieces from art rows (named sets only; the art is fixed and valid).
fn from_art(named: &[(&str, &[&str])]) -> Vec<Piece> {
    named
        .iter()
        .filter_map(|(name, rows)| {
            let mut cells = Vec::new();
            for (r, row) in rows.iter().enumerate() {
                for (c, ch) in row.chars().enumerate() {
                    if ch == '#' {
                        cells.push((r, c));
                    }
                }
            }
            Piece::new(name, &cells).ok()
        })
        .collect()
}

/// All free polyominoes of `size` cells, in the order of their canonical forms.
pub fn free_polyominoes(size: usize) -> Vec<Shape> {
    let mut current: BTreeSet<Shape> = BTreeSet::new();
    if size == 0 {
        return Vec::new();
    }
    let _ = current.insert(vec![(0, 0)]);
    for _ in 1..size {
        let mut next = BTreeSet::new();
        for shape in &current {
            // Shift by one so that neighbours above and left stay non-negative.
            let shifted: Vec<_> = shape.iter().map(|&(r, c)| (r + 1, c + 1)).collect();
            for &(r, c) in &shifted {
                for n in [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)] {
                    if shifted.contains(&n) {
                        continue;
                    }
                    let mut grown = shifted.clone();
                    grown.push(n);
                    let grown = normalize(&grown);
                    let form = (0..8).map(|k| image(&grown, k)).min().unwrap_or_default();
                    let _ = next.insert(form);
                }
            }
        }
        current = next;
    }
    current.into_iter().collect()
}

/// A named set of pieces: `monomino`, `dominoes`, `trominoes` (I, L), `tetrominoes` (the five
/// free ones: I, O, T, L, S), `pentominoes` (the twelve: F, I, L, N, P, T, U, V, W, X, Y, Z)
/// or `hexominoes` (the 35 free ones, `H01` to `H35`).
pub fn named_set(name: &str) -> Option<Vec<Piece>> {
    let set: Vec<Piece> = match name {
        "monomino" => from_art(&[("M", &["#"])]),
        "dominoes" => from_art(&[("D", &["##"])]),
        "trominoes" => from_art(&[("I", &["###"]), ("L", &["##", "#."])]),
        "tetrominoes" => from_art(&[
            ("I", &["####"]),
            ("O", &["##", "##"]),
            ("T", &["###", ".#."]),
            ("L", &["###", "#.."]),
            ("S", &[".##", "##."]),
        ]),
        "pentominoes" => from_art(&[
            ("F", &[".##", "##.", ".#."]),
            ("I", &["#####"]),
            ("L", &["####", "#..."]),
            ("N", &["##..", ".###"]),
            ("P", &["##", "##", "#."]),
            ("T", &["###", ".#.", ".#."]),
            ("U", &["#.#", "###"]),
            ("V", &["#..", "#..", "###"]),
            ("W", &["#..", "##.", ".##"]),
            ("X", &[".#.", "###", ".#."]),
            ("Y", &[".#..", "####"]),
            ("Z", &["##.", ".#.", ".##"]),
        ]),
        "hexominoes" => free_polyominoes(6)
            .iter()
            .enumerate()
            .filter_map(|(k, cells)| Piece::new(&format!("H{:02}", k + 1), cells).ok())
            .collect(),
        _ => return None,
    };
    Some(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orientation_counts() {
        let count = |set: &str, flips: bool| -> Vec<usize> {
            named_set(set).unwrap().iter().map(|p| p.orientations(flips).len()).collect()
        };
        assert_eq!(count("monomino", true), [1]);
        assert_eq!(count("tetrominoes", true), [2, 1, 4, 8, 4]);
        assert_eq!(count("tetrominoes", false), [2, 1, 4, 4, 2]);
        // F I L N P T U V W X Y Z: 63 orientations in all, as every pentomino book says.
        assert_eq!(count("pentominoes", true), [8, 2, 8, 8, 8, 4, 4, 4, 4, 1, 8, 4]);
    }

    #[test]
    fn free_polyomino_counts() {
        // OEIS A000105.
        let counts: Vec<usize> = (1..=7).map(|k| free_polyominoes(k).len()).collect();
        assert_eq!(counts, [1, 1, 2, 5, 12, 35, 108]);
        assert_eq!(named_set("hexominoes").unwrap().len(), 35);
        let five = named_set("pentominoes").unwrap();
        let mut forms: Vec<Shape> = five.iter().map(|p| p.canonical(true)).collect();
        forms.sort();
        assert_eq!(forms, free_polyominoes(5));
    }

    #[test]
    fn parse_errors() {
        assert!(matches!(parse_pieces(""), Err(TilingError::NoPieces)));
        assert!(matches!(parse_pieces("#.#\n"), Err(TilingError::DisconnectedPiece { .. })));
        assert_eq!(
            Piece::new("I", &[(0, 0), (0, 1), (0, 0)]).unwrap_err().to_string(),
            "piece I lists cell (0, 0) twice"
        );
        assert!(matches!(parse_pieces("A\n...\n"), Err(TilingError::EmptyPiece { .. })));
        assert!(matches!(
            parse_pieces("A\n#x\n"),
            Err(TilingError::PieceChar { line: 2, column: 2, .. })
        ));
        assert!(matches!(parse_pieces("a b\n##\n"), Err(TilingError::PieceName { .. })));
        let p = parse_pieces("\n\nbar\n####\n\n\n#\n##\n").unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].name(), "bar");
        assert_eq!(p[1].render(), "#.\n##\n");
        assert!(named_set("heptominoes").is_none());
    }

    // See: #16 (found by the `tiling` fuzz target: the piece "##" did not read back from
    // its own name and rendering).
    #[test]
    fn issue_16_an_indented_art_line_is_a_row_not_a_name() {
        assert!(matches!(
            parse_pieces("\t##\n#.\n"),
            Err(TilingError::PieceChar { line: 1, column: 1, ch: '\t' })
        ));
        // A real name with surrounding whitespace is still a name.
        let p = parse_pieces(" \tL \n#.\n##\n").unwrap();
        assert_eq!((p[0].name(), p[0].size()), ("L", 3));
    }
}
