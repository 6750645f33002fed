//! Additive pattern databases (Korf and Felner 2002).
//!
//! # The heuristic
//!
//! The tiles are split into disjoint *patterns* of consecutive numbers (the 15-puzzle's are
//! tiles 1–6, 7–12 and 13–15). A pattern's database gives, for every placement of its tiles,
//! the fewest moves **of those tiles** needed to bring them home, the other tiles being
//! indistinguishable and the blank anywhere. Every move moves one tile, which belongs to one
//! pattern, so the values of the patterns add up to a lower bound: an admissible heuristic,
//! much stronger than Manhattan distance, which is the same sum with patterns of one tile.
//!
//! # Index
//!
//! A placement is indexed by the positions of the pattern's tiles, packed as in
//! [`super::packed`]: for tiles `first..first + len`, the index is fields `first..first + len`
//! of the state's `pos` word, one shift and one mask, updated for free as tiles move. The
//! table is sparse (16^6 = 16,777,216 bytes for a 6-tile pattern of the 15-puzzle, of which
//! 16!/10! = 5,765,760 are placements); the file stores only the placements.
//!
//! | board | patterns | table entries | file |
//! | --- | --- | --- | --- |
//! | 2x2 | 3 | 4,096 | 24 B |
//! | 3x3 | 4-4 | 2 x 65,536 | 6 KB |
//! | 4x4 | 6-6-3 | 2 x 16.8 M + 4,096 | 11.5 MB |
//! | 5x5 | 4-4-4-4-4-4 | 6 x 1 M | 1.8 MB |
//!
//! # Building
//!
//! Each pattern's table comes from a breadth-first search backwards from the goal over
//! *abstract states* (the pattern's tile positions and the blank's cell). Moving the blank
//! onto another tile costs 0 (those tiles are not counted) and onto a pattern tile costs 1,
//! so the search goes in layers of equal cost: first the 0-cost closure of a layer (the
//! blank wandering among the uncounted tiles), then its 1-cost successors, which form the
//! next layer. A placement's value is the layer in which it is first seen, with any blank.
//! The 6-tile patterns of the 15-puzzle have 57.7 million abstract states each; a visited
//! bit per packed index (2^28 bits, 32 MB) and the layers are the working memory.
//!
//! # File format (version 1)
//!
//! Little-endian: the 8-byte magic `DCPDB\r\n\x1a`, the version (`u32`), the side, the goal
//! (0 blank-first, 1 blank-last), the bits per field and the number of patterns (one byte
//! each), then `first` and `len` of each pattern (one byte each), then each pattern's values
//! (a `u64` count, then one byte per placement, in index order), and last a 64-bit FNV-1a
//! checksum of everything before it. A file that does not parse, has another version or
//! layout, or fails the checksum is rejected, and the caller rebuilds it.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use super::board::{Goal, MAX_SIDE, MIN_SIDE};
use super::packed::Word;
use super::space::{Geometry, Slid, State, TileHeuristic};

/// Not reached (yet): no table entry of a complete database has this value.
const UNSEEN: u8 = u8::MAX;

/// The file's first bytes.
const MAGIC: [u8; 8] = *b"DCPDB\r\n\x1a";

/// The file format version; bump it when the layout or the partition changes.
pub const FORMAT_VERSION: u32 = 1;

/// An error reading a pattern database file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PdbError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The bytes are not a complete, intact database of this version.
    #[error("corrupt pattern database: {0}")]
    Corrupt(String),
    /// An intact database of another format version.
    #[error("pattern database format version {found}, expected {FORMAT_VERSION}")]
    Version {
        /// The version in the file.
        found: u32,
    },
}

/// One pattern: tiles `first..first + len` and their table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pattern {
    first: usize,
    len: usize,
    table: Vec<u8>,
}

impl Pattern {
    /// The fewest moves of this pattern's tiles to bring them home, from a state's `pos`.
    #[inline(always)]
    pub(crate) fn lookup<W: Word>(&self, pos: W) -> u8 {
        // The index has `len` fields of `W::BITS` bits, so it is below `table.len()`.
        self.table[pos.fields(self.first, self.len)]
    }
}

