//! Polyomino tilings: cover a board with pieces, each in any of its orientations.
//!
//! # Brief overview
//!
//! - [`Board`]: the cells to cover (a rectangle, or ASCII art with holes) and its symmetries;
//! - [`Piece`]: a polyomino, read from ASCII art ([`parse_pieces`]) or a [`named_set`];
//! - [`Tiling`], built by [`TilingBuilder`], is the exact cover model: one primary item per
//!   cell (and one per piece when every piece is used exactly once), one option per
//!   placement of an orientation of a piece; it counts and lists tilings, and counts them up
//!   to the board's symmetries ([`Tiling::count_distinct`]);
//! - [`count_rectangle`]: the profile dynamic program, for rectangles and unlimited copies.
//!
//! # Example
//!
//! ```
//! use dancecard_engine::Config;
//! use dancecard_models::tiling::{named_set, Board, Tiling};
//!
//! let board = Board::rectangle(3, 4)?;
//! let tiling = Tiling::builder(board, named_set("trominoes").unwrap()).build()?;
//! let (outcome, _stats) = tiling.count(Config::default());
//! assert_eq!(outcome.solutions, 23);
//! assert_eq!(tiling.count_dp()?, 23);
//! # Ok::<(), dancecard_models::tiling::TilingError>(())
//! ```
//!
//! # Counting up to symmetry
//!
//! [`Tiling::count_distinct`] enumerates every tiling and keeps those that are the least of
//! their orbit under the board's symmetry group (only its rotations when reflections of
//! pieces are forbidden, since a reflected tiling would use reflected pieces). A tiling is
//! compared with its images through a code that is independent of the order the search
//! found its pieces in: for each cell in reading order, the piece that covers it and the rank
//! of that piece's first appearance. Each orbit has exactly one least member, so the count
//! is exact for any board, with holes or with tilings that are their own mirror image.

mod board;
mod dp;
mod pieces;

use std::ops::ControlFlow;

use dancecard_engine::{Config, Count, OptionId, Outcome, Problem, ProblemBuilder, Solver, Stats};

pub use board::{Board, MAX_CELLS};
pub use dp::{count_rectangle, count_rectangle_bounded, DpError, MAX_STATES, MAX_WINDOW};
pub use pieces::{free_polyominoes, named_set, parse_pieces, Piece, Shape, SET_NAMES};

use crate::count::{self, CountRequest, ModelCount};
use crate::Model;

/// The most options (placements) a tiling may have.
pub const MAX_PLACEMENTS: usize = 1_000_000;

