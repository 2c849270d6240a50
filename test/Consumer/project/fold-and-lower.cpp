//===- fold-and-lower.cpp - a compiler embedding birsim -------------------===//
//
// Parses a module, folds it, prints it, lowers it with the birsim-to-llvm
// pipeline and prints the runtime calls left. `using namespace mlir;` next to
// `birsim::` must compile: one top-level namespace per project.
//
//===----------------------------------------------------------------------===//
#include "birsim/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: fold-and-lower FILE.mlir\n";
    return 2;
  }
  DialectRegistry registry;
  birsim::registerAllDialects(registry);
  birsim::registerAllPasses();
  MLIRContext context(registry);

  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(argv[1], &context);
  if (!module)
    return 1;
  PassManager fold(&context);
  fold.addPass(createCanonicalizerPass());
  if (failed(fold.run(*module)))
    return 1;
  llvm::outs() << "folded:\n" << *module << "\n";

  PassManager lower(&context);
  if (failed(parsePassPipeline("birsim-to-llvm{fold-constants=false}",
                               lower)) ||
      failed(lower.run(*module)))
    return 1;
  module->walk([](Operation *op) {
    if (op->getName().getStringRef() == "llvm.call")
      if (auto callee = op->getAttrOfType<FlatSymbolRefAttr>("callee"))
        if (callee.getValue().starts_with("birsim_"))
          llvm::outs() << "lowered call: " << callee.getValue() << "\n";
  });
  return 0;
}
