//! Counting on many machines (#18): one count cut into shards, each counted anywhere
//! (`Problem.count(shard=(i, n), split_depth=d, output=FILE)`), and the shards' result files
//! merged back (`dancecard.merge(files)`).
//!
//! The plan, the files and the merge are `dancecard-scale`'s, and this module uses them as
//! the command line does (`crates/cli/src/shard.rs`: `dancecard solve --count --shard I/N
//! --split-depth D --output FILE`, `dancecard merge FILES`), so that the two mix: a file
//! written here merges with files written by `dancecard`, and the other way round.
//!
//! - Shard `i` of `n` is the subtrees at depth `split_depth` whose index is `i` modulo `n`
//!   ([`shard_units`], listed with the count's heuristic), shard 0 also taking the solutions
//!   shallower than that; they are counted by the plain search on the count's threads
//!   ([`ParallelSearch::units`]), with its node and time limits, which apply to the shard.
//! - The result file is [`ShardResult`]'s JSON (with the search's [`Fingerprint`] and a
//!   checksum of the content), one line and a newline, written through a temporary file in
//!   the same directory and a rename, so that a reader never sees half a result. The
//!   temporary file is made before the count, so that a directory that cannot be written
//!   fails at once, not after the count. A limited count is written as incomplete (`merge`
//!   refuses it); an interrupted one (Ctrl-C) writes nothing.
//! - `merge` reads every file, refuses the first that cannot be read (`OSError`) or is not an
//!   intact shard result (a `ValueError` naming it: edited by hand, damaged, not JSON), then
//!   refuses a set that is not one whole search, listing every problem (missing, duplicate,
//!   incomplete, out-of-range shards, other searches), as `dancecard merge` does on stderr.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use dancecard_engine::parallel::ParallelSearch;
use dancecard_engine::{Budget, Config, Outcome, Solver, Stats};
use dancecard_scale::{merge as merge_results, shard_units, Fingerprint, ShardResult};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::args;
use crate::counting::os_error;
use crate::interrupt::{run_interruptible, Interruptible};

/// The split depth of a shard when none is given: `dancecard solve --split-depth`'s default.
pub(crate) const SPLIT_DEPTH: usize = 4;

/// The deepest split a shard takes: far deeper than any tree worth splitting (past the
/// tree's depth, the units are the solutions themselves), and a bound for a mistaken number.
pub(crate) const MAX_SPLIT_DEPTH: usize = 1024;

/// The largest file `merge` reads, in bytes: a shard result takes some hundreds; a larger
/// file is no shard result (and reading a huge one whole would take the memory for nothing).
const MAX_FILE: u64 = 1 << 20;

/// Reads argument `shard` of `Problem.count`: `None`, or a pair `(i, n)` of ints (any
/// iterable of two, numpy's too) with `0 <= i < n < 2**64`.
pub(crate) fn read_shard(obj: &Bound<'_, PyAny>) -> PyResult<Option<(u64, u64)>> {
    const EXPECTED: &str = "a pair (i, n) of ints with 0 <= i < n < 2**64, or None";
    if obj.is_none() {
        return Ok(None);
    }
    let mut values = Vec::with_capacity(2);
    // Read no further than one value too many: an endless iterator is no pair.
    for (k, item) in args::items(obj, &args::WHOLE, EXPECTED)?.take(3).enumerate() {
        let at = args::Index::one("shard", k);
        let range = (0, u128::from(u64::MAX));
        values.push(args::int_in(&item?, "shard", &at, range, "an int from 0 to 2**64 - 1")?);
    }
    match values[..] {
        [i, n] if i < n => {
            // Both below 2**64 (read so).
            Ok(Some((u64::try_from(i).unwrap_or(u64::MAX), u64::try_from(n).unwrap_or(u64::MAX))))
        }
        [i, n] => Err(args::wrong_value("shard", &args::WHOLE, EXPECTED, &format!("({i}, {n})"))),
        _ => {
            let shown = args::values_shown(values.len());
            Err(args::wrong_value("shard", &args::WHOLE, EXPECTED, &shown))
        }
    }
}

