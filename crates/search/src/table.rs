//! A state index: an open-addressing hash table from states to dense `u32` indices.
//!
//! BFS, bidirectional BFS and A* store every state they reach. `std::collections::HashMap`
//! is banned in this workspace (its iteration order is random); this table never iterates
//! over its slots, and storing the states once, in insertion order, in a `Vec` doubles as
//! BFS's queue. A slot holds a `u32` index (`EMPTY` when free), so the table costs 4 bytes
//! per slot plus the states themselves; the load factor is kept below 1/2 for short probes.

use std::hash::{Hash, Hasher};

/// A free slot.
const EMPTY: u32 = u32::MAX;

/// The most states an index holds (indices are `u32`, and `EMPTY` is reserved).
pub(crate) const MAX_STATES: usize = (u32::MAX - 1) as usize;

/// A fast, deterministic hasher for small keys (the multiply-rotate step of Firefox's
/// FxHash, with a final avalanche so that the low bits used for slots are well mixed).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn finish(&self) -> u64 {
        // MurmurHash3's fmix64.
        let mut h = self.hash;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_u128(&mut self, i: u128) {
        self.add(i as u64);
        self.add((i >> 64) as u64);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
}

/// The hash of a key.
#[inline]
fn hash_of<K: Hash>(key: &K) -> u64 {
    let mut h = FxHasher::default();
    key.hash(&mut h);
    h.finish()
}

/// States in insertion order, each with a dense index, and a hash table to find them.
#[derive(Clone, Debug)]
pub(crate) struct StateIndex<K> {
    keys: Vec<K>,
    slots: Vec<u32>,
}

impl<K: Eq + Hash> StateIndex<K> {
    /// An empty index.
    pub(crate) fn new() -> Self {
        StateIndex { keys: Vec::new(), slots: vec![EMPTY; 16] }
    }

    /// The number of states.
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// The state with index `i`.
    #[inline]
    pub(crate) fn key(&self, i: u32) -> &K {
        &self.keys[i as usize]
    }

    /// The slot where `key` is, or the free slot where it would go.
    #[inline]
    fn probe(&self, key: &K) -> usize {
        let mask = self.slots.len() - 1;
        let mut s = hash_of(key) as usize & mask;
        loop {
            let i = self.slots[s];
            if i == EMPTY || self.keys[i as usize] == *key {
                return s;
            }
            s = (s + 1) & mask;
        }
    }

    /// The index of `key`, if stored.
    #[inline]
    pub(crate) fn get(&self, key: &K) -> Option<u32> {
        let i = self.slots[self.probe(key)];
        (i != EMPTY).then_some(i)
    }

    /// The index of `key` and `true` if it was just inserted, `false` if it was there.
    ///
    /// The caller keeps `len() < MAX_STATES` (the memory limits are far below it).
    #[inline]
    pub(crate) fn insert(&mut self, key: K) -> (u32, bool) {
        if 2 * (self.keys.len() + 1) > self.slots.len() {
            self.grow();
        }
        let s = self.probe(&key);
        let i = self.slots[s];
        if i != EMPTY {
            return (i, false);
        }
        let i = self.keys.len() as u32;
        self.slots[s] = i;
        self.keys.push(key);
        (i, true)
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        self.slots = vec![EMPTY; size];
        let mask = size - 1;
        for (i, key) in self.keys.iter().enumerate() {
            let mut s = hash_of(key) as usize & mask;
            while self.slots[s] != EMPTY {
                s = (s + 1) & mask;
            }
            self.slots[s] = i as u32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_then_find_many() {
        let mut t = StateIndex::new();
        for x in 0..10_000u64 {
            assert_eq!(t.insert(x * 7919), (x as u32, true));
        }
        for x in 0..10_000u64 {
            assert_eq!(t.insert(x * 7919), (x as u32, false));
            assert_eq!(t.get(&(x * 7919)), Some(x as u32));
            assert_eq!(*t.key(x as u32), x * 7919);
        }
        assert_eq!(t.get(&1), None);
        assert_eq!(t.len(), 10_000);
    }
}
