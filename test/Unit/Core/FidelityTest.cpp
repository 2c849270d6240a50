//===- FidelityTest.cpp - fidelity counts against independent oracles -----===//
//
// The core's per-element classification (birsim/Core/Fidelity.h) against
// classifications written from docs/Fidelity.md with APFloat (casts, fp8
// add) and with double arithmetic (BFP), sharing no code with lib/Core's
// classification; then the bulk tallies against per-element brute force.
//
//===----------------------------------------------------------------------===//
#include "DtypeRows.h"
#include "Oracle.h"

#include "birsim/Core/Bfp.h"
#include "birsim/Core/Cast.h"
#include "birsim/Core/Fidelity.h"
#include "birsim/Core/Reduce.h"
#include "Kernels/Kernels.h" // lib/Core, private

#include "llvm/ADT/APSInt.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <iterator>
#include <string>
#include <random>
#include <vector>

using namespace birsim::core;
using llvm::APFloat;

namespace {

/// A call on `tiles` row-major 32x32 tiles.
BfpCall f32Tiles(int format, size_t tiles) {
  BfpCall call;
  call.format = format;
  call.tileRows = call.tileCols = kBfpTileSide;
  call.tiles = tiles;
  return call;
}

/// The exact value of an element of any castable dtype, in IEEE quad (every
/// such value is exact there).
APFloat exactQuad(const DtypeInfo &d, uint64_t bits) {
  APFloat q(APFloat::IEEEquad());
  bool losesInfo;
  switch (d.kind) {
  case DtypeKind::Float:
  case DtypeKind::Float32:
  case DtypeKind::Float32r:
    q = oracle::fromBits(d.kind == DtypeKind::Float ? d.dtype : Dtype::float32,
                         bits);
    q.convert(APFloat::IEEEquad(), APFloat::rmNearestTiesToEven, &losesInfo);
    return q;
  case DtypeKind::SignedInt: {
    unsigned shift = 64 - 8u * d.bytes;
    int64_t v = int64_t(bits << shift) >> shift;
    q.convertFromAPInt(llvm::APInt(64, uint64_t(v), true), true,
                       APFloat::rmNearestTiesToEven);
    return q;
  }
  default:
    q.convertFromAPInt(llvm::APInt(64, bits), false,
                       APFloat::rmNearestTiesToEven);
    return q;
  }
}

/// docs/Fidelity.md's cast rules over exact values.
FidelityEvent oracleCast(const DtypeInfo &from, const DtypeInfo &to,
                         uint64_t bits, unsigned config) {
  if (&from == &to)
    return kNoFidelityEvent;
  APFloat in = exactQuad(from, bits);
  APFloat out = exactQuad(to, writeFromF32(to, readAsF32(from, bits), config));
  if (in.isNaN())
    return out.isNaN() ? kNoFidelityEvent : FidelityEvent::cast_nan_suppressed;
  // The value the engine narrows: the input rounded to fp32 (§4 hub).
  APFloat hub = in;
  bool losesInfo;
  hub.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &losesInfo);
  bool clamped = false;
  if (to.kind == DtypeKind::SignedInt || to.kind == DtypeKind::UnsignedInt) {
    llvm::APSInt r(8 * to.bytes, to.kind == DtypeKind::UnsignedInt);
    bool exact;
    clamped = hub.convertToInteger(r, APFloat::rmNearestTiesToEven, &exact) &
              APFloat::opInvalidOp;
  } else if (to.isFp8() && (config & 1)) {
    APFloat r = oracle::convert(hub, to.dtype);
    clamped = r.isInfinity() || r.isNaN();
  }
  if (in.isInfinity())
    return clamped ? FidelityEvent::cast_saturated : kNoFidelityEvent;
  if (out.isInfinity())
    return FidelityEvent::cast_overflow_to_inf;
  if (out.isNaN())
    return FidelityEvent::cast_overflow_to_nan;
  if (clamped)
    return FidelityEvent::cast_saturated;
  if (out.isZero() && !in.isZero())
    return FidelityEvent::cast_underflow_to_zero;
  return in.compare(out) == APFloat::cmpEqual ? kNoFidelityEvent
                                              : FidelityEvent::cast_inexact;
}

