//! Handing out a count as budgeted jobs, as Avis and Jordan's mplrs does for lrs.
//!
//! A *job* is a subtree of the search, or several sibling subtrees in a row ([`Job`]), named
//! by choice prefixes ([`Solver::set_prefix`](dancecard_engine::Solver::set_prefix)). A
//! [`Worker`] searches the jobs it holds in *periods* of a node budget: a job that does not
//! end within the period stops and hands back exactly the subtrees it left
//! ([`Solver::count_with_rest`](dancecard_engine::Solver::count_with_rest)), which the worker
//! keeps (the deepest searched next, depth-first). At the end of each period it reports to
//! the [`Scheduler`]: the count of the period, and, when the scheduler wants work, the
//! largest job it holds, given away for an idle worker. So the work splits where it is
//! large, whatever the shape of the tree, the pieces given away are the largest ones (the
//! untried options of the top levels), and the small deep ones stay with the worker, at no
//! cost of messages.
//!
//! The queue hands out its oldest jobs first (the shallow ones); when it is shorter than
//! the workers, a job of several sibling subtrees is halved as it is handed out, so that idle
//! workers share it.
//!
//! The count is exact whatever happens: a report's count, the jobs it gives away and the jobs
//! the worker keeps partition exactly what the worker held; a worker lost gives back to the
//! queue what it held at its last report ([`Scheduler::lost`]), none of it counted. The
//! count so far and the jobs not yet counted ([`Scheduler::pending`]) are a checkpoint: a
//! run stopped anywhere resumes with nothing counted twice and nothing lost.

use std::collections::{BTreeMap, VecDeque};
use std::ops::ControlFlow;

use dancecard_engine::{Budget, Config, Outcome, Problem, Solver, Stop, Subtree};

/// A job: one subtree, or several sibling subtrees in a row (the options `k..k + options` of
/// the item chosen at the prefix's last level, where `k` is the prefix's last index).
///
/// A job that stops before its end leaves, at each level of the path it was on, the untried
/// options of that level: consecutive siblings, which one job holds (not one job each), so
/// that a stopped job hands back at most as many jobs as its depth, each as large as it can.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    /// The choice prefix of the first subtree (the root's is empty).
    pub prefix: Vec<u32>,
    /// How many consecutive options from the prefix's last index (1 for one subtree; 1 for
    /// the root).
    pub options: u32,
    /// The share of the whole tree, by Knuth's estimate (see [`Subtree::share`]).
    pub share: f64,
}

impl Job {
    /// The whole tree.
    pub fn root() -> Job {
        Job { prefix: Vec::new(), options: 1, share: 1.0 }
    }

    /// One subtree.
    pub fn subtree(s: Subtree) -> Job {
        Job { prefix: s.prefix, options: 1, share: s.share }
    }

    /// The prefixes of the job's subtrees.
    pub fn prefixes(&self) -> impl Iterator<Item = Vec<u32>> + '_ {
        (0..self.options).map(move |k| {
            let mut p = self.prefix.clone();
            if let Some(last) = p.last_mut() {
                *last += k;
            }
            p
        })
    }
}

/// Jobs for `subtrees`, siblings in a row (same parent, consecutive last indices) merged into
/// one job each.
pub fn jobs_of(subtrees: Vec<Subtree>) -> Vec<Job> {
    let mut jobs: Vec<Job> = Vec::new();
    for s in subtrees {
        if let Some(last) = jobs.last_mut() {
            let n = s.prefix.len();
            let follows = n > 0
                && last.prefix.len() == n
                && last.prefix[..n - 1] == s.prefix[..n - 1]
                && last.prefix[n - 1] + last.options == s.prefix[n - 1];
            if follows {
                last.options += 1;
                last.share += s.share;
                continue;
            }
        }
        jobs.push(Job::subtree(s));
    }
    jobs
}

