#!/usr/bin/env bash
# Sets up (packages + CMake configure), builds, and runs a real case: the three-rod collision of
# Winandy & Leine (2015, §4.2). Prints the outcome and writes its characteristics diagram.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
build_dir=${RODCOLLIDE_BUILD_DIR:-build}
cmake --build "$build_dir" -j"$(nproc)" --target rodcollide
mkdir -p "$build_dir/demo"
"$build_dir/rodcollide" run cases/seed000_three_rods.toml --plot "$build_dir/demo/seed000_three_rods.png"
echo "diagram: $build_dir/demo/seed000_three_rods.png (data and gnuplot script beside it)"
