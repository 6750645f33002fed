"""Type stubs of the native module ``dancecard._native`` (re-exported by ``dancecard``).

Arguments are checked; a bad one raises ``TypeError`` (wrong type) or ``ValueError`` (out of
range, or text that does not parse), whose message starts with ``argument 'name': `` and says
what was expected and what was given:

- an ``int`` argument takes ``int`` and any scalar with ``__index__`` (numpy's integers), not
  ``bool``, not a float (even ``2.0``), not an array of any shape (0-d included);
- a flag (``bool``) takes ``True``, ``False`` or ``numpy.bool_``, not 0 or 1;
- ``time_limit`` takes any real number (not ``bool``): negative or NaN is a ``ValueError``,
  infinity or a time too far to represent is no limit;
- a sequence takes any iterable but ``str``, ``bytes`` and ``bytearray`` (numpy arrays too);
- text must be encodable as UTF-8 (no lone surrogates).
"""

import os
from typing import (
    Any, Dict, Hashable, Iterable, Iterator, List, Literal, Mapping, Optional, Sequence, Tuple,
    Union,
)

__version__: str

# "ssxcc": Knuth's SSXCC (mrv with forced moves); a whole count walks SSXCC's smaller tree
# on sparse sets, other searches branch as "mrv".
Heuristic = Literal["mrv", "leftmost", "ssxcc"]
LowerBound = Literal["auto", "relaxation", "shares", "dlx5"]
Method = Literal["search", "memo", "auto", "frontier"]
# Items: a str of names, or an iterable of items of any hashable type (#21).
Names = Union[str, Iterable[Hashable]]
# A solution: option numbers, or option names for options given as a dict.
Solution = List[Any]
# A path, as ``open`` takes it.
StrPath = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

class DlxParseError(ValueError):
    """Problem text that cannot be read; ``line`` and ``column`` count from 1."""

    line: int
    column: int

class Stats:
    """What a search did, counted as Knuth's DLX1 counts it (a memoised count as his DLX6
    does: see ``method``)."""

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
    @property
    def method(self) -> Literal["search", "memo", "frontier"]:
        """The method of the search: ``"search"`` (the plain search) or ``"memo"`` (the
        memoised search of :meth:`Problem.count`, :meth:`Problem.zdd` and
        :meth:`Problem.sample`, whose ``nodes`` are its own, counted as Knuth's DLX6 does)."""
    @property
    def reason(self) -> str:
        """Why ``count(method="auto")`` chose the method (``""`` when no choice was made)."""
    @property
    def memo(self) -> Optional["MemoStats"]:
        """The memoised search's counters when it made the count, else ``None``."""
    @property
    def lower_bound(self) -> Optional[int]:
        """After :meth:`Problem.min_cost`: a proven lower bound on the least cost (no
        solution costs less): the least cost when the search is complete (``None`` when
        there is no solution), at most the best found when a limit stopped it. ``None``
        after other searches."""
    @property
    def gap(self) -> Optional[float]:
        """After :meth:`Problem.min_cost`: ``(best - lower_bound) / best``, the gap between
        the best cost found and :attr:`lower_bound` (0.0 when complete); ``None`` when no
        solution was found, and after other searches."""

class MemoStats:
    """What a memoised count did besides counting (:attr:`Stats.memo`)."""

    @property
    def nodes(self) -> int:
        """Nodes of the memoised search (each level entered, hits included, plus one per
        solution leaf)."""
    @property
    def hits(self) -> int:
        """Nodes whose remaining problem was in the table (counted at once)."""
    @property
    def entries(self) -> int:
        """Entries written: remaining problems counted in full."""
    @property
    def clears(self) -> int:
        """Times the table was emptied to stay within ``memo_limit``."""
    @property
    def peak_bytes(self) -> int:
        """The most bytes the table (and the ZDD) took at once."""
    @property
    def plain_nodes(self) -> int:
        """The nodes the plain search would have spent on the same part of the tree
        (saturates at 2**64 - 1)."""
    @property
    def zdd_nodes(self) -> int:
        """ZDD nodes built (0 when no ZDD was asked for)."""

