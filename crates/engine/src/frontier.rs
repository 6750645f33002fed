//! Counting by stages, from both ends (`--method frontier`): the count of a problem whose
//! options fall into *lines*, as a latin square's fall into its rows.
//!
//! # The method
//!
//! The primary items are cut into *stages*, in order. Stage `k` covers whatever of its own
//! items is still uncovered, by every set of options that does it (a search that branches on
//! the stage item with the fewest options that fit, as Algorithm X does, so each set is met
//! once); each set leads from a *state*, the set of items covered so far, to a new one.
//! States that several paths reach are counted once, with the number of paths: after the
//! last stage, the states in which every primary item is covered hold the count. This is
//! the frontier-based search of Minato and Iwashita (the state is what the stages to come
//! can see), with Algorithm X inside each stage.
//!
//! From both ends. When no option meets stages on both sides of a cut, the stages before it
//! are counted forward from the empty state and the stages after it backward, each side
//! growing the one with fewer states (as a bidirectional breadth-first search does), and the
//! two meet: a forward state and a backward state make solutions exactly when they are
//! complements, and then in the product of their numbers of paths. Each solution is counted
//! once: its options fall on one side each, by the stages they meet.
//!
//! # Lines
//!
//! Any cut of the items into stages gives the exact count; good stages keep the states few.
//! The method looks for *lines* first: a set `U` of items that every option meets in exactly
//! two (its complement `W` then meets every option once). Each option then joins two items of
//! `U`, and the connected pieces of `U` are the lines: no option meets two of them, every
//! stage (a line) is covered by options of its own, and a state is only which items of `W`
//! are covered. In a latin square's completion (items: cells, row-symbol and column-symbol
//! pairs; an option puts a symbol in a cell), `U` may be the cells and the row-symbol pairs,
//! and the lines are the rows. Such a `U` is a solution of a linear system over GF(2) (every
//! option meets it an even number of times, and every option meets it): the method finds the
//! kernel of the options' incidence matrix, and when it has at most [`MAX_KERNEL`]
//! dimensions, tries each of its vectors, keeping the `U` with the most lines (the smallest
//! largest line on ties). Without lines (secondary items, a larger kernel, none found) each
//! primary item is its own stage.
//!
//! # Limits
//!
//! The node limit counts the options tried inside stages (no more are tried); the time limit
//! and the cancel flag are polled every [`Config::CHECK_INTERVAL`] of them; the states stored are bounded by the
//! budget's `max_states` and by the memo's memory limit (`--memo-limit`), past which the
//! count stops ([`Stop::MemoryLimit`]). A count that stops has counted nothing: no solution
//! is known before the two sides meet.
//!
//! The capability table: secondary items yes (counted forward only), colors and
//! multiplicities no, costs ignored.

// The layers are hash maps with a fixed hasher (no random seed): their order is the same in
// every run, and no result depends on it (a layer's states are each expanded whole, and sums
// do not depend on their order).
#[allow(clippy::disallowed_types)]
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::ControlFlow;
use std::time::Instant;

use crate::config::{Basis, Config, Stop};
use crate::number::Count;
use crate::plumbing::Limits;
use crate::solver::Solver;

/// The most dimensions of the kernel the search for lines tries (`2^MAX_KERNEL` vectors).
pub const MAX_KERNEL: usize = 22;

/// The most candidate line sets (`U`) the search for lines scores.
const MAX_CANDIDATES: usize = 1 << 14;

/// The most items, and the most work (`options x items x words`, a bound on the
/// elimination's), the search for lines takes on: about 0.1 s at the most.
const MAX_LINE_ITEMS: usize = 1024;
const MAX_LINE_WORK: usize = 1 << 27;

/// The counters of a count by stages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrontierStats {
    /// Stages (lines, or single items when no lines were found).
    pub stages: u32,
    /// Whether the stages are lines (see the module documentation in the source,
    /// `frontier.rs`); otherwise each primary item is a stage.
    pub lines: bool,
    /// Stages counted forward; the others were counted backward.
    pub forward: u32,
    /// States stored, over all stages of both sides.
    pub states: u64,
    /// The most states held at once.
    pub peak_states: u64,
    /// The most bytes the states took at once (an estimate from their sizes).
    pub peak_bytes: u64,
}

