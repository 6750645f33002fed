//! Building a pattern's table, in memory or resumably, and the files of the resumable build.
//!
//! # The search
//!
//! The layers hold entries `(configuration, blank cells)`: a placement of the pattern's tiles
//! (its packed number, see [`super::Index`]) with a set of blank cells (a `u32` bit mask)
//! first reached at the layer's cost. The 0-cost closure of an entry is a flood fill of its
//! blank cells through the cells free of pattern tiles, done with shifts on the mask;
//! `seen[index]` is the mask of blank cells reached so far. Each layer is sorted by
//! configuration (and entries of the same configuration merged) before it is processed, so
//! that the tables are swept in order rather than hit at random: this is what makes the build
//! take seconds, not minutes (the rank keeps the order of the packed numbers, so this holds
//! for ranked tables too).
//!
//! Invariants, between two steps of [`PatternBuild::run`] (checked by `PatternBuild::check`
//! in the tests, at every step):
//!
//! - **(L1)** `table[i]` is the cost of the first layer that reached placement `i`, or
//!   `UNSEEN`; `done` counts the placements that are not `UNSEEN`.
//! - **(L2)** `seen[i]` holds every blank cell reached with placement `i` in layers up to
//!   `cost` (in the closure pass, of the entries before `at`).
//! - **(L3)** In the closure pass, the layer is sorted and merged, and its entries before `at`
//!   are closed; in the expansion pass, all its entries are closed, and the successors of
//!   those before `at` are in `next`.
//!
//! Closing an entry twice changes nothing, and neither does sorting a sorted layer, so a
//! build saved at any step (a checkpoint) and read back goes on exactly where it was.
//!
//! # Working memory
//!
//! One byte of table and four of `seen` per placement, plus eight bytes per layer entry: for
//! the 15-puzzle's 8-tile pattern, 519 MB and 2.1 GB, and the two largest layers.
//!
//! # Files of the resumable build
//!
//! In the directory `<database file>.part`: `pattern-<i>.bin` for each finished pattern and
//! `pattern-<i>.checkpoint` for the one being built, each written atomically. Both begin with
//! a magic (`DCPDBPT\n`, `DCPDBCK\n`), the format version (`u32`) and the tag: side, goal,
//! bits, partition, pattern number, first tile and number of tiles (one byte each). A
//! finished pattern then holds its table (a `u64` length and the bytes); a checkpoint holds
//! the pass (0 closure, 1 expansion) and cost (one byte each), `at` and `done` (`u64`), the
//! lengths of table, `seen`, layer and next layer (`u64` each), then the four arrays
//! (`u8`, `u32`, `u64`, `u64`). Both end with the [`Checksum`] of everything before it. A file
//! that does not match its tag, its length or its checksum is ignored (the work is redone).

use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{Index, Partition, Pattern, PdbError, FORMAT_VERSION, UNSEEN};
use crate::slide::board::Goal;
use crate::slide::space::Geometry;

/// Entries handled between two calls of the hook.
pub(crate) const POLL: usize = 1 << 16;

/// Magic of a finished pattern's file.
const PATTERN_MAGIC: [u8; 8] = *b"DCPDBPT\n";

/// Magic of a checkpoint.
const CHECKPOINT_MAGIC: [u8; 8] = *b"DCPDBCK\n";

/// A zeroed table of `n` values. A large one asks Linux for transparent huge pages: the
/// tables of the large partitions are hit at random, and with 4 KB pages nearly every lookup
/// would also miss the TLB.
pub(crate) fn table_of<T: Copy + Default>(n: usize, value: T) -> Vec<T> {
    let v = vec![value; n];
    #[cfg(target_os = "linux")]
    if std::mem::size_of_val(v.as_slice()) >= 1 << 22 {
        let start = v.as_ptr() as usize;
        let end = start + std::mem::size_of_val(v.as_slice());
        let aligned = (start + 4095) & !4095;
        if end > aligned {
            // SAFETY: madvise only advises the kernel on how to back pages of a range inside
            // this allocation (page-aligned, within its bounds); it changes neither their
            // contents nor their validity. A failure is harmless and ignored.
            unsafe {
                libc::madvise(aligned as *mut libc::c_void, end - aligned, libc::MADV_HUGEPAGE);
            }
        }
    }
    v
}

