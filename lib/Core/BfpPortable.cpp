//===- BfpPortable.cpp - the specification of BFP and MX tiles ------------===//
//
// docs/Semantics.md section 5 as the portable path runs it: the host's
// packer and unpacker block by block, the exponent search, the Tensix
// packer's and unpacker's sites and their device diff, the MX tables, and
// the fidelity tally of a pack. Portable.h's entries (portable::bfpPack,
// ...) are the portable path's kernel table rows; the vector paths are
// tested against them.
//
//===----------------------------------------------------------------------===//
#include "birsim/Core/Bfp.h"
#include "BfpLayout.h"
#include "Kernels/Portable.h"
#include "birsim/Core/Convert.h"
#include "birsim/Core/Fidelity.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace birsim::core {

uint32_t bfpInputBits(const DtypeInfo &dtype, const void *element) {
  uint64_t bits = loadBits(element, dtype.bytes);
  if (dtype.dtype == Dtype::float32)
    return uint32_t(bits);
  if (dtype.dtype == Dtype::bfloat16)
    return uint32_t(bits) << 16; // NaN payloads kept
  return readAsF32(dtype, bits); // integers RNE (§4)
}

/// Packs tiles [firstTile, firstTile + tileCount) of `layout` from `src`
/// into `out`: `block(tile, b, datums)` encodes block b and gives its
/// exponent byte; the datums go in block order from each byte's low bits.
template <typename Block>
static void packWalk(const BfpLayout &layout, const char *src, size_t firstTile,
                     size_t tileCount, uint8_t *out, Block block) {
  const BfpFormatInfo &f = *layout.format;
  const BfpTileShape &shape = layout.shape;
  for (size_t t = 0; t < tileCount; ++t) {
    const char *tile =
        src + layout.origin(firstTile + t) * layout.values->bytes;
    uint8_t *packed = out + t * layout.packedBytes;
    std::fill(packed + shape.blocks(), packed + layout.packedBytes, 0);
    for (unsigned b = 0; b < shape.blocks(); ++b) {
      uint8_t datums[kBfpBlockValues];
      packed[b] = block(tile, b, datums);
      for (unsigned j = 0; j < kBfpBlockValues; ++j) {
        unsigned i = b * kBfpBlockValues + j;
        packed[shape.exponentBytes() + i / f.datumsPerByte()] |=
            uint8_t(datums[j] << (i % f.datumsPerByte()) * f.datumBits);
      }
    }
  }
}

/// The element of value j of block b of a tile.
static const char *elementAt(const BfpLayout &layout, const char *tile,
                             unsigned b, unsigned j) {
  return tile +
         (layout.blockStart[b] + j * layout.valueStep) * layout.values->bytes;
}

/// Whether `site`'s Dest holds float32 (§5, the device's bytes).
static bool fp32DestAt(BfpSite site) {
  return lookupBfpSite(int(site))->dest == BfpSiteDest::float32;
}
/// A Dest element's bits for a device path: a float32 Dest holds the
/// host's fp32 input bits (`hostBits`), a 16-bit Dest the element's own.
static uint32_t destBitsOf(bool fp32Dest, const DtypeInfo &input,
                           const char *element, uint32_t hostBits) {
  return fp32Dest ? hostBits : uint32_t(loadBits(element, input.bytes));
}

