//===- BirsimFolds.cpp - birsim constant folders --------------------------===//
//
// Every folder runs the core (birsim/Core) on the raw little-endian bytes of
// dense constants: no per-element APFloat, and the same code the runtime
// library executes. `dense_resource` and other non-dense constants are left
// alone.
//
//===----------------------------------------------------------------------===//
#include "birsim/Dialect/Birsim/IR/BirsimOps.h"

#include "birsim/Core/Bfp.h"
#include "birsim/Core/Cast.h"
#include "birsim/Core/Reduce.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

#include <cstring>

using namespace mlir;
using namespace birsim;

namespace {
/// The raw element bytes of a constant operand: one element when splat.
struct RawConstant {
  ArrayRef<char> data;
  bool splat = false;
  uint64_t scalarBits = 0; // storage for scalar attributes
};
} // namespace

static bool isDenseStorable(Type elementType) {
  return isa<IntegerType, FloatType>(elementType);
}

static std::optional<RawConstant> getRawConstant(Attribute attr,
                                                 unsigned bytes) {
  if (auto dense = dyn_cast_or_null<DenseIntOrFPElementsAttr>(attr)) {
    if (!isDenseStorable(dense.getElementType()))
      return std::nullopt;
    return RawConstant{dense.getRawData(), dense.isSplat()};
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
  return RawConstant{{}, true, bits.getZExtValue()};
}

/// `count` elements of `bytes` each, splats expanded.
static SmallVector<char> expand(const RawConstant &c, size_t count,
                                unsigned bytes) {
  SmallVector<char> out(count * bytes);
  const char *element = c.data.empty()
                            ? reinterpret_cast<const char *>(&c.scalarBits)
                            : c.data.data();
  if (!c.splat) {
    std::memcpy(out.data(), element, out.size());
    return out;
  }
  for (size_t i = 0; i < count; ++i)
    std::memcpy(out.data() + i * bytes, element, bytes);
  return out;
}

/// Elements to compute: one when every input is splat.
static size_t foldCount(Type type, std::initializer_list<RawConstant> inputs) {
  bool allSplat = true;
  for (const RawConstant &c : inputs)
    allSplat &= c.splat;
  auto shaped = dyn_cast<ShapedType>(type);
  return allSplat || !shaped ? 1 : size_t(shaped.getNumElements());
}

/// An attribute of `type` holding `raw` (one element means a splat).
static Attribute makeConstant(Type type, ArrayRef<char> raw) {
  Type element = getElementTypeOrSelf(type);
  if (!isDenseStorable(element))
    return {};
  if (auto shaped = dyn_cast<ShapedType>(type))
    return DenseElementsAttr::getFromRawBuffer(shaped, raw);
  unsigned width = element.getIntOrFloatBitWidth();
  uint64_t bits = 0;
  std::memcpy(&bits, raw.data(), width / 8);
  APInt value(width, bits);
  if (auto f = dyn_cast<FloatType>(element))
    return FloatAttr::get(f, APFloat(f.getFloatSemantics(), value));
  return IntegerAttr::get(element, value);
}

static bool foldableShape(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return !shaped || shaped.hasStaticShape();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

/// Folds an in-place reduction `acc = reduce(acc, x)` of `bytes`-wide
/// elements through `reduce` (acc bytes, x bytes, count).
template <typename Reduce>
static OpFoldResult foldInPlace(Type type, Attribute accAttr, Attribute xAttr,
                                unsigned bytes, Reduce reduce) {
  if (!foldableShape(type))
    return {};
  auto acc = getRawConstant(accAttr, bytes);
  auto x = getRawConstant(xAttr, bytes);
  if (!acc || !x)
    return {};
  size_t count = foldCount(type, {*acc, *x});
  SmallVector<char> out = expand(*acc, count, bytes);
  SmallVector<char> in = expand(*x, count, bytes);
  if (!reduce(out.data(), in.data(), count).ok())
    return {};
  return makeConstant(type, out);
}

OpFoldResult ReduceOp::fold(FoldAdaptor adaptor) {
  if (getKind() == MemoryReductionOp::copy) // memcpy of src (s.3)
    return getSrc();
  const core::DtypeInfo *info = lookupDtypeInfo(getType());
  if (!info)
    return {};
  int kind = int(getKind()), dtype = int(info->dtype);
  return foldInPlace(getType(), adaptor.getDst(), adaptor.getSrc(), info->bytes,
                     [&](char *acc, const char *x, size_t count) {
                       return core::accumulate(kind, acc, x, dtype, count);
                     });
}

OpFoldResult CollectiveReduceOp::fold(FoldAdaptor adaptor) {
  int kind = int(getKind());
  return foldInPlace(getType(), adaptor.getAcc(), adaptor.getX(), 4,
                     [&](char *acc, const char *x, size_t count) {
                       return core::collectiveReduce(
                           kind, reinterpret_cast<uint32_t *>(acc),
                           reinterpret_cast<const uint32_t *>(x), count);
                     });
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType()) // equal dtypes: bits unchanged (s.4)
    return getInput();
  const core::DtypeInfo *from = lookupDtypeInfo(getInput().getType());
  const core::DtypeInfo *to = lookupDtypeInfo(getType());
  if (!from || !to || !foldableShape(getType()))
    return {};
  auto input = getRawConstant(adaptor.getInput(), from->bytes);
  if (!input)
    return {};
  size_t count = foldCount(getType(), {*input});
  SmallVector<char> in = expand(*input, count, from->bytes);
  SmallVector<char> out(count * to->bytes);
  if (!core::castBuffer(int(from->dtype), in.data(), int(to->dtype),
                            out.data(), count, unsigned(getFp8Config()))
           .ok())
    return {};
  return makeConstant(getType(), out);
}

/// Folds a BFP op: the whole input, splats expanded, through `convert`
/// (tile count, input bytes, output bytes).
template <typename Convert>
static OpFoldResult foldTiles(RankedTensorType inType, Attribute input,
                              RankedTensorType outType, Convert convert) {
  if (!inType.hasStaticShape() || !outType.hasStaticShape())
    return {};
  unsigned inBytes = inType.getElementTypeBitWidth() / 8;
  auto raw = getRawConstant(input, inBytes);
  if (!raw)
    return {};
  SmallVector<char> in = expand(*raw, size_t(inType.getNumElements()), inBytes);
  SmallVector<char> out(size_t(outType.getNumElements()) *
                        (outType.getElementTypeBitWidth() / 8));
  if (!convert(size_t(outType.getDimSize(0)), in.data(), out.data()).ok())
    return {};
  return makeConstant(outType, out);
}

OpFoldResult BfpPackOp::fold(FoldAdaptor adaptor) {
  int format = int(getFormat());
  return foldTiles(getInput().getType(), adaptor.getInput(), getType(),
                   [&](size_t tiles, const char *in, char *out) {
                     return core::bfpPackTiles(
                         format, reinterpret_cast<const uint32_t *>(in), tiles,
                         out);
                   });
}

OpFoldResult BfpUnpackOp::fold(FoldAdaptor adaptor) {
  int format = int(getFormat());
  return foldTiles(getInput().getType(), adaptor.getInput(), getType(),
                   [&](size_t tiles, const char *in, char *out) {
                     return core::bfpUnpackTiles(
                         format, in, tiles, reinterpret_cast<uint32_t *>(out));
                   });
}