/// Where a build is, as given to the progress callback of
/// [`Pdb::build_resumable`](super::Pdb::build_resumable).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BuildProgress {
    /// The pattern being built, from 0.
    pub pattern: usize,
    /// The number of patterns.
    pub patterns: usize,
    /// The pattern's number of tiles.
    pub tiles: usize,
    /// The layer: the moves of the pattern's tiles from their home.
    pub layer: u8,
    /// Placements whose value is known, in all patterns.
    pub done: u64,
    /// Placements in all patterns.
    pub total: u64,
    /// Entries of the layer handled in its current pass (the closure, then the moves).
    pub entries_done: usize,
    /// Entries of the layer.
    pub entries: usize,
    /// Whether this pattern went on from a checkpoint.
    pub resumed: bool,
}

/// Where a step of [`PatternBuild::run`] is.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    pub(crate) cost: u8,
    pub(crate) done: u64,
    pub(crate) at: usize,
    pub(crate) len: usize,
}

/// What the hook of [`PatternBuild::run`] asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pause {
    /// Go on.
    No,
    /// Return now (the build is consistent and can be saved or dropped).
    Now,
}

/// The pass a layer is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Close,
    Expand,
}

/// One pattern's table being built (see the module documentation for L1-L3).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct PatternBuild {
    first: usize,
    len: usize,
    cells: usize,
    bits: u32,
    index: Index,
    table: Vec<u8>,
    seen: Vec<u32>,
    layer: Vec<u64>,
    next: Vec<u64>,
    cost: u8,
    phase: Phase,
    at: usize,
    pub(crate) done: u64,
    /// Entries between two calls of the hook ([`POLL`]; smaller in tests).
    poll: usize,
}

impl PatternBuild {
    /// The start of the search: the goal placement with the blank home.
    pub(crate) fn new(
        geo: &Geometry,
        bits: u32,
        first: usize,
        len: usize,
        index: Index,
    ) -> PatternBuild {
        let cells = geo.cells;
        let b = bits as usize;
        let size = index.size(bits, len, cells);
        let goal_config: usize =
            (0..len).map(|j| geo.goal.cell_of(first + j, cells) << (b * j)).sum();
        let goal_blank = 1u32 << geo.goal.cell_of(0, cells);
        let mut seen = table_of(size, 0u32);
        seen[index.of(goal_config, bits, len, cells)] = goal_blank;
        PatternBuild {
            first,
            len,
            cells,
            bits,
            index,
            table: table_of(size, UNSEEN),
            seen,
            layer: vec![((goal_config as u64) << 32) | u64::from(goal_blank)],
            next: Vec::new(),
            cost: 0,
            phase: Phase::Close,
            at: 0,
            done: 0,
            poll: POLL,
        }
    }

    /// The finished table. A placement no state reaches (when the pattern holds every tile,
    /// as on the 3-puzzle, only half the placements are reachable) is valued 0: a bound no
    /// solvable state will ever look up.
    pub(crate) fn into_pattern(self) -> Pattern {
        debug_assert!(self.layer.is_empty());
        let PatternBuild { first, len, cells, index, mut table, bits, done, .. } = self;
        if done < Index::Ranked.size(bits, len, cells) as u64 {
            for (i, v) in table.iter_mut().enumerate() {
                let placement = index == Index::Ranked || super::is_placement(i, bits, len, cells);
                if *v == UNSEEN && placement {
                    *v = 0;
                }
            }
        }
        Pattern { first, len, cells, index, table }
    }

    fn step(&self) -> Step {
        Step { cost: self.cost, done: self.done, at: self.at, len: self.layer.len() }
    }

