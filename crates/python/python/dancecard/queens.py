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
    """The number of ways to place ``n`` queens on an ``n x n`` board, no two attacking.

    Counted by the bit-set counter of the ``dancecard`` models (Knuth's bitwise backtrack),
    with the GIL released; Ctrl-C stops it.

    Arguments:
        n: the side of the board, an int from 1 to 32 (:data:`MAX_N`).
        distinct: count the solutions up to the board's eight symmetries (rotations and
            reflections) instead of all of them.
        threads: threads to count on, 0 for one per core (at most 1024).

    Returns:
        The count: OEIS A000170, or with ``distinct`` A002562.

    Raises:
        ValueError: unless ``1 <= n <= 32`` and ``0 <= threads <= 1024``.
        TypeError: unless ``n`` and ``threads`` are ints (not bools) and ``distinct`` a
            bool.

    Example:
        >>> from dancecard import queens
        >>> queens.count(8), queens.count(8, distinct=True)
        (92, 12)
    """
    return _native.queens_count(n, threads, distinct)


def solutions(n: int) -> Iterator[List[int]]:
    """Every solution of ``n``-queens, lazily, in lexicographic order.

    Arguments:
        n: the side of the board, an int from 1 to 32 (:data:`MAX_N`).

    Returns:
        A :class:`dancecard.SolutionIterator` of solutions, each a list of ``n`` ints: the
        file (column, from 0) of the queen on each rank (row). Taking a few solutions
        computes no more than those.

    Raises:
        ValueError: unless ``1 <= n <= 32``.
        TypeError: unless ``n`` is an int (not a bool).

    Example:
        >>> from dancecard import queens
        >>> next(queens.solutions(6))
        [1, 3, 5, 0, 2, 4]
    """
    return _native.queens_solutions(n)


def problem(n: int) -> Problem:
    """The exact cover model of ``n``-queens, to search with :class:`dancecard.Problem`'s
    methods.

    Ranks and files are primary items (in organ-pipe order, as Knuth orders them),
    diagonals secondary (a diagonal holds at most one queen).

    Arguments:
        n: the side of the board, an int from 1 to 256.

    Returns:
        A :class:`dancecard.Problem` whose option ``rank * n + file`` puts a queen on that
        square.

    Raises:
        ValueError: unless ``1 <= n <= 256``.
        TypeError: unless ``n`` is an int (not a bool).

    Example:
        >>> from dancecard import queens
        >>> p = queens.problem(6)
        >>> p.count(), p.first()
        (4, [1, 9, 17, 18, 26, 34])
    """
    return _native.queens_problem(n)
