//! `dancecard pre`: DLX-PRE's figures on pent6x10 (144 of 2,056 options, 0 items, 2
//! rounds), and the reduced problem's count equal to the original's.

use crate::util::{run_on, run_with, stderr, stdout};

#[test]
fn pent6x10_loses_144_options_and_keeps_its_count() {
    let out = run_on(&["pre"], "instances/pent6x10.dlx");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("removed 144 of 2056 options and 0 of 72 items in 2 rounds"), "{err}");
    let reduced = stdout(&out);
    let options = reduced.lines().filter(|l| !l.starts_with('|')).count() - 1;
    assert_eq!(options, 1_912);
    let out = run_with(&["solve", "--count", "-"], reduced);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "9356\n");
}

#[test]
fn json_names_the_removals_and_origins_map_back() {
    let out = run_on(&["pre", "--format", "json"], "instances/sudoku_inkala.dlx");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // DLX-PRE: "Removed 0 options and 6 items, ..., 2 rounds."
    assert_eq!(json["options_removed"], 0);
    assert_eq!(json["items_removed"], 6);
    assert_eq!(json["rounds"], 2);
    assert_eq!(json["complete"], true);
    assert!(json["removed_items"].as_array().unwrap().iter().all(|x| x["implied_by"].is_string()));

    // Knuth's color example: `A B X:0 Y:0` goes, then `C` (implied by `A`) and `C Y:1`.
    let input = "A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nB X:1\nC Y:1\n";
    // Each reduced option says which of the input's it came from, as JSON's `from` does
    // (#46); `--no-origins` leaves that out.
    let out = run_with(&["pre", "-"], input);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let body: Vec<String> = stdout(&out).lines().skip(2).map(str::to_owned).collect();
    assert_eq!(
        body,
        ["A B | X Y", "A X:1 Y:1", "| from 1: A C X:1 Y:1", "B X:1", "| from 2: B X:1"]
    );
    let out = run_with(&["pre", "--no-origins", "-"], input);
    let body: Vec<String> = stdout(&out).lines().skip(2).map(str::to_owned).collect();
    assert_eq!(body, ["A B | X Y", "A X:1 Y:1", "B X:1"]);
}

#[test]
fn bounds_are_refused_and_infeasible_problems_say_so() {
    let out = run_on(&["pre"], "instances/mult_a001499_6.dlx");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("bounds"), "{}", stderr(&out));
    let out = run_with(&["pre", "-"], "a b c\na b\na\n");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("infeasible: primary item `c`"), "{}", stderr(&out));
    let out = run_with(&["solve", "--count", "-"], stdout(&out));
    assert_eq!(stdout(&out), "0\n");
}
