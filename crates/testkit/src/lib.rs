//! Test support shared by dancecard's crates (dev-only).
//!
//! - [`RawProblem`]: an exact cover problem as plain data, with no dependency on the engine, so
//!   that the engine's own unit tests can use it;
//! - [`brute_force`]: the oracle, a subset enumerator written to be obviously right rather
//!   than fast;
//! - [`raw_problem`]: a proptest strategy for small random problems with secondary items and
//!   colors;
//! - [`FamilyProblem`], [`brute_force_family`], [`k_best_costs`] and [`family_problem`]: the
//!   same for the rest of Knuth's family, with bounds on primary items (DLX3's multiplicities)
//!   and costs on options (DLX5).

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

/// A problem of Knuth's whole family as plain data: a [`RawProblem`], bounds `(lo, hi)` for
/// each primary item (cover it at least `lo` and at most `hi` times) and a cost for each
/// option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyProblem {
    /// Items and options.
    pub raw: RawProblem,
    /// `(lo, hi)` per primary item, `1 <= hi`, `lo <= hi`.
    pub bounds: Vec<(u32, u32)>,
    /// The cost of each option.
    pub costs: Vec<u64>,
}

impl FamilyProblem {
    /// The problem in Knuth's DLX text format, with DLX3's bounds (`lo:hi|p0`) and DLX5's
    /// costs (`|7` after an option); names as in [`RawProblem::to_dlx`].
    pub fn to_dlx(&self) -> String {
        let plain = self.raw.to_dlx();
        let mut lines = plain.lines();
        let head = lines.next().unwrap_or_default();
        let mut s = String::new();
        for (k, token) in head.split(' ').enumerate() {
            if k > 0 {
                s.push(' ');
            }
            match self.bounds.get(k) {
                Some(&(lo, hi)) if k < self.raw.primary && (lo, hi) != (1, 1) => {
                    s.push_str(&format!("{lo}:{hi}|{token}"));
                }
                _ => s.push_str(token),
            }
        }
        s.push('\n');
        for (o, line) in lines.enumerate() {
            s.push_str(line);
            if self.costs[o] > 0 {
                s.push_str(&format!(" |{}", self.costs[o]));
            }
            s.push('\n');
        }
        s
    }

    /// The total cost of a set of options.
    pub fn cost(&self, options: &[usize]) -> u64 {
        options.iter().map(|&o| self.costs[o]).sum()
    }
}

/// Every solution of `problem` with its bounds (costs do not matter), each as a sorted list
/// of option indices, the list sorted: every option at most once, every primary item `i`
/// covered between `lo_i` and `hi_i` times, secondary items as in [`brute_force`].
pub fn brute_force_family(problem: &FamilyProblem) -> Vec<Vec<usize>> {
    let p = &problem.raw;
    let n = p.primary + p.secondary;
    let mut state: Vec<(u32, Option<Option<usize>>)> = vec![(0, None); n];
    let mut chosen = Vec::new();
    let mut out = Vec::new();
    fn fits(
        state: &[(u32, Option<Option<usize>>)],
        bounds: &[(u32, u32)],
        primary: usize,
        o: &[(usize, Option<usize>)],
    ) -> bool {
        o.iter().all(|&(i, c)| {
            if i < primary {
                return state[i].0 < bounds[i].1;
            }
            match state[i].1 {
                None => true,
                Some(prev) => c.is_some() && prev == c,
            }
        })
    }
    fn go(
        k: usize,
        f: &FamilyProblem,
        state: &mut Vec<(u32, Option<Option<usize>>)>,
        chosen: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        let p = &f.raw;
        if k == p.options.len() {
            if state[..p.primary].iter().zip(&f.bounds).all(|(s, b)| b.0 <= s.0 && s.0 <= b.1) {
                out.push(chosen.clone());
            }
            return;
        }
        go(k + 1, f, state, chosen, out);
        let o = &p.options[k];
        if fits(state, &f.bounds, p.primary, o) {
            for &(i, c) in o {
                state[i].0 += 1;
                state[i].1 = Some(c);
            }
            chosen.push(k);
            go(k + 1, f, state, chosen, out);
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

/// The `k` least total costs among the solutions of `problem` (repeated when several
/// solutions cost the same), in increasing order; fewer when there are fewer solutions.
pub fn k_best_costs(problem: &FamilyProblem, k: usize) -> Vec<u64> {
    let mut costs: Vec<u64> = brute_force_family(problem).iter().map(|s| problem.cost(s)).collect();
    costs.sort_unstable();
    costs.truncate(k);
    costs
}

/// Small random problems of the whole family: [`raw_problem`]'s items and options, bounds
/// `lo:hi` with `hi` in `1..=3` on each primary item (`1:1` about half the time), and costs
/// in `0..20` on each option when `costs` is true (else 0).
pub fn family_problem(colors: bool, costs: bool) -> impl Strategy<Value = FamilyProblem> {
    raw_problem(colors).prop_flat_map(move |raw| {
        let bounds = proptest::collection::vec((0u32..=3, 1u32..=3, any::<bool>()), raw.primary)
            .prop_map(|b| {
                b.into_iter()
                    .map(|(lo, hi, plain)| if plain { (1, 1) } else { (lo.min(hi), hi) })
                    .collect::<Vec<_>>()
            });
        let max = if costs { 20 } else { 1 };
        let option_costs = proptest::collection::vec(0u64..max, raw.options.len());
        (Just(raw), bounds, option_costs).prop_map(|(raw, bounds, costs)| FamilyProblem {
            raw,
            bounds,
            costs,
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

    #[test]
    fn bounds_allow_repeats_within_them() {
        // p0 between 0 and 2 times, p1 exactly twice; options p0 p1, p1, p1, p0.
        let raw = RawProblem {
            primary: 2,
            secondary: 0,
            options: vec![
                vec![(0, None), (1, None)],
                vec![(1, None)],
                vec![(1, None)],
                vec![(0, None)],
            ],
        };
        let f = FamilyProblem { raw, bounds: vec![(0, 2), (2, 2)], costs: vec![5, 1, 2, 3] };
        let all = brute_force_family(&f);
        assert_eq!(
            all,
            vec![vec![0, 1], vec![0, 1, 3], vec![0, 2], vec![0, 2, 3], vec![1, 2], vec![1, 2, 3]]
        );
        assert_eq!(k_best_costs(&f, 2), vec![3, 6]);
        assert_eq!(f.to_dlx(), "0:2|p0 2:2|p1\np0 p1 |5\np1 |1\np1 |2\np0 |3\n");
        // Plain bounds give the plain oracle's answer.
        let plain = FamilyProblem { bounds: vec![(1, 1), (1, 1)], ..f.clone() };
        assert_eq!(brute_force_family(&plain), brute_force(&plain.raw));
    }
}
