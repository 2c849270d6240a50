//===- Float.cpp - Portable fp32 ALU and float conversions ----------------===//
#include "birsim/Core/Float.h"

#include <utility>

namespace birsim::core {

uint64_t shiftRightRoundEven(uint64_t value, unsigned shift) {
  if (shift == 0)
    return value;
  if (shift > 64)
    return 0;
  uint64_t quotient = shift == 64 ? 0 : value >> shift;
  uint64_t remainder =
      shift == 64 ? value : value & ((uint64_t(1) << shift) - 1);
  uint64_t half = uint64_t(1) << (shift - 1);
  if (remainder > half || (remainder == half && (quotient & 1)))
    ++quotient;
  return quotient;
}

static int highestBit(uint64_t v) { return 63 - __builtin_clzll(v); }

/// The code an overflowing magnitude takes (§4).
static uint32_t overflowCode(const FloatFormat &f, bool negative,
                             unsigned config) {
  uint32_t sign = negative ? f.signMask() : 0;
  if ((config & kFp8Saturate) || !f.hasNaN()) // no Inf or NaN to take
    return sign | f.maxFiniteCode();
  if (f.hasInf())
    return sign | f.infCode();
  return f.nanResult;
}

/// Zero of the given sign, where the format has -0 (FNUZ: +0 only).
static uint32_t zeroCode(const FloatFormat &f, bool negative) {
  return negative && f.hasNegativeZero() ? f.signMask() : 0;
}

uint32_t roundToFormat(const FloatFormat &f, bool negative, uint64_t magnitude,
                       int exp2, unsigned config) {
  uint32_t sign = negative ? f.signMask() : 0;
  if (magnitude == 0)
    return zeroCode(f, negative);
  int exponent = highestBit(magnitude) + exp2; // value in [2^e, 2^(e+1))
  int biased = exponent + f.bias;
  int minNormal = 1 - f.bias;
  // Quantum of the result: 2^(e - M) for normals, 2^(emin - M) below.
  int quantum = (biased >= 1 ? exponent : minNormal) - f.mantissaBits;
  int shift = quantum - exp2;
  uint64_t significand;
  if (shift >= 0)
    significand = shiftRightRoundEven(magnitude, unsigned(shift));
  else
    significand = magnitude << unsigned(-shift); // exact: fits M+1 bits
  // Adding the significand (hidden bit included) carries into the exponent.
  uint64_t code =
      (uint64_t(biased >= 1 ? biased - 1 : 0) << f.mantissaBits) + significand;
  if (code > f.maxFiniteCode())
    return overflowCode(f, negative, config);
  return code ? sign | uint32_t(code) : zeroCode(f, negative);
}

uint32_t widenToF32(const FloatFormat &f, uint32_t bits) {
  bool negative = bits & f.signMask();
  uint32_t sign = negative ? kF32SignMask : 0;
  uint32_t mantMask = (1u << f.mantissaBits) - 1;
  uint32_t exponent = (bits >> f.mantissaBits) & f.exponentAllOnes();
  uint32_t mantissa = bits & mantMask;
  if (f.isInf(bits))
    return sign | 0x7F800000u;
  if (f.isNaN(bits)) { // the payload kept; FNUZ's NaN has none
    uint32_t payload = mantissa << (23 - f.mantissaBits);
    return sign | 0x7F800000u | (payload ? payload : kF32QuietBit);
  }
  // Exact: every format's normals are fp32 normals, and its subnormals
  // fp32 normals too unless it has fp32's exponent field (bf16).
  unsigned toF32 = 23 - f.mantissaBits;
  if (exponent != 0)
    return sign | uint32_t(int(exponent) - f.bias + 127) << 23 |
           mantissa << toF32;
  if (mantissa == 0 || (f.exponentBits == 8 && f.bias == 127))
    return sign | mantissa << toF32;
  int lead = 31 - __builtin_clz(mantissa); // value = 1.f * 2^(lead+1-bias-m)
  uint32_t biased = uint32_t(lead + 1 - f.bias - int(f.mantissaBits) + 127);
  return sign | biased << 23 | ((mantissa << (23 - lead)) & 0x7FFFFFu);
}

uint32_t narrowFromF32(const FloatFormat &f, uint32_t x, unsigned config) {
  bool negative = x & kF32SignMask;
  if (isNaNF32(x)) {
    if (config & kFp8NanSuppress)
      return 0;
    return f.nanResult | (f.nanKeepsSign && negative ? f.signMask() : 0);
  }
  if (isInfF32(x))
    return overflowCode(f, negative, config);
  if (f.exponentBits == 8 && f.bias == 127 && f.hasInf()) {
    // fp32's own exponent field (bf16): rounding the magnitude's bit pattern
    // at the dropped mantissa bits rounds the value, subnormals included; a
    // carry moves into the exponent, up to Inf.
    uint32_t magnitude =
        uint32_t(shiftRightRoundEven(x & 0x7FFFFFFFu, 23 - f.mantissaBits));
    if (magnitude > f.maxFiniteCode())
      return overflowCode(f, negative, config);
    return (negative ? f.signMask() : 0) | magnitude;
  }
  UnpackedF32 v = unpackFiniteF32(x);
  return roundToFormat(f, negative, v.significand, v.exp2, config);
}

uint32_t narrowToFloat32r(uint32_t x) {
  constexpr uint32_t kDropped = 13;
  if (isNaNF32(x)) {
    // [decision] docs/Decisions.md: truncate the payload, keep it a NaN.
    uint32_t kept = x & ~((1u << kDropped) - 1);
    return isNaNF32(kept) ? kept : kept | kF32QuietBit;
  }
  if (isInfF32(x))
    return x;
  uint32_t sign = x & kF32SignMask;
  // The magnitude's bit pattern is monotonic, so rounding it as an integer
  // rounds the value (a carry bumps the exponent, up to Inf).
  uint32_t magnitude = x & 0x7FFFFFFFu;
  return sign | uint32_t(shiftRightRoundEven(magnitude, kDropped) << kDropped);
}

//===-- x86 SSE scalar semantics (docs/Semantics.md section 2) -----------------===//

UnpackedF32 unpackFiniteF32(uint32_t x) {
  uint32_t exponent = (x >> 23) & 0xFF;
  uint32_t mantissa = x & 0x7FFFFF;
  if (exponent == 0)
    return {bool(x & kF32SignMask), mantissa, -149};
  return {bool(x & kF32SignMask), mantissa | 0x800000u, int(exponent) - 150};
}

uint32_t addss(uint32_t a, uint32_t b) {
  if (isNaNF32(a))
    return a | kF32QuietBit;
  if (isNaNF32(b))
    return b | kF32QuietBit;
  if (isInfF32(a) && isInfF32(b))
    return a == b ? a : kX86DefaultNaN;
  if (isInfF32(a))
    return a;
  if (isInfF32(b))
    return b;
  UnpackedF32 x = unpackFiniteF32(a), y = unpackFiniteF32(b);
  if (x.significand == 0 && y.significand == 0) // -0 only for (-0) + (-0)
    return (x.negative && y.negative) ? kF32SignMask : 0;
  if (y.significand == 0)
    return a;
  if (x.significand == 0)
    return b;
  uint32_t xBits = a;
  if (x.exp2 < y.exp2) {
    std::swap(x, y);
    xBits = b;
  }
  // More than 38 bits apart, y is under a quarter ulp of x (x is then
  // normal): the RNE sum is x.
  int distance = x.exp2 - y.exp2;
  if (distance > 38)
    return xBits;
  uint64_t big = x.significand << distance, small = y.significand;
  uint64_t magnitude;
  bool negative;
  if (x.negative == y.negative) {
    magnitude = big + small;
    negative = x.negative;
  } else if (big >= small) {
    magnitude = big - small;
    negative = x.negative;
  } else {
    magnitude = small - big;
    negative = y.negative;
  }
  if (magnitude == 0) // exact cancellation gives +0 under RNE
    return 0;
  return roundToFormat(kFloat32Format, negative, magnitude, y.exp2, 0);
}

/// Total order key of a non-NaN fp32 pattern (-0 and +0 equal).
static int64_t orderKey(uint32_t x) {
  int64_t magnitude = x & 0x7FFFFFFFu;
  return (x & kF32SignMask) ? -magnitude : magnitude;
}

uint32_t minss(uint32_t a, uint32_t b) {
  if (isNaNF32(a) || isNaNF32(b))
    return b;
  return orderKey(a) < orderKey(b) ? a : b;
}

uint32_t maxss(uint32_t a, uint32_t b) {
  if (isNaNF32(a) || isNaNF32(b))
    return b;
  return orderKey(a) > orderKey(b) ? a : b;
}

} // namespace birsim::core
