//! The units of a search: the choice prefixes at a depth of the tree.

use dancecard_engine::{Config, Problem, Solver};

/// Units per worker that [`plan`] aims at (at least).
pub const UNITS_PER_WORKER: usize = 30;

/// The deepest split [`plan`] makes: deeper, listing units costs more than it saves.
pub const MAX_DEPTH: usize = 12;

/// The units of a run on `workers` workers: the shallowest depth with at least
/// [`UNITS_PER_WORKER`] units per worker (or the depth where the tree ends, or
/// [`MAX_DEPTH`]), and its units.
pub fn plan(problem: &Problem, config: &Config, workers: usize) -> (usize, Vec<Vec<u32>>) {
    let mut lister = Solver::with_config(problem, Config::with_heuristic(config.heuristic));
    let want = UNITS_PER_WORKER * workers.max(1);
    let mut depth = 0;
    let mut units = lister.prefixes(0);
    while units.len() < want && depth < MAX_DEPTH {
        let deeper = lister.prefixes(depth + 1);
        if deeper.len() == units.len() && deeper.iter().all(|u| u.len() <= depth) {
            // The tree ends above this depth: no more splitting possible.
            break;
        }
        depth += 1;
        units = deeper;
    }
    (depth, units)
}

/// The units at a given depth (workers recompute what the coordinator planned: the list is
/// deterministic).
pub fn units_at(problem: &Problem, config: &Config, depth: usize) -> Vec<Vec<u32>> {
    Solver::with_config(problem, Config::with_heuristic(config.heuristic)).prefixes(depth)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn problem(name: &str) -> Problem {
        let path = format!("{}/../../testdata/instances/{name}.dlx", env!("CARGO_MANIFEST_DIR"));
        dancecard_format::parse_dlx(&std::fs::read(path).unwrap()).unwrap().problem
    }

    #[test]
    fn plan_gives_30_units_per_worker_when_the_tree_allows() {
        let p = problem("queens12");
        for workers in [1, 2, 4] {
            let (depth, units) = plan(&p, &Config::default(), workers);
            assert!(units.len() >= 30 * workers, "{workers} workers: {}", units.len());
            assert_eq!(units, units_at(&p, &Config::default(), depth));
        }
        // A tiny tree cannot be split that much: the plan stops where the tree ends.
        let mut b = dancecard_engine::ProblemBuilder::new();
        let a = b.primary("a").unwrap();
        let _ = b.option([a]).unwrap();
        let (_, units) = plan(&b.build(), &Config::default(), 4);
        assert_eq!(units.len(), 1);
    }
}
