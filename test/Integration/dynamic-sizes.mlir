// Operands whose sizes the types leave to run time and that must agree
// (docs/Conversions.md, "Buffers the runtime takes"): the lowering compares
// them before the call, and where they differ the call touches nothing and
// fails, instead of writing the shorter destination by the longer source's
// count. With agreeing sizes, the calls run.
// RUN: birsim-opt %s --birsim-to-llvm > %t.ll
// RUN: mlir-runner %t.ll -e agree --entry-point-result=void \
// RUN:     --shared-libs=%birsim_rt,%mlir_runner_utils,%mlir_c_runner_utils | \
// RUN:   FileCheck %s --check-prefix=AGREE
// RUN: not mlir-runner %t.ll -e pack_differs --entry-point-result=void \
// RUN:     --shared-libs=%birsim_rt,%mlir_runner_utils,%mlir_c_runner_utils 2>&1 | \
// RUN:   FileCheck %s --check-prefix=PACK
// RUN: not mlir-runner %t.ll -e cast_differs --entry-point-result=void \
// RUN:     --shared-libs=%birsim_rt,%mlir_runner_utils,%mlir_c_runner_utils 2>&1 | \
// RUN:   FileCheck %s --check-prefix=CAST
// RUN: not mlir-runner %t.ll -e scatter_differs --entry-point-result=void \
// RUN:     --shared-libs=%birsim_rt,%mlir_runner_utils,%mlir_c_runner_utils 2>&1 | \
// RUN:   FileCheck %s --check-prefix=SCATTER
// RUN: not mlir-runner %t.ll -e tiles_differ --entry-point-result=void \
// RUN:     --shared-libs=%birsim_rt,%mlir_runner_utils,%mlir_c_runner_utils 2>&1 | \
// RUN:   FileCheck %s --check-prefix=TILES

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func private @pack(%i: memref<?xf32>, %o: memref<?xf32>) {
  birsim.tensix_pack_into %i, %o dest fp32 : memref<?xf32> -> memref<?xf32>
  return
}
func.func private @cast(%i: memref<?xf32>, %o: memref<?xbf16>) {
  birsim.cast_into %i, %o : memref<?xf32> to memref<?xbf16>
  return
}
func.func private @scatter(%s: memref<?xf32>, %i: memref<?xi64>, %d: memref<8xf32>) {
  birsim.indirect_save add %s to %d[%i] : memref<?xf32>, memref<?xi64> to memref<8xf32>
  return
}
func.func private @tiles(%t: memref<?x32x32xf32>, %p: memref<?x1088xi8>) {
  birsim.bfp_pack_into bfp8_b %t, %p : memref<?x32x32xf32> to memref<?x1088xi8>
  return
}

func.func @agree() {
  %c4 = arith.constant 4 : index
  %i = memref.alloc(%c4) : memref<?xf32>
  %o = memref.alloc(%c4) : memref<?xf32>
  %one = arith.constant 1.5 : f32
  linalg.fill ins(%one : f32) outs(%i : memref<?xf32>)
  call @pack(%i, %o) : (memref<?xf32>, memref<?xf32>) -> ()
  // AGREE: [1.5,  1.5,  1.5,  1.5]
  %u = memref.cast %o : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// 8 elements packed into 4.
// PACK: birsim runtime error in birsim.tensix_pack_into at {{.*}}dynamic-sizes.mlir:26:3: its operands' sizes differ at run time
func.func @pack_differs() {
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  %i = memref.alloc(%c8) : memref<?xf32>
  %o = memref.alloc(%c4) : memref<?xf32>
  call @pack(%i, %o) : (memref<?xf32>, memref<?xf32>) -> ()
  return
}

// 8 elements cast into 4.
// CAST: birsim runtime error in birsim.cast_into at {{.*}}dynamic-sizes.mlir:30:3: its operands' sizes differ at run time
func.func @cast_differs() {
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  %i = memref.alloc(%c8) : memref<?xf32>
  %o = memref.alloc(%c4) : memref<?xbf16>
  call @cast(%i, %o) : (memref<?xf32>, memref<?xbf16>) -> ()
  return
}

// 8 sources and 4 indices: the scatter would read 4 indices past the end.
// SCATTER: birsim runtime error in birsim.indirect_save at {{.*}}dynamic-sizes.mlir:34:3: its operands' sizes differ at run time
func.func @scatter_differs() {
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  %s = memref.alloc(%c8) : memref<?xf32>
  %i = memref.alloc(%c4) : memref<?xi64>
  %z = arith.constant 0 : i64
  linalg.fill ins(%z : i64) outs(%i : memref<?xi64>)
  %d = memref.alloc() : memref<8xf32>
  call @scatter(%s, %i, %d) : (memref<?xf32>, memref<?xi64>, memref<8xf32>) -> ()
  return
}

// 2 tiles packed into room for 1.
// TILES: birsim runtime error in birsim.bfp_pack_into at {{.*}}dynamic-sizes.mlir:38:3: its operands' sizes differ at run time
func.func @tiles_differ() {
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %t = memref.alloc(%c2) : memref<?x32x32xf32>
  %p = memref.alloc(%c1) : memref<?x1088xi8>
  call @tiles(%t, %p) : (memref<?x32x32xf32>, memref<?x1088xi8>) -> ()
  return
}