/// An additive pattern database for one board side and goal.
///
/// ```
/// use dancecard_search::slide::{self, Board, Goal, Heuristic, Pdb, SolveOptions};
/// use std::sync::Arc;
///
/// let pdb = Arc::new(Pdb::build(3, Goal::BlankFirst)?);
/// let options = SolveOptions::new(Goal::BlankFirst).heuristic(Heuristic::Pdb).pdb(pdb);
/// let board: Board = "3 1 2 0 4 5 6 7 8".parse()?;
/// assert_eq!(slide::solve(&board, &options)?.length, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pdb {
    side: usize,
    goal: Goal,
    bits: u32,
    patterns: Vec<Pattern>,
    /// The pattern of each tile (index 0, the blank, unused).
    tile_pattern: Vec<u8>,
}

/// The pattern sizes used for a board side.
fn partition(side: usize) -> &'static [usize] {
    match side {
        2 => &[3],
        3 => &[4, 4],
        4 => &[6, 6, 3],
        _ => &[4, 4, 4, 4, 4, 4],
    }
}

/// Bits per field of the packed word of a side.
fn bits_for(side: usize) -> u32 {
    if side <= 4 {
        <u64 as Word>::BITS
    } else {
        <u128 as Word>::BITS
    }
}

/// 64-bit FNV-1a.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// Whether a packed index holds `len` distinct cells below `cells`.
fn is_placement(index: usize, bits: u32, len: usize, cells: usize) -> bool {
    let mask = (1usize << bits) - 1;
    let mut seen = 0u64;
    for j in 0..len {
        let p = (index >> (bits as usize * j)) & mask;
        if p >= cells || seen & (1 << p) != 0 {
            return false;
        }
        seen |= 1 << p;
    }
    true
}

impl Pdb {
    /// Builds the database of a side (2 to 5) and goal: milliseconds for the 8-puzzle, a few
    /// seconds for the 15-puzzle (6-6-3 partition), about a second for the 24-puzzle
    /// (six 4-tile patterns).
    pub fn build(side: usize, goal: Goal) -> Result<Pdb, super::SlideError> {
        Pdb::build_with(side, goal, None)
    }

