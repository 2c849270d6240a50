// RUN: birsim-opt %s -split-input-file -verify-diagnostics
//
// Every op of the dialect that lowers to a runtime call over a memref,
// with each of its memref operands strided (not contiguous row-major) in
// turn: the ops whose operands must be contiguous say so, naming the op,
// the operand, the rule and the type; the Tensix buffer forms, whose
// operands the lowering stages (tensix-strided.mlir runs them), refuse
// a written layout whose elements may share an address and a layout that is
// not strided (docs/Conversions.md, "Buffers the runtime takes"; D72).

// A strided src.
func.func @dma_copy_src(%a0: memref<16xbf16, strided<[2]>>, %a1: memref<16xbf16>) {
  // expected-error @+1 {{'birsim.dma_copy' op operand #0 must be contiguous row-major memref of bir::Dtype values (identity layout, or row-major strides with any offset), but got 'memref<16xbf16, strided<[2]>>'}}
  birsim.dma_copy add %a0 to %a1 : memref<16xbf16, strided<[2]>> to memref<16xbf16>
  return
}

// -----

// A strided dst.
func.func @dma_copy_dst(%a0: memref<16xbf16>, %a1: memref<16xbf16, strided<[2]>>) {
  // expected-error @+1 {{'birsim.dma_copy' op operand #1 must be contiguous row-major memref of bir::Dtype values (identity layout, or row-major strides with any offset), but got 'memref<16xbf16, strided<[2]>>'}}
  birsim.dma_copy add %a0 to %a1 : memref<16xbf16> to memref<16xbf16, strided<[2]>>
  return
}

// -----

// A strided src.
func.func @indirect_save_src(%a0: memref<4xbf16, strided<[2]>>, %a1: memref<4xi64>, %a2: memref<16xbf16>) {
  // expected-error @+1 {{'birsim.indirect_save' op operand #0 must be contiguous row-major memref of bir::Dtype values, 1-D (identity layout, or row-major strides with any offset), but got 'memref<4xbf16, strided<[2]>>'}}
  birsim.indirect_save add %a0 to %a2[%a1] : memref<4xbf16, strided<[2]>>, memref<4xi64> to memref<16xbf16>
  return
}

// -----

// A strided indices.
func.func @indirect_save_indices(%a0: memref<4xbf16>, %a1: memref<4xi64, strided<[2]>>, %a2: memref<16xbf16>) {
  // expected-error @+1 {{'birsim.indirect_save' op operand #1 must be contiguous row-major memref of i64, 1-D (identity layout, or row-major strides with any offset), but got 'memref<4xi64, strided<[2]>>'}}
  birsim.indirect_save add %a0 to %a2[%a1] : memref<4xbf16>, memref<4xi64, strided<[2]>> to memref<16xbf16>
  return
}

// -----

// A strided dst.
func.func @indirect_save_dst(%a0: memref<4xbf16>, %a1: memref<4xi64>, %a2: memref<16xbf16, strided<[2]>>) {
  // expected-error @+1 {{'birsim.indirect_save' op operand #2 must be contiguous row-major memref of bir::Dtype values (identity layout, or row-major strides with any offset), but got 'memref<16xbf16, strided<[2]>>'}}
  birsim.indirect_save add %a0 to %a2[%a1] : memref<4xbf16>, memref<4xi64> to memref<16xbf16, strided<[2]>>
  return
}

// -----

// A strided src.
func.func @indirect_save_accumulate_src(%a0: memref<4xbf16, strided<[2]>>, %a1: memref<4xi64>, %a2: memref<16xbf16>) {
  // expected-error @+1 {{'birsim.indirect_save_accumulate' op operand #0 must be contiguous row-major memref of bir::Dtype values, 1-D (identity layout, or row-major strides with any offset), but got 'memref<4xbf16, strided<[2]>>'}}
  birsim.indirect_save_accumulate add %a0 to %a2[%a1] : memref<4xbf16, strided<[2]>>, memref<4xi64> to memref<16xbf16>
  return
}

// -----

