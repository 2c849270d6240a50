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

namespace mlir::birsim {
#define GEN_PASS_DEF_CONVERTBIRSIMTOLLVMPASS
#include "birsim/Conversion/Passes.h.inc"
} // namespace mlir::birsim

using namespace mlir;
using namespace mlir::birsim;

namespace {

//===----------------------------------------------------------------------===//
// Call emission
//===----------------------------------------------------------------------===//

/// Builds the arguments of one runtime call and emits it with its check.
class RuntimeCall {
public:
  RuntimeCall(ConversionPatternRewriter &rewriter, Operation *op)
      : rewriter(rewriter), op(op), loc(op->getLoc()) {}

  void addI32(int64_t value) { args.push_back(constant(32, value)); }
  void addI64(int64_t value) { args.push_back(constant(64, value)); }
  void add(Value value) { args.push_back(value); }

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
    Value status = LLVM::CallOp::create(rewriter, loc, *callee, args).getResult();
    LLVM::CallOp::create(rewriter, loc, *check,
                         ValueRange{status, siteString(module)});
    return success();
  }

private:
  Value constant(unsigned width, int64_t value) {
    Type type = rewriter.getIntegerType(width);
    return LLVM::ConstantOp::create(rewriter, loc, type,
                                    rewriter.getIntegerAttr(type, value));
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
      auto type = LLVM::LLVMArrayType::get(rewriter.getI8Type(), text.size() + 1);
      global = LLVM::GlobalOp::create(
          rewriter, loc, type, /*isConstant=*/true, LLVM::Linkage::Private,
          symbol, rewriter.getStringAttr(text.str() + '\0'));
    }
    return LLVM::AddressOfOp::create(rewriter, loc, global);
  }

  ConversionPatternRewriter &rewriter;
  Operation *op;
  Location loc;
  SmallVector<Value> args;
};

/// Data pointer (aligned pointer + offset) and element count (i64) of a
/// contiguous row-major memref.
static std::pair<Value, Value> bufferOf(ConversionPatternRewriter &rewriter,
                                        const LLVMTypeConverter &converter,
                                        Location loc, Value original,
                                        Value descriptor) {
  auto type = cast<MemRefType>(original.getType());
  MemRefDescriptor memref(descriptor);
  int64_t staticCount = 1;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (!type.isDynamicDim(i))
      staticCount *= type.getDimSize(i);
  Value count = LLVM::ConstantOp::create(
      rewriter, loc, rewriter.getI64Type(),
      rewriter.getI64IntegerAttr(staticCount));
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      count = LLVM::MulOp::create(rewriter, loc, count,
                                  memref.size(rewriter, loc, i));
  return {memref.bufferPtr(rewriter, loc, converter, type), count};
}

/// Dimension 0 of a memref as i64 (the BFP tile count).
static Value leadingSize(ConversionPatternRewriter &rewriter, Location loc,
                         Value original, Value descriptor) {
  auto type = cast<MemRefType>(original.getType());
  if (type.isDynamicDim(0))
    return MemRefDescriptor(descriptor).size(rewriter, loc, 0);
  return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                  rewriter.getI64IntegerAttr(type.getDimSize(0)));
}

static int dtypeOf(Value value) {
  return int(lookupDtypeInfo(value.getType())->dtype);
}

/// A stack slot of `type` in the enclosing function's entry block, so that
/// loops do not grow the stack.
static Value entrySlot(ConversionPatternRewriter &rewriter, Operation *op,
                       Type type) {
  OpBuilder::InsertionGuard guard(rewriter);
  Operation *function = op->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
  Block &entry = function->getRegion(0).front();
  rewriter.setInsertionPointToStart(&entry);
  Value one = LLVM::ConstantOp::create(rewriter, op->getLoc(),
                                       rewriter.getI64Type(),
                                       rewriter.getI64IntegerAttr(1));
  return LLVM::AllocaOp::create(
      rewriter, op->getLoc(), LLVM::LLVMPointerType::get(rewriter.getContext()),
      type, one);
}

/// A value spilled to a fresh entry slot.
static Value spill(ConversionPatternRewriter &rewriter, Operation *op,
                   Value value) {
  Value slot = entrySlot(rewriter, op, value.getType());
  LLVM::StoreOp::create(rewriter, op->getLoc(), value, slot);
  return slot;
}

/// Elements in a scalar (1) or vector value.
static int64_t valueCount(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements();
  return 1;
}

static bool isBufferizedAway(Type type) { return isa<TensorType>(type); }

