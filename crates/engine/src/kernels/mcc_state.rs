//! Algorithm M's state beside the arena (Knuth's DLX3: `BOUND`, `SLACK`, the tweak chains)
//! and its moves on the links, shared by the plain loop (`mcc.rs`), the loop on bit sets
//! (`mcc_bits.rs`) and the memoised loop (`mcc_memo.rs`). The algorithm and its invariants
//! A1-A3 are described with [the loop](super::mcc); `check_path` checks them.

use super::mcc_bits::MccBits;

/// Evaluates `$e` with Algorithm M's state `$m` lent back to the solver `$solver` (the
/// callbacks and helpers that take the solver find it there), then takes it back: the loops
/// of `mcc.rs` and `mcc_memo.rs` hold the state in a local while they run (A1).
macro_rules! lend {
    ($solver:expr, $m:ident, $e:expr) => {{
        $solver.mcc = Some($m);
        let result = $e;
        $m = $solver.mcc.take().expect("(A1) Algorithm M's state");
        result
    }};
}
use crate::arena::Arena;
use crate::config::Heuristic;
use crate::problem::Problem;
pub(crate) use lend;

/// The state Algorithm M keeps besides the arena: bounds, and per level the tweak chain's head
/// and the branching degree.
#[derive(Clone, Debug)]
pub(crate) struct Mcc {
    /// Knuth's `BOUND`, per arena item (primary items only): how many more options may cover
    /// it. See (A1).
    pub(crate) bound: Vec<u32>,
    /// Knuth's `SLACK`: `hi - lo`, per arena item; never changes.
    pub(crate) slack: Vec<u32>,
    /// `hi` per arena item (for the pristine check).
    pub(crate) hi: Vec<u32>,
    /// Per level: `FIRST_TWEAK`, the first node tweaked (the item itself when its list was
    /// empty), or 0 when the level covers its item and tries its options as Algorithm X
    /// does. See (A3).
    pub(crate) first_tweak: Vec<u32>,
    /// Per level: the branching degree of its item (the number of moves at that level).
    pub(crate) score: Vec<u32>,
    /// The deepest a search can go: every option at most once on a path, every option a
    /// primary item's `BOUND` lower, and at most one null move per primary item.
    pub(crate) depth: usize,
    /// Scratch: the option nodes of the solution being reported.
    pub(crate) sol: Vec<u32>,
    /// The number of primary items.
    pub(crate) n_primary: usize,
    /// The problem on bit sets, when that kernel takes it (see `mcc_bits.rs`); out of here
    /// while it counts.
    pub(crate) bits: Option<Box<MccBits>>,
}

impl Mcc {
    /// The state for `problem`, or `None` when it has no bounds (Algorithm X or C then).
    pub(crate) fn new(problem: &Problem, arena: &Arena) -> Option<Box<Mcc>> {
        if !problem.has_bounds() {
            return None;
        }
        let n = arena.n_items as usize;
        let n1 = arena.n_primary as usize;
        let mut bound = vec![0u32; n + 2];
        let mut slack = vec![0u32; n + 2];
        let mut total: u64 = 0;
        for i in 1..=n1 {
            let (lo, hi) = problem.item_bounds(arena.item_ids[i]).unwrap_or((1, 1));
            bound[i] = hi;
            slack[i] = hi - lo;
            total += u64::from(hi);
        }
        let depth = total.min(problem.option_count() as u64) as usize + n1 + 1;
        Some(Box::new(Mcc {
            hi: bound.clone(),
            bound,
            slack,
            first_tweak: vec![0; depth],
            score: vec![0; depth],
            depth,
            sol: Vec::new(),
            n_primary: n1,
            bits: MccBits::new(problem, arena).map(Box::new),
        }))
    }

    /// `hi` of the primary items, in arena order (items `1..=N1`).
    pub(crate) fn primary_hi(&self) -> &[u32] {
        &self.hi[1..=self.n_primary]
    }

    /// Whether every `BOUND` is back to `hi` (the bounds' part of (I5)).
    pub(crate) fn is_pristine(&self) -> bool {
        self.bound == self.hi
    }
}

/// The item Algorithm M branches on and its branching degree; degree `i64::MAX` when no
/// primary item is active (a solution).
///
/// Knuth's rule: the least degree `LEN + s - BOUND + 1` with `s = min(BOUND, SLACK)`; among
/// equals the smaller `s`, then the longer list, then the leftmost. A degree of 0 or less
/// means the item can no longer get the options it needs: the level backs up at once, so
/// the scan stops there (no other item could change that outcome).
#[inline(always)]
pub(crate) fn choose(arena: &Arena, m: &Mcc, heuristic: Heuristic) -> (u32, i64) {
    let mut k = arena.item(0).next;
    let mut best = 0;
    let mut score = i64::MAX;
    let (mut best_s, mut best_l) = (0u32, 0u32);
    while k != 0 {
        let b = m.bound[k as usize];
        let s = m.slack[k as usize].min(b);
        let l = arena.len(k);
        let t = i64::from(l) + i64::from(s) - i64::from(b) + 1;
        if t < score || (t == score && (s < best_s || (s == best_s && l > best_l))) {
            score = t;
            best = k;
            best_s = s;
            best_l = l;
        }
        if t <= 0 || heuristic == Heuristic::Leftmost {
            break;
        }
        k = arena.item(k).next;
    }
    (best, score)
}

