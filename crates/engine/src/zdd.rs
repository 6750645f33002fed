//! A zero-suppressed decision diagram (ZDD) of all the solutions of a problem, as the
//! memoised count builds it ([`Solver::count_memo`](crate::Solver::count_memo) with
//! [`MemoConfig::zdd`](crate::MemoConfig::zdd)).
//!
//! # What it is
//!
//! Each node is `(option, lo, hi)`: the solutions it stands for are those of `lo` (which do
//! not take `option` at this point) and those of `hi` with `option` added. Node 0 is the empty
//! family ⊥ and node 1 the family of the empty solution ⊤. The memoised search builds one
//! node per (search-tree node, option tried) whose subtree has solutions, and shares the
//! nodes of every remaining problem met twice, exactly as Knuth's DLX6 does after Nishino,
//! Yasuda, Minato and Nagata ("Dancing with decision diagrams", AAAI 2017).
//!
//! As in DLX6 the diagram is not *ordered* (the options on a path come in the order the
//! search chose them, which differs from path to path) and not reduced, but every path from
//! the root to ⊤ is one solution, and every solution is exactly one path. So:
//!
//! - [`Zdd::count`] adds up the paths (`u128`, checked);
//! - [`Zdd::solutions`] lists them;
//! - [`Zdd::sample`] draws solutions exactly uniformly, from the path counts: one uniform
//!   number below the total picks a path, by descending from the root and going `hi` when the
//!   number is below the count of `hi`;
//! - [`Zdd::write_knuth`] writes it in the text format of Knuth's ZDDREAD programs, as DLX6
//!   writes it, so that his BDD tools read it.
//!
//! # Invariants
//!
//! - **(Z1)** Children come before their parents: `lo < id` and `hi < id` for every node
//!   `id >= 2`. So one pass in increasing order computes path counts bottom-up.
//! - **(Z2)** No node has `hi == ⊥` (a zero-suppressed diagram never needs one: such a node
//!   stands for its `lo`), so every node has at least one path to ⊤.

use std::io::{self, Write};

use crate::ids::OptionId;

/// The empty family (no solution).
pub const ZDD_FALSE: u32 = 0;
/// The family holding the empty solution.
pub const ZDD_TRUE: u32 = 1;

/// A node of a [`Zdd`]: its option, and its two children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZddNode {
    /// The option this node decides on.
    pub option: OptionId,
    /// The solutions without the option here.
    pub lo: u32,
    /// The solutions that add the option here.
    pub hi: u32,
}

/// A zero-suppressed decision diagram (ZDD) of all the solutions of a problem, as the
/// memoised count builds it ([`Solver::count_memo`](crate::Solver::count_memo) with
/// [`MemoConfig::zdd`](crate::MemoConfig::zdd)).
///
/// Each node is `(option, lo, hi)`: the solutions it stands for are those of `lo` and those
/// of `hi` with `option` added; node [`ZDD_FALSE`] (0) is the empty family and
/// [`ZDD_TRUE`] (1) the family of the empty solution. As in Knuth's DLX6 the diagram is not
/// ordered (the options on a path come in the order the search chose them) and not reduced,
/// but every path from the root to ⊤ is one solution and every solution exactly one path:
/// [`Zdd::count`] adds up the paths, [`Zdd::solutions`] lists them, [`Zdd::sample`] draws
/// them exactly uniformly (one uniform number below the total, then down from the root:
/// `hi` when the number is below `hi`'s count, else `lo` with the number reduced by it), and
/// [`Zdd::write_knuth`] writes the text format of Knuth's ZDDREAD programs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zdd {
    /// Nodes `2..`: `nodes[k]` is node `k + 2`.
    nodes: Vec<ZddNode>,
    root: u32,
}

/// Why a ZDD could not be counted or sampled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ZddError {
    /// The number of paths passes `u128::MAX`.
    #[error("the number of solutions passes 2^128 - 1")]
    Overflow,
}

impl Zdd {
    /// The diagram with no node yet and root ⊥ (for the builder).
    pub(crate) fn new() -> Zdd {
        Zdd { nodes: Vec::new(), root: ZDD_FALSE }
    }

    /// Adds a node (`hi` must not be ⊥: (Z2)) and returns its id.
    pub(crate) fn push(&mut self, option: OptionId, lo: u32, hi: u32) -> u32 {
        debug_assert!(hi != ZDD_FALSE, "(Z2) a node with hi = ⊥");
        let id = self.nodes.len() as u32 + 2;
        debug_assert!(lo < id && hi < id, "(Z1) children come first");
        self.nodes.push(ZddNode { option, lo, hi });
        id
    }

