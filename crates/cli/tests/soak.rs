//! A soak test of `dancecard serve` on loopback (issue #16): minutes of mixed requests to
//! every endpoint, with the worst bodies, runaway searches and clients that hang up mid-request
//! and mid-answer. It checks that the server's resident memory stays under the documented bound
//! (512 MB with the default settings), that no request is lost (each one sent whole gets a
//! whole answer, of a documented status), that the server is alive at the end, and it measures
//! the latency of 9x9 sudoku requests (the target is a p99 under 100 ms; the test fails only on
//! a clear violation, since the machine may be shared).
//!
//! Ignored by default (it takes a minute). `./scripts/test` runs it for 60 s on the tests' own
//! build (the dev profile, which optimises the engine and the models: a 9x9 sudoku's p99 is
//! about 19 ms there); the nightly size is ten minutes, and a release build is the user's:
//!
//! ```text
//! cargo test -p dancecard --test integration soak -- --ignored --nocapture
//! SOAK_SECONDS=600 cargo test --release -p dancecard --test integration soak -- --ignored --nocapture
//! ```

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use crate::serve::{http_raw, peak_rss_kib, start, worst_requests, MEMORY_BOUND_KIB};

/// The p99 latency of a 9x9 sudoku request that the issue asks for.
const SUDOKU_P99_TARGET: Duration = Duration::from_millis(100);

/// A p99 past this fails the test: a clear violation of the target, not the noise of a
/// shared machine.
const SUDOKU_P99_FAIL: Duration = Duration::from_millis(250);

/// AI Escargot and an easy puzzle (as the web crate's load test), with their solutions.
const SUDOKUS: [(&str, &str); 2] = [
    (
        "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
        "162857493534129678789643521475312986913586742628794135356478219241935867897261354",
    ),
    (
        "2...8.3...6..7..84.3.5..2.9...1.54.8.........4.27.6...3.1..7.4.72..4..6...4.1...3",
        "245981376169273584837564219976125438513498627482736951391657842728349165654812793",
    ),
];

const KNUTH: &str = "A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";

/// One request and what came of it.
struct Outcome {
    /// The endpoint, for the tally.
    endpoint: String,
    /// The status, or `None` if the answer was lost (no answer, or a truncated one).
    status: Option<u16>,
    latency: Duration,
}

/// The endpoint of a request target: its path without the query.
fn endpoint(method: &str, path: &str) -> String {
    format!("{method} {}", path.split('?').next().unwrap_or(path))
}

/// Sends one request and checks its answer: a status in `allowed`, a JSON body (but for
/// the DLX text), and `check` on it when it is a 200.
fn exchange(
    addr: &str,
    method: &str,
    path: &str,
    body: &[u8],
    allowed: &[u16],
    check: impl Fn(&serde_json::Value),
) -> Outcome {
    let sent = Instant::now();
    let answer = http_raw(addr, method, path, body);
    let latency = sent.elapsed();
    let status = match answer {
        Ok(answer) => {
            assert!(
                allowed.contains(&answer.status),
                "{method} {path}: status {}: {}",
                answer.status,
                String::from_utf8_lossy(&answer.body[..answer.body.len().min(300)])
            );
            if answer.content_type.starts_with("application/json") {
                let doc: serde_json::Value = serde_json::from_slice(&answer.body)
                    .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e})"));
                if answer.status == 200 {
                    check(&doc);
                } else {
                    assert!(doc["error"].is_string(), "{method} {path}: {doc}");
                }
            } else {
                assert_eq!(path.split('?').next(), Some("/api/queens/dlx"), "{method} {path}");
            }
            Some(answer.status)
        }
        Err(_) => None,
    };
    Outcome { endpoint: endpoint(method, path), status, latency }
}

