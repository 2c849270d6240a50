//===- Tensix.cpp - the Tensix FPU's elementwise ops and packer -----------===//
//
// docs/Semantics.md section 7 [ttsim]: the FPU's Src words, its fidelity
// phases' products, the aligned sum into Dest, the packer's value step and
// its L1 accumulation. Each function cites the rule it implements.
//
//===----------------------------------------------------------------------===//
#include "birsim/Core/Tensix.h"
#include "birsim/Core/Dtype.h"
#include "Kernels/Kernels.h"
#include "Kernels/Portable.h"
#include "ParallelFor.h"

#include <algorithm>
#include <climits>
#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

namespace birsim::core {

static uint32_t bitsOf(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return bits;
}
static uint64_t bitsOf(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  return bits;
}
static float floatOf(uint32_t bits) {
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}
static double doubleOf(uint64_t bits) {
  double v;
  std::memcpy(&v, &bits, 8);
  return v;
}

//===-- Tables ------------------------------------------------------------===//

static constexpr TensixPackPath kPackPaths[] = {
#define BIRSIM_TENSIX_PACK_PATH(Dest, OutDtype, Arches, Conversion)            \
  {TensixDest::Dest, int(Dtype::OutDtype), Arches,                             \
   TensixPackConversion::Conversion},
#include "birsim/Core/Tensix.def"
};

TensixPackPath const *tensixPackPaths(size_t &count) {
  count = std::size(kPackPaths);
  return kPackPaths;
}

const TensixDestInfo *lookupTensixDest(int dest) {
  for (const TensixDestInfo &row : kTensixDestTable)
    if (int(row.dest) == dest)
      return &row;
  return nullptr;
}

const TensixSrcInfo *lookupTensixSrc(int src) {
  for (const TensixSrcInfo &row : kTensixSrcTable)
    if (int(row.src) == src)
      return &row;
  return nullptr;
}

template <size_t N>
static const char *rowName(const TensixNamedRow (&table)[N], int number) {
  for (const TensixNamedRow &row : table)
    if (row.number == number)
      return row.name;
  return nullptr;
}
const char *tensixArchName(int arch) { return rowName(kTensixArchTable, arch); }
const char *tensixOpName(int op) { return rowName(kTensixOpTable, op); }
const char *tensixFidelityName(unsigned phases) {
  return rowName(kTensixFidelityTable, int(phases));
}

const TensixPackPath *lookupTensixPackPath(int arch, int dest, int outDtype) {
  if (!tensixArchName(arch))
    return nullptr;
  for (const TensixPackPath &path : kPackPaths)
    if (int(path.dest) == dest && path.outDtype == outDtype &&
        (path.arches >> arch & 1))
      return &path;
  return nullptr;
}

//===-- Settings (§7 "Settings") ------------------------------------------===//

static Status invalid(const char *rule, int64_t got) {
  return Status::error(ErrorCode::invalidArgument, got, 0, rule);
}

static Status checkArch(int arch) {
  if (tensixArchName(arch))
    return Status::success();
  return invalid("tensix: unknown architecture: expected "
                 "BIRSIM_TENSIX_WORMHOLE (0) or BIRSIM_TENSIX_BLACKHOLE (1)",
                 arch);
}

static Status unknownDest(int dest) {
  return invalid("tensix: unknown Dest kind: expected "
                 "BIRSIM_TENSIX_DEST_FP32 (0), BIRSIM_TENSIX_DEST_BF16 (1) "
                 "or BIRSIM_TENSIX_DEST_FP16 (2)",
                 dest);
}

static Status checkSrcFormat(int src) {
  if (lookupTensixSrc(src))
    return Status::success();
  return invalid("tensix: unknown Src format: expected "
                 "BIRSIM_TENSIX_SRC_TF32 (0), BIRSIM_TENSIX_SRC_BF16 (1) or "
                 "BIRSIM_TENSIX_SRC_FP16 (2)",
                 src);
}

static Status checkPhases(unsigned phases) {
  if (phases != 0 && phases <= 0xF)
    return Status::success();
  return invalid("tensix: the fidelity phases must be a non-empty subset "
                 "of phases 0-3 (bits 0x1-0x8)",
                 int64_t(phases));
}

Status checkTensixEltwise(int arch, int op, unsigned phases, int dest,
                          int src, bool accumulate,
                          TensixEltwiseConfig &config) {
  if (Status st = checkArch(arch); !st.ok())
    return st;
  if (!tensixOpName(op))
    return invalid("tensix: unknown op: expected BIRSIM_TENSIX_MUL (0), "
                   "BIRSIM_TENSIX_ADD (1) or BIRSIM_TENSIX_SUB (2)",
                   op);
  const TensixDestInfo *destInfo = lookupTensixDest(dest);
  if (!destInfo)
    return unknownDest(dest);
  if (Status st = checkSrcFormat(src); !st.ok())
    return st;
  const TensixSrcInfo *srcInfo = lookupTensixSrc(src);
  if (Status st = checkPhases(phases); !st.ok())
    return st;
  if (TensixOp(op) != TensixOp::mul && phases != 0x1)
    return invalid("tensix: ELWADD and ELWSUB run at fidelity phase 0 only "
                   "(phases BIRSIM_TENSIX_LOFI)",
                   int64_t(phases));
  if (destInfo->storageBytes == 2 &&
      destInfo->exponentBits != srcInfo->exponentBits)
    return invalid("tensix: a 16-bit Dest has the Src's exponent width: "
                   "DEST_BF16 for SRC_TF32 and SRC_BF16, DEST_FP16 for "
                   "SRC_FP16",
                   dest);
  config = {TensixArch(arch), TensixOp(op), phases, TensixDest(dest),
            TensixSrc(src), accumulate};
  return Status::success();
}

//===-- Operands (§7 "Operands") ------------------------------------------===//

uint32_t tensixSrcWord(TensixSrc src, uint32_t f32) {
  uint32_t sign = f32 & 0x80000000u;
  switch (src) {
  case TensixSrc::tf32: // the low 13 fraction bits dropped
    return (f32 & 0xFFFFE000u) >> 13;
  case TensixSrc::bf16: // denormals to signed zero, the low 16 bits dropped
    if ((f32 & 0x7F800000u) == 0)
      return sign >> 13;
    return (f32 & 0xFFFF0000u) >> 13;
  case TensixSrc::fp16: { // rebiased to 5 bits: under to zero, over saturates
    int exponent = int(f32 >> 23 & 0xFF) - 112;
    if (exponent < 0)
      return sign >> 13;
    if (exponent > 31)
      return (sign | 31u << 23 | 0x7FE000u) >> 13;
    return (sign | uint32_t(exponent) << 23 | (f32 & 0x7FE000u)) >> 13;
  }
  }
  return 0;
}

uint32_t tensixDestRead(TensixDest dest, uint32_t bits) {
  switch (dest) {
  case TensixDest::fp32:
    return bits;
  case TensixDest::bf16:
    return bits << 16;
  case TensixDest::fp16:
    return (bits & 0x8000u) << 16 | (bits & 0x7FFFu) << 13;
  }
  return 0;
}

uint32_t tensixDestWrite(TensixDest dest, uint32_t word) {
  switch (dest) {
  case TensixDest::fp32:
    return word;
  case TensixDest::bf16:
    return word >> 16;
  case TensixDest::fp16:
    return (word >> 16 & 0x8000u) | (word & 0x0FFFE000u) >> 13;
  }
  return 0;
}

//===-- Adding into Dest (§7 "Adding into Dest") --------------------------===//

using Term = TensixTerm;

/// Shifts a term's magnitude right by `places`, adding half a unit first in
/// two's complement: a negative term's sign is subtracted, so its ties go
/// toward +Inf. 31 places or more leave nothing.
static uint32_t alignRight(uint32_t magnitude, uint32_t negative,
                           uint32_t places) {
  if (places >= 31)
    return 0;
  return (magnitude + (1u << (places - 1)) - negative) >> places;
}

/// The aligned sum of up to two terms and Dest, normalised and encoded into
/// Dest's word (ttsim's fpu_accum_normalize_encode).
static uint32_t addIntoDest(TensixArch arch, const TensixDestInfo &dest,
                            Term t0, Term t1, uint32_t destWord, bool *quirk) {
  Term d{destWord >> 31, int32_t(destWord >> 23 & 0xFF),
         (destWord & 0x7FFFFFu) | 0x800000u};
  if (d.exponent == 0)
    d.magnitude = 0;
  int32_t exponent = std::max({t0.exponent, t1.exponent, d.exponent});
  if (exponent <= 0)
    return 0;
  if (t0.exponent < exponent)
    t0.magnitude = alignRight(t0.magnitude, t0.negative,
                              uint32_t(exponent - t0.exponent));
  if (t1.exponent < exponent)
    t1.magnitude = alignRight(t1.magnitude, t1.negative,
                              uint32_t(exponent - t1.exponent));
  if (d.exponent < exponent) // Dest's magnitude rounds half up
    d.magnitude = alignRight(d.magnitude, 0, uint32_t(exponent - d.exponent));
  bool wide = dest.storageBytes == 4;
  if (!wide) { // a 16-bit Dest rounds every addend's low 13 bits away first
    t0.magnitude = (t0.magnitude + (1u << 12) - t0.negative) & ~0x1FFFu;
    t1.magnitude = (t1.magnitude + (1u << 12) - t1.negative) & ~0x1FFFu;
    d.magnitude = (d.magnitude + (1u << 12)) & ~0x1FFFu;
  }
  uint32_t negative = d.negative;
  int32_t sum = int32_t(d.magnitude);
  sum += t0.negative == negative ? int32_t(t0.magnitude)
                                 : -int32_t(t0.magnitude);
  sum += t1.negative == negative ? int32_t(t1.magnitude)
                                 : -int32_t(t1.magnitude);
  if (sum < 0) {
    sum = -sum;
    negative ^= 1;
  }
  if (sum == 0) // exact cancellation is +0
    return 0;
  uint32_t magnitude = uint32_t(sum);
  int32_t shift = __builtin_clz(magnitude) - 8; // to 24 bits
  if (arch == TensixArch::wormhole && negative && magnitude == 1) {
    shift -= 27; // Wormhole renormalises -1 unit as if shifted by -4
    if (quirk)
      *quirk = true;
  }
  exponent -= shift;
  int32_t dropped = 24 - int32_t(dest.keptBits); // 0, 16 (bf16), 13 (fp16)
  shift -= dropped;
  if (shift < 0) // round half up on the magnitude
    magnitude = (magnitude + (1u << (-shift - 1))) >> -shift;
  else
    magnitude <<= shift;
  magnitude <<= dropped;
  if (magnitude & 0x1000000u) // the rounding carried out
    ++exponent;
  magnitude &= 0x7FFFFFu;
  if (exponent <= 0) // underflow is +0
    return 0;
  uint32_t sign = negative << 31;
  if (wide || dest.exponentBits == 8) {
    if (exponent >= 255)
      return sign | 0x7F800000u;
  } else if (exponent >= 32) { // fp16 Dest saturates
    return sign | 31u << 23 | 0x3FFu << 13;
  }
  return sign | uint32_t(exponent) << 23 | magnitude;
}

uint32_t tensixAddIntoDest(TensixArch arch, TensixDest dest, TensixTerm t0,
                           TensixTerm t1, uint32_t destWord,
                           bool *minusOneQuirk) {
  return addIntoDest(arch, kTensixDestTable[int(dest)], t0, t1, destWord,
                     minusOneQuirk);
}

//===-- ELWMUL, ELWADD, ELWSUB (§7 "Products", "Sums") --------------------===//

/// The product exponent's rebias: to the Src's bias (8-bit), to Dest's
/// float32 bias from a 5-bit Src, or to float16's; then the phase's slices'
/// weights (-5 for SrcA's low slice, -7 for SrcB's).
static int32_t productRebias(const TensixDestInfo &dest, bool exponent8,
                             unsigned phase) {
  return tensixProductRebias(exponent8, dest.storageBytes == 4, phase);
}

/// Src word fields.
static uint32_t srcNegative(uint32_t word) { return word >> 18 & 1; }
static int32_t srcExponent(uint32_t word) { return int32_t(word >> 10 & 0xFF); }
static uint32_t srcSignificand(uint32_t word) { return (word & 0x3FF) | 0x400; }
/// Src words whose exponent field is 0 are zero (SrcA always; SrcB with
/// the LLK's default flush, D46).
static bool srcIsZero(uint32_t word) { return (word & 0x3FFFF) < 0x400; }

/// SrcA's 5-bit slice at `phase`: the hidden bit and the top 4 fraction
/// bits, or the next 5 (bits 5-1) at odd phases.
static uint32_t sliceA(uint32_t significand, unsigned phase) {
  return phase & 1 ? (significand >> 1) & 31 : significand >> 6;
}
/// SrcB's 7-bit slice: the hidden bit and the top 6 fraction bits, or the
/// low 4 shifted up by 3 at phases 2 and 3.
static uint32_t sliceB(uint32_t significand, unsigned phase) {
  return phase & 2 ? (significand & 15) << 3 : significand >> 4;
}

static uint32_t elwmul(const TensixEltwiseConfig &config,
                       const TensixDestInfo &dest, bool exponent8, uint32_t a,
                       uint32_t b, uint32_t destWord, unsigned phase,
                       bool *quirk) {
  int32_t rebias = productRebias(dest, exponent8, phase);
  Term product{srcNegative(a) ^ srcNegative(b),
               srcExponent(a) + srcExponent(b) + rebias,
               (sliceA(srcSignificand(a), phase) *
                sliceB(srcSignificand(b), phase))
                   << 13};
  if (srcIsZero(a) || srcIsZero(b) || product.exponent <= 0)
    product = {0, std::max(rebias, 0), 0}; // a zero still takes part
  return addIntoDest(config.arch, dest, product, {0, 0, 0}, destWord, quirk);
}

static uint32_t elwadd(const TensixEltwiseConfig &config,
                       const TensixDestInfo &dest, bool exponent8, uint32_t a,
                       uint32_t b, uint32_t destWord, bool *quirk) {
  if (config.op == TensixOp::sub)
    b ^= 1u << 18;
  if (srcIsZero(a))
    a = 0;
  if (srcIsZero(b))
    b = 0;
  if (!config.accumulate)
    destWord = 0;
  if ((a & 0x3FFFF) < (b & 0x3FFFF)) // the larger magnitude first
    std::swap(a, b);
  uint32_t big = a ? srcSignificand(a) : 0;
  uint32_t small = b ? srcSignificand(b) : 0;
  int32_t exponent = srcExponent(a);
  uint32_t places = uint32_t(exponent - srcExponent(b));
  if (places > 0) // the smaller rounds half up; 12 places or more leave 0
    small = places < 12 ? (small + (1u << (places - 1))) >> places : 0;
  uint32_t magnitude =
      (srcNegative(a) == srcNegative(b) ? big + small : big - small) << 13;
  if (dest.storageBytes == 4 && !exponent8) // a 5-bit Src into float32
    exponent = exponent ? exponent + 112 : 97;
  return addIntoDest(config.arch, dest, {srcNegative(a), exponent, magnitude},
                     {0, 0, 0}, destWord, quirk);
}

uint32_t tensixEltwiseWord(const TensixEltwiseConfig &config, uint32_t a,
                           uint32_t b, uint32_t destWord,
                           bool *minusOneQuirk) {
  const TensixDestInfo &dest = kTensixDestTable[int(config.dest)];
  bool exponent8 = config.src != TensixSrc::fp16;
  if (config.op != TensixOp::mul)
    return elwadd(config, dest, exponent8, a, b, destWord, minusOneQuirk);
  uint32_t word = config.accumulate ? destWord : 0; // mul_tiles' Dest is 0
  for (unsigned phase = 0; phase < 4; ++phase)
    if (config.phases >> phase & 1)
      word = elwmul(config, dest, exponent8, a, b, word, phase, minusOneQuirk);
  return word;
}

//===-- Bulk --------------------------------------------------------------===//

/// Element `index` of a buffer of `bytes`-wide elements (Dtype.h's access).
static uint32_t loadBits(const void *base, size_t index, unsigned bytes) {
  return uint32_t(
      loadBits(static_cast<const char *>(base) + bytes * index, bytes));
}
static void storeBits(void *base, size_t index, unsigned bytes, uint32_t v) {
  storeBits(static_cast<char *>(base) + bytes * index, bytes, v);
}

/// birsim_tensix_eltwise's checks (§7 "Settings", and the buffer rules of
/// Status.h: `dest` may be `a` or `b` exactly, never partly over them).
static Status checkEltwiseCall(int arch, int op, unsigned phases, int dest,
                               int src, const float *a, const float *b,
                               size_t count, const void *destValues,
                               bool accumulate, TensixEltwiseConfig &config) {
  if (Status s = checkTensixEltwise(arch, op, phases, dest, src, accumulate,
                                    config);
      !s.ok())
    return s;
  unsigned destBytes = kTensixDestTable[dest].storageBytes;
  for (const float *operand : {a, b}) {
    if (Status s = checkBuffers(destValues, operand, count, 4); !s.ok())
      return s;
    if (Status s = checkNoOverlap(destValues, count * destBytes, operand,
                                  count * 4, true);
        !s.ok())
      return s;
  }
  return Status::success();
}

/// The per-element fidelity events of `config` (docs/Fidelity.md, tensix).
static void tallyElement(const TensixEltwiseConfig &config, uint32_t a,
                         uint32_t b, uint32_t destWord, uint32_t result,
                         bool quirk, size_t index, FidelityTally &tally) {
  if (quirk)
    tally.record(FidelityEvent::tensix_minus_one_quirk, index);
  if (config.op == TensixOp::mul && config.phases != 0xF) {
    TensixEltwiseConfig full = config;
    full.phases = 0xF;
    if (tensixEltwiseWord(full, a, b, destWord) != result)
      tally.record(FidelityEvent::tensix_below_hifi4, index);
  }
}

template <bool Tally>
static void eltwiseRange(const TensixEltwiseConfig &config, const float *a,
                         const float *b, void *destValues, size_t begin,
                         size_t end, FidelityTally *tally) {
  const TensixDestInfo &dest = kTensixDestTable[int(config.dest)];
  unsigned bytes = dest.storageBytes;
  for (size_t i = begin; i < end; ++i) {
    uint32_t wa = tensixSrcWord(config.src, loadBits(a, i, 4));
    uint32_t wb = tensixSrcWord(config.src, loadBits(b, i, 4));
    uint32_t destWord =
        config.accumulate
            ? tensixDestRead(config.dest, loadBits(destValues, i, bytes))
            : 0;
    bool quirk = false;
    uint32_t word = tensixEltwiseWord(config, wa, wb, destWord, &quirk);
    if constexpr (Tally)
      tallyElement(config, wa, wb, destWord, word, quirk, i, *tally);
    else
      storeBits(destValues, i, bytes, tensixDestWrite(config.dest, word));
  }
}

//===-- The product table (§7 "Scale") ------------------------------------===//

/// Calls below this many elements compute directly unless the table is
/// built: a table costs 32,768 elements of the direct path.
constexpr size_t kMinTableElements = size_t(1) << 16;

/// The lowest ea + eb - 254 at which no phase's product nor any Dest value
/// between phases leaves the exponent range (§7 "Scale"): a non-zero
/// product has at least 2^13 units at exponent ea + eb - 127 - w (w the
/// phase's slice weights, 5 and/or 7), so every Dest value has an exponent
/// of at least ea + eb - 137 - w, which must stay above 0.
static int lowestTableScale(unsigned phases) {
  int largest = 0;
  for (unsigned phase = 0; phase < 4; ++phase)
    if (phases >> phase & 1)
      largest = std::max(largest, int(5 * (phase & 1) + 7 * (phase >> 1)));
  return largest - 116;
}

/// The table of mul from a zeroed Dest with BF16 Src (Kernels.h,
/// TensixMulTable), built by tensixEltwiseWord on first use: null for
/// other configurations and for small first calls.
static const uint32_t *productTable(const TensixEltwiseConfig &config,
                                    size_t count) {
  if (config.op != TensixOp::mul || config.accumulate ||
      config.src != TensixSrc::bf16)
    return nullptr;
  static std::atomic<const uint32_t *> tables[2][2][16];
  static std::unique_ptr<uint32_t[]> storage[2][2][16];
  static std::mutex building;
  auto &slot = tables[int(config.arch)][int(config.dest)][config.phases];
  if (const uint32_t *built = slot.load(std::memory_order_acquire))
    return built;
  if (count < kMinTableElements)
    return nullptr;
  std::lock_guard<std::mutex> lock(building);
  if (const uint32_t *built = slot.load(std::memory_order_acquire))
    return built;
  // A 16-bit Dest's words are its storage bits, with 2 bytes of padding.
  auto words = std::make_unique<uint32_t[]>(1u << 15);
  auto *halves = reinterpret_cast<uint16_t *>(words.get());
  bool wide = config.dest == TensixDest::fp32;
  for (uint32_t index = 0; index < (1u << 15); ++index) {
    uint32_t a = (index >> 14) << 18 | 127u << 10 | (index >> 7 & 127) << 3;
    uint32_t b = 127u << 10 | (index & 127) << 3;
    uint32_t word = tensixEltwiseWord(config, a, b, 0);
    if (wide)
      words[index] = word;
    else
      halves[index] = uint16_t(tensixDestWrite(config.dest, word));
  }
  auto &kept = storage[int(config.arch)][int(config.dest)][config.phases];
  kept = std::move(words);
  slot.store(kept.get(), std::memory_order_release);
  return kept.get();
}

void tensixMulTableElement(const TensixMulTable &table, const char *a,
                           const char *b, char *dest, size_t index) {
  uint32_t word = tensixEltwiseWord(
      table.config, tensixSrcWord(TensixSrc::bf16, loadBits(a, index, 4)),
      tensixSrcWord(TensixSrc::bf16, loadBits(b, index, 4)), 0);
  storeBits(dest, index, table.destBytes,
            tensixDestWrite(table.config.dest, word));
}

void portable::tensixMulTable(const TensixMulTable &table, const char *a,
                              const char *b, char *dest, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    uint32_t wa = loadBits(a, i, 4), wb = loadBits(b, i, 4);
    int ea = int(wa >> 23 & 0xFF), eb = int(wb >> 23 & 0xFF);
    if (ea == 0 || eb == 0) { // a zero operand: Dest stays +0
      storeBits(dest, i, table.destBytes, 0);
      continue;
    }
    uint32_t index = ((wa ^ wb) >> 31) << 14 | (wa >> 16 & 127) << 7 |
                     (wb >> 16 & 127);
    uint32_t word = table.destBytes == 4
                        ? table.words[index]
                        : tensixDestRead(table.config.dest,
                                         reinterpret_cast<const uint16_t *>(
                                             table.words)[index]);
    if (word == 0) { // the phases' slices are zero: +0 at every scale
      storeBits(dest, i, table.destBytes, 0);
      continue;
    }
    int scale = ea + eb - 254;
    if (scale < table.lowestScale || int(word >> 23 & 0xFF) + scale > 254) {
      tensixMulTableElement(table, a, b, dest, i);
      continue;
    }
    storeBits(dest, i, table.destBytes,
              tensixDestWrite(table.config.dest, word + (uint32_t(scale) << 23)));
  }
}

