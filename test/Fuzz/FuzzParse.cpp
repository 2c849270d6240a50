//===- FuzzParse.cpp - parse, verify, fold and lower arbitrary text -------===//
//
// libFuzzer target (utils/fuzz.sh): arbitrary text through the parser, the
// verifier, --birsim-fidelity, -canonicalize and the birsim-to-llvm pipeline
// must never crash.
// Inputs without a birsim op are skipped, and so are inputs that reach an
// upstream parser crash recorded in docs/Errors.md.
//
//===----------------------------------------------------------------------===//
#include "birsim/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <cstdint>
#include <cstring>
#include <string>

using namespace mlir;

static MLIRContext &context() {
  static MLIRContext *ctx = [] {
    DialectRegistry registry;
    birsim::registerAllDialects(registry);
    birsim::registerAllPasses();
    auto *c = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    c->loadAllAvailableDialects();
    return c;
  }();
  return *ctx;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  if (text.find("birsim.") == std::string::npos)
    return 0;
  // Upstream crashes, recorded in docs/Errors.md: linalg.reduce's parser
  // dereferences a null attribute on `dimensions = = ...` (MLIR 22.1.8).
  if (text.find("linalg.") != std::string::npos)
    return 0;
  MLIRContext &ctx = context();
  ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
  if (!module || failed(verify(*module)))
    return 0;
  PassManager analyse(&ctx); // the fidelity analysis reads the constants
  if (succeeded(parsePassPipeline("birsim-fidelity", analyse)))
    (void)analyse.run(*module);
  PassManager fold(&ctx);
  fold.addPass(createCanonicalizerPass());
  if (failed(fold.run(*module)))
    return 0;
  PassManager lower(&ctx);
  if (succeeded(parsePassPipeline("birsim-to-llvm", lower)))
    (void)lower.run(*module);
  return 0;
}
