//! Counting with multiplicities by memoisation: Algorithm M that remembers the count of every
//! remaining problem it meets (no anchor does this: Knuth's DLX6 memoises Algorithm X only).
//!
//! # The remaining problem, and its key
//!
//! Below a node of Algorithm M, the solutions are the sets of *available* options (those not
//! hidden) that cover every active primary item between its remaining bounds: at most
//! `BOUND` more times, and at least `BOUND - SLACK`. Covering hides an option for good in a
//! subtree; so does *tweaking*, which takes the options of a level's item out one after the
//! other. A tweaked option is out because the search has decided, for that item, that its
//! solutions use none of the options above the current one in the item's list: the state
//! depends on how far down each item's list the tweaks have gone, which no small key could
//! hold if many items were left half done.
//!
//! So this search never leaves an item half done before it looks a state up: once it has
//! branched on an item that stays active (its `BOUND` is not yet 0 and it did not take the
//! null move), the next level branches on the same item again, until the item is *closed*
//! (covered when `BOUND` reaches 0, or taken out by the null move once its lower bound is
//! met). Every order of items is a correct Algorithm M (each level partitions the solutions
//! of its remaining problem by the first option of its item that they use, or none), so the
//! count is exact; only the tree differs from Knuth's. At a node where no item is half done
//! (*clean*), an option is available exactly when
//!
//! - every primary item of it is active (a closed item's options are all hidden: covered,
//!   or tweaked before its null move),
//! - and every secondary item of it is still usable with its color (DLX6's code: 0 when
//!   covered or when no available option holds it, 1 when free, `1 + c` when purified with
//!   color `c`),
//!
//! so the remaining problem is a function of one field per primary item, its `BOUND` (0 when
//! it is inactive; its lower bound is `BOUND - SLACK`), and the secondary codes. That is the
//! key (`KeyLayout::with_fields` in `memo.rs`); a half-done node is searched without a
//! look-up, and not stored.
//!
//! A prefix ([`Solver::set_prefix`]) walks Knuth's own tree, which may leave several items
//! half done: the search finishes each of them first, in the order the prefix opened them.
//!
//! # The ZDD
//!
//! A level's moves are its item's options in list order, then the null move, which adds no
//! option. The diagram of a level is the chain of its options' nodes (each `hi` the subtree
//! under the option), whose last `lo` is the null move's subtree: that subtree is searched
//! last, so the options' subtrees wait in a list until the level is done.
//!
//! # Invariants
//!
//! With (A1)-(A3) of `mcc.rs` and (M2)-(M3) of `memo.rs`:
//!
//! - **(M4)** Every half-done item (active, with a level on the path that tweaks it) is the
//!   item of the level above or one the prefix opened; at a node that looks its state up,
//!   none is half done (checked at every such node in the tests' builds).
//! - **(M5)** The key of such a node holds, for every primary item, its `BOUND` when it is
//!   active and 0 otherwise, then the secondary codes.

use std::ops::ControlFlow;

use super::mcc_state::{enter, in_limits, leave, lend, make_move, tweak, unmove, Mcc};
use super::memo::{hash_key, partial, Frame, KeyLayout, MemoConfig, MemoError};
use super::memo::{MemoOutcome, Watch, Work};
use super::memo::{MemoStats, Step, Store, Value};
use crate::ids::OptionId;
use crate::number::Count;
use crate::solver::Solver;
use crate::zdd::{Zdd, ZDD_FALSE};

