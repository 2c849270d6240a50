//===- TosaToBirsim.cpp - tosa.cast between floats to birsim.cast ---------===//
//
// docs/Conversions.md, "tosa".
//
//===----------------------------------------------------------------------===//
#include "ScalarOps.h"
#include "birsim/Conversion/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/TypeUtilities.h"

namespace birsim {
#define GEN_PASS_DEF_CONVERTTOSATOBIRSIMPASS
#include "birsim/Conversion/Passes.h.inc"
} // namespace birsim

using namespace mlir;
using namespace birsim;

namespace {

struct TosaCastToBirsim : OpRewritePattern<tosa::CastOp> {
  TosaCastToBirsim(MLIRContext *context, const ToBirsimPolicy &policy)
      : OpRewritePattern(context), policy(policy) {}

  LogicalResult matchAndRewrite(tosa::CastOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<RankedTensorType>(op.getInput().getType()) ||
        !isBirsimFloat(getElementTypeOrSelf(op.getInput())) ||
        !isBirsimFloat(getElementTypeOrSelf(op.getType())))
      return failure(); // integer casts wrap, float-integer casts differ
    rewriter.replaceOpWithNewOp<CastOp>(
        op, op.getType(), op.getInput(),
        Fp8ConfigAttr::get(getContext(), policy.fp8Config));
    return success();
  }

  ToBirsimPolicy policy;
};

struct ConvertTosaToBirsim
    : birsim::impl::ConvertTosaToBirsimPassBase<ConvertTosaToBirsim> {
  using ConvertTosaToBirsimPassBase::ConvertTosaToBirsimPassBase;

  void runOnOperation() override {
    if (failed(applyToBirsimPatterns(getOperation(), fp8Config,
                                     /*reduceAdd=*/false, /*intCasts=*/false,
                                     {populateTosaToBirsimPatterns})))
      signalPassFailure();
  }
};

} // namespace

void birsim::populateTosaToBirsimPatterns(RewritePatternSet &patterns,
                                          const ToBirsimPolicy &policy) {
  patterns.add<TosaCastToBirsim>(patterns.getContext(), policy);
}
