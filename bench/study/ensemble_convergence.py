#!/usr/bin/env python3
"""The study of docs/ensemble.md: the convergence of an ensemble's mean with the number of members,
from `rodcollide ensemble --csv` (one line per member). For N = 10, 20, 50, ... up to all members:
the mean of the last rod's final velocity over the first N members, its standard error, and the
distance to the mean over all members in units of that standard error; then the histogram of the
last rod's final velocity. Standard library only.

    rodcollide ensemble bench/study/chain_60_gaps.toml --csv chain60.csv --plot chain60.png
    bench/study/ensemble_convergence.py chain60.csv
"""
import csv
import math
import statistics
import sys


def main():
    with open(sys.argv[1]) as f:
        rows = list(csv.DictReader(f))
    last = max((k for k in rows[0] if k.startswith("u") and k[1:].isdigit()), key=lambda k: int(k[1:]))
    u = [float(r[last]) for r in rows]
    settled = sum(r["settled"] == "1" for r in rows)
    full = statistics.fmean(u)
    print(f"{len(u)} members, {settled} settled; the last rod ({last}): mean {full:.6g} m/s, "
          f"std {statistics.stdev(u):.4g} m/s, range [{min(u):.6g}, {max(u):.6g}] m/s\n")
    print("| N | mean [m/s] | sem [m/s] | (mean - mean of all) / sem |")
    print("| ---: | ---: | ---: | ---: |")
    n = 10
    sizes = []
    while n < len(u):
        sizes.append(n)
        n = n * 2 if str(n)[0] in "15" else n * 5 // 2
    sizes.append(len(u))
    for n in sizes:
        mean = statistics.fmean(u[:n])
        sem = statistics.stdev(u[:n]) / math.sqrt(n)
        print(f"| {n} | {mean:.6g} | {sem:.3g} | {(mean - full) / sem if sem > 0 else 0:+.2f} |")
    bins = 12
    lo, hi = min(u), max(u)
    width = (hi - lo) / bins or 1
    counts = [0] * bins
    for x in u:
        counts[min(bins - 1, int((x - lo) / width))] += 1
    print("\n| final velocity of the last rod [m/s] | members |")
    print("| --- | ---: |")
    for b, c in enumerate(counts):
        print(f"| {lo + b * width:.4f} – {lo + (b + 1) * width:.4f} | {c} {'#' * round(40 * c / max(counts))} |")


if __name__ == "__main__":
    main()
