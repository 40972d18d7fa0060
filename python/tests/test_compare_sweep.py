"""rc.compare() and rc.sweep() against `rodcollide compare --json` and `sweep --json / --csv`
(docs/python.md), and the sweep's arrays: for identical rods the wave map is the Sequential Impact Law
all around the circle (Winandy & Leine 2015 eq. 23)."""
import numpy as np
import pytest

import rodcollide as rc
from conftest import CASE_FILES, FREE_BODY_CASE_FILES, FREE_CASE_FILES, SOURCE_DIR, case_id, cli_json, run_cli


@pytest.mark.parametrize("path", FREE_CASE_FILES, ids=case_id)
def test_compare_equals_cli_json(path):
    assert rc.compare(rc.load_case(path)) == cli_json("compare", path)


@pytest.mark.parametrize("path", FREE_BODY_CASE_FILES, ids=case_id)
def test_compare_of_balls_and_masses_equals_cli_json(path):
    """A chain of balls and masses alone: its compliant outcome beside the laws (docs/compare.md), momentum
    kept by every law and by the compliant outcome."""
    d = rc.compare(rc.load_case(path), properties=False)
    assert d == cli_json("compare", path, "--no-properties")
    assert d["outcome_model"] == "compliant contacts"
    masses = np.array(d["laws"][0]["masses"])
    p0 = masses @ np.array([r["initial_velocity"] for r in d["wave"]["rods"]])
    assert masses @ np.array([r["final_velocity"] for r in d["wave"]["rods"]]) == pytest.approx(p0, rel=1e-12)
    for law in d["laws"]:
        assert masses @ np.array(law["final_velocities"]) == pytest.approx(p0, rel=1e-12)


def test_sweep_of_three_hertz_balls_equals_cli():
    path = SOURCE_DIR / "cases" / "compliant" / "hertz_cradle_3.toml"
    s = rc.sweep(path, directions=24, laws=["sequential"], threads=2)
    assert s.to_dict() == cli_json("sweep", path, "--directions", "24", "--laws", "sequential")
    assert s.to_dict()["outcome_model"] == "compliant contacts"
    # Both contacts separating (cone I): nothing acts, gamma+ = gamma-.
    for k, cone in enumerate(s.cones):
        if cone == "I":
            assert s.gamma_post[k] == pytest.approx(s.gamma_pre[k], abs=1e-15)
    # Elastic Hertz contacts keep the relative kinetic energy gamma^T G^-1 gamma / 2 in every direction.
    m = np.full(3, 0.032882)
    G = np.array([[1 / m[0] + 1 / m[1], -1 / m[1]], [-1 / m[1], 1 / m[1] + 1 / m[2]]])
    Gi = np.linalg.inv(G)
    before = np.einsum("ij,jk,ik->i", s.gamma_pre, Gi, s.gamma_pre)
    after = np.einsum("ij,jk,ik->i", s.gamma_post, Gi, s.gamma_post)
    assert after == pytest.approx(before, rel=1e-8)


def test_compare_of_the_lossy_ball_cradle_equals_cli_json():
    """Restitution e = 0.9 (cases/balls/): the laws at the same e beside the lossy compliant outcome; the
    hysteresis loss D is the effective restitution's deficit, e_eff^2 = 1 - D / T-_rel."""
    path = SOURCE_DIR / "cases" / "balls" / "steel_cradle_5_restitution.toml"
    d = rc.compare(path, restitution=0.9, properties=False)
    assert d == cli_json("compare", path, "--restitution", "0.9", "--no-properties")
    masses = np.array(d["laws"][0]["masses"])
    u0 = np.array([r["initial_velocity"] for r in d["wave"]["rods"]])
    rel = u0 - masses @ u0 / masses.sum()
    t_rel = 0.5 * masses @ rel**2
    dissipated = d["wave"]["energy"]["dissipated"]
    assert dissipated > 0.1 * t_rel
    assert d["implied_restitution"]["effective_coefficient"] ** 2 == pytest.approx(1 - dissipated / t_rel, rel=1e-8)


BALL = """[[rod]]
kind = "ball"
radius = 0.01
density = 7850.0
youngs_modulus = 210e9
poisson_ratio = 0.3
velocity = {velocity}
{extra}
"""


def test_sweep_of_three_lossy_balls_equals_cli(tmp_path):
    """Restitution e = 0.8 keeps the map homogeneous (docs/physics.md §9.11), so the circle is swept: no
    direction gains energy, and every direction where a contact approaches at more than 0.2 loses some."""
    path = tmp_path / "lossy.toml"
    path.write_text(BALL.format(velocity=1, extra="") + 2 * BALL.format(velocity=0, extra="restitution = 0.8"))
    s = rc.sweep(path, directions=24, laws=["newton"], restitution=0.8, threads=2)
    assert s.to_dict() == cli_json("sweep", path, "--directions", "24", "--laws", "newton", "--restitution", "0.8")
    Gi = np.array([[2, 1], [1, 2]]) / 3  # G^-1 of equal masses, over m
    before = np.einsum("ij,jk,ik->i", s.gamma_pre, Gi, s.gamma_pre)
    after = np.einsum("ij,jk,ik->i", s.gamma_post, Gi, s.gamma_post)
    assert np.all(after <= before * (1 + 1e-8))
    approaching = s.gamma_pre.min(axis=1) < -0.2
    assert approaching.any() and np.all(after[approaching] < (1 - 1e-3) * before[approaching])


