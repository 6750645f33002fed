//! `Heuristic::Ssxcc` (SSXCC's tree on sparse sets) side by side with Knuth's SSXCC, and with
//! the default count (DLX1's tree, on the kernel `Kernel::Auto` picks), in the same run.
//!
//! SSXCC runs when `DANCECARD_SSXCC` names a binary built by hand (from Knuth's `ssxcc.w`,
//! outside the project); it reads the file and prints its totals, so its time includes
//! parsing (a few milliseconds at most on these files) and is read from the clock around its
//! process. The work columns are machine-independent: ours must equal SSXCC's, node for node
//! and update for update, or the bench stops. Runs alternate; the table gives medians and the
//! median of the runs' ratios.
//!
//! ```sh
//! DANCECARD_SSXCC=/path/to/ssxcc cargo bench -p dancecard-engine --bench ssxcc
//! ```
//! (`DANCECARD_BENCH_RUNS` runs per engine, 3 by default; instance names pick some.)

use std::time::Instant;

use dancecard_engine::{Config, Heuristic, Solver};

mod common;
use common::median;

const INSTANCES: [&str; 4] = ["pent6x10", "domino8x8", "queens12", "sudoku_inkala"];

/// Seconds, solutions, nodes, updates.
type Run = (f64, u128, u64, u64);

fn ours(text: &str, heuristic: Heuristic) -> Run {
    let problem = common::problem(text);
    let started = Instant::now();
    let mut solver = Solver::with_config(&problem, Config::with_heuristic(heuristic));
    let outcome = solver.count();
    let time = started.elapsed().as_secs_f64();
    let s = solver.stats();
    (time, outcome.solutions, s.nodes, s.updates)
}

fn theirs(program: &str, input: &std::path::Path) -> Option<Run> {
    let (time, err) = common::run_clocked(program, input)?;
    // "Altogether 92 solutions, 3+4 mems, 15736 updates, 7 bytes, 857 nodes, ccost 6%."
    let line = err.lines().find(|l| l.starts_with("Altogether"))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let before = |what: &str| -> Option<u64> {
        let k = words.iter().position(|w| w.trim_end_matches(',').starts_with(what))?;
        words.get(k.checked_sub(1)?)?.parse().ok()
    };
    let solutions = words.get(1)?.parse().ok()?;
    Some((time, solutions, before("nodes")?, before("updates")?))
}

fn main() {
    let runs: usize =
        std::env::var("DANCECARD_BENCH_RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(3);
    let picked: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let ssxcc = std::env::var("DANCECARD_SSXCC").ok();
    match &ssxcc {
        Some(path) => println!("SSXCC's tree against SSXCC ({path}), {runs} alternating runs"),
        None => println!("SSXCC's tree, {runs} runs (set DANCECARD_SSXCC to run SSXCC beside it)"),
    }
    println!(
        "{:<14} {:>10} {:>13} {:>14} {:>9} | {:>9} {:>7} | {:>13} {:>9}",
        "instance",
        "solutions",
        "ssxcc nodes",
        "updates",
        "ours",
        "SSXCC",
        "speed",
        "DLX1 nodes",
        "default"
    );
    for name in INSTANCES {
        if !picked.is_empty() && !picked.iter().any(|p| p == name) {
            continue;
        }
        let text = dancecard_testkit::instance_text(name);
        let input = common::scratch_file("ssxcc", &text);
        let (mut a, mut b, mut c, mut ratios) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let (mut work, mut dlx1_nodes) = ((0, 0, 0), 0);
        for _ in 0..runs.max(1) {
            let (t, s, n, u) = ours(&text, Heuristic::Ssxcc);
            work = (s, n, u);
            a.push(t);
            if let Some(program) = &ssxcc {
                let Some((tt, s2, n2, u2)) = theirs(program, &input) else {
                    panic!("{program} did not report on {name}");
                };
                assert_eq!((s, n, u), (s2, n2, u2), "{name}: not SSXCC's tree");
                b.push(tt);
                ratios.push(tt / t);
            }
            let (t, s2, n, _) = ours(&text, Heuristic::Mrv);
            assert_eq!(s, s2, "{name}: the counts differ");
            dlx1_nodes = n;
            c.push(t);
        }
        let _ = std::fs::remove_file(&input);
        let (s, n, u) = work;
        let (theirs_t, speed) = if b.is_empty() {
            ("".to_owned(), "".to_owned())
        } else {
            (format!("{:.3}s", median(b)), format!("{:.2}x", median(ratios)))
        };
        println!(
            "{name:<14} {s:>10} {n:>13} {u:>14} {:>8.3}s | {theirs_t:>9} {speed:>7} | {dlx1_nodes:>13} {:>8.3}s",
            median(a),
            median(c)
        );
    }
}
