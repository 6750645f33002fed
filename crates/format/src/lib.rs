//! Text formats for exact cover problems.
//!
//! # Brief overview
//!
//! - **Knuth's DLX format** ([`parse_dlx`], [`write_dlx`]): the first line names the items,
//!   primary items first, then a `|` and the secondary items; every following line is one
//!   option, its item names separated by spaces, `x:c` giving secondary item `x` the color `c`.
//!   Lines starting with `|` are comments; blank lines are skipped. As in Knuth's later
//!   programs, a primary item may be written `a:b|name` (covered at least `a` and at most `b`
//!   times; `b|name` means `b:b`: DLX3's multiplicities) and an option may end with `|n`
//!   tokens (its cost, their sum: DLX5's costs); see [`Problem::item_bounds`] and
//!   [`Problem::option_cost`].
//! - **0/1 matrix format** ([`parse_matrix`]): a first line `n m`, then `n` lines of `m`
//!   values `0` or `1` (separated by spaces or not). Items are named `1..=m`; the option of
//!   row `r` is labelled `r` (from 1). Rows of zeros cover nothing and are left out (their
//!   row numbers are kept in [`Document::input_index`]).
//! - **The `.ec` format** of Nishino et al.'s exact cover benchmark ([`parse_ec`]): `c` lines
//!   are comments; the first other line is `p ec N` (items `1..=N`), then one option a line,
//!   `s` and its items' numbers (`s 1 4 7`). The option's label is its numbers as written.
//! - [`parse_auto`] tells the three apart.
//! - **JSON answers** ([`json`]): the one vocabulary of counts, stats, stop reasons and
//!   completeness that `dancecard --format json`, the web API and the shard files share.
//!
//! Every error is a [`ParseError`] naming the line and column (both from 1) and what is wrong;
//! no input makes the parser panic, and [`Limits`] bound what it will allocate.
//!
//! # Example
//!
//! ```
//! use dancecard_format::parse_dlx;
//! use dancecard_engine::Solver;
//!
//! let text = "| Knuth's toy problem\na b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n";
//! let doc = parse_dlx(text.as_bytes())?;
//! let solution = Solver::new(&doc.problem).first().unwrap();
//! let lines: Vec<&str> = solution.iter().map(|o| doc.label(*o)).collect();
//! assert_eq!(lines, ["a d f", "b g", "c e"]);
//!
//! let err = parse_dlx(b"a b\na z\n").unwrap_err();
//! assert_eq!(err.to_string(), "line 2, column 3: unknown item `z`");
//! # Ok::<(), dancecard_format::ParseError>(())
//! ```

#![deny(missing_docs, rustdoc::broken_intra_doc_links)]

pub mod export;
pub mod json;

use std::fmt::Write as _;

use dancecard_engine::{printable, BuildError, Entry, ItemKind, OptionId, Problem, ProblemBuilder};

/// Bounds on what the parsers accept, so that hostile input gets an error, not an allocation
/// that brings the machine down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Longest line, in bytes.
    pub max_line_bytes: usize,
    /// Most items.
    pub max_items: usize,
    /// Most options.
    pub max_options: usize,
    /// Most option entries in all.
    pub max_entries: usize,
}

impl Default for Limits {
    /// 512 KiB lines, 100,000 items (as Knuth's DLX1), 10 million options and 100 million
    /// entries.
    fn default() -> Self {
        Limits {
            max_line_bytes: 512 * 1024,
            max_items: 100_000,
            max_options: 10_000_000,
            max_entries: 100_000_000,
        }
    }
}

/// A parsed problem, with the text of its options as written in the input.
#[derive(Clone, Debug)]
pub struct Document {
    /// The problem.
    pub problem: Problem,
    /// For each option, its text as written (DLX) or its row number (matrix).
    pub labels: Vec<String>,
    /// For each option, its index among the options of the input (from 0). Equal to the
    /// option's id except in matrices with rows of zeros.
    pub input_index: Vec<usize>,
    /// For each option, the input line it came from (from 1).
    pub lines: Vec<usize>,
}

