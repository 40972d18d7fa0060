#!/usr/bin/env bash
# Builds the libFuzzer target fuzz/case_fuzzer.cpp (clang++-16, AddressSanitizer and
# UndefinedBehaviorSanitizer) in ./build-fuzz and fuzzes case-file text, seeded from cases/ and
# validation/. Arguments go to libFuzzer; without any it runs for 60 s.
#   scripts/fuzz.sh                       # the short run (as in ctest)
#   scripts/fuzz.sh -runs=100000          # a fixed number of inputs
#   scripts/fuzz.sh -max_total_time=3600 -jobs=2
# Prints the counts at the end ("rodcollide fuzz: N inputs, ..."); a crash, a sanitizer report or
# a defect stops the run with status != 0 and leaves the input in build-fuzz/crash-*.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${RODCOLLIDE_FUZZ_BUILD_DIR:-build-fuzz}
cxx=${RODCOLLIDE_FUZZ_CXX:-clang++-16}
command -v "$cxx" >/dev/null || { echo "fuzz.sh: $cxx not found (apt-get install clang-16 libclang-rt-16-dev)" >&2; exit 2; }
if [[ ! -f "$build_dir/CMakeCache.txt" ]]; then
  cmake -S . -B "$build_dir" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DRODCOLLIDE_FUZZ=ON -DRODCOLLIDE_PYTHON=OFF >/dev/null
fi
cmake --build "$build_dir" -j"${RODCOLLIDE_FUZZ_JOBS:-$(nproc)}" --target rodcollide_case_fuzzer >/dev/null

# The seeds: every TOML file of cases/ and validation/ (validation files are not case files, but
# their text is good material), and the regressions.
seeds="$build_dir/seeds"
rm -rf "$seeds" && mkdir -p "$seeds" "$build_dir/corpus"
i=0
while IFS= read -r -d '' f; do cp "$f" "$seeds/$((i++))-$(basename "$f")"; done \
  < <(find cases validation fuzz/regressions -name '*.toml' -print0)

args=("$@")
((${#args[@]})) || args=(-max_total_time=60)
RODCOLLIDE_FUZZ_STATS=1 "$build_dir/rodcollide_case_fuzzer" -max_len=4096 -timeout=20 -rss_limit_mb=2048 \
  -artifact_prefix="$build_dir/" -print_final_stats=1 "${args[@]}" "$build_dir/corpus" "$seeds"
