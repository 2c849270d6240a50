//===- MxTiles.h - the MX tile pack and unpack (§5 MX tiles) ----*- C++ -*-===//
//
// Private to lib/Core/Kernels, over a path's vocabulary `X`
// (Vocabulary.h); included, through KernelTable.h, inside each path's
// target region after LaneArithmetic.h.
//
// An MX block is the walk's blocks 2k and 2k + 1 (32 values, one scale
// byte); four blocks share one reduction of their largest magnitudes, and a
// block with an Inf or a NaN takes the core's mxScale.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_MXTILES_H
#define BIRSIM_LIB_CORE_KERNELS_MXTILES_H

#include "BfpWalk.h"
#include "VectorBuiltins.h"

namespace birsim::core::kernel {

//===-- MX tiles (§5 MX tiles): whole blocks, so no tails -----------------===//

/// Packs MX tiles [firstTile, firstTile + tileCount) as packMxTiles does.
/// An MX block is the walk's blocks 2k and 2k + 1; four blocks share one
/// reduction of their largest magnitudes, and a block with an Inf or a
/// NaN takes mxScale.
template <class X, int Load, BfpFormat Format>
BIRSIM_KERNEL_LOOP void mxPackLoop(const BfpLayout &layout, const char *src,
                                   size_t firstTile, size_t tileCount,
                                   char *out) {
  using V = typename X::template Lanes<32>;
  using Block = typename X::BfpBlock;
  constexpr const BfpFormatInfo &f = kBfpFormatTable[int(Format)];
  constexpr unsigned halfBytes = kBfpBlockValues * f.datumBits / 8,
                     shift = f.datumBits - f.elementBits;
  using Mx = MxLanes<V, Format>;
  const unsigned blocks = layout.shape.values() / kMxBlockValues,
                 scaleBytes = mxScaleBytes(layout),
                 inputBytes = layout.values->bytes;
  const size_t tileBytes = scaleBytes + size_t(blocks) * 2 * halfBytes;
  const bool contiguous = layout.contiguousTiles();
  size_t offsets[kBfpTileBlocks]; // of the walk's blocks, in bytes
  for (unsigned b = 0; b < 2 * blocks; ++b)
    offsets[b] = layout.blockStart[b] * inputBytes;
  for (size_t t = 0; t < tileCount; ++t) {
    const char *tile = src + layout.origin(firstTile + t) * inputBytes;
    auto *packed = reinterpret_cast<uint8_t *>(out + t * layout.packedBytes);
    X::reportWrite(packed, layout.packedBytes);
    auto valuesOf = [&](unsigned k, unsigned h) {
      const char *p = tile + offsets[2 * k + h];
      if (!contiguous)
        X::prefetch(p);
      return loadBfpValues<X, Load>(layout, p);
    };
    // Tiles one after another: while the elements are encoded, the next
    // tile's lines, a block's at a time, into the second level (a burst of
    // them in the first pass would stall its loads).
    const char *next = tile + layout.shape.values() * inputBytes;
    // The tile's scale bytes first, then its elements: no block's elements
    // wait on its scale's reduction. Values not read as fp32 are kept as
    // such in between.
    constexpr bool kWidened = Load != int(Dtype::float32);
    alignas(64) char widened[kWidened ? 4 * kBfpTileValues : 1];
    bool finite[kBfpTileValues / kMxBlockValues];
    for (unsigned first = 0; first < blocks; first += 4) {
      unsigned group = std::min(4u, blocks - first);
      Block keys[4];
      for (unsigned g = 0; g < group; ++g) {
        Block values[2];
        for (unsigned h = 0; h < 2; ++h) {
          values[h] = valuesOf(first + g, h);
          if constexpr (kWidened)
            X::storeBfpBlock(widened +
                                 4 * kBfpBlockValues * (2 * (first + g) + h),
                             values[h]);
        }
        keys[g] = X::mapBlock(
            [](auto a, auto b) {
              auto magnitudes = V::splat(0x7FFFFFFF);
              return V::max(a & magnitudes, b & magnitudes);
            },
            values[0], values[1]);
      }
      uint32_t maxMagnitude[4];
      if (group == 4) {
        typename X::BfpShared splats[4];
        X::bfpShared4(keys, splats);
        for (unsigned g = 0; g < 4; ++g)
          maxMagnitude[g] = X::firstLane(splats[g]);
      } else {
        for (unsigned g = 0; g < group; ++g)
          maxMagnitude[g] = uint32_t(X::bfpShared(keys[g]));
      }
      for (unsigned g = 0; g < group; ++g) {
        // Below Inf, the largest magnitude is the largest finite one.
        finite[first + g] = maxMagnitude[g] < 0x7F800000u;
        packed[first + g] =
            finite[first + g] ? mxScaleOfMaxFinite(f, maxMagnitude[g]) : 0;
      }
    }
    for (unsigned k = 0; k < blocks; ++k) {
      Block values[2];
      if (contiguous)
        for (unsigned h = 0; h < 2; ++h)
          X::prefetchLine(next + offsets[2 * k + h]);
      for (unsigned h = 0; h < 2; ++h)
        values[h] =
            kWidened
                ? X::loadBfpBlock(Dtype::float32,
                                  widened + 4 * kBfpBlockValues * (2 * k + h))
                : valuesOf(k, h);
      if (!finite[k]) { // an Inf or a NaN: the core's scale rule
        alignas(64) uint32_t block[kMxBlockValues];
        X::storeBfpBlock(reinterpret_cast<char *>(block), values[0]);
        X::storeBfpBlock(reinterpret_cast<char *>(block + kBfpBlockValues),
                         values[1]);
        packed[k] = mxScale(f, block);
      }
      auto divisor = V::splat(powerOfTwoBits(127 - int(packed[k])));
      auto encodeBlock = [&](auto finite) __attribute__((always_inline)) {
        // A finite float block's signs put in on bytes where the path has it.
        constexpr bool kSignBytes =
            X::kBfpSignBytes && decltype(finite)::value && !Mx::integer;
        Block codes[2];
        for (unsigned h = 0; h < 2; ++h) {
          codes[h] = X::mapBlock(
              [&](auto v) {
                return Mx::template encode<finite, !kSignBytes>(v, divisor);
              },
              values[h]);
          if constexpr (shift != 0)
            codes[h] = X::mapBlock(
                [&](auto c) { return V::shl(c, int(shift)); }, codes[h]);
        }
        char *datums =
            reinterpret_cast<char *>(packed + scaleBytes + 2 * k * halfBytes);
        if constexpr (kSignBytes)
          storeSignedDatumPair<X, f.datumBits, f.datumBits - 1, true>(
              datums, values[0], codes[0], values[1], codes[1]);
        else
          X::storeBfpDatumPair(f.datumBits, datums, codes[0], codes[1]);
      };
      if (finite[k])
        encodeBlock(std::true_type{});
      else
        encodeBlock(std::false_type{});
    }
    if (scaleBytes > blocks)
      std::memset(packed + blocks, 0, scaleBytes - blocks);
    if (layout.packedBytes > tileBytes) // §5 pages
      std::memset(packed + tileBytes, 0, layout.packedBytes - tileBytes);
  }
}

/// Unpacks MX tiles [firstTile, firstTile + tileCount) as unpackMxTiles
/// does, a walk block (16 elements) at a time.
template <class X, BfpFormat Format>
BIRSIM_KERNEL_LOOP void
mxUnpackLoop(const BfpLayout &layout, const unsigned char *packed,
             size_t firstTile, size_t tileCount, char *dst) {
  using V = typename X::template Lanes<32>;
  using Block = typename X::BfpBlock;
  constexpr const BfpFormatInfo &f = kBfpFormatTable[int(Format)];
  using Mx = MxLanes<V, Format>;
  constexpr unsigned halfBytes = kBfpBlockValues * f.datumBits / 8,
                     shift = f.datumBits - f.elementBits;
  constexpr int fractionBits = Mx::integer ? int(f.elementBits) - 2 : 0;
  const unsigned blocks = layout.shape.values() / kMxBlockValues,
                 scaleBytes = mxScaleBytes(layout);
  for (size_t t = 0; t < tileCount; ++t) {
    const unsigned char *in = packed + t * layout.packedBytes;
    char *tile = dst + layout.origin(firstTile + t) * 4;
    X::reportRead(in, layout.packedBytes);
    X::prefetch(in);
    for (unsigned b = 0; b < 2 * blocks; ++b) {
      uint8_t scale = in[b / 2];
      auto codes = X::widenBfpDatums(
          X::loadBfpDatums(f.datumBits, in + scaleBytes + b * halfBytes));
      Block decoded;
      if (scale == 0xFF) { // §5 MX decoding: NaN, or an integer's 0
        uint32_t all = Mx::integer ? 0 : 0x7FC00000u;
        decoded = X::mapBlock([&](auto) { return V::splat(all); }, codes);
      } else {
        auto multiplier = V::splat(mxMultiplierBits(scale, fractionBits));
        decoded = X::mapBlock(
            [&](auto c) {
              return Mx::decode(V::shr(c, int(shift)), multiplier);
            },
            codes);
      }
      char *values = tile + layout.blockStart[b] * 4;
      storeBfpValues<X>(layout, values, decoded);
    }
  }
}

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_MXTILES_H
