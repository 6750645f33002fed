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
    """The first solution of a sudoku, in the puzzle's own form.

    Arguments:
        puzzle: a line of symbols (``.`` or ``0`` blank), a text grid of numbers, or rows of
            ints from 0 (blank) to 32 (:data:`Puzzle`; a 2-D numpy array will do).
        box: the box shape ``"RxC"`` for rectangular boxes (``"2x3"`` for 6x6), or ``None``
            for square boxes.
        method: ``"fast"`` (the dedicated solver) or ``"dlx"`` (the exact cover model on
            dancing links); both give the same answers.

    Returns:
        The solution as a line of symbols for a string puzzle, as rows of ints
        (:data:`Rows`) for rows; ``None`` if the puzzle has no solution.

    Raises:
        ValueError: for a puzzle that cannot be read or whose givens clash (with the
            reason, and where for text), or an unknown ``method`` or bad ``box``.
        TypeError: for a puzzle of another type (``bytes``, rows of floats).

    Example:
        >>> from dancecard import sudoku
        >>> sudoku.solve("..3..41.2....3..")
        '1234341221434321'
        >>> sudoku.solve([[0, 0, 3, 0], [0, 4, 1, 0], [2, 0, 0, 0], [0, 3, 0, 0]])
        [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
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
    """The number of solutions of a sudoku, counting up to ``limit`` if given.

    Counting a puzzle with few givens can take very long: give a ``limit``, or stop it with
    Ctrl-C (the count releases the GIL).

    Arguments:
        puzzle: as for :func:`solve`.
        limit: stop counting at this many solutions, an int from 0 to 2**64 - 1, or
            ``None`` (count them all).
        box: as for :func:`solve`.
        method: as for :func:`solve`.

    Returns:
        The number of solutions (at most ``limit``).

    Raises:
        ValueError: as for :func:`solve`, and for a ``limit`` out of range.
        TypeError: as for :func:`solve`, and for a ``limit`` that is not an int.

    Example:
        >>> from dancecard import sudoku
        >>> sudoku.count("." * 16)  # the empty 4x4 grid
        288
        >>> sudoku.count("." * 81, limit=10)
        10
    """
    solutions, _, _, _ = _search(puzzle, limit, box, method)
    return solutions


def is_unique(puzzle: Puzzle, *, box: Optional[str] = None, method: str = "fast") -> bool:
    """Whether a sudoku has exactly one solution (a count up to 2).

    Arguments:
        puzzle, box, method: as for :func:`solve`.

    Returns:
        ``True`` if the puzzle has exactly one solution, ``False`` if it has none or more.

    Raises:
        ValueError, TypeError: as for :func:`solve`.

    Example:
        >>> from dancecard import sudoku
        >>> sudoku.is_unique("..3..41.2....3.."), sudoku.is_unique("." * 16)
        (True, False)
    """
    return count(puzzle, 2, box=box, method=method) == 1
