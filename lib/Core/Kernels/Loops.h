//===- Loops.h - the loops and tails of every vector path -------*- C++ -*-===//
//
// Private to lib/Core. Every kernel loop, written once over a path's
// vocabulary `X` (Avx2.cpp's Avx2, Avx512.cpp's Avx512); a path contributes
// only the vocabulary. Included inside each path's target region after
// LaneArithmetic.h, so every instantiation is compiled for that path.
//
// A vocabulary X has:
//   X::Lanes<Bits>          LaneArithmetic.h's lane vocabulary.
//   X::kVectorBytes         the bytes of one vector.
//   X::kMaskedTails         whether a loop's last, partial step is the
//                           vector step under a mask (no access past the
//                           end: a masked load or store never touches the
//                           masked-off bytes); otherwise the elements after
//                           the last whole step take the portable path.
//   X::Part                 which elements of a step are live;
//                           X::whole<N>() all N, X::first<N>(n) the first n;
//                           X::valid(Part) as a mask of 32-bit lanes.
//   X::load<Bytes>(part, p), X::store<Bytes>(p, part, v)
//                           one vector of elements of Bytes bytes each.
//   X::loadWidened<Bytes>(part, p), X::storeNarrowed<Bytes>(p, part, v)
//                           kVectorBytes / 4 elements of Bytes bytes each,
//                           as (from) 32-bit lanes.
//   X::integerOp<Bytes, Op>(a, b)   int32/int64 lanes (§3).
//   X::unpackLow16/High16(a, b), X::packUnsigned32(a, b)
//                           16-bit lanes interleaved into 32-bit ones per
//                           128-bit quarter, and back (bf16Sums);
//   X::f16Sums(a, b)        one vector of fp16 lanes each: their fp32 sums,
//                           rounded to nearest even (VCVTPS2PH).
//   X::Fp8Add<Count, TopByte>       the fp8 add step of fp8AddLoop.
//   X::Tally<Class>, X::kTallySteps, X::moveCounts(tally, totals)
//                           per-lane event counts (LaneArithmetic.h's
//                           V::count, V::countIfOne), moved into 64-bit
//                           totals at least every kTallySteps steps;
//                           X::PopcountTally<Class> the same for the BFP
//                           loops (the path's choice of cell).
//   X::BfpBlock, X::loadBfpBlock(dtype, p)   a block's 16 values as fp32
//                           bits, from an input element type of §5;
//   X::mapBlock(fn, blocks...)   fn on the blocks' lanes (V::I each);
//   X::forEachPart(fn, blocks...)   fn on the blocks' lanes a part at a
//                           time, by reference (outputs among them);
//   X::bfpShared(exponents), X::bfpSplat(shared) -> X::BfpShared,
//   X::firstLane(splat) -> lane 0 of a BfpShared,
//   X::squaresOf(block) -> X::BfpSquares, a block's squares (in fewer
//                           lanes where the path adds pairs of them),
//   X::sumSquares4x2(squares, first, second): 8 blocks' sums of squares
//                           in fp32, in an order of the path's, widened to
//                           double (blocks 0-3 at first, 4-7 at second);
//   X::bfpShared4(keys, splats[, exponentOf]) -> 4 exponent bytes (4
//                           blocks; a block's is exponentOf its largest key),
//   X::bfpDatumsOf(block) -> X::BfpDatums (16 bytes, one per lane),
//   X::storeBfpDatumPair(datumBits, p, a, b): blocks a and b's lanes
//                           as bytes, stored as storeBfpDatums at p and
//                           right after,
//   X::widenBfpDatums(datums) -> X::BfpBlock, X::storeBfpBlock(p, block),
//   X::streamBfpBlock(p, block) the same at a 64-byte aligned p (one whole
//                           line) past the caches, X::streamFence() after
//                           a loop's last,
//   X::storeBfpDatums(datumBits, p, datums), X::loadBfpDatums(datumBits, p);
//   X::kBfpSignBytes: whether the host's BFP packs and the MX float packs
//                           put the sign in on bytes: X::storeSignedDatumPair
//                           <DatumBits, SignBit, ZeroKeepsSign>(p, bitsA,
//                           magnitudesA, bitsB, magnitudesB);
//   X::bfpPacksHalves(input): whether the host's BFP packs (no events) of
//                           `input` take X::bfpPackHalves<M, Fp16Exponent,
//                           Bf16>(values, exponents, datums, blockDatumBytes,
//                           history, tally, largest): 4 contiguous blocks on
//                           16-bit lanes (BfpTieHistory), with `largest`
//                           their largest magnitudes' top 16 bits too,
//                           false (writing nothing) where it declines;
//   X::kBfpHalfLanes: whether the path packs a 16-bit Dest's blocks two a
//                           vector in 16-bit lanes (X::Lanes<16> with
//                           variable shifts): X::BfpHalves,
//                           X::loadBfpHalves(p, q), X::bfpShared4Halves,
//                           X::storeBfpHalfDatums(datumBits, p, q, lanes).
//   X::prefetch(p...), X::prefetchLine(p), X::prefetchLineForRead(p),
//   X::prefetchLineForWrite(p), X::Guard
//                           prefetching ahead, a line into the second level, a
//                           line into the first to be read or written; a
//                           kernel's MXCSR guard (the default floating-point
//                           environment, §2).
//   X::reportRead/reportWrite(p, bytes)   ranges told to ThreadSanitizer,
//                           which does not see vector accesses.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_LOOPS_H
#define BIRSIM_LIB_CORE_KERNELS_LOOPS_H

#ifndef BIRSIM_LIB_CORE_KERNELS_LANEARITHMETIC_H
#error "include LaneArithmetic.h first"
#endif

