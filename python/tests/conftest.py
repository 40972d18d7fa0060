"""Shared pieces of the Python tests (docs/python.md): the source tree, the CLI built beside the module
(RODCOLLIDE_BINARY, set by ctest), and running it to compare with its JSON and messages."""
import json
import os
import subprocess
import tomllib
from pathlib import Path

import pytest

SOURCE_DIR = Path(os.environ.get("RODCOLLIDE_SOURCE_DIR", Path(__file__).resolve().parents[2]))
# Every case file, cases/ends/ included.
CASE_FILES = sorted((SOURCE_DIR / "cases").rglob("*.toml"))
# Named cases for tests that need one of a kind (CASE_FILES[0] changes as cases are added).
CASES_DIR = SOURCE_DIR / "cases"
PLAIN_CASE = CASES_DIR / "chain_with_gaps.toml"
assert len(CASE_FILES) >= 10, f"no case files found in {SOURCE_DIR / 'cases'}"


def _kinds(path):
    """(free and unloaded ends, a chain of rods with rigid contacts, a chain of balls and masses alone)."""
    ends = tomllib.loads(path.read_text())
    rods = ends.get("rod", [])
    free = all(ends.get(side, {}).get("kind", "free") == "free" for side in ("left", "right")) and "load" not in ends
    # Masses, balls and compliant contacts (issues 23, 24; a rounded end makes a Hertz contact).
    curved = ("end_radius", "left_end_radius", "right_end_radius")
    compliant = any(r.get("kind", "rod") != "rod" or "contact_stiffness" in r or "contact_damping" in r
                    or any(k in r for k in curved) for r in rods)
    bodies = all(r.get("kind", "rod") in ("ball", "mass") for r in rods)
    return free, not compliant, bodies


# Those a chain of free ends and rigid contacts suits: the rigid impact laws (compare, sweep) and every method.
FREE_CASE_FILES = [p for p in CASE_FILES if _kinds(p)[0] and _kinds(p)[1]]
assert len(FREE_CASE_FILES) >= 9 and len(FREE_CASE_FILES) < len(CASE_FILES)
# Chains of balls and masses alone with free ends: compare takes them too (issue 24; their compliant outcome).
FREE_BODY_CASE_FILES = [p for p in CASE_FILES if _kinds(p)[0] and _kinds(p)[2]]
assert FREE_BODY_CASE_FILES, "no case of balls and masses alone with free ends"


def cli_binary():
    binary = os.environ.get("RODCOLLIDE_BINARY") or str(SOURCE_DIR / "build" / "rodcollide")
    if not os.access(binary, os.X_OK):
        pytest.fail(f"the rodcollide CLI is not built at {binary} (set RODCOLLIDE_BINARY)")
    return binary


def run_cli(*args, cwd=SOURCE_DIR):
    """The CLI's (exit status, stdout, stderr)."""
    p = subprocess.run([cli_binary(), *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def cli_json(*args):
    """The CLI's --json document, parsed as json.loads does; the command must succeed."""
    status, out, err = run_cli(*args, "--json")
    assert status == 0, err
    return json.loads(out)


def cli_error(*args, cwd=SOURCE_DIR):
    """The CLI's one-line error for bad input (exit status 2, nothing on stdout)."""
    status, out, err = run_cli(*args, cwd=cwd)
    assert status == 2, (status, out, err)
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


def case_id(path):
    return path.relative_to(SOURCE_DIR / "cases").with_suffix("").as_posix()
