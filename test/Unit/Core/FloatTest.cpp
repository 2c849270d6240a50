//===- FloatTest.cpp - fp32 ALU and conversions vs APFloat ----------------===//
#include "DtypeRows.h"
#include "Oracle.h"

#include "birsim/Core/Float.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>

using namespace birsim::core;
using oracle::APFloat;

namespace {

const std::vector<Dtype> kNarrowFloats = birsim::test::narrowFloats();

const FloatFormat &formatOf(Dtype d) { return *dtypeInfo(d).format; }

//===-- Widening (§4) -----------------------------------------------------===//

// Every value of every narrow float: exact widening (APFloat) or the NaN rule.
TEST(Widen, EveryValueOfEveryNarrowFloat) {
  for (Dtype d : kNarrowFloats) {
    unsigned w = oracle::width(d);
    for (uint64_t bits = 0; bits < (uint64_t(1) << w); ++bits) {
      uint32_t got = widenToF32(formatOf(d), uint32_t(bits));
      APFloat v = oracle::fromBits(d, bits);
      if (v.isNaN()) {
        // Sign kept, payload moved to the top, not quieted.
        uint32_t mant = uint32_t(bits) & ((1u << formatOf(d).mantissaBits) - 1);
        uint32_t want = (uint32_t(bits >> (w - 1)) << 31) | 0x7F800000u |
                        mant << (23 - formatOf(d).mantissaBits);
        ASSERT_EQ(got, want) << dtypeInfo(d).name << " " << bits;
      } else {
        ASSERT_EQ(got, oracle::toBits(oracle::convert(v, Dtype::float32)))
            << dtypeInfo(d).name << " bits " << bits;
      }
    }
  }
}

// Every bf16/fp16 value widened and narrowed back is itself (non-NaN).
TEST(Widen, Bf16Fp16RoundTripEveryValue) {
  for (Dtype d : {Dtype::bfloat16, Dtype::float16}) {
    for (uint32_t bits = 0; bits < 0x10000; ++bits) {
      uint32_t back =
          narrowFromF32(formatOf(d), widenToF32(formatOf(d), bits), 0);
      if (oracle::fromBits(d, bits).isNaN())
        ASSERT_EQ(back, oracle::canonicalNaN(d, bits >> 15)) << bits;
      else
        ASSERT_EQ(back, bits) << dtypeInfo(d).name;
    }
  }
}

//===-- Narrowing (§4) ----------------------------------------------------===//

void expectNarrow(Dtype d, uint32_t x) {
  for (unsigned config : {0u, 1u, 0xFF00u, 0xFF01u}) {
    unsigned effective = dtypeInfo(d).isFp8() ? config : 0;
    ASSERT_EQ(narrowFromF32(formatOf(d), x, effective),
              oracle::narrow(x, d, effective))
        << dtypeInfo(d).name << " x=0x" << std::hex << x << " cfg=" << config;
  }
}

// Two million seeded random fp32 values through every narrowing, each
// under the four FP8 configs.
TEST(Narrow, RandomAgainstAPFloat) {
  oracle::F32Generator gen(0xB125);
  for (int i = 0; i < 2000000; ++i) {
    uint32_t x = gen.next();
    for (Dtype d : kNarrowFloats)
      expectNarrow(d, x);
  }
}

// Around every representable value and every rounding midpoint of each
// target: the midpoint itself and one fp32 ulp either side.
TEST(Narrow, EveryMidpointOfEveryTarget) {
  for (Dtype d : kNarrowFloats) {
    unsigned w = oracle::width(d);
    for (uint64_t bits = 0; bits < (uint64_t(1) << w); ++bits) {
      APFloat v = oracle::fromBits(d, bits);
      if (v.isNaN() || v.isInfinity())
        continue;
      APFloat next = v;
      next.next(/*nextDown=*/false);
      uint32_t lo =
          uint32_t(oracle::toBits(oracle::convert(v, Dtype::float32)));
      for (int delta = -2; delta <= 2; ++delta)
        expectNarrow(d, lo + uint32_t(delta));
      APFloat here = oracle::convert(v, Dtype::float32);
      if (next.isInfinity() || next.isNaN()) {
        // Towards overflow the midpoint is v + (v - prev(v)) / 2.
        APFloat prev = v;
        prev.next(/*nextDown=*/true);
        APFloat halfStep = here;
        halfStep.subtract(oracle::convert(prev, Dtype::float32),
                          APFloat::rmNearestTiesToEven);
        halfStep.divide(oracle::f32(0x40000000u), APFloat::rmNearestTiesToEven);
        APFloat mid = here;
        mid.add(halfStep, APFloat::rmNearestTiesToEven);
        uint32_t m = uint32_t(oracle::toBits(mid));
        for (int delta = -2; delta <= 2; ++delta)
          expectNarrow(d, m + uint32_t(delta));
        continue;
      }
      APFloat mid = oracle::convert(v, Dtype::float32);
      APFloat hi = oracle::convert(next, Dtype::float32);
      mid.add(hi, APFloat::rmNearestTiesToEven);
      mid.divide(oracle::f32(0x40000000u), APFloat::rmNearestTiesToEven);
      uint32_t m = uint32_t(oracle::toBits(mid));
      for (int delta = -2; delta <= 2; ++delta)
        expectNarrow(d, m + uint32_t(delta));
    }
  }
}

TEST(Narrow, NaNTableAndConfig) {
  // §4 table: bf16 sign dropped, fp16 sign kept, fp8 fixed codes.
  EXPECT_EQ(narrowFromF32(formatOf(Dtype::bfloat16), 0xFFC00001u, 0), 0x7FC0u);
  EXPECT_EQ(narrowFromF32(formatOf(Dtype::float16), 0xFFC00001u, 0), 0xFE00u);
  EXPECT_EQ(narrowFromF32(formatOf(Dtype::float16), 0x7F800001u, 0), 0x7E00u);
  EXPECT_EQ(narrowFromF32(formatOf(Dtype::float8e3), 0xFFFFFFFFu, 0), 0x78u);
  EXPECT_EQ(narrowFromF32(formatOf(Dtype::float8e4), 0xFFFFFFFFu, 0), 0x7Cu);
  EXPECT_EQ(narrowFromF32(formatOf(Dtype::float8e5), 0xFFFFFFFFu, 0), 0x7Eu);
  EXPECT_EQ(narrowFromF32(formatOf(Dtype::float8_e4m3fn), 0xFFFFFFFFu, 0),
            0x7Fu);
  // NaN-suppress: NaN -> +0.
  EXPECT_EQ(narrowFromF32(formatOf(Dtype::float8e5), 0xFFC00000u, 0xFF00), 0u);
  // Overflow: Inf, saturate to max finite, e4m3fn NaN.
  const uint32_t big = 0x47800000u; // 65536
  EXPECT_EQ(narrowFromF32(formatOf(Dtype::float8e5), big, 0), 0x7Cu);
  EXPECT_EQ(narrowFromF32(formatOf(Dtype::float8e5), big | 0x80000000u, 1),
            0xFBu);
  EXPECT_EQ(narrowFromF32(formatOf(Dtype::float8e4), 0x7F800000u, 1), 0x77u);
  EXPECT_EQ(narrowFromF32(formatOf(Dtype::float8e3), 0xFF800000u, 0), 0xF0u);
  EXPECT_EQ(narrowFromF32(formatOf(Dtype::float8_e4m3fn), big, 0), 0x7Fu);
  EXPECT_EQ(narrowFromF32(formatOf(Dtype::float8_e4m3fn), big | 0x80000000u, 1),
            0xFEu);
  EXPECT_EQ(narrowFromF32(formatOf(Dtype::float16), big, 0), 0x7C00u);
  // bf16 overflow happens only by carry out of the largest exponent.
  EXPECT_EQ(narrowFromF32(formatOf(Dtype::bfloat16), 0x7F7FFFFFu, 0), 0x7F80u);
  // Signed zero survives; tiny values round to signed zero.
  EXPECT_EQ(narrowFromF32(formatOf(Dtype::float8e4), 0x80000001u, 0), 0x80u);
}

TEST(Narrow, Float32rAgainstTF32) {
  oracle::F32Generator gen(7);
  for (int i = 0; i < 1000000; ++i) {
    uint32_t x = gen.next();
    uint32_t got = narrowToFloat32r(x);
    if (isNaNF32(x)) {
      EXPECT_TRUE(isNaNF32(got));
      EXPECT_EQ(got & 0x1FFFu, 0u);
      EXPECT_EQ(got >> 31, x >> 31);
      continue;
    }
    APFloat tf32 = oracle::f32(x);
    bool losesInfo;
    tf32.convert(APFloat::FloatTF32(), APFloat::rmNearestTiesToEven,
                 &losesInfo);
    tf32.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                 &losesInfo);
    ASSERT_EQ(got, oracle::toBits(tf32)) << std::hex << x;
  }
}

