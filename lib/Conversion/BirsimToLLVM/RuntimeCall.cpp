//===- RuntimeCall.cpp - one call into the runtime ------------------------===//
#include "RuntimeCall.h"
#include "birsim/Dialect/Birsim/IR/BirsimLayout.h"
#include "birsim/Dialect/Birsim/IR/BirsimTypes.h"
#include "birsim/Runtime/Runtime.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cstddef>
#include <type_traits>

using namespace mlir;

namespace birsim::lowering {

namespace {
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
} // namespace

/// The declaration of `fn`, made once per module.
static FailureOr<LLVM::LLVMFuncOp> declareRuntimeFunction(OpBuilder &builder,
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
// Buffers (docs/Conversions.md, "Buffers the runtime takes"; D72)
//===----------------------------------------------------------------------===//

/// The bytes of one element of a memref of `elementType`: a dtype's width
/// (the birsim types included), else the int or float width in whole bytes.
static std::optional<uint64_t> elementBytes(Type elementType) {
  if (const core::DtypeInfo *info = lookupDtypeInfo(elementType))
    return info->bytes;
  if (elementType.isIntOrFloat())
    return (elementType.getIntOrFloatBitWidth() + 7) / 8;
  return std::nullopt;
}

/// Whether `op` writes the memref `value` (its memory effects; an op that
/// does not declare them writes every operand).
static bool writes(Operation *op, Value value) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return true;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffectsOnValue(value, instances);
  return llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Write>(e.getEffect());
  });
}

/// The bytes of the static part of a vector or memref type (its element
/// width, 1 when unknown, times its static sizes); none when that overflows
/// int64.
static std::optional<int64_t> staticBytes(ShapedType type) {
  std::optional<int64_t> bytes =
      int64_t(elementBytes(type.getElementType()).value_or(1));
  for (int64_t i = 0; bytes && i < type.getRank(); ++i)
    if (!type.isDynamicDim(i))
      bytes = llvm::checkedMul(*bytes, type.getDimSize(i));
  return bytes;
}

LogicalResult checkRuntimeOperands(Operation *op) {
  auto check = [&](Type type, StringRef kind,
                   unsigned number) -> LogicalResult {
    auto shaped = dyn_cast<ShapedType>(type);
    if (!shaped || !isa<MemRefType, VectorType>(shaped) || staticBytes(shaped))
      return success();
    return op->emitOpError()
           << kind << " #" << number << " of type " << type
           << " holds more bytes than int64 counts: its static sizes times "
              "its element width overflow";
  };
  for (OpResult result : op->getResults())
    if (failed(check(result.getType(), "result", result.getResultNumber())))
      return failure();
  for (OpOperand &operand : op->getOpOperands()) {
    unsigned number = operand.getOperandNumber();
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (type && !type.isStrided())
      return op->emitOpError("operand #")
             << number << " of type " << type
             << " has a layout that is not strided: a runtime call takes "
                "a strided buffer (docs/Conversions.md)";
    if (failed(check(operand.get().getType(), "operand", number)))
      return failure();
    if (type && writes(op, operand.get()) && !isContiguousRowMajor(type) &&
        !hasDistinctElements(type))
      return op->emitOpError("writes operand #")
             << number << " of type " << type
             << ", whose elements may share an address: "
             << kDistinctElementsRule;
  }
  return success();
}