/// 9x9 sudokus, by both methods, latencies measured.
fn sudoku_client(addr: &str, stop: &AtomicBool) -> Vec<Outcome> {
    let mut outcomes = Vec::new();
    let mut k = 0usize;
    while !stop.load(Ordering::Relaxed) {
        let (puzzle, solution) = SUDOKUS[k % 2];
        let method = if k % 4 < 2 { "fast" } else { "dlx" };
        let path = format!("/api/sudoku?method={method}");
        outcomes.push(exchange(addr, "POST", &path, puzzle.as_bytes(), &[200], |doc| {
            assert_eq!(doc["solution"], solution);
        }));
        k += 1;
    }
    outcomes
}

/// What the page asks for: every endpoint, with ordinary inputs.
fn page_client(addr: &str, stop: &AtomicBool) -> Vec<Outcome> {
    let queens8 = std::fs::read(crate::util::testdata("instances/queens8.dlx")).unwrap();
    let target = std::fs::read(crate::util::testdata("target-sudoku/sample1.in")).unwrap();
    type Check = fn(&serde_json::Value);
    let requests: Vec<(&str, &str, Vec<u8>, Check)> = vec![
        ("POST", "/api/parse", KNUTH.into(), |d| {
            assert_eq!(d["options"].as_array().unwrap().len(), 6)
        }),
        ("POST", "/api/trace", KNUTH.into(), |d| assert_eq!(d["stop"], "exhausted")),
        ("POST", "/api/solve?mode=count", queens8.clone(), |d| assert_eq!(d["count"], 92)),
        ("POST", "/api/solve?mode=all", queens8, |d| assert_eq!(d["count"], 92)),
        ("GET", "/api/queens?n=8&mode=all", Vec::new(), |d| assert_eq!(d["count"], 92)),
        ("GET", "/api/queens?n=12&mode=count", Vec::new(), |d| assert_eq!(d["count"], 14200)),
        ("GET", "/api/queens/dlx?n=8", Vec::new(), |_| {}),
        ("GET", "/api/tile?board=6x10&pieces=pentominoes&once=true", Vec::new(), |d| {
            assert_eq!(d["count"], 1)
        }),
        ("GET", "/api/tile?board=8x8&pieces=dominoes&mode=count", Vec::new(), |d| {
            assert_eq!(d["count"], 12_988_816u64)
        }),
        ("POST", "/api/target-sudoku", target, |d| assert_eq!(d["score"], 2829)),
        ("GET", "/api/openapi.json", Vec::new(), |d| assert!(d["paths"].is_object())),
    ];
    let mut outcomes = Vec::new();
    let mut k = 0usize;
    while !stop.load(Ordering::Relaxed) {
        let (method, path, body, check) = &requests[k % requests.len()];
        outcomes.push(exchange(addr, method, path, body, &[200], check));
        k += 1;
    }
    outcomes
}

/// The worst requests of the regression test, in turn, and more hostile ones: answers cut at
/// the reply limit, refused (413) or turned away while the budget is in use (503).
fn worst_client(addr: &str, stop: &AtomicBool, first: usize) -> Vec<Outcome> {
    let mut requests = worst_requests();
    requests.push(("POST", "/api/sudoku?method=dlx&mode=count&box=4x8", vec![b'.'; 1024]));
    requests.push(("GET", "/api/queens?n=256&mode=all", Vec::new()));
    requests.push(("POST", "/api/target-sudoku", "0 0 0 0 0 0 0 0 0\n".repeat(9).into_bytes()));
    requests.push(("POST", "/api/sudoku", b"1\n".repeat(500_000)));
    requests.push(("POST", "/api/solve", vec![0xff; 1 << 20]));
    let mut outcomes = Vec::new();
    let mut k = first;
    while !stop.load(Ordering::Relaxed) {
        let (method, path, body) = &requests[k % requests.len()];
        outcomes.push(exchange(addr, method, path, body, &[200, 400, 413, 503], |doc| {
            let stop = doc["stop"].as_str().unwrap_or_default();
            assert!(doc["complete"] == true || !stop.is_empty(), "{doc}");
        }));
        k += 1;
    }
    outcomes
}

