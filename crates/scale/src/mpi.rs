//! A count on an MPI job (the `mpi` feature): rank 0 runs the [`Coordinator`] and searches
//! on a second thread; every other rank searches. Messages are the
//! [`wire`](crate::coordinator::wire) vectors of `u64`; only rank 0's main thread calls MPI
//! there (`MPI_THREAD_FUNNELED`).

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Duration;

use dancecard_engine::{Config, Problem, Solver, Stop};
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, Destination, Source};
use mpi::Threading;

use crate::checkpoint::{Checkpoint, SearchId};
use crate::coordinator::{
    wire, work, Channel, Coordinator, Local, Message, Reply, Summary, Transport,
};
use crate::schedule::{jobs_of, Job};

/// Tag of a worker's message.
const TAG_MESSAGE: i32 = 11;
/// Tag of the coordinator's reply.
const TAG_REPLY: i32 = 12;

/// Why an MPI count could not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MpiError {
    /// MPI was already initialized, or could not be.
    #[error("MPI could not be initialized (or was already)")]
    Init,
    /// A message that is not one of ours.
    #[error("rank {0} sent a message that is not a report")]
    Protocol(i32),
    /// The checkpoint could not be written.
    #[error("cannot write the checkpoint: {0}")]
    Io(#[from] std::io::Error),
}

/// The coordinator's transport on rank 0: its own worker thread (worker 0) and the other
/// ranks (workers `1..size`).
struct Ranks<'w> {
    world: &'w SimpleCommunicator,
    local: Local,
    size: usize,
    bad: Option<i32>,
}

impl Transport for Ranks<'_> {
    fn workers(&self) -> usize {
        self.size
    }

    fn receive(&mut self) -> (usize, Message) {
        loop {
            if let Some(m) = self.local.try_receive() {
                return m;
            }
            if let Some(status) = self.world.any_process().immediate_probe_with_tag(TAG_MESSAGE) {
                let rank = status.source_rank();
                let (words, _) =
                    self.world.process_at_rank(rank).receive_vec_with_tag::<u64>(TAG_MESSAGE);
                match wire::decode_message(&words) {
                    Some(m) => return (rank as usize, m),
                    None => {
                        // Not ours: stop the count (the worker is then told to stop too).
                        self.bad = Some(rank);
                        return (rank as usize, Message { report: None, stop: Stop::Cancelled });
                    }
                }
            }
            std::thread::sleep(Duration::from_micros(50));
        }
    }

    fn send(&mut self, worker: usize, reply: &Reply) {
        if worker == 0 {
            self.local.send(0, reply);
        } else {
            let words = wire::encode_reply(reply);
            self.world.process_at_rank(worker as i32).send_with_tag(&words[..], TAG_REPLY);
        }
    }
}

/// A worker rank's channel to rank 0.
struct ToRoot<'w> {
    world: &'w SimpleCommunicator,
}

impl Channel for ToRoot<'_> {
    fn send(&mut self, message: &Message) {
        let words = wire::encode_message(message);
        self.world.process_at_rank(0).send_with_tag(&words[..], TAG_MESSAGE);
    }

    fn receive(&mut self) -> Reply {
        let (words, _) = self.world.process_at_rank(0).receive_vec_with_tag::<u64>(TAG_REPLY);
        wire::decode_reply(&words).unwrap_or(Reply::Stop)
    }
}

/// The first jobs of a whole count: the subtrees of the shallowest depth with four per worker
/// (at most 12 levels deep).
pub fn first_jobs(problem: &Problem, config: &Config, workers: usize) -> Vec<Job> {
    let mut lister = Solver::with_config(problem, Config::with_heuristic(config.heuristic));
    let mut jobs = vec![Job::root()];
    for depth in 1..=12 {
        if jobs.len() >= 4 * workers {
            break;
        }
        let deeper = jobs_of(lister.subtrees(depth));
        let split: Vec<Job> = deeper
            .into_iter()
            .flat_map(|j| {
                let share = j.share / f64::from(j.options);
                j.prefixes()
                    .map(move |prefix| Job { prefix, options: 1, share })
                    .collect::<Vec<_>>()
            })
            .collect();
        if split.len() == jobs.len() {
            break;
        }
        jobs = split;
    }
    jobs
}

/// Counts `problem` on the ranks of the MPI job this process is part of. On rank 0, starts
/// from `resume` (a checkpoint of this search) or from the first jobs, saves checkpoints to
/// `checkpoint`, calls `progress` (fraction, count, nodes) after every report, and returns
/// the [`Summary`]; on the other ranks, searches until told to stop and returns `None`.
/// The configuration's cancel flag stops the whole count (what was not counted stays in the
/// checkpoint), and so does its node limit (over all ranks, checked after each report); its
/// time limit applies to each period, so give the flag a timer instead.
pub fn count(
    problem: &Problem,
    config: &Config,
    resume: Option<Checkpoint>,
    checkpoint: Option<PathBuf>,
    progress: &mut dyn FnMut(f64, u128, u64),
) -> Result<Option<Summary>, MpiError> {
    // The node limit is the coordinator's (the workers' periods have budgets of their own).
    let max_nodes = config.max_nodes;
    let config = &Config { max_nodes: None, ..config.clone() };
    let (universe, _) =
        mpi::initialize_with_threading(Threading::Funneled).ok_or(MpiError::Init)?;
    let world = universe.world();
    let rank = world.rank();
    let size = world.size() as usize;
    if rank != 0 {
        let mut solver = Solver::with_config(problem, config.clone());
        work(&mut solver, &mut ToRoot { world: &world }, &mut |_| ControlFlow::Continue(()));
        return Ok(None);
    }
    let search = SearchId::new(problem, config.heuristic);
    let (jobs, count, nodes) = match resume {
        Some(cp) => (cp.jobs(), cp.total(), cp.nodes),
        None => (first_jobs(problem, config, size), 0, 0),
    };
    let mut coordinator =
        Coordinator::new(search, jobs, count, nodes, size, checkpoint).with_node_limit(max_nodes);
    let (local, mut channels) = Local::new(size);
    let mut transport = Ranks { world: &world, local, size, bad: None };
    let mut own = channels.swap_remove(0);
    drop(channels);
    let summary = std::thread::scope(|scope| {
        let _ = scope.spawn(|| {
            let mut solver = Solver::with_config(problem, config.clone());
            work(&mut solver, &mut own, &mut |_| ControlFlow::Continue(()));
        });
        coordinator.run(&mut transport, progress)
    })?;
    if let Some(rank) = transport.bad {
        return Err(MpiError::Protocol(rank));
    }
    Ok(Some(summary))
}