impl Document {
    /// The option's label: its text as written (DLX), or its row number (matrix).
    pub fn label(&self, option: OptionId) -> &str {
        &self.labels[option.index()]
    }
}

/// Which text format an input is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// Knuth's DLX format.
    Dlx,
    /// A 0/1 matrix.
    Matrix,
    /// The `.ec` format (`p ec N`, then `s i j ...` options).
    Ec,
}

/// What is wrong with an input, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct ParseError {
    /// The line, from 1.
    pub line: usize,
    /// The column in characters, from 1.
    pub column: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// The kinds of [`ParseError`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The input holds no item line (or is empty).
    #[error("empty input: expected a line of item names")]
    Empty,
    /// The input is not UTF-8.
    #[error("invalid UTF-8")]
    InvalidUtf8,
    /// A line is longer than the limit.
    #[error("line longer than {0} bytes")]
    LineTooLong(usize),
    /// More items than the limit.
    #[error("more than {0} items")]
    TooManyItems(usize),
    /// More options (or entries) than the limit.
    #[error("more than {0} {1}")]
    TooMany(usize, &'static str),
    /// The item line has no primary item.
    #[error("no primary item before `|`")]
    NoPrimaryItems,
    /// A second `|` on the item line.
    #[error("a second `|` on the item line")]
    SecondBar,
    /// An option names an item not on the item line.
    #[error("unknown item `{}`", printable(.0))]
    UnknownItem(String),
    /// A color with an empty name, or an item with an empty name before `:`.
    #[error("bad color in `{}`: expected `item:color` with both parts non-empty", printable(.0))]
    BadColor(String),
    /// Bounds on the item line that are not `a:b|name` or `b|name` with decimal `a` and `b`.
    #[error("bad bounds in `{}`: {reason}", printable(token))]
    BadBounds {
        /// The item line's token.
        token: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// A cost on an option line that is not `|n` with a decimal `n` (at most `u64::MAX`).
    #[error("bad cost `{}`: {reason}", printable(token))]
    BadCost {
        /// The option line's token.
        token: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// The parser found something else than expected.
    #[error("{0}")]
    Syntax(String),
    /// The problem builder refused the input.
    #[error("{0}")]
    Build(#[from] BuildError),
    /// [`parse_auto`]: the format the input looks like does not read it (`error`, at the
    /// error's line and column), nor does DLX (`dlx`, when DLX was not that format).
    #[error("{error} ({})", looks.read_as(dlx.as_deref()))]
    Unread {
        /// What the input looks like, and so the format that was read first.
        looks: Looks,
        /// Why that format does not read it.
        error: Box<ParseErrorKind>,
        /// Why DLX does not read it, when DLX was tried after another format.
        dlx: Option<Box<ParseError>>,
    },
}

impl ParseError {
    /// What the input looks like, when [`parse_auto`] found that no format reads it and it
    /// looks like something else than a DLX file (a front end can then name the command or
    /// the flag that reads it).
    pub fn looks(&self) -> Option<Looks> {
        match &self.kind {
            ParseErrorKind::Unread { looks, .. } => Some(*looks),
            _ => None,
        }
    }
}

/// What an input looks like at a glance ([`sniff`]): the format [`parse_auto`] reads it in
/// first, or a puzzle that is no exact cover problem file at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Looks {
    /// Knuth's DLX format: anything else.
    Dlx,
    /// A 0/1 matrix: a first line of two numbers, then a row of digits.
    Matrix,
    /// The `.ec` format: a first line (after `c` comments) `p ec ...`.
    Ec,
    /// Sudoku puzzles, one a line (16, 81, 256 or 625 cells of digits, letters and dots) or
    /// as grids of numbers: read as DLX, for want of anything better.
    Sudoku,
}

impl Looks {
    /// The words that follow an error of [`ParseErrorKind::Unread`]: how the input was read
    /// and why, and how DLX failed too.
    fn read_as(self, dlx: Option<&ParseError>) -> String {
        let first = match self {
            Looks::Dlx => "read as DLX".to_owned(),
            Looks::Sudoku => "read as DLX; the input looks like sudoku puzzles, not an exact \
                              cover problem"
                .to_owned(),
            Looks::Matrix => {
                "read as a 0/1 matrix, as its first line of two numbers `n m` says".to_owned()
            }
            Looks::Ec => "read as .ec, as its first line `p ec` says".to_owned(),
        };
        match dlx {
            Some(e) => format!("{first}; read as DLX: {e}"),
            None => first,
        }
    }
}

/// One line of the input, with its number and where its text starts.
struct Line<'a> {
    number: usize,
    text: &'a str,
}

impl Line<'_> {
    fn error(&self, byte: usize, kind: ParseErrorKind) -> ParseError {
        let column = self.text[..byte.min(self.text.len())].chars().count() + 1;
        ParseError { line: self.number, column, kind }
    }

    /// The tokens of the line with their byte offsets.
    fn tokens(&self) -> impl Iterator<Item = (usize, &str)> {
        let base = self.text.as_ptr() as usize;
        self.text.split_ascii_whitespace().map(move |t| (t.as_ptr() as usize - base, t))
    }
}

