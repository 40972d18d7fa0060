#!/usr/bin/env python3
"""ctest `pip_install` (label `pip`; docs/python.md "pip install"): `pip wheel .` builds the wheel
(setup.py: the module and the command through CMake, with ccache), a fresh virtual environment
(python3 -m venv --system-site-packages) installs it offline, and there the module imports and
solves a case, and the `rodcollide` command on its PATH runs. Standard library only.

    check_pip.py SOURCE_DIR WORK_DIR
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path


def run(*args, **kw):
    print("+", " ".join(map(str, args)), flush=True)
    return subprocess.run(list(map(str, args)), check=True, **kw)


def main():
    source, work = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    shutil.rmtree(work, ignore_errors=True)
    wheels = work / "wheels"
    env = dict(os.environ, CMAKE_BUILD_PARALLEL_LEVEL=os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2"),
               PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH", None)  # the build tree's module must not stand in for the installed one
    run(sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "-w", wheels, source, env=env)
    wheel = next(wheels.glob("rodcollide-*.whl"))
    venv = work / "venv"
    run(sys.executable, "-m", "venv", "--system-site-packages", venv)
    python = venv / "bin" / "python"
    run(python, "-m", "pip", "install", "--no-deps", wheel, env=env)
    case = source / "cases" / "seed000_three_rods.toml"
    check = (f"import rodcollide as rc, sys; out = rc.run({str(case)!r}); "
             f"assert rc.__file__.startswith({str(venv)!r}), rc.__file__; "
             f"print('final velocities:', out.final_velocities.tolist())")
    out = run(python, "-c", check, env=env, capture_output=True, text=True, cwd=work).stdout
    print(out, end="")
    assert out.strip() == "final velocities: [-1.0, 0.0, 2.0]", out
    command = run(venv / "bin" / "rodcollide", "run", case, "--json", env=env, capture_output=True, text=True).stdout
    assert '"final_velocity": 2.0' in command, command
    print("the installed rodcollide command runs")


if __name__ == "__main__":
    main()