/// The tensix events of `count` elements (threaded; Dest only read).
static void tallyEltwise(const TensixEltwiseConfig &config, const float *a,
                         const float *b, size_t count, const void *destValues,
                         FidelityTally &tally) {
  parallelFor(count, kMinElementsPerThread, [&](size_t begin, size_t end) {
    FidelityTally chunk;
    eltwiseRange<true>(config, a, b, const_cast<void *>(destValues), begin,
                       end, &chunk);
    tally.mergeLocked(chunk);
  });
  tally.elements[int(FidelityFamily::tensix)] += count;
}

Status tensixEltwise(int arch, int op, unsigned phases, int dest, int src,
                     const float *a, const float *b, size_t count,
                     void *destValues, bool accumulate,
                     FidelityCounts *counts) {
  TensixEltwiseConfig config;
  if (Status s = checkEltwiseCall(arch, op, phases, dest, src, a, b, count,
                                  destValues, accumulate, config);
      !s.ok())
    return s;
  if (counts) { // before the write: accumulate reads Dest's old values
    FidelityTally tally;
    tallyEltwise(config, a, b, count, destValues, tally);
    counts->add(tally);
  }
  // mul from a zeroed Dest with BF16 Src reads the table (§7 "Scale"), any
  // other mul runs on lanes, add and sub element by element.
  unsigned bytes = kTensixDestTable[dest].storageBytes;
  const uint32_t *words = productTable(config, count);
  TensixMulTable table{words, config, bytes, lowestTableScale(phases)};
  const PathKernels &kernels = activeKernels();
  auto *ca = reinterpret_cast<const char *>(a);
  auto *cb = reinterpret_cast<const char *>(b);
  auto *out = static_cast<char *>(destValues);
  parallelFor(count, kMinElementsPerThread, [&](size_t begin, size_t end) {
    if (words)
      kernels.tensixMulTable(table, ca + 4 * begin, cb + 4 * begin,
                             out + bytes * begin, end - begin);
    else if (config.op == TensixOp::mul)
      kernels.tensixMulDirect(config, ca + 4 * begin, cb + 4 * begin,
                              out + bytes * begin, end - begin);
    else
      eltwiseRange<false>(config, a, b, destValues, begin, end, nullptr);
  });
  return Status::success();
}

