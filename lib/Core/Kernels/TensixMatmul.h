//===- TensixMatmul.h - the Tensix FPU's matmul_tiles -----------*- C++ -*-===//
//
// Private to lib/Core. matmul_tiles (docs/Semantics.md section 7, "MVMUL"
// and "matmul_tiles") over a path's vocabulary `X`, included inside its
// target region: one output per lane, a vector of consecutive columns of
// one row, every MVMUL of the LLK's order in turn. The portable path's loop
// is Tensix.cpp's; this equals it lane for lane.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_TENSIXMATMUL_H
#define BIRSIM_LIB_CORE_KERNELS_TENSIXMATMUL_H

#include "TensixEltwise.h"
#include "VectorBuiltins.h"

namespace birsim::core::kernel {

/// in1's fields at `p` for a vector of consecutive columns, into lanes.
template <class X>
__attribute__((always_inline)) inline typename X::template Lanes<32>::I
tensixFieldLanes(const int32_t *p) {
  return X::template load<4>(X::template whole<X::kVectorBytes / 4>(),
                             reinterpret_cast<const char *>(p));
}

/// The exponents, less the phase's rebias, of the 8 products of K rows
/// [kk0, kk0 + 8) of `row` and columns [col, col + L), read straight into
/// lanes; returns the group's top (§7 "MVMUL", step 2). A zero operand's
/// product is 0 at max(rebias, 0): at 0 here when the rebias is above 0
/// (`zeroAtRebias`). Below it the zero mark's far lower exponent gives the
/// same group: its top, when no product reaches the rebias, is at or below
/// 0 either way (the group is zero), and the product's magnitude is 0.
template <class X>
__attribute__((always_inline)) inline typename X::template Lanes<32>::I
tensixGroupExponents(const TensixMatmulFields &f, size_t row, size_t col,
                     size_t kk0, bool zeroAtRebias,
                     typename X::template Lanes<32>::I (&exponents)[8]) {
  using V = typename X::template Lanes<32>;
  using I = typename V::I;
  auto c = [](uint32_t k) { return V::splat(k); };
  I top = V::zero();
  for (unsigned t = 0; t < 8; ++t) {
    size_t kk = kk0 + t;
    I e = V::add(tensixFieldLanes<X>(f.aExponent + f.aIndex(kk, col)),
                 c(uint32_t(f.bExponent[row * f.k + kk])));
    if (zeroAtRebias) // either mark puts the sum far below -2^15
      e = V::keep(V::notLanes(V::gt(c(uint32_t(-32768)), e)), e);
    exponents[t] = e;
    top = t ? V::max(top, e) : e;
  }
  return top;
}

/// A group's signed sum of aligned products at exponent `top` as a term
/// into Dest (§7 "MVMUL", step 3): at or below 0 the group is zero.
template <class V>
__attribute__((always_inline)) inline void tensixGroupTerm(typename V::I sum, typename V::I top,
                     typename V::I &negative, typename V::I &exponent,
                     typename V::I &magnitude) {
  auto live = V::gt(top, V::zero());
  typename V::I sign = V::sra(sum, 31);
  negative = V::keep(live, V::shr(sum, 31));
  exponent = V::keep(live, top);
  magnitude = V::keep(live, V::shl(V::sub(sum ^ sign, sign), 13));
}

/// One MVMUL of K rows [half, half + 16) into the Dest words `word` of
/// columns [col, col + L) of `row` at `phase` (§7 "MVMUL").
template <class X>
typename X::template Lanes<32>::I
tensixMvmulLanes(const TensixMatmulConfig &config,
                 const TensixDestInfo &destInfo, const TensixMatmulFields &f,
                 size_t row, size_t col, size_t half, unsigned phase,
                 int32_t rebias, typename X::template Lanes<32>::I word) {
  using V = typename X::template Lanes<32>;
  using I = typename V::I;
  auto c = [](uint32_t k) { return V::splat(k); };
  const bool zeroAtRebias = rebias > 0;
  I termNeg[2], termExp[2], termMag[2];
  for (unsigned group = 0; group < 2; ++group) {
    I exponents[8];
    I top = tensixGroupExponents<X>(f, row, col, half + 8 * group,
                                    zeroAtRebias, exponents);
    // Each slice product aligned to the top, the magnitude rounded half
    // up: floor((q + 1) / 2) for q twice the product shifted by the
    // distance (32 places or more give q = 0: no clamp), summed with its
    // sign.
    I sum = V::zero();
    for (unsigned t = 0; t < 8; ++t) {
      size_t kk = half + 8 * group + t;
      size_t a = f.aIndex(kk, col), b = row * f.k + kk;
      I product = V::mul(tensixFieldLanes<X>(f.aSlice[phase & 1] + a),
                         c(uint32_t(f.bSlice[phase >> 1][b])));
      I sign = tensixFieldLanes<X>(f.aSign + a) ^ c(uint32_t(f.bSign[b]));
      I q = V::shrv(V::add(product, product), V::sub(top, exponents[t]));
      I aligned = V::shr(V::add(q, c(1)), 1);
      sum = V::add(sum, V::sub(aligned ^ sign, sign));
    }
    tensixGroupTerm<V>(sum, V::add(top, c(uint32_t(rebias))), termNeg[group],
                       termExp[group], termMag[group]);
  }
  return tensixAddTermsLanes<V, 2>(config.arch, destInfo, termNeg, termExp,
                                   termMag, word);
}

/// What a K tile's MVMULs share across phases for one row and vector of
/// columns: a product's exponent is its operands' plus the phase's rebias,
/// and every phase's rebias has one sign, so each product's distance to
/// its group's top, and so its rounding bit and shift, is the same at
/// every phase (§7 "MVMUL", step 2). Index: 8 x (2 x half + group) + t.
template <class V> struct TensixMatmulTileLanes {
  using I = typename V::I;
  I round[32], shift[32], sign[32]; ///< a product's alignment and sign
  I topBase[4];   ///< a group's top less the phase's rebias
  I negatives[4]; ///< a group's negative products: sum's two's complement
};

/// The tile's shared lanes for `row`, columns [col, col + L), K [kt, kt + 32).
template <class X>
void tensixMatmulTile(const TensixMatmulFields &f, size_t row, size_t col,
                      size_t kt, bool zeroAtRebias,
                      TensixMatmulTileLanes<typename X::template Lanes<32>> &tile) {
  using V = typename X::template Lanes<32>;
  using I = typename V::I;
  auto c = [](uint32_t k) { return V::splat(k); };
  for (unsigned g = 0; g < 4; ++g) {
    I exponents[8];
    I top = tensixGroupExponents<X>(f, row, col, kt + 8 * g, zeroAtRebias,
                                    exponents);
    tile.topBase[g] = top;
    I negatives = V::zero();
    for (unsigned t = 0; t < 8; ++t) {
      size_t kk = kt + 8 * g + t, i = 8 * g + t;
      I places = V::sub(top, exponents[t]);
      // (p + 2^(places-1)) >> places: the product rounded half up (0 for
      // no places, where the count -1 shifts the bit out; 0 from 33).
      tile.round[i] = V::shlv(c(1), V::sub(places, c(1)));
      tile.shift[i] = places;
      I sign = tensixFieldLanes<X>(f.aSign + f.aIndex(kk, col)) ^
               c(uint32_t(f.bSign[row * f.k + kk]));
      tile.sign[i] = sign;
      negatives = V::sub(negatives, sign);
    }
    tile.negatives[g] = negatives;
  }
}

/// tensixMvmulLanes from a tile's shared lanes: K rows [kt + 16 x half,
/// + 16) at `phase`.
template <class X>
typename X::template Lanes<32>::I tensixMvmulTileLanes(
    const TensixMatmulConfig &config, const TensixDestInfo &destInfo,
    const TensixMatmulFields &f,
    const TensixMatmulTileLanes<typename X::template Lanes<32>> &tile,
    size_t row, size_t col, size_t kt, unsigned half, unsigned phase,
    int32_t rebias, typename X::template Lanes<32>::I word) {
  using V = typename X::template Lanes<32>;
  using I = typename V::I;
  auto c = [](uint32_t k) { return V::splat(k); };
  const int32_t *aSlice = f.aSlice[phase & 1];
  const int32_t *bSlice = f.bSlice[phase >> 1] + row * f.k;
  I termNeg[2], termExp[2], termMag[2];
  for (unsigned group = 0; group < 2; ++group) {
    unsigned g = 2 * half + group;
    I sum = tile.negatives[g];
    for (unsigned t = 0; t < 8; ++t) {
      size_t kk = kt + 8 * g + t;
      I magnitude = V::mul(tensixFieldLanes<X>(aSlice + f.aIndex(kk, col)),
                           c(uint32_t(bSlice[kk])));
      I aligned = V::shrv(V::add(magnitude, tile.round[8 * g + t]),
                          tile.shift[8 * g + t]);
      sum = V::add(sum, aligned ^ tile.sign[8 * g + t]);
    }
    tensixGroupTerm<V>(sum, V::add(tile.topBase[g], c(uint32_t(rebias))),
                       termNeg[group], termExp[group], termMag[group]);
  }
  return tensixAddTermsLanes<V, 2>(config.arch, destInfo, termNeg, termExp,
                                   termMag, word);
}

/// Rows [rowBegin, rowEnd): a vector of columns at a time (its in1 fields,
/// 16 bytes x K x lanes, stay in the second-level cache) down every row,
/// each vector's Dest words through every K tile, phase and MVMUL (§7
/// "matmul_tiles") before they are stored. n is a multiple of 32.
template <class X, bool Wide>
BIRSIM_KERNEL_LOOP void tensixMatmulRowsLoop(const TensixMatmulConfig &config,
                                             const TensixMatmulFields &f,
                                             char *dest, size_t rowBegin,
                                             size_t rowEnd) {
  using V = typename X::template Lanes<32>;
  using I = typename V::I;
  constexpr unsigned L = X::kVectorBytes / 4;
  constexpr unsigned bytes = Wide ? 4 : 2;
  const TensixDestInfo &destInfo = kTensixDestTable[int(config.dest)];
  int32_t rebias[4];
  for (unsigned phase = 0; phase < 4; ++phase)
    rebias[phase] =
        tensixProductRebias(config.in1Src != TensixSrc::fp16, Wide, phase);
  // Several phases share each tile's alignment (TensixMatmulTileLanes).
  const bool severalPhases = config.phases & (config.phases - 1);
  TensixMatmulTileLanes<V> tile;
  auto part = X::template whole<L>();
  for (size_t col = 0; col < f.n; col += L)
    for (size_t row = rowBegin; row < rowEnd; ++row) {
      char *at = dest + bytes * (row * f.n + col);
      I word = config.accumulate
                   ? tensixDestReadLanes<V>(
                         config.dest, X::template loadWidened<bytes>(part, at))
                   : V::zero();
      for (size_t kt = 0; kt < f.k; kt += 32) {
        if (severalPhases) {
          tensixMatmulTile<X>(f, row, col, kt, rebias[0] > 0, tile);
          for (unsigned phase = 0; phase < 4; ++phase)
            if (config.phases >> phase & 1)
              for (unsigned half = 0; half < 2; ++half)
                word = tensixMvmulTileLanes<X>(config, destInfo, f, tile, row,
                                               col, kt, half, phase,
                                               rebias[phase], word);
          continue;
        }
        for (unsigned phase = 0; phase < 4; ++phase)
          if (config.phases >> phase & 1)
            for (size_t half = kt; half < kt + 32; half += 16)
              word = tensixMvmulLanes<X>(config, destInfo, f, row, col, half,
                                         phase, rebias[phase], word);
      }
      X::template storeNarrowed<bytes>(
          at, part, tensixDestWriteLanes<V>(config.dest, word));
    }
}

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_TENSIXMATMUL_H
