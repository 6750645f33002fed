//! Preprocessing: options that no solution can use, and items that others imply, removed
//! before the search (Knuth's DLX-PRE).
//!
//! [`reduce`] turns a [`Problem`] into an equivalent smaller one, in *rounds*, by two rules:
//!
//! - **Blocked options.** Take option `r`: cover its items and hide every option that
//!   clashes with it (shares a primary item with it, or a secondary item that one of the two
//!   leaves uncolored or that they give different colors). If some active primary item not
//!   in `r` is left with no option, no solution contains `r`: it is removed. We say `r`
//!   *blocks* that item.
//! - **Implied items.** If every option that holds primary item `p` also holds item `c`
//!   without a color, then covering `p` covers `c`. Every option that holds `c` but not `p`
//!   blocks `p` and is removed; the options left with `c` are exactly those of `p`, so `c`
//!   itself is removed from them (from the problem).
//!
//! An item left in no option is removed too (a secondary one is simply unused; a primary one
//! makes the problem infeasible, and then everything else goes: the reduced problem is that
//! item alone, with no option, and 0 solutions).
//!
//! Every removal keeps the solutions: the sets of options that solve the reduced problem,
//! mapped back by [`Reduction::original_option`], are exactly the solutions of the original
//! problem (the removed options are in none of them). Costs ride along with their options,
//! so the least-cost solutions are kept too. Bounds (DLX3's multiplicities) change what a
//! clash means, and are refused ([`PreError::Unsupported`]).
//!
//! # Order and rounds
//!
//! As in DLX-PRE, a round visits the items in declaration order. At item `c` it first asks
//! whether `c` is implied by some primary item (the one found last while hiding the options
//! that hold `c` uncolored, as DLX-PRE's `hide`); if it is not, it tests every option whose
//! first remaining item is `c`, and removes the blocked ones when all are tested. The rounds
//! go on until one changes nothing; [`Reduction::rounds`] counts them, that last one
//! included (DLX-PRE's "2 rounds" on `pent6x10.dlx`: the first removes 144 options, the
//! second nothing).
//!
//! The test is exact where DLX-PRE's is not: DLX-PRE tests only an option whose first item
//! is uncolored, and does not hide, for a secondary item `c` that the option leaves
//! uncolored, the options that color `c` (so it may keep options that this module removes,
//! never the reverse). Without colors the two remove the same options.
//!
//! # Example
//!
//! Knuth's first example in DLX-PRE: `A D` is the only option with `A`, so `D` is implied
//! by `A`, and so on, until three singleton options remain.
//!
//! ```
//! use dancecard_engine::{pre, ProblemBuilder, Solver};
//!
//! let mut b = ProblemBuilder::new();
//! for name in ["A", "B", "C", "D", "E"] {
//!     b.primary(name)?;
//! }
//! for name in ["F", "G"] {
//!     b.secondary(name)?;
//! }
//! for option in ["C E F", "A D G", "B C F", "A D", "B G", "D E G"] {
//!     b.option_by_names(option.split(' '))?;
//! }
//! let problem = b.build();
//! let reduction = pre::reduce(&problem)?;
//! assert_eq!(reduction.problem.option_count(), 3);
//! assert_eq!(Solver::new(&reduction.problem).count().solutions, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Cost
//!
//! Testing option `r` touches every entry of every option that clashes with `r`: a round
//! costs about the sum, over the options, of the entries of their clashing options
//! (DLX-PRE's method too; polynomial, not fast). [`PreConfig::max_rounds`] bounds the rounds
//! and [`PreConfig::budget`]'s cancel flag and time limit stop between two tests; what was
//! removed until then is sound.
//!
//! # Bibliography
//!
//! D. E. Knuth, DLX-PRE (CWEB; its last bug fix is dated 2 January 2023), the preprocessor
//! of his DLX programs.

use std::time::Instant;

use crate::ids::{ItemId, OptionId};
use crate::problem::{BuildError, Entry, ItemKind, Problem, ProblemBuilder};
use crate::Budget;

