//! Shards: one search split into N independent jobs for any batch scheduler, and the results
//! merged back.
//!
//! The tree is cut at depth D into units (choice prefixes, [`Solver::prefixes`]); shard I
//! takes the units of depth D whose index is I modulo N, and shard 0 also takes the solutions
//! found above depth D. Each shard's result carries a [`Fingerprint`] and a checksum of its
//! content; [`merge`] checks that all N shards are there exactly once, complete, with one
//! fingerprint, and sums their counts in `u128`.

use std::collections::BTreeMap;
use std::fmt;

use dancecard_engine::{Count, Heuristic, Outcome, Problem, Solver, Stats, Stop};
use serde::{Deserialize, Serialize};

use crate::checksum::{self, read_sealed, sealed, to_json, Sealed};
use crate::FileError;

/// What must be equal between the shards of one search (and in a checkpoint).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fingerprint {
    /// [`problem_hash`] of the problem, in hex.
    pub problem: String,
    /// The heuristic's name ([`Heuristic::name`]).
    pub heuristic: String,
    /// The depth D at which the tree was cut.
    pub split_depth: usize,
    /// The number of shards N (in a checkpoint: the number of units).
    pub shards: u64,
    /// The version of dancecard that searched.
    pub version: String,
}

impl Fingerprint {
    /// The fingerprint of a search of `problem` with `heuristic`, cut at `depth` into `shards`.
    pub fn new(problem: &Problem, heuristic: Heuristic, depth: usize, shards: u64) -> Self {
        Fingerprint {
            problem: format!("{:032x}", problem_hash(problem)),
            heuristic: heuristic.name().to_owned(),
            split_depth: depth,
            shards,
            version: env!("CARGO_PKG_VERSION").to_owned(),
        }
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "problem {}, heuristic {}, split depth {}, {} shards, version {}",
            self.problem, self.heuristic, self.split_depth, self.shards, self.version
        )
    }
}

/// FNV-1a with 128 bits over the problem's canonical DLX text
/// ([`dancecard_format::write_dlx`]): equal for equal problems, whatever file they came from.
pub fn problem_hash(problem: &Problem) -> u128 {
    checksum::fnv1a128(dancecard_format::write_dlx(problem).as_bytes())
}

/// The work counters of a shard.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardStats {
    /// Search-tree nodes.
    pub nodes: u64,
    /// Updates (Knuth's count of link changes), including those of the prefixes replayed
    /// where a unit was split at run time: unlike the nodes, they can differ between two runs
    /// of the same shard.
    pub updates: u64,
    /// Solutions found.
    #[serde(with = "checksum::count")]
    pub solutions: u128,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl From<&Stats> for ShardStats {
    fn from(s: &Stats) -> Self {
        ShardStats {
            nodes: s.nodes,
            updates: s.updates,
            solutions: s.solutions,
            seconds: s.elapsed.as_secs_f64(),
        }
    }
}

/// The kind of a shard result file.
const SHARD_KIND: &str = "dancecard-shard";

/// The result of one shard: the JSON document `dancecard solve --shard I/N` writes, and
/// `dancecard merge` reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardResult {
    /// Always `dancecard-shard`.
    pub kind: String,
    /// I, the shard's index.
    pub shard: u64,
    /// The solutions counted in this shard (a decimal string in JSON when past 2^64), exact
    /// at any size.
    #[serde(with = "checksum::big_count")]
    pub count: Count,
    /// False when the shard was interrupted or limited: its count is partial.
    pub complete: bool,
    /// Why the shard's search ended: `exhausted`, `node-limit`, `time-limit`, `cancelled`...
    pub stop: String,
    /// How many units (subtrees) this shard searched.
    pub units: usize,
    /// The search this shard is part of.
    pub fingerprint: Fingerprint,
    /// The shard's work counters.
    pub stats: ShardStats,
    /// `fnv1a128:` and the hex FNV-1a (128 bits) of the canonical JSON of every other field
    /// (this one empty): see [`ShardResult::parse`].
    pub checksum: String,
}

sealed!(ShardResult, "shard result", SHARD_KIND);

