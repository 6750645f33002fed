//! `dancecard grid-pick`: the largest sum of grid cells, no two 8-adjacent (BISHI79).

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use dancecard_search::grid_pick;

use crate::input::bad_input;
use crate::output::{self, OutputFormat};
use crate::{exit, input};

/// The largest sum of cells of a grid with no two chosen cells adjacent, diagonals included.
#[derive(Debug, clap::Args)]
#[command(after_help = concat!("Input: T, then T cases of `N M` and N rows of M non-negative integers. Output:
one line per case, the largest sum. Method: dynamic programming over the mask of
the chosen columns of each row (widths up to 16; a taller-than-wide grid is
transposed), with the best predecessor of every mask taken as a subset maximum.

Examples:
  printf '1\\n3 3\\n75 15 21\\n75 15 28\\n34 70 5\\n' | dancecard grid-pick   # 166
  dancecard grid-pick examples/cases.txt --format json

", crate::exit::exit_codes_help!()))]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) cases: crate::args::Cases,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (text, name) = input::read_nonempty_text(args.cases.input.file.as_deref())?;
    let cases = grid_pick::parse_cases(&text).map_err(|e| bad_input(format!("{name}: {e}")))?;
    let mut answers = Vec::with_capacity(cases.len());
    for (i, grid) in cases.iter().enumerate() {
        let best = grid_pick::max_weight(grid)
            .map_err(|e| bad_input(format!("{name}: case {}: {e}", i + 1)))?;
        answers.push(best);
    }
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match args.cases.output.format {
        OutputFormat::Text => {
            for a in &answers {
                writeln!(out, "{a}")?;
            }
        }
        OutputFormat::Json => {
            let values: Vec<serde_json::Value> =
                answers.iter().map(|&a| output::count_json(a)).collect();
            writeln!(out, "{}", serde_json::json!({ "answers": values }))?;
        }
    }
    out.flush()?;
    Ok(ExitCode::from(exit::FOUND))
}
