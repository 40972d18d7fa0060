"""The installed Python module (docs/python.md): imported by the system interpreter from
PREFIX/lib/python3/dist-packages (PYTHONPATH), it solves the three-rod case of Winandy & Leine (2015, §4.2)
: u- = (2, 0, -1) -> u+ = (-1, 0, 2). Run by ctest as package_python."""
import os
import sys

prefix, case_file = sys.argv[1], sys.argv[2]
import rodcollide as rc  # noqa: E402

where = os.path.realpath(rc.__file__)
if not where.startswith(os.path.realpath(prefix) + os.sep):
    sys.exit(f"imported rodcollide from {where}, not from the install prefix {prefix}")
out = rc.run(rc.load_case(case_file))
print("final velocities:", out.final_velocities.tolist())
