//===- BfpMixed.h - per-tile mixed BFP (DeepSeek's compressed tensors) ----===//
//
// A matrix in 32x32 tiles, each packed as the host packs it in the format
// its 2-bit code names, the tiles back to back; and the assigner that picks
// each tile's cheapest format meeting an error bound (docs/Semantics.md
// section 5, per-tile mixed BFP [ds-mixed]).
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CORE_BFPMIXED_H
#define BIRSIM_CORE_BFPMIXED_H

#include "birsim/Core/Bfp.h"

#include <cstddef>
#include <cstdint>
#include <iterator>

namespace birsim::core {

/// A mixed code's format: a BfpFormats.def row, or none (bfp0).
enum class BfpMixedFormat : int {
  none = -1,
#define BIRSIM_BFP_FORMAT(Enumerator, Number, ...) Enumerator = Number,
#include "birsim/Core/BfpFormats.def"
};
/// The codes (BfpMixedCodes.def), in the assigner's order of cost,
/// costliest first.
struct BfpMixedCode {
  const char *name;
  int format; ///< a BfpFormats.def row, or -1 (no bytes: +0)
  constexpr bool storesBytes() const { return format >= 0; }
};
inline constexpr BfpMixedCode kBfpMixedCodes[] = {
#define BIRSIM_BFP_MIXED_CODE(Code, Name, Format)                              \
  {#Name, int(BfpMixedFormat::Format)},
#include "birsim/Core/BfpMixedCodes.def"
};
constexpr unsigned kNumBfpMixedCodes = std::size(kBfpMixedCodes);
static_assert(numberedInRowOrder({
#define BIRSIM_BFP_MIXED_CODE(Code, ...) Code,
#include "birsim/Core/BfpMixedCodes.def"
              }),
              "BfpMixedCodes.def rows must be numbered 0..N-1");
/// The bits of a tile's code, and their mask.
constexpr unsigned kBfpMixedCodeBits = 2;
constexpr unsigned kBfpMixedCodeMask = (1u << kBfpMixedCodeBits) - 1;
constexpr unsigned kBfpMixedCodesPerByte = 8 / kBfpMixedCodeBits;
static_assert(kNumBfpMixedCodes == 1u << kBfpMixedCodeBits,
              "BfpMixedCodes.def: one row per 2-bit code");
/// The codes whose tiles store bytes, in "b" formats (the kernels' round
/// trips share a block's exponent and alignment), come first; the zero
/// code is last.
constexpr unsigned kBfpMixedFormatCodes = kNumBfpMixedCodes - 1;
constexpr unsigned kBfpMixedZeroCode = kNumBfpMixedCodes - 1;
constexpr bool bfpMixedCodesCanWork() {
  for (unsigned c = 0; c < kNumBfpMixedCodes; ++c) {
    const BfpMixedCode &code = kBfpMixedCodes[c];
    if (code.storesBytes() != (c != kBfpMixedZeroCode) ||
        (code.storesBytes() &&
         kBfpFormatTable[code.format].exponent != BfpExponent::Fp32))
      return false;
  }
  return true;
}
static_assert(bfpMixedCodesCanWork(),
              "BfpMixedCodes.def: every code but the last stores bytes, "
              "in a \"b\" format; the last stores none");
/// The bytes of `tiles` tiles' codes (kBfpMixedCodeBits a tile).
constexpr size_t bfpMixedCodeBytes(size_t tiles) {
  return (tiles + kBfpMixedCodesPerByte - 1) / kBfpMixedCodesPerByte;
}
/// The mask of every code (bit c: code c).
constexpr unsigned kBfpMixedAllCodes = (1u << kNumBfpMixedCodes) - 1;
constexpr unsigned kBfpMixedTileSide = 32;

/// The assigner's metrics (birsim_bfp_assign_mixed), by number.
enum class BfpMixedMetric : int { maxAbs = 0, meanAbs = 1, pcc = 2 };
inline constexpr const char *kBfpMixedMetricNames[] = {"max_abs", "mean_abs",
                                                       "pcc"};

/// The code of tile `t` (row-major tile order): 2 bits a tile, four a
/// byte, low bits first.
inline unsigned bfpMixedCode(const uint8_t *codes, size_t t) {
  return (codes[t / kBfpMixedCodesPerByte] >>
          (t % kBfpMixedCodesPerByte * kBfpMixedCodeBits)) &
         kBfpMixedCodeMask;
}
/// Sets tile t's code in `codes` whose bits for t are zero.
inline void bfpAddMixedCode(uint8_t *codes, size_t t, unsigned code) {
  codes[t / kBfpMixedCodesPerByte] |=
      uint8_t(code << (t % kBfpMixedCodesPerByte * kBfpMixedCodeBits));
}
/// Per-tile codes, one a byte, packed kBfpMixedCodeBits a tile (bfpAddMixedCode's
/// layout, unused bits zero) into bfpMixedCodeBytes(tiles) bytes at `codes`;
/// a code that is no row of BfpMixedCodes.def is an error, nothing written.
Status bfpMixedPackCodes(const uint8_t *tileCodes, size_t tiles,
                         uint8_t *codes);
/// The inverse: each of `tiles` tiles' codes (bfpMixedCode) in a byte.
Status bfpMixedUnpackCodes(const uint8_t *codes, size_t tiles,
                           uint8_t *tileCodes);
/// The bytes of a tile under `code`.
size_t bfpMixedTileBytes(unsigned code);
/// The packed bytes of a rows x cols matrix under `codes`; 0 when the
/// matrix is not whole 32x32 tiles or codes is null with tiles to code.
size_t bfpMixedBytes(const uint8_t *codes, size_t rows, size_t cols);

/// "Any length": the packed side's length unchecked.
constexpr size_t kBfpMixedAnyLength = SIZE_MAX;

/// Packs a row-major rows x cols matrix of `srcDtype` (kBfpInputDtypes) in
/// 32x32 tiles, row-major tile order, each as the host packs it in its
/// code's format (kBfpTranspose: tilized transposed), back to back;
/// `outBytes`, unless kBfpMixedAnyLength, must be the codes' length.
/// Nothing is written on error.
Status bfpPackMixed(int srcDtype, const void *src, size_t rows, size_t cols,
                    unsigned flags, const uint8_t *codes, void *out,
                    size_t outBytes = kBfpMixedAnyLength);
/// The inverse: fp32 values, bfp0 tiles +0.
Status bfpUnpackMixed(const void *packed, size_t rows, size_t cols,
                      unsigned flags, const uint8_t *codes, float *out,
                      size_t packedBytes = kBfpMixedAnyLength);
/// The assigner's measure of `metric` for the round trip `q` of a tile's
/// values `x` (1024 each, face order), in double (docs/Decisions.md D45):
/// the largest or mean absolute error, or the Pearson correlation (1 for
/// a constant tile whose round trip is equal, else 0 when a side is
/// constant); computed on the active path.
double bfpMixedMetricValue(BfpMixedMetric metric, const float *x,
                           const float *q);
/// Each tile's cheapest allowed code (`formats`: bit c allows code c)
/// whose round trip meets `bound` under `metric` (max or mean absolute
/// error at most `bound`, Pearson correlation at least `bound`; bfp0 by
/// mean absolute error at most `zeroBound`), else the costliest allowed;
/// computed in double. Writes (tiles + 3) / 4 code bytes, unused high bits
/// zero.
Status bfpAssignMixed(int metric, double bound, double zeroBound,
                      unsigned formats, int srcDtype, const void *src,
                      size_t rows, size_t cols, unsigned flags,
                      uint8_t *codes);

} // namespace birsim::core

#endif // BIRSIM_CORE_BFPMIXED_H
