"""Costs, bounds and preprocessing from Python (#19): ``Problem(costs=..., bounds=...)``,
``Problem.min_cost`` (Knuth's DLX5) and ``Problem.pre`` (Knuth's DLX-PRE).

Ground truth: the instances' best costs (testdata/instances/cost_*.dlx, from the engine's
tests), DLX5's own nodes and updates on cost_pent6x10, DLX-PRE's figures on pent6x10 (144 of
2056 options removed in 2 rounds, 9356 solutions left); and, on small problems, a brute-force
oracle (oracle.py: every solution, then their costs sorted) and every permutation of an
assignment problem.
"""

import copy
import itertools
import pickle
import random

import pytest

import dancecard
from conftest import INSTANCES, random_problem
from oracle import solve_all


def instance(name):
    return dancecard.Problem.from_dlx((INSTANCES / f"{name}.dlx").read_text())


def check_pairs(p, pairs):
    """Each pair is (the sum of its options' costs, a solution), least cost first, no solution
    twice."""
    costs = p.costs
    for cost, solution in pairs:
        assert p.is_solution(solution), solution
        assert solution == sorted(solution)
        assert cost == sum(costs[k] for k in solution)
    assert [c for c, _ in pairs] == sorted(c for c, _ in pairs)
    assert len({tuple(s) for _, s in pairs}) == len(pairs)


# --- Ground truth ---------------------------------------------------------------------------


@pytest.mark.parametrize("lower_bound", ["auto", "relaxation", "shares", "dlx5"])
def test_cost_domino6x6_best_three(lower_bound):
    p = instance("cost_domino6x6")
    pairs = p.min_cost(3, lower_bound=lower_bound)
    assert [c for c, _ in pairs] == [43, 44, 46]
    check_pairs(p, pairs)
    assert p.stats.complete and p.stats.stop == "exhausted"
    assert p.min_cost()[0] == pairs[0]


def test_cost_pent6x10_best_three():
    p = instance("cost_pent6x10")
    pairs = p.min_cost(3)
    assert [c for c, _ in pairs] == [235, 253, 259]
    check_pairs(p, pairs)
    shares = p.stats
    assert shares.complete and shares.stop == "exhausted"
    # auto says what it chose and why: the ascent's first steps leave a wide gap here.
    assert shares.reason.startswith("relaxation: 250 steps of the ascent"), shares.reason
    assert "the ascent stops there" in shares.reason
    # DLX5's own tree, counted as DLX5 counts it.
    assert [c for c, _ in p.min_cost(3, lower_bound="dlx5")] == [235, 253, 259]
    assert (p.stats.nodes, p.stats.updates) == (204170, 67853551)
    assert p.stats.complete and p.stats.solutions >= 3
    # The item shares cut the tree, not the answer.
    assert shares.nodes <= p.stats.nodes


def test_limits_stop_a_cost_search():
    p = instance("cost_pent6x10")
    pairs = p.min_cost(3, max_nodes=1000)
    check_pairs(p, pairs)
    assert (p.stats.stop, p.stats.complete, p.stats.nodes) == ("node_limit", False, 1000)
    pairs = p.min_cost(3, time_limit=0)
    check_pairs(p, pairs)
    assert (p.stats.stop, p.stats.complete) == ("time_limit", False)
    # A limit the search does not reach changes nothing.
    assert [c for c, _ in p.min_cost(3, max_nodes=10**9, time_limit=600)] == [235, 253, 259]
    assert p.stats.complete


def test_the_toy_with_costs():
    # Knuth's toy problem: one solution, options 0, 3 and 4.
    p = dancecard.Problem("a b c d e f g",
                          options=["c e", "a d g", "b c f", "a d f", "b g", "d e g"],
                          costs=[1, 2, 3, 4, 5, 6])
    assert p.costs == [1, 2, 3, 4, 5, 6]
    assert p.min_cost() == [(10, [0, 3, 4])]
    assert p.min_cost(5) == [(10, [0, 3, 4])]
    assert p.stats.complete and p.stats.solutions == 1


