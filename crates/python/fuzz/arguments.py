"""Fuzzes the arguments of every public function and method of ``dancecard`` with atheris.

Run by hand, not in CI (see crates/python/README.md for the figures of the last run):

    pip install atheris numpy            # into the environment where dancecard is installed
    python crates/python/fuzz/arguments.py -max_total_time=300 -timeout=30

The rows (how to call each function, and a valid base value of each argument) come from
``tests/test_arguments.py``, so that the fuzzer covers what the table covers. Each input picks
a row, replaces some of its arguments by values built from the input (ints of any size, floats,
NaN, strings of symbols the parsers know, bytes, nested lists, tuples and dicts, numpy scalars
and arrays) and calls it. Allowed outcomes: a result; ``TypeError`` or ``ValueError`` whose
message starts with ``argument '<one of the arguments>': `` (or a ``DlxParseError``); the
``RuntimeError`` of a search cut short; an ``OSError`` for a path the file system will not
write or read (``Zdd.write``, ``Problem.count``'s ``output`` and ``merge``'s ``files``, whose
rows run in a scratch directory; paths with a directory in them are not tried). Anything else (``OverflowError``, pyo3's
``PanicException``, ``SystemError``...) is a finding, as are crashes and hangs.

Searches get a budget: SIGALRM after ``BUDGET`` seconds raises ``Budget`` in the signal handler,
which stops a search the way Ctrl-C does (that path is fuzzed too). Arguments that are valid
but ask for hours of work (``queens.count(30)``) are not tried.

The native code is not instrumented (it is built by maturin without sanitizer coverage): the
coverage that guides the fuzzer is that of the Python layer and of this file's value makers
(instrumented, so that each kind of value and each outcome counts as coverage), so this is
mostly a random search over well-shaped hostile values.
"""

import math
import operator
import shutil
import signal
import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

with atheris.instrument_imports():
    import dancecard
    import test_arguments  # the rows of the table: each row's lambda is its own coverage

try:
    import numpy as np
except ImportError:  # pragma: no cover
    np = None

# Seconds a call may take before SIGALRM stops it.
BUDGET = 2.0

ROWS = {k: r for k, r in test_arguments.ROWS.items() if r is not None and r.params}
KEYS = sorted(ROWS)

# Tokens the parsers and the choices know, to get past their first checks.
TOKENS = [
    "mrv", "leftmost", "fast", "dlx", "blank-first", "blank-last", "manhattan",
    "linear-conflict", "ida", "astar", "bidir", "bfs", "iddfs", "dominoes", "trominoes",
    "tetrominoes", "pentominoes", "monomino", "2x2", "2x3", "3x3", "4x4", "1x2", "2x4", "a",
    "b", "a b", "x:red", "|", "#", "##", ".#", "\n", "0", "1", "9", "1 0", "2 3", ".", " ",
]
SYMBOLS = "0123456789.#x |:\nab-ABZ\t\r"


class Budget(Exception):
    """Raised by the SIGALRM handler: the call ran out of time (not a finding)."""


def on_alarm(signum, frame):
    raise Budget()


@atheris.instrument_func
def make_int(fdp):
    shape = fdp.ConsumeIntInRange(0, 4)
    if shape == 0:
        return fdp.ConsumeIntInRange(-3, 40)
    if shape == 1:
        bits = fdp.ConsumeIntInRange(0, 300)
        return fdp.ConsumeIntInRange(-2, 2) + (-1 if fdp.ConsumeBool() else 1) * 2**bits
    if shape == 2:
        return fdp.ConsumeInt(16)
    if shape == 3:
        return test_arguments.MyInt(fdp.ConsumeIntInRange(-2, 40))
    return fdp.ConsumeIntInRange(0, 2**64 + 2)


@atheris.instrument_func
def make_str(fdp):
    shape = fdp.ConsumeIntInRange(0, 3)
    if shape == 0:
        return fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 30))
    if shape == 1:
        return TOKENS[fdp.ConsumeIntInRange(0, len(TOKENS) - 1)]
    if shape == 2:
        n = fdp.ConsumeIntInRange(0, 400)
        return "".join(SYMBOLS[fdp.ConsumeIntInRange(0, len(SYMBOLS) - 1)] for _ in range(n))
    # Long: a token repeated.
    return TOKENS[fdp.ConsumeIntInRange(0, len(TOKENS) - 1)] * fdp.ConsumeIntInRange(0, 100_000)


@atheris.instrument_func
def make_numpy(fdp):
    dtypes = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64, np.float64, np.bool_]
    dtype = dtypes[fdp.ConsumeIntInRange(0, len(dtypes) - 1)]
    if fdp.ConsumeBool():
        return dtype(fdp.ConsumeIntInRange(0, 40) if dtype is not np.bool_ else fdp.ConsumeBool())
    ndim = fdp.ConsumeIntInRange(0, 3)
    shape = tuple(fdp.ConsumeIntInRange(0, 10) for _ in range(ndim))
    size = math.prod(shape)
    values = [fdp.ConsumeIntInRange(0, 40) for _ in range(size)]
    return np.array(values, dtype=dtype).reshape(shape)


