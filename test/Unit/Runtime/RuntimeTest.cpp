//===- RuntimeTest.cpp - every error path of the C ABI --------------------===//
#include "birsim/Runtime/Runtime.h"
#include "birsim/Core/Bfp.h"
#include "birsim/Core/Fidelity.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

namespace {

std::string lastError() { return birsim_last_error(); }

/// A destination that must stay untouched.
struct Guarded {
  unsigned char bytes[4096];
  Guarded() { std::memset(bytes, 0xA5, sizeof bytes); }
  bool untouched() const {
    for (unsigned char b : bytes)
      if (b != 0xA5)
        return false;
    return true;
  }
};

TEST(RuntimeAbi, AccumulateErrors) {
  Guarded dst;
  unsigned char src[64] = {1};
  EXPECT_EQ(birsim_cast_copy_or_accumulate(1, dst.bytes, src, 17),
            BIRSIM_EUNSUPPORTED_DTYPE);
  EXPECT_EQ(lastError(), "cast_accumulate: unsupported dtype float32r");
  EXPECT_EQ(birsim_cast_copy_or_accumulate(0, dst.bytes, src,
                                           birsim_dtype_count()),
            BIRSIM_EUNKNOWN_DTYPE);
  EXPECT_NE(lastError().find("Unknown dtype"), std::string::npos);
  EXPECT_EQ(birsim_cast_copy_or_accumulate(4, dst.bytes, src, 16), BIRSIM_EOP);
  EXPECT_NE(lastError().find("MemoryReductionOp 4"), std::string::npos);
  EXPECT_EQ(birsim_accumulate(2, dst.bytes, src, 1, 4),
            BIRSIM_EUNSUPPORTED_DTYPE);
  EXPECT_EQ(lastError(), "cast_accumulate: unsupported dtype int8");
  EXPECT_EQ(birsim_accumulate(1, dst.bytes, nullptr, 16, 4), BIRSIM_EINVAL);
  EXPECT_NE(lastError().find("null buffer"), std::string::npos);
  EXPECT_EQ(birsim_accumulate(1, nullptr, src, 16, 4), BIRSIM_EINVAL);
  EXPECT_EQ(birsim_accumulate(1, nullptr, nullptr, 16, 0), BIRSIM_OK);
  EXPECT_TRUE(dst.untouched());
}

TEST(RuntimeAbi, ScatterChecksEveryIndexFirst) {
  Guarded dst;
  float src[4] = {1, 2, 3, 4};
  int64_t idx[4] = {0, 1, 2, 1024};
  EXPECT_EQ(birsim_scatter_accumulate(1, dst.bytes, 1024, src, idx, 4, 16),
            BIRSIM_EINDEX);
  EXPECT_EQ(lastError(), "scatter index 1024 is outside the destination of "
                         "1024 elements");
  EXPECT_EQ(birsim_scatter_accumulate(1, dst.bytes, 1024, src, nullptr, 4, 16),
            BIRSIM_EINVAL);
  EXPECT_EQ(birsim_scatter_accumulate(3, dst.bytes, 1024, src, idx, 4, 14),
            BIRSIM_EUNSUPPORTED_DTYPE);
  EXPECT_EQ(birsim_scatter_accumulate(7, dst.bytes, 1024, src, idx, 4, 16),
            BIRSIM_EOP);
  EXPECT_TRUE(dst.untouched());
  int64_t good[4] = {3, 3, 0, 3};
  float out[4] = {0, 0, 0, 0};
  ASSERT_EQ(birsim_scatter_accumulate(1, out, 4, src, good, 4, 16), BIRSIM_OK);
  EXPECT_EQ(out[3], 7.0f);
  EXPECT_EQ(out[0], 3.0f);
}

TEST(RuntimeAbi, AluOpAndCollective) {
  int op = 99;
  EXPECT_EQ(birsim_alu_op_to_memory_reduction(0, &op), BIRSIM_OK);
  EXPECT_EQ(op, BIRSIM_OP_COPY);
  EXPECT_EQ(birsim_alu_op_to_memory_reduction(4, &op), BIRSIM_OK);
  EXPECT_EQ(op, BIRSIM_OP_ADD);
  op = 99;
  EXPECT_EQ(birsim_alu_op_to_memory_reduction(8, &op), BIRSIM_EALU_OP);
  EXPECT_NE(lastError().find("max (8) has no MemoryReductionOp"),
            std::string::npos);
  EXPECT_EQ(op, 99);
  EXPECT_EQ(birsim_alu_op_to_memory_reduction(4, nullptr), BIRSIM_EINVAL);
  Guarded acc;
  float x[4] = {};
  EXPECT_EQ(
      birsim_collective_reduce(5, reinterpret_cast<float *>(acc.bytes), x, 4),
      BIRSIM_ECOLLECTIVE_OP);
  EXPECT_NE(lastError().find("subtract (5) is not add, max or min"),
            std::string::npos);
  EXPECT_EQ(birsim_collective_reduce(4, nullptr, x, 4), BIRSIM_EINVAL);
  EXPECT_TRUE(acc.untouched());
}

// Dtype numbers: 4 float8e4, 12 bfloat16, 15 int32, 16 float32, 19 int64.
TEST(RuntimeAbi, DmaComputeAcrossDtypes) {
  // bf16 PSUM += fp32: 1 + 1.5 * 2^-8 rounds up to 1 + 2^-7.
  uint16_t psum[2] = {0x3F80, 0x3F80};
  float out[2] = {1.0f + 0x1.8p-8f, 0x1p-8f};
  ASSERT_EQ(birsim_accumulate_mixed(1, psum, 12, out, 16, 2, 0,
                                    BIRSIM_ROUND_NEAREST_EVEN, 0),
            BIRSIM_OK);
  EXPECT_EQ(psum[0], 0x4000); // 1 + 1 + 1.5 * 2^-8 = 2 + ... rounds to 2
  EXPECT_EQ(psum[1], 0x3F80); // 1 + 2^-8: a tie, to even
  int64_t indices[2] = {1, 1};
  ASSERT_EQ(birsim_scatter_accumulate_mixed(1, psum, 2, 12, out, 16, indices, 2,
                                            0, BIRSIM_ROUND_STOCHASTIC, 42),
            BIRSIM_OK);
  const void *srcs[2] = {out, out};
  const int dtypes[2] = {16, 16};
  uint16_t sum[2];
  ASSERT_EQ(birsim_dma_compute(1, srcs, dtypes, 2, sum, 12, 2, 0,
                               BIRSIM_ROUND_NEAREST_EVEN, 0),
            BIRSIM_OK);
  EXPECT_EQ(sum[1], 0x3C00); // 2^-7
  EXPECT_STREQ(birsim_nki_dtype_name(4), "float8_e4m3");
  EXPECT_EQ(birsim_nki_dtype_name(19), nullptr);
  EXPECT_EQ(birsim_nki_dtype_name(99), nullptr);
  Guarded dst;
  EXPECT_EQ(birsim_accumulate_mixed(1, dst.bytes, 12, out, 19, 2, 0, 0, 0),
            BIRSIM_ENOT_DMA_DTYPE);
  EXPECT_NE(lastError().find("dtype int64 is not one the DMA engine"),
            std::string::npos);
  EXPECT_EQ(birsim_accumulate_mixed(1, dst.bytes, 15, out, 16, 2, 0,
                                    BIRSIM_ROUND_STOCHASTIC, 0),
            BIRSIM_EINVAL);
  EXPECT_EQ(
      birsim_dma_compute(1, nullptr, dtypes, 2, dst.bytes, 12, 2, 0, 0, 0),
      BIRSIM_EINVAL);
  EXPECT_TRUE(dst.untouched());
}

TEST(RuntimeAbi, CastErrors) {
  Guarded dst;
  float src[4] = {1, 2, 3, 4};
  EXPECT_EQ(birsim_cast(16, src, 9, dst.bytes, 4, 1), BIRSIM_ENOT_CASTABLE);
  EXPECT_EQ(birsim_cast(16, src, 21, dst.bytes, 4, 1), BIRSIM_EUNKNOWN_DTYPE);
  EXPECT_EQ(birsim_cast(-1, src, 7, dst.bytes, 4, 1), BIRSIM_EUNKNOWN_DTYPE);
  EXPECT_EQ(birsim_cast(16, src, 7, dst.bytes, 4, 0x10000), BIRSIM_EINVAL);
  EXPECT_NE(lastError().find("fp8_config"), std::string::npos);
  EXPECT_EQ(birsim_cast(16, nullptr, 7, dst.bytes, 4, 1), BIRSIM_EINVAL);
  EXPECT_TRUE(dst.untouched());
}

// The golden rows of docs/Semantics.md section 1, written out independently
// of Dtypes.def: a row added there and not here fails the count.
struct GoldenDtype {
  const char *name, *mlirType, *kind, *reduction;
  uint32_t bytes, exponentBits, mantissaBits;
  int32_t bias;
};
const GoldenDtype kGoldenDtypes[] = {
    {"uint8", "ui8", "unsigned_int", "none", 1, 0, 0, 0},
    {"int8", "i8", "signed_int", "none", 1, 0, 0, 0},
    {"float4_e2m1fn_x4", "!birsim.float4_e2m1fn_x4", "packed", "none", 2, 0,
     0, 0},
    {"float8e3", "f8E3M4", "float", "fp8", 1, 3, 4, 3},
    {"float8e4", "f8E4M3", "float", "fp8", 1, 4, 3, 7},
    {"float8_e4m3fn", "f8E4M3FN", "float", "none", 1, 4, 3, 7},
    {"float8_e8m0fnu", "f8E8M0FNU", "unsigned_int", "none", 1, 0, 0, 0},
    {"float8e5", "f8E5M2", "float", "fp8", 1, 5, 2, 15},
    {"float8_e4m3fn_x4", "!birsim.float8_e4m3fn_x4", "packed", "none", 4, 0,
     0, 0},
    {"float8_e5m2_x4", "!birsim.float8_e5m2_x4", "packed", "none", 4, 0, 0,
     0},
    {"uint16", "ui16", "unsigned_int", "none", 2, 0, 0, 0},
    {"int16", "i16", "signed_int", "none", 2, 0, 0, 0},
    {"bfloat16", "bf16", "float", "narrow16", 2, 8, 7, 127},
    {"float16", "f16", "float", "narrow16", 2, 5, 10, 15},
    {"uint32", "ui32", "unsigned_int", "none", 4, 0, 0, 0},
    {"int32", "i32", "signed_int", "int32", 4, 0, 0, 0},
    {"float32", "f32", "float32", "float32", 4, 8, 23, 127},
    {"float32r", "!birsim.float32r", "float32r", "none", 4, 8, 23, 127},
    {"uint64", "ui64", "unsigned_int", "none", 8, 0, 0, 0},
    {"int64", "i64", "signed_int", "int64", 8, 0, 0, 0},
};

TEST(RuntimeAbi, DtypeTable) {
  ASSERT_EQ(birsim_dtype_count(), int(std::size(kGoldenDtypes)));
  for (int d = 0; d < birsim_dtype_count(); ++d) {
    const GoldenDtype &want = kGoldenDtypes[d];
    EXPECT_STREQ(birsim_dtype_name(d), want.name);
    EXPECT_EQ(birsim_dtype_size(d), want.bytes);
    struct birsim_dtype_info info;
    ASSERT_EQ(birsim_dtype_info(d, &info, sizeof info), BIRSIM_OK) << d;
    EXPECT_STREQ(info.name, want.name);
    EXPECT_STREQ(info.mlir_type, want.mlirType) << want.name;
    EXPECT_STREQ(info.kind, want.kind) << want.name;
    EXPECT_STREQ(info.reduction, want.reduction) << want.name;
    EXPECT_EQ(info.bytes, want.bytes) << want.name;
    EXPECT_EQ(info.exponent_bits, want.exponentBits) << want.name;
    EXPECT_EQ(info.mantissa_bits, want.mantissaBits) << want.name;
    EXPECT_EQ(info.bias, want.bias) << want.name;
  }
  int past = birsim_dtype_count();
  EXPECT_EQ(birsim_dtype_name(past), nullptr);
  EXPECT_EQ(birsim_dtype_name(-1), nullptr);
  EXPECT_EQ(birsim_dtype_size(past), 0u);
  // Errors write nothing.
  struct birsim_dtype_info info;
  std::memset(&info, 0xA5, sizeof info);
  struct birsim_dtype_info before = info;
  EXPECT_EQ(birsim_dtype_info(past, &info, sizeof info),
            BIRSIM_EUNKNOWN_DTYPE);
  EXPECT_EQ(lastError(), "Unknown dtype " + std::to_string(past));
  EXPECT_EQ(birsim_dtype_info(-1, &info, sizeof info), BIRSIM_EUNKNOWN_DTYPE);
  EXPECT_EQ(birsim_dtype_info(0, &info, sizeof info - 1), BIRSIM_EINVAL);
  EXPECT_NE(lastError().find("smaller than struct birsim_dtype_info"),
            std::string::npos);
  EXPECT_EQ(std::memcmp(&info, &before, sizeof info), 0);
  EXPECT_EQ(birsim_dtype_info(0, nullptr, sizeof info), BIRSIM_EINVAL);
}

// The other tables' names, and their error texts built from the same rows.
TEST(RuntimeAbi, EnumerationNames) {
  const char *ops[] = {"copy", "add", "min", "max"};
  for (int i = 0; i < 4; ++i)
    EXPECT_STREQ(birsim_memory_reduction_op_name(i), ops[i]);
  EXPECT_EQ(birsim_memory_reduction_op_name(4), nullptr);
  EXPECT_EQ(birsim_memory_reduction_op_name(-1), nullptr);
  EXPECT_STREQ(birsim_alu_op_type_name(0), "bypass");
  EXPECT_STREQ(birsim_alu_op_type_name(9), "min");
  EXPECT_STREQ(birsim_alu_op_type_name(32), "mod_int");
  EXPECT_EQ(birsim_alu_op_type_name(33), nullptr);
  EXPECT_EQ(birsim_alu_op_type_name(-1), nullptr);
  const char *formats[] = {"bfp8_b",     "bfp4_b",     "bfp8_a",
                           "bfp4_a",     "bfp2_b",     "bfp2_a",
                           "mxfp8_e5m2", "mxfp8_e4m3", "mxfp6_e3m2",
                           "mxfp6_e2m3", "mxfp4",      "mxint8",
                           "mxint4",     "mxint2"};
  const char *exponents[] = {"fp32", "fp32", "fp16", "fp16", "fp32",
                             "fp16", "e8m0", "e8m0", "e8m0", "e8m0",
                             "e8m0", "e8m0", "e8m0", "e8m0"};
  const uint32_t mantissaBits[] = {7, 3, 7, 3, 1, 1, 2, 3, 2, 3, 1, 6, 2, 0};
  // tt-metal's sizes: BFP 64 exponent bytes; MX 32 scale bytes + elements.
  const size_t tileBytes[] = {1088, 576,  1088, 576,  320, 320, 1056,
                              1056, 1056, 1056, 544,  1056, 544, 288};
  for (int i = 0; i < 14; ++i) {
    EXPECT_STREQ(birsim_bfp_format_name(i), formats[i]);
    EXPECT_STREQ(birsim_bfp_exponent_kind(i), exponents[i]);
    EXPECT_EQ(birsim_bfp_mantissa_bits(i), mantissaBits[i]) << formats[i];
    EXPECT_EQ(birsim_bfp_tile_bytes(i), tileBytes[i]) << formats[i];
  }
  EXPECT_EQ(birsim_bfp_format_name(14), nullptr);
  const char *codes[] = {"bfp8_b", "bfp4_b", "bfp2_b", "bfp0"};
  for (int i = 0; i < 4; ++i)
    EXPECT_STREQ(birsim_bfp_mixed_code_name(i), codes[i]);
  EXPECT_EQ(birsim_bfp_mixed_code_name(4), nullptr);
  EXPECT_EQ(birsim_bfp_mixed_code_name(-1), nullptr);
  EXPECT_STREQ(birsim_bfp_mixed_metric_name(BIRSIM_MIXED_MAX_ABS), "max_abs");
  EXPECT_STREQ(birsim_bfp_mixed_metric_name(BIRSIM_MIXED_MEAN_ABS),
               "mean_abs");
  EXPECT_STREQ(birsim_bfp_mixed_metric_name(BIRSIM_MIXED_PCC), "pcc");
  EXPECT_EQ(birsim_bfp_mixed_metric_name(3), nullptr);
  EXPECT_EQ(birsim_bfp_exponent_kind(-1), nullptr);
  unsigned char dst[4] = {}, src[4] = {};
  EXPECT_EQ(birsim_accumulate(4, dst, src, 16, 1), BIRSIM_EOP);
  EXPECT_EQ(lastError(), "invalid MemoryReductionOp 4: expected copy=0, "
                         "add=1, min=2 or max=3");
  EXPECT_EQ(birsim_bfp_tile_bytes(14), 0u);
  EXPECT_EQ(birsim_bfp_pack_tiles(14, nullptr, 0, nullptr), BIRSIM_EFORMAT);
  EXPECT_EQ(lastError(),
            "unknown BFP format 14: expected bfp8_b=0, bfp4_b=1, bfp8_a=2, "
            "bfp4_a=3, bfp2_b=4, bfp2_a=5, mxfp8_e5m2=6, mxfp8_e4m3=7, "
            "mxfp6_e3m2=8, mxfp6_e2m3=9, mxfp4=10, mxint8=11, mxint4=12 or "
            "mxint2=13");
}

/// The first number past the BFP format table.
int firstUnknownFormat() {
  int n = 0;
  while (birsim_bfp_format_name(n))
    ++n;
  return n;
}

// Fidelity.def's rows by number, the version and the active path.
TEST(RuntimeAbi, FidelityKeysVersionAndPath) {
  const char *families[] = {"reduce", "cast", "bfp_pack", "tt_fp8",
                            "mx_pack", "tensix"};
  for (int f = 0; f < 6; ++f)
    EXPECT_STREQ(birsim_fidelity_family_name(f), families[f]);
  EXPECT_EQ(birsim_fidelity_family_name(6), nullptr);
  EXPECT_EQ(birsim_fidelity_family_name(-1), nullptr);
  std::vector<std::string> keys;
  int family = -1;
  for (int e = 0; birsim_fidelity_event_key(e, &family); ++e)
    keys.push_back(std::string(birsim_fidelity_family_name(family)) + "." +
                   birsim_fidelity_event_key(e, nullptr));
  const std::vector<std::string> want = {
      "reduce.sim_inf_device_saturates", "cast.saturated",
      "cast.overflow_to_inf",            "cast.overflow_to_nan",
      "cast.nan_suppressed",             "cast.inexact",
      "cast.underflow_to_zero",          "bfp_pack.flushed_to_zero",
      "bfp_pack.rounding_ties",          "bfp_pack.saturated",
      "bfp_pack.exponent_clamped",       "bfp_pack.device_differs",
      "tt_fp8.host_ocp_differ",          "tt_fp8.host_blackhole_differ",
      "tt_fp8.ocp_blackhole_differ",     "mx_pack.saturated",
      "mx_pack.flushed_to_zero",         "mx_pack.nan",
      "tensix.below_hifi4",              "tensix.minus_one_quirk"};
  EXPECT_EQ(keys, want);
  EXPECT_EQ(birsim_fidelity_event_key(-1, &family), nullptr);
  std::string version = birsim_version();
  EXPECT_EQ(std::count(version.begin(), version.end(), '.'), 2) << version;
  std::string isa = birsim_active_isa();
  EXPECT_TRUE(isa == "portable" || isa == "avx2" || isa == "avx512") << isa;
  if (const char *forced = std::getenv("BIRSIM_ISA"); forced &&
      std::string(forced) == "portable")
    EXPECT_EQ(isa, "portable");
}

// The Tensix entry points: the silicon numbers, the counters, the names,
// every error's status and message, and nothing written on error.
// §7 "Fidelity phases"' example through the C API: bfp4-valued in1 with
// bf16 in0 keeps phases {0, 2}, which realign a cancelling sum.
TEST(RuntimeAbi, TensixMatmulAndUsefulPhases) {
  std::vector<float> in0(32 * 32, 0.0f), in1(32 * 32, 0.0f);
  in0[0] = 14.5f;
  in0[1] = -14.5625f;
  in0[16] = -0.00341796875f;
  in1[0] = in1[32] = 1.0f;
  in1[16 * 32] = 1.75f;
  unsigned useful = birsim_tensix_useful_phases(BIRSIM_TENSIX_HIFI4, 8, 3);
  EXPECT_EQ(useful, 0x5u);
  EXPECT_EQ(birsim_tensix_useful_phases(BIRSIM_TENSIX_HIFI4, 7, 8), 0x3u);
  EXPECT_EQ(birsim_tensix_useful_phases(BIRSIM_TENSIX_HIFI4, 8, 8), 0xFu);
  // The operand bounds, as the table states them: TF32 11, bf16 8,
  // bfp8 7, bfp4 3, bfp2 1; MX elements' mantissa and hidden bit.
  EXPECT_EQ(birsim_tensix_src_bits(BIRSIM_TENSIX_SRC_TF32), 11u);
  EXPECT_EQ(birsim_tensix_src_bits(BIRSIM_TENSIX_SRC_BF16), 8u);
  EXPECT_EQ(birsim_tensix_src_bits(BIRSIM_TENSIX_SRC_FP16), 11u);
  EXPECT_EQ(birsim_tensix_src_bits(3), 0u);
  const std::pair<int, unsigned> bfpBits[] = {
      {BIRSIM_BFP8_B, 7},     {BIRSIM_BFP4_B, 3},     {BIRSIM_BFP2_B, 1},
      {BIRSIM_BFP8_A, 7},     {BIRSIM_MXFP8_E5M2, 3}, {BIRSIM_MXFP8_E4M3, 4},
      {BIRSIM_MXFP4, 2},      {BIRSIM_MXINT8, 7},     {BIRSIM_MXINT2, 1}};
  for (auto [format, bits] : bfpBits)
    EXPECT_EQ(birsim_bfp_significant_bits(format), bits) << format;
  EXPECT_EQ(birsim_bfp_significant_bits(-1), 0u);
  EXPECT_STREQ(birsim_dtype_name(
                   birsim_tensix_dest_dtype(BIRSIM_TENSIX_DEST_FP32)),
               "float32");
  EXPECT_STREQ(birsim_dtype_name(
                   birsim_tensix_dest_dtype(BIRSIM_TENSIX_DEST_BF16)),
               "bfloat16");
  EXPECT_STREQ(birsim_dtype_name(
                   birsim_tensix_dest_dtype(BIRSIM_TENSIX_DEST_FP16)),
               "float16");
  EXPECT_EQ(birsim_tensix_dest_dtype(3), -1);
  std::vector<uint16_t> dest(32 * 32);
  birsim_fidelity_reset();
  birsim_fidelity_enable(1);
  for (unsigned phases : {BIRSIM_TENSIX_HIFI4, useful}) {
    ASSERT_EQ(birsim_tensix_matmul(BIRSIM_TENSIX_WORMHOLE, phases,
                                   BIRSIM_TENSIX_DEST_BF16,
                                   BIRSIM_TENSIX_SRC_BF16,
                                   BIRSIM_TENSIX_SRC_BF16, in0.data(),
                                   in1.data(), 32, 32, 32, dest.data(), 0),
              BIRSIM_OK);
    EXPECT_EQ(dest[0], phases == BIRSIM_TENSIX_HIFI4 ? 0xBD8D : 0xBD8C);
  }
  birsim_fidelity_enable(0);
  struct birsim_fidelity_counts counts;
  ASSERT_EQ(birsim_fidelity_counters(&counts), BIRSIM_OK);
  EXPECT_EQ(counts.tensix.elements, 2u * 32 * 32);
  EXPECT_EQ(counts.tensix.below_hifi4, 1u); // output 0 at {0, 2}
  dest[0] = 0x1234;
  EXPECT_EQ(birsim_tensix_matmul(BIRSIM_TENSIX_WORMHOLE, 0xF,
                                 BIRSIM_TENSIX_DEST_BF16,
                                 BIRSIM_TENSIX_SRC_BF16,
                                 BIRSIM_TENSIX_SRC_BF16, in0.data(),
                                 in1.data(), 32, 48, 32, dest.data(), 0),
            BIRSIM_EINVAL);
  EXPECT_NE(std::string(birsim_last_error()).find("multiples of 32"),
            std::string::npos);
  EXPECT_EQ(dest[0], 0x1234);
}

TEST(RuntimeAbi, TensixEltwiseAndPack) {
  float a[3] = {1.3125f, 508.0f, -1.0f}, b[3] = {7.96875f, 748.0f, 1.015625f};
  uint16_t dest[3] = {};
  ASSERT_EQ(birsim_tensix_eltwise(BIRSIM_TENSIX_WORMHOLE, BIRSIM_TENSIX_MUL,
                                  BIRSIM_TENSIX_HIFI2, BIRSIM_TENSIX_DEST_BF16,
                                  BIRSIM_TENSIX_SRC_BF16, a, b, 3, dest, 0),
            BIRSIM_OK);
  EXPECT_EQ(dest[0], 0x4127); // 10.4375
  EXPECT_EQ(dest[1], 0x48B8); // 376832
  float out[3];
  ASSERT_EQ(birsim_tensix_pack(BIRSIM_TENSIX_WORMHOLE, BIRSIM_TENSIX_DEST_BF16,
                               dest, 3, 16 /* float32 */, out, 0),
            BIRSIM_OK);
  EXPECT_EQ(out[0], 10.4375f);
  ASSERT_EQ(birsim_tensix_pack(BIRSIM_TENSIX_WORMHOLE, BIRSIM_TENSIX_DEST_BF16,
                               dest, 3, 16, out, 1),
            BIRSIM_OK);
  EXPECT_EQ(out[0], 20.875f); // L1 accumulation

  uint32_t wide[3] = {0, 0, 0x3F81FFFF};
  birsim_fidelity_reset();
  birsim_fidelity_enable(1);
  ASSERT_EQ(birsim_tensix_eltwise(BIRSIM_TENSIX_WORMHOLE, BIRSIM_TENSIX_MUL,
                                  BIRSIM_TENSIX_HIFI2, BIRSIM_TENSIX_DEST_FP32,
                                  BIRSIM_TENSIX_SRC_BF16, a, b, 3, wide, 1),
            BIRSIM_OK);
  birsim_fidelity_enable(0);
  struct birsim_fidelity_counts counts;
  ASSERT_EQ(birsim_fidelity_counters(&counts), BIRSIM_OK);
  EXPECT_EQ(counts.tensix.elements, 3u);
  EXPECT_EQ(counts.tensix.below_hifi4, 2u);
  EXPECT_EQ(counts.tensix.minus_one_quirk, 1u);
  EXPECT_EQ(wide[2], 0xC1800000u);
  birsim_fidelity_reset();

  EXPECT_STREQ(birsim_tensix_name(0, 1), "blackhole");
  EXPECT_STREQ(birsim_tensix_name(1, 2), "sub");
  EXPECT_STREQ(birsim_tensix_name(2, 2), "fp16");
  EXPECT_STREQ(birsim_tensix_name(3, 0), "tf32");
  EXPECT_STREQ(birsim_tensix_name(4, 0x7), "hifi3");
  EXPECT_EQ(birsim_tensix_name(4, 0x5), nullptr);
  EXPECT_EQ(birsim_tensix_name(5, 0), nullptr);
  EXPECT_EQ(birsim_tensix_idle_phases(BIRSIM_TENSIX_HIFI2, 3, 8), 0x2u);

  uint16_t keep[3] = {0xAAAA, 0xAAAA, 0xAAAA};
  EXPECT_EQ(birsim_tensix_eltwise(BIRSIM_TENSIX_WORMHOLE, BIRSIM_TENSIX_ADD,
                                  BIRSIM_TENSIX_HIFI4, BIRSIM_TENSIX_DEST_BF16,
                                  BIRSIM_TENSIX_SRC_BF16, a, b, 3, keep, 0),
            BIRSIM_EINVAL);
  EXPECT_NE(std::string(birsim_last_error()).find("phase 0 only"),
            std::string::npos);
  EXPECT_EQ(birsim_tensix_eltwise(BIRSIM_TENSIX_BLACKHOLE, BIRSIM_TENSIX_MUL,
                                  BIRSIM_TENSIX_LOFI, BIRSIM_TENSIX_DEST_FP16,
                                  BIRSIM_TENSIX_SRC_TF32, a, b, 3, keep, 0),
            BIRSIM_EINVAL);
  EXPECT_NE(std::string(birsim_last_error()).find("exponent width"),
            std::string::npos);
  EXPECT_EQ(birsim_tensix_pack(BIRSIM_TENSIX_WORMHOLE, BIRSIM_TENSIX_DEST_BF16,
                               dest, 3, 13 /* float16 */, keep, 0),
            BIRSIM_EINVAL);
  EXPECT_NE(std::string(birsim_last_error()).find("no path"),
            std::string::npos);
  for (uint16_t k : keep)
    EXPECT_EQ(k, 0xAAAA);
}

// A scatter's destination holds dst_count elements, not count: a source
// right after a smaller destination does not overlap it (found by
// AllOutputsGuarded: the scatter said "partly overlap" where heap layout
// put the source there).
TEST(RuntimeAbi, ScatterSourceAfterASmallerDestinationIsNoOverlap) {
  float buffer[2 + 8] = {};
  float *dst = buffer, *src = buffer + 2;
  for (int i = 0; i < 8; ++i)
    src[i] = float(i + 1);
  int64_t indices[8] = {0, 1, 0, 1, 0, 1, 0, 1};
  for (int op : {BIRSIM_OP_COPY, BIRSIM_OP_ADD}) {
    dst[0] = dst[1] = 0.0f;
    ASSERT_EQ(birsim_scatter_accumulate(op, dst, 2, src, indices, 8, 16),
              BIRSIM_OK)
        << lastError();
    EXPECT_EQ(dst[0], op == BIRSIM_OP_COPY ? 7.0f : 16.0f);
    EXPECT_EQ(dst[1], op == BIRSIM_OP_COPY ? 8.0f : 20.0f);
  }
  // Overlapping the destination's own elements is still refused.
  EXPECT_EQ(birsim_scatter_accumulate(BIRSIM_OP_ADD, buffer, 3, src, indices,
                                      8, 16),
            BIRSIM_EINVAL);
  EXPECT_NE(lastError().find("overlap"), std::string::npos);
  // A null destination with elements is refused; with none, an index is.
  EXPECT_EQ(birsim_scatter_accumulate(BIRSIM_OP_ADD, nullptr, 2, src, indices,
                                      8, 16),
            BIRSIM_EINVAL);
  EXPECT_EQ(birsim_scatter_accumulate(BIRSIM_OP_ADD, nullptr, 0, src, indices,
                                      8, 16),
            BIRSIM_EINDEX);
}

// Issue 64: a C boolean is 0 or 1; 2 and 7 were taken as true.
TEST(RuntimeAbi, TensixBooleansAreZeroOrOne) {
  float a[1] = {1.5f}, b[1] = {2.0f};
  float in[32 * 32] = {};
  for (int bad : {2, 7, -1, 256}) {
    uint32_t keep[1] = {0xAAAAAAAA};
    EXPECT_EQ(birsim_tensix_eltwise(BIRSIM_TENSIX_WORMHOLE, BIRSIM_TENSIX_MUL,
                                    BIRSIM_TENSIX_LOFI,
                                    BIRSIM_TENSIX_DEST_FP32,
                                    BIRSIM_TENSIX_SRC_BF16, a, b, 1, keep,
                                    bad),
              BIRSIM_EINVAL);
    EXPECT_EQ(lastError(), "invalid argument: tensix_eltwise: accumulate "
                           "must be 0 or 1 (got " +
                               std::to_string(bad) + ")");
    EXPECT_EQ(birsim_tensix_pack(BIRSIM_TENSIX_WORMHOLE,
                                 BIRSIM_TENSIX_DEST_FP32, a, 1,
                                 12 /* bfloat16 */, keep, bad),
              BIRSIM_EINVAL);
    EXPECT_NE(lastError().find("l1_accumulate must be 0 or 1"),
              std::string::npos);
    std::vector<uint32_t> dest(32 * 32, 0xAAAAAAAA);
    EXPECT_EQ(birsim_tensix_matmul(BIRSIM_TENSIX_WORMHOLE, BIRSIM_TENSIX_LOFI,
                                   BIRSIM_TENSIX_DEST_FP32,
                                   BIRSIM_TENSIX_SRC_BF16,
                                   BIRSIM_TENSIX_SRC_BF16, in, in, 32, 32, 32,
                                   dest.data(), bad),
              BIRSIM_EINVAL);
    EXPECT_NE(lastError().find("tensix_matmul: accumulate must be 0 or 1"),
              std::string::npos);
    EXPECT_EQ(keep[0], 0xAAAAAAAAu);
    EXPECT_EQ(dest, std::vector<uint32_t>(32 * 32, 0xAAAAAAAA));
  }
}

// Issue 64: birsim_tensix_matmul refused NULL for a buffer of 0 elements,
// which every other entry point accepts.
TEST(RuntimeAbi, TensixMatmulTakesNullForEmptyBuffers) {
  std::vector<float> in(32 * 32, 1.0f);
  std::vector<uint32_t> dest(32 * 32, 0x3F800000);
  // m = 0: in0 and dest empty.
  EXPECT_EQ(birsim_tensix_matmul(BIRSIM_TENSIX_WORMHOLE, BIRSIM_TENSIX_LOFI,
                                 BIRSIM_TENSIX_DEST_FP32,
                                 BIRSIM_TENSIX_SRC_BF16,
                                 BIRSIM_TENSIX_SRC_BF16, nullptr, in.data(), 0,
                                 32, 32, nullptr, 0),
            BIRSIM_OK)
      << lastError();
  // k = 0: both inputs empty, the product is zero (accumulate: unchanged).
  EXPECT_EQ(birsim_tensix_matmul(BIRSIM_TENSIX_WORMHOLE, BIRSIM_TENSIX_LOFI,
                                 BIRSIM_TENSIX_DEST_FP32,
                                 BIRSIM_TENSIX_SRC_BF16,
                                 BIRSIM_TENSIX_SRC_BF16, nullptr, nullptr, 32,
                                 0, 32, dest.data(), 1),
            BIRSIM_OK)
      << lastError();
  EXPECT_EQ(dest, std::vector<uint32_t>(32 * 32, 0x3F800000));
  EXPECT_EQ(birsim_tensix_matmul(BIRSIM_TENSIX_WORMHOLE, BIRSIM_TENSIX_LOFI,
                                 BIRSIM_TENSIX_DEST_FP32,
                                 BIRSIM_TENSIX_SRC_BF16,
                                 BIRSIM_TENSIX_SRC_BF16, nullptr, nullptr, 32,
                                 0, 32, dest.data(), 0),
            BIRSIM_OK)
      << lastError();
  EXPECT_EQ(dest, std::vector<uint32_t>(32 * 32, 0));
  // n = 0: in1 and dest empty.
  EXPECT_EQ(birsim_tensix_matmul(BIRSIM_TENSIX_WORMHOLE, BIRSIM_TENSIX_LOFI,
                                 BIRSIM_TENSIX_DEST_FP32,
                                 BIRSIM_TENSIX_SRC_BF16,
                                 BIRSIM_TENSIX_SRC_BF16, in.data(), nullptr,
                                 32, 32, 0, nullptr, 0),
            BIRSIM_OK)
      << lastError();
  // A null buffer with elements is still an error.
  EXPECT_EQ(birsim_tensix_matmul(BIRSIM_TENSIX_WORMHOLE, BIRSIM_TENSIX_LOFI,
                                 BIRSIM_TENSIX_DEST_FP32,
                                 BIRSIM_TENSIX_SRC_BF16,
                                 BIRSIM_TENSIX_SRC_BF16, in.data(), nullptr,
                                 32, 32, 32, dest.data(), 0),
            BIRSIM_EINVAL);
  EXPECT_NE(lastError().find("null buffer"), std::string::npos);
}

// Issue 64: a size in a message is unsigned; 2^63 sources printed as
// "-9223372036854775808".
TEST(RuntimeAbi, SizesInMessagesAreUnsigned) {
  float dst[1] = {};
  const void *srcs[1] = {dst};
  int dtypes[1] = {16};
  EXPECT_EQ(birsim_dma_compute(BIRSIM_OP_ADD, srcs, dtypes,
                               size_t(1) << 63, dst, 16, 1, 0,
                               BIRSIM_ROUND_NEAREST_EVEN, 0),
            BIRSIM_EINVAL);
  EXPECT_EQ(lastError(), "invalid argument: dma_compute takes 1 to 16 "
                         "sources (got 9223372036854775808)");
  EXPECT_EQ(birsim_tensix_matmul(BIRSIM_TENSIX_WORMHOLE, BIRSIM_TENSIX_LOFI,
                                 BIRSIM_TENSIX_DEST_FP32,
                                 BIRSIM_TENSIX_SRC_BF16,
                                 BIRSIM_TENSIX_SRC_BF16, nullptr, nullptr,
                                 SIZE_MAX, 32, 32, nullptr, 0),
            BIRSIM_EINVAL);
  EXPECT_NE(lastError().find("(got 18446744073709551615)"), std::string::npos)
      << lastError();
  EXPECT_EQ(birsim_bfp_mixed_bytes(nullptr, 0, 0), 0u);
  EXPECT_EQ(birsim_bfp_pack_mixed(16, nullptr, SIZE_MAX, 32, 0, nullptr,
                                  nullptr),
            BIRSIM_EINVAL);
  EXPECT_NE(lastError().find("(got 18446744073709551615)"), std::string::npos)
      << lastError();
}

TEST(RuntimeAbi, BfpErrors) {
  const int past = firstUnknownFormat();
  const std::string unknown = "unknown BFP format " + std::to_string(past);
  EXPECT_EQ(birsim_bfp_tile_bytes(0), 1088u);
  EXPECT_EQ(birsim_bfp_tile_bytes(1), 576u);
  EXPECT_EQ(birsim_bfp_tile_bytes(past), 0u);
  EXPECT_EQ(birsim_bfp_mantissa_bits(1), 3u);
  EXPECT_EQ(birsim_bfp_mantissa_bits(-1), 0u);
  Guarded out;
  std::vector<float> tile(1024, 1.0f);
  EXPECT_EQ(birsim_bfp_pack_tiles(past, tile.data(), 1, out.bytes),
            BIRSIM_EFORMAT);
  EXPECT_NE(lastError().find(unknown), std::string::npos);
  EXPECT_EQ(birsim_bfp_pack_tiles(0, nullptr, 1, out.bytes), BIRSIM_EINVAL);
  EXPECT_EQ(birsim_bfp_unpack_tiles(past + 5, out.bytes, 1,
                                    reinterpret_cast<float *>(out.bytes)),
            BIRSIM_EFORMAT);
  EXPECT_EQ(birsim_bfp_unpack_tiles(0, nullptr, 1,
                                    reinterpret_cast<float *>(out.bytes)),
            BIRSIM_EINVAL);
  EXPECT_TRUE(out.untouched());
  EXPECT_EQ(birsim_bfp_convert_float_bits(past, 0x3F800000u, 127), 0);
  EXPECT_NE(lastError().find(unknown), std::string::npos);
  EXPECT_EQ(birsim_bfp_convert_datum(past, 0x40, 127), 0u);
  EXPECT_EQ(birsim_bfp_block_shared_exponent(0, nullptr), 0);
  EXPECT_NE(lastError().find("null block_bits"), std::string::npos);
  // Value-level calls on a valid format.
  EXPECT_EQ(birsim_bfp_convert_float_bits(0, 0x42818000u, 133), 0x41); // 64.75
  EXPECT_EQ(birsim_bfp_convert_datum(0, 0x40, 127), 0x3F800000u);
  uint32_t block[16] = {0x3F800000u, 0x40000000u};
  EXPECT_EQ(birsim_bfp_block_shared_exponent(0, block), 128);
}

/// The queries the Python package asks instead of restating the core's
/// facts: mixed-code packing, page strides and alignments, the aliasing
/// error. Each rejected input writes nothing (guard bytes around every
/// output).
TEST(RuntimeAbi, MixedCodesPageStridesAndOverlapQueries) {
  // Codes: 2 bits a tile, four a byte, low bits first, unused bits zero.
  const uint8_t tiles[6] = {0, 1, 3, 2, 1, 1};
  ASSERT_EQ(birsim_bfp_mixed_code_bytes(6), 2u);
  EXPECT_EQ(birsim_bfp_mixed_code_bytes(0), 0u);
  EXPECT_EQ(birsim_bfp_mixed_code_bytes(4), 1u);
  uint8_t packed[4] = {0xEE, 0xEE, 0xEE, 0xEE};
  ASSERT_EQ(birsim_bfp_mixed_pack_codes(tiles, 6, packed + 1), BIRSIM_OK);
  EXPECT_EQ(packed[0], 0xEE);
  EXPECT_EQ(packed[1], 0 | 1 << 2 | 3 << 4 | 2 << 6);
  EXPECT_EQ(packed[2], 1 | 1 << 2);
  EXPECT_EQ(packed[3], 0xEE);
  uint8_t back[8];
  std::memset(back, 0xEE, sizeof back);
  ASSERT_EQ(birsim_bfp_mixed_unpack_codes(packed + 1, 6, back + 1), BIRSIM_OK);
  EXPECT_EQ(back[0], 0xEE);
  EXPECT_TRUE(std::equal(tiles, tiles + 6, back + 1));
  EXPECT_EQ(back[7], 0xEE);
  Guarded out;
  const uint8_t bad[5] = {0, 1, 2, 3, 4};
  EXPECT_EQ(birsim_bfp_mixed_pack_codes(bad, 5, out.bytes), BIRSIM_EINVAL);
  EXPECT_EQ(lastError(), "invalid argument: mixed BFP codes: 0 (bfp8_b), 1 "
                         "(bfp4_b), 2 (bfp2_b) or 3 (bfp0) (got 4)");
  EXPECT_EQ(birsim_bfp_mixed_pack_codes(nullptr, 1, out.bytes), BIRSIM_EINVAL);
  EXPECT_EQ(birsim_bfp_mixed_unpack_codes(nullptr, 1, out.bytes),
            BIRSIM_EINVAL);
  EXPECT_EQ(birsim_bfp_mixed_unpack_codes(packed, 1, nullptr), BIRSIM_EINVAL);
  EXPECT_TRUE(out.untouched());
  EXPECT_EQ(birsim_bfp_mixed_pack_codes(nullptr, 0, nullptr), BIRSIM_OK);

  // Page strides with the rule a query breaks.
  size_t bytes = 0;
  ASSERT_EQ(birsim_bfp_page_bytes_checked(0, 16, 32, 32, &bytes), BIRSIM_OK);
  EXPECT_EQ(bytes, birsim_bfp_page_bytes(0, 16, 32, 32));
  EXPECT_EQ(bytes, 544u);
  ASSERT_EQ(birsim_bfp_page_bytes_checked(0, 32, 32, 0, &bytes), BIRSIM_OK);
  EXPECT_EQ(bytes, 1088u);
  bytes = 7;
  EXPECT_EQ(birsim_bfp_page_bytes_checked(0, 16, 32, 16, &bytes),
            BIRSIM_EINVAL);
  EXPECT_NE(lastError().find("a page alignment is 0 (none), 32 (page32) or "
                             "64 (page64)"),
            std::string::npos);
  EXPECT_EQ(birsim_bfp_page_bytes_checked(0, 3, 32, 0, &bytes),
            BIRSIM_ETILE_SHAPE);
  EXPECT_EQ(birsim_bfp_page_bytes_checked(firstUnknownFormat(), 32, 32, 0,
                                          &bytes),
            BIRSIM_EFORMAT);
  EXPECT_EQ(bytes, 7u);
  EXPECT_EQ(birsim_bfp_page_bytes_checked(0, 32, 32, 0, nullptr),
            BIRSIM_EINVAL);
  // The page flags' alignments, and none past the table.
  unsigned page32 = 0, page64 = 0;
  for (int i = 0; birsim_bfp_flag(i, nullptr); ++i) {
    std::string name = birsim_bfp_flag(i, nullptr);
    unsigned page = birsim_bfp_flag_page_bytes(i);
    if (name == "page32")
      page32 = page;
    else if (name == "page64")
      page64 = page;
    else
      EXPECT_EQ(page, 0u) << name;
  }
  EXPECT_EQ(page32, 32u);
  EXPECT_EQ(page64, 64u);
  EXPECT_EQ(birsim_bfp_flag_page_bytes(-1), 0u);
  EXPECT_EQ(birsim_bfp_flag_page_bytes(1000), 0u);

  // The aliasing error of each rule: the entry points' own text.
  uint8_t scratch[4] = {};
  EXPECT_EQ(birsim_overlap_error(1), BIRSIM_EINVAL);
  std::string partly = lastError();
  EXPECT_EQ(birsim_accumulate(0, scratch, scratch + 1, 0, 2), BIRSIM_EINVAL);
  EXPECT_EQ(lastError(), partly);
  EXPECT_NE(partly.find("partly overlap"), std::string::npos);
  EXPECT_EQ(birsim_overlap_error(0), BIRSIM_EINVAL);
  EXPECT_NE(lastError().find("source and destination overlap"),
            std::string::npos);
}

TEST(RuntimeAbi, LastErrorIsThreadLocal) {
  birsim_cast_copy_or_accumulate(1, nullptr, nullptr, 17);
  std::string other;
  std::thread([&] {
    birsim_cast_copy_or_accumulate(0, nullptr, nullptr, 99);
    other = birsim_last_error();
  }).join();
  EXPECT_EQ(lastError(), "cast_accumulate: unsupported dtype float32r");
  EXPECT_NE(other.find("Unknown dtype"), std::string::npos);
}

TEST(RuntimeAbi, TieCountersThroughTheAbi) {
  birsim_bfp_tie_counters_reset();
  std::vector<std::thread> pool;
  for (int t = 0; t < 4; ++t)
    pool.emplace_back([] {
      for (int i = 0; i < 10000; ++i)
        birsim_bfp_convert_float_bits(0, 0x42830000u, 133); // 65.5: tie, up
    });
  for (auto &t : pool)
    t.join();
  uint64_t seen = 0, up = 0;
  birsim_bfp_tie_counters(&seen, &up);
  EXPECT_EQ(seen, 40000u);
  EXPECT_EQ(up, 40000u);
  birsim_bfp_tie_counters(nullptr, &up);
  birsim_bfp_tie_counters_reset();
  birsim_bfp_tie_counters(&seen, nullptr);
  EXPECT_EQ(seen, 0u);
}

/// A count whose byte size overflows the address space is BIRSIM_EINVAL
/// with a message, before any access; the destination stays untouched.
/// (Issue: birsim_accumulate(1, buf, buf, 12, 2^63 + 5) crashed.)
TEST(RuntimeAbi, OverflowingCountsAreErrors) {
  const std::string message = "invalid argument: element count times element "
                              "size overflows the address space";
  Guarded dst, src;
  const size_t huge = (size_t(1) << 63) + 5, tooManyTiles = SIZE_MAX / 4096 + 1;
  for (int dtype : {12, 4, 16, 19})
    for (int op = 0; op <= 3; ++op) {
      EXPECT_EQ(birsim_accumulate(op, dst.bytes, src.bytes, dtype, huge),
                BIRSIM_EINVAL)
          << op << " " << dtype;
      EXPECT_EQ(lastError(), message);
    }
  int64_t index = 0;
  EXPECT_EQ(birsim_scatter_accumulate(1, dst.bytes, 4, src.bytes, &index, huge,
                                      16),
            BIRSIM_EINVAL);
  EXPECT_EQ(lastError(), message);
  EXPECT_EQ(birsim_scatter_accumulate(1, dst.bytes, huge, src.bytes, &index, 1,
                                      16),
            BIRSIM_EINVAL);
  EXPECT_EQ(lastError(), message);
  EXPECT_EQ(birsim_collective_reduce(4, reinterpret_cast<float *>(dst.bytes),
                                     reinterpret_cast<float *>(src.bytes),
                                     SIZE_MAX / 2),
            BIRSIM_EINVAL);
  EXPECT_EQ(lastError(), message);
  EXPECT_EQ(birsim_cast(16, src.bytes, 12, dst.bytes, SIZE_MAX / 4 + 1, 1),
            BIRSIM_EINVAL);
  EXPECT_EQ(lastError(), message);
  EXPECT_EQ(birsim_bfp_pack_tiles(0, reinterpret_cast<float *>(src.bytes),
                                  tooManyTiles, dst.bytes),
            BIRSIM_EINVAL);
  EXPECT_EQ(lastError(), message);
  EXPECT_EQ(birsim_bfp_unpack_tiles(1, src.bytes, tooManyTiles,
                                    reinterpret_cast<float *>(dst.bytes)),
            BIRSIM_EINVAL);
  EXPECT_EQ(lastError(), message);
  EXPECT_TRUE(dst.untouched());
}

/// Eight threads at once on independent destinations that share read-only
/// sources: reduce, cast and BFP pack give what one thread gives, the tie
/// counters sum, and each thread keeps its own last error.
TEST(RuntimeAbi, EightThreadsShareSources) {
  const size_t n = 1 << 16, tiles = 16;
  std::vector<uint16_t> src(n);
  std::vector<float> f32(n);
  for (size_t i = 0; i < n; ++i) {
    src[i] = uint16_t(i * 2654435761u >> 7);
    uint32_t bits = uint32_t(i * 2246822519u);
    std::memcpy(&f32[i], &bits, 4);
  }
  auto work = [&](std::vector<uint16_t> &sum, std::vector<uint8_t> &fp8,
                  std::vector<uint8_t> &packed) {
    sum.assign(src.begin(), src.end());
    EXPECT_EQ(birsim_accumulate(1, sum.data(), src.data(), 12, n), BIRSIM_OK);
    fp8.assign(n, 0);
    EXPECT_EQ(birsim_cast(16, f32.data(), 4, fp8.data(), n, 1), BIRSIM_OK);
    packed.assign(tiles * 1088, 0);
    EXPECT_EQ(birsim_bfp_pack_tiles(0, f32.data(), tiles, packed.data()),
              BIRSIM_OK);
  };
  std::vector<uint16_t> sum1;
  std::vector<uint8_t> fp81, packed1;
  birsim_bfp_tie_counters_reset();
  work(sum1, fp81, packed1);
  uint64_t seen1, up1;
  birsim_bfp_tie_counters(&seen1, &up1);

  const int threads = 8;
  std::vector<std::vector<uint16_t>> sums(threads);
  std::vector<std::vector<uint8_t>> fp8s(threads), packeds(threads);
  std::vector<std::string> errors(threads);
  birsim_bfp_tie_counters_reset();
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      work(sums[t], fp8s[t], packeds[t]);
      // A per-thread error: dtype 100 + t is unknown to copy.
      EXPECT_EQ(birsim_accumulate(0, sums[t].data(), src.data(), 100 + t, 1),
                BIRSIM_EUNKNOWN_DTYPE);
      errors[t] = birsim_last_error();
    });
  for (std::thread &thread : pool)
    thread.join();
  uint64_t seen, up;
  birsim_bfp_tie_counters(&seen, &up);
  EXPECT_EQ(seen, threads * seen1);
  EXPECT_EQ(up, threads * up1);
  for (int t = 0; t < threads; ++t) {
    EXPECT_EQ(sums[t], sum1);
    EXPECT_EQ(fp8s[t], fp81);
    EXPECT_EQ(packeds[t], packed1);
    EXPECT_EQ(errors[t], "Unknown dtype " + std::to_string(100 + t));
  }
}

