//! The JSON API over real HTTP: every endpoint, bad input, the body limit and the budget.

use std::collections::BTreeSet;
use std::time::Duration;

use dancecard_web::ServerConfig;
use serde_json::{json, Value};

use crate::util::{endless, noise, request, testdata, TestServer, KNUTH};

fn keys(value: &Value) -> BTreeSet<&str> {
    value.as_object().expect("an object").keys().map(String::as_str).collect()
}

async fn server() -> TestServer {
    TestServer::start(ServerConfig::default()).await
}

#[tokio::test]
async fn solve_answers_the_documents_of_the_cli() {
    let server = server().await;
    let first = server.post("/api/solve", KNUTH).await;
    assert_eq!(first.status, 200, "{}", first.text());
    assert_eq!(first.header("cache-control"), Some("no-store"));
    let first = first.json();
    // The schema of `dancecard solve --format json`, key for key.
    assert_eq!(keys(&first), BTreeSet::from(["solutions", "count", "complete", "stop", "stats"]));
    assert_eq!(keys(&first["stats"]), BTreeSet::from(["nodes", "updates", "solutions", "seconds"]));
    // Options are 0-based input indices, level by level: rows 4, 1, 5 of Knuth's matrix.
    assert_eq!(first["solutions"], json!([[3, 0, 4]]));
    assert_eq!(first["count"], 1);
    assert_eq!(first["complete"], true);
    assert_eq!(first["stop"], "solution-limit");

    let all = server.post("/api/solve?mode=all", KNUTH).await.json();
    assert_eq!(all["solutions"], json!([[3, 0, 4]]));
    assert_eq!(all["stop"], "exhausted");
    assert_eq!(all["complete"], true);
    assert_eq!(all["stats"]["nodes"], 6);

    let count = server.post("/api/solve?mode=count", KNUTH).await.json();
    assert_eq!(count["solutions"], json!([]));
    assert_eq!(count["count"], 1);
    assert_eq!(count["stats"]["solutions"], 1);
}

#[tokio::test]
async fn solve_counts_nodes_as_dlx1_and_per_heuristic() {
    let server = server().await;
    let queens = testdata("instances/queens8.dlx");
    let mrv = server.post("/api/solve?mode=count&heuristic=mrv", &queens).await.json();
    assert_eq!(mrv["count"], 92);
    // Knuth's DLX1 counts on this file (testdata/instances/README.md).
    assert_eq!(mrv["stats"]["nodes"], 1049);
    assert_eq!(mrv["stats"]["updates"], 16680);
    let leftmost = server.post("/api/solve?mode=count&heuristic=leftmost", &queens).await.json();
    assert_eq!(leftmost["count"], 92);
    assert!(leftmost["stats"]["nodes"].as_u64().unwrap() > 1049, "{leftmost}");

    let knuth_left = server.post("/api/solve?mode=count&heuristic=leftmost", KNUTH).await.json();
    assert_eq!(knuth_left["stats"]["nodes"], 7);
    // Knuth's SSXCC counts on this file (#31).
    let ssxcc = server.post("/api/solve?mode=count&heuristic=ssxcc", &queens).await.json();
    assert_eq!(ssxcc["count"], 92);
    assert_eq!(
        (&ssxcc["stats"]["nodes"], &ssxcc["stats"]["updates"]),
        (&857.into(), &15736.into())
    );
    // The trace follows the links: it refuses SSXCC's tree, saying why.
    let trace = server.post("/api/trace?heuristic=ssxcc", KNUTH).await;
    assert_eq!(trace.status, 400, "{}", trace.text());
    assert!(trace.text().contains("mrv or leftmost"), "{}", trace.text());
}