/// A multiplicative hash for the states (words of bits): std's SipHash costs more than the
/// search here.
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        // The product's high half mixed into the low one: the table takes its slot from the
        // low bits, which a product alone leaves depending on the low bits of the words only.
        let wide = u128::from(self.0) * 0x9e37_79b9_7f4a_7c15;
        (wide >> 64) as u64 ^ wide as u64
    }
    fn write(&mut self, bytes: &[u8]) {
        // A slice of words comes here as its bytes: a word at a time.
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_usize(&mut self, w: usize) {
        self.write_u64(w as u64);
    }
}

/// A state as a key of the layers: words of bits, in an array for the small problems (no
/// allocation per state), boxed past 256 items.
trait Key: std::hash::Hash + Eq + std::borrow::Borrow<[u64]> + Clone {
    fn of(words: &[u64]) -> Self;
}

impl<const W: usize> Key for [u64; W] {
    fn of(words: &[u64]) -> Self {
        let mut k = [0u64; W];
        k.copy_from_slice(words);
        k
    }
}

impl Key for Box<[u64]> {
    fn of(words: &[u64]) -> Self {
        words.into()
    }
}

#[allow(clippy::disallowed_types)]
type Layer<K> = HashMap<K, Count, BuildHasherDefault<WordHasher>>;

/// A problem as the stages see it: options as bit sets of items, the stages, and what each
/// stage must have covered.
struct Plan {
    /// Words per state.
    words: usize,
    /// `masks[o * words..][..words]`: the items of option `o`.
    masks: Vec<u64>,
    /// The options of each item.
    item_options: Vec<Vec<u32>>,
    /// The items of each stage.
    stages: Vec<Vec<u32>>,
    /// Whether the stages are lines.
    lines: bool,
    /// `clean[j]`: no option meets stages both before `j` and from `j` on (a cut there).
    clean: Vec<bool>,
    /// Items that must be covered once forward stage `k` is done (every option holding them
    /// belongs to stage `k` or before), per stage.
    forward_due: Vec<Vec<u32>>,
    /// The same for the backward side: once stage `k` is done from the end.
    backward_due: Vec<Vec<u32>>,
    /// The primary items, as a state.
    primary: Vec<u64>,
    /// Per stage, its options as bits of one word, when it has at most 64 options and 64
    /// items (the fast search inside a stage).
    local: Vec<Option<Local>>,
}

/// A stage of at most 64 options and 64 items, as bits: the search inside it keeps the
/// options still live and the items still to cover in two words (as `kernels/bits.rs` does
/// for a whole problem).
struct Local {
    /// The stage's options (every option that holds one of its items).
    options: Vec<u32>,
    /// Per item of the stage (in the stage's order), the options that hold it.
    holders: Vec<u64>,
    /// Per option, the options it clashes with (sharing an item, itself included).
    clashes: Vec<u64>,
    /// Per option, the items of the stage it covers.
    covers: Vec<u64>,
}

impl Local {
    /// The stage `items` as bits, if it is small enough. `scratch` is a zeroed word per item,
    /// left zeroed.
    fn new(
        items: &[u32],
        item_options: &[Vec<u32>],
        options: &[Vec<u32>],
        scratch: &mut [u64],
    ) -> Option<Local> {
        let mut mine: Vec<u32> =
            items.iter().flat_map(|&i| item_options[i as usize].iter().copied()).collect();
        mine.sort_unstable();
        mine.dedup();
        if mine.len() > 64 || items.len() > 64 {
            return None;
        }
        // scratch[i]: the stage's options that hold item i.
        for (x, &o) in mine.iter().enumerate() {
            options[o as usize].iter().for_each(|&i| scratch[i as usize] |= 1 << x);
        }
        let holders = items.iter().map(|&i| scratch[i as usize]).collect();
        let clashes = mine
            .iter()
            .map(|&o| options[o as usize].iter().fold(0u64, |c, &i| c | scratch[i as usize]))
            .collect();
        let stage_bit = |i: u32| items.iter().position(|&j| j == i).map_or(0, |j| 1u64 << j);
        let covers = mine
            .iter()
            .map(|&o| options[o as usize].iter().fold(0, |c, &i| c | stage_bit(i)))
            .collect();
        for &o in &mine {
            options[o as usize].iter().for_each(|&i| scratch[i as usize] = 0);
        }
        Some(Local { options: mine, holders, clashes, covers })
    }
}

fn bit(set: &[u64], i: u32) -> bool {
    set[i as usize / 64] >> (i % 64) & 1 == 1
}

