//! Glue shared by the subcommands: input, output formats, exit codes, progress and Ctrl-C.

use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use anyhow::Context;
use dancecard_engine::{Heuristic, Stats, Stop};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Exit code: at least one solution was found, or a count was printed.
pub(crate) const FOUND: u8 = 0;
/// Exit code: the search ended without a solution.
pub(crate) const NOT_FOUND: u8 = 1;
/// Exit code: bad input or usage (also clap's code for usage errors).
pub(crate) const BAD_INPUT: u8 = 2;
/// Exit code: a limit stopped the search (`--time-limit`, `--node-limit`, or a budget such
/// as `--max-states`) after printing what was found, marked incomplete.
pub(crate) const LIMITED: u8 = 3;
/// Exit code: interrupted by Ctrl-C (after printing what was found, marked incomplete).
pub(crate) const INTERRUPTED: u8 = 130;

/// The exit code text shared by every command's `--help` (a macro, so that it can be
/// `concat!`ed into `after_help`).
macro_rules! exit_codes_help {
    () => {
        "Exit codes:
  0    at least one solution found, or a complete count printed
  1    no solution
  2    bad input or usage
  3    stopped by a limit (--time-limit, --node-limit...): the results printed are partial,
       marked incomplete (`incomplete:` on stderr, \"complete\": false in JSON)
  130  interrupted by Ctrl-C: the results printed are partial, marked incomplete"
    };
}
pub(crate) use exit_codes_help;

/// An error caused by the user's input: reported on stderr with exit code 2.
#[derive(Debug)]
pub(crate) struct BadInput(pub(crate) String);

impl std::fmt::Display for BadInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// Makes a [`BadInput`] error.
pub(crate) fn bad_input(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(BadInput(message.into()))
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

/// `--time-limit` and `--node-limit`, for the commands that run one search that can run long.
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub(crate) struct Limits {
    /// Stop after this many seconds: print what was found, marked incomplete, and exit 3.
    #[arg(long, value_name = "SECONDS")]
    pub(crate) time_limit: Option<f64>,
    /// Stop after N search-tree nodes: print what was found, marked incomplete, and exit 3.
    #[arg(long, value_name = "N")]
    pub(crate) node_limit: Option<u64>,
}

impl Limits {
    /// Arms the time limit (see [`arm_time_limit`]): call it when the search starts.
    pub(crate) fn arm(&self) -> anyhow::Result<()> {
        arm_time_limit(self.time_limit)
    }
}

/// The item-choice heuristic, as a command-line value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum HeuristicArg {
    /// Minimum remaining values: the first item with the fewest options (Knuth's "S").
    #[default]
    Mrv,
    /// The leftmost active item.
    Leftmost,
}

impl From<HeuristicArg> for Heuristic {
    fn from(h: HeuristicArg) -> Heuristic {
        match h {
            HeuristicArg::Mrv => Heuristic::Mrv,
            HeuristicArg::Leftmost => Heuristic::Leftmost,
        }
    }
}

/// Reads a whole input: a file, or stdin for `-` or no path.
pub(crate) fn read_input(path: Option<&Path>) -> anyhow::Result<(Vec<u8>, String)> {
    match path {
        None => read_stdin(),
        Some(p) if p == Path::new("-") => read_stdin(),
        Some(p) => {
            let mut bytes = std::fs::read(p)
                .map_err(|e| bad_input(format!("cannot read {}: {e}", p.display())))?;
            drop_bom(&mut bytes);
            Ok((bytes, p.display().to_string()))
        }
    }
}

fn read_stdin() -> anyhow::Result<(Vec<u8>, String)> {
    let mut bytes = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut bytes).context("cannot read standard input")?;
    drop_bom(&mut bytes);
    Ok((bytes, "<stdin>".to_owned()))
}

/// Removes a UTF-8 byte-order mark at the start of an input (some editors write one).
fn drop_bom(bytes: &mut Vec<u8>) {
    let kept = dancecard_format::without_bom(bytes).len();
    bytes.drain(..bytes.len() - kept);
}

/// The optional input path of commands that read `[FILE|-]`.
pub(crate) fn input_name(path: &Option<PathBuf>) -> Option<&Path> {
    path.as_deref()
}

