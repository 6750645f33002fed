//! The immutable description of an exact cover problem, and its builder.
//!
//! A [`Problem`] has named *items*, each *primary* (must be covered exactly once) or
//! *secondary* (covered at most once, or, with colors, by any number of options that all give
//! it the same color), and *options*, each a set of items. It is immutable once built: every
//! [`Solver`](crate::Solver) builds its own dancing-links arena from it, so one problem can be
//! searched by many solvers (threads) at once.
//!
//! Two extensions of Knuth's later programs are part of a problem:
//!
//! - **Multiplicities** (DLX3): a primary item may carry *bounds* `a:b`, asking that it be
//!   covered at least `a` and at most `b` times ([`ProblemBuilder::primary_with_bounds`]);
//!   without them it is covered exactly once. A problem with bounds is searched by Knuth's
//!   Algorithm M (see [`Solver`](crate::Solver)).
//! - **Costs** (DLX5): an option may carry a nonnegative *cost*
//!   ([`ProblemBuilder::option_with_cost`]); [`Solver::min_cost`](crate::Solver::min_cost)
//!   finds the solutions of least total cost. Searches that do not ask for costs ignore them.

use std::collections::BTreeMap;
use std::fmt;

use crate::ids::{ColorId, ItemId, OptionId};

/// Whether an item must be covered exactly once or at most once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemKind {
    /// Covered by exactly one option of every solution.
    Primary,
    /// Covered by at most one option, or by several options that give it the same color.
    Secondary,
}

/// One item of an option, with the color it gives the item (secondary items only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The item.
    pub item: ItemId,
    /// The color given to the item, if any (only secondary items can be colored).
    pub color: Option<ColorId>,
}

impl Entry {
    /// An entry without a color.
    pub const fn plain(item: ItemId) -> Self {
        Self { item, color: None }
    }

    /// An entry that gives secondary item `item` the color `color`.
    pub const fn colored(item: ItemId, color: ColorId) -> Self {
        Self { item, color: Some(color) }
    }
}

impl From<ItemId> for Entry {
    fn from(item: ItemId) -> Self {
        Self::plain(item)
    }
}

/// `name` as a message prints it: control characters (a NUL byte, an escape, a tab) and the
/// invisible characters that reorder or hide text are written as escapes (`\0`, `\u{1b}`,
/// `\t`), so that no message carries them raw to a terminal; other names are unchanged.
///
/// ```
/// use dancecard_engine::printable;
///
/// assert_eq!(printable("a\0b"), "a\\0b");
/// assert_eq!(printable("\u{202e}x"), "\\u{202e}x");
/// assert_eq!(printable("ç:é"), "ç:é");
/// ```
pub fn printable(name: &str) -> std::borrow::Cow<'_, str> {
    // Control characters, and the format characters that hide or reorder text (zero
    // widths, bidirectional overrides and isolates, the byte-order mark).
    let hidden = |c: char| {
        c.is_control()
            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
    };
    if !name.chars().any(hidden) {
        return std::borrow::Cow::Borrowed(name);
    }
    let mut shown = String::with_capacity(name.len() + 8);
    for c in name.chars() {
        match c {
            '\0' => shown.push_str("\\0"),
            c if hidden(c) => shown.extend(c.escape_default()),
            c => shown.push(c),
        }
    }
    std::borrow::Cow::Owned(shown)
}

