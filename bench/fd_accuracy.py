"""Accuracy of the finite-difference solver against the exact solver on seeded random chains.

    /usr/bin/python3 bench/fd_accuracy.py [--chains 320] [--seed 10] [--jobs 1] [--csv out.csv]
                                          [--fd-args "--cells 500"] [--binary build/rodcollide]

Each chain k is drawn from random.Random(f"{seed}-{k}"), so any chain can be regenerated alone
(`--only k --keep DIR` writes its case file). The chains are those of a rod train or a short
cradle: 2 to 8 rods, steel, aluminium or brass, diameters 10-30 mm, a 5 m/s striker (or, one
chain in four, random velocities in [-5, 5] m/s), each contact touching or (half of them) with a
gap of 0.1-0.5 mm. Half the chains are commensurate: one material and lengths that are whole
multiples of 50 mm, so every rod runs at Courant 1 and the grid is exact; the others have
lengths drawn from 0.05-0.5 m.

Each chain is solved with `rodcollide run --json` by both methods. The error of the
finite-difference run is max_i |u_i,fd - u_i,exact| / V, V = max u- - min u- (the velocity
scale), and it is compared with the run's own "velocity_error_bound" / V when the run reports
one. Chains the exact solver cannot finish (a cap) are counted and left out.
"""
import argparse
import concurrent.futures
import csv
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

MATERIALS = {  # name: (Young's modulus [Pa], density [kg/m^3])
    "steel": (210e9, 7850.0),
    "aluminium": (70e9, 2700.0),
    "brass": (100e9, 8500.0),
}


def draw_chain(seed, k):
    rng = random.Random(f"{seed}-{k}")
    n = rng.randint(2, 8)
    commensurate = rng.random() < 0.5
    if commensurate:
        material = rng.choice(sorted(MATERIALS))
        materials = [material] * n
        lengths = [0.05 * rng.randint(1, 8) for _ in range(n)]
    else:
        materials = [rng.choice(sorted(MATERIALS)) for _ in range(n)]
        lengths = [rng.uniform(0.05, 0.5) for _ in range(n)]
    diameters = [rng.uniform(0.010, 0.030) for _ in range(n)]
    if rng.random() < 0.25:
        velocities = [rng.uniform(-5, 5) for _ in range(n)]
    else:
        velocities = [5.0] + [0.0] * (n - 1)
    gaps = [0.0] + [rng.uniform(1e-4, 5e-4) if rng.random() < 0.5 else 0.0 for _ in range(n - 1)]
    rods = []
    for i in range(n):
        E, rho = MATERIALS[materials[i]]
        rods.append(dict(length=lengths[i], area=math.pi * diameters[i] ** 2 / 4, density=rho,
                         youngs_modulus=E, velocity=velocities[i], gap=gaps[i]))
    return dict(commensurate=commensurate, rods=rods)


def case_text(seed, k, chain):
    lines = [f'title = "fd accuracy chain {seed}-{k}"']
    for i, r in enumerate(chain["rods"]):
        lines.append("[[rod]]")
        for key in ("length", "area", "density", "youngs_modulus", "velocity"):
            lines.append(f"{key} = {r[key]!r}")
        if i > 0:
            lines.append(f"gap = {r['gap']!r}")
    return "\n".join(lines) + "\n"


