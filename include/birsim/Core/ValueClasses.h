//===- ValueClasses.h - what the kernels count, element by element -*- C++ -*-===//
//
// The counted kernels sort elements into value classes, one tally per class
// (a 64-bit count, or a vector of lane counts inside a kernel); the classes
// become the events of Fidelity.def in one place each (Fidelity.cpp's
// addNarrowClassEvents, Bfp.cpp's pack), docs/Fidelity.md.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CORE_VALUECLASSES_H
#define BIRSIM_CORE_VALUECLASSES_H

#include <cstdint>

namespace birsim::core {

/// A narrowing fp32 -> narrow float (§4), before the FP8 config decides the
/// event.
enum class NarrowClass : uint8_t {
  beyondMax, ///< rounds beyond the largest finite (NaN and Inf inputs too)
  nan,       ///< a NaN input
  inf,       ///< an infinite input
  zeroed,    ///< a non-zero input whose code is zero
  exact,     ///< in range and unchanged
  kCount
};

/// A BFP datum's encoding (§5 steps 2-4).
enum class BfpClass : uint8_t {
  tie,             ///< step 4: remainder exactly half
  tieRoundedUp,    ///< ... and the odd magnitude rounded up
  flushedToZero,   ///< a finite non-zero input (denormals too) gives datum 0
  saturated,       ///< step 4: clamped at the largest magnitude
  exponentClamped, ///< step 2 ("a"): exponent raised or saturated
  deviceDiffers,   ///< the Tensix packer at fp32_dest gives another value
  kCount
};

/// An MX element's encoding (§5 MX tiles).
enum class MxClass : uint8_t {
  saturated,     ///< a finite value beyond the largest, or an Inf the
                 ///< format lacks, clamped to the largest magnitude
  flushedToZero, ///< a finite non-zero input gives a zero element
  nan,           ///< a NaN input (the format's NaN code, or 0 without one)
  kCount
};

/// One tally per class of `Class`, each a `Cell`.
template <class Class, class Cell = uint64_t> struct ClassCounts {
  static constexpr int kClasses = int(Class::kCount);
  Cell cells[kClasses] = {};

  Cell &operator[](Class c) { return cells[int(c)]; }
  const Cell &operator[](Class c) const { return cells[int(c)]; }
  ClassCounts &operator+=(const ClassCounts &other) {
    for (int c = 0; c < kClasses; ++c)
      cells[c] += other.cells[c];
    return *this;
  }
  /// Takes back counts `other` holds (each at most this one's).
  ClassCounts &operator-=(const ClassCounts &other) {
    for (int c = 0; c < kClasses; ++c)
      cells[c] -= other.cells[c];
    return *this;
  }
};

} // namespace birsim::core

#endif // BIRSIM_CORE_VALUECLASSES_H
