//! `dancecard`: exact cover, puzzle models and combinatorial search from the command line.
//!
//! This crate is glue: flags, input and output. The work happens in the library crates
//! (`dancecard-engine`, `dancecard-format`, ...), as in ripgrep's `crates/core`.
//!
//! # Layers
//!
//! Each module has one role, and uses only the modules below it:
//!
//! 1. `main`: the command line's grammar, and errors to exit codes.
//! 2. [`commands`]: one module per subcommand, its `Args` and its `run`: the model call and
//!    the command's own formatting. `solve` hands shards to [`shard`] and cluster runs to
//!    [`cluster`], with the flags they need (they never see `solve`'s `Args`).
//! 3. [`shard`], [`cluster`]: scale-out runs of one count.
//! 4. [`search`]: exact cover searches of the model commands, with progress; [`args`]:
//!    the flag groups the commands share (the input file, `--format`, `--stats`).
//! 5. [`output`]: stdout in text or JSON (the JSON vocabulary is
//!    [`dancecard_format::json`], the web API's too), the `--stats` line, the stop report and
//!    the exit code; [`progress`]: the progress bar.
//! 6. [`stop`]: the stop flag (Ctrl-C, `--time-limit`) and the limits.
//! 7. [`input`]: reading files and flag values; [`exit`]: the exit codes.

use std::io::Write;
use std::process::ExitCode;

use crate::output::say;
use clap::{Parser, Subcommand};

mod args;
mod cluster;
mod commands;
mod exit;
mod input;
mod output;
mod progress;
mod search;
mod shard;
mod stop;

/// Exact cover and combinatorial search: Knuth's Dancing Links, puzzle models, heuristic
/// search.
#[derive(Debug, Parser)]
#[command(name = "dancecard", version, about, max_term_width = 100)]
#[command(after_help = "Examples:
  dancecard solve testdata/instances/queens8.dlx --count
  dancecard solve --count testdata/instances/domino12x12.dlx
  dancecard estimate testdata/instances/pent6x10.dlx
  dancecard sudoku testdata/sudoku/emerentius_lines/hard_sudokus.txt
  dancecard slide --heuristic pdb 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3
  dancecard dominate --piece queen 8
  dancecard queens 8
  dancecard tile --board 6x10 --pieces pentominoes --once --distinct
  dancecard langford 7
  dancecard target-sudoku testdata/target-sudoku/sample1.in
  dancecard serve --open
  dancecard solve --help")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Solve(commands::solve::Args),
    Merge(commands::merge::Args),
    Estimate(commands::estimate::Args),
    Pre(commands::pre::Args),
    Export(commands::export::Args),
    Sudoku(commands::sudoku::Args),
    Slide(commands::slide::Args),
    Knights(commands::knights::Args),
    Egyptian(commands::egyptian::Args),
    MinCover(commands::min_cover::Args),
    Dominate(commands::dominate::Args),
    Guard(commands::guard::Args),
    SubsetCount(commands::subset_count::Args),
    ConstantSum(commands::constant_sum::Args),
    GridPick(commands::grid_pick::Args),
    Queens(commands::queens::Args),
    Tile(commands::tile::Args),
    Langford(commands::langford::Args),
    TargetSudoku(commands::target_sudoku::Args),
    Serve(commands::serve::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => commands::solve::run(args),
        Command::Merge(args) => commands::merge::run(args),
        Command::Estimate(args) => commands::estimate::run(args),
        Command::Pre(args) => commands::pre::run(args),
        Command::Export(args) => commands::export::run(args),
        Command::Sudoku(args) => commands::sudoku::run(args),
        Command::Slide(args) => commands::slide::run(args),
        Command::Knights(args) => commands::knights::run(args),
        Command::Egyptian(args) => commands::egyptian::run(args),
        Command::MinCover(args) => commands::min_cover::run(args),
        Command::Dominate(args) => commands::dominate::run(args),
        Command::Guard(args) => commands::guard::run(args),
        Command::SubsetCount(args) => commands::subset_count::run(args),
        Command::ConstantSum(args) => commands::constant_sum::run(args),
        Command::GridPick(args) => commands::grid_pick::run(args),
        Command::Queens(args) => commands::queens::run(args),
        Command::Tile(args) => commands::tile::run(args),
        Command::Langford(args) => commands::langford::run(args),
        Command::TargetSudoku(args) => commands::target_sudoku::run(args),
        Command::Serve(args) => commands::serve::run(args),
    };
    match result {
        Ok(code) => code,
        // `dancecard ... | head`: the reader left; not an error of ours (as ripgrep).
        Err(e) if output::is_closed_pipe(&e) => ExitCode::from(exit::CLOSED_PIPE),
        Err(e) => {
            let _ = std::io::stdout().flush();
            if let Some(bad) = e.downcast_ref::<input::BadInput>() {
                say!("error: {bad}");
            } else {
                say!("error: {e:#}");
            }
            ExitCode::from(exit::BAD_INPUT)
        }
    }
}
