//===- BirsimTypes.cpp - bir::Dtype <-> MLIR element types ----------------===//
#include "birsim/Dialect/Birsim/IR/BirsimTypes.h"
#include "birsim/Dialect/Birsim/IR/BirsimDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace birsim;
using core::Dtype;

Type birsim::getElementType(MLIRContext *ctx, Dtype dtype) {
  // The MlirType column of Dtypes.def (docs/Semantics.md section 1).
  switch (dtype) {
#define BIRSIM_DTYPE(E, N, Name, B, K, F, R, Spelling, MlirType)               \
  case Dtype::E:                                                               \
    return MlirType;
#include "birsim/Core/Dtypes.def"
  }
  return {};
}

/// Every element type that stands for a dtype: the MlirType column, plus
/// `siN` for the signed integers (the same dtype as `iN`).
static void forEachDtypeType(MLIRContext *ctx,
                             function_ref<void(Type, Dtype)> fn) {
  for (int d = 0; d < core::kNumDtypes; ++d) {
    const core::DtypeInfo &info = *core::lookupDtype(d);
    fn(getElementType(ctx, info.dtype), info.dtype);
    if (info.kind == core::DtypeKind::SignedInt)
      fn(IntegerType::get(ctx, 8 * info.bytes, IntegerType::Signed),
         info.dtype);
  }
}

void BirsimDialect::buildDtypeTable() {
  forEachDtypeType(getContext(),
                   [&](Type type, Dtype dtype) { dtypeOfType[type] = dtype; });
}

std::optional<Dtype> BirsimDialect::lookupDtype(Type type) const {
  auto it = dtypeOfType.find(type);
  if (it == dtypeOfType.end())
    return std::nullopt;
  return it->second;
}

std::optional<Dtype> birsim::getDtype(Type type) {
  if (!type)
    return std::nullopt;
  // The table lives in the dialect, which any birsim op or type loads.
  auto *dialect = type.getContext()->getLoadedDialect<BirsimDialect>();
  return dialect ? dialect->lookupDtype(type) : std::nullopt;
}

const core::DtypeInfo *birsim::lookupDtypeInfo(Type type) {
  std::optional<Dtype> dtype = getDtype(getElementTypeOrSelf(type));
  return dtype ? &core::dtypeInfo(*dtype) : nullptr;
}

bool birsim::isBirsimFloat(Type elementType) {
  const core::DtypeInfo *info = lookupDtypeInfo(elementType);
  return info && info->format && isa<FloatType>(elementType);
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
    std::optional<int64_t> next = llvm::checkedMul(expected, type.getDimSize(i));
    if (!next) // no buffer spans it (D76)
      return false;
    expected = *next;
  }
  return true;
}

bool birsim::haveSameShapeAndContainer(Type lhs, Type rhs) {
  auto lhsShaped = dyn_cast<ShapedType>(lhs);
  auto rhsShaped = dyn_cast<ShapedType>(rhs);
  if (!lhsShaped || !rhsShaped)
    return !lhsShaped && !rhsShaped;
  return lhsShaped.getTypeID() == rhsShaped.getTypeID() &&
         lhsShaped.getShape() == rhsShaped.getShape();
}
