"""Ends, loads, segments and gauges from Python (docs/python.md, docs/case_file.md; physics: docs/physics.md §8):
cases built from dicts equal their case files, and the outcomes and gauge signals of the exact solver meet the
closed forms of 1D elastic waves — a force pulse into a free bar (v = -N/Z, final velocity = impulse / mass, input
energy N^2 T / Z), a rod on a rigid wall or a fixed end (compressed for 2L/c, rebound at -v), a section change
(transmission 2 Z1/(Z1 + Z2), reflection (Z1 - Z2)/(Z1 + Z2)) and the split Hopkinson bar's incident pulse
(N = -Z V/2 for 2 L_striker / c)."""
import math
import tomllib

import numpy as np
import pytest

import rodcollide as rc
from conftest import SOURCE_DIR, cli_json

SHPB = SOURCE_DIR / "cases" / "ends" / "split_hopkinson_bar.toml"
STEEL = dict(density=7850.0, youngs_modulus=210e9)
C_STEEL = math.sqrt(210e9 / 7850.0)  # wave speed [m/s]
EXACT = 1e-12  # the characteristics solver is exact to rounding


def impedance(area, density=7850.0, youngs_modulus=210e9):
    return area * math.sqrt(youngs_modulus * density)  # Z = rho A c [N s/m]


def during(signal, start, end, margin=1e-9):
    """Samples strictly inside (start, end), away from the fronts at its ends."""
    return (signal.time > start + margin) & (signal.time < end - margin)


def test_split_hopkinson_bar_from_dicts_equals_the_file():
    """The SHPB of cases/ends/ written as dicts, with the case file's key names."""
    bar = dict(STEEL, area=3.1416e-4)
    case = rc.Case(title="split Hopkinson pressure bar, elastic specimen",
                   rods=[dict(bar, length=0.3, velocity=10.0),                                  # striker
                         dict(bar, length=1.5),                                                 # incident bar
                         dict(length=0.01, area=7.854e-5, density=2700.0, youngs_modulus=70e9),  # specimen
                         dict(bar, length=1.0)],                                                # transmitted bar
                   right=dict(kind="anechoic"),
                   gauge=[dict(rod=1, x=0.75, name="incident"), dict(rod=3, x=0.5, name="transmitted")],
                   solver=dict(end_time=6e-4))
    file = rc.load_case(SHPB)
    assert (case.rods, case.ends, case.gauges, case.segments, case.loads) == \
        (file.rods, file.ends, file.gauges, file.segments, file.loads)
    assert case.ends == {"left": {"kind": "free"}, "right": {"kind": "anechoic"}}
    out = rc.run(case)
    assert out.to_dict() == cli_json("run", SHPB)
    assert rc.run(case, samples=300).to_dict() == cli_json("run", SHPB, "--samples", "300")

    # The incident pulse (Kolsky): the striker's half velocity, N = -Z V / 2, for 2 L_striker / c, reaching the
    # incident gauge at x / c. Nothing has come back from the specimen before (1.5 + 0.75) / c.
    incident = out.gauges[0]
    z, v = impedance(3.1416e-4), 10.0
    arrival, duration = 0.75 / C_STEEL, 2 * 0.3 / C_STEEL
    pulse = during(incident, arrival, arrival + duration)
    assert pulse.sum() > 100
    assert np.allclose(incident.force[pulse], -z * v / 2, rtol=EXACT, atol=0)
    assert np.allclose(incident.velocity[pulse], v / 2, rtol=EXACT, atol=0)
    assert np.allclose(incident.strain[pulse], -v / 2 / C_STEEL, rtol=EXACT, atol=0)
    quiet = (incident.time < arrival - 1e-9) | during(incident, arrival + duration, 2.25 / C_STEEL)
    assert np.all(incident.velocity[quiet] == 0) and np.all(incident.force[quiet] == 0)
    # Energy leaves through the anechoic end only: initial = rigid + vibration + radiated.
    e = out.energy
    assert e["input"] == 0 and e["radiated"] > 0.8 * e["initial"]
    assert e["initial"] == pytest.approx(e["final_rigid"] + e["final_vibration"] + e["dropped"] + e["radiated"],
                                         rel=EXACT)


