//! Knuth's Monte Carlo estimate of a search tree, before a long run.
//!
//! A *probe* walks from the root to a leaf, taking at each node one of its `d` children
//! uniformly at random and multiplying a weight by `d`. The sum of the weights of the nodes on
//! the probe's path is an unbiased estimate of the number of nodes of the tree, and the weight
//! of the leaf, when it is a solution, an unbiased estimate of the number of solutions (Knuth,
//! "Estimating the efficiency of backtrack programs", Math. Comp. 29 (1975), 121-136; TAOCP
//! 7.2.2, "Estimating the running time"). The mean over many probes estimates the tree; its
//! standard error says how far to trust it: trees with a few heavy branches have a long tail,
//! and the estimate is then often low. The probes walk the very tree of the plain search
//! (the same heuristic, the same node convention: each level entered, plus one per solution).

use std::sync::atomic::Ordering;

use crate::solver::Solver;
use crate::zdd::SplitMix64;

/// What [`Solver::estimate`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Probes made.
    pub probes: u64,
    /// The estimated number of nodes of the plain search (mean over the probes).
    pub nodes: f64,
    /// The standard error of `nodes`.
    pub nodes_stderr: f64,
    /// The estimated number of solutions.
    pub solutions: f64,
    /// The standard error of `solutions`.
    pub solutions_stderr: f64,
    /// The estimated number of updates of the plain search (DLX1's link removals).
    pub updates: f64,
    /// The deepest probe.
    pub max_depth: usize,
    /// Probes that ended in a solution.
    pub solution_probes: u64,
    /// Nodes the probes walked, all paths together: what the estimate cost.
    pub walked: u64,
    /// Whether the probes stopped before the number asked for, because they had walked
    /// [`Estimate::SHARE`] of the tree they estimate (and at least
    /// [`Estimate::FLOOR`] nodes): the tree is small enough to count. Knuth's estimate is
    /// for trees too big to search; an estimate never costs more than a small share of
    /// the search it predicts, but for its first probe, which on a tree that is one long
    /// path is the whole search.
    pub small_tree: bool,
}

impl Estimate {
    /// The share of the estimated tree that the probes may walk before they stop: a tenth.
    pub const SHARE: f64 = 0.1;
    /// The nodes the probes may walk whatever the tree's size: a tree of a few million
    /// nodes is searched in well under a second.
    pub const FLOOR: u64 = 100_000;
}

/// Knuth's estimate made a probe at a time, for an estimate that goes on while something
/// else runs (the progress bar of a long search). [`Solver::estimate`] is a loop over
/// [`Probes::probe`].
///
/// ```
/// use dancecard_engine::{Probes, ProblemBuilder, Solver};
///
/// let mut b = ProblemBuilder::new();
/// for name in ["a", "b"] {
///     let item = b.primary(name)?;
///     b.option([item])?;
///     b.option([item])?;
/// }
/// let problem = b.build();
/// let mut solver = Solver::new(&problem);
/// let mut probes = Probes::new(1);
/// for _ in 0..10 {
///     probes.probe(&mut solver);
/// }
/// assert_eq!((probes.estimate().nodes, probes.estimate().probes), (7.0, 10));
/// # Ok::<(), dancecard_engine::BuildError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Probes {
    rng: SplitMix64,
    nodes: Moments,
    solutions: Moments,
    updates: Moments,
    max_depth: usize,
    solution_probes: u64,
    made: u64,
    walked: u64,
    /// Whether some probe met a node of more than one child: if none did, the tree is the
    /// one path every probe walks, and the estimate is exact.
    branching: bool,
}

impl Probes {
    /// No probe yet; the probes' random choices come from `seed`.
    pub fn new(seed: u64) -> Probes {
        Probes {
            rng: SplitMix64::new(seed),
            nodes: Moments::default(),
            solutions: Moments::default(),
            updates: Moments::default(),
            max_depth: 0,
            solution_probes: 0,
            made: 0,
            walked: 0,
            branching: false,
        }
    }

    /// One more probe of `solver`'s plain search (under its prefix and heuristic); a paused
    /// search of the solver is abandoned first, and the arena is left as it was ((I5)).
    pub fn probe(&mut self, solver: &mut Solver) {
        solver.start();
        let p = if solver.mcc.is_some() {
            solver.probe_m(&mut self.rng)
        } else if solver.colored {
            solver.probe::<true>(&mut self.rng)
        } else {
            solver.probe::<false>(&mut self.rng)
        };
        self.nodes.add(p.nodes);
        self.solutions.add(p.solutions);
        self.updates.add(p.updates);
        self.max_depth = self.max_depth.max(p.depth);
        self.solution_probes += u64::from(p.solutions > 0.0);
        self.made += 1;
        self.walked += p.depth as u64 + 1;
        self.branching |= p.branching;
    }

    /// The probes made so far.
    pub fn made(&self) -> u64 {
        self.made
    }

