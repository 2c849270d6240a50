//===- RuntimeCall.h - one call into the runtime ----------------*- C++ -*-===//
//
// Private to lib/Conversion/BirsimToLLVM: the lowering's side of the C ABI,
// from RuntimeFunctions.def's Lowered rows (each callee's LLVM type and
// argument order), and the call a pattern fills by role.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CONVERSION_BIRSIMTOLLVM_RUNTIMECALL_H
#define BIRSIM_LIB_CONVERSION_BIRSIMTOLLVM_RUNTIMECALL_H

#include "birsim/Conversion/BirsimToLLVM/BirsimToLLVM.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cstdint>
#include <string>

namespace birsim::lowering {

/// What a pattern supplies for a runtime parameter.
enum class ArgRole {
#define BIRSIM_RUNTIME_ROLE(Role) Role,
#include "birsim/Runtime/RuntimeFunctions.def"
};
inline constexpr unsigned kNumArgRoles = 0
#define BIRSIM_RUNTIME_ROLE(Role) +1
#include "birsim/Runtime/RuntimeFunctions.def"
    ;

// The Lowered rows only.
#define BIRSIM_IF_Lowered(...) __VA_ARGS__
#define BIRSIM_IF_NotLowered(...)

enum class RuntimeFn {
#define BIRSIM_ARG(CType, Role)
#define BIRSIM_RUNTIME_FUNCTION(Name, Result, Lowered, ...)                    \
  BIRSIM_IF_##Lowered(Name, )
#include "birsim/Runtime/RuntimeFunctions.def"
};

/// Collects the values of one runtime call by role and emits it, in the
/// table's argument order, with its status check.
class RuntimeCall {
public:
  RuntimeCall(mlir::ConversionPatternRewriter &rewriter,
              const mlir::LLVMTypeConverter &converter, mlir::Operation *op,
              FidelityLowering fidelity)
      : rewriter(rewriter), converter(converter), op(op), loc(op->getLoc()),
        fidelity(fidelity) {}

  void set(ArgRole role, mlir::Value value) { values[unsigned(role)] = value; }
  void setI32(ArgRole role, int64_t value) { set(role, constant(32, value)); }

  /// The data pointer (aligned pointer + offset) of a contiguous memref.
  mlir::Value pointer(mlir::Value memref, mlir::Value descriptor);
  /// The element count of a memref as i64.
  mlir::Value elementCount(mlir::Value memref, mlir::Value descriptor);
  /// Size of dimension 0 of a memref as i64 (the BFP tile count).
  mlir::Value leadingSize(mlir::Value memref, mlir::Value descriptor);
  /// `value` stored to a fresh entry-block slot; returns the slot.
  mlir::Value spill(mlir::Value value);
  /// A fresh entry-block slot of `type`.
  mlir::Value entrySlot(mlir::Type type);
  mlir::Value constant(unsigned width, int64_t value);
  /// A fresh entry-block array holding `values` (all of one type).
  mlir::Value array(llvm::ArrayRef<mlir::Value> values);

  /// `status = fn(args...)`, then `birsim_check_status(status, op name)`;
  /// with fidelity counters, `birsim_fidelity_site(op location)` and
  /// `birsim_fidelity_set_device_site(site)` first.
  mlir::LogicalResult emit(RuntimeFn fn);

private:
  mlir::LLVM::CallOp call(mlir::LLVM::LLVMFuncOp callee, RuntimeFn fn);
  /// A private global `symbol` holding `text`.
  mlir::Value stringConstant(mlir::ModuleOp module, const std::string &symbol,
                             llvm::StringRef text);

  mlir::ConversionPatternRewriter &rewriter;
  const mlir::LLVMTypeConverter &converter;
  mlir::Operation *op;
  mlir::Location loc;
  FidelityLowering fidelity;
  mlir::Value values[kNumArgRoles];
};

} // namespace birsim::lowering

#endif // BIRSIM_LIB_CONVERSION_BIRSIMTOLLVM_RUNTIMECALL_H
