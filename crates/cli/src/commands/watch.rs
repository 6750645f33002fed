//! Glue shared by the model commands (`queens`, `tile`, `langford`, `target-sudoku`): a search
//! visitor that drives the progress bar, the search configuration, and writing output.

use std::io::Write;
use std::ops::ControlFlow;

use dancecard_engine::{
    Config, CountMethod, MemoConfig, Outcome, Problem, Solution, Solver, Stats, Stop,
};
use dancecard_models::watch::Callbacks;

use crate::util::{self, Progress};

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
    let mut tick = |solver: &Solver| {
        let stats = solver.stats();
        progress.update(solver.progress(), || {
            format!("{} solutions, {} nodes", stats.solutions, stats.nodes)
        });
        ControlFlow::Continue(())
    };
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
    let memo = MemoConfig { limit_bytes: util::default_memo_limit(), zdd: false };
    let counted = solver
        .count_by(CountMethod::Auto, &memo, &mut |solver| {
            let stats = solver.stats();
            progress.update(solver.progress(), || {
                format!("{} solutions, {} nodes", stats.solutions, stats.nodes)
            });
            ControlFlow::Continue(())
        })
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    progress.finish();
    Ok((counted.outcome, *solver.stats(), counted.method))
}

/// A search configuration that stops after `limit` solutions (if any), after the node limit
/// of `limits` (if any), and on the [`util::stop_flag`] (Ctrl-C, and the time limit that
/// [`util::Limits::arm`] armed).
pub(crate) fn config(limit: Option<u128>, limits: &util::Limits) -> Config {
    Config {
        max_solutions: limit,
        max_nodes: limits.node_limit,
        cancel: Some(util::stop_flag()),
        ..Config::default()
    }
}

/// Whether a search's results are complete: the tree was exhausted, or it stopped at the
/// number of solutions asked for.
pub(crate) fn complete(stop: Stop) -> bool {
    matches!(stop, Stop::Exhausted | Stop::SolutionLimit)
}

/// Writes the exact cover problem in Knuth's DLX format on stdout.
pub(crate) fn emit_dlx(problem: &Problem) -> anyhow::Result<std::process::ExitCode> {
    let mut out = std::io::stdout().lock();
    out.write_all(dancecard_format::write_dlx(problem).as_bytes())?;
    out.flush()?;
    Ok(std::process::ExitCode::from(util::FOUND))
}

/// Writes `text` on stdout.
pub(crate) fn print(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Writes a JSON document and a newline on stdout.
pub(crate) fn print_json(value: &serde_json::Value) -> anyhow::Result<()> {
    print(&format!("{value}\n"))
}