// See: #28. The web API runs the engine's one way in: the memoised count handles
// multiplicities (it answered 720 on this file), and a count past 2^128 is exact.
#[tokio::test]
async fn solve_counts_multiplicities_and_past_2_128_exactly() {
    let server = server().await;
    let matrices = testdata("instances/mult_a001499_6.dlx");
    for method in ["search", "memo", "auto"] {
        let url = format!("/api/solve?mode=count&method={method}");
        let count = server.post(&url, &matrices).await.json();
        assert_eq!(
            (count["count"].clone(), count["complete"].clone()),
            (json!(67950), json!(true)),
            "{method}"
        );
    }
    let empty = server.post("/api/solve?mode=count&method=memo", "0:1|a\n").await.json();
    assert_eq!(empty["count"], 1);
    let mut text = (0..130).map(|k| format!("i{k}")).collect::<Vec<_>>().join(" ") + "\n";
    for k in 0..130 {
        text += &format!("i{k}\ni{k}\n");
    }
    let big = server.post("/api/solve?mode=count&method=memo", &text).await.json();
    assert_eq!(big["count"], "1361129467683753853853498429727072845824");
    assert_eq!(big["stats"]["solutions"], "1361129467683753853853498429727072845824");
}

#[tokio::test]
async fn solve_limits_and_the_cap_on_listed_solutions() {
    let server = TestServer::with(|c| c.max_listed_solutions = 10).await;
    let queens = testdata("instances/queens8.dlx");

    let two = server.post("/api/solve?mode=all&limit=2", &queens).await.json();
    assert_eq!(two["solutions"].as_array().unwrap().len(), 2);
    assert_eq!(
        (two["complete"].clone(), two["stop"].clone()),
        (json!(true), json!("solution-limit"))
    );

    // No limit asked: the server's cap stops the list, and says the answer is partial.
    let capped = server.post("/api/solve?mode=all", &queens).await.json();
    assert_eq!(capped["solutions"].as_array().unwrap().len(), 10);
    assert_eq!(capped["count"], 10);
    assert_eq!(
        (capped["complete"].clone(), capped["stop"].clone()),
        (json!(false), json!("solution-limit"))
    );
    // A limit above the cap is capped too.
    let above = server.post("/api/solve?mode=all&limit=50", &queens).await.json();
    assert_eq!(above["count"], 10);
    assert_eq!(above["complete"], false);

    // Counting lists nothing, so the cap does not apply.
    let count = server.post("/api/solve?mode=count", &queens).await.json();
    assert_eq!(count["count"], 92);
    // A count cut at its limit is not the count (#28).
    let count = server.post("/api/solve?mode=count&limit=5", &queens).await.json();
    assert_eq!((count["count"].clone(), count["complete"].clone()), (json!(5), json!(false)));
    assert_eq!(count["stop"], "solution-limit");
    let count = server.post("/api/solve?mode=count&limit=500", &queens).await.json();
    assert_eq!((count["count"].clone(), count["complete"].clone()), (json!(92), json!(true)));

    // `limit=0` asks for nothing: nothing is searched, which is not a complete answer (#28).
    let zero = server.post("/api/solve?mode=all&limit=0", &queens).await.json();
    assert_eq!(zero["solutions"], json!([]));
    assert_eq!((zero["count"].clone(), zero["complete"].clone()), (json!(0), json!(false)));
}

#[tokio::test]
async fn solve_reads_matrices_and_numbers_rows_as_the_input_does() {
    let server = server().await;
    // Row 2 is all zeros: it is left out of the problem but keeps its number.
    let reply = server.post("/api/solve?mode=all", "3 3\n1 0 0\n0 0 0\n0 1 1\n").await.json();
    assert_eq!(reply["solutions"], json!([[0, 2]]));
    let none = server.post("/api/solve?mode=all", "A B C\nA\nB\nA B\n").await.json();
    assert_eq!(none["solutions"], json!([]));
    assert_eq!((none["count"].clone(), none["complete"].clone()), (json!(0), json!(true)));
}

