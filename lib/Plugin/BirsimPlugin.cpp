//===- BirsimPlugin.cpp - birsim as a plugin of the stock mlir-opt --------===//
//
// BirsimPlugin.so works as both a dialect plugin and a pass plugin:
//   mlir-opt --load-dialect-plugin=BirsimPlugin.so \
//            --load-pass-plugin=BirsimPlugin.so \
//            --pass-pipeline='builtin.module(birsim-to-llvm)'
// It links the host's libMLIR.so, never a second copy of MLIR.
//
//===----------------------------------------------------------------------===//
#include "birsim/InitAll.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Birsim", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            birsim::registerBirsimDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Birsim", LLVM_VERSION_STRING,
          []() { birsim::registerBirsimPasses(); }};
}
