//===- Vocabulary.h - what a vector path's vocabulary provides -*- C++ -*-===//
//
// Private to lib/Core/Kernels. Every kernel loop (Elementwise.h, BfpPack.h,
// ...) is written once over a path's vocabulary `X` (Avx2.cpp's Avx2,
// Avx512.cpp's Avx512); a path contributes only the vocabulary: its lane
// operations (x86/Avx2.cpp) and its specialisations of an algorithm's stage
// beside them (x86/Avx2BfpPack.h, ...).
//
// A vocabulary X has:
//   X::Lanes<Bits>          LaneArithmetic.h's lane vocabulary.
//   X::kVectorBytes         the bytes of one vector.
//   X::kMomentTrips         how many round trips the assigner's moments
//                           pass sweeps at once (MixedAssigner.h).
//   X::kMaskedTails         whether a loop's last, partial step is the
//                           vector step under a mask (no access past the
//                           end: a masked load or store never touches the
//                           masked-off bytes); otherwise the elements after
//                           the last whole step take the portable path.
//   X::Part                 which elements of a step are live;
//                           X::whole<N>() all N, X::first<N>(n) the first n;
//                           X::valid(Part) as a mask of 32-bit lanes.
//   X::load<Bytes>(part, p), X::store<Bytes>(p, part, v)
//                           one vector of elements of Bytes bytes each.
//   X::loadWidened<Bytes>(part, p), X::storeNarrowed<Bytes>(p, part, v)
//                           kVectorBytes / 4 elements of Bytes bytes each,
//                           as (from) 32-bit lanes.
//   X::integerOp<Bytes, Op>(a, b)   int32/int64 lanes (§3).
//   X::unpackLow16/High16(a, b), X::packUnsigned32(a, b)
//                           16-bit lanes interleaved into 32-bit ones per
//                           128-bit quarter, and back (bf16Sums);
//   X::storePackOrder16(p, v)   the 16-bit lanes of packUnsigned32(a, b)
//                           stored as a's lanes, then b's.
//   X::f16Sums(a, b)        one vector of fp16 lanes each: their fp32 sums,
//                           rounded to nearest even (VCVTPS2PH).
//   X::Fp8Add<Count, TopByte>       the fp8 add step of fp8AddLoop.
//   X::Tally<Class>, X::kTallySteps, X::moveCounts(tally, totals)
//                           per-lane event counts (LaneArithmetic.h's
//                           V::count, V::countIfOne), moved into 64-bit
//                           totals at least every kTallySteps steps;
//                           X::PopcountTally<Class> the same for the BFP
//                           loops (the path's choice of cell).
//   X::BfpBlock, X::loadBfpBlock(dtype, p)   a block's 16 values as fp32
//                           bits, from an input element type of §5;
//   X::mapBlock(fn, blocks...)   fn on the blocks' lanes (V::I each);
//   X::forEachPart(fn, blocks...)   fn on the blocks' lanes a part at a
//                           time, by reference (outputs among them);
//   X::bfpShared(exponents), X::bfpSplat(shared) -> X::BfpShared,
//   X::firstLane(splat) -> lane 0 of a BfpShared,
//   X::squaresOf(block) -> X::BfpSquares, a block's squares (in fewer
//                           lanes where the path adds pairs of them),
//   X::sumSquares4x2(squares, first, second): 8 blocks' sums of squares
//                           in fp32, in an order of the path's, widened to
//                           double (blocks 0-3 at first, 4-7 at second);
//   X::bfpShared4(keys, splats[, exponentOf]) -> 4 exponent bytes (4
//                           blocks; a block's is exponentOf its largest key),
//   X::bfpDatumsOf(block) -> X::BfpDatums (16 bytes, one per lane),
//   X::storeBfpDatumPair(datumBits, p, a, b): blocks a and b's lanes
//                           as bytes, stored as storeBfpDatums at p and
//                           right after,
//   X::widenBfpDatums(datums) -> X::BfpBlock, X::storeBfpBlock(p, block),
//   X::streamBfpBlock(p, block) the same at a 64-byte aligned p (one whole
//                           line) past the caches, X::streamFence() after
//                           a loop's last,
//   X::storeBfpDatums(datumBits, p, datums), X::loadBfpDatums(datumBits, p);
//   X::kBfpSignBytes: whether the host's BFP packs and the MX float packs
//                           put the sign in on bytes: X::storeSignedDatumPair
//                           <DatumBits, SignBit, ZeroKeepsSign>(p, bitsA,
//                           magnitudesA, bitsB, magnitudesB);
//   X::bfpPacksHalves(input): whether the host's BFP packs (no events) of
//                           `input` take X::bfpPackHalves<M, Fp16Exponent,
//                           Bf16>(values, exponents, datums, blockDatumBytes,
//                           history, tally, largest): 4 contiguous blocks on
//                           16-bit lanes (BfpTieHistory), with `largest`
//                           their largest magnitudes' top 16 bits too,
//                           false (writing nothing) where it declines;
//   X::kBfpHalfLanes: whether the path packs a 16-bit Dest's blocks two a
//                           vector in 16-bit lanes (X::Lanes<16> with
//                           variable shifts): X::BfpHalves,
//                           X::loadBfpHalves(p, q), X::bfpShared4Halves,
//                           X::storeBfpHalfDatums(datumBits, p, q, lanes).
//   X::prefetch(p...), X::prefetchLine(p), X::prefetchLineForRead(p),
//   X::prefetchLineForWrite(p), X::Guard
//                           prefetching ahead, a line into the second level, a
//                           line into the first to be read or written; a
//                           kernel's MXCSR guard (the default floating-point
//                           environment, §2).
//   X::reportRead/reportWrite(p, bytes)   ranges told to ThreadSanitizer,
//                           which does not see vector accesses.
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_VOCABULARY_H
#define BIRSIM_LIB_CORE_KERNELS_VOCABULARY_H

