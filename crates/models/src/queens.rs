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
//!   of files 0 and `n - 1` on ranks `m..=n-1-m`: masks close those files on the other
//!   ranks, and after each queen the search *looks ahead*, backing up as soon as the last
//!   rank, or file 0 or `n - 1` while still empty, has no open square left where the masks
//!   allow one. Each complete board is compared with its seven images: it counts if it is
//!   the least, `8 / s` times where `s` is the number of symmetries that fix it.
//!
//! Measured on `n = 11, 12, 13`, this visits about 19% of the nodes of the plain search of
//! every board, where the classic counter that uses the left-right mirror visits 50%.
//!
//! The placements of ranks 0 and 1 are independent tasks, run on threads with rayon. The
//! search below them is iterative, its stack in a fixed array; the current rank's state
//! stays in registers, the look-ahead tests share one branch, and the last two ranks are
//! filled without branching. See the crate's benchmark `queens` for times and nodes
//! against the classic counter.

use std::cmp::Ordering;
use std::ops::ControlFlow;
use std::sync::atomic::{self, AtomicBool, AtomicUsize};

use dancecard_engine::{OptionId, Problem, ProblemBuilder};
use rayon::prelude::*;

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
        Ok(Queens { n })
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

    /// The option of the queen on `rank`, `file` (options are numbered rank by rank).
    pub fn option_of(&self, rank: usize, file: usize) -> usize {
        rank * self.n + file
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
        for r in 0..n {
            for c in 0..n {
                let items = [rank[r], file[c], diag[r + c], anti[r + n - 1 - c]];
                let _ = b.option(items.into_iter().flatten());
            }
        }
        b.build()
    }

    fn decode(&self, solution: &[OptionId]) -> Vec<usize> {
        let mut files = vec![0; self.n];
        for o in solution {
            let k = o.index();
            if k < self.n * self.n {
                files[k / self.n] = k % self.n;
            }
        }
        files
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
    /// False when the search was cancelled (the counts are then partial).
    pub complete: bool,
}

/// Options of [`count`].
#[derive(Default)]
pub struct CountOptions<'a> {
    /// Worker threads; 0 or 1 counts on the calling thread.
    pub threads: usize,
    /// Raised to stop the count early (looked at between tasks).
    pub cancel: Option<&'a AtomicBool>,
    /// Called after each task with the fraction of tasks done.
    pub progress: Option<&'a (dyn Fn(f64) + Sync)>,
}

impl std::fmt::Debug for CountOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CountOptions")
            .field("threads", &self.threads)
            .field("cancel", &self.cancel)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// Counts the solutions of `n`-queens, in total and up to symmetry, on one thread.
///
/// ```
/// let c = dancecard_models::queens::count(8)?;
/// assert_eq!((c.total, c.distinct), (92, 12));
/// # Ok::<(), dancecard_models::queens::QueensError>(())
/// ```
pub fn count(n: usize) -> Result<QueensCount, QueensError> {
    count_with(n, &CountOptions::default())
}

