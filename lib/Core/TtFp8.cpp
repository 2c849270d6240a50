//===- TtFp8.cpp - tt-metal's FP8 E4M3 conversions (§6) -------------------===//
#include "birsim/Core/TtFp8.h"
#include "ParallelFor.h"
#include "birsim/Core/Dtype.h"
#include "birsim/Core/Float.h"

#include <iterator>
#include <string>

namespace birsim::core {

const TtFp8PolicyInfo *lookupTtFp8Policy(int policy) {
  if (policy < 0 || policy >= kNumTtFp8Policies)
    return nullptr;
  return &kTtFp8PolicyTable[policy];
}

/// §6 ttmetal_host: NaN 0x7F; Inf and overflow the largest finite 240
/// (0x77); below 2^-6 (fp32 subnormals too) signed zero before any
/// rounding; else the top 3 mantissa bits, nearest even, a carry past 240
/// saturating.
static uint8_t hostEncode(uint32_t x) {
  uint8_t sign = uint8_t(x >> 31 << 7);
  if (isNaNF32(x))
    return 0x7F;
  if (isInfF32(x))
    return sign | 0x77;
  int exponent = int((x >> 23) & 0xFF) - 127 + 7;
  if (exponent > 14)
    return sign | 0x77;
  if (exponent <= 0 || ((x >> 23) & 0xFF) == 0)
    return sign;
  uint32_t mantissa = (x >> 20) & 7, rest = x & 0xFFFFF;
  if (rest > 0x80000 || (rest == 0x80000 && (mantissa & 1))) {
    if (++mantissa == 8) {
      mantissa = 0;
      if (++exponent > 14)
        return sign | 0x77;
    }
  }
  return uint8_t(sign | exponent << 3 | mantissa);
}

/// §6 ttmetal_host decode: E = 15 the quiet NaN, E = 0 signed zero.
static uint32_t hostDecode(uint8_t code) {
  uint32_t sign = uint32_t(code >> 7) << 31;
  uint32_t exponent = (code >> 3) & 15, mantissa = code & 7;
  if (exponent == 15)
    return 0x7FC00000u;
  if (exponent == 0)
    return sign;
  return sign | (exponent - 7 + 127) << 23 | mantissa << 20;
}

/// §6 ocp_e4m3fn: the cast engine's nearest-even rounding onto E4M3FN with
/// subnormals (§4); NaN, Inf and overflow the signed NaN.
static uint8_t ocpEncode(uint32_t x) {
  uint8_t sign = uint8_t(x >> 31 << 7);
  if (!isFiniteF32(x))
    return sign | 0x7F;
  uint32_t code =
      narrowFromF32(*dtypeInfo(Dtype::float8_e4m3fn).format, x, 0);
  return (code & 0x7F) == 0x7F ? uint8_t(sign | 0x7F) : uint8_t(code);
}

static uint32_t ocpDecode(uint8_t code) {
  return widenToF32(*dtypeInfo(Dtype::float8_e4m3fn).format, code);
}

/// §6 blackhole_packer: NaN to signed Inf; TF32 half up; a zero exponent
/// +0; the fp16 exponent range (below: signed zero, above: the largest
/// fp16 code); then fp16 exponents up to 8 signed zero, from 24 0x7F, else
/// rebiased with the mantissa truncated to 3 bits.
static uint8_t blackholeEncode(uint32_t x) {
  if (isNaNF32(x))
    x = (x & 0x80000000u) | 0x7F800000u;
  uint32_t tf32 = (x + 0x1000) >> 13;
  if ((tf32 & 0x3FFFF) < 0x400)
    tf32 = 0;
  uint32_t sign = tf32 >> 18;
  int exponent = int((tf32 >> 10) & 0xFF) - 112;
  uint32_t half = exponent < 0    ? sign << 15
                  : exponent > 31 ? sign << 15 | 0x7FFF
                                  : sign << 15 | uint32_t(exponent) << 10 |
                                        (tf32 & 0x3FF);
  uint32_t e5 = (half >> 10) & 31;
  uint8_t s8 = uint8_t(sign << 7);
  if (e5 <= 8)
    return s8;
  if (e5 >= 24)
    return s8 | 0x7F;
  return uint8_t(s8 | (e5 - 8) << 3 | (half & 0x3FF) >> 7);
}

/// §6 the Blackhole unpacker: the code as fp16 with exponent E + 8 (0 stays
/// 0) and mantissa m << 7, 0x7F's mantissa all ones (511.75).
static uint32_t blackholeDecode(uint8_t code) {
  uint32_t exponent = (code >> 3) & 15, mantissa = code & 7;
  uint32_t pad = exponent == 15 && mantissa == 7 ? 0x7F : 0;
  uint32_t half = uint32_t(code & 0x80) << 8 |
                  (exponent ? exponent + 8 : 0) << 10 | mantissa << 7 | pad;
  return widenToF32(*dtypeInfo(Dtype::float16).format, half);
}

/// Each policy's encoder and decoder, in TtFp8Policies.def's order.
struct TtFp8Codec {
  TtFp8Policy policy;
  uint8_t (*encode)(uint32_t);
  uint32_t (*decode)(uint8_t);
};
static constexpr TtFp8Codec kCodecs[] = {
    {TtFp8Policy::ttmetal_host, hostEncode, hostDecode},
    {TtFp8Policy::ocp_e4m3fn, ocpEncode, ocpDecode},
    {TtFp8Policy::blackhole_packer, blackholeEncode, blackholeDecode}};
static_assert(
    [] {
      if (std::size(kCodecs) != size_t(kNumTtFp8Policies))
        return false;
      for (size_t i = 0; i < std::size(kCodecs); ++i)
        if (int(kCodecs[i].policy) != int(i))
          return false;
      return true;
    }(),
    "kCodecs: one row per TtFp8Policies.def row, in its order");

uint8_t ttFp8Encode(TtFp8Policy policy, uint32_t f32) {
  return kCodecs[int(policy)].encode(f32);
}

uint32_t ttFp8Decode(TtFp8Policy policy, uint8_t code) {
  return kCodecs[int(policy)].decode(code);
}

unsigned ttFp8Disagreements(uint32_t f32) {
  uint32_t value[kNumTtFp8Policies];
  for (const TtFp8PolicyInfo &row : kTtFp8PolicyTable)
    value[int(row.policy)] =
        ttFp8Decode(row.policy, ttFp8Encode(row.policy, f32));
  auto differ = [&](TtFp8Policy a, TtFp8Policy b) {
    uint32_t x = value[int(a)], y = value[int(b)];
    return x != y && !(isNaNF32(x) && isNaNF32(y));
  };
  return unsigned(differ(TtFp8Policy::ttmetal_host, TtFp8Policy::ocp_e4m3fn)) |
         unsigned(differ(TtFp8Policy::ttmetal_host,
                         TtFp8Policy::blackhole_packer))
             << 1 |
         unsigned(differ(TtFp8Policy::ocp_e4m3fn,
                         TtFp8Policy::blackhole_packer))
             << 2;
}

/// The tt_fp8 event of disagreement bit `bit`.
static FidelityEvent disagreementEvent(unsigned bit) {
  static constexpr FidelityEvent kEvents[] = {
      FidelityEvent::tt_fp8_host_ocp_differ,
      FidelityEvent::tt_fp8_host_blackhole_differ,
      FidelityEvent::tt_fp8_ocp_blackhole_differ};
  return kEvents[bit];
}

/// "not a tt FP8 policy: expected ttmetal_host (0), ..." (TtFp8Policies.def).
static Status checkPolicy(int policy) {
  if (lookupTtFp8Policy(policy))
    return Status::success();
  static const std::string text = [] {
    std::string t = "not a tt FP8 policy: expected";
    for (const TtFp8PolicyInfo &row : kTtFp8PolicyTable)
      t += std::string(int(row.policy) == 0 ? " " : ", ") + row.name + " (" +
           std::to_string(int(row.policy)) + ")";
    return t;
  }();
  return Status::error(ErrorCode::invalidArgument, policy, 0, text.c_str());
}

static Status checkCall(int policy, const void *src, size_t srcBytes,
                        const void *dst, size_t dstBytes, size_t count) {
  if (Status s = checkPolicy(policy))
    return s;
  if (Status s = checkBuffers(dst, src, count, 4))
    return s;
  return checkNoOverlap(dst, count * dstBytes, src, count * srcBytes, false);
}

Status ttFp8EncodeBulk(int policy, const void *src, size_t count, void *dst,
                       FidelityCounts *counts) {
  if (Status s = checkCall(policy, src, 4, dst, 1, count))
    return s;
  auto *in = static_cast<const char *>(src);
  auto *out = static_cast<uint8_t *>(dst);
  parallelFor(count, kMinElementsPerThread, [&](size_t begin, size_t end) {
    FidelityCounts chunk;
    for (size_t i = begin; i < end; ++i) {
      uint32_t x = uint32_t(loadBits(in + 4 * i, 4));
      out[i] = ttFp8Encode(TtFp8Policy(policy), x);
      if (counts)
        for (unsigned d = ttFp8Disagreements(x), bit = 0; d; d >>= 1, ++bit)
          chunk.count[int(disagreementEvent(bit))] += d & 1;
    }
    if (counts) {
      chunk.elements[int(FidelityFamily::tt_fp8)] = end - begin;
      counts->addLocked(chunk);
    }
  });
  return Status::success();
}

Status ttFp8DecodeBulk(int policy, const void *src, size_t count, void *dst) {
  if (Status s = checkCall(policy, src, 1, dst, 4, count))
    return s;
  auto *in = static_cast<const uint8_t *>(src);
  auto *out = static_cast<char *>(dst);
  parallelFor(count, kMinElementsPerThread, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i)
      storeBits(out + 4 * i, 4, ttFp8Decode(TtFp8Policy(policy), in[i]));
  });
  return Status::success();
}

Status tallyTtFp8(int policy, const void *src, size_t count,
                  FidelityTally &tally) {
  if (Status s = checkCall(policy, src, 4, src, 0, count))
    return s;
  auto *in = static_cast<const char *>(src);
  tally.elements[int(FidelityFamily::tt_fp8)] += count;
  for (size_t i = 0; i < count; ++i)
    for (unsigned d = ttFp8Disagreements(uint32_t(loadBits(in + 4 * i, 4))),
                  bit = 0;
         d; d >>= 1, ++bit)
      if (d & 1)
        tally.record(disagreementEvent(bit), i);
  return Status::success();
}

} // namespace birsim::core