//===-- x86 ADDSS / MINSS / MAXSS (§2) ------------------------------------===//

uint32_t oracleAdd(uint32_t a, uint32_t b) {
  APFloat x = oracle::f32(a), y = oracle::f32(b);
  if (x.isNaN())
    return a | 0x00400000u;
  if (y.isNaN())
    return b | 0x00400000u;
  if (x.isInfinity() && y.isInfinity() && x.isNegative() != y.isNegative())
    return 0xFFC00000u;
  x.add(y, APFloat::rmNearestTiesToEven);
  return uint32_t(oracle::toBits(x));
}

// Straightforward MINSS/MAXSS from the Intel SDM pseudo-code on host floats
// (comparisons do not depend on the rounding mode).
float asFloat(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
uint32_t oracleMin(uint32_t a, uint32_t b) {
  float x = asFloat(a), y = asFloat(b);
  if (std::isnan(x) || std::isnan(y))
    return b;
  return x < y ? a : b;
}
uint32_t oracleMax(uint32_t a, uint32_t b) {
  float x = asFloat(a), y = asFloat(b);
  if (std::isnan(x) || std::isnan(y))
    return b;
  return x > y ? a : b;
}

// 10^7 seeded random pairs per instruction, half of them with close
// exponents so that cancellation and carries are exercised.
TEST(Sse, TenMillionRandomPairs) {
  oracle::F32Generator gen(0x5EED);
  for (int i = 0; i < 10000000; ++i) {
    uint32_t a = gen.next();
    uint32_t b = (i & 1) ? gen.near(a) : gen.next();
    ASSERT_EQ(addss(a, b), oracleAdd(a, b)) << std::hex << a << " + " << b;
    ASSERT_EQ(minss(a, b), oracleMin(a, b)) << std::hex << a << " min " << b;
    ASSERT_EQ(maxss(a, b), oracleMax(a, b)) << std::hex << a << " max " << b;
  }
}

TEST(Sse, NaNZeroInfRules) {
  const uint32_t sNaN = 0x7F800001u, qNaN = 0x7FC00123u, negNaN = 0xFF800002u;
  // ADDSS: first-operand NaN wins, quieted; then second, quieted.
  EXPECT_EQ(addss(sNaN, negNaN), 0x7FC00001u);
  EXPECT_EQ(addss(0x3F800000u, negNaN), 0xFFC00002u);
  EXPECT_EQ(addss(qNaN, 0x7F800000u), qNaN);
  // +Inf + -Inf is the x86 default NaN, in either order.
  EXPECT_EQ(addss(0x7F800000u, 0xFF800000u), 0xFFC00000u);
  EXPECT_EQ(addss(0xFF800000u, 0x7F800000u), 0xFFC00000u);
  EXPECT_EQ(addss(0x7F800000u, 0x7F800000u), 0x7F800000u);
  // Zero sums: -0 only for (-0) + (-0); x + (-x) is +0.
  EXPECT_EQ(addss(0x80000000u, 0x80000000u), 0x80000000u);
  EXPECT_EQ(addss(0x80000000u, 0x00000000u), 0x00000000u);
  EXPECT_EQ(addss(0x00000000u, 0x80000000u), 0x00000000u);
  EXPECT_EQ(addss(0xBF800000u, 0x3F800000u), 0x00000000u);
  EXPECT_EQ(addss(0x80000001u, 0x00000001u), 0x00000000u);
  // Overflow to Inf, subnormal sums exact.
  EXPECT_EQ(addss(0x7F7FFFFFu, 0x73000000u), 0x7F800000u);
  EXPECT_EQ(addss(0x00000001u, 0x00000001u), 0x00000002u);
  // MINSS/MAXSS: second operand on NaN (unquieted) and on ±0 ties.
  EXPECT_EQ(minss(sNaN, 0x3F800000u), 0x3F800000u);
  EXPECT_EQ(minss(0x3F800000u, sNaN), sNaN);
  EXPECT_EQ(maxss(0x3F800000u, negNaN), negNaN);
  EXPECT_EQ(minss(0x80000000u, 0x00000000u), 0x00000000u);
  EXPECT_EQ(minss(0x00000000u, 0x80000000u), 0x80000000u);
  EXPECT_EQ(maxss(0x80000000u, 0x00000000u), 0x00000000u);
  EXPECT_EQ(maxss(0xFF800000u, 0x7F800000u), 0x7F800000u);
  EXPECT_EQ(minss(0xFF800000u, 0x7F800000u), 0xFF800000u);
}

} // namespace