// A strided indices.
func.func @indirect_save_accumulate_indices(%a0: memref<4xbf16>, %a1: memref<4xi64, strided<[2]>>, %a2: memref<16xbf16>) {
  // expected-error @+1 {{'birsim.indirect_save_accumulate' op operand #1 must be contiguous row-major memref of i64, 1-D (identity layout, or row-major strides with any offset), but got 'memref<4xi64, strided<[2]>>'}}
  birsim.indirect_save_accumulate add %a0 to %a2[%a1] : memref<4xbf16>, memref<4xi64, strided<[2]>> to memref<16xbf16>
  return
}

// -----

// A strided dst.
func.func @indirect_save_accumulate_dst(%a0: memref<4xbf16>, %a1: memref<4xi64>, %a2: memref<16xbf16, strided<[2]>>) {
  // expected-error @+1 {{'birsim.indirect_save_accumulate' op operand #2 must be contiguous row-major memref of bir::Dtype values (identity layout, or row-major strides with any offset), but got 'memref<16xbf16, strided<[2]>>'}}
  birsim.indirect_save_accumulate add %a0 to %a2[%a1] : memref<4xbf16>, memref<4xi64> to memref<16xbf16, strided<[2]>>
  return
}

// -----

// A strided src.
func.func @dma_scatter_src(%a0: memref<64xf32, strided<[2]>>, %a1: memref<64xi64>, %a2: memref<4096xbf16>) {
  // expected-error @+1 {{'birsim.dma_scatter' op operand #0 must be contiguous row-major memref of bir::Dtype values, 1-D (identity layout, or row-major strides with any offset), but got 'memref<64xf32, strided<[2]>>'}}
  birsim.dma_scatter add %a0 to %a2[%a1] : memref<64xf32, strided<[2]>>, memref<64xi64> to memref<4096xbf16>
  return
}

// -----

// A strided indices.
func.func @dma_scatter_indices(%a0: memref<64xf32>, %a1: memref<64xi64, strided<[2]>>, %a2: memref<4096xbf16>) {
  // expected-error @+1 {{'birsim.dma_scatter' op operand #1 must be contiguous row-major memref of i64, 1-D (identity layout, or row-major strides with any offset), but got 'memref<64xi64, strided<[2]>>'}}
  birsim.dma_scatter add %a0 to %a2[%a1] : memref<64xf32>, memref<64xi64, strided<[2]>> to memref<4096xbf16>
  return
}

// -----

// A strided dst.
func.func @dma_scatter_dst(%a0: memref<64xf32>, %a1: memref<64xi64>, %a2: memref<4096xbf16, strided<[2]>>) {
  // expected-error @+1 {{'birsim.dma_scatter' op operand #2 must be contiguous row-major memref of bir::Dtype values (identity layout, or row-major strides with any offset), but got 'memref<4096xbf16, strided<[2]>>'}}
  birsim.dma_scatter add %a0 to %a2[%a1] : memref<64xf32>, memref<64xi64> to memref<4096xbf16, strided<[2]>>
  return
}

// -----

// A strided src.
func.func @cast_into_src(%a0: memref<8xf32, strided<[2]>>, %a1: memref<8xf8E5M2>) {
  // expected-error @+1 {{'birsim.cast_into' op operand #0 must be contiguous row-major memref of bir::Dtype values (identity layout, or row-major strides with any offset), but got 'memref<8xf32, strided<[2]>>'}}
  birsim.cast_into %a0, %a1 : memref<8xf32, strided<[2]>> to memref<8xf8E5M2>
  return
}

// -----

// A strided dst.
func.func @cast_into_dst(%a0: memref<8xf32>, %a1: memref<8xf8E5M2, strided<[2]>>) {
  // expected-error @+1 {{'birsim.cast_into' op operand #1 must be contiguous row-major memref of bir::Dtype values (identity layout, or row-major strides with any offset), but got 'memref<8xf8E5M2, strided<[2]>>'}}
  birsim.cast_into %a0, %a1 : memref<8xf32> to memref<8xf8E5M2, strided<[2]>>
  return
}

// -----

