//! Additive pattern databases (Korf and Felner 2002).
//!
//! # The heuristic
//!
//! The tiles are split into disjoint *patterns* of consecutive numbers (the 15-puzzle's are
//! tiles 1–6, 7–12 and 13–15, or 1–7 and 8–15). A pattern's database gives, for every
//! placement of its tiles, the fewest moves **of those tiles** needed to bring them home, the
//! other tiles being indistinguishable and the blank anywhere. Every move moves one tile,
//! which belongs to one pattern, so the values of the patterns add up to a lower bound: an
//! admissible heuristic, much stronger than Manhattan distance, which is the same sum with
//! patterns of one tile.
//!
//! # Partitions
//!
//! | board | [`Partition::Standard`] (built in the run) | [`Partition::Large`] (built once, resumable) |
//! | --- | --- | --- |
//! | 2x2 | 3: 24 B | — |
//! | 3x3 | 4-4: 6 KB | 6-2: 61 KB |
//! | 4x4 | 6-6-3: 11.5 MB, seconds | 7-8 (8-7 blank-last): 577 MB, minutes |
//! | 5x5 | 4-4-4-4-4-4: 1.8 MB | — |
//!
//! The large 15-puzzle partition is Korf and Felner's: the top two rows and the bottom two
//! rows (tiles 1–7 and 8–15 with the blank first, 1–8 and 9–15 with it last).
//!
//! # Index
//!
//! A placement is read off the positions of the pattern's tiles, packed as in
//! [`super::packed`]: for tiles `first..first + len`, fields `first..first + len` of the
//! state's `pos` word, one shift and one mask, updated for free as tiles move.
//!
//! - *Sparse* (standard partitions): that number is the index. The table has holes
//!   (16^6 = 16,777,216 bytes for a 6-tile pattern of the 15-puzzle, of which 16!/10! =
//!   5,765,760 are placements); the file stores only the placements.
//! - *Ranked* (large partitions): the index is the placement's rank among all placements, a
//!   mixed-radix number whose digit for a tile is its cell counted among the cells not taken
//!   by the tiles after it (one popcount a tile). The table has no holes (16!/8! =
//!   518,918,400 bytes for 8 tiles, where 16^8 would be 4 GB), and the rank keeps the order
//!   of the packed number, so a sorted list of placements sweeps the table in order.
//!
//! # Building
//!
//! Each pattern's table comes from a breadth-first search backwards from the goal over
//! *abstract states* (the pattern's tile positions and the blank's cell). Moving the blank
//! onto another tile costs 0 (those tiles are not counted) and onto a pattern tile costs 1,
//! so the search goes in layers of equal cost: first the 0-cost closure of a layer (the
//! blank wandering among the uncounted tiles), then its 1-cost successors, which form the
//! next layer. A placement's value is the layer in which it is first seen, with any blank.
//! See [`build`] for the working memory and the checkpoints of the resumable build.
//!
//! # File format (version 2)
//!
//! Little-endian: the 8-byte magic `DCPDB\r\n\x1a`, the version (`u32`), the side, the goal
//! (0 blank-first, 1 blank-last), the bits per field, the partition (0 standard, 1 large)
//! and the number of patterns (one byte each), then `first` and `len` of each pattern (one
//! byte each), then each pattern's values (a `u64` count, then one byte per placement, in
//! index order), and last a 64-bit checksum of everything before it (see
//! [`build::Checksum`]). A file that does not parse, has another version or layout, or fails
//! the checksum is rejected, and the caller rebuilds it.

pub(crate) mod build;

