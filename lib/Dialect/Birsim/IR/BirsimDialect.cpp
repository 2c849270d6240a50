//===- BirsimDialect.cpp - birsim dialect ---------------------------------===//
#include "birsim/Dialect/Birsim/IR/BirsimDialect.h"
#include "birsim/Dialect/Birsim/IR/BirsimOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace birsim;

#include "birsim/Dialect/Birsim/IR/BirsimDialect.cpp.inc"
#include "birsim/Dialect/Birsim/IR/BirsimEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "birsim/Dialect/Birsim/IR/BirsimAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "birsim/Dialect/Birsim/IR/BirsimTypes.cpp.inc"

void BirsimDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "birsim/Dialect/Birsim/IR/BirsimOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "birsim/Dialect/Birsim/IR/BirsimTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "birsim/Dialect/Birsim/IR/BirsimAttrs.cpp.inc"
      >();
  buildDtypeTable();
}

Operation *BirsimDialect::materializeConstant(OpBuilder &builder,
                                              Attribute value, Type type,
                                              Location loc) {
  if (Operation *op = arith::ConstantOp::materialize(builder, value, type, loc))
    return op;
  if (auto typed = dyn_cast<TypedAttr>(value); typed && typed.getType() == type)
    return ConstantOp::create(builder, loc, type, typed);
  return nullptr;
}
