//===- BfpTiles.cpp - packing and unpacking BFP tiles (§5) ----------------===//
#include "birsim/Core/Bfp.h"
#include "Kernels/Kernels.h"
#include "ParallelFor.h"
#include "birsim/Core/Fidelity.h"

#include <algorithm>
#include <cstring>

namespace birsim::core {

static Status checkTiles(int format, const void *in, size_t tileCount,
                         const void *out) {
  if (!lookupBfpFormat(format))
    return Status::error(ErrorCode::invalidFormat, format);
  if (tileCount != 0 && (!in || !out))
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "null buffer with a non-zero tile count");
  return checkCount(tileCount, kBfpTileBytesF32); // the larger side
}

static void packTiles(const BfpFormatInfo &f, const char *tiles,
                      size_t tileCount, uint8_t *bytes, BfpTally &tally,
                      bool countEvents);
static void unpackTiles(const BfpFormatInfo &f, const uint8_t *bytes,
                        size_t tileCount, char *tiles);

Status bfpPackTiles(int format, const void *tiles, size_t tileCount,
                    void *out, FidelityCounts *counts) {
  if (Status s = checkTiles(format, tiles, tileCount, out))
    return s;
  const BfpFormatInfo &f = *lookupBfpFormat(format);
  if (Status s = checkNoOverlap(out, tileCount * f.tileBytes, tiles,
                                tileCount * kBfpTileBytesF32, false))
    return s;
  const VectorKernels *vector = activeKernels();
  // Each chunk tallies its own ties: the sums do not depend on threads.
  parallelFor(tileCount, kMinTilesPerThread, [&](size_t begin, size_t end) {
    BfpTally tally;
    auto *in = static_cast<const char *>(tiles) + begin * kBfpTileBytesF32;
    auto *bytes = static_cast<uint8_t *>(out) + begin * f.tileBytes;
    if (vector)
      vector->bfpPack(f, in, end - begin, bytes, tally, counts != nullptr);
    else
      packTiles(f, in, end - begin, bytes, tally, counts != nullptr);
    bfpAddTies(tally);
    if (counts) {
      FidelityCounts chunk;
      chunk.elements[int(FidelityFamily::bfp_pack)] =
          (end - begin) * kBfpTileValues;
      for (int c = 0; c < BfpTally::kClasses; ++c)
        if (FidelityEvent e = bfpPackEventOf(BfpClass(c));
            e != kNoFidelityEvent)
          chunk.count[int(e)] = tally.cells[c];
      counts->addLocked(chunk);
    }
  });
  return Status::success();
}

/// The portable packer (§5 steps 1-5, block by block).
static void packTiles(const BfpFormatInfo &f, const char *tiles,
                      size_t tileCount, uint8_t *bytes, BfpTally &tally,
                      bool countEvents) {
  for (size_t t = 0; t < tileCount; ++t) {
    const char *tile = tiles + t * kBfpTileBytesF32;
    uint8_t *packed = bytes + t * f.tileBytes;
    std::fill(packed + kBfpTileBlocks, packed + f.tileBytes, 0);
    for (unsigned b = 0; b < kBfpTileBlocks; ++b) {
      uint32_t block[kBfpBlockValues];
      for (unsigned j = 0; j < kBfpBlockValues; ++j)
        std::memcpy(&block[j], tile + 4 * bfpTileIndex(b, j), 4);
      uint8_t shared = bfpSharedExponent(f, block);
      packed[b] = shared;
      for (unsigned j = 0; j < kBfpBlockValues; ++j) {
        unsigned offset, shift;
        bfpDatumPlace(f, b * kBfpBlockValues + j, offset, shift);
        packed[offset] |= uint8_t(
            bfpEncode(f, block[j], shared, tally, countEvents) << shift);
      }
    }
  }
}

Status bfpUnpackTiles(int format, const void *packed, size_t tileCount,
                      void *tiles) {
  if (Status s = checkTiles(format, packed, tileCount, tiles))
    return s;
  const BfpFormatInfo &f = *lookupBfpFormat(format);
  if (Status s = checkNoOverlap(tiles, tileCount * kBfpTileBytesF32, packed,
                                tileCount * f.tileBytes, false))
    return s;
  const VectorKernels *vector = activeKernels();
  parallelFor(tileCount, kMinTilesPerThread, [&](size_t begin, size_t end) {
    auto *in = static_cast<const uint8_t *>(packed) + begin * f.tileBytes;
    auto *out = static_cast<char *>(tiles) + begin * kBfpTileBytesF32;
    if (vector)
      vector->bfpUnpack(f, in, end - begin, out);
    else
      unpackTiles(f, in, end - begin, out);
  });
  return Status::success();
}

/// The portable unpacker (§5 decoding).
static void unpackTiles(const BfpFormatInfo &f, const uint8_t *bytes,
                        size_t tileCount, char *tiles) {
  uint8_t datumMask = uint8_t((1u << f.datumBits) - 1);
  for (size_t t = 0; t < tileCount; ++t) {
    const uint8_t *in = bytes + t * f.tileBytes;
    char *tile = tiles + t * kBfpTileBytesF32;
    for (unsigned b = 0; b < kBfpTileBlocks; ++b)
      for (unsigned j = 0; j < kBfpBlockValues; ++j) {
        unsigned offset, shift;
        bfpDatumPlace(f, b * kBfpBlockValues + j, offset, shift);
        uint8_t datum = uint8_t(in[offset] >> shift) & datumMask;
        uint32_t value = bfpDecode(f, datum, in[b]);
        std::memcpy(tile + 4 * bfpTileIndex(b, j), &value, 4);
      }
  }
}

} // namespace birsim::core
