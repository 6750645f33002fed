//! The bounds of one request and of all of them together (issue #16): the reply cap, the
//! requests in progress, the memory budget, the client timeout, the connection cap; and the
//! OpenAPI description that documents them.

use std::time::Duration;

use dancecard_web::ServerConfig;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::util::{endless, request, testdata, Reply, TestServer, KNUTH};

/// A server whose answers are at most 8 KiB.
async fn small_replies() -> TestServer {
    let mut config = ServerConfig::default();
    config.max_reply_bytes = 8 * 1024;
    TestServer::start(config).await
}

/// Checks a listing cut by the reply cap: a documented stop, the count of what is listed,
/// and an answer within the cap.
fn assert_cut(reply: &Reply, list: &str) -> Value {
    assert!(reply.body.len() <= 8 * 1024, "{} bytes", reply.body.len());
    let json = reply.json();
    assert_eq!(
        (json["complete"].clone(), json["stop"].clone()),
        (Value::Bool(false), Value::from("reply-limit")),
        "{json}"
    );
    let listed = json[list].as_array().expect("a list").len();
    assert!(listed > 0, "{json}");
    json
}

#[tokio::test]
async fn lists_stop_at_the_reply_limit_and_say_so() {
    let server = small_replies().await;
    // 2^40 solutions of 40 options each: the list fills the reply long before any budget.
    let all = server.post("/api/solve?mode=all", endless()).await;
    let json = assert_cut(&all, "solutions");
    assert_eq!(json["count"], json["solutions"].as_array().unwrap().len());

    // 2^12 solutions: a problem small enough to describe in the reply, with endless events.
    let mut twelve = (0..12).map(|k| format!("x{k}")).collect::<Vec<_>>().join(" ");
    twelve.push('\n');
    for k in 0..12 {
        twelve.push_str(&format!("x{k}\nx{k}\n"));
    }
    let trace = server.post("/api/trace", &twelve).await;
    let json = assert_cut(&trace, "events");
    assert_eq!(json["items"].as_array().unwrap().len(), 12);

    let queens = server.get("/api/queens?n=10&mode=all").await;
    let json = assert_cut(&queens, "solutions");
    assert_eq!(json["count"], json["solutions"].as_array().unwrap().len());

    let tile = server.get("/api/tile?board=8x8&pieces=dominoes&mode=all").await;
    let json = assert_cut(&tile, "solutions");
    assert_eq!(
        json["solutions"].as_array().unwrap().len(),
        json["placements"].as_array().unwrap().len()
    );

    // Small answers are whole.
    let first = server.post("/api/solve", KNUTH).await.json();
    assert_eq!(
        (first["complete"].clone(), first["count"].clone()),
        (Value::Bool(true), Value::from(1))
    );
}

#[tokio::test]
async fn answers_that_cannot_be_cut_get_413_naming_the_bound() {
    let server = small_replies().await;
    // 500 one-item options: their description is some 20 KB.
    let mut many = String::from("a\n");
    for _ in 0..500 {
        many.push_str("a\n");
    }
    for endpoint in ["/api/parse", "/api/trace"] {
        let reply = server.post(endpoint, &many).await;
        let message = reply.error(413);
        assert!(message.contains("reply limit of 8 KiB"), "{endpoint}: {message}");
        assert_eq!(reply.json()["bound"], "max_reply_bytes", "{endpoint}");
    }
    // The DLX file of 64 queens is 4,096 options.
    let reply = server.get("/api/queens/dlx?n=64").await;
    reply.error(413);
    assert_eq!(reply.json()["bound"], "max_reply_bytes");
    // A small problem still parses.
    assert_eq!(
        server.post("/api/parse", KNUTH).await.json()["options"].as_array().unwrap().len(),
        6
    );
}

/// A server with one place for a request or one search, and a long budget: a count of
/// `endless()` holds it for 3 s.
fn one_long_search() -> ServerConfig {
    let mut config = ServerConfig::default();
    config.time_limit = Duration::from_secs(3);
    config.max_nodes = u64::MAX;
    config.queue_wait = Duration::from_millis(200);
    config
}

#[tokio::test]
async fn requests_beyond_the_cap_get_503_naming_the_bound() {
    let mut config = one_long_search();
    config.max_requests = 1;
    let server = TestServer::start(config).await;
    let addr = server.addr;
    let long = tokio::spawn(async move {
        request(addr, "POST", "/api/solve?mode=count", &[], endless().as_bytes()).await.unwrap()
    });
    tokio::time::sleep(Duration::from_millis(800)).await;
    // Not even the page's description of the API gets in.
    let busy = server.get("/api/openapi.json").await;
    assert!(busy.error(503).contains("requests are in progress"));
    assert_eq!(busy.json()["bound"], "max_requests");
    // The page itself is not an API request.
    assert_eq!(server.get("/").await.status, 200);
    assert_eq!(long.await.unwrap().json()["stop"], "time-limit");
    // The place came back with the answer.
    assert_eq!(server.post("/api/solve", KNUTH).await.status, 200);
}

