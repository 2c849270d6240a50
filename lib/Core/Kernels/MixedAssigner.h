//===- MixedAssigner.h - the mixed-BFP assigner's passes (D45) --*- C++ -*-===//
//
// Private to lib/Core/Kernels, over a path's vocabulary `X`
// (Vocabulary.h); included, through KernelTable.h, inside each path's
// target region after LaneArithmetic.h.
//
// The host's round trips of a tile under each mixed code, the assigner's
// double partial sums (eight chains, i = k mod 8, as BfpMixed.cpp's) and the
// fp32 screen whose error bound (Kernels.h, kMixedScreenRelative) lets the
// caller skip the exact sums.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_MIXEDASSIGNER_H
#define BIRSIM_LIB_CORE_KERNELS_MIXEDASSIGNER_H

#include "BfpWalk.h"
#include "BfpPacker.h"
#include "MixedBfp.h"
#include "VectorBuiltins.h"

namespace birsim::core::kernel {

//===-- The mixed-BFP assigner (D45) --------------------------------------===//

/// Prefetches the lines of tile + 4 of `layout`'s values into L2 (a
/// matrix's tile reads 32 rows, more streams than the hardware prefetcher
/// follows; measured best of 2-8 tiles ahead).
template <class X>
void bfpPrefetchTileAhead(const BfpLayout &layout, const char *src,
                          size_t tile) {
  size_t bytes = layout.values->bytes;
  const char *next = src + layout.origin(tile + 4) * bytes;
  for (unsigned b = 0; b < layout.shape.blocks(); ++b)
    X::prefetchLine(next + layout.blockStart[b] * bytes);
}

/// Tile `tile` of `layout`'s values as fp32, block b at out[16 b], the
/// tiles ahead prefetched.
template <class X, int Load>
BIRSIM_KERNEL_LOOP void bfpGatherLoop(const BfpLayout &layout, const char *src,
                                      size_t tile, float *out) {
  size_t bytes = layout.values->bytes;
  const char *origin = src + layout.origin(tile) * bytes;
  bfpPrefetchTileAhead<X>(layout, src, tile);
  for (unsigned b = 0; b < layout.shape.blocks(); ++b)
    X::storeBfpBlock(
        reinterpret_cast<char *>(out + b * kBfpBlockValues),
        loadBfpValues<X, Load>(
            layout, origin + layout.blockStart[b] * bytes));
}

/// The host's round trips (pack then unpack, §5) of `count` fp32 values
/// (whole blocks of 16, load(i) the block at value i) under every mixed code c
/// in `Mask`, four blocks sharing one reduction of their exponents: consume(i,
/// values, grids, scale) for the block at value i, its round trip under code c
/// the exact product grids[c] * scale. The codes are "b" formats, so they share
/// the block's exponent, alignment and sign; each rounds the signed aligned
/// significand on its grid (bfpRoundedF; RNE is symmetric, so rounding the
/// signed value is rounding the magnitude), clamps it to the largest magnitude,
/// and scales it by 2^(shared - 150): exact, the datum's value (below 2^8 times
/// 2^(shared - 126 - M), shared at least 1, so at least 2^-149 apart), as
/// bfpDecodeLanes gives it. A block holding an Inf or a NaN (shared 255)
/// encodes and decodes each code's datums.
template <class X, unsigned Mask, class Load, class Consume>
__attribute__((always_inline)) inline void
bfpMixedTrips(Load &&load, size_t count, Consume &&consume) {
  using V = typename X::template Lanes<32>;
  using Block = typename X::BfpBlock;
  typename X::template PopcountTally<BfpClass> ignored{};
  auto forEachCode = [](auto fn) { forEachMixedFormatCode<Mask>(fn); };
  auto trip = [&](size_t i, const Block &values, typename X::BfpShared shared,
                  int byte) __attribute__((always_inline)) {
    Block grids[kMaxMixedTrips];
    if (byte == 255) {
      forEachCode([&](auto code) {
        constexpr unsigned M = kMixedMagnitudeBits<decltype(code)::value>;
        const BfpFormatInfo &f =
            kBfpFormatTable[kBfpMixedCodes[decltype(code)::value].format];
        grids[code] = X::mapBlock(
            [&](auto v) {
              return bfpDecodeLanes<V>(
                  f, bfpEncodeLanes<V, false, M, false>(v, shared, ignored),
                  shared);
            },
            values);
      });
      consume(i, values, grids, V::splatF(1.0f));
      return;
    }
    // From shared 24 on, the signed aligned significand is the product
    // x 2^(150 - shared) truncated: s 2^(e - shared) for a normal x
    // (significand s, exponent e), exact, or below 1 (a denormal's too),
    // so that truncating it is the truncating shift. Its powers of two
    // are built from the shared exponent's lanes.
    bool product = byte >= 24;
    auto scale = product ? V::shl(V::sub(shared, V::splat(23)), 23)
                         : V::splat(byte ? powerOfTwoBits(byte - 150) : 0);
    auto aligned =
        product ? X::mapBlock(
                      [&, toAligned = V::shl(V::sub(V::splat(277), shared),
                                             23)](auto bits) {
                        return V::truncF(V::mulF(bits, toAligned));
                      },
                      values)
                : X::mapBlock(
                      [&](auto bits) {
                        auto e = V::shr(bits, 23) & V::splat(0xFF);
                        auto sign = V::sra(bits, 31);
                        auto a = bfpAlignedLanes<V>(bits, e, shared);
                        return V::toFloat(V::sub(a ^ sign, sign));
                      },
                      values);
    forEachCode([&](auto code) {
      constexpr unsigned M = kMixedMagnitudeBits<decltype(code)::value>;
      constexpr float largest = float((1u << 24) - (1u << (24 - M)));
      grids[code] = X::mapBlock(
          [&](auto a) {
            return V::maxF(V::minF(bfpRoundedF<V, M, 0>(a), V::splatF(largest)),
                           V::splatF(-largest));
          },
          aligned);
    });
    consume(i, values, grids, scale);
  };
  auto exponents = [](const Block &values) {
    return X::mapBlock(
        [](auto v) { return bfpBlockExponents<V, false>(v); }, values);
  };
  size_t i = 0;
  for (; i + 4 * kBfpBlockValues <= count; i += 4 * kBfpBlockValues) {
    Block values[4], e[4];
    for (unsigned k = 0; k < 4; ++k) {
      values[k] = load(i + k * kBfpBlockValues);
      e[k] = exponents(values[k]);
    }
    typename X::BfpShared shared[4];
    uint32_t bytes = X::bfpShared4(e, shared);
    for (unsigned k = 0; k < 4; ++k)
      trip(i + k * kBfpBlockValues, values[k], shared[k],
           int(bytes >> 8 * k & 0xFF));
  }
  for (; i < count; i += kBfpBlockValues) {
    auto values = load(i);
    int byte = X::bfpShared(exponents(values));
    trip(i, values, X::bfpSplat(byte), byte);
  }
}

/// bfpMixedTrips' round trips into q[c].
template <class X, unsigned Mask>
BIRSIM_KERNEL_LOOP void bfpMixedRoundTripsLoop(const float *x, float *const *q,
                                               size_t count) {
  using V = typename X::template Lanes<32>;
  bfpMixedTrips<X, Mask>(
      [&](size_t i) {
        return X::loadBfpBlock(Dtype::float32,
                               reinterpret_cast<const char *>(x + i));
      },
      count,
      [&](size_t i, const typename X::BfpBlock &, const auto *grids,
          auto scale) {
        for (unsigned code = 0; code < kMaxMixedTrips; ++code)
          if (Mask >> code & 1)
            X::storeBfpBlock(
                reinterpret_cast<char *>(q[code] + i),
                X::mapBlock([&](auto g) { return V::mulF(g, scale); },
                            grids[code]));
      });
}

/// Eight doubles, lane k the partial sum of i = k mod 8 (the compilers'
/// vector extension, as wide as the path takes it), from eight fp32 values.
using MixedLanes = VectorOf<double, 64>::type;
using MixedFloats = VectorOf<float, 32>::type;
__attribute__((always_inline)) inline MixedLanes mixedLoad(const float *p) {
  MixedFloats f;
  std::memcpy(&f, p, sizeof f);
  return __builtin_convertvector(f, MixedLanes);
}

/// The partial sums of `Pass` over `Count` round trips side by side
/// (independent chains), each term's operations as the portable
/// assigner's (BfpMixed.cpp): a moment's product fused into its sum (D45),
/// nothing else contracted.
template <class X, MixedPass Pass, unsigned Count>
BIRSIM_KERNEL_LOOP void mixedPassLoop(const float *x, const float *const *q,
                                      const double *means, size_t n,
                                      double (*partials)[8]) {
  BIRSIM_FP_CONTRACT_OFF
  constexpr unsigned kSums = mixedSumsOf(Pass, Count);
  MixedLanes sum[kSums] = {};
  if constexpr (Pass == MixedPass::moments) {
    // Sweeps of at most X::kMomentTrips round trips, so that every chain
    // stays in a register; sum[0] (x's) in the first.
    constexpr unsigned kPer = X::kMomentTrips;
    for (unsigned first = 0; first == 0 || first < Count; first += kPer) {
      unsigned last = std::min(Count, first + kPer);
      for (size_t i = 0; i < n; i += 8) {
        MixedLanes d = mixedLoad(x + i) - means[0];
        if (first == 0)
          sum[0] = BIRSIM_VECTOR_FMA(d, d, sum[0]);
        for (unsigned c = first; c < last; ++c) {
          MixedLanes e = mixedLoad(q[c] + i) - means[1 + c];
          sum[1 + c] = BIRSIM_VECTOR_FMA(e, e, sum[1 + c]);
          sum[1 + Count + c] =
              BIRSIM_VECTOR_FMA(d, e, sum[1 + Count + c]);
        }
      }
    }
    for (unsigned s = 0; s < kSums; ++s)
      std::memcpy(partials[s], &sum[s], sizeof sum[s]);
    return;
  }
  for (size_t i = 0; i < n; i += 8) {
    MixedLanes xs = mixedLoad(x + i), qs[Count ? Count : 1];
    for (unsigned c = 0; c < Count; ++c)
      qs[c] = mixedLoad(q[c] + i);
    if constexpr (Pass == MixedPass::sums) {
      sum[0] = sum[0] + xs;
      for (unsigned c = 0; c < Count; ++c)
        sum[1 + c] = sum[1 + c] + qs[c];
      sum[1 + Count] = sum[1 + Count] + BIRSIM_VECTOR_ABS(xs);
    } else {
      sum[0] = sum[0] + BIRSIM_VECTOR_ABS(xs);
      for (unsigned c = 0; c < Count; ++c)
        sum[1 + c] = sum[1 + c] + BIRSIM_VECTOR_ABS(qs[c] - xs);
    }
  }
  for (unsigned s = 0; s < kSums; ++s)
    std::memcpy(partials[s], &sum[s], sizeof sum[s]);
}

/// MixedScreenSums (Kernels.h) of tile `tile` of `layout`'s values and
/// bfpMixedTrips' round trips under the codes in `Mask`, in X's fp32
/// vectors (a block's two halves into one on AVX2: at most 128 terms a
/// lane for a tile of 1024), the tiles ahead prefetched.
template <class X, unsigned Mask, int Load>
BIRSIM_KERNEL_LOOP void mixedScreenLoop(const BfpLayout &layout,
                                        const char *src, size_t tile,
                                        MixedScreenSums &out) {
  BIRSIM_FP_CONTRACT_OFF
  using F = typename VectorOf<float, X::kVectorBytes>::type;
  constexpr size_t kLanes = X::kVectorBytes / 4;
  auto total = [](F v) {
    double lanes = 0;
    for (size_t k = 0; k < kLanes; ++k)
      lanes += double(v[k]);
    return lanes;
  };
  size_t bytes = layout.values->bytes, n = layout.shape.values();
  const char *origin = src + layout.origin(tile) * bytes;
  bfpPrefetchTileAhead<X>(layout, src, tile);
  auto load = [&](size_t i) {
    return loadBfpValues<X, Load>(
        layout, origin + layout.blockStart[i / kBfpBlockValues] * bytes);
  };
  // The shift: the mean of four blocks across the tile.
  F sample = {};
  for (unsigned k = 0; k < 4; ++k)
    X::mapBlock(
        [&](auto v) {
          sample += (F)v;
          return v;
        },
        load(n * k / 4));
  float a = float(total(sample) / double(4 * kBfpBlockValues));
  F shift = F{} + a, absX = {}, dx = {}, dxx = {};
  F dq[kMaxMixedTrips] = {}, dqq[kMaxMixedTrips] = {}, dxq[kMaxMixedTrips] = {};
  bfpMixedTrips<X, Mask>(
      load, n,
      [&](size_t, const typename X::BfpBlock &values, const auto *grids,
          auto scale) {
        F d[2];
        unsigned part = 0;
        X::mapBlock(
            [&](auto v) {
              F f = (F)v;
              absX += BIRSIM_VECTOR_ABS(f);
              d[part] = f - shift;
              dx += d[part];
              dxx = BIRSIM_VECTOR_FMA(d[part], d[part], dxx);
              ++part;
              return v;
            },
            values);
        for (unsigned code = 0; code < kMaxMixedTrips; ++code) {
          if (!(Mask >> code & 1))
            continue;
          part = 0;
          X::mapBlock(
              [&](auto g) {
                // q - a rounded once: q = g scale is exact.
                F e = BIRSIM_VECTOR_FMA((F)g, (F)scale, -shift);
                dq[code] += e;
                dqq[code] = BIRSIM_VECTOR_FMA(e, e, dqq[code]);
                dxq[code] = BIRSIM_VECTOR_FMA(d[part], e, dxq[code]);
                ++part;
                return g;
              },
              grids[code]);
        }
      });
  out.shift = a;
  out.absX = total(absX);
  out.dx = total(dx);
  out.dxx = total(dxx);
  for (unsigned code = 0; code < kMaxMixedTrips; ++code)
    if (Mask >> code & 1) {
      out.dq[code] = total(dq[code]);
      out.dqq[code] = total(dqq[code]);
      out.dxq[code] = total(dxq[code]);
    }
}

/// fmax over |b - a|: a NaN term keeps the running maximum.
template <class X>
BIRSIM_KERNEL_LOOP double mixedMaxAbsDifferenceLoop(const float *a,
                                                    const float *b, size_t n) {
  MixedLanes worst = {};
  for (size_t i = 0; i < n; i += 8) {
    MixedLanes t = BIRSIM_VECTOR_ABS(mixedLoad(b + i) -
                                             mixedLoad(a + i));
    worst = t > worst ? t : worst;
  }
  double lanes[8], most = 0;
  std::memcpy(lanes, &worst, sizeof lanes);
  for (double v : lanes)
    most = v > most ? v : most;
  return most;
}
#undef BIRSIM_MIXED_LOAD

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_MIXEDASSIGNER_H
