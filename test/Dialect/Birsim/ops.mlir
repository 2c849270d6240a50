// RUN: birsim-opt %s | birsim-opt | FileCheck %s
// RUN: birsim-opt %s --mlir-print-op-generic | birsim-opt | FileCheck %s
// The printed forms are exactly the documented ones, single-spaced.
// RUN: birsim-opt %s | FileCheck %s --check-prefix=EXACT --strict-whitespace
// EXACT: = birsim.reduce add %arg0, %arg1 : bf16
// EXACT: = birsim.collective_reduce max %arg4, %arg4 : tensor<16xf32>
// EXACT: = birsim.cast %arg0 fp8_config<none> : bf16 to f8E5M2
// EXACT: = birsim.bfp_pack bfp8_b %arg6 : tensor<2x32x32xf32> -> tensor<2x1088xi8>
// EXACT: birsim.dma_copy add %arg0 to %arg0 : memref<16xbf16> to memref<16xbf16>

// CHECK-LABEL: func.func @value_ops
func.func @value_ops(%a: bf16, %b: bf16, %t: tensor<4x8xf8E4M3>, %v: vector<4xi32>,
                     %acc: tensor<16xf32>, %x: tensor<8xf32>, %tiles: tensor<2x32x32xf32>,
                     %r32: tensor<2x!birsim.float32r>, %u8: ui8, %s64: si64, %e8: f8E8M0FNU) {
  // CHECK: birsim.reduce add %{{.*}}, %{{.*}} : bf16
  %0 = birsim.reduce add %a, %b : bf16
  // CHECK: birsim.reduce max %{{.*}}, %{{.*}} : tensor<4x8xf8E4M3>
  %1 = birsim.reduce max %t, %t : tensor<4x8xf8E4M3>
  // CHECK: birsim.reduce min %{{.*}}, %{{.*}} : vector<4xi32>
  %2 = birsim.reduce min %v, %v : vector<4xi32>
  // CHECK: birsim.reduce copy %{{.*}}, %{{.*}} : tensor<2x!birsim.float32r>
  %3 = birsim.reduce copy %r32, %r32 : tensor<2x!birsim.float32r>
  // CHECK: birsim.reduce copy %{{.*}}, %{{.*}} : ui8
  %4 = birsim.reduce copy %u8, %u8 : ui8
  // CHECK: birsim.reduce add %{{.*}}, %{{.*}} : si64
  %5 = birsim.reduce add %s64, %s64 : si64
  // CHECK: birsim.collective_reduce max %{{.*}}, %{{.*}} : tensor<16xf32>
  %6 = birsim.collective_reduce max %acc, %acc : tensor<16xf32>
  // CHECK: birsim.cast %{{.*}} : tensor<8xf32> to tensor<8xf8E5M2>
  %7 = birsim.cast %x : tensor<8xf32> to tensor<8xf8E5M2>
  // The integer config word prints as its flags; the default (saturate) is
  // elided.
  // CHECK: birsim.cast %{{.*}} fp8_config<none> : bf16 to f8E5M2
  %8 = birsim.cast %a {fp8_config = 0 : i32} : bf16 to f8E5M2
  // CHECK: birsim.cast %{{.*}} fp8_config<saturate | nan_suppress> : bf16 to f8E5M2
  %c1 = birsim.cast %a {fp8_config = 65281 : i32} : bf16 to f8E5M2
  // Any bit of byte 1 is NaN-suppress.
  // CHECK: birsim.cast %{{.*}} fp8_config<nan_suppress> : bf16 to f8E5M2
  %c2 = birsim.cast %a {fp8_config = 256 : i32} : bf16 to f8E5M2
  // CHECK: birsim.cast %{{.*}} : bf16 to f8E5M2
  %c3 = birsim.cast %a {fp8_config = 1 : i32} : bf16 to f8E5M2
  // CHECK: birsim.cast %{{.*}} fp8_config<nan_suppress> {keep} : bf16 to f8E5M2
  %c4 = birsim.cast %a fp8_config<nan_suppress> {keep} : bf16 to f8E5M2
  // CHECK: birsim.cast %{{.*}} : bf16 to f8E5M2
  %c5 = birsim.cast %a fp8_config<saturate> : bf16 to f8E5M2
  // CHECK: birsim.cast %{{.*}} : tensor<2x!birsim.float32r> to tensor<2xf8E4M3FN>
  %9 = birsim.cast %r32 : tensor<2x!birsim.float32r> to tensor<2xf8E4M3FN>
  // CHECK: birsim.cast %{{.*}} : f8E8M0FNU to ui8
  %10 = birsim.cast %e8 : f8E8M0FNU to ui8
  // CHECK: birsim.bfp_pack bfp8_b %{{.*}} : tensor<2x32x32xf32> -> tensor<2x1088xi8>
  %p = birsim.bfp_pack bfp8_b %tiles : tensor<2x32x32xf32> -> tensor<2x1088xi8>
  // CHECK: birsim.bfp_unpack bfp8_b %{{.*}} : tensor<2x1088xi8> -> tensor<2x32x32xf32>
  %u = birsim.bfp_unpack bfp8_b %p : tensor<2x1088xi8> -> tensor<2x32x32xf32>
  // CHECK: birsim.bfp_pack bfp4_a %{{.*}} : tensor<2x32x32xf32> -> tensor<2x576xi8>
  %p4 = birsim.bfp_pack bfp4_a %tiles : tensor<2x32x32xf32> -> tensor<2x576xi8>
  // CHECK: birsim.bfp_unpack bfp4_b %{{.*}} : tensor<?x576xi8> -> tensor<?x32x32xf32>
  %dyn = tensor.cast %p4 : tensor<2x576xi8> to tensor<?x576xi8>
  %u4 = birsim.bfp_unpack bfp4_b %dyn : tensor<?x576xi8> -> tensor<?x32x32xf32>
  // CHECK: birsim.constant dense<[1, 2]> : tensor<2xui8>
  %c = birsim.constant dense<[1, 2]> : tensor<2xui8>
  return
}

