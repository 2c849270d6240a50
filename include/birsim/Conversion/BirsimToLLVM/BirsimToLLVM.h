//===- BirsimToLLVM.h - birsim to LLVM through the runtime ------*- C++ -*-===//
#ifndef BIRSIM_CONVERSION_BIRSIMTOLLVM_BIRSIMTOLLVM_H
#define BIRSIM_CONVERSION_BIRSIMTOLLVM_BIRSIMTOLLVM_H

namespace mlir {
class DialectRegistry;
class LLVMTypeConverter;
class RewritePatternSet;
} // namespace mlir

namespace birsim {

/// Adds the birsim type conversions (float32r and the packed dtypes become
/// same-width integers) and the op-to-runtime-call patterns.
void populateBirsimToLLVMConversionPatterns(mlir::LLVMTypeConverter &converter,
                                            mlir::RewritePatternSet &patterns);

/// Makes upstream `--convert-to-llvm` lower birsim ops.
void registerConvertBirsimToLLVMInterface(mlir::DialectRegistry &registry);

/// Registers the `birsim-to-llvm` pipeline: func + birsim on tensors all the
/// way to the LLVM dialect.
void registerBirsimToLLVMPipeline();

} // namespace birsim

#endif
