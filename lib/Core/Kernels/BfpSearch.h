//===- BfpSearch.h - the §5 exponent search on a packed tile ----*- C++ -*-===//
//
// Private to lib/Core/Kernels, over a path's vocabulary `X`
// (Vocabulary.h); included, through KernelTable.h, inside each path's
// target region after LaneArithmetic.h.
//
// tt-metal PR #57298's search (docs/Semantics.md §5, "Exponent search"),
// run after the plain pack: only blocks its gate admits take the two trials;
// the fp32 sums decide where they are far enough apart, the block-order
// double sums (the portable search's) elsewhere. Bytes and tie counts equal
// BfpPortable.cpp's searchExponent on every path.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_BFPSEARCH_H
#define BIRSIM_LIB_CORE_KERNELS_BFPSEARCH_H

#include "BfpPacker.h"

namespace birsim::core::kernel {

/// The fraction bits of a block's largest magnitude at or above which
/// Emax - 1 cannot win the §5 exponent search (M magnitude bits). With u
/// the datum step under Emax and x = 2^(Emax - 127) (1 + f) the largest,
/// Emax - 1 makes x's error at least x - (2^M - 1) u / 2. Under Emax every
/// lane errs by at most u / 2 plus step 3's truncation (an ulp of
/// 2^(Emax - 127)) where x < (2^M - 1/2) u, else by less than u (step 4
/// saturates). So for M >= 3 and f >= 3 / 2^M + 4 ulps, the 16 lanes'
/// squared errors under Emax sum to at most x's alone under Emax - 1, which
/// wins only when strictly smaller.
template <unsigned M>
constexpr uint32_t kBfpSearchKeepsEmax = (3u << (23 - M)) + 4;

/// A block's largest magnitude's top 16 bits (the sign clear): its
/// exponent field, Emax, and the top 7 bits of its fraction. The host's
/// packs write it for the search (bfpLargestOf, or a path's halves pack).
using BfpLargest = uint16_t;
/// The BfpLargest of a block's largest magnitude `key` (fp32 bits, the
/// sign clear: X::bfpShared of its keys).
constexpr BfpLargest bfpLargestOf(int key) { return BfpLargest(key >> 16); }
constexpr unsigned bfpLargestEmax(BfpLargest largest) { return largest >> 7; }
constexpr unsigned bfpLargestTop7(BfpLargest largest) { return largest & 0x7F; }

/// The search's gate: whether a block whose largest is `largest` takes the
/// trials. Emax in (M, 255): at M or below Emax - 1's step is below
/// fp32's normals, at 255 the block holds an Inf or a NaN. Its top 7
/// fraction bits at most kBfpSearchKeepsEmax's: a superset of the exact
/// bound (the bits below them are not read), whose extra blocks' sums keep
/// Emax. Branch-free (the choice is data).
template <unsigned M> constexpr bool bfpSearchAdmits(BfpLargest largest) {
  constexpr unsigned kTop7 = (kBfpSearchKeepsEmax<M> - 1) >> 16;
  return unsigned(bfpLargestEmax(largest) - (M + 1) < 254 - M) &
         unsigned(bfpLargestTop7(largest) <= kTop7);
}

/// A block's values above shared exponent `e` as its largest magnitude
/// (sign | e << 23 | 0x7FFFFF; none above Emax): the searched pack's.
template <class X>
typename X::BfpBlock bfpClampAbove(const typename X::BfpBlock &values,
                                   unsigned e) {
  using V = typename X::template Lanes<32>;
  return X::mapBlock(
      [&](auto v) {
        return V::select(
            V::gt(V::shr(v, 23) & V::splat(0xFF), V::splat(e)),
            (v & V::splat(0x80000000u)) | V::splat(e << 23 | 0x7FFFFFu), v);
      },
      values);
}

/// §5 exponent search (tt-metal PR #57298) on a tile packed under Emax:
/// its `blocks` "b" blocks' exponent bytes at `exponents`, their datums
/// from `datums`, `load(b)` giving block b's fp32 lanes, `largest[b]` its
/// BfpLargest. The blocks bfpSearchAdmits are searched. Each lane's error
/// under Emax and under Emax - 1 (values above it at the largest
/// magnitude), as the difference of the value's and the datum's magnitudes
/// (the datum is 0 or of the value's sign), is exact in fp32 (both sides
/// multiples of the lane's ulp, the datum's step at least that), its
/// square exact in double. The block-order double sums decide, as the
/// portable search's; they are summed only where sums of the squares in
/// fp32, in any order (vector lanes), leave the comparison open. Such a
/// sum A of 16 terms lies within 16.1 * 2^-24 (relative) plus 2^-145
/// (underflow) of the exact sum S, the block-order double sum within 2^-48
/// of S, so A1 below A0 (1 - 2^-16) - 2^-143 puts the block-order sums in
/// that order, above A0 (1 + 2^-16) + 2^-143 in the other; an fp32 sum
/// that overflowed leaves it open. Where Emax - 1 is strictly better, the
/// block is packed again under it (bfpClampAbove making its values above
/// it its largest magnitude), its ties into `lanes`, its ties under Emax
/// (counted by the first pack) into `untallied`.
template <class X, unsigned M, class Load, class Tally>
__attribute__((always_inline)) inline void
bfpSearchTile(unsigned blocks, const BfpLargest *largest, Load &&load,
              char *exponents, char *datums, Tally &lanes, Tally &untallied) {
  using V = typename X::template Lanes<32>;
  using Block = typename X::BfpBlock;
  using P = BfpPackerLanes<X, BfpSite::host, false, M, false>;
  constexpr unsigned blockDatumBytes = kBfpBlockValues * (M + 1) / 8;
  constexpr double kApart = 0x1p-16, kUnderflow = 0x1p-143;
  // Block `values`' error lanes under Emax (`shared`) and Emax - 1, a part
  // at a time: the value's magnitude less its datum's (as a float), the
  // aligned significand rounded in units of the datum's step and clamped
  // (under Emax - 1 the values above it at the largest: their significand,
  // aligned one place left, rounds above it), times that step (normal:
  // Emax lies above M, so the product is exact and the fused step rounds
  // as the sum).
  auto trials = [](const Block &values, typename X::BfpShared shared,
                   Block &error0, Block &error1) {
    auto belowEmax = V::sub(shared, V::splat(1));
    auto largest = V::splatF(float((1u << M) - 1));
    auto negativeStep = [](auto exponent) {
      return V::shl(V::sub(exponent, V::splat(M - 1)), 23) |
             V::splat(0x80000000u);
    };
    auto step0 = negativeStep(shared), step1 = negativeStep(belowEmax);
    X::forEachPart(
        [&](const auto &v, auto &e0, auto &e1) {
          auto e = V::shr(v, 23) & V::splat(0xFF);
          auto magnitude = [&](auto aligned) {
            return V::minF(bfpRoundedF<V, M, 24 - M>(V::toFloat(aligned)),
                           largest);
          };
          // Aligned to Emax - 1: the significand doubled, then shifted by
          // Emax - e (the same truncation; below 2^25 and even where e is
          // Emax, so an exact float). Aligned to Emax: that halved.
          auto aligned1 = bfpAlignLanes<V>(V::shl(bfpSignificandLanes<V>(v), 1),
                                           V::eq(e, V::zero()), e, shared);
          auto absolute = v & V::splat(0x7FFFFFFFu);
          e0 = V::fmaF(magnitude(V::shr(aligned1, 1)), step0, absolute);
          e1 = V::fmaF(magnitude(aligned1), step1, absolute);
        },
        values, error0, error1);
  };
  auto blockOrderSum = [](Block error) {
    alignas(64) float lanes[kBfpBlockValues];
    X::storeBfpBlock(reinterpret_cast<char *>(lanes), error);
    double sum = 0;
    for (float e : lanes)
      sum += double(e) * double(e); // exact square: a contraction is alike
    return sum;
  };
  const uint8_t *emax = reinterpret_cast<const uint8_t *>(exponents);
  // The searched blocks, listed from a mask (the choice is data).
  uint64_t mask = 0;
  static_assert(kBfpTileBlocks <= 64);
  for (unsigned b = 0; b < blocks; ++b)
    mask |= uint64_t(bfpSearchAdmits<M>(largest[b])) << b;
  uint8_t searched[kBfpTileBlocks];
  unsigned count = 0;
  for (; mask; mask &= mask - 1)
    searched[count++] = uint8_t(__builtin_ctzll(mask));
  // Their fp32-lane sums under Emax and Emax - 1, four at a time.
  alignas(64) double sum0[kBfpTileBlocks + 3], sum1[kBfpTileBlocks + 3];
  for (unsigned i = 0; i < count; i += 4) {
    // squares[k] under Emax, squares[4 + k] under Emax - 1; zeros past
    // count.
    typename X::BfpSquares squares[8];
    for (unsigned k = 0; k < 4; ++k) {
      Block error0 = {}, error1 = {};
      if (i + k < count) {
        unsigned b = searched[i + k];
        trials(load(b), X::bfpSplat(emax[b]), error0, error1);
      }
      squares[k] = X::squaresOf(error0);
      squares[4 + k] = X::squaresOf(error1);
    }
    X::sumSquares4x2(squares, sum0 + i, sum1 + i);
  }
  // Branch-free where the lanes' sums decide: the lowered blocks listed.
  uint8_t lowered[kBfpTileBlocks];
  unsigned lowerCount = 0;
  for (unsigned i = 0; i < count; ++i) {
    bool finite = sum0[i] <= FLT_MAX & sum1[i] <= FLT_MAX;
    bool below = finite & (sum1[i] < sum0[i] * (1 - kApart) - kUnderflow);
    bool apart =
        below | (finite & (sum1[i] > sum0[i] * (1 + kApart) + kUnderflow));
    unsigned b = searched[i];
    if (!apart) {
      Block error0, error1;
      trials(load(b), X::bfpSplat(emax[b]), error0, error1);
      below = blockOrderSum(error1) < blockOrderSum(error0);
    }
    lowered[lowerCount] = uint8_t(b);
    lowerCount += below;
  }
  for (unsigned i = 0; i < lowerCount; ++i) {
    unsigned b = lowered[i], e = emax[b];
    Block values = load(b);
    P::magnitudeLanes(values, X::bfpSplat(int(e)), untallied);
    exponents[b] = char(e - 1); // above M: no borrow
    X::storeBfpDatums(M + 1, datums + b * blockDatumBytes,
                      P::datums(bfpClampAbove<X>(values, e - 1),
                                X::bfpSplat(int(e - 1)), lanes));
  }
}

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_BFPSEARCH_H
