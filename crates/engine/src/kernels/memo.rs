//! Counting by memoisation: Algorithm X that remembers the count of every remaining problem it
//! has met, and builds a ZDD of all solutions on the way (Knuth's DLX6, after Nishino, Yasuda,
//! Minato and Nagata, "Dancing with decision diagrams", AAAI 2017).
//!
//! # The idea
//!
//! The subtree below a node of the search depends only on the *remaining problem* there: which
//! primary items are still to cover, and for each secondary item whether options may still use
//! it and with which color it was purified. Two paths that cover the same cells of a board
//! with different dominoes meet the same remaining problem, and the plain search counts its
//! solutions twice. The memoised search keeps a table from remaining problems to their
//! counts: a node whose remaining problem is in the table (a *hit*) adds the stored count and
//! backs up at once. On domino tilings of an 8 x 8 board that turns 50 million nodes into
//! 2,317.
//!
//! # The key
//!
//! A remaining problem is written as a bit string ([`KeyLayout`]): one bit per primary item
//! (set while the item is active), then, for every secondary item, a code: 0 when no active
//! option uses it (covered, or its list is empty: it no longer matters, as DLX6 notes), 1
//! when active and not purified, `1 + c` when purified with color `c`. The active options,
//! and so the remaining problem and its count, are a function of this string: an option is
//! active exactly when its primary items are all active and its secondary items are active
//! and agree with their purified colors. (Two strings may still name the same problem, for
//! example an item purified with `c` whose other options all gave it `c` anyway: that only
//! costs a hit, never a wrong count.)
//!
//! The primary bits are kept up to date as items are covered and uncovered; the secondary
//! codes, whose "no option left" depends on options hidden anywhere, are read from the
//! secondary list at each node, as DLX6 does.
//!
//! A problem with multiplicities (Algorithm M) has its own loop and key (`mcc_memo.rs`): one
//! field per primary item holding how many more times it may be covered, and the same
//! secondary codes.
//!
//! # The table
//!
//! Open addressing with linear probing over a power-of-two array of entry numbers; each
//! entry is its key's words, its count (two words of a `u128`, or the number of a big
//! integer kept beside the slab when the count passes `u128::MAX`), the number of nodes the
//! plain search would spend below it, and its ZDD node, in one flat slab of `u64`s. The table holds every key in
//! full, so a hit is never a collision. It lives within [`MemoConfig::limit_bytes`]: when an
//! entry would not fit, the table is emptied and the search goes on (the counts stay exact:
//! entries are only ever reused, never needed).
//!
//! # Invariants
//!
//! - **(M1)** At every node, the primary bits of `key` are exactly the active primary items.
//! - **(M2)** An entry's count is the exact number of solutions of its remaining problem, and
//!   its ZDD node stands for exactly those solutions: entries are written only when a level's
//!   options are all done, never after a stop.
//! - **(M3)** When the count returns, the arena is restored ((I5)).
//!
//! Counts are exact at any size ([`Count`]): `u128` while they fit, a big integer past it.

use std::ops::ControlFlow;
use std::time::Instant;

use crate::config::{Basis, Config, Stop};
use crate::ids::OptionId;
use crate::number::{BigUint, Count};
use crate::plumbing::Limits;
use crate::solver::Solver;
use crate::zdd::{Zdd, ZDD_FALSE, ZDD_TRUE};

/// The settings of a memoised count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoConfig {
    /// Most bytes the memo table (and the ZDD, when one is built) may take. Past it the table
    /// is emptied and the count goes on ([`MemoStats::clears`]); a ZDD that alone passes it
    /// is an error ([`MemoError::ZddTooLarge`]). [default: 2 GiB]
    pub limit_bytes: usize,
    /// Build the ZDD of all solutions ([`MemoOutcome::zdd`]). [default: false]
    pub zdd: bool,
}

impl Default for MemoConfig {
    fn default() -> Self {
        MemoConfig { limit_bytes: 2 << 30, zdd: false }
    }
}

impl MemoConfig {
    /// The memory limit of a count when its caller gives none: 2 GiB, or a quarter of the
    /// machine's memory if that is less (read from `/proc/meminfo`; 2 GiB where it cannot be
    /// read). The default of `dancecard solve --count --memo-limit` and of the Python
    /// package's `memo_limit=None`; [`MemoConfig::default`] keeps a fixed 2 GiB, the same on
    /// every machine.
    pub fn default_limit_bytes() -> usize {
        const DEFAULT: usize = 2 << 30;
        let total_kb = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
            line.split_whitespace().nth(1)?.parse::<usize>().ok()
        });
        match total_kb {
            Some(kb) => DEFAULT.min(kb.saturating_mul(1024) / 4),
            None => DEFAULT,
        }
    }
}

/// What a memoised count did, besides counting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoStats {
    /// Search-tree nodes, counted as DLX6 counts them: each level entered (hits included),
    /// plus one per solution leaf.
    pub nodes: u64,
    /// Nodes whose remaining problem was in the table.
    pub hits: u64,
    /// Entries written (remaining problems counted in full).
    pub entries: u64,
    /// Times the table was emptied to stay within [`MemoConfig::limit_bytes`].
    pub clears: u64,
    /// The most bytes the table and the ZDD took at once.
    pub peak_bytes: usize,
    /// The nodes the plain search (the same heuristic, no table) would have spent on the part
    /// of the tree this count covered: its nodes plus, for each hit, the nodes below it.
    /// Saturates at `u64::MAX`.
    pub plain_nodes: u64,
    /// ZDD nodes built (0 without [`MemoConfig::zdd`]).
    pub zdd_nodes: u64,
}