class Zdd:
    """The ZDD (zero-suppressed decision diagram) of all the solutions of a problem, made by
    :meth:`Problem.zdd`. Every path from the root to the true sink is one solution and every
    solution one path (the diagram is Knuth's DLX6's: not ordered, not reduced)."""

    @property
    def node_count(self) -> int:
        """The number of nodes, the two sinks not included."""
    def count(self) -> int:
        """The number of solutions: the paths to the true sink (an int, exact at any
        size)."""
    def solutions(self) -> SolutionIterator:
        """Every solution, lazily, each a list of option numbers in increasing order (as the
        problem numbers them), in the diagram's order."""
    def sample(self, k: int, seed: int = 0) -> List[Solution]:
        """``k`` solutions (an int from 0 to 2**24) drawn independently and exactly
        uniformly, with replacement, the same for the same ``seed`` (an int from 0 to
        2**64 - 1); empty when there is no solution."""
    def to_text(self) -> str:
        """The diagram in the text format of Knuth's ZDDREAD programs, as his DLX6 and
        ``dancecard solve --zdd`` write it: a line ``id: (~v?lo:hi)`` per node (ids in
        hexadecimal, children first, ``v`` the option's number from 1 in input order), then a
        dummy root ``id: (~0?0:root)``."""
    def write(self, path: Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]) -> None:
        """Writes :meth:`to_text` to the file at ``path`` (not empty, at most 4096 bytes),
        replacing it; ``OSError`` if it cannot be written."""

class Estimate:
    """Knuth's Monte Carlo estimate of the plain search's tree, made by
    :meth:`Problem.estimate`."""

    @property
    def probes(self) -> int:
        """Probes made."""
    @property
    def nodes(self) -> float:
        """The estimated number of nodes of the plain search (as :attr:`Stats.nodes`)."""
    @property
    def nodes_stderr(self) -> float:
        """The standard error of ``nodes`` (``inf`` with one probe; 0 when the tree is one
        path, known exactly)."""
    @property
    def solutions(self) -> float:
        """The estimated number of solutions."""
    @property
    def solutions_stderr(self) -> float:
        """The standard error of ``solutions`` (``inf`` with one probe)."""
    @property
    def updates(self) -> float:
        """The estimated number of updates of the plain search."""
    @property
    def max_depth(self) -> int:
        """The depth of the deepest probe."""
    @property
    def solution_probes(self) -> int:
        """Probes that ended in a solution."""
    @property
    def walked(self) -> int:
        """The nodes the probes walked, all paths together: what the estimate cost."""
    @property
    def small_tree(self) -> bool:
        """Whether the probes stopped before ``probes`` were made, having walked a tenth of
        the tree they estimate (and at least 100,000 nodes): counting it costs little more."""
    @property
    def auto(self) -> Literal["search", "memo", "frontier"]:
        """The method ``count(method="auto")`` picks for this problem."""
    @property
    def reason(self) -> str:
        """Why ``auto`` picks it."""

class SolutionIterator(Iterator[Solution]):
    """The lazy iterator of :meth:`Problem.solutions`.

    Each ``next`` resumes the search where it paused; solutions are lists of option numbers
    in increasing order. Taking a few solutions computes no more than those.
    """

    def __iter__(self) -> "SolutionIterator": ...
    def __next__(self) -> Solution: ...
    @property
    def stats(self) -> Optional[Stats]:
        """The counters of the search so far (``None`` before the first ``next``)."""
    def close(self) -> None:
        """Stops the search: the iterator then ends."""

