//===- ScalarOps.h - the scalar ops the to-birsim passes map ----*- C++ -*-===//
//
// Private to lib/Conversion/ToBirsim: which arith ops have a birsim op of
// the simulator's numerics, under which policy, written once for the arith
// pass (op by op) and the linalg pass (a whole op's body).
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CONVERSION_TOBIRSIM_SCALAROPS_H
#define BIRSIM_LIB_CONVERSION_TOBIRSIM_SCALAROPS_H

#include "birsim/Dialect/Birsim/IR/BirsimOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"

namespace birsim {

/// The options the passes share (Passes.td).
struct ToBirsimPolicy {
  Fp8Config fp8Config = Fp8Config::saturate;
  bool reduceAdd = false;
  bool intCasts = false;
};

/// `fp8-config`'s value: a config, or an error on `pass`'s operation.
mlir::FailureOr<Fp8Config> parseFp8ConfigOption(mlir::Operation *op,
                                                llvm::StringRef text);

/// A float type birsim.cast takes: a Dtypes.def float row (f32, bf16, f16,
/// the fp8 types).
bool isBirsimFloat(mlir::Type elementType);

/// What `scalarOp` computes, as a birsim op: `input` of scalarOp's value
/// operands (or, for fptosi of math.roundeven, the value rounded), of a
/// scalar, vector or tensor type whose element types are scalarOp's; null
/// when the policy or the types refuse it. A refusal worth telling (a
/// rounding mode) is a remark on scalarOp when `remark` is set.
mlir::Value buildBirsimOp(mlir::OpBuilder &builder, mlir::Location loc,
                          mlir::Operation *scalarOp, mlir::ValueRange inputs,
                          mlir::Type resultType, const ToBirsimPolicy &policy,
                          bool remark);

/// The value operands buildBirsimOp reads for `scalarOp`: its operands, or
/// for fptosi of math.roundeven the roundeven's operand; the op reading
/// them otherwise (the roundeven) in `inner`.
mlir::SmallVector<mlir::Value> scalarInputs(mlir::Operation *scalarOp,
                                            mlir::Operation **inner = nullptr);

} // namespace birsim

#endif
