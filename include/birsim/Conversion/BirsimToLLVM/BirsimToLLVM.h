//===- BirsimToLLVM.h - birsim to LLVM through the runtime ------*- C++ -*-===//
#ifndef BIRSIM_CONVERSION_BIRSIMTOLLVM_BIRSIMTOLLVM_H
#define BIRSIM_CONVERSION_BIRSIMTOLLVM_BIRSIMTOLLVM_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class DialectRegistry;
class LLVMTypeConverter;
class OpPassManager;
class RewritePatternSet;
} // namespace mlir

namespace birsim {

/// What the lowered code counts (docs/Fidelity.md). With `counters`, each
/// counted call is preceded by `birsim_fidelity_site("<op location>")` and
/// `birsim_fidelity_set_device_site(deviceSite)`, the device site
/// bfp_pack.device_differs compares with (a BfpSites.def number).
struct FidelityLowering {
  bool counters = false;
  int deviceSite = 1; // fp32_dest
};

/// Adds the birsim type conversions (float32r and the packed dtypes become
/// same-width integers) and the op-to-runtime-call patterns.
void populateBirsimToLLVMConversionPatterns(mlir::LLVMTypeConverter &converter,
                                            mlir::RewritePatternSet &patterns,
                                            FidelityLowering fidelity = {});

/// Makes upstream `--convert-to-llvm` lower birsim ops.
void registerConvertBirsimToLLVMInterface(mlir::DialectRegistry &registry);

/// Options of the `birsim-to-llvm` pipeline.
struct BirsimToLLVMPipelineOptions
    : public mlir::PassPipelineOptions<BirsimToLLVMPipelineOptions> {
  PassOptions::Option<bool> foldConstants{
      *this, "fold-constants",
      llvm::cl::desc("Fold birsim ops on constant operands through the core "
                     "before lowering (off: every op executes at run time)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fidelityCounters{
      *this, "fidelity-counters",
      llvm::cl::desc("Count at run time what the simulator's numerics do to "
                     "values and print one line per call site at exit "
                     "(docs/Fidelity.md)"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> fidelityDeviceSite{
      *this, "fidelity-device-site",
      llvm::cl::desc("The device site bfp_pack.device_differs compares host "
                     "packs with (docs/Fidelity.md)"),
      llvm::cl::init("fp32_dest")};
};

/// func + birsim on tensors all the way to the LLVM dialect: fold,
/// bufferize with identity layouts, lower loops, turn birsim ops into
/// runtime calls, and convert the rest to LLVM.
void buildBirsimToLLVMPipeline(mlir::OpPassManager &pm,
                               const BirsimToLLVMPipelineOptions &options);

/// Registers `buildBirsimToLLVMPipeline` as `birsim-to-llvm`.
void registerBirsimToLLVMPipeline();

} // namespace birsim

#endif
