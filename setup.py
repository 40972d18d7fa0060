"""`pip install .` (docs/python.md "pip install"): builds the Python module and the `rodcollide` command
with CMake, as pybind11's own cmake_example does, and installs both into the environment. Debian
12 has no scikit-build-core, so this is setuptools with a CMake build extension. Offline, in a
virtual environment that sees Debian's packages:

    python3 -m venv --system-site-packages venv
    venv/bin/pip install --no-build-isolation .

Environment: CMAKE_BUILD_PARALLEL_LEVEL (build jobs, default 2), RODCOLLIDE_CMAKE_ARGS (more
-D options), and ccache is used when installed.
"""
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCE = Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    """Configures the project in build_temp, builds the module and the command, and copies them into
    the package: rodcollide/_core*.so and rodcollide/bin/rodcollide (run by the `rodcollide` entry
    point, rodcollide/_command.py)."""

    def build_extension(self, ext):
        package = Path(self.get_ext_fullpath(ext.name)).parent.resolve()
        build = Path(self.build_temp).resolve() / "cmake"
        build.mkdir(parents=True, exist_ok=True)
        args = [f"-DPython3_EXECUTABLE={sys.executable}", "-DCMAKE_BUILD_TYPE=Release",
                "-DRODCOLLIDE_FUZZ_IN_CTEST=OFF"]
        if shutil.which("ccache"):
            args.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
        args += shlex.split(os.environ.get("RODCOLLIDE_CMAKE_ARGS", ""))
        subprocess.run(["cmake", "-S", str(SOURCE), "-B", str(build), *args], check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        subprocess.run(["cmake", "--build", str(build), "-j", jobs, "--target", "rodcollide_python", "rodcollide"],
                       check=True)
        built = build / "python" / "rodcollide"
        for module in built.glob("_core*.so"):
            shutil.copy2(module, package / module.name)
        (package / "bin").mkdir(exist_ok=True)
        shutil.copy2(build / "rodcollide", package / "bin" / "rodcollide")


setup(
    name="rodcollide",
    version="0.1.0",
    description="Collisions of thin elastic rods, solved exactly, and compared with rigid-body impact laws",
    python_requires=">=3.9",
    install_requires=["numpy"],
    packages=["rodcollide"],
    package_dir={"rodcollide": "python/rodcollide"},
    ext_modules=[CMakeExtension("rodcollide._core")],
    cmdclass={"build_ext": CMakeBuild},
    entry_points={"console_scripts": ["rodcollide = rodcollide._command:main"]},
    zip_safe=False,
    # setuptools' own build tree beside the CMake ones (/build*/ in .gitignore), not in them.
    options={"build": {"build_base": "build-pip"}},
)
