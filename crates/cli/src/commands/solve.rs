//! `dancecard solve`: exact cover problems in Knuth's DLX format or as 0/1 matrices.

use std::io::{BufWriter, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;

use std::sync::Mutex;

use dancecard_engine::parallel::{self, ParallelSearch};
use dancecard_engine::{Config, Outcome, Solution, Solver, Stats, Stop, Visitor};
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
  dancecard solve --count testdata/instances/domino12x12.dlx  # 53060477521960000 (memo)
  dancecard solve --count --method memo --zdd tilings.zdd --stats testdata/instances/domino8x8.dlx
  dancecard solve --sample 3 --seed 7 testdata/instances/queens8.dlx
  dancecard solve --all --limit 3 problem.dlx
  printf 'a b c\\na b\\nc\\nb\\n' | dancecard solve --all -
  dancecard solve --matrix --format json matrix.txt
  dancecard solve --count --threads 2 testdata/instances/pent6x10.dlx
  dancecard solve --count --shard 3/10 --split-depth 4 --output s3.json problem.dlx
  mpirun -np 8 dancecard solve --count --mpi --checkpoint run.json problem.dlx
  mpirun -np 8 dancecard solve --count --mpi --resume run.json problem.dlx

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
    /// How --count counts: `search` (one step per solution at least), `memo` (memoised, as
    /// Knuth's DLX6: each remaining problem counted once), or `auto` (whichever pays, decided
    /// from the run; with --stats it says why).
    #[arg(long, value_enum, default_value_t)]
    pub(crate) method: super::count::MethodArg,
    /// The most memory the memoised count's table may take, in bytes (suffixes K, M, G):
    /// past it the table is emptied and the count goes on [default: 2G, or a quarter of the
    /// machine's memory if less].
    #[arg(long, value_name = "BYTES", value_parser = crate::util::parse_bytes)]
    pub(crate) memo_limit: Option<usize>,
    /// Count by memoisation and write the ZDD of all solutions to FILE, in the text format of
    /// Knuth's ZDDREAD (as his DLX6 writes it: options numbered from 1 in input order).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["all", "sample"])]
    pub(crate) zdd: Option<PathBuf>,
    /// Print K solutions drawn exactly uniformly at random (with replacement), from the ZDD of
    /// all solutions; reproducible for a --seed.
    #[arg(long, value_name = "K", conflicts_with_all = ["all", "count"])]
    pub(crate) sample: Option<usize>,
    /// The seed of --sample.
    #[arg(long, value_name = "S", default_value_t = 0, requires = "sample")]
    pub(crate) seed: u64,
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
    /// Search with N threads (with --count or --all; 0 means one per core). Subtrees are
    /// split dynamically, so every thread stays busy; counts equal one thread's.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::util::parse_threads)]
    pub(crate) threads: usize,
    /// Search only shard I of N (for batch schedulers): the subtrees at depth
    /// --split-depth whose index is I modulo N. Prints a JSON result for `dancecard merge`.
    #[arg(long, value_name = "I/N", value_parser = crate::shard::parse_shard)]
    pub(crate) shard: Option<(u64, u64)>,
    /// The depth at which --shard splits the tree.
    #[arg(long, value_name = "D", default_value_t = 4, requires = "shard")]
    pub(crate) split_depth: usize,
    /// With --shard: write the JSON result to this file instead of stdout.
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub(crate) output: Option<PathBuf>,
    /// Count on a cluster, under `mpirun` (needs a build with `--features mpi`): rank 0
    /// hands out subtrees and searches too, the other ranks search. Started without a
    /// launcher, counts in this process, with the same checkpoints.
    #[arg(long, requires = "count", conflicts_with = "shard")]
    pub(crate) mpi: bool,
    /// With --mpi: where rank 0 keeps the checkpoint of finished subtrees
    /// [default: dancecard-checkpoint.json, or the --resume file].
    #[arg(long, value_name = "FILE", requires = "mpi")]
    pub(crate) checkpoint: Option<PathBuf>,
    /// With --mpi: continue the search recorded in this checkpoint.
    #[arg(long, value_name = "FILE", requires = "mpi")]
    pub(crate) resume: Option<PathBuf>,
}

/// Reads and parses the problem named by `args`.
pub(crate) fn load(args: &Args) -> anyhow::Result<Document> {
    load_document(args.file.as_deref(), args.matrix, args.dlx)
}

/// Reads and parses a problem: a file, or stdin for `-` or none; as a 0/1 matrix, in DLX
/// format, or detected.
pub(crate) fn load_document(
    file: Option<&std::path::Path>,
    matrix: bool,
    dlx: bool,
) -> anyhow::Result<Document> {
    let (bytes, name) = util::read_input(file)?;
    let parsed = if matrix {
        dancecard_format::parse_matrix(&bytes)
    } else if dlx {
        dancecard_format::parse_dlx(&bytes)
    } else {
        dancecard_format::parse_auto(&bytes).map(|(d, _): (Document, InputFormat)| d)
    };
    parsed.map_err(|e| bad_input(format!("{name}: {e}")))
}

/// The search configuration given by `args`, with Ctrl-C wired to cancel.
pub(crate) fn config(args: &Args) -> anyhow::Result<Config> {
    let time_limit = util::time_limit(args.time_limit)?;
    Ok(Config {
        heuristic: args.heuristic.into(),
        max_solutions: args.limit,
        max_nodes: args.node_limit,
        time_limit,
        cancel: Some(util::stop_flag()),
        ..Config::default()
    })
}

