//===- DmaCompute.cpp - the DMA engine's arithmetic (Semantics.md 8) ------===//
#include "birsim/Core/DmaCompute.h"
#include "Kernels/Kernels.h"
#include "ParallelFor.h"
#include "birsim/Core/Cast.h"
#include "birsim/Core/Convert.h"
#include "birsim/Core/Enums.h"
#include "birsim/Core/Reduce.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace birsim::core {

/// NKI's name of each bir::Dtype, null where DmaDtypes.def has no row.
static const char *const *nkiNames() {
  static const auto names = [] {
    std::array<const char *, kNumDtypes> table{};
#define BIRSIM_DMA_DTYPE(Enumerator, NkiName)                                  \
  table[int(Dtype::Enumerator)] = NkiName;
#include "birsim/Core/DmaDtypes.def"
    return table;
  }();
  return names.data();
}

const char *nkiDtypeName(int dtype) {
  return lookupDtype(dtype) ? nkiNames()[dtype] : nullptr;
}

Status checkDmaDtype(int dtype) {
  if (!lookupDtype(dtype))
    return Status::error(ErrorCode::unknownDtype, dtype);
  if (!nkiDtypeName(dtype))
    return Status::error(ErrorCode::notDmaDtype, dtype);
  return Status::success();
}

Status checkNarrowing(int dstDtype, const Narrowing &narrowing) {
  if (Status s = checkDmaDtype(dstDtype))
    return s;
  if (Status s = checkFp8Config(narrowing.fp8Config))
    return s;
  int rounding = int(narrowing.rounding);
  if (rounding < 0 || rounding >= kNumRoundings)
    return Status::error(ErrorCode::invalidArgument, rounding, 0,
                         "rounding is neither nearest-even (0) nor "
                         "stochastic (1)");
  // §8: stochastic rounding chooses between two neighbours of a narrower
  // float format; every other destination is refused (D55).
  if (narrowing.rounding == Rounding::stochastic &&
      lookupDtype(dstDtype)->kind != DtypeKind::Float)
    return Status::error(ErrorCode::invalidArgument, dstDtype, 0,
                         "stochastic rounding narrows into bfloat16, "
                         "float16 or an fp8 dtype only; the destination "
                         "dtype is another");
  return Status::success();
}

/// add, min or max (a reducing MemoryReductionOp).
static Status checkComputeOp(int op, bool copyAllowed) {
  if (op < 0 || op >= kNumMemoryReductionOps)
    return Status::error(ErrorCode::invalidOp, op);
  if (op == int(MemoryReductionOp::copy) && !copyAllowed)
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "dma_compute combines with add, min or max; a "
                         "copy is the cast engine's");
  return Status::success();
}

//===-- Stochastic rounding (§8) ------------------------------------------===//