// Its headers are X86.h's (included before the target region, so their
// inline functions are not compiled for the path).

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
__attribute__((noinline)) void reduceF32Loop(char *out, const char *acc,
                                             const char *x, size_t count) {
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
__attribute__((noinline)) void integerLoop(char *out, const char *acc,
                                           const char *x, size_t count) {
  size_t i = vectorOpSteps<X, Bytes>(out, acc, x, count, [](auto a, auto b) {
    return X::template integerOp<Bytes, Op>(a, b);
  });
  using Bits = std::conditional_t<Bytes == 4, int32_t, int64_t>;
  using Unsigned = std::make_unsigned_t<Bits>;
#pragma clang loop vectorize(disable) // less than one vector
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

/// The elements [i, count) of a narrow reduction, by the portable path.
template <F32Op Op>
void narrowReduceTail(const FloatFormat &f, unsigned bytes, char *acc,
                      const char *x, size_t i, size_t count) {
  for (; i < count; ++i) {
    char *a = acc + i * bytes;
    uint32_t r = applyScalar<Op>(widenToF32(f, loadScalar(a, bytes)),
                                 widenToF32(f, loadScalar(x + i * bytes, bytes)));
    storeBits(a, bytes, narrowFromF32(f, r, 0));
  }
}

/// min/max of a narrow IEEE format on its codes (MinMaxCodeLanes).
template <class X, bool IsMin, unsigned Bytes>
__attribute__((noinline)) void minMaxCodesLoop(const FloatFormat &f,
                                               char *acc, const char *x,
                                               size_t count) {
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
__attribute__((noinline)) void halfAddLoop(char *acc, const char *x,
                                           size_t count) {
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
__attribute__((noinline)) uint64_t fp8AddSteps(const FloatFormat &f,
                                               char *acc, const char *x,
                                               size_t count) {
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
/// general loop.
template <class X, F32Op Op, unsigned Bytes>
__attribute__((noinline)) void generalNarrowReduceLoop(const FloatFormat &f,
                                                       char *acc,
                                                       const char *x,
                                                       size_t count) {
  using V = typename X::template Lanes<32>;
  WidenLanes<V> widen(f);
  NarrowLanes<V> narrow(f, /*config=*/0);
  size_t i = vectorSteps<X, X::kVectorBytes / 4>(count, [&](size_t i,
                                                            auto part) {
    char *a = acc + i * Bytes;
    X::prefetch(a, x + i * Bytes);
    auto r = applyLanes<Op, V>(
        widen(X::template loadWidened<Bytes>(part, a)),
        widen(X::template loadWidened<Bytes>(part, x + i * Bytes)));
    X::template storeNarrowed<Bytes>(a, part, narrow(r));
  });
  narrowReduceTail<Op>(f, Bytes, acc, x, i, count);
}

/// fp32 -> a narrow format under `config`; with Count, the FidelityEvents
/// of each element (NarrowCastClassifier's rule) into `events`.
template <class X, bool Count, unsigned Bytes>
__attribute__((noinline)) void narrowLoop(const FloatFormat &f,
                                          const char *src, char *dst,
                                          size_t count, unsigned config,
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
__attribute__((noinline)) void widenLoop(const FloatFormat &f, const char *src,
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

//===-- BFP tiles (§5): whole blocks, so no tails -------------------------===//

/// How a block's elements load (X::loadBfpBlock): float32 as it is, a
/// 16-bit element (bfloat16, or a float16 Dest's) raw in each lane's top
/// half as bfloat16's, the integers converted. The loops take the load as
/// a constant (kBfpAnyLoad: chosen per block) so that the common ones have
/// no per-block branch.
constexpr int kBfpAnyLoad = -1;
inline Dtype bfpLoadOf(const DtypeInfo &values) {
  return values.dtype == Dtype::float16 ? Dtype::bfloat16 : values.dtype;
}
inline int bfpLoadConstantOf(const DtypeInfo &values) {
  Dtype load = bfpLoadOf(values);
  return load == Dtype::float32 || load == Dtype::bfloat16 ? int(load)
                                                           : kBfpAnyLoad;
}

/// The fp32 bits of block b's 16 values at `values` (BfpLayout): loaded as
/// they lie, or gathered first where they are a matrix's column.
template <class X, int Load>
auto loadBfpValues(const BfpLayout &layout, const char *values) {
  const DtypeInfo &input = *layout.values;
  Dtype load = Load == kBfpAnyLoad ? bfpLoadOf(input) : Dtype(Load);
  if (layout.valueStep == 1) {
    X::reportRead(values, kBfpBlockValues * input.bytes);
    return X::loadBfpBlock(load, values);
  }
  alignas(64) char gathered[kBfpBlockValues * 4];
  size_t step = layout.valueStep * input.bytes;
  for (unsigned j = 0; j < kBfpBlockValues; ++j) {
    X::reportRead(values + j * step, input.bytes);
    std::memcpy(gathered + j * input.bytes, values + j * step, input.bytes);
  }
  return X::loadBfpBlock(load, gathered);
}

/// Stores a block's 16 fp32 lanes at `values` (BfpLayout): as they lie, or
/// scattered where they are a matrix's column (loadBfpValues' inverse).
template <class X>
void storeBfpValues(const BfpLayout &layout, char *values,
                    const typename X::BfpBlock &block, bool stream = false) {
  if (layout.valueStep == 1) {
    X::reportWrite(values, 4 * kBfpBlockValues);
    if (stream && reinterpret_cast<uintptr_t>(values) % 64 == 0)
      X::streamBfpBlock(values, block);
    else
      X::storeBfpBlock(values, block);
    return;
  }
  alignas(64) char lined[4 * kBfpBlockValues];
  X::storeBfpBlock(lined, block);
  size_t step = 4 * layout.valueStep;
  for (unsigned j = 0; j < kBfpBlockValues; ++j) {
    X::reportWrite(values + j * step, 4);
    std::memcpy(values + j * step, lined + 4 * j, 4);
  }
}

/// What a packer at `Site` does to a block (§5): the host's steps 1-5
/// (tallying into `tally`), or the Tensix packer's per-value step and
/// block rule (the device's bytes). The format's mantissa width and
/// exponent kind are template arguments: every constant is an immediate.
template <class X, BfpSite Site, bool CountEvents, unsigned M,
          bool Fp16Exponent>
struct BfpPackerLanes {
  using V = typename X::template Lanes<32>;
  using Block = typename X::BfpBlock;
  static constexpr bool kHost = Site == BfpSite::host;

  /// The values the block rule takes.
  static Block values(const Block &raw) {
    if constexpr (kHost)
      return raw;
    else
      return X::mapBlock(
          [](auto v) { return bfpDeviceValueLanes<V, Site>(v); }, raw);
  }
  /// The exponent each value contributes.
  static Block exponents(const Block &values) {
    return X::mapBlock(
        [](auto v) {
          if constexpr (kHost)
            return bfpBlockExponents<V, Fp16Exponent>(v);
          else
            return bfpDeviceExponents<V>(v);
        },
        values);
  }
  /// Keys whose largest in a block, sharedOfKey, is its shared exponent:
  /// the host's magnitude bits, ordered as its exponent fields (so the
  /// rebase and clamp of "a" act once a block, §5 step 2 being monotone),
  /// else exponents.
  static Block keys(const Block &values) {
    if constexpr (kHost)
      return X::mapBlock([](auto v) { return v & V::splat(0x7FFFFFFFu); },
                         values);
    else
      return exponents(values);
  }
  static typename V::I sharedOfKey(typename V::I key) {
    if constexpr (kHost && !Fp16Exponent)
      return V::shr(key, 23); // the sign cleared: the field alone
    else if constexpr (kHost)
      return bfpBlockExponents<V, Fp16Exponent>(key);
    else
      return key;
  }
  /// The host's datum magnitudes under the block's shared exponent.
  template <class Tally>
  static Block magnitudeLanes(const Block &values, typename X::BfpShared shared,
                              Tally &tally) {
    return X::mapBlock(
        [&](auto v) {
          return bfpMagnitudeLanes<V, CountEvents, M, Fp16Exponent>(v, shared,
                                                                    tally);
        },
        values);
  }
  /// The datums under the block's shared exponent (in every lane), one
  /// per lane.
  template <class Tally>
  static Block datumLanes(const Block &values, typename X::BfpShared shared,
                          Tally &tally) {
    return X::mapBlock(
        [&](auto v) {
          if constexpr (kHost)
            return bfpEncodeLanes<V, CountEvents, M, Fp16Exponent>(v, shared,
                                                                   tally);
          else
            return bfpDeviceBlockLanes<V, M>(v, shared);
        },
        values);
  }
  /// The same as 16 bytes.
  template <class Tally>
  static typename X::BfpDatums
  datums(const Block &values, typename X::BfpShared shared, Tally &tally) {
    return X::bfpDatumsOf(datumLanes(values, shared, tally));
  }
};

/// The fraction bits of a block's largest magnitude at or above which
/// Emax - 1 cannot win the §5 exponent search (M magnitude bits). With u
/// the datum step under Emax and x = 2^(Emax - 127) (1 + f) the largest,
/// Emax - 1 makes x's error at least x - (2^M - 1) u / 2. Under Emax every
/// lane errs by at most u / 2 plus step 3's truncation (an ulp of
/// 2^(Emax - 127)) where x < (2^M - 1/2) u, else by less than u (step 4
/// saturates). So for M >= 3 and f >= 3 / 2^M + 4 ulps, the 16 lanes'
/// squared errors under Emax sum to at most x's alone under Emax - 1, which
/// wins only when strictly smaller.
template <unsigned M>
constexpr uint32_t kBfpSearchKeepsEmax = (3u << (23 - M)) + 4;

/// A block's values above shared exponent `e` as its largest magnitude
/// (sign | e << 23 | 0x7FFFFF; none above Emax): the searched pack's.
template <class X>
typename X::BfpBlock bfpClampAbove(const typename X::BfpBlock &values,
                                   unsigned e) {
  using V = typename X::template Lanes<32>;
  return X::mapBlock(
      [&](auto v) {
        return V::select(
            V::gt(V::shr(v, 23) & V::splat(0xFF), V::splat(e)),
            (v & V::splat(0x80000000u)) | V::splat(e << 23 | 0x7FFFFFu), v);
      },
      values);
}

/// §5 exponent search (tt-metal PR #57298) on a tile packed under Emax:
/// its `blocks` "b" blocks' exponent bytes at `exponents`, their datums
/// from `datums`, `load(b)` giving block b's fp32 lanes, `largest[b]` the
/// top 16 bits of its largest magnitude. A block is searched when its Emax
/// lies above M and below 255 and that largest's fraction below
/// kBfpSearchKeepsEmax<M> in its top 7 bits (so also some whose sums then
/// keep Emax). Each lane's error
/// under Emax and under Emax - 1 (values above it at the largest
/// magnitude), as the difference of the value's and the datum's magnitudes
/// (the datum is 0 or of the value's sign), is exact in fp32 (both sides
/// multiples of the lane's ulp, the datum's step at least that), its
/// square exact in double. The block-order double sums decide, as the
/// portable search's; they are summed only where sums of the squares in
/// fp32, in any order (vector lanes), leave the comparison open. Such a
/// sum A of 16 terms lies within 16.1 * 2^-24 (relative) plus 2^-145
/// (underflow) of the exact sum S, the block-order double sum within 2^-48
/// of S, so A1 below A0 (1 - 2^-16) - 2^-143 puts the block-order sums in
/// that order, above A0 (1 + 2^-16) + 2^-143 in the other; an fp32 sum
/// that overflowed leaves it open. Where Emax - 1 is strictly better, the
/// block is packed again under it (bfpClampAbove making its values above
/// it its largest magnitude), its ties into `lanes`, its ties under Emax
/// (counted by the first pack) into `untallied`.
template <class X, unsigned M, class Load, class Tally>
__attribute__((always_inline)) inline void
bfpSearchTile(unsigned blocks, const uint16_t *largest, Load &&load,
              char *exponents, char *datums, Tally &lanes, Tally &untallied) {
  using V = typename X::template Lanes<32>;
  using Block = typename X::BfpBlock;
  using P = BfpPackerLanes<X, BfpSite::host, false, M, false>;
  constexpr unsigned blockDatumBytes = kBfpBlockValues * (M + 1) / 8;
  constexpr double kApart = 0x1p-16, kUnderflow = 0x1p-143;
  // Block `values`' error lanes under Emax (`shared`) and Emax - 1, a part
  // at a time: the value's magnitude less its datum's (as a float), the
  // aligned significand rounded in units of the datum's step and clamped
  // (under Emax - 1 the values above it at the largest: their significand,
  // aligned one place left, rounds above it), times that step (normal:
  // Emax lies above M, so the product is exact and the fused step rounds
  // as the sum).
  auto trials = [](const Block &values, typename X::BfpShared shared,
                   Block &error0, Block &error1) {
    auto belowEmax = V::sub(shared, V::splat(1));
    auto largest = V::splatF(float((1u << M) - 1));
    auto negativeStep = [](auto exponent) {
      return V::shl(V::sub(exponent, V::splat(M - 1)), 23) |
             V::splat(0x80000000u);
    };
    auto step0 = negativeStep(shared), step1 = negativeStep(belowEmax);
    X::forEachPart(
        [&](const auto &v, auto &e0, auto &e1) {
          auto e = V::shr(v, 23) & V::splat(0xFF);
          auto magnitude = [&](auto aligned) {
            return V::minF(bfpRoundedF<V, M, 24 - M>(V::toFloat(aligned)),
                           largest);
          };
          // Aligned to Emax - 1: the significand doubled, then shifted by
          // Emax - e (the same truncation; below 2^25 and even where e is
          // Emax, so an exact float). Aligned to Emax: that halved.
          auto aligned1 = bfpAlignLanes<V>(V::shl(bfpSignificandLanes<V>(v), 1),
                                           V::eq(e, V::zero()), e, shared);
          auto absolute = v & V::splat(0x7FFFFFFFu);
          e0 = V::fmaF(magnitude(V::shr(aligned1, 1)), step0, absolute);
          e1 = V::fmaF(magnitude(aligned1), step1, absolute);
        },
        values, error0, error1);
  };
  auto blockOrderSum = [](Block error) {
    alignas(64) float lanes[kBfpBlockValues];
    X::storeBfpBlock(reinterpret_cast<char *>(lanes), error);
    double sum = 0;
    for (float e : lanes)
      sum += double(e) * double(e); // exact square: a contraction is alike
    return sum;
  };
  const uint8_t *emax = reinterpret_cast<const uint8_t *>(exponents);
  // The searched blocks, listed from a mask (the choice is data).
  constexpr unsigned kTop7 = (kBfpSearchKeepsEmax<M> - 1) >> 16;
  uint64_t mask = 0;
  static_assert(kBfpTileBlocks <= 64);
  for (unsigned b = 0; b < blocks; ++b) {
    unsigned e = largest[b] >> 7;
    mask |= uint64_t(e - (M + 1) < 254 - M & (largest[b] & 0x7F) <= kTop7) << b;
  }
  uint8_t searched[kBfpTileBlocks];
  unsigned count = 0;
  for (; mask; mask &= mask - 1)
    searched[count++] = uint8_t(__builtin_ctzll(mask));
  // Their fp32-lane sums under Emax and Emax - 1, four at a time.
  alignas(64) double sum0[kBfpTileBlocks + 3], sum1[kBfpTileBlocks + 3];
  for (unsigned i = 0; i < count; i += 4) {
    // squares[k] under Emax, squares[4 + k] under Emax - 1; zeros past
    // count.
    typename X::BfpSquares squares[8];
    for (unsigned k = 0; k < 4; ++k) {
      Block error0 = {}, error1 = {};
      if (i + k < count) {
        unsigned b = searched[i + k];
        trials(load(b), X::bfpSplat(emax[b]), error0, error1);
      }
      squares[k] = X::squaresOf(error0);
      squares[4 + k] = X::squaresOf(error1);
    }
    X::sumSquares4x2(squares, sum0 + i, sum1 + i);
  }
  // Branch-free where the lanes' sums decide: the lowered blocks listed.
  uint8_t lowered[kBfpTileBlocks];
  unsigned lowerCount = 0;
  for (unsigned i = 0; i < count; ++i) {
    bool finite = sum0[i] <= FLT_MAX & sum1[i] <= FLT_MAX;
    bool below = finite & (sum1[i] < sum0[i] * (1 - kApart) - kUnderflow);
    bool apart =
        below | (finite & (sum1[i] > sum0[i] * (1 + kApart) + kUnderflow));
    unsigned b = searched[i];
    if (!apart) {
      Block error0, error1;
      trials(load(b), X::bfpSplat(emax[b]), error0, error1);
      below = blockOrderSum(error1) < blockOrderSum(error0);
    }
    lowered[lowerCount] = uint8_t(b);
    lowerCount += below;
  }
  for (unsigned i = 0; i < lowerCount; ++i) {
    unsigned b = lowered[i], e = emax[b];
    Block values = load(b);
    P::magnitudeLanes(values, X::bfpSplat(int(e)), untallied);
    exponents[b] = char(e - 1); // above M: no borrow
    X::storeBfpDatums(M + 1, datums + b * blockDatumBytes,
                      P::datums(bfpClampAbove<X>(values, e - 1),
                                X::bfpSplat(int(e - 1)), lanes));
  }
}

/// How many of a matrix walk's tiles a band holds: its tiles are packed a
/// stripe (the blocks of the same rows) at a time across the band, so the
/// reads are a few rows' runs, not 32 rows 128 bytes at a time, and the
/// band's packed bytes stay in cache while they fill.
constexpr size_t kBfpBandTiles = 64;
/// A band pack reads a stripe's rows into the first-level cache this many
/// tiles ahead along the band.
constexpr size_t kBfpReadAheadTiles = 4;

/// Where a banded walk prefetches a block's values: the next stripe's
/// line `nextStripe` bytes below into the second-level cache, and the line
/// `alongBand` bytes further along its rows into the first (nextStripe 0:
/// not banded, or one stripe).
struct BfpReadAhead {
  size_t nextStripe = 0, alongBand = 0;
};

/// A banded walk's order: the groups of four blocks (by first block) in
/// row order, stripe s the groups [stripeEnd[s - 1], stripeEnd[s]) of the
/// same rows, `ahead` where it prefetches. For shapes of whole groups
/// (blocks % 4 == 0).
struct BfpStripes {
  static constexpr unsigned kNoGroup = ~0u;
  unsigned groupOrder[kBfpTileBlocks / 4], stripeEnd[kBfpTileBlocks / 4];
  /// By a group's first block / 4: the first block of the group in its
  /// place in the next stripe (kNoGroup in the last).
  unsigned nextStripeGroup[kBfpTileBlocks / 4];
  unsigned stripes = 0;
  BfpReadAhead ahead;

  /// Whether `layout` walks in bands: a matrix's rows (not a transpose's
  /// columns) more than one tile wide, in whole groups.
  static bool fits(const BfpLayout &layout) {
    return layout.valueStep == 1 && layout.tilesAcross > 1 &&
           layout.shape.blocks() % 4 == 0;
  }

  explicit BfpStripes(const BfpLayout &layout) {
    unsigned groups = layout.shape.blocks() / 4;
    for (unsigned g = 0; g < groups; ++g)
      groupOrder[g] = 4 * g;
    std::sort(groupOrder, groupOrder + groups, [&](unsigned a, unsigned c) {
      return layout.blockStart[a] < layout.blockStart[c];
    });
    size_t width = layout.tileRowStep / layout.shape.rows; // the matrix's
    for (unsigned g = 0; g < groups; ++g)
      if (g + 1 == groups || layout.blockStart[groupOrder[g + 1]] / width !=
                                 layout.blockStart[groupOrder[g]] / width)
        stripeEnd[stripes++] = g + 1;
    if (stripes > 1)
      ahead = {(layout.blockStart[groupOrder[stripeEnd[0]]] -
                layout.blockStart[groupOrder[0]]) *
                   layout.values->bytes,
               kBfpReadAheadTiles * layout.tileColStep * layout.values->bytes};
    for (unsigned g = 0; g < groups; ++g)
      nextStripeGroup[groupOrder[g] / 4] =
          g + stripeEnd[0] < groups ? groupOrder[g + stripeEnd[0]] : kNoGroup;
  }
};

/// group(i, b) for every group (first block b) of tiles i < band, stripe
/// by stripe across the band.
template <class Group>
__attribute__((always_inline)) inline void
bfpBandStripes(const BfpStripes &order, size_t band, Group &&group) {
  for (unsigned s = 0, g = 0; s < order.stripes; ++s) {
    unsigned stripeBegin = g;
    for (size_t i = 0; i < band; ++i)
      for (g = stripeBegin; g < order.stripeEnd[s]; ++g)
        group(i, order.groupOrder[g]);
  }
}

/// X::storeSignedDatumPair, which only paths with X::kBfpSignBytes have
/// (named through X here, so a generic lambda's discarded branch on
/// another path does not look it up).
template <class X, unsigned DatumBits, unsigned SignBit, bool ZeroKeepsSign>
__attribute__((always_inline)) inline void storeSignedDatumPair(
    char *p, const typename X::BfpBlock &bitsA, const typename X::BfpBlock &a,
    const typename X::BfpBlock &bitsB, const typename X::BfpBlock &b) {
  static_assert(X::kBfpSignBytes);
  X::template storeSignedDatumPair<DatumBits, SignBit, ZeroKeepsSign>(
      p, bitsA, a, bitsB, b);
}

/// A BFP loop's counters: popcounts where only ties are counted, lane
/// counters where the events of docs/Fidelity.md are too.
template <class X, bool CountEvents>
using BfpLoopTally =
    std::conditional_t<CountEvents, typename X::template Tally<BfpClass>,
                       typename X::template PopcountTally<BfpClass>>;

/// For the block whose values start at `values`: prefetches as `ahead`
/// says where banded, else the usual distance ahead (face order: every
/// line of the next tile too).
template <class X>
__attribute__((always_inline)) inline void
bfpPrefetchBlock(const char *values, const BfpReadAhead &ahead) {
  if (ahead.nextStripe) {
    X::prefetchLine(values + ahead.nextStripe);
    X::prefetchLineForRead(values + ahead.alongBand);
  } else {
    X::prefetch(values);
  }
}
/// That block, as packer P takes it.
template <class X, class P, int Load>
__attribute__((always_inline)) inline typename X::BfpBlock
bfpValuesAt(const BfpLayout &layout, const char *values,
            const BfpReadAhead &ahead) {
  bfpPrefetchBlock<X>(values, ahead);
  return P::values(loadBfpValues<X, Load>(layout, values));
}

/// A walk's sizes, read once (a store to the packed bytes may alias the
/// layout's).
struct BfpGroupSizes {
  unsigned inputBytes, exponentBytes;
  explicit BfpGroupSizes(const BfpLayout &layout)
      : inputBytes(layout.values->bytes),
        exponentBytes(layout.shape.exponentBytes()) {}
};

/// A band walk's prefetches of its packed tiles (a band's 64 tiles are
/// more streams than the hardware prefetcher follows): group b's datum
/// lines of the packed tile at `tile`, into the second level to be read,
/// or into the first to be written.
template <class X, unsigned M, bool ForWrite = false, class Byte>
void bfpPrefetchGroup(Byte *tile, const BfpGroupSizes &sizes, unsigned b) {
  constexpr unsigned groupDatumBytes = kBfpBlockValues * (M + 1) / 2;
  Byte *datums = tile + sizes.exponentBytes + b * groupDatumBytes / 4;
  for (Byte *line : {datums, datums + groupDatumBytes - 1}) {
    if constexpr (ForWrite)
      X::prefetchLineForWrite(line);
    else
      X::prefetchLine(line);
  }
}
/// An unpack's: the packed tile `in`'s exponents and first stripe's datums
/// where the band starts, and after group b the datums of the group in its
/// place in the next stripe (in face order, a stripe's groups lie a face
/// apart).
template <class X, unsigned M>
void bfpPrefetchBandTile(const unsigned char *in, const BfpGroupSizes &sizes,
                         const BfpStripes &order) {
  X::prefetchLine(in);
  for (unsigned g = 0; g < order.stripeEnd[0]; ++g)
    bfpPrefetchGroup<X, M>(in, sizes, order.groupOrder[g]);
}
template <class X, unsigned M>
void bfpPrefetchNextGroup(const unsigned char *in, const BfpGroupSizes &sizes,
                          const BfpStripes &order, unsigned b) {
  if (unsigned next = order.nextStripeGroup[b / 4];
      next != BfpStripes::kNoGroup)
    bfpPrefetchGroup<X, M>(in, sizes, next);
}
/// A band pack prefetches for writing group b of the tile this far ahead
/// in the band, so the reads for ownership of the lines a stripe writes
/// across 64 tiles do not fill the store queue.
constexpr size_t kBfpWriteAheadTiles = 4;

/// How many groups in a row a halves pack (X::bfpPackHalves) found no
/// tie in. Until kQuiet it rounds and counts ties branch-free (on data
/// with many ties a branch would mispredict, which at 2^24 also drops the
/// loads in flight); from then on it tests each group for one first.
struct BfpTieHistory {
  static constexpr unsigned kQuiet = 8;
  unsigned tieFree = 0;
};

/// Four blocks' datums (§5 steps 1-5) under their shared exponents, back
/// to back from `datums`; their ties (and events) into `lanes`.
template <class X, class P, unsigned M, class Tally>
__attribute__((always_inline)) inline void
bfpStoreGroupDatums(const typename X::BfpBlock *block,
                    const typename X::BfpShared *shared, char *datums,
                    Tally &lanes) {
  constexpr unsigned blockDatumBytes = kBfpBlockValues * (M + 1) / 8;
  for (unsigned k = 0; k < 4; k += 2, datums += 2 * blockDatumBytes) {
    // Step 5 on bytes where the path has it (BFP2's lanes measured faster).
    if constexpr (X::kBfpSignBytes && P::kHost && M > 1) {
      typename X::BfpBlock first =
          P::magnitudeLanes(block[k], shared[k], lanes);
      storeSignedDatumPair<X, M + 1, M, false>(
          datums, block[k], first, block[k + 1],
          P::magnitudeLanes(block[k + 1], shared[k + 1], lanes));
    } else {
      typename X::BfpBlock first = P::datumLanes(block[k], shared[k], lanes);
      X::storeBfpDatumPair(M + 1, datums, first,
                           P::datumLanes(block[k + 1], shared[k + 1], lanes));
    }
  }
}

/// Blocks [b, b + 4) of the tile whose values are at `tile` into its
/// packed bytes: their shared exponents reduced together, then their
/// datums; with `largest`, also each block's largest magnitude's top 16
/// bits (the host's packs).
template <class X, BfpSite Site, bool CountEvents, unsigned M,
          bool Fp16Exponent, int Load, class Tally>
__attribute__((always_inline)) inline void
bfpPackGroup(const BfpLayout &layout, const BfpGroupSizes &sizes,
             const char *tile, char *packed, unsigned b,
             const BfpReadAhead &ahead, BfpTieHistory &history, Tally &lanes,
             uint16_t *largest = nullptr) {
  using P = BfpPackerLanes<X, Site, CountEvents, M, Fp16Exponent>;
  constexpr unsigned blockDatumBytes = kBfpBlockValues * (M + 1) / 8;
  typename X::BfpBlock block[4], keys[4];
  typename X::BfpShared shared[4];
  uint32_t bytes;
  constexpr bool kBf16 = Load == int(Dtype::bfloat16);
  if constexpr (P::kHost && !CountEvents && Load != kBfpAnyLoad &&
                X::bfpPacksHalves(Dtype(Load))) {
    if (layout.valueStep == 1) {
      const char *at[4];
      for (unsigned k = 0; k < 4; ++k) {
        at[k] = tile + layout.blockStart[b + k] * sizes.inputBytes;
        bfpPrefetchBlock<X>(at[k], ahead);
        X::reportRead(at[k], kBfpBlockValues * sizes.inputBytes);
      }
      if (X::template bfpPackHalves<M, Fp16Exponent, kBf16>(
              at, packed + b,
              packed + sizes.exponentBytes + b * blockDatumBytes,
              blockDatumBytes, history, lanes, largest))
        return;
    }
  }
  for (unsigned k = 0; k < 4; ++k) {
    block[k] = bfpValuesAt<X, P, Load>(
        layout, tile + layout.blockStart[b + k] * sizes.inputBytes, ahead);
    keys[k] = P::keys(block[k]);
    if (largest)
      largest[k] = uint16_t(X::bfpShared(keys[k]) >> 16);
  }
  bytes = X::bfpShared4(keys, shared, P::sharedOfKey);
  std::memcpy(packed + b, &bytes, 4);
  bfpStoreGroupDatums<X, P, M>(
      block, shared, packed + sizes.exponentBytes + b * blockDatumBytes, lanes);
}

/// A packed tile's padding: its exponent bytes' past its blocks, and its
/// page's past the tile's bytes (§5 pages).
template <class X> void bfpPadTile(const BfpLayout &layout, char *packed) {
  unsigned blocks = layout.shape.blocks();
  size_t tileBytes = layout.shape.packedBytes(*layout.format);
  X::reportWrite(packed, layout.packedBytes);
  if (unsigned exponentBytes = layout.shape.exponentBytes();
      exponentBytes > blocks) // the shapes of fewer than 16 blocks
    std::memset(packed + blocks, 0, exponentBytes - blocks);
  if (layout.packedBytes > tileBytes) // aligned pages only
    std::memset(packed + tileBytes, 0, layout.packedBytes - tileBytes);
}

/// bfpPackLoop on a matrix's rows (not a transpose's columns, blocks % 4
/// == 0) in bands.
template <class X, BfpSite Site, bool CountEvents, unsigned M,
          bool Fp16Exponent, int Load>
__attribute__((noinline)) void
bfpPackBandLoop(const BfpLayout &layout, const char *src, size_t firstTile,
                size_t tileCount, char *out, BfpTally &tally) {
  const BfpStripes order(layout);
  const BfpGroupSizes sizes(layout);
  BfpLoopTally<X, CountEvents> lanes{};
  BfpTieHistory history;
  BfpTally local;
  for (size_t t = 0; t < tileCount; t += kBfpBandTiles) {
    size_t band = std::min(tileCount - t, kBfpBandTiles);
    const char *tiles[kBfpBandTiles];
    char *packed[kBfpBandTiles];
    for (size_t i = 0; i < band; ++i) {
      tiles[i] = src + layout.origin(firstTile + t + i) * sizes.inputBytes;
      packed[i] = out + (t + i) * layout.packedBytes;
      bfpPadTile<X>(layout, packed[i]);
    }
    bfpBandStripes(order, band, [&](size_t i, unsigned b) {
      if (i + kBfpWriteAheadTiles < band)
        bfpPrefetchGroup<X, M, true>(packed[i + kBfpWriteAheadTiles], sizes, b);
      bfpPackGroup<X, Site, CountEvents, M, Fp16Exponent, Load>(
          layout, sizes, tiles[i], packed[i], b, order.ahead, history, lanes);
    });
    X::moveCounts(lanes, local); // at most 1024 per cell and tile
  }
  tally += local;
}

template <class X, BfpSite Site, bool CountEvents, unsigned M,
          bool Fp16Exponent, int Load, bool Search = false>
__attribute__((noinline)) void
bfpPackLoop(const BfpLayout &layout, const char *src, size_t firstTile,
            size_t tileCount, char *out, BfpTally &tally) {
  using P = BfpPackerLanes<X, Site, CountEvents, M, Fp16Exponent>;
  using H = typename X::template Lanes<16>;
  constexpr bool kHalfLanes =
      X::kBfpHalfLanes &&
      (Site == BfpSite::bf16_dest || Site == BfpSite::bf16_dest_e8m6 ||
       Site == BfpSite::fp16_dest);
  const BfpTileShape &shape = layout.shape;
  const unsigned blocks = shape.blocks(), exponentBytes = shape.exponentBytes();
  if (!Search && !kHalfLanes && BfpStripes::fits(layout))
    return bfpPackBandLoop<X, Site, CountEvents, M, Fp16Exponent, Load>(
        layout, src, firstTile, tileCount, out, tally);
  const unsigned inputBytes = layout.values->bytes;
  constexpr unsigned blockDatumBytes = kBfpBlockValues * (M + 1) / 8;
  const BfpGroupSizes sizes(layout);
  // Counted in locals the stores to `out` cannot alias, so their cells stay
  // in registers; added to the caller's once (the search's `untallied`,
  // the ties of the blocks it packs again, taken back).
  BfpLoopTally<X, CountEvents> lanes{}, untallied{};
  BfpTieHistory history;
  BfpTally local, taken;
  auto valuesAt = [&](const char *values) __attribute__((always_inline)) {
    return bfpValuesAt<X, P, Load>(layout, values, {});
  };
  for (size_t t = 0; t < tileCount; ++t) {
    const char *tile = src + layout.origin(firstTile + t) * inputBytes;
    char *packed = out + t * layout.packedBytes;
    unsigned b = 0;
    // Four blocks at a time share one reduction of their exponents; a
    // 16-bit Dest's values lying in rows, two blocks a vector where the
    // path has 16-bit lanes for it.
    if constexpr (kHalfLanes) {
      if (layout.valueStep == 1)
        for (; b + 4 <= blocks; b += 4) {
          typename X::BfpHalves values[2], exponents[2], shared[2];
          for (unsigned k = 0; k < 2; ++k) {
            const char *first = tile + layout.blockStart[b + 2 * k] * 2,
                       *second = tile + layout.blockStart[b + 2 * k + 1] * 2;
            X::prefetch(first);
            X::reportRead(first, 32);
            X::reportRead(second, 32);
            values[k] =
                bfpDevice16ValueLanes<H, Site>(X::loadBfpHalves(first, second));
            exponents[k] = bfpDeviceExponents<H>(values[k]);
          }
          uint32_t bytes = X::bfpShared4Halves(exponents, shared);
          std::memcpy(packed + b, &bytes, 4);
          for (unsigned k = 0; k < 2; ++k) {
            char *datums = packed + exponentBytes + (b + 2 * k) * blockDatumBytes;
            X::storeBfpHalfDatums(
                M + 1, datums, datums + blockDatumBytes,
                bfpDeviceBlockLanes<H, M>(values[k], shared[k]));
          }
        }
    }
    alignas(16) uint16_t largest[kBfpTileBlocks]; // the search's
    for (; b + 4 <= blocks; b += 4)
      bfpPackGroup<X, Site, CountEvents, M, Fp16Exponent, Load>(
          layout, sizes, tile, packed, b, {}, history, lanes,
          Search ? largest + b : nullptr);
    for (; b < blocks; ++b) {
      auto block = valuesAt(tile + layout.blockStart[b] * inputBytes);
      if constexpr (Search)
        largest[b] = uint16_t(X::bfpShared(P::keys(block)) >> 16);
      int shared = X::bfpShared(P::exponents(block));
      packed[b] = char(shared);
      X::storeBfpDatums(M + 1, packed + exponentBytes + b * blockDatumBytes,
                        P::datums(block, X::bfpSplat(shared), lanes));
    }
    if constexpr (Search) // the tile again, from the first-level cache
      bfpSearchTile<X, M>(
          blocks, largest,
          [&](unsigned b) __attribute__((always_inline)) {
            return loadBfpValues<X, Load>(layout, tile + layout.blockStart[b] *
                                                             inputBytes);
          },
          packed, packed + exponentBytes, lanes, untallied);
    bfpPadTile<X>(layout, packed);
    X::moveCounts(lanes, local); // at most 1024 per cell and tile
    if constexpr (Search)
      X::moveCounts(untallied, taken);
  }
  local -= taken;
  tally += local;
}

/// The magnitude bits of mixed code `Code`'s format (a "b" format).
template <unsigned Code>
constexpr unsigned kMixedMagnitudeBits =
    kBfpFormatTable[kBfpMixedCodes[Code].format].magnitudeBits;

/// Per-tile mixed BFP (§5) of tiles [firstTile, firstTile + tileCount) of
/// a matrix: tile t in the format of its code (the walk layouts[code];
/// bfp0 no bytes) at out + offsets[t] - offsets[firstTile]. Its rows walk
/// in bands as bfpPackLoop's, every format of a band in one walk; a
/// transpose's columns in the same order. Whole 32x32 tiles: no padding.
template <class X, int Load>
__attribute__((noinline)) void
bfpPackMixedLoop(const BfpLayout *layouts, const char *src,
                 const uint8_t *codes, const size_t *offsets, size_t firstTile,
                 size_t tileCount, char *out, BfpTally &tally) {
  const BfpLayout &walk = layouts[0]; // every code's blocks lie alike
  const BfpGroupSizes sizes(walk);
  const BfpStripes order(walk);
  const BfpReadAhead ahead = walk.valueStep == 1 ? order.ahead : BfpReadAhead{};
  typename X::template PopcountTally<BfpClass> lanes{};
  BfpTieHistory history;
  BfpTally local;
  auto group = [&](auto code, const char *tile, char *packed, unsigned b)
      __attribute__((always_inline)) {
    constexpr unsigned M = kMixedMagnitudeBits<decltype(code)::value>;
    bfpPackGroup<X, BfpSite::host, false, M, false, Load>(
        layouts[code], sizes, tile, packed, b, ahead, history, lanes);
  };
  for (size_t t = 0; t < tileCount; t += kBfpBandTiles) {
    size_t band = std::min(tileCount - t, kBfpBandTiles);
    const char *tiles[kBfpBandTiles];
    char *packed[kBfpBandTiles];
    unsigned tileCodes[kBfpBandTiles];
    for (size_t i = 0; i < band; ++i) {
      size_t tile = firstTile + t + i;
      tiles[i] = src + walk.origin(tile) * sizes.inputBytes;
      packed[i] = out + (offsets[tile] - offsets[firstTile]);
      tileCodes[i] = bfpMixedCode(codes, tile);
      X::reportWrite(packed[i], offsets[tile + 1] - offsets[tile]);
    }
    bfpBandStripes(order, band, [&](size_t i, unsigned b) {
      withConstant<0u, 1u, 2u>(tileCodes[i], [&](auto code) { // not bfp0
        group(code, tiles[i], packed[i], b);
      });
    });
    X::moveCounts(lanes, local); // at most 1024 per cell and tile
  }
  tally += local;
}

/// Decodes datums as the host (§5 decoding) or, at a device site, as the
/// unpacker (the device's bytes).
template <class X, BfpSite Site, unsigned M>
typename X::BfpBlock bfpDecodedBlock(const BfpFormatInfo &f,
                                     const typename X::BfpBlock &datums,
                                     typename X::BfpShared shared) {
  using V = typename X::template Lanes<32>;
  return X::mapBlock(
      [&](auto d) {
        if constexpr (Site == BfpSite::host)
          return bfpDecodeLanes<V>(f, d, shared);
        else
          return bfpDeviceDecodeLanes<V, M>(d, shared);
      },
      datums);
}

/// Block b of the packed tile `in` decoded into the tile whose first value
/// is at `tile` (streamed where layout.streamValues): by one exact product
/// where its exponent allows (bfpDecodeScaleBits; at a device site a "b"
/// exponent).
template <class X, BfpSite Site, unsigned M>
__attribute__((always_inline)) inline void
bfpUnpackBlock(const BfpLayout &layout, const BfpGroupSizes &sizes,
               const unsigned char *in, char *tile, unsigned b) {
  using V = typename X::template Lanes<32>;
  constexpr unsigned blockDatumBytes = kBfpBlockValues * (M + 1) / 8;
  auto datums = X::widenBfpDatums(
      X::loadBfpDatums(M + 1, in + sizes.exponentBytes + b * blockDatumBytes));
  uint32_t scale = bfpDecodeScaleBits(
      Site == BfpSite::host ? layout.format->exponent : BfpExponent::Fp32, M,
      in[b]);
  auto decoded =
      scale
          ? X::mapBlock(
                [&](auto d) {
                  if constexpr (Site == BfpSite::host)
                    return bfpDecodeScaledLanes<V, M>(d, V::splat(scale));
                  else
                    return bfpDeviceDecodeScaledLanes<V, M>(d, V::splat(scale));
                },
                datums)
          : bfpDecodedBlock<X, Site, M>(*layout.format, datums,
                                        X::bfpSplat(in[b]));
  storeBfpValues<X>(layout, tile + layout.blockStart[b] * 4, decoded,
                    layout.streamValues);
}

template <class X, BfpSite Site, unsigned M>
__attribute__((noinline)) void bfpUnpackLoop(const BfpLayout &layout,
                                             const unsigned char *packed,
                                             size_t firstTile,
                                             size_t tileCount, char *dst) {
  const unsigned blocks = layout.shape.blocks();
  const BfpGroupSizes sizes(layout);
  if (BfpStripes::fits(layout)) {
    // A matrix's rows in bands, as bfpPackBandLoop's.
    const BfpStripes order(layout);
    for (size_t t = 0; t < tileCount; t += kBfpBandTiles) {
      size_t band = std::min(tileCount - t, kBfpBandTiles);
      const unsigned char *in[kBfpBandTiles];
      char *tiles[kBfpBandTiles];
      for (size_t i = 0; i < band; ++i) {
        in[i] = packed + (t + i) * layout.packedBytes;
        tiles[i] = dst + layout.origin(firstTile + t + i) * 4;
        X::reportRead(in[i], layout.packedBytes);
        bfpPrefetchBandTile<X, M>(in[i], sizes, order);
      }
      bfpBandStripes(order, band, [&](size_t i, unsigned b) {
        bfpPrefetchNextGroup<X, M>(in[i], sizes, order, b);
        for (unsigned k = 0; k < 4; ++k)
          bfpUnpackBlock<X, Site, M>(layout, sizes, in[i], tiles[i], b + k);
      });
    }
    if (layout.streamValues)
      X::streamFence();
    return;
  }
  for (size_t t = 0; t < tileCount; ++t) {
    const unsigned char *in = packed + t * layout.packedBytes;
    char *tile = dst + layout.origin(firstTile + t) * 4;
    X::reportRead(in, layout.packedBytes);
    X::prefetch(in); // the tile after next's first bytes (BFP8: 1088 each)
    for (unsigned b = 0; b < blocks; ++b)
      bfpUnpackBlock<X, Site, M>(layout, sizes, in, tile, b);
  }
  if (layout.streamValues)
    X::streamFence();
}

/// The inverse of bfpPackMixedLoop: tile t decoded from out + offsets[t] -
/// offsets[firstTile] (`packed`) into `dst` (the whole call's fp32
/// values), a bfp0 tile as +0.
template <class X>
__attribute__((noinline)) void
bfpUnpackMixedLoop(const BfpLayout *layouts, const unsigned char *packed,
                   const uint8_t *codes, const size_t *offsets,
                   size_t firstTile, size_t tileCount, char *dst) {
  const BfpLayout &walk = layouts[0]; // every code's blocks lie alike
  const BfpGroupSizes sizes(walk);
  const BfpStripes order(walk);
  for (size_t t = 0; t < tileCount; t += kBfpBandTiles) {
    size_t band = std::min(tileCount - t, kBfpBandTiles);
    const unsigned char *in[kBfpBandTiles];
    char *tiles[kBfpBandTiles];
    unsigned tileCodes[kBfpBandTiles];
    for (size_t i = 0; i < band; ++i) {
      size_t tile = firstTile + t + i;
      in[i] = packed + (offsets[tile] - offsets[firstTile]);
      tiles[i] = dst + walk.origin(tile) * 4;
      tileCodes[i] = bfpMixedCode(codes, tile);
      X::reportRead(in[i], offsets[tile + 1] - offsets[tile]);
      if (tileCodes[i] != 3) // bfp0 stores no bytes
        withConstant<0u, 1u, 2u>(tileCodes[i], [&](auto code) {
          constexpr unsigned M = kMixedMagnitudeBits<decltype(code)::value>;
          bfpPrefetchBandTile<X, M>(in[i], sizes, order);
        });
    }
    bfpBandStripes(order, band, [&](size_t i, unsigned b) {
      if (tileCodes[i] == 3) { // bfp0: +0
        for (unsigned k = 0; k < 4; ++k)
          storeBfpValues<X>(walk, tiles[i] + walk.blockStart[b + k] * 4,
                            typename X::BfpBlock{}, walk.streamValues);
        return;
      }
      withConstant<0u, 1u, 2u>(tileCodes[i], [&](auto code) {
        constexpr unsigned M = kMixedMagnitudeBits<decltype(code)::value>;
        bfpPrefetchNextGroup<X, M>(in[i], sizes, order, b);
        for (unsigned k = 0; k < 4; ++k)
          bfpUnpackBlock<X, BfpSite::host, M>(layouts[code], sizes, in[i],
                                              tiles[i], b + k);
      });
    });
  }
  if (walk.streamValues)
    X::streamFence();
}

/// The device diff (§5, the device's bytes) of tiles [firstTile, firstTile
/// + tileCount): per element, whether the host's round trip of the Dest's
/// values (widened exactly) and the device's differ, NaN against NaN
/// equal; mask[i] (when not null) for element i of the call, the number
/// returned.
template <class X, BfpSite Site, unsigned M, int Load>
__attribute__((noinline)) uint64_t
bfpDeviceDiffLoop(const BfpLayout &layout, const char *src, size_t firstTile,
                  size_t tileCount, uint8_t *mask) {
  using V = typename X::template Lanes<32>;
  using Block = typename X::BfpBlock;
  using Host = BfpPackerLanes<X, BfpSite::host, false, M, false>;
  using Device = BfpPackerLanes<X, Site, false, M, false>;
  // Without a rounding or a rebias before it, the device's block rule sees
  // the host's exponent fields (a NaN's Inf keeps its all-ones field).
  constexpr bool kHostShared =
      Site == BfpSite::fp32_dest || Site == BfpSite::bf16_dest;
  const BfpFormatInfo &f = *layout.format;
  const unsigned inputBytes = layout.values->bytes;
  typename X::template PopcountTally<BfpClass> lanes{};
  BfpTally local;
  for (size_t t = 0; t < tileCount; ++t) {
    size_t origin = layout.origin(firstTile + t);
    for (unsigned b = 0; b < layout.shape.blocks(); ++b) {
      size_t first = origin + layout.blockStart[b];
      X::prefetch(src + first * inputBytes);
      Block raw = loadBfpValues<X, Load>(layout, src + first * inputBytes);
      // A quieted signalling NaN changes no mask bit: a NaN lane's host
      // value is Inf or NaN whatever its payload (the block's shared
      // exponent is then 255), the fp16 path's always finite, and the
      // other lanes' host datums do not read it.
      Block host = raw;
      if constexpr (Site == BfpSite::fp16_dest)
        host = X::halvesToF32(raw);
      Block device = Device::values(raw);
      int hostShared = X::bfpShared(Host::exponents(host));
      int deviceShared =
          kHostShared ? hostShared : X::bfpShared(Device::exponents(device));
      auto hostSplat = X::bfpSplat(hostShared);
      auto deviceSplat = kHostShared ? hostSplat : X::bfpSplat(deviceShared);
      typename X::template PopcountTally<BfpClass> ignored{}; // the host's ties
      Block hostDatums = Host::datumLanes(host, hostSplat, ignored);
      Block deviceDatums = Device::datumLanes(device, deviceSplat, ignored);
      auto differing = [&](auto h, auto d, auto equal) {
        auto m = V::notLanes(V::either(V::eq(h, d), equal));
        V::count(lanes[BfpClass::deviceDiffers], m);
        return V::keep(m, V::splat(1));
      };
      // Under one shared exponent the two decodes are one injective map
      // (neither packer writes a sign-only datum): equal values are equal
      // datums, or NaNs (shared exponent 255). Else the decoded values are
      // compared.
      Block differs;
      if (hostShared == deviceShared && hostShared != 255)
        differs = X::mapBlock(
            [&](auto h, auto d) {
              return differing(h, d, V::eq(V::zero(), V::splat(1)));
            },
            hostDatums, deviceDatums);
      else if (hostShared == deviceShared)
        differs = X::mapBlock(
            [&](auto h, auto d) {
              return differing(h, d, bfpBothNaNLanes<V, M>(h, d, hostSplat));
            },
            hostDatums, deviceDatums);
      else
        differs = X::mapBlock(
            [&](auto h, auto d) {
              return differing(h, d, V::both(V::isNaN(h), V::isNaN(d)));
            },
            bfpDecodedBlock<X, BfpSite::host, M>(f, hostDatums, hostSplat),
            bfpDecodedBlock<X, Site, M>(f, deviceDatums, deviceSplat));
      if (!mask)
        continue;
      auto bytes = X::bfpDatumsOf(differs);
      if (layout.valueStep == 1) {
        X::reportWrite(mask + first, kBfpBlockValues);
        X::storeBfpDatums(8, reinterpret_cast<char *>(mask + first), bytes);
        continue;
      }
      alignas(16) uint8_t lined[kBfpBlockValues];
      X::storeBfpDatums(8, reinterpret_cast<char *>(lined), bytes);
      for (unsigned j = 0; j < kBfpBlockValues; ++j) {
        X::reportWrite(mask + first + j * layout.valueStep, 1);
        mask[first + j * layout.valueStep] = lined[j];
      }
    }
    X::moveCounts(lanes, local);
  }
  return local[BfpClass::deviceDiffers];
}

//===-- MX tiles (§5 MX tiles): whole blocks, so no tails -----------------===//

/// Packs MX tiles [firstTile, firstTile + tileCount) as packMxTiles does.
/// An MX block is the walk's blocks 2k and 2k + 1; four blocks share one
/// reduction of their largest magnitudes, and a block with an Inf or a
/// NaN takes mxScale.
template <class X, int Load, BfpFormat Format>
__attribute__((noinline)) void mxPackLoop(const BfpLayout &layout,
                                          const char *src, size_t firstTile,
                                          size_t tileCount, char *out) {
  using V = typename X::template Lanes<32>;
  using Block = typename X::BfpBlock;
  constexpr const BfpFormatInfo &f = kBfpFormatTable[int(Format)];
  constexpr unsigned halfBytes = kBfpBlockValues * f.datumBits / 8,
                     shift = f.datumBits - f.elementBits;
  using Mx = MxLanes<V, Format>;
  const unsigned blocks = layout.shape.values() / kMxBlockValues,
                 scaleBytes = mxScaleBytes(layout),
                 inputBytes = layout.values->bytes;
  const size_t tileBytes = scaleBytes + size_t(blocks) * 2 * halfBytes;
  const bool contiguous = layout.contiguousTiles();
  size_t offsets[kBfpTileBlocks]; // of the walk's blocks, in bytes
  for (unsigned b = 0; b < 2 * blocks; ++b)
    offsets[b] = layout.blockStart[b] * inputBytes;
  for (size_t t = 0; t < tileCount; ++t) {
    const char *tile = src + layout.origin(firstTile + t) * inputBytes;
    auto *packed = reinterpret_cast<uint8_t *>(out + t * layout.packedBytes);
    X::reportWrite(packed, layout.packedBytes);
    auto valuesOf = [&](unsigned k, unsigned h) {
      const char *p = tile + offsets[2 * k + h];
      if (!contiguous)
        X::prefetch(p);
      return loadBfpValues<X, Load>(layout, p);
    };
    // Tiles one after another: while the elements are encoded, the next
    // tile's lines, a block's at a time, into the second level (a burst of
    // them in the first pass would stall its loads).
    const char *next = tile + layout.shape.values() * inputBytes;
    // The tile's scale bytes first, then its elements: no block's elements
    // wait on its scale's reduction. Values not read as fp32 are kept as
    // such in between.
    constexpr bool kWidened = Load != int(Dtype::float32);
    alignas(64) char widened[kWidened ? 4 * kBfpTileValues : 1];
    bool finite[kBfpTileValues / kMxBlockValues];
    for (unsigned first = 0; first < blocks; first += 4) {
      unsigned group = std::min(4u, blocks - first);
      Block keys[4];
      for (unsigned g = 0; g < group; ++g) {
        Block values[2];
        for (unsigned h = 0; h < 2; ++h) {
          values[h] = valuesOf(first + g, h);
          if constexpr (kWidened)
            X::storeBfpBlock(widened +
                                 4 * kBfpBlockValues * (2 * (first + g) + h),
                             values[h]);
        }
        keys[g] = X::mapBlock(
            [](auto a, auto b) {
              auto magnitudes = V::splat(0x7FFFFFFF);
              return V::max(a & magnitudes, b & magnitudes);
            },
            values[0], values[1]);
      }
      uint32_t maxMagnitude[4];
      if (group == 4) {
        typename X::BfpShared splats[4];
        X::bfpShared4(keys, splats);
        for (unsigned g = 0; g < 4; ++g)
          maxMagnitude[g] = X::firstLane(splats[g]);
      } else {
        for (unsigned g = 0; g < group; ++g)
          maxMagnitude[g] = uint32_t(X::bfpShared(keys[g]));
      }
      for (unsigned g = 0; g < group; ++g) {
        // Below Inf, the largest magnitude is the largest finite one.
        finite[first + g] = maxMagnitude[g] < 0x7F800000u;
        packed[first + g] =
            finite[first + g] ? mxScaleOfMaxFinite(f, maxMagnitude[g]) : 0;
      }
    }
    for (unsigned k = 0; k < blocks; ++k) {
      Block values[2];
      if (contiguous)
        for (unsigned h = 0; h < 2; ++h)
          X::prefetchLine(next + offsets[2 * k + h]);
      for (unsigned h = 0; h < 2; ++h)
        values[h] =
            kWidened
                ? X::loadBfpBlock(Dtype::float32,
                                  widened + 4 * kBfpBlockValues * (2 * k + h))
                : valuesOf(k, h);
      if (!finite[k]) { // an Inf or a NaN: the core's scale rule
        alignas(64) uint32_t block[kMxBlockValues];
        X::storeBfpBlock(reinterpret_cast<char *>(block), values[0]);
        X::storeBfpBlock(reinterpret_cast<char *>(block + kBfpBlockValues),
                         values[1]);
        packed[k] = mxScale(f, block);
      }
      auto divisor = V::splat(powerOfTwoBits(127 - int(packed[k])));
      auto encodeBlock = [&](auto finite) __attribute__((always_inline)) {
        // A finite float block's signs put in on bytes where the path has it.
        constexpr bool kSignBytes =
            X::kBfpSignBytes && decltype(finite)::value && !Mx::integer;
        Block codes[2];
        for (unsigned h = 0; h < 2; ++h) {
          codes[h] = X::mapBlock(
              [&](auto v) {
                return Mx::template encode<finite, !kSignBytes>(v, divisor);
              },
              values[h]);
          if constexpr (shift != 0)
            codes[h] = X::mapBlock(
                [&](auto c) { return V::shl(c, int(shift)); }, codes[h]);
        }
        char *datums =
            reinterpret_cast<char *>(packed + scaleBytes + 2 * k * halfBytes);
        if constexpr (kSignBytes)
          storeSignedDatumPair<X, f.datumBits, f.datumBits - 1, true>(
              datums, values[0], codes[0], values[1], codes[1]);
        else
          X::storeBfpDatumPair(f.datumBits, datums, codes[0], codes[1]);
      };
      if (finite[k])
        encodeBlock(std::true_type{});
      else
        encodeBlock(std::false_type{});
    }
    if (scaleBytes > blocks)
      std::memset(packed + blocks, 0, scaleBytes - blocks);
    if (layout.packedBytes > tileBytes) // §5 pages
      std::memset(packed + tileBytes, 0, layout.packedBytes - tileBytes);
  }
}

/// Unpacks MX tiles [firstTile, firstTile + tileCount) as unpackMxTiles
/// does, a walk block (16 elements) at a time.
template <class X, BfpFormat Format>
__attribute__((noinline)) void mxUnpackLoop(const BfpLayout &layout,
                                            const unsigned char *packed,
                                            size_t firstTile,
                                            size_t tileCount, char *dst) {
  using V = typename X::template Lanes<32>;
  using Block = typename X::BfpBlock;
  constexpr const BfpFormatInfo &f = kBfpFormatTable[int(Format)];
  using Mx = MxLanes<V, Format>;
  constexpr unsigned halfBytes = kBfpBlockValues * f.datumBits / 8,
                     shift = f.datumBits - f.elementBits;
  constexpr int fractionBits = Mx::integer ? int(f.elementBits) - 2 : 0;
  const unsigned blocks = layout.shape.values() / kMxBlockValues,
                 scaleBytes = mxScaleBytes(layout);
  for (size_t t = 0; t < tileCount; ++t) {
    const unsigned char *in = packed + t * layout.packedBytes;
    char *tile = dst + layout.origin(firstTile + t) * 4;
    X::reportRead(in, layout.packedBytes);
    X::prefetch(in);
    for (unsigned b = 0; b < 2 * blocks; ++b) {
      uint8_t scale = in[b / 2];
      auto codes = X::widenBfpDatums(
          X::loadBfpDatums(f.datumBits, in + scaleBytes + b * halfBytes));
      Block decoded;
      if (scale == 0xFF) { // §5 MX decoding: NaN, or an integer's 0
        uint32_t all = Mx::integer ? 0 : 0x7FC00000u;
        decoded = X::mapBlock([&](auto) { return V::splat(all); }, codes);
      } else {
        auto multiplier = V::splat(mxMultiplierBits(scale, fractionBits));
        decoded = X::mapBlock(
            [&](auto c) {
              return Mx::decode(V::shr(c, int(shift)), multiplier);
            },
            codes);
      }
      char *values = tile + layout.blockStart[b] * 4;
      storeBfpValues<X>(layout, values, decoded);
    }
  }
}

//===-- The mixed-BFP assigner (D45) --------------------------------------===//

/// Prefetches the lines of tile + 4 of `layout`'s values into L2 (a
/// matrix's tile reads 32 rows, more streams than the hardware prefetcher
/// follows; measured best of 2-8 tiles ahead).
template <class X>
void bfpPrefetchTileAhead(const BfpLayout &layout, const char *src,
                          size_t tile) {
  size_t bytes = layout.values->bytes;
  const char *next = src + layout.origin(tile + 4) * bytes;
  for (unsigned b = 0; b < layout.shape.blocks(); ++b)
    X::prefetchLine(next + layout.blockStart[b] * bytes);
}

/// Tile `tile` of `layout`'s values as fp32, block b at out[16 b], the
/// tiles ahead prefetched.
template <class X, int Load>
__attribute__((noinline)) void bfpGatherLoop(const BfpLayout &layout,
                                             const char *src, size_t tile,
                                             float *out) {
  size_t bytes = layout.values->bytes;
  const char *origin = src + layout.origin(tile) * bytes;
  bfpPrefetchTileAhead<X>(layout, src, tile);
  for (unsigned b = 0; b < layout.shape.blocks(); ++b)
    X::storeBfpBlock(
        reinterpret_cast<char *>(out + b * kBfpBlockValues),
        loadBfpValues<X, Load>(
            layout, origin + layout.blockStart[b] * bytes));
}

/// The host's round trips (pack then unpack, §5) of `count` fp32 values
/// (whole blocks of 16, load(i) the block at value i) under every mixed code c
/// in `Mask`, four blocks sharing one reduction of their exponents: consume(i,
/// values, grids, scale) for the block at value i, its round trip under code c
/// the exact product grids[c] * scale. The codes are "b" formats, so they share
/// the block's exponent, alignment and sign; each rounds the signed aligned
/// significand on its grid (bfpRoundedF; RNE is symmetric, so rounding the
/// signed value is rounding the magnitude), clamps it to the largest magnitude,
/// and scales it by 2^(shared - 150): exact, the datum's value (below 2^8 times
/// 2^(shared - 126 - M), shared at least 1, so at least 2^-149 apart), as
/// bfpDecodeLanes gives it. A block holding an Inf or a NaN (shared 255)
/// encodes and decodes each code's datums.
template <class X, unsigned Mask, class Load, class Consume>
__attribute__((always_inline)) inline void
bfpMixedTrips(Load &&load, size_t count, Consume &&consume) {
  using V = typename X::template Lanes<32>;
  using Block = typename X::BfpBlock;
  typename X::template PopcountTally<BfpClass> ignored{};
  static_assert(kMaxMixedTrips == 3);
  auto forEachCode = [](auto fn) {
    if constexpr (Mask & 1)
      fn(std::integral_constant<unsigned, 0>{});
    if constexpr (Mask & 2)
      fn(std::integral_constant<unsigned, 1>{});
    if constexpr (Mask & 4)
      fn(std::integral_constant<unsigned, 2>{});
  };
  auto trip = [&](size_t i, const Block &values, typename X::BfpShared shared,
                  int byte) __attribute__((always_inline)) {
    Block grids[kMaxMixedTrips];
    if (byte == 255) {
      forEachCode([&](auto code) {
        constexpr unsigned M = kMixedMagnitudeBits<decltype(code)::value>;
        const BfpFormatInfo &f =
            kBfpFormatTable[kBfpMixedCodes[decltype(code)::value].format];
        grids[code] = X::mapBlock(
            [&](auto v) {
              return bfpDecodeLanes<V>(
                  f, bfpEncodeLanes<V, false, M, false>(v, shared, ignored),
                  shared);
            },
            values);
      });
      consume(i, values, grids, V::splatF(1.0f));
      return;
    }
    // From shared 24 on, the signed aligned significand is the product
    // x 2^(150 - shared) truncated: s 2^(e - shared) for a normal x
    // (significand s, exponent e), exact, or below 1 (a denormal's too),
    // so that truncating it is the truncating shift. Its powers of two
    // are built from the shared exponent's lanes.
    bool product = byte >= 24;
    auto scale = product ? V::shl(V::sub(shared, V::splat(23)), 23)
                         : V::splat(byte ? powerOfTwoBits(byte - 150) : 0);
    auto aligned =
        product ? X::mapBlock(
                      [&, toAligned = V::shl(V::sub(V::splat(277), shared),
                                             23)](auto bits) {
                        return V::truncF(V::mulF(bits, toAligned));
                      },
                      values)
                : X::mapBlock(
                      [&](auto bits) {
                        auto e = V::shr(bits, 23) & V::splat(0xFF);
                        auto sign = V::sra(bits, 31);
                        auto a = bfpAlignedLanes<V>(bits, e, shared);
                        return V::toFloat(V::sub(a ^ sign, sign));
                      },
                      values);
    forEachCode([&](auto code) {
      constexpr unsigned M = kMixedMagnitudeBits<decltype(code)::value>;
      constexpr float largest = float((1u << 24) - (1u << (24 - M)));
      grids[code] = X::mapBlock(
          [&](auto a) {
            return V::maxF(V::minF(bfpRoundedF<V, M, 0>(a), V::splatF(largest)),
                           V::splatF(-largest));
          },
          aligned);
    });
    consume(i, values, grids, scale);
  };
  auto exponents = [](const Block &values) {
    return X::mapBlock(
        [](auto v) { return bfpBlockExponents<V, false>(v); }, values);
  };
  size_t i = 0;
  for (; i + 4 * kBfpBlockValues <= count; i += 4 * kBfpBlockValues) {
    Block values[4], e[4];
    for (unsigned k = 0; k < 4; ++k) {
      values[k] = load(i + k * kBfpBlockValues);
      e[k] = exponents(values[k]);
    }
    typename X::BfpShared shared[4];
    uint32_t bytes = X::bfpShared4(e, shared);
    for (unsigned k = 0; k < 4; ++k)
      trip(i + k * kBfpBlockValues, values[k], shared[k],
           int(bytes >> 8 * k & 0xFF));
  }
  for (; i < count; i += kBfpBlockValues) {
    auto values = load(i);
    int byte = X::bfpShared(exponents(values));
    trip(i, values, X::bfpSplat(byte), byte);
  }
}

/// bfpMixedTrips' round trips into q[c].
template <class X, unsigned Mask>
__attribute__((noinline)) void
bfpMixedRoundTripsLoop(const float *x, float *const *q, size_t count) {
  using V = typename X::template Lanes<32>;
  bfpMixedTrips<X, Mask>(
      [&](size_t i) {
        return X::loadBfpBlock(Dtype::float32,
                               reinterpret_cast<const char *>(x + i));
      },
      count,
      [&](size_t i, const typename X::BfpBlock &, const auto *grids,
          auto scale) {
        for (unsigned code = 0; code < kMaxMixedTrips; ++code)
          if (Mask >> code & 1)
            X::storeBfpBlock(
                reinterpret_cast<char *>(q[code] + i),
                X::mapBlock([&](auto g) { return V::mulF(g, scale); },
                            grids[code]));
      });
}

/// Eight doubles, lane k the partial sum of i = k mod 8 (clang's vector
/// extension, as wide as the path takes it), from eight fp32 values.
using MixedLanes = double __attribute__((vector_size(64)));
using MixedFloats = float __attribute__((vector_size(32)));
#define BIRSIM_MIXED_LOAD(p)                                                   \
  __builtin_convertvector(                                                     \
      [&] {                                                                    \
        MixedFloats f;                                                         \
        std::memcpy(&f, p, sizeof f);                                          \
        return f;                                                              \
      }(),                                                                     \
      MixedLanes)

/// The partial sums of `Pass` over `Count` round trips side by side
/// (independent chains), each term's operations as the portable
/// assigner's (BfpMixed.cpp): a moment's product fused into its sum (D45),
/// nothing else contracted.
template <class X, MixedPass Pass, unsigned Count>
__attribute__((noinline)) void mixedPassLoop(const float *x,
                                             const float *const *q,
                                             const double *means, size_t n,
                                             double (*partials)[8]) {
#pragma clang fp contract(off)
  constexpr unsigned kSums = mixedSumsOf(Pass, Count);
  MixedLanes sum[kSums] = {};
  if constexpr (Pass == MixedPass::moments) {
    // Sweeps of at most X::kMomentTrips round trips, so that every chain
    // stays in a register; sum[0] (x's) in the first.
    constexpr unsigned kPer = X::kMomentTrips;
    for (unsigned first = 0; first == 0 || first < Count; first += kPer) {
      unsigned last = std::min(Count, first + kPer);
      for (size_t i = 0; i < n; i += 8) {
        MixedLanes d = BIRSIM_MIXED_LOAD(x + i) - means[0];
        if (first == 0)
          sum[0] = __builtin_elementwise_fma(d, d, sum[0]);
        for (unsigned c = first; c < last; ++c) {
          MixedLanes e = BIRSIM_MIXED_LOAD(q[c] + i) - means[1 + c];
          sum[1 + c] = __builtin_elementwise_fma(e, e, sum[1 + c]);
          sum[1 + Count + c] =
              __builtin_elementwise_fma(d, e, sum[1 + Count + c]);
        }
      }
    }
    for (unsigned s = 0; s < kSums; ++s)
      std::memcpy(partials[s], &sum[s], sizeof sum[s]);
    return;
  }
  for (size_t i = 0; i < n; i += 8) {
    MixedLanes xs = BIRSIM_MIXED_LOAD(x + i), qs[Count ? Count : 1];
    for (unsigned c = 0; c < Count; ++c)
      qs[c] = BIRSIM_MIXED_LOAD(q[c] + i);
    if constexpr (Pass == MixedPass::sums) {
      sum[0] = sum[0] + xs;
      for (unsigned c = 0; c < Count; ++c)
        sum[1 + c] = sum[1 + c] + qs[c];
      sum[1 + Count] = sum[1 + Count] + __builtin_elementwise_abs(xs);
    } else {
      sum[0] = sum[0] + __builtin_elementwise_abs(xs);
      for (unsigned c = 0; c < Count; ++c)
        sum[1 + c] = sum[1 + c] + __builtin_elementwise_abs(qs[c] - xs);
    }
  }
  for (unsigned s = 0; s < kSums; ++s)
    std::memcpy(partials[s], &sum[s], sizeof sum[s]);
}

/// MixedScreenSums (Kernels.h) of tile `tile` of `layout`'s values and
/// bfpMixedTrips' round trips under the codes in `Mask`, in X's fp32
/// vectors (a block's two halves into one on AVX2: at most 128 terms a
/// lane for a tile of 1024), the tiles ahead prefetched.
template <class X, unsigned Mask, int Load>
__attribute__((noinline)) void mixedScreenLoop(const BfpLayout &layout,
                                               const char *src, size_t tile,
                                               MixedScreenSums &out) {
#pragma clang fp contract(off)
  using F = float __attribute__((vector_size(X::kVectorBytes)));
  constexpr size_t kLanes = X::kVectorBytes / 4;
  auto total = [](F v) {
    double lanes = 0;
    for (size_t k = 0; k < kLanes; ++k)
      lanes += double(v[k]);
    return lanes;
  };
  size_t bytes = layout.values->bytes, n = layout.shape.values();
  const char *origin = src + layout.origin(tile) * bytes;
  bfpPrefetchTileAhead<X>(layout, src, tile);
  auto load = [&](size_t i) {
    return loadBfpValues<X, Load>(
        layout, origin + layout.blockStart[i / kBfpBlockValues] * bytes);
  };
  // The shift: the mean of four blocks across the tile.
  F sample = {};
  for (unsigned k = 0; k < 4; ++k)
    X::mapBlock(
        [&](auto v) {
          sample += (F)v;
          return v;
        },
        load(n * k / 4));
  float a = float(total(sample) / double(4 * kBfpBlockValues));
  F shift = F{} + a, absX = {}, dx = {}, dxx = {};
  F dq[kMaxMixedTrips] = {}, dqq[kMaxMixedTrips] = {}, dxq[kMaxMixedTrips] = {};
  bfpMixedTrips<X, Mask>(
      load, n,
      [&](size_t, const typename X::BfpBlock &values, const auto *grids,
          auto scale) {
        F d[2];
        unsigned part = 0;
        X::mapBlock(
            [&](auto v) {
              F f = (F)v;
              absX += __builtin_elementwise_abs(f);
              d[part] = f - shift;
              dx += d[part];
              dxx = __builtin_elementwise_fma(d[part], d[part], dxx);
              ++part;
              return v;
            },
            values);
        for (unsigned code = 0; code < kMaxMixedTrips; ++code) {
          if (!(Mask >> code & 1))
            continue;
          part = 0;
          X::mapBlock(
              [&](auto g) {
                // q - a rounded once: q = g scale is exact.
                F e = __builtin_elementwise_fma((F)g, (F)scale, -shift);
                dq[code] += e;
                dqq[code] = __builtin_elementwise_fma(e, e, dqq[code]);
                dxq[code] = __builtin_elementwise_fma(d[part], e, dxq[code]);
                ++part;
                return g;
              },
              grids[code]);
        }
      });
  out.shift = a;
  out.absX = total(absX);
  out.dx = total(dx);
  out.dxx = total(dxx);
  for (unsigned code = 0; code < kMaxMixedTrips; ++code)
    if (Mask >> code & 1) {
      out.dq[code] = total(dq[code]);
      out.dqq[code] = total(dqq[code]);
      out.dxq[code] = total(dxq[code]);
    }
}

/// fmax over |b - a|: a NaN term keeps the running maximum.
template <class X>
__attribute__((noinline)) double
mixedMaxAbsDifferenceLoop(const float *a, const float *b, size_t n) {
  MixedLanes worst = {};
  for (size_t i = 0; i < n; i += 8) {
    MixedLanes t = __builtin_elementwise_abs(BIRSIM_MIXED_LOAD(b + i) -
                                             BIRSIM_MIXED_LOAD(a + i));
    worst = t > worst ? t : worst;
  }
  double lanes[8], most = 0;
  std::memcpy(lanes, &worst, sizeof lanes);
  for (double v : lanes)
    most = v > most ? v : most;
  return most;
}
#undef BIRSIM_MIXED_LOAD

} // namespace birsim::core::kernel

#endif // BIRSIM_LIB_CORE_KERNELS_LOOPS_H
