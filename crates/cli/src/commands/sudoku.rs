//! `dancecard sudoku`: solve, count or check files of sudoku puzzles of any supported size.

use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::time::Instant;

use dancecard_engine::Basis;
use dancecard_models::sudoku::{
    self, Budget, Error, Grid, Method, Options, Puzzle, Report, Shape, Stop,
};
use dancecard_models::Model;

use crate::input::bad_input;
use crate::output::say;
use crate::output::{self, OutputFormat};
use crate::progress::Progress;
use crate::{exit, input, stop};

/// Solve sudoku puzzles (4x4 to 25x25, rectangular boxes too): one solved line per puzzle.
#[derive(Debug, clap::Args)]
#[command(after_help = concat!("Input (detected): one puzzle a line, row by row, `.` or `0` for a blank, 1-9 then A-Z
for values above 9 (16, 81, 256 or 625 symbols; text after the puzzle, after a space
or a `:`, and lines starting with `#` are ignored); or grids of whitespace-separated
numbers, one row a line, 0 for a blank. An invalid puzzle (wrong length, bad symbol,
clashing givens) is reported on stderr with its line; the others are still solved, and
the exit code is 1 (as when a puzzle has no solution, except with --count or
--unique). Output has one line per puzzle, in input order: a blank line for a puzzle
that is invalid or (without --count or --unique) has no solution.

Examples:
  dancecard sudoku examples/puzzles.txt              # one solved line per puzzle
  echo 1...........2..3 | dancecard sudoku           # prints 1342423131242413
  dancecard sudoku --count testdata/sudoku/tdoku_test_puzzles
  dancecard sudoku --unique --stats testdata/sudoku/puzzles3_magictour_top1465
  dancecard sudoku --method dlx --stats examples/puzzles.txt  # exact cover, with node counts
  dancecard sudoku --box 2x3 examples/six.txt
  head -2 examples/puzzles.txt | dancecard sudoku --emit-dlx | dancecard solve -
  dancecard sudoku --count --node-limit 1000000 --time-limit 60 examples/puzzles.txt

A puzzle whose search --node-limit, --time-limit or Ctrl-C stops gets what was found (a
blank line when solving, a lower bound when counting) and an `incomplete` note on stderr;
after --time-limit or Ctrl-C the output stops there.

", crate::exit::exit_codes_help!()))]
#[command(mut_arg("file", |a| a.help("The puzzle file; `-` or nothing reads standard input")))]
#[command(mut_arg("node_limit", |a| a.help("Stop each puzzle's search after N nodes: its answer is partial, marked incomplete (exit code 3)")))]
#[command(mut_arg("time_limit", |a| a.help("Stop after this many seconds in all: the puzzles solved so far are printed, then the run stops, marked incomplete (exit code 3)")))]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) input: crate::args::InputFile,
    /// Box shape ROWSxCOLS, for rectangular boxes (2x3: 6x6 grid, 3x4: 12x12 grid); square
    /// boxes are detected from the input.
    #[arg(long = "box", value_name = "RxC")]
    pub(crate) shape: Option<String>,
    /// Solver: `fast` (bit sets, propagation, MRV branching) or `dlx` (exact cover).
    #[arg(long, value_enum, default_value_t)]
    pub(crate) method: MethodArg,
    /// Print the number of solutions of each puzzle, one a line (and nothing else on stdout).
    #[arg(long, conflicts_with = "unique")]
    pub(crate) count: bool,
    /// Count up to 2 solutions: print none, unique or multiple for each puzzle.
    #[arg(long)]
    pub(crate) unique: bool,
    /// Print each puzzle's nodes and microseconds on stderr, then puzzles per second.
    #[arg(long)]
    pub(crate) stats: bool,
    #[command(flatten)]
    pub(crate) limits: crate::stop::Limits,
    /// Solve the puzzles of the file on N threads (0: one per core).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::input::parse_threads, allow_negative_numbers = true)]
    pub(crate) threads: usize,
    #[command(flatten)]
    pub(crate) output: crate::args::Format,
    /// Write each puzzle's exact cover problem in Knuth's DLX format instead of solving
    /// (a `|` comment line names the puzzle).
    #[arg(long, conflicts_with_all = ["count", "unique", "stats"])]
    pub(crate) emit_dlx: bool,
}

