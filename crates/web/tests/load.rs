//! A load test on loopback: 50 clients, 20 requests each, all answered, latencies printed.

use std::time::{Duration, Instant};

use dancecard_web::ServerConfig;

use crate::util::{request, TestServer, KNUTH};

const CLIENTS: usize = 50;
const REQUESTS: usize = 20;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_clients_twenty_requests_each_without_an_error() {
    let server = TestServer::start(ServerConfig::default()).await;
    let addr = server.addr;
    let started = Instant::now();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|_| {
            tokio::spawn(async move {
                let mut latencies = Vec::with_capacity(REQUESTS);
                for _ in 0..REQUESTS {
                    let sent = Instant::now();
                    let reply = request(addr, "POST", "/api/solve?mode=all", &[], KNUTH.as_bytes())
                        .await
                        .map_err(|e| format!("request failed: {e}"))?;
                    latencies.push(sent.elapsed());
                    if reply.status != 200 {
                        return Err(format!("status {}: {}", reply.status, reply.text()));
                    }
                    if reply.json()["solutions"] != serde_json::json!([[3, 0, 4]]) {
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
    assert!(p99 < Duration::from_secs(5), "p99 {p99:?}");
}
