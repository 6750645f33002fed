//! `dancecard pre`: preprocess an exact cover problem as Knuth's DLX-PRE does, and write the
//! reduced problem in DLX format.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use dancecard_engine::pre::{self, ItemRemoval, PreConfig, Reduction};
use dancecard_engine::{Budget, Problem};
use dancecard_format::Document;

use crate::exit::{FOUND, INTERRUPTED, LIMITED, NOT_FOUND};
use crate::input::bad_input;
use crate::output::say;
use crate::output::{self, OutputFormat};
use crate::stop::{interrupted, stop_flag};

/// Preprocess an exact cover problem (Knuth's DLX-PRE): remove the options that no solution
/// can use and the items that others imply; write the reduced problem in DLX format on
/// stdout, each option followed by the input's option it came from, and a summary on stderr.
#[derive(Debug, clap::Args)]
#[command(after_help = concat!("In rounds until one changes nothing, an option goes when taking it (covering its items,
hiding the options that clash with it) leaves some primary item with no option, and an item
`c` goes when every option of some primary item `p` holds `c` uncolored (the options with `c`
but not `p` go with it). The reduced problem has the same solutions, as sets of the original
options: after each option a comment line `| from K: TEXT` names the input's option it came
from (K its number among the input's options, from 0; `--no-origins` leaves them out).
Problems with bounds on items (DLX3's multiplicities) are refused; costs are kept.

Examples:
  dancecard pre testdata/instances/pent6x10.dlx > pent-pre.dlx   # 144 of 2056 options removed
  dancecard solve --count pent-pre.dlx                            # 9356, as the original
  dancecard pre --format json testdata/instances/sudoku_inkala.dlx

", crate::exit::exit_codes_help!(), "
  (1 when a primary item is left in no option: the reduced problem is that item alone;
   3 when --rounds stopped the rounds before one changed nothing)"))]
pub(crate) struct Args {
    /// The problem file; `-` or nothing reads standard input.
    pub(crate) file: Option<PathBuf>,
    /// Make at most N rounds (what they removed is sound; more rounds may remove more).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::input::parse_count::<u32>)]
    pub(crate) rounds: Option<u32>,
    /// Leave out the comment line after each option (`| from K: TEXT`, the input's option
    /// it came from): the bare reduced problem.
    #[arg(long)]
    pub(crate) no_origins: bool,
    #[command(flatten)]
    pub(crate) problem_format: crate::input::ProblemFormat,
    /// Output format: `json` writes one document with the reduced problem's text and the
    /// removals.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) format: OutputFormat,
}

/// The reduced problem in DLX format, with a first comment line of figures and, with
/// `origins`, each option followed by `| from K: TEXT`, the input's option it came from (its
/// number among the input's options, and its items).
fn dlx_text(original: &Document, r: &Reduction, origins: bool) -> String {
    let mut s = String::new();
    let _ =
        writeln!(s, "| dancecard pre: {} removed, {}", removed(&original.problem, r), rounds(r));
    let text = dancecard_format::write_dlx(&r.problem);
    if !origins {
        s.push_str(&text);
        return s;
    }
    // `write_dlx` writes a comment line, the items' line, then one line per option in order.
    let mut lines = text.lines();
    for line in lines.by_ref().take(2) {
        s.push_str(line);
        s.push('\n');
    }
    for (line, &from) in lines.zip(&r.option_map) {
        let _ = writeln!(
            s,
            "{line}\n| from {}: {}",
            original.input_index[from.index()],
            original.problem.option_text(from)
        );
    }
    s
}

/// What a reduction removed: `N of M options and N of M items`.
fn removed(original: &Problem, r: &Reduction) -> String {
    format!(
        "{} of {} options and {} of {} items",
        r.removed_options.len(),
        original.option_count(),
        r.removed_items.len(),
        original.item_count(),
    )
}

/// The rounds a reduction made: `R rounds`.
fn rounds(r: &Reduction) -> String {
    format!("{} round{}", r.rounds, if r.rounds == 1 { "" } else { "s" })
}

/// What a reduction removed, and in how many rounds: `removed N of M options and N of M
/// items in R rounds`.
pub(crate) fn summary(original: &Problem, r: &Reduction) -> String {
    format!("removed {} in {}", removed(original, r), rounds(r))
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let doc = args.problem_format.load(args.file.as_deref())?;
    let p = &doc.problem;
    let config = PreConfig { max_rounds: args.rounds, budget: Budget::new().cancel(stop_flag()) };
    let r = pre::reduce_with(p, &config).map_err(|e| bad_input(e.to_string()))?;
    let text = dlx_text(&doc, &r, !args.no_origins);
    let name = |i| p.item_name(i).to_owned();
    let summary = summary(p, &r);
    match args.format {
        OutputFormat::Text => output::print(&text)?,
        OutputFormat::Json => {
            let options: Vec<_> = r
                .removed_options
                .iter()
                .map(|x| {
                    serde_json::json!({
                        "option": doc.input_index[x.option.index()],
                        "round": x.round,
                        "blocks": name(x.blocks),
                    })
                })
                .collect();
            let items: Vec<_> = r
                .removed_items
                .iter()
                .map(|x| {
                    let implied_by = match x.reason {
                        ItemRemoval::Implied { by } => Some(name(by)),
                        _ => None,
                    };
                    serde_json::json!({
                        "item": name(x.item),
                        "round": x.round,
                        "implied_by": implied_by,
                    })
                })
                .collect();
            let from: Vec<usize> =
                r.option_map.iter().map(|o| doc.input_index[o.index()]).collect();
            output::print_json(&serde_json::json!({
                "options": p.option_count(),
                "items": p.item_count(),
                "options_removed": r.removed_options.len(),
                "items_removed": r.removed_items.len(),
                "rounds": r.rounds,
                "complete": !r.stopped,
                "infeasible": r.infeasible.map(name),
                "removed_options": options,
                "removed_items": items,
                "from": from,
                "dlx": text,
            }))?;
        }
    }
    say!("{summary}");
    if let Some(item) = r.infeasible {
        say!("infeasible: primary item `{}` is in no option", name(item));
        return Ok(ExitCode::from(NOT_FOUND));
    }
    if r.stopped {
        if interrupted() {
            say!("incomplete: interrupted after {} rounds", r.rounds);
            return Ok(ExitCode::from(INTERRUPTED));
        }
        say!("incomplete: stopped after {} rounds (--rounds)", r.rounds);
        return Ok(ExitCode::from(LIMITED));
    }
    Ok(ExitCode::from(FOUND))
}
