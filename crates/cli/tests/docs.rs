//! The commands that README.md and the pages of `docs/` show in ```console blocks run, and
//! print what the page says they print (trycmd reads the blocks: `$ dancecard ...`, then the
//! expected output, stdout and stderr together, with `...` for lines and `[..]` for part of a
//! line that vary, and `? N` for an exit code other than 0). So the documentation cannot drift
//! from the program. Commands that cannot run here (MPI clusters, batch schedulers, `serve`,
//! counts of minutes) are in ```sh blocks, which trycmd skips.

use std::path::{Path, PathBuf};

/// The pages whose examples run: README.md and every page of `docs/`.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut pages = vec![root.join("README.md")];
    let docs = std::fs::read_dir(root.join("docs")).expect("docs/ is readable");
    let mut more: Vec<PathBuf> = docs
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    more.sort();
    pages.extend(more);
    pages
}

#[test]
fn documented_commands_print_what_the_docs_say() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = root.canonicalize().expect("the repository's root");
    // trycmd runs the commands of `PAGE.md` in the directory `PAGE.in` when there is one. The
    // examples name files relative to the repository's root (`examples/...`, `testdata/...`),
    // as a reader types them in a fresh clone: each page is copied into a temporary directory
    // beside a link `PAGE.in` to the root, so that the commands run there, and nothing is left
    // in the repository.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let cases = trycmd::TestCases::new();
    cases.register_bin("dancecard", PathBuf::from(env!("CARGO_BIN_EXE_dancecard")));
    for page in pages(&root) {
        let relative = page.strip_prefix(&root).expect("a page under the root");
        let name = relative.to_string_lossy().replace('/', "--");
        let copy = dir.path().join(&name);
        std::fs::copy(&page, &copy).expect("the page copied");
        let base = copy.with_extension("in");
        std::os::unix::fs::symlink(&root, &base).expect("the link to the root");
        cases.case(&copy);
    }
    cases.run();
}
