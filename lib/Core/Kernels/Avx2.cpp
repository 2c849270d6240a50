//===- Avx2.cpp - AVX2 kernels --------------------------------------------===//
//
// Every function here is compiled for AVX2 + POPCNT (a target attribute, not
// a file-wide flag, so that inline functions of the core's headers are not
// emitted here with AVX2 code in them) and called only when the CPU has
// them (Select.cpp). Each lane computes exactly what the portable path
// computes (docs/Semantics.md sections 2-5); the tests compare the two. The
// lane arithmetic is LaneArithmetic.h's, on this file's Avx2Lanes; the loops
// around it are this file's.
//
//===----------------------------------------------------------------------===//
#include "X86.h"
#include "birsim/Core/Float.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <type_traits>
#include <utility>

#if defined(__x86_64__)
#pragma clang attribute push(__attribute__((target("avx2,f16c,popcnt"))),     \
                             apply_to = function)
#include "LaneArithmetic.h"

namespace birsim::core {
namespace {

using namespace kernel;

__m256 asFloat(__m256i v) { return _mm256_castsi256_ps(v); }
__m256i asInt(__m256 v) { return _mm256_castps_si256(v); }

/// The lane vocabulary of LaneArithmetic.h: lanes of `Bits` bits (32: 8
/// lanes) in a 256-bit vector; a mask is a vector of all-ones or zero
/// lanes; tallies are per-lane counters.
template <unsigned Bits> struct Avx2Lanes : GenericLaneOps<__m256i, Bits> {
  using Generic = GenericLaneOps<__m256i, Bits>;
  using I = __m256i;
  using M = __m256i;
  static M allLanes() { return _mm256_set1_epi32(-1); }
  static M eq(I a, I b) {
    return M(typename Generic::U(a) == typename Generic::U(b));
  }
  static M gt(I a, I b) {
    return M(typename Generic::S(a) > typename Generic::S(b));
  }
  static I select(M m, I whenSet, I otherwise) {
    return _mm256_blendv_epi8(otherwise, whenSet, m);
  }
  static I keep(M m, I v) { return _mm256_and_si256(v, m); }
  /// Per lane; a count of 32 or more gives 0.
  static I shrv(I v, I n) { return _mm256_srlv_epi32(v, n); }
  /// MINPS/MAXPS: the second operand unless the first orders before/after.
  static I minF(I a, I b) {
    return asInt(_mm256_min_ps(asFloat(a), asFloat(b)));
  }
  static I maxF(I a, I b) {
    return asInt(_mm256_max_ps(asFloat(a), asFloat(b)));
  }
  static M isNaN(I a) {
    return asInt(_mm256_cmp_ps(asFloat(a), asFloat(a), _CMP_UNORD_Q));
  }
  /// Adds 1 to each lane of the counters `lanes` where `m` is set.
  static void count(__m256i &lanes, M m) { lanes = _mm256_sub_epi32(lanes, m); }
};

/// The sum of 8 lane counters.
uint64_t laneSum(__m256i lanes) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(lanes),
                            _mm256_extracti128_si256(lanes, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
  return uint32_t(_mm_cvtsi128_si32(s));
}

template <F32Op Op> __m256i apply8(__m256i acc, __m256i x) {
  return applyLanes<Op, Avx2Lanes<32>>(acc, x);
}
template <F32Op Op> uint32_t apply1(uint32_t acc, uint32_t x) {
  return applyOp<Op, uint32_t, addss, minss, maxss>(acc, x);
}

//===-- Narrow float formats (§4) -----------------------------------------===//

/// Loads and stores 8 elements of 1, 2 or 4 bytes as u32 lanes.
__m256i load8(const char *p, unsigned bytes) {
  if (bytes == 1)
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p));
  if (bytes == 2)
    return _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p));
  return _mm256_loadu_si256((const __m256i *)p);
}
void store8(char *p, unsigned bytes, __m256i v) {
  if (bytes == 4) {
    _mm256_storeu_si256((__m256i *)p, v);
    return;
  }
  __m128i u16 = _mm_packus_epi32(_mm256_castsi256_si128(v),
                                 _mm256_extracti128_si256(v, 1));
  if (bytes == 2)
    _mm_storeu_si128((__m128i *)p, u16);
  else
    _mm_storel_epi64((__m128i *)p, _mm_packus_epi16(u16, _mm_setzero_si128()));
}

