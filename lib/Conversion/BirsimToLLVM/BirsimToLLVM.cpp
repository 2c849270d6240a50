//===- BirsimToLLVM.cpp - birsim ops to runtime calls ---------------------===//
//
// Every birsim op becomes one call into the fixed C ABI of
// libbirsim_runtime.so (include/birsim/Runtime/Runtime.h) plus a status
// check; the arithmetic itself stays in the core.
//
//===----------------------------------------------------------------------===//
#include "birsim/Conversion/Passes.h"
#include "birsim/Core/Reduce.h"
#include "birsim/Dialect/Birsim/IR/BirsimOps.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

namespace birsim {
#define GEN_PASS_DEF_CONVERTBIRSIMTOLLVMPASS
#include "birsim/Conversion/Passes.h.inc"
} // namespace birsim

using namespace mlir;
using namespace birsim;

namespace {

//===----------------------------------------------------------------------===//
// Call emission
//===----------------------------------------------------------------------===//

/// Builds the arguments of one runtime call, in ABI order, and emits it with
/// its status check.
class RuntimeCall {
public:
  RuntimeCall(ConversionPatternRewriter &rewriter,
              const LLVMTypeConverter &converter, Operation *op)
      : rewriter(rewriter), converter(converter), op(op), loc(op->getLoc()) {}

  void addI32(int64_t value) { args.push_back(constant(32, value)); }
  void add(Value value) { args.push_back(value); }

  /// The data pointer (aligned pointer + offset) of a contiguous memref.
  void addPointer(Value memref, Value descriptor) {
    args.push_back(MemRefDescriptor(descriptor)
                       .bufferPtr(rewriter, loc, converter,
                                  cast<MemRefType>(memref.getType())));
  }

  /// The element count of a memref as i64.
  Value elementCount(Value memref, Value descriptor) {
    auto type = cast<MemRefType>(memref.getType());
    int64_t staticCount = 1;
    for (int64_t i = 0; i < type.getRank(); ++i)
      if (!type.isDynamicDim(i))
        staticCount *= type.getDimSize(i);
    Value count = constant(64, staticCount);
    for (int64_t i = 0; i < type.getRank(); ++i)
      if (type.isDynamicDim(i))
        count = LLVM::MulOp::create(
            rewriter, loc, count,
            MemRefDescriptor(descriptor).size(rewriter, loc, i));
    return count;
  }

  /// Size of dimension 0 of a memref as i64 (the BFP tile count).
  Value leadingSize(Value memref, Value descriptor) {
    auto type = cast<MemRefType>(memref.getType());
    if (type.isDynamicDim(0))
      return MemRefDescriptor(descriptor).size(rewriter, loc, 0);
    return constant(64, type.getDimSize(0));
  }

  /// `value` stored to a fresh entry-block slot; its pointer is the
  /// argument.
  Value addSpilled(Value value) {
    Value slot = entrySlot(value.getType());
    LLVM::StoreOp::create(rewriter, loc, value, slot);
    args.push_back(slot);
    return slot;
  }

  /// A fresh entry-block slot of `type` as the argument.
  Value addSlot(Type type) {
    Value slot = entrySlot(type);
    args.push_back(slot);
    return slot;
  }

  Value constant(unsigned width, int64_t value) {
    Type type = rewriter.getIntegerType(width);
    return LLVM::ConstantOp::create(rewriter, loc, type,
                                    rewriter.getIntegerAttr(type, value));
  }

  /// `status = name(args...)`, then `birsim_check_status(status, op name)`.
  LogicalResult emit(StringRef name) {
    auto module = op->getParentOfType<ModuleOp>();
    Type i32 = rewriter.getI32Type();
    SmallVector<Type> types;
    for (Value arg : args)
      types.push_back(arg.getType());
    FailureOr<LLVM::LLVMFuncOp> callee =
        LLVM::lookupOrCreateFn(rewriter, module, name, types, i32);
    auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
    FailureOr<LLVM::LLVMFuncOp> check = LLVM::lookupOrCreateFn(
        rewriter, module, "birsim_check_status", {i32, ptr},
        LLVM::LLVMVoidType::get(rewriter.getContext()));
    if (failed(callee) || failed(check))
      return rewriter.notifyMatchFailure(op, "runtime declaration clash");
    Value status =
        LLVM::CallOp::create(rewriter, loc, *callee, args).getResult();
    LLVM::CallOp::create(rewriter, loc, *check,
                         ValueRange{status, siteString(module)});
    return success();
  }

private:
  /// A stack slot in the enclosing function's entry block, so that loops do
  /// not grow the stack.
  Value entrySlot(Type type) {
    OpBuilder::InsertionGuard guard(rewriter);
    Operation *function =
        op->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
    rewriter.setInsertionPointToStart(&function->getRegion(0).front());
    return LLVM::AllocaOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()), type,
        constant(64, 1));
  }

  /// A private global holding the op name, for the error report.
  Value siteString(ModuleOp module) {
    StringRef text = op->getName().getStringRef();
    std::string symbol = "__birsim_site_" + text.str();
    std::replace(symbol.begin(), symbol.end(), '.', '_');
    auto global = module.lookupSymbol<LLVM::GlobalOp>(symbol);
    if (!global) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      auto type =
          LLVM::LLVMArrayType::get(rewriter.getI8Type(), text.size() + 1);
      global = LLVM::GlobalOp::create(
          rewriter, loc, type, /*isConstant=*/true, LLVM::Linkage::Private,
          symbol, rewriter.getStringAttr(text.str() + '\0'));
    }
    return LLVM::AddressOfOp::create(rewriter, loc, global);
  }

  ConversionPatternRewriter &rewriter;
  const LLVMTypeConverter &converter;
  Operation *op;
  Location loc;
  SmallVector<Value> args;
};

