//===- Avx512.cpp - AVX-512 kernels ---------------------------------------===//
//
// Compiled for AVX-512 F/BW/VL + F16C (a target attribute, as in
// Avx2.cpp) and called only when the CPU has them (Select.cpp). Every
// kernel runs 16 fp32 lanes (64 bytes) per step, and the last step of each
// loop is the same vector step under a mask, so no element leaves the
// vector path; a BFP block of 16 values is one vector. Event tallies are
// popcounts of lane masks.
// Each lane computes exactly what the portable path computes
// (docs/Semantics.md sections 2-4; the lane arithmetic is LaneArithmetic.h's,
// on this file's Avx512Lanes); the tests compare the two, on an emulated
// AVX-512 CPU where the host has none (utils/avx512-emulated.sh).
//
//===----------------------------------------------------------------------===//
#include "X86.h"
#include "birsim/Core/Float.h"

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#if defined(__x86_64__)
#pragma clang attribute push(                                                  \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx2,f16c,popcnt"))),    \
    apply_to = function)
#include "LaneArithmetic.h"

namespace birsim::core {
namespace {

using namespace kernel;

__m512 asFloat(__m512i v) { return _mm512_castsi512_ps(v); }
__m512i asInt(__m512 v) { return _mm512_castps_si512(v); }

/// The lane vocabulary of LaneArithmetic.h: lanes of `Bits` bits (32: 16
/// lanes) in a 512-bit vector; a mask is a bit per lane; tallies are
/// popcounts.
template <unsigned Bits> struct Avx512Lanes : GenericLaneOps<__m512i, Bits> {
  using I = __m512i;
  using M =
      std::conditional_t<Bits == 8, __mmask64,
                         std::conditional_t<Bits == 16, __mmask32, __mmask16>>;
  static M allLanes() { return M(~uint64_t(0)); }
  static M eq(I a, I b) {
    if constexpr (Bits == 8)
      return _mm512_cmpeq_epi8_mask(a, b);
    else if constexpr (Bits == 16)
      return _mm512_cmpeq_epi16_mask(a, b);
    else
      return _mm512_cmpeq_epi32_mask(a, b);
  }
  static M gt(I a, I b) {
    if constexpr (Bits == 8)
      return _mm512_cmpgt_epi8_mask(a, b);
    else if constexpr (Bits == 16)
      return _mm512_cmpgt_epi16_mask(a, b);
    else
      return _mm512_cmpgt_epi32_mask(a, b);
  }
  static I select(M m, I whenSet, I otherwise) {
    if constexpr (Bits == 8)
      return _mm512_mask_blend_epi8(m, otherwise, whenSet);
    else if constexpr (Bits == 16)
      return _mm512_mask_blend_epi16(m, otherwise, whenSet);
    else
      return _mm512_mask_blend_epi32(m, otherwise, whenSet);
  }
  static I keep(M m, I v) { return select(m, v, I{}); }
  /// Per lane; a count of 32 or more gives 0.
  static I shrv(I v, I n) { return _mm512_srlv_epi32(v, n); }
  /// MINPS/MAXPS: the second operand unless the first orders before/after.
  static I minF(I a, I b) {
    return asInt(_mm512_min_ps(asFloat(a), asFloat(b)));
  }
  static I maxF(I a, I b) {
    return asInt(_mm512_max_ps(asFloat(a), asFloat(b)));
  }
  static M isNaN(I a) {
    return _mm512_cmp_ps_mask(asFloat(a), asFloat(a), _CMP_UNORD_Q);
  }
  static void count(uint64_t &n, M m) { n += uint64_t(_mm_popcnt_u64(m)); }
};

/// Runs step(i, mask) for i = 0, Lanes, 2 Lanes, ... below `count`; `mask`
/// has one bit per element of the step, all set but in the last step, which
/// covers only the elements left.
template <unsigned Lanes, typename Step>
void forEachStep(size_t count, Step step) {
  constexpr uint64_t all =
      Lanes == 64 ? ~uint64_t(0) : (uint64_t(1) << Lanes) - 1;
  size_t i = 0;
  for (; i + Lanes <= count; i += Lanes)
    step(i, all);
  if (i < count)
    step(i, (uint64_t(1) << (count - i)) - 1);
}

/// 64 bytes of elements of `Bytes` each, under a mask of one bit per element
/// (masked-off elements read as zero, are not written, and never fault).
template <unsigned Bytes> __m512i load(uint64_t mask, const char *p) {
  if constexpr (Bytes == 1)
    return _mm512_maskz_loadu_epi8(__mmask64(mask), p);
  else if constexpr (Bytes == 2)
    return _mm512_maskz_loadu_epi16(__mmask32(mask), p);
  else if constexpr (Bytes == 4)
    return _mm512_maskz_loadu_epi32(__mmask16(mask), p);
  else
    return _mm512_maskz_loadu_epi64(__mmask8(mask), p);
}
template <unsigned Bytes> void store(char *p, uint64_t mask, __m512i v) {
  if constexpr (Bytes == 1)
    _mm512_mask_storeu_epi8(p, __mmask64(mask), v);
  else if constexpr (Bytes == 2)
    _mm512_mask_storeu_epi16(p, __mmask32(mask), v);
  else if constexpr (Bytes == 4)
    _mm512_mask_storeu_epi32(p, __mmask16(mask), v);
  else
    _mm512_mask_storeu_epi64(p, __mmask8(mask), v);
}

template <F32Op Op> __m512i apply16(__m512i acc, __m512i x) {
  return applyLanes<Op, Avx512Lanes<32>>(acc, x);
}

template <F32Op Op>
__attribute__((noinline)) void reduceF32Loop(char *acc, const char *x,
                                             size_t count) {
  forEachStep<16>(count, [&](size_t i, uint64_t mask) {
    char *a = acc + 4 * i;
    prefetchAhead(a, x + 4 * i);
    store<4>(a, mask,
             apply16<Op>(load<4>(mask, a), load<4>(mask, x + 4 * i)));
  });
}

//===-- int32/int64 (§3) --------------------------------------------------===//

/// Wrapping add, signed min/max (equal values are the same bits, so the
/// order of MIN/MAX's operands does not matter).
template <unsigned Bytes, MemoryReductionOp Op>
__attribute__((noinline)) void integerLoop(char *acc, const char *x,
                                           size_t count) {
  auto apply = [](__m512i a, __m512i b) {
    if constexpr (Bytes == 4)
      return Op == MemoryReductionOp::add   ? _mm512_add_epi32(a, b)
             : Op == MemoryReductionOp::min ? _mm512_min_epi32(a, b)
                       : _mm512_max_epi32(a, b);
    else
      return Op == MemoryReductionOp::add   ? _mm512_add_epi64(a, b)
             : Op == MemoryReductionOp::min ? _mm512_min_epi64(a, b)
                       : _mm512_max_epi64(a, b);
  };
  forEachStep<64 / Bytes>(count, [&](size_t i, uint64_t mask) {
    char *a = acc + i * Bytes;
    prefetchAhead(a, x + i * Bytes);
    store<Bytes>(a, mask,
                 apply(load<Bytes>(mask, a), load<Bytes>(mask, x + i * Bytes)));
  });
}

//===-- Narrow float formats (§3, §4) -------------------------------------===//

/// min/max of a narrow IEEE format on its codes (MinMaxCodeLanes).
template <bool IsMin, unsigned Bytes>
__attribute__((noinline)) void
minMaxCodesLoop(const FloatFormat &f, char *acc, const char *x,
                size_t count) {
  MinMaxCodeLanes<Avx512Lanes<8 * Bytes>, IsMin> minMax(f);
  forEachStep<64 / Bytes>(count, [&](size_t i, uint64_t mask) {
    char *p = acc + i * Bytes;
    prefetchAhead(p, x + i * Bytes);
    store<Bytes>(
        p, mask,
        minMax(load<Bytes>(mask, p), load<Bytes>(mask, x + i * Bytes)));
  });
}

/// 32 fp16 + 32 fp16 -> the 32 fp32 sums rounded to fp16 by `Rounding`.
template <int Rounding> __m512i halfSums(__m512i a, __m512i b) {
  auto sum16 = [](__m256i a, __m256i b) {
    return _mm512_cvtps_ph(
        _mm512_add_ps(_mm512_cvtph_ps(a), _mm512_cvtph_ps(b)), Rounding);
  };
  return _mm512_inserti64x4(
      _mm512_castsi256_si512(
          sum16(_mm512_castsi512_si256(a), _mm512_castsi512_si256(b))),
      sum16(_mm512_extracti64x4_epi64(a, 1), _mm512_extracti64x4_epi64(b, 1)),
      1);
}

/// bf16 add, as in Avx2.cpp: widening is a shift, RNE narrowing adds
/// 0x7FFF plus the kept lsb, every NaN result is 0x7FC0 (§4).
__attribute__((noinline)) void bf16AddLoop(char *acc, const char *x,
                                           size_t count) {
  auto widen = [](uint64_t mask, const char *p) {
    return _mm512_slli_epi32(
        _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(__mmask16(mask), p)),
        16);
  };
  forEachStep<16>(count, [&](size_t i, uint64_t mask) {
    char *p = acc + 2 * i;
    prefetchAhead(p, x + 2 * i);
    __m512i rounded = bf16Round<Avx512Lanes<32>>(
        Avx512Lanes<32>::addF(widen(mask, p), widen(mask, x + 2 * i)));
    _mm256_mask_storeu_epi16(p, __mmask16(mask),
                             _mm512_cvtepi32_epi16(rounded));
  });
}

/// fp16 add with F16C lanes, as in Avx2.cpp (f16AddResult).
__attribute__((noinline)) void f16AddLoop(char *acc, const char *x,
                                          size_t count) {
  forEachStep<32>(count, [&](size_t i, uint64_t mask) {
    char *p = acc + 2 * i;
    prefetchAhead(p, x + 2 * i);
    __m512i a = load<2>(mask, p);
    __m512i h =
        halfSums<_MM_FROUND_TO_NEAREST_INT>(a, load<2>(mask, x + 2 * i));
    store<2>(p, mask, f16AddResult<Avx512Lanes<16>>(a, h));
  });
}

/// fp8 add (IEEE fp8 formats, config 0), by Avx2.cpp's fp8AddLoop
/// argument (§4). 32 lanes per step, in memory order. With Count, returns
/// countFp8AddOverflows of the elements.
template <bool Count, bool TopByte>
__attribute__((noinline)) uint64_t fp8AddSteps(const FloatFormat &f, char *acc,
                                               const char *x, size_t count) {
  __m256i byteMagnitude = _mm256_set1_epi8(0x7F);
  __m256i belowInf = _mm256_set1_epi8(char(f.infCode() - 1));
  Fp8ToHalfLanes<Avx512Lanes<16>, TopByte> toHalf(f);
  HalfSumToFp8Lanes<Avx512Lanes<16>> toFp8(f);
  // Non-NaN, non-Inf codes (docs/Fidelity.md's overflow: finite + finite
  // giving Inf).
  auto finite = [&](__m256i codes) {
    return _mm256_cmple_epu8_mask(_mm256_and_si256(codes, byteMagnitude),
                                  belowInf);
  };
  // 32 codes -> 32 fp16 codes in 16-bit lanes.
  auto toHalves = [&](__m256i codes) {
    return toHalf(_mm512_slli_epi16(_mm512_cvtepu8_epi16(codes), 8));
  };
  uint64_t overflows = 0;
  forEachStep<32>(count, [&](size_t i, uint64_t mask) {
    char *p = acc + i;
    prefetchAhead(p, x + i);
    __m256i a = _mm256_maskz_loadu_epi8(__mmask32(mask), p);
    __m256i b = _mm256_maskz_loadu_epi8(__mmask32(mask), x + i);
    __m512i h = halfSums<_MM_FROUND_TO_ZERO>(toHalves(a), toHalves(b));
    __m256i sum = _mm512_cvtepi16_epi8(toFp8(h));
    _mm256_mask_storeu_epi8(p, __mmask32(mask), sum);
    if constexpr (Count)
      overflows += unsigned(_mm_popcnt_u32(
          unsigned(mask & finite(a) & finite(b) & ~finite(sum))));
  });
  return overflows;
}

template <bool Count>
uint64_t fp8AddLoop(const FloatFormat &f, char *acc, const char *x,
                    size_t count) {
  return fp8IsHalfTopByte(f) ? fp8AddSteps<Count, true>(f, acc, x, count)
                             : fp8AddSteps<Count, false>(f, acc, x, count);
}

/// narrowReduceLoopOf's general loop (KernelTable.inc's reduceNarrow): the
/// AVX2 kernel's.
void generalNarrowReduce(const FloatFormat &f, unsigned bytes, F32Op op,
                         void *acc, const void *x, size_t count) {
  avx2Kernels().reduceNarrow(f, bytes, op, acc, x, count);
}

//===-- Casts (§4) --------------------------------------------------------===//

using Widen = WidenLanes<Avx512Lanes<32>>;
using Narrow = NarrowLanes<Avx512Lanes<32>>;

template <bool Count, unsigned Bytes>
__attribute__((noinline)) void
narrowLoop(const FloatFormat &f, const char *src, char *dst, size_t count,
           unsigned config, FidelityCounts *events) {
  Narrow narrow(f, config);
  ClassCounts<NarrowClass> totals;
  forEachStep<16>(count, [&](size_t i, uint64_t mask) {
    prefetchAhead(src + 4 * i, dst + i * Bytes);
    __m512i codes = narrow.apply<Count>(load<4>(mask, src + 4 * i),
                                        __mmask16(mask), totals);
    if constexpr (Bytes == 1)
      _mm512_mask_cvtepi32_storeu_epi8(dst + i, __mmask16(mask), codes);
    else
      _mm512_mask_cvtepi32_storeu_epi16(dst + 2 * i, __mmask16(mask), codes);
  });
  if constexpr (Count)
    addNarrowClassEvents(f, config, count, totals, *events);
}

template <unsigned Bytes>
__attribute__((noinline)) void widenLoop(const FloatFormat &f, const char *src,
                                         char *dst, size_t count) {
  Widen widen(f);
  forEachStep<16>(count, [&](size_t i, uint64_t mask) {
    prefetchAhead(src + i * Bytes, dst + 4 * i);
    __m512i codes;
    if constexpr (Bytes == 1)
      codes =
          _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(__mmask16(mask), src + i));
    else
      codes = _mm512_cvtepu16_epi32(
          _mm256_maskz_loadu_epi16(__mmask16(mask), src + 2 * i));
    store<4>(dst + 4 * i, mask, widen(codes));
  });
}

