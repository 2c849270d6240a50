//===- BfpMixed.cpp - per-tile mixed BFP (docs/Semantics.md 5) ------------===//
#include "birsim/Core/BfpMixed.h"
#include "BfpLayout.h"
#include "ParallelFor.h"

#include <cmath>
#include <cstring>
#include <vector>

namespace birsim::core {

size_t bfpMixedTileBytes(unsigned code) {
  int format = kBfpMixedCodes[code & 3].format;
  return format < 0 ? 0 : lookupBfpFormat(format)->tileBytes;
}

/// The matrix's tile count, or an error: whole 32x32 tiles, a size the
/// address space holds.
static Status mixedTiles(size_t rows, size_t cols, size_t &tiles) {
  if (rows % kBfpMixedTileSide || cols % kBfpMixedTileSide)
    return Status::error(ErrorCode::invalidArgument, int64_t(rows),
                         int64_t(cols),
                         "mixed BFP takes whole 32x32 tiles: rows and "
                         "columns multiples of 32");
  if (cols != 0 && rows > size_t(PTRDIFF_MAX) / 4 / cols)
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "rows times columns overflows the address space");
  tiles = (rows / kBfpMixedTileSide) * (cols / kBfpMixedTileSide);
  return Status::success();
}

size_t bfpMixedBytes(const uint8_t *codes, size_t rows, size_t cols) {
  size_t tiles;
  if (!mixedTiles(rows, cols, tiles).ok() || (tiles && !codes))
    return 0;
  size_t bytes = 0;
  for (size_t t = 0; t < tiles; ++t)
    bytes += bfpMixedTileBytes(bfpMixedCode(codes, t));
  return bytes;
}

/// The walk of code c's format over the matrix.
static BfpLayout mixedLayout(unsigned code, const DtypeInfo &values,
                             size_t cols, unsigned flags) {
  const BfpTileShape &shape =
      *lookupBfpTileShape(kBfpMixedTileSide, kBfpMixedTileSide);
  return bfpMatrixLayout(*lookupBfpFormat(kBfpMixedCodes[code].format), shape,
                         values, cols, flags & kBfpTranspose);
}

/// The checks every mixed call makes; the tile count and each tile's
/// offset in the packed bytes (offsets[tiles] the total).
static Status prepareMixed(size_t rows, size_t cols, unsigned flags,
                           const uint8_t *codes, const void *values,
                           const void *packed, size_t &tiles,
                           std::vector<size_t> &offsets) {
  if (Status s = mixedTiles(rows, cols, tiles))
    return s;
  if (flags & ~kBfpTranspose)
    return Status::error(ErrorCode::invalidArgument, int64_t(flags), 0,
                         "mixed BFP takes the flag transpose (2) only");
  if (tiles && (!codes || !values))
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "null buffer with a non-zero tile count");
  offsets.assign(tiles + 1, 0);
  for (size_t t = 0; t < tiles; ++t)
    offsets[t + 1] = offsets[t] + bfpMixedTileBytes(bfpMixedCode(codes, t));
  if (offsets[tiles] && !packed)
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "null buffer with a non-zero tile count");
  return Status::success();
}

/// Runs fn(code, first, count) over [begin, end)'s runs of one code.
template <typename Fn>
static void eachRun(const uint8_t *codes, size_t begin, size_t end, Fn fn) {
  for (size_t t = begin; t < end;) {
    unsigned code = bfpMixedCode(codes, t);
    size_t run = t + 1;
    while (run < end && bfpMixedCode(codes, run) == code)
      ++run;
    fn(code, t, run - t);
    t = run;
  }
}