    /// The estimate from the probes so far (`small_tree` false).
    pub fn estimate(&self) -> Estimate {
        // A tree without branching is the path each probe walked: known exactly.
        let stderr = |m: &Moments| if self.branching { m.stderr() } else { 0.0 };
        Estimate {
            probes: self.made,
            nodes: self.nodes.mean,
            nodes_stderr: if self.made == 0 { f64::INFINITY } else { stderr(&self.nodes) },
            solutions: self.solutions.mean,
            solutions_stderr: if self.made == 0 { f64::INFINITY } else { stderr(&self.solutions) },
            updates: self.updates.mean,
            max_depth: self.max_depth,
            solution_probes: self.solution_probes,
            walked: self.walked,
            small_tree: false,
        }
    }

    /// Whether the probes so far have walked [`Estimate::SHARE`] of the tree they estimate
    /// and at least [`Estimate::FLOOR`] nodes: more would cost more than counting is worth.
    pub fn enough(&self) -> bool {
        self.made > 0
            && self.walked >= Estimate::FLOOR
            && self.walked as f64 >= Estimate::SHARE * self.nodes.mean
    }
}

/// What one probe found: its weighted nodes, solutions and updates, its depth, and whether
/// it met a node of more than one child.
pub(crate) struct Probe {
    pub(crate) nodes: f64,
    pub(crate) solutions: f64,
    pub(crate) updates: f64,
    pub(crate) depth: usize,
    pub(crate) branching: bool,
}

/// Running mean and variance (Welford).
#[derive(Clone, Copy, Debug, Default)]
struct Moments {
    n: f64,
    mean: f64,
    m2: f64,
}

impl Moments {
    fn add(&mut self, x: f64) {
        self.n += 1.0;
        let d = x - self.mean;
        self.mean += d / self.n;
        self.m2 += d * (x - self.mean);
    }

    fn stderr(&self) -> f64 {
        if self.n < 2.0 {
            return f64::INFINITY;
        }
        (self.m2 / (self.n - 1.0) / self.n).sqrt()
    }
}

impl Solver {
    /// Estimates the plain search's tree by `probes` random root-to-leaf probes (Knuth's
    /// estimate: each probe takes a child uniformly at random at every node, and the sum of
    /// the products of the branching degrees along its path estimates the nodes without
    /// bias), reproducibly from `seed`. On a problem with multiplicities the tree is
    /// Algorithm M's (its moves: a level's options, then the null move). The arena is left as
    /// it was found ((I5)).
    /// The prefix ([`Solver::set_prefix`]) applies; the cancel flag of the configuration is
    /// looked at between probes.
    ///
    /// ```
    /// use dancecard_engine::{ProblemBuilder, Solver};
    ///
    /// // Two independent items with two options each: 7 nodes (the root, 2 at level 1,
    /// // 4 solutions), 4 solutions. Every probe sees the same: the estimate is exact.
    /// let mut b = ProblemBuilder::new();
    /// for name in ["a", "b"] {
    ///     let item = b.primary(name)?;
    ///     b.option([item])?;
    ///     b.option([item])?;
    /// }
    /// let problem = b.build();
    /// let e = Solver::new(&problem).estimate(10, 1);
    /// assert_eq!((e.nodes, e.solutions), (7.0, 4.0));
    /// # Ok::<(), dancecard_engine::BuildError>(())
    /// ```
    pub fn estimate(&mut self, probes: u64, seed: u64) -> Estimate {
        let mut made = Probes::new(seed);
        for _ in 0..probes {
            if self.config.budget.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
                break;
            }
            if made.enough() {
                return Estimate { small_tree: true, ..made.estimate() };
            }
            made.probe(self);
        }
        made.estimate()
    }

    /// One probe: the weighted nodes, solutions and updates of its path, and its depth.
    pub(crate) fn probe<const COLORED: bool>(&mut self, rng: &mut SplitMix64) -> Probe {
        let Ok(solved) = self.apply_prefix() else {
            self.undo_levels(self.level);
            self.level = 0;
            return Probe { nodes: 0.0, solutions: 0.0, updates: 0.0, depth: 0, branching: false };
        };
        let mut branching = false;
        let floor = self.level;
        let (mut nodes, mut solutions, mut updates) = (0.0, 0.0, 0.0);
        let mut weight = 1.0f64;
        let mut level = floor;
        if solved || self.arena.item(0).next == 0 {
            // The prefix (or the empty set) is the subtree's one solution.
            nodes = 1.0;
            solutions = 1.0;
        } else {
            loop {
                // A node: this level entered.
                nodes += weight;
                let i = self.choose();
                let d = self.arena.len(i);
                let u = self.arena.cover::<COLORED>(i);
                if d == 0 {
                    updates += weight * u as f64;
                    self.arena.uncover::<COLORED>(i);
                    break;
                }
                branching |= d > 1;
                let mut x = self.arena.node(i).down;
                for _ in 0..rng.below_u32(d) {
                    x = self.arena.node(x).down;
                }
                self.choice[level] = x;
                // Each of the `d` options: the plain search covers `i` once and makes the
                // option's covers `d` times; the one taken stands for them all.
                let others = self.arena.cover_others::<COLORED>(x);
                updates += weight * (u as f64 + f64::from(d) * others as f64);
                weight *= f64::from(d);
                level += 1;
                if self.arena.item(0).next == 0 {
                    // A solution (a node too).
                    nodes += weight;
                    solutions = weight;
                    break;
                }
            }
        }
        let depth = level - floor;
        self.undo_levels(level);
        self.level = 0;
        Probe { nodes, solutions, updates, depth, branching }
    }
}
