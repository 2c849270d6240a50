// RUN: birsim-opt %s -split-input-file -verify-diagnostics

// Reduce legality: add/min/max only on the 8 reducing dtypes
// (cast_copy_or_accumulate's REDUCE_JT, docs/Semantics.md section 3).

func.func @reduce_add_float32r(%a: !birsim.float32r) -> !birsim.float32r {
  // The names after "only" are the reducing rows of the dtype table.
  // expected-error-re @+1 {{'birsim.reduce' op 'add' on dtype float32r: cast_accumulate: unsupported dtype float32r (only float8e3, {{.*}}, int64{{.*}} reduce; docs/Semantics.md section 3)}}
  %r = birsim.reduce add %a, %a : !birsim.float32r
  return %r : !birsim.float32r
}

// -----

func.func @reduce_max_int8(%a: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{'max' on dtype int8: cast_accumulate: unsupported dtype int8}}
  %r = birsim.reduce max %a, %a : tensor<4xi8>
  return %r : tensor<4xi8>
}

// -----

func.func @reduce_min_e4m3fn(%a: f8E4M3FN) -> f8E4M3FN {
  // expected-error @+1 {{cast_accumulate: unsupported dtype float8_e4m3fn}}
  %r = birsim.reduce min %a, %a : f8E4M3FN
  return %r : f8E4M3FN
}

// -----

func.func @reduce_add_uint32(%a: vector<4xui32>) -> vector<4xui32> {
  // expected-error @+1 {{cast_accumulate: unsupported dtype uint32}}
  %r = birsim.reduce add %a, %a : vector<4xui32>
  return %r : vector<4xui32>
}

// -----

func.func @reduce_add_packed(%a: !birsim.float8_e5m2_x4) -> !birsim.float8_e5m2_x4 {
  // expected-error @+1 {{cast_accumulate: unsupported dtype float8_e5m2_x4}}
  %r = birsim.reduce add %a, %a : !birsim.float8_e5m2_x4
  return %r : !birsim.float8_e5m2_x4
}

// -----

func.func @reduce_not_a_dtype(%a: f64) -> f64 {
  // expected-error @+1 {{'birsim.reduce' op operand #0 must be scalar, vector or ranked tensor of bir::Dtype values, but got 'f64'}}
  %r = birsim.reduce copy %a, %a : f64
  return %r : f64
}

// -----

func.func @reduce_unranked(%a: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{operand #0 must be scalar, vector or ranked tensor of bir::Dtype values, but got 'tensor<*xf32>'}}
  %r = birsim.reduce add %a, %a : tensor<*xf32>
  return %r : tensor<*xf32>
}

// -----

// expected-note @+1 {{prior use here}}
func.func @reduce_type_mismatch(%a: tensor<4xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{use of value '%b' expects different type than prior uses}}
  %r = birsim.reduce add %a, %b : tensor<4xf32>
  return
}

// -----

func.func @reduce_unknown_kind(%a: f32) {
  // expected-error @+2 {{expected ::birsim::MemoryReductionOp to be one of: copy, add, min, max}}
  // expected-error @+1 {{failed to parse Birsim_MemoryReductionOpAttr parameter 'value' which is to be a `::birsim::MemoryReductionOp`}}
  %r = birsim.reduce sub %a, %a : f32
  return
}

// -----

// Collective doReduction: add, max, min on fp32 only (inst_visitor.cpp:5365).

func.func @collective_subtract(%a: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'birsim.collective_reduce' op collective doReduction: AluOpType subtract (5) is not add, max or min (inst_visitor.cpp:5365)}}
  %r = birsim.collective_reduce subtract %a, %a : tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

func.func @collective_bypass(%a: f32) -> f32 {
  // expected-error @+1 {{AluOpType bypass (0) is not add, max or min}}
  %r = birsim.collective_reduce bypass %a, %a : f32
  return %r : f32
}

// -----

func.func @collective_bf16(%a: tensor<16xbf16>) -> tensor<16xbf16> {
  // expected-error @+1 {{'birsim.collective_reduce' op operand #0 must be scalar, vector or ranked tensor of f32 values, but got 'tensor<16xbf16>'}}
  %r = birsim.collective_reduce add %a, %a : tensor<16xbf16>
  return %r : tensor<16xbf16>
}

// -----

// Cast engine: non-packed dtypes, matching shapes, known config bits.

