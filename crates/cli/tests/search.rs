//! The heuristic search commands: `slide`, `knights`, `egyptian`, `min-cover`, `dominate`,
//! `guard`, `subset-count`, `constant-sum` and `grid-pick`.

use std::time::Instant;

use crate::util::{dancecard, run_on, run_with, stderr, stdout, temp_file, testdata};

/// The command's ground-truth samples (small_problems.json).
fn samples() -> serde_json::Value {
    let text = std::fs::read_to_string(testdata("ground-truth/small_problems.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// `dancecard slide ...` with a private, empty cache directory.
fn slide(cache: &std::path::Path) -> assert_cmd::Command {
    let mut cmd = dancecard();
    cmd.arg("slide").env("DANCECARD_CACHE_DIR", cache);
    cmd
}

#[test]
fn slide_eight_puzzle_text_and_json() {
    let cache = tempfile::tempdir().unwrap();
    let out = slide(cache.path()).args("8 6 7 2 5 4 3 0 1".split(' ')).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let (length, moves) = text.trim().split_once(' ').unwrap();
    assert_eq!(length, "27");
    assert_eq!(moves.len(), 27);
    let out = slide(cache.path())
        .args(["--goal", "blank-last", "--format", "json", "1 2 3 4 5 6 0 7 8"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["length"], 2);
    assert_eq!(v["moves"], serde_json::json!(["R", "R"]));
    assert_eq!(v["tiles"], serde_json::json!([7, 8]));
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert_eq!(v["algorithm"], "ida");
}

#[test]
fn slide_algorithms_agree() {
    let cache = tempfile::tempdir().unwrap();
    let state = "8 6 7 2 5 4 3 0 1";
    for args in [
        &["--algorithm", "astar"][..],
        &["--algorithm", "bidir"],
        &["--algorithm", "bfs"],
        &["--heuristic", "manhattan"],
        &["--heuristic", "pdb"],
    ] {
        let out = slide(cache.path()).args(args).arg(state).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).starts_with("27 "), "{args:?}: {}", stdout(&out));
    }
}

#[test]
fn slide_unsolvable_exits_1_and_bad_input_exits_2() {
    let cache = tempfile::tempdir().unwrap();
    let out = slide(cache.path()).arg("0 2 1 3 4 5 6 7 8").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "unsolvable\n");
    assert!(stderr(&out).contains("parity"), "{}", stderr(&out));
    for bad in ["0 1 2", "0 1 1 3", "0 1 2 x", "0 1 2 3 4 5 6 7 9", "0"] {
        let out = slide(cache.path()).arg(bad).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(stderr(&out).starts_with("error: the state:"), "{bad}: {}", stderr(&out));
    }
    let out = slide(cache.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = slide(cache.path()).args(["--heuristic", "nope", "0 1 2 3"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn slide_batch_file_with_comments_and_json_array() {
    let cache = tempfile::tempdir().unwrap();
    let file =
        temp_file("# two states\n1 0 2 3 4 5 6 7 8\n\n3 1 2 0 4 5 6 7 8  # one move\n0 2 1 3\n");
    let file = file.path();
    let out = slide(cache.path()).arg("--file").arg(file).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "the 2x2 state is unsolvable");
    assert_eq!(stdout(&out), "1 L\n1 U\nunsolvable\n");
    assert!(stderr(&out).contains("line 5: unsolvable"), "{}", stderr(&out));
    let out = slide(cache.path())
        .args(["--format", "json", "--file", "-"])
        .write_stdin("1 0 2 3\n")
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v[0]["length"], 1);
    assert_eq!(v[0]["line"], 1);
    std::fs::write(file, "1 0 2 3\n1 2\n").unwrap();
    let out = slide(cache.path()).arg("--file").arg(file).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("line 2:"), "{}", stderr(&out));
}

#[test]
fn slide_refuses_memory_hungry_searches() {
    let cache = tempfile::tempdir().unwrap();
    let korf1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";
    let out = slide(cache.path()).args(["--algorithm", "bfs", korf1]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("use IDA*"), "{}", stderr(&out));
    let out = slide(cache.path())
        .args(["--algorithm", "astar", "--max-states", "20000", korf1])
        .output()
        .unwrap();
    // A budget reached during the search: exit code 3, as for any limit.
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(stdout(&out), "incomplete\n");
    assert!(stderr(&out).contains("--algorithm ida"), "{}", stderr(&out));
    let out = slide(cache.path()).args(["--node-limit", "1000", korf1]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(stdout(&out), "incomplete\n");
    assert!(stderr(&out).contains("incomplete: the node limit"), "{}", stderr(&out));

    // The limit holds per state: the states after a stopped one are still solved.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("states.txt");
    std::fs::write(&file, "8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 8 7 0\n0 1 2 3 4 5 6 7 8\n").unwrap();
    let out = slide(cache.path())
        .arg("--file")
        .arg(&file)
        .args(["--node-limit", "100"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "incomplete\nunsolvable\n0\n");
    assert!(stderr(&out).contains("line 1: incomplete: the node limit"), "{}", stderr(&out));
    let out = slide(cache.path())
        .arg("--file")
        .arg(&file)
        .args(["--node-limit", "100", "--format", "json"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json[0]["complete"], false);
    assert_eq!(json[1]["solvable"], false);
    assert_eq!(json[2]["length"], 0);
}

#[test]
fn slide_pattern_database_is_cached_and_rebuilt_when_corrupt() {
    let cache = tempfile::tempdir().unwrap();
    let file = cache.path().join("pdb-v2-3x3-blank-first-4-4.bin");
    let run =
        || slide(cache.path()).args(["--heuristic", "pdb", "8 6 7 2 5 4 3 0 1"]).output().unwrap();
    let out = run();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("building the 3x3 pattern database"));
    assert!(file.exists());
    let out = run();
    assert_eq!(stderr(&out), "", "the second run loads the cache");
    assert!(stdout(&out).starts_with("27 "));
    let mut bytes = std::fs::read(&file).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xff;
    std::fs::write(&file, bytes).unwrap();
    let out = run();
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("corrupt"), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("27 "));
    let out = run();
    assert_eq!(stderr(&out), "", "rebuilt and cached again");
    // The 3-puzzle's database (one pattern of every tile: half its placements unreachable)
    // is read back too.
    for expected in ["building the 2x2 pattern database", ""] {
        let out = slide(cache.path()).args(["--heuristic", "pdb", "1 0 2 3"]).output().unwrap();
        assert_eq!(stdout(&out), "1 L\n");
        assert!(stderr(&out).starts_with(expected), "{}", stderr(&out));
        assert_eq!(stderr(&out).is_empty(), expected.is_empty(), "{}", stderr(&out));
    }
}

#[test]
fn slide_builds_the_large_database_and_pdb_picks_it() {
    let cache = tempfile::tempdir().unwrap();
    let file = cache.path().join("pdb-v2-3x3-blank-first-6-2.bin");
    let solve = |extra: &[&str]| {
        slide(cache.path())
            .args(["--heuristic", "pdb", "--format", "json"])
            .args(extra)
            .arg("8 6 7 2 5 4 3 0 1")
            .output()
            .unwrap()
    };
    let out = solve(&["--build-pdb"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("the 6-2 database is built"), "{}", stderr(&out));
    assert!(file.exists());
    assert!(!cache.path().join("pdb-v2-3x3-blank-first-6-2.bin.part").exists());
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!((v["length"].as_u64(), v["pdb"].as_str()), (Some(27), Some("6-2")));
    let out = solve(&["--build-pdb"]);
    assert!(stderr(&out).contains("already built"), "{}", stderr(&out));
    let out = solve(&[]);
    assert_eq!(stderr(&out), "", "the large database is read from the cache");
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!((v["length"].as_u64(), v["pdb"].as_str()), (Some(27), Some("6-2")));
    // A damaged large database is not used (the standard one is) and not rebuilt.
    let mut bytes = std::fs::read(&file).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x10;
    std::fs::write(&file, bytes).unwrap();
    let out = solve(&[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("using the standard database"), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!((v["length"].as_u64(), v["pdb"].as_str()), (Some(27), Some("4-4")));
    // No large database for the 24-puzzle.
    let twenty_four = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24";
    let out = slide(cache.path()).args(["--build-pdb", twenty_four]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no large pattern database for the 5x5"), "{}", stderr(&out));
}

#[test]
fn slide_build_pdb_stops_and_goes_on_from_its_checkpoint() {
    // The 15-puzzle's 7-8 build, stopped by the time limit twice: each stop writes a
    // checkpoint (or a finished pattern) that the next run goes on from.
    let cache = tempfile::tempdir().unwrap();
    let part = cache.path().join("pdb-v2-4x4-blank-first-7-8.bin.part");
    let out = slide(cache.path()).args(["--build-pdb", "--time-limit", "0.5"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("the next --build-pdb goes on from there"), "{}", stderr(&out));
    assert!(part.join("pattern-0.checkpoint").exists(), "{:?}", std::fs::read_dir(&part));
    let out = slide(cache.path()).args(["--build-pdb", "--time-limit", "0.5"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("going on from the work kept in"), "{}", stderr(&out));
    assert!(!cache.path().join("pdb-v2-4x4-blank-first-7-8.bin").exists());
}

#[test]
fn slide_fifteen_puzzle_korf_instances_with_the_pattern_database() {
    let cache = tempfile::tempdir().unwrap();
    // Korf #12, #42 and #97: 45, 42 and 44 moves.
    let file = temp_file(
        "14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15\n\
     4 5 7 2 9 14 12 13 0 3 6 11 8 1 15 10\n\
     9 14 5 7 8 15 1 2 10 4 13 6 12 0 11 3\n",
    );
    let out = slide(cache.path())
        .args(["--heuristic", "pdb", "--file"])
        .arg(file.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lengths: Vec<&str> = text.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(lengths, ["45", "42", "44"]);
}

#[test]
fn knights_samples() {
    let s = samples();
    let cases = s["knight_puzzle_luogu_P2324"]["cases"].as_array().unwrap();
    let mut input = format!("{}\n", cases.len());
    let mut expected = String::new();
    for case in cases {
        for row in case["board"].as_array().unwrap() {
            input.push_str(row.as_str().unwrap());
            input.push('\n');
        }
        expected.push_str(&format!("{}\n", case["answer"]));
    }
    assert_eq!(expected, "7\n-1\n");
    let out = run_with(&["knights"], input.clone());
    assert_eq!((out.status.code(), stdout(&out)), (Some(0), expected));
    let out = run_with(&["knights", "--format", "json", "-"], input);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["answers"], serde_json::json!([7, -1]));
    assert_eq!(v["cases"][0]["moves"].as_array().unwrap().len(), 7);
    let out = run_with(&["knights"], "1\n11111\n01111\n00*11\n00001\n0000\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("row 5"), "{}", stderr(&out));
}

#[test]
fn egyptian_samples_and_errors() {
    let out = dancecard().args(["egyptian", "19", "45"]).output().unwrap();
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(0), "5 6 18\n"));
    let out = dancecard().args(["egyptian", "59", "211"]).output().unwrap();
    let answer = stdout(&out);
    assert!(answer == "4 36 633 3798\n" || answer == "6 9 633 3798\n", "{answer}");
    let out = dancecard().args(["egyptian", "--format", "json", "2", "3"]).output().unwrap();
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["denominators"], serde_json::json!([2, 6]));
    for bad in [["0", "5"], ["3", "0"], ["x", "2"], ["-1", "2"]] {
        let out = dancecard().arg("egyptian").args(bad).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
    let out = dancecard().args(["egyptian", "--max-terms", "2", "19", "45"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn min_cover_prints_a_minimum_repeat_cover() {
    let out = run_with(&["min-cover"], "| a cycle of four\na b c d\na b\nb c\nc d\na d\n");
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(0), "a b\nc d\n"));
    // Secondary items are ignored (no exact cover exists: both options with b use x).
    let out = run_with(&["min-cover", "--format", "json", "-"], "a b c | x\na b x\nb c x\na\n");
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["minimum"], 2);
    let out = run_with(&["min-cover"], "a b c\na b\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no option covers c"), "{}", stderr(&out));
    let out = run_with(&["min-cover"], "a b\na z\n");
    assert_eq!(out.status.code(), Some(2));
    let out = run_on(&["min-cover"], "instances/queens8.dlx");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out).lines().count(), 8, "8 queens are needed for 8 ranks and 8 files");
}

#[test]
fn dominate_known_numbers_and_json() {
    let text = std::fs::read_to_string(testdata("ground-truth/domination_numbers.tsv")).unwrap();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.starts_with('n')) {
        let v: Vec<&str> = line.split('\t').collect();
        if v[0].parse::<usize>().unwrap() > 6 {
            continue; // n = 7, 8 are in the library's tests; keep this binary quick
        }
        for (piece, expected) in [("queen", v[1]), ("king", v[2]), ("rook", v[3])] {
            let out = dancecard().args(["dominate", "--piece", piece, v[0]]).output().unwrap();
            assert_eq!(out.status.code(), Some(0));
            let text = stdout(&out);
            assert_eq!(text.lines().next(), Some(expected), "{piece} n={}", v[0]);
            let letter = piece[..1].to_uppercase();
            let drawn = text.matches(letter.as_str()).count();
            assert_eq!(drawn.to_string(), expected, "{piece} n={}: {text}", v[0]);
        }
    }
    let out = dancecard()
        .args(["dominate", "--piece", "queen", "8", "--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["minimum"], 5);
    assert_eq!(v["placement"].as_array().unwrap().len(), 5);
    let out = dancecard().args(["dominate", "--piece", "king", "4", "7"]).output().unwrap();
    assert_eq!(stdout(&out).lines().next(), Some("6"));
    let out = dancecard().args(["dominate", "--piece", "queen"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = dancecard().args(["dominate", "0"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn dominate_marked_squares() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("marks.txt");
    std::fs::write(&file, "X...\n.X..\n..X.\n...X\n").unwrap();
    let out = dancecard().args(["dominate", "--marked"]).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().next(), Some("1"));
    let out =
        dancecard().args(["dominate", "--marked"]).arg(&file).args(["5", "5"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    std::fs::write(&file, "X.?\n").unwrap();
    let out = dancecard().args(["dominate", "--marked"]).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn guard_uva_11214_samples() {
    let s = samples();
    let cases = s["guarding_chessboard_UVa11214"]["cases"].as_array().unwrap();
    assert_eq!(cases[0]["answer"], 1);
    assert_eq!(cases[1]["answer"], 5);
    let diagonal: String = (0..8)
        .map(|r| (0..8).map(|c| if r == c { 'X' } else { '.' }).collect::<String>() + "\n")
        .collect();
    let full = "XXXXXXXX\n".repeat(8);
    let input = format!("8 8\n{diagonal}8 8\n{full}0\n");
    let out = run_with(&["guard"], input.clone());
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(0), "Case 1: 1\nCase 2: 5\n"));
    let out = run_with(&["guard", "--format", "json"], input);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["cases"][1]["placement"].as_array().unwrap().len(), 5);
    let out = run_with(&["guard"], "2 2\nX\n");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn subset_count_sample_brute_force_and_forty_items() {
    let out = run_with(&["subset-count"], "5 1000\n100 1500 500 500 1000\n");
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(0), "8\n"));
    // Brute force on random N <= 20.
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    for n in [0usize, 1, 7, 13, 20] {
        let prices: Vec<u64> = (0..n).map(|_| next() % 1_000_000).collect();
        let budget = next() % (500_000 * n as u64 + 1);
        let brute = (0u32..1 << n)
            .filter(|m| {
                (0..n).filter(|i| m >> i & 1 == 1).map(|i| prices[i]).sum::<u64>() <= budget
            })
            .count();
        let words: Vec<String> = prices.iter().map(u64::to_string).collect();
        let input = format!("{n} {budget}\n{}\n", words.join(" "));
        let out = run_with(&["subset-count"], input);
        assert_eq!(stdout(&out), format!("{brute}\n"), "n={n}");
    }
    // N = 40, prices up to 10^16, budget up to 10^18.
    let prices: Vec<String> =
        (0..40).map(|_| (next() % 10_000_000_000_000_000).to_string()).collect();
    let input = format!("40 100000000000000000\n{}\n", prices.join(" "));
    let started = Instant::now();
    let out = run_with(&["subset-count", "--format", "json"], input);
    assert!(started.elapsed().as_secs_f64() < 1.0, "{:?}", started.elapsed());
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(v["count"].as_u64().unwrap() > 1);
    for bad in ["2 10 1", "x", "1 5 -2", "49 1"] {
        let out = run_with(&["subset-count"], bad);
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
}

#[test]
fn constant_sum_matrices() {
    let started = Instant::now();
    let out = dancecard().args(["constant-sum", "1000", "1000000000"]).output().unwrap();
    let elapsed = started.elapsed();
    assert_eq!(out.status.code(), Some(0));
    assert!(elapsed.as_secs_f64() < 1.0, "{elapsed:?}");
    let rows: Vec<Vec<u64>> =
        stdout(&out).lines().map(|l| l.split(' ').map(|x| x.parse().unwrap()).collect()).collect();
    assert_eq!(rows.len(), 1000);
    assert!(rows.iter().all(|r| r.len() == 1000 && r.iter().sum::<u64>() == 1_000_000_000));
    assert!((0..1000).all(|j| rows.iter().map(|r| r[j]).sum::<u64>() == 1_000_000_000));
    let out = dancecard().args(["constant-sum", "--even", "3", "7"]).output().unwrap();
    assert_eq!(stdout(&out), "3 2 2\n2 3 2\n2 2 3\n");
    let out = dancecard().args(["constant-sum", "2", "-1"]).output().unwrap();
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(1), "-1\n"));
    let out = dancecard().args(["constant-sum", "--format", "json", "2", "4"]).output().unwrap();
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["matrix"], serde_json::json!([[4, 0], [0, 4]]));
    for bad in [["0", "3"], ["x", "3"], ["3", "y"]] {
        let out = dancecard().arg("constant-sum").args(bad).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
}

#[test]
fn grid_pick_cases() {
    let s = samples();
    let g = &s["no_two_8_adjacent_row_mask_dp"];
    let small = g["small_example"]["grid"].as_array().unwrap();
    let mut input = String::new();
    let mut expected = String::new();
    let mut cases = 1;
    input.push_str("3 3\n");
    for row in small {
        let words: Vec<String> = row.as_array().unwrap().iter().map(|x| x.to_string()).collect();
        input.push_str(&(words.join(" ") + "\n"));
    }
    expected.push_str(&format!("{}\n", g["small_example"]["max_weight"]));
    for inst in g["max_weight_instances"].as_array().unwrap() {
        let n = inst["n"].as_u64().unwrap();
        input.push_str(&format!("{n} {n}\n"));
        for i in 0..n {
            let row: Vec<String> =
                (0..n).map(|j| ((131 * i + 71 * j + 17 * i * j) % 100).to_string()).collect();
            input.push_str(&(row.join(" ") + "\n"));
        }
        expected.push_str(&format!("{}\n", inst["max_weight"]));
        cases += 1;
    }
    let out = run_with(&["grid-pick"], format!("{cases}\n{input}"));
    assert_eq!((out.status.code(), stdout(&out)), (Some(0), expected));
    let out = run_with(&["grid-pick"], "1\n2 2\n1 2\n3\n");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn every_search_command_has_examples_and_exit_codes_in_help() {
    for cmd in [
        "slide",
        "knights",
        "egyptian",
        "min-cover",
        "dominate",
        "guard",
        "subset-count",
        "constant-sum",
        "grid-pick",
    ] {
        let out = dancecard().args([cmd, "--help"]).output().unwrap();
        let text = stdout(&out);
        assert!(text.contains("Examples:") && text.contains("Exit codes:"), "{cmd}");
        assert!(text.contains("--format"), "{cmd}");
    }
}

#[test]
fn a_full_stdout_is_an_error_not_a_panic() {
    // Every command writes its answer through one checked path: a full disk (or a closed
    // pipe) ends with the usual error and exit code 2, never a panic.
    let dir = tempfile::tempdir().unwrap();
    let prices = dir.path().join("prices.txt");
    std::fs::write(&prices, "3 5\n1 2 3\n").unwrap();
    let prices = prices.to_str().unwrap();
    let runs: [&[&str]; 6] = [
        &["egyptian", "19", "45"],
        &["egyptian", "19", "45", "--format", "json"],
        &["dominate", "5"],
        &["dominate", "5", "--format", "json"],
        &["subset-count", prices],
        &["subset-count", prices, "--format", "json"],
    ];
    for args in runs {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_dancecard"))
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(err.contains("No space left"), "{args:?}: {err}");
    }
}

#[test]
fn a_search_cut_short_still_writes_its_json() {
    let pent = testdata("instances/pent6x10.dlx");
    let runs: [(&[&str], &str); 3] = [
        (&["dominate", "8", "--node-limit", "10"], "minimum"),
        (&["min-cover", pent.to_str().unwrap(), "--node-limit", "0"], "minimum"),
        (&["egyptian", "5", "121", "--node-limit", "1"], "denominators"),
    ];
    for (args, answer) in runs {
        let out = dancecard().args(args).args(["--format", "json"]).output().unwrap();
        assert_eq!(out.status.code(), Some(3), "{args:?}: {}", stderr(&out));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["complete"], false, "{args:?}");
        assert_eq!(json["stop"], "node-limit", "{args:?}");
        assert!(json[answer].is_null(), "{args:?}");
        assert!(stderr(&out).contains("incomplete: the node limit"), "{}", stderr(&out));
    }
}

#[test]
fn an_empty_input_is_bad_input() {
    for command in ["knights", "guard", "grid-pick", "subset-count", "slide"] {
        let mut cmd = dancecard();
        cmd.arg(command);
        if command == "slide" {
            cmd.args(["--file", "-"]);
        }
        let out = cmd.write_stdin("\n  \n").output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{command}: {}", stderr(&out));
    }
}

#[test]
fn min_cover_finds_an_uncoverable_item_among_many_quickly() {
    // 50,000 items, each in one option but the last: one pass over the options names it.
    // (Not timed: these machines are shared.)
    let n = 50_000;
    let mut text: String = (0..n).map(|i| format!("i{i} ")).collect();
    text.push('\n');
    for i in 0..n - 1 {
        text.push_str(&format!("i{i}\n"));
    }
    let out = run_with(&["min-cover"], text);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains(&format!("no option covers i{}", n - 1)), "{}", stderr(&out));
}
