//! Counting on a cluster with MPI: `mpirun -np K dancecard solve --count --mpi FILE`.
//!
//! Rank 0 coordinates: it cuts the tree into units (the choice prefixes at a depth chosen to
//! give 30 to 100 units per worker, [`Solver::prefixes`]), hands them out one at a time to the
//! workers that ask, and after every finished unit writes a checkpoint (atomically: a reader
//! never sees half a file) with the counts of the finished units. The other ranks compute the
//! same list of units themselves (it is deterministic), so only unit numbers and counts travel.
//! After a failure (a node lost, a worker killed), `--resume CHECKPOINT` searches only the
//! units the checkpoint does not hold, and reaches the same total.
//!
//! The coordination logic (units, checkpoints) is independent of MPI and always compiled; the
//! message passing needs the `mpi` cargo feature (Open MPI's `libopenmpi-dev` and
//! `libclang-dev` to build).

#![cfg_attr(
    not(feature = "mpi"),
    allow(dead_code, reason = "the MPI driver uses these; unit tests check them without it")
)]

use std::path::{Path, PathBuf};

use dancecard_engine::{Config, Problem, Solver};
use serde::{Deserialize, Serialize};

use crate::shard::Fingerprint;
use crate::util::bad_input;

/// Units per worker that the split depth aims at (at least).
const UNITS_PER_WORKER: usize = 30;

/// Deeper than this, listing units costs more than it saves.
const MAX_DEPTH: usize = 12;

/// The units of a cluster run: the shallowest depth with at least 30 units per worker.
pub(crate) fn plan(problem: &Problem, config: &Config, workers: usize) -> (usize, Vec<Vec<u32>>) {
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

/// The units of a given depth (workers recompute what the coordinator planned).
pub(crate) fn units_at(problem: &Problem, config: &Config, depth: usize) -> Vec<Vec<u32>> {
    Solver::with_config(problem, Config::with_heuristic(config.heuristic)).prefixes(depth)
}

/// A checkpoint: which units are finished, and their counts.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Checkpoint {
    /// Always `dancecard-checkpoint`.
    pub(crate) kind: String,
    /// The search: problem, heuristic, split depth (the shard count is the number of units).
    pub(crate) fingerprint: Fingerprint,
    /// `(unit, count)` of every finished unit, counts as decimal strings (u128).
    pub(crate) done: Vec<(usize, String)>,
    /// Whether every unit is finished.
    pub(crate) complete: bool,
    /// The sum of the finished units' counts.
    pub(crate) count: String,
    /// Nodes searched in the finished units (over all runs).
    pub(crate) nodes: u64,
}

impl Checkpoint {
    pub(crate) fn new(fingerprint: Fingerprint) -> Self {
        Checkpoint {
            kind: "dancecard-checkpoint".to_owned(),
            fingerprint,
            done: Vec::new(),
            complete: false,
            count: "0".to_owned(),
            nodes: 0,
        }
    }

    /// Reads a checkpoint and checks that it belongs to this search.
    pub(crate) fn load(path: &Path, problem: &Problem, config: &Config) -> anyhow::Result<Self> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| bad_input(format!("cannot read {}: {e}", path.display())))?;
        let cp: Checkpoint = serde_json::from_str(&text)
            .map_err(|e| bad_input(format!("{}: not a checkpoint: {e}", path.display())))?;
        let f = &cp.fingerprint;
        let mine = Fingerprint::new(problem, config.heuristic, f.split_depth, f.shards);
        if cp.kind != "dancecard-checkpoint" || *f != mine {
            return Err(bad_input(format!(
                "{}: the checkpoint is of another search ({} vs {})",
                path.display(),
                serde_json::to_string(f)?,
                serde_json::to_string(&mine)?
            )));
        }
        for (unit, count) in &cp.done {
            if *unit as u64 >= f.shards || count.parse::<u128>().is_err() {
                return Err(bad_input(format!("{}: bad entry for unit {unit}", path.display())));
            }
        }
        Ok(cp)
    }

    /// Records a finished unit.
    pub(crate) fn finish(&mut self, unit: usize, count: u128, nodes: u64) {
        self.done.push((unit, count.to_string()));
        self.count = self.total().to_string();
        self.nodes += nodes;
        self.complete = self.done.len() as u64 == self.fingerprint.shards;
    }

    /// The sum of the finished units' counts.
    pub(crate) fn total(&self) -> u128 {
        self.done.iter().map(|(_, c)| c.parse::<u128>().unwrap_or(0)).sum()
    }

    /// The units not finished yet, in order.
    pub(crate) fn todo(&self) -> Vec<usize> {
        let n = usize::try_from(self.fingerprint.shards).unwrap_or(0);
        let mut finished = vec![false; n];
        for (unit, _) in &self.done {
            if let Some(f) = finished.get_mut(*unit) {
                *f = true;
            }
        }
        (0..n).filter(|&u| !finished[u]).collect()
    }

    pub(crate) fn save(&self, path: &Path) -> anyhow::Result<()> {
        crate::shard::write_atomically(path, &(serde_json::to_string(self)? + "\n"))
    }
}

