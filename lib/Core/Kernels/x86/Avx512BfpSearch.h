//===- Avx512BfpSearch.h - Avx512's sums of squares -------------*- C++ -*-===//
//
// Private to lib/Core/Kernels/x86; included only by Avx512.cpp, inside its
// namespace and target region, after the vocabulary it extends.
// The blocks' sums of squares of BfpSearch.h's exponent search
// (docs/Semantics.md §5.4), in fp32, in an order of this path's.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_X86_AVX512BFPSEARCH_H
#define BIRSIM_LIB_CORE_KERNELS_X86_AVX512BFPSEARCH_H

struct Avx512BfpSearch : Avx512BfpWalk {
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
};

#endif // BIRSIM_LIB_CORE_KERNELS_X86_AVX512BFPSEARCH_H
