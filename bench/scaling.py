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

With --end-time T it prints instead the table of runs to a horizon (issue 25 item 6, docs/scaling.md
"Runs to a horizon"): every chain is run with `--end-time` set to T times the chain's longest
rod transit time (--end-time-unit rod, the default: the same physical span of the rods' own
ringing at every size, so the rows compare the cost of following a chain for a fixed number of
its rods' vibrations as the chain grows; every family's longest rod is 0.5 m, about 97 us in
steel), T transits of the whole chain (--end-time-unit chain: the sum of the rods' transit times,
which grows with the size) or T seconds (--end-time-unit s). Per size and family: the share that
finished (a JSON outcome within the CPU-time limit and the solver's caps), median and worst CPU
time, peak memory, median events, the accuracy_report status split with the largest accuracy
reached (relative to V) and the largest momentum and energy balance errors (relative) among the
chains that finished. Chains are written compactly (shared values in [defaults], an inline array
of rods) so that 10,000 rods fit the case file's 1 MiB; they are the same chains, value for value:
  /usr/bin/python3 bench/scaling.py --end-time 50 --sizes 100 1000 10000 --seeds 3 --large-seeds 3 --time-limit 60
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


def toml_float(v):
    """The shortest text TOML reads back as exactly v (repr, or its exponent form if shorter)."""
    text = repr(float(v))
    for digits in range(17):
        short = f"{v:.{digits}e}"
        if float(short) == v:
            return short if len(short) < len(text) else text
    return text


def compact_case_text(family, size, seed):
    """The chain of case_text(), value for value, in fewer bytes: the values most rods share in
    [defaults], zero gaps and velocities left out, the rods as one inline array."""
    rods = chain(family, size, seed)
    shared = {}
    for key in ("area", "density", "youngs_modulus"):
        values = [r[key] for r in rods]
        shared[key] = max(set(values), key=values.count)
    lines = [f'title = "scaling {family} {size} rods, seed {seed}"', "rod = ["]
    for rod in rods:
        keys = [f"{k}={toml_float(v)}" for k, v in rod.items()
                if not (k in shared and v == shared[k]) and not (k in ("gap", "velocity") and v == 0.0)]
        lines.append("{" + ",".join(keys) + "},")
    lines += ["]", "[defaults]"] + [f"{k} = {toml_float(v)}" for k, v in shared.items()]
    return "\n".join(lines) + "\n"


def transit_times(family, size, seed):
    """(longest rod transit time, sum of the rods' transit times) of a chain, in seconds."""
    times = [r["length"] / math.sqrt(r["youngs_modulus"] / r["density"]) for r in chain(family, size, seed)]
    return max(times), sum(times)


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


def horizon_row(binary, directory, family, size, seeds, time_limit, horizon, unit, extra, verbose):
    """One row of the --end-time table (runs to a horizon)."""
    finished, times, mems, events, statuses, reached, dp, de, spans = 0, [], [], [], {}, [], [], [], []
    for seed in range(seeds):
        path = os.path.join(directory, f"{family}_{size}_{seed}_horizon.toml")
        with open(path, "w") as f:
            f.write(compact_case_text(family, size, seed))
        longest, whole = transit_times(family, size, seed)
        end_time = horizon * {"rod": longest, "chain": whole, "s": 1.0}[unit]
        spans.append(end_time)
        outcome, cpu, mem, message = run_one(binary, path, time_limit, ["--end-time", repr(end_time)] + extra)
        times.append(cpu)
        mems.append(mem)
        if outcome is None:
            statuses["limit"] = statuses.get("limit", 0) + 1
            state = message
        else:
            finished += 1
            report = outcome["accuracy_report"]
            statuses[report["status"]] = statuses.get(report["status"], 0) + 1
            reached.append(report["reached"] if report["reached"] is not None else float("nan"))
            events.append(outcome["stats"]["events"] + outcome["stats"].get("estimate_events", 0))
            a, b = balance_errors(outcome)
            dp.append(a)
            de.append(b)
            state = (f"t = {outcome['end_time']:.4g} s, settled {outcome['settled']}, events {events[-1]}, "
                     f"peak stored fronts {outcome['stats']['peak_stored_fronts']}, {report['status']}: {report['statement']}")
        if verbose:
            print(f"  {family} {size} seed {seed}: {cpu:.3f} s, {mem:.0f} MB, {state}", file=sys.stderr, flush=True)
    split = ", ".join(f"{k} {v}" for k, v in sorted(statuses.items()))
    fmt = lambda xs: f"{max(xs):.2g}" if xs else "-"
    med = lambda xs: f"{statistics.median(xs):.3g}" if xs else "-"
    print(f"| {size} | {family} | {med(spans)} | {finished}/{seeds} | {statistics.median(times):.3g} | {max(times):.3g} | "
          f"{max(mems):.0f} | {med(events)} | {split} | {fmt(reached)} | {fmt(dp)} | {fmt(de)} |", flush=True)


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
    ap.add_argument("--end-time", type=float, metavar="T",
                    help="the table of runs to a horizon instead: run each chain to T --end-time-unit")
    ap.add_argument("--end-time-unit", choices=("rod", "chain", "s"), default="rod",
                    help="rod: the chain's longest rod transit time (default); chain: the sum of its rods' "
                         "transit times; s: seconds")
    ap.add_argument("extra", nargs="*", help="more arguments for `rodcollide run` (after --)")
    args = ap.parse_args()
    directory = args.keep or tempfile.mkdtemp(prefix="rodcollide_scaling_")
    os.makedirs(directory, exist_ok=True)
    if args.end_time is not None:
        if not (math.isfinite(args.end_time) and args.end_time > 0):
            ap.error(f"--end-time: {args.end_time}: must be finite and > 0")
        print(f"| rods | family | median end_time [s] | finished | median s | worst s | peak MB | median events | "
              f"accuracy_report status | max reached [V] | max momentum err | max energy err |")
        print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |")
        for size in args.sizes:
            for family in args.families:
                seeds = args.seeds if size < 100 else args.large_seeds
                horizon_row(args.binary, directory, family, size, seeds, args.time_limit, args.end_time,
                            args.end_time_unit, args.extra, args.verbose)
        return
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
