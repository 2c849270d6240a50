#!/usr/bin/env bash
# Builds the libFuzzer targets (clang-22, -fsanitize=fuzzer,address,undefined)
# in build-fuzz/ and runs each for SECONDS (default 60):
#   parse       arbitrary text: parse, verify, --birsim-fidelity, canonicalize,
#               birsim-to-llvm
#   runtime     structure-aware C ABI calls against the portable core, with
#               the fidelity counters on for half the inputs
#   bfp-unpack  BFP unpack of arbitrary bytes, vector path = portable path
# Corpora live in build-fuzz/corpus/<target>, seeded with every .mlir under
# test/ (parse) and test/Fuzz/regressions/<target>. A crash is written to
# test/Fuzz/regressions/<target>/, which the default suite replays
# (test/Fuzz/replay.test). Prints each target's final stats.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
P=/usr/lib/llvm-22
./utils/setup.sh
if [ ! -f build-fuzz/build.ninja ]; then
  CC=$P/bin/clang CXX=$P/bin/clang++ cmake -G Ninja -S . -B build-fuzz \
    -DCMAKE_BUILD_TYPE=Release -DMLIR_DIR=$P/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=$P/bin/lit \
    -DLLVM_USE_SANITIZER="Address;Undefined" \
    "-DLLVM_UBSAN_FLAGS=-fsanitize=undefined -fno-sanitize=vptr,function -fno-sanitize-recover=all" \
    -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link \
    -DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link \
    -DBIRSIM_BUILD_FUZZERS=ON
fi
cmake --build build-fuzz --target birsim-fuzz-parse birsim-fuzz-runtime \
  birsim-fuzz-bfp-unpack birsim_runtime
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
for target in parse runtime bfp-unpack; do
  corpus=build-fuzz/corpus/$target
  mkdir -p "$corpus"
  cp test/Fuzz/regressions/$target/* "$corpus/"
  if [ $target = parse ]; then
    find test -name '*.mlir' -not -path '*/Fuzz/*' -exec cp {} "$corpus/" \;
    dict=build-fuzz/birsim.dict
    /usr/bin/python3 utils/fuzz-dict.py . build-fuzz/lib/libbirsim_runtime.so > "$dict"
    extra=(-dict="$dict" -max_len=8192)
  else
    extra=(-max_len=16384)
  fi
  echo "== $target: $seconds s =="
  LD_LIBRARY_PATH=build-fuzz/lib ./build-fuzz/bin/birsim-fuzz-$target "$corpus" \
    "${extra[@]}" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix=test/Fuzz/regressions/$target/ 2>&1 |
    grep -E "^(stat::|#[0-9]+.*DONE|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)" || true
done
