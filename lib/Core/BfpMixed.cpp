//===- BfpMixed.cpp - per-tile mixed BFP (docs/Semantics.md 5) ------------===//
#include "birsim/Core/BfpMixed.h"
#include "BfpLayout.h"
#include "Kernels/Kernels.h"
#include "Kernels/Portable.h"
#include "ParallelFor.h"
#include "TextList.h"

#include <cmath>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace birsim::core {

size_t bfpMixedTileBytes(unsigned code) {
  int format = kBfpMixedCodes[code & kBfpMixedCodeMask].format;
  return format < 0 ? 0 : lookupBfpFormat(format)->tileBytes;
}

/// The matrix's tile count, or an error: whole 32x32 tiles, a size the
/// address space holds.
static Status mixedTiles(size_t rows, size_t cols, size_t &tiles) {
  if (rows % kBfpMixedTileSide || cols % kBfpMixedTileSide)
    return Status::invalidSize(rows % kBfpMixedTileSide ? rows : cols,
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

/// The checks every mixed call (the assigner too) makes on its matrix,
/// flags, codes and values; the tile count.
static Status checkMixedCall(size_t rows, size_t cols, unsigned flags,
                             const void *codes, const void *values,
                             size_t &tiles) {
  if (Status s = mixedTiles(rows, cols, tiles))
    return s;
  if (flags & ~kBfpTranspose)
    return Status::error(ErrorCode::invalidArgument, int64_t(flags), 0,
                         "mixed BFP takes the flag transpose (2) only");
  if (tiles && (!codes || !values))
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "null buffer with a non-zero tile count");
  return Status::success();
}

/// checkMixedCall, then each tile's offset in the packed bytes
/// (offsets[tiles] the total), which must be `packedBytes` unless that is
/// kBfpMixedAnyLength.
static Status prepareMixed(size_t rows, size_t cols, unsigned flags,
                           const uint8_t *codes, const void *values,
                           const void *packed, size_t packedBytes,
                           size_t &tiles, std::vector<size_t> &offsets) {
  if (Status s = checkMixedCall(rows, cols, flags, codes, values, tiles))
    return s;
  offsets.assign(tiles + 1, 0);
  for (size_t t = 0; t < tiles; ++t)
    offsets[t + 1] = offsets[t] + bfpMixedTileBytes(bfpMixedCode(codes, t));
  if (packedBytes != kBfpMixedAnyLength && packedBytes != offsets[tiles])
    return Status::invalidSize(packedBytes,
                               "the packed bytes differ from the codes' length");
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
                    unsigned flags, const uint8_t *codes, void *out,
                    size_t outBytes) {
  if (Status s = bfpCheckInput(srcDtype))
    return s;
  size_t tiles;
  std::vector<size_t> offsets;
  if (Status s =
          prepareMixed(rows, cols, flags, codes, src, out, outBytes, tiles,
                       offsets))
    return s;
  const DtypeInfo &input = *lookupDtype(srcDtype);
  if (Status s = checkNoOverlap(out, offsets[tiles], src,
                                rows * cols * input.bytes, false))
    return s;
  BfpLayout layouts[kBfpMixedFormatCodes];
  for (unsigned c = 0; c < kBfpMixedFormatCodes; ++c)
    layouts[c] = mixedLayout(c, input, cols, flags);
  if (tiles == 0)
    return Status::success();
  auto *bytes = static_cast<uint8_t *>(out);
  const PathKernels &kernels = activeKernels();
  parallelFor(tiles, kMinTilesPerThread, [&](size_t begin, size_t end) {
    BfpTally ties;
    kernels.bfpPackMixed(layouts, src, codes, offsets.data(), begin,
                         end - begin, bytes + offsets[begin], ties);
    bfpAddTies(ties);
  });
  return Status::success();
}

Status bfpUnpackMixed(const void *packed, size_t rows, size_t cols,
                      unsigned flags, const uint8_t *codes, float *out,
                      size_t packedBytes) {
  size_t tiles;
  std::vector<size_t> offsets;
  if (Status s =
          prepareMixed(rows, cols, flags, codes, out, packed, packedBytes,
                       tiles, offsets))
    return s;
  if (Status s = checkNoOverlap(out, rows * cols * 4, packed, offsets[tiles],
                                false))
    return s;
  const DtypeInfo &f32 = dtypeInfo(Dtype::float32);
  BfpLayout layouts[kBfpMixedFormatCodes];
  for (unsigned c = 0; c < kBfpMixedFormatCodes; ++c) {
    layouts[c] = mixedLayout(c, f32, cols, flags);
    layouts[c].streamValues = bfpStreamsValues(rows * cols * 4);
  }
  if (tiles == 0)
    return Status::success();
  auto *bytes = static_cast<const uint8_t *>(packed);
  const PathKernels &kernels = activeKernels();
  parallelFor(tiles, kMinTilesPerThread, [&](size_t begin, size_t end) {
    kernels.bfpUnpackMixed(layouts, bytes + offsets[begin], codes,
                           offsets.data(), begin, end - begin, out);
  });
  return Status::success();
}

/// A tile's values, in face order.
constexpr size_t kMixedValues = kBfpMixedTileSide * kBfpMixedTileSide;

//===-- The portable path's mixed-BFP kernels (Portable.h) ----------------===//

void portable::bfpPackMixed(const BfpLayout *layouts, const void *src,
                            const uint8_t *codes, const size_t *offsets,
                            size_t firstTile, size_t tileCount, void *out,
                            BfpTally &tally) {
  auto *bytes = static_cast<uint8_t *>(out);
  eachRun(codes, firstTile, firstTile + tileCount,
          [&](unsigned code, size_t first, size_t n) {
            if (kBfpMixedCodes[code].storesBytes())
              portable::bfpPack(layouts[code], BfpSite::host, src, first, n,
                                bytes + (offsets[first] - offsets[firstTile]),
                                tally, false, false);
          });
}

void portable::bfpUnpackMixed(const BfpLayout *layouts, const void *packed,
                              const uint8_t *codes, const size_t *offsets,
                              size_t firstTile, size_t tileCount, void *dst) {
  auto *bytes = static_cast<const uint8_t *>(packed);
  auto *out = static_cast<float *>(dst);
  eachRun(codes, firstTile, firstTile + tileCount,
          [&](unsigned code, size_t first, size_t n) {
            if (kBfpMixedCodes[code].storesBytes()) {
              portable::bfpUnpack(layouts[code], BfpSite::host,
                                  bytes + (offsets[first] - offsets[firstTile]),
                                  first, n, dst);
              return;
            }
            const BfpLayout &walk = layouts[0]; // every code's lie alike
            for (size_t t = first; t < first + n; ++t) { // no bytes: +0
              float *tile = out + walk.origin(t);
              for (unsigned b = 0; b < walk.shape.blocks(); ++b)
                for (unsigned j = 0; j < kBfpBlockValues; ++j)
                  tile[walk.blockStart[b] + j * walk.valueStep] = 0.0f;
            }
          });
}

/// Each code's blocks of `x` (16 values each) packed and unpacked as the
/// host does, as 1x16 tiles (one block each), a run of kBfpTileBlocks at
/// a time; ties not tallied (the assigner's trials).
void portable::bfpMixedRoundTrips(unsigned codes, const float *x,
                                  float *const *q, size_t count) {
  const BfpTileShape &block = *lookupBfpTileShape(1, kBfpBlockValues);
  for (unsigned c = 0; c < kBfpMixedFormatCodes; ++c) {
    if (!(codes >> c & 1))
      continue;
    BfpLayout blocks =
        bfpTilesLayout(*lookupBfpFormat(kBfpMixedCodes[c].format), block,
                       dtypeInfo(Dtype::float32), false);
    std::vector<uint8_t> packed(kBfpTileBlocks * blocks.packedBytes);
    size_t total = count / kBfpBlockValues;
    for (size_t first = 0; first < total; first += kBfpTileBlocks) {
      size_t n = std::min<size_t>(kBfpTileBlocks, total - first);
      BfpTally ignored;
      portable::bfpPack(blocks, BfpSite::host, x, first, n, packed.data(),
                        ignored, false, false);
      portable::bfpUnpack(blocks, BfpSite::host, packed.data(), first, n,
                          q[c]);
    }
  }
}

double portable::mixedMaxAbsDifference(const float *a, const float *b,
                                       size_t n) {
  double worst = 0;
  for (size_t i = 0; i < n; ++i)
    worst = std::fmax(worst, std::fabs(double(b[i]) - double(a[i])));
  return worst;
}

/// Each term as the vector paths compute it.
void portable::mixedPass(MixedPass pass, const float *x,
                         const float *const *q, unsigned count,
                         const double *means, size_t n,
                         double (*partials)[8]) {
  for (unsigned s = 0; s < mixedSumsOf(pass, count); ++s)
    std::fill(partials[s], partials[s] + 8, 0.0);
  for (size_t i = 0; i < n; i += 8)
    for (size_t k = 0; k < 8; ++k) {
      double xs = x[i + k];
      switch (pass) {
      case MixedPass::sums:
        partials[0][k] += xs;
        for (unsigned c = 0; c < count; ++c)
          partials[1 + c][k] += double(q[c][i + k]);
        partials[1 + count][k] += std::fabs(xs);
        break;
      case MixedPass::absoluteErrors:
        partials[0][k] += std::fabs(xs);
        for (unsigned c = 0; c < count; ++c)
          partials[1 + c][k] += std::fabs(double(q[c][i + k]) - xs);
        break;
      case MixedPass::moments: {
        double d = xs - means[0];
        partials[0][k] = std::fma(d, d, partials[0][k]);
        for (unsigned c = 0; c < count; ++c) {
          double e = double(q[c][i + k]) - means[1 + c];
          partials[1 + c][k] = std::fma(e, e, partials[1 + c][k]);
          partials[1 + count + c][k] =
              std::fma(d, e, partials[1 + count + c][k]);
        }
        break;
      }
      }
    }
}

/// The sums of `pass` over a tile, each as eight partial sums over i mod 8
/// added pairwise: the assigner's summation order (docs/Semantics.md §5, per-tile mixed BFP).
static void runMixedPass(const PathKernels &kernels, MixedPass pass,
                         const float *x, const float *const *q,
                         unsigned count, const double *means,
                         double *results) {
  double partials[2 * kMaxMixedTrips + 2][8];
  kernels.mixedPass(pass, x, q, count, means, kMixedValues, partials);
  for (unsigned s = 0; s < mixedSumsOf(pass, count); ++s) {
    const double *p = partials[s];
    results[s] = ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
  }
}

/// The measures under `metric` of round trips q[0..count) (count at most
/// kMaxMixedTrips) of a tile's values `x`, and x's mean absolute value
/// (the bfp0 measure), in double.
static void measureRoundTrips(const PathKernels &kernels,
                              BfpMixedMetric metric, const float *x,
                              const float *const *q, unsigned count,
                              double *measures, double &meanAbs) {
  constexpr double n = double(kMixedValues);
  double results[2 * kMaxMixedTrips + 2];
  switch (metric) {
  case BfpMixedMetric::maxAbs:
  case BfpMixedMetric::meanAbs: {
    bool mean = metric == BfpMixedMetric::meanAbs;
    runMixedPass(kernels, MixedPass::absoluteErrors, x, q, mean ? count : 0,
                  nullptr, results);
    meanAbs = results[0] / n;
    for (unsigned c = 0; c < count; ++c) {
      measures[c] = mean ? results[1 + c] / n
                         : kernels.mixedMaxAbsDifference(x, q[c], kMixedValues);
    }
    return;
  }
  case BfpMixedMetric::pcc: {
    double means[kMaxMixedTrips + 1];
    runMixedPass(kernels, MixedPass::sums, x, q, count, nullptr, results);
    for (unsigned s = 0; s <= count; ++s)
      means[s] = results[s] / n;
    meanAbs = results[1 + count] / n;
    runMixedPass(kernels, MixedPass::moments, x, q, count, means, results);
    for (unsigned c = 0; c < count; ++c) {
      double denominator = std::sqrt(results[0]) * std::sqrt(results[1 + c]);
      if (denominator != 0) {
        measures[c] = results[1 + count + c] / denominator;
        continue;
      }
      measures[c] = 1.0; // a constant side: 1 when the round trip is equal
      for (size_t i = 0; i < kMixedValues; ++i)
        if (q[c][i] != x[i]) {
          measures[c] = 0.0;
          break;
        }
    }
    return;
  }
  }
}

/// Whether a measure meets the bound: PCC at least it, errors at most it.
static bool meetsBound(BfpMixedMetric metric, double measure, double bound) {
  return metric == BfpMixedMetric::pcc ? measure >= bound : measure <= bound;
}

/// The screen's verdict on a measure: proven to meet the bound, proven
/// not to, or neither (the double sums decide).
enum class Screened { meets, fails, unknown };

/// The verdict on whether an interval [lo, hi] holding a measure meets
/// `bound` (at least it for PCC, at most it for an error).
static Screened verdict(double lo, double hi, double bound, bool atLeast) {
  if (!(std::isfinite(lo) && std::isfinite(hi)))
    return Screened::unknown;
  if (atLeast ? lo >= bound : hi <= bound)
    return Screened::meets;
  if (atLeast ? hi < bound : lo > bound)
    return Screened::fails;
  return Screened::unknown;
}

/// The screen's error bounds (docs/Semantics.md §5, the screen): G and A, its sums' (Kernels.h); g,
/// relative, of D45's double sums (at most 131 roundings a term); r,
/// relative, of the last few double operations on either side.
constexpr double kScreenG = kMixedScreenRelative,
                 kScreenA = kMixedScreenAbsolute, kScreenDouble = 0x1p-45,
                 kScreenR = 0x1p-48;

/// Whether bfp0 meets zeroBound: D45's mean |x| is sum |x| within g,
/// over n; the screen's within G plus A.
static Screened screenZero(const MixedScreenSums &s, double zeroBound) {
  constexpr double n = double(kMixedValues), G = kScreenG, A = kScreenA,
                   g = kScreenDouble, r = kScreenR;
  double lo = (s.absX - A) / (1 + G) * (1 - g) / n * (1 - r),
         hi = (s.absX + A) / (1 - G) * (1 + g) / n * (1 + r);
  return verdict(lo, hi, zeroBound, false);
}

/// Whether code c's PCC meets `bound`: an interval that holds D45's
/// measure, from the screen's sums about the shift a. With exact sums
/// about a, S_xx(a) = S_xx + (sum (x - a))^2 / n and S_xq(a) = S_xq +
/// sum (x - a) sum (q - a) / n, the centred S's those of the true means;
/// D45's sums are about means m within g sum |x| / n of the true ones, so
/// exceed the centred ones by n (mean - m)^2 at most, each within g of
/// its terms' magnitudes (at most sqrt(S_xx S_qq), Cauchy-Schwarz).
static Screened screenPcc(const MixedScreenSums &s, unsigned c, double bound) {
  constexpr double n = double(kMixedValues), G = kScreenG, A = kScreenA,
                   g = kScreenDouble, r = kScreenR;
  double p = s.dx, q = s.dq[c];
  // Upper bounds of the exact sums of squares about a; the errors of the
  // screen's linear sums (sum |x - a| <= sqrt(n S_xx(a))).
  double rx = (s.dxx + A) / (1 - G), rq = (s.dqq[c] + A) / (1 - G);
  double ep = G * std::sqrt(n * rx) + A, eq = G * std::sqrt(n * rq) + A;
  // The centred sums and their errors.
  double xx = s.dxx - p * p / n, qq = s.dqq[c] - q * q / n,
         xq = s.dxq[c] - p * q / n;
  double exx = G * rx + A + ep * (2 * std::fabs(p) + ep) / n +
               r * (s.dxx + p * p / n),
         eqq = G * rq + A + eq * (2 * std::fabs(q) + eq) / n +
               r * (s.dqq[c] + q * q / n),
         exq = G * std::sqrt(rx * rq) + A +
               (ep * std::fabs(q) + eq * std::fabs(p) + ep * eq) / n +
               r * (std::fabs(s.dxq[c]) + std::fabs(p * q) / n);
  // D45's means' errors (sum |x| <= n |a| + sqrt(n S_xx(a))), its sums.
  double a = std::fabs(double(s.shift));
  double mx = g * (n * a + std::sqrt(n * rx)) / n,
         mq = g * (n * a + std::sqrt(n * rq)) / n;
  double bx = rx + n * mx * mx, bq = rq + n * mq * mq;
  double numLo = xq - exq - n * mx * mq - g * std::sqrt(bx * bq),
         numHi = xq + exq + n * mx * mq + g * std::sqrt(bx * bq);
  double xLo = (xx - exx) * (1 - g), xHi = (xx + exx + n * mx * mx) * (1 + g),
         qLo = (qq - eqq) * (1 - g), qHi = (qq + eqq + n * mq * mq) * (1 + g);
  if (!(xLo > 0 && qLo > 0)) // D45's constant sides, or no proof
    return Screened::unknown;
  double hi = numHi / std::sqrt(numHi >= 0 ? xLo * qLo : xHi * qHi),
         lo = numLo / std::sqrt(numLo >= 0 ? xHi * qHi : xLo * qLo);
  // D45's last roundings (two square roots, a product, a quotient), ours.
  return verdict(lo - r * std::fabs(lo), hi + r * std::fabs(hi), bound, true);
}

/// The code the screen proves D45's choice for a tile, if it does: bfp0
/// where allowed, then the candidates cheapest first, as the assigner.
static bool screenChoice(const MixedScreenSums &s, unsigned formats,
                         const unsigned *candidates, unsigned count,
                         unsigned costliest, double bound, double zeroBound,
                         unsigned &chosen) {
  if (formats >> kBfpMixedZeroCode & 1) {
    Screened zero = screenZero(s, zeroBound);
    if (zero == Screened::unknown)
      return false;
    if (zero == Screened::meets) {
      chosen = kBfpMixedZeroCode;
      return true;
    }
  }
  for (unsigned c = 0; c < count; ++c) {
    Screened pcc = screenPcc(s, candidates[c], bound);
    if (pcc == Screened::unknown)
      return false;
    if (pcc == Screened::meets) {
      chosen = candidates[c];
      return true;
    }
  }
  chosen = costliest;
  return true;
}

double bfpMixedMetricValue(BfpMixedMetric metric, const float *x,
                           const float *q) {
  double measure, meanAbs;
  measureRoundTrips(activeKernels(), metric, x, &q, 1, &measure, meanAbs);
  return measure;
}

Status bfpAssignMixed(int metric, double bound, double zeroBound,
                      unsigned formats, int srcDtype, const void *src,
                      size_t rows, size_t cols, unsigned flags,
                      uint8_t *codes) {
  if (metric < 0 || metric >= int(std::size(kBfpMixedMetricNames))) {
    static const std::string text = [] {
      std::vector<std::string> metrics;
      for (size_t i = 0; i < std::size(kBfpMixedMetricNames); ++i)
        metrics.push_back(std::string(kBfpMixedMetricNames[i]) + " (" +
                          std::to_string(i) + ")");
      return "the metrics are " + textList(metrics, " and ");
    }();
    return Status::error(ErrorCode::invalidArgument, metric, 0, text.c_str());
  }
  if (formats == 0 || formats > kBfpMixedAllCodes) {
    static const std::string text = [] {
      std::vector<std::string> codes;
      for (unsigned c = 0; c < kNumBfpMixedCodes; ++c)
        codes.push_back(std::string(kBfpMixedCodes[c].name) + " (" +
                        std::to_string(1u << c) + ")");
      return "formats is a non-empty mask of the codes: " +
             textList(codes, ", ");
    }();
    return Status::error(ErrorCode::invalidArgument, int64_t(formats), 0,
                         text.c_str());
  }
  if (std::isnan(bound) || std::isnan(zeroBound))
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "the bounds are numbers, not NaN");
  if (Status s = bfpCheckInput(srcDtype))
    return s;
  size_t tiles;
  if (Status s = checkMixedCall(rows, cols, flags, codes, src, tiles))
    return s;
  const DtypeInfo &input = *lookupDtype(srcDtype);
  size_t codeBytes = bfpMixedCodeBytes(tiles);
  if (Status s = checkNoOverlap(codes, codeBytes, src,
                                rows * cols * input.bytes, false))
    return s;
  // Codes in order of cost, costliest first (BfpMixedCodes.def).
  unsigned costliest = 0;
  while (!(formats >> costliest & 1))
    ++costliest;
  BfpLayout layouts[kBfpMixedFormatCodes];
  for (unsigned c = 0; c < kBfpMixedFormatCodes; ++c)
    layouts[c] = mixedLayout(c, input, cols, flags);
  std::vector<uint8_t> chosenCodes(tiles, uint8_t(costliest));
  const PathKernels &kernels = activeKernels();
  // The allowed BFP codes but the costliest, cheapest first, measured
  // together: the costliest is the choice whether or not it meets the
  // bound, so its measure is never read.
  unsigned candidates[kMaxMixedTrips], count = 0, measured = 0;
  for (int code = int(kBfpMixedFormatCodes) - 1; code >= 0; --code)
    if (formats >> code & 1 && unsigned(code) != costliest) {
      candidates[count++] = unsigned(code);
      measured |= 1u << code;
    }
  // One allowed format (nothing measured): every tile takes it unread.
  size_t measuredTiles =
      count || formats >> kBfpMixedZeroCode & 1 ? tiles : 0;
  parallelFor(measuredTiles, 16, [&](size_t begin, size_t end) {
    // Whole lines, so that no vector access splits one.
    alignas(64) float values[(1 + kMaxMixedTrips) * kMixedValues];
    float *x = values, *q[kMaxMixedTrips];
    float *byCode[kMaxMixedTrips] = {};
    for (unsigned c = 0; c < count; ++c)
      byCode[candidates[c]] = q[c] = x + (c + 1) * kMixedValues;
    for (size_t t = begin; t < end; ++t) {
      unsigned chosen = costliest;
      if (kernels.screensMixed && metric == int(BfpMixedMetric::pcc)) {
        MixedScreenSums sums;
        kernels.mixedScreen(measured, layouts[0], src, t, sums);
        if (screenChoice(sums, formats, candidates, count, costliest, bound,
                         zeroBound, chosen)) {
          chosenCodes[t] = uint8_t(chosen);
          continue;
        }
      }
      // The reference and each round trip, all in the tile's face order.
      kernels.bfpGather(layouts[0], src, t, x);
      if (count)
        kernels.bfpMixedRoundTrips(measured, x, byCode, kMixedValues);
      double measures[kMaxMixedTrips], meanAbs;
      measureRoundTrips(kernels, BfpMixedMetric(metric), x, q, count, measures,
                        meanAbs);
      if (formats >> kBfpMixedZeroCode & 1 && meanAbs <= zeroBound) {
        chosen = kBfpMixedZeroCode;
      } else {
        for (unsigned c = 0; c < count; ++c)
          if (meetsBound(BfpMixedMetric(metric), measures[c], bound)) {
            chosen = candidates[c];
            break;
          }
      }
      chosenCodes[t] = uint8_t(chosen);
    }
  });
  std::memset(codes, 0, codeBytes);
  for (size_t t = 0; t < tiles; ++t)
    bfpAddMixedCode(codes, t, chosenCodes[t]);
  return Status::success();
}

