//===- FolderVsRuntimeTest.cpp - folders equal libbirsim_runtime.so -------===//
//
// Builds birsim ops on generated dense constants, folds them in-process and
// compares the folded bytes with what the C runtime library computes on the
// same inputs, so the folder can never drift from the runtime.
//
//===----------------------------------------------------------------------===//
#include "birsim/Core/Bfp.h"
#include "birsim/Core/Reduce.h"
#include "birsim/Dialect/Birsim/IR/BirsimOps.h"
#include "birsim/Runtime/Runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cstring>
#include <memory>
#include <random>
#include <vector>

using namespace mlir;
using namespace birsim;

namespace {

/// Every test runs on dense constants and on `dense_resource` constants whose
/// blobs start at an odd address (alignment 1, as a text blob may declare).
enum class Input { Dense, Resource };

class FolderVsRuntime : public ::testing::TestWithParam<Input> {
protected:
  FolderVsRuntime() : builder(&context) {
    context.loadDialect<BirsimDialect, arith::ArithDialect>();
    module = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
  }

  Value constant(ShapedType type, const std::vector<char> &raw) {
    TypedAttr attr;
    if (GetParam() == Input::Dense) {
      attr = cast<TypedAttr>(DenseElementsAttr::getFromRawBuffer(type, raw));
    } else {
      // One byte past an 8-aligned start: every typed read would misalign.
      blobs.push_back(std::make_unique<uint64_t[]>(raw.size() / 8 + 2));
      char *data = reinterpret_cast<char *>(blobs.back().get()) + 1;
      std::memcpy(data, raw.data(), raw.size());
      attr = DenseResourceElementsAttr::get(
          type, "input",
          UnmanagedAsmResourceBlob::allocateWithAlign(
              ArrayRef<char>(data, raw.size()), /*align=*/1));
    }
    return arith::ConstantOp::create(builder, builder.getUnknownLoc(), attr);
  }

  /// The folded raw bytes of a single-result op, expanded if splat.
  std::vector<char> fold(Operation *op) {
    SmallVector<OpFoldResult> results;
    EXPECT_TRUE(succeeded(op->fold(results)))
        << op->getName().getStringRef().str();
    auto folded = dyn_cast_if_present<Attribute>(results.front());
    // A resource input gives a resource result, read back as raw bytes.
    if (auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(folded)) {
      EXPECT_EQ(GetParam(), Input::Resource);
      ArrayRef<char> data = resource.getRawHandle().getBlob()->getData();
      return std::vector<char>(data.begin(), data.end());
    }
    auto attr = dyn_cast_or_null<DenseElementsAttr>(folded);
    EXPECT_TRUE(attr) << op->getName().getStringRef().str();
    if (!attr)
      return {};
    ArrayRef<char> raw = attr.getRawData();
    auto type = cast<ShapedType>(attr.getType());
    size_t bytes = raw.size() / (attr.isSplat() ? 1 : type.getNumElements());
    std::vector<char> out;
    for (int64_t i = 0; i < type.getNumElements(); ++i)
      out.insert(out.end(), raw.begin() + (attr.isSplat() ? 0 : i * bytes),
                 raw.begin() + (attr.isSplat() ? 0 : i * bytes) + bytes);
    return out;
  }

  std::vector<char> randomBytes(size_t n) {
    std::vector<char> v(n);
    for (char &c : v)
      c = char(rng());
    return v;
  }

