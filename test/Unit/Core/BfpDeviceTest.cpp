//===- BfpDeviceTest.cpp - the Tensix packer and unpacker -----------------===//
//
// docs/Semantics.md section 5, "The device's bytes" [ttsim], against a
// deliberately plain second implementation written from that text:
// exhaustive on every bf16 and fp16 value, every datum and exponent, and on
// seeded random tiles of every site, format, shape, layout and form.
//
//===----------------------------------------------------------------------===//
#include "birsim/Core/Bfp.h"
#include "birsim/Core/Convert.h"
#include "Kernels/Kernels.h"
#include "Paths.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace birsim::core;

namespace {

//===-- The plain implementation, from the section's text -----------------===//

namespace plain {

bool nanF32(uint32_t x) { return (x & 0x7FFFFFFFu) > 0x7F800000u; }

/// The table's per-value step, then the flush, as the section states them.
uint32_t step(BfpSite site, uint32_t x) {
  uint32_t v = 0;
  bool flushAfter = true;
  switch (site) {
  case BfpSite::fp32_dest:
    v = x / 65536; // truncate
    break;
  case BfpSite::fp32_dest_e8m6:
    if (nanF32(x))
      x = (x & 0x80000000u) | 0x7F800000u;
    v = ((x / 65536) + 1) / 2 * 2;
    break;
  case BfpSite::bf16_dest:
  case BfpSite::bf16_dest_e8m6:
    v = x;
    if ((v & 0x7FFF) > 0x7F80)
      v = (v & 0x8000) | 0x7F80;
    if (site == BfpSite::bf16_dest_e8m6) {
      if ((v & 0x7FFF) < 0x80)
        v = 0;
      v = (v + 1) / 2 * 2;
    }
    break;
  case BfpSite::fp16_dest: {
    uint32_t h = x;
    if ((h & 0x7FFF) > 0x7FF7)
      h = (h & 0x8000) | 0x7FF0;
    h = (h + 8) / 16 * 16;
    if ((h & 0x7FFF) < 0x400)
      return 0;
    uint32_t e = (h >> 10) % 32, m = h % 1024;
    return (h & 0x8000) | (e + 112) << 7 | m >> 3;
  }
  case BfpSite::host:
    break;
  }
  if (flushAfter && (v & 0x7FFF) < 0x80)
    v = 0;
  return v;
}

/// The block rule, with the alignment's rounding in floating point.
uint8_t block(const uint32_t *v, unsigned m, uint8_t *datums) {
  unsigned shared = 0;
  for (int j = 0; j < 16; ++j)
    if (((v[j] >> 7) & 255) > shared)
      shared = (v[j] >> 7) & 255;
  for (int j = 0; j < 16; ++j) {
    unsigned e = (v[j] >> 7) & 255;
    unsigned mag = (v[j] & 127) + (e != 0 ? 128 : 0);
    unsigned d = shared - e;
    unsigned q = 0;
    if (d < 8) {
      q = unsigned(std::floor(std::ldexp(double(mag), -int(d + 1)) + 0.5));
      if (q == 128)
        q = 127;
    }
    q = q >> (7 - m);
    unsigned sign = v[j] >> 15;
    datums[j] = uint8_t(q == 0 ? 0 : q + (sign << m));
  }
  return uint8_t(shared);
}

/// The unpacker's decode, as fp32 bits.
uint32_t decode(unsigned m, uint8_t datum, uint8_t shared) {
  unsigned sign = (datum >> m) & 1;
  unsigned mag = (datum & ((1u << m) - 1)) << (7 - m); // 7-bit magnitude
  if (mag == 0)
    return sign ? 0xFF800000u : 0;
  int lead = 6;
  while (!(mag & (1u << lead)))
    --lead;
  unsigned lz = unsigned(6 - lead);
  unsigned exponent = (shared + 256 - lz) % 256;
  unsigned fraction = (mag << (lz + 1)) & 0x7E; // the 6 bits below the one
  uint32_t bf16 = sign << 15 | exponent << 7 | fraction;
  return bf16 << 16;
}

} // namespace plain

const BfpSite kDeviceSites[] = {BfpSite::fp32_dest, BfpSite::fp32_dest_e8m6,
                                BfpSite::bf16_dest, BfpSite::bf16_dest_e8m6,
                                BfpSite::fp16_dest};

bool writes(BfpSite site, const BfpFormatInfo &f) {
  return f.exponent == BfpExponent::Fp32 &&
         f.magnitudeBits >= lookupBfpSite(int(site))->minMagnitudeBits;
}

//===-- Exhaustive --------------------------------------------------------===//

// Every bf16 value through the bf16 paths, every fp16 value through the
// fp16 path, and every top half of fp32 with its low halves' classes
// through the fp32 paths.
TEST(BfpDevice, EveryValueStep) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    for (BfpSite site : {BfpSite::bf16_dest, BfpSite::bf16_dest_e8m6,
                         BfpSite::fp16_dest})
      ASSERT_EQ(bfpDeviceValue(site, h), plain::step(site, h))
          << int(site) << " 0x" << std::hex << h;
    for (uint32_t low : {0u, 1u, 0x7FFFu, 0x8000u, 0x8001u, 0xFFFFu})
      for (BfpSite site : {BfpSite::fp32_dest, BfpSite::fp32_dest_e8m6})
        ASSERT_EQ(bfpDeviceValue(site, h << 16 | low),
                  plain::step(site, h << 16 | low))
            << int(site) << " 0x" << std::hex << (h << 16 | low);
  }
  // The section's examples.
  EXPECT_EQ(bfpDeviceValue(BfpSite::fp32_dest_e8m6, 0x007F0000u), 0x0080);
  EXPECT_EQ(bfpDeviceValue(BfpSite::bf16_dest_e8m6, 0x007F), 0);
  EXPECT_EQ(bfpDeviceValue(BfpSite::fp16_dest, 0x7C00), (143u << 7));
  EXPECT_EQ(bfpDeviceValue(BfpSite::fp32_dest, 0x7FC00001u), 0x7FC0);
  EXPECT_EQ(bfpDeviceValue(BfpSite::fp32_dest_e8m6, 0xFFC00000u), 0xFF80);
}

