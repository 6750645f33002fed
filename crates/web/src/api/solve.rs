//! `POST /api/solve?mode=first|all|count|min-cost&limit=N&best=K&heuristic=mrv|leftmost&method=...`:
//! the document of `dancecard solve --format json` (`--min-cost --best K` for `mode=min-cost`).

use std::ops::ControlFlow;

use axum::extract::State;
use axum::response::Response;
use dancecard_engine::{Count, CountMethod, CountRequest, MemoConfig, Solver, Stop};
use serde::Deserialize;

use super::search::{self, Need, SMALL_REPLY};
use super::{json, parse_problem, ApiError, ApiQueryBody, HeuristicParam, PROBLEM_BYTES_PER_BYTE};
use crate::AppState;

/// What to search for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum Mode {
    /// The first solution, in search order.
    #[default]
    First,
    /// Every solution (up to `limit`, and up to the server's cap).
    All,
    /// The number of solutions; none are listed.
    Count,
    /// The `best` least-cost solutions, with a proven lower bound on the least cost.
    #[serde(rename = "min-cost")]
    MinCost,
}

/// The query string.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Params {
    #[serde(default)]
    mode: Mode,
    /// Stop after this many solutions.
    limit: Option<u64>,
    #[serde(default)]
    heuristic: HeuristicParam,
    /// How a count counts (`mode=count` only): as `dancecard solve --count --method`; the
    /// plain search when not given.
    method: Option<MethodParam>,
    /// How many least-cost solutions (`mode=min-cost` only; 1 when not given).
    best: Option<u64>,
}

/// How to count, as `dancecard solve --method` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum MethodParam {
    /// The plain search.
    Search,
    /// The memoised search.
    Memo,
    /// Whichever pays, decided from the run (the default of `dancecard solve --count`).
    Auto,
    /// By stages from both ends (its states bounded as the memo's table is).
    Frontier,
}

impl From<MethodParam> for CountMethod {
    fn from(m: MethodParam) -> CountMethod {
        match m {
            MethodParam::Search => CountMethod::Search,
            MethodParam::Memo => CountMethod::Memo,
            MethodParam::Auto => CountMethod::Auto,
            MethodParam::Frontier => CountMethod::Frontier,
        }
    }
}

/// The memory a count's memo table may take here (reserved from the server's memory budget
/// for every count that may memoise).
pub(super) const MEMO_BYTES: usize = 16 << 20;

