// RUN: birsim-opt %s -canonicalize -split-input-file | FileCheck %s

// Every reducing dtype x add/min/max folds through the core (docs/Semantics.md
// sections 2-3). Inputs are hex bit patterns.

// CHECK-LABEL: func.func @fp8_e4m3
// 240 + 240 overflows to +Inf (FP8 config 0); min/max of a NaN src keep dst.
// CHECK-DAG: %[[INF:.*]] = arith.constant 0x78 : f8E4M3
// CHECK-DAG: %[[MAX:.*]] = arith.constant 2.400000e+02 : f8E4M3
// CHECK: return %[[INF]], %[[MAX]], %[[MAX]]
func.func @fp8_e4m3() -> (f8E4M3, f8E4M3, f8E4M3) {
  %a = arith.constant 0x77 : f8E4M3
  %nan = arith.constant 0x7F : f8E4M3
  %0 = birsim.reduce add %a, %a : f8E4M3
  %1 = birsim.reduce min %a, %nan : f8E4M3
  %2 = birsim.reduce max %a, %nan : f8E4M3
  return %0, %1, %2 : f8E4M3, f8E4M3, f8E4M3
}

// -----

// CHECK-LABEL: func.func @fp8_e3m4
// 1.0625 + 0.265625 = 1.328125 rounds to 1.3125 (inexact); min(-0, +0)
// keeps dst -0; a NaN dst stays NaN and is narrowed to the canonical 0x78.
// CHECK-DAG: %[[SUM:.*]] = arith.constant 1.312500e+00 : f8E3M4
// CHECK-DAG: %[[NEGZ:.*]] = arith.constant -0.000000e+00 : f8E3M4
// CHECK-DAG: %[[NAN:.*]] = arith.constant 0x78 : f8E3M4
// CHECK: return %[[SUM]], %[[NEGZ]], %[[NAN]]
func.func @fp8_e3m4() -> (f8E3M4, f8E3M4, f8E3M4) {
  %a = arith.constant 0x31 : f8E3M4
  %b = arith.constant 0x11 : f8E3M4
  %negz = arith.constant 0x80 : f8E3M4
  %posz = arith.constant 0x00 : f8E3M4
  %nan = arith.constant 0xFF : f8E3M4
  %0 = birsim.reduce add %a, %b : f8E3M4
  %1 = birsim.reduce min %negz, %posz : f8E3M4
  %2 = birsim.reduce max %nan, %a : f8E3M4
  return %0, %1, %2 : f8E3M4, f8E3M4, f8E3M4
}

// -----

// CHECK-LABEL: func.func @fp8_e5m2
// +Inf + -Inf is the x86 default NaN, narrowed to 0x7E; min/max pick
// the smaller/larger finite value.
// CHECK-DAG: %[[NAN:.*]] = arith.constant 0x7E : f8E5M2
// CHECK-DAG: %[[MIN:.*]] = arith.constant -5.734400e+04 : f8E5M2
// CHECK-DAG: %[[MAX:.*]] = arith.constant 1.000000e+00 : f8E5M2
// CHECK: return %[[NAN]], %[[MIN]], %[[MAX]]
func.func @fp8_e5m2() -> (f8E5M2, f8E5M2, f8E5M2) {
  %pinf = arith.constant 0x7C : f8E5M2
  %ninf = arith.constant 0xFC : f8E5M2
  %one = arith.constant 0x3C : f8E5M2
  %lowest = arith.constant 0xFB : f8E5M2
  %0 = birsim.reduce add %pinf, %ninf : f8E5M2
  %1 = birsim.reduce min %one, %lowest : f8E5M2
  %2 = birsim.reduce max %one, %lowest : f8E5M2
  return %0, %1, %2 : f8E5M2, f8E5M2, f8E5M2
}

// -----

