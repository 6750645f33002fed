//! Algorithm M: exact covering with multiplicities and colors (Knuth's DLX3).
//!
//! # The problem
//!
//! A primary item `i` may carry bounds `lo:hi` ([`ProblemBuilder::primary_with_bounds`]): a
//! solution covers it at least `lo` and at most `hi` times. Secondary items and colors work as
//! in Algorithm C. A [`Solver`] searches a problem with bounds by this algorithm; every entry
//! point ([`Solver::count`], [`Solver::first`], [`Solver::solutions`], [`Solver::visit`],
//! limits, [`Solver::prefixes`] and [`Solver::set_prefix`], and so
//! [`ParallelSearch`](crate::parallel::ParallelSearch)) works as for exact cover.
//!
//! ```
//! use dancecard_engine::{ProblemBuilder, Solver};
//!
//! // Knuth's example in DLX3: `A B 2:3|C | X Y`, one solution.
//! let mut b = ProblemBuilder::new();
//! b.primary("A")?;
//! b.primary("B")?;
//! b.primary_with_bounds("C", 2, 3)?;
//! b.secondary("X")?;
//! b.secondary("Y")?;
//! for option in ["A B X:0 Y:0", "A C X:1 Y:1", "C X:0", "B X:1", "C Y:1"] {
//!     b.option_by_names(option.split(' '))?;
//! }
//! let problem = b.build();
//! let mut solver = Solver::new(&problem);
//! let all: Vec<Vec<String>> = solver
//!     .solutions()
//!     .map(|s| s.iter().map(|&o| problem.option_text(o)).collect())
//!     .collect();
//! assert_eq!(all, [["A C X:1 Y:1", "B X:1", "C Y:1"]]);
//! # Ok::<(), dancecard_engine::BuildError>(())
//! ```
//!
//! # The algorithm
//!
//! Every primary item keeps `BOUND` (how many more options may still cover it) and `SLACK`
//! (`hi - lo`, constant). At each level the search chooses the active primary item of least
//! *branching degree* `LEN + s - BOUND + 1`, where `s = min(BOUND, SLACK)` (ties: the smaller
//! `s`, then, counterintuitively, the longer list, then the leftmost), lowers its `BOUND`, and
//! branches:
//!
//! - when `BOUND` reaches 0 and `SLACK` is 0, as Algorithm X: the item is covered and each of
//!   its options is tried in turn;
//! - otherwise by *tweaking*: each option in turn is tried and then *tweaked* away (removed from
//!   the item's list, and, while `BOUND > 0`, hidden from every other list, so that the item
//!   stays active with its remaining options on a par with every other item); the level ends
//!   when fewer options remain than the item still needs, after a last *null move* that
//!   settles the item with no option when its lower bound is met (`LEN` = 0 and
//!   `BOUND < SLACK + 1`...: Knuth's test `LEN > BOUND - SLACK`).
//!
//! Taking an option lowers the `BOUND` of its other primary items, covering those that reach
//! 0; uncolored secondary items are covered and colored ones purified, as in Algorithm C. A
//! solution is reached when no primary item is active. Nodes and updates are counted as DLX3
//! counts them: a node per level entered (a solution's included, and a level whose best item
//! has degree 0, where DLX3 backs up without covering anything), an update per item covered
//! and per node hidden, by covers, purifications and tweaks. On Knuth's files the tree, the
//! node and the update counts are DLX3's to the unit (`crates/engine/tests/family.rs`).
//!
//! Untweaking restores a level's tweaked nodes from `FIRST_TWEAK`, its first tweaked node: a
//! tweaked node keeps its `DLINK` (I4), which names the node tweaked after it, so the chain
//! from `FIRST_TWEAK` rebuilds the `ULINK`s, and the item's `DLINK` gets `FIRST_TWEAK` back
//! ("deceptively simple", DLX3).
//!
//! # Invariants
//!
//! With the arena's (I1)-(I5), at every node:
//!
//! - **(A1)** For every primary item `i`, `BOUND(i) + uses(i) + nulls(i) = hi(i)`, where
//!   `uses(i)` counts the options on the path that hold `i` and `nulls(i)` is 1 if a level on
//!   the path made the null move on `i` (else 0).
//! - **(A2)** A primary item is in the active list exactly when `BOUND > 0` and no level on the
//!   path made its null move.
//! - **(A3)** At a level that tweaks, the nodes from `FIRST_TWEAK` to the level's choice are
//!   out of the item's list, and each one's `DLINK` names the next of them.
//!
//! [`Solver::check_invariants`] checks them (and the test builds, at every node); after a
//! search, [`Solver::is_pristine`] also compares every `BOUND` with its `hi`.
//!
//! # Bibliography
//!
//! - Donald E. Knuth, *The Art of Computer Programming*, Volume 4B, §7.2.2.1 (2022),
//!   Algorithm M (exact covering with multiplicities and colors), pp. 94-96.
//! - Donald E. Knuth, DLX3 (CWEB program, 2017-2020; "tweaking" goes back to his MDANCE of
//!   2004).
//!
//! [`ProblemBuilder::primary_with_bounds`]: crate::ProblemBuilder::primary_with_bounds

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::{
    Config, Event, Heuristic, Kernel, Outcome, Phase, PrefixError, Progress, Sink, Solution,
    Solver, Stop,
};
use crate::arena::Arena;
use crate::problem::Problem;