uint32_t load1(const char *p, unsigned bytes) {
  uint32_t v = 0;
  std::memcpy(&v, p, bytes);
  return v;
}
void store1(char *p, unsigned bytes, uint32_t v) { std::memcpy(p, &v, bytes); }

using Widen = WidenLanes<Avx2Lanes<32>>;

/// Per-lane tallies of a counted narrowing (32-bit lanes; flushed into
/// `totals` every kMaxSteps steps, before they could wrap).
/// Moves lane counts into 64-bit totals, class by class.
template <class Class>
void moveLaneCounts(ClassCounts<Class, __m256i> &lanes,
                    ClassCounts<Class> &totals) {
  for (int c = 0; c < ClassCounts<Class>::kClasses; ++c) {
    totals.cells[c] += laneSum(lanes.cells[c]);
    lanes.cells[c] = _mm256_setzero_si256();
  }
}

struct NarrowLaneCounts : ClassCounts<NarrowClass, __m256i> {
  ClassCounts<NarrowClass> totals;
  static constexpr size_t kMaxSteps = size_t(1) << 24;

  void flush() { moveLaneCounts(*this, totals); }
};

using Narrow = NarrowLanes<Avx2Lanes<32>>;

//===-- Kernels -----------------------------------------------------------===//

template <F32Op Op>
__attribute__((noinline)) void reduceF32Loop(char *acc, const char *x,
                                             size_t count) {
  size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    prefetchAhead(acc + 4 * i, x + 4 * i);
    _mm256_storeu_si256(
        (__m256i *)(acc + 4 * i),
        apply8<Op>(_mm256_loadu_si256((const __m256i *)(acc + 4 * i)),
                   _mm256_loadu_si256((const __m256i *)(x + 4 * i))));
  }
  for (; i < count; ++i)
    store1(acc + 4 * i, 4,
           apply1<Op>(load1(acc + 4 * i, 4), load1(x + 4 * i, 4)));
}

/// int32/int64 add (wrapping), min, max (signed; equal values are the same
/// bits, so the order of MIN/MAX's operands does not matter) (§3).
template <unsigned Bytes, MemoryReductionOp Op>
__attribute__((noinline)) void integerLoop(char *acc, const char *x,
                                           size_t count) {
  using Bits = std::conditional_t<Bytes == 4, int32_t, int64_t>;
  auto apply = [](__m256i a, __m256i b) {
    if constexpr (Op == MemoryReductionOp::add)
      return Bytes == 4 ? _mm256_add_epi32(a, b) : _mm256_add_epi64(a, b);
    else if constexpr (Bytes == 4)
      return Op == MemoryReductionOp::min ? _mm256_min_epi32(a, b) : _mm256_max_epi32(a, b);
    else {
      __m256i r = Avx2Lanes<32>::select(
          Op == MemoryReductionOp::min ? _mm256_cmpgt_epi64(a, b) : _mm256_cmpgt_epi64(b, a), b, a);
      // Opaque to LLVM, which would otherwise store only the lanes taken
      // from `b` with VPMASKMOVQ (microcoded, 4x slower here).
      asm("" : "+x"(r));
      return r;
    }
  };
  constexpr size_t lanes = 32 / Bytes;
  size_t i = 0;
  for (; i + lanes <= count; i += lanes) {
    prefetchAhead(acc + i * Bytes, x + i * Bytes);
    __m256i *a = (__m256i *)(acc + i * Bytes);
    _mm256_storeu_si256(
        a, apply(_mm256_loadu_si256(a),
                 _mm256_loadu_si256((const __m256i *)(x + i * Bytes))));
  }
#pragma clang loop vectorize(disable) // at most 3 elements
  for (; i < count; ++i) {
    Bits a, b;
    std::memcpy(&a, acc + i * Bytes, Bytes);
    std::memcpy(&b, x + i * Bytes, Bytes);
    Bits r = Op == MemoryReductionOp::add   ? Bits(std::make_unsigned_t<Bits>(a) +
                              std::make_unsigned_t<Bits>(b))
             : Op == MemoryReductionOp::min ? std::min(a, b)
                       : std::max(a, b);
    std::memcpy(acc + i * Bytes, &r, Bytes);
  }
}

