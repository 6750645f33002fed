//! `dancecard solve`.

use crate::util::{dancecard, json_output, run_on, run_with, stderr, stdout, testdata};

const TOY: &str = "| Knuth's toy problem\na b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n";

#[test]
fn first_solution_prints_options_as_written() {
    let out = run_with(&["solve", "-"], TOY);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "a d f\nb g\nc e\n");
}

#[test]
fn reads_stdin_without_a_path_and_keeps_spacing_normalised() {
    let out = run_with(&["solve"], "a  b\n a   b \n");
    assert_eq!(stdout(&out), "a b\n");
}

#[test]
fn count_alone_on_stdout() {
    let out =
        run_on(&["solve", "--count", "--stats", "--method", "search"], "instances/queens8.dlx");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "92\n");
    let err = stderr(&out);
    assert!(err.contains("nodes 1049 updates 16680 solutions 92 seconds"), "{err}");
    // By auto: the memoised search ends (956 nodes) before its first look.
    let out = run_on(&["solve", "--count", "--stats"], "instances/queens8.dlx");
    assert_eq!(stdout(&out), "92\n");
    assert!(
        stderr(&out).contains("nodes 956 updates 15898 solutions 92 seconds"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn all_solutions_separated_by_blank_lines() {
    let text = "a b\na\nb\na b\n";
    let out = run_with(&["solve", "--all", "-"], text);
    assert_eq!(stdout(&out), "a\nb\n\na b\n");
    let out = run_with(&["solve", "--all", "--limit", "1", "-"], text);
    assert_eq!(stdout(&out), "a\nb\n");
}

#[test]
fn heuristic_changes_the_tree_not_the_answer() {
    let count = |h: &str| {
        let out =
            run_on(&["solve", "--count", "--stats", "--heuristic", h], "instances/queens8.dlx");
        (stdout(&out), stderr(&out))
    };
    let (mrv, mrv_stats) = count("mrv");
    let (left, left_stats) = count("leftmost");
    assert_eq!(mrv, left);
    assert_ne!(mrv_stats.split(" seconds").next(), left_stats.split(" seconds").next());
}

#[test]
fn json_document() {
    let out = run_with(&["solve", "--all", "--format", "json", "-"], TOY);
    let v = json_output(&out, 0);
    assert_eq!(v["solutions"], serde_json::json!([[3, 4, 0]]));
    assert_eq!(v["count"], 1);
    assert_eq!(v["complete"], true);
    assert_eq!(v["stats"]["nodes"], 6);
    assert!(v["stats"]["updates"].as_u64().unwrap() > 0);
    let out = run_on(&["solve", "--count", "--format", "json"], "instances/queens8.dlx");
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["count"], 92);
    assert_eq!(v["solutions"], serde_json::json!([]));
}

#[test]
fn no_solution_exits_1() {
    let out = run_with(&["solve", "-"], "a b c\na b\nb\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "");
    assert!(stderr(&out).contains("no solution"));
    // A count of zero is still a count printed.
    let out = run_with(&["solve", "--count", "-"], "a b c\na b\n");
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(0), "0\n"));
}

