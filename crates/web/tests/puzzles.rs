//! The puzzle endpoints over real HTTP: `/api/sudoku`, `/api/queens`, `/api/tile` and
//! `/api/target-sudoku`, with their bad input, the body limit and the budget.

use std::collections::BTreeSet;
use std::time::Duration;

use dancecard_web::ServerConfig;
use serde_json::{json, Value};

use crate::util::{noise, testdata, TestServer};

fn keys(value: &Value) -> BTreeSet<&str> {
    value.as_object().expect("an object").keys().map(String::as_str).collect()
}

async fn server() -> TestServer {
    TestServer::start(ServerConfig::default()).await
}

/// Inkala's "AI Escargot" (2006): `testdata/sudoku/norvig_hardest.txt`, line 6.
const ESCARGOT: &str =
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..";

/// Its solution (checked against the grid by the test, not taken on trust).
const ESCARGOT_SOLUTION: &str =
    "162857493534129678789643521475312986913586742628794135356478219241935867897261354";

/// A 16x16 puzzle with a unique solution: `dancecard_models::sudoku::generate(Shape::square(4),
/// 2026, 150)` (106 givens).
const SIXTEEN: &str = ".E18.9..34...5.27..........DA......5...3E.F.........D52.G9.C..EF14E...C.9...B2.DD8B..6A........C...7..1.82D.36.A..3......7.GEF4.81FB.....E4..G.55..G6..A1..F.3C....3.B8.D..2...4.A6E..5..39......F..9.3.....5......1.C.27.3..D..3...8D.F2.G..1.EG25..1..F.B8..73";

/// A sudoku with every cell blank: 6.67e21 solutions, so counting them never ends.
fn empty_sudoku() -> String {
    ".".repeat(81)
}

#[tokio::test]
async fn sudoku_solves_by_both_methods_with_the_clis_fields() {
    let server = server().await;
    let mut nodes = Vec::new();
    for method in ["dlx", "fast"] {
        let reply = server.post(&format!("/api/sudoku?method={method}"), ESCARGOT).await.ok();
        // The entry of `dancecard sudoku --format json`, and what the page shows with it.
        assert_eq!(
            keys(&reply),
            BTreeSet::from([
                "line",
                "puzzle",
                "solution",
                "count",
                "uniqueness",
                "complete",
                "stop",
                "nodes",
                "micros",
                "method",
                "mode",
                "size",
                "box",
                "givens"
            ])
        );
        assert_eq!(reply["solution"], ESCARGOT_SOLUTION, "{method}");
        assert_eq!(reply["givens"], 23);
        assert_eq!(reply["size"], 9);
        assert_eq!(reply["count"], 1);
        assert_eq!(reply["complete"], true);
        assert_eq!(reply["stop"], "solution-limit");
        assert_eq!(reply["method"], method);
        assert!(reply["micros"].is_u64());
        nodes.push(reply["nodes"].as_u64().unwrap());
    }
    assert!(nodes.iter().all(|&n| n > 0), "{nodes:?}");
    // The solution fills the givens' cells with the givens.
    for (given, solved) in ESCARGOT.chars().zip(ESCARGOT_SOLUTION.chars()) {
        assert!(given == '.' || given == solved);
    }

    // Unique, and counted.
    let unique = server.post("/api/sudoku?mode=unique", ESCARGOT).await.json();
    assert_eq!(
        (unique["uniqueness"].clone(), unique["complete"].clone()),
        (json!("unique"), json!(true))
    );
    let count = server.post("/api/sudoku?mode=count&method=dlx", ESCARGOT).await.json();
    assert_eq!((count["count"].clone(), count["stop"].clone()), (json!(1), json!("exhausted")));
}