fn set_bit(set: &mut [u64], i: u32) {
    set[i as usize / 64] |= 1 << (i % 64);
}

impl Plan {
    /// The plan of a problem of `n_items` items (the first `n_primary` primary) and these
    /// options (0-based items).
    fn new(n_items: usize, n_primary: usize, options: &[Vec<u32>]) -> Plan {
        let words = n_items.div_ceil(64).max(1);
        let mut masks = vec![0u64; options.len() * words];
        let mut item_options = vec![Vec::new(); n_items];
        for (o, items) in options.iter().enumerate() {
            for &i in items {
                set_bit(&mut masks[o * words..][..words], i);
                item_options[i as usize].push(o as u32);
            }
        }
        let found = if n_primary == n_items { lines(n_items, options) } else { None };
        let lines = found.is_some();
        let stages = found.unwrap_or_else(|| (0..n_primary as u32).map(|i| vec![i]).collect());
        let m = stages.len();
        let mut stage_of = vec![u32::MAX; n_items];
        for (k, stage) in stages.iter().enumerate() {
            for &i in stage {
                stage_of[i as usize] = k as u32;
            }
        }
        // Each option's first and last stage; every option holds a primary item, and every
        // primary item is in a stage or (with lines) every option meets a line.
        let span: Vec<(u32, u32)> = options
            .iter()
            .map(|items| {
                let ks = items.iter().map(|&i| stage_of[i as usize]).filter(|&k| k != u32::MAX);
                ks.fold((u32::MAX, 0), |(lo, hi), k| (lo.min(k), hi.max(k)))
            })
            .collect();
        let mut clean = vec![true; m + 1];
        if n_primary < n_items {
            // Secondary items: the two sides could not be joined by complements.
            clean[..m].iter_mut().for_each(|c| *c = false);
        }
        // An option that meets stages `lo..=hi` forbids the cuts `lo + 1..=hi` (marked as a
        // difference array: linear in the options and the stages).
        let mut crossing = vec![0i64; m + 2];
        for &(lo, hi) in span.iter().filter(|(lo, hi)| lo < hi) {
            crossing[lo as usize + 1] += 1;
            crossing[hi as usize + 1] -= 1;
        }
        let mut open = 0;
        for (j, c) in clean.iter_mut().enumerate() {
            open += crossing[j];
            *c &= open == 0;
        }
        let mut forward_due = vec![Vec::new(); m];
        let mut backward_due = vec![Vec::new(); m];
        for i in 0..n_primary {
            if stage_of[i] != u32::MAX || m == 0 {
                continue;
            }
            let os = &item_options[i];
            let last = os.iter().map(|&o| span[o as usize].0).max().unwrap_or(0);
            let first = os.iter().map(|&o| span[o as usize].1).min().unwrap_or(m as u32 - 1);
            forward_due[last as usize].push(i as u32);
            backward_due[first as usize].push(i as u32);
        }
        let mut primary = vec![0u64; words];
        (0..n_primary as u32).for_each(|i| set_bit(&mut primary, i));
        let mut scratch = vec![0u64; n_items];
        let local = stages
            .iter()
            .map(|items| Local::new(items, &item_options, options, &mut scratch))
            .collect();
        Plan {
            words,
            masks,
            item_options,
            stages,
            lines,
            clean,
            forward_due,
            backward_due,
            primary,
            local,
        }
    }

    /// Words per state: `W`, or `words` when `W` is 0 (the sizes the compiler unrolls for).
    #[inline(always)]
    fn width<const W: usize>(&self) -> usize {
        if W == 0 {
            self.words
        } else {
            W
        }
    }

    /// Whether option `o` fits in `state` (none of its items covered).
    #[inline(always)]
    fn fits<const W: usize>(&self, state: &[u64], o: u32) -> bool {
        let n = self.width::<W>();
        let m = &self.masks[o as usize * n..][..n];
        let s = &state[..n];
        (0..n).all(|k| m[k] & s[k] == 0)
    }

    /// Covers option `o`'s items in `state`, or uncovers them.
    #[inline(always)]
    fn toggle<const W: usize>(&self, state: &mut [u64], o: u32) {
        let n = self.width::<W>();
        let m = &self.masks[o as usize * n..][..n];
        let s = &mut state[..n];
        (0..n).for_each(|k| s[k] ^= m[k]);
    }

