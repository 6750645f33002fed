//! Costs, bounds and preprocessing from Python (#19): `Problem(costs=..., bounds=...)`,
//! `Problem.min_cost` (Knuth's DLX5 on the engine: [`Solver::min_cost_with`]) and
//! `Problem.pre` (Knuth's DLX-PRE: [`pre::reduce_with`], a [`PyReduction`]).
//!
//! - Costs are one nonnegative int per option, below 2**64, whose sum stays below 2**64 (the
//!   builder's rule, [`ProblemBuilder::set_cost`]); bounds (DLX3's multiplicities) are a
//!   mapping from primary item names to `m` (exactly `m` times) or `(lo, hi)`. Both are in
//!   the DLX text (`to_dlx`, `from_dlx`), and so in a pickle.
//! - `min_cost` returns `(cost, solution)` pairs, least cost first, each solution numbered as
//!   the problem numbers its options (sorted, as `first` gives it); `stats` is set as for
//!   any search, and the search runs with the GIL released and stops on Ctrl-C
//!   ([`run_interruptible`]).
//! - `pre` returns the reduced problem (its options numbered from 0), and `origins`: the
//!   number, in the original, of each of its options; what was removed and why is there
//!   too, as `dancecard pre --format json` writes it.
//!
//! [`ProblemBuilder::set_cost`]: dancecard_engine::ProblemBuilder::set_cost

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use dancecard_engine::pre::{self, PreConfig};
use dancecard_engine::{Budget, LowerBound, Problem};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args;
use crate::interrupt::run_interruptible;
use crate::labels::Labels;

/// The most solutions `min_cost` keeps: the engine reserves room for `k` of them at once, so
/// a huge `k` would end the process instead of raising `MemoryError`; a million best
/// solutions are more than a cost search is for (`solutions()` lists them all).
pub(crate) const MAX_K: usize = 1 << 20;

/// Reads argument `k` of `Problem.min_cost`: 1 to [`MAX_K`].
pub(crate) fn read_k(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    args::usize_in(obj, "k", &args::WHOLE, 1, MAX_K)
}

/// Reads argument `lower_bound` of `Problem.min_cost`: `"auto"`, `"relaxation"`, `"shares"`
/// or `"dlx5"` (see [`lower_bound`]).
pub(crate) fn read_lower_bound(obj: &Bound<'_, PyAny>) -> PyResult<&'static str> {
    args::choice(obj, "lower_bound", &["auto", "relaxation", "shares", "dlx5"])
}

/// The lower bound of a name that [`read_lower_bound`] accepted.
pub(crate) fn lower_bound(name: &str) -> LowerBound {
    match name {
        "dlx5" => LowerBound::Dlx5,
        "shares" => LowerBound::ItemShares,
        "relaxation" => LowerBound::Relaxation,
        _ => LowerBound::Auto,
    }
}

/// Reads argument `max_rounds` of `Problem.pre`: an int from 0 to 2**32 - 1, or `None`.
pub(crate) fn read_max_rounds(obj: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
    if obj.is_none() {
        return Ok(None);
    }
    let range = (0, u128::from(u32::MAX));
    let v =
        args::int_in(obj, "max_rounds", &args::WHOLE, range, "an int from 0 to 2**32 - 1 or None")?;
    // In range, so it fits.
    Ok(Some(u32::try_from(v).unwrap_or(u32::MAX)))
}

/// The bounds of a problem's primary items, those other than `1:1`, in declaration order:
/// the `Problem.bounds` property (what `bounds=` takes back), the items as the caller gave
/// them.
pub(crate) fn bounds_dict<'py>(
    py: Python<'py>,
    problem: &Problem,
    labels: Option<&Labels>,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for i in problem.items() {
        if let Some((lo, hi)) = problem.item_bounds(i).filter(|&b| b != (1, 1)) {
            dict.set_item(Labels::item(labels, py, problem.item_name(i)), (lo, hi))?;
        }
    }
    Ok(dict)
}