/// Where the checkpoint goes: `--checkpoint`, else `--resume`'s file, else a default name.
pub(crate) fn checkpoint_path(checkpoint: &Option<PathBuf>, resume: &Option<PathBuf>) -> PathBuf {
    checkpoint
        .clone()
        .or_else(|| resume.clone())
        .unwrap_or_else(|| PathBuf::from("dancecard-checkpoint.json"))
}

#[cfg(feature = "mpi")]
pub(crate) use with_mpi::run;

#[cfg(not(feature = "mpi"))]
pub(crate) fn run(
    _args: &crate::commands::solve::Args,
    _doc: &dancecard_format::Document,
    _config: Config,
) -> anyhow::Result<std::process::ExitCode> {
    Err(bad_input(
        "this dancecard was built without MPI: build it with \
         `cargo build --release --features mpi` (needs libopenmpi-dev and libclang-dev)",
    ))
}

#[cfg(feature = "mpi")]
mod with_mpi {
    use std::io::Write;
    use std::process::ExitCode;

    use dancecard_engine::parallel::ParallelSearch;
    use dancecard_engine::Config;
    use dancecard_format::Document;
    use mpi::traits::{Communicator, Destination, Root, Source};

    use super::{checkpoint_path, plan, units_at, Checkpoint};
    use crate::commands::solve::Args;
    use crate::shard::Fingerprint;
    use crate::util::{self, bad_input};

    /// Tag of a worker's message: a request for work, carrying the last result if any.
    const TAG_RESULT: i32 = 1;
    /// Tag of the coordinator's answer: a unit to search, or `STOP`.
    const TAG_WORK: i32 = 2;
    const STOP: u64 = u64::MAX;
    const NONE: u64 = u64::MAX;

