//===- BirsimOps.td - birsim operations --------------------*- tablegen -*-===//
#ifndef BIRSIM_OPS_TD
#define BIRSIM_OPS_TD

include "birsim/Dialect/Birsim/IR/BirsimDialect.td"
include "birsim/Dialect/Birsim/IR/BirsimEnums.td"
include "birsim/Dialect/Birsim/IR/BirsimInterfaces.td"
include "birsim/Dialect/Birsim/IR/BirsimTypes.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Value-level ops: scalars, vectors and ranked tensors
//===----------------------------------------------------------------------===//

def Birsim_ConstantOp : Birsim_Op<"constant",
    [ConstantLike, Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "constant of any bir::Dtype element type";
  let description = [{
    Materializes folded values whose type `arith.constant` does not accept
    (`ui8`, `si32`, ...).

    ```mlir
    %c = birsim.constant dense<[1, 2]> : tensor<2xui8>
    ```
  }];
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs Birsim_DtypeValue:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

def Birsim_ReduceOp : Birsim_Op<"reduce",
    [Pure, AllTypesMatch<["dst", "src", "result"]>]> {
  let summary = "cast_copy_or_accumulate: result = reduce(dst, src)";
  let description = [{
    Elementwise `birsim::cast_copy_or_accumulate(kind, dst, src, dtype)`
    (docs/Semantics.md section 3). `copy` takes every bir::Dtype and folds
    to `src`; `add`, `min` and `max` only the reducing ones (the add/min/max
    column of docs/Semantics.md section 1), any other is the verifier's
    `cast_accumulate: unsupported dtype <name>`. Floats reduce in fp32 with
    x86 SSE semantics (`add` = ADDSS(dst, src), `min` = MINSS(src, dst),
    `max` = MAXSS(src, dst), so a NaN on either side of `min`/`max` leaves
    `dst`) and narrow back with round-to-nearest-even, FP8 config 0 (an
    overflowing fp8 sum is ±Inf); integers wrap, min/max compare signed.

    ```mlir
    %r = birsim.reduce add %dst, %src : bf16
    %r = birsim.reduce max %dst, %src : tensor<4x8xf8E4M3>
    ```
  }];
  let arguments = (ins Birsim_MemoryReductionOpAttr:$kind,
                       Birsim_DtypeValue:$dst, Birsim_DtypeValue:$src);
  let results = (outs Birsim_DtypeValue:$result);
  let assemblyFormat = "`` $kind $dst `,` $src attr-dict `:` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Birsim_CollectiveReduceOp : Birsim_Op<"collective_reduce",
    [Pure, AllTypesMatch<["acc", "x", "result"]>]> {
  let summary = "the collective doReduction on fp32";
  let description = [{
    The AllReduce / ReduceScatter reducer `doReduction` @ 0x1b3400, which
    reads `bir::AluOpType` directly (docs/Semantics.md section 2):
    `add` = ADDSS(x, acc), so a NaN in `x` wins, `max` = MAXSS(x, acc),
    `min` = MINSS(x, acc), on `f32` only. Any other AluOpType is an error
    (the simulator asserts at inst_visitor.cpp:5365).

    ```mlir
    %r = birsim.collective_reduce max %acc, %x : tensor<16xf32>
    ```
  }];
  let arguments = (ins Birsim_AluOpTypeAttr:$kind, Birsim_F32Value:$acc,
                       Birsim_F32Value:$x);
  let results = (outs Birsim_F32Value:$result);
  let assemblyFormat = "`` $kind $acc `,` $x attr-dict `:` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Birsim_CastOp : Birsim_Op<"cast",
    [Pure, Birsim_HasBufferForm, Birsim_SameShapeAndContainer<"input", "result">]> {
  let summary = "bir::CastToNewDType between non-packed dtypes";
  let description = [{
    The whole-tensor cast engine (docs/Semantics.md section 4): every non-packed
    dtype to every non-packed dtype through fp32, round-to-nearest-even.
    `fp8_config` is the FP8ConversionConfig: `saturate` (bit 0) and
    `nan_suppress` (byte 1), or `none`. It defaults to `saturate`, the
    compiler's default, and applies to fp8 results only. The integer form
    `{fp8_config = N : i32}` of the simulator's config word is accepted
    too: bits outside 0xFF01 are an error, any bit of byte 1 is
    `nan_suppress` (docs/Decisions.md D2-D4, D16). Packed dtypes are outside
    the engine. A cast to the same type folds to its input; constant inputs
    fold through the core, inexact results included.

    ```mlir
    %y = birsim.cast %x : tensor<8xf32> to tensor<8xf8E5M2>
    %y = birsim.cast %x fp8_config<none> : f32 to f8E5M2
    %y = birsim.cast %x fp8_config<saturate | nan_suppress> : f32 to f8E5M2
    ```
  }];
  let arguments = (ins Birsim_DtypeValue:$input,
      DefaultValuedAttr<Birsim_Fp8ConfigAttr,
                        "::birsim::Fp8Config::saturate">:$fp8_config);
  let results = (outs Birsim_DtypeValue:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// The DMA engine's arithmetic across dtypes (docs/Semantics.md section 8)
//===----------------------------------------------------------------------===//

class Birsim_DmaNarrowing {
  dag narrowingArguments = (ins
      DefaultValuedAttr<Birsim_Fp8ConfigAttr,
                        "::birsim::Fp8Config::saturate">:$fp8_config,
      DefaultValuedAttr<Birsim_RoundingAttr,
                        "::birsim::Rounding::nearest_even">:$rounding,
      DefaultValuedAttr<I64Attr, "0">:$seed);
  code narrowingDescription = [{
    The fp32 result is narrowed into the result's dtype by the cast engine
    (docs/Semantics.md section 4) under `fp8_config` (default `saturate`,
    as on `birsim.cast`), to nearest even or, with
    `rounding = #birsim.rounding<stochastic>`, stochastically from `seed`:
    reproducible, and not the device's bits (docs/Decisions.md D55). The
    dtypes are the DMA's (uint8, int8, uint16, int16, uint32, int32,
    float8e4, float8_e4m3fn, float8e5, float16, bfloat16, float32; D54);
    stochastic rounding narrows into bf16, fp16 or fp8 only.
  }];
}

def Birsim_DmaComputeOp : Birsim_Op<"dma_compute",
    [Pure, Birsim_HasBufferForm, SameOperandsAndResultShape]>,
    Birsim_DmaNarrowing {
  let summary = "nki.isa.dma_compute: sources combined through fp32";
  let description = [{
    The DMA's arithmetic across dtypes (docs/Semantics.md section 8): each
    of 1 to 16 sources is widened to fp32 by the cast engine, and they
    combine in order with the fp32 core, `add` = ADDSS(acc, x), `min` =
    MINSS(x, acc), `max` = MAXSS(x, acc). Trainium3's bf16 PSUM
    accumulation is `add` of the PSUM tile and the matmul's fp32 result.
  }] # narrowingDescription # [{
    Constant sources fold through the core.

    ```mlir
    %psum2 = birsim.dma_compute add %psum, %mm
        : tensor<128xbf16>, tensor<128xf32> -> tensor<128xbf16>
    %r = birsim.dma_compute add %a, %b {rounding = #birsim.rounding<stochastic>, seed = 7 : i64}
        : vector<4xf32>, vector<4xi32> -> vector<4xf8E4M3FN>
    ```
  }];
  let arguments = !con((ins Birsim_MemoryReductionOpAttr:$kind,
                            Variadic<Birsim_DtypeValue>:$srcs),
                       narrowingArguments);
  let results = (outs Birsim_DtypeValue:$result);
  let assemblyFormat =
      "`` $kind $srcs attr-dict `:` type($srcs) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Per-tile mixed BFP (docs/Semantics.md section 5)
//===----------------------------------------------------------------------===//

def Birsim_BfpPackMixedOp : Birsim_Op<"bfp_pack_mixed",
    [Pure, Birsim_HasBufferForm]> {
  let summary = "pack a matrix in 32x32 tiles, each in its own BFP format";
  let description = [{
    DeepSeek-V3's per-tile mixed BFP (docs/Semantics.md section 5): a
    matrix (rank 2 or more, leading dimensions folded into rows, both
    multiples of 32) in 32x32 tiles in row-major tile order, each packed as
    `birsim.bfp_pack_matrix` packs it in the format its 2-bit code in
    `codes` names (0 `bfp8_b`, 1 `bfp4_b`, 2 `bfp2_b`, 3 `bfp0`: no
    bytes; four codes a byte, low bits first), back to back. The result's
    length is `birsim_bfp_mixed_bytes`. Constant inputs and codes fold
    through the core.

    ```mlir
    %p = birsim.bfp_pack_mixed %m, %codes : tensor<32x64xf32>, tensor<1xi8> -> tensor<576xi8>
    ```
  }];
  let arguments = (ins Birsim_MatrixTensor:$input, Birsim_BytesTensor:$codes,
                       UnitAttr:$transpose);
  let results = (outs Birsim_BytesTensor:$result);
  let assemblyFormat = "$input `,` $codes (`transpose` $transpose^)? attr-dict "
                       "`:` type($input) `,` type($codes) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Birsim_BfpUnpackMixedOp : Birsim_Op<"bfp_unpack_mixed",
    [Pure, Birsim_HasBufferForm]> {
  let summary = "unpack per-tile mixed BFP bytes into an f32 matrix";
  let description = [{
    The inverse of `birsim.bfp_pack_mixed`: the result's shape gives the
    matrix; `bfp0` tiles are +0.

    ```mlir
    %m = birsim.bfp_unpack_mixed %p, %codes : tensor<576xi8>, tensor<1xi8> -> tensor<32x64xf32>
    ```
  }];
  let arguments = (ins Birsim_BytesTensor:$input, Birsim_BytesTensor:$codes,
                       UnitAttr:$transpose);
  let results = (outs Birsim_F32MatrixTensor:$result);
  let assemblyFormat = "$input `,` $codes (`transpose` $transpose^)? attr-dict "
                       "`:` type($input) `,` type($codes) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// tt-metal's FP8 E4M3 conversions (docs/Semantics.md section 6)
//===----------------------------------------------------------------------===//

def Birsim_TtFp8EncodeOp : Birsim_Op<"tt_fp8_encode",
    [Pure, Birsim_HasBufferForm, AllShapesMatch<["input", "result"]>]> {
  let summary = "f32 values to FP8 E4M3 codes under one of tt-metal's rules";
  let description = [{
    Each value to a one-byte E4M3 code as the named policy encodes it
    (docs/Semantics.md section 6): `ttmetal_host` (tt-metal's host
    float8_e4m3, largest 240), `ocp_e4m3fn` (torch.float8_e4m3fn, ttnn's
    golden, largest 448) or `blackhole_packer` (the Blackhole packer's Lf8
    from an fp32 Dest). Constant inputs fold through the core.

    ```mlir
    %c = birsim.tt_fp8_encode ocp_e4m3fn %x : tensor<64xf32> -> tensor<64xi8>
    ```
  }];
  let arguments = (ins Birsim_TtFp8PolicyAttr:$policy,
                       RankedTensorOf<[F32]>:$input);
  let results = (outs Birsim_CodeTensor:$result);
  let assemblyFormat =
      "$policy $input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def Birsim_TtFp8DecodeOp : Birsim_Op<"tt_fp8_decode",
    [Pure, Birsim_HasBufferForm, AllShapesMatch<["input", "result"]>]> {
  let summary = "FP8 E4M3 codes to f32 values under one of tt-metal's rules";
  let description = [{
    Each code's value as the named policy reads it (docs/Semantics.md
    section 6; `blackhole_packer` decodes as the Blackhole unpacker).
    Constant inputs fold through the core.

    ```mlir
    %x = birsim.tt_fp8_decode blackhole_packer %c : tensor<64xi8> -> tensor<64xf32>
    ```
  }];
  let arguments = (ins Birsim_TtFp8PolicyAttr:$policy,
                       Birsim_CodeTensor:$input);
  let results = (outs RankedTensorOf<[F32]>:$result);
  let assemblyFormat =
      "$policy $input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// The Tensix FPU's elementwise ops and the packer (docs/Semantics.md
// section 7)
//===----------------------------------------------------------------------===//

def Birsim_TensixEltwiseOp : Birsim_Op<"tensix_eltwise",
    [Pure, Birsim_HasBufferForm, AllShapesMatch<["lhs", "rhs", "result"]>]> {
  let summary = "Dest after mul_tiles / add_tiles / sub_tiles";
  let description = [{
    What the Tensix FPU writes to a zeroed Dest for `lhs` in SrcA and `rhs`
    in SrcB (docs/Semantics.md section 7): `mul` runs one ELWMUL per phase
    of `fidelity` (a fidelity name, or a phase set such as `phases_02`),
    `add` and `sub` one ELWADD or ELWSUB at `lofi`. The f32 operands reach
    Src as the unpacker writes a Float32 tile in the `src` class (`tf32`,
    `bf16`, `fp16`); the result holds Dest's values: f32 for an `fp32`
    Dest, bf16 for `bf16`, f16 bit patterns (exponent 31 finite) for
    `fp16`. `arch` is `wormhole` (default) or `blackhole`. The verifier
    rejects what ttsim rejects; constants fold through the core.

    ```mlir
    %d = birsim.tensix_eltwise mul %a, %b dest bf16 src bf16 fidelity hifi2 : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xbf16>
    ```
  }];
  let arguments = (ins Birsim_TensixOpAttr:$op,
      RankedTensorOf<[F32]>:$lhs, RankedTensorOf<[F32]>:$rhs,
      Birsim_TensixDestAttr:$dest, Birsim_TensixSrcAttr:$src,
      DefaultValuedAttr<Birsim_TensixFidelityAttr,
                        "::birsim::TensixFidelity::hifi4">:$fidelity,
      DefaultValuedAttr<Birsim_TensixArchAttr,
                        "::birsim::TensixArch::wormhole">:$arch);
  let results = (outs RankedTensorOf<[F32, BF16, F16]>:$result);
  let assemblyFormat = "`` $op $lhs `,` $rhs `dest` `` $dest `src` `` $src "
      "(`fidelity` `` $fidelity^)? (`arch` `` $arch^)? attr-dict `:` type($lhs) "
      "`,` type($rhs) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Birsim_TensixMatmulOp : Birsim_Op<"tensix_matmul",
    [Pure, Birsim_HasBufferForm]> {
  let summary = "Dest after matmul_tiles on 32x32 tiles";
  let description = [{
    What the Tensix FPU writes to a zeroed Dest for `in0` (M x K, the
    activations) times `in1` (K x N, the weights) as `matmul_tiles` runs it
    (docs/Semantics.md section 7, "MVMUL" and "matmul_tiles"): in0 in SrcB,
    in1 in SrcA, each read into Src as the unpacker writes a Float32 tile in
    its class (`src <in0's>, <in1's>`: `tf32`, `bf16`, `fp16`; FP16 needs
    both); per K tile the phases of `fidelity` ascend, and Dest rounds after
    every MVMUL. The shapes are static, M, K and N multiples of 32
    (docs/Decisions.md D50); the result holds Dest's values as
    `tensix_eltwise`'s does. The verifier rejects what ttsim and the LLK
    reject; constants fold through the core.

    ```mlir
    %d = birsim.tensix_matmul %x, %w dest fp32 src tf32, bf16 fidelity phases_02 : tensor<32x64xf32>, tensor<64x32xf32> -> tensor<32x32xf32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[F32]>:$in0, RankedTensorOf<[F32]>:$in1,
      Birsim_TensixDestAttr:$dest, Birsim_TensixSrcAttr:$in0_src,
      Birsim_TensixSrcAttr:$in1_src,
      DefaultValuedAttr<Birsim_TensixFidelityAttr,
                        "::birsim::TensixFidelity::hifi4">:$fidelity,
      DefaultValuedAttr<Birsim_TensixArchAttr,
                        "::birsim::TensixArch::wormhole">:$arch);
  let results = (outs RankedTensorOf<[F32, BF16, F16]>:$result);
  let assemblyFormat = "$in0 `,` $in1 `dest` `` $dest `src` `` $in0_src `,` `` "
      "$in1_src (`fidelity` `` $fidelity^)? (`arch` `` $arch^)? attr-dict `:` "
      "type($in0) `,` type($in1) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Birsim_TensixPackOp : Birsim_Op<"tensix_pack",
    [Pure, Birsim_HasBufferForm, AllShapesMatch<["input", "result"]>]> {
  let summary = "the Tensix packer's output of Dest values";
  let description = [{
    Dest's values (f32 for `fp32`, bf16 for `bf16`, f16 bit patterns for
    `fp16`) as PACR writes them to an f32, bf16 or f16 output
    (docs/Semantics.md section 7); the verifier names the paths there are.
    Constants fold through the core.

    ```mlir
    %o = birsim.tensix_pack %d dest fp32 : tensor<32x32xf32> -> tensor<32x32xbf16>
    ```
  }];
  let arguments = (ins RankedTensorOf<[F32, BF16, F16]>:$input,
      Birsim_TensixDestAttr:$dest,
      DefaultValuedAttr<Birsim_TensixArchAttr,
                        "::birsim::TensixArch::wormhole">:$arch);
  let results = (outs RankedTensorOf<[F32, BF16, F16]>:$result);
  let assemblyFormat = "$input `dest` `` $dest (`arch` `` $arch^)? attr-dict `:` "
      "type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// The BFP family (docs/Semantics.md section 5): pack and unpack, tile and
// matrix forms, on tensors and on buffers; Birsim_BfpOpInterface.
//===----------------------------------------------------------------------===//

/// What a form adds to the format and the operands: the tile forms take
/// `faces`, the matrix forms `tile` and `transpose`, every form `page32`
/// or `page64` (tiles at a DRAM page's stride) and `exp_search` (packs:
/// tt-metal PR #57298's per-block exponent search; the flag attributes are
/// named as BfpFlags.def names the flags), and every form `at`, where
/// the conversion runs (BfpSites.def; the host when absent): a pack at a
/// device site gives the Tensix packer's bytes, an unpack the unpacker's
/// values.
class Birsim_BfpFamily<bit pack, bit matrix, string values, string packed> {
  dag formArgs = !con(
      !if(matrix, (ins DenseI32ArrayAttr:$tile, UnitAttr:$transpose),
          (ins UnitAttr:$faces)),
      (ins OptionalAttr<Birsim_BfpSiteAttr>:$at, UnitAttr:$page32,
           UnitAttr:$page64, UnitAttr:$exp_search));
  string formSyntax = !if(matrix, "`tile` $tile (`transpose` $transpose^)?",
                          "(`faces` $faces^)?") #
                      " (`at` $at^)? (`page32` $page32^)? (`page64` $page64^)?"
                      " (`exp_search` $exp_search^)?";
  code familyDeclarations = [{
    ::mlir::Value getValues() { return get}] # values # [{(); }
  }] # !if(!eq(packed, "Packed"), "", [{
    ::mlir::Value getPacked() { return get}] # packed # [{(); }
  }]) # [{
    bool isPack() { return }] # !if(pack, "true", "false") # [{; }
    bool isMatrixForm() { return }] # !if(matrix, "true", "false") # [{; }
  }];
}

/// A tensor form: `$input` to `$result`, folded through the core.
class Birsim_BfpValueOp<string mnemonic, bit pack, bit matrix, Type inType,
                        Type outType>
    : Birsim_Op<mnemonic, [Pure, Birsim_BfpOpInterface, Birsim_HasBufferForm]>,
      Birsim_BfpFamily<pack, matrix, !if(pack, "Input", "Result"),
                       !if(pack, "Result", "Input")> {
  let arguments = !con((ins Birsim_BfpFormatAttr:$format, inType:$input),
                       formArgs);
  let results = (outs outType:$result);
  let assemblyFormat = "`` $format $input " # formSyntax #
                       " attr-dict `:` type($input) `->` type($result)";
  let extraClassDeclaration = familyDeclarations;
  let hasFolder = 1;
}

def Birsim_BfpPackOp : Birsim_BfpValueOp<"bfp_pack", 1, 0, Birsim_TileTensor,
                                       Birsim_PackedTensor> {
  let summary = "pack N tiles into BFP bytes, as tt-metal's pack_as_bfp_tiles";
  let description = [{
    `tensor<N x R x C x T>` to `tensor<N x bytes x i8>`: tt-metal's host
    packer (docs/Semantics.md section 5). The format is one of `bfp8_b`,
    `bfp4_b`, `bfp2_b` (fp32's 8-bit shared exponent) or `bfp8_a`,
    `bfp4_a`, `bfp2_a` (a 5-bit one); encoding aligns each value to its
    16-value block's shared exponent, rounds to the datum width with ties to
    even and saturates. `R x C` is a tile shape tt-metal accepts (32x32,
    16x32, 32x16, 16x16, 8/4/2/1 x 32, 8/4/2/1 x 16); each tile's values are
    row-major, or already in face order with `faces`. `T` is `f32`, `bf16`
    (its bits shifted left by 16), or `i8`, `ui8`, `ui16`, `i32`, `ui32`
    (by value, rounded to nearest even). `bytes` is the packer's tile size:
    one exponent byte per block zero-padded to a multiple of 16, then the
    datums (`birsim_bfp_packed_tile_bytes`). Folds dense, splat and
    `dense_resource` constants.

    ```mlir
    %p = birsim.bfp_pack bfp8_b %t : tensor<2x32x32xf32> -> tensor<2x1088xi8>
    %q = birsim.bfp_pack bfp2_a %w faces : tensor<8x16x32xbf16> -> tensor<8x160xi8>
    ```
  }];
}

def Birsim_BfpUnpackOp : Birsim_BfpValueOp<"bfp_unpack", 0, 0,
    Birsim_PackedTensor, Birsim_F32TileTensor> {
  let summary = "unpack BFP bytes into N f32 tiles, as tt-metal's unpack";
  let description = [{
    The inverse of `birsim.bfp_pack`: every datum decoded under its block's
    shared exponent (docs/Semantics.md section 5) into f32 tiles of the
    result's shape, row-major inside or, with `faces`, in face order.

    ```mlir
    %u = birsim.bfp_unpack bfp8_b %p : tensor<2x1088xi8> -> tensor<2x32x32xf32>
    ```
  }];
}

def Birsim_BfpPackMatrixOp : Birsim_BfpValueOp<"bfp_pack_matrix", 1, 1,
    Birsim_MatrixTensor, Birsim_PackedTensor> {
  let summary = "tilize and pack a matrix in one pass";
  let description = [{
    A row-major matrix (rank 2 or more, leading dimensions folded into rows,
    rows and columns whole tiles of `tile`) to its tiles in row-major tile
    order, packed as `birsim.bfp_pack` packs face-order tiles: the bytes of
    tt-metal's `convert_layout(LIN_ROW_MAJOR -> TILED_NFACES)` followed by
    `pack_as_bfp_tiles(row_major_input = false)` (docs/Semantics.md
    section 5, matrix forms). `transpose` tilizes as ttnn's
    `Tile(shape, transpose_tile = true)`: each face transposed, and the
    face order where a tile has two faces each way (tile heights 16 and 32
    only). This is what `ttnn.from_torch(..., bfloat8_b)` computes.

    ```mlir
    %p = birsim.bfp_pack_matrix bfp8_b %w tile [32, 32]
        : tensor<4096x4096xbf16> -> tensor<16384x1088xi8>
    ```
  }];
}

def Birsim_BfpUnpackMatrixOp : Birsim_BfpValueOp<"bfp_unpack_matrix", 0, 1,
    Birsim_PackedTensor, Birsim_F32MatrixTensor> {
  let summary = "unpack BFP tiles into a matrix in one pass";
  let description = [{
    The inverse of `birsim.bfp_pack_matrix`: the f32 matrix of the result's
    shape, every datum decoded (docs/Semantics.md section 5).

    ```mlir
    %m = birsim.bfp_unpack_matrix bfp8_b %p tile [32, 32]
        : tensor<2x1088xi8> -> tensor<32x64xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Instruction-level ops: the three callers of AluOpType2MemoryReduction
//===----------------------------------------------------------------------===//

class Birsim_CceOp<string mnemonic, string caller, list<Trait> traits = []>
    : Birsim_Op<mnemonic, traits> {
  code cceOpDescription = [{
    The `cce_op` AluOpType goes through `AluOpType2MemoryReduction`, as in
    the simulator's }] # caller # [{: `bypass` copies, `add` accumulates
    (on the reducing dtypes only), and every other value, `min` and `max`
    included, is rejected by the verifier because the simulator asserts
    (inst_visitor.cpp:363). Memrefs must be contiguous in row-major order
    (the identity layout, or row-major strides with any offset, such as one
    row of a larger buffer): the runtime takes pointer and element count.
  }];
}

def Birsim_DmaCopyOp : Birsim_CceOp<"dma_copy", "visitInstDMACopy",
    [AllShapesMatch<["src", "dst"]>, AllElementTypesMatch<["src", "dst"]>]> {
  let summary = "DMA copy with a cce-reduce AluOpType";
  let description = cceOpDescription # [{
    Elementwise `dst[i] = reduce(dst[i], src[i])` over two memrefs of the
    same shape and element type.

    ```mlir
    birsim.dma_copy add %src to %dst : memref<16xbf16> to memref<16xbf16>
    ```
  }];
  let arguments = (ins Birsim_AluOpTypeAttr:$cce_op,
                       Arg<Birsim_DtypeBuffer, "", [MemRead]>:$src,
                       Arg<Birsim_DtypeBuffer, "", [MemRead, MemWrite]>:$dst);
  let assemblyFormat =
      "`` $cce_op $src `to` $dst attr-dict `:` type($src) `to` type($dst)";
  let hasVerifier = 1;
}

class Birsim_IndirectSaveBase<string mnemonic, string caller>
    : Birsim_CceOp<mnemonic, caller, [AllElementTypesMatch<["src", "dst"]>]> {
  let description = cceOpDescription # [{
    Scatter through an index memref, in order:
    `dst[indices[i]] = reduce(dst[indices[i]], src[i])`. `src` and
    `indices` are 1-D with one index per element; `dst` is indexed as a
    flat row-major buffer. Every index is checked against `dst` before any
    element is written.

    ```mlir
    birsim.}] # mnemonic # [{ add %src to %dst[%idx]
        : memref<4xbf16>, memref<4xi64> to memref<16xbf16>
    ```
  }];
  let arguments = (ins Birsim_AluOpTypeAttr:$cce_op,
      Arg<Birsim_DtypeVectorBuffer, "", [MemRead]>:$src,
      Arg<Birsim_IndexBuffer, "", [MemRead]>:$indices,
      Arg<Birsim_DtypeBuffer, "", [MemRead, MemWrite]>:$dst);
  let assemblyFormat = "`` $cce_op $src `to` $dst `[` $indices `]` attr-dict "
                       "`:` type($src) `,` type($indices) `to` type($dst)";
  let hasVerifier = 1;
}

def Birsim_IndirectSaveOp : Birsim_IndirectSaveBase<"indirect_save",
    "visitInstGenericIndirectSave"> {
  let summary = "generic indirect save with a cce-reduce AluOpType";
}

def Birsim_IndirectSaveAccumulateOp : Birsim_IndirectSaveBase<
    "indirect_save_accumulate", "visitInstIndirectSaveAccumulate"> {
  let summary = "indirect save-accumulate with a cce-reduce AluOpType";
}

def Birsim_DmaScatterOp : Birsim_Op<"dma_scatter">, Birsim_DmaNarrowing {
  let summary = "dma_copy's read-modify-write scatter across dtypes";
  let description = [{
    `dst[indices[i]] = narrow(op(widen(dst[indices[i]]), widen(src[i])))`
    in the order of `i` (docs/Semantics.md section 8), each element
    narrowing, so repeated indices round at every step; `copy` writes the
    cast engine's conversion of `src[i]`. `src` and `indices` are 1-D with
    one index per element; `dst` is indexed as a flat row-major buffer.
    Every index is checked against `dst` before any element is written.
    Stochastic rounding draws by `i`.
  }] # narrowingDescription # [{
    ```mlir
    birsim.dma_scatter add %rows to %table[%idx]
        : memref<64xf32>, memref<64xi64> to memref<4096xbf16>
    ```
  }];
  let arguments = !con((ins Birsim_MemoryReductionOpAttr:$kind,
      Arg<Birsim_DtypeVectorBuffer, "", [MemRead]>:$src,
      Arg<Birsim_IndexBuffer, "", [MemRead]>:$indices,
      Arg<Birsim_DtypeBuffer, "", [MemRead, MemWrite]>:$dst),
      narrowingArguments);
  let assemblyFormat = "`` $kind $src `to` $dst `[` $indices `]` attr-dict "
                       "`:` type($src) `,` type($indices) `to` type($dst)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Buffer forms: what the tensor ops bufferize to and what lowers to calls
//===----------------------------------------------------------------------===//

class Birsim_BufferOp<string mnemonic, string valueOp,
                      list<Trait> traits = []>
    : Birsim_Op<mnemonic, traits> {
  code bufferDescription = [{
    The buffer form of `birsim.}] # valueOp # [{`, produced by One-Shot
    Bufferize and lowered to one call into `libbirsim_runtime.so`. Operands
    are memrefs with the identity layout.
  }];
}

def Birsim_ReduceIntoOp : Birsim_BufferOp<"reduce_into", "reduce",
    [AllTypesMatch<["dst", "src"]>]> {
  let summary = "in-place cast_copy_or_accumulate over a buffer";
  let description = bufferDescription # [{
    `dst[i] = reduce(dst[i], src[i])`; lowers to `birsim_accumulate`.

    ```mlir
    birsim.reduce_into add %dst, %src : memref<16xbf16>
    ```
  }];
  let arguments = (ins Birsim_MemoryReductionOpAttr:$kind,
                       Arg<Birsim_DtypeBuffer, "", [MemRead, MemWrite]>:$dst,
                       Arg<Birsim_DtypeBuffer, "", [MemRead]>:$src);
  let assemblyFormat = "`` $kind $dst `,` $src attr-dict `:` type($dst)";
  let hasVerifier = 1;
}

def Birsim_CollectiveReduceIntoOp : Birsim_BufferOp<"collective_reduce_into",
    "collective_reduce", [AllTypesMatch<["acc", "x"]>]> {
  let summary = "in-place collective doReduction over a buffer";
  let description = bufferDescription # [{
    `acc[i] = doReduction(acc[i], x[i])`; lowers to
    `birsim_collective_reduce`.

    ```mlir
    birsim.collective_reduce_into max %acc, %x : memref<16xf32>
    ```
  }];
  let arguments = (ins Birsim_AluOpTypeAttr:$kind,
                       Arg<Birsim_F32Buffer, "", [MemRead, MemWrite]>:$acc,
                       Arg<Birsim_F32Buffer, "", [MemRead]>:$x);
  let assemblyFormat = "`` $kind $acc `,` $x attr-dict `:` type($acc)";
  let hasVerifier = 1;
}

def Birsim_CastIntoOp : Birsim_BufferOp<"cast_into", "cast",
    [AllShapesMatch<["src", "dst"]>]> {
  let summary = "whole-tensor cast from one buffer into another";
  let description = bufferDescription # [{
    Lowers to `birsim_cast`; `fp8_config` is printed, parsed and defaulted
    as on `birsim.cast`.

    ```mlir
    birsim.cast_into %src, %dst : memref<8xf32> to memref<8xf8E5M2>
    ```
  }];
  let arguments = (ins Arg<Birsim_DtypeBuffer, "", [MemRead]>:$src,
      Arg<Birsim_DtypeBuffer, "", [MemWrite]>:$dst,
      DefaultValuedAttr<Birsim_Fp8ConfigAttr,
                        "::birsim::Fp8Config::saturate">:$fp8_config);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Birsim_DmaComputeIntoOp : Birsim_BufferOp<"dma_compute_into",
    "dma_compute">, Birsim_DmaNarrowing {
  let summary = "dma_compute from buffers into a buffer";
  let description = bufferDescription # [{
    Lowers to `birsim_dma_compute`; `dst` may be one of `srcs` (the same
    buffer), never partly overlap one.

    ```mlir
    birsim.dma_compute_into add %psum, %mm to %psum
        : memref<128xbf16>, memref<128xf32> to memref<128xbf16>
    ```
  }];
  let arguments = !con((ins Birsim_MemoryReductionOpAttr:$kind,
      Arg<Variadic<Birsim_DtypeBuffer>, "", [MemRead]>:$srcs,
      Arg<Birsim_DtypeBuffer, "", [MemRead, MemWrite]>:$dst),
      narrowingArguments);
  let assemblyFormat = "`` $kind $srcs `to` $dst attr-dict `:` type($srcs) "
                       "`to` type($dst)";
  let hasVerifier = 1;
}

