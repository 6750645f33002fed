//! `dancecard.Problem`: an exact cover problem from Python, its searches and their counters.
//!
//! Options are numbered as the caller gave them, from 0, and solutions are lists of these
//! numbers in increasing order. For a 0/1 matrix the number of an option is its row, rows of
//! zeros included (the engine leaves them out: [`PyProblem::index`] maps back).

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use dancecard_engine::{
    Budget, Config, Count, CountMethod, CountRequest, Heuristic, OptionId, Problem, ProblemBuilder,
    Solver, Stop,
};
use dancecard_format::{
    parse_dlx, parse_dlx_with, parse_matrix, write_dlx, Document, Limits, ParseError,
};
use num_bigint::BigUint;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyMemoryView, PyString, PyTuple};

use crate::args;
use crate::cost;
use crate::counting::{self, PyEstimate, PyZdd};
use crate::interrupt::{read_threads, read_time_limit, run_interruptible, Interruptible};
use crate::labels::{self, Labels, LabelsState};
use crate::scale;
use crate::solutions::{numbers, OptionMap, PySolutions};
use crate::stats::{record, stop_name, LastStats, PyStats};

pyo3::create_exception!(
    dancecard,
    DlxParseError,
    PyValueError,
    "Input text that is not a valid problem: a ValueError whose line and column (from 1) say
where.

Raised by Problem.from_dlx() and Problem.from_matrix() (for the matrix's text form); the
message names the line and column too, and says what was expected and what was found.

Attributes:
    line: the line of the error, from 1.
    column: the column of the error, from 1.

Example:
    >>> import dancecard
    >>> try:
    ...     dancecard.Problem.from_dlx('a b\\na c\\n')
    ... except dancecard.DlxParseError as e:
    ...     print(e.line, e.column)
    2 3
"
);

/// A `DlxParseError` (a `ValueError`) with the parser's message and `line`/`column` attributes.
fn parse_error(py: Python<'_>, e: &ParseError) -> PyErr {
    let err = DlxParseError::new_err(e.to_string());
    let value = err.value(py);
    // Setting attributes on a fresh exception object cannot fail short of memory exhaustion,
    // and then the message alone is still right.
    let _ = value.setattr("line", e.line);
    let _ = value.setattr("column", e.column);
    err
}

/// An exact cover problem: items, and options that each cover some of them.
///
/// A solution is a set of options that covers every primary item exactly once, and every
/// secondary item at most once, or by options that all give it the same color.
///
/// Arguments:
///     primary: the primary items: a str of names separated by whitespace, or an iterable
///         of items of any hashable type (str, int, tuple, frozenset...).
///     secondary: the secondary items, in the same forms, or None.
///     options: an iterable of options, or a dict from option names (any hashable) to
///         options, or None. Each option is a str of names or an iterable of items. A
///         secondary item takes a color as "x:red" (a str item) or as a pair
///         (item, color) that is not itself an item.
///     costs: None, or one int per option (from 0 to 2**64 - 1, their sum too), its cost
///         for min_cost().
///     bounds: None, or a dict from primary items to an int m (covered exactly m times)
///         or a pair (lo, hi) of ints from 0 to 2**32 - 1 (lo <= hi, hi >= 1): Knuth's
///         DLX3 multiplicities, which count(), first() and solutions() take.
///
/// Options are numbered from 0 in the order given; solutions are lists of these numbers in
/// increasing order, or, for options given as a dict, lists of their names in the dict's
/// order. Items that are all str are kept as names (to_dlx() writes them); other items
/// are named "#0", "#1"... inside, and every property that reports items (primary,
/// secondary, options, bounds, a Reduction's removed_items) gives the objects back.
///
/// Raises:
///     ValueError: for a repeated or invalid name, an unknown item, an empty option, an
///         option without a primary item, a color on a primary item, a number of costs
///         other than the number of options, costs that add up past 2**64 - 1, or bounds
///         that no count meets or on an item that is not primary.
///     TypeError: for values that are not items (unhashable), options, ints or pairs.
///
/// A problem pickles (and copy.deepcopy copies it) with its items, options, option
/// numbers and search tree, not its stats.
///
/// Example:
///     >>> import dancecard
///     >>> p = dancecard.Problem("a b c d e f g",
///     ...                       options=["c e", "a d g", "b c f", "a d f", "b g", "d e g"])
///     >>> p.first(), p.count()
///     ([0, 3, 4], 1)
///     >>> cells = [(0, 0), (0, 1), (1, 0), (1, 1)]
///     >>> q = dancecard.Problem(cells, options={"top": cells[:2], "bottom": cells[2:],
///     ...                                       "left": cells[::2], "right": cells[1::2]})
///     >>> list(q.solutions())
///     [['top', 'bottom'], ['left', 'right']]
#[pyclass(frozen, module = "dancecard", name = "Problem")]
#[derive(Debug)]
pub(crate) struct PyProblem {
    problem: Arc<Problem>,
    /// How the caller numbers and names the options (and the items).
    map: OptionMap,
    /// How many options were given (rows of a matrix, rows of zeros included).
    given: usize,
    last: LastStats,
}

/// Reads argument `heuristic`: `"mrv"`, `"leftmost"` or `"ssxcc"` (see [`heuristic`]).
pub(crate) fn read_heuristic(obj: &Bound<'_, PyAny>) -> PyResult<&'static str> {
    args::choice(obj, "heuristic", &["mrv", "leftmost", "ssxcc"])
}

/// The heuristic of a name that [`read_heuristic`] accepted.
fn heuristic(name: &str) -> Heuristic {
    Heuristic::from_name(name).unwrap_or_default()
}

/// Reads argument `max_nodes`.
fn read_max_nodes(obj: &Bound<'_, PyAny>) -> PyResult<Option<u64>> {
    args::optional_u64(obj, "max_nodes")
}

/// Reads argument `limit` (of solutions).
pub(crate) fn read_limit(obj: &Bound<'_, PyAny>) -> PyResult<Option<u128>> {
    args::optional_u128(obj, "limit")
}

/// The bytes of a text argument (`str` or `bytes`), if it is one.
fn text_bytes<'a>(obj: &'a Bound<'_, PyAny>, name: &str) -> Option<PyResult<Cow<'a, [u8]>>> {
    if let Ok(s) = obj.downcast::<PyString>() {
        return Some(args::str_of(s, name, &args::WHOLE).map(|text| match text {
            Cow::Borrowed(t) => Cow::Borrowed(t.as_bytes()),
            Cow::Owned(t) => Cow::Owned(t.into_bytes()),
        }));
    }
    obj.downcast::<PyBytes>().ok().map(|b| Ok(Cow::Borrowed(b.as_bytes())))
}

/// Reads argument `text` of `Problem.from_dlx`: the problem it holds.
fn read_dlx(obj: &Bound<'_, PyAny>) -> PyResult<PyProblem> {
    let bytes = text_bytes(obj, "text")
        .ok_or_else(|| args::wrong_type(&args::WHOLE, "str or bytes", obj))??;
    let doc = parse_dlx(&bytes).map_err(|e| parse_error(obj.py(), &e))?;
    let n = doc.problem.option_count();
    Ok(PyProblem::from_document(doc, n))
}

/// Reads a cell of a 0/1 matrix: 0, 1, or a bool (numpy's too).
fn matrix_cell(v: &Bound<'_, PyAny>, r: usize, c: usize) -> PyResult<bool> {
    const EXPECTED: &str = "0 or 1 (or a bool)";
    if let Ok(b) = args::flag(v) {
        return Ok(b);
    }
    let at = args::Index::two("rows", r, c);
    Ok(args::int_in(v, "rows", &at, (0, 1), EXPECTED)? == 1)
}

/// A 2-D array of ints or bools as nested lists, taken whole by the array's `tolist` (far
/// faster than reading its cells one by one as array scalars): a numpy `ndarray` (anything
/// with `ndim == 2`, a `dtype` of kind `b`, `i` or `u`, and `tolist`), or a `memoryview` of
/// two dimensions (the buffer protocol). `None` for anything else, read row by row: numpy
/// is not needed, and an array of floats keeps its cells' own types in messages.
fn array_rows<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = obj.py();
    let ndim = obj.getattr(intern!(py, "ndim")).ok().and_then(|n| n.extract::<usize>().ok());
    if ndim != Some(2) {
        return Ok(None);
    }
    let integral = obj.is_instance_of::<PyMemoryView>()
        || obj
            .getattr(intern!(py, "dtype"))
            .and_then(|d| d.getattr(intern!(py, "kind")))
            .ok()
            .and_then(|k| k.extract::<String>().ok())
            .is_some_and(|k| matches!(k.as_str(), "b" | "i" | "u"));
    if !integral {
        return Ok(None);
    }
    match obj.call_method0(intern!(py, "tolist")) {
        Ok(rows) => Ok(Some(rows)),
        Err(_) => Ok(None),
    }
}

/// Reads argument `rows` of `Problem.from_matrix`: the problem it holds.
fn read_matrix(obj: &Bound<'_, PyAny>) -> PyResult<PyProblem> {
    if let Some(bytes) = text_bytes(obj, "rows") {
        let bytes = bytes?;
        let doc = parse_matrix(&bytes).map_err(|e| parse_error(obj.py(), &e))?;
        // The number of rows announced first (the parser checked it: `n m`).
        let given = std::str::from_utf8(&bytes)
            .ok()
            .and_then(|t| t.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(doc.input_index.len());
        return Ok(PyProblem::from_document(doc, given));
    }
    let listed = array_rows(obj)?;
    let obj = listed.as_ref().unwrap_or(obj);
    let expected = "rows of 0/1 values, or the matrix as text";
    let mut b = ProblemBuilder::new();
    let mut items = Vec::new();
    let mut width = None;
    let mut index = Vec::new();
    let mut given = 0;
    for (r, row) in args::items(obj, &args::WHOLE, expected)?.enumerate() {
        let row = row?;
        let values = args::items(&row, &args::Index::one("rows", r), "a sequence of 0/1 values")?;
        let mut ones = Vec::new();
        let mut len = 0;
        for (c, v) in values.enumerate() {
            if matrix_cell(&v?, r, c)? {
                ones.push(c);
            }
            len += 1;
        }
        match width {
            None => {
                // The first row fixes the width: items `1..=len`, as in the text format.
                for j in 1..=len {
                    items.push(b.primary(&j.to_string()).map_err(|e| args::invalid("rows", e))?);
                }
                width = Some(len);
            }
            Some(m) if m != len => {
                return Err(args::invalid(
                    "rows",
                    format!("row {r} has {len} values, but row 0 has {m}"),
                ));
            }
            Some(_) => {}
        }
        given = r + 1;
        if ones.is_empty() {
            continue;
        }
        let _ = b.option(ones.iter().map(|&c| items[c])).map_err(|e| args::invalid("rows", e))?;
        index.push(r);
    }
    Ok(PyProblem::with_index(b.build(), index, given))
}

/// Reads argument `options` of `Problem.is_solution`: option numbers, non-negative ints (one
/// too large for a `usize` numbers no option, nor does `usize::MAX`). Reads at most `max`
/// of them (more are no solution: `None` then).
fn read_option_numbers(obj: &Bound<'_, PyAny>, max: usize) -> PyResult<Option<Vec<usize>>> {
    let mut out = Vec::new();
    for (i, v) in args::items(obj, &args::WHOLE, "a sequence of option numbers")?.enumerate() {
        if i == max {
            return Ok(None);
        }
        let at = args::Index::one("options", i);
        out.push(args::index_saturating(&v?, "options", &at, "an option number (an int >= 0)")?);
    }
    Ok(Some(out))
}

/// Reads argument `options` of `Problem.is_solution` for options given as a dict: option
/// names, each turned into its number by `numbers` (a name that is no option's gives
/// `usize::MAX`, which numbers no option). Reads at most `max` of them (more are no solution:
/// `None` then).
fn read_option_names(
    obj: &Bound<'_, PyAny>,
    numbers: &Bound<'_, PyDict>,
    max: usize,
) -> PyResult<Option<Vec<usize>>> {
    let mut out = Vec::new();
    for (i, v) in args::items(obj, &args::WHOLE, "a sequence of option names")?.enumerate() {
        if i == max {
            return Ok(None);
        }
        let v = v?;
        let k = match v.hash() {
            Ok(_) => numbers.get_item(&v)?.map(|k| k.extract()).transpose()?,
            Err(_) => None,
        };
        out.push(k.unwrap_or(usize::MAX));
    }
    Ok(Some(out))
}

/// The state of a pickled `Problem` (see [`_problem_from_state`]): [`STATE_VERSION`], the DLX
/// text, the secondary items of a problem that the text cannot hold, and the numbering of
/// the options ([`Numbering`]; `None`: in order, from 0); then, for a problem with
/// [`Labels`] only, their state.
type State = (u32, String, Option<Vec<String>>, Option<Numbering>);

/// The number of each option among those given, and how many were given (a matrix's rows of
/// zeros are given, and are no option of the engine's).
type Numbering = (Vec<usize>, usize);

/// The version of [`State`]: a pickle of another version is refused, not misread.
const STATE_VERSION: u32 = 1;

/// The most options a pickled problem says were given: the engine numbers its options in a
/// `u32`, and a matrix's rows of zeros are not a reason to allocate more (`options` and
/// `is_solution` take memory by the number given: a tampered state must not abort).
const MAX_GIVEN: usize = u32::MAX as usize;

/// Reads argument `version` of `_problem_from_state`: [`STATE_VERSION`].
fn read_state_version(obj: &Bound<'_, PyAny>) -> PyResult<u32> {
    let expected = format!("{STATE_VERSION} (a pickle of this version of dancecard)");
    let range = (u128::from(STATE_VERSION), u128::from(STATE_VERSION));
    args::int_in(obj, "version", &args::WHOLE, range, &expected).map(|_| STATE_VERSION)
}

/// Reads argument `text` of `_problem_from_state`: a `str`.
fn read_state_text(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let s = obj.downcast::<PyString>().map_err(|_| args::wrong_type(&args::WHOLE, "a str", obj))?;
    Ok(args::str_of(s, "text", &args::WHOLE)?.into_owned())
}

/// Reads argument `secondary` of `_problem_from_state`: item names, or `None`.
fn read_state_secondary(obj: &Bound<'_, PyAny>) -> PyResult<Option<Vec<String>>> {
    if obj.is_none() {
        return Ok(None);
    }
    let mut out = Vec::new();
    for (k, v) in args::items(obj, &args::WHOLE, "a sequence of item names or None")?.enumerate() {
        let v = v?;
        let at = args::Index::one("secondary", k);
        let s = v.downcast::<PyString>().map_err(|_| args::wrong_type(&at, "a str", &v))?;
        out.push(args::str_of(s, "secondary", &at)?.into_owned());
    }
    Ok(Some(out))
}

/// Reads argument `numbering` of `_problem_from_state`: `None`, or a pair `(index, given)`
/// of option numbers, each below [`MAX_GIVEN`], and a number of options up to it.
fn read_state_numbering(obj: &Bound<'_, PyAny>) -> PyResult<Option<Numbering>> {
    const EXPECTED: &str = "a pair (index, given) or None";
    if obj.is_none() {
        return Ok(None);
    }
    // Read no further than one value too many.
    let values = args::items(obj, &args::WHOLE, EXPECTED)?.take(3).collect::<PyResult<Vec<_>>>()?;
    let [index, given] = &values[..] else {
        let shown = args::values_shown(values.len());
        return Err(args::wrong_value("numbering", &args::WHOLE, EXPECTED, &shown));
    };
    let place = args::Index::one("numbering", 0);
    let mut numbers = Vec::new();
    for (k, v) in args::items(index, &place, "a sequence of option numbers")?.enumerate() {
        let at = args::Index::two("numbering", 0, k);
        numbers.push(args::usize_in(&v?, "numbering", &at, 0, MAX_GIVEN - 1)?);
    }
    let at = args::Index::one("numbering", 1);
    let given = args::usize_in(given, "numbering", &at, 0, MAX_GIVEN)?;
    Ok(Some((numbers, given)))
}

/// The problem of a pickled state (Problem.__reduce__): not for direct use, but its name
/// and arguments are in every pickle, so they stay.
///
/// Arguments:
///     version: the state's version, 1 (a pickle of another version is refused).
///     text: the problem's DLX text (to_dlx()), read without the parser's bounds on input;
///         or "" for a problem without primary items (and so without options).
///     secondary: for such a problem, its secondary items' names (the DLX text cannot hold
///         them), else None.
///     numbering: None when the options are numbered in order from 0; else (index, given):
///         given options were given, and index[k] is the number of the text's option k
///         among them (distinct numbers below given).
///     labels: None, or (items, colors, options) for a problem whose items are objects or
///         whose options were a dict: the objects of the items and colors named "#k", and
///         the options' names.
///
/// Returns:
///     The Problem.
///
/// Raises:
///     ValueError: for a state that does not hold together, naming the argument at fault.
///     TypeError: for arguments of the wrong type.
#[pyfunction]
#[pyo3(signature = (version, text, secondary, numbering, labels = None))]
pub(crate) fn _problem_from_state(
    py: Python<'_>,
    #[pyo3(from_py_with = read_state_version)] version: u32,
    #[pyo3(from_py_with = read_state_text)] text: String,
    #[pyo3(from_py_with = read_state_secondary)] secondary: Option<Vec<String>>,
    #[pyo3(from_py_with = read_state_numbering)] numbering: Option<Numbering>,
    #[pyo3(from_py_with = read_state_labels)] labels: Option<LabelsState>,
) -> PyResult<PyProblem> {
    debug_assert_eq!(version, STATE_VERSION);
    let problem = problem_from_state(py, text, secondary, numbering)?;
    let Some(labels) = labels else { return Ok(problem) };
    let labels = Labels::from_state(labels, &problem.problem, problem.given)
        .map_err(|e| args::invalid("labels", e))?;
    Ok(problem.labelled(Some(labels)))
}

/// Reads argument `labels` of `_problem_from_state`: `None`, or a triple `(items, colors,
/// options)`: the objects of the items named `#k` (or `None`), of the colors, and the names
/// of the options (or `None`).
fn read_state_labels(obj: &Bound<'_, PyAny>) -> PyResult<Option<LabelsState>> {
    const EXPECTED: &str = "a triple (items, colors, options) or None";
    if obj.is_none() {
        return Ok(None);
    }
    // Read no further than one value too many.
    let values = args::items(obj, &args::WHOLE, EXPECTED)?.take(4).collect::<PyResult<Vec<_>>>()?;
    let [items, colors, options] = &values[..] else {
        let shown = args::values_shown(values.len());
        return Err(args::wrong_value("labels", &args::WHOLE, EXPECTED, &shown));
    };
    let objects = |v: &Bound<'_, PyAny>, k: usize| -> PyResult<Vec<Py<PyAny>>> {
        let place = args::Index::one("labels", k);
        args::items(v, &place, "a sequence of objects")?.map(|o| Ok(o?.unbind())).collect()
    };
    let optional = |v: &Bound<'_, PyAny>, k| (!v.is_none()).then(|| objects(v, k)).transpose();
    Ok(Some((optional(items, 0)?, objects(colors, 1)?, optional(options, 2)?)))
}

/// The problem of a pickle's state, without its labels (see [`_problem_from_state`]).
fn problem_from_state(
    py: Python<'_>,
    text: String,
    secondary: Option<Vec<String>>,
    numbering: Option<Numbering>,
) -> PyResult<PyProblem> {
    let (problem, input_index) = match (text.is_empty(), secondary) {
        (true, secondary) => {
            let mut b = ProblemBuilder::new();
            for name in secondary.unwrap_or_default() {
                let _ = b.secondary(&name).map_err(|e| args::invalid("secondary", e))?;
            }
            (b.build(), Vec::new())
        }
        (false, None) => {
            let unbounded = Limits {
                max_line_bytes: usize::MAX,
                max_items: usize::MAX,
                max_options: usize::MAX,
                max_entries: usize::MAX,
            };
            let doc = py
                .allow_threads(|| parse_dlx_with(text.as_bytes(), &unbounded))
                .map_err(|e| parse_error(py, &e))?;
            (doc.problem, doc.input_index)
        }
        (false, Some(_)) => {
            return Err(args::invalid(
                "secondary",
                "expected None when the text holds the problem (it holds its secondary items)",
            ));
        }
    };
    let Some((index, given)) = numbering else {
        let given = problem.option_count();
        return Ok(PyProblem::with_index(problem, input_index, given));
    };
    // The text's options are the problem's, in order: `input_index` is the identity (composed
    // all the same, should the parser ever leave an option out).
    let composed: Option<Vec<usize>> = input_index.iter().map(|&k| index.get(k).copied()).collect();
    let index = composed.filter(|_| index.len() == problem.option_count()).ok_or_else(|| {
        let (n, got) = (problem.option_count(), index.len());
        args::invalid(
            "numbering",
            format!("numbering[0]: expected {n} option numbers, one per option, got {got}"),
        )
    })?;
    // Distinct and below `given`, checked without memory by `given` (which may be large).
    let mut sorted = index.clone();
    sorted.sort_unstable();
    if let Some(k) = sorted.windows(2).find(|w| w[0] == w[1]).map(|w| w[0]) {
        let message = format!("numbering[0]: expected distinct option numbers, got {k} twice");
        return Err(args::invalid("numbering", message));
    }
    if let Some(&k) = sorted.last().filter(|&&k| k >= given) {
        let message =
            format!("numbering[0]: expected option numbers below numbering[1] ({given}), got {k}");
        return Err(args::invalid("numbering", message));
    }
    Ok(PyProblem::with_index(problem, index, given))
}

impl PyProblem {
    /// Wraps a problem whose options are the ones given, in order.
    pub(crate) fn from_problem(problem: Problem) -> Self {
        let n = problem.option_count();
        PyProblem::with_index(problem, (0..n).collect(), n)
    }

    fn with_index(problem: Problem, index: Vec<usize>, given: usize) -> Self {
        PyProblem {
            problem: Arc::new(problem),
            map: OptionMap { index: Arc::new(index), labels: None },
            given,
            last: Arc::new(Mutex::new(None)),
        }
    }

    /// The same problem, its items, colors or options named by the caller's objects.
    pub(crate) fn labelled(mut self, labels: Option<Labels>) -> Self {
        self.map.labels = labels.map(Arc::new);
        self
    }

    /// The caller's objects behind the names (`None`: names and numbers).
    pub(crate) fn labels(&self) -> Option<&Labels> {
        self.map.labels.as_deref()
    }

    /// A solution (or any list of option numbers) as the caller calls the options.
    fn out(&self, py: Python<'_>, numbers: &[usize]) -> PyResult<Py<PyAny>> {
        Labels::options(self.labels(), py, numbers)
    }

    fn from_document(doc: Document, given: usize) -> Self {
        PyProblem::with_index(doc.problem, doc.input_index, given)
    }
}

#[pymethods]
impl PyProblem {
    /// See the class's docstring.
    #[new]
    #[pyo3(signature = (primary, secondary = None, options = None, costs = None, bounds = None))]
    fn new(
        py: Python<'_>,
        primary: &Bound<'_, PyAny>,
        secondary: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyAny>>,
        costs: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = labels::read_bounds)] bounds: Option<labels::Bounds>,
    ) -> PyResult<Self> {
        let arguments = labels::Arguments {
            primary,
            secondary,
            options,
            costs,
            bounds: bounds.unwrap_or_default(),
        };
        let (problem, labels) = labels::build(py, &arguments)?;
        Ok(PyProblem::from_problem(problem).labelled(labels))
    }

    /// A problem in Knuth's DLX format: a line of items (primary, then `|` and the
    /// secondary ones), then one option a line (`x:red` gives secondary item `x` a color);
    /// lines starting with `|` are comments.
    ///
    /// Arguments:
    ///     text: the problem's text, a str or bytes.
    ///
    /// Returns:
    ///     The Problem, its options numbered from 0 in the text's order.
    ///
    /// Raises:
    ///     DlxParseError: (a ValueError) for text that is not a problem, with its line and
    ///         column.
    ///     TypeError: for text that is neither str nor bytes.
    ///
    /// Example:
    ///     >>> import dancecard
    ///     >>> dancecard.Problem.from_dlx("a b | x\na x:red\nb x:red\n").count()
    ///     1
    #[staticmethod]
    fn from_dlx(#[pyo3(from_py_with = read_dlx)] text: PyProblem) -> PyProblem {
        text
    }

    /// A problem from a 0/1 matrix: every column a primary item (named "1", "2"...), every
    /// row an option (option r is row r, from 0; a row of zeros is an option that no
    /// solution takes).
    ///
    /// Arguments:
    ///     rows: the rows, each a sequence of 0/1 values (ints or bools, numpy's too); a 2-D
    ///         numpy array of bools or ints (read whole, fast, by its tolist()) or a 2-D
    ///         memoryview will do; or the text format: a line `n m`, then n rows of m
    ///         values. numpy is not needed.
    ///
    /// Returns:
    ///     The Problem.
    ///
    /// Raises:
    ///     ValueError: for a value other than 0 or 1, rows of different lengths.
    ///     DlxParseError: for text that does not parse (with the line and column).
    ///     TypeError: for rows that are not sequences, or floats.
    ///
    /// Example:
    ///     >>> import dancecard
    ///     >>> p = dancecard.Problem.from_matrix([[1, 0, 0], [0, 1, 1], [1, 1, 0], [0, 0, 1]])
    ///     >>> sorted(p.solutions())
    ///     [[0, 1], [2, 3]]
    #[staticmethod]
    fn from_matrix(#[pyo3(from_py_with = read_matrix)] rows: PyProblem) -> PyProblem {
        rows
    }

    /// The problem in Knuth's DLX format (rows of zeros of a matrix are left out).
    fn to_dlx(&self) -> String {
        write_dlx(&self.problem)
    }

    /// The primary items, in order: their names, or the caller's objects.
    #[getter]
    fn primary(&self, py: Python<'_>) -> Vec<Py<PyAny>> {
        self.items_of(py, dancecard_engine::ItemKind::Primary)
    }

    /// The secondary items, in order: their names, or the caller's objects.
    #[getter]
    fn secondary(&self, py: Python<'_>) -> Vec<Py<PyAny>> {
        self.items_of(py, dancecard_engine::ItemKind::Secondary)
    }

    /// Each option, by number: as text (`a b x:red`; `""` for a matrix row of zeros) when
    /// the items are names, else as the list of its items (a colored one as the pair
    /// `(item, color)`).
    #[getter]
    fn options(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        let labels = self.labels().filter(|l| Labels::has_items(Some(l)));
        let empty = || -> PyResult<Py<PyAny>> {
            Ok(match labels {
                Some(_) => PyList::empty(py).into_any().unbind(),
                None => PyString::new(py, "").into_any().unbind(),
            })
        };
        let mut out = (0..self.given).map(|_| empty()).collect::<PyResult<Vec<_>>>()?;
        for o in self.problem.options() {
            out[self.map.index[o.index()]] = match labels {
                Some(l) => l.option_items(py, &self.problem, o)?,
                None => PyString::new(py, &self.problem.option_text(o)).into_any().unbind(),
            };
        }
        Ok(out)
    }

    /// Each option's cost, by number (0 unless given; 0 for a matrix row of zeros).
    #[getter]
    fn costs(&self) -> Vec<u64> {
        let mut out = vec![0; self.given];
        for o in self.problem.options() {
            out[self.map.index[o.index()]] = self.problem.option_cost(o);
        }
        out
    }

    /// The bounds `(lo, hi)` of the primary items that have bounds other than `(1, 1)`, by
    /// name, in declaration order (what `bounds=` takes).
    #[getter]
    fn bounds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        cost::bounds_dict(py, &self.problem, self.labels())
    }

    /// The counters of the last search (`None` before any).
    #[getter]
    fn stats(&self) -> Option<PyStats> {
        self.last.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn __repr__(&self) -> String {
        let p = &self.problem;
        format!(
            "Problem(primary={}, secondary={}, options={})",
            p.primary_count(),
            p.item_count() - p.primary_count(),
            self.given
        )
    }

    /// Pickling, and `copy.copy`/`copy.deepcopy`: the problem comes back with the same items,
    /// options, costs, bounds, option numbers (a matrix's rows of zeros included) and search
    /// tree, so that a copy in another process counts the same shards; `stats` is not kept.
    /// The state is the problem's DLX text (which holds the costs and bounds) and its
    /// numbering (see `_problem_from_state`).
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rebuild = py.import("dancecard._native")?.getattr("_problem_from_state")?;
        let p = &*self.problem;
        // Without primary items there is no option, and the DLX text could not be read back
        // (it would have no line of items): the secondary items' names stand for it.
        let (text, secondary) = if p.primary_count() == 0 && p.option_count() == 0 {
            let names = self.item_names(dancecard_engine::ItemKind::Secondary);
            (String::new(), (!names.is_empty()).then_some(names))
        } else {
            (write_dlx(p), None)
        };
        let numbered_in_order = self.given == self.map.index.len()
            && self.map.index.iter().enumerate().all(|(k, &given)| k == given);
        let numbering = (!numbered_in_order).then(|| (self.map.index.to_vec(), self.given));
        let state: State = (STATE_VERSION, text, secondary, numbering);
        let state = match self.labels() {
            None => state.into_pyobject(py)?,
            Some(labels) => {
                let (v, t, s, n) = state;
                (v, t, s, n, labels.state(py)).into_pyobject(py)?
            }
        };
        Ok((rebuild, state))
    }

    /// Whether `options` form a solution: option numbers (ints >= 0; one that numbers no
    /// option makes the answer False, a negative one is a ValueError), or option names for
    /// options given as a dict (one that names no option makes it False).
    fn is_solution(&self, py: Python<'_>, options: &Bound<'_, PyAny>) -> PyResult<bool> {
        // Read here, not by pyo3, to stop reading past the number of options: an endless
        // iterator is no solution.
        let read = match Labels::option_numbers(self.labels(), py)? {
            Some(numbers) => read_option_names(options, &numbers, self.given),
            None => read_option_numbers(options, self.given),
        };
        let Some(options) = args::in_body(py, "options", read)? else { return Ok(false) };
        let mut by_given = vec![None; self.given];
        for (k, &g) in self.map.index.iter().enumerate() {
            by_given[g] = OptionId::new(k);
        }
        let ids: Option<Vec<OptionId>> =
            options.iter().map(|&g| by_given.get(g).copied().flatten()).collect();
        Ok(ids.is_some_and(|ids| self.problem.verify(&ids).is_ok()))
    }

    /// The first solution in search order (its options' numbers in increasing order, or
    /// names for options given as a dict), or None. `heuristic`: "mrv" (branch on the item
    /// with the fewest options, as Knuth's DLX1) or "leftmost" (the first uncovered primary
    /// item). Releases the GIL; Ctrl-C stops it.
    #[pyo3(signature = (heuristic = "mrv"))]
    fn first(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = read_heuristic)] heuristic: &str,
    ) -> PyResult<Option<Py<PyAny>>> {
        let cancel = Arc::new(AtomicBool::new(false));
        let config = Config {
            heuristic: self::heuristic(heuristic),
            budget: Budget { cancel: Some(cancel.clone()), ..Budget::default() },
            ..Config::default()
        };
        let problem = &*self.problem;
        let started = Instant::now();
        let (found, stats) = run_interruptible(py, &cancel, || {
            let mut solver = Solver::with_config(problem, config);
            let found = solver.first();
            (found, *solver.stats())
        })?;
        let stop = if found.is_some() { Stop::SolutionLimit } else { Stop::Exhausted };
        record(&self.last, PyStats::new(&stats, started.elapsed().as_secs_f64(), Some(stop)));
        found.map(|s| self.out(py, &numbers(&self.map.index, &s))).transpose()
    }

    /// The number of solutions. `threads`: 0 for one per core, at most 1024. With
    /// `max_nodes` (an int below 2**64) or `time_limit` (seconds >= 0) the count may be a
    /// lower bound: see `stats.complete`. `method`: `"search"` (the plain search, one step per
    /// solution at least), `"memo"` (the memoised search, Knuth's DLX6: each remaining problem
    /// counted once), `"auto"` (whichever pays, decided from the run: the memoised
    /// search starts and gives way where it saves little, to the count by stages where the
    /// options fall into lines, else to the plain search) or `"frontier"` (the count by
    /// stages from both ends, for latin squares and the like; no `shard`); with threads,
    /// `auto` picks first, then searches plainly on the threads or counts on one. `memo_limit`: the most bytes of the memo table (an int
    /// below 2**64; `None`: 2 GiB or a quarter of the memory, whichever is less), past which
    /// the table is emptied and the count goes on, exact (but slower: far slower when the
    /// table is much too small for the problem). `stats.method` tells the method used,
    /// `stats.reason` why, `stats.memo` the memo's counters. The count is exact at any size
    /// (past 2**128 too); a method that does not handle the problem is a `ValueError` naming
    /// the method, the feature and where the problem has it (the engine's capability table).
    ///
    /// `shard=(i, n)` (ints, 0 <= i < n < 2**64) counts only shard `i` of `n`, as `dancecard
    /// solve --count --shard I/N --split-depth D` does: the subtrees at depth `split_depth`
    /// (an int from 0 to 1024; `None`: 4, as the command line) whose index is `i` modulo
    /// `n`, shard 0 also taking the solutions shallower than that. The shards of one
    /// `split_depth` and `heuristic` add up to the count. A shard is counted by the plain
    /// search (`method` "auto" or "search"; "memo" is a `ValueError`, and `memo_limit` is not
    /// used), on `threads` threads, within `max_nodes` and `time_limit`. `output`: a path
    /// (`str`, `bytes` or `os.PathLike`) where the shard's result is written, the JSON file
    /// of `dancecard solve --shard ... --output FILE` (with its fingerprint and checksum),
    /// which `dancecard.merge` and `dancecard merge` sum; written whole or not at all (a
    /// limited count is written as incomplete, which merge refuses; Ctrl-C writes nothing);
    /// an `OSError` if it cannot be written (before the count when its directory cannot
    /// be). `split_depth` and `output` without `shard` are a `ValueError`.
    #[pyo3(signature = (
        threads = 1, heuristic = "mrv", max_nodes = None, time_limit = None, method = "auto",
        memo_limit = None, shard = None, split_depth = None, output = None
    ))]
    #[allow(clippy::too_many_arguments, reason = "the keyword arguments of a Python method")]
    pub(crate) fn count(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = read_threads)] threads: usize,
        #[pyo3(from_py_with = read_heuristic)] heuristic: &str,
        #[pyo3(from_py_with = read_max_nodes)] max_nodes: Option<u64>,
        #[pyo3(from_py_with = read_time_limit)] time_limit: Option<Duration>,
        #[pyo3(from_py_with = counting::read_method)] method: &str,
        #[pyo3(from_py_with = counting::read_memo_limit)] memo_limit: Option<u64>,
        #[pyo3(from_py_with = scale::read_shard)] shard: Option<(u64, u64)>,
        #[pyo3(from_py_with = scale::read_split_depth)] split_depth: Option<usize>,
        #[pyo3(from_py_with = scale::read_output)] output: Option<PathBuf>,
    ) -> PyResult<BigUint> {
        let config = Config {
            heuristic: self::heuristic(heuristic),
            budget: Budget { max_nodes, time_limit, ..Budget::default() },
            ..Config::default()
        };
        let search = Interruptible::new(&self.problem, config);
        let started = Instant::now();
        let Some((index, shards)) = shard else {
            // As `dancecard solve` refuses --split-depth and --output without --shard: a
            // count that was meant to be a shard must not quietly count everything.
            if split_depth.is_some() {
                return Err(args::invalid(
                    "split_depth",
                    "a split depth is for a shard only: give shard=(i, n) too",
                ));
            }
            if output.is_some() {
                return Err(args::invalid(
                    "output",
                    "a result file is written for a shard only: give shard=(i, n) too",
                ));
            }
            let memo = counting::memo_config(memo_limit, false);
            let method = counting::method(method);
            let Interruptible { problem, config, cancel } = search;
            let counted = run_interruptible(py, &cancel, || {
                counting::count(problem, config, threads, method, &memo)
            })?
            .map_err(counting::count_error)?;
            let seconds = started.elapsed().as_secs_f64();
            record(&self.last, PyStats::counted(seconds, &counted));
            return Ok(counting::int(&counted.count));
        };
        if matches!(counting::method(method), CountMethod::Memo | CountMethod::Frontier) {
            let said = format!(
                "a shard is counted by the plain search (\"search\" or \"auto\"), not \"{method}\""
            );
            return Err(args::invalid("method", said));
        }
        let depth = split_depth.unwrap_or(scale::SPLIT_DEPTH);
        let shard = scale::Shard { index, shards, depth, output };
        let (outcome, stats) = scale::count_shard(py, search, threads, &shard)?;
        let mut recorded =
            PyStats::new(&stats, started.elapsed().as_secs_f64(), Some(outcome.stop));
        recorded.solutions = Count::from(outcome.solutions);
        if counting::method(method) == CountMethod::Auto {
            recorded.reason = "a shard is counted by the plain search".to_owned();
        }
        record(&self.last, recorded);
        Ok(BigUint::from(outcome.solutions))
    }

    /// The ZDD of all the solutions (`dancecard.Zdd`), built by the memoised search.
    /// `memo_limit`: the most bytes of the memo table and the ZDD (an int below 2**64; `None`:
    /// 2 GiB or a quarter of the memory, whichever is less); a ZDD that alone needs more is a
    /// `ValueError` naming `memo_limit`.
    #[pyo3(signature = (memo_limit = None))]
    fn zdd(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = counting::read_memo_limit)] memo_limit: Option<u64>,
    ) -> PyResult<PyZdd> {
        let cancel = Arc::new(AtomicBool::new(false));
        let config = Config::with_budget(Budget::new().cancel(cancel.clone()));
        let memo = counting::memo_config(memo_limit, true);
        let problem = &*self.problem;
        let started = Instant::now();
        let request = CountRequest { method: CountMethod::Memo, threads: 1, memo, config };
        let counted =
            run_interruptible(py, &cancel, || dancecard_engine::count(problem, &request, &|_| {}))?;
        let mut counted = counted.map_err(counting::count_error)?;
        let seconds = started.elapsed().as_secs_f64();
        record(&self.last, PyStats::counted(seconds, &counted));
        // No limit was set, and a Ctrl-C raised above: the count is whole, and so the ZDD.
        let zdd = counted.zdd.take().ok_or_else(|| {
            PyRuntimeError::new_err(format!(
                "the count stopped ({}) before the ZDD was whole",
                stop_name(Some(counted.stop))
            ))
        })?;
        Ok(PyZdd::new(zdd, self.map.clone(), counted.count))
    }

    /// `k` solutions (an int from 0 to 2**24) drawn independently and exactly uniformly (with
    /// replacement) from the ZDD of all solutions, the same for the same `seed` (an int from 0
    /// to 2**64 - 1; the same samples as `dancecard solve --sample K --seed S`); an empty list
    /// when there is no solution. Builds the ZDD first (`memo_limit` as for `zdd`): to draw
    /// many times, keep `zdd()` and call its `sample`.
    #[pyo3(signature = (k, seed = 0, memo_limit = None))]
    fn sample(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = counting::read_k)] k: usize,
        #[pyo3(from_py_with = counting::read_seed)] seed: u64,
        #[pyo3(from_py_with = counting::read_memo_limit)] memo_limit: Option<u64>,
    ) -> PyResult<Vec<Py<PyAny>>> {
        let drawn = self.zdd(py, memo_limit)?.draw(py, k, seed)?;
        Labels::solutions(self.labels(), py, &drawn)
    }

    /// Knuth's Monte Carlo estimate of the plain search's tree (`dancecard.Estimate`): `probes`
    /// random root-to-leaf probes (an int from 1 to 10**9), reproducible for `seed` (an int
    /// from 0 to 2**64 - 1), each weighted by the product of the branching degrees along its
    /// path; with the method `count(method="auto")` picks and why. `heuristic` as for
    /// `count`. `stats` is left as it was.
    #[pyo3(signature = (probes = 1000, seed = 0, heuristic = "mrv"))]
    fn estimate(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = counting::read_probes)] probes: u64,
        #[pyo3(from_py_with = counting::read_seed)] seed: u64,
        #[pyo3(from_py_with = read_heuristic)] heuristic: &str,
    ) -> PyResult<PyEstimate> {
        let config = Config::with_heuristic(self::heuristic(heuristic));
        // Ctrl-C stops it between probes.
        let search = Interruptible::new(&self.problem, config);
        search.solve(py, |solver| PyEstimate::measure(solver, probes, seed))
    }

    /// The `k` least-cost solutions (`k` an int from 1 to 2**20), by Knuth's DLX5 (branch
    /// and bound on dancing links, the options laid out by cost): a list of `(cost,
    /// solution)` pairs, least cost first (ties in the order found), each solution a sorted
    /// list of option numbers as `first` gives it and its cost the sum of its options'
    /// `costs`; fewer than `k` when the problem has fewer solutions, `[]` when it has none.
    /// Each cost is listed once per solution: two solutions of one cost are two pairs.
    ///
    /// `lower_bound`: `"auto"` (the default: the taxes of DLX5 or of the linear relaxation,
    /// and the item shares, decided from the run; `stats.reason` says which and why, as
    /// `"relaxation: ..."` or `"shares: ..."`), `"relaxation"`
    /// (the relaxation's taxes), `"shares"` (DLX5's rule, plus each remaining item's share of its cheapest
    /// option, which cuts more of the tree) or `"dlx5"` (DLX5's rule alone: its tree, nodes
    /// and updates). `max_nodes` (an int below 2**64) and `time_limit`
    /// (seconds >= 0) stop the search early: the pairs are then the best found, not proven
    /// least (`stats.complete` is false, `stats.stop` says why). `stats.solutions` counts the
    /// solutions the search met (each better than the `k`-th best so far); `stats.lower_bound`
    /// is a proven lower bound on the least cost and `stats.gap` its gap to the best found
    /// (the least cost and 0.0 when the search is complete). With `bounds`,
    /// Algorithm M's tree with a cutoff (`lower_bound` does not apply).
    #[pyo3(signature = (k = 1, lower_bound = "auto", max_nodes = None, time_limit = None))]
    fn min_cost(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = cost::read_k)] k: usize,
        #[pyo3(from_py_with = cost::read_lower_bound)] lower_bound: &str,
        #[pyo3(from_py_with = read_max_nodes)] max_nodes: Option<u64>,
        #[pyo3(from_py_with = read_time_limit)] time_limit: Option<Duration>,
    ) -> PyResult<Vec<(u64, Py<PyAny>)>> {
        let config = Config {
            budget: Budget { max_nodes, time_limit, ..Budget::default() },
            ..Config::default()
        };
        let started = Instant::now();
        let bound = cost::lower_bound(lower_bound);
        let search = Interruptible::new(&self.problem, config);
        let found = search.solve(py, |mut solver| solver.min_cost_with(k, bound))?;
        // A problem with bounds: the engine's message.
        let found = found.map_err(|e| PyValueError::new_err(e.to_string()))?;
        let seconds = started.elapsed().as_secs_f64();
        let bound = Some((found.lower_bound, found.best.first().map(|s| s.cost)));
        let reason = if found.reason.is_empty() {
            String::new()
        } else {
            format!("{}: {}", found.bound.name(), found.reason)
        };
        record(
            &self.last,
            PyStats { bound, reason, ..PyStats::new(&found.stats, seconds, Some(found.stop)) },
        );
        found
            .best
            .iter()
            .map(|s| Ok((s.cost, self.out(py, &numbers(&self.map.index, &s.options))?)))
            .collect()
    }

    /// Preprocessing, as Knuth's DLX-PRE and `dancecard pre`: removes, in rounds until one
    /// changes nothing (at most `max_rounds`, an int below 2**32, or `None`), the options
    /// that no solution can use (taking one leaves some primary item with no option) and the
    /// items that others imply (every option of a primary item holds it uncolored). Returns a
    /// `dancecard.Reduction`: `problem`, the reduced problem (options numbered from 0, costs
    /// kept), with the same solutions as this one once mapped back by `origins` (the number
    /// here of each of its options: `sorted(r.origins[k] for k in s)`), and what was removed
    /// (`removed_options`, `removed_items`, `rounds`, `complete`, `infeasible`). A problem
    /// with `bounds` is a `ValueError`. Runs with the GIL released; Ctrl-C stops it. `stats`
    /// is left as it was.
    #[pyo3(signature = (max_rounds = None))]
    fn pre(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = cost::read_max_rounds)] max_rounds: Option<u32>,
    ) -> PyResult<cost::PyReduction> {
        cost::reduce(
            py,
            &self.problem,
            &self.map.index,
            self.given,
            max_rounds,
            self.map.labels.clone(),
            |problem, kept| {
                Ok(Py::new(py, PyProblem::from_problem(problem).labelled(kept))?.into_any())
            },
        )
    }

    /// All solutions (at most `limit`, an int below 2**128, or None) as a lazy iterator
    /// (a SolutionIterator): nothing is searched until the first next(), and each next()
    /// resumes the search. `heuristic` as for first().
    #[pyo3(signature = (limit = None, heuristic = "mrv"))]
    fn solutions(
        &self,
        #[pyo3(from_py_with = read_limit)] limit: Option<u128>,
        #[pyo3(from_py_with = read_heuristic)] heuristic: &str,
    ) -> PyResult<PySolutions> {
        let config = Config {
            heuristic: self::heuristic(heuristic),
            budget: Budget { max_solutions: limit, ..Budget::default() },
            ..Config::default()
        };
        let (problem, index) = (self.problem.clone(), self.map.index.clone());
        let it = PySolutions::engine(problem, index, config, Some(self.last.clone()), None)?;
        Ok(it.labelled(self.map.labels.clone()))
    }
}

impl PyProblem {
    /// An iterator over the solutions (at most `limit`), each passed through `map` if given.
    pub(crate) fn solutions_mapped(
        &self,
        limit: Option<u128>,
        map: Option<Py<PyAny>>,
    ) -> PyResult<PySolutions> {
        let config = Config {
            budget: Budget { max_solutions: limit, ..Budget::default() },
            ..Config::default()
        };
        let (problem, index) = (self.problem.clone(), self.map.index.clone());
        PySolutions::engine(problem, index, config, Some(self.last.clone()), map)
    }

    fn item_names(&self, kind: dancecard_engine::ItemKind) -> Vec<String> {
        let p = &self.problem;
        p.items().filter(|&i| p.item_kind(i) == kind).map(|i| p.item_name(i).to_owned()).collect()
    }

    /// The items of a kind, as the caller gave them.
    fn items_of(&self, py: Python<'_>, kind: dancecard_engine::ItemKind) -> Vec<Py<PyAny>> {
        let names = self.item_names(kind);
        names.iter().map(|n| Labels::item(self.labels(), py, n)).collect()
    }
}