use std::io::{BufReader, Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use self::build::{PatternBuild, Pause};
use super::board::{Goal, MAX_SIDE, MIN_SIDE};
use super::packed::Word;
use super::space::{Geometry, Slid, State, TileHeuristic};

pub use self::build::BuildProgress;

/// Not reached (yet): no table entry of a complete database has this value.
const UNSEEN: u8 = u8::MAX;

/// The file's first bytes.
const MAGIC: [u8; 8] = *b"DCPDB\r\n\x1a";

/// The file format version; bump it when the layout or the partition changes.
pub const FORMAT_VERSION: u32 = 2;

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

/// Which patterns a [`Pdb`] uses.
///
/// | board | `Standard` | `Large` |
/// | --- | --- | --- |
/// | 2x2 | 3 | none |
/// | 3x3 | 4-4 | 6-2 |
/// | 4x4 | 6-6-3 (11.5 MB) | 7-8, or 8-7 blank-last (577 MB) |
/// | 5x5 | 4-4-4-4-4-4 | none |
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Partition {
    /// Built within a run in seconds: 3, 4-4, 6-6-3, 4-4-4-4-4-4 for sides 2 to 5.
    #[default]
    Standard,
    /// Korf and Felner's larger patterns, built once by a resumable step
    /// ([`Pdb::build_resumable`]): 6-2 on the 8-puzzle, 7-8 on the 15-puzzle (8-7 with the
    /// blank last). Sides 3 and 4 only.
    Large,
}

impl Partition {
    /// `standard` or `large`.
    pub fn name(self) -> &'static str {
        match self {
            Partition::Standard => "standard",
            Partition::Large => "large",
        }
    }

    /// The pattern sizes of a side and goal, or `None` where the partition has none.
    pub fn sizes(self, side: usize, goal: Goal) -> Option<&'static [usize]> {
        match (self, side) {
            (Partition::Standard, 2) => Some(&[3]),
            (Partition::Standard, 3) => Some(&[4, 4]),
            (Partition::Standard, 4) => Some(&[6, 6, 3]),
            (Partition::Standard, 5) => Some(&[4, 4, 4, 4, 4, 4]),
            (Partition::Large, 3) => Some(&[6, 2]),
            (Partition::Large, 4) if goal == Goal::BlankFirst => Some(&[7, 8]),
            (Partition::Large, 4) => Some(&[8, 7]),
            _ => None,
        }
    }

    fn index(self) -> Index {
        match self {
            Partition::Standard => Index::Sparse,
            Partition::Large => Index::Ranked,
        }
    }

    fn byte(self) -> u8 {
        match self {
            Partition::Standard => 0,
            Partition::Large => 1,
        }
    }
}

/// How a pattern's table is indexed (see the module documentation, "Index").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Index {
    /// The packed fields themselves.
    Sparse,
    /// The rank of the placement.
    Ranked,
}

impl Index {
    /// The table size of `len` tiles on `cells` cells at `bits` bits a field.
    pub(crate) fn size(self, bits: u32, len: usize, cells: usize) -> usize {
        match self {
            Index::Sparse => 1 << (bits as usize * len),
            Index::Ranked => (0..len).map(|j| cells - j).product(),
        }
    }

    /// The index of the packed placement `config`.
    #[inline(always)]
    pub(crate) fn of(self, config: usize, bits: u32, len: usize, cells: usize) -> usize {
        match self {
            Index::Sparse => config,
            Index::Ranked => rank(config, bits, len, cells),
        }
    }
}

/// The rank of the placement `config` (`len` fields of `bits` bits, distinct cells below
/// `cells <= 32`): a mixed-radix number whose most significant digit is the last field's
/// cell and each next digit a field's cell counted among the cells the fields after it do not
/// take. Ranks are `0..cells!/(cells-len)!` and keep the order of the packed numbers.
#[inline(always)]
pub(crate) fn rank(config: usize, bits: u32, len: usize, cells: usize) -> usize {
    let field = (1usize << bits) - 1;
    let mut used = 0u64;
    let mut r = 0usize;
    for j in (0..len).rev() {
        let p = (config >> (bits as usize * j)) & field;
        let below = (used & ((1u64 << p) - 1)).count_ones() as usize;
        r = r * (cells - (len - 1 - j)) + p - below;
        used |= 1 << p;
    }
    r
}

