// RUN: birsim-opt %s -convert-birsim-to-llvm -split-input-file | FileCheck %s

// Memref forms pass (op, dst pointer, src pointer, dtype, element count).
// The site names the op and where it was written: "<op> at <file:line:col>".
// CHECK: llvm.mlir.global private constant @__birsim_site_birsim_reduce_into_{{[0-9A-F]+}}("birsim.reduce_into at {{.*}}birsim-to-llvm.mlir:18:3\00")
// CHECK-LABEL: func.func @reduce_into
// CHECK-DAG: %[[DST:.*]] = builtin.unrealized_conversion_cast %arg0 : memref<4x8xbf16> to !llvm.struct
// CHECK-DAG: %[[SRC:.*]] = builtin.unrealized_conversion_cast %arg1 : memref<4x8xbf16> to !llvm.struct
// CHECK-DAG: %[[DPTR:.*]] = llvm.extractvalue %[[DST]][1]
// CHECK-DAG: %[[SPTR:.*]] = llvm.extractvalue %[[SRC]][1]
// CHECK-DAG: %[[OP:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-DAG: %[[BF16:.*]] = llvm.mlir.constant(12 : i32) : i32
// CHECK: %[[STATUS:.*]] = llvm.call @birsim_accumulate(%[[OP]], %[[DPTR]], %[[SPTR]], %[[BF16]], %{{.*}}) : (i32, !llvm.ptr, !llvm.ptr, i32, i64) -> i32
// CHECK: %[[SITE:.*]] = llvm.mlir.addressof @__birsim_site_birsim_reduce_into
// CHECK: llvm.call @birsim_check_status(%[[STATUS]], %[[SITE]]) : (i32, !llvm.ptr) -> ()
// CHECK-NOT: {{^ +birsim\.}}
func.func @reduce_into(%dst: memref<4x8xbf16>, %src: memref<4x8xbf16>) {
  birsim.reduce_into max %dst, %src : memref<4x8xbf16>
  return
}
// CHECK-DAG: llvm.func @birsim_accumulate(i32, !llvm.ptr, !llvm.ptr, i32, i64) -> i32
// CHECK-DAG: llvm.func @birsim_check_status(i32, !llvm.ptr)

// -----

// Dynamic sizes multiply into the element count; the two buffers' counts
// are compared at run time, and where they differ the call gets count 0
// and the status check BIRSIM_EINVAL with its own message.
// CHECK-LABEL: func.func @dynamic_count
// CHECK: %[[S:.*]] = builtin.unrealized_conversion_cast %arg1
// CHECK: %[[D:.*]] = builtin.unrealized_conversion_cast %arg0
// CHECK: %[[DSIZE:.*]] = llvm.extractvalue %[[D]][3, 0]
// CHECK: %[[DCOUNT:.*]] = llvm.mul %{{.*}}, %[[DSIZE]]
// CHECK: %[[SSIZE:.*]] = llvm.extractvalue %[[S]][3, 0]
// CHECK: %[[SCOUNT:.*]] = llvm.mul %{{.*}}, %[[SSIZE]]
// CHECK: %[[DIFFER:.*]] = llvm.icmp "ne" %[[DCOUNT]], %[[SCOUNT]]
// CHECK: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK: %[[SIZE0:.*]] = llvm.extractvalue %[[D]][3, 0]
// CHECK: %[[COUNT:.*]] = llvm.mul %[[SIXTEEN]], %[[SIZE0]]
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64)
// CHECK: %[[CALLED:.*]] = llvm.select %[[DIFFER]], %[[ZERO]], %[[COUNT]]
// CHECK: %[[STATUS:.*]] = llvm.call @birsim_accumulate(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[CALLED]])
// CHECK: %[[EINVAL:.*]] = llvm.mlir.constant(-1 : i32)
// CHECK: %[[CHECKED:.*]] = llvm.select %[[DIFFER]], %[[EINVAL]], %[[STATUS]]
// CHECK: %[[WHAT:.*]] = llvm.select %[[DIFFER]]
// CHECK: llvm.call @birsim_check_status(%[[CHECKED]], %[[WHAT]])
func.func @dynamic_count(%dst: memref<?x16xf8E5M2>, %src: memref<?x16xf8E5M2>) {
  birsim.reduce_into add %dst, %src : memref<?x16xf8E5M2>
  return
}

// -----

// CHECK-LABEL: func.func @collective_reduce_into
// CHECK-DAG: %[[ALU:.*]] = llvm.mlir.constant(9 : i32) : i32
// CHECK: llvm.call @birsim_collective_reduce(%[[ALU]], %{{.*}}, %{{.*}}, %{{.*}}) : (i32, !llvm.ptr, !llvm.ptr, i64) -> i32
// CHECK: llvm.call @birsim_check_status
func.func @collective_reduce_into(%acc: memref<16xf32>, %x: memref<16xf32>) {
  birsim.collective_reduce_into min %acc, %x : memref<16xf32>
  return
}

