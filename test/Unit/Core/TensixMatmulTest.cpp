//===- TensixMatmulTest.cpp - the Tensix FPU's MVMUL and matmul_tiles -----===//
//
// docs/Semantics.md section 7 ("MVMUL", "matmul_tiles") against
// PlainTensix.h's plain MVMUL and matmul: every bf16 (or fp16) value in one
// SrcA lane against fixed SrcB rows and the converse, at every phase, Dest
// kind and architecture; seeded random blocks with zeros, denormals, the
// largest exponents, cancellations to -1 unit and carries; the MVMUL and
// accumulation vectors mesham/tt-sim dumped from ttsim; whole-tile and
// multi-tile K matmuls of every Src pairing; the fidelity example of
// section 7's "Fidelity phases"; the slice rule of the useful phases.
//
//===----------------------------------------------------------------------===//
#include "birsim/Core/Tensix.h"

#include "PlainTensix.h"
#include "gtest/gtest.h"

#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace birsim::core;
namespace plain = birsim::test::plaintensix;

namespace {

constexpr int kDestFp32 = 0, kDestBf16 = 1, kDestFp16 = 2;
constexpr int kSrcTf32 = 0, kSrcBf16 = 1, kSrcFp16 = 2;

uint32_t bitsOf(float f) { return plain::bitsOf(f); }

/// The (Dest, in0 Src, in1 Src) triples the FPU accepts.
struct Pairing {
  int dest, in0Src, in1Src;
};
constexpr Pairing kPairings[] = {
    {kDestFp32, kSrcTf32, kSrcTf32}, {kDestFp32, kSrcBf16, kSrcBf16},
    {kDestFp32, kSrcTf32, kSrcBf16}, {kDestFp32, kSrcBf16, kSrcTf32},
    {kDestFp32, kSrcFp16, kSrcFp16}, {kDestBf16, kSrcBf16, kSrcBf16},
    {kDestBf16, kSrcTf32, kSrcBf16}, {kDestBf16, kSrcTf32, kSrcTf32},
    {kDestFp16, kSrcFp16, kSrcFp16}};

std::string pairingName(int arch, const Pairing &p, unsigned phases) {
  return std::string(tensixArchName(arch)) + " dest=" +
         kTensixDestTable[p.dest].name + " in0=" +
         kTensixSrcTable[p.in0Src].name + " in1=" +
         kTensixSrcTable[p.in1Src].name + " phases=" + std::to_string(phases);
}

/// A float32 whose value reaches Src class `src` exactly: a random sign,
/// exponent and fraction, with zeros, denormals, the top binades and values
/// near 1 mixed in.
uint32_t randomOperand(std::mt19937 &rng, int src) {
  uint32_t x = rng();
  switch (rng() % 8) {
  case 0: x &= 0x807FFFFF; break;                   // zero or denormal
  case 1: x = (x & 0x80FFFFFF) | 0x7E000000; break; // the top binades
  case 2: x = (x & 0x807FFFFF) | 0x3F000000; break; // near 1
  case 3: x = (x & 0x807FFFFF) | 0x3F800000; break;
  default: break;
  }
  if (src == kSrcFp16) { // within float16's exponents, mostly
    uint32_t e = (x >> 23 & 0xFF) % 34 + 110;
    x = (x & 0x807FFFFF) | e << 23;
  }
  return x;
}

/// MVMUL: the core against the plain one on `a`, `b` (float32 bits) and a
/// Dest value; reports a difference once per `what`.
bool expectMvmul(int arch, const Pairing &p, unsigned phase,
                 const uint32_t *a, const uint32_t *b, uint32_t stored,
                 const std::string &what) {
  TensixMatmulConfig config;
  EXPECT_TRUE(
      checkTensixMatmul(arch, 1u << phase, p.dest, p.in0Src, p.in1Src, true,
                        config)
          .ok());
  uint32_t wa[16], wb[16];
  plain::Operand oa[16], ob[16];
  for (int i = 0; i < 16; ++i) {
    wa[i] = tensixSrcWord(TensixSrc(p.in1Src), a[i]);
    wb[i] = tensixSrcWord(TensixSrc(p.in0Src), b[i]);
    oa[i] = plain::operandOf(p.in1Src, a[i]);
    ob[i] = plain::operandOf(p.in0Src, b[i]);
  }
  uint32_t got = tensixDestWrite(
      TensixDest(p.dest),
      tensixMvmulWord(config, wa, wb,
                      tensixDestRead(TensixDest(p.dest), stored), phase));
  uint32_t want = plain::writeDest(
      p.dest, plain::mvmul(arch, p.dest, p.in1Src, int(phase), oa, ob,
                           plain::readDest(p.dest, stored)));
  if (got == want)
    return true;
  ADD_FAILURE() << what << " phase " << phase << std::hex << ": a[0]=0x"
                << a[0] << " b[0]=0x" << b[0] << " dest=0x" << stored
                << ": core 0x" << got << ", plain 0x" << want;
  return false;
}

// Every 16-bit pattern in SrcA's lane 0 (then SrcB's) against fixed random
// rows, at every phase, Dest kind and architecture: bf16 patterns for the
// 8-bit-exponent classes, float16 patterns (rebiased into float32) for FP16.
TEST(TensixMvmul, EveryLaneValueAgainstFixedRows) {
  std::mt19937 rng(5411);
  for (const Pairing &p : kPairings)
    for (int arch : {0, 1})
      for (unsigned phase = 0; phase < 4; ++phase) {
        uint32_t a[16], b[16];
        for (int i = 0; i < 16; ++i) {
          a[i] = randomOperand(rng, p.in1Src);
          b[i] = randomOperand(rng, p.in0Src);
        }
        uint32_t stored = p.dest == kDestFp32 ? rng() : rng() & 0xFFFF;
        std::string what = pairingName(arch, p, 1u << phase);
        for (int side = 0; side < 2; ++side) {
          uint32_t *lane = side ? &b[0] : &a[0];
          uint32_t saved = *lane;
          for (uint32_t v = 0; v < 0x10000; ++v) {
            int src = side ? p.in0Src : p.in1Src;
            *lane = src == kSrcFp16
                        ? (v & 0x8000) << 16 | ((v & 0x7FFF) + (112u << 10)) << 13
                        : v << 16;
            if (!expectMvmul(arch, p, phase, a, b, stored, what))
              break;
          }
          *lane = saved;
        }
      }
}

// Seeded random blocks: operands with zeros, denormals, the top binades
// and values near 1, and Dest values that cancel the products' sum.
TEST(TensixMvmul, RandomBlocksAgainstPlain) {
  std::mt19937 rng(8812);
  for (const Pairing &p : kPairings)
    for (int arch : {0, 1})
      for (unsigned phase = 0; phase < 4; ++phase) {
        std::string what = pairingName(arch, p, 1u << phase);
        for (int trial = 0; trial < 3000; ++trial) {
          uint32_t a[16], b[16];
          for (int i = 0; i < 16; ++i) {
            a[i] = randomOperand(rng, p.in1Src);
            b[i] = randomOperand(rng, p.in0Src);
          }
          if (trial % 4 == 1) // one product, so Dest can cancel it exactly
            for (int i = 1; i < 16; ++i)
              a[i] = 0;
          uint32_t stored = p.dest == kDestFp32 ? rng() : rng() & 0xFFFF;
          if (trial % 4 == 1) { // Dest = -(the product), maybe 1 unit off
            TensixMatmulConfig config;
            checkTensixMatmul(arch, 1u << phase, p.dest, p.in0Src, p.in1Src,
                              true, config);
            uint32_t wa[16], wb[16];
            for (int i = 0; i < 16; ++i) {
              wa[i] = tensixSrcWord(TensixSrc(p.in1Src), a[i]);
              wb[i] = tensixSrcWord(TensixSrc(p.in0Src), b[i]);
            }
            uint32_t product = tensixMvmulWord(config, wa, wb, 0, phase);
            stored = tensixDestWrite(TensixDest(p.dest),
                                     (product ^ 0x80000000u) + rng() % 3 - 1);
          }
          if (!expectMvmul(arch, p, phase, a, b, stored, what))
            break;
        }
      }
}

// Wormhole's renormalisation of -1 unit reaches MVMUL: a Dest that one
// unit short of cancelling the product.
TEST(TensixMvmul, MinusOneUnitOnWormholeOnly) {
  uint32_t a[16] = {}, b[16] = {};
  a[0] = bitsOf(1.5f);
  b[0] = bitsOf(1.25f);
  TensixMatmulConfig config;
  ASSERT_TRUE(checkTensixMatmul(0, 1, kDestFp32, kSrcBf16, kSrcBf16, true,
                                config)
                  .ok());
  uint32_t wa[16], wb[16];
  for (int i = 0; i < 16; ++i) {
    wa[i] = tensixSrcWord(TensixSrc::bf16, a[i]);
    wb[i] = tensixSrcWord(TensixSrc::bf16, b[i]);
  }
  // Phase 0 of 1.5 x 1.25 is 1.875; Dest -1.875 minus 1 unit leaves -1 unit.
  uint32_t dest = bitsOf(-1.875f) + 1;
  bool quirk = false;
  uint32_t wormhole = tensixMvmulWord(config, wa, wb, dest, 0, &quirk);
  EXPECT_TRUE(quirk);
  config.arch = TensixArch::blackhole;
  uint32_t blackhole = tensixMvmulWord(config, wa, wb, dest, 0);
  EXPECT_EQ(wormhole & 0x807FFFFF, blackhole & 0x807FFFFF);
  EXPECT_EQ(int(wormhole >> 23 & 0xFF) - int(blackhole >> 23 & 0xFF), 27);
}

// mesham/tt-sim tt_sim/pe/tensix/fpu_accumulate_test.py @9f5b6a2,
// ACCUMULATE_VECTORS: Dest, fp32 Dest or not (bf16), the two group sums
// (sign, exponent, magnitude), Wormhole's and Blackhole's result, from
// ttsim's C model compiled for both architectures.
TEST(TensixMvmul, TtSimAccumulateVectors) {
  struct Vector {
    uint32_t dest;
    bool fp32;
    TensixTerm groups[2];
    uint32_t wormhole, blackhole;
  } vectors[] = {
      {0x407734D7, true, {{1, 128, 16200920}, {0, 0, 0}}, 0xC2000000, 0xB4800000},
      {0x42309D6B, true, {{1, 132, 11574636}, {0, 0, 0}}, 0xC4000000, 0xB6800000},
      {0xC279CB9E, true, {{0, 132, 16370591}, {0, 0, 0}}, 0x36800000, 0x36800000},
      {0x45AFA914, true, {{1, 139, 11512085}, {0, 0, 0}}, 0xC7800000, 0xBA000000},
      {0x27122657, false, {{0, 138, 27167162}, {1, 178, 21288702}}, 0xD9A20000, 0xD9A20000},
      {0xFE32B55E, false, {{1, 116, 21941999}, {1, 158, 21812762}}, 0xFE330000, 0xFE330000},
      {0x826A7532, false, {{1, 17, 1998203}, {0, 49, 29513303}}, 0x19610000, 0x19610000},
      {0x8463990E, true, {{0, 84, 14781771}, {1, 216, 6553897}}, 0xEBC80252, 0xEBC80252},
      {0x5225A6C2, false, {{0, 2, 22228117}, {0, 118, 21971497}}, 0x52260000, 0x52260000},
      {0x477F72D2, true, {{1, 216, 2791845}, {1, 66, 10578947}}, 0xEB2A6694, 0xEB2A6694},
  };
  for (const Vector &v : vectors) {
    TensixDest dest = v.fp32 ? TensixDest::fp32 : TensixDest::bf16;
    // The whole 32-bit word, as the harness passes it: for a bf16 Dest its
    // low bits go through the 13-bit rounding too.
    uint32_t word = v.dest;
    EXPECT_EQ(tensixAddIntoDest(TensixArch::wormhole, dest, v.groups[0],
                                v.groups[1], word),
              v.wormhole)
        << std::hex << "dest 0x" << v.dest;
    EXPECT_EQ(tensixAddIntoDest(TensixArch::blackhole, dest, v.groups[0],
                                v.groups[1], word),
              v.blackhole)
        << std::hex << "dest 0x" << v.dest;
  }
}

// The same file's MVMUL_VECTORS: SrcA and SrcB lanes as float32 patterns
// (TF32 precision), Dest, fp32 Dest or bf16, the phase, the result.
TEST(TensixMvmul, TtSimMvmulVectors) {
  struct Vector {
    uint32_t a[16], b[16], dest;
    bool fp32;
    unsigned phase;
    uint32_t result;
  } vectors[] = {
      {{0xbe722000, 0x40a74000, 0xbe90a000, 0x3f81c000, 0x3c0d8000, 0x00000000,
        0x3c418000, 0x3ee2a000, 0x00000000, 0xbed42000, 0x41ae6000, 0xbefbe000,
        0xbec94000, 0x00000000, 0xbfcb8000, 0xc114e000},
       {0x40296000, 0xbdca8000, 0x00000000, 0x00000000, 0x00000000, 0xbe690000,
        0x3ef32000, 0x3fc64000, 0x3ccf4000, 0xbf9e6000, 0x41cbc000, 0x00000000,
        0x3c072000, 0x3c14c000, 0xbc7ca000, 0xbc44e000},
       0x418BE000, false, 0, 0x44090000},
      {{0xbe3ec000, 0x3a3ba000, 0xc0f9a000, 0x35472000, 0x43476000, 0x3535e000,
        0x40618000, 0xbf682000, 0xbf08e000, 0xb9c5c000, 0x3be2c000, 0xc3868000,
        0x32d0c000, 0x00000000, 0xbf9fc000, 0xb4ab2000},
       {0xb59e0000, 0xc1664000, 0xba808000, 0x36dfe000, 0x32962000, 0xbffa2000,
        0x00000000, 0x45582000, 0xc396a000, 0x3a730000, 0x33ee8000, 0x32d62000,
        0x3b572000, 0x3ba30000, 0x37318000, 0x00000000},
       0xC160C000, true, 1, 0xC152B000},
      {{0x40238000, 0x3df24000, 0xbd404000, 0xbffea000, 0x00000000, 0x3c6dc000,
        0x00000000, 0x3de18000, 0xbf856000, 0x3e19a000, 0x40eb2000, 0x41c12000,
        0xbea58000, 0xc1d3c000, 0x3cf4a000, 0xbc116000},
       {0x41a5a000, 0xbe48e000, 0x3c4d2000, 0x3e83c000, 0x00000000, 0x00000000,
        0x3f7ee000, 0xbdc44000, 0xbf54e000, 0xbddf4000, 0xbe3a6000, 0xc1108000,
        0xbe6a4000, 0x3f2cc000, 0xc1446000, 0x3f360000},
       0x00000000, false, 2, 0xBEA70000},
      {{0x41694000, 0xbf2ee000, 0x3355c000, 0xb7b30000, 0xc1fbc000, 0x00000000,
        0xbfe82000, 0xc07d8000, 0xbffd8000, 0x00000000, 0x3e208000, 0x00000000,
        0x00000000, 0xbadc0000, 0xb4602000, 0xc0c56000},
       {0xb4362000, 0x3b8f0000, 0xc2cd8000, 0xb86d0000, 0xbba26000, 0x41f4c000,
        0xc325c000, 0xb29c2000, 0xc3938000, 0x00000000, 0x35d92000, 0xba0e2000,
        0xb4ea2000, 0x00000000, 0xc17a8000, 0x4221c000},
       0xBF7F0000, true, 3, 0xBF706000},
  };
  for (const Vector &v : vectors)
    for (int arch : {0, 1}) {
      TensixMatmulConfig config;
      int dest = v.fp32 ? kDestFp32 : kDestBf16;
      ASSERT_TRUE(
          checkTensixMatmul(arch, 0xF, dest, kSrcTf32, kSrcTf32, true, config)
              .ok());
      uint32_t wa[16], wb[16];
      for (int i = 0; i < 16; ++i) {
        wa[i] = tensixSrcWord(TensixSrc::tf32, v.a[i]);
        wb[i] = tensixSrcWord(TensixSrc::tf32, v.b[i]);
      }
      uint32_t word = v.dest; // the whole word, as the harness passes it
      EXPECT_EQ(tensixMvmulWord(config, wa, wb, word, v.phase), v.result)
          << std::hex << "phase " << v.phase << " dest 0x" << v.dest;
    }
}

/// The matmul of the core against the plain one; returns the core's.
std::vector<uint32_t> expectMatmul(int arch, unsigned phases,
                                   const Pairing &p,
                                   const std::vector<uint32_t> &in0,
                                   const std::vector<uint32_t> &in1,
                                   size_t m, size_t k, size_t n,
                                   const std::vector<uint32_t> &start,
                                   bool accumulate) {
  unsigned bytes = p.dest == kDestFp32 ? 4 : 2;
  std::vector<char> dest(m * n * bytes);
  for (size_t i = 0; i < m * n; ++i)
    std::memcpy(&dest[i * bytes], &start[i], bytes);
  std::vector<float> a(in0.size()), b(in1.size());
  std::memcpy(a.data(), in0.data(), 4 * a.size());
  std::memcpy(b.data(), in1.data(), 4 * b.size());
  EXPECT_TRUE(tensixMatmul(arch, phases, p.dest, p.in0Src, p.in1Src, a.data(),
                           b.data(), m, k, n, dest.data(), accumulate)
                  .ok());
  std::vector<uint32_t> got(m * n, 0), want = start;
  for (size_t i = 0; i < m * n; ++i)
    std::memcpy(&got[i], &dest[i * bytes], bytes);
  plain::matmul(arch, phases, p.dest, p.in0Src, p.in1Src, in0.data(),
                in1.data(), int64_t(m), int64_t(k), int64_t(n), want.data(),
                accumulate);
  for (size_t i = 0; i < m * n; ++i)
    if (got[i] != want[i]) {
      ADD_FAILURE() << pairingName(arch, p, phases) << " " << m << "x" << k
                    << "x" << n << (accumulate ? " accumulate" : "")
                    << ": output " << i << std::hex << " core 0x" << got[i]
                    << ", plain 0x" << want[i];
      break;
    }
  return got;
}

// Whole tiles and multi-tile K, every pairing, the four fidelities and
// {0, 2}, with and without accumulation.
TEST(TensixMatmul, EveryPairingAgainstPlain) {
  std::mt19937 rng(7130);
  struct Shape {
    size_t m, k, n;
  } shapes[] = {{32, 32, 32}, {32, 96, 64}, {64, 64, 32}};
  for (const Pairing &p : kPairings)
    for (Shape s : shapes)
      for (unsigned phases : {0x1u, 0x3u, 0x5u, 0x7u, 0xFu}) {
        int arch = int(rng() % 2);
        std::vector<uint32_t> in0(s.m * s.k), in1(s.k * s.n),
            start(s.m * s.n);
        for (uint32_t &x : in0)
          x = randomOperand(rng, p.in0Src);
        for (uint32_t &x : in1)
          x = randomOperand(rng, p.in1Src);
        for (uint32_t &x : start)
          x = p.dest == kDestFp32 ? rng() : rng() & 0xFFFF;
        expectMatmul(arch, phases, p, in0, in1, s.m, s.k, s.n, start,
                     phases & 1);
      }
}

/// §7 "Fidelity phases": in0 = 14.5, -14.5625 at K 0 and 1 and
/// -0.00341796875 at K 16, in1 = 1, 1 and 1.75 there (bfp4 values: 3
/// significant bits), a bf16 Dest: HiFi4 gives 0xBD8D, phases {0, 2}
/// 0xBD8C. Phases 1 and 3 multiply only zeros, yet their MVMULs realign
/// Dest to the K 0-15 products' exponent before K 16's product arrives.
TEST(TensixMatmul, DroppedPhasesRealignACancellingSum) {
  std::vector<uint32_t> in0(32 * 32, 0), in1(32 * 32, 0);
  in0[0] = bitsOf(14.5f);
  in0[1] = bitsOf(-14.5625f);
  in0[16] = bitsOf(-0.00341796875f);
  in1[0 * 32] = bitsOf(1.0f);
  in1[1 * 32] = bitsOf(1.0f);
  in1[16 * 32] = bitsOf(1.75f);
  Pairing p{kDestBf16, kSrcBf16, kSrcBf16};
  std::vector<uint32_t> start(32 * 32, 0);
  EXPECT_EQ(expectMatmul(0, 0xF, p, in0, in1, 32, 32, 32, start, false)[0],
            0xBD8Du);
  EXPECT_EQ(expectMatmul(0, 0x5, p, in0, in1, 32, 32, 32, start, false)[0],
            0xBD8Cu);
  EXPECT_EQ(tensixUsefulPhases(0xF, 8, 3), 0x5u);
  // The accumulate form continues from {0, 2}'s Dest (the lit test
  // test/Dialect/Birsim/tensix-matmul.mlir prints -0.138672).
  start[0] = 0xBD8C;
  EXPECT_EQ(expectMatmul(0, 0xF, p, in0, in1, 32, 32, 32, start, true)[0],
            0xBE0Eu);
}

TEST(TensixMatmul, Errors) {
  std::vector<float> a(64 * 64, 1.0f), b(64 * 64, 1.0f);
  std::vector<uint32_t> out(64 * 64, 0x5A5A5A5A);
  auto call = [&](int arch, unsigned phases, int dest, int in0Src, int in1Src,
                  size_t m, size_t k, size_t n, void *o) {
    return tensixMatmul(arch, phases, dest, in0Src, in1Src, a.data(),
                        b.data(), m, k, n, o, false);
  };
  const char *rules[] = {"architecture", "phases", "Dest kind", "Src format",
                         "FP16 Src", "exponent width", "multiples of 32",
                         "overlap"};
  Status statuses[] = {
      call(2, 0xF, 0, 1, 1, 32, 32, 32, out.data()),
      call(0, 0x10, 0, 1, 1, 32, 32, 32, out.data()),
      call(0, 0xF, 3, 1, 1, 32, 32, 32, out.data()),
      call(0, 0xF, 0, 3, 1, 32, 32, 32, out.data()),
      call(0, 0xF, 0, 2, 1, 32, 32, 32, out.data()),
      call(0, 0xF, kDestFp16, 1, 1, 32, 32, 32, out.data()),
      call(0, 0xF, 0, 1, 1, 32, 48, 32, out.data()),
      call(0, 0xF, 0, 1, 1, 32, 32, 32, b.data() + 1),
  };
  for (size_t i = 0; i < std::size(statuses); ++i) {
    EXPECT_FALSE(statuses[i].ok()) << rules[i];
    ASSERT_NE(statuses[i].detail, nullptr) << rules[i];
    EXPECT_NE(std::string(statuses[i].detail).find(rules[i]),
              std::string::npos)
        << statuses[i].detail;
  }
  for (uint32_t v : out)
    ASSERT_EQ(v, 0x5A5A5A5Au) << "an error wrote Dest";
}

/// A float32 value whose Src significand has at most `bits` significant
/// bits, all of them set (the largest slices).
uint32_t widestOperand(unsigned bits) {
  uint32_t fraction = ((1u << (bits - 1)) - 1) << (24 - bits);
  return 0x3F800000u | fraction;
}

// The slice rule for every pair of widths (tf32 11, bf16 8, bfp8 7, bfp4 3,
// bfp2 1): each phase it keeps multiplies some pair of values to non-zero,
// and for each phase it drops, every value of one operand's format has a
// zero slice there.
TEST(TensixMatmul, UsefulPhasesFollowTheSlices) {
  const unsigned widths[] = {11, 8, 7, 3, 1};
  for (unsigned in0Bits : widths)
    for (unsigned in1Bits : widths) {
      unsigned useful = tensixUsefulPhases(0xF, in0Bits, in1Bits);
      for (unsigned phase = 0; phase < 4; ++phase) {
        TensixEltwiseConfig config{TensixArch::blackhole, TensixOp::mul,
                                   1u << phase, TensixDest::fp32,
                                   TensixSrc::tf32, false};
        // mul_tiles' SrcA is matmul's in1.
        auto product = [&](uint32_t srcA, uint32_t srcB) {
          return tensixEltwiseWord(config, tensixSrcWord(TensixSrc::tf32, srcA),
                                   tensixSrcWord(TensixSrc::tf32, srcB), 0);
        };
        std::string what = "in0 " + std::to_string(in0Bits) + " in1 " +
                           std::to_string(in1Bits) + " phase " +
                           std::to_string(phase);
        if (useful >> phase & 1) {
          EXPECT_NE(product(widestOperand(in1Bits), widestOperand(in0Bits)),
                    0u)
              << what;
          continue;
        }
        auto allZero = [&](unsigned bits, bool asSrcA) {
          for (uint32_t f = 0; f < (1u << (bits - 1)); ++f) {
            uint32_t v = 0x3F800000u | f << (24 - bits);
            uint32_t other = widestOperand(11);
            if (product(asSrcA ? v : other, asSrcA ? other : v) != 0)
              return false;
          }
          return true;
        };
        EXPECT_TRUE(allZero(in1Bits, true) || allZero(in0Bits, false)) << what;
      }
    }
}

} // namespace