/// Counts `job` with `solver` within `budget` nodes (`None`: to its end): its subtrees one
/// after another, the budget shared. The report has the count of what was searched and,
/// when the budget ran out (or a limit of the solver's configuration, or `progress`,
/// stopped it), the jobs left: exactly the part of `job` not searched. The solver's own
/// node limit is replaced by the budget; its other limits apply.
pub fn run_job(
    solver: &mut Solver,
    job: &Job,
    budget: Option<u64>,
    progress: &mut dyn FnMut(&Solver) -> ControlFlow<()>,
) -> (Report, Stop) {
    let base = solver.config().clone();
    let mut report = Report::default();
    let mut stop = Stop::Exhausted;
    let per = job.share / f64::from(job.options.max(1));
    for (k, prefix) in job.prefixes().enumerate() {
        let left = budget.map(|b| b.saturating_sub(report.nodes));
        solver.set_config(Config {
            budget: Budget { max_nodes: left, ..base.budget.clone() },
            ..base.clone()
        });
        solver.set_prefix(&prefix);
        let (Outcome { solutions, stop: s }, rest) = solver.count_with_rest(&mut *progress);
        report.count += solutions;
        report.nodes += solver.stats().nodes;
        if s == Stop::Exhausted {
            continue;
        }
        // Stopped inside subtree `k`: what it left, then the subtrees after it.
        stop = s;
        report.rest = jobs_of(rest);
        let k = k as u32;
        if k + 1 < job.options {
            let mut next = job.prefix.clone();
            if let Some(last) = next.last_mut() {
                *last += k + 1;
            }
            let options = job.options - k - 1;
            report.rest.push(Job { prefix: next, options, share: per * f64::from(options) });
        }
        break;
    }
    solver.set_config(base);
    (report, stop)
}

/// What the scheduler tells a worker that asks for work.
#[derive(Clone, Debug, PartialEq)]
pub enum Assignment {
    /// Count this job, in periods of this many nodes (see [`Worker::run`]).
    Job(Job, u64),
    /// Nothing to give now: other workers may still give work away; ask again later.
    Wait,
    /// The count is finished (or stopped): stop.
    Done,
}

/// A worker's report at the end of a period of its budget, or of its work.
///
/// `count` and the jobs of `rest` and `keep` partition what the worker held at the start of
/// the period: the solutions of the part it searched, the jobs it gives away (for other
/// workers), and the jobs it keeps searching (none when its work is done).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Solutions counted in the period.
    pub count: u128,
    /// Nodes searched in the period.
    pub nodes: u64,
    /// Jobs given away, for the queue.
    pub rest: Vec<Job>,
    /// Jobs the worker keeps (its work not yet searched); empty: it is free.
    pub keep: Vec<Job>,
}

/// The worker's side: the jobs it holds, searched in periods of a node budget, giving the
/// largest away when asked (see the [module docs](self)).
#[derive(Clone, Debug, Default)]
pub struct Worker {
    /// The jobs held, the next one to search last (the deepest: the search goes on
    /// depth-first, and the shallow, large jobs stay at hand to give away).
    local: Vec<Job>,
}

impl Worker {
    /// A worker holding `job`.
    pub fn new(job: Job) -> Worker {
        Worker { local: vec![job] }
    }

    /// Whether the worker holds no job.
    pub fn is_idle(&self) -> bool {
        self.local.is_empty()
    }

    /// Searches the jobs held, for at most `budget` nodes; then, with `give`, gives away
    /// its largest jobs (by share), up to half of what it holds, keeping at least one. Returns the report of the
    /// period, and why it ended ([`Stop::Exhausted`] for the budget or the work done; a
    /// limit of the solver's configuration, or `Break` from `progress`, otherwise).
    pub fn run(
        &mut self,
        solver: &mut Solver,
        budget: u64,
        give: bool,
        progress: &mut dyn FnMut(&Solver) -> ControlFlow<()>,
    ) -> (Report, Stop) {
        let mut report = Report::default();
        let mut stop = Stop::Exhausted;
        while let Some(job) = self.local.pop() {
            let left = budget.saturating_sub(report.nodes);
            if left == 0 {
                self.local.push(job);
                break;
            }
            let (r, s) = run_job(solver, &job, Some(left), progress);
            report.count += r.count;
            report.nodes += r.nodes;
            if s != Stop::Exhausted {
                // What the job left: shallow first, the deepest (next to search) last.
                self.local.extend(r.rest);
                if s != Stop::NodeLimit {
                    stop = s;
                }
                break;
            }
        }
        if give && self.local.len() >= 2 {
            // The largest jobs held, up to half of the share held, and never the last one.
            let total: f64 = self.local.iter().map(|j| j.share).sum();
            let mut given = 0.0;
            while self.local.len() >= 2 && given < total / 2.0 {
                let largest = (0..self.local.len())
                    .max_by(|&a, &b| self.local[a].share.total_cmp(&self.local[b].share))
                    .unwrap_or(0);
                let job = self.local.remove(largest);
                given += job.share;
                report.rest.push(job);
            }
        }
        report.keep = self.local.clone();
        (report, stop)
    }
}

