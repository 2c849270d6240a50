//===- ScalarOps.cpp - the scalar ops the to-birsim passes map ------------===//
#include "ScalarOps.h"

#include "birsim/Dialect/Birsim/IR/BirsimTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace birsim;

FailureOr<Fp8Config> birsim::parseFp8ConfigOption(Operation *op,
                                                  StringRef text) {
  std::string spaced;
  for (char c : text) // "saturate|nan_suppress" as the enum prints it
    spaced += c == '|' ? std::string(" | ") : std::string(1, c);
  if (std::optional<Fp8Config> config = symbolizeFp8Config(spaced))
    return *config;
  return op->emitError("fp8-config '")
         << text
         << "' is not none, saturate, nan_suppress or saturate|nan_suppress";
}

bool birsim::isBirsimFloat(Type elementType) {
  const core::DtypeInfo *info = lookupDtypeInfo(elementType);
  return info && info->format && isa<FloatType>(elementType);
}

/// A signless integer that is a bir::Dtype (i8, i16, i32, i64).
static bool isBirsimSignlessInteger(Type elementType) {
  auto integer = dyn_cast<IntegerType>(elementType);
  return integer && integer.isSignless() && integer.getWidth() > 1 &&
         lookupDtypeInfo(elementType);
}

SmallVector<Value> birsim::scalarInputs(Operation *scalarOp, Operation **inner) {
  if (auto fptosi = dyn_cast<arith::FPToSIOp>(scalarOp))
    if (auto round = fptosi.getIn().getDefiningOp<math::RoundEvenOp>()) {
      if (inner)
        *inner = round;
      return {round.getOperand()};
    }
  if (inner)
    *inner = nullptr;
  return SmallVector<Value>(scalarOp->getOperands());
}

Value birsim::buildBirsimOp(OpBuilder &builder, Location loc,
                            Operation *scalarOp, ValueRange inputs,
                            Type resultType, const ToBirsimPolicy &policy,
                            bool remark) {
  if (inputs.empty() || isa<UnrankedTensorType>(resultType) ||
      isa<UnrankedTensorType>(inputs[0].getType()))
    return {};
  Type in = getElementTypeOrSelf(inputs[0]);
  Type out = getElementTypeOrSelf(resultType);
  auto cast = [&]() -> Value {
    return CastOp::create(builder, loc, resultType, inputs[0],
                          Fp8ConfigAttr::get(builder.getContext(),
                                             policy.fp8Config));
  };
  if (auto trunc = dyn_cast<arith::TruncFOp>(scalarOp)) {
    if (!isBirsimFloat(in) || !isBirsimFloat(out))
      return {};
    if (std::optional<arith::RoundingMode> mode = trunc.getRoundingmode();
        mode && *mode != arith::RoundingMode::to_nearest_even) {
      if (remark)
        scalarOp->emitRemark("not converted to birsim.cast: roundingmode ")
            << arith::stringifyRoundingMode(*mode)
            << ", where the cast engine rounds to nearest even "
               "(docs/Semantics.md section 4)";
      return {};
    }
    return cast();
  }
  if (isa<arith::ExtFOp>(scalarOp))
    return isBirsimFloat(in) && isBirsimFloat(out) ? cast() : Value();
  if (isa<arith::SIToFPOp>(scalarOp))
    return policy.intCasts && isBirsimSignlessInteger(in) && isBirsimFloat(out)
               ? cast()
               : Value();
  if (isa<arith::FPToSIOp>(scalarOp)) {
    Operation *round = nullptr;
    scalarInputs(scalarOp, &round);
    return policy.intCasts && round && isBirsimFloat(in) &&
                   isBirsimSignlessInteger(out)
               ? cast()
               : Value();
  }
  if (isa<arith::AddFOp, arith::AddIOp>(scalarOp)) {
    const core::DtypeInfo *info = lookupDtypeInfo(out);
    if (!policy.reduceAdd || !info || !info->reduces() ||
        getElementTypeOrSelf(inputs[1]) != in)
      return {};
    return ReduceOp::create(builder, loc, resultType, MemoryReductionOp::add,
                            inputs[0], inputs[1]);
  }
  return {};
}
