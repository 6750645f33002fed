"""dancecard: exact cover by Knuth's Dancing Links, at Rust speed.

The search runs in Rust (the ``dancecard`` engine); this package builds problems from
Python values, hands out solutions as lists of option numbers, and wraps the puzzle models.

- :class:`Problem`: an exact cover problem from item names and options (``"x:red"`` gives
  secondary item ``x`` the color ``red``), from Knuth's DLX text (:meth:`Problem.from_dlx`) or
  from a 0/1 matrix (:meth:`Problem.from_matrix`). Search it with :meth:`Problem.first`,
  :meth:`Problem.solutions` (a lazy iterator) and :meth:`Problem.count` (by the plain search or
  by memoisation, Knuth's DLX6: ``method``); :attr:`Problem.stats` tells what the last search
  cost.
- Counting at the limit: :meth:`Problem.zdd` (a :class:`Zdd` of all solutions, to count, list
  and write in Knuth's format), :meth:`Problem.sample` (solutions drawn exactly uniformly) and
  :meth:`Problem.estimate` (Knuth's estimate of the search tree, an :class:`Estimate`).
- Counting on many machines: :meth:`Problem.count` with ``shard=(i, n)`` counts one shard of
  a search (and writes its result file with ``output=``), and :func:`merge` adds up the result
  files of all the shards, checking that they make one whole search; the files are those of
  ``dancecard solve --count --shard I/N --output FILE`` and ``dancecard merge``, and a
  :class:`Problem` pickles, so that ``multiprocessing``, Dask or a batch scheduler can take it.
- Costs and preprocessing: ``Problem(..., costs=[...])`` gives each option a cost, and
  :meth:`Problem.min_cost` finds the ``k`` least-cost solutions (Knuth's DLX5);
  ``bounds={"x": (lo, hi)}`` lets a primary item be covered from ``lo`` to ``hi`` times
  (Knuth's DLX3); :meth:`Problem.pre` removes the options no solution can use (Knuth's
  DLX-PRE) and returns a :class:`Reduction`.
- :mod:`dancecard.sudoku`: solve, count and check sudoku of any box shape.
- :mod:`dancecard.queens`: count and list N-queens solutions.
- :func:`tile`: polyomino tilings of a board (a :class:`Tiling`, to count and list).
- :func:`target_sudoku`: the sudoku completion of maximum weighted score.
- :mod:`dancecard.slide`: sliding-tile puzzles solved optimally (IDA* and others).

Every search releases the GIL, and Ctrl-C (``KeyboardInterrupt``) stops it within a fraction
of a second.

Every argument is checked: a value of the wrong type raises ``TypeError``, a value out of
range or text that does not parse ``ValueError`` (for problem text, :class:`DlxParseError`,
with the line and column). The message names the argument and says what was expected and
what was given: ``argument 'threads': expected an int from 0 (one per core) to 1024, got -1``.
Where an int is expected, numpy's integers will do, but not ``bool``, floats or arrays; where a
sequence is expected, any iterable but ``str`` and ``bytes`` will do, numpy arrays included.

Example: Knuth's toy problem has exactly one solution.

>>> import dancecard
>>> p = dancecard.Problem("a b c d e f g",
...                       options=["c e", "a d g", "b c f", "a d f", "b g", "d e g"])
>>> p.first()
[0, 3, 4]
>>> [p.options[k] for k in p.first()]
['c e', 'a d f', 'b g']
>>> p.count()
1
"""

from . import queens, slide, sudoku
from ._native import (
    DlxParseError,
    Estimate,
    MemoStats,
    Problem,
    Reduction,
    SolutionIterator,
    Stats,
    Tiling,
    Zdd,
    __version__,
    merge,
    target_sudoku,
    tile,
)

__all__ = [
    "DlxParseError",
    "Estimate",
    "MemoStats",
    "Problem",
    "Reduction",
    "SolutionIterator",
    "Stats",
    "Tiling",
    "Zdd",
    "__version__",
    "merge",
    "queens",
    "slide",
    "sudoku",
    "target_sudoku",
    "tile",
]
