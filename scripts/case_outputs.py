#!/usr/bin/env python3
"""The `run --json` output of every case in cases/, cases/ends/, cases/compliant/ and cases/balls/, byte for byte, against the
copies recorded in tests/data/outputs/ (ctest `case_outputs`): a change of any number, key or
warning in a documented example is a change of behaviour, and this says which case and where.

    scripts/case_outputs.py BINARY            compare (exit 1 on a difference)
    scripts/case_outputs.py BINARY --record   write the recorded copies anew (after a change of
                                              behaviour that is meant; review the diff)

The JSON holds no timing or other run-to-run quantity (checked: two runs are identical), so the
comparison is exact. Standard library only.
"""
import difflib
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
RECORDED = ROOT / "tests" / "data" / "outputs"


def cases():
    return (sorted(ROOT.glob("cases/*.toml")) + sorted(ROOT.glob("cases/ends/*.toml")) +
            sorted(ROOT.glob("cases/compliant/*.toml")) + sorted(ROOT.glob("cases/balls/*.toml")))


def recorded_name(case):
    rel = case.relative_to(ROOT / "cases")
    return "_".join(rel.with_suffix("").parts) + ".json"


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    binary, record = sys.argv[1], "--record" in sys.argv[2:]
    failed = 0
    for case in cases():
        run = subprocess.run([binary, "run", str(case.relative_to(ROOT)), "--json"], cwd=ROOT,
                             capture_output=True, text=True)
        out = run.stdout
        if run.returncode != 0:
            print(f"case_outputs: {case.relative_to(ROOT)}: exit {run.returncode}: {run.stderr.strip()}")
            failed += 1
            continue
        path = RECORDED / recorded_name(case)
        if record:
            RECORDED.mkdir(parents=True, exist_ok=True)
            path.write_text(out)
            continue
        if not path.exists():
            print(f"case_outputs: {case.relative_to(ROOT)}: no recorded output {path.relative_to(ROOT)} "
                  "(scripts/case_outputs.py BINARY --record)")
            failed += 1
            continue
        expected = path.read_text()
        if out != expected:
            failed += 1
            print(f"case_outputs: {case.relative_to(ROOT)}: differs from {path.relative_to(ROOT)}:")
            sys.stdout.writelines(difflib.unified_diff(expected.splitlines(True), out.splitlines(True),
                                                       "recorded", "now", n=1))
    names = {recorded_name(c) for c in cases()}
    stale = sorted(p.name for p in RECORDED.glob("*.json") if p.name not in names) if RECORDED.exists() else []
    for s in stale:
        print(f"case_outputs: tests/data/outputs/{s} belongs to no case in cases/")
    failed += len(stale)
    if record:
        print(f"case_outputs: recorded {len(cases())} outputs in {RECORDED.relative_to(ROOT)}")
        return 0
    print(f"case_outputs: {len(cases()) - failed} of {len(cases())} cases as recorded")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
