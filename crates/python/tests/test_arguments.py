"""Hostile arguments to every public function and method: TypeError or ValueError naming the
argument, never a panic, an OverflowError, a hang or a crash. See: #16

The public surface is enumerated from the modules themselves (``__all__`` of the Python
modules, every public name of ``dancecard._native``, every member of every public class), and
``test_every_public_callable_has_a_row`` fails when something public has no row in ``ROWS``.

Each row says how to call the function and, for each argument, its *kind*: which of the
hostile values of ``HOSTILE`` it accepts, which it refuses with ``ValueError``, and (all the
others) which with ``TypeError``. Every argument of every row is then called with every
hostile value, the other arguments keeping a valid base value.

An error names the argument when its message starts with ``argument 'name': `` (pyo3's own
form), ``name`` being the public name of the argument (the one callers write); a
``DlxParseError`` names instead the line and the column of the text it could not read.

Decisions the table encodes (also in the stubs, ``python/dancecard/_native.pyi``):

- An int argument takes ``int`` (and its subclasses) and any scalar with ``__index__``, such
  as numpy's integers; ``bool`` is refused (``TypeError``), as are floats, even whole ones, and
  arrays of any shape, 0-d included. Out of range is ``ValueError``.
- A flag (``once``, ``flips``, ``distinct``) takes ``True``/``False`` or ``numpy.bool_``.
- ``time_limit`` takes any real number but a bool; a limit too far to represent is no limit.
- The cells of a 0/1 matrix are 0/1 ints or bools (numpy's too): the matrix is boolean.
- A sequence argument (rows, option numbers, tiles) takes any iterable but a string, numpy
  arrays included.
"""

import atexit
import faulthandler
import inspect
import itertools
import math
import os
import pathlib
import shutil
import tempfile
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, FrozenSet

import pytest

import dancecard
from dancecard import _native, queens, slide, sudoku
from conftest import REPO

try:
    import numpy as np
except ImportError:  # pragma: no cover - scripts/test-python installs numpy
    np = None

# A call that has not returned after this long is a hang: faulthandler dumps the stacks and
# ends the process, so that the run fails instead of waiting forever.
HANG_SECONDS = 60

MB10 = 10 * 1024 * 1024


class MyInt(int):
    """An int subclass: accepted wherever an int is."""


class BadIndex:
    """``__index__`` that returns a str: Python itself calls that a TypeError."""

    def __index__(self):
        return "seven"


class FsPath:
    """An ``os.PathLike`` whose ``__fspath__`` returns what it was given."""

    def __init__(self, value):
        self.value = value

    def __fspath__(self):
        return self.value


def _numpy(make):
    return None if np is None else make()


