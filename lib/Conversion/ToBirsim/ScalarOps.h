//===- ScalarOps.h - the scalar ops the to-birsim patterns map --*- C++ -*-===//
//
// Private to lib/Conversion/ToBirsim: which arith ops have a birsim op of
// the simulator's numerics, under which policy, and why not otherwise,
// written once for the arith patterns (op by op) and the linalg patterns
// (a whole op's body).
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CONVERSION_TOBIRSIM_SCALAROPS_H
#define BIRSIM_LIB_CONVERSION_TOBIRSIM_SCALAROPS_H

#include "birsim/Conversion/ToBirsim/ToBirsim.h"

#include "mlir/IR/Builders.h"

#include <string>

namespace birsim {

/// `fp8-config`'s value, or an error on `op`.
mlir::FailureOr<Fp8Config> parseFp8ConfigOption(mlir::Operation *op,
                                                llvm::StringRef text);

/// A to-birsim pass's work: the policy of its options (Passes.td; an
/// error on `op` for a bad fp8-config), every `populate` with it, one walk.
mlir::LogicalResult applyToBirsimPatterns(
    mlir::Operation *op, llvm::StringRef fp8Config, bool reduceAdd,
    bool intCasts,
    llvm::ArrayRef<void (*)(mlir::RewritePatternSet &, const ToBirsimPolicy &)>
        populate);

/// The value operands `scalarOp`'s birsim op reads: its operands, or for
/// fptosi of math.roundeven the roundeven's operand; the roundeven in
/// `inner` (null otherwise).
mlir::SmallVector<mlir::Value> scalarInputs(mlir::Operation *scalarOp,
                                            mlir::Operation **inner = nullptr);

/// Whether `scalarOp` becomes a birsim op when its inputs
/// (scalarInputs) have the element types `inputs` and its result
/// `result`, under `policy`. On failure `why` holds the remark's text
/// ("birsim.cast: ..."), or stays empty when the op is not one the
/// conversions map or only the policy declines it.
mlir::LogicalResult checkMappable(mlir::Operation *scalarOp,
                                  mlir::TypeRange inputs, mlir::Type result,
                                  const ToBirsimPolicy &policy,
                                  std::string &why);

/// The birsim op of a mappable `scalarOp` (checkMappable) on `inputs` of
/// `resultType`'s shape and container.
mlir::Value buildBirsimOp(mlir::OpBuilder &builder, mlir::Location loc,
                          mlir::Operation *scalarOp, mlir::ValueRange inputs,
                          mlir::Type resultType, const ToBirsimPolicy &policy);

} // namespace birsim

#endif