/// Splits the input into lines, checking UTF-8 and the line length.
fn lines<'a>(input: &'a [u8], limits: &Limits) -> Result<Vec<Line<'a>>, ParseError> {
    let input = without_bom(input);
    let mut out = Vec::new();
    for (k, raw) in input.split(|&b| b == b'\n').enumerate() {
        let number = k + 1;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if raw.len() > limits.max_line_bytes {
            return Err(ParseError {
                line: number,
                column: 1,
                kind: ParseErrorKind::LineTooLong(limits.max_line_bytes),
            });
        }
        let text = std::str::from_utf8(raw).map_err(|e| {
            let good = std::str::from_utf8(&raw[..e.valid_up_to()]).unwrap_or_default();
            ParseError {
                line: number,
                column: good.chars().count() + 1,
                kind: ParseErrorKind::InvalidUtf8,
            }
        })?;
        out.push(Line { number, text });
    }
    Ok(out)
}

/// `input` without the UTF-8 byte-order mark some editors put first (columns of line 1
/// count from after it).
pub fn without_bom(input: &[u8]) -> &[u8] {
    input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input)
}

/// Parses Knuth's DLX format with the default [`Limits`].
pub fn parse_dlx(input: &[u8]) -> Result<Document, ParseError> {
    parse_dlx_with(input, &Limits::default())
}

