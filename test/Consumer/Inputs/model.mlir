func.func @model(%x: tensor<4xf32>) -> (tensor<2xf8E4M3>, tensor<4xbf16>) {
  %a = arith.constant dense<[0x77, 0x38]> : tensor<2xf8E4M3>
  %r = birsim.reduce add %a, %a : tensor<2xf8E4M3>
  %c = birsim.cast %x : tensor<4xf32> to tensor<4xbf16>
  return %r, %c : tensor<2xf8E4M3>, tensor<4xbf16>
}
