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

  /// The elements of the memref operand `memref` (`descriptor`, its
  /// converted value) as the runtime takes a buffer: a pointer to them
  /// contiguous in row-major order. A contiguous row-major layout gives its
  /// own data (aligned pointer + offset); any other strided layout a staging
  /// copy (docs/Conversions.md, D72), copied in before the call and, when
  /// the op writes the memref, out after a call that succeeds, then freed.
  /// The only way a pattern takes a memref's address, so no call sees a
  /// strided buffer as a contiguous one. checkRuntimeOperands first.
  mlir::Value buffer(mlir::Value memref, mlir::Value descriptor);
  /// Requires the memref operands `a` and `b` to hold as many elements, a
  /// check left to run time when either has a dynamic size (the verifiers
  /// check static ones): where they differ, the call runs on no elements
  /// (its counts 0) and fails with BIRSIM_EINVAL, "<op> at <loc>: its
  /// operands' sizes differ at run time", so that no call reads or writes
  /// past one by the other's count.
  void requireSameCount(mlir::Value a, mlir::Value aDescriptor, mlir::Value b,
                        mlir::Value bDescriptor);
  /// The same on the sizes of dimension 0 (a BFP tile form's tile count).
  void requireSameLeadingSize(mlir::Value a, mlir::Value aDescriptor,
                              mlir::Value b, mlir::Value bDescriptor);
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
  /// A staged buffer: the view, its staging copy, the view's sizes and
  /// strides (the copy function's arguments) and whether the op writes it.
  struct Staged {
    mlir::Value memref, view, stage;
    mlir::LLVM::LLVMFuncOp copy;
    llvm::SmallVector<mlir::Value> extents;
    bool written;
  };
  /// `copy(view, stage or null, toStage, sizes..., strides...)`.
  void copyStaged(const Staged &staged, mlir::Value stage, bool toStage);
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
  llvm::SmallVector<Staged> staged;
  bool stagingFailed = false;
  /// i1: some pair of sizes requireSameCount compares differs; null when
  /// every pair is static.
  mlir::Value sizesDiffer;
  void requireEqual(mlir::Value lhs, mlir::Value rhs);
};

/// The rule of every operand and result of an op the lowering turns into a
/// runtime call (docs/Conversions.md, D72), with a diagnostic naming the op,
/// the operand or result, its type and the rule: a memref has a strided
/// layout; a memref's or vector's static sizes times its element width fit
/// in int64, so that no count or size the lowering computes from the type
/// wraps; a written memref that is not contiguous row-major has distinct
/// elements (hasDistinctElements), since its staging copy is copied back
/// element by element. Every pattern calls it before it changes the IR.
mlir::LogicalResult checkRuntimeOperands(mlir::Operation *op);

} // namespace birsim::lowering

#endif // BIRSIM_LIB_CONVERSION_BIRSIMTOLLVM_RUNTIMECALL_H
