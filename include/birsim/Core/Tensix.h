//===- Tensix.h - the Tensix FPU's elementwise ops and packer ---*- C++ -*-===//
//
// What the Tensix FPU writes to Dest for ELWMUL/ELWADD/ELWSUB at a set of
// fidelity phases, and what the packer then writes to L1, with or without
// its L1 accumulation (docs/Semantics.md section 7 [ttsim]). The settings
// are the rows of Tensix.def.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CORE_TENSIX_H
#define BIRSIM_CORE_TENSIX_H

#include "birsim/Core/Dtype.h"
#include "birsim/Core/Fidelity.h"
#include "birsim/Core/Status.h"

#include <cstddef>
#include <cstdint>
#include <iterator>

namespace birsim::core {

enum class TensixArch : int {
#define BIRSIM_TENSIX_ARCH(Enumerator, Number, CMacro) Enumerator = Number,
#include "birsim/Core/Tensix.def"
};
enum class TensixDest : int {
#define BIRSIM_TENSIX_DEST(Enumerator, Number, ...) Enumerator = Number,
#include "birsim/Core/Tensix.def"
};
enum class TensixSrc : int {
#define BIRSIM_TENSIX_SRC(Enumerator, Number, ...) Enumerator = Number,
#include "birsim/Core/Tensix.def"
};
enum class TensixOp : int {
#define BIRSIM_TENSIX_OP(Enumerator, Number, CMacro) Enumerator = Number,
#include "birsim/Core/Tensix.def"
};
/// The packer's value steps (Tensix.def's PACK_PATH rows; §7 "The packer").
enum class TensixPackConversion : int {
  keepFp32,
  fp32RoundBf16,
  fp32TruncFp16,
  fp32RoundFp16,
  keepBf16,
  widenBf16,
  keepFp16,
  widenFp16,
  fp16TruncBf16,
};

struct TensixNamedRow {
  int number;
  const char *name;
};
inline constexpr TensixNamedRow kTensixArchTable[] = {
#define BIRSIM_TENSIX_ARCH(Enumerator, Number, CMacro) {Number, #Enumerator},
#include "birsim/Core/Tensix.def"
};
inline constexpr TensixNamedRow kTensixOpTable[] = {
#define BIRSIM_TENSIX_OP(Enumerator, Number, CMacro) {Number, #Enumerator},
#include "birsim/Core/Tensix.def"
};
inline constexpr TensixNamedRow kTensixFidelityTable[] = {
#define BIRSIM_TENSIX_FIDELITY(Enumerator, Phases, CMacro)                     \
  {Phases, #Enumerator},
#include "birsim/Core/Tensix.def"
};

struct TensixDestInfo {
  TensixDest dest;
  const char *name;
  unsigned storageBytes;
  unsigned exponentBits;
  unsigned keptBits;
};
inline constexpr TensixDestInfo kTensixDestTable[] = {
#define BIRSIM_TENSIX_DEST(Enumerator, Number, StorageBytes, ExponentBits,     \
                           KeptBits, CMacro)                                   \
  {TensixDest::Enumerator, #Enumerator, StorageBytes, ExponentBits, KeptBits},
#include "birsim/Core/Tensix.def"
};

struct TensixSrcInfo {
  TensixSrc src;
  const char *name;
  unsigned exponentBits;
  unsigned fractionBits;
};
inline constexpr TensixSrcInfo kTensixSrcTable[] = {
#define BIRSIM_TENSIX_SRC(Enumerator, Number, ExponentBits, FractionBits,      \
                          CMacro)                                              \
  {TensixSrc::Enumerator, #Enumerator, ExponentBits, FractionBits},
#include "birsim/Core/Tensix.def"
};

struct TensixPackPath {
  TensixDest dest;
  int outDtype; ///< a Dtypes.def number
  unsigned arches;
  TensixPackConversion conversion;
};
TensixPackPath const *tensixPackPaths(size_t &count);

const TensixDestInfo *lookupTensixDest(int dest);
/// The dtype whose storage holds a Dest kind's values (Tensix.def's
/// storage and exponent columns): float32, bfloat16, or float16 bit
/// patterns (exponent 31 finite).
constexpr Dtype tensixDestDtype(TensixDest dest) {
  const TensixDestInfo &row = kTensixDestTable[int(dest)];
  return row.storageBytes == 4   ? Dtype::float32
         : row.exponentBits == 8 ? Dtype::bfloat16
                                 : Dtype::float16;
}
const TensixSrcInfo *lookupTensixSrc(int src);
/// The name of row `number` of an arch/op table, or null.
const char *tensixArchName(int arch);
const char *tensixOpName(int op);
/// The fidelity named `phases` ("lofi".."hifi4"), or null for other sets.
const char *tensixFidelityName(unsigned phases);
/// The packer's conversion of `dest` to `outDtype` on `arch`, or null.
const TensixPackPath *lookupTensixPackPath(int arch, int dest, int outDtype);

/// One resolved elementwise configuration (checkTensixEltwise's result).
struct TensixEltwiseConfig {
  TensixArch arch;
  TensixOp op;
  unsigned phases; ///< bit p runs phase p, ascending
  TensixDest dest;
  TensixSrc src;
  bool accumulate;
};

/// Checks the settings as birsim_tensix_eltwise does (§7 "Settings"),
/// filling `config`.
Status checkTensixEltwise(int arch, int op, unsigned phases, int dest,
                          int src, bool accumulate, TensixEltwiseConfig &config);

/// A float32 value's Src word as the unpacker writes it from a Float32 tile
/// in `src` and the FPU masks it: sign at bit 18, an exponent field at bits
/// 17-10 (5 bits wide for fp16), 10 fraction bits.
uint32_t tensixSrcWord(TensixSrc src, uint32_t f32);
/// A Dest value (its storage bits) as the FPU reads it, and back: a 32-bit
/// word laid out as float32's (a 5-bit exponent at bits 27-23).
uint32_t tensixDestRead(TensixDest dest, uint32_t bits);
uint32_t tensixDestWrite(TensixDest dest, uint32_t word);

/// What one element's Dest holds after the configured op on Src words `a`
/// and `b` with Dest read as `destWord` (ignored unless the op reads Dest):
/// the new Dest word. `minusOneQuirk` (may be null) is set when a sum of
/// exactly -1 unit hit Wormhole's renormalization (§7 "Adding into Dest").
uint32_t tensixEltwiseWord(const TensixEltwiseConfig &config, uint32_t a,
                           uint32_t b, uint32_t destWord,
                           bool *minusOneQuirk = nullptr);

/// `count` elements: dest[i] = the op on a[i], b[i] (float32 values) and
/// dest[i] (dest's type); nothing written on error. A non-null `counts`
/// receives the tensix family's counts (docs/Fidelity.md).
Status tensixEltwise(int arch, int op, unsigned phases, int dest, int src,
                     const float *a, const float *b, size_t count,
                     void *destValues, bool accumulate,
                     FidelityCounts *counts = nullptr);

/// The packer's value step for one Dest value (storage bits) to the output's
/// bits, and Pack_L1_Acc's sum of `l1` (the output's bits already in L1)
/// and `value` for outDtype float32, bfloat16 or float16.
uint32_t tensixPackValue(TensixPackConversion conversion, uint32_t bits);
uint32_t tensixL1Accumulate(int outDtype, uint32_t l1, uint32_t value);

/// `count` Dest values to out_dtype values; l1Accumulate adds them into
/// out's values. Nothing written on error.
Status tensixPack(int arch, int dest, const void *destValues, size_t count,
                  int outDtype, void *out, bool l1Accumulate);

/// The phases (a subset of `phases`) that add nothing to any product of
/// operands whose Src words carry at most `aBits` and `bBits` significant
/// bits (hidden bit included): the SrcA or SrcB slice a phase reads is zero
/// for every such value (§7 "Fidelity phases").
unsigned tensixIdlePhases(unsigned phases, unsigned aBits, unsigned bBits);

/// The most significant bits (hidden bit included) any of `count` float32
/// values keeps in Src of class `src`: 0 when every value is zero there.
unsigned tensixSignificantBits(TensixSrc src, const void *values,
                               size_t count);

/// The largest phase-0 product exponent `ea + eb + r` (§7 "Products") of a
/// mul_tiles whose SrcA values are among `a` and SrcB values among `b`:
/// their largest Src exponents added, rebiased for `dest`; INT_MIN when
/// either side is all zero in Src.
int tensixLargestProductExponent(TensixDest dest, TensixSrc src,
                                 const void *a, size_t aCount, const void *b,
                                 size_t bCount);
/// Dest's largest exponent field: 255 for an 8-bit exponent, 31 for fp16.
inline int tensixDestLargestExponent(TensixDest dest) {
  return (1 << kTensixDestTable[int(dest)].exponentBits) - 1;
}
/// Whether dropping the phases tensixIdlePhases lists keeps mul_tiles'
/// result from a zeroed Dest (§7 "Fidelity phases"): when no product's
/// exponent passes Dest's largest (tensixDestLargestExponent).
bool tensixDroppedPhasesExact(TensixDest dest, int largestProductExponent);

//===-- The matmul (§7 "MVMUL", "matmul_tiles") ---------------------------===//

/// One addend of a sum into Dest: a sign, a biased exponent and a magnitude
/// whose unit is 2^(exponent - bias - 23).
struct TensixTerm {
  uint32_t negative;
  int32_t exponent;
  uint32_t magnitude;
};

/// Dest's word after adding two terms into `destWord` (§7 "Adding into
/// Dest"; ttsim's fpu_accum_normalize_encode). `minusOneQuirk` as above.
uint32_t tensixAddIntoDest(TensixArch arch, TensixDest dest, TensixTerm t0,
                           TensixTerm t1, uint32_t destWord,
                           bool *minusOneQuirk = nullptr);

/// One resolved matmul configuration: in0 (M x K) is SrcB, in1 (K x N) is
/// SrcA.
struct TensixMatmulConfig {
  TensixArch arch;
  unsigned phases; ///< bit p runs phase p, ascending
  TensixDest dest;
  TensixSrc in0Src; ///< SrcB's class
  TensixSrc in1Src; ///< SrcA's class
  bool accumulate;
};

/// Checks the settings as birsim_tensix_matmul does (§7 "matmul_tiles"),
/// filling `config`.
Status checkTensixMatmul(int arch, unsigned phases, int dest, int in0Src,
                         int in1Src, bool accumulate,
                         TensixMatmulConfig &config);

/// One Dest element's MVMUL at `phase`: `a` the 16 SrcA words down K (a
/// column of in1), `b` the 16 SrcB words along K (a row of in0); the new
/// Dest word.
uint32_t tensixMvmulWord(const TensixMatmulConfig &config, const uint32_t *a,
                         const uint32_t *b, uint32_t destWord, unsigned phase,
                         bool *minusOneQuirk = nullptr);

/// dest (m x n, row-major, dest's type) = in0 (m x k) x in1 (k x n) as
/// matmul_tiles runs it on 32x32 tiles; m, k, n multiples of 32. Nothing
/// written on error. A non-null `counts` receives the tensix family's
/// counts per output.
Status tensixMatmul(int arch, unsigned phases, int dest, int in0Src,
                    int in1Src, const float *in0, const float *in1, size_t m,
                    size_t k, size_t n, void *destValues, bool accumulate,
                    FidelityCounts *counts = nullptr);

/// The phases of `phases` whose products can be non-zero for a matmul whose
/// in0 (SrcB) and in1 (SrcA) Src values have at most `in0Bits` and
/// `in1Bits` significant bits (§7 "Fidelity phases").
unsigned tensixUsefulPhases(unsigned phases, unsigned in0Bits,
                            unsigned in1Bits);

/// The tensix fidelity counts of a matmul's outputs, as tensixMatmul counts
/// them, with the first index of each event (docs/Fidelity.md); Dest only
/// read.
Status tallyTensixMatmul(int arch, unsigned phases, int dest, int in0Src,
                         int in1Src, const float *in0, const float *in1,
                         size_t m, size_t k, size_t n, const void *destValues,
                         bool accumulate, FidelityTally &tally);

/// The tensix fidelity counts of `count` elements of an elementwise op with
/// the first index of each event (docs/Fidelity.md).
Status tallyTensixEltwise(int arch, int op, unsigned phases, int dest, int src,
                          const float *a, const float *b, size_t count,
                          const void *destValues, bool accumulate,
                          FidelityTally &tally);

} // namespace birsim::core

#endif // BIRSIM_CORE_TENSIX_H
