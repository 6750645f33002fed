"""Ctrl-C (SIGINT) stops a long search within a fraction of a second.

Each test runs a search that would take far longer than the test in a child Python process,
sends it SIGINT after about half a second, and expects the child to catch KeyboardInterrupt
soon after.
"""

import subprocess
import sys

import pytest

from conftest import INSTANCES, interrupt

# The 6x10 pentomino problem with one more primary item that no option covers: no solution,
# and with the leftmost-item heuristic the search walks the pentomino tree for hours before it
# can tell.
SETUP = f"""
import itertools, sys, time
import dancecard
from dancecard import sudoku
text = open({str(INSTANCES / "pent6x10.dlx")!r}).read()
lines = text.splitlines()
head = next(i for i, l in enumerate(lines) if l.strip() and not l.startswith("|"))
lines[head] = lines[head].replace("|", "zz |", 1) if "|" in lines[head] else lines[head] + " zz"
endless = dancecard.Problem.from_dlx("\\n".join(lines))
# Domino tilings of 20 x 20 in DLX text: the memoised search counts 16 x 16 in about a second,
# and this board for far longer (its count passes 2**128 in the end).
n = 20
cells = [f"{{r}},{{c}}" for r in range(n) for c in range(n)]
dominoes = [f"{{r}},{{c}} {{r}},{{c + 1}}" for r in range(n) for c in range(n - 1)]
dominoes += [f"{{r}},{{c}} {{r + 1}},{{c}}" for r in range(n - 1) for c in range(n)]
board = dancecard.Problem.from_dlx(" ".join(cells) + "\\n" + "\\n".join(dominoes) + "\\n")
# The same board without two opposite corners, each domino with a cost: no tiling, and the
# minimum-cost search (#19) walks an exponential tree before it can tell (10 x 10 takes
# seconds).
corners = {{"0,0", f"{{n - 1}},{{n - 1}}"}}
mutilated = [d for d in dominoes if not corners & set(d.split())]
mutilated = dancecard.Problem([c for c in cells if c not in corners], options=mutilated,
                              costs=[k % 10 for k in range(len(mutilated))])
# The 400 queens problem: preprocessing it takes seconds (a round tests 160,000 options).
q = 400
wide = dancecard.Problem(
    [f"r{{i}}" for i in range(q)] + [f"c{{j}}" for j in range(q)],
    secondary=[f"a{{s}}" for s in range(2 * q - 1)] + [f"b{{d}}" for d in range(2 * q - 1)],
    options=[f"r{{i}} c{{j}} a{{i + j}} b{{i - j + q - 1}}" for i in range(q) for j in range(q)])
"""

SEARCHES = {
    # With the leftmost item the count walks the pentomino tree, on whichever kernel the
    # calibration picks (the bit sets count the plain pentomino tree in about 2 s).
    "count": "endless.count(heuristic='leftmost')",
    "count_threads": "endless.count(threads=2, heuristic='leftmost')",
    "first": "endless.first(heuristic='leftmost')",
    "iterator": "next(endless.solutions(heuristic='leftmost'))",
    "sudoku": "sudoku.count('.' * 256)",
    "queens": "dancecard.queens.count(27)",
    # The plain search (by memo, auto counts 10 x 10 dominoes in milliseconds).
    "tiling": "dancecard.tile('10x10', 'dominoes').count(method='search')",
    "tiling_memo": "dancecard.tile('20x20', 'dominoes').count(method='memo', memo_limit=2**28)",
    # The memoised search (#17), and auto, which picks it here, on one thread or more (with
    # threads, the interrupt comes while auto is deciding).
    "count_memo": "board.count(method='memo', memo_limit=2**28)",
    "count_auto": "board.count(memo_limit=2**28)",
    "count_auto_threads": "board.count(threads=2, memo_limit=2**28)",
    "zdd": "board.zdd(memo_limit=2**28)",
    "sample": "board.sample(1, memo_limit=2**28)",
    # The minimum-cost search (#19), with either bound, and preprocessing.
    "min_cost": "mutilated.min_cost(3)",
    "min_cost_dlx5": "mutilated.min_cost(lower_bound='dlx5')",
    "pre": "wide.pre()",
    # Knuth's estimate: a billion probes of the pentomino tree.
    "estimate": "endless.estimate(probes=10**9, heuristic='leftmost')",
    "tiling_iterator": "next(dancecard.tile('6x10', 'pentominoes', once=True).solutions(), "
    "None) and list(dancecard.tile('12x12', 'tetrominoes').solutions())",
    "tiling_distinct": "dancecard.tile('10x10', 'dominoes').count_distinct()",
    # An empty grid: the branch and bound runs for hours.
    "target_sudoku": "dancecard.target_sudoku('0' * 9 + '\\n' + ('0' * 9 + '\\n') * 8)",
    # Korf's instance 1 (57 moves) with the Manhattan distance: hundreds of millions of nodes.
    "slide": "dancecard.slide.solve('14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3', "
    "heuristic='manhattan')",
    # Not a search: an endless argument, read by an iterator written in C, which runs no
    # bytecode (so no signal handler) between its items. See: #16
    "endless_argument": "sudoku.solve(itertools.repeat([0]))",
}


@pytest.mark.parametrize("name", sorted(SEARCHES))
def test_sigint_stops_a_long_search(name):
    code = SETUP + f"""
print("ready", flush=True)
started = time.monotonic()
try:
    {SEARCHES[name]}
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(0)
print("finished after", time.monotonic() - started, flush=True)
"""
    delay = interrupt(code)
    assert delay < 1.0, f"KeyboardInterrupt came {delay:.2f} s after SIGINT"


@pytest.mark.parametrize("name", ["count", "count_threads", "count_memo", "iterator", "queens",
                                  "tiling", "min_cost", "pre"])
def test_a_search_in_a_daemon_thread_does_not_stop_the_exit(name):
    # Off the main thread the search does not poll for signals: it must not take the GIL
    # back while the interpreter shuts down (CPython would end the thread by unwinding
    # through Rust frames, and the process would abort).
    code = SETUP + f"""
import threading
def search():
    {SEARCHES[name]}
for _ in range(3):
    threading.Thread(target=search, daemon=True).start()
time.sleep(0.3)
print("exiting", flush=True)
"""
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
        assert done.stdout.strip() == "exiting"


def test_an_interrupted_iterator_says_it_was_cancelled():
    code = SETUP + """
it = endless.solutions(heuristic='leftmost')
print("ready", flush=True)
try:
    next(it)
except KeyboardInterrupt:
    print("interrupted", it.stats.stop, it.stats.complete, next(it, "done"), flush=True)
"""
    interrupt(code, expected="interrupted cancelled False done")
