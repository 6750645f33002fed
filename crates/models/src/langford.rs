//! Langford pairs: arrange `1, 1, 2, 2, ..., n, n` in a row so that the two copies of `k`
//! have exactly `k` numbers between them.
//!
//! As exact cover: the numbers `1..=n` and the positions `1..=2n` are primary items; placing
//! `k` at positions `i` and `i + k + 1` is an option. Every arrangement and its reversal are
//! both solutions, and none is its own reversal (the two 1s would have to straddle the middle
//! symmetrically, one position apart, around a centre between two positions), so the raw
//! count is `2 L(2, n)`. [`Langford::new`] breaks the symmetry by keeping only the options
//! that put the pair of 1s in the left half (their midpoint at or before position `n`); then
//! each arrangement is found once, in one of its two directions, and the count is
//! `L(2, n)` (OEIS A014552).
//!
//! ```
//! use dancecard_engine::Solver;
//! use dancecard_models::{langford::Langford, Model};
//!
//! let model = Langford::new(3)?;
//! let problem = model.problem();
//! let mut solver = Solver::new(&problem);
//! let first = solver.first().unwrap();
//! assert_eq!(model.decode(&first), [3, 1, 2, 1, 3, 2]);
//! assert_eq!(solver.count().solutions, 1);
//! assert_eq!(Langford::with_reversals(3)?.count().0.solutions, 2);
//! # Ok::<(), dancecard_models::langford::LangfordError>(())
//! ```

use dancecard_engine::{Config, OptionId, Outcome, Problem, ProblemBuilder, Solver, Stats};

use crate::Model;

/// The largest `n` accepted (well past what can be counted).
pub const MAX_N: usize = 1000;

/// Why a Langford model could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LangfordError {
    /// `n` is 0 or larger than [`MAX_N`].
    #[error("n must be between 1 and {MAX_N}, not {0}")]
    Size(usize),
}

/// The exact cover model of Langford pairs (see the [module docs](self)).
///
/// An answer is the sequence of `2n` numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Langford {
    n: usize,
    reversals: bool,
    /// The `(k, i)` of each option: `k` at positions `i` and `i + k + 1` (from 0).
    options: Vec<(usize, usize)>,
}

impl Langford {
    /// The model counting each arrangement once (its reversal is not a separate solution).
    pub fn new(n: usize) -> Result<Langford, LangfordError> {
        Langford::build(n, false)
    }

    /// The raw model: every arrangement and its reversal, `2 L(2, n)` solutions.
    pub fn with_reversals(n: usize) -> Result<Langford, LangfordError> {
        Langford::build(n, true)
    }

    fn build(n: usize, reversals: bool) -> Result<Langford, LangfordError> {
        if n == 0 || n > MAX_N {
            return Err(LangfordError::Size(n));
        }
        let mut options = Vec::new();
        for k in 1..=n {
            for i in 0..2 * n {
                let j = i + k + 1;
                if j >= 2 * n {
                    break;
                }
                // Midpoint (i + j) / 2 with positions from 0; at or before position n - 1
                // means i + j <= 2n - 2 (never equal to 2n - 1 for k = 1, which is odd).
                if k == 1 && !reversals && i + j > 2 * n - 1 {
                    continue;
                }
                options.push((k, i));
            }
        }
        Ok(Langford { n, reversals, options })
    }

    /// `n`.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Whether reversals count as separate solutions.
    pub fn counts_reversals(&self) -> bool {
        self.reversals
    }

    /// Counts the solutions with the engine under `config`; also returns its counters.
    pub fn count_with(&self, config: Config) -> (Outcome, Stats) {
        let problem = self.problem();
        let mut solver = Solver::with_config(&problem, config);
        let outcome = solver.count();
        (outcome, *solver.stats())
    }

    /// Counts all solutions.
    pub fn count(&self) -> (Outcome, Stats) {
        self.count_with(Config::default())
    }
}

impl Model for Langford {
    type Answer = Vec<usize>;

    fn problem(&self) -> Problem {
        let n = self.n;
        let mut b = ProblemBuilder::new();
        let numbers: Vec<_> = (1..=n).map(|k| b.primary(&k.to_string()).ok()).collect();
        let positions: Vec<_> = (1..=2 * n).map(|p| b.primary(&format!("s{p}")).ok()).collect();
        for &(k, i) in &self.options {
            let items = [numbers[k - 1], positions[i], positions[i + k + 1]];
            let _ = b.option(items.into_iter().flatten());
        }
        b.build()
    }

    fn decode(&self, solution: &[OptionId]) -> Vec<usize> {
        let mut seq = vec![0; 2 * self.n];
        for o in solution {
            if let Some(&(k, i)) = self.options.get(o.index()) {
                seq[i] = k;
                seq[i + k + 1] = k;
            }
        }
        seq
    }
}

/// Whether `seq` is a Langford arrangement of `1, 1, ..., n, n`.
pub fn is_langford(seq: &[usize]) -> bool {
    let n = seq.len() / 2;
    if seq.len() != 2 * n || n == 0 {
        return false;
    }
    (1..=n).all(|k| {
        let at: Vec<usize> = (0..seq.len()).filter(|&p| seq[p] == k).collect();
        at.len() == 2 && at[1] - at[0] == k + 1
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn once_and_twice() {
        for n in 1..=8 {
            let once = Langford::new(n).unwrap().count().0.solutions;
            let twice = Langford::with_reversals(n).unwrap().count().0.solutions;
            assert_eq!(twice, 2 * once, "n = {n}");
        }
    }

    #[test]
    fn solutions_are_arrangements_and_no_reversal_repeats() {
        let all = crate::all_answers(&Langford::new(7).unwrap());
        assert_eq!(all.len(), 26);
        for s in &all {
            assert!(is_langford(s));
            let mut r = s.clone();
            r.reverse();
            assert!(!all.contains(&r));
        }
        assert!(Langford::new(0).is_err());
        assert!(!is_langford(&[1, 1]));
    }
}
