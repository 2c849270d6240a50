//===- SimdAvx512.cpp - AVX-512 kernels -----------------------------------===//
//
// Compiled for AVX-512 F/BW/VL + F16C (a target attribute, as in
// SimdAvx2.cpp) and called only when the CPU has them (Simd.cpp). Every
// kernel runs 16 fp32 lanes (64 bytes) per step, and the last step of each
// loop is the same vector step under a mask, so no element leaves the
// vector path; a BFP block of 16 values is one vector. Event tallies are
// popcounts of lane masks.
// Each lane computes exactly what the portable path computes
// (docs/Semantics.md sections 2-4); the tests compare the two, on an
// emulated AVX-512 CPU where the host has none (utils/avx512-emulated.sh).
//
//===----------------------------------------------------------------------===//
#include "KernelSupport.h"
#include "birsim/Core/Float.h"
#include "birsim/Core/Simd.h"

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#if defined(__x86_64__)
#pragma clang attribute push(                                                  \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx2,f16c,popcnt"))),    \
    apply_to = function)

namespace birsim::core {
namespace {

using namespace kernel;

__m512i splat(uint32_t v) { return _mm512_set1_epi32(int(v)); }
__m512i splat16(uint16_t v) { return _mm512_set1_epi16(short(v)); }
__m512 asFloat(__m512i v) { return _mm512_castsi512_ps(v); }
__m512i asInt(__m512 v) { return _mm512_castps_si512(v); }

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

//===-- fp32 (§2): the operand order is explicit in each lane -------------===//

/// ADDSS(a, b): a NaN `a` wins, quieted, whatever order the adder used; a
/// NaN `b` alone comes back quieted either way; Inf - Inf is the default NaN.
__m512i addss16(__m512i a, __m512i b) {
  __m512 sum = _mm512_add_ps(asFloat(a), asFloat(b));
  __mmask16 aNaN = _mm512_cmp_ps_mask(asFloat(a), asFloat(a), _CMP_UNORD_Q);
  return _mm512_mask_or_epi32(asInt(sum), aNaN, a, splat(kF32QuietBit));
}
/// MINSS(a, b) = a < b ? a : b, else b; VMINPS has exactly these lanes.
__m512i minss16(__m512i a, __m512i b) {
  return asInt(_mm512_min_ps(asFloat(a), asFloat(b)));
}
/// MAXSS(a, b) = a > b ? a : b, else b.
__m512i maxss16(__m512i a, __m512i b) {
  return asInt(_mm512_max_ps(asFloat(a), asFloat(b)));
}

/// The operation `Op` with its operand order, on 16 lanes.
template <F32Op Op> __m512i apply16(__m512i acc, __m512i x) {
  __m512i a = accumulatorFirst(Op) ? acc : x,
          b = accumulatorFirst(Op) ? x : acc;
  constexpr F32Instruction instruction = instructionOf(Op);
  return instruction == F32Instruction::addss   ? addss16(a, b)
         : instruction == F32Instruction::minss ? minss16(a, b)
                                                : maxss16(a, b);
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

void reduceF32(F32Op op, void *acc, const void *x, size_t count) {
  KernelEntry entry(x, 4 * count, acc, 4 * count);
  withF32Op(op, [&](auto f32Op) {
    reduceF32Loop<f32Op>(static_cast<char *>(acc),
                         static_cast<const char *>(x), count);
  });
}

//===-- int32/int64 (§3) --------------------------------------------------===//

/// Wrapping add, signed min/max (equal values are the same bits, so the
/// order of MIN/MAX's operands does not matter).
template <unsigned Bytes, int Op>
__attribute__((noinline)) void integerLoop(char *acc, const char *x,
                                           size_t count) {
  auto apply = [](__m512i a, __m512i b) {
    if constexpr (Bytes == 4)
      return Op == 1   ? _mm512_add_epi32(a, b)
             : Op == 2 ? _mm512_min_epi32(a, b)
                       : _mm512_max_epi32(a, b);
    else
      return Op == 1   ? _mm512_add_epi64(a, b)
             : Op == 2 ? _mm512_min_epi64(a, b)
                       : _mm512_max_epi64(a, b);
  };
  forEachStep<64 / Bytes>(count, [&](size_t i, uint64_t mask) {
    char *a = acc + i * Bytes;
    prefetchAhead(a, x + i * Bytes);
    store<Bytes>(a, mask,
                 apply(load<Bytes>(mask, a), load<Bytes>(mask, x + i * Bytes)));
  });
}

void reduceInteger(unsigned bytes, int op, void *acc, const void *x,
                   size_t count) {
  KernelEntry entry(x, bytes * count, acc, bytes * count);
  withIntegerOp(bytes, op, [&](auto width, auto integerOp) {
    integerLoop<width, integerOp>(static_cast<char *>(acc),
                                  static_cast<const char *>(x), count);
  });
}

//===-- Narrow float formats (§3, §4) -------------------------------------===//

/// min/max of a narrow IEEE format on its codes, by SimdAvx2.cpp's
/// minMaxCodesLoop argument (§3, §4). Lanes are 8 or 16 bits.
template <bool IsMin, unsigned Bytes>
__attribute__((noinline)) void
minMaxCodesLoop(const FloatFormat &f, char *acc, const char *x,
                size_t count) {
  using Mask = std::conditional_t<Bytes == 1, __mmask64, __mmask32>;
  auto set1 = [](uint32_t v) {
    return Bytes == 1 ? _mm512_set1_epi8(char(v)) : splat16(uint16_t(v));
  };
  auto gt = [](__m512i a, __m512i b) -> Mask {
    if constexpr (Bytes == 1)
      return _mm512_cmpgt_epi8_mask(a, b);
    else
      return _mm512_cmpgt_epi16_mask(a, b);
  };
  auto blend = [](Mask m, __m512i otherwise, __m512i whenSet) {
    if constexpr (Bytes == 1)
      return _mm512_mask_blend_epi8(m, otherwise, whenSet);
    else
      return _mm512_mask_blend_epi16(m, otherwise, whenSet);
  };
  // Negative codes' magnitudes negated: an integer key in value order.
  auto key = [&](__m512i code, __m512i magnitude) {
    __m512i zero = _mm512_setzero_si512();
    Mask negative = gt(zero, code);
    if constexpr (Bytes == 1)
      return _mm512_mask_sub_epi8(magnitude, negative, zero, magnitude);
    else
      return _mm512_mask_sub_epi16(magnitude, negative, zero, magnitude);
  };
  __m512i magnitudeMask = set1(f.signMask() - 1), inf = set1(f.infCode());
  __m512i nanResult = set1(f.nanResult);
  forEachStep<64 / Bytes>(count, [&](size_t i, uint64_t mask) {
    char *p = acc + i * Bytes;
    prefetchAhead(p, x + i * Bytes);
    __m512i a = load<Bytes>(mask, p), b = load<Bytes>(mask, x + i * Bytes);
    __m512i aMagnitude = _mm512_and_si512(a, magnitudeMask);
    __m512i bMagnitude = _mm512_and_si512(b, magnitudeMask);
    Mask aNaN = gt(aMagnitude, inf), bNaN = gt(bMagnitude, inf);
    __m512i aKey = key(a, aMagnitude), bKey = key(b, bMagnitude);
    Mask takeX =
        Mask(~(aNaN | bNaN) & (IsMin ? gt(aKey, bKey) : gt(bKey, aKey)));
    __m512i nan = f.nanKeepsSign
                      ? _mm512_or_si512(nanResult,
                                        _mm512_andnot_si512(magnitudeMask, a))
                      : nanResult;
    store<Bytes>(p, mask, blend(aNaN, blend(takeX, a, b), nan));
  });
}

/// bf16 add, as in SimdAvx2.cpp: widening is a shift, RNE narrowing adds
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
    __m512i sum = asInt(_mm512_add_ps(asFloat(widen(mask, p)),
                                      asFloat(widen(mask, x + 2 * i))));
    __mmask16 isNaN = _mm512_cmpgt_epi32_mask(
        _mm512_and_si512(sum, splat(0x7FFFFFFF)), splat(0x7F800000));
    __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(sum, 16), splat(1));
    __m512i rounded = _mm512_srli_epi32(
        _mm512_add_epi32(_mm512_add_epi32(sum, splat(0x7FFF)), lsb), 16);
    rounded = _mm512_mask_mov_epi32(rounded, isNaN, splat(0x7FC0));
    _mm256_mask_storeu_epi16(p, __mmask16(mask),
                             _mm512_cvtepi32_epi16(rounded));
  });
}

