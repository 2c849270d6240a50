//===- Reduce.cpp - cast_copy_or_accumulate and its callers ---------------===//
#include "birsim/Core/Reduce.h"
#include "birsim/Core/Float.h"
#include "Kernels/Kernels.h"
#include "Kernels/Portable.h"
#include "ParallelFor.h"

#include <algorithm>
#include <iterator>
#include <array>
#include <cstring>
#include <memory>
#include <type_traits>

namespace birsim::core {

namespace memory_reduction_of {
constexpr int None = -1;
#define BIRSIM_MEMORY_REDUCTION_OP(Enumerator, Number, ...)                    \
  constexpr int Enumerator = Number;
#include "birsim/Core/MemoryReductionOps.def"
} // namespace memory_reduction_of

/// AluOpTypes.def's MemoryReduction column, by AluOpType.
static constexpr int kMemoryReductionOfAluOp[] = {
#define BIRSIM_ALU_OP_TYPE(Enumerator, Number, MemoryReduction)                \
  memory_reduction_of::MemoryReduction,
#include "birsim/Core/AluOpTypes.def"
};

Status aluOpToMemoryReduction(int aluOp, MemoryReductionOp &out) {
  if (aluOp < 0 || aluOp >= kNumAluOpTypes ||
      kMemoryReductionOfAluOp[aluOp] == memory_reduction_of::None)
    return Status::error(ErrorCode::unmappedAluOp, aluOp);
  out = MemoryReductionOp(kMemoryReductionOfAluOp[aluOp]);
  return Status::success();
}


//===-- Element operations (§3) -------------------------------------------===//
//
// Each operation works on the raw bits of one element type; Reducer wraps it
// into an element function and a loop the compiler can inline it into.

// int32/int64: add wraps, min/max are signed (pminsd/pmaxsd, cmov).
template <typename Signed> struct IntegerOps {
  using Bits = std::make_unsigned_t<Signed>;
  static Bits add(Bits dst, Bits src) { return Bits(dst + src); }
  static Bits min(Bits dst, Bits src) {
    return Signed(src) < Signed(dst) ? src : dst;
  }
  static Bits max(Bits dst, Bits src) {
    return Signed(src) > Signed(dst) ? src : dst;
  }
};

// fp32 ALU core sub_28f700: add = ADDSS(acc, x), min = MINSS(x, acc),
// max = MAXSS(x, acc).
struct Float32Ops {
  using Bits = uint32_t;
  static uint32_t add(uint32_t acc, uint32_t x) { return addss(acc, x); }
  static uint32_t min(uint32_t acc, uint32_t x) { return minss(x, acc); }
  static uint32_t max(uint32_t acc, uint32_t x) { return maxss(x, acc); }
};

/// `fn(i)` for every i < N, computed once per instantiation on first use
/// (thread-safe static initialization).
template <typename T, size_t N, typename Fn>
static std::array<T, N> tabulate(Fn fn) {
  std::array<T, N> table{};
  for (size_t i = 0; i < N; ++i)
    table[i] = T(fn(i));
  return table;
}

/// Every value of a narrow float format widened to fp32, built once.
template <Dtype D, typename Bits> static const uint32_t *widenedValues() {
  static const auto entries = tabulate<uint32_t, size_t(1) << 8 * sizeof(Bits)>(
      [](size_t i) { return widenToF32(*dtypeInfo(D).format, uint32_t(i)); });
  return entries.data();
}

// fp8/bf16/fp16: widen both, fp32 core, narrow RNE with FP8 config 0.
template <Dtype D, typename Bits, uint32_t (*Core)(uint32_t, uint32_t)>
static Bits narrowReduce(Bits dst, Bits src) {
  const uint32_t *widen = widenedValues<D, Bits>();
  return Bits(narrowFromF32(*dtypeInfo(D).format, Core(widen[dst], widen[src]),
                            /*config=*/0));
}

// fp8: all 65,536 (dst, src) pairs of narrowReduce, tabulated once per
// (format, op).
// The 4 bytes past the end let a vector gather read 32 bits at any entry.
template <Dtype D, uint32_t (*Core)(uint32_t, uint32_t)>
static const uint8_t *fp8Table() {
  static const auto table = tabulate<uint8_t, 65536 + 4>([](size_t i) {
    return i < 65536 ? narrowReduce<D, uint8_t, Core>(uint8_t(i >> 8),
                                                      uint8_t(i))
                     : 0;
  });
  return table.data();
}

template <Dtype D, uint32_t (*Core)(uint32_t, uint32_t)>
static uint8_t fp8TableReduce(uint8_t dst, uint8_t src) {
  return fp8Table<D, Core>()[unsigned(dst) << 8 | src];
}

template <typename Bits, Bits (*Op)(Bits, Bits)>
static uint64_t elementOf(uint64_t dst, uint64_t src) {
  return Op(Bits(dst), Bits(src));
}

/// out[i] = Op(acc[i], x[i]), each element read before it is written (so
/// `out` may be `x`); InPlace: `out` is `acc`, a loop over two buffers,
/// which the compiler vectorizes.
template <typename Bits, Bits (*Op)(Bits, Bits), bool InPlace>
static void elementLoop(void *out, const void *acc, const void *x,
                        size_t count) {
  auto *o = static_cast<unsigned char *>(out);
  auto *a = InPlace ? o : static_cast<const unsigned char *>(acc);
  auto *s = static_cast<const unsigned char *>(x);
  for (size_t i = 0; i < count; ++i) {
    Bits p, q;
    std::memcpy(&p, a + i * sizeof(Bits), sizeof(Bits));
    std::memcpy(&q, s + i * sizeof(Bits), sizeof(Bits));
    p = Op(p, q);
    std::memcpy(o + i * sizeof(Bits), &p, sizeof(Bits));
  }
}

template <typename Bits, Bits (*Op)(Bits, Bits)>
static void bulkOf(void *dst, const void *src, size_t count) {
  elementLoop<Bits, Op, true>(dst, dst, src, count);
}

/// out[i] = Op(acc[i], x[i]), in place where `out` is `acc`.
template <typename Bits, Bits (*Op)(Bits, Bits)>
static void threeOperandLoop(void *out, const void *acc, const void *x,
                             size_t count) {
  if (out == acc)
    elementLoop<Bits, Op, true>(out, acc, x, count);
  else
    elementLoop<Bits, Op, false>(out, acc, x, count);
}

/// add, min, max of one dtype (REDUCE_JT, §3); all null when it does not
/// reduce.
struct ReducerRow {
  Reducer ops[3];
};

template <typename Bits, Bits (*Add)(Bits, Bits), Bits (*Min)(Bits, Bits),
          Bits (*Max)(Bits, Bits)>
constexpr ReducerRow rowOf(const uint8_t *(*addTable)() = nullptr) {
  return {{{elementOf<Bits, Add>, bulkOf<Bits, Add>, addTable},
           {elementOf<Bits, Min>, bulkOf<Bits, Min>},
           {elementOf<Bits, Max>, bulkOf<Bits, Max>}}};
}

/// The row of dtype D, from its Reduction column in Dtypes.def.
template <Reduction R, Dtype D> constexpr ReducerRow reducersOf() {
  using F = Float32Ops;
  if constexpr (R == Reduction::Fp8)
    return rowOf<uint8_t, fp8TableReduce<D, F::add>, fp8TableReduce<D, F::min>,
                 fp8TableReduce<D, F::max>>(fp8Table<D, F::add>);
  else if constexpr (R == Reduction::Narrow16)
    return rowOf<uint16_t, narrowReduce<D, uint16_t, F::add>,
                 narrowReduce<D, uint16_t, F::min>,
                 narrowReduce<D, uint16_t, F::max>>();
  else if constexpr (R == Reduction::Int32)
    return rowOf<uint32_t, IntegerOps<int32_t>::add, IntegerOps<int32_t>::min,
                 IntegerOps<int32_t>::max>();
  else if constexpr (R == Reduction::Int64)
    return rowOf<uint64_t, IntegerOps<int64_t>::add, IntegerOps<int64_t>::min,
                 IntegerOps<int64_t>::max>();
  else if constexpr (R == Reduction::Float32)
    return rowOf<uint32_t, F::add, F::min, F::max>();
  else
    return {};
}

static const ReducerRow kReducerRows[kNumDtypes] = {
#define BIRSIM_DTYPE(E, N, Name, B, K, F, Red, ...)                            \
  reducersOf<Reduction::Red, Dtype::E>(),
#include "birsim/Core/Dtypes.def"
};

static uint64_t copyElement(uint64_t, uint64_t src) { return src; }

//===-- The portable path's reductions (Portable.h) -----------------------===//

static unsigned reducerIndexOf(F32Op op) {
  return unsigned(std::find(std::begin(kKernelF32Ops), std::end(kKernelF32Ops),
                            op) -
                  std::begin(kKernelF32Ops));
}

/// The reducer of the dtype with `format` and `bytes` for kernel op `op`,
/// or null for a format no dtype has.
static const Reducer *narrowReducerOf(const FloatFormat &format,
                                      unsigned bytes, F32Op op) {
  for (int d = 0; d < kNumDtypes; ++d) {
    const DtypeInfo &info = dtypeInfo(Dtype(d));
    if (info.format == &format && info.bytes == bytes && info.reduces())
      return &kReducerRows[d].ops[reducerIndexOf(op)];
  }
  return nullptr;
}

/// A dtype's reducer; any other format widened, reduced by the fp32 row's
/// element function and narrowed with FP8 config 0 (§3), as narrowReduce.
void portable::reduceNarrow(const FloatFormat &format, unsigned bytes,
                            F32Op op, void *acc, const void *x, size_t count) {
  if (const Reducer *reducer = narrowReducerOf(format, bytes, op))
    return reducer->bulk(acc, x, count);
  uint64_t (*f32)(uint64_t, uint64_t) =
      kReducerRows[int(Dtype::float32)].ops[reducerIndexOf(op)].element;
  auto *a = static_cast<char *>(acc);
  auto *b = static_cast<const char *>(x);
  for (size_t i = 0; i < count; ++i) {
    uint32_t sum = uint32_t(
        f32(widenToF32(format, uint32_t(loadBits(a + i * bytes, bytes))),
            widenToF32(format, uint32_t(loadBits(b + i * bytes, bytes)))));
    storeBits(a + i * bytes, bytes, narrowFromF32(format, sum, /*config=*/0));
  }
}

/// Widen `acc`, the fp32 row's element function with fp32 `x`, narrow
/// under `config` (the DMA's accumulate, §8).
void portable::reduceNarrowF32(const FloatFormat &format, unsigned bytes,
                               F32Op op, unsigned config, void *acc,
                               const void *x, size_t count) {
  uint64_t (*f32)(uint64_t, uint64_t) =
      kReducerRows[int(Dtype::float32)].ops[reducerIndexOf(op)].element;
  auto *a = static_cast<char *>(acc);
  auto *b = static_cast<const char *>(x);
  for (size_t i = 0; i < count; ++i) {
    uint32_t sum = uint32_t(
        f32(widenToF32(format, uint32_t(loadBits(a + i * bytes, bytes))),
            loadBits(b + 4 * i, 4)));
    storeBits(a + i * bytes, bytes, narrowFromF32(format, sum, config));
  }
}

template <typename Signed>
static void integerLoop(MemoryReductionOp op, void *out, const void *acc,
                        const void *x, size_t count) {
  using Ops = IntegerOps<Signed>;
  using Bits = typename Ops::Bits;
  if (op == MemoryReductionOp::add)
    threeOperandLoop<Bits, Ops::add>(out, acc, x, count);
  else if (op == MemoryReductionOp::min)
    threeOperandLoop<Bits, Ops::min>(out, acc, x, count);
  else
    threeOperandLoop<Bits, Ops::max>(out, acc, x, count);
}

void portable::reduceInteger(unsigned bytes, MemoryReductionOp op, void *out,
                             const void *acc, const void *x, size_t count) {
  if (bytes == 4)
    integerLoop<int32_t>(op, out, acc, x, count);
  else
    integerLoop<int64_t>(op, out, acc, x, count);
}

/// Each block's accumulator bytes kept, then the (acc, x, sum) triples
/// counted.
uint64_t portable::fp8AddCounted(const FloatFormat &format, void *acc,
                                 const void *x, size_t count) {
  const Reducer *table = narrowReducerOf(format, 1, F32Op::kernelAdd);
  constexpr size_t kBlock = 4096;
  uint8_t saved[kBlock];
  uint64_t overflows = 0;
  for (size_t b = 0; b < count; b += kBlock) {
    size_t m = std::min(kBlock, count - b);
    auto *a = static_cast<uint8_t *>(acc) + b;
    auto *s = static_cast<const uint8_t *>(x) + b;
    std::memcpy(saved, a, m);
    if (table)
      table->bulk(a, s, m);
    else
      portable::reduceNarrow(format, 1, F32Op::kernelAdd, a, s, m);
    const uint8_t *sBefore = s == a ? saved : s; // in place: x was acc
    overflows += countFp8AddOverflows(format, saved, sBefore, a, m);
  }
  return overflows;
}

Status resolveReducer(int op, int dtype, Reducer &reducer,
                      const DtypeInfo *&info) {
  if (op < 0 || op >= kNumMemoryReductionOps)
    return Status::error(ErrorCode::invalidOp, op);
  info = lookupDtype(dtype);
  if (op == int(MemoryReductionOp::copy)) {
    if (!info)
      return Status::error(ErrorCode::unknownDtype, dtype);
    reducer = {copyElement, nullptr}; // bulk copy is a memmove
    return Status::success();
  }
  if (!info || !info->reduces())
    return Status::error(ErrorCode::unsupportedDtype, dtype);
  reducer = kReducerRows[dtype].ops[op - 1];
  return Status::success();
}

Status castCopyOrAccumulate(int op, void *dst, const void *src, int dtype,
                            FidelityCounts *counts) {
  return accumulate(op, dst, src, dtype, 1, counts);
}

/// The kernel's checks, in its order, then the buffers' (§3).
static Status resolveAndCheck(int op, int dtype, const void *dst,
                              const void *src, size_t count, Reducer &reducer,
                              const DtypeInfo *&info) {
  if (Status s = resolveReducer(op, dtype, reducer, info))
    return s;
  if (Status s = checkBuffers(dst, src, count, info->bytes))
    return s;
  return checkNoOverlap(dst, count * info->bytes, src, count * info->bytes,
                        /*exactAllowed=*/true);
}

Status accumulate(int op, void *dst, const void *src, int dtype, size_t count,
                  FidelityCounts *counts) {
  return accumulateInto(op, dst, dst, src, dtype, count, counts);
}

/// Elements per step of an out-of-place accumulate: dst's step is copied
/// into out and reduced there while it is in the first-level caches.
static constexpr size_t kIntoStepBytes = size_t(1) << 15;

Status accumulateInto(int op, void *out, const void *dst, const void *src,
                      int dtype, size_t count, FidelityCounts *counts) {
  Reducer reducer;
  const DtypeInfo *info;
  if (Status s = resolveAndCheck(op, dtype, out, src, count, reducer, info))
    return s;
  if (Status s = checkBuffers(out, dst, count, info->bytes))
    return s;
  if (Status s = checkNoOverlap(out, count * info->bytes, dst,
                                count * info->bytes, /*exactAllowed=*/true))
    return s;
  if (op == int(MemoryReductionOp::copy)) {
    if (count) // null buffers are allowed with a zero count
      std::memmove(out, src, count * info->bytes);
    return Status::success();
  }
  // add/min/max: ADDSS(acc, x) / MINSS(x, acc) / MAXSS(x, acc) (§3).
  F32Op f32Op = kKernelF32Ops[op - 1];
  const PathKernels &kernels = activeKernels();
  unsigned bytes = info->bytes;
  // Fidelity counts (docs/Fidelity.md): only fp8 add has events, counted as
  // the kernel adds.
  bool countFp8 = counts && reducer.table;
  // The fp32 and integer kernels write out[i] = acc[i] op x[i] themselves;
  // the narrow floats reduce in place.
  bool threeOperand = info->reduction == Reduction::Float32 ||
                      info->reduction == Reduction::Int32 ||
                      info->reduction == Reduction::Int64;
  auto reduceInPlace = [&](char *d, const char *s, size_t n,
                           uint64_t &overflows) {
    if (countFp8)
      overflows += kernels.fp8AddCounted(*info->format, d, s, n);
    else
      kernels.reduceNarrow(*info->format, bytes, f32Op, d, s, n);
  };
  parallelFor(count, kMinElementsPerThread, [&](size_t begin, size_t end) {
    auto *o = static_cast<char *>(out) + begin * bytes;
    auto *d = static_cast<const char *>(dst) + begin * bytes;
    auto *s = static_cast<const char *>(src) + begin * bytes;
    size_t n = end - begin;
    FidelityCounts chunk;
    chunk.elements[int(FidelityFamily::reduce)] = n;
    uint64_t &overflows =
        chunk.count[int(FidelityEvent::reduce_sim_inf_device_saturates)];
    if (threeOperand && info->reduction == Reduction::Float32) {
      kernels.reduceF32(f32Op, o, d, s, n);
    } else if (threeOperand) {
      kernels.reduceInteger(bytes, MemoryReductionOp(op), o, d, s, n);
    } else if (o == d) {
      reduceInPlace(o, s, n, overflows);
    } else {
      // out = dst op src: each step of dst copied into out, then reduced
      // in place; a src that is out itself is saved first (D18).
      size_t step = kIntoStepBytes / bytes;
      std::unique_ptr<char[]> saved(o == s ? new char[kIntoStepBytes]
                                           : nullptr);
      for (size_t i = 0; i < n; i += step) {
        size_t m = std::min(step, n - i);
        const char *x = s + i * bytes;
        if (saved) {
          std::memcpy(saved.get(), x, m * bytes);
          x = saved.get();
        }
        std::memcpy(o + i * bytes, d + i * bytes, m * bytes);
        reduceInPlace(o + i * bytes, x, m, overflows);
      }
    }
    if (countFp8)
      counts->addLocked(chunk);
  });
  return Status::success();
}

Status checkScatter(const void *dst, size_t dstCount, unsigned dstBytes,
                    const void *src, unsigned srcBytes, const int64_t *indices,
                    size_t count) {
  if (count != 0 && !indices)
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "null index buffer with a non-zero element count");
  if (Status s = checkCount(count, sizeof(int64_t)))
    return s;
  if (Status s = checkCount(dstCount, dstBytes))
    return s;
  if (Status s = checkNoOverlap(dst, dstCount * dstBytes, src, count * srcBytes,
                                false))
    return s;
  if (Status s = checkNoOverlap(dst, dstCount * dstBytes, indices,
                                count * sizeof(int64_t), false))
    return s;
  for (size_t i = 0; i < count; ++i)
    if (indices[i] < 0 || uint64_t(indices[i]) >= dstCount)
      return Status::error(ErrorCode::indexOutOfRange, indices[i],
                           int64_t(dstCount));
  return Status::success();
}

