"""Solving and checking sudoku: a line of symbols, rows of ints, other box shapes."""

from dancecard import sudoku

# Arto Inkala's "world's hardest sudoku".
inkala = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
solved = sudoku.solve(inkala)
print(solved)
assert solved == "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
assert sudoku.is_unique(inkala)

# Rows in, rows out.
rows = [[int(ch) if ch != "." else 0 for ch in inkala[9 * r: 9 * r + 9]] for r in range(9)]
for row in sudoku.solve(rows):
    print(*row)

# 6x6 with 2-row, 3-column boxes; 16x16 with letters for 10..16.
print(sudoku.solve("." * 36, box="2x3"))
print(sudoku.solve("." * 256))

# Bad puzzles raise ValueError with the reason.
try:
    sudoku.solve("55" + "." * 79)
except ValueError as error:
    print("rejected:", error)
