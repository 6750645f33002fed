//! `GET /api/queens?n=N&mode=first|all|count&method=dlx|bits&limit=N`: the N-queens problem,
//! and `GET /api/queens/dlx?n=N`: its exact cover model in Knuth's DLX format.

use std::ops::ControlFlow;
use std::time::Instant;

use axum::extract::State;
use axum::response::Response;
use dancecard_engine::{Solver, Stats, Stop};
use dancecard_models::count::CountRequest;
use dancecard_models::queens::{self, Queens, MAX_DLX_N};
use dancecard_models::Model;
use serde::Deserialize;
use serde_json::json;

use super::reply::Finished;
use super::search::{self, Allowance, Need, SMALL_REPLY};
use super::solve::Mode;
use super::{json, ApiError, ApiQuery};
use crate::AppState;

/// Memory of a search per square of the board (the model has an option per square; with the
/// engine's arena and the restarts' shuffled copies, N = 256 was measured at about 8 MB in
/// all), rounded far up: 32 MiB for N = 256, 96 KiB for N = 8.
const BYTES_PER_SQUARE: usize = 512;

/// Memory a queens request may take, at most.
fn board_bytes(n: usize) -> usize {
    (64 << 10) + n * n * BYTES_PER_SQUARE
}

/// The largest board the bitwise methods take here. The bitwise counter looks at its cancel
/// flag between tasks (the placements of the first two ranks), and one task of a board of 19
/// takes seconds: up to 18 a task is short enough for the time budget to hold.
pub(crate) const MAX_BITS_N: usize = 18;

/// How to search, as `dancecard queens --method` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum MethodParam {
    /// The exact cover model on the engine (Knuth's node counts).
    Dlx,
    /// Bit sets; counts use the board's symmetries.
    Bits,
}

/// The query string.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Params {
    n: usize,
    #[serde(default)]
    mode: Mode,
    /// Default: `bits` for counts without a limit, `dlx` otherwise (as the command line).
    method: Option<MethodParam>,
    /// Stop after this many solutions.
    limit: Option<u64>,
}

/// The query string of `/api/queens/dlx`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DlxParams {
    n: usize,
}

fn check_n(n: usize, max: usize, method: &str) -> Result<(), ApiError> {
    if n == 0 || n > max {
        return Err(ApiError::bad_request(format!(
            "n must be between 1 and {max} with method {method}, not {n}"
        )));
    }
    Ok(())
}

/// Answers `dancecard queens N --format json`: with `mode=first` or `all`, `{"n", "method",
/// "solutions": [[file of the queen on each rank, ...], ...], "count", "complete", "stop",
/// "restarts", "stats"}` (`restarts`: for one board by DLX, the searches restarted on shuffled
/// options, see `queens::first`; otherwise null); with `mode=count`, `{"n", "method", "count", "distinct", "complete", "stop",
/// "stats"}`.
pub(super) async fn handle(
    State(state): State<AppState>,
    ApiQuery(params): ApiQuery<Params>,
) -> Result<Response, ApiError> {
    let counting = params.mode == Mode::Count;
    // A limit stops a count after that many solutions: the DLX search can, the symmetric
    // bit-set count cannot (as the command line: the default becomes dlx, bits is refused).
    if counting && params.method == Some(MethodParam::Bits) && params.limit.is_some() {
        return Err(ApiError::bad_request(
            "limit with mode=count needs method=dlx (the bit-set count uses the board's \
             symmetries and counts all solutions)",
        ));
    }
    let bits_default = counting && params.limit.is_none();
    let method =
        params.method.unwrap_or(if bits_default { MethodParam::Bits } else { MethodParam::Dlx });
    match method {
        MethodParam::Dlx => check_n(params.n, MAX_DLX_N, "dlx")?,
        MethodParam::Bits => check_n(params.n, MAX_BITS_N, "bits")?,
    }
    let time_limit = if counting { state.config.count_time_limit } else { state.config.time_limit };
    let cap = state.config.max_listed_solutions;
    let need = Need {
        work: board_bytes(params.n),
        reply: if counting { SMALL_REPLY } else { state.config.max_reply_bytes },
    };
    search::run_timed(&state, need, time_limit, move |budget| {
        match (method, counting) {
            (method, true) => count(params.n, method, params.limit, &budget),
            (_, false) => {
                // The solution limit, and whether reaching it means the server's cap cut the
                // list (as /api/solve).
                let (limit, capped) = match (params.mode, params.limit) {
                    (Mode::All, Some(l)) if l <= cap => (l, false),
                    (Mode::All, _) => (cap, true),
                    (_, limit) => (limit.map_or(1, |l| l.min(1)), false),
                };
                list(params.n, method, limit, capped, &budget)
            }
        }
    })
    .await
}

/// A queens error (a size out of range) as a `400`.
fn bad(e: queens::QueensError) -> ApiError {
    ApiError::bad_request(e.to_string())
}

