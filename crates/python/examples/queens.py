"""N-queens: counts, boards, and the exact cover model."""

import itertools

from dancecard import queens

for n in range(4, 13):
    print(f"{n:2} queens: {queens.count(n):6} solutions, {queens.count(n, distinct=True):5} up to symmetry")
assert queens.count(12) == 14_200

# The first boards in lexicographic order (the file of the queen on each rank).
for board in itertools.islice(queens.solutions(8), 2):
    print("\n".join(" ".join("Q" if f == file else "." for f in range(8)) for file in board), end="\n\n")

# The same problem as exact cover: ranks and files primary, diagonals secondary.
problem = queens.problem(8)
print(problem, "->", problem.count(), "solutions,", problem.stats.nodes, "nodes (as Knuth's DLX1)")
