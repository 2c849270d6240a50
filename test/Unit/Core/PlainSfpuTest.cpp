//===- PlainSfpuTest.cpp - the plain SFPU against the documented facts ----===//
//
// PlainSfpu.h alone (no core code): the public vectors of SfpuVectors.inc
// (rows ttsim refuses must be refused), the worked examples of
// docs/Semantics.md section 9, the named ops' texts (exp over every bf16
// input with its max ULP), and the refusals of D81, D82, D85 and D88. This
// pins the oracle before the core is tested against it.
//
//===----------------------------------------------------------------------===//
#include "PlainSfpu.h"
#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace plain = birsim::test::plainsfpu;
using plain::kBlackhole;
using plain::kWormhole;

namespace {

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float floatOf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// Every lane of L1-L3 set, one instruction run; the state after it.
struct Lane {
  plain::State s;
  std::string error;
  int status = 0;
};

Lane runOne(int arch, const char *text, uint32_t l0, uint32_t l1, uint32_t l2,
            uint32_t l3) {
  Lane r;
  for (int lane = 0; lane < 32; ++lane) {
    r.s.lreg[0][lane] = l0;
    r.s.lreg[1][lane] = l1;
    r.s.lreg[2][lane] = l2;
    r.s.lreg[3][lane] = l3;
  }
  r.status = plain::step(arch, text, r.s, &r.error);
  return r;
}

uint32_t fmaVia(int arch, uint32_t x, uint32_t y, uint32_t z) {
  Lane r = runOne(arch, "SFPMAD 1, 2, 3, 0, 0", 0, x, y, z);
  EXPECT_EQ(r.status, 0) << r.error;
  return r.s.lreg[0][0];
}

//===----------------------------------------------------------------------===//
// (a) The public vectors.
//===----------------------------------------------------------------------===//

struct FmaRow {
  uint32_t x, y, z, wh, bh;
  int line;
};
const FmaRow kFmaRows[] = {
#define SFPU_FMA_VECTOR(x, y, z, wh, bh, line) {x, y, z, wh, bh, line},
#include "SfpuVectors.inc"
#undef SFPU_FMA_VECTOR
};

struct LaneRow {
  int arch;
  const char *text;
  uint32_t l0, l1, l2, l3, expect;
  int cc, ttsim, line;
};
const LaneRow kLaneRows[] = {
#define SFPU_LANE_VECTOR(arch, text, l0, l1, l2, l3, e, cc, ttsim, line)          \
  {arch, text, l0, l1, l2, l3, e, cc, ttsim, line},
#include "SfpuVectors.inc"
#undef SFPU_LANE_VECTOR
};

struct LanesRow {
  int arch;
  const char *text;
  int src;
  std::vector<uint32_t> expect;
  int ttsim, line;
};
LanesRow lanesRow(int arch, const char *text, int src,
                  std::initializer_list<uint32_t> expect, int ttsim, int line) {
  return {arch, text, src, std::vector<uint32_t>(expect), ttsim, line};
}
const std::vector<LanesRow> &lanesRows() {
  // The expectation is a braced list: its commas reach the macro as
  // arguments, so the macro takes them as __VA_ARGS__.
  static const std::vector<LanesRow> rows = {
#define SFPU_LANES_VECTOR(arch, text, src, ...)                                \
  lanesRow(arch, text, src, __VA_ARGS__),
#include "SfpuVectors.inc"
#undef SFPU_LANES_VECTOR
  };
  return rows;
}

TEST(PlainSfpu, PublicFmaVectors) {
  for (const FmaRow &row : kFmaRows) {
    SCOPED_TRACE("fma_model_test.py line " + std::to_string(row.line));
    EXPECT_EQ(plain::fma(kWormhole, row.x, row.y, row.z), row.wh);
    EXPECT_EQ(plain::fma(kBlackhole, row.x, row.y, row.z), row.bh);
    EXPECT_EQ(fmaVia(kWormhole, row.x, row.y, row.z), row.wh);
    EXPECT_EQ(fmaVia(kBlackhole, row.x, row.y, row.z), row.bh);
  }
}

TEST(PlainSfpu, PublicLaneVectors) {
  int refused = 0;
  for (const LaneRow &row : kLaneRows) {
    SCOPED_TRACE(std::string(row.text) + " arch " + std::to_string(row.arch) +
                 ", sfpu_blackhole_modes_test.py line " + std::to_string(row.line));
    Lane r = runOne(row.arch, row.text, row.l0, row.l1, row.l2, row.l3);
    if (row.ttsim == 0) {
      EXPECT_NE(r.status, 0) << "ttsim refuses this row";
      EXPECT_FALSE(r.error.empty());
      ++refused;
      continue;
    }
    ASSERT_EQ(r.status, 0) << r.error;
    for (int lane = 0; lane < 32; ++lane) {
      EXPECT_EQ(r.s.lreg[0][lane], row.expect) << "lane " << lane;
      if (row.cc >= 0) {
        EXPECT_EQ((r.s.cc >> lane) & 1, (uint32_t)row.cc) << "lane " << lane;
      }
    }
  }
  EXPECT_EQ(refused, 11); // D89's rows
}

TEST(PlainSfpu, PublicLanesVectors) {
  for (const LanesRow &row : lanesRows()) {
    SCOPED_TRACE(std::string(row.text) + " line " + std::to_string(row.line));
    plain::State s;
    for (int lane = 0; lane < 32; ++lane)
      s.lreg[row.src][lane] = 0x100 + lane;
    std::string error;
    int status = plain::step(row.arch, row.text, s, &error);
    ASSERT_EQ(status, 0) << error;
    for (int lane = 0; lane < 32; ++lane)
      EXPECT_EQ(s.lreg[0][lane], row.expect[lane]) << "lane " << lane;
    // SUBVEC_SHFLSHR1 is refused on Wormhole.
    if (std::string(row.text).find(", 4") != std::string::npos) {
      plain::State w;
      EXPECT_NE(plain::step(kWormhole, row.text, w, &error), 0);
      EXPECT_NE(error.find("SUBVEC_SHFLSHR1 should not be used on Wormhole"),
                std::string::npos) << error;
    }
  }
}

//===----------------------------------------------------------------------===//
// (b) The worked examples of section 9.
//===----------------------------------------------------------------------===//

TEST(PlainSfpu, SfpmadIsNeitherFmaNorMulThenAdd) {
  const uint32_t x = 0x3F800001, y = 0x3F800001, z = 0xBF800002;
  uint32_t ieeeFma = bitsOf(std::fma(floatOf(x), floatOf(y), floatOf(z)));
  volatile float product = floatOf(x) * floatOf(y);
  uint32_t mulThenAdd = bitsOf(product + floatOf(z));
  EXPECT_EQ(ieeeFma, 0x28800000u);
  EXPECT_EQ(mulThenAdd, 0x00000000u);
  for (int arch : {kWormhole, kBlackhole}) {
    EXPECT_EQ(fmaVia(arch, x, y, z), 0x32800000u) << "arch " << arch;
    // 2^-126 * 0.5 is +0 (an IEEE fma gives the denormal 0x00400000).
    EXPECT_EQ(plain::fma(arch, 0x00800000, 0x3F000000, 0), 0u);
  }
  // The leaked NaN bits of Wormhole's model.
  EXPECT_EQ(plain::fma(kWormhole, 0x23D9C929, 0x7F800001, 0xCC37DC7D), 0x7FD9C92Bu);
}

TEST(PlainSfpu, SfploadiFp16OnlyRebiases) {
  const struct {
    uint32_t imm, expect;
  } rows[] = {{0x0000, 0x38000000}, {0x7C00, 0x47800000}, {0x3C02, 0x3F804000}};
  for (auto row : rows) {
    plain::State s;
    std::string error, text = "SFPLOADI 0, 1, " + std::to_string(row.imm);
    ASSERT_EQ(plain::step(kWormhole, text, s, &error), 0) << error;
    EXPECT_EQ(s.lreg[0][5], row.expect) << text;
  }
}

TEST(PlainSfpu, StochRndRoundsHalfAwayFromZero) {
  const struct {
    int mode;
    uint32_t x, expect;
  } rows[] = {
      {1, 0x43008000, 0x43010000}, // 128.5 -> 129 (tt-metal #30147)
      {1, 0xC3008000, 0xC3010000}, // -128.5 -> -129
      {1, 0x7F7F8000, 0x7F800000}, // carries into Inf
      {1, 0x7FC00000, 0x7F800000}, // a NaN becomes Inf
      {1, 0x80000000, 0x00000000}, // -0 becomes +0
      {1, 0x00400000, 0x00000000}, // denormal
      {7, 0xC0600000, 0x80000004}, // -3.5 in INT16
      {2, 0xC0600000, 0x00000004}, // UINT8 takes the magnitude
      {6, 0x7F800000, 0x0000FFFF}, // Inf saturates
      {3, 0xBF000000, 0x80000001}, // -0.5 rounds away
      {3, 0xBE800000, 0x00000000}, // -0.25 is 0 without sign
  };
  for (auto row : rows)
    for (int arch : {kWormhole, kBlackhole}) {
      std::string text = "SFP_STOCH_RND 0, 0, 0, 1, 0, " + std::to_string(row.mode);
      Lane r = runOne(arch, text.c_str(), 0, row.x, 0, 0);
      ASSERT_EQ(r.status, 0) << r.error;
      EXPECT_EQ(r.s.lreg[0][0], row.expect) << text << " of " << std::hex << row.x;
      EXPECT_EQ(r.s.prng[0], 0x80000000u); // stepped once from 0
    }
}

TEST(PlainSfpu, SfpcastAndRecip) {
  EXPECT_EQ(plain::castSignMagnitudeToFloat(0x80000000), 0x80000000u);
  EXPECT_EQ(plain::castSignMagnitudeToFloat(1), 0x3F800000u);
  EXPECT_EQ(plain::castSignMagnitudeToFloat(0x80000003), 0xC0400000u);
  EXPECT_EQ(plain::castSignMagnitudeToFloat(0x01000001), 0x4B800000u); // tie to even
  EXPECT_EQ(plain::castSignMagnitudeToFloat(0x01000003), 0x4B800002u); // tie up
  EXPECT_EQ(plain::castSignMagnitudeToFloat(0x7FFFFFFF), 0x4F000000u);
  // SFPARECIP's table: docs/generated/sfparecip-table.txt's first entries.
  const uint32_t head[] = {127, 125, 123, 121, 119, 117, 116, 114, 112, 110};
  for (uint32_t i = 0; i < 10; ++i)
    EXPECT_EQ(plain::arecipTable(i), head[i]);
  EXPECT_EQ(plain::arecip(0x80000000), 0xFF800000u);
  EXPECT_EQ(plain::arecip(0x3F800000), 0x3F7F0000u);
  EXPECT_EQ(plain::arecip(0x7E800000), 0u);
}

//===----------------------------------------------------------------------===//
// The named ops' texts.
//===----------------------------------------------------------------------===//

const char *kExpInitWormhole = R"(
init:
SFPCONFIG 0, 15, 1          # lane_config = 0 (_init_sfpu_config_reg)
SFPLOADI 0, 8, 0x3fb8
SFPLOADI 0, 10, 0xaa3b
SFPCONFIG 0, 12, 0          # L12 = 0x3FB8AA3B, 1/ln 2
SFPLOADI 0, 8, 0x27ac
SFPLOADI 0, 10, 0xa418
SFPCONFIG 0, 13, 0          # L13 = 0x27ACA418, c2
SFPLOADI 3, 0, 0x42fe       # L3 = 127.0            (exp.h 295-302, per face)
SFPLOADI 5, 8, 0x33a8
SFPLOADI 5, 10, 0x5ada      # L5 = 0x33A85ADA, c1 = 7.8396e-8
)";
const char *kExpC0Wormhole =
    "SFPLOADI 6, 1, 0x3c02       # L6 = 0x3F804000, c0 = 1.001953125\n";