// CHECK-LABEL: func.func @bf16
// 1.0 + 2^-8 is a tie: nearest even keeps 1.0 (an inexact result arith
// would not fold); a NaN becomes 0x7FC0 with the sign dropped.
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : bf16
// CHECK-DAG: %[[NAN:.*]] = arith.constant 0x7FC0 : bf16
// CHECK: return %[[ONE]], %[[ONE]], %[[NAN]]
func.func @bf16() -> (bf16, bf16, bf16) {
  %one = arith.constant 0x3F80 : bf16
  %tiny = arith.constant 0x3B80 : bf16
  %nan = arith.constant 0xFF81 : bf16
  %0 = birsim.reduce add %one, %tiny : bf16
  %1 = birsim.reduce min %one, %nan : bf16
  %2 = birsim.reduce max %nan, %one : bf16
  return %0, %1, %2 : bf16, bf16, bf16
}

// -----

// CHECK-LABEL: func.func @f16
// 65504 + 32 rounds to +Inf (0x7C00); a negative NaN dst becomes 0xFE00
// (fp16 keeps the sign); max(+0, -0) keeps dst +0.
// CHECK-DAG: %[[INF:.*]] = arith.constant 0x7C00 : f16
// CHECK-DAG: %[[NAN:.*]] = arith.constant 0xFE00 : f16
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK: return %[[INF]], %[[NAN]], %[[ZERO]]
func.func @f16() -> (f16, f16, f16) {
  %max = arith.constant 0x7BFF : f16
  %b = arith.constant 0x5000 : f16
  %nan = arith.constant 0xFD01 : f16
  %posz = arith.constant 0x0000 : f16
  %negz = arith.constant 0x8000 : f16
  %0 = birsim.reduce add %max, %b : f16
  %1 = birsim.reduce min %nan, %b : f16
  %2 = birsim.reduce max %posz, %negz : f16
  return %0, %1, %2 : f16, f16, f16
}

// -----

// CHECK-LABEL: func.func @f32
// A signalling NaN dst is quieted by ADDSS; x + (-x) is +0; min keeps
// dst when src is NaN (no quieting).
// CHECK-DAG: %[[QNAN:.*]] = arith.constant 0x7FC00001 : f32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: return %[[QNAN]], %[[ZERO]], %[[ONE]]
func.func @f32() -> (f32, f32, f32) {
  %snan = arith.constant 0x7F800001 : f32
  %one = arith.constant 0x3F800000 : f32
  %mone = arith.constant 0xBF800000 : f32
  %0 = birsim.reduce add %snan, %one : f32
  %1 = birsim.reduce add %one, %mone : f32
  %2 = birsim.reduce min %one, %snan : f32
  return %0, %1, %2 : f32, f32, f32
}

// -----

// CHECK-LABEL: func.func @i32
// Add wraps; min/max are signed.
// CHECK-DAG: %[[WRAP:.*]] = arith.constant -2147483648 : i32
// CHECK-DAG: %[[MIN:.*]] = arith.constant -1 : i32
// CHECK-DAG: %[[MAX:.*]] = arith.constant 2147483647 : i32
// CHECK: return %[[WRAP]], %[[MIN]], %[[MAX]]
func.func @i32() -> (i32, i32, i32) {
  %big = arith.constant 2147483647 : i32
  %one = arith.constant 1 : i32
  %m1 = arith.constant -1 : i32
  %0 = birsim.reduce add %big, %one : i32
  %1 = birsim.reduce min %big, %m1 : i32
  %2 = birsim.reduce max %m1, %big : i32
  return %0, %1, %2 : i32, i32, i32
}

// -----

// CHECK-LABEL: func.func @i64
// CHECK-DAG: %[[WRAP:.*]] = arith.constant -9223372036854775808 : i64
// CHECK-DAG: %[[MIN:.*]] = arith.constant -1 : i64
// CHECK-DAG: %[[MAX:.*]] = arith.constant 9223372036854775807 : i64
// CHECK: return %[[WRAP]], %[[MIN]], %[[MAX]]
func.func @i64() -> (i64, i64, i64) {
  %big = arith.constant 9223372036854775807 : i64
  %one = arith.constant 1 : i64
  %m1 = arith.constant -1 : i64
  %0 = birsim.reduce add %big, %one : i64
  %1 = birsim.reduce min %big, %m1 : i64
  %2 = birsim.reduce max %m1, %big : i64
  return %0, %1, %2 : i64, i64, i64
}

// -----

