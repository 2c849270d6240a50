//===- Avx2.cpp - the AVX2 path's vocabulary ------------------------------===//
//
// Every function here is compiled for AVX2 + F16C + FMA + POPCNT (a target
// attribute, not a file-wide flag, so that inline functions of the core's
// headers are not emitted here with AVX2 code in them) and called only when
// the CPU has them (Select.cpp). The loops are the algorithm headers'
// (KernelTable.h includes them) and the lane arithmetic LaneArithmetic.h's,
// over this file's vocabulary: 8 fp32 lanes per 256-bit vector, elements after the last whole vector on the portable
// path. Each lane computes exactly what the portable path computes
// (docs/Semantics.md sections 2-5); the tests compare the two.
//
//===----------------------------------------------------------------------===//
#include "X86.h"

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#if defined(__x86_64__)
#pragma clang attribute push(__attribute__((target("avx2,f16c,fma,popcnt"))),     \
                             apply_to = function)
#include "LaneArithmetic.h"
#include "KernelTable.h"

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
  /// Lanes where `a` and `b` share no set bit.
  static M noneSet(I a, I b) { return eq(a & b, I{}); }
  static I keep(M m, I v) { return _mm256_and_si256(v, m); }
  /// Per lane; a count of 32 or more gives 0.
  static I shrv(I v, I n) { return _mm256_srlv_epi32(v, n); }
  static I shlv(I v, I n) { return _mm256_sllv_epi32(v, n); }
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
  /// The same where `m` is set and the lane of `bit` (0 or 1) is 1.
  static void countIfOne(__m256i &lanes, M m, I bit) {
    static_assert(Bits == 32);
    lanes = _mm256_add_epi32(lanes, _mm256_and_si256(m, bit));
  }
};

/// The sum of 8 lane counters.
uint64_t laneSum(__m256i lanes) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(lanes),
                            _mm256_extracti128_si256(lanes, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
  return uint32_t(_mm_cvtsi128_si32(s));
}

int horizontalMax(__m256i v) {
  __m128i m = _mm_max_epi32(_mm256_castsi256_si128(v),
                            _mm256_extracti128_si256(v, 1));
  m = _mm_max_epi32(m, _mm_shuffle_epi32(m, 0x4E));
  m = _mm_max_epi32(m, _mm_shuffle_epi32(m, 0xB1));
  return _mm_cvtsi128_si32(m);
}

/// 16 values of 32-bit lanes (each < 256) to 16 bytes.
__m128i toBytes(__m256i lo, __m256i hi) {
  __m128i a = _mm_packus_epi32(_mm256_castsi256_si128(lo),
                               _mm256_extracti128_si256(lo, 1));
  __m128i b = _mm_packus_epi32(_mm256_castsi256_si128(hi),
                               _mm256_extracti128_si256(hi, 1));
  return _mm_packus_epi16(a, b);
}

/// Vocabulary.h's vocabulary.
struct Avx2 : X86Vocabulary {
  template <unsigned Bits> using Lanes = Avx2Lanes<Bits>;
  using L32 = Avx2Lanes<32>;
  static constexpr unsigned kVectorBytes = 32;
  static constexpr bool kMaskedTails = false;
  /// Round trips per sweep of the assigner's moments: their chains in
  /// sixteen registers.
  static constexpr unsigned kMomentTrips = 2;

  struct Part {}; // always a whole vector
  template <unsigned N> static Part whole() { return {}; }
  static L32::M valid(Part) { return L32::allLanes(); }

