//===- BirsimTypes.cpp - bir::Dtype <-> MLIR element types ----------------===//
#include "birsim/Dialect/Birsim/IR/BirsimTypes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace birsim;
using core::Dtype;

namespace {
/// One row per bir::Dtype: how to build its element type (SEMANTICS.md
/// section 1 mapping).
struct DtypeType {
  Dtype dtype;
  Type (*build)(MLIRContext *);
};

template <unsigned Width, IntegerType::SignednessSemantics Signedness>
Type integerType(MLIRContext *ctx) {
  return IntegerType::get(ctx, Width, Signedness);
}
template <typename T> Type simpleType(MLIRContext *ctx) { return T::get(ctx); }

constexpr auto kSignless = IntegerType::Signless;
constexpr auto kUnsigned = IntegerType::Unsigned;

const DtypeType kDtypeTypes[core::kNumDtypes] = {
    {Dtype::uint8, integerType<8, kUnsigned>},
    {Dtype::int8, integerType<8, kSignless>},
    {Dtype::float4_e2m1fn_x4, simpleType<Float4E2M1FNx4Type>},
    {Dtype::float8e3, simpleType<Float8E3M4Type>},
    {Dtype::float8e4, simpleType<Float8E4M3Type>},
    {Dtype::float8_e4m3fn, simpleType<Float8E4M3FNType>},
    {Dtype::float8_e8m0fnu, simpleType<Float8E8M0FNUType>},
    {Dtype::float8e5, simpleType<Float8E5M2Type>},
    {Dtype::float8_e4m3fn_x4, simpleType<Float8E4M3FNx4Type>},
    {Dtype::float8_e5m2_x4, simpleType<Float8E5M2x4Type>},
    {Dtype::uint16, integerType<16, kUnsigned>},
    {Dtype::int16, integerType<16, kSignless>},
    {Dtype::bfloat16, simpleType<BFloat16Type>},
    {Dtype::float16, simpleType<Float16Type>},
    {Dtype::uint32, integerType<32, kUnsigned>},
    {Dtype::int32, integerType<32, kSignless>},
    {Dtype::float32, simpleType<Float32Type>},
    {Dtype::float32r, simpleType<Float32rType>},
    {Dtype::uint64, integerType<64, kUnsigned>},
    {Dtype::int64, integerType<64, kSignless>},
};
} // namespace

std::optional<Dtype> birsim::getDtype(Type type) {
  if (!type)
    return std::nullopt;
  // siN is the same dtype as iN.
  if (auto integer = dyn_cast<IntegerType>(type); integer && integer.isSigned())
    type = IntegerType::get(type.getContext(), integer.getWidth());
  for (const DtypeType &row : kDtypeTypes)
    if (row.build(type.getContext()) == type)
      return row.dtype;
  return std::nullopt;
}

Type birsim::getElementType(MLIRContext *context, Dtype dtype) {
  return kDtypeTypes[int(dtype)].build(context);
}

const core::DtypeInfo *::birsim::lookupDtypeInfo(Type type) {
  std::optional<Dtype> dtype = getDtype(getElementTypeOrSelf(type));
  return dtype ? &core::dtypeInfo(*dtype) : nullptr;
}

bool birsim::isContiguousRowMajor(MemRefType type) {
  if (type.getLayout().isIdentity())
    return true;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  int64_t expected = 1;
  for (int64_t i = type.getRank() - 1; i >= 0; --i) {
    if (strides[i] != expected)
      return false;
    if (type.isDynamicDim(i))
      return i == 0; // only the outermost size may be unknown
    expected *= type.getDimSize(i);
  }
  return true;
}