void portable::tensixMulDirect(const TensixEltwiseConfig &config,
                               const char *a, const char *b, char *dest,
                               size_t count) {
  eltwiseRange<false>(config, reinterpret_cast<const float *>(a),
                      reinterpret_cast<const float *>(b), dest, 0, count,
                      nullptr);
}

Status tallyTensixEltwise(int arch, int op, unsigned phases, int dest, int src,
                          const float *a, const float *b, size_t count,
                          const void *destValues, bool accumulate,
                          FidelityTally &tally) {
  TensixEltwiseConfig config;
  if (Status s = checkEltwiseCall(arch, op, phases, dest, src, a, b, count,
                                  destValues, accumulate, config);
      !s.ok())
    return s;
  tallyEltwise(config, a, b, count, destValues, tally);
  return Status::success();
}

//===-- MVMUL and matmul_tiles (§7 "MVMUL", "matmul_tiles") --------------===//

Status checkTensixMatmul(int arch, unsigned phases, int dest, int in0Src,
                         int in1Src, bool accumulate,
                         TensixMatmulConfig &config) {
  if (Status st = checkArch(arch); !st.ok())
    return st;
  const TensixDestInfo *destInfo = lookupTensixDest(dest);
  if (!destInfo)
    return unknownDest(dest);
  for (int src : {in0Src, in1Src})
    if (Status st = checkSrcFormat(src); !st.ok())
      return st;
  if (Status st = checkPhases(phases); !st.ok())
    return st;
  bool fp16A = TensixSrc(in1Src) == TensixSrc::fp16;
  if (fp16A != (TensixSrc(in0Src) == TensixSrc::fp16))
    return invalid("tensix_matmul: FP16 Src must be both operands' format "
                   "(SrcA's 5-bit exponent sets the product's)",
                   in0Src);
  if (destInfo->storageBytes == 2 && destInfo->exponentBits != (fp16A ? 5u : 8u))
    return invalid("tensix_matmul: a 16-bit Dest has the Src's exponent "
                   "width: DEST_BF16 for SRC_TF32 and SRC_BF16, DEST_FP16 "
                   "for SRC_FP16",
                   dest);
  config = {TensixArch(arch), phases,          TensixDest(dest),
            TensixSrc(in0Src), TensixSrc(in1Src), accumulate};
  return Status::success();
}

