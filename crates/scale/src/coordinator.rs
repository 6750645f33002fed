//! A count run as budgeted jobs by a coordinator and workers that talk through messages: in
//! one process (threads and channels), or across a cluster (MPI, with the `mpi` feature).
//!
//! The [`Coordinator`] holds the [`Scheduler`]; each worker holds a [`Worker`] and a
//! [`Solver`] (one arena, reused for every job). A worker says it is free with an empty
//! [`Message`], and after every period of its budget sends the period's [`Report`]; the
//! coordinator answers each message with a [`Reply`]: a job (to a free worker, as soon as
//! there is one), go on (to a worker that still holds work), or stop. Work given away goes
//! to the workers waiting. The coordinator saves a [`Checkpoint`] now and then and at the
//! end, and reports its progress (Knuth's shares of the tree counted).
//!
//! A worker times its periods: the budget of the next one is the node rate of the last one
//! times [`PERIOD`], so that a period lasts about that long whatever a node costs.

use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use dancecard_engine::{Budget, Solver, Stop};

use crate::checkpoint::{Checkpoint, SearchId};
use crate::schedule::{Assignment, Job, Report, Scheduler, Worker};

/// The target length of a worker's period: how long an idle worker may wait for others to
/// give work away (at their periods' ends), and how often each worker reports.
pub const PERIOD: Duration = Duration::from_millis(50);

/// The budget of a worker's first period.
pub const FIRST_BUDGET: u64 = 1 << 16;

/// How often the coordinator saves its checkpoint (and at the end, always).
pub const SAVE_EVERY: Duration = Duration::from_secs(1);

/// A worker's message to the coordinator.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// The report of the period that ended (`None`: a free worker's first request).
    pub report: Option<Report>,
    /// Why the period ended: [`Stop::Exhausted`] (the budget, or the work done), or a
    /// limit of the worker's configuration (its time limit, the cancel flag: Ctrl-C), which
    /// stops the whole count.
    pub stop: Stop,
}

/// The coordinator's answer to a message.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// Search this job (the worker was free).
    Job(Job, bool),
    /// Go on with the work held; give the largest part away at the end of the period if the
    /// flag says so.
    Continue(bool),
    /// Stop.
    Stop,
}

/// The coordinator's side of the messages.
pub trait Transport {
    /// The number of workers (numbered `0..workers`).
    fn workers(&self) -> usize;
    /// The next message from any worker (waits for one).
    fn receive(&mut self) -> (usize, Message);
    /// Answers worker `worker`.
    fn send(&mut self, worker: usize, reply: &Reply);
}

/// A worker's side of the messages.
pub trait Channel {
    /// Sends a message to the coordinator.
    fn send(&mut self, message: &Message);
    /// The coordinator's answer (waits for it).
    fn receive(&mut self) -> Reply;
}

/// What a coordinated count did.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The count (of the parts counted, when stopped).
    pub count: u128,
    /// Why it ended: [`Stop::Exhausted`] when the count is complete.
    pub stop: Stop,
    /// Nodes searched in this run.
    pub nodes: u64,
    /// Jobs handed out in this run.
    pub jobs: u64,
    /// The last checkpoint (what a resumed run needs).
    pub checkpoint: Checkpoint,
}

/// The coordinator: a scheduler, and where its checkpoint goes.
#[derive(Debug)]
pub struct Coordinator {
    scheduler: Scheduler,
    search: SearchId,
    /// Nodes of earlier runs (from the checkpoint resumed).
    earlier_nodes: u64,
    checkpoint: Option<PathBuf>,
    /// Stop once this many nodes are reported (in this run).
    max_nodes: Option<u64>,
}

impl Coordinator {
    /// A coordinator of the count of `search` from `jobs` (a whole count: the jobs of a
    /// shallow depth, or [`Job::root`]), `count` and `earlier_nodes` already done (0, or a
    /// resumed checkpoint's), saving its checkpoints to `checkpoint`.
    pub fn new(
        search: SearchId,
        jobs: Vec<Job>,
        count: u128,
        earlier_nodes: u64,
        workers: usize,
        checkpoint: Option<PathBuf>,
    ) -> Coordinator {
        Coordinator {
            scheduler: Scheduler::new(jobs, count, workers),
            search,
            earlier_nodes,
            checkpoint,
            max_nodes: None,
        }
    }

