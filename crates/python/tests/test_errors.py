"""Bad input raises ValueError (or TypeError for values of the wrong type) with the reason."""

import itertools

import pytest

import dancecard


@pytest.mark.parametrize(
    "text, line, column, message",
    [
        ("a b\na z\n", 2, 3, "line 2, column 3: unknown item `z`"),
        ("| comment\na b | x\nx\n", 3, 1, "line 3, column 1: option 0 has no primary item"),
        ("a b | x\na a\n", 2, 3, "line 2, column 3: option 0 holds item `a` twice"),
        ("a b\na:red\n", 2, 1, "line 2, column 1: option 0 gives a color to primary item `a`"),
        ("a | x | y\n", 1, 7, "line 1, column 7: a second `|` on the item line"),
        ("", 1, 1, "line 1, column 1: empty input: expected a line of item names"),
    ],
)
def test_dlx_errors_name_line_and_column(text, line, column, message):
    with pytest.raises(ValueError) as info:
        dancecard.Problem.from_dlx(text)
    assert isinstance(info.value, dancecard.DlxParseError)
    assert str(info.value).startswith(message)
    assert (info.value.line, info.value.column) == (line, column)


@pytest.mark.parametrize(
    "text, message",
    [
        ("2 3\n1 0 1\n0 2 1\n", "line 3, column 3: expected 0 or 1, found `2`"),
        ("2 3\n1 0 1\n", "line 3, column 1: expected 2 rows, found 1"),
        ("2 3\n1 0 1\n0 1\n", "line 3, column 4: row 2 has 2 values, expected 3"),
        ("x 3\n", "line 1, column 1: expected the number of rows, found `x`"),
    ],
)
def test_matrix_text_errors_name_line_and_column(text, message):
    with pytest.raises(dancecard.DlxParseError, match="^" + message.replace("(", r"\(")):
        dancecard.Problem.from_matrix(text)


def test_matrix_rows_errors():
    with pytest.raises(ValueError, match=r"^argument 'rows': rows\[1\]\[2\]: expected 0 or 1 \(or a bool\), got 7$"):
        dancecard.Problem.from_matrix([[1, 0, 0], [0, 1, 7]])
    with pytest.raises(ValueError, match=r"^argument 'rows': row 1 has 2 values, but row 0 has 3$"):
        dancecard.Problem.from_matrix([[1, 0, 0], [0, 1]])
    with pytest.raises(TypeError, match="^argument 'rows': expected rows of 0/1 values, or the matrix as text, got int$"):
        dancecard.Problem.from_matrix(42)


def test_builder_errors():
    with pytest.raises(ValueError, match="^argument 'primary': item name `a` is declared twice"):
        dancecard.Problem("a a")
    with pytest.raises(ValueError, match="^argument 'secondary': item name `a` is declared twice"):
        dancecard.Problem("a", "a")
    with pytest.raises(ValueError, match="^argument 'primary': invalid name `a:b`"):
        dancecard.Problem(["a:b"])
    with pytest.raises(ValueError, match="^argument 'options': option 1 names unknown item `z`"):
        dancecard.Problem("a b", options=["a", "b z"])
    with pytest.raises(ValueError, match="^argument 'options': option 0 is empty"):
        dancecard.Problem("a", options=[[]])
    with pytest.raises(ValueError, match="^argument 'options': option 0 has no primary item"):
        dancecard.Problem("a", "x", options=["x"])
    with pytest.raises(ValueError, match="option 0 gives a color to primary item `a`"):
        dancecard.Problem("a", options=["a:red"])
    # Items of any hashable type are items (#21): an int that is not declared is unknown.
    with pytest.raises(TypeError, match=r"^argument 'primary': primary\[1\]: expected a str or another hashable item, got list$"):
        dancecard.Problem(["a", [1]])
    with pytest.raises(TypeError, match=r"^argument 'options': options\[0\]\[1\]: expected a str or another hashable item, got dict$"):
        dancecard.Problem("a", options=[["a", {}]])
    with pytest.raises(ValueError, match="^argument 'options': option 0 names unknown item `1`$"):
        dancecard.Problem("a", options=[["a", 1]])
    with pytest.raises(TypeError, match="^argument 'primary': expected a str of names or an iterable of hashable items, got int$"):
        dancecard.Problem(5)


