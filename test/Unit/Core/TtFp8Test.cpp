//===- TtFp8Test.cpp - tt-metal's FP8 E4M3 conversions --------------------===//
//
// docs/Semantics.md section 6 against a deliberately plain second
// implementation written from that text in double arithmetic, exhaustively
// over every fp16 value and every code, on every fp32 class and on seeded
// random fp32; ocp_e4m3fn also against LLVM's APFloat; the named vectors of
// tt-metal's float8.cpp and of ttsim.
//
//===----------------------------------------------------------------------===//
#include "birsim/Core/Dtype.h"
#include "birsim/Core/Float.h"
#include "birsim/Core/TtFp8.h"

#include "llvm/ADT/APFloat.h"
#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace birsim::core;

namespace {

uint32_t bitsOf(double x) {
  float f = float(x);
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
double valueOf(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

namespace plain {

/// The E4M3 code of the positive value `r`, a multiple of the grid at its
/// binade (bias 7), `r` normal in E4M3.
uint8_t codeOf(double r) {
  int e;
  double m = std::frexp(r, &e); // r = m 2^e, m in [0.5, 1)
  int exponent = e - 1 + 7;
  int mantissa = int((2 * m - 1) * 8);
  return uint8_t(exponent << 3 | mantissa);
}

/// Round-half-even of r to a multiple of `step`.
double roundEven(double r, double step) {
  double q = r / step, f = std::floor(q);
  double d = q - f;
  if (d > 0.5 || (d == 0.5 && std::fmod(f, 2) != 0))
    f += 1;
  return f * step;
}

uint8_t host(uint32_t x) {
  double v = valueOf(x);
  uint8_t sign = uint8_t(x >> 31 << 7);
  if (std::isnan(v))
    return 0x7F;
  double r = std::fabs(v);
  if (r < std::ldexp(1.0, -6)) // fp32 subnormals and zeros too
    return sign;
  if (r >= 256 || std::isinf(r))
    return sign | 0x77;
  int e;
  std::frexp(r, &e);
  double rounded = roundEven(r, std::ldexp(1.0, e - 1 - 3));
  if (rounded > 240)
    return sign | 0x77;
  return sign | codeOf(rounded);
}

uint8_t ocp(uint32_t x) {
  double v = valueOf(x);
  uint8_t sign = uint8_t(x >> 31 << 7);
  double r = std::fabs(v);
  if (std::isnan(v) || std::isinf(r))
    return sign | 0x7F;
  int e;
  std::frexp(r, &e);
  double step = std::ldexp(1.0, std::max(e - 1, -6) - 3); // subnormals: 2^-9
  double rounded = r == 0 ? 0 : roundEven(r, step);
  if (rounded > 448)
    return sign | 0x7F;
  if (rounded < std::ldexp(1.0, -6)) // subnormal codes: multiples of 2^-9
    return sign | uint8_t(rounded / std::ldexp(1.0, -9));
  return sign | codeOf(rounded);
}

uint8_t blackhole(uint32_t x) {
  double v = valueOf(x);
  uint8_t sign = uint8_t(x >> 31 << 7);
  if (std::isnan(v) || std::isinf(v))
    return sign | 0x7F; // NaN to Inf, Inf above the fp16 range
  double r = std::fabs(v);
  int e;
  std::frexp(r, &e);
  // TF32 (10 mantissa bits; fp32's subnormals in steps of 2^-136), half up;
  // then a zero exponent is +0.
  double step = std::ldexp(1.0, std::max(e - 1, -126) - 10);
  double rounded = std::floor(r / step + 0.5) * step;
  if (rounded < std::ldexp(1.0, -126))
    return 0;
  std::frexp(rounded, &e);
  int e16 = e - 1 + 15; // the fp16 exponent, clamped: the rule below
  if (e16 <= 8)
    return sign;
  if (e16 >= 24)
    return sign | 0x7F;
  int top = int(std::floor((std::ldexp(rounded, -(e - 1)) - 1) * 8)); // trunc
  return uint8_t(sign | (e16 - 8) << 3 | top);
}

double hostDecode(uint8_t c) {
  int e = (c >> 3) & 15, m = c & 7;
  double s = c & 0x80 ? -1 : 1;
  if (e == 15)
    return std::numeric_limits<double>::quiet_NaN();
  if (e == 0)
    return s * 0.0;
  return s * std::ldexp(1 + m / 8.0, e - 7);
}
double ocpDecode(uint8_t c) {
  int e = (c >> 3) & 15, m = c & 7;
  double s = c & 0x80 ? -1 : 1;
  if ((c & 0x7F) == 0x7F)
    return std::numeric_limits<double>::quiet_NaN();
  if (e == 0)
    return s * std::ldexp(m / 8.0, -6);
  return s * std::ldexp(1 + m / 8.0, e - 7);
}
double blackholeDecode(uint8_t c) {
  int e = (c >> 3) & 15, m = c & 7;
  double s = c & 0x80 ? -1 : 1;
  if (e == 15 && m == 7)
    return s * 511.75;
  if (e == 0) // an fp16 subnormal of mantissa m << 7
    return s * std::ldexp(m / 8.0, -14);
  return s * std::ldexp(1 + m / 8.0, e - 7);
}

uint8_t encode(TtFp8Policy p, uint32_t x) {
  return p == TtFp8Policy::ttmetal_host ? host(x)
         : p == TtFp8Policy::ocp_e4m3fn ? ocp(x)
                                        : blackhole(x);
}
double decode(TtFp8Policy p, uint8_t c) {
  return p == TtFp8Policy::ttmetal_host ? hostDecode(c)
         : p == TtFp8Policy::ocp_e4m3fn ? ocpDecode(c)
                                        : blackholeDecode(c);
}

} // namespace plain

/// Every fp32 class: zeros, subnormals, normals at and around every binade
/// boundary and every E4M3 grid midpoint, the largest values, Inf, NaNs.
std::vector<uint32_t> everyClass() {
  std::vector<uint32_t> v = {0, 1, 0x7FFFFF, 0x800000, 0x7F7FFFFF,
                             0x7F800000, 0x7F800001, 0x7FC00000, 0x7FFFFFFF};
  for (int e = -20; e <= 12; ++e)
    for (int m = 0; m < 16; ++m) {
      double x = std::ldexp(1 + m / 16.0, e); // the grid and its midpoints
      uint32_t b = bitsOf(x);
      for (uint32_t d : {b - 1, b, b + 1})
        v.push_back(d);
    }
  for (double x : {240.0, 247.0, 248.0, 255.0, 256.0, 448.0, 463.0, 464.0,
                   465.0, 480.0, 511.75, 1e6})
    v.push_back(bitsOf(x));
  size_t n = v.size();
  for (size_t i = 0; i < n; ++i)
    v.push_back(v[i] | 0x80000000u);
  return v;
}

// Every fp16 value (as fp32), every class and seeded random fp32: each
// policy's code is the plain implementation's.
TEST(TtFp8, EncodeAgainstThePlainImplementation) {
  std::vector<uint32_t> inputs = everyClass();
  for (uint32_t h = 0; h < 0x10000; ++h)
    inputs.push_back(widenToF32(*dtypeInfo(Dtype::float16).format, h));
  std::mt19937 rng(6);
  for (int i = 0; i < 200000; ++i)
    inputs.push_back(rng());
  for (const TtFp8PolicyInfo &p : kTtFp8PolicyTable)
    for (uint32_t x : inputs)
      ASSERT_EQ(ttFp8Encode(p.policy, x), plain::encode(p.policy, x))
          << p.name << " 0x" << std::hex << x;
}

// Every code decodes as the plain implementation says.
TEST(TtFp8, EveryCodeDecodes) {
  for (const TtFp8PolicyInfo &p : kTtFp8PolicyTable)
    for (unsigned c = 0; c < 256; ++c) {
      uint32_t got = ttFp8Decode(p.policy, uint8_t(c));
      double want = plain::decode(p.policy, uint8_t(c));
      if (std::isnan(want))
        ASSERT_TRUE(isNaNF32(got)) << p.name << " " << c;
      else
        ASSERT_EQ(got, bitsOf(want)) << p.name << " " << c;
    }
}

// ocp_e4m3fn is APFloat's Float8E4M3FN under round-to-nearest-even, NaN
// for overflow, sign kept.
TEST(TtFp8, OcpIsAPFloat) {
  std::vector<uint32_t> inputs = everyClass();
  std::mt19937 rng(7);
  for (int i = 0; i < 200000; ++i)
    inputs.push_back(rng());
  for (uint32_t x : inputs) {
    llvm::APFloat f(valueOf(x));
    bool lost;
    f.convert(llvm::APFloat::Float8E4M3FN(),
              llvm::APFloat::rmNearestTiesToEven, &lost);
    uint8_t want = f.isNaN() ? uint8_t(x >> 31 << 7 | 0x7F)
                             : uint8_t(f.bitcastToAPInt().getZExtValue());
    ASSERT_EQ(ttFp8Encode(TtFp8Policy::ocp_e4m3fn, x), want)
        << "0x" << std::hex << x;
  }
}

// Named vectors: tt-metal float8.cpp's rule, torch's, ttsim's.
TEST(TtFp8, NamedVectors) {
  auto enc = [](TtFp8Policy p, double x) { return ttFp8Encode(p, bitsOf(x)); };
  TtFp8Policy host = TtFp8Policy::ttmetal_host,
              ocp = TtFp8Policy::ocp_e4m3fn,
              bh = TtFp8Policy::blackhole_packer;
  EXPECT_EQ(enc(host, 1.0), 0x38);
  EXPECT_EQ(enc(host, 240.0), 0x77);
  EXPECT_EQ(enc(host, 448.0), 0x77);
  EXPECT_EQ(enc(host, -1e6), 0xF7);
  EXPECT_EQ(enc(host, std::ldexp(1.0, -6)), 0x08);
  EXPECT_EQ(enc(host, 0.999 * std::ldexp(1.0, -6)), 0x00); // no round-up
  EXPECT_EQ(ttFp8Encode(host, 0xFFC00000u), 0x7F);          // NaN, unsigned
  EXPECT_EQ(ttFp8Encode(host, 0xFF800000u), 0xF7);          // -Inf
  EXPECT_EQ(enc(ocp, 448.0), 0x7E);
  EXPECT_EQ(enc(ocp, 464.0), 0x7E); // the tie to even
  EXPECT_EQ(enc(ocp, 465.0), 0x7F);
  EXPECT_EQ(enc(ocp, -1e6), 0xFF);
  EXPECT_EQ(enc(ocp, std::ldexp(1.0, -9)), 0x01); // the smallest subnormal
  EXPECT_EQ(enc(bh, 1.0), 0x38);
  EXPECT_EQ(enc(bh, 1.1875), 0x39); // truncated, not rounded
  EXPECT_EQ(enc(bh, 448.0), 0x7E);
  EXPECT_EQ(enc(bh, 480.0), 0x7F);  // E = 15 is finite
  EXPECT_EQ(enc(bh, 1e6), 0x7F);
  EXPECT_EQ(enc(bh, std::ldexp(1.0, -6)), 0x08);
  EXPECT_EQ(enc(bh, std::ldexp(1.0, -7)), 0x00); // no subnormals
  EXPECT_EQ(enc(bh, -std::ldexp(1.0, -7)), 0x80);
  EXPECT_EQ(ttFp8Encode(bh, 0x80000001u), 0x00); // a zero exponent: +0
  EXPECT_EQ(valueOf(ttFp8Decode(bh, 0x7F)), 511.75);
  EXPECT_EQ(valueOf(ttFp8Decode(host, 0x77)), 240.0);
  EXPECT_TRUE(isNaNF32(ttFp8Decode(host, 0x78)));
  EXPECT_EQ(valueOf(ttFp8Decode(ocp, 0x7E)), 448.0);
}

// The fidelity family: the disagreements are the per-element comparison
// of the three round trips; the bulk counts and the tally agree; errors.
TEST(TtFp8, DisagreementsAndBulk) {
  std::vector<uint32_t> inputs = everyClass();
  std::mt19937 rng(8);
  for (int i = 0; i < 5000; ++i)
    inputs.push_back(rng() & 0xC3FFFFFFu); // exponents near E4M3's
  uint64_t want[3] = {};
  int64_t first[3] = {-1, -1, -1};
  for (size_t i = 0; i < inputs.size(); ++i) {
    double v[3];
    for (const TtFp8PolicyInfo &p : kTtFp8PolicyTable)
      v[int(p.policy)] =
          plain::decode(p.policy, plain::encode(p.policy, inputs[i]));
    auto differ = [&](int a, int b) {
      return !(v[a] == v[b] && std::signbit(v[a]) == std::signbit(v[b])) &&
             !(std::isnan(v[a]) && std::isnan(v[b]));
    };
    int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    for (int k = 0; k < 3; ++k)
      if (differ(pairs[k][0], pairs[k][1])) {
        if (!want[k]++)
          first[k] = int64_t(i);
      }
    EXPECT_EQ(ttFp8Disagreements(inputs[i]),
              unsigned(differ(0, 1)) | unsigned(differ(0, 2)) << 1 |
                  unsigned(differ(1, 2)) << 2);
  }
  EXPECT_GT(want[0], 0u);
  EXPECT_GT(want[1], 0u);
  EXPECT_GT(want[2], 0u);
  FidelityEvent events[3] = {FidelityEvent::tt_fp8_host_ocp_differ,
                             FidelityEvent::tt_fp8_host_blackhole_differ,
                             FidelityEvent::tt_fp8_ocp_blackhole_differ};
  for (const TtFp8PolicyInfo &p : kTtFp8PolicyTable) {
    std::vector<uint8_t> codes(inputs.size());
    FidelityCounts counts;
    ASSERT_TRUE(ttFp8EncodeBulk(int(p.policy), inputs.data(), inputs.size(),
                                codes.data(), &counts)
                    .ok());
    FidelityTally tally;
    ASSERT_TRUE(
        tallyTtFp8(int(p.policy), inputs.data(), inputs.size(), tally).ok());
    for (size_t i = 0; i < inputs.size(); ++i)
      ASSERT_EQ(codes[i], ttFp8Encode(p.policy, inputs[i]));
    EXPECT_EQ(counts.elements[int(FidelityFamily::tt_fp8)], inputs.size());
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(counts.count[int(events[k])], want[k]) << k;
      EXPECT_EQ(tally.count[int(events[k])], want[k]) << k;
      EXPECT_EQ(tally.first[int(events[k])], first[k]) << k;
    }
    std::vector<uint32_t> back(codes.size());
    ASSERT_TRUE(ttFp8DecodeBulk(int(p.policy), codes.data(), codes.size(),
                                back.data())
                    .ok());
    for (size_t i = 0; i < codes.size(); ++i)
      ASSERT_EQ(back[i], ttFp8Decode(p.policy, codes[i]));
  }
  // Errors: the policy's rule, null buffers, overlap; nothing written.
  std::vector<uint8_t> codes(4, 0xA5);
  Status s = ttFp8EncodeBulk(3, inputs.data(), 4, codes.data());
  EXPECT_STREQ(s.detail, "not a tt FP8 policy: expected ttmetal_host (0), "
                         "ocp_e4m3fn (1), blackhole_packer (2)");
  EXPECT_FALSE(ttFp8EncodeBulk(0, nullptr, 4, codes.data()).ok());
  EXPECT_FALSE(
      ttFp8EncodeBulk(0, inputs.data(), 4, inputs.data() + 1).ok());
  EXPECT_EQ(codes, std::vector<uint8_t>(4, 0xA5));
  EXPECT_TRUE(ttFp8EncodeBulk(0, nullptr, 0, nullptr).ok());
}

} // namespace