func.func @cast_packed(%a: tensor<4x!birsim.float8_e4m3fn_x4>) -> tensor<4xf32> {
  // expected-error @+1 {{'birsim.cast' op cast: dtype float8_e4m3fn_x4 is packed and outside the cast engine (docs/Semantics.md section 4)}}
  %r = birsim.cast %a : tensor<4x!birsim.float8_e4m3fn_x4> to tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @cast_to_packed(%a: f32) -> !birsim.float4_e2m1fn_x4 {
  // expected-error @+1 {{cast: dtype float4_e2m1fn_x4 is packed}}
  %r = birsim.cast %a : f32 to !birsim.float4_e2m1fn_x4
  return %r : !birsim.float4_e2m1fn_x4
}

// -----

func.func @cast_shape(%a: tensor<4xf32>) -> tensor<8xbf16> {
  // expected-error @+1 {{'birsim.cast' op failed to verify that input and result have the same shape and container}}
  %r = birsim.cast %a : tensor<4xf32> to tensor<8xbf16>
  return %r : tensor<8xbf16>
}

// -----

func.func @cast_container(%a: tensor<4xf32>) -> vector<4xbf16> {
  // expected-error @+1 {{failed to verify that input and result have the same shape and container}}
  %r = birsim.cast %a : tensor<4xf32> to vector<4xbf16>
  return %r : vector<4xbf16>
}

// -----

func.func @cast_scalar_to_tensor(%a: f32) -> tensor<1xbf16> {
  // expected-error @+1 {{failed to verify that input and result have the same shape and container}}
  %r = birsim.cast %a : f32 to tensor<1xbf16>
  return %r : tensor<1xbf16>
}

// -----

func.func @cast_config(%a: f32) -> f8E5M2 {
  // expected-error @+1 {{invalid argument: fp8_config has bits outside 0xFF01 (bit 0 saturate, byte 1 NaN-suppress) (got 2)}}
  %r = birsim.cast %a {fp8_config = 2 : i32} : f32 to f8E5M2
  return %r : f8E5M2
}

// -----

func.func @cast_config_twice(%a: f32) -> f8E5M2 {
  // expected-error @+1 {{fp8_config is given twice}}
  %r = birsim.cast %a fp8_config<none> {fp8_config = 0 : i32} : f32 to f8E5M2
  return %r : f8E5M2
}

// -----

func.func @cast_config_kind(%a: f32) -> f8E5M2 {
  // expected-error @+1 {{fp8_config must be an i32 config word or #birsim.fp8_config<...>, got "saturate"}}
  %r = birsim.cast %a {fp8_config = "saturate"} : f32 to f8E5M2
  return %r : f8E5M2
}

// -----

func.func @cast_config_keyword(%a: f32) -> f8E5M2 {
  // expected-error @+2 {{expected ::birsim::Fp8Config to be one of: none, saturate, nan_suppress}}
  // expected-error @+1 {{failed to parse Birsim_Fp8ConfigAttr parameter 'value' which is to be a `::birsim::Fp8Config`}}
  %r = birsim.cast %a fp8_config<clamp> : f32 to f8E5M2
  return %r : f8E5M2
}

// -----

// Both sides wrong: one error, not two.
func.func @cast_both_not_dtypes(%a: i1) -> f64 {
  // expected-error @+1 {{'birsim.cast' op operand #0 must be scalar, vector or ranked tensor of bir::Dtype values, but got 'i1'}}
  %r = birsim.cast %a : i1 to f64
  return %r : f64
}

// -----

// birsim.constant: a scalar, vector or ranked tensor of a bir::Dtype.
func.func @constant_f64() -> f64 {
  // expected-error @+1 {{'birsim.constant' op result #0 must be scalar, vector or ranked tensor of bir::Dtype values, but got 'f64'}}
  %c = birsim.constant 1.0 : f64
  return %c : f64
}

// -----

func.func @constant_memref() {
  // expected-error @+1 {{'birsim.constant' op result #0 must be scalar, vector or ranked tensor of bir::Dtype values, but got 'memref<2xf32>'}}
  %c = birsim.constant dense<1.0> : memref<2xf32>
  return
}

// -----

func.func @cast_into_config(%a: memref<4xf32>, %b: memref<4xf8E4M3>) {
  // expected-error @+1 {{fp8_config has bits outside 0xFF01 (bit 0 saturate, byte 1 NaN-suppress) (got 4294967295)}}
  birsim.cast_into %a, %b {fp8_config = -1 : i32} : memref<4xf32> to memref<4xf8E4M3>
  return
  return %r : f8E5M2
}

// -----

func.func @cast_not_a_dtype(%a: i1) -> f32 {
  // expected-error @+1 {{'birsim.cast' op operand #0 must be scalar, vector or ranked tensor of bir::Dtype values, but got 'i1'}}
  %r = birsim.cast %a : i1 to f32
  return %r : f32
}

// -----

// BFP shapes: tensor<N x R x C x T> <-> tensor<N x tile_bytes x i8>.

func.func @bfp_pack_bytes(%t: tensor<2x32x32xf32>) -> tensor<2x1088xi8> {
  // expected-error @+1 {{'birsim.bfp_pack' op packed bfp4_b 32x32 tiles must be tensor<Nx576xi8> (64 exponent bytes + datums per tile), got 'tensor<2x1088xi8>'}}
  %p = birsim.bfp_pack bfp4_b %t : tensor<2x32x32xf32> -> tensor<2x1088xi8>
  return %p : tensor<2x1088xi8>
}

// -----

func.func @bfp_pack_tiles(%t: tensor<2x32x16xf32>) -> tensor<2x1088xi8> {
  // expected-error @+1 {{'birsim.bfp_pack' op packed bfp8_b 32x16 tiles must be tensor<Nx544xi8> (32 exponent bytes + datums per tile), got 'tensor<2x1088xi8>'}}
  %p = birsim.bfp_pack bfp8_b %t : tensor<2x32x16xf32> -> tensor<2x1088xi8>
  return %p : tensor<2x1088xi8>
}

// -----

func.func @bfp_pack_shape(%t: tensor<2x3x32xf32>) -> tensor<2x1088xi8> {
  // expected-error @+1 {{'birsim.bfp_pack' op BFP tile shape 3x32 is not one tt-metal accepts: expected 32x32, 16x32, 32x16, 16x16, 8x32, 4x32, 2x32, 1x32, 8x16, 4x16, 2x16 or 1x16: 'tensor<2x3x32xf32>' (docs/Semantics.md section 5)}}
  %p = birsim.bfp_pack bfp8_b %t : tensor<2x3x32xf32> -> tensor<2x1088xi8>
  return %p : tensor<2x1088xi8>
}

// -----

func.func @bfp_pack_input(%t: tensor<2x32x32xf16>) -> tensor<2x1088xi8> {
  // expected-error @+1 {{'birsim.bfp_pack' op input element type 'f16' is not one BFP packing takes: f32, bf16, i8, ui8, ui16, i32, ui32 (docs/Semantics.md section 5)}}
  %p = birsim.bfp_pack bfp8_b %t : tensor<2x32x32xf16> -> tensor<2x1088xi8>
  return %p : tensor<2x1088xi8>
}

// -----

func.func @bfp_pack_matrix_whole_tiles(%m: tensor<32x48xf32>) -> tensor<2x1088xi8> {
  // expected-error @+1 {{'birsim.bfp_pack_matrix' op matrix rows (leading dimensions folded into rows) and columns must be whole tiles: 'tensor<32x48xf32>' in 32x32 tiles (docs/Semantics.md section 5)}}
  %p = birsim.bfp_pack_matrix bfp8_b %m tile [32, 32] : tensor<32x48xf32> -> tensor<2x1088xi8>
  return %p : tensor<2x1088xi8>
}

// -----

func.func @bfp_pack_matrix_transpose(%m: tensor<8x32xf32>) -> tensor<1x272xi8> {
  // expected-error @+1 {{'birsim.bfp_pack_matrix' op transposed tilizing takes tile heights 16 and 32 (tt-metal's Tile): 'tensor<8x32xf32>' in 8x32 tiles (docs/Semantics.md section 5)}}
  %p = birsim.bfp_pack_matrix bfp8_b %m tile [8, 32] transpose : tensor<8x32xf32> -> tensor<1x272xi8>
  return %p : tensor<1x272xi8>
}

// -----

func.func @bfp_pack_matrix_tiles(%m: tensor<2x32x64xbf16>) -> tensor<2x1088xi8> {
  // expected-error @+1 {{'birsim.bfp_pack_matrix' op tile count differs: 4 tiles, 2 packed rows}}
  %p = birsim.bfp_pack_matrix bfp8_b %m tile [32, 32] : tensor<2x32x64xbf16> -> tensor<2x1088xi8>
  return %p : tensor<2x1088xi8>
}

// -----

func.func @bfp_pack_matrix_tile_attr(%m: tensor<32x32xf32>) -> tensor<1x1088xi8> {
  // expected-error @+1 {{'birsim.bfp_pack_matrix' op tile must be [rows, cols], got 3 values}}
  %p = birsim.bfp_pack_matrix bfp8_b %m tile [32, 32, 1] : tensor<32x32xf32> -> tensor<1x1088xi8>
  return %p : tensor<1x1088xi8>
}

// -----

func.func @bfp_pack_count(%t: tensor<2x32x32xf32>) -> tensor<3x1088xi8> {
  // expected-error @+1 {{'birsim.bfp_pack' op tile count differs: 2 tiles, 3 packed rows}}
  %p = birsim.bfp_pack bfp8_a %t : tensor<2x32x32xf32> -> tensor<3x1088xi8>
  return %p : tensor<3x1088xi8>
}

// -----

func.func @bfp_unpack_element(%p: tensor<1x576xi8>) -> tensor<1x32x32xf16> {
  // expected-error @+1 {{'birsim.bfp_unpack' op result #0 must be 3D tensor of 32-bit float values, but got 'tensor<1x32x32xf16>'}}
  %u = birsim.bfp_unpack bfp4_a %p : tensor<1x576xi8> -> tensor<1x32x32xf16>
  return %u : tensor<1x32x32xf16>
}

// -----

func.func @bfp_unpack_bytes(%p: tensor<1x576xui8>) -> tensor<1x32x32xf32> {
  // expected-error @+1 {{'birsim.bfp_unpack' op operand #0 must be 2D tensor of 8-bit signless integer values, but got 'tensor<1x576xui8>'}}
  %u = birsim.bfp_unpack bfp4_a %p : tensor<1x576xui8> -> tensor<1x32x32xf32>
  return %u : tensor<1x32x32xf32>
}

// -----

// Instruction-level ops: AluOpType2MemoryReduction maps only bypass and add
// (the simulator asserts at inst_visitor.cpp:363).

func.func @dma_copy_min(%a: memref<16xf32>, %b: memref<16xf32>) {
  // expected-error @+1 {{'birsim.dma_copy' op cce_op 'min' is rejected: AluOpType2MemoryReduction: AluOpType min (9) has no MemoryReductionOp; only bypass and add map (inst_visitor.cpp:363)}}
  birsim.dma_copy min %a to %b : memref<16xf32> to memref<16xf32>
  return
}

// -----

func.func @dma_copy_max(%a: memref<16xf32>, %b: memref<16xf32>) {
  // expected-error @+1 {{cce_op 'max' is rejected: AluOpType2MemoryReduction: AluOpType max (8) has no MemoryReductionOp}}
  birsim.dma_copy max %a to %b : memref<16xf32> to memref<16xf32>
  return
}

// -----

func.func @dma_copy_mult(%a: memref<16xf32>, %b: memref<16xf32>) {
  // expected-error @+1 {{AluOpType mult (6) has no MemoryReductionOp}}
  birsim.dma_copy mult %a to %b : memref<16xf32> to memref<16xf32>
  return
}

// -----

func.func @dma_copy_add_uint8(%a: memref<16xui8>, %b: memref<16xui8>) {
  // expected-error @+1 {{'birsim.dma_copy' op 'add' on dtype uint8: cast_accumulate: unsupported dtype uint8}}
  birsim.dma_copy add %a to %b : memref<16xui8> to memref<16xui8>
  return
}

// -----

func.func @dma_copy_shape(%a: memref<16xf32>, %b: memref<8xf32>) {
  // expected-error @+1 {{'birsim.dma_copy' op failed to verify that all of {src, dst} have same shape}}
  birsim.dma_copy bypass %a to %b : memref<16xf32> to memref<8xf32>
  return
}

// -----

func.func @dma_copy_element_type(%a: memref<16xf32>, %b: memref<16xi32>) {
  // expected-error @+1 {{'birsim.dma_copy' op failed to verify that all of {src, dst} have same element type}}
  birsim.dma_copy bypass %a to %b : memref<16xf32> to memref<16xi32>
  return
}

// -----

func.func @dma_copy_strided(%a: memref<16xf32, strided<[2]>>, %b: memref<16xf32>) {
  // expected-error @+1 {{'birsim.dma_copy' op operand #0 must be contiguous row-major memref of bir::Dtype values (identity layout, or row-major strides with any offset), but got 'memref<16xf32, strided<[2]>>'}}
  birsim.dma_copy bypass %a to %b : memref<16xf32, strided<[2]>> to memref<16xf32>
  return
}

// -----

func.func @dma_copy_padded_rows(%a: memref<4x8xf32, strided<[16, 1]>>, %b: memref<4x8xf32>) {
  // expected-error @+1 {{operand #0 must be contiguous row-major memref of bir::Dtype values (identity layout, or row-major strides with any offset), but got 'memref<4x8xf32, strided<[16, 1]>>'}}
  birsim.dma_copy bypass %a to %b : memref<4x8xf32, strided<[16, 1]>> to memref<4x8xf32>
  return
}

// -----

func.func @indirect_save_max(%s: memref<4xbf16>, %i: memref<4xi64>, %d: memref<16xbf16>) {
  // expected-error @+1 {{'birsim.indirect_save' op cce_op 'max' is rejected: AluOpType2MemoryReduction: AluOpType max (8) has no MemoryReductionOp}}
  birsim.indirect_save max %s to %d[%i] : memref<4xbf16>, memref<4xi64> to memref<16xbf16>
  return
}

// -----

func.func @indirect_save_accumulate_min(%s: memref<4xbf16>, %i: memref<4xi64>, %d: memref<16xbf16>) {
  // expected-error @+1 {{'birsim.indirect_save_accumulate' op cce_op 'min' is rejected}}
  birsim.indirect_save_accumulate min %s to %d[%i] : memref<4xbf16>, memref<4xi64> to memref<16xbf16>
  return
}

// -----

func.func @indirect_save_accumulate_float32r(%s: memref<4x!birsim.float32r>, %i: memref<4xi64>, %d: memref<16x!birsim.float32r>) {
  // expected-error @+1 {{'add' on dtype float32r: cast_accumulate: unsupported dtype float32r}}
  birsim.indirect_save_accumulate add %s to %d[%i] : memref<4x!birsim.float32r>, memref<4xi64> to memref<16x!birsim.float32r>
  return
}

// -----

func.func @indirect_save_index_type(%s: memref<4xbf16>, %i: memref<4xi32>, %d: memref<16xbf16>) {
  // expected-error @+1 {{'birsim.indirect_save' op operand #1 must be contiguous row-major memref of i64, 1-D (identity layout, or row-major strides with any offset), but got 'memref<4xi32>'}}
  birsim.indirect_save bypass %s to %d[%i] : memref<4xbf16>, memref<4xi32> to memref<16xbf16>
  return
}

// -----

func.func @indirect_save_count(%s: memref<4xbf16>, %i: memref<3xi64>, %d: memref<16xbf16>) {
  // expected-error @+1 {{has 4 source elements but 3 indices}}
  birsim.indirect_save bypass %s to %d[%i] : memref<4xbf16>, memref<3xi64> to memref<16xbf16>
  return
}

// -----

func.func @indirect_save_rank(%s: memref<2x2xbf16>, %i: memref<4xi64>, %d: memref<16xbf16>) {
  // expected-error @+1 {{'birsim.indirect_save' op operand #0 must be contiguous row-major memref of bir::Dtype values, 1-D (identity layout, or row-major strides with any offset), but got 'memref<2x2xbf16>'}}
  birsim.indirect_save bypass %s to %d[%i] : memref<2x2xbf16>, memref<4xi64> to memref<16xbf16>
  return
}

// -----

func.func @indirect_save_element(%s: memref<4xf16>, %i: memref<4xi64>, %d: memref<16xbf16>) {
  // expected-error @+1 {{'birsim.indirect_save_accumulate' op failed to verify that all of {src, dst} have same element type}}
  birsim.indirect_save_accumulate add %s to %d[%i] : memref<4xf16>, memref<4xi64> to memref<16xbf16>
  return
}

// -----

// Buffer forms (what the tensor ops bufferize to) keep the same rules.

func.func @reduce_into_int8(%a: memref<4xi8>) {
  // expected-error @+1 {{'birsim.reduce_into' op 'max' on dtype int8: cast_accumulate: unsupported dtype int8}}
  birsim.reduce_into max %a, %a : memref<4xi8>
  return
}

// -----

func.func @reduce_into_not_a_dtype(%a: memref<4xf64>) {
  // expected-error @+1 {{'birsim.reduce_into' op operand #0 must be contiguous row-major memref of bir::Dtype values (identity layout, or row-major strides with any offset), but got 'memref<4xf64>'}}
  birsim.reduce_into copy %a, %a : memref<4xf64>
  return
}

// -----

func.func @collective_reduce_into_mult(%a: memref<4xf32>) {
  // expected-error @+1 {{'birsim.collective_reduce_into' op collective doReduction: AluOpType mult (6) is not add, max or min}}
  birsim.collective_reduce_into mult %a, %a : memref<4xf32>
  return
}

// -----

func.func @collective_reduce_into_f16(%a: memref<4xf16>) {
  // expected-error @+1 {{'birsim.collective_reduce_into' op operand #0 must be contiguous row-major memref of f32 values (identity layout, or row-major strides with any offset), but got 'memref<4xf16>'}}
  birsim.collective_reduce_into add %a, %a : memref<4xf16>
  return
}

// -----

func.func @cast_into_shape(%a: memref<4xf32>, %b: memref<8xbf16>) {
  // expected-error @+1 {{'birsim.cast_into' op failed to verify that all of {src, dst} have same shape}}
  birsim.cast_into %a, %b : memref<4xf32> to memref<8xbf16>
  return
}

// -----

func.func @cast_into_packed(%a: memref<4xf32>, %b: memref<4x!birsim.float8_e5m2_x4>) {
  // expected-error @+1 {{cast: dtype float8_e5m2_x4 is packed and outside the cast engine}}
  birsim.cast_into %a, %b : memref<4xf32> to memref<4x!birsim.float8_e5m2_x4>
  return
}

// -----

func.func @bfp_pack_into_bytes(%t: memref<1x32x32xf32>, %p: memref<1x1088xi8>) {
  // expected-error @+1 {{'birsim.bfp_pack_into' op packed bfp4_b 32x32 tiles must be memref<Nx576xi8>}}
  birsim.bfp_pack_into bfp4_b %t, %p : memref<1x32x32xf32> to memref<1x1088xi8>
  return
}

// -----

func.func @bfp_unpack_into_tiles(%p: memref<1x1088xi8>, %t: memref<1x32x32xbf16>) {
  // expected-error @+1 {{'birsim.bfp_unpack_into' op operand #1 must be contiguous row-major memref of N x R x C f32 tiles (identity layout, or row-major strides with any offset), but got 'memref<1x32x32xbf16>'}}
  birsim.bfp_unpack_into bfp8_b %p, %t : memref<1x1088xi8> to memref<1x32x32xbf16>
  return
}

// -----

// Dynamic sizes where the rule needs static ones: the tile shape and the
// packed row length.

func.func @bfp_pack_dynamic_tile(%t: tensor<2x?x32xf32>) -> tensor<2x1088xi8> {
  // expected-error @+1 {{'birsim.bfp_pack' op tiles must have a static R x C shape, got 'tensor<2x?x32xf32>'}}
  %p = birsim.bfp_pack bfp8_b %t : tensor<2x?x32xf32> -> tensor<2x1088xi8>
  return %p : tensor<2x1088xi8>
}

// -----

func.func @bfp_pack_dynamic_row(%t: tensor<2x32x32xf32>) -> tensor<2x?xi8> {
  // expected-error @+1 {{'birsim.bfp_pack' op packed bfp8_b 32x32 tiles must be tensor<Nx1088xi8> (64 exponent bytes + datums per tile), got 'tensor<2x?xi8>'}}
  %p = birsim.bfp_pack bfp8_b %t : tensor<2x32x32xf32> -> tensor<2x?xi8>
  return %p : tensor<2x?xi8>
}

// -----

// Unknown enum keywords name the enum and list its values.

func.func @collective_unknown_kind(%a: f32) -> f32 {
  // expected-error @+2 {{expected ::birsim::AluOpType to be one of: bypass, bitwise_not}}
  // expected-error @+1 {{failed to parse Birsim_AluOpTypeAttr parameter 'value' which is to be a `::birsim::AluOpType`}}
  %r = birsim.collective_reduce foo %a, %a : f32
  return %r : f32
}

// -----

func.func @bfp_unknown_format(%t: tensor<1x32x32xf32>) -> tensor<1x1088xi8> {
  // expected-error @+2 {{expected ::birsim::BfpFormat to be one of: bfp8_b, bfp4_b, bfp8_a, bfp4_a, bfp2_b, bfp2_a}}
  // expected-error @+1 {{failed to parse Birsim_BfpFormatAttr parameter 'value' which is to be a `::birsim::BfpFormat`}}
  %p = birsim.bfp_pack bfp16_b %t : tensor<1x32x32xf32> -> tensor<1x1088xi8>
  return %p : tensor<1x1088xi8>
}

// -----

func.func @dma_copy_unknown_cce_op(%a: memref<4xf32>) {
  // expected-error @+2 {{expected ::birsim::AluOpType to be one of: bypass}}
  // expected-error @+1 {{failed to parse Birsim_AluOpTypeAttr parameter 'value'}}
  birsim.dma_copy nope %a to %a : memref<4xf32> to memref<4xf32>
  return
}

// -----

// The device paths (docs/Semantics.md section 5, the device's bytes).
func.func @bfp_at_a_format(%t: tensor<1x32x32xf32>) -> tensor<1x1088xi8> {
  // expected-error @+1 {{'birsim.bfp_pack' op the Tensix packer and unpacker have no "a" format path (ttsim refuses exponent-A BFP): bfp8_a at fp32_dest (docs/Semantics.md section 5)}}
  %p = birsim.bfp_pack bfp8_a %t at fp32_dest : tensor<1x32x32xf32> -> tensor<1x1088xi8>
  return %p : tensor<1x1088xi8>
}

// -----

func.func @bfp_at_intermediate_bfp2(%t: tensor<1x32x32xf32>) -> tensor<1x320xi8> {
  // expected-error @+1 {{'birsim.bfp_pack' op no bfp2 output through the bfp8 intermediate (ttsim refuses modes 0x16F and 0x6F): 'f32' to bfp2_b at fp32_dest_e8m6 (docs/Semantics.md section 5)}}
  %p = birsim.bfp_pack bfp2_b %t at fp32_dest_e8m6 : tensor<1x32x32xf32> -> tensor<1x320xi8>
  return %p : tensor<1x320xi8>
}

// -----

func.func @bfp_at_dest_type(%t: tensor<1x32x32xf32>) -> tensor<1x1088xi8> {
  // expected-error @+1 {{'birsim.bfp_pack' op a Dest path packs its Dest's element type: float32 at fp32_dest, float32 at fp32_dest_e8m6, bfloat16 at bf16_dest, bfloat16 at bf16_dest_e8m6, float16 at fp16_dest: 'f32' to bfp8_b at bf16_dest (docs/Semantics.md section 5)}}
  %p = birsim.bfp_pack bfp8_b %t at bf16_dest : tensor<1x32x32xf32> -> tensor<1x1088xi8>
  return %p : tensor<1x1088xi8>
}

// -----

func.func @bfp_at_fp16_bfp4(%t: tensor<1x32x32xf16>) -> tensor<1x576xi8> {
  // expected-error @+1 {{'birsim.bfp_pack' op the fp16 Dest path writes bfp8_b only (ttsim mode 0x26): 'f16' to bfp4_b at fp16_dest (docs/Semantics.md section 5)}}
  %p = birsim.bfp_pack bfp4_b %t at fp16_dest : tensor<1x32x32xf16> -> tensor<1x576xi8>
  return %p : tensor<1x576xi8>
}

// -----

func.func @bfp_unpack_at_a_format(%t: tensor<1x1088xi8>) -> tensor<1x32x32xf32> {
  // expected-error @+1 {{'birsim.bfp_unpack' op the Tensix packer and unpacker have no "a" format path (ttsim refuses exponent-A BFP): 'tensor<1x32x32xf32>' (docs/Semantics.md section 5)}}
  %p = birsim.bfp_unpack bfp8_a %t at bf16_dest : tensor<1x1088xi8> -> tensor<1x32x32xf32>
  return %p : tensor<1x32x32xf32>
}

// -----

func.func @tt_fp8_encode_of_f16(%x: tensor<4xf16>) -> tensor<4xi8> {
  // expected-error @+1 {{'birsim.tt_fp8_encode' op operand #0 must be ranked tensor of 32-bit float values}}
  %c = birsim.tt_fp8_encode ttmetal_host %x : tensor<4xf16> -> tensor<4xi8>
  return %c : tensor<4xi8>
}

// -----

func.func @tt_fp8_decode_shapes(%c: tensor<4xi8>) -> tensor<5xf32> {
  // expected-error @+1 {{'birsim.tt_fp8_decode' op failed to verify that all of {input, result} have same shape}}
  %x = birsim.tt_fp8_decode ocp_e4m3fn %c : tensor<4xi8> -> tensor<5xf32>
  return %x : tensor<5xf32>
}

// -----

func.func @tt_fp8_unknown_policy(%x: tensor<4xf32>) -> tensor<4xi8> {
  // expected-error @+2 {{expected ::birsim::TtFp8Policy to be one of: ttmetal_host, ocp_e4m3fn, blackhole_packer}}
  // expected-error @+1 {{failed to parse Birsim_TtFp8PolicyAttr parameter 'value'}}
  %c = birsim.tt_fp8_encode e4m3 %x : tensor<4xf32> -> tensor<4xi8>
  return %c : tensor<4xi8>
}

// -----

func.func @bfp_pack_page_rows(%t: tensor<2x16x32xf32>) -> tensor<2x544xi8> {
  // expected-error @+1 {{'birsim.bfp_pack' op packed bfp8_b 16x32 tiles must be tensor<Nx576xi8> (32 exponent bytes + datums per tile, padded to 64 bytes), got 'tensor<2x544xi8>'}}
  %p = birsim.bfp_pack bfp8_b %t page64 : tensor<2x16x32xf32> -> tensor<2x544xi8>
  return %p : tensor<2x544xi8>
}

// -----

func.func @bfp_pack_two_pages(%t: tensor<1x32x32xf32>) -> tensor<1x1088xi8> {
  // expected-error @+1 {{'birsim.bfp_pack' op one page alignment: page32 (8) or page64 (16)}}
  %p = birsim.bfp_pack bfp8_b %t page32 page64 : tensor<1x32x32xf32> -> tensor<1x1088xi8>
  return %p : tensor<1x1088xi8>
}

// -----

func.func @bfp_pack_search_bfp2(%t: tensor<1x32x32xf32>) -> tensor<1x320xi8> {
  // expected-error @+1 {{'birsim.bfp_pack' op the exponent search takes bfp8_b and bfp4_b (tt-metal PR #57298): 'f32' to bfp2_b (docs/Semantics.md section 5)}}
  %p = birsim.bfp_pack bfp2_b %t exp_search : tensor<1x32x32xf32> -> tensor<1x320xi8>
  return %p : tensor<1x320xi8>
}

// -----

// MX tiles (docs/Semantics.md section 5, MX tiles).
func.func @mx_1x16(%t: tensor<1x1x16xf32>) -> tensor<1x32xi8> {
  // expected-error @+1 {{'birsim.bfp_pack' op MX tiles hold whole 32-value blocks: every tile shape but 1x16 (tt-metal's MX packers): 'tensor<1x1x16xf32>' (docs/Semantics.md section 5)}}
  %p = birsim.bfp_pack mxint8 %t : tensor<1x1x16xf32> -> tensor<1x32xi8>
  return %p : tensor<1x32xi8>
}

// -----

func.func @mx_at_device(%t: tensor<1x32x32xf32>) -> tensor<1x1056xi8> {
  // expected-error @+1 {{'birsim.bfp_pack' op the Tensix packer paths are the BFP "b" formats' (MX tiles are the host packer's): mxfp8_e4m3 at fp32_dest (docs/Semantics.md section 5)}}
  %p = birsim.bfp_pack mxfp8_e4m3 %t at fp32_dest : tensor<1x32x32xf32> -> tensor<1x1056xi8>
  return %p : tensor<1x1056xi8>
}

// -----

func.func @mx_bytes(%t: tensor<1x32x32xf32>) -> tensor<1x1088xi8> {
  // expected-error @+1 {{'birsim.bfp_pack' op packed mxfp8_e4m3 32x32 tiles must be tensor<Nx1056xi8> (32 scale bytes + datums per tile), got 'tensor<1x1088xi8>'}}
  %p = birsim.bfp_pack mxfp8_e4m3 %t : tensor<1x32x32xf32> -> tensor<1x1088xi8>
  return %p : tensor<1x1088xi8>
}

// -----

// The Tensix FPU's settings (docs/Semantics.md section 7): what ttsim
// rejects, named by the core's rule.
func.func @tensix_add_fidelity(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'birsim.tensix_eltwise' op add with fp32 Dest and bf16 Src at hifi2: invalid argument: tensix: ELWADD and ELWSUB run at fidelity phase 0 only (phases BIRSIM_TENSIX_LOFI) (got 3) (docs/Semantics.md section 7)}}
  %d = birsim.tensix_eltwise add %a, %a dest fp32 src bf16 fidelity hifi2 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