// Every 16-bit value as a block's element under every shared-exponent
// offset 0..9 (the largest exponent set by a second element), every "b"
// width: the shared byte and all 16 datums.
TEST(BfpDevice, EveryValueUnderEveryOffset) {
  for (uint32_t v = 0; v < 0x10000; ++v) {
    unsigned e = (v >> 7) & 255;
    for (unsigned offset = 0; offset <= 9 && e + offset <= 255; ++offset) {
      uint16_t values[16] = {uint16_t(v), uint16_t((e + offset) << 7 | 0x55)};
      uint32_t wide[16];
      for (int j = 0; j < 16; ++j)
        wide[j] = values[j];
      for (unsigned m : {7u, 3u, 1u}) {
        uint8_t got[16], want[16];
        uint8_t shared = bfpDeviceBlock(values, m, got);
        ASSERT_EQ(shared, plain::block(wide, m, want));
        ASSERT_EQ(std::memcmp(got, want, 16), 0)
            << "v=0x" << std::hex << v << " offset " << offset << " m " << m;
      }
    }
  }
}

// Every datum of every width under every exponent byte.
TEST(BfpDevice, EveryDatumDecodes) {
  for (unsigned m : {7u, 3u, 1u})
    for (unsigned datum = 0; datum < (2u << m); ++datum)
      for (unsigned shared = 0; shared < 256; ++shared)
        ASSERT_EQ(bfpDeviceDecode(m, uint8_t(datum), uint8_t(shared)),
                  plain::decode(m, uint8_t(datum), uint8_t(shared)))
            << m << " " << datum << " " << shared;
  EXPECT_EQ(bfpDeviceDecode(7, 0x80, 127), 0xFF800000u); // sign alone: -Inf
  EXPECT_EQ(bfpDeviceDecode(3, 0x8, 127), 0xFF800000u);
}

//===-- Tiles -------------------------------------------------------------===//

/// Random Dest values with NaN, Inf, zeros, denormals and E8M6 carries.
uint32_t randomDest(std::mt19937 &rng, unsigned bytes) {
  uint32_t r = rng();
  switch (rng() % 8) {
  case 0:
    r = (r & 0x80000000u) | 0x7F800000u | (rng() % 2 ? 0 : r & 0x7FFFFF);
    break; // Inf, NaN
  case 1:
    r &= 0x807FFFFFu; // zeros, denormals
    break;
  case 2:
    r |= 0x00FF0000u; // mantissa all ones: carries
    break;
  case 3:
    r = (r & 0x8000FFFFu) | (uint32_t(120 + rng() % 16) << 23);
    break; // a narrow exponent range
  default:
    break;
  }
  return bytes == 4 ? r : r >> 16;
}

/// The section's pack, written plainly over a row-major 32x32 tile.
std::vector<uint8_t> plainPack(BfpSite site, const BfpFormatInfo &f,
                               const std::vector<uint32_t> &tile) {
  std::vector<uint8_t> out(kBfpTileBlocks + 1024 * f.datumBits / 8, 0);
  for (unsigned b = 0; b < kBfpTileBlocks; ++b) {
    unsigned face = b / 16, row = b % 16;
    uint32_t values[16];
    for (unsigned j = 0; j < 16; ++j)
      values[j] = plain::step(
          site, tile[((face / 2) * 16 + row) * 32 + (face % 2) * 16 + j]);
    uint8_t datums[16];
    out[b] = plain::block(values, f.magnitudeBits, datums);
    for (unsigned j = 0; j < 16; ++j) {
      unsigned i = b * 16 + j, perByte = 8 / f.datumBits;
      out[kBfpTileBlocks + i / perByte] |=
          uint8_t(datums[j] << (i % perByte) * f.datumBits);
    }
  }
  return out;
}

// Seeded random 32x32 tiles through every site and "b" format: the bytes
// of the plain pack, the unpacker's values of the plain decode.
TEST(BfpDevice, RandomTilesAgainstThePlainPacker) {
  birsim::test::PathGuard guard;
  for (Isa isa : birsim::test::everyPath()) {
  selectIsa(isa);
  std::mt19937 rng(30);
  for (BfpSite site : kDeviceSites) {
    const BfpSiteInfo &info = *lookupBfpSite(int(site));
    const DtypeInfo &dest = dtypeInfo(Dtype(info.dest));
    for (const BfpFormatInfo &f : kBfpFormatTable) {
      if (!writes(site, f))
        continue;
      for (int round = 0; round < 40; ++round) {
        std::vector<uint32_t> tile(1024);
        std::vector<uint8_t> raw(1024 * dest.bytes);
        for (unsigned i = 0; i < 1024; ++i) {
          tile[i] = randomDest(rng, dest.bytes);
          std::memcpy(&raw[i * dest.bytes], &tile[i], dest.bytes);
        }
        BfpCall call;
        call.site = int(site);
        call.format = int(f.format);
        call.tileRows = call.tileCols = 32;
        call.tiles = 1;
        std::vector<uint8_t> got(kBfpTileBlocks + 1024 * f.datumBits / 8);
        ASSERT_TRUE(bfpPack(call, int(dest.dtype), raw.data(), got.data()).ok());
        ASSERT_EQ(got, plainPack(site, f, tile)) << info.name << " " << f.name;
        std::vector<uint32_t> back(1024);
        ASSERT_TRUE(bfpUnpack(call, got.data(), back.data()).ok());
        for (unsigned b = 0; b < kBfpTileBlocks; ++b)
          for (unsigned j = 0; j < 16; ++j) {
            unsigned i = b * 16 + j, perByte = 8 / f.datumBits;
            uint8_t datum = uint8_t(got[kBfpTileBlocks + i / perByte] >>
                                    (i % perByte) * f.datumBits) &
                            uint8_t((1u << f.datumBits) - 1);
            unsigned face = b / 16, row = b % 16;
            ASSERT_EQ(back[((face / 2) * 16 + row) * 32 + (face % 2) * 16 + j],
                      plain::decode(f.magnitudeBits, datum, got[b]))
                << isaName(isa);
          }
      }
    }
  }
  }
}

