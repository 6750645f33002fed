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
//!   and costs on options (DLX5); [`any_problem`] mixes every kind in even proportions;
//! - [`proptest_config`]: the property tests' configuration;
//! - [`testdata`], [`instance_text`], [`dominoes`] and [`queens`]: the instance files, and
//!   the generators of the domino and queens instances too large to ship.

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
    enumerate(problem, &vec![(1, 1); problem.primary])
}

/// Every set of options of `p` that covers each primary item `i` between `bounds[i].0` and
/// `bounds[i].1` times and gives each secondary item at most one color (or covers it once,
/// uncolored): the subsets in index order, each option included or excluded, a branch cut as
/// soon as an option does not fit. Sorted as [`brute_force`]'s.
fn enumerate(p: &RawProblem, bounds: &[(u32, u32)]) -> Vec<Vec<usize>> {
    // Per item: how many chosen options cover it, and None = not covered; Some(None) =
    // covered without color; Some(Some(c)) = color c.
    type State = Vec<(u32, Option<Option<usize>>)>;
    struct Walk<'a> {
        p: &'a RawProblem,
        bounds: &'a [(u32, u32)],
        state: State,
        chosen: Vec<usize>,
        out: Vec<Vec<usize>>,
    }
    impl Walk<'_> {
        fn fits(&self, o: &[(usize, Option<usize>)]) -> bool {
            o.iter().all(|&(i, c)| {
                if i < self.p.primary {
                    return self.state[i].0 < self.bounds[i].1;
                }
                match self.state[i].1 {
                    None => true,
                    Some(prev) => c.is_some() && prev == c,
                }
            })
        }
        fn go(&mut self, k: usize) {
            let p = self.p;
            if k == p.options.len() {
                let covered = &self.state[..p.primary];
                if covered.iter().zip(self.bounds).all(|(s, b)| b.0 <= s.0 && s.0 <= b.1) {
                    self.out.push(self.chosen.clone());
                }
                return;
            }
            self.go(k + 1);
            let o = &p.options[k];
            if self.fits(o) {
                for &(i, c) in o {
                    self.state[i].0 += 1;
                    self.state[i].1 = Some(c);
                }
                self.chosen.push(k);
                self.go(k + 1);
                let _ = self.chosen.pop();
                for &(i, _) in o {
                    self.state[i].0 -= 1;
                    if self.state[i].0 == 0 {
                        self.state[i].1 = None;
                    }
                }
            }
        }
    }
    let n = p.primary + p.secondary;
    let mut walk =
        Walk { p, bounds, state: vec![(0, None); n], chosen: Vec::new(), out: Vec::new() };
    walk.go(0);
    walk.out.sort();
    walk.out
}

/// One random option over `primary` primary and `secondary` secondary items: a primary item,
/// then up to `more` items drawn each with a number in `0..draws`, a repeated item dropped; a
/// secondary item takes its number as its color when that number is below `palette` (no
/// colors when `palette` is `None`).
fn option_of(
    primary: usize,
    secondary: usize,
    more: usize,
    draws: usize,
    palette: Option<usize>,
) -> impl Strategy<Value = Vec<(usize, Option<usize>)>> {
    let n = primary + secondary;
    (0..primary, proptest::collection::vec((0..n, 0..draws), 0..=more)).prop_map(
        move |(first, rest)| {
            let mut o: Vec<(usize, Option<usize>)> = vec![(first, None)];
            for (i, c) in rest {
                if o.iter().any(|&(j, _)| j == i) {
                    continue;
                }
                let color = (i >= primary && palette.is_some_and(|p| c < p)).then_some(c);
                o.push((i, color));
            }
            o
        },
    )
}

