//===- Convert.h - the cast engine element by element -----------*- C++ -*-===//
//
// bir::CastToNewDType's element conversions through the fp32 hub
// (docs/Semantics.md section 4), below the bulk engine (Cast.h) and the
// fidelity classification (Fidelity.h) that both use them.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CORE_CONVERT_H
#define BIRSIM_CORE_CONVERT_H

#include "birsim/Core/Dtype.h"
#include "birsim/Core/Status.h"

#include <cstdint>

namespace birsim::core {

/// Reads one element of a castable dtype as fp32 bits (§4: exact for floats,
/// RNE for integers).
uint32_t readAsF32(const DtypeInfo &src, uint64_t bits);

/// The config a narrowing into `dst` takes: `fp8Config` for the fp8 dtypes,
/// 0 for every other (§4; D2).
inline unsigned fp8ConfigFor(const DtypeInfo &dst, unsigned fp8Config) {
  return dst.isFp8() ? fp8Config : 0;
}

/// Writes fp32 bits as one element of a castable dtype (§4). `fp8Config`
/// applies to the fp8 dtypes only.
uint64_t writeFromF32(const DtypeInfo &dst, uint32_t f32, unsigned fp8Config);

/// fp32 -> integer dtype (§4): RNE, then saturate; NaN -> max, negative
/// NaN -> min (0 for unsigned). `clamped` tells whether a finite or
/// infinite value was out of range.
uint64_t f32ToInteger(const DtypeInfo &dst, uint32_t f32, bool &clamped);

/// The FP8ConversionConfig word admits bit 0 and byte 1 only (§4; D4).
Status checkFp8Config(uint64_t fp8Config);

} // namespace birsim::core

#endif // BIRSIM_CORE_CONVERT_H
