//! `dancecard solve --min-cost` and `dancecard solve --pre` (issue #19). The best costs, nodes
//! and updates are DLX5's, as `testdata/instances/README.md` lists them.

use crate::util::{assert_fails, dancecard, json_output, run_on, run_with, stderr, stdout};

/// The `cost N` lines of a text output, in order.
fn costs(text: &str) -> Vec<u64> {
    text.lines().filter_map(|l| l.strip_prefix("cost ")).map(|c| c.parse().unwrap()).collect()
}

/// The costs in a JSON output, in order.
fn json_costs(value: &serde_json::Value) -> Vec<u64> {
    value["solutions"].as_array().unwrap().iter().map(|s| s["cost"].as_u64().unwrap()).collect()
}

/// Runs `dancecard solve ARGS FILE` on a file of `testdata/instances`.
fn solve(args: &[&str], instance: &str) -> std::process::Output {
    run_on(&[&["solve"], args].concat(), &format!("instances/{instance}"))
}

#[test]
fn best_three_domino_tilings_with_their_options() {
    let out = solve(&["--min-cost", "--best", "3"], "cost_domino6x6.dlx");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(costs(&text), [43, 44, 46]);
    // As `--all`: a blank line between two solutions; each is `cost N`, then its 18 options
    // as written, whose `|n` add up to N.
    let blocks: Vec<&str> = text.trim_end().split("\n\n").collect();
    assert_eq!(blocks.len(), 3, "{text}");
    for block in blocks {
        let mut lines = block.lines();
        let cost: u64 = lines.next().unwrap().strip_prefix("cost ").unwrap().parse().unwrap();
        let options: Vec<&str> = lines.collect();
        assert_eq!(options.len(), 18, "{block}");
        let sum: u64 =
            options.iter().map(|o| o.rsplit('|').next().unwrap().parse::<u64>().unwrap()).sum();
        assert_eq!(sum, cost, "{block}");
    }
}

#[test]
fn best_three_domino_tilings_as_json() {
    let out = solve(&["--min-cost", "--best", "3", "--format", "json"], "cost_domino6x6.dlx");
    let value = json_output(&out, 0);
    assert_eq!(json_costs(&value), [43, 44, 46]);
    assert_eq!(value["complete"], true);
    assert_eq!(value["stop"], "exhausted");
    assert!(value["stats"]["nodes"].as_u64().unwrap() > 0);
    for s in value["solutions"].as_array().unwrap() {
        // The options' numbers in the input, from 0 (as `solve --format json` gives them).
        let options = s["options"].as_array().unwrap();
        assert_eq!(options.len(), 18);
        assert!(options.iter().all(|o| o.as_u64().is_some_and(|o| o < 60)), "{s}");
    }
}

