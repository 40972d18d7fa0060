"""Benchmark (docs/scaling.md, "Chains of balls"; issue 24): a chain of n steel balls with Hertz
contacts struck by one, settled by rodcollide's exact solver (Boost.Odeint's Dormand-Prince 5(4)
with events, docs/physics.md §9.9) and by scipy's DOP853, side by side in one run; medians of
several runs and their ratio, and each one's error against rodcollide at 1e-10. DOP853 runs twice:
at the same tolerance, and at the largest tolerance (rtol 10^-k) whose error is no larger than
rodcollide's (down to 1e-13): the time ratio at equal accuracy.

    PYTHONPATH=build/python /usr/bin/python3 bench/ball_chain_dop853.py [--balls 10 1000]
        [--accuracy 1e-9] [--repetitions 5]

Needs the Python module (a default build) and python3-scipy (apt-get install python3-scipy).

The chain: balls of radius 10 mm, steel (m = 0.032882 kg, k = (4/3) E* sqrt(R*) = 1.0878e10
N/m^1.5, as cases/compliant/hertz_cradle_3.toml), touching, the first at 1 m/s. scipy integrates
the same equations (M x'' = the Hertz forces k max(δ, 0)^(3/2), vectorised with numpy) with
rtol = accuracy and atol = accuracy times the velocity and overlap scales, up to the time rodcollide
proved the chain settled (every contact open and separating); it has no events, so it does not
know when that is. The error is the largest difference of final velocities from rodcollide's run
at accuracy 1e-10, over the striker's speed.
"""
import argparse
import statistics
import sys
import time

import numpy as np

import rodcollide as rc

try:
    from scipy.integrate import solve_ivp
except ImportError:
    sys.exit("ball_chain_dop853.py needs scipy: apt-get install python3-scipy")

MASS = 0.032882
STIFFNESS = 1.0878e10
V = 1.0


def case(n):
    balls = [dict(kind="mass", mass=MASS, velocity=V)]
    balls += [dict(kind="mass", mass=MASS, velocity=0.0, contact_stiffness=STIFFNESS, contact_exponent=1.5)] * (n - 1)
    return rc.Case(rods=balls)


def dop853(n, t_end, accuracy):
    def rhs(_, y):
        x, v = y[:n], y[n:]
        overlap = np.maximum(x[:-1] - x[1:], 0.0)
        force = STIFFNESS * overlap ** 1.5
        a = np.zeros(n)
        a[:-1] -= force / MASS
        a[1:] += force / MASS
        return np.concatenate((v, a))

    y0 = np.zeros(2 * n)
    y0[n] = V
    # Overlap scale: Hertz's maximum compression of two such balls at V (15 m* V^2/(16 k))^(2/5).
    overlap_scale = (15 * (MASS / 2) * V * V / (16 * STIFFNESS)) ** 0.4
    atol = np.concatenate((np.full(n, accuracy * overlap_scale), np.full(n, accuracy * V)))
    sol = solve_ivp(rhs, (0.0, t_end), y0, method="DOP853", rtol=accuracy, atol=atol)
    if not sol.success:
        raise RuntimeError(sol.message)
    return sol.y[n:, -1], sol.nfev


def median_time(fn, repetitions):
    times, result = [], None
    for _ in range(repetitions):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--balls", type=int, nargs="+", default=[10, 1000])
    p.add_argument("--accuracy", type=float, default=1e-9)
    p.add_argument("--repetitions", type=int, default=5)
    a = p.parse_args()
    print(f"{'balls':>6} {'rodcollide':>12} {'error/V':>9} | {'DOP853 same tol':>15} {'error/V':>9} {'ratio':>6} |"
          f" {'DOP853 equal error':>18} {'rtol':>6} {'error/V':>9} {'ratio':>6}")
    for n in a.balls:
        c = case(n)
        reference = rc.run(c, method="characteristics", accuracy=1e-10)
        t_end = reference.end_time
        t_rc, out = median_time(lambda: rc.run(c, method="characteristics", accuracy=a.accuracy), a.repetitions)
        if not out.settled:
            sys.exit(f"{n} balls: rodcollide did not settle")
        err_rc = np.max(np.abs(out.final_velocities - reference.final_velocities)) / V

        def timed_dop853(rtol):
            t, (u, _) = median_time(lambda: dop853(n, t_end, rtol), a.repetitions)
            return t, np.max(np.abs(u - reference.final_velocities)) / V

        t_same, err_same = timed_dop853(a.accuracy)
        rtol, (t_eq, err_eq) = a.accuracy, (t_same, err_same)
        while err_eq > err_rc and rtol / 10 >= 1e-13:
            rtol /= 10
            t_eq, err_eq = timed_dop853(rtol)
        print(f"{n:>6} {t_rc * 1e3:>10.2f}ms {err_rc:>9.1e} | {t_same * 1e3:>13.2f}ms {err_same:>9.1e} {t_same / t_rc:>6.2f} |"
              f" {t_eq * 1e3:>16.2f}ms {rtol:>6.0e} {err_eq:>9.1e} {t_eq / t_rc:>6.2f}")


if __name__ == "__main__":
    main()