std::vector<const DtypeInfo *> castableDtypes() {
  std::vector<const DtypeInfo *> all;
  for (int d = 0; d < kNumDtypes; ++d)
    if (isCastable(*lookupDtype(d)))
      all.push_back(lookupDtype(d));
  return all;
}

constexpr unsigned kConfigs[] = {0x0000, 0x0001, 0xFF00, 0xFF01};

TEST(Fidelity, CastClassificationMatchesOracle) {
  oracle::F32Generator gen(0xF1DE);
  size_t seen[kNumFidelityEvents + 1] = {}; // kNoFidelityEvent last
  for (const DtypeInfo *from : castableDtypes())
    for (const DtypeInfo *to : castableDtypes())
      for (unsigned config : kConfigs) {
        CastClassifier inLoop(*from, *to, config);
        auto check = [&](uint64_t bits) {
          FidelityEvent want = oracleCast(*from, *to, bits, config);
          ASSERT_EQ(classifyCast(*from, *to, bits, config), want)
              << from->name << " -> " << to->name << " config " << config
              << " bits 0x" << std::hex << bits;
          uint32_t hub = readAsF32(*from, bits);
          ASSERT_EQ(inLoop.classify(bits, hub, writeFromF32(*to, hub, config)),
                    want)
              << "CastClassifier " << from->name << " -> " << to->name
              << " config " << config << " bits 0x" << std::hex << bits;
          ++seen[int(want)];
        };
        if (from->bytes == 1) {
          for (uint64_t b = 0; b < 256; ++b)
            check(b);
          continue;
        }
        if (from->dtype == Dtype::float32) // integer range edges, both sides
          for (float edge : {0.5f, 1.0f, 127.5f, 128.0f, 255.5f, 256.0f,
                             32767.5f, 32768.0f, 65535.5f, 65536.0f, 2147483648.0f,
                             4294967296.0f, 9223372036854775808.0f,
                             18446744073709551616.0f})
            for (float v : {edge, std::nextafter(edge, 0.0f),
                            std::nextafter(edge, 1e30f)})
              for (float s : {v, -v}) {
                uint32_t bits;
                std::memcpy(&bits, &s, 4);
                check(bits);
              }
        uint64_t mask =
            from->bytes == 8 ? ~uint64_t(0) : (uint64_t(1) << 8 * from->bytes) - 1;
        for (int i = 0; i < 600; ++i)
          check(from->bytes == 4 && from->format ? gen.next() : gen.bits() & mask);
      }
  // Every event occurs (a classification that never fires cannot fail).
  for (int e = 0; e < kNumFidelityEvents; ++e)
    if (fidelityEventInfo(FidelityEvent(e)).family == FidelityFamily::cast)
      EXPECT_GT(seen[e], 0u) << fidelityEventInfo(FidelityEvent(e)).key;
}

TEST(Fidelity, CastTallyIsPerElementClassification) {
  oracle::F32Generator gen(7);
  std::vector<uint32_t> src(5000);
  for (uint32_t &v : src)
    v = gen.next();
  const DtypeInfo &f32 = dtypeInfo(Dtype::float32);
  for (const DtypeInfo *to : castableDtypes())
    for (unsigned config : kConfigs) {
      FidelityTally want, got;
      for (size_t i = 0; i < src.size(); ++i) {
        FidelityEvent e = oracleCast(f32, *to, src[i], config);
        if (e != kNoFidelityEvent)
          want.record(e, i);
      }
      // Two chunks merged: the tally does not depend on the split.
      FidelityTally second;
      tallyCast(f32, *to, src.data(), 0, 1234, config, got);
      tallyCast(f32, *to, src.data(), 1234, src.size(), config, second);
      got.mergeLocked(second);
      EXPECT_EQ(got.elements[int(FidelityFamily::cast)], src.size());
      for (int e = 0; e < kNumFidelityEvents; ++e) {
        EXPECT_EQ(got.count[e], want.count[e]) << to->name << " " << e;
        EXPECT_EQ(got.first[e], want.first[e]) << to->name << " " << e;
      }
    }
}

