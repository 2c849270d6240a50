//===- Passes.h - birsim dialect passes -------------------------*- C++ -*-===//
#ifndef BIRSIM_DIALECT_BIRSIM_TRANSFORMS_PASSES_H
#define BIRSIM_DIALECT_BIRSIM_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace birsim {
#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "birsim/Dialect/Birsim/Transforms/Passes.h.inc"
} // namespace birsim

#endif
