//! Algorithm C on sparse sets ("dancing cells"), walking the tree of Knuth's SSXCC node for
//! node: [`Heuristic::Ssxcc`](crate::Heuristic::Ssxcc)'s counts.
//!
//! DLX1 and SSXCC branch on the same item (the active primary item with the fewest options,
//! ties to the earliest on the item line), yet SSXCC's tree is up to 3 times smaller on
//! pentominoes, for two reasons this kernel shares with it:
//!
//! - **Dead ends are not entered.** While the options that clash with a chosen option are
//!   hidden, an active primary item whose last option goes ends the attempt at once: the next
//!   level, which DLX1 enters and counts as a node before it finds the item with no option,
//!   is never entered, and the rest of the hiding is not done.
//! - **Forced moves come first.** An active primary item left with one option while hiding
//!   goes on a stack (the *force* stack), and the next levels take those items first, without
//!   looking for the best item and without saving the sizes.
//!
//! The state is sparse sets: every item's active options are the first `size` entries of its
//! own slice of `set`, and removing one swaps it with the last of them, so undoing is only
//! restoring `size`; the active items are the first `active` entries of `item`, removed the
//! same way. A branch node saves the sizes of the active items on a stack; a forced move
//! saves nothing (its item has one option: there is nothing to restore for a next one).
//! Because removals permute the sets, the options of an item are tried in the order the set
//! holds them then, and the force stack fills in the order of the sets: both are part of the
//! tree, and both are SSXCC's here, so that the node and update counts are Knuth's.
//!
//! Updates are counted as SSXCC counts them: one per item swapped out of the active items,
//! one per option removed from an item's set.
//!
//! # Invariants
//!
//! - **(D1)** For every item `x` and every `q` in its slice, `loc[set[q]] == q`, and the
//!   node `set[q]` is an entry of item `x`; for every `k < items`, `pos[item[k]] == k`.
//! - **(D2)** For every active item `x` (`pos[x] < active`), its active options are
//!   `set[base[x]..base[x] + size[x]]`: exactly the options that hold `x` and share no item
//!   with the chosen options, except the secondary items they hold in the same color.
//! - **(D3)** Every active primary item has at least one option (hiding stops before it
//!   empties one); the force stack holds only items that had one option when pushed.
//!
//! [`Cells::check`] checks (D1) and the part of (D2) about sizes against a recount.

use std::time::Instant;

use crate::arena::Arena;
use crate::config::{Config, Stop};
use crate::plumbing::{counted, Counted, Limits, Tick};
use crate::stats::Stats;

/// The problem for the sparse sets (immutable): the nodes of the options with a primary
/// item, each option's nodes consecutive.
#[derive(Clone, Debug)]
pub(crate) struct Cells {
    /// Items `0..n_items` (the arena's `1..=N`, in its order: primary first).
    n_items: u32,
    /// Items `0..n_primary` are primary.
    n_primary: u32,
    /// Item of each node.
    itm: Vec<u32>,
    /// The next node of each node's option, cyclically.
    next: Vec<u32>,
    /// Color of each node (0: none).
    clr: Vec<u32>,
    /// The option of node `y` is `opt_start[o]..opt_start[o + 1]` for `o = opt[y]`.
    opt: Vec<u32>,
    #[cfg(any(test, feature = "check-invariants", debug_assertions))]
    opt_start: Vec<u32>,
    /// Each option's index in the arena (options without a primary item are left out).
    opt_index: Vec<u32>,
    /// Item `x`'s slice of `set` starts at `base[x]`; `base[n_items]` is the length of `set`.
    base: Vec<u32>,
    /// The number of options of each item at the root.
    root_size: Vec<u32>,
    /// Whether an active primary item has no option at the root (no solution, no node).
    uncoverable: bool,
}

