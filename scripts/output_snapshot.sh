#!/usr/bin/env bash
# Writes every public output rodcollide produces on the files in cases/ (cases/ends/ too) and
# validation/ into one directory, so that a refactoring can prove it changed no behaviour:
#   scripts/output_snapshot.sh before/ && <change> && scripts/output_snapshot.sh after/ && diff -r before after
# Covers: run (table and --json, both methods), compare --json, sweep CSV of three-rod cases,
# laws --json, validate (its table without the timing line), and the bad-input messages of
# tests/bad_cases if present. Uses $RODCOLLIDE_BUILD_DIR/rodcollide (default build/).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/output_snapshot.sh OUTPUT_DIR}
bin=${RODCOLLIDE_BUILD_DIR:-build}/rodcollide
[[ -x $bin ]] || { echo "output_snapshot: build $bin first" >&2; exit 2; }
mkdir -p "$out"

record() {  # record NAME COMMAND...: stdout, stderr and exit status of one command
    local name=$1
    shift
    local status=0
    "$@" >"$out/$name.out" 2>"$out/$name.err" || status=$?
    echo "$status" >"$out/$name.status"
}

for f in cases/*.toml cases/ends/*.toml validation/cases/*.toml; do
    name=$(basename "${f%.toml}")
    [[ $f == cases/ends/* ]] && name=ends-$name
    record "run-$name" "$bin" run "$f"
    record "run-json-$name" "$bin" run "$f" --json
    record "run-fd-json-$name" "$bin" run "$f" --json --method finite-difference
    record "compare-json-$name" "$bin" compare "$f" --json
done
for f in cases/seed000_three_rods.toml cases/rods_1_2_1.toml; do
    name=$(basename "${f%.toml}")
    record "sweep-$name" "$bin" sweep "$f" --directions 720 --laws sequential,newton --csv "$out/sweep-$name.csv"
done
for law in sequential newton poisson kinematic; do
    record "laws-$law" "$bin" laws --law "$law" --masses 1,2,3,1 --velocities 3,0,-1,0 --json
done
record validate "$bin" validate validation
# The suite's timing line differs from run to run.
sed -i -E 's/ in [0-9.]+ ?m?s\b//' "$out/validate.out"
echo "output_snapshot: $(ls "$out" | wc -l) files in $out" >&2
