"""Counting on many machines (#18): ``Problem.count(shard=(i, n), split_depth=d, output=FILE)``
counts one shard of a search and writes its result file, ``dancecard.merge(files)`` adds the
files up, and a ``Problem`` pickles, so that the shards can be counted in other processes.

- The shards of a search add up to the plain count, for several split depths and numbers of
  shards, in this process and in a ``multiprocessing`` pool that gets the pickled problem.
- The result files are those of the command line: files written here merge with files written
  by ``dancecard solve --count --shard I/N --output F``, and ``dancecard merge`` reads them
  (skipped when the ``dancecard`` binary has not been built).
- ``merge`` refuses every set that is not one whole search, and every file that is not an
  intact shard result, naming the file or the problem.
- A pickled problem comes back with the same items, options, numbering and search tree (its
  shards merge with the original's), and a tampered pickle is a ``ValueError``.
"""

import copy
import errno
import json
import multiprocessing
import os
import pickle
import shutil
import subprocess
import time
from pathlib import Path

import pytest

import dancecard
from dancecard import _native
from conftest import INSTANCES, REPO, interrupt

try:
    import numpy as np
except ImportError:  # pragma: no cover - scripts/test-python installs numpy
    np = None

TOY_OPTIONS = ["c e", "a d g", "b c f", "a d f", "b g", "d e g"]


def toy():
    return dancecard.Problem("a b c d e f g", options=TOY_OPTIONS)


def instance(name):
    return dancecard.Problem.from_dlx((INSTANCES / f"{name}.dlx").read_text())


# Solutions of the instances (testdata/instances/README.md).
COUNTS = {"queens8": 92, "domino6x6": 6_728, "queens12": 14_200, "pent6x10": 9_356}


def write_shards(problem, n, depth, directory, prefix="s", **kwargs):
    """Counts every shard of ``problem`` into ``directory``: the paths and the counts."""
    paths, counts = [], []
    for i in range(n):
        path = Path(directory) / f"{prefix}{i}.json"
        counts.append(problem.count(shard=(i, n), split_depth=depth, output=path, **kwargs))
        assert problem.stats.complete
        paths.append(path)
    return paths, counts


def read_json(path):
    return json.loads(Path(path).read_text())


# --- The shards add up -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["queens8", "domino6x6", "queens12"])
@pytest.mark.parametrize("depth", [0, 1, 2, 3, 5])
@pytest.mark.parametrize("n", [1, 2, 3, 7, 64])
def test_the_shards_add_up_to_the_count(name, depth, n):
    p = instance(name)
    counts = [p.count(shard=(i, n), split_depth=depth) for i in range(n)]
    assert sum(counts) == COUNTS[name]
    if depth == 0 or n == 1:
        # One unit, the root: shard 0 has the whole tree.
        assert counts[0] == COUNTS[name] and not any(counts[1:])
    elif depth >= 2:
        # The tree is cut: more than one shard has solutions.
        assert sum(1 for c in counts if c) > 1, counts


@pytest.mark.parametrize("depth, n", [(2, 4), (3, 9)])
def test_the_shards_of_the_pentominoes_add_up(depth, n):
    p = instance("pent6x10")
    counts = [p.count(shard=(i, n), split_depth=depth) for i in range(n)]
    assert sum(counts) == 9_356
    assert sum(1 for c in counts if c) > 1, counts
    s = p.stats
    assert (s.complete, s.stop, s.method, s.solutions) == (True, "exhausted", "search", counts[-1])
    assert s.reason == "a shard is counted by the plain search"


def test_a_shard_is_the_same_on_threads_and_with_either_heuristic():
    p = instance("queens12")
    for heuristic in ["mrv", "leftmost"]:
        one = [p.count(shard=(i, 5), split_depth=3, heuristic=heuristic) for i in range(5)]
        two = [p.count(shard=(i, 5), split_depth=3, heuristic=heuristic, threads=2)
               for i in range(5)]
        assert one == two and sum(one) == 14_200
        by_search = p.count(shard=(1, 5), split_depth=3, heuristic=heuristic, method="search")
        assert by_search == one[1] and p.stats.reason == ""


def test_a_split_deeper_than_the_tree_has_the_solutions_as_units():
    p = instance("queens8")
    paths_counts = [p.count(shard=(i, 3), split_depth=1024) for i in range(3)]
    assert sum(paths_counts) == 92


