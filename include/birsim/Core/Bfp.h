//===- Bfp.h - Tenstorrent block floating point tiles -----------*- C++ -*-===//
//
// BFP "a"/"b" tiles (the formats of BfpFormats.def) as ft_bfp.h packs them, with the rules of
// docs/Semantics.md section 5.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CORE_BFP_H
#define BIRSIM_CORE_BFP_H

#include "birsim/Core/Dtype.h"
#include "birsim/Core/Enums.h"
#include "birsim/Core/Fidelity.h"
#include "birsim/Core/Status.h"
#include "birsim/Core/ValueClasses.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace birsim::core {

enum class BfpFormat : int {
#define BIRSIM_BFP_FORMAT(Enumerator, Number, ...) Enumerator = Number,
#define BIRSIM_MX_FORMAT(Enumerator, Number, ...) Enumerator = Number,
#include "birsim/Core/BfpFormats.def"
};
constexpr int kNumBfpFormats = 0
#define BIRSIM_BFP_FORMAT(...) +1
#define BIRSIM_MX_FORMAT(...) +1
#include "birsim/Core/BfpFormats.def"
    ;

/// A format's shared exponent (BfpFormats.def's Exponent column, §5 step 2;
/// E8M0 for the MX rows).
enum class BfpExponent : uint8_t {
  Fp32, ///< "b": fp32's 8-bit exponent field
  Fp16, ///< "a": 5 bits, fp32's field minus kBfpFp16Rebias, clamped
  E8M0, ///< MX: a power of two, biased by 127 (§5 MX tiles)
};
/// "fp32", "fp16" or "e8m0" (birsim_bfp_exponent_kind).
constexpr const char *bfpExponentName(BfpExponent e) {
  return e == BfpExponent::Fp16 ? "fp16"
         : e == BfpExponent::E8M0 ? "e8m0"
                                  : "fp32";
}

/// What a row's elements are: BFP datums, or MX float or integer elements.
enum class BfpKind : uint8_t { Bfp, MxFloat, MxInt };

/// Tile geometry (§5): 16-value blocks, one exponent byte each, then the
/// datums in block order.
constexpr unsigned kBfpBlockValues = 16;
constexpr unsigned kBfpTileSide = 32;
constexpr unsigned kBfpTileValues = kBfpTileSide * kBfpTileSide;
constexpr unsigned kBfpTileBlocks = kBfpTileValues / kBfpBlockValues;
/// MX tiles (§5 MX tiles): 32-value blocks, scale bias 127.
constexpr unsigned kMxBlockValues = 32;
constexpr int kMxScaleBias = 127;
/// The "a" formats' exponent (§5 step 2): fp32's field minus this, clamped
/// to 0..kBfpMaxE5.
constexpr int kBfpFp16Rebias = 112;
constexpr int kBfpMaxE5 = 31;

/// An MX float element's format (BIRSIM_MX_FLOAT): its NaN code is the
/// format's own (IEEE: exponent all ones, mantissa 1; AllOnes: all ones;
/// none for FiniteOnly).
constexpr FloatFormat mxElementFormat(unsigned e, unsigned m, int bias,
                                      FloatNonFinite nonFinite,
                                      FloatNanEncoding nan) {
  uint32_t allOnes = (1u << e) - 1;
  uint32_t nanCode = nonFinite == FloatNonFinite::FiniteOnly ? 0
                     : nan == FloatNanEncoding::AllOnes
                         ? (1u << (e + m)) - 1
                         : allOnes << m | 1;
  return {uint8_t(e), uint8_t(m), int16_t(bias), nonFinite, nan, nanCode,
          false};
}

struct BfpFormatInfo {
  BfpFormat format;
  const char *name;
  BfpKind kind;
  unsigned magnitudeBits; ///< BFP: M, BfpFormats.def's MagnitudeBits; MX:
                          ///< the element's bits below its sign
  BfpExponent exponent;
  FloatFormat element;  ///< MxFloat: the element's format
  unsigned elementBits; ///< a datum's or element's code width, sign included
  unsigned datumBits;   ///< its storage width: 8, 4 or 2
  unsigned blockValues; ///< values per exponent or scale byte
  int emax;             ///< MX: the element's largest exponent (ints 0)
  size_t tileBytes;     ///< a 32x32 tile packed

