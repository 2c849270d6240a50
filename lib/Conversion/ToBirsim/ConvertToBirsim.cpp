//===- ConvertToBirsim.cpp - every to-birsim pattern in one walk ----------===//
#include "ScalarOps.h"
#include "birsim/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

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
    if (failed(applyToBirsimPatterns(
            getOperation(), fp8Config, reduceAdd, intCasts,
            {populateLinalgToBirsimPatterns, populateTosaToBirsimPatterns,
             populateArithToBirsimPatterns})))
      signalPassFailure();
  }
};

} // namespace
