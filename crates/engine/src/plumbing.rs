//! The plumbing every kernel shares: the limits of a count and the one node poll
//! ([`Limits`]), the progress callback ([`Tick`]), what a count is given ([`CountJob`]) and
//! returns ([`Counted`]), the subtrees a stopped count left ([`rest_of`]), the progress
//! estimate from the untried options ([`estimate`]) and the bit-set walks of the kernels on
//! bit sets.
//!
//! It imports only the vocabulary (`config.rs`) and the counters (`stats.rs`): the kernels in
//! `kernels/` and the solver import it, never the other way.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::config::{Config, Outcome, Stop, Subtree};
use crate::stats::Stats;

/// The subtrees a search stopped at level `level` (entering it, levels `0..level` applied) did
/// not search, from each level's `(len, untried)`: the number of options of its item and how
/// many of them are still untried (the option being tried is the one before those). Levels
/// below `prefix.len()` are the prefix's own (one option each: nothing untried beside it).
///
/// The untried options of every level, and the node being entered, name disjoint subtrees
/// that together are exactly what the search had left: a count of all of them completes
/// the stopped count.
pub(crate) fn rest_of(prefix: &[u32], levels: impl Iterator<Item = (u32, u32)>) -> Vec<Subtree> {
    let mut rest = Vec::new();
    let mut path: Vec<u32> = Vec::new();
    let mut share = 1.0f64;
    for (l, (len, untried)) in levels.enumerate() {
        let current = if l < prefix.len() { prefix[l] } else { len - untried - 1 };
        let inner = share / f64::from(len.max(1));
        if l >= prefix.len() {
            for j in current + 1..len {
                let mut unit = path.clone();
                unit.push(j);
                rest.push(Subtree { prefix: unit, share: inner });
            }
        }
        path.push(current);
        share = inner;
    }
    rest.push(Subtree { prefix: path, share });
    rest
}

/// What a count on bit sets returns: its outcome and its counters.
pub(crate) type Counted = (Outcome, Stats);

/// The [`Counted`] of a count started at `started` that stopped with `stop`.
pub(crate) fn counted(
    stop: Stop,
    nodes: u64,
    updates: u64,
    solutions: u128,
    started: Instant,
) -> Counted {
    let stats = Stats { nodes, updates, solutions, elapsed: started.elapsed() };
    (Outcome { solutions, stop }, stats)
}

/// The progress callback of [`Bits::count`].
pub(crate) type Tick<'t> = &'t mut dyn FnMut(f64, &Stats) -> ControlFlow<()>;

/// What a count on bit sets is given: the limits of `config`, the subtree `prefix` to count,
/// `tick` to call every [`Config::CHECK_INTERVAL`] nodes with the progress estimate and the
/// counters, and where to write the subtrees left (`rest`, when wanted).
pub(crate) struct CountJob<'a> {
    pub(crate) config: &'a Config,
    pub(crate) prefix: &'a [u32],
    pub(crate) tick: Tick<'a>,
    pub(crate) rest: Option<&'a mut Vec<Subtree>>,
}

/// Writes a bit-set kernel's `run_best`: its search compiled for the CPU. Where the CPU has
/// the features of x86-64-v3 ([`has_v3`]: AVX2, POPCNT, BMI1 and BMI2; the population counts
/// of the sets are most of the work), `run_v3`, the search compiled for them, else the
/// baseline build. The search is the body, written as a closure of the kernel, the config,
/// the start and the progress tick.
macro_rules! run_for_the_cpu {
    (|$s:ident, $config:ident, $started:ident, $tick:ident| $body:expr) => {
        /// [`Search::run`] compiled for the CPU: with POPCNT, BMI and AVX2 where it has them.
        fn run_best(
            &mut self,
            $config: &Config,
            $started: std::time::Instant,
            $tick: $crate::plumbing::Tick<'_>,
        ) -> Stop {
            #[cfg(target_arch = "x86_64")]
            if $crate::plumbing::has_v3() {
                // SAFETY: the CPU has every feature `run_v3` is compiled for.
                return unsafe { self.run_v3($config, $started, $tick) };
            }
            let $s = self;
            $body
        }

        /// [`Search::run`] for x86-64-v3 CPUs.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
        unsafe fn run_v3(
            &mut self,
            $config: &Config,
            $started: std::time::Instant,
            $tick: $crate::plumbing::Tick<'_>,
        ) -> Stop {
            let $s = self;
            $body
        }
    };
}
pub(crate) use run_for_the_cpu;