TEST(Fidelity, Fp8AddEveryPairMatchesOracle) {
  for (Dtype d : birsim::test::reducingAs(Reduction::Fp8)) {
    const DtypeInfo &info = dtypeInfo(d);
    std::vector<uint8_t> acc(65536), x(65536);
    FidelityTally want;
    for (uint32_t a = 0; a < 256; ++a)
      for (uint32_t b = 0; b < 256; ++b) {
        size_t i = a << 8 | b;
        acc[i] = uint8_t(a);
        x[i] = uint8_t(b);
        APFloat va = oracle::fromBits(d, a), vb = oracle::fromBits(d, b);
        bool expected = false;
        if (va.isFinite() && vb.isFinite()) {
          APFloat sum = oracle::convert(va, Dtype::float32);
          sum.add(oracle::convert(vb, Dtype::float32),
                  APFloat::rmNearestTiesToEven);
          expected = oracle::convert(sum, d).isInfinity();
        }
        ASSERT_EQ(fp8AddOverflows(info, a, b), expected)
            << info.name << " " << a << " + " << b;
        if (expected)
          want.record(FidelityEvent::reduce_sim_inf_device_saturates, i);
      }
    FidelityTally got;
    tallyReduce(int(MemoryReductionOp::add), info, acc.data(), x.data(), 0,
                acc.size(), got);
    int e = int(FidelityEvent::reduce_sim_inf_device_saturates);
    EXPECT_GT(want.count[e], 0u);
    EXPECT_EQ(got.count[e], want.count[e]);
    EXPECT_EQ(got.first[e], want.first[e]);
    EXPECT_EQ(got.elements[int(FidelityFamily::reduce)], 65536u);
    // min/max and non-fp8 dtypes have no reduce events and examine nothing.
    FidelityTally none;
    tallyReduce(int(MemoryReductionOp::max), info, acc.data(), x.data(), 0,
                acc.size(), none);
    tallyReduce(int(MemoryReductionOp::add), dtypeInfo(Dtype::bfloat16),
                acc.data(), x.data(), 0, acc.size() / 2, none);
    EXPECT_EQ(none.elements[int(FidelityFamily::reduce)], 0u);
  }
}

/// docs/Fidelity.md's BFP events in double arithmetic: step 3 truncates,
/// step 4 rounds half to even (§5).
struct BfpOracle {
  bool flushed = false, tie = false, saturated = false, clamped = false;
};
BfpOracle oracleBfp(const BfpFormatInfo &f, uint32_t bits, int shared) {
  BfpOracle o;
  int exponent = (bits >> 23) & 0xFF;
  bool finiteNonZero = exponent != 255 && (bits & 0x7FFFFFFF) != 0;
  if (exponent == 0) {
    o.flushed = finiteNonZero;
    return o;
  }
  double significand = double((bits & 0x7FFFFF) | 0x800000);
  if ((f.exponent == BfpExponent::Fp16)) {
    exponent -= 112;
    if (exponent < 0 || exponent > 31) {
      o.clamped = true;
      significand = exponent < 0 ? double(1 << 23) : double((1 << 24) - 1);
      exponent = exponent < 0 ? 0 : 31;
    }
  }
  int shift = std::max(0, shared - exponent);
  double aligned = shift >= 24 ? 0 : std::floor(significand / std::ldexp(1, shift));
  double q = aligned / std::ldexp(1, 24 - int(f.magnitudeBits));
  double rounded = std::nearbyint(q); // default rounding: half to even
  o.tie = q - std::floor(q) == 0.5;
  o.saturated = rounded > std::ldexp(1, int(f.magnitudeBits)) - 1;
  o.flushed = finiteNonZero && rounded == 0;
  return o;
}

/// The Tensix packer at fp32_dest of docs/Fidelity.md's device_differs
/// (docs/Semantics.md section 5, the device's bytes), brute force in double
/// arithmetic: each value truncated to its top 16 bits, read as
/// (1 + m7 / 128) * 2^(e - 127) with every exponent field 1..255 an
/// ordinary one (a NaN too), field 0 as 0; the block's largest field; the
/// bfp8 datum |x| / 2^(S - 133) rounded half away from zero, at most 127;
/// the narrower formats keep its top bits. "b" formats only.
int oracleDevice(const BfpFormatInfo &f, const uint32_t *block, uint8_t *datums) {
  double values[16];
  int shared = 0;
  for (int j = 0; j < 16; ++j) {
    int e = int(block[j] >> 23) & 0xFF;
    double m7 = double((block[j] >> 16) & 0x7F);
    double v = e == 0 ? 0 : std::ldexp(1 + m7 / 128, e - 127);
    values[j] = (block[j] >> 31) && v != 0 ? -v : v;
    shared = std::max(shared, e);
  }
  for (int j = 0; j < 16; ++j) {
    double v = std::fabs(values[j]);
    double q8 = std::floor(v / std::ldexp(1, shared - 133) + 0.5);
    unsigned q = unsigned(std::min(q8, 127.0)) >> (7 - f.magnitudeBits);
    datums[j] = uint8_t(q ? q | (values[j] < 0) << f.magnitudeBits : 0);
  }
  return shared;
}

