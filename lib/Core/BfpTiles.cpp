//===- BfpTiles.cpp - packing and unpacking BFP tiles (§5) ----------------===//
//
// The orchestration of a BFP or MX call: its walk over the tiles (the
// layouts), its checks (BfpChecks.cpp), its threads and the path that runs
// each chunk (the active kernel table, or the portable one where the path
// lacks a capability), and the tallies it adds up. The arithmetic is
// BfpPortable.cpp's and the kernels'.
//
//===----------------------------------------------------------------------===//
#include "birsim/Core/Bfp.h"
#include "BfpLayout.h"
#include "Kernels/Kernels.h"
#include "Kernels/Portable.h"
#include "ParallelFor.h"
#include "birsim/Core/Fidelity.h"

#include <atomic>
#include <cstring>

namespace birsim::core {

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

/// Packs the MX tiles of `layout` (threaded; counting mx_pack, portable).
static void runMxPack(const BfpLayout &layout, const void *src,
                      size_t tileCount, void *out, FidelityCounts *counts) {
  parallelFor(tileCount, kMinTilesPerThread, [&](size_t begin, size_t end) {
    auto *bytes = static_cast<uint8_t *>(out) + begin * layout.packedBytes;
    if (!counts) {
      bfpPackTileRange(layout, src, begin, end - begin, bytes);
      return;
    }
    MxTally tally;
    bfpPackMxTiles(layout, static_cast<const char *>(src), begin, end - begin,
                bytes, &tally);
    FidelityCounts chunk;
    chunk.elements[int(FidelityFamily::mx_pack)] =
        (end - begin) * layout.shape.values();
    for (int c = 0; c < MxTally::kClasses; ++c)
      chunk.count[int(mxPackEventOf(MxClass(c)))] = tally.cells[c];
    counts->addLocked(chunk);
  });
}

/// Packs the tiles of `layout` at `site` (threaded, vector path where
/// there is one), with the exponent search where `search`; `counts` at the
/// host only, device_differs at bfpCountedSite() by the device diff.
static void runPack(const BfpLayout &layout, BfpSite site, const void *src,
                    size_t tileCount, void *out, FidelityCounts *counts,
                    bool search) {
  if (layout.format->isMx())
    return runMxPack(layout, src, tileCount, out, counts);
  // A path without the counted search (events against the searched bytes)
  // leaves it to the portable path.
  const PathKernels &active = activeKernels();
  const PathKernels &kernels =
      search && counts && !active.countsSearch ? portableKernels() : active;
  BfpSite countedSite = bfpCountedSite();
  // Each chunk tallies its own ties: the sums do not depend on threads.
  parallelFor(tileCount, kMinTilesPerThread, [&](size_t begin, size_t end) {
    BfpTally tally;
    auto *in = static_cast<const char *>(src);
    auto *bytes = static_cast<uint8_t *>(out) + begin * layout.packedBytes;
    kernels.bfpPack(layout, site, in, begin, end - begin, bytes, tally,
                    counts != nullptr, search);
    bfpAddTies(tally);
    if (counts && !search && bfpCountsDeviceAt(*layout.format, countedSite,
                                    int(layout.values->dtype)))
      tally[BfpClass::deviceDiffers] = kernels.bfpDeviceDiff(
          layout, countedSite, in, begin, end - begin, nullptr);
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

static void runUnpack(const BfpLayout &layout, BfpSite site,
                      const void *packed, size_t tileCount, void *dst) {
  const PathKernels &kernels = activeKernels();
  BfpLayout walk = layout;
  walk.streamValues = bfpStreamsValues(tileCount * layout.shape.values() *
                                       layout.values->bytes);
  parallelFor(tileCount, kMinTilesPerThread, [&](size_t begin, size_t end) {
    auto *in = static_cast<const uint8_t *>(packed) + begin * walk.packedBytes;
    if (site == BfpSite::host)
      bfpUnpackTileRange(walk, in, begin, end - begin, dst);
    else
      kernels.bfpUnpack(walk, site, in, begin, end - begin, dst);
  });
}

void bfpPackTileRange(const BfpLayout &layout, const void *src, size_t first,
                      size_t count, void *out) {
  BfpTally tally;
  auto *in = static_cast<const char *>(src);
  auto *bytes = static_cast<uint8_t *>(out);
  const PathKernels &kernels = activeKernels();
  if (layout.format->isMx())
    kernels.mxPack(layout, in, first, count, bytes);
  else
    kernels.bfpPack(layout, BfpSite::host, in, first, count, bytes, tally,
                    false, false);
  bfpAddTies(tally);
}

void bfpUnpackTileRange(const BfpLayout &layout, const void *packed,
                        size_t first, size_t count, void *dst) {
  auto *in = static_cast<const uint8_t *>(packed);
  const PathKernels &kernels = activeKernels();
  if (layout.format->isMx())
    kernels.mxUnpack(layout, in, first, count, dst);
  else
    kernels.bfpUnpack(layout, BfpSite::host, in, first, count, dst);
}

/// The walk of a checked call; tiles at their page stride.
static BfpLayout layoutOf(const BfpCall &call, const DtypeInfo &values) {
  const BfpFormatInfo &f = *lookupBfpFormat(call.format);
  const BfpTileShape &shape = *lookupBfpTileShape(call.tileRows, call.tileCols);
  BfpLayout layout =
      call.form == BfpForm::Tiles
          ? bfpTilesLayout(f, shape, values, call.flags & kBfpFaces)
          : bfpMatrixLayout(f, shape, values, size_t(call.cols),
                            call.flags & kBfpTranspose);
  layout.packedBytes = bfpPageBytes(call.format, call.tileRows, call.tileCols,
                                    bfpPageAlignmentOf(call.flags));
  return layout;
}

/// The checks of a call on buffers and its walk.
static Status prepare(const BfpCall &call, const DtypeInfo &values,
                      const void *packed, const void *data, BfpLayout &layout,
                      uint64_t &tiles) {
  if (Status s = bfpCheckBuffers(call, packed, data, values.bytes, tiles))
    return s;
  layout = layoutOf(call, values);
  return checkNoOverlap(packed, size_t(tiles) * layout.packedBytes, data,
                        size_t(tiles) * layout.shape.values() * values.bytes,
                        false);
}

Status bfpPack(const BfpCall &call, int srcDtype, const void *src, void *out,
               FidelityCounts *counts) {
  if (Status s = bfpCheckPackAt(call, srcDtype))
    return s;
  BfpLayout layout;
  uint64_t tiles;
  if (Status s = prepare(call, *lookupDtype(srcDtype), out, src, layout, tiles))
    return s;
  runPack(layout, BfpSite(call.site), src, size_t(tiles), out,
          call.site == int(BfpSite::host) ? counts : nullptr,
          call.flags & kBfpFlag_exp_search);
  return Status::success();
}

Status bfpUnpack(const BfpCall &call, const void *packed, void *out) {
  BfpLayout layout;
  uint64_t tiles;
  if (Status s = prepare(call, dtypeInfo(Dtype::float32), packed, out, layout,
                         tiles))
    return s;
  runUnpack(layout, BfpSite(call.site), packed, size_t(tiles), out);
  return Status::success();
}

Status bfpDeviceDiff(const BfpCall &call, int srcDtype, const void *src,
                     uint8_t *mask, uint64_t *count) {
  const BfpSiteInfo *site = lookupBfpSite(call.site);
  if (site && !site->onDevice())
    return Status::error(ErrorCode::invalidArgument, call.site, 0,
                         "the device diff compares a Dest path with the "
                         "host: name a device site");
  if (Status s = bfpCheckPackAt(call, srcDtype))
    return s;
  BfpLayout layout;
  uint64_t tiles;
  const DtypeInfo &input = *lookupDtype(srcDtype);
  if (Status s = bfpCheckBuffers(call, src, src, input.bytes, tiles))
    return s;
  if (!count)
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "null count");
  layout = layoutOf(call, input);
  size_t values = size_t(tiles) * layout.shape.values();
  if (mask)
    if (Status s =
            checkNoOverlap(mask, values, src, values * input.bytes, false))
      return s;
  const PathKernels &kernels = activeKernels();
  std::atomic<uint64_t> differing{0};
  parallelFor(size_t(tiles), kMinTilesPerThread, [&](size_t begin, size_t end) {
    differing.fetch_add(kernels.bfpDeviceDiff(layout, BfpSite(call.site), src,
                                              begin, end - begin, mask),
                        std::memory_order_relaxed);
  });
  *count = differing.load();
  return Status::success();
}

Status bfpLayoutOf(const BfpCall &call, int srcDtype, BfpLayout &layout,
                   uint64_t &tiles) {
  if (Status s = bfpCheckInput(srcDtype))
    return s;
  if (Status s = bfpCheckCall(call, &tiles))
    return s;
  layout = layoutOf(call, *lookupDtype(srcDtype));
  return Status::success();
}

Status bfpPack(int format, int srcDtype, const void *src, size_t tileCount,
               uint32_t tileRows, uint32_t tileCols, unsigned flags, void *out,
               FidelityCounts *counts) {
  return bfpPack(bfpTilesCall(int(BfpSite::host), format, tileCount,
                              tileRows, tileCols, flags),
                 srcDtype, src, out, counts);
}

Status bfpUnpack(int format, const void *packed, size_t tileCount,
                 uint32_t tileRows, uint32_t tileCols, unsigned flags,
                 void *out) {
  return bfpUnpack(bfpTilesCall(int(BfpSite::host), format, tileCount,
                                tileRows, tileCols, flags),
                   packed, out);
}

Status bfpPackMatrix(int format, int srcDtype, const void *src, size_t rows,
                     size_t cols, uint32_t tileRows, uint32_t tileCols,
                     unsigned flags, void *out, FidelityCounts *counts) {
  return bfpPack(bfpMatrixCall(int(BfpSite::host), format, rows, cols,
                               tileRows, tileCols, flags),
                 srcDtype, src, out, counts);
}

Status bfpUnpackMatrix(int format, const void *packed, size_t rows,
                       size_t cols, uint32_t tileRows, uint32_t tileCols,
                       unsigned flags, void *out) {
  return bfpUnpack(bfpMatrixCall(int(BfpSite::host), format, rows, cols,
                                 tileRows, tileCols, flags),
                   packed, out);
}

} // namespace birsim::core