// Every tile shape, face layout and matrix form (with transpose) packs at
// a device site as the tile form of the same values in face order: the
// site changes the numbers, never the placement.
TEST(BfpDevice, ShapesLayoutsAndMatricesPlaceAsTheHost) {
  std::mt19937 rng(31);
  for (const BfpTileShape &shape : kBfpTileShapes)
    for (BfpSite site : {BfpSite::fp32_dest, BfpSite::bf16_dest_e8m6}) {
      const DtypeInfo &dest =
          dtypeInfo(Dtype(lookupBfpSite(int(site))->dest));
      size_t rows = shape.rows * 2, cols = shape.cols * 3;
      std::vector<uint8_t> matrix(rows * cols * dest.bytes);
      for (size_t i = 0; i < rows * cols; ++i) {
        uint32_t v = randomDest(rng, dest.bytes);
        std::memcpy(&matrix[i * dest.bytes], &v, dest.bytes);
      }
      for (bool transpose : {false, true}) {
        if (transpose && shape.rows < 16)
          continue;
        BfpCall host;
        host.format = int(BfpFormat::bfp4_b);
        host.form = BfpForm::Matrix;
        host.tileRows = shape.rows;
        host.tileCols = shape.cols;
        host.rows = rows;
        host.cols = cols;
        host.flags = transpose ? kBfpTranspose : 0;
        BfpCall device = host;
        device.site = int(site);
        size_t bytes =
            6 * shape.packedBytes(*lookupBfpFormat(int(BfpFormat::bfp4_b)));
        std::vector<uint8_t> got(bytes), tiled(bytes);
        ASSERT_TRUE(bfpPack(device, int(dest.dtype), matrix.data(), got.data())
                        .ok());
        // The same values gathered tile by tile in face order (the
        // placement §5's matrix forms state), packed as the tile form.
        BfpCall tilesCall;
        tilesCall.site = int(site);
        tilesCall.format = host.format;
        tilesCall.tileRows = shape.rows;
        tilesCall.tileCols = shape.cols;
        tilesCall.tiles = 6;
        tilesCall.flags = kBfpFaces;
        std::vector<uint8_t> gathered(rows * cols * dest.bytes);
        size_t t = 0;
        for (size_t tr = 0; tr < rows / shape.rows; ++tr)
          for (size_t tc = 0; tc < cols / shape.cols; ++tc, ++t)
            for (unsigned b = 0; b < shape.blocks(); ++b)
              for (unsigned j = 0; j < 16; ++j) {
                // §5 matrix forms: block b of the tile's face order.
                unsigned face = b / shape.faceRows(), r = b % shape.faceRows();
                size_t row, col;
                if (!transpose) {
                  row = (face / shape.facesAcross()) * shape.faceRows() + r;
                  col = (face % shape.facesAcross()) * 16 + j;
                } else {
                  bool byColumn =
                      shape.facesDown() > 1 && shape.facesAcross() > 1;
                  unsigned fh = byColumn ? face % shape.facesDown()
                                         : face / shape.facesAcross();
                  unsigned fw = byColumn ? face / shape.facesDown()
                                         : face % shape.facesAcross();
                  row = fh * 16 + j;
                  col = fw * 16 + r;
                }
                size_t from = (tr * shape.rows + row) * cols +
                              tc * shape.cols + col;
                size_t to = (t * shape.values() + b * 16 + j) * dest.bytes;
                std::memcpy(&gathered[to], &matrix[from * dest.bytes],
                            dest.bytes);
              }
        ASSERT_TRUE(
            bfpPack(tilesCall, int(dest.dtype), gathered.data(), tiled.data())
                .ok());
        ASSERT_EQ(got, tiled) << shape.rows << "x" << shape.cols
                              << (transpose ? " transposed" : "");
      }
    }
}

//===-- The device diff ---------------------------------------------------===//

// The mask and count are the per-element comparison of the host's and the
// device's round trips (NaN against NaN equal), in input order.
TEST(BfpDevice, DiffIsThePerElementComparison) {
  birsim::test::PathGuard guard;
  for (Isa isa : birsim::test::everyPath()) {
  selectIsa(isa);
  std::mt19937 rng(32);
  for (BfpSite site : kDeviceSites) {
    const DtypeInfo &dest = dtypeInfo(Dtype(lookupBfpSite(int(site))->dest));
    for (const BfpFormatInfo &f : kBfpFormatTable) {
      if (!writes(site, f))
        continue;
      std::vector<uint8_t> raw(3 * 512 * dest.bytes);
      std::vector<uint32_t> wide(3 * 512);
      for (size_t i = 0; i < wide.size(); ++i) {
        uint32_t v = randomDest(rng, dest.bytes);
        std::memcpy(&raw[i * dest.bytes], &v, dest.bytes);
        wide[i] = readAsF32(dest, v);
      }
      BfpCall call;
      call.site = int(site);
      call.format = int(f.format);
      call.tileRows = 16;
      call.tileCols = 32;
      call.tiles = 3;
      BfpCall host = call;
      host.site = int(BfpSite::host);
      size_t bytes = 3 * kBfpTileShapes[1].packedBytes(f);
      std::vector<uint8_t> hostPacked(bytes), devicePacked(bytes);
      ASSERT_TRUE(bfpPack(host, int(Dtype::float32), wide.data(),
                          hostPacked.data())
                      .ok());
      ASSERT_TRUE(
          bfpPack(call, int(dest.dtype), raw.data(), devicePacked.data()).ok());
      std::vector<uint32_t> hostBack(wide.size()), deviceBack(wide.size());
      ASSERT_TRUE(bfpUnpack(host, hostPacked.data(), hostBack.data()).ok());
      ASSERT_TRUE(bfpUnpack(call, devicePacked.data(), deviceBack.data()).ok());
      std::vector<uint8_t> mask(wide.size(), 7);
      uint64_t count = 0, want = 0;
      ASSERT_TRUE(bfpDeviceDiff(call, int(dest.dtype), raw.data(), mask.data(),
                                &count)
                      .ok());
      for (size_t i = 0; i < wide.size(); ++i) {
        bool differs = hostBack[i] != deviceBack[i] &&
                       !(plain::nanF32(hostBack[i]) &&
                         plain::nanF32(deviceBack[i]));
        want += differs;
        ASSERT_EQ(mask[i], differs) << i;
      }
      EXPECT_EQ(count, want);
      uint64_t again = 0;
      ASSERT_TRUE(
          bfpDeviceDiff(call, int(dest.dtype), raw.data(), nullptr, &again)
              .ok());
      EXPECT_EQ(again, want);
    }
  }
  }
}

