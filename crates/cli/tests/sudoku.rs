//! `dancecard sudoku`.

use crate::util::{dancecard, json_output, run_on, run_with, stderr, stdout, testdata};

const FOUR: &str = "12..........3..4\n";

fn lines(path: &str) -> Vec<String> {
    std::fs::read_to_string(testdata(path))
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().next().unwrap().to_owned())
        .collect()
}

#[test]
fn solves_lines_in_order_with_both_methods() {
    let expected = lines("sudoku/emerentius_lines/solved_hard_sudokus.txt").join("\n") + "\n";
    for method in ["fast", "dlx"] {
        let out =
            run_on(&["sudoku", "--method", method], "sudoku/emerentius_lines/hard_sudokus.txt");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(stdout(&out), expected);
    }
}

#[test]
fn counts_match_tdoku_ground_truth() {
    let text = std::fs::read_to_string(testdata("sudoku/tdoku_test_puzzles")).unwrap();
    let expected: String = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| format!("{}\n", l.split(':').nth(1).unwrap()))
        .collect();
    // In `puzzle:count:solution` the colon is not whitespace: feed the puzzles alone.
    let puzzles: String =
        text.lines().filter(|l| !l.is_empty()).map(|l| format!("{}\n", &l[..81])).collect();
    for method in ["fast", "dlx"] {
        let out = run_with(&["sudoku", "--count", "--method", method, "-"], puzzles.clone());
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(stdout(&out), expected);
        assert_eq!(stderr(&out), "");
    }
}

#[test]
fn unique_mode_and_threads() {
    let text = std::fs::read_to_string(testdata("sudoku/tdoku_test_puzzles")).unwrap();
    let puzzles: String = text.lines().map(|l| format!("{}\n", &l[..81])).collect();
    let expected: String = text
        .lines()
        .map(|l| match l.split(':').nth(1).unwrap() {
            "0" => "none\n",
            "1" => "unique\n",
            _ => "multiple\n",
        })
        .collect();
    for threads in ["1", "2"] {
        let out = run_with(&["sudoku", "--unique", "--threads", threads, "-"], puzzles.clone());
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(stdout(&out), expected);
    }
}

#[test]
fn threads_keep_the_order() {
    let path = testdata("sudoku/puzzles6_forum_hardest_1106");
    let one = dancecard().arg("sudoku").arg(&path).output().unwrap();
    let two = dancecard().args(["sudoku", "--threads", "2"]).arg(&path).output().unwrap();
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(stdout(&one).lines().count(), 375);
    assert_eq!(stdout(&one), stdout(&two));
}

#[test]
fn invalid_puzzles_are_reported_and_others_solved() {
    let path = testdata("sudoku/emerentius_lines/invalid_sudokus.txt");
    for method in ["fast", "dlx"] {
        let out = dancecard().args(["sudoku", "--method", method]).arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        // One blank line per puzzle: none is solved, and the output stays in step.
        assert_eq!(stdout(&out), "\n".repeat(7), "every invalid sudoku must be rejected");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 7, "{err}");
        assert!(err.contains("line 1: value 5 is given twice in box 5"), "{err}");
        assert!(err.contains("line 4: no solution"), "{err}");
    }
    let text = format!("{FOUR}1234\n# comment\n11..............\n12..........3..4 trailing\n");
    let out = run_with(&["sudoku", "-"], text);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "1243431224313124\n\n\n1243431224313124\n");
    let err = stderr(&out);
    assert!(err.contains("error: <stdin>: line 2: 4 cells, expected 16, 81, 256 or 625"), "{err}");
    assert!(err.contains("error: <stdin>: line 4: value 1 is given twice in row 1"), "{err}");
    let out = run_with(&["sudoku", "-"], "12x4............\n");
    assert_eq!(out.status.code(), Some(2), "nothing valid is bad input");
    assert_eq!(stdout(&out), "");
    assert!(stderr(&out).contains("line 1, column 3: bad symbol `x` for a 4x4 grid"));
}