Status scatterAccumulate(int op, void *dst, size_t dstCount, const void *src,
                         const int64_t *indices, size_t count, int dtype,
                         FidelityCounts *counts) {
  Reducer reducer;
  const DtypeInfo *info;
  if (Status s = resolveReducer(op, dtype, reducer, info))
    return s;
  // dst holds dstCount elements, src count: each buffer against its own
  // (resolveAndCheck's count-long dst saw an overlap with a source past a
  // smaller destination); checkScatter refuses any overlap.
  if (Status s = checkBuffers(src, src, count, info->bytes))
    return s;
  if (Status s = checkBuffers(dst, dst, dstCount, info->bytes))
    return s;
  if (Status s = checkScatter(dst, dstCount, info->bytes, src, info->bytes,
                              indices, count))
    return s;
  unsigned bytes = info->bytes;
  auto *d = static_cast<unsigned char *>(dst);
  auto *s = static_cast<const unsigned char *>(src);
  // Fidelity counts: fp8 add only, element i against dst[indices[i]] as it
  // is then (docs/Fidelity.md).
  bool countFp8 = counts && reducer.table;
  uint64_t overflows = 0;
  for (size_t i = 0; i < count; ++i, s += bytes) {
    unsigned char *target = d + size_t(indices[i]) * bytes;
    uint64_t before = loadBits(target, bytes);
    uint64_t after = reducer.element(before, loadBits(s, bytes));
    storeBits(target, bytes, after);
    if (countFp8) {
      uint8_t acc = uint8_t(before), sum = uint8_t(after);
      overflows += countFp8AddOverflows(*info->format, &acc, s, &sum, 1);
    }
  }
  if (countFp8) {
    counts->elements[int(FidelityFamily::reduce)] += count;
    counts->count[int(FidelityEvent::reduce_sim_inf_device_saturates)] +=
        overflows;
  }
  return Status::success();
}

