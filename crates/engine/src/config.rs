//! The vocabulary of a search request: how to branch ([`Heuristic`]), on which data
//! structure ([`Kernel`]), within which limits ([`Config`]), why it ended ([`Stop`]), what it
//! found ([`Outcome`]) and the unit of divided work ([`Subtree`]).
//!
//! Every kernel, every method and every front end reads these types; none of them imports a
//! kernel. [`Solver`](crate::Solver) and the kernels in `kernels/` import them, never the
//! other way.

pub use dancecard_budget::Budget;

/// How the search picks the item to branch on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Heuristic {
    /// Knuth's "S" heuristic, minimum remaining values: the first active primary item with the
    /// fewest active options (as DLX1 does, so that node counts agree with it).
    #[default]
    Mrv,
    /// The first active primary item, whatever its number of options.
    Leftmost,
    /// Knuth's SSXCC: the choice of [`Heuristic::Mrv`] (ties to the earliest item), but an
    /// item left with one option while the clashing options are hidden is taken first (a
    /// *forced move*), and an option that would leave a primary item with none is given up
    /// before the next level is entered (no node for that dead end). A whole count
    /// ([`Solver::count`](crate::Solver::count) with no prefix) runs on sparse sets
    /// (`kernels/cells.rs`) and walks SSXCC's tree node for node, with its node and update
    /// counts; every other search (the first solutions, subtrees, threads, the memoised
    /// count, multiplicities, costs) branches as `Mrv` does.
    Ssxcc,
}

impl Heuristic {
    /// Every heuristic, in the order front ends list them.
    pub const ALL: [Heuristic; 3] = [Heuristic::Mrv, Heuristic::Leftmost, Heuristic::Ssxcc];

    /// The heuristic's name in every front end (`mrv`, `leftmost`, `ssxcc`), and in
    /// checkpoints and shard fingerprints.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Mrv => "mrv",
            Heuristic::Leftmost => "leftmost",
            Heuristic::Ssxcc => "ssxcc",
        }
    }

    /// The heuristic named `name` (see [`Heuristic::name`]), if there is one.
    pub fn from_name(name: &str) -> Option<Heuristic> {
        Heuristic::ALL.into_iter().find(|h| h.name() == name)
    }
}

/// How to search, and within which limits.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// How to choose the item to branch on.
    pub heuristic: Heuristic,
    /// The data structure [`Solver::count`](crate::Solver::count) searches on.
    pub kernel: Kernel,
    /// The limits: the engine reads `max_solutions` (with 0, no search is made: no
    /// solution, no node), `max_nodes`, `time_limit` and `cancel` (the last two looked at
    /// every [`Config::CHECK_INTERVAL`] nodes).
    pub budget: Budget,
}

/// The data structure [`Solver::count`](crate::Solver::count) runs on. The tree, the solutions counted and the
/// node and update counters are the same on all: only the time differs.
///
/// The bit-set kernels keep one bit per option for the live options; they take problems
/// without colors and with at most 8192 options (others are counted on the links); the
/// bit-sliced one takes at most 64 primary items and 512 options, and is 2 to 3 times
/// faster than the links on domino tilings and N-queens. Counting
/// `LEN` with word-wise population counts is about 4 times faster than the links on
/// pentominoes (options of 6 items, long item lists) and 2 times faster on tetromino tilings,
/// but slower on domino tilings, sudoku or Langford pairs (short options, short lists), where
/// the links do few updates per node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// The fastest kernel for the problem on this machine, found by timing the first 10,000
    /// nodes on each (once per solver; a problem whose whole count takes fewer nodes is
    /// counted on the links at once).
    #[default]
    Auto,
    /// Always the dancing links.
    Links,
    /// Bit sets, `LEN` counted from the sets at each node (population counts).
    BitsCounted,
    /// Bit sets, `LEN` kept in an array per level, lowered for each option hidden.
    BitsKept,
    /// Bit sets for small problems (at most 64 primary items and 512 options), `LEN` kept
    /// *bit-sliced*: one word per bit of the count, every item at once, so that hiding an
    /// option and choosing an item cost a few word operations. Problems it does not take
    /// are counted as by [`Kernel::BitsKept`].
    BitsSliced,
}

impl Config {
    /// The time limit, the cancel flag and progress reports are looked at once every this many
    /// nodes. A node costs from a few nanoseconds to a few microseconds, so this is well under
    /// a millisecond on the instances we know.
    pub const CHECK_INTERVAL: u64 = 1024;

    /// A configuration with the given heuristic and no limits.
    pub fn with_heuristic(heuristic: Heuristic) -> Self {
        Self { heuristic, ..Self::default() }
    }

    /// The default heuristic and kernel, within `budget`.
    pub fn with_budget(budget: Budget) -> Self {
        Self { budget, ..Self::default() }
    }
}

/// Why a search ended: the project's one stop vocabulary (from `dancecard-budget`, shared
/// with the models and the heuristic searches). The engine ends with
/// [`Stop::Exhausted`], [`Stop::SolutionLimit`], [`Stop::NodeLimit`], [`Stop::TimeLimit`],
/// [`Stop::Cancelled`] or [`Stop::Visitor`].
///
/// ```
/// use dancecard_engine::Stop;
/// assert_eq!(Stop::NodeLimit.name(), "node-limit");
/// assert_eq!(Stop::from_name("node-limit"), Some(Stop::NodeLimit));
/// ```
pub use dancecard_budget::Stop;

/// The result of a search: how many solutions it found and why it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions found (all of them when `stop` is [`Stop::Exhausted`]).
    pub solutions: u128,
    /// Why the search ended.
    pub stop: Stop,
}

impl Outcome {
    /// Whether the search covered the whole tree.
    pub fn is_complete(&self) -> bool {
        self.stop.is_complete()
    }
}

/// A subtree of the search, named by its choice prefix (see [`Solver::set_prefix`](crate::Solver::set_prefix)).
#[derive(Clone, Debug, PartialEq)]
pub struct Subtree {
    /// The choice indices from the root.
    pub prefix: Vec<u32>,
    /// Its share of the whole tree by Knuth's estimate: the product, over the levels of the
    /// prefix, of one over the number of options at that level (the weights of
    /// [`Solver::progress`](crate::Solver::progress)).
    pub share: f64,
}

/// What the fraction of a [`Progress`] measures, and so what it can say of the time left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Basis {
    /// Knuth's estimate of the part of the plain search's tree explored: the position among
    /// the branches at each level, each branch of a node weighing the same (DLX1's progress
    /// lines; [`Solver::progress`](crate::Solver::progress)). The nodes are the plain tree's,
    /// so that a Monte Carlo estimate of that tree ([`Solver::estimate`](crate::Solver::estimate))
    /// also predicts how many are left.
    Search,
    /// Knuth's estimate of the position in another tree: the memoised search's (a subproblem
    /// looked up counts as done), or a branch and bound's.
    Tree,
    /// Units of work done, of all: tasks, subtrees, puzzles. Units of about equal size make
    /// it a fair measure of the work done.
    Units,
    /// The stages of a count by stages done, of all; the stages cost very different times.
    Stages,
    /// Nothing is known of the fraction (it is 0).
    #[default]
    Unknown,
}

/// A snapshot of a running count, for progress reports: the same from one thread or many.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Progress {
    /// Estimated fraction of the work done, from 0 to 1 (what it measures: `basis`).
    pub fraction: f64,
    /// What `fraction` measures.
    pub basis: Basis,
    /// Solutions found so far (saturating at `u128::MAX`).
    pub solutions: u128,
    /// Nodes searched so far (as of the threads' last reports).
    pub nodes: u64,
}
