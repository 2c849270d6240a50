//===- DmaCompute.h - the DMA engine's arithmetic through fp32 --*- C++ -*-===//
//
// nki.isa.dma_compute, dma_copy's read-modify-write and Trainium3's bf16
// PSUM accumulation (docs/Semantics.md section 8): every operand widened to
// fp32 by the cast engine, combined by the fp32 core of section 2, the
// result narrowed to the destination's dtype by the cast engine under an
// explicit FP8 config, to nearest even or stochastically.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CORE_DMACOMPUTE_H
#define BIRSIM_CORE_DMACOMPUTE_H

#include "birsim/Core/Dtype.h"
#include "birsim/Core/Fidelity.h"
#include "birsim/Core/Status.h"

#include <cstddef>
#include <cstdint>

namespace birsim::core {

/// How the fp32 result is narrowed (§8).
enum class Rounding : int {
  nearestEven = 0, ///< the cast engine's rule (§4)
  stochastic = 1,  ///< seeded; not the device's bits (D55)
};
constexpr int kNumRoundings = 2;

struct Narrowing {
  unsigned fp8Config = 0; ///< FP8ConversionConfig for fp8 results (§4)
  Rounding rounding = Rounding::nearestEven;
  uint64_t seed = 0; ///< stochastic rounding's seed
};

/// At most this many sources (nki.isa.dma_compute's limit).
constexpr size_t kMaxDmaSources = 16;

/// NKI's name of a DmaDtypes.def dtype, or null for any other dtype.
const char *nkiDtypeName(int dtype);

/// A DmaDtypes.def row, else ErrorCode::notDmaDtype naming it.
Status checkDmaDtype(int dtype);

/// The destination's narrowing: a DMA dtype, a valid FP8 config and
/// rounding, and stochastic rounding only into bf16, fp16 or fp8.
Status checkNarrowing(int dstDtype, const Narrowing &narrowing);

/// dst[i] = narrow(op(...op(widen(srcs[0][i]), widen(srcs[1][i]))...,
/// widen(srcs[n-1][i]))) with op add (ADDSS(acc, x)), min (MINSS(x, acc))
/// or max (MAXSS(x, acc)); 1 <= numSrcs <= 16. `dst` may be one of the
/// sources exactly and overlaps none partly. Validates before writing.
Status dmaCompute(int op, const void *const *srcs, const int *srcDtypes,
                  size_t numSrcs, void *dst, int dstDtype, size_t count,
                  const Narrowing &narrowing, FidelityCounts *counts = nullptr);

/// dst op= src across dtypes: dmaCompute over {dst, src} into dst; `copy`
/// is the cast engine's castBuffer (dma_copy without dst_rmw_op).
Status accumulateMixed(int op, void *dst, int dstDtype, const void *src,
                       int srcDtype, size_t count, const Narrowing &narrowing,
                       FidelityCounts *counts = nullptr);

/// dst[indices[i]] op= src[i] across dtypes, in the order of i; every index
/// is checked against dstCount before any write. Stochastic rounding draws
/// by i.
Status scatterAccumulateMixed(int op, void *dst, size_t dstCount, int dstDtype,
                              const void *src, int srcDtype,
                              const int64_t *indices, size_t count,
                              const Narrowing &narrowing,
                              FidelityCounts *counts = nullptr);

/// Element `index`'s 32 random bits under `seed` (§8: SplitMix64 of
/// seed + (index + 1) * 0x9E3779B97F4A7C15, top half).
uint32_t stochasticDraw(uint64_t seed, uint64_t index);

/// fp32 bits narrowed into a narrow float dtype stochastically with the
/// draw `draw` (§8); what round-to-nearest-even gives where §8 says so.
uint64_t narrowStochastic(const DtypeInfo &dst, uint32_t f32,
                          unsigned fp8Config, uint32_t draw);

} // namespace birsim::core

#endif // BIRSIM_CORE_DMACOMPUTE_H
