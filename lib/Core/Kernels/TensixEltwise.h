//===- TensixEltwise.h - the Tensix FPU's mul and the packer ----*- C++ -*-===//
//
// Private to lib/Core. The loops of the Tensix kernels (docs/Semantics.md
// section 7) over a path's vocabulary `X`, included inside its target
// region: mul_tiles from a zeroed Dest with BF16 Src through the product
// table (Tensix.cpp), from a zeroed 16-bit Dest by its closed form, and
// otherwise by the steps; and the packer's value steps. The portable
// path's loops are Tensix.cpp's; these equal them lane for lane.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_TENSIXELTWISE_H
#define BIRSIM_LIB_CORE_KERNELS_TENSIXELTWISE_H

#include "Elementwise.h"
#include "Kernels.h"
#include "VectorBuiltins.h"

namespace birsim::core::kernel {

/// The table's words at `index`, by scalar loads: on AMD's cores a scalar
/// load per lane is faster than VPGATHERDD (measured, docs/Benchmarks.md).
template <class V, bool Wide>
typename V::I lookUp(const uint32_t *words, typename V::I index) {
  constexpr unsigned kLanes = sizeof(typename V::I) / 4;
  alignas(64) uint32_t at[kLanes], got[kLanes];
  std::memcpy(at, &index, sizeof at);
  auto *halves = reinterpret_cast<const uint16_t *>(words);
  BIRSIM_LOOP_HINT(vectorize(disable) unroll(full))
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
BIRSIM_KERNEL_LOOP void tensixMulTableLoop(const TensixMulTable &table,
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

//===-- The direct computation of mul (§7 "Products", "Adding into Dest") -===//

/// A float32 lane's Src word in `src`'s class (§7 "Operands").
template <class V> typename V::I tensixSrcLanes(TensixSrc src, typename V::I f) {
  auto c = [](uint32_t k) { return V::splat(k); };
  auto sign = f & c(0x80000000u);
  if (src == TensixSrc::tf32)
    return V::shr(f, 13);
  if (src == TensixSrc::bf16)
    return V::shr(V::select(V::eq(f & c(0x7F800000), V::zero()), sign,
                            f & c(0xFFFF0000u)),
                  13);
  auto exponent = V::sub(V::shr(f, 23) & c(0xFF), c(112));
  auto word = V::select(V::gt(exponent, c(31)), sign | c(31u << 23 | 0x7FE000),
                        sign | V::shl(exponent, 23) | (f & c(0x7FE000)));
  return V::shr(V::select(V::gt(V::zero(), exponent), sign, word), 13);
}

/// Dest's storage lanes as the FPU's 32-bit words, and back.
template <class V>
typename V::I tensixDestReadLanes(TensixDest dest, typename V::I bits) {
  auto c = [](uint32_t k) { return V::splat(k); };
  if (dest == TensixDest::fp32)
    return bits;
  if (dest == TensixDest::bf16)
    return V::shl(bits, 16);
  return V::shl(bits & c(0x8000), 16) | V::shl(bits & c(0x7FFF), 13);
}
template <class V>
typename V::I tensixDestWriteLanes(TensixDest dest, typename V::I word) {
  auto c = [](uint32_t k) { return V::splat(k); };
  if (dest == TensixDest::fp32)
    return word;
  if (dest == TensixDest::bf16)
    return V::shr(word, 16);
  return (V::shr(word, 16) & c(0x8000)) | V::shr(word & c(0x0FFFE000), 13);
}

/// N terms (sign 0/1, exponent, magnitude) added into Dest's word (§7
/// "Adding into Dest", the scalar addIntoDest of Tensix.cpp).
template <class V, unsigned N>
typename V::I tensixAddTermsLanes(TensixArch arch, const TensixDestInfo &dest,
                                  const typename V::I (&tNeg)[N],
                                  const typename V::I (&tExp)[N],
                                  const typename V::I (&tMagIn)[N],
                                  typename V::I word) {
  using I = typename V::I;
  auto c = [](uint32_t k) { return V::splat(k); };
  I one = c(1);
  I dNeg = V::shr(word, 31), dExp = V::shr(word, 23) & c(0xFF);
  I dMag = V::keep(V::notLanes(V::eq(dExp, V::zero())),
                   (word & c(0x7FFFFF)) | c(0x800000));
  I top = V::max(dExp, V::zero());
  for (unsigned t = 0; t < N; ++t)
    top = V::max(top, tExp[t]);
  // Align: half a unit added in two's complement (Dest's sign not).
  auto align = [&](I mag, I neg, I exp) {
    I places = V::sub(top, exp);
    I shifted =
        V::shrv(V::sub(V::add(mag, V::shlv(one, V::sub(places, one))), neg),
                places);
    return V::select(V::gt(places, V::zero()), shifted, mag);
  };
  bool wide = dest.storageBytes == 4;
  dMag = align(dMag, V::zero(), dExp);
  if (!wide)
    dMag = V::add(dMag, c(1u << 12)) & c(~0x1FFFu);
  I sum = V::select(V::eq(dNeg, one), V::sub(V::zero(), dMag), dMag);
  for (unsigned t = 0; t < N; ++t) {
    I tMag = align(tMagIn[t], tNeg[t], tExp[t]);
    if (!wide)
      tMag = V::sub(V::add(tMag, c(1u << 12)), tNeg[t]) & c(~0x1FFFu);
    sum = V::add(sum, V::select(V::eq(tNeg[t], one), V::sub(V::zero(), tMag),
                                tMag));
  }
  auto negative = V::gt(V::zero(), sum);
  I mag = V::select(negative, V::sub(V::zero(), sum), sum);
  // The top bit: float32 is exact below 2^24, and mag >> 7 is below it.
  auto exponentOf = [&](I v) {
    return V::sub(V::shr(V::toFloat(v), 23), c(127));
  };
  auto large = V::gt(mag, c(0xFFFFFF));
  I topBit = V::select(large, V::add(exponentOf(V::shr(mag, 7)), c(7)),
                       exponentOf(mag));
  I shift = V::sub(c(23), topBit);
  if (arch == TensixArch::wormhole) // -1 unit: as if shifted by -4
    shift = V::select(V::both(negative, V::eq(mag, one)), c(uint32_t(-4)),
                      shift);
  I exponent = V::sub(top, shift);
  I dropped = c(24 - dest.keptBits);
  I s2 = V::sub(shift, dropped);
  I right = V::sub(V::zero(), s2);
  I m = V::select(V::gt(V::zero(), s2),
                  V::shrv(V::add(mag, V::shlv(one, V::sub(right, one))), right),
                  V::shlv(mag, s2));
  m = V::shlv(m, dropped);
  exponent = V::add(exponent, V::shr(m, 24) & one);
  m = m & c(0x7FFFFF);
  I sign = V::keep(negative, c(0x80000000u));
  I out = sign | V::shl(exponent, 23) | m;
  if (wide || dest.exponentBits == 8)
    out = V::select(V::gt(exponent, c(254)), sign | c(0x7F800000), out);
  else
    out = V::select(V::gt(exponent, c(31)), sign | c(31u << 23 | 0x3FFu << 13),
                    out);
  auto zero = V::either(V::either(V::gt(c(1), top), V::eq(sum, V::zero())),
                        V::gt(c(1), exponent));
  return V::keep(V::notLanes(zero), out);
}

/// The lanes `exact` of a mul step at element `i`, by the portable path.
template <class X>
[[gnu::noinline, gnu::cold]] void tensixMulDirectLanes(const TensixEltwiseConfig &config, const char *a,
                     const char *b, char *dest, size_t i, uint32_t exact) {
  unsigned bytes = kTensixDestTable[int(config.dest)].storageBytes;
  for (; exact; exact &= exact - 1) {
    size_t j = i + unsigned(__builtin_ctz(exact));
    portableKernels().tensixMulDirect(config, a + 4 * j, b + 4 * j,
                                      dest + bytes * j, 1);
  }
}

//===-- mul from a zeroed 16-bit Dest (§7 "From a zeroed 16-bit Dest") ---===//
//
// Dest's value is an integer `v` of phase-0 units in [1024, 6144): its
// exponent is top + off, off = v >> 11, and its unit at that exponent is
// 2^off (the 13 bits a 16-bit Dest rounds terms to). Every step is a
// constant shift, a compare or a 16-bit product, so the lanes are 16 bits
// wide where the path has them.

/// 2^off - 1 for Dest's value `v`: 0, 1 or 3.
template <class V> typename V::I tensixUnitLess1(typename V::I v) {
  return V::add(V::shr(v, 11), V::shr(v, 12));
}

/// `v` rounded half up to Dest's kept bits (`Kept` 11 for fp16, 8 for
/// bf16): the last kept unit is 2^off << (11 - Kept).
template <class V, unsigned Kept> typename V::I tensixRoundKept(typename V::I v) {
  using I = typename V::I;
  I less1 = tensixUnitLess1<V>(v);
  if constexpr (Kept == 11) { // half the unit is off itself
    return V::add(v, V::shr(v, 11)) & ~less1;
  } else {
    I half = V::add(V::shl(less1, 10 - Kept), V::splat(1u << (10 - Kept)));
    I low = V::shl(less1, 11 - Kept) | V::splat((1u << (11 - Kept)) - 1);
    return V::add(v, half) & ~low;
  }
}

/// mul_tiles' Dest bits from a zeroed 16-bit Dest for the phases (with
/// phase 0), on lanes of V (16 or 32 bits): `top` phase 0's exponent, `neg`
/// the product's sign, `sigA`, `sigB` the 11-bit significands. Past Dest's
/// top exponent the result is the caller's.
template <class V, unsigned Kept>
typename V::I tensixFromZeroLanes(unsigned phases, typename V::I top,
                                  typename V::I neg, typename V::I sigA,
                                  typename V::I sigB) {
  using I = typename V::I;
  auto c = [](uint32_t k) { return V::splat(k); };
  I highA = V::shr(sigA, 6), highB = V::shr(sigB, 4);
  I v = tensixRoundKept<V, Kept>(V::mul(highA, highB));
  for (unsigned phase = 1; phase < 4; ++phase) {
    if (!(phases >> phase & 1))
      continue;
    unsigned weight = 5 * (phase & 1) + 7 * (phase >> 1);
    I sliceA = phase & 1 ? V::shr(sigA, 1) & c(31) : highA;
    I sliceB = phase & 2 ? V::shl(sigB & c(15), 3) : highB;
    // The term aligned to Dest and rounded to its unit u = 2^off, in two's
    // complement: ((P + u 2^(w-1) - neg) >> w) rounded down to u.
    I less1 = tensixUnitLess1<V>(v);
    I term = V::sub(V::add(V::mul(sliceA, sliceB), c(1u << (weight - 1))), neg);
    term = V::shr(V::add(term, V::shl(less1, int(weight) - 1)), int(weight)) &
           ~less1;
    // A term whose exponent top - weight is at or below 0 is zero.
    term = V::keep(V::gt(top, c(weight)), term);
    v = tensixRoundKept<V, Kept>(V::add(v, term));
  }
  // The significand v >> off: v is a multiple of 2^off, so each halving
  // is a subtraction.
  I exponent = V::add(top, V::shr(v, 11));
  I significand = V::shr(v, 11 - Kept);
  significand = V::sub(significand, V::keep(V::gt(v, c(2047)),
                                             V::shr(significand, 1)));
  significand = V::sub(significand, V::keep(V::gt(v, c(4095)),
                                             V::shr(significand, 1)));
  return V::shl(neg, 15) | V::shl(exponent, Kept - 1) |
         (significand & c((1u << (Kept - 1)) - 1));
}

/// Both operands' Src fields for mul (§7 "Operands") on lanes of V (16 or
/// 32 bits), from each float32's top 16 bits `high` and its fraction bits
/// 22-13 `fraction`: FP16 rebiased by -112 (below 0 zero, above 31 the
/// largest word), a zero exponent field zero.
template <class V> struct TensixMulOperands {
  using I = typename V::I;
  I top, neg, sigA, sigB; // phase 0's exponent, the sign, the significands
  typename V::M zero;     // the product is +0

  TensixMulOperands(TensixSrc src, I highA, I fractionA, I highB,
                    I fractionB) {
    auto c = [](uint32_t k) { return V::splat(k); };
    neg = V::shr(highA ^ highB, 15) & c(1);
    I exponent[2];
    typename V::M zeros[2];
    for (int k = 0; k < 2; ++k) {
      I e = V::shr(k ? highB : highA, 7) & c(0xFF);
      I sig = (k ? fractionB : fractionA) | c(0x400);
      if (src == TensixSrc::fp16) {
        sig = sig | V::keep(V::gt(e, c(143)), c(0x3FF));
        e = V::sub(V::min(e, c(143)), c(112));
        zeros[k] = V::gt(c(1), e);
      } else {
        zeros[k] = V::eq(e, V::zero());
      }
      exponent[k] = e;
      (k ? sigB : sigA) = sig;
    }
    top = V::add(V::add(exponent[0], exponent[1]),
                 c(src == TensixSrc::fp16 ? -15 : -127));
    zero = V::either(V::either(zeros[0], zeros[1]), V::gt(c(1), top));
  }
};

/// mul_tiles from a zeroed 16-bit Dest with phase 0 among the phases (§7
/// "From a zeroed 16-bit Dest"): each pair of 32-bit vectors of operands
/// packed into one of 16-bit lanes, the last elements on 32-bit lanes.
template <class X, unsigned Kept>
BIRSIM_KERNEL_LOOP void tensixMulFromZeroLoop(const TensixEltwiseConfig &config,
                                              const char *a, const char *b,
                                              char *dest, size_t count) {
  using V = typename X::template Lanes<32>;
  using V16 = typename X::template Lanes<16>;
  using I = typename V::I;
  constexpr unsigned L = X::kVectorBytes / 4;
  const TensixSrc src = config.src;
  const unsigned phases = config.phases;
  const uint32_t fractionMask = src == TensixSrc::bf16 ? 0x3F8 : 0x3FF;
  // Past Dest's top exponent it saturates, and a later term can sit above
  // it and round it away: elements within 2 of it take the steps.
  const uint32_t nearTop = (Kept == 11 ? 31 : 254) - 2;
  auto fraction = [&](I f) {
    return V::shr(f, 13) & V::splat(fractionMask);
  };
  size_t i = 0;
  for (; i + 2 * L <= count; i += 2 * L) {
    X::prefetch(a + 4 * i, b + 4 * i);
    X::prefetch(a + 4 * (i + L), b + 4 * (i + L));
    auto part = X::template whole<L>();
    I f[4] = {X::template load<4>(part, a + 4 * i),
              X::template load<4>(part, a + 4 * (i + L)),
              X::template load<4>(part, b + 4 * i),
              X::template load<4>(part, b + 4 * (i + L))};
    auto pack = [](I low, I high) { return X::packUnsigned32(low, high); };
    TensixMulOperands<V16> o(
        src, pack(V::shr(f[0], 16), V::shr(f[1], 16)),
        pack(fraction(f[0]), fraction(f[1])),
        pack(V::shr(f[2], 16), V::shr(f[3], 16)),
        pack(fraction(f[2]), fraction(f[3])));
    I bits =
        tensixFromZeroLanes<V16, Kept>(phases, o.top, o.neg, o.sigA, o.sigB);
    X::storePackOrder16(dest + 2 * i, V16::keep(V16::notLanes(o.zero), bits));
    if (__builtin_expect(
            V16::any(V16::butNot(V16::gt(o.top, V16::splat(nearTop)), o.zero)),
            0))
      tensixMulDirectLanes<X>(config, a, b, dest, i, ~0u >> (32 - 2 * L));
  }
  size_t covered = i + vectorSteps<X, L>(count - i, [&](size_t j, auto part) {
    size_t at = i + j;
    X::prefetch(a + 4 * at, b + 4 * at);
    I fa = X::template load<4>(part, a + 4 * at);
    I fb = X::template load<4>(part, b + 4 * at);
    TensixMulOperands<V> o(src, V::shr(fa, 16), fraction(fa), V::shr(fb, 16),
                           fraction(fb));
    I bits = tensixFromZeroLanes<V, Kept>(phases, o.top, o.neg, o.sigA, o.sigB);
    X::template storeNarrowed<2>(dest + 2 * at, part,
                                 V::keep(V::notLanes(o.zero), bits));
    uint32_t exact = V::bits(V::both(
        V::butNot(V::gt(o.top, V::splat(nearTop)), o.zero), X::valid(part)));
    if (__builtin_expect(exact != 0, 0))
      tensixMulDirectLanes<X>(config, a, b, dest, at, exact);
  });
  if (covered < count)
    portableKernels().tensixMulDirect(config, a + 4 * covered, b + 4 * covered,
                                      dest + 2 * covered, count - covered);
}

/// mul_tiles by the specification's steps on lanes: one ELWMUL per phase
/// into Dest (zero, or its values with `accumulate`).
template <class X, bool Wide>
BIRSIM_KERNEL_LOOP void tensixMulDirectLoop(const TensixEltwiseConfig &config,
                                            const char *a, const char *b,
                                            char *dest, size_t count) {
  if constexpr (!Wide) {
    if (!config.accumulate && (config.phases & 1)) {
      if (config.dest == TensixDest::fp16)
        return tensixMulFromZeroLoop<X, 11>(config, a, b, dest, count);
      return tensixMulFromZeroLoop<X, 8>(config, a, b, dest, count);
    }
  }
  using V = typename X::template Lanes<32>;
  using I = typename V::I;
  constexpr unsigned bytes = Wide ? 4 : 2;
  const TensixDestInfo &destInfo = kTensixDestTable[int(config.dest)];
  bool exponent8 = config.src != TensixSrc::fp16;
  auto c = [](uint32_t k) { return V::splat(k); };
  size_t covered = vectorSteps<X, X::kVectorBytes / 4>(count, [&](size_t i,
                                                                  auto part) {
    X::prefetch(a + 4 * i, b + 4 * i);
    I wa = tensixSrcLanes<V>(config.src, X::template load<4>(part, a + 4 * i));
    I wb = tensixSrcLanes<V>(config.src, X::template load<4>(part, b + 4 * i));
    I word = config.accumulate
                 ? tensixDestReadLanes<V>(
                       config.dest, X::template loadWidened<bytes>(
                                        part, dest + bytes * i))
                 : V::zero();
    I neg = V::shr(wa ^ wb, 18) & c(1);
    I exps = V::add(V::shr(wa, 10) & c(0xFF), V::shr(wb, 10) & c(0xFF));
    I sigA = (wa & c(0x3FF)) | c(0x400), sigB = (wb & c(0x3FF)) | c(0x400);
    auto zeroOperand = V::either(V::gt(c(0x400), wa & c(0x3FFFF)),
                                 V::gt(c(0x400), wb & c(0x3FFFF)));
    for (unsigned phase = 0; phase < 4; ++phase) {
      if (!(config.phases >> phase & 1))
        continue;
      int32_t rebias =
          tensixProductRebias(exponent8, destInfo.storageBytes == 4, phase);
      I sliceA = phase & 1 ? V::shr(sigA, 1) & c(31) : V::shr(sigA, 6);
      I sliceB = phase & 2 ? V::shl(sigB & c(15), 3) : V::shr(sigB, 4);
      I product = V::shl(
          V::truncateToInt(V::mulF(V::toFloat(sliceA), V::toFloat(sliceB))), 13);
      I tExp = V::add(exps, c(uint32_t(rebias)));
      auto zero = V::either(zeroOperand, V::gt(c(1), tExp));
      I termNeg[1] = {V::keep(V::notLanes(zero), neg)};
      I termExp[1] = {
          V::select(zero, c(uint32_t(std::max(rebias, 0))), tExp)};
      I termMag[1] = {V::keep(V::notLanes(zero), product)};
      word = tensixAddTermsLanes<V, 1>(config.arch, destInfo, termNeg, termExp,
                                       termMag, word);
    }
    X::template storeNarrowed<bytes>(dest + bytes * i, part,
                                     tensixDestWriteLanes<V>(config.dest, word));
  });
  if (covered < count)
    portableKernels().tensixMulDirect(config, a + 4 * covered, b + 4 * covered,
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

/// The packer's output of `count` Dest values; with L1Accumulate, added
/// into L1's values at `out` (a constant: no per-step branch).
///
/// A bf16 step whose L1 holds a NaN takes the scalar rule, a call: such a
/// step stores nothing in the loop and is redone after its chunk of steps,
/// so that no call sits inside a loop (around one every vector constant is
/// caller-saved, and GCC rematerialises them at each step).
template <class X, TensixPackConversion C, bool L1Accumulate>
BIRSIM_KERNEL_LOOP void tensixPackLoop(const char *in, char *out,
                                       size_t count) {
  using V = typename X::template Lanes<32>;
  constexpr unsigned inBytes = tensixPackInBytes(C);
  constexpr unsigned outBytes = tensixPackOutBytes(C);
  using T = TensixPackConversion;
  constexpr bool toBf16 =
      C == T::fp32RoundBf16 || C == T::keepBf16 || C == T::fp16TruncBf16;
  // One step's values `v` (32-bit lanes) accumulated into L1's `l1`; with
  // `exact` false, `redo` is set instead of taking the scalar rule.
  auto accumulate = [&](auto exact, auto v, auto l1, auto part, bool &redo)
      __attribute__((always_inline)) {
    if constexpr (outBytes == 4) {
      return tensixL1AccumulateF32<V>(l1, v);
    } else if constexpr (toBf16) {
      typename V::M nan;
      auto sum = tensixL1AccumulateBf16<V>(l1, v, nan);
      uint32_t lanes = V::bits(V::both(nan, X::valid(part)));
      if constexpr (decltype(exact)::value) {
        if (lanes != 0) // a NaN in L1: the scalar rule
          v = tensixL1Bf16Exact<V, C>(l1, v, lanes);
      } else {
        redo |= lanes != 0;
      }
      return V::select(nan, v, sum);
    } else {
      return tensixL1AccumulateFp16<V>(l1, v);
    }
  };
  constexpr size_t kChunkSteps = 64;
  // A step to redo: where, and which of its elements (a masked tail's part
  // is a whole step's type on a masked-tail path, so only the recorded part
  // keeps the redo inside the output).
  struct Redo {
    size_t at;
    typename X::Part part;
  } redo[kChunkSteps];
  // Runs step(exact, at, part) over [first, first + n) by `Lanes`, a chunk
  // at a time, redoing the steps that asked; returns the values covered.
  auto chunked = [&](auto lanes, size_t first, size_t n, auto step)
      __attribute__((always_inline)) {
    constexpr size_t kLanes = decltype(lanes)::value;
    size_t done = 0;
    while (done < n) {
      size_t chunk = std::min(n - done, kChunkSteps * kLanes);
      unsigned pending = 0;
      size_t base = first + done;
      size_t covered = vectorSteps<X, kLanes>(chunk, [&](size_t j, auto part) {
        if (!step(std::false_type{}, base + j, part))
          redo[pending++] = {base + j, part};
      });
      for (unsigned r = 0; r < pending; ++r)
        step(std::true_type{}, redo[r].at, redo[r].part);
      done += covered;
      if (covered < chunk)
        break;
    }
    return done;
  };
  size_t paired = 0;
  if constexpr (inBytes == 2 && outBytes == 2) {
    // 16-bit to 16-bit: one vector of each, widened by interleaving with
    // zeros and narrowed back by the pack that undoes it; whole steps only.
    constexpr size_t kStep = X::kVectorBytes / 2;
    const auto zero = V::zero();
    size_t whole = count - count % kStep;
    paired = chunked(
        std::integral_constant<size_t, kStep>{}, 0,
        whole, [&](auto exact, size_t at, auto) __attribute__((always_inline)) {
          auto part = X::template whole<kStep / 2>();
          auto values =
              X::template load<2>(X::template whole<kStep>(), in + 2 * at);
          auto low = tensixPackLanes<V, C>(X::unpackLow16(values, zero));
          auto high = tensixPackLanes<V, C>(X::unpackHigh16(values, zero));
          bool again = false;
          if constexpr (L1Accumulate) {
            auto l1 =
                X::template load<2>(X::template whole<kStep>(), out + 2 * at);
            low = accumulate(exact, low, X::unpackLow16(l1, zero), part, again);
            high =
                accumulate(exact, high, X::unpackHigh16(l1, zero), part, again);
          }
          if (again)
            return false;
          X::template store<2>(out + 2 * at, X::template whole<kStep>(),
                               X::packUnsigned32(low, high));
          return true;
        });
  }
  size_t covered =
      paired +
      chunked(
          std::integral_constant<size_t, X::kVectorBytes / 4>{}, paired,
          count - paired,
          [&](auto exact, size_t i, auto part) __attribute__((always_inline)) {
            auto v = tensixPackLanes<V, C>(
                X::template loadWidened<inBytes>(part, in + inBytes * i));
            bool again = false;
            if constexpr (L1Accumulate) {
              auto l1 =
                  X::template loadWidened<outBytes>(part, out + outBytes * i);
              v = accumulate(exact, v, l1, part, again);
            }
            if (again)
              return false;
            X::template storeNarrowed<outBytes>(out + outBytes * i, part, v);
            return true;
          });
  if (covered < count)
    portableKernels().tensixPack(C, L1Accumulate, in + inBytes * covered,
                                 out + outBytes * covered, count - covered);
}

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_TENSIXELTWISE_H