/// fp16 add with F16C lanes, as in SimdAvx2.cpp: a NaN sum narrows to
/// 0x7E00 with the sign of `acc` when it is NaN, else of the sum (§4).
__attribute__((noinline)) void f16AddLoop(char *acc, const char *x,
                                          size_t count) {
  __m256i magnitude = _mm256_set1_epi16(0x7FFF),
          inf = _mm256_set1_epi16(0x7C00);
  __m256i nanCode = _mm256_set1_epi16(0x7E00);
  forEachStep<16>(count, [&](size_t i, uint64_t mask) {
    char *p = acc + 2 * i;
    prefetchAhead(p, x + 2 * i);
    __m256i a = _mm256_maskz_loadu_epi16(__mmask16(mask), p);
    __m256i b = _mm256_maskz_loadu_epi16(__mmask16(mask), x + 2 * i);
    __m256i h = _mm512_cvtps_ph(
        _mm512_add_ps(_mm512_cvtph_ps(a), _mm512_cvtph_ps(b)),
        _MM_FROUND_TO_NEAREST_INT);
    __mmask16 aNaN =
        _mm256_cmpgt_epi16_mask(_mm256_and_si256(a, magnitude), inf);
    __mmask16 isNaN =
        _mm256_cmpgt_epi16_mask(_mm256_and_si256(h, magnitude), inf);
    __m256i nan = _mm256_or_si256(
        _mm256_andnot_si256(magnitude, _mm256_mask_blend_epi16(aNaN, h, a)),
        nanCode);
    _mm256_mask_storeu_epi16(p, __mmask16(mask),
                             _mm256_mask_blend_epi16(isNaN, h, nan));
  });
}

