"""Domino tilings of rectangles: counts, and a few tilings drawn from the lazy iterator.

The tiling model (dancecard.tile) builds the exact cover problem: one item per cell, one
option per domino placement; decode() gives each placement's cells as (row, column) pairs.
"""

import time

import dancecard


def draw(tiling, solution, rows, cols):
    grid = [[" "] * cols for _ in range(rows)]
    for _, ((r1, c1), (r2, c2)) in tiling.decode(solution):
        if r1 == r2:
            grid[r1][c1], grid[r2][c2] = "<", ">"
        else:
            grid[r1][c1], grid[r2][c2] = "^", "v"
    return "\n".join("".join(row) for row in grid)


p = dancecard.tile((6, 8), "dominoes").problem
started = time.perf_counter()
count = p.count()
print(f"6x8: {count} tilings in {time.perf_counter() - started:.3f} s ({p.stats.nodes} nodes)")
assert count == 167_089

# 8x8 has 12,988,816 tilings; the iterator computes only the ones taken.
board = dancecard.tile((8, 8), "dominoes")
for solution in board.problem.solutions(limit=3):
    print(draw(board, solution, 8, 8), end="\n\n")

# The same problem built by hand, the cells as (row, column) tuples: items of any hashable
# type are kept, and the options come back as lists of cells.
cells = [(r, c) for r in range(2) for c in range(4)]
options = [[(r, c), (r, c + 1)] for r in range(2) for c in range(3)]
options += [[(0, c), (1, c)] for c in range(4)]
q = dancecard.Problem(cells, options=options)
print("2x4:", q.count(), "tilings; the first:", [q.options[k] for k in q.first()])
