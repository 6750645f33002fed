//! `dancecard solve`: exact cover problems in Knuth's DLX format or as 0/1 matrices.

//!
//! The counts, the ZDD and the samples are [`count`]'s; a shard is [`crate::shard`]'s, a
//! cluster run [`crate::cluster`]'s (given the flags they need: they do not see [`Args`]).

mod count;

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;

use dancecard_engine::parallel::ParallelSearch;
use dancecard_engine::pre::{self, PreConfig, PreError};
use dancecard_engine::{
    Basis, Budget, Config, CostError, LowerBound, MinCost, OptionId, Outcome, Solution, Solver,
    Stats, Visitor,
};
use dancecard_format::Document;

use crate::cluster::MpiRun;
use crate::input::{bad_input, HeuristicArg};
use crate::output::say;
use crate::output::{self, OutputFormat, Stream};
use crate::progress::{lock, Progress};
use crate::shard::ShardRun;
use crate::stop::stop_flag;

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
  dancecard solve --all --limit 3 testdata/instances/queens8.dlx
  printf 'a b c\\na b\\nc\\nb\\n' | dancecard solve --all -
  dancecard solve --matrix --format json examples/matrix.txt
  dancecard solve --count --threads 2 testdata/instances/pent6x10.dlx
  dancecard solve --min-cost --best 3 testdata/instances/cost_domino6x6.dlx  # costs 43, 44, 46
  dancecard solve --count --pre --stats testdata/instances/pent6x10.dlx  # 9356, 144 options fewer
  dancecard solve --count --shard 3/10 --split-depth 4 --output s3.json \\
    testdata/instances/pent6x10.dlx
  mpirun -np 8 dancecard solve --count --mpi --checkpoint run.json testdata/instances/pent6x10.dlx
  mpirun -np 8 dancecard solve --count --mpi --resume run.json testdata/instances/pent6x10.dlx