/// Decoded values equal, NaN against NaN.
bool sameValue(uint32_t a, uint32_t b) {
  auto nan = [](uint32_t x) { return (x & 0x7FFFFFFFu) > 0x7F800000u; };
  return a == b || (nan(a) && nan(b));
}

/// tt-metal #57410's vectors (BFP4_b): host against hardware datums.
TEST(Fidelity, DeviceModelGivesTtMetal57410Vectors) {
  const BfpFormatInfo &f = *lookupBfpFormat(int(BfpFormat::bfp4_b));
  auto bitsOf = [](float x) {
    uint32_t b;
    std::memcpy(&b, &x, 4);
    return b;
  };
  // One value with its own exponent: {value, host, hardware}.
  const struct { float value; uint8_t host, device; } alone[] = {
      {1.375f, 0b110, 0b101}, {1.6875f, 0b111, 0b110},
      {1.2421875f, 0b101, 0b101}, {1.9921875f, 0b111, 0b111}};
  for (const auto &v : alone) {
    uint32_t bits = bitsOf(v.value);
    BfpTally tally;
    EXPECT_EQ(bfpEncode(f, bits, 127, tally), v.host) << v.value;
    uint32_t block[16] = {bits};
    uint8_t hostDatums[16] = {v.host}, device[16];
    EXPECT_EQ(oracleDevice(f, block, device), 127);
    EXPECT_EQ(device[0], v.device) << v.value;
    EXPECT_EQ(bfpDeviceDiffers(f, block, 127, hostDatums),
              v.host == v.device ? 0u : 1u) << v.value;
  }
  // 3.875 in a block whose largest value is 8.0: host 2 (4.0), hardware 1.
  uint32_t block[16] = {bitsOf(8.0f), bitsOf(3.875f)};
  BfpTally tally;
  EXPECT_EQ(bfpEncode(f, block[1], 130, tally), 2);
  uint8_t device[16];
  EXPECT_EQ(oracleDevice(f, block, device), 130);
  EXPECT_EQ(device[1], 1);
}