/// Parses Knuth's DLX format.
pub fn parse_dlx_with(input: &[u8], limits: &Limits) -> Result<Document, ParseError> {
    let lines = lines(input, limits)?;
    let mut content =
        lines.iter().filter(|l| !l.text.trim_start().starts_with('|') && !l.text.trim().is_empty());
    let Some(head) = content.next() else {
        let line = lines.len().max(1);
        return Err(ParseError { line, column: 1, kind: ParseErrorKind::Empty });
    };

    let mut b = ProblemBuilder::new();
    let mut secondary = false;
    let mut primaries = 0;
    for (at, token) in head.tokens() {
        // `|` starts the secondary items, alone or glued to the first one (`|x`, as Knuth's
        // programs read it).
        let (at, token) = match token.strip_prefix('|') {
            Some(rest) => {
                if secondary {
                    return Err(head.error(at, ParseErrorKind::SecondBar));
                }
                if b.item_count() == 0 {
                    return Err(head.error(at, ParseErrorKind::NoPrimaryItems));
                }
                secondary = true;
                if rest.is_empty() {
                    continue;
                }
                (at + 1, rest)
            }
            None => (at, token),
        };
        if b.item_count() >= limits.max_items {
            return Err(head.error(at, ParseErrorKind::TooManyItems(limits.max_items)));
        }
        let made = match token.split_once('|') {
            // `a:b|name` or `b|name`: bounds (DLX3).
            Some((spec, name)) => {
                let (lo, hi) = bounds(head, at, token, spec)?;
                let name_at = at + spec.len() + 1;
                if secondary {
                    let e = BuildError::BoundsOnSecondary { item: name.to_owned() };
                    return Err(head.error(at, e.into()));
                }
                match b.primary(name) {
                    Ok(item) => b.set_bounds(item, lo, hi).map(|()| item).map_err(|e| (at, e)),
                    Err(e) => Err((name_at, e)),
                }
            }
            None => {
                if secondary { b.secondary(token) } else { b.primary(token) }.map_err(|e| (at, e))
            }
        };
        let _ = made.map_err(|(at, e)| head.error(at, e.into()))?;
        if !secondary {
            primaries += 1;
        }
    }

    let mut labels = Vec::new();
    let mut numbers = Vec::new();
    let mut entries = Vec::new();
    let mut total = 0usize;
    for line in content {
        if labels.len() >= limits.max_options {
            return Err(line.error(0, ParseErrorKind::TooMany(limits.max_options, "options")));
        }
        entries.clear();
        let mut has_primary = false;
        let mut cost: u64 = 0;
        // The option's first cost, once met: no item may follow it.
        let mut cost_token: Option<&str> = None;
        for (at, token) in line.tokens() {
            if let Some(digits) = token.strip_prefix('|') {
                cost_token.get_or_insert(token);
                // `|n`: a cost (DLX5); several add up.
                let bad = |k: usize, reason| {
                    line.error(at + k, ParseErrorKind::BadCost { token: token.to_owned(), reason })
                };
                if digits.is_empty() {
                    return Err(bad(0, "expected a decimal number after `|`"));
                }
                if let Some(k) = digits.find(|c: char| !c.is_ascii_digit()) {
                    return Err(bad(k + 1, "expected a decimal number after `|`"));
                }
                let n: u64 = digits.parse().map_err(|_| bad(1, "larger than 2^64 - 1"))?;
                cost = cost
                    .checked_add(n)
                    .ok_or_else(|| bad(0, "the option's costs add up past 2^64 - 1"))?;
                continue;
            }
            if let Some(cost) = cost_token {
                // `a |3 b`: the cost ends the option.
                let what = format!(
                    "item `{}` after the option's cost `{}`: the cost comes last",
                    printable(token),
                    printable(cost)
                );
                return Err(line.error(at, ParseErrorKind::Syntax(what)));
            }
            let (name, color) = match token.split_once(':') {
                Some((name, color)) => {
                    if name.is_empty() || color.is_empty() {
                        return Err(line.error(at, ParseErrorKind::BadColor(token.to_owned())));
                    }
                    (name, Some(color))
                }
                None => (token, None),
            };
            let item = b
                .item_id(name)
                .ok_or_else(|| line.error(at, ParseErrorKind::UnknownItem(name.to_owned())))?;
            let kind =
                if item.index() < primaries { ItemKind::Primary } else { ItemKind::Secondary };
            has_primary |= kind == ItemKind::Primary;
            let color = match color {
                Some(c) => {
                    if kind == ItemKind::Primary {
                        let e = BuildError::ColorOnPrimary {
                            option: labels.len(),
                            item: name.to_owned(),
                        };
                        return Err(line.error(at, e.into()));
                    }
                    Some(b.color(c).map_err(|e| line.error(at + name.len() + 1, e.into()))?)
                }
                None => None,
            };
            if entries.iter().any(|e: &Entry| e.item == item) {
                let e = BuildError::RepeatedItem { option: labels.len(), item: name.to_owned() };
                return Err(line.error(at, e.into()));
            }
            entries.push(Entry { item, color });
        }
        if !has_primary {
            let e = BuildError::NoPrimaryItem { option: labels.len() };
            return Err(line.error(0, e.into()));
        }
        total += entries.len();
        if total > limits.max_entries {
            return Err(line.error(0, ParseErrorKind::TooMany(limits.max_entries, "entries")));
        }
        let _ = b
            .option_with_cost(entries.iter().copied(), cost)
            .map_err(|e| line.error(0, e.into()))?;
        labels.push(line.text.split_ascii_whitespace().collect::<Vec<_>>().join(" "));
        numbers.push(line.number);
    }
    let input_index = (0..labels.len()).collect();
    Ok(Document { problem: b.build(), labels, input_index, lines: numbers })
}