#[tokio::test]
async fn sudoku_takes_any_size() {
    let server = server().await;
    let four = server.post("/api/sudoku", ".34...2.12...4..").await.json();
    assert_eq!((four["size"].clone(), four["box"].clone()), (json!(4), json!("2x2")));
    assert_eq!(four["solution"].as_str().unwrap().len(), 16);
    for method in ["dlx", "fast"] {
        let sixteen = server.post(&format!("/api/sudoku?method={method}"), SIXTEEN).await.json();
        assert_eq!(sixteen["size"], 16, "{sixteen}");
        assert_eq!(sixteen["givens"], 106);
        let solution = sixteen["solution"].as_str().unwrap();
        assert_eq!(solution.len(), 256);
        assert!(!solution.contains('.'));
    }
    // 6x6 with 2x3 boxes: an empty grid has solutions.
    let six = server.post("/api/sudoku?box=2x3", ".".repeat(36)).await.json();
    assert_eq!((six["size"].clone(), six["box"].clone()), (json!(6), json!("2x3")));
    assert_eq!(six["count"], 1);
    // 25x25: an empty grid too.
    let twenty_five = server.post("/api/sudoku", ".".repeat(625)).await.json();
    assert_eq!(twenty_five["size"], 25);
    assert_eq!(twenty_five["solution"].as_str().unwrap().len(), 625, "{twenty_five}");
}

#[tokio::test]
async fn sudoku_bad_input_is_a_400_with_the_parsers_message() {
    let server = server().await;
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "no puzzle"),
        ("12345".to_owned(), "line 1"),
        (format!("{ESCARGOT}\n{ESCARGOT}\n"), "2 puzzles"),
        (format!("11{}", &ESCARGOT[2..]), "line 1"),
        (format!("x{}", &ESCARGOT[1..]), "line 1"),
    ];
    for (body, expected) in &cases {
        let message = server.post("/api/sudoku", body).await.error(400);
        assert!(message.contains(expected), "{body:?}: {message}");
    }
    let message = server.post("/api/sudoku", "12").await.error(400);
    assert!(message.contains("box=RxC") && !message.contains("--box"), "{message}");
    let message = server.post("/api/sudoku", b"\xff\xfe".as_slice()).await.error(400);
    assert!(message.contains("UTF-8"), "{message}");
    let bad =
        ["method=bogus", "mode=all", "box=3", "box=0x0", "box=4294967296x4294967296", "colour=red"];
    server.refuses("/api/sudoku", &bad, Some(ESCARGOT)).await;
    assert_eq!(server.get("/api/sudoku").await.status, 405);
}

#[tokio::test]
async fn queens_lists_counts_and_browses() {
    let server = server().await;
    let all = server.get("/api/queens?n=8&mode=all").await.ok();
    // `dancecard queens 8 --format json`, key for key.
    assert_eq!(
        keys(&all),
        BTreeSet::from([
            "n",
            "method",
            "solutions",
            "count",
            "complete",
            "stop",
            "restarts",
            "stats"
        ])
    );
    let solutions = all["solutions"].as_array().unwrap();
    assert_eq!(solutions.len(), 92);
    assert_eq!(all["count"], 92);
    assert_eq!(all["complete"], true);
    assert_eq!(all["stop"], "exhausted");
    // The exact cover model's nodes, as `dancecard solve` counts them on the same model.
    let dlx = server.post("/api/solve?mode=count", testdata("instances/queens8.dlx")).await.json();
    assert_eq!(dlx["count"], 92);
    assert!(all["stats"]["nodes"].as_u64().unwrap() > 0);
    // Each solution: the column of the queen on each row, no two attacking.
    let distinct: BTreeSet<Vec<u64>> = solutions
        .iter()
        .map(|s| s.as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect())
        .collect();
    assert_eq!(distinct.len(), 92);
    for s in &distinct {
        assert_eq!(s.len(), 8);
        for i in 0..8 {
            for j in i + 1..8 {
                assert_ne!(s[i], s[j]);
                assert_ne!(s[i].abs_diff(s[j]), (j - i) as u64);
            }
        }
    }

    let first = server.get("/api/queens?n=8").await.json();
    assert_eq!(first["solutions"].as_array().unwrap().len(), 1);
    assert_eq!((all["restarts"].clone(), first["restarts"].clone()), (json!(null), json!(0)));
    // The search for one board restarts on shuffled options where it stalls.
    let large = server.get("/api/queens?n=64").await.json();
    assert_eq!((large["restarts"].clone(), large["complete"].clone()), (json!(1), json!(true)));
    assert_eq!(large["solutions"][0].as_array().unwrap().len(), 64);
    let count = server.get("/api/queens?n=12&mode=count").await.json();
    assert_eq!((count["count"].clone(), count["distinct"].clone()), (json!(14200), json!(1787)));
    assert_eq!(count["complete"], true);
    let dlx_count = server.get("/api/queens?n=8&mode=count&method=dlx").await.json();
    assert_eq!((dlx_count["count"].clone(), dlx_count["distinct"].clone()), (json!(92), json!(12)));
    let none = server.get("/api/queens?n=3&mode=all").await.json();
    assert_eq!((none["count"].clone(), none["solutions"].clone()), (json!(0), json!([])));

    let bad = ["n=0", "n=-1", "n=eight", "n=1000000", "n=8&mode=every", "n=8&method=magic", ""];
    server.refuses("/api/queens", &bad, None).await;
}

