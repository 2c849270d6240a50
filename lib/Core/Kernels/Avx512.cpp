//===- Avx512.cpp - the AVX-512 path's vocabulary -------------------------===//
//
// Compiled for AVX-512 F/BW/VL + F16C (a target attribute, as in
// Avx2.cpp) and called only when the CPU has them (Select.cpp). The loops
// are the algorithm headers' (KernelTable.h) and the lane arithmetic LaneArithmetic.h's, over this
// file's vocabulary: 16 fp32 lanes per 512-bit vector, and the last step of
// each loop is the same vector step under a mask, so no element leaves the
// vector path; a BFP block of 16 values is one vector; event tallies are
// lane counters, or (the BFP loops) mask popcounts. Each lane computes exactly
// what the portable path computes (docs/Semantics.md sections 2-5); the tests
// compare the two, on an emulated AVX-512 CPU where the host has none
// (utils/avx512-emulated.sh).
//
//===----------------------------------------------------------------------===//
#include "X86.h"

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#if defined(__x86_64__)
#pragma clang attribute push(                                                  \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx2,f16c,fma,popcnt"))),    \
    apply_to = function)
#include "LaneArithmetic.h"
#include "KernelTable.h"

namespace birsim::core {
namespace {

using namespace kernel;

__m512 asFloat(__m512i v) { return _mm512_castsi512_ps(v); }
__m512i asInt(__m512 v) { return _mm512_castps_si512(v); }

/// The lane vocabulary of LaneArithmetic.h: lanes of `Bits` bits (32: 16
/// lanes) in a 512-bit vector; a mask is a bit per lane; tallies are
/// lane counters or scalars.
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
  /// Lanes where `a` and `b` share no set bit (VPTESTNM).
  static M noneSet(I a, I b) {
    static_assert(Bits == 32);
    return _mm512_testn_epi32_mask(a, b);
  }
  /// Per lane (32 or 16 bits); a count of the width or more gives 0.
  static I shrv(I v, I n) {
    static_assert(Bits == 32 || Bits == 16);
    if constexpr (Bits == 16)
      return _mm512_srlv_epi16(v, n);
    else
      return _mm512_srlv_epi32(v, n);
  }
  static I shlv(I v, I n) {
    static_assert(Bits == 32 || Bits == 16);
    if constexpr (Bits == 16)
      return _mm512_sllv_epi16(v, n);
    else
      return _mm512_sllv_epi32(v, n);
  }
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
  /// Adds 1 to each lane of the counters `lanes` where `m` is set.
  static void count(__m512i &lanes, M m) {
    static_assert(Bits == 32);
    lanes = _mm512_mask_sub_epi32(lanes, m, lanes, _mm512_set1_epi32(-1));
  }
  /// The same where `m` is set and the lane of `bit` (0 or 1) is 1.
  static void countIfOne(__m512i &lanes, M m, I bit) {
    static_assert(Bits == 32);
    lanes = _mm512_mask_add_epi32(lanes, m, lanes, bit);
  }
  /// A mask's set lanes by POPCNT itself: LLVM otherwise pairs
  /// neighbouring counts into a vector popcount by table lookups, which
  /// made the band walk 28% slower.
  static uint32_t popcount(M m) {
    uint32_t n;
    __asm__("popcnt %1, %0" : "=r"(n) : "r"(uint32_t(m)));
    return n;
  }
  /// The same into a scalar, by the popcount of the mask.
  static void count(uint64_t &total, M m) { total += popcount(m); }
  static void countIfOne(uint64_t &total, M m, I bit) {
    static_assert(Bits == 32);
    count(total, _mm512_mask_test_epi32_mask(m, bit, bit));
  }
};

/// Vocabulary.h's vocabulary.
struct Avx512 : X86Vocabulary {
  template <unsigned Bits> using Lanes = Avx512Lanes<Bits>;
  using L32 = Avx512Lanes<32>;
  static constexpr unsigned kVectorBytes = 64;
  static constexpr bool kMaskedTails = true;
  /// Round trips per sweep of the assigner's moments: all in one.
  static constexpr unsigned kMomentTrips = 3;

  /// One bit per element of a step (masked-off elements read as zero, are
  /// not written, and never fault).
  using Part = uint64_t;
  template <unsigned N> static Part whole() {
    return N == 64 ? ~uint64_t(0) : (uint64_t(1) << N) - 1;
  }
  template <unsigned N> static Part first(size_t n) {
    return (uint64_t(1) << n) - 1; // n < N <= 64
  }
  static L32::M valid(Part part) { return __mmask16(part); }

