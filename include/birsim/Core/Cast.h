//===- Cast.h - Whole-tensor cast engine ------------------------*- C++ -*-===//
//
// bir::CastToNewDType between the 17 non-packed dtypes through the fp32 hub
// (docs/Semantics.md section 4).
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CORE_CAST_H
#define BIRSIM_CORE_CAST_H

#include "birsim/Core/Dtype.h"
#include "birsim/Core/Status.h"
#include "birsim/Core/Fidelity.h"

#include <cstddef>
#include <cstdint>

namespace birsim::core {

/// Reads one element of a castable dtype as fp32 bits (§4: exact for floats,
/// RNE for integers).
uint32_t readAsF32(const DtypeInfo &src, uint64_t bits);

/// Writes fp32 bits as one element of a castable dtype (§4). `fp8Config`
/// applies to the fp8 dtypes only.
uint64_t writeFromF32(const DtypeInfo &dst, uint32_t f32, unsigned fp8Config);

/// fp32 -> integer dtype (§4): RNE, then saturate; NaN -> max, negative
/// NaN -> min (0 for unsigned). `clamped` tells whether a finite or
/// infinite value was out of range.
uint64_t f32ToInteger(const DtypeInfo &dst, uint32_t f32, bool &clamped);

/// Checks the cast's arguments without touching any buffer.
Status checkCast(int srcDtype, int dstDtype, unsigned fp8Config);

/// The FP8ConversionConfig word admits bit 0 and byte 1 only (§4; D4).
Status checkFp8Config(uint64_t fp8Config);

/// `count` elements from `src` to `dst`; nothing is written on error. A
/// non-null `counts` receives the fidelity counts (docs/Fidelity.md).
Status castBuffer(int srcDtype, const void *src, int dstDtype, void *dst,
                  size_t count, unsigned fp8Config,
                  FidelityCounts *counts = nullptr);

} // namespace birsim::core

#endif // BIRSIM_CORE_CAST_H
