//! Items, colors and options as the caller's Python objects (#21): `Problem(primary,
//! secondary, options)` takes items of any hashable type, and options as a dict from names
//! to items, as the Python exact cover packages do.
//!
//! The engine names its items and colors with text ([`check_name`]'s rules). A problem whose
//! items are all `str` keeps them as names, exactly as before; one with any other item (an
//! int, a tuple, a frozenset...) names every item `#k`, `k` its place in the declaration,
//! and every color `#c` likewise, and keeps the caller's objects in a [`Labels`]. Everything
//! that reports items (`primary`, `secondary`, `options`, `bounds`, a `Reduction`'s
//! `removed_items` and `infeasible`) maps the names back to the objects; the DLX text
//! (`to_dlx`) shows the `#k` names.
//!
//! Options given as a dict are numbered in the dict's order, and every answer that lists
//! options (solutions, samples, least-cost solutions, a `Reduction`'s `origins`) gives their
//! names instead of their numbers.
//!
//! [`check_name`]: dancecard_engine::ProblemBuilder::primary

use dancecard_engine::{Entry, ItemId, Problem, ProblemBuilder};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyMapping, PyString, PyTuple};

use crate::args;

/// The caller's objects behind a problem's names.
#[derive(Debug)]
pub(crate) struct Labels {
    /// The object of each item when items are objects: the item named `#k` is `items[k]`
    /// (`None`: the items are their names).
    items: Option<Vec<Py<PyAny>>>,
    /// The object of each color of a problem whose items are objects: `#c` is `colors[c]`.
    colors: Vec<Py<PyAny>>,
    /// The name of each option, by number, when the options were given as a dict.
    options: Option<Vec<Py<PyAny>>>,
}

/// What a pickle holds of a [`Labels`]: the items, the colors and the option names.
pub(crate) type LabelsState = (Option<Vec<Py<PyAny>>>, Vec<Py<PyAny>>, Option<Vec<Py<PyAny>>>);

/// The number `k` of an internal name `#k`.
fn number(name: &str) -> Option<usize> {
    name.strip_prefix('#')?.parse().ok()
}

/// An object of `objects` by an internal name, or the name itself as a `str`.
fn object_of(py: Python<'_>, objects: Option<&[Py<PyAny>]>, name: &str) -> Py<PyAny> {
    match objects.and_then(|o| number(name).and_then(|k| o.get(k))) {
        Some(object) => object.clone_ref(py),
        None => PyString::new(py, name).into_any().unbind(),
    }
}

impl Labels {
    /// The caller's object of an item (its name as a `str` when items are names).
    pub(crate) fn item(labels: Option<&Self>, py: Python<'_>, name: &str) -> Py<PyAny> {
        object_of(py, labels.and_then(|l| l.items.as_deref()), name)
    }

    /// Whether the items are objects (else names).
    pub(crate) fn has_items(labels: Option<&Self>) -> bool {
        labels.is_some_and(|l| l.items.is_some())
    }

    /// The caller's object of a color (its name when items are names).
    fn color(&self, py: Python<'_>, name: &str) -> Py<PyAny> {
        let colors = self.items.as_ref().map(|_| &self.colors[..]);
        object_of(py, colors, name)
    }

    /// What the caller calls option `k`: its name (options given as a dict), or `k`.
    pub(crate) fn option(labels: Option<&Self>, py: Python<'_>, k: usize) -> PyResult<Py<PyAny>> {
        match labels.and_then(|l| l.options.as_ref()) {
            Some(names) => Ok(names[k].clone_ref(py)),
            None => Ok(k.into_pyobject(py)?.into_any().unbind()),
        }
    }

    /// A list of options as the caller calls them (a solution, `origins`...).
    pub(crate) fn options(
        labels: Option<&Self>,
        py: Python<'_>,
        numbers: &[usize],
    ) -> PyResult<Py<PyAny>> {
        let out: Vec<Py<PyAny>> =
            numbers.iter().map(|&k| Labels::option(labels, py, k)).collect::<PyResult<_>>()?;
        Ok(PyList::new(py, out)?.into_any().unbind())
    }