/// §5 exponent search (tt-metal PR #57298) on a "b" block: Emax - 1
/// instead of `shared` when its squared error, summed in double in block
/// order, is strictly smaller; then the values above Emax - 1 become its
/// largest magnitude (sign | (Emax - 1) << 23 | 0x7FFFFF). Skipped for
/// Emax <= W (the datum's magnitude bits) and Emax = 255 (Inf or NaN).
static uint8_t searchExponent(const BfpFormatInfo &f, uint32_t *block,
                              uint8_t shared) {
  unsigned w = f.magnitudeBits;
  if (shared <= w || shared == 255)
    return shared;
  uint32_t mask = (1u << w) - 1, lower = shared - 1u;
  double scale = std::ldexp(1.0, int(shared) - 127 - int(w - 1));
  double err0 = 0, err1 = 0;
  BfpTally trial; // the trials' ties are not the pack's
  for (unsigned j = 0; j < kBfpBlockValues; ++j) {
    uint32_t v = block[j], sign = v >> 31;
    uint8_t o = bfpEncode(f, v, shared, trial);
    uint8_t l = ((v >> 23) & 0xFF) > lower ? uint8_t(sign << w | mask)
                                           : bfpEncode(f, v, lower, trial);
    float x;
    std::memcpy(&x, &v, 4);
    double q0 = double(o & mask) * scale, q1 = double(l & mask) * (scale * 0.5);
    if (o >> w & 1)
      q0 = -q0;
    if (l >> w & 1)
      q1 = -q1;
    double d0 = double(x) - q0, d1 = double(x) - q1;
    err0 += d0 * d0;
    err1 += d1 * d1;
  }
  if (!(err1 < err0))
    return shared;
  for (unsigned j = 0; j < kBfpBlockValues; ++j)
    if (((block[j] >> 23) & 0xFF) > lower)
      block[j] = (block[j] & 0x80000000u) | lower << 23 | 0x7FFFFFu;
  return uint8_t(lower);
}

/// The portable packer (§5 steps 1-5, block by block); with `search`, the
/// exponent search, and device_differs at `countedSite` (bfpCountsDeviceAt)
/// against the searched bytes.
static void packTiles(const BfpLayout &layout, const char *src,
                      size_t firstTile, size_t tileCount, uint8_t *out,
                      BfpTally &tally, bool countEvents, bool search = false,
                      BfpSite countedSite = BfpSite::fp32_dest) {
  const BfpFormatInfo &f = *layout.format;
  bool device = search && countEvents &&
                bfpCountsDeviceAt(f, countedSite, int(layout.values->dtype));
  bool fp32Dest = fp32DestAt(countedSite);
  packWalk(layout, src, firstTile, tileCount, out,
           [&](const char *tile, unsigned b, uint8_t *datums) {
             uint32_t block[kBfpBlockValues], dest[kBfpBlockValues];
             for (unsigned j = 0; j < kBfpBlockValues; ++j) {
               const char *element = elementAt(layout, tile, b, j);
               block[j] = bfpInputBits(*layout.values, element);
               dest[j] = destBitsOf(fp32Dest, *layout.values, element, block[j]);
             }
             uint8_t shared = bfpSharedExponent(f, block);
             if (search)
               shared = searchExponent(f, block, shared);
             for (unsigned j = 0; j < kBfpBlockValues; ++j)
               datums[j] = bfpEncode(f, block[j], shared, tally, countEvents);
             if (device) {
               tally[BfpClass::deviceDiffers] += unsigned(__builtin_popcount(
                   bfpDeviceDiffers(f, dest, shared, datums, countedSite)));
             }
             return shared;
           });
}

/// Decodes tiles [firstTile, firstTile + tileCount) of `packed` into the
/// fp32 values of `layout`: `decode(datum, exponent byte)` gives fp32 bits.
template <typename Decode>
static void unpackWalk(const BfpLayout &layout, const uint8_t *packed,
                       size_t firstTile, size_t tileCount, char *dst,
                       Decode decode) {
  const BfpFormatInfo &f = *layout.format;
  const BfpTileShape &shape = layout.shape;
  uint8_t datumMask = uint8_t((1u << f.datumBits) - 1);
  for (size_t t = 0; t < tileCount; ++t) {
    const uint8_t *in = packed + t * layout.packedBytes;
    char *tile = dst + layout.origin(firstTile + t) * 4;
    for (unsigned b = 0; b < shape.blocks(); ++b)
      for (unsigned j = 0; j < kBfpBlockValues; ++j) {
        unsigned i = b * kBfpBlockValues + j;
        uint8_t datum =
            uint8_t(in[shape.exponentBytes() + i / f.datumsPerByte()] >>
                    (i % f.datumsPerByte()) * f.datumBits) &
            datumMask;
        uint32_t value = decode(datum, in[b]);
        std::memcpy(tile + (layout.blockStart[b] + j * layout.valueStep) * 4,
                    &value, 4);
      }
  }
}

