//===- Simd.h - run-time selected vector kernels and threads ----*- C++ -*-===//
//
// On x86-64 the SSE/AVX instructions are the specification
// (docs/Semantics.md section 2), so vector kernels are as exact as the
// portable integer path, which stays the reference and the fallback. The
// path is chosen once from CPUID and BIRSIM_ISA=portable|avx2|avx512 (an
// unavailable path falls back to the best one below it). Every vector kernel
// runs under the default MXCSR whatever the caller set.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CORE_SIMD_H
#define BIRSIM_CORE_SIMD_H

#include "birsim/Core/Bfp.h"
#include "birsim/Core/Dtype.h"
#include "birsim/Core/Fidelity.h"

#include <cstddef>
#include <cstdint>

namespace birsim::core {

enum class Isa : int { portable = 0, avx2 = 1, avx512 = 2 };
const char *isaName(Isa isa);

/// The best path this CPU runs.
Isa bestIsa();
/// The path in use: BIRSIM_ISA or the best, read once.
Isa activeIsa();
/// Uses `requested` (or the best available below it) from now on; returns
/// the path chosen. For tests and benchmarks; not thread-safe.
Isa selectIsa(Isa requested);

/// The fp32 operation of a reduction, with its operand order: `acc op x` is
/// ADDSS(acc, x) / MINSS(x, acc) / MAXSS(x, acc) for the kernel (§3), and
/// ADDSS(x, acc) / MINSS(x, acc) / MAXSS(x, acc) for the collective reducer.
enum class F32Op : int { kernelAdd, kernelMin, kernelMax, collectiveAdd };

/// The vector kernels' fp8 add runs through fp16 (SimdAvx2.cpp's
/// fp8AddSteps), whose proof covers one-byte IEEE formats with 2..4
/// mantissa bits and at most 5 exponent bits; any other format takes the
/// general widen-add-narrow loop.
constexpr bool fp8AddFitsHalf(const FloatFormat &f) {
  return f.totalBits() == 8 && f.nonFinite == NonFinite::IEEE &&
         f.mantissaBits >= 2 && f.mantissaBits <= 4 && f.exponentBits <= 5;
}

/// One ISA's vector kernels (raw little-endian bits, any alignment). A null
/// member means "use the portable path".
struct VectorKernels {
  /// acc[i] = acc[i] op x[i] on fp32.
  void (*reduceF32)(F32Op op, void *acc, const void *x, size_t count);
  /// The same on a narrow float format of `bytes` (1 or 2) per element:
  /// widen both, fp32 op, narrow with FP8 config 0 (§3).
  void (*reduceNarrow)(const FloatFormat &format, unsigned bytes, F32Op op,
                       void *acc, const void *x, size_t count);
  /// acc[i] = acc[i] op x[i] on int32 (`bytes` 4) or int64 (8): wrapping
  /// add, signed min/max (§3); `op` is 1, 2, 3 = add, min, max.
  void (*reduceInteger)(unsigned bytes, int op, void *acc, const void *x,
                        size_t count);
  /// fp32 -> narrow float (RNE, `config` as the cast engine applies it);
  /// with `events`, each element's FidelityEvent counted too
  /// (NarrowCastClassifier's rule, docs/Fidelity.md).
  void (*narrowFromF32)(const FloatFormat &format, unsigned bytes,
                        const void *src, void *dst, size_t count,
                        unsigned config, FidelityCounts *events);
  /// narrow float -> fp32 (exact; NaN payloads kept, not quieted).
  void (*widenToF32)(const FloatFormat &format, unsigned bytes,
                     const void *src, void *dst, size_t count);
  /// BFP tiles (§5); ties tallied into `tally`, and with `countEvents` the
  /// other events of docs/Fidelity.md too.
  void (*bfpPack)(const BfpFormatInfo &format, const void *tiles,
                  size_t tileCount, void *out, BfpTally &tally,
                  bool countEvents);
  void (*bfpUnpack)(const BfpFormatInfo &format, const void *packed,
                    size_t tileCount, void *tiles);
  /// The fp8 add of reduceNarrow, for a format where fp8AddFitsHalf holds,
  /// returning countFp8AddOverflows of its elements (birsim/Core/Fidelity.h).
  uint64_t (*fp8AddCounted)(const FloatFormat &format, void *acc,
                            const void *x, size_t count);
};

/// The kernels of the active path; null on the portable path.
const VectorKernels *activeKernels();
/// The AVX2 + F16C kernels (SimdAvx2.cpp); call only when the CPU has them.
const VectorKernels &avx2Kernels();
/// The AVX-512 F/BW/VL + F16C kernels (SimdAvx512.cpp); call only when the
/// CPU has them.
const VectorKernels &avx512Kernels();

/// Threads for large calls: BIRSIM_NUM_THREADS, else hardware concurrency;
/// `setNumThreads(0)` restores that default. Returns the previous setting.
int setNumThreads(int threads);
int numThreads();

/// Keeps every bulk call made by this thread on this thread while it lives
/// (the folders: MLIR already folds functions in parallel).
class SingleThreadScope {
public:
  SingleThreadScope();
  ~SingleThreadScope();
  SingleThreadScope(const SingleThreadScope &) = delete;
  SingleThreadScope &operator=(const SingleThreadScope &) = delete;

private:
  bool saved;
};

/// Runs fn(begin, end) over [0, count) in contiguous chunks, on several
/// threads only when each gets at least `minPerThread` items: the calling
/// thread and workers kept from earlier calls (a call that finds them busy
/// starts its own). Chunks are independent, so results do not depend on the
/// thread count.
void parallelFor(size_t count, size_t minPerThread,
                 void (*fn)(void *context, size_t begin, size_t end),
                 void *context);

template <typename Fn>
void parallelFor(size_t count, size_t minPerThread, Fn &&fn) {
  parallelFor(
      count, minPerThread,
      [](void *context, size_t begin, size_t end) {
        (*static_cast<Fn *>(context))(begin, end);
      },
      &fn);
}

/// Elements per thread below which a bulk call stays on one thread.
constexpr size_t kMinElementsPerThread = size_t(1) << 18;
/// BFP tiles per thread below which packing stays on one thread.
constexpr size_t kMinTilesPerThread = 256;

} // namespace birsim::core

#endif // BIRSIM_CORE_SIMD_H