// A strided src.
func.func @dma_compute_into_src(%a0: memref<128xf32, strided<[2]>>, %a1: memref<128xbf16>) {
  // expected-error @+1 {{'birsim.dma_compute_into' op operand #0 must be variadic of contiguous row-major memref of bir::Dtype values (identity layout, or row-major strides with any offset), but got 'memref<128xf32, strided<[2]>>'}}
  birsim.dma_compute_into add %a0 to %a1 : memref<128xf32, strided<[2]>> to memref<128xbf16>
  return
}

// -----

// A strided dst.
func.func @dma_compute_into_dst(%a0: memref<128xf32>, %a1: memref<128xbf16, strided<[2]>>) {
  // expected-error @+1 {{'birsim.dma_compute_into' op operand #1 must be contiguous row-major memref of bir::Dtype values (identity layout, or row-major strides with any offset), but got 'memref<128xbf16, strided<[2]>>'}}
  birsim.dma_compute_into add %a0 to %a1 : memref<128xf32> to memref<128xbf16, strided<[2]>>
  return
}

// -----

// A strided src.
func.func @bfp_pack_mixed_into_src(%a0: memref<32x64xf32, strided<[128, 1]>>, %a1: memref<1xi8>, %a2: memref<576xi8>) {
  // expected-error @+1 {{'birsim.bfp_pack_mixed_into' op operand #0 must be contiguous row-major memref of a matrix (identity layout, or row-major strides with any offset), but got 'memref<32x64xf32, strided<[128, 1]>>'}}
  birsim.bfp_pack_mixed_into %a0, %a1, %a2 : memref<32x64xf32, strided<[128, 1]>>, memref<1xi8> -> memref<576xi8>
  return
}

// -----

// A strided codes.
func.func @bfp_pack_mixed_into_codes(%a0: memref<32x64xf32>, %a1: memref<1xi8, strided<[2]>>, %a2: memref<576xi8>) {
  // expected-error @+1 {{'birsim.bfp_pack_mixed_into' op operand #1 must be contiguous row-major memref of i8, 1-D (identity layout, or row-major strides with any offset), but got 'memref<1xi8, strided<[2]>>'}}
  birsim.bfp_pack_mixed_into %a0, %a1, %a2 : memref<32x64xf32>, memref<1xi8, strided<[2]>> -> memref<576xi8>
  return
}

// -----

// A strided dst.
func.func @bfp_pack_mixed_into_dst(%a0: memref<32x64xf32>, %a1: memref<1xi8>, %a2: memref<576xi8, strided<[2]>>) {
  // expected-error @+1 {{'birsim.bfp_pack_mixed_into' op operand #2 must be contiguous row-major memref of i8, 1-D (identity layout, or row-major strides with any offset), but got 'memref<576xi8, strided<[2]>>'}}
  birsim.bfp_pack_mixed_into %a0, %a1, %a2 : memref<32x64xf32>, memref<1xi8> -> memref<576xi8, strided<[2]>>
  return
}

// -----

// A strided src.
func.func @bfp_unpack_mixed_into_src(%a0: memref<576xi8, strided<[2]>>, %a1: memref<1xi8>, %a2: memref<32x64xf32>) {
  // expected-error @+1 {{'birsim.bfp_unpack_mixed_into' op operand #0 must be contiguous row-major memref of i8, 1-D (identity layout, or row-major strides with any offset), but got 'memref<576xi8, strided<[2]>>'}}
  birsim.bfp_unpack_mixed_into %a0, %a1, %a2 : memref<576xi8, strided<[2]>>, memref<1xi8> -> memref<32x64xf32>
  return
}

// -----

// A strided codes.
func.func @bfp_unpack_mixed_into_codes(%a0: memref<576xi8>, %a1: memref<1xi8, strided<[2]>>, %a2: memref<32x64xf32>) {
  // expected-error @+1 {{'birsim.bfp_unpack_mixed_into' op operand #1 must be contiguous row-major memref of i8, 1-D (identity layout, or row-major strides with any offset), but got 'memref<1xi8, strided<[2]>>'}}
  birsim.bfp_unpack_mixed_into %a0, %a1, %a2 : memref<576xi8>, memref<1xi8, strided<[2]>> -> memref<32x64xf32>
  return
}

// -----