/// Why a problem could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// Two items were given the same name.
    #[error("item name `{}` is declared twice", printable(name))]
    DuplicateItem {
        /// The repeated name.
        name: String,
    },
    /// A name is empty or holds a character that the DLX text format reserves.
    #[error("invalid name `{}`: {reason}", printable(name))]
    InvalidName {
        /// The offending name.
        name: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// An option has no items.
    #[error("option {option} is empty")]
    EmptyOption {
        /// The option's index.
        option: usize,
    },
    /// An option has only secondary items.
    #[error("option {option} has no primary item")]
    NoPrimaryItem {
        /// The option's index.
        option: usize,
    },
    /// An option names an item that was not declared.
    #[error("option {option} names unknown item `{}`", printable(name))]
    UnknownItem {
        /// The option's index.
        option: usize,
        /// The unknown name (or the id, written as a number).
        name: String,
    },
    /// An option names an unknown color id.
    #[error("option {option} uses an unknown color id {color}")]
    UnknownColor {
        /// The option's index.
        option: usize,
        /// The color id.
        color: usize,
    },
    /// An option holds the same item twice.
    #[error("option {option} holds item `{}` twice", printable(item))]
    RepeatedItem {
        /// The option's index.
        option: usize,
        /// The repeated item's name.
        item: String,
    },
    /// An option gives a color to a primary item.
    #[error(
        "option {option} gives a color to primary item `{}` (only secondary items take colors)",
        printable(item)
    )]
    ColorOnPrimary {
        /// The option's index.
        option: usize,
        /// The primary item's name.
        item: String,
    },
    /// Bounds `lo:hi` that no count can meet: `hi` is 0, or `lo` exceeds `hi` (Knuth's
    /// DLX3: "Upper bound is zero", "Lower bound exceeds upper bound").
    #[error("bounds {lo}:{hi} of item `{}`: {reason}", printable(item))]
    InvalidBounds {
        /// The item's name.
        item: String,
        /// The lower bound.
        lo: u32,
        /// The upper bound.
        hi: u32,
        /// What is wrong with them.
        reason: &'static str,
    },
    /// Bounds given to a secondary item (only primary items take them, as in DLX3).
    #[error("item `{}` is secondary: only primary items take bounds", printable(item))]
    BoundsOnSecondary {
        /// The item's name.
        item: String,
    },
    /// The costs of all options add up past `u64::MAX` (so that no total cost could
    /// overflow).
    #[error("the option costs add up past {max}")]
    CostOverflow {
        /// The largest total cost.
        max: u64,
    },
    /// The problem is too large for 32-bit node indices.
    #[error("the problem is too large: more than {max} {what}")]
    TooLarge {
        /// What overflowed (items, options, nodes, colors).
        what: &'static str,
        /// The limit.
        max: usize,
    },
}

/// Checks that `name` can be written in Knuth's DLX text format and read back unchanged.
pub(crate) fn check_name(name: &str) -> Result<(), BuildError> {
    let reason = if name.is_empty() {
        "a name cannot be empty"
    } else if name.chars().any(char::is_whitespace) {
        "a name cannot contain whitespace"
    } else if name.contains('|') {
        "a name cannot contain `|`"
    } else if name.contains(':') {
        "a name cannot contain `:`"
    } else {
        return Ok(());
    };
    Err(BuildError::InvalidName { name: name.to_owned(), reason })
}

/// Builds a [`Problem`] item by item and option by option.
///
/// Items may be declared in any order; the search treats primary items in declaration order
/// (this order decides ties of the minimum-remaining-values heuristic, as in Knuth's DLX1).
///
/// # Example
///
/// ```
/// use dancecard_engine::{Entry, ProblemBuilder};
///
/// let mut b = ProblemBuilder::new();
/// let a = b.primary("a")?;
/// let x = b.secondary("x")?;
/// let red = b.color("red")?;
/// b.option([Entry::plain(a), Entry::colored(x, red)])?;
/// let problem = b.build();
/// assert_eq!(problem.option_count(), 1);
/// # Ok::<(), dancecard_engine::BuildError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct ProblemBuilder {
    names: Vec<String>,
    kinds: Vec<ItemKind>,
    by_name: BTreeMap<String, ItemId>,
    colors: Vec<String>,
    color_by_name: BTreeMap<String, ColorId>,
    entries: Vec<Entry>,
    starts: Vec<u32>,
    /// Scratch: the last option index in which each item appeared (repeat detection).
    seen: Vec<u32>,
    /// `(lo, hi)` of every item declared so far (`(1, 1)` for plain primary items; unused
    /// for secondary items).
    bounds: Vec<(u32, u32)>,
    /// The cost of every option added so far (all 0 until one gets a cost).
    costs: Vec<u64>,
    /// The sum of `costs` (kept at most `u64::MAX`).
    total_cost: u64,
}

