"""Problem builders shared by the tests (through conftest.py) and the benchmark
(bench/bench.py): plain Python, no pytest, so that the benchmark runs without it."""


def domino_options(rows, cols):
    """Options of the domino tilings of a rows x cols board; items are the cells "r,c"."""
    cells = [f"{r},{c}" for r in range(rows) for c in range(cols)]
    options = []
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                options.append([f"{r},{c}", f"{r},{c + 1}"])
            if r + 1 < rows:
                options.append([f"{r},{c}", f"{r + 1},{c}"])
    return cells, options


def random_problem(rng):
    """A small random problem from ``rng`` (a ``random.Random``): (primary, secondary,
    options), with secondary items and colors; the oracle (oracle.py) solves it at once."""
    n_primary = rng.randint(1, 7)
    n_secondary = rng.randint(0, 3)
    primary = [f"p{i}" for i in range(n_primary)]
    secondary = [f"s{i}" for i in range(n_secondary)]
    colors = ["red", "blue"]
    options = []
    for _ in range(rng.randint(1, 22)):
        items = rng.sample(primary, rng.randint(1, min(3, n_primary)))
        if secondary and rng.random() < 0.6:
            for s in rng.sample(secondary, rng.randint(1, n_secondary)):
                items.append(s if rng.random() < 0.4 else f"{s}:{rng.choice(colors)}")
        rng.shuffle(items)
        options.append(items)
    return primary, secondary, options
