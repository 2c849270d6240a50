//===- BirsimOps.h - birsim operations --------------------------*- C++ -*-===//
#ifndef BIRSIM_DIALECT_BIRSIM_IR_BIRSIMOPS_H
#define BIRSIM_DIALECT_BIRSIM_IR_BIRSIMOPS_H

#include "birsim/Dialect/Birsim/IR/BirsimDialect.h"
#include "birsim/Dialect/Birsim/IR/BirsimTypes.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "birsim/Dialect/Birsim/IR/BirsimEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "birsim/Dialect/Birsim/IR/BirsimAttrs.h.inc"

#define GET_OP_CLASSES
#include "birsim/Dialect/Birsim/IR/BirsimOps.h.inc"

#endif
