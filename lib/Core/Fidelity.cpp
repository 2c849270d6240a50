//===- Fidelity.cpp - per-element classification (docs/Fidelity.md) -------===//
#include "birsim/Core/Fidelity.h"
#include "birsim/Core/Convert.h"
#include "birsim/Core/Float.h"
#include "birsim/Core/Enums.h"

#include <algorithm>
#include <cstring>
#include <mutex>


namespace birsim::core {

static const FidelityFamilyInfo kFamilies[] = {
#define BIRSIM_FIDELITY_FAMILY(Family) {#Family},
#include "birsim/Core/Fidelity.def"
};
static const FidelityEventInfo kEvents[] = {
#define BIRSIM_FIDELITY_EVENT(Family, Key) {FidelityFamily::Family, #Key},
#include "birsim/Core/Fidelity.def"
};

const FidelityFamilyInfo &fidelityFamilyInfo(FidelityFamily family) {
  return kFamilies[int(family)];
}
const FidelityEventInfo &fidelityEventInfo(FidelityEvent event) {
  return kEvents[int(event)];
}

FidelityTally::FidelityTally() {
  for (int64_t &f : first)
    f = -1;
}

static std::mutex gMergeMutex;

void FidelityCounts::add(const FidelityCounts &other) {
  for (int i = 0; i < kNumFidelityFamilies; ++i)
    elements[i] += other.elements[i];
  for (int e = 0; e < kNumFidelityEvents; ++e)
    count[e] += other.count[e];
}

void FidelityCounts::addLocked(const FidelityCounts &other) {
  std::lock_guard<std::mutex> lock(gMergeMutex);
  add(other);
}

void FidelityTally::mergeLocked(const FidelityTally &other) {
  std::lock_guard<std::mutex> lock(gMergeMutex);
  for (int e = 0; e < kNumFidelityEvents; ++e)
    if (other.count[e] && (!count[e] || other.first[e] < first[e]))
      first[e] = other.first[e];
  add(other);
}

//===-- reduce: fp8 add narrows with FP8 config 0 (§3) --------------------===//

/// The kernel's fp8 add (§3: widen, ADDSS(acc, x), narrow with config 0):
/// finite + finite never overflows fp32, so a non-finite result from finite
/// operands is the narrow's overflow.
static bool overflows(const FloatFormat &f, uint8_t acc, uint8_t x) {
  auto sum = uint8_t(narrowFromF32(
      f, addss(widenToF32(f, acc), widenToF32(f, x)), /*config=*/0));
  return countFp8AddOverflows(f, &acc, &x, &sum, 1);
}

bool fp8AddOverflows(const DtypeInfo &dtype, uint32_t acc, uint32_t x) {
  return dtype.reduction == Reduction::Fp8 &&
         overflows(*dtype.format, uint8_t(acc), uint8_t(x));
}

void tallyReduce(int op, const DtypeInfo &dtype, const void *acc,
                 const void *x, size_t begin, size_t end,
                 FidelityTally &tally) {
  if (op != int(MemoryReductionOp::add) || dtype.reduction != Reduction::Fp8)
    return;
  auto *a = static_cast<const uint8_t *>(acc);
  auto *b = static_cast<const uint8_t *>(x);
  tally.elements[int(FidelityFamily::reduce)] += end - begin;
  for (size_t i = begin; i < end; ++i)
    if (overflows(*dtype.format, a[i], b[i]))
      tally.record(FidelityEvent::reduce_sim_inf_device_saturates, i);
}

uint64_t countFp8AddOverflows(const FloatFormat &format, const uint8_t *acc,
                              const uint8_t *x, const uint8_t *result,
                              size_t count) {
  auto magnitude = uint8_t(format.magnitudeMask());
  // The smallest non-finite magnitude: Inf (IEEE) or the one NaN code
  // (FiniteNaN, §1); below it every code is finite.
  auto inf = uint8_t(format.maxFiniteCode() + 1);
  uint64_t overflows = 0;
  for (size_t i = 0; i < count; ++i) // branch-free: random data would mispredict
    overflows += unsigned(uint8_t(acc[i] & magnitude) < inf) &
                 unsigned(uint8_t(x[i] & magnitude) < inf) &
                 unsigned(uint8_t(result[i] & magnitude) >= inf);
  return overflows;
}

//===-- cast: the cast engine (§4) ----------------------------------------===//

namespace {
/// The exact value of an element: class, sign and `significand * 2^exp2`
/// with trailing zero bits removed (zero: significand 0).
struct ExactValue {
  enum Class : uint8_t { finite, infinite, nan } cls = finite;
  bool negative = false;
  uint64_t significand = 0;
  int exp2 = 0;

