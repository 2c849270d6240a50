//===- TensixOperands.cpp - what bounds a Tensix operand's bits -----------===//
#include "birsim/Dialect/Birsim/Transforms/TensixOperands.h"

#include "birsim/Core/Bfp.h"
#include "birsim/Core/Tensix.h"
#include "birsim/Dialect/Birsim/IR/BirsimConstants.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

#include <algorithm>

using namespace mlir;

namespace birsim {

TensixOperandBits tensixOperandBits(Value value, TensixSrc src) {
  const core::TensixSrcInfo &srcInfo = core::kTensixSrcTable[int(src)];
  TensixOperandBits bound{srcInfo.fractionBits + 1,
                          std::string(srcInfo.name) + " Src"};
  auto narrow = [&](unsigned bits, std::string source) {
    if (bits <= bound.bits) // the IR's reason, where it is as tight
      bound = {bits, std::move(source)};
  };
  auto type = dyn_cast<ShapedType>(value.getType());
  Attribute attr;
  if (type && type.hasStaticShape() && matchPattern(value, m_Constant(&attr))) {
    if (std::optional<RawConstant> raw = getRawConstant(attr, 4)) {
      // A splat's one value, else every value's own bits in Src: the
      // bound is the constant's (read in place, nothing expanded).
      size_t count = raw->splat ? 1 : raw->data.size() / 4;
      bound = {core::tensixSignificantBits(core::TensixSrc(src), raw->bytes(),
                                           count),
               "constant"};
    }
    return bound;
  }
  Operation *def = value.getDefiningOp();
  if (auto bfp = dyn_cast_or_null<BfpOpInterface>(def)) {
    if (!bfp.isPack())
      if (const core::BfpFormatInfo *format =
              core::lookupBfpFormat(int(bfp.getFormat())))
        narrow(format->significantBits(), format->name);
  } else if (auto ext = dyn_cast_or_null<arith::ExtFOp>(def)) {
    auto from = cast<FloatType>(getElementTypeOrSelf(ext.getIn()));
    std::string name;
    llvm::raw_string_ostream os(name);
    os << from << " values";
    narrow(unsigned(from.getFPMantissaWidth()), name);
  }
  return bound;
}

std::string tensixPhaseList(unsigned phases) {
  bool several = phases & (phases - 1);
  std::string text = several ? "phases" : "phase";
  for (unsigned p = 0, first = 1; p < 4; ++p)
    if (phases >> p & 1) {
      text += (first ? " " : ", ") + std::to_string(p);
      first = 0;
    }
  return text;
}

} // namespace birsim