/// MVMUL's 16 products (exponent, slice product, sign) into Dest's word
/// (§7 "MVMUL", steps 3-4).
static uint32_t mvmulProducts(TensixArch arch, const TensixDestInfo &dest,
                              const int32_t *exponents,
                              const uint32_t *magnitudes,
                              const uint32_t *negatives, uint32_t destWord,
                              bool *minusOneQuirk) {
  Term groups[2] = {};
  for (unsigned group = 0; group < 2; ++group) {
    const unsigned first = 8 * group;
    int32_t top = *std::max_element(exponents + first, exponents + first + 8);
    if (top <= 0) // the whole group is zero
      continue;
    // Aligned to the group's top, the magnitude rounded half up, summed
    // signed.
    int32_t sum = 0;
    for (unsigned i = first; i < first + 8; ++i) {
      uint32_t places = std::min(uint32_t(top - exponents[i]), 30u);
      int32_t aligned =
          int32_t(((magnitudes[i] << 1) + (1u << places)) >> (places + 1));
      sum += negatives[i] ? -aligned : aligned;
    }
    groups[group] = {uint32_t(sum < 0), top,
                     uint32_t(sum < 0 ? -sum : sum) << 13};
  }
  return addIntoDest(arch, dest, groups[0], groups[1], destWord,
                     minusOneQuirk);
}

