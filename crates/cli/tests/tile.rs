//! `dancecard tile`.

use crate::util::{dancecard, ground_truth, json_output, stderr, stdout, temp_file};

fn run(args: &[&str]) -> std::process::Output {
    dancecard().arg("tile").args(args).output().unwrap()
}

fn count(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    stdout(&out).trim().to_owned()
}

#[test]
fn pentominoes_on_6x10() {
    let row = ground_truth("polyomino_tilings.tsv").into_iter().find(|r| r[3] == "6x10").unwrap();
    let words: Vec<&str> = row[4].split_whitespace().collect();
    let (distinct, total) = (words[0], words[3]);
    let out = run(&[
        "--board",
        "6x10",
        "--pieces",
        "pentominoes",
        "--once",
        "--distinct",
        "--format",
        "json",
    ]);
    let v = json_output(&out, 0);
    assert_eq!(v["count"].to_string(), total);
    assert_eq!(v["distinct"].to_string(), distinct);
    // The same tree as Knuth's DLX1 on testdata/instances/pent6x10.dlx (same item order).
    assert_eq!(v["stats"]["nodes"], 3_637_261);
}

#[test]
fn first_tiling_uses_the_piece_letters() {
    let out = run(&["--board", "6x10", "--pieces", "pentominoes", "--once"]);
    assert_eq!(out.status.code(), Some(0));
    let art = stdout(&out);
    assert_eq!(art.lines().count(), 6);
    for letter in "FILNPTUVWXYZ".chars() {
        assert_eq!(art.matches(letter).count(), 5, "{letter} in\n{art}");
    }
}

#[test]
fn dominoes_by_dlx_and_dp() {
    for row in ground_truth("domino_tilings.tsv") {
        let (m, n): (usize, usize) = (row[0].parse().unwrap(), row[1].parse().unwrap());
        let board = format!("{m}x{n}");
        if m * n % 2 == 1 {
            // Odd areas cannot be tiled: a clear error rather than a count.
            assert_eq!(row[2], "0");
            let out = run(&["--board", &board, "--pieces", "dominoes", "--count"]);
            assert_eq!(out.status.code(), Some(2));
            assert!(stderr(&out).contains("covers exactly"), "{}", stderr(&out));
            continue;
        }
        if m <= 8 && n <= 8 {
            let dp =
                count(&["--board", &board, "--pieces", "dominoes", "--count", "--method", "dp"]);
            assert_eq!(dp, row[2], "dp {board}");
        }
        // Every board by DLX too: the large ones by the memoised count, which auto picks.
        let dlx = count(&["--board", &board, "--pieces", "dominoes", "--count", "--method", "dlx"]);
        assert_eq!(dlx, row[2], "dlx {board}");
    }
}

/// An Aztec diamond of order `n`: rows of 2, 4, ..., 2n, 2n, ..., 2 cells, centred.
fn aztec(n: usize) -> String {
    let rows: Vec<String> = (0..n)
        .map(|i| {
            format!("{}{}{}", ".".repeat(n - i - 1), "#".repeat(2 * i + 2), ".".repeat(n - i - 1))
        })
        .collect();
    let mut all = rows.clone();
    all.extend(rows.into_iter().rev());
    all.join("\n") + "\n"
}

// The Aztec diamond of order n has 2^(n(n+1)/2) domino tilings (Elkies, Kuperberg, Larsen and
// Propp, 1992): a board the profile DP does not take, counted by memo.
#[test]
fn aztec_diamonds_by_memo() {
    let dir = tempfile::tempdir().unwrap();
    for n in [1usize, 2, 5, 8, 10] {
        let path = dir.path().join(format!("aztec{n}.txt"));
        std::fs::write(&path, aztec(n)).unwrap();
        let board = path.to_str().unwrap();
        let out = run(&["--board", board, "--pieces", "dominoes", "--count", "--format", "json"]);
        let v = json_output(&out, 0);
        let expected = 1u128 << (n * (n + 1) / 2);
        assert_eq!(v["count"].to_string().trim_matches('"'), expected.to_string(), "order {n}");
        if n >= 2 {
            // (Order 1 is a 2 x 2 square: the profile DP counts it.)
            assert_eq!(v["method"], "dlx");
        }
        if n >= 8 {
            assert_eq!(v["count_method"], "memo", "order {n}");
        }
    }
}