/// The portable unpacker (§5 decoding).
static void unpackTiles(const BfpLayout &layout, const uint8_t *packed,
                        size_t firstTile, size_t tileCount, char *dst) {
  const BfpFormatInfo &f = *layout.format;
  unpackWalk(layout, packed, firstTile, tileCount, dst,
             [&](uint8_t datum, uint8_t shared) {
               return bfpDecode(f, datum, shared);
             });
}

//===-- MX tiles (§5 MX tiles) --------------------------------------------===//

/// The fp32 bits of MX block k of a tile: the walk's 16-value blocks 2k and
/// 2k + 1 (32 consecutive values in face order).
static void mxGather(const BfpLayout &layout, const char *tile, unsigned k,
                     uint32_t *block) {
  if (layout.valueStep == 1 && layout.values->dtype == Dtype::float32) {
    for (unsigned half = 0; half < 2; ++half) // two face rows of 16
      std::memcpy(block + 16 * half,
                  tile + layout.blockStart[2 * k + half] * 4, 64);
    return;
  }
  for (unsigned j = 0; j < kMxBlockValues; ++j)
    block[j] = bfpInputBits(*layout.values,
                            elementAt(layout, tile, 2 * k + j / 16, j % 16));
}

void mxStoreCodes(const BfpFormatInfo &f, const uint32_t *codes,
                  uint8_t *slots) {
  unsigned perByte = f.datumsPerByte(), shift = f.datumBits - f.elementBits;
  for (unsigned j = 0; j < kMxBlockValues; j += perByte) {
    uint32_t byte = 0;
    for (unsigned s = 0; s < perByte; ++s)
      byte |= (codes[j + s] << shift) << (s * f.datumBits);
    slots[j / perByte] = uint8_t(byte);
  }
}

/// Calls visit(index, element bits of MX block k, value j) over a tile's
/// values (index: the flat input index).
template <typename Visit>
static void mxVisitTile(const BfpLayout &layout, size_t t, unsigned k,
                        Visit visit) {
  for (unsigned j = 0; j < kMxBlockValues; ++j)
    visit(layout.origin(t) + layout.blockStart[2 * k + j / 16] +
              (j % 16) * layout.valueStep,
          j);
}

/// mxEncode's magnitude code of every positive normal scaled value by its
/// exponent field, its top `kMxKeptBits` mantissa bits and a sticky bit
/// (which is all the element rounding reads: kept bits, round bit, sticky,
/// for elements of at most 8 bits).
constexpr unsigned kMxKeptBits = 8;
struct MxEncodeTable {
  std::vector<uint8_t> code; ///< by mxEncodeKey
};
static unsigned mxEncodeKey(uint32_t field, uint32_t magnitude) {
  constexpr unsigned dropped = 23 - kMxKeptBits;
  return field << (kMxKeptBits + 1) |
         ((magnitude >> dropped) & ((1u << kMxKeptBits) - 1)) << 1 |
         unsigned((magnitude & ((1u << dropped) - 1)) != 0);
}
static const MxEncodeTable &mxEncodeTable(const BfpFormatInfo &f) {
  static const auto tables = [] {
    std::vector<MxEncodeTable> all(kNumBfpFormats);
    for (const BfpFormatInfo &row : kMxFormats) {
      std::vector<uint8_t> &code = all[size_t(row.format)].code;
      code.resize(size_t(256) << (kMxKeptBits + 1));
      for (uint32_t field = 1; field < 255; ++field)
        for (uint32_t top = 0; top < (1u << kMxKeptBits); ++top)
          for (uint32_t sticky = 0; sticky < 2; ++sticky) {
            uint32_t bits = field << 23 | top << (23 - kMxKeptBits) | sticky;
            code[mxEncodeKey(field, bits)] =
                uint8_t(mxEncode(row, bits, uint8_t(kMxScaleBias)));
          }
    }
    return all;
  }();
  return tables[size_t(f.format)];
}