def Birsim_BfpPackMixedIntoOp : Birsim_BufferOp<"bfp_pack_mixed_into",
    "bfp_pack_mixed"> {
  let summary = "per-tile mixed BFP pack from one buffer into another";
  let description = bufferDescription # [{
    Lowers to `birsim_bfp_pack_mixed_checked`, which checks the destination's
    length against the codes.

    ```mlir
    birsim.bfp_pack_mixed_into %m, %codes, %p : memref<32x64xf32>, memref<1xi8> -> memref<576xi8>
    ```
  }];
  let arguments = (ins Arg<Birsim_MatrixBuffer, "", [MemRead]>:$src,
      Arg<Birsim_BytesBuffer, "", [MemRead]>:$codes,
      Arg<Birsim_BytesBuffer, "", [MemWrite]>:$dst, UnitAttr:$transpose);
  let assemblyFormat = "$src `,` $codes `,` $dst (`transpose` $transpose^)? "
                       "attr-dict `:` type($src) `,` type($codes) `->` "
                       "type($dst)";
  let hasVerifier = 1;
}

def Birsim_BfpUnpackMixedIntoOp : Birsim_BufferOp<"bfp_unpack_mixed_into",
    "bfp_unpack_mixed"> {
  let summary = "per-tile mixed BFP unpack from one buffer into another";
  let description = bufferDescription # [{
    Lowers to `birsim_bfp_unpack_mixed_checked`, which checks the packed
    length against the codes.

    ```mlir
    birsim.bfp_unpack_mixed_into %p, %codes, %m : memref<576xi8>, memref<1xi8> -> memref<32x64xf32>
    ```
  }];
  let arguments = (ins Arg<Birsim_BytesBuffer, "", [MemRead]>:$src,
      Arg<Birsim_BytesBuffer, "", [MemRead]>:$codes,
      Arg<Birsim_F32MatrixBuffer, "", [MemWrite]>:$dst, UnitAttr:$transpose);
  let assemblyFormat = "$src `,` $codes `,` $dst (`transpose` $transpose^)? "
                       "attr-dict `:` type($src) `,` type($codes) `->` "
                       "type($dst)";
  let hasVerifier = 1;
}