impl Solver {
    /// The memoised search of Algorithm M, with the entries in `table`; see the module
    /// documentation and [`Solver::count_memo`].
    #[inline(never)]
    pub(crate) fn memo_run_m<const COLORED: bool, S: Store>(
        &mut self,
        memo: &MemoConfig,
        table: &mut S,
        progress: &mut dyn FnMut(&Solver, &MemoStats) -> ControlFlow<()>,
    ) -> Result<MemoOutcome, MemoError> {
        let layout = self.key_layout();
        let words = layout.words;
        let mut zdd = memo.zdd.then(Zdd::new);
        let mut stats = MemoStats::default();
        let cancel = self.config.budget.cancel.clone();
        let mut watch = Watch::new(&self.config, cancel.as_deref());
        let n = self.arena.n_items;
        let has_secondary = self.arena.n_items > self.arena.n_primary;
        let mut updates = 0u64;

        if self.apply_prefix_m().is_err() {
            let applied = self.level;
            self.undo_levels_m(applied);
            self.level = 0;
            return Ok(MemoOutcome::empty(stats, zdd.map(|_| Zdd::new())));
        }
        let floor = self.level;
        let mut m = self.mcc.take().expect("(A1) Algorithm M's state");
        // The items the prefix left half done, in the order it opened them (M4).
        let mut open: Vec<u32> = Vec::new();
        for l in 0..floor {
            let x = self.choice[l];
            let item = if x <= n { x } else { self.arena.node(x).top as u32 };
            if m.first_tweak[l] != 0 && is_active(&self.arena, &m, item) && !open.contains(&item) {
                open.push(item);
            }
        }
        // The fields of the key, kept up to date move by move (M5); the secondary codes are
        // read at each node that looks up.
        let mut key = vec![0u64; words];
        let mut i = self.arena.item(0).next;
        while i != 0 {
            layout.set_field(&mut key, i, m.bound[i as usize]);
            i = self.arena.item(i).next;
        }
        let depth = self.choice.len();
        let mut keys = vec![0u64; depth * words];
        // The key of a child looked up before its move is made (see `Frame::ahead`).
        let mut ahead = vec![0u64; words];
        let mut frames = vec![Frame::default(); depth];
        // With a ZDD: the finished moves of the open levels, waiting for their level's chain.
        let mut pending: Vec<(OptionId, u32)> = Vec::new();
        let mut level = floor;
        let mut nodes = 0u64;
        // Plain-search nodes the hits so far have saved.
        let mut saved = 0u64;

        // The value of the subtree just finished or looked up, and where the loop is.
        let mut child = Value::DEAD;
        let mut step = Step::Enter;

        macro_rules! finish {
            ($stop:expr) => {{
                // Levels `floor..level` have their item entered and a move made.
                let count = partial(&frames[floor..level]);
                let work = Work { nodes, saved, updates };
                self.mcc = Some(m);
                return Ok(self.memo_stopped($stop, count, level, work, stats, table));
            }};
        }
        // The level is done (its item restored): its value becomes `child`, stored when the
        // level's state is a key (M2).
        macro_rules! close_level {
            () => {{
                let f = &mut frames[level];
                if let Some(z) = zdd.as_mut() {
                    // The null move's subtree (or ⊥) at the bottom, the options above it.
                    let mut node = f.zdd;
                    for (option, hi) in pending.drain(f.pending..) {
                        node = z.push(option, node, hi);
                    }
                    f.zdd = node;
                }
                child = f.value();
                if f.store {
                    let at = level * words;
                    table.insert(f.hash, &keys[at..at + words], &child);
                    stats.entries += 1;
                }
                step = Step::Return;
            }};
        }

        loop {
            match step {
                Step::Enter => {
                    let stop = match watch.enter(&mut nodes) {
                        Ok(false) => None,
                        Ok(true) => {
                            let (work, z) = (Work { nodes, saved, updates }, zdd.as_ref());
                            lend!(
                                self,
                                m,
                                self.memo_look(&watch, level, work, &mut stats, table, z, progress)
                            )
                        }
                        Err(stop) => Some(stop),
                    };
                    if let Some(stop) = stop {
                        finish!(stop);
                    }
                    #[cfg(any(test, feature = "check-invariants", debug_assertions))]
                    if crate::checks::every_node() {
                        self.arena.check_invariants();
                        super::mcc_state::check_path(&self.arena, &m, &self.choice[..level]);
                    }
                    if self.arena.item(0).next == 0 {
                        // No primary item is active: a solution (a node, counted above).
                        child = Value::LEAF;
                        step = Step::Return;
                        continue;
                    }
                    // The item to continue (M4): the level above's, or one the prefix opened.
                    let parent = (level > floor).then(|| {
                        let x = self.choice[level - 1];
                        (x, frames[level - 1].item)
                    });
                    let half_done = match parent {
                        Some((x, item)) if x != item && m.bound[item as usize] > 0 => Some(item),
                        _ => open.iter().copied().find(|&i| is_active(&self.arena, &m, i)),
                    };
                    let (item, hash, store) = match half_done {
                        Some(item) => {
                            if memo_choose(&self.arena, &m).1 <= 0 {
                                // Some item can no longer get the options it needs.
                                child = Value::DEAD;
                                step = Step::Return;
                                continue;
                            }
                            (item, 0, false)
                        }
                        None => {
                            #[cfg(any(test, feature = "check-invariants", debug_assertions))]
                            if crate::checks::every_node() {
                                check_clean(&self.arena, &m, &self.choice[..level]);
                                let mut scan = vec![0u64; words];
                                let mut i = self.arena.item(0).next;
                                while i != 0 {
                                    layout.set_field(&mut scan, i, m.bound[i as usize]);
                                    i = self.arena.item(i).next;
                                }
                                assert_eq!(scan, key, "(M5) the key's fields");
                            }
                            let (hash, found) =
                                self.look_up(&layout, &key, &mut keys, level, table);
                            if let Some(value) = found {
                                child = stats.hit(&mut saved, value);
                                step = Step::Return;
                                continue;
                            }
                            let (best, least) = memo_choose(&self.arena, &m);
                            if least <= 0 {
                                child = Value::DEAD;
                                table.insert(hash, &keys[level * words..][..words], &child);
                                stats.entries += 1;
                                step = Step::Return;
                                continue;
                            }
                            (best, hash, true)
                        }
                    };
                    let score = degree(&self.arena, &m, item);
                    updates += enter::<COLORED>(&mut self.arena, &mut m, level, item, score);
                    // Covered when its BOUND reaches 0, else still active.
                    layout.set_field(&mut key, item, m.bound[item as usize]);
                    // A level whose item is covered now closes it with every option: without
                    // secondary items, each child's key is known before its move is made.
                    let closes = !has_secondary
                        && m.bound[item as usize] == 0
                        && open.iter().all(|&i| !is_active(&self.arena, &m, i));
                    let f = &mut frames[level];
                    f.item = item;
                    f.count = Count::ZERO;
                    f.plain = 1;
                    f.zdd = ZDD_FALSE;
                    f.hash = hash;
                    f.store = store;
                    f.pending = pending.len();
                    f.ahead = closes;
                    self.choice[level] = self.arena.node(item).down;
                    step = Step::Advance;
                }
                Step::Advance => {
                    let x = self.choice[level];
                    let item = frames[level].item;
                    if !in_limits(&self.arena, &m, item, x) {
                        leave::<COLORED>(&mut self.arena, &mut m, level, item);
                        layout.set_field(&mut key, item, m.bound[item as usize]);
                        close_level!();
                        continue;
                    }
                    if frames[level].ahead && x != item && !watch.full(nodes + 1) {
                        // The child is a state with a key: look it up before making the move.
                        ahead.copy_from_slice(&key);
                        self.set_fields_of(&layout, &m, x, 1, &mut ahead);
                        if let Some(value) = table.find(hash_key(&ahead), &ahead) {
                            nodes += 1;
                            let value = stats.hit(&mut saved, value);
                            frames[level].add(&value);
                            if !value.count.is_zero() && zdd.is_some() {
                                pending.push((self.arena.option_of(x), value.zdd));
                            }
                            // The moves after it expect it tweaked, as the move would have.
                            if m.first_tweak[level] != 0 {
                                updates += tweak::<COLORED>(&mut self.arena, x, false);
                            }
                            self.choice[level] = self.arena.node(x).down;
                            continue;
                        }
                    }
                    updates += make_move::<COLORED>(&mut self.arena, &mut m, item, x);
                    if x == item {
                        // The null move takes the item out.
                        layout.set_field(&mut key, item, 0);
                    } else {
                        self.set_fields_of(&layout, &m, x, 0, &mut key);
                    }
                    level += 1;
                    step = Step::Enter;
                }
                Step::Return => {
                    if level == floor {
                        let work = Work { nodes, saved, updates };
                        self.mcc = Some(m);
                        return Ok(self.memo_done(child, floor, work, stats, table, zdd));
                    }
                    level -= 1;
                    let x = self.choice[level];
                    let item = unmove::<COLORED>(&mut self.arena, &mut m, x);
                    if x == item {
                        layout.set_field(&mut key, item, m.bound[item as usize]);
                    } else {
                        self.set_fields_of(&layout, &m, x, 0, &mut key);
                    }
                    frames[level].add(&child);
                    if !child.count.is_zero() && zdd.is_some() {
                        if x == item {
                            // The null move: its solutions add no option (one per level).
                            frames[level].zdd = child.zdd;
                        } else {
                            pending.push((self.arena.option_of(x), child.zdd));
                        }
                    }
                    if zdd.as_ref().is_some_and(|z| z.bytes() > memo.limit_bytes) {
                        leave::<COLORED>(&mut self.arena, &mut m, level, item);
                        // (The key is not needed any more.)
                        let nodes = zdd.as_ref().map_or(0, |z| z.node_count() as u64);
                        self.mcc = Some(m);
                        self.undo_levels_m(level);
                        self.level = 0;
                        return Err(MemoError::ZddTooLarge {
                            nodes,
                            limit_bytes: memo.limit_bytes,
                        });
                    }
                    if x == item {
                        // The null move is a level's last.
                        leave::<COLORED>(&mut self.arena, &mut m, level, item);
                        layout.set_field(&mut key, item, m.bound[item as usize]);
                        close_level!();
                        continue;
                    }
                    self.choice[level] = self.arena.node(x).down;
                    step = Step::Advance;
                }
            }
        }
    }
}