/// Aliasing (docs/Decisions.md D18): the same buffer as source and
/// destination of an elementwise call is allowed and equals the call on a
/// copy; any partial overlap (and any overlap for scatter and BFP) is
/// BIRSIM_EINVAL before a byte is written.
TEST(RuntimeAbi, AliasingRules) {
  std::vector<uint16_t> buf(1000), copy;
  for (size_t i = 0; i < buf.size(); ++i)
    buf[i] = uint16_t(i * 40503u);
  copy = buf;
  std::vector<uint16_t> expected = buf;
  ASSERT_EQ(birsim_accumulate(1, expected.data(), copy.data(), 12, 1000), 0);
  ASSERT_EQ(birsim_accumulate(1, buf.data(), buf.data(), 12, 1000), 0);
  EXPECT_EQ(buf, expected);
  std::vector<float> f(1000, 1.5f), fExpected(1000, 3.0f);
  ASSERT_EQ(birsim_collective_reduce(4, f.data(), f.data(), 1000), 0);
  EXPECT_EQ(f, fExpected);

  const std::string partly = "invalid argument: source and destination partly overlap";
  const std::string any = "invalid argument: source and destination overlap";
  buf = copy;
  EXPECT_EQ(birsim_accumulate(1, buf.data() + 1, buf.data(), 12, 999),
            BIRSIM_EINVAL);
  EXPECT_EQ(lastError(), partly);
  EXPECT_EQ(buf, copy);
  EXPECT_EQ(birsim_cast(16, f.data(), 12, f.data(), 1000, 1), BIRSIM_EINVAL);
  EXPECT_EQ(lastError(), partly);
  EXPECT_EQ(f, fExpected);
  int64_t indices[2] = {0, 1};
  EXPECT_EQ(birsim_scatter_accumulate(1, buf.data(), 1000, buf.data() + 10,
                                      indices, 2, 12),
            BIRSIM_EINVAL);
  EXPECT_EQ(lastError(), any);
  EXPECT_EQ(buf, copy);
  std::vector<float> tile(1024, 1.0f);
  std::vector<float> before = tile;
  EXPECT_EQ(birsim_bfp_pack_tiles(0, tile.data(), 1, tile.data()), BIRSIM_EINVAL);
  EXPECT_EQ(lastError(), any);
  EXPECT_EQ(tile, before);
}