def Birsim_TtFp8EncodeIntoOp : Birsim_BufferOp<"tt_fp8_encode_into",
    "tt_fp8_encode", [AllShapesMatch<["src", "dst"]>]> {
  let summary = "tt-metal FP8 E4M3 encode from one buffer into another";
  let description = bufferDescription # [{
    Lowers to `birsim_tt_fp8_encode`.

    ```mlir
    birsim.tt_fp8_encode_into ttmetal_host %src, %dst : memref<8xf32> -> memref<8xi8>
    ```
  }];
  let arguments = (ins Arg<Birsim_F32Buffer, "", [MemRead]>:$src,
      Arg<Birsim_CodeBuffer, "", [MemWrite]>:$dst,
      Birsim_TtFp8PolicyAttr:$policy);
  let assemblyFormat = "$policy $src `,` $dst attr-dict `:` type($src) `->` "
                       "type($dst)";
}

def Birsim_TtFp8DecodeIntoOp : Birsim_BufferOp<"tt_fp8_decode_into",
    "tt_fp8_decode", [AllShapesMatch<["src", "dst"]>]> {
  let summary = "tt-metal FP8 E4M3 decode from one buffer into another";
  let description = bufferDescription # [{
    Lowers to `birsim_tt_fp8_decode`.

    ```mlir
    birsim.tt_fp8_decode_into ttmetal_host %src, %dst : memref<8xi8> -> memref<8xf32>
    ```
  }];
  let arguments = (ins Arg<Birsim_CodeBuffer, "", [MemRead]>:$src,
      Arg<Birsim_F32Buffer, "", [MemWrite]>:$dst,
      Birsim_TtFp8PolicyAttr:$policy);
  let assemblyFormat = "$policy $src `,` $dst attr-dict `:` type($src) `->` "
                       "type($dst)";
}

