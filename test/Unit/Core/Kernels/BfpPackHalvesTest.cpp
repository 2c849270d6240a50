//===- BfpPackHalvesTest.cpp - the 16-bit BFP pack's branches -------------===//
//
// x86/Avx2BfpPack.h and x86/Avx512BfpPack.h restate the host's BFP pack
// (docs/Semantics.md §5) on 16-bit lanes. Each case below builds tiles whose
// blocks take one branch of that code (a tie kept even, a tie rounded up,
// the bits just above and below a half, saturation, truncated bits, the "a"
// formats' raise and lower, a declined "b" block, the tie history's quiet
// run), checks from a plain statement of §5 that the tiles do take it, and
// compares every path's bytes and tie counts with the portable path's, for
// every format and both inputs (float32, bfloat16).
//
//===----------------------------------------------------------------------===//
#include "birsim/Core/Bfp.h"
#include "birsim/Core/Dtype.h"
#include "../Paths.h"

#include "gtest/gtest.h"

#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace birsim::core;

namespace {

/// §5 steps 3 and 4 for one value at distance d below the shared exponent,
/// as the parts a branch is about: the 24-bit window after the shift, its
/// kept bits and its dropped bits.
struct Window {
  unsigned magnitudeBits, d;
  uint32_t mantissa; // with the leading one
  uint32_t shifted() const { return d >= 24 ? 0 : mantissa >> d; }
  unsigned droppedBits() const { return 24 - magnitudeBits; }
  uint32_t kept() const { return shifted() >> droppedBits(); }
  uint32_t dropped() const { return shifted() & ((1u << droppedBits()) - 1); }
  uint32_t half() const { return 1u << (droppedBits() - 1); }
  bool tie() const { return dropped() == half(); }
  bool roundsUp() const {
    return dropped() > half() || (tie() && (kept() & 1));
  }
  bool saturates() const { return kept() == (1u << magnitudeBits) - 1 && roundsUp(); }
};

/// Whether a drawn value (its window, which the draw may change) takes a
/// case's branch.
using Draw = std::function<bool(std::mt19937_64 &, Window &)>;

/// The block's largest exponent field for cases inside both exponent
/// ranges (an "a" format's 5-bit exponent 18, no clamping).
constexpr uint32_t kLargest = 130;

struct Case {
  const char *name;
  Draw takes;
  bool countsTies; // the portable pack counts ties on these tiles
  bool fp32Only;   // bfloat16 inputs have no bits there
  unsigned leastMagnitudeBits = 1; // bfp2 (M = 1) keeps no bit below d = 0
};

/// Sets the window's dropped bits (where the value has them) to `pattern`.
bool withDropped(Window &w, uint32_t pattern) {
  uint32_t mask = ((1u << w.droppedBits()) - 1) << w.d;
  w.mantissa = (w.mantissa & ~mask) | ((pattern << w.d) & 0xFFFFFF);
  return (w.mantissa & 0x800000) && w.dropped() == pattern;
}

/// A bit below the half, at random.
uint32_t belowHalf(std::mt19937_64 &rng, const Window &w) {
  return 1u << (rng() % (w.droppedBits() - 1));
}

const Case kCases[] = {
    {"TieKeptEven",
     [](std::mt19937_64 &, Window &w) {
       return withDropped(w, w.half()) && !(w.kept() & 1);
     },
     true, false},
    {"TieRoundedUp",
     [](std::mt19937_64 &, Window &w) {
       return withDropped(w, w.half()) && (w.kept() & 1);
     },
     true, false},
    {"JustAboveHalf", // a sticky bit below the half
     [](std::mt19937_64 &rng, Window &w) {
       return withDropped(w, w.half() + belowHalf(rng, w)) && w.roundsUp();
     },
     false, false},
    {"JustBelowHalf",
     [](std::mt19937_64 &rng, Window &w) {
       return withDropped(w, w.half() - belowHalf(rng, w)) && !w.roundsUp();
     },
     false, false},
    {"Saturates", // all kept bits set at d = 0, rounding up to 2^M
     [](std::mt19937_64 &rng, Window &w) {
       w.d = 0;
       w.mantissa |= ~((1u << w.droppedBits()) - 1) & 0xFFFFFF;
       if (rng() & 1)
         withDropped(w, w.half()); // a tie at saturation
       return w.saturates();
     },
     true, false},
    {"TruncatedBitsOnly", // d > 0, the shifted-out bits set, no rounding
     [](std::mt19937_64 &, Window &w) {
       if (w.d == 0 || !withDropped(w, 0))
         return false;
       w.mantissa |= (1u << w.d) - 1;
       return w.dropped() == 0;
     },
     false, true, 3},
};

/// Tiles whose blocks each hold their largest at kLargest (exact, no
/// rounding) and, at positions 1-15, values drawn at a distance of 0 to
/// M + 1 until `takes` accepts them; bfloat16-exact where `bf16`.
std::vector<uint32_t> tilesOf(const Case &c, unsigned magnitudeBits, bool bf16,
                              size_t tiles, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> v(tiles * kBfpTileValues);
  for (size_t block = 0; block < v.size() / kBfpBlockValues; ++block) {
    uint32_t *b = &v[block * kBfpBlockValues];
    b[0] = uint32_t(rng() & 1) << 31 | kLargest << 23;
    for (unsigned i = 1; i < kBfpBlockValues; ++i)
      for (int tries = 0;; ++tries) {
        if (tries == 100000) { // no value takes the branch: a test defect
          ADD_FAILURE() << c.name << ": no value takes the branch";
          return {};
        }
        Window w{magnitudeBits, unsigned(rng() % (magnitudeBits + 2)),
                 uint32_t(0x800000 | (rng() & (bf16 ? 0x7F0000 : 0x7FFFFF)))};
        if (!c.takes(rng, w) || (bf16 && (w.mantissa & 0xFFFF)))
          continue;
        b[i] = uint32_t(rng() & 1) << 31 | (kLargest - w.d) << 23 |
               (w.mantissa & 0x7FFFFF);
        break;
      }
  }
  return v;
}

/// The packed bytes and the tie counters of `values` (float32 bits, read
/// as their top halves where `bf16`) on the active path.
std::vector<uint8_t> packOn(int format, bool bf16,
                            const std::vector<uint32_t> &values,
                            uint64_t *seen = nullptr, uint64_t *up = nullptr) {
  size_t tiles = values.size() / kBfpTileValues;
  std::vector<uint16_t> tops(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    tops[i] = uint16_t(values[i] >> 16);
  std::vector<uint8_t> packed(tiles * lookupBfpFormat(format)->tileBytes);
  bfpTieCountersReset();
  EXPECT_TRUE(bfpPack(format, int(bf16 ? Dtype::bfloat16 : Dtype::float32),
                      bf16 ? (const void *)tops.data()
                           : (const void *)values.data(),
                      tiles, kBfpTileSide, kBfpTileSide, kBfpFaces,
                      packed.data())
                  .ok());
  uint64_t s, u;
  bfpTieCounters(&s, &u);
  for (uint64_t count : {s, u})
    for (int shift = 0; shift < 64; shift += 8)
      packed.push_back(uint8_t(count >> shift));
  if (seen)
    *seen = s, *up = u;
  return packed;
}

/// Every path's bytes and tie counts equal the reference path's (Paths.h:
/// the portable one, bar the emulated run); the counts are the last 16
/// bytes.
void expectEveryPathAsPortable(int format, bool bf16,
                               const std::vector<uint32_t> &values,
                               const std::string &what) {
  birsim::test::expectSameOnEveryPath(
      [&] { return packOn(format, bf16, values); }, what);
}

std::string nameOf(int format, bool bf16) {
  return std::string(lookupBfpFormat(format)->name) +
         (bf16 ? " from bfloat16" : " from float32");
}

TEST(BfpPackHalves, EachRoundingBranchAsPortable) {
  for (const Case &c : kCases)
    for (int format = 0; format < kNumBfpDatumFormats; ++format)
      for (bool bf16 : {false, true}) {
        unsigned m = lookupBfpFormat(format)->magnitudeBits;
        if ((bf16 && c.fp32Only) || m < c.leastMagnitudeBits)
          continue;
        std::vector<uint32_t> values = tilesOf(c, m, bf16, 8, format);
        // The tiles take the branch: ties counted where, and only where,
        // the case makes them; rounded up exactly for the odd ones.
        birsim::test::PathGuard guard;
        selectIsa(Isa::portable);
        uint64_t seen, up;
        packOn(format, bf16, values, &seen, &up);
        std::string what = std::string(c.name) + ", " + nameOf(format, bf16);
        EXPECT_EQ(seen > 0, c.countsTies) << what;
        if (std::string(c.name) == "TieKeptEven")
          EXPECT_EQ(up, 0u) << what;
        if (std::string(c.name) == "TieRoundedUp")
          EXPECT_EQ(up, seen) << what;
        expectEveryPathAsPortable(format, bf16, values, what);
      }
}

/// Blocks whose exponents leave §5 step 2's clamps (the "a" formats: a
/// value raised to 2^-15, one lowered to the largest, Inf and NaN among
/// them) or where a "b" block's shared exponent is at most M (declined by
/// the 16-bit pack, taken by the 32-bit one).
TEST(BfpPackHalves, ClampedAndDeclinedBlocksAsPortable) {
  const struct {
    const char *name;
    uint32_t largest, low, high; // exponent fields: block max, others' range
  } kBlocks[] = {
      {"Raised", 112 + 1, 90, 113},    // S5 = 1: raised values count
      {"RaisedFar", 130, 60, 111},     // raised, but M + 1 steps below
      {"Lowered", 150, 120, 150},      // S5 clamped to 31
      {"InfAndNaN", 255, 140, 255},    // lowered, all-ones significands
      {"DeclinedB", 1, 0, 1},          // a "b" block with S <= M
      {"Zeros", 0, 0, 0},              // S = 0, every datum 0
  };
  for (const auto &kind : kBlocks)
    for (int format = 0; format < kNumBfpDatumFormats; ++format)
      for (bool bf16 : {false, true}) {
        std::mt19937_64 rng(format * 7 + bf16);
        std::vector<uint32_t> values(8 * kBfpTileValues);
        for (size_t i = 0; i < values.size(); ++i) {
          uint32_t e = i % kBfpBlockValues == 0
                           ? kind.largest
                           : kind.low + uint32_t(rng() % (kind.high - kind.low + 1));
          values[i] = uint32_t(rng() & 1) << 31 | e << 23 |
                      uint32_t(rng() & (bf16 ? 0x7F0000 : 0x7FFFFF));
        }
        expectEveryPathAsPortable(format, bf16, values,
                                  std::string(kind.name) + ", " +
                                      nameOf(format, bf16));
      }
}

/// The tie history (BfpPack.h's BfpTieHistory): a run of tie-free groups
/// longer than kQuiet, then a tie, then tie-free groups again; the ties
/// after the quiet run are counted and rounded as the portable path's.
TEST(BfpPackHalves, TieAfterAQuietRunAsPortable) {
  for (int format = 0; format < kNumBfpDatumFormats; ++format)
    for (bool bf16 : {false, true})
      for (size_t tieBlock : {40, 41, 42, 43, 200}) {
        unsigned m = lookupBfpFormat(format)->magnitudeBits;
        std::vector<uint32_t> values(4 * kBfpTileValues);
        std::mt19937_64 rng(tieBlock);
        for (size_t i = 0; i < values.size(); ++i) {
          // Exact values: kept bits only, at the block's own exponent.
          uint32_t kept = uint32_t(rng()) & (((1u << m) - 1) << (24 - m));
          values[i] = uint32_t(rng() & 1) << 31 | kLargest << 23 |
                      (kept & 0x7FFFFF);
        }
        // One tie, kept odd: it rounds up.
        values[tieBlock * kBfpBlockValues + 5] =
            kLargest << 23 | (((1u << (24 - m)) | (1u << (23 - m))) & 0x7FFFFF);
        birsim::test::PathGuard guard;
        selectIsa(Isa::portable);
        uint64_t seen, up;
        packOn(format, bf16, values, &seen, &up);
        std::string what = "a tie in block " + std::to_string(tieBlock) +
                           ", " + nameOf(format, bf16);
        EXPECT_EQ(seen, 1u) << what;
        EXPECT_EQ(up, 1u) << what;
        expectEveryPathAsPortable(format, bf16, values, what);
      }
}

} // namespace
