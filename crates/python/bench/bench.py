"""The dancecard package against a pure-Python dancing-links solver, on the same problems.

The pure-Python solver below is the array-based DLX that Python programmers write (six
parallel lists instead of node objects, Knuth's minimum-remaining-values choice, recursion),
as in the seeds' chapter on Dancing Links, whose measured rate was about 5e5 search-tree
nodes a second. It branches exactly as the engine does (the first item with the fewest
options, options in input order), so both walk the same tree: the script checks that their
node counts agree.

Problems: domino tilings of 6x8 (167,089) and the 12 pentominoes on 6x10
(testdata/instances/pent6x10.dlx, 9,356 placements).

The pure-Python solver takes many minutes on pent6x10. Unless --full is given, it runs only
the first NODES nodes of the pentomino tree (the engine runs the same nodes with max_nodes),
the ratio is measured on that identical work, and the pure-Python time of the whole tree is
extrapolated from it (printed as such). With --quick, the budget is smaller and each
measurement is taken once.

The package counts by the plain search (``count(method="search")``): the default, ``auto``,
may count by memoisation instead (Knuth's DLX6), another tree with far fewer nodes, which
is not what this compares.

Times are wall-clock, or CPU time of the process with --cpu (steadier when other jobs share
the machine; the two-thread runs are then skipped).

Usage: python bench/bench.py [--quick] [--full] [--cpu] [--nodes N] [--repeat R]
"""

import argparse
import platform
import sys
import time
from pathlib import Path

import dancecard

REPO = Path(__file__).resolve().parents[3]


class Budget(Exception):
    """The pure-Python search ran out of nodes."""


class ArrayDLX:
    """Exact cover by dancing links on parallel Python lists (Knuth's Algorithm X).

    Node 0 is the root, nodes 1..n the item headers, then one node per option entry. For a
    header, ``top`` is its own index and ``size`` its number of options.
    """

    def __init__(self, n_items, options):
        size = n_items + 1 + sum(len(o) for o in options)
        self.L = list(range(-1, n_items)) + [0] * (size - n_items - 1)
        self.R = list(range(1, n_items + 2)) + [0] * (size - n_items - 1)
        self.L[0] = n_items
        self.R[n_items] = 0
        self.U = list(range(size))
        self.D = list(range(size))
        self.top = list(range(size))
        self.size = [0] * (n_items + 1)
        self.nodes = 0
        self.budget = None
        U, D, L, R, top = self.U, self.D, self.L, self.R, self.top
        x = n_items
        for option in options:
            first = x + 1
            for item in option:
                x += 1
                top[x] = item
                self.size[item] += 1
                # Append x at the bottom of item's vertical list.
                U[x] = U[item]
                D[x] = item
                D[U[item]] = x
                U[item] = x
                L[x] = x - 1
                R[x] = x + 1
            L[first] = x
            R[x] = first

    def cover(self, c):
        L, R, U, D, top, size = self.L, self.R, self.U, self.D, self.top, self.size
        R[L[c]] = R[c]
        L[R[c]] = L[c]
        i = D[c]
        while i != c:
            j = R[i]
            while j != i:
                D[U[j]] = D[j]
                U[D[j]] = U[j]
                size[top[j]] -= 1
                j = R[j]
            i = D[i]

    def uncover(self, c):
        L, R, U, D, top, size = self.L, self.R, self.U, self.D, self.top, self.size
        i = U[c]
        while i != c:
            j = L[i]
            while j != i:
                size[top[j]] += 1
                U[D[j]] = j
                D[U[j]] = j
                j = L[j]
            i = U[i]
        R[L[c]] = c
        L[R[c]] = c

    def count(self):
        """The number of solutions; each call is one node of the search tree, as Knuth
        counts them (a level entered, or a solution). The budget stops the search before it
        enters a level, as the engine's max_nodes does."""
        R, L, D, size, top = self.R, self.L, self.D, self.size, self.top
        c = R[0]
        if c == 0:
            self.nodes += 1
            return 1
        if self.budget is not None and self.nodes >= self.budget:
            raise Budget
        self.nodes += 1
        best = size[c]
        j = R[c]
        while j and best:
            if size[j] < best:
                best = size[j]
                c = j
            j = R[j]
        self.cover(c)
        total = 0
        r = D[c]
        while r != c:
            j = R[r]
            while j != r:
                self.cover(top[j])
                j = R[j]
            total += self.count()
            j = L[r]
            while j != r:
                self.uncover(top[j])
                j = L[j]
            r = D[r]
        self.uncover(c)
        return total


def parse_dlx(text):
    """Items (all primary here) and options of a DLX file, options as item numbers from 1."""
    lines = [l for l in text.splitlines() if l.strip() and not l.lstrip().startswith("|")]
    names = lines[0].split()
    assert "|" not in names, "the benchmark problems have primary items only"
    number = {name: k + 1 for k, name in enumerate(names)}
    return names, [[number[t] for t in line.split()] for line in lines[1:]]


