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


@pytest.fixture
def pent6x10_text():
    return (INSTANCES / "pent6x10.dlx").read_text()
