//! `GET /api/tile?board=RxC&pieces=NAME&once=true|false&flips=true|false&mode=first|all|count
//! &method=auto|dlx|dp&limit=N`: tilings of a rectangle by a named set of polyominoes.

use std::ops::ControlFlow;
use std::time::Instant;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::response::Response;
use dancecard_engine::{OptionId, Stats, Stop};
use dancecard_models::tiling::{self, Board, DpError, Tiling, TilingError};
use dancecard_models::Model;
use serde::Deserialize;
use serde_json::{json, Value};

use super::search::{self, Budget};
use super::solve::Mode;
use super::{json, json_ok, ApiError};
use crate::AppState;

/// The most squares of a board here: enough for every classic tiling, small enough that the
/// model of any piece set builds in a moment.
pub(crate) const MAX_SQUARES: usize = 1024;

/// The widest narrow side for the profile DP here. Its states grow like 2 to the power of
/// its window (about the narrow side times the pieces' height less one), so the side alone
/// does not bound them: [`MAX_DP_STATES`] does.
pub(crate) const MAX_DP_SIDE: usize = 16;

/// The most states the profile DP keeps for one request (its memory peaks near 128 bytes a
/// state: 128 MiB). Past it, `method=auto` counts with the engine instead, and `method=dp`
/// answers 400.
pub(crate) const MAX_DP_STATES: usize = 1 << 20;

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

/// The query string.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Params {
    /// `RxC`.
    board: String,
    /// A set name: monomino, dominoes, trominoes, tetrominoes, pentominoes, hexominoes.
    pieces: String,
    /// Every piece exactly once.
    #[serde(default)]
    once: bool,
    /// Whether pieces may be turned over.
    #[serde(default = "yes")]
    flips: bool,
    #[serde(default)]
    mode: Mode,
    #[serde(default)]
    method: MethodParam,
    /// Stop after this many tilings.
    limit: Option<u64>,
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
    params: Result<Query<Params>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(params) = params?;
    let board = Board::parse_size(&params.board)
        .map_err(|e| ApiError::bad_request(format!("board: {e}")))?;
    if board.cell_count() > MAX_SQUARES {
        return Err(ApiError::bad_request(format!(
            "board: {} squares; the explorer tiles boards of at most {MAX_SQUARES} (the command \
             line has no such limit)",
            board.cell_count()
        )));
    }
    let pieces = tiling::named_set(&params.pieces).ok_or_else(|| {
        ApiError::bad_request(format!(
            "pieces: unknown set `{}`; the sets are {}",
            params.pieces,
            tiling::SET_NAMES.join(", ")
        ))
    })?;
    let counting = params.mode == Mode::Count;
    let narrow = board.rows().min(board.cols());
    let dp = match params.method {
        MethodParam::Dp if !counting => {
            return Err(ApiError::bad_request("method=dp only counts: add mode=count"))
        }
        MethodParam::Dp if params.once => return Err(bad(DpError::Once.into())),
        MethodParam::Dp if narrow > MAX_DP_SIDE => {
            return Err(ApiError::bad_request(format!(
                "method=dp: the explorer runs the profile DP on boards at most {MAX_DP_SIDE} \
                 squares wide in one direction"
            )))
        }
        MethodParam::Dp => true,
        MethodParam::Auto => counting && !params.once && narrow <= MAX_DP_SIDE,
        MethodParam::Dlx => false,
    };
    let time_limit = if counting { state.config.count_time_limit } else { state.config.time_limit };
    let cap = state.config.max_listed_solutions;
    let value = search::run_timed(&state, time_limit, move |budget| {
        let tiling = Tiling::builder(board, pieces)
            .once(params.once)
            .flips(params.flips)
            .build()
            .map_err(bad)?;
        if dp {
            match count_dp(&tiling, &budget) {
                Err(TilingError::Dp(DpError::TooManyStates { .. }))
                    if params.method == MethodParam::Auto => {}
                other => return other.map_err(bad),
            }
        }
        if counting {
            return Ok(count_dlx(&tiling, params.limit, &budget));
        }
        let (limit, capped) = match (params.mode, params.limit) {
            (Mode::All, Some(l)) if l <= cap => (l, false),
            (Mode::All, _) => (cap, true),
            (_, limit) => (limit.map_or(1, |l| l.min(1)), false),
        };
        Ok(list(&tiling, limit, capped, &budget))
    })
    .await?;
    Ok(json_ok(value))
}

fn count_json(method: &str, count: Value, complete: bool, stop: &str, stats: &Stats) -> Value {
    json!({
        "method": method,
        "count": count,
        "distinct": null,
        "complete": complete,
        "stop": stop,
        "stats": json::stats(stats),
    })
}

/// Counts with the profile DP under the budget and [`MAX_DP_STATES`].
fn count_dp(tiling: &Tiling, budget: &Budget) -> Result<Value, TilingError> {
    let started = Instant::now();
    let (count, stop) = match tiling.count_dp_bounded(Some(&budget.cancel), MAX_DP_STATES) {
        Ok(n) => (Some(n), "exhausted"),
        Err(TilingError::Dp(DpError::Cancelled)) => (None, budget.cancel_reason()),
        Err(e) => return Err(e),
    };
    let stats =
        Stats { nodes: 0, updates: 0, solutions: count.unwrap_or(0), elapsed: started.elapsed() };
    Ok(count_json("dp", count.map_or(Value::Null, json::count), count.is_some(), stop, &stats))
}

fn count_dlx(tiling: &Tiling, limit: Option<u64>, budget: &Budget) -> Value {
    let mut config = budget.config();
    config.max_solutions = limit.map(u128::from);
    let (solutions, stop, stats) = {
        let (outcome, stats) = tiling.count(config);
        (outcome.solutions, outcome.stop, stats)
    };
    let complete = matches!(stop, Stop::Exhausted | Stop::SolutionLimit);
    count_json("dlx", json::count(solutions), complete, budget.stop_name(stop), &stats)
}

fn list(tiling: &Tiling, limit: u64, capped: bool, budget: &Budget) -> Value {
    let mut art: Vec<Vec<String>> = Vec::new();
    let mut placements: Vec<Value> = Vec::new();
    let (stats, stop) = if limit == 0 {
        (Stats::default(), Stop::SolutionLimit)
    } else {
        let mut config = budget.config();
        config.max_solutions = Some(u128::from(limit));
        let (outcome, stats) = tiling.solve_with(config, |options: &[OptionId]| {
            let answer = tiling.decode(options);
            art.push(tiling.render(&answer).lines().map(str::to_owned).collect());
            placements.push(
                answer
                    .placements
                    .iter()
                    .map(|p| {
                        let cells: Vec<[usize; 2]> = p.cells.iter().map(|&(r, c)| [r, c]).collect();
                        json!({ "piece": p.piece, "cells": cells })
                    })
                    .collect(),
            );
            ControlFlow::Continue(())
        });
        (stats, outcome.stop)
    };
    let complete = match stop {
        Stop::Exhausted => true,
        Stop::SolutionLimit => !capped,
        _ => false,
    };
    let board = tiling.board();
    json!({
        "solutions": art,
        "count": json::count(stats.solutions),
        "complete": complete,
        "stop": budget.stop_name(stop),
        "stats": json::stats(&stats),
        "board": { "rows": board.rows(), "cols": board.cols() },
        "pieces": tiling.pieces().iter().map(|p| p.name()).collect::<Vec<_>>(),
        "placements": placements,
    })
}