impl ProblemBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self { starts: vec![0], ..Self::default() }
    }

    fn item(&mut self, name: &str, kind: ItemKind) -> Result<ItemId, BuildError> {
        check_name(name)?;
        if self.by_name.contains_key(name) {
            return Err(BuildError::DuplicateItem { name: name.to_owned() });
        }
        let id = ItemId::new(self.names.len())
            .filter(|id| id.index() < i32::MAX as usize / 2)
            .ok_or(BuildError::TooLarge { what: "items", max: i32::MAX as usize / 2 })?;
        self.names.push(name.to_owned());
        self.kinds.push(kind);
        self.seen.push(u32::MAX);
        self.bounds.push((1, 1));
        let _ = self.by_name.insert(name.to_owned(), id);
        Ok(id)
    }

    /// Declares a primary item (covered exactly once).
    pub fn primary(&mut self, name: &str) -> Result<ItemId, BuildError> {
        self.item(name, ItemKind::Primary)
    }

    /// Declares a secondary item (covered at most once, or consistently colored).
    pub fn secondary(&mut self, name: &str) -> Result<ItemId, BuildError> {
        self.item(name, ItemKind::Secondary)
    }

    /// Declares a primary item covered at least `lo` and at most `hi` times (Knuth's DLX3,
    /// written `lo:hi|name` in the DLX format; `hi|name` when `lo == hi`).
    ///
    /// Rejects `hi == 0` and `lo > hi` ([`BuildError::InvalidBounds`]); `lo` may be 0.
    ///
    /// ```
    /// use dancecard_engine::{ProblemBuilder, Solver};
    ///
    /// // Two 1s in every row and column of a 3 x 3 0/1 matrix (OEIS A001499: 6 of them).
    /// let mut b = ProblemBuilder::new();
    /// let rows: Vec<_> = (0..3).map(|r| b.primary_with_bounds(&format!("r{r}"), 2, 2)).collect::<Result<_, _>>()?;
    /// let cols: Vec<_> = (0..3).map(|c| b.primary_with_bounds(&format!("c{c}"), 2, 2)).collect::<Result<_, _>>()?;
    /// for &r in &rows {
    ///     for &c in &cols {
    ///         b.option([r, c])?;
    ///     }
    /// }
    /// let problem = b.build();
    /// assert_eq!(problem.item_bounds(rows[0]), Some((2, 2)));
    /// assert_eq!(Solver::new(&problem).count().solutions, 6);
    /// # Ok::<(), dancecard_engine::BuildError>(())
    /// ```
    pub fn primary_with_bounds(
        &mut self,
        name: &str,
        lo: u32,
        hi: u32,
    ) -> Result<ItemId, BuildError> {
        check_bounds(name, lo, hi)?;
        let id = self.item(name, ItemKind::Primary)?;
        self.bounds[id.index()] = (lo, hi);
        Ok(id)
    }

    /// Changes the bounds of a declared primary item (see
    /// [`ProblemBuilder::primary_with_bounds`]).
    pub fn set_bounds(&mut self, item: ItemId, lo: u32, hi: u32) -> Result<(), BuildError> {
        let i = item.index();
        let Some(name) = self.names.get(i) else {
            return Err(BuildError::UnknownItem {
                option: self.option_count(),
                name: format!("#{i}"),
            });
        };
        if self.kinds[i] == ItemKind::Secondary {
            return Err(BuildError::BoundsOnSecondary { item: name.clone() });
        }
        check_bounds(name, lo, hi)?;
        self.bounds[i] = (lo, hi);
        Ok(())
    }

    /// Returns the color of this name, creating it on first use.
    pub fn color(&mut self, name: &str) -> Result<ColorId, BuildError> {
        if let Some(&c) = self.color_by_name.get(name) {
            return Ok(c);
        }
        check_name(name)?;
        let id = ColorId::new(self.colors.len())
            .filter(|c| c.index() < i32::MAX as usize / 2)
            .ok_or(BuildError::TooLarge { what: "colors", max: i32::MAX as usize / 2 })?;
        self.colors.push(name.to_owned());
        let _ = self.color_by_name.insert(name.to_owned(), id);
        Ok(id)
    }

    /// The item of this name, if declared.
    pub fn item_id(&self, name: &str) -> Option<ItemId> {
        self.by_name.get(name).copied()
    }

    /// The number of items declared so far.
    pub fn item_count(&self) -> usize {
        self.names.len()
    }

    /// The number of options added so far.
    pub fn option_count(&self) -> usize {
        self.starts.len() - 1
    }

    /// Adds an option; returns its id (options are numbered from 0 in order of addition).
    ///
    /// Rejects an empty option, an option without a primary item, an item twice in one
    /// option, an unknown item or color id, and a color on a primary item. A rejected option
    /// leaves the builder unchanged.
    pub fn option<I>(&mut self, entries: I) -> Result<OptionId, BuildError>
    where
        I: IntoIterator,
        I::Item: Into<Entry>,
    {
        let option = self.option_count();
        let oid = OptionId::new(option)
            .filter(|o| o.index() < i32::MAX as usize / 2)
            .ok_or(BuildError::TooLarge { what: "options", max: i32::MAX as usize / 2 })?;
        let mark = self.entries.len();
        let result = self.push_entries(option, entries);
        if let Err(e) = result {
            // Forget the partial option, and the repeat marks it left behind.
            for e in self.entries.drain(mark..) {
                self.seen[e.item.index()] = u32::MAX;
            }
            return Err(e);
        }
        let end = u32::try_from(self.entries.len())
            .ok()
            .filter(|&n| (n as usize) < i32::MAX as usize / 2)
            .ok_or(BuildError::TooLarge { what: "nodes", max: i32::MAX as usize / 2 })?;
        self.starts.push(end);
        self.costs.push(0);
        Ok(oid)
    }

    /// Adds an option with a cost (Knuth's DLX5, written `|cost` after the option's items
    /// in the DLX format); see [`ProblemBuilder::option`].
    ///
    /// ```
    /// use dancecard_engine::ProblemBuilder;
    ///
    /// let mut b = ProblemBuilder::new();
    /// let (x, y) = (b.primary("x")?, b.primary("y")?);
    /// let both = b.option_with_cost([x, y], 5)?;
    /// let one = b.option_with_cost([x], 1)?;
    /// let other = b.option_with_cost([y], 2)?;
    /// let problem = b.build();
    /// assert_eq!(problem.option_cost(both), 5);
    /// assert_eq!(problem.cost_of(&[one, other]), 3);
    /// # Ok::<(), dancecard_engine::BuildError>(())
    /// ```
    pub fn option_with_cost<I>(&mut self, entries: I, cost: u64) -> Result<OptionId, BuildError>
    where
        I: IntoIterator,
        I::Item: Into<Entry>,
    {
        if self.total_cost.checked_add(cost).is_none() {
            return Err(BuildError::CostOverflow { max: u64::MAX });
        }
        let id = self.option(entries)?;
        self.set_cost(id, cost)?;
        Ok(id)
    }

    /// Sets the cost of an option already added (replacing its cost so far).
    pub fn set_cost(&mut self, option: OptionId, cost: u64) -> Result<(), BuildError> {
        let k = option.index();
        let Some(&old) = self.costs.get(k) else {
            return Err(BuildError::UnknownItem { option: k, name: "(no such option)".into() });
        };
        let total = (self.total_cost - old)
            .checked_add(cost)
            .ok_or(BuildError::CostOverflow { max: u64::MAX })?;
        self.total_cost = total;
        self.costs[k] = cost;
        Ok(())
    }

    fn push_entries<I>(&mut self, option: usize, entries: I) -> Result<(), BuildError>
    where
        I: IntoIterator,
        I::Item: Into<Entry>,
    {
        let mark = self.entries.len();
        let mut has_primary = false;
        for e in entries {
            let e: Entry = e.into();
            let i = e.item.index();
            if i >= self.names.len() {
                return Err(BuildError::UnknownItem { option, name: format!("#{i}") });
            }
            if let Some(c) = e.color {
                if c.index() >= self.colors.len() {
                    return Err(BuildError::UnknownColor { option, color: c.index() });
                }
                if self.kinds[i] == ItemKind::Primary {
                    return Err(BuildError::ColorOnPrimary { option, item: self.names[i].clone() });
                }
            }
            if self.seen[i] == option as u32 {
                return Err(BuildError::RepeatedItem { option, item: self.names[i].clone() });
            }
            self.seen[i] = option as u32;
            has_primary |= self.kinds[i] == ItemKind::Primary;
            self.entries.push(e);
        }
        if self.entries.len() == mark {
            return Err(BuildError::EmptyOption { option });
        }
        if !has_primary {
            return Err(BuildError::NoPrimaryItem { option });
        }
        Ok(())
    }

    /// Adds an option given by item names, each optionally followed by `:color`
    /// (as in Knuth's format: `a b x:red`).
    ///
    /// ```
    /// # use dancecard_engine::ProblemBuilder;
    /// let mut b = ProblemBuilder::new();
    /// b.primary("a")?;
    /// b.secondary("x")?;
    /// b.option_by_names(["a", "x:red"])?;
    /// # Ok::<(), dancecard_engine::BuildError>(())
    /// ```
    pub fn option_by_names<'n, I>(&mut self, names: I) -> Result<OptionId, BuildError>
    where
        I: IntoIterator<Item = &'n str>,
    {
        let option = self.option_count();
        let mut entries = Vec::new();
        for name in names {
            let (item, color) = match name.split_once(':') {
                Some((item, color)) => (item, Some(color)),
                None => (name, None),
            };
            let id = self
                .item_id(item)
                .ok_or_else(|| BuildError::UnknownItem { option, name: item.to_owned() })?;
            let color = match color {
                Some(c) => Some(self.color(c)?),
                None => None,
            };
            entries.push(Entry { item: id, color });
        }
        self.option(entries)
    }

    /// Finishes the problem.
    pub fn build(self) -> Problem {
        let bounded = self
            .bounds
            .iter()
            .zip(&self.kinds)
            .any(|(&b, &k)| k == ItemKind::Primary && b != (1, 1));
        let costed = self.total_cost > 0;
        Problem {
            names: self.names,
            kinds: self.kinds,
            colors: self.colors,
            entries: self.entries,
            starts: self.starts,
            bounds: if bounded { self.bounds } else { Vec::new() },
            costs: if costed { self.costs } else { Vec::new() },
        }
    }
}

