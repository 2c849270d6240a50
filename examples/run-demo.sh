#!/usr/bin/env bash
# The birsim demo: an fp8/bf16 embedding-bag and a BFP8 tile
# (examples/embedding-bag.mlir), folded where constant, lowered to LLVM and
# executed; then the same arithmetic through the C runtime directly.
set -euo pipefail
cd "$(dirname "$0")/.."
P=/usr/lib/llvm-22
OPT=./build/bin/birsim-opt
EXAMPLE=examples/embedding-bag.mlir

cat <<'TEXT'
== 1. Folding (birsim-opt -canonicalize) ==================================
The fp32 table is quantized by `birsim.cast` with the cast engine's default
FP8 config 0x0001 (saturate). Its operand is constant, so the op folds at
compile time through the bit-exact core. The folded fp8 table:
TEXT
folded=$("$OPT" "$EXAMPLE" -canonicalize)
grep -m1 -o 'dense<\[\[[^>]*> : tensor<5x4xf8E4M3>' <<<"$folded"
cat <<'TEXT'
  -> 1e6 saturated to 2.400000e+02 (E4M3's largest value); 200 and 100
     became 192 and 96 (ties, rounded to even).

== 2. Lowered (--birsim-to-llvm) and executed (mlir-runner) ===============
Every remaining birsim op is a call into build/lib/libbirsim_runtime.so.
TEXT
"$OPT" "$EXAMPLE" --birsim-to-llvm |
  "$P/bin/mlir-runner" -e main --entry-point-result=void \
    --shared-libs=build/lib/libbirsim_runtime.so,$P/lib/libmlir_runner_utils.so,$P/lib/libmlir_c_runner_utils.so |
  grep -v '^Unranked Memref'
cat <<'TEXT'
What the simulator does here, and the output shows:
  * fp8 bag 0, dim 0: 192 + 96 overflows E4M3. The reduce path narrows with
    FP8 config 0 (no saturation), so the sum is +Inf (bits 120 = 0x78), not
    240, although the cast engine saturated 1e6 to 240 a step earlier.
  * fp8 bag 0, dim 3: 240 + (-3) = 237 rounds back to 240 (E4M3 steps by 16).
  * bf16 bag 0, dim 3: 999424 + (-3) is 999424: bf16 keeps 8 significant bits.
  * BFP8_b: row 0 shares the exponent of 1e6 (field 146), so 200, 1 and 0.5
    in the same 16-value block become 0; other rows keep their precision.
  * The cce_op of dma_copy / indirect_save_accumulate must be bypass or add:
    the simulator asserts on min/max (birsim-opt rejects them).

== 3. The same kernels through the C runtime (examples/runtime-demo.c) =====
TEXT
./build/bin/birsim-runtime-demo
cat <<'TEXT'

== 4. Where values are lost (docs/Fidelity.md) ============================
At compile time, --birsim-fidelity counts on constant operands what the
simulator's numerics do to each value, and says where it cannot count:
TEXT
"$OPT" "$EXAMPLE" --birsim-fidelity -mlir-print-op-on-diagnostic=false \
  -o /dev/null 2>&1 | grep remark
cat <<'TEXT'
At run time, --birsim-to-llvm=fidelity-counters=true makes the program count
the same events in every counted call and print one line per call site at
exit (the fp8 bag sum that became +Inf is the reduce line):
TEXT
"$OPT" "$EXAMPLE" --birsim-to-llvm=fidelity-counters=true |
  "$P/bin/mlir-runner" -e main --entry-point-result=void \
    --shared-libs=build/lib/libbirsim_runtime.so,$P/lib/libmlir_runner_utils.so,$P/lib/libmlir_c_runner_utils.so \
    2>&1 >/dev/null | grep '^birsim-fidelity'

cat <<'TEXT'

== 5. From Python (examples/python/golden.py, docs/Python.md) =============
A ttnn-style golden for from_torch(x, bfloat8_b/bfloat4_b/bfloat2_b) on a
bf16 matrix, an fp8 embedding bag as the simulator sums it, their fidelity
counts, and a picture of each BFP format's per-block error:
TEXT
PYTHONPATH=build/python /usr/bin/python3 examples/python/golden.py build/bfp-block-error.png
