//! Arguments from Python, checked: an error names the argument and says what was expected and
//! what was given, as a `TypeError` (a value of the wrong type) or a `ValueError` (a value of
//! the right type out of range, or text that does not parse).
//!
//! # How an argument is read
//!
//! Every argument of the native functions goes through pyo3's `from_py_with` to its reader (a
//! function `read_*` next to the function, built from this module's helpers). pyo3 prefixes a `TypeError` raised there with
//! `argument 'name': `; a `ValueError` it leaves alone, so the readers give theirs the same
//! prefix ([`wrong_value`], [`invalid`]). Every message then reads the same way:
//! `argument 'threads': expected an int from 0 (one per core) to 1024, got -1`.
//! Errors found after reading (a puzzle that does not parse) use [`invalid`], with the prefix.
//!
//! # What the arguments take
//!
//! The stubs (`python/dancecard/_native.pyi`) state the same, and `tests/test_arguments.py`
//! checks every argument of every public function against hostile values.
//!
//! - An int: `int` (and its subclasses) or a scalar with `__index__`, such as numpy's
//!   integers. `bool` is refused, though Python counts it an int: `count(True)` is a mistake
//!   more often than a way to write 1. Floats are refused, even whole ones, and so are arrays
//!   of any shape (numpy's 0-d arrays have `__index__`: they are refused as arrays).
//!   Out of range (negative, too large) is a `ValueError` that shows the value (or its size
//!   in bits, past 128).
//! - A number of seconds: an int as above, or a real number (`float`, anything with
//!   `__float__`); not `bool`. NaN and negative numbers are `ValueError`s.
//! - A flag: `True`, `False` or `numpy.bool_`; nothing else (not even 0 and 1).
//! - A choice among names: a `str` (numpy's `str_` is one), else a `TypeError`.
//! - A sequence: any iterable but `str`, `bytes` and `bytearray` (whose items would be
//!   characters or bytes); numpy arrays are sequences.
//! - A path: `str`, `bytes` or `os.PathLike`, as `open` takes them; not empty, without NUL,
//!   encodable by the file system, at most [`MAX_PATH`] bytes.
//!
//! Text that cannot be encoded as UTF-8 (lone surrogates) is a `ValueError`. Long values are
//! shortened in messages, so that a 10 MB argument does not make a 10 MB error.

use std::borrow::Cow;
use std::fmt::Display;
use std::path::PathBuf;
use std::time::Duration;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyFloat, PyInt, PyIterator, PyString};

/// The longest value shown in a message, in characters.
const SHOWN: usize = 60;

/// The longest message of an error from the models (which may quote the input), in characters.
const MESSAGE: usize = 500;

/// The type of a value as messages name it: `float`, `numpy.ndarray`.
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    let ty = obj.get_type();
    let name = ty.qualname().map_or_else(|_| "?".to_owned(), |n| n.to_string());
    match ty.module() {
        Ok(module) if module.to_cow().is_ok_and(|m| m != "builtins") => format!("{module}.{name}"),
        _ => name,
    }
}

/// `text` whole, or its start and its length when it is longer than `max` characters.
fn clip(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some((end, _)) => {
            Cow::Owned(format!("{}... ({} characters)", &text[..end], text.chars().count()))
        }
    }
}

/// A `str` in quotes for a message (clipped).
pub(crate) fn quoted(text: &str) -> String {
    format!("{:?}", clip(text, SHOWN))
}

/// An error in argument `name`: a `ValueError` whose message starts with `argument 'name': `
/// as pyo3's own errors do (a long message, which may quote the input, is shortened).
pub(crate) fn invalid(name: &str, message: impl Display) -> PyErr {
    let message = message.to_string();
    PyValueError::new_err(format!("argument '{name}': {}", clip(&message, MESSAGE)))
}

/// The error of argument `name` read in the function's body (not by `from_py_with`): a
/// `TypeError` gets the prefix that pyo3 would have given it.
pub(crate) fn in_body<T>(py: Python<'_>, name: &str, read: PyResult<T>) -> PyResult<T> {
    read.map_err(|e| {
        if e.get_type(py).is(py.get_type::<PyTypeError>()) {
            PyTypeError::new_err(format!("argument '{name}': {}", e.value(py)))
        } else {
            e
        }
    })
}

/// A value of the wrong type, at `place` in an argument (an item of a sequence, or [`WHOLE`]):
/// `expected {expected}, got {type}`; pyo3 adds `argument 'name': ` (see the module doc).
pub(crate) fn wrong_type(place: &dyn Display, expected: &str, got: &Bound<'_, PyAny>) -> PyErr {
    let message = format!("{}expected {expected}, got {}", At(place), type_name(got));
    PyTypeError::new_err(clip(&message, MESSAGE).into_owned())
}