/// fp8 add (IEEE fp8 formats, config 0), by SimdAvx2.cpp's fp8AddLoop
/// argument (§4). 32 lanes per step, in memory order. With Count, returns
/// countFp8AddOverflows of the elements.
template <bool Count>
__attribute__((noinline)) uint64_t fp8AddLoop(const FloatFormat &f, char *acc,
                                              const char *x, size_t count) {
  unsigned m = f.mantissaBits,
           toHalf = m - 2; // fp16 bits = fp8 bits << 8 >> toHalf
  __m128i toHalfShift = _mm_cvtsi32_si128(int(toHalf));
  __m128i dropShift = _mm_cvtsi32_si128(int(10 - m));
  __m512i halfMask = splat16(uint16_t(0x8000 | (0x7F00 >> toHalf)));
  __m256i byteMagnitude = _mm256_set1_epi8(0x7F);
  __m256i belowInf = _mm256_set1_epi8(char(f.infCode() - 1));
  __m512i halfTopExponent = splat16(0x7C00);
  __m512i magnitude = splat16(0x7FFF), halfInf = splat16(0x7C00);
  __m512i roundBias = splat16(uint16_t((1u << (9 - m)) - 1));
  __m512i one = splat16(1), infCode = splat16(uint16_t(f.infCode()));
  __m512i nanCode = splat16(uint16_t(f.nanResult));
  // Non-NaN, non-Inf codes (docs/Fidelity.md's overflow: finite + finite
  // giving Inf).
  auto finite = [&](__m256i codes) {
    return _mm256_cmple_epu8_mask(_mm256_and_si256(codes, byteMagnitude),
                                  belowInf);
  };
  // 32 codes -> 32 fp16 codes in 16-bit lanes.
  auto toHalves = [&](__m256i codes) {
    __m512i h = _mm512_slli_epi16(_mm512_cvtepu8_epi16(codes), 8);
    if (toHalf) { // not E5M2 (fp16's top byte): shift; Inf/NaN to exponent 31
      h = _mm512_and_si512(_mm512_sra_epi16(h, toHalfShift), halfMask);
      h = _mm512_mask_mov_epi16(h, ~finite(codes),
                                _mm512_or_si512(h, halfTopExponent));
    }
    return h;
  };
  // 16 fp16 + 16 fp16 -> fp16, the fp32 sum truncated.
  auto sum16 = [](__m256i a, __m256i b) {
    return _mm512_cvtps_ph(
        _mm512_add_ps(_mm512_cvtph_ps(a), _mm512_cvtph_ps(b)),
        _MM_FROUND_TO_ZERO);
  };
  uint64_t overflows = 0;
  forEachStep<32>(count, [&](size_t i, uint64_t mask) {
    char *p = acc + i;
    prefetchAhead(p, x + i);
    __m256i a = _mm256_maskz_loadu_epi8(__mmask32(mask), p);
    __m256i b = _mm256_maskz_loadu_epi8(__mmask32(mask), x + i);
    __m512i aHalves = toHalves(a), bHalves = toHalves(b);
    __m512i h = _mm512_inserti64x4(
        _mm512_castsi256_si512(sum16(_mm512_castsi512_si256(aHalves),
                                     _mm512_castsi512_si256(bHalves))),
        sum16(_mm512_extracti64x4_epi64(aHalves, 1),
              _mm512_extracti64x4_epi64(bHalves, 1)),
        1);
    __m512i mag = _mm512_and_si512(h, magnitude);
    __m512i odd = _mm512_and_si512(_mm512_srl_epi16(mag, dropShift), one);
    __m512i code = _mm512_srl_epi16(
        _mm512_add_epi16(_mm512_add_epi16(mag, roundBias), odd), dropShift);
    code = _mm512_or_si512(
        _mm512_min_epu16(code, infCode),
        _mm512_srli_epi16(_mm512_andnot_si512(magnitude, h), 8));
    code = _mm512_mask_mov_epi16(code, _mm512_cmpgt_epi16_mask(mag, halfInf),
                                 nanCode);
    __m256i sum = _mm512_cvtepi16_epi8(code);
    _mm256_mask_storeu_epi8(p, __mmask32(mask), sum);
    if constexpr (Count)
      overflows += unsigned(_mm_popcnt_u32(
          unsigned(mask & finite(a) & finite(b) & ~finite(sum))));
  });
  return overflows;
}

