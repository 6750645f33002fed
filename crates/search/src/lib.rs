//! Heuristic search: generic algorithms over a problem trait, and the classic puzzles.
//!
//! # Brief overview
//!
//! A problem is a [`Space`]: states, the successors of a state with the cost of each move, a
//! goal test and an admissible heuristic. Five algorithms search any space and return a
//! [`SearchResult`] (the [`Path`], why the search [`Stop`]ped, and [`Stats`]: nodes expanded
//! and generated, states stored, iterations, time). Each takes [`Budget`]: a node budget, a
//! stored-state budget (the memory guard), a cost bound and a cancel flag.
//!
//! | algorithm | optimal for | memory |
//! | --- | --- | --- |
//! | [`bfs`] (and [`bfs_explore`]) | moves | every state reached |
//! | [`bidirectional_bfs`] ([`Reversible`] spaces) | moves | about `2 b^(d/2)` states |
//! | [`iddfs`] | moves | one path |
//! | [`a_star`] | cost | every state reached |
//! | [`ida_star`] | cost | one path |
//!
//! The puzzles, each a module with its own solver and a `dancecard` command:
//!
//! - [`slide`]: the sliding-tile puzzles (8-, 15- and 24-puzzle) with Manhattan distance,
//!   linear conflicts and additive pattern databases, under any of the five algorithms;
//! - [`knights`]: the 5x5 knight-swap puzzle (Luogu P2324), by IDA*;
//! - [`egyptian`]: the fewest distinct unit fractions summing to a fraction (Luogu P1763), by
//!   iterative deepening;
//! - [`cover`]: minimum *repeat* cover (every item covered at least once, by the fewest
//!   options) by Dancing Links with IDA*, and [`dominate`]: chessboard domination on it;
//! - [`subset`]: counting subsets under a budget by meeting in the middle (Luogu P4799);
//! - [`constant_sum`] and [`grid_pick`]: the two exercises of the textbook chapter that ask
//!   for structure rather than search (a constant line-sum matrix; a no-two-adjacent
//!   maximum-weight selection by row-mask dynamic programming).
//!
//! The crate does no I/O except [`slide::Pdb::load`] and [`slide::Pdb::save`], which read
//! and write a pattern database at a path the caller chooses.
//!
//! # Example
//!
//! The 8-puzzle: an optimal solution by IDA* with Manhattan distance, checked against
//! bidirectional BFS.
//!
//! ```
//! use dancecard_search::slide::{self, Algorithm, Board, Goal, Heuristic, SolveOptions};
//!
//! let board: Board = "8 6 7 2 5 4 3 0 1".parse()?;
//! let options = SolveOptions::new(Goal::BlankFirst);
//! let ida = slide::solve(&board, &options)?;
//! assert_eq!(ida.length, 27);
//! assert_eq!(board.apply(&ida.moves).unwrap(), Board::goal(3, Goal::BlankFirst));
//!
//! let options = options.algorithm(Algorithm::Bidirectional).heuristic(Heuristic::Manhattan);
//! assert_eq!(slide::solve(&board, &options)?.length, 27);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Bibliography
//!
//! - R. E. Korf, "Depth-first iterative-deepening: an optimal admissible tree search",
//!   *Artificial Intelligence* 27 (1985) 97–109 (IDDFS, IDA*, the 100 15-puzzle instances).
//! - O. Hansson, A. Mayer, M. Yung, "Criticizing solutions to relaxed models yields powerful
//!   admissible heuristics", *Information Sciences* 63 (1992) (linear conflicts).
//! - R. E. Korf, A. Felner, "Disjoint pattern database heuristics", *Artificial Intelligence*
//!   134 (2002) 9–22 (additive pattern databases).
//! - D. E. Knuth, "Dancing links", arXiv cs/0011047 (2000).

#![deny(missing_docs, rustdoc::broken_intra_doc_links)]

mod algorithms;
mod space;
mod stats;
mod table;

pub mod constant_sum;
pub mod cover;
pub mod dominate;
pub mod egyptian;
pub mod grid_pick;
pub mod knights;
pub mod slide;
pub mod subset;

pub use algorithms::{a_star, bfs, bfs_explore, bidirectional_bfs, ida_star, iddfs, Explored};
pub use space::{Cost, Reversible, Space, Step};
pub use stats::{Budget, Path, SearchResult, Stats, Stop};
