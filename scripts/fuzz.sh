#!/usr/bin/env bash
# Builds the libFuzzer target fuzz/case_fuzzer.cpp (clang++-16, AddressSanitizer and
# UndefinedBehaviorSanitizer; the library and the fuzzer only) in ./build-fuzz and fuzzes
# case-file text, seeded from cases/, validation/cases/ and fuzz/regressions/, with the
# structure-aware mutations of fuzz/case_mutator.hpp and the tokens of fuzz/case.dict.
# Arguments go to libFuzzer; without any it runs for 60 s (ctest's fuzz_short runs this).
#   scripts/fuzz.sh                                  # the short run, as in CI
#   RODCOLLIDE_FUZZ_JOBS=1 scripts/fuzz.sh -runs=100000   # a fixed number of inputs, one core
#   scripts/fuzz.sh -max_total_time=3600 -jobs=2 -workers=2  # the long run, before a release
# Prints the counts at the end ("rodcollide fuzz: N inputs, ..."). A crash, a sanitizer report or
# a defect stops the run with status != 0 and prints the reproducer's path and contents (base64).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${RODCOLLIDE_FUZZ_BUILD_DIR:-build-fuzz}
cxx=${RODCOLLIDE_FUZZ_CXX:-clang++-16}
command -v "$cxx" >/dev/null || { echo "fuzz.sh: $cxx not found (apt-get install clang-16 libclang-rt-16-dev)" >&2; exit 2; }
if [[ ! -f "$build_dir/CMakeCache.txt" ]]; then
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S . -B "$build_dir" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DRODCOLLIDE_FUZZ=ON -DRODCOLLIDE_PYTHON=OFF -DRODCOLLIDE_FUZZ_IN_CTEST=OFF "${launcher[@]}" >/dev/null
fi
cmake --build "$build_dir" -j"${RODCOLLIDE_FUZZ_JOBS:-$(nproc)}" --target rodcollide_case_fuzzer >/dev/null

# The seeds: every case file of cases/, validation/cases/ and fuzz/regressions/. (Not the
# validation files validation/*.toml: never readable as a case, their mutants filled a third of a
# run with "check: unknown key".)
seeds="$build_dir/seeds"
rm -rf "$seeds" && mkdir -p "$seeds" "$build_dir/corpus"
i=0
# Whole-line comments go: they only slow the parser and take mutations.
while IFS= read -r -d '' f; do
  sed '/^[[:space:]]*#/d' "$f" >"$seeds/$i-$(basename "$f")"
  i=$((i + 1))
done \
  < <(find cases validation/cases fuzz/regressions -name '*.toml' -print0 | sort -z)

# Sanitizer reports with file:line (llvm-16's symbolizer, when installed).
symbolizer=/usr/lib/llvm-16/bin/llvm-symbolizer
[[ -x $symbolizer ]] && export ASAN_SYMBOLIZER_PATH=$symbolizer UBSAN_SYMBOLIZER_PATH=$symbolizer
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

args=("$@")
((${#args[@]})) || args=(-max_total_time=60)
started="$build_dir/.fuzz-started"
touch "$started"
# The whole log goes to $log (on a terminal, to the screen too); the end of it is printed, so a
# test log (ctest) holds the counts, or the report and the reproducer, however long the run.
log="$build_dir/fuzz.log"
out=/dev/null
[[ -t 1 ]] && out=/dev/stdout
# Inputs whose outcome violated an invariant (refused, exit 1 in the CLI: not a defect of the
# run, but worth a look) are kept in $violations.
violations="$build_dir/violations"
mkdir -p "$violations"
# RODCOLLIDE_FUZZ_KEEP_GOING=1: a defect that is an exception (an outcome failing the re-check,
# non-finite JSON, an unexpected exception) does not stop the run: it goes to $defects, and the
# run fails at its end. Crashes and sanitizer reports still stop it.
defects="$build_dir/defects"
keep_going=()
if [[ -n ${RODCOLLIDE_FUZZ_KEEP_GOING:-} ]]; then
  mkdir -p "$defects"
  keep_going=(RODCOLLIDE_FUZZ_DEFECTS="$defects")
fi
status=0
env RODCOLLIDE_FUZZ_STATS=1 RODCOLLIDE_FUZZ_VIOLATIONS="$violations" "${keep_going[@]}" "$build_dir/rodcollide_case_fuzzer" -max_len=4096 -timeout=20 -rss_limit_mb=2048 \
  -mutate_depth=1 -entropic=0 -dict=fuzz/case.dict -artifact_prefix="$build_dir/" -print_final_stats=1 \
  "${args[@]}" "$build_dir/corpus" "$seeds" 2>&1 | tee "$log" >"$out" || status=${PIPESTATUS[0]}
if ((status == 0)); then
  [[ -t 1 ]] || grep -E '^(Done|stat::|rodcollide fuzz)' "$log"
  kept=$(find "$violations" -newer "$started" -type f | wc -l)
  ((kept == 0)) || echo "fuzz.sh: $kept inputs whose outcome violated an invariant (refused) are in $violations/"
  if [[ -d $defects ]] && found=$(find "$defects" -newer "$started" -name 'defect-*.txt' | wc -l) && ((found)); then
    echo "fuzz.sh: $found inputs with defects, each with its message, are in $defects/"
    exit 1
  fi
  exit 0
fi
[[ -t 1 ]] || tail -n 60 "$log"
found=0
while IFS= read -r -d '' f; do
  found=1
  echo "fuzz.sh: defect found; reproducer: $f ($(wc -c <"$f") bytes)"
  echo "fuzz.sh: its contents, base64 (decode with base64 -d): $(base64 -w0 "$f")"
  echo "fuzz.sh: rerun: $build_dir/rodcollide_case_fuzzer $f; then add it to fuzz/regressions/ with the fix"
done < <(find "$build_dir" -maxdepth 1 -newer "$started" \
           \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) -print0)
((found)) || echo "fuzz.sh: the fuzzer failed (status $status) without leaving a reproducer; the log: $log"
exit "$status"
