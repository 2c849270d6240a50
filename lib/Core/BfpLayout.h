//===- BfpLayout.h - where a BFP call's values live -------------*- C++ -*-===//
//
// Private to lib/Core: the walk every packer and unpacker (portable and
// vector) takes over a call's tiles (docs/Semantics.md section 5, tile
// shapes, layouts and matrix forms). Value j of block b of tile t is the
// element origin(t) + blockStart[b] + j * valueStep of the unpacked side.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_BFPLAYOUT_H
#define BIRSIM_LIB_CORE_BFPLAYOUT_H

#include "birsim/Core/Bfp.h"
#include "birsim/Core/Dtype.h"

#include <cstddef>

namespace birsim::core {

struct BfpLayout {
  const BfpFormatInfo *format;
  BfpTileShape shape;
  const DtypeInfo *values; ///< the unpacked side's element type
  size_t blockStart[kBfpTileBlocks];
  size_t valueStep;
  /// Tile t's origin: (t / tilesAcross) tileRowStep + (t % tilesAcross)
  /// tileColStep elements.
  size_t tilesAcross, tileRowStep, tileColStep;
  size_t packedBytes; ///< per tile
  /// Whether a BFP unpack (not MX) stores the values' whole lines past
  /// the caches (bfpStreamsValues).
  bool streamValues = false;

  size_t origin(size_t t) const {
    return (t / tilesAcross) * tileRowStep + (t % tilesAcross) * tileColStep;
  }
  /// Whether tile t's values are the t-th run of shape.values() (the tiles
  /// form, or a matrix one tile wide, not transposed).
  bool contiguousTiles() const {
    return tilesAcross == 1 && tileRowStep == shape.values() && valueStep == 1;
  }
};

/// Whether a call unpacking `valueBytes` of values streams their whole
/// lines past the caches: an output this large leaves them before it is
/// read, and a cached store's read for ownership doubles its traffic (a
/// 4096^2 unpack_matrix on AVX-512: 0.25 ns a value cached, 0.15 streamed).
inline bool bfpStreamsValues(size_t valueBytes) {
  return valueBytes >= (size_t(16) << 20);
}

/// An MX tile's scale bytes, zero-padded to a multiple of 16 (§5 MX tiles).
inline unsigned mxScaleBytes(const BfpLayout &layout) {
  return (layout.shape.values() / kMxBlockValues + 15) & ~15u;
}
/// Stores an MX block's element codes at `slots`: each in the low bits of
/// its storage slot shifted to the top (fp6: bits 7..2), element 0 lowest.
void mxStoreCodes(const BfpFormatInfo &f, const uint32_t *codes,
                  uint8_t *slots);

/// Tiles one after another, each row-major inside or in face order.
BfpLayout bfpTilesLayout(const BfpFormatInfo &f, const BfpTileShape &shape,
                         const DtypeInfo &values, bool faces);
/// A row-major matrix `cols` wide, its tiles in row-major tile order,
/// tilized plainly or transposed (within faces, and of faces where a tile
/// has more than one each way).
BfpLayout bfpMatrixLayout(const BfpFormatInfo &f, const BfpTileShape &shape,
                          const DtypeInfo &values, size_t cols,
                          bool transpose);
/// A packing call's checks (bfpCheckCall, bfpCheckInput) and walk, without
/// buffers: for the analyses that read the values the call would pack.
Status bfpLayoutOf(const BfpCall &call, int srcDtype, BfpLayout &layout,
                   uint64_t &tiles);

/// Host packing and unpacking of tiles [first, first + count) of `layout`
/// on the best path (no counts): the building blocks of other forms (the
/// per-tile mixed BFP of BfpMixed.cpp).
void bfpPackTileRange(const BfpLayout &layout, const void *src, size_t first,
                      size_t count, void *out);
void bfpUnpackTileRange(const BfpLayout &layout, const void *packed,
                        size_t first, size_t count, void *dst);

/// A call's checks on buffers (BfpChecks.cpp): the rules (bfpCheckCall),
/// then non-null buffers and sizes; `valueBytes` is the unpacked side's
/// element size.
Status bfpCheckBuffers(const BfpCall &call, const void *packed,
                       const void *values, size_t valueBytes, uint64_t &tiles);
/// The MX packer of tiles [firstTile, firstTile + tileCount)
/// (BfpPortable.cpp), tallying mx_pack's events where `tally` is not null.
void bfpPackMxTiles(const BfpLayout &layout, const char *src, size_t firstTile,
                    size_t tileCount, uint8_t *out, MxTally *tally);

} // namespace birsim::core

#endif // BIRSIM_LIB_CORE_BFPLAYOUT_H
