//===- BirsimToLLVM.cpp - birsim ops to runtime calls ---------------------===//
//
// Every birsim op becomes one call into the fixed C ABI of
// libbirsim_runtime.so (include/birsim/Runtime/Runtime.h) plus a status
// check; the arithmetic itself stays in the core.
//
//===----------------------------------------------------------------------===//
#include "RuntimeCall.h"
#include "birsim/Conversion/Passes.h"
#include "birsim/Core/Bfp.h"
#include "birsim/Core/Reduce.h"
#include "birsim/Dialect/Birsim/IR/BirsimOps.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/xxhash.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace birsim {
#define GEN_PASS_DEF_CONVERTBIRSIMTOLLVMPASS
#include "birsim/Conversion/Passes.h.inc"
} // namespace birsim

using namespace mlir;
using namespace birsim;
using namespace birsim::lowering;

namespace {

static int dtypeOf(Value value) {
  return int(lookupDtypeInfo(value.getType())->dtype);
}

/// Elements in a scalar (1) or vector value.
static int64_t valueCount(Type type) {
  std::optional<uint64_t> count = checkedElementCount(type);
  assert(count && "checkRuntimeOperands checks the static sizes");
  return int64_t(*count);
}

/// The MemoryReductionOp AluOpType2MemoryReduction gives a verified cce_op.
static int memoryReductionOf(AluOpType cceOp) {
  core::MemoryReductionOp kind = core::MemoryReductionOp::copy;
  (void)core::aluOpToMemoryReduction(int(cceOp), kind);
  return int(kind);
}

//===----------------------------------------------------------------------===//
// Each op's call: the function and the value of each role
//===----------------------------------------------------------------------===//

using R = ArgRole;

// Buffer forms and instruction-level ops: pointers + element counts.

/// `dst[i] = reduce(dst[i], src[i])` over two buffers.
static RuntimeFn fillAccumulate(RuntimeCall &call, int kind, Value dst,
                                Value dstDesc, Value src, Value srcDesc) {
  call.requireSameCount(dst, dstDesc, src, srcDesc);
  call.setI32(R::Kind, kind);
  call.set(R::Dst, call.buffer(dst, dstDesc));
  call.set(R::Src, call.buffer(src, srcDesc));
  call.setI32(R::Dtype, dtypeOf(dst));
  call.set(R::Count, call.elementCount(dst, dstDesc));
  return RuntimeFn::birsim_accumulate;
}

static RuntimeFn fillCall(ReduceIntoOp op, ReduceIntoOp::Adaptor a,
                          RuntimeCall &call) {
  return fillAccumulate(call, int(op.getKind()), op.getDst(), a.getDst(),
                        op.getSrc(), a.getSrc());
}

static RuntimeFn fillCall(DmaCopyOp op, DmaCopyOp::Adaptor a,
                          RuntimeCall &call) {
  return fillAccumulate(call, memoryReductionOf(op.getCceOp()), op.getDst(),
                        a.getDst(), op.getSrc(), a.getSrc());
}

static RuntimeFn fillCall(CollectiveReduceIntoOp op,
                          CollectiveReduceIntoOp::Adaptor a,
                          RuntimeCall &call) {
  call.requireSameCount(op.getAcc(), a.getAcc(), op.getX(), a.getX());
  call.setI32(R::Kind, int(op.getKind()));
  call.set(R::Dst, call.buffer(op.getAcc(), a.getAcc()));
  call.set(R::Src, call.buffer(op.getX(), a.getX()));
  call.set(R::Count, call.elementCount(op.getAcc(), a.getAcc()));
  return RuntimeFn::birsim_collective_reduce;
}

static RuntimeFn fillCall(CastIntoOp op, CastIntoOp::Adaptor a,
                          RuntimeCall &call) {
  call.requireSameCount(op.getSrc(), a.getSrc(), op.getDst(), a.getDst());
  call.setI32(R::SrcDtype, dtypeOf(op.getSrc()));
  call.set(R::Src, call.buffer(op.getSrc(), a.getSrc()));
  call.setI32(R::DstDtype, dtypeOf(op.getDst()));
  call.set(R::Dst, call.buffer(op.getDst(), a.getDst()));
  call.set(R::Count, call.elementCount(op.getSrc(), a.getSrc()));
  call.setI32(R::Fp8Config, int64_t(op.getFp8Config()));
  return RuntimeFn::birsim_cast;
}

/// The DMA's narrowing (docs/Semantics.md section 8).
template <typename DmaOp>
static void fillNarrowing(DmaOp op, RuntimeCall &call) {
  call.setI32(R::Fp8Config, int64_t(op.getFp8Config()));
  call.setI32(R::Rounding, int64_t(op.getRounding()));
  call.set(R::Seed, call.constant(64, op.getSeed()));
}

/// `dst = srcs[0] op srcs[1] ...`: the sources' pointers and dtypes as
/// arrays, as birsim_dma_compute takes them.
static RuntimeFn fillDmaCompute(RuntimeCall &call, MemoryReductionOp kind,
                                ArrayRef<Value> pointers, ValueRange srcs) {
  SmallVector<Value> dtypes;
  for (Value src : srcs)
    dtypes.push_back(call.constant(32, dtypeOf(src)));
  call.setI32(R::Kind, int(kind));
  call.set(R::Srcs, call.array(pointers));
  call.set(R::SrcDtypes, call.array(dtypes));
  call.set(R::SrcCount, call.constant(64, int64_t(pointers.size())));
  return RuntimeFn::birsim_dma_compute;
}

static RuntimeFn fillCall(DmaComputeIntoOp op, DmaComputeIntoOp::Adaptor a,
                          RuntimeCall &call) {
  SmallVector<Value> pointers;
  for (auto [src, desc] : llvm::zip(op.getSrcs(), a.getSrcs())) {
    call.requireSameCount(src, desc, op.getDst(), a.getDst());
    pointers.push_back(call.buffer(src, desc));
  }
  call.set(R::Dst, call.buffer(op.getDst(), a.getDst()));
  call.setI32(R::DstDtype, dtypeOf(op.getDst()));
  call.set(R::Count, call.elementCount(op.getDst(), a.getDst()));
  fillNarrowing(op, call);
  return fillDmaCompute(call, op.getKind(), pointers, op.getSrcs());
}

static RuntimeFn fillCall(DmaScatterOp op, DmaScatterOp::Adaptor a,
                          RuntimeCall &call) {
  call.requireSameCount(op.getSrc(), a.getSrc(), op.getIndices(),
                        a.getIndices());
  call.setI32(R::Kind, int(op.getKind()));
  call.set(R::Dst, call.buffer(op.getDst(), a.getDst()));
  call.set(R::DstCount, call.elementCount(op.getDst(), a.getDst()));
  call.setI32(R::DstDtype, dtypeOf(op.getDst()));
  call.set(R::Src, call.buffer(op.getSrc(), a.getSrc()));
  call.setI32(R::SrcDtype, dtypeOf(op.getSrc()));
  call.set(R::Indices, call.buffer(op.getIndices(), a.getIndices()));
  call.set(R::Count, call.elementCount(op.getSrc(), a.getSrc()));
  fillNarrowing(op, call);
  return RuntimeFn::birsim_scatter_accumulate_mixed;
}

static RuntimeFn fillCall(TtFp8EncodeIntoOp op, TtFp8EncodeIntoOp::Adaptor a,
                          RuntimeCall &call) {
  call.requireSameCount(op.getSrc(), a.getSrc(), op.getDst(), a.getDst());
  call.setI32(R::Kind, int64_t(op.getPolicy()));
  call.set(R::Src, call.buffer(op.getSrc(), a.getSrc()));
  call.set(R::Count, call.elementCount(op.getSrc(), a.getSrc()));
  call.set(R::Dst, call.buffer(op.getDst(), a.getDst()));
  return RuntimeFn::birsim_tt_fp8_encode;
}

static RuntimeFn fillCall(TtFp8DecodeIntoOp op, TtFp8DecodeIntoOp::Adaptor a,
                          RuntimeCall &call) {
  call.requireSameCount(op.getSrc(), a.getSrc(), op.getDst(), a.getDst());
  call.setI32(R::Kind, int64_t(op.getPolicy()));
  call.set(R::Src, call.buffer(op.getSrc(), a.getSrc()));
  call.set(R::Count, call.elementCount(op.getSrc(), a.getSrc()));
  call.set(R::Dst, call.buffer(op.getDst(), a.getDst()));
  return RuntimeFn::birsim_tt_fp8_decode;
}

static RuntimeFn fillCall(TensixEltwiseIntoOp op,
                          TensixEltwiseIntoOp::Adaptor a, RuntimeCall &call) {
  call.requireSameCount(op.getLhs(), a.getLhs(), op.getRhs(), a.getRhs());
  call.requireSameCount(op.getLhs(), a.getLhs(), op.getDst(), a.getDst());
  call.setI32(R::Arch, int64_t(op.getArch()));
  call.setI32(R::Kind, int64_t(op.getOp()));
  call.setI32(R::Phases, int64_t(op.getFidelity()));
  call.setI32(R::DestKind, int64_t(op.getDest()));
  call.setI32(R::SrcFormat, int64_t(op.getSrc()));
  call.set(R::Src, call.buffer(op.getLhs(), a.getLhs()));
  call.set(R::Src2, call.buffer(op.getRhs(), a.getRhs()));
  call.set(R::Count, call.elementCount(op.getLhs(), a.getLhs()));
  call.set(R::Dst, call.buffer(op.getDst(), a.getDst()));
  call.setI32(R::Value, op.getAccumulate() ? 1 : 0);
  return RuntimeFn::birsim_tensix_eltwise;
}

static RuntimeFn fillCall(TensixMatmulIntoOp op, TensixMatmulIntoOp::Adaptor a,
                          RuntimeCall &call) {
  auto [m, k, n] =
      tensixMatmulExtent(op.getIn0().getType(), op.getIn1().getType());
  call.setI32(R::Arch, int64_t(op.getArch()));
  call.setI32(R::Phases, int64_t(op.getFidelity()));
  call.setI32(R::DestKind, int64_t(op.getDest()));
  call.setI32(R::SrcFormat, int64_t(op.getIn0Src()));
  call.setI32(R::SrcFormat2, int64_t(op.getIn1Src()));
  call.set(R::Src, call.buffer(op.getIn0(), a.getIn0()));
  call.set(R::Src2, call.buffer(op.getIn1(), a.getIn1()));
  call.set(R::Rows, call.constant(64, int64_t(m))); // static: D50
  call.set(R::Inner, call.constant(64, int64_t(k)));
  call.set(R::Cols, call.constant(64, int64_t(n)));
  call.set(R::Dst, call.buffer(op.getDst(), a.getDst()));
  call.setI32(R::Value, op.getAccumulate() ? 1 : 0);
  return RuntimeFn::birsim_tensix_matmul;
}

static RuntimeFn fillCall(TensixPackIntoOp op, TensixPackIntoOp::Adaptor a,
                          RuntimeCall &call) {
  call.requireSameCount(op.getInput(), a.getInput(), op.getDst(), a.getDst());
  call.setI32(R::Arch, int64_t(op.getArch()));
  call.setI32(R::DestKind, int64_t(op.getDest()));
  call.set(R::Src, call.buffer(op.getInput(), a.getInput()));
  call.set(R::Count, call.elementCount(op.getInput(), a.getInput()));
  call.setI32(R::DstDtype, dtypeOf(op.getDst()));
  call.set(R::Dst, call.buffer(op.getDst(), a.getDst()));
  call.setI32(R::Value, op.getL1Accumulate() ? 1 : 0);
  return RuntimeFn::birsim_tensix_pack;
}

/// Per-tile mixed BFP's buffer forms: the matrix's rows (leading
/// dimensions folded) and columns from its static shape; the runtime
/// checks the packed side's length against the codes.
template <typename IntoOp>
static RuntimeFn fillMixedCall(IntoOp op, typename IntoOp::Adaptor a,
                               RuntimeCall &call, bool pack) {
  Value matrix = pack ? op.getSrc() : op.getDst(),
        matrixDesc = pack ? a.getSrc() : a.getDst(),
        bytes = pack ? op.getDst() : op.getSrc(),
        bytesDesc = pack ? a.getDst() : a.getSrc();
  auto type = cast<MemRefType>(matrix.getType());
  core::BfpMatrixExtent m = core::bfpMatrixOf(type.getShape().data(),
                                              size_t(type.getRank()));
  call.set(R::Rows, call.constant(64, int64_t(m.rows)));
  call.set(R::Cols, call.constant(64, int64_t(m.cols)));
  call.setI32(R::Flags, op.getTranspose() ? core::kBfpTranspose : 0);
  call.set(R::Codes, call.buffer(op.getCodes(), a.getCodes()));
  call.set(pack ? R::Src : R::Dst, call.buffer(matrix, matrixDesc));
  call.set(pack ? R::Dst : R::Src, call.buffer(bytes, bytesDesc));
  call.set(pack ? R::DstCount : R::Count, call.elementCount(bytes, bytesDesc));
  if (pack)
    call.setI32(R::SrcDtype, dtypeOf(matrix));
  return pack ? RuntimeFn::birsim_bfp_pack_mixed_checked
              : RuntimeFn::birsim_bfp_unpack_mixed_checked;
}
/// What an op needs before its call beyond checkRuntimeOperands: nothing,
/// but for the mixed BFP forms, static shapes of the matrix and the codes:
/// the call's tile count comes from the matrix's type, and the runtime is
/// not given the codes' length (the verifier checks the static ones).
static LogicalResult checkCall(Operation *) { return success(); }
template <typename MixedOp>
static LogicalResult checkMixedCall(MixedOp op, Value matrix) {
  if (cast<MemRefType>(matrix.getType()).hasStaticShape() &&
      op.getCodes().getType().hasStaticShape())
    return success();
  return op.emitOpError("lowers only with static shapes of its matrix and "
                        "codes, ")
         << matrix.getType() << " and " << op.getCodes().getType()
         << ": the call's tiles come from the matrix's type, and the runtime "
            "is not given the codes' length";
}
static LogicalResult checkCall(BfpPackMixedIntoOp op) {
  return checkMixedCall(op, op.getSrc());
}
static LogicalResult checkCall(BfpUnpackMixedIntoOp op) {
  return checkMixedCall(op, op.getDst());
}
static RuntimeFn fillCall(BfpPackMixedIntoOp op, BfpPackMixedIntoOp::Adaptor a,
                          RuntimeCall &call) {
  return fillMixedCall(op, a, call, true);
}
static RuntimeFn fillCall(BfpUnpackMixedIntoOp op,
                          BfpUnpackMixedIntoOp::Adaptor a, RuntimeCall &call) {
  return fillMixedCall(op, a, call, false);
}

/// The BFP family's buffer forms: the core's description of the call
/// (bfpCallOf), the tile count of a tile form from its values' leading size.
static RuntimeFn fillBfpCall(BfpOpInterface op, ValueRange operands,
                             RuntimeCall &call) {
  core::BfpCall spec = bfpCallOf(op);
  Value values = op.getValues(), packed = op.getPacked();
  // Operands: the input (read) first, the output second.
  Value valuesDesc = operands[op.isPack() ? 0 : 1],
        packedDesc = operands[op.isPack() ? 1 : 0];
  call.setI32(R::Where, spec.site);
  call.setI32(R::Kind, spec.format);
  call.setI32(R::TileRows, int64_t(spec.tileRows));
  call.setI32(R::TileCols, int64_t(spec.tileCols));
  call.setI32(R::Flags, spec.flags);
  if (op.isMatrixForm()) {
    call.set(R::Rows, call.constant(64, int64_t(spec.rows)));
    call.set(R::Cols, call.constant(64, int64_t(spec.cols)));
  } else {
    call.requireSameLeadingSize(values, valuesDesc, packed, packedDesc);
    call.set(R::Count, call.leadingSize(values, valuesDesc));
  }
  if (op.isPack())
    call.setI32(R::SrcDtype, dtypeOf(values));
  call.set(op.isPack() ? R::Src : R::Dst, call.buffer(values, valuesDesc));
  call.set(op.isPack() ? R::Dst : R::Src, call.buffer(packed, packedDesc));
  if (op.isMatrixForm())
    return op.isPack() ? RuntimeFn::birsim_bfp_pack_matrix_at
                       : RuntimeFn::birsim_bfp_unpack_matrix_at;
  return op.isPack() ? RuntimeFn::birsim_bfp_pack_at
                     : RuntimeFn::birsim_bfp_unpack_at;
}
template <typename OpTy>
static std::enable_if_t<OpTy::template hasTrait<BfpOpInterface::Trait>(),
                        RuntimeFn>
fillCall(OpTy op, typename OpTy::Adaptor a, RuntimeCall &call) {
  return fillBfpCall(op, a.getOperands(), call);
}

template <typename IndirectOp>
static RuntimeFn fillIndirectCall(IndirectOp op, typename IndirectOp::Adaptor a,
                                  RuntimeCall &call) {
  call.requireSameCount(op.getSrc(), a.getSrc(), op.getIndices(),
                        a.getIndices());
  call.setI32(R::Kind, memoryReductionOf(op.getCceOp()));
  call.set(R::Dst, call.buffer(op.getDst(), a.getDst()));
  call.set(R::DstCount, call.elementCount(op.getDst(), a.getDst()));
  call.set(R::Src, call.buffer(op.getSrc(), a.getSrc()));
  call.set(R::Indices, call.buffer(op.getIndices(), a.getIndices()));
  call.set(R::Count, call.elementCount(op.getSrc(), a.getSrc()));
  call.setI32(R::Dtype, dtypeOf(op.getDst()));
  return RuntimeFn::birsim_scatter_accumulate;
}
static RuntimeFn fillCall(IndirectSaveOp op, IndirectSaveOp::Adaptor a,
                          RuntimeCall &call) {
  return fillIndirectCall(op, a, call);
}
static RuntimeFn fillCall(IndirectSaveAccumulateOp op,
                          IndirectSaveAccumulateOp::Adaptor a,
                          RuntimeCall &call) {
  return fillIndirectCall(op, a, call);
}

// Value-level ops on scalars and vectors: raw bits through stack slots; the
// returned slot holds the result.

static RuntimeFn fillValueCall(ReduceOp op, ReduceOp::Adaptor a,
                               const LLVMTypeConverter &, RuntimeCall &call,
                               Value &result) {
  call.setI32(R::Kind, int(op.getKind()));
  call.set(R::Dst, result = call.spill(a.getDst()));
  call.set(R::Src, call.spill(a.getSrc()));
  call.setI32(R::Dtype, dtypeOf(op.getResult()));
  call.set(R::Count, call.constant(64, valueCount(op.getType())));
  return RuntimeFn::birsim_accumulate;
}

static RuntimeFn fillValueCall(CollectiveReduceOp op,
                               CollectiveReduceOp::Adaptor a,
                               const LLVMTypeConverter &, RuntimeCall &call,
                               Value &result) {
  call.setI32(R::Kind, int(op.getKind()));
  call.set(R::Dst, result = call.spill(a.getAcc()));
  call.set(R::Src, call.spill(a.getX()));
  call.set(R::Count, call.constant(64, valueCount(op.getType())));
  return RuntimeFn::birsim_collective_reduce;
}

static RuntimeFn fillValueCall(CastOp op, CastOp::Adaptor a,
                               const LLVMTypeConverter &converter,
                               RuntimeCall &call, Value &result) {
  call.setI32(R::SrcDtype, dtypeOf(op.getInput()));
  call.set(R::Src, call.spill(a.getInput()));
  call.setI32(R::DstDtype, dtypeOf(op.getResult()));
  call.set(R::Dst,
           result = call.entrySlot(converter.convertType(op.getType())));
  call.set(R::Count, call.constant(64, valueCount(op.getType())));
  call.setI32(R::Fp8Config, int64_t(op.getFp8Config()));
  return RuntimeFn::birsim_cast;
}

static RuntimeFn fillValueCall(DmaComputeOp op, DmaComputeOp::Adaptor a,
                               const LLVMTypeConverter &converter,
                               RuntimeCall &call, Value &result) {
  SmallVector<Value> pointers;
  for (Value src : a.getSrcs())
    pointers.push_back(call.spill(src));
  call.set(R::Dst,
           result = call.entrySlot(converter.convertType(op.getType())));
  call.setI32(R::DstDtype, dtypeOf(op.getResult()));
  call.set(R::Count, call.constant(64, valueCount(op.getType())));
  fillNarrowing(op, call);
  return fillDmaCompute(call, op.getKind(), pointers, op.getSrcs());
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// A side-effecting op on buffers becomes one runtime call.
template <typename OpTy>
struct BufferOpLowering : public ConvertOpToLLVMPattern<OpTy> {
  BufferOpLowering(const LLVMTypeConverter &converter, FidelityLowering fidelity)
      : ConvertOpToLLVMPattern<OpTy>(converter),
        fidelity(fidelity) {}
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRuntimeOperands(op)) || failed(checkCall(op)))
      return failure();
    RuntimeCall call(rewriter, *this->getTypeConverter(), op, fidelity);
    if (failed(call.emit(fillCall(op, adaptor, call))))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
  FidelityLowering fidelity;
};

