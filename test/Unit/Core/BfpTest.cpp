//===- BfpTest.cpp - BFP8/BFP4 tiles (docs/Semantics.md section 5) -------------===//
#include "birsim/Core/Bfp.h"

#include "gtest/gtest.h"

#include <cfenv>
#include <cmath>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

using namespace birsim::core;

namespace {

uint32_t bitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float floatOf(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

const BfpFormatInfo &fmt(BfpFormat f) { return *lookupBfpFormat(int(f)); }

uint8_t encode(BfpFormat f, uint32_t bits, uint32_t shared) {
  BfpTally ties;
  return bfpEncode(fmt(f), bits, shared, ties);
}

// Published tt-metal vectors: BFP8_b, shared exponent 133.
TEST(Bfp, TtMetalVectors) {
  EXPECT_EQ(encode(BfpFormat::bfp8_b, bitsOf(64.75f), 133), 0x41);
  EXPECT_EQ(encode(BfpFormat::bfp8_b, bitsOf(65.25f), 133), 0x41);
  EXPECT_EQ(encode(BfpFormat::bfp8_b, bitsOf(64.5f), 133), 0x40);
  EXPECT_EQ(encode(BfpFormat::bfp8_b, bitsOf(65.5f), 133), 0x42);
  uint32_t block[16] = {};
  block[0] = bitsOf(7.9999f);
  uint8_t shared = bfpSharedExponent(fmt(BfpFormat::bfp8_b), block);
  EXPECT_EQ(shared, 129);
  EXPECT_EQ(encode(BfpFormat::bfp8_b, block[0], shared), 127);
  EXPECT_EQ(encode(BfpFormat::bfp8_b, bitsOf(-7.9999f), shared), 0xFF);
}

/// A second implementation of §5 encoding, in double arithmetic.
uint8_t referenceEncode(const BfpFormatInfo &f, uint32_t bits,
                        uint32_t shared) {
  int e = (bits >> 23) & 0xFF;
  if (e == 0)
    return 0;
  double significand = double((bits & 0x7FFFFF) | 0x800000); // 24 bits
  if ((f.exponent == BfpExponent::Fp16)) {
    e -= 112;
    if (e < 0) {
      e = 0;
      significand = 8388608.0;
    } else if (e > 31) {
      e = 31;
      significand = 16777215.0;
    }
  }
  int d = int(shared) - e;
  if (d < 0)
    d = 0;
  double aligned = std::floor(std::ldexp(significand, -d)); // truncating
  double scaled = std::ldexp(aligned, -(24 - int(f.magnitudeBits)));
  std::fesetround(FE_TONEAREST);
  double q = std::nearbyint(scaled); // ties to even
  double maxQ = std::ldexp(1.0, int(f.magnitudeBits)) - 1;
  if (q > maxQ)
    q = maxQ;
  unsigned magnitude = unsigned(q);
  unsigned sign = magnitude && (bits >> 31) ? 1u << f.magnitudeBits : 0;
  return uint8_t(sign | magnitude);
}

/// Every BFP row of BfpFormats.def (MxTest.cpp covers the MX rows).
std::vector<BfpFormat> everyFormat() {
  std::vector<BfpFormat> all;
  for (const BfpFormatInfo &info : kBfpDatumFormats)
    all.push_back(info.format);
  return all;
}
const std::vector<BfpFormat> kAll = everyFormat();

// Exponent fields {0, 1, 111, 112, 113, 126, 127, 143, 144, 254, 255} with
// fractions at half-1/half/half+1 of the datum width, both signs, under
// shared exponents around each field.
TEST(Bfp, BoundarySweep) {
  const uint32_t exponents[] = {0,   1,   111, 112, 113, 126,
                                127, 143, 144, 254, 255};
  for (BfpFormat f : kAll) {
    unsigned dropped = 24 - fmt(f).magnitudeBits;
    uint32_t half = 1u << (dropped - 1);
    for (uint32_t e : exponents)
      for (uint32_t top = 0; top < 8; ++top)
        for (int delta = -1; delta <= 1; ++delta)
          for (uint32_t sign : {0u, 1u}) {
            // Fraction: some datum bits, then half-1/half/half+1 below.
            uint32_t fraction =
                ((top << (dropped + 1)) + half + delta) & 0x7FFFFF;
            uint32_t bits = sign << 31 | e << 23 | fraction;
            std::vector<uint32_t> shareds;
            uint32_t own = (fmt(f).exponent == BfpExponent::Fp16)
                               ? uint32_t(std::clamp(int(e) - 112, 0, 31))
                               : e;
            for (int s = -1; s <= 9; ++s)
              if (int(own) + s >= 0 &&
                  int(own) + s <= ((fmt(f).exponent == BfpExponent::Fp16) ? 31 : 255))
                shareds.push_back(own + s);
            shareds.push_back((fmt(f).exponent == BfpExponent::Fp16) ? 31 : 255);
            for (uint32_t shared : shareds)
              ASSERT_EQ(encode(f, bits, shared),
                        referenceEncode(fmt(f), bits, shared))
                  << fmt(f).name << std::hex << " bits " << bits << " S "
                  << shared;
          }
  }
}

TEST(Bfp, RandomEncodeAgainstReference) {
  std::mt19937 rng(77);
  for (BfpFormat f : kAll)
    for (int i = 0; i < 300000; ++i) {
      uint32_t bits = rng();
      uint32_t e = (bits >> 23) & 0xFF;
      uint32_t own =
          (fmt(f).exponent == BfpExponent::Fp16) ? uint32_t(std::clamp(int(e) - 112, 0, 31)) : e;
      uint32_t shared =
          std::min<uint32_t>(own + rng() % 30, (fmt(f).exponent == BfpExponent::Fp16) ? 31 : 255);
      ASSERT_EQ(encode(f, bits, shared), referenceEncode(fmt(f), bits, shared));
    }
}

// Every datum of every format under every shared exponent: decoding matches
// q * 2^(S - bias - (M - 1)) where that is a normal fp32, and re-encoding
// the decoded value under the same exponent gives the datum back.
TEST(Bfp, EveryDatumDecodesAndReencodes) {
  for (BfpFormat f : kAll) {
    const BfpFormatInfo &info = fmt(f);
    unsigned datums = 1u << (info.magnitudeBits + 1);
    unsigned maxShared = (info.exponent == BfpExponent::Fp16) ? 31 : 255; // "a" above 31: AExponentByteUsesAllEightBits
    for (uint32_t shared = 0; shared <= maxShared; ++shared)
      for (unsigned datum = 0; datum < datums; ++datum) {
        uint32_t got = bfpDecode(info, uint8_t(datum), shared);
        unsigned magnitude = datum & ((1u << info.magnitudeBits) - 1);
        bool negative = datum >> info.magnitudeBits;
        if (magnitude == 0) {
          ASSERT_EQ(got, negative ? 0x80000000u : 0u);
          continue;
        }
        int bias = (info.exponent == BfpExponent::Fp16) ? 15 : 127;
        double value = std::ldexp(
            double(magnitude), int(shared) - bias - int(info.magnitudeBits - 1));
        int lead = 31 - __builtin_clz(magnitude);
        int exponentField = int(shared) - int(info.magnitudeBits - 1 - lead);
        if (!(info.exponent == BfpExponent::Fp16) && (exponentField < 1 || exponentField > 254)) {
          // The 8-bit wrap of the ISA routine.
          ASSERT_EQ((got >> 23) & 0xFF, uint32_t(exponentField) & 0xFF);
          continue;
        }
        ASSERT_EQ(got, bitsOf(float(negative ? -value : value)))
            << info.name << " datum " << datum << " S " << shared;
        if ((info.exponent == BfpExponent::Fp16) && exponentField < 0)
          continue; // below 2^-15: re-encoding raises it (§5 step 2)
        ASSERT_EQ(encode(f, got, shared), datum)
            << info.name << " datum " << datum << " S " << shared;
      }
  }
}

TEST(Bfp, SpecialInputs) {
  // Denormals and zeros pack to 0, never to a signed zero.
  EXPECT_EQ(encode(BfpFormat::bfp8_b, 0x80000001u, 1), 0);
  EXPECT_EQ(encode(BfpFormat::bfp8_b, 0x80000000u, 1), 0);
  // A magnitude that rounds to 0 drops its sign.
  EXPECT_EQ(encode(BfpFormat::bfp8_b, bitsOf(-1.0f), 127 + 30), 0);
  // "a": below 2^-15 becomes ±2^-15; above the range saturates.
  EXPECT_EQ(encode(BfpFormat::bfp8_a, bitsOf(-1e-10f), 0), 0xC0);
  EXPECT_EQ(encode(BfpFormat::bfp8_a, bitsOf(1e10f), 31), 0x7F);
  EXPECT_EQ(encode(BfpFormat::bfp4_a, 0x7F800000u, 31), 0x7);
  // "b": Inf takes part as exponent 255.
  uint32_t block[16] = {0x7F800000u};
  EXPECT_EQ(bfpSharedExponent(fmt(BfpFormat::bfp8_b), block), 255);
  EXPECT_EQ(bfpSharedExponent(fmt(BfpFormat::bfp8_a), block), 31);
  // Decoding -0 datum.
  EXPECT_EQ(bfpDecode(fmt(BfpFormat::bfp8_b), 0x80, 130), 0x80000000u);
  // "a" exponent: S - lz + 112.
  EXPECT_EQ(bfpDecode(fmt(BfpFormat::bfp8_a), 0x40, 15), bitsOf(1.0f));
}

// D31, issue 64: an "a" exponent byte of 32 or more (no packer writes one)
// decodes as tt-metal's unpacker does (bfloat8.cpp @04b3405): S + 112 - lz
// in 32-bit lanes shifted by 23, so bit 8 lands on the sign. birsim used
// S & 31 (0x38000000 for both vectors of the issue).
TEST(Bfp, AExponentByteUsesAllEightBits) {
  const BfpFormatInfo &a8 = fmt(BfpFormat::bfp8_a);
  EXPECT_EQ(bfpDecode(a8, 0x40, 0x20), 0x48000000u); // the vectors
  EXPECT_EQ(bfpDecode(a8, 0x40, 0xE0), 0xA8000000u);
  EXPECT_EQ(bfpDecode(a8, 0xC0, 0xE0), 0xA8000000u); // the sign ORed in
  EXPECT_EQ(bfpDecode(a8, 0x40, 142), 0x7F000000u);  // the largest normal
  EXPECT_EQ(bfpDecode(a8, 0x40, 143), 0x7F800000u);  // field 255: Inf
  EXPECT_EQ(bfpDecode(a8, 0x41, 143), 0x7F820000u);  // and NaN
  EXPECT_EQ(bfpDecode(a8, 0x40, 144), 0x80000000u);  // 256: -0
  EXPECT_EQ(bfpDecode(a8, 0x01, 0xFF), 0xB4800000u); // 367 - 6 = 0x169
  // Every byte and datum of every "a" format, by that rule.
  for (BfpFormat f : kAll) {
    const BfpFormatInfo &info = fmt(f);
    if (info.exponent != BfpExponent::Fp16)
      continue;
    for (uint32_t shared = 0; shared < 256; ++shared)
      for (unsigned datum = 0; datum < (2u << info.magnitudeBits); ++datum) {
        unsigned magnitude = datum & ((1u << info.magnitudeBits) - 1);
        uint32_t sign = uint32_t(datum >> info.magnitudeBits) << 31;
        uint32_t expected = sign;
        if (magnitude) {
          int lead = 31 - __builtin_clz(magnitude);
          uint32_t field = shared + 112 - (info.magnitudeBits - 1 - lead);
          expected |= field << 23 |
                      (magnitude & ((1u << lead) - 1)) << (23 - lead);
        }
        ASSERT_EQ(bfpDecode(info, uint8_t(datum), shared), expected)
            << info.name << " datum " << datum << " S " << shared;
      }
  }
  // A whole tile of such bytes, on the path in use (every path: the suite
  // runs again on each, test/Runtime/every-isa-path.test).
  for (uint8_t shared : {0x1F, 0x20, 0x8E, 0x8F, 0x90, 0xE0, 0xFF}) {
    std::vector<uint8_t> packed(a8.tileBytes);
    std::fill(packed.begin(), packed.begin() + 64, shared);
    for (size_t i = 64; i < packed.size(); ++i)
      packed[i] = uint8_t(i * 37);
    std::vector<uint32_t> out(kBfpTileValues);
    ASSERT_TRUE(bfpUnpack(int(BfpFormat::bfp8_a), packed.data(), 1,
                          kBfpTileSide, kBfpTileSide, kBfpFaces, out.data())
                    .ok());
    for (unsigned i = 0; i < kBfpTileValues; ++i)
      ASSERT_EQ(out[i], bfpDecode(a8, packed[64 + i], shared))
          << "S " << int(shared) << " value " << i;
  }
}

std::vector<float> randomTiles(unsigned tiles, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist(0.0f, 4.0f);
  std::vector<float> v(tiles * kBfpTileValues);
  for (float &x : v)
    x = dist(rng);
  return v;
}

TEST(Bfp, PackUnpackProperties) {
  for (BfpFormat f : kAll) {
    const BfpFormatInfo &info = fmt(f);
    const unsigned tiles = 3;
    std::vector<float> in = randomTiles(tiles, 5);
    std::vector<uint8_t> packed(tiles * info.tileBytes, 0xEE);
    ASSERT_TRUE(bfpPack(int(f), int(Dtype::float32), reinterpret_cast<uint32_t *>(in.data()), tiles, kBfpTileSide, kBfpTileSide, 0, packed.data())
                    .ok());
    std::vector<uint32_t> once(in.size()), twice(in.size());
    ASSERT_TRUE(bfpUnpack(int(f), packed.data(), tiles, kBfpTileSide, kBfpTileSide, 0, once.data()).ok());
    // Unpacked values re-pack to the same bytes and unpack to themselves.
    std::vector<uint8_t> repacked(packed.size());
    ASSERT_TRUE(bfpPack(int(f), int(Dtype::float32), once.data(), tiles, kBfpTileSide, kBfpTileSide, 0, repacked.data()).ok());
    ASSERT_TRUE(
        bfpUnpack(int(f), repacked.data(), tiles, kBfpTileSide, kBfpTileSide, 0, twice.data()).ok());
    EXPECT_EQ(once, twice) << info.name;
    // Each value is within half a datum step of its input (or saturated).
    for (size_t i = 0; i < in.size(); ++i) {
      unsigned block = 0;
      unsigned t = unsigned(i / kBfpTileValues),
               local = unsigned(i % kBfpTileValues);
      for (unsigned b = 0; b < kBfpTileBlocks; ++b)
        for (unsigned j = 0; j < 16; ++j)
          if (bfpTileIndex(b, j) == local)
            block = b;
      uint8_t shared = packed[t * info.tileBytes + block];
      int bias = (info.exponent == BfpExponent::Fp16) ? 15 : 127;
      double step =
          std::ldexp(1.0, int(shared) - bias - int(info.magnitudeBits - 1));
      EXPECT_LE(std::fabs(double(floatOf(once[i])) - double(in[i])), step)
          << info.name << " i " << i;
    }
  }
}

TEST(Bfp, TileLayoutFaceOrderAndNibbles) {
  // One distinct power of two per block: block b holds 2^(b % 8) at j = b % 16.
  std::vector<uint32_t> tile(kBfpTileValues, 0);
  for (unsigned b = 0; b < kBfpTileBlocks; ++b)
    tile[bfpTileIndex(b, b % 16)] = bitsOf(std::ldexp(1.0f, int(b % 8)));
  // Face order TL, TR, BL, BR; rows inside a face.
  EXPECT_EQ(bfpTileIndex(0, 0), 0u);
  EXPECT_EQ(bfpTileIndex(16, 0), 16u);
  EXPECT_EQ(bfpTileIndex(32, 0), 16u * 32);
  EXPECT_EQ(bfpTileIndex(48, 15), 16u * 32 + 31);
  EXPECT_EQ(bfpTileIndex(1, 3), 32u + 3);
  std::vector<uint8_t> p8(fmt(BfpFormat::bfp8_b).tileBytes);
  ASSERT_TRUE(bfpPack(0, int(Dtype::float32), tile.data(), 1, kBfpTileSide, kBfpTileSide, 0, p8.data()).ok());
  for (unsigned b = 0; b < kBfpTileBlocks; ++b) {
    EXPECT_EQ(p8[b], 127 + b % 8) << b;
    EXPECT_EQ(p8[64 + b * 16 + b % 16], 0x40) << b; // 1.0 at the shared exp
  }
  std::vector<uint8_t> p4(fmt(BfpFormat::bfp4_b).tileBytes);
  ASSERT_TRUE(bfpPack(1, int(Dtype::float32), tile.data(), 1, kBfpTileSide, kBfpTileSide, 0, p4.data()).ok());
  for (unsigned b = 0; b < kBfpTileBlocks; ++b) {
    unsigned i = b * 16 + b % 16;
    uint8_t byte = p4[64 + i / 2];
    EXPECT_EQ((i & 1) ? byte >> 4 : byte & 0xF, 0x4) << b; // low nibble first
    EXPECT_EQ((i & 1) ? byte & 0xF : byte >> 4, 0) << b;
  }
  // BFP2 [tt-metal]: 16 datums per little-endian word, element 0 lowest.
  std::vector<uint8_t> p2(fmt(BfpFormat::bfp2_b).tileBytes);
  ASSERT_TRUE(bfpPack(int(BfpFormat::bfp2_b), int(Dtype::float32), tile.data(), 1, kBfpTileSide, kBfpTileSide, 0, p2.data()).ok());
  for (unsigned b = 0; b < kBfpTileBlocks; ++b) {
    unsigned i = b * 16 + b % 16;
    uint32_t word;
    std::memcpy(&word, &p2[64 + 4 * (i / 16)], 4);
    EXPECT_EQ(word, 1u << 2 * (i % 16)) << b; // magnitude 1, every other 0
  }
  EXPECT_EQ(fmt(BfpFormat::bfp8_a).tileBytes, 1088u);
  EXPECT_EQ(fmt(BfpFormat::bfp4_a).tileBytes, 576u);
  EXPECT_EQ(fmt(BfpFormat::bfp2_b).tileBytes, 64u + 256);
  EXPECT_EQ(fmt(BfpFormat::bfp2_a).tileBytes, 64u + 256);
}

// BFP2 [tt-metal]: one magnitude bit, so a datum is 0 or the block's
// largest power of two: 1.4 rounds down to 1, 1.5 (a tie, odd magnitude
// 1 and the dropped half) rounds up to 2, which saturates to 1; values
// below half the shared power round to 0.
TEST(Bfp, Bfp2Datums) {
  const BfpFormat f = BfpFormat::bfp2_b;
  EXPECT_EQ(encode(f, bitsOf(1.0f), 127), 0x1);
  EXPECT_EQ(encode(f, bitsOf(-1.9f), 127), 0x3);
  EXPECT_EQ(encode(f, bitsOf(0.5f), 127), 0x0); // a tie at 0: even, stays 0
  EXPECT_EQ(encode(f, bitsOf(0.5000001f), 127), 0x1);
  EXPECT_EQ(encode(f, bitsOf(-0.25f), 127), 0x0); // sign dropped with 0
  EXPECT_EQ(bfpDecode(fmt(f), 0x1, 130), bitsOf(8.0f));
  EXPECT_EQ(bfpDecode(fmt(f), 0x3, 130), bitsOf(-8.0f));
  EXPECT_EQ(bfpDecode(fmt(BfpFormat::bfp2_a), 0x1, 15), bitsOf(1.0f));
}

TEST(Bfp, TieCountersAcrossThreads) {
  bfpTieCountersReset();
  const int threads = 8, perThread = 20000;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([] {
      for (int i = 0; i < perThread; ++i) {
        BfpTally ties;
        // 64.5 is a tie rounded down, 65.5 a tie rounded up; 64.75 no tie.
        bfpEncode(fmt(BfpFormat::bfp8_b), bitsOf(64.5f), 133, ties);
        bfpEncode(fmt(BfpFormat::bfp8_b), bitsOf(65.5f), 133, ties);
        bfpEncode(fmt(BfpFormat::bfp8_b), bitsOf(64.75f), 133, ties);
        bfpAddTies(ties);
      }
    });
  for (auto &t : pool)
    t.join();
  uint64_t seen, up;
  bfpTieCounters(&seen, &up);
  EXPECT_EQ(seen, uint64_t(2) * threads * perThread);
  EXPECT_EQ(up, uint64_t(threads) * perThread);
  bfpTieCounters(nullptr, nullptr);
  bfpTieCountersReset();
  bfpTieCounters(&seen, &up);
  EXPECT_EQ(seen + up, 0u);
}

TEST(Bfp, Errors) {
  float tile[kBfpTileValues] = {};
  uint8_t out[1088];
  std::memset(out, 0xEE, sizeof out);
  EXPECT_EQ(bfpPack(kNumBfpFormats, int(Dtype::float32), reinterpret_cast<uint32_t *>(tile), 1, kBfpTileSide, kBfpTileSide, 0, out)
                .code,
            ErrorCode::invalidFormat);
  EXPECT_EQ(bfpPack(0, int(Dtype::float32), nullptr, 1, kBfpTileSide, kBfpTileSide, 0, out).code, ErrorCode::invalidArgument);
  for (uint8_t b : out)
    ASSERT_EQ(b, 0xEE);
  EXPECT_TRUE(bfpPack(0, int(Dtype::float32), nullptr, 0, kBfpTileSide, kBfpTileSide, 0, nullptr).ok());
}

} // namespace