/// Why a problem was not preprocessed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PreError {
    /// The problem has a feature preprocessing does not handle (see the
    /// [capability table](crate::gate)): bounds on primary items (Knuth's DLX3), since the
    /// rules above assume every primary item is covered exactly once.
    #[error(transparent)]
    Unsupported(#[from] crate::gate::Unsupported),
    /// The reduced problem could not be built (it is no larger than the original, so this
    /// does not happen; kept for honesty rather than a panic).
    #[error("the reduced problem could not be built: {0}")]
    Build(#[from] BuildError),
    /// The budget has a limit preprocessing cannot honour (it has no solutions, nodes,
    /// states or costs to count): only its cancel flag and time limit stop it.
    #[error(
        "preprocessing has no {limit}: it stops by its rounds, its time limit or its cancel flag"
    )]
    Limit {
        /// The limit, as its field of [`Budget`] names it.
        limit: &'static str,
    },
}

/// How far [`reduce_with`] may go.
#[derive(Clone, Debug, Default)]
pub struct PreConfig {
    /// At most this many rounds (`None`: until a round changes nothing). DLX-PRE's `t`.
    pub max_rounds: Option<u32>,
    /// Its cancel flag and time limit stop the rounds: both are looked at before each round
    /// and before each item a round tests, the time limit counted from the start of the
    /// rounds (once the tables are built); [`Reduction::stopped`] tells. Preprocessing finds no solutions and walks no search
    /// tree: a solution, node, state or cost limit is refused ([`PreError::Limit`]).
    pub budget: Budget,
}

/// Why an item was removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemRemoval {
    /// Every option holding primary item `by` holds this item uncolored.
    Implied {
        /// The primary item that implies it.
        by: ItemId,
    },
    /// No option holds it any more (its options were removed).
    Unused,
}

/// An item removed, with when and why (ids of the original problem).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RemovedItem {
    /// The item.
    pub item: ItemId,
    /// The round (from 1; 0: before the first round, the item was in no option).
    pub round: u32,
    /// Why.
    pub reason: ItemRemoval,
}

/// An option removed, with when and why (ids of the original problem).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RemovedOption {
    /// The option.
    pub option: OptionId,
    /// The round (from 1).
    pub round: u32,
    /// A primary item, not in the option, that taking it leaves with no option.
    pub blocks: ItemId,
}

/// The outcome of [`reduce`]: the reduced problem and what was removed.
#[derive(Clone, Debug)]
pub struct Reduction {
    /// The reduced problem: the remaining items (names, kinds and order kept) and options
    /// (order, colors and costs kept, removed items dropped).
    pub problem: Problem,
    /// `option_map[k]` is the original option of the reduced problem's option `k`.
    pub option_map: Vec<OptionId>,
    /// `item_map[i]` is the original item of the reduced problem's item `i`.
    pub item_map: Vec<ItemId>,
    /// The removed options, in the order they were removed.
    pub removed_options: Vec<RemovedOption>,
    /// The removed items, in the order they were removed.
    pub removed_items: Vec<RemovedItem>,
    /// The rounds made, the last one (which changed nothing) included.
    pub rounds: u32,
    /// A primary item found in no option: the problem has no solution.
    pub infeasible: Option<ItemId>,
    /// Whether [`PreConfig::max_rounds`] or [`PreConfig::budget`] (its cancel flag or time
    /// limit) stopped the rounds before one changed nothing (the reduction is sound, maybe
    /// not complete).
    pub stopped: bool,
}

impl Reduction {
    /// The original option of the reduced problem's option `option`.
    ///
    /// # Panics
    /// If `option` is not an option of the reduced problem.
    pub fn original_option(&self, option: OptionId) -> OptionId {
        self.option_map[option.index()]
    }

    /// A solution of the reduced problem as options of the original, sorted.
    pub fn original_solution(&self, solution: &[OptionId]) -> Vec<OptionId> {
        let mut v: Vec<OptionId> = solution.iter().map(|&o| self.original_option(o)).collect();
        v.sort();
        v
    }
}

/// Reduces `problem` until a round changes nothing (see the [module](self) documentation).
pub fn reduce(problem: &Problem) -> Result<Reduction, PreError> {
    reduce_with(problem, &PreConfig::default())
}

