//===- MxTest.cpp - MX tiles (docs/Semantics.md 5, MX tiles) --------------===//
//
// The core's MX scale, elements and decode against PlainMx.h (written from
// docs/Semantics.md alone): every code round trip, every element encoding
// of every fp16 value and of seeded random fp32 under several scales, every
// code decoded under every scale byte, random blocks' scales; every vector
// of tt-metal's tests/tt_metal/tt_metal/api/test_mx_common.cpp; the tile
// sizes, the calls MX rejects, the fidelity events. BfpLayoutTest.cpp runs
// the tile and matrix layouts of every MX format against the plain packer.
//
//===----------------------------------------------------------------------===//
#include "birsim/Core/Bfp.h"
#include "birsim/Core/Dtype.h"
#include "birsim/Core/Fidelity.h"
#include "Paths.h"
#include "PlainMx.h"

#include "gtest/gtest.h"

#include <cmath>
#include <algorithm>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace birsim::core;
namespace plainmx = birsim::test::plainmx;

namespace {

const BfpFormatInfo &row(BfpFormat f) { return *lookupBfpFormat(int(f)); }
uint32_t bits(float x) { return plainmx::bitsOf(x); }
float value(uint32_t b) { return plainmx::floatOf(b); }

/// The element of `x` at unity scale (0x7F), as test_mx_common.cpp calls
/// convert_to_mxfp_elem_bits.
uint32_t unity(BfpFormat f, float x) { return mxEncode(row(f), bits(x), 0x7F); }
float unityValue(BfpFormat f, uint32_t code) {
  return value(mxDecode(row(f), code, 0x7F));
}

// tt-metal's test_mx_common.cpp (PR #51975), vector by vector.
TEST(Mx, TtMetalMxCommonVectors) {
  struct Case { float in; uint32_t code; float decoded; };
  const Case fp4[] = {{0.5f, 0x1, 0.5f},    {0.375f, 0x1, 0.5f},
                      {0.25f, 0x0, 0.0f},   {0.125f, 0x0, 0.0f},
                      {0.75f, 0x2, 1.0f},   {1.0f, 0x2, 1.0f},
                      {1.5f, 0x3, 1.5f},    {2.0f, 0x4, 2.0f},
                      {3.0f, 0x5, 3.0f},    {4.0f, 0x6, 4.0f},
                      {6.0f, 0x7, 6.0f}};
  for (const Case &c : fp4) {
    EXPECT_EQ(unity(BfpFormat::mxfp4, c.in), c.code) << c.in;
    EXPECT_EQ(unityValue(BfpFormat::mxfp4, c.code), c.decoded) << c.in;
  }
  const Case fp6p[] = {{0.125f, 0x01, 0.125f}, {0.25f, 0x02, 0.25f},
                       {0.375f, 0x03, 0.375f}, {0.5f, 0x04, 0.5f},
                       {0.625f, 0x05, 0.625f}, {0.75f, 0x06, 0.75f},
                       {0.875f, 0x07, 0.875f}, {0.09375f, 0x01, 0.125f},
                       {0.0625f, 0x00, 0.0f}};
  for (const Case &c : fp6p) {
    EXPECT_EQ(unity(BfpFormat::mxfp6_e2m3, c.in), c.code) << c.in;
    EXPECT_EQ(unityValue(BfpFormat::mxfp6_e2m3, c.code), c.decoded) << c.in;
  }
  const Case e4m3[] = {{9.0f, 0x51, 9.0f},
                       {1.875f, 0x3F, 1.875f},
                       {240.0f, 0x77, 240.0f},
                       {0.140625f, 0x21, 0.140625f},
                       {0.001953125f, 0x01, 0.001953125f}};
  for (const Case &c : e4m3) {
    EXPECT_EQ(unity(BfpFormat::mxfp8_e4m3, c.in), c.code) << c.in;
    EXPECT_EQ(unityValue(BfpFormat::mxfp8_e4m3, c.code), c.decoded) << c.in;
  }
  float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(unity(BfpFormat::mxfp8_e4m3, std::nanf("")), 0x7Fu);
  EXPECT_EQ(unity(BfpFormat::mxfp8_e4m3, inf), 0x7Eu);
  EXPECT_EQ(unity(BfpFormat::mxfp8_e4m3, -inf), 0xFEu);
  EXPECT_EQ(unity(BfpFormat::mxfp8_e4m3, 448.0f), 0x7Eu);
  EXPECT_EQ(unity(BfpFormat::mxfp8_e4m3, 500.0f), 0x7Eu);
  EXPECT_TRUE(std::isnan(unityValue(BfpFormat::mxfp8_e4m3, 0x7F)));
  EXPECT_EQ(unityValue(BfpFormat::mxfp8_e4m3, 0x7E), 448.0f);
  // Sticky bits: one fp32 ULP above the half-smallest-subnormal rounds up
  // (@cfe4ee5's nextafter; @5de617d's decimals, two ULPs above, too).
  struct Sticky { BfpFormat f; float midpoint; float decimal; };
  const Sticky sticky[] = {
      {BfpFormat::mxfp4, 0.25f, 0.25000006f},
      {BfpFormat::mxfp6_e2m3, 0.0625f, 0.062500015f},
      {BfpFormat::mxfp6_e3m2, 0.03125f, 0.031250007f},
      {BfpFormat::mxfp8_e5m2, std::ldexp(1.0f, -17), 7.629396e-06f},
      {BfpFormat::mxfp8_e4m3, std::ldexp(1.0f, -10), 0.0009765627f}};
  for (const Sticky &s : sticky) {
    EXPECT_EQ(unity(s.f, std::nextafter(s.midpoint, 1.0f)), 0x01u)
        << row(s.f).name;
    EXPECT_EQ(unity(s.f, s.decimal), 0x01u) << row(s.f).name;
    EXPECT_EQ(unity(s.f, s.midpoint), 0x00u) << row(s.f).name;
  }
  // Finite overflow saturates, never Inf (E5M2: 61440 rounds past 57344).
  EXPECT_EQ(unity(BfpFormat::mxfp8_e5m2, 61440.0f), 0x7Bu);
  EXPECT_EQ(unity(BfpFormat::mxfp8_e5m2, inf), 0x7Cu);
  EXPECT_EQ(unity(BfpFormat::mxfp8_e5m2, std::nanf("")), 0x7Du);
}

// Every code except the Inf and NaN encodings decodes and re-encodes to
// itself (test_mx_common.cpp's property), for every MX format; the integer
// codes too, except -2^(b-1), which the clamp never produces.
TEST(Mx, EveryCodeRoundTrips) {
  for (const BfpFormatInfo &f : kMxFormats)
    for (uint32_t code = 0; code < (1u << f.elementBits); ++code) {
      uint32_t decoded = mxDecode(f, code, 0x7F);
      if (!isFiniteF32(decoded) ||
          (f.kind == BfpKind::MxInt && code == 1u << (f.elementBits - 1)))
        continue;
      EXPECT_EQ(mxEncode(f, decoded, 0x7F), code) << f.name << " " << code;
    }
}

const uint8_t kScales[] = {0, 1, 100, 0x7F - 15, 0x7F, 0x7F + 8, 200, 0xFE};

// Every fp16 value, widened, and seeded random fp32 bit patterns encode as
// the plain implementation does under several scale bytes; the tally
// classes match the plain view of each value.
TEST(Mx, ElementsAsThePlainImplementation) {
  std::mt19937 rng(51975);
  std::vector<uint32_t> inputs;
  for (uint32_t h = 0; h < 0x10000; ++h)
    inputs.push_back(widenToF32(*dtypeInfo(Dtype::float16).format, h));
  for (int i = 0; i < 200000; ++i)
    inputs.push_back(uint32_t(rng()));
  for (const BfpFormatInfo &f : kMxFormats) {
    plainmx::Format p = plainmx::formatOf(f.name);
    EXPECT_EQ(f.emax, plainmx::emaxOf(p)) << f.name;
    for (uint8_t s : kScales)
      for (uint32_t v : inputs) {
        unsigned events = 0;
        uint32_t got = mxEncodeWithEvents(f, v, s, events);
        ASSERT_EQ(got, plainmx::encode(p, v, s))
            << f.name << " scale " << int(s) << " input 0x" << std::hex << v;
        bool nan = isNaNF32(v), finite = isFiniteF32(v);
        uint32_t magnitudeMask =
            f.kind == BfpKind::MxInt ? (1u << f.elementBits) - 1
                                     : f.element.magnitudeMask();
        ASSERT_EQ(bool(events & mxClassBit(MxClass::nan)), nan) << f.name;
        ASSERT_EQ(bool(events & mxClassBit(MxClass::flushedToZero)),
                  finite && (v & 0x7FFFFFFF) && !(got & magnitudeMask))
            << f.name << " 0x" << std::hex << v;
      }
  }
}

// Every code under every scale byte decodes as the plain implementation.
TEST(Mx, EveryCodeUnderEveryScaleDecodes) {
  for (const BfpFormatInfo &f : kMxFormats) {
    plainmx::Format p = plainmx::formatOf(f.name);
    for (unsigned s = 0; s < 256; ++s)
      for (uint32_t code = 0; code < (1u << f.elementBits); ++code)
        ASSERT_EQ(mxDecode(f, code, uint8_t(s)),
                  plainmx::decode(p, code, uint8_t(s)))
            << f.name << " code " << code << " scale " << s;
  }
}

// Unpacking tiles whose blocks take every scale byte and random codes
// gives mxDecode of each element, on every path (the portable unpacker's
// table path included).
TEST(Mx, UnpackIsTheDecodeOfEveryElement) {
  std::mt19937 rng(0xFF);
  for (const BfpFormatInfo &f : kMxFormats) {
    size_t tiles = 8, bytes = f.tileBytes, scaleBytes = 32;
    std::vector<uint8_t> packed(tiles * bytes);
    for (uint8_t &b : packed)
      b = uint8_t(rng());
    for (size_t t = 0; t < tiles; ++t)
      for (unsigned k = 0; k < 32; ++k)
        packed[t * bytes + k] = uint8_t(t * 32 + k);
    unsigned shift = f.datumBits - f.elementBits;
    birsim::test::PathGuard guard;
    for (Isa isa : birsim::test::everyPath()) {
      selectIsa(isa);
      std::vector<uint32_t> out(tiles * 1024);
      ASSERT_TRUE(bfpUnpack(int(f.format), packed.data(), tiles, 32, 32,
                            kBfpFaces, out.data())
                      .ok());
      for (size_t t = 0; t < tiles; ++t)
        for (unsigned i = 0; i < 1024; ++i) {
          size_t bit = size_t(i) * f.datumBits;
          uint32_t slot =
              (packed[t * bytes + scaleBytes + bit / 8] >> bit % 8) &
              ((1u << f.datumBits) - 1);
          ASSERT_EQ(out[t * 1024 + i],
                    mxDecode(f, slot >> shift, uint8_t(t * 32 + i / 32)))
              << f.name << " on " << isaName(isa) << " scale "
              << t * 32 + i / 32 << " element " << i;
        }
    }
  }
}

// Packing (the uncounted packer reads its element codes from a table the
// encoder fills) gives mxEncode of every element under its block's scale,
// counted or not: every fp16 value and random fp32 bits over 40 binades.
TEST(Mx, PackIsTheEncodeOfEveryElement) {
  std::mt19937 rng(51971);
  std::vector<uint32_t> values;
  for (uint32_t h = 0; h < 0x10000; ++h)
    values.push_back(widenToF32(*dtypeInfo(Dtype::float16).format, h));
  while (values.size() % 1024 || values.size() < 0x10000 + 65536) {
    uint32_t r = uint32_t(rng());
    values.push_back((r & 0x807FFFFFu) | (107 + r % 40) << 23);
  }
  std::shuffle(values.begin(), values.end(), rng);
  size_t tiles = values.size() / 1024;
  birsim::test::PathGuard guard;
  for (const BfpFormatInfo &f : kMxFormats) {
    std::vector<uint8_t> counted(tiles * f.tileBytes);
    FidelityCounts counts;
    ASSERT_TRUE(bfpPack(int(f.format), int(Dtype::float32), values.data(),
                        tiles, 32, 32, kBfpFaces, counted.data(), &counts)
                    .ok());
    unsigned shift = f.datumBits - f.elementBits;
    for (Isa isa : birsim::test::everyPath()) {
      selectIsa(isa);
      std::vector<uint8_t> packed(tiles * f.tileBytes);
      ASSERT_TRUE(bfpPack(int(f.format), int(Dtype::float32), values.data(),
                          tiles, 32, 32, kBfpFaces, packed.data())
                      .ok());
      EXPECT_EQ(packed, counted) << f.name << " on " << isaName(isa);
      for (size_t t = 0; t < tiles; ++t)
        for (unsigned i = 0; i < 1024; ++i) {
          const uint8_t *tile = &packed[t * f.tileBytes];
          size_t bit = size_t(i) * f.datumBits;
          uint32_t code = ((tile[32 + bit / 8] >> bit % 8) &
                           ((1u << f.datumBits) - 1)) >> shift;
          ASSERT_EQ(code, mxEncode(f, values[t * 1024 + i], tile[i / 32]))
              << f.name << " on " << isaName(isa) << " 0x" << std::hex
              << values[t * 1024 + i] << " scale 0x" << int(tile[i / 32]);
        }
    }
  }
}

// Blocks of every kind the vector packers tell apart (zero or normal
// values, with a NaN, an Inf, a subnormal; all NaN, Inf only, all zero;
// a span of exponents wide enough to flush; ties of every element grid;
// random bits) pack on every path as the counted (portable) packer does,
// from float32 and from bfloat16.
TEST(Mx, EveryKindOfBlockOnEveryPath) {
  std::mt19937 rng(0x5CA1E);
  auto draw = [&](unsigned mode) {
    uint32_t r = uint32_t(rng()), sign = r & 0x80000000u;
    switch (mode) {
    case 0: return r;                                         // any bits
    case 1: return sign | (1 + r % 254) << 23 | (r >> 9 & 0x7FFFFF);
    case 2: return sign | (r % 4 ? (100 + r % 50) << 23 : 0); // powers, zeros
    case 3: return r % 31 ? sign | (120 + r % 10) << 23 : 0x7F800000u | sign;
    case 4: return r % 31 ? sign | (120 + r % 10) << 23 : 0x7FC00001u;
    case 5: return r % 31 ? sign | (1 + r % 20) << 23 : sign | (r & 0x7FFFFF);
    case 6: return sign | (r % 2 ? 0x7F800000u : 0);          // Inf, zero
    case 7: return 0x7F800000u | (1 + (r & 0x3FFFFF));        // all NaN
    case 8: return sign;                                      // signed zeros
    case 9: // element midpoints: a kept bit and the half below it set
      return sign | (110 + r % 20) << 23 | (r & 0x7C0000) | 1u << (17 - r % 4);
    default: return sign | (r % 2 ? 250u : 20u) << 23 | (r & 0x7FFFFF);
    }
  };
  constexpr size_t tiles = 44;
  std::vector<uint32_t> f32(tiles * 1024);
  for (size_t b = 0; b < f32.size() / 32; ++b)
    for (unsigned j = 0; j < 32; ++j)
      f32[b * 32 + j] = draw(unsigned(b % 11));
  std::vector<uint16_t> bf16(f32.size());
  for (size_t i = 0; i < f32.size(); ++i)
    bf16[i] = uint16_t(f32[i] >> 16);
  birsim::test::PathGuard guard;
  for (const BfpFormatInfo &f : kMxFormats)
    for (Dtype input : {Dtype::float32, Dtype::bfloat16}) {
      const void *src = input == Dtype::float32 ? (const void *)f32.data()
                                                : (const void *)bf16.data();
      std::vector<uint8_t> want(tiles * f.tileBytes);
      FidelityCounts counts; // the counted packer is the portable one
      ASSERT_TRUE(bfpPack(int(f.format), int(input), src, tiles, 32, 32,
                          kBfpFaces, want.data(), &counts)
                      .ok());
      for (Isa isa : birsim::test::everyPath()) {
        selectIsa(isa);
        std::vector<uint8_t> got(want.size(), 0xEE);
        ASSERT_TRUE(bfpPack(int(f.format), int(input), src, tiles, 32, 32,
                            kBfpFaces, got.data())
                        .ok());
        for (size_t i = 0; i < want.size(); ++i)
          ASSERT_EQ(got[i], want[i])
              << f.name << " from " << dtypeInfo(input).name << " on "
              << isaName(isa) << ": tile " << i / f.tileBytes << " byte "
              << i % f.tileBytes;
      }
    }
}

// Every MX form writes its output and not a byte around it, on every path:
// 64 guard bytes before and after, tiles and matrix forms, pages.
TEST(Mx, NothingOutsideTheOutput) {
  birsim::test::PathGuard guard;
  std::mt19937 rng(64);
  std::vector<float> values(4 * 1024);
  for (float &v : values)
    v = std::ldexp(float(int(rng() % 2001) - 1000), int(rng() % 20) - 10);
  for (Isa isa : birsim::test::everyPath()) {
    selectIsa(isa);
    for (const BfpFormatInfo &f : kMxFormats)
      for (unsigned flags : {0u, kBfpFlag_page64})
        for (bool matrix : {false, true}) {
          BfpCall call = matrix ? bfpMatrixCall(0, int(f.format), 64, 64, 32,
                                                32, flags)
                                : bfpTilesCall(0, int(f.format), 4, 32, 32,
                                               flags);
          size_t bytes = 4 * bfpPageBytes(int(f.format), 32, 32,
                                          bfpPageAlignmentOf(flags));
          std::vector<uint8_t> packed(bytes + 128, 0xA5);
          ASSERT_TRUE(bfpPack(call, int(Dtype::float32), values.data(),
                              packed.data() + 64)
                          .ok());
          std::vector<uint8_t> back(4 * 4096 + 128, 0x5A);
          ASSERT_TRUE(bfpUnpack(call, packed.data() + 64, back.data() + 64)
                          .ok());
          for (size_t i = 0; i < 64; ++i) {
            ASSERT_EQ(packed[i], 0xA5) << f.name << " " << isaName(isa);
            ASSERT_EQ(packed[64 + bytes + i], 0xA5) << f.name;
            ASSERT_EQ(back[i], 0x5A) << f.name;
            ASSERT_EQ(back[64 + 4 * 4096 + i], 0x5A) << f.name;
          }
        }
  }
}

// Scale bytes of random blocks (mixed magnitudes, zeros, subnormals, Inf,
// NaN, and the all-NaN and Inf-only blocks) as the plain implementation.
TEST(Mx, ScalesAsThePlainImplementation) {
  std::mt19937 rng(127);
  for (int round = 0; round < 20000; ++round) {
    uint32_t block[32];
    unsigned mode = round % 6;
    for (uint32_t &v : block) {
      uint32_t r = uint32_t(rng()), sign = r & 0x80000000u;
      switch (mode) {
      case 0: v = r; break;
      case 1: v = sign | (r % 3 ? (r >> 8) & 0x7FFFFF : 0); break; // subnormal
      case 2: v = sign | (r % 2 ? 0x7F800000u : 0); break;        // Inf, zero
      case 3: v = 0x7F800000u | (r % 5 ? 1 + (r & 0x3FFFFF) : 0); break;
      case 4: v = 0x7FC00000u | (r & 0xFF); break;                 // all NaN
      default: v = sign | (100 + r % 60) << 23 | (r & 0x7FFFFF);
      }
    }
    for (const BfpFormatInfo &f : kMxFormats)
      ASSERT_EQ(mxScale(f, block),
                plainmx::scale(plainmx::formatOf(f.name), block))
          << f.name << " round " << round;
  }
  uint32_t zeros[32] = {};
  EXPECT_EQ(mxScale(row(BfpFormat::mxfp8_e4m3), zeros), 0x7F - 8);
}

// tt-metal's tile sizes; 1x16 tiles, device sites and the exponent search
// are rejected with the rule, writing nothing.
TEST(Mx, TileSizesAndRejectedCalls) {
  EXPECT_EQ(row(BfpFormat::mxfp8_e4m3).tileBytes, 1056u);
  EXPECT_EQ(row(BfpFormat::mxfp4).tileBytes, 544u);
  EXPECT_EQ(row(BfpFormat::mxint2).tileBytes, 288u);
  EXPECT_EQ(lookupBfpTileShape(16, 32)->packedBytes(row(BfpFormat::mxfp8_e5m2)),
            528u);
  EXPECT_EQ(lookupBfpTileShape(8, 32)->packedBytes(row(BfpFormat::mxint8)),
            272u);
  EXPECT_EQ(lookupBfpTileShape(1, 32)->packedBytes(row(BfpFormat::mxfp6_e3m2)),
            48u);
  EXPECT_EQ(lookupBfpTileShape(2, 16)->packedBytes(row(BfpFormat::mxint8)),
            48u);
  EXPECT_EQ(bfpPageBytes(int(BfpFormat::mxfp8_e4m3), 32, 32, 64), 1088u);
  EXPECT_EQ(bfpPageBytes(int(BfpFormat::mxfp8_e4m3), 1, 16, 0), 0u);

  std::vector<float> in(1024, 1.0f);
  std::vector<uint8_t> out(2048, 0xEE), before = out;
  int mx = int(BfpFormat::mxfp4);
  Status s = bfpPack(mx, int(Dtype::float32), in.data(), 1, 1, 16, 0,
                     out.data());
  EXPECT_EQ(s.message(), "invalid argument: MX tiles hold whole 32-value "
                         "blocks: every tile shape but 1x16 (tt-metal's MX "
                         "packers) (got 1)");
  s = bfpPack(bfpTilesCall(int(BfpSite::fp32_dest), mx, 1, 32, 32, 0),
              int(Dtype::float32), in.data(), out.data());
  EXPECT_EQ(s.message(), "invalid argument: the Tensix packer paths are the "
                         "BFP \"b\" formats' (MX tiles are the host "
                         "packer's) (got 10)");
  s = bfpPack(mx, int(Dtype::float32), in.data(), 1, 32, 32,
              kBfpFlag_exp_search, out.data());
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(out, before);
}

// The mx_pack counts of a pack equal the per-index tally and the events of
// each element: saturation, flushes, NaNs.
TEST(Mx, FidelityCountsTheEvents) {
  std::vector<float> tile(1024);
  for (unsigned i = 0; i < 1024; ++i)
    tile[i] = std::ldexp(1.0f + float(i % 7) / 8, int(i % 40) - 20);
  tile[0] = std::numeric_limits<float>::infinity();
  tile[33] = std::nanf("");
  tile[64] = 1e-30f;
  for (const BfpFormatInfo &f : kMxFormats) {
    std::vector<uint8_t> out(f.tileBytes);
    FidelityCounts counts;
    ASSERT_TRUE(bfpPack(int(f.format), int(Dtype::float32), tile.data(), 1, 32,
                        32, 0, out.data(), &counts)
                    .ok());
    FidelityTally tally;
    ASSERT_TRUE(tallyBfpPack(bfpTilesCall(0, int(f.format), 1, 32, 32, 0),
                             int(Dtype::float32), tile.data(), tally)
                    .ok());
    EXPECT_EQ(counts.elements[int(FidelityFamily::mx_pack)], 1024u);
    for (MxClass c : {MxClass::saturated, MxClass::flushedToZero, MxClass::nan})
      EXPECT_EQ(counts.count[int(mxPackEventOf(c))],
                tally.count[int(mxPackEventOf(c))])
          << f.name;
    EXPECT_EQ(counts.count[int(FidelityEvent::mx_pack_nan)], 1u) << f.name;
    EXPECT_EQ(tally.first[int(FidelityEvent::mx_pack_nan)], 33) << f.name;
    EXPECT_GT(counts.count[int(FidelityEvent::mx_pack_flushed_to_zero)], 0u)
        << f.name;
    EXPECT_EQ(counts.count[int(FidelityEvent::bfp_pack_saturated)], 0u);
  }
}

} // namespace