def dominoes(rows, cols):
    names = [f"{r},{c}" for r in range(rows) for c in range(cols)]
    options = []
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                options.append([f"{r},{c}", f"{r},{c + 1}"])
            if r + 1 < rows:
                options.append([f"{r},{c}", f"{r + 1},{c}"])
    number = {name: k + 1 for k, name in enumerate(names)}
    return names, [[number[t] for t in o] for o in options]


def clock():
    """The time to measure: CPU seconds of the process (all its threads) with --cpu, else
    wall-clock seconds."""
    return time.process_time() if CPU else time.perf_counter()


CPU = False


def pure_python(names, options, budget=None):
    """(solutions or None if the budget ran out, nodes)."""
    dlx = ArrayDLX(len(names), options)
    dlx.budget = budget
    try:
        solutions = dlx.count()
    except Budget:
        solutions = None
    return solutions, dlx.nodes


def best_of(repeat, fn):
    times = []
    for _ in range(repeat):
        started = clock()
        result = fn()
        times.append(clock() - started)
    return result, min(times)


def package_problem(names, options):
    return dancecard.Problem(names, options=[[names[i - 1] for i in o] for o in options])


def fmt(seconds):
    return f"{seconds:.3f} s" if seconds >= 0.1 else f"{seconds * 1000:.1f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small budget, one run each")
    parser.add_argument("--full", action="store_true", help="run pure Python on all of pent6x10")
    parser.add_argument("--nodes", type=int, help="pure-Python node budget on pent6x10")
    parser.add_argument("--repeat", type=int, help="runs of each measurement (best is kept)")
    parser.add_argument("--cpu", action="store_true",
                        help="measure CPU time instead of wall time (steadier on a busy "
                        "machine; not for the two-thread runs, whose CPU time adds up)")
    args = parser.parse_args()
    global CPU
    CPU = args.cpu
    repeat = args.repeat or (1 if args.quick else 3)
    budget = args.nodes or (20_000 if args.quick else 200_000)

    print(f"dancecard {dancecard.__version__}, Python {platform.python_version()}, "
          f"{platform.machine()}; best of {repeat}; {'CPU' if CPU else 'wall-clock'} time")
    print()

    # 6x8 dominoes: both searches in full.
    names, options = dominoes(6, 8)
    (py_count, py_nodes), py_time = best_of(repeat, lambda: pure_python(names, options))
    problem = package_problem(names, options)
    dc_count, dc_time = best_of(repeat, lambda: problem.count(method="search"))
    assert py_count == dc_count == 167_089, (py_count, dc_count)
    assert py_nodes == problem.stats.nodes, (py_nodes, problem.stats.nodes)
    _, dc2_time = best_of(repeat, lambda: problem.count(threads=2, method="search")) if not CPU else (0, 0)
    _, iter_time = best_of(repeat, lambda: sum(1 for _ in problem.solutions()))
    print(f"6x8 dominoes: {dc_count} solutions, {py_nodes} nodes")
    print(f"  pure-Python array DLX        {fmt(py_time):>12}")
    print(f"  dancecard count()            {fmt(dc_time):>12}   {py_time / dc_time:6.0f}x faster")
    if dc2_time:
        print(f"  dancecard count(threads=2)   {fmt(dc2_time):>12}   {py_time / dc2_time:6.0f}x faster")
    print(f"  dancecard solutions() loop   {fmt(iter_time):>12}   {py_time / iter_time:6.0f}x faster"
          "  (every solution as a Python list)")
    print()

    # Pentominoes on 6x10.
    names, options = parse_dlx((REPO / "testdata" / "instances" / "pent6x10.dlx").read_text())
    problem = package_problem(names, options)
    dc_count, dc_time = best_of(repeat, lambda: problem.count(method="search"))
    total_nodes = problem.stats.nodes
    assert dc_count == 9356, dc_count
    _, dc2_time = best_of(repeat, lambda: problem.count(threads=2, method="search")) if not CPU else (0, 0)
    print(f"pent6x10: {dc_count} solutions, {total_nodes} nodes")
    if args.full:
        (py_count, py_nodes), py_time = best_of(1, lambda: pure_python(names, options))
        assert (py_count, py_nodes) == (dc_count, total_nodes), (py_count, py_nodes)
        label = "measured"
    else:
        # The same first `budget` nodes in both, then scale dancecard's full time by the ratio.
        (_, py_nodes), py_part = best_of(1, lambda: pure_python(names, options, budget))
        _, dc_part = best_of(repeat, lambda: problem.count(max_nodes=py_nodes, method="search"))
        assert problem.stats.nodes == py_nodes, (problem.stats.nodes, py_nodes)
        ratio = py_part / dc_part
        py_time = dc_time * ratio
        print(f"  first {py_nodes} nodes: pure Python {fmt(py_part)}, dancecard {fmt(dc_part)}"
              f" ({ratio:.0f}x)")
        label = "extrapolated"
    print(f"  pure-Python array DLX        {fmt(py_time):>12}   ({label})")
    print(f"  dancecard count()            {fmt(dc_time):>12}   {py_time / dc_time:6.0f}x faster")
    if dc2_time:
        print(f"  dancecard count(threads=2)   {fmt(dc2_time):>12}   {py_time / dc2_time:6.0f}x faster")
    return 0


if __name__ == "__main__":
    sys.exit(main())