    /// Lists of options as the caller calls them (samples).
    pub(crate) fn solutions(
        labels: Option<&Self>,
        py: Python<'_>,
        solutions: &[Vec<usize>],
    ) -> PyResult<Vec<Py<PyAny>>> {
        solutions.iter().map(|s| Labels::options(labels, py, s)).collect()
    }

    /// The number of each option name, when the options were given as a dict.
    pub(crate) fn option_numbers<'py>(
        labels: Option<&Self>,
        py: Python<'py>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(names) = labels.and_then(|l| l.options.as_ref()) else { return Ok(None) };
        let numbers = PyDict::new(py);
        for (k, name) in names.iter().enumerate() {
            numbers.set_item(name, k)?;
        }
        Ok(Some(numbers))
    }

    /// The option `option` of `problem` as the caller gave it: a list of its items' objects,
    /// a colored one as the pair `(item, color)`.
    pub(crate) fn option_items(
        &self,
        py: Python<'_>,
        problem: &Problem,
        option: dancecard_engine::OptionId,
    ) -> PyResult<Py<PyAny>> {
        let mut out = Vec::new();
        for e in problem.option(option) {
            let item = Labels::item(Some(self), py, problem.item_name(e.item));
            out.push(match e.color {
                Some(c) => {
                    let color = self.color(py, problem.color_name(c));
                    PyTuple::new(py, [item, color])?.into_any().unbind()
                }
                None => item,
            });
        }
        Ok(PyList::new(py, out)?.into_any().unbind())
    }

    /// The labels of a reduced problem whose option `k` is option `origins[k]` of this one.
    pub(crate) fn reduced(&self, py: Python<'_>, origins: &[usize]) -> Labels {
        let clone = |v: &Vec<Py<PyAny>>| v.iter().map(|o| o.clone_ref(py)).collect::<Vec<_>>();
        Labels {
            items: self.items.as_ref().map(clone),
            colors: clone(&self.colors),
            options: self
                .options
                .as_ref()
                .map(|o| origins.iter().map(|&k| o[k].clone_ref(py)).collect()),
        }
    }

    /// A message of the engine with the `#k` names of items shown as the caller's objects.
    fn readable(&self, py: Python<'_>, message: &str) -> String {
        let Some(items) = &self.items else { return message.to_owned() };
        let mut out = String::new();
        for (n, piece) in message.split('`').enumerate() {
            if n > 0 {
                out.push('`');
            }
            match number(piece).and_then(|k| items.get(k)) {
                Some(item) if n % 2 == 1 => out.push_str(&repr(item.bind(py))),
                _ => out.push_str(piece),
            }
        }
        out
    }

    /// What a pickle keeps ([`Labels::from_state`] reads it back).
    pub(crate) fn state(&self, py: Python<'_>) -> LabelsState {
        let clone = |v: &Vec<Py<PyAny>>| v.iter().map(|o| o.clone_ref(py)).collect::<Vec<_>>();
        (self.items.as_ref().map(clone), clone(&self.colors), self.options.as_ref().map(clone))
    }

    /// The labels of a pickle's state, checked against the problem they name: every item
    /// (and color) named `#k` has its object, and every option given its name.
    pub(crate) fn from_state(
        state: LabelsState,
        problem: &Problem,
        given: usize,
    ) -> Result<Labels, String> {
        let (items, colors, options) = state;
        if let Some(items) = &items {
            for i in problem.items() {
                let name = problem.item_name(i);
                if number(name).map_or(true, |k| k >= items.len()) {
                    return Err(format!("no object for item `{name}`"));
                }
            }
            let colored = problem.options().flat_map(|o| problem.option(o)).filter_map(|e| e.color);
            for c in colored {
                let name = problem.color_name(c);
                if number(name).map_or(true, |k| k >= colors.len()) {
                    return Err(format!("no object for color `{name}`"));
                }
            }
        }
        if let Some(options) = &options {
            if options.len() != given {
                let got = options.len();
                return Err(format!("expected {given} option names, one per option, got {got}"));
            }
        }
        Ok(Labels { items, colors, options })
    }
}

