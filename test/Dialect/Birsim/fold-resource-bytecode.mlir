// Importers ship MLIR bytecode: a module read from bytecode folds its
// `dense_resource` weights the same way, and the result survives another
// bytecode round trip.
// RUN: birsim-opt %s -emit-bytecode -o %t.mlirbc
// RUN: birsim-opt %t.mlirbc -canonicalize -emit-bytecode -o %t.folded.mlirbc
// RUN: birsim-opt %t.folded.mlirbc | FileCheck %s

// CHECK-LABEL: func.func @weights
// CHECK-DAG: dense_resource<birsim_folded> : tensor<2xf32>
// CHECK-DAG: dense_resource<birsim_folded_1> : tensor<2xbf16>
// CHECK-DAG: birsim_folded: "0x080000000000004000008040"
// CHECK-DAG: birsim_folded_1: "0x08000000803F0040"
func.func @weights() -> (tensor<2xf32>, tensor<2xbf16>) {
  %a = arith.constant dense_resource<weights> : tensor<2xf32>
  %r = birsim.reduce add %a, %a : tensor<2xf32>
  %c = birsim.cast %a : tensor<2xf32> to tensor<2xbf16>
  return %r, %c : tensor<2xf32>, tensor<2xbf16>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}