/// The elements of a block under `scale`: mxEncode's codes, through
/// mxEncodeTable for finite non-zero values whose scaled exponent field is
/// normal.
static void mxEncodeBlock(const BfpFormatInfo &f, const MxEncodeTable &table,
                          const uint32_t *block, uint8_t scale,
                          uint32_t *codes) {
  int adjust = int(scale) - kMxScaleBias;
  uint32_t mask = (1u << f.elementBits) - 1,
           signBit = 1u << (f.elementBits - 1);
  bool integer = f.kind == BfpKind::MxInt;
  for (unsigned j = 0; j < kMxBlockValues; ++j) {
    uint32_t magnitude = block[j] & 0x7FFFFFFFu;
    int field = int(magnitude >> 23) - adjust;
    if (magnitude >= 0x7F800000u || (magnitude >> 23) == 0 || field < 1 ||
        field > 254) {
      codes[j] = mxEncode(f, block[j], scale);
      continue;
    }
    uint32_t code = table.code[mxEncodeKey(uint32_t(field), magnitude)];
    bool negative = block[j] >> 31;
    codes[j] = !negative ? code : integer ? (0u - code) & mask : code | signBit;
  }
}

/// The MX packer: per block the scale byte and the elements, each in the
/// low bits of its storage slot shifted to the top (fp6: bits 7..2),
/// element 0 lowest.
void bfpPackMxTiles(const BfpLayout &layout, const char *src,
                        size_t firstTile, size_t tileCount, uint8_t *out,
                        MxTally *tally) {
  const BfpFormatInfo &f = *layout.format;
  unsigned blocks = layout.shape.values() / kMxBlockValues,
           scaleBytes = mxScaleBytes(layout);
  const MxEncodeTable *table = tally ? nullptr : &mxEncodeTable(f);
  for (size_t t = 0; t < tileCount; ++t) {
    const char *tile =
        src + layout.origin(firstTile + t) * layout.values->bytes;
    uint8_t *packed = out + t * layout.packedBytes;
    std::fill(packed, packed + layout.packedBytes, 0);
    for (unsigned k = 0; k < blocks; ++k) {
      uint32_t block[kMxBlockValues], codes[kMxBlockValues];
      mxGather(layout, tile, k, block);
      if (table) {
        packed[k] = mxScale(f, block);
        mxEncodeBlock(f, *table, block, packed[k], codes);
      } else {
        packed[k] = mxBlock(f, block, codes, tally);
      }
      mxStoreCodes(f, codes,
                   packed + scaleBytes + k * kMxBlockValues * f.datumBits / 8);
    }
  }
}

/// Each element code's mxDecode at scale 127, and the exponent fields its
/// finite non-zero values take: where a block's scale keeps them normal,
/// its decode is that value with the scale added to the exponent field.
struct MxDecodeTable {
  uint32_t bits[256];
  bool scales[256]; ///< a finite non-zero value
  int minField = 255, maxField = 0;
};
static const MxDecodeTable &mxDecodeTable(const BfpFormatInfo &f) {
  static const auto tables = [] {
    std::vector<MxDecodeTable> all(kNumBfpFormats);
    for (const BfpFormatInfo &row : kMxFormats) {
      MxDecodeTable &t = all[size_t(row.format)];
      for (uint32_t code = 0; code < 256; ++code) {
        t.bits[code] = mxDecode(row, code & ((1u << row.elementBits) - 1),
                                uint8_t(kMxScaleBias));
        int field = int(t.bits[code] >> 23 & 0xFF);
        t.scales[code] = field != 0 && field != 0xFF;
        if (t.scales[code]) {
          t.minField = std::min(t.minField, field);
          t.maxField = std::max(t.maxField, field);
        }
      }
    }
    return all;
  }();
  return tables[size_t(f.format)];
}

