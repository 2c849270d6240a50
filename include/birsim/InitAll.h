//===- InitAll.h - Register birsim and the upstream pieces it needs -------===//
//
// The stable entry points for compilers that embed birsim (link
// Birsim::MLIRBirsim): registerAllDialects / registerAllPasses for a tool of
// its own, registerBirsimDialects / registerBirsimPasses where the upstream
// ones are registered already (the mlir-opt plugin).
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_INITALL_H
#define BIRSIM_INITALL_H

#include "birsim/Conversion/Passes.h"
#include "birsim/Dialect/Birsim/IR/BirsimDialect.h"
#include "birsim/Dialect/Birsim/Transforms/BufferizableOpInterfaceImpl.h"
#include "birsim/Dialect/Birsim/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"

namespace birsim {

/// The birsim dialect, its One-Shot Bufferize models and its
/// ConvertToLLVMPatternInterface.
inline void registerBirsimDialects(mlir::DialectRegistry &registry) {
  registry.insert<birsim::BirsimDialect>();
  birsim::registerBufferizableOpInterfaceExternalModels(registry);
  birsim::registerConvertBirsimToLLVMInterface(registry);
}

/// birsim's passes and its pipeline.
inline void registerBirsimPasses() {
  birsim::registerBirsimTransformsPasses();
  birsim::registerBirsimConversionPasses();
  birsim::registerBirsimToLLVMPipeline();
}

/// birsim plus every upstream dialect and extension (func, arith, tensor,
/// memref, scf, cf, bufferization, linalg, llvm and the to-LLVM interfaces).
inline void registerAllDialects(mlir::DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registerBirsimDialects(registry);
}

/// Upstream passes and birsim's own.
inline void registerAllPasses() {
  mlir::registerAllPasses();
  registerBirsimPasses();
}

} // namespace birsim

#endif