// Every vector path gives the portable path's bytes, values, mask and
// count: every device site and format it writes, every tile shape, both
// tile layouts and both matrix forms, and random packed bytes decoded.
TEST(BfpDevice, EveryPathAsThePortable) {
  birsim::test::PathGuard guard;
  std::mt19937 rng(34);
  for (BfpSite site : kDeviceSites) {
    const DtypeInfo &dest = dtypeInfo(Dtype(lookupBfpSite(int(site))->dest));
    for (const BfpFormatInfo &f : kBfpFormatTable) {
      if (!writes(site, f))
        continue;
      for (const BfpTileShape &shape : kBfpTileShapes)
        for (int form = 0; form < 4; ++form) {
          bool matrix = form >= 2, flag = form % 2;
          if (matrix && flag && shape.rows < 16)
            continue;
          size_t rows = shape.rows * 2, cols = shape.cols * 3, n = rows * cols;
          BfpCall call =
              matrix ? bfpMatrixCall(int(site), int(f.format), rows, cols,
                                     shape.rows, shape.cols,
                                     flag ? kBfpTranspose : 0)
                     : bfpTilesCall(int(site), int(f.format), 6, shape.rows,
                                    shape.cols, flag ? kBfpFaces : 0);
          std::vector<uint8_t> src(n * dest.bytes);
          for (size_t i = 0; i < n; ++i) {
            uint32_t v = randomDest(rng, dest.bytes);
            // fp16 signalling NaNs, which VCVTPH2PS quiets on the host side
            // of the vector diff.
            if (dest.dtype == Dtype::float16 && i % 7 == 0)
              v = 0x7C01 | (rng() & 0x81FF);
            std::memcpy(&src[i * dest.bytes], &v, dest.bytes);
          }
          std::vector<uint8_t> bytes(6 * shape.packedBytes(f));
          for (uint8_t &b : bytes)
            b = uint8_t(rng());
          struct Result {
            std::vector<uint8_t> packed, mask;
            std::vector<uint32_t> values;
            uint64_t count = 0;
          };
          auto run = [&](Isa isa) {
            selectIsa(isa);
            Result r;
            r.packed.resize(bytes.size());
            r.values.resize(n);
            r.mask.resize(n, 7);
            EXPECT_TRUE(
                bfpPack(call, int(dest.dtype), src.data(), r.packed.data())
                    .ok());
            EXPECT_TRUE(bfpUnpack(call, bytes.data(), r.values.data()).ok());
            EXPECT_TRUE(bfpDeviceDiff(call, int(dest.dtype), src.data(),
                                      r.mask.data(), &r.count)
                            .ok());
            return r;
          };
          Result want = run(Isa::portable);
          for (Isa isa : birsim::test::everyPath()) {
            Result got = run(isa);
            std::string what = std::string(isaName(isa)) + " " +
                               lookupBfpSite(int(site))->name + " " + f.name +
                               " " + std::to_string(shape.rows) + "x" +
                               std::to_string(shape.cols) + " form " +
                               std::to_string(form);
            ASSERT_EQ(got.packed, want.packed) << what;
            ASSERT_EQ(got.values, want.values) << what;
            ASSERT_EQ(got.mask, want.mask) << what;
            ASSERT_EQ(got.count, want.count) << what;
          }
        }
    }
  }
}

// tt-metal #57410: 1.375 in bfp4_b is 0b110 on the host and 0b101 on the
// device; 3.875 in a block with 8.0 is 2 against 1; on the E8M6 path
// 1.9921875 carries to 2.0 (a new shared exponent).
TEST(BfpDevice, Issue57410Vectors) {
  birsim::test::PathGuard guard;
  for (Isa isa : birsim::test::everyPath()) {
  selectIsa(isa);
  std::vector<float> tile(1024, 0.0f);
  tile[0] = 1.375f;
  tile[32] = 3.875f;
  tile[33] = 8.0f;
  tile[64] = 1.9921875f;
  for (BfpSite site : {BfpSite::host, BfpSite::fp32_dest,
                       BfpSite::fp32_dest_e8m6}) {
    BfpCall call;
    call.site = int(site);
    call.format = int(BfpFormat::bfp4_b);
    call.tileRows = call.tileCols = 32;
    call.tiles = 1;
    std::vector<uint8_t> out(576);
    ASSERT_TRUE(bfpPack(call, int(Dtype::float32), tile.data(), out.data()).ok());
    bool host = site == BfpSite::host;
    EXPECT_EQ(out[64] & 15, host ? 0b110 : 0b101);
    EXPECT_EQ(out[64 + 8] & 15, host ? 2 : 1);
    EXPECT_EQ(out[2], site == BfpSite::fp32_dest_e8m6 ? 128 : 127)
        << isaName(isa);
  }
  }
}