    /// [`Pdb::build`] that stops, with [`SlideError::Stopped`](super::SlideError::Stopped)
    /// and [`Stop::Cancelled`](crate::Stop::Cancelled), soon after `cancel` is raised (it is
    /// looked at every 65,536 states: well under a millisecond).
    pub fn build_with(
        side: usize,
        goal: Goal,
        cancel: Option<&AtomicBool>,
    ) -> Result<Pdb, super::SlideError> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&side) {
            return Err(super::SlideError::Size { side });
        }
        let geo = Geometry::new(side, goal);
        let bits = bits_for(side);
        let mut patterns = Vec::new();
        let mut first = 1;
        for &len in partition(side) {
            let Some(table) = build_pattern(&geo, bits, first, len, cancel) else {
                return Err(super::SlideError::Stopped {
                    stop: crate::Stop::Cancelled,
                    stats: crate::Stats::default(),
                });
            };
            patterns.push(Pattern { first, len, table });
            first += len;
        }
        Ok(Pdb::assemble(side, goal, bits, patterns))
    }

    fn assemble(side: usize, goal: Goal, bits: u32, patterns: Vec<Pattern>) -> Pdb {
        let mut tile_pattern = vec![0u8; side * side];
        for (i, p) in patterns.iter().enumerate() {
            for slot in &mut tile_pattern[p.first..p.first + p.len] {
                *slot = i as u8;
            }
        }
        Pdb { side, goal, bits, patterns, tile_pattern }
    }

    /// The board side.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The goal.
    pub fn goal(&self) -> Goal {
        self.goal
    }

    /// The pattern sizes, e.g. `[6, 6, 3]`.
    pub fn pattern_sizes(&self) -> Vec<usize> {
        self.patterns.iter().map(|p| p.len).collect()
    }

    /// The file name under which this side and goal are cached, with the format version
    /// (`pdb-v1-4x4-blank-first-6-6-3.bin`).
    pub fn file_name(side: usize, goal: Goal) -> String {
        let sizes: Vec<String> = partition(side).iter().map(usize::to_string).collect();
        format!("pdb-v{FORMAT_VERSION}-{side}x{side}-{}-{}.bin", goal.name(), sizes.join("-"))
    }

    pub(crate) fn patterns(&self) -> &[Pattern] {
        &self.patterns
    }

    #[inline(always)]
    pub(crate) fn pattern_of(&self, tile: usize) -> &Pattern {
        &self.patterns[usize::from(self.tile_pattern[tile])]
    }

    /// The database as bytes (the file format above).
    pub fn to_bytes(&self) -> Vec<u8> {
        let cells = self.side * self.side;
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        let goal = match self.goal {
            Goal::BlankFirst => 0,
            Goal::BlankLast => 1,
        };
        out.extend_from_slice(&[self.side as u8, goal, self.bits as u8, self.patterns.len() as u8]);
        for p in &self.patterns {
            out.extend_from_slice(&[p.first as u8, p.len as u8]);
        }
        for p in &self.patterns {
            let start = out.len();
            out.extend_from_slice(&0u64.to_le_bytes());
            let mut count = 0u64;
            for (i, &v) in p.table.iter().enumerate() {
                if is_placement(i, self.bits, p.len, cells) {
                    out.push(v);
                    count += 1;
                }
            }
            out[start..start + 8].copy_from_slice(&count.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a database written by [`to_bytes`](Pdb::to_bytes), checking everything.
    pub fn from_bytes(bytes: &[u8]) -> Result<Pdb, PdbError> {
        let corrupt = |why: &str| PdbError::Corrupt(why.to_owned());
        if bytes.len() < MAGIC.len() + 4 + 4 + 8 || bytes[..8] != MAGIC {
            return Err(corrupt("not a dancecard pattern database"));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let version = u32::from_le_bytes([body[8], body[9], body[10], body[11]]);
        if version != FORMAT_VERSION {
            return Err(PdbError::Version { found: version });
        }
        if fnv1a(body) != u64::from_le_bytes(sum.try_into().map_err(|_| corrupt("checksum"))?) {
            return Err(corrupt("checksum mismatch"));
        }
        let (side, goal, bits, count) =
            (usize::from(body[12]), body[13], u32::from(body[14]), usize::from(body[15]));
        if !(MIN_SIDE..=MAX_SIDE).contains(&side) || bits != bits_for(side) {
            return Err(corrupt("bad side"));
        }
        let goal = match goal {
            0 => Goal::BlankFirst,
            1 => Goal::BlankLast,
            _ => return Err(corrupt("bad goal")),
        };
        let sizes = partition(side);
        if count != sizes.len() {
            return Err(corrupt("unexpected partition"));
        }
        let cells = side * side;
        let mut at = 16;
        let mut heads = Vec::new();
        let mut first = 1;
        for &len in sizes {
            if body.get(at..at + 2) != Some(&[first as u8, len as u8]) {
                return Err(corrupt("unexpected partition"));
            }
            heads.push((first, len));
            first += len;
            at += 2;
        }
        let mut patterns = Vec::new();
        for (first, len) in heads {
            let n = body.get(at..at + 8).ok_or_else(|| corrupt("truncated"))?;
            let n = u64::from_le_bytes(n.try_into().map_err(|_| corrupt("truncated"))?);
            at += 8;
            let expected: u64 = (0..len).map(|j| (cells - j) as u64).product();
            if n != expected {
                return Err(corrupt("wrong number of entries"));
            }
            let values = body.get(at..at + n as usize).ok_or_else(|| corrupt("truncated"))?;
            at += n as usize;
            let mut table = vec![UNSEEN; 1 << (bits as usize * len)];
            let mut next = values.iter();
            for (i, slot) in table.iter_mut().enumerate() {
                if is_placement(i, bits, len, cells) {
                    let &v = next.next().ok_or_else(|| corrupt("truncated"))?;
                    if v == UNSEEN {
                        return Err(corrupt("incomplete table"));
                    }
                    *slot = v;
                }
            }
            patterns.push(Pattern { first, len, table });
        }
        if at != body.len() {
            return Err(corrupt("trailing bytes"));
        }
        Ok(Pdb::assemble(side, goal, bits, patterns))
    }

    /// Reads a database file.
    pub fn load(path: &Path) -> Result<Pdb, PdbError> {
        let bytes = std::fs::read(path)
            .map_err(|source| PdbError::Io { path: path.display().to_string(), source })?;
        Pdb::from_bytes(&bytes)
    }

    /// Writes the database to `path` atomically (a temporary file in the same directory,
    /// then a rename), creating the directory if needed.
    pub fn save(&self, path: &Path) -> Result<(), PdbError> {
        let io = |source| PdbError::Io { path: path.display().to_string(), source };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        let write = || -> std::io::Result<()> {
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(&self.to_bytes())?;
            f.sync_all()?;
            std::fs::rename(&tmp, path)
        };
        write().map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            io(e)
        })
    }
}

/// The table of tiles `first..first + len` (see the module doc, "Building").
///
/// The layers hold entries `(configuration, blank cells)`: a placement of the pattern's tiles
/// with a set of blank cells (a `u32` bit mask) first reached at the layer's cost. The
/// 0-cost closure of an entry is a flood fill of its blank cells through the cells free of
/// pattern tiles, done with shifts on the mask; `seen[configuration]` is the mask of blank
/// cells reached so far. Each layer is sorted by configuration (and entries of the same
/// configuration merged) before it is processed, so that the tables are swept in order
/// rather than hit at random: this is what makes the build take seconds, not minutes.
///
/// `None` when `cancel` was raised.
fn build_pattern(
    geo: &Geometry,
    bits: u32,
    first: usize,
    len: usize,
    cancel: Option<&AtomicBool>,
) -> Option<Vec<u8>> {
    /// States between two looks at the cancel flag.
    const POLL: usize = 1 << 16;
    let cancelled = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    let (n, cells) = (geo.n, geo.cells);
    let b = bits as usize;
    let field = (1usize << b) - 1;
    let size = 1usize << (b * len);
    let mut table = vec![UNSEEN; size];
    let mut seen = vec![0u32; size];
    let all: u32 = if cells == 32 { u32::MAX } else { (1u32 << cells) - 1 };
    let (mut not_first_col, mut not_last_col) = (all, all);
    for r in 0..n {
        not_first_col &= !(1 << (r * n));
        not_last_col &= !(1 << (r * n + n - 1));
    }
    let flood = |mut region: u32, free: u32| loop {
        let grown = (region
            | ((region << 1) & not_first_col)
            | ((region >> 1) & not_last_col)
            | (region << n)
            | (region >> n))
            & free;
        if grown == region {
            break region;
        }
        region = grown;
    };
    let neighbours: Vec<u32> = (0..cells)
        .map(|c| geo.neighbors(c).iter().filter(|&&x| x != u8::MAX).fold(0, |m, &x| m | (1 << x)))
        .collect();
    let goal_config: usize = (0..len).map(|j| geo.goal.cell_of(first + j, cells) << (b * j)).sum();
    let goal_blank = 1u32 << geo.goal.cell_of(0, cells);
    seen[goal_config] = goal_blank;
    let mut layer: Vec<u64> = vec![((goal_config as u64) << 32) | u64::from(goal_blank)];
    let mut next: Vec<u64> = Vec::new();
    let mut cost = 0u8;
    let mut positions = [0usize; 8];
    while !layer.is_empty() {
        layer.sort_unstable();
        // Merge the entries of one configuration, then take each one's 0-cost closure.
        let mut merged = 0;
        for i in 0..layer.len() {
            if merged > 0 && layer[merged - 1] >> 32 == layer[i] >> 32 {
                layer[merged - 1] |= layer[i] & 0xffff_ffff;
            } else {
                layer[merged] = layer[i];
                merged += 1;
            }
        }
        layer.truncate(merged);
        for entry in &mut layer {
            let config = (*entry >> 32) as usize;
            let mut occupied = 0u32;
            for j in 0..len {
                occupied |= 1 << ((config >> (b * j)) & field);
            }
            let region = flood(*entry as u32, all & !occupied);
            seen[config] |= region;
            if table[config] == UNSEEN {
                table[config] = cost;
            }
            *entry = ((config as u64) << 32) | u64::from(region);
        }
        // The 1-cost moves: a pattern tile next to the region slides into it.
        for (i, &entry) in layer.iter().enumerate() {
            if i % POLL == 0 && cancelled() {
                return None;
            }
            let config = (entry >> 32) as usize;
            let region = entry as u32;
            for (j, p) in positions.iter_mut().enumerate().take(len) {
                *p = (config >> (b * j)) & field;
            }
            for (j, &p) in positions[..len].iter().enumerate() {
                let mut targets = neighbours[p] & region;
                while targets != 0 {
                    let q = targets.trailing_zeros() as usize;
                    targets &= targets - 1;
                    let moved = config ^ ((p ^ q) << (b * j));
                    let blank = 1u32 << p;
                    if seen[moved] & blank == 0 {
                        seen[moved] |= blank;
                        next.push(((moved as u64) << 32) | u64::from(blank));
                    }
                }
            }
        }
        std::mem::swap(&mut layer, &mut next);
        next.clear();
        cost = cost.saturating_add(1);
    }
    Some(table)
}

/// An additive pattern database as the heuristic of the tile space (see the [module
/// documentation](self)).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PdbHeuristic<'p> {
    pub(crate) pdb: &'p Pdb,
}