/// Small random problems: 1..=8 primary and 0..=4 secondary items, 0..=20 options with at
/// least one primary item each and no repeated item; secondary items colored (from 3 colors)
/// about half the time when `colors` is true.
pub fn raw_problem(colors: bool) -> impl Strategy<Value = RawProblem> {
    (1usize..=8, 0usize..=4).prop_flat_map(move |(primary, secondary)| {
        let option = option_of(primary, secondary, 4, 6, colors.then_some(3));
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
    enumerate(&problem.raw, &problem.bounds)
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

/// Small random problems of every kind the DLX format writes, in proportions that make each
/// kind common: 1 to 6 primary and 0 to 3 secondary items, 0 to `max_options` options of 1
/// to 4 items (each with a primary item), and independently (each about half the time)
/// colors on secondary items, multiplicities (bounds `lo:hi` with `lo` in `0..=2` and `hi`
/// in `1..=3`, so `0:b` and `b > 1` both appear; `1:1` on some items), and costs `0..10`.
/// When every primary item's lower bound is 0, the empty set is a solution.
pub fn any_problem(max_options: usize) -> impl Strategy<Value = FamilyProblem> {
    (1usize..=6, 0usize..=3, any::<(bool, bool, bool)>()).prop_flat_map(
        move |(primary, secondary, (bounded, colored, costed))| {
            let option = option_of(primary, secondary, 3, 4, colored.then_some(2));
            let options = proptest::collection::vec(option, 0..=max_options);
            let bounds = proptest::collection::vec((0u32..=2, 1u32..=3, 0u8..4), primary).prop_map(
                move |b| {
                    b.into_iter()
                        .map(
                            |(lo, hi, plain)| {
                                if !bounded || plain == 0 {
                                    (1, 1)
                                } else {
                                    (lo.min(hi), hi)
                                }
                            },
                        )
                        .collect::<Vec<_>>()
                },
            );
            (options, bounds).prop_flat_map(move |(options, bounds)| {
                let costs = proptest::collection::vec(0u64..10, options.len()).prop_map(move |c| {
                    if costed {
                        c
                    } else {
                        vec![0; c.len()]
                    }
                });
                let raw = RawProblem { primary, secondary, options };
                (Just(raw), Just(bounds), costs).prop_map(|(raw, bounds, costs)| FamilyProblem {
                    raw,
                    bounds,
                    costs,
                })
            })
        },
    )
}

/// Whether the long runs take their nightly size (`DANCECARD_NIGHTLY=1`), rather than the
/// CI size that `./scripts/test` runs: the searches that the `check-invariants` feature makes
/// quadratic, for instance (their full size runs unchecked in every `cargo test`).
pub fn nightly() -> bool {
    std::env::var_os("DANCECARD_NIGHTLY").is_some_and(|v| !v.is_empty() && v != "0")
}

/// The proptest configuration of the property tests: `cases` cases, and no shrinking when
/// the `CI` variable is set (fail fast there; shrink to a small case locally).
pub fn proptest_config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        max_shrink_iters: if std::env::var_os("CI").is_some() { 0 } else { 2048 },
        ..ProptestConfig::default()
    }
}

/// The bytes of `path` under the repository's `testdata/` folder; panics, naming the file,
/// when it cannot be read.
pub fn testdata(path: &str) -> Vec<u8> {
    let full = format!("{}/../../testdata/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// The DLX text of `testdata/instances/NAME.dlx`.
pub fn instance_text(name: &str) -> String {
    String::from_utf8(testdata(&format!("instances/{name}.dlx"))).expect("an instance is UTF-8")
}

/// Domino tilings of a `rows x cols` board in DLX text, in the encoding of the domino files of
/// `testdata/instances`: items `rc` in hexadecimal, row by row; for each cell its horizontal
/// domino, then its vertical one.
pub fn dominoes(rows: usize, cols: usize) -> String {
    let cell = |r: usize, c: usize| format!("{r:x}{c:x}");
    let cells: Vec<String> = (0..rows).flat_map(|r| (0..cols).map(move |c| cell(r, c))).collect();
    let mut text = cells.join(" ") + "\n";
    for r in 0..rows {
        for c in 0..cols {
            if c + 1 < cols {
                text += &format!("{} {}\n", cell(r, c), cell(r, c + 1));
            }
            if r + 1 < rows {
                text += &format!("{} {}\n", cell(r, c), cell(r + 1, c));
            }
        }
    }
    text
}

/// The `n` queens in DLX text, as `testdata/instances/queens12.dlx`: ranks and files primary
/// in organ-pipe order (the middle first), the diagonals secondary.
pub fn queens(n: usize) -> String {
    let mut order = Vec::new();
    for k in 0..n {
        let d = k.div_ceil(2);
        order.push(if k % 2 == 1 { n / 2 - d } else { n / 2 + d });
    }
    let order: Vec<usize> = order.into_iter().filter(|&x| x < n).collect();
    let mut items: Vec<String> = Vec::new();
    for &x in &order {
        items.push(format!("r{x}"));
        items.push(format!("c{x}"));
    }
    let diagonals: Vec<String> =
        (0..2 * n - 1).flat_map(|d| [format!("a{d}"), format!("b{d}")]).collect();
    let mut text = format!("{} | {}\n", items.join(" "), diagonals.join(" "));
    for r in 0..n {
        for c in 0..n {
            text += &format!("r{r} c{c} a{} b{}\n", r + c, n - 1 - r + c);
        }
    }
    text
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
