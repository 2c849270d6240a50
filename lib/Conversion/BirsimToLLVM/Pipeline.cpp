//===- Pipeline.cpp - the birsim-to-llvm pipeline -------------------------===//
#include "birsim/Conversion/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

/// func + birsim on tensors to the LLVM dialect: fold, turn elementwise
/// tensor arith into linalg, bufferize with
/// identity layouts (the runtime takes contiguous buffers), free buffers,
/// lower loops (and vector prints/transfers), call the runtime, then
/// everything else to LLVM.
static constexpr const char *kBirsimToLLVM =
    "canonicalize,"
    "convert-elementwise-to-linalg,"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-deallocation-pipeline,"
    "convert-bufferization-to-memref,"
    "convert-linalg-to-loops,"
    "convert-vector-to-scf{full-unroll=true},"
    "expand-strided-metadata,"
    "lower-affine,"
    "convert-scf-to-cf,"
    "convert-birsim-to-llvm,"
    "convert-to-llvm,"
    "reconcile-unrealized-casts,"
    "canonicalize";

void birsim::registerBirsimToLLVMPipeline() {
  PassPipelineRegistration<>(
      "birsim-to-llvm",
      "Lower func + birsim ops on tensors to the LLVM dialect, with birsim "
      "ops as calls into libbirsim_runtime.so",
      [](OpPassManager &pm) {
        if (failed(parsePassPipeline(kBirsimToLLVM, pm)))
          llvm::report_fatal_error("invalid birsim-to-llvm pipeline");
      });
}
