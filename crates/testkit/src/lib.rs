//! Test support shared by dancecard's crates (dev-only).
//!
//! - [`RawProblem`]: an exact cover problem as plain data, with no dependency on the engine, so
//!   that the engine's own unit tests can use it;
//! - [`brute_force`]: the oracle, a subset enumerator written to be obviously right rather
//!   than fast;
//! - [`raw_problem`]: a proptest strategy for small random problems with secondary items and
//!   colors.

#![deny(missing_docs)]

use proptest::prelude::*;

/// An exact cover problem as plain data: items `0..primary` are primary, the next `secondary`
/// are secondary; each option lists `(item, color)` pairs (colors only on secondary items).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawProblem {
    /// Number of primary items.
    pub primary: usize,
    /// Number of secondary items.
    pub secondary: usize,
    /// The options.
    pub options: Vec<Vec<(usize, Option<usize>)>>,
}

impl RawProblem {
    /// The problem in Knuth's DLX text format, items named `p0 p1 ... | s0 s1 ...`, colors
    /// `c0 c1 ...`.
    pub fn to_dlx(&self) -> String {
        let mut s = String::new();
        let names: Vec<String> = (0..self.primary + self.secondary).map(|i| self.name(i)).collect();
        s.push_str(&names[..self.primary].join(" "));
        if self.secondary > 0 {
            s.push_str(" | ");
            s.push_str(&names[self.primary..].join(" "));
        }
        s.push('\n');
        for o in &self.options {
            let parts: Vec<String> = o
                .iter()
                .map(|&(i, c)| match c {
                    Some(c) => format!("{}:c{c}", names[i]),
                    None => names[i].clone(),
                })
                .collect();
            s.push_str(&parts.join(" "));
            s.push('\n');
        }
        s
    }

    /// The name of item `i` in [`RawProblem::to_dlx`].
    pub fn name(&self, i: usize) -> String {
        if i < self.primary {
            format!("p{i}")
        } else {
            format!("s{}", i - self.primary)
        }
    }
}

/// Every solution of `problem`, each as a sorted list of option indices, the list sorted.
///
/// Enumerates subsets of the options in index order, including or excluding each one, and
/// skips a subset as soon as two chosen options clash (an item covered twice, or a secondary
/// item given two colors or a color and no color). At the end every primary item must be
/// covered.
pub fn brute_force(problem: &RawProblem) -> Vec<Vec<usize>> {
    let n = problem.primary + problem.secondary;
    // Per item: None = not covered; Some(None) = covered without color; Some(Some(c)) = color c.
    let mut state: Vec<(u32, Option<Option<usize>>)> = vec![(0, None); n];
    let mut chosen = Vec::new();
    let mut out = Vec::new();
    fn fits(
        state: &[(u32, Option<Option<usize>>)],
        primary: usize,
        o: &[(usize, Option<usize>)],
    ) -> bool {
        o.iter().all(|&(i, c)| match state[i].1 {
            None => true,
            Some(prev) => i >= primary && c.is_some() && prev == c,
        })
    }
    fn go(
        k: usize,
        p: &RawProblem,
        state: &mut Vec<(u32, Option<Option<usize>>)>,
        chosen: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if k == p.options.len() {
            if state[..p.primary].iter().all(|s| s.0 == 1) {
                out.push(chosen.clone());
            }
            return;
        }
        go(k + 1, p, state, chosen, out);
        let o = &p.options[k];
        if fits(state, p.primary, o) {
            for &(i, c) in o {
                state[i].0 += 1;
                state[i].1 = Some(c);
            }
            chosen.push(k);
            go(k + 1, p, state, chosen, out);
            let _ = chosen.pop();
            for &(i, _) in o {
                state[i].0 -= 1;
                if state[i].0 == 0 {
                    state[i].1 = None;
                }
            }
        }
    }
    go(0, problem, &mut state, &mut chosen, &mut out);
    out.sort();
    out
}

/// Small random problems: 1..=8 primary and 0..=4 secondary items, 0..=20 options with at
/// least one primary item each and no repeated item; secondary items colored (from 3 colors)
/// about half the time when `colors` is true.
pub fn raw_problem(colors: bool) -> impl Strategy<Value = RawProblem> {
    (1usize..=8, 0usize..=4).prop_flat_map(move |(primary, secondary)| {
        let n = primary + secondary;
        let option = (0..primary, proptest::collection::vec((0..n, 0usize..6), 0..=4)).prop_map(
            move |(first, rest)| {
                let mut o: Vec<(usize, Option<usize>)> = vec![(first, None)];
                for (i, c) in rest {
                    if o.iter().any(|&(j, _)| j == i) {
                        continue;
                    }
                    let color = (colors && i >= primary && c < 3).then_some(c);
                    o.push((i, color));
                }
                o
            },
        );
        proptest::collection::vec(option, 0..=20).prop_map(move |options| RawProblem {
            primary,
            secondary,
            options,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knuth_toy_has_one_solution() {
        // Items a..g = 0..7; options c e, a d g, b c f, a d f, b g, d e g.
        let p = RawProblem {
            primary: 7,
            secondary: 0,
            options: [
                vec![2, 4],
                vec![0, 3, 6],
                vec![1, 2, 5],
                vec![0, 3, 5],
                vec![1, 6],
                vec![3, 4, 6],
            ]
            .into_iter()
            .map(|o| o.into_iter().map(|i| (i, None)).collect())
            .collect(),
        };
        assert_eq!(brute_force(&p), vec![vec![0, 3, 4]]);
    }

    #[test]
    fn colors_are_compatible_only_when_equal() {
        // p0 and p1 primary, s0 secondary; options p0 s0:c0, p1 s0:c0, p1 s0:c1, p1 s0.
        let p = RawProblem {
            primary: 2,
            secondary: 1,
            options: vec![
                vec![(0, None), (2, Some(0))],
                vec![(1, None), (2, Some(0))],
                vec![(1, None), (2, Some(1))],
                vec![(1, None), (2, None)],
            ],
        };
        assert_eq!(brute_force(&p), vec![vec![0, 1]]);
    }
}
