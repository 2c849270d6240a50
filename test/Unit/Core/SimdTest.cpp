//===- SimdTest.cpp - every vector path against the portable path ---------===//
//
// The portable integer path is the reference (docs/Semantics.md section 2):
// each bulk entry point runs on every path this CPU has, on whole buffers so
// that the vector loops (not only their scalar tails) are exercised, and
// must give the same bytes. BIRSIM_LONG_TESTS=1 (./utils/test.sh --long)
// widens the sweeps to every bf16/fp16 pair (BIRSIM_PAIR_PARTNERS=<b>:<e>:
// those with the partners [b, e)) and 10^8 random fp32 values;
// BIRSIM_EMULATED_SWEEPS=1 narrows the random and bf16/fp16 sweeps for a run
// under an instruction-set emulator (utils/avx512-emulated.sh).
//
//===----------------------------------------------------------------------===//
#include "BfpLayout.h" // lib/Core, private
#include "DtypeRows.h"
#include "Kernels/Kernels.h" // lib/Core, private
#include "ParallelFor.h"
#include "Paths.h"
#include "birsim/Core/Bfp.h"
#include "birsim/Core/BfpMixed.h"
#include "birsim/Core/Cast.h"
#include "birsim/Core/DmaCompute.h"
#include "birsim/Core/Fidelity.h"
#include "birsim/Core/Float.h"
#include "birsim/Core/Reduce.h"
#include "birsim/Core/Threads.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <atomic>
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>
#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

using namespace birsim::core;

