//! `dancecard queens`: the N-queens problem, by dancing links or on bit sets.

use std::ops::ControlFlow;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use dancecard_engine::{Stats, Stop};
use dancecard_models::queens::{self, Queens};
use dancecard_models::Model;

use crate::input;
use crate::input::bad_input;
use crate::output::say;
use crate::output::{self, OutputFormat, Stream};
use crate::progress::Progress;
use crate::search::{self};

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Method {
    /// Exact cover: ranks and files primary (organ-pipe order), diagonals secondary.
    Dlx,
    /// Bit sets: counts walk the minimum-remaining-values tree with the board's symmetries and
    /// threads; listings backtrack rank by rank.
    Bits,
}

/// Place N queens on an N x N board, none attacking another: print the first solution, all
/// of them, or their number. For one board, DLX restarts on shuffled options after a million
/// nodes (large N).
#[derive(Debug, clap::Args)]
#[command(after_help = concat!("A solution is drawn one rank a line, Q for a queen. With --format json, a solution
is the list of the queens' files, rank by rank, from 0.

Examples:
  dancecard queens 8                      # the first solution, as a board
  dancecard queens 100                    # a board (DLX restarts on shuffled options)
  dancecard queens 8 --all --limit 3      # three solutions
  dancecard queens 16 --count --threads 2 # prints 14772512
  dancecard queens 12 --distinct          # up to rotations and reflections: 1787
  dancecard queens 10 --count --method dlx --stats
  dancecard queens 30 --count --time-limit 10   # a partial count after 10 s, exit code 3
  dancecard queens 8 --emit-dlx | dancecard solve --count -   # 92

", crate::exit::exit_codes_help!()))]
#[command(mut_arg("limit", |a| a.help("Stop after N solutions (a count with a limit runs on dlx)")))]
#[command(mut_arg("stats", |a| a.help("Print nodes and seconds (and updates for dlx) on stderr")))]
#[command(mut_arg("distinct", |a| a.help("Print only the number of solutions up to the board's symmetries (OEIS A002562)")))]
pub(crate) struct Args {
    /// The board size.
    #[arg(
        allow_negative_numbers = true,
        value_parser = crate::input::parse_size::<{ dancecard_models::queens::MAX_DLX_N }>
    )]
    pub(crate) n: usize,
    #[command(flatten)]
    pub(crate) listing: search::Listing,
    /// The search method [default: bits for counts, dlx otherwise].
    #[arg(long, value_enum)]
    pub(crate) method: Option<Method>,
    /// Threads for counting with bits (0: one per core).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::input::parse_threads, allow_negative_numbers = true)]
    pub(crate) threads: usize,
    #[command(flatten)]
    pub(crate) model: search::ModelArgs,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let n = args.n;
    if args.model.emit_dlx {
        let model = Queens::new(n).map_err(|e| bad_input(e.to_string()))?;
        return output::emit_dlx(&model.problem());
    }
    let counting = args.listing.counting();
    // A limit stops a count after that many solutions: the DLX search can, the symmetric
    // bitwise counter (which counts whole orbits) not. The library chooses
    // (`queens::Method::default_for`); the flags are refused here in their own words.
    let method = args.method.map(Method::model);
    if counting && method == Some(queens::Method::Bits) && args.model.limit.is_some() {
        return Err(bad_input("--limit with a count needs --method dlx"));
    }
    let limited = counting && args.model.limit.is_some();
    let chosen = method.unwrap_or(if counting && !limited {
        queens::Method::Bits
    } else {
        queens::Method::Dlx
    });
    if args.threads != 1 && !(counting && chosen == queens::Method::Bits) {
        return Err(bad_input("--threads applies to counting with --method bits"));
    }
    args.model.limits.arm()?;
    if counting {
        count(&args, chosen)
    } else {
        list(&args, chosen)
    }
}

impl Method {
    fn model(self) -> queens::Method {
        match self {
            Method::Dlx => queens::Method::Dlx,
            Method::Bits => queens::Method::Bits,
        }
    }
}

