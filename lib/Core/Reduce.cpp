//===- Reduce.cpp - cast_copy_or_accumulate and its callers ---------------===//
#include "birsim/Core/Reduce.h"
#include "birsim/Core/Float.h"

#include <cstring>

namespace birsim {

static const char *const kMemoryReductionOpNames[kNumMemoryReductionOps] = {
    "copy", "add", "min", "max"};

static const char *const kAluOpTypeNames[kNumAluOpTypes] = {
    "bypass", "bitwise_not", "arith_shift_left", "arith_shift_right", "add",
    "subtract", "mult", "divide", "max", "min", "bitwise_and", "bitwise_or",
    "bitwise_xor", "logical_and", "logical_or", "logical_xor",
    "logical_shift_left", "logical_shift_right", "is_equal", "not_equal",
    "is_gt", "is_ge", "is_lt", "is_le", "average", "elemwise_mul", "pow",
    "mod", "rsqrt", "abs", "abs_max", "abs_min", "mod_int"};

const char *memoryReductionOpName(int op) {
  return op >= 0 && op < kNumMemoryReductionOps ? kMemoryReductionOpNames[op]
                                                : nullptr;
}

const char *aluOpTypeName(int aluOp) {
  return aluOp >= 0 && aluOp < kNumAluOpTypes ? kAluOpTypeNames[aluOp]
                                              : nullptr;
}

Status aluOpToMemoryReduction(int aluOp, MemoryReductionOp &out) {
  if (aluOp == int(AluOpType::bypass)) {
    out = MemoryReductionOp::copy;
    return Status::success();
  }
  if (aluOp == int(AluOpType::add)) {
    out = MemoryReductionOp::add;
    return Status::success();
  }
  return Status::error(ErrorCode::unmappedAluOp, aluOp);
}

uint64_t loadBits(const void *p, unsigned bytes) {
  uint64_t v = 0;
  std::memcpy(&v, p, bytes);
  return v;
}

void storeBits(void *p, unsigned bytes, uint64_t bits) {
  std::memcpy(p, &bits, bytes);
}

//===-- Element reducers, one per (op, DtypeKind) (§3) --------------------===//

static uint64_t copyElement(const DtypeInfo &, uint64_t, uint64_t src) {
  return src;
}

static int64_t signExtend(const DtypeInfo &info, uint64_t bits) {
  unsigned shift = 64 - 8 * info.bytes;
  return int64_t(bits << shift) >> shift;
}

static uint64_t truncateTo(const DtypeInfo &info, uint64_t bits) {
  return info.bytes == 8 ? bits : bits & ((uint64_t(1) << (8 * info.bytes)) - 1);
}

// int32/int64: add wraps, min/max are signed (pminsd/pmaxsd, cmov).
static uint64_t intAdd(const DtypeInfo &info, uint64_t dst, uint64_t src) {
  return truncateTo(info, dst + src);
}
static uint64_t intMin(const DtypeInfo &info, uint64_t dst, uint64_t src) {
  return signExtend(info, src) < signExtend(info, dst) ? src : dst;
}
static uint64_t intMax(const DtypeInfo &info, uint64_t dst, uint64_t src) {
  return signExtend(info, src) > signExtend(info, dst) ? src : dst;
}

// fp32 ALU core sub_28f700: add = ADDSS(acc, x), min = MINSS(x, acc),
// max = MAXSS(x, acc).
static uint32_t f32Add(uint32_t acc, uint32_t x) { return addss(acc, x); }
static uint32_t f32Min(uint32_t acc, uint32_t x) { return minss(x, acc); }
static uint32_t f32Max(uint32_t acc, uint32_t x) { return maxss(x, acc); }

template <uint32_t (*Core)(uint32_t, uint32_t)>
static uint64_t f32Reduce(const DtypeInfo &, uint64_t dst, uint64_t src) {
  return Core(uint32_t(dst), uint32_t(src));
}

// fp8/bf16/fp16: widen both, fp32 core, narrow RNE with FP8 config 0.
template <uint32_t (*Core)(uint32_t, uint32_t)>
static uint64_t narrowReduce(const DtypeInfo &info, uint64_t dst,
                             uint64_t src) {
  const FloatFormat &f = *info.format;
  uint32_t acc = widenToF32(f, uint32_t(dst));
  uint32_t x = widenToF32(f, uint32_t(src));
  return narrowFromF32(f, Core(acc, x), /*config=*/0);
}

static ElementReducer reducerFor(DtypeKind kind, MemoryReductionOp op) {
  static const ElementReducer kInt[] = {intAdd, intMin, intMax};
  static const ElementReducer kF32[] = {f32Reduce<f32Add>, f32Reduce<f32Min>,
                                        f32Reduce<f32Max>};
  static const ElementReducer kNarrow[] = {narrowReduce<f32Add>,
                                           narrowReduce<f32Min>,
                                           narrowReduce<f32Max>};
  int i = int(op) - 1;
  switch (kind) {
  case DtypeKind::SignedInt:
    return kInt[i];
  case DtypeKind::Float32:
    return kF32[i];
  case DtypeKind::Float:
    return kNarrow[i];
  default:
    return nullptr;
  }
}

Status resolveReducer(int op, int dtype, ElementReducer &reducer,
                      const DtypeInfo *&info) {
  if (op < 0 || op >= kNumMemoryReductionOps)
    return Status::error(ErrorCode::invalidOp, op);
  info = lookupDtype(dtype);
  if (op == int(MemoryReductionOp::copy)) {
    if (!info)
      return Status::error(ErrorCode::unknownDtype, dtype);
    reducer = copyElement;
    return Status::success();
  }
  if (!info || !info->reduces)
    return Status::error(ErrorCode::unsupportedDtype, dtype);
  reducer = reducerFor(info->kind, MemoryReductionOp(op));
  return Status::success();
}

Status castCopyOrAccumulate(int op, void *dst, const void *src, int dtype) {
  return accumulate(op, dst, src, dtype, 1);
}

static Status checkBuffers(const void *dst, const void *src, size_t count) {
  if (count != 0 && (!dst || !src))
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "null buffer with a non-zero element count");
  return Status::success();
}

