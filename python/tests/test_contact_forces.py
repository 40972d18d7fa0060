"""Outcome.contact_forces() (docs/python.md; issue 23): the force of every contact, wall and spring/dashpot end on
one grid that holds every closing and opening, the very samples `run --contact-forces` writes (one library
function computes both). Physics: a trapezoid over the samples is each contact's impulse (integral of -N dt),
a contact or wall only pushes (N <= 0), and a spring-backed wall's force is Z V (1 - exp(-k t / Z)) until 2L/c."""
import math

import numpy as np
import pytest

import rodcollide as rc
from conftest import CASES_DIR, PLAIN_CASE, run_cli

HERTZ_CRADLE = CASES_DIR / "compliant" / "hertz_cradle_3.toml"
SPRING_WALL = CASES_DIR / "compliant" / "rod_spring_backed_wall.toml"
PILE = CASES_DIR / "compliant" / "hammer_cushion_pile.toml"


def events(out):
    """Every closing and opening of the outcome's contacts and walls up to end_time."""
    times = [t for c in out.contacts for iv in c["intervals"] for t in iv]
    times += [t for e in out.ends for iv in e.get("intervals", []) for t in iv]
    return [t for t in times if t <= out.end_time]


def test_hertz_cradle_impulses_are_the_trapezoids_of_the_samples():
    """Three masses through Hertz contacts (the exact solver's ODE system): each contact's pulse starts and ends
    on the grid (its closing and opening are sample times), so the trapezoid over the samples is its impulse to
    within the lag of the held history: the ODE path records N - (events) equally spaced points, the table reads
    them at N, so a sample may hold the force of up to one spacing h earlier, an error below max|N| h that halves
    with h (measured 1.1e-4 of the impulse at N = 4000, 0.44 / N)."""
    out = rc.run(HERTZ_CRADLE, samples=4000)
    f = out.contact_forces()
    assert list(f) == ["time", "contact_0", "contact_1"]
    t = f["time"]
    assert isinstance(t, np.ndarray) and t.dtype == np.float64
    assert t[0] == 0 and t[-1] == out.end_time and np.all(np.diff(t) > 0)
    assert set(events(out)) <= set(t.tolist())
    assert len(t) <= 4000 + len(events(out))
    h = out.end_time / 3999
    for k, impulse in enumerate(out.impulses):
        force = f[f"contact_{k}"]
        assert np.all(force <= 0), "a contact never pulls: N <= 0 (positive in tension)"
        assert force.min() < 0
        (interval,) = out.contacts[k]["intervals"]
        assert np.all(force[(t < interval[0]) | (t >= interval[1])] == 0)  # open: no force
        assert abs(-np.trapz(force, t) - impulse) <= -force.min() * h
        assert -np.trapz(force, t) == pytest.approx(impulse, rel=2e-4)
    # Runs recording coarser histories: the error halves with the spacing (first order: the hold's lag).
    errors = [abs(-np.trapz(g["contact_0"], g["time"]) - out.impulses[0])
              for g in (rc.run(HERTZ_CRADLE, samples=n).contact_forces() for n in (500, 1000, 2000))]
    assert errors[2] < errors[1] < errors[0]
    assert 3 < errors[0] / errors[2] < 5


def test_spring_backed_wall_force_is_the_closed_form_and_its_impulse_the_ends():
    """A rod (Z = L = c = V = 1) on a wall through a spring k = 5, finite differences: F = Z V (1 - exp(-k t / Z))
    until 2L/c, and the wall's pulse integrates to the momentum the wall gave the rod (2 m V less what
    vibration keeps: the end impulse)."""
    out = rc.run(SPRING_WALL, samples=20000)
    f = out.contact_forces()
    assert list(f) == ["time", "right_wall"]
    t, wall = f["time"], f["right_wall"]
    assert np.all(wall <= 0)
    early = (t > 0.05) & (t < 1.9)
    # The grid holds each step's mean force (dt = 1e-3) over the step: off the closed form by at most
    # |F'| dt = k Z V e^(-k t / Z) dt <= 5e-3 (measured 1.9e-3).
    closed = 1 - np.exp(-5 * t[early])
    assert np.max(np.abs(-wall[early] - closed)) <= 5e-3 * np.exp(-5 * 0.05)
    (end,) = [e for e in out.ends if e["side"] == "right"]
    assert end["kind"] == "wall"
    # The history holds the grid's step corners exactly (2 per step fit in 20000); read at the samples, each
    # step's edge is off by at most a spacing, so the trapezoid is within (total variation) x spacing of
    # the impulse: 2 Z V x spacing (the force rises to Z V and falls back).
    spacing = out.end_time / 19999
    assert abs(-np.trapz(wall, t) + end["impulse"]) <= 2 * spacing
    # and that impulse is the rod's change of momentum (M = 1, V = 1).
    assert out.final_velocities[0] == pytest.approx(1 + end["impulse"], abs=1e-10)


def test_the_samples_are_those_run_contact_forces_writes(tmp_path):
    """Same times, same columns, same numbers (the CSV has 17 significant digits: exact round trip)."""
    for path, samples in ((HERTZ_CRADLE, 300), (PILE, 200)):
        csv = tmp_path / "forces.csv"
        status, _, err = run_cli("run", path, "--samples", samples, "--contact-forces", csv)
        assert status == 0, err
        header = csv.read_text().splitlines()[0].split(",")
        table = np.loadtxt(csv, delimiter=",", skiprows=1, ndmin=2)
        f = rc.run(path, samples=samples).contact_forces()
        assert list(f) == header
        for k, name in enumerate(header):
            assert np.array_equal(f[name], table[:, k]), name


def test_a_spring_dashpot_end_pulls_and_pushes():
    f = rc.run(PILE, samples=400).contact_forces()
    assert list(f) == ["time", "contact_0", "right_end"]
    assert np.all(f["contact_0"] <= 0)
    assert f["right_end"].max() > 0 and f["right_end"].min() < 0


def test_the_grid_keyword_is_validated():
    out = rc.run(HERTZ_CRADLE, samples=50)
    assert len(out.contact_forces()["time"]) >= 50
    assert len(out.contact_forces(samples=2)["time"]) >= 2
    for bad in (1, 0, -3, 51, 10**12):
        with pytest.raises(ValueError, match=r"^samples: must be in \[2, 50\] .*got " + str(bad) + "$"):
            out.contact_forces(samples=bad)
    for bad in (2.5, "100", math.nan):
        with pytest.raises(TypeError):
            out.contact_forces(samples=bad)
    # A chain with free, unloaded ends records no histories unless asked to.
    with pytest.raises(ValueError, match=r"recorded no force histories.*run\(case, samples=N\)"):
        rc.run(PLAIN_CASE).contact_forces()
    assert list(rc.run(PLAIN_CASE, samples=20).contact_forces())[0] == "time"
