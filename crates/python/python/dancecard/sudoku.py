"""Sudoku of any box shape: solve, count, check uniqueness.

A puzzle is either a string or rows of numbers:

- a line of symbols, row by row: ``.`` or ``0`` for a blank, ``1``-``9`` then ``A``-``Z`` for
  larger values (16, 81, 256 or 625 cells give 4x4 to 25x25 grids with square boxes);
- a text grid of whitespace-separated numbers, one row a line (``0`` for blanks);
- a sequence of rows, each a sequence of ints from 0 (blank) to 32 (a 2-D numpy array of
  ints will do).

Rectangular boxes need ``box="RxC"`` (``box="2x3"`` for a 6x6 grid of 2-row, 3-column boxes).
``method="fast"`` (the default) uses the dedicated solver (bit sets, propagation; for 9x9 a
band-oriented bitboard solver); ``method="dlx"`` the exact cover model on the dancing-links
engine. Both give the same answers.

A puzzle that cannot be read, or whose givens clash, raises ``ValueError`` with the reason
(and where, for text); a puzzle of another type (``bytes``, rows of floats) ``TypeError``.
``limit`` is an int from 0 to 2**64 - 1, or ``None``. Long counts release the GIL and stop on
Ctrl-C.

>>> from dancecard import sudoku
>>> line = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
>>> sudoku.solve(line)
'483921657967345821251876493548132976729564138136798245372689514814253769695417382'
>>> sudoku.is_unique(line)
True
>>> sudoku.count("." * 16)  # the empty 4x4 grid
288
"""

from typing import List, Optional, Sequence, Union, overload

from . import _native

__all__ = ["solve", "count", "is_unique", "Rows", "Puzzle"]

Rows = List[List[int]]
"""A grid as rows of ints (0 for a blank)."""

Puzzle = Union[str, Sequence[Sequence[int]]]
"""A puzzle: a line of symbols, a text grid of numbers, or rows of ints."""

_SYMBOLS = ".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _search(puzzle: Puzzle, limit: Optional[int], box: Optional[str], method: str):
    return _native.sudoku_search(puzzle, limit, method, box)


@overload
def solve(puzzle: str, *, box: Optional[str] = None, method: str = "fast") -> Optional[str]: ...
@overload
def solve(
    puzzle: Sequence[Sequence[int]], *, box: Optional[str] = None, method: str = "fast"
) -> Optional[Rows]: ...
def solve(
    puzzle: Puzzle, *, box: Optional[str] = None, method: str = "fast"
) -> Union[str, Rows, None]:
    """The first solution of ``puzzle``, or ``None`` if it has none.

    The solution has the puzzle's form: a line of symbols for a string puzzle, rows of ints
    for rows.
    """
    _, values, side, _ = _search(puzzle, 1, box, method)
    if values is None:
        return None
    if isinstance(puzzle, str):
        return "".join(_SYMBOLS[v] for v in values)
    return [list(values[r * side : (r + 1) * side]) for r in range(side)]


def count(
    puzzle: Puzzle, limit: Optional[int] = None, *, box: Optional[str] = None, method: str = "fast"
) -> int:
    """The number of solutions of ``puzzle``, counting up to ``limit`` if given.

    Counting a puzzle with few givens can take very long: give a ``limit``, or stop it with
    Ctrl-C.
    """
    solutions, _, _, _ = _search(puzzle, limit, box, method)
    return solutions


def is_unique(puzzle: Puzzle, *, box: Optional[str] = None, method: str = "fast") -> bool:
    """Whether ``puzzle`` has exactly one solution (a count up to 2)."""
    return count(puzzle, 2, box=box, method=method) == 1