impl Cells {
    /// The sparse sets of `arena`'s problem, every item active.
    pub(crate) fn new(arena: &Arena) -> Cells {
        let n = arena.n_items;
        let n1 = arena.n_primary;
        let mut itm = Vec::new();
        let mut next = Vec::new();
        let mut clr = Vec::new();
        let mut opt = Vec::new();
        let mut opt_start = vec![0u32];
        let mut opt_index = Vec::new();
        let mut root_size = vec![0u32; n as usize];
        for (k, range) in arena.option_nodes().enumerate() {
            // SSXCC ignores an option without a primary item: no solution holds one.
            if !range.clone().any(|x| arena.nodes[x].top as u32 <= n1) {
                continue;
            }
            for x in range {
                let i = arena.nodes[x].top as u32 - 1;
                itm.push(i);
                clr.push(arena.colors.get(x).map_or(0, |&c| c as u32));
                opt.push(opt_index.len() as u32);
                root_size[i as usize] += 1;
            }
            opt_start.push(itm.len() as u32);
            opt_index.push(k as u32);
            let (first, last) = (opt_start[opt_index.len() - 1], itm.len() as u32);
            next.extend(first + 1..last);
            next.push(first);
        }
        let mut base = Vec::with_capacity(n as usize + 1);
        let mut at = 0u32;
        for &s in &root_size {
            base.push(at);
            at += s;
        }
        base.push(at);
        let uncoverable = root_size[..n1 as usize].contains(&0);
        Cells {
            n_items: n,
            n_primary: n1,
            itm,
            next,
            clr,
            opt,
            #[cfg(any(test, feature = "check-invariants", debug_assertions))]
            opt_start,
            opt_index,
            base,
            root_size,
            uncoverable,
        }
    }

    /// Counts the solutions within `config`'s limits, calling `tick` every
    /// [`Config::CHECK_INTERVAL`] nodes with the fraction of the tree done and the counters.
    pub(crate) fn count(&self, config: &Config, tick: Tick<'_>) -> Counted {
        let started = Instant::now();
        let limits = match Limits::open(config) {
            Ok(limits) => limits,
            Err(stop) => return counted(stop, 0, 0, 0, started),
        };
        if self.uncoverable {
            return counted(Stop::Exhausted, 0, 0, 0, started);
        }
        let mut search = Search::new(self);
        let stop = search.run(&limits, started, tick, &mut |_| {});
        counted(stop, search.nodes, search.updates, search.solutions, started)
    }

    /// The solutions within `config`'s limits, each as its options' indices in the arena
    /// (in the order chosen), given to `visit` (for the tests).
    #[cfg(test)]
    pub(crate) fn solutions(&self, config: &Config, visit: &mut dyn FnMut(&[u32])) -> Counted {
        let started = Instant::now();
        let limits = Limits::open(config).expect("a solution limit above 0");
        if self.uncoverable {
            return counted(Stop::Exhausted, 0, 0, 0, started);
        }
        let mut search = Search::new(self);
        let stop =
            search.run(&limits, started, &mut |_, _| std::ops::ControlFlow::Continue(()), visit);
        counted(stop, search.nodes, search.updates, search.solutions, started)
    }
}

/// `v[i]`, unchecked in release builds: every index the search reads is a node (below the
/// number of nodes), an item (below `n_items`), a position in `set` or `item` (below their
/// lengths) or a level (below `n_primary + 2`), by (D1) and the construction of [`Cells`].
#[inline(always)]
fn at(v: &[u32], i: u32) -> u32 {
    debug_assert!((i as usize) < v.len(), "index {i} past {}", v.len());
    // SAFETY: in bounds, as said above; debug builds check it.
    unsafe { *v.get_unchecked(i as usize) }
}

/// `v[i] = x`, unchecked in release builds (see [`at`]).
#[inline(always)]
fn put(v: &mut [u32], i: u32, x: u32) {
    debug_assert!((i as usize) < v.len(), "index {i} past {}", v.len());
    // SAFETY: in bounds, as in `at`; debug builds check it.
    unsafe { *v.get_unchecked_mut(i as usize) = x }
}

/// The most entries on which [`Search::check`] recounts the sizes at every node.
#[cfg(any(test, feature = "check-invariants", debug_assertions))]
const FULL_CHECK_ENTRIES: usize = 4096;

