"""Minimum-cost exact cover (Knuth's DLX5), item bounds (DLX3) and preprocessing (DLX-PRE)."""

import itertools
import time
from pathlib import Path

import dancecard

INSTANCES = Path(__file__).resolve().parents[3] / "testdata" / "instances"


def instance(name):
    return dancecard.Problem.from_dlx((INSTANCES / f"{name}.dlx").read_text())


# An assignment problem: each worker takes one job, each job one worker, at the least total
# cost. Items are the workers and the jobs; option "w j" costs what worker w asks for job j.
asks = {
    "ann": {"paint": 8, "wire": 4, "plumb": 7, "tile": 5},
    "bob": {"paint": 5, "wire": 2, "plumb": 3, "tile": 6},
    "cy": {"paint": 9, "wire": 4, "plumb": 8, "tile": 9},
    "dee": {"paint": 6, "wire": 7, "plumb": 5, "tile": 4},
}
workers = list(asks)
jobs = list(asks["ann"])
options = [f"{w} {j}" for w in workers for j in jobs]
costs = [asks[w][j] for w in workers for j in jobs]
problem = dancecard.Problem(workers + jobs, options=options, costs=costs)
print("the three cheapest assignments:")
for cost, solution in problem.min_cost(3):
    print(f"  {cost}: {', '.join(problem.options[k] for k in solution)}")
print(f"  ({problem.stats.nodes} nodes)")
# Every permutation, to check: 4! = 24 of them.
best = min(sum(asks[w][j] for w, j in zip(workers, p)) for p in itertools.permutations(jobs))
assert problem.min_cost()[0][0] == best

# Knuth's DLX5 on the pentominoes of 6x10, each placement with a cost (the instance's |cost
# after each option): the three best tilings. lower_bound="dlx5" walks DLX5's own tree
# (204,170 nodes); the default also bounds what the items left must cost, and cuts it.
pent = instance("cost_pent6x10")
started = time.perf_counter()
best3 = pent.min_cost(3)
print(f"cost_pent6x10: costs {[c for c, _ in best3]}, {pent.stats.nodes} nodes, "
      f"{time.perf_counter() - started:.2f} s")
assert [c for c, _ in best3] == [235, 253, 259]

# Bounds (multiplicities): a primary item covered from lo to hi times. Two 1s in every row
# and column of a 4x4 0/1 matrix: 90 ways (OEIS A001499).
cells = [f"r{r} c{c}" for r in range(4) for c in range(4)]
lines = [f"r{r}" for r in range(4)] + [f"c{c}" for c in range(4)]
twos = dancecard.Problem(lines, options=cells, bounds={name: 2 for name in lines})
print("two 1s in every row and column of 4x4:", twos.count())
assert twos.count() == 90

# Preprocessing: DLX-PRE removes the 144 pentomino placements that no tiling can use (each
# leaves some cell that nothing else can cover); the reduced problem has the same tilings,
# its options mapped back by `origins`, and the same least costs.
reduction = pent.pre()
print(f"pre: {len(reduction.removed_options)} of {len(pent.options)} options removed in "
      f"{reduction.rounds} rounds: {reduction}")
assert len(reduction.removed_options) == 144
cost, solution = reduction.problem.min_cost()[0]
original = sorted(reduction.origins[k] for k in solution)
assert pent.is_solution(original) and cost == 235
print(f"the cheapest tiling, found in the reduced problem: cost {cost}, options {original}")
