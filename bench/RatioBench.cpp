//===- RatioBench.cpp - bulk kernels as ratios to memcpy ------------------===//
//
// Each row times a runtime call and a memcpy of the bytes named, in this
// process on the same (allocated and touched) buffers, alternately, best of
// 9 each (the BFP, MX, mixed, device and search sections in rounds over all
// their rows, class Rounds), single thread unless stated; the ratio is
// call / memcpy. The path is the one BIRSIM_ISA selects (bench/run.sh runs
// the portable and the best path). Also: bf16 add on 2 threads against 1,
// folding a 2^20-element bf16 birsim.reduce against arith.addf folding the same
// constants, and each counted call with the fidelity counters on against off.
//
//===----------------------------------------------------------------------===//
#include "birsim/Dialect/Birsim/IR/BirsimOps.h"
#include "birsim/Runtime/Runtime.h"
#include "../test/Unit/Core/PlainTensix.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace {

constexpr int kRepetitions = 9;

double bestSeconds(const std::function<void()> &fn,
                   int repetitions = kRepetitions) {
  double best = 1e30;
  for (int r = 0; r < repetitions; ++r) {
    auto start = std::chrono::steady_clock::now();
    fn();
    std::chrono::duration<double> took =
        std::chrono::steady_clock::now() - start;
    best = std::min(best, took.count());
  }
  return best;
}

/// Best times of `a` and `b` run alternately, so that both see the same
/// moments of this shared machine.
std::pair<double, double>
bestSecondsSideBySide(const std::function<void()> &a,
                      const std::function<void()> &b,
                      int repetitions = kRepetitions) {
  double bestA = 1e30, bestB = 1e30;
  for (int r = 0; r < repetitions; ++r) {
    bestA = std::min(bestA, bestSeconds(a, 1));
    bestB = std::min(bestB, bestSeconds(b, 1));
  }
  return {bestA, bestB};
}

std::vector<char> randomBytes(size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<char> v(n);
  for (size_t i = 0; i + 8 <= n; i += 8) {
    uint64_t r = rng();
    std::memcpy(&v[i], &r, 8);
  }
  return v;
}

/// BIRSIM_BENCH_ROWS=<text> keeps the rows whose name contains it ("threads"
/// and "folding" name those two measures).
bool wanted(const char *what) {
  const char *only = std::getenv("BIRSIM_BENCH_ROWS");
  return !only || !*only || std::strstr(what, only);
}

/// A target of 0 marks a row measured for reference, with no target.
void row(const char *what, double seconds, double memcpySeconds,
         double target) {
  double ratio = seconds / memcpySeconds;
  std::printf("%-34s %10.3f ms %8.3f ms %8.2fx   ", what, seconds * 1e3,
              memcpySeconds * 1e3, ratio);
  if (target > 0)
    std::printf("<= %.3g %s\n", target, ratio <= target ? "ok" : "MISSED");
  else
    std::printf("-\n");
}

/// Rows timed in rounds: each round runs every row's call, then its peer,
/// once, so that a burst of other load on this shared machine meets a few
/// samples of many rows rather than every sample of one row; a row prints
/// its best call and best peer of kRepetitions rounds.
class Rounds {
public:
  void add(const char *what, std::function<void()> call,
           std::function<void()> peer, double target) {
    if (wanted(what))
      rows.push_back({what, std::move(call), std::move(peer), target});
  }
  void run() {
    for (int r = 0; r < kRepetitions; ++r)
      for (Row &each : rows) {
        each.best = std::min(each.best, bestSeconds(each.call, 1));
        each.bestPeer = std::min(each.bestPeer, bestSeconds(each.peer, 1));
      }
    for (const Row &each : rows)
      row(each.what.c_str(), each.best, each.bestPeer, each.target);
    rows.clear();
  }

private:
  struct Row {
    std::string what;
    std::function<void()> call, peer;
    double target, best = 1e30, bestPeer = 1e30;
  };
  std::vector<Row> rows;
};

const struct {
  int dtype;
  const char *name;
} kReducing[] = {{3, "f8E3M4"}, {4, "f8E4M3"}, {7, "f8E5M2"}, {12, "bf16"},
                 {13, "f16"},   {15, "i32"},   {16, "f32"},   {19, "i64"}};
const char *kOpNames[] = {"", "add", "min", "max"};

