//! Shards: one search split into N independent jobs for any batch scheduler, and the
//! results merged back (`dancecard solve --shard I/N`, `dancecard merge`).
//!
//! The plan, the result files (with their fingerprint and checksum) and the merge are
//! `dancecard-scale`'s; this module reads and writes the files and prints.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;

use anyhow::Context;
use dancecard_engine::parallel::{self, ParallelSearch};
use dancecard_engine::{Config, Solver};
use dancecard_format::Document;
use dancecard_scale::{merge, shard_units, Fingerprint, ShardResult};

use crate::commands::{solve, watch};
use crate::util::{self, bad_input, OutputFormat, Progress};

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

pub(crate) fn run_shard(
    args: &solve::Args,
    doc: &Document,
    config: Config,
    (i, n): (u64, u64),
) -> anyhow::Result<ExitCode> {
    if args.all || args.limit.is_some() {
        return Err(bad_input("--shard counts solutions: it does not take --all or --limit"));
    }
    let fingerprint = Fingerprint::new(&doc.problem, config.heuristic, args.split_depth, n);
    let mut lister = Solver::with_config(&doc.problem, Config::with_heuristic(config.heuristic));
    let units = shard_units(&mut lister, args.split_depth, i, n);
    let unit_count = units.len();
    let progress = Mutex::new(Progress::new(OutputFormat::Text));
    let (outcome, stats) = ParallelSearch::new(&doc.problem, config, args.threads.max(1))
        .units(units)
        .count_with_progress(&|p: parallel::Progress| {
            lock(&progress)
                .update(p.fraction, || format!("{} solutions, {} nodes", p.solutions, p.nodes));
        });
    lock(&progress).finish();
    let result = ShardResult::new(i, outcome, &stats, unit_count, fingerprint);
    let text = result.to_json() + "\n";
    match &args.output {
        Some(path) => write_atomically(path, &text)?,
        None => {
            let mut out = std::io::stdout();
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
    }
    if args.stats {
        util::print_stats(&stats);
    }
    util::report_stop(outcome.stop);
    Ok(util::exit_code(true, outcome.stop))
}

/// Writes `text` to `path` through a temporary file and a rename, so that a reader never sees
/// half a result.
pub(crate) fn write_atomically(path: &std::path::Path, text: &str) -> anyhow::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Merge the JSON results of `dancecard solve --shard I/N` into one count.
#[derive(Debug, clap::Args)]
#[command(after_help = concat!("Checks that every file is a shard result whose checksum matches its content (a file
edited by hand or damaged is refused: search that shard again), and that all N shards
are present exactly once, complete, and with one fingerprint (problem hash,
heuristic, split depth, N, version); prints the total.

Examples:
  for i in 0 1 2 3; do dancecard solve --count --shard $i/4 --output s$i.json pent6x10.dlx; done
  dancecard merge s*.json            # prints 9356

", crate::util::exit_codes_help!(), "
  (1 also when a shard is missing, duplicated, incomplete or from another search)"))]
pub(crate) struct MergeArgs {
    /// The shard result files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

pub(crate) fn run_merge(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let mut results = Vec::new();
    for path in &args.files {
        let bytes = std::fs::read(path)
            .map_err(|e| bad_input(format!("cannot read {}: {e}", path.display())))?;
        let result = ShardResult::parse(&bytes)
            .map_err(|e| bad_input(format!("{}: {e}", path.display())))?;
        results.push((path.display().to_string(), result));
    }
    let merged = match merge(&results) {
        Ok(merged) => merged,
        Err(problems) => {
            for p in &problems {
                eprintln!("error: {p}");
            }
            eprintln!("incomplete: the shards do not make up one whole search");
            if args.format == OutputFormat::Json {
                let problems: Vec<String> = problems.iter().map(ToString::to_string).collect();
                watch::print_json(&serde_json::json!({
                    "count": null,
                    "complete": false,
                    "shards": results.first().map(|(_, r)| r.fingerprint.shards),
                    "problems": problems,
                }))?;
            }
            return Ok(ExitCode::from(util::NOT_FOUND));
        }
    };
    match args.format {
        OutputFormat::Text => watch::print(&format!("{}\n", merged.total))?,
        OutputFormat::Json => watch::print_json(&serde_json::json!({
            "count": util::u128_json(merged.total),
            "complete": true,
            "shards": merged.shards,
            "fingerprint": merged.fingerprint,
        }))?,
    }
    Ok(ExitCode::from(util::FOUND))
}
