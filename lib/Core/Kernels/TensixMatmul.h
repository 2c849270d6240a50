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
  const I zeroExponent = c(uint32_t(std::max(rebias, 0)));
  I termNeg[2], termExp[2], termMag[2];
  for (unsigned group = 0; group < 2; ++group) {
    // Each product: exponent, slice product, sign mask; a zero operand's
    // exponent is max(rebias, 0) (its slices are 0 in the fields).
    I exponents[8], magnitudes[8], signs[8];
    I top = V::zero();
    for (unsigned t = 0; t < 8; ++t) {
      size_t kk = half + 8 * group + t;
      size_t a = kk * f.n + col, b = row * f.k + kk;
      if (f.bExponent[b] == TensixMatmulFields::kZero) {
        exponents[t] = zeroExponent;
        magnitudes[t] = signs[t] = V::zero();
      } else {
        I aExponent = load(f.aExponent + a);
        exponents[t] = V::select(
            V::eq(aExponent, c(uint32_t(TensixMatmulFields::kZero))),
            zeroExponent,
            V::add(aExponent, c(uint32_t(f.bExponent[b] + rebias))));
        magnitudes[t] = V::mul(load(f.aSlice[phase & 1] + a),
                               c(uint32_t(f.bSlice[phase >> 1][b])));
        signs[t] = load(f.aSign + a) ^ c(uint32_t(f.bSign[b]));
      }
      top = t ? V::max(top, exponents[t]) : exponents[t];
    }
    // Aligned to the top, the magnitude rounded half up, summed signed.
    I sum = V::zero();
    for (unsigned t = 0; t < 8; ++t) {
      I places = V::min(V::sub(top, exponents[t]), c(30));
      I aligned = V::shrv(V::add(V::shl(magnitudes[t], 1), V::shlv(c(1), places)),
                          V::add(places, c(1)));
      sum = V::add(sum, V::sub(aligned ^ signs[t], signs[t]));
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

/// Rows [rowBegin, rowEnd): each row's columns a vector at a time, each
/// vector's Dest words through every K tile, phase and MVMUL (§7
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
    rebias[phase] = (config.in1Src != TensixSrc::fp16 ? -127
                     : Wide                           ? 97
                                                      : -15) -
                    int32_t(5 * (phase & 1) + 7 * (phase >> 1));
  auto part = X::template whole<L>();
  for (size_t row = rowBegin; row < rowEnd; ++row)
    for (size_t col = 0; col < f.n; col += L) {
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
