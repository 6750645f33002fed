//! The one output layer of the commands: text or JSON on stdout, the `--stats` line and the
//! stop report on stderr, and the exit code.
//!
//! A command computes its answer, formats it (its own part), and ends through this module:
//!
//! - **stdout**: [`print()`] and [`print_json`] write one answer; [`Stream`] writes answers
//!   as a search finds them and keeps the first write error (a closed pipe stops the search);
//!   [`emit_dlx`] writes a problem.
//! - **JSON**: counts, stats, stop reasons and completeness are
//!   [`dancecard_format::json`]'s vocabulary, shared with the web API: [`count_json`],
//!   [`with_end`] adds `"complete"`, `"stop"` and `"stats"` to an answer.
//! - **stderr and the exit code**: [`say!`] and [`say_part!`] write every message (never
//!   `eprintln!`, which panics on a closed pipe: clippy refuses it in this crate);
//!   [`print_stats`] (`nodes N updates N solutions N seconds S`), then [`finish`]: the stop
//!   report (`incomplete: ...`) and the exit code (0 found, 1 none, 3 a limit, 130 Ctrl-C; 2,
//!   bad input, is `main`'s).
//!
//! # Closed pipes
//!
//! `dancecard ... | head` closes stdout when `head` has read enough. Rust ignores `SIGPIPE`, so
//! the next write fails with `BrokenPipe`: a write on stdout returns it as an error, which
//! stops the search and reaches `main`, which ends the program quietly with exit code 0, as
//! ripgrep does (the reader left: not an error of ours). A message on a closed stderr is
//! dropped ([`say!`]): the answer on stdout is still wanted.
//!
//! The heuristic searches of `dancecard-search` (`slide`, `knights`, `egyptian`,
//! `min-cover`, `dominate`, `guard`) have their own counters and stop reasons: the
//! `search_*` functions are their counterparts.

use std::io::{BufWriter, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;

use dancecard_engine::{Count, Problem, Stats, Stop};
use dancecard_format::json;
use serde_json::Value;

use crate::exit::{FOUND, INTERRUPTED, LIMITED, NOT_FOUND};
use crate::stop::refine;

/// Writes a line on stderr, as `eprintln!` does, except that a message that cannot be written
/// (stderr a closed pipe, `2>&1 | head -1`) is dropped instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::output::to_stderr(format_args!($($arg)*), true)
    };
}
pub(crate) use say;

/// Writes on stderr without a newline, as `eprint!` does; as [`say!`], never a panic.
macro_rules! say_part {
    ($($arg:tt)*) => {
        $crate::output::to_stderr(format_args!($($arg)*), false)
    };
}
pub(crate) use say_part;

/// The body of [`say!`] and [`say_part!`]: a write error (a closed stderr) is dropped.
pub(crate) fn to_stderr(args: std::fmt::Arguments<'_>, newline: bool) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_fmt(args);
    if newline {
        let _ = err.write_all(b"\n");
    }
}

/// Whether `e` is, or was caused by, a write to a closed pipe (`BrokenPipe`).
pub(crate) fn is_closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Output format of every command.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum OutputFormat {
    /// Human-readable text.
    #[default]
    Text,
    /// One JSON document on stdout.
    Json,
}

