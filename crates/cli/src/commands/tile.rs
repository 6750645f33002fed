//! `dancecard tile`: tilings of a board by polyominoes.

use std::ops::ControlFlow;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Mutex;

use dancecard_engine::Stop;
use dancecard_models::tiling::{self, Board, DpLimits, Piece, Tiling};
use dancecard_models::Model;

use crate::input::bad_input;
use crate::output::say;
use crate::output::{self, OutputFormat, Stream};
use crate::progress::Progress;
use crate::search::{self};

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Method {
    /// The profile DP for --count of a full rectangle with unlimited copies, DLX otherwise.
    Auto,
    /// Exact cover by dancing links: works everywhere.
    Dlx,
    /// Profile (broken-line) dynamic programming: counts only, full rectangles, unlimited
    /// copies; exact in 128 bits.
    Dp,
}

/// Tile a board with polyominoes: print the first tiling, all of them, or their number.
#[derive(Debug, clap::Args)]
#[command(after_help = concat!("Boards: RxC for a rectangle, or a file of ASCII art where `#` or any letter marks a
cell to cover and `.` or a space marks none (so boards may have holes).

Pieces: a named set (monomino, dominoes, trominoes, tetrominoes, pentominoes, hexominoes)
or a file of pieces in ASCII art (`#` a cell, `.` an empty spot) separated by blank lines,
each optionally preceded by a line holding only its name.

Pieces may be rotated and reflected (--no-flip forbids reflections). Without --once any
number of copies of each piece may be used; with it, every piece exactly once.

Examples:
  dancecard tile --board 6x10 --pieces pentominoes --once          # the first tiling
  dancecard tile --board 6x10 --pieces pentominoes --once --count  # 9356
  dancecard tile --board 6x10 --pieces pentominoes --once --distinct # 2339
  dancecard tile --board 12x12 --pieces dominoes --count --method dp
  dancecard tile --board examples/ring.txt --pieces examples/my-pieces.txt --all --limit 5
  dancecard tile --board 4x5 --pieces tetrominoes --emit-dlx > t.dlx
  dancecard tile --board 10x10 --pieces dominoes --count --method dlx --time-limit 5

", crate::exit::exit_codes_help!()))]
#[command(mut_arg("limit", |a| a.help("Stop after N tilings (a count with a limit runs on dlx)")))]
#[command(mut_arg("all", |a| a.help("Print every tiling, a blank line between two")))]
#[command(mut_arg("count", |a| a.help("Print only the number of tilings")))]
#[command(mut_arg("distinct", |a| a.help("Print only the number of tilings up to the board's symmetries")))]
pub(crate) struct Args {
    /// The board: RxC or a file of ASCII art.
    #[arg(long, value_name = "RxC|FILE")]
    pub(crate) board: String,
    /// The pieces: a set name or a file of ASCII art.
    #[arg(long, value_name = "NAME|FILE")]
    pub(crate) pieces: String,
    /// Use every piece exactly once.
    #[arg(long)]
    pub(crate) once: bool,
    /// Forbid reflecting pieces (rotations only).
    #[arg(long)]
    pub(crate) no_flip: bool,
    #[command(flatten)]
    pub(crate) listing: search::Listing,
    /// The method.
    #[arg(long, value_enum, default_value_t = Method::Auto)]
    pub(crate) method: Method,
    #[command(flatten)]
    pub(crate) model: search::ModelArgs,
}

/// Reads a text file given on the command line.
fn read(path: &str, what: &str) -> anyhow::Result<String> {
    let bytes = std::fs::read(path)
        .map_err(|e| bad_input(format!("cannot read {what} file {path}: {e}")))?;
    String::from_utf8(bytes).map_err(|_| bad_input(format!("{what} file {path} is not UTF-8")))
}

fn load_board(spec: &str) -> anyhow::Result<Board> {
    let looks_like_size = spec.split_once(['x', 'X']).is_some_and(|(a, b)| {
        [a, b].iter().all(|t| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit()))
    });
    if looks_like_size && !Path::new(spec).is_file() {
        return Board::parse_size(spec).map_err(|e| bad_input(format!("--board {spec}: {e}")));
    }
    let text = read(spec, "board")?;
    Board::parse(&text).map_err(|e| bad_input(format!("{spec}: {e}")))
}