/// What Problem.pre() made: the reduced problem, how its options map back to the
/// original's, and what was removed.
///
/// The reduced problem has the same solutions as the original once its options are mapped
/// back by origins: sorted(r.origins[k] for k in s) for each solution s of r.problem (for
/// options given as a dict, the names themselves carry over).
///
/// Example:
///     >>> import dancecard
///     >>> p = dancecard.Problem("a b c", options=["a b", "b c", "c"])
///     >>> r = p.pre()
///     >>> r.origins, r.removed_options, r.removed_items, r.complete
///     ([0, 2], [1], ['b'], True)
///     >>> [sorted(r.origins[k] for k in s) for s in r.problem.solutions()]
///     [[0, 2]]
#[pyclass(frozen, module = "dancecard", name = "Reduction")]
#[derive(Debug)]
pub(crate) struct PyReduction {
    /// The reduced problem: the items and options left (names, order, colors and costs
    /// kept), its options numbered from 0.
    #[pyo3(get)]
    problem: Py<PyAny>,
    origins: Vec<usize>,
    removed_options: Vec<usize>,
    removed_items: Vec<String>,
    rounds: u32,
    complete: bool,
    infeasible: Option<String>,
    given: usize,
    /// The caller's objects behind the original problem's names.
    labels: Option<Arc<Labels>>,
}

#[pymethods]
impl PyReduction {
    /// For each option of the reduced problem, its number in the original problem:
    /// `sorted(origins[k] for k in s)` is a solution of the original for every solution `s`
    /// of the reduced problem, and every solution of the original is one of these.
    #[getter]
    fn origins(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Labels::options(self.labels.as_deref(), py, &self.origins)
    }

    /// The options removed (numbers in the original problem), in the order they went.
    #[getter]
    fn removed_options(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Labels::options(self.labels.as_deref(), py, &self.removed_options)
    }

    /// The items removed (names), in the order they went: implied by a primary item (every
    /// option of that item holds it uncolored), or left in no option.
    #[getter]
    fn removed_items(&self, py: Python<'_>) -> Vec<Py<PyAny>> {
        self.removed_items.iter().map(|n| Labels::item(self.labels.as_deref(), py, n)).collect()
    }

    /// The rounds made, the last one (which changed nothing) included: 2 on the pentominoes
    /// of 6x10, as DLX-PRE.
    #[getter]
    fn rounds(&self) -> u32 {
        self.rounds
    }

    /// Whether the rounds went on until one changed nothing (`False` when `max_rounds`
    /// stopped them: what was removed is sound, more rounds might remove more).
    #[getter]
    fn complete(&self) -> bool {
        self.complete
    }

    /// A primary item found in no option (its name), or `None`: with one, the problem has
    /// no solution, and the reduced problem is that item alone.
    #[getter]
    fn infeasible(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.infeasible.as_ref().map(|n| Labels::item(self.labels.as_deref(), py, n))
    }

    fn __repr__(&self) -> String {
        format!(
            "Reduction(options={} of {}, removed_items={}, rounds={}, complete={})",
            self.origins.len(),
            self.given,
            self.removed_items.len(),
            self.rounds,
            if self.complete { "True" } else { "False" },
        )
    }
}

/// Preprocesses `problem` (options numbered by `index`, `given` of them) within `max_rounds`,
/// with the GIL released, stopped by Ctrl-C; `wrap` makes the reduced problem a Python
/// `Problem` (with the labels of the options kept). A problem with bounds is a `ValueError`
/// with the engine's message.
pub(crate) fn reduce(
    py: Python<'_>,
    problem: &Problem,
    index: &[usize],
    given: usize,
    max_rounds: Option<u32>,
    labels: Option<Arc<Labels>>,
    wrap: impl FnOnce(Problem, Option<Labels>) -> PyResult<Py<PyAny>>,
) -> PyResult<PyReduction> {
    let cancel = Arc::new(AtomicBool::new(false));
    let config = PreConfig { max_rounds, budget: Budget::new().cancel(cancel.clone()) };
    let reduced = run_interruptible(py, &cancel, || pre::reduce_with(problem, &config))?
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let name = |i| problem.item_name(i).to_owned();
    let removed_items = reduced.removed_items.iter().map(|x| name(x.item)).collect();
    let origins: Vec<usize> = reduced.option_map.iter().map(|o| index[o.index()]).collect();
    let kept = labels.as_deref().map(|l| l.reduced(py, &origins));
    Ok(PyReduction {
        problem: wrap(reduced.problem, kept)?,
        origins,
        removed_options: reduced.removed_options.iter().map(|x| index[x.option.index()]).collect(),
        removed_items,
        rounds: reduced.rounds,
        complete: !reduced.stopped,
        infeasible: reduced.infeasible.map(name),
        given,
        labels,
    })
}