/// A value of the right type that is wrong, at `place` in argument `name`:
/// `argument 'name': expected {expected}, got {shown}`.
pub(crate) fn wrong_value(name: &str, place: &dyn Display, expected: &str, shown: &str) -> PyErr {
    invalid(name, format!("{}expected {expected}, got {shown}", At(place)))
}

/// A place in an argument (`rows[1][2]`) followed by `: `, or nothing for the whole argument.
struct At<'a>(&'a dyn Display);

impl Display for At<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let place = self.0.to_string();
        if place.is_empty() {
            Ok(())
        } else {
            write!(f, "{place}: ")
        }
    }
}

/// The whole argument, as a place.
pub(crate) const WHOLE: &str = "";

/// Whether `obj` is a collection (it has `__len__` or `__iter__`): a numpy array of any shape,
/// which is refused where a scalar is expected even when it converts to one.
fn is_collection(obj: &Bound<'_, PyAny>) -> bool {
    obj.hasattr("__len__").unwrap_or(false) || obj.hasattr("__iter__").unwrap_or(false)
}

/// Whether `obj` is a bool: Python's, or numpy's (which is no int, but has `__float__`).
fn is_bool(obj: &Bound<'_, PyAny>) -> bool {
    if obj.is_instance_of::<PyBool>() {
        return true;
    }
    let ty = obj.get_type();
    ty.module().is_ok_and(|m| m.to_cow().is_ok_and(|m| m == "numpy"))
        && ty.name().is_ok_and(|n| n.to_cow().is_ok_and(|n| n == "bool" || n == "bool_"))
}

/// `obj` as a Python int, if it is one (see the module doc): `None` otherwise.
fn as_int<'py>(obj: &Bound<'py, PyAny>) -> Option<Bound<'py, PyInt>> {
    if is_bool(obj) {
        return None;
    }
    if let Ok(int) = obj.downcast::<PyInt>() {
        return Some(int.clone());
    }
    if is_collection(obj) || !obj.hasattr("__index__").unwrap_or(false) {
        return None;
    }
    // `operator.index` checks that `__index__` gave an int.
    let index = obj.py().import("operator").ok()?.getattr("index").ok()?;
    index.call1((obj,)).ok()?.downcast_into::<PyInt>().ok()
}

/// An int for a message: its digits, or its size when it has more than 128 bits (Python
/// refuses to print ints of more than 4300 digits).
fn int_shown(int: &Bound<'_, PyInt>) -> String {
    let bits = int.call_method0("bit_length").and_then(|b| b.extract::<u64>()).unwrap_or(u64::MAX);
    let negative = int.lt(0).unwrap_or(false);
    match (bits <= 128, negative) {
        (true, _) => int.str().map_or_else(|_| "?".to_owned(), |s| s.to_string()),
        (false, true) => format!("a negative int of {bits} bits"),
        (false, false) => format!("an int of {bits} bits"),
    }
}

/// An int from `min` to `max` (see the module doc); `expected` describes the range.
pub(crate) fn int_in(
    obj: &Bound<'_, PyAny>,
    name: &str,
    place: &dyn Display,
    (min, max): (u128, u128),
    expected: &str,
) -> PyResult<u128> {
    let Some(int) = as_int(obj) else { return Err(wrong_type(place, expected, obj)) };
    match int.extract::<u128>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(wrong_value(name, place, expected, &int_shown(&int))),
    }
}

/// An int from `min` to `max` as a `usize` ("an int from {min} to {max}").
pub(crate) fn usize_in(
    obj: &Bound<'_, PyAny>,
    name: &str,
    place: &dyn Display,
    min: usize,
    max: usize,
) -> PyResult<usize> {
    let expected = format!("an int from {min} to {max}");
    let v = int_in(obj, name, place, (min as u128, max as u128), &expected)?;
    // In range, so it fits.
    Ok(usize::try_from(v).unwrap_or(max))
}

/// A non-negative int as a `usize`, `usize::MAX` past its range: for a number that indexes
/// something, where a huge one is only one more that is not there.
pub(crate) fn index_saturating(
    obj: &Bound<'_, PyAny>,
    name: &str,
    place: &dyn Display,
    expected: &str,
) -> PyResult<usize> {
    let Some(int) = as_int(obj) else { return Err(wrong_type(place, expected, obj)) };
    if int.lt(0)? {
        return Err(wrong_value(name, place, expected, &int_shown(&int)));
    }
    Ok(int.extract::<usize>().unwrap_or(usize::MAX))
}

