// RUN: birsim-opt %s -canonicalize -split-input-file | FileCheck %s

// reduce copy is a memcpy of src (docs/Semantics.md section 3).
// CHECK-LABEL: func.func @reduce_copy
// CHECK-SAME: (%{{.*}}: tensor<4x!birsim.float32r>, %[[SRC:.*]]: tensor<4x!birsim.float32r>)
// CHECK-NEXT: return %[[SRC]]
func.func @reduce_copy(%dst: tensor<4x!birsim.float32r>, %src: tensor<4x!birsim.float32r>) -> tensor<4x!birsim.float32r> {
  %r = birsim.reduce copy %dst, %src : tensor<4x!birsim.float32r>
  return %r : tensor<4x!birsim.float32r>
}

// -----

// A cast to the same dtype returns the input bits (docs/Semantics.md section 4),
// whatever the config.
// CHECK-LABEL: func.func @cast_same_type
// CHECK-SAME: (%[[X:.*]]: tensor<8xf8E5M2>)
// CHECK-NEXT: return %[[X]]
func.func @cast_same_type(%x: tensor<8xf8E5M2>) -> tensor<8xf8E5M2> {
  %y = birsim.cast %x {fp8_config = 0 : i32} : tensor<8xf8E5M2> to tensor<8xf8E5M2>
  return %y : tensor<8xf8E5M2>
}

// -----

// Non-constant operands and non-trivial ops stay.
// CHECK-LABEL: func.func @kept
// CHECK: birsim.reduce add
// CHECK: birsim.cast
// CHECK: birsim.collective_reduce min
func.func @kept(%a: bf16, %b: bf16, %c: f32) -> (bf16, f16, f32) {
  %0 = birsim.reduce add %a, %b : bf16
  %1 = birsim.cast %0 : bf16 to f16
  %2 = birsim.collective_reduce min %c, %c : f32
  return %0, %1, %2 : bf16, f16, f32
}

// -----

// Instruction-level ops have memory effects and are never removed.
// CHECK-LABEL: func.func @effects
// CHECK: birsim.dma_copy
// CHECK: birsim.indirect_save_accumulate
func.func @effects(%s: memref<4xbf16>, %i: memref<4xi64>, %d: memref<16xbf16>, %e: memref<4xbf16>) {
  birsim.dma_copy add %s to %e : memref<4xbf16> to memref<4xbf16>
  birsim.indirect_save_accumulate add %s to %d[%i] : memref<4xbf16>, memref<4xi64> to memref<16xbf16>
  return
}

// -----

// The buffer forms declare their memory effects in ODS (src read, dst
// written): nothing uses a result, yet they stay; a pure value op without
// users goes.
// CHECK-LABEL: func.func @effects_keep_buffer_ops
// CHECK-NEXT: birsim.reduce_into add
// CHECK-NEXT: birsim.collective_reduce_into add
// CHECK-NEXT: birsim.cast_into
// CHECK-NEXT: birsim.bfp_pack_into
// CHECK-NEXT: birsim.bfp_unpack_into
// CHECK-NEXT: birsim.dma_copy add
// CHECK-NEXT: birsim.indirect_save bypass
// CHECK-NEXT: birsim.indirect_save_accumulate add
// CHECK-NEXT: return
func.func @effects_keep_buffer_ops(%m: memref<4xbf16>, %f: memref<4xf32>, %q: memref<4xf8E5M2>,
                                   %t: memref<1x32x32xf32>, %p: memref<1x1088xi8>,
                                   %i: memref<4xi64>, %v: bf16) {
  %unused = birsim.reduce add %v, %v : bf16
  birsim.reduce_into add %m, %m : memref<4xbf16>
  birsim.collective_reduce_into add %f, %f : memref<4xf32>
  birsim.cast_into %f, %q : memref<4xf32> to memref<4xf8E5M2>
  birsim.bfp_pack_into bfp8_b %t, %p : memref<1x32x32xf32> to memref<1x1088xi8>
  birsim.bfp_unpack_into bfp8_b %p, %t : memref<1x1088xi8> to memref<1x32x32xf32>
  birsim.dma_copy add %m to %m : memref<4xbf16> to memref<4xbf16>
  birsim.indirect_save bypass %m to %m[%i] : memref<4xbf16>, memref<4xi64> to memref<4xbf16>
  birsim.indirect_save_accumulate add %m to %m[%i] : memref<4xbf16>, memref<4xi64> to memref<4xbf16>
  return
}