/// Whether the CPU has the features of x86-64-v3 the searches on bit sets are also compiled
/// for (AVX2, POPCNT, BMI1 and BMI2).
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_v3() -> bool {
    std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
}

/// The limits of a search, from its configuration, and the one node poll every search loop
/// makes: [`Limits::expired`], every [`Config::CHECK_INTERVAL`] nodes.
///
/// It borrows the cancel flag rather than holding a reference count: a value with a
/// destructor among the locals of a search loop costs the loop its unwinding paths (1% more
/// instructions on pent6x10 on bit sets, measured with callgrind).
pub(crate) struct Limits<'a> {
    /// A limit too far away to represent is no limit.
    deadline: Option<Instant>,
    cancel: Option<&'a AtomicBool>,
    pub(crate) max_nodes: u64,
    pub(crate) max_solutions: u128,
}

impl<'a> Limits<'a> {
    /// The limits of `config`.
    pub(crate) fn new(config: &'a Config) -> Limits<'a> {
        Limits::with_cancel(config, config.budget.cancel.as_deref())
    }

    /// The limits of `config` for a search loop, or the stop of a search that wants no
    /// solution ([`Stop::SolutionLimit`]: nothing to search, no node).
    pub(crate) fn open(config: &'a Config) -> Result<Limits<'a>, Stop> {
        let limits = Limits::new(config);
        if limits.max_solutions == 0 {
            Err(Stop::SolutionLimit)
        } else {
            Ok(limits)
        }
    }

    /// The limits of `config` with `cancel` for its cancel flag: for a solver that searches
    /// with its own configuration, holding the flag apart while it changes itself.
    pub(crate) fn with_cancel(config: &Config, cancel: Option<&'a AtomicBool>) -> Limits<'a> {
        Limits {
            deadline: config.budget.time_limit.and_then(|t| Instant::now().checked_add(t)),
            cancel,
            max_nodes: config.budget.max_nodes.unwrap_or(u64::MAX),
            max_solutions: config.budget.max_solutions.unwrap_or(u128::MAX),
        }
    }

    /// The node poll: the cancel flag, then the time limit. The stop, if one of them says so.
    /// Every search loop calls it every [`Config::CHECK_INTERVAL`] nodes (not at every node:
    /// reading the clock costs more than a node).
    #[inline(never)]
    pub(crate) fn expired(&self) -> Option<Stop> {
        if self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Some(Stop::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Stop::TimeLimit);
        }
        None
    }

    /// The node poll of a count ([`Limits::expired`]), then `tick` with the progress estimate
    /// and the counters so far. The stop, if the search must stop.
    #[inline(never)]
    pub(crate) fn interrupt(
        &self,
        tick: Tick<'_>,
        progress: impl FnOnce() -> f64,
        stats: &Stats,
    ) -> Option<Stop> {
        if let Some(stop) = self.expired() {
            return Some(stop);
        }
        tick(progress(), stats).is_break().then_some(Stop::Cancelled)
    }
}

/// The estimated fraction of a tree done (as [`Solver::progress`] estimates it on the
/// links), from the levels below the prefix: at each, the number of options of its item
/// and the set of those not yet tried. Option `k` of `n` is being tried at each level, the
/// current subtree half done.
///
/// [`Solver::progress`]: crate::Solver::progress
pub(crate) fn estimate<'a>(levels: impl Iterator<Item = (u32, &'a [u64])>) -> f64 {
    let mut fraction = 0.0;
    let mut weight = 1.0;
    for (n, untried) in levels {
        let left: u32 = untried.iter().map(|w| w.count_ones()).sum();
        let k = n.saturating_sub(left + 1);
        weight /= f64::from(n.max(1));
        fraction += weight * f64::from(k);
    }
    fraction + weight / 2.0
}

/// Calls `f` with each option of `set`, in order.
#[inline(always)]
pub(crate) fn for_each(set: &[u64], mut f: impl FnMut(usize)) {
    for (w, &word) in set.iter().enumerate() {
        let mut word = word;
        while word != 0 {
            f(64 * w + word.trailing_zeros() as usize);
            word &= word - 1;
        }
    }
}

/// Takes the first option out of `set`.
#[inline(always)]
pub(crate) fn take_first(set: &mut [u64]) -> Option<usize> {
    for (w, word) in set.iter_mut().enumerate() {
        if *word != 0 {
            let o = 64 * w + word.trailing_zeros() as usize;
            *word &= *word - 1;
            return Some(o);
        }
    }
    None
}
