//===- BirsimOps.h - birsim operations --------------------------*- C++ -*-===//
#ifndef BIRSIM_DIALECT_BIRSIM_IR_BIRSIMOPS_H
#define BIRSIM_DIALECT_BIRSIM_IR_BIRSIMOPS_H

#include "birsim/Dialect/Birsim/IR/BirsimDialect.h"
#include "birsim/Dialect/Birsim/IR/BirsimSizes.h"
#include "birsim/Dialect/Birsim/IR/BirsimTypes.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "birsim/Core/Bfp.h"

#include "birsim/Dialect/Birsim/IR/BirsimEnums.h.inc"

namespace birsim {
class BfpOpInterface;
/// The interface's verifier: the core's rules on the call (bfpCheckCall,
/// bfpCheckInput) and the packed side's shape, in the core's words.
mlir::LogicalResult verifyBfpOp(mlir::Operation *op);
/// The core's description of a BFP op's call (docs/Semantics.md section 5):
/// the tile shape from the tile form's values type or the matrix form's
/// `tile`, the flags from the attributes named as BfpFlags.def's rows, the
/// tile count (0 when dynamic) or the matrix with its leading dimensions
/// folded into rows.
core::BfpCall bfpCallOf(BfpOpInterface op);
/// A verified Tensix matmul's M, K and N, from its operands' static M x K
/// and K x N types (docs/Decisions.md D50).
struct TensixMatmulExtent {
  size_t m, k, n;
};
TensixMatmulExtent tensixMatmulExtent(mlir::Type in0, mlir::Type in1);

namespace OpTrait {
/// Birsim_HasBufferForm: the op bufferizes to `<name>_into`.
template <typename ConcreteType>
class HasBufferForm
    : public mlir::OpTrait::TraitBase<ConcreteType, HasBufferForm> {};
/// Birsim_SizedShapes: verifySizedShapes (BirsimSizes.h).
template <typename ConcreteType>
class SizedShapes : public mlir::OpTrait::TraitBase<ConcreteType, SizedShapes> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifySizedShapes(op);
  }
};
} // namespace OpTrait
} // namespace birsim

#include "birsim/Dialect/Birsim/IR/BirsimInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "birsim/Dialect/Birsim/IR/BirsimAttrs.h.inc"

#define GET_OP_CLASSES
#include "birsim/Dialect/Birsim/IR/BirsimOps.h.inc"

#endif
