//! `GET /api/tile?board=RxC&pieces=NAME&once=true|false&flips=true|false&mode=first|all|count
//! &method=auto|dlx|dp&limit=N`: tilings of a rectangle, or of any board drawn in rows of art
//! (`board=xxx/x.x/xxx`), by a named set of polyominoes; and `GET /api/tile/dlx?board=...
//! &pieces=NAME&once=...&flips=...`: the exact cover model of that tiling in Knuth's DLX format.

use std::ops::ControlFlow;

use axum::extract::State;
use axum::response::Response;
use dancecard_engine::{Budget, OptionId, Stats, Stop};
use dancecard_models::count::CountRequest;
use dancecard_models::tiling::{self, Board, DpError, DpLimits, Tiling, TilingError};
use dancecard_models::Model;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::reply::{self, Finished, TAIL_ROOM};
use super::search::{self, Allowance, Need, SMALL_REPLY};
use super::solve::{Mode, MEMO_BYTES};
use super::{json, ApiError, ApiQuery};
use crate::AppState;

/// Memory of the model and its search per placement of a piece (an option of the exact cover
/// problem, its copy in the engine's arena, and the placement's cells kept for drawing).
/// Measured at about 250 bytes (the hexominoes on 30x34: 220,320 placements, 56 MB); rounded
/// up.
const BYTES_PER_PLACEMENT: usize = 512;

/// Memory of the profile DP per state at its peak (measured by `dancecard-models`).
const BYTES_PER_DP_STATE: usize = 128;

/// The most squares of a board here: enough for every classic tiling, small enough that the
/// model of any piece set builds in a moment.
pub(crate) const MAX_SQUARES: usize = 1024;

/// The widest narrow side for the profile DP here. Its states grow like 2 to the power of
/// its window (about the narrow side times the pieces' height less one), so the side alone
/// does not bound them: [`MAX_DP_STATES`] does.
pub(crate) const MAX_DP_SIDE: usize = 16;

/// The most states the profile DP keeps for one request (its memory peaks near 128 bytes a
/// state: 32 MiB). Past it, `method=auto` counts with the engine instead, and `method=dp`
/// answers 400.
pub(crate) const MAX_DP_STATES: usize = 1 << 18;

/// How to count, as `dancecard tile --method` names it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum MethodParam {
    /// The profile DP for a count with unlimited copies (when the board is narrow enough),
    /// the engine otherwise.
    #[default]
    Auto,
    /// The exact cover model on the engine.
    Dlx,
    /// The profile (broken-line) dynamic program: counts only, unlimited copies.
    Dp,
}

fn yes() -> bool {
    true
}

/// The query string of both endpoints: the tiling's parameters (`board`, `pieces`, `once`,
/// `flips`), and the search's (`mode`, `method`, `limit`), which `/api/tile/dlx` refuses.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Params {
    /// `RxC`, or rows of art with `/` between them (`#` or a letter a square, `.` a hole).
    board: String,
    /// A set name: monomino, dominoes, trominoes, tetrominoes, pentominoes, hexominoes.
    pieces: String,
    /// Every piece exactly once.
    #[serde(default)]
    once: bool,
    /// Whether pieces may be turned over.
    #[serde(default = "yes")]
    flips: bool,
    /// Default: `first`.
    mode: Option<Mode>,
    /// Default: `auto`.
    method: Option<MethodParam>,
    /// Stop after this many tilings.
    limit: Option<u64>,
}

impl Params {
    /// The first search parameter the query sets, by name (`/api/tile/dlx` takes none).
    fn search_parameter(&self) -> Option<&'static str> {
        let given = [
            ("mode", self.mode.is_some()),
            ("method", self.method.is_some()),
            ("limit", self.limit.is_some()),
        ];
        given.into_iter().find_map(|(name, is_given)| is_given.then_some(name))
    }
}

