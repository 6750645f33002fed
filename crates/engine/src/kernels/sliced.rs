//! A third kernel for [`Solver::count`](crate::Solver::count): the bit-set search of
//! [`bits`](crate::bits) for small problems, with `LEN` kept *bit-sliced*.
//!
//! When a problem has at most 64 primary items, the active items fit in one word, and so
//! does one bit of every item's `LEN`: `plane[k]` holds bit `k` of `LEN(i)` at bit `i`. Then
//! the two costs of a node that grow with the number of items become a few word
//! operations each:
//!
//! - *Hiding an option* lowers `LEN` by one for each of its primary items at once: a
//!   subtraction of the option's item set, rippling a borrow through the planes (three
//!   operations per plane).
//! - *The minimum-remaining-values choice* keeps, from the highest plane down, the items
//!   whose bit is 0 if there are any: what is left after the last plane are the items of
//!   least `LEN`, and the first of them is the lowest bit. With `p` planes that is `p` steps,
//!   whatever the number of active items.
//!
//! And since the options of one problem are few (at most [`MAX_OPTIONS`]), the sets are
//! arrays of 1 to 8 words whose size is a constant of the compiled search, and the options
//! an option conflicts with (those sharing one of its items) are one precomputed set.
//!
//! The tree walked is Algorithm X's, as on the links and the other bit-set kernels: the same
//! item chosen at each node (the first active primary item of least `LEN`), the options in
//! input order, the same node and update counts.
//!
//! # Invariants
//!
//! At every level `l` of a search, for the state after covering its item `c`:
//!
//! - **(S1)** `live` holds exactly the options that share no item with the options chosen
//!   at levels `< l` and do not hold the items chosen at levels `<= l`; `cand` holds the
//!   untried options of `c` among those that were live when `c` was chosen.
//! - **(S2)** `active` holds exactly the primary items not covered at levels `<= l`.
//! - **(S3)** For every primary item `i`, the planes hold at bit `i` the number of options
//!   of `live` that hold `i` (0 for the items not active).
//!
//! [`Search::check_level`] checks them against a recount; the crate's tests (and the
//! `check-invariants` feature) call it at every node.

use std::time::Instant;

use crate::arena::Arena;
use crate::config::{Config, Heuristic, Stop, Subtree};
use crate::plumbing::{
    counted, estimate, for_each, rest_of, take_first, CountJob, Counted, Limits, Tick,
};
use crate::stats::Stats;

/// The largest number of options this kernel takes (8 words per set).
pub(crate) const MAX_OPTIONS: usize = 512;

/// The largest number of primary items this kernel takes (one word).
pub(crate) const MAX_PRIMARY: usize = 64;

/// Planes enough for any `LEN` up to [`MAX_OPTIONS`].
const MAX_PLANES: usize = 10;

/// The planes of searches on problems whose `LEN`s are all below 16 (most small problems):
/// a constant of the compiled search, so that the planes stay in registers.
const FEW_PLANES: usize = 4;

/// The problem as bit sets of at most `W` words (immutable), for [`Sliced::count`].
#[derive(Clone, Debug)]
pub(crate) struct Sliced {
    /// Words per option set (1, 2, 4 or 8).
    words: usize,
    /// Number of planes: the bits of the largest `LEN` at the root.
    planes: usize,
    /// `opts[i * words..][..words]`: the options holding primary item `i` (bit `i` of the
    /// active set, arena index `i + 1`).
    opts: Vec<u64>,
    /// `conflict[o * words..][..words]`: the options sharing an item (primary or secondary)
    /// with option `o`, `o` included.
    conflict: Vec<u64>,
    /// `primary[o]`: the primary items of option `o`, as bits.
    primary: Vec<u64>,
    /// `weight[o]`: the updates of hiding option `o` (its size minus one).
    weight: Vec<u32>,
    /// The planes of `LEN` at the root.
    root_planes: [u64; MAX_PLANES],
    /// The primary items, as bits.
    all_items: u64,
    /// The options, as a set.
    all_options: Vec<u64>,
}

impl Sliced {
    /// Whether this kernel takes the arena's problem: no colors, between 1 and
    /// [`MAX_PRIMARY`] primary items and at most [`MAX_OPTIONS`] options.
    pub(crate) fn takes(arena: &Arena) -> bool {
        let first_spacer = arena.n_items as usize + 1;
        let options = arena.nodes[first_spacer + 1..].iter().filter(|x| x.top <= 0).count();
        arena.colors.is_empty()
            && (1..=MAX_PRIMARY).contains(&(arena.n_primary as usize))
            && options <= MAX_OPTIONS
    }