/// Raised by the first Ctrl-C.
static INTERRUPTED_FLAG: AtomicBool = AtomicBool::new(false);
/// Raised when the time limit armed by [`arm_time_limit`] passes.
static EXPIRED_FLAG: AtomicBool = AtomicBool::new(false);

/// The process-wide stop flag that every search polls: raised by the first Ctrl-C (searches
/// stop with what they found; a second Ctrl-C exits at once) and by the timer of
/// [`arm_time_limit`]. [`interrupted`] and [`expired`] tell the two apart.
pub(crate) fn stop_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let handler = flag.clone();
        let _ = ctrlc::set_handler(move || {
            if INTERRUPTED_FLAG.swap(true, Ordering::SeqCst) {
                std::process::exit(i32::from(INTERRUPTED));
            }
            handler.store(true, Ordering::SeqCst);
        });
        flag
    })
    .clone()
}

/// Whether the user pressed Ctrl-C.
pub(crate) fn interrupted() -> bool {
    INTERRUPTED_FLAG.load(Ordering::Relaxed)
}

/// Whether the time limit armed by [`arm_time_limit`] has passed.
pub(crate) fn expired() -> bool {
    EXPIRED_FLAG.load(Ordering::Relaxed)
}

/// Arms `--time-limit` (seconds, checked by [`time_limit`]) for the rest of the run: a timer
/// thread raises the [`stop_flag`] when it passes, so that every solver that polls the flag
/// stops in time, and [`expired`] says why. Nothing with `None`.
pub(crate) fn arm_time_limit(seconds: Option<f64>) -> anyhow::Result<()> {
    let Some(limit) = time_limit(seconds)? else { return Ok(()) };
    let flag = stop_flag();
    let _ = std::thread::Builder::new().name("time-limit".to_owned()).spawn(move || {
        std::thread::sleep(limit);
        EXPIRED_FLAG.store(true, Ordering::SeqCst);
        flag.store(true, Ordering::SeqCst);
    })?;
    Ok(())
}

/// The stop reason of a search that polls the [`stop_flag`]: a cancel that the time limit
/// raised (not Ctrl-C) is [`Stop::TimeLimit`].
pub(crate) fn refine(stop: Stop) -> Stop {
    match stop {
        Stop::Cancelled if !interrupted() && expired() => Stop::TimeLimit,
        other => other,
    }
}

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

/// Stats as a JSON object.
pub(crate) fn stats_json(stats: &Stats) -> serde_json::Value {
    serde_json::json!({
        "nodes": stats.nodes,
        "updates": stats.updates,
        "solutions": u128_json(stats.solutions),
        "seconds": stats.elapsed.as_secs_f64(),
    })
}

/// A u128 as a JSON number when it fits in u64, else as a string (JSON numbers past 2^64 are
/// not portable).
pub(crate) fn u128_json(n: u128) -> serde_json::Value {
    match u64::try_from(n) {
        Ok(n) => serde_json::Value::from(n),
        Err(_) => serde_json::Value::from(n.to_string()),
    }
}

/// The one-line `--stats` report on stderr.
pub(crate) fn print_stats(stats: &Stats) {
    eprintln!(
        "nodes {} updates {} solutions {} seconds {:.3}",
        stats.nodes,
        stats.updates,
        stats.solutions,
        stats.elapsed.as_secs_f64()
    );
}

/// Says on stderr why a search stopped early, if it did.
pub(crate) fn report_stop(stop: Stop) {
    let why = match refine(stop) {
        Stop::Exhausted | Stop::SolutionLimit | Stop::Visitor => return,
        Stop::NodeLimit => "the node limit was reached",
        Stop::TimeLimit => "the time limit was reached",
        Stop::Cancelled => "interrupted",
    };
    eprintln!("incomplete: {why}; the results above are partial");
}

/// A stop reason as a JSON string: `exhausted`, `solution-limit`, `node-limit`,
/// `time-limit`, `cancelled` or `visitor`.
pub(crate) fn stop_name(stop: Stop) -> &'static str {
    match refine(stop) {
        Stop::Exhausted => "exhausted",
        Stop::SolutionLimit => "solution-limit",
        Stop::NodeLimit => "node-limit",
        Stop::TimeLimit => "time-limit",
        Stop::Cancelled => "cancelled",
        Stop::Visitor => "visitor",
    }
}

