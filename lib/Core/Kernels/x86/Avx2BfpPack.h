//===- Avx2BfpPack.h - Avx2's 16-bit BFP pack -------------------*- C++ -*-===//
//
// Private to lib/Core/Kernels/x86; included only by Avx2.cpp, inside its
// namespace and target region, after the vocabulary it extends.
// The host's BFP pack (docs/Semantics.md §5, no events) of 4 blocks
// on 16-bit lanes, BfpPack.h's fast path: each block of it names the
// step of §5 it implements. BfpPackHalvesTest pins each tie and
// saturation branch against the portable pack.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_X86_AVX2BFPPACK_H
#define BIRSIM_LIB_CORE_KERNELS_X86_AVX2BFPPACK_H

struct Avx2BfpPack : Avx2BfpWalk {
  /// The host's BFP pack (§5, no events) of 4 blocks of fp32 (or, with
  /// Bf16, bfloat16) values, 16 contiguous at each of `values`, on 16-bit
  /// lanes: a value's top half (sign, e, significand bits 22-16) and, for
  /// fp32, its low half. Under shared exponent S (fp32's field), with
  /// d = S - e, the datum magnitude is the 8-bit significand (its leading
  /// one included) times 2^(M - d), 0 from d = M + 1 on, rounded at bit 8:
  /// bit 7 is step 4's half, the bits below it and the low half's from
  /// bit d up (low >= 2^d) the rest of the truncated shift's bits. The
  /// index M + 1 - d (saturated at 0) picks 2^(M - d) and 2^d by VPSHUFB.
  /// Writes the 4 exponent bytes at `exponents` and the datums, a block's
  /// `blockDatumBytes` after the last's, from `datums`, and with `largest`
  /// each block's largest magnitude's top 16 bits less the sign; returns
  /// false, writing nothing, for a "b" block with S at most M.
  template <unsigned M, bool Fp16Exponent, bool Bf16, class Tally>
  __attribute__((always_inline)) static bool
  bfpPackHalves(const char *const *values, char *exponents, char *datums,
                unsigned blockDatumBytes, BfpTieHistory &history, Tally &tally,
                BfpLargest *largest) {
    constexpr int kSteps = M + 1; // idx's largest
    auto table = [](auto at) {    // at(i) for i in [1, M + 1], else 0
      alignas(32) char t[32] = {};
      for (int i = 1; i <= kSteps; ++i)
        t[i] = t[16 + i] = char(at(i));
      return _mm256_load_si256((const __m256i *)t);
    };
    __m256i hi[4], lo[4], key[4]; // key: the magnitude's bits, for the largest
    for (int k = 0; k < 4; ++k) {
      if constexpr (Bf16) {
        // pairBytes' order: values 0-3 8-11 | 4-7 12-15.
        hi[k] = _mm256_permute4x64_epi64(
            _mm256_loadu_si256((const __m256i *)values[k]), 0xD8);
      } else {
        // Within 128-bit halves, values 0-7's top halves then low halves
        // (a) and 8-15's low then top (b): their tops by a blend, lows by
        // an alignment, both in the order 0-3 8-11 | 4-7 12-15.
        const __m256i topsFirst = _mm256_setr_epi8(
            2, 3, 6, 7, 10, 11, 14, 15, 0, 1, 4, 5, 8, 9, 12, 13, //
            2, 3, 6, 7, 10, 11, 14, 15, 0, 1, 4, 5, 8, 9, 12, 13);
        const __m256i lowsFirst = _mm256_setr_epi8(
            0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15, //
            0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
        __m256i a = _mm256_shuffle_epi8(
                    _mm256_loadu_si256((const __m256i *)values[k]), topsFirst),
                b = _mm256_shuffle_epi8(
                    _mm256_loadu_si256((const __m256i *)(values[k] + 32)),
                    lowsFirst);
        // Opaque to LLVM, which would otherwise take the lows from the
        // loads by four shuffles and a VSHUFPS instead of one VPALIGNR.
        asm("" : "+x"(a), "+x"(b));
        hi[k] = _mm256_blend_epi32(a, b, 0xCC);
        lo[k] = _mm256_alignr_epi8(b, a, 8);
      }
      key[k] = _mm256_slli_epi16(hi[k], 1); // e at bits 15-8
    }
    // The shared exponent (§5, after step 5): each block's largest key, so
    // each block's largest e; [A B] and [C D] halves, then [A C | B D]
    // quarters, then within dwords: the largest e in dwords A A C C | B B
    // D D.
    auto halves = [](__m256i a, __m256i b) {
      return _mm256_max_epu16(_mm256_permute2x128_si256(a, b, 0x20),
                              _mm256_permute2x128_si256(a, b, 0x31));
    };
    __m256i ab = halves(key[0], key[1]), cd = halves(key[2], key[3]);
    __m256i m = _mm256_max_epu16(_mm256_unpacklo_epi64(ab, cd),
                                 _mm256_unpackhi_epi64(ab, cd));
    m = _mm256_max_epu16(m, _mm256_shuffle_epi32(m, 0xB1));
    m = _mm256_max_epu16(m, _mm256_srli_epi32(m, 16));
    __m256i field, shared = bfpSharedOfHalfKeys<L32, Fp16Exponent>(m, field);
    // Declined: a "b" block with S <= M, where d = S - e cannot reach
    // M + 1 and the index table would need negative entries.
    if (!Fp16Exponent && _mm256_movemask_epi8(_mm256_cmpgt_epi32(
                             _mm256_set1_epi32(kSteps), field)))
      return false;
    if (largest) { // the keys' low words of dwords 0, 4, 2 and 6, halved
      __m128i keys = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
          m, _mm256_setr_epi32(0, 4, 2, 6, 0, 0, 0, 0)));
      keys = _mm_shuffle_epi8(keys, _mm_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1,
                                                  -1, -1, -1, -1, -1, -1, -1));
      _mm_storel_epi64((__m128i *)largest, _mm_srli_epi16(keys, 1));
    }
    // S - M - 1 in both 16-bit halves of each dword.
    __m256i base = _mm256_sub_epi32(field, _mm256_set1_epi32(kSteps));
    base = _mm256_or_si256(base, _mm256_slli_epi32(base, 16));
    uint32_t bytes = sharedBytes(shared);
    std::memcpy(exponents, &bytes, 4);
    const __m256i power = table([](int i) { return 1 << (i - 1); }),
                  belowStep =
                      table([](int i) { return (1 << (kSteps - i)) - 1; });
    const __m256i low7 = _mm256_set1_epi16(0x7F),
                  lead = _mm256_set1_epi16(0x80), zero = _mm256_setzero_si256();
    auto encode = [&](auto clamps) __attribute__((always_inline)) {
      constexpr bool Clamps = decltype(clamps)::value;
      __m256i halfUp[4], tie[4], q[4];
      for (int k = 0; k < 4; ++k) {
        // Block k's dword: A 0, B 4, C 2, D 6.
        __m256i baseK =
            _mm256_permutevar8x32_epi32(base, _mm256_set1_epi32(k == 0   ? 0
                                                                : k == 1 ? 4
                                                                : k == 2 ? 2
                                                                         : 6));
        // Not from key: fewer registers live.
        __m256i e = _mm256_and_si256(_mm256_srli_epi16(hi[k], 7),
                                     _mm256_set1_epi16(0xFF));
        __m256i top = _mm256_and_si256(hi[k], low7), bottom = zero;
        if constexpr (!Bf16)
          bottom = lo[k];
        __m256i idx, loweredBit = zero;
        if constexpr (Clamps) {
          // Step 2: raised to 2^-15 (significand 1.0), lowered to the
          // largest; a zero or denormal lane's index 0.
          __m256i raised =
                      _mm256_cmpgt_epi16(_mm256_set1_epi16(kBfpFp16Rebias), e),
                  lowered = _mm256_cmpgt_epi16(
                      e, _mm256_set1_epi16(kBfpFp16Rebias + kBfpMaxE5));
          top = _mm256_and_si256(
              _mm256_or_si256(_mm256_andnot_si256(raised, top), lowered), low7);
          if constexpr (!Bf16)
            bottom =
                _mm256_or_si256(_mm256_andnot_si256(raised, bottom), lowered);
          else // the low half all ones: a sticky bit
            loweredBit = _mm256_srli_epi16(lowered, 15);
          __m256i clamped = _mm256_min_epu16(
              _mm256_max_epu16(e, _mm256_set1_epi16(kBfpFp16Rebias)),
              _mm256_set1_epi16(kBfpFp16Rebias + kBfpMaxE5));
          idx = _mm256_andnot_si256(_mm256_cmpeq_epi16(e, zero),
                                    _mm256_subs_epu16(clamped, baseK));
        } else {
          // Step 1: e = 0 (a zero or denormal) gives index 0, datum 0.
          idx = _mm256_subs_epu16(e, baseK);
        }
        // Step 3: the significand shifted right by d, as 8 bits above
        // bit 8 and a sticky bit for what the shift drops below them.
        __m256i x = _mm256_mullo_epi16(_mm256_or_si256(top, lead),
                                       _mm256_shuffle_epi8(power, idx));
        if constexpr (!Bf16) {
          // low >= 2^d: 1 where low less 2^d - 1 leaves something.
          x = _mm256_or_si256(
              x,
              _mm256_min_epu16(_mm256_subs_epu16(
                                   bottom, _mm256_shuffle_epi8(belowStep, idx)),
                               _mm256_set1_epi16(1)));
        } else if constexpr (Clamps) {
          x = _mm256_or_si256(x, loweredBit);
        }
        // Step 4: half a step added; the dropped bits exactly 100...0
        // (a tie) where the low byte of the sum is 0.
        __m256i plusHalf = _mm256_add_epi16(x, lead);
        halfUp[k] = _mm256_srli_epi16(plusHalf, 8);
        tie[k] = _mm256_cmpeq_epi16(_mm256_slli_epi16(plusHalf, 8), zero);
        q[k] = halfUp[k];
      }
      // Step 4's ties: a tie rounds to even and is counted: a group's ties tested for
      // first only where the last BfpTieHistory::kQuiet groups had none.
      __m256i anyTie = _mm256_or_si256(_mm256_or_si256(tie[0], tie[1]),
                                       _mm256_or_si256(tie[2], tie[3]));
      bool tied = !_mm256_testz_si256(anyTie, anyTie);
      bool quiet = history.tieFree >= BfpTieHistory::kQuiet;
      history.tieFree = tied ? 0 : history.tieFree + 1;
      if (!quiet || tied) {
        __m256i ties = zero, tiesUp = zero;
        for (int k = 0; k < 4; ++k) {
          __m256i tieBit = _mm256_srli_epi16(tie[k], 15);
          ties = _mm256_sub_epi16(ties, tie[k]);
          tiesUp =
              _mm256_add_epi16(tiesUp, _mm256_andnot_si256(halfUp[k], tieBit));
          q[k] = _mm256_andnot_si256(tieBit, halfUp[k]);
        }
        const __m256i ones = _mm256_set1_epi16(1);
        tally[BfpClass::tie] = _mm256_add_epi32(tally[BfpClass::tie],
                                                _mm256_madd_epi16(ties, ones));
        tally[BfpClass::tieRoundedUp] = _mm256_add_epi32(
            tally[BfpClass::tieRoundedUp], _mm256_madd_epi16(tiesUp, ones));
      }
      // Step 4's saturation at 2^M - 1 (BFP8's 2^7 by the signed pack's
      // own) and step 5's sign, set only on a non-zero magnitude.
      const __m256i largest = _mm256_set1_epi8(char((1u << M) - 1));
      for (int k = 0; k < 4; k += 2)
        storeSignedPairBytes<M + 1, M, false>(
            datums + k * blockDatumBytes,
            M == 7
                ? _mm256_packs_epi16(q[k], q[k + 1])
                : _mm256_min_epu8(_mm256_packus_epi16(q[k], q[k + 1]), largest),
            _mm256_packs_epi16(hi[k], hi[k + 1]));
    };
    // Step 2 changes no datum where every block's 5-bit exponent S5 lies
    // in [M + 1, 30]: no value lies above the largest, and a value below
    // 2^-15 (or zero) lies at least M + 1 steps below S5 there, so its
    // index is 0 and its datum 0, as 2^-15's would be.
    if (Fp16Exponent &&
        _mm256_movemask_epi8(_mm256_or_si256(
            _mm256_cmpgt_epi32(_mm256_set1_epi32(kSteps), shared),
            _mm256_cmpgt_epi32(shared, _mm256_set1_epi32(kBfpMaxE5 - 1)))))
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

#endif // BIRSIM_LIB_CORE_KERNELS_X86_AVX2BFPPACK_H
