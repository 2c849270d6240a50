//===- BfpUnpack.h - the BFP unpack loops (§5 decoding) ---------*- C++ -*-===//
//
// Private to lib/Core/Kernels, over a path's vocabulary `X`
// (Vocabulary.h); included, through KernelTable.h, inside each path's
// target region after LaneArithmetic.h.
//
// A block decodes by one exact product where its shared exponent allows
// (bfpDecodeScaleBits), else lane by lane; the host's decode or, at a device
// site, the unpacker's. Matrix rows walk in bands as the pack's.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_BFPUNPACK_H
#define BIRSIM_LIB_CORE_KERNELS_BFPUNPACK_H

#include "BfpWalk.h"
#include "VectorBuiltins.h"

namespace birsim::core::kernel {

/// Decodes datums as the host (§5 decoding) or, at a device site, as the
/// unpacker (the device's bytes).
template <class X, BfpSite Site, unsigned M>
typename X::BfpBlock bfpDecodedBlock(const BfpFormatInfo &f,
                                     const typename X::BfpBlock &datums,
                                     typename X::BfpShared shared) {
  using V = typename X::template Lanes<32>;
  return X::mapBlock(
      [&](auto d) {
        if constexpr (Site == BfpSite::host)
          return bfpDecodeLanes<V>(f, d, shared);
        else
          return bfpDeviceDecodeLanes<V, M>(d, shared);
      },
      datums);
}

/// Block b of the packed tile `in` decoded into the tile whose first value
/// is at `tile` (streamed where layout.streamValues): by one exact product
/// where its exponent allows (bfpDecodeScaleBits; at a device site a "b"
/// exponent).
template <class X, BfpSite Site, unsigned M>
__attribute__((always_inline)) inline void
bfpUnpackBlock(const BfpLayout &layout, const BfpGroupSizes &sizes,
               const unsigned char *in, char *tile, unsigned b) {
  using V = typename X::template Lanes<32>;
  constexpr unsigned blockDatumBytes = kBfpBlockValues * (M + 1) / 8;
  auto datums = X::widenBfpDatums(
      X::loadBfpDatums(M + 1, in + sizes.exponentBytes + b * blockDatumBytes));
  uint32_t scale = bfpDecodeScaleBits(
      Site == BfpSite::host ? layout.format->exponent : BfpExponent::Fp32, M,
      in[b]);
  auto decoded =
      scale
          ? X::mapBlock(
                [&](auto d) {
                  if constexpr (Site == BfpSite::host)
                    return bfpDecodeScaledLanes<V, M>(d, V::splat(scale));
                  else
                    return bfpDeviceDecodeScaledLanes<V, M>(d, V::splat(scale));
                },
                datums)
          : bfpDecodedBlock<X, Site, M>(*layout.format, datums,
                                        X::bfpSplat(in[b]));
  storeBfpValues<X>(layout, tile + layout.blockStart[b] * 4, decoded,
                    layout.streamValues);
}

template <class X, BfpSite Site, unsigned M>
BIRSIM_KERNEL_LOOP void
bfpUnpackLoop(const BfpLayout &layout, const unsigned char *packed,
              size_t firstTile, size_t tileCount, char *dst) {
  const unsigned blocks = layout.shape.blocks();
  const BfpGroupSizes sizes(layout);
  if (BfpStripes::fits(layout)) {
    // A matrix's rows in bands, as bfpPackBandLoop's.
    const BfpStripes order(layout);
    for (size_t t = 0; t < tileCount; t += kBfpBandTiles) {
      size_t band = std::min(tileCount - t, kBfpBandTiles);
      const unsigned char *in[kBfpBandTiles];
      char *tiles[kBfpBandTiles];
      for (size_t i = 0; i < band; ++i) {
        in[i] = packed + (t + i) * layout.packedBytes;
        tiles[i] = dst + layout.origin(firstTile + t + i) * 4;
        X::reportRead(in[i], layout.packedBytes);
        bfpPrefetchBandTile<X, M>(in[i], sizes, order);
      }
      bfpBandStripes(order, band, [&](size_t i, unsigned b) {
        bfpPrefetchNextGroup<X, M>(in[i], sizes, order, b);
        for (unsigned k = 0; k < 4; ++k)
          bfpUnpackBlock<X, Site, M>(layout, sizes, in[i], tiles[i], b + k);
      });
    }
    if (layout.streamValues)
      X::streamFence();
    return;
  }
  for (size_t t = 0; t < tileCount; ++t) {
    const unsigned char *in = packed + t * layout.packedBytes;
    char *tile = dst + layout.origin(firstTile + t) * 4;
    X::reportRead(in, layout.packedBytes);
    X::prefetch(in); // the tile after next's first bytes (BFP8: 1088 each)
    for (unsigned b = 0; b < blocks; ++b)
      bfpUnpackBlock<X, Site, M>(layout, sizes, in, tile, b);
  }
  if (layout.streamValues)
    X::streamFence();
}

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_BFPUNPACK_H
