//! The scheduler on a simulated cluster: 64 workers counting real instances, time measured in
//! search nodes (each job also costs a fixed overhead, for the messages and the replay of
//! its prefix). The jobs run on the real engine, so the counts are real and exact; only the
//! clock is simulated. Compared: budgeted jobs with dynamic splitting ([`Scheduler`]), and
//! the static list of units the first MPI driver handed out (the shallowest depth with 30
//! units per worker, in order, to whichever worker is free).
//!
//! The idle fraction is the share of the workers' time spent waiting, `1 - work / (workers *
//! makespan)`. The test asserts the bound (under 5% with dynamic splitting) and
//! prints both (run with `-- --nocapture` to see them).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::ControlFlow;

use dancecard_engine::{Config, Problem, Solver};
use dancecard_scale::{jobs_of, Assignment, Job, Report, Scheduler, Worker};

const WORKERS: usize = 64;

/// The simulated cost of a period besides its nodes, in nodes of search: a report and its
/// answer (about 20 µs on a cluster's network: 30 nodes of the pentomino search, which costs
/// about 0.7 µs a node on its bit-set kernel, 400 of the domino search, at about 50 ns a
/// node).
fn overhead(name: &str) -> u64 {
    if name.starts_with("pent") {
        30
    } else {
        400
    }
}

fn instance(name: &str) -> Problem {
    let text = match name {
        "domino8x10" => dancecard_testkit::dominoes(8, 10),
        _ => dancecard_testkit::instance_text(name),
    };
    dancecard_format::parse_dlx(text.as_bytes()).unwrap().problem
}

/// What a simulated run measured.
#[derive(Debug)]
struct Run {
    count: u128,
    makespan: u64,
    work: u64,
    jobs: u64,
}

impl Run {
    fn idle(&self) -> f64 {
        1.0 - self.work as f64 / (WORKERS as f64 * self.makespan as f64)
    }
}

/// Budgeted jobs: initial jobs from the shallowest depth with two per worker, then periods
/// of the budget, each ending in a report, with work given away when the queue is short.
fn dynamic(p: &Problem, budget: u64, overhead: u64) -> Run {
    let mut lister = Solver::new(p);
    let mut initial = vec![Job::root()];
    for depth in 1..=12 {
        if initial.len() >= 2 * WORKERS {
            break;
        }
        initial = jobs_of(lister.subtrees(depth)).into_iter().flat_map(split).collect();
    }
    let mut s = Scheduler::new(initial, 0, WORKERS).with_budget(budget);
    let mut solver = Solver::new(p);
    let mut workers: Vec<Worker> = vec![Worker::default(); WORKERS];
    // (time the worker's period ends, worker), and its report.
    let mut busy: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
    let mut reports: Vec<Option<Report>> = vec![None; WORKERS];
    let mut waiting: Vec<usize> = (0..WORKERS).collect();
    let (mut now, mut work) = (0u64, 0u64);
    // Runs a period of worker `w` from time `now`: its report, at the time it ends.
    let mut period = |worker: &mut Worker, give: bool| {
        let (report, _) = worker.run(&mut solver, budget, give, &mut |_| ControlFlow::Continue(()));
        let cost = report.nodes + overhead;
        (report, cost)
    };
    loop {
        let mut still = Vec::new();
        for w in waiting.drain(..) {
            match s.assign(w) {
                Assignment::Job(job, _) => {
                    workers[w] = Worker::new(job);
                    let (report, cost) = period(&mut workers[w], s.wants_work());
                    reports[w] = Some(report);
                    busy.push(Reverse((now + cost, w)));
                    work += cost;
                }
                Assignment::Wait => still.push(w),
                Assignment::Done => {}
            }
        }
        waiting = still;
        let Some(Reverse((t, w))) = busy.pop() else { break };
        if std::env::var_os("SIM_DEBUG").is_some() && t / 4000 != now / 4000 {
            eprintln!(
                "t {t}: busy {} queued {} waiting {}",
                busy.len() + 1,
                s.queued(),
                waiting.len()
            );
        }
        now = t;
        s.report(w, reports[w].take().unwrap()).unwrap();
        if workers[w].is_idle() {
            waiting.push(w);
        } else {
            let (report, cost) = period(&mut workers[w], s.wants_work());
            reports[w] = Some(report);
            busy.push(Reverse((now + cost, w)));
            work += cost;
        }
        // Work given away: the waiting workers ask again.
    }
    assert!(s.is_complete());
    Run { count: s.count(), makespan: now, work, jobs: s.jobs() }
}