impl ShardResult {
    /// The result of shard `shard` that searched `units` units and ended with `outcome`.
    pub fn new(
        shard: u64,
        outcome: Outcome,
        stats: &Stats,
        units: usize,
        fingerprint: Fingerprint,
    ) -> Self {
        let mut result = ShardResult {
            kind: SHARD_KIND.to_owned(),
            shard,
            count: Count::from(outcome.solutions),
            complete: outcome.is_complete(),
            stop: outcome.stop.name().to_owned(),
            units,
            fingerprint,
            stats: ShardStats::from(stats),
            checksum: String::new(),
        };
        result.checksum = result.content_checksum();
        result
    }

    /// The file's text: one line of JSON (without the newline).
    pub fn to_json(&self) -> String {
        to_json(self)
    }

    /// Reads a shard result: JSON with exactly the fields a shard writes, of kind
    /// `dancecard-shard`, whose checksum matches its content (so a hand-edited or damaged file
    /// is refused). The other checks (one search, every shard once) are [`merge`]'s.
    pub fn parse(bytes: &[u8]) -> Result<ShardResult, FileError> {
        let result: ShardResult = read_sealed(bytes)?;
        if result.complete != (result.stop == Stop::Exhausted.name()) {
            return Err(FileError::Invalid(format!(
                "complete is {} but the search stopped with {:?}",
                result.complete, result.stop
            )));
        }
        Ok(result)
    }
}

/// The units of shard `i` of `n` at `depth`: depth-`depth` units with index `i` mod `n`, plus
/// (for shard 0) the solutions shallower than `depth`.
pub fn shard_units(solver: &mut Solver, depth: usize, i: u64, n: u64) -> Vec<Vec<u32>> {
    let mut index = 0u64;
    solver
        .prefixes(depth)
        .into_iter()
        .filter(|unit| {
            if unit.len() < depth {
                return i == 0;
            }
            let mine = index % n == i;
            index += 1;
            mine
        })
        .collect()
}

/// A merge of every shard of one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The total count, exact at any size.
    pub total: Count,
    /// N, the number of shards.
    pub shards: u64,
    /// The search's fingerprint.
    pub fingerprint: Fingerprint,
}

/// Why a set of shard results does not make up one whole search.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MergeProblem {
    /// No result was given.
    Empty,
    /// `name` belongs to another search than the first file, `first`.
    OtherSearch {
        /// The file.
        name: String,
        /// Its fingerprint.
        fingerprint: Fingerprint,
        /// The first file.
        first: String,
        /// The first file's fingerprint.
        expected: Fingerprint,
    },
    /// `name` says it is shard `shard`, not below the number of shards.
    OutOfRange {
        /// The file.
        name: String,
        /// Its shard index.
        shard: u64,
        /// The number of shards.
        shards: u64,
    },
    /// `name` holds a partial count (its search was limited or interrupted).
    Incomplete {
        /// The file.
        name: String,
        /// Its shard index.
        shard: u64,
    },
    /// Shards of the search are missing: `absent` of them, the first ones in `first`.
    Missing {
        /// The number of shards.
        shards: u64,
        /// The first missing indices (at most 20).
        first: Vec<u64>,
        /// How many are missing in all.
        absent: u64,
    },
    /// Shard `shard` was given more than once.
    Duplicate {
        /// The shard index.
        shard: u64,
        /// The files that hold it.
        names: Vec<String>,
    },
}

impl fmt::Display for MergeProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeProblem::Empty => f.write_str("no shard result given"),
            MergeProblem::OtherSearch { name, fingerprint, first, expected } => {
                write!(f, "{name} is from another search: {fingerprint} vs {expected} ({first})")
            }
            MergeProblem::OutOfRange { name, shard, shards } => {
                write!(f, "{name}: shard {shard} is not below {shards}")
            }
            MergeProblem::Incomplete { name, shard } => {
                write!(f, "{name}: shard {shard} is incomplete")
            }
            MergeProblem::Missing { shards, first, absent } => {
                let shown: Vec<String> = first.iter().map(u64::to_string).collect();
                let more = absent - first.len() as u64;
                let more = if more > 0 { format!(" and {more} more") } else { String::new() };
                write!(f, "missing shards of {shards}: {}{more}", shown.join(", "))
            }
            MergeProblem::Duplicate { shard, names } => {
                write!(f, "shard {shard} appears {} times: {}", names.len(), names.join(", "))
            }
        }
    }
}

