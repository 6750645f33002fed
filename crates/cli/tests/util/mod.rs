//! Helpers for the command's integration tests.

use std::path::PathBuf;

use assert_cmd::Command;

/// The `dancecard` binary built by cargo, ready to run.
pub(crate) fn dancecard() -> Command {
    let mut cmd = Command::cargo_bin("dancecard").expect("the dancecard binary is built");
    cmd.env_remove("RUST_LOG");
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
