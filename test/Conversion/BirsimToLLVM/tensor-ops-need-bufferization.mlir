// RUN: birsim-opt %s -convert-birsim-to-llvm -split-input-file -verify-diagnostics

// Tensor-level ops are not lowered directly (D14): bufferize first, as the
// birsim-to-llvm pipeline does.
func.func @tensor_reduce(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'birsim.reduce' on tensors has no runtime call: bufferize tensor ops first (one-shot-bufferize), or run the birsim-to-llvm pipeline, which does}}
  %r = birsim.reduce add %a, %a : tensor<4xf32>
  return %r : tensor<4xf32>
}
