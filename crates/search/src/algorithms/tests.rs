//! The five algorithms against each other and against Dijkstra's algorithm, on random graphs.

use proptest::prelude::*;

use super::*;
use crate::space::{Cost, Reversible, Space, Step};
use crate::stats::{Budget, Stop};

/// A graph with costs; the goal is the last node; `h` is an admissible heuristic table.
#[derive(Debug, Clone)]
struct Graph {
    edges: Vec<Vec<(usize, Cost)>>,
    h: Vec<Cost>,
}

impl Space for Graph {
    type State = usize;
    type Move = usize;
    fn successors(&self, &x: &usize, out: &mut Vec<Step<usize, usize>>) {
        out.extend(self.edges[x].iter().map(|&(y, c)| Step { mv: y, state: y, cost: c }));
    }
    fn is_goal(&self, &x: &usize) -> bool {
        x == self.edges.len() - 1
    }
    fn heuristic(&self, &x: &usize) -> Cost {
        self.h[x]
    }
}

impl Reversible for Graph {
    fn goal_state(&self) -> usize {
        self.edges.len() - 1
    }
}

/// Cheapest costs to the goal (Dijkstra on reversed edges, O(n²)).
fn costs_to_goal(edges: &[Vec<(usize, Cost)>]) -> Vec<Option<Cost>> {
    let n = edges.len();
    let mut dist: Vec<Option<Cost>> = vec![None; n];
    let mut done = vec![false; n];
    dist[n - 1] = Some(0);
    while let Some(u) = (0..n).filter(|&u| !done[u] && dist[u].is_some()).min_by_key(|&u| dist[u]) {
        done[u] = true;
        for (v, out) in edges.iter().enumerate() {
            for &(w, c) in out {
                if w == u {
                    let d = dist[u].unwrap() + c;
                    if dist[v].is_none_or_greater(d) {
                        dist[v] = Some(d);
                    }
                }
            }
        }
    }
    dist
}

trait NoneOrGreater {
    fn is_none_or_greater(&self, d: Cost) -> bool;
}

impl NoneOrGreater for Option<Cost> {
    fn is_none_or_greater(&self, d: Cost) -> bool {
        self.map_or(true, |x| x > d)
    }
}

/// Replays `moves` from `start`, returning the state reached and the cost.
fn replay(g: &Graph, start: usize, moves: &[usize]) -> (usize, Cost) {
    let mut x = start;
    let mut cost = 0;
    for &m in moves {
        let c = g.edges[x]
            .iter()
            .filter(|&&(y, _)| y == m)
            .map(|&(_, c)| c)
            .min()
            .expect("a real edge");
        cost += c;
        x = m;
    }
    (x, cost)
}

fn graph(n: usize, raw: &[(usize, usize, Cost)], undirected: bool, unit: bool) -> Graph {
    let mut edges = vec![Vec::new(); n];
    for &(a, b, c) in raw {
        let (a, b, c) = (a % n, b % n, if unit { 1 } else { c });
        edges[a].push((b, c));
        if undirected {
            edges[b].push((a, c));
        }
    }
    let exact = costs_to_goal(&edges);
    // An admissible (often inconsistent) heuristic: the true cost, halved on odd nodes.
    let h = exact
        .iter()
        .enumerate()
        .map(|(i, d)| d.map_or(0, |d| if i % 2 == 1 { d / 2 } else { d }))
        .collect();
    Graph { edges, h }
}

fn edges() -> impl Strategy<Value = (usize, Vec<(usize, usize, Cost)>)> {
    (2usize..12)
        .prop_flat_map(|n| (Just(n), proptest::collection::vec((0..n, 0..n, 1..6u64), 0..30)))
}

