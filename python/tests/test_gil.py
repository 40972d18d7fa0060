"""Long runs release the GIL (docs/python.md): another Python thread keeps running while a solve runs,
solves in several threads give the sequential results, and Ctrl-C (KeyboardInterrupt) stops a
long run. A long run: a stepped striker and a bar against a stop vibrate for ever after the
impact, and with an end_time the exact solver follows every reflection (a chain with a wall has no
free-flight skipping: about 1e5 event groups per second of simulated time, ~0.3 us each).
(Free rods between open contacts are no long run any more: they fall asleep, docs/physics.md §6.7.)"""
import _thread
import threading
import time

import pytest

import rodcollide as rc
from conftest import CASE_FILES, SOURCE_DIR

VIBRATING = SOURCE_DIR / "cases" / "ends" / "stepped_striker_wall.toml"


def test_other_threads_run_during_a_solve():
    case = rc.load_case(VIBRATING)
    done = threading.Event()
    result = {}

    def solve():
        try:  # a run that raises must end the wait below, not hang it (it is re-raised after)
            start = time.perf_counter()
            result["outcome"] = rc.run(case, end_time=10.0)  # 1e6 event groups, ~0.3 s
            result["seconds"] = time.perf_counter() - start
        except BaseException as e:
            result["error"] = e
        finally:
            done.set()

    worker = threading.Thread(target=solve)
    ticks = [time.perf_counter()]
    worker.start()
    while not done.is_set():  # pure Python: it can run only while nobody holds the GIL for long
        ticks.append(time.perf_counter())
    worker.join()
    if "error" in result:
        raise result["error"]
    longest_pause = max(b - a for a, b in zip(ticks, ticks[1:]))
    settled = rc.run(case).final_velocities  # the same motion, read at the settling time
    assert abs(result["outcome"].final_velocities - settled).max() < 1e-9
    assert result["seconds"] > 0.05, "the solve is too short to tell"
    # Holding the GIL through the solve would stop this thread for all of it.
    assert longest_pause < 0.5 * result["seconds"], (longest_pause, result["seconds"])


def test_concurrent_solves_give_the_sequential_results():
    cases = [rc.load_case(p) for p in CASE_FILES]
    expected = [rc.run(c).to_dict() for c in cases]
    got = [None] * len(cases)

    def solve(i):
        got[i] = rc.run(cases[i]).to_dict()

    threads = [threading.Thread(target=solve, args=(i,)) for i in range(len(cases))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == expected


def test_keyboard_interrupt_stops_a_long_run():
    case = rc.load_case(VIBRATING)
    timer = threading.Timer(0.2, _thread.interrupt_main)  # as Ctrl-C would
    timer.start()
    start = time.perf_counter()
    try:
        with pytest.raises(KeyboardInterrupt):
            rc.run(case, end_time=1e4, max_events=10 ** 10)  # 1e9 event groups: minutes
    finally:
        timer.cancel()
    # Uninterrupted, the run would go on long after this; the interrupt is seen within 65536 groups.
    assert time.perf_counter() - start < 10
    assert rc.run(rc.load_case(SOURCE_DIR / "cases" / "rods_1_2_1.toml")).final_velocities.tolist() == [-1, -0.5, 1]  # still works
