//===- Bfp.cpp - Tenstorrent block floating point (docs/Semantics.md 5) ------===//
#include "birsim/Core/Bfp.h"

#include <cstring>
#include "birsim/Core/Enums.h"
#include "birsim/Core/Fidelity.h"
#include "birsim/Core/Float.h"
#include "Kernels/Kernels.h"
#include "ParallelFor.h"

#include <algorithm>
#include <atomic>

namespace birsim::core {

const BfpFormatInfo *lookupBfpFormat(int format) {
  if (format < 0 || format >= kNumBfpFormats)
    return nullptr;
  return &kBfpFormatTable[format];
}

uint8_t bfpEncodeWithEvents(const BfpFormatInfo &f, uint32_t bits,
                            uint32_t sharedExp, unsigned &events) {
  int exponent = (bits >> 23) & 0xFF;
  if (exponent == 0) // step 1: zero and denormals
    return 0;
  uint32_t significand = (bits & 0x7FFFFF) | 0x800000u;
  if (f.fp16Exponent) { // step 2
    exponent -= kBfpFp16Rebias;
    if (exponent < 0) {
      exponent = 0;
      significand = 0x800000u;
      events |= bfpClassBit(BfpClass::exponentClamped);
    } else if (exponent > kBfpMaxE5) {
      exponent = kBfpMaxE5;
      significand = 0xFFFFFFu;
      events |= bfpClassBit(BfpClass::exponentClamped);
    }
  }
  int shift = std::max(0, int(sharedExp) - exponent); // step 3
  uint32_t aligned = shift >= 24 ? 0 : significand >> shift;
  unsigned dropped = 24 - f.mantissaBits; // step 4
  uint32_t magnitude = aligned >> dropped;
  uint32_t remainder = aligned & ((1u << dropped) - 1);
  uint32_t half = 1u << (dropped - 1);
  if (remainder == half) {
    events |= bfpClassBit(BfpClass::tie);
    if (magnitude & 1) {
      events |= bfpClassBit(BfpClass::tieRoundedUp);
      ++magnitude;
    }
  } else if (remainder > half) {
    ++magnitude;
  }
  uint32_t maxMagnitude = (1u << f.mantissaBits) - 1;
  if (magnitude > maxMagnitude) {
    magnitude = maxMagnitude;
    events |= bfpClassBit(BfpClass::saturated);
  }
  uint32_t sign = magnitude ? (bits >> 31) << f.mantissaBits : 0; // step 5
  return uint8_t(sign | magnitude);
}

uint32_t bfpDecode(const BfpFormatInfo &f, uint8_t datum, uint32_t sharedExp) {
  uint32_t sign = uint32_t((datum >> f.mantissaBits) & 1) << 31;
  uint32_t magnitude = datum & ((1u << f.mantissaBits) - 1);
  if (magnitude == 0)
    return sign;
  int lead = 31 - __builtin_clz(magnitude);
  int leadingZeros = int(f.mantissaBits) - 1 - lead;
  uint32_t fraction = (magnitude & ((1u << lead) - 1)) << (23 - lead);
  uint32_t exponent =
      f.fp16Exponent
          ? uint32_t(int(sharedExp & 31) - leadingZeros + kBfpFp16Rebias)
          : uint32_t(int(sharedExp) - leadingZeros) & 0xFF;
  return sign | exponent << 23 | fraction;
}

uint8_t bfpSharedExponent(const BfpFormatInfo &f, const uint32_t *block) {
  int shared = 0;
  for (unsigned i = 0; i < kBfpBlockValues; ++i) {
    int exponent = (block[i] >> 23) & 0xFF;
    if (f.fp16Exponent)
      exponent = std::clamp(exponent - kBfpFp16Rebias, 0, kBfpMaxE5);
    shared = std::max(shared, exponent);
  }
  return uint8_t(shared);
}

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

static std::atomic<uint64_t> gTiesSeen{0}, gTiesRoundedUp{0};

void bfpAddTies(const BfpTally &ties) {
  if (uint64_t seen = ties[BfpClass::tie])
    gTiesSeen.fetch_add(seen, std::memory_order_relaxed);
  if (uint64_t roundedUp = ties[BfpClass::tieRoundedUp])
    gTiesRoundedUp.fetch_add(roundedUp, std::memory_order_relaxed);
}

void bfpTieCounters(uint64_t *seen, uint64_t *roundedUp) {
  if (seen)
    *seen = gTiesSeen.load(std::memory_order_relaxed);
  if (roundedUp)
    *roundedUp = gTiesRoundedUp.load(std::memory_order_relaxed);
}

void bfpTieCountersReset() {
  gTiesSeen.store(0, std::memory_order_relaxed);
  gTiesRoundedUp.store(0, std::memory_order_relaxed);
}

} // namespace birsim::core