// No byte outside an output is written: every site, format, a tile and a
// matrix shape, packs, unpacks and the diff's mask between guard bytes, on
// the portable path and the best vector path.
TEST(BfpDevice, GuardBytesAroundEveryOutput) {
  constexpr size_t kGuard = 64;
  constexpr uint8_t kFill = 0xA5;
  auto guarded = [&](size_t n) {
    return std::vector<uint8_t>(n + 2 * kGuard, kFill);
  };
  auto guardsIntact = [](const std::vector<uint8_t> &v) {
    return std::all_of(v.begin(), v.begin() + kGuard,
                       [](uint8_t b) { return b == kFill; }) &&
           std::all_of(v.end() - kGuard, v.end(),
                       [](uint8_t b) { return b == kFill; });
  };
  std::mt19937 rng(33);
  Isa saved = activeIsa();
  for (Isa isa : {Isa::portable, bestIsa()}) {
    selectIsa(isa);
    for (BfpSite site : kDeviceSites) {
      const DtypeInfo &dest = dtypeInfo(Dtype(lookupBfpSite(int(site))->dest));
      for (const BfpFormatInfo &f : kBfpFormatTable) {
        if (!writes(site, f))
          continue;
        for (const BfpTileShape &shape :
             {BfpTileShape{32, 32}, BfpTileShape{1, 16}}) {
          size_t tiles = 3, n = tiles * shape.values();
          std::vector<uint8_t> src(n * dest.bytes);
          for (size_t i = 0; i < n; ++i) {
            uint32_t v = randomDest(rng, dest.bytes);
            std::memcpy(&src[i * dest.bytes], &v, dest.bytes);
          }
          for (bool matrix : {false, true}) {
            BfpCall call =
                matrix ? bfpMatrixCall(int(site), int(f.format),
                                       tiles * shape.rows, shape.cols,
                                       shape.rows, shape.cols, 0)
                       : bfpTilesCall(int(site), int(f.format), tiles,
                                      shape.rows, shape.cols, 0);
            std::vector<uint8_t> packed = guarded(tiles * shape.packedBytes(f));
            ASSERT_TRUE(bfpPack(call, int(dest.dtype), src.data(),
                                packed.data() + kGuard)
                            .ok());
            EXPECT_TRUE(guardsIntact(packed)) << lookupBfpSite(int(site))->name;
            std::vector<uint8_t> values = guarded(n * 4);
            ASSERT_TRUE(
                bfpUnpack(call, packed.data() + kGuard, values.data() + kGuard)
                    .ok());
            EXPECT_TRUE(guardsIntact(values)) << f.name;
          }
          std::vector<uint8_t> mask = guarded(n);
          uint64_t count = 0;
          ASSERT_TRUE(bfpDeviceDiff(bfpTilesCall(int(site), int(f.format),
                                                 tiles, shape.rows, shape.cols,
                                                 0),
                                    int(dest.dtype), src.data(),
                                    mask.data() + kGuard, &count)
                          .ok());
          EXPECT_TRUE(guardsIntact(mask));
        }
      }
    }
  }
  selectIsa(saved);
}

//===-- Errors: a status, the rule, nothing written -----------------------===//

TEST(BfpDevice, ErrorsNameTheRule) {
  std::vector<float> tile(1024, 1.0f);
  std::vector<uint8_t> out(1088, 0xAB);
  auto pack = [&](int site, BfpFormat format, Dtype src) {
    BfpCall call;
    call.site = site;
    call.format = int(format);
    call.tileRows = call.tileCols = 32;
    call.tiles = 1;
    return bfpPack(call, int(src), tile.data(), out.data());
  };
  EXPECT_NE(pack(1, BfpFormat::bfp8_a, Dtype::float32).message().find(
                "no \"a\" format path"),
            std::string::npos);
  EXPECT_NE(pack(2, BfpFormat::bfp2_b, Dtype::float32).message().find(
                "no bfp2 output through the bfp8 intermediate"),
            std::string::npos);
  EXPECT_NE(pack(5, BfpFormat::bfp4_b, Dtype::float16).message().find(
                "bfp8_b only"),
            std::string::npos);
  EXPECT_NE(pack(3, BfpFormat::bfp8_b, Dtype::float32).message().find(
                "bfloat16 at bf16_dest"),
            std::string::npos);
  EXPECT_NE(pack(kNumBfpSites, BfpFormat::bfp8_b, Dtype::float32)
                .message()
                .find("not a BFP site: expected host (0), fp32_dest (1)"),
            std::string::npos);
  EXPECT_EQ(std::count(out.begin(), out.end(), 0xAB), 1088);
  BfpCall host;
  host.format = 0;
  host.tileRows = host.tileCols = 32;
  host.tiles = 1;
  uint64_t count = 99;
  EXPECT_NE(bfpDeviceDiff(host, int(Dtype::float32), tile.data(), nullptr,
                          &count)
                .message()
                .find("name a device site"),
            std::string::npos);
  EXPECT_EQ(count, 99u);
}

} // namespace

//===-- DRAM pages (§5 pages) ---------------------------------------------===//

// A tile's page stride is its bytes rounded up to the alignment (the
// tt-formats notes' table, rows spelled out), 0 for what is not a page.
TEST(BfpPages, StrideIsTheTileRoundedUp) {
  struct Row {
    uint32_t rows, cols;
    BfpFormat format;
    size_t bytes, page32, page64;
  } rows[] = {{32, 32, BfpFormat::bfp8_b, 1088, 1088, 1088},
              {16, 32, BfpFormat::bfp8_b, 544, 544, 576},
              {16, 32, BfpFormat::bfp4_b, 288, 288, 320},
              {16, 16, BfpFormat::bfp2_b, 80, 96, 128},
              {1, 16, BfpFormat::bfp8_b, 32, 32, 64},
              {1, 16, BfpFormat::bfp2_b, 20, 32, 64}};
  for (const Row &r : rows) {
    EXPECT_EQ(bfpPageBytes(int(r.format), r.rows, r.cols, 0), r.bytes);
    EXPECT_EQ(bfpPageBytes(int(r.format), r.rows, r.cols, 32), r.page32);
    EXPECT_EQ(bfpPageBytes(int(r.format), r.rows, r.cols, 64), r.page64);
  }
  for (const BfpFormatInfo &f : kBfpFormatTable)
    for (const BfpTileShape &shape : kBfpTileShapes)
      for (unsigned a : {0u, 32u, 64u}) {
        if (!f.takesTileOf(shape.values())) { // MX 1x16
          EXPECT_EQ(bfpPageBytes(int(f.format), shape.rows, shape.cols, a), 0u);
          continue;
        }
        size_t bytes = shape.packedBytes(f),
               page = bfpPageBytes(int(f.format), shape.rows, shape.cols, a);
        EXPECT_GE(page, bytes);
        EXPECT_LT(page, bytes + (a ? a : 1));
        EXPECT_EQ(page % (a ? a : 1), 0u);
      }
  EXPECT_EQ(bfpPageBytes(0, 32, 32, 16), 0u);
  EXPECT_EQ(bfpPageBytes(0, 3, 32, 32), 0u);
  EXPECT_EQ(bfpPageBytes(kNumBfpFormats, 32, 32, 32), 0u);
}

