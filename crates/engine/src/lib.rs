//! Exact cover by Knuth's Dancing Links.
//!
//! # Brief overview
//!
//! An *exact cover problem* has *items* and *options* (sets of items); a solution is a set of
//! options that covers every *primary* item exactly once and every *secondary* item at most once
//! (or, when options give secondary items *colors*, any number of times with one color). This
//! crate solves such problems with Knuth's Algorithm X on dancing links (Algorithm C when
//! colors are present), iteratively and with exact work counters:
//!
//! - [`ProblemBuilder`] builds an immutable [`Problem`] from named items and options;
//! - [`Solver`] owns the mutable dancing-links arena and searches: [`Solver::first`],
//!   [`Solver::solutions`] (a lazy iterator), [`Solver::count`] (`u128`) and
//!   [`Solver::solve_with`] (a visitor returning [`ControlFlow`](std::ops::ControlFlow));
//! - [`Config`] bounds a search (solutions, nodes, time, a cancel flag) and picks the
//!   [`Heuristic`] (Knuth's minimum-remaining-values "S" heuristic, or the leftmost item);
//! - [`Stats`] counts nodes and updates exactly as Knuth's DLX1 does, so node counts can be
//!   compared with his programs on the same input;
//! - [`Solver::prefixes`] and [`Solver::set_prefix`] split the search tree into subtrees, the
//!   unit of work for threads, shards and clusters;
//! - [`count`] is the one way into counting, for every front end: a [`CountRequest`]
//!   (method, threads, the memo's budget, limits) checked against the capability table of
//!   [`gate`] (which method handles which kind of problem: every method is exact on a problem
//!   or refuses it with [`Unsupported`]), then counted by [`CountMethod::Search`],
//!   [`CountMethod::Memo`] or [`CountMethod::Auto`] (whichever pays, decided from the run);
//!   [`sample`] and [`estimate`] are the same door for samples and estimates;
//! - [`Solver::count_memo`] counts by memoisation (Knuth's DLX6: every remaining problem is
//!   counted once; with multiplicities too) and builds a [`Zdd`] of all solutions, from which
//!   [`Zdd::samples`] draws solutions exactly uniformly; counts are [`Count`]s, exact at any
//!   size;
//! - [`Solver::min_cost`] finds the `k` best solutions of a problem whose options have costs
//!   (Knuth's DLX5, with a stronger lower bound);
//! - [`Solver::estimate`] estimates the plain search's tree before a long run (Knuth's
//!   Monte Carlo probes).
//!
//! The crate does no I/O but one read: the memo's default budget looks at the machine's memory
//! (`/proc/meminfo`). `dancecard-format` reads and writes problems as text.
//!
//! # Example
//!
//! Knuth's toy problem: seven items and six options with exactly one solution.
//!
//! ```
//! use dancecard_engine::{ProblemBuilder, Solver};
//!
//! let mut b = ProblemBuilder::new();
//! for name in ["a", "b", "c", "d", "e", "f", "g"] {
//!     b.primary(name)?;
//! }
//! for option in ["c e", "a d g", "b c f", "a d f", "b g", "d e g"] {
//!     b.option_by_names(option.split(' '))?;
//! }
//! let problem = b.build();
//!
//! let mut solver = Solver::new(&problem);
//! let solution = solver.first().expect("the toy problem has a solution");
//! let text: Vec<String> = solution.iter().map(|&o| problem.option_text(o)).collect();
//! assert_eq!(text, ["a d f", "b g", "c e"]);
//!
//! let outcome = solver.count();
//! assert_eq!(outcome.solutions, 1);
//! assert!(outcome.is_complete());
//! # Ok::<(), dancecard_engine::BuildError>(())
//! ```
//!
//! # Crate features
//!
//! - `parallel` (default): [`parallel::ParallelSearch`], several threads on one problem.
//! - `check-invariants`: check the arena's invariants at every node of every search (slow).
//!   A build with debug assertions (the dev profile) checks them too when the environment
//!   variable `DANCECARD_CHECK_INVARIANTS=1` is set ([`checks_invariants`]).

#![deny(missing_docs, rustdoc::broken_intra_doc_links)]

mod arena;
mod auto;
mod checks;
mod config;
mod estimate;
mod frontier;
pub mod gate;
mod ids;
mod kernels;
mod number;
#[cfg(feature = "parallel")]
pub mod parallel;
mod plumbing;
pub mod pre;
mod problem;
mod request;
mod solver;
mod stats;
mod zdd;

pub use auto::{CountMethod, Counted, FIRST_CHECK, NOT_PAYING, PAYING, PICK_NODES};
pub use checks::{checks_invariants, checks_made};
pub use config::{Basis, Budget, Config, Heuristic, Kernel, Outcome, Progress, Stop, Subtree};
pub use estimate::{Estimate, Probes};
pub use frontier::{FrontierStats, MAX_KERNEL};
pub use gate::{Feature, Method, Unsupported};
pub use ids::{ColorId, ItemId, OptionId};
pub use kernels::cost::{CostError, CostProgress, CostSolution, LowerBound, MinCost};
pub use kernels::memo::{MemoConfig, MemoError, MemoOutcome, MemoStats};
pub use number::{BigUint, Count, ParseCountError};
pub use problem::{printable, BuildError, Entry, ItemKind, Problem, ProblemBuilder, VerifyError};
pub use request::{count, estimate, sample, CountError, CountRequest};
pub use solver::{Event, PrefixError, Solution, Solutions, Solver, Visitor};
pub use stats::Stats;
pub use zdd::{SplitMix64, Zdd, ZddNode, ZddSamples, ZddSolutions, ZDD_FALSE, ZDD_TRUE};