/// An embedder's status handler replaces the print-and-exit of
/// birsim_check_status: it gets the status, the site and the message, and
/// the lowered code continues after the call; NULL restores the default.
namespace {
struct SeenStatus {
  int status = 0;
  std::string what, message;
};
thread_local SeenStatus seen;
void recordStatus(int status, const char *what, const char *message) {
  seen = {status, what, message};
}
} // namespace

TEST(RuntimeAbi, StatusHandlerReplacesTheExit) {
  EXPECT_EQ(birsim_set_status_handler(recordStatus), nullptr);
  birsim_check_status(BIRSIM_OK, "birsim.cast at f.mlir:1:1");
  EXPECT_EQ(seen.status, 0); // success calls nothing
  float dst[2] = {1.0f, 2.0f}, src[1] = {3.0f};
  int64_t index = 7;
  int status = birsim_scatter_accumulate(1, dst, 2, src, &index, 1, 16);
  birsim_check_status(status, "birsim.indirect_save_accumulate at f.mlir:3:5");
  EXPECT_EQ(seen.status, BIRSIM_EINDEX);
  EXPECT_EQ(seen.what, "birsim.indirect_save_accumulate at f.mlir:3:5");
  EXPECT_EQ(seen.message, lastError());
  EXPECT_EQ(birsim_set_status_handler(nullptr), recordStatus);
  EXPECT_EQ(birsim_set_status_handler(nullptr), nullptr);
}