/// The board (`RxC` or rows of art) and the named piece set of a query, checked against
/// [`MAX_SQUARES`].
fn board_and_pieces(board: &str, pieces: &str) -> Result<(Board, Vec<tiling::Piece>), ApiError> {
    let board = if board.contains('/') {
        // Rows of art, `/` between them: `#` or a letter a square, `.` a hole.
        Board::parse(&board.replace('/', "\n"))
    } else {
        Board::parse_size(board)
    }
    .map_err(|e| ApiError::bad_request(format!("board: {e}")))?;
    if board.cell_count() > MAX_SQUARES {
        return Err(ApiError::bad_request(format!(
            "board: {} squares; the explorer tiles boards of at most {MAX_SQUARES} (the command \
             line has no such limit)",
            board.cell_count()
        )));
    }
    let set = tiling::named_set(pieces).ok_or_else(|| {
        ApiError::bad_request(format!(
            "pieces: unknown set `{pieces}`; the sets are {}",
            tiling::SET_NAMES.join(", ")
        ))
    })?;
    Ok((board, set))
}

/// A tiling error as a `400`.
fn bad(e: TilingError) -> ApiError {
    ApiError::bad_request(e.to_string())
}

/// Answers `dancecard tile --format json`: with `mode=first` or `all`, `{"solutions": [[row
/// of letters, ...], ...], "count", "complete", "stop", "stats"}`, and for drawing, `board`
/// (`rows`, `cols`), `pieces` (names) and `placements` (per tiling, each placed piece and its
/// cells); with `mode=count`, `{"method", "count", "distinct", "complete", "stop", "stats"}`.
pub(super) async fn handle(
    State(state): State<AppState>,
    ApiQuery(params): ApiQuery<Params>,
) -> Result<Response, ApiError> {
    let (board, pieces) = board_and_pieces(&params.board, &params.pieces)?;
    let mode = params.mode.unwrap_or_default();
    let method = params.method.unwrap_or_default();
    let counting = mode == Mode::Count;
    let narrow = board.rows().min(board.cols());
    let dp = match method {
        MethodParam::Dp if !counting => {
            return Err(ApiError::bad_request("method=dp only counts: add mode=count"))
        }
        MethodParam::Dp if params.limit.is_some() => {
            return Err(ApiError::bad_request(
                "limit needs method=dlx or auto (the profile DP counts all tilings)",
            ))
        }
        MethodParam::Dp if params.once => return Err(bad(DpError::Once.into())),
        MethodParam::Dp if !board.is_rectangle() => return Err(bad(DpError::NotRectangle.into())),
        MethodParam::Dp if narrow > MAX_DP_SIDE => {
            return Err(ApiError::bad_request(format!(
                "method=dp: the explorer runs the profile DP on boards at most {MAX_DP_SIDE} \
                 squares wide in one direction"
            )))
        }
        MethodParam::Dp => true,
        // A limit stops a count after that many tilings: the engine can, the DP cannot (as
        // the command line, auto then counts on the engine).
        MethodParam::Auto => {
            counting
                && params.limit.is_none()
                && !params.once
                && board.is_rectangle()
                && narrow <= MAX_DP_SIDE
        }
        MethodParam::Dlx => false,
    };
    let time_limit = if counting { state.config.count_time_limit } else { state.config.time_limit };
    let cap = state.config.max_listed_solutions;
    // The placements, at most: each orientation of each piece at each square.
    let placements: usize =
        pieces.iter().map(|p| p.orientations(params.flips).len()).sum::<usize>()
            * board.cell_count();
    let reply = if counting { SMALL_REPLY } else { state.config.max_reply_bytes };
    // A count runs the profile DP, the engine (which may memoise), or the DP and then the
    // engine when the DP outgrows its states: one at a time.
    let dp_bytes = if dp { MAX_DP_STATES * BYTES_PER_DP_STATE } else { 0 };
    let memo_bytes = if counting && method != MethodParam::Dp { MEMO_BYTES } else { 0 };
    let need = Need {
        work: placements * BYTES_PER_PLACEMENT
            + dp_bytes.max(memo_bytes)
            // A listing writes its two lists apart before the answer: up to the reply again.
            + if counting { 0 } else { reply },
        reply,
    };
    search::run_timed(&state, need, time_limit, move |budget| {
        let tiling = Tiling::builder(board, pieces)
            .once(params.once)
            .flips(params.flips)
            .build()
            .map_err(bad)?;
        if counting {
            return budget.answer(&count(&tiling, method, dp, params.limit, &budget)?);
        }
        let (limit, capped) = match (mode, params.limit) {
            (Mode::All, Some(l)) if l <= cap => (l, false),
            (Mode::All, _) => (cap, true),
            (_, limit) => (limit.map_or(1, |l| l.min(1)), false),
        };
        list(&tiling, limit, capped, &budget)
    })
    .await
}

