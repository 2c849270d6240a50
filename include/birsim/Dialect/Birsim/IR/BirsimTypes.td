//===- BirsimTypes.td - birsim types -----------------------*- tablegen -*-===//
#ifndef BIRSIM_TYPES_TD
#define BIRSIM_TYPES_TD

include "birsim/Dialect/Birsim/IR/BirsimDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

// The bir::Dtypes MLIR has no builtin type for (docs/Semantics.md section 1).
class Birsim_Type<string name, string typeMnemonic, string dtypeName>
    : TypeDef<Birsim_Dialect, name, [MemRefElementTypeInterface]> {
  let mnemonic = typeMnemonic;
  let summary = "bir::Dtype " # dtypeName;
}

def Birsim_Float32rType : Birsim_Type<"Float32r", "float32r", "float32r"> {
  let description = [{
    The PE array's reduced-precision fp32 accumulation format: fp32 storage,
    written with round-to-nearest-even at 10 explicit mantissa bits. The
    simulator can copy it but not accumulate it.
  }];
}
def Birsim_Float4E2M1FNx4Type : Birsim_Type<"Float4E2M1FNx4",
    "float4_e2m1fn_x4", "float4_e2m1fn_x4"> {
  let description = "Four packed fp4 E2M1FN values (2 bytes); copy only.";
}
def Birsim_Float8E4M3FNx4Type : Birsim_Type<"Float8E4M3FNx4",
    "float8_e4m3fn_x4", "float8_e4m3fn_x4"> {
  let description = "Four packed float8_e4m3fn values (4 bytes); copy only.";
}
def Birsim_Float8E5M2x4Type : Birsim_Type<"Float8E5M2x4",
    "float8_e5m2_x4", "float8_e5m2_x4"> {
  let description = "Four packed float8 E5M2 values (4 bytes); copy only.";
}

//===----------------------------------------------------------------------===//
// Type constraints (docs/Semantics.md section 1)
//===----------------------------------------------------------------------===//

// Any element type that stands for a bir::Dtype (the MlirType column of
// birsim/Core/Dtypes.def; `siN` is the same dtype as `iN`).
def Birsim_Dtype : Type<CPred<"::birsim::getDtype($_self).has_value()">,
    "bir::Dtype element type (ui8, i8, f8E3M4, f8E4M3, f8E4M3FN, "
    "f8E8M0FNU, f8E5M2, ui16, i16, bf16, f16, ui32, i32, f32, "
    "!birsim.float32r, ui64, i64 or a packed !birsim *_x4 type)">;

// The value-level forms: a scalar, a vector or a ranked tensor.
class Birsim_ValueOf<Type element, string what>
    : AnyTypeOf<[element, VectorOfAnyRankOf<[element]>,
                 RankedTensorOf<[element]>],
                "scalar, vector or ranked tensor of " # what>;
def Birsim_DtypeValue : Birsim_ValueOf<Birsim_Dtype, "bir::Dtype values">;
def Birsim_F32Value : Birsim_ValueOf<F32, "f32 values">;

// Buffers the runtime takes as pointer + element count.
def Birsim_IsContiguous : CPred<
    "::birsim::isContiguousRowMajor(::llvm::cast<::mlir::MemRefType>($_self))">;
class Birsim_BufferOf<Type base, string what>
    : ConfinedType<base, [Birsim_IsContiguous],
                   "contiguous row-major memref of " # what # " (identity "
                   "layout, or row-major strides with any offset)",
                   "::mlir::MemRefType">;
def Birsim_DtypeBuffer
    : Birsim_BufferOf<MemRefOf<[Birsim_Dtype]>, "bir::Dtype values">;
def Birsim_DtypeVectorBuffer
    : Birsim_BufferOf<MemRefRankOf<[Birsim_Dtype], [1]>,
                      "bir::Dtype values, 1-D">;
def Birsim_F32Buffer : Birsim_BufferOf<MemRefOf<[F32]>, "f32 values">;
def Birsim_IndexBuffer : Birsim_BufferOf<MemRefRankOf<[I64], [1]>, "i64, 1-D">;

// BFP tiles (docs/Semantics.md section 5): N tiles of R x C values and N
// rows of packed bytes whose length the format and shape fix. The verifiers
// check the shape against BfpTileShapes.def and the element type against
// the core's list of input types (kBfpInputDtypes).
defvar Birsim_BfpInputTypes = [AnyType];
def Birsim_TileTensor : TensorRankOf<Birsim_BfpInputTypes, [3]>;
def Birsim_TileBuffer : Birsim_BufferOf<
    MemRefRankOf<Birsim_BfpInputTypes, [3]>, "N x R x C tiles">;
def Birsim_F32TileTensor : TensorRankOf<[F32], [3]>;
def Birsim_F32TileBuffer : Birsim_BufferOf<MemRefRankOf<[F32], [3]>,
    "N x R x C f32 tiles">;
// A matrix: rank 2 or more, leading dimensions folded into rows.
def Birsim_MatrixTensor : RankedTensorOf<Birsim_BfpInputTypes>;
def Birsim_MatrixBuffer : Birsim_BufferOf<MemRefOf<Birsim_BfpInputTypes>,
    "a matrix">;
def Birsim_F32MatrixTensor : RankedTensorOf<[F32]>;
def Birsim_F32MatrixBuffer : Birsim_BufferOf<MemRefOf<[F32]>, "an f32 matrix">;
def Birsim_PackedTensor : TensorRankOf<[I8], [2]>;
// Per-tile mixed BFP: its code bytes and its packed bytes, 1-D.
def Birsim_BytesTensor : TensorRankOf<[I8], [1]>;
def Birsim_BytesBuffer : Birsim_BufferOf<MemRefRankOf<[I8], [1]>, "i8, 1-D">;
// FP8 E4M3 codes of tt-metal's conversions (docs/Semantics.md section 6).
def Birsim_CodeTensor : RankedTensorOf<[I8]>;
def Birsim_CodeBuffer : Birsim_BufferOf<MemRefOf<[I8]>, "i8 codes">;
def Birsim_PackedBuffer : Birsim_BufferOf<MemRefRankOf<[I8], [2]>, "i8, 2-D">;

// `input` and `result` are both scalars, or the same container with the same
// shape (AllShapesMatch would reject scalars).
class Birsim_SameShapeAndContainer<string lhs, string rhs>
    : PredOpTrait<lhs # " and " # rhs # " have the same shape and container",
        CPred<"::birsim::haveSameShapeAndContainer($" # lhs # ".getType(), $"
              # rhs # ".getType())">>;

#endif // BIRSIM_TYPES_TD