/// Why a board, a set of pieces or a tiling is not acceptable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TilingError {
    /// The board has no cell.
    #[error("the board has no cell to cover")]
    EmptyBoard,
    /// A character of board art that is neither a cell nor an empty square.
    #[error("board line {line}, column {column}: unexpected {ch:?} (`#` or a letter for a cell, `.` or a space for none)")]
    BoardChar {
        /// Line (from 1).
        line: usize,
        /// Column (from 1).
        column: usize,
        /// The character.
        ch: char,
    },
    /// A board size that is not `RxC`.
    #[error("`{text}` is not a board size like 6x10")]
    BoardSize {
        /// The text given.
        text: String,
    },
    /// The board is too large.
    #[error("the board is too large (at most {max} squares)")]
    BoardTooLarge {
        /// The limit.
        max: usize,
    },
    /// No piece was given.
    #[error("no pieces")]
    NoPieces,
    /// A piece without cells.
    #[error("piece {name} has no cell")]
    EmptyPiece {
        /// Its name.
        name: String,
    },
    /// A piece given the same cell twice.
    #[error("piece {name} lists cell ({row}, {col}) twice")]
    RepeatedCell {
        /// Its name.
        name: String,
        /// The cell's row, as given.
        row: usize,
        /// The cell's column, as given.
        col: usize,
    },
    /// A piece whose cells do not form one edge-connected polyomino.
    #[error("piece {name} is not connected (its cells must touch by edges)")]
    DisconnectedPiece {
        /// Its name.
        name: String,
    },
    /// A character of piece art other than `#`, `.` and a space.
    #[error("pieces line {line}, column {column}: unexpected {ch:?} (`#` for a cell, `.` for an empty spot)")]
    PieceChar {
        /// Line (from 1).
        line: usize,
        /// Column (from 1).
        column: usize,
        /// The character.
        ch: char,
    },
    /// A piece name that cannot be an item name.
    #[error("bad piece name `{name}`: {reason}")]
    PieceName {
        /// The name.
        name: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// Two pieces with one name, or a piece named like a cell.
    #[error("the name `{name}` is used twice (pieces need distinct names, different from the cell names)")]
    DuplicateName {
        /// The name.
        name: String,
    },
    /// With every piece exactly once, the pieces' area differs from the board's.
    #[error("the pieces cover {pieces} cells in all but the board has {board}")]
    AreaMismatch {
        /// The board's cells.
        board: usize,
        /// The pieces' cells.
        pieces: usize,
    },
    /// No number of copies of the pieces has the board's area.
    #[error("no combination of pieces of sizes {sizes:?} covers exactly {board} cells")]
    AreaUnreachable {
        /// The board's cells.
        board: usize,
        /// The distinct piece sizes.
        sizes: Vec<usize>,
    },
    /// Too many placements for the exact cover problem.
    #[error("too many placements ({count}; at most {MAX_PLACEMENTS})")]
    TooManyPlacements {
        /// How many there would be.
        count: usize,
    },
    /// The profile program does not apply or failed.
    #[error(transparent)]
    Dp(#[from] DpError),
    /// The count's request does not go with the method (a limit or a count up to symmetry
    /// on the profile DP).
    #[error("{0}")]
    Request(&'static str),
    /// The engine refused the count.
    #[error(transparent)]
    Count(#[from] dancecard_engine::CountError),
}

/// How [`Tiling::count_by`] counts the tilings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Method {
    /// The profile DP where it applies and pays (a full rectangle, any number of copies, no
    /// limit, no count up to symmetry, within [`DpLimits`]; past its states, the engine),
    /// the engine otherwise.
    #[default]
    Auto,
    /// The exact cover model on the engine (which may memoise: `auto` of the engine).
    Dlx,
    /// The profile (broken-line) dynamic program only.
    Dp,
}

impl Method {
    /// Its name, as `dancecard tile --method` and the web API's `method` write it.
    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Dlx => "dlx",
            Method::Dp => "dp",
        }
    }
}

/// The profile DP's budget in [`Tiling::count_by`]: the most states it keeps, and the widest
/// narrow side of a board it takes (a server bounds its memory with these).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DpLimits {
    /// The most states ([`MAX_STATES`] by default).
    pub max_states: usize,
    /// The widest narrow side (no bound by default).
    pub max_side: usize,
}

impl Default for DpLimits {
    fn default() -> Self {
        DpLimits { max_states: MAX_STATES, max_side: usize::MAX }
    }
}

/// A piece placed on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The piece (an index into [`Tiling::pieces`]).
    pub piece: usize,
    /// The board cells it covers, in reading order.
    pub cells: Vec<(usize, usize)>,
}

/// A tiling: the placed pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TilingAnswer {
    /// The placements, in the order the search chose them.
    pub placements: Vec<Placement>,
}

/// Builds a [`Tiling`] from a board and pieces.
#[derive(Clone, Debug)]
pub struct TilingBuilder {
    board: Board,
    pieces: Vec<Piece>,
    once: bool,
    flips: bool,
}

impl TilingBuilder {
    /// Every piece exactly once (pieces become primary items), instead of any number of
    /// copies of each. Default: false.
    pub fn once(mut self, once: bool) -> Self {
        self.once = once;
        self
    }

    /// Whether pieces may be reflected (turned over). Default: true.
    pub fn flips(mut self, flips: bool) -> Self {
        self.flips = flips;
        self
    }

