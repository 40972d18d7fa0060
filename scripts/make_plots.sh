#!/usr/bin/env bash
# Regenerates the reference pictures in plots/ that the README and docs/diagrams.md show.
# Builds rodcollide first if needed. Each picture gets its gnuplot script and data beside it
# (plots/*.gp, plots/*.dat, not committed: this script makes them again).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
build_dir=${RODCOLLIDE_BUILD_DIR:-build}
cmake --build "$build_dir" -j"$(nproc)" --target rodcollide >/dev/null
rodcollide="$build_dir/rodcollide"
mkdir -p plots

draw() {
  echo "make_plots: $*" >&2
  "$rodcollide" "$@" >/dev/null
}

# Winandy & Leine 2015 Fig. 6(a) and 6(b): characteristics diagrams with the region states of eqs (33), (35).
# The sizes make x/l and t c/l equally long, so fronts run at 45 degrees as in the paper.
draw diagram cases/seed000_two_rods.toml --out plots/seed000_two_rods.png --size 600x900
draw diagram cases/seed000_three_rods.toml --out plots/seed000_three_rods.png --size 700x1000

# A field plot: the compression pulse of de Saint-Venant's short striker running into the target.
draw diagram cases/saint_venant_short_striker.toml --kind force --out plots/saint_venant_short_striker-force.png
# Its displacement diagram: the striker stops, the target leaves.
draw diagram cases/saint_venant_short_striker.toml --kind displacement \
  --out plots/saint_venant_short_striker-displacement.png

# A split Hopkinson bar: the incident, reflected and transmitted pulses at the two bars' gauges.
draw diagram cases/ends/split_hopkinson_bar.toml --kind gauges --out plots/split_hopkinson_bar-gauges.png

# The empirical cone map of the wave impact law: identical rods (Winandy & Leine's six cones
# exactly) and rods of lengths (1, 2, 1), whose cone boundaries move and whose map is no longer non-expansive.
draw sweep cases/seed000_three_rods.toml --directions 3600 --plot plots/cone_map_identical_rods.png
draw sweep cases/rods_1_2_1.toml --directions 3600 --plot plots/cone_map_rods_1_2_1.png
# Four rods: the sphere of gamma- directions in Lambert's equal-area projection (docs/sweep.md).
draw sweep cases/cones/four_identical_rods.toml --directions 4000 --plot plots/cone_map_four_identical_rods.png
draw sweep cases/cones/rods_1_2_2_1.toml --directions 4000 --plot plots/cone_map_rods_1_2_2_1.png

# The Python examples of docs/python.md: de Saint-Venant's striker/target length ratio swept, and a
# split Hopkinson bar's gauges and specimen forces.
echo "make_plots: docs/python.md examples" >&2
cmake --build "$build_dir" -j"$(nproc)" --target rodcollide_python >/dev/null
example_dir=$(mktemp -d)
trap 'rm -rf "$example_dir"' EXIT
PYTHONPATH="$build_dir/python" /usr/bin/python3 scripts/run_docs_example.py "$example_dir" >/dev/null
mv "$example_dir/length_ratio.png" plots/python_length_ratio.png
mv "$example_dir/split_hopkinson_bar.png" plots/python_split_hopkinson_bar.png

# Issue 24: the coefficient of restitution of two identical rods with rounded ends against
# lambda = c tau_H / L (61 finite-difference runs at 1e-5 V, about a minute).
echo "make_plots: restitution against lambda" >&2
PYTHONPATH="$build_dir/python" /usr/bin/python3 bench/study/restitution_vs_lambda.py --out plots/restitution_vs_lambda.png 2>/dev/null

echo "make_plots: plots/ is up to date" >&2