//===-- BFP tiles (§5): one 16-value block per vector ---------------------===//

template <bool CountEvents, unsigned M, bool Fp16Exponent>
__attribute__((noinline)) void bfpPackLoop(const BfpFormatInfo &f,
                                           const char *tiles, size_t tileCount,
                                           char *out, BfpTally &tally) {
  // Counted in a local the stores to `out` cannot alias, so its cells stay
  // in registers; added to the caller's once.
  BfpTally local;
  for (size_t t = 0; t < tileCount; ++t) {
    const char *tile = tiles + t * kBfpTileBytesF32;
    char *packed = out + t * f.tileBytes;
    for (unsigned b = 0; b < kBfpTileBlocks; ++b) {
      const char *block = tile + 4 * bfpTileIndex(b, 0);
      prefetchAhead(block); // face order: every line of the next tile too
      __m512i bits = _mm512_loadu_si512(block);
      int shared = _mm512_reduce_max_epi32(
          bfpBlockExponents<Avx512Lanes<32>, Fp16Exponent>(bits));
      packed[b] = char(shared);
      __m128i datums = _mm512_cvtepi32_epi8(
          bfpEncodeLanes<Avx512Lanes<32>, CountEvents, M, Fp16Exponent>(
              bits, Avx512Lanes<32>::splat(uint32_t(shared)), local));
      bfpStoreBlockDatums(M + 1, packed, b, datums);
    }
  }
  for (int c = 0; c < BfpTally::kClasses; ++c)
    tally.cells[c] += local.cells[c];
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
      _mm512_storeu_si512(tile + 4 * bfpTileIndex(b, 0),
                          bfpDecodeLanes<Avx512Lanes<32>>(
                              f, _mm512_cvtepu8_epi32(bytes), in[b]));
    }
  }
}

#include "KernelTable.inc"

} // namespace

const VectorKernels &avx512Kernels() { return kKernelTable; }

} // namespace birsim::core

#pragma clang attribute pop
#endif // __x86_64__
