#!/usr/bin/env bash
# Runs each libFuzzer target for SECONDS (default 60) and prints, per target,
# a "== <target>: SECONDS s ==" line and its final stats:
#   parse       arbitrary text: parse, verify, --birsim-fidelity, canonicalize,
#               birsim-to-llvm
#   runtime     structure-aware C ABI calls against the portable core, with
#               the fidelity counters on for half the inputs
#   bfp-unpack  BFP unpack of arbitrary bytes, vector path = portable path
#   compiler    the compiler session API (birsim-c/Compiler.h): a module of
#               arbitrary bytes, then NUL-separated pipelines run on it
# By default it builds build-fuzz/ (clang-22, everything instrumented for
# coverage, ASan + UBSan). BIRSIM_FUZZ_BUILD=<dir> uses the targets of an
# existing build instead (the ASan build links them: test/Fuzz/smoke.test).
# Corpora live in $BIRSIM_FUZZ_WORK/corpus/<target> (default build-fuzz),
# seeded with every .mlir under test/ (parse; compiler: and examples/) and
# test/Fuzz/regressions/<target>, the parse dictionary built from the tables
# (utils/fuzz-dict.py; compiler: with test/Fuzz/compiler.dict's pipeline
# words). A crash is written to $BIRSIM_FUZZ_ARTIFACTS/<target>/
# (default test/Fuzz/regressions, which the default suite replays:
# test/Fuzz/replay.test) and makes the script fail.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
P=/usr/lib/llvm-22
build=${BIRSIM_FUZZ_BUILD:-}
if [ -z "$build" ]; then
  build=$PWD/build-fuzz
  ./utils/setup.sh
  if [ ! -f $build/build.ninja ]; then
    CC=$P/bin/clang CXX=$P/bin/clang++ cmake -G Ninja -S . -B $build \
      -DCMAKE_BUILD_TYPE=Release -DMLIR_DIR=$P/lib/cmake/mlir \
      -DLLVM_EXTERNAL_LIT=$P/bin/lit \
      -DLLVM_USE_SANITIZER="Address;Undefined" \
      "-DLLVM_UBSAN_FLAGS=-fsanitize=undefined -fno-sanitize=vptr,function -fno-sanitize-recover=all" \
      -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link \
      -DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link \
      -DBIRSIM_BUILD_FUZZERS=ON
  fi
  cmake --build $build --target birsim-fuzz-parse birsim-fuzz-runtime \
    birsim-fuzz-bfp-unpack birsim-fuzz-compiler birsim_runtime \
    birsim_compiler
fi
work=${BIRSIM_FUZZ_WORK:-build-fuzz}
mkdir -p "$work"
# The dictionary's tables come from the build's runtime through Python
# (utils/fuzz-dict.py). build-fuzz's runtime is instrumented for coverage
# and ASan: Python loads it with ASan's runtime and a definition of the
# coverage's stack-depth variable, which libFuzzer's main otherwise gives.
dict_env=()
if [ -z "${BIRSIM_FUZZ_BUILD:-}" ]; then
  echo '__thread unsigned long __sancov_lowest_stack;' |
    $P/bin/clang -shared -fPIC -x c - -o "$work/sancov-stack-depth.so"
  dict_env=(LD_PRELOAD="$($P/bin/clang -print-file-name=libclang_rt.asan-x86_64.so) $(cd "$work" && pwd)/sancov-stack-depth.so")
fi
artifacts=${BIRSIM_FUZZ_ARTIFACTS:-test/Fuzz/regressions}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}:abort_on_error=0
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
dict=$work/birsim.dict
env "${dict_env[@]}" ASAN_OPTIONS=detect_leaks=0 /usr/bin/python3 \
  utils/fuzz-dict.py . $build/lib/libbirsim_runtime.so > "$dict"
cat "$dict" test/Fuzz/compiler.dict > "$work/compiler.dict"
failed=0
for target in parse runtime bfp-unpack compiler; do
  corpus=$work/corpus/$target
  mkdir -p "$corpus" "$artifacts/$target"
  cp test/Fuzz/regressions/$target/* "$corpus/"
  if [ $target = parse ]; then
    find test -name '*.mlir' -not -path '*/Fuzz/*' -exec cp {} "$corpus/" \;
    extra=(-dict="$dict" -max_len=8192)
  elif [ $target = compiler ]; then
    find test examples -name '*.mlir' -not -path '*/Fuzz/*' \
      -exec cp {} "$corpus/" \;
    extra=(-dict="$work/compiler.dict" -max_len=8192)
  else
    extra=(-max_len=16384)
  fi
  echo "== $target: $seconds s =="
  log=$work/$target.log
  status=0
  LD_LIBRARY_PATH=$build/lib $build/bin/birsim-fuzz-$target "$corpus" \
    "${extra[@]}" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$artifacts/$target/" > "$log" 2>&1 || status=$?
  grep -E "^(stat::|#[0-9]+.*DONE|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)" "$log" || true
  if [ "$status" -ne 0 ]; then
    echo "birsim-fuzz-$target failed (exit $status); its log: $log"
    tail -30 "$log"
    failed=1
  fi
done
exit $failed