impl<W: Word> TileHeuristic<W> for PdbHeuristic<'_> {
    fn full(&self, _: &Geometry, _: W, pos: W) -> u16 {
        self.pdb.patterns().iter().map(|p| u16::from(p.lookup(pos))).sum()
    }

    #[inline(always)]
    fn after_move(&self, _: &Geometry, parent: &State<W>, m: &Slid<W>) -> u16 {
        let p = self.pdb.pattern_of(m.tile);
        parent.h - u16::from(p.lookup(parent.pos)) + u16::from(p.lookup(m.pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_raised_flag_stops_the_build() {
        let raised = AtomicBool::new(true);
        let stopped = Pdb::build_with(4, Goal::BlankFirst, Some(&raised));
        assert!(
            matches!(
                stopped,
                Err(crate::slide::SlideError::Stopped { stop: crate::Stop::Cancelled, .. })
            ),
            "{stopped:?}"
        );
        let lowered = AtomicBool::new(false);
        assert_eq!(
            Pdb::build_with(3, Goal::BlankLast, Some(&lowered)).unwrap(),
            Pdb::build(3, Goal::BlankLast).unwrap()
        );
    }

    #[test]
    fn bytes_round_trip_and_damage_is_detected() {
        let pdb = Pdb::build(3, Goal::BlankLast).unwrap();
        let bytes = pdb.to_bytes();
        assert_eq!(Pdb::from_bytes(&bytes).unwrap(), pdb);
        for at in [0, 9, 14, 20, bytes.len() / 2, bytes.len() - 1] {
            let mut bad = bytes.clone();
            bad[at] ^= 0x40;
            assert!(Pdb::from_bytes(&bad).is_err(), "flipped byte {at}");
        }
        assert!(Pdb::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(Pdb::from_bytes(b"").is_err());
        let mut other = bytes.clone();
        other[8] = 9;
        let body = other.len() - 8;
        let sum = fnv1a(&other[..body]);
        other[body..].copy_from_slice(&sum.to_le_bytes());
        assert!(matches!(Pdb::from_bytes(&other), Err(PdbError::Version { found: 9 })));
    }

    #[test]
    fn goal_placement_is_zero_and_values_are_bounded() {
        for side in 2..=3 {
            let pdb = Pdb::build(side, Goal::BlankFirst).unwrap();
            let goal = u64::from_fields(&(0..(side * side) as u8).collect::<Vec<_>>());
            for p in pdb.patterns() {
                assert_eq!(p.lookup(goal), 0);
                assert!(p.table.iter().filter(|&&v| v != UNSEEN).all(|&v| v < 40));
            }
        }
    }
}