func.func @tensix_dest_width(%a: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'birsim.tensix_eltwise' op mul with fp16 Dest and bf16 Src at hifi4: invalid argument: tensix: a 16-bit Dest has the Src's exponent width: DEST_BF16 for SRC_TF32 and SRC_BF16, DEST_FP16 for SRC_FP16 (got 2)}}
  %d = birsim.tensix_eltwise mul %a, %a dest fp16 src bf16 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf16>
  return %d : tensor<4xf16>
}

// -----

func.func @tensix_dest_type(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'birsim.tensix_eltwise' op a bf16 Dest holds 'bf16' values, but the result has 'f32' (docs/Semantics.md section 7)}}
  %d = birsim.tensix_eltwise mul %a, %a dest bf16 src bf16 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

func.func @tensix_unknown_fidelity(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{expected ::birsim::TensixFidelity to be one of: lofi, phases_1, hifi2}}
  // expected-error @+1 {{failed to parse}}
  %d = birsim.tensix_eltwise mul %a, %a dest fp32 src bf16 fidelity hifi5 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

func.func @tensix_pack_no_path(%d: tensor<4xbf16>) -> tensor<4xf16> {
  // expected-error @+1 {{'birsim.tensix_pack' op from a bf16 Dest to 'f16' on wormhole: invalid argument: tensix_pack: the packer has no path from this Dest kind to this output dtype on this architecture}}
  %o = birsim.tensix_pack %d dest bf16 : tensor<4xbf16> -> tensor<4xf16>
  return %o : tensor<4xf16>
}

