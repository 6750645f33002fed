//! Helpers for the command's integration tests.

use std::path::PathBuf;

use assert_cmd::Command;

/// The `dancecard` binary built by cargo, ready to run.
pub(crate) fn dancecard() -> Command {
    let mut cmd = Command::cargo_bin("dancecard").expect("the dancecard binary is built");
    cmd.env_remove("RUST_LOG");
    cmd
}

/// The `dancecard` binary built by cargo, as a plain [`std::process::Command`] (for the tests
/// that give it their own pipes or terminal).
pub(crate) fn dancecard_process() -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_dancecard"));
    let _ = cmd.env_remove("RUST_LOG");
    cmd
}

/// A file under the repository's `testdata/`.
pub(crate) fn testdata(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata").join(path)
}

/// The stdout of a finished command as text.
pub(crate) fn stdout(output: &std::process::Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

/// The stderr of a finished command as text.
pub(crate) fn stderr(output: &std::process::Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

/// The data rows of a tab-separated file under `testdata/ground-truth/` (comment lines and
/// the header skipped), each split into its fields.
pub(crate) fn ground_truth(name: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(testdata(&format!("ground-truth/{name}")))
        .expect("the ground-truth file exists");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .skip(1)
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect()
}

/// Runs `dancecard ARGS PATH` to its end, PATH a file under `testdata/`.
pub(crate) fn run_on(args: &[&str], path: &str) -> std::process::Output {
    dancecard().args(args).arg(testdata(path)).output().expect("dancecard runs")
}

/// Checks that a command exited with `code`, and returns its stdout parsed as JSON.
pub(crate) fn json_output(output: &std::process::Output, code: i32) -> serde_json::Value {
    assert_eq!(output.status.code(), Some(code), "{}", stderr(output));
    serde_json::from_str(&stdout(output)).expect("stdout is JSON")
}

/// Runs `dancecard ARGS` to its end with `input` on its standard input.
pub(crate) fn run_with(args: &[&str], input: impl Into<Vec<u8>>) -> std::process::Output {
    dancecard().args(args).write_stdin(input).output().expect("dancecard runs")
}

/// A temporary file holding `text` (removed when dropped).
pub(crate) fn temp_file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("a temporary file");
    std::io::Write::write_all(&mut f, text.as_bytes()).expect("the temporary file is written");
    f
}

/// The rows of a ground-truth file (see [`ground_truth`]) whose first field, a number, is at
/// most `max`, with that number.
pub(crate) fn ground_truth_up_to(name: &str, max: usize) -> Vec<(usize, Vec<String>)> {
    ground_truth(name)
        .into_iter()
        .map(|row| (row[0].parse().expect("the first field is a number"), row))
        .filter(|&(n, _)| n <= max)
        .collect()
}

/// Checks that a command failed with exit code `code`, printing nothing on stdout and saying
/// `wanted` on stderr.
pub(crate) fn assert_fails(out: &std::process::Output, code: i32, wanted: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(code), "{err}");
    assert_eq!(stdout(out), "", "{err}");
    assert!(err.contains(wanted), "{err}");
}
