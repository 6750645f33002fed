"""The models from Python: queens, tilings, target sudoku, against ground truth and oracles."""

import itertools
import time

import pytest

import dancecard
from dancecard import queens
from conftest import INSTANCES, REPO, read_tsv

TARGET = REPO / "testdata" / "target-sudoku"


@pytest.mark.parametrize("row", [r for r in read_tsv("nqueens.tsv") if int(r["n"]) <= 12])
def test_queens_counts(row):
    n = int(row["n"])
    assert queens.count(n) == int(row["total_A000170"])
    assert queens.count(n, distinct=True) == int(row["distinct_A002562"])
    assert queens.count(n, threads=2) == int(row["total_A000170"])


def attacks(p):
    return any(
        p[i] == p[j] or abs(p[i] - p[j]) == j - i for i in range(len(p)) for j in range(i + 1, len(p))
    )


@pytest.mark.parametrize("n", range(1, 9))
def test_queens_solutions_are_all_boards_in_order(n):
    found = list(queens.solutions(n))
    brute = [list(p) for p in itertools.permutations(range(n)) if not attacks(p)]
    assert found == brute  # permutations come in lexicographic order


def test_queens_solutions_are_lazy():
    started = time.perf_counter()
    # 14,772,512 boards in all; the first three come at once.
    first = list(itertools.islice(queens.solutions(16), 3))
    assert time.perf_counter() - started < 0.5
    assert len(first) == 3 and not any(attacks(p) for p in first)


def test_queens_problem_is_the_instance_model():
    p = queens.problem(8)
    assert p.count() == 92
    # The same tree as Knuth's DLX1 on testdata/instances/queens8.dlx.
    assert p.count(method="search") == 92
    assert p.stats.nodes == 1049
    solution = p.first()
    board = [k % 8 for k in sorted(solution)]
    assert not attacks(board)


def test_queens_errors():
    for n in (0, 33):
        with pytest.raises(ValueError, match=f"^argument 'n': expected an int from 1 to 32, got {n}$"):
            queens.count(n)
        with pytest.raises(ValueError, match=f"^argument 'n': expected an int from 1 to 32, got {n}$"):
            queens.solutions(n)
    with pytest.raises(ValueError, match="^argument 'n': expected an int from 1 to 256, got 0$"):
        queens.problem(0)


def test_tiling_strips_ground_truth():
    rows = {r["pieces"]: r for r in read_tsv("polyomino_tilings.tsv")}
    trominoes = [int(x) for x in rows["straight+L trominoes"]["count"].split(",")]
    tetrominoes = [int(x) for x in rows["5 free tetrominoes (I,O,T,L,S)"]["count"].split(",")]
    for n in range(1, 10):
        t = dancecard.tile((3, n), "trominoes")
        assert t.count() == t.count_dp() == trominoes[n], n
    for n in range(1, 8):
        assert dancecard.tile(f"4x{n}", "tetrominoes").count() == tetrominoes[n], n
    assert dancecard.tile("4x12", "tetrominoes").count_dp() == tetrominoes[12]


def test_domino_tilings_by_dp_and_search():
    for r in read_tsv("domino_tilings.tsv"):
        m, n, tilings = int(r["m"]), int(r["n"]), int(r["tilings"])
        if m * n % 2 or m * n > 96:
            continue
        t = dancecard.tile((m, n), "dominoes")
        assert t.count_dp() == tilings
        if m * n <= 36:
            assert t.count() == tilings


def orbits(tilings, rows, cols):
    """Distinct tilings under the symmetries of a rows x cols rectangle (pure Python)."""
    maps = [lambda r, c: (r, c), lambda r, c: (rows - 1 - r, cols - 1 - c),
            lambda r, c: (rows - 1 - r, c), lambda r, c: (r, cols - 1 - c)]
    if rows == cols:
        maps += [lambda r, c: (c, r), lambda r, c: (cols - 1 - c, rows - 1 - r),
                 lambda r, c: (c, rows - 1 - r), lambda r, c: (cols - 1 - c, r)]
    seen = set()
    for tiling in tilings:
        images = [frozenset(frozenset(f(r, c) for r, c in cells) for _, cells in tiling) for f in maps]
        seen.add(min(images, key=lambda s: sorted(sorted(x) for x in s)))
    return len(seen)


@pytest.mark.parametrize("board, pieces", [((3, 4), "trominoes"), ((4, 4), "dominoes"),
                                           ((4, 5), "tetrominoes"), ((2, 6), "trominoes")])
def test_count_distinct_against_orbits(board, pieces):
    t = dancecard.tile(board, pieces)
    tilings = list(t.solutions())
    assert len(tilings) == t.count()
    assert t.count_distinct() == orbits(tilings, *board)