/// The solver, as a command-line value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum MethodArg {
    /// The dedicated solver.
    #[default]
    Fast,
    /// Exact cover on dancing links.
    Dlx,
}

impl From<MethodArg> for Method {
    fn from(m: MethodArg) -> Method {
        match m {
            MethodArg::Fast => Method::Fast,
            MethodArg::Dlx => Method::Dlx,
        }
    }
}

/// What is asked of each puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Solve,
    Count,
    Unique,
}

pub(crate) fn run(mut args: Args) -> anyhow::Result<ExitCode> {
    args.threads = input::threads_or_cores(args.threads);
    let shape = match &args.shape {
        Some(text) => Some(text.parse::<Shape>().map_err(|e| bad_input(format!("--box: {e}")))?),
        None => None,
    };
    let (bytes, name) = input::read_input(args.input.file.as_deref())?;
    let text = String::from_utf8_lossy(&bytes);
    let entries = sudoku::parse_puzzles(&text, shape);
    if entries.is_empty() {
        return Err(bad_input(format!("{name}: no puzzle in the input")));
    }
    let valid: Vec<&Puzzle> = entries.iter().filter_map(|e| e.as_ref().ok()).collect();
    let invalid = entries.len() - valid.len();
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if args.emit_dlx {
        for e in &entries {
            if let Err(e) = e {
                say!("error: {name}: {e}");
            }
        }
        for p in &valid {
            let problem = sudoku::SudokuModel::new(&p.grid).problem();
            writeln!(out, "| sudoku, line {}: {}", p.line, p.grid)?;
            out.write_all(dancecard_format::write_dlx(&problem).as_bytes())?;
        }
        out.flush()?;
        return Ok(exit(valid.is_empty(), invalid > 0));
    }

    let mode = if args.count {
        Mode::Count
    } else if args.unique {
        Mode::Unique
    } else {
        Mode::Solve
    };
    let limit = match mode {
        Mode::Solve => Some(1),
        Mode::Count => None,
        Mode::Unique => Some(2),
    };
    let budget = Budget { max_solutions: limit, ..args.limits.budget() };
    let mut options = Options::new(args.method.into()).budget(budget);
    // Counts and uniqueness print no grid, except in JSON.
    options.skip_solution = mode != Mode::Solve && args.output.format == OutputFormat::Text;
    // Per-puzzle times are shown by `--stats` and in JSON only.
    options.skip_timing = !args.stats && args.output.format == OutputFormat::Text;
    args.limits.arm()?;
    let started = Instant::now();
    let reports = solve_all(&valid, &options, args.threads, args.output.format);
    let elapsed = started.elapsed();

    // Output, in input order.
    let mut err = BufWriter::new(std::io::stderr().lock());
    let mut reports_iter = reports.iter();
    let mut failed = invalid;
    let mut json = Vec::new();
    let mut nodes = 0u64;
    for entry in &entries {
        let p = match entry {
            Err(e) => {
                if args.output.format == OutputFormat::Json {
                    json.push(serde_json::json!({ "line": error_line(e), "error": e.to_string() }));
                } else if !valid.is_empty() {
                    // A blank line keeps the output in step with the puzzles.
                    writeln!(out)?;
                }
                writeln!(err, "error: {name}: {e}")?;
                continue;
            }
            Ok(p) => p,
        };
        let Some(report) = reports_iter.next().and_then(Option::as_ref) else {
            // Not reached before Ctrl-C or the time limit: the output stops here.
            break;
        };
        nodes += report.nodes;
        if !report.is_exact() {
            writeln!(err, "{name}: line {}: incomplete: {}", p.line, stop_text(report))?;
        }
        let no_solution = report.solutions == 0 && report.is_exact();
        if mode == Mode::Solve && no_solution {
            failed += 1;
        }
        match args.output.format {
            OutputFormat::Text => {
                match mode {
                    Mode::Solve => match &report.solution {
                        Some(s) => writeln!(out, "{s}")?,
                        None => {
                            writeln!(out)?;
                            if report.is_exact() {
                                writeln!(err, "error: {name}: line {}: no solution", p.line)?
                            }
                        }
                    },
                    Mode::Count => writeln!(out, "{}", report.solutions)?,
                    Mode::Unique => writeln!(out, "{}", report.uniqueness())?,
                }
                if args.stats {
                    writeln!(
                        err,
                        "line {}: nodes {} micros {} solutions {}",
                        p.line, report.nodes, report.micros, report.solutions
                    )?;
                }
            }
            OutputFormat::Json => json.push(serde_json::json!({
                "line": p.line,
                "puzzle": p.grid.to_string(),
                "solution": report.solution.as_ref().map(ToString::to_string),
                "count": report.solutions,
                "uniqueness": (report.is_exact() && mode != Mode::Solve)
                    .then(|| report.uniqueness().as_str()),
                "complete": report.is_exact(),
                "nodes": report.nodes,
                "micros": report.micros,
            })),
        }
    }
    let solved = reports.iter().filter(|r| r.is_some()).count();
    // Stopped by Ctrl-C or the time limit (puzzles left unsolved or cut short), or some
    // puzzle's search cut by the node limit.
    let stopped =
        solved < valid.len() || reports.iter().flatten().any(|r| r.stop == Stop::Cancelled);
    let limited = reports.iter().flatten().any(|r| r.stop == Stop::NodeLimit);
    let rate = solved as f64 / elapsed.as_secs_f64().max(1e-9);
    if args.output.format == OutputFormat::Json {
        let value = serde_json::json!({
            "puzzles": json,
            "summary": {
                "puzzles": entries.len(),
                "solved": solved,
                "failed": failed,
                "method": if args.method == MethodArg::Fast { "fast" } else { "dlx" },
                "threads": args.threads,
                "nodes": nodes,
                "seconds": elapsed.as_secs_f64(),
                "puzzles_per_second": rate,
                "complete": !stopped && !limited,
            },
        });
        writeln!(out, "{value}")?;
    }
    out.flush()?;
    if args.stats {
        writeln!(
            err,
            "puzzles {} failed {} nodes {} seconds {:.3} puzzles/s {:.0} ({}, {} thread{})",
            entries.len(),
            failed,
            nodes,
            elapsed.as_secs_f64(),
            rate,
            if args.method == MethodArg::Fast { "fast" } else { "dlx" },
            args.threads,
            if args.threads == 1 { "" } else { "s" },
        )?;
    }
    if stopped {
        let why = output::stop_text(Stop::Cancelled).unwrap_or("interrupted");
        writeln!(err, "incomplete: {why}; the results above are partial")?;
    }
    err.flush()?;
    if stopped && stop::interrupted() {
        return Ok(ExitCode::from(exit::INTERRUPTED));
    }
    if stopped || limited {
        return Ok(ExitCode::from(exit::LIMITED));
    }
    Ok(exit(valid.is_empty(), failed > 0))
}

