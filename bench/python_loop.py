"""Benchmark (docs/scaling.md, "Benchmarks"): a loop of 10,000 three-rod solves from Python, the median of several runs.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_loop.py [--repetitions 7] [--solves 10000]

Three loops, each over the three identical rods of Winandy & Leine (2015, §4.2) with the
right rod's velocity varying, so that no two solves are the same:
  run            rc.run(case) on one Case built before the loop, reading final_velocities;
  dict + run     rc.Case(rods=[dict, dict, dict]) and rc.run() in every iteration;
  run + kwargs   rc.run(case, method="characteristics", end_time=10.0) (keyword options).
The results are checked (momentum is conserved), so the loops cannot be optimised away.
Single timings on a shared machine are noise: compare medians.
"""
import argparse
import statistics
import sys
import time

import numpy as np

import rodcollide as rc

ROD = dict(length=1.0, area=1.0, density=1.0, youngs_modulus=1.0)


def loop_run(n):
    cases = [rc.Case(rods=[dict(ROD, velocity=2.0), ROD, dict(ROD, velocity=-k / n)]) for k in range(16)]
    total = 0.0
    start = time.perf_counter()
    for k in range(n):
        total += rc.run(cases[k & 15]).final_velocities.sum()
    return time.perf_counter() - start, total


def loop_dict_run(n):
    total = 0.0
    start = time.perf_counter()
    for k in range(n):
        case = rc.Case(rods=[dict(ROD, velocity=2.0), ROD, dict(ROD, velocity=-k / n)])
        total += rc.run(case).final_velocities.sum()
    return time.perf_counter() - start, total


def loop_run_kwargs(n):
    case = rc.Case(rods=[dict(ROD, velocity=2.0), ROD, dict(ROD, velocity=-1.0)])
    total = 0.0
    start = time.perf_counter()
    for _ in range(n):
        total += rc.run(case, method="characteristics", end_time=10.0).final_velocities.sum()
    return time.perf_counter() - start, total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=7)
    parser.add_argument("--solves", type=int, default=10_000)
    args = parser.parse_args()
    n = args.solves
    expected = {  # sum of u+ = sum of u- for equal masses (momentum)
        loop_run: sum(2.0 - (k & 15) / n for k in range(n)),
        loop_dict_run: sum(2.0 - k / n for k in range(n)),
        loop_run_kwargs: n * 1.0,
    }
    print(f"rodcollide {rc.__version__}, Python {sys.version.split()[0]}, numpy {np.__version__}")
    print(f"{n} three-rod solves per loop, {args.repetitions} repetitions\n")
    print(f"{'loop':<14} {'median [s]':>11} {'min [s]':>9} {'max [s]':>9} {'per solve':>11}")
    for loop, name in [(loop_run, "run"), (loop_dict_run, "dict + run"), (loop_run_kwargs, "run + kwargs")]:
        times = []
        for _ in range(args.repetitions):
            seconds, total = loop(n)
            if abs(total - expected[loop]) > 1e-9 * n:
                sys.exit(f"{name}: sum of final velocities {total}, expected {expected[loop]}")
            times.append(seconds)
        median = statistics.median(times)
        print(f"{name:<14} {median:>11.4f} {min(times):>9.4f} {max(times):>9.4f} {median / n * 1e6:>8.1f} us")


if __name__ == "__main__":
    main()