Status accumulate(int op, void *dst, const void *src, int dtype,
                  size_t count) {
  ElementReducer reducer;
  const DtypeInfo *info;
  if (Status s = resolveReducer(op, dtype, reducer, info))
    return s;
  if (Status s = checkBuffers(dst, src, count))
    return s;
  unsigned bytes = info->bytes;
  auto *d = static_cast<unsigned char *>(dst);
  auto *s = static_cast<const unsigned char *>(src);
  if (op == int(MemoryReductionOp::copy)) {
    std::memmove(d, s, count * bytes);
    return Status::success();
  }
  for (size_t i = 0; i < count; ++i, d += bytes, s += bytes)
    storeBits(d, bytes, reducer(*info, loadBits(d, bytes), loadBits(s, bytes)));
  return Status::success();
}

Status scatterAccumulate(int op, void *dst, size_t dstCount, const void *src,
                         const int64_t *indices, size_t count, int dtype) {
  ElementReducer reducer;
  const DtypeInfo *info;
  if (Status s = resolveReducer(op, dtype, reducer, info))
    return s;
  if (Status s = checkBuffers(dst, src, count))
    return s;
  if (count != 0 && !indices)
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "null index buffer with a non-zero element count");
  for (size_t i = 0; i < count; ++i)
    if (indices[i] < 0 || uint64_t(indices[i]) >= dstCount)
      return Status::error(ErrorCode::indexOutOfRange, indices[i],
                           int64_t(dstCount));
  unsigned bytes = info->bytes;
  auto *d = static_cast<unsigned char *>(dst);
  auto *s = static_cast<const unsigned char *>(src);
  for (size_t i = 0; i < count; ++i, s += bytes) {
    unsigned char *target = d + size_t(indices[i]) * bytes;
    storeBits(target, bytes,
              reducer(*info, loadBits(target, bytes), loadBits(s, bytes)));
  }
  return Status::success();
}

//===-- Collective doReduction (inst_visitor.cpp:5365) --------------------===//

static uint32_t collectiveAdd(uint32_t acc, uint32_t x) { return addss(x, acc); }
static uint32_t collectiveMax(uint32_t acc, uint32_t x) { return maxss(x, acc); }
static uint32_t collectiveMin(uint32_t acc, uint32_t x) { return minss(x, acc); }

Status resolveCollectiveReducer(int aluOp,
                                uint32_t (*&reducer)(uint32_t, uint32_t)) {
  switch (aluOp) {
  case int(AluOpType::add):
    reducer = collectiveAdd;
    return Status::success();
  case int(AluOpType::max):
    reducer = collectiveMax;
    return Status::success();
  case int(AluOpType::min):
    reducer = collectiveMin;
    return Status::success();
  default:
    return Status::error(ErrorCode::unsupportedCollectiveOp, aluOp);
  }
}

Status collectiveReduce(int aluOp, uint32_t *acc, const uint32_t *x,
                        size_t count) {
  uint32_t (*reducer)(uint32_t, uint32_t);
  if (Status s = resolveCollectiveReducer(aluOp, reducer))
    return s;
  if (Status s = checkBuffers(acc, x, count))
    return s;
  for (size_t i = 0; i < count; ++i)
    acc[i] = reducer(acc[i], x[i]);
  return Status::success();
}

} // namespace birsim
