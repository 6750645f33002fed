//! `dancecard target-sudoku`: the weighted ("target-shaped") sudoku.

use std::process::ExitCode;
use std::time::Instant;

use dancecard_models::target::{Grid, TargetMethod, TargetSudoku};
use dancecard_models::Model;

use crate::input::bad_input;
use crate::output::say;
use crate::output::{self, OutputFormat};
use crate::{exit, input};

/// `--method`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum MethodArg {
    /// Branch and bound on the grid, with per-digit transversal bounds.
    #[default]
    Bb,
    /// Minimum-cost exact cover: the engine's DLX5, digit d on a square of weight w costing
    /// (10 - d) * w.
    Xc,
}

impl From<MethodArg> for TargetMethod {
    fn from(m: MethodArg) -> TargetMethod {
        match m {
            MethodArg::Bb => TargetMethod::BranchAndBound,
            MethodArg::Xc => TargetMethod::ExactCover,
        }
    }
}

/// Complete a sudoku so as to maximise the sum of digit x ring weight (10 on the centre
/// square, 9, 8, 7 on the rings around it, 6 on the border); print that maximum, or -1 when
/// the sudoku has no solution.
#[derive(Debug, clap::Args)]
#[command(after_help = concat!("Input: 9 lines of 9 digits, 0 (or .) for a blank; spaces between digits are allowed.

Examples:
  dancecard target-sudoku testdata/target-sudoku/sample1.in        # prints 2829
  dancecard target-sudoku --grid testdata/target-sudoku/sample2.in # 2852 and a best grid
  cat examples/sparse.txt | dancecard target-sudoku --format json
  dancecard target-sudoku --emit-dlx testdata/target-sudoku/sample1.in # the sudoku as exact cover
  dancecard target-sudoku --time-limit 10 examples/sparse.txt      # best found in 10 s
  dancecard target-sudoku --method xc testdata/target-sudoku/sample2.in # as min-cost exact cover

Puzzles with 24 or more givens take milliseconds; a puzzle with very few givens can take a long
time: --node-limit, --time-limit or Ctrl-C stop the search, which then prints the best score
found so far (a lower bound; nothing, and `null` in JSON, if no grid was found yet), says so
on stderr, and exits 3 (130 after Ctrl-C).

", crate::exit::exit_codes_help!()))]
#[command(mut_arg("file", |a| a.help("The puzzle file; `-` or nothing reads standard input")))]
#[command(mut_arg("stats", |a| a.help("Print the search's nodes and seconds on stderr")))]
#[command(mut_arg("node_limit", |a| a.help("Stop after N search nodes (the branch and bound's, or the exact cover's levels)")))]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) input: crate::args::InputFile,
    /// Also print a grid of maximum score.
    #[arg(long)]
    pub(crate) grid: bool,
    /// How to search; both print the same score. Default bb: as fast as xc or faster on
    /// puzzles with 24 or more givens (both take milliseconds); xc, whose min-cost search
    /// starts from the linear relaxation's taxes, proves sparse grids far sooner
    /// (examples/sparse.txt: 82 nodes against bb's 7,949; the empty grid: 885 against 622,619).
    #[arg(long, value_enum, default_value_t)]
    pub(crate) method: MethodArg,
    #[command(flatten)]
    pub(crate) report: crate::args::Report,
    /// Print the sudoku's exact cover problem in Knuth's DLX format instead of solving; with
    /// `--method xc`, with DLX5's costs (a least cost c scores 5700 - c).
    #[arg(long)]
    pub(crate) emit_dlx: bool,
    #[command(flatten)]
    pub(crate) limits: crate::stop::Limits,
}

fn grid_text(grid: &Grid) -> String {
    let mut s = String::new();
    for row in grid {
        let digits: Vec<String> = row.iter().map(u8::to_string).collect();
        s.push_str(&digits.join(" "));
        s.push('\n');
    }
    s
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (bytes, name) = input::read_input(args.input.file.as_deref())?;
    let text =
        String::from_utf8(bytes).map_err(|_| bad_input(format!("{name}: not UTF-8 text")))?;
    let puzzle = TargetSudoku::parse(&text).map_err(|e| bad_input(format!("{name}: {e}")))?;
    if args.emit_dlx {
        return output::emit_dlx(&match args.method {
            MethodArg::Bb => puzzle.problem(),
            MethodArg::Xc => puzzle.cost_problem(),
        });
    }
    // `--time-limit` raises the stop flag (armed here, once); `refine` names its cancel.
    args.limits.arm()?;
    let started = Instant::now();
    let result = puzzle.solve_by(args.method.into(), &args.limits.budget());
    let seconds = started.elapsed().as_secs_f64();
    // -1 means "no solution": a search stopped before its first grid has no score at all.
    let score = (result.best.is_some() || result.is_complete()).then(|| result.score());
    match args.report.format {
        OutputFormat::Text => {
            let mut s = score.map_or(String::new(), |score| format!("{score}\n"));
            if let (true, Some(best)) = (args.grid, &result.best) {
                s.push_str(&grid_text(&best.grid));
            }
            output::print(&s)?;
        }
        OutputFormat::Json => output::print_json(&serde_json::json!({
            "score": score,
            "grid": result.best.as_ref().map(|b| b.grid),
            "complete": result.is_complete(),
            "stop": output::stop_name(result.stop),
            "stats": { "nodes": result.nodes, "seconds": seconds },
        }))?,
    }
    if args.report.stats {
        say!("nodes {} seconds {seconds:.3}", result.nodes);
    }
    if !result.is_complete() {
        let why = output::stop_text(result.stop).unwrap_or("interrupted");
        if score.is_some() {
            say!("incomplete: {why}; the score above is the best found, a lower bound");
        } else {
            say!("incomplete: {why} before a first grid was found; no score");
        }
        return Ok(output::exit_code(false, result.stop));
    }
    let code = if result.best.is_some() { exit::FOUND } else { exit::NOT_FOUND };
    Ok(ExitCode::from(code))
}