#[tokio::test]
async fn tile_draws_and_counts_tilings() {
    let server = server().await;
    let first = server.get("/api/tile?board=6x10&pieces=pentominoes&once=true").await.ok();
    assert_eq!(first["count"], 1);
    assert_eq!(first["board"], json!({ "rows": 6, "cols": 10 }));
    assert_eq!(first["pieces"].as_array().unwrap().len(), 12);
    let art = first["solutions"][0].as_array().unwrap();
    assert_eq!(art.len(), 6);
    // Every square covered once, by the 12 pieces.
    let placements = first["placements"][0].as_array().unwrap();
    assert_eq!(placements.len(), 12);
    let mut cells = BTreeSet::new();
    for p in placements {
        for cell in p["cells"].as_array().unwrap() {
            assert!(cells.insert((cell[0].as_u64().unwrap(), cell[1].as_u64().unwrap())));
        }
    }
    assert_eq!(cells.len(), 60);

    // The count of 3x20 pentomino tilings: 8 (2 up to symmetry), ground truth.
    let count = server.get("/api/tile?board=3x20&pieces=pentominoes&once=true&mode=count").await;
    let count = count.json();
    assert_eq!((count["count"].clone(), count["complete"].clone()), (json!(8), json!(true)));
    // Dominoes on 8x8: 12,988,816 by the profile DP.
    let dominoes = server.get("/api/tile?board=8x8&pieces=dominoes&mode=count").await.json();
    assert_eq!(
        (dominoes["count"].clone(), dominoes["method"].clone()),
        (json!(12_988_816), json!("dp"))
    );
    let some = server.get("/api/tile?board=4x4&pieces=dominoes&mode=all&limit=5").await.json();
    assert_eq!(some["solutions"].as_array().unwrap().len(), 5);
    assert_eq!(some["placements"].as_array().unwrap().len(), 5);

    let bad = [
        "board=6x10",
        "board=6&pieces=pentominoes",
        "board=0x5&pieces=dominoes",
        "board=100x100&pieces=dominoes",
        "board=6x10&pieces=heptominoes",
        "board=6x10&pieces=pentominoes&once=maybe",
        "board=6x10&pieces=pentominoes&mode=every",
        "board=6x10&pieces=pentominoes&method=dp",
    ];
    server.refuses("/api/tile", &bad, None).await;
}

