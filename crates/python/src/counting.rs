//! Counting at the limit from Python (#17): counts by a chosen method
//! (`Problem.count(method=...)`), the ZDD of all solutions (`dancecard.Zdd`), exactly uniform
//! samples, and Knuth's estimate of the search tree (`dancecard.Estimate`).
//!
//! The engine does the work (its one way into counting, [`dancecard_engine::count`], which
//! checks the method against the problem; [`Zdd`], [`Solver::estimate`],
//! [`Solver::pick_method`]); this module reads the arguments, runs the searches as the
//! command line does (`auto` by default, and with threads the method `auto` picks, then the
//! plain search on threads or the memoised one on one thread), and turns the results into
//! Python values: counts are Python ints of any size. Options are numbered as the `Problem`
//! numbers them (`PyProblem::index`).

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;

use dancecard_engine::{
    Config, Count, CountError, CountMethod, CountRequest, Counted, MemoConfig, MemoError, Problem,
    Solver, Zdd,
};
use num_bigint::BigUint;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::args;
use crate::labels::Labels;
use crate::solutions::{OptionMap, PySolutions};

/// Reads argument `method`: `"search"`, `"memo"`, `"auto"` or `"frontier"` (see [`method`]).
pub(crate) fn read_method(obj: &Bound<'_, PyAny>) -> PyResult<&'static str> {
    args::choice(obj, "method", &["search", "memo", "auto", "frontier"])
}

/// The method of a name that [`read_method`] accepted.
pub(crate) fn method(name: &str) -> CountMethod {
    match name {
        "search" => CountMethod::Search,
        "memo" => CountMethod::Memo,
        "frontier" => CountMethod::Frontier,
        _ => CountMethod::Auto,
    }
}

/// Reads argument `memo_limit`: bytes (an int below 2**64), or `None` for the default
/// ([`MemoConfig::default_limit_bytes`]).
pub(crate) fn read_memo_limit(obj: &Bound<'_, PyAny>) -> PyResult<Option<u64>> {
    args::optional_u64(obj, "memo_limit")
}

/// The memo settings of a `memo_limit` argument.
pub(crate) fn memo_config(limit: Option<u64>, zdd: bool) -> MemoConfig {
    let limit_bytes = match limit {
        // Past the address space: as good as no limit.
        Some(bytes) => usize::try_from(bytes).unwrap_or(usize::MAX),
        None => MemoConfig::default_limit_bytes(),
    };
    MemoConfig { limit_bytes, zdd }
}

/// The most samples one call draws: the engine reserves room for all of them at once (24
/// bytes each before the solutions themselves), so a huge `k` would end the process instead
/// of raising `MemoryError`. Ask again with another seed for more.
pub(crate) const MAX_SAMPLES: usize = 1 << 24;

/// Reads argument `k` of the samplers: 0 to [`MAX_SAMPLES`].
pub(crate) fn read_k(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    args::usize_in(obj, "k", &args::WHOLE, 0, MAX_SAMPLES)
}

/// Reads argument `seed`: an int from 0 to 2**64 - 1.
pub(crate) fn read_seed(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    let v = args::int_in(
        obj,
        "seed",
        &args::WHOLE,
        (0, u64::MAX.into()),
        "an int from 0 to 2**64 - 1",
    )?;
    Ok(u64::try_from(v).unwrap_or(u64::MAX))
}

/// The most probes of an estimate: far more than any estimate needs (a thousand probes are
/// usual), and few enough that a mistaken huge number is not an endless call.
pub(crate) const MAX_PROBES: u64 = 1_000_000_000;

/// Reads argument `probes` of `Problem.estimate`: 1 to [`MAX_PROBES`].
pub(crate) fn read_probes(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    let expected = "an int from 1 to 1000000000";
    let v = args::int_in(obj, "probes", &args::WHOLE, (1, MAX_PROBES.into()), expected)?;
    Ok(u64::try_from(v).unwrap_or(MAX_PROBES))
}

/// Reads argument `path` of `Zdd.write` (see [`args::path`]).
fn read_path(obj: &Bound<'_, PyAny>) -> PyResult<PathBuf> {
    args::path(obj, "path", &args::WHOLE)
}

/// A refused or failed count as a Python exception: `ValueError` for a method that does not
/// handle the problem (the engine's capability table: its message names the method, the
/// feature and where the problem has it), `ValueError` naming `memo_limit` for a ZDD that
/// does not fit within it.
pub(crate) fn count_error(e: CountError) -> PyErr {
    match e {
        CountError::Memo(e) => memo_error(e),
        other => PyValueError::new_err(other.to_string()),
    }
}

/// A failed memoised count as a Python exception (see [`count_error`]).
pub(crate) fn memo_error(e: MemoError) -> PyErr {
    match e {
        MemoError::ZddTooLarge { .. } => args::invalid("memo_limit", e),
        MemoError::Unsupported(refused) => PyValueError::new_err(refused.to_string()),
        other => PyRuntimeError::new_err(other.to_string()),
    }
}

/// A count as a Python int, of any size.
pub(crate) fn int(count: &Count) -> BigUint {
    count.to_biguint()
}

/// Counts the solutions of `problem` by `method` on `threads` threads, as `dancecard solve
/// --count` does: through the engine's one way in ([`dancecard_engine::count`], which checks
/// the method against the problem, and with threads lets `auto` pick first, then searches
/// plainly on the threads or memoises on one). Returns what the count did, with the counters
/// of the method that made it.
pub(crate) fn count(
    problem: &Problem,
    config: Config,
    threads: usize,
    method: CountMethod,
    memo: &MemoConfig,
) -> Result<Counted, CountError> {
    let request = CountRequest { method, threads: threads.max(1), memo: *memo, config };
    dancecard_engine::count(problem, &request, &|_| {})
}

/// The ZDD (zero-suppressed decision diagram) of all the solutions of a problem, made by
/// Problem.zdd().
///
/// Every path from the root to the true sink is one solution and every solution one path
/// (the diagram is Knuth's DLX6's: not ordered, not reduced). count() adds up the paths,
/// solutions() lists them, sample() draws them exactly uniformly, to_text() and write()
/// give the text format of Knuth's ZDDREAD programs. Solutions list options as the problem
/// does: numbers in increasing order, or names for options given as a dict.
///
/// Example:
///     >>> import dancecard
///     >>> z = dancecard.Problem("a b", options=["a", "b", "a b"]).zdd()
///     >>> z.count(), sorted(z.solutions())
///     (2, [[0, 1], [2]])
///     >>> len(z.sample(5, seed=1))
///     5
#[pyclass(frozen, module = "dancecard", name = "Zdd")]
#[derive(Debug)]
pub(crate) struct PyZdd {
    zdd: Arc<Zdd>,
    /// How the problem numbers and names its options.
    map: OptionMap,
    /// The count of the memoised search that built it (for `__repr__`).
    solutions: Count,
}

impl PyZdd {
    pub(crate) fn new(zdd: Zdd, map: OptionMap, solutions: Count) -> PyZdd {
        PyZdd { zdd: Arc::new(zdd), map, solutions }
    }

    /// `k` samples from `seed`, each as the given numbers of its options, in increasing order.
    pub(crate) fn draw(&self, py: Python<'_>, k: usize, seed: u64) -> PyResult<Vec<Vec<usize>>> {
        let (zdd, index) = (&*self.zdd, &*self.map.index);
        // At most MAX_SAMPLES descents of the diagram: a fraction of a second, no search.
        Ok(py.allow_threads(|| {
            zdd.samples(seed).take(k).map(|s| crate::solutions::numbers(index, &s)).collect()
        }))
    }

    /// The diagram in Knuth's format (options numbered from 1 in input order).
    fn write_to<W: Write>(&self, out: &mut W) -> std::io::Result<()> {
        let index = &*self.map.index;
        self.zdd.write_knuth(out, |o| index[o.index()] as u64 + 1)
    }
}

/// An I/O error on `path` as Python's `OSError` (its subclass for the error number, with
/// `errno`, `strerror` and `filename`, as `open` raises); `doing` (`read`, `write`) says what
/// failed when the error has no number.
pub(crate) fn os_error(e: &std::io::Error, path: &std::path::Path, doing: &str) -> PyErr {
    let filename = path.to_string_lossy().into_owned();
    match e.raw_os_error() {
        Some(errno) => {
            let strerror = std::io::Error::from_raw_os_error(errno).to_string();
            PyOSError::new_err((errno, strerror, filename))
        }
        None => PyOSError::new_err(format!("cannot {doing} {filename}: {e}")),
    }
}

#[pymethods]
impl PyZdd {
    /// The number of nodes, ⊥ and ⊤ not included.
    #[getter]
    fn node_count(&self) -> usize {
        self.zdd.node_count()
    }

    /// The number of solutions: the paths from the root to ⊤ (an int, exact at any size).
    fn count(&self, py: Python<'_>) -> BigUint {
        let zdd = &*self.zdd;
        py.allow_threads(|| int(&zdd.count()))
    }

    /// Every solution, lazily (each a list of option numbers in increasing order, as the
    /// problem numbers them), in the diagram's order.
    fn solutions(&self) -> PyResult<PySolutions> {
        let (zdd, index) = (self.zdd.clone(), self.map.index.clone());
        let it = PySolutions::producer(None, move |emit| {
            for s in zdd.solutions() {
                if emit(crate::solutions::numbers(&index, &s)).is_break() {
                    break;
                }
            }
        })?;
        Ok(it.labelled(self.map.labels.clone()))
    }

    /// `k` solutions (an int from 0 to 2**24) drawn independently and exactly uniformly (with
    /// replacement), the same for the same `seed` (an int from 0 to 2**64 - 1); empty when
    /// there is no solution.
    #[pyo3(signature = (k, seed = 0))]
    fn sample(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = read_k)] k: usize,
        #[pyo3(from_py_with = read_seed)] seed: u64,
    ) -> PyResult<Vec<Py<PyAny>>> {
        let drawn = self.draw(py, k, seed)?;
        Labels::solutions(self.map.labels.as_deref(), py, &drawn)
    }

    /// The diagram in the text format of Knuth's ZDDREAD programs, as his DLX6 writes it (and
    /// `dancecard solve --zdd`): one line `id: (~v?lo:hi)` per node, ids in hexadecimal,
    /// children first, `v` the option's number from 1 in input order; then a dummy root
    /// `id: (~0?0:root)`.
    fn to_text(&self, py: Python<'_>) -> PyResult<String> {
        let mut out = Vec::new();
        py.allow_threads(|| self.write_to(&mut out))
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        String::from_utf8(out).map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    /// Writes `to_text()` to the file at `path` (`str`, `bytes` or `os.PathLike`), replacing
    /// it; an `OSError` if it cannot be written.
    fn write(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = read_path)] path: PathBuf,
    ) -> PyResult<()> {
        py.allow_threads(|| {
            let file = std::fs::File::create(&path)?;
            let mut out = BufWriter::new(file);
            self.write_to(&mut out)?;
            out.flush()
        })
        .map_err(|e| os_error(&e, &path, "write"))
    }

    fn __repr__(&self) -> String {
        format!("Zdd(nodes={}, solutions={})", self.zdd.node_count(), self.solutions)
    }
}

