//===- ConvertToBirsim.cpp - every to-birsim pattern in one walk ----------===//
#include "ScalarOps.h"
#include "birsim/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace birsim {
#define GEN_PASS_DEF_CONVERTTOBIRSIMPASS
#include "birsim/Conversion/Passes.h.inc"
} // namespace birsim

using namespace mlir;
using namespace birsim;

namespace {

struct ConvertToBirsim
    : birsim::impl::ConvertToBirsimPassBase<ConvertToBirsim> {
  using ConvertToBirsimPassBase::ConvertToBirsimPassBase;

  void runOnOperation() override {
    FailureOr<ToBirsimPolicy> policy =
        policyOf(getOperation(), fp8Config, reduceAdd, intCasts);
    if (failed(policy))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateLinalgToBirsimPatterns(patterns, *policy);
    populateTosaToBirsimPatterns(patterns, *policy);
    populateArithToBirsimPatterns(patterns, *policy);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