/// The product of lane operands (Src fields; TensixMatmulFields' form) at
/// `phase`: a zero operand gives 0 at max(rebias, 0) (§7 "MVMUL", step 2).
static void mvmulProduct(int32_t rebias, unsigned phase, int32_t aExponent,
                         const int32_t *aSlice, int32_t aSign,
                         int32_t bExponent, const int32_t *bSlice,
                         int32_t bSign, int32_t &exponent, uint32_t &magnitude,
                         uint32_t &negative) {
  if (aExponent == TensixMatmulFields::kZero ||
      bExponent == TensixMatmulFields::kZero) {
    exponent = std::max(rebias, 0);
    magnitude = negative = 0;
    return;
  }
  exponent = aExponent + bExponent + rebias;
  magnitude = uint32_t(aSlice[phase & 1] * bSlice[phase >> 1]);
  negative = uint32_t(aSign ^ bSign) & 1;
}

/// A Src word's fields for TensixMatmulFields: SrcA's slices by phase bit
/// 0, SrcB's by bit 1; a zero word's slices and sign are 0.
static void matmulFields(uint32_t word, bool srcA, int32_t &exponent,
                         int32_t *slice, int32_t &sign) {
  if (srcIsZero(word)) {
    exponent = TensixMatmulFields::kZero;
    slice[0] = slice[1] = sign = 0;
    return;
  }
  exponent = srcExponent(word);
  uint32_t significand = srcSignificand(word);
  slice[0] = int32_t(srcA ? sliceA(significand, 0) : sliceB(significand, 0));
  slice[1] = int32_t(srcA ? sliceA(significand, 1) : sliceB(significand, 2));
  sign = srcNegative(word) ? -1 : 0;
}

static int32_t matmulRebias(const TensixMatmulConfig &config,
                            unsigned phase) {
  return productRebias(kTensixDestTable[int(config.dest)],
                       config.in1Src != TensixSrc::fp16, phase);
}

uint32_t tensixMvmulWord(const TensixMatmulConfig &config, const uint32_t *a,
                         const uint32_t *b, uint32_t destWord, unsigned phase,
                         bool *minusOneQuirk) {
  int32_t rebias = matmulRebias(config, phase);
  int32_t exponents[16];
  uint32_t magnitudes[16], negatives[16];
  for (unsigned i = 0; i < 16; ++i) {
    int32_t aExponent, aSlice[2], aSign, bExponent, bSlice[2], bSign;
    matmulFields(a[i], true, aExponent, aSlice, aSign);
    matmulFields(b[i], false, bExponent, bSlice, bSign);
    mvmulProduct(rebias, phase, aExponent, aSlice, aSign, bExponent, bSlice,
                 bSign, exponents[i], magnitudes[i], negatives[i]);
  }
  return mvmulProducts(config.arch, kTensixDestTable[int(config.dest)],
                       exponents, magnitudes, negatives, destWord,
                       minusOneQuirk);
}

/// Output (row, col)'s Dest word from `start` (§7 "matmul_tiles": K tiles
/// in order; per tile, the phases ascending; per phase, K 0-15 then 16-31).
static uint32_t matmulOutput(const TensixMatmulConfig &config,
                             const TensixMatmulFields &f, size_t row,
                             size_t col, uint32_t start, bool *quirk) {
  const TensixDestInfo &dest = kTensixDestTable[int(config.dest)];
  uint32_t word = start;
  for (size_t kt = 0; kt < f.k; kt += 32)
    for (unsigned phase = 0; phase < 4; ++phase) {
      if (!(config.phases >> phase & 1))
        continue;
      int32_t rebias = matmulRebias(config, phase);
      for (size_t half = kt; half < kt + 32; half += 16) {
        int32_t exponents[16];
        uint32_t magnitudes[16], negatives[16];
        for (size_t t = 0; t < 16; ++t) {
          size_t a = f.aIndex(half + t, col), b = row * f.k + half + t;
          int32_t aSlice[2] = {f.aSlice[0][a], f.aSlice[1][a]};
          int32_t bSlice[2] = {f.bSlice[0][b], f.bSlice[1][b]};
          mvmulProduct(rebias, phase, f.aExponent[a], aSlice, f.aSign[a],
                       f.bExponent[b], bSlice, f.bSign[b], exponents[t],
                       magnitudes[t], negatives[t]);
        }
        word = mvmulProducts(config.arch, dest, exponents, magnitudes,
                             negatives, word, quirk);
      }
    }
  return word;
}

