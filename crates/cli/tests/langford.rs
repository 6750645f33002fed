//! `dancecard langford`.

use crate::util::{dancecard, ground_truth_up_to, run_with, stdout};

fn run(args: &[&str]) -> std::process::Output {
    dancecard().arg("langford").args(args).output().unwrap()
}

#[test]
fn counts_against_oeis() {
    for (n, row) in ground_truth_up_to("langford_L2n.tsv", 12) {
        let out = run(&[&row[0]]);
        assert_eq!((out.status.code(), stdout(&out).trim()), (Some(0), row[1].as_str()), "n={n}");
    }
}

#[test]
fn all_lists_each_arrangement_once() {
    let out = run(&["7", "--all"]);
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<Vec<usize>> =
        stdout(&out).lines().map(|l| l.split(' ').map(|x| x.parse().unwrap()).collect()).collect();
    assert_eq!(lines.len(), 26);
    for seq in &lines {
        for k in 1..=7 {
            let at: Vec<usize> = (0..14).filter(|&p| seq[p] == k).collect();
            assert_eq!(at[1] - at[0], k + 1, "{seq:?}");
        }
        let mut rev = seq.clone();
        rev.reverse();
        assert!(!lines.contains(&rev));
    }
    let out = run(&["5", "--all"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn json_emit_and_errors() {
    let out = run(&["4", "--all", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["count"], 1);
    assert_eq!(v["solutions"], serde_json::json!([[4, 1, 3, 1, 2, 4, 3, 2]]));
    let out = run(&["3", "--emit-dlx"]);
    let dlx = stdout(&out);
    assert!(dlx.lines().nth(1).unwrap().starts_with("1 2 3 s1 s2"));
    let solved = run_with(&["solve", "--count", "-"], dlx);
    assert_eq!(stdout(&solved), "1\n");
    assert_eq!(run(&["0"]).status.code(), Some(2));
    assert!(stdout(&run(&["--help"])).contains("Examples:"));
}
