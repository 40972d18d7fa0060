"""Bad input raises rodcollide.CaseError, a ValueError, with exactly the CLI's one-line message
"FILE:LINE: KEY: message" (docs/python.md; docs/cli.md, "Errors and outputs"): for files, for dicts (FILE "<dict>", LINE a
line of the TOML the dict is written as, carried by the error as .toml) and for keyword solver
options (FILE "<kwargs>"). Other bad arguments raise ValueError naming the argument."""
import json

import pytest

import rodcollide as rc
from conftest import CASE_FILES, FREE_CASE_FILES, case_id, cli_error, run_cli, CASES_DIR, PLAIN_CASE

RODS = """
[defaults]
length = 1.0
area = 1.0
density = 1.0
youngs_modulus = 1.0
[[rod]]
velocity = 1.0
[[rod]]
"""

BAD_FILES = {
    "syntax": "length = \n" + RODS,
    "defined twice": "[defaults]\nlength = 1\nlength = 2\n[[rod]]\n[[rod]]\n",
    "unknown rod key": RODS + "lenght = 1\n",
    "symbol for a key": "[defaults]\nE = 1\n" + RODS,
    "misplaced key": RODS + "method = \"characteristics\"\n",
    "quoted number": RODS + "length = \"1.0\"\n",
    "rod is a table": "[rod]\nlength = 1\n",
    "missing key": "[[rod]]\nlength = 1\narea = 1\ndensity = 1\nyoungs_modulus = 1\n[[rod]]\nlength = 1\n",
    "nan": RODS + "length = nan\n",
    "1e999": RODS + "length = 1e999\n",
    "negative": RODS + "length = -1\n",
    "gap on the first rod": "[defaults]\nlength = 1\narea = 1\ndensity = 1\nyoungs_modulus = 1\n[[rod]]\ngap = 0.0\n[[rod]]\n",
    "one rod": "[defaults]\nlength = 1\narea = 1\ndensity = 1\nyoungs_modulus = 1\n[[rod]]\n",
    "no rod": "title = \"x\"\n",
    "unknown method": RODS + "[solver]\nmethod = \"rk4\"\n",
    "too many cells": RODS + "[solver]\ncells = 100000001\n",
    "derived overflow": "[[rod]]\nlength = 1\narea = 1\ndensity = 1e-10\nyoungs_modulus = 1e300\n[[rod]]\nlength = 1\narea = 1\ndensity = 1\nyoungs_modulus = 1\n",
}


@pytest.mark.parametrize("name", BAD_FILES)
def test_file_errors_are_the_cli_line(name, tmp_path):
    path = tmp_path / "x.toml"
    path.write_text(BAD_FILES[name])
    with pytest.raises(rc.CaseError) as e:
        rc.load_case(path)
    assert isinstance(e.value, ValueError)
    assert str(e.value) == cli_error("run", path)
    assert str(e.value).startswith(f"{path}:")


@pytest.mark.parametrize("name", BAD_FILES)
def test_text_errors_name_the_given_file(name, tmp_path):
    path = tmp_path / "x.toml"
    path.write_text(BAD_FILES[name])
    with pytest.raises(rc.CaseError) as e:
        rc.parse_case(BAD_FILES[name], name=str(path))
    assert str(e.value) == cli_error("run", path)


def test_unreadable_paths(tmp_path):
    for path in [tmp_path / "missing.toml", tmp_path, tmp_path / "missing.toml" / "y.toml"]:
        with pytest.raises(rc.CaseError) as e:
            rc.load_case(path)
        assert str(e.value) == cli_error("run", path)
    with pytest.raises(rc.CaseError, match=r"^nowhere\.toml:0: \(file\): no such file$"):
        rc.run("nowhere.toml")