/// Output `index`'s Dest word before the matmul: zero, or Dest's value.
static uint32_t matmulStart(const TensixMatmulConfig &config,
                            const void *dest, size_t index) {
  unsigned bytes = kTensixDestTable[int(config.dest)].storageBytes;
  return config.accumulate
             ? tensixDestRead(config.dest, loadBits(dest, index, bytes))
             : 0;
}

void portable::tensixMatmulRows(const TensixMatmulConfig &config,
                                const TensixMatmulFields &fields, char *dest,
                                size_t rowBegin, size_t rowEnd) {
  unsigned bytes = kTensixDestTable[int(config.dest)].storageBytes;
  for (size_t row = rowBegin; row < rowEnd; ++row)
    for (size_t col = 0; col < fields.n; ++col) {
      size_t index = row * fields.n + col;
      uint32_t start = matmulStart(config, dest, index);
      storeBits(dest, index, bytes,
                tensixDestWrite(config.dest, matmulOutput(config, fields, row,
                                                          col, start,
                                                          nullptr)));
    }
}

/// The tensix events of rows [rowBegin, rowEnd) (Dest only read).
static void tallyMatmulRows(const TensixMatmulConfig &config,
                            const TensixMatmulFields &fields, const void *dest,
                            size_t rowBegin, size_t rowEnd,
                            FidelityTally &tally) {
  TensixMatmulConfig full = config;
  full.phases = 0xF;
  for (size_t row = rowBegin; row < rowEnd; ++row)
    for (size_t col = 0; col < fields.n; ++col) {
      size_t index = row * fields.n + col;
      uint32_t start = matmulStart(config, dest, index);
      bool quirk = false;
      uint32_t word = matmulOutput(config, fields, row, col, start, &quirk);
      if (quirk)
        tally.record(FidelityEvent::tensix_minus_one_quirk, index);
      if (config.phases != 0xF &&
          matmulOutput(full, fields, row, col, start, nullptr) != word)
        tally.record(FidelityEvent::tensix_below_hifi4, index);
    }
}

namespace {
/// A checked matmul call and its operands' Src fields.
struct MatmulCall {
  TensixMatmulConfig config;
  size_t outCount = 0;
  size_t minRows = 1; ///< rows per thread: at least 2^20 products' worth
  std::vector<int32_t> storage;
  TensixMatmulFields fields{};
};
} // namespace

/// birsim_tensix_matmul's checks (§7 "matmul_tiles"; D50), then in0's and
/// in1's fields, 16 bytes an element of each (none when the output is
/// empty).
static Status prepareMatmul(int arch, unsigned phases, int dest, int in0Src,
                            int in1Src, const float *in0, const float *in1,
                            size_t m, size_t k, size_t n,
                            const void *destValues, bool accumulate,
                            MatmulCall &call) {
  TensixMatmulConfig &config = call.config;
  if (Status s = checkTensixMatmul(arch, phases, dest, in0Src, in1Src,
                                   accumulate, config);
      !s.ok())
    return s;
  for (size_t extent : {m, k, n})
    if (extent % 32)
      return Status::invalidSize(extent,
                                 "tensix_matmul: m, k and n must be multiples "
                                 "of 32 (matmul_tiles runs on 32x32 tiles)");
  unsigned bytes = kTensixDestTable[dest].storageBytes;
  size_t in0Count = 0, in1Count = 0, outCount = 0;
  if (__builtin_mul_overflow(m, k, &in0Count) ||
      __builtin_mul_overflow(k, n, &in1Count) ||
      __builtin_mul_overflow(m, n, &outCount))
    return invalid("tensix_matmul: m x k, k x n or m x n overflows size_t", 0);
  // Each buffer against its own count: an empty one may be null (m, k or
  // n zero), as every other entry point allows.
  for (auto [buffer, count, width] :
       {std::tuple<const void *, size_t, unsigned>(in0, in0Count, 4),
        std::tuple<const void *, size_t, unsigned>(in1, in1Count, 4),
        std::tuple<const void *, size_t, unsigned>(destValues, outCount,
                                                   bytes)})
    if (Status s = checkBuffers(buffer, buffer, count, width); !s.ok())
      return s;
  for (auto [operand, operandCount] : {std::pair(in0, in0Count),
                                       std::pair(in1, in1Count)})
    if (Status s = checkNoOverlap(destValues, outCount * bytes, operand,
                                  operandCount * 4, false);
        !s.ok())
      return s;
  call.outCount = outCount;
  if (outCount == 0)
    return Status::success();
  try {
    call.storage.resize(4 * (in0Count + in1Count));
  } catch (const std::bad_alloc &) {
    return Status::invalidSize(in0Count + in1Count,
                               "tensix_matmul: out of memory for the "
                               "operands' Src fields (16 bytes an element)");
  }
  int32_t *a = call.storage.data(), *b = a + 4 * in1Count;
  TensixMatmulFields &fields = call.fields;
  fields = {a, {a + in1Count, a + 2 * in1Count}, a + 3 * in1Count,
            b, {b + in0Count, b + 2 * in0Count}, b + 3 * in0Count,
            m, k, n};
  // in1's element i goes to fields.aIndex, in0's stays at i.
  auto fill = [&](const float *values, size_t count, TensixSrc src, bool srcA,
                  int32_t *at) {
    parallelFor(count, kMinElementsPerThread, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) {
        size_t to = srcA ? fields.aIndex(i / n, i % n) : i;
        int32_t slice[2];
        matmulFields(tensixSrcWord(src, loadBits(values, i, 4)), srcA, at[to],
                     slice, at[3 * count + to]);
        at[count + to] = slice[0];
        at[2 * count + to] = slice[1];
      }
    });
  };
  fill(in1, in1Count, config.in1Src, true, a);
  fill(in0, in0Count, config.in0Src, false, b);
  call.minRows = std::max<size_t>(
      1, (size_t(1) << 20) / (n * std::max<size_t>(k, 1)));
  return Status::success();
}