/// Counts by `method` through the library's one count ([`queens::count_by`]); up to
/// symmetry on dlx only when `--distinct` or JSON shows it.
fn count(args: &Args, method: queens::Method) -> anyhow::Result<ExitCode> {
    let progress = Mutex::new(Progress::new(args.model.report.format));
    let report = |p| crate::progress::lock(&progress).parallel(p);
    let distinct = args.listing.distinct || args.model.report.format == OutputFormat::Json;
    let request =
        args.model.count_request(input::threads_or_cores(args.threads), distinct, &report);
    let c =
        queens::count_by(args.n, Some(method), &request).map_err(|e| bad_input(e.to_string()))?;
    crate::progress::lock(&progress).finish();
    args.model.report_count(&args.listing, &[("n", args.n.into())], c)
}

fn list(args: &Args, method: queens::Method) -> anyhow::Result<ExitCode> {
    let limit = args.listing.list_limit(args.model.limit);
    // Text is written as solutions come; JSON collects them.
    let mut boards: Vec<Vec<usize>> = Vec::new();
    let mut stream = Stream::new(true);
    let mut keep = |p: &[usize]| -> ControlFlow<()> {
        if args.model.report.format == OutputFormat::Json {
            boards.push(p.to_vec());
            return ControlFlow::Continue(());
        }
        stream.answer(&queens::render(p))
    };
    // Searches restarted on shuffled options (the DLX search for one board).
    let mut restarts = None;
    let (stats, stop) = match method {
        queens::Method::Bits => {
            let started = Instant::now();
            let mut found = 0u128;
            let mut stop = Stop::Exhausted;
            let nodes = if limit == Some(0) {
                stop = Stop::SolutionLimit;
                0
            } else {
                let limits = args.model.limits.budget();
                let listing = queens::solutions_limited(args.n, &limits, |p| {
                    found += 1;
                    if keep(p).is_break() {
                        ControlFlow::Break(())
                    } else if limit.is_some_and(|l| found >= l) {
                        stop = Stop::SolutionLimit;
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                })
                .map_err(|e| bad_input(e.to_string()))?;
                if listing.stop != Stop::Visitor {
                    stop = listing.stop;
                }
                listing.nodes
            };
            let stats = Stats { nodes, updates: 0, solutions: found, elapsed: started.elapsed() };
            (stats, stop)
        }
        queens::Method::Dlx if limit == Some(1) => {
            // One board: the search restarts on shuffled options where it stalls (large n).
            let mut progress = Progress::new(args.model.report.format);
            let config = search::config(None, &args.model.limits);
            let found = queens::first(args.n, &config, &mut |solver| progress.tick(solver))
                .map_err(|e| bad_input(e.to_string()))?;
            progress.finish();
            if let Some(board) = &found.board {
                // A write error is kept by the stream.
                let _ = keep(board);
            }
            restarts = Some(found.restarts);
            (found.stats, found.stop)
        }
        queens::Method::Dlx => {
            let model = Queens::new(args.n).map_err(|e| bad_input(e.to_string()))?;
            let problem = model.problem();
            let mut progress = Progress::new(args.model.report.format);
            let config = search::config(limit, &args.model.limits);
            let (outcome, stats) = search::search(&problem, config, &mut progress, |s| {
                keep(&model.decode(&s.to_vec()))
            });
            (stats, outcome.stop)
        }
    };
    stream.close()?;
    let answer = serde_json::json!({
        "n": args.n,
        "method": method.name(),
        "solutions": boards,
        "count": output::count_json(stats.solutions),
        "restarts": restarts,
    });
    let found = args.model.report_list("no solution", answer, &stats, stop)?;
    if args.model.report.stats {
        if let Some(r) = restarts.filter(|&r| r > 0) {
            say!("restarts {r} (options shuffled: the search's first solution took too long)");
        }
    }
    Ok(output::finish(found, stop))
}
