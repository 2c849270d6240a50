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

struct ConvertTosaToBirsim
    : birsim::impl::ConvertTosaToBirsimPassBase<ConvertTosaToBirsim> {
  using ConvertTosaToBirsimPassBase::ConvertTosaToBirsimPassBase;

  void runOnOperation() override {
    FailureOr<Fp8Config> config = parseFp8ConfigOption(getOperation(), fp8Config);
    if (failed(config))
      return signalPassFailure();
    SmallVector<tosa::CastOp> casts;
    getOperation()->walk([&](tosa::CastOp op) {
      if (isa<RankedTensorType>(op.getInput().getType()) &&
          isBirsimFloat(getElementTypeOrSelf(op.getInput())) &&
          isBirsimFloat(getElementTypeOrSelf(op.getType())))
        casts.push_back(op);
    });
    OpBuilder builder(&getContext());
    for (tosa::CastOp op : casts) {
      builder.setInsertionPoint(op);
      Value cast = CastOp::create(builder, op.getLoc(), op.getType(),
                                  op.getInput(),
                                  Fp8ConfigAttr::get(&getContext(), *config));
      op.replaceAllUsesWith(cast);
      op.erase();
    }
  }
};

} // namespace
