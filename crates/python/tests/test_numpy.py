"""numpy values as arguments: integer scalars work where ints are expected, arrays work where
sequences are expected, and an array where a scalar is expected is a TypeError. See: #16

scripts/test-python installs numpy, so that these run in CI; they are skipped only where
numpy cannot be imported.
"""

import pytest

import dancecard
from dancecard import queens, slide, sudoku

np = pytest.importorskip("numpy")

TOY_OPTIONS = ["c e", "a d g", "b c f", "a d f", "b g", "d e g"]


def toy():
    return dancecard.Problem("a b c d e f g", options=TOY_OPTIONS)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64])
def test_integer_scalars_are_ints(dtype):
    p = toy()
    assert p.count(threads=dtype(2), max_nodes=dtype(100)) == 1
    assert list(p.solutions(limit=dtype(1))) == [[0, 3, 4]]
    assert queens.count(dtype(8)) == 92
    assert queens.count(dtype(8), threads=dtype(2), distinct=np.bool_(True)) == 12
    assert queens.problem(dtype(6)).count() == 4
    assert next(queens.solutions(dtype(4))) == [1, 3, 0, 2]
    assert sudoku.count("." * 16, limit=dtype(5)) == 5
    assert dancecard.tile((dtype(2), dtype(4)), "dominoes").count(threads=dtype(1)) == 5


def test_float_scalars_are_seconds():
    p = toy()
    for t in (np.float64(10.0), np.float32(10.0), np.int64(10)):
        assert p.count(time_limit=t) == 1
    assert p.count(time_limit=np.float64("inf")) == 1
    with pytest.raises(ValueError, match="^argument 'time_limit': .*, got NaN$"):
        p.count(time_limit=np.float64("nan"))
    with pytest.raises(TypeError, match="^argument 'time_limit': .*, got numpy.bool$|bool_$"):
        p.count(time_limit=np.bool_(True))


@pytest.mark.parametrize(
    "array", [np.array(2), np.array([2]), np.array([[2]]), np.arange(3)], ids=["0d", "1", "1x1", "3"]
)
def test_arrays_are_not_scalars(array):
    p = toy()
    with pytest.raises(TypeError, match="^argument 'threads': expected an int .*, got numpy.ndarray$"):
        p.count(threads=array)
    with pytest.raises(TypeError, match="^argument 'n': expected an int from 1 to 32, got numpy.ndarray$"):
        queens.count(array)
    with pytest.raises(TypeError, match="^argument 'limit': .*, got numpy.ndarray$"):
        p.solutions(limit=array)
    with pytest.raises(TypeError, match="^argument 'time_limit': .*, got numpy.ndarray$"):
        p.count(time_limit=array.astype(float))
    with pytest.raises(TypeError, match="^argument 'max_nodes': .*, got numpy.ndarray$"):
        slide.solve("1 2 3 0", max_nodes=array)


def test_arrays_are_sequences():
    p = toy()
    assert p.is_solution(np.array([0, 3, 4]))
    assert not p.is_solution(np.array([0, 3], dtype=np.uint8))
    # A 0/1 matrix: ints or bools, not floats.
    eye = dancecard.Problem.from_matrix(np.eye(4, dtype=np.int64))
    assert eye.count() == 1 and eye.first() == [0, 1, 2, 3]
    assert dancecard.Problem.from_matrix(np.eye(3, dtype=bool)).count() == 1
    with pytest.raises(TypeError, match=r"^argument 'rows': rows\[0\]\[0\]: expected 0 or 1 .*, got numpy.float64$"):
        dancecard.Problem.from_matrix(np.eye(3))
    # Names: numpy's str_ is a str.
    assert dancecard.Problem(np.array(["a", "b"]), options=np.array(["a b"])).count() == 1
    # Boards, pieces, grids and states.
    assert dancecard.tile(np.array([2, 4]), "dominoes").count() == 5
    assert dancecard.tile("2x4", {"D": np.array([[0, 0], [0, 1]])}).count() == 5
    t = dancecard.tile("2x4", "dominoes")
    assert t.decode(np.array(t.problem.first())) == t.decode(t.problem.first())
    grid = np.zeros((4, 4), dtype=np.int32)
    grid[0, 0] = 1
    solved = sudoku.solve(grid)
    assert isinstance(solved, list) and solved[0][0] == 1 and sorted(solved[0]) == [1, 2, 3, 4]
    assert slide.solve(np.array([1, 2, 3, 0]), goal="blank-last").length == 0
    assert slide.solve(np.array([[1, 2], [0, 3]]), goal="blank-last").moves == "R"


@pytest.mark.parametrize("dtype", [bool, np.bool_, np.int8, np.uint8, np.int32, np.int64, np.uint64])
def test_matrix_from_2d_arrays(dtype):
    # Knuth's toy matrix (one solution: rows 0, 3, 4), with a row of zeros kept as option 2.
    rows = np.array([[0, 0, 1, 0, 1, 0, 0], [1, 0, 0, 1, 0, 0, 1], [0] * 7, [0, 1, 1, 0, 0, 1, 0],
                     [1, 0, 0, 1, 0, 1, 0], [0, 1, 0, 0, 0, 0, 1], [0, 0, 0, 1, 1, 0, 1]])
    p = dancecard.Problem.from_matrix(rows.astype(dtype))
    assert p.first() == [0, 4, 5] and p.options[2] == "" and p.options[0] == "3 5"
    # The same problem from the nested lists and from a memoryview (the buffer protocol).
    assert p.to_dlx() == dancecard.Problem.from_matrix(rows.tolist()).to_dlx()
    assert p.to_dlx() == dancecard.Problem.from_matrix(memoryview(rows.astype(np.uint8))).to_dlx()


def test_matrix_array_errors():
    with pytest.raises(ValueError, match=r"^argument 'rows': rows\[1\]\[2\]: expected 0 or 1 \(or a bool\), got 7$"):
        dancecard.Problem.from_matrix(np.array([[1, 0, 0], [0, 1, 7]], dtype=np.int16))
    with pytest.raises(TypeError, match=r"^argument 'rows': rows\[0\]: expected a sequence of 0/1 values, got numpy.int64$"):
        dancecard.Problem.from_matrix(np.array([1, 0, 1], dtype=np.int64))
    empty = dancecard.Problem.from_matrix(np.zeros((3, 0), dtype=bool))
    assert empty.options == ["", "", ""] and empty.count() == 1  # no item: the empty cover