/// Tweaks node `x`, the first of its item's list: hides the rest of its option when `block`
/// (the item stays active), and takes `x` out of its item's list. Returns the updates (DLX3
/// counts every node taken out of a list).
#[inline(always)]
pub(crate) fn tweak<const COLORED: bool>(arena: &mut Arena, x: u32, block: bool) -> u64 {
    let mut updates = 1;
    if block {
        updates += arena.hide::<COLORED>(x);
    }
    arena.unlink_node(x);
    updates
}

/// Undoes the tweaks of item `c` from `first` (its `FIRST_TWEAK`) on: the tweaked nodes go
/// back to the top of `c`'s list in order, their options unhidden when `unblock`.
#[inline(always)]
pub(crate) fn untweak<const COLORED: bool>(arena: &mut Arena, c: u32, first: u32, unblock: bool) {
    let z = arena.nodes[c as usize].down;
    arena.nodes[c as usize].down = first;
    let mut q = c;
    let mut r = first;
    let mut k = 0;
    while r != z {
        arena.nodes[r as usize].up = q;
        k += 1;
        if unblock {
            arena.unhide::<COLORED>(r);
        }
        q = r;
        r = arena.nodes[r as usize].down;
    }
    arena.nodes[z as usize].up = q;
    arena.nodes[c as usize].top += k;
}

/// Takes the option of node `x`, its own item's `BOUND` already lowered: lowers the `BOUND`
/// of its other primary items (covering those that reach 0), covers its uncolored secondary
/// items and purifies its colored ones. Returns the updates. Undone by [`uncover_others`].
#[inline(always)]
pub(crate) fn cover_others<const COLORED: bool>(arena: &mut Arena, m: &mut Mcc, x: u32) -> u64 {
    let n1 = arena.n_primary;
    let mut updates = 0;
    let mut p = x + 1;
    while p != x {
        let node = *arena.node(p);
        if node.top <= 0 {
            p = node.up;
            continue;
        }
        let i = node.top as u32;
        if i <= n1 {
            let b = &mut m.bound[i as usize];
            *b -= 1;
            if *b == 0 {
                updates += arena.cover::<COLORED>(i);
            }
        } else if COLORED {
            let c = arena.colors[p as usize];
            if c == 0 {
                updates += arena.cover::<true>(i);
            } else if c > 0 {
                updates += arena.purify(p);
            }
        } else {
            updates += arena.cover::<false>(i);
        }
        p += 1;
    }
    updates
}

/// Undoes [`cover_others`] of `x`, right to left.
#[inline(always)]
pub(crate) fn uncover_others<const COLORED: bool>(arena: &mut Arena, m: &mut Mcc, x: u32) {
    let n1 = arena.n_primary;
    let mut p = x - 1;
    while p != x {
        let node = *arena.node(p);
        if node.top <= 0 {
            p = node.down;
            continue;
        }
        let i = node.top as u32;
        if i <= n1 {
            let b = &mut m.bound[i as usize];
            if *b == 0 {
                arena.uncover::<COLORED>(i);
            }
            *b += 1;
        } else if COLORED {
            let c = arena.colors[p as usize];
            if c == 0 {
                arena.uncover::<true>(i);
            } else if c > 0 {
                arena.unpurify(p);
            }
        } else {
            arena.uncover::<false>(i);
        }
        p -= 1;
    }
}

/// Takes primary item `i` out of the active list (its null move), keeping its links.
#[inline(always)]
pub(crate) fn deactivate(arena: &mut Arena, i: u32) {
    let link = arena.items[i as usize];
    arena.items[link.prev as usize].next = link.next;
    arena.items[link.next as usize].prev = link.prev;
}

/// Puts primary item `i` back where [`deactivate`] took it from.
#[inline(always)]
pub(crate) fn reactivate(arena: &mut Arena, i: u32) {
    let link = arena.items[i as usize];
    arena.items[link.prev as usize].next = i;
    arena.items[link.next as usize].prev = i;
}

/// Sets up a level on item `best`: lowers its `BOUND`, covers it when that is how the level
/// works (Knuth's step after choosing), records `FIRST_TWEAK` and the degree. Returns the
/// updates.
#[inline(always)]
pub(crate) fn enter<const COLORED: bool>(
    arena: &mut Arena,
    m: &mut Mcc,
    level: usize,
    best: u32,
    score: u32,
) -> u64 {
    m.score[level] = score;
    let first = arena.node(best).down;
    let b = &mut m.bound[best as usize];
    *b -= 1;
    let bound = *b;
    if bound == 0 && m.slack[best as usize] == 0 {
        m.first_tweak[level] = 0;
        arena.cover::<COLORED>(best)
    } else {
        m.first_tweak[level] = first;
        if bound == 0 {
            arena.cover::<COLORED>(best)
        } else {
            0
        }
    }
}