def Birsim_TensixEltwiseIntoOp : Birsim_BufferOp<"tensix_eltwise_into",
    "tensix_eltwise", [AllShapesMatch<["lhs", "rhs", "dst"]>]> {
  let summary = "the Tensix FPU's elementwise op into a Dest buffer";
  let description = bufferDescription # [{
    Lowers to `birsim_tensix_eltwise`; with `accumulate` the op adds into
    `dst`'s values (mul starts from them, add and sub add into them).

    ```mlir
    birsim.tensix_eltwise_into mul %a, %b, %d dest fp32 src tf32 accumulate : memref<8xf32>, memref<8xf32> -> memref<8xf32>
    ```
  }];
  let arguments = (ins Birsim_TensixOpAttr:$op,
      Arg<MemRefOf<[F32]>, "", [MemRead]>:$lhs,
      Arg<MemRefOf<[F32]>, "", [MemRead]>:$rhs,
      Arg<MemRefOf<[F32, BF16, F16]>, "", [MemRead, MemWrite]>:$dst,
      Birsim_TensixDestAttr:$dest, Birsim_TensixSrcAttr:$src,
      DefaultValuedAttr<Birsim_TensixFidelityAttr,
                        "::birsim::TensixFidelity::hifi4">:$fidelity,
      DefaultValuedAttr<Birsim_TensixArchAttr,
                        "::birsim::TensixArch::wormhole">:$arch,
      UnitAttr:$accumulate);
  let assemblyFormat = "`` $op $lhs `,` $rhs `,` $dst `dest` `` $dest `src` `` "
      "$src (`fidelity` `` $fidelity^)? (`arch` `` $arch^)? "
      "(`accumulate` $accumulate^)? "
      "attr-dict `:` type($lhs) `,` type($rhs) `->` type($dst)";
  let hasVerifier = 1;
}

