//! Exact cover searches of the model commands (`queens`, `tile`, `langford`): the search
//! configuration of the command line's limits, and searches and counts that drive the
//! progress bar.

use std::ops::ControlFlow;
use std::process::ExitCode;

use dancecard_engine::{
    Budget, Config, CountMethod, CountRequest, Counted, MemoConfig, Outcome, Problem, Solution,
    Solver, Stats, Stop,
};
use dancecard_models::watch::Callbacks;
use serde_json::Value;

use crate::output::say;
use crate::output::{self, OutputFormat};
use crate::progress::Progress;
use crate::stop::Limits;

/// The flags of the model commands (`queens`, `tile`, `langford`), flattened into their
/// `Args` (a command words `--limit` and `--stats` for its model with `mut_arg`).
#[derive(Debug, clap::Args)]
#[command(mut_arg("stats", |a| a.help("Print nodes, updates, solutions and seconds on stderr")))]
pub(crate) struct ModelArgs {
    /// Stop after N solutions.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::input::parse_count::<u128>)]
    pub(crate) limit: Option<u128>,
    #[command(flatten)]
    pub(crate) limits: Limits,
    #[command(flatten)]
    pub(crate) report: crate::args::Report,
    /// Print the exact cover problem in Knuth's DLX format instead of solving.
    #[arg(long)]
    pub(crate) emit_dlx: bool,
}

/// A count of a model command (`queens`, `tile`), for [`ModelArgs::report_count`]: the
/// models' own ([`dancecard_models::count::ModelCount`]).
pub(crate) use dancecard_models::count::ModelCount;

/// `--all`, `--count` and `--distinct` of the model commands that count up to symmetry
/// (`queens`, `tile`), flattened into their `Args` (a command words them for its model with
/// `mut_arg`).
#[derive(Clone, Copy, Debug, clap::Args)]
pub(crate) struct Listing {
    /// Print every solution, a blank line between two.
    #[arg(long, conflicts_with_all = ["count", "distinct"])]
    pub(crate) all: bool,
    /// Print only the number of solutions.
    #[arg(long)]
    pub(crate) count: bool,
    /// Print only the number of solutions up to the board's symmetries.
    #[arg(long)]
    pub(crate) distinct: bool,
}

impl Listing {
    /// Whether to count (`--count` or `--distinct`) rather than list.
    pub(crate) fn counting(&self) -> bool {
        self.count || self.distinct
    }

    /// The count to print: with `--distinct` the count up to symmetry (0 when there is
    /// none), else `total`.
    pub(crate) fn shown<T: Default>(&self, total: T, distinct: Option<T>) -> T {
        if self.distinct {
            distinct.unwrap_or_default()
        } else {
            total
        }
    }

    /// How many solutions to list: `limit` with `--all`, else the first (none with
    /// `--limit 0`).
    pub(crate) fn list_limit(&self, limit: Option<u128>) -> Option<u128> {
        if self.all {
            limit
        } else {
            Some(limit.map_or(1, |l| l.min(1)))
        }
    }
}

impl ModelArgs {
    /// The models' count request of these flags (`--limit`, `--node-limit`, the stop flag) on
    /// `threads` threads, counting up to symmetry too when `distinct`, reporting to
    /// `progress`.
    pub(crate) fn count_request<'p>(
        &self,
        threads: usize,
        distinct: bool,
        progress: &'p (dyn Fn(dancecard_engine::Progress) + Sync),
    ) -> dancecard_models::count::CountRequest<'p> {
        dancecard_models::count::CountRequest {
            threads,
            distinct,
            progress: Some(progress),
            budget: Budget { max_solutions: self.limit, ..self.limits.budget() },
            ..Default::default()
        }
    }

    /// Prints the count of a model command that counts up to symmetry and ends: in text the
    /// count (the count up to symmetry with `--distinct`), else a JSON object of `fields`,
    /// the methods, both counts and how the search ended; the stats line and the method that
    /// counted with `--stats`; the stop report; the exit code (a count stopped at `--limit`
    /// is not the count: incomplete, exit 3).
    pub(crate) fn report_count(
        &self,
        listing: &Listing,
        fields: &[(&str, Value)],
        count: ModelCount,
    ) -> anyhow::Result<ExitCode> {
        let ModelCount { method, count_method, total, distinct, stats, stop } = count;
        match self.report.format {
            OutputFormat::Text => {
                output::print(&format!("{}\n", listing.shown(total.clone(), distinct.clone())))?
            }
            OutputFormat::Json => {
                let mut answer = serde_json::json!({
                    "method": method,
                    "count_method": count_method,
                    "count": output::count_json(&total),
                    "distinct": distinct.as_ref().map(output::count_json),
                });
                for (name, value) in fields {
                    answer[*name] = value.clone();
                }
                output::print_json(&output::with_count_end(answer, stop, &stats, &total))?;
            }
        }
        if self.report.stats {
            output::print_count_stats(&stats, &total);
            say!("counted by {count_method}");
        }
        Ok(output::finish_count(stop))
    }

    /// Ends a model command's listing (the text was streamed as the solutions came): in text
    /// `none` on stderr when the search ran to its end and found nothing, else `answer` with
    /// how the search ended; the stats line with `--stats`. Returns whether a solution was
    /// found.
    pub(crate) fn report_list(
        &self,
        none: &str,
        answer: Value,
        stats: &Stats,
        stop: Stop,
    ) -> anyhow::Result<bool> {
        let found = stats.solutions > 0;
        match self.report.format {
            OutputFormat::Text => {
                if !found && stop == Stop::Exhausted {
                    say!("{none}");
                }
            }
            OutputFormat::Json => output::print_json(&output::with_end(answer, stop, stats))?,
        }
        if self.report.stats {
            output::print_stats(stats);
        }
        Ok(found)
    }
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
    progress.estimating(problem, config.heuristic);
    let mut tick = |solver: &Solver| progress.tick(solver);
    let callbacks = Callbacks { solution: &mut on_solution, tick: &mut tick };
    let result = dancecard_models::watch::search(problem, config, callbacks);
    progress.finish();
    result
}

/// Counts the solutions of `problem`, updating the progress bar, by whichever method pays
/// ([`CountMethod::Auto`]: the plain search, which may run on the engine's bit-set kernels,
/// or the memoised search), through the engine's one way in ([`dancecard_engine::count`]).
/// The limits of `config` apply as to any count. Returns the count, the stats of the method
/// that counted, and that method.
pub(crate) fn count(
    problem: &Problem,
    config: Config,
    progress: &mut Progress,
) -> anyhow::Result<Counted> {
    progress.estimating(problem, config.heuristic);
    let request = CountRequest {
        method: CountMethod::Auto,
        threads: 1,
        memo: MemoConfig { limit_bytes: MemoConfig::default_limit_bytes(), zdd: false },
        config,
    };
    let shared = std::sync::Mutex::new(&mut *progress);
    let counted =
        dancecard_engine::count(problem, &request, &|p| crate::progress::lock(&shared).parallel(p))
            .map_err(|e| crate::input::bad_input(e.to_string()))?;
    progress.finish();
    Ok(counted)
}

/// A search configuration that stops after `limit` solutions (if any), after the node limit
/// of `limits` (if any), and on the [`stop_flag`] (Ctrl-C, and the time limit that
/// [`Limits::arm`] armed).
pub(crate) fn config(limit: Option<u128>, limits: &Limits) -> Config {
    Config::with_budget(Budget { max_solutions: limit, ..limits.budget() })
}
