//! `dancecard`: exact cover, puzzle models and combinatorial search from the command line.
//!
//! This crate is glue: flags, input and output. The work happens in the library crates
//! (`dancecard-engine`, `dancecard-format`, ...), as in ripgrep's `crates/core`.

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cluster;
mod commands;
mod shard;
mod util;

/// Exact cover and combinatorial search: Knuth's Dancing Links, puzzle models, heuristic
/// search.
#[derive(Debug, Parser)]
#[command(name = "dancecard", version, about, max_term_width = 100)]
#[command(after_help = "Examples:
  dancecard solve testdata/instances/queens8.dlx --count
  dancecard serve --open
  dancecard solve --help")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Solve(commands::solve::Args),
    Merge(shard::MergeArgs),
    Serve(commands::serve::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => commands::solve::run(args),
        Command::Merge(args) => shard::run_merge(args),
        Command::Serve(args) => commands::serve::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            let _ = std::io::stdout().flush();
            if let Some(bad) = e.downcast_ref::<util::BadInput>() {
                eprintln!("error: {bad}");
                ExitCode::from(util::BAD_INPUT)
            } else if e
                .downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            {
                // `dancecard ... | head`: the reader left; not an error of ours.
                ExitCode::SUCCESS
            } else {
                eprintln!("error: {e:#}");
                ExitCode::from(util::BAD_INPUT)
            }
        }
    }
}