/// `text` padded with comment lines to `bytes` bytes.
fn padded(mut text: String, bytes: usize) -> String {
    while text.len() < bytes {
        text.push_str("| padding padding padding padding\n");
    }
    text
}

#[tokio::test]
async fn the_memory_budget_refuses_what_it_cannot_hold() {
    let mut config = one_long_search();
    config.max_memory_bytes = 8 << 20;
    let server = TestServer::start(config).await;
    // 200 KB of problem may take 64 bytes a byte to parse and search: 12.8 MB, more than the
    // whole budget.
    let reply = server.post("/api/solve?mode=count", padded(endless(), 200_000)).await;
    assert!(reply.error(413).contains("more than the server's whole budget of 8 MiB"));
    assert_eq!(reply.json()["bound"], "max_memory_bytes");

    // 100 KB (6.4 MB) fits, but not twice: the second waits 200 ms for the first, then 503.
    let addr = server.addr;
    let long = tokio::spawn(async move {
        let body = padded(endless(), 100_000);
        request(addr, "POST", "/api/solve?mode=count", &[], body.as_bytes()).await.unwrap()
    });
    tokio::time::sleep(Duration::from_millis(800)).await;
    let busy = server.post("/api/solve?mode=count", padded(endless(), 100_000)).await;
    assert!(busy.error(503).contains("memory budget of 8 MiB"));
    assert_eq!(busy.json()["bound"], "max_memory_bytes");
    // Small requests still fit beside it (a count's answer is small: a listing reserves the
    // whole reply cap, 4 MiB, and would not).
    assert_eq!(server.post("/api/solve?mode=count", KNUTH).await.json()["count"], 1);
    assert_eq!(long.await.unwrap().json()["stop"], "time-limit");
    // And the budget came back.
    let again = server.post("/api/solve?mode=count", padded(KNUTH.to_owned(), 100_000)).await;
    assert_eq!(again.json()["count"], 1);
}

/// A server that cuts off clients after 300 ms.
async fn impatient() -> TestServer {
    let mut config = ServerConfig::default();
    config.client_timeout = Duration::from_millis(300);
    TestServer::start(config).await
}

/// Reads until the server closes the connection (or 10 s pass: then the test fails).
async fn read_until_closed(stream: &mut TcpStream) -> Vec<u8> {
    let mut raw = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), async {
        let mut chunk = [0u8; 4096];
        loop {
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => raw.extend_from_slice(&chunk[..n]),
            }
        }
    })
    .await;
    assert!(read.is_ok(), "the server kept the connection open: {}", String::from_utf8_lossy(&raw));
    raw
}

