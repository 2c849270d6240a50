//===- TensixOperands.h - what bounds a Tensix operand's bits ---*- C++ -*-===//
//
// The significant bits a Tensix op's operand can carry in Src, from what
// the IR says about it (docs/Semantics.md section 7, "Fidelity phases"):
// the bound birsim_tensix_useful_phases takes.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_DIALECT_BIRSIM_TRANSFORMS_TENSIXOPERANDS_H
#define BIRSIM_DIALECT_BIRSIM_TRANSFORMS_TENSIXOPERANDS_H

#include "birsim/Dialect/Birsim/IR/BirsimOps.h"

#include <string>

namespace birsim {

/// An operand's bound and what gave it.
struct TensixOperandBits {
  unsigned bits;      ///< hidden bit included; 0 when every value is zero
  std::string source; ///< "constant", "bfp4_b", "bf16 values", "bf16 Src"
};

/// The most significant bits `value` keeps in Src of class `src`: a
/// constant's own, a BFP or MX unpack's format's, an `arith.extf`'s source
/// type's, and at most the Src class's.
TensixOperandBits tensixOperandBits(mlir::Value value, TensixSrc src);

/// "phase 2" or "phases 1, 3" for a non-empty phase mask.
std::string tensixPhaseList(unsigned phases);

} // namespace birsim

#endif
