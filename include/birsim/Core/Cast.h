//===- Cast.h - Whole-tensor cast engine ------------------------*- C++ -*-===//
//
// bir::CastToNewDType over buffers, between the non-packed dtypes through
// the fp32 hub (docs/Semantics.md section 4), on the vector kernels and
// threads; its element functions are Convert.h's.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CORE_CAST_H
#define BIRSIM_CORE_CAST_H

#include "birsim/Core/Convert.h"
#include "birsim/Core/Dtype.h"
#include "birsim/Core/Status.h"
#include "birsim/Core/Fidelity.h"

#include <cstddef>
#include <cstdint>

namespace birsim::core {

/// Checks the cast's arguments without touching any buffer.
Status checkCast(int srcDtype, int dstDtype, unsigned fp8Config);

/// `count` elements from `src` to `dst`; nothing is written on error. A
/// non-null `counts` receives the fidelity counts (docs/Fidelity.md).
Status castBuffer(int srcDtype, const void *src, int dstDtype, void *dst,
                  size_t count, unsigned fp8Config,
                  FidelityCounts *counts = nullptr);

/// `count` elements of checked dtypes from `src` to `dst` on the calling
/// thread, which exactly alias or do not overlap: one thread's part of
/// castBuffer. A non-null `counts` gets the cast family's counts added.
void castSpan(const DtypeInfo &from, const void *src, const DtypeInfo &to,
              void *dst, size_t count, unsigned fp8Config,
              FidelityCounts *counts = nullptr);

} // namespace birsim::core

#endif // BIRSIM_CORE_CAST_H