/// The coordinator of a count split into budgeted jobs; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct Scheduler {
    queue: VecDeque<Job>,
    /// The jobs each busy worker holds (its part of the work not yet counted).
    running: BTreeMap<usize, Vec<Job>>,
    count: u128,
    nodes: u64,
    /// The share of the tree counted.
    done_share: f64,
    budget: u64,
    workers: usize,
    stopped: bool,
    jobs: u64,
}

/// Why a report was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ScheduleError {
    /// A report from a worker that holds no job.
    #[error("worker {0} reported on no job")]
    NoJob(usize),
    /// The count passes `u128::MAX`.
    #[error("the count passes 2^128 - 1")]
    Overflow,
}

impl Scheduler {
    /// The default node budget of a period.
    pub const BUDGET: u64 = 1 << 22;

    /// A scheduler for `workers` workers, starting from `jobs` (for a whole count,
    /// [`Job::root`], or the subtrees of a shallow depth), `count` already counted (0, or a
    /// checkpoint's).
    pub fn new(jobs: Vec<Job>, count: u128, workers: usize) -> Scheduler {
        let done_share = 1.0 - jobs.iter().map(|j| j.share).sum::<f64>();
        Scheduler {
            queue: jobs.into(),
            running: BTreeMap::new(),
            count,
            nodes: 0,
            done_share,
            budget: Self::BUDGET,
            workers: workers.max(1),
            stopped: false,
            jobs: 0,
        }
    }

    /// Sets the node budget of a period.
    pub fn with_budget(mut self, budget: u64) -> Scheduler {
        self.budget = budget.max(1);
        self
    }

    /// The node budget of a period.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// The next job for `worker` (which must hold none), or why there is none.
    pub fn assign(&mut self, worker: usize) -> Assignment {
        if self.stopped {
            return Assignment::Done;
        }
        let Some(mut job) = self.queue.pop_front() else {
            return if self.running.is_empty() { Assignment::Done } else { Assignment::Wait };
        };
        if job.options > 1 && self.queue.len() < self.workers {
            // Work is short: a job of several subtrees is split in two, the second half kept
            // at the front, so that the next idle workers get a share of it too.
            let half = job.options / 2;
            let per = job.share / f64::from(job.options);
            let mut second = job.prefix.clone();
            if let Some(last) = second.last_mut() {
                *last += job.options - half;
            }
            self.queue.push_front(Job {
                prefix: second,
                options: half,
                share: per * f64::from(half),
            });
            job.options -= half;
            job.share = per * f64::from(job.options);
        }
        self.jobs += 1;
        let _ = self.running.insert(worker, vec![job.clone()]);
        Assignment::Job(job, self.budget)
    }

    /// Whether workers should give work away at the end of their next period: the queue is
    /// shorter than the workers.
    pub fn wants_work(&self) -> bool {
        !self.stopped && self.queue.len() < self.workers
    }

    /// Takes `worker`'s report: adds its count, queues the jobs it gave away, and records
    /// what it keeps (when it keeps nothing, it is free).
    pub fn report(&mut self, worker: usize, report: Report) -> Result<(), ScheduleError> {
        let held = self.running.remove(&worker).ok_or(ScheduleError::NoJob(worker))?;
        self.count = self.count.checked_add(report.count).ok_or(ScheduleError::Overflow)?;
        self.nodes = self.nodes.saturating_add(report.nodes);
        let before: f64 = held.iter().map(|j| j.share).sum();
        let after: f64 = report.rest.iter().chain(&report.keep).map(|j| j.share).sum();
        self.done_share += (before - after).max(0.0);
        self.queue.extend(report.rest);
        if !report.keep.is_empty() {
            let _ = self.running.insert(worker, report.keep);
        }
        Ok(())
    }

    /// `worker` is gone with its jobs (its process died, its node was lost): what it held
    /// since its last report goes back to the queue, nothing of it counted.
    pub fn lost(&mut self, worker: usize) {
        if let Some(jobs) = self.running.remove(&worker) {
            for job in jobs.into_iter().rev() {
                self.queue.push_front(job);
            }
        }
    }

    /// Stops handing out jobs (Ctrl-C, a limit): workers asking get [`Assignment::Done`];
    /// reports still count, and [`Scheduler::pending`] keeps everything not counted.
    pub fn stop(&mut self) {
        self.stopped = true;
    }

