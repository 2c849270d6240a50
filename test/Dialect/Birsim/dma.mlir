// RUN: birsim-opt %s -split-input-file | birsim-opt -split-input-file | FileCheck %s --check-prefix=ROUND
// RUN: birsim-opt %s -split-input-file -canonicalize | FileCheck %s
// RUN: birsim-opt %s -split-input-file --birsim-fidelity -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// The DMA's arithmetic across dtypes (docs/Semantics.md section 8) prints
// as written, defaults elided, and folds through the core.

// ROUND-LABEL: func.func @psum
// ROUND: birsim.dma_compute add %arg0, %arg1 : tensor<4xbf16>, tensor<4xf32> -> tensor<4xbf16>
// ROUND: birsim.dma_compute max %arg1, %arg0, %arg1 {fp8_config = #birsim.fp8_config<none>} : tensor<4xf32>, tensor<4xbf16>, tensor<4xf32> -> tensor<4xf8E4M3>
// ROUND: birsim.dma_compute add %arg1 {rounding = #birsim.rounding<stochastic>, seed = 7 : i64} : tensor<4xf32> -> tensor<4xbf16>
func.func @psum(%psum: tensor<4xbf16>, %mm: tensor<4xf32>)
    -> (tensor<4xbf16>, tensor<4xf8E4M3>, tensor<4xbf16>) {
  %0 = birsim.dma_compute add %psum, %mm : tensor<4xbf16>, tensor<4xf32> -> tensor<4xbf16>
  %1 = birsim.dma_compute max %mm, %psum, %mm {fp8_config = #birsim.fp8_config<none>}
      : tensor<4xf32>, tensor<4xbf16>, tensor<4xf32> -> tensor<4xf8E4M3>
  %2 = birsim.dma_compute add %mm {rounding = #birsim.rounding<stochastic>, seed = 7 : i64}
      : tensor<4xf32> -> tensor<4xbf16>
  return %0, %1, %2 : tensor<4xbf16>, tensor<4xf8E4M3>, tensor<4xbf16>
}

// -----

// Trainium3's bf16 PSUM accumulation, folded: 1 + 2^-8 ties to 1, 1 + 1.5 *
// 2^-8 rounds up, 256 + 1 ties to 256, Inf + -Inf is bf16's NaN.
// CHECK-LABEL: func.func @psum_fold
// CHECK: arith.constant dense<[1.000000e+00, 1.007810e+00, 2.560000e+02, 0x7FC0]> : tensor<4xbf16>
// REMARK: remark: dma_compute add into 'bf16': of 4 results, 3 inexact (first at index 0)
func.func @psum_fold() -> tensor<4xbf16> {
  %psum = arith.constant dense<[1.0, 1.0, 256.0, 0x7F80]> : tensor<4xbf16>
  %mm = arith.constant dense<[0.00390625, 0.005859375, 1.0, 0xFF800000]> : tensor<4xf32>
  %0 = birsim.dma_compute add %psum, %mm : tensor<4xbf16>, tensor<4xf32> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// An int32 above 2^24 into bf16 rounds twice (docs/Semantics.md section 8):
// 2^24 (0x4B80), where one rounding gives 2^24 + 2^17 (1.690830e+07).
// CHECK-LABEL: func.func @int32_twice
// CHECK: arith.constant dense<1.677720e+07> : tensor<1xbf16>
func.func @int32_twice() -> tensor<1xbf16> {
  %x = arith.constant dense<16842753> : tensor<1xi32>
  %0 = birsim.dma_compute add %x : tensor<1xi32> -> tensor<1xbf16>
  return %0 : tensor<1xbf16>
}

// -----

// A stochastic splat folds element by element, the same for the same seed.
// CHECK-LABEL: func.func @stochastic_splat
// CHECK: %[[C:.*]] = arith.constant dense<[
// CHECK: return %[[C]], %[[C]]
func.func @stochastic_splat() -> (tensor<64xbf16>, tensor<64xbf16>) {
  %x = arith.constant dense<1.00244140625> : tensor<64xf32>
  %0 = birsim.dma_compute add %x {rounding = #birsim.rounding<stochastic>, seed = 5 : i64}
      : tensor<64xf32> -> tensor<64xbf16>
  %1 = birsim.dma_compute add %x {rounding = #birsim.rounding<stochastic>, seed = 5 : i64}
      : tensor<64xf32> -> tensor<64xbf16>
  return %0, %1 : tensor<64xbf16>, tensor<64xbf16>
}

// -----

// ROUND-LABEL: func.func @buffers
// ROUND: birsim.dma_compute_into add %arg0, %arg1 to %arg0 : memref<8xbf16>, memref<8xf32> to memref<8xbf16>
// ROUND: birsim.dma_scatter add %arg1 to %arg0[%arg2] {seed = 3 : i64} : memref<8xf32>, memref<8xi64> to memref<8xbf16>
func.func @buffers(%psum: memref<8xbf16>, %mm: memref<8xf32>, %idx: memref<8xi64>) {
  birsim.dma_compute_into add %psum, %mm to %psum : memref<8xbf16>, memref<8xf32> to memref<8xbf16>
  birsim.dma_scatter add %mm to %psum[%idx] {seed = 3 : i64} : memref<8xf32>, memref<8xi64> to memref<8xbf16>
  return
}
