//! A*: best-first search on f = g + h.

use crate::stats::Bounds;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::time::Instant;

use super::{moves_to, Link, ROOT};
use crate::space::{Cost, Space, Step};
use crate::stats::{Budget, Path, SearchResult, Stats, Stop, POLL_MASK};
use crate::table::{StateIndex, MAX_STATES};

/// An entry of the open list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Open {
    f: Cost,
    g: Cost,
    node: u32,
}

impl Ord for Open {
    /// `BinaryHeap` pops the greatest: the smallest f, then the largest g (closer to a goal),
    /// then the oldest node (deterministic ties).
    fn cmp(&self, other: &Self) -> Ordering {
        other.f.cmp(&self.f).then(self.g.cmp(&other.g)).then(other.node.cmp(&self.node))
    }
}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A* from `start`: a path of least cost when the heuristic is admissible.
///
/// The open list is a binary heap ordered by f = g + h (ties: larger g first). A state
/// reached again by a cheaper path is updated and pushed again (*reopened*), so the result is
/// optimal even when the heuristic is admissible but not consistent; stale heap entries are
/// skipped when popped. The goal test is made when a node is expanded, as optimality
/// requires. Every state reached is stored: bound the memory with [`Budget::max_states`].
/// [`Budget::max_cost`] stops the search once the smallest f exceeds it.
///
/// ```
/// use dancecard_search::{a_star, Cost, Budget, Space, Step};
///
/// // A weighted graph: 0 -> 1 costs 5, 0 -> 2 costs 1, 2 -> 1 costs 1.
/// struct Graph;
/// impl Space for Graph {
///     type State = u8;
///     type Move = u8;
///     fn successors(&self, &x: &u8, out: &mut Vec<Step<u8, u8>>) {
///         let edges: &[(u8, Cost)] = match x {
///             0 => &[(1, 5), (2, 1)],
///             2 => &[(1, 1)],
///             _ => &[],
///         };
///         out.extend(edges.iter().map(|&(y, c)| Step { mv: y, state: y, cost: c }));
///     }
///     fn is_goal(&self, &x: &u8) -> bool {
///         x == 1
///     }
/// }
/// let path = a_star(&Graph, 0, &Budget::new()).path.unwrap();
/// assert_eq!((path.moves, path.cost), (vec![2, 1], 2));
/// ```
pub fn a_star<S: Space>(space: &S, start: S::State, limits: &Budget) -> SearchResult<S::Move> {
    let started = Instant::now();
    let mut stats = Stats { iterations: 1, stored: 1, ..Stats::default() };
    let finish = |path, stop, stats| SearchResult::finish(path, stop, stats, started);
    let max_states = limits.state_budget().min(MAX_STATES);
    let node_budget = limits.node_budget();
    let max_cost = limits.cost_bound();
    let mut index = StateIndex::new();
    let h0 = space.heuristic(&start);
    let _ = index.insert(start);
    let mut links: Vec<Link<S::Move>> = vec![Link { parent: ROOT, mv: None, g: 0 }];
    let mut heuristic: Vec<Cost> = vec![h0];
    let mut open = BinaryHeap::new();
    open.push(Open { f: h0, g: 0, node: 0 });
    let mut buf: Vec<Step<S::State, S::Move>> = Vec::new();
    while let Some(Open { f, g, node }) = open.pop() {
        if g != links[node as usize].g {
            continue; // stale: a cheaper path to `node` was found since this entry was pushed
        }
        stats.bound = f;
        if f > max_cost {
            return finish(None, Stop::CostLimit, stats);
        }
        if space.is_goal(index.key(node)) {
            let moves = moves_to(&links, node);
            return finish(Some(Path { moves, cost: g }), Stop::Found, stats);
        }
        if stats.expanded & POLL_MASK == 0 {
            if let Some(stop) = limits.interrupted(started) {
                return finish(None, stop, stats);
            }
        }
        buf.clear();
        space.successors(index.key(node), &mut buf);
        stats.expanded += 1;
        for step in buf.drain(..) {
            stats.generated += 1;
            let g2 = g.saturating_add(step.cost);
            let h = space.heuristic(&step.state);
            let (i, new) = index.insert(step.state);
            if new {
                links.push(Link { parent: node, mv: Some(step.mv), g: g2 });
                heuristic.push(h);
            } else if g2 < links[i as usize].g {
                links[i as usize] = Link { parent: node, mv: Some(step.mv), g: g2 };
            } else {
                continue;
            }
            open.push(Open { f: g2.saturating_add(heuristic[i as usize]), g: g2, node: i });
        }
        stats.stored = index.len().max(stats.stored);
        if index.len() >= max_states {
            return finish(None, Stop::MemoryLimit, stats);
        }
        if stats.generated >= node_budget {
            return finish(None, Stop::NodeLimit, stats);
        }
    }
    finish(None, Stop::Exhausted, stats)
}
