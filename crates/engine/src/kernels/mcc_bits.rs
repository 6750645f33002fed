//! The second kernel of Algorithm M's counts: multiplicities on bit sets.
//!
//! Counting needs no list of chosen options, only Algorithm M's tree, which is fixed by the
//! item each level branches on (Knuth's rule on `LEN`, `BOUND` and `SLACK`) and the order of
//! that item's options (input order, which dancing links keep, tweaks taking them from the
//! top). This kernel walks exactly that tree, with DLX3's node and update counts, on sets:
//!
//! - `live`: the options in every one of their items' lists (not hidden, not tweaked), one
//!   bit per option; `LEN(i)` of an active primary item is the number of live options holding
//!   it (a population count);
//! - `active`: the active primary items, one bit each in the arena's order (at most 64);
//! - `BOUND`: one array, lowered and raised as options are taken and given back.
//!
//! Covering item `j` takes `opts[j]` out of `live` (DLX3's updates: 1, plus the size of each
//! option hidden, minus one); a tweak that keeps the item active takes the tweaked option out
//! of `live` (its size in updates), one that follows a cover takes it out of the level's
//! candidates (1 update); the null move takes the item out of `active`. Each level keeps
//! its own copy of the sets, so undoing is free, except for the bounds.
//!
//! It takes problems without colors, with at most [`MAX_PRIMARY`] primary items and
//! [`MAX_OPTIONS`] options (sets of 1, 2, 4 or 8 words, fixed in the compiled search); the
//! solver counts on it whenever it takes the problem (see `Kernel`). On the A001499 encoding
//! (16 items, 64 options) it does a node in about a third of the links' time.
//!
//! # Invariants
//!
//! When a level is entered with the sets `live` and `active`:
//!
//! - **(N1)** `live` holds exactly the options that hold no covered item (a primary item whose
//!   `BOUND` is 0, or a secondary item of an option on the path) and that no level of the
//!   path that tweaks without covering has tweaked (its item's options up to its move).
//! - **(N2)** `active` holds exactly the primary items whose `BOUND` is not 0 and whose null
//!   move is not on the path.
//! - **(N3)** As (A1): `BOUND(i) + uses(i) + nulls(i) = hi(i)` for every primary item.
//!
//! `Search::check_entry` checks them from the path; the crate's tests (and the
//! `check-invariants` feature) call it at every node, and the tests compare the kernel's
//! outcome, nodes and updates with the links' on random problems and their subtrees.

use std::time::Instant;

use crate::arena::Arena;
use crate::config::{Config, Heuristic, Stop, Subtree};
use crate::plumbing::{counted, rest_of, Counted, Limits, Tick};
use crate::problem::Problem;
use crate::stats::Stats;

/// The most options this kernel takes (sets of at most 8 words).
pub(crate) const MAX_OPTIONS: usize = 512;
/// The most primary items this kernel takes (the active set is one word).
pub(crate) const MAX_PRIMARY: usize = 64;

/// A problem with bounds as bit sets (immutable), for [`MccBits::count`].
#[derive(Clone, Debug)]
pub(crate) struct MccBits {
    /// Words per option set: 1, 2, 4 or 8.
    words: usize,
    /// Number of primary items; arena item `i` (`1..=n1`) is bit `i - 1` of `active`.
    n1: usize,
    /// Number of options.
    options: usize,
    /// `opts[i * words..][..words]`: the options holding arena item `i`.
    opts: Vec<u64>,
    /// Per option: its primary items, as a set of `active` bits.
    primary: Vec<u64>,
    /// Per option: its secondary items (arena indices) are
    /// `secondary[sec_start[o]..sec_start[o + 1]]`.
    sec_start: Vec<u32>,
    secondary: Vec<u32>,
    /// Per option: its number of items (the updates of tweaking it).
    size: Vec<u32>,
    /// The options grouped by size minus one (the updates of hiding one), as (weight, set).
    classes: Vec<(u32, Vec<u64>)>,
    /// The updates of hiding one option, when all options have the same size.
    uniform: Option<u32>,
    /// `hi` and `SLACK` per arena item (primary items only).
    hi: Vec<u32>,
    slack: Vec<u32>,
    /// All options, as a set.
    all: Vec<u64>,
}