    /// Sets the root.
    pub(crate) fn set_root(&mut self, root: u32) {
        self.root = root;
    }

    /// The number of nodes, ⊥ and ⊤ not included.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The bytes the nodes take.
    pub(crate) fn bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<ZddNode>()
    }

    /// The root (⊥ when there is no solution, ⊤ when the empty set is the only one).
    pub fn root(&self) -> u32 {
        self.root
    }

    /// Node `id >= 2`.
    ///
    /// # Panics
    /// If `id` is ⊥, ⊤ or not a node of this diagram.
    pub fn node(&self, id: u32) -> ZddNode {
        self.nodes[id as usize - 2]
    }

    /// The number of paths to ⊤ below every node: `counts[id]` for `id` in `0..node_count() +
    /// 2`.
    fn path_counts(&self) -> Result<Vec<u128>, ZddError> {
        let mut counts: Vec<u128> = Vec::with_capacity(self.nodes.len() + 2);
        counts.push(0);
        counts.push(1);
        for n in &self.nodes {
            // (Z1): both children are already counted.
            let c = counts[n.lo as usize]
                .checked_add(counts[n.hi as usize])
                .ok_or(ZddError::Overflow)?;
            counts.push(c);
        }
        Ok(counts)
    }

    /// The number of solutions: the paths from the root to ⊤.
    pub fn count(&self) -> Result<u128, ZddError> {
        Ok(self.path_counts()?[self.root as usize])
    }

    /// Every solution, as the options on its path (in the order the search chose them).
    /// Lazily: the iterator keeps one path.
    pub fn solutions(&self) -> ZddSolutions<'_> {
        ZddSolutions { zdd: self, stack: vec![(self.root, 0)], options: Vec::new() }
    }

    /// `k` solutions drawn independently and exactly uniformly at random (with replacement),
    /// reproducibly from `seed`. Empty when there is no solution.
    pub fn sample(&self, k: usize, seed: u64) -> Result<Vec<Vec<OptionId>>, ZddError> {
        let counts = self.path_counts()?;
        let total = counts[self.root as usize];
        let mut rng = SplitMix64::new(seed);
        let mut out = Vec::with_capacity(if total == 0 { 0 } else { k });
        if total == 0 {
            return Ok(out);
        }
        for _ in 0..k {
            let mut r = rng.below(total);
            let mut id = self.root;
            let mut options = Vec::new();
            // Each path below `id` is numbered from 0: those of `hi` first, then those of `lo`.
            while id > ZDD_TRUE {
                let n = self.node(id);
                let hi = counts[n.hi as usize];
                if r < hi {
                    options.push(n.option);
                    id = n.hi;
                } else {
                    r -= hi;
                    id = n.lo;
                }
            }
            debug_assert_eq!((id, r), (ZDD_TRUE, 0));
            out.push(options);
        }
        Ok(out)
    }

    /// Writes the diagram in the text format of Knuth's ZDDREAD programs, as DLX6 writes it:
    /// one line `id: (~v?lo:hi)` per node, the ids in hexadecimal, `v` the option's number
    /// given by `number` (DLX6 numbers options from 1 in input order), children first; then a
    /// dummy root `id: (~0?0:root)`.
    pub fn write_knuth<W: Write>(
        &self,
        out: &mut W,
        number: impl Fn(OptionId) -> u64,
    ) -> io::Result<()> {
        for (k, n) in self.nodes.iter().enumerate() {
            writeln!(out, "{:x}: (~{}?{:x}:{:x})", k + 2, number(n.option), n.lo, n.hi)?;
        }
        writeln!(out, "{:x}: (~0?0:{:x})", self.nodes.len() + 2, self.root)
    }
}

/// The solutions of a [`Zdd`], one path at a time; see [`Zdd::solutions`].
#[derive(Debug)]
pub struct ZddSolutions<'z> {
    zdd: &'z Zdd,
    /// The path being explored: each node with how far it is (0: `hi` next, 1: `lo` next,
    /// 2: done).
    stack: Vec<(u32, u8)>,
    /// The options taken on the path (a node's option while its `hi` side is explored).
    options: Vec<OptionId>,
}

