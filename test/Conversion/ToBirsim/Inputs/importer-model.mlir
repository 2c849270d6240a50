// An importer-style module (docs/UsingBirsim.md): a dense_resource f32
// weight quantized to f8E4M3FN in a linalg.generic (torch's
// float8_e4m3fn), a tosa.cast to bf16, and an arith.addf on bf16 tensors.
func.func @model(%x: tensor<4xbf16>) -> (tensor<4xf8E4M3FN>, tensor<4xbf16>) {
  %w = arith.constant dense_resource<weight> : tensor<4xf32>
  %init = tensor.empty() : tensor<4xf8E4M3FN>
  %q = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%w : tensor<4xf32>) outs(%init : tensor<4xf8E4M3FN>) {
  ^bb0(%in: f32, %out: f8E4M3FN):
    %t = arith.truncf %in : f32 to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  } -> tensor<4xf8E4M3FN>
  %b = tosa.cast %w : (tensor<4xf32>) -> tensor<4xbf16>
  %s = arith.addf %b, %x : tensor<4xbf16>
  return %q, %s : tensor<4xf8E4M3FN>, tensor<4xbf16>
}
{-#
  dialect_resources: {
    builtin: {
      // 0.1, 1000.0, -3.3, 1.0e-9 (f32, little-endian, after the alignment word)
      weight: "0x04000000CDCCCC3D00007A4433335340C9D98930"
    }
  }
#-}
