"""N-queens: place n queens on an n x n board, no two attacking each other.

:func:`count` uses the bit-set counter of the ``dancecard`` models (it also counts up to the
board's eight symmetries); :func:`solutions` enumerates boards lazily in lexicographic order;
:func:`problem` gives the exact cover model, to search with :class:`dancecard.Problem`'s
methods.

>>> from dancecard import queens
>>> queens.count(8)
92
>>> queens.count(8, distinct=True)
12
>>> next(queens.solutions(8))
[0, 4, 7, 5, 2, 6, 1, 3]
"""

from typing import Iterator, List

from . import _native
from ._native import Problem

__all__ = ["count", "solutions", "problem", "MAX_N"]

MAX_N = 32
"""The largest board of :func:`count` and :func:`solutions` (one bit per file)."""


def count(n: int, *, distinct: bool = False, threads: int = 1) -> int:
    """The number of solutions on an ``n x n`` board (OEIS A000170), or with ``distinct``
    the number up to rotations and reflections (A002562). ``threads=0`` uses every core
    (at most 1024).

    Raises ``ValueError`` unless ``1 <= n <= 32`` and ``0 <= threads <= 1024``;
    ``TypeError`` unless ``n`` and ``threads`` are ints (not bools) and ``distinct`` a bool.
    """
    return _native.queens_count(n, threads, distinct)


def solutions(n: int) -> Iterator[List[int]]:
    """Every solution, lazily, in lexicographic order: the file (column, from 0) of the queen
    on each rank (row). Raises ``ValueError`` unless ``1 <= n <= 32`` (``TypeError`` unless
    ``n`` is an int)."""
    return _native.queens_solutions(n)


def problem(n: int) -> Problem:
    """The exact cover model: ranks and files are primary items, diagonals secondary; option
    ``rank * n + file`` puts a queen on that square. Raises ``ValueError`` unless
    ``1 <= n <= 256``."""
    return _native.queens_problem(n)