/// The MX unpacker (§5 MX decoding).
static void unpackMxTiles(const BfpLayout &layout, const uint8_t *packed,
                          size_t firstTile, size_t tileCount, char *dst) {
  const BfpFormatInfo &f = *layout.format;
  unsigned blocks = layout.shape.values() / kMxBlockValues,
           scaleBytes = mxScaleBytes(layout),
           shift = f.datumBits - f.elementBits,
           slotMask = (1u << f.datumBits) - 1;
  const MxDecodeTable &table = mxDecodeTable(f);
  for (size_t t = 0; t < tileCount; ++t) {
    const uint8_t *in = packed + t * layout.packedBytes;
    for (unsigned k = 0; k < blocks; ++k) {
      int adjust = int(in[k]) - kMxScaleBias;
      bool byField = in[k] != 0xFF && table.minField + adjust >= 1 &&
                     table.maxField + adjust <= 254;
      uint32_t step = uint32_t(adjust) << 23;
      mxVisitTile(layout, firstTile + t, k, [&](size_t index, unsigned j) {
        size_t bit = size_t(k * kMxBlockValues + j) * f.datumBits;
        uint32_t code =
            ((in[scaleBytes + bit / 8] >> (bit % 8)) & slotMask) >> shift;
        uint32_t value = !byField          ? mxDecode(f, code, in[k])
                         : table.scales[code] ? table.bits[code] + step
                                              : table.bits[code];
        std::memcpy(dst + index * 4, &value, 4);
      });
    }
  }
}

/// The mx_pack events of tiles [begin, end), by input index.
static void tallyMxLayout(const BfpLayout &layout, const void *src,
                          size_t begin, size_t end, FidelityTally &tally) {
  const BfpFormatInfo &f = *layout.format;
  auto *in = static_cast<const char *>(src);
  unsigned blocks = layout.shape.values() / kMxBlockValues;
  tally.elements[int(FidelityFamily::mx_pack)] +=
      (end - begin) * layout.shape.values();
  for (size_t t = begin; t < end; ++t)
    for (unsigned k = 0; k < blocks; ++k) {
      uint32_t block[kMxBlockValues];
      mxGather(layout, in + layout.origin(t) * layout.values->bytes, k, block);
      uint8_t scale = mxScale(f, block);
      mxVisitTile(layout, t, k, [&](size_t index, unsigned j) {
        unsigned events = 0;
        mxEncodeWithEvents(f, block[j], scale, events);
        for (int c = 0; c < MxTally::kClasses; ++c)
          if (events >> c & 1)
            tally.record(mxPackEventOf(MxClass(c)), index);
      });
    }
}

/// The Tensix packer at `site` (§5, the device's bytes): each block's
/// values through the path's per-value step, then the block rule; the
/// host's tile layout.
static void packTilesAt(const BfpLayout &layout, BfpSite site, const char *src,
                        size_t firstTile, size_t tileCount, uint8_t *out) {
  unsigned magnitudeBits = layout.format->magnitudeBits,
           bytes = layout.values->bytes;
  packWalk(layout, src, firstTile, tileCount, out,
           [&](const char *tile, unsigned b, uint8_t *datums) {
             uint16_t values[kBfpBlockValues];
             for (unsigned j = 0; j < kBfpBlockValues; ++j)
               values[j] = bfpDeviceValue(
                   site,
                   uint32_t(loadBits(elementAt(layout, tile, b, j), bytes)));
             return bfpDeviceBlock(values, magnitudeBits, datums);
           });
}

/// The unpacker's decode (bfp8_to_bf16) of every datum.
static void unpackTilesAt(const BfpLayout &layout, const uint8_t *packed,
                          size_t firstTile, size_t tileCount, char *dst) {
  unsigned magnitudeBits = layout.format->magnitudeBits;
  unpackWalk(layout, packed, firstTile, tileCount, dst,
             [&](uint8_t datum, uint8_t shared) {
               return bfpDeviceDecode(magnitudeBits, datum, shared);
             });
}

