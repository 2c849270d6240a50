// docs/Fidelity.md's example: three of four fp8 sums overflow.
func.func @sums() -> tensor<4xf8E4M3> {
  %a = arith.constant dense<[240.0, 224.0, -240.0, 1.0]> : tensor<4xf8E4M3>
  %s = birsim.reduce add %a, %a : tensor<4xf8E4M3>
  return %s : tensor<4xf8E4M3>
}
