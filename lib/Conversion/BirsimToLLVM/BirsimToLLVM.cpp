//===- BirsimToLLVM.cpp - birsim ops to runtime calls ---------------------===//
//
// Every birsim op becomes one call into the fixed C ABI of
// libbirsim_runtime.so (include/birsim/Runtime/Runtime.h) plus a status
// check; the arithmetic itself stays in the core.
//
//===----------------------------------------------------------------------===//
#include "birsim/Conversion/Passes.h"
#include "birsim/Core/Bfp.h"
#include "birsim/Core/Reduce.h"
#include "birsim/Dialect/Birsim/IR/BirsimOps.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringExtras.h"
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

namespace {

//===----------------------------------------------------------------------===//
// The runtime ABI (birsim/Runtime/RuntimeFunctions.def)
//===----------------------------------------------------------------------===//

/// What a pattern supplies for a runtime parameter.
enum class ArgRole {
#define BIRSIM_RUNTIME_ROLE(Role) Role,
#include "birsim/Runtime/RuntimeFunctions.def"
};
constexpr unsigned kNumArgRoles = 0
#define BIRSIM_RUNTIME_ROLE(Role) +1
#include "birsim/Runtime/RuntimeFunctions.def"
    ;

/// The LLVM type of a C parameter or result type of Runtime.h.
template <typename CType> Type llvmTypeOf(MLIRContext *ctx) {
  if constexpr (std::is_void_v<CType>)
    return LLVM::LLVMVoidType::get(ctx);
  else if constexpr (std::is_pointer_v<CType>)
    return LLVM::LLVMPointerType::get(ctx);
  else
    return IntegerType::get(ctx, 8 * sizeof(CType));
}

struct RuntimeArg {
  ArgRole role;
  Type (*type)(MLIRContext *);
};

/// Whether the fidelity counters examine a runtime function's values.
enum class RuntimeCounts { Counted, NotCounted };

struct RuntimeFunction {
  StringLiteral name;
  Type (*result)(MLIRContext *);
  RuntimeCounts counts;
  ArrayRef<RuntimeArg> args;

