//! A load test on loopback: 50 clients, 20 `/api/sudoku` requests each, all answered and
//! right, latencies printed (p50, p99). Nothing asserts a duration: the only bound is a
//! generous timeout, so that a stuck server fails the test instead of hanging it.

use std::time::{Duration, Instant};

use dancecard_web::ServerConfig;

use crate::util::{request, TestServer};

const CLIENTS: usize = 50;
const REQUESTS: usize = 20;

/// The puzzles the clients send in turn, with their solutions: Inkala's "AI Escargot"
/// (`testdata/sudoku/norvig_hardest.txt`, line 6) and an easy one with 30 givens
/// (`testdata/sudoku/emerentius_lines/easy_sudokus.txt`, line 2; its solution is line 2 of
/// `solved_easy_sudokus.txt`).
const PUZZLES: [(&str, &str); 2] = [
    (
        "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
        "162857493534129678789643521475312986913586742628794135356478219241935867897261354",
    ),
    (
        "2...8.3...6..7..84.3.5..2.9...1.54.8.........4.27.6...3.1..7.4.72..4..6...4.1...3",
        "245981376169273584837564219976125438513498627482736951391657842728349165654812793",
    ),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_clients_twenty_requests_each_without_an_error() {
    let server = TestServer::start(ServerConfig::default()).await;
    let addr = server.addr;
    let started = Instant::now();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|_| {
            tokio::spawn(async move {
                let mut latencies = Vec::with_capacity(REQUESTS);
                for k in 0..REQUESTS {
                    let (puzzle, solution) = PUZZLES[k % PUZZLES.len()];
                    let method = if k % 4 < 2 { "fast" } else { "dlx" };
                    let path = format!("/api/sudoku?method={method}");
                    let sent = Instant::now();
                    let reply = request(addr, "POST", &path, &[], puzzle.as_bytes())
                        .await
                        .map_err(|e| format!("request failed: {e}"))?;
                    latencies.push(sent.elapsed());
                    if reply.status != 200 {
                        return Err(format!("status {}: {}", reply.status, reply.text()));
                    }
                    if reply.json()["solution"] != solution {
                        return Err(format!("wrong answer: {}", reply.text()));
                    }
                }
                Ok::<_, String>(latencies)
            })
        })
        .collect();
    let all = tokio::time::timeout(Duration::from_secs(120), async {
        let mut all = Vec::with_capacity(CLIENTS * REQUESTS);
        for client in clients {
            all.extend(client.await.expect("client task").expect("every request succeeds"));
        }
        all
    })
    .await
    .expect("the load test finishes within 120 s");
    let wall = started.elapsed();
    let mut sorted = all;
    sorted.sort();
    let pick = |q: f64| sorted[((sorted.len() as f64 * q).ceil() as usize).saturating_sub(1)];
    let (p50, p99) = (pick(0.50), pick(0.99));
    println!(
        "load: {} requests from {CLIENTS} clients in {:.2} s ({:.0} req/s); p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        sorted.len(),
        wall.as_secs_f64(),
        sorted.len() as f64 / wall.as_secs_f64(),
        p50.as_secs_f64() * 1e3,
        p99.as_secs_f64() * 1e3,
        sorted[sorted.len() - 1].as_secs_f64() * 1e3,
    );
    assert_eq!(sorted.len(), CLIENTS * REQUESTS);
}