  std::vector<std::unique_ptr<uint64_t[]>> blobs; // outlive the context
  MLIRContext context;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
  std::mt19937_64 rng{2026};
};

TEST_P(FolderVsRuntime, ReduceEveryReducingDtypeAndOp) {
  for (int d = 0; d < ::birsim::core::kNumDtypes; ++d) {
    const ::birsim::core::DtypeInfo &info = *::birsim::core::lookupDtype(d);
    if (!info.reduces())
      continue;
    // Every pair for the fp8 formats; 8192 random pairs otherwise.
    size_t count = info.bytes == 1 ? 65536 : 8192;
    std::vector<char> dst = randomBytes(count * info.bytes);
    std::vector<char> src = randomBytes(count * info.bytes);
    if (info.bytes == 1)
      for (size_t i = 0; i < count; ++i) {
        dst[i] = char(i >> 8);
        src[i] = char(i);
      }
    auto type = RankedTensorType::get({int64_t(count)},
                                      getElementType(&context, info.dtype));
    Value dstValue = constant(type, dst), srcValue = constant(type, src);
    for (MemoryReductionOp kind :
         {MemoryReductionOp::add, MemoryReductionOp::min,
          MemoryReductionOp::max}) {
      auto op = ReduceOp::create(builder, builder.getUnknownLoc(), type, kind,
                                 dstValue, srcValue);
      std::vector<char> expected = dst;
      ASSERT_EQ(
          birsim_accumulate(int(kind), expected.data(), src.data(), d, count),
          BIRSIM_OK);
      EXPECT_EQ(fold(op), expected)
          << info.name << " " << stringifyMemoryReductionOp(kind).str();
    }
  }
}

TEST_P(FolderVsRuntime, CastEveryFoldablePairAndConfig) {
  for (int from = 0; from < ::birsim::core::kNumDtypes; ++from)
    for (int to = 0; to < ::birsim::core::kNumDtypes; ++to) {
      const ::birsim::core::DtypeInfo &a = *::birsim::core::lookupDtype(from);
      const ::birsim::core::DtypeInfo &b = *::birsim::core::lookupDtype(to);
      Type fromType = getElementType(&context, a.dtype);
      Type toType = getElementType(&context, b.dtype);
      // Dense constants exist only for builtin element types.
      if (!::birsim::core::isCastable(a) || !::birsim::core::isCastable(b) ||
          !fromType.isIntOrFloat() || !toType.isIntOrFloat() || from == to)
        continue;
      size_t count = a.bytes == 1 ? 256 : 2048;
      std::vector<char> in = randomBytes(count * a.bytes);
      if (a.bytes == 1)
        for (size_t i = 0; i < count; ++i)
          in[i] = char(i);
      Value input =
          constant(RankedTensorType::get({int64_t(count)}, fromType), in);
      for (unsigned config : {0x0000u, 0x0001u, 0xFF00u, 0xFF01u}) {
        auto op =
            CastOp::create(builder, builder.getUnknownLoc(),
                           RankedTensorType::get({int64_t(count)}, toType),
                           input, Fp8ConfigAttr::get(&context, Fp8Config(config)));
        std::vector<char> expected(count * b.bytes);
        ASSERT_EQ(
            birsim_cast(from, in.data(), to, expected.data(), count, config),
            BIRSIM_OK);
        EXPECT_EQ(fold(op), expected)
            << a.name << " -> " << b.name << " config " << config;
      }
    }
}

TEST_P(FolderVsRuntime, CollectiveReduce) {
  const size_t count = 8192;
  auto type = RankedTensorType::get({int64_t(count)}, builder.getF32Type());
  std::vector<char> acc = randomBytes(count * 4), x = randomBytes(count * 4);
  Value accValue = constant(type, acc), xValue = constant(type, x);
  for (AluOpType kind : {AluOpType::add, AluOpType::max, AluOpType::min}) {
    auto op = CollectiveReduceOp::create(builder, builder.getUnknownLoc(), type,
                                         kind, accValue, xValue);
    std::vector<char> expected = acc;
    ASSERT_EQ(birsim_collective_reduce(
                  int(kind), reinterpret_cast<float *>(expected.data()),
                  reinterpret_cast<const float *>(x.data()), count),
              BIRSIM_OK);
    EXPECT_EQ(fold(op), expected) << stringifyAluOpType(kind).str();
  }
}

/// The element type of a BFP input dtype (Dtypes.def's MLIR spelling).
Type bfpInputType(MLIRContext &context, core::Dtype dtype) {
  return mlir::parseType(core::dtypeInfo(dtype).mlirSpelling, &context);
}

/// Random elements of `dtype`; the floats Gaussian, so blocks share
/// realistic exponents.
std::vector<char> bfpValues(core::Dtype dtype, size_t count,
                            std::mt19937_64 &rng) {
  unsigned bytes = core::dtypeInfo(dtype).bytes;
  std::vector<char> v(count * bytes);
  std::normal_distribution<float> dist(0.0f, 8.0f);
  for (size_t i = 0; i < count; ++i) {
    float f = dist(rng);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    if (dtype == core::Dtype::bfloat16)
      bits >>= 16;
    else if (dtype != core::Dtype::float32)
      bits = uint32_t(rng());
    std::memcpy(&v[i * bytes], &bits, bytes);
  }
  return v;
}

// Every format x tile shape x input type x layout, and the matrix forms
// with and without transpose: the folder's bytes are the runtime's.
TEST_P(FolderVsRuntime, BfpEveryFormShapeInputAndLayout) {
  const int64_t tiles = 2;
  for (const core::BfpFormatInfo &info : core::kBfpFormatTable) {
    BfpFormat format = BfpFormat(int(info.format));
    std::string name = stringifyBfpFormat(format).str();
    for (const core::BfpTileShape &shape : core::kBfpTileShapes) {
      if (!info.takesTileOf(shape.values())) // MX 1x16
        continue;
      int64_t R = shape.rows, C = shape.cols;
      int64_t tileBytes = int64_t(
          birsim_bfp_packed_tile_bytes(int(format), shape.rows, shape.cols));
      auto byteType =
          RankedTensorType::get({tiles, tileBytes}, builder.getI8Type());
      auto f32Tiles =
          RankedTensorType::get({tiles, R, C}, builder.getF32Type());
      for (core::Dtype dtype : core::kBfpInputDtypes) {
        std::vector<char> values = bfpValues(dtype, tiles * R * C, rng);
        Type element = bfpInputType(context, dtype);
        for (bool faces : {false, true}) {
          auto tileType = RankedTensorType::get({tiles, R, C}, element);
          auto pack =
              BfpPackOp::create(builder, builder.getUnknownLoc(), byteType,
                                format, constant(tileType, values), faces,
                                /*at=*/nullptr);
          std::vector<char> packed(tiles * tileBytes);
          ASSERT_EQ(birsim_bfp_pack(int(format), int(dtype), values.data(),
                                    tiles, shape.rows, shape.cols,
                                    faces ? BIRSIM_BFP_FACES : 0,
                                    packed.data()),
                    BIRSIM_OK);
          EXPECT_EQ(fold(pack), packed)
              << name << " " << R << "x" << C << " "
              << core::dtypeInfo(dtype).name << (faces ? " faces" : "");
        }
        // A matrix of 2 x 1 tiles (3 x 1 wide where tt-metal's Tile
        // transposes: heights 16 and 32).
        for (bool transpose : {false, true}) {
          if (transpose && R < 16)
            continue;
          int64_t rows = 2 * R, cols = C;
          auto matrixType = RankedTensorType::get({rows, cols}, element);
          auto pack = BfpPackMatrixOp::create(
              builder, builder.getUnknownLoc(), byteType, format,
              constant(matrixType, values),
              builder.getDenseI32ArrayAttr({int32_t(R), int32_t(C)}),
              transpose, /*at=*/nullptr);
          std::vector<char> packed(tiles * tileBytes);
          ASSERT_EQ(birsim_bfp_pack_matrix(int(format), int(dtype),
                                           values.data(), rows, cols,
                                           shape.rows, shape.cols,
                                           transpose ? BIRSIM_BFP_TRANSPOSE : 0,
                                           packed.data()),
                    BIRSIM_OK);
          EXPECT_EQ(fold(pack), packed)
              << name << " matrix " << R << "x" << C << " "
              << core::dtypeInfo(dtype).name << (transpose ? " transposed" : "");
        }
      }
      // Unpacking arbitrary bytes, tiles and matrix, every layout.
      std::vector<char> bytes = randomBytes(tiles * tileBytes);
      for (bool flag : {false, true}) {
        auto unpack =
            BfpUnpackOp::create(builder, builder.getUnknownLoc(), f32Tiles,
                                format, constant(byteType, bytes), flag,
                                /*at=*/nullptr);
        std::vector<char> unpacked(tiles * R * C * 4);
        ASSERT_EQ(birsim_bfp_unpack(int(format), bytes.data(), tiles,
                                    shape.rows, shape.cols,
                                    flag ? BIRSIM_BFP_FACES : 0,
                                    reinterpret_cast<float *>(unpacked.data())),
                  BIRSIM_OK);
        EXPECT_EQ(fold(unpack), unpacked) << name << " unpack";
        if (flag && R < 16)
          continue;
        auto matrixType =
            RankedTensorType::get({2 * R, C}, builder.getF32Type());
        auto unpackMatrix = BfpUnpackMatrixOp::create(
            builder, builder.getUnknownLoc(), matrixType, format,
            constant(byteType, bytes),
            builder.getDenseI32ArrayAttr({int32_t(R), int32_t(C)}), flag,
            /*at=*/nullptr);
        ASSERT_EQ(birsim_bfp_unpack_matrix(
                      int(format), bytes.data(), 2 * R, C, shape.rows,
                      shape.cols, flag ? BIRSIM_BFP_TRANSPOSE : 0,
                      reinterpret_cast<float *>(unpacked.data())),
                  BIRSIM_OK);
        EXPECT_EQ(fold(unpackMatrix), unpacked) << name << " unpack_matrix";
      }
    }
  }
}

// Every device site (BfpSites.def) folds to the runtime's _at bytes and
// values: packs of the Dest's type in every format the path writes, tile
// and matrix forms, and unpacks of arbitrary bytes.
TEST_P(FolderVsRuntime, BfpAtEverySiteFoldsToTheRuntime) {
  const int64_t tiles = 2, R = 32, C = 32;
  for (const core::BfpSiteInfo &site : core::kBfpSiteTable) {
    if (!site.onDevice())
      continue;
    core::Dtype dest = core::Dtype(site.dest);
    auto at = BfpSiteAttr::get(&context, BfpSite(int(site.site)));
    for (const core::BfpFormatInfo &info : core::kBfpFormatTable) {
      if (info.exponent != core::BfpExponent::Fp32 ||
          info.magnitudeBits < site.minMagnitudeBits)
        continue;
      BfpFormat format = BfpFormat(int(info.format));
      int64_t tileBytes =
          int64_t(birsim_bfp_packed_tile_bytes(int(format), R, C));
      auto byteType =
          RankedTensorType::get({tiles, tileBytes}, builder.getI8Type());
      std::vector<char> values = randomBytes(
          size_t(tiles * R * C) * core::dtypeInfo(dest).bytes);
      Type element = bfpInputType(context, dest);
      auto tileType = RankedTensorType::get({tiles, R, C}, element);
      auto pack = BfpPackOp::create(builder, builder.getUnknownLoc(), byteType,
                                    format, constant(tileType, values), false,
                                    at);
      std::vector<char> packed(tiles * tileBytes);
      ASSERT_EQ(birsim_bfp_pack_at(int(site.site), int(format), int(dest),
                                   values.data(), tiles, R, C, 0,
                                   packed.data()),
                BIRSIM_OK);
      EXPECT_EQ(fold(pack), packed) << site.name << " " << info.name;
      auto matrixType = RankedTensorType::get({2 * R, C}, element);
      auto packMatrix = BfpPackMatrixOp::create(
          builder, builder.getUnknownLoc(), byteType, format,
          constant(matrixType, values),
          builder.getDenseI32ArrayAttr({int32_t(R), int32_t(C)}), true, at);
      ASSERT_EQ(birsim_bfp_pack_matrix_at(int(site.site), int(format),
                                          int(dest), values.data(), 2 * R, C,
                                          R, C, BIRSIM_BFP_TRANSPOSE,
                                          packed.data()),
                BIRSIM_OK);
      EXPECT_EQ(fold(packMatrix), packed) << site.name << " matrix";
      std::vector<char> bytes = randomBytes(tiles * tileBytes);
      auto unpack = BfpUnpackOp::create(
          builder, builder.getUnknownLoc(),
          RankedTensorType::get({tiles, R, C}, builder.getF32Type()), format,
          constant(byteType, bytes), false, at);
      std::vector<char> unpacked(tiles * R * C * 4);
      ASSERT_EQ(birsim_bfp_unpack_at(int(site.site), int(format), bytes.data(),
                                     tiles, R, C, 0,
                                     reinterpret_cast<float *>(unpacked.data())),
                BIRSIM_OK);
      EXPECT_EQ(fold(unpack), unpacked) << site.name << " unpack";
    }
  }
}

// tt-metal's FP8 policies (TtFp8Policies.def) fold to the runtime's codes
// and values: random fp32 bits (every class) and every code.
TEST_P(FolderVsRuntime, TtFp8EveryPolicyFoldsToTheRuntime) {
  const int64_t n = 4096;
  std::vector<char> values = randomBytes(size_t(n) * 4);
  std::vector<char> codes(256);
  for (int c = 0; c < 256; ++c)
    codes[size_t(c)] = char(c);
  auto f32Type = RankedTensorType::get({n}, builder.getF32Type());
  auto codeType = RankedTensorType::get({n}, builder.getI8Type());
  auto everyCode = RankedTensorType::get({256}, builder.getI8Type());
  auto everyValue = RankedTensorType::get({256}, builder.getF32Type());
  for (int policy = 0; birsim_tt_fp8_policy_name(policy); ++policy) {
    auto encode = TtFp8EncodeOp::create(builder, builder.getUnknownLoc(),
                                        codeType, TtFp8Policy(policy),
                                        constant(f32Type, values));
    std::vector<char> want(static_cast<size_t>(n), 0);
    ASSERT_EQ(birsim_tt_fp8_encode(policy,
                                   reinterpret_cast<const float *>(values.data()),
                                   size_t(n),
                                   reinterpret_cast<uint8_t *>(want.data())),
              BIRSIM_OK);
    EXPECT_EQ(fold(encode), want) << birsim_tt_fp8_policy_name(policy);
    auto decode = TtFp8DecodeOp::create(builder, builder.getUnknownLoc(),
                                        everyValue, TtFp8Policy(policy),
                                        constant(everyCode, codes));
    std::vector<char> back(256 * 4);
    ASSERT_EQ(birsim_tt_fp8_decode(
                  policy, reinterpret_cast<const uint8_t *>(codes.data()), 256,
                  reinterpret_cast<float *>(back.data())),
              BIRSIM_OK);
    EXPECT_EQ(fold(decode), back) << birsim_tt_fp8_policy_name(policy);
  }
}

// The Tensix ops (Tensix.def) fold to the runtime's Dest values and packer
// output: every architecture, op, phase set and (Dest, Src) pairing the
// FPU accepts on random fp32 bits, and every packer path on the results.
TEST_P(FolderVsRuntime, TensixEveryCombinationFoldsToTheRuntime) {
  const int64_t n = 1024;
  std::vector<char> a = randomBytes(size_t(n) * 4), b = randomBytes(size_t(n) * 4);
  auto f32Type = RankedTensorType::get({n}, builder.getF32Type());
  Value lhs = constant(f32Type, a), rhs = constant(f32Type, b);
  Type destTypes[] = {builder.getF32Type(), builder.getBF16Type(),
                      builder.getF16Type()};
  int combinations = 0;
  for (int arch = 0; birsim_tensix_name(0, arch); ++arch)
    for (int op = 0; birsim_tensix_name(1, op); ++op)
      for (int dest = 0; birsim_tensix_name(2, dest); ++dest)
        for (int src = 0; birsim_tensix_name(3, src); ++src)
          for (unsigned phases = 1; phases <= 0xF; ++phases) {
            size_t bytes = dest == BIRSIM_TENSIX_DEST_FP32 ? 4 : 2;
            std::vector<char> want(size_t(n) * bytes);
            if (birsim_tensix_eltwise(arch, op, phases, dest, src,
                                      reinterpret_cast<const float *>(a.data()),
                                      reinterpret_cast<const float *>(b.data()),
                                      size_t(n), want.data(), 0) != BIRSIM_OK)
              continue; // the verifier's rules: tested in invalid.mlir
            auto type = RankedTensorType::get({n}, destTypes[dest]);
            auto eltwise = TensixEltwiseOp::create(
                builder, builder.getUnknownLoc(), type, TensixOp(op), lhs, rhs,
                TensixDest(dest), TensixSrc(src), TensixFidelity(phases),
                TensixArch(arch));
            ASSERT_TRUE(succeeded(eltwise.verify()));
            std::vector<char> folded = fold(eltwise);
            EXPECT_EQ(folded, want)
                << birsim_tensix_name(0, arch) << " " << birsim_tensix_name(1, op)
                << " " << birsim_tensix_name(2, dest) << " "
                << birsim_tensix_name(3, src) << " phases " << phases;
            ++combinations;
            if (phases != 0xF && op == BIRSIM_TENSIX_MUL)
              continue;
            Value destValues = constant(type, want);
            for (Type outType : destTypes) {
              int outDtype = outType.isF32() ? 16 : outType.isBF16() ? 12 : 13;
              size_t outBytes = outType.isF32() ? 4 : 2;
              std::vector<char> out(size_t(n) * outBytes);
              if (birsim_tensix_pack(arch, dest, want.data(), size_t(n),
                                     outDtype, out.data(), 0) != BIRSIM_OK)
                continue;
              auto pack = TensixPackOp::create(
                  builder, builder.getUnknownLoc(),
                  RankedTensorType::get({n}, outType), destValues,
                  TensixDest(dest), TensixArch(arch));
              ASSERT_TRUE(succeeded(pack.verify()));
              EXPECT_EQ(fold(pack), out) << birsim_tensix_name(2, dest) << " to "
                                         << outDtype;
            }
          }
  EXPECT_EQ(combinations, 2 * (15 * 6 + 2 * 6)); // mul: 15 phase sets
}

// A matmul of constants folds to the runtime's Dest on the expanded
// operands: from splats through one 32x32 tile (a splat stays a splat,
// docs/Decisions.md D76), from resource blobs of the same values through
// the whole product; values across binades, near overflow (0x7F55 x
// 0x6440, where a zero-slice phase realigns a saturated Dest), Inf, NaN,
// denormals and signed zeros, every fidelity, arch, Dest and Src pair the
// runtime accepts.
TEST_P(FolderVsRuntime, TensixMatmulOfSplatsFoldsToTheRuntime) {
  const int64_t m = 64, k = 32, n = 96;
  const uint32_t values[][2] = {
      {0x3FC00000, 0x3FA00000}, {0x3FA80000, 0x40FF0000},
      {0x7F550000, 0x64400000}, {0x7F000000, 0x7F000000},
      {0x7F800000, 0x3F800000}, {0x7FC00000, 0x3F800000},
      {0x00000001, 0x3F800000}, {0x80000000, 0x3FAAAAAB},
      {0xC0490FDB, 0x3F3504F3}, {0x7F7FFFFF, 0xBF800001}};
  Type destTypes[] = {builder.getF32Type(), builder.getBF16Type(),
                      builder.getF16Type()};
  int folded = 0;
  for (auto [aBits, bBits] : values) {
    std::vector<char> a(size_t(m * k) * 4), b(size_t(k * n) * 4);
    for (size_t i = 0; i < a.size(); i += 4)
      std::memcpy(&a[i], &aBits, 4);
    for (size_t i = 0; i < b.size(); i += 4)
      std::memcpy(&b[i], &bBits, 4);
    auto aType = RankedTensorType::get({m, k}, builder.getF32Type());
    auto bType = RankedTensorType::get({k, n}, builder.getF32Type());
    // Dense: one element is a splat; Resource: every element, not splat.
    bool splat = GetParam() == Input::Dense;
    Value in0 = constant(aType, splat ? std::vector<char>(a.begin(), a.begin() + 4) : a);
    Value in1 = constant(bType, splat ? std::vector<char>(b.begin(), b.begin() + 4) : b);
    for (int arch = 0; birsim_tensix_name(0, arch); ++arch)
      for (int dest = 0; birsim_tensix_name(2, dest); ++dest)
        for (int src = 0; birsim_tensix_name(3, src); ++src)
          for (unsigned phases : {1u, 3u, 5u, 0xFu}) {
            size_t bytes = dest == BIRSIM_TENSIX_DEST_FP32 ? 4 : 2;
            std::vector<char> want(size_t(m * n) * bytes, 0);
            if (birsim_tensix_matmul(arch, phases, dest, src, src,
                                     reinterpret_cast<const float *>(a.data()),
                                     reinterpret_cast<const float *>(b.data()),
                                     m, k, n, want.data(), 0) != BIRSIM_OK)
              continue;
            auto op = TensixMatmulOp::create(
                builder, builder.getUnknownLoc(),
                RankedTensorType::get({m, n}, destTypes[dest]), in0, in1,
                TensixDest(dest), TensixSrc(src), TensixSrc(src),
                TensixFidelity(phases), TensixArch(arch));
            ASSERT_TRUE(succeeded(op.verify()));
            EXPECT_EQ(fold(op), want)
                << std::hex << aBits << " x " << bBits << std::dec << " "
                << birsim_tensix_name(0, arch) << " "
                << birsim_tensix_name(2, dest) << " "
                << birsim_tensix_name(3, src) << " phases " << phases;
            ++folded;
            op->erase();
          }
  }
  EXPECT_GT(folded, 10 * 2 * 4 * 3); // at least three Dest/Src pairs each
}

// Per-tile mixed BFP: packs of every input type, plain and transposed,
// under random codes, and the unpacks of their bytes, fold to the
// runtime's.
TEST_P(FolderVsRuntime, BfpMixedFoldsToTheRuntime) {
  const int64_t rows = 64, cols = 96, tiles = 6;
  std::mt19937_64 rng(39116);
  for (core::Dtype dtype : core::kBfpInputDtypes)
    for (bool transpose : {false, true}) {
      std::vector<char> values = bfpValues(dtype, rows * cols, rng);
      std::vector<char> codes = {char(rng()), char(rng())};
      auto *codeBytes = reinterpret_cast<const uint8_t *>(codes.data());
      size_t bytes = birsim_bfp_mixed_bytes(codeBytes, rows, cols);
      auto matrixType = RankedTensorType::get(
          {rows, cols}, bfpInputType(context, dtype));
      auto codeType = RankedTensorType::get({(tiles + 3) / 4},
                                            builder.getI8Type());
      auto byteType =
          RankedTensorType::get({int64_t(bytes)}, builder.getI8Type());
      auto pack = BfpPackMixedOp::create(
          builder, builder.getUnknownLoc(), byteType,
          constant(matrixType, values), constant(codeType, codes), transpose);
      std::vector<char> packed(bytes);
      unsigned flags = transpose ? BIRSIM_BFP_TRANSPOSE : 0;
      ASSERT_EQ(birsim_bfp_pack_mixed(int(dtype), values.data(), rows, cols,
                                      flags, codeBytes, packed.data()),
                BIRSIM_OK);
      EXPECT_EQ(fold(pack), packed) << core::dtypeInfo(dtype).name;
      auto f32Matrix =
          RankedTensorType::get({rows, cols}, builder.getF32Type());
      auto unpack = BfpUnpackMixedOp::create(
          builder, builder.getUnknownLoc(), f32Matrix,
          constant(byteType, packed), constant(codeType, codes), transpose);
      std::vector<char> unpacked(rows * cols * 4);
      ASSERT_EQ(birsim_bfp_unpack_mixed(
                    packed.data(), rows, cols, flags, codeBytes,
                    reinterpret_cast<float *>(unpacked.data())),
                BIRSIM_OK);
      EXPECT_EQ(fold(unpack), unpacked) << core::dtypeInfo(dtype).name;
    }
}

// Packs to DRAM pages (page32, page64) fold to the runtime's paged bytes,
// and unpacks of pages to its values.
TEST_P(FolderVsRuntime, BfpPagesFoldToTheRuntime) {
  const int64_t tiles = 2, R = 16, C = 32;
  std::vector<char> values = randomBytes(size_t(tiles * R * C) * 4);
  auto tileType = RankedTensorType::get({tiles, R, C}, builder.getF32Type());
  for (bool page64 : {false, true}) {
    unsigned flags = page64 ? BIRSIM_BFP_PAGE64 : BIRSIM_BFP_PAGE32;
    int64_t stride = int64_t(
        birsim_bfp_page_bytes(int(BfpFormat::bfp4_b), R, C, page64 ? 64 : 32));
    auto byteType = RankedTensorType::get({tiles, stride}, builder.getI8Type());
    auto pack = BfpPackOp::create(builder, builder.getUnknownLoc(), byteType,
                                  BfpFormat::bfp4_b, constant(tileType, values),
                                  false, nullptr, !page64, page64);
    std::vector<char> packed(size_t(tiles * stride));
    ASSERT_EQ(birsim_bfp_pack(int(BfpFormat::bfp4_b), 16, values.data(),
                              tiles, R, C, flags, packed.data()),
              BIRSIM_OK);
    EXPECT_EQ(fold(pack), packed);
    auto unpack = BfpUnpackOp::create(
        builder, builder.getUnknownLoc(), tileType, BfpFormat::bfp4_b,
        constant(byteType, packed), false, nullptr, !page64, page64);
    std::vector<char> back(values.size());
    ASSERT_EQ(birsim_bfp_unpack(int(BfpFormat::bfp4_b), packed.data(), tiles,
                                R, C, flags,
                                reinterpret_cast<float *>(back.data())),
              BIRSIM_OK);
    EXPECT_EQ(fold(unpack), back);
  }
}

TEST_P(FolderVsRuntime, ScalarsFoldLikeTensors) {
  // One scalar per reducing float dtype: FloatAttr operands.
  for (Type type : {Type(builder.getF32Type()), Type(builder.getBF16Type()),
                    Type(Float8E5M2Type::get(&context))}) {
    unsigned width = type.getIntOrFloatBitWidth();
    auto sem = &cast<FloatType>(type).getFloatSemantics();
    APFloat a(*sem, APInt(width, 0x7BFF7BFFull & ((1ull << width) - 1)));
    Value v = arith::ConstantOp::create(builder, builder.getUnknownLoc(),
                                        builder.getFloatAttr(type, a));
    auto op = ReduceOp::create(builder, builder.getUnknownLoc(), type,
                               MemoryReductionOp::add, v, v);
    SmallVector<OpFoldResult> results;
    ASSERT_TRUE(succeeded(op->fold(results)));
    auto folded = cast<FloatAttr>(cast<Attribute>(results.front()));
    uint64_t bits = a.bitcastToAPInt().getZExtValue(), expected = bits;
    std::optional<::birsim::core::Dtype> dtype = getDtype(type);
    ASSERT_EQ(birsim_accumulate(1, &expected, &bits, int(*dtype), 1),
              BIRSIM_OK);
    EXPECT_EQ(folded.getValue().bitcastToAPInt().getZExtValue(), expected);
  }
}

} // namespace

