// A mixed module: a linalg body, tosa-to-linalg's float-to-int body
// (roundeven then fptosi), and top-level arith. The pass order raises the
// linalg ops whole, so lowering leaves one runtime call per op and no loop
// of per-element calls.
// RUN: birsim-opt %s --convert-to-birsim="int-casts=true reduce-add=true" | FileCheck %s --check-prefix=BIRSIM
// RUN: birsim-opt %s --convert-to-birsim="int-casts=true reduce-add=true" --birsim-to-llvm | FileCheck %s
// BIRSIM-COUNT-4: birsim.
// BIRSIM-NOT: linalg.generic
// BIRSIM-NOT: arith.truncf
// CHECK-COUNT-3: llvm.call @birsim_cast(
// CHECK-NOT: llvm.cond_br
// CHECK: llvm.call @birsim_accumulate(
// CHECK-NOT: llvm.cond_br

#id = affine_map<(d0, d1) -> (d0, d1)>

func.func @mixed(%w: tensor<64x64xf32>, %b: tensor<64x64xbf16>)
    -> (tensor<64x64xf8E4M3FN>, tensor<64x64xi8>, tensor<64x64xbf16>) {
  %e8 = tensor.empty() : tensor<64x64xf8E4M3FN>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<64x64xf32>) outs(%e8 : tensor<64x64xf8E4M3FN>) {
  ^bb0(%in: f32, %out: f8E4M3FN):
    %t = arith.truncf %in : f32 to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  } -> tensor<64x64xf8E4M3FN>
  %ei = tensor.empty() : tensor<64x64xi8>
  %i = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<64x64xf32>) outs(%ei : tensor<64x64xi8>) {
  ^bb0(%in: f32, %out: i8):
    %r = math.roundeven %in : f32
    %n = arith.fptosi %r : f32 to i8
    linalg.yield %n : i8
  } -> tensor<64x64xi8>
  %h = arith.truncf %w : tensor<64x64xf32> to tensor<64x64xbf16>
  %s = arith.addf %h, %b : tensor<64x64xbf16>
  return %q, %i, %s : tensor<64x64xf8E4M3FN>, tensor<64x64xi8>, tensor<64x64xbf16>
}
