//===- BfpTiles.cpp - packing and unpacking BFP tiles (§5) ----------------===//
#include "birsim/Core/Bfp.h"
#include "BfpLayout.h"
#include "Kernels/Kernels.h"
#include "ParallelFor.h"
#include "birsim/Core/Convert.h"
#include "birsim/Core/Fidelity.h"

#include <algorithm>
#include <cstring>

namespace birsim::core {

const BfpTileShape *lookupBfpTileShape(uint64_t rows, uint64_t cols) {
  for (const BfpTileShape &shape : kBfpTileShapes)
    if (shape.rows == rows && shape.cols == cols)
      return &shape;
  return nullptr;
}

std::string bfpTileShapeChoices() {
  std::string text;
  size_t n = std::size(kBfpTileShapes);
  for (size_t i = 0; i < n; ++i)
    text += std::string(i == 0 ? "" : i + 1 == n ? " or " : ", ") +
            std::to_string(kBfpTileShapes[i].rows) + "x" +
            std::to_string(kBfpTileShapes[i].cols);
  return text;
}

bool isBfpInputDtype(int dtype) {
  for (Dtype d : kBfpInputDtypes)
    if (int(d) == dtype)
      return true;
  return false;
}

uint32_t bfpInputBits(const DtypeInfo &dtype, const void *element) {
  uint64_t bits = 0;
  std::memcpy(&bits, element, dtype.bytes);
  if (dtype.dtype == Dtype::bfloat16)
    return uint32_t(bits) << 16; // NaN payloads kept
  return readAsF32(dtype, bits); // fp32 as is; integers RNE (§4)
}

BfpLayout bfpTilesLayout(const BfpFormatInfo &f, const BfpTileShape &shape,
                         const DtypeInfo &values, bool faces) {
  BfpLayout layout{};
  layout.format = &f;
  layout.shape = shape;
  layout.values = &values;
  for (unsigned b = 0; b < shape.blocks(); ++b)
    layout.blockStart[b] =
        faces ? size_t(b) * kBfpBlockValues : shape.blockStart(b, shape.cols);
  layout.valueStep = 1;
  layout.tilesAcross = 1;
  layout.tileRowStep = shape.values();
  layout.packedBytes = shape.packedBytes(f);
  return layout;
}

BfpLayout bfpMatrixLayout(const BfpFormatInfo &f, const BfpTileShape &shape,
                          const DtypeInfo &values, size_t cols,
                          bool transpose) {
  BfpLayout layout{};
  layout.format = &f;
  layout.shape = shape;
  layout.values = &values;
  layout.tilesAcross = cols / shape.cols;
  layout.tileRowStep = size_t(shape.rows) * cols;
  layout.tileColStep = shape.cols;
  layout.packedBytes = shape.packedBytes(f);
  if (!transpose) {
    for (unsigned b = 0; b < shape.blocks(); ++b)
      layout.blockStart[b] = shape.blockStart(b, cols);
    layout.valueStep = 1;
    return layout;
  }
  // Transposed (faces 16x16): block r of face (fh, fw) is column r of that
  // face; with two faces each way the faces go column by column.
  bool facesByColumn = shape.facesDown() > 1 && shape.facesAcross() > 1;
  for (unsigned b = 0; b < shape.blocks(); ++b) {
    unsigned face = b / 16, r = b % 16;
    unsigned fh = facesByColumn ? face % shape.facesDown()
                                : face / shape.facesAcross();
    unsigned fw = facesByColumn ? face / shape.facesDown()
                                : face % shape.facesAcross();
    layout.blockStart[b] = size_t(fh) * 16 * cols + fw * 16 + r;
  }
  layout.valueStep = cols;
  return layout;
}

/// The portable packer (§5 steps 1-5, block by block).
static void packTiles(const BfpLayout &layout, const char *src,
                      size_t firstTile, size_t tileCount, uint8_t *out,
                      BfpTally &tally, bool countEvents) {
  const BfpFormatInfo &f = *layout.format;
  const BfpTileShape &shape = layout.shape;
  const DtypeInfo &input = *layout.values;
  for (size_t t = 0; t < tileCount; ++t) {
    const char *tile = src + layout.origin(firstTile + t) * input.bytes;
    uint8_t *packed = out + t * layout.packedBytes;
    std::fill(packed + shape.blocks(), packed + layout.packedBytes, 0);
    for (unsigned b = 0; b < shape.blocks(); ++b) {
      uint32_t block[kBfpBlockValues];
      for (unsigned j = 0; j < kBfpBlockValues; ++j)
        block[j] = bfpInputBits(
            input, tile + (layout.blockStart[b] + j * layout.valueStep) *
                              input.bytes);
      uint8_t shared = bfpSharedExponent(f, block);
      packed[b] = shared;
      uint8_t datums[kBfpBlockValues];
      for (unsigned j = 0; j < kBfpBlockValues; ++j) {
        unsigned i = b * kBfpBlockValues + j;
        datums[j] = bfpEncode(f, block[j], shared, tally, countEvents);
        packed[shape.exponentBytes() + i / f.datumsPerByte()] |=
            uint8_t(datums[j] << (i % f.datumsPerByte()) * f.datumBits);
      }
      if (countEvents)
        tally[BfpClass::deviceDiffers] += unsigned(
            __builtin_popcount(bfpDeviceDiffers(f, block, shared, datums)));
    }
  }
}

/// The portable unpacker (§5 decoding).
static void unpackTiles(const BfpLayout &layout, const uint8_t *packed,
                        size_t firstTile, size_t tileCount, char *dst) {
  const BfpFormatInfo &f = *layout.format;
  const BfpTileShape &shape = layout.shape;
  uint8_t datumMask = uint8_t((1u << f.datumBits) - 1);
  for (size_t t = 0; t < tileCount; ++t) {
    const uint8_t *in = packed + t * layout.packedBytes;
    char *tile = dst + layout.origin(firstTile + t) * 4;
    for (unsigned b = 0; b < shape.blocks(); ++b)
      for (unsigned j = 0; j < kBfpBlockValues; ++j) {
        unsigned i = b * kBfpBlockValues + j;
        uint8_t datum = uint8_t(in[shape.exponentBytes() + i / f.datumsPerByte()] >>
                                (i % f.datumsPerByte()) * f.datumBits) &
                        datumMask;
        uint32_t value = bfpDecode(f, datum, in[b]);
        std::memcpy(tile + (layout.blockStart[b] + j * layout.valueStep) * 4,
                    &value, 4);
      }
  }
}

/// The checks every form shares; `values` is the unpacked side's count.
static Status checkCall(int format, const void *packed, const void *values,
                        size_t tileCount, uint64_t tileRows,
                        uint64_t tileCols, size_t valueBytes) {
  if (!lookupBfpFormat(format))
    return Status::error(ErrorCode::invalidFormat, format);
  if (!lookupBfpTileShape(tileRows, tileCols))
    return Status::error(ErrorCode::invalidTileShape, int64_t(tileRows),
                         int64_t(tileCols));
  if (tileCount != 0 && (!packed || !values))
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "null buffer with a non-zero tile count");
  return checkCount(tileCount, size_t(tileRows) * tileCols * valueBytes);
}

