//! N-queens: place `n` queens on an `n x n` board so that no two attack each other.
//!
//! Two ways to solve it:
//!
//! - [`Queens`] is the exact cover model of the textbooks (and of
//!   `testdata/instances/queens8.dlx`): ranks and files are *primary* items, listed in
//!   organ-pipe order (the middle ranks and files first, which makes the
//!   minimum-remaining-values heuristic branch where the board is most constrained), and the
//!   `2n - 1` diagonals and `2n - 1` anti-diagonals are *secondary* items: `6n - 2` items and
//!   `n^2` options. Its search tree has exactly the nodes of Knuth's DLX1 on the instance files.
//! - [`count`] is a bitwise backtracking counter that also counts solutions up to the board's
//!   eight symmetries (OEIS A002562), and [`solutions`] enumerates solutions bitwise in
//!   lexicographic order.
//!
//! # How [`count`] uses the symmetries
//!
//! Each solution is a permutation `p` (rank `r` holds a queen on file `p[r]`); the board's
//! symmetry group (rotations and reflections, order 8) acts on them, and we enumerate, for
//! each orbit, essentially one member:
//!
//! - *A queen in a corner.* At most one queen stands in a corner, so such an orbit has 8
//!   members, exactly two of which have the queen at `(0, 0)`; they are transposes of each
//!   other, and exactly one has the queen of rank 1 on a smaller file than the rank of the
//!   queen of file 1. We enumerate those and count each 8 times.
//! - *No queen in a corner.* The lexicographically least member `p` of the orbit has `p[0]`
//!   at most the distance to the nearest corner of each of the four border queens (the first
//!   entries of the eight images of `p` are exactly these distances). So with rank 0's queen
//!   on file `m`, the queen of the last rank must stand on files `m..=n-1-m` and the queens
//!   of files 0 and `n - 1` on ranks `m..=n-1-m`: those squares are closed from the start.
//!   Each complete board is compared with its seven images: it counts if it is the least,
//!   `8 / s` times where `s` is the number of symmetries that fix it.
//!
//! # How [`count`] searches
//!
//! The search is Knuth's Algorithm X on the exact cover model [`Queens`] (ranks and files
//! primary, in organ-pipe order) with rank 0's queen placed: it branches on the rank *or
//! file* with the fewest open squares, the first on ties, and backs up as soon as one has
//! none. Its first branches are independent tasks, run on threads with rayon (in a corner,
//! the placements of rank 1's queen, which the symmetry breaking depends on). The tree is
//! exactly that of DLX on the open squares (a test checks it, node for node), far smaller
//! than the rank-by-rank tree of the classic counter: the closed squares of the symmetry
//! breaking count from the first node, and every rank and file is looked ahead at each node.
//! Measured for `n = 12, 14, 16`, it has 6.1%, 4.8% and 3.8% of the nodes of the plain
//! rank-by-rank search of every board (the classic counter's mirror visits 50%).
//!
//! A node costs few operations because the board is kept as bit sets twice, by ranks and by
//! files, one *lane* per rank and per file: 16 lanes of 16 bits up to `n = 16` (one AVX2
//! register per view), 32 of 32 bits above. A queen closes its squares with one table row
//! per view, and the choice is a population count of every lane and one minimum over keys
//! that hold the count and the lane's place in the order. See the crate's benchmark
//! `queens` for times and nodes against the classic counter.

use std::cmp::Ordering;
use std::ops::ControlFlow;
use std::sync::atomic::{self, AtomicBool, AtomicU64, AtomicU8, AtomicUsize};

use dancecard_engine::{
    Basis, Budget, Config, Count, OptionId, Problem, ProblemBuilder, Progress, Solver, Stats, Stop,
};

use crate::count::{self, CountRequest, ModelCount};
use rayon::prelude::*;

use crate::rng::SplitMix64;
use crate::Model;

/// The largest board [`count`] and [`solutions`] handle (one bit per file in a `u32`).
pub const MAX_BITS_N: usize = 32;

/// The largest board [`Queens`] builds an exact cover problem for.
pub const MAX_DLX_N: usize = 256;

/// Why a queens computation could not start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QueensError {
    /// The board size is 0 or larger than the method supports.
    #[error("the board size must be between 1 and {max}, not {n}")]
    Size {
        /// The size asked for.
        n: usize,
        /// The largest size of the method.
        max: usize,
    },
    /// The request does not go with the method (a solution limit on the bitwise counter,
    /// threads on the engine's search).
    #[error("{0}")]
    Request(&'static str),
    /// The engine refused the count.
    #[error(transparent)]
    Count(#[from] dancecard_engine::CountError),
    /// The thread pool could not be built.
    #[error("cannot start {threads} threads: {reason}")]
    Threads {
        /// The number of threads asked for.
        threads: usize,
        /// What went wrong.
        reason: String,
    },
}

fn check_size(n: usize, max: usize) -> Result<(), QueensError> {
    if n == 0 || n > max {
        Err(QueensError::Size { n, max })
    } else {
        Ok(())
    }
}

/// The exact cover model of the `n`-queens problem (see the [module docs](self)).
///
/// An answer is the file of the queen on each rank, rank 0 first.
///
/// ```
/// use dancecard_engine::Solver;
/// use dancecard_models::{queens::Queens, Model};
///
/// let queens = Queens::new(8)?;
/// let problem = queens.problem();
/// assert_eq!(problem.item_count(), 6 * 8 - 2);
/// let mut solver = Solver::new(&problem);
/// assert_eq!(solver.count().solutions, 92);
/// assert_eq!(solver.stats().nodes, 1049); // as Knuth's DLX1 on testdata/instances/queens8.dlx
/// let first = solver.first().unwrap();
/// assert_eq!(queens.decode(&first), [3, 6, 4, 2, 0, 5, 7, 1]);
/// # Ok::<(), dancecard_models::queens::QueensError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queens {
    n: usize,
    /// The cell (`n * rank + file`) of each option when the options come in a shuffled order
    /// ([`Queens::shuffled`]); empty when they come rank by rank.
    cells: Vec<u32>,
}

/// A number written in base 36 with digits `0-9a-z` (the item names of the instance files).
fn base36(mut k: usize) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut digits = Vec::new();
    loop {
        digits.push(DIGITS[k % 36]);
        k /= 36;
        if k == 0 {
            break;
        }
    }
    digits.reverse();
    String::from_utf8(digits).unwrap_or_default()
}

impl Queens {
    /// The model of an `n x n` board, `1 <= n <=` [`MAX_DLX_N`].
    pub fn new(n: usize) -> Result<Queens, QueensError> {
        check_size(n, MAX_DLX_N)?;
        Ok(Queens { n, cells: Vec::new() })
    }

    /// The same problem with its options in an order shuffled by `seed` (the same on every
    /// machine): the same solutions, found in another order, which the search's value order
    /// follows. [`first`] restarts on these.
    pub fn shuffled(n: usize, seed: u64) -> Result<Queens, QueensError> {
        check_size(n, MAX_DLX_N)?;
        // `n * n` fits in u32: n is at most MAX_DLX_N.
        let mut cells: Vec<u32> = (0..(n * n) as u32).collect();
        SplitMix64::new(seed).shuffle(&mut cells);
        Ok(Queens { n, cells })
    }

    /// The cell (`n * rank + file`) of option `k`.
    fn cell(&self, k: usize) -> usize {
        self.cells.get(k).map_or(k, |&c| c as usize)
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Ranks in organ-pipe order: the middle one first, then alternately below and above.
    pub fn organ_pipe(n: usize) -> Vec<usize> {
        let mid = n / 2;
        let mut order = vec![mid];
        for k in 1..=n {
            if k <= mid {
                order.push(mid - k);
            }
            if mid + k < n {
                order.push(mid + k);
            }
        }
        order
    }

    /// The option of the queen on `rank`, `file` (rank by rank, unless [`Queens::shuffled`]:
    /// then found by a scan of the `n * n` options).
    pub fn option_of(&self, rank: usize, file: usize) -> usize {
        let cell = rank * self.n + file;
        if self.cells.is_empty() {
            return cell;
        }
        self.cells.iter().position(|&c| c as usize == cell).unwrap_or(cell)
    }
}

impl Model for Queens {
    type Answer = Vec<usize>;

