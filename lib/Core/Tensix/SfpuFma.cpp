//===- SfpuFma.cpp - the SFPU's multiply-add, per architecture ------------===//
//
// Every float multiply and add of the SFPU is one partially fused
// multiply-add (docs/Semantics.md section 9, "The FMA models" [ttsim]
// src/fma.cpp @56694c8 lines 102-287): the exact product is cut to 23
// fraction bits and three guard bits, the cut bits folded into a sticky
// bit, before it is aligned with the addend; denormal inputs are zeros.
//
//===----------------------------------------------------------------------===//
#include "birsim/Core/Tensix/Sfpu.h"

#include <cstdint>

namespace birsim::core {
namespace {

/// One fp32 operand: exponent field and 24-bit significand, 0 for a zero
/// or denormal (step 1).
struct Unpacked {
  int32_t exponent;
  uint32_t significand;
};
Unpacked unpack(uint32_t x) {
  int32_t e = int32_t(x >> 23 & 0xFF);
  return {e, e == 0 ? 0u : (x & 0x7FFFFF) | 0x800000};
}

/// Right shift that keeps a sticky bit only when something is left (step
/// 5): a value shifted out entirely is 0; `width` is the variable's.
template <typename T> T shiftKeepingSticky(T value, int32_t amount) {
  constexpr int32_t width = int32_t(sizeof(T) * 8);
  if (amount >= width)
    return 0;
  T shifted = T(value >> amount);
  if (shifted && T(shifted << amount) != value)
    shifted |= 1;
  return shifted;
}

} // namespace

uint32_t sfpuFma(int arch, uint32_t x, uint32_t y, uint32_t z) {
  const bool blackhole = arch == int(TensixArch::blackhole);
  Unpacked a = unpack(x), b = unpack(y), c = unpack(z);
  const uint32_t productSign = (x ^ y) & 0x80000000u;
  const uint32_t addendSign = z & 0x80000000u;
  // Step 2: the exact product, folded to 3 guard bits and a sticky bit.
  uint64_t product = uint64_t(a.significand) * b.significand << 3;
  product = (product >> 23) | ((product & 0x7FFFFF) != 0);
  int32_t productExponent = a.exponent + b.exponent - 127;
  uint32_t addend = c.significand << 3;

  // Step 3: NaN and Inf operands, or a product past the range.
  uint32_t pendingNaN = 0; // Wormhole: the NaN absorbs the computed bits
  const bool xNaNLike =
      a.exponent == 255 && (a.significand != 0x800000 || b.significand == 0);
  const bool yNaNLike =
      b.exponent == 255 && (b.significand != 0x800000 || a.significand == 0);
  const bool zInf = c.exponent == 255 && addend == 0x4000000;
  const bool zNaN = c.exponent == 255 && addend != 0x4000000;
  if (a.exponent == 255 || b.exponent == 255 || productExponent >= 255 ||
      c.exponent == 255) {
    if (blackhole) {
      if (xNaNLike || yNaNLike || zNaN ||
          (c.exponent == 255 && (a.exponent == 255 || b.exponent == 255) &&
           addendSign != productSign))
        return 0x7FC00000;
      return c.exponent == 255 ? z : productSign | 0x7F800000;
    }
    if (xNaNLike || yNaNLike ||
        (zInf &&
         (a.exponent == 255 || b.exponent == 255 || productExponent >= 255) &&
         addendSign != productSign))
      pendingNaN = productSign | 0x7F800001;
    else if (zNaN)
      pendingNaN = addendSign | 0x7F800001;
    else if (c.exponent == 255)
      return z;
    else
      return productSign | 0x7F800000;
    if (productExponent > 255)
      productExponent = 255;
  }

  // Step 4: a product below the range is dropped.
  if (product == 0 || productExponent < 0) {
    if (blackhole)
      return addend ? z : (addendSign & productSign);
    if (!pendingNaN)
      return addend ? z : 0;
    product = 0;
    productExponent = 0;
  }

  // Step 5: align to the larger exponent.
  int32_t exponent =
      productExponent > c.exponent ? productExponent : c.exponent;
  if (productExponent < exponent)
    product = shiftKeepingSticky(product, exponent - productExponent);
  if (c.exponent < exponent)
    addend = shiftKeepingSticky(addend, exponent - c.exponent);

  // Step 6: add the magnitudes on 32 bits, in two's complement for a
  // difference.
  const uint32_t sign = product >= addend ? productSign : addendSign;
  uint64_t p = product, q = addend;
  if (addendSign != sign)
    q = uint32_t(~addend);
  if (productSign != sign)
    p = ~product;
  uint32_t sum = uint32_t(q + p + (productSign != addendSign));
  if (sum == 0)
    return blackhole ? (addendSign & productSign) : pendingNaN;

  // Step 7: normalise so that the leading 1 is bit 26.
  int32_t shift = 5 - __builtin_clz(sum);
  exponent += shift;
  if (exponent >= 255)
    return pendingNaN ? pendingNaN : (sign | 0x7F800000);
  if (blackhole) {
    if (exponent <= 0) {
      shift += 1;
      exponent = 0;
    }
  } else if (exponent < 0) {
    return pendingNaN;
  }
  if (shift <= 0)
    sum <<= -shift;
  else if (blackhole)
    sum = (sum >> shift) | ((sum & uint32_t(shift | 1)) != 0);
  else
    sum = (sum >> shift) | (sum & 1);

  // Step 8: round to nearest even on the 3 guard bits; flush a result
  // whose exponent field is 0.
  uint32_t result = (uint32_t(exponent) << 23) + ((sum >> 3) & 0x7FFFFF);
  result += ((sum & 7) + (result & 1)) > 4;
  if (blackhole)
    return sign | ((result >> 23) ? result : 0);
  if (!(result >> 23))
    return pendingNaN;
  return (pendingNaN ? pendingNaN : sign) | result;
}

} // namespace birsim::core