TEST(Fidelity, BfpPackMatchesOracleOnEveryFormat) {
  oracle::F32Generator gen(0xBF);
  for (int format = 0; format < kNumBfpDatumFormats; ++format) {
    const BfpFormatInfo &f = *lookupBfpFormat(format);
    std::vector<uint32_t> tiles(4 * kBfpTileValues);
    for (size_t i = 0; i < tiles.size(); ++i)
      tiles[i] = i % 3 ? gen.near(tiles[i - 1]) : gen.next();
    FidelityTally want;
    for (size_t t = 0; t < 4; ++t)
      for (unsigned b = 0; b < kBfpTileBlocks; ++b) {
        int shared = 0;
        for (unsigned j = 0; j < kBfpBlockValues; ++j) {
          int e = (tiles[t * kBfpTileValues + bfpTileIndex(b, j)] >> 23) & 0xFF;
          if ((f.exponent == BfpExponent::Fp16))
            e = std::min(std::max(e - 112, 0), 31);
          shared = std::max(shared, e);
        }
        uint32_t block[16];
        uint8_t hostDatums[16], deviceDatums[16];
        for (unsigned j = 0; j < kBfpBlockValues; ++j) {
          block[j] = tiles[t * kBfpTileValues + bfpTileIndex(b, j)];
          BfpTally ignored;
          hostDatums[j] = bfpEncode(f, block[j], shared, ignored);
        }
        int deviceShared = oracleDevice(f, block, deviceDatums);
        for (unsigned j = 0; j < kBfpBlockValues; ++j) {
          size_t i = t * kBfpTileValues + bfpTileIndex(b, j);
          BfpOracle o = oracleBfp(f, tiles[i], shared);
          if (f.exponent == BfpExponent::Fp32 &&
              !sameValue(bfpDeviceDecode(f.magnitudeBits, deviceDatums[j],
                                         uint8_t(deviceShared)),
                         bfpDecode(f, hostDatums[j], shared)))
            want.record(FidelityEvent::bfp_pack_device_differs, i);
          if (o.flushed)
            want.record(FidelityEvent::bfp_pack_flushed_to_zero, i);
          if (o.tie)
            want.record(FidelityEvent::bfp_pack_rounding_ties, i);
          if (o.saturated)
            want.record(FidelityEvent::bfp_pack_saturated, i);
          if (o.clamped)
            want.record(FidelityEvent::bfp_pack_exponent_clamped, i);
        }
      }
    FidelityTally got;
    ASSERT_TRUE(tallyBfpPack(f32Tiles(int(f.format), 4), int(Dtype::float32),
                             tiles.data(), got)
                    .ok());
    EXPECT_EQ(got.elements[int(FidelityFamily::bfp_pack)], tiles.size());
    for (int e = 0; e < kNumFidelityEvents; ++e) {
      EXPECT_EQ(got.count[e], want.count[e]) << f.name << " event " << e;
      EXPECT_EQ(got.first[e], want.first[e]) << f.name << " event " << e;
    }
    // The tie count is the packer's own tie counter.
    uint64_t before, after;
    bfpTieCounters(&before, nullptr);
    std::vector<uint8_t> packed(4 * f.tileBytes);
    ASSERT_TRUE(bfpPack(format, int(Dtype::float32), tiles.data(), 4, kBfpTileSide, kBfpTileSide, 0, packed.data()).ok());
    bfpTieCounters(&after, nullptr);
    EXPECT_EQ(got.count[int(FidelityEvent::bfp_pack_rounding_ties)],
              after - before);
    // Flushed values are exactly the finite non-zero inputs unpacking to 0.
    std::vector<uint32_t> unpacked(tiles.size());
    ASSERT_TRUE(bfpUnpack(format, packed.data(), 4, kBfpTileSide, kBfpTileSide, 0, unpacked.data()).ok());
    uint64_t flushed = 0;
    for (size_t i = 0; i < tiles.size(); ++i)
      flushed += ((tiles[i] >> 23) & 0xFF) != 255 &&
                 (tiles[i] & 0x7FFFFFFF) != 0 &&
                 (unpacked[i] & 0x7FFFFFFF) == 0;
    EXPECT_EQ(got.count[int(FidelityEvent::bfp_pack_flushed_to_zero)], flushed);
  }
}

// The bulk calls count before they write: an in-place call counts its input.
TEST(Fidelity, BulkCallsCountTheirInputs) {
  std::vector<uint8_t> acc(1000, 0x77), x(1000, 0x77); // E4M3 240 + 240
  FidelityCounts counts;
  ASSERT_TRUE(accumulate(int(MemoryReductionOp::add), acc.data(), x.data(),
                         int(Dtype::float8e4), acc.size(), &counts)
                  .ok());
  EXPECT_EQ(acc[0], 0x78); // +Inf
  EXPECT_EQ(counts.count[int(FidelityEvent::reduce_sim_inf_device_saturates)],
            1000u);
  // In place: x is acc.
  std::vector<uint8_t> same(100, 0x77);
  FidelityCounts inPlace;
  ASSERT_TRUE(accumulate(int(MemoryReductionOp::add), same.data(), same.data(),
                         int(Dtype::float8e4), same.size(), &inPlace)
                  .ok());
  EXPECT_EQ(inPlace.count[int(FidelityEvent::reduce_sim_inf_device_saturates)],
            100u);
  std::vector<int64_t> indices = {3, 3};
  FidelityCounts scatter;
  std::vector<uint8_t> dst(4, 0x70); // 128: 128 + 240 overflows, Inf + x not
  ASSERT_TRUE(scatterAccumulate(int(MemoryReductionOp::add), dst.data(), 4,
                                x.data(), indices.data(), 2,
                                int(Dtype::float8e4), &scatter)
                  .ok());
  EXPECT_EQ(scatter.count[int(FidelityEvent::reduce_sim_inf_device_saturates)],
            1u);
  EXPECT_EQ(scatter.elements[int(FidelityFamily::reduce)], 2u);
  // In-place f32 -> i32: classified from the input.
  std::vector<uint32_t> buf = {0x3FC00000u /*1.5*/, 0x7F800000u /*Inf*/};
  FidelityCounts cast;
  ASSERT_TRUE(castBuffer(int(Dtype::float32), buf.data(), int(Dtype::int32),
                         buf.data(), 2, 1, &cast)
                  .ok());
  EXPECT_EQ(cast.count[int(FidelityEvent::cast_inexact)], 1u);
  EXPECT_EQ(cast.count[int(FidelityEvent::cast_saturated)], 1u);
  // A failed call counts nothing.
  FidelityCounts failed;
  EXPECT_FALSE(accumulate(int(MemoryReductionOp::add), acc.data(), x.data(),
                          int(Dtype::uint8), acc.size(), &failed)
                   .ok());
  EXPECT_EQ(failed.elements[int(FidelityFamily::reduce)], 0u);
}

