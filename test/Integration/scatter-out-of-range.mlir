// An out-of-range scatter index is caught by the runtime before any write:
// the lowered code checks the status, the hook prints the op, its source
// location and birsim_last_error(), and exits with status 1: no crash, no
// crash report from mlir-runner.
// RUN: birsim-opt %s --birsim-to-llvm | \
// RUN:   not mlir-runner -e main --entry-point-result=void \
// RUN:     --shared-libs=%birsim_rt,%mlir_runner_utils,%mlir_c_runner_utils 2>&1 | \
// RUN:   FileCheck %s --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"

// CHECK: before
// CHECK: birsim runtime error in birsim.indirect_save_accumulate at {{.*}}scatter-out-of-range.mlir:[[@LINE+9]]:{{[0-9]+}}: scatter index 16 is outside the destination of 16 elements
// CHECK-NOT: after
func.func @main() {
  %dst = memref.alloc() : memref<16xf32>
  %src_t = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %idx_t = arith.constant dense<[0, 16]> : tensor<2xi64>
  %src = bufferization.to_buffer %src_t read_only : tensor<2xf32> to memref<2xf32>
  %idx = bufferization.to_buffer %idx_t read_only : tensor<2xi64> to memref<2xi64>
  vector.print str "before\n"
  birsim.indirect_save_accumulate add %src to %dst[%idx] : memref<2xf32>, memref<2xi64> to memref<16xf32>
  vector.print str "after\n"
  return
}
