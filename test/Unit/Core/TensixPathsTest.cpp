//===- TensixPathsTest.cpp - the Tensix kernels on every path -------------===//
//
// The product table of mul_tiles (docs/Semantics.md section 7, "Scale")
// against the direct computation, for every (sign, fa, fb) at exponent
// sums on both sides of both bounds, every phase set, both 8-bit Dest kinds
// and both architectures; and every path's table loop and packer loops
// against the portable path's, masked tails and fallbacks included.
//
//===----------------------------------------------------------------------===//
#include "birsim/Core/Dtype.h"
#include "birsim/Core/Tensix.h"

#include "Paths.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <tuple>
#include <vector>

using namespace birsim;
using namespace birsim::core;

namespace {

float floatOf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// `write(p)` on a copy of `initial` at p, between guard bytes: the bytes
/// it leaves, with a failure naming `what` when a guard byte changed.
template <typename T, typename Write>
std::vector<T> guarded(const std::vector<T> &initial, Write write,
                       const std::string &what) {
  constexpr size_t kGuard = 64;
  std::vector<char> buffer(initial.size() * sizeof(T) + 2 * kGuard,
                           char(0xA5));
  std::memcpy(buffer.data() + kGuard, initial.data(),
              initial.size() * sizeof(T));
  write(reinterpret_cast<T *>(buffer.data() + kGuard));
  for (size_t i = 0; i < kGuard; ++i)
    if (buffer[i] != char(0xA5) || buffer[buffer.size() - 1 - i] != char(0xA5)) {
      ADD_FAILURE() << what << ": a byte outside the output changed";
      break;
    }
  std::vector<T> out(initial.size());
  std::memcpy(out.data(), buffer.data() + kGuard, initial.size() * sizeof(T));
  return out;
}

/// Every (sign, fa, fb) at each exponent pair: 2^15 elements per pair.
void everyFractionPair(const std::vector<std::pair<int, int>> &exponents,
                       std::vector<float> &a, std::vector<float> &b) {
  a.clear();
  b.clear();
  for (auto [ea, eb] : exponents)
    for (uint32_t index = 0; index < (1u << 15); ++index) {
      uint32_t low = index & 0x1FFF; // below bf16: TF32/BF16 truncation
      a.push_back(floatOf((index >> 14) << 31 | uint32_t(ea) << 23 |
                          (index >> 7 & 127) << 16 | low));
      b.push_back(floatOf(uint32_t(eb) << 23 | (index & 127) << 16));
    }
}

TEST(TensixPaths, TableEqualsTheDirectComputation) {
  // Sums around 254 - 116 + w (the lower bound) and around the top.
  std::vector<std::pair<int, int>> exponents = {
      {1, 135},  {1, 137},  {1, 138},  {60, 80},  {70, 78},   {70, 79},
      {70, 80},  {75, 76},  {127, 127},
      {200, 180}, {254, 126}, {254, 127}, {254, 128}, {254, 254}, {0, 127}};
  std::vector<float> a, b;
  everyFractionPair(exponents, a, b);
  size_t n = a.size();
  for (int arch : {0, 1})
    for (int dest : {0, 1})
      for (unsigned phases = 1; phases <= 0xF; ++phases) {
        unsigned bytes = dest == 0 ? 4 : 2;
        // The accumulate form from a zeroed Dest is the direct computation.
        std::vector<char> direct(n * bytes, 0);
        ASSERT_TRUE(tensixEltwise(arch, 0, phases, dest, 1, a.data(), b.data(),
                                  n, direct.data(), true)
                        .ok());
        test::expectSameOnEveryPath(
            [&] {
              return guarded(
                  std::vector<char>(n * bytes, 0x5A),
                  [&](char *table) {
                    EXPECT_TRUE(tensixEltwise(arch, 0, phases, dest, 1,
                                              a.data(), b.data(), n, table,
                                              false)
                                    .ok());
                  },
                  "table");
            },
            std::string("table ") + tensixArchName(arch) + " dest " +
                kTensixDestTable[dest].name + " phases " +
                std::to_string(phases));
        std::vector<char> table(n * bytes);
        ASSERT_TRUE(tensixEltwise(arch, 0, phases, dest, 1, a.data(), b.data(),
                                  n, table.data(), false)
                        .ok());
        size_t bad = 0;
        for (size_t i = 0; i < n; ++i)
          if (std::memcmp(&table[i * bytes], &direct[i * bytes], bytes) &&
              bad++ < 3) {
            uint32_t t = 0, d = 0;
            std::memcpy(&t, &table[i * bytes], bytes);
            std::memcpy(&d, &direct[i * bytes], bytes);
            uint32_t ua, ub;
            std::memcpy(&ua, &a[i], 4);
            std::memcpy(&ub, &b[i], 4);
            ADD_FAILURE() << tensixArchName(arch) << " dest "
                          << kTensixDestTable[dest].name << " phases "
                          << phases << std::hex << ": a=0x" << ua << " b=0x"
                          << ub << ": table 0x" << t << ", direct 0x" << d;
          }
        EXPECT_EQ(bad, 0u);
      }
}

// mul by the specification's steps on lanes (every Src class, Dest kind,
// phase set, architecture, with and without accumulation) on every path,
// on operands with zeros, denormals, the largest exponents, Inf/NaN
// patterns, near cancellations and Dest values near -a*b (Wormhole's -1
// unit), lengths with every tail.
TEST(TensixPaths, DirectMulOnEveryPath) {
  std::mt19937 rng(1217);
  const int pairings[][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {2, 2}};
  for (size_t n : {size_t(4099), size_t(37)}) {
    std::vector<float> a(n), b(n);
    std::vector<uint32_t> dest(n);
    for (size_t i = 0; i < n; ++i) {
      uint32_t x = rng(), y = rng();
      switch (i % 6) {
      case 0: x &= 0x807FFFFF; break;                   // zero or denormal
      case 1: x = (x & 0x80FFFFFF) | 0x7E000000; break; // the top binades
      case 2: x |= 0x7F800000; break;                   // Inf/NaN patterns
      case 3: y = x ^ 0x80000000u; break;               // cancellations
      default: break;
      }
      a[i] = floatOf(x);
      b[i] = floatOf(y);
      float p = -a[i] * b[i];
      std::memcpy(&dest[i], &p, 4);
      if (i % 3)
        dest[i] = rng();
    }
    for (const int *pairing : pairings)
      for (int arch : {0, 1})
        for (unsigned phases : {0x1u, 0x3u, 0x5u, 0x8u, 0xFu})
          for (bool accumulate : {false, true}) {
            const int destKind = pairing[0], src = pairing[1];
            unsigned bytes = destKind == 0 ? 4 : 2;
            std::vector<char> initial(n * bytes);
            for (size_t i = 0; i < n; ++i)
              std::memcpy(&initial[i * bytes], &dest[i], bytes);
            test::expectSameOnEveryPath(
                [&] {
                  return guarded(
                      initial,
                      [&](char *out) {
                        EXPECT_TRUE(tensixEltwise(arch, 0, phases, destKind,
                                                  src, a.data(), b.data(), n,
                                                  out, accumulate)
                                        .ok());
                      },
                      "mul");
                },
                std::string("mul ") + tensixArchName(arch) + " dest " +
                    kTensixDestTable[destKind].name + " src " +
                    kTensixSrcTable[src].name + " phases " +
                    std::to_string(phases) + (accumulate ? " acc" : "") +
                    " n=" + std::to_string(n));
          }
  }
}

/// `a` and `b` float32 inputs whose FP16 Src words are (sign, ea, fa) and
/// (eb, fb), below them bits the unpacker truncates.
float fp16SrcInput(uint32_t sign, uint32_t exponent, uint32_t fraction,
                   uint32_t low) {
  return floatOf(sign << 31 | (exponent + 112) << 23 | fraction << 13 |
                 (low & 0x1FFF));
}

/// mul from a zeroed Dest on every path against the portable path's steps,
/// into both 16-bit Dest kinds: `a`, `b` for every phase set with phase 0.
void expectFromZeroMulOnEveryPath(int src, int destKind,
                                  const std::vector<float> &a,
                                  const std::vector<float> &b,
                                  const std::vector<unsigned> &phaseSets) {
  for (unsigned phases : phaseSets)
    test::expectSameOnEveryPath(
        [&] {
          return guarded(
              std::vector<uint16_t>(a.size(), 0x5A5A),
              [&](uint16_t *out) {
                EXPECT_TRUE(tensixEltwise(0, 0, phases, destKind, src,
                                          a.data(), b.data(), a.size(), out,
                                          false)
                                .ok());
              },
              "mul from zero");
        },
        std::string("mul from zero dest ") + kTensixDestTable[destKind].name +
            " src " + kTensixSrcTable[src].name + " phases " +
            std::to_string(phases));
}

// mul from a zeroed 16-bit Dest (§7 "From a zeroed Dest"): every FP16
// (sign, fa, fb) at exponents 15 and 15 (the sign alternating with the
// fractions), and exponent sums around every phase's bottom (top - w at 0
// and 1) and Dest's top, for FP16 Src into an fp16 Dest and TF32 Src into
// a bf16 Dest.
TEST(TensixPaths, FromZeroMulOnEveryPath) {
  std::vector<float> a, b;
  for (uint32_t index = 0; index < (1u << 21); ++index) {
    uint32_t sign = (index * 0x9E3779B9u) >> 31;
    a.push_back(fp16SrcInput(sign, 15, index >> 11 & 0x3FF, index));
    b.push_back(fp16SrcInput(index >> 10 & 1, 15, index & 0x3FF, ~index));
  }
  expectFromZeroMulOnEveryPath(2, 2, a, b, {0x1, 0x5, 0xF});

  std::mt19937 rng(3312);
  // fp16 Dest: top = ea + eb - 15; phase weights 0, 5, 7, 12; top 31.
  std::vector<int> fp16Sums = {15, 16, 17, 20, 21, 22, 23, 27, 28, 29,
                               30, 45, 46, 47, 48, 62, 1};
  // bf16 Dest: top = ea + eb - 127; top 254.
  std::vector<int> bf16Sums = {127, 128, 132, 133, 134, 135, 139, 140,
                               254, 380, 381, 382, 383, 510, 2};
  for (auto [src, destKind, sums] :
       {std::tuple(2, 2, fp16Sums), std::tuple(0, 1, bf16Sums)}) {
    size_t n = 1u << 16 | 11;
    a.resize(n);
    b.resize(n);
    int maxExponent = src == 2 ? 31 : 255;
    for (size_t i = 0; i < n; ++i) {
      int sum = sums[i % sums.size()] + int(rng() % 3) - 1;
      int ea = int(rng() % uint32_t(maxExponent + 1));
      int eb = std::clamp(sum - ea, 0, maxExponent);
      ea = std::clamp(sum - eb, 0, maxExponent);
      uint32_t x = rng(), y = rng();
      if (src == 2) {
        a[i] = fp16SrcInput(x >> 31, uint32_t(ea), x & 0x3FF, x >> 10);
        b[i] = fp16SrcInput(y >> 31, uint32_t(eb), y & 0x3FF, y >> 10);
      } else {
        a[i] = floatOf((x & 0x807FFFFF) | uint32_t(ea) << 23);
        b[i] = floatOf((y & 0x807FFFFF) | uint32_t(eb) << 23);
      }
    }
    expectFromZeroMulOnEveryPath(src, destKind, a, b,
                                 {0x1, 0x3, 0x5, 0x7, 0x9, 0xB, 0xD, 0xF});
  }
}

// matmul_tiles on every path: every Src pairing and Dest kind, phase sets,
// both architectures, with and without accumulation; operands with zeros,
// denormals, the top binades, values near 1 and exact cancellations (in0's
// second K half the negation of its first) so that groups realign Dest.
TEST(TensixPaths, MatmulOnEveryPath) {
  std::mt19937 rng(6120);
  const int triples[][3] = {{0, 0, 0}, {0, 1, 1}, {0, 0, 1}, {0, 1, 0},
                            {0, 2, 2}, {1, 1, 1}, {1, 0, 1}, {2, 2, 2}};
  const size_t m = 32, k = 64, n = 64;
  for (const int *triple : triples)
    for (unsigned phases : {0x1u, 0x5u, 0xFu})
      for (int arch : {0, 1}) {
        const int destKind = triple[0], in0Src = triple[1], in1Src = triple[2];
        std::vector<float> in0(m * k), in1(k * n);
        auto operand = [&](int src) {
          uint32_t x = rng();
          switch (rng() % 6) {
          case 0: x &= 0x807FFFFF; break;
          case 1: x = (x & 0x80FFFFFF) | 0x7E000000; break;
          case 2: x = (x & 0x807FFFFF) | 0x3F800000; break;
          default: break;
          }
          if (src == 2)
            x = (x & 0x807FFFFF) | ((x >> 23 & 0xFF) % 34 + 110) << 23;
          return floatOf(x);
        };
        // Exponent e (biased 8-bit) for a value reaching Src exactly.
        auto withExponent = [](float v, uint32_t e) {
          uint32_t x;
          std::memcpy(&x, &v, 4);
          return floatOf((x & 0x807FFFFF) | e << 23);
        };
        for (size_t i = 0; i < m * k; ++i)
          in0[i] = operand(in0Src);
        for (size_t i = 0; i < m; ++i)
          for (size_t kk = 0; kk < 32; ++kk) {
            float &v = in0[i * k + kk];
            if (i % 4 == 0) // cancelling rows: the second K half negated
              in0[i * k + 32 + kk] = -v;
            else if (i % 4 == 1 && in0Src != 2) // groups whose top is 0
              v = withExponent(v, 1 + rng() % 4);
          }
        for (size_t i = 3; i < m; i += 4) // only zero groups: Dest realigned
          for (size_t kk = 0; kk < k; ++kk)
            in0[i * k + kk] = 0.0f;
        for (size_t i = 1; i < m && in0Src != 2; i += 4) // tops near 0
          for (size_t kk = 32; kk < k; ++kk)
            in0[i * k + kk] = withExponent(in0[i * k + kk], 1 + rng() % 4);
        for (size_t i = 0; i < k * n; ++i)
          in1[i] = operand(in1Src);
        for (size_t kk = 0; kk < 32; ++kk)
          for (size_t j = 0; j < n; ++j) {
            in1[(32 + kk) * n + j] = in1[kk * n + j];
            if (j < 16 && in1Src != 2) // both K tiles
              in1[(32 + kk) * n + j] = in1[kk * n + j] =
                  withExponent(in1[kk * n + j], 123);
          }
        // Dest values of every size, small ones below a zero group's
        // exponent (max(rebias, 0): 85-97 for FP16 into a 32-bit Dest).
        unsigned bytes = destKind == 0 ? 4 : 2;
        std::vector<char> initial(m * n * bytes);
        for (size_t i = 0; i < m * n; ++i) {
          uint32_t v = rng();
          if (i % 3 == 0) // below a zero group's exponent
            v = (v & 0x807FFFFF) | uint32_t(rng() % 96) << 23;
          else if (i % 3 == 1) // within a few binades of 0
            v = (v & 0x807FFFFF) | uint32_t(rng() % 8) << 23;
          std::memcpy(&initial[i * bytes], &v, bytes);
        }
        for (bool accumulate : {false, true})
          test::expectSameOnEveryPath(
              [&] {
                return guarded(
                    initial,
                    [&](char *out) {
                      EXPECT_TRUE(tensixMatmul(arch, phases, destKind, in0Src,
                                               in1Src, in0.data(), in1.data(),
                                               m, k, n, out, accumulate)
                                      .ok());
                    },
                    "matmul");
              },
              std::string("matmul ") + tensixArchName(arch) + " dest " +
                  kTensixDestTable[destKind].name + " in0 " +
                  kTensixSrcTable[in0Src].name + " in1 " +
                  kTensixSrcTable[in1Src].name + " phases " +
                  std::to_string(phases) + (accumulate ? " acc" : ""));
      }
}

// The packer's loops on every path, lengths with every tail, with and
// without L1 accumulation, on every 16-bit pattern and random fp32 words.
TEST(TensixPaths, PackOnEveryPath) {
  std::mt19937 rng(2283);
  size_t count = 0;
  const TensixPackPath *paths = tensixPackPaths(count);
  for (size_t p = 0; p < count; ++p) {
    const TensixPackPath &path = paths[p];
    unsigned inBytes = kTensixDestTable[int(path.dest)].storageBytes;
    unsigned outBytes = lookupDtype(path.outDtype)->bytes;
    for (size_t n : {size_t(65536 + 13), size_t(7), size_t(1) << 18}) {
      std::vector<char> in(n * inBytes), l1(n * outBytes);
      for (size_t i = 0; i < n; ++i) {
        uint32_t v = inBytes == 4 ? rng() : uint32_t(i & 0xFFFF);
        std::memcpy(&in[i * inBytes], &v, inBytes);
        uint32_t w = rng();
        std::memcpy(&l1[i * outBytes], &w, outBytes);
      }
      int arch = path.arches & 1 ? 0 : 1;
      for (bool accumulate : {false, true})
        test::expectSameOnEveryPath(
            [&] {
              return guarded(
                  l1,
                  [&](char *out) {
                    EXPECT_TRUE(tensixPack(arch, int(path.dest), in.data(), n,
                                           path.outDtype, out, accumulate)
                                    .ok());
                  },
                  "pack");
            },
            std::string("pack ") + kTensixDestTable[int(path.dest)].name +
                " to " + std::to_string(path.outDtype) +
                (accumulate ? " l1" : "") + " n=" + std::to_string(n));
    }
  }
}

// Issue 64: a NaN in L1 in the last, masked step sent that step to the
// scalar redo as a whole vector on AVX-512, writing past the output. Every
// 16-bit L1 output at the counts of the report, L1 NaN at the last element
// (and at the only one), between guard bytes, against the portable path.
TEST(TensixPaths, PackL1NaNInTheLastStepStaysInTheOutput) {
  std::mt19937 rng(64);
  size_t count = 0;
  const TensixPackPath *paths = tensixPackPaths(count);
  for (size_t p = 0; p < count; ++p) {
    const TensixPackPath &path = paths[p];
    unsigned inBytes = kTensixDestTable[int(path.dest)].storageBytes;
    unsigned outBytes = lookupDtype(path.outDtype)->bytes;
    if (outBytes != 2)
      continue;
    for (size_t n : {1, 17, 33, 63, 65, 100, 200, 257}) {
      std::vector<char> in(n * inBytes);
      std::vector<uint16_t> l1(n);
      for (size_t i = 0; i < n; ++i) {
        uint32_t v = 0x3F800000 | (rng() & 0x807FFFFF); // +-[1, 2)
        if (inBytes == 2)
          v = path.dest == TensixDest::fp16 ? 0x3C00 | (v & 0x83FF)
                                            : v >> 16;
        std::memcpy(&in[i * inBytes], &v, inBytes);
        l1[i] = uint16_t(0x3F80 | (rng() & 0x807F));
      }
      l1[n - 1] = 0x7FC0;
      int arch = path.arches & 1 ? 0 : 1;
      test::expectSameOnEveryPath(
          [&] {
            return guarded(
                l1,
                [&](uint16_t *out) {
                  EXPECT_TRUE(tensixPack(arch, int(path.dest), in.data(), n,
                                         path.outDtype, out, true)
                                  .ok());
                },
                std::string("l1 NaN at the tail, ") + core::isaName(activeIsa()) +
                    " n=" + std::to_string(n));
          },
          std::string("l1 NaN at the tail ") +
              kTensixDestTable[int(path.dest)].name + " to " +
              std::to_string(path.outDtype) + " n=" + std::to_string(n));
    }
  }
}

// L1 accumulation into bfloat16 and float16 on every path: every 16-bit
// Dest value against 64 L1 values (edges, exponents near the value's for
// the float32 sum's rounding, random), through each 16-bit path.
TEST(TensixPaths, L1AccumulationEveryValueOnEveryPath) {
  std::mt19937 rng(1924);
  struct Case {
    int dest, outDtype;
  } cases[] = {{1, int(Dtype::bfloat16)}, {2, int(Dtype::float16)},
               {2, int(Dtype::bfloat16)}};
  for (Case c : cases) {
    std::vector<uint16_t> l1s = {0x0000, 0x8000, 0x0001, 0x7F80, 0xFF80,
                                 0x7FC0, 0xFFC1, 0x7FFF, 0xFFFF, 0x7BFF,
                                 0x0400, 0x8400, 0x3C00, 0xBC00, 0x3F80,
                                 0xBF80, 0x7F7F, 0xFF7F, 0x0080, 0x8080};
    while (l1s.size() < 64)
      l1s.push_back(uint16_t(rng()));
    size_t n = l1s.size() << 16;
    std::vector<uint16_t> in(n), l1(n);
    for (size_t i = 0; i < n; ++i) {
      in[i] = uint16_t(i);
      // Half the L1 values near the Dest value: exponents 0-20 apart.
      l1[i] = i >> 16 < 20 || (i >> 16) % 2 ? l1s[i >> 16]
                                           : uint16_t(in[i] ^ (rng() & 0x8FFF));
    }
    test::expectSameOnEveryPath(
        [&] {
          return guarded(
              l1,
              [&](uint16_t *out) {
                EXPECT_TRUE(
                    tensixPack(0, c.dest, in.data(), n, c.outDtype, out, true)
                        .ok());
              },
              "l1");
        },
        std::string("l1 ") + kTensixDestTable[c.dest].name + " to " +
            std::to_string(c.outDtype));
  }
}

} // namespace
