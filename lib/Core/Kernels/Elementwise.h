//===- Elementwise.h - the elementwise loops of every vector path --*- C++ -*-===//
//
// Private to lib/Core/Kernels, over a path's vocabulary `X`
// (Vocabulary.h); included, through KernelTable.h, inside each path's
// target region after LaneArithmetic.h.
//
// The fp32, integer and narrow-float reductions and the casts (§2-§4), a
// vector step at a time (vectorSteps): whole steps, then on a masked-tail
// path one masked step, else the portable core functions for the elements
// left, so no access passes a buffer's end. Each lane computes what the
// portable function computes.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_ELEMENTWISE_H
#define BIRSIM_LIB_CORE_KERNELS_ELEMENTWISE_H

#include "VectorBuiltins.h"

#ifndef BIRSIM_LIB_CORE_KERNELS_LANEARITHMETIC_H
#error "include LaneArithmetic.h first"
#endif

namespace birsim::core::kernel {

/// Runs step(i, part) for i = 0, N, 2N, ... below `count`: whole steps,
/// then, on a masked-tail path, one step over the elements left. Returns
/// the elements the steps covered; the caller's portable loop takes the
/// rest.
template <class X, unsigned N, typename Step>
size_t vectorSteps(size_t count, Step &&step) {
  size_t i = 0;
  for (; i + N <= count; i += N)
    step(i, X::template whole<N>());
  if constexpr (X::kMaskedTails) {
    if (i < count)
      step(i, X::template first<N>(count - i));
    return count;
  }
  return i;
}

/// Dtype.h's element access, for the elements of at most 4 bytes here.
inline uint32_t loadScalar(const char *p, unsigned bytes) {
  return uint32_t(loadBits(p, bytes));
}

template <F32Op Op> uint32_t applyScalar(uint32_t acc, uint32_t x) {
  return applyOp<Op, uint32_t, addss, minss, maxss>(acc, x);
}

//===-- fp32 and integers (§2, §3) ----------------------------------------===//

/// out[i] = op(acc[i], x[i]) on whole vectors of `Bytes`-wide elements
/// (`out` is `acc`, or apart from both); returns the elements the vector
/// steps covered.
template <class X, unsigned Bytes, typename VectorOp>
size_t vectorOpSteps(char *out, const char *acc, const char *x, size_t count,
                     VectorOp op) {
  return vectorSteps<X, X::kVectorBytes / Bytes>(count, [&](size_t i,
                                                            auto part) {
    const char *a = acc + i * Bytes;
    X::prefetch(a, x + i * Bytes);
    X::template store<Bytes>(out + i * Bytes, part,
                             op(X::template load<Bytes>(part, a),
                                X::template load<Bytes>(part, x + i * Bytes)));
  });
}

template <class X, F32Op Op>
BIRSIM_KERNEL_LOOP void reduceF32Loop(char *out, const char *acc, const char *x,
                                      size_t count) {
  size_t i = vectorOpSteps<X, 4>(out, acc, x, count, [](auto a, auto b) {
    return applyLanes<Op, typename X::template Lanes<32>>(a, b);
  });
  for (; i < count; ++i)
    storeBits(out + 4 * i, 4,
                applyScalar<Op>(loadScalar(acc + 4 * i, 4),
                                loadScalar(x + 4 * i, 4)));
}

/// int32/int64 add (wrapping), min, max (signed; equal values are the same
/// bits, so the order of MIN/MAX's operands does not matter) (§3).
template <class X, unsigned Bytes, MemoryReductionOp Op>
BIRSIM_KERNEL_LOOP void integerLoop(char *out, const char *acc, const char *x,
                                    size_t count) {
  size_t i = vectorOpSteps<X, Bytes>(out, acc, x, count, [](auto a, auto b) {
    return X::template integerOp<Bytes, Op>(a, b);
  });
  using Bits = std::conditional_t<Bytes == 4, int32_t, int64_t>;
  using Unsigned = std::make_unsigned_t<Bits>;
  BIRSIM_LOOP_HINT(vectorize(disable)) // less than one vector
  for (; i < count; ++i) {
    Bits a, b;
    std::memcpy(&a, acc + i * Bytes, Bytes);
    std::memcpy(&b, x + i * Bytes, Bytes);
    Bits r = Op == MemoryReductionOp::add   ? Bits(Unsigned(a) + Unsigned(b))
             : Op == MemoryReductionOp::min ? std::min(a, b)
                                            : std::max(a, b);
    std::memcpy(out + i * Bytes, &r, Bytes);
  }
}

//===-- Narrow float formats (§3, §4) -------------------------------------===//

/// The elements [i, count) of a narrow reduction, by the portable path:
/// `x` of the format (FP8 config 0, §3) or, XIsF32, fp32 (the DMA's, §8,
/// under `config`).
template <F32Op Op, bool XIsF32 = false>
void narrowReduceTail(const FloatFormat &f, unsigned bytes, char *acc,
                      const char *x, size_t i, size_t count,
                      unsigned config = 0) {
  for (; i < count; ++i) {
    char *a = acc + i * bytes;
    uint32_t b = XIsF32 ? loadScalar(x + 4 * i, 4)
                        : widenToF32(f, loadScalar(x + i * bytes, bytes));
    uint32_t r = applyScalar<Op>(widenToF32(f, loadScalar(a, bytes)), b);
    storeBits(a, bytes, narrowFromF32(f, r, config));
  }
}

/// min/max of a narrow IEEE format on its codes (MinMaxCodeLanes).
template <class X, bool IsMin, unsigned Bytes>
BIRSIM_KERNEL_LOOP void minMaxCodesLoop(const FloatFormat &f, char *acc,
                                        const char *x, size_t count) {
  MinMaxCodeLanes<typename X::template Lanes<8 * Bytes>, IsMin> minMax(f);
  size_t i = vectorOpSteps<X, Bytes>(acc, acc, x, count, minMax);
  constexpr F32Op op = IsMin ? F32Op::kernelMin : F32Op::kernelMax;
  narrowReduceTail<op>(f, Bytes, acc, x, i, count);
}

/// One vector of bf16 lanes each: their fp32 sums rounded to bf16
/// (bf16Round), in the vocabulary's unpack order, which its pack undoes.
template <class X> auto bf16Sums(typename X::template Lanes<16>::I a,
                                 typename X::template Lanes<16>::I b) {
  using L32 = typename X::template Lanes<32>;
  auto zero = L32::zero();
  auto lo = L32::addF(X::unpackLow16(zero, a), X::unpackLow16(zero, b));
  auto hi = L32::addF(X::unpackHigh16(zero, a), X::unpackHigh16(zero, b));
  return X::packUnsigned32(bf16Round<L32>(lo), bf16Round<L32>(hi));
}

/// bf16 add: bf16 is fp32's top half, so widening is a shift and RNE
/// narrowing adds 0x7FFF plus the kept lsb (a carry runs up to Inf); every
/// NaN result is 0x7FC0 (§4), so which NaN the adder returns does not
/// matter. fp16 add: every fp16 value is exact in fp32, and a NaN sum
/// takes its sign from `acc` or the sum (f16AddResult), so neither
/// VCVTPH2PS quieting a signalling NaN nor the adder's source order changes
/// a result; VCVTPS2PH rounds the others to nearest even.
template <class X, bool Bf16>
BIRSIM_KERNEL_LOOP void halfAddLoop(char *acc, const char *x, size_t count) {
  size_t i = vectorOpSteps<X, 2>(acc, acc, x, count, [](auto a, auto b) {
    if constexpr (Bf16)
      return bf16Sums<X>(a, b);
    else
      return f16AddResult<typename X::template Lanes<16>>(a, X::f16Sums(a, b));
  });
  Dtype dtype = Bf16 ? Dtype::bfloat16 : Dtype::float16;
  narrowReduceTail<F32Op::kernelAdd>(*dtypeInfo(dtype).format, 2, acc, x, i,
                                     count);
}

/// fp8 add (IEEE fp8 formats, config 0) through fp16. Every fp8 value times
/// 2^(bias - 15) is an fp16 whose bits are the fp8's fields shifted (the
/// exponent field kept, subnormals included), so VCVTPH2PS widens it
/// exactly; scaling both operands by a power of two scales their fp32 sum
/// exactly (no fp32 overflow or subnormal is reachable). The sum goes back
/// to fp16 truncated: the sum of two values of m + 1 <= 5 significant bits
/// has every bit that decides a round to nearest even onto m bits within
/// fp16's 11, or none at all (the smaller operand lies wholly below, and
/// the larger is the result), so that one rounding, integer work on the
/// fp16 bits with the carry running up to Inf, gives the core's result
/// (every pair of every format is tested). Every NaN result is the format's
/// one NaN code (§4), so no NaN's payload, sign or source order matters.
/// Only for fp8AddFitsHalf formats. With Count, returns
/// countFp8AddOverflows of the elements.
template <class X, bool Count, bool TopByte>
BIRSIM_KERNEL_LOOP uint64_t fp8AddSteps(const FloatFormat &f, char *acc,
                                        const char *x, size_t count) {
  using Step = typename X::template Fp8Add<Count, TopByte>;
  Step add(f);
  uint64_t overflows = 0;
  size_t i = vectorSteps<X, Step::kElements>(count, [&](size_t i, auto part) {
    X::prefetch(acc + i, x + i);
    overflows += add(part, acc + i, x + i);
  });
  for (; i < count; ++i) {
    uint8_t before = uint8_t(acc[i]), operand = uint8_t(x[i]);
    uint8_t sum = uint8_t(narrowFromF32(
        f, addss(widenToF32(f, before), widenToF32(f, operand)), 0));
    acc[i] = char(sum);
    if constexpr (Count)
      overflows += countFp8AddOverflows(f, &before, &operand, &sum, 1);
  }
  return overflows;
}
/// TopByte: E5M2, fp16's top byte, needs no shift (and frees the registers
/// of its constants).
template <class X, bool Count>
uint64_t fp8AddLoop(const FloatFormat &f, char *acc, const char *x,
                    size_t count) {
  return fp8IsHalfTopByte(f) ? fp8AddSteps<X, Count, true>(f, acc, x, count)
                             : fp8AddSteps<X, Count, false>(f, acc, x, count);
}

/// Widen both, fp32 op, narrow with FP8 config 0: narrowReduceLoopOf's
/// general loop. XIsF32: `x` is fp32 and the narrowing takes `config`, the
/// DMA's accumulate of fp32 into a narrow float (§8) in one pass; Bf16
/// (with it): bfloat16 is fp32's top half, so widening is a shift and the
/// narrowing bf16Round (every NaN 0x7FC0, a carry running up to Inf; no
/// FP8 config applies).
template <class X, F32Op Op, unsigned Bytes, bool XIsF32 = false,
          bool Bf16 = false>
BIRSIM_KERNEL_LOOP void generalNarrowReduceLoop(const FloatFormat &f, char *acc,
                                                const char *x, size_t count,
                                                unsigned config = 0) {
  using V = typename X::template Lanes<32>;
  static_assert(!Bf16 || (XIsF32 && Bytes == 2), "the DMA's bf16 form");
  constexpr unsigned kXBytes = XIsF32 ? 4 : Bytes;
  WidenLanes<V> widenGeneral(f);
  NarrowLanes<V> narrowGeneral(f, config);
  auto widen = [&](auto code) {
    if constexpr (Bf16)
      return V::shl(code, 16);
    else
      return widenGeneral(code);
  };
  auto narrow = [&](auto value) {
    if constexpr (Bf16)
      return bf16Round<V>(value);
    else
      return narrowGeneral(value);
  };
  size_t i = vectorSteps<X, X::kVectorBytes / 4>(count, [&](size_t i,
                                                            auto part) {
    char *a = acc + i * Bytes;
    const char *b = x + i * kXBytes;
    X::prefetch(a, b);
    auto y = [&] {
      if constexpr (XIsF32)
        return X::template load<4>(part, b);
      else
        return widen(X::template loadWidened<Bytes>(part, b));
    }();
    auto r =
        applyLanes<Op, V>(widen(X::template loadWidened<Bytes>(part, a)), y);
    X::template storeNarrowed<Bytes>(a, part, narrow(r));
  });
  narrowReduceTail<Op, XIsF32>(f, Bytes, acc, x, i, count, config);
}

/// fp32 -> a narrow format under `config`; with Count, the FidelityEvents
/// of each element (NarrowCastClassifier's rule) into `events`.
template <class X, bool Count, unsigned Bytes>
BIRSIM_KERNEL_LOOP void narrowLoop(const FloatFormat &f, const char *src,
                                   char *dst, size_t count, unsigned config,
                                   FidelityCounts *events) {
  NarrowLanes<typename X::template Lanes<32>> narrow(f, config);
  typename X::template Tally<NarrowClass> lanes{};
  ClassCounts<NarrowClass> totals;
  size_t steps = 0;
  size_t i = vectorSteps<X, X::kVectorBytes / 4>(count, [&](size_t i,
                                                            auto part) {
    X::prefetch(src + 4 * i, dst + i * Bytes);
    X::template storeNarrowed<Bytes>(
        dst + i * Bytes, part,
        narrow.template apply<Count>(X::template load<4>(part, src + 4 * i),
                                     X::valid(part), lanes));
    if constexpr (Count)
      if (++steps == X::kTallySteps) {
        X::moveCounts(lanes, totals);
        steps = 0;
      }
  });
  std::optional<NarrowCastClassifier> tail; // the portable elements' rule
  if constexpr (Count) {
    X::moveCounts(lanes, totals);
    addNarrowClassEvents(f, config, i, totals, *events);
    events->elements[int(FidelityFamily::cast)] += count - i;
    tail.emplace(f, config);
  }
  for (; i < count; ++i) {
    uint32_t v = loadScalar(src + 4 * i, 4), code = narrowFromF32(f, v, config);
    storeBits(dst + i * Bytes, Bytes, code);
    if constexpr (Count)
      if (FidelityEvent e = tail->classify(v, code); e != kNoFidelityEvent)
        ++events->count[int(e)];
  }
}

/// A narrow format -> fp32, exactly.
template <class X, unsigned Bytes>
BIRSIM_KERNEL_LOOP void widenLoop(const FloatFormat &f, const char *src,
                                  char *dst, size_t count) {
  WidenLanes<typename X::template Lanes<32>> widen(f);
  size_t i = vectorSteps<X, X::kVectorBytes / 4>(count, [&](size_t i,
                                                            auto part) {
    X::prefetch(src + i * Bytes, dst + 4 * i);
    X::template store<4>(dst + 4 * i, part,
                         widen(X::template loadWidened<Bytes>(part,
                                                              src + i * Bytes)));
  });
  for (; i < count; ++i)
    storeBits(dst + 4 * i, 4, widenToF32(f, loadScalar(src + i * Bytes, Bytes)));
}

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_ELEMENTWISE_H