void expectSameCounts(const FidelityCounts &got, const FidelityCounts &want,
                      const std::string &what) {
  for (int f = 0; f < kNumFidelityFamilies; ++f)
    EXPECT_EQ(got.elements[f], want.elements[f]) << what << " family " << f;
  for (int e = 0; e < kNumFidelityEvents; ++e)
    EXPECT_EQ(got.count[e], want.count[e])
        << what << " " << fidelityEventInfo(FidelityEvent(e)).key;
}

/// Every path's counting bulk calls (the fused vector kernels included)
/// count what the per-element tallies count, on specials and random values,
/// for every narrow float, FP8 config and BFP format, with odd lengths.
// device_differs counts what bfpDeviceDiff counts at fp32_dest (the "b"
// formats; none for "a"), on every path, with blocks full of NaNs of every
// payload, Infs, denormals and carries beside normal values.
TEST(Fidelity, DeviceDiffersIsTheDeviceDiffAtFp32Dest) {
  std::mt19937 rng(57410);
  std::vector<uint32_t> f32(4 * 1024);
  for (uint32_t &v : f32) {
    uint32_t r = rng();
    switch (rng() % 6) {
    case 0: v = (r & 0x807FFFFFu) | 0x7F800000u; break; // NaN, Inf
    case 1: v = r & 0x807FFFFFu; break;                 // zero, denormal
    case 2: v = r | 0x007F8000u; break;                 // carries
    case 3: v = (r & 0x807E0000u) | 0x3F810000u; break;   // bfp8 ties
    default: v = (r & 0x803FFFFFu) | (uint32_t(120 + rng() % 12) << 23);
    }
  }
  Isa saved = activeIsa();
  for (Isa isa : {Isa::portable, bestIsa()}) {
    selectIsa(isa);
    for (const BfpFormatInfo &f : kBfpDatumFormats) {
      BfpCall call = f32Tiles(int(f.format), 4);
      FidelityTally tally;
      ASSERT_TRUE(
          tallyBfpPack(call, int(Dtype::float32), f32.data(), tally).ok());
      FidelityCounts bulk;
      std::vector<uint8_t> out(4 * f.tileBytes);
      ASSERT_TRUE(bfpPack(call, int(Dtype::float32), f32.data(), out.data(),
                          &bulk)
                      .ok());
      uint64_t want = 0;
      if (f.exponent == BfpExponent::Fp32) {
        BfpCall device = call;
        device.site = int(BfpSite::fp32_dest);
        ASSERT_TRUE(bfpDeviceDiff(device, int(Dtype::float32), f32.data(),
                                  nullptr, &want)
                        .ok());
        // bfp8_b differs only on exact ties, which random blocks miss.
        if (f.magnitudeBits < 7)
          EXPECT_GT(want, 0u) << f.name;
      }
      int key = int(FidelityEvent::bfp_pack_device_differs);
      EXPECT_EQ(tally.count[key], want) << isaName(isa) << " " << f.name;
      EXPECT_EQ(bulk.count[key], want) << isaName(isa) << " " << f.name;
    }
  }
  selectIsa(saved);
  // A bfp8_b tie, 1 + 2^-7: the host rounds to even (1.0), the packer half
  // away from zero (1.015625): every element differs.
  std::vector<uint32_t> ties(1024, 0x3F810000u);
  FidelityTally tally;
  ASSERT_TRUE(tallyBfpPack(f32Tiles(0, 1), int(Dtype::float32), ties.data(),
                           tally)
                  .ok());
  EXPECT_EQ(tally.count[int(FidelityEvent::bfp_pack_device_differs)], 1024u);
}

