//! Sliding-tile puzzles: the 8-, 15- and 24-puzzle, solved optimally.
//!
//! A position is a [`Board`]: `n²` numbers row-major, 0 for the blank, `2 <= n <= 5`. A move
//! slides a tile into the blank; [`Dir`] names the direction **the blank** moves. [`solve`]
//! returns an optimal sequence of moves to the [`Goal`] (`blank-first`, `0 1 2 ...`, as in
//! Korf's 100 instances, or `blank-last`, `1 2 ... 0`), by the [`Algorithm`] and with the
//! [`Heuristic`] of the [`SolveOptions`].
//!
//! # Heuristics
//!
//! | heuristic | what it counts | 15-puzzle, Korf's 100: mean nodes (Korf & Felner 2002) |
//! | --- | --- | --- |
//! | [`Heuristic::Manhattan`] | each tile's taxicab distance to its goal cell | 401 million |
//! | [`Heuristic::LinearConflict`] | + 2 per tile that must leave its goal line to let another pass | 40 million |
//! | [`Heuristic::Pdb`] | additive pattern database ([`Pdb`]), 6-6-3 on the 15-puzzle | about 0.6 million |
//! | [`Heuristic::Pdb`] | the same with [`Partition::Large`], 7-8 | about 37,000 |
//!
//! All three are admissible and consistent, and all are updated incrementally after each
//! move (see `space.rs`): Manhattan distance by two table reads, linear conflicts by
//! recomputing the two lines the moved tile touches, the pattern database by one lookup in
//! the moved tile's pattern, whose index is a shift and a mask of the packed state.
//!
//! # Performance
//!
//! A state is two packed words (15-puzzle: two `u64`, see `packed.rs`) and a cached
//! heuristic value; a move is four XORs. The generic [`crate::ida_star`] runs over
//! this space unchanged (there is no puzzle-specific search), so what it costs here is what
//! it costs any space with cheap states.
//!
//! # Memory
//!
//! IDA* stores one path. A*, BFS and bidirectional BFS store every state they reach, so
//! they are bounded by a state budget ([`DEFAULT_MAX_STATES`] unless the
//! [`crate::Budget`] give one): BFS and bidirectional BFS refuse up front a state
//! whose lower bound already predicts more states than the budget (the 15-puzzle's
//! branching factor is about 2.13, the 24-puzzle's 2.37), and every one of them stops with
//! [`SlideError::Stopped`] and [`Stop::MemoryLimit`] when the budget runs out.

mod board;
mod packed;
mod pdb;
mod space;

use std::sync::Arc;

pub use board::{Board, Dir, Goal, MAX_SIDE, MIN_SIDE};
pub use pdb::{BuildProgress, Partition, Pdb, PdbError, FORMAT_VERSION};

use self::packed::Word;
use self::pdb::PdbHeuristic;
use self::space::{Geometry, LinearConflict, Manhattan, TileHeuristic, TileSpace};
use crate::algorithms::{a_star, bfs, bidirectional_bfs, ida_star, iddfs};
use crate::space::{Cost, Space};
use crate::stats::{Budget, SearchResult, Stats, Stop};

/// The state budget of A*, BFS and bidirectional BFS when the limits give none: 2^24 states,
/// about 800 MB.
pub const DEFAULT_MAX_STATES: usize = 1 << 24;

/// The lower bound used by the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Heuristic {
    /// Manhattan distance.
    #[default]
    Manhattan,
    /// Manhattan distance plus linear conflicts.
    LinearConflict,
    /// The additive pattern database given by [`SolveOptions::pdb`].
    Pdb,
}

impl Heuristic {
    /// `manhattan`, `linear-conflict` or `pdb`.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Manhattan => "manhattan",
            Heuristic::LinearConflict => "linear-conflict",
            Heuristic::Pdb => "pdb",
        }
    }
}

/// The search algorithm.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Algorithm {
    /// IDA*: memory of one path; the only choice for hard 15- and 24-puzzle states.
    #[default]
    IdaStar,
    /// A*: fewer nodes than IDA* but every state stored.
    AStar,
    /// Bidirectional BFS (ignores the heuristic except for the memory check).
    Bidirectional,
    /// BFS (ignores the heuristic except for the memory check).
    Bfs,
    /// IDDFS (ignores the heuristic; exponentially slower, for comparison only).
    Iddfs,
}

impl Algorithm {
    /// `ida`, `astar`, `bidir`, `bfs` or `iddfs`.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::IdaStar => "ida",
            Algorithm::AStar => "astar",
            Algorithm::Bidirectional => "bidir",
            Algorithm::Bfs => "bfs",
            Algorithm::Iddfs => "iddfs",
        }
    }

    /// Whether the algorithm stores every state it reaches.
    pub fn stores_states(self) -> bool {
        matches!(self, Algorithm::AStar | Algorithm::Bidirectional | Algorithm::Bfs)
    }
}

/// How to solve: goal, algorithm, heuristic, limits and the pattern database.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    goal: Goal,
    algorithm: Algorithm,
    heuristic: Heuristic,
    limits: Budget,
    pdb: Option<Arc<Pdb>>,
}

