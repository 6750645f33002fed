//! `pre` (Knuth's DLX-PRE's reductions) on the files of `testdata/instances` without colors
//! or multiplicities, side by side with DLX-PRE in the same run.
//!
//! Ours is timed as a user runs it, minus the process: the file parsed, reduced and written
//! back in DLX text. DLX-PRE runs when `DANCECARD_DLXPRE` names a binary built by hand (from
//! Knuth's `dlx-pre.w`, outside the project), timed by the clock around its process (so its
//! time includes starting a process, under a millisecond); its runs alternate with ours. The work columns
//! are machine-independent and must agree: the options and items removed and the rounds
//! (DLX-PRE's mems are printed as it reports them). The table gives median times and the
//! median of the pairs' ratios.
//!
//! ```sh
//! DANCECARD_DLXPRE=/path/to/dlx-pre cargo bench -p dancecard-engine --bench pre
//! ```
//! (`DANCECARD_BENCH_RUNS` runs per engine, 7 by default; instance names pick some.)

use std::time::Instant;

use dancecard_engine::pre;

mod common;
use common::median;

const INSTANCES: [&str; 5] = ["pent6x10", "queens12", "sudoku_inkala", "domino8x8", "queens8"];

/// Ours: seconds (the mean over repeats that last at least 0.2 s), options and items removed,
/// rounds.
fn ours(text: &str) -> (f64, usize, usize, u32) {
    let mut repeats = 0u32;
    let started = Instant::now();
    loop {
        let doc = dancecard_format::parse_dlx(text.as_bytes()).expect("the instance parses");
        let r = pre::reduce(&doc.problem).expect("pre reduces the instance");
        let out = dancecard_format::write_dlx(&r.problem);
        repeats += 1;
        let elapsed = started.elapsed().as_secs_f64();
        if elapsed >= 0.2 {
            let figures = (r.removed_options.len(), r.removed_items.len(), r.rounds);
            std::hint::black_box(out);
            return (elapsed / f64::from(repeats), figures.0, figures.1, figures.2);
        }
    }
}

/// DLX-PRE: seconds (its process's, [`common::run_clocked`]), options and items removed,
/// rounds, mems.
fn theirs(program: &str, input: &std::path::Path) -> Option<(f64, usize, usize, u32, String)> {
    let (time, err) = common::run_clocked(program, input)?;
    let line = err.lines().find(|l| l.starts_with("Removed"))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let number = |k: usize| words.get(k)?.trim_end_matches(',').parse::<usize>().ok();
    let (options, items) = (number(1)?, number(4)?);
    let mems = words.get(7)?.to_string();
    let rounds = words.get(9)?.parse().ok()?;
    Some((time, options, items, rounds, mems))
}

fn main() {
    let runs: usize =
        std::env::var("DANCECARD_BENCH_RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(7);
    let picked: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let names: Vec<String> =
        if picked.is_empty() { INSTANCES.iter().map(|s| s.to_string()).collect() } else { picked };
    let dlxpre = std::env::var("DANCECARD_DLXPRE").ok();
    match &dlxpre {
        Some(path) => println!("pre against DLX-PRE ({path}), {runs} alternating runs each"),
        None => println!("pre, {runs} runs (set DANCECARD_DLXPRE to run DLX-PRE beside it)"),
    }
    println!(
        "{:<14} {:>10} {:>8} {:>6} {:>6} | {:>10} {:>8} {:>6} {:>6} {:>12} | {:>6}",
        "instance",
        "ours (s)",
        "options",
        "items",
        "rounds",
        "DLX-PRE",
        "options",
        "items",
        "rounds",
        "mems",
        "speed"
    );
    for name in &names {
        let text = dancecard_testkit::instance_text(name);
        let input = common::scratch_file("pre", &text);
        let (mut ours_t, mut theirs_t, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        let mut figures = (0, 0, 0);
        let mut their_figures = None;
        for _ in 0..runs {
            let (t, o, i, r) = ours(&text);
            figures = (o, i, r);
            ours_t.push(t);
            if let Some(program) = &dlxpre {
                let Some((tt, o2, i2, r2, mems)) = theirs(program, &input) else {
                    panic!("{program} did not report on {name}");
                };
                assert_eq!((o, i, r), (o2, i2, r2), "{name}: ours and DLX-PRE's removals differ");
                their_figures = Some(mems);
                theirs_t.push(tt);
                ratios.push(tt / t);
            }
        }
        let _ = std::fs::remove_file(&input);
        let (o, i, r) = figures;
        match their_figures {
            Some(mems) => println!(
                "{name:<14} {:>10.5} {o:>8} {i:>6} {r:>6} | {:>10.3} {o:>8} {i:>6} {r:>6} {mems:>12} | {:>5.1}x",
                median(ours_t),
                median(theirs_t),
                median(ratios)
            ),
            None => println!("{name:<14} {:>10.5} {o:>8} {i:>6} {r:>6} |", median(ours_t)),
        }
    }
}