  template <unsigned Bytes> static __m256i load(Part, const char *p) {
    return _mm256_loadu_si256((const __m256i *)p);
  }
  template <unsigned Bytes> static void store(char *p, Part, __m256i v) {
    _mm256_storeu_si256((__m256i *)p, v);
  }
  template <unsigned Bytes> static __m256i loadWidened(Part, const char *p) {
    if constexpr (Bytes == 1)
      return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p));
    else if constexpr (Bytes == 2)
      return _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p));
    else
      return load<4>(Part{}, p);
  }
  /// Lanes below 2^(8 Bytes).
  template <unsigned Bytes>
  static void storeNarrowed(char *p, Part, __m256i v) {
    if constexpr (Bytes == 4) {
      store<4>(p, Part{}, v);
      return;
    }
    __m128i u16 = _mm_packus_epi32(_mm256_castsi256_si128(v),
                                   _mm256_extracti128_si256(v, 1));
    if constexpr (Bytes == 2)
      _mm_storeu_si128((__m128i *)p, u16);
    else
      _mm_storel_epi64((__m128i *)p,
                       _mm_packus_epi16(u16, _mm_setzero_si128()));
  }

  template <unsigned Bytes, MemoryReductionOp Op>
  static __m256i integerOp(__m256i a, __m256i b) {
    if constexpr (Op == MemoryReductionOp::add)
      return Bytes == 4 ? _mm256_add_epi32(a, b) : _mm256_add_epi64(a, b);
    else if constexpr (Bytes == 4)
      return Op == MemoryReductionOp::min ? _mm256_min_epi32(a, b)
                                          : _mm256_max_epi32(a, b);
    else {
      __m256i r = L32::select(Op == MemoryReductionOp::min
                                  ? _mm256_cmpgt_epi64(a, b)
                                  : _mm256_cmpgt_epi64(b, a),
                              b, a);
      // Opaque to LLVM, which would otherwise store only the lanes taken
      // from `b` with VPMASKMOVQ (microcoded, 4x slower here).
      asm("" : "+x"(r));
      return r;
    }
  }

  static __m256i unpackLow16(__m256i a, __m256i b) { return _mm256_unpacklo_epi16(a, b); }
  static __m256i unpackHigh16(__m256i a, __m256i b) { return _mm256_unpackhi_epi16(a, b); }
  static __m256i packUnsigned32(__m256i a, __m256i b) { return _mm256_packus_epi32(a, b); }
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

  /// 32-bit lane counters: 2^24 steps add at most 2^24 to a lane.
  template <class Class> using Tally = ClassCounts<Class, __m256i>;
  template <class Class> using PopcountTally = Tally<Class>;
  static constexpr size_t kTallySteps = size_t(1) << 24;
  template <class Class>
  static void moveCounts(Tally<Class> &lanes, ClassCounts<Class> &totals) {
    for (int c = 0; c < ClassCounts<Class>::kClasses; ++c) {
      totals.cells[c] += laneSum(lanes.cells[c]);
      lanes.cells[c] = _mm256_setzero_si256();
    }
  }

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
    // Each block's largest key: [A B] and [C D] halves, then [A C | B D]
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
          idx = _mm256_subs_epu16(e, baseK);
        }
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
        __m256i plusHalf = _mm256_add_epi16(x, lead);
        halfUp[k] = _mm256_srli_epi16(plusHalf, 8);
        tie[k] = _mm256_cmpeq_epi16(_mm256_slli_epi16(plusHalf, 8), zero);
        q[k] = halfUp[k];
      }
      // A tie rounds to even and is counted: a group's ties tested for
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
      // Step 4's saturation: BFP8's 2^7 by the signed pack's own.
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
  /// A block's fp32 lanes squared and added pairwise into one vector
  /// (its sum of squares is the sum of those lanes).
  using BfpSquares = __m256;
  static BfpSquares squaresOf(const BfpBlock &block) {
    __m256 lo = asFloat(block.lo), hi = asFloat(block.hi);
    return _mm256_fmadd_ps(hi, hi, _mm256_mul_ps(lo, lo));
  }
  /// 8 blocks' sums of squares from their squaresOf, in fp32, in an order
  /// of its own, widened: blocks 0-3 at first, 4-7 at second.
  static void sumSquares4x2(const BfpSquares *sq, double *first,
                            double *second) {
    __m256 pairs[4], quads[2];
    // Within each 128-bit half: two blocks' partials, then four's.
    for (int k = 0; k < 4; ++k)
      pairs[k] = _mm256_add_ps(_mm256_unpacklo_ps(sq[2 * k], sq[2 * k + 1]),
                               _mm256_unpackhi_ps(sq[2 * k], sq[2 * k + 1]));
    for (int k = 0; k < 2; ++k) {
      __m256d a = _mm256_castps_pd(pairs[2 * k]),
              b = _mm256_castps_pd(pairs[2 * k + 1]);
      quads[k] = _mm256_add_ps(_mm256_castpd_ps(_mm256_unpacklo_pd(a, b)),
                               _mm256_castpd_ps(_mm256_unpackhi_pd(a, b)));
    }
    // Then the halves folded: blocks 0-3 low, 4-7 high.
    __m256 folded =
        _mm256_add_ps(_mm256_permute2f128_ps(quads[0], quads[1], 0x20),
                      _mm256_permute2f128_ps(quads[0], quads[1], 0x31));
    _mm256_storeu_pd(first, _mm256_cvtps_pd(_mm256_castps256_ps128(folded)));
    _mm256_storeu_pd(second, _mm256_cvtps_pd(_mm256_extractf128_ps(folded, 1)));
  }
  /// No 16-bit variable shifts: the 16-bit Dest sites take 32-bit lanes.
  static constexpr bool kBfpHalfLanes = false;
  static constexpr bool kBfpSignBytes = true;
  /// Whether bfpPackHalves takes the host's BFP packs of `input`.
  static constexpr bool bfpPacksHalves(Dtype input) {
    return input == Dtype::float32 || input == Dtype::bfloat16;
  }
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

constexpr PathKernels kAvx2Kernels = kernelTableOf<Avx2>();

} // namespace
#pragma clang attribute pop

const PathKernels *avx2Kernels() {
  // __builtin_cpu_supports also checks that the OS saves the registers.
  bool cpuHasIt = __builtin_cpu_supports("avx2") &&
                  __builtin_cpu_supports("f16c") &&
                  __builtin_cpu_supports("fma") &&
                  __builtin_cpu_supports("popcnt");
  return cpuHasIt ? &kAvx2Kernels : nullptr;
}

} // namespace birsim::core

#endif // __x86_64__