  bool isZero() const { return cls == finite && significand == 0; }
  bool operator==(const ExactValue &o) const {
    if (cls != o.cls)
      return false;
    if (cls == nan)
      return true;
    if (isZero() || o.isZero())
      return isZero() && o.isZero(); // -0 and +0 hold the same value
    return negative == o.negative && significand == o.significand &&
           (cls == infinite || exp2 == o.exp2);
  }
};
} // namespace

static ExactValue normalized(bool negative, uint64_t significand, int exp2) {
  ExactValue v;
  v.negative = negative;
  if (significand) {
    int zeros = __builtin_ctzll(significand);
    v.significand = significand >> zeros;
    v.exp2 = exp2 + zeros;
  }
  return v;
}

static ExactValue exactOfF32(uint32_t x) {
  ExactValue v;
  if (isNaNF32(x) || isInfF32(x)) {
    v.cls = isNaNF32(x) ? ExactValue::nan : ExactValue::infinite;
    v.negative = x & kF32SignMask;
    v.significand = 1;
    return v;
  }
  UnpackedF32 u = unpackFiniteF32(x);
  return normalized(u.negative, u.significand, u.exp2);
}

static ExactValue exactOf(const DtypeInfo &d, uint64_t bits) {
  switch (d.kind) {
  case DtypeKind::Float:
    return exactOfF32(widenToF32(*d.format, uint32_t(bits))); // exact (§4)
  case DtypeKind::Float32:
  case DtypeKind::Float32r:
    return exactOfF32(uint32_t(bits));
  case DtypeKind::UnsignedInt:
    return normalized(false, bits, 0);
  case DtypeKind::SignedInt: {
    int64_t value = signedValue(d, bits);
    return normalized(value < 0, value < 0 ? 0 - uint64_t(value) : value, 0);
  }
  case DtypeKind::Packed:
    break;
  }
  return {};
}

/// The write clamped a value beyond the target's range to its largest
/// finite value: integer targets, and fp8 targets under `saturate` (§4).
static bool writeClamps(const DtypeInfo &to, uint32_t f32, unsigned config) {
  if (to.kind == DtypeKind::UnsignedInt || to.kind == DtypeKind::SignedInt) {
    bool clamped;
    f32ToInteger(to, f32, clamped);
    return clamped;
  }
  if (!to.isFp8() || !(config & kFp8Saturate) || isNaNF32(f32))
    return false;
  uint32_t unsaturated = narrowFromF32(*to.format, f32, config & ~kFp8Saturate);
  return exactOf(to, unsaturated).cls != ExactValue::finite;
}

/// classifyCast given the engine's fp32 value and the bits it wrote.
static FidelityEvent classifyWrite(const DtypeInfo &from, const DtypeInfo &to,
                               uint64_t srcBits, uint32_t hub,
                               uint64_t outBits, unsigned fp8Config) {
  if (&from == &to) // bits unchanged (§4)
    return kNoFidelityEvent;
  ExactValue in = exactOf(from, srcBits);
  ExactValue out = exactOf(to, outBits);
  if (in.cls == ExactValue::nan)
    return out.cls == ExactValue::nan ? kNoFidelityEvent
                                      : FidelityEvent::cast_nan_suppressed;
  bool clamped = writeClamps(to, hub, fp8Config);
  if (in.cls == ExactValue::infinite)
    return clamped ? FidelityEvent::cast_saturated : kNoFidelityEvent;
  if (out.cls == ExactValue::infinite)
    return FidelityEvent::cast_overflow_to_inf;
  if (out.cls == ExactValue::nan)
    return FidelityEvent::cast_overflow_to_nan;
  if (clamped)
    return FidelityEvent::cast_saturated;
  if (out.isZero() && !in.isZero())
    return FidelityEvent::cast_underflow_to_zero;
  return in == out ? kNoFidelityEvent : FidelityEvent::cast_inexact;
}

FidelityEvent classifyCast(const DtypeInfo &from, const DtypeInfo &to,
                       uint64_t srcBits, unsigned fp8Config) {
  uint32_t hub = readAsF32(from, srcBits);
  return classifyWrite(from, to, srcBits, hub,
                       writeFromF32(to, hub, fp8Config), fp8Config);
}

/// The smallest fp32 magnitude pattern in [0, Inf] for which `holds` is true,
/// `holds` being monotonic in the pattern and true for Inf.
template <typename Predicate>
static uint32_t firstMagnitudeWhere(Predicate holds) {
  uint32_t low = 0, high = 0x7F800000u;
  while (low < high) {
    uint32_t mid = low + (high - low) / 2;
    if (holds(mid))
      high = mid;
    else
      low = mid + 1;
  }
  return low;
}

static bool isIntegerKind(const DtypeInfo &d) {
  return d.kind == DtypeKind::SignedInt || d.kind == DtypeKind::UnsignedInt;
}

/// A finite fp32 value as a sign and an integer magnitude, when it is an
/// integer below 2^64.
static bool integerValue(uint32_t f32, bool &negative, uint64_t &magnitude) {
  UnpackedF32 v = unpackFiniteF32(f32);
  negative = v.negative;
  if (v.exp2 >= 0) {
    magnitude = v.significand << std::min(v.exp2, 63);
    return v.exp2 <= 40; // significand < 2^24
  }
  unsigned dropped = unsigned(-v.exp2);
  if (dropped >= 64)
    return magnitude = 0, v.significand == 0;
  magnitude = v.significand >> dropped;
  return (v.significand & ((uint64_t(1) << dropped) - 1)) == 0;
}

static bool isFloatKind(const DtypeInfo &d) {
  return d.kind == DtypeKind::Float || d.kind == DtypeKind::Float32 ||
         d.kind == DtypeKind::Float32r;
}

CastClassifier::CastClassifier(const DtypeInfo &from, const DtypeInfo &to,
                               unsigned config)
    : from(from), to(to), config(config),
      betweenFloats(isFloatKind(from) && isFloatKind(to)),
      floatToInteger(isFloatKind(from) && isIntegerKind(to)),
      integerToFloat(isIntegerKind(from) && isFloatKind(to)),
      floats(to.format ? *to.format : kFloat32Format,
             fp8ConfigFor(to, config)) {
  if (!floatToInteger)
    return;
  // f32ToInteger clamps from a magnitude on, monotonically on each side.
  auto clampsFrom = [&](uint32_t sign) {
    return firstMagnitudeWhere([&](uint32_t magnitude) {
      bool clamped;
      f32ToInteger(to, sign | magnitude, clamped);
      return clamped;
    });
  };
  clampPositiveFrom = clampsFrom(0);
  clampNegativeFrom = clampsFrom(kF32SignMask);
}

FidelityEvent CastClassifier::classify(uint64_t srcBits, uint32_t hub,
                                   uint64_t outBits) const {
  if (&from == &to)
    return kNoFidelityEvent;
  if (floatToInteger) { // the fp32 value is the input's, exactly
    if (isNaNF32(hub))
      return FidelityEvent::cast_nan_suppressed;
    uint32_t magnitude = hub & ~kF32SignMask;
    if (magnitude >= ((hub & kF32SignMask) ? clampNegativeFrom
                                           : clampPositiveFrom)) // Inf too
      return FidelityEvent::cast_saturated;
    bool negative;
    uint64_t value;
    if (integerValue(hub, negative, value))
      return kNoFidelityEvent;
    return outBits == 0 ? FidelityEvent::cast_underflow_to_zero : FidelityEvent::cast_inexact;
  }
  if (!betweenFloats && !integerToFloat)
    return classifyWrite(from, to, srcBits, hub, outBits, config);
  // A float result, widened exactly to fp32.
  uint32_t widened = to.kind == DtypeKind::Float
                         ? widenToF32(*to.format, uint32_t(outBits))
                         : uint32_t(outBits);
  if (integerToFloat) { // the input is an integer
    int64_t value = from.kind == DtypeKind::SignedInt
                        ? signedValue(from, srcBits)
                        : int64_t(0);
    bool inNegative = value < 0;
    uint64_t in = inNegative ? 0 - uint64_t(value) : srcBits;
    if (to.kind == DtypeKind::Float32) // exact iff its odd part fits 24 bits
      return in == 0 || (in >> __builtin_ctzll(in)) < (uint64_t(1) << 24)
                 ? kNoFidelityEvent
                 : FidelityEvent::cast_inexact;
    if (FidelityEvent e = floats.classifyWidened(hub, widened);
        e != FidelityEvent::cast_inexact && e != kNoFidelityEvent)
      return e; // clamped or overflowed: the rule sees it on the fp32 value
    bool outNegative;
    uint64_t out;
    bool same = integerValue(widened, outNegative, out) && out == in &&
                (in == 0 || outNegative == inNegative);
    return same ? kNoFidelityEvent : FidelityEvent::cast_inexact;
  }
  return floats.classifyWidened(hub, widened); // fp32 holds both exactly
}

/// The bfp_pack event a class counts as (docs/Fidelity.md); the ties that
/// round up are a tie counter only.
FidelityEvent mxPackEventOf(MxClass c) {
  switch (c) {
  case MxClass::saturated:
    return FidelityEvent::mx_pack_saturated;
  case MxClass::flushedToZero:
    return FidelityEvent::mx_pack_flushed_to_zero;
  case MxClass::nan:
    return FidelityEvent::mx_pack_nan;
  case MxClass::kCount:
    break;
  }
  return kNoFidelityEvent;
}

FidelityEvent bfpPackEventOf(BfpClass c) {
  switch (c) {
  case BfpClass::tie:
    return FidelityEvent::bfp_pack_rounding_ties;
  case BfpClass::flushedToZero:
    return FidelityEvent::bfp_pack_flushed_to_zero;
  case BfpClass::saturated:
    return FidelityEvent::bfp_pack_saturated;
  case BfpClass::exponentClamped:
    return FidelityEvent::bfp_pack_exponent_clamped;
  case BfpClass::deviceDiffers:
    return FidelityEvent::bfp_pack_device_differs;
  case BfpClass::tieRoundedUp:
  case BfpClass::kCount:
    break;
  }
  return kNoFidelityEvent;
}

void addNarrowClassEvents(const FloatFormat &f, unsigned config,
                          size_t elements,
                          const ClassCounts<NarrowClass> &classes,
                          FidelityCounts &events) {
  auto add = [&](FidelityEvent e, uint64_t n) { events.count[int(e)] += n; };
  uint64_t beyondMax = classes[NarrowClass::beyondMax],
           nan = classes[NarrowClass::nan], inf = classes[NarrowClass::inf];
  bool fp8 = f.totalBits() == 8;
  events.elements[int(FidelityFamily::cast)] += elements;
  if (fp8 && (config & kFp8Saturate)) // Inf inputs clamp too
    add(FidelityEvent::cast_saturated, beyondMax - nan);
  else // Inf stays Inf (or becomes the NaN of e4m3fn: no event)
    add(f.hasInf() ? FidelityEvent::cast_overflow_to_inf
                                       : FidelityEvent::cast_overflow_to_nan,
        beyondMax - nan - inf);
  if (fp8 && (config & kFp8NanSuppress))
    add(FidelityEvent::cast_nan_suppressed, nan);
  add(FidelityEvent::cast_underflow_to_zero, classes[NarrowClass::zeroed]);
  add(FidelityEvent::cast_inexact, elements - beyondMax -
                                       classes[NarrowClass::exact] -
                                       classes[NarrowClass::zeroed]);
}

void tallyCast(const DtypeInfo &from, const DtypeInfo &to, const void *src,
               size_t begin, size_t end, unsigned fp8Config,
               FidelityTally &tally) {
  auto *in = static_cast<const unsigned char *>(src);
  tally.elements[int(FidelityFamily::cast)] += end - begin;
  for (size_t i = begin; i < end; ++i) {
    FidelityEvent event = classifyCast(
        from, to, loadBits(in + i * from.bytes, from.bytes), fp8Config);
    if (event != kNoFidelityEvent)
      tally.record(event, i);
  }
}

NarrowCastClassifier::NarrowCastClassifier(const FloatFormat &format,
                                           unsigned config)
    : format(&format), clampFrom(0x7FFFFFFFu) {
  if (format.totalBits() != 8 || !(config & kFp8Saturate))
    return;
  // Narrowing is monotonic in the magnitude's bit pattern: search for the
  // first pattern whose unsaturated narrowing is not finite.
  unsigned unsaturated = config & ~kFp8Saturate;
  clampFrom = firstMagnitudeWhere([&](uint32_t magnitude) {
    uint32_t code = narrowFromF32(format, magnitude, unsaturated);
    return !isFiniteF32(widenToF32(format, code));
  });
}

FidelityEvent NarrowCastClassifier::classifyWidened(uint32_t x, uint32_t w) const {
  uint32_t absX = x & ~kF32SignMask, absW = w & ~kF32SignMask;
  if (absX > 0x7F800000u) // NaN in
    return isNaNF32(w) ? kNoFidelityEvent : FidelityEvent::cast_nan_suppressed;
  bool clamped = absX >= clampFrom;
  if (absX == 0x7F800000u)
    return clamped ? FidelityEvent::cast_saturated : kNoFidelityEvent;
  if (absW == 0x7F800000u)
    return FidelityEvent::cast_overflow_to_inf;
  if (absW > 0x7F800000u)
    return FidelityEvent::cast_overflow_to_nan;
  if (clamped)
    return FidelityEvent::cast_saturated;
  if (absW == 0 && absX != 0)
    return FidelityEvent::cast_underflow_to_zero;
  return w == x ? kNoFidelityEvent : FidelityEvent::cast_inexact;
}

} // namespace birsim::core
