// RUN: birsim-opt %s -split-input-file -verify-diagnostics

func.func @not_whole_tiles(%m: tensor<48x64xf32>, %c: tensor<1xi8>) -> tensor<576xi8> {
  // expected-error @+1 {{'birsim.bfp_pack_mixed' op mixed BFP takes whole 32x32 tiles: 'tensor<48x64xf32>' folds to 48x64 (docs/Semantics.md section 5)}}
  %p = birsim.bfp_pack_mixed %m, %c : tensor<48x64xf32>, tensor<1xi8> -> tensor<576xi8>
  return %p : tensor<576xi8>
}

// -----

func.func @code_bytes(%m: tensor<64x160xf32>, %c: tensor<2xi8>) -> tensor<576xi8> {
  // expected-error @+1 {{'birsim.bfp_pack_mixed' op codes of 10 tiles are 3 bytes (2 bits a tile), got 'tensor<2xi8>'}}
  %p = birsim.bfp_pack_mixed %m, %c : tensor<64x160xf32>, tensor<2xi8> -> tensor<576xi8>
  return %p : tensor<576xi8>
}

// -----

func.func @packed_length(%m: tensor<32x64xf32>) -> tensor<1088xi8> {
  %c = arith.constant dense<13> : tensor<1xi8>
  // expected-error @+1 {{'birsim.bfp_pack_mixed' op the codes give 576 packed bytes, got 'tensor<1088xi8>'}}
  %p = birsim.bfp_pack_mixed %m, %c : tensor<32x64xf32>, tensor<1xi8> -> tensor<1088xi8>
  return %p : tensor<1088xi8>
}

// -----

func.func @dynamic_result(%m: tensor<32x64xf32>, %c: tensor<1xi8>) -> tensor<?xi8> {
  // expected-error @+1 {{'birsim.bfp_pack_mixed' op mixed BFP's result has a static shape (its length follows the codes), got 'tensor<?xi8>'}}
  %p = birsim.bfp_pack_mixed %m, %c : tensor<32x64xf32>, tensor<1xi8> -> tensor<?xi8>
  return %p : tensor<?xi8>
}

// -----

func.func @unpack_rank(%p: tensor<576xi8>, %c: tensor<1xi8>) -> tensor<2048xf32> {
  // expected-error @+1 {{'birsim.bfp_unpack_mixed' op mixed BFP takes a matrix of rank 2 or more, got 'tensor<2048xf32>'}}
  %m = birsim.bfp_unpack_mixed %p, %c : tensor<576xi8>, tensor<1xi8> -> tensor<2048xf32>
  return %m : tensor<2048xf32>
}
