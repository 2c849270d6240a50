// MX tiles (docs/Semantics.md section 5, MX tiles): the block-format ops
// take the MX rows, fold them through the core (test_mx_common.cpp's MXFP4
// vectors at unity scale), and verify their rules.
// RUN: birsim-opt %s | birsim-opt | FileCheck %s --check-prefix=ROUND
// RUN: birsim-opt %s --canonicalize | FileCheck %s --check-prefix=FOLD

// ROUND-LABEL: func.func @mx_forms
// ROUND: birsim.bfp_pack mxfp4 %{{.*}} : tensor<1x32x32xf32> -> tensor<1x544xi8>
// ROUND: birsim.bfp_unpack mxint8 %{{.*}} faces : tensor<2x1056xi8> -> tensor<2x32x32xf32>
// ROUND: birsim.bfp_pack_matrix mxfp6_e2m3 %{{.*}} tile [16, 32] transpose : tensor<64x32xbf16> -> tensor<4x528xi8>
func.func @mx_forms(%t: tensor<1x32x32xf32>, %p: tensor<2x1056xi8>,
                    %m: tensor<64x32xbf16>)
    -> (tensor<1x544xi8>, tensor<2x32x32xf32>, tensor<4x528xi8>) {
  %a = birsim.bfp_pack mxfp4 %t : tensor<1x32x32xf32> -> tensor<1x544xi8>
  %b = birsim.bfp_unpack mxint8 %p faces : tensor<2x1056xi8> -> tensor<2x32x32xf32>
  %c = birsim.bfp_pack_matrix mxfp6_e2m3 %m tile [16, 32] transpose : tensor<64x32xbf16> -> tensor<4x528xi8>
  return %a, %b, %c : tensor<1x544xi8>, tensor<2x32x32xf32>, tensor<4x528xi8>
}

// A 1x32 tile is one block: 6.0 (emax 2) sets scale 0x7F; 0.5, 0.375,
// 0.25 (a tie, to even), 0.75, 1.5, 3.0 encode as 0x1, 0x1, 0x0, 0x2, 0x3,
// 0x5 (low nibble first: 0x17, 0x01, 0x32, 0x05), and unpack to their
// values.
// FOLD-LABEL: func.func @mx_fold
// FOLD: arith.constant dense<{{\[\[}}127, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 23, 1, 50, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]> : tensor<1x32xi8>
// FOLD: arith.constant dense<{{\[\[\[}}6.000000e+00, 5.000000e-01, 5.000000e-01, 0.000000e+00, 1.000000e+00, 1.500000e+00, 3.000000e+00, 0.000000e+00
func.func @mx_fold() -> (tensor<1x32xi8>, tensor<1x1x32xf32>) {
  %t = arith.constant dense<[[[6.0, 0.5, 0.375, 0.25, 0.75, 1.5, 3.0, 0.0,
      0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
      0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]> : tensor<1x1x32xf32>
  %p = birsim.bfp_pack mxfp4 %t : tensor<1x1x32xf32> -> tensor<1x32xi8>
  %u = birsim.bfp_unpack mxfp4 %p : tensor<1x32xi8> -> tensor<1x1x32xf32>
  return %p, %u : tensor<1x32xi8>, tensor<1x1x32xf32>
}