    fn problem(&self) -> Problem {
        let n = self.n;
        let mut b = ProblemBuilder::new();
        let mut rank = vec![None; n];
        let mut file = vec![None; n];
        // The names are fixed and valid, and there are far fewer than the builder's limits.
        for r in Queens::organ_pipe(n) {
            rank[r] = b.primary(&format!("r{}", base36(r))).ok();
            file[r] = b.primary(&format!("c{}", base36(r))).ok();
        }
        let mut diag = Vec::with_capacity(2 * n - 1);
        let mut anti = Vec::with_capacity(2 * n - 1);
        for k in 0..2 * n - 1 {
            diag.push(b.secondary(&format!("a{}", base36(k))).ok());
            anti.push(b.secondary(&format!("b{}", base36(k))).ok());
        }
        for k in 0..n * n {
            let (r, c) = (self.cell(k) / n, self.cell(k) % n);
            let items = [rank[r], file[c], diag[r + c], anti[r + n - 1 - c]];
            let _ = b.option(items.into_iter().flatten());
        }
        b.build()
    }

    fn decode(&self, solution: &[OptionId]) -> Vec<usize> {
        let mut files = vec![0; self.n];
        for o in solution {
            let k = o.index();
            if k < self.n * self.n {
                let cell = self.cell(k);
                files[cell / self.n] = cell % self.n;
            }
        }
        files
    }
}

/// Nodes of [`first`]'s search on [`Queens::new`] before it restarts.
pub const FIRST_BUDGET: u64 = 1_000_000;

/// Nodes of [`first`]'s first restart; each later one has twice as many.
pub const RESTART_BUDGET: u64 = 100_000;

/// What [`first`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct First {
    /// A solution (the file of the queen on each rank), if one was found.
    pub board: Option<Vec<usize>>,
    /// Why the last search ended: [`Stop::SolutionLimit`] with a board, [`Stop::Exhausted`]
    /// when there is none, or the limit of the caller's `config` that stopped it.
    pub stop: Stop,
    /// The counters of all the searches together.
    pub stats: Stats,
    /// The searches restarted on shuffled options (0: the board is the first solution of the
    /// search on [`Queens::new`]).
    pub restarts: u32,
}

/// A solution by DLX that large boards do not stall.
///
/// The search on [`Queens::new`] (organ-pipe order, minimum remaining values) has a heavy tail:
/// its first solution takes 501 nodes for `n = 51`, 6.1 million for 52 and more than 100
/// million for 64. So after [`FIRST_BUDGET`] nodes, `first` restarts on
/// [`Queens::shuffled`] options (seeds 1, 2, ...: another value order each time), with
/// [`RESTART_BUDGET`] nodes, then twice as many each time, until a search ends. For `n <=
/// 51` the board is the search's first solution; from 52 to 140, and for 200 and 256, the
/// search finds one in its first million nodes for 8 sizes and the first restart within 715
/// nodes for the 83 others.
///
/// `config`'s limits apply to all the searches together (its `max_solutions` is replaced by
/// 1); `tick` is called about every [`Config::CHECK_INTERVAL`] nodes, and `Break` stops.
///
/// ```
/// use std::ops::ControlFlow;
/// use dancecard_engine::{Config, Stop};
/// use dancecard_models::queens::{first, is_solution};
///
/// let found = first(64, &Config::default(), &mut |_| ControlFlow::Continue(()))?;
/// assert!(found.restarts > 0 && found.stop == Stop::SolutionLimit);
/// assert!(is_solution(&found.board.unwrap()));
/// # Ok::<(), dancecard_models::queens::QueensError>(())
/// ```
pub fn first(
    n: usize,
    config: &Config,
    tick: &mut dyn FnMut(&Solver) -> ControlFlow<()>,
) -> Result<First, QueensError> {
    let mut found =
        First { board: None, stop: Stop::Exhausted, stats: Stats::default(), restarts: 0 };
    let mut budget = FIRST_BUDGET;
    loop {
        let model = match found.restarts {
            0 => Queens::new(n)?,
            r => Queens::shuffled(n, u64::from(r))?,
        };
        let left = config.budget.max_nodes.map(|m| m.saturating_sub(found.stats.nodes));
        let time_left = config.budget.time_limit.map(|t| t.saturating_sub(found.stats.elapsed));
        let restart = left.map_or(true, |m| m > budget);
        let run = Config {
            budget: Budget {
                max_solutions: Some(1),
                max_nodes: Some(left.map_or(budget, |m| m.min(budget))),
                time_limit: time_left,
                ..config.budget.clone()
            },
            ..config.clone()
        };
        let mut board = None;
        let (outcome, stats) = crate::watch::search(
            &model.problem(),
            run,
            crate::watch::Callbacks {
                solution: &mut |s| {
                    board = Some(model.decode(&s.to_vec()));
                    ControlFlow::Continue(())
                },
                tick: &mut *tick,
            },
        );
        found.stats.add(&stats);
        found.stop = outcome.stop;
        found.board = board;
        if outcome.stop != Stop::NodeLimit || !restart {
            return Ok(found);
        }
        budget = if found.restarts == 0 { RESTART_BUDGET } else { budget.saturating_mul(2) };
        found.restarts += 1;
    }
}

/// The result of [`count`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueensCount {
    /// Solutions (OEIS A000170).
    pub total: u64,
    /// Solutions up to rotations and reflections (OEIS A002562).
    pub distinct: u64,
    /// Queens placed by the search (its nodes); pre-placed border queens count one per task.
    pub nodes: u64,
    /// False when the search was stopped early (the counts are then partial).
    pub complete: bool,
    /// Why the count ended: [`Stop::Exhausted`] (complete), [`Stop::NodeLimit`] or
    /// [`Stop::Cancelled`].
    pub stop: Stop,
}

/// Counts the solutions of `n`-queens, in total and up to symmetry, on one thread.
///
/// ```
/// let c = dancecard_models::queens::count(8)?;
/// assert_eq!((c.total, c.distinct), (92, 12));
/// # Ok::<(), dancecard_models::queens::QueensError>(())
/// ```
pub fn count(n: usize) -> Result<QueensCount, QueensError> {
    count_with(n, &CountRequest { threads: 1, ..CountRequest::default() })
}

/// How [`count_by`] counts the boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// The exact cover model [`Queens`] on the engine (Knuth's node counts; boards up to
    /// [`MAX_DLX_N`]); up to symmetry, each solution is tested with [`is_canonical`].
    Dlx,
    /// The bitwise counter [`count_with`]: the board's symmetries and threads (boards up to
    /// [`MAX_BITS_N`]); it counts whole classes of solutions, so it takes no solution limit.
    Bits,
}

impl Method {
    /// The method of a count that asks for none: the bitwise counter, unless a solution
    /// limit asks for the engine's search (the only one that can stop after `k` solutions).
    pub fn default_for(request: &CountRequest<'_>) -> Method {
        if request.budget.max_solutions.is_some() {
            Method::Dlx
        } else {
            Method::Bits
        }
    }

    /// Its name, as `dancecard queens --method` and the web API's `method` write it.
    pub fn name(self) -> &'static str {
        match self {
            Method::Dlx => "dlx",
            Method::Bits => "bits",
        }
    }
}