/// Checks bounds `lo:hi` of item `name` (see [`BuildError::InvalidBounds`]).
fn check_bounds(name: &str, lo: u32, hi: u32) -> Result<(), BuildError> {
    let reason = if hi == 0 {
        "the upper bound is zero"
    } else if lo > hi {
        "the lower bound exceeds the upper bound"
    } else {
        return Ok(());
    };
    Err(BuildError::InvalidBounds { item: name.to_owned(), lo, hi, reason })
}

/// An exact cover problem: named primary and secondary items, and options.
///
/// Built with [`ProblemBuilder`]; immutable afterwards. Cheap to share between threads.
#[derive(Clone, PartialEq, Eq)]
pub struct Problem {
    names: Vec<String>,
    kinds: Vec<ItemKind>,
    colors: Vec<String>,
    entries: Vec<Entry>,
    /// `starts[k]..starts[k + 1]` are option `k`'s entries in `entries`.
    starts: Vec<u32>,
    /// `(lo, hi)` per item, or empty when every primary item is covered exactly once.
    bounds: Vec<(u32, u32)>,
    /// The cost of every option, or empty when all costs are 0.
    costs: Vec<u64>,
}

impl fmt::Debug for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Problem")
            .field("items", &self.names.len())
            .field("primary", &self.primary_count())
            .field("options", &self.option_count())
            .field("nodes", &self.entries.len())
            .field("colors", &self.colors.len())
            .field("bounds", &self.has_bounds())
            .field("costs", &self.has_costs())
            .finish()
    }
}