    /// Runs the search to its end (`false`) or until `hook`, called every `poll` entries,
    /// asks for a pause (`true`; the build is then consistent, see L1-L3).
    pub(crate) fn run(&mut self, geo: &Geometry, hook: &mut dyn FnMut(Step) -> Pause) -> bool {
        let (n, cells, bits, len) = (geo.n, geo.cells, self.bits, self.len);
        let b = bits as usize;
        let field = (1usize << b) - 1;
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
            .map(|c| {
                geo.neighbors(c).iter().filter(|&&x| x != u8::MAX).fold(0, |m, &x| m | (1 << x))
            })
            .collect();
        let index = self.index;
        let mut positions = [0usize; 16];
        while !self.layer.is_empty() {
            if self.phase == Phase::Close {
                if self.at == 0 {
                    self.sort_and_merge();
                }
                // The 0-cost closure of each entry.
                while self.at < self.layer.len() {
                    if self.at % self.poll == 0 && hook(self.step()) == Pause::Now {
                        return true;
                    }
                    let entry = self.layer[self.at];
                    let config = (entry >> 32) as usize;
                    let mut occupied = 0u32;
                    for j in 0..len {
                        occupied |= 1 << ((config >> (b * j)) & field);
                    }
                    let region = flood(entry as u32, all & !occupied);
                    let i = index.of(config, bits, len, cells);
                    self.seen[i] |= region;
                    if self.table[i] == UNSEEN {
                        self.table[i] = self.cost;
                        self.done += 1;
                    }
                    self.layer[self.at] = ((config as u64) << 32) | u64::from(region);
                    self.at += 1;
                }
                self.phase = Phase::Expand;
                self.at = 0;
            }
            // The 1-cost moves: a pattern tile next to the region slides into it.
            while self.at < self.layer.len() {
                if self.at % self.poll == 0 && hook(self.step()) == Pause::Now {
                    return true;
                }
                let entry = self.layer[self.at];
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
                        let i = index.of(moved, bits, len, cells);
                        if self.seen[i] & blank == 0 {
                            self.seen[i] |= blank;
                            self.next.push(((moved as u64) << 32) | u64::from(blank));
                        }
                    }
                }
                self.at += 1;
            }
            std::mem::swap(&mut self.layer, &mut self.next);
            self.next = Vec::new();
            self.cost = self.cost.saturating_add(1);
            self.phase = Phase::Close;
            self.at = 0;
        }
        false
    }

    /// Checks L1, the part of L2 the layers show (their blank cells are in `seen`) and L3
    /// (the order of the layer; closed entries are closed under 0-cost moves). Panics if one
    /// fails.
    #[cfg(test)]
    pub(crate) fn check(&self, geo: &Geometry) {
        let known = self.table.iter().filter(|&&v| v != UNSEEN).count() as u64;
        assert_eq!(known, self.done, "L1: done");
        assert!(self.table.iter().all(|&v| v == UNSEEN || v <= self.cost), "L1: cost");
        let (b, field) = (self.bits as usize, (1usize << self.bits) - 1);
        let closed = if self.phase == Phase::Close { self.at } else { self.layer.len() };
        if self.phase == Phase::Expand || self.at > 0 {
            assert!(self.layer.windows(2).all(|w| w[0] >> 32 < w[1] >> 32), "L3: order");
        }
        let index = |config: usize| self.index.of(config, self.bits, self.len, self.cells);
        for (k, &entry) in self.layer.iter().chain(&self.next).enumerate() {
            let (config, blanks) = ((entry >> 32) as usize, entry as u32);
            let i = index(config);
            assert_eq!(self.seen[i] & blanks, blanks, "L2: entry {k}");
            if k < closed {
                assert_ne!(self.table[i], UNSEEN, "L1: a closed entry is valued");
                let occupied: u32 =
                    (0..self.len).map(|j| 1u32 << ((config >> (b * j)) & field)).sum();
                for c in (0..geo.cells).filter(|&c| blanks & (1 << c) != 0) {
                    for &x in geo.neighbors(c).iter().filter(|&&x| x != u8::MAX) {
                        let free = occupied & (1 << x) == 0;
                        assert!(!free || blanks & (1 << x) != 0, "L3: entry {k} not closed");
                    }
                }
            }
        }
    }

    /// Sorts the layer by configuration and merges the blank cells of equal ones.
    fn sort_and_merge(&mut self) {
        let layer = &mut self.layer;
        layer.sort_unstable();
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
        layer.shrink_to_fit();
    }
}

