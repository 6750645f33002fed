//! `dancecard solve --count`, `--zdd` and `--sample`: counting by the plain search, by
//! memoisation, or by whichever pays (`--method`), a ZDD of all solutions, uniform samples.

use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::sync::Mutex;

use dancecard_engine::{
    Config, CountMethod, Counted, MemoConfig, MemoError, MemoStats, Solver, Stats, Stop,
};
use dancecard_format::Document;

use super::{input_numbers, labels, Args};
use crate::input::bad_input;
use crate::output::{self, OutputFormat, Stream};
use crate::progress::lock;
use crate::progress::Progress;

/// `--method` of `solve --count`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum MethodArg {
    /// The plain search: one step per solution at least.
    Search,
    /// Memoised search (Knuth's DLX6): each remaining problem counted once.
    Memo,
    /// Whichever pays, decided from the run.
    #[default]
    Auto,
}

impl From<MethodArg> for CountMethod {
    fn from(m: MethodArg) -> CountMethod {
        match m {
            MethodArg::Search => CountMethod::Search,
            MethodArg::Memo => CountMethod::Memo,
            MethodArg::Auto => CountMethod::Auto,
        }
    }
}

/// The memo settings of `args`.
fn memo_config(args: &Args, zdd: bool) -> MemoConfig {
    MemoConfig { limit_bytes: args.memo_limit.unwrap_or_else(MemoConfig::default_limit_bytes), zdd }
}

/// A memo error as the user sees it.
fn memo_error(e: MemoError) -> anyhow::Error {
    match e {
        MemoError::Overflow => anyhow::anyhow!("{e}"),
        other => bad_input(other.to_string()),
    }
}

/// Counts (and with `--zdd` writes the ZDD), then reports.
pub(crate) fn run(args: &Args, doc: &Document, config: Config) -> anyhow::Result<ExitCode> {
    let method = CountMethod::from(args.method);
    let wants_zdd = args.zdd.is_some();
    if config.max_solutions.is_some() && method == CountMethod::Memo {
        return Err(bad_input("--method memo counts whole subtrees at once: it takes no --limit"));
    }
    if wants_zdd && (method == CountMethod::Search || config.max_solutions.is_some()) {
        return Err(bad_input("--zdd needs the memoised count: --method memo or auto, no --limit"));
    }
    let memo = memo_config(args, wants_zdd);
    let mut progress = Progress::new(args.report.format);
    let started = std::time::Instant::now();
    let counted = if wants_zdd {
        // The ZDD is the memoised search's.
        let mut solver = Solver::with_config(&doc.problem, config);
        let counted = solver
            .count_by(CountMethod::Memo, &memo, &mut |s| progress.tick(s))
            .map_err(memo_error)?;
        (counted, *solver.stats())
    } else if args.threads > 1 {
        count_threads(args, doc, config, method, &memo, &mut progress)?
    } else {
        let mut solver = Solver::with_config(&doc.problem, config);
        let counted =
            solver.count_by(method, &memo, &mut |s| progress.tick(s)).map_err(memo_error)?;
        (counted, *solver.stats())
    };
    progress.finish();
    let (counted, mut stats) = counted;
    stats.elapsed = started.elapsed();
    if let (Some(path), Some(zdd)) = (&args.zdd, &counted.zdd) {
        let file = std::fs::File::create(path)
            .map_err(|e| bad_input(format!("cannot write {}: {e}", path.display())))?;
        let mut out = BufWriter::new(file);
        zdd.write_knuth(&mut out, |o| doc.input_index[o.index()] as u64 + 1)?;
        out.flush()?;
    }
    report(args, &counted, &stats)
}

/// With `--threads`: the method auto would pick, then the plain search on threads, or the
/// memoised search on one thread ([`Solver::count_on_threads`]).
fn count_threads(
    args: &Args,
    doc: &Document,
    config: Config,
    method: CountMethod,
    memo: &MemoConfig,
    progress: &mut Progress,
) -> anyhow::Result<(Counted, Stats)> {
    let shared = Mutex::new(&mut *progress);
    let tick = &mut |s: &Solver| lock(&shared).tick(s);
    let report = |p| lock(&shared).parallel(p);
    Solver::count_on_threads(&doc.problem, config, args.threads, method, memo, tick, &report)
        .map_err(memo_error)
}