#[test]
fn one_best_by_default_and_cost_zero_without_costs() {
    let out = solve(&["--min-cost"], "cost_domino6x6.dlx");
    assert_eq!(costs(&stdout(&out)), [43]);
    let out = run_with(
        &["solve", "--min-cost", "--best", "5", "-"],
        "a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "cost 0\na d f\nb g\nc e\n");
}

#[test]
fn no_solution_exits_1() {
    assert_fails(&run_with(&["solve", "--min-cost", "-"], "a b\na\n"), 1, "no solution");
}

#[test]
fn best_three_pentomino_packings() {
    let out = solve(&["--min-cost", "--best", "3"], "cost_pent6x10.dlx");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(costs(&stdout(&out)), [235, 253, 259]);
}

#[test]
fn dlx5_lower_bound_walks_knuths_tree() {
    let out = solve(
        &["--min-cost", "--best", "3", "--lower-bound", "dlx5", "--stats"],
        "cost_pent6x10.dlx",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(costs(&stdout(&out)), [235, 253, 259]);
    let err = stderr(&out);
    assert!(err.contains("nodes 204170 updates 67853551 "), "{err}");
}

#[test]
fn node_limit_prints_the_best_so_far_not_proven() {
    let out = solve(&["--min-cost", "--best", "3", "--node-limit", "1000"], "cost_pent6x10.dlx");
    assert_eq!(out.status.code(), Some(3));
    let found = costs(&stdout(&out));
    assert!(!found.is_empty() && found.len() <= 3, "{found:?}");
    assert!(found.windows(2).all(|w| w[0] <= w[1]), "{found:?}");
    assert!(found[0] >= 235, "{found:?}");
    let err = stderr(&out);
    assert!(err.contains("incomplete: the node limit was reached"), "{err}");
    assert!(err.contains("not proven"), "{err}");

    let out = solve(
        &["--min-cost", "--best", "3", "--node-limit", "1000", "--format", "json"],
        "cost_pent6x10.dlx",
    );
    let value = json_output(&out, 3);
    assert_eq!(json_costs(&value), found);
    assert_eq!(value["complete"], false);
    assert_eq!(value["stop"], "node-limit");
    assert!(value["stats"]["nodes"].as_u64().unwrap() >= 1000);
}

/// 20 queens as exact cover, without costs, in a temporary directory: every one of its
/// 39 billion solutions costs 0, so a search for the billion best runs for hours.
fn queens20() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("queens20.dlx");
    let out = dancecard().args(["queens", "20", "--emit-dlx"]).output().unwrap();
    std::fs::write(&path, out.stdout).unwrap();
    (dir, path)
}

#[test]
fn time_limit_exits_3_with_the_best_so_far() {
    let (_dir, path) = queens20();
    let out = dancecard()
        .args(["solve", "--min-cost", "--best", "1000000000", "--time-limit", "0.3"])
        .args(["--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    let value = json_output(&out, 3);
    assert_eq!(value["complete"], false);
    assert_eq!(value["stop"], "time-limit");
    assert!(json_costs(&value).iter().all(|&c| c == 0));
}

#[cfg(unix)]
#[test]
fn ctrl_c_exits_130_with_the_best_so_far() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    let (_dir, path) = queens20();
    let bin = assert_cmd::cargo::cargo_bin("dancecard");
    let child = Command::new(bin)
        .args(["solve", "--min-cost", "--best", "1000000000"])
        .arg(&path)
        .env("DANCECARD_PROGRESS", "never")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let id = child.id().to_string();
    assert!(Command::new("kill").args(["-INT", &id]).status().unwrap().success());
    let sent = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(sent.elapsed() < Duration::from_secs(10), "{:?} after SIGINT", sent.elapsed());
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("cost 0\n"), "{}", &text[..text.len().min(200)]);
    let err = stderr(&out);
    assert!(err.contains("incomplete: interrupted") && err.contains("not proven"), "{err}");
}

#[test]
fn best_zero_is_refused() {
    assert_fails(&solve(&["--min-cost", "--best", "0"], "cost_domino6x6.dlx"), 2, "--best");
}

#[test]
fn best_needs_min_cost() {
    let out = solve(&["--best", "2"], "cost_domino6x6.dlx");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--min-cost"), "{}", stderr(&out));
}

#[test]
fn flags_that_make_no_sense_with_min_cost_are_refused() {
    for flags in [
        &["--count"][..],
        &["--all"],
        &["--limit", "2"],
        &["--threads", "2"],
        &["--method", "memo"],
        &["--shard", "1/2"],
        &["--sample", "1"],
    ] {
        let mut args = vec!["--min-cost"];
        args.extend_from_slice(flags);
        let out = solve(&args, "cost_domino6x6.dlx");
        assert_eq!(out.status.code(), Some(2), "{flags:?}");
        assert_eq!(stdout(&out), "", "{flags:?}");
        let err = stderr(&out);
        assert!(err.contains(flags[0]), "{flags:?}: {err}");
    }
}

/// Multiplicities and costs together (#30): the three least costs of
/// cost_mult_a001499_6.dlx are 20, 20, 25 (testdata/instances/README.md: all 67,950
/// solutions listed with their costs).
#[test]
fn multiplicities_with_costs() {
    let out = solve(&["--min-cost", "--best", "3", "--format", "json"], "cost_mult_a001499_6.dlx");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let costs: Vec<u64> =
        v["solutions"].as_array().unwrap().iter().map(|s| s["cost"].as_u64().unwrap()).collect();
    assert_eq!(costs, [20, 20, 25]);
    assert_eq!(v["complete"], true);
}

#[test]
fn pre_keeps_the_count() {
    let plain = solve(&["--count"], "pent6x10.dlx");
    let out = solve(&["--count", "--pre", "--stats"], "pent6x10.dlx");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "9356\n");
    assert_eq!(stdout(&out), stdout(&plain));
    let err = stderr(&out);
    assert!(
        err.contains("pre: removed 144 of 2056 options and 0 of 72 items in 2 rounds"),
        "{err}"
    );
}

