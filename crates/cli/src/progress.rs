//! Progress on stderr for long runs: a bar on a terminal, plain lines in batch logs.
//!
//! A progress display shows what is known, and no more:
//!
//! - always, once a run has lasted a second: the time elapsed, ticking on its own even when
//!   the search has nothing new to say (a thread of its own redraws it), and, as far as the
//!   search reports them, its nodes, their rate and the solutions found;
//! - a fraction done, only where the search knows one (its [`Basis`]): Knuth's estimate of
//!   the part of the tree explored (the position among the branches at each level, as DLX1's
//!   progress lines print it), or the units of work done of all (tasks, puzzles);
//! - a time left, only where it means something: from a Monte Carlo estimate of the plain
//!   search's tree made beside the search ([`Progress::estimating`]: random probes that take
//!   at most [`PROBE_SHARE`] of the time), with the interval of two standard errors it has
//!   (`eta 2m 10s (1m 40s-3m 5s)`); from the units done of all (`eta ~3m`); otherwise `eta ?`.
//!
//! Knuth's fraction alone does not make a time left: early in a long search it is far below
//! the share of the time spent (the first branches of a level hold most of the tree), so that
//! an ETA from it would say weeks for minutes, or, rounded, 0% and 0 s for hours.

use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use dancecard_engine::{parallel, Basis, Config, Heuristic, Probes, Problem, Solver};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::output::{say, OutputFormat};

/// The most of the run's time that the Monte Carlo estimate of a progress display may take.
pub(crate) const PROBE_SHARE: f64 = 0.02;

/// Probes before the estimate's time left is shown: fewer say too little of the spread.
const MIN_PROBES: u64 = 20;

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

/// Progress on stderr for long runs (see the module docs): after a second of work, a bar
/// with what is known, only when stderr is a terminal and never in JSON mode.
/// `DANCECARD_PROGRESS=never` turns it off; `DANCECARD_PROGRESS=always` shows it even without
/// a terminal, as plain lines every few seconds.
#[derive(Debug)]
pub(crate) struct Progress {
    /// The state the search reports into and the drawing thread reads (`None`: off).
    shared: Option<Arc<Shared>>,
}

/// What a progress display shares with its drawing thread.
#[derive(Debug)]
struct Shared {
    mode: ProgressMode,
    started: Instant,
    state: Mutex<State>,
    /// Set when the run ends; the drawing thread waits on it between two draws.
    done: Mutex<bool>,
    wake: Condvar,
}

/// What the search has said so far, and what is drawn.
#[derive(Debug, Default)]
struct State {
    fraction: f64,
    basis: Basis,
    /// Whether a fraction has been reported at all.
    reported: bool,
    nodes: Option<u64>,
    /// When the plain search's nodes were first reported, and how many: its rate is
    /// measured from there (`auto` may hand over to it after a memoised start).
    search_since: Option<(Duration, u64)>,
    solutions: Option<u128>,
    /// The search's own words (a best cost, puzzles done), with when they were made.
    note: String,
    noted: Option<Instant>,
    /// The running Monte Carlo estimate of the plain tree: nodes, standard error, probes.
    estimate: Option<(f64, f64, u64)>,
    /// A solver that probes the plain tree, until the drawing thread takes it.
    prober: Option<Solver>,
    bar: Option<ProgressBar>,
    /// Whether the bar has its style with a bar (a fraction is known) or a spinner.
    bar_style: Option<bool>,
}