#[test]
fn bad_input_exits_2_with_line_and_column() {
    let out = run_with(&["solve", "-"], "a b\na z\n");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), "error: <stdin>: line 2, column 3: unknown item `z`\n");
    let out = dancecard().args(["solve", "/nonexistent/file.dlx"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot read /nonexistent/file.dlx"));
    let out = run_with(&["solve", "-"], &b"a\n\xff\n"[..]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("line 2, column 1: invalid UTF-8"));
    let out = run_with(&["solve", "-"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("empty input"));
}

#[test]
fn usage_errors_exit_2() {
    let out = dancecard().args(["solve", "--all", "--count"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = dancecard().args(["solve", "--heuristic", "best"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    for bad in ["--time-limit=-1", "--time-limit=1e20", "--time-limit=nan"] {
        let out = run_with(&["solve", bad, "-"], TOY);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(stderr(&out).contains("--time-limit must be a number of seconds"), "{bad}");
    }
}

#[test]
fn matrix_input_detected_and_forced() {
    let matrix = "6 7\n0 0 1 0 1 1 0\n1 0 0 1 0 0 1\n0 1 1 0 0 1 0\n1 0 0 1 0 0 0\n0 1 0 0 0 0 1\n0 0 0 1 1 0 1\n";
    for extra in [&[][..], &["--matrix"][..]] {
        let out =
            dancecard().arg("solve").args(extra).arg("-").write_stdin(matrix).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        // Rows 4, 5 and 1 (in search order), as in the seeds' example.
        assert_eq!(stdout(&out), "4\n1\n5\n");
    }
    let out = run_with(&["solve", "--matrix", "-"], TOY);
    assert_eq!(out.status.code(), Some(2));
    let out = run_with(&["solve", "--dlx", "-"], "1 2\n1 2\n");
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(0), "1 2\n"));
}

#[test]
fn node_and_time_limits_mark_the_result_incomplete() {
    let out = run_on(
        &["solve", "--count", "--node-limit", "100", "--format", "json"],
        "instances/queens8.dlx",
    );
    let v = json_output(&out, 3);
    assert_eq!(v["complete"], false);
    assert_eq!(v["stop"], "node-limit");
    assert_eq!(v["stats"]["nodes"], 100);
    let out = run_on(&["solve", "--count", "--time-limit", "0"], "instances/pent6x10.dlx");
    assert!(stderr(&out).contains("incomplete: the time limit was reached"), "{}", stderr(&out));
}

// See: #16. `dancecard solve --count --time-limit 1` printed a partial count and exited 0, so
// that a script could not tell it from a real one.
#[test]
fn issue_16_a_count_stopped_by_a_limit_exits_3() {
    for limit in [["--time-limit", "0"], ["--node-limit", "10"]] {
        let out = dancecard()
            .args(["solve", "--count"])
            .args(limit)
            .arg(testdata("instances/pent6x10.dlx"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3), "{limit:?}: {}", stderr(&out));
        let partial: u64 = stdout(&out).trim().parse().expect("the partial count on stdout");
        assert!(partial < 9356, "{limit:?}");
        assert!(stderr(&out).contains("incomplete: the "), "{}", stderr(&out));
    }
    // A complete count, and a first solution found within the limits, still exit 0.
    let out = run_on(
        &["solve", "--count", "--node-limit", "100000000", "--time-limit", "1000"],
        "instances/queens8.dlx",
    );
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(0), "92\n"));
    let out = dancecard().args(["solve", "--help"]).output().unwrap();
    assert!(stdout(&out).contains("  3    stopped by a limit"), "{}", stdout(&out));
}

#[test]
fn help_shows_examples_and_exit_codes() {
    let out = dancecard().args(["solve", "--help"]).output().unwrap();
    let help = stdout(&out);
    assert!(help.contains("Examples:"));
    assert!(help.contains("Exit codes:"));
    let out = dancecard().arg("--help").output().unwrap();
    assert!(stdout(&out).contains("Examples:"));
}

#[cfg(unix)]
#[test]
fn ctrl_c_prints_the_partial_count() {
    use std::process::{Command, Stdio};
    use std::time::Duration;
    let bin = assert_cmd::cargo::cargo_bin("dancecard");
    let child = Command::new(bin)
        .args(["solve", "--count"])
        .arg(testdata("instances/pent6x10.dlx"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let count: u64 = stdout(&out).trim().parse().expect("a partial count on stdout");
    assert!(count < 9356);
    assert!(stderr(&out).contains("incomplete: interrupted"));
}

#[test]
fn progress_lines_for_long_runs_when_asked() {
    let out = dancecard()
        .env("DANCECARD_PROGRESS", "always")
        .args(["solve", "--count"])
        .arg(testdata("instances/pent6x10.dlx"))
        .output()
        .unwrap();
    assert_eq!(stdout(&out), "9356\n");
    let err = stderr(&out);
    assert!(err.starts_with("progress "), "{err}");
    assert!(err.contains(" · 0:0") && err.contains(" eta "), "{err}");
    // Never in JSON mode, and never when the user says so.
    for (env, format) in [("always", "json"), ("never", "text")] {
        let out = dancecard()
            .env("DANCECARD_PROGRESS", env)
            .args(["solve", "--count", "--format", format])
            .arg(testdata("instances/domino6x6.dlx"))
            .output()
            .unwrap();
        assert_eq!(stderr(&out), "");
    }
}