void ratios(size_t n) {
  std::printf("\n-- %zu elements (2^%d), %s --\n", n,
              int(std::log2(double(n))),
              n >= (size_t(1) << 24) ? "memory" : "in cache");
  std::printf("%-34s %13s %11s %9s   %s\n", "call", "time", "memcpy", "ratio",
              "target");
  for (const auto &reducing : kReducing) {
    int dtype = reducing.dtype;
    const char *name = reducing.name;
    size_t bytes = birsim_dtype_size(dtype);
    std::vector<char> dst = randomBytes(n * bytes, 1),
                      src = randomBytes(n * bytes, 2);
    auto copy = [&] { std::memcpy(dst.data(), src.data(), n * bytes); };
    for (int op = 1; op <= 3; ++op) {
      char what[64];
      std::snprintf(what, sizeof what, "accumulate %s %s", kOpNames[op], name);
      if (!wanted(what))
        continue;
      std::vector<char> fresh = randomBytes(n * bytes, 3);
      auto [t, copied] = bestSecondsSideBySide(
          [&] { birsim_accumulate(op, fresh.data(), src.data(), dtype, n); },
          copy);
      bool fp8Add = op == 1 && bytes == 1;
      row(what, t, copied, fp8Add ? 4.0 : 1.2);
    }
  }
  std::vector<char> f32 = randomBytes(n * 4, 4), copyOut(n * 4);
  auto copyF32 = [&] { std::memcpy(copyOut.data(), f32.data(), n * 4); };
  for (auto [castDtype, name] :
       {std::pair{12, "bf16"}, {13, "f16"}, {4, "f8E4M3"}, {7, "f8E5M2"}}) {
    int dtype = castDtype;
    char what[64];
    std::snprintf(what, sizeof what, "cast f32 -> %s", name);
    if (!wanted(what))
      continue;
    std::vector<char> out(n * birsim_dtype_size(dtype), 1);
    auto [t, copied] = bestSecondsSideBySide(
        [&] { birsim_cast(16, f32.data(), dtype, out.data(), n, 1); }, copyF32);
    row(what, t, copied, 1.2);
  }
  // The DMA's mixed accumulate (docs/Semantics.md section 8): a 16- or
  // 8-bit destination += fp32 (Trainium3's bf16 PSUM), against a memcpy of
  // the fp32 source: one fused pass (reduceNarrowF32); fp8's general widen
  // and narrow lanes cost AVX2 more than its plain casts, hence 2.0.
  for (auto [dmaDtype, rounding, name, target] :
       {std::tuple{12, 0, "bf16 += f32", 1.2},
        {12, 1, "bf16 += f32 sr", 0.0},
        {4, 0, "f8E4M3 += f32", 2.0}}) {
    int dtype = dmaDtype, mode = rounding;
    char what[64];
    std::snprintf(what, sizeof what, "dma %s", name);
    if (!wanted(what))
      continue;
    std::vector<char> acc = randomBytes(n * birsim_dtype_size(dtype), 8);
    std::vector<float> mm(n, 0x1p-9f);
    auto [t, copied] = bestSecondsSideBySide(
        [&] {
          birsim_accumulate_mixed(1, acc.data(), dtype, mm.data(), 16, n, 1,
                                  mode, 7);
        },
        copyF32);
    row(what, t, copied, target);
  }
  // BFP on Gaussian data (realistic exponents).
  std::vector<float> tiles(n);
  std::normal_distribution<float> dist(0, 4);
  std::mt19937 rng(5);
  for (float &x : tiles)
    x = dist(rng);
  for (auto [bfpFormat, name] : {std::pair{0, "bfp8_b"}, {1, "bfp4_b"}}) {
    int format = bfpFormat;
    char what[64];
    std::snprintf(what, sizeof what, "bfp pack %s", name);
    if (!wanted(what))
      continue;
    std::vector<char> out(n / 1024 * birsim_bfp_tile_bytes(format), 1);
    auto [t, copied] = bestSecondsSideBySide(
        [&] {
          birsim_bfp_pack_tiles(format, tiles.data(), n / 1024, out.data());
        },
        copyF32);
    row(what, t, copied, 1.2);
  }
}

/// a[i] += b[i] on 16-bit integers, as the compiler vectorizes it: the
/// access pattern of a 16-bit accumulate (two streams read, one written)
/// with no arithmetic to speak of.
__attribute__((noinline)) void plainAdd(uint16_t *a, const uint16_t *b,
                                        size_t n) {
  for (size_t i = 0; i < n; ++i)
    a[i] = uint16_t(a[i] + b[i]);
}

/// dst[i] = top byte of src[i]: the access pattern of packing fp32 into
/// BFP8 (4 bytes read, about 1 written per value) with no arithmetic.
__attribute__((noinline)) void plainNarrow(uint8_t *dst, const uint32_t *src,
                                           size_t n) {
  for (size_t i = 0; i < n; ++i)
    dst[i] = uint8_t(src[i] >> 24);
}

/// `fn(begin, end)` on [0, n) in one thread, and split in two halves on two.
std::pair<double, double>
oneAndTwoThreads(const std::function<void(size_t, size_t)> &fn, size_t n) {
  return bestSecondsSideBySide([&] { fn(0, n); },
                               [&] {
                                 std::thread half([&] { fn(n / 2, n); });
                                 fn(0, n / 2);
                                 half.join();
                               },
                               25);
}

