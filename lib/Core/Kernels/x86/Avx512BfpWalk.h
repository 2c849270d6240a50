//===- Avx512BfpWalk.h - Avx512's BFP blocks --------------------*- C++ -*-===//
//
// Private to lib/Core/Kernels/x86; included only by Avx512.cpp, inside its
// namespace and target region, after the vocabulary it extends.
// A BFP block's lanes as BfpWalk.h walks them: loading a block's 16
// inputs as fp32 bits (§5 inputs), its shared exponents, its datums as
// bytes (§5: element 0 in the low bits) and back.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_X86_AVX512BFPWALK_H
#define BIRSIM_LIB_CORE_KERNELS_X86_AVX512BFPWALK_H

struct Avx512BfpWalk : Avx512Vocabulary {
  /// A BFP block: 16 fp32 values, one vector.
  using BfpBlock = __m512i;
  using BfpShared = __m512i;
  /// A block's 16 input elements at `p` as fp32 bits (§5 inputs): the
  /// integers by VCVTDQ2PS / VCVTUDQ2PS under the default MXCSR (round to
  /// nearest even).
  static BfpBlock loadBfpBlock(Dtype dtype, const char *p) {
    auto load16 = [](const char *q) { return _mm_loadu_si128((const __m128i *)q); };
    auto load32 = [](const char *q) { return _mm256_loadu_si256((const __m256i *)q); };
    switch (dtype) {
    case Dtype::bfloat16: {
      // Value i to the top half of lane i, zeros below (the masked words).
      __m512i tops = _mm512_set_epi16(
          15, 0, 14, 0, 13, 0, 12, 0, 11, 0, 10, 0, 9, 0, 8, 0, //
          7, 0, 6, 0, 5, 0, 4, 0, 3, 0, 2, 0, 1, 0, 0, 0);
      return _mm512_maskz_permutexvar_epi16(0xAAAAAAAAu, tops,
                                            _mm512_castsi256_si512(load32(p)));
    }
    case Dtype::int8:
      return asInt(_mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(load16(p))));
    case Dtype::uint8:
      return asInt(_mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(load16(p))));
    case Dtype::uint16:
      return asInt(_mm512_cvtepi32_ps(_mm512_cvtepu16_epi32(load32(p))));
    case Dtype::int32:
      return asInt(_mm512_cvtepi32_ps(_mm512_loadu_si512(p)));
    case Dtype::uint32:
      return asInt(_mm512_cvtepu32_ps(_mm512_loadu_si512(p)));
    default: // float32
      return _mm512_loadu_si512(p);
    }
  }
  template <class Fn, class... Blocks>
  static BfpBlock mapBlock(Fn &&fn, const Blocks &...blocks) {
    return fn(blocks...);
  }
  /// fn on the blocks' lanes, a part at a time (V::I references, outputs
  /// among them).
  template <class Fn, class... Blocks>
  static void forEachPart(Fn &&fn, Blocks &...blocks) {
    fn(blocks...);
  }
  /// The shared exponents of 4 blocks at once from their lanes' keys
  /// (their largest, `exponentOf` it, is the exponent), in every lane of
  /// one vector each (`splats`), and as 4 bytes (the return value): one
  /// joint reduction instead of 4 horizontal ones.
  template <class ExponentOf = std::nullptr_t>
  static uint32_t bfpShared4(const BfpBlock *e, __m512i *splats,
                             ExponentOf exponentOf = nullptr) {
    // 128-bit quarters: [a0 a1 b0 b1] max [a2 a3 b2 b3], then the four
    // blocks' halves side by side, then within each quarter.
    auto pairs = [](__m512i a, __m512i b) {
      return _mm512_max_epi32(_mm512_shuffle_i32x4(a, b, _MM_SHUFFLE(1, 0, 1, 0)),
                              _mm512_shuffle_i32x4(a, b, _MM_SHUFFLE(3, 2, 3, 2)));
    };
    __m512i ab = pairs(e[0], e[1]), cd = pairs(e[2], e[3]);
    __m512i w = _mm512_max_epi32(
        _mm512_shuffle_i32x4(ab, cd, _MM_SHUFFLE(2, 0, 2, 0)),
        _mm512_shuffle_i32x4(ab, cd, _MM_SHUFFLE(3, 1, 3, 1)));
    w = _mm512_max_epi32(w, _mm512_shuffle_epi32(w, _MM_PERM_BADC));
    w = _mm512_max_epi32(w, _mm512_shuffle_epi32(w, _MM_PERM_CDAB));
    w = applyIfGiven(exponentOf, w);
    splats[0] = _mm512_shuffle_i32x4(w, w, 0x00);
    splats[1] = _mm512_shuffle_i32x4(w, w, 0x55);
    splats[2] = _mm512_shuffle_i32x4(w, w, 0xAA);
    splats[3] = _mm512_shuffle_i32x4(w, w, 0xFF);
    return quarterBytes(w);
  }
  /// The low byte of each 128-bit quarter's first dword.
  static uint32_t quarterBytes(__m512i w) {
    return lowBytesOfDwords(_mm512_cvtepi32_epi8(w)); // quarter k: byte 4k
  }
  static int bfpShared(BfpBlock e) { return _mm512_reduce_max_epi32(e); }
  /// Lane 0 of a splat.
  static uint32_t firstLane(BfpShared splat) {
    return uint32_t(_mm_cvtsi128_si32(_mm512_castsi512_si128(splat)));
  }
  static __m512i bfpSplat(int shared) { return L32::splat(uint32_t(shared)); }
  static BfpDatums bfpDatumsOf(BfpBlock lanes) {
    return _mm512_cvtepi32_epi8(lanes);
  }
  static void storeBfpDatumPair(unsigned datumBits, char *p, BfpBlock a,
                                BfpBlock b) {
    storeBfpDatums(datumBits, p, bfpDatumsOf(a));
    // b's 16 datums right after a's 16 * datumBits / 8 bytes.
    storeBfpDatums(datumBits, p + 2 * datumBits, bfpDatumsOf(b));
  }
  static BfpBlock widenBfpDatums(BfpDatums bytes) {
    return _mm512_cvtepu8_epi32(bytes);
  }
  static void storeBfpBlock(char *p, BfpBlock v) { _mm512_storeu_si512(p, v); }
  static void streamBfpBlock(char *p, BfpBlock v) {
    _mm512_stream_si512(reinterpret_cast<__m512i *>(p), v);
  }
  /// Two blocks of 16-bit elements in 16-bit lanes, the first block's in
  /// the low 256 bits: the 16-bit Dest sites' pack takes 32 values a step.
  static constexpr bool kBfpHalfLanes = true;
  static constexpr bool kBfpSignBytes = false;
  using BfpHalves = __m512i;
  static BfpHalves loadBfpHalves(const char *first, const char *second) {
    return _mm512_inserti64x4(
        _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)first)),
        _mm256_loadu_si256((const __m256i *)second), 1);
  }
  /// The shared exponents of 4 blocks (two BfpHalves of exponents), in
  /// every lane of each block's half (`splats`), and as 4 bytes.
  static uint32_t bfpShared4Halves(const BfpHalves *e, BfpHalves *splats) {
    // Quarter k of `m`: block k's 8 partial maxima, then within quarters.
    __m512i m = _mm512_max_epu16(
        _mm512_shuffle_i32x4(e[0], e[1], _MM_SHUFFLE(2, 0, 2, 0)),
        _mm512_shuffle_i32x4(e[0], e[1], _MM_SHUFFLE(3, 1, 3, 1)));
    m = _mm512_max_epu16(m, _mm512_shuffle_epi32(m, _MM_PERM_BADC));
    m = _mm512_max_epu16(m, _mm512_shuffle_epi32(m, _MM_PERM_CDAB));
    m = _mm512_max_epu16(m, _mm512_srli_epi32(m, 16)); // lane 8k: block k
    auto lanesOf = [](int a, int b) {
      return _mm512_inserti64x4(_mm512_set1_epi16(short(a)),
                                _mm256_set1_epi16(short(b)), 1);
    };
    splats[0] = _mm512_permutexvar_epi16(lanesOf(0, 8), m);
    splats[1] = _mm512_permutexvar_epi16(lanesOf(16, 24), m);
    __m512i firsts = _mm512_permutexvar_epi16(
        _mm512_setr_epi32(0x00080000, 0x00180010, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                          0, 0, 0, 0, 0),
        m);
    return uint32_t(_mm_cvtsi128_si32(
        _mm256_castsi256_si128(_mm512_cvtepi16_epi8(firsts))));
  }
  /// Stores the datums of two blocks (16-bit lanes, each below 2^8).
  static void storeBfpHalfDatums(unsigned datumBits, char *first,
                                 char *second, BfpHalves lanes) {
    __m256i bytes = _mm512_cvtepi16_epi8(lanes);
    storeBfpDatums(datumBits, first, _mm256_castsi256_si128(bytes));
    storeBfpDatums(datumBits, second, _mm256_extracti128_si256(bytes, 1));
  }
  /// fp16 elements in each lane's top half as fp32 bits (VCVTPH2PS: exact,
  /// but a signalling NaN comes back quieted).
  static BfpBlock halvesToF32(BfpBlock raw) {
    return asInt(
        _mm512_cvtph_ps(_mm512_cvtepi32_epi16(_mm512_srli_epi32(raw, 16))));
  }
};

#endif // BIRSIM_LIB_CORE_KERNELS_X86_AVX512BFPWALK_H