@pytest.mark.parametrize("given", ["points", "shape", "file"])
def test_rectangular_force_pulse_into_a_free_bar(given, tmp_path):
    """A compressive force F on [0, T] at the free left end of a steel bar: a gauge reads v = -F/Z and N = F while
    the pulse passes; the bar leaves at impulse / mass = -F T / m with input energy F^2 T / Z (docs/physics.md §8)."""
    force, duration, area, length, x = -2e4, 5e-5, 3.1416e-4, 1.0, 0.5
    load = {"points": dict(time=[0, duration], value=[force, force]),
            "shape": dict(shape="rectangle", amplitude=force, duration=duration),
            "file": dict(file=str(tmp_path / "pulse.csv"))}[given]
    (tmp_path / "pulse.csv").write_text(f"time,value\n0,{force!r}\n{duration!r},{force!r}\n")
    case = rc.Case(rods=[dict(STEEL, area=area, length=length)],
                   load=[dict(end="left", quantity="force", **load)],
                   gauge=[dict(rod=0, x=x, name="mid")])
    assert [(l["end"], l["quantity"], l["time"].tolist(), l["value"].tolist()) for l in case.loads] == \
        [("left", "force", [0, duration], [force, force])]
    out = rc.run(case, samples=2000)
    z, mass = impedance(area), 7850.0 * area * length
    gauge = out.gauges[0]
    assert (gauge.name, gauge.rod, gauge.x) == ("mid", 0, x)
    pulse = during(gauge, x / C_STEEL, x / C_STEEL + duration)
    assert pulse.sum() > 100
    assert np.allclose(gauge.velocity[pulse], -force / z, rtol=EXACT, atol=0)
    assert np.allclose(gauge.force[pulse], force, rtol=EXACT, atol=0)
    before = gauge.time < x / C_STEEL - 1e-9
    assert before.sum() > 100 and np.all(gauge.velocity[before] == 0) and np.all(gauge.force[before] == 0)
    assert out.final_velocities[0] == pytest.approx(-force * duration / mass, rel=EXACT)
    left, right = out.ends
    assert (left["side"], left["loaded"], left["load_step_error"]) == ("left", True, 0)
    assert left["impulse"] == pytest.approx(-force * duration, rel=EXACT)
    assert right == {"side": "right", "kind": "free", "loaded": False, "impulse": 0, "work": 0}
    assert out.energy["input"] == pytest.approx(force ** 2 * duration / z, rel=EXACT)
    assert out.settled


def test_rod_on_a_wall_rebounds_after_2L_over_c():
    """A rod moving at -v toward a rigid wall at gap g: compressed on [g/v, g/v + 2L/c] with N = -Z v at the wall,
    then it leaves at +v with nothing left vibrating (docs/physics.md §8; Saint-Venant)."""
    length, area, v, gap = 0.5, 2e-4, 3.0, 1e-3
    case = rc.Case(rods=[dict(STEEL, length=length, area=area, velocity=-v)], left=dict(kind="wall", gap=gap))
    assert case.ends["left"] == {"kind": "wall", "gap": gap}
    out = rc.run(case)
    touch, transit = gap / v, length / C_STEEL
    wall = out.ends[0]
    assert wall["kind"] == "wall" and len(wall["intervals"]) == 1
    assert wall["intervals"][0] == pytest.approx([touch, touch + 2 * transit], rel=EXACT)
    assert out.final_velocities[0] == pytest.approx(v, rel=EXACT)
    assert out.vibration_energies[0] == pytest.approx(0, abs=EXACT * out.energy["initial"])
    assert out.settled
    # The wall's force history (recorded because the case has an end that is not free): -Z v while in contact.
    history = out.end_force_history[0]
    assert out.end_force_history[1] is None and all(h is None for h in out.force_history)
    inside = (history.time > touch * (1 + 1e-9)) & (history.time < (touch + 2 * transit) * (1 - 1e-9))
    assert np.allclose(history.force[inside], -impedance(area) * v, rtol=EXACT, atol=0)
    assert np.all(history.force[history.time < touch * (1 - 1e-9)] == 0)
    impulse = np.sum(np.diff(history.time) * history.force[:-1])  # the history is piecewise constant: exact
    assert -impulse == pytest.approx(2 * 7850.0 * area * length * v, rel=EXACT)


