//===- Convert.cpp - the cast engine element by element (§4) --------------===//
#include "birsim/Core/Convert.h"
#include "birsim/Core/Float.h"

#include <algorithm>
#include <cstring>

namespace birsim::core {

static unsigned bitWidth(const DtypeInfo &d) { return 8u * d.bytes; }

uint32_t readAsF32(const DtypeInfo &src, uint64_t bits) {
  switch (src.kind) {
  case DtypeKind::Float:
    return widenToF32(*src.format, uint32_t(bits));
  case DtypeKind::Float32:
  case DtypeKind::Float32r:
    return uint32_t(bits);
  case DtypeKind::UnsignedInt:
    return roundToFormat(kFloat32Format, false, bits, 0, 0);
  case DtypeKind::SignedInt: {
    int64_t value = signedValue(src, bits);
    uint64_t magnitude = value < 0 ? 0 - uint64_t(value) : uint64_t(value);
    return roundToFormat(kFloat32Format, value < 0, magnitude, 0, 0);
  }
  case DtypeKind::Packed:
    break;
  }
  return 0;
}

uint64_t f32ToInteger(const DtypeInfo &dst, uint32_t x, bool &clamped) {
  bool isSigned = dst.kind == DtypeKind::SignedInt;
  unsigned width = bitWidth(dst);
  uint64_t mask = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  uint64_t maxMagnitude = isSigned ? mask >> 1 : mask;
  uint64_t minMagnitude = isSigned ? maxMagnitude + 1 : 0; // of the negative
  bool negative = x & kF32SignMask;
  uint64_t magnitude;
  bool beyond64Bits = false; // Inf, or a normal >= 2^23 * 2^41
  if (isNaNF32(x) || isInfF32(x)) {
    magnitude = ~uint64_t(0); // saturates below
    beyond64Bits = isInfF32(x);
  } else {
    UnpackedF32 v = unpackFiniteF32(x);
    beyond64Bits = v.exp2 > 40;
    if (v.exp2 >= 0)
      magnitude = beyond64Bits ? ~uint64_t(0) : v.significand << v.exp2;
    else
      magnitude = shiftRightRoundEven(v.significand, unsigned(-v.exp2));
  }
  uint64_t limit = negative ? minMagnitude : maxMagnitude;
  clamped = beyond64Bits || magnitude > limit;
  magnitude = std::min(magnitude, limit);
  return negative ? (0 - magnitude) & mask : magnitude;
}

uint64_t writeFromF32(const DtypeInfo &dst, uint32_t x, unsigned fp8Config) {
  switch (dst.kind) {
  case DtypeKind::Float:
    return narrowFromF32(*dst.format, x, fp8ConfigFor(dst, fp8Config));
  case DtypeKind::Float32:
    return x;
  case DtypeKind::Float32r:
    return narrowToFloat32r(x);
  case DtypeKind::UnsignedInt:
  case DtypeKind::SignedInt: {
    bool clamped;
    return f32ToInteger(dst, x, clamped);
  }
  case DtypeKind::Packed:
    break;
  }
  return 0;
}

Status checkFp8Config(uint64_t fp8Config) {
  if (fp8Config & ~uint64_t(kFp8ConfigMask))
    return Status::error(ErrorCode::invalidArgument, int64_t(fp8Config), 0,
                         "fp8_config has bits outside 0xFF01 (bit 0 "
                         "saturate, byte 1 NaN-suppress)");
  return Status::success();
}

} // namespace birsim::core