const char *kExpRestWormhole = R"(
SFPLOADI 2, 0, 0x437f       # L2 = 255.0
body:
SFPLOAD 0, 0, 3, 0          # L0 = x (mode 0 on a bf16 Dest: x << 16)
SFPMAD 0, 12, 3, 0, 0       # L0 = x * (1/ln 2) + 127
SFPMOV 0, 9, 1, 0           # L1 = +0.0             (CLAMP_NEGATIVE)
SFPSWAP 0, 0, 1, 1          # L0 = max(L0, +0), L1 = min
SFPNOP
SFPSWAP 0, 2, 0, 1          # L0 = min(L0, 255), L2 = max
SFPNOP
SFPEXEXP 0, 0, 1, 0         # L1 = exponent(L0) - 127
SFPEXMAN 0, 0, 0, 0         # L0 = fraction(L0) | 2^23
SFPSHFT 0, 1, 0, 0          # L0 = L0 shifted by L1
SFPEXMAN 0, 0, 1, 1         # L1 = fraction bits of L0 (PAD9)
SFPCAST 1, 1, 0             # L1 = float(L1)
SFPMAD 1, 13, 5, 2, 0       # L2 = L1 * c2 + c1
SFPNOP
SFPMAD 2, 1, 6, 1, 0        # L1 = L2 * L1 + c0
SFPLOADI 2, 0, 0x437f       # L2 = 255.0 again
SFPSETEXP 0, 1, 0, 2        # L0 = L1 with L0's exponent field
SFP_STOCH_RND 0, 0, 0, 0, 0, 1   # round to bf16, half away from zero
SFPSTORE 0, 0, 3, 0         # truncating store (exact after the rounding)
)";

std::string expWormhole(const char *c0 = kExpC0Wormhole) {
  return std::string(kExpInitWormhole) + c0 + kExpRestWormhole;
}

const char *kExpBlackhole = R"(
init:
SFPCONFIG 0, 15, 1
SFPLOADI 0, 8, 0x3fb8
SFPLOADI 0, 10, 0xaa3b
SFPCONFIG 0, 12, 0
SFPLOADI 0, 8, 0x27ac
SFPLOADI 0, 10, 0xa418
SFPCONFIG 0, 13, 0
SFPLOADI 5, 0, 0x42fe       # L5 = 127.0            (exp.h 200-205, per face)
SFPLOADI 6, 8, 0x33a8
SFPLOADI 6, 10, 0x5ada      # L6 = c1
SFPLOADI 7, 1, 0x3c02       # L7 = c0 = 0x3F804000
body:
SFPLOAD 0, 0, 7, 0
SFPMAD 0, 12, 5, 3, 0       # L3 = x * (1/ln 2) + 127
SFPLOADI 1, 0, 0x437f       # L1 = 255.0
SFPSWAP 0, 1, 3, 1          # L3 = min(L3, 255), L1 = max
SFPEXEXP 0, 3, 1, 0
SFPEXMAN 0, 3, 0, 0
SFPSHFT 0, 1, 0, 0
SFPEXMAN 0, 0, 1, 1
SFPCAST 1, 1, 0
SFPMAD 1, 13, 6, 2, 0       # L2 = L1 * c2 + c1
SFPGT 0, 9, 3, 8            # L3 = (L3 > +0) ? 0xFFFFFFFF : 0
SFPMAD 2, 1, 7, 1, 0        # L1 = L2 * L1 + c0
SFPAND 0, 3, 0, 1           # L0 = L0 AND L3
SFPSETEXP 0, 1, 0, 2
SFP_STOCH_RND 0, 0, 0, 0, 0, 1
SFPSTORE 0, 0, 6, 0
)";

const char *kExpApprox = R"(
init:
SFPCONFIG 0, 15, 1
SFPLOADI 0, 10, 0x0000
SFPLOADI 0, 8, 0xc2b1
SFPCONFIG 0, 14, 0          # L14 = -88.5
SFPLOADI 0, 10, 0xaa3b
SFPLOADI 0, 8, 0x43b8
SFPCONFIG 0, 12, 0          # L12 = A
SFPLOADI 0, 10, 0xe9a3
SFPLOADI 0, 8, 0x46fd
SFPCONFIG 0, 13, 0          # L13 = B - C
body:
SFPLOAD 0, 0, 3, 0
SFPSWAP 0, 14, 0, 9         # L0 = max(L0, -88.5)
SFPMAD 12, 0, 13, 0, 0      # L0 = A * L0 + (B - C)
SFP_STOCH_RND 0, 0, 0, 0, 0, 6   # to an unsigned 16-bit integer
SFPSHFT 15, 0, 0, 1         # L0 <<= 15
SFPSTORE 0, 0, 3, 0
)";

