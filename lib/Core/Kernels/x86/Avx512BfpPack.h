//===- Avx512BfpPack.h - Avx512's 16-bit BFP pack ---------------*- C++ -*-===//
//
// Private to lib/Core/Kernels/x86; included only by Avx512.cpp, inside its
// namespace and target region, after the vocabulary it extends.
// The host's BFP pack (docs/Semantics.md §5, no events) of 4 blocks
// on 16-bit lanes, BfpPack.h's fast path: each block of it names the
// step of §5 it implements. BfpPackHalvesTest pins each tie and
// saturation branch against the portable pack.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_X86_AVX512BFPPACK_H
#define BIRSIM_LIB_CORE_KERNELS_X86_AVX512BFPPACK_H

struct Avx512BfpPack : Avx512BfpWalk {
  /// Avx2::bfpPackHalves' rule (§5, no events) with 32 16-bit lanes a
  /// vector, two blocks, their value i in lane i and 16 + i.
  template <unsigned M, bool Fp16Exponent, bool Bf16, class Tally>
  __attribute__((always_inline)) static bool
  bfpPackHalves(const char *const *values, char *exponents, char *datums,
                unsigned blockDatumBytes, BfpTieHistory &history, Tally &tally,
                BfpLargest *largest) {
    constexpr int kSteps = M + 1; // idx's largest
    auto table = [](auto at) {    // at(i) for i in [1, M + 1], else 0
      alignas(64) char t[64] = {};
      for (int q = 0; q < 64; q += 16)
        for (int i = 1; i <= kSteps; ++i)
          t[q + i] = char(at(i));
      return _mm512_load_si512(t);
    };
    __m512i hi[2], lo[2] = {}; // bfloat16: no low halves
    for (int h = 0; h < 2; ++h) {
      if constexpr (Bf16) {
        hi[h] = _mm512_inserti64x4(
            _mm512_castsi256_si512(
                _mm256_loadu_si256((const __m256i *)values[2 * h])),
            _mm256_loadu_si256((const __m256i *)values[2 * h + 1]), 1);
      } else {
        // Word 2i + 1 (a top half) and 2i of value i, block 2h's then
        // 2h + 1's.
        alignas(64) static constexpr auto kWords = [] {
          struct {
            short odd[32], even[32];
          } w{};
          for (int i = 0; i < 32; ++i) {
            w.odd[i] = short(2 * i + 1);
            w.even[i] = short(2 * i);
          }
          return w;
        }();
        __m512i a = _mm512_loadu_si512(values[2 * h]),
                b = _mm512_loadu_si512(values[2 * h + 1]);
        hi[h] = _mm512_permutex2var_epi16(a, _mm512_load_si512(kWords.odd), b);
        lo[h] = _mm512_permutex2var_epi16(a, _mm512_load_si512(kWords.even), b);
      }
    }
    // The shared exponent (§5, after step 5): each block's largest key (the
    // magnitude's bits): block k in quarter
    // k, then within quarters, the largest e in every dword.
    __m512i k0 = _mm512_slli_epi16(hi[0], 1), k1 = _mm512_slli_epi16(hi[1], 1);
    __m512i m =
        _mm512_max_epu16(_mm512_shuffle_i64x2(k0, k1, _MM_SHUFFLE(2, 0, 2, 0)),
                         _mm512_shuffle_i64x2(k0, k1, _MM_SHUFFLE(3, 1, 3, 1)));
    m = _mm512_max_epu16(m, _mm512_shuffle_epi32(m, _MM_PERM_BADC));
    m = _mm512_max_epu16(m, _mm512_shuffle_epi32(m, _MM_PERM_CDAB));
    m = _mm512_max_epu16(m, _mm512_srli_epi32(m, 16));
    __m512i field, shared = bfpSharedOfHalfKeys<L32, Fp16Exponent>(m, field);
    // Declined: a "b" block with S <= M (as Avx2::bfpPackHalves).
    if (!Fp16Exponent &&
        _mm512_cmpgt_epi32_mask(_mm512_set1_epi32(kSteps), field))
      return false;
    if (largest) { // the low words of each quarter's first dword, halved
      __m128i keys = _mm_shuffle_epi8(
          _mm512_cvtepi64_epi16(m), _mm_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1,
                                                  -1, -1, -1, -1, -1, -1, -1));
      _mm_storel_epi64((__m128i *)largest, _mm_srli_epi16(keys, 1));
    }
    __m512i base = _mm512_sub_epi32(field, _mm512_set1_epi32(kSteps));
    base = _mm512_or_si512(base, _mm512_slli_epi32(base, 16));
    uint32_t bytes = quarterBytes(shared);
    std::memcpy(exponents, &bytes, 4);
    const __m512i power = table([](int i) { return 1 << (i - 1); }),
                  belowStep =
                      table([](int i) { return (1 << (kSteps - i)) - 1; });
    const __m512i low7 = _mm512_set1_epi16(0x7F),
                  lead = _mm512_set1_epi16(0x80), ones = _mm512_set1_epi16(1);
    // Blocks 2h and 2h + 1's S - M - 1.
    const __m512i bases[2] = {
        _mm512_shuffle_i64x2(base, base, _MM_SHUFFLE(1, 1, 0, 0)),
        _mm512_shuffle_i64x2(base, base, _MM_SHUFFLE(3, 3, 2, 2))};
    auto encode = [&](auto clamps) __attribute__((always_inline)) {
      constexpr bool Clamps = decltype(clamps)::value;
      __m512i halfUp[2];
      __mmask32 tie[2];
      for (int h = 0; h < 2; ++h) {
        __m512i e = _mm512_and_si512(_mm512_srli_epi16(hi[h], 7),
                                     _mm512_set1_epi16(0xFF));
        __m512i top = _mm512_and_si512(hi[h], low7), bottom = lo[h], idx;
        __mmask32 lowered = 0;
        if constexpr (Clamps) {
          // Step 2 as Avx2::bfpPackHalves.
          __mmask32 raised =
              _mm512_cmpgt_epi16_mask(_mm512_set1_epi16(kBfpFp16Rebias), e);
          lowered = _mm512_cmpgt_epi16_mask(
              e, _mm512_set1_epi16(kBfpFp16Rebias + kBfpMaxE5));
          top = _mm512_mask_mov_epi16(_mm512_maskz_mov_epi16(~raised, top),
                                      lowered, low7);
          if constexpr (!Bf16)
            bottom =
                _mm512_mask_mov_epi16(_mm512_maskz_mov_epi16(~raised, bottom),
                                      lowered, _mm512_set1_epi16(-1));
          __m512i clamped = _mm512_min_epu16(
              _mm512_max_epu16(e, _mm512_set1_epi16(kBfpFp16Rebias)),
              _mm512_set1_epi16(kBfpFp16Rebias + kBfpMaxE5));
          idx = _mm512_maskz_subs_epu16(_mm512_test_epi16_mask(e, e), clamped,
                                        bases[h]);
        } else {
          // Step 1: e = 0 (a zero or denormal) gives index 0, datum 0.
          idx = _mm512_subs_epu16(e, bases[h]);
        }
        // Step 3: the significand shifted right by d, as 8 bits above
        // bit 8 and a sticky bit for what the shift drops below them.
        __m512i x = _mm512_mullo_epi16(_mm512_or_si512(top, lead),
                                       _mm512_shuffle_epi8(power, idx));
        if constexpr (!Bf16) // low >= 2^d: a sticky bit
          x = _mm512_or_si512(
              x, _mm512_maskz_mov_epi16(
                     _mm512_cmpgt_epu16_mask(
                         bottom, _mm512_shuffle_epi8(belowStep, idx)),
                     ones));
        else if constexpr (Clamps) // a lowered value's low half: all ones
          x = _mm512_or_si512(x, _mm512_maskz_mov_epi16(lowered, ones));
        // Step 4: half a step added; a tie where the low byte is then 0.
        __m512i plusHalf = _mm512_add_epi16(x, lead);
        halfUp[h] = _mm512_srli_epi16(plusHalf, 8);
        tie[h] = _mm512_testn_epi16_mask(plusHalf, _mm512_set1_epi16(0xFF));
      }
      // Step 4's ties as Avx2::bfpPackHalves', but bfloat16's (no low half: many
      // ties) counted branch-free throughout, as measured faster.
      bool tied = Bf16 || (tie[0] | tie[1]) != 0;
      bool quiet = !Bf16 && history.tieFree >= BfpTieHistory::kQuiet;
      if constexpr (!Bf16)
        history.tieFree = tied ? 0 : history.tieFree + 1;
      for (int h = 0; h < 2; ++h) {
        __m512i q = halfUp[h];
        if (!quiet || tied) {
          __mmask32 odd = _mm512_mask_test_epi16_mask(tie[h], q, ones);
          uint32_t ties = Lanes<16>::popcount(tie[h]),
                   odds = Lanes<16>::popcount(odd);
          tally[BfpClass::tie] += ties;
          tally[BfpClass::tieRoundedUp] += ties - odds;
          q = _mm512_mask_sub_epi16(q, odd, q, ones);
        }
        // Step 4's saturation at 2^M - 1.
        q = _mm512_min_epu16(q, _mm512_set1_epi16((1 << M) - 1));
        // Step 5: the sign where the magnitude is not 0.
        __mmask32 negative =
            _mm512_mask_test_epi16_mask(_mm512_movepi16_mask(hi[h]), q, q);
        __m256i datum = _mm512_cvtepi16_epi8(
            _mm512_mask_add_epi16(q, negative, q, _mm512_set1_epi16(1 << M)));
        storeBfpDatums(M + 1, datums + 2 * h * blockDatumBytes,
                       _mm256_castsi256_si128(datum));
        storeBfpDatums(M + 1, datums + (2 * h + 1) * blockDatumBytes,
                       _mm256_extracti128_si256(datum, 1));
      }
    };
    // Step 2 as Avx2::bfpPackHalves: none where every block's 5-bit
    // exponent lies in [M + 1, 30].
    if (Fp16Exponent &&
        (_mm512_cmpgt_epi32_mask(_mm512_set1_epi32(kSteps), shared) |
         _mm512_cmpgt_epi32_mask(shared, _mm512_set1_epi32(kBfpMaxE5 - 1))))
      encode(std::integral_constant<bool, Fp16Exponent>{});
    else
      encode(std::false_type{});
    return true;
  }
  /// Whether bfpPackHalves takes the host's BFP packs of `input`.
  static constexpr bool bfpPacksHalves(Dtype input) {
    return input == Dtype::float32 || input == Dtype::bfloat16;
  }
};

#endif // BIRSIM_LIB_CORE_KERNELS_X86_AVX512BFPPACK_H
