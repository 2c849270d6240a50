//===- Passes.h - birsim conversion passes ----------------------*- C++ -*-===//
#ifndef BIRSIM_CONVERSION_PASSES_H
#define BIRSIM_CONVERSION_PASSES_H

#include "birsim/Conversion/BirsimToLLVM/BirsimToLLVM.h"
#include "birsim/Conversion/ToBirsim/ToBirsim.h"

#include "mlir/Pass/Pass.h"

namespace birsim {
class BirsimDialect;
#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "birsim/Conversion/Passes.h.inc"
} // namespace birsim

#endif