//===----------------------------------------------------------------------===//
// Value-level ops on scalars and vectors: raw bits through stack slots
//===----------------------------------------------------------------------===//

struct ReduceOpLowering : public ConvertOpToLLVMPattern<ReduceOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isBufferizedAway(op.getType()))
      return rewriter.notifyMatchFailure(op, "bufferize tensor ops first");
    Value dst = spill(rewriter, op, adaptor.getDst());
    Value src = spill(rewriter, op, adaptor.getSrc());
    RuntimeCall call(rewriter, op);
    call.addI32(int(op.getKind()));
    call.add(dst);
    call.add(src);
    call.addI32(dtypeOf(op.getResult()));
    call.addI64(valueCount(op.getType()));
    if (failed(call.emit("birsim_accumulate")))
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, adaptor.getDst().getType(),
                                              dst);
    return success();
  }
};

struct CollectiveReduceOpLowering
    : public ConvertOpToLLVMPattern<CollectiveReduceOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(CollectiveReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isBufferizedAway(op.getType()))
      return rewriter.notifyMatchFailure(op, "bufferize tensor ops first");
    Value acc = spill(rewriter, op, adaptor.getAcc());
    Value x = spill(rewriter, op, adaptor.getX());
    RuntimeCall call(rewriter, op);
    call.addI32(int(op.getKind()));
    call.add(acc);
    call.add(x);
    call.addI64(valueCount(op.getType()));
    if (failed(call.emit("birsim_collective_reduce")))
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, adaptor.getAcc().getType(),
                                              acc);
    return success();
  }
};

struct CastOpLowering : public ConvertOpToLLVMPattern<CastOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isBufferizedAway(op.getType()))
      return rewriter.notifyMatchFailure(op, "bufferize tensor ops first");
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "unconvertible result type");
    Value src = spill(rewriter, op, adaptor.getInput());
    Value dst = entrySlot(rewriter, op, resultType);
    RuntimeCall call(rewriter, op);
    call.addI32(dtypeOf(op.getInput()));
    call.add(src);
    call.addI32(dtypeOf(op.getResult()));
    call.add(dst);
    call.addI64(valueCount(op.getType()));
    call.addI32(op.getFp8ConfigValue());
    if (failed(call.emit("birsim_cast")))
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, resultType, dst);
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

//===----------------------------------------------------------------------===//
// Buffer forms and instruction-level ops: pointer + element count
//===----------------------------------------------------------------------===//

