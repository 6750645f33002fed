//! Shard result and checkpoint files (`dancecard solve --shard`, `dancecard merge`,
//! `dancecard solve --mpi --resume`), read by `dancecard-scale`.

use dancecard_scale::{merge, Assignment, Checkpoint, FileError, Report, Scheduler, ShardResult};
use serde_json::Value;

/// Reads a file with `parse`; a file refused only for its checksum is sealed again with the
/// checksum of its content (which the error names) and read once more, so that the fuzzer
/// reaches the checks behind the checksum. A second read never fails on the checksum.
fn parse_sealed<T>(bytes: &[u8], parse: fn(&[u8]) -> Result<T, FileError>) -> Option<T> {
    let actual = match parse(bytes) {
        Ok(value) => return Some(value),
        Err(FileError::Checksum { actual, .. }) => actual,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return None;
        }
    };
    let Ok(mut json) = serde_json::from_slice::<Value>(bytes) else {
        panic!("a file refused for its checksum is not JSON");
    };
    json["checksum"] = Value::String(actual);
    let sealed = serde_json::to_vec(&json).unwrap_or_else(|e| panic!("re-serializing: {e}"));
    match parse(&sealed) {
        Ok(value) => Some(value),
        Err(FileError::Checksum { stated, actual }) => {
            panic!("the checksum is not a function of the content: {stated} then {actual}")
        }
        // JSON numbers past 64 bits come back from `Value` as floats, which a file refuses.
        Err(e) => {
            assert!(!e.to_string().is_empty());
            None
        }
    }
}

/// Shard results (`dancecard merge`): up to four documents separated by lines `---`, each
/// read by [`ShardResult::parse`] (checksums sealed again by the target), then merged.
///
/// Checks: a result reads back equal from the JSON it writes; [`merge`] either refuses the
/// set with at least one reason, or accepts a set holding every shard `0..N` exactly once,
/// all complete, of one search, with the sum of their counts.
pub fn shard(data: &[u8]) {
    let mut results = Vec::new();
    for (k, part) in split_documents(data).into_iter().enumerate().take(4) {
        let Some(result) = parse_sealed(part, ShardResult::parse) else { continue };
        let text = result.to_json();
        let back = ShardResult::parse(text.as_bytes())
            .unwrap_or_else(|e| panic!("a written shard result does not read back: {e}\n{text}"));
        assert_eq!(back, result, "shard result round trip");
        assert_eq!(result.complete, result.stop == "exhausted");
        results.push((format!("s{k}.json"), result));
    }
    if results.is_empty() {
        return;
    }
    match merge(&results) {
        Ok(merged) => {
            let n = merged.shards;
            assert_eq!(
                n,
                results.len() as u64,
                "a merge of {} files for {n} shards",
                results.len()
            );
            let mut shards: Vec<u64> = results.iter().map(|(_, r)| r.shard).collect();
            shards.sort_unstable();
            assert_eq!(shards, (0..n).collect::<Vec<_>>(), "every shard exactly once");
            assert!(results.iter().all(|(_, r)| r.complete), "only complete shards merge");
            let fingerprint = &results[0].1.fingerprint;
            assert!(results.iter().all(|(_, r)| &r.fingerprint == fingerprint), "one search");
            assert_eq!(merged.fingerprint, *fingerprint);
            let sum: dancecard_engine::Count = results.iter().map(|(_, r)| &r.count).sum();
            assert_eq!(merged.total, sum, "the total is the sum of the counts");
        }
        Err(problems) => {
            assert!(!problems.is_empty(), "a refused merge names a reason");
            assert!(problems.iter().all(|p| !p.to_string().is_empty()));
        }
    }
}

/// Checkpoints (`dancecard solve --mpi --resume`): [`Checkpoint::parse`], checksum sealed
/// again by the target.
///
/// Checks: a checkpoint reads back equal from the JSON it writes; it is complete exactly when
/// no job is pending; its jobs resume a scheduler that hands out every pending job (each once)
/// and, when every one is reported with nothing left, ends with the checkpoint's count.
pub fn checkpoint(data: &[u8]) {
    let Some(cp) = parse_sealed(data, Checkpoint::parse) else { return };
    let text = cp.to_json();
    let back = Checkpoint::parse(text.as_bytes())
        .unwrap_or_else(|e| panic!("a written checkpoint does not read back: {e}\n{text}"));
    assert_eq!(back, cp, "checkpoint round trip");
    assert_eq!(cp.complete, cp.pending.is_empty());
    let jobs = cp.jobs();
    assert_eq!(jobs.len(), cp.pending.len());
    if jobs.len() > 1 << 12 {
        return;
    }
    // A resumed run: every job handed out and reported done, and nothing else.
    let subtrees: u64 = cp.pending.iter().map(|j| u64::from(j.options)).sum();
    let mut s = Scheduler::new(jobs, cp.total(), 1);
    let mut handed = 0u64;
    loop {
        match s.assign(0) {
            Assignment::Job(job, _) => {
                assert!(job.options >= 1);
                handed += u64::from(job.options);
                s.report(0, Report::default()).unwrap_or_else(|e| panic!("a report: {e}"));
            }
            Assignment::Done => break,
            Assignment::Wait => panic!("one worker, free, made to wait"),
        }
        assert!(handed <= subtrees, "more subtrees handed out than pending");
    }
    assert_eq!(handed, subtrees, "every pending subtree handed out once");
    assert!(s.is_complete());
    assert_eq!(s.count(), cp.total(), "the count carried over");
}

/// The documents of an input: the parts between lines `---`.
fn split_documents(data: &[u8]) -> Vec<&[u8]> {
    let mut parts = Vec::new();
    let mut rest = data;
    while let Some(at) = rest.windows(5).position(|w| w == b"\n---\n") {
        parts.push(&rest[..at]);
        rest = &rest[at + 5..];
    }
    parts.push(rest);
    parts
}
