//===- VerifyLowered.cpp - nothing but the LLVM dialect after lowering ----===//
#include "birsim/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace birsim {
#define GEN_PASS_DEF_BIRSIMVERIFYLOWEREDPASS
#include "birsim/Conversion/Passes.h.inc"
} // namespace birsim

using namespace mlir;

namespace {

struct BirsimVerifyLowered
    : birsim::impl::BirsimVerifyLoweredPassBase<BirsimVerifyLowered> {
  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == getOperation().getOperation() ||
          isa<LLVM::LLVMDialect>(op->getDialect()))
        return WalkResult::advance();
      InFlightDiagnostic error =
          op->emitError("'")
          << op->getName()
          << "' was not lowered to the LLVM dialect, so the module cannot "
             "run";
      if (birsim::isToBirsimCandidate(op))
        error << "; run --convert-to-birsim first, which maps the casts and "
                 "adds of the simulator's types to birsim ops "
                 "(docs/Conversions.md)";
      failed = true;
      return WalkResult::skip(); // its nested ops are part of this one
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
