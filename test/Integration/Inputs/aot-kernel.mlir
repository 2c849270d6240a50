// Kernels for aot.c: fp8 accumulate and a saturating cast, on buffers.
func.func @accumulate_fp8(%dst: memref<?xf8E4M3>, %src: memref<?xf8E4M3>) attributes { llvm.emit_c_interface } {
  birsim.reduce_into add %dst, %src : memref<?xf8E4M3>
  return
}

func.func @quantize(%x: memref<?xf32>, %y: memref<?xf8E5M2>) attributes { llvm.emit_c_interface } {
  birsim.cast_into %x, %y : memref<?xf32> to memref<?xf8E5M2>
  return
}

func.func @scatter_add(%src: memref<?xf32>, %dst: memref<?xf32>, %idx: memref<?xi64>) attributes { llvm.emit_c_interface } {
  birsim.indirect_save_accumulate add %src to %dst[%idx] : memref<?xf32>, memref<?xi64> to memref<?xf32>
  return
}