// A strided dst.
func.func @bfp_unpack_mixed_into_dst(%a0: memref<576xi8>, %a1: memref<1xi8>, %a2: memref<32x64xf32, strided<[128, 1]>>) {
  // expected-error @+1 {{'birsim.bfp_unpack_mixed_into' op operand #2 must be contiguous row-major memref of an f32 matrix (identity layout, or row-major strides with any offset), but got 'memref<32x64xf32, strided<[128, 1]>>'}}
  birsim.bfp_unpack_mixed_into %a0, %a1, %a2 : memref<576xi8>, memref<1xi8> -> memref<32x64xf32, strided<[128, 1]>>
  return
}

// -----

// A strided src.
func.func @tt_fp8_encode_into_src(%a0: memref<8xf32, strided<[2]>>, %a1: memref<8xi8>) {
  // expected-error @+1 {{'birsim.tt_fp8_encode_into' op operand #0 must be contiguous row-major memref of f32 values (identity layout, or row-major strides with any offset), but got 'memref<8xf32, strided<[2]>>'}}
  birsim.tt_fp8_encode_into ttmetal_host %a0, %a1 : memref<8xf32, strided<[2]>> -> memref<8xi8>
  return
}

// -----

// A strided dst.
func.func @tt_fp8_encode_into_dst(%a0: memref<8xf32>, %a1: memref<8xi8, strided<[2]>>) {
  // expected-error @+1 {{'birsim.tt_fp8_encode_into' op operand #1 must be contiguous row-major memref of i8 codes (identity layout, or row-major strides with any offset), but got 'memref<8xi8, strided<[2]>>'}}
  birsim.tt_fp8_encode_into ttmetal_host %a0, %a1 : memref<8xf32> -> memref<8xi8, strided<[2]>>
  return
}

// -----

// A strided src.
func.func @tt_fp8_decode_into_src(%a0: memref<8xi8, strided<[2]>>, %a1: memref<8xf32>) {
  // expected-error @+1 {{'birsim.tt_fp8_decode_into' op operand #0 must be contiguous row-major memref of i8 codes (identity layout, or row-major strides with any offset), but got 'memref<8xi8, strided<[2]>>'}}
  birsim.tt_fp8_decode_into ttmetal_host %a0, %a1 : memref<8xi8, strided<[2]>> -> memref<8xf32>
  return
}

// -----

// A strided dst.
func.func @tt_fp8_decode_into_dst(%a0: memref<8xi8>, %a1: memref<8xf32, strided<[2]>>) {
  // expected-error @+1 {{'birsim.tt_fp8_decode_into' op operand #1 must be contiguous row-major memref of f32 values (identity layout, or row-major strides with any offset), but got 'memref<8xf32, strided<[2]>>'}}
  birsim.tt_fp8_decode_into ttmetal_host %a0, %a1 : memref<8xi8> -> memref<8xf32, strided<[2]>>
  return
}

// -----

// A strided tiles.
func.func @bfp_pack_into_tiles(%a0: memref<2x32x32xf32, strided<[2048, 32, 1]>>, %a1: memref<2x1088xi8>) {
  // expected-error @+1 {{'birsim.bfp_pack_into' op operand #0 must be contiguous row-major memref of N x R x C tiles (identity layout, or row-major strides with any offset), but got 'memref<2x32x32xf32, strided<[2048, 32, 1]>>'}}
  birsim.bfp_pack_into bfp8_b %a0, %a1 : memref<2x32x32xf32, strided<[2048, 32, 1]>> to memref<2x1088xi8>
  return
}

// -----

// A strided packed.
func.func @bfp_pack_into_packed(%a0: memref<2x32x32xf32>, %a1: memref<2x1088xi8, strided<[2176, 1]>>) {
  // expected-error @+1 {{'birsim.bfp_pack_into' op operand #1 must be contiguous row-major memref of i8, 2-D (identity layout, or row-major strides with any offset), but got 'memref<2x1088xi8, strided<[2176, 1]>>'}}
  birsim.bfp_pack_into bfp8_b %a0, %a1 : memref<2x32x32xf32> to memref<2x1088xi8, strided<[2176, 1]>>
  return
}

// -----

