//===- BirsimOps.cpp - birsim verifiers and the fp8_config syntax ---------===//
//
// Operand types, shapes and memory effects are declared in BirsimOps.td.
// What remains here are the simulator's own legality rules: each calls the
// core's check (birsim/Core) and reports its message, naming the op, the
// dtype and the rule.
//
//===----------------------------------------------------------------------===//
#include "birsim/Dialect/Birsim/IR/BirsimOps.h"
#include "birsim/Dialect/Birsim/IR/BirsimLayout.h"

#include "birsim/Core/Bfp.h"
#include "birsim/Core/BfpMixed.h"
#include "birsim/Core/Cast.h"
#include "birsim/Core/DmaCompute.h"
#include "birsim/Core/Float.h"
#include "birsim/Core/Reduce.h"
#include "birsim/Core/Tensix.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace birsim;

#include "birsim/Dialect/Birsim/IR/BirsimInterfaces.cpp.inc"

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

/// The DMA's rules (docs/Semantics.md section 8): 1 to 16 sources of its
/// dtypes, add/min/max (copy too for the scatter), and a narrowing its
/// destination takes.
static LogicalResult verifyDma(Operation *op, MemoryReductionOp kind,
                               bool copyAllowed, ValueRange srcs, Value dst,
                               Fp8Config config, Rounding rounding) {
  if (kind == MemoryReductionOp::copy && !copyAllowed)
    return op->emitOpError("combines sources with add, min or max, not "
                           "'copy', which is birsim.cast "
                           "(docs/Semantics.md section 8)");
  if (srcs.empty() || srcs.size() > core::kMaxDmaSources)
    return op->emitOpError("takes 1 to ")
           << core::kMaxDmaSources << " sources, got " << srcs.size()
           << " (nki.isa.dma_compute's limit)";
  for (auto [i, src] : llvm::enumerate(srcs))
    if (core::Status s = core::checkDmaDtype(int(dtypeOf(src).dtype)))
      return op->emitOpError("source ")
             << i << " element type " << getElementTypeOrSelf(src) << ": "
             << s.message() << " (docs/Semantics.md section 8)";
  core::Narrowing narrowing{unsigned(config), core::Rounding(int(rounding)), 0};
  if (core::Status s = core::checkNarrowing(int(dtypeOf(dst).dtype), narrowing))
    return op->emitOpError("destination element type ")
           << getElementTypeOrSelf(dst) << ": " << s.message()
           << " (docs/Semantics.md section 8)";
  return success();
}

core::BfpCall birsim::bfpCallOf(BfpOpInterface op) {
  core::BfpCall call;
  call.format = int(op.getFormat());
  if (auto at = op->getAttrOfType<BfpSiteAttr>("at"))
    call.site = int(at.getValue());
  for (const core::BfpFlagInfo &flag : core::kBfpFlags)
    if (op->hasAttr(flag.name))
      call.flags |= flag.bits;
  auto values = cast<ShapedType>(op.getValues().getType());
  if (op.isMatrixForm()) {
    call.form = core::BfpForm::Matrix;
    auto tile = op->getAttrOfType<DenseI32ArrayAttr>("tile");
    if (tile && tile.size() == 2) {
      call.tileRows = uint64_t(std::max(tile[0], 0));
      call.tileCols = uint64_t(std::max(tile[1], 0));
    }
    if (values.hasStaticShape()) {
      core::BfpMatrixExtent m =
          core::bfpMatrixOf(values.getShape().data(), values.getRank());
      call.rows = m.rows;
      call.cols = m.cols;
    }
    return call;
  }
  if (values.getRank() == 3 && !values.isDynamicDim(1) &&
      !values.isDynamicDim(2)) {
    call.tileRows = uint64_t(values.getDimSize(1));
    call.tileCols = uint64_t(values.getDimSize(2));
  }
  call.tiles = values.isDynamicDim(0) ? 0 : uint64_t(values.getDimSize(0));
  return call;
}

