//! `dancecard merge`: the results of `dancecard solve --shard I/N` added up into one count.
//!
//! The checks and the sum are `dancecard-scale`'s [`merge`]; this module reads the files and
//! prints.

use std::path::PathBuf;
use std::process::ExitCode;

use dancecard_scale::{merge, ShardResult};

use crate::exit::{FOUND, NOT_FOUND};
use crate::input::bad_input;
use crate::output::say;
use crate::output::{self, OutputFormat};

/// Merge the JSON results of `dancecard solve --shard I/N` into one count.
#[derive(Debug, clap::Args)]
#[command(after_help = concat!("Checks that every file is a shard result whose checksum matches its content (a file
edited by hand or damaged is refused: search that shard again), and that all N shards
are present exactly once, complete, and with one fingerprint (problem hash,
heuristic, split depth, N, version); prints the total.

Examples:
  for i in 0 1 2 3; do
    dancecard solve --count --shard $i/4 --output s$i.json testdata/instances/pent6x10.dlx; done
  dancecard merge s*.json            # prints 9356
  dancecard merge examples/shards/queens8-0-of-2.json examples/shards/queens8-1-of-2.json  # 92

", crate::exit::exit_codes_help!(), "
  (1 also when a shard is missing, duplicated, incomplete or from another search)"))]
pub(crate) struct Args {
    /// The shard result files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut results = Vec::new();
    for path in &args.files {
        let bytes = std::fs::read(path)
            .map_err(|e| bad_input(format!("cannot read {}: {e}", path.display())))?;
        let result = ShardResult::parse(&bytes)
            .map_err(|e| bad_input(format!("{}: {e}", path.display())))?;
        results.push((path.display().to_string(), result));
    }
    let merged = match merge(&results) {
        Ok(merged) => merged,
        Err(problems) => {
            for p in &problems {
                say!("error: {p}");
            }
            say!("incomplete: the shards do not make up one whole search");
            if args.format == OutputFormat::Json {
                let problems: Vec<String> = problems.iter().map(ToString::to_string).collect();
                output::print_json(&serde_json::json!({
                    "count": null,
                    "complete": false,
                    "shards": results.first().map(|(_, r)| r.fingerprint.shards),
                    "problems": problems,
                }))?;
            }
            return Ok(ExitCode::from(NOT_FOUND));
        }
    };
    match args.format {
        OutputFormat::Text => output::print(&format!("{}\n", merged.total))?,
        OutputFormat::Json => output::print_json(&serde_json::json!({
            "count": output::count_json(merged.total),
            "complete": true,
            "shards": merged.shards,
            "fingerprint": merged.fingerprint,
        }))?,
    }
    Ok(ExitCode::from(FOUND))
}
