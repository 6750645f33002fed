"""The tests run against the package as installed: under ./scripts/test-python, the wheel that
maturin built, installed into a fresh virtual environment (DANCECARD_WHEEL_VENV), never the
sources in crates/python/python. See: #21
"""

import os
from pathlib import Path

import pytest

import dancecard
from conftest import REPO


@pytest.mark.skipif("DANCECARD_WHEEL_VENV" not in os.environ,
                    reason="only under ./scripts/test-python, which installs the wheel")
def test_the_wheel_is_what_is_imported():
    venv = Path(os.environ["DANCECARD_WHEEL_VENV"]).resolve()
    for module in (dancecard, dancecard._native, dancecard.sudoku):
        path = Path(module.__file__).resolve()
        assert venv in path.parents, path
        assert REPO / "crates" / "python" / "python" not in path.parents, path