/// Counts like [`count`], with threads, cancellation and progress reports.
pub fn count_with(n: usize, options: &CountOptions<'_>) -> Result<QueensCount, QueensError> {
    check_size(n, MAX_BITS_N)?;
    if n <= 3 {
        // One queen on one square; no solution on 2 x 2 and 3 x 3.
        let total = u64::from(n == 1);
        return Ok(QueensCount { total, distinct: total, nodes: 1, complete: true });
    }
    let tasks = tasks(n);
    let done = AtomicUsize::new(0);
    let run = |task: &Task| -> Option<Tally> {
        if options.cancel.is_some_and(|c| c.load(atomic::Ordering::Relaxed)) {
            return None;
        }
        let tally = task.run(n);
        let finished = done.fetch_add(1, atomic::Ordering::Relaxed) + 1;
        if let Some(progress) = options.progress {
            progress(finished as f64 / tasks.len() as f64);
        }
        Some(tally)
    };
    let sum = |a: (Tally, bool), b: (Tally, bool)| (a.0.add(b.0), a.1 && b.1);
    let lift = |t: Option<Tally>| (t.unwrap_or_default(), t.is_some());
    let (tally, complete) = if options.threads <= 1 {
        tasks.iter().map(run).map(lift).fold((Tally::default(), true), sum)
    } else {
        let pool =
            rayon::ThreadPoolBuilder::new().num_threads(options.threads).build().map_err(|e| {
                QueensError::Threads { threads: options.threads, reason: e.to_string() }
            })?;
        pool.install(|| {
            tasks.par_iter().map(run).map(lift).reduce(|| (Tally::default(), true), sum)
        })
    };
    Ok(QueensCount { total: tally.total, distinct: tally.distinct, nodes: tally.nodes, complete })
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

/// A unit of work: the queens of ranks 0 and 1 placed, the other ranks searched bitwise.
#[derive(Clone, Debug)]
struct Task {
    /// The files of the queens on ranks 0 and 1.
    top: usize,
    second: usize,
}

/// The independent tasks whose results add up to the counts of `n >= 4` queens: every
/// compatible placement of ranks 0 and 1 allowed by the masks of [`Masks::new`].
fn tasks(n: usize) -> Vec<Task> {
    let mut tasks = Vec::new();
    for top in 0..=(n - 1) / 2 {
        let masks = Masks::new(n, top);
        for second in 0..n {
            if second.abs_diff(top) > 1 && masks.rank[1] & (1 << second) != 0 {
                tasks.push(Task { top, second });
            }
        }
    }
    tasks
}

/// The files open on each rank for the queens of one rank-0 file, and the look-ahead masks.
struct Masks {
    /// Whether rank 0's queen is in the corner (then every solution found is a class of 8).
    corner: bool,
    /// Files allowed on each rank by the symmetry breaking.
    rank: [u32; MAX_BITS_N],
    /// For the corner case, the ranks on which file 1 is closed depend on rank 1's queen:
    /// ranks `2..=second` (so that the queen of file 1 lies below rank `second`).
    /// For the other case, `near[r]` has bit `d` set when rank `r + d` may hold the queen of
    /// file 0 (or of file `n - 1`): `m <= r + d <= n - 1 - m`.
    near: [u32; MAX_BITS_N],
    /// The same ranks as bits of the left diagonals: bit `n - 1 - d` for each such `d`.
    near_left: [u32; MAX_BITS_N],
    /// `last_hits[r][f]`: the squares of the last rank that a queen on rank `r`, file `f`
    /// attacks (a table look-up instead of two shifts by a variable amount).
    last_hits: [[u32; MAX_BITS_N]; MAX_BITS_N],
}

impl Masks {
    /// The masks for rank 0's queen on file `m <= (n - 1) / 2`.
    ///
    /// For `m = 0` (a corner), nothing but rank 0 is restricted here (file 1 is restricted
    /// per task). For `m >= 1`, the least member of an orbit has its three other border
    /// queens at least `m` from every corner: the queen of the last rank on files
    /// `m..=n-1-m`, and the queens of files 0 and `n - 1` on ranks `m..=n-1-m`.
    fn new(n: usize, m: usize) -> Masks {
        let last = n - 1;
        let full: u32 = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let span = |lo: usize, hi: usize| -> u32 {
            (lo..=hi).filter(|&k| k < n).fold(0, |acc, k| acc | (1u32 << k))
        };
        let mut rank = [0u32; MAX_BITS_N];
        let mut near = [0u32; MAX_BITS_N];
        let mut near_left = [0u32; MAX_BITS_N];
        rank[..n].fill(full);
        rank[0] = 1 << m;
        if m > 0 {
            let sides = 1 | (1u32 << last);
            for (r, mask) in rank.iter_mut().enumerate().take(n).skip(1) {
                if r < m || r > last - m {
                    *mask &= !sides;
                }
            }
            rank[last] &= span(m, last - m);
            for r in 1..n {
                let lo = m.saturating_sub(r);
                if r + lo <= last - m {
                    let hi = last - m - r;
                    near[r] = span(lo, hi);
                    near_left[r] = span(last - hi, last - lo);
                }
            }
        }
        let mut last_hits = [[0u32; MAX_BITS_N]; MAX_BITS_N];
        for (r, hits) in last_hits.iter_mut().enumerate().take(n) {
            let d = last - r;
            for (f, hit) in hits.iter_mut().enumerate().take(n) {
                *hit = span(f, f) | span(f + d, f + d) | span(f.wrapping_sub(d), f.wrapping_sub(d));
            }
        }
        Masks { corner: m == 0, rank, near, near_left, last_hits }
    }
}

impl Task {
    fn run(&self, n: usize) -> Tally {
        let mut masks = Masks::new(n, self.top);
        if masks.corner {
            for r in 2..=self.second.min(n - 1) {
                masks.rank[r] &= !2;
            }
            self.walk::<false>(n, &masks)
        } else {
            self.walk::<true>(n, &masks)
        }
    }

    /// The search of ranks 1..n, iterative: the rank being filled keeps its state in
    /// registers and only its ancestors' states are on the stack (no calls, and no store
    /// per node but the push). After a queen on rank `n - 3` the last two ranks are decided
    /// at once, without branches (two files are left). With `SIDES`, it also looks ahead
    /// after each queen: the last rank and, while still empty, files 0 and `n - 1` must
    /// keep an open square where the symmetry breaking allows one; the three tests share
    /// one branch, taken only when the next rank has an open square.
    fn walk<const SIDES: bool>(&self, n: usize, masks: &Masks) -> Tally {
        // Indices into the arrays are masked with `DEPTH` (ranks are below 32): one `and`
        // instead of a bounds check.
        const DEPTH: usize = MAX_BITS_N - 1;
        let last = n - 1;
        let last_rank = masks.rank[last];
        let full: u32 = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let side_last = 1u32 << last;
        let top = 1u32 << self.top;
        // stack[k] = [open squares left, files, left diagonals, right diagonals] of rank k.
        let mut stack = [[0u32; 4]; MAX_BITS_N];
        let (mut c, mut l, mut rd) = (top, top << 1, top >> 1);
        let mut o = masks.rank[1] & !(c | l | rd) & (1 << self.second);
        // The open squares of the last rank (kept only with `SIDES`), per rank like `stack`.
        let mut last_opens = [0u32; MAX_BITS_N];
        let mut lo = last_rank & !masks.last_hits[0][self.top];
        let mut r = 1;
        let mut nodes = 1u64;
        let mut tally = Tally::default();
        loop {
            if o == 0 {
                if r == 1 {
                    break;
                }
                r -= 1;
                [o, c, l, rd] = stack[r & DEPTH];
                if SIDES {
                    lo = last_opens[r & DEPTH];
                }
                continue;
            }
            let bit = o & o.wrapping_neg();
            o ^= bit;
            nodes += 1;
            let nc = c | bit;
            let nl = (l | bit) << 1;
            let nr = (rd | bit) >> 1;
            let next = r + 1;
            let no = masks.rank[next & DEPTH] & !(nc | nl | nr);
            if no == 0 {
                continue;
            }
            let mut nlo = 0;
            if SIDES {
                // One branch for the three look-ahead tests (each a coin toss to the branch
                // predictor): the least of the three masks is 0 if any is.
                nlo = lo & !masks.last_hits[r & DEPTH][bit.trailing_zeros() as usize & DEPTH];
                let side0 = (nc & 1) | (!nr & masks.near[next & DEPTH]);
                let side1 = (nc & side_last) | (!nl & masks.near_left[next & DEPTH]);
                if nlo.min(side0).min(side1) == 0 {
                    continue;
                }
            }
            if next == last - 1 {
                // The last two ranks at once: two files are left, and each of them that
                // rank `n - 2` may take completes a board if the other is open on the last
                // rank. No branch but on a complete board (and none for corner boards).
                let rest = !nc & full;
                let x = rest & rest.wrapping_neg();
                let y = rest ^ x;
                let end = |b: u32, other: u32| -> u32 {
                    u32::from(
                        (no & b != 0)
                            & (other & last_rank & !(((nl | b) << 1) | ((nr | b) >> 1)) != 0),
                    )
                };
                let (ex, ey) = (end(x, y), end(y, x));
                nodes += u64::from(no.count_ones() + ex + ey);
                if SIDES {
                    if ex | ey != 0 {
                        let mut files = [0usize; MAX_BITS_N];
                        files[0] = self.top;
                        for k in 1..r {
                            let after = if k + 1 < r { stack[(k + 1) & DEPTH][1] } else { c };
                            files[k] = (after ^ stack[k & DEPTH][1]).trailing_zeros() as usize;
                        }
                        files[r & DEPTH] = bit.trailing_zeros() as usize;
                        for (b, other, e) in [(x, y, ex), (y, x, ey)] {
                            if e != 0 {
                                files[last - 1] = b.trailing_zeros() as usize;
                                files[last] = other.trailing_zeros() as usize;
                                if let Some(orbit) = orbit_if_least(&files[..n]) {
                                    tally.total += orbit;
                                    tally.distinct += 1;
                                }
                            }
                        }
                    }
                } else {
                    tally.distinct += u64::from(ex + ey);
                }
                continue;
            }
            stack[r & DEPTH] = [o, c, l, rd];
            [o, c, l, rd] = [no, nc, nl, nr];
            if SIDES {
                last_opens[r & DEPTH] = lo;
                lo = nlo;
            }
            r = next;
        }
        if !SIDES {
            tally.total = 8 * tally.distinct;
        }
        tally.nodes = nodes;
        tally
    }
}

/// If the permutation `p` is the lexicographically least of its images under the eight
/// symmetries of the board, the size of its orbit (1, 2, 4 or 8); otherwise `None`.
pub(crate) fn orbit_if_least(p: &[usize]) -> Option<u64> {
    let n = p.len();
    let mut inverse = [0usize; MAX_BITS_N];
    let q = &mut inverse[..n];
    for (r, &c) in p.iter().enumerate() {
        q[c] = r;
    }
    let q = &*q;
    let last = n - 1;
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
pub fn solutions<F>(n: usize, mut visit: F) -> Result<u64, QueensError>
where
    F: FnMut(&[usize]) -> ControlFlow<()>,
{
    check_size(n, MAX_BITS_N)?;
    let full: u32 = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
    let mut avail = vec![0u32; n];
    let mut cols = vec![0u32; n];
    let mut ld = vec![0u32; n];
    let mut rd = vec![0u32; n];
    let mut p = vec![0usize; n];
    let mut nodes = 0u64;
    let mut level = 0;
    avail[0] = full;
    loop {
        if avail[level] == 0 {
            if level == 0 {
                return Ok(nodes);
            }
            level -= 1;
            continue;
        }
        let bit = avail[level] & avail[level].wrapping_neg();
        avail[level] ^= bit;
        nodes += 1;
        p[level] = bit.trailing_zeros() as usize;
        if level + 1 == n {
            if visit(&p).is_break() {
                return Ok(nodes);
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
pub fn is_canonical(p: &[usize]) -> bool {
    !p.is_empty() && orbit_if_least(p).is_some()
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
    use dancecard_engine::Solver;

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

    #[test]
    fn symmetric_counter_agrees_with_plain_enumeration() {
        for n in 1..=10 {
            let c = count(n).unwrap();
            assert_eq!((c.total, c.distinct), brute(n), "n = {n}");
            assert!(c.complete);
            let threaded = count_with(n, &CountOptions { threads: 2, ..Default::default() });
            assert_eq!(threaded.unwrap().total, c.total);
        }
    }

    #[test]
    fn count_visits_the_same_tree() {
        // The nodes of the counter before its inner loop was rewritten (README, N-queens):
        // the rewrite changed the cost per node, not the search tree.
        assert_eq!(count(15).unwrap().nodes, 31_068_542);
    }

    #[test]
    fn organ_pipe_order_matches_the_instance_files() {
        assert_eq!(Queens::organ_pipe(8), [4, 3, 5, 2, 6, 1, 7, 0]);
        assert_eq!(Queens::organ_pipe(1), [0]);
        assert_eq!(Queens::organ_pipe(5), [2, 1, 3, 0, 4]);
    }

    #[test]
    fn dlx_model_solutions_are_boards() {
        let q = Queens::new(6).unwrap();
        let problem = q.problem();
        let mut solver = Solver::new(&problem);
        let all: Vec<Vec<usize>> = solver.solutions().map(|s| q.decode(&s)).collect();
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