Status bfpPackMixed(int srcDtype, const void *src, size_t rows, size_t cols,
                    unsigned flags, const uint8_t *codes, void *out) {
  if (Status s = bfpCheckInput(srcDtype))
    return s;
  size_t tiles;
  std::vector<size_t> offsets;
  if (Status s =
          prepareMixed(rows, cols, flags, codes, src, out, tiles, offsets))
    return s;
  const DtypeInfo &input = *lookupDtype(srcDtype);
  if (Status s = checkNoOverlap(out, offsets[tiles], src,
                                rows * cols * input.bytes, false))
    return s;
  BfpLayout layouts[3];
  for (unsigned c = 0; c < 3; ++c)
    layouts[c] = mixedLayout(c, input, cols, flags);
  auto *bytes = static_cast<uint8_t *>(out);
  parallelFor(tiles, kMinTilesPerThread, [&](size_t begin, size_t end) {
    eachRun(codes, begin, end, [&](unsigned code, size_t first, size_t n) {
      if (code < 3)
        bfpPackTileRange(layouts[code], src, first, n, bytes + offsets[first]);
    });
  });
  return Status::success();
}

Status bfpUnpackMixed(const void *packed, size_t rows, size_t cols,
                      unsigned flags, const uint8_t *codes, float *out) {
  size_t tiles;
  std::vector<size_t> offsets;
  if (Status s =
          prepareMixed(rows, cols, flags, codes, out, packed, tiles, offsets))
    return s;
  if (Status s = checkNoOverlap(out, rows * cols * 4, packed, offsets[tiles],
                                false))
    return s;
  const DtypeInfo &f32 = dtypeInfo(Dtype::float32);
  BfpLayout layouts[3];
  for (unsigned c = 0; c < 3; ++c)
    layouts[c] = mixedLayout(c, f32, cols, flags);
  auto *bytes = static_cast<const uint8_t *>(packed);
  parallelFor(tiles, kMinTilesPerThread, [&](size_t begin, size_t end) {
    eachRun(codes, begin, end, [&](unsigned code, size_t first, size_t n) {
      if (code < 3) {
        bfpUnpackTileRange(layouts[code], bytes + offsets[first], first, n,
                           out);
        return;
      }
      for (size_t t = first; t < first + n; ++t) { // bfp0: +0
        size_t origin = layouts[0].origin(t);
        for (unsigned r = 0; r < kBfpMixedTileSide; ++r)
          std::memset(out + origin + r * cols, 0, kBfpMixedTileSide * 4);
      }
    });
  });
  return Status::success();
}

/// Whether a tile's round trip `q` of reference `x` (n values) meets the
/// bound: the metric in double, in value order.
static bool meets(BfpMixedMetric metric, double bound, const double *x,
                  const float *q, size_t n) {
  switch (metric) {
  case BfpMixedMetric::maxAbs: {
    double worst = 0;
    for (size_t i = 0; i < n; ++i)
      worst = std::fmax(worst, std::fabs(double(q[i]) - x[i]));
    return worst <= bound;
  }
  case BfpMixedMetric::meanAbs: {
    double sum = 0;
    for (size_t i = 0; i < n; ++i)
      sum += std::fabs(double(q[i]) - x[i]);
    return sum / double(n) <= bound;
  }
  case BfpMixedMetric::pcc: {
    double mx = 0, mq = 0;
    for (size_t i = 0; i < n; ++i) {
      mx += x[i];
      mq += q[i];
    }
    mx /= double(n);
    mq /= double(n);
    double sxq = 0, sxx = 0, sqq = 0;
    bool identical = true;
    for (size_t i = 0; i < n; ++i) {
      double dx = x[i] - mx, dq = double(q[i]) - mq;
      sxq += dx * dq;
      sxx += dx * dx;
      sqq += dq * dq;
      identical &= double(q[i]) == x[i];
    }
    double denominator = std::sqrt(sxx) * std::sqrt(sqq);
    double pcc = denominator == 0 ? (identical ? 1.0 : 0.0)
                                  : sxq / denominator;
    return pcc >= bound;
  }
  }
  return false;
}