class Problem:
    """An exact cover problem: items, primary (covered exactly once) or secondary (at most
    once, or by options that all give them the same color), and options, each a set of items.

    ``primary`` and ``secondary`` are items: a string of names split at whitespace, or an
    iterable of items of any hashable type (str, int, tuple, frozenset...); each option is a
    list of items, or one string of names separated by spaces; ``options`` may also be a dict
    from option names to options. ``"x:red"`` (for a str item) or the pair ``(x, "red")``
    in an option gives secondary item ``x`` the color ``red``. Options are numbered from 0 in
    the order given; solutions are lists of these numbers, in increasing order, or of the
    options' names for a dict. Items that are not all str are named ``#0``, ``#1``... in
    :meth:`to_dlx`; every property that reports items gives the objects back.

    ``costs``: one int per option (from 0 to 2**64 - 1, their sum at most 2**64 - 1), its
    cost for :meth:`min_cost` (``None``: every option costs 0). ``bounds``: a dict from
    primary item names to an int ``m`` (the item is covered exactly ``m`` times) or a pair
    ``(lo, hi)`` of ints from 0 to 2**32 - 1 (from ``lo`` to ``hi`` times, ``lo <= hi``,
    ``hi >= 1``): Knuth's DLX3 multiplicities, which :meth:`count`, :meth:`first` and
    :meth:`solutions` take and :meth:`min_cost` and :meth:`pre` refuse. Both are written in
    the DLX text (``1:2|a`` on the item line, ``|5`` after an option) and kept by pickling.

    Raises ``ValueError`` for a repeated or invalid name, an unknown item, an empty option, an
    option without a primary item, a color on a primary item, a number of costs other than
    the number of options, costs that add up past 2**64 - 1, bounds that no count meets or on
    an item that is not primary; ``TypeError`` for values that are not names, ints or pairs.

    A problem pickles (and ``copy.deepcopy`` copies it) with its items, options, option
    numbers and search tree, not its ``stats``: a copy in another process counts the same
    shards (see :meth:`count`).
    """

    def __init__(
        self,
        primary: Names,
        secondary: Optional[Names] = None,
        options: Optional[Union[Iterable[Names], Mapping[Hashable, Names]]] = None,
        costs: Optional[Iterable[int]] = None,
        bounds: Optional[Mapping[Hashable, Union[int, Tuple[int, int]]]] = None,
    ) -> None: ...
    @staticmethod
    def from_dlx(text: Union[str, bytes]) -> "Problem":
        """A problem in Knuth's DLX format: a line of items (primary, then ``|`` and the
        secondary ones), then one option a line; lines starting with ``|`` are comments.

        Raises :class:`DlxParseError` (a ``ValueError``) naming the line and column.
        """
    @staticmethod
    def from_matrix(rows: Union[str, bytes, Iterable[Iterable[Union[int, bool]]]]) -> "Problem":
        """A problem from a 0/1 matrix: every column is a primary item (named ``"1"``,
        ``"2"``...), every row an option (number ``r`` for row ``r``, from 0; rows of zeros
        are options that no solution can take).

        ``rows`` is a sequence of rows of 0/1 values (ints or bools, numpy's too: a 2-D
        numpy array of ints or bools will do; floats will not), or the text format: a line
        ``n m``, then ``n`` rows of ``m`` values (:class:`DlxParseError` names the line and
        column).
        """
    def to_dlx(self) -> str:
        """The problem in Knuth's DLX format (``Problem.from_dlx`` reads it back)."""
    @property
    def primary(self) -> List[Any]:
        """The primary items, in order: their names, or the objects given."""
    @property
    def secondary(self) -> List[Any]:
        """The secondary items, in order: their names, or the objects given."""
    @property
    def options(self) -> List[Any]:
        """Each option, by number: as text (``"a b x:red"``; ``""`` for a row of zeros) when
        the items are names, else as the list of its items (a colored one as the pair
        ``(item, color)``)."""
    @property
    def costs(self) -> List[int]:
        """Each option's cost, by number (0 unless given, and for a row of zeros)."""
    @property
    def bounds(self) -> Dict[Any, Tuple[int, int]]:
        """The bounds ``(lo, hi)`` of the primary items whose bounds are not ``(1, 1)``, by
        name, in declaration order (what ``bounds=`` takes)."""
    @property
    def stats(self) -> Optional[Stats]:
        """The counters of the last search (``None`` before any)."""
    def is_solution(self, options: Iterable[Any]) -> bool:
        """Whether these option numbers form a solution. Numbers are ints >= 0 (a negative
        one is a ``ValueError``); one that numbers no option makes the answer ``False``.
        For options given as a dict, ``options`` are their names."""
    def first(self, heuristic: Heuristic = "mrv") -> Optional[Solution]:
        """The first solution in search order, or ``None``.

        ``heuristic``: ``"mrv"`` (Knuth's: branch on the item with the fewest options) or
        ``"leftmost"`` (the first uncovered primary item).
        """
    def solutions(
        self, limit: Optional[int] = None, heuristic: Heuristic = "mrv"
    ) -> SolutionIterator:
        """All solutions (at most ``limit``, an int from 0 to 2**128 - 1, or ``None``), as a
        lazy iterator: nothing is searched until the first ``next``, and each ``next``
        resumes the search."""
    def count(
        self,
        threads: int = 1,
        heuristic: Heuristic = "mrv",
        max_nodes: Optional[int] = None,
        time_limit: Optional[float] = None,
        method: Method = "auto",
        memo_limit: Optional[int] = None,
        shard: Optional[Tuple[int, int]] = None,
        split_depth: Optional[int] = None,
        output: Optional[StrPath] = None,
    ) -> int:
        """The number of solutions.

        ``threads``: search with this many threads (0: one per core; at most 1024).
        ``max_nodes`` (an int from 0 to 2**64 - 1) and ``time_limit`` (seconds >= 0; ``inf``
        is no limit) bound the search; the count is then a lower bound, and
        ``stats.complete`` is false.

        ``method``: ``"search"`` (the plain search: at least one step per solution),
        ``"memo"`` (the memoised search, Knuth's DLX6: each remaining problem is counted
        once, so 12x12 domino tilings take a fraction of a second), ``"auto"`` (whichever
        pays, decided from the run: the memoised search starts and gives way where it saves
        little, to the count by stages where the options fall into lines, else to the plain
        search) or ``"frontier"`` (the count by stages from both ends: latin squares of
        order 8 in seconds; no ``shard``). With ``threads > 1``,
        ``auto`` picks first, then searches plainly on the threads or counts on one.
        ``memo_limit``: the most bytes of the memo table (an int from 0 to 2**64 - 1;
        ``None``: 2 GiB, or a quarter of the memory if less), past which the table is emptied
        and the count goes on, still exact (but slower: far slower when the table is much
        too small for the problem). ``stats.method`` tells the method used and
        ``stats.memo`` the memo's counters. The count is exact at any size (past 2**128 too); a
        method that does not handle the problem is a ``ValueError`` naming the method, the
        feature and where the problem has it (the engine's capability table).

        ``shard=(i, n)`` (ints, ``0 <= i < n < 2**64``): count only shard ``i`` of ``n``, as
        ``dancecard solve --count --shard I/N --split-depth D`` does. The search tree is cut
        at depth ``split_depth`` (an int from 0 to 1024; ``None``: 4); shard ``i`` takes the
        subtrees there whose index is ``i`` modulo ``n``, and shard 0 also the solutions
        above that depth, so that the ``n`` shards of one ``split_depth`` and ``heuristic``
        add up to the count. A shard is counted by the plain search (``method="memo"`` or
        ``"frontier"`` is a ``ValueError``; ``memo_limit`` is not used), on ``threads`` threads, within
        ``max_nodes`` and ``time_limit``. ``output``: where to write the shard's result, the
        JSON file of ``dancecard solve --shard ... --output FILE`` (with the search's
        fingerprint and a checksum), for :func:`merge` or ``dancecard merge``. It is written
        whole or not at all: a limited count is written as incomplete (merge refuses it),
        Ctrl-C writes nothing, and ``OSError`` says that it cannot be written (before the
        count, when its directory cannot be). ``split_depth`` or ``output`` without
        ``shard`` is a ``ValueError``. A :class:`Problem` pickles, so that the shards can be
        counted in other processes (``multiprocessing``, Dask, a batch scheduler).
        """
    def zdd(self, memo_limit: Optional[int] = None) -> Zdd:
        """The ZDD of all the solutions, built by the memoised search. ``memo_limit`` as for
        :meth:`count`, for the table and the ZDD: a ZDD that alone needs more is a
        ``ValueError`` naming ``memo_limit``."""
    def sample(
        self, k: int, seed: int = 0, memo_limit: Optional[int] = None
    ) -> List[Solution]:
        """``k`` solutions (an int from 0 to 2**24) drawn independently and exactly uniformly
        (with replacement) from the ZDD of all solutions, the same for the same ``seed`` (an
        int from 0 to 2**64 - 1; the same as ``dancecard solve --sample K --seed S``); an
        empty list when there is no solution. Builds the ZDD first (``memo_limit`` as for
        :meth:`zdd`): to draw many times, keep :meth:`zdd` and call its ``sample``."""
    def estimate(
        self, probes: int = 1000, seed: int = 0, heuristic: Heuristic = "mrv"
    ) -> Estimate:
        """Knuth's Monte Carlo estimate of the plain search's tree: ``probes`` random
        root-to-leaf probes (an int from 1 to 10**9), reproducible for ``seed`` (an int from 0
        to 2**64 - 1), each weighted by the product of the branching degrees along its path;
        and the method ``count(method="auto")`` picks, with why. :attr:`stats` is left as it
        was."""
    def min_cost(
        self,
        k: int = 1,
        lower_bound: LowerBound = "auto",
        max_nodes: Optional[int] = None,
        time_limit: Optional[float] = None,
    ) -> List[Tuple[int, Solution]]:
        """The ``k`` least-cost solutions (``k`` an int from 1 to 2**20), by Knuth's DLX5
        (branch and bound on dancing links): ``(cost, solution)`` pairs, least cost first
        (ties in the order found), each solution a sorted list of option numbers as
        :meth:`first` gives it, its cost the sum of its options' :attr:`costs`. Fewer than
        ``k`` pairs when the problem has fewer solutions; ``[]`` when it has none. Two
        solutions of one cost are two pairs.

        ``lower_bound``: ``"auto"`` (the taxes of DLX5 or of the linear relaxation, whichever
        gives the higher bound at the root, and the item shares), ``"relaxation"`` (the
        relaxation's taxes),
        ``"shares"`` (DLX5's rule plus each remaining item's share of its cheapest option:
        fewer nodes, the same answers) or ``"dlx5"`` (DLX5's rule alone: its tree, nodes and
        updates). ``max_nodes`` and ``time_limit`` as for :meth:`count`:
        a search they stop returns the best found, not proven least (``stats.complete`` is
        false). :attr:`stats` is set (``solutions``: the solutions met, each better than the
        ``k``-th best at the time). With ``bounds``, Algorithm M's tree with a cutoff.
        """
    def pre(self, max_rounds: Optional[int] = None) -> "Reduction":
        """Preprocessing, as Knuth's DLX-PRE and ``dancecard pre``: removes, in rounds until
        one changes nothing (at most ``max_rounds``, an int from 0 to 2**32 - 1, or
        ``None``), the options that no solution can use (taking one leaves some primary item
        with no option) and the items that others imply (every option of some primary item
        holds it uncolored).

        Returns a :class:`Reduction`: the reduced problem (options numbered from 0, costs
        kept) and ``origins``, the number here of each of its options. Its solutions, mapped
        back (``sorted(r.origins[k] for k in s)``), are exactly this problem's; its least
        costs are this problem's. A problem with ``bounds`` is a ``ValueError``.
        :attr:`stats` is left as it was.
        """

