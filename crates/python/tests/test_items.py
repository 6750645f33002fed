"""Items of any hashable type, and options as a dict from names to items: what is given comes
back, in solutions and in everything that reports items or options. See: #21
"""

import copy
import pickle

import pytest

import dancecard


def cells_problem():
    """Domino tilings of 2x3 with the cells as (row, column) tuples: 3 tilings."""
    cells = [(r, c) for r in range(2) for c in range(3)]
    options = [[(r, c), (r, c + 1)] for r in range(2) for c in range(2)]
    options += [[(0, c), (1, c)] for c in range(3)]
    return dancecard.Problem(cells, options=options), cells, options


def test_tuples_as_items():
    p, cells, options = cells_problem()
    assert p.primary == cells and p.secondary == []
    assert p.options == options
    assert p.count() == 3
    for s in p.solutions():
        covered = sorted(cell for k in s for cell in p.options[k])
        assert covered == cells


@pytest.mark.parametrize("items", [
    [1, 2, 3],
    [frozenset({1}), frozenset({2}), frozenset({3})],
    [None, 2.5, b"x"],
    ["a", 2, ("t", 3)],
])
def test_any_hashable_items(items):
    a, b, c = items
    p = dancecard.Problem(items, options=[[a, b], [c], [a], [b, c]])
    assert p.primary == items
    assert p.count() == 2
    assert p.first() == [0, 1]
    assert p.options[3] == [b, c]


def test_colors_on_object_items():
    # Secondary item (0, 0) with colors given as pairs, or in "item:color" form for str items.
    p = dancecard.Problem([1, 2], [(0, 0), "x"],
                          options=[[1, ((0, 0), "red"), "x:blue"], [2, ((0, 0), "red")],
                                   [2, ((0, 0), "green")], [1, 2]])
    assert p.secondary == [(0, 0), "x"]
    assert p.options[0] == [1, ((0, 0), "red"), ("x", "blue")]
    assert sorted(p.solutions()) == [[0, 1], [3]]
    # Colors of any hashable type.
    q = dancecard.Problem([1, 2], [9], options=[[1, (9, 0)], [2, (9, 0)], [2, (9, 1)]])
    assert q.count() == 1 and q.options[2] == [2, (9, 1)]


def test_an_item_named_like_a_pair_is_an_item():
    # A declared item takes precedence over the (item, color) reading.
    p = dancecard.Problem([("x", "red"), "x"], options=[[("x", "red")], ["x"]])
    assert p.count() == 1 and p.options[0] == [("x", "red")]


def test_names_keep_their_behaviour():
    p = dancecard.Problem("a b", "x", options=["a x:red", ["b", ("x", "red")]])
    assert p.options == ["a x:red", "b x:red"]
    assert p.primary == ["a", "b"] and p.count() == 1
    assert "\na b | x\n" in p.to_dlx()


def test_object_errors_name_the_objects():
    with pytest.raises(ValueError, match=r"^argument 'primary': item `1` is declared twice$"):
        dancecard.Problem([1, 1])
    with pytest.raises(ValueError, match=r"^argument 'secondary': item `1` is declared twice$"):
        dancecard.Problem([1], [1])
    with pytest.raises(ValueError, match=r"^argument 'options': option 1 names unknown item `\(9, 9\)`$"):
        dancecard.Problem([1], options=[[1], [(9, 9)]])
    with pytest.raises(ValueError, match=r"^argument 'options': option 0 holds item `\(1, 2\)` twice$"):
        dancecard.Problem([(1, 2)], options=[[(1, 2), (1, 2)]])
    with pytest.raises(ValueError, match=r"^argument 'options': option 0 gives a color to primary item `1`"):
        dancecard.Problem([1], options=[[(1, "red")]])
    with pytest.raises(ValueError, match=r"^argument 'options': option 0 names unknown item `1`$"):
        dancecard.Problem("a", options=[["a", 1]])
    with pytest.raises(ValueError, match=r"^argument 'bounds': unknown item `7`$"):
        dancecard.Problem([1], options=[[1]], bounds={7: 2})
    with pytest.raises(TypeError, match=r"^argument 'primary': primary\[1\]: expected a str or another hashable item, got list$"):
        dancecard.Problem([1, [2]])


