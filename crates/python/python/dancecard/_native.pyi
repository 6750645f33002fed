"""Type stubs of the native module ``dancecard._native`` (re-exported by ``dancecard``)."""

from typing import Dict, Iterable, Iterator, List, Literal, Optional, Sequence, Tuple, Union

__version__: str

Heuristic = Literal["mrv", "leftmost"]
Names = Union[str, Iterable[str]]

class DlxParseError(ValueError):
    """Problem text that cannot be read; ``line`` and ``column`` count from 1."""

    line: int
    column: int

class Stats:
    """What a search did, counted as Knuth's DLX1 counts it."""

    @property
    def nodes(self) -> int:
        """Search-tree nodes: one per level entered (the root included), one per solution."""
    @property
    def updates(self) -> int:
        """Link updates: one per item covered, one per option node hidden."""
    @property
    def solutions(self) -> int:
        """Solutions found."""
    @property
    def seconds(self) -> float:
        """Seconds of the search (wall clock)."""
    @property
    def complete(self) -> bool:
        """Whether the whole search tree was explored (counts are then exact)."""
    @property
    def stop(self) -> str:
        """Why the search ended: ``"exhausted"``, ``"solution_limit"``, ``"node_limit"``,
        ``"time_limit"``, ``"cancelled"``, ``"stopped"``, or ``"paused"`` for an iterator
        that can go on."""

class SolutionIterator(Iterator[List[int]]):
    """The lazy iterator of :meth:`Problem.solutions`.

    Each ``next`` resumes the search where it paused; solutions are lists of option numbers
    in increasing order. Taking a few solutions computes no more than those.
    """

    def __iter__(self) -> "SolutionIterator": ...
    def __next__(self) -> List[int]: ...
    @property
    def stats(self) -> Optional[Stats]:
        """The counters of the search so far (``None`` before the first ``next``)."""
    def close(self) -> None:
        """Stops the search: the iterator then ends."""

class Problem:
    """An exact cover problem: items, primary (covered exactly once) or secondary (at most
    once, or by options that all give them the same color), and options, each a set of items.

    ``primary`` and ``secondary`` are item names (a string is split at whitespace); each option
    is a list of item names, or one string of names separated by spaces. ``"x:red"`` in an
    option gives secondary item ``x`` the color ``red``. Options are numbered from 0 in the
    order given; solutions are lists of these numbers, in increasing order.

    Raises ``ValueError`` for a repeated or invalid name, an unknown item, an empty option, an
    option without a primary item, or a color on a primary item; ``TypeError`` for values
    that are not names.
    """

    def __init__(
        self,
        primary: Names,
        secondary: Optional[Names] = None,
        options: Optional[Iterable[Names]] = None,
    ) -> None: ...
    @staticmethod
    def from_dlx(text: Union[str, bytes]) -> "Problem":
        """A problem in Knuth's DLX format: a line of items (primary, then ``|`` and the
        secondary ones), then one option a line; lines starting with ``|`` are comments.

        Raises :class:`DlxParseError` (a ``ValueError``) naming the line and column.
        """
    @staticmethod
    def from_matrix(rows: Union[str, bytes, Iterable[Iterable[int]]]) -> "Problem":
        """A problem from a 0/1 matrix: every column is a primary item (named ``"1"``,
        ``"2"``...), every row an option (number ``r`` for row ``r``, from 0; rows of zeros
        are options that no solution can take).

        ``rows`` is a sequence of rows of 0/1 values, or the text format: a line ``n m``, then
        ``n`` rows of ``m`` values (:class:`DlxParseError` names the line and column).
        """
    def to_dlx(self) -> str:
        """The problem in Knuth's DLX format (``Problem.from_dlx`` reads it back)."""
    @property
    def primary(self) -> List[str]:
        """The primary items' names, in order."""
    @property
    def secondary(self) -> List[str]:
        """The secondary items' names, in order."""
    @property
    def options(self) -> List[str]:
        """Each option as text (``"a b x:red"``), by number (``""`` for a row of zeros)."""
    @property
    def stats(self) -> Optional[Stats]:
        """The counters of the last search (``None`` before any)."""
    def is_solution(self, options: Sequence[int]) -> bool:
        """Whether these option numbers form a solution."""
    def first(self, heuristic: Heuristic = "mrv") -> Optional[List[int]]:
        """The first solution in search order, or ``None``.

        ``heuristic``: ``"mrv"`` (Knuth's: branch on the item with the fewest options) or
        ``"leftmost"`` (the first uncovered primary item).
        """
    def solutions(
        self, limit: Optional[int] = None, heuristic: Heuristic = "mrv"
    ) -> SolutionIterator:
        """All solutions (at most ``limit``), as a lazy iterator: nothing is searched until
        the first ``next``, and each ``next`` resumes the search."""
    def count(
        self,
        threads: int = 1,
        heuristic: Heuristic = "mrv",
        max_nodes: Optional[int] = None,
        time_limit: Optional[float] = None,
    ) -> int:
        """The number of solutions.

        ``threads``: search with this many threads (0: one per core; at most 1024).
        ``max_nodes`` and ``time_limit`` (seconds; ``inf`` is no limit) bound the search;
        the count is then a lower bound, and ``stats.complete`` is false.
        """