/// A 64-bit checksum of a byte stream, eight bytes at a time (a multiply-rotate hash: fast
/// enough for gigabytes, and any changed byte changes it with overwhelming odds).
#[derive(Clone, Debug)]
pub(crate) struct Checksum {
    h: u64,
    tail: [u8; 8],
    n: usize,
    total: u64,
}

impl Checksum {
    pub(crate) fn new() -> Checksum {
        Checksum { h: 0x243f_6a88_85a3_08d3, tail: [0; 8], n: 0, total: 0 }
    }

    #[inline(always)]
    fn mix(&mut self, w: u64) {
        self.h = (self.h.rotate_left(23) ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    pub(crate) fn update(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        if self.n > 0 {
            let take = (8 - self.n).min(bytes.len());
            self.tail[self.n..self.n + take].copy_from_slice(&bytes[..take]);
            self.n += take;
            bytes = &bytes[take..];
            if self.n < 8 {
                return;
            }
            self.mix(u64::from_le_bytes(self.tail));
            self.n = 0;
        }
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.mix(u64::from_le_bytes(w.try_into().expect("8 bytes")));
        }
        let rest = words.remainder();
        self.tail[..rest.len()].copy_from_slice(rest);
        self.n = rest.len();
    }

    pub(crate) fn finish(&self) -> u64 {
        let mut last = self.clone();
        last.tail[last.n..].fill(0);
        last.mix(u64::from_le_bytes(last.tail));
        last.mix(last.total);
        let mut h = last.h;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^ (h >> 33)
    }
}

/// Numbers written to and read from work files, `CHUNK` at a time.
const CHUNK: usize = 1 << 14;

/// A number of a work file's arrays, stored little-endian.
trait Word: Copy {
    /// Its bytes.
    const SIZE: usize;
    /// Appends its bytes.
    fn put(self, out: &mut Vec<u8>);
    /// Reads it from `SIZE` bytes.
    fn get(bytes: &[u8]) -> Self;
}

macro_rules! impl_word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().expect("SIZE bytes"))
            }
        }
    )*};
}

impl_word!(u32, u64);

/// A writer that keeps the [`Checksum`] of what it writes.
pub(crate) struct Sink<'w> {
    out: &'w mut dyn Write,
    sum: Checksum,
}

impl<'w> Sink<'w> {
    pub(crate) fn new(out: &'w mut dyn Write) -> Sink<'w> {
        Sink { out, sum: Checksum::new() }
    }

    pub(crate) fn bytes(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.sum.update(bytes);
        self.out.write_all(bytes)
    }

    fn u64(&mut self, v: u64) -> std::io::Result<()> {
        self.bytes(&v.to_le_bytes())
    }

    /// Writes numbers, little-endian, a chunk at a time.
    fn words<T: Word>(&mut self, values: &[T]) -> std::io::Result<()> {
        let mut buf = Vec::with_capacity(CHUNK * T::SIZE);
        for chunk in values.chunks(CHUNK) {
            buf.clear();
            chunk.iter().for_each(|v| v.put(&mut buf));
            self.bytes(&buf)?;
        }
        Ok(())
    }

    /// Writes the checksum.
    pub(crate) fn finish(self) -> std::io::Result<()> {
        let sum = self.sum.finish();
        self.out.write_all(&sum.to_le_bytes())?;
        self.out.flush()
    }
}

/// A reader that keeps the [`Checksum`] of what it reads.
pub(crate) struct Source<'r> {
    input: &'r mut dyn Read,
    sum: Checksum,
}

