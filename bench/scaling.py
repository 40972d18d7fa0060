#!/usr/bin/python3
"""Scaling benchmark of the exact solver on seeded random chains (docs/scaling.md, "Scaling: long chains").

Three families of chains, each rod 0.05-0.5 m long, struck by a 5 m/s rod at the left end:
  equal-gaps     steel rods of one section (equal impedance), a gap of 0.1-0.5 mm on half
                 the contacts
  mixed-touching steel rods of random diameter 10-30 mm, all touching
  mixed-gaps     steel, aluminium or brass rods of random diameter 10-30 mm, a gap of
                 0.1-0.5 mm on half the contacts
For every size and family it writes the chains as case files (seeded: the same chains on every
machine), runs `rodcollide run --json` on each with default options under a CPU-time limit,
and prints one row: share settled, median and worst CPU time, median events, median contact
closings and median time at which the chain provably settled (physical seconds: what the
solver had to follow), peak memory (largest resident set), largest reported velocity error
bound, and the largest momentum and energy balance errors (relative) among the chains that
settled.

  /usr/bin/python3 bench/scaling.py                       # the table of docs/scaling.md
  /usr/bin/python3 bench/scaling.py --sizes 3 10 --seeds 5 --time-limit 20

With --accuracy it prints instead the table of issue 25 ("accurate by default", README): per size
and family the share of chains whose outcome meets the accuracy asked for (accuracy_report.met),
the shares that say why not, by reason (accuracy_report.status; "limit": stopped by the CPU-time
limit or a solver cap), median and worst CPU time, peak memory, and the largest ratio of actual
to reported error over the chains that merged fronts, the actual error measured against the run
without merging (--time-resolution 0; where that does not finish within the limit, a run at
100x finer resolution):
  /usr/bin/python3 bench/scaling.py --accuracy --sizes 3 10 20 30 100 --seeds 5 --large-seeds 2
"""
import argparse
import json
import math
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile

MATERIALS = {  # density [kg/m^3], Young's modulus [Pa]
    "steel": (7850.0, 210e9),
    "aluminium": (2700.0, 70e9),
    "brass": (8500.0, 100e9),
}
FAMILIES = ("equal-gaps", "mixed-touching", "mixed-gaps")
STRIKER_VELOCITY = 5.0  # m/s


def chain(family, size, seed):
    """The rods of one seeded chain: list of dicts with the case file's rod keys."""
    rng = random.Random(f"{family}/{size}/{seed}")
    rods = []
    for i in range(size):
        length = rng.uniform(0.05, 0.5)
        if family == "equal-gaps":
            material, diameter = "steel", 0.02
        elif family == "mixed-touching":
            material, diameter = "steel", rng.uniform(0.010, 0.030)
        else:
            material, diameter = rng.choice(sorted(MATERIALS)), rng.uniform(0.010, 0.030)
        gap = 0.0
        if i > 0 and family != "mixed-touching" and rng.random() < 0.5:
            gap = rng.uniform(0.1e-3, 0.5e-3)
        density, youngs = MATERIALS[material]
        rod = {"length": length, "area": math.pi * diameter ** 2 / 4, "density": density,
               "youngs_modulus": youngs, "velocity": STRIKER_VELOCITY if i == 0 else 0.0}
        if i > 0:
            rod["gap"] = gap
        rods.append(rod)
    return rods


def case_text(family, size, seed):
    lines = [f'title = "scaling {family} {size} rods, seed {seed}"']
    for rod in chain(family, size, seed):
        lines.append("[[rod]]")
        lines += [f"{k} = {v!r}" for k, v in rod.items()]
    return "\n".join(lines) + "\n"