/// bf16 add on 2 threads against 1 and, as this machine's ceilings, the
/// same for a memcpy of the destination's bytes and for plainAdd on them;
/// alternately, best of 25 each: the row moves most with the other tenants.
void threads() {
  size_t n = size_t(1) << 24;
  std::vector<char> dst = randomBytes(n * 2, 6), src = randomBytes(n * 2, 7),
                    copyOut(n * 2);
  auto on = [&](int threads) {
    return [&, threads] {
      birsim_set_num_threads(threads);
      birsim_accumulate(1, dst.data(), src.data(), 12, n);
    };
  };
  auto [one, two] = bestSecondsSideBySide(on(1), on(2), 25);
  birsim_set_num_threads(1);
  auto [copyOne, copyTwo] = oneAndTwoThreads(
      [&](size_t begin, size_t end) {
        std::memcpy(copyOut.data() + 2 * begin, src.data() + 2 * begin,
                    2 * (end - begin));
      },
      n);
  std::vector<uint16_t> plainDst(n, 1), plainSrc(n, 2);
  auto [plainOne, plainTwo] = oneAndTwoThreads(
      [&](size_t begin, size_t end) {
        plainAdd(plainDst.data() + begin, plainSrc.data() + begin, end - begin);
      },
      n);
  std::printf("\nbf16 add 2^24: 1 thread %.3f ms, 2 threads %.3f ms: "
              "%.2fx   >= 1.6 %s\n",
              one * 1e3, two * 1e3, one / two,
              one / two >= 1.6 ? "ok" : "MISSED");
  std::printf("  ceilings on 2 threads: memcpy %.2fx; plain 16-bit a += b "
              "%.2fx (1 thread %.3f ms, 2 threads %.3f ms)\n",
              copyOne / copyTwo, plainOne / plainTwo, plainOne * 1e3,
              plainTwo * 1e3);
  // BFP8_b packing of 2^24 fp32 values against plainNarrow's speedup.
  std::vector<float> f32(n);
  std::normal_distribution<float> dist(0, 4);
  std::mt19937 rng(15);
  for (float &x : f32)
    x = dist(rng);
  std::vector<char> packed(n / 1024 * 1088);
  auto pack = [&](int threads) {
    return [&, threads] {
      birsim_set_num_threads(threads);
      birsim_bfp_pack(0, 16, f32.data(), n / 1024, 32, 32, 0, packed.data());
    };
  };
  auto [packOne, packTwo] = bestSecondsSideBySide(pack(1), pack(2), 25);
  birsim_set_num_threads(1);
  std::vector<uint8_t> narrowed(n);
  auto [narrowOne, narrowTwo] = oneAndTwoThreads(
      [&](size_t begin, size_t end) {
        plainNarrow(narrowed.data() + begin,
                    reinterpret_cast<const uint32_t *>(f32.data()) + begin,
                    end - begin);
      },
      n);
  double share = (packOne / packTwo) / (narrowOne / narrowTwo);
  std::printf("bfp pack bfp8_b 2^24: 1 thread %.3f ms, 2 threads %.3f ms: "
              "%.2fx; plain 4-to-1-byte stream %.2fx: %.2f of it   >= 0.9 %s\n",
              packOne * 1e3, packTwo * 1e3, packOne / packTwo,
              narrowOne / narrowTwo, share, share >= 0.9 ? "ok" : "MISSED");
}

