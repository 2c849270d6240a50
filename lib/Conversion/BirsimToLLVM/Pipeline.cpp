//===- Pipeline.cpp - the birsim-to-llvm pipeline -------------------------===//
#include "birsim/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void birsim::buildBirsimToLLVMPipeline(
    OpPassManager &pm, const BirsimToLLVMPipelineOptions &options) {
  // Fold birsim ops on constants through the core.
  if (options.foldConstants)
    pm.addPass(createCanonicalizerPass());
  // Elementwise tensor arith into linalg, so that it bufferizes and loops.
  pm.addPass(createConvertElementwiseToLinalgPass());
  // Identity layouts at function boundaries: the runtime takes contiguous
  // buffers.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
  // Loops, vector prints and transfers.
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll()));
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // birsim ops become runtime calls, then everything else goes to LLVM.
  ConvertBirsimToLLVMPassOptions lowering;
  lowering.fidelityCounters = options.fidelityCounters;
  lowering.fidelityDeviceSite = options.fidelityDeviceSite;
  pm.addPass(createConvertBirsimToLLVMPass(lowering));
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createBirsimVerifyLoweredPass());
}

void birsim::registerBirsimToLLVMPipeline() {
  PassPipelineRegistration<BirsimToLLVMPipelineOptions>(
      "birsim-to-llvm",
      "Lower func + birsim ops on tensors to the LLVM dialect, with birsim "
      "ops as calls into libbirsim_runtime.so",
      buildBirsimToLLVMPipeline);
}
