//===- Oracle.h - Independent reference for the core tests ------*- C++ -*-===//
//
// LLVM's APFloat is the oracle for every non-NaN rounding; the NaN, ±0 and
// default-NaN rules of docs/Semantics.md are written out here from the spec text,
// sharing no code with lib/Core.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_TEST_ORACLE_H
#define BIRSIM_TEST_ORACLE_H

#include "birsim/Core/Dtype.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/Support/ErrorHandling.h"

#include <cstdint>
#include <cstring>
#include <random>

namespace oracle {

using llvm::APFloat;
using llvm::APInt;
using llvm::APSInt;

/// The oracle's switches name every dtype and have no default: the unit
/// tests build with -Werror=switch, so a new Dtypes.def row fails the build
/// here until the oracle says what it is.
#define BIRSIM_ORACLE_NOT_A_FLOAT                                              \
  case D::uint8:                                                               \
  case D::int8:                                                                \
  case D::float4_e2m1fn_x4:                                                    \
  case D::float8_e8m0fnu:                                                      \
  case D::float8_e4m3fn_x4:                                                    \
  case D::float8_e5m2_x4:                                                      \
  case D::uint16:                                                              \
  case D::int16:                                                               \
  case D::uint32:                                                              \
  case D::int32:                                                               \
  case D::uint64:                                                              \
  case D::int64:

/// APFloat semantics of a float dtype (docs/Semantics.md section 1 mapping).
inline const llvm::fltSemantics &semantics(birsim::core::Dtype d) {
  using D = birsim::core::Dtype;
  switch (d) {
  case D::float8e3:
    return APFloat::Float8E3M4();
  case D::float8e4:
    return APFloat::Float8E4M3();
  case D::float8_e4m3fn:
    return APFloat::Float8E4M3FN();
  case D::float8e5:
    return APFloat::Float8E5M2();
  case D::bfloat16:
    return APFloat::BFloat();
  case D::float16:
    return APFloat::IEEEhalf();
  case D::float32:
  case D::float32r:
    return APFloat::IEEEsingle();
    BIRSIM_ORACLE_NOT_A_FLOAT
    break;
  }
  llvm::report_fatal_error("oracle::semantics of a dtype that is no float");
}

inline unsigned width(birsim::core::Dtype d) {
  return APFloat::getSizeInBits(semantics(d));
}

inline APFloat fromBits(birsim::core::Dtype d, uint64_t bits) {
  return APFloat(semantics(d), APInt(width(d), bits));
}

inline uint64_t toBits(const APFloat &v) {
  return v.bitcastToAPInt().getZExtValue();
}

/// RNE conversion; the raw APFloat result (overflow gives Inf, or NaN for
/// formats without Inf).
inline APFloat convert(const APFloat &v, birsim::core::Dtype to) {
  APFloat r = v;
  bool losesInfo;
  r.convert(semantics(to), APFloat::rmNearestTiesToEven, &losesInfo);
  return r;
}

/// A float's bits and back.
inline uint32_t bitsOf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}
inline float floatOf(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline APFloat f32(uint32_t bits) {
  return fromBits(birsim::core::Dtype::float32, bits);
}

/// §4 NaN result table, written from the spec.
inline uint64_t canonicalNaN(birsim::core::Dtype d, bool negative) {
  using D = birsim::core::Dtype;
  switch (d) {
  case D::float8e3:
    return 0x78;
  case D::float8e4:
    return 0x7C;
  case D::float8e5:
    return 0x7E;
  case D::float8_e4m3fn:
    return 0x7F;
  case D::bfloat16:
    return 0x7FC0;
  case D::float16:
    return negative ? 0xFE00 : 0x7E00;
  case D::float32: // the cast engine does not narrow to these (§4)
  case D::float32r:
    BIRSIM_ORACLE_NOT_A_FLOAT
    break;
  }
  llvm::report_fatal_error("oracle::canonicalNaN of a dtype that is no "
                           "narrow float");
}

/// Largest finite value of a float dtype, via APFloat.
inline uint64_t largestBits(birsim::core::Dtype d, bool negative) {
  return toBits(APFloat::getLargest(semantics(d), negative));
}

/// Expected narrowing of fp32 bits with an FP8 config (§4), from APFloat.
inline uint64_t narrow(uint32_t x, birsim::core::Dtype to, unsigned config) {
  bool negative = x >> 31;
  APFloat v = f32(x);
  if (v.isNaN())
    return (config & 0xFF00) ? 0 : canonicalNaN(to, negative);
  APFloat r = convert(v, to);
  // Overflow: APFloat gives Inf (or NaN for e4m3fn); v is finite or Inf.
  bool overflowed = r.isInfinity() || r.isNaN();
  if (overflowed && (config & 1))
    return largestBits(to, negative);
  if (overflowed && r.isNaN())
    return canonicalNaN(to, negative);
  return toBits(r);
}

/// A seeded generator of fp32 patterns that reaches every interesting
/// region: uniform bits, near-equal exponents, subnormals, specials.
class F32Generator {
public:
  explicit F32Generator(uint64_t seed) : rng(seed) {}
  uint32_t next() {
    uint32_t r = uint32_t(rng());
    switch (rng() % 8) {
    case 0: // subnormal or tiny
      return (r & 0x80FFFFFFu);
    case 1: { // special
      static const uint32_t specials[] = {
          0,           0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
          0x7F800001u, 0xFFC00000u, 0x7F7FFFFFu, 0x00800000u, 1};
      return specials[r % 10] ^ (r & 0x80000000u);
    }
    case 2: // exponent near 127
      return (r & 0x807FFFFFu) | ((120 + (r >> 27) % 16) << 23);
    default:
      return r;
    }
  }
  /// A value close to `x` (same or neighbouring exponent).
  uint32_t near(uint32_t x) {
    uint32_t r = uint32_t(rng());
    int32_t e = int32_t((x >> 23) & 0xFF) + int32_t(r % 5) - 2;
    if (e < 0)
      e = 0;
    if (e > 254)
      e = 254;
    return (((r & 1) ? 0x80000000u : 0) ^ (x & 0x80000000u)) |
           (uint32_t(e) << 23) | (uint32_t(rng()) & 0x7FFFFF);
  }
  uint64_t bits() { return rng(); }

private:
  std::mt19937_64 rng;
};

/// §4's cast of one element, written from the spec: the source read as
/// fp32 (integers RNE, float NaNs with payload at the top, not quieted),
/// then written to the destination (RNE; integers saturate; FP8 config).
namespace cast_oracle {
using namespace birsim::core;
inline bool isIntegerLike(const birsim::core::DtypeInfo &d) {
  return d.kind == DtypeKind::SignedInt || d.kind == DtypeKind::UnsignedInt;
}

/// Source element as an APFloat in fp32 (§4: ints round to nearest even).
inline APFloat sourceValue(const birsim::core::DtypeInfo &src, uint64_t bits) {
  unsigned w = 8 * src.bytes;
  if (isIntegerLike(src)) {
    APFloat v(APFloat::IEEEsingle());
    v.convertFromAPInt(APInt(w, bits), src.kind == DtypeKind::SignedInt,
                       APFloat::rmNearestTiesToEven);
    return v;
  }
  if (src.kind == DtypeKind::Float)
    return convert(fromBits(src.dtype, bits), Dtype::float32);
  return f32(uint32_t(bits));
}

inline uint64_t expectedCast(const birsim::core::DtypeInfo &src, uint64_t bits,
                             const birsim::core::DtypeInfo &dst,
                             unsigned config) {
  if (src.dtype == dst.dtype)
    return bits;
  APFloat v = sourceValue(src, bits);
  uint32_t v32 = uint32_t(toBits(v));
  if (src.kind == DtypeKind::Float && v.isNaN()) {
    // §4: sign and payload kept, payload at the top, not quieted.
    unsigned m = APFloat::semanticsPrecision(semantics(src.dtype)) - 1;
    unsigned w = width(src.dtype);
    v32 = uint32_t(bits >> (w - 1)) << 31 | 0x7F800000u |
          uint32_t(bits & ((1u << m) - 1)) << (23 - m);
  }
  switch (dst.kind) {
  case DtypeKind::Float:
    return narrow(v32, dst.dtype, dst.isFp8() ? config : 0);
  case DtypeKind::Float32:
    return v32;
  case DtypeKind::Float32r: {
    bool losesInfo;
    if (v.isNaN())
      return ~uint64_t(0); // checked separately
    v.convert(APFloat::FloatTF32(), APFloat::rmNearestTiesToEven, &losesInfo);
    v.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &losesInfo);
    return toBits(v);
  }
  default: {
    // RNE to an integral value, then clamp in 130-bit signed arithmetic
    // (every finite fp32 fits); NaN and Inf take the bound of their sign.
    unsigned w = 8 * dst.bytes;
    bool isSigned = dst.kind == DtypeKind::SignedInt;
    APInt maxW = isSigned ? APInt::getSignedMaxValue(w).sext(130)
                          : APInt::getMaxValue(w).zext(130);
    APInt minW =
        isSigned ? APInt::getSignedMinValue(w).sext(130) : APInt(130, 0);
    if (v.isNaN() || v.isInfinity())
      return (v.isNegative() ? minW : maxW).trunc(w).getZExtValue();
    APFloat r = v;
    r.roundToIntegral(APFloat::rmNearestTiesToEven);
    APSInt wide(130, /*isUnsigned=*/false);
    bool exact;
    r.convertToInteger(wide, APFloat::rmTowardZero, &exact);
    APInt value = wide;
    if (value.sgt(maxW))
      value = maxW;
    if (value.slt(minW))
      value = minW;
    return value.trunc(w).getZExtValue();
  }
  }
}

} // namespace cast_oracle
using cast_oracle::expectedCast;
using cast_oracle::sourceValue;

/// The fp32 core of §2 in the kernel's order: add = ADDSS(acc, x), min =
/// MINSS(x, acc), max = MAXSS(x, acc) (op 1, 2, 3).
inline uint32_t f32Expected(int op, uint32_t acc, uint32_t x) {
  APFloat a = f32(acc), b = f32(x);
  auto isNaN = [](uint32_t v) { return (v & 0x7FFFFFFFu) > 0x7F800000u; };
  if (op == 1) {
    if (isNaN(acc))
      return acc | 0x400000u;
    if (isNaN(x))
      return x | 0x400000u;
    if (a.isInfinity() && b.isInfinity() && a.isNegative() != b.isNegative())
      return 0xFFC00000u;
    a.add(b, APFloat::rmNearestTiesToEven);
    return uint32_t(toBits(a));
  }
  if (isNaN(acc) || isNaN(x))
    return acc;
  auto cmp = b.compare(a);
  bool takeX =
      op == 2 ? cmp == APFloat::cmpLessThan : cmp == APFloat::cmpGreaterThan;
  return takeX ? x : acc;
}

} // namespace oracle

#endif