    /// Stops the count once this many nodes are reported in this run (checked after each
    /// report: the count passes it by at most one period per worker).
    pub fn with_node_limit(mut self, max_nodes: Option<u64>) -> Coordinator {
        self.max_nodes = max_nodes;
        self
    }

    /// The checkpoint of the count so far.
    pub fn checkpoint(&self) -> Checkpoint {
        let nodes = self.earlier_nodes.saturating_add(self.scheduler.nodes());
        Checkpoint::of(self.search.clone(), &self.scheduler, nodes)
    }

    fn save(&self) -> std::io::Result<Checkpoint> {
        let cp = self.checkpoint();
        if let Some(path) = &self.checkpoint {
            write_atomically(path, &(cp.to_json() + "\n"))?;
        }
        Ok(cp)
    }

    /// Runs the count to its end (or until a worker's limit stops it): answers every
    /// message, hands out the jobs, saves checkpoints; `progress` gets the estimated
    /// fraction done, the count and the nodes so far, after every report.
    pub fn run<T: Transport>(
        &mut self,
        transport: &mut T,
        progress: &mut dyn FnMut(f64, u128, u64),
    ) -> std::io::Result<Summary> {
        let workers = transport.workers();
        let mut waiting: BTreeSet<usize> = BTreeSet::new();
        let mut stopped: BTreeSet<usize> = BTreeSet::new();
        let mut stop = Stop::Exhausted;
        let mut saved = Instant::now();
        let _ = self.save()?;
        while stopped.len() < workers {
            let (w, message) = transport.receive();
            let over = self.max_nodes.is_some_and(|m| self.scheduler.nodes() >= m);
            if over && stop == Stop::Exhausted {
                stop = Stop::NodeLimit;
                self.scheduler.stop();
            }
            if message.stop != Stop::Exhausted && stop == Stop::Exhausted {
                // A limit or Ctrl-C: no more work is handed out.
                stop = message.stop;
                self.scheduler.stop();
            }
            let free = match message.report {
                None => true,
                Some(report) => {
                    let keeps = !report.keep.is_empty();
                    self.scheduler
                        .report(w, report)
                        .map_err(|e| std::io::Error::other(e.to_string()))?;
                    progress(
                        self.scheduler.progress(),
                        self.scheduler.count(),
                        self.scheduler.nodes(),
                    );
                    if keeps && stop == Stop::Exhausted {
                        transport.send(w, &Reply::Continue(self.scheduler.wants_work()));
                        false
                    } else {
                        !keeps
                    }
                }
            };
            if free {
                let _ = waiting.insert(w);
            } else if stop != Stop::Exhausted {
                // Stopped with work held: it stays pending in the checkpoint.
                transport.send(w, &Reply::Stop);
                let _ = stopped.insert(w);
            }
            // Hand out work to the free workers, or tell them to stop.
            let free: Vec<usize> = waiting.iter().copied().collect();
            for w in free {
                match self.scheduler.assign(w) {
                    Assignment::Job(job, _) => {
                        let _ = waiting.remove(&w);
                        transport.send(w, &Reply::Job(job, self.scheduler.wants_work()));
                    }
                    Assignment::Wait => {}
                    Assignment::Done => {
                        let _ = waiting.remove(&w);
                        transport.send(w, &Reply::Stop);
                        let _ = stopped.insert(w);
                    }
                }
            }
            if saved.elapsed() >= SAVE_EVERY {
                let _ = self.save()?;
                saved = Instant::now();
            }
        }
        let checkpoint = self.save()?;
        let stop = if self.scheduler.is_complete() { Stop::Exhausted } else { stop };
        Ok(Summary {
            count: self.scheduler.count(),
            stop,
            nodes: self.scheduler.nodes(),
            jobs: self.scheduler.jobs(),
            checkpoint,
        })
    }
}

