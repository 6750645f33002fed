"""dancecard.slide against Korf's optimal lengths and a pure-Python BFS on the 8-puzzle."""

import random
from collections import deque

import pytest

from dancecard import slide
from conftest import read_tsv


def neighbours(state, n):
    blank = state.index(0)
    r, c = divmod(blank, n)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < n and 0 <= c + dc < n:
            other = (r + dr) * n + c + dc
            s = list(state)
            s[blank], s[other] = s[other], s[blank]
            yield tuple(s)


def distances(goal, n):
    """Moves from every reachable state to `goal`, by breadth-first search (moves reverse)."""
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        s = queue.popleft()
        for t in neighbours(s, n):
            if t not in dist:
                dist[t] = dist[s] + 1
                queue.append(t)
    return dist


def replay(state, moves, n):
    state = list(state)
    step = {"U": -n, "D": n, "L": -1, "R": 1}
    slid = []
    for m in moves:
        blank = state.index(0)
        other = blank + step[m]
        slid.append(state[other])
        state[blank], state[other] = state[other], state[blank]
    return state, slid


@pytest.fixture(scope="module")
def eight_puzzle_distances():
    return distances(tuple(range(9)), 3)


@pytest.mark.parametrize("heuristic, algorithm", [
    ("manhattan", "ida"), ("linear-conflict", "ida"), ("pdb", "ida"),
    ("linear-conflict", "astar"), ("manhattan", "bidir"), ("manhattan", "bfs"),
])
def test_eight_puzzle_against_bfs(eight_puzzle_distances, heuristic, algorithm):
    rng = random.Random(7)
    states = rng.sample(sorted(eight_puzzle_distances), 15)
    for state in states:
        found = slide.solve(list(state), heuristic=heuristic, algorithm=algorithm)
        assert found.length == eight_puzzle_distances[state] == len(found.moves)
        end, slid = replay(state, found.moves, 3)
        assert end == list(range(9)) and slid == found.tiles


def test_unreachable_and_forms():
    # Swapping two tiles changes the parity: the goal cannot be reached.
    assert slide.solve("1 0 2 3 4 5 6 8 7") is None
    rows = [[1, 2, 3], [4, 5, 6], [0, 7, 8]]
    assert slide.solve(rows, goal="blank-last").moves == "RR"
    assert slide.solve("0 1 2 3").length == 0


@pytest.mark.parametrize("row", [r for r in read_tsv("korf100_15puzzle.tsv")
                                 if r["opt_len"] and int(r["opt_len"]) <= 50])
def test_korf_instances(row):
    found = slide.solve(row["state"], heuristic="pdb")
    assert found.length == int(row["opt_len"])
    end, _ = replay([int(x) for x in row["state"].split()], found.moves, 4)
    assert end == list(range(16))


def test_errors():
    with pytest.raises(ValueError, match="do not make a square board"):
        slide.solve("1 2 3")
    with pytest.raises(ValueError, match="0 to 8 once each: 3 twice"):
        slide.solve("1 2 3 3 4 5 6 7 0")
    with pytest.raises(ValueError, match="not a tile number"):
        slide.solve("1 2 x 0")
    with pytest.raises(ValueError, match="^argument 'heuristic': expected .*, got \"best\"$"):
        slide.solve("0 1 2 3", heuristic="best")
    with pytest.raises(ValueError, match="^argument 'goal': expected \"blank-first\" or \"blank-last\", got \"middle\"$"):
        slide.solve("0 1 2 3", goal="middle")
    with pytest.raises(ValueError, match="^argument 'algorithm': expected "):
        slide.solve("0 1 2 3", algorithm="dfs")
    # BFS on a far state: the algorithm is the argument to change.
    with pytest.raises(ValueError, match="^argument 'algorithm': bfs would store about .* use IDA\\*$"):
        slide.solve("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", algorithm="bfs")
    with pytest.raises(RuntimeError, match="node limit"):
        slide.solve("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", max_nodes=1000)
    with pytest.raises(TypeError):
        slide.solve(3.0)
    # Ragged rows are refused, even when their tiles would make a square board.
    with pytest.raises(ValueError, match="row 1 has 3 tiles, but there are 2 rows"):
        slide.solve([[1, 2, 3], [4, 5, 6, 7, 8, 0]])
    with pytest.raises(ValueError, match="row 3 has 2 tiles, but there are 3 rows"):
        slide.solve([[1, 2, 3], [4, 5, 6], [7, 0]])
