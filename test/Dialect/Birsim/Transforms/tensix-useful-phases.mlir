// RUN: birsim-opt %s --birsim-tensix-useful-phases -split-input-file \
// RUN:   -verify-diagnostics -mlir-print-op-on-diagnostic=false | FileCheck %s
// RUN: birsim-opt %s --birsim-tensix-useful-phases=exact-only \
// RUN:   -split-input-file -mlir-print-op-on-diagnostic=false -o %t 2>&1 | \
// RUN:   FileCheck %s --check-prefix=KEPT
// RUN: FileCheck %s --check-prefix=EXACT < %t

// exact-only keeps what it cannot prove and says why.
// KEPT: remark: tensix_matmul: hifi4 kept (exact-only): phases 1, 3 multiply only zeros (in0 (SrcB) carries at most 8 significant bits (bf16 values) and in1 (SrcA) carries at most 3 significant bits (bfp4_b)), but exact except where a cancelling sum or a saturated Dest is realigned
// KEPT: remark: tensix_matmul: hifi4 kept (exact-only): phases 2, 3 multiply only zeros
// KEPT: remark: tensix_matmul: hifi4 kept (exact-only): phases 1, 3 multiply only zeros ({{.*}}), but 1024 of 1024 outputs change (first at index 0)
// KEPT: remark: tensix_matmul: hifi3 -> lofi: {{.*}} exact: 0 of 1024 outputs change
// KEPT: remark: tensix_matmul: phases_123 kept (exact-only): phases 2, 3 multiply only zeros
// KEPT: remark: tensix_eltwise: hifi4 kept (exact-only): phases 1, 3 multiply only zeros ({{.*}}), but exact while no product's exponent ea + eb + r passes Dest's largest, 255
// KEPT: remark: tensix_eltwise: hifi4 kept (exact-only): phases 2, 3 multiply only zeros
// KEPT: remark: tensix_eltwise: hifi4 -> lofi: {{.*}}; exact: a phase whose products are zero adds nothing to a zeroed Dest while no product's exponent passes Dest's largest, 255
// KEPT: remark: tensix_eltwise: hifi4 kept (exact-only): phases 2, 3 multiply only zeros ({{.*}}), but not exact: the products reach exponent 327, past Dest's largest, 255

// The formats tt-metal #39627 and tt-mlir #7421 name: bfp4 weights with
// bf16 activations run phases {0, 2}; bfp8 activations with bf16 weights
// HiFi2; bf16 with bf16 keeps HiFi4. Operands that are not constants:
// exact except where a cancelling sum is realigned, so exact-only keeps
// them.
// CHECK-LABEL: func.func @formats
// CHECK: birsim.tensix_matmul {{.*}} dest fp32 src bf16, bf16 fidelity phases_02 :
// CHECK: birsim.tensix_matmul {{.*}} dest fp32 src bf16, bf16 fidelity hifi2 :
// CHECK: birsim.tensix_matmul {{.*}} dest fp32 src bf16, bf16 :
// EXACT-LABEL: func.func @formats
// EXACT-COUNT-3: birsim.tensix_matmul {{.*}} dest fp32 src bf16, bf16 :
func.func @formats(%x: tensor<32x64xbf16>, %wp: tensor<2x576xi8>,
                   %xp: tensor<2x1088xi8>, %w: tensor<64x32xbf16>)
    -> (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>) {
  %x32 = arith.extf %x : tensor<32x64xbf16> to tensor<32x64xf32>
  %w4 = birsim.bfp_unpack_matrix bfp4_b %wp tile [32, 32] : tensor<2x576xi8> -> tensor<64x32xf32>
  // expected-remark @+1 {{tensix_matmul: hifi4 -> phases_02: phases 1, 3 removed: in0 (SrcB) carries at most 8 significant bits (bf16 values) and in1 (SrcA) carries at most 3 significant bits (bfp4_b); exact except where a cancelling sum or a saturated Dest is realigned (the removed MVMULs still align Dest to their products' exponents) (docs/Semantics.md section 7)}}
  %a = birsim.tensix_matmul %x32, %w4 dest fp32 src bf16, bf16 : tensor<32x64xf32>, tensor<64x32xf32> -> tensor<32x32xf32>
  %x8 = birsim.bfp_unpack_matrix bfp8_b %xp tile [32, 32] : tensor<2x1088xi8> -> tensor<32x64xf32>
  %w32 = arith.extf %w : tensor<64x32xbf16> to tensor<64x32xf32>
  // expected-remark @+1 {{tensix_matmul: hifi4 -> hifi2: phases 2, 3 removed: in0 (SrcB) carries at most 7 significant bits (bfp8_b) and in1 (SrcA) carries at most 8 significant bits (bf16 values); exact except}}
  %b = birsim.tensix_matmul %x8, %w32 dest fp32 src bf16, bf16 : tensor<32x64xf32>, tensor<64x32xf32> -> tensor<32x32xf32>
  %c = birsim.tensix_matmul %x32, %w32 dest fp32 src bf16, bf16 : tensor<32x64xf32>, tensor<64x32xf32> -> tensor<32x32xf32>
  return %a, %b, %c : tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>
}

