//===- RuntimeCall.cpp - one call into the runtime ------------------------===//
#include "RuntimeCall.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"
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
// Call emission
//===----------------------------------------------------------------------===//

/// The data pointer (aligned pointer + offset) of a contiguous memref.
Value RuntimeCall::pointer(Value memref, Value descriptor) {
  return MemRefDescriptor(descriptor)
      .bufferPtr(rewriter, loc, converter, cast<MemRefType>(memref.getType()));
}

/// The element count of a memref as i64.
Value RuntimeCall::elementCount(Value memref, Value descriptor) {
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
