//! IDA*: iterative deepening on f = g + h, and the depth-first core it shares with IDDFS.

use crate::stats::Bounds;
use std::time::Instant;

use crate::space::{Cost, Space, Step};
use crate::stats::{Budget, Path, SearchResult, Stats, Stop, POLL_MASK};

/// A node on the current path of the depth-first search.
struct Frame<S> {
    state: S,
    /// Cost (IDA*) or depth (IDDFS) from the start.
    g: Cost,
    /// This node's successors are `buf[next..end]` (those not yet tried).
    next: u32,
    end: u32,
    /// `buf[first]` is where this node's successors begin (truncated back to on return).
    first: u32,
    /// The index in `buf` of the step that reached this node (unused for the root).
    step: u32,
}

/// A buffer index as `u32` (frames are kept small: the buffer holds one path's successors).
#[inline(always)]
fn index(i: usize) -> u32 {
    u32::try_from(i).expect("the successor buffer of one path stays below 2^32 entries")
}

/// How the depth-first core measures a node.
pub(super) trait Measure<S: Space> {
    /// The bound of the first iteration.
    fn initial(&self, space: &S, start: &S::State) -> Cost;
    /// `(g, f)` of a successor reached by `step` from a node at `g`.
    fn measure(&self, space: &S, g: Cost, step: &Step<S::State, S::Move>) -> (Cost, Cost);
}

/// IDA*'s measure: g sums move costs, f = g + h.
struct CostPlusHeuristic;

impl<S: Space> Measure<S> for CostPlusHeuristic {
    #[inline]
    fn initial(&self, space: &S, start: &S::State) -> Cost {
        space.heuristic(start)
    }

    #[inline]
    fn measure(&self, space: &S, g: Cost, step: &Step<S::State, S::Move>) -> (Cost, Cost) {
        let g = g.saturating_add(step.cost);
        (g, g.saturating_add(space.heuristic(&step.state)))
    }
}

/// Iterative deepening depth-first search with a lower bound: IDA* (Korf 1985).
///
/// Each iteration is a depth-first search that cuts off every node whose f = g + h exceeds
/// the current bound. The first bound is h(start); **the next bound is the smallest f that
/// exceeded the current one**, not the current bound plus one: no path costs less, and with
/// costs other than 1 this skips the iterations that could not find anything new. With an
/// admissible heuristic the first goal reached is optimal, since every cheaper path was cut
/// off only because it could not reach a goal within an earlier bound.
///
/// Memory is the current path and its successors. A node's successors do not include its
/// parent's state again (the move that undoes the last one), which removes the 2-cycles that
/// would otherwise double the tree of a reversible puzzle. The successors are stored in one
/// shared buffer, so the search allocates nothing once the deepest path has been seen.
///
/// [`Budget::max_cost`] bounds the bound ([`Stop::CostLimit`]); [`Budget::max_nodes`] counts
/// generated nodes over all iterations.
///
/// IDA* searches a tree, not a graph: it does not remember states, so on a finite space
/// with no reachable goal it deepens forever unless [`Budget::max_cost`] stops it, and a
/// cycle of zero-cost moves makes one iteration endless. Give every move a positive cost,
/// or a cost bound.
///
/// ```
/// use dancecard_search::{ida_star, Cost, Budget, Space, Step, Stop};
///
/// // Reach 0 from a number by subtracting 1 (cost 1) or 7 (cost 3); h = 3x/7, rounded down,
/// // is admissible since no move removes a unit for less than 3/7.
/// struct Coins;
/// impl Space for Coins {
///     type State = u32;
///     type Move = u32;
///     fn successors(&self, &x: &u32, out: &mut Vec<Step<u32, u32>>) {
///         for (d, c) in [(1, 1), (7, 3)] {
///             if x >= d {
///                 out.push(Step { mv: d, state: x - d, cost: c });
///             }
///         }
///     }
///     fn is_goal(&self, &x: &u32) -> bool {
///         x == 0
///     }
///     fn heuristic(&self, &x: &u32) -> Cost {
///         Cost::from(x) * 3 / 7
///     }
/// }
/// let result = ida_star(&Coins, 16, &Budget::new());
/// assert_eq!(result.stop, Stop::Found);
/// assert_eq!(result.path.unwrap().cost, 8); // 7 + 7 + 1 + 1
/// assert!(result.stats.iterations >= 1);
/// ```
pub fn ida_star<S: Space>(space: &S, start: S::State, limits: &Budget) -> SearchResult<S::Move> {
    deepen(space, start, limits, &CostPlusHeuristic)
}