#include "birsim/Core/Bfp.h"
#include "birsim/Core/Enums.h"

#include <type_traits>
#include <utility>

namespace birsim::core::kernel {

// The contract above as code: one detector per VocabularyMembers.def row,
// checked by checkVocabulary<X>() in kernelTableOf<X>() (KernelTable.h),
// whose static_assert names the member; the compiler's note "in instantiation of
// checkVocabulary<...Avx2>" names the path.
namespace vocabulary {
template <class X> using Part = typename X::Part;
template <class X> using Block = typename X::BfpBlock;
template <class X>
using Vector = decltype(X::template load<4>(std::declval<Part<X>>(),
                                            static_cast<const char *>(nullptr)));
/// A block function that returns its lane vector, and one that takes it.
struct Identity {
  template <class I> I operator()(I v) const { return v; }
};
struct Touch {
  template <class I> void operator()(I &) const {}
};
} // namespace vocabulary

#define BIRSIM_P std::declval<vocabulary::Part<X>>()
#define BIRSIM_V std::declval<vocabulary::Vector<X>>()
#define BIRSIM_B std::declval<const vocabulary::Block<X> &>()
#define BIRSIM_PTR static_cast<char *>(nullptr)
#define BIRSIM_VOCABULARY_MEMBER(Name, Spelling, ...)                          \
  template <class X, class = void> struct Has_##Name : std::false_type {};    \
  template <class X>                                                           \
  struct Has_##Name<X, std::void_t<decltype(__VA_ARGS__)>> : std::true_type {};
#include "VocabularyMembers.def"
#undef BIRSIM_P
#undef BIRSIM_V
#undef BIRSIM_B
#undef BIRSIM_PTR

/// True; fails to compile, naming the member, where path X's vocabulary
/// lacks one the loops use (the contract above).
template <class X> constexpr bool checkVocabulary() {
#define BIRSIM_VOCABULARY_MEMBER(Name, Spelling, ...)                          \
  static_assert(Has_##Name<X>::value,                                          \
                "the path's vocabulary lacks X::" Spelling " (Vocabulary.h)");
#include "VocabularyMembers.def"
  return true;
}

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_VOCABULARY_H