/// min/max of a narrow IEEE format on its codes (MinMaxCodeLanes).
template <bool IsMin, unsigned Bytes>
__attribute__((noinline)) void
minMaxCodesLoop(const FloatFormat &f, char *acc, const char *x,
                size_t count) {
  constexpr unsigned lanes = 32 / Bytes;
  MinMaxCodeLanes<Avx2Lanes<8 * Bytes>, IsMin> minMax(f);
  size_t i = 0;
  for (; i + lanes <= count; i += lanes) {
    prefetchAhead(acc + i * Bytes, x + i * Bytes);
    __m256i *a = (__m256i *)(acc + i * Bytes);
    _mm256_storeu_si256(
        a, minMax(_mm256_loadu_si256(a),
                  _mm256_loadu_si256((const __m256i *)(x + i * Bytes))));
  }
  for (; i < count; ++i) {
    char *a = acc + i * Bytes;
    uint32_t wa = widenToF32(f, load1(a, Bytes));
    uint32_t wx = widenToF32(f, load1(x + i * Bytes, Bytes));
    store1(a, Bytes, narrowFromF32(f, IsMin ? minss(wx, wa) : maxss(wx, wa), 0));
  }
}

/// The elements [i, count) of a 16-bit float add, by the portable path.
void addTail(const FloatFormat &f, char *acc, const char *x, size_t i,
             size_t count) {
  for (; i < count; ++i)
    store1(acc + 2 * i, 2,
           narrowFromF32(f,
                         addss(widenToF32(f, load1(acc + 2 * i, 2)),
                               widenToF32(f, load1(x + 2 * i, 2))),
                         0));
}

/// bf16 add: bf16 is fp32's top half, so widening is a shift and RNE
/// narrowing adds 0x7FFF plus the kept lsb (a carry runs up to Inf); every
/// NaN result is 0x7FC0 (§4), so which NaN the adder returns does not
/// matter. 16 lanes per step, in unpack order.
__attribute__((noinline)) void bf16AddLoop(char *acc, const char *x,
                                           size_t count) {
  __m256i zero = _mm256_setzero_si256();
  auto add = Avx2Lanes<32>::addF;
  auto narrow = bf16Round<Avx2Lanes<32>>;
  size_t i = 0;
  for (; i + 16 <= count; i += 16) {
    prefetchAhead(acc + 2 * i, x + 2 * i);
    __m256i a = _mm256_loadu_si256((const __m256i *)(acc + 2 * i));
    __m256i b = _mm256_loadu_si256((const __m256i *)(x + 2 * i));
    __m256i lo =
        add(_mm256_unpacklo_epi16(zero, a), _mm256_unpacklo_epi16(zero, b));
    __m256i hi =
        add(_mm256_unpackhi_epi16(zero, a), _mm256_unpackhi_epi16(zero, b));
    _mm256_storeu_si256((__m256i *)(acc + 2 * i),
                        _mm256_packus_epi32(narrow(lo), narrow(hi)));
  }
  addTail(*dtypeInfo(Dtype::bfloat16).format, acc, x, i, count);
}

/// fp16 add with F16C: every fp16 value is exact in fp32, and a NaN sum
/// takes its sign from `acc` or the sum (f16AddResult), so neither
/// VCVTPH2PS quieting a signalling NaN nor the adder's source order changes
/// a result; VCVTPS2PH rounds the others to nearest even.
__attribute__((noinline)) void f16AddLoop(char *acc, const char *x,
                                          size_t count) {
  auto sum8 = [](__m128i a, const char *b) {
    __m256 sum =
        _mm256_add_ps(_mm256_cvtph_ps(a),
                      _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)b)));
    return _mm256_cvtps_ph(sum, _MM_FROUND_TO_NEAREST_INT);
  };
  size_t i = 0;
  for (; i + 16 <= count; i += 16) {
    char *p = acc + 2 * i;
    prefetchAhead(p, x + 2 * i);
    __m256i a = _mm256_loadu_si256((const __m256i *)p);
    __m256i h =
        _mm256_set_m128i(sum8(_mm256_extracti128_si256(a, 1), x + 2 * i + 16),
                         sum8(_mm256_castsi256_si128(a), x + 2 * i));
    _mm256_storeu_si256((__m256i *)p, f16AddResult<Avx2Lanes<16>>(a, h));
  }
  addTail(*dtypeInfo(Dtype::float16).format, acc, x, i, count);
}