std::vector<uint16_t> runBf16(int arch, const std::string &program,
                              const std::vector<uint16_t> &in) {
  std::vector<uint16_t> out(in.size(), 0xDEAD);
  std::string error;
  int status = plain::run(arch, program, plain::kDestBf16, in.data(), in.size(),
                          out.data(), &error);
  EXPECT_EQ(status, 0) << error;
  return out;
}

std::vector<uint16_t> everyBf16() {
  std::vector<uint16_t> all(65536);
  for (uint32_t i = 0; i < 65536; ++i)
    all[i] = (uint16_t)i;
  return all;
}

/// The correctly rounded bf16 of a double (round to nearest even).
uint16_t bf16Of(double d) {
  if (std::isnan(d))
    return 0x7FC0;
  double a = std::fabs(d);
  uint16_t sign = std::signbit(d) ? 0x8000 : 0;
  if (a == 0)
    return sign;
  int e;
  std::frexp(a, &e);                       // a in [2^(e-1), 2^e)
  double quantum = std::ldexp(1.0, e - 8); // 8 significant bits
  double smallest = std::ldexp(1.0, -133); // bf16 subnormal step
  if (quantum < smallest)
    quantum = smallest;
  double r = std::nearbyint(a / quantum) * quantum;
  if (r >= std::ldexp(1.0, 128))
    return sign | 0x7F80;
  return sign | (uint16_t)(bitsOf((float)r) >> 16);
}

/// tt-llk's ULP measure: the distance in bf16 ranks, subnormals (and -0)
/// collapsed to 0.
int64_t rank(uint16_t b) {
  int64_t mag = b & 0x7FFF;
  int64_t r = (mag >> 7) == 0 ? 0 : mag - 0x7F;
  return (b & 0x8000) ? -r : r;
}

int maxExpUlp(int arch, const std::vector<uint16_t> &out, uint16_t *worst) {
  int64_t max = 0;
  for (uint32_t x = 0; x < 65536; ++x) {
    if ((x & 0x7F80) == 0x7F80)
      continue; // Inf and NaN: not finite inputs
    uint16_t want = bf16Of(std::exp((double)floatOf(x << 16)));
    int64_t ulp = std::llabs(rank(out[x]) - rank(want));
    if (ulp > max) {
      max = ulp;
      *worst = (uint16_t)x;
    }
  }
  (void)arch;
  return (int)max;
}

TEST(PlainSfpu, ExpC0AsLoaded) {
  std::vector<uint16_t> in = {0x3B07};
  EXPECT_EQ(runBf16(kWormhole, expWormhole(), in)[0], 0x3F81);
  // With c0 = 1.0017248 (0x3F803885), the comment's value, it is 0x3F80.
  EXPECT_EQ(runBf16(kWormhole,
                    expWormhole("SFPLOADI 6, 8, 0x3f80\nSFPLOADI 6, 10, 0x3885\n"),
                    in)[0],
            0x3F80);
  EXPECT_EQ(runBf16(kBlackhole, kExpBlackhole, in)[0], 0x3F81);
  // D87: on an fp16 Dest the same text loads with mode 1 and stores with the
  // fp16 truncation; exp(1) is bf16 2.71875, fp16 0x4170.
  uint16_t one = 0x3C00, e = 0;
  std::string error;
  ASSERT_EQ(plain::run(kWormhole, expWormhole(), plain::kDestFp16, &one, 1, &e, &error), 0)
      << error;
  EXPECT_EQ(e, 0x4170);
}

TEST(PlainSfpu, ExpEveryBf16WithinOneUlp) {
  std::vector<uint16_t> all = everyBf16();
  std::vector<uint16_t> wh = runBf16(kWormhole, expWormhole(), all);
  std::vector<uint16_t> bh = runBf16(kBlackhole, kExpBlackhole, all);
  uint16_t worstWh = 0, worstBh = 0;
  int ulpWh = maxExpUlp(kWormhole, wh, &worstWh);
  int ulpBh = maxExpUlp(kBlackhole, bh, &worstBh);
  std::printf("exp, bf16 Dest: max ULP Wormhole %d (at 0x%04X), Blackhole %d (at 0x%04X)\n",
              ulpWh, worstWh, ulpBh, worstBh);
  EXPECT_EQ(ulpWh, 1); // tt-llk's sfpu_accuracy_budget.yaml row: 1
  EXPECT_LE(ulpBh, 1);
  EXPECT_EQ(worstWh, 0x3B07);
  // The two bodies differ on exactly the negative NaNs 0xFF81-0xFFFF.
  int differ = 0;
  for (uint32_t x = 0; x < 65536; ++x) {
    if (wh[x] == bh[x])
      continue;
    ++differ;
    EXPECT_GE(x, 0xFF81u) << std::hex << x;
    EXPECT_EQ(wh[x], 0x0000) << std::hex << x;
    EXPECT_EQ(bh[x], 0x7F80) << std::hex << x;
  }
  EXPECT_EQ(differ, 127);
}

TEST(PlainSfpu, ExpApproxAndUnaryMax) {
  std::vector<uint16_t> in = {0x0000, 0x3F80, 0xBF80, 0x4000, 0xC2C8};
  for (int arch : {kWormhole, kBlackhole}) {
    std::vector<uint16_t> out = runBf16(arch, kExpApprox, in);
    for (size_t i = 0; i < in.size(); ++i) {
      double want = std::exp((double)floatOf(in[i] << 16));
      double got = floatOf((uint32_t)out[i] << 16);
      EXPECT_NEAR(got, want, 0.07 * want + 1e-30) << std::hex << in[i];
    }
  }
  // unary_max with v = +0: max(-0, +0) is +0; NaNs order by sign.
  const char *max0 = "init:\nSFPLOADI 0, 8, 0\nSFPLOADI 0, 10, 0\nSFPCONFIG 0, 12, 0\n"
                     "body:\nSFPLOAD 0, 0, 3, 0\nSFPSWAP 0, 12, 0, 9\nSFPSTORE 0, 0, 3, 0\n";
  std::vector<uint16_t> out =
      runBf16(kWormhole, max0, {0x8000, 0x7FC1, 0xFFC1, 0xFF80, 0x3F80});
  EXPECT_EQ(out, (std::vector<uint16_t>{0x0000, 0x7FC1, 0x0000, 0x0000, 0x3F80}));
}

//===----------------------------------------------------------------------===//
// Dest kinds, lanes and the PRNG (D80, D81, D84).
//===----------------------------------------------------------------------===//

