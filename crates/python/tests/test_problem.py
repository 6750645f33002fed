"""The Problem API, and the engine against the pure-Python oracle on random problems."""

import random

import pytest

import dancecard
from conftest import INSTANCES, domino_options, random_problem
from oracle import solve_all

TOY_OPTIONS = ["c e", "a d g", "b c f", "a d f", "b g", "d e g"]


def toy():
    return dancecard.Problem("a b c d e f g", options=TOY_OPTIONS)


def test_toy_problem():
    p = toy()
    assert p.primary == list("abcdefg")
    assert p.secondary == []
    assert p.options == TOY_OPTIONS
    assert p.stats is None
    assert p.first() == [0, 3, 4]
    assert p.count() == 1
    assert list(p.solutions()) == [[0, 3, 4]]
    assert p.is_solution([4, 0, 3])
    assert not p.is_solution([0, 3])
    assert not p.is_solution([0, 3, 4, 99])
    assert repr(p) == "Problem(primary=7, secondary=0, options=6)"


def test_names_as_lists_or_strings():
    a = dancecard.Problem(["a", "b", "c", "d", "e", "f", "g"], options=[o.split() for o in TOY_OPTIONS])
    b = dancecard.Problem(iter("abcdefg"), options=(o for o in TOY_OPTIONS))
    assert a.to_dlx() == b.to_dlx() == toy().to_dlx()


def test_stats_follow_knuth_counts_on_the_toy_problem():
    p = toy()
    assert p.count() == 1
    s = p.stats
    # DLX1 on the toy problem: 6 nodes (root, three levels, the solution, a dead end...).
    assert (s.nodes, s.solutions, s.complete, s.stop) == (6, 1, True, "exhausted")
    assert s.updates > 0 and s.seconds >= 0
    assert "nodes=6" in repr(s)


def test_secondary_items_and_colors():
    # x may be shared by options that give it the same color, but not used plainly twice.
    p = dancecard.Problem("a b", secondary="x", options=["a x:red", "b x:red", "b x:blue", "b x"])
    assert p.secondary == ["x"]
    assert sorted(p.solutions()) == [[0, 1]]
    q = dancecard.Problem("a b", secondary=["x"], options=[["a", "x"], ["b", "x"], ["b"]])
    assert sorted(q.solutions()) == [[0, 2]]


def test_no_primary_item_has_the_empty_solution():
    p = dancecard.Problem([])
    assert p.count() == 1
    assert p.first() == []


def test_dlx_round_trip():
    text = (INSTANCES / "queens8.dlx").read_text()
    p = dancecard.Problem.from_dlx(text)
    again = dancecard.Problem.from_dlx(p.to_dlx())
    assert again.to_dlx() == p.to_dlx()
    assert p.count() == again.count() == 92
    assert dancecard.Problem.from_dlx(text.encode()).count() == 92


def test_matrix_from_rows_and_text():
    rows = [
        [0, 0, 1, 0, 1, 0, 0],
        [1, 0, 0, 1, 0, 0, 1],
        [0, 0, 0, 0, 0, 0, 0],
        [0, 1, 1, 0, 0, 1, 0],
        [1, 0, 0, 1, 0, 1, 0],
        [0, 1, 0, 0, 0, 0, 1],
        [0, 0, 0, 1, 1, 0, 1],
    ]
    p = dancecard.Problem.from_matrix(rows)
    # Row numbers are kept, the row of zeros included.
    assert p.first() == [0, 4, 5]
    assert p.options[2] == "" and p.options[0] == "3 5"
    assert p.is_solution([0, 4, 5])
    text = "7 7\n" + "\n".join(" ".join(map(str, r)) for r in rows) + "\n"
    q = dancecard.Problem.from_matrix(text)
    assert q.first() == [0, 4, 5]
    assert len(q.options) == 7
    assert dancecard.Problem.from_matrix([[True, False], [False, True]]).count() == 1


def test_heuristics_and_threads_agree():
    cells, options = domino_options(4, 5)
    p = dancecard.Problem(cells, options=options)
    assert p.count() == 95
    mrv_nodes = p.stats.nodes
    assert p.count(heuristic="leftmost") == 95
    assert p.count(threads=2) == 95
    assert p.stats.nodes == mrv_nodes
    assert p.count(threads=0) == 95
    assert sorted(p.solutions(heuristic="leftmost")) == sorted(p.solutions())
    assert p.first(heuristic="leftmost") is not None


def test_limits():
    p = dancecard.Problem.from_dlx((INSTANCES / "domino8x8.dlx").read_text())
    # The plain search's limits (auto would count 8x8 by memo in 2,317 nodes:
    # test_counting.py has the memoised search's).
    lower = p.count(max_nodes=10_000, method="search")
    assert 0 < lower < 12_988_816
    assert (p.stats.complete, p.stats.stop) == (False, "node_limit")
    assert p.stats.nodes == 10_000
    p.count(time_limit=0.05, method="search")
    assert (p.stats.complete, p.stats.stop) == (False, "time_limit")
    assert len(list(p.solutions(limit=5))) == 5
    assert list(p.solutions(limit=0)) == []


@pytest.mark.parametrize("seed", range(400))
def test_random_problems_against_the_oracle(seed):
    rng = random.Random(seed)
    primary, secondary, options = random_problem(rng)
    expected = sorted(solve_all(primary, secondary, options))
    p = dancecard.Problem(primary, secondary, options)
    found = list(p.solutions())
    assert sorted(found) == expected
    assert len(set(map(tuple, found))) == len(found), "a solution was reported twice"
    assert all(p.is_solution(s) for s in found)
    assert p.count() == len(expected)
    assert p.stats.solutions == len(expected) and p.stats.complete
    assert p.count(threads=2) == len(expected)
    first = p.first()
    assert (first is None) == (not expected)
    assert first is None or first in expected
    # The DLX text says the same problem.
    q = dancecard.Problem.from_dlx(p.to_dlx())
    assert sorted(q.solutions(heuristic="leftmost")) == expected
