// A fake-quantized weight as QAT exports it: truncf to f8E4M3FN then extf
// back to f32, in one linalg.generic.
func.func @weights() -> tensor<4xf32> {
  %w = arith.constant dense<[0.1, 1000.0, -3.3, 1.0e-9]> : tensor<4xf32>
  %init = tensor.empty() : tensor<4xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%w : tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.truncf %in : f32 to f8E4M3FN
    %e = arith.extf %t : f8E4M3FN to f32
    linalg.yield %e : f32
  } -> tensor<4xf32>
  return %q : tensor<4xf32>
}