    pub(crate) fn run(args: &Args, doc: &Document, config: Config) -> anyhow::Result<ExitCode> {
        if !args.count || args.all || args.limit.is_some() || args.shard.is_some() {
            return Err(bad_input("--mpi counts solutions: use it with --count only"));
        }
        let universe =
            mpi::initialize().ok_or_else(|| anyhow::anyhow!("MPI is already initialized"))?;
        let world = universe.world();
        let rank = world.rank();
        let size = world.size();
        let root = world.process_at_rank(0);
        let problem = &doc.problem;

        // Rank 0 decides the depth and the units (or takes them from the checkpoint).
        let mut plan_msg = [0u64; 2];
        let mut state = None;
        if rank == 0 {
            let checkpoint = match &args.resume {
                Some(path) => match Checkpoint::load(path, problem, &config) {
                    Ok(cp) => cp,
                    Err(e) => {
                        eprintln!("error: {e}");
                        world.abort(2);
                    }
                },
                None => {
                    let (depth, units) = plan(problem, &config, (size as usize).saturating_sub(1));
                    Checkpoint::new(Fingerprint::new(
                        problem,
                        config.heuristic,
                        depth,
                        units.len() as u64,
                    ))
                }
            };
            plan_msg = [checkpoint.fingerprint.split_depth as u64, checkpoint.fingerprint.shards];
            state = Some(checkpoint);
        }
        root.broadcast_into(&mut plan_msg[..]);
        let depth = plan_msg[0] as usize;
        let units = units_at(problem, &config, depth);
        if units.len() as u64 != plan_msg[1] {
            eprintln!("error: rank {rank} found {} units, rank 0 {}", units.len(), plan_msg[1]);
            world.abort(2);
        }
        let count_unit = |unit: usize| {
            ParallelSearch::new(problem, config.clone(), args.threads.max(1))
                .units(vec![units[unit].clone()])
                .count()
        };

        if rank != 0 {
            // Worker: ask, search, report, until told to stop.
            let mut message = vec![NONE, 0, 0, 0];
            loop {
                root.send_with_tag(&message[..], TAG_RESULT);
                let (work, _) = root.receive_vec_with_tag::<u64>(TAG_WORK);
                let unit = work.first().copied().unwrap_or(STOP);
                if unit == STOP {
                    return Ok(ExitCode::SUCCESS);
                }
                let (outcome, stats) = count_unit(unit as usize);
                if !outcome.is_complete() {
                    eprintln!("error: rank {rank}: unit {unit} stopped early ({:?})", outcome.stop);
                    world.abort(130);
                }
                let c = outcome.solutions;
                message = vec![unit, c as u64, (c >> 64) as u64, stats.nodes];
            }
        }

        // Coordinator.
        let Some(mut checkpoint) = state else { unreachable!("rank 0 has the checkpoint") };
        let path = checkpoint_path(&args.checkpoint, &args.resume);
        let mut todo = checkpoint.todo().into_iter();
        checkpoint.save(&path)?;
        if size == 1 {
            // No workers: search every unit here.
            for unit in todo.by_ref() {
                let (outcome, stats) = count_unit(unit);
                if !outcome.is_complete() {
                    util::report_stop(outcome.stop);
                    return Ok(util::exit_code(false, outcome.stop));
                }
                checkpoint.finish(unit, outcome.solutions, stats.nodes);
                checkpoint.save(&path)?;
            }
        } else {
            let mut working = size - 1;
            while working > 0 {
                let (message, status) = world.any_process().receive_vec_with_tag::<u64>(TAG_RESULT);
                if let [unit, lo, hi, nodes] = message[..] {
                    if unit != NONE {
                        let count = u128::from(lo) | (u128::from(hi) << 64);
                        checkpoint.finish(unit as usize, count, nodes);
                        checkpoint.save(&path)?;
                    }
                }
                let next = todo.next().map_or(STOP, |u| u as u64);
                if next == STOP {
                    working -= 1;
                }
                world.process_at_rank(status.source_rank()).send_with_tag(&[next][..], TAG_WORK);
            }
        }
        let total = checkpoint.total();
        let mut out = std::io::stdout();
        writeln!(out, "{total}")?;
        out.flush()?;
        if args.stats {
            eprintln!(
                "units {} depth {} nodes {} solutions {} checkpoint {}",
                checkpoint.fingerprint.shards,
                depth,
                checkpoint.nodes,
                total,
                path.display()
            );
        }
        Ok(ExitCode::SUCCESS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(name: &str) -> Problem {
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

    #[test]
    fn checkpoint_records_and_resumes() {
        let p = problem("queens8");
        let config = Config::default();
        let f = Fingerprint::new(&p, config.heuristic, 2, 5);
        let mut cp = Checkpoint::new(f);
        cp.finish(3, 10, 100);
        cp.finish(0, u128::from(u64::MAX) + 5, 50);
        assert_eq!(cp.todo(), [1, 2, 4]);
        assert_eq!(cp.total(), u128::from(u64::MAX) + 15);
        assert!(!cp.complete);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cp.json");
        cp.save(&path).unwrap();
        let back = Checkpoint::load(&path, &p, &config).unwrap();
        assert_eq!(back.todo(), [1, 2, 4]);
        assert_eq!(back.total(), cp.total());
        // Another problem, or another heuristic, is refused.
        assert!(Checkpoint::load(&path, &problem("queens12"), &config).is_err());
        let leftmost = Config::with_heuristic(dancecard_engine::Heuristic::Leftmost);
        assert!(Checkpoint::load(&path, &p, &leftmost).is_err());
        for unit in [1, 2, 4] {
            cp.finish(unit, 1, 1);
        }
        assert!(cp.complete);
    }
}
