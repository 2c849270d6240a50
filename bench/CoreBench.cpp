//===- CoreBench.cpp - runtime bulk kernels and folder throughput ---------===//
#include "birsim/Dialect/Birsim/IR/BirsimOps.h"
#include "birsim/Runtime/Runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <benchmark/benchmark.h>

#include <random>
#include <vector>

namespace {

constexpr int64_t kElements = 1 << 20;

std::vector<char> randomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<char> v(n);
  for (char &c : v)
    c = char(rng());
  return v;
}

/// birsim_accumulate(op, dtype) over 2^20 random elements.
void BM_Accumulate(benchmark::State &state) {
  int op = int(state.range(0)), dtype = int(state.range(1));
  size_t bytes = birsim_dtype_size(dtype);
  std::vector<char> dst = randomBytes(kElements * bytes, 1);
  std::vector<char> src = randomBytes(kElements * bytes, 2);
  for (auto _ : state) {
    int status =
        birsim_accumulate(op, dst.data(), src.data(), dtype, kElements);
    benchmark::DoNotOptimize(status);
  }
  state.SetItemsProcessed(state.iterations() * kElements);
  state.SetLabel(birsim_dtype_name(dtype));
}
BENCHMARK(BM_Accumulate)
    ->ArgsProduct({{1, 3}, {3, 4, 7, 12, 13, 15, 16, 19}})
    ->Unit(benchmark::kMillisecond);

/// birsim_accumulate add on normally distributed values (neighbouring
/// magnitudes, no NaN: the common case, with predictable branches).
void BM_AccumulateGaussian(benchmark::State &state) {
  int dtype = int(state.range(0));
  std::vector<float> a(kElements), b(kElements);
  std::normal_distribution<float> dist(0, 1);
  std::mt19937 rng(7);
  for (int64_t i = 0; i < kElements; ++i) {
    a[i] = dist(rng);
    b[i] = dist(rng);
  }
  size_t bytes = birsim_dtype_size(dtype);
  std::vector<char> dst(kElements * bytes), src(kElements * bytes);
  birsim_cast(16, a.data(), dtype, dst.data(), kElements, 1);
  birsim_cast(16, b.data(), dtype, src.data(), kElements, 1);
  for (auto _ : state) {
    int status = birsim_accumulate(1, dst.data(), src.data(), dtype, kElements);
    benchmark::DoNotOptimize(status);
  }
  state.SetItemsProcessed(state.iterations() * kElements);
  state.SetLabel(birsim_dtype_name(dtype));
}
BENCHMARK(BM_AccumulateGaussian)
    ->Arg(3)
    ->Arg(12)
    ->Arg(13)
    ->Arg(16)
    ->Unit(benchmark::kMillisecond);

void BM_CastF32To(benchmark::State &state) {
  int dtype = int(state.range(0));
  std::vector<char> src = randomBytes(kElements * 4, 3);
  std::vector<char> dst(kElements * birsim_dtype_size(dtype));
  for (auto _ : state) {
    int status = birsim_cast(16, src.data(), dtype, dst.data(), kElements, 1);
    benchmark::DoNotOptimize(status);
  }
  state.SetItemsProcessed(state.iterations() * kElements);
  state.SetLabel(birsim_dtype_name(dtype));
}
BENCHMARK(BM_CastF32To)
    ->Arg(7)
    ->Arg(12)
    ->Arg(17)
    ->Unit(benchmark::kMillisecond);

void BM_BfpPack(benchmark::State &state) {
  int format = int(state.range(0));
  const size_t tiles = kElements / 1024;
  std::vector<float> in(kElements);
  std::normal_distribution<float> dist(0, 4);
  std::mt19937 rng(4);
  for (float &x : in)
    x = dist(rng);
  std::vector<char> out(tiles * birsim_bfp_tile_bytes(format));
  for (auto _ : state) {
    int status = birsim_bfp_pack_tiles(format, in.data(), tiles, out.data());
    benchmark::DoNotOptimize(status);
  }
  state.SetItemsProcessed(state.iterations() * kElements);
}
BENCHMARK(BM_BfpPack)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

/// Folding birsim.reduce add on two dense 2^20-element constants.
void BM_FoldReduce(benchmark::State &state) {
  using namespace mlir;
  MLIRContext context;
  context.loadDialect<::birsim::BirsimDialect, arith::ArithDialect>();
  OpBuilder builder(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(builder.getUnknownLoc());
  builder.setInsertionPointToEnd(module->getBody());
  Type element = state.range(0) == 1 ? Type(Float8E4M3Type::get(&context))
                                     : Type(builder.getBF16Type());
  unsigned bytes = element.getIntOrFloatBitWidth() / 8;
  auto type = RankedTensorType::get({kElements}, element);
  auto constant = [&](uint32_t seed) {
    auto attr = DenseElementsAttr::getFromRawBuffer(
        type, randomBytes(kElements * bytes, seed));
    return arith::ConstantOp::create(builder, builder.getUnknownLoc(),
                                     cast<TypedAttr>(attr));
  };
  Value a = constant(5), b = constant(6);
  auto op = ::birsim::ReduceOp::create(
      builder, builder.getUnknownLoc(), type,
      ::birsim::MemoryReductionOp::add, a, b);
  for (auto _ : state) {
    SmallVector<OpFoldResult> results;
    if (failed(op->fold(results)))
      state.SkipWithError("did not fold");
    benchmark::DoNotOptimize(results.data());
  }
  state.SetItemsProcessed(state.iterations() * kElements);
  state.SetLabel(state.range(0) == 1 ? "f8E4M3" : "bf16");
}
BENCHMARK(BM_FoldReduce)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