/// Where solutions go: printed as they are found (text), or collected (JSON).
struct Output<'d> {
    doc: &'d Document,
    out: BufWriter<std::io::Stdout>,
    format: OutputFormat,
    /// False with `--count`: solutions are only counted.
    print: bool,
    json: Vec<Vec<usize>>,
    printed: usize,
    error: Option<std::io::Error>,
}

impl Output<'_> {
    fn solution(&mut self, solution: Solution<'_>) -> ControlFlow<()> {
        if !self.print {
            return ControlFlow::Continue(());
        }
        if self.format == OutputFormat::Json {
            self.json.push(solution.options().map(|o| self.doc.input_index[o.index()]).collect());
            return ControlFlow::Continue(());
        }
        if let Err(e) = self.write(solution) {
            // Most likely a closed pipe (`| head`): stop searching.
            self.error = Some(e);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    fn write(&mut self, solution: Solution<'_>) -> std::io::Result<()> {
        if self.printed > 0 {
            writeln!(self.out)?;
        }
        self.printed += 1;
        for option in solution.options() {
            writeln!(self.out, "{}", self.doc.label(option))?;
        }
        Ok(())
    }

    /// Prints the count or the JSON document, then the stats and the stop reason.
    fn finish(mut self, args: &Args, outcome: Outcome, stats: &Stats) -> anyhow::Result<ExitCode> {
        if let Some(e) = self.error.take() {
            return Err(e.into());
        }
        // Complete unless a node or time limit or an interruption cut the search short:
        // stopping at the first solution, or at `--limit`, is what was asked for.
        let complete = matches!(outcome.stop, Stop::Exhausted | Stop::SolutionLimit);
        match args.format {
            OutputFormat::Text => {
                if args.count {
                    writeln!(self.out, "{}", outcome.solutions)?;
                }
                self.out.flush()?;
                if outcome.solutions == 0 && !args.count && outcome.is_complete() {
                    eprintln!("no solution");
                }
            }
            OutputFormat::Json => {
                let value = serde_json::json!({
                    "solutions": self.json,
                    "count": util::u128_json(outcome.solutions),
                    "complete": complete,
                    "stop": util::stop_name(outcome.stop),
                    "stats": util::stats_json(stats),
                });
                writeln!(self.out, "{value}")?;
                self.out.flush()?;
            }
        }
        if args.stats {
            util::print_stats(stats);
        }
        util::report_stop(outcome.stop);
        Ok(util::exit_code(outcome.solutions > 0 || args.count, outcome.stop))
    }
}

/// The single-thread visitor: output plus progress bar.
struct Printer<'o, 'd> {
    output: &'o mut Output<'d>,
    progress: Progress,
}

impl Visitor for Printer<'_, '_> {
    fn solution(&mut self, solution: Solution<'_>) -> ControlFlow<()> {
        self.output.solution(solution)
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
    if args.threads != 1 && !args.all && !args.count {
        return Err(bad_input("--threads works with --count or --all"));
    }
    let doc = load(&args)?;
    let mut config = config(&args)?;
    let scale_out = args.shard.is_some() || args.mpi;
    if scale_out && args.method == super::count::MethodArg::Memo {
        return Err(bad_input("--shard and --mpi count with the plain search: not --method memo"));
    }
    if let Some(k) = args.sample {
        return super::count::sample(&args, &doc, config, k);
    }
    if (args.count || args.zdd.is_some()) && !scale_out {
        return super::count::run(&args, &doc, config);
    }
    if let Some(shard) = args.shard {
        return crate::shard::run_shard(&args, &doc, config, shard);
    }
    if args.mpi {
        return crate::cluster::run(&args, &doc, config);
    }
    if !args.all && !args.count {
        // The first solution only (unless --limit asks for none).
        config.max_solutions = Some(config.max_solutions.map_or(1, |l| l.min(1)));
    }
    let mut output = Output {
        doc: &doc,
        out: BufWriter::new(std::io::stdout()),
        format: args.format,
        print: !args.count,
        json: Vec::new(),
        printed: 0,
        error: None,
    };
    if args.threads == 1 {
        let mut solver = Solver::with_config(&doc.problem, config);
        let mut printer = Printer { output: &mut output, progress: Progress::new(args.format) };
        let outcome = if args.count {
            // Counts only: the solver may count on its bit-set kernel.
            solver.count_with_progress(|s| printer.tick(s))
        } else {
            solver.visit(&mut printer)
        };
        printer.progress.finish();
        return output.finish(&args, outcome, solver.stats());
    }
    let output = Mutex::new(output);
    let progress = Mutex::new(Progress::new(args.format));
    let report = |p: parallel::Progress| {
        lock(&progress)
            .update(p.fraction, || format!("{} solutions, {} nodes", p.solutions, p.nodes))
    };
    let search = ParallelSearch::new(&doc.problem, config, args.threads);
    let (outcome, stats) = if args.count {
        // Counts only: the units may be counted on the bit-set kernel.
        search.count_with_progress(&report)
    } else {
        search.visit(&|s: Solution<'_>| lock(&output).solution(s), &report)
    };
    lock(&progress).finish();
    output.into_inner().unwrap_or_else(|e| e.into_inner()).finish(&args, outcome, &stats)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
