//===- Cast.cpp - the whole-tensor cast engine (docs/Semantics.md 4) ------===//
#include "birsim/Core/Cast.h"
#include "Kernels/Kernels.h"
#include "Kernels/Portable.h"
#include "ParallelFor.h"
#include "birsim/Core/Float.h"

#include <algorithm>
#include <cstring>
#include <optional>

namespace birsim::core {

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

//===-- The portable path's casts (Portable.h) ----------------------------===//

void portable::narrowFromF32(const FloatFormat &format, unsigned bytes,
                             const void *src, void *dst, size_t count,
                             unsigned config, FidelityCounts *events) {
  auto *in = static_cast<const unsigned char *>(src);
  auto *out = static_cast<unsigned char *>(dst);
  std::optional<NarrowCastClassifier> classifier;
  if (events) {
    events->elements[int(FidelityFamily::cast)] += count;
    classifier.emplace(format, config);
  }
  for (size_t i = 0; i < count; ++i) {
    uint32_t v = uint32_t(loadBits(in + 4 * i, 4));
    uint32_t code = narrowFromF32(format, v, config);
    storeBits(out + i * bytes, bytes, code);
    if (events)
      if (FidelityEvent e = classifier->classify(v, code);
          e != kNoFidelityEvent)
        ++events->count[int(e)];
  }
}

void portable::widenToF32(const FloatFormat &format, unsigned bytes,
                          const void *src, void *dst, size_t count) {
  auto *in = static_cast<const unsigned char *>(src);
  auto *out = static_cast<unsigned char *>(dst);
  for (size_t i = 0; i < count; ++i)
    storeBits(out + 4 * i, 4,
              widenToF32(format, uint32_t(loadBits(in + i * bytes, bytes))));
}

void castSpan(const DtypeInfo &from, const void *src, const DtypeInfo &to,
              void *dst, size_t count, unsigned fp8Config,
              FidelityCounts *counts) {
  auto *in = static_cast<const unsigned char *>(src);
  auto *out = static_cast<unsigned char *>(dst);
  // The path's kernels for fp32 <-> the narrow float formats (§4); the
  // narrowing counts its elements and events itself.
  const PathKernels &kernels = activeKernels();
  if (from.kind == DtypeKind::Float32 && to.kind == DtypeKind::Float &&
      vectorCastCovers(*to.format))
    return kernels.narrowFromF32(*to.format, to.bytes, in, out, count,
                                 fp8ConfigFor(to, fp8Config), counts);
  if (counts)
    counts->elements[int(FidelityFamily::cast)] += count;
  if (&from == &to) { // bits unchanged: every value kept (§4)
    if (count)        // null buffers are allowed with a zero count
      std::memmove(out, in, count * from.bytes);
    return;
  }
  if (to.kind == DtypeKind::Float32 && from.kind == DtypeKind::Float &&
      vectorCastCovers(*from.format)) // exact widening: no event
    return kernels.widenToF32(*from.format, from.bytes, in, out, count);
  if (!counts) {
    for (size_t i = 0; i < count; ++i, in += from.bytes, out += to.bytes)
      storeBits(out, to.bytes,
                writeFromF32(to, readAsF32(from, loadBits(in, from.bytes)),
                             fp8Config));
    return;
  }
  CastClassifier classifier(from, to, fp8Config);
  for (size_t i = 0; i < count; ++i, in += from.bytes, out += to.bytes) {
    uint64_t bits = loadBits(in, from.bytes);
    uint32_t hub = readAsF32(from, bits);
    uint64_t written = writeFromF32(to, hub, fp8Config);
    storeBits(out, to.bytes, written);
    if (FidelityEvent e = classifier.classify(bits, hub, written);
        e != kNoFidelityEvent)
      ++counts->count[int(e)];
  }
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
  if (&from == &to) { // one memmove, in place included
    castSpan(from, src, to, dst, count, fp8Config, counts);
    return Status::success();
  }
  parallelFor(count, kMinElementsPerThread, [&](size_t begin, size_t end) {
    FidelityCounts chunk;
    castSpan(from, static_cast<const unsigned char *>(src) + begin * from.bytes,
             to, static_cast<unsigned char *>(dst) + begin * to.bytes,
             end - begin, fp8Config, counts ? &chunk : nullptr);
    if (counts)
      counts->addLocked(chunk);
  });
  return Status::success();
}

} // namespace birsim::core