/// birsim_accumulate_into: out may be dst or src exactly and overlaps
/// neither otherwise; dst and src may overlap each other (both are only
/// read); every rejected call writes nothing.
TEST(RuntimeAbi, AccumulateIntoAliasingAndErrors) {
  std::vector<float> buf(64), before;
  for (size_t i = 0; i < buf.size(); ++i)
    buf[i] = float(i) * 0.25f;
  before = buf;
  const std::string partly = "invalid argument: source and destination partly overlap";
  EXPECT_EQ(birsim_accumulate_into(1, buf.data() + 1, buf.data(),
                                   buf.data() + 32, 16, 16),
            BIRSIM_EINVAL);
  EXPECT_EQ(lastError(), partly);
  EXPECT_EQ(birsim_accumulate_into(1, buf.data() + 33, buf.data(),
                                   buf.data() + 32, 16, 16),
            BIRSIM_EINVAL);
  EXPECT_EQ(lastError(), partly);
  EXPECT_EQ(buf, before);
  std::vector<float> out(16, -1.0f), outBefore = out;
  EXPECT_EQ(birsim_accumulate_into(9, out.data(), buf.data(), buf.data(), 16, 16),
            BIRSIM_EOP);
  EXPECT_EQ(birsim_accumulate_into(1, out.data(), buf.data(), buf.data(), 14, 16),
            BIRSIM_EUNSUPPORTED_DTYPE);
  EXPECT_EQ(birsim_accumulate_into(1, out.data(), nullptr, buf.data(), 16, 16),
            BIRSIM_EINVAL);
  EXPECT_EQ(out, outBefore);
  // dst and src overlapping each other: out = dst + src, element by element.
  ASSERT_EQ(birsim_accumulate_into(1, out.data(), buf.data(), buf.data() + 1,
                                   16, 16),
            0);
  for (size_t i = 0; i < 16; ++i)
    EXPECT_EQ(out[i], buf[i] + buf[i + 1]);
  EXPECT_EQ(buf, before);
  // Exactly dst: accumulate in place.
  std::vector<float> acc(buf.begin(), buf.begin() + 16), want = acc;
  ASSERT_EQ(birsim_accumulate(1, want.data(), buf.data() + 16, 16, 16), 0);
  ASSERT_EQ(birsim_accumulate_into(1, acc.data(), acc.data(), buf.data() + 16,
                                   16, 16),
            0);
  EXPECT_EQ(acc, want);
  EXPECT_EQ(birsim_accumulate_into(1, nullptr, nullptr, nullptr, 16, 0), 0);
}

