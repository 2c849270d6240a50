//===- BfpWalk.h - how the BFP loops walk a tile's values and bytes --*- C++ -*-===//
//
// Private to lib/Core/Kernels, over a path's vocabulary `X`
// (Vocabulary.h); included, through KernelTable.h, inside each path's
// target region after LaneArithmetic.h.
//
// What the BFP, MX and mixed loops share: loading and storing a block's
// 16 values (BfpLayout: in rows, or gathered from a matrix's column), the
// banded walk of a matrix's rows (stripes across kBfpBandTiles tiles) and
// its prefetches, a packed tile's padding, the loops' tallies. A block is
// always whole (16 values), so no BFP loop has a tail.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_BFPWALK_H
#define BIRSIM_LIB_CORE_KERNELS_BFPWALK_H

#ifndef BIRSIM_LIB_CORE_KERNELS_LANEARITHMETIC_H
#error "include LaneArithmetic.h first"
#endif

namespace birsim::core::kernel {

//===-- BFP tiles (§5): whole blocks, so no tails -------------------------===//

/// How a block's elements load (X::loadBfpBlock): float32 as it is, a
/// 16-bit element (bfloat16, or a float16 Dest's) raw in each lane's top
/// half as bfloat16's, the integers converted. The loops take the load as
/// a constant (kBfpAnyLoad: chosen per block) so that the common ones have
/// no per-block branch.
constexpr int kBfpAnyLoad = -1;
inline Dtype bfpLoadOf(const DtypeInfo &values) {
  return values.dtype == Dtype::float16 ? Dtype::bfloat16 : values.dtype;
}
inline int bfpLoadConstantOf(const DtypeInfo &values) {
  Dtype load = bfpLoadOf(values);
  return load == Dtype::float32 || load == Dtype::bfloat16 ? int(load)
                                                           : kBfpAnyLoad;
}

/// The fp32 bits of block b's 16 values at `values` (BfpLayout): loaded as
/// they lie, or gathered first where they are a matrix's column.
template <class X, int Load>
auto loadBfpValues(const BfpLayout &layout, const char *values) {
  const DtypeInfo &input = *layout.values;
  Dtype load = Load == kBfpAnyLoad ? bfpLoadOf(input) : Dtype(Load);
  if (layout.valueStep == 1) {
    X::reportRead(values, kBfpBlockValues * input.bytes);
    return X::loadBfpBlock(load, values);
  }
  alignas(64) char gathered[kBfpBlockValues * 4];
  size_t step = layout.valueStep * input.bytes;
  for (unsigned j = 0; j < kBfpBlockValues; ++j) {
    X::reportRead(values + j * step, input.bytes);
    std::memcpy(gathered + j * input.bytes, values + j * step, input.bytes);
  }
  return X::loadBfpBlock(load, gathered);
}

/// Stores a block's 16 fp32 lanes at `values` (BfpLayout): as they lie, or
/// scattered where they are a matrix's column (loadBfpValues' inverse).
template <class X>
void storeBfpValues(const BfpLayout &layout, char *values,
                    const typename X::BfpBlock &block, bool stream = false) {
  if (layout.valueStep == 1) {
    X::reportWrite(values, 4 * kBfpBlockValues);
    if (stream && reinterpret_cast<uintptr_t>(values) % 64 == 0)
      X::streamBfpBlock(values, block);
    else
      X::storeBfpBlock(values, block);
    return;
  }
  alignas(64) char lined[4 * kBfpBlockValues];
  X::storeBfpBlock(lined, block);
  size_t step = 4 * layout.valueStep;
  for (unsigned j = 0; j < kBfpBlockValues; ++j) {
    X::reportWrite(values + j * step, 4);
    std::memcpy(values + j * step, lined + 4 * j, 4);
  }
}

/// How many of a matrix walk's tiles a band holds: its tiles are packed a
/// stripe (the blocks of the same rows) at a time across the band, so the
/// reads are a few rows' runs, not 32 rows 128 bytes at a time, and the
/// band's packed bytes stay in cache while they fill.
constexpr size_t kBfpBandTiles = 64;
/// A band pack reads a stripe's rows into the first-level cache this many
/// tiles ahead along the band.
constexpr size_t kBfpReadAheadTiles = 4;

/// Where a banded walk prefetches a block's values: the next stripe's
/// line `nextStripe` bytes below into the second-level cache, and the line
/// `alongBand` bytes further along its rows into the first (nextStripe 0:
/// not banded, or one stripe).
struct BfpReadAhead {
  size_t nextStripe = 0, alongBand = 0;
};

/// A banded walk's order: the groups of four blocks (by first block) in
/// row order, stripe s the groups [stripeEnd[s - 1], stripeEnd[s]) of the
/// same rows, `ahead` where it prefetches. For shapes of whole groups
/// (blocks % 4 == 0).
struct BfpStripes {
  static constexpr unsigned kNoGroup = ~0u;
  unsigned groupOrder[kBfpTileBlocks / 4], stripeEnd[kBfpTileBlocks / 4];
  /// By a group's first block / 4: the first block of the group in its
  /// place in the next stripe (kNoGroup in the last).
  unsigned nextStripeGroup[kBfpTileBlocks / 4];
  unsigned stripes = 0;
  BfpReadAhead ahead;