// Packing to pages writes each tile's bytes at its stride and zeros after
// them, every format, shape, form and site, on every path; unpacking pages
// reads the same values; both alignments at once is an error.
TEST(BfpPages, PagesHoldTheTilesThenZeros) {
  birsim::test::PathGuard guard;
  std::mt19937 rng(46543);
  for (Isa isa : birsim::test::everyPath()) {
    selectIsa(isa);
    for (const BfpSiteInfo &site : kBfpSiteTable)
      for (const BfpFormatInfo &f : kBfpFormatTable) {
        if (site.onDevice() && !writes(site.site, f))
          continue;
        Dtype dtype = site.onDevice() ? Dtype(site.dest) : Dtype::float32;
        const DtypeInfo &info = dtypeInfo(dtype);
        for (const BfpTileShape &shape : kBfpTileShapes)
          for (bool matrix : {false, true}) {
            if (!f.takesTileOf(shape.values()))
              continue;
            size_t tiles = 3, n = tiles * shape.values();
            std::vector<uint8_t> src(n * info.bytes);
            for (size_t i = 0; i < n; ++i) {
              uint32_t v = randomDest(rng, info.bytes);
              std::memcpy(&src[i * info.bytes], &v, info.bytes);
            }
            auto call = [&](unsigned flags) {
              return matrix ? bfpMatrixCall(int(site.site), int(f.format),
                                            tiles * shape.rows, shape.cols,
                                            shape.rows, shape.cols, flags)
                            : bfpTilesCall(int(site.site), int(f.format),
                                           tiles, shape.rows, shape.cols,
                                           flags);
            };
            size_t bytes = shape.packedBytes(f);
            std::vector<uint8_t> plainTiles(tiles * bytes);
            ASSERT_TRUE(bfpPack(call(0), int(dtype), src.data(),
                                plainTiles.data())
                            .ok());
            std::vector<float> want(n);
            ASSERT_TRUE(bfpUnpack(call(0), plainTiles.data(), want.data()).ok());
            for (unsigned flag : {kBfpFlag_page32, kBfpFlag_page64}) {
              size_t stride = bfpPageBytes(int(f.format), shape.rows,
                                           shape.cols,
                                           bfpPageAlignmentOf(flag));
              std::vector<uint8_t> pages(tiles * stride, 0xA5);
              ASSERT_TRUE(
                  bfpPack(call(flag), int(dtype), src.data(), pages.data())
                      .ok());
              for (size_t t = 0; t < tiles; ++t) {
                ASSERT_TRUE(std::equal(plainTiles.begin() + t * bytes,
                                       plainTiles.begin() + (t + 1) * bytes,
                                       pages.begin() + t * stride))
                    << isaName(isa) << " " << f.name;
                ASSERT_TRUE(std::all_of(pages.begin() + t * stride + bytes,
                                        pages.begin() + (t + 1) * stride,
                                        [](uint8_t b) { return b == 0; }))
                    << isaName(isa) << " " << f.name;
              }
              std::vector<float> got(n);
              ASSERT_TRUE(bfpUnpack(call(flag), pages.data(), got.data()).ok());
              ASSERT_EQ(0, std::memcmp(got.data(), want.data(), n * 4));
            }
            std::vector<uint8_t> out(tiles * 2 * bytes + 64, 0xA5);
            Status both = bfpPack(call(kBfpFlag_page32 | kBfpFlag_page64),
                                  int(dtype), src.data(), out.data());
            ASSERT_FALSE(both.ok());
            EXPECT_STREQ(both.detail,
                         "one page alignment: page32 (8) or page64 (16)");
            EXPECT_TRUE(std::all_of(out.begin(), out.end(),
                                    [](uint8_t b) { return b == 0xA5; }));
          }
      }
  }
}

//===-- The exponent search (§5, tt-metal PR #57298) ----------------------===//

std::vector<uint8_t> packSearch(BfpFormat format, Dtype dtype,
                                const void *values, size_t tiles,
                                unsigned flags) {
  const BfpFormatInfo &f = *lookupBfpFormat(int(format));
  std::vector<uint8_t> out(tiles * kBfpTileShapes[0].packedBytes(f));
  EXPECT_TRUE(bfpPack(bfpTilesCall(0, int(format), tiles, 32, 32, flags),
                      int(dtype), values, out.data())
                  .ok());
  return out;
}

// PR #57298's vectors: every 16th value 1.0, the others 0.13 (bfp4_b) or
// 0.008 (bfp8_b): Emax - 1 (126) wins, 1.0 becomes 0.875 / 0.9921875 and
// the small values 0.125 / 0.0078125; without the search 127. Row-major and
// face-order inputs give the same bytes.
TEST(BfpExpSearch, PullRequestVectors) {
  for (BfpFormat format : {BfpFormat::bfp4_b, BfpFormat::bfp8_b}) {
    bool four = format == BfpFormat::bfp4_b;
    std::vector<float> tile(1024, four ? 0.13f : 0.008f);
    for (size_t i = 0; i < 1024; i += 16)
      tile[i] = 1.0f;
    for (unsigned layout : {0u, kBfpFaces}) {
      std::vector<uint8_t> searched =
          packSearch(format, Dtype::float32, tile.data(), 1,
                     layout | kBfpFlag_exp_search);
      uint32_t word;
      std::memcpy(&word, searched.data(), 4);
      EXPECT_EQ(word, 0x7e7e7e7eu);
      std::vector<float> back(1024);
      ASSERT_TRUE(bfpUnpack(bfpTilesCall(0, int(format), 1, 32, 32, layout),
                            searched.data(), back.data())
                      .ok());
      EXPECT_EQ(back[0], four ? 0.875f : 0.9921875f);
      EXPECT_EQ(back[1], four ? 0.125f : 0.0078125f);
      std::vector<uint8_t> plainBytes =
          packSearch(format, Dtype::float32, tile.data(), 1, layout);
      std::memcpy(&word, plainBytes.data(), 4);
      EXPECT_EQ(word, 0x7f7f7f7fu);
    }
  }
}