INSTANTIATE_TEST_SUITE_P(Inputs, FolderVsRuntime,
                         ::testing::Values(Input::Dense, Input::Resource),
                         [](const ::testing::TestParamInfo<Input> &info) {
                           return info.param == Input::Dense ? "Dense"
                                                             : "Resource";
                         });

namespace {

// The ODS enums and the dtype mapping agree with the core's tables.
TEST(DialectTables, EnumsAndDtypesMatchTheCore) {
  for (int i = 0; i < ::birsim::core::kNumAluOpTypes; ++i)
    EXPECT_EQ(stringifyAluOpType(AluOpType(i)).str(),
              ::birsim::core::aluOpTypeName(i));
  for (int i = 0; i < ::birsim::core::kNumMemoryReductionOps; ++i)
    EXPECT_EQ(stringifyMemoryReductionOp(MemoryReductionOp(i)).str(),
              ::birsim::core::memoryReductionOpName(i));
  for (int i = 0; i < ::birsim::core::kNumBfpFormats; ++i)
    EXPECT_EQ(stringifyBfpFormat(BfpFormat(i)).str(),
              ::birsim::core::lookupBfpFormat(i)->name);
  MLIRContext context;
  context.loadDialect<BirsimDialect>();
  for (int d = 0; d < ::birsim::core::kNumDtypes; ++d) {
    auto dtype = ::birsim::core::Dtype(d);
    Type type = getElementType(&context, dtype);
    ASSERT_TRUE(type) << d;
    EXPECT_EQ(getDtype(type), dtype) << d;
    EXPECT_EQ(lookupDtypeInfo(type), ::birsim::core::lookupDtype(d));
    // Dtypes.def's MlirSpelling column is how MlirType prints.
    std::string printed;
    llvm::raw_string_ostream os(printed);
    type.print(os);
    EXPECT_EQ(printed, ::birsim::core::lookupDtype(d)->mlirSpelling);
  }
  // siN is the same dtype as iN; other types are none.
  EXPECT_EQ(getDtype(IntegerType::get(&context, 32, IntegerType::Signed)),
            ::birsim::core::Dtype::int32);
  EXPECT_EQ(getDtype(Float64Type::get(&context)), std::nullopt);
  EXPECT_EQ(getDtype(IntegerType::get(&context, 1)), std::nullopt);
}

// Each buffer op reads and writes exactly the operands its ODS Arg<> effects
// name (BirsimOps.td): "r" read, "w" written, "rw" both.
TEST(DialectTables, DeclaredMemoryEffects) {
  MLIRContext context;
  context.loadDialect<BirsimDialect, func::FuncDialect>();
  const char *source = R"mlir(
    func.func @f(%m: memref<4xbf16>, %n: memref<4xbf16>, %f: memref<4xf32>,
                 %g: memref<4xf32>, %q: memref<4xf8E5M2>,
                 %t: memref<1x32x32xf32>, %p: memref<1x1088xi8>,
                 %i: memref<4xi64>) {
      birsim.reduce_into add %m, %n : memref<4xbf16>
      birsim.collective_reduce_into add %f, %g : memref<4xf32>
      birsim.cast_into %f, %q : memref<4xf32> to memref<4xf8E5M2>
      birsim.bfp_pack_into bfp8_b %t, %p : memref<1x32x32xf32> to memref<1x1088xi8>
      birsim.bfp_unpack_into bfp8_b %p, %t : memref<1x1088xi8> to memref<1x32x32xf32>
      birsim.dma_copy add %n to %m : memref<4xbf16> to memref<4xbf16>
      birsim.indirect_save bypass %n to %m[%i] : memref<4xbf16>, memref<4xi64> to memref<4xbf16>
      birsim.indirect_save_accumulate add %n to %m[%i] : memref<4xbf16>, memref<4xi64> to memref<4xbf16>
      return
    })mlir";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(module);
  // Per op, in operand order.
  std::vector<std::vector<std::string>> expected = {
      {"rw", "r"}, {"rw", "r"}, {"r", "w"},       {"r", "w"},
      {"r", "w"},  {"r", "rw"}, {"r", "r", "rw"}, {"r", "r", "rw"}};
  size_t index = 0;
  module->walk([&](Operation *op) {
    if (!isa<BirsimDialect>(op->getDialect()))
      return;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    ASSERT_TRUE(effects) << op->getName().getStringRef().str();
    ASSERT_LT(index, expected.size());
    std::vector<std::string> seen(op->getNumOperands());
    for (OpOperand &operand : op->getOpOperands()) {
      if (effects.getEffectOnValue<MemoryEffects::Read>(operand.get()))
        seen[operand.getOperandNumber()] += "r";
      if (effects.getEffectOnValue<MemoryEffects::Write>(operand.get()))
        seen[operand.getOperandNumber()] += "w";
    }
    EXPECT_EQ(seen, expected[index]) << op->getName().getStringRef().str();
    ++index;
  });
  EXPECT_EQ(index, expected.size());
}

} // namespace

