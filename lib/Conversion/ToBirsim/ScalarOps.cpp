//===- ScalarOps.cpp - the scalar ops the to-birsim patterns map ----------===//
#include "ScalarOps.h"

#include "birsim/Dialect/Birsim/IR/BirsimTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

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

LogicalResult birsim::applyToBirsimPatterns(
    Operation *op, StringRef fp8Config, bool reduceAdd, bool intCasts,
    ArrayRef<void (*)(RewritePatternSet &, const ToBirsimPolicy &)> populate) {
  FailureOr<Fp8Config> config = parseFp8ConfigOption(op, fp8Config);
  if (failed(config))
    return failure();
  ToBirsimPolicy policy{*config, reduceAdd, intCasts, /*remarks=*/true};
  RewritePatternSet patterns(op->getContext());
  for (auto add : populate)
    add(patterns, policy);
  walkAndApplyPatterns(op, std::move(patterns));
  return success();
}

bool birsim::isToBirsimCandidate(Operation *op) {
  return isa<BIRSIM_TO_BIRSIM_ARITH_OPS>(op) ||
         op->getName().getStringRef() == "tosa.cast" ||
         op->getName().getDialectNamespace() == "linalg";
}

/// A signless integer that is a bir::Dtype (i8, i16, i32, i64).
static bool isBirsimSignlessInteger(Type elementType) {
  auto integer = dyn_cast<IntegerType>(elementType);
  return integer && integer.isSignless() && integer.getWidth() > 1 &&
         lookupDtypeInfo(elementType);
}

SmallVector<Value> birsim::scalarInputs(Operation *scalarOp,
                                        Operation **inner) {
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

static std::string typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "'" << type << "'";
  return text;
}

/// `type` is a float the cast engine has, else the reason.
static bool castable(Type type, StringRef what, std::string &why) {
  if (isBirsimFloat(type))
    return true;
  why = "birsim.cast: " + what.str() + " " + typeText(type) +
        " is not a float type of the cast engine (f32, bf16, f16 and the fp8 "
        "types of docs/Semantics.md section 1)";
  return false;
}

LogicalResult birsim::checkMappable(Operation *scalarOp, TypeRange inputs,
                                    Type result, const ToBirsimPolicy &policy,
                                    std::string &why) {
  why.clear();
  if (inputs.empty())
    return failure();
  Type in = inputs[0];
  if (auto trunc = dyn_cast<arith::TruncFOp>(scalarOp)) {
    if (!castable(in, "source", why) || !castable(result, "result", why))
      return failure();
    if (std::optional<arith::RoundingMode> mode = trunc.getRoundingmode();
        mode && *mode != arith::RoundingMode::to_nearest_even) {
      why =
          ("birsim.cast: roundingmode " + arith::stringifyRoundingMode(*mode) +
           ", where the cast engine rounds to nearest even "
           "(docs/Semantics.md section 4)")
              .str();
      return failure();
    }
    return success();
  }
  if (isa<arith::ExtFOp>(scalarOp))
    return success(castable(in, "source", why) &&
                   castable(result, "result", why));
  if (isa<arith::SIToFPOp>(scalarOp)) {
    if (!policy.intCasts)
      return failure();
    if (!isBirsimSignlessInteger(in)) {
      why = "birsim.cast: source " + typeText(in) +
            " is not a signless integer bir::Dtype (i8, i16, i32, i64)";
      return failure();
    }
    return success(castable(result, "result", why));
  }
  if (isa<arith::FPToSIOp>(scalarOp)) {
    if (!policy.intCasts)
      return failure();
    Operation *round = nullptr;
    scalarInputs(scalarOp, &round);
    if (!round) {
      why = "birsim.cast: fptosi rounds toward zero, the cast engine to "
            "nearest even; birsim maps fptosi(math.roundeven(x))";
      return failure();
    }
    if (!castable(in, "source", why))
      return failure();
    if (!isBirsimSignlessInteger(result)) {
      why = "birsim.cast: result " + typeText(result) +
            " is not a signless integer bir::Dtype (i8, i16, i32, i64)";
      return failure();
    }
    return success();
  }
  if (isa<arith::AddFOp, arith::AddIOp>(scalarOp)) {
    if (!policy.reduceAdd)
      return failure();
    const core::DtypeInfo *info = lookupDtypeInfo(result);
    if (!info || !info->reduces() || inputs.size() != 2 || inputs[1] != in) {
      why = "birsim.reduce: " + typeText(result) +
            " is not a dtype the simulator's add reduces (the fp8 types, "
            "bf16, f16, f32, i32, i64: docs/Semantics.md section 3)";
      return failure();
    }
    return success();
  }
  return failure();
}

Value birsim::buildBirsimOp(OpBuilder &builder, Location loc,
                            Operation *scalarOp, ValueRange inputs,
                            Type resultType, const ToBirsimPolicy &policy) {
  if (isa<arith::AddFOp, arith::AddIOp>(scalarOp))
    return ReduceOp::create(builder, loc, resultType, MemoryReductionOp::add,
                            inputs[0], inputs[1]);
  return CastOp::create(
      builder, loc, resultType, inputs[0],
      Fp8ConfigAttr::get(builder.getContext(), policy.fp8Config));
}
