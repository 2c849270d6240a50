//===- ReduceTest.cpp - cast_copy_or_accumulate vs an independent oracle --===//
#include "DtypeRows.h"
#include "Oracle.h"

#include "birsim/Core/Reduce.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <vector>

using namespace birsim::core;
using oracle::APFloat;

namespace {

constexpr int kAdd = 1, kMin = 2, kMax = 3;

/// §3 for a narrow float, from APFloat: widen exactly, ALU in fp32
/// (add = ADDSS(acc, x), min = MINSS(x, acc), max = MAXSS(x, acc)), narrow
/// RNE with config 0.
uint64_t expectedNarrowReduce(Dtype d, int op, uint64_t dst, uint64_t src) {
  APFloat acc = oracle::convert(oracle::fromBits(d, dst), Dtype::float32);
  APFloat x = oracle::convert(oracle::fromBits(d, src), Dtype::float32);
  APFloat result = acc;
  if (op == kAdd) {
    if (acc.isNaN() || x.isNaN() ||
        (acc.isInfinity() && x.isInfinity() &&
         acc.isNegative() != x.isNegative()))
      return oracle::canonicalNaN(d, acc.isNaN() ? acc.isNegative()
                                     : x.isNaN() ? x.isNegative()
                                                 : true);
    result.add(x, APFloat::rmNearestTiesToEven);
  } else if (!acc.isNaN() && !x.isNaN()) {
    auto cmp = x.compare(acc);
    bool takeX = op == kMin ? cmp == APFloat::cmpLessThan
                            : cmp == APFloat::cmpGreaterThan;
    result = takeX ? x : acc;
  }
  if (result.isNaN())
    return oracle::canonicalNaN(d, result.isNegative());
  return oracle::narrow(uint32_t(oracle::toBits(result)), d, 0);
}

uint64_t run(int op, Dtype d, uint64_t dst, uint64_t src) {
  unsigned bytes = dtypeInfo(d).bytes;
  uint64_t out = dst;
  Status s = castCopyOrAccumulate(op, &out, &src, int(d));
  EXPECT_TRUE(s.ok()) << s.message();
  return bytes == 8 ? out : out & ((uint64_t(1) << (8 * bytes)) - 1);
}

// Every fp8 pair, every format, add/min/max: 3 x 65,536 x 3.
TEST(Kernel, EveryFp8Pair) {
  for (Dtype d : birsim::test::reducingAs(Reduction::Fp8))
    for (int op : {kAdd, kMin, kMax}) {
      // One bulk call over all pairs also exercises birsim::accumulate.
      std::vector<uint8_t> dst(65536), src(65536);
      for (unsigned i = 0; i < 65536; ++i) {
        dst[i] = uint8_t(i >> 8);
        src[i] = uint8_t(i);
      }
      ASSERT_TRUE(accumulate(op, dst.data(), src.data(), int(d), 65536).ok());
      for (unsigned i = 0; i < 65536; ++i)
        ASSERT_EQ(dst[i], expectedNarrowReduce(d, op, i >> 8, i & 0xFF))
            << dtypeInfo(d).name << " op " << op << " dst 0x" << std::hex
            << (i >> 8) << " src 0x" << (i & 0xFF);
    }
}

TEST(Kernel, Bf16Fp16RandomPairs) {
  std::mt19937_64 rng(42);
  for (Dtype d : {Dtype::bfloat16, Dtype::float16})
    for (int op : {kAdd, kMin, kMax})
      for (int i = 0; i < 1000000; ++i) {
        uint64_t a = rng() & 0xFFFF, b = rng() & 0xFFFF;
        if (i & 1) // close magnitudes
          b = (a & 0xFF00) | (b & 0x80FF);
        ASSERT_EQ(run(op, d, a, b), expectedNarrowReduce(d, op, a, b))
            << dtypeInfo(d).name << " op " << op << std::hex << " " << a << " "
            << b;
      }
}

TEST(Kernel, Float32RandomPairsAndOperandOrder) {
  oracle::F32Generator gen(99);
  for (int op : {kAdd, kMin, kMax})
    for (int i = 0; i < 1000000; ++i) {
      uint32_t a = gen.next(), b = (i & 1) ? gen.near(a) : gen.next();
      ASSERT_EQ(run(op, Dtype::float32, a, b), oracle::f32Expected(op, a, b));
    }
  // §2 correction of the page: a NaN on either side leaves dst (acc).
  EXPECT_EQ(run(kMin, Dtype::float32, 0x3F800000u, 0x7FC00000u), 0x3F800000u);
  EXPECT_EQ(run(kMax, Dtype::float32, 0x7F800001u, 0x3F800000u), 0x7F800001u);
  // add: a NaN in dst wins over one in src (ADDSS(acc, x)).
  EXPECT_EQ(run(kAdd, Dtype::float32, 0xFF800001u, 0x7F800002u), 0xFFC00001u);
  // min of ±0 keeps dst.
  EXPECT_EQ(run(kMin, Dtype::float32, 0x80000000u, 0u), 0x80000000u);
  EXPECT_EQ(run(kMax, Dtype::float32, 0u, 0x80000000u), 0u);
}

TEST(Kernel, NarrowNaNAndInfRules) {
  // fp8 overflow in the reduce path is Inf (config 0): 240 + 240 in E4M3.
  EXPECT_EQ(run(kAdd, Dtype::float8e4, 0x77, 0x77), 0x78u);
  EXPECT_EQ(run(kAdd, Dtype::float8e5, 0xFB, 0xFB), 0xFCu);
  // +Inf + -Inf: default NaN, narrowed to the canonical NaN.
  EXPECT_EQ(run(kAdd, Dtype::float8e5, 0x7C, 0xFC), 0x7Eu);
  EXPECT_EQ(run(kAdd, Dtype::float16, 0x7C00, 0xFC00), 0xFE00u);
  EXPECT_EQ(run(kAdd, Dtype::bfloat16, 0x7F80, 0xFF80), 0x7FC0u);
  // A NaN dst under min/max stays a NaN, canonicalised by the narrow.
  EXPECT_EQ(run(kMin, Dtype::float8e4, 0xFF, 0x38), 0x7Cu);
  EXPECT_EQ(run(kMax, Dtype::float16, 0xFE01, 0x3C00), 0xFE00u);
  // A NaN src leaves dst.
  EXPECT_EQ(run(kMax, Dtype::bfloat16, 0x3F80, 0x7FC1), 0x3F80u);
}

TEST(Kernel, IntegersWrapAndCompareSigned) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 1000000; ++i) {
    uint64_t a = rng(), b = rng();
    int32_t a32 = int32_t(a), b32 = int32_t(b);
    EXPECT_EQ(run(kAdd, Dtype::int32, uint32_t(a32), uint32_t(b32)),
              uint32_t(uint32_t(a32) + uint32_t(b32)));
    EXPECT_EQ(run(kMin, Dtype::int32, uint32_t(a32), uint32_t(b32)),
              uint32_t(std::min(a32, b32)));
    EXPECT_EQ(run(kMax, Dtype::int32, uint32_t(a32), uint32_t(b32)),
              uint32_t(std::max(a32, b32)));
    EXPECT_EQ(run(kAdd, Dtype::int64, a, b), a + b);
    EXPECT_EQ(run(kMin, Dtype::int64, a, b),
              uint64_t(std::min(int64_t(a), int64_t(b))));
    EXPECT_EQ(run(kMax, Dtype::int64, a, b),
              uint64_t(std::max(int64_t(a), int64_t(b))));
  }
  EXPECT_EQ(run(kAdd, Dtype::int32, 0x7FFFFFFF, 1), 0x80000000u);
  EXPECT_EQ(run(kAdd, Dtype::int64, 0x7FFFFFFFFFFFFFFFull, 1),
            0x8000000000000000ull);
}

