//===- PeerBench.cpp - birsim vs MLIR's arith-to-apfloat, side by side ----===//
//
// Calls the kernels of bench/kernels.mlir (compiled by bench/run.sh) on the
// same buffers.
//
//===----------------------------------------------------------------------===//
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

namespace {
struct MemRef1D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
};
} // namespace

extern "C" {
void _mlir_ciface_apfloat_add(MemRef1D *a, MemRef1D *b);
void _mlir_ciface_birsim_add_loop(MemRef1D *a, MemRef1D *b);
void _mlir_ciface_birsim_add_bulk(MemRef1D *a, MemRef1D *b);
}

template <void (*Kernel)(MemRef1D *, MemRef1D *)>
static void BM_Fp8Add(benchmark::State &state) {
  int64_t n = state.range(0);
  // Values from every binade, no NaN: both sides do real rounding work.
  std::vector<uint8_t> a(n), b(n), a0(n);
  for (int64_t i = 0; i < n; ++i) {
    a0[i] = uint8_t((i * 37) % 0x7B) | uint8_t(i & 0x80);
    b[i] = uint8_t((i * 11 + 5) % 0x7B);
  }
  for (auto _ : state) {
    state.PauseTiming();
    a = a0;
    state.ResumeTiming();
    MemRef1D x{a.data(), a.data(), 0, {n}, {1}};
    MemRef1D y{b.data(), b.data(), 0, {n}, {1}};
    Kernel(&x, &y);
    benchmark::DoNotOptimize(a.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
}

BENCHMARK(BM_Fp8Add<_mlir_ciface_apfloat_add>)
    ->Name("fp8_add/apfloat_peer")
    ->Arg(1 << 20);
BENCHMARK(BM_Fp8Add<_mlir_ciface_birsim_add_loop>)
    ->Name("fp8_add/birsim_scalar_loop")
    ->Arg(1 << 20);
BENCHMARK(BM_Fp8Add<_mlir_ciface_birsim_add_bulk>)
    ->Name("fp8_add/birsim_bulk")
    ->Arg(1 << 20);

BENCHMARK_MAIN();