Status bfpAssignMixed(int metric, double bound, double zeroBound,
                      unsigned formats, int srcDtype, const void *src,
                      size_t rows, size_t cols, unsigned flags,
                      uint8_t *codes) {
  if (metric < 0 || metric > int(BfpMixedMetric::pcc))
    return Status::error(ErrorCode::invalidArgument, metric, 0,
                         "the metrics are max_abs (0), mean_abs (1) and pcc "
                         "(2)");
  if (formats == 0 || formats > 15)
    return Status::error(ErrorCode::invalidArgument, int64_t(formats), 0,
                         "formats is a non-empty mask of the codes: bfp8_b "
                         "(1), bfp4_b (2), bfp2_b (4), bfp0 (8)");
  if (std::isnan(bound) || std::isnan(zeroBound))
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "the bounds are numbers, not NaN");
  if (Status s = bfpCheckInput(srcDtype))
    return s;
  size_t tiles;
  if (Status s = mixedTiles(rows, cols, tiles))
    return s;
  if (flags & ~kBfpTranspose)
    return Status::error(ErrorCode::invalidArgument, int64_t(flags), 0,
                         "mixed BFP takes the flag transpose (2) only");
  if (tiles && (!src || !codes))
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "null buffer with a non-zero tile count");
  const DtypeInfo &input = *lookupDtype(srcDtype);
  size_t codeBytes = (tiles + 3) / 4;
  if (Status s = checkNoOverlap(codes, codeBytes, src,
                                rows * cols * input.bytes, false))
    return s;
  // Cheapest first: bfp0, bfp2_b, bfp4_b, bfp8_b.
  unsigned costliest = 0;
  while (!(formats >> costliest & 1))
    ++costliest;
  BfpLayout layouts[3];
  for (unsigned c = 0; c < 3; ++c)
    layouts[c] = mixedLayout(c, input, cols, flags);
  // A round trip unpacks one tile in face order, the reference's order.
  const BfpTileShape &shape =
      *lookupBfpTileShape(kBfpMixedTileSide, kBfpMixedTileSide);
  BfpLayout faceOrder[3];
  for (unsigned c = 0; c < 3; ++c)
    faceOrder[c] = bfpTilesLayout(*lookupBfpFormat(kBfpMixedCodes[c].format),
                                  shape, dtypeInfo(Dtype::float32), true);
  std::vector<uint8_t> chosenCodes(tiles);
  constexpr size_t kValues = kBfpMixedTileSide * kBfpMixedTileSide;
  parallelFor(tiles, 16, [&](size_t begin, size_t end) {
    std::vector<uint8_t> packed(lookupBfpFormat(0)->tileBytes);
    std::vector<double> x(kValues);
    std::vector<float> q(kValues);
    for (size_t t = begin; t < end; ++t) {
      // The reference and each round trip, both in the tile's face order.
      auto *in = static_cast<const char *>(src);
      size_t origin = layouts[0].origin(t);
      for (unsigned b = 0; b < kBfpTileBlocks; ++b)
        for (unsigned j = 0; j < kBfpBlockValues; ++j) {
          size_t at = origin + layouts[0].blockStart[b] +
                      j * layouts[0].valueStep;
          float v;
          uint32_t bits = bfpInputBits(input, in + at * input.bytes);
          std::memcpy(&v, &bits, 4);
          x[b * kBfpBlockValues + j] = v;
        }
      unsigned chosen = costliest;
      for (int code = 3; code >= 0; --code) {
        if (!(formats >> code & 1))
          continue;
        bool good;
        if (code == 3) {
          double sum = 0;
          for (double v : x)
            sum += std::fabs(v);
          good = sum / double(kValues) <= zeroBound;
        } else {
          bfpPackTileRange(layouts[code], src, t, 1, packed.data());
          bfpUnpackTileRange(faceOrder[code], packed.data(), 0, 1, q.data());
          good = meets(BfpMixedMetric(metric), bound, x.data(), q.data(),
                       kValues);
        }
        if (good) {
          chosen = unsigned(code);
          break;
        }
      }
      chosenCodes[t] = uint8_t(chosen);
    }
  });
  std::memset(codes, 0, codeBytes);
  for (size_t t = 0; t < tiles; ++t)
    codes[t / 4] |= uint8_t(chosenCodes[t] << (t % 4 * 2));
  return Status::success();
}

} // namespace birsim::core
