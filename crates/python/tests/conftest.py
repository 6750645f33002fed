"""Shared helpers of the tests: paths into the repository, and problem builders."""

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
INSTANCES = REPO / "testdata" / "instances"
GROUND_TRUTH = REPO / "testdata" / "ground-truth"
SUDOKU = REPO / "testdata" / "sudoku"


def read_tsv(name):
    """Rows of a ground-truth TSV file as dicts (comment lines skipped)."""
    lines = [
        line.rstrip("\n")
        for line in (GROUND_TRUTH / name).read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"))) for line in lines[1:]]


def domino_options(rows, cols):
    """Options of the domino tilings of a rows x cols board; items are the cells "r,c"."""
    cells = [f"{r},{c}" for r in range(rows) for c in range(cols)]
    options = []
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                options.append([f"{r},{c}", f"{r},{c + 1}"])
            if r + 1 < rows:
                options.append([f"{r},{c}", f"{r + 1},{c}"])
    return cells, options


def random_problem(rng):
    """A small random problem from ``rng`` (a ``random.Random``): (primary, secondary,
    options), with secondary items and colors; the oracle (oracle.py) solves it at once."""
    n_primary = rng.randint(1, 7)
    n_secondary = rng.randint(0, 3)
    primary = [f"p{i}" for i in range(n_primary)]
    secondary = [f"s{i}" for i in range(n_secondary)]
    colors = ["red", "blue"]
    options = []
    for _ in range(rng.randint(1, 22)):
        items = rng.sample(primary, rng.randint(1, min(3, n_primary)))
        if secondary and rng.random() < 0.6:
            for s in rng.sample(secondary, rng.randint(1, n_secondary)):
                items.append(s if rng.random() < 0.4 else f"{s}:{rng.choice(colors)}")
        rng.shuffle(items)
        options.append(items)
    return primary, secondary, options


@pytest.fixture
def pent6x10_text():
    return (INSTANCES / "pent6x10.dlx").read_text()
