#!/usr/bin/python3
"""Finite-difference error estimates on nearly commensurate chains (docs/finite_difference.md,
"Error estimate": a Courant defect all the grids share, a gap closing inside the first step of
every grid).

Seeded chains of 2-5 rods (c = 1, areas 0.5-2): the shortest rod L0 in [0.05, 0.5], each other rod
either a whole multiple 1-4 of L0 made longer by a fraction d(0.5-2) with d log-uniform in
[1e-8, 1e-4] (60 %), or of unrelated length; a striker at 2 m/s, the others at -1..1 m/s, a gap of
0-0.01 on a third of the contacts. Each chain is run by the exact solver and by finite differences
on each --cells (32, 128 and the default resolution by default); a row per run gives the error
of the final velocities against the exact run, the stated bound and their ratio, and the summary
counts the bounds stated, those that cover the error and the worst ratio.

  /usr/bin/python3 bench/study/fd_locked_grids.py --binary build/rodcollide --seeds 60
  --multiples 0: rods of unrelated lengths only; --commensurate: the multiples made exact (d = 0).
  --masses P: each body a rigid mass (kind = "mass") with probability P, of 0.1-10 times the mass
  of the rod it replaces; --compliant P: each contact a linear or Hertz spring with probability P
  (always between two masses), its time scale Z / k 1e-4 to 1e-1 of the shortest transit time.
  Both draw from a second generator, so that a seed's rods, velocities and gaps stay as without.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile


def chain(seed, multiples, commensurate, masses=0.0, compliant=0.0):
    rng = random.Random(seed)
    n = rng.randint(2, 5)
    shortest = rng.uniform(0.05, 0.5)
    d = 10 ** rng.uniform(-8, -4)
    if commensurate:
        d = 0  # after the draw, so that each seed keeps its other values
    lengths = []
    for i in range(n):
        if i == 0:
            lengths.append(shortest)
        elif rng.random() < multiples:
            lengths.append(shortest * rng.randint(1, 4) * (1 + d * rng.uniform(0.5, 2)))
        else:
            lengths.append(rng.uniform(0.05, 0.5))
    rng.shuffle(lengths)
    rods = []
    for i, length in enumerate(lengths):
        velocity = rng.uniform(-1, 1) if i else 2.0
        gap = rng.choice([0, 0, rng.uniform(0, 0.01)]) if i else 0
        rods.append((length, velocity, gap, rng.uniform(0.5, 2)))
    bodies = random.Random(1_000_003 * seed + 17)
    is_mass = [bodies.random() < masses for _ in rods]
    if all(is_mass):
        is_mass[0] = False  # a grid needs a rod
    text = "[defaults]\ndensity = 1.0\nyoungs_modulus = 1.0\n"
    for i, (length, velocity, gap, area) in enumerate(rods):
        if is_mass[i]:
            text += f'[[rod]]\nkind = "mass"\nmass = {length * area * 10 ** bodies.uniform(-1, 1)!r}\nvelocity = {velocity!r}\n'
        else:
            text += f"[[rod]]\nlength = {length!r}\nvelocity = {velocity!r}\narea = {area!r}\n"
        if gap:
            text += f"gap = {gap!r}\n"
        if i and (bodies.random() < compliant or (is_mass[i] and is_mass[i - 1])):
            # Z / k a fraction of the shortest transit time (c = 1: the shortest length).
            text += f"contact_stiffness = {area / (shortest * 10 ** bodies.uniform(-4, -1))!r}\n"
            if bodies.random() < 0.5:
                text += "contact_exponent = 1.5\n"
    return text, d


def run(binary, path, *args):
    p = subprocess.run([binary, "run", path, "--json", *args], capture_output=True, text=True)
    return json.loads(p.stdout) if p.returncode == 0 else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default="build/rodcollide")
    parser.add_argument("--seeds", type=int, default=60)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--cells", nargs="+", default=["32", "128", "default"])
    parser.add_argument("--multiples", type=float, default=0.6, help="share of rods made a near multiple of the shortest")
    parser.add_argument("--commensurate", action="store_true", help="the multiples exact (d = 0)")
    parser.add_argument("--masses", type=float, default=0.0, help="share of bodies that are rigid masses")
    parser.add_argument("--compliant", type=float, default=0.0, help="share of contacts that are springs")
    args = parser.parse_args()
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            text, d = chain(seed, args.multiples, args.commensurate, args.masses, args.compliant)
            path = os.path.join(tmp, f"chain_{seed}.toml")
            with open(path, "w") as f:
                f.write(text)
            exact = run(args.binary, path)
            if exact is None:
                print(f"seed {seed}: the exact run failed", file=sys.stderr)
                continue
            for cells in args.cells:
                extra = ["--method", "finite-difference"] + ([] if cells == "default" else ["--cells", cells])
                grid = run(args.binary, path, *extra)
                if grid is None:
                    print(f"seed {seed} cells {cells}: the finite-difference run failed")
                    continue
                error = max(abs(a["final_velocity"] - b["final_velocity"]) for a, b in zip(exact["rods"], grid["rods"]))
                bound = grid["velocity_error_bound"]
                ratio = error / bound if bound else None
                if ratio is not None:
                    ratios.append(ratio)
                print(f"seed {seed} (d {d:.1e}) cells {cells}: error {error:.3g} m/s, stated {bound}, "
                      f"{grid['accuracy_report']['status']}, error / stated {ratio if ratio is None else f'{ratio:.3g}'}",
                      flush=True)
    if ratios:
        print(f"{len(ratios)} bounds stated, {sum(r <= 1 for r in ratios)} cover the error, "
              f"{sum(r <= 2 for r in ratios)} within 2x, worst error / stated {max(ratios):.3g}")


if __name__ == "__main__":
    main()
