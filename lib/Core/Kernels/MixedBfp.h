//===- MixedBfp.h - per-tile mixed BFP: pack and unpack (§5) ----*- C++ -*-===//
//
// Private to lib/Core/Kernels, over a path's vocabulary `X`
// (Vocabulary.h); included, through KernelTable.h, inside each path's
// target region after LaneArithmetic.h.
//
// A tile in the format of its mixed code (kBfpMixedCodes), bfp0 storing no
// bytes and decoding as +0; every code of a band in one walk, so the reads
// are the plain pack's. Whole 32x32 tiles: no padding.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_MIXEDBFP_H
#define BIRSIM_LIB_CORE_KERNELS_MIXEDBFP_H

#include "BfpPack.h"
#include "BfpUnpack.h"
#include "Dispatch.h"
#include "VectorBuiltins.h"

namespace birsim::core::kernel {

/// The magnitude bits of mixed code `Code`'s format (a "b" format).
template <unsigned Code>
constexpr unsigned kMixedMagnitudeBits =
    kBfpFormatTable[kBfpMixedCodes[Code].format].magnitudeBits;

/// Per-tile mixed BFP (§5) of tiles [firstTile, firstTile + tileCount) of
/// a matrix: tile t in the format of its code (the walk layouts[code];
/// bfp0 no bytes) at out + offsets[t] - offsets[firstTile]. Its rows walk
/// in bands as bfpPackLoop's, every format of a band in one walk; a
/// transpose's columns in the same order. Whole 32x32 tiles: no padding.
template <class X, int Load>
BIRSIM_KERNEL_LOOP void
bfpPackMixedLoop(const BfpLayout *layouts, const char *src,
                 const uint8_t *codes, const size_t *offsets, size_t firstTile,
                 size_t tileCount, char *out, BfpTally &tally) {
  const BfpLayout &walk = layouts[0]; // every code's blocks lie alike
  const BfpGroupSizes sizes(walk);
  const BfpStripes order(walk);
  const BfpReadAhead ahead = walk.valueStep == 1 ? order.ahead : BfpReadAhead{};
  typename X::template PopcountTally<BfpClass> lanes{};
  BfpTieHistory history;
  BfpTally local;
  auto group = [&](auto code, const char *tile, char *packed, unsigned b)
      __attribute__((always_inline)) {
    constexpr unsigned M = kMixedMagnitudeBits<decltype(code)::value>;
    bfpPackGroup<X, BfpSite::host, false, M, false, Load>(
        layouts[code], sizes, tile, packed, b, ahead, history, lanes);
  };
  for (size_t t = 0; t < tileCount; t += kBfpBandTiles) {
    size_t band = std::min(tileCount - t, kBfpBandTiles);
    const char *tiles[kBfpBandTiles];
    char *packed[kBfpBandTiles];
    unsigned tileCodes[kBfpBandTiles];
    for (size_t i = 0; i < band; ++i) {
      size_t tile = firstTile + t + i;
      tiles[i] = src + walk.origin(tile) * sizes.inputBytes;
      packed[i] = out + (offsets[tile] - offsets[firstTile]);
      tileCodes[i] = bfpMixedCode(codes, tile);
      X::reportWrite(packed[i], offsets[tile + 1] - offsets[tile]);
    }
    bfpBandStripes(order, band, [&](size_t i, unsigned b) {
      withMixedFormatCode(tileCodes[i], [&](auto code) { // not the zero code
        group(code, tiles[i], packed[i], b);
      });
    });
    X::moveCounts(lanes, local); // at most 1024 per cell and tile
  }
  tally += local;
}

/// The inverse of bfpPackMixedLoop: tile t decoded from out + offsets[t] -
/// offsets[firstTile] (`packed`) into `dst` (the whole call's fp32
/// values), a bfp0 tile as +0.
template <class X>
BIRSIM_KERNEL_LOOP void
bfpUnpackMixedLoop(const BfpLayout *layouts, const unsigned char *packed,
                   const uint8_t *codes, const size_t *offsets,
                   size_t firstTile, size_t tileCount, char *dst) {
  const BfpLayout &walk = layouts[0]; // every code's blocks lie alike
  const BfpGroupSizes sizes(walk);
  const BfpStripes order(walk);
  for (size_t t = 0; t < tileCount; t += kBfpBandTiles) {
    size_t band = std::min(tileCount - t, kBfpBandTiles);
    const unsigned char *in[kBfpBandTiles];
    char *tiles[kBfpBandTiles];
    unsigned tileCodes[kBfpBandTiles];
    for (size_t i = 0; i < band; ++i) {
      size_t tile = firstTile + t + i;
      in[i] = packed + (offsets[tile] - offsets[firstTile]);
      tiles[i] = dst + walk.origin(tile) * 4;
      tileCodes[i] = bfpMixedCode(codes, tile);
      X::reportRead(in[i], offsets[tile + 1] - offsets[tile]);
      if (tileCodes[i] != kBfpMixedZeroCode) // it stores no bytes
        withMixedFormatCode(tileCodes[i], [&](auto code) {
          constexpr unsigned M = kMixedMagnitudeBits<decltype(code)::value>;
          bfpPrefetchBandTile<X, M>(in[i], sizes, order);
        });
    }
    bfpBandStripes(order, band, [&](size_t i, unsigned b) {
      if (tileCodes[i] == kBfpMixedZeroCode) { // +0
        for (unsigned k = 0; k < 4; ++k)
          storeBfpValues<X>(walk, tiles[i] + walk.blockStart[b + k] * 4,
                            typename X::BfpBlock{}, walk.streamValues);
        return;
      }
      withMixedFormatCode(tileCodes[i], [&](auto code) {
        constexpr unsigned M = kMixedMagnitudeBits<decltype(code)::value>;
        bfpPrefetchNextGroup<X, M>(in[i], sizes, order, b);
        for (unsigned k = 0; k < 4; ++k)
          bfpUnpackBlock<X, BfpSite::host, M>(layouts[code], sizes, in[i],
                                              tiles[i], b + k);
      });
    });
  }
  if (walk.streamValues)
    X::streamFence();
}

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_MIXEDBFP_H