//===-- The two non-finite axes (docs/Decisions.md) ------------------------===//

namespace {

/// Formats that are no dtype yet, as rows on the two axes, with the APFloat
/// semantics they must match: the FNUZ formats (NaN-only, NaN at -0) and
/// the MX element formats (finite-only).
struct AxisRow {
  const char *name;
  FloatFormat format;
  const llvm::fltSemantics &semantics;
};
const AxisRow kAxisRows[] = {
    {"e4m3fnuz",
     {4, 3, 8, FloatNonFinite::NanOnly, FloatNanEncoding::NegativeZero, 0x80,
      false},
     APFloat::Float8E4M3FNUZ()},
    {"e5m2fnuz",
     {5, 2, 16, FloatNonFinite::NanOnly, FloatNanEncoding::NegativeZero, 0x80,
      false},
     APFloat::Float8E5M2FNUZ()},
    {"e4m3b11fnuz",
     {4, 3, 11, FloatNonFinite::NanOnly, FloatNanEncoding::NegativeZero, 0x80,
      false},
     APFloat::Float8E4M3B11FNUZ()},
    {"e3m2fn",
     {3, 2, 3, FloatNonFinite::FiniteOnly, FloatNanEncoding::IEEE, 0, false},
     APFloat::Float6E3M2FN()},
    {"e2m3fn",
     {2, 3, 1, FloatNonFinite::FiniteOnly, FloatNanEncoding::IEEE, 0, false},
     APFloat::Float6E2M3FN()},
    {"e2m1fn",
     {2, 1, 1, FloatNonFinite::FiniteOnly, FloatNanEncoding::IEEE, 0, false},
     APFloat::Float4E2M1FN()},
};

// Every code of each row: NaN, Inf, the largest finite code and the exact
// widening are APFloat's; the 20 dtypes' rows agree with their semantics too.
TEST(FloatAxes, EveryCodeOfEachRowAsAPFloat) {
  for (const AxisRow &row : kAxisRows) {
    const FloatFormat &f = row.format;
    ASSERT_TRUE(f.axesAgree()) << row.name;
    unsigned w = f.totalBits();
    ASSERT_EQ(w, APFloat::getSizeInBits(row.semantics)) << row.name;
    EXPECT_EQ(f.maxFiniteCode(),
              APFloat::getLargest(row.semantics).bitcastToAPInt().getZExtValue())
        << row.name;
    for (uint32_t code = 0; code < (1u << w); ++code) {
      APFloat v(row.semantics, llvm::APInt(w, code));
      ASSERT_EQ(f.isNaN(code), v.isNaN()) << row.name << " " << code;
      ASSERT_EQ(f.isInf(code), v.isInfinity()) << row.name << " " << code;
      uint32_t got = widenToF32(f, code);
      if (v.isNaN()) {
        ASSERT_TRUE(isNaNF32(got)) << row.name << " " << code;
        continue;
      }
      bool losesInfo;
      v.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                &losesInfo);
      ASSERT_FALSE(losesInfo);
      ASSERT_EQ(got, uint32_t(v.bitcastToAPInt().getZExtValue()))
          << row.name << " " << code;
    }
  }
  for (Dtype d : kNarrowFloats) {
    const FloatFormat &f = formatOf(d);
    EXPECT_EQ(f.maxFiniteCode(), oracle::largestBits(d, false))
        << dtypeInfo(d).name;
    for (uint32_t code = 0; code < (1u << f.totalBits()); ++code) {
      APFloat v = oracle::fromBits(d, code);
      ASSERT_EQ(f.isNaN(code), v.isNaN()) << dtypeInfo(d).name << code;
      ASSERT_EQ(f.isInf(code), v.isInfinity()) << dtypeInfo(d).name << code;
    }
  }
}