/// "mixed BFP codes: 0 (bfp8_b), 1 (bfp4_b), 2 (bfp2_b) or 3 (bfp0)":
/// BfpMixedCodes.def's rows.
static const char *mixedCodeChoices() {
  static const std::string text = [] {
    std::vector<std::string> codes;
    for (unsigned c = 0; c < kNumBfpMixedCodes; ++c)
      codes.push_back(std::to_string(c) + " (" + kBfpMixedCodes[c].name + ")");
    return "mixed BFP codes: " + textList(codes);
  }();
  return text.c_str();
}

Status bfpMixedPackCodes(const uint8_t *tileCodes, size_t tiles,
                         uint8_t *codes) {
  if (tiles && (!tileCodes || !codes))
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "null buffer with a non-zero tile count");
  for (size_t t = 0; t < tiles; ++t)
    if (tileCodes[t] >= kNumBfpMixedCodes)
      return Status::error(ErrorCode::invalidArgument, tileCodes[t],
                           kNumBfpMixedCodes - 1, mixedCodeChoices());
  if (tiles == 0) // no bytes; `codes` may be null
    return Status::success();
  std::memset(codes, 0, bfpMixedCodeBytes(tiles));
  for (size_t t = 0; t < tiles; ++t)
    bfpAddMixedCode(codes, t, tileCodes[t]);
  return Status::success();
}

Status bfpMixedUnpackCodes(const uint8_t *codes, size_t tiles,
                           uint8_t *tileCodes) {
  if (tiles && (!codes || !tileCodes))
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "null buffer with a non-zero tile count");
  for (size_t t = 0; t < tiles; ++t)
    tileCodes[t] = uint8_t(bfpMixedCode(codes, t));
  return Status::success();
}

} // namespace birsim::core