def test_rod_on_a_fixed_end_is_reversed_after_2L_over_c():
    """A rod moving at -v, its left end held (v = 0): a gauge at the held end reads N = -Z v for 2L/c; at
    t = 2L/c the relief wave has come back and the rod moves at +v, the end having given it 2 m v."""
    length, area, v = 0.5, 2e-4, 3.0
    transit = length / C_STEEL
    case = rc.Case(rods=[dict(STEEL, length=length, area=area, velocity=-v)], left=dict(kind="fixed"),
                   gauge=[dict(rod=0, x=0.0, name="held end")])
    out = rc.run(case, end_time=2 * transit)
    assert out.final_velocities[0] == pytest.approx(v, rel=EXACT)
    assert out.ends[0]["kind"] == "fixed"
    assert out.ends[0]["impulse"] == pytest.approx(2 * 7850.0 * area * length * v, rel=EXACT)
    gauge = out.gauges[0]
    assert gauge.time[-1] == pytest.approx(2 * transit, rel=EXACT)
    inside = during(gauge, 0, 2 * transit, margin=1e-12)
    assert np.all(gauge.velocity == 0)
    assert np.allclose(gauge.force[inside], -impedance(area) * v, rtol=EXACT, atol=0)


STEPPED_TOML = """
title = "stepped bar"
[defaults]
density = 7850.0
youngs_modulus = 210e9
[[rod]]
[[rod.segment]]
length = 0.4
area = 2e-4
[[rod.segment]]
length = 0.6
area = 5e-5
[[load]]
end = "left"
quantity = "force"
shape = "rectangle"
amplitude = -1e4
duration = 2e-5
[[gauge]]
rod = 0
x = 0.2
name = "before"
[[gauge]]
rod = 0
x = 0.6
name = "after"
"""


def test_stepped_bar_from_segments():
    """A bar made of two welded segments, from dicts, equals the case file that says the same; its gauges give the
    section change's closed forms: a velocity pulse v_i meets Z2 from Z1 and is transmitted as 2 Z1/(Z1 + Z2) v_i
    and reflected as (Z1 - Z2)/(Z1 + Z2) v_i (force N = -Z v for a right-going wave, +Z v for a left-going one)."""
    case = rc.Case(title="stepped bar", defaults=STEEL,
                   rods=[dict(segment=[dict(length=0.4, area=2e-4), dict(length=0.6, area=5e-5)])],
                   load=[dict(end="left", quantity="force", shape="rectangle", amplitude=-1e4, duration=2e-5)],
                   gauge=[dict(rod=0, x=0.2, name="before"), dict(rod=0, x=0.6, name="after")])
    file = rc.parse_case(STEPPED_TOML)
    assert case.segments == file.segments == [[dict(STEEL, length=0.4, area=2e-4), dict(STEEL, length=0.6, area=5e-5)]]
    assert case.rods == file.rods
    assert case.rods[0]["length"] == pytest.approx(1.0, rel=EXACT)
    assert rc.run(case).to_dict() == rc.run(file).to_dict()
    assert tomllib.loads(STEPPED_TOML)["rod"][0]["segment"] == [dict(length=0.4, area=2e-4), dict(length=0.6, area=5e-5)]

    out = rc.run(case, samples=4000)
    z1, z2 = impedance(2e-4), impedance(5e-5)
    v_i = 1e4 / z1
    before, after = out.gauges
    t = 2e-5
    incident = during(before, 0.2 / C_STEEL, 0.2 / C_STEEL + t)
    reflected = during(before, 0.6 / C_STEEL, 0.6 / C_STEEL + t)
    transmitted = during(after, 0.6 / C_STEEL, 0.6 / C_STEEL + t)
    assert min(incident.sum(), reflected.sum(), transmitted.sum()) > 50
    assert np.allclose(before.velocity[incident], v_i, rtol=EXACT, atol=0)
    assert np.allclose(before.velocity[reflected], (z1 - z2) / (z1 + z2) * v_i, rtol=EXACT, atol=0)
    assert np.allclose(before.force[reflected], z1 * (z1 - z2) / (z1 + z2) * v_i, rtol=EXACT, atol=0)
    assert np.allclose(after.velocity[transmitted], 2 * z1 / (z1 + z2) * v_i, rtol=EXACT, atol=0)
    assert np.allclose(after.force[transmitted], -z2 * 2 * z1 / (z1 + z2) * v_i, rtol=EXACT, atol=0)
    # Strain is N / (E A) in each segment.
    assert np.allclose(after.strain[transmitted], after.force[transmitted] / (210e9 * 5e-5), rtol=EXACT, atol=0)
