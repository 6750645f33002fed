//! The memoised count against Knuth's DLX6 (`auto` against the plain search is the bench
//! `auto`).
//!
//! **Memo against DLX6** on domino tilings of 8 x 8 to 16 x 16 (the files of
//!    `testdata/instances`, and 14 x 14 and 16 x 16 written in the same encoding): time, search
//!    nodes, hits and memory. Our time is the median of `DANCECARD_BENCH_RUNS` runs (5) of the
//!    count in this process (parsing excluded); our memory is the count's peak resident set
//!    (the process's high-water mark, reset before each count through `/proc/self/clear_refs`)
//!    and the table's own peak. DLX6 is not in any registry, so this bench builds nothing of
//!    it: set `DANCECARD_DLX6` to a DLX6 binary built by hand (from Knuth's `dlx6.w`, outside
//!    the project) and its runs alternate with ours, timed and measured by `/usr/bin/time`
//!    (it reads the file and prints a count, so its time includes parsing; the speed is the
//!    median of the alternating pairs' ratios); without it, its published figures
//!    (testdata/instances/README.md) are printed, labelled as such. The
//!    16 x 16 board (seconds for us, 15 s and 4 GB for DLX6) runs with
//!    `DANCECARD_BENCH_LARGE=1`.
//!
//! ```text
//! DANCECARD_DLX6=/path/to/dlx6 cargo bench -p dancecard-engine --bench memo
//! ```

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use dancecard_engine::{MemoConfig, Problem, Solver};
use dancecard_testkit::dominoes;

mod common;
use common::{median, problem};

/// DLX6's figures from testdata/instances/README.md: time, nodes, hits (with its solution
/// leaves), peak memory in MB.
const PUBLISHED: [(&str, f64, u64, u64, f64); 5] = [
    ("domino8x8", 0.01, 2_317, 690, 8.0),
    ("domino10x10", 0.05, 13_562, 4_023, 40.0),
    ("domino12x12", 0.24, 74_049, 21_970, 209.0),
    ("domino14x14", 1.3, 385_185, 114_411, 1000.0),
    ("domino16x16", 15.2, 1_933_064, 574_868, 4100.0),
];

/// The text of a domino board `n x n` of testdata/instances, or written here (14 x 14 and
/// 16 x 16, in the same encoding).
fn instance_text(name: &str) -> String {
    match name {
        "domino14x14" => dominoes(14, 14),
        "domino16x16" => dominoes(16, 16),
        _ => dancecard_testkit::instance_text(name),
    }
}