// A strided packed.
func.func @bfp_unpack_into_packed(%a0: memref<2x1088xi8, strided<[2176, 1]>>, %a1: memref<2x32x32xf32>) {
  // expected-error @+1 {{'birsim.bfp_unpack_into' op operand #0 must be contiguous row-major memref of i8, 2-D (identity layout, or row-major strides with any offset), but got 'memref<2x1088xi8, strided<[2176, 1]>>'}}
  birsim.bfp_unpack_into bfp8_b %a0, %a1 : memref<2x1088xi8, strided<[2176, 1]>> to memref<2x32x32xf32>
  return
}

// -----

// A strided tiles.
func.func @bfp_unpack_into_tiles(%a0: memref<2x1088xi8>, %a1: memref<2x32x32xf32, strided<[2048, 32, 1]>>) {
  // expected-error @+1 {{'birsim.bfp_unpack_into' op operand #1 must be contiguous row-major memref of N x R x C f32 tiles (identity layout, or row-major strides with any offset), but got 'memref<2x32x32xf32, strided<[2048, 32, 1]>>'}}
  birsim.bfp_unpack_into bfp8_b %a0, %a1 : memref<2x1088xi8> to memref<2x32x32xf32, strided<[2048, 32, 1]>>
  return
}

// -----

// A strided matrix.
func.func @bfp_pack_matrix_into_matrix(%a0: memref<64x32xf32, strided<[64, 1]>>, %a1: memref<2x1088xi8>) {
  // expected-error @+1 {{'birsim.bfp_pack_matrix_into' op operand #0 must be contiguous row-major memref of a matrix (identity layout, or row-major strides with any offset), but got 'memref<64x32xf32, strided<[64, 1]>>'}}
  birsim.bfp_pack_matrix_into bfp8_b %a0, %a1 tile [32, 32] : memref<64x32xf32, strided<[64, 1]>> to memref<2x1088xi8>
  return
}

// -----

// A strided packed.
func.func @bfp_pack_matrix_into_packed(%a0: memref<64x32xf32>, %a1: memref<2x1088xi8, strided<[2176, 1]>>) {
  // expected-error @+1 {{'birsim.bfp_pack_matrix_into' op operand #1 must be contiguous row-major memref of i8, 2-D (identity layout, or row-major strides with any offset), but got 'memref<2x1088xi8, strided<[2176, 1]>>'}}
  birsim.bfp_pack_matrix_into bfp8_b %a0, %a1 tile [32, 32] : memref<64x32xf32> to memref<2x1088xi8, strided<[2176, 1]>>
  return
}

// -----

// A strided packed.
func.func @bfp_unpack_matrix_into_packed(%a0: memref<2x1088xi8, strided<[2176, 1]>>, %a1: memref<64x32xf32>) {
  // expected-error @+1 {{'birsim.bfp_unpack_matrix_into' op operand #0 must be contiguous row-major memref of i8, 2-D (identity layout, or row-major strides with any offset), but got 'memref<2x1088xi8, strided<[2176, 1]>>'}}
  birsim.bfp_unpack_matrix_into bfp8_b %a0, %a1 tile [32, 32] : memref<2x1088xi8, strided<[2176, 1]>> to memref<64x32xf32>
  return
}

// -----

// A strided matrix.
func.func @bfp_unpack_matrix_into_matrix(%a0: memref<2x1088xi8>, %a1: memref<64x32xf32, strided<[64, 1]>>) {
  // expected-error @+1 {{'birsim.bfp_unpack_matrix_into' op operand #1 must be contiguous row-major memref of an f32 matrix (identity layout, or row-major strides with any offset), but got 'memref<64x32xf32, strided<[64, 1]>>'}}
  birsim.bfp_unpack_matrix_into bfp8_b %a0, %a1 tile [32, 32] : memref<2x1088xi8> to memref<64x32xf32, strided<[64, 1]>>
  return
}

// -----

