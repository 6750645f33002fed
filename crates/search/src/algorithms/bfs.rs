//! Breadth-first search: shortest paths in number of moves.

use crate::stats::Bounds;
use std::time::Instant;

use super::{moves_to, Link, ROOT};
use crate::space::{Space, Step};
use crate::stats::{Budget, Path, SearchResult, Stats, Stop, POLL_MASK};
use crate::table::{StateIndex, MAX_STATES};

/// Breadth-first search from `start` to the nearest goal, in number of moves (move costs are
/// summed into the path's cost but do not order the search).
///
/// Every state reached is stored (the table doubles as the queue), so the memory is
/// proportional to the number of states within the answer's depth; bound it with
/// [`Budget::max_states`]. A successor is tested for the goal when it is generated, which
/// saves the last layer. [`Budget::max_cost`] bounds the depth.
///
/// ```
/// use dancecard_search::{bfs, Budget, Space, Step, Stop};
///
/// // Knight moves on an unbounded board, from (0, 0) to (3, 3).
/// struct Knight;
/// impl Space for Knight {
///     type State = (i32, i32);
///     type Move = (i32, i32);
///     fn successors(&self, &(x, y): &(i32, i32), out: &mut Vec<Step<(i32, i32), (i32, i32)>>) {
///         for (dx, dy) in [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)] {
///             out.push(Step { mv: (dx, dy), state: (x + dx, y + dy), cost: 1 });
///         }
///     }
///     fn is_goal(&self, &s: &(i32, i32)) -> bool {
///         s == (3, 3)
///     }
/// }
/// let result = bfs(&Knight, (0, 0), &Budget::new());
/// assert_eq!(result.stop, Stop::Found);
/// assert_eq!(result.path.unwrap().moves.len(), 2);
/// ```
pub fn bfs<S: Space>(space: &S, start: S::State, limits: &Budget) -> SearchResult<S::Move> {
    let started = Instant::now();
    let mut stats = Stats { iterations: 1, stored: 1, ..Stats::default() };
    let finish = |path, stop, stats| SearchResult::finish(path, stop, stats, started);
    if space.is_goal(&start) {
        return finish(Some(Path { moves: Vec::new(), cost: 0 }), Stop::Found, stats);
    }
    let max_states = limits.state_budget().min(MAX_STATES);
    let node_budget = limits.node_budget();
    let max_depth = limits.cost_bound();
    let mut index = StateIndex::new();
    let _ = index.insert(start);
    let mut links: Vec<Link<S::Move>> = vec![Link { parent: ROOT, mv: None, g: 0 }];
    let mut buf: Vec<Step<S::State, S::Move>> = Vec::new();
    let mut head = 0usize;
    let mut layer_end = 1usize;
    let mut depth = 0u64;
    while head < index.len() {
        if head == layer_end {
            depth += 1;
            layer_end = index.len();
        }
        if depth >= max_depth {
            stats.bound = depth;
            return finish(None, Stop::CostLimit, stats);
        }
        if stats.expanded & POLL_MASK == 0 {
            if let Some(stop) = limits.interrupted(started) {
                return finish(None, stop, stats);
            }
        }
        buf.clear();
        space.successors(index.key(head as u32), &mut buf);
        stats.expanded += 1;
        for step in buf.drain(..) {
            stats.generated += 1;
            let (i, new) = index.insert(step.state);
            if new {
                let g = links[head].g.saturating_add(step.cost);
                links.push(Link { parent: head as u32, mv: Some(step.mv), g });
                stats.stored = index.len();
                if space.is_goal(index.key(i)) {
                    stats.bound = depth + 1;
                    let moves = moves_to(&links, i);
                    return finish(Some(Path { moves, cost: g }), Stop::Found, stats);
                }
                if index.len() >= max_states {
                    return finish(None, Stop::MemoryLimit, stats);
                }
            }
        }
        if stats.generated >= node_budget {
            return finish(None, Stop::NodeLimit, stats);
        }
        head += 1;
    }
    stats.bound = depth;
    finish(None, Stop::Exhausted, stats)
}

/// What [`bfs_explore`] found: the number of states at each depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explored {
    /// `by_depth[d]` states are exactly `d` moves from the start.
    pub by_depth: Vec<u64>,
    /// [`Stop::Exhausted`] when every reachable state was visited, or the limit that stopped
    /// the exploration.
    pub stop: Stop,
    /// Work counters.
    pub stats: Stats,
}

impl Explored {
    /// The number of states visited (all reachable ones when complete).
    pub fn states(&self) -> u64 {
        self.by_depth.iter().sum()
    }
}

/// Visits every state reachable from `start` in breadth-first order, calling
/// `visit(state, depth)` once per state (the goal test is not used).
///
/// ```
/// use dancecard_search::{bfs_explore, Budget, Space, Step};
///
/// // The integers mod 10 under +1 and +3.
/// struct Ring;
/// impl Space for Ring {
///     type State = u8;
///     type Move = u8;
///     fn successors(&self, &x: &u8, out: &mut Vec<Step<u8, u8>>) {
///         for d in [1, 3] {
///             out.push(Step { mv: d, state: (x + d) % 10, cost: 1 });
///         }
///     }
///     fn is_goal(&self, _: &u8) -> bool {
///         false
///     }
/// }
/// let explored = bfs_explore(&Ring, 0, &Budget::new(), |_, _| {});
/// assert_eq!(explored.states(), 10);
/// assert_eq!(explored.by_depth, [1, 2, 3, 3, 1]);
/// ```
pub fn bfs_explore<S: Space>(
    space: &S,
    start: S::State,
    limits: &Budget,
    mut visit: impl FnMut(&S::State, u32),
) -> Explored {
    let started = Instant::now();
    let mut stats = Stats { iterations: 1, stored: 1, ..Stats::default() };
    let max_states = limits.state_budget().min(MAX_STATES);
    let node_budget = limits.node_budget();
    let max_depth = limits.cost_bound();
    let mut index = StateIndex::new();
    let _ = index.insert(start);
    visit(index.key(0), 0);
    let mut by_depth = vec![1u64];
    let mut buf: Vec<Step<S::State, S::Move>> = Vec::new();
    let mut head = 0usize;
    let mut layer_end = 1usize;
    let mut depth = 0u32;
    let stop = loop {
        if head == index.len() {
            break Stop::Exhausted;
        }
        if head == layer_end {
            depth += 1;
            layer_end = index.len();
        }
        if u64::from(depth) >= max_depth {
            break Stop::CostLimit;
        }
        if stats.expanded & POLL_MASK == 0 {
            if let Some(stop) = limits.interrupted(started) {
                break stop;
            }
        }
        buf.clear();
        space.successors(index.key(head as u32), &mut buf);
        stats.expanded += 1;
        let mut full = false;
        for step in buf.drain(..) {
            stats.generated += 1;
            let (i, new) = index.insert(step.state);
            if new {
                if by_depth.len() <= depth as usize + 1 {
                    by_depth.push(0);
                }
                by_depth[depth as usize + 1] += 1;
                visit(index.key(i), depth + 1);
                if index.len() >= max_states {
                    full = true;
                    break;
                }
            }
        }
        stats.stored = index.len();
        if full {
            break Stop::MemoryLimit;
        }
        if stats.generated >= node_budget {
            break Stop::NodeLimit;
        }
        head += 1;
    };
    stats.bound = u64::from(depth);
    stats.elapsed = started.elapsed();
    Explored { by_depth, stop, stats }
}
