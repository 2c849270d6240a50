//===- ArithToBirsim.cpp - arith casts and adds to birsim ops -------------===//
//
// docs/Conversions.md, "arith": op by op, outside linalg bodies.
//
//===----------------------------------------------------------------------===//
#include "ScalarOps.h"
#include "birsim/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace birsim {
#define GEN_PASS_DEF_CONVERTARITHTOBIRSIMPASS
#include "birsim/Conversion/Passes.h.inc"
} // namespace birsim

using namespace mlir;
using namespace birsim;

namespace {

struct ConvertArithToBirsim
    : birsim::impl::ConvertArithToBirsimPassBase<ConvertArithToBirsim> {
  using ConvertArithToBirsimPassBase::ConvertArithToBirsimPassBase;

  void runOnOperation() override {
    FailureOr<Fp8Config> config = parseFp8ConfigOption(getOperation(), fp8Config);
    if (failed(config))
      return signalPassFailure();
    ToBirsimPolicy policy{*config, reduceAdd, intCasts};
    // Collected first: rewriting while walking would visit the new ops.
    SmallVector<Operation *> candidates;
    getOperation()->walk([&](Operation *op) {
      if (isa<arith::TruncFOp, arith::ExtFOp, arith::SIToFPOp,
              arith::FPToSIOp, arith::AddFOp, arith::AddIOp>(op) &&
          !op->getParentOfType<linalg::LinalgOp>())
        candidates.push_back(op);
    });
    OpBuilder builder(&getContext());
    for (Operation *op : candidates) {
      builder.setInsertionPoint(op);
      Operation *inner = nullptr;
      SmallVector<Value> inputs = scalarInputs(op, &inner);
      Value replacement =
          buildBirsimOp(builder, op->getLoc(), op, inputs,
                        op->getResult(0).getType(), policy, /*remark=*/true);
      if (!replacement)
        continue;
      op->getResult(0).replaceAllUsesWith(replacement);
      op->erase();
      if (inner && inner->use_empty()) // the math.roundeven of an fptosi
        inner->erase();
    }
  }
};

} // namespace