/// Reduces `problem` within `config`'s limits.
pub fn reduce_with(problem: &Problem, config: &PreConfig) -> Result<Reduction, PreError> {
    crate::gate::check(problem, crate::gate::Method::Pre)?;
    let b = &config.budget;
    let unread = [
        ("max_solutions", b.max_solutions.is_some()),
        ("max_nodes", b.max_nodes.is_some()),
        ("max_states", b.max_states.is_some()),
        ("max_cost", b.max_cost.is_some()),
    ];
    if let Some(&(limit, _)) = unread.iter().find(|(_, set)| *set) {
        return Err(PreError::Limit { limit });
    }
    let mut state = State::new(problem);
    state.run(config);
    state.finish()
}

/// The most memory the bit sets of [`Sets`] may take; a larger problem is tested by the
/// traversals alone.
const SETS_BYTES: usize = 64 << 20;

/// The options of each item as bit sets, and the live options: the quick answer of the two
/// tests (no for nearly every item and option), before the traversal that finds the item
/// DLX-PRE would name. Only for problems without colors (where options clash by sharing an
/// item).
///
/// **(E1)** Bit `o` of `live` is set exactly when option `o` is live.
struct Sets {
    words: usize,
    live: Vec<u64>,
    /// Item `i`'s options are `has[i * words..(i + 1) * words]`.
    has: Vec<u64>,
    /// Scratch of a test.
    ok: Vec<u64>,
}

impl Sets {
    /// The sets of `problem`, every option live; `None` for colors or too much memory.
    fn new(problem: &Problem, lists: &[Vec<u32>]) -> Option<Sets> {
        let words = problem.option_count().div_ceil(64);
        let bytes = words.checked_mul(lists.len())?.checked_mul(8)?;
        if problem.has_colors() || bytes > SETS_BYTES {
            return None;
        }
        let mut has = vec![0u64; words * lists.len()];
        for (i, list) in lists.iter().enumerate() {
            for &o in list {
                has[i * words + o as usize / 64] |= 1 << (o % 64);
            }
        }
        let mut live = vec![!0u64; words];
        if let Some(last) = live.last_mut() {
            let tail = problem.option_count() % 64;
            if tail > 0 {
                *last = (1 << tail) - 1;
            }
        }
        Some(Sets { words, live, has, ok: vec![0; words] })
    }

    fn of(&self, i: usize) -> &[u64] {
        &self.has[i * self.words..(i + 1) * self.words]
    }
}

/// What the working copy knows of an item.
#[derive(Clone, Copy, Debug)]
struct ItemState {
    /// The number of live options holding the item (Knuth's `LEN`).
    len: u32,
    /// Scratch of a test: how many of the item's options are hidden.
    hidden_len: u32,
    live: bool,
    primary: bool,
    /// Scratch of a test: the item is in the tested option.
    stamp: bool,
}

/// One more option of item `i` hidden, if the item is live (noted in `touched` the first
/// time); whether all its live options are hidden now.
#[inline(always)]
fn hide_one(items: &mut [ItemState], touched: &mut Vec<u32>, i: usize) -> bool {
    let it = &mut items[i];
    if !it.live {
        return false;
    }
    if it.hidden_len == 0 {
        touched.push(i as u32);
    }
    it.hidden_len += 1;
    it.hidden_len == it.len
}

/// Ends a test: the items of `touched` have no hidden option again; `touched` emptied.
fn unhide_all(items: &mut [ItemState], touched: &mut Vec<u32>) {
    for &i in touched.iter() {
        items[i as usize].hidden_len = 0;
    }
    touched.clear();
}

/// The working copy: which options and items are still there, and the lists.
struct State<'p> {
    problem: &'p Problem,
    /// `lists[i]`: the options holding item `i`, in order (dead ones skipped when read).
    lists: Vec<Vec<u32>>,
    /// Per item: its `LEN`, its scratch and its flags, side by side (the tests read them
    /// together for each entry they hide).
    items: Vec<ItemState>,
    option_live: Vec<bool>,
    /// The bit sets of the quick answers, if the problem has them.
    sets: Option<Sets>,
    /// Scratch of a test: the options hidden (by mark).
    hidden: Vec<bool>,
    /// Scratch of a test: the items whose `hidden_len` it raised from 0, and the options it
    /// hid (kept between tests for their room; empty outside one).
    touched: Vec<u32>,
    hidden_options: Vec<u32>,
    removed_options: Vec<RemovedOption>,
    removed_items: Vec<RemovedItem>,
    rounds: u32,
    infeasible: Option<ItemId>,
    stopped: bool,
}

