//! When searches stop: the process-wide stop flag (Ctrl-C and `--time-limit`), the limits
//! given on the command line, and telling a time limit from Ctrl-C.
//!
//! Below [`crate::output`]; it depends on [`crate::input`] (bad-input errors) and
//! [`crate::exit`] only.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use dancecard_engine::{Budget, Stop};

use crate::exit::INTERRUPTED;
use crate::input::bad_input;

/// `--time-limit` and `--node-limit`, for the commands that run searches that can run long
/// (a command words them for its search with `mut_arg`).
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub(crate) struct Limits {
    /// Stop after N search-tree nodes: print what was found, marked incomplete, and exit 3.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::input::parse_count::<u64>)]
    pub(crate) node_limit: Option<u64>,
    /// Stop after this many seconds: print what was found, marked incomplete, and exit 3.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub(crate) time_limit: Option<f64>,
}

impl Limits {
    /// Arms the time limit (see [`arm_time_limit`]): call it when the search starts.
    pub(crate) fn arm(&self) -> anyhow::Result<()> {
        arm_time_limit(self.time_limit)
    }

    /// The budget of a search under these limits: the node limit, and the [`stop_flag`]
    /// (Ctrl-C, and the time limit once [`Limits::arm`]ed) as its cancel flag. The search
    /// adds its own solution limit.
    pub(crate) fn budget(&self) -> Budget {
        Budget { max_nodes: self.node_limit, cancel: Some(stop_flag()), ..Budget::default() }
    }

    /// Arms the time limit and returns the [`budget`](Limits::budget) of a search that
    /// starts now (a heuristic search, which has no solution limit).
    pub(crate) fn for_search(&self) -> anyhow::Result<Budget> {
        self.arm()?;
        Ok(self.budget())
    }
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
