"""Domino tilings of rectangles: counts, and a few tilings drawn from the lazy iterator."""

import time

import dancecard


def dominoes(rows, cols):
    """The exact cover problem whose solutions are the domino tilings of rows x cols."""
    cells = [f"{r}{c}" for r in range(rows) for c in range(cols)]
    options = []
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                options.append([f"{r}{c}", f"{r}{c + 1}"])
            if r + 1 < rows:
                options.append([f"{r}{c}", f"{r + 1}{c}"])
    return dancecard.Problem(cells, options=options)


def draw(problem, solution, rows, cols):
    grid = [[" "] * cols for _ in range(rows)]
    for k in solution:
        a, b = problem.options[k].split()
        (r1, c1), (r2, c2) = map(int, a), map(int, b)
        if r1 == r2:
            grid[r1][c1], grid[r2][c2] = "<", ">"
        else:
            grid[r1][c1], grid[r2][c2] = "^", "v"
    return "\n".join("".join(row) for row in grid)


p = dominoes(6, 8)
started = time.perf_counter()
count = p.count()
print(f"6x8: {count} tilings in {time.perf_counter() - started:.3f} s ({p.stats.nodes} nodes)")
assert count == 167_089

# 8x8 has 12,988,816 tilings; the iterator computes only the ones taken.
board = dominoes(8, 8)
for solution in board.solutions(limit=3):
    print(draw(board, solution, 8, 8), end="\n\n")
