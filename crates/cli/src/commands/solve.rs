//! `dancecard solve`: exact cover problems in Knuth's DLX format or as 0/1 matrices.

use std::io::{BufWriter, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use dancecard_engine::{Config, Outcome, Solution, Solver, Stop, Visitor};
use dancecard_format::{Document, InputFormat};

use crate::util::{self, bad_input, HeuristicArg, OutputFormat, Progress};

/// Solve an exact cover problem: print the first solution, all of them, or their number.
#[derive(Debug, clap::Args)]
#[command(after_help = concat!("Input: Knuth's DLX format (first line the item names, `|` before the secondary
items, then one option a line, `x:c` giving secondary item x the color c, lines
starting with `|` are comments) or a 0/1 matrix (`n m`, then n rows of m values).

Examples:
  dancecard solve testdata/instances/queens8.dlx          # the first solution
  dancecard solve --count testdata/instances/pent6x10.dlx # prints 9356
  dancecard solve --all --limit 3 problem.dlx
  printf 'a b c\\na b\\nc\\nb\\n' | dancecard solve --all -
  dancecard solve --matrix --format json matrix.txt

", crate::util::exit_codes_help!()))]
pub(crate) struct Args {
    /// The problem file; `-` or nothing reads standard input.
    pub(crate) file: Option<PathBuf>,
    /// Print every solution, a blank line between two.
    #[arg(long, conflicts_with = "count")]
    pub(crate) all: bool,
    /// Print only the number of solutions (on stdout; everything else goes to stderr).
    #[arg(long)]
    pub(crate) count: bool,
    /// Stop after N solutions.
    #[arg(long, value_name = "N")]
    pub(crate) limit: Option<u128>,
    /// Stop after N search-tree nodes.
    #[arg(long, value_name = "N")]
    pub(crate) node_limit: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub(crate) time_limit: Option<f64>,
    /// How to choose the item to branch on.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) heuristic: HeuristicArg,
    /// Print nodes, updates, solutions and seconds on stderr, in one line.
    #[arg(long)]
    pub(crate) stats: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) format: OutputFormat,
    /// Read a 0/1 matrix (detected when not given).
    #[arg(long, conflicts_with = "dlx")]
    pub(crate) matrix: bool,
    /// Read Knuth's DLX format (detected when not given).
    #[arg(long)]
    pub(crate) dlx: bool,
}

/// Reads and parses the problem named by `args`.
pub(crate) fn load(args: &Args) -> anyhow::Result<Document> {
    let (bytes, name) = util::read_input(util::input_name(&args.file))?;
    let parsed = if args.matrix {
        dancecard_format::parse_matrix(&bytes)
    } else if args.dlx {
        dancecard_format::parse_dlx(&bytes)
    } else {
        dancecard_format::parse_auto(&bytes).map(|(d, _): (Document, InputFormat)| d)
    };
    parsed.map_err(|e| bad_input(format!("{name}: {e}")))
}

/// The search configuration given by `args`, with Ctrl-C wired to cancel.
pub(crate) fn config(args: &Args) -> anyhow::Result<Config> {
    let time_limit = match args.time_limit {
        Some(t) if !(t.is_finite() && t >= 0.0) => {
            return Err(bad_input(format!("--time-limit must be a number of seconds, not {t}")))
        }
        Some(t) => Some(Duration::from_secs_f64(t)),
        None => None,
    };
    Ok(Config {
        heuristic: args.heuristic.into(),
        max_solutions: args.limit,
        max_nodes: args.node_limit,
        time_limit,
        cancel: Some(util::interrupt_flag()),
    })
}

/// Prints solutions as they are found (text or collected for JSON) and drives the progress bar.
struct Printer<'d, W: Write> {
    doc: &'d Document,
    out: W,
    format: OutputFormat,
    print: bool,
    json: Vec<Vec<usize>>,
    printed: usize,
    progress: Progress,
    error: Option<std::io::Error>,
}

impl<W: Write> Printer<'_, W> {
    fn write_solution(&mut self, solution: Solution<'_>) -> std::io::Result<()> {
        if self.printed > 0 {
            writeln!(self.out)?;
        }
        self.printed += 1;
        for option in solution.options() {
            writeln!(self.out, "{}", self.doc.label(option))?;
        }
        Ok(())
    }
}

impl<W: Write> Visitor for Printer<'_, W> {
    fn solution(&mut self, solution: Solution<'_>) -> ControlFlow<()> {
        if !self.print {
            return ControlFlow::Continue(());
        }
        if self.format == OutputFormat::Text {
            if let Err(e) = self.write_solution(solution) {
                self.error = Some(e);
                return ControlFlow::Break(());
            }
        } else {
            self.json.push(solution.options().map(|o| self.doc.input_index[o.index()]).collect());
        }
        ControlFlow::Continue(())
    }

    fn tick(&mut self, solver: &Solver) -> ControlFlow<()> {
        let stats = solver.stats();
        self.progress.update(solver.progress(), || {
            format!("{} solutions, {} nodes", stats.solutions, stats.nodes)
        });
        ControlFlow::Continue(())
    }
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let doc = load(&args)?;
    let mut config = config(&args)?;
    if !args.all && !args.count {
        // The first solution only (unless --limit asks for fewer, i.e. 0).
        config.max_solutions = Some(config.max_solutions.map_or(1, |l| l.min(1)));
    }
    let mut solver = Solver::with_config(&doc.problem, config);
    let stdout = std::io::stdout();
    let mut printer = Printer {
        doc: &doc,
        out: BufWriter::new(stdout.lock()),
        format: args.format,
        print: !args.count,
        json: Vec::new(),
        printed: 0,
        progress: Progress::new(args.format),
        error: None,
    };
    let outcome: Outcome = if args.limit == Some(0) {
        Outcome { solutions: 0, stop: Stop::SolutionLimit }
    } else {
        solver.visit(&mut printer)
    };
    printer.progress.finish();
    if let Some(e) = printer.error.take() {
        return Err(e.into());
    }
    let stats = *solver.stats();
    // Complete unless a node or time limit or an interruption cut the search short: stopping
    // at the first solution, or at `--limit`, is what was asked for.
    let complete = matches!(outcome.stop, Stop::Exhausted | Stop::SolutionLimit);
    match args.format {
        OutputFormat::Text => {
            if args.count {
                writeln!(printer.out, "{}", outcome.solutions)?;
            }
            printer.out.flush()?;
            if outcome.solutions == 0 && !args.count && outcome.is_complete() {
                eprintln!("no solution");
            }
        }
        OutputFormat::Json => {
            let value = serde_json::json!({
                "solutions": printer.json,
                "count": util::u128_json(outcome.solutions),
                "complete": complete,
                "stop": util::stop_name(outcome.stop),
                "stats": util::stats_json(&stats),
            });
            writeln!(printer.out, "{value}")?;
            printer.out.flush()?;
        }
    }
    if args.stats {
        util::print_stats(&stats);
    }
    util::report_stop(outcome.stop);
    Ok(util::exit_code(outcome.solutions > 0 || args.count, outcome.stop))
}