/// `repr(obj)`, or a placeholder when it fails.
fn repr(obj: &Bound<'_, PyAny>) -> String {
    obj.repr().map_or_else(|_| "<object>".to_owned(), |r| r.to_string())
}

/// One entry of a list of items or of an option, as given.
#[derive(Debug)]
enum Given<'py> {
    /// A name: a `str` (a `str` argument split at whitespace gives names too).
    Name(String),
    /// Any other hashable object.
    Object(Bound<'py, PyAny>),
}

impl<'py> Given<'py> {
    /// The entry as a Python object.
    fn object(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match self {
            Given::Name(name) => PyString::new(py, name).into_any(),
            Given::Object(obj) => obj.clone(),
        }
    }
}

/// Reads the items of argument `name` (or of its option `option`): a str is split at
/// whitespace into names; any other iterable (but `bytes`) gives one entry per value, a `str`
/// a name and any other hashable object itself.
fn read_given<'py>(
    obj: &Bound<'py, PyAny>,
    name: &str,
    option: Option<usize>,
) -> PyResult<Vec<Given<'py>>> {
    const EXPECTED: &str = "a str of names or an iterable of hashable items";
    let whole = args::Index { name, at: [option, None] };
    if let Ok(s) = obj.downcast::<PyString>() {
        let text = args::str_of(s, name, &whole)?;
        return Ok(text.split_whitespace().map(|n| Given::Name(n.to_owned())).collect());
    }
    let mut out = Vec::new();
    for (i, item) in args::items(obj, &whole, EXPECTED)?.enumerate() {
        let item = item?;
        let at = match option {
            Some(k) => args::Index::two(name, k, i),
            None => args::Index::one(name, i),
        };
        if let Ok(s) = item.downcast::<PyString>() {
            out.push(Given::Name(args::str_of(s, name, &at)?.into_owned()));
        } else if item.hash().is_ok() {
            out.push(Given::Object(item));
        } else {
            return Err(args::wrong_type(&at, "a str or another hashable item", &item));
        }
    }
    Ok(out)
}

/// The options as given: each one's entries, and their names when they came as a dict.
#[derive(Debug, Default)]
struct GivenOptions<'py> {
    options: Vec<Vec<Given<'py>>>,
    names: Option<Vec<Py<PyAny>>>,
}

/// Reads argument `options`: a dict from option names to options, or an iterable of options,
/// each a str of names or an iterable of items; or `None`.
fn read_options<'py>(obj: Option<&Bound<'py, PyAny>>) -> PyResult<GivenOptions<'py>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else { return Ok(GivenOptions::default()) };
    let mut out = GivenOptions::default();
    if let Ok(dict) = obj.downcast::<PyDict>() {
        let mut names = Vec::new();
        for (k, (name, option)) in dict.iter().enumerate() {
            out.options.push(read_given(&option, "options", Some(k))?);
            names.push(name.unbind());
        }
        out.names = Some(names);
        return Ok(out);
    }
    // A string is iterable, but its characters are not options (`args::items` refuses it).
    let expected = "an iterable of options (each a str of names or an iterable of items), a \
                    dict of them, or None";
    for (k, option) in args::items(obj, &args::WHOLE, expected)?.enumerate() {
        out.options.push(read_given(&option?, "options", Some(k))?);
    }
    Ok(out)
}

/// The bounds of `Problem(bounds=...)`: each item (any key of the dict) with `lo` and `hi`.
pub(crate) type Bounds = Vec<(Py<PyAny>, u32, u32)>;

/// The arguments of `Problem(...)`, read.
#[derive(Debug)]
pub(crate) struct Arguments<'a, 'py> {
    /// `primary`.
    pub(crate) primary: &'a Bound<'py, PyAny>,
    /// `secondary`.
    pub(crate) secondary: Option<&'a Bound<'py, PyAny>>,
    /// `options`.
    pub(crate) options: Option<&'a Bound<'py, PyAny>>,
    /// `costs`.
    pub(crate) costs: Option<&'a Bound<'py, PyAny>>,
    /// `bounds`, read by [`read_bounds`].
    pub(crate) bounds: Bounds,
}

