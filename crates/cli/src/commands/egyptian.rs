//! `dancecard egyptian`: the fewest distinct unit fractions summing to A/B (Luogu P1763).

use std::process::ExitCode;

use dancecard_search::egyptian::{self, EgyptianError, Options};

use crate::exit;
use crate::input::bad_input;
use crate::output::say;
use crate::output::{self, OutputFormat};

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
    #[arg(allow_negative_numbers = true)]
    pub(crate) a: String,
    /// The denominator (a positive integer).
    #[arg(allow_negative_numbers = true)]
    pub(crate) b: String,
    /// The most terms to try.
    #[arg(long, value_name = "N", default_value_t = 12, allow_negative_numbers = true, value_parser = crate::input::parse_count::<usize>)]
    pub(crate) max_terms: usize,
    /// The largest denominator allowed.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::input::parse_count::<u128>)]
    pub(crate) max_denominator: Option<u128>,
    #[command(flatten)]
    pub(crate) search: crate::args::SearchArgs,
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
    let limits = args.search.limits.for_search()?;
    let options = Options {
        max_terms: args.max_terms,
        max_denominator: args.max_denominator.unwrap_or(u128::MAX),
        limits,
    };
    match egyptian::solve(a, b, &options) {
        Ok(answer) => {
            if args.search.report.stats {
                output::print_search_stats(&answer.stats);
            }
            let d = &answer.denominators;
            match args.search.report.format {
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
            say!("no solution: {e}");
            Ok(ExitCode::from(exit::NOT_FOUND))
        }
        Err(EgyptianError::Stopped { stop, stats }) => {
            if args.search.report.stats {
                output::print_search_stats(&stats);
            }
            let fields = serde_json::json!({
                "a": output::count_json(a), "b": output::count_json(b), "denominators": null,
            });
            output::search_stopped_json(args.search.report.format, stop, &stats, fields)
        }
        Err(e) => Err(bad_input(e.to_string())),
    }
}
