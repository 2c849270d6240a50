//===- DmaComputeTest.cpp - the DMA's arithmetic vs a plain reading of §8 -===//
#include "Oracle.h"

#include "birsim/Core/Cast.h"
#include "birsim/Core/DmaCompute.h"
#include "birsim/Core/Reduce.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

using namespace birsim::core;

namespace {

constexpr int kCopy = 0, kAdd = 1, kMin = 2, kMax = 3;
const unsigned kConfigs[] = {0x0000, 0x0001, 0xFF00, 0xFF01};

const DtypeInfo &info(Dtype d) { return dtypeInfo(d); }

/// §8 read plainly, one element: both operands through the cast engine to
/// fp32, the fp32 core in the kernel's order, the cast engine back.
uint64_t plainDma(int op, Dtype dst, uint64_t dstBits, Dtype src,
                  uint64_t srcBits, unsigned config) {
  const DtypeInfo &f32 = info(Dtype::float32);
  uint32_t acc = uint32_t(oracle::expectedCast(info(dst), dstBits, f32, 0));
  uint32_t x = uint32_t(oracle::expectedCast(info(src), srcBits, f32, 0));
  return oracle::expectedCast(f32, oracle::f32Expected(op, acc, x), info(dst),
                              config);
}

std::vector<Dtype> dmaDtypes() {
  std::vector<Dtype> v;
  for (int d = 0; d < kNumDtypes; ++d)
    if (nkiDtypeName(d))
      v.push_back(Dtype(d));
  return v;
}

/// One fp32 source per binade and sign: exponent field e, a seeded mantissa
/// (0 and all-ones among them), so that every binade, the subnormals and
/// Inf/NaN meet every destination value.
std::vector<uint32_t> sourcesAtEveryBinade(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> v;
  for (uint32_t sign : {0u, 0x80000000u})
    for (uint32_t e = 0; e < 256; ++e) {
      uint32_t mantissa = uint32_t(rng()) & 0x7FFFFF;
      if (e % 7 == 0)
        mantissa = 0;
      if (e % 7 == 1)
        mantissa = 0x7FFFFF;
      v.push_back(sign | e << 23 | mantissa);
    }
  return v;
}

/// Every value of an 8- or 16-bit float destination against fp32 sources at
/// every binade, as one accumulateMixed call per source row.
void checkEveryDestinationValue(Dtype dst, int op, unsigned config,
                                size_t sourceStride) {
  unsigned bytes = info(dst).bytes;
  size_t n = size_t(1) << (8 * bytes);
  std::vector<uint32_t> sources = sourcesAtEveryBinade(uint64_t(dst) * 7 + op);
  std::vector<unsigned char> acc(n * bytes);
  std::vector<uint32_t> src(n);
  for (size_t k = 0; k < sources.size(); k += sourceStride) {
    for (size_t i = 0; i < n; ++i) {
      storeBits(&acc[i * bytes], bytes, i);
      // Each destination value meets source k, and its neighbours in turn.
      src[i] = sources[(k + i) % sources.size()];
    }
    Narrowing narrowing{config};
    ASSERT_TRUE(accumulateMixed(op, acc.data(), int(dst), src.data(),
                                int(Dtype::float32), n, narrowing)
                    .ok());
    for (size_t i = 0; i < n; ++i)
      ASSERT_EQ(loadBits(&acc[i * bytes], bytes),
                plainDma(op, dst, i, Dtype::float32, src[i], config))
          << info(dst).name << " op " << op << " cfg 0x" << std::hex << config
          << " dst 0x" << i << " src 0x" << src[i];
  }
}

TEST(DmaCompute, EveryFp8DestinationValueAgainstF32AtEveryBinade) {
  for (Dtype d : {Dtype::float8e4, Dtype::float8_e4m3fn, Dtype::float8e5})
    for (int op : {kAdd, kMin, kMax})
      for (unsigned config : kConfigs)
        checkEveryDestinationValue(d, op, config, 1);
}

TEST(DmaCompute, Every16BitDestinationValueAgainstF32AtEveryBinade) {
  // By default each of the 65,536 values meets every 16th of the 512
  // sources (each binade once, its sign alternating) for add, every 128th
  // for min and max; BIRSIM_LONG_TESTS=1 (./utils/test.sh --long): every
  // value against all 512 for every op (26 s here).
  const char *flag = std::getenv("BIRSIM_LONG_TESTS");
  bool full = flag && *flag && std::strcmp(flag, "0") != 0;
  for (Dtype d : {Dtype::bfloat16, Dtype::float16}) {
    checkEveryDestinationValue(d, kAdd, 0, full ? 1 : 16);
    checkEveryDestinationValue(d, kMin, 0, full ? 1 : 128);
    checkEveryDestinationValue(d, kMax, 0, full ? 1 : 128);
  }
}

// Every DMA pair in both directions, every op, seeded random bits.
TEST(DmaCompute, EveryPairRandomBits) {
  std::mt19937_64 rng(2026);
  std::vector<Dtype> dtypes = dmaDtypes();
  ASSERT_EQ(dtypes.size(), 12u);
  oracle::F32Generator gen(5);
  for (Dtype dst : dtypes)
    for (Dtype src : dtypes)
      for (int op : {kAdd, kMin, kMax}) {
        constexpr size_t n = 2000;
        unsigned db = info(dst).bytes, sb = info(src).bytes;
        std::vector<unsigned char> a(n * db), before(n * db), s(n * sb);
        for (size_t i = 0; i < n; ++i) {
          uint64_t ab = rng(), bb = rng();
          if (info(dst).kind == DtypeKind::Float32)
            ab = gen.next();
          if (info(src).kind == DtypeKind::Float32)
            bb = gen.next();
          storeBits(&a[i * db], db, ab);
          storeBits(&s[i * sb], sb, bb);
        }
        before = a;
        unsigned config = kConfigs[rng() % 4];
        ASSERT_TRUE(accumulateMixed(op, a.data(), int(dst), s.data(), int(src),
                                    n, {config})
                        .ok());
        for (size_t i = 0; i < n; ++i) {
          uint64_t d0 = loadBits(&before[i * db], db),
                   s0 = loadBits(&s[i * sb], sb);
          ASSERT_EQ(loadBits(&a[i * db], db),
                    plainDma(op, dst, d0, src, s0, config))
              << info(dst).name << " op= " << info(src).name << " op " << op
              << std::hex << " 0x" << d0 << " 0x" << s0;
        }
      }
}

// With equal float dtypes and FP8 config 0 the DMA's rule is the
// simulator's kernel (§3 and §8 agree).
TEST(DmaCompute, SameFloatDtypeIsTheKernel) {
  for (Dtype d : {Dtype::float8e4, Dtype::float8e5, Dtype::bfloat16,
                  Dtype::float16, Dtype::float32})
    for (int op : {kAdd, kMin, kMax}) {
      unsigned bytes = info(d).bytes;
      constexpr size_t n = 65536;
      std::mt19937_64 rng(unsigned(d) * 3 + op);
      std::vector<unsigned char> a(n * bytes), b(n * bytes), s(n * bytes);
      for (size_t i = 0; i < n; ++i) {
        storeBits(&a[i * bytes], bytes, bytes == 1 ? i >> 8 : rng());
        storeBits(&s[i * bytes], bytes, bytes == 1 ? i & 0xFF : rng());
      }
      b = a;
      ASSERT_TRUE(accumulate(op, a.data(), s.data(), int(d), n).ok());
      ASSERT_TRUE(
          accumulateMixed(op, b.data(), int(d), s.data(), int(d), n, {}).ok());
      ASSERT_EQ(a, b) << info(d).name << " op " << op;
    }
}

TEST(DmaCompute, ManySourcesFoldInOrder) {
  std::mt19937_64 rng(9);
  std::vector<Dtype> dtypes = dmaDtypes();
  constexpr size_t n = 3000;
  for (size_t numSrcs : {size_t(1), size_t(3), size_t(16)})
    for (int op : {kAdd, kMin, kMax}) {
      std::vector<std::vector<unsigned char>> data(numSrcs);
      std::vector<const void *> srcs;
      std::vector<int> srcDtypes;
      for (size_t k = 0; k < numSrcs; ++k) {
        Dtype d = dtypes[rng() % dtypes.size()];
        srcDtypes.push_back(int(d));
        data[k].resize(n * info(d).bytes);
        for (auto &byte : data[k])
          byte = uint8_t(rng());
        srcs.push_back(data[k].data());
      }
      Dtype dst = dtypes[rng() % dtypes.size()];
      std::vector<unsigned char> out(n * info(dst).bytes);
      ASSERT_TRUE(dmaCompute(op, srcs.data(), srcDtypes.data(), numSrcs,
                             out.data(), int(dst), n, {1})
                      .ok());
      const DtypeInfo &f32 = info(Dtype::float32);
      for (size_t i = 0; i < n; ++i) {
        auto hub = [&](size_t k) {
          const DtypeInfo &s = *lookupDtype(srcDtypes[k]);
          return uint32_t(oracle::expectedCast(
              s, loadBits(&data[k][i * s.bytes], s.bytes), f32, 0));
        };
        uint32_t acc = hub(0);
        for (size_t k = 1; k < numSrcs; ++k)
          acc = oracle::f32Expected(op, acc, hub(k));
        unsigned b = info(dst).bytes;
        ASSERT_EQ(loadBits(&out[i * b], b),
                  oracle::expectedCast(f32, acc, info(dst), 1))
            << numSrcs << " sources into " << info(dst).name << " at " << i;
      }
    }
}

// dma_copy's conversion goes through fp32 (§4, §8): an int32 above 2^24
// into bf16 rounds twice. 2^24 + 2^16 + 1 rounds to 2^24 + 2^16 in fp32
// (a tie, to even), then to 2^24 in bf16 (a tie, to even); rounded once it
// would be 2^24 + 2^17 (0x4B81).
TEST(DmaCompute, Int32AboveTwoTo24RoundsTwiceIntoBf16) {
  int32_t value = (1 << 24) + (1 << 16) + 1;
  uint16_t out = 0;
  ASSERT_TRUE(
      castBuffer(int(Dtype::int32), &value, int(Dtype::bfloat16), &out, 1, 1)
          .ok());
  EXPECT_EQ(out, 0x4B80);
  out = 0;
  ASSERT_TRUE(accumulateMixed(kCopy, &out, int(Dtype::bfloat16), &value,
                              int(Dtype::int32), 1, {})
                  .ok());
  EXPECT_EQ(out, 0x4B80);
  // As an addend: +0 + value through fp32 is the same double rounding.
  out = 0;
  ASSERT_TRUE(accumulateMixed(kAdd, &out, int(Dtype::bfloat16), &value,
                              int(Dtype::int32), 1, {})
                  .ok());
  EXPECT_EQ(out, 0x4B80);
}

// Trainium3's bf16 PSUM accumulation, worked by hand: psum (bf16) + matmul
// output (fp32), added in fp32, rounded to nearest even into bf16.
TEST(DmaCompute, Bf16PsumHandWorkedTable) {
  struct Row {
    uint16_t psum;
    uint32_t matmul;
    uint16_t result;
    const char *why;
  } rows[] = {
      {0x3F80, 0x3B800000, 0x3F80, "1 + 2^-8: a tie, to even 1"},
      {0x3F80, 0x3BC00000, 0x3F81, "1 + 1.5 * 2^-8: past the tie, up"},
      {0x3F81, 0x3B800000, 0x3F82, "(1 + 2^-7) + 2^-8: a tie, to even"},
      {0x4380, 0x3F800000, 0x4380, "256 + 1: a tie, to even 256"},
      {0x4380, 0x3FC00000, 0x4381, "256 + 1.5: up to 258"},
      {0xC380, 0x3F800000, 0xC37F, "-256 + 1 = -255, exact"},
      {0x8000, 0x80000000, 0x8000, "-0 + -0 = -0"},
      {0x0000, 0x80000000, 0x0000, "+0 + -0 = +0"},
      {0x3F80, 0xBF800000, 0x0000, "1 + -1 = +0"},
      {0x0001, 0x00008000, 0x0002, "2^-133 + 2^-134: a tie, to even"},
      {0x7F7F, 0x7B000000, 0x7F80, "max + half an ulp: a tie, to Inf"},
      {0x7F7F, 0x7AFE0000, 0x7F7F, "max + under half an ulp: max"},
      {0x7F7F, 0x7AFFFFFF, 0x7F80,
       "max + half an ulp - 2^95: fp32 rounds it to the tie, then Inf"},
      {0x3F80, 0x7FC00000, 0x7FC0, "1 + NaN: bf16's NaN"},
      {0x7F80, 0xFF800000, 0x7FC0, "Inf + -Inf: default NaN, sign dropped"},
      {0xFF80, 0x3F800000, 0xFF80, "-Inf + 1 = -Inf"},
      {0x3F80, 0x33800000, 0x3F80, "1 + 2^-24: below half an ulp"},
  };
  for (const Row &row : rows) {
    uint16_t psum = row.psum;
    ASSERT_TRUE(accumulateMixed(kAdd, &psum, int(Dtype::bfloat16), &row.matmul,
                                int(Dtype::float32), 1, {})
                    .ok());
    EXPECT_EQ(psum, row.result) << row.why;
    EXPECT_EQ(psum, plainDma(kAdd, Dtype::bfloat16, row.psum, Dtype::float32,
                             row.matmul, 0))
        << row.why;
  }
}

using oracle::bitsOf;
using oracle::floatOf;

/// fp32 bits of a bf16 value.
float bf16Value(uint16_t bits) { return floatOf(uint32_t(bits) << 16); }

// Stochastic rounding, 10^6 draws of one value per probability k/16: the
// share rounded up is k/16 and the mean is the value, within 5 sigma; the
// draws' top four bits are uniform (chi-square, 15 degrees of freedom).
TEST(DmaCompute, StochasticRoundingMeanAndDistribution) {
  constexpr size_t n = 1000000;
  // x_k = 1 + k/16 * 2^-7 (bf16's ulp at 1), k = 1..15, and negated.
  std::vector<uint32_t> src(n);
  for (size_t i = 0; i < n; ++i) {
    unsigned k = 1 + i % 15;
    float x = 1.0f + float(k) / 16.0f * 0x1p-7f;
    src[i] = bitsOf((i / 15) % 2 ? -x : x);
  }
  std::vector<uint16_t> out(n), again(n);
  Narrowing sr{0, Rounding::stochastic, 12345};
  const int f32 = int(Dtype::float32), bf16 = int(Dtype::bfloat16);
  const void *one[] = {src.data()};
  ASSERT_TRUE(dmaCompute(kAdd, one, &f32, 1, out.data(), bf16, n, sr).ok());
  // Reproducible, also across threads, and element i is element i alone.
  ASSERT_TRUE(dmaCompute(kAdd, one, &f32, 1, again.data(), bf16, n, sr).ok());
  ASSERT_EQ(out, again);
  for (size_t i = 0; i < n; i += 997)
    ASSERT_EQ(out[i], narrowStochastic(info(Dtype::bfloat16), src[i], 0,
                                       stochasticDraw(sr.seed, i)));
  double up[16] = {}, sum[16] = {}, count[16] = {};
  for (size_t i = 0; i < n; ++i) {
    unsigned k = 1 + i % 15;
    float x = std::fabs(floatOf(src[i]));
    float r = std::fabs(bf16Value(out[i]));
    ASSERT_TRUE(r == 1.0f || r == 1.0f + 0x1p-7f) << i;
    ASSERT_EQ(unsigned(out[i] >> 15), src[i] >> 31) << i;
    up[k] += r > x;
    sum[k] += double(r) - double(x);
    count[k] += 1;
  }
  for (unsigned k = 1; k < 16; ++k) {
    double p = k / 16.0, share = up[k] / count[k];
    double sigma = std::sqrt(p * (1 - p) / count[k]);
    EXPECT_NEAR(share, p, 5 * sigma) << "k = " << k;
    // mean error (r - x) in ulps: p (1 - k/16) - (1 - p) k/16 = 0.
    double meanUlps = sum[k] / count[k] / 0x1p-7;
    EXPECT_NEAR(meanUlps, 0.0, 5 * sigma) << "k = " << k;
  }
  double bins[16] = {};
  for (size_t i = 0; i < n; ++i)
    bins[stochasticDraw(777, i) >> 28] += 1;
  double chi2 = 0, expected = n / 16.0;
  for (double b : bins)
    chi2 += (b - expected) * (b - expected) / expected;
  EXPECT_LT(chi2, 44.3); // P(chi2_15 > 44.3) < 1e-4
  // Another seed gives other bits.
  Narrowing other = sr;
  other.seed = 12346;
  ASSERT_TRUE(
      dmaCompute(kAdd, one, &f32, 1, again.data(), bf16, n, other).ok());
  EXPECT_NE(out, again);
}

// Every dtype's stochastic narrowing in bulk (bf16's as bit operations) is
// the element rule with element i's draw, over every region of fp32.
TEST(DmaCompute, StochasticBulkIsTheElementRule) {
  constexpr size_t n = 1 << 20;
  oracle::F32Generator gen(77);
  std::vector<uint32_t> src(n);
  for (uint32_t &v : src)
    v = gen.next();
  // Around bfloat16's largest finite value and its rounding threshold.
  for (uint32_t i = 0; i < 4096; ++i)
    src[i] = (0x7F7E0000u + i * 0x80u) | (i & 1 ? 0x80000000u : 0);
  const int f32 = int(Dtype::float32);
  const void *one[] = {src.data()};
  for (Dtype d : {Dtype::bfloat16, Dtype::float16, Dtype::float8e4,
                  Dtype::float8_e4m3fn, Dtype::float8e5})
    for (unsigned config : {0u, 1u}) {
      unsigned bytes = info(d).bytes;
      std::vector<unsigned char> out(n * bytes);
      Narrowing sr{config, Rounding::stochastic, 99};
      ASSERT_TRUE(
          dmaCompute(kAdd, one, &f32, 1, out.data(), int(d), n, sr).ok());
      for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(loadBits(&out[i * bytes], bytes),
                  narrowStochastic(info(d), src[i], config,
                                   stochasticDraw(sr.seed, i)))
            << info(d).name << " cfg " << config << std::hex << " 0x" << src[i];
    }
}

// What stochastic rounding leaves to round-to-nearest-even (§8).
TEST(DmaCompute, StochasticRoundingEdges) {
  const DtypeInfo &bf16 = info(Dtype::bfloat16),
                  &e4m3fn = info(Dtype::float8_e4m3fn);
  for (uint32_t draw : {0u, 0x80000000u, 0xFFFFFFFFu}) {
    EXPECT_EQ(narrowStochastic(bf16, 0x3F800000, 0, draw), 0x3F80u); // exact
    EXPECT_EQ(narrowStochastic(bf16, 0x7FC00001, 0, draw), 0x7FC0u); // NaN
    EXPECT_EQ(narrowStochastic(bf16, 0xFF800000, 0, draw), 0xFF80u); // -Inf
    // Past bf16's largest finite value: as RNE.
    EXPECT_EQ(narrowStochastic(bf16, 0x7F7F8000, 0, draw),
              writeFromF32(bf16, 0x7F7F8000, 0));
    // fp8 e4m3fn above 448 saturates with config 1, is NaN without.
    EXPECT_EQ(narrowStochastic(e4m3fn, bitsOf(470.0f), 1, draw), 0x7Eu);
    EXPECT_EQ(narrowStochastic(e4m3fn, bitsOf(470.0f), 0, draw), 0x7Fu);
  }
  // The smallest draw always rounds up an inexact value, the largest down.
  EXPECT_EQ(narrowStochastic(bf16, 0x3F800001, 0, 0), 0x3F81u);
  EXPECT_EQ(narrowStochastic(bf16, 0x3F80FFFF, 0, 0xFFFFFFFFu), 0x3F80u);
  EXPECT_EQ(narrowStochastic(bf16, 0xBF800001, 0, 0), 0xBF81u);
  // Below bf16's smallest subnormal: between 0 and it.
  EXPECT_EQ(narrowStochastic(bf16, 0x00000001, 0, 0), 0x0001u);
  EXPECT_EQ(narrowStochastic(bf16, 0x00000001, 0, 0xFFFFFFFFu), 0x0000u);
  EXPECT_EQ(narrowStochastic(bf16, 0x80000001, 0, 0xFFFFFFFFu), 0x8000u);
}

TEST(DmaCompute, ScatterInOrderWithRepeatedIndices) {
  // bf16 += fp32, index 0 twice: each read-modify-write narrows.
  uint16_t dst[3] = {0x3F80, 0x4000, 0x4040}; // 1, 2, 3
  uint32_t src[4] = {0x3B800000, 0x3B800000, 0x3F800000, 0x40000000};
  int64_t indices[4] = {0, 0, 2, 1};
  ASSERT_TRUE(scatterAccumulateMixed(kAdd, dst, 3, int(Dtype::bfloat16), src,
                                     int(Dtype::float32), indices, 4, {})
                  .ok());
  // 1 + 2^-8 ties to 1, twice; summed once it would be 1 + 2^-7.
  EXPECT_EQ(dst[0], 0x3F80);
  EXPECT_EQ(dst[1], 0x4080); // 2 + 2
  EXPECT_EQ(dst[2], 0x4080); // 3 + 1
  // Random scatters against the plain element rule, in order.
  std::mt19937_64 rng(3);
  for (Dtype d : dmaDtypes())
    for (Dtype s : {Dtype::float32, Dtype::bfloat16, Dtype::int32})
      for (int op : {kCopy, kAdd, kMin, kMax}) {
        unsigned db = info(d).bytes, sb = info(s).bytes;
        constexpr size_t dn = 17, n = 200;
        std::vector<unsigned char> a(dn * db), x(n * sb);
        std::vector<int64_t> idx(n);
        for (auto &b : a)
          b = uint8_t(rng());
        for (auto &b : x)
          b = uint8_t(rng());
        for (auto &i : idx)
          i = int64_t(rng() % dn);
        std::vector<unsigned char> want = a;
        for (size_t i = 0; i < n; ++i) {
          uint64_t sBits = loadBits(&x[i * sb], sb);
          uint64_t dBits = loadBits(&want[size_t(idx[i]) * db], db);
          uint64_t r = op == kCopy
                           ? oracle::expectedCast(info(s), sBits, info(d), 1)
                           : plainDma(op, d, dBits, s, sBits, 1);
          storeBits(&want[size_t(idx[i]) * db], db, r);
        }
        ASSERT_TRUE(scatterAccumulateMixed(op, a.data(), dn, int(d), x.data(),
                                           int(s), idx.data(), n, {1})
                        .ok());
        ASSERT_EQ(a, want) << info(d).name << " <- " << info(s).name << " op "
                           << op;
      }
}

TEST(DmaCompute, CountsTheElementsTheNarrowingChanged) {
  // bf16 += fp32: one exact, two inexact, one overflow to Inf.
  uint16_t dst[4] = {0x3F80, 0x3F80, 0x3F80, 0x7F7F};
  uint32_t src[4] = {0x3F800000, 0x3B800000, 0x3BC00000, 0x7B000000};
  FidelityCounts counts;
  ASSERT_TRUE(accumulateMixed(kAdd, dst, int(Dtype::bfloat16), src,
                              int(Dtype::float32), 4, {}, &counts)
                  .ok());
  EXPECT_EQ(counts.elements[int(FidelityFamily::cast)], 4u);
  EXPECT_EQ(counts.count[int(FidelityEvent::cast_inexact)], 2u);
  EXPECT_EQ(counts.count[int(FidelityEvent::cast_overflow_to_inf)], 1u);
  // The scatter counts the same way.
  uint16_t again[4] = {0x3F80, 0x3F80, 0x3F80, 0x7F7F};
  int64_t indices[4] = {0, 1, 2, 3};
  FidelityCounts scattered;
  ASSERT_TRUE(scatterAccumulateMixed(kAdd, again, 4, int(Dtype::bfloat16), src,
                                     int(Dtype::float32), indices, 4, {},
                                     &scattered)
                  .ok());
  EXPECT_EQ(std::memcmp(dst, again, sizeof dst), 0);
  for (int e = 0; e < kNumFidelityEvents; ++e)
    EXPECT_EQ(scattered.count[e], counts.count[e]) << e;
}

TEST(DmaCompute, ErrorsWriteNothing) {
  uint16_t dst[4] = {1, 2, 3, 4};
  const uint16_t before[4] = {1, 2, 3, 4};
  uint32_t src[4] = {0x3F800000, 0, 0, 0};
  int64_t indices[4] = {0, 1, 2, 4};
  const int bf16 = int(Dtype::bfloat16), f32 = int(Dtype::float32);
  auto expectError = [&](Status s, ErrorCode code, const char *text) {
    EXPECT_EQ(s.code, code) << s.message();
    EXPECT_NE(s.message().find(text), std::string::npos) << s.message();
    EXPECT_EQ(std::memcmp(dst, before, sizeof dst), 0);
  };
  for (Dtype bad :
       {Dtype::int64, Dtype::uint64, Dtype::float8e3, Dtype::float32r,
        Dtype::float8_e8m0fnu, Dtype::float8_e4m3fn_x4}) {
    expectError(accumulateMixed(kAdd, dst, bf16, src, int(bad), 1, {}),
                ErrorCode::notDmaDtype, dtypeInfo(bad).name);
    expectError(accumulateMixed(kAdd, dst, int(bad), src, f32, 1, {}),
                ErrorCode::notDmaDtype, "not one the DMA engine computes on");
  }
  expectError(accumulateMixed(kAdd, dst, 99, src, f32, 1, {}),
              ErrorCode::unknownDtype, "Unknown dtype 99");
  expectError(accumulateMixed(7, dst, bf16, src, f32, 1, {}),
              ErrorCode::invalidOp, "invalid MemoryReductionOp 7");
  expectError(accumulateMixed(kAdd, dst, bf16, src, f32, 1, {0x2}),
              ErrorCode::invalidArgument, "");
  expectError(
      accumulateMixed(kAdd, dst, bf16, src, f32, 1, {0, Rounding(2), 0}),
      ErrorCode::invalidArgument, "rounding");
  int32_t ints[4] = {};
  expectError(accumulateMixed(kAdd, ints, int(Dtype::int32), src, f32, 1,
                              {0, Rounding::stochastic, 1}),
              ErrorCode::invalidArgument, "stochastic rounding narrows");
  expectError(
      scatterAccumulateMixed(kAdd, dst, 4, bf16, src, f32, indices, 4, {}),
      ErrorCode::indexOutOfRange, "scatter index 4");
  const void *none[17] = {};
  int dtypes[17] = {};
  expectError(dmaCompute(kAdd, none, dtypes, 17, dst, bf16, 0, {}),
              ErrorCode::invalidArgument, "1 to 16 sources");
  const void *one[] = {src};
  expectError(dmaCompute(kCopy, one, &f32, 1, dst, bf16, 1, {}),
              ErrorCode::invalidArgument, "add, min or max");
  // dst may be a source exactly, never partly.
  const void *shifted[] = {reinterpret_cast<char *>(dst) + 2};
  expectError(dmaCompute(kAdd, shifted, &bf16, 1, dst, bf16, 2, {}),
              ErrorCode::invalidArgument, "partly overlap");
  expectError(accumulateMixed(kAdd, dst, bf16, nullptr, f32, 1, {}),
              ErrorCode::invalidArgument, "null buffer");
}

} // namespace