  template <unsigned Bytes> static __m512i load(Part mask, const char *p) {
    if constexpr (Bytes == 1)
      return _mm512_maskz_loadu_epi8(__mmask64(mask), p);
    else if constexpr (Bytes == 2)
      return _mm512_maskz_loadu_epi16(__mmask32(mask), p);
    else if constexpr (Bytes == 4)
      return _mm512_maskz_loadu_epi32(__mmask16(mask), p);
    else
      return _mm512_maskz_loadu_epi64(__mmask8(mask), p);
  }
  template <unsigned Bytes> static void store(char *p, Part mask, __m512i v) {
    if constexpr (Bytes == 1)
      _mm512_mask_storeu_epi8(p, __mmask64(mask), v);
    else if constexpr (Bytes == 2)
      _mm512_mask_storeu_epi16(p, __mmask32(mask), v);
    else if constexpr (Bytes == 4)
      _mm512_mask_storeu_epi32(p, __mmask16(mask), v);
    else
      _mm512_mask_storeu_epi64(p, __mmask8(mask), v);
  }
  template <unsigned Bytes>
  static __m512i loadWidened(Part mask, const char *p) {
    if constexpr (Bytes == 1)
      return _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(__mmask16(mask), p));
    else if constexpr (Bytes == 2)
      return _mm512_cvtepu16_epi32(
          _mm256_maskz_loadu_epi16(__mmask16(mask), p));
    else
      return load<4>(mask, p);
  }
  /// Lanes below 2^(8 Bytes).
  template <unsigned Bytes>
  static void storeNarrowed(char *p, Part mask, __m512i v) {
    if constexpr (Bytes == 1)
      _mm512_mask_cvtepi32_storeu_epi8(p, __mmask16(mask), v);
    else if constexpr (Bytes == 2)
      _mm512_mask_cvtepi32_storeu_epi16(p, __mmask16(mask), v);
    else
      store<4>(p, mask, v);
  }

  template <unsigned Bytes, MemoryReductionOp Op>
  static __m512i integerOp(__m512i a, __m512i b) {
    if constexpr (Bytes == 4)
      return Op == MemoryReductionOp::add   ? _mm512_add_epi32(a, b)
             : Op == MemoryReductionOp::min ? _mm512_min_epi32(a, b)
                                            : _mm512_max_epi32(a, b);
    else
      return Op == MemoryReductionOp::add   ? _mm512_add_epi64(a, b)
             : Op == MemoryReductionOp::min ? _mm512_min_epi64(a, b)
                                            : _mm512_max_epi64(a, b);
  }

  static __m512i unpackLow16(__m512i a, __m512i b) { return _mm512_unpacklo_epi16(a, b); }
  static __m512i unpackHigh16(__m512i a, __m512i b) { return _mm512_unpackhi_epi16(a, b); }
  static __m512i packUnsigned32(__m512i a, __m512i b) { return _mm512_packus_epi32(a, b); }
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

