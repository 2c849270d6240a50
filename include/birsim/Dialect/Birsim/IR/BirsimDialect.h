//===- BirsimDialect.h - birsim dialect -------------------------*- C++ -*-===//
#ifndef BIRSIM_DIALECT_BIRSIM_IR_BIRSIMDIALECT_H
#define BIRSIM_DIALECT_BIRSIM_IR_BIRSIMDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Dialect.h"

#include "birsim/Core/Dtype.h"
#include "llvm/ADT/DenseMap.h"

#include <atomic>
#include <optional>

#include "birsim/Dialect/Birsim/IR/BirsimDialect.h.inc"

#endif
