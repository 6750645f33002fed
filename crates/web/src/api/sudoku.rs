//! `POST /api/sudoku?method=dlx|fast&mode=solve|unique|count&box=RxC`: one sudoku puzzle of
//! any supported size, solved by the exact cover model on the engine or by the fast solver.

use axum::extract::State;
use axum::response::Response;
use dancecard_models::sudoku::{self, Method, Options, Shape};
use serde::Deserialize;
use serde_json::json;

use super::search::{self, Need, SMALL_REPLY};
use super::{body_text, ApiError, ApiQueryBody};
use crate::AppState;

/// Memory of a puzzle's search per option of its exact cover model (a side of `n` has `n^3`
/// options of 4 items; the engine's arena and the model), or of the fast solver's state,
/// which is smaller; rounded up.
const BYTES_PER_OPTION: usize = 512;

/// Memory the parser may take per byte of the body: the body holds at most
/// [`MAX_PUZZLE_LINES`] lines, so at most that many grids of at most 1,024 cells.
const PARSE_BYTES_PER_BYTE: usize = 8;

/// Memory a sudoku request may take, at most: a grid has no more cells than the body has
/// bytes, and no side over [`Shape::MAX_SIDE`] (32: 32,768 options, 16 MiB); 9x9 puzzles
/// reserve about 0.5 MiB.
fn puzzle_bytes(body_len: usize) -> usize {
    let side = (1..=Shape::MAX_SIDE).find(|s| s * s >= body_len).unwrap_or(Shape::MAX_SIDE);
    (64 << 10) + side.pow(3) * BYTES_PER_OPTION + body_len * PARSE_BYTES_PER_BYTE
}

/// The most non-empty lines a body may have: one puzzle is one line, or a grid of numbers of
/// at most 32 rows. More is refused before parsing (a 1 MiB body of short lines would be
/// hundreds of thousands of puzzles, each parsed, to be refused at the end).
const MAX_PUZZLE_LINES: usize = Shape::MAX_SIDE;

/// The solver, as `dancecard sudoku --method` names it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum MethodParam {
    /// The exact cover model on the dancing-links engine; Knuth's node counts.
    Dlx,
    /// The dedicated solver (bit sets, propagation, branching on the fewest candidates).
    #[default]
    Fast,
}

/// What is asked of the puzzle, as the modes of `dancecard sudoku`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum Mode {
    /// The first solution.
    #[default]
    Solve,
    /// Count up to 2 solutions: none, unique or multiple.
    Unique,
    /// Count every solution (within the budget).
    Count,
}

/// The query string.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Params {
    #[serde(default)]
    method: MethodParam,
    #[serde(default)]
    mode: Mode,
    /// A box shape `RxC` for rectangular boxes (`2x3`: 6x6 grids); square boxes are detected
    /// from the puzzle's length.
    #[serde(rename = "box")]
    shape: Option<String>,
}

/// Answers the puzzle's entry of `dancecard sudoku --format json` (`line`, `puzzle`,
/// `solution`, `count`, `uniqueness`, `complete`, `nodes`, `micros`) with `stop`, `method`,
/// `mode`, `size`, `box` and `givens`.
pub(super) async fn handle(
    State(state): State<AppState>,
    ApiQueryBody(params, body): ApiQueryBody<Params>,
) -> Result<Response, ApiError> {
    let shape = match &params.shape {
        Some(text) => {
            Some(text.parse::<Shape>().map_err(|e| ApiError::bad_request(format!("box: {e}")))?)
        }
        None => None,
    };
    let time_limit = if params.mode == Mode::Count {
        state.config.count_time_limit
    } else {
        state.config.time_limit
    };
    let need = Need { work: puzzle_bytes(body.len()), reply: SMALL_REPLY };
    search::run_timed(&state, need, time_limit, move |budget| {
        let text = body_text(&body)?;
        let lines =
            text.lines().map(str::trim).filter(|t| !t.is_empty() && !t.starts_with('#')).count();
        if lines > MAX_PUZZLE_LINES {
            return Err(ApiError::bad_request(format!(
                "{lines} lines in the request body: send one puzzle (one line, or a grid of \
                 numbers of at most {MAX_PUZZLE_LINES} rows)"
            )));
        }
        let mut entries = sudoku::parse_puzzles(text, shape);
        let count = entries.len();
        let puzzle =
            match entries.pop() {
                Some(Ok(puzzle)) if count == 1 => puzzle,
                Some(Err(e)) if count == 1 => {
                    // The parser speaks to the command line; here the box is a query parameter.
                    let message = e.to_string().replace("--box", "box=RxC in the query");
                    return Err(ApiError::bad_request(message));
                }
                Some(_) => {
                    return Err(ApiError::bad_request(format!(
                        "{count} puzzles in the request body: send one"
                    )))
                }
                None => return Err(ApiError::bad_request(
                    "no puzzle in the request body: send one puzzle line, row by row, `.` or `0` \
                     for a blank (81 symbols for 9x9, 256 for 16x16)",
                )),
            };
        let method = match params.method {
            MethodParam::Dlx => Method::Dlx,
            MethodParam::Fast => Method::Fast,
        };
        let limit = match params.mode {
            Mode::Solve => Some(1),
            Mode::Unique => Some(2),
            Mode::Count => None,
        };
        let options = Options::new(method).budget(budget.count_budget(limit));
        let report = sudoku::search(&puzzle.grid, &options);
        let grid = &puzzle.grid;
        let value = json!({
            "line": puzzle.line,
            "puzzle": grid.to_string(),
            "solution": report.solution.as_ref().map(ToString::to_string),
            "count": report.solutions,
            "uniqueness": (report.is_exact() && params.mode != Mode::Solve)
                .then(|| report.uniqueness().as_str()),
            "complete": report.is_exact(),
            "stop": budget.stop_name(report.stop),
            "nodes": report.nodes,
            "micros": report.micros,
            "method": if method == Method::Dlx { "dlx" } else { "fast" },
            "mode": match params.mode {
                Mode::Solve => "solve",
                Mode::Unique => "unique",
                Mode::Count => "count",
            },
            "size": grid.side(),
            "box": grid.shape().to_string(),
            "givens": grid.givens(),
        });
        budget.answer(&value)
    })
    .await
}