def test_degenerate_problems():
    # No primary item: the empty solution, of cost 0 (as first() finds it).
    assert dancecard.Problem("").min_cost() == [(0, [])]
    assert dancecard.Problem("", secondary="x").min_cost(2) == [(0, [])]
    # No solution.
    assert dancecard.Problem("a b", options=["a"], costs=[3]).min_cost() == []
    assert dancecard.Problem("a").min_cost() == []
    # Costs 0: every solution costs 0.
    p = dancecard.Problem("a b", options=["a", "b", "a b"])
    assert p.costs == [0, 0, 0]
    assert sorted(s for _, s in p.min_cost(5)) == [[0, 1], [2]]
    assert [c for c, _ in p.min_cost(5)] == [0, 0]


def test_ties_are_listed_solution_by_solution():
    p = dancecard.Problem("a b", options=["a", "b", "a b"], costs=[1, 1, 2])
    pairs = p.min_cost(2)
    assert sorted(pairs) == [(2, [0, 1]), (2, [2])]


def test_a_matrix_numbers_its_rows():
    # Rows of zeros are no option of the engine's: the solutions still number the rows.
    p = dancecard.Problem.from_matrix([[0, 0], [1, 0], [0, 1], [0, 0], [1, 1]])
    assert p.costs == [0, 0, 0, 0, 0]
    assert sorted(s for _, s in p.min_cost(3)) == [[1, 2], [4]]


def test_colors_and_secondary_items():
    p = dancecard.Problem(["a", "b"], secondary=["x"],
                          options=["a x:red", "b x:red", "a x:blue", "b x:blue", "a", "b x"],
                          costs=[5, 5, 1, 8, 7, 0])
    # a x:blue + b x:blue = 9, a x:red + b x:red = 10, a + b x = 7, a + b x:red = 12,
    # a + b x:blue = 15; a x:... + b x cannot go together.
    assert p.min_cost(10) == [(7, [4, 5]), (9, [2, 3]), (10, [0, 1]), (12, [1, 4]),
                              (15, [3, 4])]


# --- Against a brute-force oracle -----------------------------------------------------------


@pytest.mark.parametrize("seed", range(150))
def test_random_problems_against_the_oracle(seed):
    rng = random.Random(seed)
    primary, secondary, options = random_problem(rng)
    high = rng.choice([1, 3, 10, 1000, 2**40])
    costs = [rng.randint(0, high) for _ in options]
    p = dancecard.Problem(primary, secondary, options, costs=costs)
    assert p.costs == costs
    solutions = solve_all(primary, secondary, options)
    expected = sorted(sum(costs[k] for k in s) for s in solutions)
    for k in (1, 2, 3, 7, 1000):
        for lower_bound in ("auto", "relaxation", "shares", "dlx5"):
            pairs = p.min_cost(k, lower_bound=lower_bound)
            check_pairs(p, pairs)
            assert [c for c, _ in pairs] == expected[:k], (k, lower_bound)
            assert all(s in solutions for _, s in pairs)
            assert p.stats.complete


def assignment(rng, n):
    """An n x n assignment problem: items r0.. and c0.., option "ri cj" of cost m[i][j]."""
    m = [[rng.randint(0, 99) for _ in range(n)] for _ in range(n)]
    rows = [f"r{i}" for i in range(n)]
    cols = [f"c{j}" for j in range(n)]
    options = [f"r{i} c{j}" for i in range(n) for j in range(n)]
    costs = [m[i][j] for i in range(n) for j in range(n)]
    return m, dancecard.Problem(rows + cols, options=options, costs=costs)