", crate::exit::exit_codes_help!()))]
#[command(mut_arg("file", |a| a.help("The problem file; `-` or nothing reads standard input")))]
#[command(mut_arg("stats", |a| a.help("Print nodes, updates, solutions and seconds on stderr, in one line")))]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) input: crate::args::InputFile,
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
    pub(crate) method: count::MethodArg,
    /// The most memory the memoised count's table may take, in bytes (suffixes K, M, G):
    /// past it the table is emptied and the count goes on [default: 2G, or a quarter of the
    /// machine's memory if less].
    #[arg(long, value_name = "BYTES", value_parser = crate::input::parse_bytes, allow_negative_numbers = true)]
    pub(crate) memo_limit: Option<usize>,
    /// Count by memoisation and write the ZDD of all solutions to FILE, in the text format of
    /// Knuth's ZDDREAD (as his DLX6 writes it: options numbered from 1 in input order).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["all", "sample"])]
    pub(crate) zdd: Option<PathBuf>,
    /// Print K solutions drawn exactly uniformly at random (with replacement), from the ZDD of
    /// all solutions; reproducible for a --seed.
    #[arg(long, value_name = "K", conflicts_with_all = ["all", "count"], allow_negative_numbers = true, value_parser = crate::input::parse_count::<u64>)]
    pub(crate) sample: Option<u64>,
    /// The seed of --sample.
    #[arg(long, value_name = "S", default_value_t = 0, requires = "sample", allow_negative_numbers = true, value_parser = crate::input::parse_count::<u64>)]
    pub(crate) seed: u64,
    /// Stop after N solutions.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::input::parse_count::<u128>)]
    pub(crate) limit: Option<u128>,
    #[command(flatten)]
    pub(crate) limits: crate::stop::Limits,
    /// How to choose the item to branch on.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) heuristic: HeuristicArg,
    #[command(flatten)]
    pub(crate) report: crate::args::Report,
    #[command(flatten)]
    pub(crate) problem_format: crate::input::ProblemFormat,
    /// Search with N threads (with --count or --all; 0 means one per core). Subtrees are
    /// split dynamically, so every thread stays busy; counts equal one thread's.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::input::parse_threads, allow_negative_numbers = true)]
    pub(crate) threads: usize,
    /// Search only shard I of N (for batch schedulers): the subtrees at depth
    /// --split-depth whose index is I modulo N. Prints a JSON result for `dancecard merge`.
    #[arg(long, value_name = "I/N", value_parser = crate::shard::parse_shard)]
    pub(crate) shard: Option<(u64, u64)>,
    /// The depth at which --shard splits the tree.
    #[arg(long, value_name = "D", default_value_t = 4, requires = "shard", allow_negative_numbers = true, value_parser = crate::input::parse_count::<usize>)]
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
    /// Find a solution of least total cost (Knuth's DLX5; `|n` after an option gives it cost
    /// n, 0 by default): print `cost N`, then its options. Stopped by a limit, it prints the
    /// best found so far, not proven least.
    #[arg(long)]
    pub(crate) min_cost: bool,
    /// With --min-cost: the K best solutions (the K least costs, each with one solution),
    /// least first, a blank line between two.
    #[arg(long, value_name = "K", requires = "min_cost", allow_negative_numbers = true, value_parser = crate::input::parse_count::<usize>)]
    pub(crate) best: Option<usize>,
    /// With --min-cost: the lower bound on the cost left on a path. `dlx5` is DLX5's rule
    /// alone (its tree, nodes and updates); `shares` adds each item's share of its cheapest
    /// option (fewer nodes, same answers); `relaxation` takes the taxes of the linear
    /// relaxation first; `auto` those of DLX5 or of the relaxation, decided from the run
    /// (--stats says which and why).
    #[arg(long, value_enum, default_value_t, requires = "min_cost")]
    pub(crate) lower_bound: LowerBoundArg,
    /// Preprocess the problem first (as `dancecard pre`: remove the options no solution can
    /// use and the items others imply), then search the reduced problem. The output is that
    /// of the original problem (the options as written); with --stats a summary of the
    /// reduction goes to stderr.
    #[arg(long, conflicts_with_all = ["shard", "mpi"])]
    pub(crate) pre: bool,
}

/// `--lower-bound` of `solve --min-cost`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum LowerBoundArg {
    /// The taxes of DLX5 or of the linear relaxation, decided from the run, and the item
    /// shares.
    #[default]
    Auto,
    /// The linear relaxation's taxes and the item shares.
    Relaxation,
    /// DLX5's rule and each item's share of its cheapest option.
    Shares,
    /// DLX5's rule alone: a path stops when one item's cheapest option reaches the cutoff.
    Dlx5,
}

impl From<LowerBoundArg> for LowerBound {
    fn from(b: LowerBoundArg) -> LowerBound {
        match b {
            LowerBoundArg::Auto => LowerBound::Auto,
            LowerBoundArg::Relaxation => LowerBound::Relaxation,
            LowerBoundArg::Shares => LowerBound::ItemShares,
            LowerBoundArg::Dlx5 => LowerBound::Dlx5,
        }
    }
}

/// Reads and parses the problem named by `args`.
fn load(args: &Args) -> anyhow::Result<Document> {
    args.problem_format.load(args.input.file.as_deref())
}

/// The search configuration given by `args`, with the stop flag wired to cancel: Ctrl-C, and
/// `--time-limit`, armed once by [`run`] for the whole command (preprocessing, shards and
/// MPI ranks included), so the configuration holds no time limit of its own.
fn config(args: &Args) -> Config {
    Config {
        heuristic: args.heuristic.into(),
        budget: Budget { max_solutions: args.limit, ..args.limits.budget() },
        ..Config::default()
    }
}

/// Where solutions go: printed as they are found (text), or collected (JSON).
struct Output<'d> {
    doc: &'d Document,
    stream: Stream,
    format: OutputFormat,
    json: Vec<Vec<usize>>,
}

