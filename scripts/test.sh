#!/usr/bin/env bash
# Sets up (packages + CMake configure), builds, and runs every test (Catch2 unit tests and the
# validation suite) through ctest. This is the README's test command; .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
build_dir=${RODCOLLIDE_BUILD_DIR:-build}
cmake --build "$build_dir" -j"$(nproc)"
ctest --test-dir "$build_dir" --output-on-failure -j"$(nproc)"