def test_split_depth_defaults_to_the_command_lines(tmp_path):
    p = instance("queens8")
    p.count(shard=(0, 2), output=tmp_path / "default.json")
    p.count(shard=(0, 2), split_depth=4, output=tmp_path / "four.json")
    assert read_json(tmp_path / "default.json")["fingerprint"]["split_depth"] == 4
    assert read_json(tmp_path / "default.json")["count"] == read_json(tmp_path / "four.json")["count"]


# --- Result files and merge --------------------------------------------------------------


@pytest.mark.parametrize("name, depth, n", [("queens8", 2, 3), ("domino6x6", 3, 5),
                                            ("queens12", 2, 4)])
def test_merge_adds_up_the_files(tmp_path, name, depth, n):
    p = instance(name)
    paths, counts = write_shards(p, n, depth, tmp_path)
    assert dancecard.merge(paths) == sum(counts) == COUNTS[name]
    # Any order, any kind of path.
    mixed = [str(paths[0]), os.fsencode(paths[-1])] + paths[1:-1][::-1]
    assert dancecard.merge(iter(mixed)) == COUNTS[name]
    # The files are as the command line writes them: one line of JSON, with the fingerprint.
    for i, path in enumerate(paths):
        text = path.read_text()
        assert text.endswith("\n") and text.count("\n") == 1
        result = json.loads(text)
        assert result["kind"] == "dancecard-shard" and result["shard"] == i
        assert result["count"] == counts[i] and result["complete"] is True
        assert result["stop"] == "exhausted"
        assert result["fingerprint"]["split_depth"] == depth
        assert result["fingerprint"]["shards"] == n
        assert result["fingerprint"]["heuristic"] == "mrv"
        assert result["fingerprint"]["version"] == dancecard.__version__
        assert result["checksum"].startswith("fnv1a128:")
    # Nothing else in the directory: the temporary files were renamed.
    assert sorted(os.listdir(tmp_path)) == sorted(p.name for p in paths)


def test_a_result_is_replaced_whole(tmp_path):
    p = instance("queens8")
    path = tmp_path / "s.json"
    path.write_text("an older file")
    p.count(shard=(0, 1), output=path)
    assert read_json(path)["count"] == 92
    assert os.listdir(tmp_path) == ["s.json"]


def test_a_reformatted_file_still_merges(tmp_path):
    # The checksum is over the content, not the bytes: pretty-printing keeps it.
    paths, _ = write_shards(instance("queens8"), 2, 2, tmp_path)
    paths[0].write_text(json.dumps(read_json(paths[0]), indent=4))
    assert dancecard.merge(paths) == 92


def _count_shard_to_file(task):
    """A pool worker: counts shard i of n of the (unpickled) problem into a file."""
    problem, i, n, depth, path = task
    count = problem.count(shard=(i, n), split_depth=depth, output=path)
    return i, count, problem.stats.complete, os.getpid()


@pytest.mark.parametrize("start", ["spawn", "fork"])
@pytest.mark.parametrize("name, depth, n", [("pent6x10", 2, 4), ("queens12", 3, 8)])
def test_a_multiprocessing_pool_counts_the_shards(tmp_path, start, name, depth, n):
    if start not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {start} start method here")
    if name == "pent6x10" and start == "fork":
        pytest.skip("the pentominoes once, with spawn (a few seconds)")
    p = instance(name)
    tasks = [(p, i, n, depth, str(tmp_path / f"{name}-{i}.json")) for i in range(n)]
    with multiprocessing.get_context(start).Pool(2) as pool:
        # A worker that cannot start (or unpickle its task) would leave map waiting forever.
        results = pool.map_async(_count_shard_to_file, tasks, chunksize=1).get(timeout=600)
    assert [r[0] for r in results] == list(range(n))
    assert all(r[2] for r in results)
    assert all(pid != os.getpid() for *_, pid in results)
    files = [t[-1] for t in tasks]
    assert dancecard.merge(files) == sum(r[1] for r in results) == COUNTS[name]
    # The workers' shards are this process's: the same count for a shard counted here.
    assert p.count(shard=(1, n), split_depth=depth) == results[1][1]


# --- The command line's files -------------------------------------------------------------


def dancecard_binary():
    """The ``dancecard`` binary built by cargo: $DANCECARD, else the newer of the release and
    debug builds in the target directory; None if there is none."""
    if os.environ.get("DANCECARD"):
        return Path(os.environ["DANCECARD"])
    target = Path(os.environ.get("CARGO_TARGET_DIR") or REPO / "target")
    if not target.is_absolute():
        target = REPO / target
    built = [target / profile / "dancecard" for profile in ("release", "debug")]
    built = [b for b in built if b.is_file() and os.access(b, os.X_OK)]
    return max(built, key=lambda b: b.stat().st_mtime) if built else None