namespace {

using Bytes = std::vector<unsigned char>;

bool flagSet(const char *name) {
  const char *v = std::getenv(name);
  return v && *v && *v != '0';
}
bool longMode() { return flagSet("BIRSIM_LONG_TESTS"); }

/// A sweep's size: the default suite's, the long mode's, the emulated
/// run's (an emulator runs each instruction some 50-500x slower), or the
/// emulated long pass's (both flags; the long mode's size unless given).
size_t sweepSize(size_t normal, size_t longRun, size_t emulated,
                 size_t emulatedLong = 0) {
  bool emulatedRun = flagSet("BIRSIM_EMULATED_SWEEPS");
  if (longMode())
    return emulatedRun && emulatedLong ? emulatedLong : longRun;
  return emulatedRun ? emulated : normal;
}

/// n seeded random bytes.
Bytes randomBytesOf(std::mt19937_64 &rng, size_t n) {
  Bytes b(n);
  for (unsigned char &c : b)
    c = (unsigned char)rng();
  return b;
}

using birsim::test::everyPath;
using birsim::test::PathGuard;
using birsim::test::expectSameOnEveryPath;

/// More than 2,000 fp32 values of every class, both signs: zeros,
/// subnormals, normals of every exponent, ±Inf, quiet and signalling NaNs
/// with payloads, and mantissas at the rounding points of bf16, fp16 and the
/// fp8 formats (ties and their neighbours).
std::vector<uint32_t> specialF32() {
  const uint32_t mantissas[] = {0,        1,        2,        0x7FFFFF, 0x400000,
                                0x400001, 0x3FFFFF, 0x8000,   0x18000,  0x7FFF,
                                0x1000,   0x3000,   0xFFF,    0x80000,  0x180000,
                                0x100000, 0x200000, 0x300000, 0x7FF000, 0x12345};
  std::vector<uint32_t> values;
  for (uint32_t sign : {0u, 0x80000000u})
    for (uint32_t exponent = 0; exponent < 256; ++exponent)
      for (uint32_t mantissa : mantissas)
        values.push_back(sign | exponent << 23 | mantissa);
  return values;
}

/// Seeded random fp32 bits, drawn in slices: the long sweeps' 10^8 values
/// go through in slices of kRandomSlice, so that they fit an emulated
/// machine's 2 GB; the values are the same however they are sliced.
class RandomF32 {
public:
  explicit RandomF32(uint64_t seed) : rng(seed) {}
  std::vector<uint32_t> next(size_t n) {
    std::vector<uint32_t> v(n);
    for (uint32_t &x : v)
      x = uint32_t(rng());
    return v;
  }

private:
  std::mt19937_64 rng;
};
constexpr size_t kRandomSlice = 10000000;

/// Calls fn(first, n) for each slice of `total` random values, kRandomSlice
/// at a time, until a check has failed.
template <typename Fn> void forEachRandomSlice(size_t total, Fn fn) {
  for (size_t first = 0; first < total && !::testing::Test::HasFailure();
       first += kRandomSlice)
    fn(first, std::min(kRandomSlice, total - first));
}

std::vector<uint32_t> randomF32(size_t n, uint64_t seed) {
  return RandomF32(seed).next(n);
}

template <typename T> Bytes asBytes(const std::vector<T> &v) {
  Bytes b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

Bytes accumulated(int op, int dtype, Bytes dst, const Bytes &src) {
  size_t bytes = lookupDtype(dtype)->bytes;
  EXPECT_TRUE(accumulate(op, dst.data(), src.data(), dtype, dst.size() / bytes)
                  .ok());
  return dst;
}

std::vector<int> numbersOf(const std::vector<Dtype> &dtypes) {
  std::vector<int> numbers;
  for (Dtype d : dtypes)
    numbers.push_back(int(d));
  return numbers;
}
const std::vector<int> kNarrowFloats = numbersOf(birsim::test::narrowFloats());
const std::vector<Dtype> kReducing = birsim::test::dtypesWhere(
    [](const DtypeInfo &d) { return d.reduces(); });
const std::vector<int> kReducingFp8 =
    numbersOf(birsim::test::reducingAs(Reduction::Fp8));

/// BIRSIM_EXPECT_ISA=<name> (set by utils/avx512-emulated.sh) fails the run
/// unless this CPU's best path is that one, so that a run meant for a path
/// cannot pass on a lesser one.
/// BIRSIM_ISA=<name> selects that path where the CPU has it, else the best
/// below it (every-isa-path.test runs this with each name).
TEST(VectorPath, IsaNameSelectsThatPath) {
  const char *requested = std::getenv("BIRSIM_ISA");
  if (!requested || !*requested)
    GTEST_SKIP() << "BIRSIM_ISA is not set";
  Isa want = bestIsa();
  for (int isa = 0; isa < int(Isa::kCount); ++isa)
    if (std::string(requested) == isaName(Isa(isa)))
      want = resolveIsa(Isa(isa));
  // Where the CPU has the path, that path itself.
  for (int isa = 0; isa < int(Isa::kCount); ++isa)
    if (std::string(requested) == isaName(Isa(isa)) &&
        availableIsas().has(Isa(isa)))
      EXPECT_EQ(want, Isa(isa));
  EXPECT_STREQ(isaName(activeIsa()), isaName(want)) << "BIRSIM_ISA=" << requested;
  EXPECT_EQ(&activeKernels(), kernelsOf(want));
  EXPECT_EQ(&activeKernels() == &portableKernels(), want == Isa::portable);
}

/// The fp8 add through fp16 is chosen only where fp8AddFitsHalf holds: one-
/// byte IEEE formats outside its proof (E6M1, whose shift to fp16 wraps;
/// E2M5) take the general loop on every vector path, and the portable
/// path's fallback for a format no dtype has, and give the scalar
/// widen-ADDSS-narrow bits on every pair; E4M3 and E5M2 are the controls.
TEST(VectorPath, Fp8AddOutsideTheHalfTrickFallsBack) {
  const FloatFormat formats[] = {
      {6, 1, 31, FloatNonFinite::IEEE, FloatNanEncoding::IEEE, 0x7E, false},
      {2, 5, 1, FloatNonFinite::IEEE, FloatNanEncoding::IEEE, 0x70, false},
      *dtypeInfo(Dtype::float8e4).format,
      *dtypeInfo(Dtype::float8e5).format,
  };
  EXPECT_FALSE(fp8AddFitsHalf(formats[0]));
  EXPECT_FALSE(fp8AddFitsHalf(formats[1]));
  EXPECT_TRUE(fp8AddFitsHalf(formats[2]));
  EXPECT_TRUE(fp8AddFitsHalf(formats[3]));
  EXPECT_FALSE(fp8AddFitsHalf(*dtypeInfo(Dtype::float8_e4m3fn).format));
  EXPECT_FALSE(fp8AddFitsHalf(*dtypeInfo(Dtype::bfloat16).format));
  Bytes acc0(65536), x(65536);
  for (unsigned i = 0; i < 65536; ++i) {
    acc0[i] = uint8_t(i >> 8);
    x[i] = uint8_t(i);
  }
  for (const FloatFormat &f : formats) {
    Bytes want(65536);
    for (unsigned i = 0; i < 65536; ++i)
      want[i] = uint8_t(narrowFromF32(
          f, addss(widenToF32(f, acc0[i]), widenToF32(f, x[i])), 0));
    for (Isa isa : everyPath()) {
      const PathKernels &k = *kernelsOf(isa);
      Bytes acc = acc0;
      k.reduceNarrow(f, 1, F32Op::kernelAdd, acc.data(), x.data(), 65536);
      for (unsigned i = 0; i < 65536; ++i)
        ASSERT_EQ(acc[i], want[i])
            << "E" << int(f.exponentBits) << "M" << int(f.mantissaBits)
            << " on " << isaName(isa) << ": " << (i >> 8) << " + " << (i & 255);
    }
  }
}

/// countFp8AddOverflows reads "finite" from the format: below Inf (IEEE) or
/// below the one NaN code (e4m3fn, which has no Inf).
TEST(VectorPath, Fp8AddOverflowCountReadsTheFormat) {
  const FloatFormat &fn = *dtypeInfo(Dtype::float8_e4m3fn).format;
  Bytes acc(256 * 3), x(256 * 3), result(256 * 3);
  uint64_t want = 0;
  for (unsigned i = 0; i < acc.size(); ++i) {
    acc[i] = uint8_t(i * 7), x[i] = uint8_t(i * 13), result[i] = uint8_t(i);
    auto finite = [](uint8_t c) { return (c & 0x7F) != 0x7F; };
    want += finite(acc[i]) && finite(x[i]) && !finite(result[i]);
  }
  EXPECT_GT(want, 0u);
  EXPECT_EQ(countFp8AddOverflows(fn, acc.data(), x.data(), result.data(),
                                 acc.size()),
            want);
}

TEST(VectorPath, BestPathIsTheExpectedOne) {
  const char *expected = std::getenv("BIRSIM_EXPECT_ISA");
  if (!expected || !*expected)
    GTEST_SKIP() << "BIRSIM_EXPECT_ISA is not set";
  EXPECT_STREQ(isaName(bestIsa()), expected);
}

/// Every fp8 pair, then 31 more so that the scalar tail after the last
/// whole vector step runs too.
TEST(VectorPath, EveryFp8PairEveryOp) {
  Bytes dst(65536 + 31), src(65536 + 31);
  for (size_t i = 0; i < dst.size(); ++i) {
    dst[i] = uint8_t((i * 0x9E37u) >> 8);
    src[i] = uint8_t(i * 0x9E37u);
  }
  for (int dtype : kReducingFp8)
    for (int op = 1; op <= 3; ++op)
      expectSameOnEveryPath(
          [&] { return accumulated(op, dtype, dst, src); },
          std::string(lookupDtype(dtype)->name) + " op " + std::to_string(op));
}

/// int32 and int64 add/min/max: every pair of the edge values (the extremes,
/// 0, ±1, values one step from a sign change of the difference), then 10^6
/// random pairs; odd lengths reach the scalar tails.
TEST(VectorPath, IntegerPairs) {
  for (Dtype integer : {Dtype::int32, Dtype::int64}) {
    int dtype = int(integer), bits = 8 * lookupDtype(dtype)->bytes;
    uint64_t top = uint64_t(1) << (bits - 1), all = top | (top - 1);
    std::vector<uint64_t> edges = {0,       1,         all,     top,
                                   top - 1, top + 1,   all - 1, top >> 1,
                                   (top >> 1) + 1, all - (top >> 1)};
    std::vector<uint64_t> a, b;
    for (uint64_t x : edges)
      for (uint64_t y : edges) {
        a.push_back(x);
        b.push_back(y);
      }
    std::mt19937_64 rng(11);
    for (size_t k = 0, n = sweepSize(1000003, 1000003, 20003); k < n; ++k) {
      a.push_back(rng() & all);
      b.push_back(rng() & all);
    }
    auto pack = [&](const std::vector<uint64_t> &v) {
      Bytes out(v.size() * bits / 8);
      for (size_t i = 0; i < v.size(); ++i)
        std::memcpy(&out[i * bits / 8], &v[i], bits / 8);
      return out;
    };
    for (int op = 1; op <= 3; ++op)
      expectSameOnEveryPath(
          [&] { return accumulated(op, dtype, pack(a), pack(b)); },
          std::string(lookupDtype(dtype)->name) + " op " + std::to_string(op));
  }
}

/// The partners [begin, end) of BIRSIM_PAIR_PARTNERS=<begin>:<end> (long
/// mode; utils/avx512-emulated.sh --all-pairs splits the 65,536 partners
/// between emulators), or all of them.
std::pair<unsigned, unsigned> partnerRange() {
  const char *range = std::getenv("BIRSIM_PAIR_PARTNERS");
  unsigned begin = 0, end = 65536;
  if (longMode() && range && *range) {
    EXPECT_EQ(std::sscanf(range, "%u:%u", &begin, &end), 2)
        << "BIRSIM_PAIR_PARTNERS=" << range << ": expected <begin>:<end>";
    EXPECT_TRUE(begin < end && end <= 65536 && begin % 256 == 0 &&
                end % 256 == 0)
        << "BIRSIM_PAIR_PARTNERS=" << range
        << ": expected multiples of 256 within 0:65536";
  }
  return {begin, end};
}

/// Every bf16/fp16 value against `partners` source values per chunk of
/// 2^24 pairs (and 13 more); in long mode every pair (2^32, or the partners
/// BIRSIM_PAIR_PARTNERS names), in the emulated long pass 4,096 partners
/// (2^28 pairs, a 1/16 sample).
TEST(VectorPath, Bf16Fp16Pairs) {
  unsigned partners = unsigned(sweepSize(256, 65536, 16, 4096));
  auto [begin, end] =
      partners == 65536 ? partnerRange() : std::make_pair(0u, partners);
  if (HasFailure())
    return;
  const unsigned partnersPerChunk = std::min(256u, partners);
  const size_t pairsPerChunk = size_t(partnersPerChunk) * 65536;
  // Every value once per partner, the same in every chunk; then 13 more, so
  // that the last vector step is partial (a scalar tail on AVX2, a masked
  // step on AVX-512).
  std::vector<uint16_t> dst(pairsPerChunk + 13), src(pairsPerChunk + 13);
  for (size_t i = 0; i < pairsPerChunk; ++i)
    dst[i] = uint16_t(i);
  for (unsigned k = 0; k < 13; ++k) {
    dst[pairsPerChunk + k] = uint16_t(0x3C01 + 0x1111 * k);
    src[pairsPerChunk + k] = uint16_t(0x8001 + 0x0F0F * k);
  }
  Bytes dstBytes = asBytes(dst);
  for (unsigned first = begin; first < end; first += partnersPerChunk) {
    for (unsigned p = first; p < first + partnersPerChunk; ++p) {
      // In the shorter sweeps, partners spread over all 65,536 values.
      uint16_t partner =
          uint16_t(partners == 65536 ? p : p * (65536 / partners + 1) + 91);
      std::fill_n(src.begin() + size_t(p - first) * 65536, 65536, partner);
    }
    Bytes srcBytes = asBytes(src);
    for (int dtype : {int(Dtype::bfloat16), int(Dtype::float16)})
      for (int op = 1; op <= 3; ++op) {
        expectSameOnEveryPath(
            [&] { return accumulated(op, dtype, dstBytes, srcBytes); },
            std::string(lookupDtype(dtype)->name) + " op " +
                std::to_string(op) + " partners from " + std::to_string(first));
        if (HasFailure())
          return;
      }
  }
}

Bytes collectiveReduced(int aluOp, Bytes acc, const Bytes &x) {
  EXPECT_TRUE(collectiveReduce(aluOp, acc.data(), x.data(), acc.size() / 4).ok());
  return acc;
}

/// fp32 reduce and the collective reducer: every pair of the special values
/// (operand order matters for NaNs), then 10^7 (long: 10^8) random pairs.
/// Emulated: each special value with every 16th, and 2 x 10^5 random pairs.
TEST(VectorPath, Float32SpecialCrossAndRandomPairs) {
  std::vector<uint32_t> specials = specialF32();
  ASSERT_GE(specials.size(), 2000u);
  auto compare = [](const std::vector<uint32_t> &x,
                    const std::vector<uint32_t> &y, const std::string &what) {
    Bytes dst = asBytes(x), src = asBytes(y);
    for (int op = 1; op <= 3; ++op)
      expectSameOnEveryPath(
          [&] { return accumulated(op, int(Dtype::float32), dst, src); },
          "float32 op " + std::to_string(op) + what);
    for (int aluOp : {int(AluOpType::add), int(AluOpType::max),
                      int(AluOpType::min)})
      expectSameOnEveryPath([&] { return collectiveReduced(aluOp, dst, src); },
                            "collective " + std::to_string(aluOp) + what);
  };
  // The cross product in slices of 1,024 partners (10^7 pairs each), so
  // that it fits an emulated machine's memory.
  const size_t partnersPerSlice = 1024;
  size_t stride = sweepSize(1, 1, 16); // emulated: every 16th partner
  for (size_t first = 0; first < specials.size(); first += partnersPerSlice) {
    size_t last = std::min(specials.size(), first + partnersPerSlice);
    std::vector<uint32_t> a, b;
    for (uint32_t x : specials)
      for (size_t j = first; j < last; j += stride) {
        a.push_back(x);
        b.push_back(specials[j]);
      }
    // 7 more: a partial last vector step.
    a.insert(a.end(), specials.begin(), specials.begin() + 7);
    b.insert(b.end(), specials.end() - 7, specials.end());
    compare(a, b, ", specials");
    if (HasFailure())
      return;
  }
  size_t randomCount = sweepSize(10000000, 100000000, 200000);
  RandomF32 x(1), y(2);
  forEachRandomSlice(randomCount, [&](size_t first, size_t n) {
    compare(x.next(n), y.next(n),
            ", random pairs from " + std::to_string(first));
  });
}

Bytes cast(int from, int to, const Bytes &in, unsigned config) {
  size_t count = in.size() / lookupDtype(from)->bytes;
  Bytes out(count * lookupDtype(to)->bytes);
  EXPECT_TRUE(castBuffer(from, in.data(), to, out.data(), count, config).ok());
  return out;
}

/// Every length from 0 to past two of the widest vector, at aligned and
/// unaligned addresses: each path's whole steps and tail (scalar or masked,
/// Elementwise.h) give the portable bytes and write nothing past the end (the
/// guard bytes after `dst` are compared too); the sources are exactly
/// sized, so a read past the end is a heap overflow under --sanitize. On an
/// emulated CPU fp16 add is left out: Bochs' VCVTPS2PH rounds ties away
/// (docs/Testing.md), which a scalar tail on another path does not.
TEST(VectorPath, EveryTailLengthAndAlignment) {
  bool emulated = flagSet("BIRSIM_EMULATED_SWEEPS") ||
                  std::getenv("BIRSIM_REFERENCE_ISA");
  constexpr size_t kGuard = 64, kMaxCount = 2 * 64 + 5;
  std::mt19937_64 rng(11);
  auto randomBytes = [&](size_t n) { return randomBytesOf(rng, n); };
  // `dst` at `offset` inside offset + size + kGuard bytes; the whole buffer
  // after fn(dst) comes back.
  auto withGuard = [&](size_t offset, const Bytes &dst, auto fn) {
    Bytes buffer(offset + dst.size() + kGuard, 0x5A);
    std::copy(dst.begin(), dst.end(), buffer.begin() + offset);
    fn(buffer.data() + offset);
    return buffer;
  };
  auto atOffset = [](size_t offset, const Bytes &src) {
    auto copy = std::make_unique<unsigned char[]>(offset + src.size());
    std::copy(src.begin(), src.end(), copy.get() + offset);
    return copy;
  };
  for (size_t offset : {0, 1, 3})
    for (size_t n = 0; n <= kMaxCount; ++n) {
      std::string where = " of " + std::to_string(n) + " at offset " +
                          std::to_string(offset);
      for (Dtype reducing : kReducing) {
        int d = int(reducing);
        const DtypeInfo &row = dtypeInfo(reducing);
        Bytes dst = randomBytes(n * row.bytes), src = randomBytes(n * row.bytes);
        auto x = atOffset(offset, src);
        for (int op : {1, 2, 3})
          if (!(emulated && reducing == Dtype::float16 && op == 1))
            expectSameOnEveryPath(
                [&] {
                  return withGuard(offset, dst, [&](unsigned char *p) {
                    EXPECT_TRUE(accumulate(op, p, x.get() + offset, d, n).ok());
                  });
                },
                std::string("accumulate ") + memoryReductionOpName(op) + " " +
                    row.name + where);
      }
      for (int to : kNarrowFloats) {
        Bytes f32 = randomBytes(4 * n), code = randomBytes(n * lookupDtype(to)->bytes);
        auto in = atOffset(offset, f32), back = atOffset(offset, code);
        expectSameOnEveryPath(
            [&] {
              return withGuard(offset, code, [&](unsigned char *p) {
                EXPECT_TRUE(castBuffer(int(Dtype::float32), in.get() + offset,
                                       to, p, n, 1)
                                .ok());
              });
            },
            std::string("cast float32 -> ") + lookupDtype(to)->name + where);
        expectSameOnEveryPath(
            [&] {
              return withGuard(offset, f32, [&](unsigned char *p) {
                EXPECT_TRUE(castBuffer(to, back.get() + offset,
                                       int(Dtype::float32), p, n, 0)
                                .ok());
              });
            },
            std::string("cast ") + lookupDtype(to)->name + " -> float32" + where);
      }
    }
}

/// accumulateInto(out, dst, src) equals accumulate on a copy of dst, on
/// every path, for every reducing dtype and op, lengths across its steps'
/// and the threads' boundaries, out at odd offsets between guard bytes, out
/// being src itself, and with the fp8 add's fidelity counts; dst and src
/// are never written.
TEST(VectorPath, AccumulateIntoEqualsAccumulateOnACopy) {
  PathGuard guard;
  setNumThreads(2);
  constexpr size_t kGuard = 64;
  std::mt19937_64 rng(23);
  auto randomBytes = [&](size_t n) { return randomBytesOf(rng, n); };
  for (size_t n : {size_t(0), size_t(1), size_t(67), size_t(8193),
                   size_t(40000), (size_t(1) << 19) + 7})
    for (Dtype reducing : kReducing) {
      int d = int(reducing);
      const DtypeInfo &row = dtypeInfo(reducing);
      Bytes dst = randomBytes(n * row.bytes), src = randomBytes(n * row.bytes);
      const Bytes dstBefore = dst, srcBefore = src;
      for (int op : {0, 1, 2, 3}) {
        std::string what = std::string("accumulateInto ") +
                           memoryReductionOpName(op) + " " + row.name + " of " +
                           std::to_string(n);
        auto countsOf = [](Bytes out, const FidelityCounts &counts) {
          const auto *raw = reinterpret_cast<const unsigned char *>(&counts);
          out.insert(out.end(), raw, raw + sizeof counts);
          return out;
        };
        auto inPlace = [&] {
          Bytes out = dst;
          FidelityCounts counts;
          EXPECT_TRUE(accumulate(op, out.data(), src.data(), d, n, &counts).ok());
          return countsOf(out, counts);
        };
        auto into = [&](size_t offset) {
          Bytes buffer(offset + n * row.bytes + kGuard, 0xA5);
          FidelityCounts counts;
          EXPECT_TRUE(accumulateInto(op, buffer.data() + offset, dst.data(),
                                     src.data(), d, n, &counts)
                          .ok());
          for (size_t i = 0; i < offset; ++i)
            EXPECT_EQ(buffer[i], 0xA5) << what << ": guard before";
          for (size_t i = offset + n * row.bytes; i < buffer.size(); ++i)
            EXPECT_EQ(buffer[i], 0xA5) << what << ": guard after";
          return countsOf(Bytes(buffer.begin() + offset,
                                buffer.begin() + offset + n * row.bytes),
                          counts);
        };
        auto intoSrc = [&] { // out is src itself: read before it is written
          Bytes out = src;
          FidelityCounts counts;
          EXPECT_TRUE(accumulateInto(op, out.data(), dst.data(), out.data(), d,
                                     n, &counts)
                          .ok());
          return countsOf(out, counts);
        };
        for (Isa isa : everyPath()) {
          selectIsa(isa);
          Bytes want = inPlace();
          EXPECT_EQ(into(0), want) << what << " on " << isaName(isa);
          EXPECT_EQ(into(3), want) << what << " at offset 3 on " << isaName(isa);
          EXPECT_EQ(intoSrc(), want) << what << " into src on " << isaName(isa);
        }
        EXPECT_EQ(dst, dstBefore) << what;
        EXPECT_EQ(src, srcBefore) << what;
      }
    }
}

/// fp32 -> every narrow float under the four FP8 configs, on every value
/// class and 10^6 (long: 10^8) random values; and every narrow value back.
TEST(VectorPath, CastsBetweenF32AndNarrowFloats) {
  // The special values, then the random ones, in slices (RandomF32).
  size_t randomCount = sweepSize(1000000, 100000000, 100000);
  RandomF32 random(3);
  forEachRandomSlice(randomCount, [&](size_t first, size_t n) {
    std::vector<uint32_t> values =
        first ? std::vector<uint32_t>() : specialF32();
    std::vector<uint32_t> slice = random.next(n);
    values.insert(values.end(), slice.begin(), slice.end());
    Bytes in = asBytes(values);
    for (int to : kNarrowFloats)
      for (unsigned config : {0x0000u, 0x0001u, 0xFF00u, 0xFF01u})
        expectSameOnEveryPath(
            [&] { return cast(int(Dtype::float32), to, in, config); },
            std::string("float32 -> ") + lookupDtype(to)->name + " config " +
                std::to_string(config) + ", random values from " +
                std::to_string(first));
  });
  for (int from : kNarrowFloats) {
    unsigned bytes = lookupDtype(from)->bytes;
    Bytes every(size_t(1) << (8 * bytes) << bytes);
    for (size_t v = 0; v < every.size() / bytes; ++v)
      std::memcpy(every.data() + v * bytes, &v, bytes);
    expectSameOnEveryPath(
        [&] { return cast(from, int(Dtype::float32), every, 0); },
        std::string(lookupDtype(from)->name) + " -> float32");
  }
}

/// Tiles whose 16-value blocks (half rows) are random bits, a mix of value
/// classes (zeros, subnormals, Inf/NaN, small values), exact ties at every
/// format's magnitude bits with odd and even magnitudes under a shared
/// exponent of 127, or values (and ties, and subnormals) up to two
/// binades, or eight, below a shared exponent at an edge: near the
/// subnormals (2, 22 to 25), below Inf (254), or where "a" formats' 5-bit
/// exponents start (113 to 121, values below 2^-15 among them).
std::vector<uint32_t> bfpTiles(size_t tiles, uint64_t seed) {
  static const uint32_t kEdges[] = {2,   22,  23,  24,  25,  254, 113, 114,
                                    115, 116, 117, 118, 119, 120, 121};
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> v(tiles * kBfpTileValues);
  for (size_t block = 0; block < v.size() / 16; ++block) {
    unsigned mode = unsigned(rng() % 5);
    uint32_t edge = kEdges[rng() % std::size(kEdges)];
    for (size_t i = block * 16; i < block * 16 + 16; ++i) {
      uint32_t r = uint32_t(rng()), sign = r & 0x80000000u;
      switch (mode) {
      case 0:
        v[i] = r;
        break;
      case 1: { // a tie at `dropped` bits: remainder exactly one half
        unsigned dropped =
            24 - kBfpFormatTable[(r >> 24) % kNumBfpDatumFormats].magnitudeBits;
        uint32_t kept = (r >> 1) & ((1u << (23 - dropped)) - 1);
        v[i] = sign | 127u << 23 | kept << dropped | 1u << (dropped - 1);
        break;
      }
      case 2:
        switch (r % 4) {
        case 0:
          v[i] = sign | (r & 0x7FFFFF & -(r >> 8 & 1)); // zero or subnormal
          break;
        case 1:
          v[i] = sign | 0x7F800000 | (r & 0x7FFFFF & -(r >> 8 & 1)); // Inf/NaN
          break;
        default:
          v[i] = sign | (100 + r % 40) << 23 | (r & 0x7FFFFF);
        }
        break;
      case 3:
        v[i] = sign | (120 + r % 12) << 23 | (r & 0x7FFFFF);
        break;
      default: {
        uint32_t e = edge - ((r >> 8) % 8 == 0 ? 8 : (r >> 8) % 3),
                 mantissa = r & 0x7FFFFF;
        if ((r >> 12) % 4 == 0) // a tie for one format, or a half
          mantissa &= ~0u << (r >> 14) % 24;
        v[i] = sign | ((r >> 10) % 8 == 0 ? 0 : e << 23) | mantissa;
      }
      }
    }
  }
  return v;
}

TEST(VectorPath, BfpPackUnpackAndTies) {
  size_t tiles = 48;
  std::vector<uint32_t> values = bfpTiles(tiles, 4);
  std::vector<uint16_t> tops(values.size()); // bfloat16 input
  for (size_t i = 0; i < values.size(); ++i)
    tops[i] = uint16_t(values[i] >> 16);
  for (int format = 0; format < kNumBfpDatumFormats; ++format) {
    size_t tileBytes = lookupBfpFormat(format)->tileBytes;
    for (Dtype input : {Dtype::float32, Dtype::bfloat16})
      expectSameOnEveryPath(
          [&] {
            Bytes packed(tiles * tileBytes);
            bfpTieCountersReset();
            const void *src = input == Dtype::float32
                                  ? (const void *)values.data()
                                  : (const void *)tops.data();
            EXPECT_TRUE(bfpPack(format, int(input), src, tiles, kBfpTileSide,
                                kBfpTileSide, 0, packed.data())
                            .ok());
            uint64_t seen, up;
            bfpTieCounters(&seen, &up);
            EXPECT_GT(seen, 0u);
            for (uint64_t count : {seen, up})
              for (int shift = 0; shift < 64; shift += 8)
                packed.push_back(uint8_t(count >> shift));
            return packed;
          },
          std::string("pack ") + lookupBfpFormat(format)->name + " from " +
              lookupDtype(int(input))->name);
    // Unpacking arbitrary bytes, exponents and datums alike.
    std::mt19937_64 rng(format);
    Bytes arbitrary(tiles * tileBytes);
    for (unsigned char &c : arbitrary)
      c = uint8_t(rng());
    expectSameOnEveryPath(
        [&] {
          std::vector<uint32_t> out(tiles * kBfpTileValues);
          EXPECT_TRUE(
              bfpUnpack(format, arbitrary.data(), tiles, kBfpTileSide, kBfpTileSide, 0, out.data()).ok());
          return out;
        },
        std::string("unpack ") + lookupBfpFormat(format)->name);
  }
}

/// Tiles of Gaussian values (float32 and bfloat16-valued) at a block's own
/// scale, blocks whose largest lies near 3 / 2^M of its binade for bfp4
/// and bfp8 (the exponent search's gate, kBfpSearchKeepsEmax) with the
/// rest on finer grids, any bits, tiny and subnormal values, and exact
/// grid values (ties).
std::vector<uint32_t> bfpSweepTiles(size_t tiles, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal;
  std::vector<uint32_t> v(tiles * kBfpTileValues);
  for (size_t block = 0; block < v.size() / 16; ++block) {
    unsigned mode = unsigned(rng() % 6);
    int scale = int(rng() % 80) - 40;
    for (size_t i = block * 16; i < block * 16 + 16; ++i) {
      uint32_t r = uint32_t(rng()), u;
      float x = std::ldexp(normal(rng), scale);
      std::memcpy(&u, &x, 4);
      switch (mode) {
      case 0:
        break;
      case 1:
        u &= 0xFFFF0000u;
        break;
      case 2: { // the rest odd multiples of half the step under Emax
        unsigned m = block & 1 ? 3 : 7, e = unsigned(127 + scale / 4);
        x = std::ldexp(float(2 * (r / 2 % (1u << (m - 1))) + 1),
                       int(e) - 127 - int(m));
        std::memcpy(&u, &x, 4);
        if (i % 16 == block % 16)
          u = e << 23 | ((3u << (23 - m)) - 64 + r % 128);
        u |= r & 0x80000000u;
        break;
      }
      case 3:
        u = r;
        break;
      case 4:
        u = (r & 0x807FFFFFu) | (r % 7) << 23;
        break;
      default:
        x = std::ldexp(float(int(r % 33) - 16), scale % 8 - 4);
        std::memcpy(&u, &x, 4);
      }
      v[i] = u;
    }
  }
  return v;
}

/// Every path packs as the portable path does, bytes and tie counters, in
/// every BFP format from float32 and bfloat16, rows and faces, without and
/// (bfp8_b, bfp4_b) with the exponent search: 256 tiles, 2^16 in long
/// mode, 16 emulated, 1,024 in the emulated long pass.
TEST(VectorPath, BfpPackSweep) {
  size_t tiles = sweepSize(256, 65536, 16, 1024);
  std::vector<uint32_t> values = bfpSweepTiles(tiles, 57298);
  std::vector<uint16_t> tops(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    tops[i] = uint16_t(values[i] >> 16);
  for (int format = 0; format < kNumBfpDatumFormats; ++format)
    for (Dtype input : {Dtype::float32, Dtype::bfloat16})
      for (unsigned flags : {0u, kBfpFaces, kBfpFlag_exp_search,
                             kBfpFaces | kBfpFlag_exp_search}) {
        bool searched = flags & kBfpFlag_exp_search;
        if (searched && format != int(BfpFormat::bfp8_b) &&
            format != int(BfpFormat::bfp4_b))
          continue;
        expectSameOnEveryPath(
            [&] {
              Bytes packed(tiles * lookupBfpFormat(format)->tileBytes);
              bfpTieCountersReset();
              const void *src = input == Dtype::float32
                                    ? (const void *)values.data()
                                    : (const void *)tops.data();
              EXPECT_TRUE(bfpPack(format, int(input), src, tiles, kBfpTileSide,
                                  kBfpTileSide, flags, packed.data())
                              .ok());
              uint64_t seen, up;
              bfpTieCounters(&seen, &up);
              for (uint64_t count : {seen, up})
                for (int shift = 0; shift < 64; shift += 8)
                  packed.push_back(uint8_t(count >> shift));
              return packed;
            },
            std::string("pack ") + lookupBfpFormat(format)->name + " from " +
                lookupDtype(int(input))->name + " flags " +
                std::to_string(flags));
      }
}

/// Every path decodes every datum of every BFP format under every shared
/// exponent as the portable path does, as the host and (the "b" formats)
/// as each device site's unpacker: block k of 4096 has exponent k / 16,
/// and the 16 blocks of an exponent hold every datum.
TEST(VectorPath, UnpackEveryExponentAndDatum) {
  constexpr size_t kTiles = 4096 / kBfpTileBlocks;
  for (int format = 0; format < kNumBfpDatumFormats; ++format) {
    const BfpFormatInfo &f = *lookupBfpFormat(format);
    size_t blockBytes = kBfpBlockValues * (f.magnitudeBits + 1) / 8;
    size_t datumStart = f.tileBytes - kBfpTileBlocks * blockBytes;
    Bytes packed(kTiles * f.tileBytes);
    for (size_t k = 0; k < 4096; ++k) {
      uint8_t *tile = packed.data() + k / kBfpTileBlocks * f.tileBytes;
      size_t b = k % kBfpTileBlocks;
      tile[b] = uint8_t(k / 16);
      for (size_t j = 0; j < blockBytes; ++j)
        tile[datumStart + b * blockBytes + j] = uint8_t(k % 16 * 16 + j);
    }
    for (const BfpSiteInfo &site : kBfpSiteTable) {
      if (site.onDevice() && f.exponent != BfpExponent::Fp32)
        continue;
      expectSameOnEveryPath(
          [&] {
            std::vector<uint32_t> out(kTiles * kBfpTileValues);
            Status s = bfpUnpack(bfpTilesCall(int(site.site), format, kTiles,
                                              kBfpTileSide, kBfpTileSide, 0),
                                 packed.data(), out.data());
            EXPECT_TRUE(s.ok()) << s.message();
            return out;
          },
          std::string("unpack ") + f.name + " at " + site.name);
    }
  }
}

/// Unpacks large enough to stream their values past the caches
/// (bfpStreamsValues) give every path's bytes and write nothing outside
/// their destination: matrices 64 tiles across and 65 (bands across rows
/// of tiles), tiles, and mixed tiles, into a 64-byte aligned destination
/// (whole blocks streamed) and one 4 bytes past it (cached stores).
TEST(VectorPath, StreamedUnpacksMatchCachedOnes) {
  constexpr size_t kRows = 2048;
  std::mt19937_64 rng(2048);
  Bytes arbitrary(65 * 64 * lookupBfpFormat(0)->tileBytes);
  for (unsigned char &c : arbitrary)
    c = uint8_t(rng());
  std::vector<uint8_t> codes(65 * 64 / 4);
  for (uint8_t &c : codes)
    c = uint8_t(rng());
  constexpr uint32_t kCanary = 0x7FA5A5A5;
  for (size_t cols : {2048, 2080}) {
    size_t values = kRows * cols;
    ASSERT_TRUE(bfpStreamsValues(values * 4));
    for (size_t offset : {0, 1}) // in floats past a 64-byte boundary
      for (int form = 0; form < 4; ++form)
        expectSameOnEveryPath(
            [&] {
              std::vector<uint32_t> out(values + 32, kCanary);
              size_t start =
                  (64 - reinterpret_cast<uintptr_t>(out.data()) % 64) % 64 / 4 +
                  offset;
              void *at = out.data() + start;
              Status s =
                  form == 0 ? bfpUnpackMatrix(0, arbitrary.data(), kRows, cols,
                                              32, 32, 0, at)
                  : form == 1 ? bfpUnpackMatrix(4, arbitrary.data(), kRows,
                                                cols, 16, 16, 0, at)
                  : form == 2
                      ? bfpUnpack(0, arbitrary.data(), values / 1024, 32, 32, 0,
                                  at)
                      : bfpUnpackMixed(arbitrary.data(), kRows, cols, 0,
                                       codes.data(), static_cast<float *>(at));
              EXPECT_TRUE(s.ok()) << s.message();
              for (size_t i = 0; i < out.size(); ++i)
                if (i < start || i >= start + values)
                  EXPECT_EQ(out[i], kCanary) << "written outside at " << i;
              out.erase(out.begin(), out.begin() + start);
              out.resize(values);
              return out;
            },
            "unpack form " + std::to_string(form) + ", " +
                std::to_string(cols) + " columns, at offset " +
                std::to_string(offset));
  }
}

/// The counted forms (fidelity counters on, docs/Fidelity.md) give the same
/// bytes and the same counts on every path: casts from fp32 under the four
/// FP8 configs, fp8 add on every pair, and BFP packing.
TEST(VectorPath, CountedCallsGiveTheSameCounts) {
  std::vector<uint32_t> values = specialF32();
  std::vector<uint32_t> random = randomF32(sweepSize(100003, 100003, 20003), 9);
  values.insert(values.end(), random.begin(), random.end());
  Bytes in = asBytes(values);
  auto withCounts = [](Bytes out, const FidelityCounts &counts) {
    const auto *raw = reinterpret_cast<const unsigned char *>(&counts);
    out.insert(out.end(), raw, raw + sizeof counts);
    return out;
  };
  for (int to : kNarrowFloats)
    for (unsigned config : {0x0000u, 0x0001u, 0xFF00u, 0xFF01u})
      expectSameOnEveryPath(
          [&] {
            size_t bytes = lookupDtype(to)->bytes;
            Bytes out(values.size() * bytes);
            FidelityCounts counts;
            EXPECT_TRUE(castBuffer(int(Dtype::float32), in.data(), to,
                                   out.data(), values.size(), config, &counts)
                            .ok());
            return withCounts(out, counts);
          },
          std::string("counted float32 -> ") + lookupDtype(to)->name +
              " config " + std::to_string(config));
  Bytes dst(65536 + 31), src(65536 + 31);
  for (size_t i = 0; i < dst.size(); ++i) {
    dst[i] = uint8_t((i * 0x9E37u) >> 8);
    src[i] = uint8_t(i * 0x9E37u);
  }
  for (int dtype : kReducingFp8)
    expectSameOnEveryPath(
        [&] {
          Bytes out = dst;
          FidelityCounts counts;
          EXPECT_TRUE(
              accumulate(1, out.data(), src.data(), dtype, out.size(), &counts)
                  .ok());
          return withCounts(out, counts);
        },
        std::string("counted add ") + lookupDtype(dtype)->name);
  std::vector<uint32_t> tiles = bfpTiles(48, 10);
  for (int format = 0; format < kNumBfpDatumFormats; ++format)
    expectSameOnEveryPath(
        [&] {
          Bytes packed(48 * lookupBfpFormat(format)->tileBytes);
          FidelityCounts counts;
          EXPECT_TRUE(
              bfpPack(format, int(Dtype::float32), tiles.data(), 48, kBfpTileSide, kBfpTileSide, 0, packed.data(), &counts)
                  .ok());
          return withCounts(packed, counts);
        },
        std::string("counted pack ") + lookupBfpFormat(format)->name);
}

/// The caller's MXCSR (flush-to-zero, denormals-are-zero, round toward
/// zero) changes nothing, and is restored.
TEST(VectorPath, CallersMxcsrIsIgnoredAndRestored) {
  std::vector<uint32_t> values = specialF32();
  Bytes x = asBytes(values), y = asBytes(randomF32(values.size(), 5));
  auto everything = [&] {
    Bytes out = accumulated(1, int(Dtype::float32), x, y);
    Bytes narrow = accumulated(1, int(Dtype::bfloat16),
                               cast(int(Dtype::float32), int(Dtype::bfloat16), x, 0),
                               cast(int(Dtype::float32), int(Dtype::bfloat16), y, 0));
    Bytes fp8 = cast(int(Dtype::float32), int(Dtype::float8e4), x, 1);
    Bytes col = collectiveReduced(int(AluOpType::add), x, y);
    out.insert(out.end(), narrow.begin(), narrow.end());
    out.insert(out.end(), fp8.begin(), fp8.end());
    out.insert(out.end(), col.begin(), col.end());
    return out;
  };
  Bytes expected = everything();
#if defined(__x86_64__)
  unsigned saved = _mm_getcsr();
  const unsigned odd = 0x1F80 | 0x8000 /*FTZ*/ | 0x0040 /*DAZ*/ | 0x6000 /*RZ*/;
  _mm_setcsr(odd);
  Bytes got = everything();
  unsigned after = _mm_getcsr() & ~0x3Fu; // exception flags may differ
  _mm_setcsr(saved);
  EXPECT_EQ(got, expected);
  EXPECT_EQ(after, odd & ~0x3Fu);
#else // the portable path is integer-only: the rounding mode changes nothing
  int saved = std::fegetround();
  std::fesetround(FE_TOWARDZERO);
  Bytes got = everything();
  int after = std::fegetround();
  std::fesetround(saved);
  EXPECT_EQ(got, expected);
  EXPECT_EQ(after, FE_TOWARDZERO);
#endif
}

/// Results and tie counters do not depend on the thread count.
TEST(VectorPath, ThreadCountChangesNoBit) {
  PathGuard guard;
  size_t count = (size_t(1) << 20) + 13;
  Bytes dst = asBytes(randomF32(count / 2, 6)), src = asBytes(randomF32(count / 2, 7));
  std::vector<uint32_t> tiles = bfpTiles(600, 8);
  auto run = [&] {
    Bytes out = accumulated(1, int(Dtype::bfloat16), dst, src);
    Bytes c = cast(int(Dtype::float32), int(Dtype::float8e5), dst, 1);
    Bytes packed(600 * 1088);
    bfpTieCountersReset();
    EXPECT_TRUE(bfpPack(0, int(Dtype::float32), tiles.data(), 600, kBfpTileSide, kBfpTileSide, 0, packed.data()).ok());
    uint64_t seen, up;
    bfpTieCounters(&seen, &up);
    out.insert(out.end(), c.begin(), c.end());
    out.insert(out.end(), packed.begin(), packed.end());
    for (int shift = 0; shift < 64; shift += 8) {
      out.push_back(uint8_t(seen >> shift));
      out.push_back(uint8_t(up >> shift));
    }
    return out;
  };
  for (Isa isa : everyPath()) {
    selectIsa(isa);
    setNumThreads(1);
    Bytes one = run();
    for (int threads : {2, 3, 8}) {
      setNumThreads(threads);
      EXPECT_EQ(run(), one) << isaName(isa) << " with " << threads << " threads";
    }
  }
}

/// parallelFor runs every index exactly once, for counts whose share per
/// thread is a multiple of 64 with a remainder (2 x 2^18 + 1 on 2 threads
/// once lost its last element), from several threads at once (the pool
/// is busy for all but one of them).
TEST(Threads, ParallelForRunsEveryIndexOnce) {
  PathGuard guard;
  auto check = [](size_t count, int threads) {
    std::vector<std::atomic<uint8_t>> runs(count);
    parallelFor(count, 64, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i)
        runs[i].fetch_add(1, std::memory_order_relaxed);
    });
    for (size_t i = 0; i < count; ++i)
      if (runs[i].load() != 1) {
        ADD_FAILURE() << "count " << count << " on " << threads
                      << " threads: index " << i << " ran " << int(runs[i])
                      << " times";
        return;
      }
  };
  for (int threads : {2, 3, 4, 8}) {
    setNumThreads(threads);
    for (size_t count : {size_t(128) * threads + 1, size_t(1) << 12,
                         (size_t(1) << 19) + 1, (size_t(3) << 18) + 2,
                         size_t(64) * threads * 7 + threads - 1})
      check(count, threads);
  }
  setNumThreads(2);
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c)
    callers.emplace_back([&, c] {
      for (int k = 0; k < 50; ++k)
        check(4096 + 64 * size_t(c) + size_t(k), 2);
    });
  for (std::thread &caller : callers)
    caller.join();
}

} // namespace

