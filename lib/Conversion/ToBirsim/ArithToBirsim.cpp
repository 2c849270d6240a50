//===- ArithToBirsim.cpp - arith casts and adds to birsim ops -------------===//
//
// docs/Conversions.md, "arith": op by op, outside linalg bodies.
//
//===----------------------------------------------------------------------===//
#include "ScalarOps.h"
#include "birsim/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/TypeUtilities.h"

namespace birsim {
#define GEN_PASS_DEF_CONVERTARITHTOBIRSIMPASS
#include "birsim/Conversion/Passes.h.inc"
} // namespace birsim

using namespace mlir;
using namespace birsim;

namespace {

/// One arith op to its birsim op (ScalarOps.h says which and why not).
template <typename SourceOp> struct ArithToBirsim : OpRewritePattern<SourceOp> {
  ArithToBirsim(MLIRContext *context, const ToBirsimPolicy &policy)
      : OpRewritePattern<SourceOp>(context), policy(policy) {}

  LogicalResult matchAndRewrite(SourceOp op,
                                PatternRewriter &rewriter) const override {
    if (op->template getParentOfType<linalg::LinalgOp>())
      return failure(); // the linalg patterns map the whole op
    Operation *inner = nullptr;
    SmallVector<Value> inputs = scalarInputs(op, &inner);
    Type resultType = op->getResult(0).getType();
    if (isa<UnrankedTensorType>(resultType))
      return failure();
    SmallVector<Type> elementTypes;
    for (Value input : inputs)
      elementTypes.push_back(getElementTypeOrSelf(input));
    std::string why;
    if (failed(checkMappable(op, elementTypes, getElementTypeOrSelf(resultType),
                             policy, why))) {
      if (policy.remarks && !why.empty())
        op->emitRemark("not converted to ") << why;
      return failure();
    }
    rewriter.replaceOp(op, buildBirsimOp(rewriter, op->getLoc(), op, inputs,
                                         resultType, policy));
    if (inner && inner->use_empty()) // the math.roundeven of an fptosi
      rewriter.eraseOp(inner);
    return success();
  }

  ToBirsimPolicy policy;
};

struct ConvertArithToBirsim
    : birsim::impl::ConvertArithToBirsimPassBase<ConvertArithToBirsim> {
  using ConvertArithToBirsimPassBase::ConvertArithToBirsimPassBase;

  void runOnOperation() override {
    if (failed(applyToBirsimPatterns(getOperation(), fp8Config, reduceAdd,
                                     intCasts,
                                     {populateArithToBirsimPatterns})))
      signalPassFailure();
  }
};

} // namespace

template <typename... SourceOps>
static void addArithPatterns(RewritePatternSet &patterns,
                             const ToBirsimPolicy &policy) {
  patterns.add<ArithToBirsim<SourceOps>...>(patterns.getContext(), policy);
}

void birsim::populateArithToBirsimPatterns(RewritePatternSet &patterns,
                                           const ToBirsimPolicy &policy) {
  addArithPatterns<BIRSIM_TO_BIRSIM_ARITH_OPS>(patterns, policy);
}