// -----

// On constants both are computed. The worked example of docs/Semantics.md
// section 7 ("Fidelity phases"): every row of in0 is [14.5, -14.5625, 0,
// ..., -0.00341796875 at K 16, ...], in1's rows 0 and 1 are 1 and row 16
// is 1.75; a bf16 Dest gives 0xBD8D at HiFi4, 0xBD8C at {0, 2}.
// CHECK-LABEL: func.func @cancelling
// CHECK: birsim.tensix_matmul {{.*}} fidelity phases_02 :
// EXACT-LABEL: func.func @cancelling
// EXACT: birsim.tensix_matmul {{.*}} dest bf16 src bf16, bf16 :
func.func @cancelling() -> tensor<32x32xbf16> {
  %in0 = arith.constant dense<[
    [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [14.5, -14.5625, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., -0.00341796875, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.]]> : tensor<32x32xf32>
  %in1 = arith.constant dense<[
    [1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1.],
      [1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75, 1.75],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],
      [0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.]]> : tensor<32x32xf32>
  // expected-remark @+1 {{tensix_matmul: hifi4 -> phases_02: phases 1, 3 removed: in0 (SrcB) carries at most 8 significant bits (constant) and in1 (SrcA) carries at most 3 significant bits (constant); 1024 of 1024 outputs change (first at index 0): the removed MVMULs realign Dest (docs/Semantics.md section 7)}}
  %d = birsim.tensix_matmul %in0, %in1 dest bf16 src bf16, bf16 : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xbf16>
  return %d : tensor<32x32xbf16>
}

// -----

// Products of 2 and 3 significant bits without cancellation: LoFi alone
// is exact, and exact-only makes the rewrite too.
// CHECK-LABEL: func.func @exact
// CHECK: birsim.tensix_matmul {{.*}} fidelity lofi arch blackhole :
// EXACT-LABEL: func.func @exact
// EXACT: birsim.tensix_matmul {{.*}} fidelity lofi arch blackhole :
func.func @exact() -> tensor<32x32xf32> {
  %in0 = arith.constant dense<1.5> : tensor<32x64xf32>
  %in1 = arith.constant dense<-1.25> : tensor<64x32xf32>
  // expected-remark @+1 {{tensix_matmul: hifi3 -> lofi: phases 1, 2 removed: in0 (SrcB) carries at most 2 significant bits (constant) and in1 (SrcA) carries at most 3 significant bits (constant); exact: 0 of 1024 outputs change (docs/Semantics.md section 7)}}
  %d = birsim.tensix_matmul %in0, %in1 dest fp32 src tf32, bf16 fidelity hifi3 arch blackhole : tensor<32x64xf32>, tensor<64x32xf32> -> tensor<32x32xf32>
  return %d : tensor<32x32xf32>
}

// -----

// No phase can multiply a non-zero pair (in1 is zero): the lowest stays.
// CHECK-LABEL: func.func @zero
// CHECK: birsim.tensix_matmul {{.*}} fidelity phases_1 :
// EXACT-LABEL: func.func @zero
// EXACT: birsim.tensix_matmul {{.*}} fidelity phases_123 :
func.func @zero(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %in1 = arith.constant dense<0.0> : tensor<32x32xf32>
  // expected-remark @+1 {{tensix_matmul: phases_123 -> phases_1: phases 2, 3 removed: in0 (SrcB) carries at most 11 significant bits (tf32 Src) and in1 (SrcA) carries at most 0 significant bits (constant)}}
  %d = birsim.tensix_matmul %x, %in1 dest fp32 src tf32, tf32 fidelity phases_123 : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>
  return %d : tensor<32x32xf32>
}

// -----

