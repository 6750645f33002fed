//! `dancecard solve --count`, `--zdd` and `--sample`: counting by the plain search, by
//! memoisation, or by whichever pays (`--method`), a ZDD of all solutions, uniform samples.

use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::sync::Mutex;

use dancecard_engine::{
    Config, CountError, CountMethod, CountRequest, Counted, FrontierStats, MemoConfig, MemoStats,
    Stats, Stop,
};
use dancecard_format::Document;

use super::{input_numbers, labels, Args};
use crate::input::bad_input;
use crate::output::say;
use crate::output::{self, OutputFormat, Stream};
use crate::progress::{lock, Progress};

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
    /// By stages from both ends: for problems whose options fall into lines (latin squares).
    Frontier,
}

impl From<MethodArg> for CountMethod {
    fn from(m: MethodArg) -> CountMethod {
        match m {
            MethodArg::Search => CountMethod::Search,
            MethodArg::Memo => CountMethod::Memo,
            MethodArg::Auto => CountMethod::Auto,
            MethodArg::Frontier => CountMethod::Frontier,
        }
    }
}

/// The memo settings of `args`.
fn memo_config(args: &Args, zdd: bool) -> MemoConfig {
    MemoConfig { limit_bytes: args.memo_limit.unwrap_or_else(MemoConfig::default_limit_bytes), zdd }
}

/// A refused or failed count as the user sees it: every one is about the input or the flags
/// (exit 2).
fn count_error(e: CountError) -> anyhow::Error {
    bad_input(e.to_string())
}

/// The count request of `args`.
fn request(args: &Args, config: Config, zdd: bool) -> CountRequest {
    CountRequest {
        method: CountMethod::from(args.method),
        threads: args.threads,
        memo: memo_config(args, zdd),
        config,
    }
}