/// A value-level op on a scalar or vector becomes one runtime call on stack
/// slots and a load of the result. Tensor forms must be bufferized first.
template <typename OpTy>
struct ValueOpLowering : public ConvertOpToLLVMPattern<OpTy> {
  ValueOpLowering(const LLVMTypeConverter &converter, FidelityLowering fidelity)
      : ConvertOpToLLVMPattern<OpTy>(converter),
        fidelity(fidelity) {}
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = this->getTypeConverter()->convertType(op.getType());
    if (isa<TensorType>(op.getType()) || !resultType)
      return rewriter.notifyMatchFailure(op, "bufferize tensor ops first");
    if (failed(checkRuntimeOperands(op)))
      return failure();
    RuntimeCall call(rewriter, *this->getTypeConverter(), op, fidelity);
    Value result;
    if (failed(call.emit(fillValueCall(op, adaptor, *this->getTypeConverter(),
                                       call, result))))
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, resultType, result);
    return success();
  }
  FidelityLowering fidelity;
};

/// An op lowers to a runtime call on buffers where a fillCall overload
/// says which (above), on stack slots where a fillValueCall overload does.
template <typename Op, typename = void>
struct HasBufferCall : std::false_type {};
template <typename Op>
struct HasBufferCall<
    Op, std::void_t<decltype(fillCall(std::declval<Op>(),
                                      std::declval<typename Op::Adaptor>(),
                                      std::declval<RuntimeCall &>()))>>
    : std::true_type {};
