// The lowering's own check of every memref operand of a runtime call
// (checkRuntimeOperands, docs/Conversions.md "Buffers the runtime takes"),
// which holds even for IR the verifiers did not see: the verifier is off
// here, as in a pipeline built without it.
// RUN: birsim-opt %s -split-input-file --mlir-very-unsafe-disable-verifier-on-parsing --verify-each=false --convert-birsim-to-llvm -verify-diagnostics

// Static sizes whose bytes overflow int64: no element count is computed.
func.func @huge(%a: memref<4611686018427387904x4xf32>, %b: memref<4611686018427387904x4xbf16>) {
  // expected-error @+1 {{'birsim.cast_into' op operand #0 of type 'memref<4611686018427387904x4xf32>' holds more bytes than int64 counts: its static sizes times its element width overflow}}
  birsim.cast_into %a, %b : memref<4611686018427387904x4xf32> to memref<4611686018427387904x4xbf16>
  return
}

// -----

// A written view with stride 0 cannot be staged and copied back.
func.func @broadcast_dst(%a: memref<8xf32>, %d: memref<8xf32, strided<[0]>>) {
  // expected-error @+1 {{'birsim.tensix_eltwise_into' op writes operand #2 of type 'memref<8xf32, strided<[0]>>', whose elements may share an address: a written buffer that is not contiguous row-major must have a strided layout whose elements have distinct addresses}}
  birsim.tensix_eltwise_into mul %a, %a, %d dest fp32 src tf32 : memref<8xf32>, memref<8xf32> -> memref<8xf32, strided<[0]>>
  return
}

// -----

// A layout that is not strided has no descriptor to read.
func.func @not_strided(%i: memref<8xf32, affine_map<(d0) -> (d0 floordiv 2)>>, %o: memref<8xf32>) {
  // expected-error @+1 {{'birsim.tensix_pack_into' op operand #0 of type 'memref<8xf32, affine_map<(d0) -> (d0 floordiv 2)>>' has a layout that is not strided: a runtime call takes a strided buffer}}
  birsim.tensix_pack_into %i, %o dest fp32 : memref<8xf32, affine_map<(d0) -> (d0 floordiv 2)>> -> memref<8xf32>
  return
}

// -----

// A vector value's element count would wrap too.
func.func @huge_vector(%v: vector<4611686018427387904x4xf32>) -> vector<4611686018427387904x4xbf16> {
  // expected-error @+1 {{'birsim.cast' op result #0 of type 'vector<4611686018427387904x4xbf16>' holds more bytes than int64 counts}}
  %r = birsim.cast %v : vector<4611686018427387904x4xf32> to vector<4611686018427387904x4xbf16>
  return %r : vector<4611686018427387904x4xbf16>
}

// -----

// Per-tile mixed BFP: the runtime is not given the codes' length, so the
// lowering takes only static shapes.
func.func @mixed_dynamic_codes(%m: memref<32x64xf32>, %codes: memref<?xi8>, %p: memref<?xi8>) {
  // expected-error @+2 {{'birsim.bfp_pack_mixed_into' op lowers only with static shapes of its matrix and codes, 'memref<32x64xf32>' and 'memref<?xi8>'}}
  // expected-error @+1 {{failed to legalize operation 'birsim.bfp_pack_mixed_into'}}
  birsim.bfp_pack_mixed_into %m, %codes, %p : memref<32x64xf32>, memref<?xi8> -> memref<?xi8>
  return
}
