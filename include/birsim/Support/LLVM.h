//===- LLVM.h - MLIR names used unqualified in namespace birsim -*- C++ -*-===//
//
// As CIRCT's Support/LLVM.h: the dialect lives in the top-level namespace
// `birsim` (the core in `birsim::core`), and these MLIR names are usable
// there without `mlir::`.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_SUPPORT_LLVM_H
#define BIRSIM_SUPPORT_LLVM_H

#include "mlir/Support/LLVM.h"

namespace mlir {
class Attribute;
class DialectRegistry;
class Location;
class MemRefType;
class MLIRContext;
class Operation;
class ShapedType;
class Type;
class Value;
} // namespace mlir

namespace birsim {
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::SmallVectorImpl;
using llvm::StringRef;
using mlir::Attribute;
using mlir::DialectRegistry;
using mlir::failed;
using mlir::failure;
using mlir::FailureOr;
using mlir::Location;
using mlir::LogicalResult;
using mlir::MemRefType;
using mlir::MLIRContext;
using mlir::Operation;
using mlir::ShapedType;
using mlir::succeeded;
using mlir::success;
using mlir::Type;
using mlir::Value;
} // namespace birsim

#endif // BIRSIM_SUPPORT_LLVM_H