/// `mode=min-cost` (#30): the `best` least costs with their solutions, a proven lower bound
/// and the gap; a node budget leaves the best found, the bound below the least cost (319 for
/// cost_domino16x16.dlx, proven in 129 nodes: the budget stops the search before) and the gap.
#[tokio::test]
async fn min_cost_answers_the_best_and_a_bound() {
    let server = TestServer::start(ServerConfig::default()).await;
    let file = testdata("instances/cost_domino6x6.dlx");
    let reply = server.post("/api/solve?mode=min-cost&best=3", file).await.ok();
    assert_eq!(reply["costs"], json!([43, 44, 46]));
    assert_eq!(reply["solutions"].as_array().unwrap().len(), 3);
    assert_eq!((reply["lower_bound"].clone(), reply["gap"].clone()), (json!(43), json!(0.0)));
    assert_eq!((reply["complete"].clone(), reply["count"].clone()), (json!(true), json!(3)));
    // A tree this small ends within auto's first search, on DLX5's taxes (the item shares).
    assert_eq!(reply["bound"], json!("shares"), "{reply}");
    assert!(reply["reason"].as_str().unwrap().contains("ended within its first"), "{reply}");

    let server = TestServer::with(|c| c.max_nodes = 60).await;
    let file = testdata("instances/cost_domino16x16.dlx");
    let reply = server.post("/api/solve?mode=min-cost", file).await.ok();
    assert_eq!(
        (reply["complete"].clone(), reply["stop"].clone()),
        (json!(false), json!("node-limit"))
    );
    let bound = reply["lower_bound"].as_u64().unwrap();
    assert!(bound <= 319, "{reply}");
    assert_eq!(reply["reason"], json!("the node limit came within the first nodes"), "{reply}");
    if let Some(best) = reply["costs"][0].as_u64() {
        assert!(319 <= best, "{reply}");
        let gap = reply["gap"].as_f64().unwrap();
        assert!((gap - (best - bound) as f64 / best as f64).abs() < 1e-12, "{reply}");
    } else {
        assert_eq!(reply["gap"], json!(null), "{reply}");
    }
}

#[tokio::test]
async fn the_node_budget_answers_what_was_found_so_far() {
    let server = TestServer::with(|c| c.max_nodes = 100).await;
    let reply = server.post("/api/solve?mode=count", endless()).await.json();
    assert_eq!(reply["complete"], false);
    assert_eq!(reply["stop"], "node-limit");
    assert_eq!(reply["stats"]["nodes"], 100);
    assert!(reply["count"].as_u64().unwrap() > 0, "{reply}");

    let all = server.post("/api/solve?mode=all", testdata("instances/pent6x10.dlx")).await.json();
    assert_eq!((all["complete"].clone(), all["stop"].clone()), (json!(false), json!("node-limit")));

    let trace = server.post("/api/trace", endless()).await.json();
    assert_eq!(
        (trace["complete"].clone(), trace["stop"].clone()),
        (json!(false), json!("node-limit"))
    );
    assert_eq!(trace["events"].as_array().unwrap().last().unwrap()["nodes"], 100);
}

#[tokio::test]
async fn the_time_budget_answers_in_time() {
    let server = TestServer::with(|c| {
        c.time_limit = Duration::from_millis(200);
        c.max_nodes = u64::MAX;
    })
    .await;
    // No node budget: only the time budget can end this count. (Tests assert no durations:
    // the stop reason says which budget ended the search.)
    let reply = server.post("/api/solve?mode=count", endless()).await.json();
    assert_eq!(reply["complete"], false);
    assert_eq!(reply["stop"], "time-limit");
    assert!(reply["count"].as_u64().unwrap() > 0);
}

/// One search at a time, waiting at most `queue_wait` for the slot, with no node budget: only
/// `time_limit` ends a search.
fn one_slot(queue_wait: Duration, time_limit: Duration) -> ServerConfig {
    let mut config = ServerConfig::default();
    config.max_searches = 1;
    config.queue_wait = queue_wait;
    config.time_limit = time_limit;
    config.max_nodes = u64::MAX;
    config
}