/// Writes `text` on stdout.
pub(crate) fn print(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Writes a JSON document and a newline on stdout.
pub(crate) fn print_json(value: &Value) -> anyhow::Result<()> {
    print(&format!("{value}\n"))
}

/// Writes the exact cover problem in Knuth's DLX format on stdout.
pub(crate) fn emit_dlx(problem: &Problem) -> anyhow::Result<ExitCode> {
    print(&dancecard_format::write_dlx(problem))?;
    Ok(ExitCode::from(FOUND))
}

/// Answers written on stdout as a search finds them, a blank line between two (or not), and
/// the first write error kept: most likely a closed pipe (`| head`), which stops the search.
#[derive(Debug)]
pub(crate) struct Stream {
    out: BufWriter<std::io::Stdout>,
    /// Whether a blank line goes between two answers.
    separate: bool,
    written: u64,
    error: Option<std::io::Error>,
}

impl Stream {
    /// A stream of answers, a blank line between two when `separate`.
    pub(crate) fn new(separate: bool) -> Stream {
        Stream { out: BufWriter::new(std::io::stdout()), separate, written: 0, error: None }
    }

    /// Writes one answer (its text ends with a newline); `Break` after a write error.
    pub(crate) fn answer(&mut self, text: &str) -> ControlFlow<()> {
        self.write_with(|out| out.write_all(text.as_bytes()))
    }

    /// Writes one answer by `write`; `Break` after a write error.
    pub(crate) fn write_with(
        &mut self,
        write: impl FnOnce(&mut BufWriter<std::io::Stdout>) -> std::io::Result<()>,
    ) -> ControlFlow<()> {
        if self.error.is_some() {
            return ControlFlow::Break(());
        }
        let sep = if self.separate && self.written > 0 { "\n" } else { "" };
        self.written += 1;
        match self.out.write_all(sep.as_bytes()).and_then(|()| write(&mut self.out)) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                self.error = Some(e);
                ControlFlow::Break(())
            }
        }
    }

    /// Flushes the answers: the write error kept, if any.
    pub(crate) fn close(mut self) -> anyhow::Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e.into());
        }
        self.out.flush()?;
        Ok(())
    }
}

/// A count in JSON: a number, or a decimal string past 2^64 ([`json::count`]), of any size.
pub(crate) fn count_json(n: impl Into<Count>) -> Value {
    json::count(n)
}

/// [`with_end`] for a count: complete only when it covered the whole tree, the stats'
/// solutions the exact count ([`json::end_count`]).
pub(crate) fn with_count_end(mut answer: Value, stop: Stop, stats: &Stats, count: &Count) -> Value {
    json::end_count(&mut answer, refine(stop), stats, count);
    answer
}

/// Adds how an exact cover search ended to the JSON object `answer`: `"complete"`, `"stop"`
/// (a cancel that the time limit raised is `time-limit`) and `"stats"` ([`json::end`]).
pub(crate) fn with_end(mut answer: Value, stop: Stop, stats: &Stats) -> Value {
    json::end(&mut answer, refine(stop), stats);
    answer
}

/// A stop reason in JSON ([`Stop::name`]), a cancel that the time limit raised being
/// `time-limit`.
pub(crate) fn stop_name(stop: Stop) -> &'static str {
    refine(stop).name()
}

/// The one-line `--stats` report on stderr.
pub(crate) fn print_stats(stats: &Stats) {
    say!(
        "nodes {} updates {} solutions {} seconds {:.3}",
        stats.nodes,
        stats.updates,
        stats.solutions,
        stats.elapsed.as_secs_f64()
    );
}

/// The one-line `--stats` report of a count on stderr, its solutions the exact count (the
/// stats' own field saturates at `u128::MAX`).
pub(crate) fn print_count_stats(stats: &Stats, count: &Count) {
    say!(
        "nodes {} updates {} solutions {} seconds {:.3}",
        stats.nodes,
        stats.updates,
        count,
        stats.elapsed.as_secs_f64()
    );
}

/// Ends a count's output: why it stopped early on stderr, if it did (a count stopped at
/// `--limit` included: its number is not the count), and the exit code: 0 for a whole count,
/// 3 for one cut by a limit, 130 after Ctrl-C.
pub(crate) fn finish_count(stop: Stop) -> ExitCode {
    if refine(stop) == Stop::SolutionLimit {
        say!("incomplete: the solution limit (--limit) was reached; the count above is partial");
        return ExitCode::from(LIMITED);
    }
    finish(true, stop)
}

/// Says on stderr why a search stopped early, if it did.
pub(crate) fn report_stop(stop: Stop) {
    if let Some(why) = stop_text(stop) {
        say!("incomplete: {why}; the results above are partial");
    }
}

