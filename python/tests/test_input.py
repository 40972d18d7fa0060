"""Cases from dicts, text and files agree (docs/python.md): rc.Case(**the file's tables) solves to the
CLI's JSON for every file in cases/ (cases/ends/ too), the views of ends, loads, segments and gauges read back
as the tables they came from, and the fast path for plain rods (_core.plain_case) builds
exactly the case the case reader builds from the same values written as TOML."""
import math
import random
import tomllib

import numpy as np
import pytest

import rodcollide as rc
from rodcollide import _core, _toml
from conftest import CASE_FILES, case_id, cli_json, CASES_DIR, PLAIN_CASE

ROD = dict(length=1, area=1, density=1, youngs_modulus=1)


@pytest.mark.parametrize("path", CASE_FILES, ids=case_id)
def test_dict_input_equals_the_file(path):
    tables = tomllib.loads(path.read_text())
    tables.setdefault("title", path.stem)  # a file's default title is its stem
    case = rc.Case(**tables)  # key "rod", as in the file
    file = rc.load_case(path)
    assert case.rods == file.rods and case.segments == file.segments
    assert case.ends == file.ends and case.gauges == file.gauges
    assert _points(case.loads) == _points(file.loads)
    assert case.solver == file.solver
    assert rc.run(case).to_dict() == cli_json("run", path)


def _points(loads):
    return [dict(load, time=load["time"].tolist(), value=load["value"].tolist()) for load in loads]


@pytest.mark.parametrize("path", CASE_FILES, ids=case_id)
def test_text_input_equals_the_file(path):
    case = rc.parse_case(path.read_text(), name=str(path))
    assert rc.run(case).to_dict() == rc.run(rc.load_case(path)).to_dict()


def test_case_views():
    case = rc.Case(title="t", rods=[dict(ROD, velocity=2.0), dict(ROD, length=2, gap=0.5)],
                   solver=dict(method="finite-difference", cells=100))
    assert case.title == "t" and case.path == "<dict>"
    assert case.rods[1] == dict(length=2.0, area=1.0, density=1.0, youngs_modulus=1.0, velocity=0.0, gap=0.5)
    assert case.masses.tolist() == [1, 2] and case.initial_velocities.tolist() == [2, 0]
    assert case.solver == dict(method="finite-difference", end_time=None, record_until=None, drop_tolerance=1e-12,
                               max_events=300_000_000, max_fronts=8_000_000, cells=100,
                               time_resolution=None, rounding_check=True, accuracy=None, max_memory=256,
                               max_work=10_000_000)
    exact = case.with_solver(method="characteristics", cells=None)
    assert exact.solver["method"] == "characteristics" and exact.solver["cells"] == 100
    assert case.solver["method"] == "finite-difference"
    assert rc.Case(rods=[ROD, ROD]).title == "<dict>"  # the stem of FILE, as for files
    assert rc.Case(rods=(dict(ROD, velocity=v) for v in (1, 0))).rods == rc.Case(rods=[dict(ROD, velocity=1), ROD]).rods


def test_defaults_and_numpy_values():
    lengths = np.array([1.0, 2.0, 1.0])
    a = rc.Case(defaults=dict(area=1, density=1, youngs_modulus=1),
                rods=[dict(length=x, velocity=v) for x, v in zip(lengths, np.array([0.0, -1.0, 1.0]))])
    b = rc.load_case(CASES_DIR / "rods_1_2_1.toml")
    assert a.rods == b.rods
    assert rc.run(a).final_velocities.tolist() == rc.run(b).final_velocities.tolist() == [-1, -0.5, 1]


def _reader_case(rods, title=None):
    """The same input through the case reader (TOML text), or its CaseError."""
    try:
        return rc.parse_case(_toml.case_text({"title": title, "rod": rods}), "<dict>")._core
    except rc.CaseError as e:
        return e


def _same(a, b):
    return (a.title, a.path, a.rods, a.solver.method, a.solver.cells) == (b.title, b.path, b.rods, b.solver.method,
                                                                         b.solver.cells)


def test_plain_rods_take_the_fast_path_and_give_the_readers_case():
    rng = random.Random(12)
    for _ in range(300):
        rods = []
        for i in range(rng.randint(2, 6)):
            rod = dict(length=rng.choice([rng.uniform(1e-3, 10), rng.randint(1, 5)]), area=rng.uniform(1e-6, 1),
                       density=rng.choice([7850, rng.uniform(1, 1e4)]), youngs_modulus=rng.uniform(1e6, 3e11))
            if rng.random() < 0.7:
                rod["velocity"] = rng.choice([rng.uniform(-10, 10), 0, -0.0, rng.randint(-3, 3)])
            if i > 0 and rng.random() < 0.5:
                rod["gap"] = rng.choice([0, rng.uniform(0, 1e-3)])
            rods.append(rod)
        title = rng.choice([None, "a title", "quote \" and \\ and \t"])
        fast = _core.plain_case(rods, title, "<dict>")
        assert fast is not None, rods
        reader = _reader_case(rods, title)
        assert not isinstance(reader, Exception), reader
        assert _same(fast, reader)
        # Some random chains keep colliding for long (docs/characteristics.md, "When a chain keeps colliding").
        horizon = 20 * max(r["length"] / math.sqrt(r["youngs_modulus"] / r["density"]) for r in rods)
        assert rc.run(rc.Case(rods=rods, title=title), end_time=horizon).to_dict() == \
            rc.run(rc.Case._wrap(reader), end_time=horizon).to_dict()