TEST(PlainSfpu, LoadStoreModesOnKinds) {
  std::string error;
  // fp16: mode 0 is mode 1; every fp16 with exponent 1-31 round-trips, exponent
  // 0 becomes a signed zero.
  std::vector<uint16_t> in(65536), out(65536);
  for (uint32_t i = 0; i < 65536; ++i)
    in[i] = (uint16_t)i;
  ASSERT_EQ(plain::run(kWormhole, "SFPLOAD 0, 0, 0, 0\nSFPSTORE 0, 0, 0, 0", plain::kDestFp16,
                       in.data(), in.size(), out.data(), &error), 0) << error;
  for (uint32_t h = 0; h < 65536; ++h) {
    uint16_t want = ((h >> 10) & 0x1F) == 0 ? (h & 0x8000) : h;
    ASSERT_EQ(out[h], want) << std::hex << h;
  }
  // bf16: mode 0 round-trips every pattern but denormals (flushed, sign kept).
  ASSERT_EQ(plain::run(kBlackhole, "SFPLOAD 3, 0, 0, 0\nSFPSTORE 3, 0, 0, 0", plain::kDestBf16,
                       in.data(), in.size(), out.data(), &error), 0) << error;
  for (uint32_t b = 0; b < 65536; ++b)
    ASSERT_EQ(out[b], ((b >> 7) & 0xFF) == 0 ? (b & 0x8000) : b) << std::hex << b;
  // The raw modes see ttsim's storage encoding: LO16 reads a bf16 cell
  // s<<15 | f<<8 | e.
  plain::State s(plain::kDestBf16);
  s.dest[0] = plain::elementToCells(plain::kDestBf16, 0x3F81); // 1.0078125
  ASSERT_EQ(plain::step(kWormhole, "SFPLOAD 0, 6, 0, 0", s, &error), 0) << error;
  EXPECT_EQ(s.lreg[0][0], 0x017Fu);
  // Mode 7 into a 32-bit kind returns dst_decode_bf16(v >> 16) << 16 | low.
  uint32_t w = 0x017F1234, w7 = 0;
  ASSERT_EQ(plain::run(kWormhole, "SFPLOAD 0, 4, 0, 0\nSFPSTORE 0, 7, 0, 0", plain::kDestInt32,
                       &w, 1, &w7, &error), 0) << error;
  EXPECT_EQ(w7, 0x3F811234u);
  // int32 kind with mode 0: words with exponent field 0 are flushed.
  uint32_t ints[2] = {5, 0x80000005}, got[2];
  ASSERT_EQ(plain::run(kWormhole, "SFPLOAD 0, 4, 0, 0\nSFPSTORE 0, 0, 0, 0", plain::kDestInt32,
                       ints, 2, got, &error), 0) << error;
  EXPECT_EQ(got[0], 0u);
  EXPECT_EQ(got[1], 0x80000000u);
  // Mode 12 on Wormhole: two's complement to sign-magnitude and back.
  uint32_t neg = 0xFFFFFFFF, sm = 0;
  ASSERT_EQ(plain::run(kWormhole, "SFPLOAD 0, 4, 0, 0\nSFPSTORE 0, 12, 0, 0", plain::kDestInt32,
                       &neg, 1, &sm, &error), 0) << error;
  EXPECT_EQ(sm, 0x80000001u);
  // "0x80000000 stays 0x80000000" (section 9, SFPSTORE mode 12 on Wormhole),
  // while SFPLOAD mode 12 reads it as 0.
  uint32_t minInt = 0x80000000;
  ASSERT_EQ(plain::run(kWormhole, "SFPLOAD 0, 4, 0, 0\nSFPSTORE 0, 12, 0, 0", plain::kDestInt32,
                       &minInt, 1, &sm, &error), 0) << error;
  EXPECT_EQ(sm, 0x80000000u);
  ASSERT_EQ(plain::run(kWormhole, "SFPLOAD 0, 12, 0, 0\nSFPSTORE 0, 4, 0, 0", plain::kDestInt32,
                       &minInt, 1, &sm, &error), 0) << error;
  EXPECT_EQ(sm, 0u);
  ASSERT_EQ(plain::run(kBlackhole, "SFPLOAD 0, 4, 0, 0\nSFPSTORE 0, 12, 0, 0", plain::kDestInt32,
                       &neg, 1, &sm, &error), 0) << error;
  EXPECT_EQ(sm, 0xFFFFFFFFu);
}

TEST(PlainSfpu, TypecastTexts) {
  std::string error;
  // uint16 to bf16 on a raw16 Dest (D83): the cast is exact, then
  // SFP_STOCH_RND rounds half away from zero to 8 significant bits.
  const char *toBf16 = "SFPLOAD 0, 6, 3, 0\nSFPCAST 0, 0, 0\n"
                       "SFP_STOCH_RND 0, 0, 0, 0, 0, 1\nSFPSTORE 0, 0, 2, 0\n";
  std::vector<uint16_t> in(65536), out(65536);
  for (uint32_t u = 0; u < 65536; ++u)
    in[u] = (uint16_t)u;
  for (int arch : {kWormhole, kBlackhole}) {
    ASSERT_EQ(plain::run(arch, toBf16, plain::kDestRaw16, in.data(), in.size(), out.data(),
                         &error), 0) << error;
    for (uint32_t u = 0; u < 65536; ++u) {
      uint32_t f = bitsOf((float)u); // exact
      uint32_t b = ((f & 0xFFFF) >= 0x8000 ? f + 0x10000 : f) >> 16;
      if (u == 0)
        b = 0;
      ASSERT_EQ(plain::decodeBf16Cell(out[u]), b) << u;
    }
  }
  // fp32 to uint16 on a raw16 Dest: negatives become 0, half away, saturating.
  const char *toU16 = "SFPLOAD 0, 0, 3, 0\nSFPSWAP 0, 9, 0, 9\n"
                      "SFP_STOCH_RND 0, 0, 0, 0, 0, 6\nSFPSTORE 0, 6, 2, 0\n";
  std::vector<uint16_t> cells = {(uint16_t)plain::encodeBf16Cell(0x4060),  // 3.5
                                 (uint16_t)plain::encodeBf16Cell(0xC060),  // -3.5
                                 (uint16_t)plain::encodeBf16Cell(0x4780),  // 65536
                                 (uint16_t)plain::encodeBf16Cell(0x3F00)}; // 0.5
  std::vector<uint16_t> got(4);
  ASSERT_EQ(plain::run(kWormhole, toU16, plain::kDestRaw16, cells.data(), 4, got.data(),
                       &error), 0) << error;
  EXPECT_EQ(got, (std::vector<uint16_t>{4, 0, 0xFFFF, 1}));
  // int32 to fp32 on an int32 Dest: round to nearest even, -2^31 included.
  const char *toFp32 = "SFPLOAD 0, 4, 3, 0\nSFPABS 0, 0, 1, 0\nSFPCAST 1, 2, 0\n"
                       "SFPSETSGN 0, 2, 0, 0\nSFPSETCC 0, 1, 0, 0\nSFPADDI 0xcf00, 0, 0\n"
                       "SFPENCC 0, 0, 0, 0\nSFPSTORE 0, 0, 2, 0\n";
  std::vector<uint32_t> ints = {0, 1, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0x01000001,
                                0x01000003, 0xFEFFFFFF, 12345678, 0x87654321};
  for (uint32_t i = 0; i < 1000; ++i)
    ints.push_back(i * 2654435761u);
  std::vector<uint32_t> floats(ints.size());
  ASSERT_EQ(plain::run(kWormhole, toFp32, plain::kDestInt32, ints.data(), ints.size(),
                       floats.data(), &error), 0) << error;
  for (size_t i = 0; i < ints.size(); ++i)
    EXPECT_EQ(floats[i], bitsOf((float)(int32_t)ints[i])) << std::hex << ints[i];
}

TEST(PlainSfpu, PartialGroupReadsZeroWritesNothing) {
  // fp32 Dest, 35 elements: group 1 has lanes 0-2; lane 0 receives the
  // rotation from lane 7, a missing lane reading 0.
  std::vector<uint32_t> in(35), out(35 + 4, 0xAAAAAAAA);
  for (uint32_t i = 0; i < 35; ++i)
    in[i] = 0x3F800000 + (i << 16);
  std::string error;
  ASSERT_EQ(plain::run(kBlackhole, "body:\nSFPLOAD 0, 0, 0, 0\nSFPSHFT2 0, 0, 1, 3\nSFPSTORE 1, 0, 0, 0",
                       plain::kDestFp32, in.data(), 35, out.data(), &error), 0) << error;
  EXPECT_EQ(out[32], 0u);
  EXPECT_EQ(out[33], in[32]);
  EXPECT_EQ(out[34], in[33]);
  EXPECT_EQ(out[35], 0xAAAAAAAAu); // nothing past count
  EXPECT_EQ(out[0], in[7]);
  EXPECT_EQ(out[1], in[0]);
}

TEST(PlainSfpu, PrngFromResetAcrossGroups) {
  std::vector<uint32_t> in(96, 0), out(96);
  std::string error;
  ASSERT_EQ(plain::run(kWormhole, "SFPMOV 0, 9, 0, 8\nSFPSTORE 0, 4, 0, 0", plain::kDestInt32,
                       in.data(), 96, out.data(), &error), 0) << error;
  EXPECT_EQ(out[0], 0u);
  EXPECT_EQ(out[32 + 5], 0x80000000u);
  EXPECT_EQ(out[64 + 31], 0x40000000u);
}

TEST(PlainSfpu, LaneFifteenAndTransposeUseTtsimLanes) {
  plain::State s;
  std::string error;
  ASSERT_EQ(plain::step(kWormhole, "SFPMOV 0, 15, 0, 0", s, &error), 0);
  EXPECT_EQ(s.lreg[0][5], 10u);
  for (int r = 0; r < 8; ++r)
    for (int lane = 0; lane < 32; ++lane)
      s.lreg[r][lane] = 100 * r + lane;
  ASSERT_EQ(plain::step(kWormhole, "SFPTRANSP 0, 0, 0, 0", s, &error), 0) << error;
  // L[base + i][8j + c] <-> L[base + j][8i + c].
  EXPECT_EQ(s.lreg[1][8 * 0 + 3], 0u * 100 + 8 * 1 + 3);
  EXPECT_EQ(s.lreg[0][8 * 1 + 3], 1u * 100 + 8 * 0 + 3);
  EXPECT_EQ(s.lreg[7][8 * 2 + 1], 6u * 100 + 8 * 3 + 1);
  EXPECT_EQ(s.lreg[2][8 * 2 + 1], 200u + 8 * 2 + 1); // the diagonal stays
}