impl Progress {
    /// How long a run must last before progress appears.
    const DELAY: Duration = Duration::from_secs(1);
    /// Time between two redraws of the bar.
    const TICK: Duration = Duration::from_millis(200);
    /// Time between two plain progress lines.
    const LINE_EVERY: Duration = Duration::from_secs(5);
    /// Time between two notes taken from the search (formatting one costs).
    const NOTE_EVERY: Duration = Duration::from_millis(100);

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
        if mode == ProgressMode::Off {
            return Progress { shared: None };
        }
        let shared = Arc::new(Shared {
            mode,
            started: Instant::now(),
            state: Mutex::new(State::default()),
            done: Mutex::new(false),
            wake: Condvar::new(),
        });
        let drawer = Arc::clone(&shared);
        // Detached: it ends at its next wake after `finish` (or with the process), so that
        // ending a run never waits for a probe under way.
        let started =
            std::thread::Builder::new().name("progress".into()).spawn(move || drawer.run());
        match started {
            Ok(_) => Progress { shared: Some(shared) },
            Err(_) => Progress { shared: None },
        }
    }

    /// Adds a Monte Carlo estimate of `problem`'s plain search under `heuristic`, made beside
    /// the search while it reports [`Basis::Search`]: the time left, with its interval.
    pub(crate) fn estimating(&mut self, problem: &Problem, heuristic: Heuristic) {
        if let Some(shared) = &self.shared {
            let solver = Solver::with_config(problem, Config::with_heuristic(heuristic));
            lock(&shared.state).prober = Some(solver);
        }
    }

    /// Reports the fraction done, what it measures, and the search's own words (made only
    /// now and then: `note` is called at most every [`Progress::NOTE_EVERY`]).
    pub(crate) fn update(&mut self, fraction: f64, basis: Basis, note: impl FnOnce() -> String) {
        let Some(shared) = &self.shared else { return };
        let Ok(mut state) = shared.state.try_lock() else { return };
        state.fraction = fraction.clamp(0.0, 1.0);
        state.basis = basis;
        state.reported = true;
        if state.noted.map_or(true, |t| t.elapsed() >= Self::NOTE_EVERY) {
            state.note = note();
            state.noted = Some(Instant::now());
        }
    }

    /// Reports the nodes searched and the solutions found so far.
    pub(crate) fn counts(&mut self, nodes: u64, solutions: Option<u128>) {
        let Some(shared) = &self.shared else { return };
        let Ok(mut state) = shared.state.try_lock() else { return };
        state.nodes = Some(nodes);
        if state.basis == Basis::Search && state.search_since.is_none() {
            state.search_since = Some((shared.started.elapsed(), nodes));
        }
        if solutions.is_some() {
            state.solutions = solutions;
        }
    }

    /// Reports an exact cover search's progress: Knuth's fraction of its tree, its solutions
    /// and nodes so far (a solver's tick; always `Continue`).
    pub(crate) fn tick(&mut self, solver: &Solver) -> ControlFlow<()> {
        let stats = solver.stats();
        self.update(solver.progress(), solver.progress_basis(), String::new);
        self.counts(stats.nodes, Some(stats.solutions));
        ControlFlow::Continue(())
    }

    /// Reports the progress of a count (on threads, or a model's), as [`Progress::tick`]; a
    /// counter that reports no nodes (the profile DP) shows only the time.
    pub(crate) fn parallel(&mut self, p: parallel::Progress) {
        self.update(p.fraction, p.basis, String::new);
        if p.nodes > 0 || p.solutions > 0 {
            self.counts(p.nodes, Some(p.solutions));
        }
    }

    /// Removes the bar, and stops the drawing thread.
    pub(crate) fn finish(&mut self) {
        let Some(shared) = self.shared.take() else { return };
        *lock(&shared.done) = true;
        shared.wake.notify_all();
        let bar = lock(&shared.state).bar.take();
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

impl Shared {
    /// The drawing thread: waits a second, then redraws every [`Progress::TICK`] (or writes
    /// a line every [`Progress::LINE_EVERY`]), probing the tree between two draws within its
    /// share of the time.
    fn run(&self) {
        let mut prober: Option<(Solver, Probes, Duration)> = None;
        let mut last_line: Option<Instant> = None;
        loop {
            {
                let done = lock(&self.done);
                let (done, _) = self
                    .wake
                    .wait_timeout_while(done, Progress::TICK, |done| !*done)
                    .unwrap_or_else(|e| e.into_inner());
                if *done {
                    return;
                }
            }
            let elapsed = self.started.elapsed();
            if elapsed < Progress::DELAY {
                continue;
            }
            self.probe(&mut prober, elapsed);
            let mut state = lock(&self.state);
            if *lock(&self.done) {
                return;
            }
            match self.mode {
                ProgressMode::Bar => state.draw(elapsed),
                ProgressMode::Lines => {
                    if last_line.map_or(true, |t| t.elapsed() >= Progress::LINE_EVERY) {
                        last_line = Some(Instant::now());
                        say!("progress {}", state.line(elapsed));
                    }
                }
                ProgressMode::Off => return,
            }
        }
    }

    /// Probes the plain tree while the search walks it ([`Basis::Search`]), until the probes
    /// have taken [`PROBE_SHARE`] of the time so far (a probe at a time: the done flag is
    /// looked at between two), and keeps the estimate.
    fn probe(&self, prober: &mut Option<(Solver, Probes, Duration)>, elapsed: Duration) {
        {
            let mut state = lock(&self.state);
            if state.basis != Basis::Search {
                return;
            }
            if prober.is_none() {
                match state.prober.take() {
                    Some(solver) => {
                        *prober = Some((solver, Probes::new(0x5eed_dace), Duration::ZERO))
                    }
                    None => return,
                }
            }
        }
        let Some((solver, probes, spent)) = prober.as_mut() else { return };
        let budget = elapsed.mul_f64(PROBE_SHARE);
        while *spent < budget && !*lock(&self.done) {
            let t = Instant::now();
            probes.probe(solver);
            *spent += t.elapsed();
        }
        let e = probes.estimate();
        lock(&self.state).estimate = Some((e.nodes, e.nodes_stderr, e.probes));
    }
}

impl State {
    /// The words of the display: the fraction (if known), the time, the nodes and their
    /// rate, the solutions, the search's note, and the time left.
    fn text(&self, elapsed: Duration) -> (Option<String>, String) {
        let fraction = self.known_fraction().map(|f| format!("{} {}", percent(f), self.of()));
        // The time left before the counters: a narrow terminal cuts the end of the line.
        let mut words = vec![clock(elapsed), format!("eta {}", self.eta(elapsed))];
        let seconds = elapsed.as_secs_f64().max(1e-9);
        if let Some(nodes) = self.nodes {
            words.push(format!(
                "{} nodes ({}/s)",
                compact(nodes as f64),
                compact(nodes as f64 / seconds)
            ));
        }
        if let Some(solutions) = self.solutions {
            let s = if solutions == 1 { "" } else { "s" };
            words.push(format!("{} solution{s}", compact(solutions as f64)));
        }
        if !self.note.is_empty() {
            words.push(self.note.clone());
        }
        (fraction, words.join(" · "))
    }

    /// The fraction done, where the search knows one.
    fn known_fraction(&self) -> Option<f64> {
        match self.basis {
            Basis::Search | Basis::Tree | Basis::Units if self.reported => Some(self.fraction),
            _ => None,
        }
    }

    /// What the fraction is of.
    fn of(&self) -> &'static str {
        match self.basis {
            Basis::Units => "done",
            _ => "of the tree",
        }
    }

    /// The time left: from the Monte Carlo estimate of the plain tree, with its interval;
    /// from the units done; else `?`.
    fn eta(&self, elapsed: Duration) -> String {
        let seconds = elapsed.as_secs_f64();
        match self.basis {
            Basis::Search => {
                let (Some((mean, stderr, probes)), Some(nodes)) = (self.estimate, self.nodes)
                else {
                    return "?".into();
                };
                let (since, before) = self.search_since.unwrap_or((Duration::ZERO, 0));
                let rate =
                    nodes.saturating_sub(before) as f64 / (seconds - since.as_secs_f64()).max(1e-9);
                if probes < MIN_PROBES || rate <= 0.0 || mean <= nodes as f64 || !stderr.is_finite()
                {
                    // Too few probes, or a tree already bigger than its estimate.
                    return "?".into();
                }
                let left = |total: f64| (total - nodes as f64).max(0.0) / rate;
                let (low, high) = (left(mean - 2.0 * stderr), left(mean + 2.0 * stderr));
                format!("{} ({}-{})", duration(left(mean)), duration(low), duration(high))
            }
            Basis::Units if self.reported && self.fraction > 0.0 => {
                let left = seconds * (1.0 - self.fraction) / self.fraction;
                format!("~{}", duration(left))
            }
            _ => "?".into(),
        }
    }

    /// Draws the bar (a bar where a fraction is known, else a spinner) with the words.
    fn draw(&mut self, elapsed: Duration) {
        let (fraction, words) = self.text(elapsed);
        let with_bar = fraction.is_some();
        let bar = self.bar.get_or_insert_with(|| {
            ProgressBar::with_draw_target(Some(1_000_000), ProgressDrawTarget::stderr())
        });
        if self.bar_style != Some(with_bar) {
            let template =
                if with_bar { "[{bar:24}] {prefix} · {wide_msg}" } else { "{spinner} {wide_msg}" };
            let style = ProgressStyle::with_template(template)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
            bar.set_style(style);
            self.bar_style = Some(with_bar);
        }
        bar.set_position((self.fraction * 1_000_000.0) as u64);
        bar.set_prefix(fraction.unwrap_or_default());
        bar.set_message(words);
        bar.tick();
    }

    /// The words of a plain progress line.
    fn line(&self, elapsed: Duration) -> String {
        let (fraction, words) = self.text(elapsed);
        match fraction {
            Some(f) => format!("{f} · {words}"),
            None => words,
        }
    }
}

