//===- Cast.cpp - Whole-tensor cast engine (docs/Semantics.md section 4) -------===//
#include "birsim/Core/Cast.h"
#include "Kernels/Kernels.h"
#include "ParallelFor.h"
#include "birsim/Core/Float.h"
#include "birsim/Core/Reduce.h"

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
    return narrowFromF32(*dst.format, x, dst.isFp8() ? fp8Config : 0);
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

static Status checkCastDtype(int dtype) {
  const DtypeInfo *info = lookupDtype(dtype);
  if (!info)
    return Status::error(ErrorCode::unknownDtype, dtype);
  if (!isCastable(*info))
    return Status::error(ErrorCode::notCastable, dtype);
  return Status::success();
}

Status checkCast(int srcDtype, int dstDtype, unsigned fp8Config) {
  if (Status s = checkCastDtype(srcDtype))
    return s;
  if (Status s = checkCastDtype(dstDtype))
    return s;
  return checkFp8Config(fp8Config);
}

Status checkFp8Config(uint64_t fp8Config) {
  if (fp8Config & ~uint64_t(kFp8ConfigMask))
    return Status::error(ErrorCode::invalidArgument, int64_t(fp8Config), 0,
                         "fp8_config has bits outside 0xFF01 (bit 0 "
                         "saturate, byte 1 NaN-suppress)");
  return Status::success();
}

Status castBuffer(int srcDtype, const void *src, int dstDtype, void *dst,
                  size_t count, unsigned fp8Config, FidelityCounts *counts) {
  if (Status s = checkCast(srcDtype, dstDtype, fp8Config))
    return s;
  const DtypeInfo &from = *lookupDtype(srcDtype), &to = *lookupDtype(dstDtype);
  if (Status s = checkBuffers(dst, src, count, std::max(from.bytes, to.bytes)))
    return s;
  if (Status s = checkNoOverlap(dst, count * to.bytes, src, count * from.bytes,
                                /*exactAllowed=*/true))
    return s;
  if (&from == &to) { // bits unchanged: every value kept (§4)
    if (counts) {
      FidelityCounts kept;
      kept.elements[int(FidelityFamily::cast)] = count;
      counts->addLocked(kept);
    }
    if (count) // null buffers are allowed with a zero count
      std::memmove(dst, src, count * from.bytes);
    return Status::success();
  }
  // Vector kernels for fp32 <-> the narrow float formats (§4).
  const VectorKernels *vector = activeKernels();
  bool fromF32 = from.kind == DtypeKind::Float32 && to.kind == DtypeKind::Float;
  bool toF32 = to.kind == DtypeKind::Float32 && from.kind == DtypeKind::Float;
  unsigned config = to.isFp8() ? fp8Config : 0;
  parallelFor(count, kMinElementsPerThread, [&](size_t begin, size_t end) {
    auto *in = static_cast<const unsigned char *>(src) + begin * from.bytes;
    auto *out = static_cast<unsigned char *>(dst) + begin * to.bytes;
    size_t n = end - begin;
    FidelityCounts chunk;
    FidelityCounts *events = counts ? &chunk : nullptr;
    if (vector && fromF32) {
      vector->narrowFromF32(*to.format, to.bytes, in, out, n, config, events);
    } else if (vector && toF32) { // exact widening: no event
      vector->widenToF32(*from.format, from.bytes, in, out, n);
      chunk.elements[int(FidelityFamily::cast)] = n;
    } else if (events) {
      CastClassifier classifier(from, to, fp8Config);
      chunk.elements[int(FidelityFamily::cast)] = n;
      for (size_t i = 0; i < n; ++i, in += from.bytes, out += to.bytes) {
        uint64_t bits = loadBits(in, from.bytes);
        uint32_t hub = readAsF32(from, bits);
        uint64_t written = writeFromF32(to, hub, fp8Config);
        storeBits(out, to.bytes, written);
        if (FidelityEvent e = classifier.classify(bits, hub, written);
            e != kNoFidelityEvent)
          ++chunk.count[int((e))];
      }
    } else {
      for (size_t i = 0; i < n; ++i, in += from.bytes, out += to.bytes)
        storeBits(out, to.bytes,
                  writeFromF32(to, readAsF32(from, loadBits(in, from.bytes)),
                               fp8Config));
    }
    if (counts)
      counts->addLocked(chunk);
  });
  return Status::success();
}

} // namespace birsim::core
