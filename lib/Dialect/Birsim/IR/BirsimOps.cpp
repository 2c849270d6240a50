//===- BirsimOps.cpp - birsim verifiers and effects -----------------------===//
//
// Every legality rule is the core's own check (birsim/Core): the verifier
// reports the simulator's message and names the op, the dtype and the rule.
//
//===----------------------------------------------------------------------===//
#include "birsim/Dialect/Birsim/IR/BirsimOps.h"

#include "birsim/Core/Bfp.h"
#include "birsim/Core/Cast.h"
#include "birsim/Core/Float.h"
#include "birsim/Core/Reduce.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace birsim;

#define GET_OP_CLASSES
#include "birsim/Dialect/Birsim/IR/BirsimOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

/// The comma-separated names of the 8 reducing dtypes, from the core table.
static std::string reducingDtypeNames() {
  std::string names;
  for (int d = 0; d < core::kNumDtypes; ++d)
    if (core::lookupDtype(d)->reduces())
      names += (names.empty() ? "" : ", ") +
               std::string(core::lookupDtype(d)->name);
  return names;
}

/// The dtype of a value-level operand type: a scalar, a vector or a ranked
/// tensor whose element type is a bir::Dtype.
static FailureOr<const core::DtypeInfo *> verifyValueType(Operation *op,
                                                              Type type) {
  if (isa<UnrankedTensorType, MemRefType, UnrankedMemRefType>(type))
    return op->emitOpError("expects a scalar, vector or ranked tensor, got ")
           << type;
  const core::DtypeInfo *info = lookupDtypeInfo(type);
  if (!info)
    return op->emitOpError("element type ")
           << getElementTypeOrSelf(type)
           << " is not a bir::Dtype (SEMANTICS.md section 1)";
  return info;
}

/// A memref operand of an instruction-level op.
static FailureOr<const core::DtypeInfo *>
verifyBufferType(Operation *op, StringRef name, Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !isContiguousRowMajor(memref))
    return op->emitOpError()
           << name
           << " must be a contiguous row-major memref (identity layout, or "
              "row-major strides with any offset), got "
           << type;
  const core::DtypeInfo *info = lookupDtypeInfo(memref.getElementType());
  if (!info)
    return op->emitOpError()
           << name << " element type " << memref.getElementType()
           << " is not a bir::Dtype (SEMANTICS.md section 1)";
  return info;
}

/// `cast_copy_or_accumulate`'s dtype check for `kind` (SEMANTICS.md s.3).
static LogicalResult verifyReducible(Operation *op, MemoryReductionOp kind,
                                     const core::DtypeInfo &info) {
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
                           << " reduce; SEMANTICS.md section 3)";
}

/// AluOpType2MemoryReduction plus the kernel's dtype check.
static LogicalResult verifyCceOp(Operation *op, AluOpType cceOp,
                                 const core::DtypeInfo &info) {
  core::MemoryReductionOp kind;
  core::Status status = core::aluOpToMemoryReduction(int(cceOp), kind);
  if (!status.ok())
    return op->emitOpError() << "cce_op '" << stringifyAluOpType(cceOp)
                             << "' is rejected: " << status.message();
  return verifyReducible(op, MemoryReductionOp(kind), info);
}

//===----------------------------------------------------------------------===//
// Value-level ops
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  FailureOr<const core::DtypeInfo *> info =
      verifyValueType(*this, getType());
  if (failed(info))
    return failure();
  return verifyReducible(*this, getKind(), **info);
}

/// doReduction's AluOpType and element type (inst_visitor.cpp:5365).
static LogicalResult verifyCollective(Operation *op, AluOpType kind,
                                      Type type) {
  uint32_t (*reducer)(uint32_t, uint32_t);
  core::Status status =
      core::resolveCollectiveReducer(int(kind), reducer);
  if (!status.ok())
    return op->emitOpError() << status.message();
  if (!getElementTypeOrSelf(type).isF32())
    return op->emitOpError("collective doReduction reduces float32 only, got ")
           << getElementTypeOrSelf(type)
           << " (sim-core-arithmetic page, doReduction)";
  return success();
}

LogicalResult CollectiveReduceOp::verify() {
  if (failed(verifyValueType(*this, getType())))
    return failure();
  return verifyCollective(*this, getKind(), getType());
}

static unsigned fp8ConfigOrDefault(std::optional<uint32_t> config) {
  return config ? *config : core::kFp8DefaultConfig;
}

unsigned CastOp::getFp8ConfigValue() {
  return fp8ConfigOrDefault(getFp8Config());
}
unsigned CastIntoOp::getFp8ConfigValue() {
  return fp8ConfigOrDefault(getFp8Config());
}

/// The cast engine's checks (SEMANTICS.md section 4) on two element dtypes.
static LogicalResult verifyCastDtypes(Operation *op,
                                      const core::DtypeInfo &src,
                                      const core::DtypeInfo &dst,
                                      unsigned fp8Config) {
  core::Status status =
      core::checkCast(int(src.dtype), int(dst.dtype), fp8Config);
  if (!status.ok())
    return op->emitOpError() << status.message() << " (SEMANTICS.md section 4)";
  return success();
}

