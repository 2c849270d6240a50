// birsim-to-llvm{fold-constants}: by default birsim ops on constants fold
// through the core at compile time; with fold-constants=false they execute
// as runtime calls.
// RUN: birsim-opt %s --birsim-to-llvm | FileCheck %s --check-prefix=FOLD
// RUN: birsim-opt %s "--birsim-to-llvm=fold-constants=false" | FileCheck %s --check-prefix=CALL

// FOLD: llvm.mlir.global private constant @{{.*}}(dense<[1.000000e+00, 4.000000e+00]> : tensor<2xbf16>)
// FOLD-LABEL: llvm.func @constant_sum
// FOLD-NOT: llvm.call @birsim_accumulate
// CALL: llvm.mlir.global private constant @{{.*}}(dense<[5.000000e-01, 2.000000e+00]> : tensor<2xbf16>)
// CALL-LABEL: llvm.func @constant_sum
// CALL: llvm.call @birsim_accumulate
func.func @constant_sum() -> tensor<2xbf16> {
  %a = arith.constant dense<[0.5, 2.0]> : tensor<2xbf16>
  %r = birsim.reduce add %a, %a : tensor<2xbf16>
  return %r : tensor<2xbf16>
}
