"""rc.run() against `rodcollide run --json` on every file in cases/, cases/ends/ included (docs/python.md): the
same document, key for key and value for value, for both solvers (finite differences on chains with free ends),
with keyword solver options and samples= as the CLI's flags; the numpy views (gauges, force histories) are the
JSON's values; and the physics the outcome must satisfy (Winandy & Leine 2015 §4.2, M(u+ - u-) = W Lambda plus
the ends' impulses, energy initial + input = rigid + vibration + dropped + radiated)."""
import numpy as np
import pytest

import rodcollide as rc
from conftest import CASE_FILES, FREE_CASE_FILES, case_id, cli_json, CASES_DIR, PLAIN_CASE


@pytest.mark.parametrize("path", CASE_FILES, ids=case_id)
def test_run_equals_cli_json(path):
    out = rc.run(rc.load_case(path))
    assert out.to_dict() == cli_json("run", path)


@pytest.mark.parametrize("path", CASE_FILES, ids=case_id)
def test_samples_equal_cli_flag(path):
    """samples=N is --samples N: force histories on every contact (and wall), N points per gauge."""
    out = rc.run(path, samples=7)
    d = out.to_dict()
    assert d == cli_json("run", path, "--samples", "7")
    assert all(len(c["force_history"]["time"]) <= 7 for c in d["contacts"] if "force_history" in c)
    assert all(len(g["time"]) == 7 for g in d.get("gauges", []))


@pytest.mark.parametrize("path", FREE_CASE_FILES, ids=case_id)
def test_finite_differences_equal_cli_json(path):
    out = rc.run(rc.load_case(path), method="finite-difference", cells=200)
    assert out.method == "finite-difference"
    assert out.to_dict() == cli_json("run", path, "--method", "finite-difference", "--cells", "200")


@pytest.mark.parametrize("path", CASE_FILES, ids=case_id)
def test_attributes_are_the_json_values(path):
    out = rc.run(path)  # a path is loaded as a case file
    d = out.to_dict()
    assert isinstance(out.final_velocities, np.ndarray) and out.final_velocities.dtype == np.float64
    assert out.final_velocities.tolist() == [r["final_velocity"] for r in d["rods"]]
    assert out.initial_velocities.tolist() == [r["initial_velocity"] for r in d["rods"]]
    assert out.masses.tolist() == [r["mass"] for r in d["rods"]]
    assert out.vibration_energies.tolist() == [r["vibration_energy"] for r in d["rods"]]
    assert out.impulses.tolist() == [c["impulse"] for c in d["contacts"]]
    assert out.contacts == d["contacts"]
    assert out.energy == d["energy"]
    assert out.stats == d["stats"]
    assert (out.settled, out.end_time, out.last_contact_time) == (d["settled"], d["end_time"], d["last_contact_time"])
    assert out.impact_equation_residual == d["impact_equation_residual"]
    assert (out.title, out.method, out.warnings) == (d["title"], d["method"], d["warnings"])
    assert out.ends == d.get("ends", [])
    assert [g.name for g in out.gauges] == [g["name"] for g in d.get("gauges", [])]
    for g, j in zip(out.gauges, d.get("gauges", [])):
        assert (g.rod, g.x) == (j["rod"], j["x"])
        for key in ("time", "velocity", "force", "strain"):
            assert getattr(g, key).tolist() == j[key]
    for h, j in zip(out.force_history + out.end_force_history, d["contacts"] + d.get("ends", [])):
        if h is None:
            assert "force_history" not in j
        else:
            assert (h.time.tolist(), h.force.tolist()) == (j["force_history"]["time"], j["force_history"]["force"])


def test_views_are_read_only_and_outlive_their_outcome():
    out = rc.run(CASES_DIR / "ends" / "split_hopkinson_bar.toml", samples=50)
    force, history = out.gauges[0].force, out.force_history[0].force
    expected = out.to_dict()["gauges"][0]["force"]
    del out
    assert force.tolist() == expected and len(history) > 0
    with pytest.raises(ValueError):
        force[0] = 1.0


@pytest.mark.parametrize("path", CASE_FILES, ids=case_id)
def test_impact_equation_and_energy_hold(path):
    """M(u+ - u-) = W Lambda + the ends' impulses (contact k pushes rod k left and rod k+1 right; the
    left end acts on the first rod, the right end on the last) and the energy balance
    initial + input = rigid + vibration + dropped + radiated + contact + dissipated (the last two
    for chains with compliant parts), for the solver each case names."""
    out = rc.run(rc.load_case(path))
    m, u0, u1, lam = out.masses, out.initial_velocities, out.final_velocities, out.impulses
    w_lambda = np.zeros_like(m)
    w_lambda[:-1] -= lam
    w_lambda[1:] += lam
    for end in out.ends:
        w_lambda[0 if end["side"] == "left" else -1] += end["impulse"]
    scale = np.sum(m * np.abs(u0)) + sum(abs(end["impulse"]) for end in out.ends)
    assert np.max(np.abs(m * (u1 - u0) - w_lambda)) <= 1e-12 * scale
    e = out.energy
    supplied = e["initial"] + e.get("input", 0)
    assert supplied == pytest.approx(e["final_rigid"] + e["final_vibration"] + e["dropped"] + e.get("radiated", 0)
                                     + e.get("contact", 0) + e.get("dissipated", 0), rel=1e-12)
    # compliant parts: cases/compliant/, and cases/balls/ (Hertz contacts)
    assert ("contact" in e) == ("dissipated" in e) == (path.parent.name in ("compliant", "balls"))
    assert ("radiated" in e) == ("input" in e) == bool(out.ends)
    assert np.all(lam >= 0)


def test_three_rods_of_winandy_and_leine():
    """Winandy & Leine 2015 §4.2, eq. (36) with the erratum: u- = (2, 0, -1) -> u+ = (-1, 0, 2), impulses (3, 3),
    both contacts compressed on [0, 3], nothing left vibrating."""
    case = rc.Case(rods=[dict(length=1, area=1, density=1, youngs_modulus=1, velocity=2),
                         dict(length=1, area=1, density=1, youngs_modulus=1),
                         dict(length=1, area=1, density=1, youngs_modulus=1, velocity=-1)])
    out = rc.run(case, method="characteristics")
    assert out.final_velocities.tolist() == [-1, 0, 2]
    assert out.impulses.tolist() == [3, 3]
    assert [c["intervals"] for c in out.contacts] == [[[0, 3]], [[0, 3]]]
    assert out.energy == {"initial": 2.5, "final_rigid": 2.5, "final_vibration": 0, "dropped": 0}
    assert out.settled


def test_keyword_options_equal_cli_flags():
    path = PLAIN_CASE
    case = rc.load_case(path)
    assert rc.run(case, end_time=1.5).to_dict() == cli_json("run", path, "--end-time", "1.5")
    assert rc.run(case, drop_tolerance=1e-9, max_events=1000).to_dict() == \
        cli_json("run", path, "--drop-tolerance", "1e-9", "--max-events", "1000")


def test_keyword_options_leave_the_case_alone():
    case = rc.load_case(PLAIN_CASE)
    before = case.solver
    horizon = rc.run(case, end_time=0.5)
    assert horizon.end_time == 0.5 and not horizon.settled
    assert case.solver == before
    assert rc.run(case).to_dict() == rc.run(case, end_time=None).to_dict()  # None: not given
