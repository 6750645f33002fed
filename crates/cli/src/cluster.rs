//! Counting on a cluster with MPI: `mpirun -np K dancecard solve --count --mpi FILE`.
//!
//! The work is `dancecard-scale`'s: rank 0 coordinates (and searches on a second thread),
//! handing out budgeted jobs on demand; a worker that holds a large job gives part of it away
//! whenever others are idle (mplrs's scheme, [`dancecard_scale::Scheduler`]); the counts,
//! the progress and the jobs left flow back to rank 0, which shows the progress bar of a local
//! run and keeps a checkpoint (the count so far and the jobs not yet counted, written
//! atomically). After a failure (a node lost, a rank killed), `--resume CHECKPOINT` counts
//! only the jobs the checkpoint holds, and reaches the same total. This module reads and
//! checks the checkpoint and prints; the message passing needs the `mpi` cargo feature (Open
//! MPI's `libopenmpi-dev` and `libclang-dev` to build).

#![cfg_attr(
    not(feature = "mpi"),
    allow(dead_code, reason = "the MPI driver uses these; unit tests check them without it")
)]

use std::path::{Path, PathBuf};

use dancecard_engine::{Config, Problem};
use dancecard_scale::Checkpoint;

use crate::input::bad_input;
use crate::output::OutputFormat;

/// The flags of `dancecard solve --count --mpi`.
#[derive(Debug)]
pub(crate) struct MpiRun<'a> {
    /// `--resume`: the checkpoint to continue.
    pub(crate) resume: Option<&'a Path>,
    /// `--checkpoint`: where rank 0 keeps the checkpoint.
    pub(crate) checkpoint: Option<&'a Path>,
    /// The output format (progress shows in text only).
    pub(crate) format: OutputFormat,
    /// Whether to print the stats line.
    pub(crate) stats: bool,
}

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
            cp.search
        )));
    }
    Ok(cp)
}

/// Where the checkpoint goes: `--checkpoint`, else `--resume`'s file, else a default name.
pub(crate) fn checkpoint_path(checkpoint: Option<&Path>, resume: Option<&Path>) -> PathBuf {
    checkpoint
        .or(resume)
        .map_or_else(|| PathBuf::from("dancecard-checkpoint.json"), Path::to_path_buf)
}

#[cfg(feature = "mpi")]
pub(crate) use with_mpi::run;

#[cfg(not(feature = "mpi"))]
pub(crate) fn run(
    _args: &MpiRun<'_>,
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
    use std::process::ExitCode;

    use dancecard_engine::{Basis, Config};
    use dancecard_format::Document;

    use super::{checkpoint_path, load_checkpoint, MpiRun};
    use crate::output::{self, say};
    use crate::progress::Progress;

    pub(crate) fn run(
        args: &MpiRun<'_>,
        doc: &Document,
        config: Config,
    ) -> anyhow::Result<ExitCode> {
        let problem = &doc.problem;
        // The time limit is the whole run's: `solve` armed its timer, which raises the stop
        // flag in `config` (a limit in the configuration would hold for each period of each
        // worker).
        // Every rank reads the checkpoint (only rank 0 uses it): a bad one is refused by all.
        let resume = match args.resume {
            Some(path) => Some(load_checkpoint(path, problem, &config)?),
            None => None,
        };
        let path = checkpoint_path(args.checkpoint, args.resume);
        let mut progress = Progress::new(args.format);
        let summary = dancecard_scale::mpi::count(
            problem,
            &config,
            resume,
            Some(path.clone()),
            &mut |fraction, count, nodes| {
                // The subtrees' shares of the plain tree, by Knuth's estimate.
                progress.update(fraction, Basis::Search, String::new);
                progress.counts(nodes, Some(count));
            },
        )
        .map_err(|e| anyhow::anyhow!("{e}"))?;
        progress.finish();
        let Some(summary) = summary else {
            // A worker rank: rank 0 prints.
            return Ok(ExitCode::SUCCESS);
        };
        output::print(&format!("{}\n", summary.count))?;
        if args.stats {
            say!(
                "jobs {} nodes {} solutions {} checkpoint {}",
                summary.jobs,
                summary.nodes,
                summary.count,
                path.display()
            );
        }
        output::report_stop(summary.stop);
        if !summary.checkpoint.complete {
            say!(
                "(the checkpoint {} holds the {} jobs left: --resume it)",
                path.display(),
                summary.checkpoint.pending.len()
            );
        }
        Ok(output::exit_code(true, summary.stop))
    }
}

#[cfg(test)]
mod tests {
    use dancecard_scale::{Job, SearchId};

    use super::*;

    fn problem(name: &str) -> Problem {
        let path = format!("{}/../../testdata/instances/{name}.dlx", env!("CARGO_MANIFEST_DIR"));
        dancecard_format::parse_dlx(&std::fs::read(path).unwrap()).unwrap().problem
    }

    #[test]
    fn checkpoint_files_load_only_for_their_search() {
        let p = problem("queens8");
        let config = Config::default();
        let jobs = [Job { prefix: vec![3], options: 2, share: 0.25 }];
        let cp = Checkpoint::new(SearchId::new(&p, config.heuristic), 10, 100, &jobs);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cp.json");
        std::fs::write(&path, cp.to_json()).unwrap();
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