#[tokio::test]
async fn a_body_that_does_not_arrive_in_time_gets_408() {
    let server = impatient().await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let head = "POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\na b\n";
    stream.write_all(head.as_bytes()).await.unwrap();
    let raw = String::from_utf8(read_until_closed(&mut stream).await).unwrap();
    assert!(raw.starts_with("HTTP/1.1 408"), "{raw}");
    assert!(raw.contains(r#""bound":"client_timeout""#), "{raw}");
}

#[tokio::test]
async fn idle_connections_and_oversized_heads_are_closed() {
    let server = impatient().await;
    // Nothing sent: closed after the timeout.
    let mut idle = TcpStream::connect(server.addr).await.unwrap();
    assert!(read_until_closed(&mut idle).await.is_empty());

    // Idle after an answer, on a kept-alive connection: closed after the timeout too.
    let mut kept = TcpStream::connect(server.addr).await.unwrap();
    let head =
        format!("POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n", KNUTH.len());
    kept.write_all(head.as_bytes()).await.unwrap();
    kept.write_all(KNUTH.as_bytes()).await.unwrap();
    let raw = String::from_utf8(read_until_closed(&mut kept).await).unwrap();
    assert!(raw.starts_with("HTTP/1.1 200"), "{raw}");

    // A head that never ends: closed once past 64 KiB, without an answer.
    let mut endless_head = TcpStream::connect(server.addr).await.unwrap();
    endless_head.write_all(b"GET /api/queens?n=8 HTTP/1.1\r\n").await.unwrap();
    let line = format!("X-Padding: {}\r\n", "p".repeat(1000));
    let mut sent = 0;
    while sent < 128 * 1024 {
        if endless_head.write_all(line.as_bytes()).await.is_err() {
            break;
        }
        sent += line.len();
    }
    let raw = read_until_closed(&mut endless_head).await;
    assert!(!raw.starts_with(b"HTTP/1.1 200"), "{}", String::from_utf8_lossy(&raw));
}

#[tokio::test]
async fn a_connection_in_use_is_not_idle() {
    let server = TestServer::with(|c| c.client_timeout = Duration::from_secs(1)).await;
    // Ten requests 300 ms apart on one kept-alive connection: 3 s, three times the timeout,
    // which counts from the end of the last answer, for the page's files as for the API.
    for path in ["/assets/style.css", "/api/queens?n=4"] {
        let mut stream = TcpStream::connect(server.addr).await.unwrap();
        for k in 0..10 {
            let head = format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n");
            stream.write_all(head.as_bytes()).await.unwrap();
            let mut raw = Vec::new();
            let mut chunk = [0u8; 4096];
            while complete_answer(&raw).is_none() {
                let n = stream.read(&mut chunk).await.unwrap_or(0);
                assert!(n > 0, "{path}, request {k}: the server closed a connection in use");
                raw.extend_from_slice(&chunk[..n]);
            }
            assert!(raw.starts_with(b"HTTP/1.1 200"), "{path}, request {k}");
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
    }
}

/// `Some` once `raw` holds a whole answer framed by its `Content-Length`.
fn complete_answer(raw: &[u8]) -> Option<()> {
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
    let len: usize = head.split("content-length:").nth(1)?.lines().next()?.trim().parse().ok()?;
    (raw.len() >= end + 4 + len).then_some(())
}

#[tokio::test]
async fn connections_beyond_the_cap_wait_for_a_free_one() {
    let server = TestServer::with(|c| c.max_connections = 1).await;
    // The only connection, idle.
    let holder = TcpStream::connect(server.addr).await.unwrap();
    let addr = server.addr;
    let mut waiting =
        tokio::spawn(
            async move { request(addr, "POST", "/api/solve", &[], KNUTH.as_bytes()).await },
        );
    // Whatever the wait, no answer comes while the only connection is open (the request
    // sits in the kernel's backlog, unaccepted).
    assert!(tokio::time::timeout(Duration::from_millis(500), &mut waiting).await.is_err());
    drop(holder);
    let answer = tokio::time::timeout(Duration::from_secs(10), waiting)
        .await
        .expect("answered once the first connection closed")
        .unwrap()
        .unwrap();
    assert_eq!(answer.json()["count"], 1);
}

#[tokio::test]
async fn the_openapi_description_is_served_and_its_examples_are_answered() {
    let server = TestServer::start(ServerConfig::default()).await;
    let reply = server.get("/api/openapi.json").await;
    assert_eq!(reply.status, 200);
    let doc = reply.json();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let paths = doc["paths"].as_object().unwrap();
    assert!(paths.len() >= 9, "{}", paths.len());
    for (path, item) in paths {
        for (method, op) in item.as_object().unwrap() {
            // A request from the description's examples: its required parameters and body.
            let mut query = Vec::new();
            for p in op["parameters"].as_array().into_iter().flatten() {
                if p["required"] == true {
                    let example = &p["schema"]["example"];
                    let value = example.as_str().map_or_else(|| example.to_string(), str::to_owned);
                    query.push(format!("{}={value}", p["name"].as_str().unwrap()));
                }
            }
            let target =
                if query.is_empty() { path.clone() } else { format!("{path}?{}", query.join("&")) };
            let body = op["requestBody"]["content"]["text/plain"]["example"].as_str().unwrap_or("");
            let reply =
                request(server.addr, &method.to_ascii_uppercase(), &target, &[], body.as_bytes())
                    .await
                    .unwrap();
            assert_eq!(reply.status, 200, "{method} {target}: {}", reply.text());
            let documented = &op["responses"]["200"]["content"];
            let mime = reply.header("content-type").unwrap().split(';').next().unwrap().to_owned();
            assert!(documented.get(&mime).is_some(), "{method} {path}: {mime} is not documented");
            // The other method is refused, and says which one to use.
            let other = if method == "get" { "POST" } else { "GET" };
            let refused = request(server.addr, other, path, &[], b"").await.unwrap();
            assert_eq!(refused.status, 405, "{other} {path}");
        }
    }
    // The examples solve: Knuth's matrix, Inkala's AI Escargot, the first target sample.
    let solved = server.post("/api/sudoku", testdata_line()).await.json();
    assert_eq!(solved["complete"], true);
}

/// AI Escargot, the example of `/api/sudoku`.
fn testdata_line() -> String {
    let text = String::from_utf8(testdata("sudoku/norvig_hardest.txt")).unwrap();
    text.lines().nth(5).unwrap().to_owned()
}

/// Shutting the server down (Ctrl-C for `dancecard serve`) cancels the searches in flight:
/// they answer at once with what they found, not at the end of their budget (an hour here).
#[tokio::test]
async fn a_shutdown_cancels_the_searches_in_flight() {
    let mut server = TestServer::with(|c| {
        c.time_limit = Duration::from_secs(3600);
        c.count_time_limit = Duration::from_secs(3600);
        c.max_nodes = u64::MAX;
    })
    .await;
    let addr = server.addr;
    let long = tokio::spawn(async move {
        request(addr, "POST", "/api/solve?mode=count", &[], endless().as_bytes()).await.unwrap()
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    server.shut_down();
    // Within the test's own bound: an hour's search would fail it.
    let answer = tokio::time::timeout(Duration::from_secs(60), long)
        .await
        .expect("the search in flight answered after the shutdown")
        .unwrap()
        .json();
    assert_eq!(answer["stop"], "cancelled", "{answer}");
    assert_eq!(answer["complete"], false);
    assert!(answer["stats"]["nodes"].as_u64().unwrap() > 0, "{answer}");
}
