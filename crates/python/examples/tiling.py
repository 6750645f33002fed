"""Polyomino tilings: the twelve pentominoes on 6x10, and tilings of odd boards."""

import time

import dancecard

pentominoes = dancecard.tile("6x10", "pentominoes", once=True)
print(pentominoes)
first = pentominoes.problem.first()
print(pentominoes.render(first))
for name, cells in pentominoes.decode(first)[:3]:
    print(name, cells)

started = time.perf_counter()
total = pentominoes.count(threads=0)
print(f"\n{total} tilings ({total // 4} up to symmetry) in {time.perf_counter() - started:.1f} s")
assert total == 9356

# A board with a hole, covered by L trominoes and dominoes given by their cells and as art.
ring = dancecard.tile("####\n#..#\n####", {"L": [(0, 0), (1, 0), (1, 1)], "D": "##"})
print(f"\nring: {ring.count()} tilings, {ring.count_distinct()} up to symmetry")

# Unlimited copies on a full rectangle: the profile dynamic program counts far beyond search.
print("dominoes on 12x12:", dancecard.tile("12x12", "dominoes").count_dp())