impl MemoStats {
    /// Counts a hit whose entry is `value`, adding to `saved` the plain-search nodes it saves
    /// (the plain search would have walked the whole subtree again); the value.
    #[inline(always)]
    pub(crate) fn hit(&mut self, saved: &mut u64, value: Value) -> Value {
        self.hits += 1;
        *saved = saved.saturating_add(value.plain - 1);
        value
    }
}

/// The result of [`Solver::count_memo`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoOutcome {
    /// The number of solutions, exact at any size. When a limit stopped the search, the
    /// count of the subtrees finished (a lower bound).
    pub count: Count,
    /// Why the search ended.
    pub stop: Stop,
    /// The memo's counters.
    pub stats: MemoStats,
    /// The ZDD of all solutions, with [`MemoConfig::zdd`], when the count is complete.
    pub zdd: Option<Zdd>,
}

/// Why a memoised count failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MemoError {
    /// The problem has a feature the memoised count (or its ZDD) does not handle (see the
    /// [capability table](crate::gate)).
    #[error(transparent)]
    Unsupported(#[from] crate::gate::Unsupported),
    /// The ZDD alone needs more than the memory limit.
    #[error("the ZDD has {nodes} nodes, more than the memory limit of {limit_bytes} bytes holds")]
    ZddTooLarge {
        /// ZDD nodes built when the limit was reached.
        nodes: u64,
        /// The limit.
        limit_bytes: usize,
    },
    /// A memoised count counts all solutions: it takes no solution limit.
    #[error("a memoised count takes no solution limit (it counts whole subtrees at once)")]
    SolutionLimit,
}

/// Where each item's part of the key lies.
#[derive(Clone, Debug)]
pub(crate) struct KeyLayout {
    /// Words per key.
    pub(crate) words: usize,
    /// Primary items `1..=n_primary` (arena numbering) hold bits `0..n_primary` (Algorithm X;
    /// Algorithm M's fields are in `fields`).
    pub(crate) n_primary: u32,
    /// Bits per secondary item code.
    pub(crate) width: u32,
    /// The first bit of the secondary codes.
    pub(crate) secondary_base: u32,
    /// Algorithm M only: per arena item `i` in `1..=n_primary`, the first bit of its field
    /// (`fields[i]`) and its width (`fields[i + 1] - fields[i]`); empty for Algorithm X.
    pub(crate) fields: Vec<u32>,
}

impl KeyLayout {
    fn new(n_primary: u32, n_secondary: u32, colors: usize) -> KeyLayout {
        let mut layout = KeyLayout {
            words: 0,
            n_primary,
            width: 0,
            secondary_base: n_primary,
            fields: Vec::new(),
        };
        layout.place_secondary(n_secondary, colors);
        layout
    }

    /// The layout of Algorithm M's keys: item `i`'s field holds a number `0..=hi[i]` (its
    /// `BOUND`, 0 when it is inactive), in as few bits as that takes.
    pub(crate) fn with_fields(hi: &[u32], n_secondary: u32, colors: usize) -> KeyLayout {
        let n_primary = hi.len() as u32;
        let mut fields = Vec::with_capacity(hi.len() + 2);
        fields.push(0);
        let mut at = 0u32;
        for &h in hi {
            fields.push(at);
            at += 32 - h.leading_zeros();
        }
        fields.push(at);
        let mut layout = KeyLayout { words: 0, n_primary, width: 0, secondary_base: at, fields };
        layout.place_secondary(n_secondary, colors);
        layout
    }

    fn place_secondary(&mut self, n_secondary: u32, colors: usize) {
        // Codes 0, 1 and 1 + c for the colors c = 1..=colors.
        let codes = colors as u64 + 2;
        self.width = if n_secondary == 0 { 0 } else { 64 - (codes - 1).leading_zeros() };
        let bits = u64::from(self.secondary_base) + u64::from(n_secondary) * u64::from(self.width);
        self.words = bits.div_ceil(64).max(1) as usize;
    }

    /// Writes `value` (which fits) into the field of primary item `i` (Algorithm M's layout).
    #[inline(always)]
    pub(crate) fn set_field(&self, key: &mut [u64], i: u32, value: u32) {
        let bit = self.fields[i as usize];
        let width = self.fields[i as usize + 1] - bit;
        let mask = (1u64 << width) - 1;
        let (w, b) = ((bit / 64) as usize, bit % 64);
        key[w] = (key[w] & !(mask << b)) | (u64::from(value) << b);
        if b + width > 64 {
            let spill = 64 - b;
            key[w + 1] = (key[w + 1] & !(mask >> spill)) | (u64::from(value) >> spill);
        }
    }
}

/// ORs `code` (of `width` bits) into `key` at bit `bit`.
#[inline(always)]
fn put_bits(key: &mut [u64], bit: u32, width: u32, code: u64) {
    let (w, b) = ((bit / 64) as usize, bit % 64);
    key[w] |= code << b;
    if b + width > 64 {
        key[w + 1] |= code >> (64 - b);
    }
}

/// What the table keeps for a remaining problem: its count, the plain search's nodes below
/// it, its ZDD node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Value {
    /// The number of solutions.
    pub(crate) count: Count,
    /// The nodes of the same search without the table (saturating).
    pub(crate) plain: u64,
    /// The ZDD of the solutions (⊥ without one).
    pub(crate) zdd: u32,
}