/// The exit code: 2 when no puzzle could be read, 1 when some puzzle failed, else 0.
fn exit(nothing_valid: bool, some_failed: bool) -> ExitCode {
    if nothing_valid {
        ExitCode::from(exit::BAD_INPUT)
    } else if some_failed {
        ExitCode::from(exit::NOT_FOUND)
    } else {
        ExitCode::from(exit::FOUND)
    }
}

/// The line an error names, when it names one.
fn error_line(e: &Error) -> Option<usize> {
    match e {
        Error::Length { line, .. }
        | Error::BadSymbol { line, .. }
        | Error::RowLength { line, .. }
        | Error::MissingRows { line, .. }
        | Error::Clash { line, .. } => Some(*line),
        _ => None,
    }
}

fn stop_text(report: &Report) -> &'static str {
    output::stop_text(report.stop).unwrap_or("stopped")
}

/// Solves every puzzle through the library's batch solve ([`sudoku::search_all`]), with a
/// progress bar; `None` for those after the first one that Ctrl-C or the time limit cut short.
fn solve_all(
    puzzles: &[&Puzzle],
    options: &Options,
    threads: usize,
    format: OutputFormat,
) -> Vec<Option<Report>> {
    let grids: Vec<&Grid> = puzzles.iter().map(|p| &p.grid).collect();
    let total = puzzles.len();
    let mut progress = Progress::new(format);
    let reports = sudoku::search_all(&grids, options, threads, &mut |done| {
        let fraction = done as f64 / total as f64;
        progress.update(fraction, Basis::Units, || format!("{done} of {total} puzzles"));
    });
    progress.finish();
    reports
}