uint32_t stochasticDraw(uint64_t seed, uint64_t index) {
  uint64_t z = seed + (index + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return uint32_t((z ^ (z >> 31)) >> 32);
}

static double f32Magnitude(uint32_t bits) {
  float f;
  bits &= 0x7FFFFFFFu;
  std::memcpy(&f, &bits, 4);
  return double(f);
}

static bool isInfOrNaN(uint32_t f32) {
  return (f32 & 0x7FFFFFFFu) >= 0x7F800000u;
}

uint64_t narrowStochastic(const DtypeInfo &dst, uint32_t f32,
                          unsigned fp8Config, uint32_t draw) {
  uint64_t nearest = writeFromF32(dst, f32, fp8Config);
  uint32_t back = readAsF32(dst, nearest);
  // NaN, Inf, exact values and overflow keep the cast engine's result.
  if (isInfOrNaN(f32) || isInfOrNaN(back) || back == f32)
    return nearest;
  // The two neighbours in magnitude: codes of a sign-magnitude format.
  uint64_t sign = nearest & (uint64_t(1) << (8 * dst.bytes - 1));
  uint64_t magnitude = nearest ^ sign;
  double x = f32Magnitude(f32);
  bool roundedDown = f32Magnitude(back) < x;
  uint64_t low = roundedDown ? magnitude : magnitude - 1;
  uint64_t high = low + 1;
  uint32_t highF32 = readAsF32(dst, high);
  if (isInfOrNaN(highF32)) // past the largest finite value: as RNE
    return nearest;
  double lowValue = f32Magnitude(readAsF32(dst, low));
  double highValue = f32Magnitude(highF32);
  // P(high) = (x - low) / (high - low), both sides exact in double.
  bool up =
      double(draw) * (highValue - lowValue) < (x - lowValue) * 4294967296.0;
  return sign | (up ? high : low);
}

/// narrowStochastic into bfloat16 over `count` fp32 values, element i
/// drawing by `firstIndex + i`: below the largest finite value, adding
/// 0xFFFF - (draw >> 16) under the kept bits carries exactly when
/// draw >> 16 < the low 16 bits, §8's condition (the neighbours are 2^16
/// fp32 units apart at every bfloat16 binade and among the subnormals).
static void narrowStochasticBf16(const void *f32, void *bf16, size_t count,
                                 uint64_t seed, uint64_t firstIndex) {
  const DtypeInfo &to = dtypeInfo(Dtype::bfloat16);
  auto *in = static_cast<const unsigned char *>(f32);
  auto *out = static_cast<unsigned char *>(bf16);
  for (size_t i = 0; i < count; ++i) {
    uint32_t x = uint32_t(loadBits(in + 4 * i, 4));
    uint32_t draw = stochasticDraw(seed, firstIndex + i);
    uint32_t rounded = (x & 0x7FFFFFFFu) > 0x7F7F0000u // NaN, Inf, past max
                           ? uint32_t(writeFromF32(to, x, 0))
                           : (x + (0xFFFFu - (draw >> 16))) >> 16;
    storeBits(out + 2 * i, 2, rounded);
  }
}

//===-- dma_compute -------------------------------------------------------===//

Status dmaCompute(int op, const void *const *srcs, const int *srcDtypes,
                  size_t numSrcs, void *dst, int dstDtype, size_t count,
                  const Narrowing &narrowing, FidelityCounts *counts) {
  if (Status s = checkComputeOp(op, /*copyAllowed=*/false))
    return s;
  if (numSrcs < 1 || numSrcs > kMaxDmaSources)
    return Status::invalidSize(numSrcs, "dma_compute takes 1 to 16 sources");
  if (!srcs || !srcDtypes)
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "null source or source dtype array");
  if (Status s = checkNarrowing(dstDtype, narrowing))
    return s;
  const DtypeInfo &to = *lookupDtype(dstDtype);
  const DtypeInfo *from[kMaxDmaSources];
  for (size_t k = 0; k < numSrcs; ++k) {
    if (Status s = checkDmaDtype(srcDtypes[k]))
      return s;
    from[k] = lookupDtype(srcDtypes[k]);
    if (Status s = checkBuffers(dst, srcs[k], count,
                                std::max(from[k]->bytes, to.bytes)))
      return s;
    if (Status s = checkNoOverlap(dst, count * to.bytes, srcs[k],
                                  count * from[k]->bytes,
                                  /*exactAllowed=*/true))
      return s;
  }
  const DtypeInfo &f32 = dtypeInfo(Dtype::float32);
  F32Op f32Op = kKernelF32Ops[op - 1];
  const PathKernels &kernels = activeKernels();
  // dst op= fp32 into a narrow float, uncounted and to nearest even: one
  // fused pass (the path's reduceNarrowF32).
  if (numSrcs == 2 && srcs[0] == dst && from[0] == &to && from[1] == &f32 &&
      to.kind == DtypeKind::Float && vectorCastCovers(*to.format) &&
      narrowing.rounding == Rounding::nearestEven && !counts) {
    unsigned config = fp8ConfigFor(to, narrowing.fp8Config);
    parallelFor(count, kMinElementsPerThread, [&](size_t begin, size_t end) {
      kernels.reduceNarrowF32(
          *to.format, to.bytes, f32Op, config,
          static_cast<unsigned char *>(dst) + begin * to.bytes,
          static_cast<const unsigned char *>(srcs[1]) + 4 * begin, end - begin);
    });
    return Status::success();
  }
  bool bf16 = &to == &dtypeInfo(Dtype::bfloat16);
  parallelFor(count, kMinElementsPerThread, [&](size_t begin, size_t end) {
    // Blocks of every source read (fp32 ones in place, others widened) and
    // combined before `dst`'s block is written, so `dst` may be a source.
    constexpr size_t kBlock = 2048;
    uint32_t acc[kBlock], x[kBlock];
    FidelityCounts chunk;
    FidelityCounts *events = counts ? &chunk : nullptr;
    CastClassifier classifier(f32, to, narrowing.fp8Config);
    for (size_t b = begin; b < end; b += kBlock) {
      size_t m = std::min(kBlock, end - b);
      auto asF32 = [&](size_t k, uint32_t *scratch) -> const void * {
        auto *in =
            static_cast<const unsigned char *>(srcs[k]) + b * from[k]->bytes;
        if (from[k] == &f32)
          return in;
        castSpan(*from[k], in, f32, scratch, m, 0);
        return scratch;
      };
      const void *hub = asF32(0, acc);
      for (size_t k = 1; k < numSrcs; ++k) {
        kernels.reduceF32(f32Op, acc, hub, asF32(k, x), m);
        hub = acc;
      }
      auto *out = static_cast<unsigned char *>(dst) + b * to.bytes;
      if (narrowing.rounding == Rounding::nearestEven) {
        castSpan(f32, hub, to, out, m, narrowing.fp8Config, events);
        continue;
      }
      if (bf16)
        narrowStochasticBf16(hub, out, m, narrowing.seed, b);
      else
        for (size_t j = 0; j < m; ++j)
          storeBits(
              out + j * to.bytes, to.bytes,
              narrowStochastic(
                  to,
                  uint32_t(loadBits(
                      static_cast<const unsigned char *>(hub) + 4 * j, 4)),
                  narrowing.fp8Config, stochasticDraw(narrowing.seed, b + j)));
      for (size_t j = 0; events && j < m; ++j) {
        uint32_t value = uint32_t(
            loadBits(static_cast<const unsigned char *>(hub) + 4 * j, 4));
        uint64_t written = loadBits(out + j * to.bytes, to.bytes);
        if (FidelityEvent e = classifier.classify(value, value, written);
            e != kNoFidelityEvent)
          ++chunk.count[int(e)];
      }
      chunk.elements[int(FidelityFamily::cast)] += m;
    }
    if (counts)
      counts->addLocked(chunk);
  });
  return Status::success();
}

