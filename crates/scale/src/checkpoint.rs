//! Checkpoints of a count handed out as jobs: the count so far and the jobs not yet counted.

use dancecard_engine::{Heuristic, Problem};
use serde::{Deserialize, Serialize};

use crate::checksum::to_json;
use crate::checksum::{read_sealed, sealed, Sealed};
use crate::schedule::{Job, Scheduler};
use crate::shard::problem_hash;
use crate::FileError;

/// The kind of a checkpoint file.
const CHECKPOINT_KIND: &str = "dancecard-checkpoint";

/// The format of checkpoints this version writes and reads.
const FORMAT: u32 = 2;

/// The longest prefix a checkpoint may hold (deeper than any search the engine makes: its
/// levels are bounded by the primary items, which the formats bound at 100,000).
const MAX_PREFIX: usize = 1 << 20;

/// Which search a checkpoint belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchId {
    /// [`problem_hash`] of the problem, in hex.
    pub problem: String,
    /// The heuristic's name ([`Heuristic::name`]).
    pub heuristic: String,
    /// The version of dancecard (job prefixes name subtrees of its search tree).
    pub version: String,
}

impl SearchId {
    /// The search of `problem` with `heuristic` by this version.
    pub fn new(problem: &Problem, heuristic: Heuristic) -> SearchId {
        SearchId {
            problem: format!("{:032x}", problem_hash(problem)),
            heuristic: heuristic.name().to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
        }
    }
}

impl std::fmt::Display for SearchId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "problem {}, heuristic {}, version {}",
            self.problem, self.heuristic, self.version
        )
    }
}

/// A job not yet counted, as a checkpoint writes it (see [`Job`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PendingJob {
    /// The choice prefix of the job's first subtree.
    pub prefix: Vec<u32>,
    /// Sibling subtrees in a row, from the prefix's last index.
    pub options: u32,
    /// The job's share of the tree.
    pub share: f64,
}

/// A checkpoint: the count of the parts of the tree counted, and the jobs that make up the
/// rest (those queued and those the workers held at their last report). A run resumed from
/// it counts the jobs and adds the count: nothing is counted twice, nothing lost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// Always `dancecard-checkpoint`.
    pub kind: String,
    /// The format, 2 (format 1 held a list of numbered units).
    pub format: u32,
    /// The search.
    pub search: SearchId,
    /// The count so far, as a decimal string (`u128`).
    pub count: String,
    /// Nodes searched so far (over all runs).
    pub nodes: u64,
    /// The jobs not yet counted.
    pub pending: Vec<PendingJob>,
    /// Whether every job is counted (`pending` is empty).
    pub complete: bool,
    /// `fnv1a128:` and the hex FNV-1a (128 bits) of the canonical JSON of every other field
    /// (this one empty).
    pub checksum: String,
}

sealed!(Checkpoint, "checkpoint", CHECKPOINT_KIND);

impl Checkpoint {
    /// The checkpoint of a count of `search`: `count` so far, `nodes` searched, `pending`
    /// jobs left.
    pub fn new(search: SearchId, count: u128, nodes: u64, pending: &[Job]) -> Checkpoint {
        let pending: Vec<PendingJob> = pending
            .iter()
            .map(|j| PendingJob { prefix: j.prefix.clone(), options: j.options, share: j.share })
            .collect();
        let mut cp = Checkpoint {
            kind: CHECKPOINT_KIND.to_owned(),
            format: FORMAT,
            search,
            count: count.to_string(),
            nodes,
            complete: pending.is_empty(),
            pending,
            checksum: String::new(),
        };
        cp.checksum = cp.content_checksum();
        cp
    }

    /// The checkpoint of a scheduler's count so far (`nodes` over all runs).
    pub fn of(search: SearchId, scheduler: &Scheduler, nodes: u64) -> Checkpoint {
        Checkpoint::new(search, scheduler.count(), nodes, &scheduler.pending())
    }

    /// Reads a checkpoint: JSON with exactly the fields a checkpoint has, of kind
    /// `dancecard-checkpoint` and format 2, whose checksum matches its content, with a
    /// decimal count, jobs of at least one subtree and finite shares, and `complete` saying
    /// whether jobs are left.
    pub fn parse(bytes: &[u8]) -> Result<Checkpoint, FileError> {
        let cp: Checkpoint = read_sealed(bytes)?;
        if cp.format != FORMAT {
            return Err(FileError::Invalid(format!(
                "checkpoint format {} (this dancecard reads format {FORMAT}: search again)",
                cp.format
            )));
        }
        if cp.count.is_empty() || !cp.count.bytes().all(|b| b.is_ascii_digit()) {
            return Err(FileError::Invalid(format!("count {:?} is not a count", cp.count)));
        }
        if cp.count.parse::<u128>().is_err() {
            return Err(FileError::Invalid(format!("count {} passes 2^128 - 1", cp.count)));
        }
        for (k, job) in cp.pending.iter().enumerate() {
            if job.options == 0 || !job.share.is_finite() || job.share < 0.0 {
                return Err(FileError::Invalid(format!("pending job {k} is not a job")));
            }
            if job.prefix.len() > MAX_PREFIX || (job.prefix.is_empty() && job.options != 1) {
                return Err(FileError::Invalid(format!("pending job {k} has a bad prefix")));
            }
            if job.prefix.last().is_some_and(|&l| l.checked_add(job.options - 1).is_none()) {
                return Err(FileError::Invalid(format!("pending job {k} runs past 2^32")));
            }
        }
        if cp.complete != cp.pending.is_empty() {
            return Err(FileError::Invalid(format!(
                "complete is {} with {} jobs pending",
                cp.complete,
                cp.pending.len()
            )));
        }
        Ok(cp)
    }

