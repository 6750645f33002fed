//! `dancecard target-sudoku`.

use crate::util::{dancecard, run_with, stderr, stdout, testdata};

fn run_file(args: &[&str], file: &str) -> std::process::Output {
    dancecard().arg("target-sudoku").args(args).arg(testdata(file)).output().unwrap()
}

fn expected(file: &str) -> String {
    std::fs::read_to_string(testdata(file)).unwrap().trim().to_owned()
}

fn weight(r: usize, c: usize) -> u64 {
    10 - r.abs_diff(4).max(c.abs_diff(4)) as u64
}

#[test]
fn samples_score_as_the_statement_says() {
    for (input, output) in [
        ("target-sudoku/sample1.in", "target-sudoku/sample1.out"),
        ("target-sudoku/sample2.in", "target-sudoku/sample2.out"),
    ] {
        let out = run_file(&[], input);
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(stdout(&out).trim(), expected(output), "{input}");
    }
}

#[test]
fn filled_grid_scores_itself() {
    let out = run_file(&[], "target-sudoku/statement_filled_grid_2829.txt");
    assert_eq!(stdout(&out).trim(), "2829");
}

#[test]
fn best_grid_completes_the_puzzle_and_has_the_score() {
    let out = run_file(&["--grid"], "target-sudoku/sample1.in");
    let text = stdout(&out);
    let mut lines = text.lines();
    let score: u64 = lines.next().unwrap().parse().unwrap();
    let grid: Vec<Vec<u64>> =
        lines.map(|l| l.split(' ').map(|d| d.parse().unwrap()).collect()).collect();
    assert_eq!(grid.len(), 9);
    let puzzle = std::fs::read_to_string(testdata("target-sudoku/sample1.in")).unwrap();
    let mut total = 0;
    for (r, (row, given)) in grid.iter().zip(puzzle.lines()).enumerate() {
        let mut seen: Vec<u64> = row.clone();
        seen.sort_unstable();
        assert_eq!(seen, (1..=9).collect::<Vec<u64>>());
        for (c, (&d, g)) in row.iter().zip(given.split_whitespace()).enumerate() {
            assert!(g == "0" || g.parse::<u64>().unwrap() == d);
            total += d * weight(r, c);
        }
    }
    for c in 0..9 {
        let mut col: Vec<u64> = grid.iter().map(|row| row[c]).collect();
        col.sort_unstable();
        assert_eq!(col, (1..=9).collect::<Vec<u64>>());
    }
    assert_eq!(total, score);
}

#[test]
fn unsolvable_gives_minus_one() {
    // Row 1 holds 1..8 and column 0 a 9 below: the top-left square has no digit left.
    let mut text = String::from("0 1 2 3 4 5 6 7 8\n9 0 0 0 0 0 0 0 0\n");
    text.push_str(&"0 0 0 0 0 0 0 0 0\n".repeat(7));
    let out = run_with(&["target-sudoku", "-"], text);
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(1), "-1\n"));
    let out = dancecard()
        .args(["target-sudoku", "--format", "json"])
        .write_stdin(
            "5".repeat(81)
                .as_bytes()
                .chunks(9)
                .map(|c| String::from_utf8(c.to_vec()).unwrap() + "\n")
                .collect::<String>(),
        )
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["score"], -1);
    assert_eq!(v["grid"], serde_json::Value::Null);
}

#[test]
fn bad_input_exits_2() {
    for text in ["", "123\n", &"1234567890\n".repeat(9), &"12345678x\n".repeat(9)] {
        let out = run_with(&["target-sudoku", "-"], text);
        assert_eq!(out.status.code(), Some(2), "{text:?}");
        assert!(stderr(&out).starts_with("error: <stdin>: "), "{}", stderr(&out));
    }
}

#[test]
fn emit_dlx_and_help() {
    let out = run_file(&["--emit-dlx"], "target-sudoku/statement_filled_grid_2829.txt");
    let solved = run_with(&["solve", "--count", "-"], stdout(&out));
    assert_eq!(stdout(&solved), "1\n");
    let out = dancecard().args(["target-sudoku", "--help"]).output().unwrap();
    assert!(stdout(&out).contains("Examples:"));
}