/// Counts through the library's one count ([`queens::count_by`], as `dancecard queens
/// --count --format json`: up to symmetry too) under the budget.
fn count(
    n: usize,
    method: MethodParam,
    limit: Option<u64>,
    budget: &Allowance,
) -> Result<Finished, ApiError> {
    let request = CountRequest { distinct: true, ..budget.count_request(limit) };
    let c = queens::count_by(n, Some(method.model()), &request).map_err(bad)?;
    budget.answer(&json!({
        "n": n,
        "method": c.method,
        "count": json::count(&c.total),
        "distinct": c.distinct.as_ref().map(json::count),
        // A count stopped at its limit is not the count.
        "complete": c.is_complete(),
        "stop": budget.stop_name(c.stop),
        "stats": json::stats(&c.stats),
    }))
}

impl MethodParam {
    fn model(self) -> queens::Method {
        match self {
            MethodParam::Dlx => queens::Method::Dlx,
            MethodParam::Bits => queens::Method::Bits,
        }
    }
}

/// Lists boards into the reply as they are found; a board that would not fit stops the
/// search (`reply-limit`).
fn list(
    n: usize,
    method: MethodParam,
    limit: u64,
    capped: bool,
    budget: &Allowance,
) -> Result<Finished, ApiError> {
    let mut reply = budget.reply();
    let tail = |_| ApiError::reply_too_large("the answer", budget.reply_cap);
    let mut boards = reply.list("solutions").map_err(tail)?;
    let mut full = false;
    // Searches restarted on shuffled options (DLX, one board: `queens::first`).
    let mut restarts = None;
    let (stats, mut stop) = if limit == 0 {
        (Stats::default(), Stop::SolutionLimit.name())
    } else {
        match method {
            MethodParam::Bits => {
                let started = Instant::now();
                let mut stop = Stop::Exhausted.name();
                let mut found = 0u64;
                let nodes = queens::solutions(n, |p| {
                    if boards.push(p).is_err() {
                        full = true;
                        return ControlFlow::Break(());
                    }
                    found += 1;
                    if found >= limit {
                        stop = Stop::SolutionLimit.name();
                        ControlFlow::Break(())
                    } else if budget.cancelled() {
                        stop = budget.cancel_reason();
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                })
                .map_err(bad)?;
                let solutions = u128::from(found);
                (Stats { nodes, updates: 0, solutions, elapsed: started.elapsed() }, stop)
            }
            MethodParam::Dlx if limit == 1 => {
                // One board: restarts on shuffled options where the search stalls (large n).
                let found = queens::first(n, &budget.config(), &mut |_| ControlFlow::Continue(()))
                    .map_err(bad)?;
                if let Some(board) = &found.board {
                    full = boards.push(board).is_err();
                }
                restarts = Some(found.restarts);
                (found.stats, budget.stop_name(found.stop))
            }
            MethodParam::Dlx => {
                let model = Queens::new(n).map_err(bad)?;
                let problem = model.problem();
                let mut config = budget.config();
                config.budget.max_solutions = Some(u128::from(limit));
                let mut solver = Solver::with_config(&problem, config);
                let outcome = solver.solve_with(|s| {
                    if boards.push(&model.decode(&s.to_vec())).is_err() {
                        full = true;
                        return ControlFlow::Break(());
                    }
                    ControlFlow::Continue(())
                });
                (*solver.stats(), budget.stop_name(outcome.stop))
            }
        }
    };
    let listed = boards.len();
    boards.close();
    if full {
        stop = json::REPLY_LIMIT;
    }
    let complete = match Stop::from_name(stop) {
        Some(Stop::Exhausted) => true,
        Some(Stop::SolutionLimit) => !capped,
        _ => false,
    };
    let count = if full { json::count(listed as u128) } else { json::count(stats.solutions) };
    reply.field("n", &n).map_err(tail)?;
    reply
        .field("method", if method == MethodParam::Bits { "bits" } else { "dlx" })
        .map_err(tail)?;
    reply.field("count", &count).map_err(tail)?;
    reply.field("complete", &complete).map_err(tail)?;
    reply.field("stop", stop).map_err(tail)?;
    reply.field("restarts", &restarts).map_err(tail)?;
    reply.field("stats", &json::stats(&stats)).map_err(tail)?;
    Ok(reply.finish())
}

/// Answers the exact cover model of the board in Knuth's DLX format, as `dancecard queens N
/// --emit-dlx` prints it (`text/plain`).
pub(super) async fn dlx(
    State(state): State<AppState>,
    ApiQuery(params): ApiQuery<DlxParams>,
) -> Result<Response, ApiError> {
    check_n(params.n, MAX_DLX_N, "dlx")?;
    // The text is about 16 bytes an option (n^2 options): 1 MB for n = 256.
    let need = Need { work: board_bytes(params.n), reply: state.config.max_reply_bytes };
    search::dlx(&state, need, move || {
        Ok(dancecard_format::write_dlx(&Queens::new(params.n).map_err(bad)?.problem()))
    })
    .await
}