// The DMA's arithmetic (§8) runs the path's widen, fp32 and narrow kernels:
// every path gives the portable path's bytes and counts, every DMA pair,
// with tails and threads.
TEST(VectorPath, DmaComputeEveryPairAndSource) {
  std::vector<int> dtypes;
  for (int d = 0; d < kNumDtypes; ++d)
    if (nkiDtypeName(d))
      dtypes.push_back(d);
  std::mt19937_64 rng(56);
  for (int dst : dtypes)
    for (int src : dtypes)
      for (int op : {1, 2, 3}) {
        size_t n = 3000 + rng() % 64;
        unsigned db = lookupDtype(dst)->bytes, sb = lookupDtype(src)->bytes;
        std::vector<uint8_t> acc(n * db), x(n * sb);
        for (auto &b : acc)
          b = uint8_t(rng());
        for (auto &b : x)
          b = uint8_t(rng());
        unsigned config = (rng() & 1) | (rng() & 1 ? 0xFF00 : 0);
        // Counted (three kernel passes per block), not (fp32 sources into
        // narrow floats: the fused reduceNarrowF32) and, into a narrow
        // float, stochastically: each destination inside 64 guard bytes a
        // side that no path may touch.
        constexpr size_t kGuard = 64;
        const bool narrowFloat = lookupDtype(dst)->kind == DtypeKind::Float;
        birsim::test::expectSameOnEveryPath(
            [&] {
              auto guarded = [&] {
                std::vector<uint8_t> g(kGuard, 0xA5);
                g.insert(g.end(), acc.begin(), acc.end());
                g.insert(g.end(), kGuard, 0x5A);
                return g;
              };
              auto guardsKept = [&](const std::vector<uint8_t> &g) {
                return std::all_of(g.begin(), g.begin() + kGuard,
                                   [](uint8_t v) { return v == 0xA5; }) &&
                       std::all_of(g.end() - kGuard, g.end(),
                                   [](uint8_t v) { return v == 0x5A; });
              };
              std::vector<uint8_t> a = guarded(), b = guarded(), c = guarded();
              FidelityCounts counts;
              EXPECT_TRUE(accumulateMixed(op, a.data() + kGuard, dst, x.data(),
                                          src, n, {config}, &counts)
                              .ok());
              EXPECT_TRUE(accumulateMixed(op, b.data() + kGuard, dst, x.data(),
                                          src, n, {config})
                              .ok());
              if (narrowFloat)
                EXPECT_TRUE(accumulateMixed(op, c.data() + kGuard, dst,
                                            x.data(), src, n,
                                            {config, Rounding::stochastic, 9})
                                .ok());
              EXPECT_TRUE(guardsKept(a) && guardsKept(b) && guardsKept(c));
              EXPECT_EQ(a, b);
              std::vector<uint64_t> out(a.begin(), a.end());
              out.insert(out.end(), c.begin(), c.end());
              for (uint64_t count : counts.count)
                out.push_back(count);
              return out;
            },
            std::string(lookupDtype(dst)->name) +
                " op= " + lookupDtype(src)->name);
      }
}