@pytest.mark.parametrize("change", [
    dict(length=-1.0), dict(length=0), dict(length=math.nan), dict(length=math.inf), dict(area="1"),
    dict(density=True), dict(youngs_modulus=5e-324), dict(velocity=2 ** 64), dict(velocity=np.int64(1)),
    dict(lenght=1.0), dict(gap=-1e-3), dict(length=None), dict(youngs_modulus=1e300, density=1e-10),
], ids=repr)
def test_anything_unusual_goes_through_the_reader(change):
    """The fast path declines whatever is not plain, so the reader decides: same case or its error."""
    rods = [dict(ROD, velocity=1.0), dict(ROD, **change)]
    assert _core.plain_case(rods, None, "<dict>") is None
    reader = _reader_case(rods)
    if isinstance(reader, Exception):
        with pytest.raises(rc.CaseError) as e:
            rc.Case(rods=rods)
        assert str(e.value) == str(reader)
    else:
        assert _same(rc.Case(rods=rods)._core, reader)


@pytest.mark.parametrize("rods", [
    [dict(ROD)], [dict(ROD), dict(ROD, gap=0.0)][::-1], [ROD, [1, 2]], (ROD, ROD, 3), {"a": ROD}, [],
], ids=repr)
def test_unusual_shapes_go_through_the_reader(rods):
    assert _core.plain_case(rods, None, "<dict>") is None
    with pytest.raises(rc.CaseError):
        rc.Case(rods=rods)


def test_solver_keywords_are_the_option_table():
    """Every [solver] option of the C++ table (solver_option_table.hpp) is a keyword of run() and an
    attribute of SolverOptions, and Case.solver reads back each one."""
    keys = _core.solver_option_keys
    assert len(keys) == len(set(keys)) and "rounding_check" in keys and "time_resolution" in keys
    options = _core.SolverOptions()
    for key in keys:
        assert hasattr(options, key), key
    case = rc.Case(rods=[dict(ROD, velocity=1), dict(ROD, velocity=0)])
    assert set(case.solver) == set(keys)
    values = dict(method="characteristics", end_time=5.0, record_until=4.0, drop_tolerance=1e-9, max_events=10**6,
                  max_fronts=10**6, cells=100, time_resolution=0.01, rounding_check=False, accuracy=1e-4,
                  max_memory=64, max_work=10**6)
    assert set(values) == set(keys), "a new option needs a value here"
    for key, value in values.items():
        assert rc.run(case, **{key: value}).to_dict()["settled"] in (True, False), key


def test_case_keys_are_the_key_table():
    """The case keys of the C++ table (case_key_table.hpp) are those of the views: a rod's dict has
    every [[rod]] number a rod takes, plus the contact keys where its contact is compliant; a mass's
    dict has its own keys and its kind; a segment's every [[rod.segment]] key; and the fast path
    for plain rods takes every number a rod and its contact take, as the case reader does."""
    keys = _core.case_keys
    assert len(keys) == len(set(keys)) and ("rod", "velocity") in keys and ("end", "kind") in keys
    rod_numbers = [k for t, k in keys if t == "rod" and k not in ("segment", "kind")]
    contact_numbers = [k for k in rod_numbers if k.startswith("contact_")]
    # Issue 24's numbers are written only where they differ from their defaults (a ball's radius, a
    # rod's Poisson ratio, end radii, restitution): not in a plain rod's dict.
    optional = {"radius", "poisson_ratio", "end_radius", "left_end_radius", "right_end_radius", "restitution"}
    assert optional <= set(rod_numbers)
    body_numbers = [k for k in rod_numbers if k not in contact_numbers and k != "mass" and k not in optional]
    assert len(contact_numbers) == 3 and "mass" in rod_numbers
    segment_keys = [k for t, k in keys if t == "rod.segment"]
    case = rc.load_case("cases/ends/stepped_striker_wall.toml")
    assert all(list(rod) == body_numbers for rod in case.rods)
    assert any(case.segments) and all(list(s) == segment_keys for rod in case.segments for s in rod)
    cushioned = rc.load_case("cases/compliant/hammer_cushion_pile.toml")
    assert list(cushioned.rods[0]) == body_numbers and list(cushioned.rods[1]) == body_numbers + contact_numbers
    mass = rc.load_case("cases/compliant/mass_on_fixed_bar.toml").rods[0]
    assert set(mass) == {"velocity", "gap", "mass", "kind"} and mass["kind"] == "mass"
    rods = [dict(ROD, velocity=1),
            dict({k: 0.5 if k in ("velocity", "gap") else 1 for k in body_numbers + contact_numbers})]
    fast = _core.plain_case(rods, None, "<dict>")
    assert fast is not None, "a [[rod]] number the fast path does not take"
    assert _same(fast, _reader_case(rods, None))