impl Problem {
    /// The number of items, primary and secondary.
    pub fn item_count(&self) -> usize {
        self.names.len()
    }

    /// The number of primary items.
    pub fn primary_count(&self) -> usize {
        self.kinds.iter().filter(|&&k| k == ItemKind::Primary).count()
    }

    /// The number of options.
    pub fn option_count(&self) -> usize {
        self.starts.len() - 1
    }

    /// The total number of entries of all options (the arena's option nodes).
    pub fn entry_count(&self) -> usize {
        self.entries.len()
    }

    /// The number of distinct colors.
    pub fn color_count(&self) -> usize {
        self.colors.len()
    }

    /// Whether any option gives a color to an item.
    pub fn has_colors(&self) -> bool {
        self.entries.iter().any(|e| e.color.is_some())
    }

    /// The bounds `(lo, hi)` of a primary item: it must be covered at least `lo` and at most
    /// `hi` times (`(1, 1)` unless given, see [`ProblemBuilder::primary_with_bounds`]);
    /// `None` for a secondary item.
    pub fn item_bounds(&self, item: ItemId) -> Option<(u32, u32)> {
        match self.kinds[item.index()] {
            ItemKind::Primary => Some(self.bounds.get(item.index()).copied().unwrap_or((1, 1))),
            ItemKind::Secondary => None,
        }
    }

