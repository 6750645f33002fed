"""Sliding-tile puzzles: an 8-puzzle by every algorithm, and a 15-puzzle of Korf's."""

from dancecard import slide

eight = [[8, 6, 7], [2, 5, 4], [3, 0, 1]]  # one of the two hardest 8-puzzle states: 31 moves
for algorithm in ["ida", "astar", "bidir", "bfs"]:
    s = slide.solve(eight, goal="blank-last", algorithm=algorithm)
    print(f"{algorithm:6} {s.length} moves, {s.generated:7} nodes: {s.moves}")
    assert s.length == 31

# Korf's instance 12 (45 moves) with the additive pattern database (built on first use).
korf12 = "14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15"
s = slide.solve(korf12, heuristic="pdb")
print(f"Korf #12: {s.length} moves, {s.generated} nodes")
print("tiles slid:", *s.tiles)
assert s.length == 45
