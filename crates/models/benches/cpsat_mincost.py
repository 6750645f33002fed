"""The minimum-cost exact cover of a DLX file by Google OR-tools' CP-SAT, for the min-cost bench.

Usage: python3 cpsat_mincost.py FILE [--time-limit SECONDS]

The model: one Boolean per option, exactly one option per primary item, at most one per
secondary item, minimise the sum of the options' costs (`|n` after an option; several add up).
Colors and multiplicities are refused (exit 2). One worker. Prints one line:

    cpsat optimal|feasible|infeasible|unknown COST BOUND SECONDS

COST is the best cost found (- when none), BOUND CP-SAT's proven lower bound, SECONDS the
wall-clock time of the solve alone (the model built beforehand). Exit 3 when ortools is not
importable, so that the bench can say it skipped CP-SAT.
"""

import math
import sys
import time


def parse_dlx(text):
    """Primary items, secondary items, and the options as (item names, cost)."""
    lines = [l for l in text.splitlines() if l.strip() and not l.lstrip().startswith("|")]
    head = lines[0].split()
    if "|" in head:
        bar = head.index("|")
        primary, secondary = head[:bar], head[bar + 1:]
    else:
        primary, secondary = head, []
    for name in primary + secondary:
        if "|" in name:
            sys.exit("cpsat_mincost: multiplicities are not modelled: " + name)
    options = []
    for line in lines[1:]:
        items, cost = [], 0
        for word in line.split():
            if word.startswith("|"):
                cost += int(word[1:])
            elif ":" in word:
                sys.exit("cpsat_mincost: colors are not modelled: " + word)
            else:
                items.append(word)
        options.append((items, cost))
    return primary, secondary, options


def main():
    args = sys.argv[1:]
    limit = None
    if "--time-limit" in args:
        k = args.index("--time-limit")
        limit = float(args[k + 1])
        del args[k:k + 2]
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        print("cpsat_mincost: ortools is not importable", file=sys.stderr)
        sys.exit(3)
    with open(args[0]) as f:
        primary, secondary, options = parse_dlx(f.read())
    model = cp_model.CpModel()
    x = [model.NewBoolVar(f"o{k}") for k in range(len(options))]
    holding = {name: [] for name in primary + secondary}
    for k, (items, _) in enumerate(options):
        for name in items:
            holding[name].append(x[k])
    for name in primary:
        model.AddExactlyOne(holding[name])
    for name in secondary:
        if holding[name]:
            model.AddAtMostOne(holding[name])
    model.Minimize(sum(cost * x[k] for k, (_, cost) in enumerate(options) if cost))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if limit is not None:
        solver.parameters.max_time_in_seconds = limit
    started = time.perf_counter()
    status = solver.Solve(model)
    seconds = time.perf_counter() - started
    names = {cp_model.OPTIMAL: "optimal", cp_model.FEASIBLE: "feasible",
             cp_model.INFEASIBLE: "infeasible"}
    word = names.get(status, "unknown")
    cost = round(solver.ObjectiveValue()) if word in ("optimal", "feasible") else "-"
    bound = math.ceil(solver.BestObjectiveBound() - 1e-6) if word != "infeasible" else "-"
    print(f"cpsat {word} {cost} {bound} {seconds:.3f}")


if __name__ == "__main__":
    main()
