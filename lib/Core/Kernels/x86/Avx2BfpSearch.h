//===- Avx2BfpSearch.h - Avx2's sums of squares -----------------*- C++ -*-===//
//
// Private to lib/Core/Kernels/x86; included only by Avx2.cpp, inside its
// namespace and target region, after the vocabulary it extends.
// The blocks' sums of squares of BfpSearch.h's exponent search
// (docs/Semantics.md §5.4), in fp32, in an order of this path's.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_X86_AVX2BFPSEARCH_H
#define BIRSIM_LIB_CORE_KERNELS_X86_AVX2BFPSEARCH_H

struct Avx2BfpSearch : Avx2BfpWalk {
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
};

#endif // BIRSIM_LIB_CORE_KERNELS_X86_AVX2BFPSEARCH_H