struct ReduceIntoOpLowering : public ConvertOpToLLVMPattern<ReduceIntoOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ReduceIntoOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto [dst, count] =
        bufferOf(rewriter, *this->getTypeConverter(), op.getLoc(), op.getDst(), adaptor.getDst());
    auto [src, unused] =
        bufferOf(rewriter, *this->getTypeConverter(), op.getLoc(), op.getSrc(), adaptor.getSrc());
    RuntimeCall call(rewriter, op);
    call.addI32(int(op.getKind()));
    call.add(dst);
    call.add(src);
    call.addI32(dtypeOf(op.getDst()));
    call.add(count);
    if (failed(call.emit("birsim_accumulate")))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct CollectiveReduceIntoOpLowering
    : public ConvertOpToLLVMPattern<CollectiveReduceIntoOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(CollectiveReduceIntoOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto [acc, count] =
        bufferOf(rewriter, *this->getTypeConverter(), op.getLoc(), op.getAcc(), adaptor.getAcc());
    auto [x, unused] = bufferOf(rewriter, *this->getTypeConverter(), op.getLoc(), op.getX(), adaptor.getX());
    RuntimeCall call(rewriter, op);
    call.addI32(int(op.getKind()));
    call.add(acc);
    call.add(x);
    call.add(count);
    if (failed(call.emit("birsim_collective_reduce")))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct CastIntoOpLowering : public ConvertOpToLLVMPattern<CastIntoOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(CastIntoOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto [src, count] =
        bufferOf(rewriter, *this->getTypeConverter(), op.getLoc(), op.getSrc(), adaptor.getSrc());
    auto [dst, unused] =
        bufferOf(rewriter, *this->getTypeConverter(), op.getLoc(), op.getDst(), adaptor.getDst());
    RuntimeCall call(rewriter, op);
    call.addI32(dtypeOf(op.getSrc()));
    call.add(src);
    call.addI32(dtypeOf(op.getDst()));
    call.add(dst);
    call.add(count);
    call.addI32(op.getFp8ConfigValue());
    if (failed(call.emit("birsim_cast")))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// bfp_pack_into / bfp_unpack_into: (format, input, tile count, output).
template <typename OpTy>
struct BfpIntoOpLowering : public ConvertOpToLLVMPattern<OpTy> {
  using ConvertOpToLLVMPattern<OpTy>::ConvertOpToLLVMPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    constexpr bool isPack = std::is_same_v<OpTy, BfpPackIntoOp>;
    Value in = isPack ? op.getTiles() : op.getPacked();
    Value out = isPack ? op.getPacked() : op.getTiles();
    Value inDesc = isPack ? adaptor.getTiles() : adaptor.getPacked();
    Value outDesc = isPack ? adaptor.getPacked() : adaptor.getTiles();
    RuntimeCall call(rewriter, op);
    call.addI32(int(op.getFormat()));
    call.add(bufferOf(rewriter, *this->getTypeConverter(), op.getLoc(), in, inDesc).first);
    call.add(leadingSize(rewriter, op.getLoc(), in, inDesc));
    call.add(bufferOf(rewriter, *this->getTypeConverter(), op.getLoc(), out, outDesc).first);
    if (failed(call.emit(isPack ? "birsim_bfp_pack_tiles"
                                : "birsim_bfp_unpack_tiles")))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// The MemoryReductionOp AluOpType2MemoryReduction gives a verified cce_op.
static int memoryReductionOf(AluOpType cceOp) {
  ::birsim::MemoryReductionOp kind = ::birsim::MemoryReductionOp::copy;
  (void)::birsim::aluOpToMemoryReduction(int(cceOp), kind);
  return int(kind);
}

struct DmaCopyOpLowering : public ConvertOpToLLVMPattern<DmaCopyOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(DmaCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto [dst, count] =
        bufferOf(rewriter, *this->getTypeConverter(), op.getLoc(), op.getDst(), adaptor.getDst());
    auto [src, unused] =
        bufferOf(rewriter, *this->getTypeConverter(), op.getLoc(), op.getSrc(), adaptor.getSrc());
    RuntimeCall call(rewriter, op);
    call.addI32(memoryReductionOf(op.getCceOp()));
    call.add(dst);
    call.add(src);
    call.addI32(dtypeOf(op.getDst()));
    call.add(count);
    if (failed(call.emit("birsim_accumulate")))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

template <typename OpTy>
struct IndirectSaveLowering : public ConvertOpToLLVMPattern<OpTy> {
  using ConvertOpToLLVMPattern<OpTy>::ConvertOpToLLVMPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [dst, dstCount] = bufferOf(rewriter, *this->getTypeConverter(), loc, op.getDst(), adaptor.getDst());
    auto [src, count] = bufferOf(rewriter, *this->getTypeConverter(), loc, op.getSrc(), adaptor.getSrc());
    auto [indices, unused] =
        bufferOf(rewriter, *this->getTypeConverter(), loc, op.getIndices(), adaptor.getIndices());
    RuntimeCall call(rewriter, op);
    call.addI32(memoryReductionOf(op.getCceOp()));
    call.add(dst);
    call.add(dstCount);
    call.add(src);
    call.add(indices);
    call.add(count);
    call.addI32(dtypeOf(op.getDst()));
    if (failed(call.emit("birsim_scatter_accumulate")))
      return failure();
    rewriter.eraseOp(op);
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
    : public mlir::birsim::impl::ConvertBirsimToLLVMPassBase<
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

void mlir::birsim::populateBirsimToLLVMConversionPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  // Raw bits of the dialect's dtypes (SEMANTICS.md section 1 widths).
  converter.addConversion([](Type type) -> std::optional<Type> {
    if (!isa<Float32rType, Float4E2M1FNx4Type, Float8E4M3FNx4Type,
             Float8E5M2x4Type>(type))
      return std::nullopt;
    return IntegerType::get(type.getContext(),
                            8 * lookupDtypeInfo(type)->bytes);
  });
  patterns.add<ReduceOpLowering, CollectiveReduceOpLowering, CastOpLowering,
               ConstantOpLowering, ReduceIntoOpLowering,
               CollectiveReduceIntoOpLowering, CastIntoOpLowering,
               BfpIntoOpLowering<BfpPackIntoOp>,
               BfpIntoOpLowering<BfpUnpackIntoOp>, DmaCopyOpLowering,
               IndirectSaveLowering<IndirectSaveOp>,
               IndirectSaveLowering<IndirectSaveAccumulateOp>>(converter);
}

void mlir::birsim::registerConvertBirsimToLLVMInterface(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, BirsimDialect *dialect) {
    dialect->addInterfaces<BirsimToLLVMDialectInterface>();
  });
}
