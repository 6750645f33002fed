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

Both sides are timed by one rule (#22): REPEAT rounds, each running the pure-Python solver
and then each of the package's runs once, alternating, so that both see the same machine
and the same warmth; every time printed is the median over the rounds, and every ratio the
median of the rounds' ratios (the median of alternating pairs). The output says so, and
prints the command that made it.

The package counts by the plain search (``count(method="search")``): the default, ``auto``,
may count by memoisation instead (Knuth's DLX6), another tree with far fewer nodes, which
is not what this compares.

Times are wall-clock, or CPU time of the process with --cpu (steadier when other jobs share
the machine; the two-thread runs are then skipped).

Usage: python bench/bench.py [--quick] [--full] [--cpu] [--nodes N] [--repeat R]
"""

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

import dancecard

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
# The problem builders the tests use (tests/problems.py: plain Python).
sys.path.insert(0, str(HERE.parent / "tests"))
from problems import domino_options  # noqa: E402


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
    """Items and options of the domino tilings of rows x cols, options as item numbers from 1
    (the tests' builder, numbered as parse_dlx numbers)."""
    names, options = domino_options(rows, cols)
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


def timed(fn):
    """(result, seconds) of one call."""
    started = clock()
    result = fn()
    return result, clock() - started


def rounds(repeat, python, package):
    """Times ``python`` (the pure-Python run, or None) and each of ``package`` (name -> run)
    in ``repeat`` alternating rounds: each round runs ``python`` once, then each package run
    once. Returns (the last results by name, "python" included; the median seconds by name;
    the median by package name of the rounds' ratios python / package)."""
    runs = ([("python", python)] if python else []) + list(package.items())
    results, times, ratios = {}, {name: [] for name, _ in runs}, {name: [] for name in package}
    for _ in range(repeat):
        for name, run in runs:
            results[name], seconds = timed(run)
            times[name].append(seconds)
        if python:
            for name in package:
                ratios[name].append(times["python"][-1] / times[name][-1])
    medians = {name: statistics.median(t) for name, t in times.items()}
    return results, medians, {name: statistics.median(r) for name, r in ratios.items() if r}


def package_problem(names, options):
    return dancecard.Problem(names, options=[[names[i - 1] for i in o] for o in options])


def fmt(seconds):
    return f"{seconds:.3f} s" if seconds >= 0.1 else f"{seconds * 1000:.1f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small budget, one run each")
    parser.add_argument("--full", action="store_true", help="run pure Python on all of pent6x10")
    parser.add_argument("--nodes", type=int, help="pure-Python node budget on pent6x10")
    parser.add_argument("--repeat", type=int,
                        help="alternating rounds (the median of each time and ratio is kept)")
    parser.add_argument("--cpu", action="store_true",
                        help="measure CPU time instead of wall time (steadier on a busy "
                        "machine; not for the two-thread runs, whose CPU time adds up)")
    args = parser.parse_args()
    global CPU
    CPU = args.cpu
    repeat = args.repeat or (1 if args.quick else 3)
    budget = args.nodes or (20_000 if args.quick else 200_000)

    command = "python " + " ".join([sys.argv[0]] + sys.argv[1:])
    print(f"dancecard {dancecard.__version__}, Python {platform.python_version()}, "
          f"{platform.machine()}; {'CPU' if CPU else 'wall-clock'} time")
    print(f"statistic: median of {repeat} alternating round(s) (pure Python, then the "
          "package's runs); ratios: median of the rounds' ratios")
    print(f"command: {command}")
    print()

    # 6x8 dominoes: both searches in full.
    names, options = dominoes(6, 8)
    problem = package_problem(names, options)
    runs = {"count()": lambda: problem.count(method="search")}
    if not CPU:
        runs["count(threads=2)"] = lambda: problem.count(threads=2, method="search")
    runs["solutions() loop"] = lambda: sum(1 for _ in problem.solutions())
    results, seconds, ratio = rounds(repeat, lambda: pure_python(names, options), runs)
    py_count, py_nodes = results["python"]
    assert py_count == results["count()"] == results["solutions() loop"] == 167_089
    problem.count(method="search")
    assert py_nodes == problem.stats.nodes, (py_nodes, problem.stats.nodes)
    print(f"6x8 dominoes: {py_count} solutions, {py_nodes} nodes")
    print(f"  pure-Python array DLX        {fmt(seconds['python']):>12}")
    for name in runs:
        note = "  (every solution as a Python list)" if name == "solutions() loop" else ""
        print(f"  dancecard {name:<18} {fmt(seconds[name]):>12}   {ratio[name]:6.0f}x faster{note}")
    print()

    # Pentominoes on 6x10.
    names, options = parse_dlx((REPO / "testdata" / "instances" / "pent6x10.dlx").read_text())
    problem = package_problem(names, options)
    runs = {"count()": lambda: problem.count(method="search")}
    if not CPU:
        runs["count(threads=2)"] = lambda: problem.count(threads=2, method="search")
    if args.full:
        results, seconds, ratio = rounds(repeat, lambda: pure_python(names, options), runs)
        problem.count(method="search")
        total_nodes = problem.stats.nodes
        assert results["python"] == (9356, total_nodes), results["python"]
        label = "measured"
    else:
        # The same first `budget` nodes in both, alternating; then dancecard's whole tree, and
        # the pure-Python time of the whole tree as dancecard's times the median ratio.
        part = {"first nodes": lambda: problem.count(max_nodes=budget, method="search")}
        results, part_seconds, part_ratio = rounds(
            repeat, lambda: pure_python(names, options, budget), part)
        py_nodes = results["python"][1]
        assert problem.stats.nodes == py_nodes, (problem.stats.nodes, py_nodes)
        results, seconds, _ = rounds(repeat, None, runs)
        problem.count(method="search")
        total_nodes = problem.stats.nodes
        r = part_ratio["first nodes"]
        seconds["python"] = seconds["count()"] * r
        ratio = {name: seconds["python"] / seconds[name] for name in runs}
        part_line = (f"  first {py_nodes} nodes: pure Python {fmt(part_seconds['python'])}, "
                     f"dancecard {fmt(part_seconds['first nodes'])} ({r:.0f}x)")
        label = "extrapolated"
    assert results["count()"] == 9356, results["count()"]
    print(f"pent6x10: 9356 solutions, {total_nodes} nodes")
    if not args.full:
        print(part_line)
    print(f"  pure-Python array DLX        {fmt(seconds['python']):>12}   ({label})")
    for name in runs:
        print(f"  dancecard {name:<18} {fmt(seconds[name]):>12}   {ratio[name]:6.0f}x faster")
    return 0


if __name__ == "__main__":
    sys.exit(main())
