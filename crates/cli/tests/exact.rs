//! Exact or refused (#28): every reproducer of the issue, as a user runs it.

use std::io::Read;
use std::process::Stdio;

use crate::util::{
    assert_fails, dancecard, json_output, run_on, run_with, stderr, stdout, temp_file,
};

/// `solve ARGS` on `text` from standard input.
fn solve(args: &[&str], text: &str) -> std::process::Output {
    run_with(&[&["solve"], args, &["-"]].concat(), text)
}

/// The count printed by `solve --count --method METHOD`, the command having exited 0.
fn count(method: &str, text: &str) -> String {
    let out = solve(&["--count", "--method", method], text);
    assert_eq!(out.status.code(), Some(0), "{method}: {}", stderr(&out));
    stdout(&out).trim().to_owned()
}

// See: #28. The memo key ignored how often a bounded item was already covered: 720 (6!).
#[test]
fn r28_a001499_6_by_every_method() {
    for method in ["search", "memo", "auto"] {
        let out = run_on(&["solve", "--count", "--method", method], "instances/mult_a001499_6.dlx");
        assert_eq!(out.status.code(), Some(0), "{method}: {}", stderr(&out));
        assert_eq!(stdout(&out), "67950\n", "{method}");
    }
}

// See: #28. The default count panicked in memo.rs on the 8 x 8 version; the 12 x 12 one is
// the memoised count's target (the plain search would need days).
#[test]
fn r28_a001499_8_and_12_by_the_default_count() {
    for (file, expected) in [
        ("instances/mult_a001499_8.dlx", "187530840\n"),
        ("instances/mult_a001499_12.dlx", "21959547410077200\n"),
    ] {
        let out = run_on(&["solve", "--count", "--stats"], file);
        assert_eq!(out.status.code(), Some(0), "{file}: {}", stderr(&out));
        assert_eq!(stdout(&out), expected, "{file}");
        assert!(stderr(&out).contains("method memo"), "{file}: {}", stderr(&out));
    }
}

// See: #28. After the estimate, the plain search that auto picked answered 0: the estimate
// left the problem changed (I5).
#[test]
fn r28_an_estimate_leaves_the_problem_as_it_found_it() {
    let text = "a 0:1|b | y\na y:g b\n";
    for method in ["search", "memo", "auto"] {
        assert_eq!(count(method, text), "1", "{method}");
    }
    let out = run_with(&["estimate", "-"], text);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

// See: #28. `estimate` indexed past an array (estimate.rs:155) or looped on small problems
// with multiplicities, and the default count ran it first: a three-line file hung.
#[test]
fn r28_estimates_of_small_problems_with_multiplicities_end() {
    for text in ["2|a b\na b\na\nb\n", "0:3|a\na\na\n", "1:2|a 2|b\na b\na b\nb\n"] {
        let out = run_with(&["estimate", "--probes", "100", "-"], text);
        assert_eq!(out.status.code(), Some(0), "{text:?}: {}", stderr(&out));
        assert!(stdout(&out).starts_with("nodes "), "{text:?}");
        let expected = count("search", text);
        assert_eq!(count("auto", text), expected, "{text:?}");
    }
}

// See: #28. The ZDD of `3|a` with four options `a` had 4 paths of one option each.
#[test]
fn r28_the_zdd_of_a_bounded_item_holds_its_sets() {
    let text = "3|a\na\na\na\na\n";
    let zdd = tempfile::NamedTempFile::new().unwrap();
    let path = zdd.path().to_str().unwrap();
    let out = solve(&["--count", "--zdd", path], text);
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(0), "4\n"), "{}", stderr(&out));
    // The samples are the diagram's paths: every one a set of three of the four options.
    let out = solve(&["--sample", "40", "--seed", "3", "--format", "json"], text);
    let json = json_output(&out, 0);
    let samples = json["samples"].as_array().unwrap();
    assert_eq!(samples.len(), 40);
    let mut seen = std::collections::BTreeSet::new();
    for s in samples {
        let mut options: Vec<u64> =
            s.as_array().unwrap().iter().map(|o| o.as_u64().unwrap()).collect();
        options.sort_unstable();
        options.dedup();
        assert_eq!(options.len(), 3, "{s}");
        let _ = seen.insert(options);
    }
    assert_eq!(seen.len(), 4, "all four sets drawn: {seen:?}");
}

// See: #28. The empty solution was lost by memo, ZDD and sample: `0:1|a` has one solution.
#[test]
fn r28_the_empty_solution_counts_everywhere() {
    let text = "0:1|a\n";
    for method in ["search", "memo", "auto"] {
        assert_eq!(count(method, text), "1", "{method}");
    }
    let out = solve(&["--sample", "2", "--format", "json"], text);
    assert_eq!(json_output(&out, 0)["samples"], serde_json::json!([[], []]));
    let out = solve(&["--format", "json"], text);
    assert_eq!(json_output(&out, 0)["solutions"], serde_json::json!([[]]));
}