/// Folding birsim.reduce add and arith.addf on the same two 2^20-element
/// bf16 constants (the folders alone: no parsing or printing).
void folding() {
  using namespace mlir;
  const int64_t n = 1 << 20;
  MLIRContext context;
  context.loadDialect<::birsim::BirsimDialect, arith::ArithDialect>();
  OpBuilder builder(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(builder.getUnknownLoc());
  builder.setInsertionPointToEnd(module->getBody());
  auto type = RankedTensorType::get({n}, builder.getBF16Type());
  // Finite values: arith's folder would otherwise stop at NaN handling.
  std::vector<float> values(2 * n);
  std::normal_distribution<float> dist(0, 1);
  std::mt19937 rng(8);
  for (float &x : values)
    x = dist(rng);
  auto constant = [&](const float *from) {
    std::vector<char> raw(n * 2);
    birsim_cast(16, from, 12, raw.data(), n, 1);
    return arith::ConstantOp::create(
        builder, builder.getUnknownLoc(),
        cast<TypedAttr>(DenseElementsAttr::getFromRawBuffer(type, raw)));
  };
  Value a = constant(values.data()), b = constant(values.data() + n);
  Operation *reduce = ::birsim::ReduceOp::create(
      builder, builder.getUnknownLoc(), type, ::birsim::MemoryReductionOp::add,
      a, b);
  Operation *addf = arith::AddFOp::create(builder, builder.getUnknownLoc(), a, b);
  auto fold = [](Operation *op) {
    SmallVector<OpFoldResult> results;
    if (failed(op->fold(results)))
      std::abort();
  };
  double birsim = bestSeconds([&] { fold(reduce); });
  double arith = bestSeconds([&] { fold(addf); });
  std::printf("\nfolding 2^20 bf16 add: birsim.reduce %.2f ms, arith.addf "
              "%.2f ms: %.1fx faster   >= 20 %s\n",
              birsim * 1e3, arith * 1e3, arith / birsim,
              arith / birsim >= 20 ? "ok" : "MISSED");
}

/// Fidelity counters (docs/Fidelity.md): each counted call with the
/// counters on against the same call with them off, 2^24 elements.
void fidelityCounters() {
  size_t n = size_t(1) << 24;
  std::printf("\n-- fidelity counters on / off, %zu elements --\n", n);
  std::vector<char> acc = randomBytes(n, 9), x = randomBytes(n, 10),
                    f32 = randomBytes(n * 4, 11), out(n * 4);
  std::vector<float> tiles(n);
  std::normal_distribution<float> dist(0, 4);
  std::mt19937 rng(12);
  for (float &v : tiles)
    v = dist(rng);
  const std::pair<const char *, std::function<void()>> calls[] = {
      {"accumulate add f8E4M3",
       [&] { birsim_accumulate(1, acc.data(), x.data(), 4, n); }},
      {"accumulate add bf16",
       [&] { birsim_accumulate(1, out.data(), f32.data(), 12, n); }},
      {"cast f32 -> f8E4M3",
       [&] { birsim_cast(16, f32.data(), 4, out.data(), n, 1); }},
      {"cast f32 -> bf16",
       [&] { birsim_cast(16, f32.data(), 12, out.data(), n, 1); }},
      {"bfp pack bfp8_b",
       [&] { birsim_bfp_pack_tiles(0, tiles.data(), n / 1024, out.data()); }},
      // The scalar cast engine (no vector kernel on any path).
      {"cast f32 -> i32",
       [&] { birsim_cast(16, f32.data(), 15, out.data(), n, 1); }},
      {"cast i32 -> f32",
       [&] { birsim_cast(15, f32.data(), 16, out.data(), n, 1); }},
  };
  std::printf("%-34s %13s %11s %9s   %s\n", "call", "on", "off", "ratio",
              "target");
  for (const auto &counted : calls) {
    const char *what = counted.first;
    const std::function<void()> &call = counted.second;
    if (!wanted(what))
      continue;
    auto [on, off] = bestSecondsSideBySide(
        [&] {
          birsim_fidelity_enable(1);
          call();
        },
        [&] {
          birsim_fidelity_enable(0);
          call();
        });
    birsim_fidelity_enable(0);
    row(what, on, off, 1.5);
  }
  birsim_fidelity_reset();
}

/// `n` Gaussian float32 values (sigma 4), seeded.
std::vector<float> normalF32(size_t n, unsigned seed) {
  std::vector<float> f32(n);
  std::normal_distribution<float> dist(0, 4);
  std::mt19937 rng(seed);
  for (float &x : f32)
    x = dist(rng);
  return f32;
}

/// `n` floats at a 64-byte boundary: an unpack's destination as an
/// allocator for large tensors gives it (PyTorch's CPU allocator aligns to
/// 64 bytes), so that whole lines can stream (a misaligned one takes
/// cached stores).
struct AlignedFloats {
  explicit AlignedFloats(size_t n)
      : p(static_cast<float *>(
            std::aligned_alloc(64, (n * 4 + 63) & ~size_t(63)))) {}
  ~AlignedFloats() { std::free(p); }
  AlignedFloats(const AlignedFloats &) = delete;
  AlignedFloats &operator=(const AlignedFloats &) = delete;
  float *data() const { return p; }

private:
  float *p;
};

/// Each value's top 16 bits: its bf16 truncation.
std::vector<uint16_t> topHalves(const std::vector<float> &f32) {
  std::vector<uint16_t> half(f32.size());
  for (size_t i = 0; i < f32.size(); ++i) {
    uint32_t bits;
    std::memcpy(&bits, &f32[i], 4);
    half[i] = uint16_t(bits >> 16);
  }
  return half;
}

/// tt-metal's host conversion (docs/Semantics.md section 5 [tt-metal]):
/// every format (MX too) and tile shape from float32 and bfloat16, the integer
/// inputs, and the one-pass tilize of a 4096 x 4096 matrix, each against a
/// memcpy of the float32-equivalent bytes (4 per value), 2^24 values.
void bfpConversion() {
  if (std::strcmp(birsim_active_isa(), "portable") == 0) {
    // 200-300x memcpy there: minutes of rows that say only that.
    std::printf("\n-- BFP conversion: vector paths only --\n");
    return;
  }
  size_t n = size_t(1) << 24;
  std::printf("\n-- BFP conversion, %zu values, memcpy of 4 bytes per value --\n",
              n);
  std::printf("%-34s %13s %11s %9s   %s\n", "call", "time", "memcpy", "ratio",
              "target");
  std::vector<float> f32 = normalF32(n, 13);
  std::vector<uint16_t> bf16 = topHalves(f32);
  std::vector<char> ints = randomBytes(n * 4, 14), copyOut(n * 4),
                    out(n * 2 + 4096);
  char *packed = out.data();
  auto copy = [&] { std::memcpy(copyOut.data(), f32.data(), n * 4); };
  const uint32_t shapes[][2] = {{32, 32}, {16, 32}, {32, 16}, {16, 16}};
  char what[64];
  Rounds rounds;
  for (int format = 0; birsim_bfp_format_name(format); ++format)
    for (auto [inputDtype, inputName] : {std::pair{16, "f32"}, {12, "bf16"}})
      for (const auto &shape : shapes) {
        int input = inputDtype;
        uint32_t rows = shape[0], cols = shape[1];
        const void *src = input == 16 ? (const void *)f32.data() : bf16.data();
        size_t tiles = n / (rows * cols);
        std::snprintf(what, sizeof what, "bfp pack %s %s %ux%u",
                      birsim_bfp_format_name(format), inputName, rows, cols);
        // The MX formats' bound is mxTiles'.
        rounds.add(
            what,
            [=] {
              birsim_bfp_pack(format, input, src, tiles, rows, cols, 0, packed);
            },
            copy, format >= BIRSIM_MXFP8_E5M2 ? 1.5 : 1.2);
      }
  for (auto [inputDtype, inputName] :
       {std::pair{1, "int8"}, {0, "uint8"}, {10, "uint16"}, {15, "int32"},
        {14, "uint32"}}) {
    int input = inputDtype;
    std::snprintf(what, sizeof what, "bfp pack bfp8_b %s 32x32", inputName);
    const char *src = ints.data();
    rounds.add(
        what,
        [=] { birsim_bfp_pack(0, input, src, n / 1024, 32, 32, 0, packed); },
        copy, 2.0);
  }
  for (auto [inputDtype, inputName] : {std::pair{16, "f32"}, {12, "bf16"}})
    for (const auto &shape : shapes) {
      int input = inputDtype;
      uint32_t rows = shape[0], cols = shape[1];
      const void *src = input == 16 ? (const void *)f32.data() : bf16.data();
      std::snprintf(what, sizeof what, "bfp pack_matrix %s 4096^2 %ux%u",
                    inputName, rows, cols);
      rounds.add(
          what,
          [=] {
            birsim_bfp_pack_matrix(0, input, src, 4096, 4096, rows, cols, 0,
                                   packed);
          },
          copy, 1.3);
    }
  // The inverse (bound as the pack's), into a 64-byte aligned matrix, from
  // its own packed bytes.
  AlignedFloats unpacked(n);
  std::vector<std::vector<char>> packedOf;
  for (int format : {0, 1, 4})
    for (const auto &shape : {shapes[0], shapes[3]}) {
      uint32_t rows = shape[0], cols = shape[1];
      std::snprintf(what, sizeof what, "bfp unpack_matrix %s 4096^2 %ux%u",
                    birsim_bfp_format_name(format), rows, cols);
      if (!wanted(what))
        continue;
      const char *from = packedOf.emplace_back(n * 2 + 4096).data();
      birsim_bfp_pack_matrix(format, 16, f32.data(), 4096, 4096, rows, cols, 0,
                             packedOf.back().data());
      float *to = unpacked.data();
      rounds.add(
          what,
          [=] {
            birsim_bfp_unpack_matrix(format, from, 4096, 4096, rows, cols, 0,
                                     to);
          },
          copy, 1.3);
    }
  rounds.run();
}

/// The Tensix packer's paths (docs/Semantics.md section 5, the device's
/// bytes), 32x32 tiles from the Dest's type, and the device diff, each
/// against a memcpy of the float32-equivalent bytes, 2^24 values.
void bfpDevicePaths() {
  if (std::strcmp(birsim_active_isa(), "portable") == 0)
    return; // the same scalar loops on every path
  size_t n = size_t(1) << 24;
  std::printf("\n-- BFP at the Tensix packer, %zu values, memcpy of 4 bytes "
              "per value --\n",
              n);
  std::printf("%-34s %13s %11s %9s   %s\n", "call", "time", "memcpy", "ratio",
              "target");
  std::vector<float> f32 = normalF32(n, 15);
  std::vector<uint16_t> half = topHalves(f32); // bf16 (and fp16) bits
  std::vector<char> copyOut(n * 4), out(n * 2 + 4096);
  std::vector<uint8_t> mask(n);
  auto copy = [&] { std::memcpy(copyOut.data(), f32.data(), n * 4); };
  char what[64], *packed = out.data();
  Rounds rounds;
  for (int where = 1; birsim_bfp_site_name(where); ++where)
    for (int format : {0, 1, 4}) {
      int dest = where <= 2 ? 16 : where <= 4 ? 12 : 13;
      const void *src = dest == 16 ? (const void *)f32.data() : half.data();
      if (birsim_bfp_pack_at(where, format, dest, src, 0, 32, 32, 0,
                             nullptr) != BIRSIM_OK)
        continue; // a format the path does not write
      std::snprintf(what, sizeof what, "bfp pack_at %s %s",
                    birsim_bfp_site_name(where), birsim_bfp_format_name(format));
      rounds.add(
          what,
          [=] {
            birsim_bfp_pack_at(where, format, dest, src, n / 1024, 32, 32, 0,
                               packed);
          },
          copy, 1.2);
    }
  // Each unpack from the bytes its site packs.
  std::vector<float> values(n);
  std::vector<std::vector<char>> packedOf;
  for (int where = 1; birsim_bfp_site_name(where); ++where)
    for (int format : {0, 1, 4}) {
      int dest = where <= 2 ? 16 : 12;
      if (birsim_bfp_pack_at(where, format, dest, f32.data(), 0, 32, 32, 0,
                             nullptr) != BIRSIM_OK)
        continue;
      std::snprintf(what, sizeof what, "bfp unpack_at %s %s",
                    birsim_bfp_site_name(where), birsim_bfp_format_name(format));
      if (!wanted(what))
        continue;
      const char *from = packedOf.emplace_back(n * 2 + 4096).data();
      birsim_bfp_pack_at(where, format, dest,
                         dest == 16 ? (const void *)f32.data() : half.data(),
                         n / 1024, 32, 32, 0, packedOf.back().data());
      float *to = values.data();
      rounds.add(
          what,
          [=] {
            birsim_bfp_unpack_at(where, format, from, n / 1024, 32, 32, 0, to);
          },
          copy, 1.2);
    }
  for (int where = 1; birsim_bfp_site_name(where); ++where) {
    int dest = where <= 2 ? 16 : where <= 4 ? 12 : 13;
    int format = where == 5 ? 0 : 1; // fp16 Dest: bfp8_b only
    const void *src = dest == 16 ? (const void *)f32.data() : half.data();
    std::snprintf(what, sizeof what, "bfp device_diff %s %s",
                  birsim_bfp_site_name(where), birsim_bfp_format_name(format));
    uint8_t *differs = mask.data();
    rounds.add(
        what,
        [=] {
          uint64_t count = 0;
          birsim_bfp_device_diff(where, format, dest, src, n / 1024, 32, 32, 0,
                                 differs, &count);
        },
        copy, 2.0);
  }
  rounds.run();
}

/// tt-metal PR #57298's exponent search against the plain pack of the same
/// values, 32x32 tiles, 2^24 values.
void bfpExponentSearch() {
  size_t n = size_t(1) << 24;
  std::printf("\n-- BFP exponent search, %zu values, the plain pack as the "
              "peer --\n",
              n);
  std::printf("%-34s %13s %11s %9s   %s\n", "call", "time", "plain", "ratio",
              "target");
  std::vector<float> f32 = normalF32(n, 57298);
  std::vector<char> out(n * 2);
  char what[64];
  Rounds rounds;
  for (int format : {0, 1}) {
    std::snprintf(what, sizeof what, "bfp pack exp_search %s",
                  birsim_bfp_format_name(format));
    auto pack = [&, format](unsigned flags) {
      birsim_bfp_pack(format, 16, f32.data(), n / 1024, 32, 32, flags,
                      out.data());
    };
    rounds.add(
        what, [=] { pack(BIRSIM_BFP_EXP_SEARCH); }, [=] { pack(0); }, 3.0);
  }
  rounds.run();
}

/// MX tiles (docs/Semantics.md section 5, MX tiles): pack from float32 and
/// bfloat16 and unpack, 32x32 tiles, 2^24 values, against a memcpy of the
/// float32 bytes.
void mxTiles() {
  size_t n = size_t(1) << 24, tiles = n / 1024;
  std::printf("\n-- MX tiles, %zu values, 32x32 tiles, memcpy of the fp32 "
              "bytes as the peer --\n",
              n);
  std::printf("%-34s %13s %11s %9s   %s\n", "call", "time", "memcpy",
              "ratio", "target");
  std::vector<float> f32 = normalF32(n, 51975);
  std::vector<uint16_t> bf16(n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t b;
    std::memcpy(&b, &f32[i], 4);
    bf16[i] = uint16_t(b >> 16);
  }
  std::vector<float> copyOut(n), unpacked(n);
  auto copy = [&] { std::memcpy(copyOut.data(), f32.data(), n * 4); };
  std::vector<std::vector<char>> packedOf;
  Rounds rounds;
  for (int format = BIRSIM_MXFP8_E5M2; birsim_bfp_format_name(format);
       ++format) {
    char *packed =
        packedOf.emplace_back(tiles * birsim_bfp_tile_bytes(format)).data();
    char what[64];
    for (bool bf : {false, true}) {
      std::snprintf(what, sizeof what, "mx pack %s %s",
                    birsim_bfp_format_name(format), bf ? "bf16" : "f32");
      const void *src =
          bf ? static_cast<const void *>(bf16.data()) : f32.data();
      rounds.add(
          what,
          [=] {
            birsim_bfp_pack(format, bf ? 12 : 16, src, tiles, 32, 32, 0,
                            packed);
          },
          copy, 1.5);
    }
    std::snprintf(what, sizeof what, "mx unpack %s",
                  birsim_bfp_format_name(format));
    if (!wanted(what))
      continue;
    birsim_bfp_pack(format, 16, f32.data(), tiles, 32, 32, 0, packed);
    float *to = unpacked.data();
    rounds.add(
        what, [=] { birsim_bfp_unpack(format, packed, tiles, 32, 32, 0, to); },
        copy, 1.5);
  }
  rounds.run();
}

/// Per-tile mixed BFP (docs/Semantics.md section 5): a 4096 x 4096 matrix
/// under a random assignment of the four codes, packed and unpacked, and
/// the assigner (pcc 0.999 over all four), against a memcpy of the fp32
/// bytes.
void mixedBfp() {
  size_t side = 4096, n = side * side, tiles = n / 1024;
  std::printf("\n-- mixed BFP, %zu x %zu f32, memcpy of the fp32 bytes as "
              "the peer --\n",
              side, side);
  std::printf("%-34s %13s %11s %9s   %s\n", "call", "time", "memcpy",
              "ratio", "target");
  std::vector<float> f32 = normalF32(n, 39116), copyOut(n);
  AlignedFloats unpacked(n);
  std::vector<uint8_t> codes((tiles + 3) / 4);
  std::mt19937 rng(39116);
  for (uint8_t &c : codes)
    c = uint8_t(rng());
  std::vector<char> packed(
      birsim_bfp_mixed_bytes(codes.data(), side, side));
  std::vector<char> packedOnce(packed.size());
  birsim_bfp_pack_mixed(16, f32.data(), side, side, 0, codes.data(),
                        packedOnce.data());
  std::vector<uint8_t> assigned(codes.size());
  auto copy = [&] { std::memcpy(copyOut.data(), f32.data(), n * 4); };
  Rounds rounds;
  rounds.add(
      "mixed pack",
      [&] {
        birsim_bfp_pack_mixed(16, f32.data(), side, side, 0, codes.data(),
                              packed.data());
      },
      copy, 1.3);
  rounds.add(
      "mixed unpack",
      [&] {
        birsim_bfp_unpack_mixed(packedOnce.data(), side, side, 0, codes.data(),
                                unpacked.data());
      },
      copy, 1.3);
  rounds.add(
      "mixed assign pcc",
      [&] {
        birsim_bfp_assign_mixed(BIRSIM_MIXED_PCC, 0.999, 0.01, 0xF, 16,
                                f32.data(), side, side, 0, assigned.data());
      },
      copy, 4.0);
  rounds.run();
}

} // namespace

