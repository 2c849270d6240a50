//===- PlainMx.h - a deliberately plain MX implementation -------*- C++ -*-===//
//
// MX scales, elements and decoding written from docs/Semantics.md section 5
// (MX tiles) alone, in double arithmetic and by searching the element's
// value set: the oracle the core's MX code (lib/Core/Mx.cpp) is tested
// against. Nothing here calls the core.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_TEST_UNIT_CORE_PLAINMX_H
#define BIRSIM_TEST_UNIT_CORE_PLAINMX_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace birsim::test::plainmx {

/// The MX table of docs/Semantics.md section 5, by name.
struct Format {
  bool isInt;
  unsigned e, m;
  int bias;
  bool hasInf, hasNaN, nanAllOnes;
  unsigned bits, storage;
  /// The finite non-negative magnitudes with their codes, ascending (float
  /// formats; filled by formatOf).
  std::vector<std::pair<double, uint32_t>> values;
};
Format withValues(Format f);
inline Format formatOf(const std::string &name) {
  if (name == "mxfp8_e5m2") return withValues({false, 5, 2, 15, true, true, false, 8, 8, {}});
  if (name == "mxfp8_e4m3") return withValues({false, 4, 3, 7, false, true, true, 8, 8, {}});
  if (name == "mxfp6_e3m2") return withValues({false, 3, 2, 3, false, false, false, 6, 8, {}});
  if (name == "mxfp6_e2m3") return withValues({false, 2, 3, 1, false, false, false, 6, 8, {}});
  if (name == "mxfp4") return withValues({false, 2, 1, 1, false, false, false, 4, 4, {}});
  if (name == "mxint8") return {true, 0, 0, 0, false, false, false, 8, 8, {}};
  if (name == "mxint4") return {true, 0, 0, 0, false, false, false, 4, 4, {}};
  return {true, 0, 0, 0, false, false, false, 2, 2, {}}; // mxint2
}

inline bool isNaNCode(const Format &f, uint32_t code) {
  uint32_t magnitude = code & ((1u << (f.e + f.m)) - 1);
  uint32_t exponent = magnitude >> f.m, mantissa = magnitude & ((1u << f.m) - 1);
  if (!f.hasNaN)
    return false;
  if (f.nanAllOnes)
    return magnitude == (1u << (f.e + f.m)) - 1;
  return exponent == (1u << f.e) - 1 && mantissa != 0;
}
inline bool isInfCode(const Format &f, uint32_t code) {
  uint32_t magnitude = code & ((1u << (f.e + f.m)) - 1);
  return f.hasInf && magnitude == ((1u << f.e) - 1) << f.m;
}
/// A finite float code's magnitude.
inline double magnitudeOf(const Format &f, uint32_t code) {
  uint32_t exponent = (code >> f.m) & ((1u << f.e) - 1);
  uint32_t mantissa = code & ((1u << f.m) - 1);
  if (exponent == 0)
    return std::ldexp(double(mantissa), 1 - f.bias - int(f.m));
  return std::ldexp(1.0 + std::ldexp(double(mantissa), -int(f.m)),
                    int(exponent) - f.bias);
}
inline Format withValues(Format f) {
  for (uint32_t c = 0; c < (1u << (f.e + f.m)); ++c)
    if (!isNaNCode(f, c) && !isInfCode(f, c))
      f.values.push_back({magnitudeOf(f, c), c});
  std::sort(f.values.begin(), f.values.end());
  return f;
}
/// The largest finite magnitude's code.
inline uint32_t maxCode(const Format &f) { return f.values.back().second; }
inline int emaxOf(const Format &f) {
  return f.isInt ? 0 : std::ilogb(magnitudeOf(f, maxCode(f)));
}

inline float floatOf(uint32_t b) { float x; std::memcpy(&x, &b, 4); return x; }
inline uint32_t bitsOf(float x) { uint32_t b; std::memcpy(&b, &x, 4); return b; }

/// The scale byte of 32 fp32 values.
inline uint8_t scale(const Format &f, const uint32_t *block) {
  bool allNaN = true, anyInf = false, onlySpecialOrZero = true;
  double maxAbs = 0;
  for (int j = 0; j < 32; ++j) {
    float x = floatOf(block[j]);
    allNaN &= std::isnan(x);
    anyInf |= std::isinf(x);
    onlySpecialOrZero &= !std::isfinite(x) || x == 0;
    if (std::isfinite(x))
      maxAbs = std::fmax(maxAbs, std::fabs(double(x)));
  }
  if (allNaN)
    return 0xFF;
  if (onlySpecialOrZero && anyInf)
    return 0xFE;
  int e = maxAbs == 0 ? 0 : std::ilogb(maxAbs);
  int adj = e - emaxOf(f);
  if (adj < -127)
    adj = -127;
  return uint8_t(adj + 127);
}

/// The element of fp32 `v` under scale byte `s`.
inline uint32_t encode(const Format &f, uint32_t v, uint8_t s) {
  float x = floatOf(v);
  int adj = int(s) - 127;
  bool negative = std::signbit(x);
  if (f.isInt) {
    int max = (1 << (f.bits - 1)) - 1;
    int q;
    if (std::isnan(x))
      q = 0;
    else if (std::isinf(x))
      q = negative ? -max : max;
    else {
      double r = std::nearbyint(std::ldexp(double(x), -adj + int(f.bits) - 2));
      q = r > max ? max : r < -max ? -max : int(r);
    }
    return uint32_t(q) & ((1u << f.bits) - 1);
  }
  uint32_t sign = negative ? 1u << (f.e + f.m) : 0;
  if (std::isnan(x))
    return f.hasNaN ? (f.nanAllOnes ? (1u << (f.e + f.m)) - 1
                                    : ((1u << f.e) - 1) << f.m | 1)
                    : 0;
  if (std::isinf(x))
    return sign | (f.hasInf ? ((1u << f.e) - 1) << f.m : maxCode(f));
  double a = std::ldexp(std::fabs(double(x)), -adj);
  if (a < std::ldexp(1.0, -126))
    return sign;
  if (a >= magnitudeOf(f, maxCode(f)))
    return sign | maxCode(f);
  // The two neighbours of a; the nearer, or at a tie the even code.
  auto above = std::lower_bound(f.values.begin(), f.values.end(),
                                std::make_pair(a, uint32_t(0)));
  auto below = above == f.values.begin() ? above : above - 1;
  double up = above->first - a, down = a - below->first;
  uint32_t best = up < down ? above->second
                  : down < up ? below->second
                  : (above->second & 1) == 0 ? above->second
                                             : below->second;
  return sign | best;
}

/// The fp32 bits of element `code` under scale byte `s`.
inline uint32_t decode(const Format &f, uint32_t code, uint8_t s) {
  double scaleValue = std::ldexp(1.0, int(s) - 127);
  if (f.isInt) {
    if (s == 0xFF)
      return 0;
    int q = int(code << (32 - f.bits)) >> (32 - f.bits);
    return bitsOf(float(std::ldexp(double(q), -int(f.bits - 2)) * scaleValue) +
                  0.0f);
  }
  if (s == 0xFF || isNaNCode(f, code))
    return 0x7FC00000u;
  bool negative = code >> (f.e + f.m) & 1;
  if (isInfCode(f, code))
    return negative ? 0xFF800000u : 0x7F800000u;
  double v = magnitudeOf(f, code) * scaleValue;
  return bitsOf(float(negative ? -v : v));
}

} // namespace birsim::test::plainmx

#endif // BIRSIM_TEST_UNIT_CORE_PLAINMX_H