def run_one(binary, path, time_limit, extra):
    """(outcome dict or None, CPU seconds, peak resident set in MB, stderr's last line)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (time_limit, time_limit + 1))
    with tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen([binary, "run", path, "--json"] + extra, stdout=subprocess.PIPE,
                                stderr=err, preexec_fn=limit, text=True)
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        last = (err.read().strip().splitlines() or [""])[-1]
    outcome = json.loads(out) if proc.returncode == 0 and out.strip() else None
    if proc.returncode < 0:
        last = f"killed by signal {-proc.returncode} (CPU-time limit {time_limit} s)"
    return outcome, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, last


def balance_errors(o):
    """Momentum and energy balance errors of an outcome, relative."""
    p0 = sum(r["mass"] * r["initial_velocity"] for r in o["rods"])
    p1 = sum(r["mass"] * r["final_velocity"] for r in o["rods"])
    p_scale = sum(abs(r["mass"] * r["initial_velocity"]) for r in o["rods"])
    e = o["energy"]
    de = e["initial"] - (e["final_rigid"] + e["final_vibration"] + e["dropped"])
    return abs(p1 - p0) / p_scale, abs(de) / e["initial"]


def accuracy_row(binary, directory, family, size, seeds, time_limit, extra, verbose):
    """One row of the --accuracy table."""
    met, reasons, times, mems, ratios = 0, {}, [], [], []
    for seed in range(seeds):
        path = os.path.join(directory, f"{family}_{size}_{seed}.toml")
        with open(path, "w") as f:
            f.write(case_text(family, size, seed))
        outcome, cpu, mem, message = run_one(binary, path, time_limit, extra)
        times.append(cpu)
        mems.append(mem)
        if outcome is None:
            reasons["limit"] = reasons.get("limit", 0) + 1
            state = message
        else:
            report = outcome["accuracy_report"]
            state = f"{report['status']}: {report['statement']}"
            if report["met"]:
                met += 1
            else:
                reasons[report["status"]] = reasons.get(report["status"], 0) + 1
            bound = outcome["velocity_error_bound"]
            if outcome["stats"]["merged_fronts"] > 0 and bound:
                reference, _, _, _ = run_one(binary, path, time_limit, ["--time-resolution", "0", "--rounding-check", "off"])
                if reference is None:
                    fine = str(report.get("time_resolution", 0.02) / 100)
                    reference, _, _, _ = run_one(binary, path, time_limit, ["--time-resolution", fine])
                if reference is not None:
                    actual = max(abs(a["final_velocity"] - b["final_velocity"])
                                 for a, b in zip(outcome["rods"], reference["rods"]))
                    ratios.append(actual / bound)
        if verbose:
            print(f"  {family} {size} seed {seed}: {cpu:.3f} s, {mem:.0f} MB, {state}", file=sys.stderr, flush=True)
    why = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())) or "-"
    ratio = f"{max(ratios):.3g} ({len(ratios)})" if ratios else "-"
    print(f"| {size} | {family} | {met}/{seeds} | {why} | {statistics.median(times):.3g} | {max(times):.3g} | "
          f"{max(mems):.0f} | {ratio} |", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default="build/rodcollide")
    ap.add_argument("--sizes", type=int, nargs="+", default=[3, 10, 30, 100, 1000])
    ap.add_argument("--families", nargs="+", default=list(FAMILIES), choices=FAMILIES)
    ap.add_argument("--seeds", type=int, default=10, help="chains per size and family (default 10)")
    ap.add_argument("--large-seeds", type=int, default=3, help="chains for sizes >= 100 (default 3)")
    ap.add_argument("--time-limit", type=int, default=60, help="CPU seconds per run (default 60)")
    ap.add_argument("--keep", help="write the case files to this directory")
    ap.add_argument("--verbose", action="store_true", help="one line per chain")
    ap.add_argument("--accuracy", action="store_true", help="the accuracy table (issue 25) instead")
    ap.add_argument("extra", nargs="*", help="more arguments for `rodcollide run` (after --)")
    args = ap.parse_args()
    directory = args.keep or tempfile.mkdtemp(prefix="rodcollide_scaling_")
    os.makedirs(directory, exist_ok=True)
    if args.accuracy:
        print("| rods | family | meet the accuracy | say why not | median s | worst s | peak MB | "
              "max actual / reported error (chains merged) |")
        print("| ---: | --- | ---: | --- | ---: | ---: | ---: | ---: |")
        for size in args.sizes:
            for family in args.families:
                seeds = args.seeds if size < 100 else args.large_seeds
                accuracy_row(args.binary, directory, family, size, seeds, args.time_limit, args.extra, args.verbose)
        return
    print(f"| rods | family | settled | median s | worst s | median events | median closings | "
          f"median settled at [s] | peak MB | max velocity_error_bound | max momentum err | max energy err |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for size in args.sizes:
        for family in args.families:
            seeds = args.seeds if size < 100 else args.large_seeds
            times, events, closings, ends, mems, bounds, dp, de, settled = [], [], [], [], [], [], [], [], 0
            for seed in range(seeds):
                path = os.path.join(directory, f"{family}_{size}_{seed}.toml")
                with open(path, "w") as f:
                    f.write(case_text(family, size, seed))
                outcome, cpu, mem, message = run_one(args.binary, path, args.time_limit, args.extra)
                times.append(cpu)
                mems.append(mem)
                ok = outcome is not None and outcome["settled"]
                if ok:
                    settled += 1
                    events.append(outcome["stats"]["events"])
                    closings.append(sum(len(c["intervals"]) for c in outcome["contacts"]))
                    ends.append(outcome["end_time"])
                    bound = outcome.get("velocity_error_bound", float("nan"))
                    bounds.append(float("inf") if bound is None else bound)  # null: no bound
                    a, b = balance_errors(outcome)
                    dp.append(a)
                    de.append(b)
                if args.verbose:
                    state = "settled" if ok else message
                    ev = outcome["stats"]["events"] if outcome else "-"
                    print(f"  {family} {size} seed {seed}: {cpu:.3f} s, events {ev}, {state}",
                          file=sys.stderr, flush=True)
            fmt = lambda xs, f="{:.3g}": f.format(max(xs)) if xs else "-"
            med = lambda xs, f="{:.0f}": f.format(statistics.median(xs)) if xs else "-"
            print(f"| {size} | {family} | {settled}/{seeds} | {statistics.median(times):.3g} | "
                  f"{max(times):.3g} | {med(events)} | {med(closings)} | {med(ends, '{:.3g}')} | "
                  f"{max(mems):.0f} | {fmt(bounds)} | {fmt(dp)} | {fmt(de)} |", flush=True)


if __name__ == "__main__":
    main()