/// Reads argument `split_depth` of `Problem.count`: `None` ([`SPLIT_DEPTH`]), or an int from
/// 0 to [`MAX_SPLIT_DEPTH`].
pub(crate) fn read_split_depth(obj: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    if obj.is_none() {
        return Ok(None);
    }
    let expected = format!("an int from 0 to {MAX_SPLIT_DEPTH}, or None");
    let v =
        args::int_in(obj, "split_depth", &args::WHOLE, (0, MAX_SPLIT_DEPTH as u128), &expected)?;
    // In range, so it fits.
    Ok(Some(usize::try_from(v).unwrap_or(MAX_SPLIT_DEPTH)))
}

/// Reads argument `output` of `Problem.count`: `None`, or a path (see [`args::path`]).
pub(crate) fn read_output(obj: &Bound<'_, PyAny>) -> PyResult<Option<PathBuf>> {
    if obj.is_none() {
        return Ok(None);
    }
    args::path(obj, "output", &args::WHOLE).map(Some)
}

/// A shard to count: shard `index` of `shards`, the tree cut at `depth`; its result written
/// to `output` if given.
#[derive(Debug)]
pub(crate) struct Shard {
    pub(crate) index: u64,
    pub(crate) shards: u64,
    pub(crate) depth: usize,
    pub(crate) output: Option<PathBuf>,
}

/// The temporary file a result is written to before its rename: in the result's directory
/// (a rename does not cross file systems), hidden, and named after the process and the
/// write, so that two writers of the same result do not write into each other's file.
struct Pending {
    file: File,
    tmp: PathBuf,
    path: PathBuf,
}

impl Pending {
    /// Creates the temporary file of a result to be written to `path`.
    fn create(py: Python<'_>, path: &Path) -> PyResult<Pending> {
        let Some(name) = path.file_name() else {
            let shown = args::quoted(&path.to_string_lossy());
            return Err(args::wrong_value("output", &args::WHOLE, "a path to a file", &shown));
        };
        if path.is_dir() {
            // The rename would fail after the count: fail now, as `open` would.
            let errno: i32 = py.import("errno")?.getattr("EISDIR")?.extract()?;
            return Err(os_error(&std::io::Error::from_raw_os_error(errno), path, "write"));
        }
        // The process and a number of its own: threads of one process may write the same
        // result too.
        static WRITES: AtomicU64 = AtomicU64::new(0);
        let write = WRITES.fetch_add(1, Ordering::Relaxed);
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(".{}.{write}.tmp", std::process::id()));
        let tmp = path.with_file_name(tmp_name);
        let file = File::create(&tmp).map_err(|e| os_error(&e, path, "write"))?;
        Ok(Pending { file, tmp, path: path.to_owned() })
    }

    /// Writes `text`, then renames the temporary file to the result's path.
    fn commit(mut self, text: &str) -> PyResult<()> {
        let written = self
            .file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.sync_all())
            .and_then(|()| std::fs::rename(&self.tmp, &self.path));
        written.map_err(|e| {
            let _ = std::fs::remove_file(&self.tmp);
            os_error(&e, &self.path, "write")
        })
    }

    /// Removes the temporary file (the count did not end with a result).
    fn abandon(self) {
        drop(self.file);
        let _ = std::fs::remove_file(&self.tmp);
    }
}

/// Counts shard `shard` of the search `search` describes (its problem and configuration;
/// Ctrl-C stops it) by the plain search on `threads` threads, as `dancecard solve --count
/// --shard` does, and writes its result file if asked. Returns the outcome and the counters.
pub(crate) fn count_shard(
    py: Python<'_>,
    search: Interruptible<'_>,
    threads: usize,
    shard: &Shard,
) -> PyResult<(Outcome, Stats)> {
    let pending = shard.output.as_deref().map(|path| Pending::create(py, path)).transpose()?;
    let Interruptible { problem, config, cancel } = search;
    let heuristic = config.heuristic;
    let counted = run_interruptible(py, &cancel, || {
        let fingerprint = Fingerprint::new(problem, heuristic, shard.depth, shard.shards);
        // The units are listed as the command line lists them (the heuristic alone), with
        // the cancel flag, so that Ctrl-C stops a long listing too.
        let lister_config = Config {
            budget: Budget {
                cancel: config.budget.cancel.clone(),
                ..Config::with_heuristic(heuristic).budget.clone()
            },
            ..Config::with_heuristic(heuristic)
        };
        let mut lister = Solver::with_config(problem, lister_config);
        let units = shard_units(&mut lister, shard.depth, shard.index, shard.shards);
        let unit_count = units.len();
        let (outcome, stats) =
            ParallelSearch::new(problem, config, threads.max(1)).units(units).count();
        let result = ShardResult::new(shard.index, outcome, &stats, unit_count, fingerprint);
        (outcome, stats, result)
    });
    let (outcome, stats, result) = match counted {
        Ok(counted) => counted,
        Err(e) => {
            if let Some(pending) = pending {
                pending.abandon();
            }
            return Err(e);
        }
    };
    if let Some(pending) = pending {
        let text = result.to_json() + "\n";
        py.allow_threads(|| pending.commit(&text))?;
    }
    Ok((outcome, stats))
}