/// The process's peak resident set in kB (`VmHWM`), and a way to reset it.
fn high_water_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn reset_high_water() {
    // "5" resets the peak resident set size (Linux 4.0 on); ignored elsewhere.
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

struct Ours {
    time: Duration,
    count: u128,
    nodes: u64,
    hits: u64,
    table_mb: f64,
    rss_mb: f64,
}

fn ours(p: &Problem) -> Ours {
    reset_high_water();
    let started = Instant::now();
    let mut solver = Solver::new(p);
    let m = solver
        .count_memo(&MemoConfig::default(), |_, _| ControlFlow::Continue(()))
        .expect("the count succeeds");
    let time = started.elapsed();
    let rss_mb = high_water_kb().map_or(f64::NAN, |kb| kb as f64 / 1024.0);
    Ours {
        time,
        count: m.count.to_u128().expect("the instance files count within u128"),
        nodes: m.stats.nodes,
        hits: m.stats.hits,
        table_mb: m.stats.peak_bytes as f64 / (1 << 20) as f64,
        rss_mb,
    }
}

struct Theirs {
    seconds: f64,
    count: String,
    nodes: u64,
    hits: u64,
    rss_mb: f64,
}

/// Runs DLX6 on `text` under `/usr/bin/time`; `None` if it cannot be run.
fn theirs(dlx6: &str, text: &str) -> Option<Theirs> {
    let err = common::run_timed(dlx6, &[], "TIME %e %M", text)?;
    let stats = err.lines().find(|l| l.starts_with("Altogether"))?;
    let word_before = |what: &str| -> Option<String> {
        let words: Vec<&str> = stats.split_whitespace().collect();
        let k = words.iter().position(|w| w.trim_end_matches(',').starts_with(what))?;
        Some(words[k - 1].trim_end_matches(',').to_owned())
    };
    let time = err.lines().find(|l| l.starts_with("TIME "))?;
    let mut t = time.split_whitespace().skip(1);
    let seconds: f64 = t.next()?.parse().ok()?;
    let kb: f64 = t.next()?.parse().ok()?;
    Some(Theirs {
        seconds,
        count: stats.split_whitespace().nth(1)?.to_owned(),
        nodes: word_before("search")?.parse().ok()?,
        hits: word_before("hits")?.parse().ok()?,
        rss_mb: kb / 1024.0,
    })
}

fn versus_dlx6(runs: usize) {
    let dlx6 = std::env::var("DANCECARD_DLX6").ok();
    let large = std::env::var_os("DANCECARD_BENCH_LARGE").is_some();
    match &dlx6 {
        Some(path) => println!("memo against DLX6 ({path}), {runs} alternating runs each"),
        None => println!(
            "memo, {runs} runs; DLX6's figures are the published ones (set DANCECARD_DLX6 to run it)"
        ),
    }
    println!(
        "{:<12} {:>10} {:>9} {:>8} {:>9} {:>8} | {:>10} {:>9} {:>8} {:>9} | {:>7} {:>7}",
        "instance",
        "ours (s)",
        "nodes",
        "hits",
        "table MB",
        "RSS MB",
        "DLX6 (s)",
        "nodes",
        "hits",
        "RSS MB",
        "speed",
        "memory"
    );
    for (name, pub_s, pub_nodes, pub_hits, pub_mb) in PUBLISHED {
        if name == "domino16x16" && !large {
            continue;
        }
        let text = instance_text(name);
        let p = problem(&text);
        let mut times = Vec::new();
        let mut their_times = Vec::new();
        let mut ratios = Vec::new();
        let mut last = None;
        let mut their_last = None;
        for _ in 0..runs {
            let o = ours(&p);
            times.push(o.time);
            if let Some(path) = &dlx6 {
                if let Some(t) = theirs(path, &text) {
                    their_times.push(t.seconds);
                    ratios.push(t.seconds / o.time.as_secs_f64());
                    their_last = Some(t);
                }
            }
            last = Some(o);
        }
        let o = last.expect("at least one run");
        let t = median(times).as_secs_f64();
        let (ts, tn, th, tm, label) = match &their_last {
            Some(th) => {
                // DLX6 counts in 64 bits: past 2^64 its count is ours modulo 2^64.
                let wrapped = (o.count % (1u128 << 64)).to_string();
                assert_eq!(th.count, wrapped, "{name}: DLX6 and ours disagree");
                let note = if o.count >> 64 != 0 { " (DLX6's count wrapped)" } else { "" };
                (median(their_times), th.nodes, th.hits, th.rss_mb, note)
            }
            None => (pub_s, pub_nodes, pub_hits, pub_mb, " (published)"),
        };
        println!(
            "{name:<12} {t:>10.4} {:>9} {:>8} {:>9.1} {:>8.1} | {ts:>10.3} {tn:>9} {th:>8} {tm:>9.1} | {:>6.1}x {:>6.1}x{label}",
            o.nodes,
            o.hits,
            o.table_mb,
            o.rss_mb,
            if ratios.is_empty() { ts / t } else { median(ratios) },
            tm / o.rss_mb,
        );
    }
    println!(
        "(speed: DLX6's time over ours, the median of the alternating pairs' ratios, or the \
         published time over our median; memory: DLX6's over ours; DLX6's hits count its \
         solution leaves too)"
    );
}

fn main() {
    let runs: usize =
        std::env::var("DANCECARD_BENCH_RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(5);
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        println!("load average: {}", load.split_whitespace().take(3).collect::<Vec<_>>().join(" "));
    }
    versus_dlx6(runs);
}
