//===- BirsimConstants.cpp - raw bytes of constant operands ---------------===//
#include "birsim/Dialect/Birsim/IR/BirsimConstants.h"
#include "birsim/Dialect/Birsim/IR/BirsimSizes.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

#include <cstring>

using namespace mlir;

namespace birsim {

bool isDenseStorable(Type elementType) {
  return isa<IntegerType, FloatType>(elementType);
}

/// The bytes a blob of `type` holds at `bytes` an element, checked.
static std::optional<uint64_t> blobSize(ShapedType type, unsigned bytes) {
  std::optional<uint64_t> count = checkedElementCount(type);
  return count ? checkedByteSize(*count, bytes) : std::nullopt;
}

std::optional<RawConstant> getRawConstant(Attribute attr, unsigned bytes) {
  if (auto dense = dyn_cast_or_null<DenseIntOrFPElementsAttr>(attr)) {
    if (!isDenseStorable(dense.getElementType()))
      return std::nullopt;
    return RawConstant{dense.getRawData(), dense.isSplat()};
  }
  if (auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(attr)) {
    ShapedType type = resource.getType();
    const AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || !isDenseStorable(type.getElementType()) ||
        !type.hasStaticShape() ||
        blobSize(type, bytes) != std::optional<uint64_t>(blob->getData().size()))
      return std::nullopt;
    return RawConstant{blob->getData(), false, /*resource=*/true};
  }
  APInt bits;
  if (auto f = dyn_cast_or_null<FloatAttr>(attr))
    bits = f.getValue().bitcastToAPInt();
  else if (auto i = dyn_cast_or_null<IntegerAttr>(attr))
    bits = i.getValue();
  else
    return std::nullopt;
  if (bits.getBitWidth() != 8 * bytes)
    return std::nullopt;
  return RawConstant{{}, true, false, bits.getZExtValue()};
}

const char *elementsOf(const RawConstant &c, size_t count, unsigned bytes,
                       SmallVectorImpl<char> &storage, FoldBudget &budget) {
  if (!c.splat)
    return c.data.data();
  if (!budget.charge(count, bytes, "expanding a splat"))
    return nullptr;
  storage.resize(count * bytes);
  for (size_t i = 0; i < count; ++i)
    std::memcpy(storage.data() + i * bytes, c.bytes(), bytes);
  return storage.data();
}

std::optional<RawConstant> rawConstantOf(Value value, unsigned bytes) {
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  return getRawConstant(attr, bytes);
}

const char *constantElements(Value value, size_t count, unsigned bytes,
                             SmallVectorImpl<char> &storage,
                             FoldBudget &budget) {
  std::optional<RawConstant> raw = rawConstantOf(value, bytes);
  return raw ? elementsOf(*raw, count, bytes, storage, budget) : nullptr;
}

} // namespace birsim
