// An importer-style module: an f32 weight quantized to f8E4M3FN in a
// linalg.generic, read back with arith.extf, added to an activation in bf16
// with arith.addf, the results printed: docs/UsingBirsim.md runs it to
// the end, just in time and ahead of time (test/Examples/importer-model.test).
func.func private @printMemrefF32(tensor<*xf32>)

func.func @model(%w: tensor<4xf32>, %x: tensor<4xbf16>) -> (tensor<4xf32>, tensor<4xf32>) {
  %init = tensor.empty() : tensor<4xf8E4M3FN>
  %q = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%w : tensor<4xf32>) outs(%init : tensor<4xf8E4M3FN>) {
  ^bb0(%in: f32, %out: f8E4M3FN):
    %t = arith.truncf %in : f32 to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  } -> tensor<4xf8E4M3FN>
  %back = arith.extf %q : tensor<4xf8E4M3FN> to tensor<4xf32>
  %b = arith.truncf %w : tensor<4xf32> to tensor<4xbf16>
  %s = arith.addf %b, %x : tensor<4xbf16>
  %sum = arith.extf %s : tensor<4xbf16> to tensor<4xf32>
  return %back, %sum : tensor<4xf32>, tensor<4xf32>
}

// main returns 0, so that the program compiled ahead of time exits with 0.
func.func @main() -> i32 {
  %w = arith.constant dense<[0.1, 1000.0, -3.3, 1.0e-9]> : tensor<4xf32>
  %x = arith.constant dense<[1.0, 2.0e38, 0.5, 3.0]> : tensor<4xbf16>
  %q, %s = call @model(%w, %x) : (tensor<4xf32>, tensor<4xbf16>) -> (tensor<4xf32>, tensor<4xf32>)
  %uq = tensor.cast %q : tensor<4xf32> to tensor<*xf32>
  %us = tensor.cast %s : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%uq) : (tensor<*xf32>) -> ()
  call @printMemrefF32(%us) : (tensor<*xf32>) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
