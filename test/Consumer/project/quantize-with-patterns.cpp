//===- quantize-with-patterns.cpp - birsim's patterns in another pass -----===//
//
// Another compiler's own pass that maps what its frontend emits to birsim
// ops with only the exported populate functions (ToBirsim.h) and its own
// policy, applied with MLIR's greedy driver, then folds: the fake-quant
// weights of the input become constants.
//
//===----------------------------------------------------------------------===//
#include "birsim/Conversion/ToBirsim/ToBirsim.h"
#include "birsim/Dialect/Birsim/IR/BirsimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {
struct MyQuantizePass
    : PassWrapper<MyQuantizePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MyQuantizePass)
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<birsim::BirsimDialect>();
  }
  void runOnOperation() override {
    birsim::ToBirsimPolicy policy;
    policy.fp8Config = birsim::Fp8Config::none; // this compiler's choice
    policy.remarks = false; // the greedy driver may retry a pattern
    RewritePatternSet patterns(&getContext());
    birsim::populateLinalgToBirsimPatterns(patterns, policy);
    birsim::populateArithToBirsimPatterns(patterns, policy);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: quantize-with-patterns FILE.mlir\n";
    return 2;
  }
  DialectRegistry registry;
  registry.insert<arith::ArithDialect, func::FuncDialect, linalg::LinalgDialect,
                  math::MathDialect, tensor::TensorDialect,
                  birsim::BirsimDialect>();
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(argv[1], &context);
  if (!module)
    return 1;
  PassManager pm(&context);
  pm.addPass(std::make_unique<MyQuantizePass>());
  pm.addPass(createCanonicalizerPass());
  if (failed(pm.run(*module)))
    return 1;
  llvm::outs() << *module << "\n";
  return 0;
}
