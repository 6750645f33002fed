//! Progress on stderr for long runs: a bar on a terminal, plain lines in batch logs.

use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use dancecard_engine::parallel;
use dancecard_engine::Solver;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::output::OutputFormat;

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ProgressMode {
    /// Nothing (JSON output, or stderr not a terminal).
    Off,
    /// An indicatif bar on the terminal.
    Bar,
    /// A plain line every few seconds (`DANCECARD_PROGRESS=always` without a terminal: logs
    /// of batch jobs).
    Lines,
}

/// Progress on stderr for long runs: after a second of work, a bar with the estimated fraction
/// of the tree explored and an ETA, only when stderr is a terminal and never in JSON mode.
/// `DANCECARD_PROGRESS=never` turns it off; `DANCECARD_PROGRESS=always` shows it even without
/// a terminal, as plain lines every few seconds.
#[derive(Debug)]
pub(crate) struct Progress {
    started: Instant,
    mode: ProgressMode,
    bar: Option<ProgressBar>,
    last_line: Option<Instant>,
}

impl Progress {
    /// How long a run must last before progress appears.
    const DELAY: Duration = Duration::from_secs(1);
    /// Time between two plain progress lines.
    const LINE_EVERY: Duration = Duration::from_secs(5);

    /// A progress display that may appear later.
    pub(crate) fn new(format: OutputFormat) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let mode = match std::env::var("DANCECARD_PROGRESS").as_deref() {
            Ok("never") => ProgressMode::Off,
            _ if format == OutputFormat::Json => ProgressMode::Off,
            Ok("always") if !terminal => ProgressMode::Lines,
            _ if terminal => ProgressMode::Bar,
            _ => ProgressMode::Off,
        };
        Progress { started: Instant::now(), mode, bar: None, last_line: None }
    }

    /// Reports the estimated fraction done and a message.
    pub(crate) fn update(&mut self, fraction: f64, message: impl FnOnce() -> String) {
        let elapsed = self.started.elapsed();
        if self.mode == ProgressMode::Off || elapsed < Self::DELAY {
            return;
        }
        let fraction = fraction.clamp(0.0, 1.0);
        if self.mode == ProgressMode::Lines {
            if self.last_line.is_some_and(|t| t.elapsed() < Self::LINE_EVERY) {
                return;
            }
            self.last_line = Some(Instant::now());
            let eta = if fraction > 0.0 {
                format!("{:.0}s", elapsed.as_secs_f64() * (1.0 - fraction) / fraction)
            } else {
                "?".to_owned()
            };
            eprintln!(
                "progress {:.2}% elapsed {:.0}s eta {eta} {}",
                fraction * 100.0,
                elapsed.as_secs_f64(),
                message()
            );
            return;
        }
        let bar = self.bar.get_or_insert_with(|| {
            let bar = ProgressBar::with_draw_target(Some(10_000), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{wide_bar}] {percent:>3}% eta {eta} {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        });
        bar.set_position((fraction * 10_000.0) as u64);
        bar.set_message(message());
    }

    /// Reports an exact cover search's progress: its solutions and nodes so far (a solver's
    /// tick; always `Continue`).
    pub(crate) fn tick(&mut self, solver: &Solver) -> ControlFlow<()> {
        let stats = solver.stats();
        self.update(solver.progress(), || {
            format!("{} solutions, {} nodes", stats.solutions, stats.nodes)
        });
        ControlFlow::Continue(())
    }

    /// Reports the progress of a count (on threads, or a model's), as [`Progress::tick`]; a
    /// counter that reports only its fraction done (the bitwise queens) shows "counting".
    pub(crate) fn parallel(&mut self, p: parallel::Progress) {
        self.update(p.fraction, || {
            if p.solutions == 0 && p.nodes == 0 {
                "counting".to_owned()
            } else {
                format!("{} solutions, {} nodes", p.solutions, p.nodes)
            }
        });
    }

    /// Removes the bar.
    pub(crate) fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Locks a mutex, poisoned or not (a thread that panicked leaves the progress or the output
/// usable).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
