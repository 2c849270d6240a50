//===- BirsimFolds.cpp - birsim constant folders --------------------------===//
//
// Every folder runs the core (birsim/Core) on the raw little-endian bytes of
// dense, splat, scalar and `dense_resource` constants, read in place: no
// per-element APFloat, and the same code the runtime library executes. A
// result is a new `dense_resource` blob when any input was one, a dense
// constant otherwise.
//
//===----------------------------------------------------------------------===//
#include "birsim/Dialect/Birsim/IR/BirsimConstants.h"
#include "birsim/Dialect/Birsim/IR/BirsimOps.h"
#include "birsim/Dialect/Birsim/IR/BirsimSizes.h"

#include "birsim/Core/Tensix.h"
#include "birsim/Core/TtFp8.h"
#include "birsim/Core/Bfp.h"
#include "birsim/Core/BfpMixed.h"

#include "birsim/Core/Cast.h"
#include "birsim/Core/DmaCompute.h"
#include "birsim/Core/Reduce.h"
#include "birsim/Core/Threads.h"
#include <cstring>
#include <tuple>

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/TypeUtilities.h"

#include <cstring>

using namespace mlir;
using namespace birsim;

/// Elements to compute: one when every input is splat (a splat stays a
/// splat), else the type's, checked (D76); none when that overflows.
static std::optional<size_t> foldCount(Type type,
                                       std::initializer_list<RawConstant> inputs) {
  bool allSplat = true;
  for (const RawConstant &c : inputs)
    allSplat &= c.splat;
  if (allSplat)
    return 1;
  return checkedElementCount(type);
}