    /// Every way to cover what is left of stage `k` from `state`, each given to `emit`.
    /// `Err` when the node poll says stop.
    fn expand<const W: usize>(
        &self,
        state: &mut [u64],
        k: usize,
        walk: &mut Walk<'_>,
        emit: &mut dyn FnMut(&[u64]) -> Result<(), Stop>,
    ) -> Result<(), Stop> {
        let mut best = None;
        let mut best_len = usize::MAX;
        for &i in &self.stages[k] {
            if bit(state, i) {
                continue;
            }
            let options = &self.item_options[i as usize];
            let len = options.iter().filter(|&&o| self.fits::<W>(state, o)).count();
            if len < best_len {
                best_len = len;
                best = Some(i);
                if len == 0 {
                    return Ok(());
                }
            }
        }
        let Some(i) = best else {
            return emit(state);
        };
        for &o in &self.item_options[i as usize] {
            if !self.fits::<W>(state, o) {
                continue;
            }
            walk.node()?;
            self.toggle::<W>(state, o);
            let r = self.expand::<W>(state, k, walk, emit);
            self.toggle::<W>(state, o);
            r?;
        }
        Ok(())
    }

    /// [`Plan::expand`] on a stage as bits: `live` its options that still fit, `todo` its
    /// items still to cover.
    fn expand_local<const W: usize>(
        &self,
        state: &mut [u64],
        local: &Local,
        live: u64,
        todo: u64,
        walk: &mut Walk<'_>,
        emit: &mut dyn FnMut(&[u64]) -> Result<(), Stop>,
    ) -> Result<(), Stop> {
        if todo == 0 {
            return emit(state);
        }
        let mut best = 0;
        let mut best_len = u32::MAX;
        let mut t = todo;
        while t != 0 {
            let j = t.trailing_zeros() as usize;
            t &= t - 1;
            let len = (live & local.holders[j]).count_ones();
            if len < best_len {
                best_len = len;
                best = j;
                if len == 0 {
                    return Ok(());
                }
            }
        }
        let mut choices = live & local.holders[best];
        while choices != 0 {
            let x = choices.trailing_zeros() as usize;
            choices &= choices - 1;
            walk.node()?;
            let o = local.options[x];
            self.toggle::<W>(state, o);
            let r = self.expand_local::<W>(
                state,
                local,
                live & !local.clashes[x],
                todo & !local.covers[x],
                walk,
                emit,
            );
            self.toggle::<W>(state, o);
            r?;
        }
        Ok(())
    }

    /// The layer after stage `k` from `layer`; `due` are the items it must have covered.
    /// [`Stop::MemoryLimit`] when it would take more than `room` (states, bytes).
    fn step<K: Key, const W: usize>(
        &self,
        layer: &Layer<K>,
        k: usize,
        due: &[u32],
        room: (u64, u64),
        walk: &mut Walk<'_>,
    ) -> Result<Layer<K>, Stop> {
        let mut next = Layer::<K>::default();
        let mut state = vec![0u64; self.words];
        let entry = entry_bytes::<K>(self.words);
        for (from, count) in layer {
            state.copy_from_slice(from.borrow());
            let mut emit = |s: &[u64]| {
                if !due.iter().all(|&i| bit(s, i)) {
                    return Ok(());
                }
                if let Some(c) = next.get_mut(s) {
                    *c += count;
                    return Ok(());
                }
                // A table that grows holds its old and its new slots for a moment.
                let slots = next.capacity() as u64;
                let grows = next.len() as u64 == slots;
                let bytes = if grows { slots.max(4) * 3 * entry } else { slots * entry };
                if next.len() as u64 >= room.0 || bytes > room.1 {
                    return Err(Stop::MemoryLimit);
                }
                next.insert(K::of(s), count.clone());
                Ok(())
            };
            match &self.local[k] {
                Some(local) => {
                    let fit = local
                        .options
                        .iter()
                        .enumerate()
                        .filter(|(_, &o)| self.fits::<W>(&state, o));
                    let live = fit.fold(0u64, |l, (x, _)| l | 1 << x);
                    let open = self.stages[k].iter().enumerate().filter(|(_, &i)| !bit(&state, i));
                    let todo = open.fold(0u64, |t, (j, _)| t | 1 << j);
                    self.expand_local::<W>(&mut state, local, live, todo, walk, &mut emit)?;
                }
                None => self.expand::<W>(&mut state, k, walk, &mut emit)?,
            }
        }
        Ok(next)
    }
}