/// The bounds `spec` of item line token `token` (at byte `at`): `a:b` or `b` (meaning
/// `b:b`), decimal. The builder checks `b > 0` and `a <= b`.
fn bounds(line: &Line<'_>, at: usize, token: &str, spec: &str) -> Result<(u32, u32), ParseError> {
    let number = |text: &str, offset: usize| -> Result<u32, ParseError> {
        let bad = |k: usize, reason| {
            line.error(
                at + offset + k,
                ParseErrorKind::BadBounds { token: token.to_owned(), reason },
            )
        };
        if text.is_empty() {
            return Err(bad(0, "expected a decimal bound"));
        }
        if let Some(k) = text.find(|c: char| !c.is_ascii_digit()) {
            return Err(bad(k, "expected a decimal bound"));
        }
        text.parse().map_err(|_| bad(0, "a bound larger than 2^32 - 1"))
    };
    match spec.split_once(':') {
        Some((lo, hi)) => Ok((number(lo, 0)?, number(hi, lo.len() + 1)?)),
        None => {
            let hi = number(spec, 0)?;
            Ok((hi, hi))
        }
    }
}

/// Parses a 0/1 matrix with the default [`Limits`].
pub fn parse_matrix(input: &[u8]) -> Result<Document, ParseError> {
    parse_matrix_with(input, &Limits::default())
}

/// Parses a 0/1 matrix: a line `n m`, then `n` rows of `m` values `0`/`1`.
pub fn parse_matrix_with(input: &[u8], limits: &Limits) -> Result<Document, ParseError> {
    let lines = lines(input, limits)?;
    let mut content = lines.iter().filter(|l| !l.text.trim().is_empty());
    let Some(head) = content.next() else {
        let line = lines.len().max(1);
        return Err(ParseError {
            line,
            column: 1,
            kind: ParseErrorKind::Syntax("empty input: expected a line `n m`".into()),
        });
    };
    let dims: Vec<(usize, &str)> = head.tokens().collect();
    let number = |(at, t): (usize, &str), what: &str| -> Result<usize, ParseError> {
        t.parse::<usize>().map_err(|_| {
            head.error(
                at,
                ParseErrorKind::Syntax(format!(
                    "expected the number of {what}, found `{}`",
                    printable(t)
                )),
            )
        })
    };
    if dims.len() != 2 {
        let at = dims.get(2).map_or(0, |d| d.0);
        return Err(head.error(at, ParseErrorKind::Syntax("expected two numbers `n m`".into())));
    }
    let n = number(dims[0], "rows")?;
    let m = number(dims[1], "columns")?;
    if m > limits.max_items {
        return Err(head.error(dims[1].0, ParseErrorKind::TooManyItems(limits.max_items)));
    }
    if n > limits.max_options {
        return Err(head.error(dims[0].0, ParseErrorKind::TooMany(limits.max_options, "options")));
    }
    let mut b = ProblemBuilder::new();
    let items: Vec<_> = (1..=m)
        .map(|j| b.primary(&j.to_string()).map_err(|e| head.error(0, e.into())))
        .collect::<Result<_, _>>()?;
    let mut labels = Vec::new();
    let mut input_index = Vec::new();
    let mut numbers = Vec::new();
    let mut row = Vec::with_capacity(m);
    let mut total = 0usize;
    for r in 0..n {
        let Some(line) = content.next() else {
            let last = lines.len().max(1);
            return Err(ParseError {
                line: last,
                column: 1,
                kind: ParseErrorKind::Syntax(format!("expected {n} rows, found {r}")),
            });
        };
        row.clear();
        for (at, token) in line.tokens() {
            for (k, ch) in token.char_indices() {
                match ch {
                    '0' => row.push(false),
                    '1' => row.push(true),
                    _ => {
                        return Err(line.error(
                            at + k,
                            ParseErrorKind::Syntax(format!(
                                "expected 0 or 1, found `{}`",
                                printable(&ch.to_string())
                            )),
                        ))
                    }
                }
                if row.len() > m {
                    return Err(line.error(
                        at + k,
                        ParseErrorKind::Syntax(format!("row {} has more than {m} values", r + 1)),
                    ));
                }
            }
        }
        if row.len() < m {
            return Err(line.error(
                line.text.len(),
                ParseErrorKind::Syntax(format!(
                    "row {} has {} values, expected {m}",
                    r + 1,
                    row.len()
                )),
            ));
        }
        let ones: Vec<_> =
            row.iter().zip(&items).filter(|(&one, _)| one).map(|(_, &i)| i).collect();
        if ones.is_empty() {
            continue;
        }
        total += ones.len();
        if total > limits.max_entries {
            return Err(line.error(0, ParseErrorKind::TooMany(limits.max_entries, "entries")));
        }
        let _ = b.option(ones).map_err(|e| line.error(0, e.into()))?;
        labels.push((r + 1).to_string());
        input_index.push(r);
        numbers.push(line.number);
    }
    if let Some(extra) = content.next() {
        return Err(extra.error(
            0,
            ParseErrorKind::Syntax(format!(
                "more than the {n} rows announced on line {}",
                head.number
            )),
        ));
    }
    Ok(Document { problem: b.build(), labels, input_index, lines: numbers })
}