// -----

// birsim_cast(src dtype, src, dst dtype, dst, count, fp8 config).
// CHECK-LABEL: func.func @cast_into
// CHECK-DAG: %[[F32:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG: %[[E5M2:.*]] = llvm.mlir.constant(7 : i32) : i32
// CHECK-DAG: %[[CFG:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.call @birsim_cast(%[[F32]], %{{.*}}, %[[E5M2]], %{{.*}}, %{{.*}}, %[[CFG]]) : (i32, !llvm.ptr, i32, !llvm.ptr, i64, i32) -> i32
// CHECK: %[[CFG0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.call @birsim_cast(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[CFG0]])
func.func @cast_into(%src: memref<8xf32>, %dst: memref<8xf8E5M2>) {
  birsim.cast_into %src, %dst : memref<8xf32> to memref<8xf8E5M2>
  birsim.cast_into %src, %dst {fp8_config = 0 : i32} : memref<8xf32> to memref<8xf8E5M2>
  return
}

// -----

// birsim_bfp_pack_at(where, format, src dtype, tiles, tile count, tile rows,
// tile cols, flags, out) and the inverse; `at` absent is the host (0).
// CHECK-LABEL: func.func @bfp
// CHECK-DAG: %[[HOST:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[FMT:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-DAG: %[[BF16:.*]] = llvm.mlir.constant(12 : i32) : i32
// CHECK-DAG: %[[N:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-DAG: %[[R:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG: %[[C:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-DAG: %[[FACES:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.call @birsim_bfp_pack_at(%[[HOST]], %[[FMT]], %[[BF16]], %{{.*}}, %[[N]], %[[R]], %[[C]], %[[FACES]], %{{.*}}) : (i32, i32, i32, !llvm.ptr, i64, i32, i32, i32, !llvm.ptr) -> i32
// CHECK: llvm.call @birsim_bfp_unpack_at(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i32, i32, !llvm.ptr, i64, i32, i32, i32, !llvm.ptr) -> i32
func.func @bfp(%t: memref<2x16x32xbf16>, %p: memref<2x288xi8>, %u: memref<2x16x32xf32>) {
  birsim.bfp_pack_into bfp4_a %t, %p faces : memref<2x16x32xbf16> to memref<2x288xi8>
  birsim.bfp_unpack_into bfp4_a %p, %u : memref<2x288xi8> to memref<2x16x32xf32>
  return
}

// -----

// birsim_bfp_pack_matrix_at(where, format, src dtype, matrix, rows, cols,
// tile rows, tile cols, flags, out) and the inverse; leading dimensions
// fold into rows; `at bf16_dest` is site 3.
// CHECK-LABEL: func.func @bfp_matrix
// CHECK-DAG: %[[ROWS:.*]] = llvm.mlir.constant(64 : i64) : i64
// CHECK-DAG: %[[COLS:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-DAG: %[[T:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[SITE:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: llvm.call @birsim_bfp_pack_matrix_at(%[[SITE]], %{{.*}}, %{{.*}}, %{{.*}}, %[[ROWS]], %[[COLS]], %{{.*}}, %{{.*}}, %[[T]], %{{.*}}) : (i32, i32, i32, !llvm.ptr, i64, i64, i32, i32, i32, !llvm.ptr) -> i32
// CHECK: llvm.call @birsim_bfp_unpack_matrix_at(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i32, i32, !llvm.ptr, i64, i64, i32, i32, i32, !llvm.ptr) -> i32
func.func @bfp_matrix(%m: memref<2x32x32xbf16>, %p: memref<2x1088xi8>, %u: memref<2x32x32xf32>) {
  birsim.bfp_pack_matrix_into bfp8_b %m, %p tile [32, 32] transpose at bf16_dest : memref<2x32x32xbf16> to memref<2x1088xi8>
  birsim.bfp_unpack_matrix_into bfp8_b %p, %u tile [32, 32] transpose at bf16_dest : memref<2x1088xi8> to memref<2x32x32xf32>
  return
}

// -----

// Instruction-level ops: cce_op through AluOpType2MemoryReduction at
// compile time (bypass -> copy 0, add -> add 1).
// CHECK-LABEL: func.func @instructions
// CHECK: %[[COPY:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.call @birsim_accumulate(%[[COPY]],
// CHECK: %[[ADD:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[BF16:.*]] = llvm.mlir.constant(12 : i32) : i32
// CHECK: llvm.call @birsim_scatter_accumulate(%[[ADD]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[BF16]]) : (i32, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, i64, i32) -> i32
// CHECK: llvm.mlir.addressof @__birsim_site_birsim_indirect_save_accumulate
// CHECK: llvm.call @birsim_scatter_accumulate
// CHECK: llvm.mlir.addressof @__birsim_site_birsim_indirect_save
func.func @instructions(%s: memref<4xbf16>, %i: memref<4xi64>, %d: memref<16xbf16>, %e: memref<4xbf16>) {
  birsim.dma_copy bypass %s to %e : memref<4xbf16> to memref<4xbf16>
  birsim.indirect_save_accumulate add %s to %d[%i] : memref<4xbf16>, memref<4xi64> to memref<16xbf16>
  birsim.indirect_save bypass %s to %d[%i] : memref<4xbf16>, memref<4xi64> to memref<16xbf16>
  return
}

