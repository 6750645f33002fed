//! `dancecard dominate`: the fewest pieces guarding a chessboard.

use std::path::PathBuf;
use std::process::ExitCode;

use dancecard_search::dominate::{self, Board, Piece};

use crate::input::bad_input;
use crate::output::{self, OutputFormat};
use crate::{exit, input};

/// Chessboard domination: the fewest pieces of one kind that attack or occupy every square
/// of an N x M board (or every marked square), and one such placement.
#[derive(Debug, clap::Args)]
#[command(after_help = concat!("Output: the minimum, then the board with the pieces (x marks a square to guard
that holds no piece). Method: minimum repeat cover (`dancecard min-cover`): the
squares to guard are the items, each square a piece may stand on an option.

Examples:
  dancecard dominate --piece queen 8          # 5 (OEIS A075458)
  dancecard dominate --piece king 7 9
  dancecard dominate --piece knight 6 --format json
  dancecard dominate --piece queen --marked examples/marks.txt   # X = guard, . = need not

", crate::exit::exit_codes_help!()))]
#[command(mut_arg("node_limit", |a| a.help("Stop after N placements tried")))]
pub(crate) struct Args {
    /// The piece.
    #[arg(long, value_enum, default_value_t = PieceArg::Queen)]
    pub(crate) piece: PieceArg,
    /// Rows (with --marked: taken from the file when not given).
    #[arg(allow_negative_numbers = true, value_parser = crate::input::parse_count::<usize>)]
    pub(crate) rows: Option<usize>,
    /// Columns (default: as many as rows).
    #[arg(allow_negative_numbers = true, value_parser = crate::input::parse_count::<usize>)]
    pub(crate) cols: Option<usize>,
    /// Only the squares marked X in FILE must be guarded (one line per row, X or .).
    #[arg(long, value_name = "FILE")]
    pub(crate) marked: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) search: crate::args::SearchArgs,
}

/// `--piece`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum PieceArg {
    /// Queen.
    Queen,
    /// King.
    King,
    /// Rook.
    Rook,
    /// Bishop.
    Bishop,
    /// Knight.
    Knight,
}

impl From<PieceArg> for Piece {
    fn from(p: PieceArg) -> Piece {
        match p {
            PieceArg::Queen => Piece::Queen,
            PieceArg::King => Piece::King,
            PieceArg::Rook => Piece::Rook,
            PieceArg::Bishop => Piece::Bishop,
            PieceArg::Knight => Piece::Knight,
        }
    }
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let piece = Piece::from(args.piece);
    let (rows, cols, marks) = match &args.marked {
        Some(path) => {
            let (text, name) = input::read_text(Some(path))?;
            let (r, c, m) =
                dominate::parse_marks(&text).map_err(|e| bad_input(format!("{name}: {e}")))?;
            if args.rows.is_some_and(|x| x != r) || args.cols.is_some_and(|x| x != c) {
                return Err(bad_input(format!("{name} is a {r} x {c} board, not the size given")));
            }
            (r, c, Some(m))
        }
        None => {
            let Some(rows) = args.rows else {
                return Err(bad_input("give the board size N [M] (or --marked FILE)"));
            };
            (rows, args.cols.unwrap_or(rows), None)
        }
    };
    let limits = args.search.limits.for_search()?;
    let board = Board { rows, cols, marked: marks.as_deref() };
    let d = dominate::dominate(piece, board, &limits).map_err(|e| bad_input(e.to_string()))?;
    if args.search.report.stats {
        output::print_search_stats(&d.stats);
    }
    let Some(minimum) = d.minimum else {
        let fields = serde_json::json!({ "minimum": null, "placement": null });
        return output::search_stopped_json(args.search.report.format, d.stop, &d.stats, fields);
    };
    match args.search.report.format {
        OutputFormat::Text => {
            let drawn = dominate::draw(piece, board, &d.placement);
            output::print(&format!("{minimum}\n{drawn}"))?;
        }
        OutputFormat::Json => {
            let placement: Vec<[usize; 2]> = d.placement.iter().map(|&(r, c)| [r, c]).collect();
            output::print_json(&serde_json::json!({
                "minimum": minimum,
                "placement": placement,
                "piece": piece.name(),
                "rows": rows,
                "cols": cols,
                "stats": output::search_stats_json(&d.stats),
            }))?;
        }
    }
    Ok(ExitCode::from(exit::FOUND))
}