/// fp8 add (IEEE fp8 formats, config 0) with F16C. Every fp8 value times
/// 2^(bias - 15) is an fp16 whose bits are the fp8's fields shifted (the
/// exponent field kept, subnormals included), so VCVTPH2PS widens it
/// exactly; scaling both operands by a power of two scales their fp32 sum
/// exactly (no fp32 overflow or subnormal is reachable). The sum goes back
/// to fp16 truncated: the sum of two values of m + 1 <= 5 significant bits
/// has every bit that decides a round to nearest even onto m bits within
/// fp16's 11, or none at all (the smaller operand lies wholly below, and
/// the larger is the result), so that one rounding, integer work on the
/// fp16 bits with the carry running up to Inf, gives the core's result
/// (every pair of every format is tested). Every NaN result is the format's
/// one NaN code (§4), so no NaN's payload, sign or source order matters.
/// 32 lanes per step, in unpack order. TopByte: E5M2, fp16's top byte,
/// needs no shift (and frees the registers of its constants).
template <bool Count, bool TopByte>
__attribute__((noinline)) uint64_t fp8AddSteps(const FloatFormat &f, char *acc,
                                               const char *x, size_t count) {
  __m256i zero = _mm256_setzero_si256();
  __m256i byteMagnitude = _mm256_set1_epi8(0x7F);
  __m256i belowInf = _mm256_set1_epi8(char(f.infCode() - 1));
  Fp8ToHalfLanes<Avx2Lanes<16>, TopByte> toHalf(f);
  // 32 codes as two vectors of 16 fp16 codes (in unpack order).
  auto toHalves = [&](__m256i codes, __m256i &lo, __m256i &hi) {
    lo = toHalf(_mm256_unpacklo_epi8(zero, codes));
    hi = toHalf(_mm256_unpackhi_epi8(zero, codes));
  };
  // fp32 sum of 8 lanes -> fp16, truncated.
  auto sum8 = [](__m128i a, __m128i b) {
    __m256 sum = _mm256_add_ps(_mm256_cvtph_ps(a), _mm256_cvtph_ps(b));
    return _mm256_cvtps_ph(sum, _MM_FROUND_TO_ZERO);
  };
  HalfSumToFp8Lanes<Avx2Lanes<16>> toFp8(f);
  auto add16 = [&](__m256i a, __m256i b) {
    return toFp8(_mm256_set_m128i(
        sum8(_mm256_extracti128_si256(a, 1), _mm256_extracti128_si256(b, 1)),
        sum8(_mm256_castsi256_si128(a), _mm256_castsi256_si128(b))));
  };
  // With Count: finite + finite giving Inf (docs/Fidelity.md).
  auto finite = [&](__m256i codes) {
    __m256i m = _mm256_and_si256(codes, byteMagnitude);
    return _mm256_cmpeq_epi8(_mm256_min_epu8(m, belowInf), m);
  };
  uint64_t overflows = 0;
  size_t i = 0;
  for (; i + 32 <= count; i += 32) {
    prefetchAhead(acc + i, x + i);
    __m256i a = _mm256_loadu_si256((const __m256i *)(acc + i));
    __m256i b = _mm256_loadu_si256((const __m256i *)(x + i));
    __m256i aLo, aHi, bLo, bHi;
    toHalves(a, aLo, aHi);
    toHalves(b, bLo, bHi);
    __m256i sum = _mm256_packus_epi16(add16(aLo, bLo), add16(aHi, bHi));
    _mm256_storeu_si256((__m256i *)(acc + i), sum);
    if constexpr (Count)
      overflows += unsigned(
          _mm_popcnt_u32(unsigned(_mm256_movemask_epi8(_mm256_andnot_si256(
              finite(sum), _mm256_and_si256(finite(a), finite(b)))))));
  }
  for (; i < count; ++i) {
    uint8_t before = uint8_t(acc[i]), operand = uint8_t(x[i]);
    uint8_t sum = uint8_t(narrowFromF32(
        f, addss(widenToF32(f, before), widenToF32(f, operand)), 0));
    acc[i] = char(sum);
    if constexpr (Count)
      overflows += countFp8AddOverflows(f, &before, &operand, &sum, 1);
  }
  return overflows;
}
template <bool Count>
uint64_t fp8AddLoop(const FloatFormat &f, char *acc, const char *x,
                    size_t count) {
  return fp8IsHalfTopByte(f) ? fp8AddSteps<Count, true>(f, acc, x, count)
                             : fp8AddSteps<Count, false>(f, acc, x, count);
}

