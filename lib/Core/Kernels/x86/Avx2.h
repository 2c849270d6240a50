//===- Avx2.h - the AVX2 path's vocabulary ----------------------*- C++ -*-===//
// Private to lib/Core/Kernels/x86. Included inside the region that
// BIRSIM_TARGET_REGION_BEGIN(BIRSIM_AVX2_FEATURES) opens (X86.h): by
// Avx2.cpp, which builds the kernel table, and by
// test/Unit/Core/Kernels/VocabularyTest.cpp, which tests each lane
// operation. So every function here is compiled for AVX2 + F16C + FMA +
// POPCNT (a target attribute, not a file-wide flag, so that inline functions
// of the core's headers are not emitted with AVX2 code in them) and called
// only when the CPU has them (Select.cpp). The loops are the algorithm
// headers' (KernelTable.h) and the lane arithmetic LaneArithmetic.h's, over
// this vocabulary: 8 fp32 lanes per 256-bit vector, elements after the last
// whole vector on the portable path. Each lane computes exactly what the
// portable path computes (docs/Semantics.md sections 2-5).
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_X86_AVX2_H
#define BIRSIM_LIB_CORE_KERNELS_X86_AVX2_H

#include "../LaneArithmetic.h"
#include "../KernelTable.h"

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
  /// Bit j set where lane j of `m` is (32-bit lanes).
  static uint32_t bits(M m) {
    static_assert(Bits == 32);
    return uint32_t(_mm256_movemask_ps(asFloat(m)));
  }
  /// Whether any lane of `m` is set.
  static bool any(M m) { return !_mm256_testz_si256(m, m); }
  /// The same where `m` is set and the lane of `bit` (0 or 1) is 1.
  static void countIfOne(__m256i &lanes, M m, I bit) {
    static_assert(Bits == 32);
    lanes = _mm256_add_epi32(lanes, _mm256_and_si256(m, bit));
  }
};

/// The sum of 8 lane counters.
[[maybe_unused]] uint64_t laneSum(__m256i lanes) {
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

/// The path's lane operations, loads and stores (Vocabulary.h), which the
/// algorithm headers below extend.
struct Avx2Vocabulary : X86Vocabulary {
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
  static void storePackOrder16(char *p, __m256i v) {
    _mm256_storeu_si256((__m256i *)p, _mm256_permute4x64_epi64(v, 0xD8));
  }

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
};

// The algorithms' specialisations, one header each, beside their stage.
#include "Avx2Elementwise.h"
#include "Avx2BfpWalk.h"
#include "Avx2BfpPack.h"
#include "Avx2BfpSearch.h"

/// Vocabulary.h's vocabulary: the lane operations and each algorithm's.
struct Avx2 : Avx2Elementwise, Avx2BfpPack, Avx2BfpSearch {};

} // namespace
} // namespace birsim::core

#endif // BIRSIM_LIB_CORE_KERNELS_X86_AVX2_H
