//! `dancecard langford`: Langford pairs by exact cover.

use std::ops::ControlFlow;
use std::process::ExitCode;

use dancecard_engine::{Count, Stop};
use dancecard_models::langford::Langford;
use dancecard_models::Model;

use crate::input::bad_input;
use crate::output::say;
use crate::output::{self, OutputFormat, Stream};
use crate::progress::Progress;
use crate::search;

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

", crate::exit::exit_codes_help!()))]
#[command(mut_arg("limit", |a| a.help("Stop after N arrangements")))]
pub(crate) struct Args {
    /// The number of pairs.
    #[arg(
        allow_negative_numbers = true,
        value_parser = crate::input::parse_size::<{ dancecard_models::langford::MAX_N }>
    )]
    pub(crate) n: usize,
    /// Print every arrangement, one a line.
    #[arg(long, conflicts_with = "count")]
    pub(crate) all: bool,
    /// Print only the count (the default without --all).
    #[arg(long)]
    pub(crate) count: bool,
    #[command(flatten)]
    pub(crate) model: search::ModelArgs,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let model = Langford::new(args.n).map_err(|e| bad_input(e.to_string()))?;
    let problem = model.problem();
    if args.model.emit_dlx {
        return output::emit_dlx(&problem);
    }
    args.model.limits.arm()?;
    let mut progress = Progress::new(args.model.report.format);
    let mut stream = Stream::new(false);
    let mut json: Vec<Vec<usize>> = Vec::new();
    let config = search::config(args.model.limit, &args.model.limits);
    let mut total = None;
    let (stats, stop) = if !args.all {
        let counted = search::count(&problem, config, &mut progress)?;
        total = Some(counted.count);
        (counted.stats, counted.stop)
    } else {
        let (outcome, stats) = search::search(&problem, config, &mut progress, |s| {
            let seq = model.decode(&s.to_vec());
            if args.model.report.format == OutputFormat::Json {
                json.push(seq);
                return ControlFlow::Continue(());
            }
            let line: Vec<String> = seq.iter().map(usize::to_string).collect();
            stream.answer(&format!("{}\n", line.join(" ")))
        });
        (stats, outcome.stop)
    };
    stream.close()?;
    let count = total.clone().unwrap_or_else(|| Count::from(stats.solutions));
    match args.model.report.format {
        OutputFormat::Text => {
            if !args.all {
                output::print(&format!("{count}\n"))?;
            } else if stats.solutions == 0 && stop == Stop::Exhausted {
                say!("no arrangement");
            }
        }
        OutputFormat::Json => {
            let answer = serde_json::json!({
                "n": args.n,
                "count": output::count_json(&count),
                "solutions": json,
            });
            let answer = match total {
                Some(_) => output::with_count_end(answer, stop, &stats, &count),
                None => output::with_end(answer, stop, &stats),
            };
            output::print_json(&answer)?
        }
    }
    if args.model.report.stats {
        output::print_count_stats(&stats, &count);
    }
    if !args.all {
        return Ok(output::finish_count(stop));
    }
    Ok(output::finish(stats.solutions > 0, stop))
}
