//! `dancecard slide`: optimal solutions of sliding-tile puzzles (8-, 15-, 24-puzzle).

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use dancecard_engine::Basis;
use dancecard_search::slide::{
    self, Algorithm, Board, BuildProgress, Goal, Heuristic, Partition, Pdb, SlideError,
    SolveOptions,
};
use dancecard_search::Stop;

use crate::input::bad_input;
use crate::output::{self, OutputFormat};
use crate::output::{say, say_part};
use crate::{exit, input, stop};

/// Solve sliding-tile puzzles optimally: the fewest moves and the moves.
#[derive(Debug, clap::Args)]
#[command(after_help = concat!("A state is the n*n numbers of the board row-major, 0 for the blank (n = 2 to 5),
on the command line or one state a line in a file (`#` starts a comment). A move
is the direction the blank moves: U, D, L or R. Output: one line per state, the
optimal number of moves and the moves.

Heuristics: manhattan (sum of the tiles' distances), linear-conflict (plus 2 per
tile that must leave its line to let another pass), pdb (additive pattern
database: 6-6-3 on the 15-puzzle, built once in seconds and cached in
$DANCECARD_CACHE_DIR, else $XDG_CACHE_HOME/dancecard or ~/.cache/dancecard;
rebuilt if missing or corrupt). --build-pdb builds Korf and Felner's 7-8 database
of the 15-puzzle (minutes, about 6 GB of memory, 577 MB cached; Ctrl-C keeps
the work done and the next --build-pdb goes on from there); pdb uses it
wherever it is cached. A*, BFS and bidirectional BFS store every state they
reach: they refuse a state whose search would exceed --max-states.

Examples:
  dancecard slide 8 6 7 2 5 4 3 0 1                  # an 8-puzzle: 27 moves
  dancecard slide --goal blank-last 1 2 3 4 5 6 0 7 8
  dancecard slide --heuristic pdb 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3  # Korf #1: 57
  dancecard slide --algorithm astar --stats 8 6 7 2 5 4 3 0 1
  dancecard slide --build-pdb                        # the 7-8 database, once
  dancecard slide --file examples/states.txt --format json

", crate::exit::exit_codes_help!(), "
An unsolvable state (wrong parity) prints `unsolvable` and gives exit code 1. A state
whose search --node-limit or --max-states stops prints `incomplete` (the next states
are still solved) and gives 3; --time-limit and Ctrl-C stop the whole run there (3 and
130). A state the chosen algorithm refuses before searching gives 2."))]
#[command(mut_arg("node_limit", |a| a.help("Stop after N generated nodes (per state)")))]
#[command(mut_arg("time_limit", |a| a.help("Stop after this many seconds in all (the pattern database's build included)")))]
#[command(mut_arg("stats", |a| a.help("Print nodes expanded and generated, seconds and nodes per second on stderr")))]
pub(crate) struct Args {
    /// The state: n*n numbers (or one quoted argument).
    #[arg(value_name = "TILE", num_args = 0.., conflicts_with = "file", allow_negative_numbers = true)]
    pub(crate) state: Vec<String>,
    /// Read one state a line from FILE (`-` for standard input).
    #[arg(long, short, value_name = "FILE")]
    pub(crate) file: Option<PathBuf>,
    /// Where the blank goes: `blank-first` (0 1 2 ..., Korf's instances) or `blank-last`.
    #[arg(long, value_enum, default_value_t = GoalArg::BlankFirst)]
    pub(crate) goal: GoalArg,
    /// The lower bound.
    #[arg(long, value_enum, default_value_t = HeuristicArg::LinearConflict)]
    pub(crate) heuristic: HeuristicArg,
    /// The search algorithm.
    #[arg(long, value_enum, default_value_t = AlgorithmArg::Ida)]
    pub(crate) algorithm: AlgorithmArg,
    #[command(flatten)]
    pub(crate) limits: stop::Limits,
    /// Build the large pattern database (7-8 on the 15-puzzle; 6-2 on the 8-puzzle) of the
    /// states' side (4 without a state) into the cache, going on from an interrupted build;
    /// then solve the states, if any.
    #[arg(long)]
    pub(crate) build_pdb: bool,
    /// The most states A*, BFS and bidirectional BFS may store [default: 16777216].
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::input::parse_count::<usize>)]
    pub(crate) max_states: Option<usize>,
    #[command(flatten)]
    pub(crate) report: crate::args::Report,
}

