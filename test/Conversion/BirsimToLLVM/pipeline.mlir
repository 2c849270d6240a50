// The birsim-to-llvm pipeline takes func + birsim ops on tensors all the way
// to the LLVM dialect: no op of any other dialect is left anywhere.
// RUN: birsim-opt %s --birsim-to-llvm | FileCheck %s \
// RUN:   --implicit-check-not="  birsim." --implicit-check-not="= birsim." \
// RUN:   --implicit-check-not=tensor. --implicit-check-not=memref. \
// RUN:   --implicit-check-not=bufferization. --implicit-check-not=func.func \
// RUN:   --implicit-check-not=arith. --implicit-check-not=scf. \
// RUN:   --implicit-check-not=" cf." --implicit-check-not=unrealized_conversion_cast \
// RUN:   --implicit-check-not=vector.

// CHECK-LABEL: llvm.func @model
// CHECK: llvm.call @birsim_cast
// CHECK: llvm.call @birsim_accumulate
// CHECK: llvm.call @birsim_collective_reduce
// CHECK: llvm.call @birsim_bfp_pack_at(
// CHECK: llvm.call @birsim_bfp_unpack_at(
// CHECK: llvm.call @birsim_bfp_pack_matrix_at(
// CHECK: llvm.call @birsim_bfp_unpack_matrix_at(
func.func @model(%x: tensor<4x32x32xf32>, %acc: tensor<4x32x32xf8E4M3>, %c: tensor<16xf32>, %t: tensor<2x32x32xf32>, %w: tensor<64x64xbf16>)
    -> (tensor<4x32x32xf8E4M3>, tensor<16xf32>, tensor<2x32x32xf32>, tensor<64x64xf32>) {
  %q = birsim.cast %x : tensor<4x32x32xf32> to tensor<4x32x32xf8E4M3>
  %s = birsim.reduce add %acc, %q : tensor<4x32x32xf8E4M3>
  %r = birsim.collective_reduce max %c, %c : tensor<16xf32>
  %p = birsim.bfp_pack bfp8_b %t : tensor<2x32x32xf32> -> tensor<2x1088xi8>
  %u = birsim.bfp_unpack bfp8_b %p : tensor<2x1088xi8> -> tensor<2x32x32xf32>
  %wp = birsim.bfp_pack_matrix bfp4_b %w tile [16, 32] transpose : tensor<64x64xbf16> -> tensor<8x288xi8>
  %wu = birsim.bfp_unpack_matrix bfp4_b %wp tile [16, 32] transpose : tensor<8x288xi8> -> tensor<64x64xf32>
  return %s, %r, %u, %wu : tensor<4x32x32xf8E4M3>, tensor<16xf32>, tensor<2x32x32xf32>, tensor<64x64xf32>
}

// Loops, scalars and constants (folded away before lowering).
// CHECK-LABEL: llvm.func @loop
// CHECK: llvm.call @birsim_accumulate
func.func @loop(%a: bf16, %n: index) -> bf16 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 0x3F80 : bf16
  %two = birsim.reduce add %one, %one : bf16
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> bf16 {
    %s = birsim.reduce add %acc, %two : bf16
    scf.yield %s : bf16
  }
  return %r : bf16
}

// Vectors of narrow floats, and printing them.
// CHECK-LABEL: llvm.func @vectors
// CHECK: llvm.call @birsim_cast
// CHECK: llvm.call @birsim_cast
// CHECK: llvm.call @printF32
func.func @vectors(%v: vector<2xf32>) {
  %w = birsim.cast %v : vector<2xf32> to vector<2xf8E5M2>
  %x = birsim.cast %w : vector<2xf8E5M2> to vector<2xf32>
  vector.print %x : vector<2xf32>
  return
}
