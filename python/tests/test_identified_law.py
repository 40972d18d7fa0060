"""The identified law from Python (docs/identified_law.md): `rodcollide sweep --export-law FILE` writes it,
rc.laws.apply("identified:FILE", ...) applies it and gives what `rodcollide laws --law identified:FILE` gives,
which is gamma+ = J gamma- with the matrix of the file's cone whose facets hold; where no cone holds, both say
that the law has no answer."""
import json

import numpy as np
import pytest

import rodcollide as rc
from conftest import SOURCE_DIR, cli_error, cli_json, run_cli

FACET_SLACK = 1e-9  # laws::facet_slack, relative to |gamma-|


def _csv(values):
    return ",".join(repr(float(v)) for v in np.ravel(values))


def _velocities(gamma):
    """u = (0, gamma1, gamma1 + gamma2, ...): the lift the sweep uses."""
    return np.concatenate([[0.0], np.cumsum(gamma)])


def _cone_of(law, gamma):
    for cone in law["cones"]:
        if all(np.dot(b, gamma) >= -FACET_SLACK * np.linalg.norm(gamma) for b in cone["facets"]):
            return cone
    return None


@pytest.fixture(scope="module", params=["four_identical_rods", "rods_1_2_2_1"])
def exported(request, tmp_path_factory):
    path = tmp_path_factory.mktemp("identified") / f"{request.param}.json"
    status, out, err = run_cli("sweep", SOURCE_DIR / "cases" / "cones" / f"{request.param}.toml", "--directions", "600",
                               "--export-law", path, "--json")
    assert status == 0, err
    sweep = json.loads(out)
    law = json.loads(path.read_text())
    assert law["bodies"] == 4 and len(law["cones"]) == sweep["law_check"]["law_cones"] > 0
    return path, law, sweep


def test_python_equals_cli_and_the_file(exported):
    path, law, _ = exported
    masses = law["masses"]
    rng = np.random.default_rng(5)
    answered = 0
    for _ in range(40):
        gamma = rng.normal(size=3)
        cone = _cone_of(law, gamma)
        if cone is None:
            continue
        answered += 1
        u = _velocities(gamma)
        result = rc.laws.apply(f"identified:{path}", masses=masses, velocities=u)
        d = result.to_dict()
        assert d == cli_json("laws", "--law", f"identified:{path}", "--masses", _csv(masses), "--velocities", _csv(u))
        # gamma+ = J gamma- with the matrix of the cone whose facets hold.
        assert result.contact_velocities_post == pytest.approx(np.array(cone["matrix"]) @ gamma, abs=1e-13)
        assert np.diff(result.final_velocities) == pytest.approx(result.contact_velocities_post, abs=1e-13)
    assert answered >= 20


def test_no_answer_is_said(exported):
    path, law, sweep = exported
    outside = [g for g in law["non_linear_directions"] if _cone_of(law, np.array(g)) is None]
    if sweep["non_linear_directions"] == 0:  # identical rods: sorting everywhere, the law answers everywhere
        assert law["non_linear_directions"] == [] and sweep["law_check"]["answered"] == sweep["law_check"]["directions"]
        return
    assert outside, "the unequal chain has directions where the law has no answer"
    u = _velocities(outside[0])
    with pytest.raises(Exception, match="no answer"):
        rc.laws.apply(f"identified:{path}", masses=law["masses"], velocities=u)
    message = cli_error("laws", "--law", f"identified:{path}", "--masses", _csv(law["masses"]), "--velocities", _csv(u))
    assert "no answer" in message and str(path) in message