class Reduction:
    """What :meth:`Problem.pre` made: the reduced problem and what was removed."""

    @property
    def problem(self) -> Problem:
        """The reduced problem: the items and options left (names, order, colors and costs
        kept), its options numbered from 0."""
    @property
    def origins(self) -> List[Any]:
        """For each option of :attr:`problem`, its number in the original problem (in
        increasing order)."""
    @property
    def removed_options(self) -> List[Any]:
        """The options removed (numbers in the original problem), in the order they went."""
    @property
    def removed_items(self) -> List[str]:
        """The items removed (names), in the order they went."""
    @property
    def rounds(self) -> int:
        """The rounds made, the last one (which changed nothing) included."""
    @property
    def complete(self) -> bool:
        """Whether the rounds went on until one changed nothing (``False`` when
        ``max_rounds`` stopped them: what was removed is sound, more might go)."""
    @property
    def infeasible(self) -> Optional[str]:
        """A primary item found in no option, or ``None``: with one, the problem has no
        solution and :attr:`problem` is that item alone."""

def merge(files: Iterable[StrPath]) -> int:
    """The total count of the shard result files ``files`` (an iterable of paths), written by
    :meth:`Problem.count` with ``shard=(i, n)`` and ``output=`` or by ``dancecard solve
    --count --shard I/N --output FILE``, in any mix.

    The files must be every shard of one search (the same problem, heuristic, split depth,
    number of shards and version of dancecard), each exactly once and complete, as ``dancecard
    merge`` checks. A file that cannot be read raises ``OSError``; one that is not an intact
    shard result (not JSON, another kind of file, edited by hand or damaged: its checksum
    does not match) a ``ValueError`` naming it; a set that is not one whole search a
    ``ValueError`` listing every problem (missing, duplicate or incomplete shards, files of
    another search).
    """

