// RUN: birsim-opt %s --inline -canonicalize | FileCheck %s
// RUN: birsim-opt %s --inline | FileCheck %s --check-prefix=INLINED

// birsim ops inline like arith's (BirsimInlinerInterface), so a weight cast
// in a callee folds in its caller: 1000.0 saturates to E4M3's 240 (0x77).
func.func private @quantize(%w: tensor<4xf32>) -> tensor<4xf8E4M3> {
  %q = birsim.cast %w : tensor<4xf32> to tensor<4xf8E4M3>
  return %q : tensor<4xf8E4M3>
}

func.func private @accumulate(%a: tensor<4xf8E4M3>, %b: tensor<4xf8E4M3>) -> tensor<4xf8E4M3> {
  %s = birsim.reduce add %a, %b : tensor<4xf8E4M3>
  return %s : tensor<4xf8E4M3>
}

// CHECK-LABEL: func.func @weights
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<[1.000000e+00, 2.400000e+02, 2.400000e+02, 0.000000e+00]> : tensor<4xf8E4M3>
// CHECK-NEXT: return %[[C]]
// INLINED-LABEL: func.func @weights
// INLINED-NOT: call
func.func @weights() -> tensor<4xf8E4M3> {
  %w = arith.constant dense<[0.5, 1000.0, 120.0, 0.0]> : tensor<4xf32>
  %h = arith.constant dense<[0.5, 0.0, 120.0, 0.0]> : tensor<4xf32>
  %q = call @quantize(%w) : (tensor<4xf32>) -> tensor<4xf8E4M3>
  %r = call @quantize(%h) : (tensor<4xf32>) -> tensor<4xf8E4M3>
  %s = call @accumulate(%q, %r) : (tensor<4xf8E4M3>, tensor<4xf8E4M3>) -> tensor<4xf8E4M3>
  return %s : tensor<4xf8E4M3>
}
