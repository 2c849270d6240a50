#!/usr/bin/env bash
# Sets up, builds and runs every birsim test; ends with "N passed, N failed".
#   --long      also runs the exhaustive vector-vs-portable sweeps (every bf16
#               and fp16 pair, 10^8 random fp32 values; tens of minutes) and
#               the DMA's every 16-bit destination against every binade,
#               and the SFPU against its plain implementation (2^24 FMA
#               triples, every immediate, 200,000 random programs),
#               counted as one more test.
#   --sanitize  builds build-sanitize/ with ASan + UBSan and runs the whole
#               suite there (any report fails its test).
#   --tsan      builds build-tsan/ with ThreadSanitizer and runs the threaded
#               tests there (any report fails its test).
#   --aarch64   cross-builds the core, the runtime and their unit tests for
#               aarch64 (build-aarch64/, core-only, clang-22 + lld) and runs
#               them under qemu-user on the portable path, instead of the
#               suite above.
#   --gcc       builds the core, the runtime and their unit tests with GCC
#               (build-gcc/, core-only, g++-12) and runs them on every path
#               this CPU has, instead of the suite above.
#   --pypi      the Python suite on a current stack from PyPI, instead of
#               the suite above: a virtual environment (build-pypi/venv, from
#               /usr/bin/python3) with utils/pypi-requirements.txt's pins
#               (NumPy 2, ml_dtypes, PyTorch 2, pytest, Hypothesis), birsim
#               pip-installed into it from this clone (pyproject.toml: the
#               runtime alone; its build folder is checked to have read no
#               LLVM or MLIR file), and every test/Python/test_*.py run
#               there with the installed package.
#   --avx512-emulated  also runs the vector-path tests on an emulated AVX-512
#               CPU (utils/avx512-emulated.sh; 15-20 minutes), counted as
#               one more test; with --long, its long pass too (an hour and a
#               half more).
set -uo pipefail
cd "$(dirname "$0")/.."
long=0
emulated=0
core_only=""
build=build
build_args=()
lit_args=()
for arg in "$@"; do
  case "$arg" in
    --long) long=1 ;;
    --avx512-emulated) emulated=1 ;;
    --sanitize) build=build-sanitize; build_args=(--sanitize) ;;
    --tsan)
      build=build-tsan; build_args=(--tsan)
      # Runtime from 8 threads, BFP tie counters, worker threads, folding
      # with MLIR's threaded pass manager, and the negative control.
      # (GTEST_FILTER picks the unit tests: test/lit_sanitizer.py.)
      lit_args=(--filter 'BIRSIM-Unit|fold-multithreaded|tsan-') ;;
    --aarch64) core_only=aarch64 ;;
    --gcc) core_only=gcc ;;
    --pypi) exec ./utils/test-pypi.sh ;;
    *) echo "usage: $0 [--long] [--avx512-emulated] [--sanitize|--tsan|--aarch64|--gcc|--pypi]" >&2
       exit 2 ;;
  esac
done
if [ -n "$core_only" ]; then
  # A core-only build (build-<mode>/): aarch64 cross-built with clang-22, or
  # GCC on this machine; ctest runs its unit tests.
  ./utils/setup.sh "--$core_only" || exit 1
  dir="build-$core_only"
  if [ ! -f "$dir/build.ninja" ]; then
    if [ "$core_only" = aarch64 ]; then
      compiler=(-DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake)
    else
      compiler=(-DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++)
    fi
    cmake -G Ninja -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release \
      -DBIRSIM_CORE_ONLY=ON "${compiler[@]}" || exit 1
  fi
  cmake --build "$dir" || exit 1
  # ctest's summary line, then the plain count.
  (cd "$dir" && ctest --output-on-failure)
  rc=$?
  total=$(cd "$dir" && ctest -N | sed -n 's/^Total Tests: //p')
  failed=0; [ "$rc" -ne 0 ] && failed=$(cd "$dir" && ctest -N --rerun-failed 2>/dev/null | sed -n 's/^Total Tests: //p')
  echo "$(( ${total:-0} - ${failed:-0} )) passed, ${failed:-0} failed"
  exit "$rc"
fi
./utils/setup.sh || exit 1
./utils/build.sh "${build_args[@]}" || exit 1
LIT=/usr/lib/llvm-22/bin/lit
log=$(mktemp)
"$LIT" -v --no-progress-bar "${lit_args[@]}" "$build/test" "$build/test/Unit" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
count() { grep -a -E "^ *$1 *: +[0-9]+" "$log" | sed -E "s/^ *$1 *: +([0-9]+).*/\1/" | head -1; }
passed=$(count Passed); failed=$(count Failed)
unresolved=$(count Unresolved); timed=$(count "Timed Out")
failed=$(( ${failed:-0} + ${unresolved:-0} + ${timed:-0} ))
passed=${passed:-0}
rm -f "$log"
if [ "$long" -eq 1 ]; then
  echo "== long: every bf16/fp16 pair, 10^8 random fp32 values, on every path =="
  if BIRSIM_LONG_TESTS=1 "$build/test/Unit/BirsimSimdTests" --gtest_filter='VectorPath.*' &&
     BIRSIM_LONG_TESTS=1 "$build/test/Unit/BirsimCoreTests" --gtest_filter='DmaCompute.*:SfpuVsPlain.*'; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); rc=1
  fi
fi
if [ "$emulated" -eq 1 ]; then
  echo "== avx512-emulated: the vector paths on an emulated AVX-512 CPU =="
  emulated_args=()
  [ "$long" -eq 1 ] && emulated_args=(--long)
  if ./utils/avx512-emulated.sh "${emulated_args[@]}"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); rc=1
  fi
fi
echo "${passed} passed, ${failed} failed"
if [ "$rc" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then exit 1; fi
