//! The problem trait every algorithm searches: states, successors with costs, a goal test and
//! a heuristic.

use std::hash::Hash;

/// The cost of a move or a path. Unit-cost puzzles use 1 per move.
pub type Cost = u64;

/// One successor of a state: the move that leads to it, the state reached and the move's cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step<S, M> {
    /// The move taken.
    pub mv: M,
    /// The state it leads to.
    pub state: S,
    /// What the move costs (at least 0; [`bfs`](crate::bfs) and
    /// [`bidirectional_bfs`](crate::bidirectional_bfs) count moves and ignore it).
    pub cost: Cost,
}

/// A state space: the problem every algorithm of this crate searches.
///
/// # Contract
///
/// - [`successors`](Space::successors) appends the successors of a state to `out` (which the
///   caller has emptied or not: implementations must only push), deterministically.
/// - [`heuristic`](Space::heuristic) is a lower bound on the cost from a state to the nearest
///   goal (*admissible*). A* and IDA* return optimal paths only with an admissible heuristic;
///   the default, 0, always is. Consistency (`h(x) <= cost(x, y) + h(y)` for every move) is
///   not required: A* reopens a state when it finds a cheaper path to it.
/// - States are compared with `Eq` and hashed with `Hash`: two states that compare equal must
///   be the same position of the puzzle, whatever cached data (such as a heuristic value) they
///   carry.
///
/// # Example
///
/// A number line where a move adds 1 or doubles, from 1 to 10:
///
/// ```
/// use dancecard_search::{ida_star, Cost, Budget, Space, Step};
///
/// struct Line;
/// impl Space for Line {
///     type State = u32;
///     type Move = char;
///     fn successors(&self, &x: &u32, out: &mut Vec<Step<u32, char>>) {
///         out.push(Step { mv: '+', state: x + 1, cost: 1 });
///         if x <= 5 {
///             out.push(Step { mv: '*', state: 2 * x, cost: 1 });
///         }
///     }
///     fn is_goal(&self, &x: &u32) -> bool {
///         x == 10
///     }
/// }
///
/// let result = ida_star(&Line, 1, &Budget::new());
/// let path = result.path.expect("10 is reachable");
/// assert_eq!(path.cost, 4); // 1 +1 2 *2 4 +1 5 *2 10
/// assert_eq!(path.moves.len() as Cost, path.cost);
/// ```
pub trait Space {
    /// A position of the puzzle.
    type State: Clone + Eq + Hash;
    /// A move between two positions.
    type Move: Clone;

    /// Appends the successors of `state` to `out`.
    fn successors(&self, state: &Self::State, out: &mut Vec<Step<Self::State, Self::Move>>);

    /// Appends the successors of `state` other than `parent` (the state `state` was reached
    /// from) to `out`: what IDA* and IDDFS call, so that a search path never undoes its last
    /// move. The default filters [`successors`](Space::successors); a space can skip the
    /// reverse move without generating it.
    fn successors_except(
        &self,
        state: &Self::State,
        parent: &Self::State,
        out: &mut Vec<Step<Self::State, Self::Move>>,
    ) {
        let first = out.len();
        self.successors(state, out);
        let mut kept = first;
        for r in first..out.len() {
            if out[r].state != *parent {
                out.swap(kept, r);
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// Whether `state` is a goal.
    fn is_goal(&self, state: &Self::State) -> bool;

    /// A lower bound on the cost from `state` to a goal (0 by default).
    fn heuristic(&self, state: &Self::State) -> Cost {
        let _ = state;
        0
    }
}

/// A space whose moves can be undone at the same cost and which has a single goal state:
/// what bidirectional search needs, since it searches backwards from the goal with the
/// successor function.
pub trait Reversible: Space {
    /// The one goal state ([`is_goal`](Space::is_goal) is true of it and of nothing else).
    fn goal_state(&self) -> Self::State;
}
