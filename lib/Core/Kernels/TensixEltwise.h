//===- TensixEltwise.h - the Tensix FPU's mul and the packer ----*- C++ -*-===//
//
// Private to lib/Core. The loops of the Tensix kernels (docs/Semantics.md
// section 7) over a path's vocabulary `X`, included inside its target
// region: mul_tiles from a zeroed Dest with BF16 Src through the product
// table (Tensix.cpp), and the packer's value steps. The portable path's
// loops are Tensix.cpp's; these equal them lane for lane.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_TENSIXELTWISE_H
#define BIRSIM_LIB_CORE_KERNELS_TENSIXELTWISE_H

#include "Elementwise.h"
#include "Kernels.h"

namespace birsim::core::kernel {

/// The table's words at `index`, by scalar loads: on AMD's cores a scalar
/// load per lane is faster than VPGATHERDD (measured, docs/Benchmarks.md).
template <class V, bool Wide>
typename V::I lookUp(const uint32_t *words, typename V::I index) {
  constexpr unsigned kLanes = sizeof(typename V::I) / 4;
  alignas(64) uint32_t at[kLanes], got[kLanes];
  std::memcpy(at, &index, sizeof at);
  auto *halves = reinterpret_cast<const uint16_t *>(words);
#pragma clang loop vectorize(disable) unroll(full)
  for (unsigned j = 0; j < kLanes; ++j)
    got[j] = Wide ? words[at[j]] : uint32_t(halves[at[j]]) << 16;
  typename V::I v;
  std::memcpy(&v, got, sizeof got);
  return v;
}

/// The lanes `exact` of the step at element `i`, by the direct computation.
template <class X>
__attribute__((noinline, cold)) void tensixMulExactLanes(const TensixMulTable &table, const char *a, const char *b,
                    char *dest, size_t i, uint32_t exact) {
  for (; exact; exact &= exact - 1)
    tensixMulTableElement(table, a, b, dest, i + __builtin_ctz(exact));
}

/// §7 "Scale": a lane whose exponents keep every phase's product above 0
/// and the result below 255 takes the table's word for its signs and
/// fractions with the exponent moved by ea + eb - 254; a zero operand or
/// a +0 word (the phases' slices are zero) gives +0; the rest are
/// recomputed exactly (tensixMulTableElement).
template <class X, bool Wide>
__attribute__((noinline)) void tensixMulTableLoop(const TensixMulTable &table,
                                                  const char *a, const char *b,
                                                  char *dest, size_t count) {
  using V = typename X::template Lanes<32>;
  constexpr unsigned bytes = Wide ? 4 : 2;
  const auto exponentMask = V::splat(0xFF), fractionMask = V::splat(0x7F);
  size_t covered = vectorSteps<X, X::kVectorBytes / 4>(count, [&](size_t i,
                                                                  auto part) {
    X::prefetch(a + 4 * i, b + 4 * i);
    auto wa = X::template load<4>(part, a + 4 * i);
    auto wb = X::template load<4>(part, b + 4 * i);
    auto ea = V::shr(wa, 23) & exponentMask, eb = V::shr(wb, 23) & exponentMask;
    auto index = V::shl(V::shr(wa ^ wb, 31), 14) |
                 V::shl(V::shr(wa, 16) & fractionMask, 7) |
                 (V::shr(wb, 16) & fractionMask);
    auto word = lookUp<V, Wide>(table.words, index);
    auto scale = V::sub(V::add(ea, eb), V::splat(254));
    auto exponent = V::add(V::shr(word, 23) & exponentMask, scale);
    auto zero = V::either(V::either(V::eq(ea, V::zero()), V::eq(eb, V::zero())),
                          V::eq(word, V::zero())); // +0 at every scale
    auto inRange = V::both(V::gt(scale, V::splat(table.lowestScale - 1)),
                           V::gt(V::splat(255), exponent));
    auto fast = V::butNot(inRange, zero);
    auto out = V::keep(fast, V::add(word, V::shl(scale, 23)));
    if constexpr (Wide)
      X::template store<4>(dest + 4 * i, part, out);
    else
      X::template storeNarrowed<2>(dest + 2 * i, part, V::shr(out, 16));
    uint32_t exact = V::bits(V::both(V::notLanes(V::either(fast, zero)),
                                     X::valid(part)));
    if (__builtin_expect(exact != 0, 0))
      tensixMulExactLanes<X>(table, a, b, dest, i, exact);
  });
  if (covered < count)
    portableKernels().tensixMulTable(table, a + 4 * covered, b + 4 * covered,
                             dest + bytes * covered, count - covered);
}

/// The packer's value steps (§7 "The packer") on lanes of Dest's storage
/// bits, and float32 L1 accumulation (§7 "L1 accumulation").
template <class V, TensixPackConversion C>
typename V::I tensixPackLanes(typename V::I v) {
  using T = TensixPackConversion;
  auto c = [](uint32_t k) { return V::splat(k); };
  auto below = [&](typename V::I x, uint32_t k) { return V::gt(c(k), x); };
  if constexpr (C == T::keepFp32) {
    return v;
  } else if constexpr (C == T::fp32RoundBf16 || C == T::fp32RoundFp16) {
    auto sign = v & c(0x80000000u);
    v = V::select(V::gt(v & c(0x7FFFFFFF), c(0x7F800000)),
                  sign | c(0x7F800000), v); // NaN to the signed Inf
    if constexpr (C == T::fp32RoundBf16) {
      auto half = V::shr(V::add(v, c(0x8000)), 16); // ties away from zero
      return V::keep(V::notLanes(below(half & c(0x7FFF), 0x80)), half);
    } else {
      auto word = V::shr(V::add(v, c(0x1000)), 13); // TF32, ties away
      auto exponent = V::sub(V::shr(word, 10) & c(0xFF), c(112));
      auto s16 = V::shr(sign, 16);
      auto out = V::select(V::gt(exponent, c(31)), s16 | c(0x7FFF),
                           s16 | V::shl(exponent, 10) | (word & c(0x3FF)));
      out = V::select(V::gt(V::zero(), exponent), s16, out);
      return V::keep(V::notLanes(below(word & c(0x3FFFF), 0x400)), out);
    }
  } else if constexpr (C == T::fp32TruncFp16) {
    auto s16 = V::shr(v, 16) & c(0x8000);
    auto exponent = V::sub(V::shr(v, 23) & c(0xFF), c(112));
    auto out = V::select(V::gt(exponent, c(31)), s16 | c(0x7FFF),
                         s16 | V::shl(exponent, 10) |
                             (V::shr(v, 13) & c(0x3FF)));
    return V::select(V::gt(V::zero(), exponent), s16, out);
  } else if constexpr (C == T::keepBf16 || C == T::widenBf16) {
    auto magnitude = v & c(0x7FFF);
    v = V::select(V::gt(magnitude, c(0x7F80)), (v & c(0x8000)) | c(0x7F80), v);
    v = V::keep(V::notLanes(below(magnitude, 0x80)), v);
    return C == T::widenBf16 ? V::shl(v, 16) : v;
  } else {
    auto magnitude = v & c(0x7FFF);
    auto flushed = below(magnitude, 0x400);
    if constexpr (C == T::widenFp16)
      v = V::shl(v & c(0x8000), 16) |
          V::shl(V::add(magnitude, c(112u << 10)), 13);
    else if constexpr (C == T::fp16TruncBf16)
      v = (v & c(0x8000)) | V::shl(V::add(V::shr(magnitude, 10), c(112)), 7) |
          (V::shr(v, 3) & c(0x7F));
    return V::keep(V::notLanes(flushed), v);
  }
}

/// float32 Pack_L1_Acc on lanes: denormals as zeros, the float32 sum (the
/// default MXCSR, X::Guard), one NaN.
template <class V> typename V::I tensixL1AccumulateF32(typename V::I l1,
                                                       typename V::I v) {
  auto c = [](uint32_t k) { return V::splat(k); };
  auto daz = [&](typename V::I x) {
    return V::select(V::gt(c(0x800000), x & c(0x7FFFFFFF)),
                     x & c(0x80000000u), x);
  };
  auto sum = daz(V::addF(daz(l1), daz(v)));
  return V::select(V::gt(sum & c(0x7FFFFFFF), c(0x7F800000)), c(0x7FC00000),
                   sum);
}

/// bfloat16 Pack_L1_Acc on lanes: `v` a packer output (no NaN, no
/// denormal: every bfloat16 path makes them Inf and +0), `l1` anything but
/// a NaN (those lanes are the caller's: `exact`). Denormals as zeros,
/// +Inf + -Inf the canonical NaN, and the float32 sum rounded to nearest
/// even at 7 fraction bits: ttsim sums in double, and §7 "L1 accumulation"
/// shows the float32 sum rounds to the same bfloat16.
template <class V>
typename V::I tensixL1AccumulateBf16(typename V::I l1, typename V::I v,
                                     typename V::M &exact) {
  auto c = [](uint32_t k) { return V::splat(k); };
  auto magnitude = l1 & c(0x7FFF);
  exact = V::gt(magnitude, c(0x7F80));
  auto wide = V::shl(l1, 16);
  wide = V::select(V::gt(c(0x80), magnitude), wide & c(0x80000000u), wide);
  auto sum = V::addF(wide, V::shl(v, 16));
  auto exponent = V::shr(sum, 23) & c(0xFF);
  auto sign = V::shr(sum, 16) & c(0x8000);
  auto rounded =
      V::shr(V::add(sum, V::add(c(0x7FFF), V::shr(sum, 16) & c(1))), 16);
  auto out = V::select(V::eq(exponent, V::zero()), sign, rounded);
  out = V::select(V::eq(exponent, c(0xFF)), sign | c(0x7F80), out);
  // Without NaN operands a NaN sum is +Inf + -Inf.
  return V::select(V::isNaN(sum), c(0x7FC0), out);
}

/// float16 Pack_L1_Acc on lanes (§7): no Inf or NaN codes, the float32
/// sum, saturation, and the exact cancellation near the top.
template <class V>
typename V::I tensixL1AccumulateFp16(typename V::I l1, typename V::I v) {
  auto c = [](uint32_t k) { return V::splat(k); };
  auto widen = [&](typename V::I h) {
    auto magnitude = h & c(0x7FFF);
    auto sign = V::shl(h & c(0x8000), 16);
    return V::select(V::gt(c(0x400), magnitude), sign,
                     sign | V::add(V::shl(magnitude, 13), c(112u << 23)));
  };
  auto sum = V::addF(widen(l1), widen(v));
  auto sign = V::shr(sum, 16) & c(0x8000);
  // Nearest even at 10 fraction bits on the magnitude, rebiased: a carry
  // reaches the exponent, and above 0x7FFF saturates.
  auto magnitude = sum & c(0x7FFFFFFF);
  auto rounded = V::sub(
      V::shr(V::add(magnitude, V::add(c(0xFFF), V::shr(magnitude, 13) & c(1))),
             13),
      c(112u << 10));
  auto out = V::minUnsigned(rounded, c(0x7FFF));
  // An exponent below float16's saturates, exactly at its bottom is zero.
  out = V::select(V::gt(c(113u << 23), magnitude),
                  V::keep(V::gt(c(112u << 23), magnitude), c(0x7FFF)), out);
  // Exact cancellation near the top saturates.
  auto top = V::gt(V::shr(l1, 10) & c(31), c(29));
  out = V::select(V::eq(magnitude, V::zero()), V::keep(top, c(0x7FFF)), out);
  return sign | out;
}

/// The lanes `exact` of a bfloat16 L1 accumulation of packer outputs `v`
/// into `l1`, by the scalar rule (a NaN in L1 reads as a huge normal).
template <class V, TensixPackConversion C>
__attribute__((noinline, cold)) typename V::I
tensixL1Bf16Exact(typename V::I l1, typename V::I v, uint32_t exact) {
  constexpr unsigned kLanes = sizeof(typename V::I) / 4;
  uint32_t l1Lanes[kLanes], vLanes[kLanes];
  std::memcpy(l1Lanes, &l1, sizeof l1Lanes);
  std::memcpy(vLanes, &v, sizeof vLanes);
  for (; exact; exact &= exact - 1) {
    unsigned j = unsigned(__builtin_ctz(exact));
    vLanes[j] = tensixL1Accumulate(int(Dtype::bfloat16), l1Lanes[j], vLanes[j]);
  }
  std::memcpy(&v, vLanes, sizeof vLanes);
  return v;
}

template <class X, TensixPackConversion C>
__attribute__((noinline)) void tensixPackLoop(bool l1Accumulate,
                                              const char *in, char *out,
                                              size_t count) {
  using V = typename X::template Lanes<32>;
  constexpr unsigned inBytes = tensixPackInBytes(C);
  constexpr unsigned outBytes = tensixPackOutBytes(C);
  using T = TensixPackConversion;
  constexpr bool toBf16 =
      C == T::fp32RoundBf16 || C == T::keepBf16 || C == T::fp16TruncBf16;
  size_t covered = vectorSteps<X, X::kVectorBytes / 4>(count, [&](size_t i,
                                                                  auto part) {
    auto v = tensixPackLanes<V, C>(
        X::template loadWidened<inBytes>(part, in + inBytes * i));
    uint32_t exact = 0;
    if (l1Accumulate) {
      auto l1 = X::template loadWidened<outBytes>(part, out + outBytes * i);
      if constexpr (outBytes == 4) {
        v = tensixL1AccumulateF32<V>(l1, v);
      } else if constexpr (toBf16) {
        typename V::M nan;
        auto sum = tensixL1AccumulateBf16<V>(l1, v, nan);
        exact = V::bits(V::both(nan, X::valid(part)));
        if (__builtin_expect(exact != 0, 0)) // a NaN in L1: the scalar rule
          v = tensixL1Bf16Exact<V, C>(l1, v, exact);
        v = V::select(nan, v, sum);
      } else {
        v = tensixL1AccumulateFp16<V>(l1, v);
      }
    }
    X::template storeNarrowed<outBytes>(out + outBytes * i, part, v);
  });
  if (covered < count)
    portableKernels().tensixPack(C, l1Accumulate, in + inBytes * covered,
                         out + outBytes * covered, count - covered);
}

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_TENSIXELTWISE_H