/// The tensix events of a prepared call's outputs (Dest only read).
static void tallyMatmul(const MatmulCall &call, const void *destValues,
                        FidelityTally &tally) {
  parallelFor(call.fields.m, call.minRows, [&](size_t begin, size_t end) {
    FidelityTally chunk;
    tallyMatmulRows(call.config, call.fields, destValues, begin, end, chunk);
    tally.mergeLocked(chunk);
  });
  tally.elements[int(FidelityFamily::tensix)] += call.outCount;
}

Status tensixMatmul(int arch, unsigned phases, int dest, int in0Src,
                    int in1Src, const float *in0, const float *in1, size_t m,
                    size_t k, size_t n, void *destValues, bool accumulate,
                    FidelityCounts *counts) {
  MatmulCall call;
  if (Status s = prepareMatmul(arch, phases, dest, in0Src, in1Src, in0, in1,
                               m, k, n, destValues, accumulate, call);
      !s.ok() || call.outCount == 0)
    return s;
  if (counts) { // before the write: accumulate reads Dest's old values
    FidelityTally tally;
    tallyMatmul(call, destValues, tally);
    counts->add(tally);
  }
  const PathKernels &kernels = activeKernels();
  parallelFor(m, call.minRows, [&](size_t begin, size_t end) {
    kernels.tensixMatmulRows(call.config, call.fields,
                             static_cast<char *>(destValues), begin, end);
  });
  return Status::success();
}

Status tallyTensixMatmul(int arch, unsigned phases, int dest, int in0Src,
                         int in1Src, const float *in0, const float *in1,
                         size_t m, size_t k, size_t n, const void *destValues,
                         bool accumulate, FidelityTally &tally) {
  MatmulCall call;
  if (Status s = prepareMatmul(arch, phases, dest, in0Src, in1Src, in0, in1,
                               m, k, n, destValues, accumulate, call);
      !s.ok() || call.outCount == 0)
    return s;
  tallyMatmul(call, destValues, tally);
  return Status::success();
}

unsigned tensixUsefulPhases(unsigned phases, unsigned in0Bits,
                            unsigned in1Bits) {
  return phases & ~tensixIdlePhases(phases, in1Bits, in0Bits);
}

//===-- Fidelity phases (§7 "Fidelity phases") ----------------------------===//

unsigned tensixIdlePhases(unsigned phases, unsigned aBits, unsigned bBits) {
  // An operand with k significant bits has significand bits 10..11-k
  // possibly set; a slice is idle when it reads none of them.
  auto mask = [](unsigned bits) {
    bits = std::min(bits, 11u);
    return ((1u << bits) - 1) << (11 - bits);
  };
  uint32_t aMask = mask(aBits), bMask = mask(bBits);
  unsigned idle = 0;
  for (unsigned phase = 0; phase < 4; ++phase)
    if ((phases >> phase & 1) &&
        (sliceA(aMask, phase) == 0 || sliceB(bMask, phase) == 0))
      idle |= 1u << phase;
  return idle;
}

unsigned tensixSignificantBits(TensixSrc src, const void *values,
                               size_t count) {
  unsigned most = 0;
  for (size_t i = 0; i < count && most < 11; ++i) {
    uint32_t word = tensixSrcWord(src, loadBits(values, i, 4));
    if (srcIsZero(word))
      continue;
    unsigned lowest = unsigned(__builtin_ctz(srcSignificand(word)));
    most = std::max(most, 11 - lowest);
  }
  return most;
}

int tensixLargestProductExponent(TensixDest dest, TensixSrc src,
                                 const void *a, size_t aCount, const void *b,
                                 size_t bCount) {
  auto largest = [&](const void *values, size_t count) {
    int most = -1; // every value zero in Src
    for (size_t i = 0; i < count; ++i) {
      uint32_t word = tensixSrcWord(src, loadBits(values, i, 4));
      if (!srcIsZero(word))
        most = std::max(most, int(srcExponent(word)));
    }
    return most;
  };
  int ea = largest(a, aCount), eb = largest(b, bCount);
  if (ea < 0 || eb < 0)
    return INT_MIN;
  return ea + eb +
         tensixProductRebias(src != TensixSrc::fp16,
                             kTensixDestTable[int(dest)].storageBytes == 4, 0);
}

bool tensixDroppedPhasesExact(TensixDest dest, int largestProductExponent) {
  return largestProductExponent <= tensixDestLargestExponent(dest);
}

//===-- The packer (§7 "The packer", "L1 accumulation") -------------------===//

uint32_t tensixPackValue(TensixPackConversion conversion, uint32_t bits) {
  switch (conversion) {
  case TensixPackConversion::keepFp32:
    return bits;
  case TensixPackConversion::fp32RoundBf16: {
    if ((bits & 0x7FFFFFFFu) > 0x7F800000u) // NaN to the signed Inf
      bits = (bits & 0x80000000u) | 0x7F800000u;
    uint32_t half = (bits + 0x8000u) >> 16; // ties away from zero
    return (half & 0x7FFF) < 0x80 ? 0 : half; // below normal to +0
  }
  case TensixPackConversion::fp32TruncFp16: {
    uint32_t sign = bits >> 16 & 0x8000u;
    int32_t exponent = int32_t(bits >> 23 & 0xFF) - 112;
    if (exponent < 0)
      return sign;
    if (exponent > 31)
      return sign | 0x7FFF;
    return sign | uint32_t(exponent) << 10 | (bits & 0x7FFFFFu) >> 13;
  }
  case TensixPackConversion::fp32RoundFp16: {
    if ((bits & 0x7FFFFFFFu) > 0x7F800000u)
      bits = (bits & 0x80000000u) | 0x7F800000u;
    uint32_t word = (bits + 0x1000u) >> 13; // to 10 fraction bits, ties away
    if ((word & 0x3FFFF) < 0x400)
      return 0;
    uint32_t sign = (word >> 18 & 1) << 15;
    int32_t exponent = int32_t(word >> 10 & 0xFF) - 112;
    if (exponent < 0)
      return sign;
    if (exponent > 31)
      return sign | 0x7FFF;
    return sign | uint32_t(exponent) << 10 | (word & 0x3FF);
  }
  case TensixPackConversion::keepBf16:
  case TensixPackConversion::widenBf16: {
    uint32_t magnitude = bits & 0x7FFF;
    if (magnitude > 0x7F80) // NaN to the signed Inf
      bits = (bits & 0x8000) | 0x7F80;
    else if (magnitude < 0x80) // below normal to +0
      bits = 0;
    return conversion == TensixPackConversion::widenBf16 ? bits << 16 : bits;
  }
  case TensixPackConversion::keepFp16:
    return (bits & 0x7FFF) < 0x400 ? 0 : bits;
  case TensixPackConversion::widenFp16:
    if ((bits & 0x7FFF) < 0x400)
      return 0;
    return (bits & 0x8000) << 16 | ((bits & 0x7FFF) + (112u << 10)) << 13;
  case TensixPackConversion::fp16TruncBf16:
    if ((bits & 0x7FFF) < 0x400)
      return 0;
    return (bits & 0x8000) | ((bits >> 10 & 31) + 112) << 7 |
           (bits & 0x3FF) >> 3;
  }
  return 0;
}

