//! A second kernel for [`Solver::count`](crate::Solver::count): Algorithm X on bit sets.
//!
//! Counting needs no list of the chosen options, only the search tree, and the tree of
//! Algorithm X is fixed by two things: which item it branches on (the first active primary
//! item with the fewest active options, or the first one) and the order of that item's
//! options (input order, which dancing links keep). This kernel walks exactly that tree, with
//! the same node and update counts, but keeps the state as bit sets instead of links:
//!
//! - `live`: the options still compatible with the choices made, one bit per option;
//! - `active`: the primary items not yet covered, one bit each, in the arena's order;
//! - `LEN(i)`, how many live options hold primary item `i`, either *counted* at each node
//!   (population counts of `live & opts[i]`, word by word, stopping as soon as the count
//!   reaches the best so far) or *kept* in an array per level, lowered by one for each item
//!   of each option hidden (as dancing links unlink one node from each of their lists).
//!
//! Covering the item `c` chosen at a level makes its live options the candidates and takes
//! them out of `live`; trying option `r` *kills* the live options that share an item with it
//! (`live & (opts[j1] | opts[j2] | ...)`). The update counter adds the numbers Knuth's
//! `cover` would: one per item covered, one per node hidden (the hidden option's size minus
//! one). Undoing is free: each level keeps its own copy of the state.
//!
//! Where dancing links write two links in other cache lines for each node they hide, and
//! follow chains of pointers, this kernel does word-wise operations on sets that stay in the
//! first-level cache; the price is a pass over the sets (one bit per option) per node and
//! per option tried. It takes only problems without colors and with at most
//! [`MAX_OPTIONS`] options; by default the solver times the first nodes of a count on each
//! kernel and keeps the fastest (see `Kernel::Auto`).
//!
//! # Invariants
//!
//! At every level `l` of a search, for the state after covering its item `c`:
//!
//! - **(B1)** `live[l]` holds exactly the options that share no item with the options chosen
//!   at levels `< l` and do not hold the items chosen at levels `<= l`; `cand[l]` holds the
//!   untried options of `c` among those that were live when `c` was chosen.
//! - **(B2)** `active[l]` holds exactly the primary items not covered at levels `<= l`.
//! - **(B3)** When kept, `len[l][i]` is the number of options of `live[l]` that hold `i`, for
//!   every active primary item `i`.
//!
//! [`Search::check_level`] checks them against a recount; the crate's tests (and the
//! `check-invariants` feature) call it at every node.

use std::time::Instant;

use crate::arena::Arena;
use crate::config::{Config, Heuristic, Stop};
use crate::plumbing::{
    counted, estimate, for_each, rest_of, take_first, CountJob, Counted, Limits, Tick,
};
use crate::stats::Stats;

/// The largest number of options this kernel takes (128 words of 64 bits per set).
pub(crate) const MAX_OPTIONS: usize = 8192;

/// The problem as bit sets (immutable), for [`Bits::count`].
#[derive(Clone, Debug)]
pub(crate) struct Bits {
    /// Words per option set.
    words: usize,
    /// Number of primary items (`N1`); primary item `i` (arena index `1..=N1`) is bit `i - 1`
    /// of the active sets.
    n_primary: usize,
    /// Words per active-item set.
    item_words: usize,
    /// `opts[i * words..][..words]`: the options holding arena item `i` (`1..=N`).
    opts: Vec<u64>,
    /// The items of option `o` are `items[start[o]..start[o + 1]]`, as arena indices.
    start: Vec<u32>,
    items: Vec<u32>,
    /// `weight[o]`: the updates of hiding option `o` (its size minus one).
    weight: Vec<u32>,
    /// The options of the problem as a set (its last word padded with zeros).
    all: Vec<u64>,
    /// For each entry of `items`: the item's slot in a `LEN` array (its arena index if
    /// primary, else 0, a slot nobody reads).
    slots: Vec<u32>,
    /// `LEN` of each primary item at the root (slot 0 unused).
    root_len: Vec<u32>,
    /// Whether searches keep `LEN` in arrays, lowered for each hidden option, rather than
    /// counting it from the sets at each node.
    keep_len: bool,
    /// The options grouped by weight, as (weight, set), when there are at most
    /// [`MAX_CLASSES`] weights other than 0: the updates of hiding a set of options are then
    /// counted with a few word-wise counts instead of one look-up per option.
    classes: Option<Vec<(u32, Vec<u64>)>>,
}