#[tokio::test]
async fn searches_beyond_the_cap_get_503_and_the_slot_comes_back() {
    let server =
        TestServer::start(one_slot(Duration::from_millis(100), Duration::from_secs(3))).await;
    let addr = server.addr;
    let long = tokio::spawn(async move {
        request(addr, "POST", "/api/solve?mode=count", &[], endless().as_bytes()).await.unwrap()
    });
    tokio::time::sleep(Duration::from_millis(800)).await;
    let busy = server.post("/api/solve", KNUTH).await;
    let message = busy.error(503);
    assert!(message.contains("busy"), "{message}");
    let long = long.await.unwrap().json();
    assert_eq!(long["stop"], "time-limit");
    // The slot is free again.
    assert_eq!(server.post("/api/solve", KNUTH).await.status, 200);
}

#[tokio::test]
async fn a_client_that_leaves_cancels_its_search() {
    let server = TestServer::start(one_slot(Duration::from_secs(3), Duration::from_secs(60))).await;
    let addr = server.addr;
    // Start an endless count, then hang up.
    let leaving = tokio::spawn(async move {
        let _ = tokio::time::timeout(
            Duration::from_millis(300),
            request(addr, "POST", "/api/solve?mode=count", &[], endless().as_bytes()),
        )
        .await;
    });
    leaving.await.unwrap();
    // The only slot comes back long before the 60 s budget: the search was cancelled (had it
    // not been, this request would wait 3 s for the slot and get 503).
    let _ = server.post("/api/solve", KNUTH).await.ok();
}

#[tokio::test]
async fn trace_replays_the_search_event_by_event() {
    let server = server().await;
    let reply = server.post("/api/trace", KNUTH).await.json();
    assert_eq!(reply["complete"], true);
    assert_eq!(reply["stop"], "exhausted");
    assert_eq!(reply["heuristic"], "mrv");
    assert_eq!(reply["items"][0], json!({"name": "A", "primary": true}));
    assert_eq!(reply["options"][3], json!({"index": 3, "label": "A D", "items": [0, 3]}));
    let events = reply["events"].as_array().unwrap();
    assert_eq!(
        events[..4],
        [
            json!({"event": "enter", "level": 0, "nodes": 1}),
            json!({"event": "choose", "level": 0, "item": 0, "name": "A", "len": 2, "nodes": 1}),
            json!({"event": "cover", "item": 0, "name": "A", "nodes": 1}),
            json!({"event": "try", "level": 0, "option": 1, "nodes": 1}),
        ]
    );
    let solutions: Vec<&Value> = events.iter().filter(|e| e["event"] == "solution").collect();
    assert_eq!(solutions.len(), 1);
    // The options tried when the solution came: rows 4, 1, 5.
    let solution_at = events.iter().position(|e| e["event"] == "solution").unwrap();
    let mut tried = Vec::new();
    for e in &events[..solution_at] {
        match e["event"].as_str().unwrap() {
            "try" => {
                let level = e["level"].as_u64().unwrap() as usize;
                tried.truncate(level);
                tried.push(e["option"].as_u64().unwrap());
            }
            "backtrack" => tried.truncate(e["level"].as_u64().unwrap() as usize),
            _ => {}
        }
    }
    assert_eq!(tried, [3, 0, 4]);
    let last = events.last().unwrap();
    assert_eq!(last["event"], "backtrack");
    assert_eq!(last["level"], 0);
    assert_eq!(last["nodes"], reply["stats"]["nodes"]);
    assert_eq!(reply["stats"]["nodes"], 6);
    // Every cover is undone by the end.
    let covers = events.iter().filter(|e| e["event"] == "cover").count();
    assert!(covers > 0);

    let leftmost = server.post("/api/trace?heuristic=leftmost", KNUTH).await.json();
    assert_eq!(leftmost["heuristic"], "leftmost");
    assert_eq!(leftmost["stats"]["nodes"], 7);
}

