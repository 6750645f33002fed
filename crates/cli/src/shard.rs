//! Shards: one search split into N independent jobs for any batch scheduler, and the
//! results merged back (`dancecard solve --shard I/N`, `dancecard merge`).
//!
//! The tree is cut at depth D into units (choice prefixes, [`Solver::prefixes`]); shard I
//! takes the units of depth D whose index is I modulo N, and shard 0 also takes the solutions
//! found above depth D. Each shard writes a JSON result carrying a *fingerprint*: the problem's
//! hash, the heuristic, D, N and the program's version. Merging checks that all N shards are
//! there exactly once with one fingerprint, and sums their counts in `u128`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;

use anyhow::Context;
use dancecard_engine::parallel::{self, ParallelSearch};
use dancecard_engine::{Config, Heuristic, Problem, Solver};
use dancecard_format::Document;
use serde::{Deserialize, Serialize};

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

/// What must be equal between the shards of one search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Fingerprint {
    /// FNV-1a (128 bits) of the problem written in the DLX format, in hex.
    pub(crate) problem: String,
    /// `mrv` or `leftmost`.
    pub(crate) heuristic: String,
    /// The depth D at which the tree was cut.
    pub(crate) split_depth: usize,
    /// The number of shards N.
    pub(crate) shards: u64,
    /// The version of dancecard that searched.
    pub(crate) version: String,
}

impl Fingerprint {
    pub(crate) fn new(problem: &Problem, heuristic: Heuristic, depth: usize, shards: u64) -> Self {
        Fingerprint {
            problem: format!("{:032x}", problem_hash(problem)),
            heuristic: match heuristic {
                Heuristic::Mrv => "mrv",
                Heuristic::Leftmost => "leftmost",
            }
            .to_owned(),
            split_depth: depth,
            shards,
            version: env!("CARGO_PKG_VERSION").to_owned(),
        }
    }
}

/// FNV-1a with 128 bits over the problem's canonical DLX text.
pub(crate) fn problem_hash(problem: &Problem) -> u128 {
    const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
    const PRIME: u128 = 0x0000000001000000000000000000013b;
    dancecard_format::write_dlx(problem)
        .bytes()
        .fold(OFFSET, |h, b| (h ^ u128::from(b)).wrapping_mul(PRIME))
}

/// The JSON result of one shard.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct ShardResult {
    /// Always `dancecard-shard`.
    pub(crate) kind: String,
    /// I.
    pub(crate) shard: u64,
    /// The solutions counted in this shard (a string when past 2^64).
    pub(crate) count: serde_json::Value,
    /// False when the shard was interrupted or limited: its count is partial.
    pub(crate) complete: bool,
    /// How many units (subtrees) this shard searched.
    pub(crate) units: usize,
    pub(crate) fingerprint: Fingerprint,
    pub(crate) stats: serde_json::Value,
}

impl ShardResult {
    fn count(&self) -> Option<u128> {
        match &self.count {
            serde_json::Value::Number(n) => n.as_u64().map(u128::from),
            serde_json::Value::String(s) => s.parse().ok(),
            _ => None,
        }
    }
}

/// The units of shard `i` of `n` at `depth`: depth-`depth` units with index `i` mod `n`, plus
/// (for shard 0) the solutions shallower than `depth`.
pub(crate) fn shard_units(solver: &mut Solver, depth: usize, i: u64, n: u64) -> Vec<Vec<u32>> {
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
    let result = ShardResult {
        kind: "dancecard-shard".to_owned(),
        shard: i,
        count: util::u128_json(outcome.solutions),
        complete: outcome.is_complete(),
        units: unit_count,
        fingerprint,
        stats: util::stats_json(&stats),
    };
    let text = serde_json::to_string(&result)? + "\n";
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
#[command(after_help = concat!("Checks that all N shards are present exactly once, complete, and with one
fingerprint (problem hash, heuristic, split depth, N, version); prints the total.

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
        let text = std::fs::read_to_string(path)
            .map_err(|e| bad_input(format!("cannot read {}: {e}", path.display())))?;
        let result: ShardResult = serde_json::from_str(&text)
            .map_err(|e| bad_input(format!("{}: not a shard result: {e}", path.display())))?;
        if result.kind != "dancecard-shard" {
            return Err(bad_input(format!("{}: not a shard result", path.display())));
        }
        results.push((path, result));
    }
    let mut problems = Vec::new();
    let first = &results[0].1.fingerprint;
    for (path, r) in &results[1..] {
        if &r.fingerprint != first {
            problems.push(format!(
                "{} is from another search: {} vs {} ({})",
                path.display(),
                serde_json::to_string(&r.fingerprint)?,
                serde_json::to_string(first)?,
                results[0].0.display()
            ));
        }
    }
    let n = first.shards;
    // The shards present, by index: the files name at most as many as there are files, and
    // N can be any number (no slot per announced shard).
    let mut seen: std::collections::BTreeMap<u64, Vec<&PathBuf>> = Default::default();
    let mut total: u128 = 0;
    let mut overflow = false;
    for (path, r) in &results {
        if r.shard < n {
            seen.entry(r.shard).or_default().push(path);
        } else {
            problems.push(format!("{}: shard {} is not below {n}", path.display(), r.shard))
        }
        if !r.complete {
            problems.push(format!("{}: shard {} is incomplete", path.display(), r.shard));
        }
        match r.count() {
            Some(c) => match total.checked_add(c) {
                Some(t) => total = t,
                None => overflow = true,
            },
            None => problems.push(format!("{}: bad count {}", path.display(), r.count)),
        }
    }
    if overflow {
        problems.push("the counts add up to more than 2^128 - 1".to_owned());
    }
    let absent = n - seen.len() as u64;
    if absent > 0 {
        // The first few missing indices (at most 20 are named).
        let shown: Vec<String> =
            (0..n).filter(|k| !seen.contains_key(k)).take(20).map(|k| k.to_string()).collect();
        let more = absent - shown.len() as u64;
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        problems.push(format!("missing shards of {n}: {}{more}", shown.join(", ")));
    }
    for (k, paths) in seen.iter().filter(|(_, p)| p.len() > 1) {
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        problems.push(format!("shard {k} appears {} times: {}", paths.len(), names.join(", ")));
    }
    if !problems.is_empty() {
        for p in &problems {
            eprintln!("error: {p}");
        }
        eprintln!("incomplete: the shards do not make up one whole search");
        if args.format == OutputFormat::Json {
            watch::print_json(&serde_json::json!({
                "count": null,
                "complete": false,
                "shards": n,
                "problems": problems,
            }))?;
        }
        return Ok(ExitCode::from(util::NOT_FOUND));
    }
    match args.format {
        OutputFormat::Text => watch::print(&format!("{total}\n"))?,
        OutputFormat::Json => watch::print_json(&serde_json::json!({
            "count": util::u128_json(total),
            "complete": true,
            "shards": n,
            "fingerprint": first,
        }))?,
    }
    Ok(ExitCode::from(util::FOUND))
}