/// Counts the solutions of `n`-queens by `method` (`None`: [`Method::default_for`]) within
/// `request`'s limits: the one count of the command line, the web API and the Python package.
/// The bitwise counter always counts up to symmetry too; the engine's search does when
/// [`CountRequest::distinct`] asks (visiting every solution), else it counts by the engine's
/// one way in (the plain search or the memoised one, whichever pays).
///
/// ```
/// use dancecard_models::count::CountRequest;
/// use dancecard_models::queens::{self, Method};
///
/// let request = CountRequest { distinct: true, ..CountRequest::default() };
/// let bits = queens::count_by(10, Some(Method::Bits), &request)?;
/// let dlx = queens::count_by(10, Some(Method::Dlx), &request)?;
/// assert_eq!((bits.total.to_string(), bits.distinct), (dlx.total.to_string(), dlx.distinct));
/// assert_eq!(dlx.total.to_string(), "724");
/// # Ok::<(), dancecard_models::queens::QueensError>(())
/// ```
///
/// # Errors
///
/// [`QueensError::Size`] for a board the method does not take, [`QueensError::Request`] for
/// a solution limit on [`Method::Bits`] or threads on [`Method::Dlx`],
/// [`QueensError::Threads`] when the thread pool cannot start.
pub fn count_by(
    n: usize,
    method: Option<Method>,
    request: &CountRequest<'_>,
) -> Result<ModelCount, QueensError> {
    let method = method.unwrap_or_else(|| Method::default_for(request));
    match method {
        Method::Bits => {
            let started = std::time::Instant::now();
            let c = count_with(n, request)?;
            let stats = Stats {
                nodes: c.nodes,
                updates: 0,
                solutions: u128::from(c.total),
                elapsed: started.elapsed(),
            };
            Ok(ModelCount {
                method: "bits",
                count_method: "bits",
                total: Count::from(c.total),
                distinct: Some(Count::from(c.distinct)),
                stats,
                stop: c.stop,
            })
        }
        Method::Dlx => {
            if request.threads > 1 {
                return Err(QueensError::Request(
                    "threads apply to the bitwise counter (method bits), not to dlx",
                ));
            }
            let model = Queens::new(n)?;
            let problem = model.problem();
            let mut canonical = |options: &[OptionId]| is_canonical(&model.decode(options));
            Ok(count::on_engine(&problem, request, &mut canonical)?)
        }
    }
}

/// Counts like [`count`] within `request`: on [`CountRequest::threads`] threads (0: one per
/// core), stopped by the budget's cancel flag or time limit (looked at every [`POLL_STEPS`]
/// branching steps of each thread, well under a millisecond, and between tasks) or after
/// about its `max_nodes` queens placed over all threads (added up every [`POLL_STEPS`]
/// steps, so the count may pass the limit by that many steps per thread),
/// reporting the fraction of tasks done to [`CountRequest::progress`] after each task. It
/// always counts up to symmetry too; the memo's budget does not apply.
///
/// # Errors
///
/// [`QueensError::Size`] past [`MAX_BITS_N`], [`QueensError::Request`] for a solution limit
/// (the counter counts whole classes of symmetric boards), [`QueensError::Threads`] when the
/// thread pool cannot start.
pub fn count_with(n: usize, request: &CountRequest<'_>) -> Result<QueensCount, QueensError> {
    if request.budget.max_solutions.is_some() {
        return Err(QueensError::Request(
            "a solution limit needs the dlx method: the bitwise counter counts whole classes \
             of symmetric boards",
        ));
    }
    check_size(n, MAX_BITS_N)?;
    let threads = match request.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        t => t,
    };
    if n <= 3 {
        // One queen on one square; no solution on 2 x 2 and 3 x 3.
        let total = u64::from(n == 1);
        let stop = Stop::Exhausted;
        return Ok(QueensCount { total, distinct: total, nodes: 1, complete: true, stop });
    }
    let searcher = Searcher::new(n);
    let tasks = searcher.tasks();
    let control = Control::new(request, tasks.len());
    // A task's counts, and whether it ran to its end (a task cut short, or not started, makes
    // the total partial; what it counted is still in it).
    let run = |task: &Task| -> (Tally, bool) {
        if control.poll(0) {
            return (Tally::default(), false);
        }
        let tally = searcher.run(task, &control);
        if control.stopped().is_some() {
            return (tally, false);
        }
        control.task_done(&tally);
        (tally, true)
    };
    let sum = |a: (Tally, bool), b: (Tally, bool)| (a.0.add(b.0), a.1 && b.1);
    let (tally, complete) = if threads <= 1 {
        tasks.iter().map(run).fold((Tally::default(), true), sum)
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| QueensError::Threads { threads, reason: e.to_string() })?;
        pool.install(|| tasks.par_iter().map(run).reduce(|| (Tally::default(), true), sum))
    };
    let stop =
        if complete { Stop::Exhausted } else { control.stopped().unwrap_or(Stop::Cancelled) };
    Ok(QueensCount {
        total: tally.total,
        distinct: tally.distinct,
        nodes: tally.nodes,
        complete,
        stop,
    })
}

/// Counters of one task.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    total: u64,
    distinct: u64,
    nodes: u64,
}

impl Tally {
    fn add(self, o: Tally) -> Tally {
        Tally {
            total: self.total + o.total,
            distinct: self.distinct + o.distinct,
            nodes: self.nodes + o.nodes,
        }
    }
}

/// Branching steps of a task between two looks at the cancel flag and the node budget
/// ([`CountRequest::cancel`], [`CountRequest::max_nodes`]): a step costs a few nanoseconds,
/// so a look comes well under a millisecond apart, and costs nothing measurable.
pub const POLL_STEPS: u32 = 4096;

/// The stopping rules of a count, shared by its threads, and its progress reports.
struct Control<'a> {
    /// Where progress goes.
    request: &'a CountRequest<'a>,
    /// The tasks of the count, and how many have ended.
    tasks: usize,
    finished: AtomicUsize,
    /// The solutions of the tasks that have ended.
    solutions: AtomicU64,
    /// Polls so far: every [`Control::REPORT_EVERY`]-th reports progress.
    polls: AtomicU64,
    cancel: Option<&'a AtomicBool>,
    /// The node budget (`u64::MAX`: none).
    max_nodes: u64,
    /// When the time limit passes.
    deadline: Option<std::time::Instant>,
    /// Nodes reported by the polls of every task so far.
    spent: AtomicU64,
    /// Why the count stops: 0 not yet, 1 the node budget, 2 the cancel flag, 3 the time limit.
    stop: AtomicU8,
}

impl<'a> Control<'a> {
    /// Polls between two progress reports: about every 64 x 4,096 branching steps of a
    /// thread, a few milliseconds (the elapsed time and the nodes per second move on even
    /// when the tasks are long).
    const REPORT_EVERY: u64 = 64;

    fn new(request: &'a CountRequest<'a>, tasks: usize) -> Control<'a> {
        Control {
            request,
            tasks,
            finished: AtomicUsize::new(0),
            solutions: AtomicU64::new(0),
            polls: AtomicU64::new(0),
            cancel: request.budget.cancel.as_deref(),
            max_nodes: request.budget.max_nodes.unwrap_or(u64::MAX),
            deadline: request.budget.deadline(std::time::Instant::now()),
            spent: AtomicU64::new(0),
            stop: AtomicU8::new(0),
        }
    }

    /// Adds `nodes` newly placed queens and says whether the count must stop (and records
    /// why, the first time).
    #[cold]
    #[inline(never)]
    fn poll(&self, nodes: u64) -> bool {
        let spent = self.spent.fetch_add(nodes, atomic::Ordering::Relaxed) + nodes;
        if self.polls.fetch_add(1, atomic::Ordering::Relaxed) % Self::REPORT_EVERY == 0 {
            self.report(spent);
        }
        let why = if self.cancel.is_some_and(|c| c.load(atomic::Ordering::Relaxed)) {
            2
        } else if spent >= self.max_nodes {
            1
        } else if self.deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            3
        } else {
            return self.stop.load(atomic::Ordering::Relaxed) != 0;
        };
        let _ = self.stop.compare_exchange(
            0,
            why,
            atomic::Ordering::Relaxed,
            atomic::Ordering::Relaxed,
        );
        true
    }

    /// Reports the tasks done of all, their solutions, and `nodes` placed so far.
    fn report(&self, nodes: u64) {
        let done = self.finished.load(atomic::Ordering::Relaxed);
        self.request.report(Progress {
            fraction: done as f64 / self.tasks.max(1) as f64,
            basis: Basis::Units,
            solutions: u128::from(self.solutions.load(atomic::Ordering::Relaxed)),
            nodes,
        });
    }

    /// Records a task run to its end, and reports.
    fn task_done(&self, tally: &Tally) {
        let _ = self.solutions.fetch_add(tally.total, atomic::Ordering::Relaxed);
        let _ = self.finished.fetch_add(1, atomic::Ordering::Relaxed);
        self.report(self.spent.load(atomic::Ordering::Relaxed));
    }

    /// Why the count stopped, if it did.
    fn stopped(&self) -> Option<Stop> {
        match self.stop.load(atomic::Ordering::Relaxed) {
            0 => None,
            1 => Some(Stop::NodeLimit),
            3 => Some(Stop::TimeLimit),
            _ => Some(Stop::Cancelled),
        }
    }
}