def Birsim_TensixMatmulIntoOp : Birsim_BufferOp<"tensix_matmul_into",
    "tensix_matmul", []> {
  let summary = "the Tensix matmul into a Dest buffer";
  let description = bufferDescription # [{
    Lowers to `birsim_tensix_matmul`; with `accumulate` the product adds
    into `dst`'s values (a matmul continuing a previous K block).

    ```mlir
    birsim.tensix_matmul_into %x, %w, %d dest fp32 src bf16, bf16 accumulate : memref<32x64xf32>, memref<64x32xf32> -> memref<32x32xf32>
    ```
  }];
  let arguments = (ins Arg<MemRefOf<[F32]>, "", [MemRead]>:$in0,
      Arg<MemRefOf<[F32]>, "", [MemRead]>:$in1,
      Arg<MemRefOf<[F32, BF16, F16]>, "", [MemRead, MemWrite]>:$dst,
      Birsim_TensixDestAttr:$dest, Birsim_TensixSrcAttr:$in0_src,
      Birsim_TensixSrcAttr:$in1_src,
      DefaultValuedAttr<Birsim_TensixFidelityAttr,
                        "::birsim::TensixFidelity::hifi4">:$fidelity,
      DefaultValuedAttr<Birsim_TensixArchAttr,
                        "::birsim::TensixArch::wormhole">:$arch,
      UnitAttr:$accumulate);
  let assemblyFormat = "$in0 `,` $in1 `,` $dst `dest` `` $dest `src` `` "
      "$in0_src `,` `` $in1_src (`fidelity` `` $fidelity^)? (`arch` `` $arch^)? "
      "(`accumulate` $accumulate^)? "
      "attr-dict `:` type($in0) `,` type($in1) `->` type($dst)";
  let hasVerifier = 1;
}