/// Parses the `.ec` format with the default [`Limits`].
pub fn parse_ec(input: &[u8]) -> Result<Document, ParseError> {
    parse_ec_with(input, &Limits::default())
}

/// Parses the `.ec` format of Nishino et al.'s benchmark: lines whose first word is `c` are
/// comments and blank lines are skipped; the first other line is `p ec N`, declaring items
/// `1..=N`; every later line is an option, `s` and the numbers of its items (from 1, each at
/// most once). An option's label is its numbers as written.
pub fn parse_ec_with(input: &[u8], limits: &Limits) -> Result<Document, ParseError> {
    let lines = lines(input, limits)?;
    let is_comment = |l: &Line<'_>| l.text.split_ascii_whitespace().next() == Some("c");
    let mut content = lines.iter().filter(|l| !l.text.trim().is_empty() && !is_comment(l));
    let Some(head) = content.next() else {
        let line = lines.len().max(1);
        return Err(ParseError {
            line,
            column: 1,
            kind: ParseErrorKind::Syntax("empty input: expected a line `p ec N`".into()),
        });
    };
    let words: Vec<(usize, &str)> = head.tokens().collect();
    let syntax =
        |line: &Line<'_>, at: usize, what: String| line.error(at, ParseErrorKind::Syntax(what));
    if words.len() != 3 || words[0].1 != "p" || words[1].1 != "ec" {
        let at = words.iter().find(|w| !["p", "ec"].contains(&w.1)).map_or(0, |w| w.0);
        return Err(syntax(head, at, "expected `p ec N` (N the number of items)".into()));
    }
    let (at, count) = words[2];
    let n = count.parse::<usize>().map_err(|_| {
        syntax(head, at, format!("expected the number of items, found `{}`", printable(count)))
    })?;
    if n > limits.max_items {
        return Err(head.error(at, ParseErrorKind::TooManyItems(limits.max_items)));
    }
    if n == 0 {
        return Err(head.error(at, ParseErrorKind::NoPrimaryItems));
    }
    let mut b = ProblemBuilder::new();
    let items: Vec<_> = (1..=n)
        .map(|j| b.primary(&j.to_string()).map_err(|e| head.error(at, e.into())))
        .collect::<Result<_, _>>()?;
    let mut labels = Vec::new();
    let mut numbers = Vec::new();
    let mut entries = Vec::new();
    let mut total = 0usize;
    for line in content {
        let mut tokens = line.tokens();
        match tokens.next() {
            Some((_, "s")) => {}
            Some((at, "p")) => {
                return Err(syntax(
                    line,
                    at,
                    format!("a second `p` line (the first is line {})", head.number),
                ))
            }
            Some((at, word)) => {
                return Err(syntax(
                    line,
                    at,
                    format!("expected `s` and an option's items, found `{}`", printable(word)),
                ))
            }
            None => continue,
        }
        if labels.len() >= limits.max_options {
            return Err(line.error(0, ParseErrorKind::TooMany(limits.max_options, "options")));
        }
        entries.clear();
        let mut first = None;
        for (at, token) in tokens {
            let k =
                token.parse::<usize>().ok().filter(|k| (1..=n).contains(k)).ok_or_else(|| {
                    syntax(
                        line,
                        at,
                        format!(
                            "expected an item number from 1 to {n}, found `{}`",
                            printable(token)
                        ),
                    )
                })?;
            first.get_or_insert(at);
            total += 1;
            if total > limits.max_entries {
                return Err(line.error(at, ParseErrorKind::TooMany(limits.max_entries, "entries")));
            }
            entries.push(Entry::plain(items[k - 1]));
        }
        let Some(start) = first else {
            return Err(syntax(line, line.text.len(), "an option with no item".into()));
        };
        let _ = b.option(entries.iter().copied()).map_err(|e| line.error(start, e.into()))?;
        labels.push(line.text[start..].trim_end().to_owned());
        numbers.push(line.number);
    }
    let input_index = (0..labels.len()).collect();
    Ok(Document { problem: b.build(), labels, input_index, lines: numbers })
}