def run(binary, path, args, timeout):
    start = time.perf_counter()
    try:
        p = subprocess.run([binary, "run", path, "--json", *args], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, timeout, "timeout"
    elapsed = time.perf_counter() - start
    if p.returncode != 0:
        return None, elapsed, p.stderr.strip().splitlines()[-1] if p.stderr.strip() else f"exit {p.returncode}"
    return json.loads(p.stdout), elapsed, ""


def measure(task):
    seed, k, binary, fd_args, timeout, keep, cells_list = task
    chain = draw_chain(seed, k)
    text = case_text(seed, k, chain)
    directory = keep or tempfile.mkdtemp(prefix="fdacc")
    path = os.path.join(directory, f"chain_{seed}_{k}.toml")
    with open(path, "w") as f:
        f.write(text)
    row = dict(chain=k, rods=len(chain["rods"]), commensurate=int(chain["commensurate"]),
               gaps=sum(1 for r in chain["rods"][1:] if r["gap"] > 0))
    exact, t_exact, why_exact = run(binary, path, ["--method", "characteristics"], timeout)
    fd, t_fd, why_fd = run(binary, path, ["--method", "finite-difference", *fd_args], timeout)
    # Final velocities at further resolutions (--cells-list), for studying estimators offline.
    row["u_exact"] = [r["final_velocity"] for r in exact["rods"]] if exact else None
    row["u_fd"] = [r["final_velocity"] for r in fd["rods"]] if fd else None
    row["u_cells"] = {}
    for n in cells_list:
        o, _, _ = run(binary, path, ["--method", "finite-difference", "--cells", str(n)], timeout)
        row["u_cells"][n] = [r["final_velocity"] for r in o["rods"]] if o else None
    if not keep:
        os.remove(path)
        os.rmdir(directory)
    row.update(time_exact=t_exact, time_fd=t_fd, exact_failed=why_exact, fd_failed=why_fd)
    if exact:
        row["events_exact"] = exact["stats"]["events"]
    if exact and fd:
        u0 = [r["initial_velocity"] for r in exact["rods"]]
        scale = max(u0) - min(u0)
        err = max(abs(a["final_velocity"] - b["final_velocity"]) for a, b in zip(exact["rods"], fd["rods"]))
        row["error"] = err / scale
        bound = fd.get("velocity_error_bound")
        row["estimate"] = bound / scale if bound is not None else float("nan")
        row["met"] = int(not fd.get("accuracy_not_met", False))
        row["cells"] = fd["stats"]["shortest_rod_cells"]
        row["steps"] = fd["stats"]["steps"]
    return row


def quantiles(xs, qs):
    xs = sorted(xs)
    return [xs[min(len(xs) - 1, int(q * len(xs)))] for q in qs]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chains", type=int, default=320)
    ap.add_argument("--seed", type=int, default=10)
    ap.add_argument("--only", type=int, help="just chain k")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--binary", default="build/rodcollide")
    ap.add_argument("--fd-args", default="", help="extra flags for the finite-difference run")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--csv", help="write one row per chain")
    ap.add_argument("--cells-list", help="also run these cell counts, e.g. 500,700 (written to --dump)")
    ap.add_argument("--dump", help="write every row, with final velocities, as JSON")
    ap.add_argument("--keep", help="write the case files into this directory")
    a = ap.parse_args()
    cells_list = [int(x) for x in a.cells_list.split(",")] if a.cells_list else []
    ks = [a.only] if a.only is not None else range(a.chains)
    tasks = [(a.seed, k, a.binary, a.fd_args.split(), a.timeout, a.keep, cells_list) for k in ks]
    rows = []
    dump = open(a.dump, "w") if a.dump else None  # one JSON row per line, as chains finish
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for row in pool.map(measure, tasks):
            rows.append(row)
            if dump:
                dump.write(json.dumps(row) + "\n")
                dump.flush()
    if a.csv:
        keys = sorted({key for r in rows for key in r if not key.startswith("u_")}, key=lambda s: (s != "chain", s))
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, keys, extrasaction="ignore")
            w.writeheader()
            w.writerows(rows)

    both = [r for r in rows if "error" in r]
    print(f"chains: {len(rows)} (seed {a.seed}); exact failed {sum(1 for r in rows if r['exact_failed'])}, "
          f"finite differences failed {sum(1 for r in rows if r['fd_failed'])}, compared {len(both)}")
    for r in rows:
        if r["exact_failed"] or r["fd_failed"]:
            print(f"  chain {r['chain']}: exact: {r['exact_failed'] or 'ok'} | fd: {r['fd_failed'] or 'ok'}")
    if not both:
        return
    errs = [r["error"] for r in both]
    print("error / V: median {:.2e}  90% {:.2e}  99% {:.2e}  max {:.2e}".format(*quantiles(errs, [0.5, 0.9, 0.99]), max(errs)))
    for limit in (1e-3, 1e-2):
        print(f"  above {limit:g}: {sum(e > limit for e in errs)}")
    inc = [r for r in both if not r["commensurate"]]
    if inc:
        print("incommensurate ({}): median {:.2e}  max {:.2e}".format(len(inc), statistics.median(r["error"] for r in inc),
                                                                     max(r["error"] for r in inc)))
    est = [r for r in both if not math.isnan(r["estimate"])]
    if est:
        under = [r for r in est if r["error"] > r["estimate"]]
        print(f"estimate reported on {len(est)}: under-estimates {len(under)} "
              f"({100 * len(under) / len(est):.1f} %)")
        ratios = [r["estimate"] / r["error"] for r in est if r["error"] > 1e-12]
        if ratios:
            print("  estimate / error (error > 1e-12): min {:.2g}  10% {:.2g}  median {:.2g}  90% {:.2g}".format(
                min(ratios), *quantiles(ratios, [0.1, 0.5, 0.9])))
        for r in sorted(under, key=lambda r: r["estimate"] / max(r["error"], 1e-300))[:10]:
            print(f"  chain {r['chain']}: error {r['error']:.2e}, estimate {r['estimate']:.2e}")
        big = [r for r in est if r["error"] > 1e-3]
        print(f"  error > 1e-3 of V: {len(big)}, of which estimate also > 1e-3: {sum(r['estimate'] > 1e-3 for r in big)}")
        print(f"  accuracy target met (by the run's own report): {sum(r['met'] for r in est)}; "
              f"of those with true error > 1e-3: {sum(r['met'] for r in big)}")
    tf = [r["time_fd"] for r in both]
    te = [r["time_exact"] for r in both]
    print("time fd: median {:.3f} s  90% {:.3f} s  max {:.3f} s; exact: median {:.3f} s  max {:.3f} s".format(
        statistics.median(tf), *quantiles(tf, [0.9]), max(tf), statistics.median(te), max(te)))


if __name__ == "__main__":
    sys.exit(main())
