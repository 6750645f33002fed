//! The sudoku view's presets against the seed page (issue #20): its three puzzles, ranked by
//! DLX search branches ("nodeVisits" 51, 64 and 1471), are the engine's 52, 65 and 1,472
//! nodes (the engine counts one more, for the solution, as Knuth does). The presets are read
//! from the view's own source, solved through `/api/sudoku`, and traced through `/api/trace`
//! as the view traces them.

use dancecard_models::sudoku::{Grid, SudokuModel};
use dancecard_models::Model;
use dancecard_web::ServerConfig;

use crate::util::{testdata, TestServer};

/// The view's source, where the presets are.
const SUDOKU_JS: &str = include_str!("../assets/js/views/sudoku.js");

/// The seed page's counts, in its order: entry (30 givens), 17 givens, hell (21 givens).
const SEED: [(&str, usize, u64); 3] =
    [("easy", 30, 51), ("seventeen", 17, 64), ("inkala", 21, 1471)];

/// A preset of `SUDOKUS` in sudoku.js: (id, puzzle, whether it is one of the seed's).
pub(crate) fn presets() -> Vec<(String, String, bool)> {
    let list = SUDOKU_JS.split("export const SUDOKUS = [").nth(1).expect("SUDOKUS in sudoku.js");
    let list = list.split("\n];").next().unwrap();
    let quoted = |entry: &str, key: &str| {
        let rest = entry.split(&format!("{key}: '")).nth(1)?;
        Some(rest.split('\'').next()?.to_owned())
    };
    list.split("\n  {")
        .skip(1)
        .map(|entry| {
            let id = quoted(entry, "id").expect("a preset has an id");
            let puzzle = quoted(entry, "puzzle").expect("a preset has a puzzle");
            (id, puzzle, entry.contains("seed: true"))
        })
        .collect()
}

/// The exact cover model of a 9x9 puzzle as a DLX file without its comment line: what
/// sudoku-board.js writes (the browser test compares the two).
pub(crate) fn model_dlx(puzzle: &str) -> String {
    let grid = Grid::parse_line(puzzle, None).unwrap();
    let text = dancecard_format::write_dlx(&SudokuModel::new(&grid).problem());
    text.split_once('\n').unwrap().1.to_owned()
}

#[tokio::test]
async fn the_seed_presets_take_52_65_and_1472_nodes_in_that_order() {
    let server = TestServer::start(ServerConfig::default()).await;
    let seed: Vec<_> = presets().into_iter().filter(|p| p.2).collect();
    assert_eq!(
        seed.iter().map(|p| p.0.as_str()).collect::<Vec<_>>(),
        SEED.map(|s| s.0),
        "the seed's three presets come first, in the seed's order"
    );
    let mut nodes = Vec::new();
    for ((id, puzzle, _), (_, givens, visits)) in seed.iter().zip(SEED) {
        let reply = server.post("/api/sudoku?method=dlx", puzzle).await.json();
        assert_eq!(reply["givens"], givens, "{id}");
        assert_eq!(reply["complete"], true, "{id}");
        assert!(reply["solution"].is_string(), "{id}");
        // The engine's count is the seed's, plus the node of the solution.
        assert_eq!(reply["nodes"], visits + 1, "{id}");
        nodes.push(reply["nodes"].as_u64().unwrap());
    }
    assert_eq!(nodes, [52, 65, 1472]);
    assert!(nodes.windows(2).all(|w| w[0] < w[1]), "sorted by nodes, as the seed sorts");
}

#[test]
fn the_seed_presets_are_where_sudoku_js_says() {
    let lines = |path: &str| -> Vec<String> {
        String::from_utf8(testdata(path)).unwrap().lines().map(str::to_owned).collect()
    };
    let puzzle = |id: &str| presets().into_iter().find(|p| p.0 == id).unwrap().1;
    assert_eq!(lines("sudoku/emerentius_lines/easy_sudokus.txt")[1], puzzle("easy"));
    let seventeen: Vec<_> =
        lines("sudoku/puzzles2_17_clue").into_iter().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(seventeen[1], puzzle("seventeen"), "the second puzzle of the 17-clue list");
    let inkala = lines("instances/sudoku_inkala.dlx");
    assert_eq!(inkala[0], format!("| sudoku {}", puzzle("inkala")));
}

#[tokio::test]
async fn the_board_trace_ends_at_the_first_solution_with_the_same_count() {
    let server = TestServer::start(ServerConfig::default()).await;
    for (id, puzzle, seed) in presets() {
        if !seed {
            continue;
        }
        let reply = server.post("/api/trace?solutions=1", model_dlx(&puzzle)).await.json();
        let events = reply["events"].as_array().unwrap();
        let last = events.last().unwrap();
        let solved = server.post("/api/sudoku?method=dlx", &puzzle).await.json();
        eprintln!("{id}: {} events, stop {}, {} nodes", events.len(), reply["stop"], last["nodes"]);
        match reply["stop"].as_str().unwrap() {
            "solution-limit" => {
                assert_eq!(last["event"], "solution", "{id}");
                assert_eq!(last["nodes"], solved["nodes"], "{id}");
                assert_eq!(reply["stats"]["nodes"], solved["nodes"], "{id}");
                assert_eq!(reply["complete"], false, "{id}");
            }
            "event-limit" => {
                assert_eq!(events.len(), ServerConfig::default().max_trace_events, "{id}");
                assert!(last["nodes"].as_u64() < solved["nodes"].as_u64(), "{id}");
            }
            stop => panic!("{id}: stop {stop}"),
        }
    }
    // Without `solutions`, the search goes on after the solution, to prove it unique.
    let easy = &presets()[0].1;
    let all = server.post("/api/trace", model_dlx(easy)).await.json();
    assert_eq!(all["stop"], "exhausted");
    assert_eq!(all["stats"]["solutions"], 1);
    let solutions =
        all["events"].as_array().unwrap().iter().filter(|e| e["event"] == "solution").count();
    assert_eq!(solutions, 1);
}