  /// A BFP row.
  constexpr BfpFormatInfo(BfpFormat format, const char *name,
                          unsigned magnitudeBits, BfpExponent exponent)
      : format(format), name(name), kind(BfpKind::Bfp),
        magnitudeBits(magnitudeBits), exponent(exponent), element{},
        elementBits(magnitudeBits + 1), datumBits(magnitudeBits + 1),
        blockValues(kBfpBlockValues), emax(0), tileBytes(bytesOf(32, 32)) {}
  /// An MX float row.
  constexpr BfpFormatInfo(BfpFormat format, const char *name,
                          FloatFormat element)
      : format(format), name(name), kind(BfpKind::MxFloat),
        magnitudeBits(element.totalBits() - 1), exponent(BfpExponent::E8M0),
        element(element), elementBits(element.totalBits()),
        datumBits(storageOf(element.totalBits())), blockValues(kMxBlockValues),
        emax(int(element.maxFiniteCode() >> element.mantissaBits) -
             element.bias),
        tileBytes(bytesOf(32, 32)) {}
  /// An MX integer row of `bits`.
  constexpr BfpFormatInfo(BfpFormat format, const char *name, unsigned bits)
      : format(format), name(name), kind(BfpKind::MxInt),
        magnitudeBits(bits - 1), exponent(BfpExponent::E8M0), element{},
        elementBits(bits), datumBits(storageOf(bits)),
        blockValues(kMxBlockValues), emax(0), tileBytes(bytesOf(32, 32)) {}

  constexpr bool isMx() const { return kind != BfpKind::Bfp; }
  /// The most significant bits (hidden bit included) a decoded value has:
  /// a BFP datum's magnitude, an MX float element's mantissa and hidden
  /// bit, an MX integer's magnitude (the Tensix fidelity phases' operand
  /// bound, §7 "Fidelity phases").
  constexpr unsigned significantBits() const {
    return kind == BfpKind::MxFloat ? element.mantissaBits + 1u
                                    : magnitudeBits;
  }
  /// Datums per byte, element 0 in the low bits.
  constexpr unsigned datumsPerByte() const { return 8 / datumBits; }
  /// Whether a tile of `values` values holds whole blocks (MX: all tile
  /// shapes but 1x16).
  constexpr bool takesTileOf(unsigned values) const {
    return values % blockValues == 0;
  }
  /// A rows x cols tile packed: one exponent or scale byte per block,
  /// zero-padded to a multiple of 16 (the packer's L1 alignment), then the
  /// datums.
  constexpr size_t bytesOf(unsigned rows, unsigned cols) const {
    unsigned values = rows * cols;
    return ((values / blockValues + 15) & ~15u) +
           size_t(values) * datumBits / 8;
  }
  /// MX: the largest integer element (2^(bits-1) - 1).
  constexpr int mxIntMax() const { return (1 << (elementBits - 1)) - 1; }

private:
  static constexpr unsigned storageOf(unsigned bits) {
    return bits <= 2 ? 2 : bits <= 4 ? 4 : 8;
  }
};

/// BfpFormats.def's rows, by number.
#define BIRSIM_MX_FLOAT(E, M, Bias, NonFinite, NanEncoding)                    \
  mxElementFormat(E, M, Bias, FloatNonFinite::NonFinite,                        \
                  FloatNanEncoding::NanEncoding)
