//===- BfpLayoutTest.cpp - BFP shapes, layouts, inputs, matrix forms ------===//
//
// Every tile shape x layout x input type x format, and every matrix form
// with and without transpose, on every vector path and the portable one,
// against a deliberately plain second implementation written from
// tt-metal's index arithmetic (docs/Semantics.md section 5 [tt-metal]):
// convert_layout's row-major -> TILED_NFACES loops (write_face, the face
// loops, transpose_face / transpose_face_order), its inverse, and
// pack_as_bfp_tiles' block walk over face-order tiles into 32-bit words.
// The per-datum rule (bfpEncode, bfpSharedExponent, bfpDecode) is the
// core's, checked on its own against a reference in BfpTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "birsim/Core/Bfp.h"
#include "birsim/Core/Dtype.h"
#include "Paths.h"
#include "PlainMx.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace birsim::core;
namespace plainmx = birsim::test::plainmx;

namespace {

using Bytes = std::vector<uint8_t>;

// ---- the plain implementation ---------------------------------------------

/// One element of `dtype` at `p` as a float, the way tt-metal's
/// pack_as_bfp_tiles<Format, T> reads it: static_cast<float> for the
/// integers (the default rounding mode, to nearest even), bits << 16 for
/// bfloat16, the bits for float32.
float plainRead(Dtype dtype, const uint8_t *p) {
  switch (dtype) {
  case Dtype::int8: return float(int8_t(p[0]));
  case Dtype::uint8: return float(p[0]);
  case Dtype::uint16: { uint16_t v; std::memcpy(&v, p, 2); return float(v); }
  case Dtype::int32: { int32_t v; std::memcpy(&v, p, 4); return float(v); }
  case Dtype::uint32: { uint32_t v; std::memcpy(&v, p, 4); return float(v); }
  case Dtype::bfloat16: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    uint32_t bits = uint32_t(v) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  default: { float f; std::memcpy(&f, p, 4); return f; }
  }
}
uint32_t bitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

/// convert_layout(LIN_ROW_MAJOR -> TILED_NFACES) of an H x W matrix of
/// `bytes`-wide elements: tiles in row-major tile order, each face's rows
/// (or, transposed, its columns) one after another.
Bytes plainTilize(const Bytes &in, size_t H, size_t W, unsigned bytes,
                  unsigned tileH, unsigned tileW, bool transposeFace,
                  bool transposeFaceOrder) {
  unsigned faceH = tileH < 16 ? tileH : 16, faceW = 16;
  Bytes out;
  auto writeFace = [&](size_t faceIdx) {
    size_t offset = out.size();
    out.resize(offset + size_t(faceH) * faceW * bytes);
    for (unsigned row = 0; row < faceH; ++row)
      for (unsigned col = 0; col < faceW; ++col) {
        size_t src = faceIdx + row * W + col;
        size_t dst = transposeFace ? col * faceH + row : row * faceW + col;
        std::memcpy(&out[offset + dst * bytes], &in[src * bytes], bytes);
      }
  };
  for (size_t rowTile = 0; rowTile < H / tileH; ++rowTile)
    for (size_t colTile = 0; colTile < W / tileW; ++colTile) {
      size_t start = rowTile * tileH * W + colTile * tileW;
      if (!transposeFaceOrder) {
        for (unsigned fh = 0; fh < tileH / faceH; ++fh)
          for (unsigned fw = 0; fw < tileW / faceW; ++fw)
            writeFace(start + fw * faceW + fh * faceH * W);
      } else {
        for (unsigned fw = 0; fw < tileW / faceW; ++fw)
          for (unsigned fh = 0; fh < tileH / faceH; ++fh)
            writeFace(start + fw * faceW + fh * faceH * W);
      }
    }
  return out;
}

/// convert_layout(TILED_NFACES -> LIN_ROW_MAJOR), fp32: its index
/// arithmetic for square faces, transpose_face_order only where a tile has
/// more than one face each way.
std::vector<uint32_t> plainUntilize(const std::vector<uint32_t> &in, size_t H,
                                    size_t W, unsigned tileH, unsigned tileW,
                                    bool transposeFace, bool transposeFaceOrder) {
  size_t faceH = tileH < 16 ? tileH : 16, faceW = 16;
  size_t rowFaces = tileH / faceH, colFaces = tileW / faceW;
  size_t tileCols = W / tileW;
  transposeFaceOrder = transposeFaceOrder && rowFaces > 1 && colFaces > 1;
  std::vector<uint32_t> out(in.size());
  for (size_t tileRow = 0; tileRow < H / tileH; ++tileRow)
    for (size_t tileCol = 0; tileCol < tileCols; ++tileCol) {
      size_t inTile = tileRow * tileH * W + tileCol * tileH * tileW;
      size_t outTile = transposeFace
                           ? tileRow * tileW * tileH * tileCols +
                                 tileCol * faceH * colFaces
                           : tileRow * tileH * W + tileCol * tileW;
      for (size_t fh = 0; fh < rowFaces; ++fh)
        for (size_t fw = 0; fw < colFaces; ++fw) {
          size_t inFace = inTile + fh * faceH * tileW + fw * faceH * faceW;
          size_t fhDst = transposeFaceOrder ? fw : fh;
          size_t fwDst = transposeFaceOrder ? fh : fw;
          size_t outFace = transposeFace
                               ? outTile + fhDst * faceH * W + fwDst * faceH
                               : outTile + fhDst * faceH * W + fwDst * faceW;
          for (size_t row = 0; row < faceH; ++row)
            for (size_t col = 0; col < faceW; ++col)
              out[transposeFace ? outFace + col * faceH * colFaces * tileCols + row
                                : outFace + row * tileW * tileCols + col] =
                  in[inFace + row * faceW + col];
        }
    }
  return out;
}

/// pack_as_bfp_tiles over face-order fp32 tiles: per tile, the exponents
/// of its blocks (16 consecutive values) zero-padded to 16 bytes, then the
/// datums, 32 / datumBits per 32-bit word from the low bits.
Bytes plainPackMx(const BfpFormatInfo &f, const std::vector<uint32_t> &faces,
                  unsigned tileH, unsigned tileW);
Bytes plainPack(const BfpFormatInfo &f, const std::vector<uint32_t> &faces,
                unsigned tileH, unsigned tileW) {
  if (f.isMx())
    return plainPackMx(f, faces, tileH, tileW);
  size_t values = size_t(tileH) * tileW, blocks = values / 16;
  size_t exponentBytes = (blocks + 15) / 16 * 16;
  Bytes out;
  BfpTally tally;
  for (size_t t = 0; t < faces.size() / values; ++t) {
    Bytes exponents(exponentBytes, 0);
    std::vector<uint32_t> words(values * f.datumBits / 32, 0);
    for (size_t b = 0; b < blocks; ++b) {
      const uint32_t *block = &faces[t * values + b * 16];
      exponents[b] = bfpSharedExponent(f, block);
      for (unsigned j = 0; j < 16; ++j) {
        size_t i = b * 16 + j;
        uint32_t datum = bfpEncode(f, block[j], exponents[b], tally);
        words[i * f.datumBits / 32] |= datum << (i * f.datumBits % 32);
      }
    }
    out.insert(out.end(), exponents.begin(), exponents.end());
    for (uint32_t w : words)
      for (int k = 0; k < 4; ++k)
        out.push_back(uint8_t(w >> 8 * k));
  }
  return out;
}

/// MX tiles (docs/Semantics.md section 5, MX tiles) with PlainMx.h's
/// elements: per tile the scale bytes of its 32-value blocks zero-padded to
/// 16, then the elements in storage slots of 32-bit words from the low bits,
/// each code at the top of its slot.
Bytes plainPackMx(const BfpFormatInfo &f, const std::vector<uint32_t> &faces,
                  unsigned tileH, unsigned tileW) {
  plainmx::Format p = plainmx::formatOf(f.name);
  size_t values = size_t(tileH) * tileW, blocks = values / 32;
  Bytes out;
  for (size_t t = 0; t < faces.size() / values; ++t) {
    Bytes scales((blocks + 15) / 16 * 16, 0);
    std::vector<uint32_t> words(values * p.storage / 32, 0);
    for (size_t b = 0; b < blocks; ++b) {
      const uint32_t *block = &faces[t * values + b * 32];
      scales[b] = plainmx::scale(p, block);
      for (unsigned j = 0; j < 32; ++j) {
        size_t i = b * 32 + j;
        uint32_t code = plainmx::encode(p, block[j], scales[b]);
        words[i * p.storage / 32] |= code << (p.storage - p.bits)
                                          << (i * p.storage % 32);
      }
    }
    out.insert(out.end(), scales.begin(), scales.end());
    for (uint32_t w : words)
      for (int k = 0; k < 4; ++k)
        out.push_back(uint8_t(w >> 8 * k));
  }
  return out;
}

/// The inverse: face-order fp32 tiles from packed bytes.
std::vector<uint32_t> plainUnpack(const BfpFormatInfo &f, const Bytes &packed,
                                  size_t tiles, unsigned tileH, unsigned tileW) {
  if (f.isMx()) {
    plainmx::Format p = plainmx::formatOf(f.name);
    size_t values = size_t(tileH) * tileW, blocks = values / 32;
    size_t scaleBytes = (blocks + 15) / 16 * 16;
    std::vector<uint32_t> out;
    for (size_t t = 0; t < tiles; ++t) {
      const uint8_t *tile = &packed[t * (scaleBytes + values * p.storage / 8)];
      for (size_t i = 0; i < values; ++i) {
        uint32_t word;
        std::memcpy(&word, tile + scaleBytes + 4 * (i * p.storage / 32), 4);
        uint32_t slot = (word >> (i * p.storage % 32)) & ((1u << p.storage) - 1);
        out.push_back(
            plainmx::decode(p, slot >> (p.storage - p.bits), tile[i / 32]));
      }
    }
    return out;
  }
  size_t values = size_t(tileH) * tileW, blocks = values / 16;
  size_t exponentBytes = (blocks + 15) / 16 * 16;
  size_t tileBytes = exponentBytes + values * f.datumBits / 8;
  std::vector<uint32_t> out;
  for (size_t t = 0; t < tiles; ++t) {
    const uint8_t *tile = &packed[t * tileBytes];
    for (size_t i = 0; i < values; ++i) {
      uint32_t word;
      std::memcpy(&word, tile + exponentBytes + 4 * (i * f.datumBits / 32), 4);
      uint8_t datum = uint8_t(word >> (i * f.datumBits % 32)) &
                      uint8_t((1u << f.datumBits) - 1);
      out.push_back(bfpDecode(f, datum, tile[i / 16]));
    }
  }
  return out;
}

// ---- inputs and paths -----------------------------------------------------

/// Random elements of `dtype`: for the floats, a mix of random bits, small
/// normal values, zeros, denormals and Inf/NaN, in 16-value runs.
Bytes randomInput(Dtype dtype, size_t count, std::mt19937_64 &rng) {
  unsigned bytes = dtypeInfo(dtype).bytes;
  Bytes out(count * bytes);
  bool isFloat = dtype == Dtype::float32 || dtype == Dtype::bfloat16;
  for (size_t i = 0; i < count; ++i) {
    uint64_t r = rng();
    uint32_t v = uint32_t(r);
    if (isFloat) {
      unsigned mode = unsigned((r >> 40) % 4), sign = unsigned(r >> 63) << 31;
      if (mode == 1)
        v = sign | (110 + uint32_t(r >> 32) % 30) << 23 | (v & 0x7FFFFF);
      else if (mode == 2)
        v = (r >> 36 & 1) ? sign : sign | (v & 0xFF);
      else if (mode == 3)
        v = sign | 0x7F800000u | (v & -(r >> 35 & 1) & 0x7FFFFF);
      if (dtype == Dtype::bfloat16)
        v >>= 16;
    }
    std::memcpy(&out[i * bytes], &v, bytes);
  }
  return out;
}

/// The fp32 bits of `count` elements as plainRead gives them.
std::vector<uint32_t> asF32(Dtype dtype, const Bytes &in) {
  unsigned bytes = dtypeInfo(dtype).bytes;
  std::vector<uint32_t> out(in.size() / bytes);
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = bitsOf(plainRead(dtype, &in[i * bytes]));
  return out;
}
Bytes asBytes(const std::vector<uint32_t> &v) {
  Bytes b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

using birsim::test::everyPath;
using birsim::test::PathGuard;

/// fn() on every path equals `want`.
template <typename Fn>
void expectEveryPathGives(const Bytes &want, Fn fn, const std::string &what) {
  PathGuard guard;
  for (Isa isa : everyPath()) {
    selectIsa(isa);
    Bytes got = fn();
    ASSERT_EQ(got.size(), want.size()) << what;
    if (got != want) {
      size_t i = 0;
      while (got[i] == want[i])
        ++i;
      FAIL() << what << " on " << isaName(isa) << ": byte " << i << " is "
             << int(got[i]) << ", the plain implementation gives "
             << int(want[i]);
    }
  }
}

std::string nameOf(const BfpFormatInfo &f, const BfpTileShape &s) {
  return std::string(f.name) + " " + std::to_string(s.rows) + "x" +
         std::to_string(s.cols);
}

// ---- the tests ------------------------------------------------------------

TEST(BfpLayout, PackedTileBytesAreThePackersSizes) {
  const BfpFormatInfo &bfp8 = kBfpFormatTable[int(BfpFormat::bfp8_b)];
  const BfpFormatInfo &bfp2 = kBfpFormatTable[int(BfpFormat::bfp2_b)];
  EXPECT_EQ(lookupBfpTileShape(32, 32)->packedBytes(bfp8), 64u + 1024);
  EXPECT_EQ(lookupBfpTileShape(1, 16)->packedBytes(bfp8), 16u + 16);
  EXPECT_EQ(lookupBfpTileShape(1, 32)->packedBytes(bfp8), 16u + 32);
  EXPECT_EQ(lookupBfpTileShape(4, 32)->packedBytes(bfp8), 16u + 128);
  EXPECT_EQ(lookupBfpTileShape(8, 32)->packedBytes(bfp8), 16u + 256);
  EXPECT_EQ(lookupBfpTileShape(16, 32)->packedBytes(bfp8), 32u + 512);
  EXPECT_EQ(lookupBfpTileShape(1, 16)->packedBytes(bfp2), 16u + 4);
  EXPECT_EQ(lookupBfpTileShape(3, 32), nullptr);
  EXPECT_EQ(lookupBfpTileShape(32, 8), nullptr);
  EXPECT_EQ(lookupBfpTileShape(64, 64), nullptr);
}

/// Every shape x layout x input type x format: 3 tiles.
TEST(BfpLayout, TilesEveryShapeLayoutInputAndFormat) {
  std::mt19937_64 rng(21);
  for (const BfpTileShape &shape : kBfpTileShapes)
    for (Dtype input : kBfpInputDtypes) {
      unsigned bytes = dtypeInfo(input).bytes;
      Bytes in = randomInput(input, 3 * shape.values(), rng);
      for (bool faces : {false, true}) {
        // Face-order tiles for the plain packer: row-major tiles are
        // tilized one tile at a time.
        std::vector<uint32_t> faceOrder;
        for (size_t t = 0; t < 3; ++t) {
          Bytes tile(in.begin() + t * shape.values() * bytes,
                     in.begin() + (t + 1) * shape.values() * bytes);
          if (!faces)
            tile = plainTilize(tile, shape.rows, shape.cols, bytes, shape.rows,
                               shape.cols, false, false);
          std::vector<uint32_t> f32 = asF32(input, tile);
          faceOrder.insert(faceOrder.end(), f32.begin(), f32.end());
        }
        for (const BfpFormatInfo &f : kBfpFormatTable) {
          if (f.isMx() && shape.values() % 32) // MX: not 1x16
            continue;
          Bytes want = plainPack(f, faceOrder, shape.rows, shape.cols);
          std::string what = "pack " + nameOf(f, shape) + " from " +
                             dtypeInfo(input).name + (faces ? ", faces" : "");
          expectEveryPathGives(
              want,
              [&] {
                Bytes out(want.size(), 0xEE);
                EXPECT_TRUE(bfpPack(int(f.format), int(input), in.data(), 3,
                                    shape.rows, shape.cols,
                                    faces ? kBfpFaces : 0, out.data())
                                .ok());
                return out;
              },
              what);
        }
      }
    }
}

/// Unpacking arbitrary bytes (exponents, padding and datums) of every shape
/// and format into both layouts.
TEST(BfpLayout, UnpackEveryShapeLayoutAndFormat) {
  std::mt19937_64 rng(22);
  for (const BfpTileShape &shape : kBfpTileShapes)
    for (const BfpFormatInfo &f : kBfpFormatTable) {
      if (f.isMx() && shape.values() % 32) // MX: not 1x16
        continue;
      Bytes packed(3 * shape.packedBytes(f));
      for (uint8_t &b : packed)
        b = uint8_t(rng());
      std::vector<uint32_t> faceOrder =
          plainUnpack(f, packed, 3, shape.rows, shape.cols);
      for (bool faces : {false, true}) {
        std::vector<uint32_t> want = faceOrder;
        if (!faces)
          for (size_t t = 0; t < 3; ++t) {
            std::vector<uint32_t> tile(faceOrder.begin() + t * shape.values(),
                                       faceOrder.begin() + (t + 1) * shape.values());
            tile = plainUntilize(tile, shape.rows, shape.cols, shape.rows,
                                 shape.cols, false, false);
            std::copy(tile.begin(), tile.end(), want.begin() + t * shape.values());
          }
        expectEveryPathGives(
            asBytes(want),
            [&] {
              std::vector<uint32_t> out(want.size(), 0xEEEEEEEE);
              EXPECT_TRUE(bfpUnpack(int(f.format), packed.data(), 3, shape.rows,
                                    shape.cols, faces ? kBfpFaces : 0,
                                    out.data())
                              .ok());
              return asBytes(out);
            },
            "unpack " + nameOf(f, shape) + (faces ? ", faces" : ""));
      }
    }
}

/// The matrix forms: a 2 x 3 tile matrix of every shape, input and format,
/// plain and (heights 16 and 32) transposed, equals convert_layout then
/// pack_as_bfp_tiles(row_major_input = false), and unpacks back as the
/// inverse (unpack, then convert_layout back).
TEST(BfpLayout, MatrixFormsAreTilizeThenPack) {
  std::mt19937_64 rng(23);
  for (const BfpTileShape &shape : kBfpTileShapes)
    for (bool transpose : {false, true}) {
      if (transpose && shape.rows < 16)
        continue;
      size_t H = 2 * shape.rows, W = 3 * shape.cols;
      for (Dtype input : kBfpInputDtypes) {
        unsigned bytes = dtypeInfo(input).bytes;
        Bytes in = randomInput(input, H * W, rng);
        Bytes tilized = plainTilize(in, H, W, bytes, shape.rows, shape.cols,
                                    transpose, transpose);
        std::vector<uint32_t> faceOrder = asF32(input, tilized);
        for (const BfpFormatInfo &f : kBfpFormatTable) {
          if (f.isMx() && shape.values() % 32) // MX: not 1x16
            continue;
          Bytes want = plainPack(f, faceOrder, shape.rows, shape.cols);
          std::string what = "pack_matrix " + nameOf(f, shape) + " from " +
                             dtypeInfo(input).name +
                             (transpose ? ", transposed" : "");
          expectEveryPathGives(
              want,
              [&] {
                Bytes out(want.size(), 0xEE);
                EXPECT_TRUE(bfpPackMatrix(int(f.format), int(input), in.data(),
                                          H, W, shape.rows, shape.cols,
                                          transpose ? kBfpTranspose : 0,
                                          out.data())
                                .ok());
                return out;
              },
              what);
          // Tilize then pack through the tile form gives the same bytes.
          Bytes viaTiles(want.size());
          ASSERT_TRUE(bfpPack(int(f.format), int(input), tilized.data(), 6,
                              shape.rows, shape.cols, kBfpFaces,
                              viaTiles.data())
                          .ok());
          EXPECT_EQ(viaTiles, want) << what;
          if (input != Dtype::float32)
            continue;
          std::vector<uint32_t> back =
              plainUntilize(plainUnpack(f, want, 6, shape.rows, shape.cols), H,
                            W, shape.rows, shape.cols, transpose, transpose);
          expectEveryPathGives(
              asBytes(back),
              [&] {
                std::vector<uint32_t> out(H * W, 0xEEEEEEEE);
                EXPECT_TRUE(bfpUnpackMatrix(int(f.format), want.data(), H, W,
                                            shape.rows, shape.cols,
                                            transpose ? kBfpTranspose : 0,
                                            out.data())
                                .ok());
                return asBytes(out);
              },
              "unpack_matrix " + nameOf(f, shape) +
                  (transpose ? ", transposed" : ""));
        }
      }
    }
}

/// A matrix wider than a band (the vector packers and unpackers walk a
/// tile row's rows in bands of tiles), on one thread and on three (ranges
/// starting inside a tile row), is the plain implementation's: every shape
/// a band takes, float32 and bfloat16 input, every BFP format, and back.
TEST(BfpLayout, WideMatrixFormsAreTilizeThenPack) {
  PathGuard guard;
  std::mt19937_64 rng(29);
  constexpr size_t kTilesAcross = 150, kTilesDown = 7; // 350 tiles a thread
  for (const BfpTileShape &shape : kBfpTileShapes) {
    if (shape.blocks() % 4)
      continue;
    size_t H = kTilesDown * shape.rows, W = kTilesAcross * shape.cols;
    for (Dtype input : {Dtype::float32, Dtype::bfloat16}) {
      unsigned bytes = dtypeInfo(input).bytes;
      Bytes in = randomInput(input, H * W, rng);
      std::vector<uint32_t> faceOrder =
          asF32(input, plainTilize(in, H, W, bytes, shape.rows, shape.cols,
                                   false, false));
      for (const BfpFormatInfo &f : kBfpFormatTable) {
        if (f.isMx())
          continue;
        Bytes want = plainPack(f, faceOrder, shape.rows, shape.cols);
        for (int threads : {1, 3}) {
          setNumThreads(threads);
          expectEveryPathGives(
              want,
              [&] {
                Bytes out(want.size(), 0xEE);
                EXPECT_TRUE(bfpPackMatrix(int(f.format), int(input), in.data(),
                                          H, W, shape.rows, shape.cols, 0,
                                          out.data())
                                .ok());
                return out;
              },
              "pack_matrix " + nameOf(f, shape) + " from " +
                  dtypeInfo(input).name + " on " + std::to_string(threads) +
                  " threads");
          if (input != Dtype::float32)
            continue;
          std::vector<uint32_t> back =
              plainUntilize(plainUnpack(f, want, kTilesAcross * kTilesDown,
                                        shape.rows, shape.cols),
                            H, W, shape.rows, shape.cols, false, false);
          expectEveryPathGives(
              asBytes(back),
              [&] {
                std::vector<uint32_t> out(H * W, 0xEEEEEEEE);
                EXPECT_TRUE(bfpUnpackMatrix(int(f.format), want.data(), H, W,
                                            shape.rows, shape.cols, 0,
                                            out.data())
                                .ok());
                return asBytes(out);
              },
              "unpack_matrix " + nameOf(f, shape) + " on " +
                  std::to_string(threads) + " threads");
        }
      }
    }
  }
}

/// Integer inputs round to nearest even as static_cast<float> does: 2^24 + 1
/// becomes 2^24, 2^24 + 3 becomes 2^24 + 4, uint32 max becomes 2^32.
TEST(BfpLayout, IntegerInputsRoundToNearestEven) {
  EXPECT_EQ(bfpInputBits(dtypeInfo(Dtype::int32), "\x01\x00\x00\x01"),
            bitsOf(16777216.0f));
  EXPECT_EQ(bfpInputBits(dtypeInfo(Dtype::int32), "\x03\x00\x00\x01"),
            bitsOf(16777220.0f));
  EXPECT_EQ(bfpInputBits(dtypeInfo(Dtype::uint32), "\xFF\xFF\xFF\xFF"),
            bitsOf(4294967296.0f));
  EXPECT_EQ(bfpInputBits(dtypeInfo(Dtype::int8), "\x80"), bitsOf(-128.0f));
  EXPECT_EQ(bfpInputBits(dtypeInfo(Dtype::bfloat16), "\xC1\x7F"), 0x7FC10000u);
}

/// What tt-metal rejects is an error naming the rule; nothing is written.
TEST(BfpLayout, Errors) {
  std::vector<float> in(32 * 32 * 2, 1.0f);
  Bytes out(4096, 0xEE), before = out;
  Status s = bfpPack(0, int(Dtype::float32), in.data(), 1, 3, 32, 0, out.data());
  EXPECT_EQ(s.code, ErrorCode::invalidTileShape);
  EXPECT_EQ(s.message(), "BFP tile shape 3x32 is not one tt-metal accepts: "
                         "expected 32x32, 16x32, 32x16, 16x16, 8x32, 4x32, "
                         "2x32, 1x32, 8x16, 4x16, 2x16 or 1x16");
  s = bfpPack(0, int(Dtype::float16), in.data(), 1, 32, 32, 0, out.data());
  EXPECT_EQ(s.code, ErrorCode::invalidArgument);
  EXPECT_EQ(s.message(), "invalid argument: BFP packing takes float32 (16), "
                         "bfloat16 (12), int8 (1), uint8 (0), uint16 (10), "
                         "int32 (15) or uint32 (14) values (got 13)");
  s = bfpPack(0, int(Dtype::float32), in.data(), 1, 32, 32, kBfpTranspose,
              out.data());
  EXPECT_EQ(s.message(), "invalid argument: the tile forms take the flags "
                         "faces (1), exp_search (4), page32 (8) or page64 "
                         "(16) only (got 2)");
  s = bfpPackMatrix(0, int(Dtype::float32), in.data(), 32, 32, 32, 32,
                    kBfpFaces, out.data());
  EXPECT_EQ(s.message(), "invalid argument: the matrix forms take the flags "
                         "transpose (2), exp_search (4), page32 (8) or "
                         "page64 (16) only (got 1)");
  s = bfpPackMatrix(0, int(Dtype::float32), in.data(), 32, 48, 32, 32, 0,
                    out.data());
  EXPECT_EQ(s.message(),
            "invalid argument: matrix rows (leading dimensions folded into rows) and columns must be whole tiles");
  s = bfpPackMatrix(0, int(Dtype::float32), in.data(), 8, 32, 8, 32,
                    kBfpTranspose, out.data());
  EXPECT_EQ(s.message(), "invalid argument: transposed tilizing takes tile "
                         "heights 16 and 32 (tt-metal's Tile) (got 8)");
  s = bfpUnpack(kNumBfpFormats, out.data(), 1, 32, 32, 0, in.data());
  EXPECT_EQ(s.code, ErrorCode::invalidFormat);
  EXPECT_EQ(out, before);
  EXPECT_TRUE(bfpPackMatrix(0, int(Dtype::float32), nullptr, 0, 0, 32, 32, 0,
                            nullptr)
                  .ok());
}

} // namespace