/// "BFP packing takes float32 (16), ... or uint32 (14) values": the rows
/// of kBfpInputDtypes, by name and number.
static const char *inputChoices() {
  static const std::string text = [] {
    std::string t = "BFP packing takes ";
    size_t n = std::size(kBfpInputDtypes);
    for (size_t i = 0; i < n; ++i)
      t += std::string(i == 0 ? "" : i + 1 == n ? " or " : ", ") +
           dtypeInfo(kBfpInputDtypes[i]).name + " (" +
           std::to_string(int(kBfpInputDtypes[i])) + ")";
    return t + " values";
  }();
  return text.c_str();
}

static Status checkInput(int srcDtype) {
  if (!isBfpInputDtype(srcDtype))
    return Status::error(ErrorCode::invalidArgument, srcDtype, 0,
                         inputChoices());
  return Status::success();
}

static Status checkFlags(unsigned flags, unsigned accepted) {
  if (flags & ~accepted)
    return Status::error(ErrorCode::invalidArgument, int64_t(flags), 0,
                         accepted == kBfpFaces
                             ? "the tile forms take BIRSIM_BFP_FACES only"
                             : "the matrix forms take BIRSIM_BFP_TRANSPOSE "
                               "only");
  return Status::success();
}

/// The matrix forms' shape rules (§5 matrix forms).
static Status checkMatrix(size_t rows, size_t cols, const BfpTileShape &shape,
                          unsigned flags) {
  if (rows % shape.rows || cols % shape.cols)
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "matrix rows and columns must be whole tiles");
  if ((flags & kBfpTranspose) && shape.rows < 16)
    return Status::error(ErrorCode::invalidArgument, shape.rows, 0,
                         "transposed tilizing takes tile heights 16 and 32 "
                         "(tt-metal's Tile)");
  if (cols != 0 && rows > size_t(PTRDIFF_MAX) / 4 / cols)
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "rows times columns overflows the address space");
  return Status::success();
}

static size_t tilesOf(size_t rows, size_t cols, const BfpTileShape &shape) {
  return rows && cols ? (rows / shape.rows) * (cols / shape.cols) : 0;
}

/// Packs the tiles of `layout` (threaded, vector path where there is one).
static void runPack(const BfpLayout &layout, const void *src,
                    size_t tileCount, void *out, FidelityCounts *counts) {
  const VectorKernels *vector = activeKernels();
  // Each chunk tallies its own ties: the sums do not depend on threads.
  parallelFor(tileCount, kMinTilesPerThread, [&](size_t begin, size_t end) {
    BfpTally tally;
    auto *in = static_cast<const char *>(src);
    auto *bytes = static_cast<uint8_t *>(out) + begin * layout.packedBytes;
    if (vector)
      vector->bfpPack(layout, in, begin, end - begin, bytes, tally,
                      counts != nullptr);
    else
      packTiles(layout, in, begin, end - begin, bytes, tally,
                counts != nullptr);
    bfpAddTies(tally);
    if (counts) {
      FidelityCounts chunk;
      chunk.elements[int(FidelityFamily::bfp_pack)] =
          (end - begin) * layout.shape.values();
      for (int c = 0; c < BfpTally::kClasses; ++c)
        if (FidelityEvent e = bfpPackEventOf(BfpClass(c));
            e != kNoFidelityEvent)
          chunk.count[int(e)] = tally.cells[c];
      counts->addLocked(chunk);
    }
  });
}