    /// The bit sets of an arena's problem, or `None` if [`Sliced::takes`] refuses it.
    pub(crate) fn new(arena: &Arena) -> Option<Sliced> {
        if !Sliced::takes(arena) {
            return None;
        }
        let n = arena.n_items as usize;
        let n1 = arena.n_primary as usize;
        // The options: the runs of item indices between spacers, after the headers and the
        // first spacer (I3).
        let mut options: Vec<Vec<usize>> = Vec::new();
        let mut current = Vec::new();
        for node in &arena.nodes[n + 2..] {
            if node.top <= 0 {
                options.push(std::mem::take(&mut current));
            } else {
                current.push(node.top as usize);
            }
        }
        let words = options.len().div_ceil(64).max(1).next_power_of_two();
        // The options of every item, primary or secondary (arena indices 1..=n).
        let mut holding = vec![0u64; (n + 1) * words];
        let mut primary = Vec::with_capacity(options.len());
        let mut weight = Vec::with_capacity(options.len());
        let mut len = vec![0u32; n1];
        for (o, items) in options.iter().enumerate() {
            let mut bits = 0u64;
            for &i in items {
                holding[i * words + o / 64] |= 1 << (o % 64);
                if i <= n1 {
                    bits |= 1 << (i - 1);
                    len[i - 1] += 1;
                }
            }
            primary.push(bits);
            weight.push(items.len().saturating_sub(1) as u32);
        }
        let mut conflict = vec![0u64; options.len() * words];
        for (o, items) in options.iter().enumerate() {
            let set = &mut conflict[o * words..][..words];
            for &i in items {
                for (s, &h) in set.iter_mut().zip(&holding[i * words..][..words]) {
                    *s |= h;
                }
            }
        }
        let opts = holding[words..(n1 + 1) * words].to_vec();
        let largest = len.iter().copied().max().unwrap_or(0);
        let planes = (u32::BITS - largest.leading_zeros()).max(1) as usize;
        let mut root_planes = [0u64; MAX_PLANES];
        for (i, &l) in len.iter().enumerate() {
            for (k, plane) in root_planes.iter_mut().enumerate().take(planes) {
                *plane |= u64::from(l >> k & 1) << i;
            }
        }
        let mut all_options = vec![0u64; words];
        for o in 0..options.len() {
            all_options[o / 64] |= 1 << (o % 64);
        }
        let all_items = if n1 == 64 { u64::MAX } else { (1u64 << n1) - 1 };
        Some(Sliced {
            words,
            planes,
            opts,
            conflict,
            primary,
            weight,
            root_planes,
            all_items,
            all_options,
        })
    }

    /// Counts the solutions under `config`'s limits, walking Algorithm X's tree; returns the
    /// outcome and the counters, equal to those of the dancing links on the same problem.
    /// `prefix` and `tick` are as for [`Bits::count`](crate::bits::Bits::count).
    pub(crate) fn count(&self, job: CountJob<'_>) -> Counted {
        let CountJob { config, prefix, tick, rest } = job;
        let started = Instant::now();
        macro_rules! run {
            ($w:literal) => {
                if self.planes <= FEW_PLANES {
                    let mut search = Search::<$w, FEW_PLANES>::new(self, prefix);
                    let stop = search.run_best(config, started, tick);
                    (stop, search.counters, search.rest(rest.is_some()))
                } else {
                    let mut search = Search::<$w, MAX_PLANES>::new(self, prefix);
                    let stop = search.run_best(config, started, tick);
                    (stop, search.counters, search.rest(rest.is_some()))
                }
            };
        }
        let (stop, counters, left) = match self.words {
            1 => run!(1),
            2 => run!(2),
            4 => run!(4),
            _ => run!(8),
        };
        if let (Some(rest), Some(left)) = (rest, left) {
            *rest = left;
        }
        counted(stop, counters.nodes, counters.updates, counters.solutions, started)
    }
}

/// The counters of a search.
#[derive(Clone, Copy, Debug, Default)]
struct Counters {
    nodes: u64,
    updates: u64,
    solutions: u128,
}

/// The state of one level, after covering its item.
#[derive(Clone, Copy, Debug)]
struct Level<const W: usize, const P: usize> {
    /// (S1).
    live: [u64; W],
    /// (S1): the untried options of the item chosen.
    cand: [u64; W],
    /// (S2).
    active: u64,
    /// (S3).
    planes: [u64; P],
    /// The item chosen (its bit; read by the invariant checks) and its `LEN` when chosen
    /// (for progress).
    #[cfg_attr(not(any(test, feature = "check-invariants", debug_assertions)), allow(dead_code))]
    chosen: u32,
    total: u32,
}