// -----

func.func @tensix_pack_input(%d: tensor<4xf32>) -> tensor<4xbf16> {
  // expected-error @+1 {{'birsim.tensix_pack' op a fp16 Dest holds 'f16' values, but the input has 'f32'}}
  %o = birsim.tensix_pack %d dest fp16 : tensor<4xf32> -> tensor<4xbf16>
  return %o : tensor<4xbf16>
}

// -----

func.func @tensix_into_shapes(%a: memref<4xf32>, %d: memref<5xf32>) {
  // expected-error @+1 {{'birsim.tensix_eltwise_into' op failed to verify that all of {lhs, rhs, dst} have same shape}}
  birsim.tensix_eltwise_into mul %a, %a, %d dest fp32 src tf32 : memref<4xf32>, memref<4xf32> -> memref<5xf32>
  return
}

// -----

// The Tensix matmul (docs/Semantics.md section 7, "matmul_tiles"; D50).
func.func @tensix_matmul_fp16_one_side(%a: tensor<32x32xf32>) -> tensor<32x32xf32> {
  // expected-error @+1 {{'birsim.tensix_matmul' op with fp32 Dest and fp16, bf16 Src at hifi4: invalid argument: tensix_matmul: FP16 Src must be both operands' format (SrcA's 5-bit exponent sets the product's) (got 2) (docs/Semantics.md section 7)}}
  %d = birsim.tensix_matmul %a, %a dest fp32 src fp16, bf16 : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>
  return %d : tensor<32x32xf32>
}

