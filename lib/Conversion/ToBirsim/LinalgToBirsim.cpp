//===- LinalgToBirsim.cpp - elementwise linalg ops to birsim ops ----------===//
//
// docs/Conversions.md, "linalg": a whole elementwise op becomes birsim ops
// on its tensors, one per scalar op of its body, so it folds as tensors.
//
//===----------------------------------------------------------------------===//
#include "ScalarOps.h"
#include "birsim/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"

namespace birsim {
#define GEN_PASS_DEF_CONVERTLINALGTOBIRSIMPASS
#include "birsim/Conversion/Passes.h.inc"
} // namespace birsim

using namespace mlir;
using namespace birsim;

namespace {

/// The scalar ops the conversions know (ToBirsim.h).
bool isScalarCandidate(Operation &op) {
  return isa<BIRSIM_TO_BIRSIM_ARITH_OPS>(op);
}

/// An elementwise LinalgOp whose body is scalar ops the conversions map
/// (a chain included: truncf then extf, a fake quantization) on its input
/// block arguments: one birsim op per scalar op, on whole tensors. Input
/// `i` is the scalar op's operand `i`: for an add, input 0 is `dst`.
struct LinalgToBirsim : OpInterfaceRewritePattern<linalg::LinalgOp> {
  LinalgToBirsim(MLIRContext *context, const ToBirsimPolicy &policy)
      : OpInterfaceRewritePattern(context), policy(policy) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    Block *body = op.getBlock();
    if (!body || !op.hasPureTensorSemantics() ||
        llvm::none_of(body->without_terminator(), isScalarCandidate))
      return failure(); // nothing of ours: no remark
    auto refuse = [&](const Twine &why) {
      if (policy.remarks)
        op->emitRemark("not converted to birsim ops: ") << why;
      return failure();
    };
    if (op.getNumDpsInits() != 1 || op->getNumResults() != 1)
      return refuse("more than one result");
    if (op.getNumParallelLoops() != op.getNumLoops())
      return refuse("a reduction; birsim ops are elementwise");
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType || !resultType.hasStaticShape())
      return refuse("a dynamic shape");
    if (!op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
      return refuse("a transposed result; birsim ops write the result in "
                    "its own order");
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      if (!map.isProjectedPermutation())
        return refuse("an input indexed by a map that is not a broadcast or "
                      "a transpose");
      if (map.isIdentity() &&
          cast<ShapedType>(input->get().getType()).getShape() !=
              resultType.getShape())
        return refuse("an input of another shape");
    }

    // Each body value: the element type it carries, for the checks.
    SmallVector<Operation *> mapped;
    DenseSet<Value> available;
    for (unsigned i = 0; i < op.getNumDpsInputs(); ++i)
      available.insert(body->getArgument(i));
    for (Operation &inner : body->without_terminator()) {
      if (auto round = dyn_cast<math::RoundEvenOp>(inner)) {
        if (!round->hasOneUse() || !isa<arith::FPToSIOp>(*round->user_begin()))
          return refuse("its body's 'math.roundeven' is not the operand of an "
                        "fptosi");
        continue;
      }
      if (!isScalarCandidate(inner))
        return refuse("its body's '" + inner.getName().getStringRef() +
                      "' has no birsim op");
      SmallVector<Type> inputTypes;
      for (Value input : scalarInputs(&inner)) {
        if (!available.contains(input))
          return refuse(isa<BlockArgument>(input) &&
                                cast<BlockArgument>(input).getOwner() == body
                            ? "a body that reads the init operand"
                            : "a body that reads a value from outside it");
        inputTypes.push_back(input.getType());
      }
      std::string why;
      if (failed(checkMappable(&inner, inputTypes, inner.getResult(0).getType(),
                               policy, why)))
        return why.empty()
                   ? failure()
                   : refuse("its body's '" + inner.getName().getStringRef() +
                            "': " + why);
      available.insert(inner.getResult(0));
      mapped.push_back(&inner);
    }
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    if (yield.getNumOperands() != 1 || mapped.empty() ||
        !available.contains(yield.getOperand(0)))
      return failure();

    // A broadcast or transposed input is first materialized in the result's
    // shape (a copy with its indexing map); the birsim ops take whole
    // tensors.
    IRMapping tensors;
    AffineMap identity = rewriter.getMultiDimIdentityMap(op.getNumLoops());
    SmallVector<utils::IteratorType> parallel(op.getNumLoops(),
                                              utils::IteratorType::parallel);
    for (unsigned i = 0; i < op.getNumDpsInputs(); ++i) {
      OpOperand *input = op.getDpsInputOperand(i);
      Value tensor = input->get();
      AffineMap map = op.getMatchingIndexingMap(input);
      if (!map.isIdentity()) {
        Type element = getElementTypeOrSelf(tensor);
        Value empty = tensor::EmptyOp::create(rewriter, op.getLoc(),
                                              resultType.getShape(), element);
        tensor = linalg::GenericOp::create(
                     rewriter, op.getLoc(), empty.getType(), tensor, empty,
                     ArrayRef<AffineMap>{map, identity}, parallel,
                     [](OpBuilder &b, Location loc, ValueRange args) {
                       linalg::YieldOp::create(b, loc, args[0]);
                     })
                     .getResult(0);
      }
      tensors.map(body->getArgument(i), tensor);
    }
    for (Operation *inner : mapped) {
      SmallVector<Value> inputs;
      for (Value input : scalarInputs(inner))
        inputs.push_back(tensors.lookup(input));
      auto type = RankedTensorType::get(resultType.getShape(),
                                        inner->getResult(0).getType());
      tensors.map(
          inner->getResult(0),
          buildBirsimOp(rewriter, op.getLoc(), inner, inputs, type, policy));
    }
    rewriter.replaceOp(op, tensors.lookup(yield.getOperand(0)));
    return success();
  }

  ToBirsimPolicy policy;
};

struct ConvertLinalgToBirsim
    : birsim::impl::ConvertLinalgToBirsimPassBase<ConvertLinalgToBirsim> {
  using ConvertLinalgToBirsimPassBase::ConvertLinalgToBirsimPassBase;

  void runOnOperation() override {
    if (failed(applyToBirsimPatterns(getOperation(), fp8Config, reduceAdd,
                                     intCasts,
                                     {populateLinalgToBirsimPatterns})))
      signalPassFailure();
  }
};

} // namespace

void birsim::populateLinalgToBirsimPatterns(RewritePatternSet &patterns,
                                            const ToBirsimPolicy &policy) {
  patterns.add<LinalgToBirsim>(patterns.getContext(), policy);
}