@pytest.mark.parametrize("seed", range(40))
def test_assignment_problems_against_every_permutation(seed):
    rng = random.Random(1000 + seed)
    n = rng.randint(1, 6)
    m, p = assignment(rng, n)
    by_permutation = sorted(
        (sum(m[i][perm[i]] for i in range(n)), sorted(i * n + perm[i] for i in range(n)))
        for perm in itertools.permutations(range(n))
    )
    k = rng.choice([1, 2, 5, 24])
    for lower_bound in ("auto", "relaxation", "shares", "dlx5"):
        pairs = p.min_cost(k, lower_bound=lower_bound)
        check_pairs(p, pairs)
        assert [c for c, _ in pairs] == [c for c, _ in by_permutation[:k]]
        assert all(pair in by_permutation for pair in pairs)
    # The least cost: a solution of it is one of the permutations of that cost.
    assert p.min_cost()[0][0] == by_permutation[0][0]


def test_huge_costs():
    # Costs up to 2**64 - 1 in all: the sums stay exact.
    big = 2**63
    p = dancecard.Problem("a b", options=["a", "b", "a b"], costs=[big - 1, big - 2, 2**64 - 1 - (2 * big - 3)])
    assert p.min_cost(2) == [(2, [2]), (2**64 - 3, [0, 1])]


# --- Bounds ---------------------------------------------------------------------------------


def test_bounds_are_kept_and_counted():
    # Two 1s in every row and column of a 3 x 3 0/1 matrix (OEIS A001499: 6).
    rows = [f"r{i}" for i in range(3)]
    cols = [f"c{j}" for j in range(3)]
    p = dancecard.Problem(rows + cols, options=[f"{r} {c}" for r in rows for c in cols],
                          bounds={name: 2 for name in rows + cols})
    assert p.count() == 6
    assert p.bounds == {name: (2, 2) for name in rows + cols}
    q = dancecard.Problem("a b", options=["a", "a b", "b"], bounds={"b": (0, 2), "a": (1, 1)})
    # (1, 1) is no bound: it is left out.
    assert q.bounds == {"b": (0, 2)}
    assert sorted(q.solutions()) == [[0], [0, 2], [1], [1, 2]]
    assert dancecard.Problem("a b").bounds == {}
    assert dancecard.Problem.from_dlx("2|a 0:3|b | x\na b\na x\n").bounds == {"a": (2, 2), "b": (0, 3)}


def test_bounds_in_min_cost_and_pre():
    p = dancecard.Problem("a b", options=["a", "b", "a b"], costs=[1, 1, 1], bounds={"a": (1, 2)})
    # Min-cost takes multiplicities (#30): {2} costs 1, {0, 1} and {0, 2} cost 2.
    assert p.min_cost() == [(1, [2])]
    pairs = p.min_cost(5)
    assert [c for c, _ in pairs] == [1, 2, 2]
    assert sorted(s for _, s in pairs) == [[0, 1], [0, 2], [2]]
    # Pre does not: the engine's capability table (#28): the method, the feature, the place.
    with pytest.raises(ValueError, match=r"^pre does not handle multiplicities \(item `a` has bounds 1:2\)$"):
        p.pre()
    assert p.count() == 3
    assert [p.count(method=m) for m in ("search", "memo", "auto")] == [3, 3, 3]
    assert p.zdd().count() == 3
    assert sorted(p.zdd().solutions()) == [[0, 1], [0, 2], [2]]
    assert all(sorted(s) in ([0, 1], [0, 2], [2]) for s in p.sample(10))


# --- Bad arguments --------------------------------------------------------------------------