impl Output<'_> {
    fn solution(&mut self, solution: Solution<'_>) -> ControlFlow<()> {
        let options = solution.to_vec();
        if self.format == OutputFormat::Json {
            self.json.push(input_numbers(self.doc, &options));
            return ControlFlow::Continue(());
        }
        self.stream.answer(&labels(self.doc, &options))
    }

    /// Prints the JSON document (text was printed as it came), then the stats and the stop
    /// reason. Counts are not made here: `--count` goes through [`count::run`]. `--limit 0`
    /// asks for no solution, so nothing is searched: that is not "no solution" (exit 1), nor
    /// a complete answer; it is reported as a run cut by its limit (exit 3).
    fn finish(self, args: &Args, outcome: Outcome, stats: &Stats) -> anyhow::Result<ExitCode> {
        self.stream.close()?;
        let nothing_asked = args.limit == Some(0);
        match args.report.format {
            OutputFormat::Text => {
                if outcome.solutions == 0 && outcome.is_complete() {
                    say!("no solution");
                }
            }
            OutputFormat::Json => {
                let mut answer = output::with_end(
                    serde_json::json!({
                        "solutions": self.json,
                        "count": output::count_json(outcome.solutions),
                    }),
                    outcome.stop,
                    stats,
                );
                if nothing_asked {
                    answer["complete"] = false.into();
                }
                output::print_json(&answer)?
            }
        }
        if args.report.stats {
            output::print_stats(stats);
        }
        if nothing_asked {
            say!("incomplete: --limit 0 asks for no solution, so none was searched for");
            return Ok(ExitCode::from(crate::exit::LIMITED));
        }
        Ok(output::finish(outcome.solutions > 0, outcome.stop))
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
        self.progress.tick(solver)
    }
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.min_cost {
        check_min_cost_args(&args)?;
    }
    if args.threads != 1 && !args.all && !args.count {
        return Err(bad_input("--threads works with --count or --all"));
    }
    let mut doc = load(&args)?;
    // The one place `--time-limit` is armed: it covers the preprocessing and the search.
    args.limits.arm()?;
    if args.pre {
        doc = preprocess(&args, &doc)?;
    }
    let mut config = config(&args);
    if args.min_cost {
        return min_cost(&args, &doc, config);
    }
    let scale_out = args.shard.is_some() || args.mpi;
    if scale_out && args.method == count::MethodArg::Memo {
        return Err(bad_input("--shard and --mpi count with the plain search: not --method memo"));
    }
    if scale_out && args.method == count::MethodArg::Frontier {
        return Err(bad_input(
            "--shard and --mpi count with the plain search: not --method frontier",
        ));
    }
    if let Some(k) = args.sample {
        return count::sample(&args, &doc, config, k);
    }
    if (args.count || args.zdd.is_some()) && !scale_out {
        return count::run(&args, &doc, config);
    }
    if let Some(shard) = args.shard {
        if args.all || args.limit.is_some() {
            return Err(bad_input("--shard counts solutions: it does not take --all or --limit"));
        }
        let run = ShardRun {
            shard,
            split_depth: args.split_depth,
            threads: args.threads.max(1),
            output: args.output.as_deref(),
            stats: args.report.stats,
        };
        return crate::shard::run_shard(&run, &doc, config);
    }
    if args.mpi {
        if !args.count || args.all || args.limit.is_some() || args.shard.is_some() {
            return Err(bad_input("--mpi counts solutions: use it with --count only"));
        }
        let run = MpiRun {
            resume: args.resume.as_deref(),
            checkpoint: args.checkpoint.as_deref(),
            format: args.report.format,
            stats: args.report.stats,
        };
        return crate::cluster::run(&run, &doc, config);
    }
    // Counts have gone through `count::run`, the shard or the cluster: what is left lists
    // solutions, all of them or the first.
    debug_assert!(!args.count);
    if !args.all {
        // The first solution only (unless --limit asks for none).
        config.budget.max_solutions = Some(config.budget.max_solutions.map_or(1, |l| l.min(1)));
    }
    let mut output = Output {
        doc: &doc,
        stream: Stream::new(true),
        format: args.report.format,
        json: Vec::new(),
    };
    if args.threads == 1 {
        let mut progress = Progress::new(args.report.format);
        progress.estimating(&doc.problem, config.heuristic);
        let mut solver = Solver::with_config(&doc.problem, config);
        let mut printer = Printer { output: &mut output, progress };
        let outcome = solver.visit(&mut printer);
        printer.progress.finish();
        return output.finish(&args, outcome, solver.stats());
    }
    let output = Mutex::new(output);
    let mut progress = Progress::new(args.report.format);
    progress.estimating(&doc.problem, config.heuristic);
    let progress = Mutex::new(progress);
    let report = |p| lock(&progress).parallel(p);
    let search = ParallelSearch::new(&doc.problem, config, args.threads);
    let (outcome, stats) = search.visit(&|s: Solution<'_>| lock(&output).solution(s), &report);
    lock(&progress).finish();
    output.into_inner().unwrap_or_else(|e| e.into_inner()).finish(&args, outcome, &stats)
}

