//! `dancecard estimate`: Knuth's Monte Carlo estimate of the search before a long run.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use dancecard_engine::{Budget, Config, Estimate, MemoConfig, Solver};

use crate::output::say;
use crate::output::{self, OutputFormat};
use crate::{exit, input, stop};

/// Estimate the plain search of an exact cover problem before running it: its nodes,
/// solutions and time, by Knuth's random probes; and which counting method `solve --count`
/// (auto) would pick.
#[derive(Debug, clap::Args)]
#[command(after_help = concat!("Each probe walks from the root to a leaf of the plain search's tree (minimum remaining
values, as `solve` searches), taking one child at random at every node; the products of
the branching degrees along the path estimate the tree's nodes and solutions without bias
(Knuth, \"Estimating the efficiency of backtrack programs\", 1975). The spread is one
standard error of the mean: trees with a few heavy branches have a long tail, and then the
estimate is often low. The time is the nodes at the speed of a short timed run.

An estimate costs a small share of the search it predicts: the probes stop once they have
walked a tenth of the tree they estimate (and at least 100,000 nodes), and say so; only
the first probe can cost more, on a tree that is one long path (then it is the search).

Examples:
  dancecard estimate testdata/instances/pent6x10.dlx
  dancecard estimate --probes 10000 --seed 7 --format json testdata/instances/domino8x8.dlx

", crate::exit::exit_codes_help!()))]
pub(crate) struct Args {
    /// The problem file; `-` or nothing reads standard input.
    pub(crate) file: Option<PathBuf>,
    /// Probes to make, from 1 to 1,000,000,000 (fewer when they have walked a tenth of the
    /// tree: it is then cheaper to count it).
    #[arg(long, value_name = "N", default_value_t = 1000, allow_negative_numbers = true, value_parser = crate::input::parse_probes)]
    pub(crate) probes: u64,
    /// The seed of the probes.
    #[arg(long, value_name = "S", default_value_t = 0, allow_negative_numbers = true, value_parser = crate::input::parse_count::<u64>)]
    pub(crate) seed: u64,
    /// How to choose the item to branch on.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) heuristic: input::HeuristicArg,
    #[command(flatten)]
    pub(crate) problem_format: crate::input::ProblemFormat,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) format: OutputFormat,
}

/// Nodes per second of the plain search on this problem: a count run for at most 0.2 s or
/// `nodes` nodes, after a first short one that picks the kernel (the solver keeps its pick).
fn speed(solver: &mut Solver, nodes: u64) -> f64 {
    let saved = solver.config().clone();
    let first = nodes.min(20_000);
    solver.set_config(Config { budget: saved.budget.clone().max_nodes(first), ..saved.clone() });
    let _ = solver.count();
    solver.set_config(Config {
        budget: saved.budget.clone().max_nodes(nodes).time_limit(Duration::from_millis(200)),
        ..saved.clone()
    });
    let started = Instant::now();
    let _ = solver.count();
    let seconds = started.elapsed().as_secs_f64().max(1e-9);
    let nodes = solver.stats().nodes;
    solver.set_config(saved);
    nodes as f64 / seconds
}

/// The nodes of the timed run: at most 200,000, and at most half the share of the tree the
/// probes may walk (so that the estimate stays a small share of the search).
fn speed_nodes(e: &Estimate) -> u64 {
    (e.nodes * Estimate::SHARE / 2.0).clamp(1_000.0, 200_000.0) as u64
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let doc = args.problem_format.load(args.file.as_deref())?;
    let config = Config {
        heuristic: args.heuristic.into(),
        budget: Budget::new().cancel(stop::stop_flag()),
        ..Config::default()
    };
    // The engine's door for estimates checks the method against the problem.
    let e = dancecard_engine::estimate(&doc.problem, config.clone(), args.probes, args.seed)
        .map_err(|e| crate::input::bad_input(e.to_string()))?;
    let mut solver = Solver::with_config(&doc.problem, config);
    let rate = speed(&mut solver, speed_nodes(&e));
    let seconds = e.nodes / rate;
    let seconds_stderr = e.nodes_stderr / rate;
    let (method, reason) = solver
        .pick_method(&MemoConfig { limit_bytes: MemoConfig::default_limit_bytes(), zdd: false });
    if stop::interrupted() {
        say!("incomplete: interrupted; the estimate above uses {} probes", e.probes);
    }
    // Fewer probes than asked: they had walked a tenth of the tree.
    let small = if e.small_tree {
        format!(
            "; they stopped after walking {} nodes, {:.0}% of the tree: counting it costs \
             little more (dancecard solve --count)",
            e.walked,
            100.0 * e.walked as f64 / e.nodes.max(1.0)
        )
    } else {
        String::new()
    };
    match args.format {
        OutputFormat::Text => output::print(&format!(
            "nodes {:.4e} ± {:.2e}\nsolutions {:.4e} ± {:.2e}\nupdates {:.4e}\nseconds {:.4e} ± {:.2e} (at {:.3e} nodes/s)\nprobes {} (deepest {}, {} ending in a solution){small}\nauto {} ({reason})\n",
            e.nodes,
            e.nodes_stderr,
            e.solutions,
            e.solutions_stderr,
            e.updates,
            seconds,
            seconds_stderr,
            rate,
            e.probes,
            e.max_depth,
            e.solution_probes,
            method.name(),
        ))?,
        OutputFormat::Json => output::print_json(&serde_json::json!({
            "probes": e.probes,
            "seed": args.seed,
            "nodes": e.nodes,
            "nodes_stderr": e.nodes_stderr,
            "solutions": e.solutions,
            "solutions_stderr": e.solutions_stderr,
            "updates": e.updates,
            "seconds": seconds,
            "seconds_stderr": seconds_stderr,
            "nodes_per_second": rate,
            "max_depth": e.max_depth,
            "solution_probes": e.solution_probes,
            "walked": e.walked,
            "small_tree": e.small_tree,
            "auto": method.name(),
            "reason": reason,
        }))?,
    }
    if stop::interrupted() {
        return Ok(ExitCode::from(exit::INTERRUPTED));
    }
    Ok(ExitCode::from(exit::FOUND))
}
