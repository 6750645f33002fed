//! Every method on every kind of problem: the cross product of the engine's methods (the
//! rows of its capability table, `dancecard_engine::gate`) and the kinds of problem (plain,
//! secondary items, colors, multiplicities, costs, the empty solution, mixtures), each
//! checked against the brute-force oracle of `dancecard-testkit`.
//!
//! [`check_family`] runs one problem through every method: each either agrees with the
//! oracle or refuses the problem with the gate's error, and the gate said beforehand which
//! it would be. [`cross`] is the fuzz target that builds the problem from bytes; the
//! property test `tests/cross.rs` draws them from the testkit's strategies.

use std::collections::BTreeSet;

use dancecard_engine::gate::{self, Method};
use dancecard_engine::parallel::ParallelSearch;
use dancecard_engine::pre::{self, PreError};
use dancecard_engine::{
    Config, CostError, Count, CountError, CountMethod, CountRequest, Event, Heuristic, MemoConfig,
    OptionId, Problem, Solver, Stop, Unsupported,
};
use dancecard_format::parse_dlx;
use dancecard_scale::{merge, shard_units, Fingerprint, ShardResult};
use dancecard_testkit::{brute_force_family, k_best_costs, FamilyProblem, RawProblem};

use crate::bytes::Bytes;

/// How much of the cross product to run.
#[derive(Clone, Copy, Debug)]
pub struct CrossOptions {
    /// Count on two threads too (each such count builds a thread pool, which the fuzz build
    /// reports as leaks: the fuzz target leaves them out).
    pub threads: bool,
    /// Samples drawn from the ZDD, each checked to be a solution.
    pub samples: usize,
    /// Probes of each estimate.
    pub probes: u64,
}

impl Default for CrossOptions {
    fn default() -> CrossOptions {
        CrossOptions { threads: true, samples: 20, probes: 64 }
    }
}

/// The solutions of a search as the oracle writes them: each a sorted list of option
/// numbers, the list sorted.
type Solutions = Vec<Vec<usize>>;

/// One problem through every method of the capability table, against the oracle.
///
/// # Panics
///
/// When a method disagrees with the oracle, refuses a problem the gate says it handles (or
/// runs on one the gate says it refuses), or leaves the arena changed (I5): a panic names
/// the method and the problem's DLX text.
pub fn check_family(family: &FamilyProblem, options: CrossOptions) {
    let text = family.to_dlx();
    let doc = parse_dlx(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let problem = &doc.problem;
    assert_eq!(problem.option_count(), family.raw.options.len(), "the options of\n{text}");
    let expected = brute_force_family(family);
    let total = Count::from(expected.len() as u128);
    let cx = Context { problem, family, expected: &expected, total: &total, text: &text, options };
    for method in Method::ALL {
        let verdict = gate::check(problem, method);
        let ran = cx.run(method);
        match (&verdict, ran) {
            (Ok(()), Ok(())) => {}
            (Err(said), Err(refused)) => {
                assert_eq!(said, &refused, "{method}: the gate and the method differ\n{text}");
            }
            (Ok(()), Err(refused)) => {
                panic!("{method} refuses a problem the gate lets through: {refused}\n{text}")
            }
            (Err(said), Ok(())) => {
                panic!("{method} runs on a problem the gate refuses ({said})\n{text}")
            }
        }
    }
}

/// What every method's check needs.
struct Context<'a> {
    problem: &'a Problem,
    family: &'a FamilyProblem,
    expected: &'a Solutions,
    total: &'a Count,
    text: &'a str,
    options: CrossOptions,
}

