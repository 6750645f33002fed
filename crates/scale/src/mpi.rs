//! A count on an MPI job (the `mpi` feature): rank 0 runs the [`Coordinator`] and searches
//! on a second thread; every other rank searches. Messages are the
//! [`wire`](crate::coordinator::wire) vectors of `u64`; only rank 0's main thread calls MPI
//! there (`MPI_THREAD_FUNNELED`).

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Duration;

use dancecard_engine::{Budget, Config, Problem, Solver, Stop};
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, Destination, Source};
use mpi::Threading;

use crate::checkpoint::{Checkpoint, SearchId};
use crate::coordinator::{
    count_local, wire, work, Channel, Coordinator, Local, Message, Reply, Summary, Transport,
};
use crate::schedule::first_jobs;

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
        let mut backoff = Backoff::default();
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
            backoff.sleep();
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
        // Not a blocking receive: Open MPI's spins on a core, which an idle rank would take
        // from the searches of the others on the same machine.
        let root = self.world.process_at_rank(0);
        let mut backoff = Backoff::default();
        while root.immediate_probe_with_tag(TAG_REPLY).is_none() {
            backoff.sleep();
        }
        let (words, _) = root.receive_vec_with_tag::<u64>(TAG_REPLY);
        wire::decode_reply(&words).unwrap_or(Reply::Stop)
    }
}

/// Waits between polls for a message: 20 microseconds at first, doubling up to a millisecond.
/// A message comes at the end of a worker's period ([`PERIOD`](crate::coordinator::PERIOD),
/// a twentieth of a second), so the wait costs at most 2% of it, and an idle poller wakes
/// about a thousand times a second (a constant 50-microsecond poll took a fifth of a core
/// from the searches of a 2-core machine).
#[derive(Debug)]
struct Backoff(Duration);

impl Default for Backoff {
    fn default() -> Backoff {
        Backoff(Duration::from_micros(20))
    }
}

impl Backoff {
    fn sleep(&mut self) {
        std::thread::sleep(self.0);
        self.0 = (self.0 * 2).min(Duration::from_millis(1));
    }
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
    if !launched() {
        // One process on its own: MPI would only add its start-up (0.1 to 0.3 s with Open
        // MPI) to the same count; the coordinator runs with one search thread instead.
        return Ok(Some(count_local(problem, config, 1, resume, checkpoint, progress)?));
    }
    prefer_ob1();
    // The node limit is the coordinator's (the workers' periods have budgets of their own).
    let max_nodes = config.budget.max_nodes;
    let config =
        &Config { budget: Budget { max_nodes: None, ..config.budget.clone() }, ..config.clone() };
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

/// Whether an MPI launcher (`mpirun`, `mpiexec`, `srun`) started this process: each sets the
/// world's size or the process's rank in its environment (Open MPI, MPICH's Hydra and Slurm's
/// PMI, PMIx).
pub fn launched() -> bool {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK", "MPI_LOCALNRANKS"]
        .iter()
        .any(|name| std::env::var_os(name).is_some())
}

/// Open MPI's point-to-point layer `ob1` unless the user chose one (`OMPI_MCA_pml`): the
/// default, UCX, takes 0.2 s more to start on every rank, and a count sends a few small
/// messages a second, which any layer carries.
fn prefer_ob1() {
    if std::env::var_os("OMPI_MCA_pml").is_none()
        && std::env::var_os("OMPI_COMM_WORLD_SIZE").is_some()
    {
        // SAFETY of the environment: called before MPI starts any thread, from the thread
        // that counts (the CLI's main thread), as `set_var` requires.
        std::env::set_var("OMPI_MCA_pml", "ob1");
    }
}