/// The portable device diff of tiles [firstTile, firstTile + tileCount):
/// per block, the host's datums of the Dest's values widened exactly, then
/// bfpDeviceDiffers; mask[i] where not null; the number differing.
static uint64_t deviceDiffTiles(const BfpLayout &layout, BfpSite site,
                                const char *src, size_t firstTile,
                                size_t tileCount, uint8_t *mask) {
  const BfpFormatInfo &f = *layout.format;
  const DtypeInfo &input = *layout.values;
  bool fp32Dest = fp32DestAt(site);
  uint64_t differing = 0;
  for (size_t t = firstTile; t < firstTile + tileCount; ++t) {
    size_t origin = layout.origin(t);
    for (unsigned b = 0; b < layout.shape.blocks(); ++b) {
      uint32_t host[kBfpBlockValues], dest[kBfpBlockValues];
      size_t index[kBfpBlockValues];
      for (unsigned j = 0; j < kBfpBlockValues; ++j) {
        index[j] = origin + layout.blockStart[b] + j * layout.valueStep;
        const char *element = src + index[j] * input.bytes;
        host[j] = bfpInputBits(input, element); // 16-bit floats exactly
        dest[j] = destBitsOf(fp32Dest, input, element, host[j]);
      }
      uint8_t hostShared = bfpSharedExponent(f, host);
      uint8_t hostDatums[kBfpBlockValues];
      BfpTally ignored;
      for (unsigned j = 0; j < kBfpBlockValues; ++j)
        hostDatums[j] = bfpEncode(f, host[j], hostShared, ignored);
      uint32_t differs =
          bfpDeviceDiffers(f, dest, hostShared, hostDatums, site);
      differing += unsigned(__builtin_popcount(differs));
      if (mask)
        for (unsigned j = 0; j < kBfpBlockValues; ++j)
          mask[index[j]] = uint8_t(differs >> j & 1);
    }
  }
  return differing;
}

//===-- The portable path's BFP kernels (Portable.h) ----------------------===//

void portable::bfpPack(const BfpLayout &layout, BfpSite site, const void *src,
                       size_t firstTile, size_t tileCount, void *out,
                       BfpTally &tally, bool countEvents, bool search) {
  auto *in = static_cast<const char *>(src);
  auto *bytes = static_cast<uint8_t *>(out);
  if (site == BfpSite::host)
    packTiles(layout, in, firstTile, tileCount, bytes, tally, countEvents,
              search, bfpCountedSite());
  else
    packTilesAt(layout, site, in, firstTile, tileCount, bytes);
}

void portable::bfpUnpack(const BfpLayout &layout, BfpSite site,
                         const void *packed, size_t firstTile,
                         size_t tileCount, void *dst) {
  auto *in = static_cast<const uint8_t *>(packed);
  if (site == BfpSite::host)
    unpackTiles(layout, in, firstTile, tileCount, static_cast<char *>(dst));
  else
    unpackTilesAt(layout, in, firstTile, tileCount, static_cast<char *>(dst));
}

uint64_t portable::bfpDeviceDiff(const BfpLayout &layout, BfpSite site,
                                 const void *src, size_t firstTile,
                                 size_t tileCount, uint8_t *mask) {
  return deviceDiffTiles(layout, site, static_cast<const char *>(src),
                         firstTile, tileCount, mask);
}

void portable::mxPack(const BfpLayout &layout, const void *src,
                      size_t firstTile, size_t tileCount, void *out) {
  bfpPackMxTiles(layout, static_cast<const char *>(src), firstTile, tileCount,
              static_cast<uint8_t *>(out), nullptr);
}

void portable::mxUnpack(const BfpLayout &layout, const void *packed,
                        size_t firstTile, size_t tileCount, void *dst) {
  unpackMxTiles(layout, static_cast<const uint8_t *>(packed), firstTile,
                tileCount, static_cast<char *>(dst));
}