impl Context<'_> {
    /// Runs `method` and checks its answer: `Err` when it refused the problem.
    fn run(&self, method: Method) -> Result<(), Unsupported> {
        match method {
            Method::Search => self.search(),
            Method::Memo => {
                self.counts(CountMethod::Memo, 1)?;
                self.memo_subtrees();
                Ok(())
            }
            Method::Auto => self.counts(CountMethod::Auto, 1),
            Method::Zdd => self.zdd(),
            Method::Sample => self.sample(),
            Method::Estimate => self.estimate(),
            Method::Threads if self.options.threads => {
                self.counts(CountMethod::Search, 2)?;
                self.counts(CountMethod::Auto, 2)?;
                // Threads sharing one memo table, each counting subtrees of the plain tree.
                let parallel = ParallelSearch::new(self.problem, Config::default(), 2);
                match parallel.count_memo(&MemoConfig::default(), &|_| {}) {
                    Ok((m, _)) if (&m.count, m.stop) == (self.total, Stop::Exhausted) => Ok(()),
                    other => self.fail(format!("the threaded memo gives {other:?}")),
                }
            }
            Method::Threads => gate::check(self.problem, Method::Threads),
            Method::Shards => self.shards(),
            Method::Pre => self.pre(),
            Method::MinCost => self.min_cost(),
            Method::Frontier => {
                self.counts(CountMethod::Frontier, 1)?;
                self.counts(CountMethod::Frontier, 2)
            }
            _ => panic!("{method}: a method of the capability table this check does not know"),
        }
    }

    fn fail(&self, what: String) -> ! {
        panic!("{what}\n{}", self.text)
    }

    /// A request of `method` on `threads` threads under `heuristic`.
    fn request(
        method: CountMethod,
        threads: usize,
        heuristic: Heuristic,
        zdd: bool,
    ) -> CountRequest {
        CountRequest {
            method,
            threads,
            memo: MemoConfig { zdd, ..MemoConfig::default() },
            config: Config::with_heuristic(heuristic),
        }
    }

    /// A count through the engine's one way in, for every heuristic; `Err` when refused.
    fn counts(&self, method: CountMethod, threads: usize) -> Result<(), Unsupported> {
        for heuristic in Heuristic::ALL {
            let request = Self::request(method, threads, heuristic, false);
            let counted = match dancecard_engine::count(self.problem, &request, &|_| {}) {
                Ok(counted) => counted,
                Err(CountError::Unsupported(u)) => return Err(u),
                Err(e) => self.fail(format!("{method:?} on {threads} threads fails: {e}")),
            };
            if (&counted.count, counted.stop) != (self.total, Stop::Exhausted) {
                self.fail(format!(
                    "{method:?} ({heuristic:?}, {threads} threads) counts {} ({}), the oracle {}",
                    counted.count, counted.stop, self.total
                ));
            }
        }
        Ok(())
    }

    /// The memoised count of each subtree of the plain search's tree (its prefixes at depths
    /// 1 to 3, which may leave items with multiplicities half done) adds up to the count,
    /// with a ZDD whose count is the subtree's; the arena restored after each.
    fn memo_subtrees(&self) {
        let mut solver = Solver::new(self.problem);
        for depth in 1..=3 {
            let mut sum = Count::ZERO;
            for unit in solver.prefixes(depth) {
                solver.set_prefix(&unit);
                let memo = MemoConfig { zdd: true, ..MemoConfig::default() };
                let out = solver
                    .count_memo(&memo, |_, _| std::ops::ControlFlow::Continue(()))
                    .unwrap_or_else(|e| self.fail(format!("memo under {unit:?}: {e}")));
                let zdd = out.zdd.unwrap_or_else(|| self.fail("no ZDD".to_owned()));
                if zdd.count() != out.count {
                    self.fail(format!(
                        "under {unit:?}: the ZDD counts {}, memo {}",
                        zdd.count(),
                        out.count
                    ));
                }
                sum += &out.count;
            }
            solver.set_prefix(&[]);
            self.pristine(&solver, "memoised counts of subtrees");
            if &sum != self.total {
                self.fail(format!("the memoised subtrees at depth {depth} add up to {sum}"));
            }
        }
    }

    /// The plain search: its solutions (each verified) and its count, for every heuristic.
    fn search(&self) -> Result<(), Unsupported> {
        self.counts(CountMethod::Search, 1)?;
        for heuristic in Heuristic::ALL {
            let mut solver = Solver::with_config(self.problem, Config::with_heuristic(heuristic));
            let found = self.sorted(solver.solutions(), "the plain search");
            if &found != self.expected {
                self.fail(format!("the plain search ({heuristic:?}) lists {found:?}"));
            }
            let first = solver.first();
            if first.is_some() == self.expected.is_empty() {
                self.fail(format!("first() gives {first:?}"));
            }
            self.pristine(&solver, "the plain search");
        }
        Ok(())
    }

    /// The ZDD: its count and its paths are the oracle's solutions.
    fn zdd(&self) -> Result<(), Unsupported> {
        for heuristic in Heuristic::ALL {
            let request = Self::request(CountMethod::Memo, 1, heuristic, true);
            let counted = match dancecard_engine::count(self.problem, &request, &|_| {}) {
                Ok(counted) => counted,
                Err(CountError::Unsupported(u)) => return Err(u),
                Err(e) => self.fail(format!("the ZDD fails: {e}")),
            };
            let Some(zdd) = counted.zdd else { self.fail("no ZDD".to_owned()) };
            if &zdd.count() != self.total || &counted.count != self.total {
                self.fail(format!("the ZDD counts {} ({})", zdd.count(), counted.count));
            }
            let paths = self.sorted(zdd.solutions(), "the ZDD");
            if &paths != self.expected {
                self.fail(format!("the ZDD's solutions ({heuristic:?}) are {paths:?}"));
            }
        }
        // The memoised count leaves the arena as it found it (M3), with and without a ZDD.
        for zdd in [false, true] {
            let mut solver = Solver::new(self.problem);
            let memo = MemoConfig { zdd, ..MemoConfig::default() };
            let _ = solver.count_memo(&memo, |_, _| std::ops::ControlFlow::Continue(()));
            self.pristine(&solver, "the memoised count");
        }
        Ok(())
    }

    /// Samples from the ZDD: solutions all, none when there is none.
    fn sample(&self) -> Result<(), Unsupported> {
        let request = Self::request(CountMethod::Memo, 1, Heuristic::Mrv, false);
        let counted = match dancecard_engine::sample(self.problem, &request, &|_| {}) {
            Ok(counted) => counted,
            Err(CountError::Unsupported(u)) => return Err(u),
            Err(e) => self.fail(format!("sampling fails: {e}")),
        };
        let Some(zdd) = counted.zdd else { self.fail("no ZDD to sample".to_owned()) };
        let set: BTreeSet<&Vec<usize>> = self.expected.iter().collect();
        let mut drawn = 0;
        for s in zdd.samples(7).take(self.options.samples) {
            drawn += 1;
            let mut v: Vec<usize> = s.iter().map(|o| o.index()).collect();
            v.sort_unstable();
            if !set.contains(&v) || self.problem.verify(&s).is_err() {
                self.fail(format!("the sample {v:?} is no solution"));
            }
        }
        let want = if self.expected.is_empty() { 0 } else { self.options.samples };
        if drawn != want {
            self.fail(format!("{drawn} samples drawn of {want}"));
        }
        Ok(())
    }

    /// Knuth's estimate: every probe's figures are those of one path of the plain search's
    /// tree (read from its trace), and the mean of all probes lies between the least and the
    /// largest of them; the expectation over the paths is the tree's node count and its
    /// count (the estimate is unbiased); the arena is left as it was.
    fn estimate(&self) -> Result<(), Unsupported> {
        // Ssxcc's estimate probes the tree of Mrv (its branching outside a whole count).
        for heuristic in [Heuristic::Mrv, Heuristic::Leftmost] {
            let config = Config::with_heuristic(heuristic);
            let e =
                dancecard_engine::estimate(self.problem, config.clone(), self.options.probes, 3)?;
            let mut plain = Solver::with_config(self.problem, config.clone());
            let outcome = plain.count();
            let nodes = plain.stats().nodes as f64;
            let paths = self.paths(&mut plain);
            self.pristine(&plain, "a trace");
            let (mut mean_nodes, mut mean_solutions) = (0.0, 0.0);
            for p in &paths {
                mean_nodes += p.chance * p.nodes;
                mean_solutions += p.chance * p.solutions;
            }
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
            if !close(mean_nodes, nodes) || !close(mean_solutions, outcome.solutions as f64) {
                self.fail(format!(
                    "the tree's paths ({heuristic:?}) expect {mean_nodes} nodes and \
                     {mean_solutions} solutions; the search makes {nodes} and {}",
                    outcome.solutions
                ));
            }
            let least = paths.iter().map(|p| p.nodes).fold(f64::INFINITY, f64::min);
            let most = paths.iter().map(|p| p.nodes).fold(0.0, f64::max);
            if e.probes != self.options.probes
                || !(least * (1.0 - 1e-12) <= e.nodes && e.nodes <= most * (1.0 + 1e-12))
            {
                self.fail(format!(
                    "the estimate ({heuristic:?}) of {} nodes is not between {least} and {most}",
                    e.nodes
                ));
            }
            // One probe at a time: each is one of the paths.
            let mut solver = Solver::with_config(self.problem, config);
            for seed in 0..8 {
                let one = solver.estimate(1, seed);
                let found = paths
                    .iter()
                    .any(|p| close(p.nodes, one.nodes) && close(p.solutions, one.solutions));
                if !found {
                    self.fail(format!("a probe ({heuristic:?}, seed {seed}) is no path: {one:?}"));
                }
                self.pristine(&solver, "an estimate");
            }
        }
        Ok(())
    }

    /// The root-to-leaf paths of the plain search's tree, from its trace: each with its
    /// chance under the estimate's uniform choices and the figures its probe would give.
    fn paths(&self, solver: &mut Solver) -> Vec<PathFigures> {
        let (events, whole) = solver.trace(1 << 22);
        assert!(whole, "the trace of a small problem is whole\n{}", self.text);
        if events.is_empty() {
            // No primary item: the root is the one solution.
            return vec![PathFigures { chance: 1.0, nodes: 1.0, solutions: 1.0 }];
        }
        // Algorithm M enters a solution's level; Algorithms X and C count it after the last.
        let enters_solutions = self.problem.has_bounds();
        // Per level: the weight of its node, the probe's nodes on the path so far, its degree.
        let mut weight = vec![1.0f64];
        let mut sum = vec![0.0f64];
        let mut degree: Vec<f64> = vec![1.0];
        let mut paths = Vec::new();
        for (event, _) in events {
            match event {
                Event::Enter { level } => {
                    weight.truncate(level + 1);
                    sum.truncate(level + 1);
                    degree.truncate(level + 1);
                    if level > 0 {
                        weight.resize(level + 1, 0.0);
                        sum.resize(level + 1, 0.0);
                        weight[level] = weight[level - 1] * degree[level - 1];
                        sum[level] = sum[level - 1] + weight[level];
                    } else {
                        weight[0] = 1.0;
                        sum[0] = 1.0;
                    }
                    degree.resize(level + 1, 0.0);
                }
                Event::Choose { level, len, .. } => {
                    degree.resize(level + 1, 0.0);
                    degree[level] = f64::from(len);
                    if len == 0 {
                        paths.push(PathFigures {
                            chance: 1.0 / weight[level],
                            nodes: sum[level],
                            solutions: 0.0,
                        });
                    }
                }
                Event::Solution { level } if enters_solutions => paths.push(PathFigures {
                    chance: 1.0 / weight[level],
                    nodes: sum[level],
                    solutions: weight[level],
                }),
                Event::Solution { level } => {
                    let w = weight[level] * degree[level];
                    paths.push(PathFigures {
                        chance: 1.0 / w,
                        nodes: sum[level] + w,
                        solutions: w,
                    });
                }
                _ => {}
            }
        }
        paths
    }

    /// Shards at two depths, counted unit by unit, written as shard results and merged.
    fn shards(&self) -> Result<(), Unsupported> {
        gate::check(self.problem, Method::Shards)?;
        for depth in [1, 3] {
            let shards = 3;
            let mut results = Vec::new();
            for index in 0..shards {
                let mut lister = Solver::new(self.problem);
                let units = shard_units(&mut lister, depth, index, shards);
                let mut solver = Solver::new(self.problem);
                let mut stats = dancecard_engine::Stats::default();
                let mut solutions = 0;
                for unit in &units {
                    solver.set_prefix(unit);
                    solutions += solver.count().solutions;
                    stats.add(solver.stats());
                }
                solver.set_prefix(&[]);
                self.pristine(&solver, "a shard's units");
                let outcome = dancecard_engine::Outcome { solutions, stop: Stop::Exhausted };
                let fingerprint = Fingerprint::new(self.problem, Heuristic::Mrv, depth, shards);
                let result = ShardResult::new(index, outcome, &stats, units.len(), fingerprint);
                let back = ShardResult::parse(result.to_json().as_bytes()).unwrap_or_else(|e| {
                    self.fail(format!("a shard result does not read back: {e}"))
                });
                results.push((format!("s{index}.json"), back));
            }
            match merge(&results) {
                Ok(merged) if &merged.total == self.total => {}
                other => self.fail(format!("the shards at depth {depth} merge to {other:?}")),
            }
        }
        Ok(())
    }

    /// Preprocessing: the reduced problem has the same solutions, given as original options.
    fn pre(&self) -> Result<(), Unsupported> {
        let r = match pre::reduce(self.problem) {
            Ok(r) => r,
            Err(PreError::Unsupported(u)) => return Err(u),
            Err(e) => self.fail(format!("pre fails: {e}")),
        };
        let mut solver = Solver::new(&r.problem);
        let mut found: Solutions = solver
            .solutions()
            .map(|s| {
                let mut v: Vec<usize> = s.iter().map(|o| r.option_map[o.index()].index()).collect();
                v.sort_unstable();
                v
            })
            .collect();
        found.sort();
        if &found != self.expected || (r.infeasible.is_some() && !found.is_empty()) {
            self.fail(format!("after pre, the solutions are {found:?}"));
        }
        self.pristine_of(&solver, &r.problem, "the search after pre");
        Ok(())
    }

    /// The `k` least costs, each of a solution.
    fn min_cost(&self) -> Result<(), Unsupported> {
        let k = 3;
        let mut solver = Solver::new(self.problem);
        let best = match solver.min_cost(k) {
            Ok(best) => best,
            Err(CostError::Unsupported(u)) => return Err(u),
            Err(e) => self.fail(format!("min-cost fails: {e}")),
        };
        let costs: Vec<u64> = best.best.iter().map(|s| s.cost).collect();
        let want = k_best_costs(self.family, k);
        if costs != want || best.stop != Stop::Exhausted {
            self.fail(format!("min-cost gives {costs:?} ({}), the oracle {want:?}", best.stop));
        }
        for s in &best.best {
            if self.problem.verify(&s.options).is_err()
                || self.problem.cost_of(&s.options) != s.cost
            {
                self.fail(format!("min-cost's solution {:?} is wrong", s.options));
            }
        }
        self.pristine(&solver, "min-cost");
        Ok(())
    }

    /// Solutions as the oracle writes them, each verified.
    fn sorted(&self, solutions: impl Iterator<Item = Vec<OptionId>>, what: &str) -> Solutions {
        let mut out: Solutions = solutions
            .map(|s| {
                if let Err(e) = self.problem.verify(&s) {
                    self.fail(format!("{what} gives {s:?}, which is no solution: {e}"));
                }
                let mut v: Vec<usize> = s.iter().map(|o| o.index()).collect();
                v.sort_unstable();
                v
            })
            .collect();
        out.sort();
        out
    }

    fn pristine(&self, solver: &Solver, what: &str) {
        self.pristine_of(solver, self.problem, what);
    }

    fn pristine_of(&self, solver: &Solver, problem: &Problem, what: &str) {
        if !solver.is_pristine(problem) {
            self.fail(format!("(I5) {what} leaves the arena changed"));
        }
    }
}