/// One pattern: tiles `first..first + len` and their table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pattern {
    first: usize,
    len: usize,
    cells: usize,
    index: Index,
    table: Vec<u8>,
}

impl Pattern {
    /// The fewest moves of this pattern's tiles to bring them home, from a state's `pos`.
    #[inline(always)]
    pub(crate) fn lookup<W: Word>(&self, pos: W) -> u8 {
        // The index is below `table.len()`: `len` fields of `W::BITS` bits (sparse), or a
        // rank of distinct cells (ranked).
        let config = pos.fields(self.first, self.len);
        self.table[self.index.of(config, W::BITS, self.len, self.cells)]
    }
}

/// An additive pattern database for one board side, goal and [`Partition`].
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
    partition: Partition,
    patterns: Vec<Pattern>,
    /// The pattern of each tile (index 0, the blank, unused).
    tile_pattern: Vec<u8>,
}

/// Bits per field of the packed word of a side.
fn bits_for(side: usize) -> u32 {
    if side <= 4 {
        <u64 as Word>::BITS
    } else {
        <u128 as Word>::BITS
    }
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

/// The pattern sizes, or [`SlideError::Partition`](super::SlideError::Partition).
fn sizes_of(
    side: usize,
    goal: Goal,
    partition: Partition,
) -> Result<&'static [usize], super::SlideError> {
    if !(MIN_SIDE..=MAX_SIDE).contains(&side) {
        return Err(super::SlideError::Size { side });
    }
    partition.sizes(side, goal).ok_or(super::SlideError::Partition { side, partition })
}

/// The build was stopped by its cancel flag.
fn cancelled() -> super::SlideError {
    super::SlideError::Stopped { stop: crate::Stop::Cancelled, stats: crate::Stats::default() }
}