TEST(PlainSfpu, ConditionCodesNest) {
  // if (x < 0) { if (x != -1) L0 = 1 else L0 = 2 } else L0 = 3, on the lanes
  // of an int32 Dest.
  const char *program = R"(
body:
SFPLOAD 1, 4, 0, 0
SFPLOADI 0, 2, 3
SFPSETCC 0, 1, 0, 0      # x < 0
SFPPUSHC 0, 0, 0, 0
SFPIADD 1, 1, 2, 5       # L2 = x + 1, cc unchanged
SFPSETCC 0, 2, 0, 2      # x + 1 != 0
SFPLOADI 0, 2, 1
SFPCOMPC 0, 0, 0, 0      # else (within x < 0)
SFPLOADI 0, 2, 2
SFPPOPC 0, 0, 0, 0
SFPCOMPC 0, 0, 0, 0      # outer else
SFPLOADI 0, 2, 3
SFPENCC 0, 0, 0, 0
SFPSTORE 0, 4, 0, 0
)";
  std::vector<uint32_t> in = {5, 0xFFFFFFFF, 0xFFFFFFF0, 0, 0x80000000}, out(5);
  std::string error;
  ASSERT_EQ(plain::run(kWormhole, program, plain::kDestInt32, in.data(), in.size(),
                       out.data(), &error), 0) << error;
  EXPECT_EQ(out, (std::vector<uint32_t>{3, 2, 1, 3, 1}));
}

//===----------------------------------------------------------------------===//
// Refusals (section 9 "Decoding", D81, D82, D85, D88).
//===----------------------------------------------------------------------===//

std::string refusal(int arch, const std::string &program, int kind = plain::kDestFp32) {
  uint32_t in[3] = {1, 2, 3}, out[3] = {7, 7, 7};
  std::string error;
  int status = plain::run(arch, program, kind, in, kind == plain::kDestFp32 ? 3 : 1, out, &error);
  EXPECT_LT(status, 0) << program;
  EXPECT_EQ(out[0], 7u) << "written despite the refusal: " << program;
  return error;
}

TEST(PlainSfpu, Refusals) {
  auto has = [](const std::string &error, const std::string &part) {
    return error.find(part) != std::string::npos;
  };
  EXPECT_TRUE(has(refusal(kWormhole, "SFPLOADMACRO 0, 0, 0, 0"),
                  "set TT_METAL_DISABLE_SFPLOADMACRO=1"));
  EXPECT_TRUE(has(refusal(kWormhole, "INCRWC 0, 2, 0, 0"), "INCRWC"));
  EXPECT_TRUE(has(refusal(kWormhole, "\n\nSFPFOO 1"), "line 3: unknown mnemonic"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPMAD 1, 2, 3, 0"), "operands"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPMAD 1, 2, 16, 0, 0"), "out of range"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPMAD 16, 2, 3, 0, 0"), "invalid opcode bits set"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPLE 0, 1, 0, 1"), "opcode=0x96"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPLOAD 12, 0, 0, 0"), "instruction template load"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPLOAD 0, 0, 0, 1"), "dest_reg_addr=1"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPLOAD 0, 0, 0, 2"), "dest_reg_addr=2"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPLOAD 0, 0, 0, 1024"), "invalid opcode bits set"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPLOAD 0, 1, 0, 0", plain::kDestFp16), "instr_mod0=1"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPLOAD 0, 2, 0, 0"), "D81"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPSTORE 0, 3, 0, 0", plain::kDestBf16), "D81"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPMAD 1, 2, 3, 8, 0"), "lreg_dest=8"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPMAD 1, 2, 3, 0, 1"), "reserved bit set"));
  EXPECT_TRUE(has(refusal(kBlackhole, "SFPCAST 1, 0, 2"), "should be replaced by SFPABS"));
  EXPECT_TRUE(has(refusal(kBlackhole, "SFPCAST 1, 0, 1"), "stochastic rounding"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPSHFT2 0, 1, 0, 4"), "SUBVEC_SHFLSHR1"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPADD 1, 2, 3, 0, 0"), "invalid lreg_a=1 lreg_b=2"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPCONFIG 0, 9, 0"), "config_dest=9"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPCONFIG 0x8, 15, 1"), "lane_config=0x8"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPNOP 0"), "operands"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPIADD -1, 1, 0, 1"), "unsigned"));
  // Run time (D88): the line, the group, ttsim's message.
  EXPECT_TRUE(has(refusal(kWormhole, "SFPPOPC 0, 0, 0, 0"), "line 1, group 0: SFPPOPC: CC stack underflow"));
  std::string nine;
  for (int i = 0; i < 9; ++i)
    nine += "SFPPUSHC 0, 0, 0, 0\n";
  EXPECT_TRUE(has(refusal(kWormhole, nine), "line 9, group 0: SFPPUSHC: CC stack overflow"));
  EXPECT_TRUE(has(refusal(kWormhole, "init:\nSFPENCC 2, 0, 0, 10\nbody:\nSFPSETCC 0, 1, 0, 0"),
                  "line 4, group 0: SFPSETCC: cc_en=0"));
  EXPECT_TRUE(has(refusal(kWormhole, "init:\nSFPENCC 2, 0, 0, 10\nSFPCOMPC 0, 0, 0, 0"),
                  "line 3 (init): SFPCOMPC: cc_en=0"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPMOV 0, 15, 0, 0\nSFPCONFIG 0, 12, 0"),
                  "instr_mod1=0: l_regs[0]: lane[1] mismatch with lane[0]"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPSETCC 0, 15, 0, 6\nSFPCONFIG 0, 12, 0"),
                  "SFPCONFIG: not all lanes enabled: mask=0x1"));
  EXPECT_TRUE(has(refusal(kWormhole, "SFPSETCC 0, 15, 0, 6\nSFPMAD 1, 2, 3, 12, 0"),
                  "not all lanes enabled: mask=0x1"));
  EXPECT_TRUE(has(refusal(kWormhole, "init:\nSFPCONFIG 0x4, 15, 1\nbody:\nSFPMOV 0, 1, 5, 0"),
                  "TEN-2932: SFPU result write to LReg[5]"));
}

/// One instruction on lanes holding l0-l3 (every lane); L[dest] lane 0.
uint32_t one(int arch, const char *text, uint32_t l0, uint32_t l1, uint32_t l2 = 0,
             uint32_t l3 = 0, int reg = 0) {
  Lane r = runOne(arch, text, l0, l1, l2, l3);
  EXPECT_EQ(r.status, 0) << text << ": " << r.error;
  return r.s.lreg[reg][0];
}

