//===- BirsimSizes.cpp - checked sizes and the fold limit -----------------===//
#include "birsim/Dialect/Birsim/IR/BirsimSizes.h"
#include "birsim/Dialect/Birsim/IR/BirsimDialect.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ManagedStatic.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <atomic>

using namespace mlir;

namespace birsim {

std::optional<uint64_t> checkedElementCount(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped)
    return 1;
  if (!shaped.hasStaticShape())
    return std::nullopt;
  int64_t count = 1;
  for (int64_t dim : shaped.getShape()) {
    std::optional<int64_t> product = llvm::checkedMul(count, dim);
    if (!product)
      return std::nullopt;
    count = *product;
  }
  return uint64_t(count);
}

std::optional<uint64_t> checkedByteSize(uint64_t count, uint64_t bytes) {
  std::optional<uint64_t> size = llvm::checkedMulUnsigned(count, bytes);
  if (!size || *size > uint64_t(INT64_MAX))
    return std::nullopt;
  return size;
}

std::optional<uint64_t> checkedTypeBytes(Type type) {
  Type element = type;
  if (auto shaped = dyn_cast<ShapedType>(type))
    element = shaped.getElementType();
  uint64_t bytes = 0;
  if (element.isIntOrFloat())
    bytes = (element.getIntOrFloatBitWidth() + 7) / 8;
  std::optional<uint64_t> count = checkedElementCount(type);
  return count ? checkedByteSize(*count, bytes) : std::nullopt;
}

/// The shapes of `value`'s type: dynamic ones are sized at run time.
static LogicalResult verifySized(Operation *op, Type type, StringRef role,
                                 unsigned index) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape() || checkedTypeBytes(type))
    return success();
  return op->emitOpError() << role << " #" << index << " of type " << type
                           << " has more elements or bytes than int64 holds "
                              "(docs/Decisions.md D76)";
}

LogicalResult verifySizedShapes(Operation *op) {
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(verifySized(op, type, "operand", i)))
      return failure();
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(verifySized(op, type, "result", i)))
      return failure();
  return success();
}

static std::atomic<uint64_t> defaultLimit{kDefaultFoldLimit};

namespace {
struct FoldLimitOption {
  llvm::cl::opt<uint64_t> option{
      "birsim-fold-limit",
      llvm::cl::desc("The most bytes one birsim folder or analysis "
                     "materialises, and the most multiply-adds a matmul "
                     "folder computes; beyond it the op is left for run "
                     "time with a remark (docs/Decisions.md D76)"),
      llvm::cl::init(kDefaultFoldLimit),
      llvm::cl::cb<void, uint64_t>([](uint64_t bytes) {
        defaultLimit.store(bytes, std::memory_order_relaxed);
      })};
};
} // namespace
static llvm::ManagedStatic<FoldLimitOption> foldLimitOption;

void registerFoldLimitOption() { *foldLimitOption; }
uint64_t defaultFoldLimit() {
  return defaultLimit.load(std::memory_order_relaxed);
}
uint64_t foldLimit(MLIRContext *context) {
  auto *dialect = context->getLoadedDialect<BirsimDialect>();
  return dialect ? dialect->getFoldLimit() : defaultFoldLimit();
}
void setFoldLimit(MLIRContext *context, uint64_t bytes) {
  context->getOrLoadDialect<BirsimDialect>()->setFoldLimit(bytes);
}

FoldBudget::FoldBudget(Operation *op, StringRef declined)
    : op(op), declined(declined) {}

bool FoldBudget::decline(const llvm::Twine &why) {
  op->emitRemark() << declined << ": " << why
                   << " (--birsim-fold-limit=" << foldLimit(op->getContext())
                   << "; docs/Decisions.md D76); left for run time";
  return false;
}

bool FoldBudget::charge(uint64_t count, uint64_t bytes, StringRef what) {
  std::optional<uint64_t> size = checkedByteSize(count, bytes);
  if (!size)
    return decline(llvm::Twine(what) + " of " + llvm::Twine(count) + " elements of " +
                   llvm::Twine(bytes) + " bytes overflows int64");
  std::optional<uint64_t> total = llvm::checkedAddUnsigned(used, *size);
  if (!total || *total > foldLimit(op->getContext()))
    return decline(llvm::Twine(what) + " needs " + llvm::Twine(*size) +
                   " bytes, past the fold limit");
  used = *total;
  return true;
}

bool FoldBudget::chargeMatmul(uint64_t m, uint64_t k, uint64_t n) {
  std::optional<uint64_t> mk = llvm::checkedMulUnsigned(m, k);
  std::optional<uint64_t> work =
      mk ? llvm::checkedMulUnsigned(*mk, n) : std::nullopt;
  if (!work || *work > foldLimit(op->getContext()))
    return decline("the matmul's " + llvm::Twine(m) + "x" + llvm::Twine(k) + "x" +
                   llvm::Twine(n) + " multiply-adds pass the fold limit");
  return true;
}

} // namespace birsim