/// A job of several siblings as one job per sibling (the initial jobs: as many as there are).
fn split(job: Job) -> Vec<Job> {
    let share = job.share / f64::from(job.options);
    job.prefixes().map(|prefix| Job { prefix, options: 1, share }).collect()
}

/// The static list: the units of the shallowest depth with 30 per worker, handed out in
/// order, each counted whole.
fn static_list(p: &Problem, overhead: u64) -> Run {
    let (_, units) = dancecard_scale::plan(p, &Config::default(), WORKERS);
    let mut solver = Solver::new(p);
    let mut free: BinaryHeap<Reverse<(u64, usize)>> =
        (0..WORKERS).map(|w| Reverse((0, w))).collect();
    let (mut count, mut work, mut makespan) = (0u128, 0u64, 0u64);
    for unit in &units {
        let Reverse((t, w)) = free.pop().unwrap();
        solver.set_prefix(unit);
        count += solver.count().solutions;
        let cost = solver.stats().nodes + overhead;
        work += cost;
        makespan = makespan.max(t + cost);
        free.push(Reverse((t + cost, w)));
    }
    Run { count, makespan, work, jobs: units.len() as u64 }
}

/// The budget of a job: a 32nd of each worker's share of the tree, by Knuth's estimate of
/// the plain search (1,000 probes), and at least 1,000 nodes.
fn budget_for(p: &Problem) -> u64 {
    let nodes = Solver::new(p).estimate(1000, 1).nodes;
    ((nodes / (WORKERS as f64 * 32.0)) as u64).max(1000)
}

fn compare(name: &str, count: u128) {
    let p = instance(name);
    let budget = budget_for(&p);
    let d = dynamic(&p, budget, overhead(name));
    let s = static_list(&p, overhead(name));
    println!(
        "{name}: {WORKERS} workers, budget {budget}; dynamic {} jobs, idle {:.1}%, makespan {}, work {}; \
         static {} units, idle {:.1}%, makespan {}, work {}",
        d.jobs,
        100.0 * d.idle(),
        d.makespan,
        d.work,
        s.jobs,
        100.0 * s.idle(),
        s.makespan,
        s.work
    );
    assert_eq!((d.count, s.count), (count, count), "{name}: both counts exact");
    assert!(d.idle() < 0.05, "{name}: dynamic idle {:.3}", d.idle());
    assert!(d.idle() < s.idle(), "{name}: dynamic splitting idles less than the static list");
    assert!(d.makespan <= s.makespan, "{name}: and ends no later");
}

#[test]
fn dynamic_splitting_keeps_64_workers_busy_on_pentominoes() {
    compare("pent6x10", 9_356);
}

#[test]
fn dynamic_splitting_keeps_64_workers_busy_on_dominoes() {
    compare("domino8x8", 12_988_816);
}

/// Dominoes on 8 x 10 (4 billion nodes of plain search: minutes): by hand, with
/// `cargo test --release -p dancecard-scale --test simulate -- --ignored --nocapture`.
/// 1,031,151,241 tilings (testdata/ground-truth/domino_tilings.tsv). 2026-12-01: idle
/// 4.3% (478 jobs) against 4.4% for the static list (1,423 units): a domino tree is even.
#[test]
#[ignore = "minutes of search"]
fn dynamic_splitting_keeps_64_workers_busy_on_dominoes_8x10() {
    compare("domino8x10", 1_031_151_241);
}
