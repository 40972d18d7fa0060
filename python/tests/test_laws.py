"""rc.laws.apply() against `rodcollide laws --json` and the closed forms (docs/python.md; Winandy & Leine 2015 eq. 23,
Leine & Baumann 2014 Newton, Brogliato, Zhang & Liu 2012 eq. 59)."""
import numpy as np
import pytest

import rodcollide as rc
from conftest import cli_json


def _csv(values):
    return ",".join(repr(float(v)) for v in np.ravel(values))


CALLS = [
    ("sequential", [1, 1, 1], [1, 0, 0], {}),
    ("sequential", [1, 1, 1], [2, 0, -1], {}),
    ("sequential", [1, 2, 3, 1], [1, 0, 0, -1], dict(order="left-to-right", max_impacts=100)),
    ("newton", [1, 1, 1], [1, 0, 0], dict(restitution=1.0)),
    ("newton", [1, 2, 3], [1, 0, -1], dict(restitution=[0.9, 0.7])),
    ("poisson", [1, 1, 1], [1, 0, 0], dict(restitution=0.5)),
    ("kinematic", [1, 1, 1, 1], [1, 0, 0, 0], dict(restitution=[[0.5, 0, 0], [0.3, 0.5, 0], [0.2, 0.3, 0.5]])),
]


@pytest.mark.parametrize("law, masses, velocities, options", CALLS, ids=lambda v: repr(v))
def test_apply_equals_cli_json(law, masses, velocities, options):
    args = ["laws", "--law", law, "--masses", _csv(masses), "--velocities", _csv(velocities)]
    r = options.get("restitution")
    if r is not None:
        r = np.asarray(r, dtype=float)
        if r.ndim == 2:
            args += ["--restitution-matrix", ";".join(_csv(row) for row in r)]
        else:
            args += ["--restitution", _csv(r)]
    if "order" in options:
        args += ["--order", options["order"]]
    if "max_impacts" in options:
        args += ["--max-impacts", str(options["max_impacts"])]
    result = rc.laws.apply(law, masses=masses, velocities=velocities, **options)
    d = result.to_dict()
    assert d == cli_json(*args)
    assert result.final_velocities.tolist() == d["final_velocities"]
    assert result.impulses.tolist() == d["impulses"]
    assert result.contact_velocities_post.tolist() == d["contact_velocities_post"]
    assert result.consistency == d["consistency"]
    assert result.cone == d.get("cone")


def test_closed_forms():
    newton = rc.laws.apply("newton", masses=[1, 1, 1], velocities=[1, 0, 0], restitution=1.0)
    assert newton.final_velocities == pytest.approx([-1 / 3, 2 / 3, 2 / 3], abs=1e-12)
    sequential = rc.laws.apply("sequential", masses=[1, 1, 1], velocities=[2, 0, -1])
    assert sequential.final_velocities == pytest.approx([-1, 0, 2], abs=1e-12)  # Winandy & Leine 2015 eq. (36)
    assert sequential.cone == "III"
    kinematic = rc.laws.apply("kinematic", masses=[1, 1, 1, 1], velocities=[1, 0, 0, 0],
                              restitution=[[0.5, 0, 0], [0.3, 0.5, 0], [0.2, 0.3, 0.5]])
    assert kinematic.final_velocities == pytest.approx([-0.325, 0.175, 0.475, 0.675], abs=1e-12)  # Brogliato, Zhang & Liu 2012 eq. (59)
    assert rc.laws.names() == ["sequential", "newton", "poisson", "kinematic"]
