//===- Avx2BfpWalk.h - Avx2's BFP blocks ------------------------*- C++ -*-===//
//
// Private to lib/Core/Kernels/x86; included only by Avx2.cpp, inside its
// namespace and target region, after the vocabulary it extends.
// A BFP block's lanes as BfpWalk.h walks them: loading a block's 16
// inputs as fp32 bits (§5 inputs), its shared exponents, its datums as
// bytes (§5: element 0 in the low bits) and back.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_X86_AVX2BFPWALK_H
#define BIRSIM_LIB_CORE_KERNELS_X86_AVX2BFPWALK_H

struct Avx2BfpWalk : Avx2Vocabulary {
  /// A BFP block: 16 fp32 values in two vectors.
  struct BfpBlock {
    __m256i lo, hi;
  };
  using BfpShared = __m256i;
  /// A block's 16 input elements at `p` as fp32 bits (§5 inputs): the
  /// integers by VCVTDQ2PS under the default MXCSR (round to nearest
  /// even); uint32 as its high and low halves, exact, added once.
  static BfpBlock loadBfpBlock(Dtype dtype, const char *p) {
    auto half = [](const char *q) { return _mm_loadu_si128((const __m128i *)q); };
    auto eight = [](const char *q) { return _mm_loadl_epi64((const __m128i *)q); };
    auto fromInt = [](__m256i v) { return asInt(_mm256_cvtepi32_ps(v)); };
    auto fromUint32 = [&](__m256i v) {
      __m256 high = _mm256_cvtepi32_ps(_mm256_srli_epi32(v, 16));
      __m256 low = _mm256_cvtepi32_ps(_mm256_and_si256(v, _mm256_set1_epi32(0xFFFF)));
      return asInt(_mm256_fmadd_ps(high, _mm256_set1_ps(65536.0f), low));
    };
    switch (dtype) {
    case Dtype::bfloat16: {
      // 8 values in both halves, each moved to the top of its lane (the
      // low half's values 0-3, the high half's 4-7) with zeros below.
      __m256i tops = _mm256_setr_epi8(
          -1, -1, 0, 1, -1, -1, 2, 3, -1, -1, 4, 5, -1, -1, 6, 7, //
          -1, -1, 8, 9, -1, -1, 10, 11, -1, -1, 12, 13, -1, -1, 14, 15);
      auto widen = [&](const char *q) {
        return _mm256_shuffle_epi8(
            _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)q)),
            tops);
      };
      return {widen(p), widen(p + 16)};
    }
    case Dtype::int8:
      return {fromInt(_mm256_cvtepi8_epi32(eight(p))),
              fromInt(_mm256_cvtepi8_epi32(eight(p + 8)))};
    case Dtype::uint8:
      return {fromInt(_mm256_cvtepu8_epi32(eight(p))),
              fromInt(_mm256_cvtepu8_epi32(eight(p + 8)))};
    case Dtype::uint16:
      return {fromInt(_mm256_cvtepu16_epi32(half(p))),
              fromInt(_mm256_cvtepu16_epi32(half(p + 16)))};
    case Dtype::int32:
      return {fromInt(load<4>(Part{}, p)), fromInt(load<4>(Part{}, p + 32))};
    case Dtype::uint32:
      return {fromUint32(load<4>(Part{}, p)),
              fromUint32(load<4>(Part{}, p + 32))};
    default: // float32
      return {load<4>(Part{}, p), load<4>(Part{}, p + 32)};
    }
  }
  template <class Fn, class... Blocks>
  static BfpBlock mapBlock(Fn &&fn, const Blocks &...blocks) {
    return {fn(blocks.lo...), fn(blocks.hi...)};
  }
  /// fn on the blocks' lanes, a part at a time (V::I references, outputs
  /// among them).
  template <class Fn, class... Blocks>
  static void forEachPart(Fn &&fn, Blocks &...blocks) {
    fn(blocks.lo...);
    fn(blocks.hi...);
  }
  /// The shared exponents of 4 blocks at once from their lanes' keys
  /// (their largest, `exponentOf` it, is the exponent), in every lane of
  /// one vector each (`splats`), and as 4 bytes (the return value).
  template <class ExponentOf = std::nullptr_t>
  static uint32_t bfpShared4(const BfpBlock *v, __m256i *splats,
                             ExponentOf exponentOf = nullptr) {
    __m256i e[4];
    for (int k = 0; k < 4; ++k)
      e[k] = _mm256_max_epi32(v[k].lo, v[k].hi);
    // Halves: [a.lo b.lo] max [a.hi b.hi], then within each half.
    auto pairs = [](__m256i a, __m256i b) {
      __m256i m = _mm256_max_epi32(_mm256_permute2x128_si256(a, b, 0x20),
                                   _mm256_permute2x128_si256(a, b, 0x31));
      m = _mm256_max_epi32(m, _mm256_shuffle_epi32(m, 0x4E));
      return _mm256_max_epi32(m, _mm256_shuffle_epi32(m, 0xB1));
    };
    __m256i ab = applyIfGiven(exponentOf, pairs(e[0], e[1]));
    __m256i cd = applyIfGiven(exponentOf, pairs(e[2], e[3]));
    splats[0] = _mm256_permute2x128_si256(ab, ab, 0x00);
    splats[1] = _mm256_permute2x128_si256(ab, ab, 0x11);
    splats[2] = _mm256_permute2x128_si256(cd, cd, 0x00);
    splats[3] = _mm256_permute2x128_si256(cd, cd, 0x11);
    return sharedBytes(_mm256_blend_epi32(ab, cd, 0xCC));
  }
  /// Four blocks' exponent bytes from dwords [a a c c | b b d d]: the low
  /// bytes of dwords 0, 4, 2 and 6.
  static uint32_t sharedBytes(__m256i v) {
    return lowBytesOfDwords(_mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
        v, _mm256_setr_epi32(0, 4, 2, 6, 0, 0, 0, 0))));
  }
  static int bfpShared(const BfpBlock &e) {
    return horizontalMax(_mm256_max_epi32(e.lo, e.hi));
  }
  /// Lane 0 of a splat.
  static uint32_t firstLane(BfpShared splat) {
    return uint32_t(_mm256_cvtsi256_si32(splat));
  }
  static __m256i bfpSplat(int shared) { return L32::splat(uint32_t(shared)); }
  static BfpDatums bfpDatumsOf(const BfpBlock &lanes) {
    return toBytes(lanes.lo, lanes.hi);
  }
  /// Two blocks' lanes (each < 256) as bytes, packed within 128-bit
  /// halves (4-byte groups a0-3 a8-11 b0-3 b8-11 | a4-7 a12-15 b4-7
  /// b12-15); `Signed` packs saturate signed, keeping each lane's sign as
  /// its byte's top bit.
  template <bool Signed = false>
  static __m256i pairBytes(const BfpBlock &a, const BfpBlock &b) {
    if constexpr (Signed)
      return _mm256_packs_epi16(_mm256_packs_epi32(a.lo, a.hi),
                                _mm256_packs_epi32(b.lo, b.hi));
    else
      return _mm256_packus_epi16(_mm256_packus_epi32(a.lo, a.hi),
                                 _mm256_packus_epi32(b.lo, b.hi));
  }
  /// pairBytes' datums (each below 2^datumBits) stored as storeBfpDatums
  /// stores a block's, a's from p and b's right after: BFP4's and BFP2's
  /// pairs (then pairs of pairs) first packed into bytes within each half
  /// (bfpPairUp's), then the 4-datum groups put in order.
  static void storePairBytes(unsigned datumBits, char *p, __m256i paired) {
    if (datumBits == 8) {
      _mm256_storeu_si256(
          (__m256i *)p, _mm256_permutevar8x32_epi32(
                            paired, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
      return;
    }
    auto pairUp = [](__m256i v, int bits) {
      __m256i pairs = _mm256_maddubs_epi16(
          v, _mm256_set1_epi16(int16_t(1 | (1 << bits) << 8)));
      return _mm256_packus_epi16(pairs, pairs);
    };
    __m256i groups = pairUp(paired, int(datumBits)); // BFP4: 2 bytes a group
    if (datumBits == 4) {
      _mm_storeu_si128((__m128i *)p,
                       _mm_unpacklo_epi16(_mm256_castsi256_si128(groups),
                                          _mm256_extracti128_si256(groups, 1)));
      return;
    }
    groups = pairUp(groups, 4); // BFP2: a byte a group
    _mm_storel_epi64((__m128i *)p,
                     _mm_unpacklo_epi8(_mm256_castsi256_si128(groups),
                                       _mm256_extracti128_si256(groups, 1)));
  }
  static void storeBfpDatumPair(unsigned datumBits, char *p, const BfpBlock &a,
                                const BfpBlock &b) {
    storePairBytes(datumBits, p, pairBytes(a, b));
  }
  /// Two blocks' datums (DatumBits wide) from their fp32 lanes and their
  /// datums' other bits, as storeBfpDatumPair: the sign (bit SignBit, not
  /// set on a zero where !ZeroKeepsSign) put in on bytes, 32 datums at a
  /// time.
  template <unsigned DatumBits, unsigned SignBit, bool ZeroKeepsSign>
  static void storeSignedDatumPair(char *p, const BfpBlock &bitsA,
                                   const BfpBlock &a, const BfpBlock &bitsB,
                                   const BfpBlock &b) {
    storeSignedPairBytes<DatumBits, SignBit, ZeroKeepsSign>(
        p, pairBytes(a, b), pairBytes<true>(bitsA, bitsB));
  }
  /// The same from pairBytes' magnitudes and signed bytes of the values.
  template <unsigned DatumBits, unsigned SignBit, bool ZeroKeepsSign>
  static void storeSignedPairBytes(char *p, __m256i magnitudes, __m256i signs) {
    if constexpr (SignBit != 7)
      signs = _mm256_cmpgt_epi8(_mm256_setzero_si256(), signs);
    __m256i signBits =
        _mm256_and_si256(signs, _mm256_set1_epi8(char(1u << SignBit)));
    // VPSIGNB: 0 where the magnitude (below 2^SignBit: a positive byte) is.
    if constexpr (!ZeroKeepsSign)
      signBits = _mm256_sign_epi8(signBits, magnitudes);
    storePairBytes(DatumBits, p, _mm256_or_si256(magnitudes, signBits));
  }
  static BfpBlock widenBfpDatums(BfpDatums bytes) {
    return {_mm256_cvtepu8_epi32(bytes),
            _mm256_cvtepu8_epi32(_mm_srli_si128(bytes, 8))};
  }
  static void streamBfpBlock(char *p, const BfpBlock &v) {
    _mm256_stream_si256(reinterpret_cast<__m256i *>(p), v.lo);
    _mm256_stream_si256(reinterpret_cast<__m256i *>(p + 32), v.hi);
  }
  static void storeBfpBlock(char *p, const BfpBlock &v) {
    store<4>(p, Part{}, v.lo);
    store<4>(p + 32, Part{}, v.hi);
  }
  /// No 16-bit variable shifts: the 16-bit Dest sites take 32-bit lanes.
  static constexpr bool kBfpHalfLanes = false;
  static constexpr bool kBfpSignBytes = true;
  /// fp16 elements in each lane's top half as fp32 bits (VCVTPH2PS: exact,
  /// but a signalling NaN comes back quieted).
  static BfpBlock halvesToF32(const BfpBlock &raw) {
    auto widen = [](__m256i v) {
      v = _mm256_srli_epi32(v, 16);
      return asInt(_mm256_cvtph_ps(_mm_packus_epi32(
          _mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1))));
    };
    return {widen(raw.lo), widen(raw.hi)};
  }
};

#endif // BIRSIM_LIB_CORE_KERNELS_X86_AVX2BFPWALK_H