    /// Whether this checkpoint belongs to a search of `problem` with `heuristic` by this
    /// version of dancecard.
    pub fn is_of(&self, problem: &Problem, heuristic: Heuristic) -> bool {
        self.search == SearchId::new(problem, heuristic)
    }

    /// The count so far.
    pub fn total(&self) -> u128 {
        self.count.parse().unwrap_or(0)
    }

    /// The jobs left, for a [`Scheduler`].
    pub fn jobs(&self) -> Vec<Job> {
        self.pending
            .iter()
            .map(|j| Job { prefix: j.prefix.clone(), options: j.options, share: j.share })
            .collect()
    }

    /// The file's text: one line of JSON (without the newline).
    pub fn to_json(&self) -> String {
        to_json(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::tests::problem;

    fn jobs() -> Vec<Job> {
        vec![
            Job { prefix: vec![3, 1], options: 2, share: 0.125 },
            Job { prefix: vec![], options: 1, share: 1.0 },
        ]
    }

    #[test]
    fn checkpoints_read_back_and_resume() {
        let p = problem("queens8");
        let search = SearchId::new(&p, Heuristic::Mrv);
        let cp = Checkpoint::new(search.clone(), u128::from(u64::MAX) + 5, 77, &jobs());
        assert!(!cp.complete);
        let back = Checkpoint::parse(cp.to_json().as_bytes()).unwrap();
        assert_eq!(back, cp);
        assert_eq!(back.total(), u128::from(u64::MAX) + 5);
        assert_eq!(back.jobs(), jobs());
        assert!(back.is_of(&p, Heuristic::Mrv));
        // Another problem, or another heuristic, is another search.
        assert!(!back.is_of(&problem("queens12"), Heuristic::Mrv));
        assert!(!back.is_of(&p, Heuristic::Leftmost));
        let done = Checkpoint::new(search, 92, 1049, &[]);
        assert!(done.complete);
        assert_eq!(Checkpoint::parse(done.to_json().as_bytes()), Ok(done));
        // From a scheduler: its count and everything not counted.
        let s = Scheduler::new(jobs(), 5, 2);
        let cp = Checkpoint::of(SearchId::new(&p, Heuristic::Mrv), &s, 9);
        assert_eq!((cp.total(), cp.jobs()), (5, jobs()));
    }

    #[test]
    fn an_edited_or_strange_checkpoint_is_refused() {
        let p = problem("queens8");
        let cp = Checkpoint::new(SearchId::new(&p, Heuristic::Mrv), 10, 100, &jobs());
        let text = cp.to_json();
        let edited = text.replace(r#""count":"10""#, r#""count":"11""#);
        assert_ne!(edited, text);
        assert!(matches!(Checkpoint::parse(edited.as_bytes()), Err(FileError::Checksum { .. })));
        let mut bad_jobs = jobs();
        bad_jobs[0].options = 0;
        let mut strange = vec![Checkpoint::new(cp.search.clone(), 10, 100, &bad_jobs)];
        let mut huge = jobs();
        huge[0].prefix = vec![u32::MAX];
        strange.push(Checkpoint::new(cp.search.clone(), 10, 100, &huge));
        let mut lying = cp.clone();
        lying.complete = true;
        lying.checksum = lying.content_checksum();
        strange.push(lying);
        let mut count = cp.clone();
        count.count = "+10".into();
        count.checksum = count.content_checksum();
        strange.push(count);
        let mut old = cp.clone();
        old.format = 1;
        old.checksum = old.content_checksum();
        strange.push(old);
        for s in strange {
            let err = Checkpoint::parse(s.to_json().as_bytes()).unwrap_err();
            assert!(matches!(err, FileError::Invalid(_)), "{err}");
        }
        let first_format = r#"{"kind":"dancecard-checkpoint","fingerprint":{},"done":[]}"#;
        assert!(matches!(Checkpoint::parse(first_format.as_bytes()), Err(FileError::Json { .. })));
    }
}