fn count_json(method: &str, count: Value, complete: bool, stop: &str, stats: &Stats) -> Value {
    let mut stats = json::stats(stats);
    if !count.is_null() {
        // The exact count: the stats' own field saturates at 2^128 - 1.
        stats["solutions"] = count.clone();
    }
    json!({
        "method": method,
        "count": count,
        "distinct": null,
        "complete": complete,
        "stop": stop,
        "stats": stats,
    })
}

/// Counts through the library's one count ([`Tiling::count_by`], as `dancecard tile --count
/// --format json`): the profile DP within [`MAX_DP_STATES`] and [`MAX_DP_SIDE`], or the
/// engine (which may memoise, its table bounded by [`MEMO_BYTES`]; the answer's
/// `count_method` says which counted).
fn count(
    tiling: &Tiling,
    method: MethodParam,
    dp: bool,
    limit: Option<u64>,
    budget: &Allowance,
) -> Result<Value, ApiError> {
    let request =
        CountRequest { memo_limit_bytes: Some(MEMO_BYTES), ..budget.count_request(limit) };
    let limits = DpLimits { max_states: MAX_DP_STATES, max_side: MAX_DP_SIDE };
    let counted = if dp {
        // The server's node budget bounds searches; the profile DP makes none (its states are
        // bounded instead), so it runs under the time budget and the cancel flag only. Auto
        // goes on with the engine, node budget and all, past the DP's states.
        let states_only = CountRequest {
            budget: Budget { max_nodes: None, ..request.budget.clone() },
            ..request.clone()
        };
        match tiling.count_by(tiling::Method::Dp, &states_only, limits) {
            Err(TilingError::Dp(DpError::TooManyStates { .. })) if method == MethodParam::Auto => {
                tiling.count_by(tiling::Method::Dlx, &request, limits)
            }
            other => other,
        }
    } else {
        tiling.count_by(method.model(), &request, limits)
    };
    let c = match counted {
        Ok(c) => c,
        // The profile DP has no partial count.
        Err(TilingError::Dp(DpError::Cancelled)) => {
            let stats = Stats::default();
            return Ok(count_json("dp", Value::Null, false, budget.cancel_reason(), &stats));
        }
        Err(e) => return Err(bad(e)),
    };
    let mut value = count_json(
        c.method,
        json::count(&c.total),
        c.is_complete(),
        budget.stop_name(c.stop),
        &c.stats,
    );
    if c.method == "dlx" {
        value["count_method"] = json!(c.count_method);
    }
    Ok(value)
}

impl MethodParam {
    fn model(self) -> tiling::Method {
        match self {
            MethodParam::Auto => tiling::Method::Auto,
            MethodParam::Dlx => tiling::Method::Dlx,
            MethodParam::Dp => tiling::Method::Dp,
        }
    }
}

/// A placed piece, for drawing: its index in `pieces` and its cells `[row, column]`.
#[derive(Serialize)]
struct PlacementJson {
    piece: usize,
    cells: Vec<[usize; 2]>,
}