def _problem_from_state(
    version: int,
    text: str,
    secondary: Optional[List[str]],
    numbering: Optional[Tuple[List[int], int]],
    labels: Optional[Tuple[Optional[List[Any]], List[Any], Optional[List[Any]]]] = None,
) -> Problem:
    """The :class:`Problem` of a pickle (``Problem.__reduce__``); not for direct use."""

def sudoku_search(
    puzzle: Union[str, Iterable[Iterable[int]]],
    limit: Optional[int] = None,
    method: Literal["fast", "dlx"] = "fast",
    box: Optional[str] = None,
) -> Tuple[int, Optional[List[int]], int, bool]:
    """Solves or counts a sudoku (see :mod:`dancecard.sudoku`): returns the number of
    solutions (at most ``limit``, an int from 0 to 2**64 - 1, or ``None``), the first one's
    values row by row (or ``None``), the grid's side, and whether the count is exact.
    ``puzzle``: text, or rows of ints from 0 (blank) to 32."""

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
    def count(
        self, threads: int = 1, method: Method = "auto", memo_limit: Optional[int] = None
    ) -> int:
        """The number of tilings (``threads``: 0 for one thread per core, at most 1024),
        counted as :meth:`Problem.count` counts (``method``, ``memo_limit``)."""
    def count_distinct(self) -> int:
        """The number of tilings up to the board's symmetries."""
    def count_dp(self) -> int:
        """The number of tilings by the profile dynamic program: much faster on long
        rectangles, for full rectangles and unlimited copies only (else ``ValueError``)."""
    def solutions(self, limit: Optional[int] = None) -> Iterator[List[Placement]]:
        """The tilings (at most ``limit``, an int from 0 to 2**128 - 1, or ``None``), lazily:
        each a list of ``(piece name, cells)``."""
    def decode(self, solution: Iterable[int]) -> List[Placement]:
        """The placements of a solution of :attr:`problem` (or of any set of its options):
        distinct option numbers, else ``ValueError``."""
    def render(self, solution: Iterable[int]) -> str:
        """A solution of :attr:`problem` drawn as text, one letter per piece (distinct option
        numbers, else ``ValueError``)."""