/// A unit of work: rank 0's queen and a second queen placed, the others searched.
#[derive(Clone, Debug)]
struct Task {
    /// The file of the queen on rank 0.
    top: usize,
    /// The square (rank, file) of the second queen: on rank 1 in a corner task, else on the
    /// rank or file the search branches on first.
    then: (usize, usize),
}

/// The board of one size, in the lane width that fits it: 16 lanes of 16 bits up to
/// `n = 16` (a view of the board in one AVX2 register), 32 lanes of 32 bits above.
enum Searcher {
    Narrow(Box<Lanes<u16, 16>>),
    Wide(Box<Lanes<u32, 32>>),
}

impl Searcher {
    fn new(n: usize) -> Searcher {
        if n <= 16 {
            Searcher::Narrow(Box::new(Lanes::new(n)))
        } else {
            Searcher::Wide(Box::new(Lanes::new(n)))
        }
    }

    /// The independent tasks whose results add up to the counts of `n >= 4` queens (see
    /// [`Lanes::tasks`]).
    fn tasks(&self) -> Vec<Task> {
        match self {
            Searcher::Narrow(lanes) => lanes.tasks(),
            Searcher::Wide(lanes) => lanes.tasks(),
        }
    }

    fn run(&self, task: &Task, control: &Control<'_>) -> Tally {
        match self {
            Searcher::Narrow(lanes) => lanes.run(task, control),
            Searcher::Wide(lanes) => lanes.run(task, control),
        }
    }
}

/// The sets of squares of one rank or one file: a bit per square.
trait Word:
    Copy
    + Eq
    + std::fmt::Debug
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitAndAssign
    + std::ops::BitOr<Output = Self>
    + std::ops::Not<Output = Self>
{
    const ZERO: Self;
    /// The word with bit `k` set (`k` below the width).
    fn bit(k: usize) -> Self;
    /// The number of bits set.
    fn ones(self) -> u16;
    /// The word as 32 bits.
    fn wide(self) -> u32;
}

/// [`Word`] for the unsigned integer types.
macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const ZERO: $t = 0;
            #[inline(always)]
            fn bit(k: usize) -> $t {
                1 << k
            }
            #[inline(always)]
            fn ones(self) -> u16 {
                self.count_ones() as u16
            }
            #[inline(always)]
            fn wide(self) -> u32 {
                u32::from(self)
            }
        }
    };
}

word!(u16);
word!(u32);

/// The board seen by ranks and by files, for boards of at most `L` squares a side: *lane*
/// `k` stands for the rank `order[k]` and for the file `order[k]`, in organ-pipe order (the
/// middle first), as the items of the exact cover model [`Queens`] are.
struct Lanes<W, const L: usize> {
    n: usize,
    /// `order[k]`: the rank (and the file) of lane `k`.
    order: [usize; L],
    /// `lane[x]`: the lane of rank (and file) `x`.
    lane: [usize; L],
    /// `attacks[a * L + b]`: the squares a queen on rank `a`, file `b` attacks, as the
    /// ranks' sets (lane `k`: the files attacked on rank `order[k]`). By symmetry,
    /// `attacks[b * L + a]` is the same queen's attacks as the files' sets.
    attacks: Vec<[W; L]>,
}

/// The open squares of a board (squares no queen attacks and that the symmetry breaking
/// allows), twice: by ranks and by files.
///
/// - **(Q1)** For a rank `order[k]` and a file `f` without a queen, bit `f` of `rows[k]` is
///   set iff bit `order[k]` of `cols[lane[f]]` is set: the two views hold the same squares.
/// - **(Q2)** Bit `k` of `ranks_left` (of `files_left`) is set iff the rank (the file) of
///   lane `k` has no queen; the squares of the other lanes are not looked at.
#[derive(Clone, Copy, Debug)]
struct Board<W, const L: usize> {
    /// `rows[k]`: the open squares of rank `order[k]`, one bit per file.
    rows: [W; L],
    /// `cols[k]`: the open squares of file `order[k]`, one bit per rank.
    cols: [W; L],
    ranks_left: W,
    files_left: W,
}

/// The counting search of one task (see [`Lanes::run`]).
struct Walk<'l, W, const L: usize> {
    lanes: &'l Lanes<W, L>,
    /// The count's stopping rules, looked at every [`POLL_STEPS`] branching steps.
    control: &'l Control<'l>,
    /// Whether rank 0's queen is in a corner (each board found is then an orbit of 8).
    corner: bool,
    /// `p[r]`: the file of the queen on rank `r`, for the ranks filled on the current path.
    p: [usize; MAX_BITS_N],
    tally: Tally,
}

/// A key of [`Lanes::choose`] for a lane whose rank or file has its queen.
const DONE: u16 = 1 << 13;

impl<W: Word, const L: usize> Lanes<W, L> {
    /// The lanes of an `n x n` board, `4 <= n <= L`.
    fn new(n: usize) -> Lanes<W, L> {
        let mut order = [0; L];
        let mut lane = [0; L];
        for (k, x) in Queens::organ_pipe(n).into_iter().enumerate() {
            order[k] = x;
            lane[x] = k;
        }
        let mut attacks = vec![[W::ZERO; L]; L * L];
        for a in 0..n {
            for b in 0..n {
                let set = &mut attacks[a * L + b];
                for (k, word) in set.iter_mut().enumerate().take(n) {
                    let d = order[k].abs_diff(a);
                    *word = W::bit(b);
                    for c in [b + d, b.wrapping_sub(d)] {
                        if c < n {
                            *word = *word | W::bit(c);
                        }
                    }
                }
            }
        }
        Lanes { n, order, lane, attacks }
    }

    /// The independent tasks whose results add up to the counts (see [`Lanes::start`]): in
    /// a corner, every placement of rank 1's queen; otherwise, with rank 0's queen on file
    /// `m`, every open square of the rank or file the search branches on first.
    fn tasks(&self) -> Vec<Task> {
        let n = self.n;
        let mut tasks = Vec::new();
        for top in 0..=(n - 1) / 2 {
            if top == 0 {
                for s in 0..n {
                    let task = Task { top, then: (1, s) };
                    if self.start(&task).is_some() {
                        tasks.push(task);
                    }
                }
                continue;
            }
            let Some(board) = self.open(top, 0) else { continue };
            let (_, x, by_file, mut open) = self.branch(&board);
            while open != 0 {
                let y = open.trailing_zeros() as usize;
                open &= open - 1;
                tasks.push(Task { top, then: square(x, y, by_file) });
            }
        }
        tasks
    }

    /// The board of `task`: the symmetry breaking's squares closed, then the task's two
    /// queens placed; `None` if one of them stands on a closed square.
    ///
    /// With rank 0's queen on file `m >= 1`, the least member of an orbit has its three
    /// other border queens at least `m` from every corner: the queen of the last rank on
    /// files `m..=n-1-m`, the queens of files 0 and `n - 1` on ranks `m..=n-1-m`. With
    /// `m = 0` (a corner), the queen of file 1 stands below rank 1's queen's file `s`
    /// (ranks `2..=s` closed on file 1): of the two members of the orbit with a queen on
    /// `(0, 0)`, transposes of each other, that picks exactly one.
    fn start(&self, task: &Task) -> Option<Board<W, L>> {
        let (r, f) = task.then;
        let mut b = self.open(task.top, f)?;
        if f >= self.n || b.rows[self.lane[r % L]] & W::bit(f) == W::ZERO {
            return None;
        }
        self.place(&mut b, r, f);
        Some(b)
    }