/// `--goal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum GoalArg {
    /// 0 1 2 ... (blank top-left).
    BlankFirst,
    /// 1 2 ... 0 (blank bottom-right).
    BlankLast,
}

/// `--heuristic`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum HeuristicArg {
    /// Manhattan distance.
    Manhattan,
    /// Manhattan distance plus linear conflicts.
    LinearConflict,
    /// Additive pattern database (cached on disk).
    Pdb,
}

/// `--algorithm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum AlgorithmArg {
    /// IDA*: memory of one path.
    Ida,
    /// A*: every state stored.
    Astar,
    /// Bidirectional breadth-first search.
    Bidir,
    /// Breadth-first search.
    Bfs,
    /// Iterative deepening without a heuristic (slow; for comparison).
    Iddfs,
}

/// The states to solve, each with its line number (0 for the command line).
fn states(args: &Args) -> anyhow::Result<(Vec<(usize, Board)>, bool)> {
    let Some(path) = &args.file else {
        if args.state.is_empty() {
            return Err(bad_input("give a state (n*n numbers) or --file FILE; see --help"));
        }
        let text = args.state.join(" ");
        let board = text.parse::<Board>().map_err(|e| bad_input(format!("the state: {e}")))?;
        return Ok((vec![(0, board)], false));
    };
    let (text, name) = input::read_text(Some(path))?;
    let mut boards = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let board =
            line.parse::<Board>().map_err(|e| bad_input(format!("{name}: line {}: {e}", i + 1)))?;
        boards.push((i + 1, board));
    }
    if boards.is_empty() {
        return Err(bad_input(format!("{name}: no state")));
    }
    Ok((boards, true))
}

/// The JSON answer of a state whose search was cut short.
fn incomplete_json(line: usize, stop: Stop) -> serde_json::Value {
    serde_json::json!({
        "line": line, "solvable": null, "length": null, "moves": null,
        "complete": false, "stop": output::search_stop_name(stop),
    })
}

/// `line N` of the state file, or `the state` (on the command line, line 0).
fn line_place(line: usize) -> String {
    if line > 0 {
        format!("line {line}")
    } else {
        "the state".to_owned()
    }
}