def test_bad_arguments():
    p = dancecard.Problem("a", options=["a"])
    with pytest.raises(ValueError, match="^argument 'heuristic': expected \"mrv\", \"leftmost\" or \"ssxcc\", got \"best\"$"):
        p.count(heuristic="best")
    with pytest.raises(ValueError, match="^argument 'heuristic': "):
        p.first(heuristic="")
    with pytest.raises(TypeError, match="^argument 'heuristic': expected \"mrv\", \"leftmost\" or \"ssxcc\", got NoneType$"):
        p.solutions(heuristic=None)
    with pytest.raises(ValueError, match="^argument 'time_limit': expected a number of seconds >= 0 or None, got -1$"):
        p.count(time_limit=-1.0)


def test_threads_and_time_limits_are_checked():
    toy = dancecard.Problem("a b c d e f g", options=["c e", "a d g", "b c f", "a d f", "b g", "d e g"])
    for threads in (1025, 2**40):
        expected = f"^argument 'threads': expected an int from 0 \\(one per core\\) to 1024, got {threads}$"
        with pytest.raises(ValueError, match=expected):
            toy.count(threads=threads)
        with pytest.raises(ValueError, match=expected):
            dancecard.queens.count(8, threads=threads)
    assert toy.count(threads=0) == 1
    # A limit too far to represent, or infinity, is no limit.
    for t in (1e19, 1e300, float("inf")):
        assert toy.count(time_limit=t) == 1
        assert toy.count(threads=2, time_limit=t) == 1
        assert toy.stats.complete
    for t in (-1.0, float("nan"), -(2**2000)):
        with pytest.raises(ValueError, match="^argument 'time_limit': expected a number of seconds"):
            toy.count(time_limit=t)
    # An int too large for a float is a time too far to represent: no limit.
    assert toy.count(time_limit=2**2000) == 1


def test_options_given_as_one_string_are_refused():
    with pytest.raises(TypeError, match="^argument 'options': expected an iterable of options .*, got str$"):
        dancecard.Problem("a b", options="ab")
    assert dancecard.Problem("a b", options=["a b"]).count() == 1


# See: #16
def test_issue_16_negative_ints_name_the_argument():
    """A negative int was a bare OverflowError ("can't convert negative int to unsigned")."""
    toy = dancecard.Problem("a b c d e f g", options=["c e", "a d g", "b c f", "a d f", "b g", "d e g"])
    cases = [
        (lambda: toy.count(threads=-1), "threads", "expected an int from 0 \\(one per core\\) to 1024"),
        (lambda: toy.count(max_nodes=-1), "max_nodes", "expected a non-negative int below 2\\*\\*64 or None"),
        (lambda: toy.solutions(limit=-1), "limit", "expected a non-negative int below 2\\*\\*128 or None"),
        (lambda: dancecard.queens.count(-1), "n", "expected an int from 1 to 32"),
        (lambda: dancecard.queens.solutions(-1), "n", "expected an int from 1 to 32"),
        (lambda: dancecard.queens.problem(-1), "n", "expected an int from 1 to 256"),
        (lambda: dancecard.queens.count(8, threads=-1), "threads", "expected an int from 0 \\(one per core\\) to 1024"),
        (lambda: dancecard.tile("2x2", "dominoes").count(threads=-1), "threads", "expected an int from 0"),
        (lambda: dancecard.tile("2x2", "dominoes").solutions(limit=-1), "limit", "expected a non-negative int"),
        (lambda: dancecard.sudoku.count("." * 16, limit=-1), "limit", "expected a non-negative int below 2\\*\\*64 or None"),
        (lambda: dancecard.slide.solve("1 2 3 0", max_nodes=-1), "max_nodes", "expected a non-negative int"),
        (lambda: toy.is_solution([0, -1]), "options", "options\\[1\\]: expected an option number"),
    ]
    for call, name, expected in cases:
        with pytest.raises(ValueError, match=f"^argument '{name}': {expected}.*, got -1$"):
            call()