/// `__birsim_strided_copy_<rank>d_i<bits>(view, stage, toStage, sizes...,
/// strides...)`, made once per module: copies the view's elements, in
/// row-major order, to the contiguous `stage` (toStage) or back; nothing
/// when `stage` is null (a failed allocation, or a call that failed).
/// Element i's offset in the view is the sum of its indices times the
/// strides, its indices i's digits in the sizes' mixed radix.
static LLVM::LLVMFuncOp stridedCopyFunction(OpBuilder &b, ModuleOp module,
                                            Location loc, unsigned rank,
                                            unsigned bits) {
  std::string name = "__birsim_strided_copy_" + std::to_string(rank) + "d_i" +
                     std::to_string(bits);
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  MLIRContext *ctx = b.getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx), i64 = b.getI64Type(),
       i1 = b.getI1Type(), element = b.getIntegerType(bits);
  SmallVector<Type> params{ptr, ptr, i1};
  params.append(2 * rank, i64);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto function = LLVM::LLVMFuncOp::create(
      b, loc, name,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), params),
      LLVM::Linkage::Internal);
  Region &region = function.getBody();
  Block *entry = b.createBlock(&region, region.end(), params,
                               SmallVector<Location>(params.size(), loc));
  Block *header = b.createBlock(&region, region.end(), {i64}, {loc});
  Block *body = b.createBlock(&region, region.end());
  Block *exit = b.createBlock(&region, region.end());
  auto constant = [&](int64_t value) {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(value));
  };
  Value view = entry->getArgument(0), stage = entry->getArgument(1),
        toStage = entry->getArgument(2);
  auto sizes = entry->getArguments().slice(3, rank),
       strides = entry->getArguments().slice(3 + rank, rank);

  b.setInsertionPointToEnd(entry);
  Value count = constant(1);
  for (Value size : sizes)
    count = LLVM::MulOp::create(b, loc, count, size);
  Value isNull = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, stage,
                                      LLVM::ZeroOp::create(b, loc, ptr));
  LLVM::CondBrOp::create(b, loc, isNull, exit, ValueRange{}, header,
                         ValueRange{constant(0)});

  b.setInsertionPointToEnd(header);
  Value i = header->getArgument(0);
  LLVM::CondBrOp::create(
      b, loc, LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, i, count),
      body, ValueRange{}, exit, ValueRange{});

  b.setInsertionPointToEnd(body);
  Value rest = i, offset = constant(0);
  for (unsigned d = rank; d-- > 0;) {
    Value index = rest;
    if (d > 0) {
      index = LLVM::URemOp::create(b, loc, rest, sizes[d]);
      rest = LLVM::UDivOp::create(b, loc, rest, sizes[d]);
    }
    offset = LLVM::AddOp::create(
        b, loc, offset, LLVM::MulOp::create(b, loc, index, strides[d]));
  }
  Value inView = LLVM::GEPOp::create(b, loc, ptr, element, view, offset);
  Value inStage = LLVM::GEPOp::create(b, loc, ptr, element, stage, i);
  Value from = LLVM::SelectOp::create(b, loc, toStage, inView, inStage);
  Value to = LLVM::SelectOp::create(b, loc, toStage, inStage, inView);
  LLVM::StoreOp::create(b, loc, LLVM::LoadOp::create(b, loc, element, from),
                        to);
  LLVM::BrOp::create(b, loc, ValueRange{LLVM::AddOp::create(b, loc, i,
                                                            constant(1))},
                     header);

  b.setInsertionPointToEnd(exit);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  return function;
}

Value RuntimeCall::buffer(Value memref, Value descriptor) {
  auto type = cast<MemRefType>(memref.getType());
  MemRefDescriptor memrefDescriptor(descriptor);
  Value view = memrefDescriptor.bufferPtr(rewriter, loc, converter, type);
  if (isContiguousRowMajor(type))
    return view;
  // One staging copy per memref, however many operands it is.
  for (const Staged &other : staged)
    if (other.memref == memref)
      return other.stage;
  SmallVector<int64_t> strides;
  int64_t offset;
  (void)type.getStridesAndOffset(strides, offset); // checkRuntimeOperands
  Staged staging{memref, view, Value(), LLVM::LLVMFuncOp(), {},
                 writes(op, memref)};
  for (int64_t i = 0; i < type.getRank(); ++i)
    staging.extents.push_back(
        type.isDynamicDim(i) ? memrefDescriptor.size(rewriter, loc, i)
                             : constant(64, type.getDimSize(i)));
  for (int64_t i = 0; i < type.getRank(); ++i)
    staging.extents.push_back(
        ShapedType::isDynamic(strides[i])
            ? memrefDescriptor.stride(rewriter, loc, i)
            : constant(64, strides[i]));
  // The staging bytes: the static part checked (checkRuntimeOperands), the
  // dynamic sizes multiplied with overflow, which asks malloc for SIZE_MAX
  // bytes: a null staging copy, which the runtime refuses for a non-zero
  // count ("null buffer with a non-zero element count").
  Type i64 = rewriter.getI64Type();
  Value bytes = constant(64, *staticBytes(cast<ShapedType>(type)));
  Value overflow = constant(1, 0);
  auto productType = LLVM::LLVMStructType::getLiteral(
      rewriter.getContext(), {i64, rewriter.getI1Type()});
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (!type.isDynamicDim(i))
      continue;
    Value product = LLVM::UMulWithOverflowOp::create(
        rewriter, loc, productType, bytes, staging.extents[i]);
    bytes = LLVM::ExtractValueOp::create(rewriter, loc, product, 0);
    overflow = LLVM::OrOp::create(
        rewriter, loc, overflow,
        LLVM::ExtractValueOp::create(rewriter, loc, product, 1));
  }
  bytes = LLVM::SelectOp::create(rewriter, loc, overflow, constant(64, -1),
                                 bytes);
  auto module = op->getParentOfType<ModuleOp>();
  FailureOr<LLVM::LLVMFuncOp> malloc =
      LLVM::lookupOrCreateMallocFn(rewriter, module, i64);
  if (failed(malloc)) {
    stagingFailed = true;
    op->emitError("staging a strided buffer needs 'malloc' as "
                  "llvm.func @malloc(i64) -> !llvm.ptr");
    return view;
  }
  staging.stage =
      LLVM::CallOp::create(rewriter, loc, *malloc, ValueRange{bytes})
          .getResult();
  staging.copy = stridedCopyFunction(
      rewriter, module, loc, type.getRank(),
      8 * unsigned(*elementBytes(type.getElementType())));
  // A written buffer is copied in too: the call may not write every
  // element, and one that fails leaves it as it was.
  copyStaged(staging, staging.stage, /*toStage=*/true);
  staged.push_back(std::move(staging));
  return staged.back().stage;
}