TEST(Kernel, CopyEveryDtypeAndReduceLegality) {
  // Which dtypes reduce is the table's (RuntimeAbi.DtypeTable holds the
  // golden column); here every row follows it.
  for (int d = 0; d < kNumDtypes; ++d) {
    unsigned char dst[8], src[8];
    std::memset(dst, 0xAB, 8);
    for (int i = 0; i < 8; ++i)
      src[i] = uint8_t(i + 1);
    ASSERT_TRUE(castCopyOrAccumulate(0, dst, src, d).ok());
    unsigned n = lookupDtype(d)->bytes;
    EXPECT_EQ(std::memcmp(dst, src, n), 0);
    for (unsigned i = n; i < 8; ++i)
      EXPECT_EQ(dst[i], 0xAB);
    bool reduces = lookupDtype(d)->reduces();
    for (int op : {kAdd, kMin, kMax}) {
      std::memset(dst, 0xAB, 8);
      Status s = castCopyOrAccumulate(op, dst, src, d);
      EXPECT_EQ(s.ok(), reduces) << d;
      if (!reduces) {
        EXPECT_EQ(s.message(),
                  std::string("cast_accumulate: unsupported dtype ") +
                      lookupDtype(d)->name);
        for (unsigned char c : dst)
          EXPECT_EQ(c, 0xAB);
      }
    }
  }
  unsigned char dst[8] = {}, src[8] = {};
  const int past = kNumDtypes; // the first number past the table
  Status s = castCopyOrAccumulate(0, dst, src, past);
  EXPECT_EQ(s.code, ErrorCode::unknownDtype);
  EXPECT_EQ(s.message(), "Unknown dtype " + std::to_string(past));
  EXPECT_EQ(castCopyOrAccumulate(1, dst, src, past).message(),
            "cast_accumulate: unsupported dtype <dtype " +
                std::to_string(past) + ">");
  EXPECT_EQ(castCopyOrAccumulate(4, dst, src, 16).code, ErrorCode::invalidOp);
  EXPECT_EQ(castCopyOrAccumulate(-1, dst, src, 16).code, ErrorCode::invalidOp);
  EXPECT_EQ(std::string(lookupDtype(17)->name), "float32r");
}

