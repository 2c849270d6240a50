//===- Bfp.cpp - BFP datums and blocks (docs/Semantics.md 5) --------------===//
#include "birsim/Core/Bfp.h"

#include <cstring>
#include "birsim/Core/Enums.h"
#include "birsim/Core/Float.h"
#include "TextList.h"

#include <algorithm>
#include <atomic>
#include <string>

namespace birsim::core {

// Each BfpFormats.def row must be a format the code can pack (§5), checked
// where the core library is compiled: M <= 7 magnitude bits (the bfp8
// datum is the widest the encoder aligns into), datums that fill whole
// bytes (datumsPerByte, packedBytes), whole bytes of datums in every tile
// shape, and a width the vector paths' datum moves handle (8, 4 or 2).
constexpr bool bfpRowCanWork(unsigned magnitudeBits) {
  unsigned datumBits = magnitudeBits + 1;
  if (magnitudeBits > 7 || 8 % datumBits != 0)
    return false;
  for (const BfpTileShape &shape : kBfpTileShapes)
    if (shape.values() * datumBits % 8 != 0)
      return false;
  return datumBits == 8 || datumBits == 4 || datumBits == 2;
}
#define BIRSIM_BFP_FORMAT(Enumerator, Number, MagnitudeBits, ...)             \
  static_assert(bfpRowCanWork(MagnitudeBits),                                  \
                "BfpFormats.def " #Enumerator ": M <= 7, datums of 8, 4 or 2 " \
                "bits filling whole bytes of every tile shape");
#include "birsim/Core/BfpFormats.def"

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
  if ((f.exponent == BfpExponent::Fp16)) { // step 2
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
  unsigned dropped = 24 - f.magnitudeBits; // step 4
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
  uint32_t maxMagnitude = (1u << f.magnitudeBits) - 1;
  if (magnitude > maxMagnitude) {
    magnitude = maxMagnitude;
    events |= bfpClassBit(BfpClass::saturated);
  }
  uint32_t sign = magnitude ? (bits >> 31) << f.magnitudeBits : 0; // step 5
  return uint8_t(sign | magnitude);
}

uint32_t bfpDecode(const BfpFormatInfo &f, uint8_t datum, uint32_t sharedExp) {
  uint32_t sign = uint32_t((datum >> f.magnitudeBits) & 1) << 31;
  uint32_t magnitude = datum & ((1u << f.magnitudeBits) - 1);
  if (magnitude == 0)
    return sign;
  int lead = 31 - __builtin_clz(magnitude);
  int leadingZeros = int(f.magnitudeBits) - 1 - lead;
  uint32_t fraction = (magnitude & ((1u << lead) - 1)) << (23 - lead);
  // "a": S + 112 - lz on the whole exponent byte, shifted into place as
  // tt-metal's unpacker does (bfloat8.cpp @04b3405, 32-bit lanes): for a
  // byte of 32 or more, which no packer writes, bit 8 lands on the sign
  // (D31).
  uint32_t exponent =
      (f.exponent == BfpExponent::Fp16)
          ? uint32_t(int(sharedExp & 0xFF) - leadingZeros + kBfpFp16Rebias)
          : uint32_t(int(sharedExp) - leadingZeros) & 0xFF;
  return sign | exponent << 23 | fraction;
}

uint8_t bfpSharedExponent(const BfpFormatInfo &f, const uint32_t *block) {
  int shared = 0;
  for (unsigned i = 0; i < kBfpBlockValues; ++i) {
    int exponent = (block[i] >> 23) & 0xFF;
    if ((f.exponent == BfpExponent::Fp16))
      exponent = std::clamp(exponent - kBfpFp16Rebias, 0, kBfpMaxE5);
    shared = std::max(shared, exponent);
  }
  return uint8_t(shared);
}

//===-- The Tensix packer and unpacker (§5, the device's bytes [ttsim]) ---===//

const BfpSiteInfo *lookupBfpSite(int site) {
  if (site < 0 || site >= kNumBfpSites)
    return nullptr;
  return &kBfpSiteTable[site];
}

/// Magnitudes below bf16's smallest normal become +0.
static uint32_t flushBelowNormal16(uint32_t v) {
  return (v & 0x7FFF) < 0x80 ? 0 : v;
}
/// One bit fewer of mantissa, ties away from zero (the bfp8 intermediate's
/// E8M6); a carry moves into the exponent.
static uint32_t roundToE8M6(uint32_t v) { return (v + 1) & ~1u; }

// Each BfpSites.def row's value step must be one bfpDeviceValue and the
// lanes implement: the host has none; a device site a Dest of fp32, bf16
// or fp16; fp16 exactly with the E5M6 rule (its clamp is its NaN rule); a
// NaN kept only by an fp32 Dest's plain truncation (a rounding would carry
// it out of its form).
constexpr bool bfpSiteRowCanWork(const BfpSiteInfo &s) {
  bool none = s.nan == BfpSiteNaN::none && s.flush == BfpSiteFlush::none &&
              s.rounding == BfpSiteRounding::none;
  if (!s.onDevice())
    return none;
  bool fp16 = s.dest == BfpSiteDest::float16;
  bool e5m6 = s.rounding == BfpSiteRounding::e5m6;
  bool clamped = s.nan == BfpSiteNaN::nan_clamped;
  bool kept = s.nan == BfpSiteNaN::nan_kept;
  return (s.dest == BfpSiteDest::float32 || s.dest16()) &&
         s.nan != BfpSiteNaN::none && s.flush != BfpSiteFlush::none &&
         s.rounding != BfpSiteRounding::none && fp16 == e5m6 &&
         e5m6 == clamped &&
         (!kept || (s.dest == BfpSiteDest::float32 &&
                    s.rounding == BfpSiteRounding::keep16));
}
#define BIRSIM_BFP_SITE(Enumerator, ...)                                       \
  static_assert(bfpSiteRowCanWork(bfpSiteRow(BfpSite::Enumerator)),            \
                "BfpSites.def " #Enumerator ": a value step the packer "       \
                "implements: an fp32, bf16 or fp16 Dest; fp16 with e5m6 and "  \
                "nan_clamped, no other; nan_kept only with an fp32 Dest and "  \
                "keep16; the host with none");
#include "birsim/Core/BfpSites.def"

uint16_t bfpDeviceValue(BfpSite site, uint32_t bits) {
  const BfpSiteInfo &s = bfpSiteRow(site);
  if (s.rounding == BfpSiteRounding::e5m6) { // clamped, rounded, rebiased
    uint32_t h = bits & 0xFFFF;
    if ((h & 0x7FFF) > 0x7FF7)
      h = (h & 0x8000) | 0x7FF0;
    h = ((h + 8) & ~15u) & 0xFFFF;
    if ((h & 0x7FFF) < 0x400)
      return 0;
    uint32_t e = (h >> 10) & 0x1F, m = h & 0x3FF;
    return uint16_t((h & 0x8000) | (e + kBfpFp16Rebias) << 7 | m >> 3);
  }
  // fp32: its top half (a NaN whose top half reads as Inf is Inf after
  // the truncation either way); bf16 as it is.
  uint32_t v = s.dest == BfpSiteDest::float32 ? bits >> 16 : bits & 0xFFFF;
  if (s.nan == BfpSiteNaN::nan_to_inf && (v & 0x7FFF) > 0x7F80)
    v = (v & 0x8000) | 0x7F80;
  if (s.flush == BfpSiteFlush::flush_before_rounding)
    v = flushBelowNormal16(v);
  if (s.rounding == BfpSiteRounding::e8m6)
    v = roundToE8M6(v);
  if (s.flush == BfpSiteFlush::flush_after_rounding)
    v = flushBelowNormal16(v);
  return uint16_t(v);
}

uint8_t bfpDeviceBlock(const uint16_t *values, unsigned magnitudeBits,
                       uint8_t *datums) {
  unsigned shared = 0; // 255 an ordinary exponent
  for (unsigned j = 0; j < kBfpBlockValues; ++j)
    shared = std::max(shared, unsigned(values[j] >> 7) & 0xFF);
  for (unsigned j = 0; j < kBfpBlockValues; ++j) {
    unsigned e = (values[j] >> 7) & 0xFF;
    unsigned m = (values[j] & 0x7F) | (e ? 0x80 : 0);
    unsigned shift = shared - e;
    // Aligned with one rounding, half away from zero; 128 saturates.
    m = shift >= 8 ? 0 : std::min((m + (1u << shift)) >> (shift + 1), 127u);
    m >>= 7 - magnitudeBits; // bfp4, bfp2: the bfp8 datum truncated
    datums[j] = uint8_t(m ? m | (values[j] >> 15) << magnitudeBits : 0);
  }
  return uint8_t(shared);
}

uint32_t bfpDeviceDecode(unsigned magnitudeBits, uint8_t datum,
                         uint8_t shared) {
  // Widened to the bfp8 form: sign on bit 7, magnitude below it.
  auto x = uint8_t(datum << (7 - magnitudeBits));
  uint32_t sign = x >> 7;
  auto mag = uint8_t(x << 1);
  if (!mag) // the sign alone is -Inf
    return sign ? 0xFF800000u : 0;
  unsigned lz = unsigned(__builtin_clz(mag)) - 24;
  mag = uint8_t(mag << lz);
  auto exponent = uint8_t(shared - lz); // modulo 256
  return (sign << 31) | uint32_t(exponent) << 23 | uint32_t(mag & 0x7E) << 16;
}

uint32_t bfpDeviceDiffers(const BfpFormatInfo &f, const uint32_t *destBits,
                          uint32_t hostShared, const uint8_t *hostDatums,
                          BfpSite site) {
  if (f.exponent != BfpExponent::Fp32) // no device path to the "a" formats
    return 0;
  uint16_t values[kBfpBlockValues];
  for (unsigned j = 0; j < kBfpBlockValues; ++j)
    values[j] = bfpDeviceValue(site, destBits[j]);
  uint8_t datums[kBfpBlockValues];
  uint8_t shared = bfpDeviceBlock(values, f.magnitudeBits, datums);
  uint32_t differs = 0;
  for (unsigned j = 0; j < kBfpBlockValues; ++j) {
    uint32_t host = bfpDecode(f, hostDatums[j], hostShared);
    uint32_t device = bfpDeviceDecode(f.magnitudeBits, datums[j], shared);
    bool equal = host == device || (isNaNF32(host) && isNaNF32(device));
    differs |= uint32_t(!equal) << j;
  }
  return differs;
}

bool bfpCountsDeviceAt(const BfpFormatInfo &f, BfpSite site, int srcDtype) {
  const BfpSiteInfo *info = lookupBfpSite(int(site));
  return info && info->onDevice() && f.exponent == BfpExponent::Fp32 &&
         f.magnitudeBits >= info->minMagnitudeBits &&
         (info->dest == BfpSiteDest::float32 || int(info->dest) == srcDtype);
}

static std::atomic<int> gCountedSite{int(BfpSite::fp32_dest)};

BfpSite bfpCountedSite() {
  return BfpSite(gCountedSite.load(std::memory_order_relaxed));
}

Status setBfpCountedSite(int site) {
  const BfpSiteInfo *info = lookupBfpSite(site);
  if (!info || !info->onDevice()) {
    static const std::string text = [] {
      std::vector<std::string> sites;
      for (const BfpSiteInfo &row : kBfpSiteTable)
        if (row.onDevice())
          sites.push_back(std::string(row.name) + " (" +
                          std::to_string(int(row.site)) + ")");
      return "device_differs compares the host with a device site: " +
             textList(sites, ", ");
    }();
    return Status::error(ErrorCode::invalidArgument, site, 0, text.c_str());
  }
  gCountedSite.store(site, std::memory_order_relaxed);
  return Status::success();
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