LogicalResult CastOp::verify() {
  Type from = getInput().getType(), to = getType();
  FailureOr<const core::DtypeInfo *> src = verifyValueType(*this, from);
  FailureOr<const core::DtypeInfo *> dst = verifyValueType(*this, to);
  if (failed(src) || failed(dst))
    return failure();
  auto fromShaped = dyn_cast<ShapedType>(from);
  auto toShaped = dyn_cast<ShapedType>(to);
  if (bool(fromShaped) != bool(toShaped) ||
      (fromShaped && (fromShaped.getTypeID() != toShaped.getTypeID() ||
                      fromShaped.getShape() != toShaped.getShape())))
    return emitOpError("input ") << from << " and result " << to
                                 << " must have the same shape and container";
  return verifyCastDtypes(*this, **src, **dst, getFp8ConfigValue());
}

/// `tensor<Nx32x32xf32>` and `tensor<N x tile_bytes x i8>` for `format`.
static LogicalResult verifyBfpShapes(Operation *op, BfpFormat format,
                                     ShapedType tiles, ShapedType packed) {
  const core::BfpFormatInfo &info = *core::lookupBfpFormat(int(format));
  int64_t tileBytes = int64_t(info.tileBytes);
  bool tilesOk = tiles.getRank() == 3 && tiles.getDimSize(1) == 32 &&
                 tiles.getDimSize(2) == 32 && tiles.getElementType().isF32();
  bool packedOk = packed.getRank() == 2 && packed.getDimSize(1) == tileBytes &&
                  packed.getElementType().isSignlessInteger(8);
  if (!tilesOk)
    return op->emitOpError("tiles must be ")
           << (isa<MemRefType>(tiles) ? "memref" : "tensor")
           << "<Nx32x32xf32>, got " << tiles;
  if (!packedOk)
    return op->emitOpError("packed ")
           << info.name << " tiles must be "
           << (isa<MemRefType>(packed) ? "memref" : "tensor") << "<Nx"
           << tileBytes << "xi8> (64 exponent bytes + datums per tile), got "
           << packed;
  if (tiles.getDimSize(0) != packed.getDimSize(0))
    return op->emitOpError("tile count differs: ") << tiles << " vs " << packed;
  return success();
}

LogicalResult BfpPackOp::verify() {
  return verifyBfpShapes(*this, getFormat(), getInput().getType(), getType());
}

LogicalResult BfpUnpackOp::verify() {
  return verifyBfpShapes(*this, getFormat(), getType(), getInput().getType());
}

//===----------------------------------------------------------------------===//
// Instruction-level ops
//===----------------------------------------------------------------------===//

/// Two elementwise buffers of the same shape (and element type, when
/// `sameElementType`); returns their dtypes.
static FailureOr<std::pair<const core::DtypeInfo *,
                           const core::DtypeInfo *>>
verifyBufferPair(Operation *op, Value src, Value dst, bool sameElementType) {
  FailureOr<const core::DtypeInfo *> srcInfo =
      verifyBufferType(op, "src", src.getType());
  FailureOr<const core::DtypeInfo *> dstInfo =
      verifyBufferType(op, "dst", dst.getType());
  if (failed(srcInfo) || failed(dstInfo))
    return failure();
  auto srcType = cast<MemRefType>(src.getType());
  auto dstType = cast<MemRefType>(dst.getType());
  if (srcType.getShape() != dstType.getShape())
    return op->emitOpError("src ")
           << srcType << " and dst " << dstType << " must have the same shape";
  if (sameElementType && srcType.getElementType() != dstType.getElementType())
    return op->emitOpError("src ")
           << srcType << " and dst " << dstType
           << " must have the same element type";
  return std::make_pair(*srcInfo, *dstInfo);
}

LogicalResult DmaCopyOp::verify() {
  auto infos = verifyBufferPair(*this, getSrc(), getDst(),
                                /*sameElementType=*/true);
  if (failed(infos))
    return failure();
  return verifyCceOp(*this, getCceOp(), *infos->second);
}

template <typename IndirectOp>
static LogicalResult verifyIndirectSave(IndirectOp op) {
  FailureOr<const core::DtypeInfo *> src =
      verifyBufferType(op, "src", op.getSrc().getType());
  FailureOr<const core::DtypeInfo *> dst =
      verifyBufferType(op, "dst", op.getDst().getType());
  if (failed(src) || failed(dst))
    return failure();
  auto srcType = cast<MemRefType>(op.getSrc().getType());
  auto indexType = dyn_cast<MemRefType>(op.getIndices().getType());
  if (srcType.getRank() != 1)
    return op.emitOpError("src must be 1-D, got ") << srcType;
  if (!indexType || indexType.getRank() != 1 ||
      !indexType.getElementType().isInteger(64) ||
      !isContiguousRowMajor(indexType))
    return op.emitOpError("indices must be a contiguous memref<?xi64>, got ")
           << op.getIndices().getType();
  if (!ShapedType::isDynamic(srcType.getDimSize(0)) &&
      !ShapedType::isDynamic(indexType.getDimSize(0)) &&
      srcType.getDimSize(0) != indexType.getDimSize(0))
    return op.emitOpError("has ")
           << srcType.getDimSize(0) << " source elements but "
           << indexType.getDimSize(0) << " indices";
  if ((*src)->dtype != (*dst)->dtype)
    return op.emitOpError("src element type ")
           << srcType.getElementType() << " differs from dst element type "
           << cast<MemRefType>(op.getDst().getType()).getElementType();
  return verifyCceOp(op, op.getCceOp(), **dst);
}