def test_sweep_refuses_a_dashpot_beside_hertz_with_the_cli_message(tmp_path):
    path = tmp_path / "damped.toml"
    path.write_text(BALL.format(velocity=1, extra="") + BALL.format(velocity=0, extra="")
                    + BALL.format(velocity=0, extra="contact_damping = 2.0"))
    status, out, err = run_cli("sweep", path)
    assert status == 2 and out == ""
    with pytest.raises(ValueError) as e:
        rc.sweep(path)
    assert err.strip() == f"rodcollide sweep: {e.value}"
    assert "rod[2].contact_damping" in err


@pytest.mark.parametrize("path", sorted(set(CASE_FILES) - set(FREE_CASE_FILES) - set(FREE_BODY_CASE_FILES)), ids=case_id)
def test_rigid_laws_refuse_ends_with_the_cli_message(path):
    """The rigid impact laws know no walls, held or anechoic ends, or loads (docs/ends.md), and compare no rods
    with compliant contacts, masses or balls."""
    status, out, err = run_cli("compare", path)
    assert status == 2 and out == ""
    with pytest.raises(ValueError) as e:
        rc.compare(path)
    assert err.strip() == f"rodcollide compare: {e.value}"


def test_compare_options_equal_cli_flags():
    path = SOURCE_DIR / "cases" / "rods_1_2_1.toml"
    d = rc.compare(path, laws=["sequential", "newton"], restitution=0.8, properties=False, method="finite-difference",
                   cells=300)
    assert d == cli_json("compare", path, "--laws", "sequential,newton", "--restitution", "0.8", "--no-properties",
                         "--method", "finite-difference", "--cells", "300")
    assert [law["law"] for law in d["laws"]] == ["sequential", "newton"]


THREE_RODS = [SOURCE_DIR / "cases" / "seed000_three_rods.toml", SOURCE_DIR / "cases" / "rods_1_2_1.toml"]


@pytest.mark.parametrize("path", THREE_RODS, ids=case_id)
def test_sweep_equals_cli(path, tmp_path):
    s = rc.sweep(rc.load_case(path), directions=360, laws=["sequential", "newton"], threads=2)
    csv = tmp_path / "sweep.csv"
    assert s.to_dict() == cli_json("sweep", path, "--directions", "360", "--laws", "sequential,newton")
    status, _, err = run_cli("sweep", path, "--directions", "360", "--laws", "sequential,newton", "--csv", csv)
    assert status == 0, err
    assert s.to_csv() == csv.read_text()


def test_sweep_arrays():
    n = 360
    s = rc.sweep(SOURCE_DIR / "cases" / "seed000_three_rods.toml", directions=n)
    assert s.directions == n and s.laws == ["sequential"]
    assert s.theta.shape == (n,) and s.gamma_pre.shape == (n, 2) and s.gamma_post.shape == (n, 2)
    assert np.array_equal(s.index, np.arange(n))
    assert np.allclose(s.theta, 360 * np.arange(n) / n, rtol=0, atol=1e-12)
    rad = np.radians(s.theta)
    assert np.allclose(s.gamma_pre, np.column_stack([np.cos(rad), np.sin(rad)]), rtol=0, atol=1e-15)
    # Identical rods: the wave map is the Sequential Impact Law in every cone.
    assert np.max(s.errors["sequential"]) < 1e-12
    assert np.allclose(s.law_gamma_post["sequential"], s.gamma_post, rtol=0, atol=1e-12)
    assert len(s.cones) == n and set(s.cones) == {"I", "IIa", "IIb", "III", "IVa", "IVb"}
    # Cone III (both contacts approaching, eq. 23): Q_III = [[0, -1], [-1, 0]], the reversal
    # (u- = (2, 0, -1) -> u+ = (-1, 0, 2) in Winandy & Leine 2015 §4.2).
    for k in [i for i, cone in enumerate(s.cones) if cone == "III"]:
        assert s.gamma_post[k] == pytest.approx(-s.gamma_pre[k][::-1], abs=1e-12)


def test_sweep_shards_concatenate():
    path = SOURCE_DIR / "cases" / "rods_1_2_1.toml"
    full = rc.sweep(path, directions=90)
    parts = [rc.sweep(path, directions=90, shard=(k, 3)) for k in (1, 2, 3)]
    assert "".join(p.to_csv() for p in parts) == full.to_csv()
    assert np.array_equal(np.concatenate([p.theta for p in parts]), full.theta)
