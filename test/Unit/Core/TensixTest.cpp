//===- TensixTest.cpp - the Tensix FPU's elementwise ops and packer -------===//
//
// docs/Semantics.md section 7 against PlainTensix.h, a deliberately plain
// second implementation written from that text: exhaustively over every
// pair of bf16 operands in binade pairs (every phase set, Dest kind, Src
// class and architecture), over every 16-bit Dest value for the packer and
// L1 accumulation, and on seeded random operands with zeros, denormals, the
// largest exponents, carries and cancellations; the silicon numbers of
// tt-metal #12923, #16448 and PR #35077; the ELWMUL/ELWADD/ELWSUB vectors
// mesham/tt-sim dumped from ttsim.
//
//===----------------------------------------------------------------------===//
#include "birsim/Core/Dtype.h"
#include "birsim/Core/Tensix.h"

#include "PlainTensix.h"
#include "gtest/gtest.h"

#include <climits>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace birsim::core;
namespace plain = birsim::test::plaintensix;

namespace {

constexpr int kWormhole = 0, kBlackhole = 1;
constexpr int kMul = 0, kAdd = 1, kSub = 2;
constexpr int kDestFp32 = 0, kDestBf16 = 1, kDestFp16 = 2;
constexpr int kSrcTf32 = 0, kSrcBf16 = 1, kSrcFp16 = 2;

uint32_t bitsOf(float f) { return plain::bitsOf(f); }
float floatOf(uint32_t u) { return plain::floatOf(u); }

/// The (Dest, Src) pairs the FPU accepts.
struct Pairing {
  int dest, src;
};
constexpr Pairing kPairings[] = {{kDestFp32, kSrcTf32}, {kDestFp32, kSrcBf16},
                                 {kDestFp32, kSrcFp16}, {kDestBf16, kSrcTf32},
                                 {kDestBf16, kSrcBf16}, {kDestFp16, kSrcFp16}};

unsigned destBytes(int dest) { return dest == kDestFp32 ? 4 : 2; }

std::string configName(int arch, int op, unsigned phases, int dest, int src,
                       bool accumulate) {
  return std::string(tensixArchName(arch)) + " " + tensixOpName(op) +
         " phases=" + std::to_string(phases) + " dest=" +
         kTensixDestTable[dest].name + " src=" + kTensixSrcTable[src].name +
         (accumulate ? " accumulate" : "");
}

/// Runs the core's bulk op and the plain one over the same elements and
/// reports the first difference; returns the core's Dest values.
std::vector<uint32_t> expectEltwiseMatchesPlain(
    int arch, int op, unsigned phases, int dest, int src,
    const std::vector<float> &a, const std::vector<float> &b,
    const std::vector<uint32_t> &destIn, bool accumulate) {
  size_t n = a.size();
  unsigned bytes = destBytes(dest);
  std::vector<uint8_t> buffer(n * bytes);
  for (size_t i = 0; i < n; ++i)
    std::memcpy(&buffer[i * bytes], &destIn[i], bytes); // little-endian
  Status s = tensixEltwise(arch, op, phases, dest, src, a.data(), b.data(), n,
                           buffer.data(), accumulate);
  EXPECT_TRUE(s.ok()) << s.message();
  std::vector<uint32_t> got(n);
  size_t mismatches = 0;
  for (size_t i = 0; i < n; ++i) {
    uint32_t v = 0;
    std::memcpy(&v, &buffer[i * bytes], bytes);
    got[i] = v;
    uint32_t want = plain::eltwise(arch, op, phases, dest, src, bitsOf(a[i]),
                                   bitsOf(b[i]), destIn[i], accumulate);
    if (v != want && mismatches++ < 3)
      ADD_FAILURE() << configName(arch, op, phases, dest, src, accumulate)
                    << std::hex << ": a=0x" << bitsOf(a[i]) << " b=0x"
                    << bitsOf(b[i]) << " dest=0x" << destIn[i] << ": core 0x"
                    << v << ", plain 0x" << want;
  }
  EXPECT_EQ(mismatches, 0u)
      << configName(arch, op, phases, dest, src, accumulate);
  return got;
}

/// Every signed bf16 value of the binade [2^e, 2^(e+1)).
std::vector<float> binade(int e) {
  std::vector<float> values;
  for (uint32_t sign = 0; sign < 2; ++sign)
    for (uint32_t f = 0; f < 128; ++f)
      values.push_back(floatOf(sign << 31 | uint32_t(e + 127) << 23 | f << 16));
  return values;
}

/// Every pair of operands from two binades, flattened.
void allPairs(const std::vector<float> &x, const std::vector<float> &y,
              std::vector<float> &a, std::vector<float> &b) {
  a.clear();
  b.clear();
  for (float u : x)
    for (float v : y) {
      a.push_back(u);
      b.push_back(v);
    }
}

uint32_t randomDest(std::mt19937 &rng, int dest) {
  uint32_t r = rng();
  if (dest == kDestFp32)
    return r;
  return r & 0xFFFF;
}

//===-- Silicon ------------------------------------------------------------===//

/// mul_tiles(in0, in1) on Wormhole with a bf16 Dest: in0 in SrcA.
float mulTiles(float in0, float in1, unsigned phases) {
  uint16_t dest = 0;
  Status s = tensixEltwise(kWormhole, kMul, phases, kDestBf16, kSrcBf16, &in0,
                           &in1, 1, &dest, false);
  EXPECT_TRUE(s.ok()) << s.message();
  return floatOf(uint32_t(dest) << 16);
}

// tt-metal #12923 (Wormhole silicon): 1.3125 x 7.96875.
TEST(TensixSilicon, Issue12923HiFi2AndHiFi4) {
  EXPECT_EQ(mulTiles(1.3125f, 7.96875f, 0x3), 10.4375f);
  EXPECT_EQ(mulTiles(1.3125f, 7.96875f, 0xF), 10.5f);
  // The operand order matters: swapped, HiFi2 already gives 10.5.
  EXPECT_EQ(mulTiles(7.96875f, 1.3125f, 0x3), 10.5f);
}

// tt-metal #16448 (silicon): -3.640625 x 0.298828125 and x 0.30078125.
TEST(TensixSilicon, Issue16448HiFi4) {
  EXPECT_EQ(mulTiles(-3.640625f, 0.298828125f, 0xF), -1.09375f);
  EXPECT_EQ(mulTiles(-3.640625f, 0.30078125f, 0xF), -1.1015625f);
}

// tt-metal PR #35077 (silicon gives 378880; torch says 380928): 508 x 748.
TEST(TensixSilicon, PullRequest35077EveryFidelity) {
  EXPECT_EQ(mulTiles(508.0f, 748.0f, 0x1), 368640.0f);
  EXPECT_EQ(mulTiles(508.0f, 748.0f, 0x3), 376832.0f);
  EXPECT_EQ(mulTiles(508.0f, 748.0f, 0x7), 378880.0f);
  EXPECT_EQ(mulTiles(508.0f, 748.0f, 0xF), 378880.0f);
}

//===-- ttsim's vectors (mesham/tt-sim) ------------------------------------===//

// mesham/tt-sim `tt_sim/pe/tensix/elementwise_datapath_test.py` @7d4eb3b,
// TTSIM_FP32_VECTORS and TTSIM_BF16_VECTORS: (srcA, srcB, mul at LoFi,
// HiFi2, HiFi3, HiFi4, add, sub) as ttsim's `optests/elwmul` wrote them on
// both architectures. The fp32 arm: TF32 Src, fp32 Dest; the bf16 arm: BF16
// Src, bf16 Dest, results as bf16 bits.
struct TtsimVector {
  uint32_t a, b, lofi, hifi2, hifi3, hifi4, add, sub;
};
constexpr TtsimVector kTtsimFp32[] = {
    {0x42693C99, 0x417F99FA, 0x44663000, 0x44672E00, 0x44688A00, 0x44688B80,
     0x42948000, 0x42294000},
    {0xBD8F0FF9, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
     0xBD8F0000, 0xBD8F0000},
    {0x3E773093, 0xC06E871C, 0xBF5F2000, 0xBF65A200, 0xBF661A00, 0xBF661D80,
     0xC05F0000, 0x407E0000},
    {0x3FB106AE, 0xBECA7C03, 0xBF0AE000, 0xBF0BAA00, 0xBF0BEC00, 0xBF0BEC60,
     0x3F7CC000, 0x3FE3A000},
    {0xBCF5BD50, 0xBD5AF36D, 0x3ACC6000, 0x3AD10F00, 0x3AD1E100, 0x3AD1E5D0,
     0xBDAAE000, 0x3CC00000},
    {0x41F4B556, 0x3ED6224B, 0x4148A000, 0x414C6300, 0x414C8100, 0x414C8190,
     0x41F80000, 0x41F14000},
    {0x3CFD85DB, 0x4235E284, 0x3FAE6000, 0x3FB23E00, 0x3FB40F00, 0x3FB41950,
     0x42360000, 0xC235C000},
    {0x3F303AC5, 0x3DAA2256, 0x3D69C000, 0x3D69C000, 0x3D69EC00, 0x3D69EC00,
     0x3F456000, 0x3F1AE000},
    {0xBFD7DD92, 0x3EB04EF7, 0xBF0F0000, 0xBF145400, 0xBF148800, 0xBF1489F0,
     0xBFABA000, 0xC001F000},
};
constexpr TtsimVector kTtsimBf16[] = {
    {0x42690000, 0x417F0000, 0x4466, 0x4467, 0x4468, 0x4468, 0x4294, 0x4229},
    {0xBD8F0000, 0x00000000, 0x0000, 0x0000, 0x0000, 0x0000, 0xBD8F, 0xBD8F},
    {0x3E770000, 0xC06E0000, 0xBF5F, 0xBF66, 0xBF66, 0xBF66, 0xC05F, 0x407E},
    {0x3FB10000, 0xBECA0000, 0xBF0B, 0xBF0C, 0xBF0C, 0xBF0C, 0x3F7D, 0x3FE4},
    {0xBCF50000, 0xBD5A0000, 0x3ACC, 0x3AD0, 0x3AD0, 0x3AD0, 0xBDAA, 0x3CBF},
    {0x41F40000, 0x3ED60000, 0x4149, 0x414C, 0x414C, 0x414C, 0x41F7, 0x41F1},
    {0x3CFD0000, 0x42350000, 0x3FAE, 0x3FB2, 0x3FB3, 0x3FB3, 0x4235, 0xC235},
    {0x3F300000, 0x3DAA0000, 0x3D6A, 0x3D6A, 0x3D6A, 0x3D6A, 0x3F45, 0x3F1B},
    {0xBFD70000, 0x3EB00000, 0xBF0F, 0xBF14, 0xBF14, 0xBF14, 0xBFAB, 0xC002},
};

uint32_t runOne(int arch, int op, unsigned phases, int dest, int src,
                uint32_t a, uint32_t b) {
  float fa = floatOf(a), fb = floatOf(b);
  uint32_t out = 0;
  Status s = tensixEltwise(arch, op, phases, dest, src, &fa, &fb, 1, &out,
                           false);
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

TEST(TensixTtsimVectors, ElementwiseOpsOnBothArchitectures) {
  for (int arch : {kWormhole, kBlackhole}) {
    for (auto [vectors, dest, src] :
         {std::tuple{&kTtsimFp32, kDestFp32, kSrcTf32},
          std::tuple{&kTtsimBf16, kDestBf16, kSrcBf16}}) {
      for (const TtsimVector &v : *vectors) {
        SCOPED_TRACE(std::string(tensixArchName(arch)) + " dest=" +
                     kTensixDestTable[dest].name + " a=" + std::to_string(v.a));
        EXPECT_EQ(runOne(arch, kMul, 0x1, dest, src, v.a, v.b), v.lofi);
        EXPECT_EQ(runOne(arch, kMul, 0x3, dest, src, v.a, v.b), v.hifi2);
        EXPECT_EQ(runOne(arch, kMul, 0x7, dest, src, v.a, v.b), v.hifi3);
        EXPECT_EQ(runOne(arch, kMul, 0xF, dest, src, v.a, v.b), v.hifi4);
        EXPECT_EQ(runOne(arch, kAdd, 0x1, dest, src, v.a, v.b), v.add);
        EXPECT_EQ(runOne(arch, kSub, 0x1, dest, src, v.a, v.b), v.sub);
      }
    }
  }
}

//===-- Exhaustive binade pairs --------------------------------------------===//

// Every pair of signed bf16 operands from [1, 2) x [1, 2) and from
// [2^-60, 2^-59) x [2^-67, 2^-66) (products near the bottom of the range:
// underflow, and FP16 Src's flush) at every phase set, Dest kind, Src class
// and architecture, from a zeroed Dest and onto seeded Dest values.
TEST(TensixExhaustive, MulEveryBf16PairOfBinadePairs) {
  std::mt19937 rng(53);
  std::vector<float> a, b;
  for (auto [ea, eb] : {std::pair{0, 0}, std::pair{-60, -67},
                        std::pair{126, 1}, std::pair{-5, -10}}) {
    allPairs(binade(ea), binade(eb), a, b);
    std::vector<uint32_t> zero(a.size(), 0), seeded(a.size());
    for (auto [dest, src] : kPairings) {
      for (uint32_t &d : seeded)
        d = randomDest(rng, dest);
      for (int arch : {kWormhole, kBlackhole})
        for (unsigned phases = 1; phases <= 0xF; ++phases) {
          expectEltwiseMatchesPlain(arch, kMul, phases, dest, src, a, b, zero,
                                    false);
          if (phases == 0xF || phases == 0x1)
            expectEltwiseMatchesPlain(arch, kMul, phases, dest, src, a, b,
                                      seeded, true);
        }
    }
  }
}

TEST(TensixExhaustive, AddSubEveryBf16PairOfBinadePairs) {
  std::mt19937 rng(54);
  std::vector<float> a, b;
  for (auto [ea, eb] : {std::pair{0, 0}, std::pair{0, -9}, std::pair{3, -20},
                        std::pair{127, 127}}) {
    allPairs(binade(ea), binade(eb), a, b);
    std::vector<uint32_t> zero(a.size(), 0), seeded(a.size());
    for (auto [dest, src] : kPairings) {
      for (uint32_t &d : seeded)
        d = randomDest(rng, dest);
      for (int arch : {kWormhole, kBlackhole})
        for (int op : {kAdd, kSub}) {
          expectEltwiseMatchesPlain(arch, op, 0x1, dest, src, a, b, zero,
                                    false);
          expectEltwiseMatchesPlain(arch, op, 0x1, dest, src, a, b, seeded,
                                    true);
        }
    }
  }
}

//===-- Seeded random ------------------------------------------------------===//

/// Operands with zeros, denormals, the largest exponents, Inf/NaN bit
/// patterns, and near-equal pairs (carries and cancellations).
float randomOperand(std::mt19937 &rng, float other) {
  switch (rng() % 10) {
  case 0:
    return floatOf(rng() & 0x807FFFFF); // zero or denormal
  case 1:
    return floatOf((rng() & 0x80000000u) | (0x7E000000u + (rng() & 0x1FFFFFF)));
  case 2:
    return floatOf((rng() & 0x80000000u) | 0x7F800000u | (rng() & 0x7FFFFF));
  case 3: // cancellation: -other, nearly
    return floatOf((bitsOf(other) ^ 0x80000000u) + (rng() % 5) * 0x2000);
  case 4: // carries: all fraction bits set
    return floatOf((rng() & 0xFF800000u) | 0x7FE000u);
  case 5: // FP16 Src's edges: exponents 100-150
    return floatOf((rng() & 0x807FFFFFu) | (100 + rng() % 51) << 23);
  default:
    return floatOf(rng());
  }
}

TEST(TensixRandom, EveryOpAgainstPlain) {
  std::mt19937 rng(20261205);
  constexpr size_t n = 1 << 14;
  std::vector<float> a(n), b(n);
  std::vector<uint32_t> dest(n);
  for (auto [destKind, src] : kPairings)
    for (int arch : {kWormhole, kBlackhole})
      for (int op : {kMul, kAdd, kSub})
        for (bool accumulate : {false, true}) {
          for (size_t i = 0; i < n; ++i) {
            a[i] = randomOperand(rng, 1.0f);
            b[i] = randomOperand(rng, a[i]);
            dest[i] = randomDest(rng, destKind);
            if (rng() % 4 == 0 && destKind == kDestFp32) // near -a*b
              dest[i] = bitsOf(-a[i] * b[i]) ^ (rng() % 3);
          }
          unsigned phases = op == kMul ? 1 + rng() % 15 : 1;
          expectEltwiseMatchesPlain(arch, op, phases, destKind, src, a, b,
                                    dest, accumulate);
        }
}

//===-- Named cases --------------------------------------------------------===//

// Wormhole's renormalization of a -1 unit sum (tt-metal #38306): Dest
// 1.0 + 0x1FFFF units and the product -1.015625 (0x820000 units) leave -1
// unit at exponent 127. Blackhole gives -2^-23; Wormhole 27 binades higher.
TEST(TensixNamed, WormholeMinusOneRenormalization) {
  float a = -1.0f, b = 1.015625f;
  for (int arch : {kWormhole, kBlackhole}) {
    uint32_t dest = 0x3F81FFFF;
    bool quirk = false;
    TensixEltwiseConfig config;
    ASSERT_TRUE(checkTensixEltwise(arch, kMul, 0x1, kDestFp32, kSrcBf16, true,
                                   config)
                    .ok());
    uint32_t word = tensixEltwiseWord(config, tensixSrcWord(config.src, bitsOf(a)),
                                      tensixSrcWord(config.src, bitsOf(b)),
                                      dest, &quirk);
    EXPECT_EQ(word, arch == kWormhole ? 0xC1800000u : 0xB4000000u);
    EXPECT_EQ(quirk, arch == kWormhole);
    ASSERT_TRUE(tensixEltwise(arch, kMul, 0x1, kDestFp32, kSrcBf16, &a, &b, 1,
                              &dest, true)
                    .ok());
    EXPECT_EQ(dest, word);
    FidelityCounts counts;
    dest = 0x3F81FFFF;
    ASSERT_TRUE(tensixEltwise(arch, kMul, 0x1, kDestFp32, kSrcBf16, &a, &b, 1,
                              &dest, true, &counts)
                    .ok());
    EXPECT_EQ(counts.count[int(FidelityEvent::tensix_minus_one_quirk)],
              arch == kWormhole ? 1u : 0u);
    // 1.0's and 1.015625's later slices are zero: HiFi4 gives the same.
    EXPECT_EQ(counts.count[int(FidelityEvent::tensix_below_hifi4)], 0u);
    EXPECT_EQ(counts.elements[int(FidelityFamily::tensix)], 1u);
  }
}

// The below_hifi4 count: #12923's operands differ at HiFi2, not at HiFi4.
TEST(TensixNamed, BelowHifi4Counts) {
  float a[3] = {1.3125f, 1.3125f, 2.0f}, b[3] = {7.96875f, 1.0f, 3.0f};
  for (unsigned phases : {0x3u, 0xFu}) {
    uint16_t dest[3] = {};
    FidelityTally tally;
    ASSERT_TRUE(tallyTensixEltwise(kWormhole, kMul, phases, kDestBf16,
                                   kSrcBf16, a, b, 3, dest, false, tally)
                    .ok());
    EXPECT_EQ(tally.count[int(FidelityEvent::tensix_below_hifi4)],
              phases == 0x3 ? 1u : 0u);
    EXPECT_EQ(tally.first[int(FidelityEvent::tensix_below_hifi4)],
              phases == 0x3 ? 0 : -1);
    EXPECT_EQ(tally.elements[int(FidelityFamily::tensix)], 3u);
  }
}

// Src has no Inf or NaN: a TF32 exponent of 255 is a large value, and the
// product overflows Dest's 8-bit exponent to Inf; FP16 Src saturates.
TEST(TensixNamed, SrcHasNoInfOrNaN) {
  uint32_t inf = 0x7F800000, nan = 0x7FC00000, two = 0x40000000;
  EXPECT_EQ(runOne(kWormhole, kMul, 0xF, kDestFp32, kSrcTf32, inf, two),
            0x7F800000u);
  EXPECT_EQ(runOne(kWormhole, kMul, 0xF, kDestFp32, kSrcTf32, nan, 0x3F000000),
            0x7F400000u); // 2^128 * 1.5 * 0.5 = 2^127 * 1.5
  EXPECT_EQ(tensixSrcWord(TensixSrc::fp16, inf), (31u << 10) | 0x3FF);
  EXPECT_EQ(runOne(kWormhole, kMul, 0x1, kDestFp16, kSrcFp16, inf, two),
            0x7FFFu); // saturated
}

//===-- Fidelity phases ----------------------------------------------------===//

// tensixIdlePhases against the slices, and "such a phase adds nothing from
// a zeroed Dest" over operands of every significant-bit count.
TEST(TensixPhases, IdlePhasesAddNothing) {
  EXPECT_EQ(tensixIdlePhases(0xF, 8, 8), 0u);  // bf16 x bf16
  EXPECT_EQ(tensixIdlePhases(0xF, 8, 7), 0xCu); // bf16 x bfp8: phases 2, 3
  EXPECT_EQ(tensixIdlePhases(0xF, 3, 8), 0xAu); // bfp4 x bf16: phases 1, 3
  EXPECT_EQ(tensixIdlePhases(0x3, 3, 8), 0x2u); // #39627: HiFi2's phase 1
  EXPECT_EQ(tensixIdlePhases(0xF, 1, 1), 0xEu);
  EXPECT_EQ(tensixIdlePhases(0xF, 11, 11), 0u);
  std::mt19937 rng(39627);
  for (unsigned aBits = 1; aBits <= 8; ++aBits)
    for (unsigned bBits = 1; bBits <= 8; ++bBits) {
      unsigned idle = tensixIdlePhases(0xF, aBits, bBits);
      for (int trial = 0; trial < 2000; ++trial) {
        auto operand = [&](unsigned bits) {
          uint32_t fraction = (rng() & 0x7F) >> (8 - bits) << (8 - bits);
          return floatOf((rng() & 0x80000000u) | (60 + rng() % 140) << 23 |
                         fraction << 16);
        };
        float a = operand(aBits), b = operand(bBits);
        for (int arch : {kWormhole, kBlackhole})
          for (auto [dest, src] : kPairings) {
            if (src == kSrcFp16)
              continue;
            uint32_t all = 0, busy = 0;
            ASSERT_TRUE(tensixEltwise(arch, kMul, 0xF, dest, src, &a, &b, 1,
                                      &all, false)
                            .ok());
            ASSERT_TRUE(tensixEltwise(arch, kMul, 0xF & ~idle, dest, src, &a,
                                      &b, 1, &busy, false)
                            .ok());
            ASSERT_EQ(all, busy) << aBits << "x" << bBits << " idle " << idle;
          }
      }
    }
}

// The precondition of dropping idle phases (docs/Semantics.md section 7,
// "Fidelity phases"): from a zeroed Dest it is exact while no product's
// exponent ea + eb + r passes Dest's largest; past it a zero term can
// realign a saturated Dest (issue 64's 0x7F55 x 0x6440: Inf at phases
// {0, 1}, +0 at HiFi4). Every exponent pair, operands of 1 to 8
// significant bits, both archs, every Dest and Src pairing.
TEST(TensixPhases, DroppingIsExactUpToDestsLargestExponent) {
  float big = floatOf(0x7F550000), mid = floatOf(0x64400000);
  for (int dest : {kDestFp32, kDestBf16}) {
    uint32_t lofi = 0, hifi2 = 0, hifi4 = 0;
    ASSERT_TRUE(tensixEltwise(kWormhole, kMul, 0x1, dest, kSrcBf16, &big, &mid,
                              1, &lofi, false).ok());
    ASSERT_TRUE(tensixEltwise(kWormhole, kMul, 0x3, dest, kSrcBf16, &big, &mid,
                              1, &hifi2, false).ok());
    ASSERT_TRUE(tensixEltwise(kWormhole, kMul, 0xF, dest, kSrcBf16, &big, &mid,
                              1, &hifi4, false).ok());
    uint32_t inf = dest == kDestFp32 ? 0x7F800000u : 0x7F80u;
    EXPECT_EQ(hifi2, inf);
    EXPECT_EQ(hifi4, 0u); // the realigned Dest rounds to +0
    EXPECT_NE(lofi, hifi4);
    EXPECT_FALSE(tensixDroppedPhasesExact(
        TensixDest(dest), tensixLargestProductExponent(
                              TensixDest(dest), TensixSrc::bf16, &big, 1,
                              &mid, 1)));
  }
  std::mt19937 rng(64);
  uint64_t exact = 0, inexact = 0, differing = 0;
  // The first exponent at which 1-bit operands differ at LoFi vs HiFi4:
  // Dest's largest plus phase 1's 5, plus the shift that empties the
  // saturated Dest's one bit (25 places for 32 bits, 12 for 16).
  int firstDiffering[3] = {INT_MAX, INT_MAX, INT_MAX};
  for (int ea = 1; ea < 255; ++ea)
    for (int eb = 1; eb < 255; ++eb) {
      unsigned aBits = 1 + rng() % 8, bBits = 1 + rng() % 8;
      auto operand = [&](int e, unsigned bits) {
        uint32_t fraction = (rng() & 0x7F) >> (8 - bits) << (8 - bits);
        return floatOf((rng() & 0x80000000u) | uint32_t(e) << 23 |
                       fraction << 16);
      };
      float a = operand(ea, aBits), b = operand(eb, bBits);
      unsigned idle = tensixIdlePhases(0xF, aBits, bBits);
      for (int arch : {kWormhole, kBlackhole})
        for (auto [dest, src] : kPairings) {
          uint32_t aWord = tensixSrcWord(TensixSrc(src), bitsOf(a));
          uint32_t bWord = tensixSrcWord(TensixSrc(src), bitsOf(b));
          // FP16 Src saturates large exponents to all fraction bits set.
          auto wider = [](uint32_t word, unsigned bits) {
            return (word & ((1u << (11 - bits)) - 1)) != 0;
          };
          if (src == kSrcFp16 && (wider(aWord, aBits) || wider(bWord, bBits)))
            continue;
          uint32_t all = 0, kept = 0;
          ASSERT_TRUE(tensixEltwise(arch, kMul, 0xF, dest, src, &a, &b, 1,
                                    &all, false).ok());
          ASSERT_TRUE(tensixEltwise(arch, kMul, 0xF & ~idle, dest, src, &a,
                                    &b, 1, &kept, false).ok());
          int e = tensixLargestProductExponent(TensixDest(dest), TensixSrc(src),
                                               &a, 1, &b, 1);
          if (tensixDroppedPhasesExact(TensixDest(dest), e)) {
            ++exact;
            ASSERT_EQ(all, kept) << std::hex << bitsOf(a) << " x " << bitsOf(b)
                                 << std::dec << " dest " << dest << " src "
                                 << src << " e " << e;
          } else {
            ++inexact;
            differing += all != kept;
          }
          if (all != kept && aBits == 1 && bBits == 1 && src != kSrcFp16)
            firstDiffering[dest] = std::min(firstDiffering[dest], e);
        }
    }
  EXPECT_GT(exact, 100000u);
  EXPECT_GT(inexact, 10000u);
  EXPECT_GT(differing, 1000u); // the precondition is needed
  EXPECT_EQ(firstDiffering[kDestFp32], 255 + 5 + 25);
  EXPECT_EQ(firstDiffering[kDestBf16], 255 + 5 + 12);
}

//===-- The packer and L1 accumulation -------------------------------------===//

char outCode(int dtype) {
  return dtype == int(Dtype::float32) ? 'f' : dtype == int(Dtype::bfloat16) ? 'b' : 'h';
}

// Every path of Tensix.def over every 16-bit Dest value (fp32 Dest: every
// bf16 pattern in both halves and seeded random words), with and without L1
// accumulation onto seeded L1 values, against the plain packer.
TEST(TensixPack, EveryPathAgainstPlain) {
  std::mt19937 rng(1914);
  size_t count = 0;
  const TensixPackPath *paths = tensixPackPaths(count);
  for (size_t p = 0; p < count; ++p) {
    const TensixPackPath &path = paths[p];
    int dest = int(path.dest);
    unsigned inBytes = destBytes(dest);
    unsigned outBytes = lookupDtype(path.outDtype)->bytes;
    std::vector<uint32_t> in;
    for (uint32_t v = 0; v < 0x10000; ++v) {
      if (dest == kDestFp32) {
        in.push_back(v << 16);
        in.push_back(v << 16 | (rng() & 0xFFFF));
        in.push_back(v << 16 | 0x8000);
        in.push_back(v << 16 | 0x1000);
      } else {
        in.push_back(v);
      }
    }
    for (int arch : {kWormhole, kBlackhole}) {
      if (!(path.arches >> arch & 1))
        continue;
      for (bool l1 : {false, true}) {
        std::vector<uint8_t> inBuf(in.size() * inBytes), out(in.size() * outBytes);
        std::vector<uint32_t> l1In(in.size());
        for (size_t i = 0; i < in.size(); ++i) {
          std::memcpy(&inBuf[i * inBytes], &in[i], inBytes);
          l1In[i] = outBytes == 4 ? rng() : rng() & 0xFFFF;
          if (i % 7 == 0) // the value itself, negated: cancellations
            l1In[i] = plain::pack(arch, dest, outCode(path.outDtype), in[i]) ^
                      (outBytes == 4 ? 0x80000000u : 0x8000u);
          std::memcpy(&out[i * outBytes], &l1In[i], outBytes);
        }
        Status s = tensixPack(arch, dest, inBuf.data(), in.size(),
                              path.outDtype, out.data(), l1);
        ASSERT_TRUE(s.ok()) << s.message();
        size_t bad = 0;
        for (size_t i = 0; i < in.size(); ++i) {
          uint32_t got = 0;
          std::memcpy(&got, &out[i * outBytes], outBytes);
          uint32_t want = plain::pack(arch, dest, outCode(path.outDtype), in[i]);
          if (l1)
            want = plain::l1Accumulate(outCode(path.outDtype), l1In[i], want);
          if (got != want && bad++ < 3)
            ADD_FAILURE() << tensixArchName(arch) << " dest "
                          << kTensixDestTable[dest].name << " to dtype "
                          << path.outDtype << (l1 ? " l1" : "") << std::hex
                          << ": in 0x" << in[i] << " l1 0x" << l1In[i]
                          << ": core 0x" << got << ", plain 0x" << want;
        }
        EXPECT_EQ(bad, 0u);
      }
    }
  }
}

// L1 accumulation over every 16-bit value against edge and random L1
// values, for bfloat16 and float16, and float32 on random and edge pairs.
TEST(TensixPack, L1AccumulateAgainstPlain) {
  std::mt19937 rng(1955);
  for (int dtype : {int(Dtype::bfloat16), int(Dtype::float16)}) {
    std::vector<uint32_t> l1s = {0x0000, 0x8000, 0x0001, 0x7F80, 0xFF80,
                                 0x7FC0, 0x7FFF, 0xFFFF, 0x7BFF, 0x0400,
                                 0x8400, 0x3C00, 0xBC00, 0x3F80, 0xBF80};
    for (int i = 0; i < 49; ++i)
      l1s.push_back(rng() & 0xFFFF);
    size_t bad = 0;
    for (uint32_t l : l1s)
      for (uint32_t v = 0; v < 0x10000; ++v) {
        uint32_t got = tensixL1Accumulate(dtype, l, v);
        uint32_t want = plain::l1Accumulate(outCode(dtype), l, v);
        if (got != want && bad++ < 3)
          ADD_FAILURE() << "dtype " << dtype << std::hex << " l1 0x" << l
                        << " v 0x" << v << ": core 0x" << got << ", plain 0x"
                        << want;
      }
    EXPECT_EQ(bad, 0u);
  }
  size_t bad = 0;
  for (int i = 0; i < 1 << 20; ++i) {
    uint32_t l = rng(), v = i % 3 == 0 ? l ^ 0x80000000u : rng();
    if (i % 5 == 0)
      v = (l & 0xFF800000u) | (rng() & 0x7FFFFF);
    uint32_t got = tensixL1Accumulate(int(Dtype::float32), l, v);
    uint32_t want = plain::l1Accumulate('f', l, v);
    if (got != want && bad++ < 3)
      ADD_FAILURE() << std::hex << "float32 l1 0x" << l << " v 0x" << v
                    << ": core 0x" << got << ", plain 0x" << want;
  }
  EXPECT_EQ(bad, 0u);
}

// Named L1 cases of Semantics.md section 7.
TEST(TensixPack, NamedL1Cases) {
  int f16 = int(Dtype::float16), bf16 = int(Dtype::bfloat16);
  EXPECT_EQ(tensixL1Accumulate(f16, 0x7C00, 0xFC00), 0x7FFFu); // exponent 31
  EXPECT_EQ(tensixL1Accumulate(f16, 0x3C00, 0xBC00), 0x0000u);
  EXPECT_EQ(tensixL1Accumulate(f16, 0x7BFF, 0x7BFF), 0x7FFFu); // saturates
  EXPECT_EQ(tensixL1Accumulate(bf16, 0x7F80, 0xFF80), 0x7FC0u);
  EXPECT_EQ(tensixL1Accumulate(bf16, 0x7FC0, 0x3F80), 0x7F80u); // NaN huge
  EXPECT_EQ(tensixL1Accumulate(int(Dtype::float32), 0x7F800000, 0xFF800000),
            0x7FC00000u);
}

//===-- Errors -------------------------------------------------------------===//

TEST(TensixErrors, EveryRuleNamedAndNothingWritten) {
  float a[2] = {1.0f, 2.0f}, b[2] = {3.0f, 4.0f};
  struct Case {
    int arch, op;
    unsigned phases;
    int dest, src;
    const char *text;
  } cases[] = {
      {2, kMul, 0xF, kDestFp32, kSrcBf16, "unknown architecture"},
      {kWormhole, 3, 0x1, kDestFp32, kSrcBf16, "unknown op"},
      {kWormhole, kMul, 0x1, 3, kSrcBf16, "unknown Dest kind"},
      {kWormhole, kMul, 0x1, kDestFp32, -1, "unknown Src format"},
      {kWormhole, kMul, 0, kDestFp32, kSrcBf16, "non-empty subset"},
      {kWormhole, kMul, 0x10, kDestFp32, kSrcBf16, "non-empty subset"},
      {kWormhole, kAdd, 0x3, kDestFp32, kSrcBf16, "phase 0 only"},
      {kWormhole, kMul, 0x1, kDestFp16, kSrcBf16, "exponent width"},
      {kWormhole, kMul, 0x1, kDestBf16, kSrcFp16, "exponent width"},
  };
  for (const Case &c : cases) {
    uint32_t dest[2] = {0xAAAAAAAA, 0xAAAAAAAA};
    Status s = tensixEltwise(c.arch, c.op, c.phases, c.dest, c.src, a, b, 2,
                             dest, false);
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find(c.text), std::string::npos) << s.message();
    EXPECT_EQ(dest[0], 0xAAAAAAAAu);
    EXPECT_EQ(dest[1], 0xAAAAAAAAu);
  }
  uint32_t dest[2] = {};
  EXPECT_NE(tensixEltwise(kWormhole, kMul, 1, kDestFp32, kSrcBf16, nullptr, b,
                          2, dest, false)
                .message()
                .find("null buffer"),
            std::string::npos);
  // dest partly over a.
  float overlap[4] = {1, 2, 3, 4};
  EXPECT_NE(tensixEltwise(kWormhole, kMul, 1, kDestFp32, kSrcBf16, overlap, b,
                          2, overlap + 1, false)
                .message()
                .find("overlap"),
            std::string::npos);
  // dest exactly a, fp32 Dest: allowed, read before written.
  float same[2] = {3.0f, 5.0f};
  ASSERT_TRUE(tensixEltwise(kWormhole, kMul, 0xF, kDestFp32, kSrcBf16, same, b,
                            2, same, false)
                  .ok());
  EXPECT_EQ(same[0], 9.0f);
  EXPECT_EQ(same[1], 20.0f);

  uint16_t in[2] = {0x3F80, 0x4000}, out[2] = {0xAAAA, 0xAAAA};
  Status s = tensixPack(kWormhole, kDestBf16, in, 2, int(Dtype::float16), out,
                        false);
  EXPECT_NE(s.message().find("no path"), std::string::npos) << s.message();
  EXPECT_EQ(out[0], 0xAAAA);
  EXPECT_FALSE(tensixPack(kWormhole, kDestFp32, in, 2, int(Dtype::int8), out,
                          false)
                   .ok());
  EXPECT_FALSE(tensixPack(5, kDestBf16, in, 2, int(Dtype::bfloat16), out,
                          false)
                   .ok());
  EXPECT_EQ(out[1], 0xAAAA);
}

} // namespace