def test_tiling_solutions_decode_and_render():
    t = dancecard.tile("6x10", "pentominoes", once=True)
    assert sorted(t.pieces) == sorted("FILNPTUVWXYZ") and t.once
    assert t.problem.to_dlx().count("\n") == 2 + 2056
    started = time.perf_counter()
    tilings = list(itertools.islice(t.solutions(), 2))
    assert time.perf_counter() - started < 1.0
    for tiling in tilings:
        assert sorted(name for name, _ in tiling) == sorted(t.pieces)
        cells = [cell for _, c in tiling for cell in c]
        assert sorted(cells) == [(r, c) for r in range(6) for c in range(10)]
    first = t.problem.first()
    drawing = t.render(first).splitlines()
    assert len(drawing) == 6 and all(len(line) == 10 for line in drawing)
    assert set("".join(drawing)) == set("FILNPTUVWXYZ")
    assert t.decode(first) == next(t.solutions())


def test_tiling_inputs():
    # A board in ASCII art with a hole, and pieces as a dict of cells or art.
    ring = dancecard.tile("###\n#.#\n###", {"L": [(0, 0), (1, 0), (1, 1)], "D": "##"})
    by_search = ring.count()
    assert by_search == len(list(ring.solutions())) > 0
    art = dancecard.tile("2x3", "L\n#.\n##\n\n###\n")
    assert art.pieces == ["L", "P2"]
    assert art.count() == dancecard.tile((2, 3), "trominoes").count()
    assert dancecard.tile("2x2", "dominoes", flips=False).count() == 2


@pytest.mark.parametrize(
    "board, pieces, kwargs, message",
    [
        ("6x10", "pentominoes", {"once": True, "flips": True}, None),
        ("5x10", "pentominoes", {"once": True}, "the pieces cover 60 cells in all but the board has 50"),
        ("6by10", "pentominoes", {}, "`6by10` is not a board size like 6x10"),
        ("3x3", "dominoes", {}, "no combination of pieces"),
        ("3x3", "octominoes", {}, "unknown piece set `octominoes`"),
        ("3x3", {"A": [(0, 0), (2, 2)]}, {}, "piece A is not connected"),
        ("#?#", "dominoes", {}, "board line 1, column 2"),
    ],
)
def test_tiling_errors(board, pieces, kwargs, message):
    if message is None:
        assert dancecard.tile(board, pieces, **kwargs) is not None
        return
    with pytest.raises(ValueError, match=message):
        dancecard.tile(board, pieces, **kwargs)


def test_tiling_type_errors():
    with pytest.raises(TypeError):
        dancecard.tile(3.5, "dominoes")
    with pytest.raises(TypeError):
        dancecard.tile("2x2", ["dominoes"])
    with pytest.raises(ValueError, match="profile"):
        dancecard.tile("6x10", "pentominoes", once=True).count_dp()


def read_grid(path):
    return [[int(x) for x in line.split()] for line in path.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("sample", ["sample1", "sample2"])
def test_target_sudoku_samples(sample):
    text = (TARGET / f"{sample}.in").read_text()
    expected = int((TARGET / f"{sample}.out").read_text())
    score, grid = dancecard.target_sudoku(text)
    assert score == expected
    givens = read_grid(TARGET / f"{sample}.in")
    assert all(g in (0, v) for grow, row in zip(givens, grid) for g, v in zip(grow, row))
    assert all(sorted(row) == list(range(1, 10)) for row in grid)
    assert all(sorted(col) == list(range(1, 10)) for col in zip(*grid))
    weights = [[10 - max(abs(r - 4), abs(c - 4)) for c in range(9)] for r in range(9)]
    assert score == sum(v * weights[r][c] for r in range(9) for c in range(9) for v in [grid[r][c]])
    # Rows of ints give the same answer.
    assert dancecard.target_sudoku(givens) == (score, grid)


def test_target_sudoku_without_completion_and_errors():
    clash = [[1] * 9] + [[0] * 9 for _ in range(8)]
    assert dancecard.target_sudoku(clash) is None
    with pytest.raises(ValueError, match="expected 9 lines of 9 digits"):
        dancecard.target_sudoku("1 2 3\n")
    with pytest.raises(ValueError, match="line 1, column 1: unexpected character 'x'"):
        dancecard.target_sudoku("x" * 9 + "\n" + ("0" * 9 + "\n") * 8)
    with pytest.raises(ValueError, match="9 rows of 9 ints"):
        dancecard.target_sudoku([[0] * 9] * 8)
    with pytest.raises(ValueError, match=r"^argument 'grid': grid\[0\]\[0\]: expected an int from 0 to 9, got 12$"):
        dancecard.target_sudoku([[12] + [0] * 8] + [[0] * 9] * 8)
