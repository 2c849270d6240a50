//===- Avx2Elementwise.h - Avx2's elementwise adds --------------*- C++ -*-===//
//
// Private to lib/Core/Kernels/x86; included only by Avx2.cpp, inside its
// namespace and target region, after the vocabulary it extends.
// The fp16 sums and the fp8 add step of Elementwise.h's halfAddLoop and
// fp8AddLoop (docs/Semantics.md §3: fp8 adds through fp16, rounded
// toward zero), on this path's conversions.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_X86_AVX2ELEMENTWISE_H
#define BIRSIM_LIB_CORE_KERNELS_X86_AVX2ELEMENTWISE_H

struct Avx2Elementwise : Avx2Vocabulary {
  /// 8 fp32 sums of fp16 lanes, rounded to fp16 by `Rounding`.
  template <int Rounding> static __m128i halfSums8(__m128i a, __m128i b) {
    return _mm256_cvtps_ph(
        _mm256_add_ps(_mm256_cvtph_ps(a), _mm256_cvtph_ps(b)), Rounding);
  }
  template <int Rounding> static __m256i halfSums(__m256i a, __m256i b) {
    return _mm256_set_m128i(halfSums8<Rounding>(_mm256_extracti128_si256(a, 1),
                                                _mm256_extracti128_si256(b, 1)),
                            halfSums8<Rounding>(_mm256_castsi256_si128(a),
                                                _mm256_castsi256_si128(b)));
  }
  static __m256i f16Sums(__m256i a, __m256i b) {
    return halfSums<_MM_FROUND_TO_NEAREST_INT>(a, b);
  }

  /// 32 fp8 codes per step, in unpack order.
  template <bool Count, bool TopByte> struct Fp8Add {
    static constexpr unsigned kElements = 32;
    explicit Fp8Add(const FloatFormat &f)
        : belowInf(_mm256_set1_epi8(char(f.infCode() - 1))), toHalf(f),
          toFp8(f) {}

    uint64_t operator()(Part, char *acc, const char *x) const {
      __m256i a = load<1>(Part{}, acc), b = load<1>(Part{}, x);
      __m256i sum = _mm256_packus_epi16(add16(a, b, _mm256_unpacklo_epi8),
                                        add16(a, b, _mm256_unpackhi_epi8));
      store<1>(acc, Part{}, sum);
      if constexpr (!Count)
        return 0;
      // docs/Fidelity.md's overflow: finite + finite giving Inf.
      __m256i overflow = _mm256_andnot_si256(
          finite(sum), _mm256_and_si256(finite(a), finite(b)));
      return unsigned(_mm_popcnt_u32(unsigned(_mm256_movemask_epi8(overflow))));
    }

    /// Half of the codes (one unpack) as 16 fp16 codes, summed, as fp8.
    template <typename Unpack>
    __m256i add16(__m256i a, __m256i b, Unpack unpack) const {
      __m256i zero = _mm256_setzero_si256();
      return toFp8(halfSums<_MM_FROUND_TO_ZERO>(toHalf(unpack(zero, a)),
                                                toHalf(unpack(zero, b))));
    }
    /// Non-NaN, non-Inf codes.
    __m256i finite(__m256i codes) const {
      __m256i m = _mm256_and_si256(codes, _mm256_set1_epi8(0x7F));
      return _mm256_cmpeq_epi8(_mm256_min_epu8(m, belowInf), m);
    }

    __m256i belowInf;
    Fp8ToHalfLanes<Avx2Lanes<16>, TopByte> toHalf;
    HalfSumToFp8Lanes<Avx2Lanes<16>> toFp8;
  };
};

#endif // BIRSIM_LIB_CORE_KERNELS_X86_AVX2ELEMENTWISE_H
