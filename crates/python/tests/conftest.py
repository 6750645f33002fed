"""Shared helpers of the tests: paths into the repository, and problem builders (those in
problems.py, which the benchmark shares)."""

import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from problems import domino_options, random_problem  # noqa: F401 - re-exported to the tests

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


def interrupt(code, expected="interrupted"):
    """Runs ``code`` in a child Python process; once it prints "ready", sends it SIGINT half
    a second later, and checks that it then prints ``expected`` within 5 seconds and exits
    with status 0. Returns the seconds from the signal to that line."""
    child = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.5)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        with selectors.DefaultSelector() as selector:
            selector.register(child.stdout, selectors.EVENT_READ)
            assert selector.select(timeout=5), "no KeyboardInterrupt within 5 s of SIGINT"
        line = child.stdout.readline().strip()
        delay = time.monotonic() - sent
        assert line == expected, (line, child.returncode, child.stderr.read())
        assert child.wait(timeout=10) == 0
        return delay
    finally:
        child.kill()
        child.wait()


@pytest.fixture
def pent6x10_text():
    return (INSTANCES / "pent6x10.dlx").read_text()
