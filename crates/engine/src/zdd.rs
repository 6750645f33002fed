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
//! - [`Zdd::count`] adds up the paths (exact at any size: `u128` while the counts fit, big
//!   integers past it);
//! - [`Zdd::solutions`] lists them;
//! - [`Zdd::samples`] draws solutions exactly uniformly, one at a time, from the path counts:
//!   one uniform number below the total picks a path, by descending from the root and going
//!   `hi` when the number is below the count of `hi`;
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
use crate::number::{BigUint, Count};

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
/// [`Zdd::count`] adds up the paths, [`Zdd::solutions`] lists them, [`Zdd::samples`] draws
/// them exactly uniformly (one uniform number below the total, then down from the root:
/// `hi` when the number is below `hi`'s count, else `lo` with the number reduced by it), and
/// [`Zdd::write_knuth`] writes the text format of Knuth's ZDDREAD programs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zdd {
    /// Nodes `2..`: `nodes[k]` is node `k + 2`.
    nodes: Vec<ZddNode>,
    root: u32,
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

    /// The number of paths to ⊤ below every node, indexed by node id (⊥ and ⊤ included):
    /// in `u128` when every count fits, else as big integers.
    fn path_counts(&self) -> PathCounts {
        let mut counts: Vec<u128> = Vec::with_capacity(self.nodes.len() + 2);
        counts.push(0);
        counts.push(1);
        for n in &self.nodes {
            // (Z1): both children are already counted.
            match counts[n.lo as usize].checked_add(counts[n.hi as usize]) {
                Some(c) => counts.push(c),
                None => return PathCounts::Big(self.big_path_counts()),
            }
        }
        PathCounts::Small(counts)
    }

    /// [`Zdd::path_counts`] in big integers.
    fn big_path_counts(&self) -> Vec<BigUint> {
        let mut counts: Vec<BigUint> = Vec::with_capacity(self.nodes.len() + 2);
        counts.push(BigUint::from(0u32));
        counts.push(BigUint::from(1u32));
        for n in &self.nodes {
            let c = &counts[n.lo as usize] + &counts[n.hi as usize];
            counts.push(c);
        }
        counts
    }

    /// The number of solutions: the paths from the root to ⊤.
    pub fn count(&self) -> Count {
        match self.path_counts() {
            PathCounts::Small(c) => Count::new(c[self.root as usize]),
            PathCounts::Big(c) => Count::from(c[self.root as usize].clone()),
        }
    }

    /// Every solution, as the options on its path (in the order the search chose them).
    /// Lazily: the iterator keeps one path.
    pub fn solutions(&self) -> ZddSolutions<'_> {
        ZddSolutions { zdd: self, stack: vec![(self.root, 0)], options: Vec::new() }
    }

    /// Solutions drawn independently and exactly uniformly at random (with replacement),
    /// reproducibly from `seed`, one at a time: the iterator never ends unless the diagram
    /// has no solution (then it yields nothing), and holds only the path counts (one number
    /// per node), whatever the number of samples taken from it.
    ///
    /// ```
    /// use dancecard_engine::{ProblemBuilder, MemoConfig, Solver};
    ///
    /// let mut b = ProblemBuilder::new();
    /// let (x, y) = (b.primary("x")?, b.primary("y")?);
    /// b.option([x, y])?;
    /// b.option([x])?;
    /// b.option([y])?;
    /// let problem = b.build();
    /// let memo = MemoConfig { zdd: true, ..MemoConfig::default() };
    /// let zdd = Solver::new(&problem).count_memo(&memo, |_, _| std::ops::ControlFlow::Continue(()))?.zdd.unwrap();
    /// for sample in zdd.samples(7).take(5) {
    ///     assert!(problem.verify(&sample).is_ok());
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn samples(&self, seed: u64) -> ZddSamples<'_> {
        let counts = self.path_counts();
        let empty = match &counts {
            PathCounts::Small(c) => c[self.root as usize] == 0,
            PathCounts::Big(c) => c[self.root as usize] == BigUint::from(0u32),
        };
        ZddSamples { zdd: self, counts, rng: SplitMix64::new(seed), empty }
    }

    /// `k` solutions drawn as [`Zdd::samples`] draws them (the first `k` of them). Empty
    /// when there is no solution.
    pub fn sample(&self, k: usize, seed: u64) -> Vec<Vec<OptionId>> {
        self.samples(seed).take(k).collect()
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

/// The number of paths below every node of a [`Zdd`].
#[derive(Clone, Debug)]
enum PathCounts {
    /// Every count fits in `u128`.
    Small(Vec<u128>),
    /// Some count passes `u128::MAX`.
    Big(Vec<BigUint>),
}

/// Uniform samples of the solutions of a [`Zdd`]; see [`Zdd::samples`].
#[derive(Debug)]
pub struct ZddSamples<'z> {
    zdd: &'z Zdd,
    counts: PathCounts,
    rng: SplitMix64,
    /// No solution: nothing to draw.
    empty: bool,
}