    /// The board with the symmetry breaking's squares closed and the queen of rank 0 on
    /// file `m` (in a corner, `s` is the file of rank 1's queen, which the closed squares
    /// depend on); `None` if it stands on a closed square.
    fn open(&self, m: usize, s: usize) -> Option<Board<W, L>> {
        let n = self.n;
        let mut b = Board {
            rows: [W::ZERO; L],
            cols: [W::ZERO; L],
            ranks_left: W::ZERO,
            files_left: W::ZERO,
        };
        for k in 0..n {
            for x in 0..n {
                b.rows[k] = b.rows[k] | W::bit(x);
                b.cols[k] = b.cols[k] | W::bit(x);
            }
            b.ranks_left = b.ranks_left | W::bit(k);
            b.files_left = b.files_left | W::bit(k);
        }
        let last = n - 1;
        let mut close = |r: usize, f: usize| {
            b.rows[self.lane[r]] &= !W::bit(f);
            b.cols[self.lane[f]] &= !W::bit(r);
        };
        if m > 0 {
            for x in (0..m).chain(last - m + 1..n) {
                close(last, x);
                close(x, 0);
                close(x, last);
            }
        } else {
            for r in 2..=s.min(last) {
                close(r, 1);
            }
        }
        if m >= n || b.rows[self.lane[0]] & W::bit(m) == W::ZERO {
            return None;
        }
        self.place(&mut b, 0, m);
        Some(b)
    }

    /// [`Lanes::place`] in the search (checking (Q1) after it in tests).
    #[inline(always)]
    fn put(&self, b: &mut Board<W, L>, r: usize, f: usize) {
        self.place(b, r, f);
        #[cfg(test)]
        self.check(b);
    }

    /// Puts a queen on rank `r`, file `f`: closes the squares it attacks, in both views.
    #[inline(always)]
    fn place(&self, b: &mut Board<W, L>, r: usize, f: usize) {
        let as_ranks: [W; L] = self.attacks[(r * L + f) % (L * L)];
        let as_files: [W; L] = self.attacks[(f * L + r) % (L * L)];
        for (row, &a) in b.rows.iter_mut().zip(&as_ranks) {
            *row &= !a;
        }
        for (col, &a) in b.cols.iter_mut().zip(&as_files) {
            *col &= !a;
        }
        b.ranks_left &= !W::bit(self.lane[r % L]);
        b.files_left &= !W::bit(self.lane[f % L]);
    }

    /// The rank or file to branch on: the first, in lane order (rank then file), with the
    /// fewest open squares. The key of the rank of lane `k` is `2k`, of its file `2k + 1`,
    /// plus 128 times its number of open squares, plus [`DONE`] if it has its queen; the
    /// least key is returned.
    #[inline(always)]
    fn choose(b: &Board<W, L>) -> u16 {
        let mut best = u16::MAX;
        for k in 0..L {
            let rank_done = if b.ranks_left & W::bit(k) == W::ZERO { DONE } else { 0 };
            let file_done = if b.files_left & W::bit(k) == W::ZERO { DONE } else { 0 };
            let rank = b.rows[k].ones() << 7 | (2 * k as u16) | rank_done;
            let file = b.cols[k].ones() << 7 | (2 * k as u16 + 1) | file_done;
            best = best.min(rank.min(file));
        }
        best
    }

    /// Checks (Q1) on `b`: on the ranks and files without a queen, the two views hold the
    /// same open squares, and none past the board. (Q2) holds by construction: a lane's bit
    /// leaves `ranks_left` or `files_left` only in [`Lanes::place`], with its queen.
    #[cfg(test)]
    fn check(&self, b: &Board<W, L>) {
        let n = self.n;
        for k in 0..n {
            assert_eq!(b.rows[k].wide() >> n, 0, "(Q1) rank lane {k} past the board");
            assert_eq!(b.cols[k].wide() >> n, 0, "(Q1) file lane {k} past the board");
            if b.ranks_left & W::bit(k) == W::ZERO {
                continue;
            }
            for f in 0..n {
                if b.files_left & W::bit(self.lane[f]) == W::ZERO {
                    continue;
                }
                let by_rank = b.rows[k] & W::bit(f) != W::ZERO;
                let by_file = b.cols[self.lane[f]] & W::bit(self.order[k]) != W::ZERO;
                assert_eq!(by_rank, by_file, "(Q1) rank {}, file {f}", self.order[k]);
            }
        }
    }

    /// The rank or file to branch on ([`Lanes::choose`]): its number of open squares (0 if
    /// some rank or file has none), the rank or file, whether it is a file, and its open
    /// squares.
    #[inline(always)]
    fn branch(&self, b: &Board<W, L>) -> (u16, usize, bool, u32) {
        let best = Lanes::choose(b);
        let k = usize::from((best & 127) >> 1) % L;
        let by_file = best & 1 == 1;
        let open = if by_file { b.cols[k] } else { b.rows[k] }.wide();
        (best >> 7, self.order[k], by_file, open)
    }

    /// Counts the boards of `task`.
    fn run(&self, task: &Task, control: &Control<'_>) -> Tally {
        let mut walk = Walk {
            lanes: self,
            control,
            corner: task.top == 0,
            p: [0; MAX_BITS_N],
            tally: Tally::default(),
        };
        if let Some(board) = self.start(task) {
            walk.p[0] = task.top;
            walk.p[task.then.0 % MAX_BITS_N] = task.then.1;
            walk.tally.nodes = 1;
            walk.run_best(board);
        }
        if walk.corner {
            walk.tally.total = 8 * walk.tally.distinct;
        }
        walk.tally
    }
}

/// A level of [`Walk::search`]: the board it branches from, the rank or file chosen and
/// its open squares not yet tried.
#[derive(Clone, Copy, Debug)]
struct Frame<W, const L: usize> {
    board: Board<W, L>,
    /// The rank or file branched on.
    x: usize,
    by_file: bool,
    open: u32,
}

impl<W: Word, const L: usize> Walk<'_, W, L> {
    /// [`Walk::search`] compiled for the CPU: with AVX2 (all lanes at once) where it has it.
    fn run_best(&mut self, board: Board<W, L>) {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
        {
            // SAFETY: the CPU has every feature `search_v3` is compiled for.
            return unsafe { self.search_v3(board) };
        }
        self.search(board)
    }

    /// [`Walk::search`] for x86-64-v3 CPUs.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
    unsafe fn search_v3(&mut self, board: Board<W, L>) {
        self.search(board)
    }

    /// The search below `board` (the task's two queens placed): branches on the rank or
    /// file with the fewest open squares, the first in lane order on ties (the tree of
    /// Knuth's DLX on [`Queens`], less what the symmetry breaking closes), and backs up as
    /// soon as one has none. Iterative: a frame per level with a choice to make (a forced
    /// queen, on the only open square of a rank or file, is placed without one).
    #[inline(always)]
    fn search(&mut self, mut board: Board<W, L>) {
        let lanes = self.lanes;
        let n = lanes.n;
        let mut p = self.p;
        let mut nodes = self.tally.nodes;
        let (mut total, mut distinct) = (self.tally.total, self.tally.distinct);
        let mut frames = [Frame { board, x: 0, by_file: false, open: 0 }; MAX_BITS_N];
        // Frames in use: `frames[..level]`.
        let mut level = 0;
        // Branching steps until the next look at the stopping rules, and the nodes counted
        // at the last look.
        let mut poll = POLL_STEPS;
        let mut polled = nodes;
        'enter: loop {
            if board.ranks_left == W::ZERO {
                // A complete board.
                if self.corner {
                    distinct += 1;
                } else if let Some(orbit) = orbit_if_least(&p[..n]) {
                    total += orbit;
                    distinct += 1;
                }
            } else {
                let (squares, x, by_file, open) = lanes.branch(&board);
                if squares != 0 {
                    if squares == 1 {
                        let (r, f) = square(x, open.trailing_zeros() as usize, by_file);
                        nodes += 1;
                        p[r % MAX_BITS_N] = f;
                        lanes.put(&mut board, r, f);
                        continue 'enter;
                    }
                    frames[level % MAX_BITS_N] = Frame { board, x, by_file, open };
                    level += 1;
                }
            }
            // The next square of the deepest frame with one left.
            loop {
                if level == 0 {
                    let _ = self.control.spent.fetch_add(nodes - polled, atomic::Ordering::Relaxed);
                    self.tally = Tally { total, distinct, nodes };
                    return;
                }
                poll -= 1;
                if poll == 0 {
                    poll = POLL_STEPS;
                    if self.control.poll(nodes - polled) {
                        // Stopped: the counts so far are partial.
                        self.tally = Tally { total, distinct, nodes };
                        return;
                    }
                    polled = nodes;
                }
                let frame = &mut frames[(level - 1) % MAX_BITS_N];
                if frame.open == 0 {
                    level -= 1;
                    continue;
                }
                let (r, f) = square(frame.x, frame.open.trailing_zeros() as usize, frame.by_file);
                frame.open &= frame.open - 1;
                nodes += 1;
                p[r % MAX_BITS_N] = f;
                board = frame.board;
                lanes.put(&mut board, r, f);
                continue 'enter;
            }
        }
    }
}

