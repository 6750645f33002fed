//! Scale-out for dancecard counts: one search cut into subtrees, searched anywhere, and the
//! results put back together with their exactness checked.
//!
//! # Brief overview
//!
//! - [`plan`]: the *units* of a search, the choice prefixes at a depth of the tree
//!   ([`dancecard_engine::Solver::prefixes`]); every solution lies in exactly one unit.
//! - [`Fingerprint`]: what must be equal between the parts of one search (the problem's hash,
//!   the heuristic, the split depth, the number of parts, the version).
//! - [`ShardResult`]: the JSON result of `dancecard solve --shard I/N`; [`merge`] sums the
//!   results of all N shards in `u128`, after checking that each shard is there exactly
//!   once, complete and of the same search.
//! - [`Scheduler`] and [`Worker`]: a count handed out as budgeted jobs (as Avis and
//!   Jordan's mplrs does): workers search in periods of a node budget and, when others are
//!   idle, give away the largest subtrees they hold;
//! - [`coordinator`]: the coordinator and the workers of such a count, talking through
//!   messages: threads in one process, or (with the `mpi` feature) the ranks of an MPI job;
//! - [`Checkpoint`]: the count so far and the jobs left of a run handed out as jobs
//!   (`dancecard solve --mpi`), so that a run that was stopped can resume where it was.
//!
//! Shard results and checkpoints are files that travel between machines and people, so each
//! carries a **checksum of its content** (FNV-1a, 128 bits, over the canonical JSON of every
//! other field): a file that was edited by hand or damaged is refused when read
//! ([`FileError::Checksum`]), never summed.
//!
//! # Example
//!
//! Count the solutions of a small problem in two shards and merge them.
//!
//! ```
//! use dancecard_engine::{Config, Heuristic, ProblemBuilder, Solver};
//! use dancecard_scale::{merge, shard_units, Fingerprint, ShardResult};
//!
//! // Items a, b; options "a b", "a", "b": two exact covers.
//! let mut b = ProblemBuilder::new();
//! let (a, bb) = (b.primary("a")?, b.primary("b")?);
//! b.option([a, bb])?;
//! b.option([a])?;
//! b.option([bb])?;
//! let problem = b.build();
//!
//! let fingerprint = Fingerprint::new(&problem, Heuristic::Mrv, 1, 2);
//! let mut files = Vec::new();
//! for i in 0..2 {
//!     let units = shard_units(&mut Solver::new(&problem), 1, i, 2);
//!     let (outcome, stats) = dancecard_engine::parallel::ParallelSearch::new(
//!         &problem, Config::default(), 1,
//!     )
//!     .units(units.clone())
//!     .count();
//!     let result = ShardResult::new(i, outcome, &stats, units.len(), fingerprint.clone());
//!     // The file's text, as `dancecard solve --shard` writes it, read back.
//!     files.push((format!("s{i}.json"), ShardResult::parse(result.to_json().as_bytes())?));
//! }
//! assert_eq!(merge(&files).map(|m| m.total.to_u128()), Ok(Some(2)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs, rustdoc::broken_intra_doc_links)]

mod checkpoint;
mod checksum;
pub mod coordinator;
#[cfg(feature = "mpi")]
pub mod mpi;
mod plan;
mod schedule;
mod shard;

pub use checkpoint::{Checkpoint, PendingJob, SearchId};
pub use plan::{plan, units_at, MAX_DEPTH, UNITS_PER_WORKER};
pub use schedule::{
    first_jobs, jobs_of, run_job, Assignment, Job, Report, ScheduleError, Scheduler, Worker,
};
pub use shard::{
    merge, problem_hash, shard_units, Fingerprint, MergeProblem, Merged, ShardResult, ShardStats,
};

/// Why a shard result or a checkpoint file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FileError {
    /// The bytes are not the JSON of this kind of file (with the parser's line and column).
    #[error("not a {kind} file: {message}")]
    Json {
        /// `shard result` or `checkpoint`.
        kind: &'static str,
        /// What the JSON parser said, with its line and column.
        message: String,
    },
    /// The `kind` field names another kind of file.
    #[error("not a {expected} file: its kind is {found:?}")]
    Kind {
        /// The kind wanted.
        expected: &'static str,
        /// The kind found.
        found: String,
    },
    /// The checksum does not match the content: the file was edited or damaged.
    #[error(
        "checksum mismatch: the file says {stated}, its content gives {actual}; it was edited \
         or damaged (search that part again)"
    )]
    Checksum {
        /// The checksum the file states.
        stated: String,
        /// The checksum of the content as read.
        actual: String,
    },
    /// A field holds a value no dancecard writes (a count that is not a number, a unit out of
    /// range...).
    #[error("{0}")]
    Invalid(String),
}