/// Knuth's Monte Carlo estimate of the plain search's tree, made by Problem.estimate().
///
/// Random root-to-leaf probes, each weighted by the product of the branching degrees along
/// its path, estimate the tree's nodes, updates and solutions without searching it (an
/// unbiased estimate, with its standard error); auto and reason tell which method
/// count(method="auto") picks for the problem.
///
/// Example:
///     >>> import dancecard
///     >>> e = dancecard.queens.problem(8).estimate(probes=2000, seed=1)
///     >>> e.probes, 20 < e.solutions < 500, e.auto in ("search", "memo")
///     (2000, True, True)
#[pyclass(frozen, module = "dancecard", name = "Estimate", get_all)]
#[derive(Clone, Debug)]
pub(crate) struct PyEstimate {
    /// The number of probes made.
    probes: u64,
    /// The estimated number of nodes of the plain search (as `Stats.nodes` counts them).
    nodes: f64,
    /// The standard error of `nodes` (`inf` with one probe; 0 when every probe met one
    /// child at each node: the tree is that one path, known exactly).
    nodes_stderr: f64,
    /// The estimated number of solutions.
    solutions: f64,
    /// The standard error of `solutions` (`inf` with one probe).
    solutions_stderr: f64,
    /// The estimated number of updates of the plain search.
    updates: f64,
    /// The depth of the deepest probe.
    max_depth: usize,
    /// Probes that ended in a solution.
    solution_probes: u64,
    /// The nodes the probes walked, all paths together: what the estimate cost.
    walked: u64,
    /// Whether the probes stopped before `probes` were made, having walked a tenth of the
    /// tree they estimate (and at least 100,000 nodes): counting it costs little more.
    small_tree: bool,
    /// The method `count(method="auto")` picks for this problem: `"search"`, `"memo"` or
    /// `"frontier"`.
    auto: &'static str,
    /// Why `auto` picks that method.
    reason: String,
}