impl Value {
    /// A remaining problem with no solution, whose subtree is one node.
    pub(crate) const DEAD: Value = Value { count: Count::ZERO, plain: 1, zdd: ZDD_FALSE };
    /// A solution leaf.
    pub(crate) const LEAF: Value = Value { count: Count::ONE, plain: 1, zdd: ZDD_TRUE };
}

/// The ZDD word of an entry whose count is a big integer (its count words then hold the
/// number of the big integer in [`Table::bigs`]).
const BIG: u64 = 1 << 32;

/// The memo table; see the module docs.
struct Table {
    /// Entry numbers plus one (0: empty slot), a power of two long.
    slots: Vec<u32>,
    /// Entries: key words, count low and high words, plain nodes, ZDD node.
    slab: Vec<u64>,
    /// The counts past `u128::MAX`, named by their entries.
    bigs: Vec<BigUint>,
    /// Bytes the big counts take.
    big_bytes: usize,
    /// `u64`s per entry.
    stride: usize,
    /// Entries in use.
    len: usize,
    /// Most entries within the byte limit.
    max_entries: usize,
    /// The byte limit (the entries', and the big counts').
    limit_bytes: usize,
}

impl Table {
    fn new(words: usize, limit_bytes: usize) -> Table {
        let stride = words + 4;
        // An entry, and two slots for it (the table stays at most half full).
        let per_entry = stride * 8 + 2 * 4;
        let max_entries = (limit_bytes / per_entry).clamp(1, u32::MAX as usize - 1);
        Table {
            slots: vec![0; 1024],
            slab: Vec::new(),
            bigs: Vec::new(),
            big_bytes: 0,
            stride,
            len: 0,
            max_entries,
            limit_bytes,
        }
    }

    fn bytes(&self) -> usize {
        self.slots.capacity() * 4 + self.slab.capacity() * 8 + self.big_bytes
    }

    #[inline(always)]
    fn key_of(&self, entry: usize) -> &[u64] {
        let at = entry * self.stride;
        &self.slab[at..at + self.stride - 4]
    }

    /// The entry of `key`, if any.
    #[inline(always)]
    fn find(&self, hash: u64, key: &[u64]) -> Option<usize> {
        let mask = self.slots.len() - 1;
        let mut s = hash as usize & mask;
        loop {
            let e = self.slots[s];
            if e == 0 {
                return None;
            }
            let entry = e as usize - 1;
            if same_key(self.key_of(entry), key) {
                return Some(entry);
            }
            s = (s + 1) & mask;
        }
    }

    /// The value of `entry`.
    #[inline(always)]
    fn value(&self, entry: usize) -> Value {
        let at = entry * self.stride + self.stride - 4;
        let v = &self.slab[at..at + 4];
        let count = if v[3] & BIG == 0 {
            Count::new(u128::from(v[0]) | (u128::from(v[1]) << 64))
        } else {
            Count::from(self.bigs[v[0] as usize].clone())
        };
        Value { count, plain: v[2], zdd: v[3] as u32 }
    }

    /// Stores a new entry (the key is not in the table). Returns false, without storing, when
    /// the table is at its limit.
    fn insert(&mut self, hash: u64, key: &[u64], value: &Value) -> bool {
        if self.len >= self.max_entries {
            return false;
        }
        let (lo, hi, zdd) = match value.count.to_u128() {
            Some(n) => (n as u64, (n >> 64) as u64, u64::from(value.zdd)),
            None => {
                let big = value.count.to_biguint();
                let bytes = big.bits().div_ceil(8) as usize + 24;
                if self.big_bytes + bytes + self.slab.capacity() * 8 + self.slots.capacity() * 4
                    > self.limit_bytes
                {
                    return false;
                }
                self.big_bytes += bytes;
                self.bigs.push(big);
                ((self.bigs.len() - 1) as u64, 0, u64::from(value.zdd) | BIG)
            }
        };
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut s = hash as usize & mask;
        while self.slots[s] != 0 {
            s = (s + 1) & mask;
        }
        if self.slab.len() + self.stride > self.slab.capacity() {
            // Grow by half, not double, and never past the limit: the reserved memory is
            // what the limit bounds.
            let want = (self.slab.capacity() / 2).max(self.stride * 1024);
            let room = self.max_entries * self.stride - self.slab.len();
            self.slab.reserve_exact(want.min(room).max(self.stride));
        }
        self.slab.extend_from_slice(key);
        self.slab.extend_from_slice(&[lo, hi, value.plain, zdd]);
        self.len += 1;
        self.slots[s] = self.len as u32;
        true
    }

    /// Doubles the slots, placing every entry again.
    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        let mut slots = vec![0u32; n];
        let mask = n - 1;
        for entry in 0..self.len {
            let mut s = hash_key(self.key_of(entry)) as usize & mask;
            while slots[s] != 0 {
                s = (s + 1) & mask;
            }
            slots[s] = entry as u32 + 1;
        }
        self.slots = slots;
    }

    /// Forgets every entry (keeping the memory of the slab).
    fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = 0);
        self.slab.clear();
        self.bigs = Vec::new();
        self.big_bytes = 0;
        self.len = 0;
    }
}