//===-- Collective doReduction (inst_visitor.cpp:5365) --------------------===//

static uint32_t collectiveAdd(uint32_t acc, uint32_t x) {
  return addss(x, acc);
}
static uint32_t collectiveMax(uint32_t acc, uint32_t x) {
  return maxss(x, acc);
}
static uint32_t collectiveMin(uint32_t acc, uint32_t x) {
  return minss(x, acc);
}

/// The ALU ops the collective reducer maps (add = ADDSS(x, acc), max =
/// MAXSS(x, acc), min = MINSS(x, acc)): scalar and vector forms, one row.
struct CollectiveReducer {
  int aluOp;
  uint32_t (*scalar)(uint32_t, uint32_t);
  F32Op vector;
};
static const CollectiveReducer kCollectiveReducers[] = {
    {int(AluOpType::add), collectiveAdd, F32Op::collectiveAdd},
    {int(AluOpType::max), collectiveMax, F32Op::kernelMax},
    {int(AluOpType::min), collectiveMin, F32Op::kernelMin},
};

static Status findCollectiveReducer(int aluOp, const CollectiveReducer *&row) {
  for (const CollectiveReducer &r : kCollectiveReducers)
    if (r.aluOp == aluOp) {
      row = &r;
      return Status::success();
    }
  return Status::error(ErrorCode::unsupportedCollectiveOp, aluOp);
}