proptest! {
    #[test]
    fn cost_optimal_algorithms_agree_with_dijkstra((n, raw) in edges()) {
        let g = graph(n, &raw, false, false);
        let expected = costs_to_goal(&g.edges)[0];
        // Costs are 1 to 5: a cheapest path costs at most 5 (n - 1). Without one, IDA* (a tree
        // search, its heuristic 0 where the goal is out of reach) would walk every walk of the
        // graph's cycles up to that bound: exponentially many on a dense graph, so it gets a
        // node budget there and must not claim a path.
        let mut ida_budget = Budget::new().max_cost(5 * n as Cost);
        if expected.is_none() {
            ida_budget = ida_budget.max_nodes(200_000);
        }
        for (name, result) in [
            ("a*", a_star(&g, 0, &Budget::new())),
            ("ida*", ida_star(&g, 0, &ida_budget)),
        ] {
            match expected {
                Some(cost) => {
                    let path = result.path.unwrap_or_else(|| panic!("{name}: no path"));
                    prop_assert_eq!(path.cost, cost, "{}", name);
                    prop_assert_eq!(replay(&g, 0, &path.moves), (n - 1, cost), "{}", name);
                    prop_assert_eq!(result.stop, Stop::Found);
                }
                None => prop_assert!(result.path.is_none(), "{}", name),
            }
        }
    }

    #[test]
    fn move_optimal_algorithms_agree((n, raw) in edges()) {
        let g = graph(n, &raw, true, true);
        let expected = costs_to_goal(&g.edges)[0];
        let results = [
            ("bfs", bfs(&g, 0, &Budget::new())),
            ("bidir", bidirectional_bfs(&g, 0, &Budget::new())),
            // A shortest path has at most n - 1 moves.
            ("iddfs", iddfs(&g, 0, &Budget::new().max_cost(n as Cost - 1))),
            ("ida*", ida_star(&g, 0, &Budget::new().max_cost(n as Cost - 1))),
        ];
        for (name, result) in results {
            match expected {
                Some(moves) => {
                    let path = result.path.unwrap_or_else(|| panic!("{name}: no path"));
                    prop_assert_eq!(path.moves.len() as Cost, moves, "{}", name);
                    prop_assert_eq!(replay(&g, 0, &path.moves).0, n - 1, "{}", name);
                }
                None => {
                    prop_assert!(result.path.is_none(), "{}", name);
                    let stop_ok = matches!(result.stop, Stop::Exhausted | Stop::CostLimit);
                    prop_assert!(stop_ok, "{}: {:?}", name, result.stop);
                }
            }
        }
    }

    #[test]
    fn exploration_counts_every_reachable_state((n, raw) in edges()) {
        let g = graph(n, &raw, false, true);
        let mut reach = vec![false; n];
        let mut stack = vec![0];
        while let Some(x) = stack.pop() {
            if !std::mem::replace(&mut reach[x], true) {
                stack.extend(g.edges[x].iter().map(|&(y, _)| y));
            }
        }
        let mut seen = Vec::new();
        let explored = bfs_explore(&g, 0, &Budget::new(), |&x, _| seen.push(x));
        prop_assert_eq!(explored.states() as usize, reach.iter().filter(|&&r| r).count());
        seen.sort_unstable();
        seen.dedup();
        prop_assert_eq!(seen.len() as u64, explored.states());
    }
}

/// An infinite line: every number has successors x - 1 and x + 1; the goal is far away.
struct Line;

impl Space for Line {
    type State = i64;
    type Move = i64;
    fn successors(&self, &x: &i64, out: &mut Vec<Step<i64, i64>>) {
        out.push(Step { mv: -1, state: x - 1, cost: 1 });
        out.push(Step { mv: 1, state: x + 1, cost: 1 });
    }
    fn is_goal(&self, &x: &i64) -> bool {
        x == 1_000_000
    }
}

impl Reversible for Line {
    fn goal_state(&self) -> i64 {
        1_000_000
    }
}

#[test]
fn limits_stop_every_algorithm() {
    type Algorithm = fn(&Line, i64, &Budget) -> crate::stats::SearchResult<i64>;
    let all: [(&str, Algorithm); 5] = [
        ("bfs", bfs),
        ("bidirectional_bfs", bidirectional_bfs),
        ("a_star", a_star),
        ("ida_star", ida_star),
        ("iddfs", iddfs),
    ];
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    // Each limit, its stop, and the algorithms it applies to (IDA* and IDDFS store no states;
    // IDDFS is not checked for cancelling or the time limit).
    let cases = [
        (Budget::new().max_nodes(1000), Stop::NodeLimit, 5),
        (Budget::new().max_states(100), Stop::MemoryLimit, 3),
        (Budget::new().max_cost(10), Stop::CostLimit, 5),
        (Budget::new().cancel(flag), Stop::Cancelled, 4),
        (Budget::new().time_limit(std::time::Duration::ZERO), Stop::TimeLimit, 4),
    ];
    for (limits, stop, applies) in &cases {
        for (name, search) in &all[..*applies] {
            assert_eq!(search(&Line, 0, limits).stop, *stop, "{name}");
        }
    }
    let explored = bfs_explore(&Line, 0, &Budget::new().max_cost(5), |_, _| {});
    assert_eq!((explored.stop, explored.states()), (Stop::CostLimit, 11));
}

#[test]
fn ida_star_bound_jumps_to_the_smallest_exceeding_f() {
    // 0 -> goal directly costs 10; with h = 0 the bounds go 0, 10: two iterations, not 11.
    let g = Graph { edges: vec![vec![(1, 10)], vec![]], h: vec![0, 0] };
    let r = ida_star(&g, 0, &Budget::new());
    assert_eq!(r.path.unwrap().cost, 10);
    assert_eq!((r.stats.iterations, r.stats.bound), (2, 10));
}