impl Solver {
    /// Writes into `key` the fields of the primary items of option node `x`'s option other
    /// than `x`'s own item, from their `BOUND`s (0 once covered) less `taken`: after the
    /// option is taken or given back (`taken` 0), or as they will be once it is taken, before
    /// it is (`taken` 1) (M5).
    #[inline(always)]
    fn set_fields_of(&self, layout: &KeyLayout, m: &Mcc, x: u32, taken: u32, key: &mut [u64]) {
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
                layout.set_field(key, item, m.bound[item as usize] - taken);
            }
            p += 1;
        }
    }
}

/// The item the memoised search branches on at a node that looks its state up, and the
/// least branching degree of the active items (0 or less: the state has no solution).
///
/// The first active item (in the order of the problem's items) with one move left if there
/// is one, else the first active item. A fixed order keeps the states met few, as a ZDD's
/// order of variables does: choosing by least degree (Knuth's rule, which the plain search
/// keeps) moved between the items of two sides of the problem and met 22 times the states on
/// the 8 x 8 matrices of `mult_a001499_6.dlx`'s family (769,308 nodes against 54,385), and
/// 98 times on 10 x 10; the queens with 1 or 2 a rank and file, where it met 1.3 to 1.8 times
/// fewer states, are not a problem the memo pays on.
#[inline(always)]
fn memo_choose(arena: &crate::arena::Arena, m: &Mcc) -> (u32, i64) {
    let first = arena.item(0).next;
    let mut forced = 0;
    let mut least = i64::MAX;
    let mut k = first;
    while k != 0 {
        let b = m.bound[k as usize];
        let s = m.slack[k as usize].min(b);
        let t = i64::from(arena.len(k)) + i64::from(s) - i64::from(b) + 1;
        if t <= 0 {
            return (k, t);
        }
        if t < least {
            least = t;
        }
        if t == 1 && forced == 0 {
            forced = k;
        }
        k = arena.item(k).next;
    }
    (if forced != 0 { forced } else { first }, least)
}