template <typename Op, typename = void>
struct HasValueCall : std::false_type {};
template <typename Op>
struct HasValueCall<
    Op, std::void_t<decltype(fillValueCall(
            std::declval<Op>(), std::declval<typename Op::Adaptor>(),
            std::declval<const LLVMTypeConverter &>(),
            std::declval<RuntimeCall &>(), std::declval<Value &>()))>>
    : std::true_type {};

/// One pattern per birsim op that has a call (the ODS op list): a new op
/// lowers once its fill function exists.
template <typename... Ops>
void addRuntimeCallPatterns(const LLVMTypeConverter &converter,
                            RewritePatternSet &patterns,
                            FidelityLowering fidelity) {
  auto add = [&](auto op) {
    using Op = decltype(op);
    if constexpr (HasBufferCall<Op>::value)
      patterns.add<BufferOpLowering<Op>>(converter, fidelity);
    else if constexpr (HasValueCall<Op>::value)
      patterns.add<ValueOpLowering<Op>>(converter, fidelity);
  };
  (add(Ops(nullptr)), ...);
}

struct ConstantOpLowering : public ConvertOpToLLVMPattern<ConstantOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Scalars only: shaped constants bufferize through arith.constant.
    Type type = getTypeConverter()->convertType(op.getType());
    auto integer = dyn_cast<IntegerAttr>(op.getValue());
    if (!type || !integer)
      return rewriter.notifyMatchFailure(op, "only scalar integer constants");
    rewriter.replaceOpWithNewOp<LLVM::ConstantOp>(
        op, type, rewriter.getIntegerAttr(type, integer.getValue()));
    return success();
  }
};