static void runUnpack(const BfpLayout &layout, const void *packed,
                      size_t tileCount, void *dst) {
  const VectorKernels *vector = activeKernels();
  parallelFor(tileCount, kMinTilesPerThread, [&](size_t begin, size_t end) {
    auto *in = static_cast<const uint8_t *>(packed) + begin * layout.packedBytes;
    if (vector)
      vector->bfpUnpack(layout, in, begin, end - begin, dst);
    else
      unpackTiles(layout, in, begin, end - begin, static_cast<char *>(dst));
  });
}

/// The tile forms' checks and walk; `values` is the unpacked side's type.
static Status tilesCall(int format, const DtypeInfo &values,
                        const void *packed, const void *tiles,
                        size_t tileCount, uint32_t tileRows, uint32_t tileCols,
                        unsigned flags, BfpLayout &layout) {
  if (Status s = checkCall(format, packed, tiles, tileCount, tileRows,
                           tileCols, values.bytes))
    return s;
  if (Status s = checkFlags(flags, kBfpFaces))
    return s;
  layout = bfpTilesLayout(*lookupBfpFormat(format),
                          *lookupBfpTileShape(tileRows, tileCols), values,
                          flags & kBfpFaces);
  return checkNoOverlap(packed, tileCount * layout.packedBytes, tiles,
                        tileCount * layout.shape.values() * values.bytes,
                        false);
}

/// The matrix forms' checks and walk (§5 matrix forms).
static Status matrixCall(int format, const DtypeInfo &values,
                         const void *packed, const void *matrix, size_t rows,
                         size_t cols, uint32_t tileRows, uint32_t tileCols,
                         unsigned flags, BfpLayout &layout, size_t &tiles) {
  if (Status s = checkCall(format, packed, matrix, rows && cols, tileRows,
                           tileCols, values.bytes))
    return s;
  if (Status s = checkFlags(flags, kBfpTranspose))
    return s;
  const BfpTileShape &shape = *lookupBfpTileShape(tileRows, tileCols);
  if (Status s = checkMatrix(rows, cols, shape, flags))
    return s;
  tiles = tilesOf(rows, cols, shape);
  layout = bfpMatrixLayout(*lookupBfpFormat(format), shape, values, cols,
                           flags & kBfpTranspose);
  return checkNoOverlap(packed, tiles * layout.packedBytes, matrix,
                        rows * cols * values.bytes, false);
}

Status bfpPack(int format, int srcDtype, const void *src, size_t tileCount,
               uint32_t tileRows, uint32_t tileCols, unsigned flags, void *out,
               FidelityCounts *counts) {
  if (Status s = checkInput(srcDtype))
    return s;
  BfpLayout layout;
  if (Status s = tilesCall(format, *lookupDtype(srcDtype), out, src, tileCount,
                           tileRows, tileCols, flags, layout))
    return s;
  runPack(layout, src, tileCount, out, counts);
  return Status::success();
}

Status bfpUnpack(int format, const void *packed, size_t tileCount,
                 uint32_t tileRows, uint32_t tileCols, unsigned flags,
                 void *out) {
  BfpLayout layout;
  if (Status s = tilesCall(format, dtypeInfo(Dtype::float32), packed, out,
                           tileCount, tileRows, tileCols, flags, layout))
    return s;
  runUnpack(layout, packed, tileCount, out);
  return Status::success();
}

Status bfpPackMatrix(int format, int srcDtype, const void *src, size_t rows,
                     size_t cols, uint32_t tileRows, uint32_t tileCols,
                     unsigned flags, void *out, FidelityCounts *counts) {
  if (Status s = checkInput(srcDtype))
    return s;
  BfpLayout layout;
  size_t tiles;
  if (Status s = matrixCall(format, *lookupDtype(srcDtype), out, src, rows,
                            cols, tileRows, tileCols, flags, layout, tiles))
    return s;
  runPack(layout, src, tiles, out, counts);
  return Status::success();
}

Status bfpUnpackMatrix(int format, const void *packed, size_t rows,
                       size_t cols, uint32_t tileRows, uint32_t tileCols,
                       unsigned flags, void *out) {
  BfpLayout layout;
  size_t tiles;
  if (Status s = matrixCall(format, dtypeInfo(Dtype::float32), packed, out,
                            rows, cols, tileRows, tileCols, flags, layout,
                            tiles))
    return s;
  runUnpack(layout, packed, tiles, out);
  return Status::success();
}

} // namespace birsim::core