/// Counts (and with `--zdd` writes the ZDD), then reports.
pub(crate) fn run(args: &Args, doc: &Document, config: Config) -> anyhow::Result<ExitCode> {
    let method = CountMethod::from(args.method);
    let wants_zdd = args.zdd.is_some();
    if config.budget.max_solutions.is_some() && method == CountMethod::Memo {
        return Err(bad_input("--method memo counts whole subtrees at once: it takes no --limit"));
    }
    if wants_zdd && (method == CountMethod::Search || config.budget.max_solutions.is_some()) {
        return Err(bad_input("--zdd needs the memoised count: --method memo or auto, no --limit"));
    }
    let request = request(args, config, wants_zdd);
    let mut progress = Progress::new(args.report.format);
    // The plain search's time left, while it counts (by `search`, or by `auto` after it).
    progress.estimating(&doc.problem, request.config.heuristic);
    let progress = Mutex::new(progress);
    let started = std::time::Instant::now();
    let counted = dancecard_engine::count(&doc.problem, &request, &|p| lock(&progress).parallel(p))
        .map_err(count_error)?;
    lock(&progress).finish();
    let mut stats = counted.stats;
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

/// The count by stages' counters as JSON.
fn frontier_json(f: &FrontierStats) -> serde_json::Value {
    serde_json::json!({
        "stages": f.stages,
        "lines": f.lines,
        "forward": f.forward,
        "states": f.states,
        "peak_states": f.peak_states,
        "peak_bytes": f.peak_bytes,
    })
}

/// Prints the count (text or JSON), the stats and the stop reason; the exit code. A count
/// stopped at `--limit` is not the count: it is marked incomplete and exits 3, as one stopped
/// by `--node-limit` does.
fn report(args: &Args, counted: &Counted, stats: &Stats) -> anyhow::Result<ExitCode> {
    match args.report.format {
        OutputFormat::Text => output::print(&format!("{}\n", counted.count))?,
        OutputFormat::Json => output::print_json(&output::with_count_end(
            serde_json::json!({
                "solutions": [],
                "count": output::count_json(&counted.count),
                "method": counted.method.name(),
                "reason": counted.reason,
                "memo": counted.memo.as_ref().map(memo_json),
                "frontier": counted.frontier.as_ref().map(frontier_json),
                "zdd_nodes": counted.zdd.as_ref().map(|z| z.node_count()),
            }),
            counted.stop,
            stats,
            &counted.count,
        ))?,
    }
    if args.report.stats {
        output::print_count_stats(stats, &counted.count);
        if let Some(m) = &counted.memo {
            say!(
                "method memo hits {} entries {} clears {} peak-bytes {} plain-nodes {} zdd-nodes {}",
                m.hits, m.entries, m.clears, m.peak_bytes, m.plain_nodes, m.zdd_nodes
            );
        } else if let Some(f) = &counted.frontier {
            say!(
                "method frontier stages {} lines {} forward {} states {} peak-states {} peak-bytes {}",
                f.stages,
                if f.lines { "yes" } else { "no" },
                f.forward,
                f.states,
                f.peak_states,
                f.peak_bytes
            );
        } else {
            say!("method search");
        }
        if !counted.reason.is_empty() {
            say!("why: {}", counted.reason);
        }
    }
    Ok(output::finish_count(counted.stop))
}

/// `dancecard solve --sample K`: K solutions drawn uniformly at random (with replacement), from
/// the ZDD of all solutions, reproducibly for `--seed`. They are written as they are drawn,
/// so any K up to 2^64 - 1 runs in the memory of the ZDD; `--sample 0` draws none.
pub(crate) fn sample(
    args: &Args,
    doc: &Document,
    config: Config,
    k: u64,
) -> anyhow::Result<ExitCode> {
    if config.budget.max_solutions.is_some()
        || matches!(args.method, MethodArg::Search | MethodArg::Frontier)
    {
        return Err(bad_input(
            "--sample needs the memoised count: no --limit, no --method search or frontier",
        ));
    }
    if args.threads != 1 {
        return Err(bad_input("--sample draws from one memoised count: it takes no --threads"));
    }
    dancecard_engine::gate::check(&doc.problem, dancecard_engine::Method::Sample)
        .map_err(|e| bad_input(e.to_string()))?;
    if k == 0 {
        // Nothing asked: nothing drawn, nothing to count.
        if args.report.format == OutputFormat::Json {
            output::print_json(&serde_json::json!({ "samples": [], "seed": args.seed }))?;
        }
        return Ok(output::exit_code(true, Stop::Exhausted));
    }
    let request = request(args, config, true);
    let progress = Mutex::new(Progress::new(args.report.format));
    let counted =
        dancecard_engine::sample(&doc.problem, &request, &|p| lock(&progress).parallel(p))
            .map_err(count_error)?;
    lock(&progress).finish();
    let Some(zdd) = counted.zdd.as_ref() else {
        // Stopped by a limit or Ctrl-C before the ZDD was whole: nothing to draw from.
        output::report_stop(counted.stop);
        say!("(no sample: the ZDD of all solutions was not finished)");
        return Ok(output::exit_code(false, counted.stop));
    };
    if counted.count.is_zero() {
        if args.report.format == OutputFormat::Json {
            output::print_json(&serde_json::json!({
                "count": 0,
                "samples": [],
                "seed": args.seed,
                "zdd_nodes": zdd.node_count(),
            }))?;
        }
        if args.report.stats {
            output::print_count_stats(&counted.stats, &counted.count);
        }
        say!("no solution: nothing to sample");
        return Ok(output::exit_code(false, Stop::Exhausted));
    }
    let draws = zdd.samples(args.seed).take(usize::try_from(k).unwrap_or(usize::MAX));
    let mut stream = Stream::new(args.report.format == OutputFormat::Text);
    match args.report.format {
        OutputFormat::Text => {
            for s in draws {
                if stream.answer(&labels(doc, &s)).is_break() {
                    break;
                }
            }
        }
        OutputFormat::Json => {
            // One JSON document, its keys in order as serde_json writes them, the samples
            // streamed in the middle.
            let head = format!("{{\"count\":{},\"samples\":[", output::count_json(&counted.count));
            let _ = stream.answer(&head);
            for (n, s) in draws.enumerate() {
                let sep = if n == 0 { "" } else { "," };
                let text = format!("{sep}{}", serde_json::json!(input_numbers(doc, &s)));
                if stream.answer(&text).is_break() {
                    break;
                }
            }
            let tail = format!("],\"seed\":{},\"zdd_nodes\":{}}}\n", args.seed, zdd.node_count());
            let _ = stream.answer(&tail);
        }
    }
    stream.close()?;
    if args.report.stats {
        output::print_count_stats(&counted.stats, &counted.count);
    }
    Ok(output::exit_code(true, Stop::Exhausted))
}