void portable::bfpGather(const BfpLayout &layout, const void *src,
                         size_t tile, float *out) {
  auto *in = static_cast<const char *>(src);
  const DtypeInfo &input = *layout.values;
  size_t origin = layout.origin(tile);
  for (unsigned b = 0; b < layout.shape.blocks(); ++b)
    for (unsigned j = 0; j < kBfpBlockValues; ++j) {
      size_t at = origin + layout.blockStart[b] + j * layout.valueStep;
      uint32_t bits = bfpInputBits(input, in + at * input.bytes);
      std::memcpy(&out[b * kBfpBlockValues + j], &bits, 4);
    }
}

//===-- The fidelity tally of a pack (docs/Fidelity.md, bfp_pack) ---------===//

/// Tallies tiles [begin, end) of `layout` (BfpLayout.h) read from `src`.
static void tallyBfpLayout(const BfpLayout &layout, const void *src,
                           size_t begin, size_t end, FidelityTally &tally,
                           BfpSite countedSite, bool search) {
  const BfpFormatInfo &f = *layout.format;
  const DtypeInfo &input = *layout.values;
  bool counted = bfpCountsDeviceAt(f, countedSite, int(input.dtype));
  bool fp32Dest = fp32DestAt(countedSite);
  auto *in = static_cast<const char *>(src);
  tally.elements[int(FidelityFamily::bfp_pack)] +=
      (end - begin) * layout.shape.values();
  for (size_t t = begin; t < end; ++t)
    for (unsigned b = 0; b < layout.shape.blocks(); ++b) {
      uint32_t block[kBfpBlockValues], dest[kBfpBlockValues];
      uint64_t index[kBfpBlockValues];
      for (unsigned j = 0; j < kBfpBlockValues; ++j) {
        index[j] = layout.origin(t) + layout.blockStart[b] + j * layout.valueStep;
        const char *element = in + index[j] * input.bytes;
        block[j] = bfpInputBits(input, element);
        dest[j] = destBitsOf(fp32Dest, input, element, block[j]);
      }
      uint8_t shared = bfpSharedExponent(f, block);
      if (search)
        shared = searchExponent(f, block, shared);
      uint8_t datums[kBfpBlockValues];
      unsigned events[kBfpBlockValues] = {};
      for (unsigned j = 0; j < kBfpBlockValues; ++j)
        datums[j] = bfpEncodeWithEvents(f, block[j], shared, events[j]);
      uint32_t differs =
          counted ? bfpDeviceDiffers(f, dest, shared, datums, countedSite) : 0;
      for (unsigned j = 0; j < kBfpBlockValues; ++j) {
        if (bfpFlushedToZero(f, block[j], datums[j]))
          events[j] |= bfpClassBit(BfpClass::flushedToZero);
        if (differs >> j & 1)
          events[j] |= bfpClassBit(BfpClass::deviceDiffers);
        for (int c = 0; c < BfpTally::kClasses; ++c)
          if (FidelityEvent e = bfpPackEventOf(BfpClass(c));
              (events[j] >> c & 1) && e != kNoFidelityEvent)
            tally.record(e, index[j]);
      }
    }
}

Status tallyBfpPack(const BfpCall &call, int srcDtype, const void *src,
                    FidelityTally &tally, BfpSite countedSite) {
  BfpLayout layout;
  uint64_t tiles;
  if (Status s = bfpLayoutOf(call, srcDtype, layout, tiles))
    return s;
  if (Status s = bfpCheckPackAt(call, srcDtype))
    return s;
  if (layout.format->isMx())
    tallyMxLayout(layout, src, 0, size_t(tiles), tally);
  else
    tallyBfpLayout(layout, src, 0, size_t(tiles), tally, countedSite,
                   call.flags & kBfpFlag_exp_search);
  return Status::success();
}

} // namespace birsim::core
