//===- BirsimOps.cpp - birsim verifiers and the fp8_config syntax ---------===//
//
// Operand types, shapes and memory effects are declared in BirsimOps.td.
// What remains here are the simulator's own legality rules: each calls the
// core's check (birsim/Core) and reports its message, naming the op, the
// dtype and the rule.
//
//===----------------------------------------------------------------------===//
#include "birsim/Dialect/Birsim/IR/BirsimOps.h"

#include "birsim/Core/Bfp.h"
#include "birsim/Core/Cast.h"
#include "birsim/Core/Float.h"
#include "birsim/Core/Reduce.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace birsim;

#define GET_OP_CLASSES
#include "birsim/Dialect/Birsim/IR/BirsimOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Simulator rules
//===----------------------------------------------------------------------===//

/// The comma-separated names of the reducing dtypes, from the core table.
static std::string reducingDtypeNames() {
  std::string names;
  for (int d = 0; d < core::kNumDtypes; ++d)
    if (core::lookupDtype(d)->reduces())
      names += (names.empty() ? "" : ", ") +
               std::string(core::lookupDtype(d)->name);
  return names;
}

static const core::DtypeInfo &dtypeOf(Value value) {
  return *lookupDtypeInfo(value.getType()); // a Birsim_Dtype constraint holds
}

/// `cast_copy_or_accumulate`'s dtype check for `kind` (docs/Semantics.md
/// section 3).
static LogicalResult verifyReducible(Operation *op, MemoryReductionOp kind,
                                     Value operand) {
  const core::DtypeInfo &info = dtypeOf(operand);
  core::Reducer reducer;
  const core::DtypeInfo *resolved;
  core::Status status =
      core::resolveReducer(int(kind), int(info.dtype), reducer, resolved);
  if (status.ok())
    return success();
  return op->emitOpError() << "'" << stringifyMemoryReductionOp(kind)
                           << "' on dtype " << info.name << ": "
                           << status.message() << " (only "
                           << reducingDtypeNames()
                           << " reduce; docs/Semantics.md section 3)";
}

/// AluOpType2MemoryReduction, then the kernel's dtype check.
static LogicalResult verifyCceOp(Operation *op, AluOpType cceOp,
                                 Value operand) {
  core::MemoryReductionOp kind;
  core::Status status = core::aluOpToMemoryReduction(int(cceOp), kind);
  if (!status.ok())
    return op->emitOpError() << "cce_op '" << stringifyAluOpType(cceOp)
                             << "' is rejected: " << status.message();
  return verifyReducible(op, MemoryReductionOp(kind), operand);
}

/// doReduction's AluOpType (inst_visitor.cpp:5365).
static LogicalResult verifyCollective(Operation *op, AluOpType kind) {
  uint32_t (*reducer)(uint32_t, uint32_t);
  core::Status status = core::resolveCollectiveReducer(int(kind), reducer);
  if (!status.ok())
    return op->emitOpError() << status.message();
  return success();
}

/// The cast engine's dtype checks (docs/Semantics.md section 4).
static LogicalResult verifyCast(Operation *op, Value src, Value dst,
                                Fp8Config config) {
  core::Status status = core::checkCast(
      int(dtypeOf(src).dtype), int(dtypeOf(dst).dtype), unsigned(config));
  if (!status.ok())
    return op->emitOpError()
           << status.message() << " (docs/Semantics.md section 4)";
  return success();
}

/// Tile counts agree and each packed row holds one tile of `format`
/// (docs/Semantics.md section 5); ranks, element types and the 32x32 tile
/// shape are ODS constraints.
static LogicalResult verifyBfpShapes(Operation *op, BfpFormat format,
                                     ShapedType tiles, ShapedType packed) {
  const core::BfpFormatInfo &info = *core::lookupBfpFormat(int(format));
  int64_t tileBytes = int64_t(info.tileBytes);
  if (packed.getDimSize(1) != tileBytes)
    return op->emitOpError("packed ")
           << info.name << " tiles must be "
           << (isa<MemRefType>(packed) ? "memref" : "tensor") << "<Nx"
           << tileBytes << "xi8> (64 exponent bytes + datums per tile), got "
           << packed;
  if (tiles.getDimSize(0) != packed.getDimSize(0))
    return op->emitOpError("tile count differs: ") << tiles << " vs " << packed;
  return success();
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  return verifyReducible(*this, getKind(), getResult());
}

LogicalResult CollectiveReduceOp::verify() {
  return verifyCollective(*this, getKind());
}

LogicalResult CastOp::verify() {
  return verifyCast(*this, getInput(), getResult(), getFp8Config());
}

LogicalResult BfpPackOp::verify() {
  return verifyBfpShapes(*this, getFormat(), getInput().getType(), getType());
}

LogicalResult BfpUnpackOp::verify() {
  return verifyBfpShapes(*this, getFormat(), getType(), getInput().getType());
}

LogicalResult DmaCopyOp::verify() {
  return verifyCceOp(*this, getCceOp(), getDst());
}