void RuntimeCall::copyStaged(const Staged &staging, Value stage,
                             bool toStage) {
  SmallVector<Value> args{staging.view, stage, constant(1, toStage)};
  args.append(staging.extents.begin(), staging.extents.end());
  LLVM::CallOp::create(rewriter, loc, staging.copy, args);
}

//===----------------------------------------------------------------------===//
// Call emission
//===----------------------------------------------------------------------===//

/// The element count of a memref as i64.
Value RuntimeCall::elementCount(Value memref, Value descriptor) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t staticCount = 1;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (!type.isDynamicDim(i)) {
      std::optional<int64_t> product =
          llvm::checkedMul(staticCount, type.getDimSize(i));
      assert(product && "checkRuntimeOperands checks the static sizes");
      staticCount = *product;
    }
  Value count = constant(64, staticCount);
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      count = LLVM::MulOp::create(
          rewriter, loc, count,
          MemRefDescriptor(descriptor).size(rewriter, loc, i));
  return count;
}

void RuntimeCall::requireEqual(Value lhs, Value rhs) {
  Value differ =
      LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne, lhs, rhs);
  sizesDiffer = sizesDiffer
                    ? LLVM::OrOp::create(rewriter, loc, sizesDiffer, differ)
                    : differ;
}

void RuntimeCall::requireSameCount(Value a, Value aDescriptor, Value b,
                                   Value bDescriptor) {
  if (cast<MemRefType>(a.getType()).hasStaticShape() &&
      cast<MemRefType>(b.getType()).hasStaticShape())
    return;
  requireEqual(elementCount(a, aDescriptor), elementCount(b, bDescriptor));
}

void RuntimeCall::requireSameLeadingSize(Value a, Value aDescriptor, Value b,
                                         Value bDescriptor) {
  if (!cast<MemRefType>(a.getType()).isDynamicDim(0) &&
      !cast<MemRefType>(b.getType()).isDynamicDim(0))
    return;
  requireEqual(leadingSize(a, aDescriptor), leadingSize(b, bDescriptor));
}

/// Size of dimension 0 of a memref as i64 (the BFP tile count).
Value RuntimeCall::leadingSize(Value memref, Value descriptor) {
  auto type = cast<MemRefType>(memref.getType());
  if (type.isDynamicDim(0))
    return MemRefDescriptor(descriptor).size(rewriter, loc, 0);
  return constant(64, type.getDimSize(0));
}

/// `value` stored to a fresh entry-block slot; returns the slot.
Value RuntimeCall::spill(Value value) {
  Value slot = entrySlot(value.getType());
  LLVM::StoreOp::create(rewriter, loc, value, slot);
  return slot;
}

/// A fresh entry-block slot of `type`.
Value RuntimeCall::entrySlot(Type type) {
  OpBuilder::InsertionGuard guard(rewriter);
  Operation *function =
      op->getParentWithTrait<mlir::OpTrait::IsIsolatedFromAbove>();
  rewriter.setInsertionPointToStart(&function->getRegion(0).front());
  return LLVM::AllocaOp::create(
      rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()), type,
      constant(64, 1));
}

Value RuntimeCall::array(ArrayRef<Value> values) {
  auto type = LLVM::LLVMArrayType::get(values.front().getType(), values.size());
  Value slot = entrySlot(type);
  auto pointerType = LLVM::LLVMPointerType::get(rewriter.getContext());
  for (auto [i, value] : llvm::enumerate(values)) {
    Value at = LLVM::GEPOp::create(rewriter, loc, pointerType, type, slot,
                                   ArrayRef<LLVM::GEPArg>{0, int32_t(i)});
    LLVM::StoreOp::create(rewriter, loc, value, at);
  }
  return slot;
}