  LLVM::LLVMFunctionType type(MLIRContext *ctx) const {
    SmallVector<Type> params;
    for (const RuntimeArg &arg : args)
      params.push_back(arg.type(ctx));
    return LLVM::LLVMFunctionType::get(result(ctx), params);
  }
};

// The Lowered rows only.
#define BIRSIM_IF_Lowered(...) __VA_ARGS__
#define BIRSIM_IF_NotLowered(...)

enum class RuntimeFn {
#define BIRSIM_ARG(CType, Role)
#define BIRSIM_RUNTIME_FUNCTION(Name, Result, Lowered, ...)                    \
  BIRSIM_IF_##Lowered(Name, )
#include "birsim/Runtime/RuntimeFunctions.def"
};

#define BIRSIM_ARG(CType, Role) RuntimeArg{ArgRole::Role, llvmTypeOf<CType>},
#define BIRSIM_RUNTIME_FUNCTION(Name, Result, Lowered, Counts, ...)            \
  BIRSIM_IF_##Lowered(constexpr RuntimeArg Name##Args[] = {__VA_ARGS__};)
#include "birsim/Runtime/RuntimeFunctions.def"

const RuntimeFunction kRuntimeFunctions[] = {
#define BIRSIM_ARG(CType, Role)
#define BIRSIM_RUNTIME_FUNCTION(Name, Result, Lowered, Counts, ...)            \
  BIRSIM_IF_##Lowered(                                                         \
      {#Name, llvmTypeOf<Result>, RuntimeCounts::Counts, Name##Args}, )
#include "birsim/Runtime/RuntimeFunctions.def"
};

/// The declaration of `fn` in `module`: created when absent; an existing
/// symbol of that name must be an `llvm.func` of the table's type.
FailureOr<LLVM::LLVMFuncOp> declareRuntimeFunction(OpBuilder &builder,
                                                   Operation *op,
                                                   ModuleOp module,
                                                   RuntimeFn fn) {
  const RuntimeFunction &spec = kRuntimeFunctions[int(fn)];
  LLVM::LLVMFunctionType type = spec.type(builder.getContext());
  if (Operation *existing = SymbolTable::lookupSymbolIn(module, spec.name)) {
    auto function = dyn_cast<LLVM::LLVMFuncOp>(existing);
    if (!function)
      return op->emitError("runtime function '")
             << spec.name << "' clashes with a '" << existing->getName()
             << "' of that name; Runtime.h declares " << type;
    if (function.getFunctionType() != type)
      return op->emitError("runtime function '")
             << spec.name << "' is already declared as "
             << function.getFunctionType() << ", but Runtime.h declares "
             << type;
    return function;
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(builder, module.getLoc(), spec.name, type);
}

//===----------------------------------------------------------------------===//
// Call emission
//===----------------------------------------------------------------------===//

/// Collects the values of one runtime call by role and emits it, in the
/// table's argument order, with its status check.
class RuntimeCall {
public:
  RuntimeCall(ConversionPatternRewriter &rewriter,
              const LLVMTypeConverter &converter, Operation *op,
              bool fidelityCounters)
      : rewriter(rewriter), converter(converter), op(op), loc(op->getLoc()),
        fidelityCounters(fidelityCounters) {}

  void set(ArgRole role, Value value) { values[unsigned(role)] = value; }
  void setI32(ArgRole role, int64_t value) { set(role, constant(32, value)); }

  /// The data pointer (aligned pointer + offset) of a contiguous memref.
  Value pointer(Value memref, Value descriptor) {
    return MemRefDescriptor(descriptor)
        .bufferPtr(rewriter, loc, converter,
                   cast<MemRefType>(memref.getType()));
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

  /// `value` stored to a fresh entry-block slot; returns the slot.
  Value spill(Value value) {
    Value slot = entrySlot(value.getType());
    LLVM::StoreOp::create(rewriter, loc, value, slot);
    return slot;
  }

  /// A fresh entry-block slot of `type`.
  Value entrySlot(Type type) {
    OpBuilder::InsertionGuard guard(rewriter);
    Operation *function =
        op->getParentWithTrait<mlir::OpTrait::IsIsolatedFromAbove>();
    rewriter.setInsertionPointToStart(&function->getRegion(0).front());
    return LLVM::AllocaOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()), type,
        constant(64, 1));
  }

  Value constant(unsigned width, int64_t value) {
    Type type = rewriter.getIntegerType(width);
    return LLVM::ConstantOp::create(rewriter, loc, type,
                                    rewriter.getIntegerAttr(type, value));
  }

  /// `status = fn(args...)`, then `birsim_check_status(status, op name)`;
  /// with fidelity counters, `birsim_fidelity_site(op location)` first.
  LogicalResult emit(RuntimeFn fn) {
    auto module = op->getParentOfType<ModuleOp>();
    if (fidelityCounters && isCounted(fn)) {
      FailureOr<LLVM::LLVMFuncOp> site = declareRuntimeFunction(
          rewriter, op, module, RuntimeFn::birsim_fidelity_site);
      if (failed(site))
        return failure();
      std::string location;
      llvm::raw_string_ostream os(location);
      loc.print(os);
      set(ArgRole::Site,
          stringConstant(module,
                         "__birsim_fidelity_site_" +
                             llvm::utohexstr(llvm::xxh3_64bits(location)),
                         location));
      call(*site, RuntimeFn::birsim_fidelity_site);
    }
    FailureOr<LLVM::LLVMFuncOp> callee =
        declareRuntimeFunction(rewriter, op, module, fn);
    FailureOr<LLVM::LLVMFuncOp> check = declareRuntimeFunction(
        rewriter, op, module, RuntimeFn::birsim_check_status);
    if (failed(callee) || failed(check))
      return failure();
    set(ArgRole::Status, call(*callee, fn).getResult());
    // "<op name> at <file:line:col>", the op's location as the user wrote it.
    std::string what = op->getName().getStringRef().str() + " at ";
    llvm::raw_string_ostream whatOs(what);
    if (auto file = loc->findInstanceOf<FileLineColLoc>())
      whatOs << file.getFilename().getValue() << ":" << file.getLine() << ":"
             << file.getColumn();
    else
      loc.print(whatOs);
    std::string symbol = "__birsim_site_" + op->getName().getStringRef().str() +
                         "_" + llvm::utohexstr(llvm::xxh3_64bits(what));
    std::replace(symbol.begin(), symbol.end(), '.', '_');
    set(ArgRole::Site, stringConstant(module, symbol, what));
    call(*check, RuntimeFn::birsim_check_status);
    return success();
  }

private:
  LLVM::CallOp call(LLVM::LLVMFuncOp callee, RuntimeFn fn) {
    SmallVector<Value> args;
    for (const RuntimeArg &arg : kRuntimeFunctions[int(fn)].args) {
      Value value = values[unsigned(arg.role)];
      assert(value && "the pattern did not supply every role of its call");
      args.push_back(value);
    }
    return LLVM::CallOp::create(rewriter, loc, callee, args);
  }

  /// The calls whose values the fidelity counters examine.
  static bool isCounted(RuntimeFn fn) {
    return kRuntimeFunctions[int(fn)].counts == RuntimeCounts::Counted;
  }

  /// A private global `symbol` holding `text`.
  Value stringConstant(ModuleOp module, const std::string &symbol,
                       StringRef text) {
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
  bool fidelityCounters;
  Value values[kNumArgRoles];
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
// Each op's call: the function and the value of each role
//===----------------------------------------------------------------------===//

using R = ArgRole;

// Buffer forms and instruction-level ops: pointers + element counts.

/// `dst[i] = reduce(dst[i], src[i])` over two buffers.
static RuntimeFn fillAccumulate(RuntimeCall &call, int kind, Value dst,
                                Value dstDesc, Value src, Value srcDesc) {
  call.setI32(R::Kind, kind);
  call.set(R::Dst, call.pointer(dst, dstDesc));
  call.set(R::Src, call.pointer(src, srcDesc));
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
  call.setI32(R::Kind, int(op.getKind()));
  call.set(R::Dst, call.pointer(op.getAcc(), a.getAcc()));
  call.set(R::Src, call.pointer(op.getX(), a.getX()));
  call.set(R::Count, call.elementCount(op.getAcc(), a.getAcc()));
  return RuntimeFn::birsim_collective_reduce;
}

static RuntimeFn fillCall(CastIntoOp op, CastIntoOp::Adaptor a,
                          RuntimeCall &call) {
  call.setI32(R::SrcDtype, dtypeOf(op.getSrc()));
  call.set(R::Src, call.pointer(op.getSrc(), a.getSrc()));
  call.setI32(R::DstDtype, dtypeOf(op.getDst()));
  call.set(R::Dst, call.pointer(op.getDst(), a.getDst()));
  call.set(R::Count, call.elementCount(op.getSrc(), a.getSrc()));
  call.setI32(R::Fp8Config, int64_t(op.getFp8Config()));
  return RuntimeFn::birsim_cast;
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
  call.setI32(R::Kind, spec.format);
  call.setI32(R::TileRows, int64_t(spec.tileRows));
  call.setI32(R::TileCols, int64_t(spec.tileCols));
  call.setI32(R::Flags, spec.flags);
  if (op.isMatrixForm()) {
    call.set(R::Rows, call.constant(64, int64_t(spec.rows)));
    call.set(R::Cols, call.constant(64, int64_t(spec.cols)));
  } else {
    call.set(R::Count, call.leadingSize(values, valuesDesc));
  }
  if (op.isPack())
    call.setI32(R::SrcDtype, dtypeOf(values));
  call.set(op.isPack() ? R::Src : R::Dst, call.pointer(values, valuesDesc));
  call.set(op.isPack() ? R::Dst : R::Src, call.pointer(packed, packedDesc));
  if (op.isMatrixForm())
    return op.isPack() ? RuntimeFn::birsim_bfp_pack_matrix
                       : RuntimeFn::birsim_bfp_unpack_matrix;
  return op.isPack() ? RuntimeFn::birsim_bfp_pack
                     : RuntimeFn::birsim_bfp_unpack;
}
template <typename OpTy>
static std::enable_if_t<OpTy::template hasTrait<BfpOpInterface::Trait>(),
                        RuntimeFn>
fillCall(OpTy op, typename OpTy::Adaptor a, RuntimeCall &call) {
  return fillBfpCall(op, a.getOperands(), call);
}

template <typename IndirectOp>
static RuntimeFn fillIndirectCall(IndirectOp op,
                                  typename IndirectOp::Adaptor a,
                                  RuntimeCall &call) {
  call.setI32(R::Kind, memoryReductionOf(op.getCceOp()));
  call.set(R::Dst, call.pointer(op.getDst(), a.getDst()));
  call.set(R::DstCount, call.elementCount(op.getDst(), a.getDst()));
  call.set(R::Src, call.pointer(op.getSrc(), a.getSrc()));
  call.set(R::Indices, call.pointer(op.getIndices(), a.getIndices()));
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

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// A side-effecting op on buffers becomes one runtime call.
template <typename OpTy>
struct BufferOpLowering : public ConvertOpToLLVMPattern<OpTy> {
  BufferOpLowering(const LLVMTypeConverter &converter, bool fidelityCounters)
      : ConvertOpToLLVMPattern<OpTy>(converter),
        fidelityCounters(fidelityCounters) {}
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RuntimeCall call(rewriter, *this->getTypeConverter(), op,
                     fidelityCounters);
    if (failed(call.emit(fillCall(op, adaptor, call))))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
  bool fidelityCounters;
};

/// A value-level op on a scalar or vector becomes one runtime call on stack
/// slots and a load of the result. Tensor forms must be bufferized first.
template <typename OpTy>
struct ValueOpLowering : public ConvertOpToLLVMPattern<OpTy> {
  ValueOpLowering(const LLVMTypeConverter &converter, bool fidelityCounters)
      : ConvertOpToLLVMPattern<OpTy>(converter),
        fidelityCounters(fidelityCounters) {}
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = this->getTypeConverter()->convertType(op.getType());
    if (isa<TensorType>(op.getType()) || !resultType)
      return rewriter.notifyMatchFailure(op, "bufferize tensor ops first");
    RuntimeCall call(rewriter, *this->getTypeConverter(), op,
                     fidelityCounters);
    Value result;
    if (failed(call.emit(fillValueCall(op, adaptor, *this->getTypeConverter(),
                                        call, result))))
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, resultType, result);
    return success();
  }
  bool fidelityCounters;
};

/// An op lowers to a runtime call on buffers where a fillCall overload
/// says which (above), on stack slots where a fillValueCall overload does.
template <typename Op, typename = void>
struct HasBufferCall : std::false_type {};
template <typename Op>
struct HasBufferCall<Op, std::void_t<decltype(fillCall(
                             std::declval<Op>(),
                             std::declval<typename Op::Adaptor>(),
                             std::declval<RuntimeCall &>()))>>
    : std::true_type {};
template <typename Op, typename = void>
struct HasValueCall : std::false_type {};
template <typename Op>
struct HasValueCall<Op, std::void_t<decltype(fillValueCall(
                            std::declval<Op>(),
                            std::declval<typename Op::Adaptor>(),
                            std::declval<const LLVMTypeConverter &>(),
                            std::declval<RuntimeCall &>(),
                            std::declval<Value &>()))>> : std::true_type {};

/// One pattern per birsim op that has a call (the ODS op list): a new op
/// lowers once its fill function exists.
template <typename... Ops>
void addRuntimeCallPatterns(const LLVMTypeConverter &converter,
                            RewritePatternSet &patterns,
                            bool fidelityCounters) {
  auto add = [&](auto op) {
    using Op = decltype(op);
    if constexpr (HasBufferCall<Op>::value)
      patterns.add<BufferOpLowering<Op>>(converter, fidelityCounters);
    else if constexpr (HasValueCall<Op>::value)
      patterns.add<ValueOpLowering<Op>>(converter, fidelityCounters);
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
          return WalkResult::advance();
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
    populateBirsimToLLVMConversionPatterns(converter, patterns,
                                           fidelityCounters);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void birsim::populateBirsimToLLVMConversionPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns,
    bool fidelityCounters) {
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
      >(converter, patterns, fidelityCounters);
}

void birsim::registerConvertBirsimToLLVMInterface(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, BirsimDialect *dialect) {
    dialect->addInterfaces<BirsimToLLVMDialectInterface>();
  });
}