Status resolveCollectiveReducer(int aluOp,
                                uint32_t (*&reducer)(uint32_t, uint32_t)) {
  const CollectiveReducer *row;
  if (Status s = findCollectiveReducer(aluOp, row))
    return s;
  reducer = row->scalar;
  return Status::success();
}

Status collectiveReduce(int aluOp, void *acc, const void *x, size_t count) {
  const CollectiveReducer *row;
  if (Status s = findCollectiveReducer(aluOp, row))
    return s;
  if (Status s = checkBuffers(acc, x, count, 4))
    return s;
  if (Status s = checkNoOverlap(acc, 4 * count, x, 4 * count, true))
    return s;
  F32Op f32Op = row->vector;
  const PathKernels &kernels = activeKernels();
  parallelFor(count, kMinElementsPerThread, [&](size_t begin, size_t end) {
    auto *a = static_cast<unsigned char *>(acc) + 4 * begin;
    auto *b = static_cast<const unsigned char *>(x) + 4 * begin;
    kernels.reduceF32(f32Op, a, a, b, end - begin);
  });
  return Status::success();
}

/// The fp32 operations by F32Op (Kernels.h): the kernel's (Float32Ops) and
/// the collective reducer's add.
void portable::reduceF32(F32Op op, void *out, const void *acc, const void *x,
                         size_t count) {
  switch (op) {
  case F32Op::kernelAdd:
    return threeOperandLoop<uint32_t, Float32Ops::add>(out, acc, x, count);
  case F32Op::kernelMin:
    return threeOperandLoop<uint32_t, Float32Ops::min>(out, acc, x, count);
  case F32Op::kernelMax:
    return threeOperandLoop<uint32_t, Float32Ops::max>(out, acc, x, count);
  case F32Op::collectiveAdd:
    return threeOperandLoop<uint32_t, collectiveAdd>(out, acc, x, count);
  }
}

} // namespace birsim::core