namespace {

/// The folded bits of `op` on one-result dense constants, per element.
std::vector<uint64_t> foldedBits(Operation *op) {
  SmallVector<OpFoldResult> results;
  if (failed(op->fold(results)) || results.empty())
    return {};
  auto attr = dyn_cast_if_present<DenseElementsAttr>(
      dyn_cast_if_present<Attribute>(results.front()));
  if (!attr)
    return {};
  std::vector<uint64_t> bits;
  for (APFloat v : attr.getValues<APFloat>())
    bits.push_back(v.bitcastToAPInt().getZExtValue());
  return bits;
}

/// docs/Conversions.md's reduce-add against upstream: birsim.reduce add
/// folds every pair of every reducing fp8 format, and 2^20 seeded bf16
/// pairs, to upstream's own arith.addf folder's bits (APFloat, one
/// rounding) except where both are NaN with different codes (birsim gives
/// the format's one NaN, docs/Semantics.md section 4), which are counted.
TEST(UpstreamFolders, ReduceAddEqualsArithAddfButNaNCodes) {
  MLIRContext context;
  context.loadDialect<BirsimDialect, arith::ArithDialect>();
  OpBuilder builder(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(builder.getUnknownLoc());
  builder.setInsertionPointToEnd(module->getBody());
  auto compare = [&](Type element, const std::vector<uint16_t> &a,
                     const std::vector<uint16_t> &b) {
    unsigned width = element.getIntOrFloatBitWidth();
    auto type = RankedTensorType::get({int64_t(a.size())}, element);
    auto constant = [&](const std::vector<uint16_t> &bits) {
      SmallVector<APFloat> values;
      for (uint16_t v : bits)
        values.push_back(APFloat(cast<FloatType>(element).getFloatSemantics(),
                                 APInt(width, v)));
      return arith::ConstantOp::create(builder, builder.getUnknownLoc(),
                                       DenseElementsAttr::get(type, values));
    };
    Value x = constant(a), y = constant(b);
    auto addf = arith::AddFOp::create(builder, builder.getUnknownLoc(), x, y);
    auto reduce = ReduceOp::create(builder, builder.getUnknownLoc(), type,
                                   MemoryReductionOp::add, x, y);
    std::vector<uint64_t> upstream = foldedBits(addf), ours = foldedBits(reduce);
    ASSERT_EQ(upstream.size(), a.size());
    ASSERT_EQ(ours.size(), a.size());
    const llvm::fltSemantics &sem = cast<FloatType>(element).getFloatSemantics();
    size_t nanCodes = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      if (upstream[i] == ours[i])
        continue;
      bool bothNaN = APFloat(sem, APInt(width, upstream[i])).isNaN() &&
                     APFloat(sem, APInt(width, ours[i])).isNaN();
      ASSERT_TRUE(bothNaN) << "a=" << a[i] << " b=" << b[i] << ": upstream "
                           << upstream[i] << ", birsim " << ours[i];
      ++nanCodes;
    }
    std::printf("%s: %zu pairs, %zu NaN codes differ\n",
                core::dtypeInfo(*getDtype(element)).name, a.size(), nanCodes);
  };
  for (Type element : {Type(Float8E3M4Type::get(&context)),
                       Type(Float8E4M3Type::get(&context)),
                       Type(Float8E5M2Type::get(&context))}) {
    std::vector<uint16_t> a, b;
    for (unsigned i = 0; i < 256; ++i)
      for (unsigned j = 0; j < 256; ++j)
        a.push_back(uint16_t(i)), b.push_back(uint16_t(j));
    compare(element, a, b);
  }
  std::mt19937_64 rng(22);
  std::vector<uint16_t> a(1 << 20), b(1 << 20);
  for (size_t i = 0; i < a.size(); ++i) {
    uint64_t r = rng();
    a[i] = uint16_t(r);
    // Half the partners near a's exponent, where the sum rounds.
    b[i] = (r >> 63) ? uint16_t(r >> 16) : uint16_t((a[i] & 0xFF80) ^ (r >> 40 & 0x807F));
  }
  compare(builder.getBF16Type(), a, b);
}

} // namespace