impl<'r> Source<'r> {
    pub(crate) fn new(input: &'r mut dyn Read) -> Source<'r> {
        Source { input, sum: Checksum::new() }
    }

    pub(crate) fn read(&mut self, buf: &mut [u8]) -> std::io::Result<()> {
        self.input.read_exact(buf)?;
        self.sum.update(buf);
        Ok(())
    }

    fn u8(&mut self) -> std::io::Result<u8> {
        let mut b = [0u8; 1];
        self.read(&mut b)?;
        Ok(b[0])
    }

    fn u64(&mut self) -> std::io::Result<u64> {
        let mut b = [0u8; 8];
        self.read(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    /// Reads `n` numbers, little-endian, a chunk at a time.
    fn words<T: Word>(&mut self, n: usize) -> std::io::Result<Vec<T>> {
        let mut out = Vec::with_capacity(n);
        let mut buf = vec![0u8; CHUNK * T::SIZE];
        while out.len() < n {
            let bytes = &mut buf[..(n - out.len()).min(CHUNK) * T::SIZE];
            self.read(bytes)?;
            out.extend(bytes.chunks_exact(T::SIZE).map(T::get));
        }
        Ok(out)
    }

    /// Reads the stored checksum: whether it is the one of everything read before.
    pub(crate) fn check(self) -> std::io::Result<bool> {
        let expected = self.sum.finish();
        let mut stored = [0u8; 8];
        self.input.read_exact(&mut stored)?;
        Ok(u64::from_le_bytes(stored) == expected)
    }
}

/// Writes `path` atomically (a temporary file in the same directory, then a rename), creating
/// the directory if needed.
pub(crate) fn write_atomically(
    path: &Path,
    write: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), PdbError> {
    let io = |source| PdbError::Io { path: path.display().to_string(), source };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let mut attempt = || -> std::io::Result<()> {
        let file = std::fs::File::create(&tmp)?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        write(&mut out)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    attempt().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io(e)
    })
}

/// The directory of the work in progress of the database file `path`.
pub(crate) fn work_dir(path: &Path) -> PathBuf {
    let mut dir = path.as_os_str().to_owned();
    dir.push(".part");
    PathBuf::from(dir)
}

/// Removes the work directory of `path` (best effort: a leftover directory is harmless).
pub(crate) fn remove_work(path: &Path) {
    let _ = std::fs::remove_dir_all(work_dir(path));
}

/// What a work file is about: the bytes after the magic and version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tag {
    side: u8,
    goal: u8,
    bits: u8,
    partition: u8,
    pattern: u8,
    first: u8,
    len: u8,
}

impl Tag {
    fn bytes(self) -> [u8; 7] {
        [self.side, self.goal, self.bits, self.partition, self.pattern, self.first, self.len]
    }
}

/// Opens a work file and checks its magic, version and tag; returns the reader and the file's
/// length.
fn open_work(path: &Path, magic: &[u8; 8], tag: Tag) -> Option<(BufReader<std::fs::File>, u64)> {
    let file = std::fs::File::open(path).ok()?;
    let total = file.metadata().ok()?.len();
    let mut input = BufReader::with_capacity(1 << 20, file);
    let mut read = [0u8; HEAD];
    input.read_exact(&mut read).ok()?;
    (read == head(magic, tag)).then_some((input, total))
}

/// The bytes of a work file's head.
const HEAD: usize = 8 + 4 + 7;

/// A work file's head: magic, version and tag.
fn head(magic: &[u8; 8], tag: Tag) -> [u8; HEAD] {
    let mut head = [0u8; HEAD];
    head[..8].copy_from_slice(magic);
    head[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    head[12..].copy_from_slice(&tag.bytes());
    head
}

fn save_pattern(path: &Path, tag: Tag, pattern: &Pattern) -> Result<(), PdbError> {
    write_atomically(path, &mut |out| {
        let mut sink = Sink::new(out);
        sink.bytes(&head(&PATTERN_MAGIC, tag))?;
        sink.u64(pattern.table.len() as u64)?;
        sink.bytes(&pattern.table)?;
        sink.finish()
    })
}

/// A finished pattern, if its file is intact.
fn load_pattern(path: &Path, tag: Tag, index: Index, cells: usize, bits: u32) -> Option<Pattern> {
    let (first, len) = (usize::from(tag.first), usize::from(tag.len));
    let size = index.size(bits, len, cells);
    let (mut input, total) = open_work(path, &PATTERN_MAGIC, tag)?;
    if total != (HEAD + 8 + size + 8) as u64 {
        return None;
    }
    let mut source = Source::new(&mut input);
    source.sum.update(&head(&PATTERN_MAGIC, tag));
    if source.u64().ok()? != size as u64 {
        return None;
    }
    let mut table = table_of(size, 0u8);
    source.read(&mut table).ok()?;
    source.check().ok()?.then_some(Pattern { first, len, cells, index, table })
}

fn save_checkpoint(path: &Path, tag: Tag, build: &PatternBuild) -> Result<(), PdbError> {
    write_atomically(path, &mut |out| {
        let mut sink = Sink::new(out);
        sink.bytes(&head(&CHECKPOINT_MAGIC, tag))?;
        sink.bytes(&[u8::from(build.phase == Phase::Expand), build.cost])?;
        sink.u64(build.at as u64)?;
        sink.u64(build.done)?;
        for n in [build.table.len(), build.seen.len(), build.layer.len(), build.next.len()] {
            sink.u64(n as u64)?;
        }
        sink.bytes(&build.table)?;
        sink.words(&build.seen)?;
        sink.words(&build.layer)?;
        sink.words(&build.next)?;
        sink.finish()
    })
}

/// A checkpoint, if its file is intact and consistent.
fn load_checkpoint(
    path: &Path,
    tag: Tag,
    index: Index,
    cells: usize,
    bits: u32,
) -> Option<PatternBuild> {
    let (first, len) = (usize::from(tag.first), usize::from(tag.len));
    let size = index.size(bits, len, cells);
    let (mut input, total) = open_work(path, &CHECKPOINT_MAGIC, tag)?;
    let mut source = Source::new(&mut input);
    source.sum.update(&head(&CHECKPOINT_MAGIC, tag));
    let phase = match source.u8().ok()? {
        0 => Phase::Close,
        1 => Phase::Expand,
        _ => return None,
    };
    let cost = source.u8().ok()?;
    let (at, done) = (source.u64().ok()?, source.u64().ok()?);
    let mut lens = [0u64; 4];
    for n in &mut lens {
        *n = source.u64().ok()?;
    }
    let [table_len, seen_len, layer_len, next_len] = lens;
    // Every (placement, blank) pair enters a layer at most once.
    let most = (size * cells) as u64;
    if table_len != size as u64
        || seen_len != size as u64
        || layer_len > most
        || next_len > most
        || at > layer_len
        || done > size as u64
        || total
            != HEAD as u64 + 2 + 16 + 32 + table_len + 4 * seen_len + 8 * (layer_len + next_len) + 8
    {
        return None;
    }
    let mut table = table_of(size, 0u8);
    source.read(&mut table).ok()?;
    let seen = source.words(size).ok()?;
    let layer = source.words(layer_len as usize).ok()?;
    let next = source.words(next_len as usize).ok()?;
    if !source.check().ok()? {
        return None;
    }
    let done_now = table.iter().filter(|&&v| v != UNSEEN).count() as u64;
    (done_now == done).then_some(PatternBuild {
        first,
        len,
        cells,
        bits,
        index,
        table,
        seen,
        layer,
        next,
        cost,
        phase,
        at: at as usize,
        done,
        poll: POLL,
    })
}

/// The patterns of a resumable build (see [`super::Pdb::build_resumable`]), or `None` when
/// `cancel` was raised (after a checkpoint).
#[allow(clippy::too_many_arguments)]
pub(crate) fn resumable(
    geo: &Geometry,
    bits: u32,
    partition: Partition,
    sizes: &[usize],
    path: &Path,
    cancel: Option<&AtomicBool>,
    checkpoint_every: Duration,
    poll: usize,
    progress: &mut dyn FnMut(&BuildProgress),
) -> Result<Option<Vec<Pattern>>, PdbError> {
    let dir = work_dir(path);
    std::fs::create_dir_all(&dir)
        .map_err(|source| PdbError::Io { path: dir.display().to_string(), source })?;
    let raised = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    let cells = geo.cells;
    let index = partition.index();
    let placements = |len: usize| (0..len).map(|j| (cells - j) as u64).product::<u64>();
    let total: u64 = sizes.iter().map(|&len| placements(len)).sum();
    let mut patterns = Vec::new();
    let (mut first, mut before) = (1, 0u64);
    for (i, &len) in sizes.iter().enumerate() {
        let tag = Tag {
            side: geo.n as u8,
            goal: u8::from(geo.goal == Goal::BlankLast),
            bits: bits as u8,
            partition: partition.byte(),
            pattern: i as u8,
            first: first as u8,
            len: len as u8,
        };
        let finished = dir.join(format!("pattern-{i}.bin"));
        let checkpoint = dir.join(format!("pattern-{i}.checkpoint"));
        let mut report = BuildProgress {
            pattern: i,
            patterns: sizes.len(),
            tiles: len,
            layer: 0,
            done: before,
            total,
            entries_done: 0,
            entries: 0,
            resumed: false,
        };
        if let Some(pattern) = load_pattern(&finished, tag, index, cells, bits) {
            before += placements(len);
            report.done = before;
            report.resumed = true;
            progress(&report);
            patterns.push(pattern);
            first += len;
            continue;
        }
        let resumed = load_checkpoint(&checkpoint, tag, index, cells, bits);
        report.resumed = resumed.is_some();
        let mut build = resumed.unwrap_or_else(|| PatternBuild::new(geo, bits, first, len, index));
        build.poll = poll;
        let mut last = Instant::now();
        loop {
            // A run goes at least one step past a checkpoint before the next one.
            let mut fresh = true;
            let paused = build.run(geo, &mut |step| {
                report.layer = step.cost;
                report.done = before + step.done;
                report.entries_done = step.at;
                report.entries = step.len;
                progress(&report);
                let due = !fresh && last.elapsed() >= checkpoint_every;
                fresh = false;
                if raised() || due {
                    Pause::Now
                } else {
                    Pause::No
                }
            });
            if !paused {
                break;
            }
            save_checkpoint(&checkpoint, tag, &build)?;
            last = Instant::now();
            if raised() {
                return Ok(None);
            }
        }
        let pattern = build.into_pattern();
        save_pattern(&finished, tag, &pattern)?;
        let _ = std::fs::remove_file(&checkpoint);
        before += placements(len);
        patterns.push(pattern);
        first += len;
    }
    Ok(Some(patterns))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slide::pdb::Pdb;

    /// Builds the 8-puzzle's large database in rounds, each stopped after `calls` calls of
    /// the hook (`poll` entries apart): every stop writes a checkpoint that the next round
    /// reads. Returns the patterns and the number of rounds.
    fn in_rounds(goal: Goal, path: &Path, calls: usize, poll: usize) -> (Vec<Pattern>, usize) {
        let geo = Geometry::new(3, goal);
        let sizes = Partition::Large.sizes(3, goal).unwrap();
        let mut rounds = 0;
        loop {
            rounds += 1;
            let cancel = AtomicBool::new(false);
            let mut seen = 0;
            let mut hook = |p: &BuildProgress| {
                // A finished pattern read back is reported with no entries: not a step.
                seen += usize::from(p.entries > 0);
                if seen == calls {
                    cancel.store(true, Ordering::Relaxed);
                }
            };
            let every = Duration::from_secs(3600);
            if let Some(patterns) = resumable(
                &geo,
                4,
                Partition::Large,
                sizes,
                path,
                Some(&cancel),
                every,
                poll,
                &mut hook,
            )
            .unwrap()
            {
                return (patterns, rounds);
            }
            assert!(rounds < 100_000, "no progress");
        }
    }

    #[test]
    fn a_build_stopped_anywhere_goes_on_to_the_same_tables() {
        let dir = tempfile::tempdir().unwrap();
        for goal in [Goal::BlankFirst, Goal::BlankLast] {
            let whole = Pdb::build_in_memory(3, goal, Partition::Large, None).unwrap();
            for (calls, poll) in [(2, 97), (3, 1000), (5, 4096)] {
                let path = dir.path().join(format!("{goal:?}-{calls}.bin"));
                let (patterns, rounds) = in_rounds(goal, &path, calls, poll);
                assert!(rounds > 5, "{rounds} rounds");
                assert_eq!(patterns, whole.patterns(), "{goal:?}, stopped every {calls} calls");
            }
        }
    }

    #[test]
    fn the_invariants_hold_at_every_step() {
        for goal in [Goal::BlankFirst, Goal::BlankLast] {
            let geo = Geometry::new(3, goal);
            for (first, len, index) in
                [(1, 4, Index::Sparse), (5, 4, Index::Ranked), (1, 6, Index::Ranked)]
            {
                let mut build = PatternBuild::new(&geo, 4, first, len, index);
                build.poll = 61;
                build.check(&geo);
                let mut steps = 0;
                loop {
                    // One step: the first call of the hook is where the run starts.
                    let mut calls = 0;
                    let paused = build.run(&geo, &mut |_| {
                        calls += 1;
                        if calls == 2 {
                            Pause::Now
                        } else {
                            Pause::No
                        }
                    });
                    build.check(&geo);
                    if !paused {
                        break;
                    }
                    steps += 1;
                }
                assert!(steps > 10, "{steps} steps");
                assert!(build.layer.is_empty());
                assert_eq!(build.done, Index::Ranked.size(4, len, 9) as u64);
            }
        }
    }

    #[test]
    fn damaged_work_files_are_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.bin");
        let goal = Goal::BlankFirst;
        let whole = Pdb::build_in_memory(3, goal, Partition::Large, None).unwrap();
        // Both patterns' files are kept until the database is saved (by `Pdb`).
        let (patterns, _) = in_rounds(goal, &path, 2, 1 << 20);
        assert_eq!(patterns, whole.patterns());
        let work = work_dir(&path);
        let finished = work.join("pattern-0.bin");
        assert!(finished.exists() && work.join("pattern-1.bin").exists());
        std::fs::remove_file(work.join("pattern-1.bin")).unwrap();
        let checkpoint = work.join("pattern-1.checkpoint");
        // A checkpoint of the second pattern, read back; then both files damaged.
        let geo = Geometry::new(3, goal);
        let tag = Tag { side: 3, goal: 0, bits: 4, partition: 1, pattern: 1, first: 7, len: 2 };
        let mut build = PatternBuild::new(&geo, 4, 7, 2, Index::Ranked);
        build.poll = 5;
        let mut calls = 0;
        assert!(build.run(&geo, &mut |_| {
            calls += 1;
            if calls == 4 {
                Pause::Now
            } else {
                Pause::No
            }
        }));
        save_checkpoint(&checkpoint, tag, &build).unwrap();
        let mut loaded = load_checkpoint(&checkpoint, tag, Index::Ranked, 9, 4).unwrap();
        loaded.poll = build.poll;
        assert_eq!(loaded, build);
        let other = Tag { pattern: 0, ..tag };
        assert!(load_checkpoint(&checkpoint, other, Index::Ranked, 9, 4).is_none());
        for file in [&finished, &checkpoint] {
            let mut bytes = std::fs::read(file).unwrap();
            let at = bytes.len() - 20;
            bytes[at] ^= 4;
            std::fs::write(file, &bytes).unwrap();
        }
        assert!(load_checkpoint(&checkpoint, tag, Index::Ranked, 9, 4).is_none());
        let t0 = Tag { pattern: 0, first: 1, len: 6, ..tag };
        assert!(load_pattern(&finished, t0, Index::Ranked, 9, 4).is_none());
        let (patterns, rounds) = in_rounds(goal, &path, usize::MAX, 1 << 20);
        assert_eq!((patterns.as_slice(), rounds), (whole.patterns(), 1));
    }

    #[test]
    fn the_checksum_sees_every_byte_and_split_updates_agree() {
        let bytes: Vec<u8> = (0..1000u32).map(|i| (i * 7 + 3) as u8).collect();
        let mut whole = Checksum::new();
        whole.update(&bytes);
        for split in [0, 1, 7, 8, 9, 500, 999, 1000] {
            let mut parts = Checksum::new();
            parts.update(&bytes[..split]);
            parts.update(&bytes[split..]);
            assert_eq!(parts.finish(), whole.finish(), "split at {split}");
        }
        for at in [0, 1, 8, 500, 999] {
            let mut bad = bytes.clone();
            bad[at] ^= 1;
            let mut sum = Checksum::new();
            sum.update(&bad);
            assert_ne!(sum.finish(), whole.finish(), "flipped byte {at}");
        }
        let mut shorter = Checksum::new();
        shorter.update(&bytes[..999]);
        shorter.update(&[0]);
        let mut padded = Checksum::new();
        padded.update(&bytes[..999]);
        assert_ne!(shorter.finish(), padded.finish());
    }
}