// -----

func.func @tensix_matmul_dest_width(%a: tensor<32x32xf32>) -> tensor<32x32xf16> {
  // expected-error @+1 {{'birsim.tensix_matmul' op with fp16 Dest and tf32, bf16 Src at hifi4: invalid argument: tensix_matmul: a 16-bit Dest has the Src's exponent width}}
  %d = birsim.tensix_matmul %a, %a dest fp16 src tf32, bf16 : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf16>
  return %d : tensor<32x32xf16>
}

// -----

func.func @tensix_matmul_tile(%a: tensor<32x48xf32>, %b: tensor<48x32xf32>) -> tensor<32x32xf32> {
  // expected-error @+1 {{'birsim.tensix_matmul' op runs on 32x32 tiles: M, K and N must be multiples of 32, got M = 32, K = 48, N = 32 (docs/Decisions.md D50)}}
  %d = birsim.tensix_matmul %a, %b dest fp32 src bf16, bf16 : tensor<32x48xf32>, tensor<48x32xf32> -> tensor<32x32xf32>
  return %d : tensor<32x32xf32>
}

// -----

func.func @tensix_matmul_inner(%a: tensor<32x64xf32>, %b: tensor<32x32xf32>) -> tensor<32x32xf32> {
  // expected-error @+1 {{'birsim.tensix_matmul' op multiplies M x K by K x N into M x N, got 32x64, 32x32 -> 32x32}}
  %d = birsim.tensix_matmul %a, %b dest fp32 src bf16, bf16 : tensor<32x64xf32>, tensor<32x32xf32> -> tensor<32x32xf32>
  return %d : tensor<32x32xf32>
}

