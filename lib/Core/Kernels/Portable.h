//===- Portable.h - the portable path's kernels -----------------*- C++ -*-===//
//
// Private to lib/Core. The portable path is a peer of the vector paths: a
// PathKernels table (Portable.cpp) whose entries wrap the specification's
// loops, each defined beside the rules it runs (Reduce.cpp, Cast.cpp,
// BfpPortable.cpp, BfpMixed.cpp), with the signatures of PathKernels'
// members (Kernels.h documents each). It is the reference every vector
// path is tested against, and the path on every platform without one.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_PORTABLE_H
#define BIRSIM_LIB_CORE_KERNELS_PORTABLE_H

#include "Kernels.h"

namespace birsim::core::portable {

// Reduce.cpp (§3).
void reduceF32(F32Op op, void *out, const void *acc, const void *x,
               size_t count);
void reduceNarrow(const FloatFormat &format, unsigned bytes, F32Op op,
                  void *acc, const void *x, size_t count);
void reduceNarrowF32(const FloatFormat &format, unsigned bytes, F32Op op,
                     unsigned config, void *acc, const void *x, size_t count);
void reduceInteger(unsigned bytes, MemoryReductionOp op, void *out,
                   const void *acc, const void *x, size_t count);
uint64_t fp8AddCounted(const FloatFormat &format, void *acc, const void *x,
                       size_t count);

// Tensix.cpp (§7).
void tensixMulTable(const TensixMulTable &table, const char *a, const char *b,
                    char *dest, size_t count);
void tensixMulDirect(const TensixEltwiseConfig &config, const char *a,
                     const char *b, char *dest, size_t count);
void tensixMatmulRows(const TensixMatmulConfig &config,
                      const TensixMatmulFields &fields, char *dest,
                      size_t rowBegin, size_t rowEnd);
void tensixPack(TensixPackConversion conversion, bool l1Accumulate,
                const char *in, char *out, size_t count);
// Cast.cpp (§4).
void narrowFromF32(const FloatFormat &format, unsigned bytes, const void *src,
                   void *dst, size_t count, unsigned config,
                   FidelityCounts *events);
void widenToF32(const FloatFormat &format, unsigned bytes, const void *src,
                void *dst, size_t count);

// BfpPortable.cpp (§5).
void bfpPack(const BfpLayout &layout, BfpSite site, const void *src,
             size_t firstTile, size_t tileCount, void *out, BfpTally &tally,
             bool countEvents, bool search);
void bfpUnpack(const BfpLayout &layout, BfpSite site, const void *packed,
               size_t firstTile, size_t tileCount, void *dst);
uint64_t bfpDeviceDiff(const BfpLayout &layout, BfpSite site, const void *src,
                       size_t firstTile, size_t tileCount, uint8_t *mask);
void mxPack(const BfpLayout &layout, const void *src, size_t firstTile,
            size_t tileCount, void *out);
void mxUnpack(const BfpLayout &layout, const void *packed, size_t firstTile,
              size_t tileCount, void *dst);
void bfpGather(const BfpLayout &layout, const void *src, size_t tile,
               float *out);

// BfpMixed.cpp (§5 per-tile mixed BFP, D45).
void bfpPackMixed(const BfpLayout *layouts, const void *src,
                  const uint8_t *codes, const size_t *offsets,
                  size_t firstTile, size_t tileCount, void *out,
                  BfpTally &tally);
void bfpUnpackMixed(const BfpLayout *layouts, const void *packed,
                    const uint8_t *codes, const size_t *offsets,
                    size_t firstTile, size_t tileCount, void *dst);
void bfpMixedRoundTrips(unsigned codes, const float *x, float *const *q,
                        size_t count);
void mixedPass(MixedPass pass, const float *x, const float *const *q,
               unsigned count, const double *means, size_t n,
               double (*partials)[8]);
double mixedMaxAbsDifference(const float *a, const float *b, size_t n);

} // namespace birsim::core::portable

#endif // BIRSIM_LIB_CORE_KERNELS_PORTABLE_H
