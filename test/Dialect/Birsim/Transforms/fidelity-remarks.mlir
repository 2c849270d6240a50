// RUN: birsim-opt %s --birsim-fidelity -split-input-file -verify-diagnostics \
// RUN:   -mlir-print-op-on-diagnostic=false | FileCheck %s

// The analysis leaves the IR as it was.
// CHECK-LABEL: func.func @reduce_overflows
// CHECK: birsim.reduce add
func.func @reduce_overflows() -> tensor<4xf8E4M3> {
  %x = arith.constant dense<[240.0, -240.0, 1.0, 128.0]> : tensor<4xf8E4M3>
  %y = arith.constant dense<[240.0, -16.0, 1.0, 128.0]> : tensor<4xf8E4M3>
  // expected-remark @+1 {{'f8E4M3' reduce add: 3 of 4 sums overflow to ±Inf on the simulator where a saturating narrow gives ±240 (first at index 0)}}
  %r = birsim.reduce add %x, %y : tensor<4xf8E4M3>
  return %r : tensor<4xf8E4M3>
}

// -----

// Splats and scalars; E5M2 and E3M4 print their own largest value.
func.func @splat_and_scalar() -> (tensor<2x2xf8E5M2>, f8E3M4) {
  %x = arith.constant dense<57344.0> : tensor<2x2xf8E5M2>
  // expected-remark @+1 {{'f8E5M2' reduce add: 4 of 4 sums overflow to ±Inf on the simulator where a saturating narrow gives ±57344 (first at index 0)}}
  %r = birsim.reduce add %x, %x : tensor<2x2xf8E5M2>
  %s = arith.constant 15.5 : f8E3M4
  // expected-remark @+1 {{'f8E3M4' reduce add: 1 of 1 sums overflow to ±Inf on the simulator where a saturating narrow gives ±15.5 (first at index 0)}}
  %t = birsim.reduce add %s, %s : f8E3M4
  return %r, %t : tensor<2x2xf8E5M2>, f8E3M4
}

// -----

// No overflow, no remark; min/max and bf16 add are not fp8 adds.
func.func @quiet(%a: tensor<2xbf16>) -> (tensor<2xf8E4M3>, tensor<2xf8E4M3>, tensor<2xbf16>) {
  %x = arith.constant dense<[1.0, 2.0]> : tensor<2xf8E4M3>
  %r = birsim.reduce add %x, %x : tensor<2xf8E4M3>
  %y = arith.constant dense<240.0> : tensor<2xf8E4M3>
  %m = birsim.reduce max %y, %y : tensor<2xf8E4M3>
  %b = birsim.reduce add %a, %a : tensor<2xbf16>
  return %r, %m, %b : tensor<2xf8E4M3>, tensor<2xf8E4M3>, tensor<2xbf16>
}

// -----

// fp8 adds the analysis cannot count.
func.func @uncounted(%a: tensor<4xf8E4M3>, %d: memref<4xf8E5M2>, %s: memref<4xf8E5M2>,
                     %i: memref<4xi64>) -> tensor<4xf8E4M3> {
  // expected-remark @+1 {{'f8E4M3' add not counted (operands are not constants): the simulator's reduce path narrows with FP8 config 0 and does not saturate, so a sum beyond ±240 becomes ±Inf where a saturating narrow gives ±240}}
  %r = birsim.reduce add %a, %a : tensor<4xf8E4M3>
  // expected-remark @+1 {{'f8E5M2' add not counted (buffer operands are known only at run time)}}
  birsim.reduce_into add %d, %s : memref<4xf8E5M2>
  // expected-remark @+1 {{'f8E5M2' add not counted (buffer operands are known only at run time)}}
  birsim.dma_copy add %s to %d : memref<4xf8E5M2> to memref<4xf8E5M2>
  // expected-remark @+1 {{'f8E5M2' add not counted (buffer operands are known only at run time)}}
  birsim.indirect_save_accumulate add %s to %d[%i] : memref<4xf8E5M2>, memref<4xi64> to memref<4xf8E5M2>
  // A bypass copies: nothing to say.
  birsim.indirect_save bypass %s to %d[%i] : memref<4xf8E5M2>, memref<4xi64> to memref<4xf8E5M2>
  return %r : tensor<4xf8E4M3>
}

// -----