impl Pdb {
    /// Builds the standard database of a side (2 to 5) and goal: milliseconds for the
    /// 8-puzzle, a few seconds for the 15-puzzle (6-6-3 partition), about a second for the
    /// 24-puzzle (six 4-tile patterns).
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
        Pdb::build_in_memory(side, goal, Partition::Standard, cancel)
    }

    /// Builds any partition in memory, without checkpoints.
    pub(crate) fn build_in_memory(
        side: usize,
        goal: Goal,
        partition: Partition,
        cancel: Option<&AtomicBool>,
    ) -> Result<Pdb, super::SlideError> {
        let sizes = sizes_of(side, goal, partition)?;
        let geo = Geometry::new(side, goal);
        let bits = bits_for(side);
        let mut patterns = Vec::new();
        let mut first = 1;
        for &len in sizes {
            let mut build = PatternBuild::new(&geo, bits, first, len, partition.index());
            let raised = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
            if build.run(&geo, &mut |_| if raised() { Pause::Now } else { Pause::No }) {
                return Err(cancelled());
            }
            patterns.push(build.into_pattern());
            first += len;
        }
        Ok(Pdb::assemble(side, goal, bits, partition, patterns))
    }

    fn assemble(
        side: usize,
        goal: Goal,
        bits: u32,
        partition: Partition,
        patterns: Vec<Pattern>,
    ) -> Pdb {
        let mut tile_pattern = vec![0u8; side * side];
        for (i, p) in patterns.iter().enumerate() {
            for slot in &mut tile_pattern[p.first..p.first + p.len] {
                *slot = i as u8;
            }
        }
        Pdb { side, goal, bits, partition, patterns, tile_pattern }
    }

    /// The board side.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The goal.
    pub fn goal(&self) -> Goal {
        self.goal
    }

    /// The partition.
    pub fn partition(&self) -> Partition {
        self.partition
    }

    /// The pattern sizes, e.g. `[6, 6, 3]`.
    pub fn pattern_sizes(&self) -> Vec<usize> {
        self.patterns.iter().map(|p| p.len).collect()
    }

    /// The pattern sizes joined by dashes, e.g. `6-6-3`.
    pub fn pattern_name(&self) -> String {
        let sizes: Vec<String> = self.patterns.iter().map(|p| p.len.to_string()).collect();
        sizes.join("-")
    }

    /// The file name under which a side, goal and partition are cached, with the format
    /// version (`pdb-v2-4x4-blank-first-6-6-3.bin`), or `None` where the partition has no
    /// patterns for the side.
    pub fn file_name(side: usize, goal: Goal, partition: Partition) -> Option<String> {
        let sizes: Vec<String> =
            partition.sizes(side, goal)?.iter().map(usize::to_string).collect();
        Some(format!("pdb-v{FORMAT_VERSION}-{side}x{side}-{}-{}.bin", goal.name(), sizes.join("-")))
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
        let mut out = Vec::new();
        self.write_to(&mut out).expect("writing to a Vec does not fail");
        out
    }

    /// Writes the database (the file format above).
    fn write_to(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let cells = self.side * self.side;
        let mut sink = build::Sink::new(out);
        sink.bytes(&MAGIC)?;
        sink.bytes(&FORMAT_VERSION.to_le_bytes())?;
        let goal = match self.goal {
            Goal::BlankFirst => 0,
            Goal::BlankLast => 1,
        };
        sink.bytes(&[
            self.side as u8,
            goal,
            self.bits as u8,
            self.partition.byte(),
            self.patterns.len() as u8,
        ])?;
        for p in &self.patterns {
            sink.bytes(&[p.first as u8, p.len as u8])?;
        }
        for p in &self.patterns {
            match p.index {
                Index::Ranked => {
                    sink.bytes(&(p.table.len() as u64).to_le_bytes())?;
                    sink.bytes(&p.table)?;
                }
                Index::Sparse => {
                    let values: Vec<u8> = (p.table.iter().enumerate())
                        .filter(|&(i, _)| is_placement(i, self.bits, p.len, cells))
                        .map(|(_, &v)| v)
                        .collect();
                    sink.bytes(&(values.len() as u64).to_le_bytes())?;
                    sink.bytes(&values)?;
                }
            }
        }
        sink.finish()
    }

    /// The checksum of the file format: a file's last eight bytes are the checksum of the
    /// bytes before them, little-endian.
    pub fn checksum(bytes: &[u8]) -> u64 {
        let mut sum = build::Checksum::new();
        sum.update(bytes);
        sum.finish()
    }

    /// Reads a database written by [`to_bytes`](Pdb::to_bytes), checking everything.
    pub fn from_bytes(bytes: &[u8]) -> Result<Pdb, PdbError> {
        Pdb::read_from(&mut &bytes[..], bytes.len() as u64)
    }

    /// Reads a database of `total` bytes from `input`, checking everything.
    fn read_from(input: &mut dyn Read, total: u64) -> Result<Pdb, PdbError> {
        let corrupt = |why: &str| PdbError::Corrupt(why.to_owned());
        let truncated = |e: std::io::Error| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => corrupt("truncated"),
            _ => PdbError::Corrupt(e.to_string()),
        };
        let mut source = build::Source::new(input);
        let mut head = [0u8; 17];
        if total < 17 + 8 {
            return Err(corrupt("not a dancecard pattern database"));
        }
        source.read(&mut head).map_err(truncated)?;
        if head[..8] != MAGIC {
            return Err(corrupt("not a dancecard pattern database"));
        }
        let version = u32::from_le_bytes([head[8], head[9], head[10], head[11]]);
        if version != FORMAT_VERSION {
            return Err(PdbError::Version { found: version });
        }
        let (side, goal, bits, partition, count) =
            (usize::from(head[12]), head[13], u32::from(head[14]), head[15], usize::from(head[16]));
        if !(MIN_SIDE..=MAX_SIDE).contains(&side) || bits != bits_for(side) {
            return Err(corrupt("bad side"));
        }
        let goal = match goal {
            0 => Goal::BlankFirst,
            1 => Goal::BlankLast,
            _ => return Err(corrupt("bad goal")),
        };
        let partition = match partition {
            0 => Partition::Standard,
            1 => Partition::Large,
            _ => return Err(corrupt("bad partition")),
        };
        let sizes = partition.sizes(side, goal).ok_or_else(|| corrupt("bad partition"))?;
        if count != sizes.len() {
            return Err(corrupt("unexpected partition"));
        }
        let cells = side * side;
        let mut heads = Vec::new();
        let mut first = 1;
        for &len in sizes {
            let mut pair = [0u8; 2];
            source.read(&mut pair).map_err(truncated)?;
            if pair != [first as u8, len as u8] {
                return Err(corrupt("unexpected partition"));
            }
            heads.push((first, len));
            first += len;
        }
        let index = partition.index();
        let placements: u64 = heads
            .iter()
            .map(|&(_, len)| (0..len).map(|j| (cells - j) as u64).product::<u64>())
            .sum();
        let expected = 17 + 2 * heads.len() as u64 + 8 * heads.len() as u64 + placements + 8;
        if total != expected {
            return Err(corrupt(&format!("{total} bytes, expected {expected}")));
        }
        let mut patterns = Vec::new();
        for (first, len) in heads {
            let mut n = [0u8; 8];
            source.read(&mut n).map_err(truncated)?;
            let n = u64::from_le_bytes(n);
            let expected: u64 = (0..len).map(|j| (cells - j) as u64).product();
            if n != expected {
                return Err(corrupt("wrong number of entries"));
            }
            let mut values = build::table_of(n as usize, 0u8);
            source.read(&mut values).map_err(truncated)?;
            if values.contains(&UNSEEN) {
                return Err(corrupt("incomplete table"));
            }
            let table = match index {
                Index::Ranked => values,
                Index::Sparse => {
                    let mut table = build::table_of(index.size(bits, len, cells), UNSEEN);
                    let mut next = values.into_iter();
                    for (i, slot) in table.iter_mut().enumerate() {
                        if is_placement(i, bits, len, cells) {
                            *slot = next.next().ok_or_else(|| corrupt("truncated"))?;
                        }
                    }
                    table
                }
            };
            patterns.push(Pattern { first, len, cells, index, table });
        }
        if !source.check().map_err(truncated)? {
            return Err(corrupt("checksum mismatch"));
        }
        Ok(Pdb::assemble(side, goal, bits, partition, patterns))
    }

    /// Reads a database file.
    pub fn load(path: &Path) -> Result<Pdb, PdbError> {
        let io = |source| PdbError::Io { path: path.display().to_string(), source };
        let file = std::fs::File::open(path).map_err(io)?;
        let total = file.metadata().map_err(io)?.len();
        Pdb::read_from(&mut BufReader::with_capacity(1 << 20, file), total)
    }

    /// Writes the database to `path` atomically (a temporary file in the same directory,
    /// then a rename), creating the directory if needed.
    pub fn save(&self, path: &Path) -> Result<(), PdbError> {
        build::write_atomically(path, &mut |out| self.write_to(out))
    }

    /// Builds the database of a side, goal and partition into the file `path`, resumably:
    /// the work in progress is kept in the directory `path` + `.part` (each finished pattern,
    /// and a checkpoint of the pattern being built, written every `checkpoint_every` and when
    /// `cancel` is raised), and a later call with the same arguments goes on from there. On
    /// success the database is saved to `path`, the directory removed and the database
    /// returned; `progress` is called often (every 65,536 states) with where the build is.
    ///
    /// The 15-puzzle's [`Partition::Large`] (7-8) takes about 9 minutes and 6 GB of memory
    /// (a checkpoint holds the table, the blank masks and the layers: about 3 GB on disk).
    pub fn build_resumable(
        side: usize,
        goal: Goal,
        partition: Partition,
        path: &Path,
        cancel: Option<&AtomicBool>,
        checkpoint_every: std::time::Duration,
        progress: &mut dyn FnMut(&BuildProgress),
    ) -> Result<Pdb, super::SlideError> {
        let sizes = sizes_of(side, goal, partition)?;
        let geo = Geometry::new(side, goal);
        let bits = bits_for(side);
        let pdb = build::resumable(
            &geo,
            bits,
            partition,
            sizes,
            path,
            cancel,
            checkpoint_every,
            build::POLL,
            progress,
        )?;
        let pdb = match pdb {
            Some(patterns) => Pdb::assemble(side, goal, bits, partition, patterns),
            None => return Err(cancelled()),
        };
        pdb.save(path)?;
        build::remove_work(path);
        Ok(pdb)
    }
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
    use super::build::Checksum;
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
        for (side, partition) in
            [(3, Partition::Standard), (3, Partition::Large), (2, Partition::Standard)]
        {
            // The 3-puzzle's one pattern holds every tile: half its placements are never
            // reached, and are valued 0.
            let pdb = Pdb::build_in_memory(side, Goal::BlankLast, partition, None).unwrap();
            let bytes = pdb.to_bytes();
            assert_eq!(Pdb::from_bytes(&bytes).unwrap(), pdb);
            for at in [0, 9, 14, 15, 20, bytes.len() / 2, bytes.len() - 1] {
                let mut bad = bytes.clone();
                bad[at] ^= 0x40;
                assert!(Pdb::from_bytes(&bad).is_err(), "flipped byte {at}");
            }
            assert!(Pdb::from_bytes(&bytes[..bytes.len() - 1]).is_err());
            assert!(Pdb::from_bytes(b"").is_err());
            let mut other = bytes.clone();
            other[8] = 9;
            let body = other.len() - 8;
            let mut sum = Checksum::new();
            sum.update(&other[..body]);
            other[body..].copy_from_slice(&sum.finish().to_le_bytes());
            assert!(matches!(Pdb::from_bytes(&other), Err(PdbError::Version { found: 9 })));
        }
    }

    #[test]
    fn ranks_are_dense_and_keep_the_order_of_the_packed_numbers() {
        for (cells, len) in [(4, 3), (9, 4), (9, 8), (16, 3)] {
            let bits = 4;
            let mut last = None;
            let mut count = 0;
            for config in 0..1usize << (bits * len) {
                if !is_placement(config, bits as u32, len, cells) {
                    continue;
                }
                let r = rank(config, bits as u32, len, cells);
                assert_eq!(r, count, "{cells} cells, {len} tiles, config {config:x}");
                assert!(last.is_none_or(|l| l < r));
                last = Some(r);
                count += 1;
            }
            assert_eq!(count, Index::Ranked.size(bits as u32, len, cells));
        }
    }

    #[test]
    fn ranked_and_sparse_tables_agree() {
        // The same pattern built with both indexes has the same value on every placement.
        for goal in [Goal::BlankFirst, Goal::BlankLast] {
            let geo = Geometry::new(3, goal);
            for (first, len) in [(1, 4), (5, 4), (1, 6), (7, 2)] {
                let mut sparse = PatternBuild::new(&geo, 4, first, len, Index::Sparse);
                assert!(!sparse.run(&geo, &mut |_| Pause::No));
                let mut ranked = PatternBuild::new(&geo, 4, first, len, Index::Ranked);
                assert!(!ranked.run(&geo, &mut |_| Pause::No));
                // Every placement is reached: at least two tiles are outside the pattern.
                assert_eq!(ranked.done, Index::Ranked.size(4, len, 9) as u64);
                let (sparse, ranked) = (sparse.into_pattern(), ranked.into_pattern());
                for config in 0..1usize << (4 * len) {
                    if is_placement(config, 4, len, 9) {
                        let pos = (config as u64) << (4 * first);
                        assert_eq!(sparse.lookup(pos), ranked.lookup(pos), "{config:x}");
                    }
                }
                assert!(!ranked.table.contains(&UNSEEN));
            }
        }
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