template <F32Op Op>
__attribute__((noinline)) void
reduceNarrowLoop(const FloatFormat &f, unsigned bytes, char *acc,
                 const char *x, size_t count) {
  Widen widen(f);
  Narrow narrow(f, /*config=*/0);
  size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    char *a = acc + i * bytes;
    prefetchAhead(a, x + i * bytes);
    __m256i sum = apply8<Op>(widen(load8(a, bytes)),
                             widen(load8(x + i * bytes, bytes)));
    store8(a, bytes, narrow(sum));
  }
  for (; i < count; ++i) {
    char *a = acc + i * bytes;
    uint32_t r = apply1<Op>(widenToF32(f, load1(a, bytes)),
                            widenToF32(f, load1(x + i * bytes, bytes)));
    store1(a, bytes, narrowFromF32(f, r, 0));
  }
}

/// narrowReduceLoopOf's general loop (KernelTable.inc's reduceNarrow).
void generalNarrowReduce(const FloatFormat &f, unsigned bytes, F32Op op,
                         void *acc, const void *x, size_t count) {
  KernelEntry entry(x, bytes * count, acc, bytes * count);
  withConstant<F32Op::kernelAdd, F32Op::kernelMin, F32Op::kernelMax>(
      op, [&](auto f32Op) {
        reduceNarrowLoop<f32Op>(f, bytes, static_cast<char *>(acc),
                                static_cast<const char *>(x), count);
      });
}

template <bool Count, unsigned Bytes>
__attribute__((noinline)) void
narrowLoop(const FloatFormat &f, const char *src, char *dst, size_t count,
           unsigned config, FidelityCounts *events) {
  Narrow narrow(f, config);
  NarrowLaneCounts lanes;
  size_t i = 0, whole = count & ~size_t(7);
  while (i < whole) {
    size_t end = std::min(whole, i + 8 * NarrowLaneCounts::kMaxSteps);
    for (; i < end; i += 8) {
      prefetchAhead(src + 4 * i, dst + i * Bytes);
      store8(dst + i * Bytes, Bytes,
             narrow.apply<Count>(load8(src + 4 * i, 4),
                                 Avx2Lanes<32>::allLanes(), lanes));
    }
    if constexpr (Count)
      lanes.flush();
  }
  std::optional<NarrowCastClassifier> tail; // the scalar elements' rule
  if constexpr (Count) {
    addNarrowClassEvents(f, config, i, lanes.totals, *events);
    events->elements[int(FidelityFamily::cast)] += count - i;
    tail.emplace(f, config);
  }
  for (; i < count; ++i) {
    uint32_t x = load1(src + 4 * i, 4), code = narrowFromF32(f, x, config);
    store1(dst + i * Bytes, Bytes, code);
    if constexpr (Count)
      if (FidelityEvent e = tail->classify(x, code); e != kNoFidelityEvent)
        ++events->count[int((e))];
  }
}

template <unsigned Bytes>
__attribute__((noinline)) void widenLoop(const FloatFormat &f, const char *src,
                                         char *dst, size_t count) {
  Widen widen(f);
  size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    prefetchAhead(src + i * Bytes, dst + 4 * i);
    store8(dst + 4 * i, 4, widen(load8(src + i * Bytes, Bytes)));
  }
  for (; i < count; ++i)
    store1(dst + 4 * i, 4, widenToF32(f, load1(src + i * Bytes, Bytes)));
}

//===-- BFP tiles (§5) ----------------------------------------------------===//

