"""A small pure-Python exact cover solver, the oracle of the tests: Algorithm X on plain
sets (no dancing links), with secondary items and colors (Algorithm C's rules).

Written to be obviously right rather than fast: at each level it branches on the first
uncovered primary item and tries every option through it that agrees with the choices made.
"""


def parse(option):
    """An option's entries as (item, color or None)."""
    out = []
    for token in option:
        name, _, color = token.partition(":")
        out.append((name, color or None))
    return out


def solve_all(primary, secondary, options):
    """All solutions, as sorted lists of option numbers."""
    entries = [parse(o) for o in options]
    secondary = set(secondary)
    solutions = []

    def fits(option, covered, colors):
        for name, color in option:
            if name in secondary:
                if name in colors:
                    # Already used: allowed only if both uses give it the same color.
                    if color is None or colors[name] != color:
                        return False
            elif name in covered:
                return False
        return True

    def search(chosen, covered, colors):
        uncovered = [i for i in primary if i not in covered]
        if not uncovered:
            solutions.append(sorted(chosen))
            return
        item = uncovered[0]
        for k, option in enumerate(entries):
            if not any(name == item for name, _ in option):
                continue
            if not fits(option, covered, colors):
                continue
            new_covered = set(covered)
            new_colors = dict(colors)
            for name, color in option:
                if name in secondary:
                    # An uncolored use takes the item for good: mark it with a color no
                    # option has.
                    new_colors[name] = color if color is not None else object()
                else:
                    new_covered.add(name)
            search(chosen + [k], new_covered, new_colors)

    search([], set(), {})
    return solutions
