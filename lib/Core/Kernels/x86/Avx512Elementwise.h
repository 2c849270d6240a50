//===- Avx512Elementwise.h - Avx512's elementwise adds ----------*- C++ -*-===//
//
// Private to lib/Core/Kernels/x86; included only by Avx512.cpp, inside its
// namespace and target region, after the vocabulary it extends.
// The fp16 sums and the fp8 add step of Elementwise.h's halfAddLoop and
// fp8AddLoop (docs/Semantics.md §3: fp8 adds through fp16, rounded
// toward zero), on this path's conversions.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_X86_AVX512ELEMENTWISE_H
#define BIRSIM_LIB_CORE_KERNELS_X86_AVX512ELEMENTWISE_H

struct Avx512Elementwise : Avx512Vocabulary {
  /// 32 fp16 + 32 fp16 -> the 32 fp32 sums rounded to fp16 by `Rounding`.
  template <int Rounding> static __m512i halfSums(__m512i a, __m512i b) {
    auto sum16 = [](__m256i a, __m256i b) {
      return _mm512_cvtps_ph(
          _mm512_add_ps(_mm512_cvtph_ps(a), _mm512_cvtph_ps(b)), Rounding);
    };
    return _mm512_inserti64x4(
        _mm512_castsi256_si512(
            sum16(_mm512_castsi512_si256(a), _mm512_castsi512_si256(b))),
        sum16(_mm512_extracti64x4_epi64(a, 1),
              _mm512_extracti64x4_epi64(b, 1)),
        1);
  }
  static __m512i f16Sums(__m512i a, __m512i b) {
    return halfSums<_MM_FROUND_TO_NEAREST_INT>(a, b);
  }

  /// 32 fp8 codes per step, in memory order.
  template <bool Count, bool TopByte> struct Fp8Add {
    static constexpr unsigned kElements = 32;
    explicit Fp8Add(const FloatFormat &f)
        : belowInf(_mm256_set1_epi8(char(f.infCode() - 1))), toHalf(f),
          toFp8(f) {}

    uint64_t operator()(Part mask, char *acc, const char *x) const {
      __m256i a = _mm256_maskz_loadu_epi8(__mmask32(mask), acc);
      __m256i b = _mm256_maskz_loadu_epi8(__mmask32(mask), x);
      __m512i h = halfSums<_MM_FROUND_TO_ZERO>(toHalves(a), toHalves(b));
      __m256i sum = _mm512_cvtepi16_epi8(toFp8(h));
      _mm256_mask_storeu_epi8(acc, __mmask32(mask), sum);
      if constexpr (!Count)
        return 0;
      // docs/Fidelity.md's overflow: finite + finite giving Inf.
      return unsigned(_mm_popcnt_u32(
          unsigned(mask & finite(a) & finite(b) & ~finite(sum))));
    }

    /// 32 codes -> 32 fp16 codes in 16-bit lanes.
    __m512i toHalves(__m256i codes) const {
      return toHalf(_mm512_slli_epi16(_mm512_cvtepu8_epi16(codes), 8));
    }
    /// Non-NaN, non-Inf codes.
    __mmask32 finite(__m256i codes) const {
      return _mm256_cmple_epu8_mask(
          _mm256_and_si256(codes, _mm256_set1_epi8(0x7F)), belowInf);
    }

    __m256i belowInf;
    Fp8ToHalfLanes<Avx512Lanes<16>, TopByte> toHalf;
    HalfSumToFp8Lanes<Avx512Lanes<16>> toFp8;
  };
};

#endif // BIRSIM_LIB_CORE_KERNELS_X86_AVX512ELEMENTWISE_H