#[test]
fn count_alone_on_stdout_and_stats_on_stderr() {
    let out = run_with(&["sudoku", "--count", "--stats", "-"], "................\n");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "288\n");
    let err = stderr(&out);
    assert!(err.contains("line 1: nodes "), "{err}");
    assert!(err.contains("puzzles 1 failed 0 nodes "), "{err}");
    assert!(err.contains("puzzles/s"), "{err}");
}

#[test]
fn rectangular_boxes_and_number_grids() {
    let six = "1 2 3 4 5 6\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n";
    let out =
        dancecard().args(["sudoku", "--box", "2x3", "--count", "-"]).write_stdin(six).output();
    let out = out.unwrap();
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(0), "39168\n"));
    // Without --box, six numbers a row is not a square shape.
    let out = run_with(&["sudoku", "-"], six);
    assert_eq!(out.status.code(), Some(2));
    let grid = "1 0 0 0\n0 0 0 0\n0 0 2 0\n0 0 0 3\n";
    let out = run_with(&["sudoku", "--unique", "-"], grid);
    assert_eq!(stdout(&out), "multiple\n");
    let out = run_with(&["sudoku", "--box", "3x4", "-"], FOUR);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("16 cells, expected 144 (12x12 grid, boxes 3x4)"));
}

#[test]
fn json_document() {
    let out = run_with(
        &["sudoku", "--unique", "--format", "json", "--method", "dlx", "-"],
        format!("{FOUR}xx\n"),
    );
    let v = json_output(&out, 1);
    let first = &v["puzzles"][0];
    assert_eq!(first["line"], 1);
    assert_eq!(first["solution"], "1243431224313124");
    assert_eq!(first["uniqueness"], "unique");
    assert_eq!(first["count"], 1);
    assert!(first["nodes"].as_u64().unwrap() > 0);
    assert_eq!(v["puzzles"][1]["line"], 2);
    assert!(v["puzzles"][1]["error"].as_str().unwrap().contains("2 cells"));
    assert_eq!(v["summary"]["puzzles"], 2);
    assert_eq!(v["summary"]["failed"], 1);
    assert_eq!(v["summary"]["method"], "dlx");
}

#[test]
fn emit_dlx_round_trips_through_solve() {
    let out = run_with(&["sudoku", "--emit-dlx", "-"], FOUR);
    assert_eq!(out.status.code(), Some(0));
    let dlx = stdout(&out);
    assert!(dlx.starts_with("| sudoku, line 1: 12..........3..4\n"), "{dlx}");
    let out = run_with(&["solve", "--count", "-"], dlx);
    assert_eq!(stdout(&out), "1\n");
}

#[test]
fn big_grids_from_the_generator() {
    use dancecard_models::sudoku::{generate, Shape};
    let mut text = String::new();
    let mut expected = String::new();
    for (n, blanks) in [(4, 140), (5, 250)] {
        let g = generate(Shape::square(n).unwrap(), 11, blanks);
        text.push_str(&format!("{}\n", g.puzzle));
        expected.push_str(&format!("{}\n", g.solution));
    }
    for method in ["fast", "dlx"] {
        let out = run_with(&["sudoku", "--method", method, "-"], text.clone());
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(stdout(&out), expected);
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["sudoku", "--count", "--unique"][..],
        &["sudoku", "--method", "best"],
        &["sudoku", "--box", "2by3"],
        &["sudoku", "--box", "7x7"],
        &["sudoku", "--threads", "1025"],
        &["sudoku", "/nonexistent/puzzles.txt"],
    ] {
        let out = dancecard().args(args).write_stdin(FOUR).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    // 0 threads: one per core, as in the other commands.
    let out = run_with(&["sudoku", "--threads", "0"], FOUR);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = run_with(&["sudoku", "-"], "# nothing\n\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no puzzle"));
    let help = dancecard().args(["sudoku", "--help"]).output().unwrap();
    assert!(stdout(&help).contains("Examples:"));
}
