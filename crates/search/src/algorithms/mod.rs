//! The generic algorithms. Each takes a [`crate::Space`], a start state and
//! [`crate::Budget`], and returns a [`crate::SearchResult`].
//!
//! | algorithm | optimal for | memory | needs |
//! | --- | --- | --- | --- |
//! | [`bfs()`] | number of moves | every state reached | |
//! | [`bidirectional_bfs()`] | number of moves | about twice the square root of BFS's | [`crate::Reversible`] |
//! | [`iddfs()`] | number of moves | the current path | |
//! | [`a_star()`] | cost | every state reached | admissible `heuristic` |
//! | [`ida_star()`] | cost | the current path | admissible `heuristic` |

mod astar;
mod bfs;
mod bidir;
mod ida;
mod iddfs;

pub use astar::a_star;
pub use bfs::{bfs, bfs_explore, Explored};
pub use bidir::bidirectional_bfs;
pub use ida::ida_star;
pub use iddfs::iddfs;

use crate::space::{Cost, Space, Step};

/// A stored node of BFS, bidirectional BFS and A*: how it was reached.
#[derive(Clone, Debug)]
struct Link<M> {
    /// Index of the parent (`u32::MAX` for the root).
    parent: u32,
    /// The move from the parent (`None` for the root).
    mv: Option<M>,
    /// The cost from the root.
    g: Cost,
}

const ROOT: u32 = u32::MAX;

/// The moves from the root to node `i`, by following parents.
fn moves_to<M: Clone>(links: &[Link<M>], mut i: u32) -> Vec<M> {
    let mut moves = Vec::new();
    while i != ROOT {
        let link = &links[i as usize];
        if let Some(mv) = &link.mv {
            moves.push(mv.clone());
        }
        i = link.parent;
    }
    moves.reverse();
    moves
}

/// The move (and its cost) from `from` to its successor `to`.
fn move_between<S: Space>(
    space: &S,
    from: &S::State,
    to: &S::State,
    buf: &mut Vec<Step<S::State, S::Move>>,
) -> Option<(S::Move, Cost)> {
    buf.clear();
    space.successors(from, buf);
    buf.iter().find(|s| s.state == *to).map(|s| (s.mv.clone(), s.cost))
}

#[cfg(test)]
mod tests;