/// Detects the format: a first line `p ec ...` after `c` comments is `.ec`; a first content
/// line of exactly two numbers followed by a row of digits is a matrix; anything else is
/// DLX. (So does [`sniff`], which also tells sudoku puzzles apart.)
pub fn detect(input: &[u8]) -> InputFormat {
    match sniff(input) {
        Looks::Ec => InputFormat::Ec,
        Looks::Matrix => InputFormat::Matrix,
        Looks::Dlx | Looks::Sudoku => InputFormat::Dlx,
    }
}

/// What `input` looks like at a glance (its first 64 KiB): `.ec` when its first line after
/// `c` comments starts `p ec`; a 0/1 matrix when its first line is two numbers and the next
/// one digits; sudoku puzzles when its first line that is not a `#` comment is a puzzle of
/// 16, 81, 256 or 625 cells (digits, letters, `.`, `_`, `-`), or a row of numbers as long
/// as the grid's lines that follow are; DLX otherwise.
pub fn sniff(input: &[u8]) -> Looks {
    let input = without_bom(input);
    let text = String::from_utf8_lossy(&input[..input.len().min(1 << 16)]);
    let head = text
        .lines()
        .map(|l| l.split_ascii_whitespace().collect::<Vec<_>>())
        .find(|words| !words.is_empty() && words[0] != "c");
    if let Some(["p", "ec", ..]) = head.as_deref() {
        return Looks::Ec;
    }
    let mut content = text.lines().filter(|l| !l.trim().is_empty());
    let Some(first) = content.next() else { return Looks::Dlx };
    let dims: Vec<&str> = first.split_ascii_whitespace().collect();
    let numeric = dims.len() == 2 && dims.iter().all(|t| t.parse::<usize>().is_ok());
    let digits = |row: &str| row.chars().all(|c| c.is_ascii_digit() || c.is_ascii_whitespace());
    if numeric && content.next().is_some_and(digits) {
        return Looks::Matrix;
    }
    if looks_like_sudoku(&text) {
        return Looks::Sudoku;
    }
    Looks::Dlx
}