/// Counts `problem` with the coordinator and `workers` search threads of this process (at
/// least one), exactly as an MPI job of that many ranks would: from `resume` (a checkpoint of
/// this search) or from the first jobs, saving checkpoints to `checkpoint` and calling
/// `progress` (fraction, count, nodes) after every report. What [`crate::mpi::count`] runs
/// when no MPI launcher started the process.
pub fn count_local(
    problem: &dancecard_engine::Problem,
    config: &dancecard_engine::Config,
    workers: usize,
    resume: Option<Checkpoint>,
    checkpoint: Option<std::path::PathBuf>,
    progress: &mut dyn FnMut(f64, u128, u64),
) -> std::io::Result<Summary> {
    let workers = workers.max(1);
    let max_nodes = config.budget.max_nodes;
    let config = &dancecard_engine::Config {
        budget: Budget { max_nodes: None, ..config.budget.clone() },
        ..config.clone()
    };
    let search = SearchId::new(problem, config.heuristic);
    let (jobs, count, nodes) = match resume {
        Some(cp) => (cp.jobs(), cp.total(), cp.nodes),
        None => (crate::schedule::first_jobs(problem, config, workers), 0, 0),
    };
    let mut coordinator = Coordinator::new(search, jobs, count, nodes, workers, checkpoint)
        .with_node_limit(max_nodes);
    let (mut local, channels) = Local::new(workers);
    std::thread::scope(|scope| {
        for mut channel in channels {
            let _ = scope.spawn(move || {
                let mut solver = Solver::with_config(problem, config.clone());
                work(&mut solver, &mut channel, &mut |_| ControlFlow::Continue(()));
            });
        }
        coordinator.run(&mut local, progress)
    })
}