  /// 32-bit lane counters: 2^24 steps add at most 2^24 to a lane, so
  /// their sum does not wrap either.
  template <class Class> using Tally = ClassCounts<Class, __m512i>;
  static constexpr size_t kTallySteps = size_t(1) << 24;
  template <class Class>
  static void moveCounts(Tally<Class> &lanes, ClassCounts<Class> &totals) {
    for (int c = 0; c < ClassCounts<Class>::kClasses; ++c) {
      totals.cells[c] += uint32_t(_mm512_reduce_add_epi32(lanes.cells[c]));
      lanes.cells[c] = _mm512_setzero_si512();
    }
  }
  /// Scalar counts: a mask's popcount (KMOV, POPCNT, ADD) leaves the
  /// vector units to the BFP loops' arithmetic, which counts few events a
  /// vector; where many are counted (the casts) lane counters are faster.
  template <class Class> using PopcountTally = ClassCounts<Class>;
  template <class Class>
  static void moveCounts(PopcountTally<Class> &counts,
                         ClassCounts<Class> &totals) {
    totals += counts;
    counts = {};
  }

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
    // Each block's largest key (the magnitude's bits): block k in quarter
    // k, then within quarters, the largest e in every dword.
    __m512i k0 = _mm512_slli_epi16(hi[0], 1), k1 = _mm512_slli_epi16(hi[1], 1);
    __m512i m =
        _mm512_max_epu16(_mm512_shuffle_i64x2(k0, k1, _MM_SHUFFLE(2, 0, 2, 0)),
                         _mm512_shuffle_i64x2(k0, k1, _MM_SHUFFLE(3, 1, 3, 1)));
    m = _mm512_max_epu16(m, _mm512_shuffle_epi32(m, _MM_PERM_BADC));
    m = _mm512_max_epu16(m, _mm512_shuffle_epi32(m, _MM_PERM_CDAB));
    m = _mm512_max_epu16(m, _mm512_srli_epi32(m, 16));
    __m512i field, shared = bfpSharedOfHalfKeys<L32, Fp16Exponent>(m, field);
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
          idx = _mm512_subs_epu16(e, bases[h]);
        }
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
        __m512i plusHalf = _mm512_add_epi16(x, lead);
        halfUp[h] = _mm512_srli_epi16(plusHalf, 8);
        tie[h] = _mm512_testn_epi16_mask(plusHalf, _mm512_set1_epi16(0xFF));
      }
      // Ties as Avx2::bfpPackHalves', but bfloat16's (no low half: many
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
  static BfpBlock widenBfpDatums(BfpDatums bytes) {
    return _mm512_cvtepu8_epi32(bytes);
  }
  static void storeBfpBlock(char *p, BfpBlock v) { _mm512_storeu_si512(p, v); }
  static void streamBfpBlock(char *p, BfpBlock v) {
    _mm512_stream_si512(reinterpret_cast<__m512i *>(p), v);
  }
  /// A block's fp32 lanes squared (its sum of squares is their sum).
  using BfpSquares = __m512;
  static BfpSquares squaresOf(const BfpBlock &block) {
    return _mm512_mul_ps(asFloat(block), asFloat(block));
  }
  /// 8 blocks' sums of squares from their squaresOf, in fp32, in an order
  /// of its own, widened: blocks 0-3 at first, 4-7 at second.
  static void sumSquares4x2(const BfpSquares *sq, double *first,
                            double *second) {
    __m512 pairs[4], quads[2];
    // Within each 128-bit quarter: two blocks' partials, then four's.
    for (int k = 0; k < 4; ++k)
      pairs[k] = _mm512_add_ps(_mm512_unpacklo_ps(sq[2 * k], sq[2 * k + 1]),
                               _mm512_unpackhi_ps(sq[2 * k], sq[2 * k + 1]));
    for (int k = 0; k < 2; ++k) {
      __m512d a = _mm512_castps_pd(pairs[2 * k]),
              b = _mm512_castps_pd(pairs[2 * k + 1]);
      quads[k] = _mm512_add_ps(_mm512_castpd_ps(_mm512_unpacklo_pd(a, b)),
                               _mm512_castpd_ps(_mm512_unpackhi_pd(a, b)));
    }
    // Then the quarters folded: blocks 0-3 in the low 128 bits, 4-7 next.
    __m512 halves = _mm512_add_ps(
        _mm512_shuffle_f32x4(quads[0], quads[1], _MM_SHUFFLE(2, 0, 2, 0)),
        _mm512_shuffle_f32x4(quads[0], quads[1], _MM_SHUFFLE(3, 1, 3, 1)));
    __m512 folded = _mm512_add_ps(
        _mm512_shuffle_f32x4(halves, halves, _MM_SHUFFLE(3, 1, 2, 0)),
        _mm512_shuffle_f32x4(halves, halves, _MM_SHUFFLE(2, 0, 3, 1)));
    __m512d sums = _mm512_cvtps_pd(_mm512_castps512_ps256(folded));
    _mm256_storeu_pd(first, _mm512_castpd512_pd256(sums));
    _mm256_storeu_pd(second, _mm512_extractf64x4_pd(sums, 1));
  }
  /// Two blocks of 16-bit elements in 16-bit lanes, the first block's in
  /// the low 256 bits: the 16-bit Dest sites' pack takes 32 values a step.
  static constexpr bool kBfpHalfLanes = true;
  static constexpr bool kBfpSignBytes = false;
  /// Whether bfpPackHalves takes the host's BFP packs of `input`.
  static constexpr bool bfpPacksHalves(Dtype input) {
    return input == Dtype::float32 || input == Dtype::bfloat16;
  }
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

constexpr PathKernels kAvx512Kernels = kernelTableOf<Avx512>();

} // namespace
#pragma clang attribute pop

const PathKernels *avx512Kernels() {
  // __builtin_cpu_supports also checks that the OS saves the registers.
  bool cpuHasIt =
      avx2Kernels() && __builtin_cpu_supports("avx512f") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
  return cpuHasIt ? &kAvx512Kernels : nullptr;
}

} // namespace birsim::core

#endif // __x86_64__
