#!/usr/bin/env bash
# Benchmarks: (1) birsim against MLIR 22's --convert-arith-to-apfloat on the
# same fp8 kernel, side by side, with ratios; (2) every bulk call as a ratio
# to memcpy on the portable, AVX2 and (where the CPU has it) AVX-512 path,
# threads, folding against arith.addf (bench/RatioBench.cpp); (3) the runtime's bulk kernels and the
# folder on 2^20-element constants (bench/CoreBench.cpp); (4) folding
# dense_resource weights (bench/fold-resource.sh).
#   --gcc  instead, the runtime built by GCC (build-gcc/, as utils/test.sh
#          --gcc builds it) against clang's, row by row, on every path
#          (bench/compilers.py).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --gcc ]; then
  ./utils/setup.sh --gcc
  ./utils/build.sh > /dev/null
  [ -f build-gcc/build.ninja ] ||
    cmake -G Ninja -S . -B build-gcc -DCMAKE_BUILD_TYPE=Release \
      -DBIRSIM_CORE_ONLY=ON -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ > /dev/null
  cmake --build build-gcc --target birsim_runtime > /dev/null
  isas="portable avx2"
  grep -q avx512bw /proc/cpuinfo && isas="$isas avx512"
  for isa in $isas; do ./bench/compilers.py "$isa"; echo; done
  exit 0
fi
P=/usr/lib/llvm-22
./utils/setup.sh
./utils/build.sh > /dev/null
out=build/bench
mkdir -p "$out"

# The peer: arith.addf on f8E5M2 through APFloat calls. birsim: its ops
# through libbirsim_runtime.so. Same module, lowered once each way. Ratios
# of wall-clock (real) time: the bulk call may use worker threads, whose CPU
# time the process's clock would not show.
./build/bin/birsim-opt bench/kernels.mlir \
  --convert-arith-to-apfloat --birsim-to-llvm |
  "$P/bin/mlir-translate" --mlir-to-llvmir -o "$out/kernels.ll"
"$P/bin/clang++" -O2 -Wno-override-module bench/PeerBench.cpp "$out/kernels.ll" \
  -Lbuild/lib -L"$P/lib" -lbirsim_runtime -lmlir_apfloat_wrappers -lbenchmark -lpthread \
  -Wl,-rpath,"$PWD/build/lib" -Wl,-rpath,"$P/lib" -o "$out/peer-bench"

echo "== birsim vs arith-to-apfloat (fp8 E5M2 add, 2^20 elements) =="
"$out/peer-bench" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
  --benchmark_format=csv 2>/dev/null | tee "$out/peer.csv" |
  awk -F, '/_median"?,/ { gsub(/"/, "", $1); split($1, n, "/"); ns[n[2]] = $3 }
    END {
      peer = ns["apfloat_peer"]
      printf "%-22s %12s %10s\n", "kernel", "ns/element", "vs peer"
      for (k in ns) printf "%-22s %12.2f %9.1fx\n", k, ns[k] / 1048576, peer / ns[k]
    }'

echo
echo "== bulk calls / memcpy, 2^24 and 2^16 elements, best of 9 (bench/RatioBench.cpp) =="
isas="portable avx2"
grep -q avx512bw /proc/cpuinfo && isas="$isas avx512" # else it would be avx2 again
for isa in $isas; do
  BIRSIM_ISA=$isa ./build/bin/birsim-ratio-bench
done

echo
echo "== runtime bulk kernels and the folder (bench/CoreBench.cpp) =="
./build/bin/birsim-core-bench --benchmark_min_time=0.2 2>/dev/null

echo
echo "== folding dense_resource weights: time and peak RSS (bench/fold-resource.sh) =="
./bench/fold-resource.sh

echo
echo "== the Python package against NumPy and the C call (bench/python-bench.py) =="
PYTHONPATH=build/python /usr/bin/python3 bench/python-bench.py
