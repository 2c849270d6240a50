//===- BfpDeviceDiff.h - where the device's BFP bytes differ from the host's --*- C++ -*-===//
//
// Private to lib/Core/Kernels, over a path's vocabulary `X`
// (Vocabulary.h); included, through KernelTable.h, inside each path's
// target region after LaneArithmetic.h.
//
// Per element, whether the host's round trip of a Dest's values and the
// Tensix packer's then unpacker's differ (§5, the device's bytes), NaN
// against NaN equal.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_BFPDEVICEDIFF_H
#define BIRSIM_LIB_CORE_KERNELS_BFPDEVICEDIFF_H

#include "BfpPacker.h"
#include "BfpUnpack.h"
#include "VectorBuiltins.h"

namespace birsim::core::kernel {

/// The device diff (§5, the device's bytes) of tiles [firstTile, firstTile
/// + tileCount): per element, whether the host's round trip of the Dest's
/// values (widened exactly) and the device's differ, NaN against NaN
/// equal; mask[i] (when not null) for element i of the call, the number
/// returned.
template <class X, BfpSite Site, unsigned M, int Load>
BIRSIM_KERNEL_LOOP uint64_t bfpDeviceDiffLoop(const BfpLayout &layout,
                                              const char *src, size_t firstTile,
                                              size_t tileCount, uint8_t *mask) {
  using V = typename X::template Lanes<32>;
  using Block = typename X::BfpBlock;
  using Host = BfpPackerLanes<X, BfpSite::host, false, M, false>;
  using Device = BfpPackerLanes<X, Site, false, M, false>;
  constexpr bool kHostShared = bfpSiteRow(Site).sharesHostExponent();
  const BfpFormatInfo &f = *layout.format;
  const unsigned inputBytes = layout.values->bytes;
  typename X::template PopcountTally<BfpClass> lanes{};
  BfpTally local;
  for (size_t t = 0; t < tileCount; ++t) {
    size_t origin = layout.origin(firstTile + t);
    for (unsigned b = 0; b < layout.shape.blocks(); ++b) {
      size_t first = origin + layout.blockStart[b];
      X::prefetch(src + first * inputBytes);
      Block raw = loadBfpValues<X, Load>(layout, src + first * inputBytes);
      // A quieted signalling NaN changes no mask bit: a NaN lane's host
      // value is Inf or NaN whatever its payload (the block's shared
      // exponent is then 255), the fp16 path's always finite, and the
      // other lanes' host datums do not read it.
      Block host = raw;
      if constexpr (bfpSiteRow(Site).dest == BfpSiteDest::float16)
        host = X::halvesToF32(raw);
      Block device = Device::values(raw);
      int hostShared = X::bfpShared(Host::exponents(host));
      int deviceShared =
          kHostShared ? hostShared : X::bfpShared(Device::exponents(device));
      auto hostSplat = X::bfpSplat(hostShared);
      auto deviceSplat = kHostShared ? hostSplat : X::bfpSplat(deviceShared);
      typename X::template PopcountTally<BfpClass> ignored{}; // the host's ties
      Block hostDatums = Host::datumLanes(host, hostSplat, ignored);
      Block deviceDatums = Device::datumLanes(device, deviceSplat, ignored);
      auto differing = [&](auto h, auto d, auto equal) {
        auto m = V::notLanes(V::either(V::eq(h, d), equal));
        V::count(lanes[BfpClass::deviceDiffers], m);
        return V::keep(m, V::splat(1));
      };
      // Under one shared exponent the two decodes are one injective map
      // (neither packer writes a sign-only datum): equal values are equal
      // datums, or NaNs (shared exponent 255). Else the decoded values are
      // compared.
      Block differs;
      if (hostShared == deviceShared && hostShared != 255)
        differs = X::mapBlock(
            [&](auto h, auto d) {
              return differing(h, d, V::eq(V::zero(), V::splat(1)));
            },
            hostDatums, deviceDatums);
      else if (hostShared == deviceShared)
        differs = X::mapBlock(
            [&](auto h, auto d) {
              return differing(h, d, bfpBothNaNLanes<V, M>(h, d, hostSplat));
            },
            hostDatums, deviceDatums);
      else
        differs = X::mapBlock(
            [&](auto h, auto d) {
              return differing(h, d, V::both(V::isNaN(h), V::isNaN(d)));
            },
            bfpDecodedBlock<X, BfpSite::host, M>(f, hostDatums, hostSplat),
            bfpDecodedBlock<X, Site, M>(f, deviceDatums, deviceSplat));
      if (!mask)
        continue;
      auto bytes = X::bfpDatumsOf(differs);
      if (layout.valueStep == 1) {
        X::reportWrite(mask + first, kBfpBlockValues);
        X::storeBfpDatums(8, reinterpret_cast<char *>(mask + first), bytes);
        continue;
      }
      alignas(16) uint8_t lined[kBfpBlockValues];
      X::storeBfpDatums(8, reinterpret_cast<char *>(lined), bytes);
      for (unsigned j = 0; j < kBfpBlockValues; ++j) {
        X::reportWrite(mask + first + j * layout.valueStep, 1);
        mask[first + j * layout.valueStep] = lined[j];
      }
    }
    X::moveCounts(lanes, local);
  }
  return local[BfpClass::deviceDiffers];
}

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_BFPDEVICEDIFF_H