static uint32_t flushDenormal32(uint32_t bits) {
  return (bits & 0x7FFFFFFFu) < 0x800000u ? bits & 0x80000000u : bits;
}

/// Rounds a double's fraction to `keep` bits, to nearest even (the carry
/// goes into the exponent field above it).
static uint64_t roundFractionEven(uint64_t fraction, unsigned keep) {
  unsigned drop = 52 - keep;
  uint64_t half = (uint64_t(1) << (drop - 1)) - 1 + (fraction >> drop & 1);
  return (fraction + half) >> drop;
}

uint32_t tensixL1Accumulate(int outDtype, uint32_t l1, uint32_t value) {
  switch (Dtype(outDtype)) {
  case Dtype::float32: { // float32 add, denormals as zeros, one NaN
    float sum = floatOf(flushDenormal32(l1)) +
                floatOf(flushDenormal32(value));
    uint32_t bits = bitsOf(sum);
    if ((bits & 0x7FFFFFFFu) > 0x7F800000u)
      return 0x7FC00000u;
    return flushDenormal32(bits);
  }
  case Dtype::bfloat16: {
    if ((l1 == 0x7F80 && value == 0xFF80) || (l1 == 0xFF80 && value == 0x7F80))
      return 0x7FC0; // Inf - Inf
    auto widen = [](uint32_t h, bool isL1) {
      if ((h & 0x7FFF) < 0x80)
        h &= 0x8000; // denormals as zeros
      uint64_t sign = uint64_t(h & 0x8000) << 48;
      if ((h & 0x7FFF) > 0x7F80) // a NaN reads as a huge normal
        return doubleOf(
            isL1 ? sign | ((uint64_t(0x7FF) << 52) - 1)
                 : sign | uint64_t(255 - 127 + 1023) << 52 |
                       uint64_t(h & 0x7F) << 45);
      return double(floatOf(h << 16));
    };
    uint64_t sum = bitsOf(widen(l1, true) + widen(value, false));
    uint32_t sign = uint32_t(sum >> 63) << 15;
    int32_t exponent = int32_t(sum >> 52 & 0x7FF) - 1023 + 127;
    if (exponent <= 0)
      return sign;
    if (exponent >= 255)
      return sign | 0x7F80;
    return sign | ((uint32_t(exponent) << 7) +
                   uint32_t(roundFractionEven(sum & ((uint64_t(1) << 52) - 1),
                                              7)));
  }
  case Dtype::float16: { // no Inf/NaN codes: exponent 31 is finite
    auto widen = [](uint32_t h) {
      uint32_t bits = (h & 0x8000) << 16;
      if ((h & 0x7FFF) >= 0x400)
        bits |= ((h & 0x7FFF) << 13) + (112u << 23);
      return floatOf(bits);
    };
    uint32_t sum = bitsOf(widen(l1) + widen(value));
    uint32_t sign = sum >> 16 & 0x8000;
    if ((sum & 0x7FFFFFFFu) == 0) // cancellation near the top saturates
      return sign | ((l1 >> 10 & 31) >= 30 ? 0x7FFF : 0);
    int32_t exponent = int32_t(sum >> 23 & 0xFF) - 112;
    if (exponent <= 0) // below the exponent range saturates; 0 is zero
      return sign | (exponent < 0 ? 0x7FFF : 0);
    uint32_t fraction = sum & 0x7FFFFF;
    uint32_t half = (1u << 12) - 1 + (fraction >> 13 & 1);
    uint32_t packed = (uint32_t(exponent) << 10) + ((fraction + half) >> 13);
    return sign | (packed < 0x8000 ? packed : 0x7FFF);
  }
  default:
    return value;
  }
}

Status tensixPack(int arch, int dest, const void *destValues, size_t count,
                  int outDtype, void *out, bool l1Accumulate) {
  if (Status st = checkArch(arch); !st.ok())
    return st;
  const TensixDestInfo *destInfo = lookupTensixDest(dest);
  if (!destInfo)
    return unknownDest(dest);
  const TensixPackPath *path = lookupTensixPackPath(arch, dest, outDtype);
  if (!path)
    return invalid("tensix_pack: the packer has no path from this Dest kind "
                   "to this output dtype on this architecture (fp32 Dest: "
                   "float32, bfloat16, float16; bf16 Dest: bfloat16, "
                   "float32; fp16 Dest: float16, float32, bfloat16)",
                   outDtype);
  unsigned inBytes = destInfo->storageBytes;
  unsigned outBytes = unsigned(lookupDtype(outDtype)->bytes);
  if (Status s = checkBuffers(out, destValues, count,
                              std::max(inBytes, outBytes));
      !s.ok())
    return s;
  if (Status s = checkNoOverlap(out, count * outBytes, destValues,
                                count * inBytes, true);
      !s.ok())
    return s;
  const PathKernels &kernels = activeKernels();
  auto *in = static_cast<const char *>(destValues);
  auto *o = static_cast<char *>(out);
  parallelFor(count, kMinElementsPerThread, [&](size_t begin, size_t end) {
    kernels.tensixPack(path->conversion, l1Accumulate, in + inBytes * begin,
                       o + outBytes * begin, end - begin);
  });
  return Status::success();
}

/// The output dtype of a conversion: its Tensix.def rows'.
static int outDtypeOf(TensixPackConversion conversion) {
  for (const TensixPackPath &path : kPackPaths)
    if (path.conversion == conversion)
      return path.outDtype;
  return -1;
}

void portable::tensixPack(TensixPackConversion conversion, bool l1Accumulate,
                          const char *in, char *out, size_t count) {
  unsigned inBytes = tensixPackInBytes(conversion);
  unsigned outBytes = tensixPackOutBytes(conversion);
  int outDtype = outDtypeOf(conversion);
  for (size_t i = 0; i < count; ++i) {
    uint32_t v = tensixPackValue(conversion, loadBits(in, i, inBytes));
    if (l1Accumulate)
      v = tensixL1Accumulate(outDtype, loadBits(out, i, outBytes), v);
    storeBits(out, i, outBytes, v);
  }
}

} // namespace birsim::core
