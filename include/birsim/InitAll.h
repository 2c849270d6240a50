//===- InitAll.h - Register birsim and the upstream pieces it needs -*- C++
//-*-===//
#ifndef BIRSIM_INITALL_H
#define BIRSIM_INITALL_H

#include "birsim/Conversion/Passes.h"
#include "birsim/Dialect/Birsim/IR/BirsimDialect.h"
#include "birsim/Dialect/Birsim/Transforms/BufferizableOpInterfaceImpl.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"

namespace birsim {

/// birsim plus every upstream dialect and extension (func, arith, tensor,
/// memref, scf, cf, bufferization, linalg, llvm and the to-LLVM interfaces).
inline void registerAllDialects(mlir::DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<birsim::BirsimDialect>();
  birsim::registerBufferizableOpInterfaceExternalModels(registry);
  birsim::registerConvertBirsimToLLVMInterface(registry);
}

/// Upstream passes and birsim's own.
inline void registerAllPasses() {
  mlir::registerAllPasses();
  birsim::registerBirsimConversionPasses();
  birsim::registerBirsimToLLVMPipeline();
}

} // namespace birsim

#endif