impl MccBits {
    /// The bit sets of `problem` (whose arena is `arena`), or `None` if it has colors, more
    /// than [`MAX_PRIMARY`] primary items or more than [`MAX_OPTIONS`] options.
    pub(crate) fn new(problem: &Problem, arena: &Arena) -> Option<MccBits> {
        let n = arena.n_items as usize;
        let n1 = arena.n_primary as usize;
        let options = problem.option_count();
        if !arena.colors.is_empty() || n1 == 0 || n1 > MAX_PRIMARY || options > MAX_OPTIONS {
            return None;
        }
        let words = match options.div_ceil(64) {
            0 | 1 => 1,
            2 => 2,
            3 | 4 => 4,
            _ => 8,
        };
        let mut opts = vec![0u64; (n + 1) * words];
        let (mut primary, mut size) = (vec![0u64; options], vec![0u32; options]);
        let (mut sec_start, mut secondary) = (vec![0u32], Vec::new());
        let mut all = vec![0u64; words];
        // Options are the runs of nodes between spacers (I3), in order.
        let mut o = 0;
        let mut x = n + 2;
        while x < arena.nodes.len() {
            let top = arena.nodes[x].top;
            if top <= 0 {
                all[o / 64] |= 1 << (o % 64);
                sec_start.push(secondary.len() as u32);
                o += 1;
            } else {
                let i = top as usize;
                opts[i * words + o / 64] |= 1 << (o % 64);
                size[o] += 1;
                if i <= n1 {
                    primary[o] |= 1 << (i - 1);
                } else {
                    secondary.push(i as u32);
                }
            }
            x += 1;
        }
        debug_assert_eq!(o, options);
        let mut classes: Vec<(u32, Vec<u64>)> = Vec::new();
        for (o, &s) in size.iter().enumerate() {
            let weight = s - 1;
            if weight == 0 {
                continue;
            }
            let k = match classes.iter().position(|c| c.0 == weight) {
                Some(k) => k,
                None => {
                    classes.push((weight, vec![0; words]));
                    classes.len() - 1
                }
            };
            classes[k].1[o / 64] |= 1 << (o % 64);
        }
        let uniform = match size.first() {
            Some(&s0) if size.iter().all(|&s| s == s0) => Some(s0 - 1),
            _ => None,
        };
        let mut hi = vec![0u32; n1 + 1];
        let mut slack = vec![0u32; n1 + 1];
        for i in 1..=n1 {
            let (l, h) = problem.item_bounds(arena.item_ids[i]).unwrap_or((1, 1));
            hi[i] = h;
            slack[i] = h - l;
        }
        Some(MccBits {
            words,
            n1,
            options,
            opts,
            primary,
            sec_start,
            secondary,
            size,
            classes,
            uniform,
            hi,
            slack,
            all,
        })
    }

    /// Counts the solutions under `prefix` (Algorithm M's moves, see `Solver::set_prefix`),
    /// within the limits of `config`, calling `tick` every [`Config::CHECK_INTERVAL`] nodes
    /// with the progress estimate and the counters. A prefix that names no subtree counts
    /// nothing. With `rest`, a count stopped early writes there the subtrees it did not
    /// search.
    pub(crate) fn count(
        &self,
        config: &Config,
        prefix: &[u32],
        tick: Tick<'_>,
        rest: Option<&mut Vec<Subtree>>,
    ) -> Counted {
        match self.words {
            1 => self.count_in::<1>(config, prefix, tick, rest),
            2 => self.count_in::<2>(config, prefix, tick, rest),
            4 => self.count_in::<4>(config, prefix, tick, rest),
            _ => self.count_in::<8>(config, prefix, tick, rest),
        }
    }

