//! Sliding-tile puzzles from Python: the native half of `dancecard.slide`.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use dancecard_search::slide::{
    self, Algorithm, Board, Goal, Heuristic, Pdb, SlideError, SolveOptions,
};
use dancecard_search::{Limits, Stop};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::interrupt::{run_detached, value_error};

/// The pattern databases built so far in this process, by side and goal (a few seconds and
/// some megabytes each, so they are kept).
static PDBS: Mutex<Vec<(usize, Goal, Arc<Pdb>)>> = Mutex::new(Vec::new());

/// The pattern database of this side and goal, built on first use.
fn pdb(side: usize, goal: Goal) -> Result<Arc<Pdb>, SlideError> {
    let mut pdbs = PDBS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, _, p)) = pdbs.iter().find(|(s, g, _)| *s == side && *g == goal) {
        return Ok(p.clone());
    }
    let built = Arc::new(Pdb::build(side, goal)?);
    pdbs.push((side, goal, built.clone()));
    Ok(built)
}

/// A board from Python: numbers in a string, a flat sequence, or rows.
fn board(state: &Bound<'_, PyAny>) -> PyResult<Board> {
    if let Ok(text) = state.downcast::<PyString>() {
        return text.to_cow()?.parse::<Board>().map_err(value_error);
    }
    let tiles = if let Ok(rows) = state.extract::<Vec<Vec<u8>>>() {
        // Rows of a square board: as many tiles in each row as there are rows.
        let side = rows.len();
        if let Some((i, row)) = rows.iter().enumerate().find(|(_, row)| row.len() != side) {
            return Err(PyValueError::new_err(format!(
                "state: row {} has {} tiles, but there are {side} rows (a square board)",
                i + 1,
                row.len()
            )));
        }
        rows.concat()
    } else {
        state.extract::<Vec<u8>>().map_err(|_| {
            PyTypeError::new_err("state: expected a string of numbers, a list of ints, or rows")
        })?
    };
    Board::new(tiles).map_err(value_error)
}

/// A solution as Python gets it: length, the blank's moves as letters, the tiles slid, and
/// the nodes expanded and generated.
type Found = (usize, String, Vec<u32>, u64, u64);

/// Solves a sliding-tile position optimally; `None` when the goal cannot be reached.
#[pyfunction]
#[pyo3(signature = (state, goal = "blank-first", heuristic = "linear-conflict", algorithm = "ida", max_nodes = None))]
pub(crate) fn slide_solve(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    goal: &str,
    heuristic: &str,
    algorithm: &str,
    max_nodes: Option<u64>,
) -> PyResult<Option<Found>> {
    let board = board(state)?;
    let goal = match goal {
        "blank-first" => Goal::BlankFirst,
        "blank-last" => Goal::BlankLast,
        _ => return Err(bad("goal", goal, "\"blank-first\" or \"blank-last\"")),
    };
    let heuristic = match heuristic {
        "manhattan" => Heuristic::Manhattan,
        "linear-conflict" => Heuristic::LinearConflict,
        "pdb" => Heuristic::Pdb,
        _ => {
            return Err(bad(
                "heuristic",
                heuristic,
                "\"manhattan\", \"linear-conflict\" or \"pdb\"",
            ))
        }
    };
    let algorithm = match algorithm {
        "ida" => Algorithm::IdaStar,
        "astar" => Algorithm::AStar,
        "bidir" => Algorithm::Bidirectional,
        "bfs" => Algorithm::Bfs,
        "iddfs" => Algorithm::Iddfs,
        _ => {
            return Err(bad(
                "algorithm",
                algorithm,
                "\"ida\", \"astar\", \"bidir\", \"bfs\" or \"iddfs\"",
            ))
        }
    };
    if !board.is_solvable(goal) {
        return Ok(None);
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let mut limits = Limits::new().cancel(cancel.clone());
    if let Some(n) = max_nodes {
        limits = limits.max_nodes(n);
    }
    // Building a pattern database cannot be cancelled: on Ctrl-C it finishes alone.
    let found = run_detached(py, &cancel, move || {
        let mut options =
            SolveOptions::new(goal).algorithm(algorithm).heuristic(heuristic).limits(limits);
        if heuristic == Heuristic::Pdb {
            options = options.pdb(pdb(board.side(), goal)?);
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
        Err(e) => Err(value_error(e)),
    }
}

fn bad(what: &str, value: &str, expected: &str) -> PyErr {
    PyValueError::new_err(format!("unknown {what} {value:?}: expected {expected}"))
}