// Casts under each FP8 config.
func.func @casts() -> (tensor<8xf8E4M3>, tensor<8xf8E4M3>, tensor<8xf8E4M3FN>, tensor<3xi8>) {
  %c = arith.constant dense<[1.0e6, 0x7F800000, 0x7FC00000, 1.0e-9, 1.1, 2.0, -1.0e6, 0.0]> : tensor<8xf32>
  // expected-remark @+1 {{cast 'f32' to 'f8E4M3' (fp8_config<none>): of 8 values, 2 overflow_to_inf (first at index 0), 1 inexact (first at index 4), 1 underflow_to_zero (first at index 3)}}
  %a = birsim.cast %c fp8_config<none> : tensor<8xf32> to tensor<8xf8E4M3>
  // expected-remark @+1 {{cast 'f32' to 'f8E4M3' (fp8_config<saturate | nan_suppress>): of 8 values, 3 saturated (first at index 0), 1 nan_suppressed (first at index 2), 1 inexact (first at index 4), 1 underflow_to_zero (first at index 3)}}
  %b = birsim.cast %c fp8_config<saturate | nan_suppress> : tensor<8xf32> to tensor<8xf8E4M3>
  // E4M3FN has no Inf: without saturation a finite overflow becomes NaN.
  // expected-remark @+1 {{cast 'f32' to 'f8E4M3FN' (fp8_config<none>): of 8 values, 2 overflow_to_nan (first at index 0), 1 inexact (first at index 4), 1 underflow_to_zero (first at index 3)}}
  %e = birsim.cast %c fp8_config<none> : tensor<8xf32> to tensor<8xf8E4M3FN>
  // Integer targets clamp out-of-range values and write NaN as an integer.
  %i = arith.constant dense<[300.0, 0x7FC00000, -2.5]> : tensor<3xf32>
  // expected-remark @+1 {{cast 'f32' to 'i8': of 3 values, 1 saturated (first at index 0), 1 nan_suppressed (first at index 1), 1 inexact (first at index 2)}}
  %j = birsim.cast %i : tensor<3xf32> to tensor<3xi8>
  return %a, %b, %e, %j : tensor<8xf8E4M3>, tensor<8xf8E4M3>, tensor<8xf8E4M3FN>, tensor<3xi8>
}

// -----

// Exact casts say nothing.
func.func @exact_cast() -> tensor<2xbf16> {
  %c = arith.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %b = birsim.cast %c : tensor<2xf32> to tensor<2xbf16>
  return %b : tensor<2xbf16>
}

// -----

func.func @bfp() -> (tensor<1x576xi8>, tensor<1x1088xi8>) {
  // 1e-30 is below the "a" formats' 5-bit exponent range: raised to 2^-15
  // on the host; the "a" formats have no device path, so no device_differs.
  %t = arith.constant dense<1.0e-30> : tensor<1x32x32xf32>
  // expected-remark @+1 {{bfp_pack bfp4_a: of 1024 values, 1024 exponent_clamped (first at index 0)}}
  %p = birsim.bfp_pack bfp4_a %t : tensor<1x32x32xf32> -> tensor<1x576xi8>
  // Denormals flush to zero in every format.
  %d = arith.constant dense<1.0e-40> : tensor<1x32x32xf32>
  // expected-remark @+1 {{bfp_pack bfp8_b: of 1024 values, 1024 flushed_to_zero (first at index 0)}}
  %q = birsim.bfp_pack bfp8_b %d : tensor<1x32x32xf32> -> tensor<1x1088xi8>
  // 1.375 in bfp4_b: the host's datum 0b110, the packer's at fp32_dest
  // 0b101 (docs/Semantics.md section 5, the device's bytes).
  %r = arith.constant dense<1.375> : tensor<1x32x32xf32>
  // expected-remark @+1 {{bfp_pack bfp4_b: of 1024 values, 1024 rounding_ties (first at index 0), 1024 device_differs (first at index 0)}}
  %s = birsim.bfp_pack bfp4_b %r : tensor<1x32x32xf32> -> tensor<1x576xi8>
  return %p, %q : tensor<1x576xi8>, tensor<1x1088xi8>
}

// -----

// tt-metal #57410: 1.375 in BFP4_b is 0b110 on the host (a tie, to even)
// and 0b101 on the device (BFP8 first, then truncated): every element.
func.func @bfp_matrix_device() -> tensor<1x576xi8> {
  %m = arith.constant dense<1.375> : tensor<32x32xbf16>
  // expected-remark @+1 {{bfp_pack_matrix bfp4_b: of 1024 values, 1024 rounding_ties (first at index 0), 1024 device_differs (first at index 0)}}
  %p = birsim.bfp_pack_matrix bfp4_b %m tile [32, 32] transpose : tensor<32x32xbf16> -> tensor<1x576xi8>
  return %p : tensor<1x576xi8>
}