/// See [`Bits::classes`].
const MAX_CLASSES: usize = 4;

impl Bits {
    /// Whether this kernel takes the arena's problem: no colors, at least one primary item
    /// and at most [`MAX_OPTIONS`] options (one spacer ends each option (I3)).
    pub(crate) fn takes(arena: &Arena) -> bool {
        let first_spacer = arena.n_items as usize + 1;
        let options = arena.nodes[first_spacer + 1..].iter().filter(|x| x.top <= 0).count();
        arena.colors.is_empty() && arena.n_primary > 0 && options <= MAX_OPTIONS
    }

    /// The bit sets of an arena's problem, or `None` if [`Bits::takes`] refuses it (then the
    /// dancing links are the kernel). With `keep_len`, searches keep `LEN` in arrays;
    /// otherwise they count it.
    pub(crate) fn new(arena: &Arena, keep_len: bool) -> Option<Bits> {
        if !Bits::takes(arena) {
            return None;
        }
        let n = arena.n_items as usize;
        let n1 = arena.n_primary as usize;
        // Options are the runs of nodes between spacers, after the headers and the first
        // spacer (I3).
        let mut start = vec![0u32];
        let mut items = Vec::new();
        let mut x = n + 2;
        while x < arena.nodes.len() {
            let top = arena.nodes[x].top;
            if top <= 0 {
                start.push(items.len() as u32);
            } else {
                items.push(top as u32);
            }
            x += 1;
        }
        let options = start.len() - 1;
        let words = options.div_ceil(64).max(1);
        let mut opts = vec![0u64; (n + 1) * words];
        let mut root_len = vec![0u32; n1 + 1];
        let mut weight = Vec::with_capacity(options);
        for o in 0..options {
            let range = start[o] as usize..start[o + 1] as usize;
            weight.push(range.len().saturating_sub(1) as u32);
            for &i in &items[range] {
                opts[i as usize * words + o / 64] |= 1 << (o % 64);
                if (i as usize) <= n1 {
                    root_len[i as usize] += 1;
                }
            }
        }
        let mut all = vec![0u64; words];
        let mut classes: Vec<(u32, Vec<u64>)> = Vec::new();
        for (o, &w) in weight.iter().enumerate() {
            all[o / 64] |= 1 << (o % 64);
            if w == 0 {
                continue;
            }
            let k = match classes.iter().position(|(weight, _)| *weight == w) {
                Some(k) => k,
                None => {
                    classes.push((w, vec![0u64; words]));
                    classes.len() - 1
                }
            };
            classes[k].1[o / 64] |= 1 << (o % 64);
        }
        let slots = items.iter().map(|&i| if (i as usize) <= n1 { i } else { 0 }).collect();
        let mut bits = Bits {
            words,
            n_primary: n1,
            item_words: n1.div_ceil(64),
            opts,
            start,
            items,
            slots,
            root_len,
            keep_len: false,
            weight,
            all,
            classes: (classes.len() <= MAX_CLASSES).then_some(classes),
        };
        bits.keep_len = keep_len;
        Some(bits)
    }

    /// The options holding arena item `i`.
    #[inline(always)]
    fn opts(&self, i: usize) -> &[u64] {
        &self.opts[i * self.words..][..self.words]
    }

    /// Counts the solutions under `config`'s limits, walking Algorithm X's tree; returns the
    /// outcome and the counters, equal to those of the dancing links on the same problem.
    ///
    /// Every [`Config::CHECK_INTERVAL`] nodes, `tick` gets the estimated fraction of the tree
    /// done and the counters so far; `Break` cancels the count.
    ///
    /// With a non-empty `prefix`, only the subtree it names is searched (see
    /// [`Solver::set_prefix`](crate::Solver::set_prefix)); a prefix that names none counts
    /// nothing.
    ///
    /// With `rest`, a search stopped early (node or time limit, cancel) writes there the
    /// subtrees it did not search ([`rest_of`]).
    pub(crate) fn count(&self, job: CountJob<'_>) -> Counted {
        let CountJob { config, prefix, tick, rest } = job;
        let started = Instant::now();
        let mut search = Search::new(self, prefix);
        let stop = search.run_best(config, started, tick);
        if let (Some(rest), Some(level)) = (rest, search.stopped_at) {
            let words = self.words;
            let levels = (0..level).map(|l| {
                let untried: u32 =
                    search.cand[l * words..][..words].iter().map(|w| w.count_ones()).sum();
                (search.total[l], untried)
            });
            *rest = rest_of(prefix, levels);
        }
        counted(stop, search.nodes, search.updates, search.solutions, started)
    }
}