/// A fraction as a percentage with three significant digits (`0.00132%`), never rounded to
/// a false 0% or 100%.
fn percent(fraction: f64) -> String {
    let p = fraction * 100.0;
    if p >= 100.0 {
        return "100%".into();
    }
    if p <= 0.0 {
        return "0%".into();
    }
    let digits = (2.0 - p.log10().floor()).clamp(1.0, 12.0) as usize;
    let text = format!("{p:.digits$}");
    if text.starts_with("100") {
        "99.9%".into()
    } else {
        format!("{text}%")
    }
}

/// A number in three significant digits with a suffix (`12.3M`), exact below 10,000.
fn compact(x: f64) -> String {
    if x < 10_000.0 {
        return format!("{}", x.round() as u64);
    }
    for (scale, suffix) in
        [(1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")]
    {
        if x >= scale {
            let v = x / scale;
            if v >= 1000.0 {
                return format!("{x:.2e}");
            }
            let digits = if v >= 100.0 {
                0
            } else if v >= 10.0 {
                1
            } else {
                2
            };
            return format!("{v:.digits$}{suffix}");
        }
    }
    format!("{x:.0}")
}

/// The time elapsed as a clock: `0:07`, `12:34`, `3:02:01`, `2d 3:02:01`.
fn clock(elapsed: Duration) -> String {
    let s = elapsed.as_secs();
    let (d, h, m, s) = (s / 86_400, s / 3600 % 24, s / 60 % 60, s % 60);
    match (d, h) {
        (0, 0) => format!("{m}:{s:02}"),
        (0, _) => format!("{h}:{m:02}:{s:02}"),
        _ => format!("{d}d {h}:{m:02}:{s:02}"),
    }
}

/// A time left in two units at most: `42s`, `3m 10s`, `2h 5m`, `3d 4h`, `12y`.
fn duration(seconds: f64) -> String {
    if !seconds.is_finite() || seconds >= 100.0 * 365.25 * 86_400.0 {
        return "> 100y".into();
    }
    let s = seconds.round() as u64;
    let (y, d, h, m, s) =
        (s / 31_557_600, s % 31_557_600 / 86_400, s / 3600 % 24, s / 60 % 60, s % 60);
    if y > 0 {
        format!("{y}y {d}d")
    } else if d > 0 {
        format!("{d}d {h}h")
    } else if h > 0 {
        format!("{h}h {m}m")
    } else if m > 0 {
        format!("{m}m {s}s")
    } else {
        format!("{s}s")
    }
}

/// Locks a mutex, poisoned or not (a thread that panicked leaves the progress or the output
/// usable).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_keep_three_significant_digits() {
        assert_eq!(percent(0.0), "0%");
        assert_eq!(percent(0.5), "50.0%");
        assert_eq!(percent(0.0123), "1.23%");
        assert_eq!(percent(1.32e-5), "0.00132%");
        assert_eq!(percent(0.99999), "99.9%");
        assert_eq!(percent(1.0), "100%");
    }

    #[test]
    fn numbers_and_times_read_at_a_glance() {
        assert_eq!(compact(9_999.0), "9999");
        assert_eq!(compact(12_345.0), "12.3k");
        assert_eq!(compact(1.5e9), "1.50G");
        assert_eq!(compact(2.6e23), "2.60e23");
        assert_eq!(clock(Duration::from_secs(7)), "0:07");
        assert_eq!(clock(Duration::from_secs(3 * 3600 + 121)), "3:02:01");
        assert_eq!(duration(42.4), "42s");
        assert_eq!(duration(190.0), "3m 10s");
        assert_eq!(duration(7500.0), "2h 5m");
        assert_eq!(duration(1e12), "> 100y");
    }

    #[test]
    fn a_time_left_only_where_it_means_something() {
        let seconds = Duration::from_secs(10);
        let mut s =
            State { basis: Basis::Search, reported: true, fraction: 1e-6, ..State::default() };
        s.nodes = Some(1_000_000);
        // Knuth's fraction alone: no time left.
        assert_eq!(s.eta(seconds), "?");
        // A Monte Carlo estimate of 11 million nodes, standard error 0.25 million, at 100,000
        // nodes a second: 100 s left, 95 to 105.
        s.estimate = Some((11e6, 0.25e6, 1000));
        assert_eq!(s.eta(seconds), "1m 40s (1m 35s-1m 45s)");
        // Too few probes, or a tree already bigger than its estimate: no time left.
        s.estimate = Some((11e6, 0.25e6, 3));
        assert_eq!(s.eta(seconds), "?");
        s.estimate = Some((0.5e6, 0.25e6, 1000));
        assert_eq!(s.eta(seconds), "?");
        // The memo's tree: a fraction, no time left.
        let memo = State { basis: Basis::Tree, reported: true, fraction: 0.25, ..State::default() };
        assert_eq!(memo.eta(seconds), "?");
        assert_eq!(memo.known_fraction(), Some(0.25));
        // Units done: a time left in proportion.
        let units =
            State { basis: Basis::Units, reported: true, fraction: 0.25, ..State::default() };
        assert_eq!(units.eta(seconds), "~30s");
        // Stages, or nothing reported: no fraction either.
        let stages =
            State { basis: Basis::Stages, reported: true, fraction: 0.5, ..State::default() };
        assert_eq!((stages.known_fraction(), stages.eta(seconds).as_str()), (None, "?"));
        assert_eq!(State::default().known_fraction(), None);
    }
}
