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
        self.start();
        let mut rng = SplitMix64::new(seed);
        let mut nodes = Moments::default();
        let mut solutions = Moments::default();
        let mut updates = Moments::default();
        let mut max_depth = 0;
        let mut solution_probes = 0;
        let mut made = 0;
        for _ in 0..probes {
            if self.config.budget.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
                break;
            }
            let (n, s, u, depth) = if self.mcc.is_some() {
                self.probe_m(&mut rng)
            } else if self.colored {
                self.probe::<true>(&mut rng)
            } else {
                self.probe::<false>(&mut rng)
            };
            nodes.add(n);
            solutions.add(s);
            updates.add(u);
            max_depth = max_depth.max(depth);
            solution_probes += u64::from(s > 0.0);
            made += 1;
        }
        Estimate {
            probes: made,
            nodes: nodes.mean,
            nodes_stderr: nodes.stderr(),
            solutions: solutions.mean,
            solutions_stderr: solutions.stderr(),
            updates: updates.mean,
            max_depth,
            solution_probes,
        }
    }

    /// One probe: the weighted nodes, solutions and updates of its path, and its depth.
    fn probe<const COLORED: bool>(&mut self, rng: &mut SplitMix64) -> (f64, f64, f64, usize) {
        let Ok(solved) = self.apply_prefix() else {
            self.undo_levels(self.level);
            self.level = 0;
            return (0.0, 0.0, 0.0, 0);
        };
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
        (nodes, solutions, updates, depth)
    }
}
