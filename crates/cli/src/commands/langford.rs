//! `dancecard langford`: Langford pairs by exact cover.

use std::io::{BufWriter, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;

use dancecard_engine::Stop;
use dancecard_models::langford::Langford;
use dancecard_models::Model;

use super::watch;
use crate::util::{self, bad_input, OutputFormat, Progress};

/// Count the Langford pairings L(2,N): arrangements of 1 1 2 2 ... N N with k numbers between
/// the two k's, each arrangement and its reversal counted once (OEIS A014552).
#[derive(Debug, clap::Args)]
#[command(after_help = concat!("The exact cover model breaks the reversal symmetry (the two 1s in the left half),
so its count is L(2,N); the raw count with reversals is twice that.

Examples:
  dancecard langford 7            # prints 26
  dancecard langford 7 --all      # the 26 arrangements, one a line
  dancecard langford 12 --format json --stats
  dancecard langford 16 --time-limit 5  # a partial count after 5 s, exit code 3
  dancecard langford 4 --emit-dlx

", crate::util::exit_codes_help!()))]
pub(crate) struct Args {
    /// The number of pairs.
    pub(crate) n: usize,
    /// Print every arrangement, one a line.
    #[arg(long, conflicts_with = "count")]
    pub(crate) all: bool,
    /// Print only the count (the default without --all).
    #[arg(long)]
    pub(crate) count: bool,
    /// Stop after N arrangements.
    #[arg(long, value_name = "N")]
    pub(crate) limit: Option<u128>,
    #[command(flatten)]
    pub(crate) limits: util::Limits,
    /// Print nodes, updates, solutions and seconds on stderr.
    #[arg(long)]
    pub(crate) stats: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) format: OutputFormat,
    /// Print the exact cover problem in Knuth's DLX format instead of solving.
    #[arg(long)]
    pub(crate) emit_dlx: bool,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let model = Langford::new(args.n).map_err(|e| bad_input(e.to_string()))?;
    let problem = model.problem();
    if args.emit_dlx {
        return watch::emit_dlx(&problem);
    }
    args.limits.arm()?;
    let mut progress = Progress::new(args.format);
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut error: Option<std::io::Error> = None;
    let mut json: Vec<Vec<usize>> = Vec::new();
    let (stats, stop) = if !args.all {
        let (outcome, stats, _) =
            watch::count(&problem, watch::config(args.limit, &args.limits), &mut progress)?;
        (stats, outcome.stop)
    } else {
        let config = watch::config(args.limit, &args.limits);
        let (outcome, stats) = watch::search(&problem, config, &mut progress, |s| {
            if !args.all {
                return ControlFlow::Continue(());
            }
            let seq = model.decode(&s.to_vec());
            if args.format == OutputFormat::Json {
                json.push(seq);
                return ControlFlow::Continue(());
            }
            let line: Vec<String> = seq.iter().map(usize::to_string).collect();
            match writeln!(out, "{}", line.join(" ")) {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    error = Some(e);
                    ControlFlow::Break(())
                }
            }
        });
        (stats, outcome.stop)
    };
    if let Some(e) = error {
        return Err(e.into());
    }
    match args.format {
        OutputFormat::Text => {
            if !args.all {
                writeln!(out, "{}", stats.solutions)?;
            } else if stats.solutions == 0 && stop == Stop::Exhausted {
                eprintln!("no arrangement");
            }
        }
        OutputFormat::Json => writeln!(
            out,
            "{}",
            serde_json::json!({
                "n": args.n,
                "count": util::u128_json(stats.solutions),
                "solutions": json,
                "complete": watch::complete(stop),
                "stop": util::stop_name(stop),
                "stats": util::stats_json(&stats),
            })
        )?,
    }
    out.flush()?;
    if args.stats {
        util::print_stats(&stats);
    }
    util::report_stop(stop);
    Ok(util::exit_code(!args.all || stats.solutions > 0, stop))
}