// -----

// Scalars and vectors: raw bits through entry-block stack slots. f8 values
// arrive as i8 after type conversion.
// CHECK-LABEL: func.func @scalar_reduce
// CHECK: llvm.alloca %{{.*}} x i8
// CHECK: llvm.alloca %{{.*}} x i8
// CHECK: scf.for
// CHECK: llvm.store
// CHECK: llvm.call @birsim_accumulate
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> i8
func.func @scalar_reduce(%a: f8E4M3, %b: f8E4M3, %n: index) -> f8E4M3 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> f8E4M3 {
    %s = birsim.reduce add %acc, %b : f8E4M3
    scf.yield %s : f8E4M3
  }
  return %r : f8E4M3
}

// -----

// CHECK-LABEL: func.func @vector_ops
// CHECK-DAG: %[[FOUR:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: llvm.call @birsim_accumulate(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[FOUR]])
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<4xbf16>
// CHECK: llvm.call @birsim_collective_reduce
// CHECK: llvm.call @birsim_cast
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> i32
func.func @vector_ops(%a: vector<4xbf16>, %x: f32, %r: f32) -> (vector<4xbf16>, f32, !birsim.float32r) {
  %0 = birsim.reduce max %a, %a : vector<4xbf16>
  %1 = birsim.collective_reduce add %x, %x : f32
  %2 = birsim.cast %r : f32 to !birsim.float32r
  return %0, %1, %2 : vector<4xbf16>, f32, !birsim.float32r
}

// -----

// CHECK-LABEL: func.func @constant
// CHECK: llvm.mlir.constant(-1 : i32) : i32
func.func @constant() -> si32 {
  %c = birsim.constant -1 : si32
  return %c : si32
}

// -----

// A row of a larger buffer: the data pointer is aligned + offset.
// CHECK-LABEL: func.func @row_offset
// CHECK: %[[D:.*]] = builtin.unrealized_conversion_cast %{{.*}} : memref<4xbf16, strided<[1], offset: ?>> to
// CHECK: %[[BASE:.*]] = llvm.extractvalue %[[D]][1]
// CHECK: %[[OFF:.*]] = llvm.extractvalue %[[D]][2]
// CHECK: %[[PTR:.*]] = llvm.getelementptr %[[BASE]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
// CHECK: llvm.call @birsim_accumulate(%{{.*}}, %[[PTR]],
func.func @row_offset(%row: memref<4xbf16, strided<[1], offset: ?>>, %src: memref<4xbf16>) {
  birsim.dma_copy add %src to %row : memref<4xbf16> to memref<4xbf16, strided<[1], offset: ?>>
  return
}

// -----

// dma_compute_into passes its sources' pointers and dtypes as two arrays,
// then the narrowing (fp8_config, rounding, seed).
// CHECK-LABEL: func.func @dma_compute_into
// CHECK-DAG: %[[PTRS:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x ptr>
// CHECK-DAG: %[[DTYPES:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x i32>
// CHECK-DAG: %[[TWO:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-DAG: %[[SEED:.*]] = llvm.mlir.constant(9 : i64) : i64
// CHECK: llvm.call @birsim_dma_compute(%{{.*}}, %[[PTRS]], %[[DTYPES]], %[[TWO]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[SEED]]) : (i32, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i32, i64, i32, i32, i64) -> i32
func.func @dma_compute_into(%psum: memref<4xbf16>, %mm: memref<4xf32>) {
  birsim.dma_compute_into add %psum, %mm to %psum {rounding = #birsim.rounding<stochastic>, seed = 9 : i64}
      : memref<4xbf16>, memref<4xf32> to memref<4xbf16>
  return
}

// -----

// CHECK-LABEL: func.func @dma_scatter
// CHECK: llvm.call @birsim_scatter_accumulate_mixed({{.*}}) : (i32, !llvm.ptr, i64, i32, !llvm.ptr, i32, !llvm.ptr, i64, i32, i32, i64) -> i32
func.func @dma_scatter(%src: memref<4xf32>, %idx: memref<4xi64>, %dst: memref<16xbf16>) {
  birsim.dma_scatter max %src to %dst[%idx] {fp8_config = #birsim.fp8_config<none>}
      : memref<4xf32>, memref<4xi64> to memref<16xbf16>
  return
}