/// The mutable state of one count: per level, the state after covering its item.
struct Search<'b> {
    bits: &'b Bits,
    /// The choice indices of the subtree searched (empty: the whole tree).
    prefix: &'b [u32],
    /// `live[l * words..]`: (B1).
    live: Vec<u64>,
    /// `cand[l * words..]`: the options of level `l`'s item not yet tried.
    cand: Vec<u64>,
    /// `active[l * item_words..]`: (B2).
    active: Vec<u64>,
    /// The item chosen at each level (arena index).
    chosen: Vec<u32>,
    /// The number of options of each level's item when it was chosen (for progress).
    total: Vec<u32>,
    /// `len[l * (n1 + 1)..]`: `LEN` of the primary items after level `l`'s cover, when
    /// the search keeps it.
    len: Vec<u32>,
    /// The state entering the next level (scratch): live options, `LEN` (when kept) and
    /// active items.
    next_live: Vec<u64>,
    next_len: Vec<u32>,
    next_active: Vec<u64>,
    /// The options killed by the option being tried (scratch).
    kill: Vec<u64>,
    nodes: u64,
    updates: u64,
    solutions: u128,
    /// The level the search was entering when a limit stopped it early.
    stopped_at: Option<usize>,
}

impl<'b> Search<'b> {
    fn new(bits: &'b Bits, prefix: &'b [u32]) -> Search<'b> {
        let levels = bits.n_primary + 1;
        let mut next_active = vec![0u64; bits.item_words];
        for i in 0..bits.n_primary {
            next_active[i / 64] |= 1 << (i % 64);
        }
        Search {
            bits,
            prefix,
            live: vec![0; levels * bits.words],
            cand: vec![0; levels * bits.words],
            active: vec![0; levels * bits.item_words],
            chosen: vec![0; levels],
            total: vec![0; levels],
            len: if bits.keep_len { vec![0; levels * (bits.n_primary + 1)] } else { Vec::new() },
            next_live: bits.all.clone(),
            next_len: if bits.keep_len { bits.root_len.clone() } else { Vec::new() },
            next_active,
            kill: vec![0; bits.words],
            nodes: 0,
            updates: 0,
            solutions: 0,
            stopped_at: None,
        }
    }

    /// X3 on the entering state: the item to branch on and its number of live options.
    ///
    /// `LEN(i)` is the number of live options holding `i`, counted word by word; the count
    /// of an item stops as soon as it reaches the best so far (the first item with the
    /// fewest options wins), and the scan stops at an item with none.
    #[inline(always)]
    fn choose<const KEPT: bool>(&self, heuristic: Heuristic) -> (usize, u32) {
        let bits = self.bits;
        let mut best = (0, u32::MAX);
        for (w, &word) in self.next_active.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let i = 64 * w + word.trailing_zeros() as usize + 1;
                word &= word - 1;
                let mut len = 0;
                if KEPT {
                    len = self.next_len[i];
                } else {
                    for (&a, &b) in bits.opts(i).iter().zip(&self.next_live) {
                        len += (a & b).count_ones();
                        if len >= best.1 {
                            break;
                        }
                    }
                }
                if len < best.1 {
                    best = (i, len);
                    if len == 0 || heuristic == Heuristic::Leftmost {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// Lowers `len` for the options of `set` (hides them); returns the updates that makes.
    #[inline(always)]
    fn hide(bits: &Bits, set: &[u64], len: &mut [u32]) -> u64 {
        let mut updates = 0u64;
        for_each(set, |o| {
            updates += u64::from(bits.weight[o]);
            let range = bits.start[o] as usize..bits.start[o + 1] as usize;
            for &slot in &bits.slots[range] {
                len[slot as usize] = len[slot as usize].wrapping_sub(1);
            }
        });
        updates
    }

    /// The updates of hiding the options of `set`: the sum of their weights.
    #[inline(always)]
    fn weight(bits: &Bits, set: &[u64]) -> u64 {
        match &bits.classes {
            Some(classes) => classes
                .iter()
                .map(|(weight, mask)| {
                    let n: u32 = set.iter().zip(mask).map(|(&a, &b)| (a & b).count_ones()).sum();
                    u64::from(*weight) * u64::from(n)
                })
                .sum(),
            None => {
                let mut updates = 0;
                for (w, &word) in set.iter().enumerate() {
                    let mut word = word;
                    while word != 0 {
                        updates += u64::from(bits.weight[64 * w + word.trailing_zeros() as usize]);
                        word &= word - 1;
                    }
                }
                updates
            }
        }
    }

    /// The estimated fraction of the tree done when at `level` (as [`Solver::progress`]
    /// estimates it on the links: option `k` of `n` tried at each level, the current
    /// subtree half done).
    ///
    /// [`Solver::progress`]: crate::Solver::progress
    fn progress(&self, level: usize) -> f64 {
        let words = self.bits.words;
        estimate(
            (self.prefix.len()..level).map(|l| (self.total[l], &self.cand[l * words..][..words])),
        )
    }

    crate::plumbing::run_for_the_cpu!(|search, config, started, tick| if search.bits.keep_len {
        search.run::<true>(config, started, tick)
    } else {
        search.run::<false>(config, started, tick)
    });

    /// The search: Algorithm X's steps on the bit sets.
    #[inline(always)]
    fn run<const KEPT: bool>(&mut self, config: &Config, started: Instant, tick: Tick<'_>) -> Stop {
        let bits = self.bits;
        let words = bits.words;
        let slots = bits.n_primary + 1;
        let iw = bits.item_words;
        let limits = match Limits::open(config) {
            Ok(limits) => limits,
            Err(stop) => return stop,
        };
        let (max_nodes, max_solutions) = (limits.max_nodes, limits.max_solutions);
        // The levels of the prefix are applied, not counted as nodes (as on the links).
        let floor = self.prefix.len();
        let mut level = 0usize;
        'enter: loop {
            // Entering `level` with the state in `next_*`: a node of the search tree.
            if level >= floor && self.nodes >= max_nodes {
                self.stopped_at = Some(level);
                return Stop::NodeLimit;
            }
            self.nodes += u64::from(level >= floor);
            if level >= floor && self.nodes % Config::CHECK_INTERVAL == 0 {
                let stats = Stats {
                    nodes: self.nodes,
                    updates: self.updates,
                    solutions: self.solutions,
                    elapsed: started.elapsed(),
                };
                if let Some(stop) = limits.interrupt(tick, || self.progress(level), &stats) {
                    self.stopped_at = Some(level);
                    return stop;
                }
            }
            // X3: choose; X4: cover (its options become the candidates, out of `live`).
            let (c, len) = self.choose::<KEPT>(config.heuristic);
            self.chosen[level] = c as u32;
            self.total[level] = len;
            if level < floor && self.prefix[level] >= len {
                // Out of range: the prefix names no subtree (checked before the cover, as
                // on the links).
                return Stop::Exhausted;
            }
            {
                let live = &mut self.live[level * words..][..words];
                let cand = &mut self.cand[level * words..][..words];
                for ((l, k), (&n, &o)) in live
                    .iter_mut()
                    .zip(cand.iter_mut())
                    .zip(self.next_live.iter().zip(bits.opts(c)))
                {
                    *k = n & o;
                    *l = n & !o;
                }
                if KEPT {
                    let len = &mut self.len[level * slots..][..slots];
                    len.copy_from_slice(&self.next_len);
                    self.updates += 1 + Self::hide(bits, cand, len);
                } else {
                    self.updates += 1 + Self::weight(bits, cand);
                }
                let active = &mut self.active[level * iw..][..iw];
                active.copy_from_slice(&self.next_active);
                active[(c - 1) / 64] &= !(1 << ((c - 1) % 64));
            }
            #[cfg(any(test, feature = "check-invariants", debug_assertions))]
            if crate::checks::every_node() {
                self.check_level(level);
            }
            // X5: try the next candidate of `level`, or X8: back up.
            loop {
                let cand = &mut self.cand[level * words..][..words];
                let o = if level < floor {
                    // A level of the prefix: only its option `k` (as `Solver::set_prefix`).
                    let mut o = None;
                    for _ in 0..=self.prefix[level] {
                        o = take_first(cand);
                    }
                    cand.fill(0);
                    match o {
                        Some(o) => o,
                        // Not reached: the index was checked against `LEN` above.
                        None => return Stop::Exhausted,
                    }
                } else {
                    match take_first(cand) {
                        Some(o) => o,
                        None if level == floor => return Stop::Exhausted,
                        None => {
                            level -= 1;
                            continue;
                        }
                    }
                };
                let range = bits.start[o] as usize..bits.start[o + 1] as usize;
                // Covering the option's other items: one update each, plus the options they
                // hide (the live options holding one of them).
                self.kill.fill(0);
                for &i in &bits.items[range.clone()] {
                    for (u, &x) in self.kill.iter_mut().zip(bits.opts(i as usize)) {
                        *u |= x;
                    }
                }
                let live = &self.live[level * words..][..words];
                for ((n, k), &l) in self.next_live.iter_mut().zip(self.kill.iter_mut()).zip(live) {
                    *k &= l;
                    *n = l & !*k;
                }
                self.updates += u64::from(bits.weight[o]);
                if KEPT {
                    self.next_len.copy_from_slice(&self.len[level * slots..][..slots]);
                    self.updates += Self::hide(bits, &self.kill, &mut self.next_len);
                } else {
                    self.updates += Self::weight(bits, &self.kill);
                }
                self.next_active.copy_from_slice(&self.active[level * iw..][..iw]);
                for &i in &bits.items[range] {
                    let i = i as usize;
                    if i <= bits.n_primary {
                        self.next_active[(i - 1) / 64] &= !(1 << ((i - 1) % 64));
                    }
                }
                if self.next_active.iter().any(|&w| w != 0) {
                    level += 1;
                    continue 'enter;
                }
                // X2: every primary item is covered: a solution (a node too).
                if level + 1 < floor {
                    // The prefix goes on past a solution: it names no subtree.
                    return Stop::Exhausted;
                }
                self.nodes += 1;
                self.solutions += 1;
                if level + 1 == floor {
                    // The prefix itself is a solution: its subtree is that leaf.
                    return Stop::Exhausted;
                }
                if self.solutions >= max_solutions {
                    return Stop::SolutionLimit;
                }
            }
        }
    }

    /// Checks (B1)-(B3) at `level`: the sets against the chosen item and the covered items,
    /// the kept `LEN` against a recount.
    #[cfg(any(test, feature = "check-invariants", debug_assertions))]
    fn check_level(&self, level: usize) {
        let bits = self.bits;
        let words = bits.words;
        let live = &self.live[level * words..][..words];
        let cand = &self.cand[level * words..][..words];
        let active = &self.active[level * bits.item_words..][..bits.item_words];
        let c = self.chosen[level] as usize;
        for (w, (&l, &k)) in live.iter().zip(cand).enumerate() {
            assert_eq!(l & bits.opts(c)[w], 0, "(B1) a live option holds the chosen item {c}");
            assert_eq!(k & !bits.opts(c)[w], 0, "(B1) a candidate lacks the chosen item {c}");
        }
        assert_eq!(
            active[(c - 1) / 64] >> ((c - 1) % 64) & 1,
            0,
            "(B2) the chosen item {c} is still active"
        );
        // (B1): no live option holds an item covered on the path.
        for i in 1..=bits.n_primary {
            if active[(i - 1) / 64] >> ((i - 1) % 64) & 1 == 0 {
                for (&l, &o) in live.iter().zip(bits.opts(i)) {
                    assert_eq!(l & o, 0, "(B1) a live option holds the covered item {i}");
                }
            } else if bits.keep_len {
                let count: u32 =
                    bits.opts(i).iter().zip(live).map(|(&a, &b)| (a & b).count_ones()).sum();
                let slots = bits.n_primary + 1;
                assert_eq!(count, self.len[level * slots + i], "(B3) LEN of item {i}");
            }
        }
    }
}