/// The mutable state of one count.
struct Search<'s, const W: usize, const P: usize> {
    sliced: &'s Sliced,
    /// The choice indices of the subtree searched (empty: the whole tree).
    prefix: &'s [u32],
    levels: Vec<Level<W, P>>,
    /// The counters, written when the search stops.
    counters: Counters,
    /// The level the search was entering when a limit stopped it early.
    stopped_at: Option<usize>,
}

/// Lowers by one the `LEN` of each item of `items` (none of them 0).
#[inline(always)]
fn lower<const P: usize>(planes: &mut [u64; P], items: u64) {
    let mut borrow = items;
    for plane in planes.iter_mut() {
        let bit = *plane;
        *plane = bit ^ borrow;
        borrow &= !bit;
    }
}

/// The `LEN` of item `i` in the planes.
#[cfg(any(test, feature = "check-invariants", debug_assertions))]
fn len_of<const P: usize>(planes: &[u64; P], i: u32) -> u32 {
    let mut len = 0;
    for (k, plane) in planes.iter().enumerate() {
        len |= ((plane >> i) & 1) as u32 * (1 << k);
    }
    len
}

impl<'s, const W: usize, const P: usize> Search<'s, W, P> {
    fn new(sliced: &'s Sliced, prefix: &'s [u32]) -> Search<'s, W, P> {
        let empty =
            Level { live: [0; W], cand: [0; W], active: 0, planes: [0; P], chosen: 0, total: 0 };
        let levels = vec![empty; sliced.all_items.count_ones() as usize + 1];
        Search { sliced, prefix, levels, counters: Counters::default(), stopped_at: None }
    }

    /// The subtrees not searched, when `wanted` and a limit stopped the search early.
    fn rest(&self, wanted: bool) -> Option<Vec<Subtree>> {
        let level = self.stopped_at.filter(|_| wanted)?;
        let levels = self.levels[..level].iter().map(|l| {
            let untried: u32 = l.cand.iter().map(|w| w.count_ones()).sum();
            (l.total, untried)
        });
        Some(rest_of(self.prefix, levels))
    }

    /// The set of `W` words at `set[k * W..]`.
    #[inline(always)]
    fn set(set: &[u64], k: usize) -> [u64; W] {
        let mut out = [0; W];
        out.copy_from_slice(&set[k * W..][..W]);
        out
    }

    /// X3: the item to branch on (its bit) among `active`, non-empty.
    #[inline(always)]
    fn choose(&self, active: u64, planes: &[u64; P], heuristic: Heuristic) -> u32 {
        if heuristic == Heuristic::Leftmost {
            return active.trailing_zeros();
        }
        // From the highest plane down, keep the items with a 0 there if there are any: the
        // items left have the least `LEN`.
        let mut least = active;
        for plane in planes.iter().rev() {
            let zeros = least & !plane;
            least = if zeros != 0 { zeros } else { least };
        }
        least.trailing_zeros()
    }

    /// Lowers the planes for each option of `set` (hides them); returns the updates made.
    #[inline(always)]
    fn hide(&self, set: &[u64; W], planes: &mut [u64; P]) -> u64 {
        let sliced = self.sliced;
        let mut updates = 0u64;
        for_each(set, |o| {
            updates += u64::from(sliced.weight[o]);
            lower(planes, sliced.primary[o]);
        });
        updates
    }

    /// The estimated fraction of the tree done when at `level`, as
    /// [`Bits`](crate::bits::Bits) estimates it.
    fn progress(&self, level: usize) -> f64 {
        estimate(self.levels[self.prefix.len()..level].iter().map(|l| (l.total, &l.cand[..])))
    }

    crate::plumbing::run_for_the_cpu!(
        |search, config, started, tick| search.run(config, started, tick)
    );

    /// The search: Algorithm X's steps on the bit sets, the counters kept in registers and
    /// written to `self.counters` when it stops.
    #[inline(always)]
    fn run(&mut self, config: &Config, started: Instant, tick: Tick<'_>) -> Stop {
        let sliced = self.sliced;
        let limits = match Limits::open(config) {
            Ok(limits) => limits,
            Err(stop) => return stop,
        };
        let (max_nodes, max_solutions) = (limits.max_nodes, limits.max_solutions);
        let (mut nodes, mut updates, mut solutions) = (0u64, 0u64, 0u128);
        // Written back on every return.
        macro_rules! stop {
            ($stop:expr) => {{
                self.counters = Counters { nodes, updates, solutions };
                return $stop;
            }};
        }
        // The levels of the prefix are applied, not counted as nodes (as on the links).
        let floor = self.prefix.len();
        let mut level = 0usize;
        // The state entering the next level.
        let mut next_live = Self::set(&sliced.all_options, 0);
        let mut next_active = sliced.all_items;
        let mut next_planes = [0; P];
        next_planes.copy_from_slice(&sliced.root_planes[..P]);
        'enter: loop {
            // Entering `level` with the state in `next_*`: a node of the search tree.
            if level >= floor {
                if nodes >= max_nodes {
                    self.stopped_at = Some(level);
                    stop!(Stop::NodeLimit);
                }
                nodes += 1;
                if nodes % Config::CHECK_INTERVAL == 0 {
                    let stats = Stats { nodes, updates, solutions, elapsed: started.elapsed() };
                    let progress = || self.progress(level);
                    if let Some(stop) = limits.interrupt(tick, progress, &stats) {
                        self.stopped_at = Some(level);
                        stop!(stop);
                    }
                }
            }
            // X3: choose; X4: cover (its options become the candidates, out of `live`).
            let c = self.choose(next_active, &next_planes, config.heuristic);
            let holding = Self::set(&sliced.opts, c as usize);
            let mut cand = [0; W];
            let mut live = [0; W];
            let mut len = 0;
            for w in 0..W {
                cand[w] = next_live[w] & holding[w];
                live[w] = next_live[w] & !holding[w];
                len += cand[w].count_ones();
            }
            if level < floor && self.prefix[level] >= len {
                // Out of range: the prefix names no subtree (checked before the cover, as
                // on the links).
                stop!(Stop::Exhausted);
            }
            let mut planes = next_planes;
            updates += 1 + self.hide(&cand, &mut planes);
            self.levels[level] = Level {
                live,
                cand,
                active: next_active & !(1 << c),
                planes,
                chosen: c,
                total: len,
            };
            #[cfg(any(test, feature = "check-invariants", debug_assertions))]
            if crate::checks::every_node() {
                self.check_level(level);
            }
            // X5: try the next candidate of `level`, or X8: back up.
            loop {
                let state = &mut self.levels[level];
                let o = if level < floor {
                    // A level of the prefix: only its option `k` (as `Solver::set_prefix`).
                    let mut o = None;
                    for _ in 0..=self.prefix[level] {
                        o = take_first(&mut state.cand[..]);
                    }
                    state.cand = [0; W];
                    match o {
                        Some(o) => o,
                        // Not reached: the index was checked against `LEN` above.
                        None => stop!(Stop::Exhausted),
                    }
                } else {
                    match take_first(&mut state.cand[..]) {
                        Some(o) => o,
                        None if level == floor => stop!(Stop::Exhausted),
                        None => {
                            level -= 1;
                            continue;
                        }
                    }
                };
                // Covering the option's other items: one update each, plus the options they
                // hide (the live options sharing an item with it).
                let state = &self.levels[level];
                let conflict = Self::set(&sliced.conflict, o);
                let mut kill = [0; W];
                for w in 0..W {
                    kill[w] = state.live[w] & conflict[w];
                    next_live[w] = state.live[w] & !conflict[w];
                }
                next_planes = state.planes;
                next_active = state.active & !sliced.primary[o];
                updates += u64::from(sliced.weight[o]) + self.hide(&kill, &mut next_planes);
                if next_active != 0 {
                    level += 1;
                    continue 'enter;
                }
                // X2: every primary item is covered: a solution (a node too).
                if level + 1 < floor {
                    // The prefix goes on past a solution: it names no subtree.
                    stop!(Stop::Exhausted);
                }
                nodes += 1;
                solutions += 1;
                if level + 1 == floor {
                    // The prefix itself is a solution: its subtree is that leaf.
                    stop!(Stop::Exhausted);
                }
                if solutions >= max_solutions {
                    stop!(Stop::SolutionLimit);
                }
            }
        }
    }

    /// Checks (S1)-(S3) at `level`: the sets against the chosen item and the covered items,
    /// the planes against a recount.
    #[cfg(any(test, feature = "check-invariants", debug_assertions))]
    fn check_level(&self, level: usize) {
        let sliced = self.sliced;
        let state = &self.levels[level];
        let c = state.chosen as usize;
        let holding = Self::set(&sliced.opts, c);
        for ((&l, &k), &h) in state.live.iter().zip(&state.cand).zip(&holding) {
            assert_eq!(l & h, 0, "(S1) a live option holds the chosen item");
            assert_eq!(k & !h, 0, "(S1) a candidate lacks the chosen item");
        }
        assert_eq!(state.active >> c & 1, 0, "(S2) the chosen item {c} is still active");
        for i in 0..sliced.all_items.count_ones() {
            let holding = Self::set(&sliced.opts, i as usize);
            let count: u32 =
                holding.iter().zip(&state.live).map(|(&a, &b)| (a & b).count_ones()).sum();
            if state.active >> i & 1 == 0 {
                assert_eq!(count, 0, "(S1) a live option holds the covered item {i}");
            }
            assert_eq!(count, len_of(&state.planes, i), "(S3) LEN of item {i}");
        }
    }
}