#[tokio::test]
async fn target_sudoku_scores_the_statements_samples() {
    let server = server().await;
    for (name, score) in [("sample1.in", 2829), ("sample2.in", 2852)] {
        let reply = server
            .post("/api/target-sudoku", testdata(&format!("target-sudoku/{name}")))
            .await
            .ok();
        for key in ["score", "grid", "stats", "complete", "stop", "puzzle", "givens"] {
            assert!(reply.get(key).is_some(), "{key}: {reply}");
        }
        assert_eq!(reply["score"], score, "{name}");
        assert_eq!(reply["complete"], true);
        let grid = reply["grid"].as_array().unwrap();
        assert_eq!(grid.len(), 9);
    }
    // No completion: -1, as the command line prints.
    let mut clash = "5 0 0 0 0 0 0 0 5\n".to_owned();
    clash.push_str(&"0 0 0 0 0 0 0 0 0\n".repeat(8));
    let none = server.post("/api/target-sudoku", clash).await.json();
    assert_eq!((none["score"].clone(), none["grid"].clone()), (json!(-1), Value::Null));

    for (body, expected) in [
        ("", "9 lines"),
        ("1 2 3\n", "9 lines"),
        ("x\n1\n2\n3\n4\n5\n6\n7\n8\n", "unexpected character"),
    ] {
        let message = server.post("/api/target-sudoku", body).await.error(400);
        assert!(message.contains(expected), "{body:?}: {message}");
    }
}

#[tokio::test]
async fn the_budget_ends_every_puzzle_search_with_complete_false() {
    let server = TestServer::with(|c| c.max_nodes = 2_000).await;
    for method in ["dlx", "fast"] {
        let reply = server
            .post(&format!("/api/sudoku?mode=count&method={method}"), empty_sudoku())
            .await
            .json();
        assert_eq!(
            (reply["complete"].clone(), reply["stop"].clone()),
            (json!(false), json!("node-limit")),
            "{method}"
        );
        assert!(reply["count"].as_u64().unwrap() > 0, "{reply}");
    }
    let queens = server.get("/api/queens?n=20&mode=all&method=dlx").await.json();
    assert_eq!(
        (queens["complete"].clone(), queens["stop"].clone()),
        (json!(false), json!("node-limit"))
    );
    let tile =
        server.get("/api/tile?board=6x10&pieces=pentominoes&once=true&mode=count").await.json();
    assert_eq!(
        (tile["complete"].clone(), tile["stop"].clone()),
        (json!(false), json!("node-limit"))
    );
    let empty = "0 0 0 0 0 0 0 0 0\n".repeat(9);
    let target = server.post("/api/target-sudoku", &empty).await.json();
    assert_eq!(
        (target["complete"].clone(), target["stop"].clone()),
        (json!(false), json!("node-limit"))
    );
    // The best completion found so far, valid and scored.
    assert!(target["score"].as_i64().unwrap() > 0, "{target}");
    // Stopped before a first completion: no score (-1 would read as "no completion").
    let mut config = ServerConfig::default();
    config.max_nodes = 1;
    let tight = TestServer::start(config).await;
    let target = tight.post("/api/target-sudoku", &empty).await.json();
    assert_eq!((&target["score"], &target["grid"]), (&Value::Null, &Value::Null), "{target}");
    assert_eq!(target["complete"], false);

    // The time budget, on solvers whose only stop is a cancel flag: a timer raises it.
    let server = TestServer::with(|c| {
        c.max_nodes = u64::MAX;
        c.count_time_limit = Duration::from_millis(300);
    })
    .await;
    let count = server.get("/api/queens?n=18&mode=count").await.json();
    assert_eq!(
        (count["complete"].clone(), count["stop"].clone()),
        (json!(false), json!("time-limit"))
    );
    let sudoku = server.post("/api/sudoku?mode=count", empty_sudoku()).await.json();
    assert_eq!(
        (sudoku["complete"].clone(), sudoku["stop"].clone()),
        (json!(false), json!("time-limit"))
    );
}

