//===- BirsimConstants.h - raw bytes of constant operands -------*- C++ -*-===//
//
// The folders and the fidelity analysis read constants the way the core
// reads buffers: raw little-endian element bytes of dense, splat, scalar and
// `dense_resource` attributes, in place.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_DIALECT_BIRSIM_IR_BIRSIMCONSTANTS_H
#define BIRSIM_DIALECT_BIRSIM_IR_BIRSIMCONSTANTS_H

#include "birsim/Support/LLVM.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace birsim {
class FoldBudget;

/// The raw element bytes of a constant: every element, or one when splat.
/// `resource` marks bytes read in place from a `dense_resource` blob.
struct RawConstant {
  ArrayRef<char> data;
  bool splat = false;
  bool resource = false;
  uint64_t scalarBits = 0; // storage for scalar attributes

  const char *bytes() const {
    return data.empty() ? reinterpret_cast<const char *>(&scalarBits)
                        : data.data();
  }
};

/// Integer and float element types: what dense attributes store.
bool isDenseStorable(Type elementType);

/// The bytes of a dense, splat, scalar or `dense_resource` constant whose
/// elements are `bytes` wide; none for anything else, and for an elided or
/// missing blob or one whose size does not match its type.
std::optional<RawConstant> getRawConstant(Attribute attr, unsigned bytes);

/// `count` elements of `bytes` each: the constant's own bytes when it holds
/// them all (read in place, never copied), else its splat expanded into
/// `storage`, charged to `budget`; null when the budget declines.
const char *elementsOf(const RawConstant &c, size_t count, unsigned bytes,
                       SmallVectorImpl<char> &storage, FoldBudget &budget);

/// The raw bytes of `value` when it is a constant getRawConstant reads.
std::optional<RawConstant> rawConstantOf(mlir::Value value, unsigned bytes);

/// `count` elements of `bytes` each of `value` when it is a constant
/// (elementsOf of its attribute), else null.
const char *constantElements(mlir::Value value, size_t count, unsigned bytes,
                             SmallVectorImpl<char> &storage,
                             FoldBudget &budget);

} // namespace birsim

#endif
