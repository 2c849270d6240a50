// RUN: birsim-opt %s -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -split-input-file | FileCheck %s

// reduce / collective_reduce write into their first operand's buffer.
// CHECK-LABEL: func.func @reduce
// CHECK-SAME: (%[[DST:.*]]: memref<4x8xbf16>, %[[SRC:.*]]: memref<4x8xbf16>) -> memref<4x8xbf16>
// CHECK: birsim.reduce_into add %[[DST]], %[[SRC]] : memref<4x8xbf16>
// CHECK: return %[[DST]]
func.func @reduce(%dst: tensor<4x8xbf16>, %src: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %r = birsim.reduce add %dst, %src : tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}

// -----

// A constant destination is not writable: it is copied first.
// CHECK-LABEL: func.func @reduce_into_constant
// CHECK: %[[G:.*]] = memref.get_global
// CHECK: %[[COPY:.*]] = memref.alloc() {{.*}}: memref<4xf32>
// CHECK: memref.copy %[[G]], %[[COPY]]
// CHECK: birsim.collective_reduce_into max %[[COPY]], %{{.*}} : memref<4xf32>
// CHECK: return %[[COPY]]
func.func @reduce_into_constant(%x: tensor<4xf32>) -> tensor<4xf32> {
  %acc = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %r = birsim.collective_reduce max %acc, %x : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// cast and the BFP ops write a new identity-layout buffer.
// CHECK-LABEL: func.func @new_buffers
// CHECK-SAME: (%[[X:.*]]: memref<?xf32>, %[[T:.*]]: memref<2x32x32xf32>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[N:.*]] = memref.dim %[[X]], %[[C0]]
// CHECK: %[[Y:.*]] = memref.alloc(%[[N]]) {{.*}}: memref<?xf8E5M2>
// CHECK: birsim.cast_into %[[X]], %[[Y]] fp8_config<none> : memref<?xf32> to memref<?xf8E5M2>
// CHECK: %[[P:.*]] = memref.alloc() {{.*}}: memref<2x1088xi8>
// CHECK: birsim.bfp_pack_into bfp8_b %[[T]], %[[P]]
// CHECK: %[[U:.*]] = memref.alloc() {{.*}}: memref<2x32x32xf32>
// CHECK: birsim.bfp_unpack_into bfp8_b %[[P]], %[[U]]
func.func @new_buffers(%x: tensor<?xf32>, %t: tensor<2x32x32xf32>) -> (tensor<?xf8E5M2>, tensor<2x32x32xf32>) {
  %y = birsim.cast %x {fp8_config = 0 : i32} : tensor<?xf32> to tensor<?xf8E5M2>
  %p = birsim.bfp_pack bfp8_b %t : tensor<2x32x32xf32> -> tensor<2x1088xi8>
  %u = birsim.bfp_unpack bfp8_b %p : tensor<2x1088xi8> -> tensor<2x32x32xf32>
  return %y, %u : tensor<?xf8E5M2>, tensor<2x32x32xf32>
}

// -----

// Scalars and vectors have no tensor semantics and stay as they are.
// CHECK-LABEL: func.func @scalars
// CHECK: birsim.reduce add %{{.*}}, %{{.*}} : vector<4xf16>
func.func @scalars(%a: vector<4xf16>) -> vector<4xf16> {
  %r = birsim.reduce add %a, %a : vector<4xf16>
  return %r : vector<4xf16>
}

// -----

// tensix_matmul writes a new Dest buffer with the op's attributes.
// CHECK-LABEL: func.func @tensix_matmul
// CHECK-SAME: (%[[A:.*]]: memref<32x64xf32>, %[[B:.*]]: memref<64x32xf32>)
// CHECK: %[[D:.*]] = memref.alloc() {{.*}}: memref<32x32xbf16>
// CHECK: birsim.tensix_matmul_into %[[A]], %[[B]], %[[D]] dest bf16 src tf32, bf16 fidelity phases_02 arch blackhole : memref<32x64xf32>, memref<64x32xf32> -> memref<32x32xbf16>
// CHECK: return %[[D]]
func.func @tensix_matmul(%a: tensor<32x64xf32>, %b: tensor<64x32xf32>) -> tensor<32x32xbf16> {
  %d = birsim.tensix_matmul %a, %b dest bf16 src tf32, bf16 fidelity phases_02 arch blackhole : tensor<32x64xf32>, tensor<64x32xf32> -> tensor<32x32xbf16>
  return %d : tensor<32x32xbf16>
}

// -----

// dma_compute writes a new buffer with dma_compute_into, its attributes kept.
// CHECK-LABEL: func.func @dma_compute
// CHECK-SAME: (%[[P:.*]]: memref<4xbf16>, %[[M:.*]]: memref<4xf32>) -> memref<4xbf16>
// CHECK: %[[OUT:.*]] = memref.alloc() {{.*}}: memref<4xbf16>
// CHECK: birsim.dma_compute_into add %[[P]], %[[M]] to %[[OUT]] {rounding = #birsim.rounding<stochastic>, seed = 9 : i64} : memref<4xbf16>, memref<4xf32> to memref<4xbf16>
// CHECK: return %[[OUT]]
func.func @dma_compute(%psum: tensor<4xbf16>, %mm: tensor<4xf32>) -> tensor<4xbf16> {
  %0 = birsim.dma_compute add %psum, %mm {rounding = #birsim.rounding<stochastic>, seed = 9 : i64}
      : tensor<4xbf16>, tensor<4xf32> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}