// mul_tiles: lhs is SrcA. Dropping a phase that multiplies zeros into a
// zeroed Dest is exact while no product's exponent passes Dest's largest
// (docs/Semantics.md section 7): unprovable on values known only at run
// time, so exact-only keeps them; add keeps its LoFi.
// CHECK-LABEL: func.func @eltwise
// CHECK: birsim.tensix_eltwise mul {{.*}} fidelity phases_02 :
// CHECK: birsim.tensix_eltwise mul {{.*}} fidelity hifi2 :
// CHECK: birsim.tensix_eltwise add
// EXACT-LABEL: func.func @eltwise
// EXACT-NOT: fidelity phases_02
// EXACT-NOT: fidelity hifi2
// EXACT: birsim.tensix_eltwise add
func.func @eltwise(%p: tensor<1x576xi8>, %b: tensor<1x32x32xbf16>)
    -> (tensor<1x32x32xf32>, tensor<1x32x32xf32>, tensor<1x32x32xf32>) {
  %w = birsim.bfp_unpack bfp4_b %p : tensor<1x576xi8> -> tensor<1x32x32xf32>
  %x = arith.extf %b : tensor<1x32x32xbf16> to tensor<1x32x32xf32>
  // expected-remark @+1 {{tensix_eltwise: hifi4 -> phases_02: phases 1, 3 removed: lhs (SrcA) carries at most 3 significant bits (bfp4_b) and rhs (SrcB) carries at most 8 significant bits (bf16 values); exact while no product's exponent ea + eb + r passes Dest's largest, 255 (past it a phase whose products are zero realigns a saturated Dest) (docs/Semantics.md section 7)}}
  %m = birsim.tensix_eltwise mul %w, %x dest fp32 src bf16 : tensor<1x32x32xf32>, tensor<1x32x32xf32> -> tensor<1x32x32xf32>
  // expected-remark @+1 {{tensix_eltwise: hifi4 -> hifi2: phases 2, 3 removed: lhs (SrcA) carries at most 8 significant bits (bf16 values) and rhs (SrcB) carries at most 3 significant bits (bfp4_b)}}
  %n = birsim.tensix_eltwise mul %x, %w dest fp32 src bf16 : tensor<1x32x32xf32>, tensor<1x32x32xf32> -> tensor<1x32x32xf32>
  %s = birsim.tensix_eltwise add %w, %x dest fp32 src bf16 fidelity lofi : tensor<1x32x32xf32>, tensor<1x32x32xf32> -> tensor<1x32x32xf32>
  return %m, %n, %s : tensor<1x32x32xf32>, tensor<1x32x32xf32>, tensor<1x32x32xf32>
}

// -----

// Constants decide it: 1.5 x 1.25 stays far below Dest's largest exponent
// (exact); issue 64's 0x7F55 x 0x6440 (bf16) reaches 327, where HiFi2
// gives Inf and HiFi4 +0 (TensixPhases.DroppingIsExactUpToDestsLargestExponent),
// so the rewrite says it is not exact and exact-only keeps HiFi4.
// CHECK-LABEL: func.func @eltwise_constants
// CHECK: birsim.tensix_eltwise mul {{.*}} fidelity lofi :
// CHECK: birsim.tensix_eltwise mul {{.*}} fidelity hifi2 :
// EXACT-LABEL: func.func @eltwise_constants
// EXACT: birsim.tensix_eltwise mul {{.*}} fidelity lofi :
// EXACT-NOT: fidelity hifi2
func.func @eltwise_constants() -> (tensor<4xf32>, tensor<4xf32>) {
  %a = arith.constant dense<1.5> : tensor<4xf32>
  %b = arith.constant dense<1.25> : tensor<4xf32>
  %big = arith.constant dense<0x7F550000> : tensor<4xf32>
  %mid = arith.constant dense<0x64400000> : tensor<4xf32>
  // expected-remark @+1 {{tensix_eltwise: hifi4 -> lofi: phases 1, 2, 3 removed: lhs (SrcA) carries at most 2 significant bits (constant) and rhs (SrcB) carries at most 3 significant bits (constant); exact: a phase whose products are zero adds nothing to a zeroed Dest while no product's exponent passes Dest's largest, 255 (docs/Semantics.md section 7)}}
  %x = birsim.tensix_eltwise mul %a, %b dest fp32 src bf16 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // expected-remark @+1 {{tensix_eltwise: hifi4 -> hifi2: phases 2, 3 removed: lhs (SrcA) carries at most 8 significant bits (constant) and rhs (SrcB) carries at most 2 significant bits (constant); not exact: the products reach exponent 327, past Dest's largest, 255, where a phase whose products are zero realigns the saturated Dest (docs/Semantics.md section 7)}}
  %y = birsim.tensix_eltwise mul %big, %mid dest fp32 src bf16 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %x, %y : tensor<4xf32>, tensor<4xf32>
}