/// Scatter indices outside the destination, negative ones included, are
/// BIRSIM_EINDEX before any element is written.
TEST(RuntimeAbi, ScatterIndicesOutOfRange) {
  std::vector<float> dst(8, 1.0f), src(3, 2.0f), before = dst;
  for (int64_t bad : {int64_t(-1), int64_t(8), INT64_MIN, INT64_MAX}) {
    int64_t indices[3] = {0, bad, 2};
    EXPECT_EQ(birsim_scatter_accumulate(1, dst.data(), 8, src.data(), indices,
                                        3, 16),
              BIRSIM_EINDEX);
    EXPECT_EQ(lastError(), "scatter index " + std::to_string(bad) +
                               " is outside the destination of 8 elements");
    EXPECT_EQ(dst, before);
  }
}

/// The fidelity workload of the counter tests: fp8 add, cast, BFP pack on
/// sizes that start worker threads.
struct FidelityWorkload {
  static constexpr size_t n = size_t(1) << 19, tiles = 300;
  std::vector<uint8_t> acc, x;
  std::vector<float> f32;
  birsim::core::FidelityTally expected;

  FidelityWorkload() : acc(n), x(n), f32(tiles * 1024) {
    uint64_t state = 0x9E3779B97F4A7C15u;
    auto next = [&] { return state = state * 6364136223846793005u + 1442695040888963407u; };
    for (size_t i = 0; i < n; ++i) {
      acc[i] = uint8_t(next() >> 56);
      x[i] = uint8_t(next() >> 56);
    }
    for (float &f : f32) {
      uint32_t bits = uint32_t(next() >> 32);
      std::memcpy(&f, &bits, 4);
    }
    using namespace birsim::core;
    tallyReduce(1, dtypeInfo(Dtype::float8e4), acc.data(), x.data(), 0, n,
                expected);
    tallyCast(dtypeInfo(Dtype::float32), dtypeInfo(Dtype::float8e5),
              f32.data(), 0, f32.size(), 0, expected);
    BfpCall call;
    call.format = 2;
    call.tileRows = call.tileCols = kBfpTileSide;
    call.tiles = tiles;
    EXPECT_TRUE(
        tallyBfpPack(call, int(Dtype::float32), f32.data(), expected).ok());
  }
  /// Runs the three calls; returns their outputs.
  std::vector<uint8_t> run() const {
    std::vector<uint8_t> sum = acc, fp8(f32.size()), packed(tiles * 1088);
    EXPECT_EQ(birsim_accumulate(1, sum.data(), x.data(), 4, n), BIRSIM_OK);
    EXPECT_EQ(birsim_cast(16, f32.data(), 7, fp8.data(), f32.size(), 0),
              BIRSIM_OK);
    EXPECT_EQ(birsim_bfp_pack_tiles(2, f32.data(), tiles, packed.data()),
              BIRSIM_OK);
    sum.insert(sum.end(), fp8.begin(), fp8.end());
    sum.insert(sum.end(), packed.begin(), packed.end());
    return sum;
  }
};