# See: #16
def test_issue_16_huge_ints_name_the_argument():
    toy = dancecard.Problem("a", options=["a"])
    with pytest.raises(ValueError, match="^argument 'max_nodes': .*, got 18446744073709551616$"):
        toy.count(max_nodes=2**64)
    with pytest.raises(ValueError, match="^argument 'threads': .*, got an int of 201 bits$"):
        toy.count(threads=2**200)
    with pytest.raises(ValueError, match="^argument 'n': .*, got a negative int of 10001 bits$"):
        dancecard.queens.count(-(2**10000))
    assert toy.count(max_nodes=2**64 - 1) == 1
    assert list(toy.solutions(limit=2**128 - 1)) == [[0]]


def test_bools_floats_and_arrays_are_not_ints():
    toy = dancecard.Problem("a", options=["a"])
    for value, shown in [(True, "bool"), (2.0, "float"), ("2", "str"), (None, "NoneType")]:
        with pytest.raises(TypeError, match=f"^argument 'threads': expected an int .*, got {shown}$"):
            toy.count(threads=value)
    with pytest.raises(TypeError, match="^argument 'distinct': expected True or False, got int$"):
        dancecard.queens.count(8, distinct=1)
    with pytest.raises(TypeError, match="^argument 'time_limit': expected a number of seconds >= 0 or None, got bool$"):
        toy.count(time_limit=True)


def test_long_values_are_shortened_in_messages():
    toy = dancecard.Problem("a", options=["a"])
    with pytest.raises(ValueError) as info:
        toy.count(heuristic="x" * 10_000_000)
    assert str(info.value).endswith('... (10000000 characters)"')
    assert len(str(info.value)) < 200
    with pytest.raises(ValueError) as info:
        dancecard.tile("x" * 10_000_000, "dominoes")
    assert str(info.value).startswith("argument 'board': ") and len(str(info.value)) < 600


def test_text_that_utf8_cannot_encode_is_a_value_error():
    with pytest.raises(ValueError, match="^argument 'primary': expected text that UTF-8 can encode"):
        dancecard.Problem("a \ud800")
    with pytest.raises(ValueError, match=r"^argument 'options': options\[0\]: expected text that UTF-8 can encode"):
        dancecard.Problem("a", options=["\ud800"])
    with pytest.raises(ValueError, match="^argument 'puzzle': expected text"):
        dancecard.sudoku.solve("\ud800")


def test_endless_iterators_are_read_no_further_than_needed():
    toy = dancecard.Problem("a b c d e f g", options=["c e", "a d g", "b c f", "a d f", "b g", "d e g"])
    # More numbers than options: no solution, whatever follows.
    assert toy.is_solution(itertools.count()) is False
    assert toy.is_solution(itertools.chain([0, 3, 4], itertools.repeat(0))) is False
    t = dancecard.tile("2x4", "dominoes")
    with pytest.raises(ValueError, match="^argument 'solution': expected at most 10 distinct option numbers, got more$"):
        t.decode(itertools.count())
    with pytest.raises(ValueError, match="^argument 'board': expected \\(rows, cols\\), got more than 2 values$"):
        dancecard.tile(itertools.count(1), "dominoes")
    with pytest.raises(ValueError, match="^argument 'grid': expected 9 rows of 9 ints, got more than 9 rows$"):
        dancecard.target_sudoku(itertools.repeat([0] * 9))
    with pytest.raises(ValueError, match=r"^argument 'grid': expected 9 rows of 9 ints: row 0 has more than 9$"):
        dancecard.target_sudoku(itertools.repeat(itertools.repeat(0)))


def test_tiling_solutions_are_distinct_option_numbers():
    t = dancecard.tile("2x4", "dominoes")
    first = t.problem.first()
    assert t.decode(first) == t.decode(tuple(first)) == t.decode(iter(first))
    with pytest.raises(ValueError, match="^argument 'solution': option 0 is given twice$"):
        t.decode([0, 0])
    with pytest.raises(ValueError, match=r"^argument 'solution': solution\[1\]: expected an option number from 0 to 9, got 10$"):
        t.render([0, 10])
    with pytest.raises(TypeError, match=r"^argument 'solution': solution\[0\]: expected an option number \(an int >= 0\), got float$"):
        t.render([0.0])
