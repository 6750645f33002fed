"""Sliding-tile puzzles (the 8-, 15- and 24-puzzle), solved optimally.

A state is the tiles row by row, ``0`` for the blank: a string of numbers
(``"1 2 3 4 5 6 0 7 8"``), a flat sequence of ints, or rows (numpy arrays will do). Sides 2
to 5.

:func:`solve` returns the moves of the blank (``U``, ``D``, ``L``, ``R``) to the goal, by IDA*
(or A*, BFS, bidirectional BFS, IDDFS) with the Manhattan distance, linear conflicts, or an
additive pattern database (built in a few seconds on first use, then kept). Long searches
release the GIL and stop on Ctrl-C.

>>> from dancecard import slide
>>> slide.solve("1 2 3 4 5 6 0 7 8", goal="blank-last")
Solution(length=2, moves='RR', tiles=[7, 8], expanded=2, generated=4)
"""

from typing import List, NamedTuple, Optional, Sequence, Union

from . import _native

__all__ = ["Solution", "solve", "State"]

State = Union[str, Sequence[int], Sequence[Sequence[int]]]
"""A position: numbers in a string, a flat sequence, or rows (as many numbers in each row as
there are rows); 0 is the blank."""


class Solution(NamedTuple):
    """An optimal solution."""

    length: int
    """The number of moves (optimal)."""
    moves: str
    """The moves of the blank, one letter each: ``U``, ``D``, ``L``, ``R``."""
    tiles: List[int]
    """The tile slid by each move."""
    expanded: int
    """Search nodes whose successors were computed."""
    generated: int
    """Search nodes generated."""


def solve(
    state: State,
    *,
    goal: str = "blank-first",
    heuristic: str = "linear-conflict",
    algorithm: str = "ida",
    max_nodes: Optional[int] = None,
) -> Optional[Solution]:
    """An optimal solution of ``state``, or ``None`` if the goal cannot be reached (parity).

    ``goal``: ``"blank-first"`` (``0 1 2 ...``, Korf's) or ``"blank-last"`` (``1 2 ... 0``).
    ``heuristic``: ``"manhattan"``, ``"linear-conflict"`` or ``"pdb"``. ``algorithm``:
    ``"ida"``, ``"astar"``, ``"bidir"``, ``"bfs"`` or ``"iddfs"``.

    ``max_nodes``: an int from 0 to 2**64 - 1, or ``None`` (no limit).

    Raises ``ValueError`` for a state that is not a permutation of a square board, an unknown
    ``goal``, ``heuristic`` or ``algorithm``, or when BFS would need too much memory;
    ``TypeError`` for arguments of the wrong type; ``RuntimeError`` when ``max_nodes`` runs
    out.
    """
    found = _native.slide_solve(state, goal, heuristic, algorithm, max_nodes)
    return None if found is None else Solution(*found)