def test_bad_costs():
    def make(costs, options=("a", "b", "a b")):
        return dancecard.Problem("a b", options=list(options), costs=costs)

    with pytest.raises(ValueError, match=r"^argument 'costs': expected 3 costs, one per option, got 2$"):
        make([1, 2])
    with pytest.raises(ValueError, match=r"^argument 'costs': expected 3 costs, one per option, got more$"):
        make([1, 2, 3, 4])
    with pytest.raises(ValueError, match=r"^argument 'costs': expected 3 costs, one per option, got more$"):
        make(itertools.count())
    with pytest.raises(ValueError, match=r"^argument 'costs': expected 0 costs, one per option, got more$"):
        dancecard.Problem("a", costs=[1])
    with pytest.raises(ValueError, match=r"^argument 'costs': costs\[1\]: expected an int from 0 to 2\*\*64 - 1, got -1$"):
        make([1, -1, 2])
    with pytest.raises(ValueError, match=r"^argument 'costs': costs\[2\]: expected an int from 0 to 2\*\*64 - 1, got 18446744073709551616$"):
        make([1, 1, 2**64])
    with pytest.raises(TypeError, match=r"^argument 'costs': costs\[0\]: expected an int from 0 to 2\*\*64 - 1, got float$"):
        make([1.0, 1, 1])
    with pytest.raises(TypeError, match=r"^argument 'costs': costs\[0\]: expected an int .* got bool$"):
        make([True, 1, 1])
    with pytest.raises(TypeError, match=r"^argument 'costs': expected a sequence of costs"):
        make("123")
    with pytest.raises(TypeError, match=r"^argument 'costs': expected a sequence of costs"):
        make(3)
    # The builder's rule: the costs add up to at most 2**64 - 1.
    with pytest.raises(ValueError, match=r"^argument 'costs': the option costs add up past 18446744073709551615$"):
        make([2**63, 2**63, 0])
    assert make([2**63, 2**63 - 1, 0]).costs == [2**63, 2**63 - 1, 0]
    # None and no costs at all are the same; an empty problem takes an empty list.
    assert make(None).costs == [0, 0, 0]
    assert dancecard.Problem("a", costs=[]).costs == []


def test_bad_bounds():
    def make(bounds):
        return dancecard.Problem("a b", secondary="x", options=["a", "b x"], bounds=bounds)

    with pytest.raises(ValueError, match=r"^argument 'bounds': unknown item \"z\"$"):
        make({"z": 2})
    with pytest.raises(ValueError, match="^argument 'bounds': item `x` is secondary: only primary items take bounds$"):
        make({"x": 2})
    with pytest.raises(ValueError, match="^argument 'bounds': bounds 2:1 of item `a`"):
        make({"a": (2, 1)})
    with pytest.raises(ValueError, match="^argument 'bounds': bounds 0:0 of item `a`"):
        make({"a": 0})
    with pytest.raises(ValueError, match=r"^argument 'bounds': bounds\[\"a\"\]: expected an int from 0 to 2\*\*32 - 1"):
        make({"a": 2**32})
    with pytest.raises(ValueError, match=r"^argument 'bounds': bounds\[\"a\"\]: expected an int from 0 to 2\*\*32 - 1, got -1$"):
        make({"a": (-1, 2)})
    with pytest.raises(ValueError, match=r"^argument 'bounds': bounds\[\"a\"\]: expected a pair \(lo, hi\), got three values or more$"):
        make({"a": (1, 2, 3)})
    with pytest.raises(ValueError, match=r"^argument 'bounds': bounds\[\"a\"\]: expected a pair \(lo, hi\), got three values or more$"):
        make({"a": itertools.count()})
    with pytest.raises(TypeError, match=r"^argument 'bounds': bounds\[\"a\"\]: expected an int from 0 to 2\*\*32 - 1 or a pair"):
        make({"a": "2"})
    with pytest.raises(TypeError, match=r"^argument 'bounds': bounds\[\"a\"\]: expected an int .* got float$"):
        make({"a": (1.0, 2)})
    with pytest.raises(TypeError, match=r"^argument 'bounds': expected item names \(str\) as keys, got int$"):
        make({1: 2})
    with pytest.raises(TypeError, match=r"^argument 'bounds': expected a dict from primary item names"):
        make([("a", 2)])
    assert make({"a": (0, 2), "b": 3}).bounds == {"a": (0, 2), "b": (3, 3)}
    assert make({}).bounds == {} and make(None).bounds == {}