uint64_t fp8AddCounted(const FloatFormat &f, void *acc, const void *x,
                       size_t count) {
  KernelEntry entry(x, count, acc, count);
  return fp8AddLoop<true>(f, static_cast<char *>(acc),
                          static_cast<const char *>(x), count);
}

using NarrowReduceLoop = void (*)(const FloatFormat &, char *, const char *,
                                  size_t);

/// The loop above for `op` on format `f`, or null for the general
/// widen-op-narrow loop (e4m3fn), which the AVX2 kernel runs.
NarrowReduceLoop narrowReduceLoop(const FloatFormat &f, unsigned bytes,
                                  F32Op op) {
  bool ieee = f.nonFinite == NonFinite::IEEE;
  if (ieee && op == F32Op::kernelMin)
    return bytes == 1 ? minMaxCodesLoop<true, 1> : minMaxCodesLoop<true, 2>;
  if (ieee && op == F32Op::kernelMax)
    return bytes == 1 ? minMaxCodesLoop<false, 1> : minMaxCodesLoop<false, 2>;
  if (op != F32Op::kernelAdd)
    return nullptr;
  if (ieee && bytes == 1)
    return [](const FloatFormat &f, char *a, const char *b, size_t n) {
      fp8AddLoop<false>(f, a, b, n);
    };
  if (&f == dtypeInfo(Dtype::bfloat16).format)
    return [](const FloatFormat &, char *a, const char *b, size_t n) {
      bf16AddLoop(a, b, n);
    };
  if (&f == dtypeInfo(Dtype::float16).format)
    return [](const FloatFormat &, char *a, const char *b, size_t n) {
      f16AddLoop(a, b, n);
    };
  return nullptr;
}

