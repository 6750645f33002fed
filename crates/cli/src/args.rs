//! Flag groups that several commands flatten into their `Args`: the input file, `--format`,
//! both (`Cases`), and `--stats` with `--format` (`--node-limit` with `--time-limit` is
//! [`crate::stop::Limits`]). A command words one for itself with `mut_arg` (as for
//! [`crate::search::ModelArgs`]).

use std::path::PathBuf;

use crate::output::OutputFormat;

/// The input file, a positional argument.
#[derive(Clone, Debug, Default, clap::Args)]
pub(crate) struct InputFile {
    /// The input; `-` or nothing reads standard input.
    pub(crate) file: Option<PathBuf>,
}

/// `--format`: text or JSON on stdout.
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub(crate) struct Format {
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) format: OutputFormat,
}

/// The input file and `--format`: the arguments of a command that reads its cases from a
/// file and prints their answers.
#[derive(Clone, Debug, Default, clap::Args)]
pub(crate) struct Cases {
    #[command(flatten)]
    pub(crate) input: InputFile,
    #[command(flatten)]
    pub(crate) output: Format,
}

/// `--stats` and `--format`: the search's counters on stderr, text or JSON on stdout (a
/// command words `--stats` for its search with `mut_arg`).
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub(crate) struct Report {
    /// Print nodes and seconds on stderr.
    #[arg(long)]
    pub(crate) stats: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) format: OutputFormat,
}

/// The flags of the heuristic search commands (`dominate`, `egyptian`, `min-cover`,
/// `knights`), flattened into their `Args` (a command words them for its search with
/// `mut_arg`).
#[derive(Debug, clap::Args)]
#[command(mut_arg("node_limit", |a| a.help("Stop after N search nodes")))]
#[command(mut_arg("time_limit", |a| a.help("Stop after this many seconds: say so, and exit 3")))]
pub(crate) struct SearchArgs {
    #[command(flatten)]
    pub(crate) limits: crate::stop::Limits,
    #[command(flatten)]
    pub(crate) report: Report,
}