TEST(PlainSfpu, SingleInstructionsByHand) {
  const int W = kWormhole, B = kBlackhole;
  // SFPLUT: |L3| = 0.5 < 1 takes L0's bytes: A = lut8(0x10) = 0.5, C =
  // lut8(0x20) = 0.25; the sign is L3's.
  EXPECT_EQ(one(W, "SFPLUT 4, 4, 0", 0x1020, 0, 0, 0xBF000000, 4), 0xBF000000u);
  EXPECT_EQ(plain::lut8(0xFF), 0u);
  // SFPLUTFP32: |L3| = 1.25 takes the low halves of L1 and L5.
  {
    Lane r = runOne(W, "SFPNOP", 0, 0x3800, 0, 0x3FA00000);
    for (int lane = 0; lane < 32; ++lane)
      r.s.lreg[5][lane] = 0x3C00;
    std::string error;
    ASSERT_EQ(plain::step(W, "SFPLUTFP32 6, 2", r.s, &error), 0) << error;
    EXPECT_EQ(r.s.lreg[6][0], 0x3FD00000u); // 0.5 * 1.25 + 1
  }
  // SFPDIVP2: mode 1 wraps the exponent, leaves exponent 255; mode 0 sets it.
  EXPECT_EQ(one(W, "SFPDIVP2 10, 1, 0, 1", 0, 0x7D000000), 0x02000000u);
  EXPECT_EQ(one(W, "SFPDIVP2 10, 1, 0, 1", 0, 0xFF800001), 0xFF800001u);
  EXPECT_EQ(one(W, "SFPDIVP2 0xFFF, 1, 0, 1", 0, 0x3F800000), 0x3F000000u);
  EXPECT_EQ(one(W, "SFPDIVP2 127, 1, 0, 0", 0, 0x00000001), 0x3F800001u);
  // SFPEXEXP with its cc modes.
  {
    Lane r = runOne(W, "SFPEXEXP 0, 1, 0, 2", 0, 0x3F000000, 0, 0);
    EXPECT_EQ(r.s.lreg[0][0], 0xFFFFFFFFu);
    EXPECT_EQ(r.s.cc, 0xFFFFFFFFu);
    r = runOne(W, "SFPEXEXP 0, 1, 0, 10", 0, 0x3F000000, 0, 0);
    EXPECT_EQ(r.s.cc, 0u);
    EXPECT_EQ(one(W, "SFPEXEXP 0, 1, 0, 1", 0, 0x3F000000), 126u);
  }
  // SFPSETMAN, SFPSETSGN, SFPSETEXP.
  EXPECT_EQ(one(W, "SFPSETMAN 0, 1, 0, 0", 0x00123456, 0xC0000000), 0xC0123456u);
  EXPECT_EQ(one(W, "SFPSETMAN 0, 1, 0, 1", 0x00123456, 0xC0654321), 0xC0000000u);
  EXPECT_EQ(one(W, "SFPSETSGN 1, 1, 0, 1", 0, 0x3F800000), 0xBF800000u);
  EXPECT_EQ(one(W, "SFPSETSGN 0, 1, 0, 0", 0x80000000, 0x3F800000), 0xBF800000u);
  EXPECT_EQ(one(W, "SFPSETEXP 0x80, 1, 0, 1", 0, 0xBF812345), 0xC0012345u);
  EXPECT_EQ(one(W, "SFPSETEXP 0, 1, 0, 0", 0x180, 0xBF812345), 0xC0012345u);
  // SFPABS: negative NaNs keep their sign; INT mode negates.
  EXPECT_EQ(one(W, "SFPABS 0, 1, 0, 1", 0, 0xFF800001), 0xFF800001u);
  EXPECT_EQ(one(W, "SFPABS 0, 1, 0, 1", 0, 0xFF800000), 0x7F800000u);
  EXPECT_EQ(one(W, "SFPABS 0, 1, 0, 0", 0, 0xFFFFFFFB), 5u);
  EXPECT_EQ(one(W, "SFPABS 0, 1, 0, 0", 0, 0x80000000), 0x80000000u);
  // SFPLZ.
  EXPECT_EQ(one(W, "SFPLZ 0, 1, 0, 4", 0, 0x80000001), 31u);
  EXPECT_EQ(one(W, "SFPLZ 0, 1, 0, 0", 0, 0x80000001), 0u);
  {
    Lane r = runOne(W, "SFPLZ 0, 1, 0, 2", 0, 0, 0, 0);
    EXPECT_EQ(r.s.lreg[0][0], 32u);
    EXPECT_EQ(r.s.cc, 0u);
  }
  // SFPIADD: c minus dest.
  EXPECT_EQ(one(W, "SFPIADD 0, 1, 0, 6", 3, 10), 7u);
  EXPECT_EQ(one(W, "SFPIADD 0, 1, 0, 4", 3, 10), 13u);
  // SFPSHFT: a register amount of -1 shifts right (logical on Wormhole).
  EXPECT_EQ(one(W, "SFPSHFT 0, 1, 0, 0", 0x80000000, 0xFFFFFFFF), 0x40000000u);
  EXPECT_EQ(one(B, "SFPSHFT 0, 1, 0, 2", 0x80000000, 0xFFFFFFFF), 0xC0000000u);
  EXPECT_EQ(one(W, "SFPSHFT 0, 1, 0, 0", 0x1, 32), 0x1u);
  // SFPAND/SFPOR/SFPXOR/SFPNOT; Blackhole's mode 1 reads L[imm12].
  EXPECT_EQ(one(W, "SFPAND 0, 1, 0, 0", 0xFF00, 0x0FF0), 0x0F00u);
  EXPECT_EQ(one(W, "SFPOR 0, 1, 0, 0", 0xFF00, 0x0FF0), 0xFFF0u);
  EXPECT_EQ(one(W, "SFPXOR 0, 1, 0, 0", 0xFF00, 0x0FF0), 0xF0F0u);
  EXPECT_EQ(one(W, "SFPNOT 0, 1, 0, 0", 0xFF00, 0x0FF0), 0xFFFFF00Fu);
  EXPECT_EQ(one(B, "SFPAND 2, 1, 0, 1", 0xFFFF, 0x0FF0, 0xF00F), 0x0000u);
  EXPECT_EQ(one(B, "SFPOR 2, 1, 0, 1", 0xFFFF, 0x0FF0, 0xF00F), 0xFFFFu);
  // SFPMUL24.
  EXPECT_EQ(one(B, "SFPMUL24 1, 2, 9, 0, 0", 0, 0x00800001, 0x00800001), 1u);
  EXPECT_EQ(one(B, "SFPMUL24 1, 2, 9, 0, 1", 0, 0x7FFFFF, 0x7FFFFF), 0x7FFFFEu);
  // SFPMULI, SFPADDI, SFPMUL, SFPADD.
  EXPECT_EQ(one(W, "SFPMULI 0x4000, 0, 0", 0x3FC00000, 0), 0x40400000u);
  EXPECT_EQ(one(W, "SFPADDI 0x3F80, 0, 0", 0x3FC00000, 0), 0x40200000u);
  EXPECT_EQ(one(W, "SFPMUL 1, 2, 9, 0, 0", 0, 0x40000000, 0x40400000), 0x40C00000u);
  EXPECT_EQ(one(B, "SFPMUL 1, 2, 9, 0, 1", 0, 0x40000000, 0x40400000), 0xC0C00000u);
  EXPECT_EQ(one(W, "SFPADD 10, 2, 3, 0, 0", 0, 0, 0x40000000, 0x3F800000), 0x40400000u);
  EXPECT_EQ(one(B, "SFPADD 2, 10, 3, 0, 3", 0, 0, 0x40000000, 0x3F800000), 0xC0400000u);
  // SFPSWAP modes 2 and 3: which lanes take the minimum.
  {
    Lane r = runOne(W, "SFPSWAP 0, 1, 0, 2", 5, 7, 0, 0);
    EXPECT_EQ(r.s.lreg[0][15], 5u);
    EXPECT_EQ(r.s.lreg[0][16], 7u);
    EXPECT_EQ(r.s.lreg[1][16], 5u);
    r = runOne(W, "SFPSWAP 0, 1, 0, 3", 5, 7, 0, 0);
    EXPECT_EQ(r.s.lreg[0][7], 5u);
    EXPECT_EQ(r.s.lreg[0][8], 7u);
    EXPECT_EQ(r.s.lreg[0][16], 5u);
    EXPECT_EQ(r.s.lreg[0][24], 7u);
    // Mode 0 swaps; a constant register is read, never written.
    r = runOne(W, "SFPSWAP 0, 10, 0, 0", 5, 7, 0, 0);
    EXPECT_EQ(r.s.lreg[0][0], 0x3F800000u);
    EXPECT_EQ(r.s.lreg[10][0], 0x3F800000u);
  }
  // SFPLE, SFPGT (Blackhole): -0 < +0 in the total order.
  EXPECT_EQ(one(B, "SFPLE 0, 1, 0, 8", 0x80000000, 0), 0xFFFFFFFFu);
  EXPECT_EQ(one(B, "SFPGT 0, 1, 0, 8", 0x80000000, 0), 0u);
  {
    Lane r = runOne(B, "SFPGT 0, 1, 0, 1", 0, 0x80000000, 0, 0);
    EXPECT_EQ(r.s.cc, 0xFFFFFFFFu);
    EXPECT_EQ(r.s.lreg[0][0], 0u);
  }
  // SFPMOV: mode 1 flips the sign, mode 2 ignores the condition codes.
  EXPECT_EQ(one(W, "SFPMOV 0, 1, 0, 1", 0, 0x3F800000), 0xBF800000u);
  {
    plain::State s;
    std::string error;
    ASSERT_EQ(plain::step(W, "SFPENCC 1, 0, 0, 10", s, &error), 0) << error; // cc 0, enabled
    ASSERT_EQ(plain::step(W, "SFPMOV 0, 10, 0, 0", s, &error), 0) << error;
    EXPECT_EQ(s.lreg[0][3], 0u);
    ASSERT_EQ(plain::step(W, "SFPMOV 0, 10, 0, 2", s, &error), 0) << error;
    EXPECT_EQ(s.lreg[0][3], 0x3F800000u);
    // With cc_en false, every lane is enabled whatever cc holds.
    ASSERT_EQ(plain::step(W, "SFPENCC 0, 0, 0, 10", s, &error), 0) << error;
    ASSERT_EQ(plain::step(W, "SFPMOV 0, 11, 1, 0", s, &error), 0) << error;
    EXPECT_EQ(s.lreg[1][3], 0xBF800000u);
  }
  // SFPCONFIG writes a constant register in every lane; mode 1 L11 = -1.
  {
    plain::State s;
    std::string error;
    ASSERT_EQ(plain::step(W, "SFPLOADI 0, 0, 0x4000", s, &error), 0);
    ASSERT_EQ(plain::step(W, "SFPCONFIG 0, 14, 0", s, &error), 0) << error;
    ASSERT_EQ(plain::step(W, "SFPCONFIG 0, 11, 0", s, &error), 0) << error;
    EXPECT_EQ(s.lreg[14][31], 0x40000000u);
    EXPECT_EQ(s.lreg[11][31], 0x40000000u);
    ASSERT_EQ(plain::step(W, "SFPCONFIG 0, 11, 1", s, &error), 0) << error;
    EXPECT_EQ(s.lreg[11][31], 0xBF800000u);
    ASSERT_EQ(plain::step(W, "SFPCONFIG 0x104, 15, 1", s, &error), 0) << error;
    EXPECT_EQ(s.laneConfig, 0x104u);
  }
  // SFPSWAP with ENABLE_DEST_INDEX also swaps L4 + c and L4 + dest; lane_config
  // bit 8 inverts the min/max decision.
  {
    plain::State s;
    std::string error;
    for (int lane = 0; lane < 32; ++lane) {
      s.lreg[0][lane] = 9, s.lreg[1][lane] = 2;
      s.lreg[4][lane] = 40, s.lreg[5][lane] = 50;
    }
    s.laneConfig = 4;
    ASSERT_EQ(plain::step(W, "SFPSWAP 0, 1, 0, 1", s, &error), 0) << error;
    EXPECT_EQ(s.lreg[0][0], 2u);
    EXPECT_EQ(s.lreg[1][0], 9u);
    EXPECT_EQ(s.lreg[4][0], 50u);
    EXPECT_EQ(s.lreg[5][0], 40u);
    s.laneConfig = 0x100;
    ASSERT_EQ(plain::step(W, "SFPSWAP 0, 1, 0, 1", s, &error), 0) << error;
    EXPECT_EQ(s.lreg[0][0], 9u); // inverted: the larger one into VD
  }
  // SFPSTORE mode 1 (fp16 Dest): truncation and clamps.
  {
    plain::State s(plain::kDestFp16);
    std::string error;
    const struct {
      uint32_t v;
      uint16_t h;
    } rows[] = {{0x3F801FFF, 0x3C00}, {0x47800000, 0x7C00}, {0x7F800000, 0x7FFF},
                {0xFFC00000, 0xFFFF}, {0xB8000000, 0x8000}, {0x00400000, 0x0000}};
    for (auto row : rows) {
      for (int lane = 0; lane < 32; ++lane)
        s.lreg[0][lane] = row.v;
      ASSERT_EQ(plain::step(W, "SFPSTORE 0, 0, 0, 0", s, &error), 0) << error;
      EXPECT_EQ(plain::cellsToElement(plain::kDestFp16, s.dest[0]), row.h)
          << std::hex << row.v;
    }
  }
}