    /// Whether some primary item has bounds other than `1:1` (then the search is Knuth's
    /// Algorithm M).
    pub fn has_bounds(&self) -> bool {
        !self.bounds.is_empty()
    }

    /// An option's cost (0 unless given, see [`ProblemBuilder::option_with_cost`]).
    pub fn option_cost(&self, option: OptionId) -> u64 {
        self.costs.get(option.index()).copied().unwrap_or(0)
    }

    /// Whether some option has a cost other than 0.
    pub fn has_costs(&self) -> bool {
        !self.costs.is_empty()
    }

    /// The total cost of a set of options (it fits: the builder keeps the sum of all costs
    /// within `u64`).
    pub fn cost_of(&self, options: &[OptionId]) -> u64 {
        options.iter().map(|&o| self.option_cost(o)).sum()
    }

    /// All items, in declaration order.
    pub fn items(&self) -> impl ExactSizeIterator<Item = ItemId> + '_ {
        (0..self.names.len()).map(|i| ItemId::from_u32(i as u32))
    }

    /// All options, in order.
    pub fn options(&self) -> impl ExactSizeIterator<Item = OptionId> + '_ {
        (0..self.option_count()).map(|k| OptionId::from_u32(k as u32))
    }

    /// An item's name.
    ///
    /// # Panics
    /// If `item` is not an item of this problem.
    pub fn item_name(&self, item: ItemId) -> &str {
        &self.names[item.index()]
    }

    /// An item's kind.
    pub fn item_kind(&self, item: ItemId) -> ItemKind {
        self.kinds[item.index()]
    }

    /// The item of this name, by a linear scan (builders keep a map; this is for tools).
    pub fn find_item(&self, name: &str) -> Option<ItemId> {
        self.names.iter().position(|n| n == name).map(|i| ItemId::from_u32(i as u32))
    }

    /// A color's name.
    pub fn color_name(&self, color: ColorId) -> &str {
        &self.colors[color.index()]
    }

    /// An option's entries, in the order they were given.
    pub fn option(&self, option: OptionId) -> &[Entry] {
        let k = option.index();
        &self.entries[self.starts[k] as usize..self.starts[k + 1] as usize]
    }

    /// Writes an option as Knuth's format does: `a b x:red`.
    pub fn option_text(&self, option: OptionId) -> String {
        let mut s = String::new();
        for (n, e) in self.option(option).iter().enumerate() {
            if n > 0 {
                s.push(' ');
            }
            s.push_str(self.item_name(e.item));
            if let Some(c) = e.color {
                s.push(':');
                s.push_str(self.color_name(c));
            }
        }
        s
    }

    /// Checks that `options` is a solution: every primary item covered exactly once (or, with
    /// bounds `lo:hi`, between `lo` and `hi` times), every secondary item either covered at
    /// most once without a color or always with one color, and no option twice.
    pub fn verify(&self, options: &[OptionId]) -> Result<(), VerifyError> {
        // Per item: how many times covered, and the color of the first covering (if any).
        let mut times = vec![0u32; self.names.len()];
        let mut color: Vec<Option<ColorId>> = vec![None; self.names.len()];
        for &o in options {
            if o.index() >= self.option_count() {
                return Err(VerifyError::UnknownOption(o));
            }
            for e in self.option(o) {
                let i = e.item.index();
                times[i] += 1;
                if times[i] == 1 {
                    color[i] = e.color;
                    continue;
                }
                let ok = match self.kinds[i] {
                    ItemKind::Secondary => e.color.is_some() && color[i] == e.color,
                    ItemKind::Primary => times[i] <= self.bounds.get(i).map_or(1, |b| b.1),
                };
                if !ok {
                    return Err(VerifyError::Conflict(e.item));
                }
            }
        }
        if self.has_bounds() {
            let mut seen = vec![false; self.option_count()];
            for &o in options {
                if std::mem::replace(&mut seen[o.index()], true) {
                    return Err(VerifyError::RepeatedOption(o));
                }
            }
        }
        for (i, &t) in times.iter().enumerate() {
            if self.kinds[i] != ItemKind::Primary {
                continue;
            }
            let lo = self.bounds.get(i).map_or(1, |b| b.0);
            if t < lo {
                let item = ItemId::from_u32(i as u32);
                return Err(if t == 0 {
                    VerifyError::Uncovered(item)
                } else {
                    VerifyError::TooFew { item, times: t, lo }
                });
            }
        }
        Ok(())
    }
}

