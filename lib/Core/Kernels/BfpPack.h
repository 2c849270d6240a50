//===- BfpPack.h - the BFP pack loops (§5) ----------------------*- C++ -*-===//
//
// Private to lib/Core/Kernels, over a path's vocabulary `X`
// (Vocabulary.h); included, through KernelTable.h, inside each path's
// target region after LaneArithmetic.h.
//
// Four blocks at a time share one reduction of their shared exponents
// (X::bfpShared4); a path's 16-bit-lane halves pack (X::bfpPackHalves) takes
// the host's untallied packs of float32 and bfloat16 rows where it has one.
// Ties and events are counted in locals the stores cannot alias, moved into
// the caller's tally once a tile (at most 1024 per cell).
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_BFPPACK_H
#define BIRSIM_LIB_CORE_KERNELS_BFPPACK_H

#include "BfpPacker.h"
#include "BfpSearch.h"
#include "BfpWalk.h"
#include "VectorBuiltins.h"

namespace birsim::core::kernel {

/// How many groups in a row a halves pack (X::bfpPackHalves) found no
/// tie in. Until kQuiet it rounds and counts ties branch-free (on data
/// with many ties a branch would mispredict, which at 2^24 also drops the
/// loads in flight); from then on it tests each group for one first.
struct BfpTieHistory {
  static constexpr unsigned kQuiet = 8;
  unsigned tieFree = 0;
};

/// Four blocks' datums (§5 steps 1-5) under their shared exponents, back
/// to back from `datums`; their ties (and events) into `lanes`.
template <class X, class P, unsigned M, class Tally>
__attribute__((always_inline)) inline void
bfpStoreGroupDatums(const typename X::BfpBlock *block,
                    const typename X::BfpShared *shared, char *datums,
                    Tally &lanes) {
  constexpr unsigned blockDatumBytes = kBfpBlockValues * (M + 1) / 8;
  for (unsigned k = 0; k < 4; k += 2, datums += 2 * blockDatumBytes) {
    // Step 5 on bytes where the path has it (BFP2's lanes measured faster).
    if constexpr (X::kBfpSignBytes && P::kHost && M > 1) {
      typename X::BfpBlock first =
          P::magnitudeLanes(block[k], shared[k], lanes);
      storeSignedDatumPair<X, M + 1, M, false>(
          datums, block[k], first, block[k + 1],
          P::magnitudeLanes(block[k + 1], shared[k + 1], lanes));
    } else {
      typename X::BfpBlock first = P::datumLanes(block[k], shared[k], lanes);
      X::storeBfpDatumPair(M + 1, datums, first,
                           P::datumLanes(block[k + 1], shared[k + 1], lanes));
    }
  }
}

/// Blocks [b, b + 4) of the tile whose values are at `tile` into its
/// packed bytes: their shared exponents reduced together, then their
/// datums; with `largest`, also each block's BfpLargest (the host's
/// packs).
template <class X, BfpSite Site, bool CountEvents, unsigned M,
          bool Fp16Exponent, int Load, class Tally>
__attribute__((always_inline)) inline void
bfpPackGroup(const BfpLayout &layout, const BfpGroupSizes &sizes,
             const char *tile, char *packed, unsigned b,
             const BfpReadAhead &ahead, BfpTieHistory &history, Tally &lanes,
             BfpLargest *largest = nullptr) {
  using P = BfpPackerLanes<X, Site, CountEvents, M, Fp16Exponent>;
  constexpr unsigned blockDatumBytes = kBfpBlockValues * (M + 1) / 8;
  typename X::BfpBlock block[4], keys[4];
  typename X::BfpShared shared[4];
  uint32_t bytes;
  constexpr bool kBf16 = Load == int(Dtype::bfloat16);
  if constexpr (P::kHost && !CountEvents && Load != kBfpAnyLoad &&
                X::bfpPacksHalves(Dtype(Load))) {
    if (layout.valueStep == 1) {
      const char *at[4];
      for (unsigned k = 0; k < 4; ++k) {
        at[k] = tile + layout.blockStart[b + k] * sizes.inputBytes;
        bfpPrefetchBlock<X>(at[k], ahead);
        X::reportRead(at[k], kBfpBlockValues * sizes.inputBytes);
      }
      if (X::template bfpPackHalves<M, Fp16Exponent, kBf16>(
              at, packed + b,
              packed + sizes.exponentBytes + b * blockDatumBytes,
              blockDatumBytes, history, lanes, largest))
        return;
    }
  }
  for (unsigned k = 0; k < 4; ++k) {
    block[k] = bfpValuesAt<X, P, Load>(
        layout, tile + layout.blockStart[b + k] * sizes.inputBytes, ahead);
    keys[k] = P::keys(block[k]);
    if (largest)
      largest[k] = bfpLargestOf(X::bfpShared(keys[k]));
  }
  bytes = X::bfpShared4(keys, shared, P::sharedOfKey);
  std::memcpy(packed + b, &bytes, 4);
  bfpStoreGroupDatums<X, P, M>(
      block, shared, packed + sizes.exponentBytes + b * blockDatumBytes, lanes);
}

/// bfpPackLoop on a matrix's rows (not a transpose's columns, blocks % 4
/// == 0) in bands.
template <class X, BfpSite Site, bool CountEvents, unsigned M,
          bool Fp16Exponent, int Load>
BIRSIM_KERNEL_LOOP void
bfpPackBandLoop(const BfpLayout &layout, const char *src, size_t firstTile,
                size_t tileCount, char *out, BfpTally &tally) {
  const BfpStripes order(layout);
  const BfpGroupSizes sizes(layout);
  BfpLoopTally<X, CountEvents> lanes{};
  BfpTieHistory history;
  BfpTally local;
  for (size_t t = 0; t < tileCount; t += kBfpBandTiles) {
    size_t band = std::min(tileCount - t, kBfpBandTiles);
    const char *tiles[kBfpBandTiles];
    char *packed[kBfpBandTiles];
    for (size_t i = 0; i < band; ++i) {
      tiles[i] = src + layout.origin(firstTile + t + i) * sizes.inputBytes;
      packed[i] = out + (t + i) * layout.packedBytes;
      bfpPadTile<X>(layout, packed[i]);
    }
    bfpBandStripes(order, band, [&](size_t i, unsigned b) {
      if (i + kBfpWriteAheadTiles < band)
        bfpPrefetchGroup<X, M, true>(packed[i + kBfpWriteAheadTiles], sizes, b);
      bfpPackGroup<X, Site, CountEvents, M, Fp16Exponent, Load>(
          layout, sizes, tiles[i], packed[i], b, order.ahead, history, lanes);
    });
    X::moveCounts(lanes, local); // at most 1024 per cell and tile
  }
  tally += local;
}

template <class X, BfpSite Site, bool CountEvents, unsigned M,
          bool Fp16Exponent, int Load, bool Search = false>
BIRSIM_KERNEL_LOOP void bfpPackLoop(const BfpLayout &layout, const char *src,
                                    size_t firstTile, size_t tileCount,
                                    char *out, BfpTally &tally) {
  using P = BfpPackerLanes<X, Site, CountEvents, M, Fp16Exponent>;
  using H = typename X::template Lanes<16>;
  constexpr bool kHalfLanes = X::kBfpHalfLanes && bfpSiteRow(Site).dest16();
  const BfpTileShape &shape = layout.shape;
  const unsigned blocks = shape.blocks(), exponentBytes = shape.exponentBytes();
  if (!Search && !kHalfLanes && BfpStripes::fits(layout))
    return bfpPackBandLoop<X, Site, CountEvents, M, Fp16Exponent, Load>(
        layout, src, firstTile, tileCount, out, tally);
  const unsigned inputBytes = layout.values->bytes;
  constexpr unsigned blockDatumBytes = kBfpBlockValues * (M + 1) / 8;
  const BfpGroupSizes sizes(layout);
  // Counted in locals the stores to `out` cannot alias, so their cells stay
  // in registers; added to the caller's once (the search's `untallied`,
  // the ties of the blocks it packs again, taken back).
  BfpLoopTally<X, CountEvents> lanes{}, untallied{};
  BfpTieHistory history;
  BfpTally local, taken;
  auto valuesAt = [&](const char *values) __attribute__((always_inline)) {
    return bfpValuesAt<X, P, Load>(layout, values, {});
  };
  for (size_t t = 0; t < tileCount; ++t) {
    const char *tile = src + layout.origin(firstTile + t) * inputBytes;
    char *packed = out + t * layout.packedBytes;
    unsigned b = 0;
    // Four blocks at a time share one reduction of their exponents; a
    // 16-bit Dest's values lying in rows, two blocks a vector where the
    // path has 16-bit lanes for it.
    if constexpr (kHalfLanes) {
      if (layout.valueStep == 1)
        for (; b + 4 <= blocks; b += 4) {
          typename X::BfpHalves values[2], exponents[2], shared[2];
          for (unsigned k = 0; k < 2; ++k) {
            const char *first = tile + layout.blockStart[b + 2 * k] * 2,
                       *second = tile + layout.blockStart[b + 2 * k + 1] * 2;
            X::prefetch(first);
            X::reportRead(first, 32);
            X::reportRead(second, 32);
            values[k] =
                bfpDevice16ValueLanes<H, Site>(X::loadBfpHalves(first, second));
            exponents[k] = bfpDeviceExponents<H>(values[k]);
          }
          uint32_t bytes = X::bfpShared4Halves(exponents, shared);
          std::memcpy(packed + b, &bytes, 4);
          for (unsigned k = 0; k < 2; ++k) {
            char *datums = packed + exponentBytes + (b + 2 * k) * blockDatumBytes;
            X::storeBfpHalfDatums(
                M + 1, datums, datums + blockDatumBytes,
                bfpDeviceBlockLanes<H, M>(values[k], shared[k]));
          }
        }
    }
    alignas(16) BfpLargest largest[kBfpTileBlocks]; // the search's
    for (; b + 4 <= blocks; b += 4)
      bfpPackGroup<X, Site, CountEvents, M, Fp16Exponent, Load>(
          layout, sizes, tile, packed, b, {}, history, lanes,
          Search ? largest + b : nullptr);
    for (; b < blocks; ++b) {
      auto block = valuesAt(tile + layout.blockStart[b] * inputBytes);
      if constexpr (Search)
        largest[b] = bfpLargestOf(X::bfpShared(P::keys(block)));
      int shared = X::bfpShared(P::exponents(block));
      packed[b] = char(shared);
      X::storeBfpDatums(M + 1, packed + exponentBytes + b * blockDatumBytes,
                        P::datums(block, X::bfpSplat(shared), lanes));
    }
    if constexpr (Search) // the tile again, from the first-level cache
      bfpSearchTile<X, M>(
          blocks, largest,
          [&](unsigned b) __attribute__((always_inline)) {
            return loadBfpValues<X, Load>(layout, tile + layout.blockStart[b] *
                                                             inputBytes);
          },
          packed, packed + exponentBytes, lanes, untallied);
    bfpPadTile<X>(layout, packed);
    X::moveCounts(lanes, local); // at most 1024 per cell and tile
    if constexpr (Search)
      X::moveCounts(untallied, taken);
  }
  local -= taken;
  tally += local;
}

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_BFPPACK_H