def test_bad_min_cost_arguments():
    p = dancecard.Problem("a", options=["a"], costs=[1])
    with pytest.raises(ValueError, match=r"^argument 'k': expected an int from 1 to 1048576, got 0$"):
        p.min_cost(0)
    with pytest.raises(ValueError, match=r"^argument 'k': expected an int from 1 to 1048576, got -1$"):
        p.min_cost(-1)
    with pytest.raises(ValueError, match=r"^argument 'k': expected an int from 1 to 1048576, got 1048577$"):
        p.min_cost(2**20 + 1)
    with pytest.raises(TypeError, match=r"^argument 'k': expected an int from 1 to 1048576, got bool$"):
        p.min_cost(True)
    with pytest.raises(ValueError, match=r"^argument 'lower_bound': expected \"auto\", \"relaxation\", \"shares\" or \"dlx5\", got \"knuth\"$"):
        p.min_cost(lower_bound="knuth")
    with pytest.raises(ValueError, match=r"^argument 'max_nodes': "):
        p.min_cost(max_nodes=-1)
    with pytest.raises(ValueError, match=r"^argument 'time_limit': "):
        p.min_cost(time_limit=-1)
    with pytest.raises(ValueError, match=r"^argument 'max_rounds': expected an int from 0 to 2\*\*32 - 1 or None, got 4294967296$"):
        p.pre(max_rounds=2**32)
    assert p.min_cost(2**20) == [(1, [0])]
    # A failed call leaves stats as they were.
    assert p.stats.nodes >= 1


# --- Pickling and the DLX text --------------------------------------------------------------


def with_costs_and_bounds():
    return {
        "costs": dancecard.Problem("a b c", secondary="x",
                                   options=["a x:red", "b x:red", "c", "a b", "b c x"],
                                   costs=[3, 0, 2**40, 7, 1]),
        "bounds": dancecard.Problem("a b", options=["a", "a b", "b"],
                                    bounds={"a": (1, 2), "b": (0, 5)}),
        "both": dancecard.Problem("a b", options=["a", "a b", "b"], costs=[1, 2, 3],
                                  bounds={"b": 2}),
        "instance": instance("cost_domino6x6"),
    }


@pytest.mark.parametrize("name", sorted(with_costs_and_bounds()))
def test_costs_and_bounds_survive_pickling_and_the_dlx_text(name):
    p = with_costs_and_bounds()[name]
    copies = [pickle.loads(pickle.dumps(p, protocol=protocol))
              for protocol in range(pickle.HIGHEST_PROTOCOL + 1)]
    copies += [copy.deepcopy(p), dancecard.Problem.from_dlx(p.to_dlx())]
    for q in copies:
        assert (q.costs, q.bounds, q.options, q.to_dlx()) == (p.costs, p.bounds, p.options, p.to_dlx())
        assert q.count() == p.count()
        if not p.bounds:
            assert q.min_cost(3) == p.min_cost(3)


# --- Preprocessing --------------------------------------------------------------------------


def test_pre_on_pent6x10():
    p = instance("pent6x10")
    r = p.pre()
    assert len(p.options) == 2056
    assert len(r.removed_options) == 144 and len(r.origins) == 2056 - 144
    assert (r.rounds, r.complete, r.infeasible, r.removed_items) == (2, True, None, [])
    assert sorted(r.origins + r.removed_options) == list(range(2056))
    assert r.origins == sorted(r.origins)
    reduced = r.problem
    assert reduced.options == [p.options[k] for k in r.origins]
    assert reduced.count() == 9356
    # A solution of the reduced problem, mapped back, is one of the original.
    for s in itertools.islice(reduced.solutions(), 50):
        assert p.is_solution(sorted(r.origins[k] for k in s))
    assert repr(r) == "Reduction(options=1912 of 2056, removed_items=0, rounds=2, complete=True)"
    assert p.stats is None  # pre is no search


