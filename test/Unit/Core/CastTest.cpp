//===- CastTest.cpp - whole-tensor cast engine vs a second implementation -===//
#include "Oracle.h"

#include "birsim/Core/Cast.h"

#include "llvm/ADT/APSInt.h"

#include "gtest/gtest.h"

#include <vector>

using namespace birsim::core;
using llvm::APInt;
using llvm::APSInt;
using oracle::APFloat;

namespace {

const unsigned kConfigs[] = {0x0000, 0x0001, 0xFF00, 0xFF01};

std::vector<int> castableDtypes() {
  std::vector<int> v;
  for (int d = 0; d < kNumDtypes; ++d)
    if (isCastable(*lookupDtype(d)))
      v.push_back(d);
  return v;
}

void checkAll(int srcDtype, uint64_t bits) {
  const DtypeInfo &src = *lookupDtype(srcDtype);
  for (int dstDtype : castableDtypes()) {
    const DtypeInfo &dst = *lookupDtype(dstDtype);
    for (unsigned config : kConfigs) {
      uint64_t out = 0;
      Status s = castBuffer(srcDtype, &bits, dstDtype, &out, 1, config);
      ASSERT_TRUE(s.ok()) << s.message();
      uint64_t want = oracle::expectedCast(src, bits, dst, config);
      if (dst.kind == DtypeKind::Float32r && want == ~uint64_t(0)) {
        ASSERT_TRUE((out & 0x7FFFFFFFu) > 0x7F800000u);
        ASSERT_EQ(out & 0x1FFF, 0u);
        continue;
      }
      ASSERT_EQ(out, want) << src.name << " 0x" << std::hex << bits << " -> "
                           << dst.name << " cfg 0x" << config;
    }
  }
}

// Every value of every one-byte dtype (the four fp8 formats, e8m0fnu, int8,
// uint8) to every castable dtype under four FP8 configs.
TEST(Cast, EveryByteValueToEveryDtype) {
  for (int d : castableDtypes())
    if (lookupDtype(d)->bytes == 1)
      for (uint64_t bits = 0; bits < 256; ++bits)
        checkAll(d, bits);
}

TEST(Cast, EveryTwoByteValueToEveryDtype) {
  for (int d : castableDtypes())
    if (lookupDtype(d)->bytes == 2)
      for (uint64_t bits = 0; bits < 65536; ++bits)
        checkAll(d, bits);
}

TEST(Cast, RandomWideValuesToEveryDtype) {
  oracle::F32Generator gen(1234);
  for (int d : castableDtypes()) {
    unsigned bytes = lookupDtype(d)->bytes;
    if (bytes < 4)
      continue;
    for (int i = 0; i < 40000; ++i) {
      uint64_t bits = bytes == 4 ? gen.next() : gen.bits() >> (gen.bits() % 64);
      checkAll(d, bytes == 8 && (i & 1) ? uint64_t(0) - bits : bits);
    }
  }
}

TEST(Cast, SpecRules) {
  auto cast = [](int from, uint64_t bits, int to, unsigned cfg) {
    uint64_t out = 0;
    EXPECT_TRUE(castBuffer(from, &bits, to, &out, 1, cfg).ok());
    return out;
  };
  // Same dtype: bits unchanged, NaN payload included.
  EXPECT_EQ(cast(7, 0xFF, 7, 1), 0xFFu);
  EXPECT_EQ(cast(16, 0x7F800001u, 16, 0), 0x7F800001u);
  EXPECT_EQ(cast(17, 0x3F801234u, 17, 0), 0x3F801234u);
  // e8m0fnu is a plain unsigned byte.
  EXPECT_EQ(cast(6, 200, 16, 1), 0x43480000u);
  EXPECT_EQ(cast(16, 0x43480000u, 6, 1), 200u);
  // fp32 -> int: RNE then saturate; NaN -> max / min / 0.
  EXPECT_EQ(cast(16, 0x40200000u, 15, 1), 2u); // 2.5 -> 2
  EXPECT_EQ(cast(16, 0x40600000u, 15, 1), 4u); // 3.5 -> 4
  EXPECT_EQ(cast(16, 0x4F800000u, 15, 1), 0x7FFFFFFFu);
  EXPECT_EQ(cast(16, 0x7FC00000u, 1, 1), 0x7Fu);
  EXPECT_EQ(cast(16, 0xFFC00000u, 1, 1), 0x80u);
  EXPECT_EQ(cast(16, 0xFFC00000u, 0, 1), 0u);
  EXPECT_EQ(cast(16, 0xBF800000u, 0, 1), 0u); // -1 -> uint8 0
  // int -> fp32 loses low bits above 2^24.
  EXPECT_EQ(cast(15, 16777217, 16, 1), 0x4B800000u);
  // Whole-tensor default saturates; config 0 overflows to Inf.
  EXPECT_EQ(cast(16, 0x47800000u, 7, 1), 0x7Bu);
  EXPECT_EQ(cast(16, 0x47800000u, 7, 0), 0x7Cu);
  EXPECT_EQ(cast(16, 0x7FC00000u, 4, 0xFF01), 0u);
  // Config does not touch bf16/fp16.
  EXPECT_EQ(cast(16, 0x7F800000u, 13, 1), 0x7C00u);
}

TEST(Cast, Errors) {
  uint32_t src = 0x3F800000u, dst = 0xABABABABu;
  EXPECT_EQ(castBuffer(16, &src, 8, &dst, 1, 1).code, ErrorCode::notCastable);
  EXPECT_EQ(
      castBuffer(2, &src, 16, &dst, 1, 1).message(),
      "cast: dtype float4_e2m1fn_x4 is packed and outside the cast engine");
  EXPECT_EQ(castBuffer(16, &src, kNumDtypes, &dst, 1, 1).code,
            ErrorCode::unknownDtype);
  EXPECT_EQ(castBuffer(16, &src, 7, &dst, 1, 2).code,
            ErrorCode::invalidArgument);
  EXPECT_EQ(castBuffer(16, nullptr, 7, &dst, 1, 1).code,
            ErrorCode::invalidArgument);
  EXPECT_EQ(dst, 0xABABABABu);
  EXPECT_TRUE(castBuffer(16, nullptr, 7, nullptr, 0, 1).ok());
}

} // namespace