    fn count_in<const W: usize>(
        &self,
        config: &Config,
        prefix: &[u32],
        tick: Tick<'_>,
        rest: Option<&mut Vec<Subtree>>,
    ) -> Counted {
        let started = Instant::now();
        let mut search = Search::<W>::new(self, prefix);
        let stop = search.run_best(config, started, tick);
        if let (Some(rest), Some(level)) = (rest, search.stopped_at) {
            let levels = search.levels[..level].iter().map(|l| (l.score, l.score - l.moves));
            *rest = rest_of(prefix, levels);
        }
        counted(stop, search.nodes, search.updates, search.solutions, started)
    }

    /// The options holding arena item `i`.
    #[inline(always)]
    fn opts<const W: usize>(&self, i: usize) -> [u64; W] {
        let mut set = [0u64; W];
        set.copy_from_slice(&self.opts[i * W..][..W]);
        set
    }

    /// The updates of hiding the options of `set`: their sizes minus one, added up.
    #[inline(always)]
    fn weight<const W: usize>(&self, set: &[u64; W]) -> u64 {
        if let Some(w) = self.uniform {
            return u64::from(w) * u64::from(count(set));
        }
        let mut updates = 0;
        for (weight, class) in &self.classes {
            let n: u32 = set.iter().zip(class).map(|(&a, &b)| (a & b).count_ones()).sum();
            updates += u64::from(*weight) * u64::from(n);
        }
        updates
    }
}

/// How a level branches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// `BOUND` reached 0 without slack: covered, its options tried in turn (Algorithm X).
    Cover,
    /// `BOUND` reached 0 with slack: covered, each option tried then tweaked out of the
    /// candidates, the null move last.
    CoverTweak,
    /// `BOUND` stays positive: each option tried then tweaked out of `live`, the null move
    /// last when the item's lower bound allows it.
    Tweak,
}

/// No option: the null move.
const NULL: u32 = u32::MAX;

/// The state of a level.
#[derive(Clone, Copy, Debug)]
struct Level<const W: usize> {
    /// The live options now (after the cover, and the tweaks of [`Mode::Tweak`]).
    live: [u64; W],
    /// The untried options of the item ([`Mode::Cover`] and [`Mode::CoverTweak`]).
    cand: [u64; W],
    /// The active items now.
    active: u64,
    /// The item branched on (arena index).
    best: u32,
    mode: Mode,
    /// The branching degree: the number of moves.
    score: u32,
    /// The moves made so far (the current one is `moves - 1`).
    moves: u32,
    /// The current move's option, or [`NULL`].
    option: u32,
}

/// The mutable state of one count.
struct Search<'b, const W: usize> {
    bits: &'b MccBits,
    prefix: &'b [u32],
    levels: Vec<Level<W>>,
    /// `BOUND` per primary item (arena index, at most 64: fixed arrays, no bounds checks).
    bound: [u32; 66],
    /// `SLACK` per primary item.
    slack: [u32; 66],
    /// The options of each primary item.
    popts: [[u64; W]; 66],
    /// The state entering the next level.
    next_live: [u64; W],
    next_active: u64,
    nodes: u64,
    updates: u64,
    solutions: u128,
    /// The level the search was entering when a limit stopped it early.
    stopped_at: Option<usize>,
}

/// The first option of `set`.
#[inline(always)]
fn first<const W: usize>(set: &[u64; W]) -> Option<usize> {
    set.iter()
        .enumerate()
        .find(|(_, &w)| w != 0)
        .map(|(k, &w)| 64 * k + w.trailing_zeros() as usize)
}

#[inline(always)]
fn and_not<const W: usize>(a: &[u64; W], b: &[u64; W]) -> [u64; W] {
    let mut out = *a;
    for (o, &x) in out.iter_mut().zip(b) {
        *o &= !x;
    }
    out
}

#[inline(always)]
fn and<const W: usize>(a: &[u64; W], b: &[u64; W]) -> [u64; W] {
    let mut out = *a;
    for (o, &x) in out.iter_mut().zip(b) {
        *o &= x;
    }
    out
}