/// A non-negative int below 2**64, or `None`.
pub(crate) fn optional_u64(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<u64>> {
    if obj.is_none() {
        return Ok(None);
    }
    let range = (0, u128::from(u64::MAX));
    let v = int_in(obj, name, &WHOLE, range, "a non-negative int below 2**64 or None")?;
    Ok(Some(u64::try_from(v).unwrap_or(u64::MAX)))
}

/// A non-negative int below 2**128, or `None`.
pub(crate) fn optional_u128(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<u128>> {
    if obj.is_none() {
        return Ok(None);
    }
    let range = (0, u128::MAX);
    int_in(obj, name, &WHOLE, range, "a non-negative int below 2**128 or None").map(Some)
}

/// A real number (see the module doc): an int (±infinity past the floats' range) or
/// anything with `__float__`.
fn real(obj: &Bound<'_, PyAny>, expected: &str) -> PyResult<f64> {
    if is_bool(obj) {
        return Err(wrong_type(&WHOLE, expected, obj));
    }
    if let Ok(float) = obj.downcast::<PyFloat>() {
        return Ok(float.value());
    }
    if let Some(int) = as_int(obj) {
        // Past the floats' range: an OverflowError, and the number is ±infinity for us.
        return Ok(int.extract::<f64>().unwrap_or_else(|_| {
            if int.lt(0).unwrap_or(false) {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        }));
    }
    if is_collection(obj) || !obj.hasattr("__float__").unwrap_or(false) {
        return Err(wrong_type(&WHOLE, expected, obj));
    }
    obj.extract::<f64>().map_err(|_| wrong_type(&WHOLE, expected, obj))
}

/// A number of seconds >= 0, or `None`: `None` (no limit) also for infinity or a time too
/// far to represent; NaN and negative numbers are `ValueError`s.
pub(crate) fn optional_seconds(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<Duration>> {
    if obj.is_none() {
        return Ok(None);
    }
    let expected = "a number of seconds >= 0 or None";
    let t = real(obj, expected)?;
    if t.is_nan() || t < 0.0 {
        return Err(wrong_value(name, &WHOLE, expected, &t.to_string()));
    }
    Ok(Duration::try_from_secs_f64(t).ok())
}

/// A flag: `True`, `False` or `numpy.bool_`.
pub(crate) fn flag(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    if is_bool(obj) {
        return obj.is_truthy();
    }
    Err(wrong_type(&WHOLE, "True or False", obj))
}

/// A `str` as UTF-8 (borrowed when Python holds it so).
pub(crate) fn str_of<'a>(
    s: &'a Bound<'_, PyString>,
    name: &str,
    place: &dyn Display,
) -> PyResult<Cow<'a, str>> {
    s.to_cow().map_err(|e| {
        let why = e.value(s.py()).to_string();
        invalid(name, format!("{}expected text that UTF-8 can encode: {why}", At(place)))
    })
}

/// One of `choices`, the names a str argument may take. The name is returned (as the
/// `'static` str of `choices`), so that a default in a pyo3 signature can be a literal and
/// show in the function's text signature.
pub(crate) fn choice(
    obj: &Bound<'_, PyAny>,
    name: &str,
    choices: &[&'static str],
) -> PyResult<&'static str> {
    let quoted: Vec<String> = choices.iter().map(|c| format!("{c:?}")).collect();
    let expected = match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => quoted.concat(),
    };
    let s = obj.downcast::<PyString>().map_err(|_| wrong_type(&WHOLE, &expected, obj))?;
    let s = str_of(s, name, &WHOLE)?;
    choices
        .iter()
        .find(|c| **c == s)
        .copied()
        .ok_or_else(|| wrong_value(name, &WHOLE, &expected, &self::quoted(&s)))
}

/// The items of a sequence argument (see the module doc), or a `TypeError` saying what was
/// `expected` at `place`.
pub(crate) fn items<'py>(
    obj: &Bound<'py, PyAny>,
    place: &dyn Display,
    expected: &str,
) -> PyResult<Items<'py>> {
    let text = obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>();
    if text {
        return Err(wrong_type(place, expected, obj));
    }
    let iter = obj.try_iter().map_err(|_| wrong_type(place, expected, obj))?;
    Ok(Items { iter, count: 0 })
}

/// How many values a sequence that should hold a pair was found to hold, for a message; `n`
/// is at most 3, the sequence read no further than one value too many.
pub(crate) fn values_shown(n: usize) -> String {
    match n {
        0 => "no value".to_owned(),
        1 => "one value".to_owned(),
        2 => "two values".to_owned(),
        _ => "three values or more".to_owned(),
    }
}

