//===- BfpPacker.h - what a packer does to one BFP block --------*- C++ -*-===//
//
// Private to lib/Core/Kernels, over a path's vocabulary `X`
// (Vocabulary.h); included, through KernelTable.h, inside each path's
// target region after LaneArithmetic.h.
//
// BfpPackerLanes: the host's steps 1-5 of §5 or the Tensix packer's value
// step and block rule (the device's bytes), for one block of 16 lanes, with
// the format's mantissa width and exponent kind as template arguments. Every
// BFP loop that packs, searches or compares reads its rule from here.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_BFPPACKER_H
#define BIRSIM_LIB_CORE_KERNELS_BFPPACKER_H

#include "BfpWalk.h"

namespace birsim::core::kernel {

/// What a packer at `Site` does to a block (§5): the host's steps 1-5
/// (tallying into `tally`), or the Tensix packer's per-value step and
/// block rule (the device's bytes). The format's mantissa width and
/// exponent kind are template arguments: every constant is an immediate.
template <class X, BfpSite Site, bool CountEvents, unsigned M,
          bool Fp16Exponent>
struct BfpPackerLanes {
  using V = typename X::template Lanes<32>;
  using Block = typename X::BfpBlock;
  static constexpr bool kHost = Site == BfpSite::host;

  /// The values the block rule takes.
  static Block values(const Block &raw) {
    if constexpr (kHost)
      return raw;
    else
      return X::mapBlock(
          [](auto v) { return bfpDeviceValueLanes<V, Site>(v); }, raw);
  }
  /// The exponent each value contributes.
  static Block exponents(const Block &values) {
    return X::mapBlock(
        [](auto v) {
          if constexpr (kHost)
            return bfpBlockExponents<V, Fp16Exponent>(v);
          else
            return bfpDeviceExponents<V>(v);
        },
        values);
  }
  /// Keys whose largest in a block, sharedOfKey, is its shared exponent:
  /// the host's magnitude bits, ordered as its exponent fields (so the
  /// rebase and clamp of "a" act once a block, §5 step 2 being monotone),
  /// else exponents.
  static Block keys(const Block &values) {
    if constexpr (kHost)
      return X::mapBlock([](auto v) { return v & V::splat(0x7FFFFFFFu); },
                         values);
    else
      return exponents(values);
  }
  static typename V::I sharedOfKey(typename V::I key) {
    if constexpr (kHost && !Fp16Exponent)
      return V::shr(key, 23); // the sign cleared: the field alone
    else if constexpr (kHost)
      return bfpBlockExponents<V, Fp16Exponent>(key);
    else
      return key;
  }
  /// The host's datum magnitudes under the block's shared exponent.
  template <class Tally>
  static Block magnitudeLanes(const Block &values, typename X::BfpShared shared,
                              Tally &tally) {
    return X::mapBlock(
        [&](auto v) {
          return bfpMagnitudeLanes<V, CountEvents, M, Fp16Exponent>(v, shared,
                                                                    tally);
        },
        values);
  }
  /// The datums under the block's shared exponent (in every lane), one
  /// per lane.
  template <class Tally>
  static Block datumLanes(const Block &values, typename X::BfpShared shared,
                          Tally &tally) {
    return X::mapBlock(
        [&](auto v) {
          if constexpr (kHost)
            return bfpEncodeLanes<V, CountEvents, M, Fp16Exponent>(v, shared,
                                                                   tally);
          else
            return bfpDeviceBlockLanes<V, M>(v, shared);
        },
        values);
  }
  /// The same as 16 bytes.
  template <class Tally>
  static typename X::BfpDatums
  datums(const Block &values, typename X::BfpShared shared, Tally &tally) {
    return X::bfpDatumsOf(datumLanes(values, shared, tally));
  }
};

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_BFPPACKER_H