@atheris.instrument_func
def make_value(fdp, depth=0):
    kind = fdp.ConsumeIntInRange(0, 12)
    if kind == 0:
        return None
    if kind == 1:
        return fdp.ConsumeBool()
    if kind == 2:
        return make_int(fdp)
    if kind == 3:
        special = [math.nan, math.inf, -math.inf, 0.0, -0.0, 2.0, 1e300]
        if fdp.ConsumeBool():
            return special[fdp.ConsumeIntInRange(0, len(special) - 1)]
        return fdp.ConsumeRegularFloat()
    if kind in (4, 5):
        return make_str(fdp)
    if kind == 6:
        return fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 30))
    if kind in (7, 8, 9) and depth < 3:
        items = [make_value(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 10))]
        return tuple(items) if kind == 8 else items
    if kind == 10 and depth < 3:
        return {make_str(fdp): make_value(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 4))}
    if kind == 11 and np is not None:
        return make_numpy(fdp)
    return [make_int(fdp) for _ in range(fdp.ConsumeIntInRange(0, 12))]


def too_long(key, kwargs):
    """Valid arguments that ask for hours of work or gigabytes (not a finding): N-queens
    counts past 13, more than 100,000 samples (up to 2**24 are valid: lists of millions of
    lists, past libFuzzer's memory limit)."""
    if "queens_count" in key or key == "dancecard.queens.count":
        try:
            return operator.index(kwargs["n"]) > 13
        except TypeError:
            return False
    if key in ("dancecard.Problem.sample", "dancecard.Zdd.sample"):
        try:
            return operator.index(kwargs["k"]) > 100_000
        except TypeError:
            return False
    return False


# The rows that write or read files, in the scratch directory, and their path arguments.
FILE_ROWS = {"dancecard.Zdd.write": "path", "dancecard.Problem.count": "output",
             "dancecard.merge": "files"}


def outside_scratch(path):
    """Whether a path names a file outside the scratch directory (``/etc/...``, ``../x``)."""
    if isinstance(path, str):
        return any(sep in path for sep in ("/", "\\")) or path in (".", "..")
    if isinstance(path, bytes):
        return any(sep in path for sep in (b"/", b"\\")) or path in (b".", b"..")
    return False


def writes_elsewhere(key, kwargs):
    """Whether a call would write or read a file outside the scratch directory that the rows
    of ``FILE_ROWS`` run in: a path with a directory in it is not tried (``merge`` of
    ``/dev/stdin`` would wait for input, as ``open(...).read()`` does)."""
    if key not in FILE_ROWS:
        return False
    paths = kwargs[FILE_ROWS[key]]
    if key != "dancecard.merge":
        return outside_scratch(paths)
    if np is not None and isinstance(paths, np.ndarray):
        paths = paths.ravel().tolist()
    try:
        # A list, tuple or dict of the fuzzer's values (iterating anything else could be
        # endless or costly: those are tried as they are).
        return isinstance(paths, (list, tuple, dict)) and any(outside_scratch(p) for p in paths)
    except TypeError:
        return False


@atheris.instrument_func
def allowed(error, params):
    if isinstance(error, dancecard.DlxParseError):
        return True
    if type(error) in (TypeError, ValueError):
        message = str(error)
        return len(message) <= 1000 and any(message.startswith(f"argument '{p}': ") for p in params)
    if isinstance(error, OSError) and set(FILE_ROWS.values()) & set(params):
        # The file system's answer to a path it cannot write (a name too long for it...), or
        # to a file that merge cannot read (there is none by that name).
        return True
    if type(error) is RuntimeError:
        # A search cut short by its node limit (slide), or a count cut short.
        return "limit" in str(error) or "cut short" in str(error)
    return False


@atheris.instrument_func
def TestOneInput(data):
    fdp = atheris.FuzzedDataProvider(data)
    key = KEYS[fdp.ConsumeIntInRange(0, len(KEYS) - 1)]
    row = ROWS[key]
    kwargs = dict(row.base)
    for param in row.params:
        if fdp.ConsumeBool():
            kwargs[param] = make_value(fdp)
    if too_long(key, kwargs) or writes_elsewhere(key, kwargs):
        return
    signal.setitimer(signal.ITIMER_REAL, BUDGET)
    try:
        result = row.call(**kwargs)
        if isinstance(result, dancecard.SolutionIterator):
            next(result, None)
    except Budget:
        return
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # noqa: BLE001 - a panic is what we look for
        if not allowed(error, row.params):
            shown = {k: (repr(v)[:200]) for k, v in kwargs.items()}
            raise AssertionError(f"{key}({shown}) raised {type(error).__name__}: {str(error)[:500]}") from error
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        if key in ("dancecard.Zdd.write", "dancecard.Problem.count"):
            empty_scratch()


def empty_scratch():
    """Removes what ``Zdd.write`` and ``Problem.count`` wrote in their scratch directory
    (libFuzzer ends the process without running ``atexit``, so the directory itself stays,
    empty; ``merge``'s row writes its files again when they are missing)."""
    for entry in test_arguments.SCRATCH.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)


def main():
    signal.signal(signal.SIGALRM, on_alarm)
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
