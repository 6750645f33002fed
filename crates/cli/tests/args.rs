//! The command line's grammar: negative numbers where a number is expected, and `--help`.

use crate::util::{assert_fails, dancecard, stderr, stdout, testdata};

/// Runs `dancecard ARGS` and checks that it refuses a value with exit code 2, saying
/// `wanted` on stderr (and nothing of clap's `-- -3` tip).
fn refused(args: &[&str], wanted: &str) {
    let out = dancecard().args(args).output().unwrap();
    assert_fails(&out, 2, wanted);
    assert!(!stderr(&out).contains("tip:"), "{args:?}: {}", stderr(&out));
}

#[test]
fn negative_sizes_are_refused_with_the_range() {
    refused(&["queens", "-3"], "invalid value '-3' for '<N>': -3 is not in 1..=256");
    refused(&["langford", "-2"], "invalid value '-2' for '<N>': -2 is not in 1..=1000");
    refused(&["dominate", "-4"], "invalid value '-4' for '[ROWS]': -4 is not in 0..=");
    refused(&["dominate", "4", "-4"], "invalid value '-4' for '[COLS]': -4 is not in 0..=");
    refused(&["constant-sum", "-3", "5"], "N must be an integer from 1 to 20000, not \"-3\"");
    refused(&["egyptian", "-1", "3"], "A must be a positive integer, not \"-1\"");
    refused(&["egyptian", "1", "-3"], "B must be a positive integer, not \"-3\"");
}

#[test]
fn negative_option_values_are_refused_with_the_range() {
    let queens8 = testdata("instances/queens8.dlx");
    let queens8 = queens8.to_str().unwrap();
    let cases: [(&[&str], &str); 14] = [
        (&["queens", "8", "--limit", "-1"], "'--limit <N>': -1 is not in 0..="),
        (&["queens", "8", "--node-limit", "-1"], "'--node-limit <N>': -1 is not in 0..="),
        (&["queens", "8", "--count", "--threads", "-2"], "'--threads <N>': -2 is not in 0..=1024"),
        (&["tile", "--board", "3x3", "--pieces", "dominoes", "--limit", "-1"], "-1 is not in 0..="),
        (&["solve", "--threads", "-1", queens8], "'--threads <N>': -1 is not in 0..=1024"),
        (&["solve", "--split-depth", "-1", queens8], "'--split-depth <D>': -1 is not in 0..="),
        (&["solve", "--sample", "-1", queens8], "'--sample <K>': -1 is not in 0..="),
        (&["estimate", "--probes", "-5", queens8], "'--probes <N>': -5 is not in 1..=1000000000"),
        (&["pre", "--rounds", "-1", queens8], "'--rounds <N>': -1 is not in 0..=4294967295"),
        (&["sudoku", "--node-limit", "-4", queens8], "'--node-limit <N>': -4 is not in 0..="),
        (&["slide", "--max-states", "-3", "1", "2", "3", "0"], "-3 is not in 0..="),
        (&["knights", "--max", "-1"], "'--max <N>': -1 is not in 0..=4294967295"),
        (&["serve", "--port", "-1"], "'--port <P>': -1 is not in 0..=65535"),
        (&["serve", "--max-searches", "-1"], "'--max-searches <N>': -1 is not in 1..="),
    ];
    for (args, wanted) in cases {
        refused(args, wanted);
    }
    // Seconds: the time limit's own check, with its range.
    refused(
        &["queens", "8", "--time-limit", "-1"],
        "--time-limit must be a number of seconds from 0 to about 1.8e19, not -1",
    );
}

#[test]
fn numbers_keep_their_other_errors() {
    // Not a number, or a size the model refuses: as before.
    refused(&["queens", "x"], "invalid value 'x' for '<N>': invalid digit found in string");
    refused(&["queens", "0"], "the board size must be between 1 and 256, not 0");
    refused(&["pre", "--rounds", "5000000000"], "5000000000 is not in 0..=4294967295");
}

#[test]
fn sudoku_help_wraps_within_the_terminal_width() {
    let out = dancecard().args(["sudoku", "--help"]).output().unwrap();
    let help = stdout(&out);
    assert!(help.contains("whitespace-separated\nnumbers, one row a line"), "{help}");
    assert!(help.lines().all(|l| l.chars().count() <= 100), "{help}");
}