/// Where the memoised search keeps its entries: its own [`Table`], or a table shared by
/// threads ([`SharedTable`]).
pub(crate) trait Store {
    /// The value of `key`, if it is in the store.
    fn find(&mut self, hash: u64, key: &[u64]) -> Option<Value>;
    /// Stores `key`'s value; when full, makes room by emptying (all or part of) the store.
    fn insert(&mut self, hash: u64, key: &[u64], value: &Value);
    /// Bytes taken.
    fn bytes(&self) -> usize;
    /// Times (part of) the store was emptied.
    fn clears(&self) -> u64;
}

/// A [`Table`] of one search, with its count of clears.
pub(crate) struct Local {
    table: Table,
    clears: u64,
}

impl Local {
    /// An empty table for keys of `words` words within `limit_bytes`.
    pub(crate) fn new(words: usize, limit_bytes: usize) -> Local {
        Local { table: Table::new(words, limit_bytes), clears: 0 }
    }
}

impl Store for Local {
    #[inline(always)]
    fn find(&mut self, hash: u64, key: &[u64]) -> Option<Value> {
        self.table.find(hash, key).map(|e| self.table.value(e))
    }

    fn insert(&mut self, hash: u64, key: &[u64], value: &Value) {
        if !self.table.insert(hash, key, value) {
            self.table.clear();
            self.clears += 1;
            let _ = self.table.insert(hash, key, value);
        }
    }

    fn bytes(&self) -> usize {
        self.table.bytes()
    }

    fn clears(&self) -> u64 {
        self.clears
    }
}

/// A table shared by the threads of a memoised count: shards, each a [`Table`] behind a lock,
/// chosen by the high bits of the hash (the table's slots use the low bits). Each shard holds
/// its part of the byte limit and empties itself alone when full.
pub(crate) struct SharedTable {
    shards: Vec<std::sync::Mutex<(Table, u64)>>,
}

impl SharedTable {
    /// Shards for a count of keys of `words` words within `limit_bytes`.
    #[cfg(feature = "parallel")]
    pub(crate) fn new(words: usize, limit_bytes: usize, shards: usize) -> SharedTable {
        let shards = shards.next_power_of_two();
        let each = (limit_bytes / shards).max(1);
        SharedTable {
            shards: (0..shards)
                .map(|_| std::sync::Mutex::new((Table::new(words, each), 0)))
                .collect(),
        }
    }

    fn shard(&self, hash: u64) -> std::sync::MutexGuard<'_, (Table, u64)> {
        let k = (hash >> 40) as usize & (self.shards.len() - 1);
        self.shards[k].lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Store for &SharedTable {
    fn find(&mut self, hash: u64, key: &[u64]) -> Option<Value> {
        let shard = self.shard(hash);
        shard.0.find(hash, key).map(|e| shard.0.value(e))
    }

    fn insert(&mut self, hash: u64, key: &[u64], value: &Value) {
        let mut shard = self.shard(hash);
        // Another thread may have stored the same key meanwhile: keep one entry.
        if shard.0.find(hash, key).is_some() {
            return;
        }
        if !shard.0.insert(hash, key, value) {
            shard.0.clear();
            shard.1 += 1;
            let _ = shard.0.insert(hash, key, value);
        }
    }

    fn bytes(&self) -> usize {
        self.shards.iter().map(|s| s.lock().map_or(0, |s| s.0.bytes())).sum()
    }

    fn clears(&self) -> u64 {
        self.shards.iter().map(|s| s.lock().map_or(0, |s| s.1)).sum()
    }
}

/// Whether two keys of the same length are equal: the words' differences or-ed together,
/// without the call to `memcmp` that slice equality makes (20% of the time of a memoised
/// count on one-word keys).
#[inline(always)]
fn same_key(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).fold(0, |d, (x, y)| d | (x ^ y)) == 0
}

/// A hash of a key's words (a multiply-xorshift mix of each word, then a final avalanche).
#[inline(always)]
pub(crate) fn hash_key(key: &[u64]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = 0x243f_6a88_85a3_08d3u64;
    for &w in key {
        h = (h ^ w).wrapping_mul(K);
        h ^= h >> 29;
    }
    h = (h ^ (h >> 32)).wrapping_mul(0xd6e8_feb8_6659_fd93);
    h ^ (h >> 32)
}

/// Where the memoised search's loop is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Entering a level: look its state up, or choose an item.
    Enter,
    /// Trying the level's next option, or finishing the level.
    Advance,
    /// Backing up with the value of the node just left.
    Return,
}

/// One level of the memoised search.
#[derive(Clone, Debug, Default)]
pub(crate) struct Frame {
    /// The item branched on.
    pub(crate) item: u32,
    /// Solutions of the options finished so far.
    pub(crate) count: Count,
    /// Plain-search nodes of this node and of the options finished so far.
    pub(crate) plain: u64,
    /// The ZDD of the solutions of the options finished so far.
    pub(crate) zdd: u32,
    /// The key's hash.
    pub(crate) hash: u64,
    /// Algorithm M: whether the level's state is stored when it is done (a level that
    /// continues an item whose options are partly tried is not: its state is not a key).
    pub(crate) store: bool,
    /// Algorithm M with a ZDD: where the level's finished moves start in the list of moves
    /// waiting for their ZDD node (the null move's subtree comes last, and its solutions go
    /// at the bottom of the level's chain).
    pub(crate) pending: usize,
    /// Algorithm M: the level covers its item, so every option move leads to a state that
    /// is looked up, and (without secondary items, whose codes depend on the options left)
    /// its key is known before the move is made: the look-up comes first, and a hit saves
    /// the move (`mcc_memo.rs`).
    pub(crate) ahead: bool,
}