// A strided dst and src.
func.func @reduce_into_dst_and_src(%a0: memref<16xbf16, strided<[2]>>, %a1: memref<16xbf16, strided<[2]>>) {
  // expected-error @+1 {{'birsim.reduce_into' op operand #0 must be contiguous row-major memref of bir::Dtype values (identity layout, or row-major strides with any offset), but got 'memref<16xbf16, strided<[2]>>'}}
  birsim.reduce_into add %a0, %a1 : memref<16xbf16, strided<[2]>>
  return
}

// -----

// A strided acc and x.
func.func @collective_reduce_into_acc_and_x(%a0: memref<16xf32, strided<[2]>>, %a1: memref<16xf32, strided<[2]>>) {
  // expected-error @+1 {{'birsim.collective_reduce_into' op operand #0 must be contiguous row-major memref of f32 values (identity layout, or row-major strides with any offset), but got 'memref<16xf32, strided<[2]>>'}}
  birsim.collective_reduce_into max %a0, %a1 : memref<16xf32, strided<[2]>>
  return
}


// -----

// A broadcast Dest: eight results into one element.
func.func @tensix_eltwise_into_dst_stride_0(%a: memref<8xf32>, %d: memref<8xf32, strided<[0]>>) {
  // expected-error @+1 {{'birsim.tensix_eltwise_into' op dst of type 'memref<8xf32, strided<[0]>>': a written buffer that is not contiguous row-major must have a strided layout whose elements have distinct addresses}}
  birsim.tensix_eltwise_into mul %a, %a, %d dest fp32 src tf32 : memref<8xf32>, memref<8xf32> -> memref<8xf32, strided<[0]>>
  return
}

// -----

// A stride known only at run time may be 0.
func.func @tensix_eltwise_into_dst_dynamic_stride(%a: memref<8xf32>, %d: memref<8xf32, strided<[?], offset: ?>>) {
  // expected-error @+1 {{'birsim.tensix_eltwise_into' op dst of type 'memref<8xf32, strided<[?], offset: ?>>': a written buffer that is not contiguous row-major must have a strided layout whose elements have distinct addresses}}
  birsim.tensix_eltwise_into mul %a, %a, %d dest fp32 src tf32 : memref<8xf32>, memref<8xf32> -> memref<8xf32, strided<[?], offset: ?>>
  return
}

// -----

// Strides that interleave: row 1 starts inside row 0's span (32 x 2).
func.func @tensix_matmul_into_dst_interleaved(%x: memref<32x32xf32>, %d: memref<32x32xf32, strided<[32, 2]>>) {
  // expected-error @+1 {{'birsim.tensix_matmul_into' op dst of type 'memref<32x32xf32, strided<[32, 2]>>': a written buffer that is not contiguous row-major must have a strided layout whose elements have distinct addresses}}
  birsim.tensix_matmul_into %x, %x, %d dest fp32 src bf16, bf16 : memref<32x32xf32>, memref<32x32xf32> -> memref<32x32xf32, strided<[32, 2]>>
  return
}

// -----

// An L1 buffer whose rows overlap (strides 1 and 1).
func.func @tensix_pack_into_dst_overlap(%i: memref<4x4xf32>, %o: memref<4x4xbf16, strided<[1, 1]>>) {
  // expected-error @+1 {{'birsim.tensix_pack_into' op dst of type 'memref<4x4xbf16, strided<[1, 1]>>': a written buffer that is not contiguous row-major must have a strided layout whose elements have distinct addresses}}
  birsim.tensix_pack_into %i, %o dest fp32 : memref<4x4xf32> -> memref<4x4xbf16, strided<[1, 1]>>
  return
}

// -----

// A negative stride: refused for a written view (the rule takes strides
// of at least the span before them).
func.func @tensix_eltwise_into_dst_negative_stride(%a: memref<4xf32>, %d: memref<4xf32, strided<[-1], offset: 3>>) {
  // expected-error @+1 {{'birsim.tensix_eltwise_into' op dst of type 'memref<4xf32, strided<[-1], offset: 3>>': a written buffer that is not contiguous row-major must have a strided layout whose elements have distinct addresses}}
  birsim.tensix_eltwise_into mul %a, %a, %d dest fp32 src tf32 : memref<4xf32>, memref<4xf32> -> memref<4xf32, strided<[-1], offset: 3>>
  return
}

// -----