TEST(PlainSfpu, EveryDocumentedRefusal) {
  const struct {
    int arch;
    const char *program;
    int kind;
    const char *message;
  } rows[] = {
      {kWormhole, "SFPLOADI 8, 0, 0", 0, "SFPLOADI: lreg_ind=8"},
      {kWormhole, "SFPLOADI 0, 3, 0", 0, "SFPLOADI: instr_mod0=3"},
      {kWormhole, "SFPLOADI 12, 0, 0", 0, "instruction template load"},
      {kWormhole, "SFPSTORE 12, 0, 0, 0", 0, "instruction template load"},
      {kWormhole, "SFPLUT 13, 4, 0", 0, "instruction template load"},
      {kWormhole, "SFPLUT 0, 3, 0", 0, "SFPLUT: instr_mod0=3"},
      {kWormhole, "SFPLUT 0, 4, 1", 0, "invalid opcode bits set in inst=0x73040001"},
      {kWormhole, "SFPLUT 8, 4, 0", 0, "SFPLUT: lreg_dest=8"},
      {kWormhole, "SFPLOAD 0, 7, 0, 0", 0, "SFPLOAD: instr_mod0=7"},
      {kWormhole, "SFPSTORE 0, 1, 0, 0", 2, "SFPSTORE: instr_mod0=1"},
      {kWormhole, "SFPSTORE 0, 6, 0, 0", 0, "D81"},
      {kWormhole, "SFPLOAD 0, 0, 4, 0", 0, "out of range"},
      {kBlackhole, "SFPLOAD 0, 0, 8, 0", 0, "out of range"},
      {kBlackhole, "SFPLOAD 0, 0, 7, 8192", 0, "out of range"},
      {kWormhole, "init:\nSFPLOAD 0, 0, 0, 0\nbody:", 0, "init section"},
      {kWormhole, "SFPMULI 0, 0, 1", 0, "SFPMULI: instr_mod1=1"},
      {kWormhole, "SFPADDI 0, 8, 0", 0, "SFPADDI: lreg_dest=8"},
      {kWormhole, "SFPDIVP2 0x80, 1, 0, 0", 0, "SFPDIVP2: imm12_math=128"},
      {kWormhole, "SFPDIVP2 0, 1, 0, 2", 0, "reserved bit set in instr_mod1=2"},
      {kWormhole, "SFPEXEXP 0, 1, 0, 4", 0, "reserved bit set in instr_mod1=4"},
      {kWormhole, "SFPEXEXP 0, 1, 0, 3", 0, "SFPEXEXP: instr_mod1=3"},
      {kWormhole, "SFPEXEXP 1, 1, 0, 0", 0, "invalid opcode bits set"},
      {kWormhole, "SFPSETEXP 0x100, 1, 0, 1", 0, "invalid opcode bits set"},
      {kWormhole, "SFPSETEXP 1, 1, 0, 0", 0, "SFPSETEXP: imm12_math=1"},
      {kWormhole, "SFPSETMAN 1, 1, 0, 1", 0, "SFPSETMAN: imm12_math=1"},
      {kWormhole, "SFPSETSGN 2, 1, 0, 1", 0, "invalid opcode bits set"},
      {kWormhole, "SFPIADD 0, 1, 0, 3", 0, "SFPIADD: instr_mod1=3"},
      {kWormhole, "SFPIADD 0, 1, 0, 12", 0, "SFPIADD: instr_mod1=12"},
      {kWormhole, "SFPSHFT 1, 1, 0, 0", 0, "SFPSHFT: imm12_math=1"},
      {kBlackhole, "SFPSHFT 0, 1, 0, 4", 0, "SFPSHFT: invalid instr_mod1=4"},
      {kWormhole, "SFPSETCC 0, 1, 0, 1", 0, "SFPSETCC: instr_mod1=1"},
      {kWormhole, "SFPSETCC 0, 1, 1, 0", 0, "SFPSETCC: lreg_dest=1"},
      {kWormhole, "SFPSETCC 2, 1, 0, 0", 0, "invalid opcode bits set"},
      {kWormhole, "SFPMOV 0, 1, 0, 4", 0, "reserved bit set in instr_mod1=4"},
      {kWormhole, "SFPMOV 0, 1, 0, 8", 0, "SFPMOV: lreg_c=1"},
      {kWormhole, "SFPMOV 1, 1, 0, 0", 0, "invalid opcode bits set"},
      {kWormhole, "SFPAND 1, 1, 0, 0", 0, "SFPAND: imm12_math=1"},
      {kWormhole, "SFPAND 0x10, 1, 0, 0", 0, "invalid opcode bits set"},
      {kWormhole, "SFPOR 1, 1, 0, 1", 0, "SFPOR: instr_mod1=1"},
      {kWormhole, "SFPXOR 0, 1, 0, 1", 0, "invalid opcode bits set"},
      {kWormhole, "SFPLZ 0, 1, 0, 1", 0, "reserved bit set in instr_mod1=1"},
      {kWormhole, "SFPLZ 0, 1, 0, 6", 0, "SFPLZ: instr_mod1=6"},
      {kBlackhole, "SFPMAD 1, 2, 3, 0, 4", 0, "SFPMAD: instr_mod1=4"},
      {kWormhole, "SFPMAD 1, 2, 3, 0, 4", 0, "SFPMAD: instr_mod1=4"},
      {kWormhole, "SFPMUL 1, 2, 3, 0, 0", 0, "SFPMUL: lreg_c=3"},
      {kBlackhole, "SFPMUL 1, 2, 9, 0, 2", 0, "SFPMUL: instr_mod1=2"},
      {kBlackhole, "SFPMUL24 1, 2, 9, 0, 2", 0, "reserved bit set in instr_mod1=2"},
      {kBlackhole, "SFPMUL24 1, 2, 3, 0, 0", 0, "SFPMUL24: lreg_c=3"},
      {kWormhole, "SFPMUL24 1, 2, 9, 0, 0", 0, "opcode=0x98"},
      {kWormhole, "SFPARECIP 0, 1, 0, 0", 0, "opcode=0x99"},
      {kBlackhole, "SFPARECIP 1, 1, 0, 0", 0, "SFPARECIP: imm12_math=1"},
      {kBlackhole, "SFPARECIP 0, 1, 0, 1", 0, "SFPARECIP: instr_mod1=1"},
      {kWormhole, "SFPPUSHC 0, 0, 0, 1", 0, "SFPPUSHC: instr_mod1=1"},
      {kWormhole, "SFPPOPC 0, 1, 0, 0", 0, "invalid opcode bits set"},
      {kWormhole, "SFPENCC 0, 0, 0, 1", 0, "SFPENCC: instr_mod1=1"},
      {kWormhole, "SFPENCC 1, 0, 0, 0", 0, "SFPENCC: imm12_math=1"},
      {kWormhole, "SFPENCC 0, 0, 1, 0", 0, "SFPENCC: lreg_dest=1"},
      {kWormhole, "SFPCOMPC 0, 0, 0, 1", 0, "invalid opcode bits set"},
      {kWormhole, "SFPTRANSP 0, 1, 0, 0", 0, "invalid opcode bits set"},
      {kWormhole, "SFP_STOCH_RND 0, 0, 0, 1, 0, 0", 0, "SFP_STOCH_RND: instr_mod1=0"},
      {kWormhole, "SFP_STOCH_RND 0, 0, 0, 1, 0, 12", 0, "SFP_STOCH_RND: instr_mod1=12"},
      {kWormhole, "SFP_STOCH_RND 0, 0, 0, 1, 0, 14", 0, "SFP_STOCH_RND: instr_mod1=14"},
      {kWormhole, "SFP_STOCH_RND 0, 1, 0, 1, 0, 1", 0, "SFP_STOCH_RND: imm8_math=1"},
      {kWormhole, "SFP_STOCH_RND 1, 0, 0, 1, 0, 1", 0, "SFP_STOCH_RND: rnd_mode=1"},
      {kBlackhole, "SFP_STOCH_RND 4, 0, 0, 1, 0, 1", 0, "invalid opcode bits set"},
      {kWormhole, "SFPCAST 1, 0, 1", 0, "stochastic rounding is explicitly out of scope"},
      {kWormhole, "SFPCAST 16, 0, 0", 0, "invalid opcode bits set"},
      {kBlackhole, "SFPCAST 1, 0, 4", 0, "SFPCAST: instr_mod1=4"},
      {kWormhole, "SFPCONFIG 0, 15, 2", 0, "SFPCONFIG: instr_mod1=2"},
      {kWormhole, "SFPCONFIG 1, 15, 0", 0, "SFPCONFIG: imm16_math=1"},
      {kWormhole, "SFPCONFIG 0, 2, 1", 0, "config_dest=2"},
      {kWormhole, "SFPCONFIG 0x1000, 8, 1", 0, "SFPCONFIG: imm16_math=4096"},
      {kWormhole, "SFPCONFIG 0, 10, 0", 0, "SFPCONFIG: config_dest=10"},
      {kWormhole, "SFPCONFIG 1, 12, 1", 0, "SFPCONFIG: imm16_math=1"},
      {kWormhole, "SFPSWAP 0, 1, 0, 4", 0, "SFPSWAP: instr_mod1=4"},
      {kWormhole, "SFPSWAP 0, 1, 0, 10", 0, "SFPSWAP: instr_mod1=10"},
      {kWormhole, "SFPSWAP 1, 1, 0, 1", 0, "invalid opcode bits set"},
      {kWormhole, "SFPSHFT2 0, 1, 0, 7", 0, "SFPSHFT2: instr_mod1=7"},
      {kWormhole, "SFPSHFT2 0, 1, 0, 1", 0, "SFPSHFT2: instr_mod1=1"},
      {kBlackhole, "SFPSHFT2 16, 1, 0, 5", 0, "SFPSHFT2: imm12_math=16"},
      {kBlackhole, "SFPSHFT2 1, 1, 0, 3", 0, "SFPSHFT2: imm12_math=1"},
      {kWormhole, "SFPLUTFP32 0, 1", 0, "SFPLUTFP32: instr_mod1=1"},
      {kBlackhole, "SFPLE 0, 1, 0, 2", 0, "SFPLE: instr_mod1=2"},
      {kBlackhole, "SFPGT 0, 1, 8, 1", 0, "SFPGT: lreg_dest=8"},
      // Run time (D88).
      {kWormhole, "SFPENCC 2, 0, 0, 10\nSFPPUSHC 0, 0, 0, 0\nSFPENCC 3, 0, 0, 10\nSFPCOMPC 0, 0, 0, 0",
       0, "line 4, group 0: SFPCOMPC: cc_en_stack[top]=0"},
      {kWormhole, "SFPLOADI 0, 2, 8\nSFPCONFIG 0, 15, 0", 0, "line 2, group 0: SFPCONFIG: lane_config=0x8"},
      {kWormhole, "init:\nSFPCONFIG 4, 15, 1\nbody:\nSFPSWAP 0, 4, 0, 1", 0,
       "line 4, group 0: SFPSWAP: lreg_c=4 lreg_dest=0"},
      {kBlackhole, "init:\nSFPCONFIG 4, 15, 1\nbody:\nSFPLUT 5, 4, 0", 0,
       "TEN-2932: SFPU result write to LReg[5] is corrupted when ENABLE_DEST_INDEX is set (opcode=0x73)"},
      {kWormhole, "SFPSETCC 0, 15, 0, 6\nSFPSWAP 0, 1, 12, 1", 0,
       "line 2, group 0: SFPSWAP: inst=0x920001c1: not all lanes enabled: mask=0x1"},
  };
  for (const auto &row : rows) {
    std::string error = refusal(row.arch, row.program, row.kind);
    EXPECT_NE(error.find(row.message), std::string::npos)
        << row.program << "\n  gave: " << error << "\n  want: " << row.message;
  }
  // Spaces alone separate operands too; both numbers forms are accepted.
  plain::State s;
  std::string error;
  EXPECT_EQ(plain::step(kWormhole, "SFPLOADI 0 0x2 10   # comment", s, &error), 0) << error;
  EXPECT_EQ(s.lreg[0][0], 10u);
}

TEST(PlainSfpu, TemplatesDoNothing) {
  // A word with lreg_dest 12-15 is stored, not run, whatever its other bits.
  plain::State s;
  std::string error;
  ASSERT_EQ(plain::step(kWormhole, "SFPMAD 15, 2, 3, 12, 15", s, &error), 0) << error;
  ASSERT_EQ(plain::step(kWormhole, "SFPSETCC 0, 1, 13, 0", s, &error), 0) << error;
  plain::State fresh;
  EXPECT_EQ(std::memcmp(s.lreg, fresh.lreg, sizeof s.lreg), 0);
  EXPECT_EQ(s.cc, 0xFFFFFFFFu);
}

} // namespace
