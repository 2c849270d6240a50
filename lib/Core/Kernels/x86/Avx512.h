//===- Avx512.h - the AVX-512 path's vocabulary -----------------*- C++ -*-===//
// Private to lib/Core/Kernels/x86. Included inside the region that
// BIRSIM_TARGET_REGION_BEGIN(BIRSIM_AVX512_FEATURES) opens (X86.h): by
// Avx512.cpp, which builds the kernel table, and by
// test/Unit/Core/Kernels/VocabularyTest.cpp, which tests each lane
// operation. So every function here is compiled for AVX-512 F/BW/VL + F16C
// and called only when the CPU has them (Select.cpp). The loops are the
// algorithm headers' (KernelTable.h) and the lane arithmetic
// LaneArithmetic.h's, over this vocabulary: 16 fp32 lanes per 512-bit
// vector, and the last step of each loop is the same vector step under a
// mask, so no element leaves the vector path; a BFP block of 16 values is
// one vector; event tallies are lane counters, or (the BFP loops) mask
// popcounts. Each lane computes exactly what the portable path computes
// (docs/Semantics.md sections 2-5); the tests compare the two, on an
// emulated AVX-512 CPU where the host has none (utils/avx512-emulated.sh).
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_X86_AVX512_H
#define BIRSIM_LIB_CORE_KERNELS_X86_AVX512_H

#include "../LaneArithmetic.h"
#include "../KernelTable.h"

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
  /// Bit j set where lane j of `m` is (32-bit lanes).
  static uint32_t bits(M m) {
    static_assert(Bits == 32);
    return uint32_t(m);
  }
  /// Whether any lane of `m` is set.
  static bool any(M m) { return m != 0; }
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

/// The path's lane operations, loads and stores (Vocabulary.h), which the
/// algorithm headers below extend.
struct Avx512Vocabulary : X86Vocabulary {
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
  static void storePackOrder16(char *p, __m512i v) {
    _mm512_storeu_si512(
        p, _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7), v));
  }

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
};

// The algorithms' specialisations, one header each, beside their stage.
#include "Avx512Elementwise.h"
#include "Avx512BfpWalk.h"
#include "Avx512BfpPack.h"
#include "Avx512BfpSearch.h"

/// Vocabulary.h's vocabulary: the lane operations and each algorithm's.
struct Avx512 : Avx512Elementwise, Avx512BfpPack, Avx512BfpSearch {};

} // namespace
} // namespace birsim::core

#endif // BIRSIM_LIB_CORE_KERNELS_X86_AVX512_H
