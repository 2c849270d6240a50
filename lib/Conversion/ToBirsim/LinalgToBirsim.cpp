//===- LinalgToBirsim.cpp - elementwise linalg ops to birsim ops ----------===//
//
// docs/Conversions.md, "linalg": a whole elementwise op becomes one birsim
// op on its tensors, so it folds as one tensor.
//
//===----------------------------------------------------------------------===//
#include "ScalarOps.h"
#include "birsim/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace birsim {
#define GEN_PASS_DEF_CONVERTLINALGTOBIRSIMPASS
#include "birsim/Conversion/Passes.h.inc"
} // namespace birsim

using namespace mlir;
using namespace birsim;

namespace {

/// The scalar op an elementwise LinalgOp computes, when its body is exactly
/// that op (with the math.roundeven of an fptosi) on input block arguments,
/// and the op's inputs in the scalar op's operand order.
struct ElementwiseBody {
  Operation *scalarOp = nullptr;
  SmallVector<Value> inputs; // the LinalgOp's tensors
};

std::optional<ElementwiseBody> matchElementwise(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op->getNumResults() != 1 || !op.hasOnlyProjectedPermutations() ||
      op.getNumParallelLoops() != op.getNumLoops())
    return std::nullopt;
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isIdentity())
      return std::nullopt; // a broadcast or a transpose
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!resultType || !resultType.hasStaticShape())
    return std::nullopt;
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 1)
    return std::nullopt;
  Operation *scalarOp = yield.getOperand(0).getDefiningOp();
  if (!scalarOp || scalarOp->getBlock() != body)
    return std::nullopt;
  Operation *inner = nullptr;
  SmallVector<Value> args = scalarInputs(scalarOp, &inner);
  // Exactly the scalar op (and its roundeven) before the yield.
  size_t expected = inner ? 3 : 2;
  if (body->getOperations().size() != expected)
    return std::nullopt;
  ElementwiseBody match{scalarOp, {}};
  for (Value arg : args) {
    auto blockArg = dyn_cast<BlockArgument>(arg);
    if (!blockArg || blockArg.getOwner() != body ||
        blockArg.getArgNumber() >= op.getNumDpsInputs())
      return std::nullopt; // a captured value or the init operand
    match.inputs.push_back(op.getDpsInputOperand(blockArg.getArgNumber())->get());
  }
  for (Value input : match.inputs)
    if (cast<ShapedType>(input.getType()).getShape() != resultType.getShape())
      return std::nullopt;
  return match;
}

struct ConvertLinalgToBirsim
    : birsim::impl::ConvertLinalgToBirsimPassBase<ConvertLinalgToBirsim> {
  using ConvertLinalgToBirsimPassBase::ConvertLinalgToBirsimPassBase;

  void runOnOperation() override {
    FailureOr<Fp8Config> config = parseFp8ConfigOption(getOperation(), fp8Config);
    if (failed(config))
      return signalPassFailure();
    ToBirsimPolicy policy{*config, reduceAdd, intCasts};
    SmallVector<linalg::LinalgOp> candidates;
    getOperation()->walk([&](linalg::LinalgOp op) { candidates.push_back(op); });
    OpBuilder builder(&getContext());
    for (linalg::LinalgOp op : candidates) {
      std::optional<ElementwiseBody> body = matchElementwise(op);
      if (!body)
        continue;
      builder.setInsertionPoint(op);
      Value replacement = buildBirsimOp(builder, op.getLoc(), body->scalarOp,
                                        body->inputs,
                                        op->getResult(0).getType(), policy,
                                        /*remark=*/true);
      if (!replacement)
        continue;
      op->getResult(0).replaceAllUsesWith(replacement);
      op->erase();
    }
  }
};

} // namespace
