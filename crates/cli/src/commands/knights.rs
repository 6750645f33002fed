//! `dancecard knights`: the 5x5 knight puzzle (Luogu P2324), by IDA*.

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use dancecard_search::knights::{self, MAX_MOVES};
use dancecard_search::Stop;

use crate::input::bad_input;
use crate::output::say_part;
use crate::output::{self, OutputFormat};
use crate::{exit, input};

/// The knight puzzle: the fewest knight jumps into the blank that reach the target (at most
/// 15), or -1.
#[derive(Debug, clap::Args)]
#[command(after_help = concat!("Input: the number of boards T, then T boards of five lines of five characters:
1 a white knight, 0 a black knight, * the blank. A move jumps a knight into the
blank. The target is

  11111
  01111
  00*11
  00001
  00000

Output: one line per board, the fewest moves, or -1 when more than 15 (--max)
are needed. Method: IDA* with h = the knights off their target colour.

Examples:
  dancecard knights examples/knights.txt
  printf '1\\n10110\\n01*11\\n10111\\n01001\\n00000\\n' | dancecard knights   # 7
  dancecard knights --format json --moves examples/knights.txt

", crate::exit::exit_codes_help!(), "
(Exit code 0 when some board reaches the target, 1 when none does. A board whose search
--node-limit stops prints `incomplete` and the next boards are still solved; --time-limit
and Ctrl-C stop the whole run there.)"))]
#[command(mut_arg("node_limit", |a| a.help("Stop each board's search after N generated nodes")))]
#[command(mut_arg("time_limit", |a| a.help("Stop after this many seconds in all")))]
#[command(mut_arg("stats", |a| a.help("Print nodes and seconds per board on stderr")))]
pub(crate) struct Args {
    /// The input; `-` or nothing reads standard input.
    pub(crate) file: Option<PathBuf>,
    /// The most moves to look for.
    #[arg(long, value_name = "N", default_value_t = MAX_MOVES, allow_negative_numbers = true, value_parser = crate::input::parse_count::<u32>)]
    pub(crate) max: u32,
    /// Also print the squares (0 to 24, row-major) of the knights that jump.
    #[arg(long)]
    pub(crate) moves: bool,
    #[command(flatten)]
    pub(crate) search: crate::args::SearchArgs,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (text, name) = input::read_nonempty_text(args.file.as_deref())?;
    let boards = knights::parse_cases(&text).map_err(|e| bad_input(format!("{name}: {e}")))?;
    let limits = args.search.limits.for_search()?;
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut json = Vec::new();
    let mut any = false;
    let mut cut_short = None;
    for (k, board) in boards.iter().enumerate() {
        let answer = knights::solve(board, args.max, &limits);
        if args.search.report.stats {
            output::print_search_stats(&answer.stats);
        }
        if !answer.stop.is_answered() {
            // No answer for this board: the node limit holds per board (the next boards are
            // still solved); Ctrl-C and the time limit end the run.
            cut_short = Some(answer.stop);
            say_part!("board {}: ", k + 1);
            let _ = output::search_stopped(answer.stop);
            match args.search.report.format {
                OutputFormat::Text => writeln!(out, "incomplete")?,
                OutputFormat::Json => json.push(serde_json::json!({
                    "answer": null,
                    "moves": null,
                    "complete": false,
                    "stop": output::search_stop_name(answer.stop),
                    "stats": output::search_stats_json(&answer.stats),
                })),
            }
            if answer.stop == Stop::Cancelled {
                break;
            }
            continue;
        }
        any |= answer.moves.is_some();
        let moves = answer.moves.clone().unwrap_or_default();
        match args.search.report.format {
            OutputFormat::Text if args.moves && !moves.is_empty() => {
                let squares: Vec<String> = moves.iter().map(u8::to_string).collect();
                writeln!(out, "{} {}", answer.value(), squares.join(" "))?;
            }
            OutputFormat::Text => writeln!(out, "{}", answer.value())?,
            OutputFormat::Json => json.push(serde_json::json!({
                "answer": answer.value(),
                "moves": answer.moves,
                "reachable_within_limit": answer.stop == Stop::Found,
                "stats": output::search_stats_json(&answer.stats),
            })),
        }
    }
    if args.search.report.format == OutputFormat::Json {
        // One answer per board solved, in order (`null` for a board cut short).
        let answers: Vec<serde_json::Value> = json.iter().map(|c| c["answer"].clone()).collect();
        let complete = cut_short.is_none();
        writeln!(
            out,
            "{}",
            serde_json::json!({ "answers": answers, "cases": json, "complete": complete })
        )?;
    }
    out.flush()?;
    if let Some(stop) = cut_short {
        return Ok(output::search_exit_code(stop));
    }
    Ok(ExitCode::from(if any { exit::FOUND } else { exit::NOT_FOUND }))
}