Value RuntimeCall::constant(unsigned width, int64_t value) {
  Type type = rewriter.getIntegerType(width);
  return LLVM::ConstantOp::create(rewriter, loc, type,
                                  rewriter.getIntegerAttr(type, value));
}

/// The calls whose values the fidelity counters examine.
static bool isCounted(RuntimeFn fn) {
  return kRuntimeFunctions[int(fn)].counts == RuntimeCounts::Counted;
}

/// `status = fn(args...)`, then `birsim_check_status(status, op name)`;
/// with fidelity counters, `birsim_fidelity_site(op location)` and
/// `birsim_fidelity_set_device_site(site)` first.
LogicalResult RuntimeCall::emit(RuntimeFn fn) {
  auto module = op->getParentOfType<ModuleOp>();
  if (fidelity.counters && isCounted(fn)) {
    FailureOr<LLVM::LLVMFuncOp> site = declareRuntimeFunction(
        rewriter, op, module, RuntimeFn::birsim_fidelity_site);
    FailureOr<LLVM::LLVMFuncOp> deviceSite = declareRuntimeFunction(
        rewriter, op, module, RuntimeFn::birsim_fidelity_set_device_site);
    if (failed(site) || failed(deviceSite))
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
    // The call's own `where` (a BFP op's site) stays its own.
    Value where = values[unsigned(ArgRole::Where)];
    setI32(ArgRole::Where, fidelity.deviceSite); // checked by the pass
    call(*deviceSite, RuntimeFn::birsim_fidelity_set_device_site);
    set(ArgRole::Where, where);
  }
  if (stagingFailed)
    return failure();
  // Sizes that differ at run time: every count 0, so the call touches
  // nothing (requireSameCount).
  if (sizesDiffer)
    for (ArgRole role : {ArgRole::Count, ArgRole::DstCount})
      if (Value count = values[unsigned(role)])
        set(role, LLVM::SelectOp::create(rewriter, loc, sizesDiffer,
                                         constant(64, 0), count));
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
  if (sizesDiffer) {
    std::string differ = what + ": its operands' sizes differ at run time";
    set(ArgRole::Status,
        LLVM::SelectOp::create(rewriter, loc, sizesDiffer,
                               constant(32, BIRSIM_EINVAL),
                               values[unsigned(ArgRole::Status)]));
    set(ArgRole::Site,
        LLVM::SelectOp::create(
            rewriter, loc, sizesDiffer,
            stringConstant(module, symbol + "_sizes", differ),
            values[unsigned(ArgRole::Site)]));
  }
  call(*check, RuntimeFn::birsim_check_status);
  if (staged.empty())
    return success();
  // Staged buffers: a written one back when the call succeeded (a status
  // handler may return after a failure), then every copy freed.
  Value succeeded = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                         values[unsigned(ArgRole::Status)],
                                         constant(32, 0));
  Value null = LLVM::ZeroOp::create(
      rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()));
  for (const Staged &staging : staged)
    if (staging.written)
      copyStaged(staging,
                 LLVM::SelectOp::create(rewriter, loc, succeeded,
                                        staging.stage, null),
                 /*toStage=*/false);
  FailureOr<LLVM::LLVMFuncOp> free =
      LLVM::lookupOrCreateFreeFn(rewriter, module);
  if (failed(free))
    return op->emitError("staging a strided buffer needs 'free' as "
                         "llvm.func @free(!llvm.ptr)");
  for (const Staged &staging : staged)
    LLVM::CallOp::create(rewriter, loc, *free, ValueRange{staging.stage});
  return success();
}

LLVM::CallOp RuntimeCall::call(LLVM::LLVMFuncOp callee, RuntimeFn fn) {
  SmallVector<Value> args;
  for (const RuntimeArg &arg : kRuntimeFunctions[int(fn)].args) {
    Value value = values[unsigned(arg.role)];
    assert(value && "the pattern did not supply every role of its call");
    args.push_back(value);
  }
  return LLVM::CallOp::create(rewriter, loc, callee, args);
}

/// A private global `symbol` holding `text`.
Value RuntimeCall::stringConstant(ModuleOp module, const std::string &symbol,
                                  StringRef text) {
  auto global = module.lookupSymbol<LLVM::GlobalOp>(symbol);
  if (!global) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(rewriter.getI8Type(), text.size() + 1);
    global = LLVM::GlobalOp::create(rewriter, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Private, symbol,
                                    rewriter.getStringAttr(text.str() + '\0'));
  }
  return LLVM::AddressOfOp::create(rewriter, loc, global);
}

} // namespace birsim::lowering
