//! Korf's 100 random 15-puzzle instances, solved by IDA*: nodes, time and nodes per second
//! for each heuristic.
//!
//! ```text
//! cargo bench -p dancecard-search --bench korf100 -- [HEURISTIC...] [--first N] [--ids 1,2,3]
//!     [--repeat R]
//! ```
//!
//! With `--repeat R` every instance is solved R times and the median time is reported (the
//! machine is shared: medians, not single runs).
//!
//! HEURISTIC is `manhattan`, `linear-conflict`, `pdb` (6-6-3, built in the run) or
//! `pdb-large` (Korf and Felner's 7-8, read from `$DANCECARD_CACHE_DIR`, where `dancecard slide
//! --build-pdb` puts it; skipped, saying so, when it is not there). Default: `pdb`. Manhattan distance
//! needs billions of nodes on the hardest instances, so run it on a subset (`--first` or
//! `--ids`). A plain-`main` bench (`harness = false`): each instance runs once, since one
//! run is seconds and its node count is exact; the time is the measured part.

use std::time::{Duration, Instant};

use dancecard_search::slide::{self, Board, Goal, Heuristic, Partition, Pdb, SolveOptions};

/// This thread's CPU time in seconds (Linux: /proc/thread-self/schedstat), if known. On a
/// shared machine wall time counts other processes' turns; CPU time does not.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

const KORF: &str = include_str!("../../../testdata/ground-truth/korf100_15puzzle.tsv");

fn instances() -> Vec<(u32, Option<usize>, Board)> {
    KORF.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("id"))
        .filter_map(|l| {
            let mut f = l.split('\t');
            let id = f.next()?.parse().ok()?;
            let len = f.next()?.parse().ok();
            let board = f.next()?.parse().ok()?;
            Some((id, len, board))
        })
        .collect()
}

fn main() {
    let mut heuristics = Vec::new();
    let mut first = usize::MAX;
    let mut ids: Option<Vec<u32>> = None;
    let mut repeat = 1usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "manhattan" => heuristics.push((Heuristic::Manhattan, Partition::Standard)),
            "linear-conflict" => heuristics.push((Heuristic::LinearConflict, Partition::Standard)),
            "pdb" => heuristics.push((Heuristic::Pdb, Partition::Standard)),
            "pdb-large" => heuristics.push((Heuristic::Pdb, Partition::Large)),
            "--first" => first = args.next().and_then(|n| n.parse().ok()).unwrap_or(usize::MAX),
            "--repeat" => repeat = args.next().and_then(|n| n.parse().ok()).unwrap_or(1).max(1),
            "--ids" => {
                ids = args.next().map(|s| s.split(',').filter_map(|x| x.parse().ok()).collect())
            }
            _ => {} // cargo bench passes --bench
        }
    }
    if heuristics.is_empty() {
        heuristics.push((Heuristic::Pdb, Partition::Standard));
    }
    let all = instances();
    let chosen: Vec<_> = all
        .iter()
        .filter(|(id, _, _)| ids.as_ref().map_or(true, |ids| ids.contains(id)))
        .take(first)
        .collect();
    for (h, partition) in heuristics {
        let mut options = SolveOptions::new(Goal::BlankFirst).heuristic(h);
        let mut name = h.name().to_owned();
        if h == Heuristic::Pdb {
            let t = Instant::now();
            let pdb = match partition {
                Partition::Large => {
                    let file = Pdb::file_name(4, Goal::BlankFirst, Partition::Large)
                        .expect("4x4 has a large partition");
                    let dir = std::env::var_os("DANCECARD_CACHE_DIR").unwrap_or_default();
                    let path = std::path::Path::new(&dir).join(file);
                    match Pdb::load(&path) {
                        Ok(pdb) => pdb,
                        Err(e) => {
                            println!(
                                "# pdb-large skipped: {e} (set DANCECARD_CACHE_DIR and run \
                                 `dancecard slide --build-pdb` once)"
                            );
                            continue;
                        }
                    }
                }
                _ => Pdb::build(4, Goal::BlankFirst).expect("4x4 is supported"),
            };
            let how = if partition == Partition::Large { "loaded" } else { "built" };
            println!("pdb {} {how} in {:.2} s", pdb.pattern_name(), t.elapsed().as_secs_f64());
            name = format!("pdb {}", pdb.pattern_name());
            options = options.pdb(std::sync::Arc::new(pdb));
        }
        println!("# {name} on {} instances", chosen.len());
        println!("id\tlength\tgenerated\texpanded\tseconds\tnodes/s\tcpu s\tnodes/cpu s");
        let (mut nodes, mut time, mut lengths, mut cpu) = (0u64, Duration::ZERO, 0usize, 0.0);
        for (id, known, board) in &chosen {
            let mut runs: Vec<_> = (0..repeat)
                .map(|_| {
                    let before = cpu_seconds().unwrap_or(0.0);
                    let s = slide::solve(board, &options).expect("Korf's instances are solvable");
                    (s, cpu_seconds().unwrap_or(0.0) - before)
                })
                .collect();
            runs.sort_by_key(|(s, _)| s.stats.elapsed);
            let (s, _) = runs[runs.len() / 2].clone();
            let mut cpus: Vec<f64> = runs.iter().map(|r| r.1).collect();
            cpus.sort_by(f64::total_cmp);
            let cpu_s = cpus[cpus.len() / 2];
            if let Some(known) = known {
                assert_eq!(s.length, *known, "instance {id}");
            }
            println!(
                "{id}\t{}\t{}\t{}\t{:.3}\t{:.1}M\t{cpu_s:.3}\t{:.1}M",
                s.length,
                s.stats.generated,
                s.stats.expanded,
                s.stats.elapsed.as_secs_f64(),
                s.stats.nodes_per_second() / 1e6,
                s.stats.generated as f64 / cpu_s.max(1e-9) / 1e6
            );
            nodes += s.stats.generated;
            cpu += cpu_s;
            time += s.stats.elapsed;
            lengths += s.length;
        }
        println!(
            "total\t{lengths}\t{nodes}\t\t{:.2}\t{:.1}M\t{cpu:.2}\t{:.1}M\n",
            time.as_secs_f64(),
            nodes as f64 / time.as_secs_f64().max(1e-9) / 1e6,
            nodes as f64 / f64::max(cpu, 1e-9) / 1e6
        );
    }
}
