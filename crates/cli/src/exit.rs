//! The exit codes of every command, and their text in `--help`.

/// Exit code: at least one solution was found, or a count was printed.
pub(crate) const FOUND: u8 = 0;
/// Exit code: the search ended without a solution.
pub(crate) const NOT_FOUND: u8 = 1;
/// Exit code: bad input or usage (also clap's code for usage errors).
pub(crate) const BAD_INPUT: u8 = 2;
/// Exit code: a limit stopped the search (`--time-limit`, `--node-limit`, or a budget such
/// as `--max-states`) after printing what was found, marked incomplete.
pub(crate) const LIMITED: u8 = 3;
/// Exit code: stdout was a pipe that its reader closed (`dancecard ... | head`): the program
/// stops quietly, as ripgrep does. (A closed stderr stops nothing: its messages are dropped.)
pub(crate) const CLOSED_PIPE: u8 = 0;
/// Exit code: interrupted by Ctrl-C (after printing what was found, marked incomplete).
pub(crate) const INTERRUPTED: u8 = 130;

/// The exit code text shared by every command's `--help` (a macro, so that it can be
/// `concat!`ed into `after_help`).
macro_rules! exit_codes_help {
    () => {
        "Exit codes:
  0    at least one solution found, or a complete count printed
  1    no solution
  2    bad input or usage
  3    stopped by a limit (--time-limit, --node-limit...): the results printed are partial,
       marked incomplete (`incomplete:` on stderr, \"complete\": false in JSON)
  130  interrupted by Ctrl-C: the results printed are partial, marked incomplete
  A closed pipe (`dancecard ... | head`) stops the command quietly with 0; messages that a
  closed stderr cannot take are dropped."
    };
}
pub(crate) use exit_codes_help;
