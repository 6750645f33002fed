//! `dancecard guard`: UVa 11214 "Guarding the Chessboard".

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use dancecard_search::dominate::{self, Board, Piece};

use crate::commands::dominate::PieceArg;
use crate::input::bad_input;
use crate::output::say_part;
use crate::output::{self, OutputFormat};
use crate::{exit, input, stop};

/// Guarding the Chessboard (UVa 11214): the fewest queens attacking or occupying every
/// marked square, for each board of the input.
#[derive(Debug, clap::Args)]
#[command(after_help = concat!("Input: boards, each a line `n m` then n lines of m characters (X a square to
guard, . one that need not be), ended by a line `0`. Output: `Case k: q` per
board. Method: minimum repeat cover by Dancing Links with IDA*.

Examples:
  printf '2 2\\nX.\\n.X\\n0\\n' | dancecard guard        # Case 1: 1
  dancecard guard examples/guard.txt --format json

", crate::exit::exit_codes_help!(), "
(A board whose search --node-limit stops prints `Case k: incomplete` and the next boards
are still solved; --time-limit and Ctrl-C stop the whole run there.)"))]
#[command(mut_arg("node_limit", |a| a.help("Stop each board's search after N placements tried")))]
#[command(mut_arg("time_limit", |a| a.help("Stop after this many seconds in all")))]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) input: crate::args::InputFile,
    /// The piece (the problem's is the queen).
    #[arg(long, value_enum, default_value_t = PieceArg::Queen)]
    pub(crate) piece: PieceArg,
    #[command(flatten)]
    pub(crate) limits: stop::Limits,
    #[command(flatten)]
    pub(crate) output: crate::args::Format,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (text, name) = input::read_nonempty_text(args.input.file.as_deref())?;
    let cases =
        dominate::parse_guard_cases(&text).map_err(|e| bad_input(format!("{name}: {e}")))?;
    let piece = Piece::from(args.piece);
    let limits = args.limits.for_search()?;
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut json = Vec::new();
    let mut cut_short = None;
    for (k, marks) in cases.iter().enumerate() {
        let d = dominate::dominate(piece, Board::of_marks(marks), &limits)
            .map_err(|e| bad_input(format!("{name}: case {}: {e}", k + 1)))?;
        let Some(minimum) = d.minimum else {
            // No answer for this board: the node limit holds per board; Ctrl-C and the time
            // limit end the run.
            cut_short = Some(d.stop);
            say_part!("case {}: ", k + 1);
            let _ = output::search_stopped(d.stop);
            match args.output.format {
                OutputFormat::Text => writeln!(out, "Case {}: incomplete", k + 1)?,
                OutputFormat::Json => json.push(serde_json::json!({
                    "case": k + 1,
                    "minimum": null,
                    "placement": null,
                    "complete": false,
                    "stop": output::search_stop_name(d.stop),
                })),
            }
            if d.stop == dancecard_search::Stop::Cancelled {
                break;
            }
            continue;
        };
        match args.output.format {
            OutputFormat::Text => writeln!(out, "Case {}: {minimum}", k + 1)?,
            OutputFormat::Json => {
                let placement: Vec<[usize; 2]> = d.placement.iter().map(|&(r, c)| [r, c]).collect();
                json.push(serde_json::json!({ "case": k + 1, "minimum": minimum, "placement": placement }));
            }
        }
    }
    if args.output.format == OutputFormat::Json {
        let complete = cut_short.is_none();
        writeln!(out, "{}", serde_json::json!({ "cases": json, "complete": complete }))?;
    }
    out.flush()?;
    if let Some(stop) = cut_short {
        return Ok(output::search_exit_code(stop));
    }
    Ok(ExitCode::from(exit::FOUND))
}
