//===- Bfp.cpp - BFP datums and blocks (docs/Semantics.md 5) --------------===//
#include "birsim/Core/Bfp.h"

#include <cstring>
#include "birsim/Core/Enums.h"
#include "birsim/Core/Float.h"

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
