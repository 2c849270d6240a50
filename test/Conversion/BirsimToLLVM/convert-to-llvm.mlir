// Upstream --convert-to-llvm lowers birsim through its
// ConvertToLLVMPatternInterface, together with func and memref.
// RUN: birsim-opt %s -convert-to-llvm | FileCheck %s

// CHECK-LABEL: llvm.func @scatter
// CHECK: llvm.call @birsim_scatter_accumulate
// CHECK: llvm.call @birsim_check_status
// CHECK-NOT: birsim.
// CHECK-NOT: builtin.unrealized_conversion_cast
func.func @scatter(%s: memref<4xf8E5M2>, %i: memref<4xi64>, %d: memref<16xf8E5M2>) {
  birsim.indirect_save_accumulate add %s to %d[%i] : memref<4xf8E5M2>, memref<4xi64> to memref<16xf8E5M2>
  return
}

// CHECK-LABEL: llvm.func @scalar
// CHECK-SAME: (%{{.*}}: i8) -> bf16
// CHECK: llvm.call @birsim_cast
func.func @scalar(%x: f8E4M3FN) -> bf16 {
  %y = birsim.cast %x : f8E4M3FN to bf16
  return %y : bf16
}