/// How many items [`Items`] reads between two looks at pending signals.
const SIGNALS_EVERY: usize = 4096;

/// The items of a sequence argument, looking at pending signals every [`SIGNALS_EVERY`]
/// items: an endless iterator written in C (`itertools.count()`) runs no bytecode, so
/// without this Ctrl-C could not stop its reading.
#[derive(Debug)]
pub(crate) struct Items<'py> {
    iter: Bound<'py, PyIterator>,
    count: usize,
}

impl<'py> Iterator for Items<'py> {
    type Item = PyResult<Bound<'py, PyAny>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.count += 1;
        if self.count % SIGNALS_EVERY == 0 {
            if let Err(e) = self.iter.py().check_signals() {
                return Some(Err(e));
            }
        }
        self.iter.next()
    }
}

/// A place in a sequence: `name[i]`, `name[i][j]`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Index<'a> {
    /// The argument's name.
    pub(crate) name: &'a str,
    /// Up to two indices (`None`: absent; none at all: the whole argument).
    pub(crate) at: [Option<usize>; 2],
}

impl<'a> Index<'a> {
    /// `name[i]`.
    pub(crate) fn one(name: &'a str, i: usize) -> Self {
        Index { name, at: [Some(i), None] }
    }

    /// `name[i][j]`.
    pub(crate) fn two(name: &'a str, i: usize, j: usize) -> Self {
        Index { name, at: [Some(i), Some(j)] }
    }
}

/// `name[i][j]`, or nothing without indices (the whole argument: pyo3 names it).
impl Display for Index<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.at[0].is_none() {
            return Ok(());
        }
        f.write_str(self.name)?;
        for i in self.at.iter().flatten() {
            write!(f, "[{i}]")?;
        }
        Ok(())
    }
}

/// The longest path a path argument takes, in bytes: Linux's `PATH_MAX`, longer than any path
/// the system would open.
pub(crate) const MAX_PATH: usize = 4096;

/// A path, at `place` in argument `name`: `str`, `bytes` or `os.PathLike` (as `open` takes
/// them: a `str` is encoded by `os.fsencode`), not empty, without NUL, at most [`MAX_PATH`]
/// bytes.
pub(crate) fn path(obj: &Bound<'_, PyAny>, name: &str, place: &dyn Display) -> PyResult<PathBuf> {
    const EXPECTED: &str = "a path (str, bytes or os.PathLike)";
    let py = obj.py();
    let os = py.import("os")?;
    let text = obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>();
    if !text && !obj.hasattr("__fspath__").unwrap_or(false) {
        return Err(wrong_type(place, EXPECTED, obj));
    }
    // `__fspath__` may give anything: os.fspath checks it is str or bytes.
    let path = os.call_method1("fspath", (obj,)).map_err(|_| wrong_type(place, EXPECTED, obj))?;
    let encoded = if path.is_instance_of::<PyString>() {
        os.call_method1("fsencode", (&path,)).map_err(|e| {
            // A lone surrogate that the file system's encoding cannot take.
            let why = e.value(py).to_string();
            invalid(name, format!("{}expected a path the file system can encode: {why}", At(place)))
        })?
    } else {
        path
    };
    let bytes =
        encoded.downcast::<PyBytes>().map_err(|_| wrong_type(place, EXPECTED, obj))?.as_bytes();
    if bytes.is_empty() {
        return Err(wrong_value(name, place, "a path that is not empty", "''"));
    }
    if bytes.contains(&0) {
        let shown = quoted(&String::from_utf8_lossy(bytes));
        return Err(wrong_value(name, place, "a path without NUL", &shown));
    }
    if bytes.len() > MAX_PATH {
        let expected = format!("a path of at most {MAX_PATH} bytes");
        let shown = format!("{} bytes", bytes.len());
        return Err(wrong_value(name, place, &expected, &shown));
    }
    path_of(bytes, name, place)
}

/// The path of the bytes `os.fsencode` gave.
#[cfg(unix)]
fn path_of(bytes: &[u8], _name: &str, _place: &dyn Display) -> PyResult<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    Ok(PathBuf::from(std::ffi::OsStr::from_bytes(bytes)))
}

/// The path of the bytes `os.fsencode` gave (UTF-8 off Unix).
#[cfg(not(unix))]
fn path_of(bytes: &[u8], name: &str, place: &dyn Display) -> PyResult<PathBuf> {
    std::str::from_utf8(bytes)
        .map(PathBuf::from)
        .map_err(|e| invalid(name, format!("{}expected a path in UTF-8: {e}", At(place))))
}
