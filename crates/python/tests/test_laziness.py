"""Problem.solutions is a lazy iterator: it searches only as far as the caller asks."""

import threading
import time

import dancecard
from conftest import INSTANCES


def dominoes8x8():
    return dancecard.Problem.from_dlx((INSTANCES / "domino8x8.dlx").read_text())


def test_taking_three_solutions_of_8x8_dominoes_is_instant():
    # All 12,988,816 solutions take seconds; three take a few dozen nodes.
    p = dominoes8x8()
    started = time.perf_counter()
    it = p.solutions()
    taken = [next(it) for _ in range(3)]
    elapsed = time.perf_counter() - started
    assert elapsed < 0.5, elapsed
    assert len({tuple(s) for s in taken}) == 3
    assert all(p.is_solution(s) and len(s) == 32 for s in taken)
    assert it.stats.solutions == 3
    assert it.stats.nodes < 200
    assert it.stats.stop == "paused" and not it.stats.complete


def test_nothing_is_searched_before_the_first_next():
    p = dominoes8x8()
    it = p.solutions()
    assert it.stats is None
    assert p.stats is None
    next(it)
    assert p.stats.solutions == 1


def test_iterator_order_matches_first_and_resumes():
    p = dominoes8x8()
    it = p.solutions()
    assert next(it) == p.first()
    # Another search of the same problem does not disturb the iterator (it owns its solver).
    assert p.count(max_nodes=1000) > 0
    rest = [next(it) for _ in range(2000)]
    again = p.solutions(limit=2001)
    assert [next(again) for _ in range(2001)][1:] == rest


def test_whole_iteration_matches_count():
    p = dancecard.Problem.from_dlx((INSTANCES / "domino6x6.dlx").read_text())
    solutions = list(p.solutions())
    assert len(solutions) == 6728 == p.count()
    assert len({tuple(s) for s in solutions}) == 6728
    it = p.solutions()
    for _ in it:
        pass
    assert it.stats.complete and it.stats.solutions == 6728
    assert next(it, None) is None


def test_close_and_drop_end_the_search():
    p = dominoes8x8()
    it = p.solutions()
    next(it)
    it.close()
    assert next(it, None) is None
    # Dropping many half-used iterators leaves no search running.
    for _ in range(50):
        it = p.solutions()
        next(it)
        del it
    assert threading.active_count() < 10


def test_the_gil_is_released_during_a_count():
    p = dominoes8x8()
    ticks = []
    done = threading.Event()

    def count():
        # The plain search: auto would count 8x8 by memo in milliseconds.
        p.count(max_nodes=15_000_000, method="search")
        done.set()

    worker = threading.Thread(target=count)
    worker.start()
    while not done.is_set():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    # The main thread kept running (Python code needs the GIL) while the search ran.
    assert len(ticks) > 20
