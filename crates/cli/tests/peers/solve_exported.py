"""Solves a file written by `dancecard export` with a solver from PyPI, for the export tests.

Usage: python3 solve_exported.py FILE [--count-limit N]

FILE ends in .lp or .opb: SCIP (pip `pyscipopt`) reads it and minimises; an .lp file is read
and solved by HiGHS (pip `highspy`) too, and the two must agree; prints `optimal COST` or
`infeasible`. FILE ends in .cnf: a SAT solver of python-sat (pip `python-sat`)
counts the models restricted to the option variables x1..xN (N from the file's comment
`x1..xN: the options`), blocking each, up to N models (default 10000); prints `models
COUNT` (`models COUNT+` when the limit stopped it). Exit 3 when the solver's package is not
importable, so that the test can say what it skipped.
"""

import os
import re
import sys


def solve_with_scip(path):
    try:
        from pyscipopt import Model
    except ImportError:
        print("solve_exported: pyscipopt is not importable", file=sys.stderr)
        sys.exit(3)
    model = Model()
    model.hideOutput()
    model.readProblem(path)
    model.optimize()
    status = model.getStatus()
    if status == "optimal":
        return f"optimal {round(model.getObjVal())}"
    if status == "infeasible":
        return "infeasible"
    sys.exit(f"solve_exported: SCIP ended with status {status}")


def solve_with_highs(path):
    try:
        import highspy
    except ImportError:
        print("solve_exported: highspy is not importable", file=sys.stderr)
        sys.exit(3)
    # HiGHS writes its banner on stdout when it starts, before any option can silence it.
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    try:
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        read = h.readModel(path)
        if read == highspy.HighsStatus.kOk:
            h.run()
    finally:
        os.dup2(saved, 1)
    if read != highspy.HighsStatus.kOk:
        sys.exit(f"solve_exported: HiGHS does not read {path}")
    status = h.modelStatusToString(h.getModelStatus())
    if status == "Optimal":
        return f"optimal {round(h.getInfo().objective_function_value)}"
    if status == "Infeasible":
        return "infeasible"
    sys.exit(f"solve_exported: HiGHS ended with status {status}")


def count_with_sat(path, limit):
    try:
        from pysat.formula import CNF
        from pysat.solvers import Solver
    except ImportError:
        print("solve_exported: python-sat is not importable", file=sys.stderr)
        sys.exit(3)
    with open(path) as f:
        text = f.read()
    found = re.search(r"^c x1\.\.x(\d+): the options", text, re.M)
    options = int(found.group(1)) if found else 0
    formula = CNF(from_string=text)
    count = 0
    with Solver(name="cadical153", bootstrap_with=formula.clauses) as solver:
        while count < limit and solver.solve():
            model = solver.get_model()
            count += 1
            chosen = [v for v in model[:options] if v > 0]
            # Block this solution: some chosen option off, or some other option on.
            solver.add_clause([-v for v in chosen] + [v for v in range(1, options + 1) if -v in model[:options]])
            if options == 0:
                break
        more = count == limit and solver.solve()
    print(f"models {count}{'+' if more else ''}")


def main():
    args = sys.argv[1:]
    limit = 10000
    if "--count-limit" in args:
        k = args.index("--count-limit")
        limit = int(args[k + 1])
        del args[k:k + 2]
    path = args[0]
    if path.endswith(".cnf"):
        count_with_sat(path, limit)
        return
    scip = solve_with_scip(path)
    if path.endswith(".lp"):
        highs = solve_with_highs(path)
        if highs != scip:
            sys.exit(f"solve_exported: SCIP says {scip!r}, HiGHS {highs!r}")
    print(scip)


if __name__ == "__main__":
    main()