def Birsim_TensixPackIntoOp : Birsim_BufferOp<"tensix_pack_into",
    "tensix_pack", [AllShapesMatch<["input", "dst"]>]> {
  let summary = "the Tensix packer's output into an L1 buffer";
  let description = bufferDescription # [{
    Lowers to `birsim_tensix_pack`; with `l1_accumulate` the packer adds
    into `dst`'s values (Pack_L1_Acc).

    ```mlir
    birsim.tensix_pack_into %d, %o dest fp32 l1_accumulate : memref<8xf32> -> memref<8xbf16>
    ```
  }];
  let arguments = (ins Arg<MemRefOf<[F32, BF16, F16]>, "", [MemRead]>:$input,
      Arg<MemRefOf<[F32, BF16, F16]>, "", [MemRead, MemWrite]>:$dst,
      Birsim_TensixDestAttr:$dest,
      DefaultValuedAttr<Birsim_TensixArchAttr,
                        "::birsim::TensixArch::wormhole">:$arch,
      UnitAttr:$l1_accumulate);
  let assemblyFormat = "$input `,` $dst `dest` `` $dest (`arch` `` $arch^)? "
      "(`l1_accumulate` $l1_accumulate^)? attr-dict `:` type($input) `->` "
      "type($dst)";
  let hasVerifier = 1;
}