/// Why a search stopped early, in words (`None` when it gave all that was asked): the one
/// wording of every stop reason, for the exact cover searches, the sudoku and target-sudoku
/// solvers and the heuristic searches alike.
pub(crate) fn stop_text(stop: Stop) -> Option<&'static str> {
    match refine(stop) {
        Stop::Exhausted | Stop::Found | Stop::SolutionLimit | Stop::CostLimit | Stop::Visitor => {
            None
        }
        Stop::NodeLimit => Some("the node limit was reached"),
        Stop::TimeLimit => Some("the time limit was reached"),
        Stop::MemoryLimit => Some("the state budget was reached"),
        Stop::Cancelled => Some("interrupted"),
    }
}

/// The exit code of a search: interrupted (130), stopped by a limit (3), found (0), or not
/// found (1).
pub(crate) fn exit_code(found: bool, stop: Stop) -> ExitCode {
    match refine(stop) {
        Stop::Cancelled => ExitCode::from(INTERRUPTED),
        Stop::NodeLimit | Stop::TimeLimit | Stop::MemoryLimit => ExitCode::from(LIMITED),
        Stop::Exhausted | Stop::Found | Stop::SolutionLimit | Stop::CostLimit | Stop::Visitor
            if found =>
        {
            ExitCode::from(FOUND)
        }
        Stop::Exhausted | Stop::Found | Stop::SolutionLimit | Stop::CostLimit | Stop::Visitor => {
            ExitCode::from(NOT_FOUND)
        }
    }
}

/// Ends an exact cover search's output: the stop report on stderr ([`report_stop`]), and the
/// exit code ([`exit_code`]).
pub(crate) fn finish(found: bool, stop: Stop) -> ExitCode {
    report_stop(stop);
    exit_code(found, stop)
}

/// The one-line `--stats` report of a heuristic search on stderr.
pub(crate) fn print_search_stats(stats: &dancecard_search::Stats) {
    say!(
        "expanded {} generated {} seconds {:.3} nodes/s {:.0}",
        stats.expanded,
        stats.generated,
        stats.elapsed.as_secs_f64(),
        stats.nodes_per_second()
    );
}

/// A heuristic search's counters as JSON fields.
pub(crate) fn search_stats_json(stats: &dancecard_search::Stats) -> Value {
    serde_json::json!({
        "expanded": stats.expanded,
        "generated": stats.generated,
        "iterations": stats.iterations,
        "seconds": stats.elapsed.as_secs_f64(),
    })
}

/// Ends a heuristic search stopped without an answer: in JSON, prints `fields` (an object
/// naming the missing answer) with `"complete": false`, the reason and the stats; then as
/// [`search_stopped`].
pub(crate) fn search_stopped_json(
    format: OutputFormat,
    stop: dancecard_search::Stop,
    stats: &dancecard_search::Stats,
    mut fields: Value,
) -> anyhow::Result<ExitCode> {
    if format == OutputFormat::Json {
        if let Some(map) = fields.as_object_mut() {
            map.insert("complete".into(), false.into());
            map.insert("stop".into(), search_stop_name(stop).into());
            map.insert("stats".into(), search_stats_json(stats));
        }
        print_json(&fields)?;
    }
    Ok(search_stopped(stop))
}

/// A heuristic search's stop reason as a JSON string: `found`, `exhausted`, `cost-limit`,
/// `node-limit`, `memory-limit`, `time-limit` (the stop flag raised by `--time-limit`) or
/// `cancelled` (Ctrl-C).
pub(crate) fn search_stop_name(stop: Stop) -> &'static str {
    refine(stop).name()
}

/// Says on stderr why a heuristic search stopped early (nothing if it did not), and returns
/// the exit code: 130 after Ctrl-C, 3 for a limit, else 1 ("no answer").
pub(crate) fn search_stopped(stop: Stop) -> ExitCode {
    let Some(why) = stop_text(stop) else { return ExitCode::from(NOT_FOUND) };
    say!("incomplete: {why}");
    search_exit_code(stop)
}

/// The exit code of a heuristic search cut short: 130 after Ctrl-C, else 3 (a limit); 1 for
/// a search that ended without an answer.
pub(crate) fn search_exit_code(stop: Stop) -> ExitCode {
    match refine(stop) {
        Stop::Cancelled => ExitCode::from(INTERRUPTED),
        stop if !stop.is_answered() => ExitCode::from(LIMITED),
        _ => ExitCode::from(NOT_FOUND),
    }
}