    /// Whether every job is counted.
    pub fn is_complete(&self) -> bool {
        self.queue.is_empty() && self.running.is_empty()
    }

    /// The count so far (exact for the parts reported).
    pub fn count(&self) -> u128 {
        self.count
    }

    /// Nodes reported so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Jobs handed out so far.
    pub fn jobs(&self) -> u64 {
        self.jobs
    }

    /// Jobs queued.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// Workers holding work.
    pub fn busy(&self) -> usize {
        self.running.len()
    }

    /// The estimated fraction of the tree counted (Knuth's shares of the subtrees).
    pub fn progress(&self) -> f64 {
        self.done_share.clamp(0.0, 1.0)
    }

    /// Every job not counted yet: those the workers hold, then the queued ones. With
    /// [`Scheduler::count`], what a checkpoint holds.
    pub fn pending(&self) -> Vec<Job> {
        self.running.values().flatten().cloned().chain(self.queue.iter().cloned()).collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn job(prefix: &[u32], share: f64) -> Job {
        Job { prefix: prefix.to_vec(), options: 1, share }
    }

    fn report(count: u128, rest: Vec<Job>, keep: Vec<Job>) -> Report {
        Report { count, nodes: 10, rest, keep }
    }

    #[test]
    fn reports_bank_counts_queue_gifts_and_keep_the_rest() {
        let mut s = Scheduler::new(vec![Job::root()], 0, 2).with_budget(100);
        assert!(matches!(s.assign(0), Assignment::Job(ref j, 100) if j.prefix.is_empty()));
        assert_eq!(s.assign(1), Assignment::Wait);
        assert!(s.wants_work());
        let gift = Job { prefix: vec![1], options: 2, share: 0.5 };
        s.report(0, report(7, vec![gift.clone()], vec![job(&[0, 3], 0.125)])).unwrap();
        assert_eq!((s.count(), s.queued(), s.busy()), (7, 1, 1));
        assert!((s.progress() - 0.375).abs() < 1e-12);
        // The gift, halved: work is short.
        assert_eq!(s.assign(1), Assignment::Job(job(&[1], 0.25), 100));
        assert_eq!(s.pending().len(), 3);
        s.lost(1);
        assert_eq!(s.queued(), 2, "the lost job is back, whole");
        assert_eq!(s.report(5, Report::default()), Err(ScheduleError::NoJob(5)));
        s.report(0, report(1, vec![], vec![])).unwrap();
        for w in 0..2 {
            assert!(matches!(s.assign(w), Assignment::Job(..)));
        }
        for w in 0..2 {
            s.report(w, report(1, vec![], vec![])).unwrap();
        }
        assert!(s.is_complete());
        assert_eq!((s.count(), s.assign(0)), (10, Assignment::Done));
        assert!((s.progress() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn stop_holds_the_rest() {
        let jobs: Vec<Job> = (0..10).map(|k| job(&[k], 0.1)).collect();
        let mut s = Scheduler::new(jobs, 0, 2).with_budget(5);
        assert!(matches!(s.assign(0), Assignment::Job(_, 5)));
        s.stop();
        assert!(!s.wants_work());
        assert_eq!(s.assign(1), Assignment::Done);
        s.report(0, report(3, vec![], vec![job(&[0, 1], 0.05)])).unwrap();
        assert_eq!((s.count(), s.pending().len()), (3, 10));
        assert_eq!(
            Scheduler::new(vec![], 0, 1).report(0, Report::default()),
            Err(ScheduleError::NoJob(0))
        );
    }

    #[test]
    fn siblings_in_a_row_make_one_job() {
        let sub = |p: &[u32], share: f64| Subtree { prefix: p.to_vec(), share };
        let jobs = jobs_of(vec![
            sub(&[0, 2], 0.1),
            sub(&[0, 3], 0.1),
            sub(&[0, 4], 0.1),
            sub(&[1], 0.2),
            sub(&[2], 0.2),
            sub(&[2, 0], 0.05),
            sub(&[], 1.0),
        ]);
        let shape: Vec<(Vec<u32>, u32)> =
            jobs.iter().map(|j| (j.prefix.clone(), j.options)).collect();
        assert_eq!(shape, [(vec![0, 2], 3), (vec![1], 2), (vec![2, 0], 1), (vec![], 1)]);
        assert_eq!(jobs[1].prefixes().collect::<Vec<_>>(), [vec![1], vec![2]]);
    }
}