// Tensors: a splat and a dense operand fold elementwise; a signed scalar
// type arith.constant rejects materializes through birsim.constant.
// CHECK-LABEL: func.func @tensors
// max + max -> Inf; 1 + 0 -> 1; 1.5 + -0 -> 1.5; x NaN -> 0x7E.
// CHECK-DAG: arith.constant dense<[0x7C, 1.000000e+00, 1.500000e+00, 0x7E]> : tensor<4xf8E5M2>
// CHECK-DAG: arith.constant dense<[-2147483648, 0]> : tensor<2xsi32>
// CHECK-DAG: birsim.constant -2147483648 : si32
func.func @tensors() -> (tensor<4xf8E5M2>, tensor<2xsi32>, si32) {
  %a = arith.constant dense<[0x7B, 0x3C, 0x3E, 0xFB]> : tensor<4xf8E5M2>
  %b = arith.constant dense<[0x7B, 0x00, 0x80, 0x7F]> : tensor<4xf8E5M2>
  %0 = birsim.reduce add %a, %b : tensor<4xf8E5M2>
  %i = birsim.constant dense<[2147483647, -1]> : tensor<2xsi32>
  %j = birsim.constant dense<1> : tensor<2xsi32>
  %1 = birsim.reduce add %i, %j : tensor<2xsi32>
  %k = birsim.constant 2147483647 : si32
  %l = birsim.constant 1 : si32
  %2 = birsim.reduce add %k, %l : si32
  return %0, %1, %2 : tensor<4xf8E5M2>, tensor<2xsi32>, si32
}

// -----

// CHECK-LABEL: func.func @splats
// CHECK: arith.constant dense<0x7C00> : tensor<1024x1024xf16>
func.func @splats() -> tensor<1024x1024xf16> {
  %a = arith.constant dense<0x7BFF> : tensor<1024x1024xf16>
  %0 = birsim.reduce add %a, %a : tensor<1024x1024xf16>
  return %0 : tensor<1024x1024xf16>
}

// -----