// The searched pack is the same bytes on every path and with events
// counted (the portable search): every tile shape, both layouts, the
// matrix forms plain and transposed, float32 and bfloat16, over blocks
// whose values span many binades (squares of very different sizes, so the
// block-order sums round), near the two exponents' boundary, small enough
// that the squares of their errors underflow fp32, with equal exact sums
// of many bits, at the bound past which the vector search keeps Emax
// unsearched, subnormal, and PR #57298's.
// The bytes and the tie counters: tiles 0-2 mix every kind, tiles 3-5
// hold normal values mostly, tile 3 with an Inf or a NaN in some blocks.
TEST(BfpExpSearch, EveryPathAsThePortableSearch) {
  std::mt19937 rng(57298);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  unsigned m = 0;         // the format's magnitude bits
  size_t mixedEnd = 0;    // the values of the tiles of every kind
  size_t specialsEnd = 0; // ... and of the tile with Infs and NaNs
  auto draw = [&](size_t i) -> uint32_t {
    size_t block = i / 16;
    uint32_t r = uint32_t(rng());
    float x;
    switch (i < mixedEnd ? block % 8 : block % 2) {
    case 0:
      x = std::ldexp(normal(rng), int(r % 60) - 30);
      break;
    case 1:
      x = std::ldexp(normal(rng), int(block % 31) - 15);
      break;
    case 2: // the largest value and many just below half of it
      x = r % 16 ? std::ldexp(1.0f - float(r % 64) / 1024, -1) : 1.0f;
      x = r & 0x10000 ? -x : x;
      break;
    case 3:
      x = r % 16 ? 0.13f : 1.0f;
      break;
    case 4: // errors whose squares lie below fp32's normal range
      x = std::ldexp(normal(rng), -62 - int(block % 24));
      break;
    case 5: { // equal squared errors: 1 + a, an odd multiple of the step
              // under Emax - 1 and another one step / 2 - a above one (the
              // rest 0), a of many bits
      std::mt19937 b{uint32_t(block)};
      float step = std::ldexp(1.0f, -int(m));
      float a = float(1 + b() % ((1u << (22 - m)) - 1)) * 0x1p-23f;
      unsigned lane = unsigned(i % 16), first = b() % 16,
               second = (first + 1 + b() % 15) % 16,
               third = (second + 1 + b() % 14) % 16;
      auto odd = [&] {
        return float((1u << (m - 1)) + 1 + 2 * (b() % (1u << (m - 2))));
      };
      float oddOne = odd(), oddTwo = odd();
      x = lane == first    ? 1 + a
          : lane == second ? oddOne * step
          : lane == third  ? oddTwo * step + (step / 2 - a)
                           : 0.0f;
      x = r & 1 ? -x : x;
      break;
    }
    case 6: { // the largest 1 + f, f up to just past the vector search's
              // bound kBfpSearchKeepsEmax (3 / 2^m and 4 ulps), the rest
              // odd multiples of half the step under Emax (ties there,
              // exact under Emax - 1): Emax - 1 wins up to that bound
      uint32_t largest =
          127u << 23 | ((2u << (23 - m)) + r % ((1u << (23 - m)) + 6));
      if (i % 16 == block % 16)
        std::memcpy(&x, &largest, 4);
      else
        x = float(2 * (r % (1u << (m - 1))) + 1) * std::ldexp(1.0f, -int(m));
      x = r & 0x20000 ? -x : x;
      break;
    }
    default: { // subnormal and tiny normal values: exponents 1-8, and
               // the block's own exponent from 20 to 27, or (every other
               // such block) exponents up to m - 1 ... m + 2 (the search's
               // least Emax is m + 1)
      bool low = block % 16 == 7;
      uint32_t top = low ? m - 1 + unsigned(block / 16 % 4) : 20 + block % 8;
      uint32_t bits =
          (r & 0x807FFFFFu) | (r % 3 == 0   ? (1 + r % (low ? top : 8)) << 23
                               : r % 3 == 1 ? top << 23
                                            : 0);
      std::memcpy(&x, &bits, 4);
    }
    }
    uint32_t bits;
    std::memcpy(&bits, &x, 4);
    if (i >= mixedEnd && i < specialsEnd && i % 97 == 1)
      bits = r & 1 ? 0xFF800000u : 0x7FC00001u;
    return bits;
  };
  birsim::test::PathGuard guard;
  for (const BfpTileShape &shape : kBfpTileShapes)
    for (BfpFormat format : {BfpFormat::bfp4_b, BfpFormat::bfp8_b})
      for (Dtype dtype : {Dtype::float32, Dtype::bfloat16})
        for (int form = 0; form < 4; ++form) { // rows, faces, matrix, transposed
          if (form == 3 && shape.rows < 16)
            continue;
          size_t tiles = 6, n = tiles * shape.values();
          mixedEnd = n / 2;
          specialsEnd = mixedEnd + shape.values();
          std::vector<uint32_t> f32(n);
          m = lookupBfpFormat(int(format))->magnitudeBits;
          for (size_t i = 0; i < n; ++i)
            f32[i] = draw(i);
          std::vector<uint16_t> bf16(n);
          for (size_t i = 0; i < n; ++i)
            bf16[i] = uint16_t(f32[i] >> 16);
          const void *src = dtype == Dtype::float32 ? (const void *)f32.data()
                                                    : (const void *)bf16.data();
          BfpCall call =
              form < 2 ? bfpTilesCall(0, int(format), tiles, shape.rows,
                                      shape.cols,
                                      (form ? kBfpFaces : 0) | kBfpFlag_exp_search)
                       : bfpMatrixCall(0, int(format), 2 * shape.rows,
                                       3 * shape.cols, shape.rows, shape.cols,
                                       (form == 3 ? kBfpTranspose : 0) |
                                           kBfpFlag_exp_search);
          const BfpFormatInfo &f = *lookupBfpFormat(int(format));
          std::vector<uint8_t> want(tiles * shape.packedBytes(f));
          FidelityCounts counts;
          uint64_t wantTies[2], gotTies[2];
          bfpTieCountersReset();
          ASSERT_TRUE(bfpPack(call, int(dtype), src, want.data(), &counts).ok());
          bfpTieCounters(&wantTies[0], &wantTies[1]);
          for (Isa isa : birsim::test::everyPath()) {
            selectIsa(isa);
            std::vector<uint8_t> got(want.size(), 0xEE);
            bfpTieCountersReset();
            ASSERT_TRUE(bfpPack(call, int(dtype), src, got.data()).ok());
            bfpTieCounters(&gotTies[0], &gotTies[1]);
            EXPECT_EQ(gotTies[0], wantTies[0]) << isaName(isa);
            EXPECT_EQ(gotTies[1], wantTies[1]) << isaName(isa);
            for (size_t i = 0; i < want.size(); ++i)
              ASSERT_EQ(got[i], want[i])
                  << f.name << " " << shape.rows << "x" << shape.cols
                  << " form " << form << " " << dtypeInfo(dtype).name << " on "
                  << isaName(isa) << ": byte " << i;
          }
        }
}