#define BIRSIM_MX_INT(Bits) Bits##u
inline constexpr BfpFormatInfo kBfpFormatTable[] = {
#define BIRSIM_BFP_FORMAT(Enumerator, Number, MagnitudeBits, Exponent, ...)    \
  {BfpFormat::Enumerator, #Enumerator, MagnitudeBits, BfpExponent::Exponent},
#define BIRSIM_MX_FORMAT(Enumerator, Number, Element, CMacro)                  \
  {BfpFormat::Enumerator, #Enumerator, Element},
#include "birsim/Core/BfpFormats.def"
};
#undef BIRSIM_MX_FLOAT
#undef BIRSIM_MX_INT
static_assert(numberedInRowOrder({
#define BIRSIM_BFP_FORMAT(Enumerator, Number, ...) Number,
#define BIRSIM_MX_FORMAT(Enumerator, Number, ...) Number,
#include "birsim/Core/BfpFormats.def"
              }),
              "BfpFormats.def rows must be numbered 0..N-1");
/// The BFP rows come first (numbers below this), the MX rows after them.
constexpr int kNumBfpDatumFormats = 0
#define BIRSIM_BFP_FORMAT(...) +1
#include "birsim/Core/BfpFormats.def"
    ;
static_assert(
    [] {
      for (int i = 0; i < kNumBfpFormats; ++i)
        if ((kBfpFormatTable[i].kind == BfpKind::Bfp) !=
            (i < kNumBfpDatumFormats))
          return false;
      return true;
    }(),
    "BfpFormats.def: the BFP rows first, then the MX rows");
/// A run of kBfpFormatTable's rows, for range-for.
struct BfpFormatRows {
  const BfpFormatInfo *first, *last;
  constexpr const BfpFormatInfo *begin() const { return first; }
  constexpr const BfpFormatInfo *end() const { return last; }
};
/// The BFP rows (datums under a shared exponent) and the MX rows.
inline constexpr BfpFormatRows kBfpDatumFormats{
    kBfpFormatTable, kBfpFormatTable + kNumBfpDatumFormats};
inline constexpr BfpFormatRows kMxFormats{
    kBfpFormatTable + kNumBfpDatumFormats, kBfpFormatTable + kNumBfpFormats};
/// Descriptor of `format`, or null when it is not a BfpFormats.def row.
const BfpFormatInfo *lookupBfpFormat(int format);

/// Row-major index inside a 32x32 tile of value `j` of block `block`: faces
/// TL, TR, BL, BR, rows inside a face, 16 values per block (§5).
inline unsigned bfpTileIndex(unsigned block, unsigned j) {
  unsigned face = block / 16, row = block % 16;
  return ((face / 2) * 16 + row) * kBfpTileSide + (face % 2) * 16 + j;
}

/// A tile shape of BfpTileShapes.def (§5 tile shapes): faces 16 wide and
/// min(rows, 16) high in the order TL, TR, BL, BR (as many as there are),
/// a block one face row.
struct BfpTileShape {
  uint32_t rows, cols;

  constexpr unsigned faceRows() const { return rows < 16 ? rows : 16; }
  constexpr unsigned facesAcross() const { return cols / 16; }
  constexpr unsigned facesDown() const { return rows / faceRows(); }
  constexpr unsigned values() const { return rows * cols; }
  constexpr unsigned blocks() const { return values() / kBfpBlockValues; }
  /// One byte per BFP block, zero-padded to a multiple of 16 (the packer's
  /// L1 alignment).
  constexpr unsigned exponentBytes() const { return (blocks() + 15) & ~15u; }
  /// The bytes the packer writes per tile: exponents, then the datums.
  constexpr size_t packedBytes(const BfpFormatInfo &f) const {
    return f.bytesOf(rows, cols);
  }
  /// The first value of block `b` in a tile stored row-major with rows
  /// `rowStride` elements apart (the tile's width, or a matrix's).
  constexpr size_t blockStart(unsigned b, size_t rowStride) const {
    unsigned face = b / faceRows(), row = b % faceRows();
    return (size_t(face / facesAcross()) * faceRows() + row) * rowStride +
           (face % facesAcross()) * 16;
  }
};

/// BfpTileShapes.def's rows.
inline constexpr BfpTileShape kBfpTileShapes[] = {
#define BIRSIM_BFP_TILE_SHAPE(Rows, Cols) {Rows, Cols},
#include "birsim/Core/BfpTileShapes.def"
};
/// The shape `rows` x `cols` where tt-metal accepts it, else null.
const BfpTileShape *lookupBfpTileShape(uint64_t rows, uint64_t cols);
/// "32x32, 16x32, ... or 1x16": every accepted shape.
std::string bfpTileShapeChoices();

/// The input element types of packing (§5 inputs, [tt-metal]'s
/// pack_as_bfp_tiles<Format, T>): fp32 bits; bfloat16 bits << 16; the
/// integers by value, rounded to nearest even (§4).
inline constexpr Dtype kBfpInputDtypes[] = {
    Dtype::float32, Dtype::bfloat16, Dtype::int8,  Dtype::uint8,
    Dtype::uint16,  Dtype::int32,    Dtype::uint32};
bool isBfpInputDtype(int dtype);
/// The fp32 bits of one input element of `dtype` (an isBfpInputDtype).
uint32_t bfpInputBits(const DtypeInfo &dtype, const void *element);

/// The flags of the tile and matrix forms (BfpFlags.def's rows).
enum class BfpForm : uint8_t { Tiles, Matrix };
/// Which forms take a flag.
enum class BfpFlagForms : uint8_t { Tiles, Matrix, Both };
#define BIRSIM_BFP_FLAG(Name, Bits, Form, PageBytes, CMacro)                   \
  constexpr unsigned kBfpFlag_##Name = Bits;
#include "birsim/Core/BfpFlags.def"
constexpr unsigned kBfpFaces = kBfpFlag_faces;
constexpr unsigned kBfpTranspose = kBfpFlag_transpose;
struct BfpFlagInfo {
  const char *name;
  unsigned bits;
  BfpFlagForms forms;
  unsigned pageBytes; ///< the DRAM page alignment it selects, or 0
  constexpr bool takenBy(BfpForm form) const {
    return forms == BfpFlagForms::Both || int(forms) == int(form);
  }
};
inline constexpr BfpFlagInfo kBfpFlags[] = {
#define BIRSIM_BFP_FLAG(Name, Bits, Form, PageBytes, CMacro)                   \
  {#Name, Bits, BfpFlagForms::Form, PageBytes},
#include "birsim/Core/BfpFlags.def"
};
/// The flag bits `form`'s entry points take.
constexpr unsigned bfpFlagsOf(BfpForm form) {
  unsigned bits = 0;
  for (const BfpFlagInfo &flag : kBfpFlags)
    bits |= flag.takenBy(form) ? flag.bits : 0;
  return bits;
}
/// The DRAM page alignment `flags` name (§5 pages): the largest of its
/// page flags' PageBytes, 0 for none.
constexpr unsigned bfpPageAlignmentOf(unsigned flags) {
  unsigned alignment = 0;
  for (const BfpFlagInfo &flag : kBfpFlags)
    if ((flags & flag.bits) && flag.pageBytes > alignment)
      alignment = flag.pageBytes;
  return alignment;
}
/// The flag that selects DRAM page alignment `alignment`: 0 for none (0),
/// kBfpNoPageFlag where no flag selects it.
constexpr unsigned kBfpNoPageFlag = ~0u;
constexpr unsigned bfpPageFlagOf(unsigned alignment) {
  if (alignment == 0)
    return 0;
  for (const BfpFlagInfo &flag : kBfpFlags)
    if (flag.pageBytes == alignment)
      return flag.bits;
  return kBfpNoPageFlag;
}
/// The checks of a tile stride query (bfpPageBytes with a reason): the
/// format, the tile shape and the alignment (a page flag's PageBytes, or
/// 0); `bytes` the stride.
Status bfpCheckPage(int format, uint64_t tileRows, uint64_t tileCols,
                    unsigned alignment, size_t *bytes);
/// A tile's stride in a DRAM page (§5 pages): its packed bytes rounded up
/// to `alignment` (0: none, 32, 64); 0 for an unknown format or tile shape
/// or another alignment.
size_t bfpPageBytes(int format, uint64_t tileRows, uint64_t tileCols,
                    unsigned alignment);

/// Where a pack runs (BfpSites.def; §5, the device's bytes [ttsim]).
enum class BfpSite : int {
#define BIRSIM_BFP_SITE(Enumerator, Number, ...) Enumerator = Number,
#include "birsim/Core/BfpSites.def"
};
constexpr int kNumBfpSites = 0
#define BIRSIM_BFP_SITE(...) +1
#include "birsim/Core/BfpSites.def"
    ;
/// A site's Dest element type: a Dtype number, or `none` (the host).
enum class BfpSiteDest : int {
  none = -1,
#define BIRSIM_DTYPE(Enumerator, Number, ...) Enumerator = Number,
#include "birsim/Core/Dtypes.def"
};
/// The packer's value step (BfpSites.def's NaN, Flush and Rounding).
enum class BfpSiteNaN : int { none, nan_kept, nan_to_inf, nan_clamped };
enum class BfpSiteFlush : int {
  none,
  flush_before_rounding,
  flush_after_rounding
};
enum class BfpSiteRounding : int { none, keep16, e8m6, e5m6 };
struct BfpSiteInfo {
  BfpSite site;
  const char *name;
  BfpSiteDest dest;
  unsigned minMagnitudeBits; ///< the narrowest datum the path writes
  BfpSiteNaN nan;
  BfpSiteFlush flush;
  BfpSiteRounding rounding;
  constexpr bool onDevice() const { return dest != BfpSiteDest::none; }
  /// A 16-bit Dest (bf16 or fp16 elements).
  constexpr bool dest16() const {
    return dest == BfpSiteDest::bfloat16 || dest == BfpSiteDest::float16;
  }
  /// Whether the block rule sees the host's exponent fields: no rounding
  /// or rebias before it (a NaN's Inf keeps its all-ones field, a flushed
  /// value's field was 0).
  constexpr bool sharesHostExponent() const {
    return rounding == BfpSiteRounding::keep16;
  }
};
inline constexpr BfpSiteInfo kBfpSiteTable[] = {
#define BIRSIM_BFP_SITE(Enumerator, Number, Dest, MinMagnitudeBits, NaN,       \
                        Flush, Rounding, CMacro)                               \
  {BfpSite::Enumerator, #Enumerator,           BfpSiteDest::Dest,             \
   MinMagnitudeBits,    BfpSiteNaN::NaN,       BfpSiteFlush::Flush,           \
   BfpSiteRounding::Rounding},
#include "birsim/Core/BfpSites.def"
};
/// The row of a site known at compile time.
constexpr const BfpSiteInfo &bfpSiteRow(BfpSite site) {
  return kBfpSiteTable[int(site)];
}
static_assert(numberedInRowOrder({
#define BIRSIM_BFP_SITE(Enumerator, Number, ...) Number,
#include "birsim/Core/BfpSites.def"
              }),
              "BfpSites.def rows must be numbered 0..N-1");
/// The row of `site`, or null.
const BfpSiteInfo *lookupBfpSite(int site);

/// The Tensix packer's per-value step on a Dest element's bits (fp32, or
/// the 16-bit bf16 / fp16): the 16-bit bf16-form value the block rule takes
/// (§5, the device's bytes). `site` is a device site.
uint16_t bfpDeviceValue(BfpSite site, uint32_t destBits);
/// The packer's block rule on 16 such values: the shared exponent and the
/// datums of M = `magnitudeBits` ("b" formats).
uint8_t bfpDeviceBlock(const uint16_t *values, unsigned magnitudeBits,
                       uint8_t *datums);
/// The unpacker's decode of a datum under shared exponent `shared`: fp32
/// bits (a bf16 value << 16).
uint32_t bfpDeviceDecode(unsigned magnitudeBits, uint8_t datum,
                         uint8_t shared);

/// One call of a tile or matrix form as §5 describes it: a format, a tile
/// shape, the flags, and the tile count (tile forms) or the matrix (matrix
/// forms: a row-major array with its leading dimensions folded into rows,
/// bfpMatrixOf). Every layer (the runtime, the dialect's verifiers, folders
/// and lowering, the fidelity pass) describes its calls this way and checks
/// them with bfpCheckCall.
struct BfpCall {
  int format = 0;
  int site = int(BfpSite::host); ///< where a pack runs; an unpack decodes
                                 ///< as the unpacker at any device site
  BfpForm form = BfpForm::Tiles;
  uint64_t tileRows = 0, tileCols = 0;
  unsigned flags = 0;
  uint64_t tiles = 0;          ///< tile forms
  uint64_t rows = 0, cols = 0; ///< matrix forms
};
/// A tile form's call: `tiles` tiles of tileRows x tileCols.
inline BfpCall bfpTilesCall(int site, int format, uint64_t tiles,
                            uint64_t tileRows, uint64_t tileCols,
                            unsigned flags) {
  BfpCall call;
  call.site = site;
  call.format = format;
  call.tileRows = tileRows;
  call.tileCols = tileCols;
  call.flags = flags;
  call.tiles = tiles;
  return call;
}
/// A matrix form's call: a rows x cols matrix in tileRows x tileCols tiles.
inline BfpCall bfpMatrixCall(int site, int format, uint64_t rows,
                             uint64_t cols, uint64_t tileRows,
                             uint64_t tileCols, unsigned flags) {
  BfpCall call = bfpTilesCall(site, format, 0, tileRows, tileCols, flags);
  call.form = BfpForm::Matrix;
  call.rows = rows;
  call.cols = cols;
  return call;
}
/// The matrix of a row-major array of rank >= 2: {rows, cols} with the
/// leading dimensions folded into rows (§5 matrix forms).
struct BfpMatrixExtent {
  uint64_t rows, cols;
};
BfpMatrixExtent bfpMatrixOf(const int64_t *dims, size_t rank);
/// §5's rules on a call: a format row, a tile shape tt-metal accepts, only
/// the flags its form takes, a matrix of whole tiles, transposed tilizing
/// at tile heights 16 and 32 only, a size the address space holds. On
/// success, the call's tile count. Buffers are the caller's to check.
Status bfpCheckCall(const BfpCall &call, uint64_t *tileCount = nullptr);
/// bfpCheckCall's first rules: a format row, a site row, and at a device
/// site a "b" format.
Status bfpCheckSite(const BfpCall &call);
/// The input element types of packing (kBfpInputDtypes).
Status bfpCheckInput(int srcDtype);
/// What a pack at `call.site` takes: the host, kBfpInputDtypes; a device
/// path, its Dest's element type and the datum widths it writes.
Status bfpCheckPackAt(const BfpCall &call, int srcDtype);
/// A rule's text without the status's "invalid argument: " framing, for
/// diagnostics that name the op and the type themselves.
std::string bfpRuleText(const Status &status);

/// Local tally of a packing call by BfpClass: the ties (flushed into the
/// process-wide tie counters once) and, when the fidelity counters ask, the
/// other classes.
using BfpTally = ClassCounts<BfpClass>;

/// The bit of `c` in bfpEncodeWithEvents' class set.
constexpr unsigned bfpClassBit(BfpClass c) { return 1u << unsigned(c); }
/// Encodes fp32 bits under `sharedExp` (§5 steps 1-5), or-ing the
/// bfpClassBit of each class it shows (flushedToZero excepted) into
/// `events`.
uint8_t bfpEncodeWithEvents(const BfpFormatInfo &f, uint32_t bits,
                            uint32_t sharedExp, unsigned &events);
/// Encoding `bits` gave `datum` 0 although the value was finite and non-zero
/// (denormals included).
inline bool bfpFlushedToZero(const BfpFormatInfo &f, uint32_t bits,
                             uint8_t datum) {
  uint32_t magnitude = bits & 0x7FFFFFFFu;
  return magnitude != 0 && magnitude < 0x7F800000u &&
         (datum & ((1u << f.magnitudeBits) - 1)) == 0;
}

/// Encodes fp32 bits under `sharedExp` (§5 steps 1-5), tallying ties and,
/// with `countEvents`, the other events of docs/Fidelity.md.
inline uint8_t bfpEncode(const BfpFormatInfo &f, uint32_t bits,
                         uint32_t sharedExp, BfpTally &tally,
                         bool countEvents = false) {
  unsigned events = 0;
  uint8_t datum = bfpEncodeWithEvents(f, bits, sharedExp, events);
  auto tallyClass = [&](BfpClass c) {
    tally[c] += (events & bfpClassBit(c)) != 0;
  };
  tallyClass(BfpClass::tie); // the tie counters, always
  tallyClass(BfpClass::tieRoundedUp);
  if (countEvents) {
    if (bfpFlushedToZero(f, bits, datum))
      events |= bfpClassBit(BfpClass::flushedToZero);
    tallyClass(BfpClass::flushedToZero);
    tallyClass(BfpClass::saturated);
    tallyClass(BfpClass::exponentClamped);
  }
  return datum;
}
/// Decodes a datum under `sharedExp` to fp32 bits (§5).
uint32_t bfpDecode(const BfpFormatInfo &f, uint8_t datum, uint32_t sharedExp);
/// The shared exponent of 16 fp32 bit patterns (§5).
uint8_t bfpSharedExponent(const BfpFormatInfo &f, const uint32_t *block);

//===-- MX tiles (§5 MX tiles [tt-metal]) ---------------------------------===//

/// The scale byte of an MX block of kMxBlockValues fp32 bit patterns: from
/// the largest finite magnitude's exponent less the element's emax (at
/// least -127), biased by 127; 0xFF for an all-NaN block, 0xFE for a block
/// of Inf, NaN and zeros with an Inf.
uint8_t mxScale(const BfpFormatInfo &f, const uint32_t *block);
/// The scale byte of a block with a finite non-zero value, or of an
/// all-zero one (`maxFinite` 0): its largest finite magnitude's exponent
/// (0 for an all-zero block; a subnormal one lies below -126, so the scale
/// clamps to -127 whatever it is) less emax, at least -127, biased.
constexpr uint8_t mxScaleOfMaxFinite(const BfpFormatInfo &f,
                                     uint32_t maxFinite) {
  int exponent = maxFinite == 0         ? 0
                 : maxFinite < 0x800000 ? -127
                                        : int(maxFinite >> 23) - 127;
  int adjusted = exponent - f.emax;
  return uint8_t((adjusted < -127 ? -127 : adjusted) + kMxScaleBias);
}
/// The bit of `c` in mxEncodeWithEvents' class set.
constexpr unsigned mxClassBit(MxClass c) { return 1u << unsigned(c); }
/// The element code of fp32 bits under scale byte `scale`: the value
/// divided by 2^(scale - 127), then the format's rounding (§5 MX tiles),
/// or-ing the mxClassBit of each class it shows into `events`.
uint32_t mxEncodeWithEvents(const BfpFormatInfo &f, uint32_t bits,
                            uint8_t scale, unsigned &events);
inline uint32_t mxEncode(const BfpFormatInfo &f, uint32_t bits,
                         uint8_t scale) {
  unsigned events = 0;
  return mxEncodeWithEvents(f, bits, scale, events);
}
/// The fp32 bits of element `code` under scale byte `scale` (§5 MX
/// decoding): its value times 2^(scale - 127) rounded to fp32; scale 0xFF
/// gives NaN (float elements) or +0 (integers).
uint32_t mxDecode(const BfpFormatInfo &f, uint32_t code, uint8_t scale);
/// The block's scale byte and element codes (the packer's block rule),
/// tallying events into `tally` when not null.
using MxTally = ClassCounts<MxClass>;
uint8_t mxBlock(const BfpFormatInfo &f, const uint32_t *block, uint32_t *codes,
                MxTally *tally);

/// Packs a call's values of `srcDtype` (kBfpInputDtypes; raw
/// little-endian bits, any alignment) into packed tiles (§5), tile forms
/// row-major inside or, with kBfpFaces, in face order, matrix forms in
/// row-major tile order; nothing is written on error. A non-null `counts`
/// receives the pack's fidelity counts (docs/Fidelity.md).
Status bfpPack(const BfpCall &call, int srcDtype, const void *src, void *out,
               FidelityCounts *counts = nullptr);
/// The inverse: packed tiles to fp32 values in the call's layout.
Status bfpUnpack(const BfpCall &call, const void *packed, void *out);

/// Packs `tileCount` tiles of `tileRows` x `tileCols` values of `srcDtype`
/// (kBfpInputDtypes), each row-major inside or, with kBfpFaces, in face
/// order, tiles one after another (raw little-endian bits, any alignment)
/// into packed tiles (§5); nothing is written on error. A non-null `counts`
/// receives the pack's fidelity counts (docs/Fidelity.md).
Status bfpPack(int format, int srcDtype, const void *src, size_t tileCount,
               uint32_t tileRows, uint32_t tileCols, unsigned flags, void *out,
               FidelityCounts *counts = nullptr);
/// The inverse layout: fp32 tiles, row-major inside or (kBfpFaces) in face
/// order (§5 decoding).
Status bfpUnpack(int format, const void *packed, size_t tileCount,
                 uint32_t tileRows, uint32_t tileCols, unsigned flags,
                 void *out);
/// Packs a row-major `rows` x `cols` matrix (whole tiles each way) into its
/// tiles in row-major tile order in one pass: tilize then pack (§5 matrix
/// forms); kBfpTranspose tilizes transposed (tile heights 16 and 32).
Status bfpPackMatrix(int format, int srcDtype, const void *src, size_t rows,
                     size_t cols, uint32_t tileRows, uint32_t tileCols,
                     unsigned flags, void *out,
                     FidelityCounts *counts = nullptr);
/// The inverse of bfpPackMatrix: packed tiles to the fp32 matrix.
Status bfpUnpackMatrix(int format, const void *packed, size_t rows,
                       size_t cols, uint32_t tileRows, uint32_t tileCols,
                       unsigned flags, void *out);

/// The elements of a block of 16 whose value the Tensix packer at `site`,
/// decoded by the unpacker, gives differently from the host's `hostDatums`
/// under `hostShared` (NaN against NaN equal), as a mask (bit j: element
/// j); `destBits` are the block's Dest values (fp32 bits at the fp32 Dests,
/// which are also the host's input). 0 for the "a" formats, which have no
/// device path. At fp32_dest: bfp_pack.device_differs (docs/Fidelity.md).
uint32_t bfpDeviceDiffers(const BfpFormatInfo &f, const uint32_t *destBits,
                          uint32_t hostShared, const uint8_t *hostDatums,
                          BfpSite site = BfpSite::fp32_dest);

/// Which elements a pack at a device site gives another value than the
/// host's: mask[i] = 1 where the device's tiles, decoded as the unpacker
/// does, differ from the host's tiles of the same values (16-bit Dest
/// values widened exactly to fp32) decoded as bfpUnpack does, in fp32 bit
/// patterns (NaN against NaN equal); i in the input's element order. The
/// number of them in *count; mask may be null. Nothing written on error.
Status bfpDeviceDiff(const BfpCall &call, int srcDtype, const void *src,
                     uint8_t *mask, uint64_t *count);

/// Whether bfp_pack.device_differs counts a host pack of `f` from
/// `srcDtype` values at device site `site` (docs/Fidelity.md): a "b"
/// format the site writes, from values its Dest holds by type (a float32
/// Dest every BFP input, as the host reads it; a 16-bit Dest its own type).
bool bfpCountsDeviceAt(const BfpFormatInfo &f, BfpSite site, int srcDtype);
/// The device site bfp_pack.device_differs compares the host with in the
/// runtime's counters: fp32_dest unless set. Setting a site that is not a
/// device site is an error naming the choices.
BfpSite bfpCountedSite();
Status setBfpCountedSite(int site);

/// Tallies what bfpPack (Bfp.h) packs for the same call, device_differs at
/// `countedSite`; indices are flat indices of the input elements. A call
/// bfpPack rejects gives its error and tallies nothing.
Status tallyBfpPack(const BfpCall &call, int srcDtype, const void *src,
                    FidelityTally &tally,
                    BfpSite countedSite = BfpSite::fp32_dest);

/// Process-wide tie counters (thread-safe, §5).
void bfpAddTies(const BfpTally &ties);
void bfpTieCounters(uint64_t *seen, uint64_t *roundedUp);
void bfpTieCountersReset();

} // namespace birsim::core

#endif // BIRSIM_CORE_BFP_H
