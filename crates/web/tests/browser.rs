//! End-to-end tests in Debian's Chromium, driven through chromedriver (WebDriver) with
//! fantoccini: for each view, its main interaction and an assertion on the page, and a
//! screenshot under `target/screenshots/`.
//!
//! Without `chromium` and `chromedriver` the tests fail and say how to install them; a run
//! that cannot have a browser skips them only when asked to, with
//! `DANCECARD_SKIP_BROWSER=1` (they then print that they were skipped).

use fantoccini::key::Key;
use fantoccini::Locator;
use serde_json::json;
use tokio::sync::Semaphore;

use crate::util::{desktop_and_phone, js_string, Session, TestServer, Text};

/// One browser at a time: the machine may have two cores, shared with the compiler.
pub(crate) static BROWSERS: Semaphore = Semaphore::const_new(1);

/// Opens the app in a browser at `path`, or `None` to skip (see [`Session::open`]).
async fn start(width: u32, height: u32, path: &str) -> Option<(Session, TestServer)> {
    let session = Session::open(&BROWSERS, width, height, &[]).await?;
    let server = TestServer::for_pages().await;
    session.goto(&server.url(path)).await;
    Some((session, server))
}

const ALL_GREEN: &str = "(() => { const c = [...document.querySelectorAll('#view-matrix tfoot td.count')]; \
                         return c.length === 7 && c.every((td) => td.classList.contains('ok')); })()";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn matrix_rows_1_4_5_make_every_column_green() {
    let Some((s, _server)) = start(1280, 800, "/#matrix").await else { return };
    s.until_count("#view-matrix table.pick tbody tr", 6, "Knuth's six rows").await;
    s.until_count("#view-matrix tfoot td.count.zero", 7, "all grey").await;
    for row in [1, 4, 5] {
        s.click(&format!("#view-matrix tr[data-row=\"{row}\"] button")).await;
    }
    s.until(ALL_GREEN, "rows 1, 4, 5 make every column green").await;
    s.until_shown("#view-matrix .status", "the exact cover said", |status| {
        status.contains("Exact cover! Rows 1, 4 and 5")
    })
    .await;
    s.page_is_sound().await;
    s.shot("1-matrix-exact-cover").await;

    // Drop row 4 (A D): A and D go grey. Add row 2 (A D G): G is covered twice, red.
    s.click("#view-matrix tr[data-row=\"4\"] button").await;
    s.until_class("#view-matrix td[data-item=\"A\"]", "zero", "A grey").await;
    s.click("#view-matrix tr[data-row=\"2\"] button").await;
    s.until_class("#view-matrix td[data-item=\"G\"]", "over", "G red").await;
    s.until_shown("#view-matrix .status", "G's clash said", |status| {
        status.contains("column G covered more than once")
    })
    .await;

    // The engine lists every solution: one, found in 6 nodes.
    s.click("#view-matrix .toolbar button.primary").await;
    s.until_text(
        "#view-matrix .results .summary",
        Text::Has("1 solution in 6 search nodes"),
        "the engine's list",
    )
    .await;
    s.click("#view-matrix ol.solutions button").await;
    s.until(ALL_GREEN, "showing the solution selects rows 1, 4, 5").await;
    s.shot("1-matrix-solutions").await;

    // The unsolvable preset: column C stays grey whatever is chosen; the engine finds nothing.
    let select = s.client.find(Locator::Css("#view-matrix .toolbar select")).await.unwrap();
    select.select_by_value("unsolvable").await.unwrap();
    s.until_count("#view-matrix table.pick tbody tr", 3, "three rows").await;
    for row in [1, 2] {
        s.click(&format!("#view-matrix tr[data-row=\"{row}\"] button")).await;
    }
    s.until_class("#view-matrix td[data-item=\"C\"]", "zero", "C grey").await;
    s.click("#view-matrix .toolbar button.primary").await;
    s.until_text(
        "#view-matrix .results .summary",
        Text::Has("No exact cover exists"),
        "no solution",
    )
    .await;
    s.shot("1-matrix-unsolvable").await;

    // A matrix typed by the reader, with a mistake: the parser's message, with its place.
    s.click("#view-matrix details.editor summary").await;
    s.fill("#view-matrix textarea", "a b\na z\n").await;
    s.click("#view-matrix details.editor button").await;
    s.until_text(
        "#view-matrix .status",
        Text::Has("line 2, column 3: unknown item"),
        "the parser's message",
    )
    .await;
    s.fill("#view-matrix textarea", "x y\nx y\nx\n").await;
    s.click("#view-matrix details.editor button").await;
    s.until_count("#view-matrix table.pick tbody tr", 2, "the reader's matrix").await;
    s.page_is_sound().await;
    s.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stepper_replays_the_engine_to_the_solution() {
    let Some((s, _server)) = start(1280, 800, "/#stepper").await else { return };
    // Both heuristics' node counts, side by side.
    s.until_text(
        "#view-stepper .count-box[data-heuristic=\"mrv\"] .big",
        Text::Is("6 nodes"),
        "S heuristic count",
    )
    .await;
    s.until_shown(
        "#view-stepper .count-box[data-heuristic=\"leftmost\"] .big",
        "leftmost heuristic count",
        |leftmost| leftmost == "7 nodes",
    )
    .await;
    s.page_is_sound().await;
    s.shot("2-stepper-start").await;

    // Step with the keyboard until the first solution. Each step is waited for (the player
    // shows its position, then draws the step, in one go): the count read is of that step.
    let mut steps = 0;
    loop {
        let at = format!("event {steps} of ");
        s.until_text("#view-stepper .where", Text::StartsWith(&at), "the step").await;
        if s.text("#view-stepper dd.solutions-count").await == "1" {
            break;
        }
        s.key(Key::Right).await;
        steps += 1;
        assert!(steps < 200, "no solution after {steps} steps");
    }
    s.until_shown("#view-stepper .event", "the solution said", |event| {
        event.contains("Solution! Rows 1, 4 and 5")
    })
    .await;
    s.until_value(
        "[...document.querySelectorAll('#view-stepper tr.trying, #view-stepper tr.in-solution')].map((r) => r.dataset.row).sort().join(',')",
        json!("1,4,5"),
        "rows 1, 4, 5 in the solution",
    )
    .await;
    s.shot("2-stepper-solution").await;

    // One step back leaves the solution; the end is the end of the search, after 6 nodes.
    s.key(Key::Left).await;
    s.until_text("#view-stepper dd.solutions-count", Text::Is("0"), "one step back").await;
    s.key(Key::End).await;
    s.until_text("#view-stepper .event", Text::Has("the search is over"), "the end").await;
    s.until_shown("#view-stepper dd.nodes", "6 nodes at the end", |nodes| nodes == "6").await;

    // The leftmost rule: the same solution after 7 nodes.
    s.click("#view-stepper input[value=\"leftmost\"]").await;
    s.until_text("#view-stepper .where", Text::StartsWith("event 0 of"), "reset on switch").await;
    s.click("#view-stepper .player button.play").await;
    s.until_text("#view-stepper dd.solutions-count", Text::Is("1"), "play reaches the solution")
        .await;
    s.click("#view-stepper .player button.play").await;
    s.key(Key::End).await;
    s.until_text("#view-stepper dd.nodes", Text::Is("7"), "7 nodes with leftmost").await;
    s.page_is_sound().await;
    s.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn link_dance_restores_only_the_last_removed_node() {
    let Some((s, _server)) = start(1280, 800, "/#links").await else { return };
    s.until_count("#view-links button.node", 6, "the list").await;
    let state = |k: u32| {
        format!("document.querySelector('#view-links button[data-node=\"{k}\"]').dataset.state")
    };
    s.click("#view-links button[data-node=\"2\"]").await;
    s.click("#view-links button[data-node=\"4\"]").await;
    s.until(&format!("{} === 'removed' && {} === 'removed'", state(2), state(4)), "two nodes out")
        .await;
    s.shot("3-links-two-removed").await;

    // Node 2 cannot come back before node 4, and the page says why.
    s.click("#view-links button[data-node=\"2\"]").await;
    s.until_shown("#view-links .status", "the refusal", |message| {
        message.contains("Node 2 cannot come back yet")
            && message.contains("restore node 4 first")
            && message.contains("last in, first out")
    })
    .await;
    // Read once on purpose: node 2 was out before the click and must still be (the refusal
    // above is shown by the same click's handler, so the click is over).
    assert_eq!(s.js(&state(2)).await, json!("removed"));
    s.shot("3-links-refused").await;

    s.click("#view-links button[data-node=\"4\"]").await;
    s.until(&format!("{} === 'in'", state(4)), "node 4 back").await;
    // The keyboard: U restores the last removed node.
    s.type_keys("u").await;
    s.until(&format!("{} === 'in'", state(2)), "node 2 back").await;
    // The list is whole again: next links go 0 -> 1 -> ... -> 5 -> 0.
    s.until_value(
        "[...document.querySelectorAll('#view-links table.pointers tbody tr')].map((r) => r.lastElementChild.textContent).join(' ')",
        json!("1 2 3 4 5 root"),
        "the whole ring",
    )
    .await;
    s.page_is_sound().await;
    s.close().await;
}

/// The lengths written by the column headers of view 4, in order.
const BUILD_LENS: &str =
    "[...document.querySelectorAll('#view-build svg text.len')].map((t) => t.textContent).join(',')";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn build_links_then_cover_and_uncover_a_column() {
    let Some((s, _server)) = start(1280, 800, "/#build").await else { return };
    s.until_text("#view-build .where", Text::Is("step 0 of 21"), "21 steps").await;
    // Build: root, 3 headers, 4 rows of nodes, 4 horizontal rings, 3 vertical rings.
    for _ in 0..15 {
        s.key(Key::Right).await;
    }
    s.until_count("#view-build svg g.el", 11, "root, 3 headers, 7 nodes").await;
    s.until_value(BUILD_LENS, json!("len 2,len 3,len 2"), "the built lengths").await;
    s.page_is_sound().await;
    s.shot("4-build-built").await;

    // cover(A), the column the engine chooses first: its header leaves the ring, then rows 1
    // and 3 leave columns C and B.
    s.key(Key::Right).await;
    s.until_class("#view-build g.header[data-name=\"A\"]", "out", "header A out").await;
    s.until(
        "[...document.querySelectorAll('#view-build pre.code .line.current')].map((l) => l.textContent).join('\\n').includes('c.right.left = c.left')",
        "cover's code line",
    )
    .await;
    s.key(Key::Right).await;
    s.key(Key::Right).await;
    s.until_count("#view-build g.node.out", 2, "two nodes out").await;
    s.until_value(BUILD_LENS, json!("len 2,len 2,len 1"), "the lengths after cover(A)").await;
    s.shot("4-build-covered").await;

    s.key(Key::End).await;
    s.until_text("#view-build .event", Text::Has("back exactly as built"), "uncovered").await;
    s.until_count("#view-build g.out", 0, "nothing out").await;
    s.page_is_sound().await;
    s.close().await;
}

/// The number of filled cells of the sudoku grid in view 5.
const SUDOKU_FILLED: &str =
    "[...document.querySelectorAll('#view-sudoku table.sudoku td')].filter((td) => td.textContent !== '').length";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sudoku_presets_fill_their_grids_by_both_methods() {
    let Some((s, _server)) = start(1280, 800, "/#sudoku").await else { return };
    s.until_count("#view-sudoku table.sudoku td", 81, "a 9x9 grid").await;
    // Each preset has the givens its name says (and the comment in sudoku.js cites).
    let select = s.client.find(Locator::Css("#view-sudoku .toolbar select")).await.unwrap();
    for (preset, givens) in
        [("easy", 30), ("seventeen", 17), ("hard", 21), ("escargot", 23), ("inkala", 21)]
    {
        select.select_by_value(preset).await.unwrap();
        s.until(&format!("{SUDOKU_FILLED} === {givens}"), preset).await;
        s.until_value(
            "document.querySelector('#view-sudoku .status')?.dataset.givens",
            json!(givens.to_string()),
            preset,
        )
        .await;
    }
    // AI Escargot, solved both ways: 81 cells, and a node count and a time for each method.
    select.select_by_value("escargot").await.unwrap();
    s.click("#view-sudoku button[data-method=\"both\"]").await;
    s.until(&format!("{SUDOKU_FILLED} === 81"), "81 cells filled").await;
    s.until_count("#view-sudoku .count-box", 2, "both methods").await;
    for method in ["dlx", "fast"] {
        let box_ = format!("#view-sudoku .count-box[data-method=\"{method}\"]");
        s.until_shown(&format!("{box_} .nodes"), method, |nodes| {
            nodes.ends_with("nodes") || nodes.ends_with("node")
        })
        .await;
        s.until_shown(&format!("{box_} .time"), method, |time| time.ends_with("s")).await;
    }
    s.until_shown("#view-sudoku .status", "solved", |status| {
        status.contains("Solved: 9\u{d7}9, 23 givens, 81 cells filled")
    })
    .await;
    s.page_is_sound().await;
    s.shot("5-sudoku-escargot").await;

    // 16x16: 256 cells.
    select.select_by_value("sixteen").await.unwrap();
    s.until_count("#view-sudoku table.sudoku td", 256, "16x16").await;
    s.click("#view-sudoku button[data-method=\"dlx\"]").await;
    s.until(&format!("{SUDOKU_FILLED} === 256"), "256 cells filled").await;
    s.page_is_sound().await;
    s.shot("5-sudoku-16x16").await;

    // A puzzle typed by the reader, with two equal givens in a row: the server's message.
    s.click("#view-sudoku details.editor summary").await;
    let typed = format!("11{}", ".".repeat(79));
    s.fill("#view-sudoku textarea", &typed).await;
    s.click("#view-sudoku details.editor button").await;
    s.click("#view-sudoku button[data-method=\"fast\"]").await;
    s.until_class("#view-sudoku .status", "error", "the parser's message").await;
    s.until_shown("#view-sudoku .status", "the message's place", |status| {
        status.contains("line 1")
    })
    .await;
    s.close().await;
}

/// The sudoku view's second edition (#20): the seed page's three presets and their counts, the
/// essay's table from the engine's runs, and the search played on the board. `tag` names the
/// screenshots.
async fn sudoku_second_edition(s: &Session, tag: &str) {
    s.until_count("#view-sudoku table.sudoku td", 81, "a 9x9 grid").await;
    // The seed's three come first, in its order (by search nodes).
    s.until_value(
        "[...document.querySelectorAll('#view-sudoku .toolbar select option')].slice(0, 3).map((o) => o.value).join(',')",
        json!("easy,seventeen,inkala"),
        "the seed's order",
    )
    .await;
    let select = s.client.find(Locator::Css("#view-sudoku .toolbar select")).await.unwrap();
    for (preset, nodes, seed) in
        [("easy", "52", "51"), ("seventeen", "65", "64"), ("inkala", "1,472", "1,471")]
    {
        select.select_by_value(preset).await.unwrap();
        s.click("#view-sudoku button[data-method=\"dlx\"]").await;
        s.until_text(
            "#view-sudoku .count-box[data-method=\"dlx\"] .nodes",
            Text::Is(&format!("{nodes} nodes")),
            preset,
        )
        .await;
        let visits = format!("{seed} nodeVisits");
        s.until_shown("#view-sudoku .count-box[data-method=\"dlx\"] .seed-visits", preset, |v| {
            v.starts_with(&visits)
        })
        .await;
        s.until_shown("#view-sudoku p.conventions", "the conventions", |note| {
            note.contains("one less")
        })
        .await;
    }
    s.shot(&format!("{tag}5-sudoku-seed-hell")).await;

    // The essay's table, from the engine's own runs.
    s.until(
        "document.querySelector('#view-sudoku table.difficulty')?.dataset.measured === 'true'",
        "the table measured",
    )
    .await;
    s.until_value(
        "[...document.querySelectorAll('#view-sudoku table.difficulty tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent).join('/')).join(' ')",
        json!("30/52/51 17/65/64 21/1,472/1,471"),
        "the essay's table",
    )
    .await;
    s.until_shown("#view-sudoku .difficulty-essay p.conclusion", "the conclusion", |c| {
        c.contains("30, 21, 17") && c.contains("52, 65, 1,472")
    })
    .await;
    s.until_shown("#view-sudoku .difficulty-essay", "the essay", |essay| {
        essay.contains("McGuire") && essay.contains("2012")
    })
    .await;
    s.scroll_to("#view-sudoku table.difficulty").await;
    s.page_is_sound().await;
    s.shot(&format!("{tag}5-sudoku-difficulty")).await;

    // The board: the entry puzzle traced to its solution, the model the same as the engine's.
    select.select_by_value("easy").await.unwrap();
    let easy = crate::sudoku_seed::presets()[0].1.clone();
    let dlx = s
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1]; import('/assets/js/views/sudoku-board.js').then((m) => done(m.sudokuDlx(arguments[0], 9).text));",
            vec![json!(easy)],
        )
        .await
        .unwrap();
    assert_eq!(
        dlx,
        json!(crate::sudoku_seed::model_dlx(&easy)),
        "the page's model is the engine's"
    );
    s.click("#view-sudoku button[data-action=\"watch\"]").await;
    s.until(
        "document.querySelector('#view-sudoku .watch-status').dataset.stop === 'solution-limit'",
        "the trace",
    )
    .await;
    s.until_shown("#view-sudoku .watch-status", "the trace's nodes", |status| {
        status.contains("52 nodes")
    })
    .await;
    s.until_shown("#view-sudoku .watch .where", "the trace's steps", |w| w == "step 0 of 103")
        .await;
    // Step by step: the first choice names a column, then a digit goes on the board.
    s.click("#view-sudoku .watch .player button.primary").await;
    s.until_shown("#view-sudoku .watch-event", "the first choice", |event| {
        event.contains("Level 0: choose column")
    })
    .await;
    s.until_shown("#view-sudoku .watch-column", "the column named", |c| c.contains("needs")).await;
    s.key(Key::Right).await;
    s.until_count("#view-sudoku .watch-board td.now", 1, "a digit placed").await;
    s.until_shown("#view-sudoku .watch-placed", "one digit placed", |p| p == "1").await;
    s.until_shown("#view-sudoku .watch-nodes", "one node", |n| n == "1").await;
    // Play, then pause: the counter runs.
    Part { s, css: "#view-sudoku .watch" }.play_to(".watch-nodes", 4).await;
    s.shot(&format!("{tag}5-sudoku-watch-playing")).await;
    // Jump to the end: the solution, at node 52, every cell filled.
    s.key(Key::End).await;
    s.until_text("#view-sudoku .watch-nodes", Text::Is("52"), "the end").await;
    s.until_shown("#view-sudoku .watch-event", "the solution said", |event| {
        event.starts_with("Solution, at node 52")
    })
    .await;
    s.until_value(
        "[...document.querySelectorAll('#view-sudoku .watch-board td')].filter((td) => td.textContent !== '').length",
        json!(81),
        "every cell filled",
    )
    .await;
    s.scroll_to("#view-sudoku .watch").await;
    s.page_is_sound().await;
    s.shot(&format!("{tag}5-sudoku-watch-solved")).await;

    // The hell puzzle: digits taken back, and the trace either reaches 1,472 or says it was cut.
    select.select_by_value("inkala").await.unwrap();
    s.click("#view-sudoku button[data-action=\"watch\"]").await;
    s.until("['solution-limit', 'event-limit'].includes(document.querySelector('#view-sudoku .watch-status').dataset.stop)", "the hell trace").await;
    // Settled: picking the puzzle cleared the easy trace's stop, and this one is set once,
    // with the trace.
    let stop = s.js("document.querySelector('#view-sudoku .watch-status').dataset.stop").await;
    // Step until the search takes a digit back. Each step is waited for (the player shows its
    // position, then draws the step, in one go): the count read is of that step.
    let mut steps = 0;
    loop {
        let at = format!("step {steps} of ");
        s.until_text("#view-sudoku .watch .where", Text::StartsWith(&at), "the step").await;
        if s.count("#view-sudoku .watch-board td.undone").await > 0 {
            break;
        }
        s.key(Key::Right).await;
        steps += 1;
        assert!(steps < 2000, "no digit taken back in {steps} steps");
    }
    s.until_shown("#view-sudoku .watch-event", "a digit taken back", |event| {
        event.contains("take") && event.contains("back from")
    })
    .await;
    s.scroll_to("#view-sudoku .watch-board").await;
    s.shot(&format!("{tag}5-sudoku-watch-taken-back")).await;
    s.key(Key::End).await;
    if stop == json!("solution-limit") {
        s.until_text("#view-sudoku .watch-nodes", Text::Is("1,472"), "1,472 at the end").await;
    } else {
        s.until_shown("#view-sudoku .watch-status", "the cut said", |status| {
            status.contains("The trace was cut (event-limit)")
        })
        .await;
    }
    s.until(
        "Number(document.querySelector('#view-sudoku .watch .where')?.textContent.split(' of ')[1]) > 1000",
        "more than 1,000 steps",
    )
    .await;
    s.page_is_sound().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sudoku_seed_presets_essay_and_search_on_the_board() {
    let Some((s, _server)) = start(1280, 800, "/#sudoku").await else { return };
    sudoku_second_edition(&s, "").await;
    s.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sudoku_seed_presets_essay_and_search_on_a_phone() {
    let Some((s, _server)) = start(390, 844, "/#sudoku").await else { return };
    sudoku_second_edition(&s, "narrow-").await;
    s.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn queens_eight_has_92_solutions_to_browse() {
    let Some((s, _server)) = start(1280, 800, "/#queens").await else { return };
    s.until_text("#view-queens dd.total", Text::Is("92"), "92 solutions").await;
    // The exact cover model's nodes: Knuth's DLX1 counts 1,049 on the same model
    // (testdata/instances/queens8.dlx).
    s.until_shown("#view-queens dd.nodes", "DLX1's nodes", |nodes| nodes == "1,049").await;
    s.until_shown("#view-queens .where", "the first solution", |w| w == "solution 1 of 92").await;
    s.until_count("#view-queens td.queen", 8, "8 queens").await;
    s.page_is_sound().await;
    s.shot("6-queens-first").await;

    // Browse: next by button and by key, then to the end.
    s.click("#view-queens button.next").await;
    s.until_text("#view-queens .where", Text::Is("solution 2 of 92"), "next").await;
    s.key(Key::Right).await;
    s.until_text("#view-queens .where", Text::Is("solution 3 of 92"), "key").await;
    s.key(Key::End).await;
    s.until_text(
        "#view-queens .where",
        Text::Is("solution 92 of 92"),
        "browsing reaches solution 92",
    )
    .await;
    s.until_value(
        "document.querySelector('#view-queens button.next')?.disabled",
        json!(true),
        "no next at the last",
    )
    .await;
    s.until_count("#view-queens td.queen", 8, "8 queens at the last").await;
    s.shot("6-queens-last").await;

    // A larger board: count only.
    let size = s.client.find(Locator::Css("#view-queens input[type=\"number\"]")).await.unwrap();
    size.clear().await.unwrap();
    size.send_keys("12").await.unwrap();
    s.click("#view-queens .toolbar button:not(.primary)").await;
    s.until_text("#view-queens dd.total", Text::Is("14,200"), "14,200 for N = 12").await;
    s.until_shown("#view-queens dd.distinct", "1,787 distinct", |d| d == "1,787").await;
    s.page_is_sound().await;
    s.shot("6-queens-count-12").await;
    s.close().await;
}

/// The queens view's matrix part: the model's columns, rows and headers, for `n`.
const QUEENS_MODEL: &str = "#view-queens .queens-model";
/// The queens view's board part: the search watched on the board.
const QUEENS_WATCH: &str = "#view-queens .queens-watch-part";

/// A part of a view with its own player (the queens' matrix stepped, a board watched), by
/// its CSS selector.
#[derive(Clone, Copy)]
struct Part<'a> {
    s: &'a Session,
    css: &'a str,
}

impl Part<'_> {
    /// The selector of `css` inside the part.
    fn at(&self, css: &str) -> String {
        format!("{} {css}", self.css)
    }

    /// Clicks the `n`th button (1: reset, 2: back, 3: play, 4: step, 5: end) of its player.
    ///
    /// The click is the button's own (`HTMLElement.click()`), not WebDriver's mouse at the
    /// button's centre: a page still laying itself out under load can move the button between
    /// the driver's look and its click, which then lands beside it (a disabled button still
    /// ignores it).
    async fn press(&self, n: usize) {
        let css = self.at(&format!(".player .buttons button:nth-child({n})"));
        let script = format!("document.querySelector({}).click();", js_string(&css));
        self.s.run(&script).await;
    }

    /// Sends a key to its step button: the part's own keys step its player.
    async fn key(&self, key: Key) {
        let css = self.at(".player .buttons button:nth-child(4)");
        let step = self.s.client.find(Locator::Css(&css)).await.unwrap();
        step.send_keys(&key.to_string()).await.unwrap();
    }

    /// Picks `value` in its `n`th select.
    async fn pick(&self, n: usize, value: &str) {
        let select = self
            .s
            .client
            .find(Locator::Css(&self.at(&format!(".toolbar select:nth-of-type({n})"))))
            .await
            .unwrap();
        select.select_by_value(value).await.unwrap();
    }

    /// Waits until the text of `css` inside the part, as the browser renders it, passes
    /// `test` (see [`Session::until_shown`]).
    async fn until_shown(&self, css: &str, what: &str, test: impl Fn(&str) -> bool) -> String {
        self.s.until_shown(&self.at(css), what, test).await
    }

    /// Waits until `n` elements match `css` inside the part.
    async fn until_count(&self, css: &str, n: u64, what: &str) {
        self.s.until_count(&self.at(css), n, what).await;
    }

    /// Waits until at least one element matches `css` inside the part.
    async fn until_some(&self, css: &str, what: &str) {
        let css = js_string(&self.at(css));
        self.s.until(&format!("document.querySelectorAll({css}).length >= 1"), what).await;
    }

    /// Waits until the text of `css` inside the part passes `test`.
    async fn until_text(&self, css: &str, test: Text<'_>, what: &str) {
        self.s.until_text(&self.at(css), test, what).await;
    }

    /// Clicks its step button (at most `most` times) until `done`, a JavaScript expression on
    /// `part` (the part's element), is true.
    async fn step_until(&self, done: &str, most: u32, what: &str) {
        self.s
            .until(
                &format!(
                    "(() => {{ const part = document.querySelector({}); \
                     const b = part.querySelector('.player .buttons button:nth-child(4)'); \
                     for (let i = 0; i < {most} && !({done}); i++) b.click(); return {done}; }})()",
                    js_string(self.css)
                ),
                what,
            )
            .await;
    }

    /// Plays until its node counter (`counter`) reaches `nodes`, then pauses.
    async fn play_to(&self, counter: &str, nodes: u64) {
        self.press(3).await;
        let counter = js_string(&self.at(counter));
        self.s
            .until(
                &format!("Number(document.querySelector({counter}).textContent) >= {nodes}"),
                "playing",
            )
            .await;
        self.press(3).await;
        let pressed = js_string(&self.at(".player button.play"));
        self.s
            .until_value(
                &format!("document.querySelector({pressed})?.getAttribute('aria-pressed')"),
                json!("false"),
                "paused",
            )
            .await;
    }

    /// Jumps to the end of a whole search: `solutions` found, the event says it ended, and
    /// every piece (`placed`, the squares of the pieces on the board) is taken back.
    async fn end_of_search(&self, solutions: &str, placed: &str) {
        self.press(5).await;
        self.until_text("dd.solutions-count", Text::Is(solutions), "the end").await;
        self.until_shown(".event", "the end said", |event| event.contains("End of the search"))
            .await;
        self.until_count(placed, 0, "every piece taken back").await;
    }

    /// After a pick whose trace the event limit cuts: the `status` says so after `events`
    /// events, the replay's end says where, and the board's squares (`cells`) number
    /// `squares`; then the screenshot `shot`.
    async fn cut_after(&self, status: &str, events: &str, cells: &str, squares: u64, shot: &str) {
        let cut = format!("The trace was cut (event-limit) after {events} events");
        self.until_text(status, Text::StartsWith(&cut), "the cut trace").await;
        self.press(5).await;
        let end = Text::Has("it was cut here (event-limit)");
        self.until_text(".event", end, "the cut said at the end").await;
        self.until_count(cells, squares, "the board's squares").await;
        self.shot(shot).await;
    }

    /// Scrolls the part into view, checks the page and takes a screenshot.
    async fn shot(&self, name: &str) {
        self.s.scroll_to(self.css).await;
        self.s.page_is_sound().await;
        self.s.shot(name).await;
    }
}

/// The matrix of N = 4 (22 columns: 8 primary on the ring, 14 secondary off it; 16 rows),
/// stepped through cover and uncover to its 2 solutions, then N = 8 (46 columns, 64 rows)
/// kept inside its scrolling box; and the search watched on the board: N = 6 whole (4
/// solutions), N = 8 cut by the event limit. At `width` x `height`.
async fn queens_second_edition(width: u32, height: u32, tag: &str) {
    let Some((s, _server)) = start(width, height, "/#queens").await else { return };
    let m = Part { s: &s, css: QUEENS_MODEL };
    s.until_count(&m.at("table.queens-matrix tbody tr"), 16, "the N = 4 matrix").await;
    m.until_shown(".queens-shape", "the N = 4 shape", |shape| {
        shape.contains("22 columns") && shape.contains("16 rows")
    })
    .await;
    m.until_count("table.queens-matrix thead th.secondary", 14, "14 secondary columns").await;
    m.until_count(".on-ring .chip.header", 8, "8 headers on the ring").await;
    m.until_count(".off-ring .chip.header", 14, "14 headers off it").await;
    m.until_count(".off-ring .chip.header.secondary", 14, "all of them secondary").await;
    // Step: enter, choose (a primary column, named), cover it: it leaves the ring.
    for _ in 0..3 {
        m.press(4).await;
    }
    m.until_text(".where", Text::StartsWith("event 3 of "), "3 steps").await;
    m.until_count("table.queens-matrix thead th.chosen-item", 1, "a column chosen").await;
    m.until_shown(".event", "a primary column covered", |event| {
        event.starts_with("Cover column r") || event.starts_with("Cover column c")
    })
    .await;
    m.until_shown("dd.ring-count", "7 on the ring", |n| n == "7").await;
    m.until_some("table.queens-matrix tbody tr.candidate", "a candidate row").await;
    // A try covers a queen's diagonals: secondary columns covered, the ring unchanged by them.
    m.step_until(
        "part.querySelector('.event').textContent.startsWith('Cover the secondary')",
        40,
        "a secondary column covered",
    )
    .await;
    m.until_some("table.queens-matrix thead th.secondary.removed", "a secondary covered").await;
    m.until_count("table.queens-matrix tbody tr.trying", 1, "a row tried").await;
    s.page_is_sound().await;
    s.shot(&format!("{tag}-queens-model-4-stepping")).await;
    // To the end: 2 solutions, every column back on the ring.
    m.press(5).await;
    m.until_text("dd.solutions-count", Text::Is("2"), "2 solutions").await;
    m.until_shown("dd.ring-count", "8 back on the ring", |n| n == "8").await;
    m.until_shown(".event", "the end said", |event| event.contains("the search is over")).await;
    // N = 8: 46 columns and 64 rows, compact, scrolling inside its box.
    m.pick(1, "8").await;
    s.until_count(&m.at("table.queens-matrix tbody tr"), 64, "the N = 8 matrix").await;
    m.until_shown(".queens-shape", "the N = 8 shape", |shape| {
        shape.contains("46 columns") && shape.contains("64 rows")
    })
    .await;
    m.until_count("table.queens-matrix.compact thead th.secondary", 30, "30 secondary").await;
    let wrap = js_string(&m.at(".queens-matrix-wrap"));
    s.until_value(
        &format!(
            "document.querySelector({wrap})?.getBoundingClientRect().right <= window.innerWidth"
        ),
        json!(true),
        "the matrix box stays in the viewport",
    )
    .await;
    for _ in 0..5 {
        m.press(4).await;
    }
    // A key pressed in the part steps its player (elsewhere the keys browse the solutions).
    m.key(Key::Right).await;
    m.until_text(".where", Text::StartsWith("event 6 of "), "the key").await;
    // Read once on purpose: the browsing must not have moved. The key's handler steps the part
    // or browses, in one go, and the wait above saw it step the part: the handler is over.
    assert_eq!(s.text("#view-queens .queens-browse .where").await, "solution 1 of 92");
    s.scroll_to(&m.at(".queens-matrix-wrap")).await;
    s.page_is_sound().await;
    s.shot(&format!("{tag}-queens-model-8")).await;

    // The board: N = 6, the whole search (4 solutions).
    let w = Part { s: &s, css: QUEENS_WATCH };
    w.until_text(".queens-watch-status", Text::StartsWith("The whole search"), "the N = 6 trace")
        .await;
    w.until_count("table.queens-watch td", 36, "the 6x6 board").await;
    w.press(4).await;
    w.until_text(".queens-chosen", Text::StartsWith("Chosen column: "), "a column chosen").await;
    w.press(4).await;
    s.until_count(&w.at("td.queen-on"), 1, "a queen placed").await;
    // Play, then pause: the node counter runs.
    w.play_to("dd.nodes", 6).await;
    w.shot(&format!("{tag}-queens-watch-6-playing")).await;
    w.end_of_search("4", "td.queen-on").await;
    // N = 8 with 2,000 events: the trace is cut, and the page says so.
    w.pick(2, "2000").await;
    w.pick(1, "8").await;
    let shot = format!("{tag}-queens-watch-8-cut");
    w.cut_after(".queens-watch-status", "2,000", "table.queens-watch td", 64, &shot).await;
    s.close().await;
}

desktop_and_phone!(
    queens_model_is_stepped_and_the_search_watched,
    queens_model_and_search_fit_a_phone,
    queens_second_edition,
    "6"
);

/// Waits until the tiling browser shows its first tiling, where it stays (its text grows
/// " (N in all)" once the view's count, running meanwhile, ends). Waited for, not read once:
/// on a busy machine the view may still be rendering.
async fn at_first_tiling(s: &Session) {
    s.until_text("#view-tiling .where", Text::StartsWith("tiling 1 of 200"), "the first tiling")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tilings_are_drawn_and_counted_and_the_target_sudoku_scored() {
    let Some((s, _server)) = start(1280, 800, "/#tiling").await else { return };
    // The 12 pentominoes on 6x10: a tiling drawn, 60 squares in 12 pieces.
    s.until_count("#view-tiling svg.tiling rect.cell", 60, "60 squares").await;
    s.until_value(
        "new Set([...document.querySelectorAll('#view-tiling svg.tiling rect.cell')].map((r) => r.getAttribute('fill'))).size",
        json!(12),
        "12 pieces",
    )
    .await;
    at_first_tiling(&s).await;
    // The first tiling's outline, once drawn (the view shows where it is, then draws it, in one
    // go; and it stays until the click below), read to compare with the next one's.
    let outline =
        "document.querySelector('#view-tiling svg.tiling path.outline')?.getAttribute('d')";
    s.until(&format!("Boolean({outline})"), "the first tiling's outline").await;
    let first = s.js(outline).await;
    s.click("#view-tiling button.next").await;
    s.until_text("#view-tiling .where", Text::Is("tiling 2 of 200+"), "next").await;
    s.until(&format!("((d) => Boolean(d) && d !== {first})({outline})"), "the next tiling differs")
        .await;
    s.page_is_sound().await;
    s.shot("7-tiling-pentominoes").await;

    // 3x20: the count, 8.
    let select = s.client.find(Locator::Css("#view-tiling .toolbar select")).await.unwrap();
    select.select_by_value("pent3x20").await.unwrap();
    s.until("document.querySelector('#view-tiling svg.tiling')?.getAttribute('aria-label').includes('3 by 20') && !document.querySelector('#view-tiling button.count').disabled", "3x20")
        .await;
    s.click("#view-tiling button.count").await;
    s.until_text("#view-tiling dd.total", Text::Is("8"), "8 tilings").await;
    s.shot("7-tiling-3x20-count").await;

    // Dominoes on the chessboard: counted without search.
    select.select_by_value("dom8x8").await.unwrap();
    s.until("document.querySelectorAll('#view-tiling svg.tiling rect.cell').length === 64 && !document.querySelector('#view-tiling button.count').disabled", "8x8")
        .await;
    s.click("#view-tiling button.count").await;
    s.until_text("#view-tiling dd.total", Text::Is("12,988,816"), "12,988,816 domino tilings")
        .await;

    // The target sudoku of the statement's first sample: 2829.
    s.click("#view-tiling .target-part button").await;
    s.until_text("#view-tiling dd.score", Text::Is("2829"), "the best score").await;
    s.until_count("#view-tiling table.target td", 81, "the best grid").await;
    s.until_shown("#view-tiling .target-part .status", "the best score said", |status| {
        status.contains("The best score is 2829")
    })
    .await;
    s.page_is_sound().await;
    s.scroll_to("#view-tiling .target-part").await;
    s.shot("7-tiling-target-sudoku").await;
    s.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_view_fits_a_phone() {
    let Some((s, _server)) = start(390, 844, "/#matrix").await else { return };
    assert_eq!(s.js("[window.innerWidth, window.innerHeight]").await, json!([390, 844]));
    let views = [
        ("matrix", "document.querySelectorAll('#view-matrix table.pick tbody tr').length === 6"),
        ("stepper", "document.querySelectorAll('#view-stepper .count-box').length === 2"),
        ("links", "document.querySelectorAll('#view-links button.node').length === 6"),
        ("build", "document.querySelector('#view-build .where')?.textContent === 'step 0 of 21'"),
        ("sudoku", "document.querySelectorAll('#view-sudoku table.sudoku td').length === 81"),
        (
            "queens",
            "document.querySelector('#view-queens .where')?.textContent === 'solution 1 of 92'",
        ),
        ("tiling", "document.querySelectorAll('#view-tiling svg.tiling rect.cell').length === 60"),
    ];
    for (n, (view, ready)) in views.iter().enumerate() {
        // The number keys open the sections.
        s.key(Key::Escape).await;
        s.type_keys(&(n + 1).to_string()).await;
        s.until(&format!("location.hash === '#{view}'"), "the number key").await;
        s.until(ready, view).await;
        if *view == "matrix" {
            for row in [1, 4, 5] {
                s.click(&format!("#view-matrix tr[data-row=\"{row}\"] button")).await;
            }
            s.until(ALL_GREEN, "all green on a phone").await;
        }
        if *view == "links" {
            s.click("#view-links button[data-node=\"3\"]").await;
        }
        if *view == "build" {
            for _ in 0..16 {
                s.key(Key::Right).await;
            }
        }
        if *view == "sudoku" {
            s.click("#view-sudoku button[data-method=\"both\"]").await;
            s.until(&format!("{SUDOKU_FILLED} === 81"), "solved on a phone").await;
        }
        if *view == "queens" {
            s.key(Key::End).await;
            s.until_text("#view-queens .where", Text::Is("solution 92 of 92"), "92 on a phone")
                .await;
        }
        s.page_is_sound().await;
        s.shot(&format!("narrow-{}-{view}", n + 1)).await;
    }
    // The target sudoku, further down the tilings section.
    s.click("#view-tiling .target-part button").await;
    s.until_text("#view-tiling dd.score", Text::Is("2829"), "2829 on a phone").await;
    s.scroll_to("#view-tiling .target-part").await;
    s.page_is_sound().await;
    s.shot("narrow-7-tiling-target-sudoku").await;
    s.close().await;
}

/// The tiling view's watch part: a tiling's search played on a small board.
const TILING_WATCH: &str = "#view-tiling .tiling-watch";

/// The search for the 36 domino tilings of 4x4 watched on the board, whole: the chosen
/// column named (a square), dominoes placed and taken back, the node counter running, play
/// and pause, the keys of the part, the end; then a board whose trace the event limit cuts.
/// At `width` x `height`.
async fn tiling_watch(width: u32, height: u32, tag: &str) {
    let Some((s, _server)) = start(width, height, "/#tiling").await else { return };
    let w = Part { s: &s, css: TILING_WATCH };
    w.until_text(".tiling-watch-status", Text::StartsWith("The whole search"), "the 4x4 trace")
        .await;
    w.until_count("table.tiling-watch-table td", 16, "the 4x4 board").await;
    w.until_count("td.placed", 0, "nothing placed").await;
    w.until_shown(".tiling-watch-chosen", "no column chosen", |c| c == "Chosen column: none yet")
        .await;
    // Step: a square chosen (named, and marked on the board), then a domino placed.
    w.press(4).await;
    w.until_text(
        ".tiling-watch-chosen",
        Text::StartsWith("Chosen column: square ("),
        "a square chosen",
    )
    .await;
    w.until_count("td.chosen", 1, "the chosen square marked").await;
    w.press(4).await;
    s.until_count(&w.at("td.placed"), 2, "a domino placed").await;
    w.until_count("td.placed.trying", 2, "the domino tried").await;
    w.until_shown(".event", "the domino placed said", |event| {
        event.starts_with("Level 0: place a piece on (")
    })
    .await;
    w.until_shown("dd.pieces-count", "one piece", |n| n == "1").await;
    // A key pressed in the part steps its player (elsewhere the keys browse the tilings).
    w.key(Key::Right).await;
    w.until_text(".where", Text::StartsWith("step 3 of "), "the key").await;
    at_first_tiling(&s).await;
    // Play, then pause: the node counter runs, pieces come and go. (Paused early: the first
    // tiling comes at node 9, and under load the player may take a few steps more before the
    // pause lands; once it passed the tiling, the board below would not be full.)
    w.play_to("dd.nodes", 3).await;
    w.shot(&format!("{tag}-tiling-watch-4x4-playing")).await;
    // Back to a tiling: step until the first one is found, the board full.
    w.step_until(
        "part.querySelector('dd.solutions-count').textContent === '1'",
        200,
        "the first tiling",
    )
    .await;
    w.until_count("td.placed", 16, "the board full").await;
    w.until_count("td.open", 0, "no square open").await;
    w.until_shown(".event", "the tiling said", |event| event.starts_with("Tiling 1 found")).await;
    // Jump to the end: the 36 tilings, every domino taken back.
    w.end_of_search("36", "td.placed").await;
    w.until_shown(".tiling-watch-status", "36 tilings said", |status| {
        status.contains(" 36 tilings")
    })
    .await;
    // The pentominoes on 5x5: the trace is cut by the event limit, and the page says so.
    w.pick(1, "pent5x5").await;
    let shot = format!("{tag}-tiling-watch-cut");
    w.cut_after(".tiling-watch-status", "20,000", "table.tiling-watch-table td", 25, &shot).await;
    s.close().await;
}

desktop_and_phone!(
    tiling_search_is_watched_on_a_small_board,
    tiling_search_watched_fits_a_phone,
    tiling_watch,
    "7"
);