#[tokio::test]
async fn puzzle_bodies_over_one_megabyte_get_413() {
    let server = server().await;
    let mut body = ESCARGOT.as_bytes().to_vec();
    body.push(b'\n');
    body.resize(1024 * 1024 + 1, b'#');
    for endpoint in ["/api/sudoku", "/api/target-sudoku"] {
        let message = server.post(endpoint, &body).await.error(413);
        assert!(message.contains("too large"), "{endpoint}: {message}");
    }
}

#[tokio::test]
async fn the_profile_dp_is_bounded_in_states() {
    // Time enough for the DP to reach its state bound on a loaded machine; the engine's
    // count after it stops at the node budget.
    let server = TestServer::with(|c| {
        c.count_time_limit = Duration::from_secs(120);
        c.max_nodes = 10_000;
    })
    .await;
    // Trominoes on a 15-wide board: the DP's states grow about 9x every two columns.
    let auto = server.get("/api/tile?board=15x16&pieces=trominoes&mode=count").await.json();
    assert_eq!(auto["method"], "dlx", "auto falls back to the engine: {auto}");
    assert_eq!(auto["stop"], "node-limit", "{auto}");
    let message =
        server.get("/api/tile?board=15x16&pieces=trominoes&mode=count&method=dp").await.error(400);
    assert!(message.contains("states"), "{message}");
    // Within the bound, the DP answers.
    let dp = server.get("/api/tile?board=8x8&pieces=dominoes&mode=count&method=dp").await.json();
    assert_eq!(dp["count"], 12_988_816);
}

#[tokio::test]
async fn hostile_puzzle_input_never_takes_the_server_down() {
    let server = server().await;
    let noise = noise(4321, 100_000);
    let bodies: Vec<Vec<u8>> = vec![
        noise,
        b"\0\0\0".to_vec(),
        "\u{2603}".repeat(81).into_bytes(),
        "9".repeat(81).into_bytes(),
        "Z".repeat(256).into_bytes(),
        ".".repeat(1_000_000).into_bytes(),
        "0 0 0\n".repeat(100_000).into_bytes(),
        "9 9 9 9 9 9 9 9 9\n".repeat(9).into_bytes(),
    ];
    for body in &bodies {
        for endpoint in ["/api/sudoku?method=dlx", "/api/sudoku?mode=count", "/api/target-sudoku"] {
            let reply = server.post(endpoint, body).await;
            assert!(reply.status == 200 || reply.status == 400, "{endpoint}: {}", reply.text());
            let _ = reply.json();
        }
    }
    for query in [
        "/api/queens?n=18446744073709551616",
        "/api/queens?n=8&limit=0&mode=all",
        "/api/tile?board=99999999999x1&pieces=dominoes",
        "/api/tile?board=1x1&pieces=monomino&limit=0",
        "/api/tile?board=32x32&pieces=hexominoes&once=true",
    ] {
        let reply = server.get(query).await;
        assert!(reply.status == 200 || reply.status == 400, "{query}: {}", reply.text());
        let _ = reply.json();
    }
    assert_eq!(server.post("/api/sudoku", ESCARGOT).await.json()["solution"], ESCARGOT_SOLUTION);
}

