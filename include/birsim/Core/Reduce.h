//===- Reduce.h - cast_copy_or_accumulate and its callers -------*- C++ -*-===//
//
// The simulator's element kernel birsim::cast_copy_or_accumulate, its op
// converter AluOpType2MemoryReduction and the collective doReduction
// (sim-core-arithmetic page; docs/Semantics.md sections 1-3).
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CORE_REDUCE_H
#define BIRSIM_CORE_REDUCE_H

#include "birsim/Core/Dtype.h"
#include "birsim/Core/Enums.h"
#include "birsim/Core/Status.h"
#include "birsim/Core/Fidelity.h"

#include <cstddef>
#include <cstdint>

namespace birsim::core {

/// AluOpType2MemoryReduction [page]: AluOpTypes.def's MemoryReduction
/// column; any other value is an error (inst_visitor.cpp:363).
Status aluOpToMemoryReduction(int aluOp, MemoryReductionOp &out);

/// A resolved (op, dtype) pair: `dst = reduce(dst, src)` on one element's
/// raw little-endian bits (held in the low bytes of a uint64_t), and the same
/// over `count` contiguous elements.
struct Reducer {
  uint64_t (*element)(uint64_t dst, uint64_t src);
  void (*bulk)(void *dst, const void *src, size_t count);
  /// fp8 add: every (dst << 8 | src) result, 65,536 entries + 4 bytes of
  /// padding; null otherwise.
  const uint8_t *(*table)() = nullptr;
};

/// Resolves (op, dtype) with the kernel's checks (§3), in its order: copy
/// admits every bir::Dtype ("Unknown dtype"), add/min/max the reducing ones
/// ("cast_accumulate: unsupported dtype <name>"), other ops are invalid.
Status resolveReducer(int op, int dtype, Reducer &reducer,
                      const DtypeInfo *&info);

/// birsim::cast_copy_or_accumulate(op, dst, src, dtype) (§3). On error dst
/// is untouched.
Status castCopyOrAccumulate(int op, void *dst, const void *src, int dtype,
                            FidelityCounts *counts = nullptr);

/// `count` contiguous elements; validates before writing anything. A
/// non-null `counts` receives the fidelity counts (docs/Fidelity.md).
Status accumulate(int op, void *dst, const void *src, int dtype, size_t count,
                  FidelityCounts *counts = nullptr);

/// out = dst op src over `count` contiguous elements (copy: out = src),
/// with accumulate's numerics and checks; `out` may be `dst` or `src`
/// exactly, and overlaps neither otherwise (D18); `dst` and `src` are only
/// read. Validates before writing anything.
Status accumulateInto(int op, void *out, const void *dst, const void *src,
                      int dtype, size_t count,
                      FidelityCounts *counts = nullptr);

/// A scatter's buffers after its elements' (checkBuffers): the index
/// buffer, the counts, no overlap of `dst` with `src` or `indices`, and
/// every index below dstCount.
Status checkScatter(const void *dst, size_t dstCount, unsigned dstBytes,
                    const void *src, unsigned srcBytes, const int64_t *indices,
                    size_t count);

/// dst[indices[i]] = reduce(dst[indices[i]], src[i]) in order; every index
/// is checked against dstCount before any write.
Status scatterAccumulate(int op, void *dst, size_t dstCount, const void *src,
                         const int64_t *indices, size_t count, int dtype,
                         FidelityCounts *counts = nullptr);

/// The collective doReduction on fp32 bits [page]: add = ADDSS(x, acc),
/// max = MAXSS(x, acc), min = MINSS(x, acc); any other AluOpType is an
/// error (inst_visitor.cpp:5365).
Status resolveCollectiveReducer(int aluOp,
                                uint32_t (*&reducer)(uint32_t acc, uint32_t x));
/// `count` fp32 elements (raw bits, any alignment).
Status collectiveReduce(int aluOp, void *acc, const void *x, size_t count);


} // namespace birsim::core

#endif // BIRSIM_CORE_REDUCE_H