// Narrowing to each row, on every fp32 value at a stride and on every
// row value's neighbours and midpoints: APFloat's round-to-nearest-even
// (-0 becomes +0 in FNUZ formats); where APFloat's result would not be
// representable (overflow in a finite-only format), the largest finite
// value of the sign; overflow in an FNUZ format, its NaN.
TEST(FloatAxes, NarrowToEachRowAsAPFloat) {
  for (const AxisRow &row : kAxisRows) {
    const FloatFormat &f = row.format;
    APFloat largest = APFloat::getLargest(row.semantics);
    bool losesInfo;
    largest.convert(APFloat::IEEEsingle(), APFloat::rmTowardZero, &losesInfo);
    float maxFinite = largest.convertToFloat();
    auto check = [&](uint32_t x) {
      uint32_t got = narrowFromF32(f, x, 0);
      float value;
      std::memcpy(&value, &x, 4);
      if (std::isnan(value))
        return; // narrowing NaN gives the row's nanResult by definition
      APFloat v = oracle::f32(x);
      bool negative = x >> 31;
      // Beyond the largest finite value (by more than half an ulp) is
      // overflow, decided on the exact value.
      APFloat r = v;
      APFloat::opStatus status =
          r.convert(row.semantics, APFloat::rmNearestTiesToEven, &losesInfo);
      bool overflow = std::isinf(value) || (status & APFloat::opOverflow);
      if (overflow) {
        uint32_t want = f.hasNaN() ? f.nanResult
                                   : (negative ? f.signMask() : 0) |
                                         f.maxFiniteCode();
        ASSERT_EQ(got, want) << row.name << " x=0x" << std::hex << x;
        return;
      }
      uint32_t want = uint32_t(r.bitcastToAPInt().getZExtValue());
      ASSERT_EQ(got, want) << row.name << " x=0x" << std::hex << x << " "
                           << value << " max " << maxFinite;
    };
    for (uint64_t x = 0; x <= 0xFFFFFFFFu; x += 16411)
      check(uint32_t(x));
    for (uint32_t code = 0; code < (1u << f.totalBits()); ++code) {
      if (f.isNaN(code))
        continue;
      uint32_t wide = widenToF32(f, code);
      for (int delta = -2; delta <= 2; ++delta)
        check(wide + uint32_t(delta));
      float a, b;
      std::memcpy(&a, &wide, 4);
      uint32_t next = widenToF32(f, code + 1);
      std::memcpy(&b, &next, 4);
      if (code + 1 < (1u << f.totalBits()) && !f.isNaN(code + 1) &&
          std::isfinite(a) && std::isfinite(b)) {
        float mid = (a + b) / 2; // exact: both fit in few bits
        uint32_t midBits;
        std::memcpy(&midBits, &mid, 4);
        for (int delta = -1; delta <= 1; ++delta)
          check(midBits + uint32_t(delta));
      }
    }
  }
}

} // namespace
