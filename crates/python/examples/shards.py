"""Counting on many processes (#18): one count cut into shards, each counted by a worker of a
multiprocessing pool (the Problem is pickled to it), and the workers' result files merged.

The files are those of the command line (`dancecard solve --count --shard I/N --split-depth D
--output FILE`, `dancecard merge FILES`): a batch scheduler or Dask can count the shards just
as well, with either."""

import multiprocessing
import tempfile
import time
from pathlib import Path

import dancecard

INSTANCES = Path(__file__).resolve().parents[3] / "testdata" / "instances"
SHARDS = 8
SPLIT_DEPTH = 3


def count_shard(task):
    """A worker: counts shard i of the problem into its file; the count and the nodes."""
    problem, i, path = task
    count = problem.count(shard=(i, SHARDS), split_depth=SPLIT_DEPTH, output=path)
    return count, problem.stats.nodes


def main():
    # 2,339 ways to pack the 12 pentominoes in a 6x10 box, each counted 4 times (its turns
    # and flips): 9,356 solutions.
    problem = dancecard.Problem.from_dlx((INSTANCES / "pent6x10.dlx").read_text())
    with tempfile.TemporaryDirectory() as tmp:
        files = [str(Path(tmp) / f"shard{i}.json") for i in range(SHARDS)]
        started = time.perf_counter()
        with multiprocessing.Pool(2) as pool:
            results = pool.map(count_shard, [(problem, i, f) for i, f in enumerate(files)])
        # merge checks that the files are every shard of one search, once each and complete.
        total = dancecard.merge(files)
        seconds = time.perf_counter() - started
        print(f"pent6x10 in {SHARDS} shards (split depth {SPLIT_DEPTH}) on 2 processes: "
              f"{total} solutions in {seconds:.2f} s")
        for i, (count, nodes) in enumerate(results):
            print(f"  shard {i}: {count:5} solutions, {nodes:9,} nodes")
        assert total == sum(count for count, _ in results) == 9_356

        # A shard missing (a job that failed, say) is an error, never a smaller total.
        try:
            dancecard.merge(files[:-1])
        except ValueError as e:
            print(f"without the last file: {e}")
        else:
            raise AssertionError("merge took an incomplete set")


if __name__ == "__main__":  # the workers import this file (with the spawn start method)
    main()
