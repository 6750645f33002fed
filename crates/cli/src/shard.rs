//! Shards: one search split into N independent jobs for any batch scheduler
//! (`dancecard solve --shard I/N`; `dancecard merge` adds them up).
//!
//! The plan and the result files (with their fingerprint and checksum) are
//! `dancecard-scale`'s; this module searches one shard and writes its file. `solve` calls it
//! with the flags it needs ([`ShardRun`]): it depends on the output layer, not on `solve`.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Mutex;

use anyhow::Context;
use dancecard_engine::parallel::ParallelSearch;
use dancecard_engine::{Config, Outcome, Solver};
use dancecard_format::Document;
use dancecard_scale::{shard_units, Fingerprint, ShardResult};

use crate::output::{self, OutputFormat};
use crate::progress::{lock, Progress};

/// Parses `I/N` with `0 <= I < N`.
pub(crate) fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let (i, n) = text.split_once('/').ok_or("expected I/N, for example 3/10")?;
    let i: u64 = i.trim().parse().map_err(|_| format!("bad shard index `{i}`"))?;
    let n: u64 = n.trim().parse().map_err(|_| format!("bad shard count `{n}`"))?;
    if n == 0 || i >= n {
        return Err(format!("shard index must be below the shard count: {i}/{n}"));
    }
    Ok((i, n))
}

/// The flags of `dancecard solve --shard I/N`.
#[derive(Debug)]
pub(crate) struct ShardRun<'a> {
    /// I and N.
    pub(crate) shard: (u64, u64),
    /// The depth at which the tree is cut into units.
    pub(crate) split_depth: usize,
    /// Threads (at least one).
    pub(crate) threads: usize,
    /// Where the result goes (stdout without).
    pub(crate) output: Option<&'a Path>,
    /// Whether to print the stats line.
    pub(crate) stats: bool,
}

/// Searches shard I of N of `doc`'s problem and writes its result.
pub(crate) fn run_shard(
    args: &ShardRun<'_>,
    doc: &Document,
    config: Config,
) -> anyhow::Result<ExitCode> {
    let (i, n) = args.shard;
    let fingerprint = Fingerprint::new(&doc.problem, config.heuristic, args.split_depth, n);
    let mut lister = Solver::with_config(&doc.problem, Config::with_heuristic(config.heuristic));
    let units = shard_units(&mut lister, args.split_depth, i, n);
    let unit_count = units.len();
    let progress = Mutex::new(Progress::new(OutputFormat::Text));
    let (outcome, stats) = ParallelSearch::new(&doc.problem, config, args.threads.max(1))
        .units(units)
        .count_with_progress(&|p| lock(&progress).parallel(p));
    lock(&progress).finish();
    // The file names the reason as the output does: a cancel by `--time-limit` is `time-limit`.
    let outcome = Outcome { stop: crate::stop::refine(outcome.stop), ..outcome };
    let result = ShardResult::new(i, outcome, &stats, unit_count, fingerprint);
    let text = result.to_json() + "\n";
    match args.output {
        Some(path) => write_atomically(path, &text)?,
        None => output::print(&text)?,
    }
    if args.stats {
        output::print_stats(&stats);
    }
    Ok(output::finish(true, outcome.stop))
}

/// Writes `text` to `path` through a temporary file and a rename, so that a reader never sees
/// half a result.
pub(crate) fn write_atomically(path: &Path, text: &str) -> anyhow::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}
