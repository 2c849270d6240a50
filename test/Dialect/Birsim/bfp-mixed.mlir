// Per-tile mixed BFP (docs/Semantics.md section 5): the ops parse and
// print, fold through the core, and, lowered, run to the same values
// through the runtime; their rules are verified.
// RUN: birsim-opt %s | birsim-opt | FileCheck %s --check-prefix=ROUND
// RUN: birsim-opt %s -canonicalize | FileCheck %s --check-prefix=FOLD
// RUN: birsim-opt %s --birsim-to-llvm='fold-constants=false' | \
// RUN:   mlir-runner -e main --entry-point-result=void \
// RUN:     --shared-libs=%birsim_rt,%mlir_runner_utils,%mlir_c_runner_utils | \
// RUN:   FileCheck %s --check-prefix=EXEC

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

// Two tiles: codes 0x0D are tile 0 bfp4_b (1), tile 1 bfp0 (3): 576 bytes,
// the first 64 the exponents of 1.5 (127), the datums 0b0110 (1.5 at
// 3 magnitude bits), tile 1 none; the unpack gives 1.5 and +0.
// ROUND-LABEL: func.func @mixed
// ROUND: birsim.bfp_pack_mixed %{{.*}}, %{{.*}} : tensor<32x64xf32>, tensor<1xi8> -> tensor<576xi8>
// ROUND: birsim.bfp_unpack_mixed %{{.*}}, %{{.*}} transpose : tensor<576xi8>, tensor<1xi8> -> tensor<32x64xf32>
// FOLD-LABEL: func.func @mixed
// FOLD-NOT: birsim.bfp_pack_mixed
// FOLD: arith.constant dense<"0x7F7F7F
// FOLD-SAME: 6666666666
// FOLD-SAME: tensor<576xi8>
// FOLD-NOT: birsim.bfp_unpack_mixed
func.func @mixed() -> (tensor<576xi8>, tensor<32x64xf32>) {
  %m = arith.constant dense<1.5> : tensor<32x64xf32>
  %codes = arith.constant dense<13> : tensor<1xi8>
  %p = birsim.bfp_pack_mixed %m, %codes : tensor<32x64xf32>, tensor<1xi8> -> tensor<576xi8>
  %u = birsim.bfp_unpack_mixed %p, %codes transpose : tensor<576xi8>, tensor<1xi8> -> tensor<32x64xf32>
  return %p, %u : tensor<576xi8>, tensor<32x64xf32>
}

// EXEC: {{\[}}[1.5,   1.5,   0,   0]]
func.func @main() {
  %p, %u = call @mixed() : () -> (tensor<576xi8>, tensor<32x64xf32>)
  %s = tensor.extract_slice %u[5, 30] [1, 4] [1, 1] : tensor<32x64xf32> to tensor<1x4xf32>
  %buf = bufferization.to_buffer %s : tensor<1x4xf32> to memref<1x4xf32, strided<[64, 1], offset: ?>>
  %u2 = memref.cast %buf : memref<1x4xf32, strided<[64, 1], offset: ?>> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  return
}