impl Iterator for ZddSamples<'_> {
    type Item = Vec<OptionId>;

    fn next(&mut self) -> Option<Vec<OptionId>> {
        if self.empty {
            return None;
        }
        let zdd = self.zdd;
        let mut id = zdd.root;
        let mut options = Vec::new();
        // Each path below `id` is numbered from 0: those of `hi` first, then those of `lo`.
        match &self.counts {
            PathCounts::Small(counts) => {
                let mut r = self.rng.below(counts[id as usize]);
                while id > ZDD_TRUE {
                    let n = zdd.node(id);
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
            }
            PathCounts::Big(counts) => {
                let mut r = self.rng.below_big(&counts[id as usize]);
                while id > ZDD_TRUE {
                    let n = zdd.node(id);
                    let hi = &counts[n.hi as usize];
                    if r < *hi {
                        options.push(n.option);
                        id = n.hi;
                    } else {
                        r -= hi;
                        id = n.lo;
                    }
                }
                debug_assert_eq!(id, ZDD_TRUE);
            }
        }
        Some(options)
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

    /// A uniform number in `0..bound` (`bound > 0`), of any size, by rejection: random bits
    /// as many as `bound` has, drawn again while they are not below it (at most twice on
    /// average).
    pub fn below_big(&mut self, bound: &BigUint) -> BigUint {
        if let Ok(small) = u128::try_from(bound) {
            return BigUint::from(self.below(small));
        }
        let bits = bound.bits();
        let words = bits.div_ceil(64) as usize;
        let top = bits % 64;
        loop {
            let mut digits: Vec<u64> = (0..words).map(|_| self.next_u64()).collect();
            if top != 0 {
                digits[words - 1] &= (1u64 << top) - 1;
            }
            let r = BigUint::from_slice(
                &digits.iter().flat_map(|&w| [w as u32, (w >> 32) as u32]).collect::<Vec<u32>>(),
            );
            if r < *bound {
                return r;
            }
        }
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
        assert_eq!(z.count(), 3);
        assert_eq!(sorted(z.solutions().collect()), [vec![0, 1], vec![0, 2], vec![3]]);
        let mut text = Vec::new();
        z.write_knuth(&mut text, |o| o.index() as u64 + 1).unwrap();
        assert_eq!(
            String::from_utf8(text).unwrap(),
            "2: (~2?0:1)\n3: (~3?2:1)\n4: (~1?0:3)\n5: (~4?4:1)\n6: (~0?0:5)\n"
        );
        let empty = Zdd::new();
        assert_eq!(empty.count(), 0);
        assert_eq!(empty.solutions().count(), 0);
        assert_eq!(empty.sample(5, 1), Vec::<Vec<OptionId>>::new());
        assert_eq!(empty.samples(1).next(), None);
        let mut unit = Zdd::new();
        unit.set_root(ZDD_TRUE);
        assert_eq!(unit.solutions().collect::<Vec<_>>(), [Vec::<OptionId>::new()]);
    }

    #[test]
    fn samples_are_solutions_and_reproducible() {
        let z = small();
        let a = z.sample(300, 7);
        assert_eq!(a, z.sample(300, 7));
        assert_ne!(a, z.sample(300, 8));
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
    fn counts_and_samples_past_u128() {
        // Option k at node k + 2 is in the solution or not, for 130 options: 2^130 paths,
        // each a subset.
        let mut z = Zdd::new();
        let mut id = ZDD_TRUE;
        for k in 0..130 {
            id = z.push(OptionId::from_u32(k), id, id);
        }
        z.set_root(id);
        let two_130 = BigUint::from(1u32) << 130u32;
        assert_eq!(z.count(), Count::from(two_130));
        // The top option (129) is in half of the samples, as is the bottom one (0).
        let mut top = 0;
        let mut bottom = 0;
        for s in z.samples(3).take(4000) {
            assert!(s.windows(2).all(|w| w[0] > w[1]), "options in path order: {s:?}");
            top += usize::from(s.first() == Some(&OptionId::from_u32(129)));
            bottom += usize::from(s.last() == Some(&OptionId::from_u32(0)));
        }
        assert!((1800..2200).contains(&top), "{top}");
        assert!((1800..2200).contains(&bottom), "{bottom}");
    }

    #[test]
    fn uniform_below_big_is_below_and_spread() {
        let mut rng = SplitMix64::new(5);
        let bound = (BigUint::from(1u32) << 200u32) + BigUint::from(12345u32);
        let half = &bound >> 1u32;
        let mut low = 0;
        for _ in 0..2000 {
            let r = rng.below_big(&bound);
            assert!(r < bound);
            low += usize::from(r < half);
        }
        assert!((900..1100).contains(&low), "{low}");
        assert_eq!(rng.below_big(&BigUint::from(1u32)), BigUint::from(0u32));
    }
}