/// The exit code of a search: interrupted (130), stopped by a limit (3), found (0), or not
/// found (1).
pub(crate) fn exit_code(found: bool, stop: Stop) -> ExitCode {
    match refine(stop) {
        Stop::Cancelled => ExitCode::from(INTERRUPTED),
        Stop::NodeLimit | Stop::TimeLimit => ExitCode::from(LIMITED),
        Stop::Exhausted | Stop::SolutionLimit | Stop::Visitor if found => ExitCode::from(FOUND),
        Stop::Exhausted | Stop::SolutionLimit | Stop::Visitor => ExitCode::from(NOT_FOUND),
    }
}

/// The most threads `--threads` accepts: far more than the cores of one machine (past
/// that, use shards or MPI), and few enough that starting them is quick.
pub(crate) const MAX_THREADS: usize = 1024;

/// Parses `--threads N`: 0 (one per core) to [`MAX_THREADS`].
pub(crate) fn parse_threads(text: &str) -> Result<usize, String> {
    let n: usize = text.trim().parse().map_err(|_| format!("not a number of threads: `{text}`"))?;
    if n > MAX_THREADS {
        return Err(format!("at most {MAX_THREADS} threads (0 means one per core), not {n}"));
    }
    Ok(n)
}

/// `--threads N` as a number of threads: 0 means one per core.
pub(crate) fn threads_or_cores(n: usize) -> usize {
    if n == 0 {
        std::thread::available_parallelism().map_or(1, usize::from)
    } else {
        n
    }
}

/// Parses a number of bytes with an optional suffix `K`, `M`, `G` or `T` (powers of 1024;
/// `KB`, `MiB`... also accepted): `--memo-limit 512M`.
pub(crate) fn parse_bytes(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, suffix) = t.split_at(digits);
    let n: u64 = number.parse().map_err(|_| format!("not a number of bytes: `{text}`"))?;
    let shift = match suffix.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(format!("unknown unit in `{text}`: use K, M, G or T")),
    };
    n.checked_mul(1 << shift)
        .and_then(|b| usize::try_from(b).ok())
        .ok_or_else(|| format!("too many bytes: `{text}`"))
}

/// The memoised count's default memory limit: 2 GiB, or a quarter of the machine's memory if
/// that is less (read from `/proc/meminfo`; 2 GiB where it cannot be read).
pub(crate) fn default_memo_limit() -> usize {
    const DEFAULT: usize = 2 << 30;
    let total_kb = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
        let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
        line.split_whitespace().nth(1)?.parse::<usize>().ok()
    });
    match total_kb {
        Some(kb) => DEFAULT.min(kb.saturating_mul(1024) / 4),
        None => DEFAULT,
    }
}

/// A `--time-limit` in seconds as a duration: a bad-input error unless it is a finite,
/// non-negative number of seconds that a duration can hold.
pub(crate) fn time_limit(seconds: Option<f64>) -> anyhow::Result<Option<Duration>> {
    seconds
        .map(|t| {
            Duration::try_from_secs_f64(t).map_err(|_| {
                // Huge values in scientific notation, not hundreds of digits.
                let t = if t.abs() < 1e15 { t.to_string() } else { format!("{t:e}") };
                bad_input(format!(
                    "--time-limit must be a number of seconds from 0 to about 1.8e19, not {t}"
                ))
            })
        })
        .transpose()
}

/// Reads a whole input as UTF-8 text: a file, or stdin for `-` or no path.
pub(crate) fn read_text(path: Option<&Path>) -> anyhow::Result<(String, String)> {
    let (bytes, name) = read_input(path)?;
    let text =
        String::from_utf8(bytes).map_err(|_| bad_input(format!("{name}: not UTF-8 text")))?;
    Ok((text, name))
}

/// Reads a whole input as UTF-8 text, as [`read_text`]; an input with nothing but blank lines
/// is a bad-input error (as in `sudoku` and `slide`), not an empty answer.
pub(crate) fn read_nonempty_text(path: Option<&Path>) -> anyhow::Result<(String, String)> {
    let (text, name) = read_text(path)?;
    if text.trim().is_empty() {
        return Err(bad_input(format!("{name}: the input is empty")));
    }
    Ok((text, name))
}

