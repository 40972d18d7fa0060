"""rc.field(): the exact wave field at points (docs/python.md) — the paper's region states (Winandy & Leine 2015
eqs 33 and 35), the CLI's field CSV at the same points, broadcasting, and N = E A u_x."""
import numpy as np
import pytest

import rodcollide as rc
from conftest import SOURCE_DIR, run_cli

CASES = SOURCE_DIR / "cases"


def test_regions_of_winandy_and_leine():
    two = rc.field(CASES / "seed000_two_rods.toml", x=0.5, t=1)
    assert two.strain == -0.5  # eq. (33), region 3: u_x = -v/(2c)
    three = rc.field(CASES / "seed000_three_rods.toml", x=1.5, t=1.5)
    assert three.strain == -1.5  # eq. (35), region 6: u_x = -3v/(2c)
    assert three.rod == 1


def test_force_is_e_a_strain():
    case = rc.load_case(CASES / "saint_venant_short_striker.toml")
    x = np.linspace(0, case.total_length, 41)
    f = rc.field(case, x=x[None, :], t=np.linspace(0, 2e-4, 30)[:, None])
    assert f.velocity.shape == f.force.shape == f.strain.shape == f.rod.shape == (30, 41)
    ea = np.array([r["youngs_modulus"] * r["area"] for r in case.rods])[f.rod]
    assert np.allclose(f.force, ea * f.strain, rtol=1e-12, atol=0)
    # While the contact is closed, 0 < t < 2 L1/c, equal impedances carry u_x = -V/(2c) across it
    # (de Saint-Venant; docs/physics.md §2).
    striker = case.rods[0]
    c = np.sqrt(striker["youngs_modulus"] / striker["density"])
    t = np.linspace(0.05, 0.95, 10) * 2 * striker["length"] / c
    at_contact = rc.field(case, x=striker["length"], t=t)
    assert np.all(at_contact.rod == 1)
    assert at_contact.strain == pytest.approx(-striker["velocity"] / (2 * c), rel=1e-12)


@pytest.mark.parametrize("name", ["seed000_three_rods", "rods_1_2_1", "rod_train_mixed"])
def test_field_equals_the_cli_field_csv(name, tmp_path):
    path = CASES / f"{name}.toml"
    csv = tmp_path / "field.csv"
    status, _, err = run_cli("run", path, "--field-csv", csv, "--field-times", "13", "--field-positions", "17")
    assert status == 0, err
    data = np.loadtxt(csv, delimiter=",", comments="#", skiprows=2)
    t, x, rod, velocity, force = data.T
    f = rc.field(path, x=x, t=t)
    assert np.array_equal(f.rod, rod.astype(int))
    assert np.array_equal(f.velocity, velocity)
    assert np.array_equal(f.force, force)


def test_momentum_of_a_settled_rod_is_m_u_plus():
    """Integral of rho A v over a rod after the chain settled = m u+ (the outcome's definition)."""
    case = rc.load_case(CASES / "rods_1_2_1.toml")
    out = rc.run(case)
    t = out.end_time * 1.5
    offsets = np.concatenate([[0], np.cumsum([r["length"] for r in case.rods])])
    for i, r in enumerate(case.rods):
        # Midpoint rule on 2^16 cells: the field is piecewise constant in x, so the error is at
        # most (fronts in the rod) x (largest jump) x (cell length) x rho A, below 1e-4 here.
        n = 1 << 16
        x = offsets[i] + (np.arange(n) + 0.5) * r["length"] / n
        v = rc.field(case, x=x, t=t).velocity
        momentum = r["density"] * r["area"] * r["length"] * v.mean()
        assert momentum == pytest.approx(out.masses[i] * out.final_velocities[i], abs=1e-4)