void reduceNarrow(const FloatFormat &f, unsigned bytes, F32Op op, void *acc,
                  const void *x, size_t count) {
  NarrowReduceLoop loop = narrowReduceLoop(f, bytes, op);
  if (!loop)
    return avx2Kernels().reduceNarrow(f, bytes, op, acc, x, count);
  KernelEntry entry(x, bytes * count, acc, bytes * count);
  loop(f, static_cast<char *>(acc), static_cast<const char *>(x), count);
}

//===-- Casts (§4) --------------------------------------------------------===//

/// Widening 16 codes to fp32 (WidenConstants).
struct Widen {
  explicit Widen(const FloatFormat &f) : c(f) {}

  __m512i operator()(__m512i code) const {
    __m128i signShift = _mm_cvtsi32_si128(c.signShift);
    __m128i toF32Mantissa = _mm_cvtsi32_si128(c.toF32Mantissa);
    __m512i exponentMask = splat(c.exponentMask);
    __m512i sign = _mm512_slli_epi32(_mm512_srl_epi32(code, signShift), 31);
    __m512i exponent = _mm512_and_si512(
        _mm512_srl_epi32(code, _mm_cvtsi32_si128(c.mantissaShift)),
        exponentMask);
    __m512i mantissa = _mm512_and_si512(code, splat(c.mantissaMask));
    __m512i shifted = _mm512_sll_epi32(mantissa, toF32Mantissa);
    __m512i value = _mm512_or_si512(
        _mm512_slli_epi32(_mm512_add_epi32(exponent, splat(c.rebias)), 23),
        shifted);
    __mmask16 isSubnormal =
        _mm512_cmpeq_epi32_mask(exponent, _mm512_setzero_si512());
    // Only subnormal lanes multiply (no denormal results elsewhere).
    __m512i subnormal =
        c.sameExponentsAsF32
            ? shifted
            : asInt(_mm512_maskz_mul_ps(isSubnormal,
                                        _mm512_cvtepi32_ps(mantissa),
                                        _mm512_set1_ps(c.subnormalScale)));
    value = _mm512_mask_mov_epi32(value, isSubnormal, subnormal);
    __mmask16 nonFinite = _mm512_cmpeq_epi32_mask(exponent, exponentMask);
    if (!c.ieee)
      nonFinite &= _mm512_cmpeq_epi32_mask(mantissa, splat(c.mantissaMask));
    value = _mm512_mask_mov_epi32(
        value, nonFinite, _mm512_or_si512(splat(0x7F800000u), shifted));
    return _mm512_or_si512(value, sign);
  }

  WidenConstants c;
};

/// Narrowing 16 fp32 values to codes (NarrowConstants); with Count, the
/// lanes of `mask` tallied by class into `totals`.
struct Narrow {
  Narrow(const FloatFormat &f, unsigned config) : c(f, config) {}

