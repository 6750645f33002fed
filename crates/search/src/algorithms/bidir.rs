//! Bidirectional breadth-first search.

use crate::stats::Bounds;
use std::time::Instant;

use super::{move_between, moves_to, Link, ROOT};
use crate::space::{Reversible, Space, Step};
use crate::stats::{Budget, Path, SearchResult, Stats, Stop, POLL_MASK};
use crate::table::{StateIndex, MAX_STATES};

/// One direction of the search: the states it reached, layer by layer.
struct Side<S: Space> {
    index: StateIndex<S::State>,
    links: Vec<Link<S::Move>>,
    /// Index of the first state of the frontier layer (the last complete one).
    layer_start: usize,
    /// Depth of the frontier layer.
    depth: u64,
}

impl<S: Space> Side<S> {
    fn new(root: S::State) -> Self {
        let mut index = StateIndex::new();
        let _ = index.insert(root);
        Side { index, links: vec![Link { parent: ROOT, mv: None, g: 0 }], layer_start: 0, depth: 0 }
    }

    fn frontier(&self) -> usize {
        self.index.len() - self.layer_start
    }
}

/// Where the two searches met: the state's index on each side.
struct Meeting {
    forward: u32,
    backward: u32,
}

/// Bidirectional breadth-first search between `start` and the space's goal state: shortest
/// paths in number of moves.
///
/// Two breadth-first searches, one from each end, take turns: each turn expands a whole
/// layer of the side whose frontier is smaller. Each new state is looked up in the other
/// side; the first state found in both gives an optimal path. (Proof: before a layer of depth
/// `a` on one side is expanded, that side holds every state within `a` moves of its root, the
/// other every state within `b` of its own, and no state is in both; so the shortest path
/// has at least `a + b + 1` moves, and a meeting found now has at most that many.) When the
/// branching factor is `b` and the answer `d`, each side stores about `b^(d/2)` states instead
/// of BFS's `b^d`.
///
/// The backward side runs the successor function from the goal, which is why the space must
/// be [`Reversible`]; the moves of the second half of the path are recovered by regenerating
/// successors. [`Budget::max_states`] bounds both sides together.
pub fn bidirectional_bfs<S: Reversible>(
    space: &S,
    start: S::State,
    limits: &Budget,
) -> SearchResult<S::Move> {
    let started = Instant::now();
    let mut stats = Stats { iterations: 1, stored: 2, ..Stats::default() };
    let finish = |path, stop, stats| SearchResult::finish(path, stop, stats, started);
    let goal = space.goal_state();
    if start == goal || space.is_goal(&start) {
        return finish(Some(Path { moves: Vec::new(), cost: 0 }), Stop::Found, stats);
    }
    let max_states = limits.state_budget().min(MAX_STATES);
    let node_budget = limits.node_budget();
    let max_depth = limits.cost_bound();
    let mut forward = Side::<S>::new(start);
    let mut backward = Side::<S>::new(goal);
    let mut buf: Vec<Step<S::State, S::Move>> = Vec::new();
    loop {
        if forward.frontier() == 0 || backward.frontier() == 0 {
            stats.bound = forward.depth + backward.depth;
            return finish(None, Stop::Exhausted, stats);
        }
        if forward.depth + backward.depth + 1 > max_depth {
            stats.bound = forward.depth + backward.depth;
            return finish(None, Stop::CostLimit, stats);
        }
        let forward_turn = forward.frontier() <= backward.frontier();
        let (this, other) =
            if forward_turn { (&mut forward, &backward) } else { (&mut backward, &forward) };
        let layer_end = this.index.len();
        let mut met = None;
        let mut stop = None;
        'layer: for head in this.layer_start..layer_end {
            if stats.expanded & POLL_MASK == 0 {
                if let Some(why) = limits.interrupted(started) {
                    stop = Some(why);
                    break;
                }
            }
            buf.clear();
            space.successors(this.index.key(head as u32), &mut buf);
            stats.expanded += 1;
            for step in buf.drain(..) {
                stats.generated += 1;
                let (i, new) = this.index.insert(step.state);
                if !new {
                    continue;
                }
                let g = this.links[head].g.saturating_add(step.cost);
                this.links.push(Link { parent: head as u32, mv: Some(step.mv), g });
                if let Some(j) = other.index.get(this.index.key(i)) {
                    met = Some(if forward_turn {
                        Meeting { forward: i, backward: j }
                    } else {
                        Meeting { forward: j, backward: i }
                    });
                    break 'layer;
                }
                if this.index.len() + other.index.len() >= max_states {
                    stop = Some(Stop::MemoryLimit);
                    break 'layer;
                }
            }
            if stats.generated >= node_budget {
                stop = Some(Stop::NodeLimit);
                break;
            }
        }
        stats.stored = forward.index.len() + backward.index.len();
        if let Some(m) = met {
            stats.bound = forward.depth + backward.depth + 1;
            let mut moves = moves_to(&forward.links, m.forward);
            let mut cost = forward.links[m.forward as usize].g;
            let mut j = m.backward;
            while backward.links[j as usize].parent != ROOT {
                let parent = backward.links[j as usize].parent;
                let (from, to) = (backward.index.key(j), backward.index.key(parent));
                let (mv, c) = move_between(space, from, to, &mut buf)
                    .expect("a reversible space has the reverse of every move");
                moves.push(mv);
                cost = cost.saturating_add(c);
                j = parent;
            }
            return finish(Some(Path { moves, cost }), Stop::Found, stats);
        }
        if let Some(stop) = stop {
            stats.bound = forward.depth + backward.depth;
            return finish(None, stop, stats);
        }
        let side = if forward_turn { &mut forward } else { &mut backward };
        side.layer_start = layer_end;
        side.depth += 1;
    }
}