/// Writes `text` to `path` through a temporary file and a rename, so that a reader never sees
/// half a file.
pub fn write_atomically(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

/// A worker's loop: asks for work, searches it in periods, reports, until told to stop.
/// `progress` is passed to the searches (its `Break` cancels, as a Ctrl-C would).
pub fn work<C: Channel>(
    solver: &mut Solver,
    channel: &mut C,
    progress: &mut dyn FnMut(&Solver) -> ControlFlow<()>,
) {
    let mut worker = Worker::default();
    let mut budget = FIRST_BUDGET;
    channel.send(&Message { report: None, stop: Stop::Exhausted });
    loop {
        let give = match channel.receive() {
            Reply::Stop => return,
            Reply::Job(job, give) => {
                worker = Worker::new(job);
                give
            }
            Reply::Continue(give) => give,
        };
        let started = Instant::now();
        let (report, stop) = worker.run(solver, budget, give, progress);
        // The next budget: this period's node rate over the target period.
        let seconds = started.elapsed().as_secs_f64();
        if report.nodes > 0 && seconds > 0.0 {
            let rate = report.nodes as f64 / seconds;
            budget = ((rate * PERIOD.as_secs_f64()) as u64).clamp(1 << 10, 1 << 40);
        }
        channel.send(&Message { report: Some(report), stop });
    }
}

/// The coordinator's end of in-process workers: channels to threads.
#[derive(Debug)]
pub struct Local {
    incoming: mpsc::Receiver<(usize, Message)>,
    outgoing: Vec<mpsc::Sender<Reply>>,
}

/// A worker thread's end of [`Local`].
#[derive(Debug)]
pub struct LocalChannel {
    id: usize,
    outgoing: mpsc::Sender<(usize, Message)>,
    incoming: mpsc::Receiver<Reply>,
}

impl Local {
    /// The coordinator's end, and one channel per worker.
    pub fn new(workers: usize) -> (Local, Vec<LocalChannel>) {
        let (tx, rx) = mpsc::channel();
        let mut outgoing = Vec::new();
        let mut channels = Vec::new();
        for id in 0..workers {
            let (reply_tx, reply_rx) = mpsc::channel();
            outgoing.push(reply_tx);
            channels.push(LocalChannel { id, outgoing: tx.clone(), incoming: reply_rx });
        }
        (Local { incoming: rx, outgoing }, channels)
    }

    /// A message from a worker if one is waiting (for a coordinator that also polls other
    /// transports).
    pub fn try_receive(&mut self) -> Option<(usize, Message)> {
        self.incoming.try_recv().ok()
    }
}

impl Transport for Local {
    fn workers(&self) -> usize {
        self.outgoing.len()
    }

    fn receive(&mut self) -> (usize, Message) {
        // A worker that panicked drops its sender; with none left, the count cannot go on.
        self.incoming.recv().unwrap_or((0, Message { report: None, stop: Stop::Cancelled }))
    }

    fn send(&mut self, worker: usize, reply: &Reply) {
        if let Some(tx) = self.outgoing.get(worker) {
            let _ = tx.send(reply.clone());
        }
    }
}

impl Channel for LocalChannel {
    fn send(&mut self, message: &Message) {
        let _ = self.outgoing.send((self.id, message.clone()));
    }

    fn receive(&mut self) -> Reply {
        self.incoming.recv().unwrap_or(Reply::Stop)
    }
}

/// The wire format of messages and replies between processes: vectors of `u64`.
pub mod wire {
    use dancecard_engine::Stop;

    use super::{Message, Reply};
    use crate::schedule::{Job, Report};

    /// A stop reason as a number.
    fn stop_code(stop: Stop) -> u64 {
        match stop {
            Stop::Exhausted => 0,
            Stop::SolutionLimit => 1,
            Stop::NodeLimit => 2,
            Stop::TimeLimit => 3,
            Stop::Cancelled => 4,
            Stop::Visitor => 5,
            // Not an engine stop; numbered so that the wire carries every reason.
            Stop::Found => 6,
            Stop::CostLimit => 7,
            Stop::MemoryLimit => 8,
        }
    }

    fn stop_of(code: u64) -> Option<Stop> {
        Some(match code {
            0 => Stop::Exhausted,
            1 => Stop::SolutionLimit,
            2 => Stop::NodeLimit,
            3 => Stop::TimeLimit,
            4 => Stop::Cancelled,
            5 => Stop::Visitor,
            6 => Stop::Found,
            7 => Stop::CostLimit,
            8 => Stop::MemoryLimit,
            _ => return None,
        })
    }

    fn put_jobs(out: &mut Vec<u64>, jobs: &[Job]) {
        out.push(jobs.len() as u64);
        for j in jobs {
            out.push(u64::from(j.options));
            out.push(j.share.to_bits());
            out.push(j.prefix.len() as u64);
            out.extend(j.prefix.iter().map(|&k| u64::from(k)));
        }
    }

    fn take_jobs(input: &mut impl Iterator<Item = u64>) -> Option<Vec<Job>> {
        let n = input.next()?;
        let mut jobs = Vec::new();
        for _ in 0..n {
            let options = u32::try_from(input.next()?).ok()?;
            let share = f64::from_bits(input.next()?);
            let len = input.next()?;
            let prefix: Option<Vec<u32>> =
                (0..len).map(|_| input.next().and_then(|k| u32::try_from(k).ok())).collect();
            jobs.push(Job { prefix: prefix?, options, share });
        }
        Some(jobs)
    }

    /// A message as `u64`s.
    pub fn encode_message(m: &Message) -> Vec<u64> {
        let mut out = vec![stop_code(m.stop)];
        match &m.report {
            None => out.push(0),
            Some(r) => {
                out.extend([1, r.count as u64, (r.count >> 64) as u64, r.nodes]);
                put_jobs(&mut out, &r.rest);
                put_jobs(&mut out, &r.keep);
            }
        }
        out
    }

    /// A message from `u64`s (`None` if they are not one).
    pub fn decode_message(words: &[u64]) -> Option<Message> {
        let mut input = words.iter().copied();
        let stop = stop_of(input.next()?)?;
        let report = match input.next()? {
            0 => None,
            1 => {
                let count = u128::from(input.next()?) | (u128::from(input.next()?) << 64);
                let nodes = input.next()?;
                let rest = take_jobs(&mut input)?;
                let keep = take_jobs(&mut input)?;
                Some(Report { count, nodes, rest, keep })
            }
            _ => return None,
        };
        input.next().is_none().then_some(Message { report, stop })
    }

    /// A reply as `u64`s.
    pub fn encode_reply(r: &Reply) -> Vec<u64> {
        match r {
            Reply::Stop => vec![0],
            Reply::Continue(give) => vec![1, u64::from(*give)],
            Reply::Job(job, give) => {
                let mut out = vec![2, u64::from(*give)];
                put_jobs(&mut out, std::slice::from_ref(job));
                out
            }
        }
    }

    /// A reply from `u64`s (`None` if they are not one).
    pub fn decode_reply(words: &[u64]) -> Option<Reply> {
        let mut input = words.iter().copied();
        let reply = match input.next()? {
            0 => Reply::Stop,
            1 => Reply::Continue(input.next()? != 0),
            2 => {
                let give = input.next()? != 0;
                let mut jobs = take_jobs(&mut input)?;
                if jobs.len() != 1 {
                    return None;
                }
                Reply::Job(jobs.remove(0), give)
            }
            _ => return None,
        };
        input.next().is_none().then_some(reply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::tests::problem;
    use dancecard_engine::{Config, Heuristic};

    #[test]
    fn messages_and_replies_round_trip() {
        let job = |p: &[u32], o: u32, s: f64| Job { prefix: p.to_vec(), options: o, share: s };
        let messages = [
            Message { report: None, stop: Stop::Exhausted },
            Message {
                report: Some(Report {
                    count: u128::MAX - 3,
                    nodes: 12,
                    rest: vec![job(&[1, 2], 3, 0.25)],
                    keep: vec![job(&[], 1, 1.0), job(&[0, 0, 7], 1, 1e-9)],
                }),
                stop: Stop::Cancelled,
            },
        ];
        for m in &messages {
            assert_eq!(wire::decode_message(&wire::encode_message(m)).as_ref(), Some(m));
        }
        for r in [Reply::Stop, Reply::Continue(true), Reply::Job(job(&[4], 2, 0.5), false)] {
            assert_eq!(wire::decode_reply(&wire::encode_reply(&r)), Some(r));
        }
        assert_eq!(wire::decode_message(&[9]), None);
        assert_eq!(wire::decode_message(&[0, 1, 5]), None);
        assert_eq!(wire::decode_reply(&[2, 0, 2, 1, 0, 0, 1, 0, 0]), None);
        assert_eq!(wire::decode_reply(&[1, 1, 7]), None);
    }

    /// Counts `name` with `threads` local workers and a coordinator.
    fn local(name: &str, threads: usize, checkpoint: Option<PathBuf>) -> Summary {
        let p = problem(name);
        let (mut transport, channels) = Local::new(threads);
        let search = SearchId::new(&p, Heuristic::Mrv);
        let mut coordinator =
            Coordinator::new(search, vec![Job::root()], 0, 0, threads, checkpoint);
        std::thread::scope(|scope| {
            for mut channel in channels {
                let p = &p;
                let _ = scope.spawn(move || {
                    let mut solver = Solver::with_config(p, Config::default());
                    work(&mut solver, &mut channel, &mut |_| ControlFlow::Continue(()));
                });
            }
            coordinator.run(&mut transport, &mut |_, _, _| {}).unwrap()
        })
    }

    #[test]
    fn local_workers_count_exactly_and_checkpoint() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cp.json");
        for threads in [1, 3] {
            let s = local("queens12", threads, Some(path.clone()));
            assert_eq!((s.count, s.stop), (14_200, Stop::Exhausted));
            assert!(s.checkpoint.complete);
            let saved = Checkpoint::parse(&std::fs::read(&path).unwrap()).unwrap();
            assert_eq!(saved, s.checkpoint);
            assert_eq!(saved.total(), 14_200);
        }
        assert_eq!(local("domino6x6", 2, None).count, 6_728);
    }
}
