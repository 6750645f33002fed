//! Exact cover searches of the model commands (`queens`, `tile`, `langford`): the search
//! configuration of the command line's limits, and searches and counts that drive the
//! progress bar.

use std::ops::ControlFlow;

use dancecard_engine::{Config, CountMethod, MemoConfig, Outcome, Problem, Solution, Solver, Stats};
use dancecard_models::watch::Callbacks;

use crate::input::default_memo_limit;
use crate::output::OutputFormat;
use crate::progress::Progress;
use crate::stop::{stop_flag, Limits};

/// The flags of the model commands (`queens`, `tile`, `langford`), flattened into their
/// `Args` (a command words `--limit` and `--stats` for its model with `mut_arg`).
#[derive(Debug, clap::Args)]
pub(crate) struct ModelArgs {
    /// Stop after N solutions.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::input::parse_count::<u128>)]
    pub(crate) limit: Option<u128>,
    #[command(flatten)]
    pub(crate) limits: Limits,
    /// Print nodes, updates, solutions and seconds on stderr.
    #[arg(long)]
    pub(crate) stats: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) format: OutputFormat,
    /// Print the exact cover problem in Knuth's DLX format instead of solving.
    #[arg(long)]
    pub(crate) emit_dlx: bool,
}

/// Searches `problem`, handing each solution to `on_solution` and updating the progress
/// bar. The search loop is the one compiled in `dancecard-models` (optimised even in debug
/// builds).
pub(crate) fn search<F>(
    problem: &Problem,
    config: Config,
    progress: &mut Progress,
    mut on_solution: F,
) -> (Outcome, Stats)
where
    F: FnMut(Solution<'_>) -> ControlFlow<()>,
{
    let mut tick = |solver: &Solver| progress.tick(solver);
    let callbacks = Callbacks { solution: &mut on_solution, tick: &mut tick };
    let result = dancecard_models::watch::search(problem, config, callbacks);
    progress.finish();
    result
}

/// Counts the solutions of `problem`, updating the progress bar, by whichever method pays
/// ([`CountMethod::Auto`]: the plain search, which may run on the engine's bit-set kernels,
/// or the memoised search). The limits of `config` apply as to any count. Returns the
/// outcome, the stats of the method that counted, and that method.
pub(crate) fn count(
    problem: &Problem,
    config: Config,
    progress: &mut Progress,
) -> anyhow::Result<(Outcome, Stats, CountMethod)> {
    let mut solver = Solver::with_config(problem, config);
    let memo = MemoConfig { limit_bytes: default_memo_limit(), zdd: false };
    let counted = solver
        .count_by(CountMethod::Auto, &memo, &mut |solver| progress.tick(solver))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    progress.finish();
    Ok((counted.outcome, *solver.stats(), counted.method))
}

/// A search configuration that stops after `limit` solutions (if any), after the node limit
/// of `limits` (if any), and on the [`stop_flag`] (Ctrl-C, and the time limit that
/// [`Limits::arm`] armed).
pub(crate) fn config(limit: Option<u128>, limits: &Limits) -> Config {
    Config {
        max_solutions: limit,
        max_nodes: limits.node_limit,
        cancel: Some(stop_flag()),
        ..Config::default()
    }
}
