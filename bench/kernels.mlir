// Elementwise fp8 E5M2 add over a buffer, compiled ahead of time by
// bench/run.sh in two ways:
//   @apfloat_add: arith.addf per element, lowered by MLIR 22's
//     --convert-arith-to-apfloat (the peer: one APFloat call per element in
//     libmlir_apfloat_wrappers.so)
//   @birsim_add_loop: birsim.reduce add per element (one runtime call each)
//   @birsim_add_bulk: one birsim.reduce_into over the whole buffer
// The peer rounds in the narrow type, birsim in fp32 with x86 semantics:
// this compares throughput, not results.

func.func @apfloat_add(%a: memref<?xf8E5M2>, %b: memref<?xf8E5M2>) attributes { llvm.emit_c_interface } {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf8E5M2>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf8E5M2>
    %y = memref.load %b[%i] : memref<?xf8E5M2>
    %s = arith.addf %x, %y : f8E5M2
    memref.store %s, %a[%i] : memref<?xf8E5M2>
  }
  return
}

func.func @birsim_add_loop(%a: memref<?xf8E5M2>, %b: memref<?xf8E5M2>) attributes { llvm.emit_c_interface } {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf8E5M2>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf8E5M2>
    %y = memref.load %b[%i] : memref<?xf8E5M2>
    %s = birsim.reduce add %x, %y : f8E5M2
    memref.store %s, %a[%i] : memref<?xf8E5M2>
  }
  return
}

func.func @birsim_add_bulk(%a: memref<?xf8E5M2>, %b: memref<?xf8E5M2>) attributes { llvm.emit_c_interface } {
  birsim.reduce_into add %a, %b : memref<?xf8E5M2>
  return
}
