"""dancecard.sudoku against the sudoku data of testdata/sudoku."""

import pytest

from dancecard import sudoku
from conftest import SUDOKU

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"


def tdoku_cases():
    cases = []
    for line in (SUDOKU / "tdoku_test_puzzles").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            # puzzle:count, and :solution when there is one
            puzzle, count, *solution = line.split(":")
            cases.append((puzzle, int(count), solution[0] if solution else None))
    return cases


@pytest.mark.parametrize("method", ["fast", "dlx"])
@pytest.mark.parametrize("puzzle, count, solution", tdoku_cases())
def test_tdoku_counts(puzzle, count, solution, method):
    assert sudoku.count(puzzle, method=method) == count
    assert sudoku.is_unique(puzzle, method=method) == (count == 1)
    found = sudoku.solve(puzzle, method=method)
    if count == 0:
        assert found is None
    else:
        assert len(found) == 81 and "." not in found
        assert all(p in ".0" or p == s for p, s in zip(puzzle, found))
        if count == 1:
            assert found == solution


def lines(name):
    return [
        line.split()[0]
        for line in (SUDOKU / "emerentius_lines" / name).read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_emerentius_solutions(level):
    puzzles = lines(f"{level}_sudokus.txt")
    solved = lines(f"solved_{level}_sudokus.txt")
    assert len(puzzles) == len(solved) > 0
    for puzzle, solution in zip(puzzles, solved):
        assert sudoku.solve(puzzle) == solution


def test_emerentius_invalid_puzzles():
    for line in (SUDOKU / "emerentius_lines" / "invalid_sudokus.txt").read_text().splitlines():
        puzzle, why = line.split(maxsplit=1)
        if why.endswith("duplicate"):
            # Givens that clash: the puzzle is rejected, with the unit named.
            with pytest.raises(ValueError, match=f"given twice in {why.split()[0]}"):
                sudoku.solve(puzzle)
        else:
            # Valid givens, no solution.
            assert why.startswith("unsolvable")
            assert sudoku.solve(puzzle) is None
            assert sudoku.count(puzzle, method="dlx") == 0


def test_inkala_in_every_form():
    assert sudoku.solve(INKALA) == INKALA_SOLUTION
    rows = [[int(ch) if ch != "." else 0 for ch in INKALA[9 * r : 9 * r + 9]] for r in range(9)]
    solved = sudoku.solve(rows)
    assert solved == [[int(ch) for ch in INKALA_SOLUTION[9 * r : 9 * r + 9]] for r in range(9)]
    text = "\n".join(" ".join(map(str, row)) for row in rows)
    assert sudoku.solve(text) == INKALA_SOLUTION
    assert sudoku.is_unique(rows)


def test_other_shapes():
    assert sudoku.count("." * 16) == 288
    assert sudoku.count("." * 16, method="dlx") == 288
    assert sudoku.count("." * 16, limit=10) == 10
    # 6x6 with 2x3 boxes (28,200,960 grids in all).
    assert sudoku.count("." * 36, box="2x3", limit=1000) == 1000
    filled = sudoku.solve("." * 36, box="2x3")
    assert len(filled) == 36 and sudoku.count(filled, box="2x3") == 1
    big = sudoku.solve("." * 256)
    assert big is not None and set(big) == set("123456789ABCDEFG")


@pytest.mark.parametrize(
    "puzzle, message",
    [
        ("1" * 80, "line 1: 80 cells, expected 16, 81, 256 or 625"),
        ("." * 80 + "x", "line 1, column 81: bad symbol `x` for a 9x9 grid"),
        ("11" + "." * 79, "line 1: value 1 is given twice in row 1"),
        ("." * 36, "pass box=\"RxC\" for rectangular boxes"),
    ],
)
def test_bad_puzzles(puzzle, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        sudoku.solve(puzzle)


def test_bad_arguments():
    with pytest.raises(ValueError, match="^argument 'box': bad box shape `3by3`"):
        sudoku.solve("." * 81, box="3by3")
    with pytest.raises(TypeError, match="^argument 'box': expected a box shape \"RxC\" or None, got int$"):
        sudoku.solve("." * 81, box=3)
    with pytest.raises(ValueError, match="^argument 'method': expected \"fast\" or \"dlx\", got \"magic\"$"):
        sudoku.count("." * 81, method="magic")
    with pytest.raises(ValueError, match="^argument 'limit': expected a non-negative int below 2\\*\\*64 or None, got -1$"):
        sudoku.count("." * 81, limit=-1)
    with pytest.raises(TypeError, match=r"^argument 'puzzle': puzzle\[0\]\[1\]: expected an int from 0 to 32, got str$"):
        sudoku.solve([[1, "2"], [3, 4]])
    with pytest.raises(TypeError, match="^argument 'puzzle': expected a str, or rows of ints, got bytes$"):
        sudoku.solve(b"." * 16)
    with pytest.raises(ValueError, match="line 2: 3 numbers in a grid row, expected 4"):
        sudoku.solve([[1, 2, 3, 4], [3, 4, 1], [2, 1, 4, 3], [4, 3, 2, 1]])
