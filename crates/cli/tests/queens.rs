//! `dancecard queens`.

use crate::util::{
    dancecard, ground_truth, ground_truth_up_to, json_output, run_with, stderr, stdout, testdata,
};

fn run(args: &[&str]) -> std::process::Output {
    dancecard().arg("queens").args(args).output().unwrap()
}

#[test]
fn first_solution_is_a_board() {
    let out = run(&["8"]);
    assert_eq!(out.status.code(), Some(0));
    let board = stdout(&out);
    assert_eq!(board.lines().count(), 8);
    assert!(board.lines().all(|l| l.matches('Q').count() == 1 && l.len() == 15));
    // Bitwise backtracking finds the lexicographically first board.
    let bits = stdout(&run(&["8", "--method", "bits"]));
    let files: Vec<usize> =
        bits.lines().map(|l| l.split(' ').position(|s| s == "Q").unwrap()).collect();
    assert_eq!(files, [0, 4, 7, 5, 2, 6, 1, 3]);
}

#[test]
fn counts_by_both_methods_against_oeis() {
    for (n, row) in ground_truth_up_to("nqueens.tsv", 10) {
        for method in ["bits", "dlx"] {
            let m = ["--method", method];
            let out = run(&[&row[0], "--count", m[0], m[1]]);
            assert_eq!(
                (out.status.code(), stdout(&out).trim()),
                (Some(0), row[1].as_str()),
                "n={n}"
            );
            let out = run(&[&row[0], "--distinct", m[0], m[1]]);
            assert_eq!(stdout(&out).trim(), row[2], "distinct n={n} {method}");
        }
    }
}

#[test]
fn sixteen_queens_by_bits_on_two_threads() {
    let row = ground_truth("nqueens.tsv").into_iter().find(|r| r[0] == "16").unwrap();
    let out = run(&["16", "--count", "--threads", "2", "--format", "json"]);
    let v = json_output(&out, 0);
    assert_eq!(v["count"].to_string(), row[1]);
    assert_eq!(v["distinct"].to_string(), row[2]);
    assert_eq!(v["complete"], true);
    assert_eq!(v["method"], "bits");
    assert!(v["stats"]["nodes"].as_u64().unwrap() > 0);
}

#[test]
fn all_solutions_and_json() {
    let out = run(&["6", "--all"]);
    let text = stdout(&out);
    assert_eq!(text.split("\n\n").count(), 4);
    let out = run(&["8", "--all", "--limit", "5", "--format", "json", "--method", "bits"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let boards = v["solutions"].as_array().unwrap();
    assert_eq!(boards.len(), 5);
    assert_eq!(boards[0], serde_json::json!([0, 4, 7, 5, 2, 6, 1, 3]));
    assert_eq!(v["count"], 5);
    let out = run(&["8", "--all", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["solutions"].as_array().unwrap().len(), 92);
    // The tree of Knuth's DLX1 on testdata/instances/queens8.dlx.
    assert_eq!(v["stats"]["nodes"], 1049);
}

#[test]
fn emitted_model_matches_the_instance_file() {
    let out = run(&["8", "--emit-dlx"]);
    assert_eq!(out.status.code(), Some(0));
    let emitted = stdout(&out);
    let items = emitted.lines().nth(1).unwrap();
    let file = std::fs::read_to_string(testdata("instances/queens8.dlx")).unwrap();
    let primary = file.lines().nth(1).unwrap().split(" | ").next().unwrap();
    // Ranks and files in the same organ-pipe order; diagonals follow, 6n - 2 items in all.
    assert!(items.starts_with(&format!("{primary} | ")), "{items}");
    assert_eq!(items.split_whitespace().filter(|&w| w != "|").count(), 46);
    let solved = run_with(&["solve", "--count", "--stats", "--method", "search", "-"], emitted);
    assert_eq!(stdout(&solved), "92\n");
    assert!(stderr(&solved).contains("nodes 1049 "), "{}", stderr(&solved));
}

#[test]
fn no_solution_and_bad_input() {
    let out = run(&["3"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no solution"));
    let out = run(&["2", "--count"]);
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(0), "0\n"));
    for bad in [
        &["0"][..],
        &["33", "--count"],
        &["8", "--threads", "2"],
        &["x"],
        &["8", "--all", "--count"],
    ] {
        let out = run(bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
    let out = run(&["0"]);
    assert!(stderr(&out).contains("between 1 and"), "{}", stderr(&out));
}

#[test]
fn help_has_examples() {
    let help = stdout(&run(&["--help"]));
    assert!(help.contains("Examples:") && help.contains("Exit codes:"));
}

#[test]
fn a_count_with_a_limit_stops_there() {
    // The bitwise counter counts whole orbits and cannot stop at N: a limit runs on dlx. A
    // count cut by its limit is not the count: it says so, and exits 3 (#28).
    for (args, expected, code) in [
        (&["8", "--count", "--limit", "5"][..], "5\n", 3),
        (&["8", "--count", "--limit", "0"][..], "0\n", 3),
        (&["8", "--count", "--limit", "0", "--method", "dlx"][..], "0\n", 3),
        (&["8", "--count", "--limit", "1000"][..], "92\n", 0),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
        assert_eq!(stdout(&out), expected, "{args:?}");
        let partial = stderr(&out).contains("incomplete: the solution limit (--limit) was reached");
        assert_eq!(partial, code == 3, "{args:?}: {}", stderr(&out));
    }
    let out = run(&["8", "--count", "--limit", "5", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!((json["count"].as_u64(), json["complete"].as_bool()), (Some(5), Some(false)));
    assert_eq!(json["stop"], "solution-limit");
    let out = run(&["8", "--count", "--limit", "5", "--method", "bits"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--limit with a count needs --method dlx"));
}

/// Where the DLX search's first board takes millions of nodes (n = 52, 64, ...), the command
/// restarts on shuffled options and prints a board at once; `--stats` says so.
#[test]
fn large_boards_do_not_stall() {
    let out = run(&["64", "--stats"]);
    assert_eq!(out.status.code(), Some(0));
    let board = stdout(&out);
    let files: Vec<usize> =
        board.lines().map(|l| l.split(' ').position(|s| s == "Q").unwrap()).collect();
    assert_eq!(files.len(), 64);
    let attack =
        |(r, a): (usize, usize), (s, b): (usize, usize)| a == b || r.abs_diff(s) == a.abs_diff(b);
    for (r, &a) in files.iter().enumerate() {
        assert!(files[..r].iter().enumerate().all(|(s, &b)| !attack((r, a), (s, b))));
    }
    assert!(stderr(&out).contains("restarts 1"), "{}", stderr(&out));
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&run(&["64", "--format", "json"]))).unwrap();
    assert_eq!((v["restarts"].as_u64(), v["complete"].as_bool()), (Some(1), Some(true)));
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&run(&["8", "--format", "json"]))).unwrap();
    assert_eq!(v["restarts"].as_u64(), Some(0));
}