// Every BFP form: shapes, input types, the face layout, matrices.
// CHECK-LABEL: func.func @bfp_forms
func.func @bfp_forms(%w: tensor<8x16x32xbf16>, %i: tensor<3x1x16xi32>,
                     %m: tensor<2x64x32xbf16>, %u: tensor<4x32x16xui8>) {
  // CHECK: birsim.bfp_pack bfp2_a %{{.*}} faces : tensor<8x16x32xbf16> -> tensor<8x160xi8>
  %p = birsim.bfp_pack bfp2_a %w faces : tensor<8x16x32xbf16> -> tensor<8x160xi8>
  // CHECK: birsim.bfp_unpack bfp2_a %{{.*}} faces : tensor<8x160xi8> -> tensor<8x16x32xf32>
  %q = birsim.bfp_unpack bfp2_a %p faces : tensor<8x160xi8> -> tensor<8x16x32xf32>
  // CHECK: birsim.bfp_pack bfp8_b %{{.*}} : tensor<3x1x16xi32> -> tensor<3x32xi8>
  %r = birsim.bfp_pack bfp8_b %i : tensor<3x1x16xi32> -> tensor<3x32xi8>
  // CHECK: birsim.bfp_pack_matrix bfp4_b %{{.*}} tile [32, 32] transpose : tensor<2x64x32xbf16> -> tensor<4x576xi8>
  %s = birsim.bfp_pack_matrix bfp4_b %m tile [32, 32] transpose : tensor<2x64x32xbf16> -> tensor<4x576xi8>
  // CHECK: birsim.bfp_unpack_matrix bfp4_b %{{.*}} tile [32, 32] transpose : tensor<4x576xi8> -> tensor<128x32xf32>
  %t = birsim.bfp_unpack_matrix bfp4_b %s tile [32, 32] transpose : tensor<4x576xi8> -> tensor<128x32xf32>
  // CHECK: birsim.bfp_pack_matrix bfp8_a %{{.*}} tile [32, 16] : tensor<4x32x16xui8> -> tensor<4x544xi8>
  %v = birsim.bfp_pack_matrix bfp8_a %u tile [32, 16] : tensor<4x32x16xui8> -> tensor<4x544xi8>
  return
}