/// Whether `text` reads as sudoku puzzles: its first line that is neither blank nor a `#`
/// comment is one puzzle (16, 81, 256 or 625 cells, up to a space or `:`), or the first row
/// of a grid of numbers (`side` numbers of at most two digits, for a `side` of 4, 9, 16 or
/// 25, and as many such rows after it).
fn looks_like_sudoku(text: &str) -> bool {
    let mut lines = text.lines().map(str::trim).filter(|t| !t.is_empty() && !t.starts_with('#'));
    let Some(first) = lines.next() else { return false };
    let puzzle = first.split(|c: char| c.is_whitespace() || c == ':').next().unwrap_or("");
    let cell = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    if [16, 81, 256, 625].contains(&puzzle.len()) && puzzle.chars().all(cell) {
        return true;
    }
    let row = |line: &str| -> Option<usize> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let number = |t: &&str| t.len() <= 2 && t.chars().all(|c| c.is_ascii_digit() || c == '.');
        tokens.iter().all(number).then_some(tokens.len())
    };
    match row(first) {
        Some(side @ (4 | 9 | 16 | 25)) => {
            lines.by_ref().take(side - 1).filter(|l| row(l) == Some(side)).count() == side - 1
        }
        _ => false,
    }
}

/// Parses any of the three formats, detected by [`sniff`]. A DLX file whose first line names
/// two items that are numbers (`1 2`) looks like a matrix, and one whose first line names `p`
/// and `ec` looks like `.ec`: if it does not read as the format it looks like but reads as
/// DLX, it is DLX. When no format reads it, the error is that of the format it looks like
/// ([`ParseErrorKind::Unread`], which adds how DLX failed too), or plain DLX's when it looks
/// like nothing else.
pub fn parse_auto(input: &[u8]) -> Result<(Document, InputFormat), ParseError> {
    parse_auto_with(input, &Limits::default())
}

/// [`parse_auto`] with the given [`Limits`].
pub fn parse_auto_with(
    input: &[u8],
    limits: &Limits,
) -> Result<(Document, InputFormat), ParseError> {
    let looks = sniff(input);
    let (first, format) = match looks {
        Looks::Dlx | Looks::Sudoku => (parse_dlx_with(input, limits), InputFormat::Dlx),
        Looks::Matrix => (parse_matrix_with(input, limits), InputFormat::Matrix),
        Looks::Ec => (parse_ec_with(input, limits), InputFormat::Ec),
    };
    let e = match first {
        Ok(d) => return Ok((d, format)),
        Err(e) => e,
    };
    let dlx = match format {
        InputFormat::Dlx => None,
        _ => match parse_dlx_with(input, limits) {
            Ok(d) => return Ok((d, InputFormat::Dlx)),
            Err(dlx) => Some(Box::new(dlx)),
        },
    };
    if looks == Looks::Dlx {
        return Err(e);
    }
    let ParseError { line, column, kind } = e;
    Err(ParseError {
        line,
        column,
        kind: ParseErrorKind::Unread { looks, error: Box::new(kind), dlx },
    })
}

/// Writes `problem` in Knuth's DLX format; [`parse_dlx`] reads it back to an equal problem.
/// Bounds are written as DLX3 reads them (`2|x`, `0:3|y`) and costs as DLX5 does (` |7` at
/// the end of an option).
///
/// Items are written primary first, each kind in declaration order, so a problem whose
/// secondary items were declared before some primary ones comes back with renumbered items.
pub fn write_dlx(problem: &Problem) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| {} items ({} primary), {} options",
        problem.item_count(),
        problem.primary_count(),
        problem.option_count()
    );
    let mut first = true;
    for kind in [ItemKind::Primary, ItemKind::Secondary] {
        let names: Vec<_> = problem
            .items()
            .filter(|&i| problem.item_kind(i) == kind)
            .map(|i| (i, problem.item_name(i)))
            .collect();
        if kind == ItemKind::Secondary && !names.is_empty() {
            s.push_str(" |");
        }
        for (item, name) in names {
            if !first {
                s.push(' ');
            }
            first = false;
            match problem.item_bounds(item) {
                Some((1, 1)) | None => {}
                Some((lo, hi)) if lo == hi => {
                    let _ = write!(s, "{hi}|");
                }
                Some((lo, hi)) => {
                    let _ = write!(s, "{lo}:{hi}|");
                }
            }
            s.push_str(name);
        }
    }
    s.push('\n');
    for option in problem.options() {
        s.push_str(&problem.option_text(option));
        match problem.option_cost(option) {
            0 => {}
            cost => {
                let _ = write!(s, " |{cost}");
            }
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests;
