//! Egyptian fractions (Luogu P1763, BIO 1997): write `a/b` as a sum of the fewest unit
//! fractions with distinct denominators; among those, the one whose largest denominator is
//! smallest.
//!
//! # Method
//!
//! Iterative deepening on the number of terms `d = 1, 2, ...`; for each `d`, a depth-first
//! search over increasing denominators that finds the best `d`-term sum, or proves there is
//! none. With `k` terms left to write `a/b` and every denominator larger than the last one
//! chosen, the next denominator `x` satisfies
//!
//! - `1/x < a/b` (other terms follow), so `x > b/a`;
//! - `k/x >= a/b` (the next `k` terms are at most `1/x` each), so `x <= k b / a`;
//! - every denominator is at most a ceiling `c` (the largest allowed, and once a sum is
//!   known, one less than its largest denominator, since only a better sum is wanted); the
//!   other `k - 1` terms are then each at least `1/c`, so `a/b - 1/x >= (k - 1)/c`, which
//!   gives `x >= b c / (a c - (k - 1) b)`, and no sum at all when `a c <= (k - 1) b`. This
//!   bound tightens as better sums are found; also `x <= c - k + 1`.
//!
//! The last term is `1/(b/a)` when `a` divides `b`. Subtracting `1/x` gives
//! `(a x - b) / (b x)`, reduced by the gcd; the numbers grow past 64 bits in deep searches,
//! so they are `u128` and every operation is checked: a search that would exceed 128 bits
//! stops with [`EgyptianError::Overflow`] rather than give a wrong answer.
//!
//! ```
//! use dancecard_search::egyptian;
//!
//! let answer = egyptian::solve(19, 45, &egyptian::Options::default())?;
//! assert_eq!(answer.denominators, [5, 6, 18]);
//! # Ok::<(), egyptian::EgyptianError>(())
//! ```

use crate::stats::Bounds;
use std::time::Instant;

use crate::stats::{Budget, Stats, Stop, POLL_MASK};

/// An error of [`solve`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EgyptianError {
    /// `a` or `b` is zero.
    #[error("the fraction must be positive with a non-zero denominator (got {a}/{b})")]
    NotPositive {
        /// The numerator.
        a: u128,
        /// The denominator.
        b: u128,
    },
    /// An intermediate value would exceed 128 bits.
    #[error("intermediate values exceed 128 bits; try --max-denominator")]
    Overflow,
    /// No sum within the limits (terms, denominator bound).
    #[error(
        "no sum of at most {max_terms} unit fractions with denominators up to {max_denominator}"
    )]
    NotFound {
        /// The term limit.
        max_terms: usize,
        /// The denominator limit.
        max_denominator: u128,
    },
    /// A node limit or the cancel flag stopped the search.
    #[error("the search stopped ({})", stop.name())]
    Stopped {
        /// Why.
        stop: Stop,
        /// What it did.
        stats: Stats,
    },
}

/// Bounds of the search.
#[derive(Clone, Debug)]
pub struct Options {
    /// The most terms (default 12).
    pub max_terms: usize,
    /// The largest denominator allowed (default: no bound but 128 bits).
    pub max_denominator: u128,
    /// Node budget and cancel flag.
    pub limits: Budget,
}

impl Default for Options {
    fn default() -> Options {
        Options { max_terms: 12, max_denominator: u128::MAX, limits: Budget::new() }
    }
}

/// The best sum found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The denominators, increasing.
    pub denominators: Vec<u128>,
    /// Work counters (expanded: search nodes; iterations: depths tried).
    pub stats: Stats,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

struct Search<'o> {
    options: &'o Options,
    best: Option<Vec<u128>>,
    path: Vec<u128>,
    stats: Stats,
    stop: Option<Result<Stop, EgyptianError>>,
    /// When the search started (for the time limit).
    started: Instant,
}