impl SolveOptions {
    /// IDA* with Manhattan distance to `goal`, no limits.
    pub fn new(goal: Goal) -> SolveOptions {
        SolveOptions { goal, ..SolveOptions::default() }
    }

    /// Sets the algorithm.
    #[must_use]
    pub fn algorithm(mut self, algorithm: Algorithm) -> SolveOptions {
        self.algorithm = algorithm;
        self
    }

    /// Sets the heuristic ([`Heuristic::Pdb`] needs [`pdb`](SolveOptions::pdb)).
    #[must_use]
    pub fn heuristic(mut self, heuristic: Heuristic) -> SolveOptions {
        self.heuristic = heuristic;
        self
    }

    /// Sets the limits (node budget, state budget, cancel flag).
    #[must_use]
    pub fn limits(mut self, limits: Budget) -> SolveOptions {
        self.limits = limits;
        self
    }

    /// Sets the pattern database used by [`Heuristic::Pdb`].
    #[must_use]
    pub fn pdb(mut self, pdb: Arc<Pdb>) -> SolveOptions {
        self.pdb = Some(pdb);
        self
    }

    /// The goal.
    pub fn goal_kind(&self) -> Goal {
        self.goal
    }
}

/// An optimal solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The number of moves (optimal).
    pub length: usize,
    /// The moves: the directions the blank moves.
    pub moves: Vec<Dir>,
    /// The tile slid by each move.
    pub tiles: Vec<u8>,
    /// The heuristic's value of the start (a lower bound on `length`).
    pub initial_estimate: Cost,
    /// Work counters of the search.
    pub stats: Stats,
}

/// An error of [`solve`], [`Board`] or [`Pdb`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SlideError {
    /// A word of the input is not a number from 0 to 255.
    #[error("not a tile number: {word:?}")]
    Parse {
        /// The word.
        word: String,
    },
    /// The number of cells is not a square.
    #[error("{len} numbers do not make a square board")]
    NotSquare {
        /// The number of cells given.
        len: usize,
    },
    /// The side is out of `2..=5`.
    #[error("a {side}x{side} board is not supported (sides 2 to {MAX_SIDE})")]
    Size {
        /// The side.
        side: usize,
    },
    /// The numbers are not each of `0..cells` once.
    #[error("the numbers must be 0 to {} once each: {detail}", cells - 1)]
    NotPermutation {
        /// The number of cells.
        cells: usize,
        /// What is wrong.
        detail: String,
    },
    /// The goal cannot be reached (the permutation's parity and the blank's distance
    /// disagree).
    #[error("unsolvable: the {} goal cannot be reached from this state (parity)", goal.name())]
    Unsolvable {
        /// The goal.
        goal: Goal,
    },
    /// [`Heuristic::Pdb`] without a database.
    #[error("the pdb heuristic needs a pattern database (SolveOptions::pdb)")]
    PdbMissing,
    /// The database is for another side or goal.
    #[error("the pattern database is for the {side}x{side} board and the {} goal", goal.name())]
    PdbMismatch {
        /// The database's side.
        side: usize,
        /// The database's goal.
        goal: Goal,
    },
    /// The partition has no patterns for the side.
    #[error(
        "the {} pattern database is for the {}, not the {side}x{side} board",
        partition.name(),
        match partition { Partition::Large => "8- and 15-puzzle", _ => "2x2 to 5x5 boards" }
    )]
    Partition {
        /// The side asked for.
        side: usize,
        /// The partition asked for.
        partition: Partition,
    },
    /// BFS or bidirectional BFS would store more states than the budget.
    #[error(
        "{} would store about {estimate:.1e} states for this state (at least {lower_bound} moves \
         from the goal), more than the budget of {limit}; use IDA*",
        algorithm.name()
    )]
    TooMuchMemory {
        /// The algorithm refused.
        algorithm: Algorithm,
        /// The heuristic's lower bound on the solution length.
        lower_bound: Cost,
        /// The predicted number of states.
        estimate: f64,
        /// The state budget.
        limit: usize,
    },
    /// The search stopped before finding a solution (a limit or the cancel flag).
    #[error("{}", stopped_message(*stop, stats))]
    Stopped {
        /// Why.
        stop: Stop,
        /// What it did.
        stats: Stats,
    },
    /// A pattern database file error.
    #[error(transparent)]
    Pdb(#[from] PdbError),
}

fn stopped_message(stop: Stop, stats: &Stats) -> String {
    match stop {
        Stop::MemoryLimit => format!(
            "the search stored {} states, its budget, without finishing; use IDA*",
            stats.stored
        ),
        Stop::NodeLimit => format!("the node limit was reached ({} nodes)", stats.generated),
        Stop::Cancelled => "interrupted".to_owned(),
        Stop::CostLimit => format!("no solution within {} moves", stats.bound),
        other => format!("the search stopped ({})", other.name()),
    }
}

