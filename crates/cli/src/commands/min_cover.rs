//! `dancecard min-cover`: the fewest options covering every primary item at least once.

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use dancecard_engine::ItemKind;
use dancecard_format::{Document, InputFormat};
use dancecard_search::{cover, Stop};

use crate::input::bad_input;
use crate::output::{self, OutputFormat};
use crate::output::{say, say_part};
use crate::{exit, input};

/// Minimum repeat cover: the fewest options that cover every primary item at least once.
#[derive(Debug, clap::Args)]
#[command(after_help = concat!("Input: Knuth's DLX format (or a 0/1 matrix), as for `dancecard solve`. Unlike
an exact cover, an item may be covered several times; secondary items and colors
are ignored. Output: the options of one minimum cover, as written in the input.
Method: Dancing Links where covering an item leaves the other options through it
in place, with IDA* on the number of options and a lower bound (items no single
option can cover together need one option each).

Examples:
  printf 'a b c d\\na b\\nb c\\nc d\\na d\\n' | dancecard min-cover   # a b / c d
  dancecard min-cover examples/cover.dlx --format json --stats

", crate::exit::exit_codes_help!()))]
#[command(mut_arg("node_limit", |a| a.help("Stop after N options tried")))]
#[command(mut_arg("stats", |a| a.help("Print nodes, iterations and seconds on stderr")))]
pub(crate) struct Args {
    /// The problem file; `-` or nothing reads standard input.
    pub(crate) file: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) search: crate::args::SearchArgs,
}

/// The primary items and, per option, the primary items it covers (indices among them).
fn repeat_cover_of(doc: &Document) -> (Vec<String>, Vec<Vec<usize>>) {
    let p = &doc.problem;
    let mut index = vec![usize::MAX; p.item_count()];
    let mut names = Vec::new();
    for item in p.items() {
        if p.item_kind(item) == ItemKind::Primary {
            index[item.index()] = names.len();
            names.push(p.item_name(item).to_owned());
        }
    }
    let options = p
        .options()
        .map(|o| {
            p.option(o).iter().map(|e| index[e.item.index()]).filter(|&i| i != usize::MAX).collect()
        })
        .collect();
    (names, options)
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (bytes, name) = input::read_input(args.file.as_deref())?;
    let doc = dancecard_format::parse_auto(&bytes)
        .map(|(d, _): (Document, InputFormat)| d)
        .map_err(|e| bad_input(format!("{name}: {e}")))?;
    let limits = args.search.limits.for_search()?;
    let (items, options) = repeat_cover_of(&doc);
    // One pass over the options (not one per item: 10^5 items and options made 10^10 steps).
    let mut covered = vec![false; items.len()];
    for &i in options.iter().flatten() {
        covered[i] = true;
    }
    let uncoverable: Vec<&str> =
        (0..items.len()).filter(|&i| !covered[i]).map(|i| items[i].as_str()).collect();
    if !uncoverable.is_empty() {
        say!("no cover: no option covers {}", uncoverable.join(", "));
        if args.search.report.format == OutputFormat::Json {
            output::print_json(
                &serde_json::json!({ "minimum": null, "options": null, "uncoverable": uncoverable }),
            )?;
        }
        return Ok(ExitCode::from(exit::NOT_FOUND));
    }
    let result =
        cover::min_cover(items.len(), &options, &limits).map_err(|e| bad_input(e.to_string()))?;
    if args.search.report.stats {
        say_part!("iterations {} bound {} ", result.stats.iterations, result.stats.bound);
        output::print_search_stats(&result.stats);
    }
    let Some(chosen) = result.options else {
        if result.stop == Stop::Exhausted {
            say!("no cover");
            return Ok(ExitCode::from(exit::NOT_FOUND));
        }
        let fields = serde_json::json!({ "minimum": null, "options": null });
        return output::search_stopped_json(
            args.search.report.format,
            result.stop,
            &result.stats,
            fields,
        );
    };
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut sorted = chosen.clone();
    sorted.sort_unstable();
    let option_ids: Vec<_> = doc.problem.options().collect();
    match args.search.report.format {
        OutputFormat::Text => {
            for &o in &sorted {
                writeln!(out, "{}", doc.label(option_ids[o]))?;
            }
        }
        OutputFormat::Json => {
            let indices: Vec<usize> = sorted.iter().map(|&o| doc.input_index[o]).collect();
            let labels: Vec<&str> = sorted.iter().map(|&o| doc.label(option_ids[o])).collect();
            writeln!(
                out,
                "{}",
                serde_json::json!({
                    "minimum": sorted.len(),
                    "options": indices,
                    "labels": labels,
                    "stats": output::search_stats_json(&result.stats),
                })
            )?;
        }
    }
    out.flush()?;
    Ok(ExitCode::from(exit::FOUND))
}