// Per block, the search's choice is the smaller of the two squared errors
// of the decoded values (a plain second implementation: pack at Emax and at
// Emax - 1 by clamping, decode, sum in double); never worse than the plain
// pack; bfloat16 input packs as its float32 widening; constant tiles of
// specials are unchanged; other formats, inputs and sites are errors.
TEST(BfpExpSearch, ChoiceIsTheSmallerErrorAndNeverWorse) {
  std::mt19937 rng(42);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> values(4 * 1024);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = std::ldexp(normal(rng), int((i / 16) % 31) - 15);
  for (BfpFormat format : {BfpFormat::bfp4_b, BfpFormat::bfp8_b}) {
    const BfpFormatInfo &f = *lookupBfpFormat(int(format));
    std::vector<uint8_t> searched = packSearch(
        format, Dtype::float32, values.data(), 4, kBfpFaces | kBfpFlag_exp_search);
    std::vector<uint8_t> plainBytes =
        packSearch(format, Dtype::float32, values.data(), 4, kBfpFaces);
    std::vector<float> a(values.size()), b(values.size());
    BfpCall call = bfpTilesCall(0, int(format), 4, 32, 32, kBfpFaces);
    ASSERT_TRUE(bfpUnpack(call, searched.data(), a.data()).ok());
    ASSERT_TRUE(bfpUnpack(call, plainBytes.data(), b.data()).ok());
    int lowered = 0;
    for (size_t blk = 0; blk < values.size() / 16; ++blk) {
      const float *x = &values[blk * 16];
      // The plain search: both candidates' decoded values.
      uint32_t bits[16];
      std::memcpy(bits, x, sizeof bits);
      uint8_t emax = bfpSharedExponent(f, bits);
      double err[2] = {0, 0};
      for (int k = 0; k < 2; ++k) {
        unsigned shared = emax - k;
        for (unsigned j = 0; j < 16; ++j) {
          uint32_t v = bits[j];
          if (k && ((v >> 23) & 0xFF) > shared)
            v = (v & 0x80000000u) | shared << 23 | 0x7FFFFFu;
          BfpTally t;
          uint32_t q = bfpDecode(f, bfpEncode(f, v, shared, t), shared);
          float qf;
          std::memcpy(&qf, &q, 4);
          double d = double(x[j]) - double(qf);
          err[k] += d * d;
        }
      }
      bool searchable = emax > f.magnitudeBits && emax != 255;
      bool lower = searchable && err[1] < err[0];
      lowered += lower;
      size_t tile = blk / 64, block = blk % 64;
      size_t stride = kBfpTileShapes[0].packedBytes(f);
      ASSERT_EQ(searched[tile * stride + block], lower ? emax - 1 : emax)
          << f.name << " block " << blk;
      double errSearch = 0, errPlain = 0;
      for (unsigned j = 0; j < 16; ++j) {
        double ds = double(x[j]) - a[blk * 16 + j],
               dp = double(x[j]) - b[blk * 16 + j];
        errSearch += ds * ds;
        errPlain += dp * dp;
      }
      ASSERT_LE(errSearch, errPlain) << blk;
    }
    EXPECT_GT(lowered, 0) << f.name;
    // bfloat16 input: the bytes of its float32 widening.
    std::vector<uint16_t> bf16(values.size());
    std::vector<uint32_t> widened(values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      uint32_t v;
      std::memcpy(&v, &values[i], 4);
      bf16[i] = uint16_t(v >> 16);
      widened[i] = uint32_t(bf16[i]) << 16;
    }
    EXPECT_EQ(packSearch(format, Dtype::bfloat16, bf16.data(), 4,
                         kBfpFlag_exp_search),
              packSearch(format, Dtype::float32, widened.data(), 4,
                         kBfpFlag_exp_search));
    // Constant tiles of specials: the same bytes with and without.
    for (uint32_t special : {0u, 0x80000000u, 0x3F800000u, 0xBF800000u, 1u,
                             0x00800000u, 0x7F800000u, 0xFF800000u,
                             0x7FC00000u}) {
      std::vector<uint32_t> tile(1024, special);
      EXPECT_EQ(packSearch(format, Dtype::float32, tile.data(), 1,
                           kBfpFlag_exp_search),
                packSearch(format, Dtype::float32, tile.data(), 1, 0))
          << std::hex << special;
    }
  }
  std::vector<uint8_t> out(2048, 0xA5);
  std::vector<float> tile(1024, 1.0f);
  Status s = bfpPack(bfpTilesCall(0, int(BfpFormat::bfp2_b), 1, 32, 32,
                                  kBfpFlag_exp_search),
                     int(Dtype::float32), tile.data(), out.data());
  EXPECT_STREQ(s.detail,
               "the exponent search takes bfp8_b and bfp4_b (tt-metal PR "
               "#57298)");
  std::vector<int32_t> ints(1024, 1);
  s = bfpPack(bfpTilesCall(0, int(BfpFormat::bfp8_b), 1, 32, 32,
                           kBfpFlag_exp_search),
              int(Dtype::int32), ints.data(), out.data());
  EXPECT_STREQ(s.detail, "the exponent search takes float32 and bfloat16 "
                         "input (tt-metal PR #57298)");
  s = bfpPack(bfpTilesCall(int(BfpSite::fp32_dest), int(BfpFormat::bfp8_b), 1,
                           32, 32, kBfpFlag_exp_search),
              int(Dtype::float32), tile.data(), out.data());
  EXPECT_STREQ(s.detail,
               "the exponent search is the host packer's (tt-metal PR #57298)");
  EXPECT_TRUE(std::all_of(out.begin(), out.end(),
                          [](uint8_t b) { return b == 0xA5; }));
}