/// The square (rank, file) of the open square `y` of rank `x`, or of file `x` if `by_file`.
#[inline(always)]
fn square(x: usize, y: usize, by_file: bool) -> (usize, usize) {
    if by_file {
        (y, x)
    } else {
        (x, y)
    }
}

/// If the permutation `p` is the lexicographically least of its images under the eight
/// symmetries of the board, the size of its orbit (1, 2, 4 or 8); otherwise `None`.
pub(crate) fn orbit_if_least(p: &[usize]) -> Option<u64> {
    let n = p.len();
    let last = n - 1;
    // The first entries of the seven images: the distances of the four border queens to
    // the corners. Most boards are settled by them alone (no image starts lower, and none
    // as low: then no symmetry fixes `p` either).
    let rank_of = |file: usize| p.iter().position(|&f| f == file).unwrap_or(0);
    let (q0, q_last) = (rank_of(0), rank_of(last));
    let firsts = [last - p[0], p[last], last - p[last], q0, last - q0, q_last, last - q_last];
    let least = firsts.iter().copied().min().unwrap_or(usize::MAX);
    match least.cmp(&p[0]) {
        Ordering::Less => return None,
        Ordering::Greater => return Some(8),
        Ordering::Equal => {}
    }
    // The inverse permutation: on the stack up to 32 files, on the heap past them (the DLX
    // model takes boards up to 256).
    let mut inverse = [0usize; MAX_BITS_N];
    let mut wide = Vec::new();
    let q: &mut [usize] = if n <= MAX_BITS_N {
        &mut inverse[..n]
    } else {
        wide.resize(n, 0);
        &mut wide
    };
    for (r, &c) in p.iter().enumerate() {
        q[c] = r;
    }
    let q = &*q;
    // One comparison per symmetry, each with its own code (a `match` on the symmetry inside
    // the loop became an indirect jump, mispredicted at nearly every board).
    let orders = [
        compare(p, |r| last - p[r]),
        compare(p, |r| p[last - r]),
        compare(p, |r| last - p[last - r]),
        compare(p, |r| q[r]),
        compare(p, |r| last - q[r]),
        compare(p, |r| q[last - r]),
        compare(p, |r| last - q[last - r]),
    ];
    if orders.contains(&Ordering::Less) {
        return None;
    }
    let fixed = 1 + orders.iter().filter(|o| o.is_eq()).count() as u64;
    Some(8 / fixed)
}

/// The order of the image `r -> image(r)` of `p` against `p`, lexicographically.
fn compare(p: &[usize], image: impl Fn(usize) -> usize) -> Ordering {
    for (r, &pr) in p.iter().enumerate() {
        let order = image(r).cmp(&pr);
        if order.is_ne() {
            return order;
        }
    }
    Ordering::Equal
}

/// Calls `visit` with every solution of `n`-queens in lexicographic order (the file of the
/// queen on each rank) until it returns `Break`; returns the number of queens placed.
///
/// ```
/// use std::ops::ControlFlow;
/// let mut all = Vec::new();
/// dancecard_models::queens::solutions(4, |p| {
///     all.push(p.to_vec());
///     ControlFlow::Continue(())
/// })?;
/// assert_eq!(all, [[1, 3, 0, 2], [2, 0, 3, 1]]);
/// # Ok::<(), dancecard_models::queens::QueensError>(())
/// ```
pub fn solutions<F>(n: usize, visit: F) -> Result<u64, QueensError>
where
    F: FnMut(&[usize]) -> ControlFlow<()>,
{
    solutions_limited(n, &Budget::default(), visit).map(|listing| listing.nodes)
}

/// What [`solutions_limited`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Listing {
    /// Queens placed.
    pub nodes: u64,
    /// Why it ended: [`Stop::Exhausted`] (every solution visited), [`Stop::Visitor`] (the
    /// visitor returned `Break`), [`Stop::SolutionLimit`], [`Stop::NodeLimit`],
    /// [`Stop::TimeLimit`] or [`Stop::Cancelled`].
    pub stop: Stop,
}

/// [`solutions`] within `budget`: a solution limit, a node limit (queens placed), a time limit
/// and a cancel flag (the last two looked at every 4,096 queens placed: well under a
/// millisecond), for boards whose next solution may be far away (the lexicographic search is
/// rank by rank, with no heuristic).
///
/// ```
/// use std::ops::ControlFlow;
/// use dancecard_engine::{Budget, Stop};
/// use dancecard_models::queens::solutions_limited;
///
/// let limits = Budget::new().max_nodes(10);
/// let listing = solutions_limited(8, &limits, |_| ControlFlow::Continue(()))?;
/// assert_eq!((listing.nodes, listing.stop), (10, Stop::NodeLimit));
/// # Ok::<(), dancecard_models::queens::QueensError>(())
/// ```
pub fn solutions_limited<F>(n: usize, limits: &Budget, mut visit: F) -> Result<Listing, QueensError>
where
    F: FnMut(&[usize]) -> ControlFlow<()>,
{
    /// Queens placed between two looks at the cancel flag and the clock.
    const POLL: u64 = 4096;
    check_size(n, MAX_BITS_N)?;
    let deadline = limits.deadline(std::time::Instant::now());
    let max_solutions = limits.max_solutions.unwrap_or(u128::MAX);
    let mut found = 0u128;
    if max_solutions == 0 {
        return Ok(Listing { nodes: 0, stop: Stop::SolutionLimit });
    }
    let full: u32 = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
    let mut avail = vec![0u32; n];
    let mut cols = vec![0u32; n];
    let mut ld = vec![0u32; n];
    let mut rd = vec![0u32; n];
    let mut p = vec![0usize; n];
    let mut nodes = 0u64;
    let max_nodes = limits.max_nodes.unwrap_or(u64::MAX);
    // The node count at which to look at the limits next.
    let mut check = max_nodes.min(POLL);
    let mut level = 0;
    avail[0] = full;
    loop {
        if avail[level] == 0 {
            if level == 0 {
                return Ok(Listing { nodes, stop: Stop::Exhausted });
            }
            level -= 1;
            continue;
        }
        if nodes == check {
            if nodes >= max_nodes {
                return Ok(Listing { nodes, stop: Stop::NodeLimit });
            }
            if limits.is_cancelled() {
                return Ok(Listing { nodes, stop: Stop::Cancelled });
            }
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                return Ok(Listing { nodes, stop: Stop::TimeLimit });
            }
            check = max_nodes.min(nodes.saturating_add(POLL));
        }
        let bit = avail[level] & avail[level].wrapping_neg();
        avail[level] ^= bit;
        nodes += 1;
        p[level] = bit.trailing_zeros() as usize;
        if level + 1 == n {
            if visit(&p).is_break() {
                return Ok(Listing { nodes, stop: Stop::Visitor });
            }
            found += 1;
            if found >= max_solutions {
                return Ok(Listing { nodes, stop: Stop::SolutionLimit });
            }
            continue;
        }
        let c = cols[level] | bit;
        let l = ((ld[level] | bit) << 1) & full;
        let r = (rd[level] | bit) >> 1;
        level += 1;
        cols[level] = c;
        ld[level] = l;
        rd[level] = r;
        avail[level] = full & !(c | l | r);
    }
}