/// `method` on `/api/solve?mode=count`: the plain search by default, the memoised search,
/// `auto` or the count by stages when asked, and the method that counted in the answer.
#[tokio::test]
async fn solve_counts_by_the_method_asked() {
    let server = server().await;
    let dominoes = testdata("instances/domino8x8.dlx");
    let small = testdata("instances/domino6x6.dlx");
    let plain = server.post("/api/solve?mode=count", small).await.json();
    assert_eq!((plain["count"].clone(), plain["method"].clone()), (json!(6_728), json!("search")));
    let memo = server.post("/api/solve?mode=count&method=memo", dominoes.clone()).await.json();
    assert_eq!((memo["count"].clone(), memo["method"].clone()), (json!(12_988_816), json!("memo")));
    // The memoised search visits a few thousand nodes where the plain one visits 50 million.
    assert!(memo["stats"]["nodes"].as_u64().unwrap() < 10_000, "{memo}");
    let auto = server.post("/api/solve?mode=count&method=auto", dominoes.clone()).await.json();
    assert_eq!(auto["method"], "memo", "{auto}");
    // Auto gives 12 queens to the plain search (the table saves little there).
    let twelve = testdata("instances/queens12.dlx");
    let auto = server.post("/api/solve?mode=count&method=auto", twelve).await.json();
    assert_eq!((auto["count"].clone(), auto["method"].clone()), (json!(14_200), json!("search")));
    // A latin square goes to the count by stages, asked for or picked by auto (its options
    // fall into lines); multiplicities are refused by the gate.
    let latin = testdata("instances/ec/latin7-blk-00001.ec");
    for method in ["frontier", "auto"] {
        let url = format!("/api/solve?mode=count&method={method}");
        let counted = server.post(&url, latin.clone()).await.json();
        let got = (counted["count"].clone(), counted["method"].clone());
        assert_eq!(got, (json!(10_752), json!("frontier")), "{method}: {counted}");
        assert_eq!(counted["frontier"]["lines"], json!(true), "{counted}");
        assert_eq!(counted["frontier"]["stages"], json!(6), "{counted}");
    }
    let matrices = testdata("instances/mult_a001499_6.dlx");
    let e = server.post("/api/solve?mode=count&method=frontier", matrices).await.error(400);
    assert!(e.contains("frontier does not handle multiplicities"), "{e}");
    let queens = testdata("instances/queens8.dlx");
    // Only counts take a method; the memoised search counts whole subtrees, so no limit.
    let e = server.post("/api/solve?mode=all&method=memo", queens.clone()).await.error(400);
    assert!(e.contains("mode=count"), "{e}");
    let e = server.post("/api/solve?mode=count&method=memo&limit=3", queens).await.error(400);
    assert!(e.contains("no limit"), "{e}");
}

/// An Aztec diamond of order `n` in rows of art for `/api/tile`: rows of 2, 4, ..., 2n, 2n,
/// ..., 2 squares, centred.
fn aztec(n: usize) -> String {
    let widths = (1..=n).chain((1..=n).rev());
    let rows: Vec<String> = widths.map(|k| ".".repeat(n - k) + &"x".repeat(2 * k)).collect();
    rows.join("/")
}

/// Boards of any shape: the engine counts them (never the profile DP), by the memoised search
/// where it pays (and where it ends before auto's first look); Aztec diamonds of order n have
/// 2^(n(n+1)/2) domino tilings.
#[tokio::test]
async fn odd_boards_are_counted_on_the_engine_by_memo_where_it_pays() {
    let server = server().await;
    for (n, method) in [(3, "memo"), (8, "memo")] {
        let url = format!("/api/tile?board={}&pieces=dominoes&mode=count", aztec(n));
        let answer = server.get(&url).await.json();
        let total = 1u128 << (n * (n + 1) / 2);
        assert_eq!(answer["count"], json!(total as u64), "order {n}: {answer}");
        assert_eq!(answer["method"], "dlx");
        assert_eq!(answer["count_method"], method, "order {n}: {answer}");
        assert_eq!(answer["complete"], true);
    }
    // A ring: 8 squares around a hole, 2 tilings; drawn with `#` (escaped) as well.
    let ring = server
        .get("/api/tile?board=%23%23%23/%23.%23/%23%23%23&pieces=dominoes&mode=count")
        .await
        .json();
    assert_eq!(ring["count"], 2, "{ring}");
    let e = server
        .get("/api/tile?board=xxx/x.x/xxx&pieces=dominoes&mode=count&method=dp")
        .await
        .error(400);
    assert!(e.contains("rectangle"), "{e}");
    let e = server.get("/api/tile?board=xx/x%3Fx&pieces=dominoes&mode=count").await.error(400);
    assert!(e.starts_with("board:"), "{e}");
}