/// Lists tilings as they are found: their drawings and their placements go into two lists
/// (written apart, then into the answer), and a tiling that would not fit in the reply stops
/// the search (`reply-limit`).
fn list(
    tiling: &Tiling,
    limit: u64,
    capped: bool,
    budget: &Allowance,
) -> Result<Finished, ApiError> {
    // Room for both lists: the reply less the room for the end and the two keys.
    let room = budget.reply_cap.saturating_sub(TAIL_ROOM + 64);
    let mut art = b"[".to_vec();
    let mut placements = b"[".to_vec();
    let mut listed = 0u64;
    let mut full = false;
    let (stats, stop) = if limit == 0 {
        (Stats::default(), Stop::SolutionLimit)
    } else {
        let mut config = budget.config();
        config.budget.max_solutions = Some(u128::from(limit));
        let (outcome, stats) = tiling.solve_with(config, |options: &[OptionId]| {
            let answer = tiling.decode(options);
            let rows: Vec<String> = tiling.render(&answer).lines().map(str::to_owned).collect();
            let placed: Vec<PlacementJson> = answer
                .placements
                .iter()
                .map(|p| PlacementJson {
                    piece: p.piece,
                    cells: p.cells.iter().map(|&(r, c)| [r, c]).collect(),
                })
                .collect();
            let (Ok(a), Ok(p)) = (serde_json::to_vec(&rows), serde_json::to_vec(&placed)) else {
                full = true;
                return ControlFlow::Break(());
            };
            let comma: &[u8] = if listed > 0 { b"," } else { b"" };
            let total = art.len() + placements.len() + a.len() + p.len() + 2 * comma.len() + 2;
            if total > room {
                full = true;
                return ControlFlow::Break(());
            }
            for (buf, bytes) in [(&mut art, &a), (&mut placements, &p)] {
                // Within the room, checked above: cannot fail.
                let _ = reply::put(buf, comma, room, room);
                let _ = reply::put(buf, bytes, room, room);
            }
            listed += 1;
            ControlFlow::Continue(())
        });
        (stats, outcome.stop)
    };
    art.push(b']');
    placements.push(b']');
    let complete = !full
        && match stop {
            Stop::Exhausted => true,
            Stop::SolutionLimit => !capped,
            _ => false,
        };
    let (count, stop) = if full {
        (json::count(u128::from(listed)), json::REPLY_LIMIT)
    } else {
        (json::count(stats.solutions), budget.stop_name(stop))
    };
    let board = tiling.board();
    let mut reply = budget.reply();
    let too_large = |_| ApiError::reply_too_large("the answer", budget.reply_cap);
    reply.raw_field("solutions", &art).map_err(too_large)?;
    drop(art);
    reply.raw_field("placements", &placements).map_err(too_large)?;
    drop(placements);
    reply.field("count", &count).map_err(too_large)?;
    reply.field("complete", &complete).map_err(too_large)?;
    reply.field("stop", stop).map_err(too_large)?;
    reply.field("stats", &json::stats(&stats)).map_err(too_large)?;
    reply
        .field("board", &json!({ "rows": board.rows(), "cols": board.cols() }))
        .map_err(too_large)?;
    let names: Vec<&str> = tiling.pieces().iter().map(|p| p.name()).collect();
    reply.field("pieces", &names).map_err(too_large)?;
    Ok(reply.finish())
}

/// Answers the exact cover model of the tiling in Knuth's DLX format, as `dancecard tile
/// --emit-dlx` prints it (`text/plain`): with `once`, the pieces' items first, then one item
/// per square in reading order (`rc` on boards up to 10x10, `rRcC` on larger ones), and one
/// option per placement. The search's parameters are refused (`400`): the model is the same
/// for every search.
pub(super) async fn dlx(
    State(state): State<AppState>,
    ApiQuery(params): ApiQuery<Params>,
) -> Result<Response, ApiError> {
    if let Some(name) = params.search_parameter() {
        return Err(ApiError::bad_request(format!(
            "{name}: /api/tile/dlx answers the model, not a search: it takes board, pieces, once \
             and flips"
        )));
    }
    let (board, pieces) = board_and_pieces(&params.board, &params.pieces)?;
    let placements: usize =
        pieces.iter().map(|p| p.orientations(params.flips).len()).sum::<usize>()
            * board.cell_count();
    let need = Need {
        work: placements * BYTES_PER_PLACEMENT + state.config.max_reply_bytes,
        reply: state.config.max_reply_bytes,
    };
    search::dlx(&state, need, move || {
        let tiling = Tiling::builder(board, pieces)
            .once(params.once)
            .flips(params.flips)
            .build()
            .map_err(bad)?;
        Ok(dancecard_format::write_dlx(tiling.exact_cover()))
    })
    .await
}
