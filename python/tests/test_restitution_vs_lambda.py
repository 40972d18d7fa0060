"""bench/study/restitution_vs_lambda.py (docs/physics.md §9.8, "Rods with rounded ends"): the
coefficient of restitution of two identical rods with rounded ends depends on lambda = c tau_H / L
alone, and is elastic in both limits."""
import importlib.util

import pytest

from conftest import SOURCE_DIR

spec = importlib.util.spec_from_file_location("restitution_vs_lambda",
                                              SOURCE_DIR / "bench" / "study" / "restitution_vs_lambda.py")
study = importlib.util.module_from_spec(spec)
spec.loader.exec_module(study)


def test_lambda_is_the_only_group():
    # Aluminium rods at 3 m/s with 20 mm caps, 20 mm across, at the same lambdas as the steel ones: the
    # same e within the two runs' bounds (the lengths differ by factors of about 0.5-0.8).
    steel = study.Rods()
    aluminium = study.Rods(density=2700.0, youngs_modulus=70e9, poisson_ratio=0.33, area=3.1416e-4,
                           end_radius=0.02, velocity=3.0)
    for lam in (0.5, 2.8, 6.0):
        e1, b1, _ = steel.restitution(steel.length_for(lam))
        e2, b2, _ = aluminium.restitution(aluminium.length_for(lam))
        assert steel.length_for(lam) != pytest.approx(aluminium.length_for(lam), rel=0.1)
        assert abs(e1 - e2) <= b1 + b2, (lam, e1, e2, b1, b2)


def test_elastic_in_both_limits_and_lossy_between():
    rods = study.Rods()
    e_long, b_long, _ = rods.restitution(rods.length_for(0.1))
    e_mid, b_mid, vib_mid = rods.restitution(rods.length_for(2.8))
    e_short, b_short, _ = rods.restitution(rods.length_for(30.0))
    # The least e of the 61-point study is 0.98524 at lambda = 2.79; the limits are within 1e-4 of 1.
    assert e_mid == pytest.approx(0.98524, abs=1e-4 + b_mid)
    assert 1 - e_long < 1e-4 + b_long and 1 - e_short < 1e-5 + b_short
    # No dissipation: what the rigid motion lost is in the rods' vibration, (1 - e^2)/2 of the energy
    # of identical rods (the relative kinetic energy is half the whole).
    assert vib_mid == pytest.approx((1 - e_mid**2) / 2, rel=1e-3)
