#!/usr/bin/env python3
"""The coefficient of restitution of two identical rods with rounded ends against
lambda = c tau_H / L (issue 24; docs/physics.md §9.8, "Rods with rounded ends").

Two rods of length L with Hertz caps on their facing ends, one at V on the other at rest, solved by
the finite-difference solver at an accuracy of 1e-5 V (the exact solver's delay network agrees
within that: cases/balls/rounded_rods.toml). The coefficient is e = (u2+ - u1+)/V, from the rods' rigid-body
velocities once no contact can happen again. tau_H is the duration of the Hertz impact of the two
rods taken as rigid bodies, 2.9432 delta_max / V with delta_max = (5 m* V^2 / (4 k))^(2/5), m* = m/2:
lambda is that contact time in transit times L/c.

lambda is the only dimensionless group (docs/physics.md §9.8): e(lambda) is the same for every
material, size and speed. lambda -> 0 is de Saint-Venant's flat-end exchange (e = 1), lambda -> oo
two rigid Hertz balls (e = 1); in between the waves keep energy in the rods.

    PYTHONPATH=build/python /usr/bin/python3 bench/study/restitution_vs_lambda.py \
        [--points N] [--lambda-range MIN MAX] [--out plots/restitution_vs_lambda.png] [--table FILE]
"""
import argparse
import math
import sys
import time
from dataclasses import dataclass

import numpy as np

import rodcollide as rc

ACCURACY = 1e-5  # of the velocity scale V
MAX_WORK = 10**9  # cell-steps per run: long rods (small lambda) need fine grids to resolve the contact


@dataclass(frozen=True)
class Rods:
    """Two identical rods and their caps (SI)."""
    density: float = 7850.0
    youngs_modulus: float = 210e9
    poisson_ratio: float = 0.3
    area: float = 7.854e-5  # 10 mm across
    end_radius: float = 0.05
    velocity: float = 1.0

    @property
    def wave_speed(self):
        return math.sqrt(self.youngs_modulus / self.density)

    @property
    def hertz_stiffness(self):
        """k = (4/3) E* sqrt(R*), 1/E* = 2 (1 - nu^2)/E, 1/R* = 2/R (docs/physics.md §9.8)."""
        e_star = self.youngs_modulus / (2 * (1 - self.poisson_ratio**2))
        return 4 / 3 * e_star * math.sqrt(self.end_radius / 2)

    def hertz_time(self, length):
        """Duration of the Hertz impact of the two rods taken as rigid bodies [s]."""
        reduced_mass = self.density * self.area * length / 2
        delta_max = (5 * reduced_mass * self.velocity**2 / (4 * self.hertz_stiffness)) ** 0.4
        return 2.9432 * delta_max / self.velocity

    def length_for(self, lam):
        """The length whose lambda = c tau_H / L is lam (lambda scales as L^(-3/5))."""
        return (self.wave_speed * self.hertz_time(1.0) / lam) ** (5 / 3)

    def restitution(self, length):
        """(e, bound on e, vibration share of the energy) at rod length `length`."""
        rod = dict(length=length, area=self.area, density=self.density, youngs_modulus=self.youngs_modulus,
                   poisson_ratio=self.poisson_ratio)
        case = rc.Case(title=f"rounded rods L = {length:g} m",
                       rods=[dict(rod, velocity=self.velocity, right_end_radius=self.end_radius),
                             dict(rod, left_end_radius=self.end_radius)])
        out = rc.run(case, method="finite-difference", accuracy=ACCURACY, max_work=MAX_WORK)
        if not out.settled or not out.stats["velocity_error_target_met"]:
            raise RuntimeError(f"L = {length:g} m: not settled, or the accuracy {ACCURACY} not met: {out.warnings}")
        u = out.final_velocities
        bound = 2 * out.to_dict()["velocity_error_bound"] / self.velocity
        vibration = float(np.sum(out.vibration_energies)) / out.energy["initial"]
        return (u[1] - u[0]) / self.velocity, bound, vibration


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--points", type=int, default=61, help="lambda values, log-spaced (default 61)")
    ap.add_argument("--lambda-range", type=float, nargs=2, default=(0.1, 30.0), metavar=("MIN", "MAX"))
    ap.add_argument("--out", default="plots/restitution_vs_lambda.png")
    ap.add_argument("--table", default=None, help="also write lambda, L, e, bound on e, vibration share")
    args = ap.parse_args()
    if not (2 <= args.points <= 1000) or not (0 < args.lambda_range[0] < args.lambda_range[1] <= 1000):
        ap.error("--points must be in [2, 1000] and 0 < MIN < MAX <= 1000")
    rods = Rods()
    rows = []
    for i, lam in enumerate(np.geomspace(*args.lambda_range, args.points)):
        length = rods.length_for(lam)
        t0 = time.perf_counter()
        e, bound, vib = rods.restitution(length)
        rows.append((lam, length, e, bound, vib))
        print(f"[{i + 1}/{args.points}] lambda = {lam:.4g}  L = {length:.4g} m  e = {e:.8f} ± {bound:.1e}  "
              f"vibration {vib:.3e}  ({time.perf_counter() - t0:.2f} s)", file=sys.stderr)
    rows = np.array(rows)
    if args.table:
        np.savetxt(args.table, rows, header="lambda L[m] e e_bound vibration_share", fmt="%.10g")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(6.4, 6.4), sharex=True)
    lam, e, bound = rows[:, 0], rows[:, 2], rows[:, 3]
    top.semilogx(lam, e, "o-", ms=3)
    top.axhline(1.0, color="0.6", lw=0.8)
    top.set_ylabel("e = (u2+ - u1+) / V")
    top.set_title("Two identical rods with rounded ends (Hertz contact)")
    loss = 1 - e
    shown = loss > 10 * bound  # only where the loss stands clear of the solver's error
    bottom.loglog(lam[shown], loss[shown], "o-", ms=3, label="finite differences, 1e-5 V")
    small = lam <= 0.5
    if np.count_nonzero(small & shown) >= 2:  # the long-rod law 1 - e ~ lambda^(5/3) (~ 1/L)
        x0, y0 = lam[small & shown][0], loss[small & shown][0]
        guide = lam[small]
        bottom.loglog(guide, y0 * (guide / x0) ** (5 / 3), "k--", lw=0.8, label="λ^(5/3)")
    bottom.set_xlabel("λ = c τ_H / L  (rigid Hertz contact time in transit times)")
    bottom.set_ylabel("1 - e")
    bottom.legend(loc="upper left", fontsize=8)
    bottom.annotate("flat ends\n(de Saint-Venant)", xy=(0.02, 0.05), xycoords="axes fraction")
    bottom.annotate("rigid balls\n(Hertz)", xy=(0.8, 0.05), xycoords="axes fraction")
    for ax in (top, bottom):
        ax.grid(True, which="both", lw=0.3)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