/// Builds the problem of `Problem(...)`'s arguments, and the labels it needs (`None` when
/// its items are names and its options a list).
pub(crate) fn build(py: Python<'_>, a: &Arguments<'_, '_>) -> PyResult<(Problem, Option<Labels>)> {
    let primary = args::in_body(py, "primary", read_given(a.primary, "primary", None))?;
    let secondary = match a.secondary.filter(|s| !s.is_none()) {
        Some(s) => args::in_body(py, "secondary", read_given(s, "secondary", None))?,
        None => Vec::new(),
    };
    let options = args::in_body(py, "options", read_options(a.options))?;
    let costs = args::in_body(py, "costs", read_costs(a.costs, options.options.len()))?;
    let objects = primary.iter().chain(&secondary).any(|g| matches!(g, Given::Object(_)));
    let mut b = Builder { b: ProblemBuilder::new(), ids: None, colors: None };
    if objects {
        b.ids = Some((PyDict::new(py), Vec::new()));
        b.colors = Some((PyDict::new(py), Vec::new()));
    }
    for (argument, items, secondary) in
        [("primary", &primary, false), ("secondary", &secondary, true)]
    {
        for item in items {
            b.declare(py, item, argument, secondary)?;
        }
    }
    for (key, lo, hi) in &a.bounds {
        let item = b.bound_item(key.bind(py))?;
        b.b.set_bounds(item, *lo, *hi).map_err(|e| b.error("bounds", py, &e))?;
    }
    for (k, option) in options.options.iter().enumerate() {
        let id = b.option(py, k, option)?;
        if let Some(costs) = &costs {
            b.b.set_cost(id, costs[k]).map_err(|e| args::invalid("costs", e))?;
        }
    }
    let labels = match (b.ids, options.names) {
        (None, None) => None,
        (ids, names) => Some(Labels {
            items: ids.map(|(_, objects)| objects),
            colors: b.colors.map(|(_, objects)| objects).unwrap_or_default(),
            options: names,
        }),
    };
    Ok((b.b.build(), labels))
}

