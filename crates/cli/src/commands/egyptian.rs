//! `dancecard egyptian`: the fewest distinct unit fractions summing to A/B (Luogu P1763).

use std::process::ExitCode;

use dancecard_search::egyptian::{self, EgyptianError, Options};

use crate::input::bad_input;
use crate::output::{self, OutputFormat};
use crate::{exit, stop};

/// Egyptian fractions: write A/B as a sum of the fewest unit fractions with distinct
/// denominators; ties go to the smallest largest denominator.
#[derive(Debug, clap::Args)]
#[command(after_help = concat!("Output: the denominators, increasing, on one line. Method: iterative deepening
on the number of terms, with bounds on each denominator; the numbers are 128-bit
and checked, so a search that would need more prints an error, never a wrong
answer.

Examples:
  dancecard egyptian 19 45                 # 5 6 18
  dancecard egyptian 59 211                # 4 36 633 3798
  dancecard egyptian --max-denominator 1000000 7 13
  dancecard egyptian --format json 2 3

", crate::exit::exit_codes_help!()))]
pub(crate) struct Args {
    /// The numerator (a positive integer).
    pub(crate) a: String,
    /// The denominator (a positive integer).
    pub(crate) b: String,
    /// The most terms to try.
    #[arg(long, value_name = "N", default_value_t = 12)]
    pub(crate) max_terms: usize,
    /// The largest denominator allowed.
    #[arg(long, value_name = "N")]
    pub(crate) max_denominator: Option<u128>,
    /// Stop after N search nodes.
    #[arg(long, value_name = "N")]
    pub(crate) node_limit: Option<u64>,
    /// Stop after this many seconds: say so, and exit 3.
    #[arg(long, value_name = "SECONDS")]
    pub(crate) time_limit: Option<f64>,
    /// Print nodes and seconds on stderr.
    #[arg(long)]
    pub(crate) stats: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) format: OutputFormat,
}

fn positive(what: &str, text: &str) -> anyhow::Result<u128> {
    match text.trim().parse::<u128>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(bad_input(format!("{what} must be a positive integer, not {text:?}"))),
    }
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let a = positive("A", &args.a)?;
    let b = positive("B", &args.b)?;
    stop::arm_time_limit(args.time_limit)?;
    let options = Options {
        max_terms: args.max_terms,
        max_denominator: args.max_denominator.unwrap_or(u128::MAX),
        limits: stop::search_limits(args.node_limit),
    };
    match egyptian::solve(a, b, &options) {
        Ok(answer) => {
            if args.stats {
                output::print_search_stats(&answer.stats);
            }
            let d = &answer.denominators;
            match args.format {
                OutputFormat::Text => {
                    let words: Vec<String> = d.iter().map(u128::to_string).collect();
                    output::print(&format!("{}\n", words.join(" ")))?;
                }
                OutputFormat::Json => {
                    let dens: Vec<serde_json::Value> =
                        d.iter().map(|&x| output::count_json(x)).collect();
                    output::print_json(&serde_json::json!({
                        "a": output::count_json(a),
                        "b": output::count_json(b),
                        "terms": d.len(),
                        "denominators": dens,
                        "stats": output::search_stats_json(&answer.stats),
                    }))?;
                }
            }
            Ok(ExitCode::from(exit::FOUND))
        }
        Err(e @ EgyptianError::NotFound { .. }) => {
            eprintln!("no solution: {e}");
            Ok(ExitCode::from(exit::NOT_FOUND))
        }
        Err(EgyptianError::Stopped { stop, stats }) => {
            if args.stats {
                output::print_search_stats(&stats);
            }
            let fields = serde_json::json!({
                "a": output::count_json(a), "b": output::count_json(b), "denominators": null,
            });
            output::search_stopped_json(args.format, stop, &stats, fields)
        }
        Err(e) => Err(bad_input(e.to_string())),
    }
}
