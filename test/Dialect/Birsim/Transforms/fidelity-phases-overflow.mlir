// --birsim-fidelity names the phases of a mul on constants that multiply
// only zeros; they add nothing to a zeroed Dest only while no product's
// exponent passes Dest's largest (docs/Semantics.md section 7, "Fidelity
// phases"; issue 64: 0x7F55 x 0x6440 gives Inf at HiFi2, +0 at HiFi4).
// RUN: birsim-opt %s --birsim-fidelity -o /dev/null \
// RUN:   -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s

// CHECK: remark: tensix_eltwise mul at hifi4: phases 2, 3 add nothing: the operands carry at most 8 (SrcA) and 2 (SrcB) significant bits
// CHECK: remark: tensix_eltwise mul at hifi4: phases 2, 3 multiply only zeros but realign Dest: the products reach exponent 327, past Dest's largest: the operands carry at most 8 (SrcA) and 2 (SrcB) significant bits (docs/Semantics.md section 7)
// CHECK: remark: tensix_eltwise mul at hifi4: phases 2, 3 add nothing
// CHECK: remark: tensix_eltwise mul at hifi4: phases 2, 3 multiply only zeros but realign Dest: the products reach exponent 256, past Dest's largest
func.func @f() -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %big = arith.constant dense<0x7F550000> : tensor<4xf32>
  %mid = arith.constant dense<0x64400000> : tensor<4xf32>
  %one = arith.constant dense<1.5> : tensor<4xf32>
  %three = arith.constant dense<0x40400000> : tensor<4xf32>
  %four = arith.constant dense<0x40800000> : tensor<4xf32>
  // 0x7F55 x 1.5: exponent 254, inside.
  %x = birsim.tensix_eltwise mul %big, %one dest fp32 src bf16 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %y = birsim.tensix_eltwise mul %big, %mid dest fp32 src bf16 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // 0x7F55 x 3 (exponent 128): 255, the last inside; x 4: 256, past.
  %z = birsim.tensix_eltwise mul %big, %three dest fp32 src bf16 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %w = birsim.tensix_eltwise mul %big, %four dest fp32 src bf16 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %x, %y, %z, %w : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
