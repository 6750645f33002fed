"""Known counts of testdata/ground-truth and testdata/instances, from Python."""

import pytest

import dancecard
from conftest import INSTANCES, domino_options, read_tsv


def domino_cases(max_cells):
    return [
        (int(r["m"]), int(r["n"]), int(r["tilings"]))
        for r in read_tsv("domino_tilings.tsv")
        if int(r["m"]) * int(r["n"]) <= max_cells
    ]


@pytest.mark.parametrize("m, n, tilings", domino_cases(48))
def test_domino_tilings(m, n, tilings):
    cells, options = domino_options(m, n)
    assert dancecard.Problem(cells, options=options).count() == tilings


def queens_problem(n):
    """n queens: ranks and files primary, diagonals secondary."""
    primary = [f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)]
    secondary = [f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)]
    options = [
        [f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j + n - 1}"] for i in range(n) for j in range(n)
    ]
    return dancecard.Problem(primary, secondary, options)


@pytest.mark.parametrize("row", [r for r in read_tsv("nqueens.tsv") if int(r["n"]) <= 10])
def test_nqueens(row):
    assert queens_problem(int(row["n"])).count() == int(row["total_A000170"])


def langford_problem(n):
    """Langford pairs: place 1,1,...,n,n in 2n slots, k numbers between the two k's."""
    primary = [f"v{k}" for k in range(1, n + 1)] + [f"s{i}" for i in range(2 * n)]
    options = [
        [f"v{k}", f"s{i}", f"s{i + k + 1}"]
        for k in range(1, n + 1)
        for i in range(2 * n - k - 1)
    ]
    return dancecard.Problem(primary, options=options)


@pytest.mark.parametrize("row", [r for r in read_tsv("langford_L2n.tsv") if int(r["n"]) <= 12])
def test_langford(row):
    assert langford_problem(int(row["n"])).count() == int(row["exact_cover_count"])


def strip_tilings(rows, cols, shapes):
    """Tilings of a rows x cols strip by free polyominoes given as cell lists."""

    def variants(shape):
        out = set()
        cells = shape
        for _ in range(4):
            cells = [(c, -r) for r, c in cells]
            for flip in (cells, [(r, -c) for r, c in cells]):
                r0 = min(r for r, _ in flip)
                c0 = min(c for _, c in flip)
                out.add(tuple(sorted((r - r0, c - c0) for r, c in flip)))
        return out

    cells = [f"{r},{c}" for r in range(rows) for c in range(cols)]
    options = []
    for shape in shapes:
        for v in variants(shape):
            for dr in range(rows):
                for dc in range(cols):
                    placed = [(r + dr, c + dc) for r, c in v]
                    if all(r < rows and c < cols for r, c in placed):
                        options.append([f"{r},{c}" for r, c in placed])
    return dancecard.Problem(cells, options=options).count()


def test_polyomino_strips():
    rows = {r["pieces"]: r for r in read_tsv("polyomino_tilings.tsv")}
    trominoes = [[(0, 0), (0, 1), (0, 2)], [(0, 0), (1, 0), (1, 1)]]
    expected = [int(x) for x in rows["straight+L trominoes"]["count"].split(",")]
    for n in range(1, 9):
        assert strip_tilings(3, n, trominoes) == expected[n], n
    tetrominoes = [
        [(0, 0), (0, 1), (0, 2), (0, 3)],
        [(0, 0), (0, 1), (1, 0), (1, 1)],
        [(0, 0), (0, 1), (0, 2), (1, 1)],
        [(0, 0), (1, 0), (2, 0), (2, 1)],
        [(0, 1), (0, 2), (1, 0), (1, 1)],
    ]
    expected = [int(x) for x in rows["5 free tetrominoes (I,O,T,L,S)"]["count"].split(",")]
    for n in range(1, 7):
        assert strip_tilings(4, n, tetrominoes) == expected[n], n


def test_square_domino_boards_up_to_8x8():
    rows = [r for r in read_tsv("domino_square_A004003.tsv") if 1 <= int(r["n"]) <= 4]
    for r in rows:
        side = 2 * int(r["n"])
        if side < 8:
            cells, options = domino_options(side, side)
            p = dancecard.Problem(cells, options=options)
        else:
            p = dancecard.Problem.from_dlx((INSTANCES / "domino8x8.dlx").read_text())
        assert p.count(threads=2) == int(r["tilings"])


@pytest.mark.parametrize(
    "name, solutions, nodes, updates",
    [
        ("domino6x6", 6728, 25_695, 95_296),
        ("queens8", 92, 1_049, 16_680),
        ("queens12", 14_200, 211_716, 3_594_752),
        ("sudoku_inkala", 1, 2_826, 50_570),
    ],
)
def test_instances_with_knuths_counts(name, solutions, nodes, updates):
    # testdata/instances/README.md: what DLX1 reports on these files, to the unit.
    p = dancecard.Problem.from_dlx((INSTANCES / f"{name}.dlx").read_text())
    assert p.count(method="search") == solutions
    assert (p.stats.nodes, p.stats.updates, p.stats.solutions) == (nodes, updates, solutions)