TEST(AluOpType2MemoryReduction, OnlyBypassAndAddMap) {
  for (int alu = -1; alu <= kNumAluOpTypes; ++alu) {
    MemoryReductionOp op = MemoryReductionOp::max;
    Status s = aluOpToMemoryReduction(alu, op);
    if (alu == 0) {
      EXPECT_TRUE(s.ok());
      EXPECT_EQ(op, MemoryReductionOp::copy);
    } else if (alu == 4) {
      EXPECT_TRUE(s.ok());
      EXPECT_EQ(op, MemoryReductionOp::add);
    } else {
      EXPECT_EQ(s.code, ErrorCode::unmappedAluOp);
      EXPECT_EQ(op, MemoryReductionOp::max); // untouched
    }
  }
  MemoryReductionOp op;
  EXPECT_EQ(
      aluOpToMemoryReduction(9, op).message(),
      "AluOpType2MemoryReduction: AluOpType min (9) has no "
      "MemoryReductionOp; only bypass and add map (inst_visitor.cpp:363)");
  EXPECT_STREQ(aluOpTypeName(32), "mod_int");
  EXPECT_STREQ(aluOpTypeName(8), "max");
  EXPECT_EQ(aluOpTypeName(33), nullptr);
}

TEST(Collective, OperandOrderAndOps) {
  oracle::F32Generator gen(11);
  for (int i = 0; i < 1000000; ++i) {
    uint32_t acc = gen.next(), x = (i & 1) ? gen.near(acc) : gen.next();
    uint32_t a[3] = {acc, acc, acc}, xs[3] = {x, x, x};
    ASSERT_TRUE(collectiveReduce(4, a, xs, 1).ok());
    ASSERT_TRUE(collectiveReduce(8, a + 1, xs + 1, 1).ok());
    ASSERT_TRUE(collectiveReduce(9, a + 2, xs + 2, 1).ok());
    // add = ADDSS(x, acc): x's NaN wins; max/min = M*SS(x, acc).
    ASSERT_EQ(a[0], oracle::f32Expected(kAdd, x, acc));
    ASSERT_EQ(a[1], oracle::f32Expected(kMax, acc, x));
    ASSERT_EQ(a[2], oracle::f32Expected(kMin, acc, x));
  }
  uint32_t acc = 0x7FC00001u, x = 0x7FC00002u;
  ASSERT_TRUE(collectiveReduce(4, &acc, &x, 1).ok());
  EXPECT_EQ(acc, 0x7FC00002u);
  for (int alu = 0; alu < kNumAluOpTypes; ++alu) {
    if (alu == 4 || alu == 8 || alu == 9)
      continue;
    uint32_t a = 1, b = 2;
    Status s = collectiveReduce(alu, &a, &b, 1);
    EXPECT_EQ(s.code, ErrorCode::unsupportedCollectiveOp);
    EXPECT_EQ(a, 1u);
  }
}

TEST(Scatter, RepeatedIndicesInOrderAndBoundsFirst) {
  // bf16 1.0 added three times at index 1, once at 0.
  uint16_t dst[3] = {0x3F80, 0x3F80, 0x3F80};
  const uint16_t src[4] = {0x3F80, 0x3F80, 0x3F80, 0x4000};
  const int64_t idx[4] = {1, 1, 1, 0};
  ASSERT_TRUE(scatterAccumulate(1, dst, 3, src, idx, 4, 12).ok());
  EXPECT_EQ(dst[0], 0x4040); // 3.0
  EXPECT_EQ(dst[1], 0x4080); // 4.0
  EXPECT_EQ(dst[2], 0x3F80);
  const int64_t bad[4] = {0, 1, 3, 0};
  uint16_t before[3];
  std::memcpy(before, dst, sizeof dst);
  Status s = scatterAccumulate(1, dst, 3, src, bad, 4, 12);
  EXPECT_EQ(s.code, ErrorCode::indexOutOfRange);
  EXPECT_EQ(s.message(),
            "scatter index 3 is outside the destination of 3 elements");
  EXPECT_EQ(std::memcmp(before, dst, sizeof dst), 0);
  const int64_t negative[1] = {-1};
  EXPECT_EQ(scatterAccumulate(0, dst, 3, src, negative, 1, 12).code,
            ErrorCode::indexOutOfRange);
}

} // namespace
