//===- Dispatch.h - run-time values to loop instantiations ------*- C++ -*-===//
//
// Private to lib/Core/Kernels. A kernel's loop is a template over the
// operation, width, format and counting it does, so that every constant is
// an immediate; withConstants picks the instantiation at run time.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_DISPATCH_H
#define BIRSIM_LIB_CORE_KERNELS_DISPATCH_H

#include "birsim/Core/Bfp.h"
#include "birsim/Core/BfpMixed.h"

#include <utility>

#include <type_traits>

namespace birsim::core::kernel {

/// Calls fn(std::integral_constant<decltype(V), V>()) for the V of Vs that
/// equals `value`.
template <auto... Vs, typename T, typename Fn>
void withConstant(T value, Fn &&fn) {
  static_assert(sizeof...(Vs) > 0, "no instantiation to choose from");
  (void)((value == Vs ? (fn(std::integral_constant<decltype(Vs), Vs>()), true)
                      : false) ||
         ...);
}

/// withConstant over the unsigned Vs of a sequence.
template <typename Fn, unsigned... Vs>
void withConstantIn(unsigned value, Fn &&fn,
                    std::integer_sequence<unsigned, Vs...>) {
  withConstant<Vs...>(value, fn);
}
/// withConstant over 0 .. N - 1.
template <unsigned N, typename Fn> void withConstantBelow(unsigned value, Fn &&fn) {
  withConstantIn(value, fn, std::make_integer_sequence<unsigned, N>());
}

/// Calls fn(std::integral_constant<unsigned, c>()) for the mixed code c
/// (BfpMixedCodes.def) that is `code`, a code whose tiles store bytes.
template <typename Fn> void withMixedFormatCode(unsigned code, Fn &&fn) {
  withConstantBelow<kBfpMixedFormatCodes>(code, fn);
}
/// Calls fn(std::integral_constant<unsigned, c>()) for each code c with
/// bytes whose bit is in `Mask`, in order.
template <unsigned Mask, typename Fn, unsigned... Cs>
void forEachMixedCodeIn(Fn &&fn, std::integer_sequence<unsigned, Cs...>) {
  (..., [&] {
    if constexpr ((Mask >> Cs & 1) != 0)
      fn(std::integral_constant<unsigned, Cs>());
  }());
}
template <unsigned Mask, typename Fn> void forEachMixedFormatCode(Fn &&fn) {
  forEachMixedCodeIn<Mask>(fn,
                           std::make_integer_sequence<unsigned, kBfpMixedFormatCodes>());
}

/// withConstant over false and true.
template <typename Fn> void withBool(bool value, Fn &&fn) {
  withConstant<false, true>(value, fn);
}

/// Calls fn(std::integral_constant<unsigned, M>(),
/// std::bool_constant<fp16Exponent>()) for BFP format `format`: one
/// instantiation per BfpFormats.def row.
template <typename Fn> void withBfpFormat(BfpFormat format, Fn &&fn) {
  withConstant<
#define BIRSIM_BFP_FORMAT(Enumerator, ...) BfpFormat::Enumerator,
#include "birsim/Core/BfpFormats.def"
      BfpFormat(-1)>(format, [&](auto row) {
    if constexpr (int(row.value) >= 0) {
      constexpr const BfpFormatInfo &info = kBfpFormatTable[int(row.value)];
      fn(std::integral_constant<unsigned, info.magnitudeBits>(),
         std::bool_constant<(info.exponent == BfpExponent::Fp16)>());
    }
  });
}

/// Calls fn(std::integral_constant<BfpFormat, F>()) for MX format `format`:
/// one instantiation per MX row of BfpFormats.def.
template <typename Fn> void withMxFormat(BfpFormat format, Fn &&fn) {
  withConstant<
#define BIRSIM_BFP_FORMAT(...)
#define BIRSIM_MX_FORMAT(Enumerator, ...) BfpFormat::Enumerator,
#include "birsim/Core/BfpFormats.def"
      BfpFormat(-1)>(format, [&](auto row) {
    if constexpr (int(row.value) >= 0)
      fn(row);
  });
}

/// Calls fn(std::integral_constant<BfpSite, S>()) for BFP site `site`: one
/// instantiation per BfpSites.def row.
template <typename Fn> void withBfpSite(BfpSite site, Fn &&fn) {
  withConstant<
#define BIRSIM_BFP_SITE(Enumerator, ...) BfpSite::Enumerator,
#include "birsim/Core/BfpSites.def"
      BfpSite(-1)>(site, [&](auto row) {
    if constexpr (int(row.value) >= 0)
      fn(row);
  });
}

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_DISPATCH_H