/// The pattern database of a side and goal: the large one if it is cached, else the
/// standard one from the cache, or built (and cached); the build stops with
/// [`SlideError::Stopped`] on the [`stop::stop_flag`].
fn load_pdb(side: usize, goal: Goal, quiet: bool) -> Result<Arc<Pdb>, SlideError> {
    let dir = input::cache_dir();
    if let Some(large) = Pdb::file_name(side, goal, Partition::Large) {
        if let Some(path) = dir.as_ref().map(|d| d.join(large)) {
            match Pdb::load(&path) {
                Ok(pdb) if pdb.side() == side && pdb.goal() == goal => return Ok(Arc::new(pdb)),
                Ok(_) => say!("note: {} is for another board; not used", path.display()),
                Err(slide::PdbError::Io { source, .. })
                    if source.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => say!(
                    "note: {e}; using the standard database (rebuild with --build-pdb): {}",
                    path.display()
                ),
            }
        }
    }
    let path =
        Pdb::file_name(side, goal, Partition::Standard).and_then(|name| dir.map(|d| d.join(name)));
    if let Some(path) = &path {
        match Pdb::load(path) {
            Ok(pdb) if pdb.side() == side && pdb.goal() == goal => return Ok(Arc::new(pdb)),
            Ok(_) => say!("note: {} is for another board; rebuilding it", path.display()),
            Err(slide::PdbError::Io { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => say!("note: {e}; rebuilding it"),
        }
    }
    if !quiet {
        say!("building the {side}x{side} pattern database (once; seconds)...");
    }
    let pdb = Pdb::build_with(side, goal, Some(&stop::stop_flag()))?;
    match &path {
        Some(path) => {
            if let Err(e) = pdb.save(path) {
                say!("warning: could not cache the pattern database: {e}");
            }
        }
        None => say!("warning: no cache directory (set DANCECARD_CACHE_DIR); not cached"),
    }
    Ok(Arc::new(pdb))
}

/// Checkpoints of `--build-pdb` (besides the one written when it is stopped).
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_secs(300);

/// `--build-pdb`: builds (or finishes building) the large database of `side` and `goal` into
/// the cache, with a progress bar.
fn build_large(side: usize, goal: Goal, format: OutputFormat) -> anyhow::Result<Option<Stop>> {
    let Some(name) = Pdb::file_name(side, goal, Partition::Large) else {
        return Err(bad_input(format!(
            "--build-pdb: there is no large pattern database for the {side}x{side} board \
             (the 8- and 15-puzzle have one)"
        )));
    };
    let Some(dir) = input::cache_dir() else {
        return Err(bad_input(
            "--build-pdb: no cache directory (set DANCECARD_CACHE_DIR, XDG_CACHE_HOME or HOME)",
        ));
    };
    let path = dir.join(&name);
    if let Ok(pdb) = Pdb::load(&path) {
        say!("{}: the {} database is already built", path.display(), pdb.pattern_name());
        return Ok(None);
    }
    say!("building {} (the work so far is kept in {}.part)", path.display(), path.display());
    let mut bar = crate::progress::Progress::new(format);
    let mut noted = false;
    let mut progress = |p: &BuildProgress| {
        if p.resumed && !noted {
            noted = true;
            say!("going on from the work kept in {}.part", path.display());
        }
        let within = if p.entries == 0 { 0.0 } else { p.entries_done as f64 / p.entries as f64 };
        bar.update(p.done as f64 / p.total as f64, Basis::Units, || {
            format!(
                "pattern {} of {} ({} tiles), {} moves: {:.0}% of {} states",
                p.pattern + 1,
                p.patterns,
                p.tiles,
                p.layer,
                within * 100.0,
                p.entries
            )
        });
    };
    let flag = stop::stop_flag();
    let built = Pdb::build_resumable(
        side,
        goal,
        Partition::Large,
        &path,
        Some(&flag),
        CHECKPOINT_EVERY,
        &mut progress,
    );
    bar.finish();
    match built {
        Ok(pdb) => {
            say!("{}: the {} database is built", path.display(), pdb.pattern_name());
            Ok(None)
        }
        Err(SlideError::Stopped { .. }) => {
            let stop = if stop::expired() { Stop::TimeLimit } else { Stop::Cancelled };
            say!(
                "the build stopped; the work so far is kept in {}.part and the next \
                 --build-pdb goes on from there",
                path.display()
            );
            Ok(Some(stop))
        }
        Err(e) => Err(bad_input(format!("--build-pdb: {e}"))),
    }
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let goal = match args.goal {
        GoalArg::BlankFirst => Goal::BlankFirst,
        GoalArg::BlankLast => Goal::BlankLast,
    };
    args.limits.arm()?;
    if args.build_pdb && args.state.is_empty() && args.file.is_none() {
        return match build_large(4, goal, args.report.format)? {
            None => Ok(ExitCode::from(exit::FOUND)),
            Some(stop) => Ok(output::search_stopped(stop)),
        };
    }
    let (boards, batch) = states(&args)?;
    if args.build_pdb {
        let mut sides: Vec<usize> = boards.iter().map(|(_, b)| b.side()).collect();
        sides.sort_unstable();
        sides.dedup();
        for side in sides {
            if let Some(stop) = build_large(side, goal, args.report.format)? {
                return Ok(output::search_stopped(stop));
            }
        }
    }
    let heuristic = match args.heuristic {
        HeuristicArg::Manhattan => Heuristic::Manhattan,
        HeuristicArg::LinearConflict => Heuristic::LinearConflict,
        HeuristicArg::Pdb => Heuristic::Pdb,
    };
    let algorithm = match args.algorithm {
        AlgorithmArg::Ida => Algorithm::IdaStar,
        AlgorithmArg::Astar => Algorithm::AStar,
        AlgorithmArg::Bidir => Algorithm::Bidirectional,
        AlgorithmArg::Bfs => Algorithm::Bfs,
        AlgorithmArg::Iddfs => Algorithm::Iddfs,
    };
    let mut limits = args.limits.budget();
    if let Some(n) = args.max_states {
        limits = limits.max_states(n);
    }
    let base = SolveOptions::new(goal).algorithm(algorithm).heuristic(heuristic).limits(limits);
    let mut pdbs: Vec<Option<Arc<Pdb>>> = vec![None; slide::MAX_SIDE + 1];
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut json = Vec::new();
    let mut code = ExitCode::from(exit::FOUND);
    for (line, board) in &boards {
        let mut options = base.clone();
        let mut pdb_name = None;
        if heuristic == Heuristic::Pdb {
            let side = board.side();
            let pdb = match &pdbs[side] {
                Some(p) => p.clone(),
                None => match load_pdb(side, goal, args.report.format == OutputFormat::Json) {
                    Ok(p) => {
                        pdbs[side] = Some(p.clone());
                        p
                    }
                    Err(SlideError::Stopped { stop, .. }) => {
                        // Stopped while building the database: no answer for this state, and
                        // the run ends here.
                        say_part!("{}: building the pattern database: ", line_place(*line));
                        code = output::search_stopped(stop);
                        match args.report.format {
                            OutputFormat::Text => writeln!(out, "incomplete")?,
                            OutputFormat::Json => json.push(incomplete_json(*line, stop)),
                        }
                        break;
                    }
                    Err(e) => return Err(bad_input(e.to_string())),
                },
            };
            pdb_name = Some(pdb.pattern_name());
            options = options.pdb(pdb);
        }
        let place = if *line > 0 { format!("{}: ", line_place(*line)) } else { String::new() };
        match slide::solve(board, &options) {
            Ok(s) => {
                let letters: String = s.moves.iter().map(|d| d.letter()).collect();
                if args.report.stats {
                    say_part!("{place}");
                    output::print_search_stats(&s.stats);
                }
                match args.report.format {
                    OutputFormat::Text if letters.is_empty() => writeln!(out, "0")?,
                    OutputFormat::Text => writeln!(out, "{} {letters}", s.length)?,
                    OutputFormat::Json => {
                        let moves: Vec<String> =
                            s.moves.iter().map(|d| d.letter().to_string()).collect();
                        json.push(serde_json::json!({
                            "line": line,
                            "solvable": true,
                            "length": s.length,
                            "moves": moves,
                            "tiles": s.tiles,
                            "nodes": s.stats.generated,
                            "expanded": s.stats.expanded,
                            "generated": s.stats.generated,
                            "iterations": s.stats.iterations,
                            "stored": s.stats.stored,
                            "initial_estimate": s.initial_estimate,
                            "seconds": s.stats.elapsed.as_secs_f64(),
                            "algorithm": algorithm.name(),
                            "heuristic": heuristic.name(),
                            "pdb": pdb_name,
                            "goal": goal.name(),
                        }));
                    }
                }
            }
            Err(SlideError::Unsolvable { .. }) => {
                say!(
                    "{place}unsolvable: the {} goal cannot be reached from this state \
                     (the permutation's parity and the blank's distance disagree)",
                    goal.name()
                );
                match args.report.format {
                    OutputFormat::Text => writeln!(out, "unsolvable")?,
                    OutputFormat::Json => json.push(serde_json::json!({
                        "line": line, "solvable": false, "length": null, "moves": null,
                    })),
                }
                code = ExitCode::from(exit::NOT_FOUND);
            }
            Err(e @ SlideError::TooMuchMemory { .. }) => {
                out.flush()?;
                return Err(bad_input(format!("{place}{e}")));
            }
            Err(SlideError::Stopped { stop, stats }) => {
                if args.report.stats {
                    output::print_search_stats(&stats);
                }
                if stop == Stop::MemoryLimit {
                    say!(
                        "{place}{} stored {} states, its budget (--max-states), without \
                         finishing; use --algorithm ida",
                        algorithm.name(),
                        stats.stored
                    );
                }
                // The node and state budgets hold per state: this one gets an "incomplete"
                // answer and the next states are still solved (unless Ctrl-C or the time
                // limit stopped the whole run).
                say_part!("{place}");
                code = output::search_stopped(stop);
                match args.report.format {
                    OutputFormat::Text => writeln!(out, "incomplete")?,
                    OutputFormat::Json => json.push(incomplete_json(*line, stop)),
                }
                if stop == Stop::Cancelled {
                    break;
                }
            }
            Err(e) => return Err(bad_input(format!("{place}{e}"))),
        }
    }
    if args.report.format == OutputFormat::Json {
        let doc = if batch { serde_json::Value::Array(json) } else { json.remove(0) };
        writeln!(out, "{doc}")?;
    }
    out.flush()?;
    Ok(code)
}
