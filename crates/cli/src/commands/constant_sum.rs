//! `dancecard constant-sum`: an N x N matrix whose rows and columns all sum to K (BISHI28).

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use dancecard_search::constant_sum::{ConstantSum, Layout};

use crate::exit;
use crate::input::bad_input;
use crate::output::OutputFormat;

/// The largest N accepted (the output has N² numbers).
const MAX_N: usize = 20_000;

/// Print an N x N matrix of non-negative integers whose rows and columns all sum to K, or -1
/// when there is none (K < 0).
#[derive(Debug, clap::Args)]
#[command(after_help = concat!("No search is needed: K on the diagonal works for every N >= 1 and K >= 0
(--even spreads K as evenly as possible instead).

Examples:
  dancecard constant-sum 3 5
  dancecard constant-sum --even 4 10
  dancecard constant-sum 1000 1000000000 > big.txt
  dancecard constant-sum 2 -1                      # -1

", crate::exit::exit_codes_help!()))]
pub(crate) struct Args {
    /// The side N (1 to 20000).
    #[arg(allow_negative_numbers = true)]
    pub(crate) n: String,
    /// The line sum K (an integer; negative has no answer).
    #[arg(allow_hyphen_values = true)]
    pub(crate) k: String,
    /// Spread K evenly (every cell K/N or K/N + 1) instead of on the diagonal.
    #[arg(long)]
    pub(crate) even: bool,
    #[command(flatten)]
    pub(crate) output: crate::args::Format,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let n: usize = match args.n.trim().parse() {
        Ok(n) if (1..=MAX_N).contains(&n) => n,
        _ => {
            return Err(bad_input(format!(
                "N must be an integer from 1 to {MAX_N}, not {:?}",
                args.n
            )))
        }
    };
    let k: i128 = args
        .k
        .trim()
        .parse()
        .map_err(|_| bad_input(format!("K must be an integer, not {:?}", args.k)))?;
    let layout = if args.even { Layout::Even } else { Layout::Diagonal };
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let Some(matrix) = ConstantSum::new(n, k, layout) else {
        match args.output.format {
            OutputFormat::Text => writeln!(out, "-1")?,
            OutputFormat::Json => writeln!(out, "{}", serde_json::json!({ "matrix": null }))?,
        }
        out.flush()?;
        return Ok(ExitCode::from(exit::NOT_FOUND));
    };
    match args.output.format {
        OutputFormat::Text => {
            for i in 0..n {
                out.write_all(matrix.row_text(i).as_bytes())?;
                out.write_all(b"\n")?;
            }
        }
        OutputFormat::Json => {
            out.write_all(b"{\"n\":")?;
            write!(out, "{n},\"k\":{k},\"matrix\":[")?;
            for i in 0..n {
                let sep = if i > 0 { "," } else { "" };
                write!(out, "{sep}[{}]", matrix.row_text(i).replace(' ', ","))?;
            }
            out.write_all(b"]}\n")?;
        }
    }
    out.flush()?;
    Ok(ExitCode::from(exit::FOUND))
}