static int dtypeOf(Value value) {
  return int(lookupDtypeInfo(value.getType())->dtype);
}

/// Elements in a scalar (1) or vector value.
static int64_t valueCount(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements();
  return 1;
}

/// The MemoryReductionOp AluOpType2MemoryReduction gives a verified cce_op.
static int memoryReductionOf(AluOpType cceOp) {
  core::MemoryReductionOp kind = core::MemoryReductionOp::copy;
  (void)core::aluOpToMemoryReduction(int(cceOp), kind);
  return int(kind);
}

//===----------------------------------------------------------------------===//
// Arguments of each op's call, in the order of Runtime.h
//===----------------------------------------------------------------------===//

// Buffer forms and instruction-level ops: pointers + element counts.

static StringRef buildCall(ReduceIntoOp op, ReduceIntoOp::Adaptor a,
                           RuntimeCall &call) {
  call.addI32(int(op.getKind()));
  call.addPointer(op.getDst(), a.getDst());
  call.addPointer(op.getSrc(), a.getSrc());
  call.addI32(dtypeOf(op.getDst()));
  call.add(call.elementCount(op.getDst(), a.getDst()));
  return "birsim_accumulate";
}

static StringRef buildCall(CollectiveReduceIntoOp op,
                           CollectiveReduceIntoOp::Adaptor a,
                           RuntimeCall &call) {
  call.addI32(int(op.getKind()));
  call.addPointer(op.getAcc(), a.getAcc());
  call.addPointer(op.getX(), a.getX());
  call.add(call.elementCount(op.getAcc(), a.getAcc()));
  return "birsim_collective_reduce";
}

static StringRef buildCall(CastIntoOp op, CastIntoOp::Adaptor a,
                           RuntimeCall &call) {
  call.addI32(dtypeOf(op.getSrc()));
  call.addPointer(op.getSrc(), a.getSrc());
  call.addI32(dtypeOf(op.getDst()));
  call.addPointer(op.getDst(), a.getDst());
  call.add(call.elementCount(op.getSrc(), a.getSrc()));
  call.addI32(unsigned(op.getFp8Config()));
  return "birsim_cast";
}

static StringRef buildCall(BfpPackIntoOp op, BfpPackIntoOp::Adaptor a,
                           RuntimeCall &call) {
  call.addI32(int(op.getFormat()));
  call.addPointer(op.getTiles(), a.getTiles());
  call.add(call.leadingSize(op.getTiles(), a.getTiles()));
  call.addPointer(op.getPacked(), a.getPacked());
  return "birsim_bfp_pack_tiles";
}

static StringRef buildCall(BfpUnpackIntoOp op, BfpUnpackIntoOp::Adaptor a,
                           RuntimeCall &call) {
  call.addI32(int(op.getFormat()));
  call.addPointer(op.getPacked(), a.getPacked());
  call.add(call.leadingSize(op.getPacked(), a.getPacked()));
  call.addPointer(op.getTiles(), a.getTiles());
  return "birsim_bfp_unpack_tiles";
}

static StringRef buildCall(DmaCopyOp op, DmaCopyOp::Adaptor a,
                           RuntimeCall &call) {
  call.addI32(memoryReductionOf(op.getCceOp()));
  call.addPointer(op.getDst(), a.getDst());
  call.addPointer(op.getSrc(), a.getSrc());
  call.addI32(dtypeOf(op.getDst()));
  call.add(call.elementCount(op.getDst(), a.getDst()));
  return "birsim_accumulate";
}