    /// Checks the input and builds the exact cover model.
    ///
    /// Without [`once`](Self::once), pieces that are the same polyomino are merged (the
    /// first name is kept).
    pub fn build(self) -> Result<Tiling, TilingError> {
        let TilingBuilder { board, mut pieces, once, flips } = self;
        if pieces.is_empty() {
            return Err(TilingError::NoPieces);
        }
        for (k, p) in pieces.iter().enumerate() {
            if pieces[..k].iter().any(|q| q.name() == p.name()) {
                return Err(TilingError::DuplicateName { name: p.name().to_owned() });
            }
        }
        if !once {
            let mut forms: Vec<Shape> = Vec::new();
            pieces.retain(|p| {
                let form = p.canonical(flips);
                let new = !forms.contains(&form);
                forms.push(form);
                new
            });
        }
        let area = board.cell_count();
        if once {
            let total: usize = pieces.iter().map(Piece::size).sum();
            if total != area {
                return Err(TilingError::AreaMismatch { board: area, pieces: total });
            }
        } else {
            let mut sizes: Vec<usize> = pieces.iter().map(Piece::size).collect();
            sizes.sort_unstable();
            sizes.dedup();
            let mut reach = vec![false; area + 1];
            reach[0] = true;
            for a in 1..=area {
                reach[a] = sizes.iter().any(|&s| s <= a && reach[a - s]);
            }
            if !reach[area] {
                return Err(TilingError::AreaUnreachable { board: area, sizes });
            }
        }
        let orientations: Vec<Vec<Shape>> = pieces.iter().map(|p| p.orientations(flips)).collect();

        // Items: the pieces (with `once`), then the cells in reading order, as in the
        // instance file testdata/instances/pent6x10.dlx.
        let mut b = ProblemBuilder::new();
        let dup = |name: &str| TilingError::DuplicateName { name: name.to_owned() };
        let mut piece_items = Vec::new();
        if once {
            for p in &pieces {
                piece_items.push(b.primary(p.name()).map_err(|_| dup(p.name()))?);
            }
        }
        let short = board.rows() <= 10 && board.cols() <= 10;
        let mut cell_items = Vec::with_capacity(area);
        for (r, c) in board.cells() {
            let name = if short { format!("{r}{c}") } else { format!("r{r}c{c}") };
            cell_items.push(b.primary(&name).map_err(|_| dup(&name))?);
        }
        let mut placements = Vec::new();
        for (k, shapes) in orientations.iter().enumerate() {
            for shape in shapes {
                let height = shape.iter().map(|c| c.0 + 1).max().unwrap_or(0);
                let width = shape.iter().map(|c| c.1 + 1).max().unwrap_or(0);
                if height > board.rows() || width > board.cols() {
                    continue;
                }
                for r0 in 0..=board.rows() - height {
                    for c0 in 0..=board.cols() - width {
                        let cells: Vec<(usize, usize)> =
                            shape.iter().map(|&(r, c)| (r0 + r, c0 + c)).collect();
                        if !cells.iter().all(|&(r, c)| board.contains(r, c)) {
                            continue;
                        }
                        if placements.len() == MAX_PLACEMENTS {
                            return Err(TilingError::TooManyPlacements {
                                count: MAX_PLACEMENTS + 1,
                            });
                        }
                        let mut items = Vec::with_capacity(cells.len() + 1);
                        if once {
                            items.push(piece_items[k]);
                        }
                        for &(r, c) in &cells {
                            if let Some(i) = board.cell_index(r, c) {
                                items.push(cell_items[i]);
                            }
                        }
                        b.option(items).map_err(|_| TilingError::TooManyPlacements {
                            count: placements.len(),
                        })?;
                        placements.push(Placement { piece: k, cells });
                    }
                }
            }
        }
        let problem = b.build();
        Ok(Tiling { board, pieces, once, flips, orientations, placements, problem })
    }
}

/// The exact cover model of a tiling (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct Tiling {
    board: Board,
    pieces: Vec<Piece>,
    once: bool,
    flips: bool,
    orientations: Vec<Vec<Shape>>,
    /// The placement of each option, by option number.
    placements: Vec<Placement>,
    problem: Problem,
}

/// The counts of [`Tiling::count_distinct`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DistinctCount {
    /// All tilings found.
    pub total: u128,
    /// Tilings up to the board's symmetries.
    pub distinct: u128,
    /// How the search ended (the counts are complete when it was exhausted).
    pub outcome: Outcome,
    /// The search's counters.
    pub stats: Stats,
}