/// Answers `{"solutions": [[option index, ...], ...], "count": N, "complete": bool,
/// "stop": "...", "stats": {...}}`, as `dancecard solve --format json` prints it.
///
/// `complete` is true when the search did what was asked: it searched the whole tree, or it
/// stopped at the first solution (`mode=first`) or at the request's `limit`. It is false when
/// the time or node budget, the server's cap on listed solutions, or the reply's cap
/// (`reply-limit`: a solution that would not fit in the answer stops the search, and `count`
/// is the number listed) cut the search short.
pub(super) async fn handle(
    State(state): State<AppState>,
    ApiQueryBody(params, body): ApiQueryBody<Params>,
) -> Result<Response, ApiError> {
    let cap = state.config.max_listed_solutions;
    if params.method.is_some() && params.mode != Mode::Count {
        return Err(ApiError::bad_request("method applies to mode=count"));
    }
    if params.mode == Mode::MinCost {
        return min_cost(state, params, body).await;
    }
    if params.best.is_some() {
        return Err(ApiError::bad_request("best applies to mode=min-cost"));
    }
    // The plain search unless asked: a memoising count reserves its table's memory.
    let method = params.method.map_or(CountMethod::Search, CountMethod::from);
    if method == CountMethod::Memo && params.limit.is_some() {
        return Err(ApiError::bad_request(
            "method=memo counts whole subtrees at once: it takes no limit",
        ));
    }
    let memoises = params.mode == Mode::Count && method != CountMethod::Search;
    let need = Need {
        work: body.len() * PROBLEM_BYTES_PER_BYTE + if memoises { MEMO_BYTES } else { 0 },
        reply: if params.mode == Mode::Count { SMALL_REPLY } else { state.config.max_reply_bytes },
    };
    search::run(&state, need, move |budget| {
        let doc = parse_problem(&body)?;
        let mut config = budget.config();
        config.heuristic = params.heuristic.into();
        // The solution limit, and whether reaching it means the server's cap cut the list.
        let (limit, capped) = match (params.mode, params.limit) {
            (Mode::First, limit) => (Some(limit.map_or(1, |l| l.min(1))), false),
            (Mode::All, Some(l)) if l <= cap => (Some(l), false),
            (Mode::All, _) => (Some(cap), true),
            (Mode::Count | Mode::MinCost, limit) => (limit, false),
        };
        config.budget.max_solutions = limit.map(u128::from);
        let mut reply = budget.reply();
        let tail = |_| ApiError::reply_too_large("the answer", budget.reply_cap);
        let mut list = reply.list("solutions").map_err(tail)?;
        let mut full = false;
        let mut used = None;
        let mut memo_stats = None;
        let mut frontier_stats = None;
        let (total, stop, stats) = if params.mode == Mode::Count {
            // The engine's one way in: the gate refuses a method that does not handle the
            // problem (400).
            let request = CountRequest {
                method,
                threads: 1,
                memo: MemoConfig { limit_bytes: MEMO_BYTES, zdd: false },
                config,
            };
            let counted = dancecard_engine::count(&doc.problem, &request, &|_| {})
                .map_err(|e| ApiError::bad_request(e.to_string()))?;
            used = Some(counted.method);
            memo_stats = counted.memo.filter(|_| counted.method == CountMethod::Memo);
            frontier_stats = counted.frontier;
            (counted.count, counted.stop, counted.stats)
        } else {
            let mut solver = Solver::with_config(&doc.problem, config);
            let outcome = solver.solve_with(|s| {
                let options: Vec<usize> =
                    s.options().map(|o| json::option_index(&doc, o)).collect();
                if list.push(&options).is_err() {
                    full = true;
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            });
            (Count::from(outcome.solutions), outcome.stop, *solver.stats())
        };
        let listed = list.len();
        list.close();
        let (count, complete, stop) = if full {
            (json::count(listed as u128), false, json::REPLY_LIMIT)
        } else {
            let complete = match stop {
                Stop::Exhausted => true,
                // A count stopped at its limit is not the count; `limit=0` searches nothing.
                Stop::SolutionLimit => {
                    !capped && params.mode != Mode::Count && params.limit != Some(0)
                }
                // Cut short (the engine ends no search found or at a cost limit).
                _ => false,
            };
            (json::count(&total), complete, json::stop_name(stop))
        };
        reply.field("count", &count).map_err(tail)?;
        reply.field("complete", &complete).map_err(tail)?;
        reply.field("stop", stop).map_err(tail)?;
        if let Some(used) = used {
            reply.field("method", used.name()).map_err(tail)?;
        }
        if let Some(m) = memo_stats {
            // What the table did: the explorer shows its hits next to the plain search's nodes.
            let memo = serde_json::json!({
                "hits": m.hits,
                "entries": m.entries,
                "clears": m.clears,
                "plain_nodes": m.plain_nodes,
            });
            reply.field("memo", &memo).map_err(tail)?;
        }
        if let Some(f) = frontier_stats {
            // What the count by stages stored.
            let frontier = serde_json::json!({
                "stages": f.stages,
                "lines": f.lines,
                "forward": f.forward,
                "states": f.states,
                "peak_states": f.peak_states,
                "peak_bytes": f.peak_bytes,
            });
            reply.field("frontier", &frontier).map_err(tail)?;
        }
        let mut stats = json::stats(&stats);
        // The exact count: the stats' own field saturates at 2^128 - 1.
        stats["solutions"] = count.clone();
        reply.field("stats", &stats).map_err(tail)?;
        Ok(reply.finish())
    })
    .await
}

/// `mode=min-cost`: `{"solutions": [...], "costs": [...], "count": N, "lower_bound": L,
/// "gap": G, "bound": "...", "reason": "...", "complete": bool, "stop": "...", "stats":
/// {...}}`, the `best` least-cost solutions (each one's options, and its cost at the same
/// place in `costs`), as `dancecard solve --min-cost --best K --format json` finds them. When
/// the budget stops the search, they are the best found, `lower_bound` a proven lower bound on
/// the least cost and `gap` the relative gap (`null` before any solution); complete, the least
/// cost and 0. `bound` names the lower bound the search pruned by and `reason` says why auto
/// chose it (empty when the first search ended the run).
async fn min_cost(
    state: AppState,
    params: Params,
    body: axum::body::Bytes,
) -> Result<Response, ApiError> {
    let cap = state.config.max_listed_solutions;
    if params.limit.is_some() {
        return Err(ApiError::bad_request("limit does not apply to mode=min-cost: best does"));
    }
    let k = params.best.unwrap_or(1);
    if k > cap {
        return Err(ApiError::bad_request(format!(
            "best is at most {cap} here (the server's cap on listed solutions)"
        )));
    }
    let need =
        Need { work: body.len() * PROBLEM_BYTES_PER_BYTE, reply: state.config.max_reply_bytes };
    search::run(&state, need, move |budget| {
        let doc = parse_problem(&body)?;
        let mut config = budget.config();
        config.heuristic = params.heuristic.into();
        let mut solver = Solver::with_config(&doc.problem, config);
        let found =
            solver.min_cost(k as usize).map_err(|e| ApiError::bad_request(e.to_string()))?;
        let mut reply = budget.reply();
        let tail = |_| ApiError::reply_too_large("the answer", budget.reply_cap);
        let mut list = reply.list("solutions").map_err(tail)?;
        let mut costs = Vec::new();
        for s in &found.best {
            let options: Vec<usize> =
                s.options.iter().map(|&o| json::option_index(&doc, o)).collect();
            list.push(&options).map_err(tail)?;
            costs.push(s.cost);
        }
        list.close();
        reply.field("costs", &costs).map_err(tail)?;
        reply.field("count", &json::count(costs.len() as u128)).map_err(tail)?;
        reply.field("lower_bound", &found.lower_bound).map_err(tail)?;
        reply.field("gap", &found.gap()).map_err(tail)?;
        reply.field("bound", found.bound.name()).map_err(tail)?;
        reply.field("reason", &found.reason).map_err(tail)?;
        reply.field("complete", &found.is_complete()).map_err(tail)?;
        reply.field("stop", json::stop_name(found.stop)).map_err(tail)?;
        reply.field("stats", &json::stats(&found.stats)).map_err(tail)?;
        Ok(reply.finish())
    })
    .await
}
