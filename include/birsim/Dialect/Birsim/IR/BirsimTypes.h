//===- BirsimTypes.h - birsim types and the dtype mapping -------*- C++ -*-===//
#ifndef BIRSIM_DIALECT_BIRSIM_IR_BIRSIMTYPES_H
#define BIRSIM_DIALECT_BIRSIM_IR_BIRSIMTYPES_H

#include "birsim/Core/Dtype.h"
#include "birsim/Support/LLVM.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#include <optional>

#define GET_TYPEDEF_CLASSES
#include "birsim/Dialect/Birsim/IR/BirsimTypes.h.inc"

namespace birsim {

/// The bir::Dtype an element type stands for (docs/Semantics.md section 1), or
/// nullopt. `i8`/`si8` are int8, `ui8` is uint8, and so on.
std::optional<core::Dtype> getDtype(Type elementType);

/// The element type of a bir::Dtype: builtin where MLIR has one (signless
/// for the signed integers), a birsim type otherwise.
Type getElementType(MLIRContext *context, core::Dtype dtype);

/// A memref whose elements are contiguous in row-major order: the identity
/// layout, or strides equal to the row-major strides with any offset (e.g. a
/// row of a larger buffer). The runtime takes such buffers as pointer +
/// element count.
bool isContiguousRowMajor(MemRefType type);

/// Both scalars, or the same container kind (vector, tensor, memref) with the
/// same shape.
bool haveSameShapeAndContainer(Type lhs, Type rhs);

/// Descriptor of the dtype of `type`'s element type, or null.
const core::DtypeInfo *lookupDtypeInfo(Type type);

/// A float element type birsim.cast takes: a Dtypes.def float row (f32,
/// bf16, f16, the fp8 types).
bool isBirsimFloat(Type elementType);

} // namespace birsim

#endif