@pytest.fixture(scope="module")
def cli():
    binary = dancecard_binary()
    if binary is None:
        pytest.skip("the dancecard binary is not built (cargo build -p dancecard, or set "
                    "DANCECARD to its path): the files of the command line are not tried")
    version = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60)
    if version.stdout.split()[-1:] != [dancecard.__version__]:
        pytest.skip(f"{binary} is version {version.stdout.strip()!r}, this package "
                    f"{dancecard.__version__}: their shards are of different searches")
    return binary


def cli_shard(cli, dlx, i, n, depth, output, heuristic="mrv"):
    done = subprocess.run(
        [cli, "solve", "--count", "--shard", f"{i}/{n}", "--split-depth", str(depth),
         "--heuristic", heuristic, "--output", output, dlx],
        capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr


def cli_merge(cli, files):
    return subprocess.run([cli, "merge", *map(str, files)], capture_output=True, text=True,
                          timeout=600)


@pytest.mark.parametrize("name, depth, n, heuristic", [("queens8", 2, 4, "mrv"),
                                                       ("domino6x6", 3, 5, "leftmost"),
                                                       ("queens12", 3, 6, "mrv")])
def test_files_mix_with_the_command_lines(tmp_path, cli, name, depth, n, heuristic):
    dlx = INSTANCES / f"{name}.dlx"
    p = dancecard.Problem.from_dlx(dlx.read_text())
    py_files, cli_files = [], []
    for i in range(n):
        py_file, cli_file = tmp_path / f"py{i}.json", tmp_path / f"cli{i}.json"
        p.count(shard=(i, n), split_depth=depth, heuristic=heuristic, output=py_file)
        cli_shard(cli, dlx, i, n, depth, cli_file, heuristic)
        py_files.append(py_file)
        cli_files.append(cli_file)
        # The same shard, the same result, but for the time it took, the updates (they include
        # the prefixes replayed where a unit was split at run time, and whether it is split
        # depends on the kernel each process timed as fastest) and so the checksum.
        py_result, cli_result = read_json(py_file), read_json(cli_file)
        for result in (py_result, cli_result):
            del result["stats"]["seconds"], result["stats"]["updates"], result["checksum"]
        assert py_result == cli_result
    total = COUNTS[name]
    # Python merges the command line's files, and files of both.
    assert dancecard.merge(cli_files) == total
    mixed = [py_files[i] if i % 2 else cli_files[i] for i in range(n)]
    assert dancecard.merge(mixed) == total
    # The command line merges Python's files, and files of both.
    for files in (py_files, mixed[::-1]):
        done = cli_merge(cli, files)
        assert (done.returncode, done.stdout.strip()) == (0, str(total)), done.stderr
    # And refuses a set with a shard missing, as merge does.
    done = cli_merge(cli, py_files[1:])
    assert done.returncode != 0 and "missing shards" in done.stderr
    with pytest.raises(ValueError, match="missing shards"):
        dancecard.merge(cli_files[1:])


def test_a_problem_built_from_names_is_the_files_search(tmp_path, cli):
    # A problem built from names (not read from a file) is the same search as the file's.
    cells, options = [], []
    for r in range(6):
        for c in range(6):
            cells.append(f"{r}{c}")
            if c < 5:
                options.append(f"{r}{c} {r}{c + 1}")
            if r < 5:
                options.append(f"{r}{c} {r + 1}{c}")
    p = pickle.loads(pickle.dumps(dancecard.Problem(cells, options=options)))
    dlx = tmp_path / "dominoes.dlx"
    dlx.write_text(" ".join(cells) + "\n" + "\n".join(options) + "\n")
    p.count(shard=(0, 2), split_depth=2, output=tmp_path / "py0.json")
    cli_shard(cli, dlx, 1, 2, 2, tmp_path / "cli1.json")
    assert dancecard.merge([tmp_path / "py0.json", tmp_path / "cli1.json"]) == 6_728


# --- merge refuses ------------------------------------------------------------------------


@pytest.fixture
def shards(tmp_path):
    """The four shards of queens8 at depth 2, in tmp_path/shards."""
    directory = tmp_path / "shards"
    directory.mkdir()
    paths, _ = write_shards(instance("queens8"), 4, 2, directory)
    return paths


def merge_error(files):
    with pytest.raises(ValueError) as info:
        dancecard.merge(files)
    message = str(info.value)
    assert message.startswith("argument 'files': "), message
    return message


def test_merge_refuses_a_missing_shard(shards):
    message = merge_error(shards[:2] + shards[3:])
    assert "missing shards of 4: 2" in message
    message = merge_error(shards[:1])
    assert "missing shards of 4: 1, 2, 3" in message


def test_merge_refuses_a_duplicate(shards, tmp_path):
    copy_ = tmp_path / "copy.json"
    shutil.copy(shards[1], copy_)
    message = merge_error(shards + [copy_])
    assert "shard 1 appears 2 times" in message and str(copy_) in message
    message = merge_error(shards + [shards[2]])
    assert "shard 2 appears 2 times" in message


@pytest.mark.parametrize("field, value", [("count", 1000), ("shard", 3), ("units", 1),
                                          ("complete", False)])
def test_merge_refuses_an_edited_file(shards, field, value):
    result = read_json(shards[0])
    assert result[field] != value
    result[field] = value
    shards[0].write_text(json.dumps(result))
    message = merge_error(shards)
    assert str(shards[0]) in message and "checksum mismatch" in message, message


def test_merge_refuses_a_damaged_file(shards):
    text = shards[1].read_text()
    shards[1].write_text(text[: len(text) // 2])
    message = merge_error(shards)
    assert str(shards[1]) in message and "not a shard result file" in message, message


@pytest.mark.parametrize("other", ["depth", "shards", "heuristic", "problem"])
def test_merge_refuses_a_file_of_another_search(shards, tmp_path, other):
    kwargs = {"split_depth": 2, "heuristic": "mrv"}
    n, problem = 4, instance("queens8")
    if other == "depth":
        kwargs["split_depth"] = 3
    elif other == "shards":
        n = 5
    elif other == "heuristic":
        kwargs["heuristic"] = "leftmost"
    else:
        problem = instance("domino6x6")
    stranger = tmp_path / "stranger.json"
    problem.count(shard=(3, n), output=stranger, **kwargs)
    message = merge_error(shards[:3] + [stranger])
    assert f"{stranger} is from another search" in message, message
    # The whole set of the other search is refused as well, file by file.
    message = merge_error([stranger] + shards[:3])
    assert message.count("is from another search") == 3, message


def test_merge_refuses_an_incomplete_shard(shards):
    p = instance("queens8")
    count = p.count(shard=(2, 4), split_depth=2, max_nodes=10, output=shards[2])
    assert (p.stats.complete, p.stats.stop) == (False, "node_limit")
    result = read_json(shards[2])
    assert (result["complete"], result["stop"], result["count"]) == (False, "node-limit", count)
    message = merge_error(shards)
    assert f"{shards[2]}: shard 2 is incomplete" in message, message



def test_merge_refuses_a_shard_stopped_by_its_time_limit(tmp_path):
    # The engine looks at the clock every 1,024 nodes: a shard of queens12 has more.
    p = instance("queens12")
    p.count(shard=(0, 2), split_depth=2, time_limit=0, output=tmp_path / "s0.json")
    assert (p.stats.complete, p.stats.stop) == (False, "time_limit")
    assert read_json(tmp_path / "s0.json")["stop"] == "time-limit"
    p.count(shard=(1, 2), split_depth=2, output=tmp_path / "s1.json")
    message = merge_error([tmp_path / "s0.json", tmp_path / "s1.json"])
    assert "s0.json: shard 0 is incomplete" in message, message


@pytest.mark.parametrize("content", [b"", b"hello\n", b"\xff\xfe", b"[1, 2]", b"{}",
                                     b'{"kind": "dancecard-checkpoint"}', b"0" * (2 << 20)],
                         ids=["empty", "text", "binary", "list", "object", "other_kind", "huge"])
def test_merge_refuses_what_is_no_shard_result(shards, tmp_path, content):
    path = tmp_path / "junk.json"
    path.write_bytes(content)
    message = merge_error(shards + [path])
    assert f"{path}: not a shard result file" in message, message
    assert len(message) < 1000


def test_merge_lists_every_problem(shards, tmp_path):
    p = instance("queens8")
    p.count(shard=(1, 4), split_depth=2, max_nodes=5, output=shards[1])
    message = merge_error([shards[1], shards[1], shards[3]])
    assert "shard 1 is incomplete" in message
    assert "missing shards of 4: 0, 2" in message
    assert "shard 1 appears 2 times" in message


def fnv1a128(data):
    """FNV-1a with 128 bits, the checksum of shard results (dancecard-scale's checksum.rs)."""
    h = 0x6C62272E07BB014262B821756295C58D
    for byte in data:
        h = ((h ^ byte) * 0x0000000001000000000000000000013B) % 2**128
    return h


def with_checksum(result):
    """A shard result (a dict in the file's field order) with the checksum of its content:
    canonical JSON (compact, in field order) with the checksum empty. Lets a test write files
    that only a mistaken writer could have written. The seconds become 0.5, which Python and
    serde_json write alike (not so 6.7735e-05, which serde_json writes 0.000067735)."""
    result = dict(result, checksum="")
    result["stats"] = dict(result["stats"], seconds=0.5)
    content = json.dumps(result, separators=(",", ":"), ensure_ascii=False)
    return dict(result, checksum=f"fnv1a128:{fnv1a128(content.encode()):032x}")


def test_the_tests_checksum_is_the_writers(shards):
    # So that the files written below are intact but for what each test changes on purpose.
    for path in shards:
        result = with_checksum(read_json(path))
        assert result["checksum"] != read_json(path)["checksum"]
        path.write_text(json.dumps(result))
    assert dancecard.merge(shards) == 92
    result["units"] += 1
    shards[-1].write_text(json.dumps(result))
    assert "checksum mismatch" in merge_error(shards)


def test_merge_refuses_a_shard_out_of_range(shards, tmp_path):
    result = read_json(shards[3])
    result["shard"] = 7
    stranger = tmp_path / "seven.json"
    stranger.write_text(json.dumps(with_checksum(result)))
    message = merge_error(shards + [stranger])
    assert f"{stranger}: shard 7 is not below 4" in message, message


def test_merge_sums_past_2_to_the_128(tmp_path):
    # #28: two shards of 2**128 solutions each (a count past 2**64 is written as a string;
    # stats.solutions stays within u128): the total is exact.
    p = instance("queens8")
    paths, _ = write_shards(p, 2, 2, tmp_path)
    for path in paths:
        result = read_json(path)
        result["count"] = str(2**128)
        path.write_text(json.dumps(with_checksum(result)))
    assert dancecard.merge(paths) == 2**129
    result = read_json(paths[1])
    result["count"] = str(2**127 - 1)
    paths[1].write_text(json.dumps(with_checksum(result)))
    assert dancecard.merge(paths) == 2**128 + 2**127 - 1


def test_merge_refuses_no_file():
    assert "no shard result given" in merge_error([])


def test_merge_raises_oserror_for_a_file_it_cannot_read(shards, tmp_path):
    missing = tmp_path / "missing.json"
    with pytest.raises(FileNotFoundError) as info:
        dancecard.merge(shards + [missing])
    assert (info.value.errno, info.value.filename) == (errno.ENOENT, str(missing))
    with pytest.raises(IsADirectoryError) as info:
        dancecard.merge([tmp_path] + shards)
    assert info.value.filename == str(tmp_path)


# --- Writing the result ---------------------------------------------------------------------


def test_output_that_cannot_be_written_fails_before_the_count(tmp_path):
    p = instance("pent6x10")  # seconds to count: the error comes at once
    started = time.monotonic()
    with pytest.raises(IsADirectoryError) as info:
        p.count(shard=(0, 2), output=tmp_path)
    assert info.value.filename == str(tmp_path)
    with pytest.raises(FileNotFoundError) as info:
        p.count(shard=(0, 2), output=tmp_path / "no" / "such" / "dir.json")
    assert info.value.filename == str(tmp_path / "no" / "such" / "dir.json")
    assert time.monotonic() - started < 1.0
    assert os.listdir(tmp_path) == []


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="needs POSIX permissions, which root overrides")
def test_output_in_a_read_only_directory(tmp_path):
    tmp_path.chmod(0o500)
    try:
        with pytest.raises(PermissionError):
            toy().count(shard=(0, 1), output=tmp_path / "s.json")
    finally:
        tmp_path.chmod(0o700)


def test_output_and_split_depth_need_a_shard(tmp_path):
    p = toy()
    with pytest.raises(ValueError, match=r"^argument 'output': .*give shard=\(i, n\) too"):
        p.count(output=tmp_path / "s.json")
    with pytest.raises(ValueError, match=r"^argument 'split_depth': .*give shard=\(i, n\) too"):
        p.count(split_depth=2)
    with pytest.raises(ValueError, match=r"^argument 'method': a shard is counted by the plain"):
        p.count(shard=(0, 1), method="memo", output=tmp_path / "s.json")
    assert os.listdir(tmp_path) == []


SIGINT_CHILD = """
import sys, time
import dancecard
text = open({pent!r}).read()
lines = text.splitlines()
head = next(i for i, l in enumerate(lines) if l.strip() and not l.startswith("|"))
lines[head] = lines[head].replace("|", "zz |", 1) if "|" in lines[head] else lines[head] + " zz"
# No solution, and hours of search with the leftmost item: a shard of it, cut at depth
# {depth} (at depth 30, the listing of the units alone takes hours).
endless = dancecard.Problem.from_dlx("\\n".join(lines))
print("ready", flush=True)
try:
    endless.count(shard=(0, 2), split_depth={depth}, heuristic="leftmost", output={out!r})
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(0)
print("finished", flush=True)
"""


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
@pytest.mark.parametrize("depth", [2, 30])
def test_ctrl_c_stops_a_shard_and_writes_nothing(tmp_path, depth):
    out = tmp_path / "s.json"
    code = SIGINT_CHILD.format(pent=str(INSTANCES / "pent6x10.dlx"), depth=depth, out=str(out))
    assert interrupt(code) < 1.0
    # Neither the result nor its temporary file.
    assert os.listdir(tmp_path) == []


# --- Pickling -------------------------------------------------------------------------------


def problems():
    """Problems of every shape: names, colors, bounds, costs, matrices with rows of zeros,
    models, and the degenerate ones (no item, no primary item, no option)."""
    return {
        "toy": toy(),
        "colors": dancecard.Problem(
            "a b c", secondary="x y",
            options=["a x:red", "a x:blue", "b x:red y", "b", "c y:green", "c x:blue", "a b"]),
        "bounds_costs": dancecard.Problem.from_dlx("2|a 0:2|b | x\na x:1 |3\na b\nb x:2 |4\na\n"),
        "queens8": instance("queens8"),
        "matrix_zero_rows": dancecard.Problem.from_matrix(
            [[0, 0, 0], [1, 0, 1], [0, 0, 0], [0, 1, 0], [1, 1, 1], [0, 0, 0]]),
        "matrix_text": dancecard.Problem.from_matrix("4 2\n00\n11\n10\n00\n"),
        "matrix_all_zero": dancecard.Problem.from_matrix([[0, 0], [0, 0]]),
        "matrix_no_columns": dancecard.Problem.from_matrix([[], [], []]),
        "matrix_empty": dancecard.Problem.from_matrix([]),
        "no_items": dancecard.Problem(""),
        "only_secondary": dancecard.Problem("", secondary="x y"),
        "no_options": dancecard.Problem("a b", secondary="x"),
        "queens_model": dancecard.queens.problem(6),
        "tiling": dancecard.tile("3x4", "dominoes").problem,
        "unicode": dancecard.Problem(["é", "名前"], options=[["é"], ["名前"], ["é", "名前"]]),
    }


def same_problem(p, q):
    assert type(q) is dancecard.Problem and q is not p
    assert (q.primary, q.secondary, q.options) == (p.primary, p.secondary, p.options)
    assert q.to_dlx() == p.to_dlx() and repr(q) == repr(p)
    assert q.first() == p.first()
    assert sorted(q.solutions()) == sorted(p.solutions())
    assert q.count() == p.count()
    assert q.stats.nodes == p.stats.nodes and q.stats.updates == p.stats.updates
    for k in range(len(p.options) + 1):
        assert q.is_solution([k]) == p.is_solution([k])


@pytest.mark.parametrize("name", sorted(problems()))
def test_a_pickled_problem_is_the_same_problem(name):
    p = problems()[name]
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        same_problem(p, pickle.loads(pickle.dumps(p, protocol=protocol)))
    same_problem(p, copy.deepcopy(p))
    same_problem(p, copy.copy(p))
    # A copy of a copy.
    same_problem(p, pickle.loads(pickle.dumps(copy.deepcopy(p))))


def test_a_pickled_matrix_keeps_its_row_numbers():
    p = dancecard.Problem.from_matrix([[0, 0], [1, 0], [0, 0], [0, 1], [1, 1], [0, 0]])
    q = pickle.loads(pickle.dumps(p))
    assert q.options == ["", "1", "", "2", "1 2", ""]
    assert sorted(q.solutions()) == [[1, 3], [4]]
    assert not q.is_solution([0, 4]) and q.is_solution([4])


def test_the_stats_are_not_pickled():
    p = toy()
    p.count()
    assert p.stats is not None
    assert pickle.loads(pickle.dumps(p)).stats is None
    assert copy.deepcopy(p).stats is None


def test_a_pickled_problem_counts_the_same_shards(tmp_path):
    # Shards of the original and of a copy merge: the same search, the same fingerprint.
    p = instance("queens12")
    q = pickle.loads(pickle.dumps(p))
    p.count(shard=(0, 3), split_depth=2, output=tmp_path / "p0.json")
    q.count(shard=(1, 3), split_depth=2, output=tmp_path / "q1.json")
    copy.deepcopy(q).count(shard=(2, 3), split_depth=2, output=tmp_path / "r2.json")
    files = sorted(tmp_path.iterdir())
    assert dancecard.merge(files) == 14_200
    fingerprints = {json.dumps(read_json(f)["fingerprint"]) for f in files}
    assert len(fingerprints) == 1


def test_a_pickle_is_small_and_names_its_maker():
    p = instance("queens8")
    data = pickle.dumps(p)
    assert b"_problem_from_state" in data and b"dancecard._native" in data
    assert len(data) < 2 * len(p.to_dlx()) + 200


class Tampered:
    """Pickles as a Problem whose state was replaced."""

    def __init__(self, *state):
        self.state = state

    def __reduce__(self):
        return _native._problem_from_state, self.state


def tampered(problem, **changes):
    """The state of ``problem``'s pickle with some fields changed."""
    rebuild, state = problem.__reduce__()
    assert rebuild is _native._problem_from_state
    fields = dict(zip(["version", "text", "secondary", "numbering"], state))
    fields.update(changes)
    return Tampered(*fields.values())


@pytest.mark.parametrize("changes, argument, message", [
    ({"version": 2}, "version", "expected 1 (a pickle of this version of dancecard), got 2"),
    ({"version": 0}, "version", "got 0"),
    ({"numbering": ([0, 1, 2, 3, 4, 4], 6)}, "numbering", "distinct option numbers, got 4 twice"),
    ({"numbering": ([0, 1, 2, 3, 4], 6)}, "numbering", "expected 6 option numbers"),
    ({"numbering": ([0, 1, 2, 3, 4, 9], 6)}, "numbering", "below numbering[1] (6), got 9"),
    ({"numbering": ([0, 1, 2, 3, 4, -1], 6)}, "numbering", "numbering[0][5]"),
    ({"numbering": (list(range(6)), 2**64)}, "numbering", "numbering[1]: expected an int"),
    ({"numbering": (list(range(6)),)}, "numbering", "got one value"),
    ({"secondary": ["x"]}, "secondary", "expected None"),
    ({"text": "a b\na z\n"}, None, "unknown item"),
])
def test_a_tampered_pickle_is_a_valueerror(changes, argument, message):
    data = pickle.dumps(tampered(toy(), **changes))
    with pytest.raises(ValueError) as info:
        pickle.loads(data)
    if argument is None:
        assert isinstance(info.value, dancecard.DlxParseError)
    else:
        assert str(info.value).startswith(f"argument '{argument}': "), str(info.value)
    assert message in str(info.value), str(info.value)


def test_a_tampered_pickle_of_the_wrong_type_is_a_typeerror():
    for changes in [{"version": "1"}, {"text": b"a\na\n"}, {"numbering": "012345"}]:
        with pytest.raises(TypeError):
            pickle.loads(pickle.dumps(tampered(toy(), **changes)))


def test_an_untampered_state_rebuilds():
    p = dancecard.Problem.from_matrix([[0, 1], [1, 0], [0, 0]])
    same_problem(p, pickle.loads(pickle.dumps(tampered(p))))


# --- Hostile arguments (with their messages; tests/test_arguments.py tries them all) -----------


@pytest.mark.parametrize("shard, error, message", [
    ((2, 2), ValueError, "expected a pair (i, n) of ints with 0 <= i < n < 2**64, or None, "
                         "got (2, 2)"),
    ((5, 3), ValueError, "got (5, 3)"),
    ((0, 0), ValueError, "got (0, 0)"),
    ((-1, 3), ValueError, "shard[0]: expected an int from 0 to 2**64 - 1, got -1"),
    ((0, 2**64), ValueError, "shard[1]: expected an int from 0 to 2**64 - 1, got 18446744073709551616"),
    ((0, 2**300), ValueError, "shard[1]: expected an int from 0 to 2**64 - 1, got an int of 301 bits"),
    ((0, 1, 2), ValueError, "got three values or more"),
    ((0,), ValueError, "got one value"),
    ((), ValueError, "got no value"),
    (3, TypeError, "expected a pair (i, n) of ints with 0 <= i < n < 2**64, or None, got int"),
    ("0/2", TypeError, "got str"),
    ((0.0, 2), TypeError, "shard[0]: expected an int from 0 to 2**64 - 1, got float"),
    ((False, 2), TypeError, "shard[0]: expected an int from 0 to 2**64 - 1, got bool"),
    (({}, 2), TypeError, "shard[0]: expected an int from 0 to 2**64 - 1, got dict"),
])
def test_hostile_shards(shard, error, message):
    with pytest.raises(error) as info:
        toy().count(shard=shard)
    assert str(info.value).startswith("argument 'shard': ") and message in str(info.value), (
        str(info.value))


@pytest.mark.parametrize("depth, error, message", [
    (-1, ValueError, "got -1"),
    (1025, ValueError, "got 1025"),
    (2**70, ValueError, "got 1180591620717411303424"),
    (2.0, TypeError, "got float"),
    (True, TypeError, "got bool"),
    ("2", TypeError, "got str"),
])
def test_hostile_split_depths(depth, error, message):
    with pytest.raises(error) as info:
        toy().count(shard=(0, 2), split_depth=depth)
    assert str(info.value) == f"argument 'split_depth': expected an int from 0 to 1024, or None, {message}"


@pytest.mark.parametrize("output, error, message", [
    ("", ValueError, "expected a path that is not empty"),
    ("a\x00b", ValueError, "expected a path without NUL"),
    ("x" * 5000, ValueError, "expected a path of at most 4096 bytes, got 5000 bytes"),
    ("\ud800", ValueError, "expected a path the file system can encode"),
    (3, TypeError, "expected a path (str, bytes or os.PathLike), got int"),
    (bytearray(b"s.json"), TypeError, "got bytearray"),
    (["s.json"], TypeError, "got list"),
])
def test_hostile_outputs(tmp_path, output, error, message):
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        with pytest.raises(error) as info:
            toy().count(shard=(0, 1), output=output)
    finally:
        os.chdir(here)
    assert str(info.value).startswith("argument 'output': ") and message in str(info.value)
    assert os.listdir(tmp_path) == []


@pytest.mark.skipif(np is None, reason="numpy is not installed")
def test_numpy_values_are_shards_depths_and_paths(tmp_path):
    p = instance("queens8")
    counts = [p.count(shard=np.array([i, 4]), split_depth=np.int8(2),
                      output=np.str_(str(tmp_path / f"s{i}.json"))) for i in range(4)]
    assert sum(counts) == 92
    counts_ = [p.count(shard=(np.uint64(i), np.int64(4)), split_depth=np.uint16(2))
               for i in range(4)]
    assert counts_ == counts
    assert dancecard.merge(np.array([str(tmp_path / f"s{i}.json") for i in range(4)])) == 92
    with pytest.raises(ValueError, match=r"^argument 'shard': shard\[0\]: .* got -1"):
        p.count(shard=(np.int8(-1), 4))
    with pytest.raises(TypeError, match=r"^argument 'shard': shard\[0\]: .* got numpy.float64"):
        p.count(shard=(np.float64(1), 4))


@pytest.mark.parametrize("files, error, message", [
    (None, TypeError, "expected an iterable of paths (str, bytes or os.PathLike), got NoneType"),
    ("s0.json", TypeError, "got str"),
    (Path("s0.json"), TypeError, "got pathlib.PosixPath" if os.name == "posix" else "got pathlib.WindowsPath"),
    ([1], TypeError, "files[0]: expected a path (str, bytes or os.PathLike), got int"),
    (["s0.json", None], TypeError, "files[1]: expected a path"),
    ([""], ValueError, "files[0]: expected a path that is not empty"),
])
def test_hostile_files(files, error, message):
    with pytest.raises(error) as info:
        dancecard.merge(files)
    assert str(info.value).startswith("argument 'files': ") and message in str(info.value), (
        str(info.value))
