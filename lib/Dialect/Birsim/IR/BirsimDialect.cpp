//===- BirsimDialect.cpp - birsim dialect ---------------------------------===//
#include "birsim/Dialect/Birsim/IR/BirsimDialect.h"
#include "birsim/Dialect/Birsim/IR/BirsimSizes.h"
#include "birsim/Dialect/Birsim/IR/BirsimOps.h"

#include "birsim/Core/Tensix.h"
#include "birsim/Core/TtFp8.h"
#include "birsim/Core/Bfp.h"
#include "birsim/Core/Enums.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace birsim;

#include "birsim/Dialect/Birsim/IR/BirsimDialect.cpp.inc"
#include "birsim/Dialect/Birsim/IR/BirsimEnums.cpp.inc"

// The ODS enums (BirsimEnums.td) have exactly the core tables' rows, by
// name and number; DialectTables.EnumsAndDtypesMatchTheCore checks the
// printed names.
#define BIRSIM_CHECK_ENUM_ROW(Enum, Enumerator, Number)                        \
  static_assert(uint32_t(::birsim::Enum::Enumerator) == Number,                \
                #Enum " " #Enumerator " differs from the core table");
#define BIRSIM_MEMORY_REDUCTION_OP(Enumerator, Number, ...)                    \
  BIRSIM_CHECK_ENUM_ROW(MemoryReductionOp, Enumerator, Number)
#include "birsim/Core/MemoryReductionOps.def"
#define BIRSIM_ALU_OP_TYPE(Enumerator, Number, ...)                            \
  BIRSIM_CHECK_ENUM_ROW(AluOpType, Enumerator, Number)
#include "birsim/Core/AluOpTypes.def"
#define BIRSIM_BFP_FORMAT(Enumerator, Number, ...)                             \
  BIRSIM_CHECK_ENUM_ROW(BfpFormat, Enumerator, Number)
#define BIRSIM_MX_FORMAT(Enumerator, Number, ...)                              \
  BIRSIM_CHECK_ENUM_ROW(BfpFormat, Enumerator, Number)
#include "birsim/Core/BfpFormats.def"
#define BIRSIM_BFP_SITE(Enumerator, Number, ...)                               \
  BIRSIM_CHECK_ENUM_ROW(BfpSite, Enumerator, Number)
#include "birsim/Core/BfpSites.def"
#define BIRSIM_TT_FP8_POLICY(Enumerator, Number, ...)                          \
  BIRSIM_CHECK_ENUM_ROW(TtFp8Policy, Enumerator, Number)
#include "birsim/Core/TtFp8Policies.def"
#define BIRSIM_TENSIX_ARCH(Enumerator, Number, ...)                            \
  BIRSIM_CHECK_ENUM_ROW(TensixArch, Enumerator, Number)
#define BIRSIM_TENSIX_OP(Enumerator, Number, ...)                              \
  BIRSIM_CHECK_ENUM_ROW(TensixOp, Enumerator, Number)
#define BIRSIM_TENSIX_DEST(Enumerator, Number, ...)                            \
  BIRSIM_CHECK_ENUM_ROW(TensixDest, Enumerator, Number)
#define BIRSIM_TENSIX_SRC(Enumerator, Number, ...)                             \
  BIRSIM_CHECK_ENUM_ROW(TensixSrc, Enumerator, Number)
#define BIRSIM_TENSIX_FIDELITY(Enumerator, Phases, ...)                        \
  BIRSIM_CHECK_ENUM_ROW(TensixFidelity, Enumerator, Phases)
#include "birsim/Core/Tensix.def"
#undef BIRSIM_CHECK_ENUM_ROW
static_assert(::birsim::getMaxEnumValForTensixArch() + 1 ==
                      std::size(::birsim::core::kTensixArchTable) &&
                  ::birsim::getMaxEnumValForTensixOp() + 1 ==
                      std::size(::birsim::core::kTensixOpTable) &&
                  ::birsim::getMaxEnumValForTensixDest() + 1 ==
                      std::size(::birsim::core::kTensixDestTable) &&
                  ::birsim::getMaxEnumValForTensixSrc() + 1 ==
                      std::size(::birsim::core::kTensixSrcTable),
              "BirsimEnums.td's Tensix enums have rows the core lacks");
static_assert(::birsim::getMaxEnumValForTtFp8Policy() + 1 ==
                  ::birsim::core::kNumTtFp8Policies,
              "BirsimEnums.td's TtFp8Policy has rows the core lacks");
static_assert(::birsim::getMaxEnumValForMemoryReductionOp() + 1 ==
                  ::birsim::core::kNumMemoryReductionOps,
              "BirsimEnums.td's MemoryReductionOp has rows the core lacks");
static_assert(::birsim::getMaxEnumValForAluOpType() + 1 ==
                  ::birsim::core::kNumAluOpTypes,
              "BirsimEnums.td's AluOpType has rows the core lacks");
static_assert(::birsim::getMaxEnumValForBfpFormat() + 1 ==
                  ::birsim::core::kNumBfpFormats,
              "BirsimEnums.td's BfpFormat has rows the core lacks");
static_assert(::birsim::getMaxEnumValForBfpSite() + 1 ==
                  ::birsim::core::kNumBfpSites,
              "BirsimEnums.td's BfpSite has rows the core lacks");

#define GET_ATTRDEF_CLASSES
#include "birsim/Dialect/Birsim/IR/BirsimAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "birsim/Dialect/Birsim/IR/BirsimTypes.cpp.inc"

namespace {
/// Every birsim op may be inlined: none refers to its enclosing region or
/// symbol, so `--inline` moves weights through calls for the folders.
struct BirsimInlinerInterface : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

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
  addInterfaces<BirsimInlinerInterface>();
  buildDtypeTable();
  foldLimit = defaultFoldLimit();
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
