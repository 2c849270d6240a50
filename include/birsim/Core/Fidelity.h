//===- Fidelity.h - per-element classification of value losses --*- C++ -*-===//
//
// What the simulator's arithmetic does to each value (docs/Fidelity.md): the
// events of include/birsim/Core/Fidelity.def, classified element by element
// by the same code that computes the bits. The `--birsim-fidelity` pass and
// the runtime's counters both tally through these functions.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CORE_FIDELITY_H
#define BIRSIM_CORE_FIDELITY_H

#include "birsim/Core/Dtype.h"
#include "birsim/Core/Float.h"
#include "birsim/Core/ValueClasses.h"

#include <cstddef>
#include <cstdint>

namespace birsim::core {

enum class FidelityFamily : uint8_t {
#define BIRSIM_FIDELITY_FAMILY(Family) Family,
#include "birsim/Core/Fidelity.def"
};
constexpr int kNumFidelityFamilies = 0
#define BIRSIM_FIDELITY_FAMILY(...) +1
#include "birsim/Core/Fidelity.def"
    ;

enum class FidelityEvent : uint8_t {
#define BIRSIM_FIDELITY_EVENT(Family, Key) Family##_##Key,
#include "birsim/Core/Fidelity.def"
};
constexpr int kNumFidelityEvents = 0
#define BIRSIM_FIDELITY_EVENT(...) +1
#include "birsim/Core/Fidelity.def"
    ;

struct FidelityFamilyInfo {
  const char *name; ///< "reduce", "cast", "bfp_pack"
};
struct FidelityEventInfo {
  FidelityFamily family;
  const char *key; ///< JSON key and C struct field
};
const FidelityFamilyInfo &fidelityFamilyInfo(FidelityFamily family);
/// "No event": past the table's last row.
constexpr FidelityEvent kNoFidelityEvent = FidelityEvent(kNumFidelityEvents);
const FidelityEventInfo &fidelityEventInfo(FidelityEvent event);

/// What the runtime's counters keep: values examined per family and
/// occurrences of each event.
struct FidelityCounts {
  uint64_t elements[kNumFidelityFamilies] = {};
  uint64_t count[kNumFidelityEvents] = {};

  void add(const FidelityCounts &other);
  /// add() under a lock shared by every addLocked/mergeLocked caller.
  void addLocked(const FidelityCounts &other);
};

/// The counts of one op plus the first flat (row-major) index of each event
/// (-1 while it has none): what `--birsim-fidelity` reports.
struct FidelityTally : FidelityCounts {
  int64_t first[kNumFidelityEvents];

  FidelityTally();
  void record(FidelityEvent event, uint64_t index) {
    int e = int(event);
    if (count[e]++ == 0 || int64_t(index) < first[e])
      first[e] = int64_t(index);
  }
  /// Adds `other`, keeping the smaller first index; thread-safe as addLocked.
  void mergeLocked(const FidelityTally &other);
};

/// fp8 add of `acc` and `x` (raw codes of an fp8 reducing dtype) gives ±Inf
/// from finite operands where a saturating narrow gives ±max finite (§3).
bool fp8AddOverflows(const DtypeInfo &dtype, uint32_t acc, uint32_t x);

/// Tallies elements [begin, end) of `op` on `count` (acc, x) pairs before
/// the reduction runs; only fp8 add has events (§3). Arguments must have
/// passed the kernel's checks.
void tallyReduce(int op, const DtypeInfo &dtype, const void *acc,
                 const void *x, size_t begin, size_t end,
                 FidelityTally &tally);

/// The one cast event (if any, a `cast_*` row of Fidelity.def) the cast
/// engine's write of `srcBits` as `to` shows, under `fp8Config` (§4);
/// kNoFidelityEvent when the value is kept.
FidelityEvent classifyCast(const DtypeInfo &from, const DtypeInfo &to,
                       uint64_t srcBits, unsigned fp8Config);
/// Tallies elements [begin, end) of a cast of `src` (validated arguments).
void tallyCast(const DtypeInfo &from, const DtypeInfo &to, const void *src,
               size_t begin, size_t end, unsigned fp8Config,
               FidelityTally &tally);

//===-- Counts only, for the runtime's bulk calls -------------------------===//

/// The bfp_pack event a BfpClass counts as (kNoFidelityEvent: a tie
/// counter only).
FidelityEvent bfpPackEventOf(BfpClass c);
/// The mx_pack event an MxClass counts as.
FidelityEvent mxPackEventOf(MxClass c);

/// The cast events of `elements` elements narrowed to `f` under `config`
/// from their NarrowClass counts: NarrowCastClassifier's rule, by class.
void addNarrowClassEvents(const FloatFormat &f, unsigned config,
                          size_t elements,
                          const ClassCounts<NarrowClass> &classes,
                          FidelityCounts &events);

/// The fp8 add overflows among `count` (acc, x, result) code triples, where
/// result is the add's output: finite operands, non-finite result (§3).
uint64_t countFp8AddOverflows(const FloatFormat &format, const uint8_t *acc,
                              const uint8_t *x, const uint8_t *result,
                              size_t count);

/// classifyCast for fp32 -> a narrow float format from the input and output
/// bits alone (the output widened back exactly, and the smallest magnitude
/// whose unsaturated narrowing overflows); the vector kernels use the same
/// rule lane by lane.
struct NarrowCastClassifier {
  NarrowCastClassifier(const FloatFormat &format, unsigned config);
  FidelityEvent classify(uint32_t f32, uint32_t code) const {
    return classifyWidened(f32, widenToF32(*format, code));
  }
  /// The same with the output already widened to fp32 bits.
  FidelityEvent classifyWidened(uint32_t f32, uint32_t widened) const;

  const FloatFormat *format;
  /// |x| bit patterns at or above this clamp to ±max (saturating fp8
  /// configs); 0x7FFFFFFF (above every non-NaN) when nothing clamps.
  uint32_t clampFrom;
};

/// classifyCast inside a cast loop, prepared once per call: from the
/// element's bits, the engine's fp32 value and the bits it wrote. Between
/// float dtypes (fp32 is then exact both ways) NarrowCastClassifier's rule;
/// between a float and an integer, an integer comparison of the exact
/// values; otherwise classifyCast's exact comparison.
class CastClassifier {
public:
  CastClassifier(const DtypeInfo &from, const DtypeInfo &to, unsigned config);
  FidelityEvent classify(uint64_t srcBits, uint32_t hub, uint64_t outBits) const;

private:
  const DtypeInfo &from, &to;
  unsigned config;
  bool betweenFloats, floatToInteger, integerToFloat;
  NarrowCastClassifier floats;
  /// Integer targets: the smallest |fp32| bit patterns that clamp, for
  /// positive and negative values.
  uint32_t clampPositiveFrom = 0, clampNegativeFrom = 0;
};


} // namespace birsim::core

#endif // BIRSIM_CORE_FIDELITY_H