/// The bytes of one slot of a layer: the key and the count, the table's control byte, and
/// the key's words when they are boxed.
fn entry_bytes<K>(words: usize) -> u64 {
    let boxed = if std::mem::size_of::<K>() == words * 8 { 0 } else { 16 + words * 8 };
    (std::mem::size_of::<(K, Count)>() + 1 + boxed) as u64
}

/// The bytes a layer takes.
fn layer_bytes<K>(layer: &Layer<K>, words: usize) -> u64 {
    layer.capacity() as u64 * entry_bytes::<K>(words)
}

/// The node count and its poll.
struct Walk<'a> {
    nodes: u64,
    next_poll: u64,
    limits: Limits<'a>,
    tick: &'a mut dyn FnMut(u64) -> ControlFlow<()>,
}

impl Walk<'_> {
    #[inline]
    fn node(&mut self) -> Result<(), Stop> {
        if self.nodes >= self.limits.max_nodes {
            return Err(Stop::NodeLimit);
        }
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.next_poll = self.nodes + Config::CHECK_INTERVAL;
            if let Some(stop) = self.limits.expired() {
                return Err(stop);
            }
            if (self.tick)(self.nodes).is_break() {
                return Err(Stop::Cancelled);
            }
        }
        Ok(())
    }
}

/// The lines of a problem without secondary items, if it has any (see the module
/// documentation): the items of each line, lines in order of their first item.
pub(crate) fn lines(n: usize, options: &[Vec<u32>]) -> Option<Vec<Vec<u32>>> {
    let words = n.div_ceil(64);
    if n > MAX_LINE_ITEMS || options.len() * n * words > MAX_LINE_WORK || options.is_empty() {
        return None;
    }
    let mut masks = vec![0u64; options.len() * words];
    for (o, items) in options.iter().enumerate() {
        items.iter().for_each(|&i| set_bit(&mut masks[o * words..][..words], i));
    }
    let masks = &masks[..];
    // Reduced row echelon form of the incidence matrix over GF(2).
    let mut pivots: Vec<(u32, Vec<u64>)> = Vec::new();
    for row in masks.chunks(words) {
        let mut r = row.to_vec();
        for (p, v) in &pivots {
            if bit(&r, *p) {
                r.iter_mut().zip(v).for_each(|(a, b)| *a ^= b);
            }
        }
        let Some(w) = r.iter().position(|&x| x != 0) else { continue };
        let p = (w * 64) as u32 + r[w].trailing_zeros();
        for (_, v) in &mut pivots {
            if bit(v, p) {
                v.iter_mut().zip(&r).for_each(|(a, b)| *a ^= b);
            }
        }
        pivots.push((p, r));
        if n - pivots.len() == 0 {
            return None;
        }
    }
    let mut is_pivot = vec![false; n];
    pivots.iter().for_each(|(p, _)| is_pivot[*p as usize] = true);
    let free: Vec<u32> = (0..n as u32).filter(|&i| !is_pivot[i as usize]).collect();
    if free.is_empty() || free.len() > MAX_KERNEL {
        return None;
    }
    let basis: Vec<Vec<u64>> = free
        .iter()
        .map(|&f| {
            let mut x = vec![0u64; words];
            set_bit(&mut x, f);
            for (p, v) in &pivots {
                if bit(v, f) {
                    set_bit(&mut x, *p);
                }
            }
            x
        })
        .collect();
    // Every vector of the kernel, in Gray code order; a candidate meets every option twice.
    let mut x = vec![0u64; words];
    let mut best: Option<(usize, usize, Vec<Vec<u32>>)> = None;
    let mut candidates = 0;
    for g in 1u64..1 << basis.len() {
        let b = &basis[g.trailing_zeros() as usize];
        x.iter_mut().zip(b).for_each(|(a, b)| *a ^= b);
        let twice = masks
            .chunks(words)
            .all(|m| m.iter().zip(&x).map(|(a, b)| (a & b).count_ones()).sum::<u32>() == 2);
        if !twice {
            continue;
        }
        let pieces = pieces(n, options, &x);
        let largest = pieces.iter().map(Vec::len).max().unwrap_or(0);
        let better = match &best {
            None => true,
            Some((count, big, _)) => {
                pieces.len() > *count || (pieces.len() == *count && largest < *big)
            }
        };
        if better {
            best = Some((pieces.len(), largest, pieces));
        }
        candidates += 1;
        if candidates == MAX_CANDIDATES {
            break;
        }
    }
    best.filter(|(count, _, _)| *count >= 2).map(|(_, _, pieces)| pieces)
}

