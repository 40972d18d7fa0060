#!/usr/bin/env bash
# Installs rodcollide's Debian packages (only the missing ones) and configures the CMake build in
# ./build. Idempotent and quiet: takes a few seconds when everything is already present.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  g++ cmake make
  libeigen3-dev libfmt-dev libboost-program-options-dev catch2 libtoml11-dev nlohmann-json3-dev
  libgnuplot-iostream-dev libboost-iostreams-dev libboost-filesystem-dev gnuplot-nox
  libbenchmark-dev
  python3-dev pybind11-dev python3-pybind11 python3-numpy python3-pytest python3-matplotlib
  libopenmpi-dev openmpi-bin python3-distributed   # ensembles over MPI ranks and dask (docs/ensemble.md)
  clang-16 libclang-rt-16-dev llvm-16   # the sanitized fuzzer (ctest fuzz_short, scripts/fuzz.sh)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq >/dev/null
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build_dir=${RODCOLLIDE_BUILD_DIR:-build}
if [[ ! -f "$build_dir/CMakeCache.txt" ]]; then
  # MPI on (OpenMPI is installed above): the one build also tests `mpirun -n 2` (ctest mpi_ensemble).
  cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DRODCOLLIDE_MPI=ON >/dev/null
fi