/// A buffer form: reads its first operand, writes its second; lowers to
/// one runtime call.
class Birsim_BfpBufferOp<string mnemonic, string valueOp, bit pack,
                         bit matrix, Type valuesType, string values>
    : Birsim_BufferOp<mnemonic, valueOp, [Birsim_BfpOpInterface]>,
      Birsim_BfpFamily<pack, matrix, !if(!eq(values, "tiles"), "Tiles", "Matrix"),
                       "Packed"> {
  defvar inName = !if(pack, values, "packed");
  defvar outName = !if(pack, "packed", values);
  let arguments = !con(
      (ins Birsim_BfpFormatAttr:$format),
      !dag(ins, [Arg<!if(pack, valuesType, Birsim_PackedBuffer), "", [MemRead]>,
                 Arg<!if(pack, Birsim_PackedBuffer, valuesType), "", [MemWrite]>],
           [inName, outName]),
      formArgs);
  let assemblyFormat = "`` $format $" # inName # " `,` $" # outName # " " #
                       formSyntax # " attr-dict `:` type($" # inName #
                       ") `to` type($" # outName # ")";
  let extraClassDeclaration = familyDeclarations;
}

def Birsim_BfpPackIntoOp : Birsim_BfpBufferOp<"bfp_pack_into", "bfp_pack", 1,
    0, Birsim_TileBuffer, "tiles"> {
  let summary = "pack tiles from one buffer into a BFP byte buffer";
  let description = bufferDescription # [{
    Lowers to `birsim_bfp_pack`.

    ```mlir
    birsim.bfp_pack_into bfp8_b %tiles, %bytes : memref<2x32x32xf32> to memref<2x1088xi8>
    ```
  }];
}