/// Searches that run to their budget: they answer what they found, `"complete": false`.
fn runaway_client(addr: &str, stop: &AtomicBool) -> Vec<Outcome> {
    let mut endless = (0..40).map(|k| format!("x{k}")).collect::<Vec<_>>().join(" ");
    endless.push('\n');
    for k in 0..40 {
        endless.push_str(&format!("x{k}\nx{k}\n"));
    }
    let requests: Vec<(&str, &str, Vec<u8>)> = vec![
        ("POST", "/api/solve?mode=count", endless.clone().into_bytes()),
        ("GET", "/api/queens?n=18&mode=count", Vec::new()),
        ("POST", "/api/sudoku?mode=count", vec![b'.'; 81]),
        ("POST", "/api/trace?limit=20000", endless.into_bytes()),
        ("GET", "/api/tile?board=10x10&pieces=pentominoes&mode=count&method=dlx", Vec::new()),
    ];
    let mut outcomes = Vec::new();
    let mut k = 0usize;
    while !stop.load(Ordering::Relaxed) {
        let (method, path, body) = &requests[k % requests.len()];
        outcomes.push(exchange(addr, method, path, body, &[200, 503], |doc| {
            assert_eq!(doc["complete"], false, "{doc}");
        }));
        k += 1;
    }
    outcomes
}