/// Whether move `x` of item `best` (an option node, or `best` itself for the null move) is
/// still within the level's moves (Knuth's "if `cur_node` is off limits, goto backup").
#[inline(always)]
pub(crate) fn in_limits(arena: &Arena, m: &Mcc, best: u32, x: u32) -> bool {
    let bound = m.bound[best as usize];
    let slack = m.slack[best as usize];
    if bound == 0 && slack == 0 {
        x != best
    } else {
        i64::from(arena.len(best)) > i64::from(bound) - i64::from(slack)
    }
}

/// Makes move `x` at a level on `best` (in limits): tweaks it, or makes the null move, then
/// takes the option. Returns the updates. Undone by [`unmove`].
#[inline(always)]
pub(crate) fn make_move<const COLORED: bool>(
    arena: &mut Arena,
    m: &mut Mcc,
    best: u32,
    x: u32,
) -> u64 {
    let bound = m.bound[best as usize];
    let mut updates = 0;
    if bound != 0 || m.slack[best as usize] != 0 {
        if x != best {
            updates += tweak::<COLORED>(arena, x, bound != 0);
        } else if bound != 0 {
            deactivate(arena, best);
        }
    }
    if x != best {
        updates += cover_others::<COLORED>(arena, m, x);
    }
    updates
}

/// Undoes the option part of [`make_move`] (the tweak stays: the next move needs it gone).
/// Returns the level's item.
#[inline(always)]
pub(crate) fn unmove<const COLORED: bool>(arena: &mut Arena, m: &mut Mcc, x: u32) -> u32 {
    if x <= arena.n_items {
        if m.bound[x as usize] != 0 {
            reactivate(arena, x);
        }
        x
    } else {
        uncover_others::<COLORED>(arena, m, x);
        arena.node(x).top as u32
    }
}

/// Undoes [`enter`] of level `level` on `best`: untweaks or uncovers the item, raises its
/// `BOUND`.
#[inline(always)]
pub(crate) fn leave<const COLORED: bool>(arena: &mut Arena, m: &mut Mcc, level: usize, best: u32) {
    let first = m.first_tweak[level];
    let bound = m.bound[best as usize];
    if first == 0 {
        arena.uncover::<COLORED>(best);
    } else {
        untweak::<COLORED>(arena, best, first, bound != 0);
        if bound == 0 {
            arena.uncover::<COLORED>(best);
        }
    }
    m.bound[best as usize] += 1;
}

/// Checks (A1)-(A3) for the levels whose moves are `choice`.
///
/// # Panics
/// With the number of the broken invariant.
pub(crate) fn check_path(arena: &Arena, m: &Mcc, choice: &[u32]) {
    let n = arena.n_items;
    let n1 = arena.n_primary as usize;
    let mut uses = vec![0u32; n1 + 1];
    let mut nulls = vec![0u32; n1 + 1];
    for &x in choice {
        if x <= n {
            nulls[x as usize] += 1;
            continue;
        }
        let first = arena.node(x).first;
        let mut q = first;
        while arena.node(q).top > 0 {
            let i = arena.node(q).top as usize;
            if i <= n1 {
                uses[i] += 1;
            }
            q += 1;
        }
    }
    let mut active = vec![false; n1 + 1];
    let mut i = arena.item(0).next;
    while i != 0 {
        active[i as usize] = true;
        i = arena.item(i).next;
    }
    for i in 1..=n1 {
        assert!(nulls[i] <= 1, "(A1) item {i} has two null moves on the path");
        assert_eq!(
            u64::from(m.bound[i]) + u64::from(uses[i]) + u64::from(nulls[i]),
            u64::from(m.hi[i]),
            "(A1) BOUND of item {i}"
        );
        assert_eq!(active[i], m.bound[i] > 0 && nulls[i] == 0, "(A2) item {i} active");
    }
    for (l, &x) in choice.iter().enumerate() {
        let first = m.first_tweak[l];
        if first == 0 {
            continue;
        }
        let best = if x <= n { x } else { arena.node(x).top as u32 };
        // The chain from FIRST_TWEAK to the move (exclusive when the move is the null one).
        let mut chain = Vec::new();
        let mut p = first;
        while p != best {
            chain.push(p);
            if p == x {
                break;
            }
            p = arena.node(p).down;
            assert!(chain.len() <= arena.nodes.len(), "(A3) the tweak chain of level {l} loops");
        }
        assert!(x == best || chain.last() == Some(&x), "(A3) level {l}'s move ends its chain");
        let mut q = arena.node(best).down;
        while q != best {
            assert!(!chain.contains(&q), "(A3) tweaked node {q} is back in item {best}'s list");
            q = arena.node(q).down;
        }
    }
}
