#!/usr/bin/python3
"""Conservation at every horizon and settling after last-digit changes (docs/physics.md §5.4, §6.6).

Seeded chains of bench/scaling.py's three families are run with `rodcollide run --json`:
unchanged, and with the striker's velocity changed in its last digits (1 ulp, 1e-15 and 1e-9
relative); each to settling and to end_time horizons from 1 s to 1e12 s. Per horizon it prints
the largest momentum and energy balance errors (relative), and how many changed chains settled
where their unchanged chain did. A run that fails (exit != 0, or a CPU-time limit) is counted
and its stderr's last line shown.

  /usr/bin/python3 bench/study/long_horizons.py --binary build/rodcollide
  /usr/bin/python3 bench/study/long_horizons.py --sizes 10 40 --seeds 3 --horizons 1e4 1e12
"""
import argparse
import math
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import scaling  # noqa: E402  (the chain families and the runner)

CHANGES = {"unchanged": 0, "1 ulp": "ulp", "1e-15": 1e-15, "1e-9": 1e-9}


def case_text(family, size, seed, change, horizon):
    rods = scaling.chain(family, size, seed)
    v = rods[0]["velocity"]
    rods[0]["velocity"] = math.nextafter(v, math.inf) if change == "ulp" else v * (1 + change)
    lines = [f'title = "{family} {size} rods, seed {seed}, striker changed by {change}"']
    for rod in rods:
        lines.append("[[rod]]")
        lines += [f"{k} = {val!r}" for k, val in rod.items()]
    lines += ["[solver]", "rounding_check = false"]
    if horizon is not None:
        lines.append(f"end_time = {horizon!r}")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default="build/rodcollide")
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 20, 30, 40])
    ap.add_argument("--families", nargs="+", default=["equal-gaps", "mixed-gaps"], choices=scaling.FAMILIES)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--horizons", type=float, nargs="+", default=[1.0, 1e4, 1e8, 1e12])
    ap.add_argument("--time-limit", type=int, default=60, help="CPU seconds per run (default 60)")
    args = ap.parse_args()
    directory = tempfile.mkdtemp(prefix="rodcollide_horizons_")
    horizons = [None] + args.horizons
    rows = {h: {"runs": 0, "failed": 0, "dp": 0.0, "de": 0.0, "settled": 0} for h in horizons}
    consistent = {c: [0, 0] for c in CHANGES if c != "unchanged"}  # [settled like unchanged, unchanged settled]
    failures = []
    for size in args.sizes:
        for family in args.families:
            for seed in range(args.seeds):
                settled = {}
                for name, change in CHANGES.items():
                    for h in horizons:
                        path = os.path.join(directory, "case.toml")
                        with open(path, "w") as f:
                            f.write(case_text(family, size, seed, change, h))
                        o, cpu, _, last = scaling.run_one(args.binary, path, args.time_limit, [])
                        row = rows[h]
                        row["runs"] += 1
                        if o is None:
                            row["failed"] += 1
                            failures.append(f"{family} {size} seed {seed} {name} horizon {h}: {last}")
                            if h is None:
                                settled[name] = False
                            continue
                        dp, de = scaling.balance_errors(o)
                        row["dp"], row["de"] = max(row["dp"], dp), max(row["de"], de)
                        row["settled"] += o["settled"]
                        if h is None:
                            settled[name] = o["settled"]
                for name in consistent:
                    if settled.get("unchanged"):
                        consistent[name][1] += 1
                        consistent[name][0] += bool(settled.get(name))
                print(f"  {family} {size} seed {seed}: settled {settled}", file=sys.stderr, flush=True)
    print("| horizon [s] | runs | failed | settled | max momentum err | max energy err |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for h, r in rows.items():
        print(f"| {'settling' if h is None else f'{h:g}'} | {r['runs']} | {r['failed']} | {r['settled']} | "
              f"{r['dp']:.2g} | {r['de']:.2g} |")
    print()
    for name, (ok, total) in consistent.items():
        print(f"striker changed by {name}: settled in {ok} of the {total} chains whose unchanged chain settled")
    for line in failures:
        print("failed:", line)


if __name__ == "__main__":
    main()