/// Solves `board` optimally.
///
/// ```
/// use dancecard_search::slide::{self, Board, Dir, Goal, Heuristic, SolveOptions};
///
/// let board: Board = "1 2 3 4 5 6 0 7 8".parse()?;
/// let options = SolveOptions::new(Goal::BlankLast).heuristic(Heuristic::LinearConflict);
/// let solution = slide::solve(&board, &options)?;
/// assert_eq!(solution.moves, [Dir::Right, Dir::Right]);
/// assert_eq!(solution.tiles, [7, 8]);
/// # Ok::<(), slide::SlideError>(())
/// ```
pub fn solve(board: &Board, options: &SolveOptions) -> Result<Solution, SlideError> {
    if !board.is_solvable(options.goal) {
        return Err(SlideError::Unsolvable { goal: options.goal });
    }
    let geo = Geometry::new(board.side(), options.goal);
    match options.heuristic {
        Heuristic::Manhattan => with_word(board, &geo, &Manhattan::new(&geo), options),
        Heuristic::LinearConflict => with_word(board, &geo, &LinearConflict::new(&geo), options),
        Heuristic::Pdb => {
            with_word(board, &geo, &PdbHeuristic { pdb: checked_pdb(board, options)? }, options)
        }
    }
}

/// The heuristic's value of `board` (a lower bound on its solution length).
pub fn estimate(board: &Board, options: &SolveOptions) -> Result<Cost, SlideError> {
    let geo = Geometry::new(board.side(), options.goal);
    let h = match options.heuristic {
        Heuristic::Manhattan => pack_h(board, &geo, &Manhattan::new(&geo)),
        Heuristic::LinearConflict => pack_h(board, &geo, &LinearConflict::new(&geo)),
        Heuristic::Pdb => pack_h(board, &geo, &PdbHeuristic { pdb: checked_pdb(board, options)? }),
    };
    Ok(Cost::from(h))
}

/// The database of the options, if it fits the board and goal.
fn checked_pdb<'o>(board: &Board, options: &'o SolveOptions) -> Result<&'o Pdb, SlideError> {
    let pdb = options.pdb.as_deref().ok_or(SlideError::PdbMissing)?;
    if pdb.side() != board.side() || pdb.goal() != options.goal {
        return Err(SlideError::PdbMismatch { side: pdb.side(), goal: pdb.goal() });
    }
    Ok(pdb)
}

fn pack_h<H: TileHeuristic<u64> + TileHeuristic<u128>>(
    board: &Board,
    geo: &Geometry,
    h: &H,
) -> u16 {
    if board.side() <= 4 {
        geo.pack::<u64, H>(board, h).h
    } else {
        geo.pack::<u128, H>(board, h).h
    }
}

fn with_word<H: TileHeuristic<u64> + TileHeuristic<u128>>(
    board: &Board,
    geo: &Geometry,
    h: &H,
    options: &SolveOptions,
) -> Result<Solution, SlideError> {
    if board.side() <= 4 {
        run::<u64, H>(board, geo, h, options)
    } else {
        run::<u128, H>(board, geo, h, options)
    }
}

/// The asymptotic branching factor of IDA* on a side (Korf, Reid and Edelkamp 2001).
fn branching(side: usize) -> f64 {
    match side {
        4 => 2.13,
        _ => 2.37,
    }
}

fn run<W: Word, H: TileHeuristic<W>>(
    board: &Board,
    geo: &Geometry,
    h: &H,
    options: &SolveOptions,
) -> Result<Solution, SlideError> {
    let space = TileSpace { geo, goal_cells: geo.goal_cells::<W>(), heuristic: h };
    let start = geo.pack::<W, H>(board, h);
    let lower_bound = space.heuristic(&start);
    let algorithm = options.algorithm;
    let mut limits = options.limits.clone();
    if algorithm.stores_states() && limits.max_states.is_none() {
        limits = limits.max_states(DEFAULT_MAX_STATES);
    }
    let limit = limits.max_states.unwrap_or(usize::MAX);
    // The 8-puzzle's whole space (181,440 states) fits; larger boards are checked.
    if board.side() >= 4 {
        let b = branching(board.side());
        let d = lower_bound as f64;
        let estimate = match algorithm {
            Algorithm::Bfs => Some(b.powf(d)),
            Algorithm::Bidirectional => Some(2.0 * b.powf(d / 2.0)),
            _ => None,
        };
        if let Some(estimate) = estimate.filter(|&e| e > limit as f64) {
            return Err(SlideError::TooMuchMemory { algorithm, lower_bound, estimate, limit });
        }
    }
    let result: SearchResult<Dir> = match algorithm {
        Algorithm::IdaStar => ida_star(&space, start, &limits),
        Algorithm::AStar => a_star(&space, start, &limits),
        Algorithm::Bidirectional => bidirectional_bfs(&space, start, &limits),
        Algorithm::Bfs => bfs(&space, start, &limits),
        Algorithm::Iddfs => iddfs(&space, start, &limits),
    };
    match result.path {
        Some(path) => {
            let tiles = board.tiles_moved(&path.moves).unwrap_or_default();
            Ok(Solution {
                length: path.moves.len(),
                moves: path.moves,
                tiles,
                initial_estimate: lower_bound,
                stats: result.stats,
            })
        }
        None => Err(SlideError::Stopped { stop: result.stop, stats: result.stats }),
    }
}

#[cfg(test)]
mod tests;