impl Search<'_> {
    /// The largest denominator a new best may use.
    fn ceiling(&self) -> u128 {
        match &self.best {
            Some(best) => best.last().map_or(0, |&m| m - 1),
            None => self.options.max_denominator,
        }
    }

    /// Writes `a/b` (reduced) as `k` more terms, each larger than `after`.
    fn dfs(&mut self, a: u128, b: u128, k: usize, after: u128) {
        if self.stop.is_some() {
            return;
        }
        self.stats.expanded += 1;
        if self.stats.expanded & POLL_MASK == 0 {
            if let Some(stop) = self.options.limits.interrupted(self.started) {
                self.stop = Some(Ok(stop));
                return;
            }
        }
        if self.stats.generated >= self.options.limits.node_budget() {
            self.stop = Some(Ok(Stop::NodeLimit));
            return;
        }
        let ceiling = self.ceiling();
        if k == 1 {
            if b % a == 0 {
                let x = b / a;
                if x > after && x <= ceiling {
                    self.path.push(x);
                    self.best = Some(self.path.clone());
                    let _ = self.path.pop();
                }
            }
            return;
        }
        let kk = k as u128;
        // x > b/a, x > after.
        let lo = (b / a + 1).max(after + 1);
        // x <= k b / a.
        let Some(kb) = b.checked_mul(kk) else {
            self.stop = Some(Err(EgyptianError::Overflow));
            return;
        };
        let mut hi = kb / a;
        let mut lo = lo;
        // The other k-1 terms are each at least 1/ceiling: a/b - 1/x >= (k-1)/ceiling.
        if ceiling < u128::MAX {
            if let (Some(ac), Some(kb1)) = (a.checked_mul(ceiling), b.checked_mul(kk - 1)) {
                if ac <= kb1 {
                    return; // even k-1 terms of 1/ceiling would leave too much
                }
                if let Some(bc) = b.checked_mul(ceiling) {
                    lo = lo.max(bc.div_ceil(ac - kb1));
                }
            }
        }
        hi = hi.min(ceiling.saturating_sub(kk - 1));
        let mut x = lo;
        while x <= hi {
            self.stats.generated += 1;
            // a/b - 1/x = (a x - b) / (b x)
            let (Some(ax), Some(bx)) = (a.checked_mul(x), b.checked_mul(x)) else {
                self.stop = Some(Err(EgyptianError::Overflow));
                return;
            };
            let num = ax - b;
            let g = gcd(num, bx);
            self.path.push(x);
            self.dfs(num / g, bx / g, k - 1, x);
            let _ = self.path.pop();
            if self.stop.is_some() {
                return;
            }
            // A better sum lowers the ceiling, which may end this loop early.
            let ceiling = self.ceiling();
            hi = hi.min(ceiling.saturating_sub(kk - 1));
            x += 1;
        }
    }
}

