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
#include "birsim/Core/Dtype.h"
#include "Paths.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
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
    // 2^(shared - 150) are subnormal or nearly so.
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = kind == 0   ? std::ldexp(normal(rng), int(rng() % 40) - 20)
             : kind == 1 ? 0.0f
             : kind == 2 ? 0.375f
             : kind == 3 ? normal(rng) * 1e-3f
             : kind == 6 ? std::ldexp(normal(rng), -int(rng() % 24) - 118)
             : kind == 7 ? std::ldexp(normal(rng), rng() % 4 ? -int(rng() % 3) - 105
                                                             : -int(rng() % 3) - 126)
                         : normal(rng);
    if (kind == 4)
      x[rng() % 1024] = std::numeric_limits<float>::infinity();
    if (kind == 5)
      x[rng() % 1024] = std::nanf("");
    std::vector<std::vector<float>> trips;
    selectIsa(Isa::portable);
    for (const BfpMixedCode &code : kBfpMixedCodes) {
      int format = code.format;
      if (format < 0)
        continue;
      Bytes one(lookupBfpFormat(format)->tileBytes);
      std::vector<float> q(1024);
      ASSERT_TRUE(bfpPack(format, int(Dtype::float32), x.data(), 1, 32, 32,
                          kBfpFaces, one.data())
                      .ok());
      ASSERT_TRUE(
          bfpUnpack(format, one.data(), 1, 32, 32, kBfpFaces, q.data()).ok());
      trips.push_back(q);
    }
    // The vector round trip is the pack and unpack.
    for (Isa isa : birsim::test::everyPath())
      if (const VectorKernels *kernels = kernelsOf(isa))
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
  std::vector<float> rows = tileOf(m, 256, 5), tile(1024), q(1024);
  for (unsigned r = 0; r < 32; ++r)
    for (unsigned c = 0; c < 32; ++c)
      tile[((r / 16) * 2 + c / 16) * 256 + (r % 16) * 16 + c % 16] =
          rows[r * 32 + c];
  int bfp4 = kBfpMixedCodes[1].format;
  Bytes one(lookupBfpFormat(bfp4)->tileBytes);
  ASSERT_TRUE(bfpPack(bfp4, int(Dtype::float32), tile.data(), 1, 32, 32,
                      kBfpFaces, one.data())
                  .ok());
  ASSERT_TRUE(
      bfpUnpack(bfp4, one.data(), 1, 32, 32, kBfpFaces, q.data()).ok());
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