#[tokio::test]
async fn trace_stops_at_the_event_limit() {
    let server = TestServer::with(|c| c.max_trace_events = 10).await;
    let five = server.post("/api/trace?limit=5", KNUTH).await.json();
    assert_eq!(five["events"].as_array().unwrap().len(), 5);
    assert_eq!(
        (five["complete"].clone(), five["stop"].clone()),
        (json!(false), json!("event-limit"))
    );
    // The request cannot ask for more than the server allows.
    let capped = server.post("/api/trace?limit=100000", KNUTH).await.json();
    assert_eq!(capped["events"].as_array().unwrap().len(), 10);
    assert_eq!(capped["complete"], false);
}

#[tokio::test]
async fn parse_gives_the_problem_or_the_parsers_message() {
    let server = server().await;
    let reply =
        server.post("/api/parse", "| a comment\na b | x\na x:red\nb\nb x:blue\n").await.json();
    assert_eq!(
        reply,
        json!({
            "items": [
                {"name": "a", "primary": true},
                {"name": "b", "primary": true},
                {"name": "x", "primary": false},
            ],
            "options": [
                {"index": 0, "label": "a x:red", "items": [0, 2], "colors": [null, "red"]},
                {"index": 1, "label": "b", "items": [1], "colors": [null]},
                {"index": 2, "label": "b x:blue", "items": [1, 2], "colors": [null, "blue"]},
            ],
        })
    );
    let message = server.post("/api/parse", "a b\na z\n").await.error(400);
    assert_eq!(message, "line 2, column 3: unknown item `z`");
}

#[tokio::test]
async fn bad_input_is_a_400_with_the_parsers_message_on_every_endpoint() {
    let server = server().await;
    for endpoint in ["/api/parse", "/api/solve", "/api/trace"] {
        let message = server.post(endpoint, "a b\na z\n").await.error(400);
        assert_eq!(message, "line 2, column 3: unknown item `z`", "{endpoint}");
        let message = server.post(endpoint, b"a b\na \xff\xfe b\n").await.error(400);
        assert_eq!(message, "line 2, column 3: invalid UTF-8", "{endpoint}");
        let message = server.post(endpoint, "").await.error(400);
        assert!(message.contains("empty input"), "{endpoint}: {message}");
        let message = server.post(endpoint, "| only a comment\n\n").await.error(400);
        assert!(message.contains("empty input"), "{endpoint}: {message}");
    }
    for query in [
        "/api/solve?mode=bogus",
        "/api/solve?heuristic=random",
        "/api/solve?limit=-1",
        "/api/solve?limit=lots",
        "/api/solve?mdoe=all",
        "/api/trace?limit=-5",
        "/api/trace?heuristic=",
        "/api/trace?mode=all",
    ] {
        let message = server.post(query, KNUTH).await.error(400);
        assert!(message.contains("query string"), "{query}: {message}");
    }
}

#[tokio::test]
async fn hostile_bodies_never_take_the_server_down() {
    let server = server().await;
    let noise = noise(12345, 200_000);
    let long_line = "a".repeat(600 * 1024);
    let many_items: String = (0..100_001).map(|k| format!("i{k} ")).collect();
    let bodies: Vec<Vec<u8>> = vec![
        noise,
        b"\0\0\0\0".to_vec(),
        b"\n\n\n".to_vec(),
        b"|".to_vec(),
        b"a | b | c\n".to_vec(),
        b"| x\nx:red\n".to_vec(),
        b"a\na:\n".to_vec(),
        b"99999999999999999999 9\n1\n".to_vec(),
        b"4000000000 4000000000\n1 0\n".to_vec(),
        b"2 2\n1 0\n".to_vec(),
        long_line.into_bytes(),
        many_items.into_bytes(),
        "é ü ☃\né\n☃ ü\n".as_bytes().to_vec(),
    ];
    for body in &bodies {
        for endpoint in ["/api/parse", "/api/solve?mode=all", "/api/trace"] {
            let reply = server.post(endpoint, body).await;
            assert!(
                reply.status == 200 || reply.status == 400,
                "{endpoint}: {} {}",
                reply.status,
                reply.text()
            );
            let _ = reply.json();
        }
    }
    // Still serving.
    assert_eq!(server.post("/api/solve", KNUTH).await.json()["count"], 1);
}