/// The connected pieces of the items of `u`, each option joining its two items in `u`.
fn pieces(n: usize, options: &[Vec<u32>], u: &[u64]) -> Vec<Vec<u32>> {
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn find(parent: &mut [u32], mut a: u32) -> u32 {
        while parent[a as usize] != a {
            parent[a as usize] = parent[parent[a as usize] as usize];
            a = parent[a as usize];
        }
        a
    }
    for items in options {
        let mut two = items.iter().filter(|&&i| bit(u, i));
        if let (Some(&a), Some(&b)) = (two.next(), two.next()) {
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            parent[ra as usize] = rb;
        }
    }
    let mut index = vec![u32::MAX; n];
    let mut out: Vec<Vec<u32>> = Vec::new();
    for i in (0..n as u32).filter(|&i| bit(u, i)) {
        let r = find(&mut parent, i) as usize;
        if index[r] == u32::MAX {
            index[r] = out.len() as u32;
            out.push(Vec::new());
        }
        out[index[r] as usize].push(i);
    }
    out
}

/// What a count by stages gives back.
pub(crate) struct FrontierOutcome {
    pub(crate) count: Count,
    pub(crate) stop: Stop,
    pub(crate) stats: FrontierStats,
}

impl Solver {
    /// Each option's items, numbered from 0 (primary items first).
    fn item_lists(&self) -> Vec<Vec<u32>> {
        let arena = &self.arena;
        let top = |x: usize| arena.nodes[x].top as u32 - 1;
        arena.option_nodes().map(|r| r.map(top).collect()).collect()
    }

    /// How many lines the problem's options fall into, when they do and the count by stages
    /// takes the problem (no secondary items, colors or multiplicities): what `auto` looks
    /// at before it hands a count over from the memoised search.
    pub(crate) fn line_count(&self) -> Option<usize> {
        let arena = &self.arena;
        let whole = self.prefix.is_empty();
        if !whole
            || arena.n_items != arena.n_primary
            || self.check(crate::gate::Method::Frontier).is_err()
        {
            return None;
        }
        lines(arena.n_items as usize, &self.item_lists()).map(|l| l.len())
    }

    /// The count by stages of this solver's problem (the gate has been checked: no colors,
    /// no multiplicities), within the configuration's limits and `limit_bytes` of states.
    /// `progress` is called every [`Config::CHECK_INTERVAL`] nodes, with
    /// [`Solver::progress`] the fraction of stages done.
    pub(crate) fn count_frontier(
        &mut self,
        limit_bytes: usize,
        progress: &mut dyn FnMut(&Solver) -> ControlFlow<()>,
    ) -> FrontierOutcome {
        let started = Instant::now();
        self.stats = crate::Stats::default();
        let options = self.item_lists();
        let (n, n_primary) = (self.arena.n_items as usize, self.arena.n_primary as usize);
        if options.len() * n.div_ceil(64) * 8 > limit_bytes {
            // The options as bit sets alone would pass the memory limit.
            let stats = FrontierStats::default();
            return FrontierOutcome { count: Count::default(), stop: Stop::MemoryLimit, stats };
        }
        let plan = Plan::new(n, n_primary, &options);
        self.basis = Basis::Stages;
        let outcome = match plan.words {
            1 => self.run_frontier::<[u64; 1], 1>(&plan, limit_bytes, progress),
            2 => self.run_frontier::<[u64; 2], 2>(&plan, limit_bytes, progress),
            3 => self.run_frontier::<[u64; 3], 3>(&plan, limit_bytes, progress),
            4 => self.run_frontier::<[u64; 4], 4>(&plan, limit_bytes, progress),
            _ => self.run_frontier::<Box<[u64]>, 0>(&plan, limit_bytes, progress),
        };
        self.basis = Basis::Search;
        self.stats.elapsed += started.elapsed();
        outcome
    }