template <typename IndirectOp>
static StringRef buildIndirectCall(IndirectOp op,
                                   typename IndirectOp::Adaptor a,
                                   RuntimeCall &call) {
  call.addI32(memoryReductionOf(op.getCceOp()));
  call.addPointer(op.getDst(), a.getDst());
  call.add(call.elementCount(op.getDst(), a.getDst()));
  call.addPointer(op.getSrc(), a.getSrc());
  call.addPointer(op.getIndices(), a.getIndices());
  call.add(call.elementCount(op.getSrc(), a.getSrc()));
  call.addI32(dtypeOf(op.getDst()));
  return "birsim_scatter_accumulate";
}
static StringRef buildCall(IndirectSaveOp op, IndirectSaveOp::Adaptor a,
                           RuntimeCall &call) {
  return buildIndirectCall(op, a, call);
}
static StringRef buildCall(IndirectSaveAccumulateOp op,
                           IndirectSaveAccumulateOp::Adaptor a,
                           RuntimeCall &call) {
  return buildIndirectCall(op, a, call);
}

// Value-level ops on scalars and vectors: raw bits through stack slots; the
// returned slot holds the result.

static StringRef buildValueCall(ReduceOp op, ReduceOp::Adaptor a,
                                const LLVMTypeConverter &, RuntimeCall &call,
                                Value &result) {
  call.addI32(int(op.getKind()));
  result = call.addSpilled(a.getDst());
  call.addSpilled(a.getSrc());
  call.addI32(dtypeOf(op.getResult()));
  call.add(call.constant(64, valueCount(op.getType())));
  return "birsim_accumulate";
}

static StringRef buildValueCall(CollectiveReduceOp op,
                                CollectiveReduceOp::Adaptor a,
                                const LLVMTypeConverter &, RuntimeCall &call,
                                Value &result) {
  call.addI32(int(op.getKind()));
  result = call.addSpilled(a.getAcc());
  call.addSpilled(a.getX());
  call.add(call.constant(64, valueCount(op.getType())));
  return "birsim_collective_reduce";
}

static StringRef buildValueCall(CastOp op, CastOp::Adaptor a,
                                const LLVMTypeConverter &converter,
                                RuntimeCall &call, Value &result) {
  call.addI32(dtypeOf(op.getInput()));
  call.addSpilled(a.getInput());
  call.addI32(dtypeOf(op.getResult()));
  result = call.addSlot(converter.convertType(op.getType()));
  call.add(call.constant(64, valueCount(op.getType())));
  call.addI32(unsigned(op.getFp8Config()));
  return "birsim_cast";
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// A side-effecting op on buffers becomes one runtime call.
template <typename OpTy>
struct BufferOpLowering : public ConvertOpToLLVMPattern<OpTy> {
  using ConvertOpToLLVMPattern<OpTy>::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RuntimeCall call(rewriter, *this->getTypeConverter(), op);
    if (failed(call.emit(buildCall(op, adaptor, call))))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// A value-level op on a scalar or vector becomes one runtime call on stack
/// slots and a load of the result. Tensor forms must be bufferized first.
template <typename OpTy>
struct ValueOpLowering : public ConvertOpToLLVMPattern<OpTy> {
  using ConvertOpToLLVMPattern<OpTy>::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = this->getTypeConverter()->convertType(op.getType());
    if (isa<TensorType>(op.getType()) || !resultType)
      return rewriter.notifyMatchFailure(op, "bufferize tensor ops first");
    RuntimeCall call(rewriter, *this->getTypeConverter(), op);
    Value result;
    if (failed(call.emit(buildValueCall(op, adaptor, *this->getTypeConverter(),
                                        call, result))))
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, resultType, result);
    return success();
  }
};

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
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    LLVMConversionTarget target(*context);
    target.addIllegalDialect<BirsimDialect>();
    LLVMTypeConverter converter(context);
    RewritePatternSet patterns(context);
    populateBirsimToLLVMConversionPatterns(converter, patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void birsim::populateBirsimToLLVMConversionPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  // Raw bits of the dialect's dtypes (SEMANTICS.md section 1 widths).
  converter.addConversion([](Type type) -> std::optional<Type> {
    if (!isa<Float32rType, Float4E2M1FNx4Type, Float8E4M3FNx4Type,
             Float8E5M2x4Type>(type))
      return std::nullopt;
    return IntegerType::get(type.getContext(),
                            8 * lookupDtypeInfo(type)->bytes);
  });
  patterns.add<ValueOpLowering<ReduceOp>, ValueOpLowering<CollectiveReduceOp>,
               ValueOpLowering<CastOp>, ConstantOpLowering,
               BufferOpLowering<ReduceIntoOp>,
               BufferOpLowering<CollectiveReduceIntoOp>,
               BufferOpLowering<CastIntoOp>, BufferOpLowering<BfpPackIntoOp>,
               BufferOpLowering<BfpUnpackIntoOp>, BufferOpLowering<DmaCopyOp>,
               BufferOpLowering<IndirectSaveOp>,
               BufferOpLowering<IndirectSaveAccumulateOp>>(converter);
}

void birsim::registerConvertBirsimToLLVMInterface(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, BirsimDialect *dialect) {
    dialect->addInterfaces<BirsimToLLVMDialectInterface>();
  });
}