  /// Whether `layout` walks in bands: a matrix's rows (not a transpose's
  /// columns) more than one tile wide, in whole groups.
  static bool fits(const BfpLayout &layout) {
    return layout.valueStep == 1 && layout.tilesAcross > 1 &&
           layout.shape.blocks() % 4 == 0;
  }

  explicit BfpStripes(const BfpLayout &layout) {
    unsigned groups = layout.shape.blocks() / 4;
    for (unsigned g = 0; g < groups; ++g)
      groupOrder[g] = 4 * g;
    std::sort(groupOrder, groupOrder + groups, [&](unsigned a, unsigned c) {
      return layout.blockStart[a] < layout.blockStart[c];
    });
    size_t width = layout.tileRowStep / layout.shape.rows; // the matrix's
    for (unsigned g = 0; g < groups; ++g)
      if (g + 1 == groups || layout.blockStart[groupOrder[g + 1]] / width !=
                                 layout.blockStart[groupOrder[g]] / width)
        stripeEnd[stripes++] = g + 1;
    if (stripes > 1)
      ahead = {(layout.blockStart[groupOrder[stripeEnd[0]]] -
                layout.blockStart[groupOrder[0]]) *
                   layout.values->bytes,
               kBfpReadAheadTiles * layout.tileColStep * layout.values->bytes};
    for (unsigned g = 0; g < groups; ++g)
      nextStripeGroup[groupOrder[g] / 4] =
          g + stripeEnd[0] < groups ? groupOrder[g + stripeEnd[0]] : kNoGroup;
  }
};

/// group(i, b) for every group (first block b) of tiles i < band, stripe
/// by stripe across the band.
template <class Group>
__attribute__((always_inline)) inline void
bfpBandStripes(const BfpStripes &order, size_t band, Group &&group) {
  for (unsigned s = 0, g = 0; s < order.stripes; ++s) {
    unsigned stripeBegin = g;
    for (size_t i = 0; i < band; ++i)
      for (g = stripeBegin; g < order.stripeEnd[s]; ++g)
        group(i, order.groupOrder[g]);
  }
}

/// X::storeSignedDatumPair, which only paths with X::kBfpSignBytes have
/// (named through X here, so a generic lambda's discarded branch on
/// another path does not look it up).
template <class X, unsigned DatumBits, unsigned SignBit, bool ZeroKeepsSign>
__attribute__((always_inline)) inline void storeSignedDatumPair(
    char *p, const typename X::BfpBlock &bitsA, const typename X::BfpBlock &a,
    const typename X::BfpBlock &bitsB, const typename X::BfpBlock &b) {
  static_assert(X::kBfpSignBytes);
  X::template storeSignedDatumPair<DatumBits, SignBit, ZeroKeepsSign>(
      p, bitsA, a, bitsB, b);
}

/// A BFP loop's counters: popcounts where only ties are counted, lane
/// counters where the events of docs/Fidelity.md are too.
template <class X, bool CountEvents>
using BfpLoopTally =
    std::conditional_t<CountEvents, typename X::template Tally<BfpClass>,
                       typename X::template PopcountTally<BfpClass>>;

/// For the block whose values start at `values`: prefetches as `ahead`
/// says where banded, else the usual distance ahead (face order: every
/// line of the next tile too).
template <class X>
__attribute__((always_inline)) inline void
bfpPrefetchBlock(const char *values, const BfpReadAhead &ahead) {
  if (ahead.nextStripe) {
    X::prefetchLine(values + ahead.nextStripe);
    X::prefetchLineForRead(values + ahead.alongBand);
  } else {
    X::prefetch(values);
  }
}
/// That block, as packer P takes it.
template <class X, class P, int Load>
__attribute__((always_inline)) inline typename X::BfpBlock
bfpValuesAt(const BfpLayout &layout, const char *values,
            const BfpReadAhead &ahead) {
  bfpPrefetchBlock<X>(values, ahead);
  return P::values(loadBfpValues<X, Load>(layout, values));
}

/// A walk's sizes, read once (a store to the packed bytes may alias the
/// layout's).
struct BfpGroupSizes {
  unsigned inputBytes, exponentBytes;
  explicit BfpGroupSizes(const BfpLayout &layout)
      : inputBytes(layout.values->bytes),
        exponentBytes(layout.shape.exponentBytes()) {}
};

/// A band walk's prefetches of its packed tiles (a band's 64 tiles are
/// more streams than the hardware prefetcher follows): group b's datum
/// lines of the packed tile at `tile`, into the second level to be read,
/// or into the first to be written.
template <class X, unsigned M, bool ForWrite = false, class Byte>
void bfpPrefetchGroup(Byte *tile, const BfpGroupSizes &sizes, unsigned b) {
  constexpr unsigned groupDatumBytes = kBfpBlockValues * (M + 1) / 2;
  Byte *datums = tile + sizes.exponentBytes + b * groupDatumBytes / 4;
  for (Byte *line : {datums, datums + groupDatumBytes - 1}) {
    if constexpr (ForWrite)
      X::prefetchLineForWrite(line);
    else
      X::prefetchLine(line);
  }
}
/// An unpack's: the packed tile `in`'s exponents and first stripe's datums
/// where the band starts, and after group b the datums of the group in its
/// place in the next stripe (in face order, a stripe's groups lie a face
/// apart).
template <class X, unsigned M>
void bfpPrefetchBandTile(const unsigned char *in, const BfpGroupSizes &sizes,
                         const BfpStripes &order) {
  X::prefetchLine(in);
  for (unsigned g = 0; g < order.stripeEnd[0]; ++g)
    bfpPrefetchGroup<X, M>(in, sizes, order.groupOrder[g]);
}
template <class X, unsigned M>
void bfpPrefetchNextGroup(const unsigned char *in, const BfpGroupSizes &sizes,
                          const BfpStripes &order, unsigned b) {
  if (unsigned next = order.nextStripeGroup[b / 4];
      next != BfpStripes::kNoGroup)
    bfpPrefetchGroup<X, M>(in, sizes, next);
}
/// A band pack prefetches for writing group b of the tile this far ahead
/// in the band, so the reads for ownership of the lines a stripe writes
/// across 64 tiles do not fill the store queue.
constexpr size_t kBfpWriteAheadTiles = 4;

/// A packed tile's padding: its exponent bytes' past its blocks, and its
/// page's past the tile's bytes (§5 pages).
template <class X> void bfpPadTile(const BfpLayout &layout, char *packed) {
  unsigned blocks = layout.shape.blocks();
  size_t tileBytes = layout.shape.packedBytes(*layout.format);
  X::reportWrite(packed, layout.packedBytes);
  if (unsigned exponentBytes = layout.shape.exponentBytes();
      exponentBytes > blocks) // the shapes of fewer than 16 blocks
    std::memset(packed + blocks, 0, exponentBytes - blocks);
  if (layout.packedBytes > tileBytes) // aligned pages only
    std::memset(packed + tileBytes, 0, layout.packedBytes - tileBytes);
}

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_BFPWALK_H