int horizontalMax(__m256i v) {
  __m128i m = _mm_max_epi32(_mm256_castsi256_si128(v),
                            _mm256_extracti128_si256(v, 1));
  m = _mm_max_epi32(m, _mm_shuffle_epi32(m, 0x4E));
  m = _mm_max_epi32(m, _mm_shuffle_epi32(m, 0xB1));
  return _mm_cvtsi128_si32(m);
}

/// A BfpTally of one tile in 32-bit lanes (at most 128 per lane), added to
/// the call's BfpTally after the tile.
using BfpLaneTally = ClassCounts<BfpClass, __m256i>;

/// 16 datums (u32 lanes, each < 256) to 16 bytes.
__m128i toBytes(__m256i lo, __m256i hi) {
  __m128i a = _mm_packus_epi32(_mm256_castsi256_si128(lo),
                               _mm256_extracti128_si256(lo, 1));
  __m128i b = _mm_packus_epi32(_mm256_castsi256_si128(hi),
                               _mm256_extracti128_si256(hi, 1));
  return _mm_packus_epi16(a, b);
}

/// The format's mantissa width and exponent kind are template arguments:
/// every constant is then an immediate (4 formats x counted or not).
template <bool CountEvents, unsigned M, bool Fp16Exponent>
__attribute__((noinline)) void bfpPackLoop(const BfpFormatInfo &f,
                                           const char *tiles, size_t tileCount,
                                           char *out, BfpTally &tally) {
  BfpLaneTally lanes;
  for (size_t t = 0; t < tileCount; ++t) {
    const char *tile = tiles + t * kBfpTileBytesF32;
    char *packed = out + t * f.tileBytes;
    for (unsigned b = 0; b < kBfpTileBlocks; ++b) {
      const char *block = tile + 4 * bfpTileIndex(b, 0);
      prefetchAhead(block); // face order: every line of the next tile too
      __m256i lo = _mm256_loadu_si256((const __m256i *)block);
      __m256i hi = _mm256_loadu_si256((const __m256i *)(block + 32));
      int shared = horizontalMax(
          _mm256_max_epi32(bfpBlockExponents<Avx2Lanes<32>, Fp16Exponent>(lo),
                           bfpBlockExponents<Avx2Lanes<32>, Fp16Exponent>(hi)));
      packed[b] = char(shared);
      __m256i s = Avx2Lanes<32>::splat(uint32_t(shared));
      auto encode = [&](__m256i bits) {
        return bfpEncodeLanes<Avx2Lanes<32>, CountEvents, M, Fp16Exponent>(
            bits, s, lanes);
      };
      __m128i datums = toBytes(encode(lo), encode(hi));
      bfpStoreBlockDatums(M + 1, packed, b, datums);
    }
    moveLaneCounts(lanes, tally);
  }
}

__m256i decode8(const BfpFormatInfo &f, __m256i datum, int shared) {
  return bfpDecodeLanes<Avx2Lanes<32>>(f, datum, shared);
}

__attribute__((noinline)) void bfpUnpackLoop(const BfpFormatInfo &f,
                                             const unsigned char *packed,
                                             size_t tileCount, char *tiles) {
  for (size_t t = 0; t < tileCount; ++t) {
    const unsigned char *in = packed + t * f.tileBytes;
    char *tile = tiles + t * kBfpTileBytesF32;
    prefetchAhead(in); // the tile after next's first bytes (BFP8: 1088 each)
    for (unsigned b = 0; b < kBfpTileBlocks; ++b) {
      __m128i bytes = bfpBlockDatums(f, in, b);
      char *block = tile + 4 * bfpTileIndex(b, 0);
      _mm256_storeu_si256((__m256i *)block,
                          decode8(f, _mm256_cvtepu8_epi32(bytes), in[b]));
      _mm256_storeu_si256(
          (__m256i *)(block + 32),
          decode8(f, _mm256_cvtepu8_epi32(_mm_srli_si128(bytes, 8)), in[b]));
    }
  }
}

#include "KernelTable.inc"

} // namespace

const VectorKernels &avx2Kernels() { return kKernelTable; }

} // namespace birsim::core

#pragma clang attribute pop
#endif // __x86_64__