/// A problem's builder, with the objects of the items and colors when items are objects.
struct Builder<'py> {
    b: ProblemBuilder,
    /// The number of each item's object, and the objects in order (`None`: names).
    ids: Option<(Bound<'py, PyDict>, Vec<Py<PyAny>>)>,
    /// The same for colors.
    colors: Option<(Bound<'py, PyDict>, Vec<Py<PyAny>>)>,
}

impl<'py> Builder<'py> {
    /// An engine error on argument `argument`, its `#k` names shown as the caller's objects.
    fn error(&self, argument: &str, py: Python<'py>, e: &dyn std::fmt::Display) -> PyErr {
        let message = e.to_string();
        match &self.ids {
            Some((_, objects)) => {
                let objects = objects.iter().map(|o| o.clone_ref(py)).collect();
                let labels = Labels { items: Some(objects), colors: Vec::new(), options: None };
                args::invalid(argument, labels.readable(py, &message))
            }
            None => args::invalid(argument, message),
        }
    }

    /// Declares an item of argument `argument`.
    fn declare(
        &mut self,
        py: Python<'py>,
        item: &Given<'py>,
        argument: &str,
        secondary: bool,
    ) -> PyResult<()> {
        let name = match (&mut self.ids, item) {
            (None, Given::Name(name)) => name.clone(),
            (None, Given::Object(_)) => unreachable!("objects are declared with their ids"),
            (Some((ids, objects)), item) => {
                let obj = item.object(py);
                if ids.contains(&obj)? {
                    let message = format!("item `{}` is declared twice", repr(&obj));
                    return Err(args::invalid(argument, message));
                }
                ids.set_item(&obj, objects.len())?;
                objects.push(obj.unbind());
                format!("#{}", objects.len() - 1)
            }
        };
        let declared = if secondary { self.b.secondary(&name) } else { self.b.primary(&name) };
        declared.map(|_| ()).map_err(|e| args::invalid(argument, e))
    }

    /// The item of an object of the caller's (`None`: not an item).
    fn item(&self, obj: &Bound<'py, PyAny>) -> PyResult<Option<ItemId>> {
        match &self.ids {
            Some((ids, _)) => match ids.get_item(obj)? {
                Some(k) => Ok(self.b.item_id(&format!("#{}", k.extract::<usize>()?))),
                None => Ok(None),
            },
            None => match obj.downcast::<PyString>() {
                Ok(s) => Ok(s.to_cow().ok().and_then(|name| self.b.item_id(&name))),
                Err(_) => Ok(None),
            },
        }
    }

    /// The item of a key of `bounds`.
    fn bound_item(&self, key: &Bound<'py, PyAny>) -> PyResult<ItemId> {
        if self.ids.is_none() {
            let name = key.downcast::<PyString>().map_err(|_| {
                let e = args::wrong_type(&args::WHOLE, "item names (str) as keys", key);
                args::in_body(key.py(), "bounds", Err::<(), _>(e)).unwrap_err()
            })?;
            let name = args::str_of(name, "bounds", &args::WHOLE)?;
            let unknown =
                || args::invalid("bounds", format!("unknown item {}", args::quoted(&name)));
            return self.b.item_id(&name).ok_or_else(unknown);
        }
        self.item(key)?
            .ok_or_else(|| args::invalid("bounds", format!("unknown item `{}`", repr(key))))
    }

    /// The color of an object of the caller's, made on first use.
    fn color(&mut self, obj: &Bound<'py, PyAny>) -> PyResult<dancecard_engine::ColorId> {
        let name = match &mut self.colors {
            Some((ids, objects)) => match ids.get_item(obj)? {
                Some(k) => format!("#{}", k.extract::<usize>()?),
                None => {
                    ids.set_item(obj, objects.len())?;
                    objects.push(obj.clone().unbind());
                    format!("#{}", objects.len() - 1)
                }
            },
            None => match obj.downcast::<PyString>() {
                Ok(s) => s.to_cow()?.into_owned(),
                Err(_) => {
                    let message = format!("a color of named items is a str, got `{}`", repr(obj));
                    return Err(args::invalid("options", message));
                }
            },
        };
        self.b.color(&name).map_err(|e| args::invalid("options", e))
    }

    /// Adds option `k`.
    fn option(
        &mut self,
        py: Python<'py>,
        k: usize,
        option: &[Given<'py>],
    ) -> PyResult<dancecard_engine::OptionId> {
        // Names alone: the engine reads them (`x:red`), with its own messages.
        if self.ids.is_none() && option.iter().all(|g| matches!(g, Given::Name(_))) {
            let names = option.iter().map(|g| match g {
                Given::Name(n) => n.as_str(),
                Given::Object(_) => "",
            });
            return self.b.option_by_names(names).map_err(|e| args::invalid("options", e));
        }
        let mut entries = Vec::new();
        for given in option {
            let obj = given.object(py);
            let entry = self.entry(&obj)?.ok_or_else(|| {
                args::invalid("options", format!("option {k} names unknown item `{}`", repr(&obj)))
            })?;
            entries.push(entry);
        }
        self.b.option(entries).map_err(|e| self.error("options", py, &e))
    }

    /// The entry of an object of an option: an item; a `str` `item:color`; or a pair
    /// `(item, color)` that is no item itself.
    fn entry(&mut self, obj: &Bound<'py, PyAny>) -> PyResult<Option<Entry>> {
        if let Some(item) = self.item(obj)? {
            return Ok(Some(Entry::plain(item)));
        }
        let (item, color) = if let Ok(s) = obj.downcast::<PyString>() {
            let text = s.to_cow()?;
            let Some((item, color)) = text.split_once(':') else { return Ok(None) };
            let py = obj.py();
            (PyString::new(py, item).into_any(), PyString::new(py, color).into_any())
        } else if let Ok(pair) = obj.downcast::<PyTuple>() {
            if pair.len() != 2 {
                return Ok(None);
            }
            (pair.get_item(0)?, pair.get_item(1)?)
        } else {
            return Ok(None);
        };
        let Some(item) = self.item(&item)? else { return Ok(None) };
        Ok(Some(Entry::colored(item, self.color(&color)?)))
    }
}

/// Reads argument `costs` of `Problem`: `None`, or one int from 0 to 2**64 - 1 per option
/// (`options` of them; read no further than one too many, so that an endless iterator is a
/// `ValueError`, not an endless read; each value is checked before the count, so that a
/// value of the wrong type is a `TypeError` however many there are). Read in the constructor's body, where the number of
/// options is known.
pub(crate) fn read_costs(
    obj: Option<&Bound<'_, PyAny>>,
    options: usize,
) -> PyResult<Option<Vec<u64>>> {
    const EXPECTED: &str =
        "a sequence of costs (ints from 0 to 2**64 - 1), one per option, or None";
    let Some(obj) = obj.filter(|o| !o.is_none()) else { return Ok(None) };
    let mut out = Vec::new();
    for (k, v) in args::items(obj, &args::WHOLE, EXPECTED)?.enumerate() {
        let at = args::Index::one("costs", k);
        let range = (0, u128::from(u64::MAX));
        let cost = args::int_in(&v?, "costs", &at, range, "an int from 0 to 2**64 - 1")?;
        if k == options {
            let message = format!("expected {options} costs, one per option, got more");
            return Err(args::invalid("costs", message));
        }
        // In range, so it fits.
        out.push(u64::try_from(cost).unwrap_or(u64::MAX));
    }
    if out.len() != options {
        let message = format!("expected {options} costs, one per option, got {}", out.len());
        return Err(args::invalid("costs", message));
    }
    Ok(Some(out))
}

/// Reads argument `bounds` of `Problem`: `None`, or a mapping (a `dict`) from primary items
/// to an int `m` (exactly `m` times: `m:m`) or a pair `(lo, hi)` of ints from 0 to
/// 2**32 - 1 (any iterable of two, numpy's too). Whether the keys are primary items and
/// the bounds meet (`hi > 0`, `lo <= hi`) the builder says ([`crate::labels::build`]).
pub(crate) fn read_bounds(obj: &Bound<'_, PyAny>) -> PyResult<Option<Bounds>> {
    const EXPECTED: &str = "a dict from primary item names to an int or a pair (lo, hi), or None";
    const BOUND: &str = "an int from 0 to 2**32 - 1 or a pair (lo, hi) of them";
    if obj.is_none() {
        return Ok(None);
    }
    let map =
        obj.downcast::<PyMapping>().map_err(|_| args::wrong_type(&args::WHOLE, EXPECTED, obj))?;
    let int = |v: &Bound<'_, PyAny>, place: &str, expected: &str| -> PyResult<u32> {
        let v = args::int_in(v, "bounds", &place, (0, u128::from(u32::MAX)), expected)?;
        // In range, so it fits.
        Ok(u32::try_from(v).unwrap_or(u32::MAX))
    };
    let mut out = Vec::new();
    for pair in map.items()?.iter() {
        let (key, value): (Bound<'_, PyAny>, Bound<'_, PyAny>) = pair.extract()?;
        let place = match key.downcast::<PyString>() {
            Ok(name) => {
                format!("bounds[{}]", args::quoted(&args::str_of(name, "bounds", &args::WHOLE)?))
            }
            Err(_) => format!("bounds[{}]", key.repr()?),
        };
        let name = key.unbind();
        // A sequence is a pair; anything else must be an int.
        let Ok(values) = args::items(&value, &place, BOUND) else {
            let m = int(&value, &place, BOUND)?;
            out.push((name, m, m));
            continue;
        };
        // Read no further than one value too many: an endless iterator is no pair.
        let values = values.take(3).collect::<PyResult<Vec<_>>>()?;
        let [lo, hi] = &values[..] else {
            let shown = args::values_shown(values.len());
            return Err(args::wrong_value("bounds", &place, "a pair (lo, hi)", &shown));
        };
        let expected = "an int from 0 to 2**32 - 1";
        let (lo, hi) = (int(lo, &place, expected)?, int(hi, &place, expected)?);
        out.push((name, lo, hi));
    }
    Ok(Some(out))
}