// At every device site (birsim_fidelity_set_device_site, the fidelity
// pass's device-site): the count is the device diff's at that site for the
// packs it counts (a "b" format the site writes, from values its Dest holds
// by type), 0 for the others; the tally's first index is the mask's first.
TEST(Fidelity, DeviceDiffersAtEveryCountedSite) {
  std::mt19937 rng(30);
  std::vector<uint32_t> f32(3 * 1024);
  for (uint32_t &v : f32) {
    uint32_t r = rng();
    v = rng() % 4 ? (r & 0x807FFFFFu) | (uint32_t(124 + rng() % 6) << 23)
                  : r | 0x00FF0000u; // E8M6 carries
  }
  std::vector<uint16_t> bf16(f32.size());
  std::vector<int32_t> i32(f32.size());
  for (size_t i = 0; i < f32.size(); ++i) {
    bf16[i] = uint16_t(f32[i] >> 16);
    i32[i] = int32_t(rng() % 4096) - 2048;
  }
  struct Input {
    Dtype dtype;
    const void *values;
  } inputs[] = {{Dtype::float32, f32.data()},
                {Dtype::bfloat16, bf16.data()},
                {Dtype::int32, i32.data()}};
  BfpSite saved = bfpCountedSite();
  Isa savedIsa = activeIsa();
  for (Isa isa : {Isa::portable, bestIsa()}) {
    selectIsa(isa);
    for (const BfpSiteInfo &site : kBfpSiteTable) {
      if (!site.onDevice())
        continue;
      ASSERT_TRUE(setBfpCountedSite(int(site.site)).ok());
      for (const BfpFormatInfo &f : kBfpDatumFormats)
        for (const Input &input : inputs) {
          BfpCall call = f32Tiles(int(f.format), 3);
          FidelityTally tally;
          ASSERT_TRUE(tallyBfpPack(call, int(input.dtype), input.values,
                                   tally, site.site)
                          .ok());
          FidelityCounts bulk;
          std::vector<uint8_t> out(3 * f.tileBytes);
          ASSERT_TRUE(bfpPack(call, int(input.dtype), input.values,
                              out.data(), &bulk)
                          .ok());
          uint64_t want = 0;
          int64_t first = -1;
          bool counted = bfpCountsDeviceAt(f, site.site, int(input.dtype));
          EXPECT_EQ(counted,
                    f.exponent == BfpExponent::Fp32 &&
                        f.magnitudeBits >= site.minMagnitudeBits &&
                        (site.dest == BfpSiteDest::float32 ||
                         int(site.dest) == int(input.dtype)));
          if (counted) {
            BfpCall device = call;
            device.site = int(site.site);
            // A float32 Dest holds the values as the host reads them.
            std::vector<uint32_t> held(f32.size());
            for (size_t i = 0; i < held.size(); ++i)
              held[i] = input.dtype == Dtype::bfloat16
                            ? uint32_t(bf16[i]) << 16
                        : input.dtype == Dtype::int32
                            ? __builtin_bit_cast(uint32_t, float(i32[i]))
                            : f32[i];
            bool fp32Dest = site.dest == BfpSiteDest::float32;
            std::vector<uint8_t> mask(held.size());
            ASSERT_TRUE(bfpDeviceDiff(device,
                                      fp32Dest ? int(Dtype::float32)
                                               : int(input.dtype),
                                      fp32Dest ? (const void *)held.data()
                                               : input.values,
                                      mask.data(), &want)
                            .ok());
            auto it = std::find(mask.begin(), mask.end(), 1);
            first = it == mask.end() ? -1 : int64_t(it - mask.begin());
            if (f.magnitudeBits < 7)
              EXPECT_GT(want, 0u) << site.name << " " << f.name;
          }
          int key = int(FidelityEvent::bfp_pack_device_differs);
          std::string what = std::string(isaName(isa)) + " " + site.name +
                             " " + f.name + " " +
                             dtypeInfo(input.dtype).name;
          EXPECT_EQ(tally.count[key], want) << what;
          EXPECT_EQ(bulk.count[key], want) << what;
          EXPECT_EQ(tally.first[key], first) << what;
        }
    }
  }
  EXPECT_FALSE(setBfpCountedSite(int(BfpSite::host)).ok());
  EXPECT_FALSE(setBfpCountedSite(kNumBfpSites).ok());
  EXPECT_EQ(std::string(setBfpCountedSite(0).detail),
            "device_differs compares the host with a device site: fp32_dest "
            "(1), fp32_dest_e8m6 (2), bf16_dest (3), bf16_dest_e8m6 (4), "
            "fp16_dest (5)");
  ASSERT_TRUE(setBfpCountedSite(int(saved)).ok());
  selectIsa(savedIsa);
}

