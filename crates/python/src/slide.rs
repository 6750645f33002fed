//! Sliding-tile puzzles from Python: the native half of `dancecard.slide`.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use dancecard_search::slide::{
    self, Algorithm, Board, Goal, Heuristic, Pdb, SlideError, SolveOptions,
};
use dancecard_search::{Budget, Stop};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::args;
use crate::interrupt::run_detached;

/// The pattern databases built so far in this process, by side and goal (a few seconds and
/// some megabytes each, so they are kept).
static PDBS: Mutex<Vec<(usize, Goal, Arc<Pdb>)>> = Mutex::new(Vec::new());

/// The pattern database of this side and goal, built on first use (a build stopped by
/// `cancel` is not kept).
fn pdb(side: usize, goal: Goal, cancel: &AtomicBool) -> Result<Arc<Pdb>, SlideError> {
    let mut pdbs = PDBS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, _, p)) = pdbs.iter().find(|(s, g, _)| *s == side && *g == goal) {
        return Ok(p.clone());
    }
    let built = Arc::new(Pdb::build_with(side, goal, Some(cancel))?);
    pdbs.push((side, goal, built.clone()));
    Ok(built)
}

/// The largest tile number looked at: sides are 2 to 5, so tiles are below 25; past this
/// the board is refused as the one with an unknown tile is.
const MAX_TILE: usize = u8::MAX as usize;

/// A tile of argument `state`, at `at`.
fn tile(v: &Bound<'_, PyAny>, at: &dyn std::fmt::Display) -> PyResult<u8> {
    let t = args::usize_in(v, "state", at, 0, MAX_TILE)?;
    Ok(u8::try_from(t).unwrap_or(u8::MAX))
}

/// Reads argument `state`: numbers in a string, a flat sequence of ints, or rows.
fn read_state(obj: &Bound<'_, PyAny>) -> PyResult<Board> {
    if let Ok(text) = obj.downcast::<PyString>() {
        let text = args::str_of(text, "state", &args::WHOLE)?;
        return text.parse::<Board>().map_err(|e| args::invalid("state", e));
    }
    let expected = "a str of numbers, a sequence of ints, or rows of ints";
    // Flat or rows, as the first item tells.
    let mut tiles = Vec::new();
    let mut rows: Option<Vec<usize>> = None;
    for (i, item) in args::items(obj, &args::WHOLE, expected)?.enumerate() {
        let item = item?;
        // A str is not a row of ints (`args::items` says so).
        let is_row = rows.is_some() || (i == 0 && item.hasattr("__iter__")?);
        if !is_row {
            tiles.push(tile(&item, &args::Index::one("state", i))?);
            continue;
        }
        let lengths = rows.get_or_insert_with(Vec::new);
        let mut len = 0;
        for (j, v) in
            args::items(&item, &args::Index::one("state", i), "a row of ints")?.enumerate()
        {
            tiles.push(tile(&v?, &args::Index::two("state", i, j))?);
            len += 1;
        }
        lengths.push(len);
    }
    if let Some(lengths) = rows {
        // Rows of a square board: as many tiles in each row as there are rows.
        let side = lengths.len();
        if let Some((i, len)) = lengths.iter().enumerate().find(|(_, &len)| len != side) {
            return Err(args::invalid(
                "state",
                format!(
                    "row {} has {len} tiles, but there are {side} rows (a square board)",
                    i + 1
                ),
            ));
        }
    }
    Board::new(tiles).map_err(|e| args::invalid("state", e))
}