#[test]
fn pre_says_nothing_without_stats() {
    let out = solve(&["--pre"], "queens8.dlx");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stderr(&out), "");
}

#[test]
fn pre_prints_the_same_solutions() {
    let plain = solve(&["--all"], "queens8.dlx");
    let out = solve(&["--all", "--pre"], "queens8.dlx");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), stdout(&plain));
    assert_eq!(stdout(&out).split("\n\n").count(), 92);
    let plain = solve(&["--all", "--format", "json"], "queens8.dlx");
    let out = solve(&["--all", "--pre", "--format", "json"], "queens8.dlx");
    let solutions = |o: &std::process::Output| {
        let v: serde_json::Value = serde_json::from_str(&stdout(o)).unwrap();
        v["solutions"].clone()
    };
    assert_eq!(solutions(&out), solutions(&plain));
}

#[test]
fn pre_prints_the_original_options() {
    // The reduced problem's options are printed as written in the input. The search on the
    // reduced problem chooses the same pieces here, in another order.
    let sorted = |o: &std::process::Output| {
        let mut lines: Vec<String> = stdout(o).lines().map(str::to_owned).collect();
        lines.sort();
        lines
    };
    let plain = solve(&[], "pent6x10.dlx");
    let out = solve(&["--pre"], "pent6x10.dlx");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(sorted(&out), sorted(&plain));
}

#[test]
fn min_cost_after_pre() {
    let out = solve(&["--min-cost", "--pre"], "cost_pent6x10.dlx");
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert_eq!(costs(&text), [235]);
    let sorted = |text: &str| {
        let mut lines: Vec<&str> = text.lines().collect();
        lines.sort_unstable();
        lines.join("\n")
    };
    let plain = stdout(&solve(&["--min-cost"], "cost_pent6x10.dlx"));
    assert_eq!(sorted(&text), sorted(&plain));
}

#[test]
fn pre_refuses_bounds() {
    let out = solve(&["--pre", "--count"], "mult_queens_12_6.dlx");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    assert!(stderr(&out).contains("`r0`"), "{}", stderr(&out));
}

/// A limited run (#30) gives the best found, a proven lower bound and the gap in JSON, and
/// says both on stderr in text; a complete one has the least cost as its bound and gap 0.
#[test]
fn a_limited_run_has_a_bound_and_a_gap() {
    let args = ["--min-cost", "--lower-bound", "dlx5", "--node-limit", "20000", "--format", "json"];
    let out = solve(&args, "cost_domino16x16.dlx");
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let best = v["solutions"][0]["cost"].as_u64().unwrap();
    let bound = v["lower_bound"].as_u64().unwrap();
    assert!(bound <= 319 && 319 <= best, "{bound} {best}");
    let gap = v["gap"].as_f64().unwrap();
    assert!((gap - (best - bound) as f64 / best as f64).abs() < 1e-12, "{gap}");
    assert_eq!(v["complete"], false);
    let out = solve(&args[..5], "cost_domino16x16.dlx");
    let err = stderr(&out);
    assert!(err.contains(&format!("none costs less than {bound} (gap ")), "{err}");
    let out = solve(&["--min-cost", "--format", "json"], "cost_domino16x16.dlx");
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!((v["lower_bound"].as_u64(), v["gap"].as_f64()), (Some(319), Some(0.0)));
}