/// The fewest distinct unit fractions summing to `a/b`, ties broken by the smallest largest
/// denominator (further ties: the first found, in increasing lexicographic order of the
/// denominators).
pub fn solve(a: u128, b: u128, options: &Options) -> Result<Answer, EgyptianError> {
    if a == 0 || b == 0 {
        return Err(EgyptianError::NotPositive { a, b });
    }
    let started = Instant::now();
    let g = gcd(a, b);
    let (a, b) = (a / g, b / g);
    let mut search = Search {
        options,
        best: None,
        path: Vec::new(),
        stats: Stats::default(),
        stop: None,
        started,
    };
    for depth in 1..=options.max_terms {
        search.stats.iterations += 1;
        search.stats.bound = depth as u64;
        search.dfs(a, b, depth, 0);
        search.stats.elapsed = started.elapsed();
        match search.stop.take() {
            Some(Err(e)) => return Err(e),
            Some(Ok(stop)) => return Err(EgyptianError::Stopped { stop, stats: search.stats }),
            None => {}
        }
        if let Some(best) = search.best.take() {
            return Ok(Answer { denominators: best, stats: search.stats });
        }
    }
    Err(EgyptianError::NotFound {
        max_terms: options.max_terms,
        max_denominator: options.max_denominator,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the denominators are increasing and sum to a/b exactly.
    fn sums_to(d: &[u128], a: u128, b: u128) -> bool {
        let (mut p, mut q) = (0u128, 1u128);
        for &x in d {
            (p, q) = (p * x + q, q * x);
            let g = gcd(p, q);
            (p, q) = (p / g, q / g);
        }
        d.windows(2).all(|w| w[0] < w[1]) && p * b == a * q
    }

    #[test]
    fn samples() {
        let o = Options::default();
        assert_eq!(solve(19, 45, &o).unwrap().denominators, [5, 6, 18]);
        let d = solve(59, 211, &o).unwrap().denominators;
        assert!(d == [4, 36, 633, 3798] || d == [6, 9, 633, 3798], "{d:?}");
    }

    #[test]
    fn unit_fractions_and_whole_numbers() {
        let o = Options::default();
        assert_eq!(solve(1, 7, &o).unwrap().denominators, [7]);
        assert_eq!(solve(3, 21, &o).unwrap().denominators, [7]);
        assert_eq!(solve(1, 1, &o).unwrap().denominators, [1]);
        assert_eq!(solve(3, 2, &o).unwrap().denominators, [1, 2]);
        assert_eq!(solve(2, 1, &o).unwrap().denominators, [1, 2, 3, 6]);
        assert!(matches!(solve(0, 3, &o), Err(EgyptianError::NotPositive { .. })));
        assert!(matches!(solve(3, 0, &o), Err(EgyptianError::NotPositive { .. })));
    }

    #[test]
    fn limits_are_reported() {
        let o = Options { max_terms: 2, ..Options::default() };
        assert!(matches!(solve(19, 45, &o), Err(EgyptianError::NotFound { max_terms: 2, .. })));
        let o = Options { limits: Budget::new().max_nodes(10), ..Options::default() };
        assert!(matches!(
            solve(59, 211, &o),
            Err(EgyptianError::Stopped { stop: Stop::NodeLimit, .. })
        ));
    }

    #[test]
    fn two_over_odd_takes_two_terms_and_four_over_n_at_most_three() {
        let o = Options::default();
        for b in (3..200u128).step_by(2) {
            let d = solve(2, b, &o).unwrap().denominators;
            assert_eq!(d.len(), 2, "2/{b}: {d:?}");
            assert!(sums_to(&d, 2, b));
        }
        for b in 5..120u128 {
            let d = solve(4, b, &o).unwrap().denominators;
            assert!(d.len() <= 3 && sums_to(&d, 4, b), "4/{b}: {d:?}");
        }
    }

    /// A brute force over all sets of at most three denominators up to a bound.
    fn brute(a: u128, b: u128, bound: u128) -> Option<Vec<u128>> {
        let mut best: Option<Vec<u128>> = None;
        let better = |c: &Vec<u128>, best: &Option<Vec<u128>>| match best {
            None => true,
            Some(b) => (c.len(), c.last()) < (b.len(), b.last()),
        };
        for x in 1..=bound {
            let c = vec![x];
            if sums_to(&c, a, b) && better(&c, &best) {
                best = Some(c);
            }
            for y in x + 1..=bound {
                let c = vec![x, y];
                if sums_to(&c, a, b) && better(&c, &best) {
                    best = Some(c);
                }
                for z in y + 1..=bound {
                    let c = vec![x, y, z];
                    if sums_to(&c, a, b) && better(&c, &best) {
                        best = Some(c);
                    }
                }
            }
        }
        best
    }

    #[test]
    fn agrees_with_brute_force_on_small_fractions() {
        // Bound 60 covers every answer of <= 3 terms whose largest denominator is <= 60;
        // compare length and largest denominator when the brute force finds one.
        let o = Options { max_denominator: 60, max_terms: 3, ..Options::default() };
        for b in 2..14u128 {
            for a in 1..b {
                if gcd(a, b) != 1 {
                    continue;
                }
                let mine = solve(a, b, &o).ok().map(|x| x.denominators);
                let theirs = brute(a, b, 60);
                assert_eq!(
                    mine.as_ref().map(|d| (d.len(), d.last().copied())),
                    theirs.as_ref().map(|d| (d.len(), d.last().copied())),
                    "{a}/{b}: {mine:?} vs {theirs:?}"
                );
                if let Some(d) = mine {
                    assert!(sums_to(&d, a, b));
                }
            }
        }
    }
}
