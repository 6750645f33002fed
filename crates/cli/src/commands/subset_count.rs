//! `dancecard subset-count`: subsets within a budget, by meeting in the middle (Luogu P4799).

use std::process::ExitCode;

use dancecard_search::subset;

use crate::input::bad_input;
use crate::output::{self, OutputFormat};
use crate::{exit, input};

/// Count the subsets of N prices (the empty one included) whose total is at most a budget M.
#[derive(Debug, clap::Args)]
#[command(after_help = concat!("Input: N and M, then the N prices (whitespace-separated; N <= 48,
non-negative integers below 2^64). Method: meet in the middle: the sorted subset
sums of each half (2 x 2^(N/2) of them, not 2^N), counted by one merge sweep.

Examples:
  echo '5 1000 100 1500 500 500 1000' | dancecard subset-count    # 8
  dancecard subset-count examples/prices.txt --format json

", crate::exit::exit_codes_help!()))]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) cases: crate::args::Cases,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (text, name) = input::read_text(args.cases.input.file.as_deref())?;
    let (prices, budget) = subset::parse(&text).map_err(|e| bad_input(format!("{name}: {e}")))?;
    let count = subset::count_within(&prices, budget).map_err(|e| bad_input(e.to_string()))?;
    match args.cases.output.format {
        OutputFormat::Text => output::print(&format!("{count}\n"))?,
        OutputFormat::Json => output::print_json(
            &serde_json::json!({ "count": count, "items": prices.len(), "budget": budget }),
        )?,
    }
    Ok(ExitCode::from(exit::FOUND))
}
