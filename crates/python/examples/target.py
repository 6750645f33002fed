"""The target sudoku (NOIP 2009): the completion with the largest weighted score."""

import dancecard

puzzle = """
7 0 0 9 0 0 0 0 1
1 0 0 0 0 5 9 0 0
0 0 0 2 0 0 0 8 0
0 0 5 0 2 0 0 0 3
0 0 0 0 0 0 6 4 8
4 1 3 0 0 0 0 0 0
0 0 7 0 0 2 0 9 0
2 0 1 0 6 0 8 0 4
0 8 0 5 0 4 0 1 2
"""
score, grid = dancecard.target_sudoku(puzzle)
print("score", score)
for row in grid:
    print(*row)
assert score == 2829
