//! The native module of the Python package `dancecard`: `dancecard._native`.
//!
//! # Brief overview
//!
//! The Python package (`python/dancecard/`) re-exports what this module defines and adds the
//! Pythonic wrappers of the models:
//!
//! - `Problem` ([`problem::PyProblem`]): an exact cover problem built from names, from Knuth's
//!   DLX text or from a 0/1 matrix; `first`, `count` (by the plain search, on several threads
//!   if asked, or by the memoised one: `method`), `solutions` (a lazy iterator,
//!   [`solutions::PySolutions`]) and `stats`;
//! - from the memoised count ([`counting`]): `Problem.zdd` (the ZDD of all solutions,
//!   [`counting::PyZdd`]), `Problem.sample` (exactly uniform samples) and `Problem.estimate`
//!   (Knuth's estimate of the search tree, [`counting::PyEstimate`]);
//! - counting on many machines ([`scale`], on `dancecard-scale`): `Problem.count(shard=(i,
//!   n), split_depth=d, output=FILE)` counts one shard and writes its result file, `merge`
//!   adds the files up (the files of `dancecard solve --shard` and `dancecard merge`), and
//!   `Problem` pickles (`__reduce__`, rebuilt by [`problem::_problem_from_state`]);
//! - costs, bounds and preprocessing ([`cost`]): `Problem(costs=..., bounds=...)`,
//!   `Problem.min_cost` (the `k` least-cost solutions, Knuth's DLX5) and `Problem.pre`
//!   (Knuth's DLX-PRE: a reduced problem, [`cost::PyReduction`]);
//! - `sudoku_search` ([`sudoku::sudoku_search`]) under `dancecard.sudoku`;
//! - the models ([`models`]): `tile` and its `Tiling`, `queens_*` under `dancecard.queens`,
//!   `target_sudoku`;
//! - `slide_solve` ([`slide::slide_solve`]) under `dancecard.slide`.
//!
//! Every search releases the GIL and can be stopped by Ctrl-C ([`interrupt`]). Every argument
//! is read by a reader built on [`args`]: a value of the wrong type raises `TypeError`, one out
//! of range or text that does not parse `ValueError`, with a message that names the argument
//! (`argument 'threads': expected ..., got ...`; for problem text, `DlxParseError` with the
//! line and column).
//!
//! The crate is built by maturin (`pip install ./crates/python`), which turns on pyo3's
//! `extension-module` feature; `cargo build` builds it too, linked with libpython, so that the
//! workspace's checks cover it. It is tested from Python: `crates/python/tests`.

#![deny(missing_docs)]

mod args;
mod cost;
mod counting;
mod interrupt;
mod labels;
mod models;
mod problem;
mod scale;
mod slide;
mod solutions;
mod stats;
mod sudoku;

use pyo3::prelude::*;

/// The module `dancecard._native`.
#[pymodule]
#[pyo3(name = "_native")]
fn dancecard_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<problem::PyProblem>()?;
    m.add_class::<stats::PyStats>()?;
    m.add_class::<solutions::PySolutions>()?;
    m.add_class::<stats::PyMemoStats>()?;
    m.add_class::<counting::PyZdd>()?;
    m.add_class::<counting::PyEstimate>()?;
    m.add_class::<cost::PyReduction>()?;
    m.add("DlxParseError", m.py().get_type::<problem::DlxParseError>())?;
    m.add_function(wrap_pyfunction!(sudoku::sudoku_search, m)?)?;
    m.add_class::<models::PyTiling>()?;
    m.add_function(wrap_pyfunction!(models::tile, m)?)?;
    m.add_function(wrap_pyfunction!(models::queens_count, m)?)?;
    m.add_function(wrap_pyfunction!(models::queens_solutions, m)?)?;
    m.add_function(wrap_pyfunction!(models::queens_problem, m)?)?;
    m.add_function(wrap_pyfunction!(models::target_sudoku, m)?)?;
    m.add_function(wrap_pyfunction!(slide::slide_solve, m)?)?;
    m.add_function(wrap_pyfunction!(scale::merge, m)?)?;
    m.add_function(wrap_pyfunction!(problem::_problem_from_state, m)?)?;
    Ok(())
}
