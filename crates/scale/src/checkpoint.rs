//! Checkpoints of a cluster run: which units are finished, and their counts.

use dancecard_engine::{Heuristic, Problem};
use serde::{Deserialize, Serialize};

use crate::checksum::checksum_text;
use crate::shard::{to_json, Fingerprint};
use crate::FileError;

/// The kind of a checkpoint file.
const CHECKPOINT_KIND: &str = "dancecard-checkpoint";

/// A checkpoint: the finished units of a run and their counts.
///
/// Its fingerprint's `shards` is the number of units. Written after every finished unit (by
/// the caller, atomically), it lets a run that was stopped resume with the units not in it
/// ([`Checkpoint::todo`]) and reach the same total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// Always `dancecard-checkpoint`.
    pub kind: String,
    /// The search: problem, heuristic, split depth; `shards` is the number of units.
    pub fingerprint: Fingerprint,
    /// `(unit, count)` of every finished unit, counts as decimal strings (`u128`).
    pub done: Vec<(usize, String)>,
    /// Whether every unit is finished.
    pub complete: bool,
    /// The sum of the finished units' counts, as a decimal string.
    pub count: String,
    /// Nodes searched in the finished units (over all runs).
    pub nodes: u64,
    /// `fnv1a128:` and the hex FNV-1a (128 bits) of the canonical JSON of every other field
    /// (this one empty).
    pub checksum: String,
}

impl Checkpoint {
    /// An empty checkpoint of the search `fingerprint`.
    pub fn new(fingerprint: Fingerprint) -> Self {
        let mut checkpoint = Checkpoint {
            kind: CHECKPOINT_KIND.to_owned(),
            fingerprint,
            done: Vec::new(),
            complete: false,
            count: "0".to_owned(),
            nodes: 0,
            checksum: String::new(),
        };
        checkpoint.seal();
        checkpoint
    }

    /// The checksum of the content: every field but `checksum`, in canonical JSON.
    fn content_checksum(&self) -> String {
        let mut content = self.clone();
        content.checksum.clear();
        checksum_text(to_json(&content).as_bytes())
    }

    /// Sets the checksum to the content's.
    fn seal(&mut self) {
        self.checksum = self.content_checksum();
    }

    /// Reads a checkpoint: JSON with exactly the fields a checkpoint has, of kind
    /// `dancecard-checkpoint`, whose checksum matches its content, with every unit below the
    /// number of units, at most once, and counts that add up to `count`.
    pub fn parse(bytes: &[u8]) -> Result<Checkpoint, FileError> {
        const KIND: &str = "checkpoint";
        let cp: Checkpoint = serde_json::from_slice(bytes)
            .map_err(|e| FileError::Json { kind: KIND, message: e.to_string() })?;
        if cp.kind != CHECKPOINT_KIND {
            return Err(FileError::Kind { expected: KIND, found: cp.kind });
        }
        let actual = cp.content_checksum();
        if cp.checksum != actual {
            return Err(FileError::Checksum { stated: cp.checksum, actual });
        }
        let units = cp.fingerprint.shards;
        let mut seen = std::collections::BTreeSet::new();
        let mut total: u128 = 0;
        for (unit, count) in &cp.done {
            let bad = || FileError::Invalid(format!("bad entry for unit {unit}: count {count:?}"));
            let count: u128 = match count.parse() {
                Ok(c) if count.bytes().all(|b| b.is_ascii_digit()) => c,
                _ => return Err(bad()),
            };
            if *unit as u64 >= units || !seen.insert(*unit) {
                return Err(FileError::Invalid(format!(
                    "unit {unit} is out of range (of {units}) or finished twice"
                )));
            }
            total = total.checked_add(count).ok_or_else(bad)?;
        }
        if cp.count != total.to_string() || cp.complete != (cp.done.len() as u64 == units) {
            return Err(FileError::Invalid(format!(
                "the totals do not add up: count {:?} for units summing to {total}",
                cp.count
            )));
        }
        Ok(cp)
    }

    /// Whether this checkpoint belongs to a search of `problem` with `heuristic` (at the
    /// checkpoint's own split depth and number of units, with this version of dancecard).
    pub fn is_of(&self, problem: &Problem, heuristic: Heuristic) -> bool {
        let f = &self.fingerprint;
        *f == Fingerprint::new(problem, heuristic, f.split_depth, f.shards)
    }

    /// Records a finished unit.
    pub fn finish(&mut self, unit: usize, count: u128, nodes: u64) {
        self.done.push((unit, count.to_string()));
        self.count = self.total().to_string();
        self.nodes += nodes;
        self.complete = self.done.len() as u64 == self.fingerprint.shards;
        self.seal();
    }

    /// The sum of the finished units' counts.
    pub fn total(&self) -> u128 {
        self.done.iter().map(|(_, c)| c.parse::<u128>().unwrap_or(0)).sum()
    }

    /// The units not finished yet, in order.
    pub fn todo(&self) -> Vec<usize> {
        let n = usize::try_from(self.fingerprint.shards).unwrap_or(0);
        let mut finished = vec![false; n];
        for (unit, _) in &self.done {
            if let Some(f) = finished.get_mut(*unit) {
                *f = true;
            }
        }
        (0..n).filter(|&u| !finished[u]).collect()
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

    #[test]
    fn checkpoint_records_and_resumes() {
        let p = problem("queens8");
        let f = Fingerprint::new(&p, Heuristic::Mrv, 2, 5);
        let mut cp = Checkpoint::new(f);
        cp.finish(3, 10, 100);
        cp.finish(0, u128::from(u64::MAX) + 5, 50);
        assert_eq!(cp.todo(), [1, 2, 4]);
        assert_eq!(cp.total(), u128::from(u64::MAX) + 15);
        assert!(!cp.complete);
        let back = Checkpoint::parse(cp.to_json().as_bytes()).unwrap();
        assert_eq!(back, cp);
        assert!(back.is_of(&p, Heuristic::Mrv));
        // Another problem, or another heuristic, is another search.
        assert!(!back.is_of(&problem("queens12"), Heuristic::Mrv));
        assert!(!back.is_of(&p, Heuristic::Leftmost));
        for unit in [1, 2, 4] {
            cp.finish(unit, 1, 1);
        }
        assert!(cp.complete);
        assert_eq!(Checkpoint::parse(cp.to_json().as_bytes()), Ok(cp));
    }

    #[test]
    fn an_edited_checkpoint_is_refused() {
        let mut cp = Checkpoint::new(Fingerprint::new(&problem("queens8"), Heuristic::Mrv, 2, 5));
        cp.finish(3, 10, 100);
        let text = cp.to_json();
        let edited = text.replace(r#"[3,"10"]"#, r#"[3,"11"]"#);
        assert_ne!(edited, text);
        assert!(matches!(Checkpoint::parse(edited.as_bytes()), Err(FileError::Checksum { .. })));
        // Entries that no run writes, even with a matching checksum.
        for done in [vec![(5, "1")], vec![(1, "1"), (1, "1")], vec![(1, "x")], vec![(1, "+1")]] {
            let mut bad = cp.clone();
            bad.done = done.into_iter().map(|(u, c)| (u, c.to_owned())).collect();
            bad.count = "1".into();
            bad.seal();
            let err = Checkpoint::parse(bad.to_json().as_bytes()).unwrap_err();
            assert!(matches!(err, FileError::Invalid(_)), "{err}");
        }
        let mut lying = cp.clone();
        lying.count = "12".into();
        lying.seal();
        assert!(matches!(
            Checkpoint::parse(lying.to_json().as_bytes()),
            Err(FileError::Invalid(_))
        ));
    }
}