TEST(Fidelity, BulkCountsEqualTalliesOnEveryPath) {
  oracle::F32Generator gen(99);
  std::vector<uint32_t> f32(3 * 1024 + 5);
  for (size_t i = 0; i < f32.size(); ++i)
    f32[i] = i % 4 ? gen.next() : gen.near(f32[i - 1 + (i == 0)]);
  static const uint32_t kSpecials[] = {
      0,           0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
      0xFFC00001u, 0x7F800001u, 0x00000001u, 0x807FFFFFu, 0x00800000u,
      0x43700000u /*240*/, 0x43780000u /*248*/, 0x47600000u /*57344*/,
      0x47700000u /*61440*/, 0x41780000u /*15.5*/, 0x43E00000u /*448*/,
      0x43E80000u /*464*/, 0x7F7FFFFFu, 0x3B800000u, 0x3B000000u};
  for (size_t i = 0; i < std::size(kSpecials); ++i) {
    f32[i] = kSpecials[i];
    f32[f32.size() - 1 - i] = kSpecials[i] ^ 0x80000000u;
  }
  Isa saved = activeIsa();
  for (Isa isa : {Isa::portable, bestIsa()}) {
    selectIsa(isa);
    std::string path = isaName(isa);
    const DtypeInfo &from = dtypeInfo(Dtype::float32);
    for (const DtypeInfo *to : castableDtypes())
      for (unsigned config : kConfigs) {
        FidelityTally want;
        tallyCast(from, *to, f32.data(), 0, f32.size(), config, want);
        FidelityCounts got;
        std::vector<uint8_t> out(f32.size() * to->bytes);
        ASSERT_TRUE(castBuffer(int(Dtype::float32), f32.data(), int(to->dtype),
                               out.data(), f32.size(), config, &got)
                        .ok());
        expectSameCounts(got, want,
                         path + " f32 -> " + to->name + " config " +
                             std::to_string(config));
      }
    for (int format = 0; format < kNumBfpDatumFormats; ++format) {
      FidelityTally want;
      ASSERT_TRUE(tallyBfpPack(f32Tiles(format, 3), int(Dtype::float32),
                               f32.data(), want)
                      .ok());
      FidelityCounts got;
      std::vector<uint8_t> out(3 * lookupBfpFormat(format)->tileBytes);
      ASSERT_TRUE(bfpPack(format, int(Dtype::float32), f32.data(), 3, kBfpTileSide, kBfpTileSide, 0, out.data(), &got).ok());
      expectSameCounts(got, want, path + " bfp format " + std::to_string(format));
    }
    for (Dtype d : birsim::test::reducingAs(Reduction::Fp8)) {
      std::vector<uint8_t> acc(10007), x(10007);
      for (size_t i = 0; i < acc.size(); ++i) {
        acc[i] = uint8_t(gen.bits());
        x[i] = uint8_t(gen.bits());
      }
      FidelityTally want;
      tallyReduce(int(MemoryReductionOp::add), dtypeInfo(d), acc.data(),
                  x.data(), 0, acc.size(), want);
      FidelityCounts got;
      ASSERT_TRUE(accumulate(int(MemoryReductionOp::add), acc.data(), x.data(),
                             int(d), acc.size(), &got)
                      .ok());
      expectSameCounts(got, want, path + " " + dtypeInfo(d).name);
    }
  }
  selectIsa(saved);
}

} // namespace
