//! The immutable description of an exact cover problem, and its builder.
//!
//! A [`Problem`] has named *items*, each *primary* (must be covered exactly once) or
//! *secondary* (covered at most once, or, with colors, by any number of options that all give
//! it the same color), and *options*, each a set of items. It is immutable once built: every
//! [`Solver`](crate::Solver) builds its own dancing-links arena from it, so one problem can be
//! searched by many solvers (threads) at once.

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

/// Why a problem could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// Two items were given the same name.
    #[error("item name `{name}` is declared twice")]
    DuplicateItem {
        /// The repeated name.
        name: String,
    },
    /// A name is empty or holds a character that the DLX text format reserves.
    #[error("invalid name `{name}`: {reason}")]
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
    #[error("option {option} names unknown item `{name}`")]
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
    #[error("option {option} holds item `{item}` twice")]
    RepeatedItem {
        /// The option's index.
        option: usize,
        /// The repeated item's name.
        item: String,
    },
    /// An option gives a color to a primary item.
    #[error(
        "option {option} gives a color to primary item `{item}` (only secondary items take colors)"
    )]
    ColorOnPrimary {
        /// The option's index.
        option: usize,
        /// The primary item's name.
        item: String,
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
        Ok(oid)
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
        Problem {
            names: self.names,
            kinds: self.kinds,
            colors: self.colors,
            entries: self.entries,
            starts: self.starts,
        }
    }
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
}

impl fmt::Debug for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Problem")
            .field("items", &self.names.len())
            .field("primary", &self.primary_count())
            .field("options", &self.option_count())
            .field("nodes", &self.entries.len())
            .field("colors", &self.colors.len())
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

    /// Checks that `options` is a solution: every primary item covered exactly once, every
    /// secondary item either covered at most once without a color or always with one color.
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
                let ok = self.kinds[i] == ItemKind::Secondary
                    && e.color.is_some()
                    && color[i] == e.color;
                if !ok {
                    return Err(VerifyError::Conflict(e.item));
                }
            }
        }
        for (i, &t) in times.iter().enumerate() {
            if self.kinds[i] == ItemKind::Primary && t == 0 {
                return Err(VerifyError::Uncovered(ItemId::from_u32(i as u32)));
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
    /// An item is covered twice (or a secondary item with two different colors).
    #[error("item {0} is covered twice or with two colors")]
    Conflict(ItemId),
    /// An option id out of range.
    #[error("option {0} does not exist")]
    UnknownOption(OptionId),
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
    }
}