/// The packed side: one row of the packer's tile bytes per tile.
static LogicalResult verifyPackedRows(BfpOpInterface op,
                                      const core::BfpCall &call,
                                      int64_t tiles) {
  auto packed = cast<ShapedType>(op.getPacked().getType());
  const core::BfpFormatInfo &info = *core::lookupBfpFormat(call.format);
  const core::BfpTileShape &shape =
      *core::lookupBfpTileShape(call.tileRows, call.tileCols);
  unsigned page = core::bfpPageAlignmentOf(call.flags);
  int64_t tileBytes = int64_t(
      core::bfpPageBytes(call.format, call.tileRows, call.tileCols, page));
  if (packed.getDimSize(1) != tileBytes)
    return op->emitOpError("packed ")
           << info.name << " " << shape.rows << "x" << shape.cols
           << " tiles must be "
           << (isa<MemRefType>(packed) ? "memref" : "tensor") << "<Nx"
           << tileBytes << "xi8> ("
           << info.bytesOf(shape.rows, shape.cols) -
                  size_t(shape.values()) * info.datumBits / 8
           << (info.isMx() ? " scale" : " exponent")
           << " bytes + datums per tile"
           << (page ? ", padded to " + std::to_string(page) + " bytes" : "")
           << "), got " << packed;
  if (!ShapedType::isDynamic(tiles) && !packed.isDynamicDim(0) &&
      tiles != packed.getDimSize(0))
    return op->emitOpError("tile count differs: ")
           << tiles << " tiles, " << packed.getDimSize(0) << " packed rows";
  return success();
}

