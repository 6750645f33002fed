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

use super::mcc_state::{
    check_path, choose, enter, in_limits, leave, lend, make_move, tweak, unmove, Mcc,
};
use crate::config::{Config, Kernel, Outcome, Stop};
use crate::estimate::Probe;
use crate::plumbing::Limits;
use crate::solver::{Donation, Event, Phase, PrefixError, Progress, Sink, Solution, Solver};

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
        let cancel = self.config.budget.cancel.clone();
        let limits = Limits::with_cancel(&self.config, cancel.as_deref());
        let (max_nodes, max_solutions) = (limits.max_nodes, limits.max_solutions);
        if max_solutions == 0 && self.phase == Phase::Fresh {
            return Outcome { solutions: self.stats.solutions, stop: Stop::SolutionLimit };
        }
        let heuristic = self.config.heuristic;
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
        // A stop by a limit while entering `level`: the subtrees left, when wanted (see
        // `Solver::count_with_rest`).
        macro_rules! stop_early {
            ($stop:expr, $level:expr) => {{
                if self.rest.is_some() {
                    let rest = lend!(self, m, self.links_rest(floor, $level));
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
                        let at = (nodes, level, floor);
                        match lend!(self, m, self.poll(sink, &limits, at, Solver::split_off_m)) {
                            Ok(new_floor) => floor = new_floor,
                            Err(stop) => stop_early!(stop, level),
                        }
                    }
                    #[cfg(any(test, feature = "check-invariants", debug_assertions))]
                    if crate::checks::every_node() {
                        self.arena.check_invariants();
                        check_path(&self.arena, &m, &self.choice[..level]);
                    }
                    if S::PRUNES && sink.prune(&self.arena, &m, &self.choice[..level]) {
                        // The min-cost cutoff: no completion of this path can be kept.
                        step = Step::Backdown;
                        continue;
                    }
                    event!(Event::Enter { level });
                    if self.arena.item(0).next == 0 {
                        // No primary item is active: a solution (a node, counted above).
                        self.stats.solutions += 1;
                        event!(Event::Solution { level });
                        if listing {
                            self.level = level;
                            lend!(self, m, sink.frontier(self, level));
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
                        lend!(self, m, sink.frontier(self, level));
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
    pub(crate) fn probe_m(&mut self, rng: &mut crate::zdd::SplitMix64) -> Probe {
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
    ) -> (usize, Probe) {
        if self.apply_prefix_mcc::<COLORED>(m).is_err() {
            let none =
                Probe { nodes: 0.0, solutions: 0.0, updates: 0.0, depth: 0, branching: false };
            return (self.level, none);
        }
        let mut branching = false;
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
            branching |= d > 1;
            let k = rng.below_u32(d);
            // The plain search makes every move of the level; the one taken stands for all.
            let u = self.take_move::<COLORED>(m, level, best, d, k);
            updates += weight * f64::from(d) * u as f64;
            weight *= f64::from(d);
            level += 1;
        }
        (level, Probe { nodes, solutions, updates, depth: level - floor, branching })
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
    fn split_off_m(&self, level: usize, floor: usize) -> Option<Donation> {
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
    #[cfg(feature = "parallel")]
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
