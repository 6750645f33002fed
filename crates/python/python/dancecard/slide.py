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
    """An optimal solution of a sliding-tile position, as :func:`solve` returns it.

    Fields: ``length`` (the number of moves, optimal), ``moves`` (the moves of the blank,
    one letter each: ``U``, ``D``, ``L``, ``R``), ``tiles`` (the tile slid by each move),
    ``expanded`` and ``generated`` (search nodes whose successors were computed, and
    search nodes generated).

    Example:
        >>> from dancecard import slide
        >>> s = slide.solve("1 2 3 4 5 6 0 7 8", goal="blank-last")
        >>> s.length, s.moves, s.tiles
        (2, 'RR', [7, 8])
    """

    length: int
    moves: str
    tiles: List[int]
    expanded: int
    generated: int


def solve(
    state: State,
    *,
    goal: str = "blank-first",
    heuristic: str = "linear-conflict",
    algorithm: str = "ida",
    max_nodes: Optional[int] = None,
) -> Optional[Solution]:
    """An optimal solution of a sliding-tile position (the 8-, 15- or 24-puzzle).

    The search releases the GIL and stops on Ctrl-C (``KeyboardInterrupt``).

    Arguments:
        state: the tiles row by row, 0 for the blank: a string of numbers, a flat sequence
            of ints, or rows (numpy arrays will do); sides 2 to 5 (:data:`State`).
        goal: ``"blank-first"`` (``0 1 2 ...``, Korf's) or ``"blank-last"``
            (``1 2 ... 0``).
        heuristic: ``"manhattan"``, ``"linear-conflict"`` or ``"pdb"`` (an additive pattern
            database, built in a few seconds on first use, then kept).
        algorithm: ``"ida"`` (IDA*), ``"astar"``, ``"bidir"`` (bidirectional BFS),
            ``"bfs"`` or ``"iddfs"``.
        max_nodes: the most nodes to expand, an int from 0 to 2**64 - 1, or ``None`` (no
            limit).

    Returns:
        A :class:`Solution`, or ``None`` if the goal cannot be reached (the parity of the
        permutation).

    Raises:
        ValueError: for a state that is not a permutation of a square board, an unknown
            ``goal``, ``heuristic`` or ``algorithm``, or when BFS would need too much
            memory.
        TypeError: for arguments of the wrong type.
        RuntimeError: when ``max_nodes`` runs out.

    Example:
        >>> from dancecard import slide
        >>> slide.solve([[1, 2], [0, 3]], goal="blank-last").moves
        'R'
        >>> slide.solve("1 2 3 4 5 6 8 7 0") is None  # two tiles swapped: odd parity
        True
    """
    found = _native.slide_solve(state, goal, heuristic, algorithm, max_nodes)
    return None if found is None else Solution(*found)


# The fields' documentation, for help() (a NamedTuple's fields say "Alias for field number").
for _field, _doc in [
    ("length", "The number of moves (optimal)."),
    ("moves", "The moves of the blank, one letter each: ``U``, ``D``, ``L``, ``R``."),
    ("tiles", "The tile slid by each move."),
    ("expanded", "Search nodes whose successors were computed."),
    ("generated", "Search nodes generated."),
]:
    getattr(Solution, _field).__doc__ = _doc
del _field, _doc