#[test]
fn twelve_by_twelve_dominoes_by_dp() {
    let row = ground_truth("domino_tilings.tsv")
        .into_iter()
        .find(|r| r[0] == "12" && r[1] == "12")
        .unwrap();
    // --method auto picks the profile DP for a count of a rectangle.
    let out = run(&["--board", "12x12", "--pieces", "dominoes", "--count", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["method"], "dp");
    assert_eq!(v["count"].to_string(), row[2]);
}

#[test]
fn strips_of_trominoes_and_tetrominoes() {
    // The ground truth's strips: its piece column, our set name, the strip's height.
    const STRIPS: [(&str, &str, usize); 2] =
        [("I3,L3", "trominoes", 3), ("tetrominoes", "tetrominoes", 4)];
    for row in ground_truth("polyomino_tilings.tsv") {
        let Some(&(_, set, height)) = STRIPS.iter().find(|s| s.0 == row[1]) else { continue };
        for (n, expected) in row[4].split(',').enumerate().skip(1) {
            let board = format!("{height}x{n}");
            assert_eq!(
                count(&["--board", &board, "--pieces", set, "--count"]),
                expected,
                "{set} {board}"
            );
            if n <= 5 {
                let dlx =
                    count(&["--board", &board, "--pieces", set, "--count", "--method", "dlx"]);
                assert_eq!(dlx, expected, "dlx {set} {board}");
            }
        }
    }
}

#[test]
fn boards_with_holes_and_piece_files() {
    // A 3x3 ring: 8 cells, no centre.
    let board = temp_file("###\n#.#\n###\n");
    let pieces = temp_file("bar\n##\n\nL\n#.\n##\n");
    let b = board.path().to_str().unwrap();
    let p = pieces.path().to_str().unwrap();
    // Dominoes around a ring of 8: 2 tilings; up to the square's symmetries, 1.
    assert_eq!(count(&["--board", b, "--pieces", "dominoes", "--count"]), "2");
    assert_eq!(count(&["--board", b, "--pieces", "dominoes", "--distinct"]), "1");
    let out = run(&["--board", b, "--pieces", "dominoes"]);
    let art = stdout(&out);
    assert_eq!(art.lines().nth(1).unwrap().chars().nth(1), Some('.'), "{art}");
    // The DP needs a full rectangle.
    let out = run(&["--board", b, "--pieces", "dominoes", "--count", "--method", "dp"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("full rectangles"));
    // Two L trominoes and a domino on the ring: every piece once.
    assert!(count(&["--board", b, "--pieces", p, "--count"]).parse::<u64>().unwrap() > 0);
    let out = run(&["--board", b, "--pieces", p, "--once", "--count"]);
    assert_eq!(out.status.code(), Some(2), "5 cells of pieces for 8 cells");
    assert!(stderr(&out).contains("the pieces cover 5 cells in all but the board has 8"));
}

#[test]
fn no_flip_and_dp_agree() {
    let free = count(&["--board", "4x6", "--pieces", "tetrominoes", "--count"]);
    let dp = count(&["--board", "4x6", "--pieces", "tetrominoes", "--count", "--no-flip"]);
    let dlx = count(&[
        "--board",
        "4x6",
        "--pieces",
        "tetrominoes",
        "--count",
        "--no-flip",
        "--method",
        "dlx",
    ]);
    assert_eq!(dp, dlx);
    assert!(dp.parse::<u64>().unwrap() < free.parse::<u64>().unwrap());
}

#[test]
fn all_limit_json_and_emit() {
    let out = run(&["--board", "2x4", "--pieces", "dominoes", "--all"]);
    assert_eq!(stdout(&out).split("\n\n").count(), 5);
    let out = run(&[
        "--board", "2x3", "--pieces", "dominoes", "--all", "--limit", "2", "--format", "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["solutions"].as_array().unwrap().len(), 2);
    assert_eq!(v["solutions"][0].as_array().unwrap().len(), 2);
    let out = run(&["--board", "6x10", "--pieces", "pentominoes", "--once", "--emit-dlx"]);
    let emitted = stdout(&out);
    let mut lines = emitted.lines().skip(1);
    let items = lines.next().unwrap();
    assert!(items.starts_with("F I L N P T U V W X Y Z 00 01"), "{items}");
    assert_eq!(lines.count(), 2056);
}

#[test]
fn bad_boards_and_pieces() {
    let cases: [(&[&str], &str); 7] = [
        (&["--board", "0x5", "--pieces", "dominoes"], "no cell"),
        (&["--board", "4x4", "--pieces", "octominoes"], "neither a set name"),
        (&["--board", "/nonexistent/board.txt", "--pieces", "dominoes"], "cannot read board file"),
        (&["--board", "6x6", "--pieces", "pentominoes", "--once"], "the pieces cover 60 cells"),
        (
            &["--board", "4x4", "--pieces", "dominoes", "--once", "--count", "--method", "dp"],
            "cells in all",
        ),
        (
            &["--board", "2x2", "--pieces", "dominoes", "--distinct", "--method", "dp"],
            "--distinct needs",
        ),
        (&["--board", "2x2", "--pieces", "dominoes", "--method", "dp"], "only counts"),
    ];
    for (args, message) in cases {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
    let empty = temp_file("...\n. .\n");
    let out = run(&["--board", empty.path().to_str().unwrap(), "--pieces", "dominoes"]);
    assert!(stderr(&out).contains("no cell"));
    let split = temp_file("#.#\n");
    let out = run(&["--board", "2x2", "--pieces", split.path().to_str().unwrap()]);
    assert!(stderr(&out).contains("not connected"), "{}", stderr(&out));
    let blank = temp_file("A\n...\n");
    let out = run(&["--board", "2x2", "--pieces", blank.path().to_str().unwrap()]);
    assert!(stderr(&out).contains("has no cell"), "{}", stderr(&out));
    let once_dp =
        run(&["--board", "2x2", "--pieces", "dominoes", "--once", "--count", "--method", "dp"]);
    assert_eq!(once_dp.status.code(), Some(2));
    assert!(stdout(&run(&["--help"])).contains("Examples:"));
}

#[test]
fn a_count_with_a_limit_stops_there() {
    // The profile DP cannot stop at N tilings: a limit runs on dlx. A count cut by its limit
    // is not the count: it prints what it counted, says so, and exits 3 (#28).
    let limited = |args: &[&str]| {
        let out = run(args);
        assert_eq!(out.status.code(), Some(3), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("the solution limit (--limit) was reached"), "{args:?}");
        stdout(&out).trim().to_owned()
    };
    assert_eq!(
        limited(&["--board", "8x8", "--pieces", "dominoes", "--count", "--limit", "5"]),
        "5"
    );
    assert_eq!(
        limited(&["--board", "4x4", "--pieces", "dominoes", "--count", "--limit", "0"]),
        "0"
    );
    let args = ["--board", "6x10", "--pieces", "pentominoes", "--once", "--count", "--limit", "0"];
    assert_eq!(limited(&args), "0");
    let args = ["--board", "4x4", "--pieces", "dominoes", "--count", "--limit", "3", "--method"];
    assert_eq!(limited(&[&args[..], &["dlx"]].concat()), "3");
    // A limit the count does not reach: the whole count.
    let args = ["--board", "4x4", "--pieces", "dominoes", "--count", "--limit", "50", "--method"];
    assert_eq!(count(&[&args[..], &["dlx"]].concat()), "36");
    let out = run(&[&args[..], &["dp"]].concat());
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--limit needs --method dlx"), "{}", stderr(&out));
}