/// Runs `solve --sample K` on the toy problem, reads a few answers and closes the pipe: the
/// samples stream (nothing is held for all K of them), so the command neither aborts nor
/// runs on.
fn sample_a_few(k: &str) {
    let toy = crate::util::testdata("instances/queens8.dlx");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dancecard"))
        .args(["solve", "--sample", k])
        .arg(toy)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = vec![0u8; 4096];
    child.stdout.as_mut().unwrap().read_exact(&mut head).unwrap();
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert!(!err.contains("panicked") && !err.contains("memory allocation"), "{k}: {err}");
    assert!(status.code().is_some(), "{k}: ended by a signal: {status:?}");
    let text = String::from_utf8_lossy(&head);
    assert!(text.starts_with("r"), "{k}: {text}");
}

// See: #28. `--sample 18446744073709551615` panicked ("capacity overflow") and `--sample
// 1000000000000` aborted allocating 24 TB.
#[test]
fn r28_huge_samples_stream() {
    sample_a_few("18446744073709551615");
    sample_a_few("1000000000000");
    let out = run_on(&["solve", "--sample", "18446744073709551616"], "instances/queens8.dlx");
    assert_fails(&out, 2, "--sample");
}

// See: #28. `--sample 0` said "no solution".
#[test]
fn r28_no_sample_asked_prints_nothing() {
    let out = run_on(&["solve", "--sample", "0"], "instances/queens8.dlx");
    assert_eq!(
        (out.status.code(), stdout(&out).as_str(), stderr(&out).as_str()),
        (Some(0), "", "")
    );
}

// See: #28. `--all --limit 0` exited 1 ("no solution") and JSON called it complete.
#[test]
fn r28_limit_0_is_not_no_solution() {
    let out = run_on(&["solve", "--all", "--limit", "0"], "instances/queens8.dlx");
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert!(stderr(&out).contains("--limit 0 asks for no solution"), "{}", stderr(&out));
    let out =
        run_on(&["solve", "--all", "--limit", "0", "--format", "json"], "instances/queens8.dlx");
    let json = json_output(&out, 3);
    assert_eq!((json["complete"].as_bool(), json["count"].as_u64()), (Some(false), Some(0)));
}

// See: #28. `--count --limit N` printed N as if it were the count, exit 0, "complete": true.
#[test]
fn r28_a_count_cut_by_its_limit_says_so() {
    let out = run_on(&["solve", "--count", "--limit", "5"], "instances/queens8.dlx");
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(3), "5\n"), "{}", stderr(&out));
    assert!(stderr(&out).contains("incomplete: the solution limit (--limit) was reached"));
    let out =
        run_on(&["solve", "--count", "--limit", "5", "--format", "json"], "instances/queens8.dlx");
    let json = json_output(&out, 3);
    assert_eq!(
        (json["complete"].as_bool(), json["stop"].as_str()),
        (Some(false), Some("solution-limit"))
    );
    // A limit the count does not reach: the whole count, complete.
    let out = run_on(
        &["solve", "--count", "--limit", "500", "--format", "json"],
        "instances/queens8.dlx",
    );
    let json = json_output(&out, 0);
    assert_eq!((json["count"].as_u64(), json["complete"].as_bool()), (Some(92), Some(true)));
}

// See: #28. Counts past 2^128 were refused ("exceeds 2^128").
#[test]
fn r28_counts_past_2_128_are_exact() {
    let out = dancecard()
        .args(["tile", "--board", "20x20", "--pieces", "dominoes", "--count", "--format", "json"])
        .output()
        .unwrap();
    let json = json_output(&out, 0);
    let big = "1269984011256235834242602753102293934298576249856";
    assert_eq!(json["count"], big);
    assert_eq!(json["stats"]["solutions"], big);
    // The memoised count past 2^128: 130 items of two options each.
    let mut text = (0..130).map(|k| format!("i{k}")).collect::<Vec<_>>().join(" ") + "\n";
    for k in 0..130 {
        text += &format!("i{k}\ni{k}\n");
    }
    let file = temp_file(&text);
    let out = dancecard().args(["solve", "--count", "--stats"]).arg(file.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let two_130 = "1361129467683753853853498429727072845824\n";
    assert_eq!(stdout(&out), two_130);
    assert!(stderr(&out).contains(&format!("solutions {}", two_130.trim())), "{}", stderr(&out));
}

// See: #28. Methods that do not handle multiplicities refuse them, naming the place; and #30:
// min-cost handles them (every solution of this file costs 0).
#[test]
fn r28_refusals_name_the_method_and_the_place() {
    let out = run_on(&["solve", "--min-cost", "--best", "200"], "instances/mult_queens_12_6.dlx");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).matches("cost 0\n").count(), 128, "{}", stdout(&out));
    let out = run_on(&["solve", "--count", "--pre"], "instances/mult_a001499_6.dlx");
    assert_fails(&out, 2, "--pre does not handle multiplicities (item `R0` has bounds 2:2)");
}