def sudoku_search(
    puzzle: str, limit: Optional[int] = None, method: str = "fast", box_shape: Optional[str] = None
) -> Tuple[int, Optional[List[int]], int, bool]:
    """Solves or counts a sudoku (see :mod:`dancecard.sudoku`): returns the number of
    solutions, the first one's values row by row (or ``None``), the grid's side, and whether
    the count is exact."""

Cells = List[Tuple[int, int]]
Placement = Tuple[str, Cells]

class Tiling:
    """Tilings of a board by polyominoes, made by :func:`tile`: an exact cover problem with
    one primary item per cell (and one per piece when each is used once) and one option per
    placement of an orientation of a piece."""

    @property
    def problem(self) -> Problem:
        """The exact cover problem; option ``k`` is placement ``k``."""
    @property
    def pieces(self) -> List[str]:
        """The pieces' names (equal pieces merged when copies are unlimited)."""
    @property
    def once(self) -> bool:
        """Whether every piece is used exactly once."""
    def count(self, threads: int = 1) -> int:
        """The number of tilings (``threads=0``: one thread per core)."""
    def count_distinct(self) -> int:
        """The number of tilings up to the board's symmetries."""
    def count_dp(self) -> int:
        """The number of tilings by the profile dynamic program: much faster on long
        rectangles, for full rectangles and unlimited copies only (else ``ValueError``)."""
    def solutions(self, limit: Optional[int] = None) -> Iterator[List[Placement]]:
        """The tilings, lazily: each a list of ``(piece name, cells)``."""
    def decode(self, solution: Sequence[int]) -> List[Placement]:
        """The placements of a solution of :attr:`problem`."""
    def render(self, solution: Sequence[int]) -> str:
        """A solution of :attr:`problem` drawn as text, one letter per piece."""

def tile(
    board: Union[str, Tuple[int, int]],
    pieces: Union[str, Dict[str, Union[str, Cells]]],
    once: bool = False,
    *,
    flips: bool = True,
) -> Tiling:
    """Tilings of ``board`` by ``pieces``.

    ``board``: ``"6x10"``, ``(6, 10)``, or ASCII art (``#`` a cell, ``.`` no cell).
    ``pieces``: a set name (``"dominoes"``, ``"trominoes"``, ``"tetrominoes"``,
    ``"pentominoes"``, ``"hexominoes"``, ``"monomino"``), ASCII art (pieces separated by blank
    lines, each optionally after a line holding its name), or a dict of names to cells
    ``[(row, column), ...]`` or to art. ``once``: use every piece exactly once (else any
    number of copies). ``flips``: whether pieces may be turned over.

    Raises ``ValueError`` for a bad board or piece, or pieces that cannot cover the board's
    area.
    """

def target_sudoku(
    grid: Union[str, Sequence[Sequence[int]]],
) -> Optional[Tuple[int, List[List[int]]]]:
    """The target sudoku (NOIP 2009): the completion of a 9x9 sudoku with the largest score,
    the sum of digit times weight (10 on the centre square, one less per ring out, 6 on the
    border). ``grid``: 9 lines of 9 digits (``0`` or ``.`` blank) or 9 rows of 9 ints.
    Returns ``(score, grid)``, or ``None`` when the puzzle has no completion."""

def queens_count(n: int, threads: int = 1) -> Tuple[int, int]:
    """N-queens solutions: ``(total, distinct up to symmetry)`` (see :mod:`dancecard.queens`)."""

def queens_solutions(n: int) -> SolutionIterator:
    """N-queens solutions, lazily, in lexicographic order (see :mod:`dancecard.queens`)."""

def queens_problem(n: int) -> Problem:
    """The exact cover model of N-queens (see :mod:`dancecard.queens`)."""

def slide_solve(
    state: Union[str, Iterable[int], Iterable[Iterable[int]]],
    goal: str = "blank-first",
    heuristic: str = "linear-conflict",
    algorithm: str = "ida",
    max_nodes: Optional[int] = None,
) -> Optional[Tuple[int, str, List[int], int, int]]:
    """Solves a sliding-tile position (see :mod:`dancecard.slide`): ``(length, moves, tiles,
    expanded, generated)``, or ``None`` if the goal cannot be reached."""
