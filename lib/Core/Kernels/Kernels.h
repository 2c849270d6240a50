//===- Kernels.h - the kernel interface and its selection -------*- C++ -*-===//
//
// Private to lib/Core (tests and fuzzers that choose paths include it
// through a private include path). On x86-64 the SSE/AVX instructions are
// the specification (docs/Semantics.md section 2), so vector kernels are as
// exact as the portable integer path, which stays the reference and the
// fallback. Each path, the portable one included (Portable.h), contributes
// one PathKernels table, so no caller asks whether a vector path exists;
// the path is chosen once from the CPU and BIRSIM_ISA. Every vector kernel runs under
// the default MXCSR whatever the caller set.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_KERNELS_H
#define BIRSIM_LIB_CORE_KERNELS_KERNELS_H

#include "../BfpLayout.h"
#include "birsim/Core/Bfp.h"
#include "birsim/Core/BfpMixed.h"
#include "birsim/Core/Dtype.h"
#include "birsim/Core/Enums.h"
#include "birsim/Core/Fidelity.h"
#include "birsim/Core/Tensix.h"

#include <cstddef>
#include <cstdint>

namespace birsim::core {

/// The paths, by BIRSIM_ISA name (Isas.def); `portable` is no vector path.
enum class Isa : int {
#define BIRSIM_ISA(Enumerator) Enumerator,
#include "Isas.def"
  kCount
};
const char *isaName(Isa isa); ///< "unknown" when not a path

/// A set of paths.
class IsaSet {
public:
  void add(Isa isa) { bits |= 1u << unsigned(isa); }
  bool has(Isa isa) const { return bits >> unsigned(isa) & 1; }

private:
  unsigned bits = 1u << unsigned(Isa::portable);
};

/// The paths this build and this CPU run (portable always).
IsaSet availableIsas();
/// The path a request gets: the requested one where available, else the
/// next available one after it in this platform's preference list (x86-64:
/// avx512, avx2), else portable; a path the list lacks gets the best.
Isa resolveIsa(Isa requested);
/// The first available path of the preference list, or portable.
Isa bestIsa();
/// The path in use: resolveIsa(BIRSIM_ISA), or the best, read once.
Isa activeIsa();
/// Uses resolveIsa(requested) from now on; returns it. For tests and
/// benchmarks; not thread-safe.
Isa selectIsa(Isa requested);

/// The fp32 operation of a reduction, with its operand order: `acc op x` is
/// ADDSS(acc, x) / MINSS(x, acc) / MAXSS(x, acc) for the kernel (§3), and
/// The formats the vector cast loops (WidenLanes, NarrowLanes) cover: IEEE
/// ones and NaN-only ones with an all-ones NaN; the others (finite-only,
/// FNUZ) take the portable loop.
constexpr bool vectorCastCovers(const FloatFormat &f) {
  return f.hasInf() || (f.hasNaN() && f.hasNegativeZero());
}

/// ADDSS(x, acc) / MINSS(x, acc) / MAXSS(x, acc) for the collective reducer.
enum class F32Op : int { kernelAdd, kernelMin, kernelMax, collectiveAdd };

/// The kernel's F32Op of each reducing MemoryReductionOp (add, min, max:
/// op - 1), §3.
constexpr F32Op kKernelF32Ops[] = {F32Op::kernelAdd, F32Op::kernelMin,
                                   F32Op::kernelMax};

/// The vector kernels' fp8 add runs through fp16 (Elementwise.h's
/// fp8AddSteps), whose proof covers one-byte IEEE formats with 2..4
/// mantissa bits and at most 5 exponent bits; any other format takes the
/// general widen-add-narrow loop.
constexpr bool fp8AddFitsHalf(const FloatFormat &f) {
  return f.totalBits() == 8 && f.hasInf() &&
         f.mantissaBits >= 2 && f.mantissaBits <= 4 && f.exponentBits <= 5;
}

/// What an F32Op computes, with its operand order (§2, §3): ADDSS(acc, x),
/// MINSS(x, acc), MAXSS(x, acc), or ADDSS(x, acc) for the collective reducer.
enum class F32Instruction { addss, minss, maxss };
constexpr F32Instruction instructionOf(F32Op op) {
  return op == F32Op::kernelMin   ? F32Instruction::minss
         : op == F32Op::kernelMax ? F32Instruction::maxss
                                  : F32Instruction::addss;
}
constexpr bool accumulatorFirst(F32Op op) { return op == F32Op::kernelAdd; }

/// Which loop a narrow float's reduction runs on every vector path, the
/// one place this is chosen: min/max on the sign-magnitude codes (IEEE
/// formats), the fp8 add through fp16 (fp8AddFitsHalf), bf16 and fp16 add,
/// or the general widen-op-narrow loop (e4m3fn, and any format the special
/// loops do not cover).
enum class NarrowReduceLoop { minCodes, maxCodes, fp8Add, bf16Add, f16Add,
                              general };
inline NarrowReduceLoop narrowReduceLoopOf(const FloatFormat &f,
                                           unsigned bytes, F32Op op) {
  bool ieee = f.hasInf();
  if (ieee && op == F32Op::kernelMin)
    return NarrowReduceLoop::minCodes;
  if (ieee && op == F32Op::kernelMax)
    return NarrowReduceLoop::maxCodes;
  if (op != F32Op::kernelAdd)
    return NarrowReduceLoop::general;
  if (bytes == 1 && fp8AddFitsHalf(f))
    return NarrowReduceLoop::fp8Add;
  if (&f == dtypeInfo(Dtype::bfloat16).format)
    return NarrowReduceLoop::bf16Add;
  if (&f == dtypeInfo(Dtype::float16).format)
    return NarrowReduceLoop::f16Add;
  return NarrowReduceLoop::general;
}

/// A pass of the mixed-BFP assigner over a tile's values x and round trips
/// q[c] (c < count <= kMaxMixedTrips), in double (D45). Each of its sums
/// s is eight partial sums (partials[s][k]: the terms i = k mod 8, in
/// order of i); with m[0] the mean of x and m[1 + c] that of q[c]:
enum class MixedPass : int {
  sums,           ///< x; then each q[c]; then |x|
  absoluteErrors, ///< |x|; then each |q[c] - x|
  moments,        ///< (x - m[0])^2; then each (q[c] - m[1 + c])^2; then
                  ///< each (x - m[0]) (q[c] - m[1 + c]); each product
                  ///< fused into its sum (one rounding)
};
constexpr unsigned kMaxMixedTrips = kBfpMixedFormatCodes;
/// The number of sums a pass takes.
constexpr unsigned mixedSumsOf(MixedPass pass, unsigned count) {
  return pass == MixedPass::sums             ? count + 2
         : pass == MixedPass::absoluteErrors ? count + 1
                                             : 2 * count + 1;
}

/// The vector paths' fp32 screen of the assigner's PCC (D45) over a
/// tile's n values x (face order) and their round trips q[c] under mixed
/// codes c: sums in the path's fp32 lanes (at most 128 terms a lane, each
/// product fused into its sum), the lanes added in double, about a shift
/// a (an fp32 near x's mean). Each lies within kMixedScreenRelative times
/// the sum of its exact terms' magnitudes, plus kMixedScreenAbsolute, of
/// the exact sum: 128 fp32 roundings of a lane and a term's own two are
/// below 2^-16 relative; fp32's absolute error below its normal range is
/// 2^-150 a step.
constexpr double kMixedScreenRelative = 0x1p-16;
constexpr double kMixedScreenAbsolute = 0x1p-120;
struct MixedScreenSums {
  float shift;                ///< a
  double absX;                ///< sum |x|
  double dx, dxx;             ///< sum (x - a), sum (x - a)^2
  double dq[kMaxMixedTrips];  ///< sum (q[c] - a)
  double dqq[kMaxMixedTrips]; ///< sum (q[c] - a)^2
  double dxq[kMaxMixedTrips]; ///< sum (x - a) (q[c] - a)
};

/// mul_tiles from a zeroed Dest with BF16 Src as a table (Tensix.cpp,
/// docs/Semantics.md section 7 "Scale"): `words` the Dest word for
/// a = (sign, exponent 127, fraction fa), b = (+, 127, fb) at index
/// sign << 14 | fa << 7 | fb; a lane is read from it when its exponent sum
/// minus 254 is at least `lowestScale` and the moved exponent below 255.
struct TensixMulTable {
  const uint32_t *words;
  TensixEltwiseConfig config;
  unsigned destBytes;
  int lowestScale;
};
/// Bytes per value the packer's conversion reads (Dest's storage) and
/// writes (the output's).
constexpr unsigned tensixPackInBytes(TensixPackConversion c) {
  using T = TensixPackConversion;
  return c == T::keepFp32 || c == T::fp32RoundBf16 || c == T::fp32TruncFp16 ||
                 c == T::fp32RoundFp16
             ? 4
             : 2;
}
constexpr unsigned tensixPackOutBytes(TensixPackConversion c) {
  using T = TensixPackConversion;
  return c == T::keepFp32 || c == T::widenBf16 || c == T::widenFp16 ? 4 : 2;
}
/// A product's exponent rebias at `phase` (§7 "Products"): -127 for an
/// 8-bit Src exponent, +97 (FP16 into a 32-bit Dest) or -15 (FP16 into a
/// 16-bit Dest), 5 less for SrcA's low slice and 7 less for SrcB's.
constexpr int32_t tensixProductRebias(bool exponent8, bool wideDest,
                                      unsigned phase) {
  return (exponent8 ? -127 : wideDest ? 97 : -15) - 5 * int32_t(phase & 1) -
         7 * int32_t(phase >> 1 & 1);
}

/// A matmul's operands as MVMUL reads them (§7 "MVMUL"), element by element
/// in each input's row-major order: the Src exponent field (kZero for a
/// zero word), the slices the phases read and the sign as 0 or -1. in1 is
/// SrcA: slices at even and odd phases (bit 0); in0 is SrcB: slices at
/// phases 0-1 and 2-3 (bit 1).
struct TensixMatmulFields {
  static constexpr int32_t kZero = -65536;
  const int32_t *aExponent, *aSlice[2], *aSign; // k x n, by aIndex
  const int32_t *bExponent, *bSlice[2], *bSign; // m x k, row-major
  size_t m, k, n;
  /// in1's (kk, col) in blocks of 16 columns, each K x 16 row-major: a
  /// vector of columns reads consecutive lines down K.
  size_t aIndex(size_t kk, size_t col) const {
    return (col / 16) * (k * 16) + kk * 16 + col % 16;
  }
};

/// One element of a table-path call by the core's arithmetic.
void tensixMulTableElement(const TensixMulTable &table, const char *a,
                           const char *b, char *dest, size_t index);

/// One path's kernels (raw little-endian bits, any alignment): the
/// portable path's (Portable.cpp, wrapping the specification's loops) or a
/// vector path's (KernelTable.h). Every path has every entry but where a
/// capability column says it lacks one.
struct PathKernels {
  /// Capabilities: whether bfpPack counts events while it searches (the
  /// counted search), and whether mixedScreen exists (a fp32 screen of the
  /// assigner's PCC; without it every tile is measured exactly).
  bool countsSearch;
  bool screensMixed;
  /// out[i] = acc[i] op x[i] on fp32; `out` is `acc`, or apart from both.
  void (*reduceF32)(F32Op op, void *out, const void *acc, const void *x,
                    size_t count);
  /// The same on a narrow float format of `bytes` (1 or 2) per element:
  /// widen both, fp32 op, narrow with FP8 config 0 (§3).
  void (*reduceNarrow)(const FloatFormat &format, unsigned bytes, F32Op op,
                       void *acc, const void *x, size_t count);
  /// acc[i] = narrow(widen(acc[i]) op x[i]) for fp32 `x`, the narrowing
  /// under `config` (the DMA's accumulate, §8); `format` vectorCastCovers.
  void (*reduceNarrowF32)(const FloatFormat &format, unsigned bytes, F32Op op,
                          unsigned config, void *acc, const void *x,
                          size_t count);
  /// out[i] = acc[i] op x[i] on int32 (`bytes` 4) or int64 (8): wrapping
  /// add, signed min/max (§3); `out` is `acc`, or apart from both.
  void (*reduceInteger)(unsigned bytes, MemoryReductionOp op, void *out,
                        const void *acc, const void *x, size_t count);
  /// fp32 -> narrow float (RNE, `config` as the cast engine applies it);
  /// with `events`, each element's FidelityEvent counted too
  /// (NarrowCastClassifier's rule, docs/Fidelity.md).
  void (*narrowFromF32)(const FloatFormat &format, unsigned bytes,
                        const void *src, void *dst, size_t count,
                        unsigned config, FidelityCounts *events);
  /// narrow float -> fp32 (exact; NaN payloads kept, not quieted).
  void (*widenToF32)(const FloatFormat &format, unsigned bytes,
                     const void *src, void *dst, size_t count);
  /// Tiles [firstTile, firstTile + tileCount) of `layout` (BfpLayout.h)
  /// from `src` (the whole call's values) into `out` (the first of those
  /// tiles' bytes) as the packer at `site` writes them (§5); at the host,
  /// ties tallied into `tally`, and with `countEvents` the other events of
  /// docs/Fidelity.md too; with `search` (the host, bfp8_b and bfp4_b;
  /// with `countEvents` only where countsSearch), the exponent search.
  void (*bfpPack)(const BfpLayout &layout, BfpSite site, const void *src,
                  size_t firstTile, size_t tileCount, void *out,
                  BfpTally &tally, bool countEvents, bool search);
  /// Per-tile mixed BFP of tiles [firstTile, firstTile + tileCount) of a
  /// matrix (bfpPackMixed): tile t in its code's format (layouts[code]),
  /// at out + offsets[t] - offsets[firstTile]; ties tallied into `tally`.
  void (*bfpPackMixed)(const BfpLayout *layouts, const void *src,
                       const uint8_t *codes, const size_t *offsets,
                       size_t firstTile, size_t tileCount, void *out,
                       BfpTally &tally);
  /// Its inverse: tile t from packed + offsets[t] - offsets[firstTile]
  /// into `dst` (the whole call's fp32 values), a bfp0 tile as +0.
  void (*bfpUnpackMixed)(const BfpLayout *layouts, const void *packed,
                         const uint8_t *codes, const size_t *offsets,
                         size_t firstTile, size_t tileCount, void *dst);
  /// The inverse, decoding as the host or (at a device site) the unpacker:
  /// `packed` holds the first of those tiles, `dst` is the whole call's
  /// fp32 values.
  void (*bfpUnpack)(const BfpLayout &layout, BfpSite site, const void *packed,
                    size_t firstTile, size_t tileCount, void *dst);
  /// The device diff of those tiles at device site `site` (bfpDeviceDiff):
  /// mask[i] for the call's element i where not null; the number differing.
  uint64_t (*bfpDeviceDiff)(const BfpLayout &layout, BfpSite site,
                            const void *src, size_t firstTile,
                            size_t tileCount, uint8_t *mask);
  /// MX tiles [firstTile, firstTile + tileCount) of `layout` from `src`
  /// (the whole call's values) into `out` (the first of those tiles'
  /// bytes), as the host packs them (§5 MX tiles; no events).
  void (*mxPack)(const BfpLayout &layout, const void *src, size_t firstTile,
                 size_t tileCount, void *out);
  /// The inverse: `packed` holds the first of those tiles, `dst` is the
  /// whole call's fp32 values.
  void (*mxUnpack)(const BfpLayout &layout, const void *packed,
                   size_t firstTile, size_t tileCount, void *dst);
  /// Tile `tile` of `layout`'s values as fp32 (the host's inputs, §5) in
  /// walk order: block b's 16 values at out[16 b].
  void (*bfpGather)(const BfpLayout &layout, const void *src, size_t tile,
                    float *out);
  /// The host's pack then unpack (§5) of `count` fp32 values (whole
  /// blocks of 16) under each mixed code c (not bfp0) in the bit mask
  /// `codes`: q[c] the decoded values.
  void (*bfpMixedRoundTrips)(unsigned codes, const float *x, float *const *q,
                             size_t count);
  /// The partial sums of `pass` over i < n (a multiple of 8), side by
  /// side; `means` for the moments.
  void (*mixedPass)(MixedPass pass, const float *x, const float *const *q,
                    unsigned count, const double *means, size_t n,
                    double (*partials)[8]);
  /// MixedScreenSums of tile `tile` of `layout`'s values as bfpGather
  /// gives them (at most 1024) and their round trips (as
  /// bfpMixedRoundTrips) under the codes in `codes`.
  void (*mixedScreen)(unsigned codes, const BfpLayout &layout, const void *src,
                      size_t tile, MixedScreenSums &sums);
  /// The largest |b[i] - a[i]| in double, i < n (a multiple of 8), NaN
  /// terms skipped (fmax), 0 for none.
  double (*mixedMaxAbsDifference)(const float *a, const float *b, size_t n);
  /// The fp8 add of reduceNarrow, returning countFp8AddOverflows of its
  /// elements (birsim/Core/Fidelity.h).
  uint64_t (*fp8AddCounted)(const FloatFormat &format, void *acc,
                            const void *x, size_t count);
  /// `count` elements of mul from a zeroed Dest through `table` (a, b
  /// float32 values; dest table.destBytes each).
  void (*tensixMulTable)(const TensixMulTable &table, const char *a,
                         const char *b, char *dest, size_t count);
  /// `count` elements of mul (config.op) by the specification's steps:
  /// dest[i] from a[i], b[i] and, with config.accumulate, dest[i].
  void (*tensixMulDirect)(const TensixEltwiseConfig &config, const char *a,
                          const char *b, char *dest, size_t count);
  /// Rows [rowBegin, rowEnd) of a matmul from `fields` into dest (m x n
  /// values of config.dest's storage; read first with config.accumulate).
  void (*tensixMatmulRows)(const TensixMatmulConfig &config,
                           const TensixMatmulFields &fields, char *dest,
                           size_t rowBegin, size_t rowEnd);
  /// The packer's `conversion` of `count` Dest values to out (L1
  /// accumulation by the output's rule when `l1Accumulate`).
  void (*tensixPack)(TensixPackConversion conversion, bool l1Accumulate,
                     const char *in, char *out, size_t count);
};

/// The portable path's table (Portable.cpp).
const PathKernels &portableKernels();
#if defined(__x86_64__)
/// The x86 paths' tables (Avx2.cpp, Avx512.cpp), or null where this CPU
/// lacks the path's instructions; call through kernelsOf.
const PathKernels *avx2Kernels();
const PathKernels *avx512Kernels();
#endif

/// The kernels of `isa`; null for a path this build or CPU lacks.
const PathKernels *kernelsOf(Isa isa);
/// *kernelsOf(activeIsa()).
const PathKernels &activeKernels();

} // namespace birsim::core

#endif // BIRSIM_LIB_CORE_KERNELS_KERNELS_H
