"""Bad input raises ValueError (or TypeError for values of the wrong type) with the reason."""

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
    with pytest.raises(ValueError, match=r"row 1, column 2: expected 0 or 1, found 7"):
        dancecard.Problem.from_matrix([[1, 0, 0], [0, 1, 7]])
    with pytest.raises(ValueError, match=r"row 1 has 2 values, but row 0 has 3"):
        dancecard.Problem.from_matrix([[1, 0, 0], [0, 1]])
    with pytest.raises(TypeError):
        dancecard.Problem.from_matrix(42)


def test_builder_errors():
    with pytest.raises(ValueError, match="item name `a` is declared twice"):
        dancecard.Problem("a a")
    with pytest.raises(ValueError, match="invalid name `a:b`"):
        dancecard.Problem(["a:b"])
    with pytest.raises(ValueError, match="option 1 names unknown item `z`"):
        dancecard.Problem("a b", options=["a", "b z"])
    with pytest.raises(ValueError, match="option 0 is empty"):
        dancecard.Problem("a", options=[[]])
    with pytest.raises(ValueError, match="option 0 has no primary item"):
        dancecard.Problem("a", "x", options=["x"])
    with pytest.raises(ValueError, match="option 0 gives a color to primary item `a`"):
        dancecard.Problem("a", options=["a:red"])
    with pytest.raises(TypeError, match="item names must be strings"):
        dancecard.Problem(["a", 1])
    with pytest.raises(TypeError):
        dancecard.Problem(5)


def test_bad_arguments():
    p = dancecard.Problem("a", options=["a"])
    with pytest.raises(ValueError, match="unknown heuristic \"best\""):
        p.count(heuristic="best")
    with pytest.raises(ValueError, match="unknown heuristic"):
        p.first(heuristic="")
    with pytest.raises(ValueError, match="time_limit"):
        p.count(time_limit=-1.0)
    with pytest.raises(OverflowError):
        p.count(threads=-1)


def test_threads_and_time_limits_are_checked():
    toy = dancecard.Problem("a b c d e f g", options=["c e", "a d g", "b c f", "a d f", "b g", "d e g"])
    for threads in (1025, 2**40):
        with pytest.raises(ValueError, match="threads must be 0"):
            toy.count(threads=threads)
        with pytest.raises(ValueError, match="threads must be 0"):
            dancecard.queens.count(8, threads=threads)
    assert toy.count(threads=0) == 1
    # A limit too far to represent, or infinity, is no limit.
    for t in (1e19, 1e300, float("inf")):
        assert toy.count(time_limit=t) == 1
        assert toy.count(threads=2, time_limit=t) == 1
        assert toy.stats.complete
    for t in (-1.0, float("nan")):
        with pytest.raises(ValueError, match="time_limit must be"):
            toy.count(time_limit=t)


def test_options_given_as_one_string_are_refused():
    with pytest.raises(TypeError, match="got one str"):
        dancecard.Problem("a b", options="ab")
    assert dancecard.Problem("a b", options=["a b"]).count() == 1