/// Refuses the flags that make no sense with `--min-cost` (a branch and bound on one thread,
/// which prints the best solutions, not all of them nor their number), and `--best 0`.
fn check_min_cost_args(args: &Args) -> anyhow::Result<()> {
    let refused = [
        (args.count, "--count"),
        (args.all, "--all"),
        (args.limit.is_some(), "--limit"),
        (args.threads != 1, "--threads"),
        (args.shard.is_some(), "--shard"),
        (args.mpi, "--mpi"),
        (args.method != count::MethodArg::Auto, "--method"),
        (args.memo_limit.is_some(), "--memo-limit"),
        (args.zdd.is_some(), "--zdd"),
        (args.sample.is_some(), "--sample"),
    ];
    if let Some((_, flag)) = refused.iter().find(|(given, _)| *given) {
        return Err(bad_input(format!(
            "--min-cost searches for the best solutions on one thread: it takes no {flag} \
             (use --best K for the K best)"
        )));
    }
    if args.best == Some(0) {
        return Err(bad_input("--best K asks for the K best solutions: K must be at least 1"));
    }
    Ok(())
}

/// `--pre`: the document of the reduced problem, whose options keep the labels, input
/// numbers and lines of the original ones, so that everything printed from it reads as from
/// the original problem. The rounds stop with the search's stop flag (Ctrl-C and
/// `--time-limit`, armed by [`run`]).
fn preprocess(args: &Args, doc: &Document) -> anyhow::Result<Document> {
    let original = &doc.problem;
    let config = PreConfig { max_rounds: None, budget: Budget::new().cancel(stop_flag()) };
    let r = pre::reduce_with(original, &config).map_err(|e| match e {
        // `--pre does not handle multiplicities (item `a` has bounds 2:2)`.
        PreError::Unsupported(refused) => bad_input(format!("--{refused}")),
        other => bad_input(format!("--pre: {other}")),
    })?;
    if args.report.stats {
        let infeasible = match r.infeasible {
            Some(i) => format!("; primary item `{}` is in no option", original.item_name(i)),
            None => String::new(),
        };
        say!("pre: {}{infeasible}", super::pre::summary(original, &r));
    }
    let from = |f: &dyn Fn(usize) -> usize| -> Vec<usize> {
        r.option_map.iter().map(|o| f(o.index())).collect()
    };
    Ok(Document {
        labels: r.option_map.iter().map(|o| doc.labels[o.index()].clone()).collect(),
        input_index: from(&|k| doc.input_index[k]),
        lines: from(&|k| doc.lines[k]),
        problem: r.problem,
    })
}