impl Frame {
    /// The value of the finished level.
    pub(crate) fn value(&self) -> Value {
        Value { count: self.count.clone(), plain: self.plain, zdd: self.zdd }
    }

    /// Adds the value of one of the level's subtrees: its count and plain nodes.
    #[inline(always)]
    pub(crate) fn add(&mut self, child: &Value) {
        self.count += &child.count;
        self.plain = self.plain.saturating_add(child.plain);
    }
}

/// The count of the subtrees finished when a search stops: the levels' counts so far.
pub(crate) fn partial(frames: &[Frame]) -> Count {
    frames.iter().map(|f| &f.count).sum()
}

/// The limits of a memoised search: the node limit at every node, the cancel flag, the
/// deadline and the progress callback every [`Config::CHECK_INTERVAL`] nodes.
pub(crate) struct Watch<'a> {
    limits: Limits<'a>,
    next_check: u64,
}

impl<'a> Watch<'a> {
    /// The limits of `config`, its cancel flag being `cancel` (held apart by the solver).
    pub(crate) fn new(
        config: &Config,
        cancel: Option<&'a std::sync::atomic::AtomicBool>,
    ) -> Watch<'a> {
        Watch { limits: Limits::with_cancel(config, cancel), next_check: Config::CHECK_INTERVAL }
    }

    /// Whether the node limit forbids entering one more node, when `nodes` were entered.
    #[inline(always)]
    pub(crate) fn full(&self, nodes: u64) -> bool {
        nodes >= self.limits.max_nodes
    }

    /// Enters a node: counts it in `nodes`, and says whether the periodic look
    /// ([`Solver::memo_look`]) is due; the node limit's stop when it forbids the node.
    #[inline(always)]
    pub(crate) fn enter(&mut self, nodes: &mut u64) -> Result<bool, Stop> {
        if self.full(*nodes) {
            return Err(Stop::NodeLimit);
        }
        *nodes += 1;
        if *nodes < self.next_check {
            return Ok(false);
        }
        self.next_check = *nodes + Config::CHECK_INTERVAL;
        Ok(true)
    }
}

/// The work counters of a memoised search, kept in locals by its loop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Work {
    /// Nodes entered.
    pub(crate) nodes: u64,
    /// Plain-search nodes the hits saved.
    pub(crate) saved: u64,
    /// Updates of the links.
    pub(crate) updates: u64,
}

impl Solver {
    /// The periodic look of a memoised search at `level`: the counters brought up to date,
    /// then the cancel flag, the deadline and `progress`; the stop, if one of them says so.
    #[cold]
    #[allow(clippy::too_many_arguments, reason = "the locals of two search loops, at a cold call")]
    pub(crate) fn memo_look<S: Store>(
        &mut self,
        watch: &Watch,
        level: usize,
        work: Work,
        stats: &mut MemoStats,
        table: &S,
        zdd: Option<&Zdd>,
        progress: &mut dyn FnMut(&Solver, &MemoStats) -> ControlFlow<()>,
    ) -> Option<Stop> {
        self.level = level;
        self.stats.nodes = work.nodes;
        stats.nodes = work.nodes;
        stats.clears = table.clears();
        stats.plain_nodes = work.nodes.saturating_add(work.saved);
        let bytes = table.bytes() + zdd.map_or(0, Zdd::bytes);
        stats.peak_bytes = stats.peak_bytes.max(bytes);
        if let Some(stop) = watch.limits.expired() {
            return Some(stop);
        }
        progress(self, stats).is_break().then_some(Stop::Cancelled)
    }

    /// Ends a memoised search stopped by `stop` while entering `level`: levels `0..level`
    /// undone (M3), the count of the subtrees finished (`count`, a lower bound).
    pub(crate) fn memo_stopped<S: Store>(
        &mut self,
        stop: Stop,
        count: Count,
        level: usize,
        work: Work,
        mut stats: MemoStats,
        table: &S,
    ) -> MemoOutcome {
        stats.nodes = work.nodes;
        stats.plain_nodes = work.nodes.saturating_add(work.saved);
        stats.clears = table.clears();
        self.stats.nodes = work.nodes;
        self.stats.updates += work.updates;
        self.stats.solutions = count.to_u128().unwrap_or(u128::MAX);
        self.undo_levels(level);
        self.level = 0;
        MemoOutcome { count, stop, stats, zdd: None }
    }

    /// Ends a memoised search back at its `floor` with the root's `value`: levels
    /// `0..floor` (the prefix) undone (M3), the ZDD rooted.
    pub(crate) fn memo_done<S: Store>(
        &mut self,
        value: Value,
        floor: usize,
        work: Work,
        mut stats: MemoStats,
        table: &S,
        zdd: Option<Zdd>,
    ) -> MemoOutcome {
        let Value { count, plain, zdd: root } = value;
        stats.nodes = work.nodes;
        stats.clears = table.clears();
        // The plain nodes of the whole tree: what the hits saved, added up as the search
        // went, is the root's value.
        debug_assert!(
            plain == u64::MAX || plain == work.nodes.saturating_add(work.saved),
            "plain nodes {plain} vs {} + {}",
            work.nodes,
            work.saved
        );
        stats.plain_nodes = plain;
        let bytes = table.bytes() + zdd.as_ref().map_or(0, Zdd::bytes);
        stats.peak_bytes = stats.peak_bytes.max(bytes);
        self.stats.nodes = work.nodes;
        self.stats.updates += work.updates;
        self.stats.solutions = count.to_u128().unwrap_or(u128::MAX);
        self.undo_levels(floor);
        self.level = 0;
        let zdd = zdd.map(|mut z| {
            z.set_root(root);
            z
        });
        stats.zdd_nodes = zdd.as_ref().map_or(0, |z| z.node_count() as u64);
        MemoOutcome { count, stop: Stop::Exhausted, stats, zdd }
    }
}

