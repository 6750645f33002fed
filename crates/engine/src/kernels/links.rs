//! The main loop on the dancing links: Knuth's Algorithm X (DLX1), and Algorithm C with
//! colors, step by step (labels `X2`..`X8`) so that on the same input it visits the same tree
//! and reports the same node and update counts. It keeps its choices on an explicit stack
//! (`choice`), never recursing.

use crate::config::{Config, Outcome, Stop};
use crate::plumbing::Limits;
use crate::solver::{Event, Phase, Sink, Solution, Solver};

impl Solver {
    /// The main loop (Algorithm X; Algorithm C when `COLORED`).
    ///
    /// On return either the search is paused at a solution (`phase == AtSolution`, only when
    /// the sink asked for it) or the arena is restored (I5).
    pub(crate) fn run_x<const COLORED: bool, S: Sink>(
        &mut self,
        sink: &mut S,
        listing: bool,
    ) -> Outcome {
        let cancel = self.config.budget.cancel.clone();
        let limits = Limits::with_cancel(&self.config, cancel.as_deref());
        let (max_nodes, max_solutions) = (limits.max_nodes, limits.max_solutions);
        if max_solutions == 0 && self.phase == Phase::Fresh {
            // No solution wanted: nothing to search (not even the root).
            return Outcome { solutions: self.stats.solutions, stop: Stop::SolutionLimit };
        }
        let mut updates: u64 = 0;
        let mut nodes = self.stats.nodes;
        let mut floor;
        let mut level;
        let mut x: u32;
        let mut i: u32;

        macro_rules! event {
            ($e:expr) => {
                if S::TRACE {
                    sink.event($e, nodes);
                }
            };
        }
        if let Some(rest) = &mut self.rest {
            rest.clear();
        }
        // A stop by a limit while entering `level`: the subtrees left, when wanted.
        macro_rules! stop_early {
            ($stop:expr, $level:expr) => {{
                if self.rest.is_some() {
                    self.rest = Some(self.links_rest(floor, $level));
                }
                finish!($stop, $level)
            }};
        }
        macro_rules! finish {
            ($stop:expr, $applied:expr) => {{
                self.stats.updates += updates;
                self.stats.nodes = nodes;
                self.undo_levels($applied);
                self.level = 0;
                self.phase = Phase::Fresh;
                return Outcome { solutions: self.stats.solutions, stop: $stop };
            }};
        }

        // X6: take back the option of `level`, uncover its other items and go to the next
        // option of its item `i`.
        macro_rules! untry {
            () => {{
                x = self.choice[level];
                i = self.arena.node(x).top as u32;
                event!(Event::Untry { level, option: self.arena.option_of(x) });
                self.arena.uncover_others::<COLORED>(x);
                x = self.arena.node(x).down;
            }};
        }

        // X1: initialize, or resume.
        let mut resume = self.phase == Phase::AtSolution;
        match self.phase {
            Phase::AtSolution => {
                self.phase = Phase::Fresh;
                floor = self.floor;
                level = self.level;
                untry!();
            }
            Phase::Fresh => {
                match self.apply_prefix() {
                    Err(_) => finish!(Stop::Exhausted, self.level),
                    Ok(true) => {
                        // The prefix itself is a solution: the subtree is one leaf.
                        level = self.prefix.len() - 1;
                        nodes += 1;
                        self.stats.solutions += 1;
                        if listing {
                            sink.frontier(self, level + 1);
                        }
                        let _ = sink.solution(Solution {
                            nodes: &self.choice[..=level],
                            arena: &self.arena,
                        });
                        finish!(Stop::Exhausted, level + 1);
                    }
                    Ok(false) => {}
                }
                floor = self.prefix.len();
                level = floor;
                if self.arena.item(0).next == 0 {
                    // No primary items at all: the empty set is the only solution, and the
                    // root the only subtree.
                    nodes += 1;
                    self.stats.solutions += 1;
                    if listing {
                        sink.frontier(self, level);
                    }
                    let _ = sink.solution(Solution { nodes: &[], arena: &self.arena });
                    finish!(Stop::Exhausted, level);
                }
                // X2 is folded into X5: the root always has an item to choose.
                i = 0;
                x = 0;
            }
        }

        'forward: loop {
            if !resume {
                // Entering `level`: a node of the search tree.
                if nodes >= max_nodes {
                    stop_early!(Stop::NodeLimit, level);
                }
                nodes += 1;
                if nodes % Config::CHECK_INTERVAL == 0 {
                    match self.poll(sink, &limits, (nodes, level, floor), Solver::split_off) {
                        Ok(new_floor) => floor = new_floor,
                        Err(stop) => stop_early!(stop, level),
                    }
                }
                #[cfg(any(test, feature = "check-invariants", debug_assertions))]
                if crate::checks::every_node() {
                    self.arena.check_invariants();
                }
                event!(Event::Enter { level });
                if level == self.cap {
                    // Listing subtrees: this one is a unit; back up without branching.
                    self.level = level;
                    sink.frontier(self, level);
                    if level == floor {
                        finish!(Stop::Exhausted, level);
                    }
                    level -= 1;
                    untry!();
                } else {
                    // X3: choose an item; X4: cover it.
                    i = self.choose();
                    event!(Event::Choose { level, item: self.item_id(i), len: self.arena.len(i) });
                    event!(Event::Cover { item: self.item_id(i) });
                    updates += self.arena.cover::<COLORED>(i);
                    x = self.arena.node(i).down;
                }
            }
            resume = false;
            // X5: try option `x` of item `i`, or X7: back up when the list is exhausted.
            loop {
                if x == i {
                    event!(Event::Uncover { item: self.item_id(i) });
                    self.arena.uncover::<COLORED>(i);
                    event!(Event::Backtrack { level });
                    // X8: leave the level.
                    loop {
                        if level == floor {
                            finish!(Stop::Exhausted, level);
                        }
                        level -= 1;
                        untry!();
                        if x != i {
                            break;
                        }
                        event!(Event::Uncover { item: self.item_id(i) });
                        self.arena.uncover::<COLORED>(i);
                        event!(Event::Backtrack { level });
                    }
                }
                self.choice[level] = x;
                event!(Event::Try { level, option: self.arena.option_of(x) });
                if S::TRACE {
                    self.trace_others(x, sink, nodes);
                }
                updates += self.arena.cover_others::<COLORED>(x);
                if self.arena.item(0).next != 0 {
                    level += 1;
                    continue 'forward;
                }
                // X2: every primary item is covered: a solution (which is a node too).
                nodes += 1;
                self.stats.solutions += 1;
                event!(Event::Solution { level });
                if listing {
                    self.level = level;
                    sink.frontier(self, level + 1);
                }
                let flow =
                    sink.solution(Solution { nodes: &self.choice[..=level], arena: &self.arena });
                if self.stats.solutions >= max_solutions {
                    finish!(Stop::SolutionLimit, level + 1);
                }
                if flow.is_break() {
                    self.stats.updates += updates;
                    self.stats.nodes = nodes;
                    self.level = level;
                    self.floor = floor;
                    self.phase = Phase::AtSolution;
                    return Outcome { solutions: self.stats.solutions, stop: Stop::Visitor };
                }
                event!(Event::Untry { level, option: self.arena.option_of(x) });
                self.arena.uncover_others::<COLORED>(x);
                x = self.arena.node(x).down;
            }
        }
    }

    /// Reports the covers that `cover_others(x)` is about to make (trace only).
    pub(crate) fn trace_others<S: Sink>(&self, x: u32, sink: &mut S, nodes: u64) {
        let mut p = x + 1;
        while p != x {
            let node = self.arena.nodes[p as usize];
            if node.top <= 0 {
                p = node.up;
                continue;
            }
            let colored = self.colored && self.arena.colors[p as usize] != 0;
            if !colored {
                sink.event(Event::Cover { item: self.item_id(node.top as u32) }, nodes);
            }
            p += 1;
        }
    }
}
