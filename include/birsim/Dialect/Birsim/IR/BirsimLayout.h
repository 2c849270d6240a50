//===- BirsimLayout.h - which memref layouts an op may write -----*- C++ -*-===//
//
// The rule both the verifiers and the lowering apply to a written buffer
// that is not contiguous (docs/Conversions.md, "Buffers the runtime takes";
// docs/Decisions.md D72): the lowering stages it through a contiguous copy
// and copies the result back element by element, which is exact only when
// no two elements share an address.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_DIALECT_BIRSIM_IR_BIRSIMLAYOUT_H
#define BIRSIM_DIALECT_BIRSIM_IR_BIRSIMLAYOUT_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <cstdint>
#include <optional>

namespace birsim {

/// The rule hasDistinctElements checks, for the diagnostics that apply it.
inline constexpr const char kDistinctElementsRule[] =
    "a written buffer that is not contiguous row-major must have a strided "
    "layout whose elements have distinct addresses (static strides, each at "
    "least the span of the dimensions of smaller stride; no stride 0), as "
    "the lowering copies it back from a contiguous staging copy element by "
    "element (docs/Conversions.md)";

/// Whether every element of a memref of `type` has its own address, whatever
/// its dynamic sizes: a strided layout with static strides where, taking
/// the dimensions by increasing stride, each stride is at least the span of
/// the dimensions before it, and only the dimension of the largest stride
/// may have a dynamic size. Dimensions of size 1 take any stride; a memref
/// with no elements has distinct ones. Stride 0 (a broadcast) or strides
/// that interleave fail.
inline bool hasDistinctElements(mlir::MemRefType type) {
  if (type.getLayout().isIdentity())
    return true;
  llvm::SmallVector<int64_t> strides;
  int64_t offset;
  if (mlir::failed(type.getStridesAndOffset(strides, offset)))
    return false;
  llvm::SmallVector<unsigned> dims;
  for (unsigned i = 0; i < type.getRank(); ++i) {
    if (type.getDimSize(i) == 0)
      return true;
    if (type.getDimSize(i) == 1)
      continue;
    if (mlir::ShapedType::isDynamic(strides[i]))
      return false;
    dims.push_back(i);
  }
  llvm::sort(dims, [&](unsigned a, unsigned b) {
    return strides[a] != strides[b] ? strides[a] < strides[b] : a > b;
  });
  int64_t span = 1; // one past the largest offset the dimensions so far reach
  for (auto [position, dim] : llvm::enumerate(dims)) {
    if (strides[dim] < span)
      return false;
    if (type.isDynamicDim(dim))
      return position + 1 == dims.size();
    std::optional<int64_t> reach =
        llvm::checkedMul(strides[dim], type.getDimSize(dim) - 1);
    if (!reach || !(reach = llvm::checkedAdd(*reach, span)))
      return false;
    span = *reach;
  }
  return true;
}

} // namespace birsim

#endif // BIRSIM_DIALECT_BIRSIM_IR_BIRSIMLAYOUT_H