/// Reads argument `goal`.
fn read_goal(obj: &Bound<'_, PyAny>) -> PyResult<&'static str> {
    args::choice(obj, "goal", &["blank-first", "blank-last"])
}

/// Reads argument `heuristic`.
fn read_heuristic(obj: &Bound<'_, PyAny>) -> PyResult<&'static str> {
    args::choice(obj, "heuristic", &["manhattan", "linear-conflict", "pdb"])
}

/// Reads argument `algorithm`.
fn read_algorithm(obj: &Bound<'_, PyAny>) -> PyResult<&'static str> {
    args::choice(obj, "algorithm", &["ida", "astar", "bidir", "bfs", "iddfs"])
}

/// Reads argument `max_nodes`.
fn read_max_nodes(obj: &Bound<'_, PyAny>) -> PyResult<Option<u64>> {
    args::optional_u64(obj, "max_nodes")
}

/// A solution as Python gets it: length, the blank's moves as letters, the tiles slid, and
/// the nodes expanded and generated.
type Found = (usize, String, Vec<u32>, u64, u64);

/// Solves a sliding-tile position optimally: the engine of dancecard.slide.solve(), which
/// wraps its answer in a Solution.
///
/// Arguments:
///     state: the tiles row by row, 0 for the blank (a string of numbers, a flat sequence
///         or rows); sides 2 to 5.
///     goal: "blank-first" or "blank-last".
///     heuristic: "manhattan", "linear-conflict" or "pdb".
///     algorithm: "ida", "astar", "bidir", "bfs" or "iddfs".
///     max_nodes: the most nodes to expand, an int from 0 to 2**64 - 1, or None.
///
/// Returns:
///     (length, moves, tiles, expanded, generated), or None when the goal cannot be
///     reached.
///
/// Raises:
///     ValueError: for a state that is not a permutation of a square board, or an unknown
///         goal, heuristic or algorithm.
///     TypeError: for arguments of the wrong type.
///     RuntimeError: when max_nodes runs out.
///
/// Example:
///     >>> from dancecard import _native
///     >>> _native.slide_solve("1 2 3 0", "blank-last")
///     (0, '', [], 0, 0)
#[pyfunction]
#[pyo3(signature = (state, goal = "blank-first", heuristic = "linear-conflict", algorithm = "ida", max_nodes = None))]
pub(crate) fn slide_solve(
    py: Python<'_>,
    #[pyo3(from_py_with = read_state)] state: Board,
    #[pyo3(from_py_with = read_goal)] goal: &str,
    #[pyo3(from_py_with = read_heuristic)] heuristic: &str,
    #[pyo3(from_py_with = read_algorithm)] algorithm: &str,
    #[pyo3(from_py_with = read_max_nodes)] max_nodes: Option<u64>,
) -> PyResult<Option<Found>> {
    let board = state;
    let goal = if goal == "blank-last" { Goal::BlankLast } else { Goal::BlankFirst };
    let heuristic = match heuristic {
        "manhattan" => Heuristic::Manhattan,
        "pdb" => Heuristic::Pdb,
        _ => Heuristic::LinearConflict,
    };
    let algorithm = match algorithm {
        "astar" => Algorithm::AStar,
        "bidir" => Algorithm::Bidirectional,
        "bfs" => Algorithm::Bfs,
        "iddfs" => Algorithm::Iddfs,
        _ => Algorithm::IdaStar,
    };
    if !board.is_solvable(goal) {
        return Ok(None);
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let mut limits = Budget::new().cancel(cancel.clone());
    if let Some(n) = max_nodes {
        limits = limits.max_nodes(n);
    }
    // The search and the build of a pattern database look at the cancel flag.
    let flag = cancel.clone();
    let found = run_detached(py, &cancel, move || {
        let mut options =
            SolveOptions::new(goal).algorithm(algorithm).heuristic(heuristic).limits(limits);
        if heuristic == Heuristic::Pdb {
            options = options.pdb(pdb(board.side(), goal, &flag)?);
        }
        slide::solve(&board, &options)
    })?;
    match found {
        Ok(s) => {
            let moves = s.moves.iter().map(|d| d.letter()).collect();
            let tiles = s.tiles.iter().map(|&t| u32::from(t)).collect();
            Ok(Some((s.length, moves, tiles, s.stats.expanded, s.stats.generated)))
        }
        Err(SlideError::Unsolvable { .. }) => Ok(None),
        Err(e @ SlideError::Stopped { stop: Stop::NodeLimit | Stop::MemoryLimit, .. }) => {
            Err(PyRuntimeError::new_err(e.to_string()))
        }
        // BFS would need too much memory: the algorithm is the wrong one for this state.
        Err(e @ SlideError::TooMuchMemory { .. }) => Err(args::invalid("algorithm", e)),
        Err(e @ (SlideError::Pdb(_) | SlideError::PdbMissing | SlideError::PdbMismatch { .. })) => {
            Err(args::invalid("heuristic", e))
        }
        Err(e) => Err(PyValueError::new_err(e.to_string())),
    }
}