/// One root-to-leaf path of a search tree, as a probe of Knuth's estimate sees it.
#[derive(Clone, Copy, Debug)]
struct PathFigures {
    /// The chance that a probe takes it: one over the product of the degrees on it.
    chance: f64,
    /// The probe's estimate of the tree's nodes.
    nodes: f64,
    /// The probe's estimate of the solutions.
    solutions: f64,
}

/// A problem of any kind from bytes, for the fuzz target [`cross`].
///
/// Layout: byte 0: the number of primary items (`1 + b % 6`) and of secondary ones
/// (`b / 6 % 4`); byte 1: flags (bit 0 gives bounds,
/// bit 1 colors, bit 2 costs); then one byte of bounds per primary item when bounds are on
/// (`lo = b % 3`, `hi = 1 + b / 3 % 3`, `1:1` when bit 7 is set); then options, each a length
/// byte (`1 + b % 4` entries) followed by that many entry bytes (item `b % items`, color
/// `b / 64 % 3` on a secondary item when colors are on: 0 none, 1 `c0`, 2 `c1`) and, with
/// costs, a cost byte (`b % 10`). At most 12 options.
pub fn family_of(data: &[u8]) -> FamilyProblem {
    let mut bytes = Bytes::new(data);
    let (primary, secondary) = bytes.items(6, 4);
    let flags = bytes.byte().unwrap_or(0);
    let (bounded, colored, costed) = (flags & 1 != 0, flags & 2 != 0, flags & 4 != 0);
    let bounds: Vec<(u32, u32)> = (0..primary)
        .map(|_| {
            let b = if bounded { bytes.byte().unwrap_or(0x80) } else { 0x80 };
            if b & 0x80 != 0 {
                (1, 1)
            } else {
                let hi = 1 + u32::from(b / 3 % 3);
                (u32::from(b % 3).min(hi), hi)
            }
        })
        .collect();
    let n = primary + secondary;
    let mut options = Vec::new();
    let mut costs = Vec::new();
    while options.len() < 12 {
        let Some(len) = bytes.byte() else { break };
        let mut option: Vec<(usize, Option<usize>)> = Vec::new();
        for _ in 0..1 + len % 4 {
            let Some(e) = bytes.byte() else { break };
            let item = usize::from(e) % n;
            if option.iter().any(|&(i, _)| i == item) {
                continue;
            }
            let color = match (colored && item >= primary, e / 64 % 3) {
                (true, 1) => Some(0),
                (true, 2) => Some(1),
                _ => None,
            };
            option.push((item, color));
        }
        // Every option has a primary item: the builder refuses one without.
        if !option.iter().any(|&(i, _)| i < primary) {
            option.push((usize::from(len) % primary, None));
        }
        options.push(option);
        costs.push(if costed { u64::from(bytes.byte().unwrap_or(0) % 10) } else { 0 });
    }
    FamilyProblem { raw: RawProblem { primary, secondary, options }, bounds, costs }
}

/// The fuzz target `cross`: a problem of any kind from the bytes ([`family_of`]), through
/// every method of the capability table ([`check_family`], without threads).
pub fn cross(data: &[u8]) {
    let options = CrossOptions { threads: false, samples: 10, probes: 16 };
    check_family(&family_of(data), options);
}
