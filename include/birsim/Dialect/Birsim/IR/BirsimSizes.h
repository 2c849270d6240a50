//===- BirsimSizes.h - checked sizes and the fold limit ---------*- C++ -*-===//
//
// Every size the dialect computes from a type or an attribute goes through
// here: element counts and byte sizes in checked arithmetic, and the fold
// limit that bounds what one folder or analysis materialises
// (docs/Decisions.md D76).
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_DIALECT_BIRSIM_IR_BIRSIMSIZES_H
#define BIRSIM_DIALECT_BIRSIM_IR_BIRSIMSIZES_H

#include "birsim/Support/LLVM.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>
#include <optional>

namespace birsim {

/// The elements of a static shaped type (1 for a scalar); none when the
/// shape is dynamic or the product of its dimensions overflows int64.
std::optional<uint64_t> checkedElementCount(Type type);

/// `count * bytes`, none when it overflows int64.
std::optional<uint64_t> checkedByteSize(uint64_t count, uint64_t bytes);

/// The byte size of a static shaped type of int or float elements, none as
/// checkedElementCount or checkedByteSize; a bit width that is not a whole
/// number of bytes counts whole bytes.
std::optional<uint64_t> checkedTypeBytes(Type type);

/// Every birsim op: each shaped operand and result with a static shape has
/// an element count and a byte size that fit in int64 (D76).
LogicalResult verifySizedShapes(Operation *op);

/// The fold limit (D76): the most bytes one op's folder or analysis
/// materialises (expanded splats, results, scratch) and the most
/// multiply-adds a matmul folder computes. Each context's birsim dialect
/// keeps its own, starting from the process default: kDefaultFoldLimit, or
/// `--birsim-fold-limit` in a tool that called registerFoldLimitOption.
constexpr uint64_t kDefaultFoldLimit = uint64_t(1) << 30;
uint64_t foldLimit(MLIRContext *context);
void setFoldLimit(MLIRContext *context, uint64_t bytes);
uint64_t defaultFoldLimit();
/// Registers `--birsim-fold-limit` (sets the process default); idempotent.
void registerFoldLimitOption();

/// What one fold or analysis of `op` may still materialise. Each charge
/// that overflows or passes the limit fails and emits one remark on `op`
/// saying what was declined ("not folded", "not analysed") and why.
class FoldBudget {
public:
  FoldBudget(Operation *op, StringRef declined);
  /// `count` elements of `bytes` each.
  bool charge(uint64_t count, uint64_t bytes, StringRef what);
  /// `m x k` by `k x n` multiply-adds.
  bool chargeMatmul(uint64_t m, uint64_t k, uint64_t n);

private:
  bool decline(const llvm::Twine &why);
  Operation *op;
  StringRef declined;
  uint64_t used = 0;
};

} // namespace birsim

#endif