def Birsim_BfpUnpackIntoOp : Birsim_BfpBufferOp<"bfp_unpack_into",
    "bfp_unpack", 0, 0, Birsim_F32TileBuffer, "tiles"> {
  let summary = "unpack a BFP byte buffer into f32 tiles";
  let description = bufferDescription # [{
    Lowers to `birsim_bfp_unpack`.

    ```mlir
    birsim.bfp_unpack_into bfp8_b %bytes, %tiles : memref<2x1088xi8> to memref<2x32x32xf32>
    ```
  }];
}

def Birsim_BfpPackMatrixIntoOp : Birsim_BfpBufferOp<"bfp_pack_matrix_into",
    "bfp_pack_matrix", 1, 1, Birsim_MatrixBuffer, "matrix"> {
  let summary = "tilize and pack a matrix buffer into a BFP byte buffer";
  let description = bufferDescription # [{
    Shapes are static. Lowers to `birsim_bfp_pack_matrix`.

    ```mlir
    birsim.bfp_pack_matrix_into bfp8_b %m, %bytes tile [32, 32]
        : memref<64x32xf32> to memref<2x1088xi8>
    ```
  }];
}

def Birsim_BfpUnpackMatrixIntoOp : Birsim_BfpBufferOp<
    "bfp_unpack_matrix_into", "bfp_unpack_matrix", 0, 1,
    Birsim_F32MatrixBuffer, "matrix"> {
  let summary = "unpack a BFP byte buffer into an f32 matrix buffer";
  let description = bufferDescription # [{
    Shapes are static. Lowers to `birsim_bfp_unpack_matrix`.

    ```mlir
    birsim.bfp_unpack_matrix_into bfp8_b %bytes, %m tile [32, 32]
        : memref<2x1088xi8> to memref<64x32xf32>
    ```
  }];
}

#endif // BIRSIM_OPS_TD