impl Iterator for ZddSolutions<'_> {
    type Item = Vec<OptionId>;

    fn next(&mut self) -> Option<Vec<OptionId>> {
        while let Some(top) = self.stack.last_mut() {
            let (id, phase) = *top;
            match (id, phase) {
                (ZDD_FALSE, _) => {
                    let _ = self.stack.pop();
                }
                (ZDD_TRUE, _) => {
                    let _ = self.stack.pop();
                    return Some(self.options.clone());
                }
                (_, 0) => {
                    top.1 = 1;
                    let n = self.zdd.node(id);
                    self.options.push(n.option);
                    self.stack.push((n.hi, 0));
                }
                (_, 1) => {
                    top.1 = 2;
                    let _ = self.options.pop();
                    let lo = self.zdd.node(id).lo;
                    self.stack.push((lo, 0));
                }
                _ => {
                    let _ = self.stack.pop();
                }
            }
        }
        None
    }
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a small, fast generator with a 64-bit seed, for
/// reproducible sampling and estimates. The models draw their random numbers from it too, so
/// that a seed gives the same numbers everywhere.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The generator seeded with `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..bound` (`bound > 0`), by rejection: exact, not merely close.
    pub fn below(&mut self, bound: u128) -> u128 {
        debug_assert!(bound > 0);
        // The largest multiple of `bound` that fits, as a rejection threshold.
        let zone = u128::MAX - (u128::MAX - bound + 1) % bound;
        loop {
            let r = (u128::from(self.next_u64()) << 64) | u128::from(self.next_u64());
            if r <= zone {
                return r % bound;
            }
        }
    }

    /// A uniform number in `0..bound` (`bound > 0`).
    pub fn below_u32(&mut self, bound: u32) -> u32 {
        self.below(u128::from(bound)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// {a b}, {a c}, {d}: options 0..4 as a, b, c, d.
    fn small() -> Zdd {
        let o = |k: u32| OptionId::from_u32(k);
        let mut z = Zdd::new();
        let b = z.push(o(1), ZDD_FALSE, ZDD_TRUE); // {b}
        let bc = z.push(o(2), b, ZDD_TRUE); // {b} or {c}
        let a = z.push(o(0), ZDD_FALSE, bc); // a and ({b} or {c})
        let d = z.push(o(3), a, ZDD_TRUE); // the above, or {d}
        z.set_root(d);
        z
    }

    fn sorted(mut s: Vec<Vec<OptionId>>) -> Vec<Vec<usize>> {
        let mut v: Vec<Vec<usize>> = s
            .drain(..)
            .map(|p| {
                let mut p: Vec<usize> = p.iter().map(|o| o.index()).collect();
                p.sort();
                p
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn counts_lists_and_writes() {
        let z = small();
        assert_eq!(z.count(), Ok(3));
        assert_eq!(sorted(z.solutions().collect()), [vec![0, 1], vec![0, 2], vec![3]]);
        let mut text = Vec::new();
        z.write_knuth(&mut text, |o| o.index() as u64 + 1).unwrap();
        assert_eq!(
            String::from_utf8(text).unwrap(),
            "2: (~2?0:1)\n3: (~3?2:1)\n4: (~1?0:3)\n5: (~4?4:1)\n6: (~0?0:5)\n"
        );
        let empty = Zdd::new();
        assert_eq!(empty.count(), Ok(0));
        assert_eq!(empty.solutions().count(), 0);
        assert_eq!(empty.sample(5, 1), Ok(vec![]));
        let mut unit = Zdd::new();
        unit.set_root(ZDD_TRUE);
        assert_eq!(unit.solutions().collect::<Vec<_>>(), [Vec::<OptionId>::new()]);
    }

    #[test]
    fn samples_are_solutions_and_reproducible() {
        let z = small();
        let a = z.sample(300, 7).unwrap();
        assert_eq!(a, z.sample(300, 7).unwrap());
        assert_ne!(a, z.sample(300, 8).unwrap());
        let all = sorted(z.solutions().collect());
        let mut seen = [0; 3];
        for s in sorted(a) {
            seen[all.iter().position(|x| *x == s).expect("a sample is a solution")] += 1;
        }
        assert!(seen.iter().all(|&n| n > 60), "{seen:?}");
    }

    #[test]
    fn uniform_below_is_exact_for_small_bounds() {
        let mut rng = SplitMix64::new(1);
        let mut hist = [0u32; 3];
        for _ in 0..30_000 {
            hist[rng.below(3) as usize] += 1;
        }
        assert!(hist.iter().all(|&h| (9_000..11_000).contains(&h)), "{hist:?}");
        assert_eq!(rng.below(1), 0);
        assert!(rng.below(u128::MAX) < u128::MAX);
    }

    #[test]
    fn overflow_is_an_error() {
        let o = OptionId::from_u32(0);
        let mut z = Zdd::new();
        let mut id = ZDD_TRUE;
        // Each node doubles the paths: 2^129 after 129 nodes.
        for _ in 0..129 {
            id = z.push(o, id, id);
        }
        z.set_root(id);
        assert_eq!(z.count(), Err(ZddError::Overflow));
    }
}