  template <bool Count>
  __m512i apply(__m512i x, uint64_t mask, NarrowClassTotals &totals) const {
    __m128i dropShift = _mm_cvtsi32_si128(c.dropShift);
    __m512i rebias = splat(c.rebias), magicBits = splat(c.magicBits);
    __m512i magnitude = _mm512_and_si512(x, splat(0x7FFFFFFFu));
    __m512i sign =
        _mm512_srl_epi32(_mm512_and_si512(x, splat(kF32SignMask)),
                         _mm_cvtsi32_si128(c.signToFormat));
    __mmask16 isNaN = _mm512_cmpgt_epi32_mask(magnitude, splat(0x7F800000u));
    __m512i rebiased = _mm512_add_epi32(magnitude, rebias);
    __m512i odd =
        _mm512_and_si512(_mm512_srl_epi32(rebiased, dropShift), splat(1));
    __m512i normal = _mm512_srl_epi32(
        _mm512_add_epi32(_mm512_add_epi32(rebiased, splat(c.roundBias)), odd),
        dropShift);
    __m512i subnormal = _mm512_sub_epi32(
        asInt(_mm512_add_ps(asFloat(magnitude), asFloat(magicBits))),
        magicBits);
    __mmask16 isSubnormal =
        _mm512_cmpgt_epi32_mask(splat(c.minNormal), magnitude);
    __m512i code = _mm512_mask_mov_epi32(normal, isSubnormal, subnormal);
    __mmask16 overflow = _mm512_cmpgt_epi32_mask(code, splat(c.maxFinite));
    if constexpr (Count) {
      // The code's value back as fp32 magnitude bits: exact when the lane
      // kept its value.
      __m512i back = _mm512_mask_mov_epi32(
          _mm512_sub_epi32(_mm512_sll_epi32(code, dropShift), rebias),
          isSubnormal,
          asInt(_mm512_sub_ps(asFloat(_mm512_add_epi32(code, magicBits)),
                              asFloat(magicBits))));
      __m512i zero = _mm512_setzero_si512();
      auto count = [&](uint64_t lanes) {
        return uint64_t(_mm_popcnt_u32(unsigned(lanes & mask)));
      };
      totals.overflow += count(overflow);
      totals.nan += count(isNaN);
      totals.inf +=
          count(_mm512_cmpeq_epi32_mask(magnitude, splat(0x7F800000u)));
      totals.lost += count(_mm512_cmpeq_epi32_mask(code, zero) &
                           ~_mm512_cmpeq_epi32_mask(magnitude, zero));
      totals.exact +=
          count(~overflow & _mm512_cmpeq_epi32_mask(back, magnitude));
    }
    __m512i value = _mm512_mask_mov_epi32(
        _mm512_or_si512(code, sign), overflow,
        _mm512_or_si512(splat(c.overflowBase),
                        _mm512_and_si512(sign, splat(c.overflowSign))));
    return _mm512_mask_mov_epi32(
        value, isNaN,
        _mm512_or_si512(splat(c.nanBase),
                        _mm512_and_si512(sign, splat(c.nanSign))));
  }

  NarrowConstants c;
};

template <bool Count, unsigned Bytes>
__attribute__((noinline)) void
narrowLoop(const FloatFormat &f, const char *src, char *dst, size_t count,
           unsigned config, FidelityCounts *events) {
  Narrow narrow(f, config);
  NarrowClassTotals totals;
  forEachStep<16>(count, [&](size_t i, uint64_t mask) {
    prefetchAhead(src + 4 * i, dst + i * Bytes);
    __m512i codes =
        narrow.apply<Count>(load<4>(mask, src + 4 * i), mask, totals);
    if constexpr (Bytes == 1)
      _mm512_mask_cvtepi32_storeu_epi8(dst + i, __mmask16(mask), codes);
    else
      _mm512_mask_cvtepi32_storeu_epi16(dst + 2 * i, __mmask16(mask), codes);
  });
  if constexpr (Count)
    totals.addTo(f, config, count, *events);
}

