//! IDDFS: iterative deepening depth-first search.

use super::ida::{deepen, Measure};
use crate::space::{Cost, Space, Step};
use crate::stats::{Budget, SearchResult};

/// IDDFS's measure: g counts moves, f = g (no heuristic, costs ignored).
struct Depth;

impl<S: Space> Measure<S> for Depth {
    #[inline]
    fn initial(&self, _: &S, _: &S::State) -> Cost {
        0
    }

    #[inline]
    fn measure(&self, _: &S, g: Cost, _: &Step<S::State, S::Move>) -> (Cost, Cost) {
        (g + 1, g + 1)
    }
}

/// Iterative deepening depth-first search: depth-limited searches with limits 0, 1, 2, ...
/// until a goal is found, so the path found has the fewest moves, in the memory of one path.
///
/// It is [`ida_star`](crate::ida_star) with h = 0 and every move counted as 1 (the heuristic
/// and the move costs are ignored; the path's cost is still the sum of its moves' costs).
/// When a depth limit cuts nothing off, the reachable space is finite and has no goal
/// ([`Stop::Exhausted`](crate::Stop::Exhausted)). [`Budget::max_cost`] bounds the depth.
///
/// ```
/// use dancecard_search::{iddfs, Budget, Space, Step};
///
/// // Words over {a, b}; the goal is "abba".
/// struct Words;
/// impl Space for Words {
///     type State = String;
///     type Move = char;
///     fn successors(&self, w: &String, out: &mut Vec<Step<String, char>>) {
///         if w.len() < 4 {
///             for c in ['a', 'b'] {
///                 out.push(Step { mv: c, state: format!("{w}{c}"), cost: 1 });
///             }
///         }
///     }
///     fn is_goal(&self, w: &String) -> bool {
///         w == "abba"
///     }
/// }
/// let path = iddfs(&Words, String::new(), &Budget::new()).path.unwrap();
/// assert_eq!(path.moves, ['a', 'b', 'b', 'a']);
/// ```
pub fn iddfs<S: Space>(space: &S, start: S::State, limits: &Budget) -> SearchResult<S::Move> {
    deepen(space, start, limits, &Depth)
}