/// Symbols for pieces in rendered tilings.
const SYMBOLS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

impl Tiling {
    /// A builder for tilings of `board` by `pieces`.
    pub fn builder(board: Board, pieces: Vec<Piece>) -> TilingBuilder {
        TilingBuilder { board, pieces, once: false, flips: true }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The pieces (after merging equal ones when copies are unlimited).
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// Whether every piece is used exactly once.
    pub fn is_once(&self) -> bool {
        self.once
    }

    /// Whether pieces may be reflected.
    pub fn allows_flips(&self) -> bool {
        self.flips
    }

    /// The orientations of piece `piece`.
    pub fn orientations(&self, piece: usize) -> &[Shape] {
        &self.orientations[piece]
    }

    /// The exact cover problem (also [`Model::problem`], which clones it).
    pub fn exact_cover(&self) -> &Problem {
        &self.problem
    }

    /// The placement of an option of the exact cover problem.
    pub fn placement(&self, option: OptionId) -> Option<&Placement> {
        self.placements.get(option.index())
    }

    /// Counts the tilings with the engine.
    pub fn count(&self, config: Config) -> (Outcome, Stats) {
        let mut solver = Solver::with_config(&self.problem, config);
        let outcome = solver.count();
        (outcome, *solver.stats())
    }

    /// Calls `visit` with each tiling (as the chosen options) until it returns `Break`.
    pub fn solve_with<F>(&self, config: Config, mut visit: F) -> (Outcome, Stats)
    where
        F: FnMut(&[OptionId]) -> ControlFlow<()>,
    {
        let mut solver = Solver::with_config(&self.problem, config);
        let mut options = Vec::new();
        let outcome = solver.solve_with(|s| {
            options.clear();
            options.extend(s.options());
            visit(&options)
        });
        (outcome, *solver.stats())
    }

    /// Up to `limit` tilings (all of them for `None`).
    pub fn solutions(&self, limit: Option<usize>) -> Vec<TilingAnswer> {
        let mut out = Vec::new();
        if limit == Some(0) {
            return out;
        }
        let _ = self.solve_with(Config::default(), |s| {
            out.push(self.decode(s));
            if limit.is_some_and(|l| out.len() >= l) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        out
    }

    /// Counts the tilings, all and up to symmetry (see the [module docs](self)).
    pub fn count_distinct(&self, config: Config) -> DistinctCount {
        let canon = self.canonicalizer();
        let mut distinct = 0u128;
        let (outcome, stats) = self.solve_with(config, |s| {
            distinct += u128::from(canon.is_least(s));
            ControlFlow::Continue(())
        });
        DistinctCount { total: outcome.solutions, distinct, outcome, stats }
    }

    /// The symmetry test used by [`Tiling::count_distinct`], for callers that drive the
    /// search themselves.
    pub fn canonicalizer(&self) -> Canonicalizer<'_> {
        let symmetries = self.board.symmetries(self.flips);
        let cell_of = self
            .placements
            .iter()
            .map(|p| p.cells.iter().filter_map(|&(r, c)| self.board.cell_index(r, c)).collect())
            .collect();
        Canonicalizer { tiling: self, symmetries, cell_of }
    }

    /// Counts the tilings with the profile dynamic program ([`count_rectangle`]): only for a
    /// full rectangle and unlimited copies.
    pub fn count_dp(&self) -> Result<Count, TilingError> {
        self.count_dp_with(None)
    }

    /// Like [`Tiling::count_dp`], stopping with [`DpError::Cancelled`] when `cancel` is set.
    pub fn count_dp_with(
        &self,
        cancel: Option<&std::sync::atomic::AtomicBool>,
    ) -> Result<Count, TilingError> {
        self.count_dp_bounded(cancel, MAX_STATES)
    }

    /// Like [`Tiling::count_dp_with`], keeping at most `max_states` states (see
    /// [`count_rectangle_bounded`]): a server bounds its memory with it.
    pub fn count_dp_bounded(
        &self,
        cancel: Option<&std::sync::atomic::AtomicBool>,
        max_states: usize,
    ) -> Result<Count, TilingError> {
        if self.once {
            return Err(DpError::Once.into());
        }
        if !self.board.is_rectangle() {
            return Err(DpError::NotRectangle.into());
        }
        let all: Vec<Shape> = self.orientations.iter().flatten().cloned().collect();
        Ok(count_rectangle_bounded(self.board.rows(), self.board.cols(), &all, cancel, max_states)?)
    }

    /// Counts the tilings by `method` within `request`'s limits: the one count of the command
    /// line, the web API and the Python package. [`Method::Auto`] runs the profile DP where
    /// it applies and no limit or count up to symmetry asks for the engine, and goes on with
    /// the engine when the DP outgrows `dp.max_states`.
    ///
    /// ```
    /// use dancecard_models::count::CountRequest;
    /// use dancecard_models::tiling::{named_set, Board, DpLimits, Method, Tiling};
    ///
    /// let board = Board::parse_size("4x4")?;
    /// let dominoes = named_set("dominoes").unwrap();
    /// let tiling = Tiling::builder(board, dominoes).build()?;
    /// let request = CountRequest::default();
    /// let c = tiling.count_by(Method::Auto, &request, DpLimits::default())?;
    /// assert_eq!((c.method, c.total.to_string()), ("dp", "36".to_owned()));
    /// // Up to the square's 8 symmetries: the engine, each tiling tested.
    /// let distinct = CountRequest { distinct: true, ..CountRequest::default() };
    /// let c = tiling.count_by(Method::Auto, &distinct, DpLimits::default())?;
    /// assert_eq!((c.method, c.distinct.map(|d| d.to_string())), ("dlx", Some("9".to_owned())));
    /// # Ok::<(), dancecard_models::tiling::TilingError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`TilingError::Request`] for a limit or a count up to symmetry on [`Method::Dp`];
    /// [`TilingError::Dp`] when the DP does not apply ([`DpError::Once`],
    /// [`DpError::NotRectangle`], [`DpError::Side`], [`DpError::TooWide`],
    /// [`DpError::TooManyStates`] on [`Method::Dp`]) or was cancelled (it has no partial
    /// count: [`DpError::Cancelled`]); [`TilingError::Count`] when the engine refuses.
    pub fn count_by(
        &self,
        method: Method,
        request: &CountRequest<'_>,
        dp: DpLimits,
    ) -> Result<ModelCount, TilingError> {
        let narrow = self.board.rows().min(self.board.cols());
        let dp_applies = !self.once && self.board.is_rectangle() && narrow <= dp.max_side;
        let run_dp = match method {
            Method::Dp if request.distinct => return Err(TilingError::Request(
                "a count up to symmetry needs the dlx method: the profile DP counts all tilings",
            )),
            Method::Dp if request.budget.max_solutions.is_some() => {
                return Err(TilingError::Request(
                    "a solution limit needs the dlx method: the profile DP counts all tilings",
                ))
            }
            Method::Dp if request.budget.max_nodes.is_some() => {
                return Err(TilingError::Request(
                    "a node limit needs the dlx method: the profile DP has no search nodes",
                ))
            }
            Method::Dp if request.budget.time_limit.is_some() => {
                return Err(TilingError::Request(
                    "a time limit needs the dlx method: the profile DP has no partial count",
                ))
            }
            Method::Dp if self.once => return Err(DpError::Once.into()),
            Method::Dp if !self.board.is_rectangle() => return Err(DpError::NotRectangle.into()),
            Method::Dp if narrow > dp.max_side => {
                return Err(DpError::Side { max: dp.max_side }.into())
            }
            Method::Dp => true,
            Method::Auto => dp_applies && !request.distinct && !request.is_limited(),
            Method::Dlx => false,
        };
        if run_dp {
            let started = std::time::Instant::now();
            match self.count_dp_bounded(request.budget.cancel.as_deref(), dp.max_states) {
                Ok(total) => {
                    let solutions = total.to_u128().unwrap_or(u128::MAX);
                    let stats =
                        Stats { nodes: 0, updates: 0, solutions, elapsed: started.elapsed() };
                    return Ok(ModelCount {
                        method: "dp",
                        count_method: "dp",
                        total,
                        distinct: None,
                        stats,
                        stop: dancecard_engine::Stop::Exhausted,
                    });
                }
                // Auto goes on with the engine past the DP's states (or its window).
                Err(TilingError::Dp(DpError::TooManyStates { .. } | DpError::TooWide { .. }))
                    if method == Method::Auto => {}
                Err(e) => return Err(e),
            }
        }
        let canon = self.canonicalizer();
        let mut canonical = |options: &[OptionId]| canon.is_least(options);
        Ok(count::on_engine(&self.problem, request, &mut canonical)?)
    }

    /// Draws a tiling: one character per square, `.` where the board has no cell. With
    /// every piece once and piece names of distinct initials, each piece is drawn with its
    /// initial (the classic pentomino letters); otherwise pieces get letters in reading order,
    /// never the same as a neighbour's.
    pub fn render(&self, answer: &TilingAnswer) -> String {
        let (rows, cols) = (self.board.rows(), self.board.cols());
        let mut owner = vec![usize::MAX; rows * cols];
        for (k, p) in answer.placements.iter().enumerate() {
            for &(r, c) in &p.cells {
                owner[r * cols + c] = k;
            }
        }
        let initials: Vec<char> =
            self.pieces.iter().map(|p| p.name().chars().next().unwrap_or('?')).collect();
        let distinct_initials = initials
            .iter()
            .enumerate()
            .all(|(k, ch)| ch.is_ascii_alphanumeric() && !initials[..k].contains(ch));
        let mut symbol = vec![None; answer.placements.len()];
        for k in 0..rows * cols {
            let o = owner[k];
            if o == usize::MAX || symbol[o].is_some() {
                continue;
            }
            if self.once && distinct_initials {
                symbol[o] = Some(initials[answer.placements[o].piece]);
                continue;
            }
            // Letters of the neighbours already drawn.
            let mut taken = Vec::new();
            for &(r, c) in &answer.placements[o].cells {
                let mut near = vec![(r + 1, c), (r, c + 1)];
                if r > 0 {
                    near.push((r - 1, c));
                }
                if c > 0 {
                    near.push((r, c - 1));
                }
                for (a, b) in near {
                    if a < rows && b < cols {
                        let n = owner[a * cols + b];
                        if n != usize::MAX && n != o {
                            taken.extend(symbol[n]);
                        }
                    }
                }
            }
            symbol[o] =
                SYMBOLS.iter().map(|&s| s as char).find(|s| !taken.contains(s)).or(Some('?'));
        }
        let mut s = String::with_capacity(rows * (cols + 1));
        for r in 0..rows {
            for c in 0..cols {
                let o = owner[r * cols + c];
                s.push(if o == usize::MAX { '.' } else { symbol[o].unwrap_or('?') });
            }
            s.push('\n');
        }
        s
    }
}

/// Tests whether a tiling is the least of its orbit under the board's symmetries (see the
/// [module docs](self)). Made by [`Tiling::canonicalizer`].
#[derive(Debug)]
pub struct Canonicalizer<'t> {
    tiling: &'t Tiling,
    /// The symmetries, as images of cell numbers.
    symmetries: Vec<Vec<u32>>,
    /// The cell numbers of each placement.
    cell_of: Vec<Vec<usize>>,
}

impl Canonicalizer<'_> {
    /// The code of a tiling seen through a symmetry: for each cell in reading order, the
    /// piece and the rank of first appearance of its placement.
    fn code(
        &self,
        owner: &[u32],
        pieces: &[u32],
        image: &[u32],
        scratch: &mut Vec<u32>,
    ) -> Vec<(u32, u32)> {
        let n = owner.len();
        // `seen[j]`: the cell of the image grid that cell `j` maps to holds owner[j].
        let mut moved = vec![0u32; n];
        for (j, &i) in image.iter().enumerate() {
            moved[i as usize] = owner[j];
        }
        scratch.clear();
        scratch.resize(pieces.len(), u32::MAX);
        let mut next = 0;
        moved
            .iter()
            .map(|&o| {
                let o = o as usize;
                if scratch[o] == u32::MAX {
                    scratch[o] = next;
                    next += 1;
                }
                (pieces[o], scratch[o])
            })
            .collect()
    }