LogicalResult IndirectSaveOp::verify() { return verifyIndirectSave(*this); }
LogicalResult IndirectSaveAccumulateOp::verify() {
  return verifyIndirectSave(*this);
}

using EffectList =
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>;

/// Reads of `reads`, writes of `writes` (an in-place update is in both).
static void addEffects(EffectList &effects, ArrayRef<OpOperand *> reads,
                       ArrayRef<OpOperand *> writes) {
  for (OpOperand *operand : reads)
    effects.emplace_back(MemoryEffects::Read::get(), operand,
                         SideEffects::DefaultResource::get());
  for (OpOperand *operand : writes)
    effects.emplace_back(MemoryEffects::Write::get(), operand,
                         SideEffects::DefaultResource::get());
}

void DmaCopyOp::getEffects(EffectList &effects) {
  addEffects(effects, {&getSrcMutable(), &getDstMutable()}, {&getDstMutable()});
}
void IndirectSaveOp::getEffects(EffectList &effects) {
  addEffects(effects,
             {&getSrcMutable(), &getIndicesMutable(), &getDstMutable()},
             {&getDstMutable()});
}
void IndirectSaveAccumulateOp::getEffects(EffectList &effects) {
  addEffects(effects,
             {&getSrcMutable(), &getIndicesMutable(), &getDstMutable()},
             {&getDstMutable()});
}

//===----------------------------------------------------------------------===//
// Buffer forms
//===----------------------------------------------------------------------===//

/// The two buffers of an in-place reduce form.
static FailureOr<const core::DtypeInfo *>
verifySameBuffers(Operation *op, Value dst, Value src) {
  FailureOr<const core::DtypeInfo *> dstInfo =
      verifyBufferType(op, "dst", dst.getType());
  if (failed(dstInfo) || failed(verifyBufferType(op, "src", src.getType())))
    return failure();
  return dstInfo; // equal types: AllTypesMatch
}

LogicalResult ReduceIntoOp::verify() {
  FailureOr<const core::DtypeInfo *> info =
      verifySameBuffers(*this, getDst(), getSrc());
  if (failed(info))
    return failure();
  return verifyReducible(*this, getKind(), **info);
}

LogicalResult CollectiveReduceIntoOp::verify() {
  if (failed(verifySameBuffers(*this, getAcc(), getX())))
    return failure();
  return verifyCollective(*this, getKind(), getAcc().getType());
}

LogicalResult CastIntoOp::verify() {
  auto infos = verifyBufferPair(*this, getSrc(), getDst(),
                                /*sameElementType=*/false);
  if (failed(infos))
    return failure();
  return verifyCastDtypes(*this, *infos->first, *infos->second,
                          getFp8ConfigValue());
}

/// The buffers of bfp_pack_into / bfp_unpack_into.
static LogicalResult verifyBfpBuffers(Operation *op, BfpFormat format,
                                      Value tiles, Value packed) {
  if (failed(verifyBufferType(op, "tiles", tiles.getType())) ||
      failed(verifyBufferType(op, "packed", packed.getType())))
    return failure();
  return verifyBfpShapes(op, format, cast<ShapedType>(tiles.getType()),
                         cast<ShapedType>(packed.getType()));
}

LogicalResult BfpPackIntoOp::verify() {
  return verifyBfpBuffers(*this, getFormat(), getTiles(), getPacked());
}

LogicalResult BfpUnpackIntoOp::verify() {
  return verifyBfpBuffers(*this, getFormat(), getTiles(), getPacked());
}

void ReduceIntoOp::getEffects(EffectList &effects) {
  addEffects(effects, {&getSrcMutable(), &getDstMutable()}, {&getDstMutable()});
}
void CollectiveReduceIntoOp::getEffects(EffectList &effects) {
  addEffects(effects, {&getXMutable(), &getAccMutable()}, {&getAccMutable()});
}
void CastIntoOp::getEffects(EffectList &effects) {
  addEffects(effects, {&getSrcMutable()}, {&getDstMutable()});
}
void BfpPackIntoOp::getEffects(EffectList &effects) {
  addEffects(effects, {&getTilesMutable()}, {&getPackedMutable()});
}
void BfpUnpackIntoOp::getEffects(EffectList &effects) {
  addEffects(effects, {&getPackedMutable()}, {&getTilesMutable()});
}