# id -> value. The numpy ones are None (and their cases skipped) without numpy.
HOSTILE: Dict[str, Any] = {
    "none": None,
    "true": True,
    "false": False,
    "zero": 0,
    "minus_one": -1,
    "two_64": 2**64,
    "two_200": 2**200,
    "minus_two_200": -(2**200),
    "int_subclass": MyInt(2),
    "bad_index": BadIndex(),
    "float": 1.5,
    "float_whole": 2.0,
    "nan": math.nan,
    "inf": math.inf,
    "minus_inf": -math.inf,
    "complex": 1j,
    "empty_str": "",
    "huge_str": "x" * MB10,
    "huge_lines": "1 0\n" * (MB10 // 4),
    "surrogate": "\ud800",
    "nul": "a\x00b",
    "bytes": b"ab",
    "empty_list": [],
    "nested": [[[None]], {"k": object()}],
    "dict": {"a": 1},
    "object": object(),
    "function": len,
    "np_int": _numpy(lambda: np.int64(2)),
    "np_neg": _numpy(lambda: np.int8(-1)),
    "np_uint_max": _numpy(lambda: np.uint64(2**64 - 1)),
    "np_float": _numpy(lambda: np.float64(2.0)),
    "np_nan": _numpy(lambda: np.float64("nan")),
    "np_bool": _numpy(lambda: np.bool_(True)),
    "np_0d": _numpy(lambda: np.array(2)),
    "np_array": _numpy(lambda: np.array([1, 2])),
    "np_2d": _numpy(lambda: np.array([[1]])),
    "np_str": _numpy(lambda: np.array(["a", "b"])),
}
NUMPY_IDS = {k for k in HOSTILE if k.startswith("np_")}

INTS_IN_RANGE = {"int_subclass", "np_int"}  # 2
STRINGS = {"empty_str", "huge_str", "huge_lines", "surrogate", "nul"}

OK, TYPE, VALUE = "ok", "TypeError", "ValueError"

TARGET_TEXT = (REPO / "testdata" / "target-sudoku" / "sample1.in").read_text()
# The same puzzle as rows (an empty grid would take very long: the givens bound the search).
TARGET_ROWS = [[int(x) for x in line.split()] for line in TARGET_TEXT.splitlines() if line.strip()]


@dataclass(frozen=True)
class Kind:
    """What an argument does with each hostile value: ``ok`` and ``value`` list the ids that
    it accepts and refuses with ValueError; every other one is a TypeError. ``extra`` adds
    values of its own (id -> (value, outcome))."""

    name: str
    ok: FrozenSet[str] = frozenset()
    value: FrozenSet[str] = frozenset()
    extra: Dict[str, Any] = field(default_factory=dict)

    def expect(self, hostile_id):
        if hostile_id in self.ok:
            return OK
        if hostile_id in self.value:
            return VALUE
        return TYPE


def kind(name, ok=(), value=(), extra=None):
    return Kind(name, frozenset(ok), frozenset(value), extra or {})


NEGATIVE = {"minus_one", "minus_two_200", "np_neg"}

THREADS = kind("threads", ok={"zero"} | INTS_IN_RANGE,
               value=NEGATIVE | {"two_64", "two_200", "np_uint_max"},
               extra={"max": (1024, OK), "too_many": (1025, VALUE)})
BOARD_SIZE = kind("n", ok=INTS_IN_RANGE,
                  value=NEGATIVE | {"zero", "two_64", "two_200", "np_uint_max"})
U64_OR_NONE = kind("u64 or None", ok={"none", "zero", "np_uint_max"} | INTS_IN_RANGE,
                   value=NEGATIVE | {"two_64", "two_200"},
                   extra={"max": (2**64 - 1, OK)})
U128_OR_NONE = kind("u128 or None", ok={"none", "zero", "two_64", "np_uint_max"} | INTS_IN_RANGE,
                    value=NEGATIVE | {"two_200"},
                    extra={"max": (2**128 - 1, OK), "too_big": (2**128, VALUE)})
SECONDS = kind("seconds or None",
               ok={"none", "zero", "two_64", "two_200", "np_uint_max", "float", "float_whole",
                   "inf", "np_float"} | INTS_IN_RANGE,
               value=NEGATIVE | {"nan", "minus_inf", "np_nan"})
FLAG = kind("flag", ok={"true", "false", "np_bool"})
# The memo limit of a ZDD: bytes below 2**64, or None; the toy's ZDD needs more than 2 bytes.
ZDD_MEMO_LIMIT = kind("ZDD memo limit", ok={"none", "np_uint_max"},
                      value=NEGATIVE | INTS_IN_RANGE | {"zero", "two_64", "two_200"},
                      extra={"max": (2**64 - 1, OK)})
SEED = kind("seed", ok={"zero", "np_uint_max"} | INTS_IN_RANGE,
            value=NEGATIVE | {"two_64", "two_200"},
            extra={"max": (2**64 - 1, OK), "too_big": (2**64, VALUE)})
# Samples: 0 to 2**24 (the largest is not drawn here: 16 million lists).
SAMPLES = kind("samples", ok={"zero"} | INTS_IN_RANGE,
               value=NEGATIVE | {"two_64", "two_200", "np_uint_max"},
               extra={"past_max": (2**24 + 1, VALUE)})
# Probes of an estimate: 1 to 10**9 (the largest is not tried here: it takes minutes).
PROBES = kind("probes", ok=INTS_IN_RANGE,
              value=NEGATIVE | {"zero", "two_64", "two_200", "np_uint_max"},
              extra={"past_max": (10**9 + 1, VALUE)})


def choice(*valid):
    extra = {f"valid_{v}": (v, OK) for v in valid}
    if np is not None:
        extra["np_str_scalar"] = (np.str_(valid[0]), OK)
    return kind("choice", value=STRINGS, extra=extra)


HEURISTIC = choice("mrv", "leftmost")
COUNT_METHOD = choice("search", "memo", "auto", "frontier")
METHOD = choice("fast", "dlx")
GOAL = choice("blank-last", "blank-first")
SLIDE_HEURISTIC = choice("manhattan", "linear-conflict")
ALGORITHM = choice("ida", "astar", "bidir", "bfs", "iddfs")
BOX = kind("box or None", ok={"none"}, value=STRINGS, extra={"valid": ("2x2", OK)})

# Items: a str of names (split at whitespace) or an iterable of hashable items (a dict: its
# keys; numpy's ints are items too, #21), but not unhashable ones.
NAMES_OK = {"empty_str", "huge_str", "nul", "empty_list", "dict", "np_str", "np_array"}
NAMES = kind("names", ok=NAMES_OK, value={"surrogate", "huge_lines"},
             extra={"nested_name": ([["a"]], TYPE), "int_name": (["c", 1], OK),
                    "tuple_name": ([("a", 1)], OK), "set_name": ([{1}], TYPE),
                    "colon": (["a:b"], VALUE), "twice": ("a a", VALUE),
                    "surrogate_name": (["a", "\ud800"], VALUE)})
# The base primary items are "a b": secondary names that repeat them are ValueErrors.
NAMES_OR_NONE = Kind("names or None", NAMES.ok - {"dict", "np_str"} | {"none"},
                     NAMES.value | {"dict", "np_str"}, NAMES.extra)
# Options: an iterable of options or a dict from names to options (#21); a dict's values must
# be options ({"a": 1} is not), and an item that is not declared (numpy's 1) is unknown.
OPTIONS = kind(
    "options", ok={"none", "empty_list", "np_str"}, value={"np_2d"},
    extra={"unknown_item": (["a z"], VALUE), "empty_option": ([[]], VALUE),
           "color_on_primary": (["a:red"], VALUE), "int_in_option": ([["a", 1]], VALUE),
           "named_options": ({"A": "a", ("B", 1): ["b"]}, OK),
           "unhashable_in_option": ([["a", ["b"]]], TYPE),
           "option_int": ([1], TYPE), "surrogate_in_option": (["a \ud800"], VALUE),
           "generator": ((o for o in ["a", "b"]), OK)})
# Costs of Problem(...): the row's base has no option, so that only an empty sequence (or None)
# is right; each value is checked before the count (a value of the wrong type is a TypeError).
COSTS = kind(
    "costs", ok={"none", "empty_list"}, value={"np_array"},
    extra={"one_too_many": ([0], VALUE), "negative": ([-1], VALUE), "huge": ([2**64], VALUE),
           "endless": (itertools.count(), VALUE), "bool": ([True], TYPE), "float": ([0.0], TYPE),
           "none_cost": ([None], TYPE), "generator": ((c for c in []), OK)})
# Bounds of Problem(...) on the base items "a b": a dict from names to an int or a pair.
BOUNDS = kind(
    "bounds", ok={"none", "dict"},
    extra={"pair": ({"a": (0, 2)}, OK), "both": ({"a": 2, "b": [1, 3]}, OK),
           "np_bound": (_numpy(lambda: {"a": np.int64(2)}), OK),
           "np_pair": (_numpy(lambda: {"a": np.array([0, 2])}), OK),
           "unknown": ({"z": 1}, VALUE), "zero": ({"a": 0}, VALUE), "reversed": ({"a": (2, 1)}, VALUE),
           "huge": ({"a": 2**32}, VALUE), "negative": ({"a": (-1, 1)}, VALUE),
           "three": ({"a": (1, 2, 3)}, VALUE), "endless": ({"a": itertools.count()}, VALUE),
           "surrogate_key": ({"\ud800": 1}, VALUE), "str_bound": ({"a": "1"}, TYPE),
           "float_bound": ({"a": 1.0}, TYPE), "bool_bound": ({"a": True}, TYPE),
           "int_key": ({1: 1}, TYPE), "pairs": ([("a", 1)], TYPE)})
# k of Problem.min_cost: 1 to 2**20.
K_BEST = kind("k best", ok=INTS_IN_RANGE,
              value=NEGATIVE | {"zero", "two_64", "two_200", "np_uint_max"},
              extra={"max": (2**20, OK), "past_max": (2**20 + 1, VALUE)})
LOWER_BOUND = choice("auto", "relaxation", "shares", "dlx5")
# Rounds of Problem.pre: 0 to 2**32 - 1, or None.
MAX_ROUNDS = kind("max rounds", ok={"none", "zero"} | INTS_IN_RANGE,
                  value=NEGATIVE | {"two_64", "two_200", "np_uint_max"},
                  extra={"max": (2**32 - 1, OK), "past_max": (2**32, VALUE)})
# A line of more than 512 KiB is a DlxParseError: "x" * 10 MB is one.
DLX_TEXT = kind("DLX text", ok={"huge_lines", "nul", "bytes"},
                value={"empty_str", "surrogate", "huge_str"},
                extra={"bytearray": (bytearray(b"a b\na\nb\n"), TYPE),
                       "bad_utf8": (b"a \xff\n", VALUE)})
MATRIX = kind(
    "matrix", ok={"empty_list", "np_2d"}, value={"empty_str", "huge_str", "huge_lines", "nul",
                                                 "surrogate", "bytes"},
    extra={"bools": ([[True, False], [False, True]], OK), "two": ([[1, 2]], VALUE),
           "minus_one": ([[1, -1]], VALUE), "huge": ([[2**200]], VALUE),
           "float_cell": ([[1.0]], TYPE), "none_cell": ([[None]], TYPE),
           "str_row": (["10"], TYPE), "ragged": ([[1, 0], [1]], VALUE),
           "np_int_rows": (_numpy(lambda: np.eye(3, dtype=np.int64)), OK),
           "np_bool_rows": (_numpy(lambda: np.eye(2, dtype=bool)), OK),
           "np_float_rows": (_numpy(lambda: np.eye(2)), TYPE)})
# Option numbers of Problem.is_solution: non-negative ints; one that numbers no option
# makes the answer False.
OPTION_NUMBERS = kind(
    "option numbers", ok={"empty_list", "np_array"},
    extra={"negative": ([0, -1], VALUE), "huge": ([0, 2**200], OK), "bool": ([True], TYPE),
           "float": ([0.0], TYPE), "none": ([None], TYPE), "np_ints": (_numpy(lambda: np.array([0, 3, 4])), OK)})
# A path to write to (the row writes in a scratch directory): str, bytes or os.PathLike; empty,
# NUL, a lone surrogate or more than 4096 bytes are ValueErrors.
PATH = kind(
    "path", ok={"bytes"}, value=STRINGS,
    extra={"pathlib": (pathlib.Path("zdd.txt"), OK), "bytes_nul": (b"a\x00b", VALUE),
           "bytearray": (bytearray(b"ab"), TYPE), "bad_fspath": (FsPath(1), TYPE),
           "fspath_bytes": (FsPath(b"zdd.txt"), OK), "np_str_scalar": (_numpy(lambda: np.str_("z")), OK)})
# Problem.count's row counts shard 0 of 1 (so that split_depth and output are used, as they
# are only with a shard): "memo" is then a ValueError, the plain search counting a shard.
SHARD_METHOD = Kind("count method of a shard", COUNT_METHOD.ok, COUNT_METHOD.value,
                    {**COUNT_METHOD.extra, "valid_memo": ("memo", VALUE),
                     "valid_frontier": ("frontier", VALUE)})
# A shard (i, n): a pair of ints (an iterable of two, numpy's too) with 0 <= i < n < 2**64, or
# None. np_array is [1, 2]: shard 1 of 2.
SHARD = kind(
    "shard", ok={"none", "np_array"}, value={"empty_list"},
    extra={"pair": ((0, 2), OK), "list": ([1, 2], OK), "last": ((2**64 - 2, 2**64 - 1), OK),
           "generator": ((k for k in (0, 3)), OK),
           "np_ints": (_numpy(lambda: (np.int64(1), np.uint64(2))), OK),
           "equal": ((2, 2), VALUE), "above": ((3, 2), VALUE), "no_shards": ((0, 0), VALUE),
           "negative": ((-1, 2), VALUE), "np_negative": (_numpy(lambda: (np.int8(-1), 2)), VALUE),
           "two_64": ((0, 2**64), VALUE), "huge": ((0, 2**200), VALUE),
           "three": ((0, 1, 2), VALUE), "one": ((0,), VALUE),
           "endless": (itertools.count(), VALUE), "bool": ((True, 2), TYPE),
           "float": ((0.0, 2), TYPE), "none_in_pair": ((None, 2), TYPE),
           "str_pair": (("0", "2"), TYPE), "cli_form": ("0/2", TYPE)})
# The split depth of a shard: 0 to 1024, or None (4).
SPLIT_DEPTH = kind("split depth", ok={"none", "zero"} | INTS_IN_RANGE,
                   value=NEGATIVE | {"two_64", "two_200", "np_uint_max"},
                   extra={"max": (1024, OK), "past_max": (1025, VALUE)})
# Where a shard's result is written (the row writes in the scratch directory): a path or None.
OUTPUT = Kind("output path or None", PATH.ok | {"none"}, PATH.value,
              {**PATH.extra, "pathlib": (pathlib.Path("shard.json"), OK)})
# The result files of dancecard.merge, read in the scratch directory, where "whole.json",
# "a" and "b" each hold the single shard of a count of the toy problem: the dict {"a": 1} is
# ["a"], one whole search; numpy's array of "a" and "b" gives shard 0 twice.
FILES = kind(
    "shard result files", ok={"dict"}, value={"empty_list", "np_str"},
    extra={"one": (["whole.json"], OK), "pathlib": ([pathlib.Path("whole.json")], OK),
           "bytes_path": ([b"whole.json"], OK), "fspath": ([FsPath("whole.json")], OK),
           "fspath_bytes": ([FsPath(b"whole.json")], OK),
           "generator": ((f for f in ["whole.json"]), OK),
           "np_str_path": (_numpy(lambda: [np.str_("whole.json")]), OK),
           "twice": (["whole.json", "a"], VALUE), "empty_path": ([""], VALUE),
           "nul_path": (["a\x00b"], VALUE), "surrogate_path": (["\ud800"], VALUE),
           "long_path": (["x" * 5000], VALUE), "int_path": ([1], TYPE), "none_path": ([None], TYPE),
           "bytearray_path": ([bytearray(b"a")], TYPE), "bad_fspath": ([FsPath(1)], TYPE),
           "one_str": ("whole.json", TYPE), "one_pathlib": (pathlib.Path("whole.json"), TYPE)})
# The state of a pickled Problem (dancecard._native._problem_from_state): the version (1), the
# DLX text (any text that parses: "" is the problem without items), the secondary items of a
# problem without primary items (None when the text holds the problem, as in the row's base),
# and the numbering: None (in order), or (index, given) for the toy's six options.
STATE_VERSION = kind("state version", value=NEGATIVE | INTS_IN_RANGE | {"zero", "two_64", "two_200",
                                                                        "np_uint_max"},
                     extra={"one": (1, OK), "np_one": (_numpy(lambda: np.int64(1)), OK)})
STATE_TEXT = kind("state text", ok={"empty_str", "huge_str", "huge_lines", "nul"},
                  value={"surrogate"},
                  extra={"toy": ("a b\na\nb\n", OK), "bad": ("a\nz\n", VALUE)})
STATE_SECONDARY = kind("state secondary", ok={"none"}, value={"empty_list", "dict", "np_str"},
                       extra={"names": (["x"], VALUE)})
# The labels of a problem whose items are objects or whose options were a dict (#21): None, or
# (items, colors, option names); the toy's items are names and it has six options.
STATE_LABELS = kind(
    "state labels", ok={"none"}, value={"empty_list", "dict", "np_str", "np_array", "np_2d", "nested"},
    extra={"option_names": ((None, [], list("ABCDEF")), OK), "short": ((None, [], ["A"]), VALUE),
           "items_for_names": ((["x"], [], None), VALUE), "bad_colors": ((None, 5, None), TYPE)})
STATE_NUMBERING = kind(
    "state numbering", ok={"none"}, value={"empty_list", "np_2d", "dict"},
    extra={"in_order": ((range(6), 6), OK), "zero_rows": (([5, 0, 2, 4, 1, 9], 10), OK),
           "np_index": (_numpy(lambda: (np.arange(6), np.int64(6))), OK),
           "short": ((range(5), 6), VALUE), "long": ((range(7), 7), VALUE),
           "twice": (([0, 0, 1, 2, 3, 4], 6), VALUE), "past_given": ((range(6), 5), VALUE),
           "negative": (([0, 1, 2, 3, 4, -1], 6), VALUE),
           "huge_index": (([0, 1, 2, 3, 4, 2**64], 2**70), VALUE),
           "huge_given": ((range(6), 2**40), VALUE), "three": ((range(6), 6, 0), VALUE),
           "bool": (([True, 1, 2, 3, 4, 5], 6), TYPE), "str_index": (("012345", 6), TYPE),
           "float_given": ((range(6), 6.0), TYPE)})
# A solution of a tiling: distinct option numbers of the tiling's problem.
SOLUTION = kind(
    "solution", ok={"empty_list", "np_array"},
    extra={"negative": ([0, -1], VALUE), "past_end": ([0, 10], VALUE), "huge": ([2**200], VALUE),
           "twice": ([0, 0], VALUE), "bool": ([True], TYPE), "float": ([0.0], TYPE),
           "np_ints": (_numpy(lambda: np.array([0, 2, 3, 5])), OK)})
# N-queens: 1 to 32 for the bit-set counter and lister (33 is one too many; 32 itself is
# valid, but counting it takes years), 1 to 256 for the exact cover model.
N32 = Kind("n to 32", BOARD_SIZE.ok, BOARD_SIZE.value, {"past_max": (33, VALUE)})
N256 = Kind("n to 256", BOARD_SIZE.ok, BOARD_SIZE.value,
            {"max": (256, OK), "past_max": (257, VALUE)})
# np_2d is [[1]]: no 1x1 sudoku (sides are 4 to 32).
PUZZLE = kind(
    "sudoku puzzle", value=STRINGS | {"empty_list", "np_2d"},
    extra={"rows": ([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], OK),
           "np_rows": (_numpy(lambda: np.zeros((4, 4), dtype=np.int32)), OK),
           "negative_cell": ([[-1, 0, 0, 0]] + [[0] * 4] * 3, VALUE),
           "huge_cell": ([[2**200, 0, 0, 0]] + [[0] * 4] * 3, VALUE),
           "bool_cell": ([[True, 0, 0, 0]] + [[0] * 4] * 3, TYPE),
           "float_cell": ([[1.0, 0, 0, 0]] + [[0] * 4] * 3, TYPE),
           "str_cell": ([["1", 0, 0, 0]] + [[0] * 4] * 3, TYPE),
           "bytearray": (bytearray(b"." * 16), TYPE)})
TARGET_GRID = kind(
    "target sudoku grid", value=STRINGS | {"empty_list", "np_2d"},
    extra={"rows": (TARGET_ROWS, OK),
           "np_rows": (_numpy(lambda: np.array(TARGET_ROWS, dtype=np.int64)), OK),
           "ten": ([[10] + [0] * 8] + [[0] * 9] * 8, VALUE),
           "negative_cell": ([[-1] + [0] * 8] + [[0] * 9] * 8, VALUE),
           "huge_cell": ([[2**200] + [0] * 8] + [[0] * 9] * 8, VALUE),
           "bool_cell": ([[True] + [0] * 8] + [[0] * 9] * 8, TYPE),
           "float_cell": ([[1.0] + [0] * 8] + [[0] * 9] * 8, TYPE),
           "short": ([[0] * 9] * 8, VALUE)})
SLIDE_STATE = kind(
    "slide state", value=STRINGS | {"empty_list", "np_array", "np_2d"},
    extra={"flat": ([1, 2, 3, 0], OK), "rows": ([[1, 2], [3, 0]], OK),
           "np_flat": (_numpy(lambda: np.array([1, 2, 3, 0])), OK),
           "np_rows": (_numpy(lambda: np.array([[1, 2], [3, 0]])), OK),
           "negative_tile": ([1, 2, -3, 0], VALUE), "huge_tile": ([1, 2, 2**200, 0], VALUE),
           "bool_tile": ([1, 2, True, 0], TYPE), "float_tile": ([1, 2, 3.0, 0], TYPE),
           "ragged": ([[1, 2, 3], [0]], VALUE)})
BOARD = kind(
    "tiling board", ok={"np_array"}, value=STRINGS | {"empty_list"},
    extra={"size": ((2, 4), OK), "size_list": ([2, 4], OK),
           "np_size": (_numpy(lambda: np.array([2, 4])), OK),
           "np_int_size": (_numpy(lambda: (np.int64(2), np.int32(4))), OK),
           "negative": ((-2, 4), VALUE), "huge": ((2**64, 1), VALUE),
           "too_large": ((2**31, 2**31), VALUE), "bool": ((True, 2), TYPE),
           "float": ((2.0, 4), TYPE), "three": ((2, 4, 1), VALUE), "one": ((2,), VALUE)})
PIECES = kind(
    "tiling pieces", value=STRINGS,
    extra={"set": ("dominoes", OK), "cells": ({"D": [(0, 0), (0, 1)]}, OK),
           "art": ({"D": "##"}, OK),
           "np_cells": (_numpy(lambda: {"D": np.array([[0, 0], [0, 1]])}), OK),
           "far_cells": ({"D": [(2**40, 2**40), (2**40, 2**40 + 1)]}, OK),
           "negative_cell": ({"D": [(0, -1), (0, 0)]}, VALUE),
           "huge_cell": ({"D": [(0, 2**200), (0, 0)]}, VALUE),
           "edge_cells": ({"D": [(0, 2**64 - 1), (0, 2**64 - 2)]}, VALUE),
           "bool_cell": ({"D": [(True, 0), (0, 0)]}, TYPE),
           "float_cell": ({"D": [(0.0, 0), (0, 1)]}, TYPE),
           "three_coordinates": ({"D": [(0, 0, 0)]}, VALUE),
           "int_name": ({1: [(0, 0)]}, TYPE), "none_shape": ({"D": None}, TYPE),
           # Found by fuzz/arguments.py: the name was quoted whole in the message.
           "long_name": ({"x" * 100_000: None}, TYPE),
           "long_name_art": ({"x" * 100_000: "#\n#\n\n#"}, VALUE),
           "list_of_sets": (["dominoes"], TYPE)})


@dataclass
class Row:
    """A public callable: ``call(**kwargs)`` calls it; ``params`` maps each argument (its
    public name) to its kind; ``base`` holds valid values of every argument."""

    call: Callable[..., Any]
    params: Dict[str, Kind] = field(default_factory=dict)
    base: Dict[str, Any] = field(default_factory=dict)


def toy():
    return dancecard.Problem("a b c d e f g",
                             options=["c e", "a d g", "b c f", "a d f", "b g", "d e g"])


def dominoes():
    return dancecard.tile("2x4", "dominoes")  # 10 placements, 5 tilings


SOLVED_SLIDE = "1 2 3 4 5 6 7 8 0"  # the goal itself (blank-last): no search, any limit


def no_args(get):
    """A method or property that takes no argument."""
    return Row(call=get)


def members(cls, make, names):
    """Rows for members of class ``cls`` (its public name) that take no argument, each read
    from an instance that ``make()`` makes."""
    return {f"{cls}.{name}": no_args(lambda name=name: getattr(make(), name)) for name in names}


def problem_method(name, params, base):
    return Row(call=lambda **kw: getattr(toy(), name)(**kw), params=params, base=base)


def tiling_method(name, params, base):
    return Row(call=lambda **kw: getattr(dominoes(), name)(**kw), params=params, base=base)


def iterator():
    return toy().solutions()


def stats():
    p = toy()
    p.count()
    return p.stats


def memo_stats():
    p = toy()
    p.count(method="memo")
    return p.stats.memo


def merge_in_scratch(**kwargs):
    """dancecard.merge run in the scratch directory, where whole.json, a and b are each the
    single shard of a count of the toy problem (see FILES)."""
    for name in ("whole.json", "a", "b"):
        if not (SCRATCH / name).exists():
            toy().count(shard=(0, 1), output=SCRATCH / name)
    return in_scratch(dancecard.merge)(**kwargs)


def toy_zdd():
    return toy().zdd()


def estimate():
    return toy().estimate(probes=10)


# Where the rows that write files write them (bytes and relative paths included).
SCRATCH = pathlib.Path(tempfile.mkdtemp(prefix="dancecard-arguments-"))
atexit.register(shutil.rmtree, SCRATCH, ignore_errors=True)


def in_scratch(call):
    """``call`` run in the scratch directory."""

    def run(**kwargs):
        here = os.getcwd()
        os.chdir(SCRATCH)
        try:
            return call(**kwargs)
        finally:
            os.chdir(here)

    return run


# The arguments of dancecard.slide.solve and of the native function behind it.
SLIDE_ARGUMENTS = dict(
    params={"state": SLIDE_STATE, "goal": GOAL, "heuristic": SLIDE_HEURISTIC,
            "algorithm": ALGORITHM, "max_nodes": U64_OR_NONE},
    base={"state": SOLVED_SLIDE, "goal": "blank-last", "heuristic": "manhattan",
          "algorithm": "ida", "max_nodes": None})

# The arguments of dancecard.sudoku.solve and is_unique.
SUDOKU_ARGUMENTS = dict(params={"puzzle": PUZZLE, "box": BOX, "method": METHOD},
                        base={"puzzle": "." * 16, "box": None, "method": "fast"})

ROWS: Dict[str, Row] = {
    # dancecard.Problem
    "dancecard.Problem": Row(
        call=lambda **kw: dancecard.Problem(**kw),
        params={"primary": NAMES, "secondary": NAMES_OR_NONE, "options": OPTIONS,
                "costs": COSTS, "bounds": BOUNDS},
        base={"primary": "a b", "secondary": None, "options": None, "costs": None,
              "bounds": None}),
    "dancecard.Problem.from_dlx": Row(
        call=lambda **kw: dancecard.Problem.from_dlx(**kw), params={"text": DLX_TEXT},
        base={"text": "a b\na\nb\n"}),
    "dancecard.Problem.from_matrix": Row(
        call=lambda **kw: dancecard.Problem.from_matrix(**kw), params={"rows": MATRIX},
        base={"rows": [[1, 0], [0, 1]]}),
    **members("dancecard.Problem", toy, ["to_dlx", "primary", "secondary", "options",
        "stats", "costs", "bounds", "__repr__", "__reduce__"]),
    "dancecard.Problem.is_solution": problem_method(
        "is_solution", {"options": OPTION_NUMBERS}, {"options": [0, 3, 4]}),
    "dancecard.Problem.first": problem_method(
        "first", {"heuristic": HEURISTIC}, {"heuristic": "mrv"}),
    "dancecard.Problem.solutions": problem_method(
        "solutions", {"limit": U128_OR_NONE, "heuristic": HEURISTIC},
        {"limit": None, "heuristic": "mrv"}),
    "dancecard.Problem.count": Row(
        call=in_scratch(lambda **kw: toy().count(**kw)),
        params={"threads": THREADS, "heuristic": HEURISTIC, "max_nodes": U64_OR_NONE,
                "time_limit": SECONDS, "method": SHARD_METHOD, "memo_limit": U64_OR_NONE,
                "shard": SHARD, "split_depth": SPLIT_DEPTH, "output": OUTPUT},
        base={"threads": 1, "heuristic": "mrv", "max_nodes": None, "time_limit": None,
              "method": "auto", "memo_limit": None, "shard": (0, 1), "split_depth": None,
              "output": None}),
    "dancecard.Problem.zdd": problem_method("zdd", {"memo_limit": ZDD_MEMO_LIMIT},
                                            {"memo_limit": None}),
    "dancecard.Problem.sample": problem_method(
        "sample", {"k": SAMPLES, "seed": SEED, "memo_limit": ZDD_MEMO_LIMIT},
        {"k": 3, "seed": 0, "memo_limit": None}),
    "dancecard.Problem.estimate": problem_method(
        "estimate", {"probes": PROBES, "seed": SEED, "heuristic": HEURISTIC},
        {"probes": 10, "seed": 0, "heuristic": "mrv"}),
    "dancecard.Problem.min_cost": problem_method(
        "min_cost", {"k": K_BEST, "lower_bound": LOWER_BOUND, "max_nodes": U64_OR_NONE,
                     "time_limit": SECONDS},
        {"k": 1, "lower_bound": "auto", "max_nodes": None, "time_limit": None}),
    "dancecard.Problem.pre": problem_method("pre", {"max_rounds": MAX_ROUNDS},
                                            {"max_rounds": None}),
    # dancecard.Reduction: made by Problem.pre only.
    "dancecard.Reduction": Row(call=lambda *a, **kw: dancecard.Reduction(*a, **kw)),
    **members("dancecard.Reduction", lambda: toy().pre(), ["problem", "origins",
        "removed_options", "removed_items", "rounds", "complete", "infeasible", "__repr__"]),
    # dancecard.Stats and dancecard.SolutionIterator: made by searches only.
    "dancecard.Stats": Row(call=lambda *a, **kw: dancecard.Stats(*a, **kw)),
    **members("dancecard.Stats", stats, ["nodes", "updates", "solutions", "seconds",
        "complete", "stop", "method", "reason", "memo", "lower_bound", "gap", "__repr__"]),
    # dancecard.MemoStats, dancecard.Zdd and dancecard.Estimate: made by the package only.
    "dancecard.MemoStats": Row(call=lambda *a, **kw: dancecard.MemoStats(*a, **kw)),
    **members("dancecard.MemoStats", memo_stats, ["nodes", "hits", "entries", "clears",
        "peak_bytes", "plain_nodes", "zdd_nodes", "__repr__"]),
    "dancecard.Zdd": Row(call=lambda *a, **kw: dancecard.Zdd(*a, **kw)),
    **members("dancecard.Zdd", toy_zdd, ["node_count", "count", "solutions", "to_text",
        "__repr__"]),
    "dancecard.Zdd.sample": Row(call=lambda **kw: toy_zdd().sample(**kw),
                                params={"k": SAMPLES, "seed": SEED}, base={"k": 3, "seed": 0}),
    "dancecard.Zdd.write": Row(call=in_scratch(lambda **kw: toy_zdd().write(**kw)),
                               params={"path": PATH}, base={"path": "zdd.txt"}),
    "dancecard.Estimate": Row(call=lambda *a, **kw: dancecard.Estimate(*a, **kw)),
    **members("dancecard.Estimate", estimate, ["probes", "nodes", "nodes_stderr",
        "solutions", "solutions_stderr", "updates", "max_depth", "solution_probes", "walked",
        "small_tree", "auto", "reason", "__repr__"]),
    "dancecard.SolutionIterator": Row(call=lambda *a, **kw: dancecard.SolutionIterator(*a, **kw)),
    **members("dancecard.SolutionIterator", iterator, ["__iter__", "__next__", "close",
        "stats"]),
    # dancecard.Tiling
    "dancecard.Tiling": Row(call=lambda *a, **kw: dancecard.Tiling(*a, **kw)),
    **members("dancecard.Tiling", dominoes, ["problem", "pieces", "once",
        "count_distinct", "count_dp", "__repr__"]),
    "dancecard.Tiling.decode": tiling_method("decode", {"solution": SOLUTION},
                                             {"solution": [0, 2, 3, 5]}),
    "dancecard.Tiling.render": tiling_method("render", {"solution": SOLUTION},
                                             {"solution": [0, 2, 3, 5]}),
    "dancecard.Tiling.count": tiling_method(
        "count", {"threads": THREADS, "method": COUNT_METHOD, "memo_limit": U64_OR_NONE},
        {"threads": 1, "method": "auto", "memo_limit": None}),
    "dancecard.Tiling.solutions": tiling_method("solutions", {"limit": U128_OR_NONE},
                                                {"limit": None}),
    "dancecard.DlxParseError": None,  # an exception class: takes any arguments, as all do
    "dancecard.tile": Row(
        call=lambda **kw: dancecard.tile(**kw),
        params={"board": BOARD, "pieces": PIECES, "once": FLAG, "flips": FLAG},
        base={"board": "1x2", "pieces": "dominoes", "once": False, "flips": True}),
    "dancecard.merge": Row(call=merge_in_scratch, params={"files": FILES},
                           base={"files": ["whole.json"]}),
    "dancecard.target_sudoku": Row(
        call=lambda **kw: dancecard.target_sudoku(**kw), params={"grid": TARGET_GRID},
        base={"grid": TARGET_TEXT}),
    # dancecard.queens
    "dancecard.queens.count": Row(
        call=lambda **kw: queens.count(**kw),
        params={"n": N32, "distinct": FLAG, "threads": THREADS},
        base={"n": 6, "distinct": False, "threads": 1}),
    "dancecard.queens.solutions": Row(call=lambda **kw: queens.solutions(**kw),
                                      params={"n": N32}, base={"n": 6}),
    "dancecard.queens.problem": Row(call=lambda **kw: queens.problem(**kw),
                                    params={"n": N256}, base={"n": 6}),
    # dancecard.slide
    "dancecard.slide.solve": Row(call=lambda **kw: slide.solve(**kw), **SLIDE_ARGUMENTS),
    # A NamedTuple of results, made by solve: it checks nothing, as NamedTuples do not.
    "dancecard.slide.Solution": None,
    # dancecard.sudoku
    "dancecard.sudoku.solve": Row(call=lambda **kw: sudoku.solve(**kw), **SUDOKU_ARGUMENTS),
    "dancecard.sudoku.count": Row(
        call=lambda **kw: sudoku.count(**kw),
        params={"puzzle": PUZZLE, "limit": U64_OR_NONE, "box": BOX, "method": METHOD},
        base={"puzzle": "1" + "." * 15, "limit": None, "box": None, "method": "fast"}),
    "dancecard.sudoku.is_unique": Row(call=lambda **kw: sudoku.is_unique(**kw),
                                      **SUDOKU_ARGUMENTS),
    # dancecard._native: the functions behind the Python modules' wrappers.
    "dancecard._native.queens_count": Row(
        call=lambda **kw: _native.queens_count(**kw),
        params={"n": N32, "threads": THREADS, "distinct": FLAG},
        base={"n": 6, "threads": 1, "distinct": False}),
    "dancecard._native.queens_solutions": Row(call=lambda **kw: _native.queens_solutions(**kw),
                                              params={"n": N32}, base={"n": 6}),
    "dancecard._native.queens_problem": Row(call=lambda **kw: _native.queens_problem(**kw),
                                            params={"n": N256}, base={"n": 6}),
    "dancecard._native.slide_solve": Row(call=lambda **kw: _native.slide_solve(**kw),
                                         **SLIDE_ARGUMENTS),
    "dancecard._native._problem_from_state": Row(
        call=lambda **kw: _native._problem_from_state(**kw),
        params={"version": STATE_VERSION, "text": STATE_TEXT, "secondary": STATE_SECONDARY,
                "numbering": STATE_NUMBERING, "labels": STATE_LABELS},
        base={"version": 1, "text": toy().to_dlx(), "secondary": None, "numbering": None,
              "labels": None}),
    "dancecard._native.sudoku_search": Row(
        call=lambda **kw: _native.sudoku_search(**kw),
        params={"puzzle": PUZZLE, "limit": U64_OR_NONE, "method": METHOD, "box": BOX},
        base={"puzzle": "1" + "." * 15, "limit": None, "method": "fast", "box": None}),
}

# Public names that are not callables: no arguments to check.
DATA = {
    "dancecard.__version__", "dancecard.queens", "dancecard.slide", "dancecard.sudoku",
    "dancecard.queens.MAX_N", "dancecard.slide.State", "dancecard.sudoku.Rows",
    "dancecard.sudoku.Puzzle",
}

MODULES = [dancecard, queens, slide, sudoku, _native]
# Members of a class's namespace that are Python's machinery, not its API.
MACHINERY = {
    "__doc__", "__module__", "__weakref__", "__dict__", "__slots__", "__annotations__",
    "__match_args__", "__orig_bases__", "__getnewargs__", "__new__", "__init__",
}


def public_names(module):
    if hasattr(module, "__all__"):
        names = list(module.__all__)
        # A function or class defined here but left out of __all__ is public all the same.
        names += [
            n for n, v in vars(module).items()
            if not n.startswith("_") and getattr(v, "__module__", None) == module.__name__
            and n not in names
        ]
        return names
    return [n for n in dir(module) if not n.startswith("_")]


def public_surface():
    """Every public name: module-level ones and the members of public classes, each under
    the first module (in MODULES' order) where it appears."""
    seen = {}
    for module in MODULES:
        for name in public_names(module):
            value = getattr(module, name)
            if any(v is value for v in seen.values()):
                continue  # re-exported: dancecard.tile is dancecard._native.tile
            seen[f"{module.__name__}.{name}"] = value
    surface = set(seen)
    for key, value in seen.items():
        if inspect.isclass(value):
            for member in vars(value):
                if member in MACHINERY or (member.startswith("_") and not member.startswith("__")):
                    continue
                if issubclass(value, tuple) and hasattr(value, "_fields"):
                    continue  # a NamedTuple's fields and tuple's methods
                surface.add(f"{key}.{member}")
    return surface


def test_every_public_callable_has_a_row():
    surface = public_surface()
    covered = set(ROWS) | DATA
    assert sorted(surface - covered) == [], "public names without a row in ROWS (or DATA)"
    assert sorted(covered - surface) == [], "rows for names that are not public"


def test_the_surface_is_what_we_think():
    # Guards the enumeration itself: a bug there would make the test above vacuous.
    surface = public_surface()
    assert {"dancecard.Problem.count", "dancecard.Tiling.decode", "dancecard.queens.count",
            "dancecard._native.sudoku_search", "dancecard.SolutionIterator.__next__",
            "dancecard.slide.Solution", "dancecard.Stats.nodes"} <= surface
    assert len([k for k, r in ROWS.items() if r is not None and r.params]) >= 25


def _cases():
    for key, row in ROWS.items():
        if row is None or not row.params:
            continue
        for param, k in row.params.items():
            for hid, value in HOSTILE.items():
                marks = ()
                if hid in NUMPY_IDS and np is None:
                    marks = pytest.mark.skip(reason="numpy is not installed")
                yield pytest.param(key, param, hid, value, k.expect(hid), id=f"{key}-{param}-{hid}",
                                   marks=marks)
            for eid, (value, outcome) in k.extra.items():
                marks = ()
                if value is None:
                    marks = pytest.mark.skip(reason="numpy is not installed")
                yield pytest.param(key, param, eid, value, outcome, id=f"{key}-{param}-{eid}",
                                   marks=marks)


def call_guarded(fn):
    """Calls ``fn``; returns ("ok", result) or (exception type name, exception). A call that
    hangs ends the process (faulthandler); BaseException is caught so that pyo3's
    PanicException (not an Exception) fails the test instead of escaping it."""
    faulthandler.dump_traceback_later(HANG_SECONDS, exit=True)
    try:
        result = fn()
        # An iterator is lazy: take its first item, where the work is.
        if isinstance(result, dancecard.SolutionIterator):
            next(result, None)
        return OK, result
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # noqa: BLE001 - a panic is what we look for
        return type(e).__name__, e
    finally:
        faulthandler.cancel_dump_traceback_later()


def names_the_argument(error, param):
    if isinstance(error, dancecard.DlxParseError):
        return isinstance(error.line, int) and isinstance(error.column, int)
    return str(error).startswith(f"argument '{param}': ")


@pytest.mark.parametrize("key, param, hid, value, expected", list(_cases()))
def test_hostile_argument(key, param, hid, value, expected):
    row = ROWS[key]
    kwargs = dict(row.base)
    kwargs[param] = value
    got, result = call_guarded(lambda: row.call(**kwargs))
    if expected == OK:
        assert got == OK, f"{key}({param}={hid}) raised {got}: {result}"
        return
    # ValueError subclasses (DlxParseError) count as ValueError; the type must be exact
    # otherwise (no OverflowError, no UnicodeEncodeError, no PanicException).
    if isinstance(result, dancecard.DlxParseError):
        got = VALUE
    assert got == expected, f"{key}({param}={hid}): expected {expected}, got {got}: {result}"
    message = str(result)
    assert names_the_argument(result, param), f"the message does not name {param!r}: {message[:300]}"
    assert len(message) <= 1000, f"a message of {len(message)} characters"


NO_ARGS = [k for k, r in ROWS.items() if r is not None and not r.params]
# Classes without a constructor: their values come from the package's functions.
MADE_BY_THE_PACKAGE = {f"dancecard.{name}" for name in
                       ("Stats", "SolutionIterator", "Tiling", "MemoStats", "Zdd", "Estimate",
                        "Reduction")}


@pytest.mark.parametrize("key", NO_ARGS)
def test_no_argument_members(key):
    """Methods and properties without arguments work, and refuse an argument."""
    member = ROWS[key].call
    if key in MADE_BY_THE_PACKAGE:
        # Made by the package only: no constructor.
        for args in [(), (1,), (None, "x")]:
            got, error = call_guarded(lambda: member(*args))
            assert got == TYPE, (key, args, got, error)
        return
    got, value = call_guarded(member)
    assert got == OK, (key, got, value)
    if callable(value) and not isinstance(value, (dancecard.Problem, list, str, int, float)):
        got, error = call_guarded(lambda: value(2**200))
        assert got == TYPE, (key, got, error)


def resolve(key):
    obj = dancecard
    for part in key.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def parameters(obj):
    """(name, default) of each parameter but self; a required one has default ``REQUIRED``."""
    return [
        (p.name, REQUIRED if p.default is inspect.Parameter.empty else p.default)
        for p in inspect.signature(obj).parameters.values()
        if p.name != "self"
    ]


REQUIRED = object()


@pytest.mark.parametrize("key", [k for k, r in ROWS.items() if r is not None and r.params])
def test_rows_name_the_real_parameters(key):
    """A row's parameters are the callable's, by name (errors name what callers write)."""
    assert set(ROWS[key].params) == {name for name, _ in parameters(resolve(key))}


def stub_signatures():
    """(name, default) of the parameters of each function and method of
    python/dancecard/_native.pyi, by qualified name (``Problem.count``); properties left out."""
    import ast

    stub = REPO / "crates" / "python" / "python" / "dancecard" / "_native.pyi"
    out = {}

    def visit(body, prefix):
        for node in body:
            if isinstance(node, ast.ClassDef):
                visit(node.body, f"{prefix}{node.name}.")
            elif isinstance(node, ast.FunctionDef):
                if any(getattr(d, "id", None) == "property" for d in node.decorator_list):
                    continue
                args = node.args
                positional = args.posonlyargs + args.args
                defaults = [REQUIRED] * (len(positional) - len(args.defaults)) + [
                    ast.literal_eval(d) for d in args.defaults
                ]
                kw_defaults = [REQUIRED if d is None else ast.literal_eval(d) for d in args.kw_defaults]
                params = list(zip([a.arg for a in positional], defaults))
                params += list(zip([a.arg for a in args.kwonlyargs], kw_defaults))
                out[prefix + node.name] = [(n, d) for n, d in params if n != "self"]

    visit(ast.parse(stub.read_text()).body, "")
    return out


def test_stubs_match_the_native_signatures():
    """Every native function and method with parameters is in the stubs, with the same
    parameters in the same order and the same defaults."""
    stubs = stub_signatures()
    native = {}
    for name in dir(_native):
        value = getattr(_native, name)
        if inspect.isclass(value) and issubclass(value, BaseException):
            continue  # DlxParseError: an exception, made as every exception is
        if inspect.isclass(value) and value.__module__ == "dancecard":
            if f"dancecard.{name}" not in MADE_BY_THE_PACKAGE:
                native[f"{name}.__init__"] = value
            for member, v in vars(value).items():
                if callable(v) and not member.startswith("__") or member in ("__iter__", "__next__"):
                    native[f"{name}.{member}"] = getattr(value, member)
        elif inspect.isbuiltin(value):
            native[name] = value
    assert len(native) >= 20
    for name, obj in sorted(native.items()):
        assert name in stubs, f"{name} is not in _native.pyi"
        assert parameters(obj) == stubs[name], name