// A span past int64: refused, not wrapped into a smaller one.
func.func @tensix_eltwise_into_dst_span_overflows(%a: memref<3x2xf32>, %d: memref<3x2xf32, strided<[4611686018427387904, 1]>>) {
  // expected-error @+1 {{'birsim.tensix_eltwise_into' op dst of type 'memref<3x2xf32, strided<[4611686018427387904, 1]>>': a written buffer that is not contiguous row-major must have a strided layout whose elements have distinct addresses}}
  birsim.tensix_eltwise_into mul %a, %a, %d dest fp32 src tf32 : memref<3x2xf32>, memref<3x2xf32> -> memref<3x2xf32, strided<[4611686018427387904, 1]>>
  return
}

// -----

// A layout that is not strided, read or written.
func.func @tensix_pack_into_input_not_strided(%i: memref<8xf32, affine_map<(d0) -> (d0 floordiv 2)>>, %o: memref<8xf32>) {
  // expected-error @+1 {{'birsim.tensix_pack_into' op input of type 'memref<8xf32, affine_map<(d0) -> (d0 floordiv 2)>>' has a layout that is not strided: a runtime call takes a strided buffer (docs/Conversions.md)}}
  birsim.tensix_pack_into %i, %o dest fp32 : memref<8xf32, affine_map<(d0) -> (d0 floordiv 2)>> -> memref<8xf32>
  return
}

// -----

func.func @tensix_pack_into_dst_not_strided(%i: memref<8xf32>, %o: memref<8xf32, affine_map<(d0) -> (d0 floordiv 2)>>) {
  // expected-error @+1 {{'birsim.tensix_pack_into' op dst of type 'memref<8xf32, affine_map<(d0) -> (d0 floordiv 2)>>': a written buffer that is not contiguous row-major must have a strided layout}}
  birsim.tensix_pack_into %i, %o dest fp32 : memref<8xf32> -> memref<8xf32, affine_map<(d0) -> (d0 floordiv 2)>>
  return
}

// -----

// Accepted: a transposed Dest (distinct elements, strides 1 and 32), a Dest
// of every other row with a dynamic outer size, a size-1 dimension of any
// stride, a view with no elements.
func.func @distinct_layouts(%x: memref<32x32xf32>, %t: memref<32x32xf32, strided<[1, 32]>>,
                            %a: memref<?x4xf32>, %d: memref<?x4xf32, strided<[8, 1], offset: ?>>,
                            %i: memref<1x4xf32>, %o: memref<1x4xf32, strided<[0, 1]>>,
                            %e: memref<0x4xf32>, %z: memref<0x4xf32, strided<[0, 0]>>) {
  birsim.tensix_matmul_into %x, %x, %t dest fp32 src bf16, bf16 : memref<32x32xf32>, memref<32x32xf32> -> memref<32x32xf32, strided<[1, 32]>>
  birsim.tensix_eltwise_into mul %a, %a, %d dest fp32 src tf32 : memref<?x4xf32>, memref<?x4xf32> -> memref<?x4xf32, strided<[8, 1], offset: ?>>
  birsim.tensix_pack_into %i, %o dest fp32 : memref<1x4xf32> -> memref<1x4xf32, strided<[0, 1]>>
  birsim.tensix_pack_into %e, %z dest fp32 : memref<0x4xf32> -> memref<0x4xf32, strided<[0, 0]>>
  return
}

// -----

// A source whose layout is not strided at all.
func.func @tensix_eltwise_into_lhs_not_strided(%a: memref<4xf32, affine_map<(d0) -> (d0 floordiv 2)>>, %b: memref<4xf32>, %d: memref<4xf32>) {
  // expected-error @+1 {{'birsim.tensix_eltwise_into' op lhs of type 'memref<4xf32, affine_map<(d0) -> (d0 floordiv 2)>>' has a layout that is not strided: a runtime call takes a strided buffer (docs/Conversions.md)}}
  birsim.tensix_eltwise_into mul %a, %b, %d dest fp32 src tf32 : memref<4xf32, affine_map<(d0) -> (d0 floordiv 2)>>, memref<4xf32> -> memref<4xf32>
  return
}