UNIT = dict(length=1, area=1, density=1, youngs_modulus=1)
BAD_DICTS = {
    "negative length": (dict(rods=[dict(length=-1, area=1, density=1, youngs_modulus=1), dict(length=1, area=1,
                                                                                               density=1, youngs_modulus=1)]),
                        "<dict>:2: rod[0].length: must be > 0, got -1"),
    "typo": (dict(defaults=dict(length=1, area=1, density=1, youngs_modulus=1), rods=[{}, dict(lenght=2)]),
             "<dict>:8: rod[1].lenght: unknown key; did you mean \"length\"?"),
    "string": (dict(defaults=dict(length=1, area=1, density=1), rods=[dict(youngs_modulus="2e11"), {}]),
               "<dict>:6: rod[0].youngs_modulus: must be a number, got a string (\"2e11\"); remove the quotes"),
    "missing": (dict(rods=[dict(length=1, area=1, density=1), dict(length=1, area=1, density=1, youngs_modulus=1)]),
                "<dict>:1: rod[0].youngs_modulus: missing; give it in this [[rod]] table or in [defaults]"),
    "no rods": (dict(title="t"), "<dict>:0: rod: missing; a case needs at least 2 rods, each a [[rod]] table"),
    "method": (dict(defaults=dict(length=1, area=1, density=1, youngs_modulus=1), rods=[{}, {}],
                    solver=dict(method="rk4")),
               "<dict>:9: solver.method: unknown method \"rk4\"; valid: characteristics, finite-difference"),
    "top level": (dict(rods=[{}, {}], methd="x"), "<dict>:1: methd: unknown key; expected one of: title, defaults, rod, solver, left, right, load, gauge, ensemble, units"),
    "first gap": (dict(defaults=dict(length=1, area=1, density=1, youngs_modulus=1), rods=[dict(gap=0), {}]),
                  "<dict>:7: rod[0].gap: the first rod has no left neighbour, so no gap (a gap in [defaults] applies "
                  "to the other rods only)"),
    "inf": (dict(defaults=dict(length=1, area=1, density=1, youngs_modulus=1), rods=[dict(velocity=float("-inf")), {}]),
            "<dict>:7: rod[0].velocity: must be finite, got -inf"),
    # [left] / [right], [[load]], [[rod.segment]], [[gauge]] (docs/case_file.md "Ends, loads, segments and gauges")
    "gap on a free end": (dict(rods=[dict(UNIT, velocity=1)], left=dict(gap=0.1), right=dict(kind="fixed")),
                          "<dict>:8: left.gap: only a \"wall\" end has a gap; this end is \"free\""),
    "end kind": (dict(rods=[UNIT, UNIT], left=dict(kind="sticky")),
                 "<dict>:12: left.kind: unknown end kind \"sticky\"; valid: free, fixed, wall, anechoic, spring, dashpot, spring-dashpot"),
    "load on a fixed end": (dict(rods=[UNIT], left=dict(kind="fixed"),
                                 load=[dict(end="left", quantity="force", time=[0, 1], value=[1, 1])]),
                            "<dict>:9: load[0].end: a load acts on a free end only; the left end is \"fixed\""),
    "unsorted load times": (dict(rods=[UNIT], load=[dict(end="right", quantity="velocity", time=[0, 2, 1],
                                                         value=[1, 1, 1])]),
                            "<dict>:9: load[0].time: must be increasing, got 1 after 2 (point 3)"),
    "a value per time": (dict(rods=[UNIT], load=[dict(end="right", quantity="force", time=[0, 1], value=[1])]),
                         "<dict>:10: load[0].value: must have 2 values (one per time), got 1"),
    "two histories": (dict(rods=[UNIT], load=[dict(end="right", quantity="force", time=[0, 1], value=[1, 1],
                                                   shape="rectangle")]),
                      "<dict>:9: load[0]: give the history one way: time and value, or shape (with amplitude, "
                      "duration, rise, fall), or file"),
    "load shape": (dict(rods=[UNIT], load=[dict(end="left", quantity="force", shape="square", amplitude=1, duration=1)]),
                   "<dict>:9: load[0].shape: unknown shape \"square\"; valid: rectangle, trapezoid, half-sine"),
    "gauge outside its rod": (dict(rods=[UNIT, UNIT], gauge=[dict(rod=1, x=1.5)]),
                              "<dict>:13: gauge[0].x: must be in [0, 1], got 1.5"),
    "gauge rod": (dict(rods=[UNIT, UNIT], gauge=[dict(rod=2, x=0.5)]), "<dict>:12: gauge[0].rod: must be in [0, 1], got 2"),
    "segment value": (dict(rods=[dict(area=1, density=1, youngs_modulus=1, segment=[dict(length=0.5), dict(length=-1)]),
                                 UNIT]),
                      "<dict>:8: rod[0].segment[1].length: must be > 0, got -1"),
    "length beside segments": (dict(rods=[dict(UNIT, segment=[dict(length=0.5)]), UNIT]),
                               "<dict>:2: rod[0].length: a rod made of segments is as long as their sum; give length "
                               "in each [[rod.segment]] only"),
    "segment key": (dict(rods=[dict(area=1, density=1, youngs_modulus=1, segment=[dict(lenght=0.5)]), UNIT]),
                    "<dict>:6: rod[0].segment[0].lenght: unknown key; did you mean \"length\"?"),
    "plural table name": (dict(rods=[UNIT, UNIT], gauges=[dict(rod=0, x=0)]),
                          "<dict>:11: gauges: unknown key; did you mean \"gauge\"?"),
    "one rod, free ends": (dict(rods=[UNIT], gauge=[dict(rod=0, x=0)]), "<dict>:1: rod: a chain needs at least 2 rods, got 1"),
}