// -----

func.func @tensix_matmul_dynamic(%a: tensor<?x32xf32>, %b: tensor<32x32xf32>) -> tensor<?x32xf32> {
  // expected-error @+1 {{'birsim.tensix_matmul' op takes static 2-D shapes (M x K, K x N -> M x N), got ?x32, 32x32 -> ?x32 (docs/Decisions.md D50)}}
  %d = birsim.tensix_matmul %a, %b dest fp32 src bf16, bf16 : tensor<?x32xf32>, tensor<32x32xf32> -> tensor<?x32xf32>
  return %d : tensor<?x32xf32>
}

// -----

func.func @tensix_matmul_dest_type(%a: tensor<32x32xf32>) -> tensor<32x32xf32> {
  // expected-error @+1 {{'birsim.tensix_matmul' op a bf16 Dest holds 'bf16' values, but the result has 'f32' (docs/Semantics.md section 7)}}
  %d = birsim.tensix_matmul %a, %a dest bf16 src bf16, bf16 : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>
  return %d : tensor<32x32xf32>
}

// -----

func.func @tensix_matmul_into_rank(%a: memref<32x32x1xf32>, %b: memref<32x32xf32>, %d: memref<32x32xf32>) {
  // expected-error @+1 {{'birsim.tensix_matmul_into' op takes static 2-D shapes (M x K, K x N -> M x N), got 32x32x1, 32x32 -> 32x32}}
  birsim.tensix_matmul_into %a, %b, %d dest fp32 src bf16, bf16 : memref<32x32x1xf32>, memref<32x32xf32> -> memref<32x32xf32>
  return
}

// -----

func.func @tensix_matmul_into_dst(%a: memref<32x32xf32>, %d: memref<32x32xbf16>) {
  // expected-error @+1 {{'birsim.tensix_matmul_into' op a fp32 Dest holds 'f32' values, but the dst has 'bf16'}}
  birsim.tensix_matmul_into %a, %a, %d dest fp32 src bf16, bf16 : memref<32x32xf32>, memref<32x32xf32> -> memref<32x32xbf16>
  return
}