impl<'p> State<'p> {
    fn new(problem: &'p Problem) -> Self {
        let n = problem.item_count();
        let mut lists = vec![Vec::new(); n];
        for o in problem.options() {
            for e in problem.option(o) {
                lists[e.item.index()].push(o.index() as u32);
            }
        }
        let items = problem
            .items()
            .map(|i| ItemState {
                len: lists[i.index()].len() as u32,
                hidden_len: 0,
                live: true,
                primary: problem.item_kind(i) == ItemKind::Primary,
                stamp: false,
            })
            .collect();
        Self {
            problem,
            sets: Sets::new(problem, &lists),
            lists,
            items,
            option_live: vec![true; problem.option_count()],
            hidden: vec![false; problem.option_count()],
            touched: Vec::new(),
            hidden_options: Vec::new(),
            removed_options: Vec::new(),
            removed_items: Vec::new(),
            rounds: 0,
            infeasible: None,
            stopped: false,
        }
    }

    /// The live entries of option `o`.
    fn entries(&self, o: u32) -> impl Iterator<Item = Entry> + '_ {
        self.problem
            .option(OptionId::from_u32(o))
            .iter()
            .copied()
            .filter(|e| self.items[e.item.index()].live)
    }

    fn run(&mut self, config: &PreConfig) {
        // Items in no option to begin with.
        for i in 0..self.items.len() {
            if self.items[i].len == 0 {
                self.item_gone(i, 0);
                if self.infeasible.is_some() {
                    return;
                }
            }
        }
        // The clock is read here once, and at each test only with a time limit.
        let deadline = config.budget.deadline(Instant::now());
        let cancelled =
            || config.budget.is_cancelled() || deadline.is_some_and(|d| Instant::now() >= d);
        loop {
            if config.max_rounds.is_some_and(|m| self.rounds >= m) || cancelled() {
                self.stopped = true;
                return;
            }
            self.rounds += 1;
            let round = self.rounds;
            let mut change = false;
            for c in 0..self.items.len() {
                if !self.items[c].live || self.items[c].len == 0 {
                    continue;
                }
                if cancelled() {
                    self.stopped = true;
                    return;
                }
                if let Some(p) = self.may_imply(c).then(|| self.implier(c)).flatten() {
                    self.remove_implied(c, p, round);
                    change = true;
                } else {
                    let mut blocked = Vec::new();
                    for k in 0..self.lists[c].len() {
                        let r = self.lists[c][k];
                        if !self.option_live[r as usize] || self.first_item(r) != Some(c) {
                            continue;
                        }
                        if !self.may_block(r) {
                            continue;
                        }
                        if let Some(p) = self.blocks(r) {
                            blocked.push((r, p));
                        }
                    }
                    for (r, p) in blocked {
                        change = true;
                        self.remove_option(r, p, round);
                        if self.infeasible.is_some() {
                            return;
                        }
                    }
                }
                if self.infeasible.is_some() {
                    return;
                }
            }
            if !change {
                return;
            }
        }
    }

    /// The first live item of live option `r`.
    fn first_item(&self, r: u32) -> Option<usize> {
        self.entries(r).next().map(|e| e.item.index())
    }

    /// Whether [`State::implier`] may find an item (false only when it would find none): some
    /// live primary item `p != c` has no live option without `c`.
    fn may_imply(&self, c: usize) -> bool {
        let Some(sets) = &self.sets else { return true };
        let hc = sets.of(c);
        self.items.iter().enumerate().any(|(p, it)| {
            p != c
                && it.live
                && it.primary
                && sets.of(p).iter().zip(hc).zip(&sets.live).all(|((&a, &b), &l)| a & l & !b == 0)
        })
    }

    /// Whether [`State::blocks`] may find an item (false only when it would find none): some
    /// live primary item not in `r` has no live option apart from those that share an item
    /// with `r`.
    fn may_block(&mut self, r: u32) -> bool {
        let State { sets, items, problem, .. } = self;
        let Some(sets) = sets else { return true };
        let row = problem.option(OptionId::from_u32(r));
        let mut ok = std::mem::take(&mut sets.ok);
        ok.copy_from_slice(&sets.live);
        for e in row {
            let i = e.item.index();
            if items[i].live {
                items[i].stamp = true;
                for (w, &h) in ok.iter_mut().zip(sets.of(i)) {
                    *w &= !h;
                }
            }
        }
        let blocked = items.iter().enumerate().any(|(j, it)| {
            it.live
                && it.primary
                && !it.stamp
                && sets.of(j).iter().zip(&ok).all(|(&h, &w)| h & w == 0)
        });
        for e in row {
            items[e.item.index()].stamp = false;
        }
        sets.ok = ok;
        blocked
    }

    /// A primary item `p != c` all of whose live options hold `c` uncolored: as DLX-PRE's
    /// `hide(c)`, the last item emptied while the options holding `c` uncolored are hidden
    /// (in list order, each option's items from the one after `c`, cyclically).
    fn implier(&mut self, c: usize) -> Option<usize> {
        let problem = self.problem;
        let mut found = None;
        let mut touched = std::mem::take(&mut self.touched);
        for k in 0..self.lists[c].len() {
            let o = self.lists[c][k];
            if !self.option_live[o as usize] {
                continue;
            }
            let entries = problem.option(OptionId::from_u32(o));
            let at = entries.iter().position(|e| e.item.index() == c).expect("o holds c");
            if entries[at].color.is_some() {
                continue;
            }
            for e in entries[at + 1..].iter().chain(&entries[..at]) {
                let i = e.item.index();
                if hide_one(&mut self.items, &mut touched, i) && self.items[i].primary {
                    found = Some(i);
                }
            }
        }
        unhide_all(&mut self.items, &mut touched);
        self.touched = touched;
        found
    }

    /// Removes item `c`, implied by `p`: the options with `c` but not `p` go, `c` goes.
    fn remove_implied(&mut self, c: usize, p: usize, round: u32) {
        let list = std::mem::take(&mut self.lists[c]);
        for &o in &list {
            if !self.option_live[o as usize] {
                continue;
            }
            if !self.entries(o).any(|e| e.item.index() == p) {
                self.remove_option(o, p, round);
                if self.infeasible.is_some() {
                    return;
                }
            }
        }
        self.lists[c] = list;
        let by = ItemId::from_u32(p as u32);
        if self.drop_item(c, round, ItemRemoval::Implied { by }) {
            self.items[c].len = 0;
        }
    }

    /// Records the removal of item `i` in `round`, if it is live; whether it was.
    fn drop_item(&mut self, i: usize, round: u32, reason: ItemRemoval) -> bool {
        let live = std::mem::replace(&mut self.items[i].live, false);
        if live {
            self.removed_items.push(RemovedItem {
                item: ItemId::from_u32(i as u32),
                round,
                reason,
            });
        }
        live
    }

    /// Records the removal of option `o` in `round`, if it is live; whether it was.
    fn drop_option(&mut self, o: usize, round: u32, blocks: ItemId) -> bool {
        let live = std::mem::replace(&mut self.option_live[o], false);
        if let Some(sets) = &mut self.sets {
            sets.live[o / 64] &= !(1 << (o % 64));
        }
        if live {
            let option = OptionId::from_u32(o as u32);
            self.removed_options.push(RemovedOption { option, round, blocks });
        }
        live
    }

    /// A primary item, not in live option `r`, that taking `r` leaves with no option.
    fn blocks(&mut self, r: u32) -> Option<usize> {
        let problem = self.problem;
        let row = problem.option(OptionId::from_u32(r));
        for e in row {
            if self.items[e.item.index()].live {
                self.items[e.item.index()].stamp = true;
            }
        }
        let mut hidden_options = std::mem::take(&mut self.hidden_options);
        let mut touched = std::mem::take(&mut self.touched);
        let mut found = None;
        'items: for e in row {
            let i = e.item.index();
            if !self.items[i].live {
                continue;
            }
            for k in 0..self.lists[i].len() {
                let o = self.lists[i][k];
                if o == r || !self.option_live[o as usize] || self.hidden[o as usize] {
                    continue;
                }
                if let Some(x) = e.color {
                    let theirs = problem
                        .option(OptionId::from_u32(o))
                        .iter()
                        .find(|f| f.item.index() == i)
                        .and_then(|f| f.color);
                    if theirs == Some(x) {
                        continue;
                    }
                }
                self.hidden[o as usize] = true;
                hidden_options.push(o);
                for f in problem.option(OptionId::from_u32(o)) {
                    let j = f.item.index();
                    let emptied = hide_one(&mut self.items, &mut touched, j);
                    if emptied && self.items[j].primary && !self.items[j].stamp {
                        found = Some(j);
                        break 'items;
                    }
                }
            }
        }
        for &o in &hidden_options {
            self.hidden[o as usize] = false;
        }
        unhide_all(&mut self.items, &mut touched);
        hidden_options.clear();
        (self.hidden_options, self.touched) = (hidden_options, touched);
        for e in row {
            self.items[e.item.index()].stamp = false;
        }
        found
    }

    /// Removes live option `r`, which blocks `p`; items left in no option go too.
    fn remove_option(&mut self, r: u32, p: usize, round: u32) {
        if !self.drop_option(r as usize, round, ItemId::from_u32(p as u32)) {
            return;
        }
        let items: Vec<usize> = self.entries(r).map(|e| e.item.index()).collect();
        for i in items {
            self.items[i].len -= 1;
            if self.items[i].len == 0 {
                self.item_gone(i, round);
                if self.infeasible.is_some() {
                    return;
                }
            }
        }
    }

    /// Item `i` is in no option any more.
    fn item_gone(&mut self, i: usize, round: u32) {
        let item = ItemId::from_u32(i as u32);
        self.items[i].live = false;
        self.removed_items.push(RemovedItem { item, round, reason: ItemRemoval::Unused });
        if self.items[i].primary {
            self.infeasible = Some(item);
            // Nothing can be solved: every option and every other item goes.
            for o in 0..self.option_live.len() {
                let _ = self.drop_option(o, round, item);
            }
            for j in 0..self.items.len() {
                let _ = self.drop_item(j, round, ItemRemoval::Unused);
            }
        }
    }

    fn finish(self) -> Result<Reduction, PreError> {
        let problem = self.problem;
        let mut b = ProblemBuilder::new();
        let mut new_item = vec![None; problem.item_count()];
        let mut item_map = Vec::new();
        for i in problem.items() {
            let keep = self.items[i.index()].live || self.infeasible == Some(i);
            if !keep {
                continue;
            }
            let id = match problem.item_kind(i) {
                ItemKind::Primary => b.primary(problem.item_name(i))?,
                ItemKind::Secondary => b.secondary(problem.item_name(i))?,
            };
            new_item[i.index()] = Some(id);
            item_map.push(i);
        }
        let mut option_map = Vec::new();
        for o in problem.options() {
            if !self.option_live[o.index()] {
                continue;
            }
            let mut entries = Vec::new();
            for e in problem.option(o) {
                let Some(item) = new_item[e.item.index()] else { continue };
                let color = match e.color {
                    Some(c) => Some(b.color(problem.color_name(c))?),
                    None => None,
                };
                entries.push(Entry { item, color });
            }
            let _ = b.option_with_cost(entries, problem.option_cost(o))?;
            option_map.push(o);
        }
        Ok(Reduction {
            problem: b.build(),
            option_map,
            item_map,
            removed_options: self.removed_options,
            removed_items: self.removed_items,
            rounds: self.rounds,
            infeasible: self.infeasible,
            stopped: self.stopped,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Solver;

    fn build(primary: &[&str], secondary: &[&str], options: &[&str]) -> Problem {
        let mut b = ProblemBuilder::new();
        for p in primary {
            b.primary(p).unwrap();
        }
        for s in secondary {
            b.secondary(s).unwrap();
        }
        for o in options {
            b.option_by_names(o.split(' ')).unwrap();
        }
        b.build()
    }

    /// The bit sets only answer no where the traversals would find nothing: with and
    /// without them, every removal is the same, in the same round, with the same witness.
    #[test]
    fn the_sets_change_no_removal() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let mut reductions = 0;
        for _ in 0..2_000 {
            let (n1, n2) = (2 + next(7) as usize, next(3) as usize);
            let mut b = ProblemBuilder::new();
            let items: Vec<ItemId> = (0..n1 + n2)
                .map(|i| {
                    let name = format!("i{i}");
                    if i < n1 { b.primary(&name) } else { b.secondary(&name) }.unwrap()
                })
                .collect();
            for _ in 0..next(16) {
                let mut option: Vec<ItemId> =
                    items.iter().copied().filter(|_| next(3) == 0).collect();
                if !option.iter().any(|i| i.index() < n1) {
                    option.push(items[next(n1 as u64) as usize]);
                }
                b.option(option).unwrap();
            }
            let p = b.build();
            let mut with = State::new(&p);
            assert!(with.sets.is_some());
            with.run(&PreConfig::default());
            let mut without = State::new(&p);
            without.sets = None;
            without.run(&PreConfig::default());
            assert_eq!(with.removed_options, without.removed_options, "{p:?}");
            assert_eq!(with.removed_items, without.removed_items, "{p:?}");
            assert_eq!(with.infeasible, without.infeasible);
            // (E1) after the run.
            let sets = with.sets.as_ref().expect("sets");
            for (o, &live) in with.option_live.iter().enumerate() {
                assert_eq!(sets.live[o / 64] >> (o % 64) & 1 == 1, live, "(E1) option {o}");
            }
            reductions += usize::from(!with.removed_options.is_empty());
        }
        assert!(reductions > 100, "only {reductions} problems reduced");
    }

    #[test]
    fn knuths_first_example() {
        let p = build(
            &["A", "B", "C", "D", "E"],
            &["F", "G"],
            &["C E F", "A D G", "B C F", "A D", "B G", "D E G"],
        );
        let r = reduce(&p).unwrap();
        let texts: Vec<String> = r.problem.options().map(|o| r.problem.option_text(o)).collect();
        // DLX-PRE's output on this file, options in input order: `E`, `A`, `B` from options
        // 0, 3 and 4 ("Removed 3 options and 4 items, ..., 3 rounds").
        assert_eq!(texts, ["E", "A", "B"]);
        assert_eq!((r.removed_options.len(), r.removed_items.len(), r.rounds), (3, 4, 3));
        assert_eq!(r.option_map.len(), 3);
        assert_eq!(Solver::new(&r.problem).count().solutions, 1);
        let sol = Solver::new(&r.problem).first().unwrap();
        assert_eq!(
            r.original_solution(&sol),
            [0, 3, 4].map(|k| OptionId::new(k).unwrap()).to_vec()
        );
        assert!(r.infeasible.is_none() && !r.stopped);
    }

    #[test]
    fn knuths_color_example() {
        // `A B X:0 Y:0` blocks C; then C is implied by A, and `C Y:1` goes with it: DLX-PRE's
        // output ("Removed 2 options and 1 item, ..., 2 rounds"), without `X:0 Y:1`, which
        // has no primary item (DLX-PRE ignores it, our builder refuses it).
        let p =
            build(&["A", "B", "C"], &["X", "Y"], &["A B X:0 Y:0", "A C X:1 Y:1", "B X:1", "C Y:1"]);
        let r = reduce(&p).unwrap();
        let texts: Vec<String> = r.problem.options().map(|o| r.problem.option_text(o)).collect();
        assert_eq!(texts, ["A X:1 Y:1", "B X:1"]);
        assert_eq!(r.option_map, [1, 2].map(|k| OptionId::new(k).unwrap()));
        assert_eq!((r.removed_options.len(), r.removed_items.len(), r.rounds), (2, 1, 2));
        assert_eq!(Solver::new(&r.problem).count().solutions, 1);
    }

    #[test]
    fn bounds_are_refused_and_infeasible_is_reported() {
        let mut b = ProblemBuilder::new();
        let a = b.primary_with_bounds("a", 0, 2).unwrap();
        b.option([a]).unwrap();
        let refused = reduce(&b.build()).unwrap_err();
        assert!(
            matches!(&refused, PreError::Unsupported(u) if u.feature == crate::Feature::Multiplicities),
            "{refused:?}"
        );
        assert_eq!(
            refused.to_string(),
            "pre does not handle multiplicities (item `a` has bounds 0:2)"
        );
        let p = build(&["a", "b", "c"], &[], &["a b", "a"]);
        let r = reduce(&p).unwrap();
        assert_eq!(r.infeasible, p.find_item("c"));
        assert_eq!(r.problem.option_count(), 0);
        assert_eq!(r.problem.item_count(), 1);
        assert_eq!(Solver::new(&r.problem).count().solutions, 0);
    }
}