/// Merges shard results, each with the name of its file: the total, when the results are
/// every shard of one search exactly once, each complete; else every problem found.
pub fn merge(results: &[(String, ShardResult)]) -> Result<Merged, Vec<MergeProblem>> {
    let Some((first_name, first)) = results.first() else {
        return Err(vec![MergeProblem::Empty]);
    };
    let expected = &first.fingerprint;
    let n = expected.shards;
    let mut problems = Vec::new();
    // The shards present, by index: the files name at most as many as there are files, and
    // N can be any number (no slot per announced shard).
    let mut seen: BTreeMap<u64, Vec<&str>> = BTreeMap::new();
    let mut total = Count::ZERO;
    for (name, r) in results {
        if &r.fingerprint != expected {
            problems.push(MergeProblem::OtherSearch {
                name: name.clone(),
                fingerprint: r.fingerprint.clone(),
                first: first_name.clone(),
                expected: expected.clone(),
            });
        }
        if r.shard < n {
            seen.entry(r.shard).or_default().push(name);
        } else {
            problems.push(MergeProblem::OutOfRange {
                name: name.clone(),
                shard: r.shard,
                shards: n,
            });
        }
        if !r.complete {
            problems.push(MergeProblem::Incomplete { name: name.clone(), shard: r.shard });
        }
        total += &r.count;
    }
    let absent = n - seen.len() as u64;
    if absent > 0 {
        let first = (0..n).filter(|k| !seen.contains_key(k)).take(20).collect();
        problems.push(MergeProblem::Missing { shards: n, first, absent });
    }
    for (&shard, names) in seen.iter().filter(|(_, names)| names.len() > 1) {
        let names = names.iter().map(|&s| s.to_owned()).collect();
        problems.push(MergeProblem::Duplicate { shard, names });
    }
    if problems.is_empty() {
        Ok(Merged { total, shards: n, fingerprint: expected.clone() })
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::plan::tests::problem;

    fn result(shard: u64, count: u128, shards: u64) -> ShardResult {
        let p = problem("queens8");
        let stats = Stats { nodes: 10, updates: 20, solutions: count, elapsed: Duration::ZERO };
        let outcome = Outcome { solutions: count, stop: Stop::Exhausted };
        ShardResult::new(shard, outcome, &stats, 3, Fingerprint::new(&p, Heuristic::Mrv, 2, shards))
    }

    fn named(results: Vec<ShardResult>) -> Vec<(String, ShardResult)> {
        results.into_iter().enumerate().map(|(i, r)| (format!("s{i}.json"), r)).collect()
    }

    #[test]
    fn a_written_result_reads_back_equal() {
        let mut r = result(1, u128::from(u64::MAX) + 7, 4);
        r.stats.seconds = 0.1 + 0.2;
        r.checksum = r.content_checksum();
        let text = r.to_json();
        assert!(text.contains(r#""count":"18446744073709551622""#), "{text}");
        assert_eq!(ShardResult::parse(text.as_bytes()), Ok(r.clone()));
        // Reformatting the JSON keeps the content, and the checksum with it.
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        assert_eq!(ShardResult::parse(pretty.as_bytes()), Ok(r));
    }

    #[test]
    fn an_edited_result_is_refused() {
        let text = result(0, 92, 1).to_json();
        for (from, to) in [
            (r#""count":92"#, r#""count":93"#),
            (r#""shard":0"#, r#""shard":1"#),
            (r#""units":3"#, r#""units":4"#),
            (r#""nodes":10"#, r#""nodes":11"#),
        ] {
            assert!(text.contains(from), "{text}");
            let edited = text.replace(from, to);
            let err = ShardResult::parse(edited.as_bytes()).unwrap_err();
            assert!(matches!(err, FileError::Checksum { .. }), "{from}: {err}");
            assert!(err.to_string().contains("edited or damaged"), "{err}");
        }
        let no_checksum = text.replace(r#","checksum":"#, r#","sum":"#);
        assert!(matches!(ShardResult::parse(no_checksum.as_bytes()), Err(FileError::Json { .. })));
        let extra = text.replacen('{', r#"{"extra":1,"#, 1);
        assert!(matches!(ShardResult::parse(extra.as_bytes()), Err(FileError::Json { .. })));
    }

    #[test]
    fn bad_files_get_typed_errors() {
        assert!(matches!(ShardResult::parse(b"{}"), Err(FileError::Json { .. })));
        assert!(matches!(ShardResult::parse(b"\xff"), Err(FileError::Json { .. })));
        let mut r = result(0, 1, 1);
        r.kind = "dancecard-checkpoint".into();
        r.checksum = r.content_checksum();
        assert!(matches!(ShardResult::parse(r.to_json().as_bytes()), Err(FileError::Kind { .. })));
        let text = result(0, 1, 1).to_json();
        for count in [r#""-1""#, r#""1e3""#, r#""""#, "-1", "1.5", r#"" 1""#, r#""+1""#] {
            let bad = text.replace(r#""count":1"#, &format!(r#""count":{count}"#));
            assert!(
                matches!(ShardResult::parse(bad.as_bytes()), Err(FileError::Json { .. })),
                "{count}"
            );
        }
        // A partial count that calls itself complete.
        let mut r = result(0, 1, 1);
        r.stop = "cancelled".into();
        r.checksum = r.content_checksum();
        assert!(matches!(ShardResult::parse(r.to_json().as_bytes()), Err(FileError::Invalid(_))));
    }

    #[test]
    fn merge_sums_every_shard_once() {
        let merged = merge(&named(vec![result(1, 5, 3), result(0, 7, 3), result(2, 11, 3)]));
        assert_eq!(merged.map(|m| (m.total, m.shards)), Ok((Count::from(23u128), 3)));
    }

    #[test]
    fn counts_past_u128_are_read_and_summed_exactly() {
        let big = "340282366920938463463374607431768211456"; // 2^128
        let text = result(0, 1, 2).to_json();
        let mut r: ShardResult =
            serde_json::from_str(&text.replace(r#""count":1"#, &format!(r#""count":"{big}""#)))
                .unwrap();
        r.checksum = r.content_checksum();
        let r = ShardResult::parse(r.to_json().as_bytes()).expect("a count past 2^128 is read");
        assert_eq!(r.count.to_string(), big);
        let merged = merge(&named(vec![r, result(1, u128::MAX, 2)])).unwrap();
        assert_eq!(merged.total.to_string(), "680564733841876926926749214863536422911");
    }

    #[test]
    fn merge_lists_every_problem() {
        assert_eq!(merge(&[]), Err(vec![MergeProblem::Empty]));
        let problems = merge(&named(vec![result(0, 1, 3), result(0, 1, 3)])).unwrap_err();
        let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(
            text,
            ["missing shards of 3: 1, 2", "shard 0 appears 2 times: s0.json, s1.json"]
        );
        let problems = merge(&named(vec![result(0, 1, 2), result(1, 1, 3)])).unwrap_err();
        assert!(matches!(problems[0], MergeProblem::OtherSearch { .. }), "{problems:?}");
        assert!(problems[0].to_string().contains("is from another search"));
        let mut partial = result(1, 1, 2);
        partial.complete = false;
        let problems = merge(&named(vec![result(0, 1, 2), partial])).unwrap_err();
        assert_eq!(problems[0].to_string(), "s1.json: shard 1 is incomplete");
        let problems = merge(&named(vec![result(0, 1, 100_000_000_000)])).unwrap_err();
        let missing = problems[0].to_string();
        assert!(missing.starts_with("missing shards of 100000000000: 1, 2, 3,"), "{missing}");
        assert!(missing.ends_with(", 20 and 99999999979 more"), "{missing}");
    }
}