/// One index per source element (sizes known at compile time).
template <typename IndirectOp>
static LogicalResult verifyIndirectSave(IndirectOp op) {
  int64_t sources = op.getSrc().getType().getDimSize(0);
  int64_t indices = op.getIndices().getType().getDimSize(0);
  if (!ShapedType::isDynamic(sources) && !ShapedType::isDynamic(indices) &&
      sources != indices)
    return op.emitOpError("has ")
           << sources << " source elements but " << indices << " indices";
  return verifyCceOp(op, op.getCceOp(), op.getDst());
}

LogicalResult IndirectSaveOp::verify() { return verifyIndirectSave(*this); }
LogicalResult IndirectSaveAccumulateOp::verify() {
  return verifyIndirectSave(*this);
}

LogicalResult ReduceIntoOp::verify() {
  return verifyReducible(*this, getKind(), getDst());
}

LogicalResult CollectiveReduceIntoOp::verify() {
  return verifyCollective(*this, getKind());
}

LogicalResult CastIntoOp::verify() {
  return verifyCast(*this, getSrc(), getDst(), getFp8Config());
}

LogicalResult BfpPackIntoOp::verify() {
  return verifyBfpShapes(*this, getFormat(), getTiles().getType(),
                         getPacked().getType());
}

LogicalResult BfpUnpackIntoOp::verify() {
  return verifyBfpShapes(*this, getFormat(), getTiles().getType(),
                         getPacked().getType());
}

//===----------------------------------------------------------------------===//
// fp8_config syntax: `fp8_config<...>` before the attribute dictionary, or
// the simulator's integer word `{fp8_config = N : i32}` inside it
//===----------------------------------------------------------------------===//

static constexpr StringLiteral kFp8ConfigName = "fp8_config";

/// Parses `(fp8_config<flags>)? attr-dict` into `result`.
static ParseResult parseFp8ConfigAndAttrDict(OpAsmParser &parser,
                                             OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  Fp8ConfigAttr config;
  if (succeeded(parser.parseOptionalKeyword(kFp8ConfigName)) &&
      parser.parseCustomAttributeWithFallback(config))
    return failure();
  SMLoc dictLoc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  if (Attribute inDict = result.attributes.erase(kFp8ConfigName)) {
    if (config)
      return parser.emitError(dictLoc, "fp8_config is given twice");
    if (auto word = dyn_cast<IntegerAttr>(inDict)) {
      uint64_t bits = word.getValue().getZExtValue();
      if (core::Status s = core::checkFp8Config(bits))
        return parser.emitError(dictLoc) << s.message();
      auto flags = Fp8Config::none;
      if (bits & core::kFp8Saturate)
        flags = flags | Fp8Config::saturate;
      if (bits & core::kFp8NanSuppress)
        flags = flags | Fp8Config::nan_suppress;
      config = Fp8ConfigAttr::get(ctx, flags);
    } else if (!(config = dyn_cast<Fp8ConfigAttr>(inDict))) {
      return parser.emitError(dictLoc, "fp8_config must be an i32 config word "
                                       "or #birsim.fp8_config<...>, got ")
             << inDict;
    }
  }
  if (config)
    result.addAttribute(kFp8ConfigName, config);
  return success();
}

/// Prints ` fp8_config<flags>` unless it is the default, then the
/// discardable attributes.
static void printFp8ConfigAndAttrDict(OpAsmPrinter &printer, Operation *op,
                                      Fp8Config config) {
  if (config != Fp8Config::saturate) {
    printer << " " << kFp8ConfigName;
    printer.printStrippedAttrOrType(Fp8ConfigAttr::get(op->getContext(), config));
  }
  printer.printOptionalAttrDict(op->getAttrs(), {kFp8ConfigName});
}

/// `%input fp8_config<...>? attr-dict : type to type`
ParseResult CastOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand input;
  Type inputType, resultType;
  if (parser.parseOperand(input) ||
      parseFp8ConfigAndAttrDict(parser, result) || parser.parseColon() ||
      parser.parseType(inputType) || parser.parseKeyword("to") ||
      parser.parseType(resultType) ||
      parser.resolveOperand(input, inputType, result.operands))
    return failure();
  result.addTypes(resultType);
  return success();
}

void CastOp::print(OpAsmPrinter &printer) {
  printer << " " << getInput();
  printFp8ConfigAndAttrDict(printer, *this, getFp8Config());
  printer << " : " << getInput().getType() << " to " << getType();
}

/// `%src, %dst fp8_config<...>? attr-dict : type to type`
ParseResult CastIntoOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand src, dst;
  Type srcType, dstType;
  if (parser.parseOperand(src) || parser.parseComma() ||
      parser.parseOperand(dst) || parseFp8ConfigAndAttrDict(parser, result) ||
      parser.parseColon() || parser.parseType(srcType) ||
      parser.parseKeyword("to") || parser.parseType(dstType) ||
      parser.resolveOperand(src, srcType, result.operands) ||
      parser.resolveOperand(dst, dstType, result.operands))
    return failure();
  return success();
}

void CastIntoOp::print(OpAsmPrinter &printer) {
  printer << " " << getSrc() << ", " << getDst();
  printFp8ConfigAndAttrDict(printer, *this, getFp8Config());
  printer << " : " << getSrc().getType() << " to " << getDst().getType();
}
