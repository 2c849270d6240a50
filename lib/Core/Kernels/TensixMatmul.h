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

namespace birsim::core::kernel {

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
  constexpr unsigned L = X::kVectorBytes / 4;
  auto c = [](uint32_t k) { return V::splat(k); };
  auto load = [&](const int32_t *p) {
    return X::template load<4>(X::template whole<L>(),
                               reinterpret_cast<const char *>(p));
  };
  // A zero operand's product is 0 at max(rebias, 0). Below a rebias of 0
  // the zero mark's far lower exponent gives the same group: its top, when
  // no product reaches 0, is at or below 0 either way (the group is zero),
  // and the product's magnitude is 0.
  const bool zeroAtRebias = rebias > 0;
  const I zeroExponent = c(uint32_t(std::max(rebias, 0)));
  I termNeg[2], termExp[2], termMag[2];
  for (unsigned group = 0; group < 2; ++group) {
    // Each product's exponent, and the group's top.
    I exponents[8];
    I top = V::zero();
    for (unsigned t = 0; t < 8; ++t) {
      size_t kk = half + 8 * group + t;
      size_t b = row * f.k + kk;
      I e = V::add(load(f.aExponent + f.aIndex(kk, col)),
                   c(uint32_t(f.bExponent[b] + rebias)));
      if (zeroAtRebias) // either mark puts the sum far below -2^15
        e = V::select(V::gt(c(uint32_t(-32768)), e), zeroExponent, e);
      exponents[t] = e;
      top = t ? V::max(top, e) : e;
    }
    // Twice each slice product aligned to the top, the magnitude rounded
    // half up (shift counts of 32 or more give 0: no clamp), summed with
    // its sign.
    I sum = V::zero();
    for (unsigned t = 0; t < 8; ++t) {
      size_t kk = half + 8 * group + t;
      size_t a = f.aIndex(kk, col), b = row * f.k + kk;
      I magnitude = V::mul(load(f.aSlice[phase & 1] + a),
                           c(uint32_t(2 * f.bSlice[phase >> 1][b])));
      I sign = load(f.aSign + a) ^ c(uint32_t(f.bSign[b]));
      I places = V::sub(top, exponents[t]);
      I aligned = V::shrv(V::add(magnitude, V::shlv(c(1), places)),
                          V::add(places, c(1)));
      sum = V::add(sum, V::sub(aligned ^ sign, sign));
    }
    auto live = V::gt(top, V::zero()); // at or below 0 the group is zero
    I negative = V::sra(sum, 31);
    termNeg[group] = V::keep(live, V::shr(sum, 31));
    termExp[group] = V::keep(live, top);
    termMag[group] = V::keep(live, V::shl(V::sub(sum ^ negative, negative), 13));
  }
  return tensixAddTermsLanes<V, 2>(config.arch, destInfo, termNeg, termExp,
                                   termMag, word);
}

/// Rows [rowBegin, rowEnd): a vector of columns at a time (its in1 fields,
/// 16 bytes x K x lanes, stay in the second-level cache) down every row,
/// each vector's Dest words through every K tile, phase and MVMUL (§7
/// "matmul_tiles") before they are stored. n is a multiple of 32.
template <class X, bool Wide>
__attribute__((noinline)) void
tensixMatmulRowsLoop(const TensixMatmulConfig &config,
                     const TensixMatmulFields &f, char *dest, size_t rowBegin,
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
  auto part = X::template whole<L>();
  for (size_t col = 0; col < f.n; col += L)
    for (size_t row = rowBegin; row < rowEnd; ++row) {
      char *at = dest + bytes * (row * f.n + col);
      I word = config.accumulate
                   ? tensixDestReadLanes<V>(
                         config.dest, X::template loadWidened<bytes>(part, at))
                   : V::zero();
      for (size_t kt = 0; kt < f.k; kt += 32)
        for (unsigned phase = 0; phase < 4; ++phase)
          if (config.phases >> phase & 1)
            for (size_t half = kt; half < kt + 32; half += 16)
              word = tensixMvmulLanes<X>(config, destInfo, f, row, col, half,
                                         phase, rebias[phase], word);
      X::template storeNarrowed<bytes>(
          at, part, tensixDestWriteLanes<V>(config.dest, word));
    }
}

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_TENSIXMATMUL_H
