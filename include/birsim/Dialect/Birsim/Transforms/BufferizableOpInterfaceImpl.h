//===- BufferizableOpInterfaceImpl.h - birsim bufferization ----*- C++ -*-===//
#ifndef BIRSIM_DIALECT_BIRSIM_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
#define BIRSIM_DIALECT_BIRSIM_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace birsim {
/// One-Shot Bufferize models: the in-place ops (reduce, collective_reduce)
/// write into their destination operand's buffer; cast and the BFP ops
/// write into a new identity-layout allocation.
void registerBufferizableOpInterfaceExternalModels(
    mlir::DialectRegistry &registry);
} // namespace birsim

#endif
