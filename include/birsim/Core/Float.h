//===- Float.h - Portable fp32 ALU and float conversions --------*- C++ -*-===//
//
// Integer-only implementations of the x86 SSE scalar instructions the
// simulator executes (docs/Semantics.md section 2) and of the widen/narrow
// conversions between fp32 and every FloatFormat (section 4). Nothing here
// touches the host FPU, so results do not depend on its rounding mode or
// NaN behaviour.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CORE_FLOAT_H
#define BIRSIM_CORE_FLOAT_H

#include "birsim/Core/Dtype.h"

#include <cstdint>

namespace birsim::core {

/// FP8ConversionConfig bits (docs/Semantics.md section 4).
constexpr unsigned kFp8Saturate = 0x0001;    ///< bit 0: saturate
constexpr unsigned kFp8NanSuppress = 0xFF00; ///< byte 1: NaN -> +0
constexpr unsigned kFp8ConfigMask = kFp8Saturate | kFp8NanSuppress;
/// The flags by name, as the dialect prints them and the C ABI lists them.
struct Fp8ConfigFlag {
  const char *name;
  unsigned bits;
};
inline constexpr Fp8ConfigFlag kFp8ConfigFlags[] = {
    {"saturate", kFp8Saturate}, {"nan_suppress", kFp8NanSuppress}};

constexpr uint32_t kF32SignMask = 0x80000000u;
constexpr uint32_t kF32QuietBit = 0x00400000u;
constexpr uint32_t kX86DefaultNaN = 0xFFC00000u; ///< §2: +Inf + -Inf

inline bool isNaNF32(uint32_t x) { return (x & 0x7FFFFFFFu) > 0x7F800000u; }
inline bool isInfF32(uint32_t x) { return (x & 0x7FFFFFFFu) == 0x7F800000u; }
inline bool isFiniteF32(uint32_t x) { return (x & 0x7FFFFFFFu) < 0x7F800000u; }

/// A finite fp32 value as `(-1)^negative * significand * 2^exp2`, the
/// significand holding the hidden bit (none for zero and subnormals).
struct UnpackedF32 {
  bool negative;
  uint64_t significand;
  int exp2;
};
UnpackedF32 unpackFiniteF32(uint32_t x);

/// x86 ADDSS(a, b) on fp32 bit patterns (§2).
uint32_t addss(uint32_t a, uint32_t b);
/// x86 MINSS(a, b): b if either is NaN or both are zero, else the smaller.
uint32_t minss(uint32_t a, uint32_t b);
/// x86 MAXSS(a, b): b if either is NaN or both are zero, else the larger.
uint32_t maxss(uint32_t a, uint32_t b);

/// Round `(-1)^negative * magnitude * 2^exp2` to `format`, nearest-even,
/// with subnormals. Overflow follows §4: saturate when `config` has
/// kFp8Saturate, else Inf (IEEE formats) or the format's NaN (e4m3fn).
uint32_t roundToFormat(const FloatFormat &format, bool negative,
                       uint64_t magnitude, int exp2, unsigned config);

/// Exact widening of a `format` value to fp32 bits; NaN payloads move to the
/// top of the fp32 mantissa, unquieted (§4).
uint32_t widenToF32(const FloatFormat &format, uint32_t bits);

/// Narrowing of fp32 bits to `format` (§4): RNE, NaN to the format's NaN
/// (or +0 under NaN-suppress), overflow per `config`.
uint32_t narrowFromF32(const FloatFormat &format, uint32_t f32,
                       unsigned config);

/// float32r write: RNE at 10 explicit mantissa bits, low 13 bits zero (§4).
uint32_t narrowToFloat32r(uint32_t f32);

/// Round-to-nearest-even of `value >> shift` (any shift).
uint64_t shiftRightRoundEven(uint64_t value, unsigned shift);

} // namespace birsim::core

#endif // BIRSIM_CORE_FLOAT_H