/// One search's state on [`Cells`].
struct Search<'c> {
    cells: &'c Cells,
    /// The option slices of the items (their first `size` entries active), by node.
    set: Vec<u32>,
    /// Where each node is in its item's slice of `set`.
    loc: Vec<u32>,
    size: Vec<u32>,
    /// The items, the first `active` of them active; `pos` is its inverse.
    item: Vec<u32>,
    pos: Vec<u32>,
    active: u32,
    /// `active` before the items of the option being tried were swapped out (a secondary
    /// item at or past it was purified at a shallower level).
    oactive: u32,
    /// Items with one option left, to take first.
    force: Vec<u32>,
    /// The sizes saved by the branch nodes: `(item, size)`, level `l`'s from `saved[l]` to
    /// `saved[l + 1]`.
    savestack: Vec<(u32, u32)>,
    saved: Vec<usize>,
    /// The node chosen at each level.
    choice: Vec<u32>,
    nodes: u64,
    updates: u64,
    solutions: u128,
}

impl<'c> Search<'c> {
    fn new(cells: &'c Cells) -> Search<'c> {
        let n = cells.n_items as usize;
        let mut set = vec![0u32; cells.itm.len()];
        let mut loc = vec![0u32; cells.itm.len()];
        let mut fill = cells.base[..n].to_vec();
        for (y, &i) in cells.itm.iter().enumerate() {
            let q = fill[i as usize];
            set[q as usize] = y as u32;
            loc[y] = q;
            fill[i as usize] += 1;
        }
        Search {
            cells,
            set,
            loc,
            size: cells.root_size.clone(),
            item: (0..cells.n_items).collect(),
            pos: (0..cells.n_items).collect(),
            active: cells.n_items,
            oactive: cells.n_items,
            force: Vec::new(),
            savestack: Vec::new(),
            saved: vec![0; cells.n_primary as usize + 2],
            choice: vec![0; cells.n_primary as usize + 1],
            nodes: 0,
            updates: 0,
            solutions: 0,
        }
    }

    /// Swaps active item `x` out of the active items (to position `active - 1`).
    #[inline(always)]
    fn swap_out(&mut self, x: u32, to: u32) {
        let from = at(&self.pos, x);
        let other = at(&self.item, to);
        put(&mut self.item, to, x);
        put(&mut self.item, from, other);
        put(&mut self.pos, other, from);
        put(&mut self.pos, x, to);
        self.updates += 1;
    }

    /// Hides the options of item `c`'s set (all of them, or those not of `color` when it is
    /// not 0) from the other sets they are in, for the items before `oactive`. With `check`,
    /// returns `false` as soon as an active primary item would have no option left (the rest
    /// not hidden), and pushes the active primary items left with one on the force stack.
    #[inline(always)]
    fn hide(&mut self, c: u32, color: u32, check: bool) -> bool {
        let cells = self.cells;
        let start = at(&cells.base, c);
        let end = start + at(&self.size, c);
        for rr in start..end {
            let tt = at(&self.set, rr);
            if color != 0 && at(&cells.clr, tt) == color {
                continue;
            }
            // The other nodes of the option, cyclically from the one after `tt`.
            let mut nn = at(&cells.next, tt);
            while nn != tt {
                let uu = at(&cells.itm, nn);
                let pu = at(&self.pos, uu);
                if pu < self.oactive {
                    let ss = at(&self.size, uu) - 1;
                    if ss <= 1 && check && uu < cells.n_primary && pu < self.active {
                        if ss == 0 {
                            return false;
                        }
                        self.force.push(uu);
                    }
                    let b = at(&cells.base, uu);
                    let vv = at(&self.loc, nn);
                    let nnp = at(&self.set, b + ss);
                    put(&mut self.size, uu, ss);
                    put(&mut self.set, b + ss, nn);
                    put(&mut self.set, vv, nnp);
                    put(&mut self.loc, nn, b + ss);
                    put(&mut self.loc, nnp, vv);
                    self.updates += 1;
                }
                nn = at(&cells.next, nn);
            }
        }
        true
    }

    /// The fraction of the tree done, from each level's choice among its item's options.
    fn fraction(&self, level: usize) -> f64 {
        let (mut f, mut fd) = (0.0, 1.0);
        for &y in &self.choice[..level] {
            let x = self.cells.itm[y as usize];
            let d = self.size[x as usize].max(1);
            let k = self.loc[y as usize] - self.cells.base[x as usize];
            fd *= f64::from(d);
            f += f64::from(k) / fd;
        }
        f + 0.5 / fd
    }

    /// Algorithm C on the sets, as SSXCC runs it (its labels: forward, advance, backup,
    /// abort); `visit` sees each solution's options (arena indices, in the order chosen).
    fn run(
        &mut self,
        limits: &Limits<'_>,
        started: Instant,
        tick: Tick<'_>,
        visit: &mut dyn FnMut(&[u32]),
    ) -> Stop {
        enum Step {
            Forward,
            Advance,
            Backup,
            Abort,
        }
        let cells = self.cells;
        let n1 = cells.n_primary;
        let mut level: usize = 0;
        let mut best = 0u32;
        let mut cur = 0u32;
        let mut next_check = Config::CHECK_INTERVAL;
        let mut step = Step::Forward;
        loop {
            step = match step {
                Step::Forward => {
                    if self.nodes >= limits.max_nodes {
                        return Stop::NodeLimit;
                    }
                    self.nodes += 1;
                    if self.nodes >= next_check {
                        next_check = self.nodes + Config::CHECK_INTERVAL;
                        let stats = Stats {
                            nodes: self.nodes,
                            updates: self.updates,
                            solutions: self.solutions,
                            elapsed: started.elapsed(),
                        };
                        if let Some(stop) = limits.interrupt(tick, || self.fraction(level), &stats)
                        {
                            return stop;
                        }
                    }
                    #[cfg(any(test, feature = "check-invariants", debug_assertions))]
                    if crate::checks::every_node() {
                        self.check(level);
                    }
                    // A forced move left on the stack by the hiding, if its item is active.
                    let mut forced = false;
                    while let Some(f) = self.force.pop() {
                        if self.pos[f as usize] < self.active {
                            (best, forced) = (f, true);
                            break;
                        }
                    }
                    if !forced {
                        // The active primary item with the fewest options (ties to the
                        // earliest); those with one go on the force stack, the last one first.
                        let mut t = u32::MAX;
                        for k in 0..self.active {
                            let x = at(&self.item, k);
                            if x >= n1 {
                                continue;
                            }
                            let s = at(&self.size, x);
                            debug_assert!(s > 0, "(D3) active primary item {x} has no option");
                            if s <= 1 {
                                self.force.push(x);
                            } else if s < t || (s == t && x < best) {
                                (best, t) = (x, s);
                            }
                        }
                        if let Some(f) = self.force.pop() {
                            (best, forced) = (f, true);
                        } else if t == u32::MAX {
                            // No primary item left: a solution.
                            self.solutions += 1;
                            let options: Vec<u32> = self.choice[..level]
                                .iter()
                                .map(|&y| cells.opt_index[cells.opt[y as usize] as usize])
                                .collect();
                            visit(&options);
                            if self.solutions >= limits.max_solutions {
                                return Stop::SolutionLimit;
                            }
                            step = Step::Backup;
                            continue;
                        }
                    }
                    // Cover `best`: out of the active items, its options out of the others'
                    // sets; a branch node saves the sizes of the items still active.
                    self.active -= 1;
                    self.swap_out(best, self.active);
                    self.oactive = self.active;
                    self.hide(best, 0, false);
                    cur = cells.base[best as usize];
                    let saveptr = self.saved[level];
                    self.savestack.truncate(saveptr);
                    if !forced {
                        let size = &self.size;
                        let active = &self.item[..self.active as usize];
                        self.savestack.extend(active.iter().map(|&x| (x, at(size, x))));
                    }
                    self.saved[level + 1] = self.savestack.len();
                    Step::Advance
                }
                Step::Advance => {
                    let node = self.set[cur as usize];
                    self.choice[level] = node;
                    if self.try_option(node) {
                        level += 1;
                        Step::Forward
                    } else {
                        self.force.clear();
                        Step::Abort
                    }
                }
                Step::Backup => {
                    if level == 0 {
                        return Stop::Exhausted;
                    }
                    level -= 1;
                    let node = self.choice[level];
                    best = cells.itm[node as usize];
                    cur = self.loc[node as usize];
                    Step::Abort
                }
                Step::Abort => {
                    if cur + 1 >= cells.base[best as usize] + self.size[best as usize] {
                        Step::Backup
                    } else {
                        // Restore the sizes saved at this level (and so the active items).
                        let (from, to) = (self.saved[level], self.saved[level + 1]);
                        self.active = (to - from) as u32;
                        for &(x, s) in &self.savestack[from..to] {
                            put(&mut self.size, x, s);
                        }
                        cur += 1;
                        Step::Advance
                    }
                }
            };
        }
    }

    /// Tries the option of `node` (its item just covered): its other items out of the
    /// active ones, then the options that clash with it out of the sets. `false` when an
    /// active primary item would be left without an option (the hiding stops there).
    #[inline(always)]
    fn try_option(&mut self, node: u32) -> bool {
        let cells = self.cells;
        let mut p = self.active;
        self.oactive = p;
        let mut q = at(&cells.next, node);
        while q != node {
            let c = at(&cells.itm, q);
            if at(&self.pos, c) < p {
                p -= 1;
                self.swap_out(c, p);
            }
            q = at(&cells.next, q);
        }
        self.active = p;
        let mut q = at(&cells.next, node);
        while q != node {
            let c = at(&cells.itm, q);
            if c < cells.n_primary {
                if !self.hide(c, 0, true) {
                    return false;
                }
            } else if at(&self.pos, c) < self.oactive && !self.hide(c, at(&cells.clr, q), true) {
                return false;
            }
            q = at(&cells.next, q);
        }
        true
    }

    /// Checks (D1), (D3), and the sizes of (D2) against a recount from the chosen options.
    /// The recount and the check of `loc` take time in the number of entries: they are made
    /// on problems of at most [`FULL_CHECK_ENTRIES`] entries (the tests' small problems);
    /// larger ones get the checks in the number of items.
    #[cfg(any(test, feature = "check-invariants", debug_assertions))]
    fn check(&self, level: usize) {
        let cells = self.cells;
        let n1 = cells.n_primary;
        for (k, &x) in self.item.iter().enumerate() {
            assert_eq!(self.pos[x as usize] as usize, k, "(D1) pos of item {x}");
        }
        for &x in &self.item[..self.active as usize] {
            assert!(x >= n1 || self.size[x as usize] > 0, "(D3) active item {x} has no option");
        }
        if cells.itm.len() > FULL_CHECK_ENTRIES {
            return;
        }
        for x in 0..cells.n_items as usize {
            for q in cells.base[x]..cells.base[x + 1] {
                let y = self.set[q as usize];
                assert_eq!(self.loc[y as usize], q, "(D1) loc of node {y}");
                assert_eq!(cells.itm[y as usize] as usize, x, "(D1) node {y} in item {x}'s set");
            }
        }
        let nodes_of = |o: usize| cells.opt_start[o] as usize..cells.opt_start[o + 1] as usize;
        // The items of the chosen options, with their colors there.
        let mut mark: Vec<Option<u32>> = vec![None; cells.n_items as usize];
        for &y in &self.choice[..level] {
            for z in nodes_of(cells.opt[y as usize] as usize) {
                mark[cells.itm[z] as usize] = Some(cells.clr[z]);
            }
        }
        // An option is compatible with them when each of its items is unmarked, or secondary
        // and marked in the option's own color (not 0).
        let mut live = vec![0u32; cells.n_items as usize];
        for o in 0..cells.opt_index.len() {
            let compatible = nodes_of(o).all(|z| match mark[cells.itm[z] as usize] {
                None => true,
                Some(c) => cells.itm[z] >= n1 && c != 0 && c == cells.clr[z],
            });
            if compatible {
                for z in nodes_of(o) {
                    live[cells.itm[z] as usize] += 1;
                }
            }
        }
        for &x in &self.item[..self.active as usize] {
            if x < n1 {
                let (size, live) = (self.size[x as usize], live[x as usize]);
                assert_eq!(size, live, "(D2) size of active item {x}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ItemKind, OptionId, Problem, ProblemBuilder, Solver};

    /// Random problems (up to 14 options on up to 7 primary and 3 secondary items, colored
    /// or not; some items without an option).
    fn problems() -> Vec<Problem> {
        let mut rng = crate::SplitMix64::new(31);
        let mut out = Vec::new();
        for case in 0..400 {
            let (n1, n2) = (rng.next_u64() % 8, rng.next_u64() % 4);
            let mut b = ProblemBuilder::new();
            let primary: Vec<_> = (0..n1).map(|i| b.primary(&format!("p{i}")).unwrap()).collect();
            let secondary: Vec<_> =
                (0..n2).map(|i| b.secondary(&format!("s{i}")).unwrap()).collect();
            let palette = [b.color("a").unwrap(), b.color("b").unwrap()];
            for _ in 0..rng.next_u64() % 15 {
                let mut entries = Vec::new();
                for &p in &primary {
                    if rng.next_u64() % 3 == 0 {
                        entries.push(crate::Entry { item: p, color: None });
                    }
                }
                for &s in &secondary {
                    if rng.next_u64() % 3 == 0 {
                        let color = (case % 2 == 1 && rng.next_u64() % 3 > 0)
                            .then(|| palette[(rng.next_u64() % 2) as usize]);
                        entries.push(crate::Entry { item: s, color });
                    }
                }
                if entries.iter().any(|e| primary.contains(&e.item)) {
                    b.option(entries).unwrap();
                }
            }
            out.push(b.build());
        }
        out
    }

    fn sorted(mut solutions: Vec<Vec<u32>>) -> Vec<Vec<u32>> {
        for s in &mut solutions {
            s.sort_unstable();
        }
        solutions.sort();
        solutions
    }

    /// The same solutions as the links, every invariant checked at every node.
    #[test]
    fn the_sparse_sets_find_the_links_solutions() {
        for problem in problems() {
            let links: Vec<Vec<u32>> = Solver::new(&problem)
                .solutions()
                .map(|s| s.iter().map(|o: &OptionId| o.index() as u32).collect())
                .collect();
            let cells = Cells::new(&Arena::new(&problem));
            let mut found = Vec::new();
            let (outcome, stats) =
                cells.solutions(&Config::default(), &mut |s| found.push(s.to_vec()));
            assert_eq!(outcome.stop, Stop::Exhausted);
            assert_eq!(stats.solutions, found.len() as u128);
            let found = sorted(found);
            assert!(found.windows(2).all(|w| w[0] != w[1]), "a solution twice: {problem:?}");
            assert_eq!(found, sorted(links), "{problem:?}");
            for s in &found {
                let options: Vec<OptionId> = s.iter().map(|&o| OptionId::from_u32(o)).collect();
                problem.verify(&options).unwrap();
            }
            let primary = problem.items().filter(|&i| problem.item_kind(i) == ItemKind::Primary);
            if primary.count() == 0 {
                assert_eq!((stats.nodes, stats.solutions), (1, 1), "the empty solution");
            }
        }
    }

    /// Limits: no more nodes than the node limit, the solutions up to the solution limit.
    #[test]
    fn the_sparse_sets_stop_at_their_limits() {
        for problem in problems() {
            let cells = Cells::new(&Arena::new(&problem));
            let whole =
                cells.count(&Config::default(), &mut |_, _| std::ops::ControlFlow::Continue(()));
            for limit in [1u64, 2, 3, 5, 8] {
                let config = Config::with_budget(crate::Budget::new().max_nodes(limit));
                let (outcome, stats) =
                    cells.count(&config, &mut |_, _| std::ops::ControlFlow::Continue(()));
                assert!(stats.nodes <= limit);
                if outcome.stop == Stop::Exhausted {
                    assert_eq!(
                        (outcome.solutions, stats.nodes),
                        (whole.0.solutions, whole.1.nodes)
                    );
                } else {
                    assert_eq!((outcome.stop, stats.nodes), (Stop::NodeLimit, limit));
                }
                let config = Config::with_budget(crate::Budget::new().max_solutions(limit as u128));
                let (outcome, _) =
                    cells.count(&config, &mut |_, _| std::ops::ControlFlow::Continue(()));
                assert_eq!(outcome.solutions, whole.0.solutions.min(u128::from(limit)));
            }
        }
    }
}