impl Solver {
    /// Counts the solutions by memoised search, as Knuth's DLX6 does: as [`Solver::count`],
    /// but every remaining problem met is remembered with its count, so that the search meets
    /// it only once (the source, `memo.rs`, explains the key and the table). Optionally builds
    /// the [`Zdd`] of all solutions. On a problem without multiplicities the search tree, its
    /// node count and the ZDD are DLX6's on the same input (the tests check them on Knuth's
    /// instance files); with multiplicities the search is Algorithm M's, finishing each item
    /// it starts before it looks a state up (`mcc_memo.rs`). The count is exact at any size
    /// ([`Count`]).
    ///
    /// The configuration's node limit, time limit and cancel flag apply (the node limit to
    /// the memoised search's own nodes); a solution limit is refused
    /// ([`MemoError::SolutionLimit`]). A prefix ([`Solver::set_prefix`]) restricts the count
    /// to its subtree. `progress` is called about every [`Config::CHECK_INTERVAL`] nodes
    /// with the solver (for [`Solver::progress`]) and the memo's counters so far; `Break`
    /// cancels.
    ///
    /// ```
    /// use dancecard_engine::{MemoConfig, ProblemBuilder, Solver};
    ///
    /// // Domino tilings of a 2 x 3 board: cells are items, placements options.
    /// let mut b = ProblemBuilder::new();
    /// let cell: Vec<_> = (0..6).map(|k| b.primary(&format!("c{k}")).unwrap()).collect();
    /// for (a, c) in [(0, 1), (1, 2), (3, 4), (4, 5), (0, 3), (1, 4), (2, 5)] {
    ///     b.option([cell[a], cell[c]])?;
    /// }
    /// let problem = b.build();
    /// let memo = MemoConfig { zdd: true, ..MemoConfig::default() };
    /// let counted = Solver::new(&problem).count_memo(&memo, |_, _| std::ops::ControlFlow::Continue(()))?;
    /// assert_eq!(counted.count, 3);
    /// let zdd = counted.zdd.unwrap();
    /// assert_eq!(zdd.count(), 3);
    /// assert_eq!(zdd.solutions().count(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn count_memo<F>(
        &mut self,
        memo: &MemoConfig,
        mut progress: F,
    ) -> Result<MemoOutcome, MemoError>
    where
        F: FnMut(&Solver, &MemoStats) -> ControlFlow<()>,
    {
        self.check(crate::gate::Method::Memo)?;
        if memo.zdd {
            self.check(crate::gate::Method::Zdd)?;
        }
        if self.config.budget.max_solutions.is_some() {
            return Err(MemoError::SolutionLimit);
        }
        self.start();
        let started = Instant::now();
        let mut table = Local::new(self.key_layout().words, memo.limit_bytes);
        let result = self.memo_dispatch(memo, &mut table, &mut progress);
        self.stats.elapsed += started.elapsed();
        if let Ok(m) = &result {
            self.last_stop = m.stop;
        }
        result
    }

    /// The memoised search on this solver's problem: Algorithm X or C, or Algorithm M.
    fn memo_dispatch<S: Store>(
        &mut self,
        memo: &MemoConfig,
        table: &mut S,
        progress: &mut dyn FnMut(&Solver, &MemoStats) -> ControlFlow<()>,
    ) -> Result<MemoOutcome, MemoError> {
        self.basis = Basis::Tree;
        let result = match (self.mcc.is_some(), self.colored) {
            (true, true) => self.memo_run_m::<true, S>(memo, table, progress),
            (true, false) => self.memo_run_m::<false, S>(memo, table, progress),
            (false, true) => self.memo_run::<true, S>(memo, table, progress),
            (false, false) => self.memo_run::<false, S>(memo, table, progress),
        };
        self.basis = Basis::Search;
        result
    }

    /// The key's layout for this solver's arena.
    pub(crate) fn key_layout(&self) -> KeyLayout {
        let colors = self.arena.colors.iter().copied().max().unwrap_or(0).max(0) as usize;
        let n_secondary = self.arena.n_items - self.arena.n_primary;
        match &self.mcc {
            Some(m) => KeyLayout::with_fields(m.primary_hi(), n_secondary, colors),
            None => KeyLayout::new(self.arena.n_primary, n_secondary, colors),
        }
    }

    /// Writes the secondary codes of the current state into `key` (whose primary bits are
    /// already right, and whose secondary bits are 0).
    #[inline(always)]
    pub(crate) fn secondary_key(&self, layout: &KeyLayout, key: &mut [u64]) {
        let head = self.arena.n_items + 1;
        let mut s = self.arena.item(head).next;
        while s != head {
            if self.arena.len(s) > 0 {
                let purified = if self.colored { self.arena.colors[s as usize] } else { 0 };
                let code = 1 + purified.max(0) as u64;
                let bit = layout.secondary_base + (s - layout.n_primary - 1) * layout.width;
                put_bits(key, bit, layout.width, code);
            }
            s = self.arena.item(s).next;
        }
    }

    /// The look-up of the state of a node at `level`: its key (`fields`, the bit set of the
    /// active primary items kept move by move, with the secondary codes of the current state) written into the
    /// level's slot of `keys`, for its entry when the level is done; the key's hash, and the
    /// value the table has for it.
    #[inline(always)]
    pub(crate) fn look_up<S: Store>(
        &self,
        layout: &KeyLayout,
        fields: &[u64],
        keys: &mut [u64],
        level: usize,
        table: &mut S,
    ) -> (u64, Option<Value>) {
        let words = layout.words;
        let state = &mut keys[level * words..][..words];
        state.copy_from_slice(fields);
        if self.arena.n_items > self.arena.n_primary {
            self.secondary_key(layout, state);
        }
        let hash = hash_key(state);
        (hash, table.find(hash, state))
    }

    /// Checks (M1): the primary bits of `key` are exactly the active primary items.
    ///
    /// # Panics
    /// With the invariant's number, when they differ.
    #[cfg(any(test, feature = "check-invariants", debug_assertions))]
    fn check_key(&self, key: &[u64]) {
        let mut active = vec![0u64; key.len()];
        let mut i = self.arena.item(0).next;
        while i != 0 {
            toggle(&mut active, i - 1, true);
            i = self.arena.item(i).next;
        }
        let n1 = self.arena.n_primary as usize;
        for (w, (&k, &a)) in key.iter().zip(&active).enumerate() {
            let bits = n1.saturating_sub(w * 64).min(64);
            let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
            assert_eq!(k & mask, a & mask, "(M1) the key's primary bits, word {w}");
        }
    }

    /// Clears (when `set` is false) or sets the primary bits of the items of `x`'s option
    /// other than `x`'s own, as `cover_others(x)` covers them and `uncover_others(x)` brings
    /// them back (M1).
    #[inline(always)]
    fn toggle_others(&self, x: u32, key: &mut [u64], set: bool) {
        let n1 = self.arena.n_primary;
        let mut p = x + 1;
        while p != x {
            let node = self.arena.node(p);
            if node.top <= 0 {
                p = node.up;
                continue;
            }
            let item = node.top as u32;
            if item <= n1 {
                toggle(key, item - 1, set);
            }
            p += 1;
        }
    }

    /// The number of words of this problem's keys.
    #[cfg(feature = "parallel")]
    pub(crate) fn key_words(&self) -> usize {
        self.key_layout().words
    }

    /// The memoised count of the current prefix's subtree, with the entries in `store`
    /// (shared with other threads; no ZDD): see [`Solver::count_memo`].
    #[cfg(feature = "parallel")]
    pub(crate) fn count_memo_in(
        &mut self,
        store: &SharedTable,
        progress: &mut dyn FnMut(&Solver, &MemoStats) -> ControlFlow<()>,
    ) -> Result<MemoOutcome, MemoError> {
        if self.config.budget.max_solutions.is_some() {
            return Err(MemoError::SolutionLimit);
        }
        self.start();
        let started = Instant::now();
        let memo = MemoConfig { limit_bytes: usize::MAX, zdd: false };
        let mut store = store;
        let result = self.memo_dispatch(&memo, &mut store, progress);
        self.stats.elapsed += started.elapsed();
        result
    }

    /// The memoised search (Algorithm X or C), with the entries in `table`; see
    /// [`Solver::count_memo`].
    #[inline(never)]
    fn memo_run<const COLORED: bool, S: Store>(
        &mut self,
        memo: &MemoConfig,
        table: &mut S,
        progress: &mut dyn FnMut(&Solver, &MemoStats) -> ControlFlow<()>,
    ) -> Result<MemoOutcome, MemoError> {
        let layout = self.key_layout();
        let words = layout.words;
        let mut zdd = memo.zdd.then(Zdd::new);
        let stats = MemoStats::default();
        let cancel = self.config.budget.cancel.clone();
        let mut watch = Watch::new(&self.config, cancel.as_deref());
        let mut updates = 0u64;

        // The prefix, then the key of the state it reaches.
        let floor = match self.apply_prefix() {
            Err(_) => {
                self.undo_levels(self.level);
                self.level = 0;
                return Ok(MemoOutcome::empty(stats, zdd.map(|_| Zdd::new())));
            }
            Ok(solved) => {
                if solved || self.arena.item(0).next == 0 {
                    // The prefix (or the empty set) is the one solution of this subtree.
                    let levels = self.level;
                    self.undo_levels(levels);
                    self.level = 0;
                    return Ok(MemoOutcome::leaf(stats, zdd));
                }
                self.level
            }
        };
        let mut key = vec![0u64; words];
        let mut i = self.arena.item(0).next;
        while i != 0 {
            toggle(&mut key, i - 1, true);
            i = self.arena.item(i).next;
        }
        // `keys[l * words..]`: the key of level `l`'s state, for its entry when it is done.
        let depth = self.choice.len();
        let mut keys = vec![0u64; depth * words];
        let mut frames = vec![Frame::default(); depth];
        let mut level = floor;
        let mut nodes = 0u64;
        // Plain-search nodes the hits so far have saved.
        let mut saved = 0u64;

        let mut stats = stats;
        macro_rules! finish {
            ($stop:expr) => {{
                // Levels `floor..level` have their item covered and an option applied.
                let count = partial(&frames[floor..level]);
                let work = Work { nodes, saved, updates };
                return Ok(self.memo_stopped($stop, count, level, work, stats, table));
            }};
        }

        // The value of the subtree just finished or looked up.
        let mut child = Value::DEAD;
        let mut step = Step::Enter;
        loop {
            match step {
                Step::Enter => {
                    // Entering `level`: a node of the search tree.
                    let stop = match watch.enter(&mut nodes) {
                        Ok(false) => None,
                        Ok(true) => {
                            let (work, z) = (Work { nodes, saved, updates }, zdd.as_ref());
                            self.memo_look(&watch, level, work, &mut stats, table, z, progress)
                        }
                        Err(stop) => Some(stop),
                    };
                    if let Some(stop) = stop {
                        finish!(stop);
                    }
                    #[cfg(any(test, feature = "check-invariants", debug_assertions))]
                    if crate::checks::every_node() {
                        self.arena.check_invariants();
                        self.check_key(&key);
                    }
                    let (hash, found) = self.look_up(&layout, &key, &mut keys, level, table);
                    if let Some(value) = found {
                        child = stats.hit(&mut saved, value);
                        step = Step::Return;
                        continue;
                    }
                    // X3, X4: choose an item and cover it.
                    let i = self.choose();
                    updates += self.arena.cover::<COLORED>(i);
                    toggle(&mut key, i - 1, false);
                    let f = &mut frames[level];
                    f.item = i;
                    f.count = Count::ZERO;
                    f.plain = 1;
                    f.zdd = ZDD_FALSE;
                    f.hash = hash;
                    self.choice[level] = self.arena.node(i).down;
                    step = Step::Advance;
                }
                Step::Advance => {
                    // X5: try the level's next option, or X7: finish the level.
                    let x = self.choice[level];
                    let item = frames[level].item;
                    if x == item {
                        // Every option is done: restore the level and remember its value (M2).
                        self.arena.uncover::<COLORED>(item);
                        toggle(&mut key, item - 1, true);
                        let at = level * words;
                        let state = &keys[at..at + words];
                        child = frames[level].value();
                        table.insert(frames[level].hash, state, &child);
                        stats.entries += 1;
                        step = Step::Return;
                        continue;
                    }
                    updates += self.arena.cover_others::<COLORED>(x);
                    self.toggle_others(x, &mut key, false);
                    if self.arena.item(0).next != 0 {
                        level += 1;
                        step = Step::Enter;
                        continue;
                    }
                    // X2: every primary item is covered: a solution (a node too).
                    nodes += 1;
                    self.arena.uncover_others::<COLORED>(x);
                    self.toggle_others(x, &mut key, true);
                    self.add_child(&mut frames[level], x, &Value::LEAF, zdd.as_mut());
                    self.choice[level] = self.arena.node(x).down;
                }
                Step::Return => {
                    // X8: back up with `child`, the value of the node just left.
                    if level == floor {
                        let work = Work { nodes, saved, updates };
                        return Ok(self.memo_done(child, floor, work, stats, table, zdd));
                    }
                    level -= 1;
                    let x = self.choice[level];
                    // X6: uncover the option's other items, take the next option.
                    self.arena.uncover_others::<COLORED>(x);
                    self.toggle_others(x, &mut key, true);
                    self.add_child(&mut frames[level], x, &child, zdd.as_mut());
                    if zdd.as_ref().is_some_and(|z| z.bytes() > memo.limit_bytes) {
                        self.unwind::<COLORED>(level, &frames);
                        let nodes = zdd.as_ref().map_or(0, |z| z.node_count() as u64);
                        return Err(MemoError::ZddTooLarge {
                            nodes,
                            limit_bytes: memo.limit_bytes,
                        });
                    }
                    self.choice[level] = self.arena.node(x).down;
                    step = Step::Advance;
                }
            }
        }
    }

    /// After an error at `level` (whose option is taken back but whose item is still
    /// covered): restores the arena (M3).
    fn unwind<const COLORED: bool>(&mut self, level: usize, frames: &[Frame]) {
        self.arena.uncover::<COLORED>(frames[level].item);
        self.undo_levels(level);
        self.level = 0;
    }

    /// Adds the value of the subtree under option node `x` to `frame` (M2): its count, its
    /// plain nodes, and a ZDD node for `x` when it has solutions.
    #[inline(always)]
    fn add_child(&self, frame: &mut Frame, x: u32, child: &Value, zdd: Option<&mut Zdd>) {
        frame.add(child);
        if !child.count.is_zero() {
            if let Some(z) = zdd {
                let option: OptionId = self.arena.option_of(x);
                frame.zdd = z.push(option, frame.zdd, child.zdd);
            }
        }
    }
}

impl MemoOutcome {
    /// A subtree with no solution (a prefix that names none), searched in no node.
    pub(crate) fn empty(stats: MemoStats, zdd: Option<Zdd>) -> MemoOutcome {
        MemoOutcome { count: Count::ZERO, stop: Stop::Exhausted, stats, zdd }
    }

    /// A subtree that is one solution (the prefix's, or the empty set): one node.
    pub(crate) fn leaf(mut stats: MemoStats, zdd: Option<Zdd>) -> MemoOutcome {
        stats.nodes = 1;
        stats.plain_nodes = 1;
        let zdd = zdd.map(|mut z| {
            z.set_root(ZDD_TRUE);
            z
        });
        MemoOutcome { count: Count::ONE, stop: Stop::Exhausted, stats, zdd }
    }
}

/// Sets (or clears) bit `bit` of `key`.
#[inline(always)]
fn toggle(key: &mut [u64], bit: u32, set: bool) {
    let (w, b) = ((bit / 64) as usize, bit % 64);
    if set {
        key[w] |= 1 << b;
    } else {
        key[w] &= !(1 << b);
    }
}