LogicalResult birsim::verifyBfpOp(Operation *operation) {
  auto op = cast<BfpOpInterface>(operation);
  auto values = cast<ShapedType>(op.getValues().getType());
  core::BfpCall call = bfpCallOf(op);
  if (op.isPack() && call.site != int(BfpSite::host)) {
    const core::DtypeInfo *info = lookupDtypeInfo(values.getElementType());
    if (core::Status s = core::bfpCheckSite(call))
      return op->emitOpError() << core::bfpRuleText(s) << ": "
                               << stringifyBfpFormat(op.getFormat()) << " at "
                               << stringifyBfpSite(BfpSite(call.site))
                               << " (docs/Semantics.md section 5)";
    if (core::Status s =
            core::bfpCheckPackAt(call, info ? int(info->dtype) : -1))
      return op->emitOpError()
             << core::bfpRuleText(s) << ": " << values.getElementType()
             << " to " << stringifyBfpFormat(op.getFormat()) << " at "
             << stringifyBfpSite(BfpSite(call.site))
             << " (docs/Semantics.md section 5)";
  } else if (op.isPack()) {
    const core::DtypeInfo *info = lookupDtypeInfo(values.getElementType());
    if (core::Status s = core::bfpCheckInput(info ? int(info->dtype) : -1)) {
      std::string accepted;
      for (core::Dtype d : core::kBfpInputDtypes)
        accepted += std::string(accepted.empty() ? "" : ", ") +
                    core::dtypeInfo(d).mlirSpelling;
      return op->emitOpError("input element type ")
             << values.getElementType() << " is not one BFP packing takes: "
             << accepted << " (docs/Semantics.md section 5)";
    }
    if (core::Status s = core::bfpCheckPackAt(call, int(info->dtype)))
      return op->emitOpError()
             << core::bfpRuleText(s) << ": " << values.getElementType()
             << " to " << stringifyBfpFormat(op.getFormat())
             << " (docs/Semantics.md section 5)";
  }
  if (op.isMatrixForm()) {
    auto tile = op->getAttrOfType<DenseI32ArrayAttr>("tile");
    if (tile.size() != 2)
      return op->emitOpError("tile must be [rows, cols], got ")
             << tile.size() << " values";
    if (!values.hasStaticShape() || values.getRank() < 2)
      return op->emitOpError("matrix must be static of rank 2 or more, got ")
             << values;
  } else if (values.isDynamicDim(1) || values.isDynamicDim(2)) {
    return op->emitOpError("tiles must have a static R x C shape, got ")
           << values;
  }
  uint64_t tiles = 0;
  if (core::Status s = core::bfpCheckCall(call, &tiles)) {
    InFlightDiagnostic error = op->emitOpError()
                               << core::bfpRuleText(s) << ": " << values;
    if (op.isMatrixForm())
      error << " in " << call.tileRows << "x" << call.tileCols << " tiles";
    return error << " (docs/Semantics.md section 5)";
  }
  return verifyPackedRows(op, call,
                          op.isMatrixForm() || !values.isDynamicDim(0)
                              ? int64_t(tiles)
                              : ShapedType::kDynamic);
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

LogicalResult DmaComputeOp::verify() {
  auto containerOf = [](Type type) {
    return isa<TensorType>(type) ? 1 : isa<VectorType>(type) ? 2 : 0;
  };
  for (Value src : getSrcs())
    if (containerOf(src.getType()) != containerOf(getType()))
      return emitOpError("sources and result must all be tensors, vectors "
                         "or scalars, got ")
             << src.getType() << " and " << getType();
  return verifyDma(*this, getKind(), false, getSrcs(), getResult(),
                   getFp8Config(), getRounding());
}

LogicalResult DmaComputeIntoOp::verify() {
  auto dst = cast<MemRefType>(getDst().getType());
  for (Value src : getSrcs()) {
    auto type = cast<MemRefType>(src.getType());
    if (type.hasStaticShape() && dst.hasStaticShape() &&
        checkedElementCount(type) != checkedElementCount(dst))
      return emitOpError("source ") << type << " and destination " << dst
                                    << " differ in element count";
  }
  return verifyDma(*this, getKind(), false, getSrcs(), getDst(), getFp8Config(),
                   getRounding());
}

LogicalResult DmaScatterOp::verify() {
  int64_t sources = getSrc().getType().getDimSize(0);
  int64_t indices = getIndices().getType().getDimSize(0);
  if (!ShapedType::isDynamic(sources) && !ShapedType::isDynamic(indices) &&
      sources != indices)
    return emitOpError("has ")
           << sources << " source elements but " << indices << " indices";
  return verifyDma(*this, getKind(), true, getSrc(), getDst(), getFp8Config(),
                   getRounding());
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

//===----------------------------------------------------------------------===//
// The Tensix FPU and packer (docs/Semantics.md section 7)
//===----------------------------------------------------------------------===//

/// The element type a Dest kind's values have (core::tensixDestDtype).
static Type destElementType(MLIRContext *ctx, TensixDest dest) {
  return getElementType(ctx, core::tensixDestDtype(core::TensixDest(dest)));
}

static LogicalResult verifyDestType(Operation *op, TensixDest dest,
                                    Type type, StringRef what) {
  Type want = destElementType(op->getContext(), dest);
  Type element = getElementTypeOrSelf(type);
  if (element != want)
    return op->emitOpError("a ")
           << stringifyTensixDest(dest) << " Dest holds " << want
           << " values, but the " << what << " has " << element
           << " (docs/Semantics.md section 7)";
  return success();
}

/// ttsim's rules for the settings (core::checkTensixEltwise) and the
/// Dest's element type.
static LogicalResult verifyTensixEltwise(Operation *op, TensixOp kind,
                                         TensixDest dest, TensixSrc src,
                                         TensixFidelity fidelity,
                                         TensixArch arch, Type destType) {
  core::TensixEltwiseConfig config;
  if (core::Status s = core::checkTensixEltwise(
          int(arch), int(kind), unsigned(fidelity), int(dest), int(src),
          false, config))
    return op->emitOpError()
           << stringifyTensixOp(kind) << " with " << stringifyTensixDest(dest)
           << " Dest and " << stringifyTensixSrc(src) << " Src at "
           << stringifyTensixFidelity(fidelity) << ": " << s.message()
           << " (docs/Semantics.md section 7)";
  return verifyDestType(op, dest, destType, "result");
}

/// ttsim's and the LLK's rules for a matmul (core::checkTensixMatmul), its
/// shapes (static M x K times K x N, multiples of 32: D50) and Dest's
/// element type.
static LogicalResult verifyTensixMatmul(Operation *op, TensixDest dest,
                                        TensixSrc in0Src, TensixSrc in1Src,
                                        TensixFidelity fidelity,
                                        TensixArch arch, Type in0, Type in1,
                                        Type destType) {
  core::TensixMatmulConfig config;
  if (core::Status s = core::checkTensixMatmul(
          int(arch), unsigned(fidelity), int(dest), int(in0Src), int(in1Src),
          false, config))
    return op->emitOpError("with ")
           << stringifyTensixDest(dest) << " Dest and "
           << stringifyTensixSrc(in0Src) << ", " << stringifyTensixSrc(in1Src)
           << " Src at " << stringifyTensixFidelity(fidelity) << ": "
           << s.message() << " (docs/Semantics.md section 7)";
  auto a = cast<ShapedType>(in0), b = cast<ShapedType>(in1),
       d = cast<ShapedType>(destType);
  auto shapeText = [](ShapedType type) {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::interleave(type.getShape(), os,
                     [&](int64_t size) {
                       if (ShapedType::isDynamic(size))
                         os << "?";
                       else
                         os << size;
                     },
                     "x");
    return text;
  };
  if (a.getRank() != 2 || b.getRank() != 2 || d.getRank() != 2 ||
      !a.hasStaticShape() || !b.hasStaticShape() || !d.hasStaticShape())
    return op->emitOpError("takes static 2-D shapes (M x K, K x N -> M x N), "
                           "got ")
           << shapeText(a) << ", " << shapeText(b) << " -> " << shapeText(d)
           << " (docs/Decisions.md D50)";
  int64_t m = a.getDimSize(0), k = a.getDimSize(1), n = b.getDimSize(1);
  if (b.getDimSize(0) != k || d.getDimSize(0) != m || d.getDimSize(1) != n)
    return op->emitOpError("multiplies M x K by K x N into M x N, got ")
           << shapeText(a) << ", " << shapeText(b) << " -> " << shapeText(d);
  if (m % 32 || k % 32 || n % 32)
    return op->emitOpError("runs on 32x32 tiles: M, K and N must be "
                           "multiples of 32, got M = ")
           << m << ", K = " << k << ", N = " << n
           << " (docs/Decisions.md D50)";
  return verifyDestType(op, dest, destType, op->getNumResults() ? "result"
                                                                : "dst");
}

TensixMatmulExtent birsim::tensixMatmulExtent(Type in0, Type in1) {
  auto a = cast<ShapedType>(in0);
  return {size_t(a.getDimSize(0)), size_t(a.getDimSize(1)),
          size_t(cast<ShapedType>(in1).getDimSize(1))};
}

/// The packer's paths (Tensix.def): the core's text lists them.
static LogicalResult verifyTensixPack(Operation *op, TensixDest dest,
                                      TensixArch arch, Type input,
                                      Type output) {
  if (failed(verifyDestType(op, dest, input, "input")))
    return failure();
  const core::DtypeInfo *out = lookupDtypeInfo(getElementTypeOrSelf(output));
  if (core::Status s = core::tensixPack(int(arch), int(dest), nullptr, 0,
                                        out ? int(out->dtype) : -1, nullptr,
                                        false))
    return op->emitOpError("from a ")
           << stringifyTensixDest(dest) << " Dest to "
           << getElementTypeOrSelf(output) << " on "
           << stringifyTensixArch(arch) << ": " << s.message()
           << " (docs/Semantics.md section 7)";
  return success();
}

LogicalResult TensixEltwiseOp::verify() {
  return verifyTensixEltwise(*this, getOp(), getDest(), getSrc(),
                             getFidelity(), getArch(), getType());
}
/// A Tensix buffer form's `dst`, and `input` when it is not contiguous:
/// a strided layout the lowering stages (D72), `dst` with distinct elements.
static LogicalResult verifyTensixBuffer(Operation *op, Value buffer,
                                        StringRef name, bool written) {
  auto type = cast<MemRefType>(buffer.getType());
  if (isContiguousRowMajor(type) ||
      (written ? hasDistinctElements(type) : type.isStrided()))
    return success();
  if (!written)
    return op->emitOpError()
           << name << " of type " << type
           << " has a layout that is not strided: a runtime call takes a "
              "strided buffer (docs/Conversions.md)";
  return op->emitOpError() << name << " of type " << type << ": "
                           << kDistinctElementsRule;
}

LogicalResult TensixEltwiseIntoOp::verify() {
  if (failed(verifyTensixBuffer(*this, getLhs(), "lhs", false)) ||
      failed(verifyTensixBuffer(*this, getRhs(), "rhs", false)) ||
      failed(verifyTensixBuffer(*this, getDst(), "dst", true)))
    return failure();
  return verifyTensixEltwise(*this, getOp(), getDest(), getSrc(),
                             getFidelity(), getArch(), getDst().getType());
}
LogicalResult TensixMatmulOp::verify() {
  return verifyTensixMatmul(*this, getDest(), getIn0Src(), getIn1Src(),
                            getFidelity(), getArch(), getIn0().getType(),
                            getIn1().getType(), getType());
}
LogicalResult TensixMatmulIntoOp::verify() {
  if (failed(verifyTensixBuffer(*this, getIn0(), "in0", false)) ||
      failed(verifyTensixBuffer(*this, getIn1(), "in1", false)) ||
      failed(verifyTensixBuffer(*this, getDst(), "dst", true)))
    return failure();
  return verifyTensixMatmul(*this, getDest(), getIn0Src(), getIn1Src(),
                            getFidelity(), getArch(), getIn0().getType(),
                            getIn1().getType(), getDst().getType());
}
LogicalResult TensixPackOp::verify() {
  return verifyTensixPack(*this, getDest(), getArch(), getInput().getType(),
                          getType());
}
LogicalResult TensixPackIntoOp::verify() {
  if (failed(verifyTensixBuffer(*this, getInput(), "input", false)) ||
      failed(verifyTensixBuffer(*this, getDst(), "dst", true)))
    return failure();
  return verifyTensixPack(*this, getDest(), getArch(), getInput().getType(),
                          getDst().getType());
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

//===----------------------------------------------------------------------===//
// Per-tile mixed BFP (docs/Semantics.md section 5)
//===----------------------------------------------------------------------===//

/// A mixed BFP op's rules on its types: a matrix of whole 32x32 tiles, the
/// code bytes for its tiles, and (codes constant, tensor forms) the packed
/// length they give.
static LogicalResult verifyMixed(Operation *op, ShapedType matrix,
                                 ShapedType codes, ShapedType packed,
                                 Value codesValue) {
  if (matrix.getRank() < 2)
    return op->emitOpError("mixed BFP takes a matrix of rank 2 or more, got ")
           << matrix;
  if (!matrix.hasStaticShape())
    return success();
  core::BfpMatrixExtent m =
      core::bfpMatrixOf(matrix.getShape().data(), matrix.getRank());
  if (m.rows % core::kBfpMixedTileSide || m.cols % core::kBfpMixedTileSide)
    return op->emitOpError("mixed BFP takes whole 32x32 tiles: ")
           << matrix << " folds to " << m.rows << "x" << m.cols
           << " (docs/Semantics.md section 5)";
  uint64_t tiles = (m.rows / core::kBfpMixedTileSide) *
                   (m.cols / core::kBfpMixedTileSide);
  uint64_t codeBytes = core::bfpMixedCodeBytes(tiles);
  if (!codes.isDynamicDim(0) && uint64_t(codes.getDimSize(0)) != codeBytes)
    return op->emitOpError("codes of ")
           << tiles << " tiles are " << codeBytes << " bytes ("
           << core::kBfpMixedCodeBits << " bits a tile), got " << codes;
  DenseIntElementsAttr constantCodes;
  if (codesValue && packed.hasStaticShape() &&
      matchPattern(codesValue, m_Constant(&constantCodes))) {
    SmallVector<uint8_t> bytes;
    for (const APInt &b : constantCodes.getValues<APInt>())
      bytes.push_back(uint8_t(b.getZExtValue()));
    size_t want = core::bfpMixedBytes(bytes.data(), m.rows, m.cols);
    if (uint64_t(packed.getDimSize(0)) != want)
      return op->emitOpError("the codes give ")
             << want << " packed bytes, got " << packed;
  }
  return success();
}

/// A tensor form's result is static: its length follows the codes' values.
static LogicalResult verifyStaticResult(Operation *op, ShapedType type) {
  if (!type.hasStaticShape())
    return op->emitOpError("mixed BFP's result has a static shape (its "
                           "length follows the codes), got ")
           << type;
  return success();
}

LogicalResult BfpPackMixedOp::verify() {
  if (failed(verifyStaticResult(*this, getType())))
    return failure();
  return verifyMixed(*this, getInput().getType(), getCodes().getType(),
                     getType(), getCodes());
}
LogicalResult BfpUnpackMixedOp::verify() {
  if (failed(verifyStaticResult(*this, getType())))
    return failure();
  return verifyMixed(*this, getType(), getCodes().getType(),
                     getInput().getType(), getCodes());
}
LogicalResult BfpPackMixedIntoOp::verify() {
  return verifyMixed(*this, getSrc().getType(), getCodes().getType(),
                     getDst().getType(), Value());
}
LogicalResult BfpUnpackMixedIntoOp::verify() {
  return verifyMixed(*this, getDst().getType(), getCodes().getType(),
                     getSrc().getType(), Value());
}