#[path = "mcc_bits.rs"]
mod bits;
#[path = "mcc_memo.rs"]
mod memo;
use bits::MccBits;

/// The state Algorithm M keeps besides the arena: bounds, and per level the tweak chain's head
/// and the branching degree.
#[derive(Clone, Debug)]
pub(crate) struct Mcc {
    /// Knuth's `BOUND`, per arena item (primary items only): how many more options may cover
    /// it. See (A1).
    bound: Vec<u32>,
    /// Knuth's `SLACK`: `hi - lo`, per arena item; never changes.
    slack: Vec<u32>,
    /// `hi` per arena item (for the pristine check).
    hi: Vec<u32>,
    /// Per level: `FIRST_TWEAK`, the first node tweaked (the item itself when its list was
    /// empty), or 0 when the level covers its item and tries its options as Algorithm X
    /// does. See (A3).
    first_tweak: Vec<u32>,
    /// Per level: the branching degree of its item (the number of moves at that level).
    score: Vec<u32>,
    /// The deepest a search can go: every option at most once on a path, every option a
    /// primary item's `BOUND` lower, and at most one null move per primary item.
    depth: usize,
    /// Scratch: the option nodes of the solution being reported.
    sol: Vec<u32>,
    /// The number of primary items.
    n_primary: usize,
    /// The problem on bit sets, when that kernel takes it (see `mcc_bits.rs`); out of here
    /// while it counts.
    bits: Option<Box<MccBits>>,
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
fn choose(arena: &Arena, m: &Mcc, heuristic: Heuristic) -> (u32, i64) {
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
fn tweak<const COLORED: bool>(arena: &mut Arena, x: u32, block: bool) -> u64 {
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
fn untweak<const COLORED: bool>(arena: &mut Arena, c: u32, first: u32, unblock: bool) {
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
fn cover_others<const COLORED: bool>(arena: &mut Arena, m: &mut Mcc, x: u32) -> u64 {
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
fn uncover_others<const COLORED: bool>(arena: &mut Arena, m: &mut Mcc, x: u32) {
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
fn deactivate(arena: &mut Arena, i: u32) {
    let link = arena.items[i as usize];
    arena.items[link.prev as usize].next = link.next;
    arena.items[link.next as usize].prev = link.prev;
}

/// Puts primary item `i` back where [`deactivate`] took it from.
#[inline(always)]
fn reactivate(arena: &mut Arena, i: u32) {
    let link = arena.items[i as usize];
    arena.items[link.prev as usize].next = i;
    arena.items[link.next as usize].prev = i;
}

/// Sets up a level on item `best`: lowers its `BOUND`, covers it when that is how the level
/// works (Knuth's step after choosing), records `FIRST_TWEAK` and the degree. Returns the
/// updates.
#[inline(always)]
fn enter<const COLORED: bool>(
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
fn in_limits(arena: &Arena, m: &Mcc, best: u32, x: u32) -> bool {
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
fn make_move<const COLORED: bool>(arena: &mut Arena, m: &mut Mcc, best: u32, x: u32) -> u64 {
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
fn unmove<const COLORED: bool>(arena: &mut Arena, m: &mut Mcc, x: u32) -> u32 {
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
fn leave<const COLORED: bool>(arena: &mut Arena, m: &mut Mcc, level: usize, best: u32) {
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

/// The steps of the main loop, named after the labels of DLX3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// Enter a level: count a node, look for a solution, choose an item.
    Forward,
    /// Try the level's current move, unless it is off limits.
    Advance,
    /// Restore the level's item, then back down.
    Backup,
    /// Leave for the level above: take back its move, go to its next one.
    Backdown,
}

impl Solver {
    /// The main loop of Algorithm M (see the [module documentation](self)); the same protocol
    /// as `run_x` (pauses at solutions for the iterator, lists subtrees at the cap, ticks,
    /// gives work away).
    pub(crate) fn run_m<S: Sink>(&mut self, sink: &mut S, listing: bool) -> Outcome {
        if self.colored {
            self.run_mcc::<true, S>(sink, listing)
        } else {
            self.run_mcc::<false, S>(sink, listing)
        }
    }

    fn run_mcc<const COLORED: bool, S: Sink>(&mut self, sink: &mut S, listing: bool) -> Outcome {
        let deadline = self.config.time_limit.and_then(|t| Instant::now().checked_add(t));
        let max_nodes = self.config.max_nodes.unwrap_or(u64::MAX);
        let max_solutions = self.config.max_solutions.unwrap_or(u128::MAX);
        if max_solutions == 0 && self.phase == Phase::Fresh {
            return Outcome { solutions: self.stats.solutions, stop: Stop::SolutionLimit };
        }
        let heuristic = self.config.heuristic;
        let cancel = self.config.cancel.clone();
        let n = self.arena.n_items;
        let mut updates: u64 = 0;
        let mut nodes = self.stats.nodes;
        if let Some(rest) = &mut self.rest {
            rest.clear();
        }

        let resume = self.phase == Phase::AtSolution;
        let mut floor;
        let mut level;
        if resume {
            self.phase = Phase::Fresh;
            floor = self.floor;
            level = self.level + 1;
        } else {
            if self.apply_prefix_m().is_err() {
                let applied = self.level;
                self.undo_levels_m(applied);
                self.level = 0;
                return Outcome { solutions: self.stats.solutions, stop: Stop::Exhausted };
            }
            floor = self.prefix.len();
            level = floor;
        }
        let mut m = self.mcc.take().expect("(A1) Algorithm M's state");

        macro_rules! event {
            ($e:expr) => {
                if S::TRACE {
                    sink.event($e, nodes);
                }
            };
        }
        // Calls `$e` with the state back in `self` (for callbacks that get the solver).
        macro_rules! lend {
            ($e:expr) => {{
                self.mcc = Some(m);
                let result = $e;
                m = self.mcc.take().expect("(A1) Algorithm M's state");
                result
            }};
        }
        // A stop by a limit while entering `level`: the subtrees left, when wanted (see
        // `Solver::count_with_rest`).
        macro_rules! stop_early {
            ($stop:expr, $level:expr) => {{
                if self.rest.is_some() {
                    let rest = lend!(self.links_rest(floor, $level));
                    self.rest = Some(rest);
                }
                finish!($stop, $level)
            }};
        }
        macro_rules! finish {
            ($stop:expr, $applied:expr) => {{
                self.stats.updates += updates;
                self.stats.nodes = nodes;
                self.mcc = Some(m);
                self.undo_levels_m($applied);
                self.level = 0;
                self.phase = Phase::Fresh;
                return Outcome { solutions: self.stats.solutions, stop: $stop };
            }};
        }

        let mut step = if resume { Step::Backdown } else { Step::Forward };
        // The level's item and its current move (an option node, or the item for the null
        // move).
        let mut best: u32 = 0;
        let mut x: u32 = 0;
        loop {
            match step {
                Step::Forward => {
                    if nodes >= max_nodes {
                        stop_early!(Stop::NodeLimit, level);
                    }
                    nodes += 1;
                    if nodes % Config::CHECK_INTERVAL == 0 {
                        self.stats.nodes = nodes;
                        self.level = level;
                        if cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
                            stop_early!(Stop::Cancelled, level);
                        }
                        if deadline.is_some_and(|d| Instant::now() >= d) {
                            stop_early!(Stop::TimeLimit, level);
                        }
                        if lend!(sink.tick(self)).is_break() {
                            stop_early!(Stop::Cancelled, level);
                        }
                        if sink.hungry() {
                            if let Some((new_floor, units, fraction)) =
                                lend!(self.split_off_m(level, floor))
                            {
                                floor = new_floor;
                                sink.donate(units, fraction);
                            }
                        }
                    }
                    #[cfg(any(test, feature = "check-invariants"))]
                    {
                        self.arena.check_invariants();
                        check_path(&self.arena, &m, &self.choice[..level]);
                    }
                    event!(Event::Enter { level });
                    if self.arena.item(0).next == 0 {
                        // No primary item is active: a solution (a node, counted above).
                        self.stats.solutions += 1;
                        event!(Event::Solution { level });
                        if listing {
                            self.level = level;
                            lend!(sink.frontier(self, level));
                        }
                        m.sol.clear();
                        m.sol.extend(self.choice[..level].iter().filter(|&&c| c > n + 1));
                        let flow = sink.solution(Solution { nodes: &m.sol, arena: &self.arena });
                        if self.stats.solutions >= max_solutions {
                            finish!(Stop::SolutionLimit, level);
                        }
                        if level == floor {
                            finish!(Stop::Exhausted, level);
                        }
                        if flow.is_break() {
                            self.stats.updates += updates;
                            self.stats.nodes = nodes;
                            self.level = level - 1;
                            self.floor = floor;
                            self.phase = Phase::AtSolution;
                            self.mcc = Some(m);
                            return Outcome {
                                solutions: self.stats.solutions,
                                stop: Stop::Visitor,
                            };
                        }
                        step = Step::Backdown;
                        continue;
                    }
                    if level == self.cap {
                        // Listing subtrees: this one is a unit.
                        self.level = level;
                        lend!(sink.frontier(self, level));
                        step = Step::Backdown;
                        continue;
                    }
                    let (item, score) = choose(&self.arena, &m, heuristic);
                    event!(Event::Choose {
                        level,
                        item: self.item_id(item),
                        len: score.clamp(0, i64::from(u32::MAX)) as u32,
                    });
                    if score <= 0 {
                        // Too few options left for the item: back up without covering.
                        step = Step::Backdown;
                        continue;
                    }
                    best = item;
                    updates += enter::<COLORED>(&mut self.arena, &mut m, level, best, score as u32);
                    x = self.arena.node(best).down;
                    step = Step::Advance;
                }
                Step::Advance => {
                    if !in_limits(&self.arena, &m, best, x) {
                        step = Step::Backup;
                        continue;
                    }
                    self.choice[level] = x;
                    if S::TRACE && x != best {
                        event!(Event::Try { level, option: self.arena.option_of(x) });
                    }
                    updates += make_move::<COLORED>(&mut self.arena, &mut m, best, x);
                    level += 1;
                    step = Step::Forward;
                }
                Step::Backup => {
                    leave::<COLORED>(&mut self.arena, &mut m, level, best);
                    event!(Event::Backtrack { level });
                    step = Step::Backdown;
                }
                Step::Backdown => {
                    if level == floor {
                        finish!(Stop::Exhausted, level);
                    }
                    level -= 1;
                    x = self.choice[level];
                    if S::TRACE && x > n {
                        event!(Event::Untry { level, option: self.arena.option_of(x) });
                    }
                    best = unmove::<COLORED>(&mut self.arena, &mut m, x);
                    if x == best {
                        step = Step::Backup;
                    } else {
                        x = self.arena.node(x).down;
                        step = Step::Advance;
                    }
                }
            }
        }
    }

    /// Applies the prefix under Algorithm M: at level `l` the move `prefix[l]` of the item
    /// chosen there (its options in order, then the null move). Returns `Ok(true)` if it ends
    /// in a solution. On error, the levels applied so far are `0..self.level`.
    pub(crate) fn apply_prefix_m(&mut self) -> Result<bool, PrefixError> {
        let mut m = self.mcc.take().expect("(A1) Algorithm M's state");
        let result = if self.colored {
            self.apply_prefix_mcc::<true>(&mut m)
        } else {
            self.apply_prefix_mcc::<false>(&mut m)
        };
        self.mcc = Some(m);
        result
    }

    fn apply_prefix_mcc<const COLORED: bool>(&mut self, m: &mut Mcc) -> Result<bool, PrefixError> {
        if self.choice.len() < m.depth {
            self.choice.resize(m.depth, 0);
        }
        self.level = 0;
        let heuristic = self.config.heuristic;
        for (l, &k) in self.prefix.clone().iter().enumerate() {
            if self.arena.item(0).next == 0 {
                return Err(PrefixError::PastSolution { level: l.saturating_sub(1) });
            }
            if l >= m.depth {
                return Err(PrefixError::OutOfRange { level: l, index: k, len: 0 });
            }
            let (best, score) = choose(&self.arena, m, heuristic);
            let len = score.clamp(0, i64::from(u32::MAX)) as u32;
            if k >= len {
                return Err(PrefixError::OutOfRange { level: l, index: k, len });
            }
            self.stats.updates += self.take_move::<COLORED>(m, l, best, len, k);
            self.level = l + 1;
        }
        Ok(!self.prefix.is_empty() && self.arena.item(0).next == 0)
    }

    /// Makes level `l` on item `best` of degree `len` and takes its move `k` (`k < len`: its
    /// options in order, then the null move), as a search that had tried the moves before
    /// it would stand there: in a level that tweaks, each of them stays tweaked. Returns the
    /// updates. Undone by [`Solver::undo_levels_m`].
    fn take_move<const COLORED: bool>(
        &mut self,
        m: &mut Mcc,
        l: usize,
        best: u32,
        len: u32,
        k: u32,
    ) -> u64 {
        let mut updates = enter::<COLORED>(&mut self.arena, m, l, best, len);
        let mut x = self.arena.node(best).down;
        for _ in 0..k {
            if m.first_tweak[l] != 0 {
                updates += tweak::<COLORED>(&mut self.arena, x, m.bound[best as usize] != 0);
            }
            x = self.arena.node(x).down;
        }
        self.choice[l] = x;
        updates + make_move::<COLORED>(&mut self.arena, m, best, x)
    }

    /// One probe of Knuth's estimate ([`Solver::estimate`]) down Algorithm M's tree: from the
    /// prefix's node, at each level a move drawn uniformly among the level's moves. Returns
    /// the weighted nodes, solutions and updates of its path, and its depth; restores the
    /// arena ((I5), (A1)-(A3)).
    pub(crate) fn probe_m(&mut self, rng: &mut crate::zdd::SplitMix64) -> (f64, f64, f64, usize) {
        let mut m = self.mcc.take().expect("(A1) Algorithm M's state");
        let result = if self.colored {
            self.probe_mcc::<true>(&mut m, rng)
        } else {
            self.probe_mcc::<false>(&mut m, rng)
        };
        self.mcc = Some(m);
        let (levels, found) = result;
        self.undo_levels_m(levels);
        self.level = 0;
        found
    }

    /// [`Solver::probe_m`]'s walk: the levels it applied, and what it found.
    fn probe_mcc<const COLORED: bool>(
        &mut self,
        m: &mut Mcc,
        rng: &mut crate::zdd::SplitMix64,
    ) -> (usize, (f64, f64, f64, usize)) {
        if self.apply_prefix_mcc::<COLORED>(m).is_err() {
            return (self.level, (0.0, 0.0, 0.0, 0));
        }
        let floor = self.level;
        let heuristic = self.config.heuristic;
        let (mut nodes, mut solutions, mut updates) = (0.0, 0.0, 0.0);
        let mut weight = 1.0f64;
        let mut level = floor;
        loop {
            // A node: this level entered (a solution is one too, as DLX3 counts them).
            nodes += weight;
            if self.arena.item(0).next == 0 {
                solutions = weight;
                break;
            }
            let (best, score) = choose(&self.arena, m, heuristic);
            if score <= 0 {
                // Too few options left for an item: the level backs up at once.
                break;
            }
            let d = score.clamp(1, i64::from(u32::MAX)) as u32;
            let k = rng.below_u32(d);
            // The plain search makes every move of the level; the one taken stands for all.
            let u = self.take_move::<COLORED>(m, level, best, d, k);
            updates += weight * f64::from(d) * u as f64;
            weight *= f64::from(d);
            level += 1;
        }
        (level, (nodes, solutions, updates, level - floor))
    }

    /// Undoes levels `0..levels` of Algorithm M: each level's move, then its item.
    pub(crate) fn undo_levels_m(&mut self, levels: usize) {
        let mut m = self.mcc.take().expect("(A1) Algorithm M's state");
        for l in (0..levels).rev() {
            let x = self.choice[l];
            if self.colored {
                let best = unmove::<true>(&mut self.arena, &mut m, x);
                leave::<true>(&mut self.arena, &mut m, l, best);
            } else {
                let best = unmove::<false>(&mut self.arena, &mut m, x);
                leave::<false>(&mut self.arena, &mut m, l, best);
            }
        }
        self.mcc = Some(m);
    }

    /// At level `l` of Algorithm M: the index of the move tried among the level's moves, and
    /// their number (the branching degree).
    pub(crate) fn index_at_m(&self, l: usize) -> (u32, u32) {
        let Some(m) = self.mcc.as_deref() else { return (0, 1) };
        let x = self.choice[l];
        let best = if x <= self.arena.n_items { x } else { self.arena.node(x).top as u32 };
        let mut p = match m.first_tweak[l] {
            0 => self.arena.node(best).down,
            first => first,
        };
        let mut k = 0;
        // (A3): the tweaked nodes chain to the current move.
        while p != x {
            k += 1;
            p = self.arena.node(p).down;
        }
        (k, m.score[l])
    }

    /// Algorithm M's version of `split_off`: the untried moves of the shallowest level in
    /// `floor..level` that has some.
    fn split_off_m(&self, level: usize, floor: usize) -> Option<(usize, Vec<Vec<u32>>, f64)> {
        let l = (floor..level).find(|&l| {
            let (k, len) = self.index_at_m(l);
            k + 1 < len
        })?;
        // `index_at` is `index_at_m` under Algorithm M.
        Some(self.split_off_at(l))
    }

    /// Counts on Algorithm M's bit sets (`mcc_bits.rs`) when they take the problem and the
    /// configured kernel is not [`Kernel::Links`] (any other kernel means them: the tree and
    /// the counters are the links'); `None` when the count is left to the links.
    pub(crate) fn count_fast_m(&mut self, progress: Progress<'_>) -> Option<Outcome> {
        if self.config.kernel == Kernel::Links {
            return None;
        }
        let bits = self.mcc.as_mut()?.bits.take()?;
        // As `Solver::count_outside`, written out: through it, the bit-set loop of Algorithm M
        // compiled to 1.3% more instructions (callgrind, mult_a001499_6).
        let config = self.config.clone();
        let prefix = self.prefix.clone();
        let mut rest = self.rest.take();
        if let Some(rest) = &mut rest {
            rest.clear();
        }
        let (outcome, stats) = bits.count(
            &config,
            &prefix,
            &mut |fraction, stats| {
                self.stats = *stats;
                self.bits_fraction = Some(fraction);
                progress(self)
            },
            rest.as_mut(),
        );
        self.rest = rest;
        if let Some(m) = self.mcc.as_mut() {
            m.bits = Some(bits);
        }
        self.bits_fraction = None;
        self.stats = stats;
        self.last_stop = outcome.stop;
        Some(outcome)
    }

    /// The kernel Algorithm M counts on: bit sets where they take the problem (named
    /// [`Kernel::BitsKept`] for the callers that pass it on), else the links.
    pub(crate) fn pick_kernel_m(&mut self) -> Kernel {
        let takes = self.mcc.as_ref().is_some_and(|m| m.bits.is_some());
        if self.config.kernel == Kernel::Links || !takes {
            Kernel::Links
        } else {
            Kernel::BitsKept
        }
    }

    /// Checks (A1)-(A3) at the current level (besides the arena's (I1)-(I3)).
    pub(crate) fn check_invariants_m(&self) {
        if let Some(m) = self.mcc.as_deref() {
            check_path(&self.arena, m, &self.choice[..self.level]);
        }
    }
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