/// The Tensix FPU's elementwise ops and the packer (docs/Semantics.md
/// section 7), 2^24 elements: each call against a memcpy of the bytes it
/// reads (an op: a and b, 8 per element; a pack: Dest's values, and with
/// L1 accumulation L1's too).
void tensix() {
  size_t n = size_t(1) << 24;
  std::printf("\n-- Tensix FPU and packer, %zu elements, memcpy of the input "
              "bytes --\n",
              n);
  std::printf("%-34s %13s %11s %9s   %s\n", "call", "time", "memcpy", "ratio",
              "target");
  std::vector<float> a = normalF32(n, 53), b = normalF32(n, 54);
  std::vector<char> copyOut(n * 8), dest(n * 4);
  auto copyInputs = [&] {
    std::memcpy(copyOut.data(), a.data(), n * 4);
    std::memcpy(copyOut.data() + n * 4, b.data(), n * 4);
  };
  std::vector<char> readSource(n * 8);
  auto copyRead = [&](size_t bytes) { // bytes <= 8
    return [&, bytes] {
      std::memcpy(copyOut.data(), readSource.data(), n * bytes);
    };
  };
  // Issue 53's target: mul at HiFi4 into a 16-bit Dest at 2x; the other
  // rows are for reference.
  const struct {
    const char *what;
    int op;
    unsigned phases;
    int destKind, src, accumulate;
    double target;
  } ops[] = {
      {"tensix mul hifi4 bf16 dest", BIRSIM_TENSIX_MUL, BIRSIM_TENSIX_HIFI4,
       BIRSIM_TENSIX_DEST_BF16, BIRSIM_TENSIX_SRC_BF16, 0, 2.0},
      {"tensix mul lofi bf16 dest", BIRSIM_TENSIX_MUL, BIRSIM_TENSIX_LOFI,
       BIRSIM_TENSIX_DEST_BF16, BIRSIM_TENSIX_SRC_BF16, 0, 2.0},
      {"tensix mul hifi4 fp16 dest", BIRSIM_TENSIX_MUL, BIRSIM_TENSIX_HIFI4,
       BIRSIM_TENSIX_DEST_FP16, BIRSIM_TENSIX_SRC_FP16, 0, 2.0},
      {"tensix mul hifi4 bf16 dest tf32", BIRSIM_TENSIX_MUL,
       BIRSIM_TENSIX_HIFI4, BIRSIM_TENSIX_DEST_BF16, BIRSIM_TENSIX_SRC_TF32, 0,
       2.0},
      {"tensix mul hifi4 fp32 dest", BIRSIM_TENSIX_MUL, BIRSIM_TENSIX_HIFI4,
       BIRSIM_TENSIX_DEST_FP32, BIRSIM_TENSIX_SRC_BF16, 0, 2.0},
      {"tensix mul hifi4 fp32 dest tf32", BIRSIM_TENSIX_MUL,
       BIRSIM_TENSIX_HIFI4, BIRSIM_TENSIX_DEST_FP32, BIRSIM_TENSIX_SRC_TF32, 0,
       0},
      {"tensix mul lofi bf16 dest acc", BIRSIM_TENSIX_MUL, BIRSIM_TENSIX_LOFI,
       BIRSIM_TENSIX_DEST_BF16, BIRSIM_TENSIX_SRC_BF16, 1, 0},
      {"tensix add bf16 dest", BIRSIM_TENSIX_ADD, BIRSIM_TENSIX_LOFI,
       BIRSIM_TENSIX_DEST_BF16, BIRSIM_TENSIX_SRC_BF16, 0, 0},
  };
  Rounds rounds;
  for (const auto &op : ops)
    rounds.add(
        op.what,
        [&, op] {
          birsim_tensix_eltwise(BIRSIM_TENSIX_WORMHOLE, op.op, op.phases,
                                op.destKind, op.src, a.data(), b.data(), n,
                                dest.data(), op.accumulate);
        },
        copyInputs, op.target);
  rounds.run();
  // The packer from Dest values the FPU wrote, each Dest kind its own; an
  // L1 row accumulates into its own packed values (finite: repeated adds
  // of the same values, no NaN lanes).
  std::vector<char> dests[3];
  const int srcOf[3] = {BIRSIM_TENSIX_SRC_TF32, BIRSIM_TENSIX_SRC_BF16,
                        BIRSIM_TENSIX_SRC_FP16};
  for (int kind = 0; kind < 3; ++kind) {
    dests[kind].resize(n * (kind ? 2 : 4));
    birsim_tensix_eltwise(BIRSIM_TENSIX_WORMHOLE, BIRSIM_TENSIX_MUL,
                          BIRSIM_TENSIX_HIFI4, kind, srcOf[kind], a.data(),
                          b.data(), n, dests[kind].data(), 0);
  }
  const struct {
    const char *what;
    int destKind, outDtype, l1;
    size_t bytes, outBytes;
  } packs[] = {
      {"tensix pack fp32 -> bf16", BIRSIM_TENSIX_DEST_FP32, 12, 0, 4, 2},
      {"tensix pack fp32 -> f16", BIRSIM_TENSIX_DEST_FP32, 13, 0, 4, 2},
      {"tensix pack fp32 -> fp32 l1acc", BIRSIM_TENSIX_DEST_FP32, 16, 1, 4, 4},
      {"tensix pack bf16 -> bf16", BIRSIM_TENSIX_DEST_BF16, 12, 0, 2, 2},
      {"tensix pack bf16 -> bf16 l1acc", BIRSIM_TENSIX_DEST_BF16, 12, 1, 2, 2},
      {"tensix pack fp16 -> fp16 l1acc", BIRSIM_TENSIX_DEST_FP16, 13, 1, 2, 2},
  };
  std::vector<std::vector<char>> outs;
  outs.reserve(std::size(packs));
  for (const auto &p : packs) {
    if (!wanted(p.what))
      continue;
    char *l1 = outs.emplace_back(n * p.outBytes).data();
    birsim_tensix_pack(BIRSIM_TENSIX_WORMHOLE, p.destKind,
                       dests[p.destKind].data(), n, p.outDtype, l1, 0);
    rounds.add(
        p.what,
        [&, p, l1] {
          birsim_tensix_pack(BIRSIM_TENSIX_WORMHOLE, p.destKind,
                             dests[p.destKind].data(), n, p.outDtype, l1,
                             p.l1);
        },
        copyRead(p.l1 ? p.bytes + p.outBytes : p.bytes), 2.0);
  }
  rounds.run();
}