def test_pre_keeps_the_costs_and_the_least_costs():
    p = instance("cost_pent6x10")
    r = p.pre()
    assert len(r.removed_options) == 144
    assert r.problem.costs == [p.costs[k] for k in r.origins]
    best = r.problem.min_cost(3)
    assert [c for c, _ in best] == [235, 253, 259]
    for cost, s in best:
        assert p.is_solution(sorted(r.origins[k] for k in s))


def test_pre_on_knuths_example():
    # DLX-PRE's first example: A D is the only option with A, and so on; three options left.
    p = dancecard.Problem("A B C D E", secondary="F G",
                          options=["C E F", "A D G", "B C F", "A D", "B G", "D E G"])
    r = p.pre()
    assert len(r.problem.options) == 3 and r.problem.count() == 1
    assert sorted(r.origins[k] for k in r.problem.first()) == p.first()
    assert r.removed_items  # implied items went


def test_pre_infeasible_and_limited():
    p = dancecard.Problem("a b c", options=["a b", "a"], costs=[1, 2])
    r = p.pre()
    assert r.infeasible == "c"
    assert r.problem.primary == ["c"] and r.problem.options == [] and r.origins == []
    assert r.problem.count() == 0
    q = instance("pent6x10")
    r = q.pre(max_rounds=0)
    assert (r.complete, r.removed_options, len(r.origins)) == (False, [], 2056)
    r = q.pre(max_rounds=1)
    assert (r.complete, len(r.removed_options), r.rounds) == (False, 144, 1)


def test_pre_numbers_a_matrix_by_its_rows():
    p = dancecard.Problem.from_matrix([[0, 0, 0], [1, 1, 0], [0, 0, 0], [1, 0, 0], [0, 1, 1],
                                       [0, 0, 1]])
    r = p.pre()
    # Rows of zeros are no options: neither kept nor removed, and the others keep their rows.
    mapped = sorted(sorted(r.origins[k] for k in s) for s in r.problem.solutions())
    assert mapped == sorted(p.solutions())
    assert set(r.origins) | set(r.removed_options) == {1, 3, 4, 5}


@pytest.mark.parametrize("seed", range(100))
def test_pre_keeps_the_solutions_of_random_problems(seed):
    rng = random.Random(5000 + seed)
    primary, secondary, options = random_problem(rng)
    costs = [rng.randint(0, 20) for _ in options]
    p = dancecard.Problem(primary, secondary, options, costs=costs)
    r = p.pre()
    expected = solve_all(primary, secondary, options)
    mapped = sorted(sorted(r.origins[k] for k in s) for s in r.problem.solutions())
    assert mapped == sorted(expected)
    assert r.problem.costs == [costs[k] for k in r.origins]
    assert [c for c, _ in r.problem.min_cost(5)] == [c for c, _ in p.min_cost(5)]
    assert sorted(r.origins + r.removed_options) == list(range(len(options)))
    assert (r.infeasible is not None) <= (expected == [])
    # A reduced problem pickles as any other.
    assert pickle.loads(pickle.dumps(r.problem)).to_dlx() == r.problem.to_dlx()


def test_a_limited_search_has_a_bound_and_a_gap():
    # #30: the best found, a proven lower bound below the least cost (319), and their gap.
    p = instance("cost_domino16x16")
    pairs = p.min_cost(lower_bound="dlx5", max_nodes=20000)
    s = p.stats
    assert not s.complete and s.stop == "node_limit"
    best = pairs[0][0]
    assert s.lower_bound <= 319 <= best
    assert s.gap == pytest.approx((best - s.lower_bound) / best)
    # Complete: the bound is the least cost, the gap 0.
    assert p.min_cost()[0][0] == 319
    assert (p.stats.lower_bound, p.stats.gap) == (319, 0.0)
    # Other searches leave them None.
    p.count(max_nodes=10)
    assert (p.stats.lower_bound, p.stats.gap) == (None, None)