// CHECK-LABEL: func.func @instruction_ops
func.func @instruction_ops(%m: memref<16xbf16>, %i: memref<4xi64>, %s: memref<4xbf16>,
                           %d: memref<?x!birsim.float8_e5m2_x4>, %e: memref<?x!birsim.float8_e5m2_x4>) {
  // CHECK: birsim.dma_copy add %{{.*}} to %{{.*}} : memref<16xbf16> to memref<16xbf16>
  birsim.dma_copy add %m to %m : memref<16xbf16> to memref<16xbf16>
  // CHECK: birsim.dma_copy bypass %{{.*}} to %{{.*}} : memref<?x!birsim.float8_e5m2_x4> to memref<?x!birsim.float8_e5m2_x4>
  birsim.dma_copy bypass %d to %e : memref<?x!birsim.float8_e5m2_x4> to memref<?x!birsim.float8_e5m2_x4>
  // A row of a larger buffer is contiguous: any offset is fine.
  // CHECK: birsim.dma_copy add %{{.*}} to %{{.*}} : memref<4xbf16, strided<[1], offset: ?>> to memref<4xbf16, strided<[1], offset: 4>>
  %row = memref.subview %m[4] [4] [1] : memref<16xbf16> to memref<4xbf16, strided<[1], offset: 4>>
  %any = memref.cast %row : memref<4xbf16, strided<[1], offset: 4>> to memref<4xbf16, strided<[1], offset: ?>>
  birsim.dma_copy add %any to %row : memref<4xbf16, strided<[1], offset: ?>> to memref<4xbf16, strided<[1], offset: 4>>
  // CHECK: birsim.indirect_save bypass %{{.*}} to %{{.*}}[%{{.*}}] : memref<4xbf16>, memref<4xi64> to memref<16xbf16>
  birsim.indirect_save bypass %s to %m[%i] : memref<4xbf16>, memref<4xi64> to memref<16xbf16>
  // CHECK: birsim.indirect_save_accumulate add %{{.*}} to %{{.*}}[%{{.*}}] : memref<4xbf16>, memref<4xi64> to memref<16xbf16>
  birsim.indirect_save_accumulate add %s to %m[%i] : memref<4xbf16>, memref<4xi64> to memref<16xbf16>
  return
}

// CHECK-LABEL: func.func @buffer_forms
func.func @buffer_forms(%m: memref<16xbf16>, %f: memref<?xf32>, %q: memref<?xf8E5M2>,
                        %t: memref<2x32x32xf32>, %p: memref<2x1088xi8>) {
  // CHECK: birsim.reduce_into add %{{.*}}, %{{.*}} : memref<16xbf16>
  birsim.reduce_into add %m, %m : memref<16xbf16>
  // CHECK: birsim.collective_reduce_into max %{{.*}}, %{{.*}} : memref<?xf32>
  birsim.collective_reduce_into max %f, %f : memref<?xf32>
  // CHECK: birsim.cast_into %{{.*}}, %{{.*}} fp8_config<none> : memref<?xf32> to memref<?xf8E5M2>
  birsim.cast_into %f, %q {fp8_config = 0 : i32} : memref<?xf32> to memref<?xf8E5M2>
  // CHECK: birsim.cast_into %{{.*}}, %{{.*}} fp8_config<saturate | nan_suppress> : memref<?xf32> to memref<?xf8E5M2>
  birsim.cast_into %f, %q fp8_config<saturate | nan_suppress> : memref<?xf32> to memref<?xf8E5M2>
  // CHECK: birsim.bfp_pack_into bfp8_b %{{.*}}, %{{.*}} : memref<2x32x32xf32> to memref<2x1088xi8>
  birsim.bfp_pack_into bfp8_b %t, %p : memref<2x32x32xf32> to memref<2x1088xi8>
  // CHECK: birsim.bfp_unpack_into bfp8_a %{{.*}}, %{{.*}} : memref<2x1088xi8> to memref<2x32x32xf32>
  birsim.bfp_unpack_into bfp8_a %p, %t : memref<2x1088xi8> to memref<2x32x32xf32>
  return
}
