//===- FormatConstants.h - a float format's constants for lanes -*- C++ -*-===//
//
// Private to lib/Core. What LaneArithmetic.h's widening and narrowing of a
// format need, computed once per call; ISA-neutral.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_FORMATCONSTANTS_H
#define BIRSIM_LIB_CORE_KERNELS_FORMATCONSTANTS_H

#include "birsim/Core/Dtype.h"
#include "birsim/Core/Float.h"

#include <cmath>
#include <cstdint>

namespace birsim::core::kernel {

/// The constants of widening a format to fp32: exact, subnormals by an
/// exact multiply, NaN payloads moved up and not quieted (§4).
struct WidenConstants {
  explicit WidenConstants(const FloatFormat &f)
      : mantissaShift(int(f.mantissaBits)),
        signShift(int(f.exponentBits + f.mantissaBits)),
        toF32Mantissa(int(23 - f.mantissaBits)),
        exponentMask((1u << f.exponentBits) - 1),
        mantissaMask((1u << f.mantissaBits) - 1),
        rebias(uint32_t(127 - f.bias)),
        subnormalScale(std::ldexp(1.0f, 1 - f.bias - int(f.mantissaBits))),
        ieee(f.hasInf()),
        sameExponentsAsF32(f.exponentBits == 8 && f.bias == 127) {}

  int mantissaShift, signShift, toF32Mantissa;
  uint32_t exponentMask, mantissaMask, rebias;
  float subnormalScale;
  bool ieee;
  bool sameExponentsAsF32; ///< a bias-127 format's subnormals are fp32's
};

/// The constants of narrowing fp32 to a format under an FP8 config (§4):
/// round to nearest even on the magnitude's bit pattern for normal results,
/// by an exact float add of a magic constant for subnormal ones; overflow
/// and NaN per the config.
struct NarrowConstants {
  NarrowConstants(const FloatFormat &f, unsigned config) {
    unsigned m = f.mantissaBits, shift = 23 - m;
    uint32_t signBit = f.signMask(), maxFiniteCode = f.maxFiniteCode();
    dropShift = int(shift);
    signToFormat = int(31 - (f.exponentBits + m));
    rebias = uint32_t(f.bias - 127) << 23;
    roundBias = (1u << (shift - 1)) - 1;
    // Adding 2^(24 - bias - m) rounds a smaller magnitude at the format's
    // subnormal quantum 2^(1 - bias - m).
    magicBits = uint32_t(24 - f.bias - int(m) + 127) << 23;
    minNormal = uint32_t(1 - f.bias + 127) << 23;
    maxFinite = maxFiniteCode;
    bool saturate = config & kFp8Saturate;
    if (saturate || f.hasInf()) {
      overflowBase = saturate ? maxFiniteCode : f.infCode();
      overflowSign = signBit;
    } else { // e4m3fn without saturation: the format's NaN, unsigned
      overflowBase = f.nanResult;
      overflowSign = 0;
    }
    bool suppress = config & kFp8NanSuppress;
    nanBase = suppress ? 0 : f.nanResult;
    nanSign = !suppress && f.nanKeepsSign ? signBit : 0;
  }

  int dropShift, signToFormat;
  uint32_t rebias, roundBias, magicBits, minNormal, maxFinite;
  uint32_t overflowBase, overflowSign, nanBase, nanSign;
};

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_FORMATCONSTANTS_H