#[test]
fn limits_print_the_best_found_as_a_lower_bound() {
    let empty = "0 0 0 0 0 0 0 0 0\n".repeat(9);
    let out = run_with(&["target-sudoku", "--node-limit", "200", "-"], empty.clone());
    assert_eq!(out.status.code(), Some(3));
    let score: u64 = stdout(&out).trim().parse().unwrap();
    assert!(score > 0, "a completion is found within 200 nodes");
    assert!(stderr(&out).contains("incomplete: the node limit was reached"), "{}", stderr(&out));

    let out = run_with(&["target-sudoku", "--time-limit", "0.2", "--format", "json", "-"], empty);
    assert_eq!(out.status.code(), Some(3));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["complete"], false);
    assert_eq!(json["stop"], "time-limit");
    assert!(json["score"].as_i64().unwrap() > 0);
    assert!(stderr(&out).contains("incomplete: the time limit was reached"), "{}", stderr(&out));

    // Stopped before a first grid: no score (-1 would read as "no solution").
    let out = run_file(&["--node-limit", "0"], "target-sudoku/sample1.in");
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(stdout(&out), "");
    assert!(stderr(&out).contains("before a first grid was found"), "{}", stderr(&out));
    let out = run_file(&["--node-limit", "0", "--format", "json"], "target-sudoku/sample1.in");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((&json["score"], &json["complete"]), (&serde_json::Value::Null, &false.into()));

    let out = run_file(&["--time-limit=-1"], "target-sudoku/sample1.in");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--time-limit must be a number of seconds"), "{}", stderr(&out));
}

// See: #19 (the target sudoku as minimum-cost exact cover).
#[test]
fn issue_19_both_methods_print_the_same_score() {
    for (input, output) in [
        ("target-sudoku/sample1.in", "target-sudoku/sample1.out"),
        ("target-sudoku/sample2.in", "target-sudoku/sample2.out"),
    ] {
        let want = expected(output);
        for method in ["xc", "bb"] {
            let out = run_file(&["--method", method], input);
            assert_eq!(out.status.code(), Some(0), "{method} {input}");
            assert_eq!(stdout(&out).trim(), want, "{method} {input}");
            let out = run_file(&["--method", method, "--format", "json"], input);
            let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(json["score"].to_string(), want, "{method} {input}");
            assert_eq!((&json["complete"], &json["stop"]), (&true.into(), &"exhausted".into()));
            assert!(json["stats"]["nodes"].as_u64().unwrap() > 0);
        }
    }
    let default = run_file(&[], "target-sudoku/sample2.in");
    let bb = run_file(&["--method", "bb", "--grid"], "target-sudoku/sample2.in");
    let xc = run_file(&["--method", "xc", "--grid"], "target-sudoku/sample2.in");
    assert_eq!(stdout(&default).lines().next(), stdout(&xc).lines().next());
    assert_eq!(stdout(&bb).lines().count(), 10);
    assert_eq!(stdout(&xc).lines().count(), 10);
}

#[test]
fn issue_19_exact_cover_limits_and_no_solution() {
    let mut text = String::from("0 1 2 3 4 5 6 7 8\n9 0 0 0 0 0 0 0 0\n");
    text.push_str(&"0 0 0 0 0 0 0 0 0\n".repeat(7));
    let out = run_with(&["target-sudoku", "--method", "xc", "-"], text);
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(1), "-1\n"));

    let empty = "0 0 0 0 0 0 0 0 0\n".repeat(9);
    let out = run_with(
        &["target-sudoku", "--method", "xc", "--node-limit", "200", "--stats", "-"],
        empty,
    );
    assert_eq!(out.status.code(), Some(3));
    assert!(stdout(&out).trim().parse::<u64>().unwrap() > 0);
    assert!(stderr(&out).contains("nodes 200 "), "{}", stderr(&out));
    assert!(stderr(&out).contains("incomplete: the node limit was reached"), "{}", stderr(&out));

    let out = run_file(&["--method", "xc", "--node-limit", "0"], "target-sudoku/sample1.in");
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(3), ""));
}

#[test]
fn issue_19_emit_dlx_with_costs_solves_to_the_score() {
    // A least cost c scores 10 * 570 - c (570: the total weight of the squares).
    let out = run_file(&["--method", "xc", "--emit-dlx"], "target-sudoku/sample1.in");
    assert!(stdout(&out).contains(" |"), "costs are written");
    let solved = run_with(&["solve", "--min-cost", "-"], stdout(&out));
    let want: u64 = expected("target-sudoku/sample1.out").parse().unwrap();
    assert_eq!(stdout(&solved).lines().next(), Some(format!("cost {}", 5700 - want).as_str()));
    let help = dancecard().args(["target-sudoku", "--help"]).output().unwrap();
    assert!(stdout(&help).contains("Default bb"), "{}", stdout(&help));
}
