//===- KernelTable.h - a vector path's kernel table -------------*- C++ -*-===//
//
// Private to lib/Core. The entry points of PathKernels over a path's
// vocabulary `X` (Vocabulary.h), the same for every path; included after
// LaneArithmetic.h inside the path's target region, with the loops of each
// algorithm (one header each). Each entry enters the kernel
// (X::Guard: the default floating-point environment, §2) and picks the
// loop's instantiation for its operands (Dispatch.h).
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_KERNELTABLE_H
#define BIRSIM_LIB_CORE_KERNELS_KERNELTABLE_H

#ifndef BIRSIM_LIB_CORE_KERNELS_PATHPRELUDE_H // its functions stay baseline
#error "include PathPrelude.h before the target region"
#endif

#include "BfpDeviceDiff.h"
#include "BfpPack.h"
#include "BfpUnpack.h"
#include "Dispatch.h"
#include "Elementwise.h"
#include "Kernels.h"
#include "MixedAssigner.h"
#include "MixedBfp.h"
#include "TensixMatmul.h"
#include "MxTiles.h"
#include "TensixEltwise.h"
#include "Vocabulary.h"

namespace birsim::core::kernel {

template <class X> struct EntryPoints {
  using Guard = typename X::Guard;

  static void reduceF32(F32Op op, void *out, const void *acc, const void *x,
                        size_t count) {
    Guard guard(x, 4 * count, out, 4 * count);
    X::reportRead(acc, 4 * count);
    withConstant<F32Op::kernelAdd, F32Op::kernelMin, F32Op::kernelMax,
                 F32Op::collectiveAdd>(op, [&](auto f32Op) {
      reduceF32Loop<X, f32Op>(static_cast<char *>(out),
                              static_cast<const char *>(acc),
                              static_cast<const char *>(x), count);
    });
  }

  static void reduceNarrow(const FloatFormat &f, unsigned bytes, F32Op op,
                           void *acc, const void *x, size_t count) {
    Guard guard(x, bytes * count, acc, bytes * count);
    auto *a = static_cast<char *>(acc);
    auto *b = static_cast<const char *>(x);
    switch (narrowReduceLoopOf(f, bytes, op)) {
    case NarrowReduceLoop::minCodes:
    case NarrowReduceLoop::maxCodes:
      return withBool(op == F32Op::kernelMin, [&](auto isMin) {
        withConstant<1u, 2u>(bytes, [&](auto width) {
          minMaxCodesLoop<X, isMin, width>(f, a, b, count);
        });
      });
    case NarrowReduceLoop::fp8Add:
      return (void)fp8AddLoop<X, false>(f, a, b, count);
    case NarrowReduceLoop::bf16Add:
      return halfAddLoop<X, true>(a, b, count);
    case NarrowReduceLoop::f16Add:
      return halfAddLoop<X, false>(a, b, count);
    case NarrowReduceLoop::general:
      return withConstant<F32Op::kernelAdd, F32Op::kernelMin,
                          F32Op::kernelMax>(op, [&](auto f32Op) {
        withConstant<1u, 2u>(bytes, [&](auto width) {
          generalNarrowReduceLoop<X, f32Op, width>(f, a, b, count);
        });
      });
    }
  }

  static void reduceNarrowF32(const FloatFormat &f, unsigned bytes, F32Op op,
                              unsigned config, void *acc, const void *x,
                              size_t count) {
    Guard guard(x, 4 * count, acc, bytes * count);
    auto *a = static_cast<char *>(acc);
    auto *b = static_cast<const char *>(x);
    withConstant<F32Op::kernelAdd, F32Op::kernelMin, F32Op::kernelMax>(
        op, [&](auto f32Op) {
          if (&f == dtypeInfo(Dtype::bfloat16).format)
            return generalNarrowReduceLoop<X, f32Op, 2u, true, true>(
                f, a, b, count, config);
          withConstant<1u, 2u>(bytes, [&](auto width) {
            generalNarrowReduceLoop<X, f32Op, width, true>(f, a, b, count,
                                                           config);
          });
        });
  }

  static void reduceInteger(unsigned bytes, MemoryReductionOp op, void *out,
                            const void *acc, const void *x, size_t count) {
    Guard guard(x, bytes * count, out, bytes * count);
    X::reportRead(acc, bytes * count);
    withConstant<4u, 8u>(bytes, [&](auto width) {
      withConstant<MemoryReductionOp::add, MemoryReductionOp::min,
                   MemoryReductionOp::max>(op, [&](auto integerOp) {
        integerLoop<X, width, integerOp>(static_cast<char *>(out),
                                         static_cast<const char *>(acc),
                                         static_cast<const char *>(x), count);
      });
    });
  }

  /// The vector fp8 add's proof covers fp8AddFitsHalf formats; the others
  /// count on the portable path.
  static void tensixMulTable(const TensixMulTable &table, const char *a,
                             const char *b, char *dest, size_t count) {
    Guard guard(a, 4 * count, dest, table.destBytes * count);
    X::reportRead(b, 4 * count);
    withBool(table.destBytes == 4, [&](auto wide) {
      tensixMulTableLoop<X, wide>(table, a, b, dest, count);
    });
  }
  static void tensixMulDirect(const TensixEltwiseConfig &config,
                              const char *a, const char *b, char *dest,
                              size_t count) {
    unsigned bytes = kTensixDestTable[int(config.dest)].storageBytes;
    Guard guard(a, 4 * count, dest, bytes * count);
    X::reportRead(b, 4 * count);
    if (config.accumulate)
      X::reportRead(dest, bytes * count);
    withBool(bytes == 4, [&](auto wide) {
      tensixMulDirectLoop<X, wide>(config, a, b, dest, count);
    });
  }
  static void tensixMatmulRows(const TensixMatmulConfig &config,
                               const TensixMatmulFields &fields, char *dest,
                               size_t rowBegin, size_t rowEnd) {
    unsigned bytes = kTensixDestTable[int(config.dest)].storageBytes;
    size_t first = rowBegin * fields.n, count = (rowEnd - rowBegin) * fields.n;
    Guard guard(fields.aExponent, 0, dest + bytes * first, bytes * count);
    if (config.accumulate)
      X::reportRead(dest + bytes * first, bytes * count);
    withBool(bytes == 4, [&](auto wide) {
      tensixMatmulRowsLoop<X, wide>(config, fields, dest, rowBegin, rowEnd);
    });
  }
  static void tensixPack(TensixPackConversion conversion, bool l1Accumulate,
                         const char *in, char *out, size_t count) {
    Guard guard(in, tensixPackInBytes(conversion) * count, out,
                tensixPackOutBytes(conversion) * count);
    if (l1Accumulate)
      X::reportRead(out, tensixPackOutBytes(conversion) * count);
    using T = TensixPackConversion;
    withConstant<T::keepFp32, T::fp32RoundBf16, T::fp32TruncFp16,
                 T::fp32RoundFp16, T::keepBf16, T::widenBf16, T::keepFp16,
                 T::widenFp16, T::fp16TruncBf16>(conversion, [&](auto c) {
      withBool(l1Accumulate, [&](auto accumulate) {
        tensixPackLoop<X, c, accumulate>(in, out, count);
      });
    });
  }
  static uint64_t fp8AddCounted(const FloatFormat &f, void *acc,
                                const void *x, size_t count) {
    if (!fp8AddFitsHalf(f))
      return portableKernels().fp8AddCounted(f, acc, x, count);
    Guard guard(x, count, acc, count);
    return fp8AddLoop<X, true>(f, static_cast<char *>(acc),
                               static_cast<const char *>(x), count);
  }

  static void narrowFromF32(const FloatFormat &f, unsigned bytes,
                            const void *src, void *dst, size_t count,
                            unsigned config, FidelityCounts *events) {
    Guard guard(src, 4 * count, dst, bytes * count);
    withBool(events != nullptr, [&](auto counted) {
      withConstant<1u, 2u>(bytes, [&](auto width) {
        narrowLoop<X, counted, width>(f, static_cast<const char *>(src),
                                      static_cast<char *>(dst), count, config,
                                      events);
      });
    });
  }

  static void widenToF32(const FloatFormat &f, unsigned bytes,
                         const void *src, void *dst, size_t count) {
    Guard guard(src, bytes * count, dst, 4 * count);
    withConstant<1u, 2u>(bytes, [&](auto width) {
      widenLoop<X, width>(f, static_cast<const char *>(src),
                          static_cast<char *>(dst), count);
    });
  }

  /// fn(the load of the layout's values as a constant; BfpWalk.h).
  template <typename Fn> static void withLoad(const BfpLayout &layout, Fn &&fn) {
    withConstant<int(Dtype::float32), int(Dtype::bfloat16), kBfpAnyLoad>(
        bfpLoadConstantOf(*layout.values), fn);
  }

  /// The ranges a BFP kernel touches are its blocks' (BfpWalk.h reports
  /// them), not one span: a matrix's tiles interleave with the next
  /// thread's. A device site packs the "b" formats only (bfpCheckSite).
  static void bfpPack(const BfpLayout &layout, BfpSite site, const void *src,
                      size_t firstTile, size_t tileCount, void *out,
                      BfpTally &tally, bool countEvents, bool search) {
    Guard guard(nullptr, 0, nullptr, 0);
    withBfpSite(site, [&](auto at) {
      withBool(countEvents && at == BfpSite::host, [&](auto counted) {
        withBool(search && at == BfpSite::host && !counted, [&](auto searched) {
          withBfpFormat(layout.format->format, [&](auto m, auto fp16Exponent) {
            withLoad(layout, [&](auto load) {
              if constexpr ((at == BfpSite::host || !fp16Exponent) &&
                            (!searched || !fp16Exponent))
                bfpPackLoop<X, at, counted, m, fp16Exponent, load, searched>(
                    layout, static_cast<const char *>(src), firstTile,
                    tileCount, static_cast<char *>(out), tally);
            });
          });
        });
      });
    });
  }

  static void bfpPackMixed(const BfpLayout *layouts, const void *src,
                           const uint8_t *codes, const size_t *offsets,
                           size_t firstTile, size_t tileCount, void *out,
                           BfpTally &tally) {
    Guard guard(nullptr, 0, nullptr, 0);
    withLoad(layouts[0], [&](auto load) {
      bfpPackMixedLoop<X, load>(layouts, static_cast<const char *>(src), codes,
                                offsets, firstTile, tileCount,
                                static_cast<char *>(out), tally);
    });
  }

  static void bfpUnpackMixed(const BfpLayout *layouts, const void *packed,
                             const uint8_t *codes, const size_t *offsets,
                             size_t firstTile, size_t tileCount, void *dst) {
    Guard guard(nullptr, 0, nullptr, 0);
    bfpUnpackMixedLoop<X>(layouts, static_cast<const unsigned char *>(packed),
                          codes, offsets, firstTile, tileCount,
                          static_cast<char *>(dst));
  }

  static void bfpUnpack(const BfpLayout &layout, BfpSite site,
                        const void *packed, size_t firstTile, size_t tileCount,
                        void *dst) {
    Guard guard(nullptr, 0, nullptr, 0);
    withBfpSite(site, [&](auto at) {
      withBfpFormat(layout.format->format, [&](auto m, auto fp16Exponent) {
        if constexpr (at == BfpSite::host || !fp16Exponent)
          bfpUnpackLoop<X, at, m>(layout,
                                  static_cast<const unsigned char *>(packed),
                                  firstTile, tileCount,
                                  static_cast<char *>(dst));
      });
    });
  }

  static uint64_t bfpDeviceDiff(const BfpLayout &layout, BfpSite site,
                                const void *src, size_t firstTile,
                                size_t tileCount, uint8_t *mask) {
    Guard guard(nullptr, 0, nullptr, 0);
    uint64_t differing = 0;
    withBfpSite(site, [&](auto at) {
      withBfpFormat(layout.format->format, [&](auto m, auto fp16Exponent) {
        withLoad(layout, [&](auto load) {
          if constexpr (at != BfpSite::host && !fp16Exponent)
            differing = bfpDeviceDiffLoop<X, at, m, load>(
                layout, static_cast<const char *>(src), firstTile, tileCount,
                mask);
        });
      });
    });
    return differing;
  }

  static void mxPack(const BfpLayout &layout, const void *src,
                     size_t firstTile, size_t tileCount, void *out) {
    Guard guard(nullptr, 0, nullptr, 0);
    withMxFormat(layout.format->format, [&](auto format) {
      withLoad(layout, [&](auto load) {
        mxPackLoop<X, load, format>(layout, static_cast<const char *>(src),
                                    firstTile, tileCount,
                                    static_cast<char *>(out));
      });
    });
  }

  static void mxUnpack(const BfpLayout &layout, const void *packed,
                       size_t firstTile, size_t tileCount, void *dst) {
    Guard guard(nullptr, 0, nullptr, 0);
    withMxFormat(layout.format->format, [&](auto format) {
      mxUnpackLoop<X, format>(layout,
                              static_cast<const unsigned char *>(packed),
                              firstTile, tileCount, static_cast<char *>(dst));
    });
  }

  static void bfpGather(const BfpLayout &layout, const void *src, size_t tile,
                        float *out) {
    Guard guard(nullptr, 0, nullptr, 0);
    withLoad(layout, [&](auto load) {
      bfpGatherLoop<X, load>(layout, static_cast<const char *>(src), tile,
                             out);
    });
  }

  static void bfpMixedRoundTrips(unsigned codes, const float *x,
                                 float *const *q, size_t count) {
    Guard guard(x, 4 * count, nullptr, 0);
    for (unsigned code = 0; code < kMaxMixedTrips; ++code)
      if (codes >> code & 1)
        X::reportWrite(q[code], 4 * count);
    withConstantBelow<1u << kMaxMixedTrips>(codes, [&](auto mask) {
      if constexpr (mask != 0)
        bfpMixedRoundTripsLoop<X, mask>(x, q, count);
    });
  }

  static void mixedPass(MixedPass pass, const float *x, const float *const *q,
                        unsigned count, const double *means, size_t n,
                        double (*partials)[8]) {
    Guard guard(nullptr, 0, nullptr, 0);
    withConstant<MixedPass::sums, MixedPass::absoluteErrors,
                 MixedPass::moments>(pass, [&](auto p) {
      withConstantBelow<kMaxMixedTrips + 1>(count, [&](auto c) {
        mixedPassLoop<X, p, c>(x, q, means, n, partials);
      });
    });
  }

  static void mixedScreen(unsigned codes, const BfpLayout &layout,
                          const void *src, size_t tile, MixedScreenSums &sums) {
    Guard guard(nullptr, 0, nullptr, 0);
    withConstantBelow<1u << kMaxMixedTrips>(codes, [&](auto mask) {
      withLoad(layout, [&](auto load) {
        mixedScreenLoop<X, mask, load>(layout, static_cast<const char *>(src),
                                       tile, sums);
      });
    });
  }

  static double mixedMaxAbsDifference(const float *a, const float *b,
                                      size_t n) {
    Guard guard(a, 4 * n, nullptr, 0);
    return mixedMaxAbsDifferenceLoop<X>(a, b, n);
  }
};

/// The PathKernels of path `X`.
template <class X> constexpr PathKernels kernelTableOf() {
  static_assert(checkVocabulary<X>());
  using E = EntryPoints<X>;
  PathKernels table{};
  table.countsSearch = false;
  table.screensMixed = true;
#define BIRSIM_PATH_KERNEL(Name) table.Name = E::Name;
#include "PathKernels.def"
  return table;
}

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_KERNELTABLE_H