/// The iterative-deepening core shared by IDA* and IDDFS.
pub(super) fn deepen<S: Space, M: Measure<S>>(
    space: &S,
    start: S::State,
    limits: &Budget,
    measure: &M,
) -> SearchResult<S::Move> {
    let started = Instant::now();
    let mut stats = Stats::default();
    let finish = |path, stop, stats| SearchResult::finish(path, stop, stats, started);
    if space.is_goal(&start) {
        stats.iterations = 1;
        return finish(Some(Path { moves: Vec::new(), cost: 0 }), Stop::Found, stats);
    }
    let max_cost = limits.cost_bound();
    let node_budget = limits.node_budget();
    let mut bound = measure.initial(space, &start);
    let mut buf: Vec<Step<S::State, S::Move>> = Vec::new();
    let mut frames: Vec<Frame<S::State>> = Vec::new();
    loop {
        if !stats.next_iteration(bound, max_cost) {
            return finish(None, Stop::CostLimit, stats);
        }
        let mut next_bound = Cost::MAX;
        buf.clear();
        frames.clear();
        space.successors(&start, &mut buf);
        stats.expanded += 1;
        stats.generated += buf.len() as u64;
        frames.push(Frame {
            state: start.clone(),
            g: 0,
            next: 0,
            end: index(buf.len()),
            first: 0,
            step: 0,
        });
        while let Some(top) = frames.last_mut() {
            if top.next == top.end {
                let first = top.first as usize;
                let _ = frames.pop();
                buf.truncate(first);
                continue;
            }
            let k = top.next as usize;
            top.next += 1;
            let (g, f) = measure.measure(space, top.g, &buf[k]);
            if f > bound {
                next_bound = next_bound.min(f);
                continue;
            }
            if space.is_goal(&buf[k].state) {
                let mut moves: Vec<S::Move> =
                    frames[1..].iter().map(|fr| buf[fr.step as usize].mv.clone()).collect();
                moves.push(buf[k].mv.clone());
                let cost = frames[1..]
                    .iter()
                    .map(|fr| buf[fr.step as usize].cost)
                    .chain([buf[k].cost])
                    .fold(0, Cost::saturating_add);
                stats.stored = stats.stored.max(frames.len() + 1);
                return finish(Some(Path { moves, cost }), Stop::Found, stats);
            }
            // Expand the successor: generate its children, all but its parent's state.
            let state = buf[k].state.clone();
            let first = buf.len();
            space.successors_except(&state, &top.state, &mut buf);
            let kept = buf.len();
            let (first32, kept32) = (index(first), index(kept));
            stats.expanded += 1;
            stats.generated += (kept - first) as u64;
            frames.push(Frame {
                state,
                g,
                next: first32,
                end: kept32,
                first: first32,
                step: k as u32,
            });
            if frames.len() > stats.stored {
                stats.stored = frames.len();
            }
            if stats.generated >= node_budget {
                return finish(None, Stop::NodeLimit, stats);
            }
            if stats.expanded & POLL_MASK == 0 {
                if let Some(stop) = limits.interrupted(started) {
                    return finish(None, stop, stats);
                }
            }
        }
        if next_bound == Cost::MAX {
            return finish(None, Stop::Exhausted, stats);
        }
        bound = next_bound;
    }
}