/// Why a set of options is not a solution (see [`Problem::verify`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// A primary item is covered by no option.
    #[error("primary item {0} is not covered")]
    Uncovered(ItemId),
    /// An item is covered twice (or a secondary item with two different colors; or a primary
    /// item with bounds `lo:hi` more than `hi` times).
    #[error("item {0} is covered twice or with two colors (or past its upper bound)")]
    Conflict(ItemId),
    /// An option id out of range.
    #[error("option {0} does not exist")]
    UnknownOption(OptionId),
    /// A primary item with bounds `lo:hi` is covered fewer than `lo` times (but at least
    /// once; never at all is [`VerifyError::Uncovered`]).
    #[error("primary item {item} is covered {times} times, fewer than its lower bound {lo}")]
    TooFew {
        /// The item.
        item: ItemId,
        /// How many times it is covered.
        times: u32,
        /// Its lower bound.
        lo: u32,
    },
    /// An option chosen twice (only a problem with bounds could otherwise accept it).
    #[error("option {0} is chosen twice")]
    RepeatedOption(OptionId),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_rejections() {
        let mut b = ProblemBuilder::new();
        let a = b.primary("a").unwrap();
        let x = b.secondary("x").unwrap();
        let red = b.color("red").unwrap();
        assert_eq!(b.primary("a"), Err(BuildError::DuplicateItem { name: "a".into() }));
        assert!(matches!(b.primary("a b"), Err(BuildError::InvalidName { .. })));
        assert!(matches!(b.primary(""), Err(BuildError::InvalidName { .. })));
        assert!(matches!(b.primary("a:b"), Err(BuildError::InvalidName { .. })));
        assert!(matches!(b.primary("|"), Err(BuildError::InvalidName { .. })));
        assert_eq!(b.option(Vec::<Entry>::new()), Err(BuildError::EmptyOption { option: 0 }));
        assert_eq!(b.option([x]), Err(BuildError::NoPrimaryItem { option: 0 }));
        assert_eq!(b.option([a, a]), Err(BuildError::RepeatedItem { option: 0, item: "a".into() }));
        assert_eq!(
            b.option([Entry::colored(a, red)]),
            Err(BuildError::ColorOnPrimary { option: 0, item: "a".into() })
        );
        assert!(matches!(
            b.option([Entry::plain(ItemId::new(9).unwrap())]),
            Err(BuildError::UnknownItem { .. })
        ));
        assert!(matches!(b.option_by_names(["a", "zz"]), Err(BuildError::UnknownItem { .. })));
        // Failed options leave no trace: this one is fine.
        assert_eq!(b.option([Entry::plain(a), Entry::colored(x, red)]).unwrap().index(), 0);
        assert_eq!(b.option_by_names(["x:red", "a"]).unwrap().index(), 1);
        let p = b.build();
        assert_eq!(p.option_count(), 2);
        assert_eq!(p.option_text(OptionId::new(1).unwrap()), "x:red a");
        assert!(p.verify(&[OptionId::new(0).unwrap()]).is_ok());
        assert!(p.verify(&[]).is_err());
        assert!(p.verify(&[OptionId::new(0).unwrap(), OptionId::new(1).unwrap()]).is_err());
        assert!(!p.has_bounds() && !p.has_costs());
        assert_eq!(p.item_bounds(a), Some((1, 1)));
        assert_eq!(p.item_bounds(x), None);
    }

    #[test]
    fn bounds_and_costs() {
        let mut b = ProblemBuilder::new();
        let e =
            |lo, hi, reason| Err(BuildError::InvalidBounds { item: "z".into(), lo, hi, reason });
        assert_eq!(b.primary_with_bounds("z", 0, 0), e(0, 0, "the upper bound is zero"));
        assert_eq!(
            b.primary_with_bounds("z", 3, 2),
            e(3, 2, "the lower bound exceeds the upper bound")
        );
        let a = b.primary_with_bounds("a", 0, 2).unwrap();
        let c = b.primary("c").unwrap();
        let x = b.secondary("x").unwrap();
        assert_eq!(b.set_bounds(x, 1, 2), Err(BuildError::BoundsOnSecondary { item: "x".into() }));
        assert!(matches!(b.set_bounds(c, 2, 1), Err(BuildError::InvalidBounds { .. })));
        let o0 = b.option_with_cost([a, c], 7).unwrap();
        let o1 = b.option([a]).unwrap();
        let o2 = b.option_with_cost([a, x], u64::MAX - 7).unwrap();
        assert_eq!(b.option_with_cost([a], 1), Err(BuildError::CostOverflow { max: u64::MAX }));
        assert_eq!(b.set_cost(o1, 1), Err(BuildError::CostOverflow { max: u64::MAX }));
        b.set_cost(o2, 3).unwrap();
        b.set_cost(o1, 2).unwrap();
        let p = b.build();
        assert!(p.has_bounds() && p.has_costs());
        assert_eq!(p.item_bounds(a), Some((0, 2)));
        assert_eq!(p.option_count(), 3, "the refused option left no trace");
        assert_eq!((p.option_cost(o0), p.option_cost(o1), p.option_cost(o2)), (7, 2, 3));
        assert_eq!(p.cost_of(&[o0, o1]), 9);
        // `a` at most twice, `c` exactly once, `x` at most once.
        assert_eq!(p.verify(&[o0]), Ok(()));
        assert_eq!(p.verify(&[o0, o1]), Ok(()));
        assert_eq!(p.verify(&[o0, o1, o2]), Err(VerifyError::Conflict(a)));
        assert_eq!(p.verify(&[o1]), Err(VerifyError::Uncovered(c)));
        assert_eq!(p.verify(&[o0, o0]), Err(VerifyError::Conflict(c)));
        let mut b = ProblemBuilder::new();
        let a = b.primary_with_bounds("a", 2, 3).unwrap();
        let o = b.option([a]).unwrap();
        let o1 = b.option([a]).unwrap();
        let p = b.build();
        assert_eq!(p.verify(&[o]), Err(VerifyError::TooFew { item: a, times: 1, lo: 2 }));
        assert_eq!(p.verify(&[o, o]), Err(VerifyError::RepeatedOption(o)));
        assert_eq!(p.verify(&[o, o1]), Ok(()));
    }
}