void narrowFromF32Kernel(const FloatFormat &f, unsigned bytes,
                         const void *src, void *dst, size_t count,
                         unsigned config, FidelityCounts *events) {
  KernelEntry entry(src, 4 * count, dst, bytes * count);
  withNarrowCase(events != nullptr, bytes, [&](auto counted, auto width) {
    narrowLoop<counted, width>(f, static_cast<const char *>(src),
                               static_cast<char *>(dst), count, config, events);
  });
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

void widenToF32Kernel(const FloatFormat &f, unsigned bytes, const void *src,
                      void *dst, size_t count) {
  KernelEntry entry(src, bytes * count, dst, 4 * count);
  auto *in = static_cast<const char *>(src);
  auto *out = static_cast<char *>(dst);
  bytes == 1 ? widenLoop<1>(f, in, out, count)
             : widenLoop<2>(f, in, out, count);
}

//===-- BFP tiles (§5): one 16-value block per vector ---------------------===//

/// The exponent each value contributes: its field ("b"), or that field
/// rebased to 5 bits and clamped ("a", step 2).
template <bool Fp16Exponent> __m512i blockExponents(__m512i bits) {
  __m512i e = _mm512_and_si512(_mm512_srli_epi32(bits, 23), splat(0xFF));
  if constexpr (Fp16Exponent)
    e = _mm512_min_epi32(
        _mm512_max_epi32(_mm512_sub_epi32(e, splat(kBfpFp16Rebias)),
                         _mm512_setzero_si512()),
        splat(kBfpMaxE5));
  return e;
}

/// Steps 1-5 on a block under shared exponent `shared` (the block's
/// largest, so no lane shifts left), as SimdAvx2.cpp's encode8: the 16
/// datums as bytes; ties into `tally`, and with CountEvents the other events
/// of docs/Fidelity.md, each a popcount of its lanes.
template <bool CountEvents, unsigned M, bool Fp16Exponent>
__m128i encodeBlock(__m512i bits, __m512i shared, BfpTally &tally) {
  constexpr unsigned dropped = 24 - M;
  auto count = [](__mmask16 lanes) { return uint64_t(_mm_popcnt_u32(lanes)); };
  __m512i zeroVector = _mm512_setzero_si512();
  __m512i e = _mm512_and_si512(_mm512_srli_epi32(bits, 23), splat(0xFF));
  __mmask16 zero = _mm512_cmpeq_epi32_mask(e, zeroVector);
  __m512i significand = _mm512_or_si512(
      _mm512_and_si512(bits, splat(0x7FFFFF)), splat(0x800000));
  if constexpr (Fp16Exponent) {
    __m512i e5 = _mm512_sub_epi32(e, splat(kBfpFp16Rebias));
    __mmask16 below = _mm512_cmplt_epi32_mask(e5, zeroVector);
    __mmask16 above = _mm512_cmpgt_epi32_mask(e5, splat(kBfpMaxE5));
    if constexpr (CountEvents)
      tally.exponentClamped += count(__mmask16(~zero & (below | above)));
    significand = _mm512_mask_mov_epi32(significand, below, splat(0x800000));
    significand = _mm512_mask_mov_epi32(significand, above, splat(0xFFFFFF));
    e = _mm512_min_epi32(_mm512_max_epi32(e5, zeroVector), splat(kBfpMaxE5));
  }
  // Zeros and denormals are datum 0 (step 1): a zero significand.
  significand = _mm512_maskz_mov_epi32(__mmask16(~zero), significand);
  __m512i aligned = _mm512_srlv_epi32(significand,
                                      _mm512_sub_epi32(shared, e)); // >= 32: 0
  // Round to nearest even: a carry out of the dropped bits.
  __m512i oddBit =
      _mm512_and_si512(_mm512_srli_epi32(aligned, dropped), splat(1));
  __m512i rounded = _mm512_srli_epi32(
      _mm512_add_epi32(
          _mm512_add_epi32(aligned, splat((1u << (dropped - 1)) - 1)), oddBit),
      dropped);
  __mmask16 tie = _mm512_cmpeq_epi32_mask(
      _mm512_and_si512(aligned, splat((1u << dropped) - 1)),
      splat(1u << (dropped - 1)));
  tally.seen += count(tie);
  tally.roundedUp += count(_mm512_mask_test_epi32_mask(tie, oddBit, oddBit));
  __m512i largest = splat((1u << M) - 1);
  __m512i magnitude = _mm512_min_epu32(rounded, largest);
  if constexpr (CountEvents) {
    tally.saturated += count(_mm512_cmpgt_epu32_mask(rounded, largest));
    // Finite non-zero inputs (denormals included) whose datum is 0.
    __m512i absBits = _mm512_and_si512(bits, splat(0x7FFFFFFFu));
    __mmask16 finiteNonZero =
        _mm512_cmpneq_epi32_mask(absBits, zeroVector) &
        _mm512_cmplt_epi32_mask(absBits, splat(0x7F800000u));
    tally.flushedToZero += count(
        _mm512_mask_cmpeq_epi32_mask(finiteNonZero, magnitude, zeroVector));
  }
  // The sign bit above the magnitude, dropped when the magnitude is 0.
  __m512i sign = _mm512_min_epu32(
      _mm512_and_si512(_mm512_srli_epi32(bits, 31 - M), splat(1u << M)),
      _mm512_slli_epi32(magnitude, M));
  return _mm512_cvtepi32_epi8(_mm512_or_si512(sign, magnitude));
}

template <bool CountEvents, unsigned M, bool Fp16Exponent>
__attribute__((noinline)) void bfpPackLoop(const BfpFormatInfo &f,
                                           const char *tiles, size_t tileCount,
                                           char *out, BfpTally &tally) {
  for (size_t t = 0; t < tileCount; ++t) {
    const char *tile = tiles + t * kBfpTileBytesF32;
    char *packed = out + t * f.tileBytes;
    for (unsigned b = 0; b < kBfpTileBlocks; ++b) {
      const char *block = tile + 4 * bfpTileIndex(b, 0);
      prefetchAhead(block); // face order: every line of the next tile too
      __m512i bits = _mm512_loadu_si512(block);
      int shared = _mm512_reduce_max_epi32(blockExponents<Fp16Exponent>(bits));
      packed[b] = char(shared);
      __m128i datums = encodeBlock<CountEvents, M, Fp16Exponent>(
          bits, splat(uint32_t(shared)), tally);
      bfpStoreBlockDatums(M, packed, b, datums);
    }
  }
}

void bfpPack(const BfpFormatInfo &f, const void *tiles, size_t tileCount,
             void *out, BfpTally &tally, bool countEvents) {
  KernelEntry entry(tiles, kBfpTileBytesF32 * tileCount, out,
                    f.tileBytes * tileCount);
  withBfpCase(f, countEvents, [&](auto counted, auto m, auto fp16Exponent) {
    bfpPackLoop<counted, m, fp16Exponent>(f, static_cast<const char *>(tiles),
                                          tileCount, static_cast<char *>(out),
                                          tally);
  });
}

/// Decodes a block's 16 datums (u32 lanes) under shared exponent `shared`,
/// as SimdAvx2.cpp's decode8.
__m512i decodeBlock(const BfpFormatInfo &f, __m512i datum, int shared) {
  unsigned m = f.mantissaBits;
  __m512i sign = _mm512_slli_epi32(
      _mm512_and_si512(_mm512_srl_epi32(datum, _mm_cvtsi32_si128(int(m))),
                       splat(1)),
      31);
  __m512i magnitude = _mm512_and_si512(datum, splat((1u << m) - 1));
  // The exact float of the magnitude gives its leading one and fraction.
  __m512i asF32 = asInt(_mm512_cvtepi32_ps(magnitude));
  __m512i lead = _mm512_sub_epi32(_mm512_srli_epi32(asF32, 23), splat(127));
  __m512i fraction = _mm512_and_si512(asF32, splat(0x7FFFFF));
  __m512i leadingZeros = _mm512_sub_epi32(splat(m - 1), lead);
  __m512i exponent =
      f.fp16Exponent
          ? _mm512_add_epi32(
                _mm512_sub_epi32(splat(uint32_t(shared & 31)), leadingZeros),
                splat(kBfpFp16Rebias))
          : _mm512_and_si512(
                _mm512_sub_epi32(splat(uint32_t(shared)), leadingZeros),
                splat(0xFF));
  __m512i value = _mm512_or_si512(
      sign, _mm512_or_si512(_mm512_slli_epi32(exponent, 23), fraction));
  return _mm512_mask_mov_epi32(
      value, _mm512_cmpeq_epi32_mask(magnitude, _mm512_setzero_si512()), sign);
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
                          decodeBlock(f, _mm512_cvtepu8_epi32(bytes), in[b]));
    }
  }
}

void bfpUnpack(const BfpFormatInfo &f, const void *packed, size_t tileCount,
               void *tiles) {
  KernelEntry entry(packed, f.tileBytes * tileCount, tiles,
                    kBfpTileBytesF32 * tileCount);
  bfpUnpackLoop(f, static_cast<const unsigned char *>(packed), tileCount,
                static_cast<char *>(tiles));
}

} // namespace

const VectorKernels &avx512Kernels() {
  static const VectorKernels kernels = {
      reduceF32,        reduceNarrow, reduceInteger, narrowFromF32Kernel,
      widenToF32Kernel, bfpPack,      bfpUnpack,     fp8AddCounted};
  return kernels;
}

} // namespace birsim::core

#pragma clang attribute pop
#endif // __x86_64__