/// The directory for cached data (pattern databases): `$DANCECARD_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/dancecard`, else `~/.cache/dancecard`.
pub(crate) fn cache_dir() -> Option<PathBuf> {
    let non_empty = |v: std::ffi::OsString| (!v.is_empty()).then(|| PathBuf::from(v));
    if let Some(dir) = std::env::var_os("DANCECARD_CACHE_DIR").and_then(non_empty) {
        return Some(dir);
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME").and_then(non_empty) {
        return Some(dir.join("dancecard"));
    }
    std::env::var_os("HOME").and_then(non_empty).map(|h| h.join(".cache").join("dancecard"))
}

/// The one-line `--stats` report of a heuristic search on stderr.
pub(crate) fn print_search_stats(stats: &dancecard_search::Stats) {
    eprintln!(
        "expanded {} generated {} seconds {:.3} nodes/s {:.0}",
        stats.expanded,
        stats.generated,
        stats.elapsed.as_secs_f64(),
        stats.nodes_per_second()
    );
}

/// A heuristic search's counters as JSON fields.
pub(crate) fn search_stats_json(stats: &dancecard_search::Stats) -> serde_json::Value {
    serde_json::json!({
        "expanded": stats.expanded,
        "generated": stats.generated,
        "iterations": stats.iterations,
        "seconds": stats.elapsed.as_secs_f64(),
    })
}

/// The limits of a heuristic search: an optional node budget, and the [`stop_flag`] (Ctrl-C
/// and `--time-limit`) wired to cancel.
pub(crate) fn search_limits(node_limit: Option<u64>) -> dancecard_search::Limits {
    let limits = dancecard_search::Limits::new().cancel(stop_flag());
    match node_limit {
        Some(n) => limits.max_nodes(n),
        None => limits,
    }
}

/// Ends a heuristic search stopped without an answer: in JSON, prints `fields` (an object
/// naming the missing answer) with `"complete": false`, the reason and the stats; then as
/// [`search_stopped`].
pub(crate) fn search_stopped_json(
    format: OutputFormat,
    stop: dancecard_search::Stop,
    stats: &dancecard_search::Stats,
    mut fields: serde_json::Value,
) -> anyhow::Result<ExitCode> {
    if format == OutputFormat::Json {
        let name = search_stop_name(stop);
        if let Some(map) = fields.as_object_mut() {
            map.insert("complete".into(), false.into());
            map.insert("stop".into(), name.into());
            map.insert("stats".into(), search_stats_json(stats));
        }
        crate::commands::watch::print_json(&fields)?;
    }
    Ok(search_stopped(stop))
}

/// A heuristic search's stop reason as a JSON string: `found`, `exhausted`, `cost-limit`,
/// `node-limit`, `memory-limit`, `time-limit` (the [`stop_flag`] raised by `--time-limit`)
/// or `cancelled` (Ctrl-C).
pub(crate) fn search_stop_name(stop: dancecard_search::Stop) -> &'static str {
    use dancecard_search::Stop as S;
    match stop {
        S::Cancelled if !interrupted() && expired() => "time-limit",
        other => other.name(),
    }
}

/// Says on stderr why a heuristic search stopped early (nothing if it did not), and returns
/// the exit code: 130 after Ctrl-C, 3 for a limit, else 1 ("no answer").
pub(crate) fn search_stopped(stop: dancecard_search::Stop) -> ExitCode {
    use dancecard_search::Stop as S;
    let why = match (stop, search_stop_name(stop)) {
        (_, "time-limit") => "the time limit was reached",
        (S::NodeLimit, _) => "the node limit was reached",
        (S::MemoryLimit, _) => "the state budget was reached",
        (S::Cancelled, _) => "interrupted",
        _ => return ExitCode::from(NOT_FOUND),
    };
    eprintln!("incomplete: {why}");
    search_exit_code(stop)
}

/// The exit code of a heuristic search cut short: 130 after Ctrl-C, else 3 (a limit); 1 for
/// a search that ended without an answer.
pub(crate) fn search_exit_code(stop: dancecard_search::Stop) -> ExitCode {
    match (stop, search_stop_name(stop)) {
        (dancecard_search::Stop::Cancelled, "cancelled") => ExitCode::from(INTERRUPTED),
        _ if !stop.is_complete() => ExitCode::from(LIMITED),
        _ => ExitCode::from(NOT_FOUND),
    }
}