/// The counters' fields in Fidelity.def order (elements first per family).
std::vector<uint64_t> fields(const birsim_fidelity_counts &c) {
  std::vector<uint64_t> out(sizeof c / sizeof(uint64_t));
  std::memcpy(out.data(), &c, sizeof c);
  return out;
}
std::vector<uint64_t> fields(const birsim::core::FidelityTally &t,
                             uint64_t times) {
  std::vector<uint64_t> out;
#define BIRSIM_FIDELITY_FAMILY(Family)                                 \
  out.push_back(times *                                                        \
                t.elements[int(birsim::core::FidelityFamily::Family)]);
#define BIRSIM_FIDELITY_EVENT(Family, Key)                                     \
  out.push_back(times *                                                        \
                t.count[int(birsim::core::FidelityEvent::Family##_##Key)]);
#include "birsim/Core/Fidelity.def"
  return out;
}
std::vector<uint64_t> counters() {
  birsim_fidelity_counts c;
  EXPECT_EQ(birsim_fidelity_counters(&c), BIRSIM_OK);
  return fields(c);
}

/// Off by default and when disabled; on, the counters equal the core's
/// tallies for every thread count, and the outputs keep every bit.
TEST(RuntimeAbi, FidelityCountersMatchTheCoreForEveryThreadCount) {
  FidelityWorkload w;
  birsim_fidelity_enable(0);
  birsim_fidelity_reset();
  std::vector<uint8_t> quiet = w.run();
  EXPECT_EQ(counters(), fields(birsim::core::FidelityTally(), 0));
  for (int threads : {1, 2, 8}) {
    birsim_set_num_threads(threads);
    birsim_fidelity_reset();
    birsim_fidelity_enable(1);
    EXPECT_EQ(w.run(), quiet) << threads << " threads";
    birsim_fidelity_enable(0);
    EXPECT_EQ(counters(), fields(w.expected, 1)) << threads << " threads";
  }
  birsim_set_num_threads(0);
  // Every event family saw something (the comparison can fail).
  std::vector<uint64_t> expected = fields(w.expected, 1);
  EXPECT_GT(expected[1], 0u); // sim_inf_device_saturates
  // A failed call counts nothing; a null output is an error.
  birsim_fidelity_reset();
  birsim_fidelity_enable(1);
  std::vector<uint8_t> acc = w.acc;
  EXPECT_EQ(birsim_accumulate(1, acc.data(), w.x.data(), 4, size_t(1) << 63),
            BIRSIM_EINVAL);
  birsim_fidelity_enable(0);
  EXPECT_EQ(counters(), fields(birsim::core::FidelityTally(), 0));
  EXPECT_EQ((birsim_fidelity_counters)(nullptr), BIRSIM_EINVAL);
  EXPECT_EQ(lastError(), "invalid argument: null counts, or a size that is "
                         "not whole counters");
}

/// The struct grows by appending: the 0.1 entry point and a caller's older,
/// smaller struct get the fields they have and nothing past them; this
/// header's callers get every field.
TEST(RuntimeAbi, FidelityCountsStructGrowsByAppending) {
  std::vector<float> tile(1024);
  for (size_t i = 0; i < tile.size(); ++i)
    tile[i] = 1.375f + float(i % 7) / 64; // BFP4_b's host and device differ
  std::vector<uint8_t> packed(576);
  birsim_fidelity_reset();
  birsim_fidelity_enable(1);
  ASSERT_EQ(birsim_bfp_pack_tiles(BIRSIM_BFP4_B, tile.data(), 1, packed.data()),
            BIRSIM_OK);
  birsim_fidelity_enable(0);
  struct birsim_fidelity_counts all;
  ASSERT_EQ(birsim_fidelity_counters(&all), BIRSIM_OK); // the sized form
  EXPECT_GT(all.bfp_pack.device_differs, 0u);
  EXPECT_EQ(all.bfp_pack.elements, 1024u);
  const size_t v1 = offsetof(struct birsim_fidelity_counts,
                             bfp_pack.device_differs);
  for (size_t size : {v1, size_t(8), sizeof all}) {
    std::vector<uint8_t> raw(sizeof all + 8, 0xA5);
    ASSERT_EQ(birsim_fidelity_counters_sized(
                  reinterpret_cast<struct birsim_fidelity_counts *>(raw.data()),
                  size),
              BIRSIM_OK);
    EXPECT_EQ(std::memcmp(raw.data(), &all, size), 0) << size;
    for (size_t i = size; i < raw.size(); ++i)
      ASSERT_EQ(raw[i], 0xA5) << size << " wrote byte " << i;
  }
  std::vector<uint8_t> raw(sizeof all, 0xA5);
  ASSERT_EQ((birsim_fidelity_counters)(
                reinterpret_cast<struct birsim_fidelity_counts *>(raw.data())),
            BIRSIM_OK);
  EXPECT_EQ(std::memcmp(raw.data(), &all, v1), 0);
  EXPECT_EQ(raw[v1], 0xA5); // the 0.1 struct ends before device_differs
  EXPECT_EQ(birsim_fidelity_counters_sized(&all, 7), BIRSIM_EINVAL);
  birsim_fidelity_reset();
}

/// Eight threads counting at once sum exactly.
TEST(RuntimeAbi, FidelityCountersFromEightThreads) {
  FidelityWorkload w;
  birsim_fidelity_reset();
  birsim_fidelity_enable(1);
  std::vector<std::thread> pool;
  for (int t = 0; t < 8; ++t)
    pool.emplace_back([&] { w.run(); });
  for (std::thread &thread : pool)
    thread.join();
  birsim_fidelity_enable(0);
  EXPECT_EQ(counters(), fields(w.expected, 8));
  birsim_fidelity_reset();
}

} // namespace

namespace {

/// tt-metal's host conversion through the C ABI (Runtime.h): the packer's
/// tile sizes, every form against the core, counters, and the errors.
TEST(RuntimeAbi, BfpShapesLayoutsInputsAndMatrices) {
  EXPECT_EQ(birsim_bfp_packed_tile_bytes(BIRSIM_BFP8_B, 32, 32), 1088u);
  EXPECT_EQ(birsim_bfp_packed_tile_bytes(BIRSIM_BFP8_B, 1, 32), 48u);
  EXPECT_EQ(birsim_bfp_packed_tile_bytes(BIRSIM_BFP2_A, 1, 16), 20u);
  EXPECT_EQ(birsim_bfp_packed_tile_bytes(BIRSIM_MXINT8, 1, 16), 0u);
  EXPECT_EQ(birsim_bfp_packed_tile_bytes(BIRSIM_MXINT8, 2, 16), 48u);
  EXPECT_EQ(birsim_bfp_packed_tile_bytes(BIRSIM_BFP4_B, 16, 16), 144u);
  EXPECT_EQ(birsim_bfp_packed_tile_bytes(BIRSIM_BFP8_B, 32, 8), 0u);
  EXPECT_EQ(birsim_bfp_packed_tile_bytes(firstUnknownFormat(), 32, 32), 0u);
  // A 64x64 bf16 matrix in 16x32 tiles: pack_matrix equals the tile form
  // on the tilized values, and the counters count every value.
  const size_t rows = 64, cols = 64, tiles = 8;
  std::vector<uint16_t> bf16(rows * cols);
  for (size_t i = 0; i < bf16.size(); ++i)
    bf16[i] = uint16_t(0x3F80 + (i * 2654435761u >> 20) % 0x300);
  size_t tileBytes = birsim_bfp_packed_tile_bytes(BIRSIM_BFP4_A, 16, 32);
  std::vector<uint8_t> matrix(tiles * tileBytes), viaTiles(tiles * tileBytes);
  birsim_fidelity_reset();
  birsim_fidelity_enable(1);
  ASSERT_EQ(birsim_bfp_pack_matrix(BIRSIM_BFP4_A, 12, bf16.data(), rows, cols,
                                   16, 32, 0, matrix.data()),
            BIRSIM_OK);
  birsim_fidelity_counts counts;
  ASSERT_EQ(birsim_fidelity_counters(&counts), BIRSIM_OK);
  birsim_fidelity_enable(0);
  EXPECT_EQ(counts.bfp_pack.elements, rows * cols);
  std::vector<uint16_t> tilized;
  for (size_t tr = 0; tr < rows / 16; ++tr)
    for (size_t tc = 0; tc < cols / 32; ++tc)
      for (size_t fw = 0; fw < 2; ++fw) // faces TL, TR of each 16x32 tile
        for (size_t r = 0; r < 16; ++r)
          for (size_t c = 0; c < 16; ++c)
            tilized.push_back(bf16[(tr * 16 + r) * cols + tc * 32 + fw * 16 + c]);
  ASSERT_EQ(birsim_bfp_pack(BIRSIM_BFP4_A, 12, tilized.data(), tiles, 16, 32,
                            BIRSIM_BFP_FACES, viaTiles.data()),
            BIRSIM_OK);
  EXPECT_EQ(matrix, viaTiles);
  std::vector<float> back(rows * cols), faces(rows * cols);
  ASSERT_EQ(birsim_bfp_unpack_matrix(BIRSIM_BFP4_A, matrix.data(), rows, cols,
                                     16, 32, 0, back.data()),
            BIRSIM_OK);
  ASSERT_EQ(birsim_bfp_unpack(BIRSIM_BFP4_A, matrix.data(), tiles, 16, 32,
                              BIRSIM_BFP_FACES, faces.data()),
            BIRSIM_OK);
  for (size_t i = 0; i < tilized.size(); i += 97) { // tilized[i]'s place
    size_t t = i / 512, f = i % 512 / 256, r = i % 256 / 16, c = i % 16;
    size_t row = (t / 2) * 16 + r, col = (t % 2) * 32 + f * 16 + c;
    EXPECT_EQ(back[row * cols + col], faces[i]) << i;
  }
  // Errors: a status, the message, nothing written.
  Guarded out;
  EXPECT_EQ(birsim_bfp_pack(BIRSIM_BFP8_B, 16, bf16.data(), 1, 3, 32, 0,
                            out.bytes),
            BIRSIM_ETILE_SHAPE);
  EXPECT_NE(lastError().find("BFP tile shape 3x32 is not one tt-metal accepts"),
            std::string::npos);
  EXPECT_EQ(birsim_bfp_pack(BIRSIM_BFP8_B, 16, bf16.data(), 1, 32, 32, 32,
                            out.bytes),
            BIRSIM_EINVAL);
  EXPECT_EQ(birsim_bfp_pack(BIRSIM_BFP8_B, 13, bf16.data(), 1, 32, 32, 0,
                            out.bytes),
            BIRSIM_EINVAL);
  EXPECT_EQ(birsim_bfp_unpack(BIRSIM_BFP8_B, matrix.data(), 1, 32, 32,
                              BIRSIM_BFP_TRANSPOSE,
                              reinterpret_cast<float *>(out.bytes)),
            BIRSIM_EINVAL);
  EXPECT_EQ(birsim_bfp_pack_matrix(BIRSIM_BFP8_B, 16, bf16.data(), 32, 16, 32,
                                   32, 0, out.bytes),
            BIRSIM_EINVAL);
  EXPECT_EQ(lastError(),
            "invalid argument: matrix rows (leading dimensions folded into rows) and columns must be whole tiles");
  EXPECT_EQ(birsim_bfp_unpack_matrix(firstUnknownFormat(), matrix.data(), 32, 32, 32, 32, 0,
                                     reinterpret_cast<float *>(out.bytes)),
            BIRSIM_EFORMAT);
  EXPECT_TRUE(out.untouched());
}

} // namespace