/// The memo's counters as JSON.
fn memo_json(m: &MemoStats) -> serde_json::Value {
    serde_json::json!({
        "nodes": m.nodes,
        "hits": m.hits,
        "entries": m.entries,
        "clears": m.clears,
        "peak_bytes": m.peak_bytes,
        "plain_nodes": m.plain_nodes,
        "zdd_nodes": m.zdd_nodes,
    })
}

/// Prints the count (text or JSON), the stats and the stop reason; the exit code.
fn report(args: &Args, counted: &Counted, stats: &Stats) -> anyhow::Result<ExitCode> {
    let outcome = counted.outcome;
    match args.report.format {
        OutputFormat::Text => output::print(&format!("{}\n", outcome.solutions))?,
        OutputFormat::Json => output::print_json(&output::with_end(
            serde_json::json!({
                "solutions": [],
                "count": output::count_json(outcome.solutions),
                "method": counted.method.name(),
                "reason": counted.reason,
                "memo": counted.memo.as_ref().map(memo_json),
                "zdd_nodes": counted.zdd.as_ref().map(|z| z.node_count()),
            }),
            outcome.stop,
            stats,
        ))?,
    }
    if args.report.stats {
        output::print_stats(stats);
        if let Some(m) = &counted.memo {
            eprintln!(
                "method memo hits {} entries {} clears {} peak-bytes {} plain-nodes {} zdd-nodes {}",
                m.hits, m.entries, m.clears, m.peak_bytes, m.plain_nodes, m.zdd_nodes
            );
        } else {
            eprintln!("method search");
        }
        if !counted.reason.is_empty() {
            eprintln!("why: {}", counted.reason);
        }
    }
    Ok(output::finish(true, outcome.stop))
}

/// `dancecard solve --sample K`: K solutions drawn uniformly at random (with replacement), from
/// the ZDD of all solutions, reproducibly for `--seed`.
pub(crate) fn sample(
    args: &Args,
    doc: &Document,
    config: Config,
    k: usize,
) -> anyhow::Result<ExitCode> {
    if config.max_solutions.is_some() || args.method == MethodArg::Search {
        return Err(bad_input("--sample needs the memoised count: no --limit, no --method search"));
    }
    let memo = memo_config(args, true);
    let mut progress = Progress::new(args.report.format);
    let mut solver = Solver::with_config(&doc.problem, config);
    let counted =
        solver.count_by(CountMethod::Memo, &memo, &mut |s| progress.tick(s)).map_err(memo_error)?;
    progress.finish();
    let Some(zdd) = counted.zdd.as_ref() else {
        // Stopped by a limit or Ctrl-C before the ZDD was whole: nothing to draw from.
        output::report_stop(counted.outcome.stop);
        eprintln!("(no sample: the ZDD of all solutions was not finished)");
        return Ok(output::exit_code(false, counted.outcome.stop));
    };
    let samples = zdd.sample(k, args.seed).map_err(|e| anyhow::anyhow!("{e}"))?;
    match args.report.format {
        OutputFormat::Text => {
            let mut stream = Stream::new(true);
            for s in &samples {
                if stream.answer(&labels(doc, s)).is_break() {
                    break;
                }
            }
            stream.close()?;
        }
        OutputFormat::Json => {
            let json: Vec<Vec<usize>> = samples.iter().map(|s| input_numbers(doc, s)).collect();
            output::print_json(&serde_json::json!({
                "samples": json,
                "count": output::count_json(counted.outcome.solutions),
                "seed": args.seed,
                "zdd_nodes": zdd.node_count(),
            }))?;
        }
    }
    if args.report.stats {
        output::print_stats(solver.stats());
    }
    if samples.is_empty() {
        eprintln!("no solution: nothing to sample");
    }
    Ok(output::exit_code(!samples.is_empty(), Stop::Exhausted))
}