/// The Tensix matmul (docs/Semantics.md section 7) at 256^3, bf16 Src into
/// an fp32 Dest, one thread, against the deliberately plain implementation
/// the tests hold it to (test/Unit/Core/PlainTensix.h): at most 1/20 of
/// its time. NumPy's matmul is bench/python-bench.py's peer.
void tensixMatmul() {
  const size_t side = 256;
  std::printf("\n-- Tensix matmul, %zu^3, bf16 Src, fp32 Dest, against the "
              "plain implementation --\n",
              side);
  std::printf("%-34s %13s %11s %9s   %s\n", "call", "time", "plain", "ratio",
              "target");
  std::vector<float> a = normalF32(side * side, 61), b = normalF32(side * side, 62);
  std::vector<uint32_t> ua(a.size()), ub(b.size()), out(side * side),
      plainOut(side * side);
  std::memcpy(ua.data(), a.data(), 4 * a.size());
  std::memcpy(ub.data(), b.data(), 4 * b.size());
  Rounds rounds;
  for (auto [what, phases] : {std::pair("tensix matmul hifi4 / plain", 0xFu),
                              std::pair("tensix matmul lofi / plain", 0x1u)})
    rounds.add(
        what,
        [&, phases = phases] {
          birsim_tensix_matmul(BIRSIM_TENSIX_WORMHOLE, phases,
                               BIRSIM_TENSIX_DEST_FP32, BIRSIM_TENSIX_SRC_BF16,
                               BIRSIM_TENSIX_SRC_BF16, a.data(), b.data(), side,
                               side, side, out.data(), 0);
        },
        [&, phases = phases] {
          birsim::test::plaintensix::matmul(0, phases, 0, 1, 1, ua.data(),
                                            ub.data(), side, side, side,
                                            plainOut.data(), false);
        },
        0.05);
  rounds.run();
}

int main() {
  birsim_set_num_threads(1);
  const char *isa = std::getenv("BIRSIM_ISA");
  std::printf("path: %s (BIRSIM_ISA)\n", isa && *isa ? isa : "best");
  ratios(size_t(1) << 24);
  ratios(size_t(1) << 16);
  bfpConversion();
  bfpDevicePaths();
  tensix();
  if (wanted("tensix matmul"))
    tensixMatmul();
  bfpExponentSearch();
  mxTiles();
  mixedBfp();
  if (wanted("threads"))
    threads();
  if (wanted("folding"))
    folding();
  fidelityCounters();
  return 0;
}