@pytest.mark.parametrize("name", BAD_DICTS)
def test_dict_errors_are_the_cli_message_for_the_same_toml(name, tmp_path):
    tables, expected = BAD_DICTS[name]
    with pytest.raises(rc.CaseError) as e:
        rc.Case(**tables)
    assert str(e.value) == expected
    path = tmp_path / "dict.toml"
    path.write_text(e.value.toml)
    assert cli_error("run", path) == expected.replace("<dict>", str(path), 1)


def test_load_files_are_relative_to_the_working_directory(tmp_path, monkeypatch):
    """A dict has no file of its own: a [[load]] file it names is found from the working directory."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(rc.CaseError) as e:
        rc.Case(rods=[UNIT], load=[dict(end="left", quantity="force", file="pulse.csv")])
    assert str(e.value) == "<dict>:9: load[0].file: pulse.csv: no such file"
    (tmp_path / "pulse.csv").write_text("time,value\n0,-1\n0.5,-1\n")
    case = rc.Case(rods=[UNIT], load=[dict(end="left", quantity="force", file="pulse.csv")])
    assert [(load["time"].tolist(), load["value"].tolist()) for load in case.loads] == [([0, 0.5], [-1, -1])]


def test_samples_raise_value_error_with_the_cli_message():
    path = CASES_DIR / "ends" / "split_hopkinson_bar.toml"
    for samples in (1, 100_001, -1):
        with pytest.raises(ValueError) as e:
            rc.run(path, samples=samples)
        assert f"rodcollide run: --{e.value}" == cli_error("run", path, "--json", "--samples", samples)


@pytest.mark.parametrize("path", sorted(set(CASE_FILES) - set(FREE_CASE_FILES)), ids=case_id)
def test_finite_differences_on_ends_answer_as_the_cli(path):
    """Whatever the finite-difference solver makes of ends, loads, segments and gauges (docs/case_file.md), Python
    says the same as `run --json`: the same document, or the same refusal as a ValueError."""
    args = ["--method", "finite-difference", "--cells", "4"]
    status, out, err = run_cli("run", path, "--json", *args)
    if status == 0:
        assert rc.run(path, method="finite-difference", cells=4).to_dict() == json.loads(out)
    else:
        with pytest.raises(ValueError) as e:
            rc.run(path, method="finite-difference", cells=4)
        assert (status, out, err) == (2, "", f"rodcollide run: {e.value}\n")


def test_keyword_solver_options_are_checked_as_in_solver():
    case = rc.load_case(PLAIN_CASE)
    expected = {
        (("end_time", -1),): "<kwargs>:1: solver.end_time: must be > 0, got -1",
        (("method", "characteristics"), ("cells", 0)): "<kwargs>:2: solver.cells: must be > 0, got 0",
        (("cells", 1.5),): "<kwargs>:1: solver.cells: must be an integer, got a float (1.5)",
        (("method", "rk4"),): "<kwargs>:1: solver.method: unknown method \"rk4\"; valid: characteristics, "
                              "finite-difference",
        (("cell", 10),): "<kwargs>:1: solver.cell: unknown key; did you mean \"cells\"?",
        (("drop_tolerance", 1),): "<kwargs>:1: solver.drop_tolerance: must be in [0, 0.01], got 1",
        (("max_events", 10 ** 11),): "<kwargs>:1: solver.max_events: must be in [1, 10000000000], got 100000000000",
    }
    for given, message in expected.items():
        for call in (rc.run, rc.compare):
            with pytest.raises(rc.CaseError) as e:
                call(case, **dict(given))
            assert str(e.value) == message
    with pytest.raises(rc.CaseError, match="solver.end_time: must be finite"):
        case.with_solver(end_time=float("nan"))


def test_solver_limits_raise_with_the_cli_message():
    path = PLAIN_CASE
    with pytest.raises(rc.SolverLimitExceeded) as e:
        rc.run(rc.load_case(path), max_events=1)
    assert isinstance(e.value, RuntimeError)
    status, out, err = run_cli("run", path, "--max-events", "1")
    assert status == 1 and err.strip() == f"rodcollide run: {e.value}"


def test_other_arguments_raise_value_error_naming_them():
    three = rc.load_case(CASES_DIR / "seed000_three_rods.toml")
    two = rc.load_case(CASES_DIR / "seed000_two_rods.toml")
    with pytest.raises(ValueError, match=r"^rods: a sweep needs exactly 3 rods"):
        rc.sweep(two)
    with pytest.raises(ValueError, match=r"^directions: must be > 0, got 0$"):
        rc.sweep(three, directions=0)
    with pytest.raises(ValueError, match=r"^laws: "):
        rc.compare(three, laws=["newtn"])
    with pytest.raises(ValueError, match=r"^restitution: must be in \[0, 1\], got 2"):
        rc.compare(three, restitution=2)
    with pytest.raises(ValueError, match=r"^x: must be in \[0, 3\]"):
        rc.field(three, x=3.5, t=0)
    with pytest.raises(ValueError, match=r"^t: must be finite and >= 0"):
        rc.field(three, x=1, t=-1)
    with pytest.raises(ValueError, match=r"^t: the field is known only until"):
        rc.field(three, x=1, t=5, end_time=2)
    with pytest.raises(ValueError, match=r"^method: field\(\) uses the exact solver"):
        rc.field(three, x=1, t=1, method="finite-difference")
    with pytest.raises(ValueError, match=r'^law: unknown law "newtn"; valid: sequential, newton, poisson, kinematic$'):
        rc.laws.apply("newtn", masses=[1, 1], velocities=[1, 0])
    with pytest.raises(ValueError, match=r"^velocities: must have 2 values \(one per ball\), got 3$"):
        rc.laws.apply("newton", masses=[1, 1], velocities=[1, 0, 0])
    with pytest.raises(ValueError, match=r"^masses: must be > 0, got -1 \(ball 2\)$"):
        rc.laws.apply("newton", masses=[1, -1], velocities=[1, 0])
    with pytest.raises(ValueError, match=r"^restitution: must be in \[0, 1\], got 1.5 \(value 1\)$"):
        rc.laws.apply("newton", masses=[1, 1], velocities=[1, 0], restitution=1.5)
    with pytest.raises(ValueError, match=r"^order: only the sequential law takes it$"):
        rc.laws.apply("newton", masses=[1, 1], velocities=[1, 0], order="left-to-right")
    with pytest.raises(TypeError):
        rc.Case(rods=[dict(length=object())])
    with pytest.raises(TypeError):
        rc.run(42)
