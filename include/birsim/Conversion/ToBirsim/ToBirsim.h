//===- ToBirsim.h - upstream dialects to birsim ops -------------*- C++ -*-===//
//
// The conversions that map what frontends emit (linalg, tosa, arith) to the
// birsim ops with the simulator's numerics (docs/Conversions.md), and the
// `convert-to-birsim` pipeline that runs them.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CONVERSION_TOBIRSIM_TOBIRSIM_H
#define BIRSIM_CONVERSION_TOBIRSIM_TOBIRSIM_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace birsim {

/// Options of the `convert-to-birsim` pipeline: the policy of every pass.
struct ConvertToBirsimPipelineOptions
    : public mlir::PassPipelineOptions<ConvertToBirsimPipelineOptions> {
  PassOptions::Option<std::string> fp8Config{
      *this, "fp8-config",
      llvm::cl::desc("The FP8ConversionConfig of the casts made (none, "
                     "saturate, nan_suppress, saturate|nan_suppress)"),
      llvm::cl::init("saturate")};
  PassOptions::Option<bool> reduceAdd{
      *this, "reduce-add",
      llvm::cl::desc("Map adds on the reducing dtypes to birsim.reduce add"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> intCasts{
      *this, "int-casts",
      llvm::cl::desc("Map sitofp and fptosi(roundeven) to birsim.cast"),
      llvm::cl::init(false)};
};

/// --convert-linalg-to-birsim, --convert-tosa-to-birsim, then
/// --convert-arith-to-birsim, with the same policy.
void buildConvertToBirsimPipeline(mlir::OpPassManager &pm,
                                  const ConvertToBirsimPipelineOptions &options);

/// Registers `buildConvertToBirsimPipeline` as `convert-to-birsim`.
void registerConvertToBirsimPipeline();

} // namespace birsim

#endif