impl PyEstimate {
    /// Estimates the plain search of `solver` with `probes` probes from `seed`, and asks
    /// which method `auto` would pick.
    pub(crate) fn measure(mut solver: Solver, probes: u64, seed: u64) -> Self {
        let e = solver.estimate(probes, seed);
        let (auto, reason) = solver.pick_method(&memo_config(None, false));
        PyEstimate {
            probes: e.probes,
            nodes: e.nodes,
            nodes_stderr: e.nodes_stderr,
            solutions: e.solutions,
            solutions_stderr: e.solutions_stderr,
            updates: e.updates,
            max_depth: e.max_depth,
            solution_probes: e.solution_probes,
            walked: e.walked,
            small_tree: e.small_tree,
            auto: auto.name(),
            reason,
        }
    }
}

#[pymethods]
impl PyEstimate {
    fn __repr__(&self) -> String {
        let e = self;
        format!(
            "Estimate(nodes={:.4e}, nodes_stderr={:.2e}, solutions={:.4e}, \
             solutions_stderr={:.2e}, updates={:.4e}, probes={}, max_depth={}, \
             solution_probes={}, auto='{}')",
            e.nodes,
            e.nodes_stderr,
            e.solutions,
            e.solutions_stderr,
            e.updates,
            e.probes,
            e.max_depth,
            e.solution_probes,
            self.auto
        )
    }
}
