"""Counting at the limit: the memoised count (Knuth's DLX6), the ZDD of all solutions, uniform
samples, and Knuth's estimate of a search before running it."""

import tempfile
import time
from collections import Counter
from pathlib import Path

import dancecard

INSTANCES = Path(__file__).resolve().parents[3] / "testdata" / "instances"


def instance(name):
    return dancecard.Problem.from_dlx((INSTANCES / f"{name}.dlx").read_text())


# 53 quadrillion domino tilings of 12x12: the plain search would take one step per tiling (years);
# the memoised search meets each remaining problem once.
board = instance("domino12x12")
started = time.perf_counter()
count = board.count()  # method="auto": here the memoised search
print(f"12x12 dominoes: {count} tilings in {time.perf_counter() - started:.3f} s")
print(f"  method {board.stats.method}: {board.stats.nodes} nodes instead of "
      f"{board.stats.memo.plain_nodes:.3e} ({board.stats.reason})")
assert count == 53_060_477_521_960_000

# Queens do not share remaining problems much: auto keeps the plain search.
queens12 = instance("queens12")
assert queens12.count() == 14_200
print(f"12 queens: 14200 solutions by {queens12.stats.method} ({queens12.stats.reason})")

# The ZDD of all 92 solutions of 8 queens: count, list, sample, write in Knuth's format.
queens8 = instance("queens8")
zdd = queens8.zdd()
print(f"\n8 queens: {zdd!r}")
assert zdd.count() == 92 and sorted(zdd.solutions()) == sorted(queens8.solutions())
samples = zdd.sample(9_200, seed=1)
drawn = Counter(tuple(s) for s in samples)
print(f"  9,200 samples: every solution drawn {min(drawn.values())} to "
      f"{max(drawn.values())} times (100 expected)")
assert len(drawn) == 92 and all(queens8.is_solution(s) for s in drawn)
with tempfile.TemporaryDirectory() as tmp:
    path = Path(tmp) / "queens8.zdd"
    zdd.write(path)  # Knuth's ZDDREAD text, as `dancecard solve --zdd` writes it
    lines = path.read_text().splitlines()
    print(f"  {path.name}: {len(lines)} lines, the first {lines[0]!r}, the last {lines[-1]!r}")

# One uniformly random tiling of 12x12.
tiling = board.sample(1, seed=2026)[0]
print(f"\na random 12x12 tiling takes options {tiling[:6]}... ({len(tiling)} dominoes)")

# Before a long run: Knuth's estimate of the plain search, and what auto would do.
e = instance("domino8x8").estimate(probes=1000, seed=1)
print(f"\n8x8 dominoes, estimated: {e.nodes:.3e} ± {e.nodes_stderr:.1e} plain nodes (50,102,176), "
      f"{e.solutions:.3e} ± {e.solutions_stderr:.1e} solutions (12,988,816); auto: {e.auto}")
