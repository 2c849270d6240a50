//===- BfpMixedTest.cpp - per-tile mixed BFP (docs/Semantics.md 5) --------===//
//
// The mixed packer and unpacker against each tile packed on its own by
// bfpPackMatrix (a 32x32 matrix of one tile) and concatenated; the
// assigner against a brute-force evaluation of every allowed format on
// every tile, its metrics written out plainly in long double; on every
// path, plain and transposed, float32 and bfloat16 input; and the errors.
//
//===----------------------------------------------------------------------===//
#include "birsim/Core/BfpMixed.h"
#include "BfpLayout.h"       // lib/Core, private
#include "Kernels/Kernels.h" // lib/Core, private
#include "Paths.h"
#include "birsim/Core/Dtype.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <set>
#include <tuple>
#include <vector>

using namespace birsim::core;

namespace {

using Bytes = std::vector<uint8_t>;

/// A rows x cols float32 matrix whose tiles have scales 2^-20 .. 2^10 and
/// shapes from Gaussian to a few outliers, so the assigner's choices vary.
std::vector<float> matrixOf(size_t rows, size_t cols, std::mt19937 &rng) {
  std::vector<float> m(rows * cols);
  std::normal_distribution<float> normal(0, 1);
  for (size_t tr = 0; tr < rows / 32; ++tr)
    for (size_t tc = 0; tc < cols / 32; ++tc) {
      float scale = std::ldexp(1.0f, int(rng() % 31) - 20);
      unsigned kind = rng() % 4;
      for (size_t r = 0; r < 32; ++r)
        for (size_t c = 0; c < 32; ++c) {
          float v = normal(rng) * scale;
          if (kind == 1 && rng() % 50 == 0)
            v *= 64; // outliers
          if (kind == 2)
            v = scale * float(int(rng() % 5) - 2); // few levels
          m[(tr * 32 + r) * cols + tc * 32 + c] = v;
        }
    }
  return m;
}

/// Tile t of the matrix as its own 32x32 matrix (transposed or not, the
/// tile form's own transpose applies inside it).
std::vector<float> tileOf(const std::vector<float> &m, size_t cols, size_t t) {
  size_t tr = t / (cols / 32), tc = t % (cols / 32);
  std::vector<float> tile(1024);
  for (size_t r = 0; r < 32; ++r)
    std::memcpy(&tile[r * 32], &m[(tr * 32 + r) * cols + tc * 32], 128);
  return tile;
}

/// A row-major 32x32 tile in face order, the assigner's order.
std::vector<float> faceOrderOf(const std::vector<float> &rows) {
  std::vector<float> tile(1024);
  for (unsigned r = 0; r < 32; ++r)
    for (unsigned c = 0; c < 32; ++c)
      tile[((r / 16) * 2 + c / 16) * 256 + (r % 16) * 16 + c % 16] =
          rows[r * 32 + c];
  return tile;
}

/// The host's round trip of a face-order tile under mixed code `code`.
std::vector<float> roundTripOf(unsigned code, const std::vector<float> &x) {
  int format = kBfpMixedCodes[code].format;
  Bytes one(lookupBfpFormat(format)->tileBytes);
  std::vector<float> q(1024);
  EXPECT_TRUE(bfpPack(format, int(Dtype::float32), x.data(), 1, 32, 32,
                      kBfpFaces, one.data())
                  .ok());
  EXPECT_TRUE(
      bfpUnpack(format, one.data(), 1, 32, 32, kBfpFaces, q.data()).ok());
  return q;
}

Bytes randomCodes(size_t tiles, std::mt19937 &rng) {
  Bytes codes((tiles + 3) / 4);
  for (uint8_t &b : codes)
    b = uint8_t(rng());
  return codes;
}

TEST(BfpMixed, CodesAndSizes) {
  const uint8_t codes[] = {0xE4}; // tiles 0..3: codes 0, 1, 2, 3
  EXPECT_EQ(bfpMixedCode(codes, 0), 0u);
  EXPECT_EQ(bfpMixedCode(codes, 1), 1u);
  EXPECT_EQ(bfpMixedCode(codes, 2), 2u);
  EXPECT_EQ(bfpMixedCode(codes, 3), 3u);
  // DeepSeek's compressed::TILE_SIZES: 1088, 576, 320, 0.
  EXPECT_EQ(bfpMixedBytes(codes, 64, 64), 1088u + 576 + 320 + 0);
  EXPECT_EQ(bfpMixedBytes(codes, 32, 32), 1088u);
  EXPECT_EQ(bfpMixedBytes(codes, 48, 64), 0u);
  EXPECT_EQ(bfpMixedBytes(nullptr, 32, 32), 0u);
  EXPECT_EQ(bfpMixedBytes(nullptr, 0, 32), 0u);
}

// Every path, plain and transposed, float32 and bfloat16: the mixed bytes
// are the tiles packed alone in their formats, back to back; unpacking
// gives each tile's own unpack, bfp0 tiles +0.
void expectPackIsEachTilePackedAlone(size_t rows, size_t cols, int rounds,
                                     int threads, std::mt19937 &rng) {
  setNumThreads(threads);
  size_t tiles = rows / 32 * (cols / 32);
  std::vector<float> m = matrixOf(rows, cols, rng);
  std::vector<uint16_t> bf16(m.size());
  for (size_t i = 0; i < m.size(); ++i) {
    uint32_t b;
    std::memcpy(&b, &m[i], 4);
    bf16[i] = uint16_t(b >> 16);
  }
  for (Isa isa : birsim::test::everyPath()) {
    selectIsa(isa);
    for (int round = 0; round < rounds; ++round) {
      Bytes codes = randomCodes(tiles, rng);
      for (unsigned flags : {0u, kBfpTranspose})
        for (Dtype dtype : {Dtype::float32, Dtype::bfloat16}) {
          const void *src = dtype == Dtype::float32
                                ? static_cast<const void *>(m.data())
                                : bf16.data();
          Bytes want;
          std::vector<float> unpacked(m.size(), 0.0f);
          for (size_t t = 0; t < tiles; ++t) {
            unsigned code = bfpMixedCode(codes.data(), t);
            std::vector<float> tile = tileOf(m, cols, t);
            if (dtype == Dtype::bfloat16)
              for (float &v : tile) {
                uint32_t b;
                std::memcpy(&b, &v, 4);
                b &= 0xFFFF0000u;
                std::memcpy(&v, &b, 4);
              }
            if (code == 3)
              continue;
            int format = kBfpMixedCodes[code].format;
            Bytes one(lookupBfpFormat(format)->tileBytes);
            ASSERT_TRUE(bfpPackMatrix(format, int(Dtype::float32),
                                      tile.data(), 32, 32, 32, 32, flags,
                                      one.data())
                            .ok());
            want.insert(want.end(), one.begin(), one.end());
            std::vector<float> back(1024);
            ASSERT_TRUE(bfpUnpackMatrix(format, one.data(), 32, 32, 32, 32,
                                        flags, back.data())
                            .ok());
            size_t tr = t / (cols / 32), tc = t % (cols / 32);
            for (size_t r = 0; r < 32; ++r)
              std::memcpy(&unpacked[(tr * 32 + r) * cols + tc * 32],
                          &back[r * 32], 128);
          }
          ASSERT_EQ(bfpMixedBytes(codes.data(), rows, cols), want.size());
          // 16 guard bytes (4 floats) before and after each output.
          Bytes got(want.size() + 32, 0xEE);
          ASSERT_TRUE(bfpPackMixed(int(dtype), src, rows, cols, flags,
                                   codes.data(), got.data() + 16)
                          .ok());
          EXPECT_TRUE(std::equal(want.begin(), want.end(), got.begin() + 16))
              << isaName(isa) << " flags " << flags;
          auto isGuard = [](uint8_t b) { return b == 0xEE; };
          EXPECT_TRUE(std::all_of(got.begin(), got.begin() + 16, isGuard));
          EXPECT_TRUE(std::all_of(got.end() - 16, got.end(), isGuard));
          std::vector<float> out(m.size() + 8, -1.0f);
          ASSERT_TRUE(bfpUnpackMixed(got.data() + 16, rows, cols, flags,
                                     codes.data(), out.data() + 4)
                          .ok());
          EXPECT_EQ(0, std::memcmp(out.data() + 4, unpacked.data(),
                                   m.size() * 4))
              << isaName(isa) << " flags " << flags;
          for (size_t i = 0; i < 4; ++i)
            EXPECT_TRUE(out[i] == -1.0f && out[m.size() + 4 + i] == -1.0f);
        }
    }
  }
}

/// A small matrix four times; a wide one (tiles of a format in windows of
/// the matrix, threads starting inside a tile row) once, on two threads.
TEST(BfpMixed, PackIsEachTilePackedAlone) {
  birsim::test::PathGuard guard;
  std::mt19937 rng(39116);
  for (auto [rows, cols, rounds, threads] :
       {std::tuple<size_t, size_t, int, int>{96, 160, 4, 1}, {192, 2848, 1, 2}})
    expectPackIsEachTilePackedAlone(rows, cols, rounds, threads, rng);
}

/// The metric of a tile's round trip, plainly: long double, two passes.
long double plainMetric(int metric, const std::vector<float> &x,
                        const std::vector<float> &q) {
  size_t n = x.size();
  long double worst = 0, sum = 0;
  for (size_t i = 0; i < n; ++i) {
    long double d = std::fabs((long double)q[i] - (long double)x[i]);
    worst = std::max(worst, d);
    sum += d;
  }
  if (metric == 0)
    return worst;
  if (metric == 1)
    return sum / n;
  long double mx = 0, mq = 0;
  for (size_t i = 0; i < n; ++i) {
    mx += x[i];
    mq += q[i];
  }
  mx /= n;
  mq /= n;
  long double sxq = 0, sxx = 0, sqq = 0;
  for (size_t i = 0; i < n; ++i) {
    sxq += (x[i] - mx) * (q[i] - mq);
    sxx += (x[i] - mx) * (x[i] - mx);
    sqq += (q[i] - mq) * (q[i] - mq);
  }
  if (sxx == 0 || sqq == 0)
    return x == q ? 1 : 0;
  return sxq / std::sqrt(sxx * sqq);
}

// The assigner against every allowed format evaluated on every tile:
// cheapest first (bfp0, bfp2_b, bfp4_b, bfp8_b), the first that meets the
// bound, else the costliest allowed. Bounds sit where the choices vary; a
// tile whose plain metric lies within 1e-12 (relative) of the bound is
// skipped, since double and long double may differ there.
TEST(BfpMixed, AssignerIsTheBruteForceChoice) {
  birsim::test::PathGuard guard;
  std::mt19937 rng(7);
  size_t rows = 128, cols = 256, tiles = 32;
  std::vector<float> m = matrixOf(rows, cols, rng);
  struct Case { int metric; double bound, zeroBound; unsigned formats; };
  const Case cases[] = {{2, 0.999, 1e-3, 0xF}, {2, 0.99, 0.0, 0x3},
                        {2, 0.89, 1e-4, 0xE},  {0, 1e-2, 1e-3, 0xF},
                        {1, 1e-3, 1e-2, 0x7},  {1, 1e-5, 1e-6, 0x9},
                        {0, 0.5, 0.0, 0x4}};
  unsigned seen[4] = {};
  for (Isa isa : birsim::test::everyPath()) {
    selectIsa(isa);
    for (const Case &c : cases) {
      Bytes guarded((tiles + 3) / 4 + 8, 0xEE); // 4 guard bytes each side
      ASSERT_TRUE(bfpAssignMixed(c.metric, c.bound, c.zeroBound, c.formats,
                                 int(Dtype::float32), m.data(), rows, cols, 0,
                                 guarded.data() + 4)
                      .ok());
      for (size_t i = 0; i < 4; ++i)
        ASSERT_TRUE(guarded[i] == 0xEE && guarded[guarded.size() - 1 - i] == 0xEE);
      Bytes codes(guarded.begin() + 4, guarded.end() - 4);
      for (size_t t = 0; t < tiles; ++t) {
        std::vector<float> x = tileOf(m, cols, t);
        unsigned costliest = 0;
        while (!(c.formats >> costliest & 1))
          ++costliest;
        unsigned want = costliest;
        bool nearBound = false;
        for (int code = 3; code >= 0; --code) {
          if (!(c.formats >> code & 1))
            continue;
          long double value;
          double bound;
          bool good;
          if (code == 3) {
            value = plainMetric(1, x, std::vector<float>(1024, 0.0f));
            bound = c.zeroBound;
            good = value <= bound;
          } else {
            int format = kBfpMixedCodes[code].format;
            Bytes one(lookupBfpFormat(format)->tileBytes);
            std::vector<float> q(1024);
            ASSERT_TRUE(bfpPackMatrix(format, int(Dtype::float32), x.data(),
                                      32, 32, 32, 32, 0, one.data())
                            .ok());
            ASSERT_TRUE(bfpUnpackMatrix(format, one.data(), 32, 32, 32, 32, 0,
                                        q.data())
                            .ok());
            value = plainMetric(c.metric, x, q);
            bound = c.bound;
            good = c.metric == 2 ? value >= bound : value <= bound;
          }
          nearBound |= std::fabs(value - bound) <= 1e-12L * std::fabs(bound);
          if (good) {
            want = unsigned(code);
            break;
          }
        }
        if (nearBound)
          continue;
        EXPECT_EQ(bfpMixedCode(codes.data(), t), want)
            << isaName(isa) << " metric " << c.metric << " bound " << c.bound
            << " tile " << t;
        ++seen[want];
      }
    }
  }
  for (unsigned code = 0; code < 4; ++code)
    EXPECT_GT(seen[code], 0u) << "no tile chose code " << code;
}

// The assigner's measures are the same doubles on every path (the vector
// paths sum in the portable order, D45), and the vector round trip is the
// pack and unpack: tiles of normal values over many binades, of zeros, of
// one constant (PCC's zero denominator, equal or not), with an Inf or a
// NaN, of values near fp32's smallest (shared exponents below the datum
// width), against their bfp8_b, bfp4_b and bfp2_b round trips and random
// ones.
TEST(BfpMixed, MeasuresAreTheSameOnEveryPath) {
  birsim::test::PathGuard guard;
  std::mt19937 rng(0xD45);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (int round = 0; round < 80; ++round) {
    std::vector<float> x(1024);
    int kind = round % 8;
    // Kinds 6 and 7: blocks of tiny values and denormals, whose scales
    // 2^(shared - 150) are subnormal or nearly so (shared exponents about
    // 20-27: the product alignment from 24 on).
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = kind == 0   ? std::ldexp(normal(rng), int(rng() % 40) - 20)
             : kind == 1 ? 0.0f
             : kind == 2 ? 0.375f
             : kind == 3 ? normal(rng) * 1e-3f
             : kind == 6 ? std::ldexp(normal(rng), -int(rng() % 24) - 118)
             : kind == 7
                 ? std::ldexp(normal(rng), rng() % 4 ? -int(rng() % 6) - 101
                                                     : -int(rng() % 3) - 126)
                 : normal(rng);
    if (kind == 4)
      x[rng() % 1024] = std::numeric_limits<float>::infinity();
    if (kind == 5)
      x[rng() % 1024] = std::nanf("");
    std::vector<std::vector<float>> trips;
    selectIsa(Isa::portable);
    for (unsigned code = 0; code < std::size(kBfpMixedCodes); ++code)
      if (kBfpMixedCodes[code].format >= 0) // not bfp0
        trips.push_back(roundTripOf(code, x));
    // The vector round trip is the pack and unpack.
    for (Isa isa : birsim::test::everyPath())
      if (const PathKernels *kernels = kernelsOf(isa))
        for (unsigned mask = 1; mask < 8; ++mask) {
          std::vector<float> q(3 * 1024, 7.0f);
          float *byCode[3];
          for (unsigned c = 0; c < 3; ++c)
            byCode[c] = mask >> c & 1 ? q.data() + c * 1024 : nullptr;
          kernels->bfpMixedRoundTrips(mask, x.data(), byCode, 1024);
          for (unsigned c = 0; c < 3; ++c)
            if (mask >> c & 1)
              ASSERT_TRUE(std::memcmp(byCode[c], trips[c].data(), 4096) == 0)
                  << isaName(isa) << " code " << c << " of mask " << mask
                  << " round " << round;
            else
              ASSERT_EQ(q[c * 1024], 7.0f) << "code " << c << " not asked";
          // Whole blocks short of a tile: the first 3, nothing past them.
          std::vector<float> part(1024, 7.0f);
          float *first[3] = {part.data(), part.data(), part.data()};
          unsigned one = mask & -mask; // the lowest code asked
          unsigned code = unsigned(__builtin_ctz(one));
          kernels->bfpMixedRoundTrips(one, x.data(), first, 48);
          ASSERT_TRUE(std::memcmp(part.data(), trips[code].data(), 48 * 4) == 0)
              << isaName(isa) << " code " << code << " of 48 values";
          for (size_t i = 48; i < part.size(); ++i)
            ASSERT_EQ(part[i], 7.0f) << isaName(isa) << " wrote value " << i;
        }
    std::vector<float> random(1024);
    for (float &v : random)
      v = normal(rng);
    trips.push_back(random);
    trips.push_back(x);
    for (int metric = 0; metric < 3; ++metric)
      for (const std::vector<float> &q : trips) {
        selectIsa(Isa::portable);
        double want = bfpMixedMetricValue(BfpMixedMetric(metric), x.data(),
                                          q.data());
        for (Isa isa : birsim::test::everyPath()) {
          selectIsa(isa);
          double got = bfpMixedMetricValue(BfpMixedMetric(metric), x.data(),
                                           q.data());
          ASSERT_TRUE(std::memcmp(&got, &want, sizeof got) == 0)
              << "metric " << metric << " round " << round << " on "
              << isaName(isa) << ": " << got << " vs " << want;
        }
      }
  }
  // The codes of a matrix whose bounds are its tiles' own measures (the
  // comparisons at equality) are the same on every path.
  // Tile 5's bfp4_b round trip in face order, the assigner's order: its
  // measure is the bound, which tile 5 then meets with bfp4_b at equality.
  std::vector<float> m = matrixOf(128, 256, rng);
  for (size_t r = 0; r < 32; ++r) // tile 5: Gaussian
    for (size_t c = 0; c < 32; ++c)
      m[r * 256 + 5 * 32 + c] = normal(rng);
  std::vector<float> tile = faceOrderOf(tileOf(m, 256, 5)),
                     q = roundTripOf(1, tile);
  for (int metric = 0; metric < 3; ++metric) {
    selectIsa(Isa::portable);
    double bound = bfpMixedMetricValue(BfpMixedMetric(metric), tile.data(),
                                       q.data());
    Bytes want(8);
    ASSERT_TRUE(bfpAssignMixed(metric, bound, 0.0, 0x7, int(Dtype::float32),
                               m.data(), 128, 256, 0, want.data())
                    .ok());
    EXPECT_EQ(bfpMixedCode(want.data(), 5), 1u) << "metric " << metric << " bound " << bound;
    for (Isa isa : birsim::test::everyPath()) {
      selectIsa(isa);
      Bytes got(8);
      ASSERT_TRUE(bfpAssignMixed(metric, bound, 0.0, 0x7, int(Dtype::float32),
                                 m.data(), 128, 256, 0, got.data())
                      .ok());
      EXPECT_EQ(got, want) << "metric " << metric << " on " << isaName(isa);
    }
  }
}

namespace {

/// Tiles for the screen (kind t % 16): Gaussian at scales from 2^-130
/// (denormals) to 1e38 (squares overflowing fp32), offset by up to 10^7
/// times their spread, few levels, outliers, constant, zero, with an Inf or
/// a NaN, a ramp, uniform on [0, 1).
std::vector<float> screenMatrix(size_t rows, size_t cols, std::mt19937 &rng) {
  std::vector<float> m(rows * cols);
  std::normal_distribution<float> normal(0, 1);
  std::uniform_real_distribution<float> uniform(0, 1);
  size_t tileCols = cols / 32;
  for (size_t t = 0; t < rows / 32 * tileCols; ++t) {
    unsigned kind = t % 16;
    for (size_t i = 0; i < 1024; ++i) {
      float g = normal(rng), v;
      switch (kind) {
      case 0:
        v = g;
        break;
      case 1:
        v = std::ldexp(g, -20);
        break;
      case 2:
        v = 10 + g;
        break;
      case 3:
        v = 1000 + g;
        break;
      case 4:
        v = 1e4f + 1e-3f * g;
        break;
      case 5:
        v = std::ldexp(g, -130);
        break;
      case 6:
        v = std::ldexp(g, 120);
        break;
      case 7:
        v = 1e38f * std::tanh(g);
        break;
      case 8:
        v = float(int(rng() % 5) - 2);
        break;
      case 9:
        v = rng() % 50 ? g : 64 * g;
        break;
      case 10:
        v = 0.375f;
        break;
      case 11:
        v = 0;
        break;
      case 12:
        v = i == 500 ? INFINITY : g;
        break;
      case 13:
        v = i == 77 ? NAN : g;
        break;
      case 14:
        v = float(i) * 1e-3f;
        break;
      default:
        v = uniform(rng);
        break;
      }
      m[(t / tileCols * 32 + i / 32) * cols + t % tileCols * 32 + i % 32] = v;
    }
  }
  return m;
}

} // namespace

// The vector paths' fp32 screen sums (Kernels.h) lie within their stated
// error of the exact sums about their shift on every kind of tile, or are
// non-finite where fp32 overflows; a tile with an Inf or a NaN gives
// non-finite sums.
TEST(BfpMixed, ScreenSumsAreWithinTheirBound) {
  std::mt19937 rng(0x5C4EE7);
  std::vector<float> m = screenMatrix(64, 256, rng);
  // One tile in face order, as the assigner's round trips see it.
  BfpLayout faceOrder = bfpTilesLayout(*lookupBfpFormat(int(BfpFormat::bfp8_b)),
                                       *lookupBfpTileShape(32, 32),
                                       dtypeInfo(Dtype::float32), true);
  for (Isa isa : birsim::test::everyPath()) {
    const PathKernels *kernels = kernelsOf(isa);
    if (!kernels || !kernels->screensMixed)
      continue;
    for (size_t t = 0; t < 16; ++t) {
      std::vector<float> x = faceOrderOf(tileOf(m, 256, t));
      std::vector<float> q[3];
      for (unsigned code = 0; code < 3; ++code)
        q[code] = roundTripOf(code, x);
      for (unsigned mask = 1; mask < 8; ++mask) {
        MixedScreenSums sums;
        kernels->mixedScreen(mask, faceOrder, x.data(), 0, sums);
        bool finite = t % 16 != 12 && t % 16 != 13;
        if (!finite) {
          EXPECT_FALSE(std::isfinite(sums.dxx)) << "tile " << t;
          continue;
        }
        long double a = sums.shift;
        auto expectWithin = [&](double got, auto term, const char *what) {
          long double exact = 0, magnitudes = 0;
          for (size_t i = 0; i < 1024; ++i) {
            long double v = term(i);
            exact += v;
            magnitudes += std::fabs(v);
          }
          long double slack =
              kMixedScreenRelative * magnitudes + kMixedScreenAbsolute;
          // Non-finite only where a lane can overflow fp32.
          if (!std::isfinite(got))
            EXPECT_GE(magnitudes, 0x1p127L) << isaName(isa) << " tile " << t;
          else
            EXPECT_LE(std::fabs(got - exact), slack)
                << isaName(isa) << " tile " << t << " mask " << mask << " "
                << what << ": " << got << " vs " << double(exact);
        };
        auto dx = [&](size_t i) { return x[i] - a; };
        expectWithin(
            sums.absX, [&](size_t i) { return std::fabs((long double)x[i]); },
            "sum |x|");
        expectWithin(sums.dx, dx, "sum (x - a)");
        expectWithin(
            sums.dxx, [&](size_t i) { return dx(i) * dx(i); }, "sum (x - a)^2");
        for (unsigned code = 0; code < 3; ++code) {
          if (!(mask >> code & 1))
            continue;
          auto dq = [&](size_t i) { return q[code][i] - a; };
          expectWithin(sums.dq[code], dq, "sum (q - a)");
          expectWithin(
              sums.dqq[code], [&](size_t i) { return dq(i) * dq(i); },
              "sum (q - a)^2");
          expectWithin(
              sums.dxq[code], [&](size_t i) { return dx(i) * dq(i); },
              "sum (x - a)(q - a)");
        }
      }
    }
  }
}

// The vector paths decide a tile's PCC and bfp0 choices from the fp32
// screen where it proves them (D45), else from the double sums: their codes
// are the portable path's (the double sums alone) for bounds at, one ulp
// from, and 10^-12 .. 10^-3 (relative) either side of tiles' own measures,
// on every kind of tile of screenMatrix, transposed and from bfloat16 too.
TEST(BfpMixed, ScreenedCodesAreTheDoubleOnes) {
  birsim::test::PathGuard guard;
  std::mt19937 rng(0xD45);
  size_t rows = 64, cols = 256; // a tile of each kind
  std::vector<float> m = screenMatrix(rows, cols, rng);
  // The measures of tiles of kinds 0, 2, 3, 8, 9, 15 (PCC of bfp4_b and
  // bfp2_b) and 0, 1, 5 (mean |x|): the bounds' centres. Formats 0x6 leave
  // bfp2_b the one candidate, so its choice is bfp4_b's measure's.
  selectIsa(Isa::portable);
  std::vector<std::pair<double, bool>> centres; // (value, is bfp0's)
  for (size_t t : {0, 2, 3, 8, 9, 15}) {
    std::vector<float> x = faceOrderOf(tileOf(m, cols, t));
    for (unsigned code : {1u, 2u}) {
      std::vector<float> q = roundTripOf(code, x);
      centres.push_back(
          {bfpMixedMetricValue(BfpMixedMetric::pcc, x.data(), q.data()),
           false});
    }
  }
  for (size_t t : {0, 1, 5}) {
    std::vector<float> x = faceOrderOf(tileOf(m, cols, t));
    centres.push_back({bfpMixedMetricValue(BfpMixedMetric::meanAbs, x.data(),
                                           std::vector<float>(1024, 0).data()),
                       true});
  }
  std::vector<uint16_t> halves(m.size()); // m's bfloat16 truncations
  for (size_t i = 0; i < m.size(); ++i)
    halves[i] = uint16_t(__builtin_bit_cast(uint32_t, m[i]) >> 16);
  const double offsets[] = {0, 1e-12, 1e-9, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3};
  std::set<Bytes> distinct;
  for (auto [centre, zero] : centres)
    for (double offset : offsets)
      for (int side : {-1, 1})
        for (int ulp = 0; ulp <= (offset == 0); ++ulp) {
          double bound = centre * (1 + side * offset);
          if (ulp)
            bound = std::nextafter(bound, side * INFINITY);
          double pccBound = zero ? 0.999 : bound, zeroBound = zero ? bound : 0;
          // (formats, flags, input): the screen reads a transposed
          // matrix's columns and bfloat16 values as the gather does.
          for (auto [formats, flags, bf16] : {std::tuple{0xFu, 0u, false},
                                              {0x6u, 0u, false},
                                              {0xFu, kBfpTranspose, false},
                                              {0xFu, 0u, true}}) {
            if (zero && formats != 0xF)
              continue;
            int input = int(bf16 ? Dtype::bfloat16 : Dtype::float32);
            const void *src = bf16 ? (const void *)halves.data() : m.data();
            selectIsa(Isa::portable);
            Bytes want(rows * cols / 1024 / 4);
            ASSERT_TRUE(bfpAssignMixed(2, pccBound, zeroBound, formats, input,
                                       src, rows, cols, flags, want.data())
                            .ok());
            distinct.insert(want);
            for (Isa isa : birsim::test::everyPath()) {
              selectIsa(isa);
              Bytes got(want.size());
              ASSERT_TRUE(bfpAssignMixed(2, pccBound, zeroBound, formats, input,
                                         src, rows, cols, flags, got.data())
                              .ok());
              EXPECT_EQ(got, want)
                  << isaName(isa) << " pcc " << pccBound << " zero "
                  << zeroBound << " formats " << formats << " flags " << flags
                  << " bf16 " << bf16;
            }
          }
        }
  EXPECT_GT(distinct.size(), 10u) << "the bounds should vary the choices";
}

TEST(BfpMixed, ErrorsWriteNothing) {
  std::vector<float> m(64 * 64, 1.0f);
  Bytes codes = {0x00, 0x00}, out(8192, 0xEE), before = out;
  Status s = bfpPackMixed(int(Dtype::float32), m.data(), 48, 64, 0,
                          codes.data(), out.data());
  EXPECT_EQ(s.message(), "invalid argument: mixed BFP takes whole 32x32 "
                         "tiles: rows and columns multiples of 32 (got 48)");
  s = bfpPackMixed(int(Dtype::float32), m.data(), 64, 64, kBfpFaces,
                   codes.data(), out.data());
  EXPECT_EQ(s.message(), "invalid argument: mixed BFP takes the flag "
                         "transpose (2) only (got 1)");
  s = bfpPackMixed(int(Dtype::float16), m.data(), 64, 64, 0, codes.data(),
                   out.data());
  EXPECT_FALSE(s.ok());
  s = bfpPackMixed(int(Dtype::float32), m.data(), 64, 64, 0, nullptr,
                   out.data());
  EXPECT_FALSE(s.ok());
  s = bfpAssignMixed(3, 0.9, 0.1, 0xF, int(Dtype::float32), m.data(), 64, 64,
                     0, out.data());
  EXPECT_EQ(s.message(), "invalid argument: the metrics are max_abs (0), "
                         "mean_abs (1) and pcc (2) (got 3)");
  s = bfpAssignMixed(2, 0.9, 0.1, 0, int(Dtype::float32), m.data(), 64, 64, 0,
                     out.data());
  EXPECT_EQ(s.message(), "invalid argument: formats is a non-empty mask of "
                         "the codes: bfp8_b (1), bfp4_b (2), bfp2_b (4), "
                         "bfp0 (8)");
  s = bfpAssignMixed(2, 0.9, 0.1, 16, int(Dtype::float32), m.data(), 64, 64, 0,
                     out.data());
  EXPECT_FALSE(s.ok());
  s = bfpAssignMixed(2, std::nan(""), 0.1, 1, int(Dtype::float32), m.data(),
                     64, 64, 0, out.data());
  EXPECT_FALSE(s.ok());
  // The length checks (the lowering's calls): one byte short or long.
  s = bfpPackMixed(int(Dtype::float32), m.data(), 64, 64, 0, codes.data(),
                   out.data(), 4 * 1088 + 1);
  EXPECT_EQ(s.message(), "invalid argument: the packed bytes differ from the "
                         "codes' length (got 4353)");
  std::vector<float> back(64 * 64, 7.0f), backBefore = back;
  s = bfpUnpackMixed(out.data(), 64, 64, 0, codes.data(), back.data(),
                     4 * 1088 - 1);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(back, backBefore);
  EXPECT_EQ(out, before);
  // A partly overlapping destination is an error too.
  s = bfpPackMixed(int(Dtype::float32), m.data(), 64, 64, 0, codes.data(),
                   reinterpret_cast<uint8_t *>(m.data()) + 4);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(bfpPackMixed(int(Dtype::float32), nullptr, 0, 0, 0, nullptr,
                           nullptr)
                  .ok());
}

} // namespace