/// Whether `p` is the lexicographically least of its symmetric images (so counting the
/// solutions for which this holds counts solutions up to symmetry).
///
/// `p` must be a permutation of `0..n` (a solution, or any arrangement of one queen per rank
/// and file); anything else is not canonical.
pub fn is_canonical(p: &[usize]) -> bool {
    let n = p.len();
    let mut seen = vec![false; n];
    let permutation = p.iter().all(|&c| c < n && !std::mem::replace(&mut seen[c], true));
    permutation && n > 0 && orbit_if_least(p).is_some()
}

/// Whether `p` (the file of the queen on each rank) is a solution.
pub fn is_solution(p: &[usize]) -> bool {
    let n = p.len();
    (0..n).all(|i| p[i] < n && (i + 1..n).all(|j| p[i] != p[j] && p[i].abs_diff(p[j]) != j - i))
}

/// Renders a board: one line per rank, `Q` for a queen and `.` for an empty square.
pub fn render(p: &[usize]) -> String {
    let mut s = String::new();
    for &c in p {
        for f in 0..p.len() {
            if f > 0 {
                s.push(' ');
            }
            s.push(if f == c { 'Q' } else { '.' });
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use dancecard_engine::{Config, Kernel, Solver};

    use super::*;

    /// All solutions by brute force over permutations, with orbits by canonical test.
    fn brute(n: usize) -> (u64, u64) {
        let mut total = 0;
        let mut distinct = 0;
        let _ = solutions(n, |p| {
            assert!(is_solution(p));
            total += 1;
            distinct += u64::from(is_canonical(p));
            ControlFlow::Continue(())
        })
        .unwrap();
        (total, distinct)
    }

    /// Runs `job` on a thread, raises `flag` after `after`, and returns the job's result, or
    /// panics if the job does not end within 30 s of the flag (it ignored it).
    fn cancelled_after<T: Send + 'static>(
        after: std::time::Duration,
        flag: std::sync::Arc<AtomicBool>,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        let _ = std::thread::spawn(move || tx.send(job()));
        std::thread::sleep(after);
        flag.store(true, atomic::Ordering::Relaxed);
        rx.recv_timeout(std::time::Duration::from_secs(30)).expect("the search stops on its flag")
    }

    // See: #16. `dancecard queens 30 --count` ignored Ctrl-C: the flag was only looked at
    // between tasks, and one task of n = 30 runs for hours.
    #[test]
    fn issue_16_count_stops_inside_a_task() {
        for threads in [1, 2] {
            let flag = std::sync::Arc::new(AtomicBool::new(false));
            let cancel = Some(flag.clone());
            let c = cancelled_after(std::time::Duration::from_millis(100), flag, move || {
                count_with(
                    30,
                    &CountRequest {
                        threads,
                        budget: Budget { cancel, ..Budget::default() },
                        ..Default::default()
                    },
                )
            })
            .unwrap();
            assert_eq!((c.complete, c.stop), (false, Stop::Cancelled), "{threads} threads");
            assert!(c.nodes > 0);
        }
    }

    #[test]
    fn count_node_limit_stops_near_it_with_a_partial_count() {
        let full = count(13).unwrap();
        assert_eq!(full.stop, Stop::Exhausted);
        for threads in [1, 2] {
            let limit = full.nodes / 3;
            let options = CountRequest {
                threads,
                budget: Budget { max_nodes: Some(limit), ..Budget::default() },
                ..Default::default()
            };
            let c = count_with(13, &options).unwrap();
            assert_eq!((c.complete, c.stop), (false, Stop::NodeLimit), "{threads} threads");
            // Each thread overshoots by at most one poll interval of branching steps (and
            // each step places a few queens).
            let slack = threads as u64 * u64::from(POLL_STEPS) * 13;
            assert!(c.nodes >= limit && c.nodes <= limit + slack, "{} of {limit}", c.nodes);
            assert!(c.total < full.total && c.distinct < full.distinct);
        }
        let none = count_with(
            13,
            &CountRequest {
                threads: 1,
                budget: Budget { max_nodes: Some(0), ..Budget::default() },
                ..Default::default()
            },
        );
        assert_eq!(none.map(|c| (c.nodes, c.stop)), Ok((0, Stop::NodeLimit)));
        // A budget the count does not reach changes nothing.
        let options = CountRequest {
            threads: 1,
            budget: Budget { max_nodes: Some(full.nodes + 1), ..Budget::default() },
            ..Default::default()
        };
        assert_eq!(count_with(13, &options), Ok(full));
    }

    // See: #16. `is_canonical` panicked past 32 files (found by schemathesis on
    // `/api/queens?n=41&mode=count&method=dlx`).
    #[test]
    fn issue_16_canonical_boards_of_any_size() {
        let board = first(41, &Config::default(), &mut |_| ControlFlow::Continue(())).unwrap();
        let p = board.board.unwrap();
        // The eight images of the board: exactly one of the distinct ones is canonical.
        let n = p.len();
        let transpose = |b: &[usize]| {
            let mut t = vec![0; n];
            for (r, &f) in b.iter().enumerate() {
                t[f] = r;
            }
            t
        };
        let mirror = |b: &[usize]| b.iter().map(|&f| n - 1 - f).collect::<Vec<_>>();
        let mut images = vec![p.clone()];
        for k in 0..7 {
            let last = images.last().unwrap().clone();
            images.push(if k % 2 == 0 { mirror(&last) } else { transpose(&last) });
        }
        images.sort();
        images.dedup();
        assert_eq!(images.iter().filter(|b| is_canonical(b)).count(), 1);
        assert!(!is_canonical(&[0, 0, 1]), "not a permutation");
        assert!(!is_canonical(&[5, 1]), "out of range");
        assert!(!is_canonical(&[]));
    }

    #[test]
    fn listing_stops_on_its_limits() {
        let flag = std::sync::Arc::new(AtomicBool::new(false));
        let raised = flag.clone();
        let listing = cancelled_after(std::time::Duration::from_millis(50), flag, move || {
            let limits = Budget::new().cancel(raised);
            // Never ends on its own: 32 queens listed one by one.
            solutions_limited(32, &limits, |_| ControlFlow::Continue(()))
        })
        .unwrap();
        assert_eq!(listing.stop, Stop::Cancelled);
        let limits = Budget::new().max_nodes(1000);
        let mut found = 0;
        let listing = solutions_limited(10, &limits, |_| {
            found += 1;
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!((listing.nodes, listing.stop), (1000, Stop::NodeLimit));
        assert!(found > 0 && found < 724);
        let all = solutions_limited(8, &Budget::default(), |_| ControlFlow::Continue(()));
        assert_eq!(all.map(|l| l.stop), Ok(Stop::Exhausted));
        let first = solutions_limited(8, &Budget::default(), |_| ControlFlow::Break(()));
        assert_eq!(first.map(|l| l.stop), Ok(Stop::Visitor));
        let mut found = 0;
        let three = solutions_limited(8, &Budget::new().max_solutions(3), |_| {
            found += 1;
            ControlFlow::Continue(())
        });
        assert_eq!((three.map(|l| l.stop), found), (Ok(Stop::SolutionLimit), 3));
        let none = solutions_limited(8, &Budget::new().max_solutions(0), |_| unreachable!());
        assert_eq!(none, Ok(Listing { nodes: 0, stop: Stop::SolutionLimit }));
        let late = Budget::new().time_limit(std::time::Duration::ZERO);
        let late = solutions_limited(32, &late, |_| ControlFlow::Continue(()));
        assert_eq!(late.map(|l| l.stop), Ok(Stop::TimeLimit));
    }

    #[test]
    fn symmetric_counter_agrees_with_plain_enumeration() {
        for n in 1..=10 {
            let c = count(n).unwrap();
            assert_eq!((c.total, c.distinct), brute(n), "n = {n}");
            assert!(c.complete);
            let threaded = count_with(n, &CountRequest { threads: 2, ..Default::default() });
            assert_eq!(threaded.unwrap().total, c.total);
        }
    }

    /// Shuffled options: the same solutions (as boards), the same counts, and `option_of`
    /// finds each square's option.
    #[test]
    fn shuffled_options_have_the_same_solutions() {
        for n in [1, 4, 6, 8] {
            let boards = |model: &Queens| {
                let mut all = Vec::new();
                let mut solver = Solver::new(&model.problem());
                let _ = solver.solve_with(|s| {
                    all.push(model.decode(&s.to_vec()));
                    ControlFlow::Continue(())
                });
                all.sort();
                all
            };
            let plain = Queens::new(n).unwrap();
            for seed in [1, 2] {
                let shuffled = Queens::shuffled(n, seed).unwrap();
                assert_eq!(shuffled.problem() == plain.problem(), n == 1, "n = {n}");
                assert_eq!(boards(&shuffled), boards(&plain), "n = {n}");
                for (r, c) in (0..n).flat_map(|r| (0..n).map(move |c| (r, c))) {
                    let k = shuffled.option_of(r, c);
                    assert_eq!(shuffled.decode(&[OptionId::new(k).unwrap()]), {
                        let mut b = vec![0; n];
                        b[r] = c;
                        b
                    });
                }
            }
        }
    }

    /// `first`: the plain search's first board where it is quick, restarts where it stalls,
    /// none where there is none, and the caller's node limit over all the searches.
    #[test]
    fn first_restarts_where_the_search_stalls() {
        let go = &mut |_: &Solver| ControlFlow::Continue(());
        for n in 1..=12 {
            let found = first(n, &Config::default(), go).unwrap();
            let mut solver = Solver::new(&Queens::new(n).unwrap().problem());
            let plain = solver.first().map(|s| Queens::new(n).unwrap().decode(&s));
            assert_eq!((found.board, found.restarts), (plain, 0), "n = {n}");
            let stop = if n == 2 || n == 3 { Stop::Exhausted } else { Stop::SolutionLimit };
            assert_eq!(found.stop, stop, "n = {n}");
        }
        for n in [52, 64] {
            let found = first(n, &Config::default(), go).unwrap();
            assert!(found.restarts > 0 && found.stats.nodes > FIRST_BUDGET, "n = {n}");
            assert_eq!(found.stop, Stop::SolutionLimit);
            assert!(is_solution(&found.board.unwrap()), "n = {n}");
        }
        let capped = Config::with_budget(Budget::new().max_nodes(FIRST_BUDGET + 10));
        let found = first(64, &capped, go).unwrap();
        assert_eq!((found.board, found.stop), (None, Stop::NodeLimit));
        assert_eq!((found.restarts, found.stats.nodes), (1, FIRST_BUDGET + 10));
    }

    #[test]
    fn count_visits_the_same_tree() {
        // The nodes of the counter's tree (docs/benchmarks.md, section
        // #n-queens-against-the-bitwise-counter): a change to the cost per node must not
        // change the tree.
        assert_eq!(count(15).unwrap().nodes, 7_454_634);
    }

    #[test]
    fn each_task_walks_the_tree_of_dlx() {
        // For every task, the exact cover problem of its open squares (ranks and files
        // primary, in the lanes' organ-pipe order; diagonals secondary; the two queens of
        // the task and the squares they attack or the symmetry breaking closes left out):
        // Knuth's Algorithm X with the minimum-remaining-values heuristic walks the same
        // tree, node for node, and in a corner task finds the same boards.
        for n in 4..=9 {
            let searcher = Searcher::new(n);
            let Searcher::Narrow(lanes) = &searcher else { unreachable!() };
            for task in searcher.tasks() {
                let board = lanes.start(&task).unwrap();
                let mut b = ProblemBuilder::new();
                let mut rank = vec![None; n];
                let mut file = vec![None; n];
                for k in 0..n {
                    let x = lanes.order[k];
                    if board.ranks_left >> k & 1 == 1 {
                        rank[x] = b.primary(&format!("r{x}")).ok();
                    }
                    if board.files_left >> k & 1 == 1 {
                        file[x] = b.primary(&format!("c{x}")).ok();
                    }
                }
                let diag: Vec<_> = (0..2 * n).map(|d| b.secondary(&format!("a{d}")).ok()).collect();
                let anti: Vec<_> = (0..2 * n).map(|d| b.secondary(&format!("b{d}")).ok()).collect();
                for r in 0..n {
                    for f in 0..n {
                        let open = board.rows[lanes.lane[r]] >> f & 1 == 1;
                        if let (true, Some(ri), Some(fi)) = (open, rank[r], file[f]) {
                            let items = [Some(ri), Some(fi), diag[r + f], anti[r + n - f]];
                            b.option(items.into_iter().flatten()).unwrap();
                        }
                    }
                }
                let problem = b.build();
                let config = Config { kernel: Kernel::Links, ..Config::default() };
                let mut solver = Solver::with_config(&problem, config);
                let outcome = solver.count();
                let request = CountRequest::default();
                let control = Control::new(&request, 1);
                let tally = lanes.run(&task, &control);
                assert_eq!(tally.nodes, solver.stats().nodes, "n = {n}, {task:?}");
                if task.top == 0 {
                    assert_eq!(u128::from(tally.distinct), outcome.solutions, "n = {n}, {task:?}");
                }
            }
        }
    }

    #[test]
    fn organ_pipe_order_matches_the_instance_files() {
        assert_eq!(Queens::organ_pipe(8), [4, 3, 5, 2, 6, 1, 7, 0]);
        assert_eq!(Queens::organ_pipe(1), [0]);
        assert_eq!(Queens::organ_pipe(5), [2, 1, 3, 0, 4]);
    }

    #[test]
    fn dlx_model_solutions_are_boards() {
        let all = crate::all_answers(&Queens::new(6).unwrap());
        assert_eq!(all.len(), 4);
        assert!(all.iter().all(|p| is_solution(p)));
    }

    #[test]
    fn sizes_are_checked() {
        assert!(Queens::new(0).is_err());
        assert!(count(0).is_err());
        assert!(count(33).is_err());
        assert!(solutions(0, |_| ControlFlow::Continue(())).is_err());
        assert_eq!(base36(35), "z");
        assert_eq!(base36(36), "10");
    }

    /// The eight images of `p`, built as boards (rotate a quarter turn, mirror).
    fn images(p: &[usize]) -> Vec<Vec<usize>> {
        let n = p.len();
        let turn = |b: &[usize]| -> Vec<usize> {
            let mut t = vec![0; n];
            for (r, &c) in b.iter().enumerate() {
                t[c] = n - 1 - r;
            }
            t
        };
        let mut all = Vec::new();
        let mut b = p.to_vec();
        for _ in 0..4 {
            all.push(b.iter().map(|&c| n - 1 - c).collect());
            b = turn(&b);
            all.push(b.clone());
        }
        all
    }

    #[test]
    fn orbit_sizes_agree_with_the_images() {
        for n in 1..=9 {
            let _ = solutions(n, |p| {
                let all = images(p);
                let least = all.iter().min().unwrap();
                let fixed = all.iter().filter(|b| b.as_slice() == p).count() as u64;
                let expected = (least.as_slice() == p).then_some(8 / fixed);
                assert_eq!(orbit_if_least(p), expected, "{p:?}");
                ControlFlow::Continue(())
            })
            .unwrap();
        }
    }

    #[test]
    fn orbits() {
        // 4 queens: one class of two boards (each symmetric under a half turn).
        assert_eq!(orbit_if_least(&[1, 3, 0, 2]), Some(2));
        assert_eq!(orbit_if_least(&[2, 0, 3, 1]), None);
        assert_eq!(render(&[1, 3, 0, 2]), ". Q . .\n. . . Q\nQ . . .\n. . Q .\n");
    }
}
