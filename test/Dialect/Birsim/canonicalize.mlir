// RUN: birsim-opt %s -canonicalize -split-input-file | FileCheck %s

// reduce copy is a memcpy of src (SEMANTICS.md section 3).
// CHECK-LABEL: func.func @reduce_copy
// CHECK-SAME: (%{{.*}}: tensor<4x!birsim.float32r>, %[[SRC:.*]]: tensor<4x!birsim.float32r>)
// CHECK-NEXT: return %[[SRC]]
func.func @reduce_copy(%dst: tensor<4x!birsim.float32r>, %src: tensor<4x!birsim.float32r>) -> tensor<4x!birsim.float32r> {
  %r = birsim.reduce copy %dst, %src : tensor<4x!birsim.float32r>
  return %r : tensor<4x!birsim.float32r>
}

// -----

// A cast to the same dtype returns the input bits (SEMANTICS.md section 4),
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