Status accumulateMixed(int op, void *dst, int dstDtype, const void *src,
                       int srcDtype, size_t count, const Narrowing &narrowing,
                       FidelityCounts *counts) {
  if (Status s = checkComputeOp(op, /*copyAllowed=*/true))
    return s;
  if (op == int(MemoryReductionOp::copy)) {
    if (Status s = checkNarrowing(dstDtype, narrowing))
      return s;
    if (Status s = checkDmaDtype(srcDtype))
      return s;
    if (narrowing.rounding == Rounding::nearestEven)
      return castBuffer(srcDtype, src, dstDtype, dst, count,
                        narrowing.fp8Config, counts);
    // Stochastically: the one source narrowed (§8).
    const void *one[] = {src};
    return dmaCompute(int(MemoryReductionOp::add), one, &srcDtype, 1, dst,
                      dstDtype, count, narrowing, counts);
  }
  const void *both[] = {dst, src};
  const int dtypes[] = {dstDtype, srcDtype};
  return dmaCompute(op, both, dtypes, 2, dst, dstDtype, count, narrowing,
                    counts);
}

Status scatterAccumulateMixed(int op, void *dst, size_t dstCount, int dstDtype,
                              const void *src, int srcDtype,
                              const int64_t *indices, size_t count,
                              const Narrowing &narrowing,
                              FidelityCounts *counts) {
  if (Status s = checkComputeOp(op, /*copyAllowed=*/true))
    return s;
  if (Status s = checkNarrowing(dstDtype, narrowing))
    return s;
  if (Status s = checkDmaDtype(srcDtype))
    return s;
  const DtypeInfo &to = *lookupDtype(dstDtype), &from = *lookupDtype(srcDtype);
  if (Status s = checkBuffers(dst, src, count, from.bytes))
    return s;
  if (Status s = checkScatter(dst, dstCount, to.bytes, src, from.bytes, indices,
                              count))
    return s;
  bool copy = op == int(MemoryReductionOp::copy);
  Reducer core{};
  const DtypeInfo *f32Info;
  if (!copy) // the fp32 kernel's element function (§2, §3)
    (void)resolveReducer(op, int(Dtype::float32), core, f32Info);
  CastClassifier classifier(dtypeInfo(Dtype::float32), to, narrowing.fp8Config);
  auto *d = static_cast<unsigned char *>(dst);
  auto *s = static_cast<const unsigned char *>(src);
  for (size_t i = 0; i < count; ++i, s += from.bytes) {
    unsigned char *target = d + size_t(indices[i]) * to.bytes;
    uint64_t srcBits = loadBits(s, from.bytes);
    uint32_t hub = readAsF32(from, srcBits);
    if (!copy)
      hub = uint32_t(
          core.element(readAsF32(to, loadBits(target, to.bytes)), hub));
    uint64_t written =
        copy && &from == &to && narrowing.rounding == Rounding::nearestEven
            ? srcBits // the cast engine keeps equal dtypes' bits (§4)
        : narrowing.rounding == Rounding::nearestEven
            ? writeFromF32(to, hub, narrowing.fp8Config)
            : narrowStochastic(to, hub, narrowing.fp8Config,
                               stochasticDraw(narrowing.seed, i));
    storeBits(target, to.bytes, written);
    if (counts)
      if (FidelityEvent e = classifier.classify(hub, hub, written);
          e != kNoFidelityEvent)
        ++counts->count[int(e)];
  }
  if (counts)
    counts->elements[int(FidelityFamily::cast)] += count;
  return Status::success();
}

} // namespace birsim::core