/// What one fold may materialise (D76): a remark on `op` when it declines.
static FoldBudget foldBudget(Operation *op) {
  return FoldBudget(op, "not folded");
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

namespace {
/// The bytes a folder writes its result into: a fresh `dense_resource` blob
/// when an input was a resource (the input blob is never touched), else a
/// buffer that becomes a dense constant.
class FoldResult {
public:
  /// `count` elements of `elementBytes`, charged to `budget`; false (and
  /// nothing allocated) when it declines.
  FoldResult(Type type, size_t count, unsigned elementBytes, bool asResource,
             FoldBudget &budget)
      : type(type) {
    if (!budget.charge(count, elementBytes, "the result"))
      return;
    allocated = true;
    size_t bytes = count * elementBytes;
    if (asResource && isDenseStorable(getElementTypeOrSelf(type)))
      blob = HeapAsmResourceBlob::allocate(bytes, alignof(uint64_t));
    else
      dense.resize(bytes);
  }
  explicit operator bool() const { return allocated; }
  char *data() { return blob ? blob->getMutableData().data() : dense.data(); }
  Attribute finish() {
    if (!blob)
      return makeConstant(type, dense);
    return DenseResourceElementsAttr::get(cast<ShapedType>(type),
                                          "birsim_folded", std::move(*blob));
  }

private:
  Type type;
  bool allocated = false;
  std::optional<AsmResourceBlob> blob;
  SmallVector<char> dense;
};
} // namespace

static bool foldableShape(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return !shaped || shaped.hasStaticShape();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

/// Folds an in-place reduction `acc = reduce(acc, x)` of `bytes`-wide
/// elements through `reduce` (acc bytes, x bytes, count).
template <typename Reduce>
static OpFoldResult foldInPlace(Operation *op, Attribute accAttr,
                                Attribute xAttr, unsigned bytes,
                                Reduce reduce) {
  Type type = op->getResult(0).getType();
  if (!foldableShape(type))
    return {};
  core::SingleThreadScope singleThread;
  auto acc = getRawConstant(accAttr, bytes);
  auto x = getRawConstant(xAttr, bytes);
  if (!acc || !x)
    return {};
  std::optional<size_t> count = foldCount(type, {*acc, *x});
  FoldBudget budget = foldBudget(op);
  SmallVector<char> accSplat, xSplat;
  const char *accValues, *xValues;
  if (!count ||
      !(accValues = elementsOf(*acc, *count, bytes, accSplat, budget)) ||
      !(xValues = elementsOf(*x, *count, bytes, xSplat, budget)))
    return {};
  FoldResult out(type, *count, bytes, acc->resource || x->resource, budget);
  if (!out)
    return {};
  std::memcpy(out.data(), accValues, *count * bytes);
  if (!reduce(out.data(), xValues, *count).ok())
    return {};
  return out.finish();
}

OpFoldResult ReduceOp::fold(FoldAdaptor adaptor) {
  if (getKind() == MemoryReductionOp::copy) // memcpy of src (s.3)
    return getSrc();
  const core::DtypeInfo *info = lookupDtypeInfo(getType());
  if (!info)
    return {};
  int kind = int(getKind()), dtype = int(info->dtype);
  return foldInPlace(*this, adaptor.getDst(), adaptor.getSrc(), info->bytes,
                     [&](char *acc, const char *x, size_t count) {
                       return core::accumulate(kind, acc, x, dtype, count);
                     });
}

OpFoldResult CollectiveReduceOp::fold(FoldAdaptor adaptor) {
  int kind = int(getKind());
  return foldInPlace(*this, adaptor.getAcc(), adaptor.getX(), 4,
                     [&](char *acc, const char *x, size_t count) {
                       return core::collectiveReduce(kind, acc, x, count);
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
  core::SingleThreadScope singleThread;
  std::optional<size_t> count = foldCount(getType(), {*input});
  FoldBudget budget = foldBudget(*this);
  SmallVector<char> splat;
  const char *in;
  if (!count || !(in = elementsOf(*input, *count, from->bytes, splat, budget)))
    return {};
  FoldResult out(getType(), *count, to->bytes, input->resource, budget);
  if (!out || !core::castBuffer(int(from->dtype), in, int(to->dtype),
                                out.data(), *count, unsigned(getFp8Config()))
                   .ok())
    return {};
  return out.finish();
}

OpFoldResult DmaComputeOp::fold(FoldAdaptor adaptor) {
  const core::DtypeInfo *to = lookupDtypeInfo(getType());
  if (!to || !foldableShape(getType()))
    return {};
  SmallVector<RawConstant> inputs;
  SmallVector<const core::DtypeInfo *> from;
  for (auto [src, attr] : llvm::zip(getSrcs(), adaptor.getSrcs())) {
    from.push_back(lookupDtypeInfo(src.getType()));
    auto raw =
        from.back() ? getRawConstant(attr, from.back()->bytes) : std::nullopt;
    if (!raw)
      return {};
    inputs.push_back(*raw);
  }
  bool allSplat = llvm::all_of(inputs, [](auto &c) { return c.splat; });
  bool anyResource = llvm::any_of(inputs, [](auto &c) { return c.resource; });
  // Stochastic rounding draws per element: a splat still rounds each alone.
  std::optional<size_t> count =
      allSplat && getRounding() != Rounding::stochastic
          ? std::optional<size_t>(1)
          : checkedElementCount(getType());
  if (!count)
    return {};
  core::SingleThreadScope singleThread;
  FoldBudget budget = foldBudget(*this);
  SmallVector<SmallVector<char>> splats(inputs.size());
  SmallVector<const void *> pointers;
  SmallVector<int> dtypes;
  for (size_t k = 0; k < inputs.size(); ++k) {
    pointers.push_back(
        elementsOf(inputs[k], *count, from[k]->bytes, splats[k], budget));
    if (!pointers.back())
      return {};
    dtypes.push_back(int(from[k]->dtype));
  }
  FoldResult out(getType(), *count, to->bytes, anyResource, budget);
  if (!out)
    return {};
  core::Narrowing narrowing{unsigned(getFp8Config()),
                            core::Rounding(int(getRounding())),
                            uint64_t(getSeed())};
  if (!core::dmaCompute(int(getKind()), pointers.data(), dtypes.data(),
                        pointers.size(), out.data(), int(to->dtype), *count,
                        narrowing)
           .ok())
    return {};
  return out.finish();
}

/// Folds a tt FP8 encode or decode of a constant through the core
/// (docs/Semantics.md section 6): `inBytes` and `outBytes` per element.
template <typename Convert>
static OpFoldResult foldTtFp8(Operation *op, Attribute input,
                              unsigned inBytes, unsigned outBytes,
                              Convert convert) {
  Type resultType = op->getResult(0).getType();
  if (!foldableShape(resultType))
    return {};
  auto raw = getRawConstant(input, inBytes);
  if (!raw)
    return {};
  core::SingleThreadScope singleThread;
  std::optional<size_t> count = foldCount(resultType, {*raw});
  FoldBudget budget = foldBudget(op);
  SmallVector<char> splat;
  const char *in;
  if (!count || !(in = elementsOf(*raw, *count, inBytes, splat, budget)))
    return {};
  FoldResult out(resultType, *count, outBytes, raw->resource, budget);
  if (!out || !convert(in, *count, out.data()).ok())
    return {};
  return out.finish();
}

OpFoldResult TtFp8EncodeOp::fold(FoldAdaptor adaptor) {
  int policy = int(getPolicy());
  return foldTtFp8(*this, adaptor.getInput(), 4, 1,
                   [&](const char *in, size_t count, char *out) {
                     return core::ttFp8EncodeBulk(policy, in, count, out);
                   });
}

OpFoldResult TtFp8DecodeOp::fold(FoldAdaptor adaptor) {
  int policy = int(getPolicy());
  return foldTtFp8(*this, adaptor.getInput(), 1, 4,
                   [&](const char *in, size_t count, char *out) {
                     return core::ttFp8DecodeBulk(policy, in, count, out);
                   });
}

/// The Tensix ops (docs/Semantics.md section 7) on constants, through the
/// core: Dest's values from a zeroed Dest, and the packer's output.
OpFoldResult TensixEltwiseOp::fold(FoldAdaptor adaptor) {
  if (!foldableShape(getType()))
    return {};
  auto a = getRawConstant(adaptor.getLhs(), 4);
  auto b = getRawConstant(adaptor.getRhs(), 4);
  if (!a || !b)
    return {};
  core::SingleThreadScope singleThread;
  std::optional<size_t> count = foldCount(getType(), {*a, *b});
  unsigned destBytes = core::kTensixDestTable[int(getDest())].storageBytes;
  FoldBudget budget = foldBudget(*this);
  SmallVector<char> splatA, splatB;
  const char *aValues, *bValues;
  if (!count || !(aValues = elementsOf(*a, *count, 4, splatA, budget)) ||
      !(bValues = elementsOf(*b, *count, 4, splatB, budget)))
    return {};
  FoldResult out(getType(), *count, destBytes, a->resource || b->resource,
                 budget);
  if (!out || !core::tensixEltwise(int(getArch()), int(getOp()),
                                   unsigned(getFidelity()), int(getDest()),
                                   int(getSrc()),
                                   reinterpret_cast<const float *>(aValues),
                                   reinterpret_cast<const float *>(bValues),
                                   *count, out.data(), false)
                   .ok())
    return {};
  return out.finish();
}

OpFoldResult TensixMatmulOp::fold(FoldAdaptor adaptor) {
  auto a = getRawConstant(adaptor.getIn0(), 4);
  auto b = getRawConstant(adaptor.getIn1(), 4);
  if (!a || !b)
    return {};
  auto [m, k, n] = tensixMatmulExtent(getIn0().getType(), getIn1().getType());
  // A product of two splats is a splat: every output is the same dot
  // product, so one 32x32 tile of it is computed (D76).
  bool splat = a->splat && b->splat;
  size_t rows = splat ? 32 : m, cols = splat ? 32 : n;
  core::SingleThreadScope singleThread;
  unsigned destBytes = core::kTensixDestTable[int(getDest())].storageBytes;
  FoldBudget budget = foldBudget(*this);
  SmallVector<char> splatA, splatB, tile;
  const char *in0, *in1;
  if (!budget.chargeMatmul(rows, k, cols) ||
      !(in0 = elementsOf(*a, rows * k, 4, splatA, budget)) ||
      !(in1 = elementsOf(*b, k * cols, 4, splatB, budget)))
    return {};
  FoldResult out(getType(), splat ? 1 : m * n, destBytes,
                 a->resource || b->resource, budget);
  if (!out || (splat && !budget.charge(rows * cols, destBytes, "a tile")))
    return {};
  char *dest = out.data();
  if (splat) {
    tile.resize(rows * cols * destBytes);
    dest = tile.data();
  }
  std::memset(dest, 0, rows * cols * destBytes);
  if (!core::tensixMatmul(int(getArch()), unsigned(getFidelity()),
                          int(getDest()), int(getIn0Src()), int(getIn1Src()),
                          reinterpret_cast<const float *>(in0),
                          reinterpret_cast<const float *>(in1), rows, k, cols,
                          dest, false)
           .ok())
    return {};
  if (splat) {
    for (size_t i = 1; i < rows * cols; ++i) // the splat rule, checked
      if (std::memcmp(dest, dest + i * destBytes, destBytes))
        return {};
    std::memcpy(out.data(), dest, destBytes);
  }
  return out.finish();
}

OpFoldResult TensixPackOp::fold(FoldAdaptor adaptor) {
  if (!foldableShape(getType()))
    return {};
  unsigned inBytes = core::kTensixDestTable[int(getDest())].storageBytes;
  const core::DtypeInfo *to = lookupDtypeInfo(getType().getElementType());
  auto raw = getRawConstant(adaptor.getInput(), inBytes);
  if (!raw || !to)
    return {};
  core::SingleThreadScope singleThread;
  std::optional<size_t> count = foldCount(getType(), {*raw});
  FoldBudget budget = foldBudget(*this);
  SmallVector<char> splat;
  const char *in;
  if (!count || !(in = elementsOf(*raw, *count, inBytes, splat, budget)))
    return {};
  FoldResult out(getType(), *count, to->bytes, raw->resource, budget);
  if (!out || !core::tensixPack(int(getArch()), int(getDest()), in, *count,
                                int(to->dtype), out.data(), false)
                   .ok())
    return {};
  return out.finish();
}

/// Inputs from this size on fold on the core's threads (D32).
constexpr int64_t kThreadedFoldElements = int64_t(1) << 22;

/// Folds a BFP op of tensors: the whole input, splats expanded, through
/// the core's pack or unpack of the op's call.
static OpFoldResult foldBfp(BfpOpInterface op, Attribute input) {
  auto inType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto outType = cast<RankedTensorType>(op->getResult(0).getType());
  if (!inType.hasStaticShape() || !outType.hasStaticShape())
    return {};
  unsigned inBytes = inType.getElementTypeBitWidth() / 8;
  std::optional<uint64_t> inCount = checkedElementCount(inType);
  std::optional<uint64_t> outCount = checkedElementCount(outType);
  if (!inCount || !outCount)
    return {};
  // A model-scale weight folds on the core's threads too (D32).
  std::optional<core::SingleThreadScope> singleThread;
  if (*inCount < uint64_t(kThreadedFoldElements))
    singleThread.emplace();
  auto raw = getRawConstant(input, inBytes);
  if (!raw)
    return {};
  FoldBudget budget = foldBudget(op);
  SmallVector<char> splat;
  const char *in = elementsOf(*raw, *inCount, inBytes, splat, budget);
  if (!in)
    return {};
  FoldResult out(outType, *outCount, outType.getElementTypeBitWidth() / 8,
                 raw->resource, budget);
  if (!out)
    return {};
  core::BfpCall call = bfpCallOf(op);
  core::Status status =
      op.isPack() ? core::bfpPack(call,
                                  int(lookupDtypeInfo(inType.getElementType())->dtype),
                                  in, out.data())
                  : core::bfpUnpack(call, in, out.data());
  if (!status.ok())
    return {};
  return out.finish();
}

OpFoldResult BfpPackOp::fold(FoldAdaptor a) { return foldBfp(*this, a.getInput()); }
OpFoldResult BfpUnpackOp::fold(FoldAdaptor a) { return foldBfp(*this, a.getInput()); }
OpFoldResult BfpPackMatrixOp::fold(FoldAdaptor a) {
  return foldBfp(*this, a.getInput());
}
OpFoldResult BfpUnpackMatrixOp::fold(FoldAdaptor a) {
  return foldBfp(*this, a.getInput());
}

/// Folds a mixed BFP pack or unpack whose input and codes are constants
/// through the core (docs/Semantics.md section 5, per-tile mixed BFP).
template <typename OpTy>
static OpFoldResult foldMixed(OpTy op, Attribute input, Attribute codes,
                              bool pack) {
  auto matrixType =
      cast<RankedTensorType>(pack ? op.getInput().getType() : op.getType());
  auto inType = cast<RankedTensorType>(op.getInput().getType());
  auto outType = cast<RankedTensorType>(op.getType());
  if (!inType.hasStaticShape() || !outType.hasStaticShape())
    return {};
  unsigned inBytes = inType.getElementTypeBitWidth() / 8;
  auto raw = getRawConstant(input, inBytes);
  auto rawCodes = getRawConstant(codes, 1);
  if (!raw || !rawCodes)
    return {};
  core::BfpMatrixExtent m =
      core::bfpMatrixOf(matrixType.getShape().data(), matrixType.getRank());
  auto codeType = cast<RankedTensorType>(op.getCodes().getType());
  std::optional<uint64_t> codeCount = checkedElementCount(codeType);
  std::optional<uint64_t> inCount = checkedElementCount(inType);
  std::optional<uint64_t> outCount = checkedElementCount(outType);
  if (!codeCount || !inCount || !outCount)
    return {};
  FoldBudget budget = foldBudget(op);
  SmallVector<char> splat, codeSplat;
  const auto *codeBytes = reinterpret_cast<const uint8_t *>(
      elementsOf(*rawCodes, *codeCount, 1, codeSplat, budget));
  if (!codeBytes)
    return {};
  size_t packedBytes = core::bfpMixedBytes(codeBytes, m.rows, m.cols);
  if (packedBytes != (pack ? *outCount : *inCount))
    return {};
  core::SingleThreadScope singleThread;
  const char *in = elementsOf(*raw, *inCount, inBytes, splat, budget);
  if (!in)
    return {};
  FoldResult out(outType, *outCount, outType.getElementTypeBitWidth() / 8,
                 raw->resource, budget);
  if (!out)
    return {};
  unsigned flags = op.getTranspose() ? core::kBfpTranspose : 0;
  core::Status status =
      pack ? core::bfpPackMixed(
                 int(lookupDtypeInfo(inType.getElementType())->dtype), in,
                 m.rows, m.cols, flags, codeBytes, out.data())
           : core::bfpUnpackMixed(in, m.rows, m.cols, flags, codeBytes,
                                  reinterpret_cast<float *>(out.data()));
  if (!status.ok())
    return {};
  return out.finish();
}

OpFoldResult BfpPackMixedOp::fold(FoldAdaptor a) {
  return foldMixed(*this, a.getInput(), a.getCodes(), true);
}
OpFoldResult BfpUnpackMixedOp::fold(FoldAdaptor a) {
  return foldMixed(*this, a.getInput(), a.getCodes(), false);
}
