//! The JSON vocabulary of search answers, shared by `dancecard --format json`, the web API
//! (`dancecard serve`) and the shard files of `dancecard-scale`, so that one client reads
//! them all:
//!
//! - a **count** is a JSON number when it fits in `u64`, else a decimal string (JSON numbers
//!   past 2^64 are not portable): [`count`];
//! - **stats** are `{"nodes": N, "updates": N, "solutions": COUNT, "seconds": S}`:
//!   [`stats`];
//! - a **stop reason** is [`Stop::name`] (`exhausted`, `solution-limit`, `node-limit`,
//!   `time-limit`, `cancelled` or `visitor`), under the key `"stop"`;
//! - **completeness** is `"complete": bool`, true when the search gave all that was asked
//!   ([`Stop::is_answered`]; for a count, only when it counted the whole tree: a count cut
//!   at a solution limit is not the count), next to the stop reason: [`end`],
//!   [`end_count`].
//!
//! # Example
//!
//! ```
//! use std::time::Duration;
//! use dancecard_engine::{Stats, Stop};
//! use dancecard_format::json;
//!
//! assert_eq!(json::count(7u128).to_string(), "7");
//! assert_eq!(json::count(u128::from(u64::MAX) + 1).to_string(), "\"18446744073709551616\"");
//! let stats = Stats { nodes: 3, updates: 9, solutions: 1, elapsed: Duration::from_millis(500) };
//! let mut answer = serde_json::json!({ "count": json::count(1u128) });
//! json::end(&mut answer, Stop::NodeLimit, &stats);
//! assert_eq!(
//!     answer.to_string(),
//!     r#"{"complete":false,"count":1,"stats":{"nodes":3,"seconds":0.5,"solutions":1,"updates":9},"stop":"node-limit"}"#
//! );
//! ```

use dancecard_engine::{Count, Stats, Stop};
use serde_json::Value;

/// A count as a JSON number when it fits in `u64`, else as a decimal string (of any size:
/// a [`Count`] past `u128::MAX` too).
pub fn count(n: impl Into<Count>) -> Value {
    let n: Count = n.into();
    match n.to_u128().and_then(|n| u64::try_from(n).ok()) {
        Some(n) => Value::from(n),
        None => Value::from(n.to_string()),
    }
}

/// A search's work counters as JSON: `{"nodes", "updates", "solutions", "seconds"}`, the
/// solutions a [`count`].
pub fn stats(stats: &Stats) -> Value {
    serde_json::json!({
        "nodes": stats.nodes,
        "updates": stats.updates,
        "solutions": count(stats.solutions),
        "seconds": stats.elapsed.as_secs_f64(),
    })
}

/// Adds how a search ended to the JSON object `answer`: `"complete"`
/// ([`Stop::is_answered`]), `"stop"` ([`Stop::name`]) and `"stats"` ([`stats`]). Nothing if
/// `answer` is not an object.
pub fn end(answer: &mut Value, stop: Stop, work: &Stats) {
    if let Some(map) = answer.as_object_mut() {
        map.insert("complete".into(), stop.is_answered().into());
        map.insert("stop".into(), stop.name().into());
        map.insert("stats".into(), stats(work));
    }
}

/// [`end`] for a count: `"complete"` only when the count covered the whole tree
/// ([`Stop::is_complete`]: a count stopped at a solution limit is not the count), and the
/// stats' `"solutions"` the exact `total` (the stats' own field saturates at `u128::MAX`,
/// which a memoised count can pass).
///
/// ```
/// use dancecard_engine::{Count, Stats, Stop};
/// use dancecard_format::json;
///
/// let mut answer = serde_json::json!({ "count": json::count(5u128) });
/// json::end_count(&mut answer, Stop::SolutionLimit, &Stats::default(), &Count::from(5u128));
/// assert_eq!(answer["complete"], false);
/// ```
pub fn end_count(answer: &mut Value, stop: Stop, work: &Stats, total: &Count) {
    end(answer, stop, work);
    if let Some(map) = answer.as_object_mut() {
        map.insert("complete".into(), stop.is_complete().into());
        if let Some(stats) = map.get_mut("stats").and_then(Value::as_object_mut) {
            stats.insert("solutions".into(), count(total));
        }
    }
}