/// `--min-cost`: the `--best` K solutions of least cost, each printed as `cost N` and its
/// options (a blank line between two), or one JSON document.
fn min_cost(args: &Args, doc: &Document, config: Config) -> anyhow::Result<ExitCode> {
    let k = args.best.unwrap_or(1);
    let mut solver = Solver::with_config(&doc.problem, config);
    // The bar shows the best cost so far, the proven lower bound and their gap.
    let mut progress = Progress::new(args.report.format);
    let found = solver.min_cost_with_progress(k, args.lower_bound.into(), |p| {
        progress.counts(p.nodes, None);
        // Knuth's estimate of the branch and bound's own tree.
        progress.update(p.fraction, Basis::Tree, || match (p.best, p.gap()) {
            (Some(best), Some(gap)) => {
                format!("best {best}, bound {} (gap {:.2}%)", p.lower_bound, gap * 100.0)
            }
            _ => format!("no solution yet, bound {}", p.lower_bound),
        });
        ControlFlow::Continue(())
    });
    progress.finish();
    let result = match found {
        Ok(result) => result,
        // `--min-cost does not handle multiplicities (item `a` has bounds 2:2)`.
        Err(CostError::Unsupported(refused)) => return Err(bad_input(format!("--{refused}"))),
        Err(other) => return Err(bad_input(format!("--min-cost: {other}"))),
    };
    let MinCost { best, stop, stats, lower_bound, .. } = &result;
    let complete = result.is_complete();
    match args.report.format {
        OutputFormat::Text => {
            let mut stream = Stream::new(true);
            for solution in best {
                let text = format!("cost {}\n{}", solution.cost, labels(doc, &solution.options));
                if stream.answer(&text).is_break() {
                    break;
                }
            }
            stream.close()?;
        }
        OutputFormat::Json => {
            let solutions: Vec<_> = best
                .iter()
                .map(|s| {
                    let options = input_numbers(doc, &s.options);
                    serde_json::json!({ "cost": s.cost, "options": options })
                })
                .collect();
            // The proven lower bound on the least cost and the gap to the best found (the
            // bound is the least cost, and the gap 0, when the search is complete).
            let answer = serde_json::json!({
                "solutions": solutions,
                "lower_bound": lower_bound,
                "gap": result.gap(),
                "bound": result.bound.name(),
                "reason": result.reason,
            });
            output::print_json(&output::with_end(answer, *stop, stats))?;
        }
    }
    if args.report.stats {
        output::print_stats(stats);
        say!("bound {}", result.bound.name());
        if !result.reason.is_empty() {
            say!("why: {}", result.reason);
        }
    }
    if best.is_empty() && complete && args.report.format == OutputFormat::Text {
        say!("no solution");
    }
    output::report_stop(*stop);
    match (complete, best.first(), lower_bound) {
        (false, Some(first), Some(bound)) if *bound < first.cost => say!(
            "not proven: the costs above are the best found so far; none costs less than {bound} \
             (gap {:.2}%)",
            result.gap().unwrap_or(0.0) * 100.0
        ),
        (false, Some(_), _) => say!(
            "not proven: the costs above are the best found so far (the first is the least: no \
             solution costs less)"
        ),
        (false, None, Some(bound)) => {
            say!("no solution found yet; none costs less than {bound}")
        }
        _ => {}
    }
    Ok(output::exit_code(!best.is_empty(), *stop))
}

/// The labels of `options`, one a line, as in the input.
fn labels(doc: &Document, options: &[OptionId]) -> String {
    options.iter().map(|&o| format!("{}\n", doc.label(o))).collect()
}

/// The numbers of `options` among the input's options (from 0), as JSON answers give them.
fn input_numbers(doc: &Document, options: &[OptionId]) -> Vec<usize> {
    options.iter().map(|o| doc.input_index[o.index()]).collect()
}