#[inline(always)]
fn count<const W: usize>(set: &[u64; W]) -> u32 {
    set.iter().map(|w| w.count_ones()).sum()
}

impl<'b, const W: usize> Search<'b, W> {
    /// Level `l` (below the depth, which bounds every path: see `Mcc::depth`).
    #[inline(always)]
    fn level(&self, l: usize) -> &Level<W> {
        debug_assert!(l < self.levels.len(), "(N3) level {l} past the depth");
        // SAFETY: a path has at most `depth` levels (each option at most once, each one
        // lowering a BOUND, and one null move per item at most), checked in debug builds.
        unsafe { self.levels.get_unchecked(l) }
    }

    /// Level `l`, mutably; see [`Search::level`].
    #[inline(always)]
    fn level_mut(&mut self, l: usize) -> &mut Level<W> {
        debug_assert!(l < self.levels.len(), "(N3) level {l} past the depth");
        // SAFETY: as in `level`.
        unsafe { self.levels.get_unchecked_mut(l) }
    }

    /// The primary items of option `o`, as `active` bits.
    #[inline(always)]
    fn primary(&self, o: usize) -> u64 {
        debug_assert!(o < self.bits.options, "(N1) option {o} out of range");
        // SAFETY: `o` is a bit of a set of options, all below `options` (N1).
        unsafe { *self.bits.primary.get_unchecked(o) }
    }