struct BirsimToLLVMDialectInterface : public ConvertToLLVMPatternInterface {
  using ConvertToLLVMPatternInterface::ConvertToLLVMPatternInterface;
  void populateConvertToLLVMConversionPatterns(
      ConversionTarget &target, LLVMTypeConverter &converter,
      RewritePatternSet &patterns) const final {
    target.addIllegalDialect<BirsimDialect>();
    populateBirsimToLLVMConversionPatterns(converter, patterns);
  }
};

struct ConvertBirsimToLLVMPass
    : public ::birsim::impl::ConvertBirsimToLLVMPassBase<
          ConvertBirsimToLLVMPass> {
  using ConvertBirsimToLLVMPassBase::ConvertBirsimToLLVMPassBase;
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    // What no lowering to LLVM can take, named at the first op: birsim's
    // tensor forms have no runtime call (D14); arith and math computations
    // on floats narrower than 16 bits (the fp8 types) have no LLVM type
    // (moving their bits, as bitcast, constant and select do, is fine).
    auto isNarrowFloat = [](Type type) {
      auto f = dyn_cast<FloatType>(getElementTypeOrSelf(type));
      return f && f.getWidth() < 16;
    };
    WalkResult unlowerable = getOperation()->walk([&](Operation *op) {
      if (isa<BirsimDialect>(op->getDialect())) {
        if (!llvm::any_of(op->getOperandTypes(), llvm::IsaPred<TensorType>))
          return failed(checkRuntimeOperands(op)) ? WalkResult::interrupt()
                                                 : WalkResult::advance();
        op->emitError("'")
            << op->getName()
            << "' on tensors has no runtime call: bufferize tensor ops first "
               "(one-shot-bufferize), or run the birsim-to-llvm pipeline, "
               "which does";
        return WalkResult::interrupt();
      }
      StringRef dialect = op->getName().getDialectNamespace();
      if ((dialect != "arith" && dialect != "math") ||
          isa<arith::BitcastOp, arith::ConstantOp, arith::SelectOp>(op) ||
          (llvm::none_of(op->getOperandTypes(), isNarrowFloat) &&
           llvm::none_of(op->getResultTypes(), isNarrowFloat)))
        return WalkResult::advance();
      op->emitError("'")
          << op->getName()
          << "' computes on a float type LLVM does not have, so no "
             "lowering to LLVM can hold it; run --convert-to-birsim first, "
             "which maps the simulator's casts and adds to birsim ops "
             "(docs/Conversions.md)";
      return WalkResult::interrupt();
    });
    if (unlowerable.wasInterrupted())
      return signalPassFailure();
    LLVMConversionTarget target(*context);
    target.addIllegalDialect<BirsimDialect>();
    LLVMTypeConverter converter(context);
    RewritePatternSet patterns(context);
    std::optional<BfpSite> deviceSite = symbolizeBfpSite(fidelityDeviceSite);
    if (!deviceSite || *deviceSite == BfpSite::host) {
      getOperation()->emitError("fidelity-device-site '")
          << fidelityDeviceSite
          << "' is not a device site: device_differs compares the host "
             "with one (a BFP `at` value other than host)";
      return signalPassFailure();
    }
    populateBirsimToLLVMConversionPatterns(
        converter, patterns, {fidelityCounters, int(*deviceSite)});
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void birsim::populateBirsimToLLVMConversionPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns,
    FidelityLowering fidelity) {
  // The dialect's own element types are their raw bits (the dtype table's
  // widths, docs/Semantics.md section 1).
  converter.addConversion([](Type type) -> std::optional<Type> {
    const core::DtypeInfo *info = lookupDtypeInfo(type);
    if (!info || !isa<BirsimDialect>(type.getDialect()))
      return std::nullopt;
    return IntegerType::get(type.getContext(), 8 * info->bytes);
  });
  patterns.add<ConstantOpLowering>(converter);
  addRuntimeCallPatterns<
#define GET_OP_LIST
#include "birsim/Dialect/Birsim/IR/BirsimOps.cpp.inc"
      >(converter, patterns, fidelity);
}

void birsim::registerConvertBirsimToLLVMInterface(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, BirsimDialect *dialect) {
    dialect->addInterfaces<BirsimToLLVMDialectInterface>();
  });
}
