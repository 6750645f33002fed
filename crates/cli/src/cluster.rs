//! Counting on a cluster with MPI: `mpirun -np K dancecard solve --count --mpi FILE`.
//!
//! Rank 0 coordinates: it cuts the tree into units (the choice prefixes at a depth chosen to
//! give 30 to 100 units per worker, [`dancecard_engine::Solver::prefixes`]), hands them out one at a time to the
//! workers that ask, and after every finished unit writes a checkpoint (atomically: a reader
//! never sees half a file) with the counts of the finished units. The other ranks compute the
//! same list of units themselves (it is deterministic), so only unit numbers and counts travel.
//! After a failure (a node lost, a worker killed), `--resume CHECKPOINT` searches only the
//! units the checkpoint does not hold, and reaches the same total.
//!
//! The plan and the checkpoint format (with its checksum) are `dancecard-scale`'s; reading and
//! writing checkpoint files is always compiled; the message passing needs the `mpi` cargo
//! feature (Open MPI's `libopenmpi-dev` and `libclang-dev` to build).

#![cfg_attr(
    not(feature = "mpi"),
    allow(dead_code, reason = "the MPI driver uses these; unit tests check them without it")
)]

use std::path::{Path, PathBuf};

use dancecard_engine::{Config, Problem};
use dancecard_scale::Checkpoint;

use crate::util::bad_input;

/// Reads a checkpoint and checks that it belongs to this search (and that its checksum
/// matches its content).
pub(crate) fn load_checkpoint(
    path: &Path,
    problem: &Problem,
    config: &Config,
) -> anyhow::Result<Checkpoint> {
    let bytes = std::fs::read(path)
        .map_err(|e| bad_input(format!("cannot read {}: {e}", path.display())))?;
    let cp =
        Checkpoint::parse(&bytes).map_err(|e| bad_input(format!("{}: {e}", path.display())))?;
    if !cp.is_of(problem, config.heuristic) {
        return Err(bad_input(format!(
            "{}: the checkpoint is of another search ({})",
            path.display(),
            cp.fingerprint
        )));
    }
    Ok(cp)
}

/// Writes a checkpoint atomically.
pub(crate) fn save_checkpoint(cp: &Checkpoint, path: &Path) -> anyhow::Result<()> {
    crate::shard::write_atomically(path, &(cp.to_json() + "\n"))
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

    use dancecard_scale::{plan, units_at, Checkpoint, Fingerprint};

    use super::{checkpoint_path, load_checkpoint, save_checkpoint};
    use crate::commands::solve::Args;
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
                Some(path) => match load_checkpoint(path, problem, &config) {
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
        save_checkpoint(&checkpoint, &path)?;
        if size == 1 {
            // No workers: search every unit here.
            for unit in todo.by_ref() {
                let (outcome, stats) = count_unit(unit);
                if !outcome.is_complete() {
                    util::report_stop(outcome.stop);
                    return Ok(util::exit_code(false, outcome.stop));
                }
                checkpoint.finish(unit, outcome.solutions, stats.nodes);
                save_checkpoint(&checkpoint, &path)?;
            }
        } else {
            let mut working = size - 1;
            while working > 0 {
                let (message, status) = world.any_process().receive_vec_with_tag::<u64>(TAG_RESULT);
                if let [unit, lo, hi, nodes] = message[..] {
                    if unit != NONE {
                        let count = u128::from(lo) | (u128::from(hi) << 64);
                        checkpoint.finish(unit as usize, count, nodes);
                        save_checkpoint(&checkpoint, &path)?;
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
    use dancecard_scale::Fingerprint;

    use super::*;

    fn problem(name: &str) -> Problem {
        let path = format!("{}/../../testdata/instances/{name}.dlx", env!("CARGO_MANIFEST_DIR"));
        dancecard_format::parse_dlx(&std::fs::read(path).unwrap()).unwrap().problem
    }

    #[test]
    fn checkpoint_files_load_only_for_their_search() {
        let p = problem("queens8");
        let config = Config::default();
        let mut cp = Checkpoint::new(Fingerprint::new(&p, config.heuristic, 2, 5));
        cp.finish(3, 10, 100);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cp.json");
        save_checkpoint(&cp, &path).unwrap();
        assert_eq!(load_checkpoint(&path, &p, &config).unwrap(), cp);
        // Another problem, or another heuristic, is refused.
        let err = load_checkpoint(&path, &problem("queens12"), &config).unwrap_err();
        assert!(err.to_string().contains("of another search"), "{err}");
        let leftmost = Config::with_heuristic(dancecard_engine::Heuristic::Leftmost);
        assert!(load_checkpoint(&path, &p, &leftmost).is_err());
        // A hand-edited checkpoint too.
        let text = std::fs::read_to_string(&path).unwrap().replace(r#""10""#, r#""11""#);
        std::fs::write(&path, text).unwrap();
        let err = load_checkpoint(&path, &p, &config).unwrap_err();
        assert!(err.to_string().contains("checksum mismatch"), "{err}");
    }
}