    /// Whether the tiling given by its options is the least of its orbit (exactly one
    /// tiling of each orbit is).
    pub fn is_least(&self, options: &[OptionId]) -> bool {
        if self.symmetries.len() <= 1 {
            return true;
        }
        let n = self.tiling.board.cell_count();
        let mut owner = vec![0u32; n];
        let mut pieces = Vec::with_capacity(options.len());
        for (k, o) in options.iter().enumerate() {
            let Some(cells) = self.cell_of.get(o.index()) else { return false };
            for &i in cells {
                owner[i] = k as u32;
            }
            pieces.push(self.tiling.placements[o.index()].piece as u32);
        }
        let mut scratch = Vec::new();
        let identity = self.code(&owner, &pieces, &self.symmetries[0], &mut scratch);
        self.symmetries[1..].iter().all(|g| self.code(&owner, &pieces, g, &mut scratch) >= identity)
    }
}

impl Model for Tiling {
    type Answer = TilingAnswer;

    fn problem(&self) -> Problem {
        self.problem.clone()
    }

    fn decode(&self, solution: &[OptionId]) -> TilingAnswer {
        let placements = solution.iter().filter_map(|&o| self.placement(o).cloned()).collect();
        TilingAnswer { placements }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiling(board: &str, set: &str, once: bool) -> Result<Tiling, TilingError> {
        let board = Board::parse_size(board).or_else(|_| Board::parse(board))?;
        Tiling::builder(board, named_set(set).unwrap()).once(once).build()
    }

    #[test]
    fn area_errors() {
        assert!(matches!(
            tiling("3x3", "dominoes", false),
            Err(TilingError::AreaUnreachable { .. })
        ));
        assert!(matches!(
            tiling("6x6", "pentominoes", true),
            Err(TilingError::AreaMismatch { .. })
        ));
        let twice = vec![named_set("dominoes").unwrap()[0].clone(); 2];
        let board = Board::rectangle(2, 2).unwrap();
        assert!(matches!(
            Tiling::builder(board, twice).build(),
            Err(TilingError::DuplicateName { .. })
        ));
    }

    #[test]
    fn dp_refuses_what_it_cannot_count() {
        let holed = tiling("##\n#.\n##\n##\n", "monomino", false).unwrap();
        assert_eq!(holed.count_dp(), Err(TilingError::Dp(DpError::NotRectangle)));
        let once = tiling("1x2", "dominoes", true).unwrap();
        assert_eq!(once.count_dp(), Err(TilingError::Dp(DpError::Once)));
    }

    #[test]
    fn distinct_on_small_boards_by_hand() {
        // 2x2 by dominoes: two tilings, one orbit under the square's symmetries.
        let t = tiling("2x2", "dominoes", false).unwrap();
        let d = t.count_distinct(Config::default());
        assert_eq!((d.total, d.distinct), (2, 1));
        // 2x3 by dominoes: three tilings; the all-vertical one is alone, the other two are
        // mirror images: two orbits.
        let t = tiling("2x3", "dominoes", false).unwrap();
        let d = t.count_distinct(Config::default());
        assert_eq!((d.total, d.distinct), (3, 2));
        // Orbits counted by an independent brute force (a short script over the tilings).
        for (board, total, orbits) in [("4x4", 36, 9), ("3x4", 11, 5), ("4x6", 281, 98)] {
            let t = tiling(board, "dominoes", false).unwrap();
            let d = t.count_distinct(Config::default());
            assert_eq!((d.total, d.distinct), (total, orbits), "{board}");
        }
    }

    #[test]
    fn render_letters() {
        let t = tiling("2x3", "dominoes", false).unwrap();
        let first = t.solutions(Some(1));
        let art = t.render(&first[0]);
        assert_eq!(art.lines().count(), 2);
        assert!(art.lines().all(|l| l.len() == 3));
        // Three dominoes, neighbours differ.
        let letters: std::collections::BTreeSet<char> =
            art.chars().filter(|c| *c != '\n').collect();
        assert!(letters.len() >= 2);
    }
}