#[tokio::test]
async fn bodies_over_one_megabyte_get_413() {
    let server = server().await;
    // A comment line pads a valid problem to exactly the limit: accepted.
    let mut body = KNUTH.as_bytes().to_vec();
    body.extend_from_slice(b"|");
    body.resize(1024 * 1024 - 1, b'x');
    body.push(b'\n');
    assert_eq!(body.len(), 1024 * 1024);
    let reply = server.post("/api/solve", &body).await;
    assert_eq!(reply.status, 400, "{}", reply.text());
    assert!(reply.error(400).contains("line longer than"));
    let mut small = KNUTH.as_bytes().to_vec();
    for _ in 0..(1024 * 1024 - KNUTH.len()) / 16 {
        small.extend_from_slice(b"| padding......\n");
    }
    assert!(small.len() <= 1024 * 1024);
    assert_eq!(server.post("/api/solve", &small).await.json()["count"], 1);

    // One byte over: refused, whether the length is declared or streamed in chunks.
    body.push(b'\n');
    for endpoint in ["/api/parse", "/api/solve", "/api/trace"] {
        let message = server.post(endpoint, &body).await.error(413);
        assert!(message.contains("too large"), "{message}");
    }
    let mut chunked = Vec::new();
    for piece in body.chunks(64 * 1024) {
        chunked.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
        chunked.extend_from_slice(piece);
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let reply =
        request(server.addr, "POST", "/api/solve", &["Transfer-Encoding: chunked"], &chunked)
            .await
            .unwrap();
    assert!(reply.error(413).contains("too large"));
    // A huge declared length is refused before anything is read.
    let reply = request(server.addr, "POST", "/api/solve", &["Content-Length: 99999999999"], b"")
        .await
        .unwrap();
    assert_eq!(reply.status, 413, "{}", reply.text());
}

#[tokio::test]
async fn unknown_endpoints_and_methods_answer_json_errors() {
    let server = server().await;
    let message = server.post("/api/sudoku/solve", KNUTH).await.error(404);
    assert!(message.contains("no such endpoint"), "{message}");
    assert_eq!(server.get("/api").await.status, 404);
    let reply = server.get("/api/solve").await;
    let message = reply.error(405);
    assert!(message.contains("POST"), "{message}");
    assert_eq!(reply.header("allow"), Some("POST"));
    let reply = server.post("/api/queens?n=8", "").await;
    assert!(reply.error(405).contains("GET"));
    assert_eq!(reply.header("allow"), Some("GET"));
}

#[tokio::test]
async fn the_page_and_its_modules_are_served_from_the_binary() {
    let server = server().await;
    let page = server.get("/").await;
    assert_eq!(page.status, 200);
    assert_eq!(page.header("content-type"), Some("text/html; charset=utf-8"));
    let csp = page.header("content-security-policy").unwrap();
    assert!(csp.starts_with("default-src 'self'"), "{csp}");
    let html = page.text();
    assert!(html.contains("<script type=\"module\" src=\"/assets/js/main.js\">"), "{html}");
    // Nothing from elsewhere: no absolute URL in any page file but the SVG namespace (every
    // file of assets/, found on disk, so that a new one is checked too).
    fn files(dir: &std::path::Path, under: &str, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let name = format!("{under}/{}", entry.file_name().to_string_lossy());
            if entry.file_type().unwrap().is_dir() {
                files(&entry.path(), &name, out);
            } else {
                out.push(name);
            }
        }
    }
    let mut paths = Vec::new();
    files(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets"), "/assets", &mut paths);
    assert!(paths.len() >= 17, "{paths:?}");
    for path in &paths {
        let path = path.as_str();
        let reply = server.get(path).await;
        assert_eq!(reply.status, 200, "{path}");
        let text = reply.text().replace("http://www.w3.org/2000/svg", "");
        assert!(!text.contains("http://") && !text.contains("https://"), "{path} links outside");
        assert!(!text.contains("@import") && !text.contains("url(http"), "{path}");
    }
    assert_eq!(
        server.get("/assets/js/main.js").await.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    assert_eq!(server.get("/assets/nope.js").await.status, 404);
    assert_eq!(server.get("/assets/../Cargo.toml").await.status, 404);
    assert_eq!(server.get("/elsewhere").await.status, 404);
}

/// `GET /api/tile/dlx` answers the tiling's model as DLX text: the squares as items in
/// reading order (the pieces first with `once`), one option per placement, and the engine
/// finds as many tilings in it as `/api/tile` counts.
#[tokio::test]
async fn tile_dlx_answers_the_model_of_the_tiling() {
    let server = server().await;
    let reply = server.get("/api/tile/dlx?board=2x2&pieces=dominoes").await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(
        reply.header("content-type").map(|t| t.split(';').next().unwrap()),
        Some("text/plain")
    );
    let text = reply.text();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('|')).collect();
    // The squares, then two horizontal and two vertical dominoes.
    assert_eq!(lines[0], "00 01 10 11");
    let mut options: Vec<&str> = lines[1..].to_vec();
    options.sort_unstable();
    assert_eq!(options, ["00 01", "00 10", "01 11", "10 11"]);

    // The engine counts the 36 domino tilings of 4x4 in the model, as /api/tile does.
    let model = server.get("/api/tile/dlx?board=4x4&pieces=dominoes").await.text();
    let counted = server.post("/api/solve?mode=count", &model).await.json();
    assert_eq!(counted["count"], 36, "{counted}");
    let tiled = server.get("/api/tile?board=4x4&pieces=dominoes&mode=count").await.json();
    assert_eq!(tiled["count"], 36, "{tiled}");

    // With each piece once, the pieces come first: the 12 pentominoes, then 60 squares.
    let model = server.get("/api/tile/dlx?board=6x10&pieces=pentominoes&once=true").await.text();
    let items: Vec<&str> =
        model.lines().find(|l| !l.starts_with('|')).unwrap().split(' ').collect();
    assert_eq!(items.len(), 12 + 60, "{items:?}");
    assert!(items[..12].iter().all(|p| p.chars().all(|c| c.is_ascii_alphabetic())), "{items:?}");
    assert_eq!(items[12..][..3], ["00", "01", "02"]);
    assert_eq!(items.last(), Some(&"59"));

    // Bad input is a JSON 400, as for /api/tile.
    for bad in [
        "/api/tile/dlx?board=2x2&pieces=heptominoes",
        "/api/tile/dlx?board=0x2&pieces=dominoes",
        "/api/tile/dlx?board=3x3&pieces=dominoes",
        "/api/tile/dlx?board=2x2&pieces=dominoes&mode=count",
        "/api/tile/dlx?board=40x40&pieces=dominoes",
    ] {
        let reply = server.get(bad).await;
        assert_eq!(reply.status, 400, "{bad}: {}", reply.text());
        assert!(reply.json()["error"].is_string(), "{bad}");
    }
    // The search's parameters are refused by name: the model is the same for every search.
    for name in ["mode=count", "method=dp", "limit=1"] {
        let bad = format!("/api/tile/dlx?board=2x2&pieces=dominoes&{name}");
        let error = server.get(&bad).await.error(400);
        let name = name.split('=').next().unwrap();
        assert!(error.starts_with(&format!("{name}: ")), "{bad}: {error}");
    }
}