fn load_pieces(spec: &str) -> anyhow::Result<Vec<Piece>> {
    if let Some(set) = tiling::named_set(spec) {
        return Ok(set);
    }
    if !Path::new(spec).is_file() {
        return Err(bad_input(format!(
            "--pieces {spec}: neither a set name ({}) nor a file",
            tiling::SET_NAMES.join(", ")
        )));
    }
    let text = read(spec, "pieces")?;
    tiling::parse_pieces(&text).map_err(|e| bad_input(format!("{spec}: {e}")))
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let board = load_board(&args.board)?;
    let pieces = load_pieces(&args.pieces)?;
    let tiling = Tiling::builder(board, pieces)
        .once(args.once)
        .flips(!args.no_flip)
        .build()
        .map_err(|e| bad_input(e.to_string()))?;
    if args.model.emit_dlx {
        return output::emit_dlx(tiling.exact_cover());
    }
    args.model.limits.arm()?;
    // The refusals in the flags' own words; the choice of method is the library's
    // (`Tiling::count_by`).
    match args.method {
        Method::Dp if args.listing.distinct => {
            Err(bad_input("--distinct needs --method dlx (the profile DP counts all tilings)"))
        }
        Method::Dp if !args.listing.count => {
            Err(bad_input("the profile DP only counts: add --count"))
        }
        Method::Dp if args.model.limit.is_some() => {
            Err(bad_input("--limit needs --method dlx (the profile DP counts all tilings)"))
        }
        Method::Dp if args.model.limits.node_limit.is_some() => {
            Err(bad_input("--node-limit needs --method dlx (the profile DP has no search nodes)"))
        }
        _ if args.listing.counting() => count(&args, &tiling),
        _ => list(&args, &tiling),
    }
}

impl Method {
    fn model(self) -> tiling::Method {
        match self {
            Method::Auto => tiling::Method::Auto,
            Method::Dlx => tiling::Method::Dlx,
            Method::Dp => tiling::Method::Dp,
        }
    }
}

/// Counts through the library's one count ([`Tiling::count_by`]): the profile DP, or the
/// engine (which may memoise; up to symmetry with `--distinct`).
fn count(args: &Args, tiling: &Tiling) -> anyhow::Result<ExitCode> {
    let progress = Mutex::new(Progress::new(args.model.report.format));
    let report = |p| crate::progress::lock(&progress).parallel(p);
    let request = args.model.count_request(0, args.listing.distinct, &report);
    let counted = tiling.count_by(args.method.model(), &request, DpLimits::default());
    crate::progress::lock(&progress).finish();
    match counted {
        Ok(c) => args.model.report_count(&args.listing, &[], c),
        Err(tiling::TilingError::Dp(tiling::DpError::Cancelled)) => {
            // The DP has no partial count: say so, and how it stopped.
            if args.model.report.format == OutputFormat::Json {
                output::print_json(&serde_json::json!({
                    "method": "dp",
                    "count": null,
                    "complete": false,
                    "stop": output::stop_name(Stop::Cancelled),
                }))?;
            }
            output::report_stop(Stop::Cancelled);
            say!("(the profile DP has no partial count)");
            Ok(output::exit_code(false, Stop::Cancelled))
        }
        Err(e) => Err(bad_input(e.to_string())),
    }
}

fn list(args: &Args, tiling: &Tiling) -> anyhow::Result<ExitCode> {
    let limit = args.listing.list_limit(args.model.limit);
    let mut progress = Progress::new(args.model.report.format);
    let mut stream = Stream::new(true);
    let mut json: Vec<Vec<String>> = Vec::new();
    let config = search::config(limit, &args.model.limits);
    let (outcome, stats) = search::search(tiling.exact_cover(), config, &mut progress, |s| {
        let art = tiling.render(&tiling.decode(&s.to_vec()));
        if args.model.report.format == OutputFormat::Json {
            json.push(art.lines().map(str::to_owned).collect());
            return ControlFlow::Continue(());
        }
        stream.answer(&art)
    });
    stream.close()?;
    let stop = outcome.stop;
    let answer =
        serde_json::json!({ "solutions": json, "count": output::count_json(stats.solutions) });
    let found = args.model.report_list("no tiling", answer, &stats, stop)?;
    Ok(output::finish(found, stop))
}
