//===- LaneArithmetic.h - lane arithmetic of every vector path --*- C++ -*-===//
//
// Private to lib/Core. The per-lane arithmetic that Avx2.cpp (8 lanes)
// and Avx512.cpp (16 lanes) share, written once over a lane vocabulary
// `V` that each of them defines (Avx2Lanes<Bits>, Avx512Lanes<Bits>): V::I,
// a vector of lanes of `Bits` bits (32 unless a function says otherwise);
// V::M, a lane mask; and one function per instruction. Included inside
// each file's target region, so every instantiation is compiled for that
// file's ISA; the vocabularies are file-local, so are the instantiations.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_LANEARITHMETIC_H
#define BIRSIM_LIB_CORE_KERNELS_LANEARITHMETIC_H

#ifndef BIRSIM_LIB_CORE_KERNELS_PATHPRELUDE_H // its functions stay baseline
#error "include PathPrelude.h before the target region"
#endif

#include "VectorBuiltins.h"

#include <cstdint>
#include <type_traits>

namespace birsim::core::kernel {

/// The lane operations that need no ISA's intrinsics, on a vector `I` seen
/// as lanes of `Bits` bits: clang's vector extensions, which LLVM compiles to
/// the instructions the intrinsics name (GCC's too, through VectorOf).
/// Shift counts are below `Bits`. Each ISA's vocabulary adds its masks,
/// selects and special instructions.
template <class I, unsigned Bits> struct GenericLaneOps {
  static_assert(Bits == 8 || Bits == 16 || Bits == 32);
  using Lane =
      std::conditional_t<Bits == 8, uint8_t,
                         std::conditional_t<Bits == 16, uint16_t, uint32_t>>;
  using U = typename VectorOf<Lane, sizeof(I)>::type;
  using S = typename VectorOf<std::make_signed_t<Lane>, sizeof(I)>::type;
  using F = typename VectorOf<float, sizeof(I)>::type;

  static I splat(uint32_t v) { return I(U{} + Lane(v)); } // v in every lane
  static I zero() { return I{}; }
  static I add(I a, I b) { return I(U(a) + U(b)); }
  static I sub(I a, I b) { return I(U(a) - U(b)); }
  /// The low `Bits` bits of the product.
  static I mul(I a, I b) { return I(U(a) * U(b)); }
  static I min(I a, I b) { return I(BIRSIM_VECTOR_MIN(S(a), S(b))); }
  static I max(I a, I b) { return I(BIRSIM_VECTOR_MAX(S(a), S(b))); }
  static I minUnsigned(I a, I b) { return I(BIRSIM_VECTOR_MIN(U(a), U(b))); }
  static I shr(I v, int n) { return I(U(v) >> n); }
  static I sra(I v, int n) { return I(S(v) >> n); }
  static I shl(I v, int n) { return I(U(v) << n); }
  /// fp32 lanes, as bits.
  static I splatF(float v) { return splat(__builtin_bit_cast(uint32_t, v)); }
  static I toFloat(I v) { return I(__builtin_convertvector(S(v), F)); }
  /// fp32 lanes truncated to signed integers (in range).
  static I truncateToInt(I v) { return I(__builtin_convertvector(F(v), S)); }
  /// fp32 lanes rounded toward zero to integers (as fp32).
  static I truncF(I v) { return I(BIRSIM_VECTOR_TRUNC(F(v))); }
  static I addF(I a, I b) { return I(F(a) + F(b)); }
  static I subF(I a, I b) { return I(F(a) - F(b)); }
  static I mulF(I a, I b) { return I(F(a) * F(b)); }
  /// a * b + c with one rounding.
  static I fmaF(I a, I b, I c) {
    return I(BIRSIM_VECTOR_FMA(F(a), F(b), F(c)));
  }
  /// Lane masks, whether vectors of all-ones or zero lanes or mask registers.
  template <class M> static M both(M a, M b) { return M(a & b); }
  template <class M> static M either(M a, M b) { return M(a | b); }
  template <class M> static M butNot(M a, M b) { return M(a & ~b); }
  template <class M> static M notLanes(M a) { return M(~a); }
};

//===-- fp32 (§2): the operand order is explicit in each lane -------------===//

/// The operation `Op` with its operand order, on lanes or scalars of T.
template <F32Op Op, typename T, T (*Add)(T, T), T (*Min)(T, T), T (*Max)(T, T)>
T applyOp(T acc, T x) {
  T a = accumulatorFirst(Op) ? acc : x, b = accumulatorFirst(Op) ? x : acc;
  constexpr F32Instruction instruction = instructionOf(Op);
  return instruction == F32Instruction::addss   ? Add(a, b)
         : instruction == F32Instruction::minss ? Min(a, b)
                                                : Max(a, b);
}

/// ADDSS(a, b): a NaN `a` wins, quieted, whatever order the adder used (the
/// compiler and the assembler may swap commutative sources); a NaN `b` alone
/// comes back quieted either way; Inf - Inf is the default NaN.
template <class V> typename V::I addssLanes(typename V::I a, typename V::I b) {
  return V::select(V::isNaN(a), a | V::splat(kF32QuietBit), V::addF(a, b));
}
/// MINSS(a, b) = a < b ? a : b, else b (NaNs, equal zeros): VMINPS has
/// exactly these lanes, and LLVM does not commute it.
template <class V> typename V::I minssLanes(typename V::I a, typename V::I b) {
  return V::minF(a, b);
}
/// MAXSS(a, b) = a > b ? a : b, else b.
template <class V> typename V::I maxssLanes(typename V::I a, typename V::I b) {
  return V::maxF(a, b);
}
template <F32Op Op, class V>
typename V::I applyLanes(typename V::I acc, typename V::I x) {
  return applyOp<Op, typename V::I, addssLanes<V>, minssLanes<V>,
                 maxssLanes<V>>(acc, x);
}

//===-- Narrow float formats (§4) -----------------------------------------===//

/// bf16 bits (in the upper half of each lane) of fp32 lanes: RNE adds 0x7FFF
/// plus the kept lsb (a carry runs up to Inf); every NaN is 0x7FC0 (§4).
template <class V> typename V::I bf16Round(typename V::I v) {
  using I = typename V::I;
  auto isNaN = V::gt(v & V::splat(0x7FFFFFFF), V::splat(0x7F800000));
  I lsb = V::shr(v, 16) & V::splat(1);
  I rounded = V::shr(V::add(V::add(v, V::splat(0x7FFF)), lsb), 16);
  return V::select(isNaN, V::splat(0x7FC0), rounded);
}

/// min/max of a narrow IEEE format on its codes, in lanes of the format's
/// width: widening is exact and the result is one operand, so MINSS(x, acc)
/// / MAXSS(x, acc) narrowed back is `x` when neither is NaN and x orders
/// before/after acc (sign-magnitude compared as integers, -0 == +0), else
/// `acc` itself, or the format's NaN when `acc` is NaN (§3, §4).
template <class V, bool IsMin> struct MinMaxCodeLanes {
  using I = typename V::I;
  explicit MinMaxCodeLanes(const FloatFormat &f)
      : magnitudeMask(V::splat(f.signMask() - 1)), inf(V::splat(f.infCode())),
        nanResult(V::splat(f.nanResult)), nanKeepsSign(f.nanKeepsSign) {}

  I operator()(I acc, I x) const {
    I accMagnitude = acc & magnitudeMask, xMagnitude = x & magnitudeMask;
    auto accNaN = V::gt(accMagnitude, inf), xNaN = V::gt(xMagnitude, inf);
    I accKey = key(acc, accMagnitude), xKey = key(x, xMagnitude);
    auto takeX = V::butNot(IsMin ? V::gt(accKey, xKey) : V::gt(xKey, accKey),
                           V::either(accNaN, xNaN));
    I nan = nanKeepsSign ? nanResult | (acc & ~magnitudeMask) : nanResult;
    return V::select(accNaN, nan, V::select(takeX, x, acc));
  }

  /// Negative codes' magnitudes negated: an integer key in value order.
  static I key(I code, I magnitude) {
    return V::select(V::gt(V::zero(), code), V::sub(V::zero(), magnitude),
                     magnitude);
  }

  I magnitudeMask, inf, nanResult;
  bool nanKeepsSign;
};

/// fp16 add's result from `acc` and the sum rounded to fp16 `h` (16-bit
/// lanes): a NaN sum narrows to 0x7E00 with the sign of the NaN ADDSS
/// returns, `acc`'s when it is NaN, else the sum's (§4).
template <class V>
typename V::I f16AddResult(typename V::I acc, typename V::I h) {
  using I = typename V::I;
  I magnitude = V::splat(0x7FFF), inf = V::splat(0x7C00);
  auto accNaN = V::gt(acc & magnitude, inf), isNaN = V::gt(h & magnitude, inf);
  I nan = (V::select(accNaN, acc, h) & ~magnitude) | V::splat(0x7E00);
  return V::select(isNaN, nan, h);
}

/// E5M2's codes are fp16's top byte.
constexpr bool fp8IsHalfTopByte(const FloatFormat &f) {
  return f.exponentBits == 5 && f.mantissaBits == 2;
}

/// The fp8 add's way in (Elementwise.h's fp8AddSteps has the argument): 16-bit
/// lanes holding fp8 codes in their high byte become the fp16 codes of the
/// values times 2^(bias - 15), the fields shifted down by m - 2 bits and an
/// Inf or NaN code given fp16's all-ones exponent. TopByte: E5M2, whose
/// codes are fp16's top byte already. Only for fp8AddFitsHalf formats.
template <class V, bool TopByte> struct Fp8ToHalfLanes {
  using I = typename V::I;
  explicit Fp8ToHalfLanes(const FloatFormat &f)
      : toHalf(int(f.mantissaBits) - 2),
        halfMask(V::splat(0x8000 | (0x7F00 >> toHalf))),
        belowInf(V::splat((f.infCode() - 1) << 8)) {}

  I operator()(I high) const {
    if constexpr (TopByte)
      return high;
    I half = V::sra(high, toHalf) & halfMask;
    auto special = V::gt(high & V::splat(0x7F00), belowInf);
    return V::select(special, half | V::splat(0x7C00), half);
  }

  int toHalf;
  I halfMask, belowInf;
};

/// fp8 add's codes from fp16 sums truncated (16-bit lanes; fp8AddSteps in
/// Elementwise.h): round to nearest even onto the format's m mantissa bits on
/// the fp16 bits, the carry running up to Inf; every NaN the format's one
/// NaN code (§4).
template <class V> struct HalfSumToFp8Lanes {
  using I = typename V::I;
  explicit HalfSumToFp8Lanes(const FloatFormat &f)
      : dropShift(int(10 - f.mantissaBits)),
        roundBias(V::splat((1u << (9 - f.mantissaBits)) - 1)),
        infCode(V::splat(f.infCode())), nanCode(V::splat(f.nanResult)) {}

  I operator()(I h) const {
    I magnitude = h & V::splat(0x7FFF);
    auto isNaN = V::gt(magnitude, V::splat(0x7C00));
    I odd = V::shr(magnitude, dropShift) & V::splat(1);
    I code = V::shr(V::add(V::add(magnitude, roundBias), odd), dropShift);
    code = V::minUnsigned(code, infCode) | V::shr(h & V::splat(0x8000), 8);
    return V::select(isNaN, nanCode, code);
  }

  int dropShift;
  I roundBias, infCode, nanCode;
};

/// Widening a format's codes to fp32 (WidenConstants).
template <class V> struct WidenLanes {
  using I = typename V::I;
  explicit WidenLanes(const FloatFormat &f) : c(f) {}

  I operator()(I code) const {
    I exponentMask = V::splat(c.exponentMask);
    I sign = V::shl(V::shr(code, c.signShift), 31);
    I exponent = V::shr(code, c.mantissaShift) & exponentMask;
    I mantissa = code & V::splat(c.mantissaMask);
    I shifted = V::shl(mantissa, c.toF32Mantissa);
    I normal = V::shl(V::add(exponent, V::splat(c.rebias)), 23) | shifted;
    auto isSubnormal = V::eq(exponent, V::zero());
    // Only subnormal lanes multiply (no denormal results elsewhere, which
    // cost microcode assists); a bias-127 format's subnormals are fp32's.
    I subnormal = c.sameExponentsAsF32
                      ? shifted
                      : V::mulF(V::toFloat(V::keep(isSubnormal, mantissa)),
                                V::splatF(c.subnormalScale));
    I value = V::select(isSubnormal, subnormal, normal);
    auto nonFinite = V::eq(exponent, exponentMask);
    if (!c.ieee)
      nonFinite = V::both(nonFinite, V::eq(mantissa, V::splat(c.mantissaMask)));
    value = V::select(nonFinite, V::splat(0x7F800000u) | shifted, value);
    return value | sign;
  }

  WidenConstants c;
};

/// Narrowing fp32 lanes to a format's codes (NarrowConstants).
template <class V> struct NarrowLanes {
  using I = typename V::I;
  using M = typename V::M;
  NarrowLanes(const FloatFormat &f, unsigned config) : c(f, config) {}

  I operator()(I x) const {
    ClassCounts<NarrowClass> none;
    return apply<false>(x, V::allLanes(), none);
  }

  /// The codes of lanes `x`; with Count, the lanes of `valid` tallied by
  /// NarrowClass into `tally`'s cells with V::count.
  template <bool Count, class Tally> I apply(I x, M valid, Tally &tally) const {
    I rebias = V::splat(c.rebias), magicBits = V::splat(c.magicBits);
    I magnitude = x & V::splat(0x7FFFFFFFu);
    I sign = V::shr(x & V::splat(kF32SignMask), c.signToFormat);
    M isNaN = V::gt(magnitude, V::splat(0x7F800000u));
    I rebiased = V::add(magnitude, rebias);
    I odd = V::shr(rebiased, c.dropShift) & V::splat(1);
    I normal = V::shr(V::add(V::add(rebiased, V::splat(c.roundBias)), odd),
                      c.dropShift);
    I subnormalSum = V::addF(magnitude, magicBits);
    I subnormal = V::sub(subnormalSum, magicBits);
    M isSubnormal = V::gt(V::splat(c.minNormal), magnitude);
    I code = V::select(isSubnormal, subnormal, normal);
    M overflow = V::gt(code, V::splat(c.maxFinite));
    if constexpr (Count) {
      // The lane's value as rounded, in fp32 magnitude bits (exact when it
      // equals `magnitude`): a normal lane's without the dropped bits (its
      // exactness is theirs), a subnormal lane's the rounding sum less
      // magicBits (exact by Sterbenz: the sum lies in [magic, 2 magic]).
      I back = V::select(isSubnormal, V::subF(subnormalSum, magicBits),
                         magnitude & V::splat(~0u << c.dropShift));
      auto count = [&](auto &field, M lanes) {
        V::count(field, V::both(lanes, valid));
      };
      count(tally[NarrowClass::beyondMax], overflow);
      count(tally[NarrowClass::nan], isNaN);
      count(tally[NarrowClass::inf], V::eq(magnitude, V::splat(0x7F800000u)));
      count(tally[NarrowClass::zeroed],
            V::butNot(V::eq(code, V::zero()), V::eq(magnitude, V::zero())));
      count(tally[NarrowClass::exact],
            V::butNot(V::eq(back, magnitude), overflow));
    }
    I value = V::select(
        overflow, V::splat(c.overflowBase) | (sign & V::splat(c.overflowSign)),
        code | sign);
    return V::select(isNaN, V::splat(c.nanBase) | (sign & V::splat(c.nanSign)),
                     value);
  }

  NarrowConstants c;
};

//===-- BFP tiles (§5) ----------------------------------------------------===//

/// `fn(v)`, or `v` where fn is nullptr.
template <class Fn, class T> T applyIfGiven(Fn fn, T v) {
  if constexpr (std::is_same_v<Fn, std::nullptr_t>)
    return v;
  else
    return fn(v);
}

/// Step 2's 5-bit exponents of exponent fields `e`: rebased and clamped.
template <class V> typename V::I bfpFp16Exponents(typename V::I e) {
  return V::min(V::max(V::sub(e, V::splat(kBfpFp16Rebias)), V::zero()),
                V::splat(kBfpMaxE5));
}
/// The 16-bit BFP packs' (bfpPackHalves) shared exponents of 32-bit lanes
/// whose low half is a block's largest key (a value's top half shifted
/// left by one): the byte to write, and its fp32 field at `field`.
template <class V, bool Fp16Exponent>
typename V::I bfpSharedOfHalfKeys(typename V::I key, typename V::I &field) {
  typename V::I shared = V::shr(V::shl(key, 16), 24);
  field = shared;
  if constexpr (Fp16Exponent) {
    shared = bfpFp16Exponents<V>(shared);
    field = V::add(shared, V::splat(kBfpFp16Rebias));
  }
  return shared;
}
/// The exponent each value contributes: its field ("b"), or that field
/// rebased to 5 bits and clamped ("a", step 2).
template <class V, bool Fp16Exponent>
typename V::I bfpBlockExponents(typename V::I bits) {
  typename V::I e = V::shr(bits, 23) & V::splat(0xFF);
  if constexpr (Fp16Exponent)
    e = bfpFp16Exponents<V>(e);
  return e;
}

/// The 16-bit value the Tensix packer at device site `Site` hands its block
/// rule (bfpDeviceValue in Bfp.cpp, by the row's NaN, Flush and Rounding)
/// from `v`: a 16-bit Dest's element, or an fp32 Dest's top half, in the
/// low 16 bits of each lane (lanes of 16 or 32 bits). A flush after the
/// last step, or with no rounding after it, is left to bfpDeviceBlockLanes,
/// which reads a value below the smallest normal (exponent 0) as 0.
template <class V, BfpSite Site>
typename V::I bfpDevice16ValueLanes(typename V::I v) {
  using I = typename V::I;
  constexpr const BfpSiteInfo &site = bfpSiteRow(Site);
  static_assert(site.onDevice());
  I magnitude = v & V::splat(0x7FFF);
  if constexpr (site.rounding == BfpSiteRounding::e5m6) {
    // E5M6 (the clamp above 0x7FF7 to 0x7FF0 is the rounding of 0x7FF7),
    // rebiased; below fp16's normals 0. A zero's sign is left: the block
    // rule drops it.
    magnitude = V::minUnsigned(magnitude, V::splat(0x7FF7));
    magnitude = V::add(magnitude, V::splat(8)) & V::splat(0x7FF0);
    I rebiased = V::add(V::shr(magnitude, 3), V::splat(kBfpFp16Rebias << 7));
    return V::keep(V::gt(magnitude, V::splat(0x3FF)), rebiased) |
           (v & V::splat(0x8000));
  } else {
    // Above Inf's code to signed Inf: the exponent field is already all
    // ones, so clearing the mantissa is enough.
    if constexpr (site.nan == BfpSiteNaN::nan_to_inf)
      v = V::select(V::gt(magnitude, V::splat(0x7F80)), v & V::splat(0xFF80),
                    v);
    if constexpr (site.flush == BfpSiteFlush::flush_before_rounding &&
                  site.rounding == BfpSiteRounding::e8m6)
      v = V::keep(V::gt(magnitude, V::splat(0x7F)), v);
    if constexpr (site.rounding == BfpSiteRounding::e8m6)
      v = V::add(v, V::splat(1)) & V::splat(0xFFFE);
    return v;
  }
}

/// The same for every device site from `bits`: an fp32 Dest's bits, or a
/// 16-bit Dest's element in the top half of a 32-bit lane.
template <class V, BfpSite Site>
typename V::I bfpDeviceValueLanes(typename V::I bits) {
  return bfpDevice16ValueLanes<V, Site>(V::shr(bits, 16));
}

/// The exponent of each 16-bit device value (bfpDeviceValueLanes).
template <class V> typename V::I bfpDeviceExponents(typename V::I v) {
  return V::shr(v, 7) & V::splat(0xFF);
}

/// The Tensix packer's block rule (bfpDeviceBlock in Bfp.cpp) on 16-bit
/// device values `v` under the block's largest exponent `shared`: aligned
/// with one rounding half away from zero, (m >> d + 1) >> 1 being
/// (m + 2^d) >> (d + 1) and a shift of 32 or more giving 0; 128 saturating
/// to 127, truncated to M bits, signed when non-zero. Exponent 0 is 0.
template <class V, unsigned M>
typename V::I bfpDeviceBlockLanes(typename V::I v, typename V::I shared) {
  using I = typename V::I;
  auto normal = V::notLanes(V::eq(v & V::splat(0x7F80), V::zero()));
  I m = V::keep(normal, (v | V::splat(0x80)) & V::splat(0xFF));
  I aligned = V::shr(
      V::add(V::shrv(m, V::sub(shared, bfpDeviceExponents<V>(v))), V::splat(1)),
      1);
  I magnitude = V::shr(V::minUnsigned(aligned, V::splat(127)), int(7 - M));
  I sign = V::shr(v, 15 - M) & V::splat(1u << M);
  return V::select(V::eq(magnitude, V::zero()), magnitude, magnitude | sign);
}

/// The unpacker's decode (bfpDeviceDecode in Bfp.cpp) of M-bit-magnitude
/// datums under `shared`: widened to the bfp8 form, the exponent modulo
/// 256, a sign-only datum -Inf.
template <class V, unsigned M>
typename V::I bfpDeviceDecodeLanes(typename V::I datum, typename V::I shared) {
  using I = typename V::I;
  I x = V::shl(datum, int(7 - M));
  I sign = V::shl(V::shr(x, 7), 31);
  I magnitude = V::shl(x, 1) & V::splat(0xFE);
  // The exact float of the magnitude gives its leading one and fraction.
  I asF32 = V::toFloat(magnitude);
  I leadingZeros = V::sub(V::splat(127 + 7), V::shr(asF32, 23));
  I exponent = V::sub(shared, leadingZeros) & V::splat(0xFF);
  I value = sign | V::shl(exponent, 23) | (asF32 & V::splat(0x7FFFFF));
  auto signOnly = V::eq(magnitude, V::zero());
  return V::select(signOnly, V::keep(V::notLanes(V::eq(sign, V::zero())),
                                     V::splat(0xFF800000u)),
                   value);
}

/// Lanes whose two datums under shared exponent 255 both decode to NaN
/// (the leading one at the top and a non-zero fraction): equal values.
template <class V, unsigned M>
auto bfpBothNaNLanes(typename V::I host, typename V::I device,
                     typename V::I shared) {
  using I = typename V::I;
  constexpr uint32_t top = 1u << (M - 1), fraction = top - 1;
  auto nan = [](I datum) {
    return V::both(V::eq(datum & V::splat(top), V::splat(top)),
                   V::notLanes(V::eq(datum & V::splat(fraction), V::zero())));
  };
  return V::both(V::eq(shared, V::splat(255)),
                 V::both(nan(host), nan(device)));
}

/// Step 3's significand of fp32 lanes `bits`: the fraction with its
/// leading one.
template <class V> typename V::I bfpSignificandLanes(typename V::I bits) {
  return (bits & V::splat(0x7FFFFF)) | V::splat(0x800000);
}

/// Steps 1 and 3: lanes' `significand` (with its leading one), of
/// exponent `e`, aligned to shared exponent `shared` by a truncating right
/// shift (32 or more: 0); a zero or denormal lane (`zero`) is 0.
template <class V, class Mask>
typename V::I bfpAlignLanes(typename V::I significand, Mask zero,
                            typename V::I e, typename V::I shared) {
  return V::shrv(V::keep(V::notLanes(zero), significand), V::sub(shared, e));
}

/// The same for fp32 lanes `bits` of exponent field `e` ("b" formats).
template <class V>
typename V::I bfpAlignedLanes(typename V::I bits, typename V::I e,
                              typename V::I shared) {
  return bfpAlignLanes<V>(bfpSignificandLanes<V>(bits), V::eq(e, V::zero()), e,
                          shared);
}

/// Step 4 in fp32 on `aligned`, the exact float of an aligned significand
/// of either sign (|aligned| < 2^24): rounded to nearest even on the datum
/// grid 2^(24 - M), in units of 2^Unit (0 or 24 - M), unclamped. The
/// constant 1.5 * 2^(47 - M - Unit) is added (fused with the scaling by
/// 2^-Unit, whose product is exact, so the step rounds as the sum alone)
/// and subtracted: the sum stays in one binade whose step is the grid, and
/// the constant is an even number of grid steps, so ties go to the even
/// datum.
template <class V, unsigned M, unsigned Unit>
typename V::I bfpRoundedF(typename V::I aligned) {
  static_assert(Unit == 0 || Unit == 24 - M);
  constexpr float magic = 1.5f * float(uint64_t(1) << (47 - M - Unit));
  typename V::I sum;
  if constexpr (Unit == 0)
    sum = V::addF(aligned, V::splatF(magic));
  else
    sum =
        V::fmaF(aligned, V::splatF(1.0f / float(1u << Unit)), V::splatF(magic));
  return V::subF(sum, V::splatF(magic));
}

/// The bits below step 4's datum grid 2^(24 - M).
template <unsigned M> constexpr uint32_t kBfpBelowGrid = (1u << (24 - M)) - 1;

/// Step 4: aligned significands plus half the datum grid. An aligned
/// significand ties (a remainder of half the grid) exactly where this sum
/// has no bit below the grid (kBfpBelowGrid).
template <class V, unsigned M>
typename V::I bfpPlusHalfLanes(typename V::I aligned) {
  return V::add(aligned, V::splat(1u << (23 - M)));
}

/// Step 4 on aligned significands (below 2^24): rounded to nearest even
/// on the datum grid, unclamped, the ties into `tally`. Half up, a tie's
/// last bit then cleared (half up took it from the truncation t to t + 1,
/// so the even one of the two is what remains, and the tie rounded up
/// where t + 1 is even).
template <class V, unsigned M, class Tally>
typename V::I bfpRoundLanes(typename V::I aligned, Tally &tally) {
  using I = typename V::I;
  I plusHalf = bfpPlusHalfLanes<V, M>(aligned);
  auto tie = V::noneSet(plusHalf, V::splat(kBfpBelowGrid<M>));
  I halfUp = V::shr(plusHalf, 24 - M);
  V::count(tally[BfpClass::tie], tie);
  V::countIfOne(tally[BfpClass::tieRoundedUp], tie,
                V::butNot(V::splat(1), halfUp));
  return V::select(tie, halfUp & V::splat(~1u), halfUp);
}

/// Steps 1-5 on fp32 lanes `bits` under shared exponent `shared` (the
/// block's largest, so no lane shifts left): the datums' magnitudes, one
/// per lane. Ties into `tally`, and with CountEvents the other events of
/// docs/Fidelity.md as bfpEncodeWithEvents gives, into `tally`'s BfpClass
/// cells with V::count. Every value compared here is small and
/// non-negative.
template <class V, bool CountEvents, unsigned M, bool Fp16Exponent, class Tally>
typename V::I bfpMagnitudeLanes(typename V::I bits, typename V::I shared,
                                Tally &tally) {
  using I = typename V::I;
  I aligned;
  if constexpr (Fp16Exponent) {
    // Step 2 on the magnitude's bits (ordered as the magnitudes): raised
    // to 2^-15, or lowered to the largest (Inf and NaN above it); the
    // 5-bit exponent and significand of the result. A zero or denormal
    // lane, raised too, is masked.
    I absolute = bits & V::splat(0x7FFFFFFFu);
    auto zero = V::gt(V::splat(0x800000), absolute);
    I clamped =
        V::min(V::max(absolute, V::splat(uint32_t(kBfpFp16Rebias) << 23)),
               V::splat(uint32_t(kBfpFp16Rebias + kBfpMaxE5) << 23 | 0x7FFFFF));
    if constexpr (CountEvents)
      V::count(tally[BfpClass::exponentClamped],
               V::butNot(V::notLanes(V::eq(clamped, absolute)), zero));
    aligned = bfpAlignLanes<V>(
        bfpSignificandLanes<V>(clamped), zero,
        V::sub(V::shr(clamped, 23), V::splat(kBfpFp16Rebias)), shared);
  } else {
    aligned =
        bfpAlignedLanes<V>(bits, V::shr(bits, 23) & V::splat(0xFF), shared);
  }
  I rounded = bfpRoundLanes<V, M>(aligned, tally);
  I largest = V::splat((1u << M) - 1);
  I magnitude = V::min(rounded, largest);
  if constexpr (CountEvents) {
    V::count(tally[BfpClass::saturated], V::gt(rounded, largest));
    // Finite non-zero inputs (denormals included) whose datum is 0.
    I absBits = bits & V::splat(0x7FFFFFFFu);
    auto finiteNonZero = V::butNot(V::gt(V::splat(0x7F800000u), absBits),
                                   V::eq(absBits, V::zero()));
    V::count(tally[BfpClass::flushedToZero],
             V::both(finiteNonZero, V::eq(magnitude, V::zero())));
  }
  return magnitude;
}

/// Datums from fp32 lanes `bits` and their datum magnitudes: the sign bit
/// above the magnitude, dropped when the magnitude is 0.
template <class V, unsigned M>
typename V::I bfpSignedDatumLanes(typename V::I bits, typename V::I magnitude) {
  return V::select(V::eq(magnitude, V::zero()), magnitude,
                   magnitude | (V::shr(bits, 31 - M) & V::splat(1u << M)));
}

/// Steps 1-5 as bfpMagnitudeLanes, the datums whole (bfpSignedDatumLanes).
template <class V, bool CountEvents, unsigned M, bool Fp16Exponent, class Tally>
typename V::I bfpEncodeLanes(typename V::I bits, typename V::I shared,
                             Tally &tally) {
  return bfpSignedDatumLanes<V, M>(
      bits,
      bfpMagnitudeLanes<V, CountEvents, M, Fp16Exponent>(bits, shared, tally));
}

/// Decodes datums (one per lane) under shared exponent `shared` (§5).
template <class V>
typename V::I bfpDecodeLanes(const BfpFormatInfo &f, typename V::I datum,
                             typename V::I shared) {
  using I = typename V::I;
  unsigned m = f.magnitudeBits;
  I sign = V::shl(V::shr(datum, m) & V::splat(1), 31);
  I magnitude = datum & V::splat((1u << m) - 1);
  // The exact float of the magnitude gives its leading one and fraction.
  I asF32 = V::toFloat(magnitude);
  I lead = V::sub(V::shr(asF32, 23), V::splat(127));
  I fraction = asF32 & V::splat(0x7FFFFF);
  I leadingZeros = V::sub(V::splat(m - 1), lead);
  I exponent =
      (f.exponent == BfpExponent::Fp16)
          ? V::add(V::sub(shared & V::splat(0xFF), leadingZeros),
                   V::splat(kBfpFp16Rebias)) // bit 8 onto the sign (D31)
          : V::sub(shared, leadingZeros) & V::splat(0xFF);
  I value = sign | V::shl(exponent, 23) | fraction;
  return V::select(V::eq(magnitude, V::zero()), sign, value);
}

/// The fp32 bits of 2^e, -149 <= e <= 127: normal, or subnormal below
/// 2^-126.
constexpr uint32_t powerOfTwoBits(int e) {
  return e >= -126 ? uint32_t(e + 127) << 23 : 1u << (e + 149);
}

/// The power of two whose product with the exact float of a datum's
/// magnitude (m bits) is its value under shared exponent `shared` of kind
/// `exponent`, by bfpDecodeLanes or (as "b") bfpDeviceDecodeLanes, where
/// every datum's value is normal there: for an "a" exponent where
/// shared + 112 <= 254 (above, the field reaches 255 and carries into the
/// sign: D31), for a "b" one where m <= shared <= 254 (their field
/// arithmetic wraps below and at 255); else 0.
constexpr uint32_t bfpDecodeScaleBits(BfpExponent exponent, unsigned m,
                                      unsigned shared) {
  if (exponent == BfpExponent::Fp16)
    return shared + kBfpFp16Rebias > 254
               ? 0
               : powerOfTwoBits(int(shared) + kBfpFp16Rebias - 127 -
                                (int(m) - 1));
  if (shared < m || shared > 254)
    return 0;
  return powerOfTwoBits(int(shared) - 127 - (int(m) - 1));
}

/// bfpDecodeLanes of datums of M magnitude bits under a shared exponent
/// whose bfpDecodeScaleBits is `scale` (not 0): the product is exact.
template <class V, unsigned M>
typename V::I bfpDecodeScaledLanes(typename V::I datum, typename V::I scale) {
  using I = typename V::I;
  I sign = V::shl(datum, 31 - M) & V::splat(0x80000000u);
  I magnitude = datum & V::splat((1u << M) - 1);
  return V::mulF(V::toFloat(magnitude), scale) | sign;
}
/// bfpDeviceDecodeLanes the same way: a sign-only datum -Inf.
template <class V, unsigned M>
typename V::I bfpDeviceDecodeScaledLanes(typename V::I datum,
                                         typename V::I scale) {
  typename V::I value = bfpDecodeScaledLanes<V, M>(datum, scale);
  return V::select(V::eq(value, V::splat(0x80000000u)), V::splat(0xFF800000u),
                   value);
}

//===-- MX tiles (§5 MX tiles) --------------------------------------------===//

/// An MX format's encoder and decoder in lanes: mxEncode and mxDecode (§5
/// MX tiles), under the default MXCSR (the kernel's guard). The format's
/// constants are compile-time: immediates and constant-pool broadcasts.
template <class V, BfpFormat Format> struct MxLanes {
  using I = typename V::I;
  static constexpr const BfpFormatInfo &f = kBfpFormatTable[int(Format)];
  static constexpr bool integer = f.kind == BfpKind::MxInt,
                        hasInf = f.element.hasInf();
  static constexpr int bits = int(f.elementBits), m = f.element.mantissaBits;
  static constexpr uint32_t
      maxCode = integer ? uint32_t(f.mxIntMax()) : f.element.maxFiniteCode(),
      codeMask = (1u << f.elementBits) - 1,
      magnitudeMask = f.element.magnitudeMask(),
      rebias = uint32_t(127 - f.element.bias) << 23,
      minNormal = powerOfTwoBits(1 - f.element.bias),
      quantumBase =
          powerOfTwoBits(24 - f.element.bias - f.element.mantissaBits),
      roundHalf = (1u << (22 - f.element.mantissaBits)) - 1,
      intScale = powerOfTwoBits(int(f.elementBits) - 2),
      nanCode = f.element.nanResult,
      nanFrom = !f.element.hasNaN() || integer ? 0x7FFFFFFFu
                : f.element.hasInf()           ? f.element.infCode() + 1
                                               : f.element.magnitudeMask(),
      infMagnitude = f.element.hasInf() ? f.element.infCode() : 0x7FFFFFFFu,
      minNormalCode = 1u << f.element.mantissaBits,
      subnormalStep =
          powerOfTwoBits(1 - f.element.bias - f.element.mantissaBits);
  static constexpr float intMax = float(f.mxIntMax());

  /// mxEncode of fp32 lanes under a scale byte whose 2^(127 - scale) is
  /// `divisor` (fp32 bits, every lane); `Finite`: no lane is Inf or NaN.
  /// The scaled magnitude s is one product, exact at and above 2^-126;
  /// below, it rounds to no element but 0, as the flush gives. A float
  /// element of s at or above its smallest normal is s's bits rebiased and
  /// rounded at bit 23 - M (the carry runs into the exponent); below, s +
  /// 2^(24 - bias - M), whose unit in the last place is the element's
  /// subnormal step, rounds it. An integer element is v's 2^(bits - 2) s,
  /// of either sign, clamped to plus or minus the largest, rounded by
  /// adding 1.5 * 2^23 (to nearest even, symmetric: the sum's bits less
  /// the constant's are the two's complement integer). Codes beyond the
  /// largest saturate; Inf and NaN as mxEncode. A float element's sign
  /// bit is left out where !Signed (the caller puts it in).
  template <bool Finite, bool Signed = true> static I encode(I v, I divisor) {
    I magnitude = v & V::splat(0x7FFFFFFF);
    if constexpr (integer) {
      I scaled = V::mulF(V::mulF(v, divisor), V::splat(intScale));
      I clamped = V::minF(V::maxF(scaled, V::splatF(-intMax)),
                          V::splatF(intMax));
      I q = V::sub(V::addF(clamped, V::splatF(0x1.8p23f)),
                   V::splatF(0x1.8p23f)) &
            V::splat(codeMask);
      if constexpr (Finite)
        return q;
      return V::select(V::gt(magnitude, V::splat(0x7F800000)), V::zero(), q);
    } else {
      auto negative = V::gt(V::zero(), v);
      I scaled = V::mulF(magnitude, divisor);
      I normal = V::sub(scaled, V::splat(rebias));
      normal = V::shr(V::add(V::add(normal, V::splat(roundHalf)),
                             V::shr(normal, 23 - m) & V::splat(1)),
                      23 - m);
      I subnormal =
          V::sub(V::addF(scaled, V::splat(quantumBase)), V::splat(quantumBase));
      I code = V::minUnsigned(
          V::select(V::gt(V::splat(minNormal), scaled), subnormal, normal),
          V::splat(maxCode));
      if constexpr (!Finite && hasInf)
        code = V::select(V::eq(magnitude, V::splat(0x7F800000)),
                         V::splat(infMagnitude), code);
      if constexpr (Signed)
        code = code | V::keep(negative, V::splat(1u << (bits - 1)));
      if constexpr (Finite)
        return code;
      return V::select(V::gt(magnitude, V::splat(0x7F800000)),
                       V::splat(nanCode), code);
    }
  }

  /// mxDecode of element codes under a scale byte other than 0xFF, whose
  /// power of two is `multiplier` (fp32 bits, in every lane): a float's
  /// exact value (a normal code's bits rebiased at fp32's mantissa, a
  /// subnormal one's mantissa times its step: no subnormal operand), an
  /// integer's as fp32, then one rounded product.
  static I decode(I codes, I multiplier) {
    if constexpr (integer) {
      I q = V::sra(V::shl(codes, 32 - bits), 32 - bits);
      return V::mulF(V::toFloat(q), multiplier);
    } else {
      I magnitude = codes & V::splat(magnitudeMask);
      I sign = V::shl(V::shr(codes, bits - 1), 31);
      I widened =
          V::select(V::gt(V::splat(minNormalCode), magnitude),
                    V::mulF(V::toFloat(magnitude), V::splat(subnormalStep)),
                    V::add(V::shl(magnitude, 23 - m), V::splat(rebias)));
      I value = V::mulF(widened, multiplier);
      value = V::select(V::eq(magnitude, V::splat(infMagnitude)),
                        V::splat(0x7F800000), value) |
              sign;
      return V::select(V::gt(V::splat(nanFrom), magnitude), value,
                       V::splat(0x7FC00000));
    }
  }
};

/// The fp32 bits of 2^(scale - 127 - shift) (`shift`: an integer element's
/// fraction bits): the unpacker's multiplier for scale bytes 0..0xFE.
constexpr uint32_t mxMultiplierBits(unsigned scale, int shift) {
  return powerOfTwoBits(int(scale) - 127 - shift);
}

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_LANEARITHMETIC_H