    /// [`Solver::count_frontier`] with states of type `K`.
    fn run_frontier<K: Key, const W: usize>(
        &mut self,
        plan: &Plan,
        limit_bytes: usize,
        progress: &mut dyn FnMut(&Solver) -> ControlFlow<()>,
    ) -> FrontierOutcome {
        let config = self.config.clone();
        let m = plan.stages.len();
        let mut stats =
            FrontierStats { stages: m as u32, lines: plan.lines, ..FrontierStats::default() };
        let max_states = config.budget.max_states.map_or(u64::MAX, |s| s as u64);
        let words = plan.words;
        let done = std::cell::Cell::new(0usize);
        let fraction = |d: usize| if m == 0 { 1.0 } else { d as f64 / m as f64 };
        let result = {
            let mut tick = |nodes: u64| {
                self.stats.nodes = nodes;
                self.bits_fraction = Some(fraction(done.get()));
                progress(self)
            };
            let mut walk = Walk {
                nodes: 0,
                next_poll: Config::CHECK_INTERVAL,
                limits: Limits::new(&config),
                tick: &mut tick,
            };
            let start = K::of(&vec![0u64; plan.words]);
            let mut fwd = Layer::<K>::default();
            fwd.insert(start.clone(), Count::from(1u64));
            let mut bwd = Layer::<K>::default();
            bwd.insert(start, Count::from(1u64));
            let (mut f, mut b) = (0usize, m);
            let run = loop {
                if f == b {
                    break Ok(());
                }
                let can_forward = (f + 1..=b).any(|s| plan.clean[s]);
                let can_backward = (f..b).any(|s| plan.clean[s]);
                let forward = can_forward && (fwd.len() <= bwd.len() || !can_backward);
                let held = (fwd.len() + bwd.len()) as u64;
                let bytes = layer_bytes(&fwd, words) + layer_bytes(&bwd, words);
                let room =
                    (max_states.saturating_sub(held), (limit_bytes as u64).saturating_sub(bytes));
                let next = if forward {
                    plan.step::<K, W>(&fwd, f, &plan.forward_due[f], room, &mut walk)
                } else {
                    plan.step::<K, W>(&bwd, b - 1, &plan.backward_due[b - 1], room, &mut walk)
                };
                let next = match next {
                    Ok(next) => next,
                    Err(stop) => break Err(stop),
                };
                stats.states += next.len() as u64;
                stats.peak_states = stats.peak_states.max(held + next.len() as u64);
                let bytes = bytes + layer_bytes(&next, words);
                stats.peak_bytes = stats.peak_bytes.max(bytes);
                if forward {
                    fwd = next;
                    f += 1;
                } else {
                    bwd = next;
                    b -= 1;
                }
                done.set(f + m - b);
                if fwd.is_empty() || bwd.is_empty() {
                    break Ok(());
                }
            };
            let nodes = walk.nodes;
            stats.forward = f as u32;
            (run, nodes, join(plan, &fwd, &bwd, b == m))
        };
        let (run, nodes, total) = result;
        self.stats.nodes = nodes;
        self.bits_fraction = None;
        let (count, stop) = match run {
            Ok(()) => (total, Stop::Exhausted),
            Err(stop) => (Count::default(), stop),
        };
        if stop == Stop::Exhausted {
            self.stats.solutions = count.to_u128().unwrap_or(u128::MAX);
        }
        self.last_stop = stop;
        FrontierOutcome { count, stop, stats }
    }
}

/// The solutions the two sides make: with the backward side empty (`forward_only`), the
/// forward states that cover every primary item; otherwise the pairs of complementary
/// states, each the product of its two numbers of paths.
fn join<K: Key>(plan: &Plan, fwd: &Layer<K>, bwd: &Layer<K>, forward_only: bool) -> Count {
    let mut total = Count::default();
    if forward_only {
        for (s, c) in fwd {
            if s.borrow().iter().zip(&plan.primary).all(|(s, p)| s & p == *p) {
                total += c;
            }
        }
        return total;
    }
    let mut want = vec![0u64; plan.words];
    for (s, c) in fwd {
        want.iter_mut()
            .zip(s.borrow().iter().zip(&plan.primary))
            .for_each(|(w, (s, p))| *w = !s & p);
        if let Some(d) = bwd.get(&want[..]) {
            total += &product(c, d);
        }
    }
    total
}

fn product(a: &Count, b: &Count) -> Count {
    match (a.to_u128(), b.to_u128()) {
        (Some(x), Some(y)) if x.checked_mul(y).is_some() => Count::from(x * y),
        _ => Count::from(a.to_biguint() * b.to_biguint()),
    }
}
