// A linalg.generic that adds a broadcast row and a transposed input in
// bf16 (what importers emit for x + bias + y^T) runs through birsim: the
// row and the transpose are materialized, then added as whole tensors with
// the simulator's bf16 add. Upstream's lowering of the body gives the same
// numbers here: each sum rounds once to bf16 both ways (533 -> 532,
// 425 -> 424).
// RUN: birsim-opt %s --convert-to-birsim=reduce-add=true --birsim-to-llvm=fold-constants=false | \
// RUN:   mlir-runner -e main --entry-point-result=void \
// RUN:     --shared-libs=%birsim_rt,%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s
// RUN: birsim-opt %s --convert-to-birsim=reduce-add=true --birsim-to-llvm=fold-constants=false | FileCheck %s --check-prefix=CALLS
// RUN: birsim-opt %s --birsim-to-llvm=fold-constants=false | \
// RUN:   mlir-runner -e main --entry-point-result=void \
// RUN:     --shared-libs=%birsim_rt,%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s
// CALLS-COUNT-2: llvm.call @birsim_accumulate(
// CALLS-NOT: llvm.call @birsim_accumulate(

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %x = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xbf16>
  %row = arith.constant dense<[10.0, 20.0, 30.0]> : tensor<3xbf16>
  %y = arith.constant dense<[[100.0, 200.0], [300.0, 400.0], [500.0, 600.0]]> : tensor<3x2xbf16>
  %init = tensor.empty() : tensor<2x3xbf16>
  %r = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d1)>,
                                        affine_map<(d0, d1) -> (d1, d0)>, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %row, %y : tensor<2x3xbf16>, tensor<3xbf16>, tensor<3x2xbf16>)
      outs(%init : tensor<2x3xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %c: bf16, %o: bf16):
    %s = arith.addf %a, %b : bf16
    %t = arith.addf %s, %c : bf16
    linalg.yield %t : bf16
  } -> tensor<2x3xbf16>
  %f = arith.extf %r : tensor<2x3xbf16> to tensor<2x3xf32>
  %u = tensor.cast %f : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
// x[i][j] + row[j] + y[j][i]:
// CHECK: {{\[\[}}111,   322,   532],
// CHECK-NEXT: [214,   424,   636]]
