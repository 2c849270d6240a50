//===- Pipeline.cpp - the convert-to-birsim pipeline ----------------------===//
#include "birsim/Conversion/ToBirsim/ToBirsim.h"
#include "birsim/Conversion/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void birsim::buildConvertToBirsimPipeline(
    OpPassManager &pm, const ConvertToBirsimPipelineOptions &options) {
  // Raising first, so that no op inside a linalg body is mapped alone.
  ConvertLinalgToBirsimPassOptions linalg;
  linalg.fp8Config = options.fp8Config;
  linalg.reduceAdd = options.reduceAdd;
  linalg.intCasts = options.intCasts;
  pm.addPass(createConvertLinalgToBirsimPass(linalg));
  ConvertTosaToBirsimPassOptions tosa;
  tosa.fp8Config = options.fp8Config;
  pm.addPass(createConvertTosaToBirsimPass(tosa));
  ConvertArithToBirsimPassOptions arith;
  arith.fp8Config = options.fp8Config;
  arith.reduceAdd = options.reduceAdd;
  arith.intCasts = options.intCasts;
  pm.addPass(createConvertArithToBirsimPass(arith));
}

void birsim::registerConvertToBirsimPipeline() {
  PassPipelineRegistration<ConvertToBirsimPipelineOptions>(
      "convert-to-birsim",
      "Map linalg, tosa and arith ops to birsim ops with the BIR simulator's "
      "numerics (docs/Conversions.md)",
      buildConvertToBirsimPipeline);
}