def tile(
    board: Union[str, Tuple[int, int], Sequence[int]],
    pieces: Union[str, Dict[str, Union[str, Iterable[Tuple[int, int]]]]],
    once: bool = False,
    *,
    flips: bool = True,
) -> Tiling:
    """Tilings of ``board`` by ``pieces``.

    ``board``: ``"6x10"``, ``(6, 10)`` (or any pair of ints), or ASCII art (``#`` a cell,
    ``.`` no cell); at most 65,536 cells. ``pieces``: a set name (``"dominoes"``,
    ``"trominoes"``, ``"tetrominoes"``, ``"pentominoes"``, ``"hexominoes"``, ``"monomino"``),
    ASCII art (pieces separated by blank lines, each optionally after a line holding its
    name), or a dict of names to cells ``[(row, column), ...]`` (ints from 0 to 2**63 - 1) or
    to art. ``once``: use every piece exactly once (else any number of copies). ``flips``:
    whether pieces may be turned over.

    Raises ``ValueError`` for a bad board or piece, or pieces that cannot cover the board's
    area.
    """

def target_sudoku(
    grid: Union[str, Sequence[Sequence[int]]],
) -> Optional[Tuple[int, List[List[int]]]]:
    """The target sudoku (NOIP 2009): the completion of a 9x9 sudoku with the largest score,
    the sum of digit times weight (10 on the centre square, one less per ring out, 6 on the
    border). ``grid``: 9 lines of 9 digits (``0`` or ``.`` blank) or 9 rows of 9 ints from 0
    to 9.
    Returns ``(score, grid)``, or ``None`` when the puzzle has no completion."""

def queens_count(n: int, threads: int = 1, distinct: bool = False) -> int:
    """N-queens solutions (``n`` from 1 to 32), or with ``distinct`` those distinct up to
    symmetry (see :mod:`dancecard.queens`)."""

def queens_solutions(n: int) -> SolutionIterator:
    """N-queens solutions (``n`` from 1 to 32), lazily, in lexicographic order (see
    :mod:`dancecard.queens`)."""

def queens_problem(n: int) -> Problem:
    """The exact cover model of N-queens (``n`` from 1 to 256; see :mod:`dancecard.queens`)."""

def slide_solve(
    state: Union[str, Iterable[int], Iterable[Iterable[int]]],
    goal: Literal["blank-first", "blank-last"] = "blank-first",
    heuristic: Literal["manhattan", "linear-conflict", "pdb"] = "linear-conflict",
    algorithm: Literal["ida", "astar", "bidir", "bfs", "iddfs"] = "ida",
    max_nodes: Optional[int] = None,
) -> Optional[Tuple[int, str, List[int], int, int]]:
    """Solves a sliding-tile position (see :mod:`dancecard.slide`): ``(length, moves, tiles,
    expanded, generated)``, or ``None`` if the goal cannot be reached. ``max_nodes``: an int
    from 0 to 2**64 - 1, or ``None``."""