    fn new(bits: &'b MccBits, prefix: &'b [u32]) -> Search<'b, W> {
        let total: u64 = bits.hi.iter().map(|&h| u64::from(h)).sum();
        let depth = total.min(bits.options as u64) as usize + bits.n1 + 1;
        let mut next_live = [0u64; W];
        next_live.copy_from_slice(&bits.all);
        let empty = Level {
            live: [0; W],
            cand: [0; W],
            active: 0,
            best: 0,
            mode: Mode::Cover,
            score: 0,
            moves: 0,
            option: NULL,
        };
        let next_active = if bits.n1 == 64 { u64::MAX } else { (1u64 << bits.n1) - 1 };
        let (mut bound, mut slack, mut popts) = ([0u32; 66], [0u32; 66], [[0u64; W]; 66]);
        for i in 1..=bits.n1 {
            bound[i] = bits.hi[i];
            slack[i] = bits.slack[i];
            popts[i] = bits.opts::<W>(i);
        }
        Search {
            bits,
            prefix,
            levels: vec![empty; depth],
            bound,
            slack,
            popts,
            next_live,
            next_active,
            nodes: 0,
            updates: 0,
            solutions: 0,
            stopped_at: None,
        }
    }

    /// Knuth's choice on the entering state (see `mcc.rs`): the item and its degree
    /// (`i64::MAX` when no item is active).
    ///
    /// The rule (least degree `t`, then least `s`, then longest list, then leftmost) is one
    /// comparison of a key `(t, s, -LEN)`, so that the scan has no branch on the data but
    /// the one that stops it at a degree of 0 or less.
    #[inline(always)]
    fn choose<const SLACK: bool>(&self, heuristic: Heuristic) -> (u32, i64) {
        if !SLACK {
            return self.choose_without_slack(heuristic);
        }
        let mut a = self.next_active;
        let (mut best, mut key) = (0u32, u128::MAX);
        while a != 0 {
            let i = a.trailing_zeros() as usize + 1;
            a &= a - 1;
            let b = self.bound[i];
            let s = self.slack[i].min(b);
            let l = count(&and(&self.popts[i], &self.next_live));
            let t = i64::from(l) + i64::from(s) - i64::from(b) + 1;
            if t <= 0 {
                return (i as u32, t);
            }
            // 1 <= t <= LEN + 1 < 2^40, s < 2^32, LEN < 2^40.
            let k = (t as u128) << 80
                | u128::from(s) << 40
                | u128::from((1u64 << 40) - 1 - u64::from(l));
            let better = k < key;
            key = if better { k } else { key };
            best = if better { i as u32 } else { best };
            if heuristic == Heuristic::Leftmost {
                break;
            }
        }
        if best == 0 {
            (0, i64::MAX)
        } else {
            (best, (key >> 80) as i64)
        }
    }

    /// [`Search::choose`] when no item has slack (`s` = 0): the key is `(t, -LEN)` in one
    /// word.
    #[inline(always)]
    fn choose_without_slack(&self, heuristic: Heuristic) -> (u32, i64) {
        let mut a = self.next_active;
        let (mut best, mut key) = (0u32, u64::MAX);
        while a != 0 {
            let i = a.trailing_zeros() as usize + 1;
            a &= a - 1;
            let b = self.bound[i];
            let l = count(&and(&self.popts[i], &self.next_live));
            // t = LEN - BOUND + 1; LEN <= 512.
            let t = i64::from(l) - i64::from(b) + 1;
            if t <= 0 {
                return (i as u32, t);
            }
            let k = (t as u64) << 32 | u64::from(u32::MAX - l);
            let better = k < key;
            key = if better { k } else { key };
            best = if better { i as u32 } else { best };
            if heuristic == Heuristic::Leftmost {
                break;
            }
        }
        if best == 0 {
            (0, i64::MAX)
        } else {
            (best, (key >> 32) as i64)
        }
    }

    /// Takes option `o` at level `level` (its item's `BOUND` already lowered): the entering
    /// state of the next level, in `next_*`.
    #[inline(always)]
    fn take(&mut self, level: usize, o: usize) {
        let bits = self.bits;
        let l = self.level(level);
        let (mut live, mut active) = (l.live, l.active);
        let mut p = self.primary(o) & !(1u64 << (l.best - 1));
        while p != 0 {
            let j = p.trailing_zeros() as usize + 1;
            p &= p - 1;
            self.bound[j] -= 1;
            if self.bound[j] == 0 {
                let opts = self.popts[j];
                self.updates += 1 + bits.weight(&and(&opts, &live));
                live = and_not(&live, &opts);
                active &= !(1u64 << (j - 1));
            }
        }
        if !bits.secondary.is_empty() {
            for &j in &bits.secondary[bits.sec_start[o] as usize..bits.sec_start[o + 1] as usize] {
                let opts = bits.opts::<W>(j as usize);
                self.updates += 1 + bits.weight(&and(&opts, &live));
                live = and_not(&live, &opts);
            }
        }
        self.next_live = live;
        self.next_active = active;
    }

    /// Gives back option `o` of level `level`: raises the `BOUND` of its other primary items.
    #[inline(always)]
    fn give_back(&mut self, level: usize, o: usize) {
        let mut p = self.primary(o) & !(1u64 << (self.level(level).best - 1));
        while p != 0 {
            let j = p.trailing_zeros() as usize + 1;
            p &= p - 1;
            self.bound[j] += 1;
        }
    }

    /// The next move of `level` (making its tweak), or `None` when the level is done.
    /// `Some(NULL)` is the null move.
    #[inline(always)]
    fn next_move(&mut self, level: usize) -> Option<u32> {
        let bits = self.bits;
        debug_assert!(level < self.levels.len(), "(N3) level {level} past the depth");
        // SAFETY: as in `level` (a borrow of `levels` alone, beside `bound` and `updates`).
        let l = unsafe { self.levels.get_unchecked_mut(level) };
        let best = l.best as usize;
        let o = match l.mode {
            Mode::Cover => {
                let o = first(&l.cand)?;
                l.cand[o / 64] &= !(1u64 << (o % 64));
                o as u32
            }
            Mode::CoverTweak => match first(&l.cand) {
                Some(o) => {
                    l.cand[o / 64] &= !(1u64 << (o % 64));
                    self.updates += 1;
                    o as u32
                }
                None => NULL,
            },
            Mode::Tweak => {
                let mine = and(&self.popts[best], &l.live);
                let len = i64::from(count(&mine));
                let (b, s) = (self.bound[best], self.slack[best]);
                if len <= i64::from(b) - i64::from(s) {
                    return None;
                }
                match first(&mine) {
                    Some(o) => {
                        l.live[o / 64] &= !(1u64 << (o % 64));
                        debug_assert!(o < bits.options, "(N1) option {o} out of range");
                        // SAFETY: `o` is in `live`, a set of options below `options` (N1).
                        self.updates += u64::from(unsafe { *bits.size.get_unchecked(o) });
                        o as u32
                    }
                    None => {
                        l.active &= !(1u64 << (best - 1));
                        NULL
                    }
                }
            }
        };
        l.moves += 1;
        l.option = o;
        Some(o)
    }

    /// The estimated fraction of the tree done when at `level` (as `Solver::progress`).
    fn progress(&self, level: usize) -> f64 {
        let mut fraction = 0.0;
        let mut weight = 1.0;
        for l in &self.levels[self.prefix.len()..level] {
            weight /= f64::from(l.score.max(1));
            fraction += weight * f64::from(l.moves.saturating_sub(1));
        }
        fraction + weight / 2.0
    }

    crate::plumbing::run_for_the_cpu!(|search, config, started, tick| {
        // Items with slack need the two-word choice key.
        let slack = search.bits.slack.iter().any(|&s| s > 0);
        if slack {
            search.run::<true>(config, started, tick)
        } else {
            search.run::<false>(config, started, tick)
        }
    });

    /// The search: Algorithm M's steps on the sets (the labels of `mcc.rs`).
    #[inline(always)]
    fn run<const SLACK: bool>(
        &mut self,
        config: &Config,
        started: Instant,
        tick: Tick<'_>,
    ) -> Stop {
        let bits = self.bits;
        let limits = match Limits::open(config) {
            Ok(limits) => limits,
            Err(stop) => return stop,
        };
        let (max_nodes, max_solutions) = (limits.max_nodes, limits.max_solutions);
        // The levels of the prefix are applied, not counted as nodes (as on the links).
        let floor = self.prefix.len();
        let mut level = 0usize;
        'forward: loop {
            if level >= floor {
                if self.nodes >= max_nodes {
                    self.stopped_at = Some(level);
                    return Stop::NodeLimit;
                }
                self.nodes += 1;
                if self.nodes % Config::CHECK_INTERVAL == 0 {
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
            }
            #[cfg(any(test, feature = "check-invariants", debug_assertions))]
            if crate::checks::every_node() {
                self.check_entry(level);
            }
            'backdown: {
                if self.next_active == 0 {
                    // No primary item is active: a solution.
                    if level < floor {
                        // The prefix goes on past a solution: it names no subtree.
                        return Stop::Exhausted;
                    }
                    self.solutions += 1;
                    if self.solutions >= max_solutions {
                        return Stop::SolutionLimit;
                    }
                    break 'backdown;
                }
                let (best, score) = self.choose::<SLACK>(config.heuristic);
                let degree = score.clamp(0, i64::from(u32::MAX)) as u32;
                if level < floor && self.prefix[level] >= degree {
                    // Out of range: the prefix names no subtree.
                    return Stop::Exhausted;
                }
                if score <= 0 {
                    break 'backdown;
                }
                let b = best as usize;
                self.bound[b] -= 1;
                let bound = self.bound[b];
                let mut l = Level {
                    live: self.next_live,
                    cand: [0; W],
                    active: self.next_active,
                    best,
                    mode: Mode::Tweak,
                    score: degree,
                    moves: 0,
                    option: NULL,
                };
                if bound == 0 {
                    let opts = self.popts[b];
                    l.cand = and(&opts, &l.live);
                    self.updates += 1 + bits.weight(&l.cand);
                    l.live = and_not(&l.live, &opts);
                    l.active &= !(1u64 << (b - 1));
                    l.mode = if bits.slack[b] == 0 { Mode::Cover } else { Mode::CoverTweak };
                }
                *self.level_mut(level) = l;
                if level < floor {
                    // A level of the prefix: its moves before `prefix[level]` are made and
                    // left (their tweaks stay), then that one is taken.
                    for _ in 0..self.prefix[level] {
                        let _ = self.next_move(level);
                    }
                }
                // Advance: the level's next move, then the level below it.
                match self.next_move(level) {
                    Some(o) => {
                        if o == NULL {
                            self.next_live = self.level(level).live;
                            self.next_active = self.level(level).active;
                        } else {
                            self.take(level, o as usize);
                        }
                        level += 1;
                        continue 'forward;
                    }
                    None => {
                        // Backup (not reached at a prefix level: its index is in range).
                        self.bound[b] += 1;
                    }
                }
            }
            // Backdown: back to the level above, its next move.
            loop {
                if level <= floor {
                    return Stop::Exhausted;
                }
                level -= 1;
                let o = self.level(level).option;
                // The null move is a level's last move.
                let next = if o == NULL {
                    None
                } else {
                    self.give_back(level, o as usize);
                    self.next_move(level)
                };
                match next {
                    Some(o) => {
                        if o == NULL {
                            self.next_live = self.level(level).live;
                            self.next_active = self.level(level).active;
                        } else {
                            self.take(level, o as usize);
                        }
                        level += 1;
                        continue 'forward;
                    }
                    None => {
                        let best = self.level(level).best as usize;
                        self.bound[best] += 1;
                    }
                }
            }
        }
    }

    /// Checks (N1)-(N3) on the state entering `level`, from the path.
    ///
    /// # Panics
    /// With the number of the broken invariant.
    #[cfg(any(test, feature = "check-invariants", debug_assertions))]
    fn check_entry(&self, level: usize) {
        let bits = self.bits;
        let n1 = bits.n1;
        let mut uses = vec![0u32; n1 + 1];
        let mut nulls = vec![0u32; n1 + 1];
        let mut dead = [0u64; W];
        for l in &self.levels[..level] {
            if l.option == NULL {
                nulls[l.best as usize] += 1;
            } else {
                let o = l.option as usize;
                for (j, used) in uses.iter_mut().enumerate().skip(1) {
                    *used += u32::from(bits.primary[o] >> (j - 1) & 1 == 1);
                }
                for &j in
                    &bits.secondary[bits.sec_start[o] as usize..bits.sec_start[o + 1] as usize]
                {
                    dead = or(&dead, &bits.opts::<W>(j as usize));
                }
            }
            if l.mode == Mode::Tweak {
                // The item's options up to the move (all of them for the null move).
                let upto = if l.option == NULL { bits.options } else { l.option as usize + 1 };
                let mine = bits.opts::<W>(l.best as usize);
                for o in 0..upto {
                    if mine[o / 64] >> (o % 64) & 1 == 1 {
                        dead[o / 64] |= 1 << (o % 64);
                    }
                }
            }
        }
        let mut active = 0u64;
        for j in 1..=n1 {
            assert_eq!(
                u64::from(self.bound[j]) + u64::from(uses[j]) + u64::from(nulls[j]),
                u64::from(bits.hi[j]),
                "(N3) BOUND of item {j}"
            );
            if self.bound[j] == 0 {
                dead = or(&dead, &bits.opts::<W>(j));
            } else if nulls[j] == 0 {
                active |= 1 << (j - 1);
            }
        }
        assert_eq!(self.next_active, active, "(N2) the active items at level {level}");
        let mut all = [0u64; W];
        all.copy_from_slice(&bits.all);
        assert_eq!(self.next_live, and_not(&all, &dead), "(N1) the live options at level {level}");
    }
}

#[cfg(any(test, feature = "check-invariants", debug_assertions))]
fn or<const W: usize>(a: &[u64; W], b: &[u64; W]) -> [u64; W] {
    let mut out = *a;
    for (o, &x) in out.iter_mut().zip(b) {
        *o |= x;
    }
    out
}