/// Clients that leave: mid-request (half a body), mid-answer (the first bytes of a 4 MB
/// answer), during a search, before a request. Counted apart: they expect no answer.
fn hang_up_client(addr: &str, stop: &AtomicBool) -> usize {
    let mut left = 0usize;
    let big_answer =
        "GET /api/tile?board=2x512&pieces=dominoes&mode=all HTTP/1.1\r\nHost: x\r\n\r\n";
    while !stop.load(Ordering::Relaxed) {
        let Ok(mut stream) = TcpStream::connect(addr) else { continue };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
        match left % 4 {
            0 => {
                let head = "POST /api/parse HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\n\r\n";
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(&b"a\n".repeat(200_000));
            }
            1 => {
                let _ = stream.write_all(big_answer.as_bytes());
                let mut first = [0u8; 4096];
                let _ = stream.read(&mut first);
            }
            2 => {
                let body = "a b\na\na\nb\nb\n";
                let head = format!(
                    "POST /api/solve?mode=count HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes());
                thread::sleep(Duration::from_millis(20));
            }
            _ => {
                let _ = stream.write_all(b"GET /api/queens?n=8 HTT");
            }
        }
        drop(stream);
        left += 1;
        thread::sleep(Duration::from_millis(50));
    }
    left
}

/// The server's resident memory now (`VmRSS`), in KiB.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn percentile(sorted: &[Duration], q: f64) -> Duration {
    sorted[((sorted.len() as f64 * q).ceil() as usize).saturating_sub(1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

#[cfg(target_os = "linux")]
#[test]
#[ignore = "a soak of minutes: run it with --ignored (see the module's documentation)"]
fn soak_of_mixed_hostile_load_within_the_bounds() {
    let seconds: u64 =
        std::env::var("SOAK_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(60);
    let (mut serving, addr) = start(&[]);
    let pid = serving.0.id();
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let mut clients = Vec::new();
    let mut spawn = |name: &'static str, job: Box<dyn FnOnce() -> Vec<Outcome> + Send>| {
        clients.push((name, thread::spawn(job)));
    };
    for _ in 0..4 {
        let (addr, stop) = (addr.clone(), stop.clone());
        spawn("sudoku", Box::new(move || sudoku_client(&addr, &stop)));
    }
    for _ in 0..2 {
        let (addr, stop) = (addr.clone(), stop.clone());
        spawn("page", Box::new(move || page_client(&addr, &stop)));
    }
    for first in [0, 7] {
        let (addr, stop) = (addr.clone(), stop.clone());
        spawn("worst", Box::new(move || worst_client(&addr, &stop, first)));
    }
    for _ in 0..2 {
        let (addr, stop) = (addr.clone(), stop.clone());
        spawn("runaway", Box::new(move || runaway_client(&addr, &stop)));
    }
    let hang_ups: Vec<_> = (0..2)
        .map(|_| {
            let (addr, stop) = (addr.clone(), stop.clone());
            thread::spawn(move || hang_up_client(&addr, &stop))
        })
        .collect();

    // Sample the resident memory every second, for the report.
    let mut samples = Vec::new();
    while started.elapsed() < Duration::from_secs(seconds) {
        thread::sleep(Duration::from_secs(1));
        assert!(serving.0.try_wait().unwrap().is_none(), "the server died");
        samples.push(rss_kib(pid));
    }
    stop.store(true, Ordering::Relaxed);
    let mut outcomes: Vec<Outcome> = Vec::new();
    let mut sudoku: Vec<Duration> = Vec::new();
    let mut by_client: BTreeMap<&str, usize> = BTreeMap::new();
    for (name, client) in clients {
        let done = client.join().unwrap_or_else(|_| panic!("a {name} client failed"));
        if name == "sudoku" {
            sudoku.extend(done.iter().filter(|o| o.status == Some(200)).map(|o| o.latency));
        }
        *by_client.entry(name).or_default() += done.len();
        outcomes.extend(done);
    }
    let left: usize = hang_ups.into_iter().map(|c| c.join().expect("a hang-up client")).sum();
    let wall = started.elapsed();

    // The server is alive and answers.
    assert!(serving.0.try_wait().unwrap().is_none(), "the server died");
    let alive = http_raw(&addr, "POST", "/api/solve?mode=count", KNUTH.as_bytes()).unwrap();
    assert_eq!(alive.status, 200);
    let peak = peak_rss_kib(pid);

    // The report.
    let mut tally: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for o in &outcomes {
        let status = o.status.map_or("lost".to_owned(), |s| s.to_string());
        *tally.entry(o.endpoint.clone()).or_default().entry(status).or_default() += 1;
    }
    println!(
        "soak: {:.0} s, {} requests answered, {left} clients hung up",
        wall.as_secs_f64(),
        outcomes.len()
    );
    let clients: Vec<String> = by_client.iter().map(|(c, n)| format!("{c} {n}")).collect();
    println!("  requests by client: {}", clients.join(", "));
    for (endpoint, statuses) in &tally {
        let total: usize = statuses.values().sum();
        let list: Vec<String> = statuses.iter().map(|(s, n)| format!("{s}: {n}")).collect();
        println!("  {endpoint:<24} {total:>6}  ({})", list.join(", "));
    }
    let rss_max = samples.iter().copied().max().unwrap_or(0);
    println!(
        "  resident memory: peak (VmHWM) {} MiB, largest 1 s sample {} MiB, last {} MiB; bound {} MiB",
        peak / 1024,
        rss_max / 1024,
        samples.last().copied().unwrap_or(0) / 1024,
        MEMORY_BOUND_KIB / 1024
    );
    sudoku.sort();
    assert!(!sudoku.is_empty(), "no sudoku answered");
    let (p50, p99) = (percentile(&sudoku, 0.50), percentile(&sudoku, 0.99));
    println!(
        "  9x9 sudoku: {} requests, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms (target p99 < {} ms)",
        sudoku.len(),
        ms(p50),
        ms(p99),
        ms(*sudoku.last().unwrap()),
        SUDOKU_P99_TARGET.as_millis()
    );

    let lost: Vec<&Outcome> = outcomes.iter().filter(|o| o.status.is_none()).collect();
    assert!(lost.is_empty(), "{} requests lost, the first to {}", lost.len(), lost[0].endpoint);
    assert!(
        peak < MEMORY_BOUND_KIB,
        "peak resident memory {} MiB over the bound of {} MiB",
        peak / 1024,
        MEMORY_BOUND_KIB / 1024
    );
    assert!(
        p99 < SUDOKU_P99_FAIL,
        "the p99 latency of a 9x9 sudoku, {:.1} ms, is far over the target of {} ms",
        ms(p99),
        SUDOKU_P99_TARGET.as_millis()
    );
    serving.0.kill().ok();
}