/// Reads argument `files` of `merge`: the paths, as `files[k]` in messages.
fn read_files(obj: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    const EXPECTED: &str = "an iterable of paths (str, bytes or os.PathLike)";
    let mut out = Vec::new();
    for (k, item) in args::items(obj, &args::WHOLE, EXPECTED)?.enumerate() {
        out.push(args::path(&item?, "files", &args::Index::one("files", k))?);
    }
    Ok(out)
}

/// Why a file could not be merged.
enum Unreadable {
    /// Reading failed.
    Io(std::io::Error),
    /// The bytes are not an intact shard result.
    Refused(String),
}

/// Reads and checks one shard result file.
fn read_result(path: &Path) -> Result<ShardResult, Unreadable> {
    let mut bytes = Vec::new();
    let file = File::open(path).map_err(Unreadable::Io)?;
    let _ = file.take(MAX_FILE + 1).read_to_end(&mut bytes).map_err(Unreadable::Io)?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(Unreadable::Refused(format!(
            "not a shard result file: it has more than {MAX_FILE} bytes"
        )));
    }
    ShardResult::parse(&bytes).map_err(|e| Unreadable::Refused(e.to_string()))
}

/// The total count of the shard result files of one search, as `dancecard merge` adds them.
///
/// Arguments:
///     files: an iterable of paths (str, bytes or os.PathLike), written by
///         Problem.count(shard=(i, n), output=...) or by `dancecard solve --count --shard
///         I/N --output FILE`, in any mix: every shard of one search (the same problem,
///         heuristic, split depth, number of shards and version), each exactly once and
///         complete.
///
/// Returns:
///     The count of the whole search (an int).
///
/// Raises:
///     OSError: for a file that cannot be read.
///     ValueError: for a file that is not an intact shard result (not JSON, another kind
///         of file, edited by hand or damaged: its checksum does not match), naming it; or
///         for a set that is not one whole search, listing every problem (missing,
///         duplicate or incomplete shards, files of another search).
///     TypeError: for files that are not an iterable of paths.
///
/// Example:
///     >>> import dancecard, os, tempfile
///     >>> p = dancecard.queens.problem(8)
///     >>> d = tempfile.mkdtemp()
///     >>> files = [os.path.join(d, f"{i}.json") for i in range(3)]
///     >>> sum(p.count(shard=(i, 3), output=f) for i, f in enumerate(files))
///     92
///     >>> dancecard.merge(files)
///     92
#[pyfunction]
#[pyo3(signature = (files))]
pub(crate) fn merge(
    py: Python<'_>,
    #[pyo3(from_py_with = read_files)] files: Vec<PathBuf>,
) -> PyResult<num_bigint::BigUint> {
    let read = py.allow_threads(|| {
        let mut results = Vec::with_capacity(files.len());
        for path in &files {
            match read_result(path) {
                Ok(result) => results.push((path.display().to_string(), result)),
                Err(e) => return Err((path, e)),
            }
        }
        Ok(results)
    });
    let results = read.map_err(|(path, e)| match e {
        Unreadable::Io(e) => os_error(&e, path, "read"),
        Unreadable::Refused(why) => args::invalid("files", format!("{}: {why}", path.display())),
    })?;
    merge_results(&results).map(|merged| merged.total.to_biguint()).map_err(|problems| {
        // Every problem, unshortened (unlike `args::invalid`): the list is what the caller
        // needs to mend the set.
        let lines: Vec<String> = problems.iter().map(|p| format!("\n  {p}")).collect();
        PyValueError::new_err(format!(
            "argument 'files': the shards do not make up one whole search:{}",
            lines.concat()
        ))
    })
}