/// Whether primary item `i` is active: its `BOUND` is not 0 and it is in the active list
/// (not taken out by a null move). A removed item's neighbours never point back to it
/// (strict LIFO, (I4)).
fn is_active(arena: &crate::arena::Arena, m: &Mcc, i: u32) -> bool {
    m.bound[i as usize] > 0 && arena.item(arena.item(i).prev).next == i
}

/// Checks (M4) at a node that looks its state up: no active item has a tweaked option on
/// the path `choice`.
///
/// # Panics
/// With the invariant's number.
#[cfg(any(test, feature = "check-invariants", debug_assertions))]
fn check_clean(arena: &crate::arena::Arena, m: &Mcc, choice: &[u32]) {
    for (l, &x) in choice.iter().enumerate() {
        let item = if x <= arena.n_items { x } else { arena.node(x).top as u32 };
        assert!(
            m.first_tweak[l] == 0 || !is_active(arena, m, item),
            "(M4) item {item}, tweaked at level {l}, is half done at a node that looks up"
        );
    }
}

/// The branching degree of item `i` (Knuth's `LEN + s - BOUND + 1`, `s = min(BOUND,
/// SLACK)`), at least 1 here: the level's number of moves.
fn degree(arena: &crate::arena::Arena, m: &Mcc, i: u32) -> u32 {
    let b = m.bound[i as usize];
    let s = m.slack[i as usize].min(b);
    let t = i64::from(arena.len(i)) + i64::from(s) - i64::from(b) + 1;
    t.clamp(1, i64::from(u32::MAX)) as u32
}