// Collective reduce: add = ADDSS(x, acc), so x's NaN wins.
// CHECK-LABEL: func.func @collective
// CHECK-DAG: arith.constant dense<[0x7FC00002, 3.000000e+00]> : tensor<2xf32>
// CHECK-DAG: arith.constant dense<[0x7FC00001, 2.000000e+00]> : tensor<2xf32>
func.func @collective() -> (tensor<2xf32>, tensor<2xf32>) {
  %acc = arith.constant dense<[0x7FC00001, 1.0]> : tensor<2xf32>
  %x = arith.constant dense<[0x7FC00002, 2.0]> : tensor<2xf32>
  %0 = birsim.collective_reduce add %acc, %x : tensor<2xf32>
  %1 = birsim.collective_reduce max %acc, %x : tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// Casts: saturation on (the default 0x0001) and off, NaN-suppress, and
// inexact results.
// CHECK-LABEL: func.func @casts
// CHECK-DAG: arith.constant dense<[5.734400e+04, -5.734400e+04, 0x7E, 1.000000e+00]> : tensor<4xf8E5M2>
// CHECK-DAG: arith.constant dense<[0x7C, 0xFC, 0x7E, 1.000000e+00]> : tensor<4xf8E5M2>
// CHECK-DAG: arith.constant dense<[5.734400e+04, -5.734400e+04, 0.000000e+00, 1.000000e+00]> : tensor<4xf8E5M2>
// CHECK-DAG: arith.constant 0x7F : f8E4M3FN
// CHECK-DAG: arith.constant 4.480000e+02 : f8E4M3FN
// CHECK-DAG: arith.constant 1.000000e+00 : bf16
// CHECK-DAG: arith.constant dense<[2, 4, -128, 127]> : tensor<4xi8>
func.func @casts() -> (tensor<4xf8E5M2>, tensor<4xf8E5M2>, tensor<4xf8E5M2>, f8E4M3FN, f8E4M3FN, bf16, tensor<4xi8>) {
  %x = arith.constant dense<[1.0e6, -1.0e6, 0x7FC00000, 1.0]> : tensor<4xf32>
  %0 = birsim.cast %x : tensor<4xf32> to tensor<4xf8E5M2>
  %1 = birsim.cast %x {fp8_config = 0 : i32} : tensor<4xf32> to tensor<4xf8E5M2>
  %2 = birsim.cast %x {fp8_config = 65281 : i32} : tensor<4xf32> to tensor<4xf8E5M2>
  %big = arith.constant 1.0e6 : f32
  %3 = birsim.cast %big {fp8_config = 0 : i32} : f32 to f8E4M3FN
  %4 = birsim.cast %big : f32 to f8E4M3FN
  %near = arith.constant 0x3F808000 : f32
  %5 = birsim.cast %near : f32 to bf16
  %y = arith.constant dense<[2.5, 3.5, 0xFFC00000, 1.0e9]> : tensor<4xf32>
  %6 = birsim.cast %y : tensor<4xf32> to tensor<4xi8>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4xf8E5M2>, tensor<4xf8E5M2>, tensor<4xf8E5M2>, f8E4M3FN, f8E4M3FN, bf16, tensor<4xi8>
}

// -----

// One BFP8_b tile: a splat of 64.75 has shared exponent 133 (0x85) and
// datum 0x41 everywhere; unpacking gives 65.0.
// CHECK-LABEL: func.func @bfp_tile
// CHECK-DAG: arith.constant dense<"0x{{(85){64}((41){128}){8}()}}"> : tensor<1x1088xi8>
// CHECK-DAG: arith.constant dense<6.500000e+01> : tensor<1x32x32xf32>
func.func @bfp_tile() -> (tensor<1x1088xi8>, tensor<1x32x32xf32>) {
  %t = arith.constant dense<64.75> : tensor<1x32x32xf32>
  %p = birsim.bfp_pack bfp8_b %t : tensor<1x32x32xf32> -> tensor<1x1088xi8>
  %u = birsim.bfp_unpack bfp8_b %p : tensor<1x1088xi8> -> tensor<1x32x32xf32>
  return %p, %u : tensor<1x1088xi8>, tensor<1x32x32xf32>
}

// -----

// A 1x16 bf16 tile of 1.0 in BFP2_a: one exponent (15, 0x0F) padded to 16
// bytes, then 16 datums of magnitude 1 (0b01 each: 0x55 per byte). A 32x32
// int8 matrix of 3 in BFP8_b: exponent 128 (0x80), datum 3 * 2^5 = 0x60.
// CHECK-LABEL: func.func @bfp_shapes
// CHECK-DAG: arith.constant dense<{{\[\[}}15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 85, 85, 85, 85]]> : tensor<1x20xi8>
// CHECK-DAG: arith.constant dense<"0x{{(80){64}((60){128}){8}()}}"> : tensor<1x1088xi8>
func.func @bfp_shapes() -> (tensor<1x20xi8>, tensor<1x1088xi8>) {
  %t = arith.constant dense<1.0> : tensor<1x1x16xbf16>
  %p = birsim.bfp_pack bfp2_a %t : tensor<1x1x16xbf16> -> tensor<1x20xi8>
  %m = arith.constant dense<3> : tensor<32x32xi8>
  %q = birsim.bfp_pack_matrix bfp8_b %m tile [32, 32] transpose : tensor<32x32xi8> -> tensor<1x1088xi8>
  return %p, %q : tensor<1x20xi8>, tensor<1x1088xi8>
}

// -----

// tt-metal #57410 at compile time: 1.375 packs to bfp4_b datum 0b110 on the
// host and 0b101 at the Tensix packer (one rounding, half away from zero,
// at 7 bits, then truncated): a byte of two datums is 0x66 against 0x55.
// CHECK-LABEL: func.func @bfp_pack_at_device
// CHECK: arith.constant dense<"0x7F7F{{(7F)*}}{{(66)+}}"> : tensor<1x576xi8>
// CHECK: arith.constant dense<"0x7F7F{{(7F)*}}{{(55)+}}"> : tensor<1x576xi8>
func.func @bfp_pack_at_device() -> (tensor<1x576xi8>, tensor<1x576xi8>) {
  %c = arith.constant dense<1.375> : tensor<1x32x32xf32>
  %h = birsim.bfp_pack bfp4_b %c : tensor<1x32x32xf32> -> tensor<1x576xi8>
  %d = birsim.bfp_pack bfp4_b %c at fp32_dest : tensor<1x32x32xf32> -> tensor<1x576xi8>
  return %h, %d : tensor<1x576xi8>, tensor<1x576xi8>
}
