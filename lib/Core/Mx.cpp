//===- Mx.cpp - MX blocks and elements (docs/Semantics.md 5, MX tiles) ----===//
#include "birsim/Core/Bfp.h"
#include "birsim/Core/Float.h"

namespace birsim::core {

uint8_t mxScale(const BfpFormatInfo &f, const uint32_t *block) {
  uint32_t maxFinite = 0;
  bool allNaN = true, anyInf = false, allNonFiniteOrZero = true;
  for (unsigned j = 0; j < kMxBlockValues; ++j) {
    uint32_t magnitude = block[j] & 0x7FFFFFFFu;
    bool nan = magnitude > 0x7F800000u, inf = magnitude == 0x7F800000u;
    allNaN &= nan;
    anyInf |= inf;
    allNonFiniteOrZero &= nan || inf || magnitude == 0;
    if (!nan && !inf && magnitude > maxFinite)
      maxFinite = magnitude;
  }
  if (allNaN)
    return 0xFF;
  if (allNonFiniteOrZero && anyInf)
    return 0xFE;
  return mxScaleOfMaxFinite(f, maxFinite);
}

uint32_t mxEncodeWithEvents(const BfpFormatInfo &f, uint32_t bits,
                            uint8_t scale, unsigned &events) {
  bool negative = bits >> 31;
  uint32_t magnitude = bits & 0x7FFFFFFFu;
  int adjust = int(scale) - kMxScaleBias;
  if (f.kind == BfpKind::MxInt) {
    int max = f.mxIntMax();
    uint32_t mask = (1u << f.elementBits) - 1;
    int q;
    if (magnitude > 0x7F800000u) {
      events |= mxClassBit(MxClass::nan);
      q = 0;
    } else if (magnitude == 0x7F800000u) {
      events |= mxClassBit(MxClass::saturated);
      q = max;
    } else {
      // q = RNE(|x| / 2^adjust * 2^(bits - 2)), clamped.
      UnpackedF32 v = unpackFiniteF32(bits);
      int exp2 = v.exp2 - adjust + int(f.elementBits) - 2;
      uint64_t r = exp2 >= 0 ? (exp2 > 40 ? ~uint64_t(0) : v.significand << exp2)
                             : shiftRightRoundEven(v.significand, unsigned(-exp2));
      if (r > uint64_t(max)) {
        events |= mxClassBit(MxClass::saturated);
        r = uint64_t(max);
      }
      if (r == 0 && magnitude != 0)
        events |= mxClassBit(MxClass::flushedToZero);
      q = int(r);
    }
    return uint32_t(negative ? -q : q) & mask;
  }
  const FloatFormat &e = f.element;
  uint32_t sign = negative ? e.signMask() : 0;
  if (magnitude > 0x7F800000u) {
    events |= mxClassBit(MxClass::nan);
    return e.nanResult; // no sign; 0 where the format has no NaN
  }
  if (magnitude == 0x7F800000u) {
    if (e.hasInf())
      return sign | e.infCode();
    events |= mxClassBit(MxClass::saturated);
    return sign | e.maxFiniteCode();
  }
  if (magnitude == 0)
    return sign;
  UnpackedF32 v = unpackFiniteF32(bits);
  int exp2 = v.exp2 - adjust;
  // The scaled value below fp32's normal range gives signed zero (tt-metal
  // encodes the fp32 product, whose exponent field is then 0).
  if (63 - __builtin_clzll(v.significand) + exp2 < -126) {
    events |= mxClassBit(MxClass::flushedToZero);
    return sign;
  }
  // Rounded on the format's grid with one more exponent bit (the same codes
  // up to the largest finite, and the binade above it): a code beyond the
  // largest finite one saturates.
  FloatFormat unbounded = e;
  unbounded.exponentBits = uint8_t(e.exponentBits + 1);
  unbounded.nonFinite = FloatNonFinite::IEEE;
  unbounded.nanEncoding = FloatNanEncoding::IEEE;
  uint32_t code = roundToFormat(unbounded, false, v.significand, exp2, 0);
  if (code > e.maxFiniteCode()) {
    events |= mxClassBit(MxClass::saturated);
    return sign | e.maxFiniteCode();
  }
  if (code == 0)
    events |= mxClassBit(MxClass::flushedToZero);
  return sign | code;
}

uint32_t mxDecode(const BfpFormatInfo &f, uint32_t code, uint8_t scale) {
  int adjust = int(scale) - kMxScaleBias;
  if (f.kind == BfpKind::MxInt) {
    if (scale == 0xFF)
      return 0;
    int width = int(f.elementBits);
    int q = int(code << (32 - width)) >> (32 - width);
    uint64_t magnitude = uint64_t(q < 0 ? -q : q);
    return roundToFormat(kFloat32Format, q < 0, magnitude,
                         adjust - (width - 2), 0);
  }
  const FloatFormat &e = f.element;
  if (scale == 0xFF || e.isNaN(code))
    return 0x7FC00000u;
  uint32_t widened = widenToF32(e, code); // exact; Inf stays Inf
  if (isInfF32(widened) || (widened & 0x7FFFFFFFu) == 0)
    return widened;
  UnpackedF32 v = unpackFiniteF32(widened);
  return roundToFormat(kFloat32Format, v.negative, v.significand,
                       v.exp2 + adjust, 0);
}

uint8_t mxBlock(const BfpFormatInfo &f, const uint32_t *block, uint32_t *codes,
                MxTally *tally) {
  uint8_t scale = mxScale(f, block);
  for (unsigned j = 0; j < kMxBlockValues; ++j) {
    unsigned events = 0;
    codes[j] = mxEncodeWithEvents(f, block[j], scale, events);
    if (tally)
      for (int c = 0; c < MxTally::kClasses; ++c)
        tally->cells[c] += events >> c & 1;
  }
  return scale;
}

} // namespace birsim::core