def test_bounds_and_reduction_report_objects():
    p = dancecard.Problem([1, 2, (3,)], options=[[1, 2], [1], [2], [(3,)]], bounds={1: (1, 2)})
    assert p.bounds == {1: (1, 2)}
    # [1, 2] [(3,)], [1] [2] [(3,)], and [1, 2] [1] [(3,)]: item 1 covered once or twice.
    assert p.count() == 3
    q = dancecard.Problem([1, 2, 3], [(4,)], options=[[1, (4,)], [2, (4,)], [3]])
    r = q.pre()
    assert r.removed_items == [] or all(i in (1, 2, 3, (4,)) for i in r.removed_items)
    infeasible = dancecard.Problem([1, (2, 2)], options=[[1]]).pre()
    assert infeasible.infeasible == (2, 2)
    assert infeasible.problem.primary == [(2, 2)]


def test_dict_options_give_names_back():
    p = dancecard.Problem("a b c", options={"A": "a b", "B": "c", "C": ["a"], "D": "b c"},
                          costs=[1, 1, 1, 5])
    assert p.first() == ["A", "B"]
    assert list(p.solutions()) == [["A", "B"], ["C", "D"]]
    assert p.options == ["a b", "c", "a", "b c"]
    assert p.min_cost(2) == [(2, ["A", "B"]), (6, ["C", "D"])]
    assert all(s in (["A", "B"], ["C", "D"]) for s in p.sample(5, seed=1))
    z = p.zdd()
    assert sorted(z.solutions()) == [["A", "B"], ["C", "D"]]
    assert all(s in (["A", "B"], ["C", "D"]) for s in z.sample(3))
    assert p.is_solution(["A", "B"]) and p.is_solution(("D", "C"))
    assert not p.is_solution(["A"]) and not p.is_solution(["Z"]) and not p.is_solution([[1]])
    r = p.pre()
    assert r.origins == ["A", "B", "C", "D"] and r.removed_options == []
    assert r.problem.first() == ["A", "B"]


def test_dict_options_with_object_items_and_names():
    p = dancecard.Problem([(0, 0), (0, 1)], options={("h", 0): [(0, 0), (0, 1)], 7: [(0, 0)], 8: [(0, 1)]})
    assert list(p.solutions()) == [[("h", 0)], [7, 8]] or list(p.solutions()) == [[7, 8], [("h", 0)]]
    r = dancecard.Problem([1, 2], options={"x": [1], "y": [2], "z": [1, 2], "w": [3 - 1]}).pre()
    assert set(r.origins) | set(r.removed_options) == {"x", "y", "z", "w"}


@pytest.mark.parametrize("copier", [lambda p: pickle.loads(pickle.dumps(p)), copy.deepcopy],
                         ids=["pickle", "deepcopy"])
def test_objects_survive_pickling(copier):
    p, cells, options = cells_problem()
    q = copier(p)
    assert q.primary == cells and q.options == options and q.count() == 3
    d = dancecard.Problem([1, 2], [(5,)], options={"A": [1, ((5,), "c")], "B": [2, ((5,), "c")], "C": [1, 2]})
    e = copier(d)
    assert e.options == d.options and sorted(e.solutions()) == [["A", "B"], ["C"]]
    # A problem of names pickles as before: a state of four values.
    assert len(dancecard.Problem("a", options=["a"]).__reduce__()[1]) == 4


def test_state_labels_are_checked():
    d = dancecard.Problem([1, 2], options={"A": [1], "B": [2]})
    rebuild, state = d.__reduce__()
    assert len(state) == 5
    items, colors, names = state[4]
    with pytest.raises(ValueError, match="^argument 'labels': no object for item `#1`$"):
        rebuild(*state[:4], (items[:1], colors, names))
    with pytest.raises(ValueError, match="^argument 'labels': expected 2 option names, one per option, got 1$"):
        rebuild(*state[:4], (items, colors, names[:1]))
    with pytest.raises(ValueError, match="^argument 'labels': expected a triple"):
        rebuild(*state[:4], (items, colors))
