//===- GuardTest.cpp - every runtime output between guard bytes -----------===//
//
// Issue 64: an AVX-512 loop wrote past its output when a NaN sat in the
// last vector's span, and no test put one there. Here every entry point of
// RuntimeFunctions.def that writes a buffer (a row without a case fails
// AllOutputsGuarded.EveryWritingEntryPointHasACase), on every vector path
// this CPU has, is held to the portable path: counts 1..300 and a few large
// ones (a strided subset for the costly cases), NaN, Inf, a denormal and
// zero at the first, middle and last element of every input (destinations
// the call reads included), 64 guard bytes either side of every output,
// and every input left unchanged; the status and the message too.
// BIRSIM_LONG_TESTS=1 (./utils/test.sh --long) runs every count of every
// case.
//
// The binary compiles lib/Runtime/Runtime.cpp in (test/Unit/CMakeLists.txt)
// so that the path selected here is the runtime's.
//
//===----------------------------------------------------------------------===//
#include "birsim/Runtime/Runtime.h"

#include "../Core/Paths.h"
#include "gtest/gtest.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace birsim;

namespace {

using Bytes = std::vector<uint8_t>;
constexpr size_t kGuard = 64;
constexpr uint8_t kGuardByte = 0xA5;

bool longMode() {
  const char *v = std::getenv("BIRSIM_LONG_TESTS");
  return v && *v && std::strcmp(v, "0") != 0;
}

//===-- Buffers and the values the harness writes -------------------------===//

/// How the harness fills a buffer, and its special values.
enum class Fill {
  dtype,     ///< elements of `dtype` (its floats' NaN, Inf, denormal, zero)
  raw,       ///< bytes (packed tiles, codes): 0xFF, 0x80, 0x01, 0x00
  index,     ///< int64 indices below `bound`; -1 and `bound` out of range
  tileCodes, ///< one mixed BFP code a byte below `bound`; `bound` invalid
};

struct Buffer {
  size_t elements;
  unsigned width; ///< bytes an element
  Fill fill = Fill::raw;
  int dtype = -1;
  uint64_t bound = 0;
  size_t bytes() const { return elements * width; }
};

Buffer ofDtype(int dtype, size_t n) {
  return {n, unsigned(birsim_dtype_size(dtype)), Fill::dtype, dtype};
}
Buffer f32(size_t n) { return ofDtype(16, n); }
Buffer raw(size_t bytes) { return {bytes, 1}; }
Buffer indices(size_t n, uint64_t bound) { return {n, 8, Fill::index, -1, bound}; }

using In = const std::vector<const uint8_t *> &;
using Out = const std::vector<uint8_t *> &;

/// One call: what it reads, what it writes (an output's initial bytes are
/// filled as an input's: an accumulation reads them), and the call.
struct Call {
  std::vector<Buffer> in, out;
  std::function<int(In, Out)> run;
};

enum class Special { none, nan, inf, denormal, zero };
const char *specialName(Special s) {
  const char *names[] = {"none", "NaN", "Inf", "denormal", "zero"};
  return names[int(s)];
}

/// The special value `s` of a buffer's elements.
uint64_t specialBits(const Buffer &b, Special s) {
  switch (b.fill) {
  case Fill::raw:
  case Fill::tileCodes: {
    uint64_t codes[] = {0, 0xFF, 0x80, 0x01, 0x00};
    if (b.fill == Fill::tileCodes)
      return s == Special::nan ? b.bound : s == Special::inf ? 0xFF
                                                             : codes[int(s)] & 3;
    return codes[int(s)];
  }
  case Fill::index: {
    uint64_t last = b.bound ? b.bound - 1 : 0;
    uint64_t values[] = {0, uint64_t(-1), b.bound, last, 0};
    return values[int(s)];
  }
  case Fill::dtype:
    break;
  }
  struct birsim_dtype_info info;
  birsim_dtype_info(b.dtype, &info, sizeof info);
  std::string kind = info.kind;
  unsigned bits = 8 * info.bytes;
  if (kind == "float" || kind == "float32" || kind == "float32r") {
    uint64_t exponent = ((uint64_t(1) << info.exponent_bits) - 1)
                        << info.mantissa_bits;
    uint64_t mantissa = (uint64_t(1) << info.mantissa_bits) - 1;
    uint64_t values[] = {0, exponent | mantissa, exponent, 1, 0};
    return values[int(s)];
  }
  uint64_t top = uint64_t(1) << (bits - 1);
  uint64_t values[] = {0, top - 1, top, 1, 0}; // integers: max, min
  return values[int(s)];
}

/// Seeded contents: float32 values of moderate exponents (the arithmetic
/// runs), other elements' random bits (every code), indices in range.
void fillBuffer(const Buffer &b, uint8_t *p, std::mt19937_64 &rng) {
  for (size_t i = 0; i < b.elements; ++i) {
    uint64_t v = rng();
    if (b.fill == Fill::index || b.fill == Fill::tileCodes)
      v = b.bound ? v % b.bound : 0;
    else if (b.fill == Fill::dtype && b.dtype == 16 && (v & 7) != 0)
      v = (v & 0x807FFFFFu) | uint32_t(100 + (v >> 40) % 56) << 23;
    std::memcpy(p + i * b.width, &v, b.width);
  }
}

void putSpecial(const Buffer &b, uint8_t *p, Special s, int position) {
  if (s == Special::none || b.elements == 0)
    return;
  size_t at = position == 0   ? 0
              : position == 1 ? b.elements / 2
                              : b.elements - 1;
  uint64_t v = specialBits(b, s);
  std::memcpy(p + at * b.width, &v, b.width);
}

//===-- The cases ----------------------------------------------------------===//

struct GuardCase {
  std::string function; ///< the RuntimeFunctions.def row
  std::string variant;
  std::function<Call(size_t)> make;
  const std::vector<size_t> *counts;
  bool fewSpecials = false; ///< costly calls: a special at one place each
};

/// 1..dense, then every `stride`-th count to `last`, then `large`.
std::vector<size_t> countsUpTo(size_t last, size_t stride,
                               std::vector<size_t> large, size_t dense = 64) {
  std::vector<size_t> counts;
  for (size_t n = 1; n <= last; n += n < dense ? 1 : stride)
    counts.push_back(n);
  counts.insert(counts.end(), large.begin(), large.end());
  return counts;
}
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BIRSIM_GUARD_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define BIRSIM_GUARD_SANITIZED 1
#endif
#endif
#ifdef BIRSIM_GUARD_SANITIZED // several times slower: every 3rd count
constexpr size_t kEveryStride = 3;
#else
constexpr size_t kEveryStride = 1;
#endif
// Every count to 300 (1..64, then every third under a sanitizer), and past
// a vector loop's chunk, a 4 KiB page and the threads' split
// (kMinElementsPerThread = 2^18 a thread).
const std::vector<size_t> kEveryCount =
    countsUpTo(300, longMode() ? 1 : kEveryStride,
               {4096 + 13, 65536 + 31, (size_t(1) << 19) + 37});
const std::vector<size_t> kStridedCounts =
    longMode() ? kEveryCount : countsUpTo(300, 13, {4096 + 13}, 40);
const std::vector<size_t> kSmallCounts =
    longMode() ? countsUpTo(300, 1, {}) : countsUpTo(24, 1, {});
const std::vector<size_t> kTileCounts =
    longMode() ? countsUpTo(64, 1, {}) : std::vector<size_t>{1, 2, 3, 7};
const std::vector<size_t> kOne = {1};
const std::vector<size_t> kBfpCounts =
    longMode() ? countsUpTo(300, 1, {})
               : std::vector<size_t>{1,  2,  3,  4,  5,  6,  7,  8,
                                     9,  15, 16, 17, 31, 33, 64, 257};
const std::vector<size_t> kMatmulShapes = {1, 2, 3, 4, 5, 6, 7, 8};

int dtypeCount() { return birsim_dtype_count(); }
std::string dtypeName(int d) { return birsim_dtype_name(d); }
bool isDmaDtype(int d) { return birsim_nki_dtype_name(d) != nullptr; }

/// Every case, by entry point.
std::vector<GuardCase> guardCases() {
  std::vector<GuardCase> cases;
  auto add = [&](std::string function, std::string variant,
                 std::function<Call(size_t)> make,
                 const std::vector<size_t> &counts, bool fewSpecials = false) {
    cases.push_back({std::move(function), std::move(variant), std::move(make),
                     &counts, fewSpecials});
  };
  const int dtypes = dtypeCount();
  const char *opNames[] = {"copy", "add", "min", "max"};

  //===-- Elementwise and casts (§2, §3, §8) ------------------------------===//
  for (int d = 0; d < dtypes; ++d)
    for (int op = 0; op < 4; ++op) {
      std::string v = std::string(opNames[op]) + " " + dtypeName(d);
      add("birsim_cast_copy_or_accumulate", v, [=](size_t) {
        return Call{{ofDtype(d, 1)}, {ofDtype(d, 1)}, [=](In in, Out out) {
                      return birsim_cast_copy_or_accumulate(op, out[0], in[0], d);
                    }};
      }, kOne);
      add("birsim_accumulate", v, [=](size_t n) {
        return Call{{ofDtype(d, n)}, {ofDtype(d, n)}, [=](In in, Out out) {
                      return birsim_accumulate(op, out[0], in[0], d, n);
                    }};
      }, op == 1 ? kEveryCount : kStridedCounts);
      if (op == 0)
        continue;
      // out apart from both, out = dst, out = src.
      for (int alias = 0; alias < 3; ++alias)
        add("birsim_accumulate_into", v + " alias " + std::to_string(alias),
            [=](size_t n) {
              return Call{alias == 0 ? std::vector<Buffer>{ofDtype(d, n),
                                                           ofDtype(d, n)}
                                     : std::vector<Buffer>{ofDtype(d, n)},
                          {ofDtype(d, n)}, [=](In in, Out out) {
                            const void *dst = alias == 1 ? out[0] : in[0];
                            const void *src = alias == 2   ? out[0]
                                              : alias == 1 ? in[0]
                                                           : in[1];
                            return birsim_accumulate_into(op, out[0], dst, src,
                                                          d, n);
                          }};
            },
            kStridedCounts);
    }
  for (int d : {16, 12, 13, 4, 15})
    for (int op : {0, 1, 3})
      add("birsim_scatter_accumulate",
          std::string(opNames[op]) + " " + dtypeName(d), [=](size_t n) {
            size_t dstCount = n / 2 + 1;
            return Call{{ofDtype(d, n), indices(n, dstCount)},
                        {ofDtype(d, dstCount)}, [=](In in, Out out) {
                          return birsim_scatter_accumulate(
                              op, out[0], dstCount, in[0],
                              reinterpret_cast<const int64_t *>(in[1]), n, d);
                        }};
          },
          kStridedCounts);
  for (int alu : {0, 4, 8, 9, 30, 99})
    add("birsim_collective_reduce", "alu " + std::to_string(alu),
        [=](size_t n) {
          return Call{{f32(n)}, {f32(n)}, [=](In in, Out out) {
                        return birsim_collective_reduce(
                            alu, reinterpret_cast<float *>(out[0]),
                            reinterpret_cast<const float *>(in[0]), n);
                      }};
        },
        alu == 4 ? kEveryCount : kStridedCounts);
  // Casts: every pair at the small counts, float32 to and from the narrow
  // floats at every count, under each FP8 config.
  for (int from = 0; from < dtypes; ++from)
    for (int to = 0; to < dtypes; ++to) {
      bool wide = (from == 16) != (to == 16) &&
                  (from == 12 || from == 13 || from == 4 || from == 7 ||
                   to == 12 || to == 13 || to == 4 || to == 7 || to == 5);
      for (unsigned config : {0u, 1u, 0xFF00u, 0xFF01u}) {
        if (config && !wide)
          continue;
        add("birsim_cast",
            dtypeName(from) + " to " + dtypeName(to) + " config " +
                std::to_string(config),
            [=](size_t n) {
              return Call{{ofDtype(from, n)}, {ofDtype(to, n)},
                          [=](In in, Out out) {
                            return birsim_cast(from, in[0], to, out[0], n,
                                               config);
                          }};
            },
            wide ? kEveryCount : kSmallCounts);
      }
    }
  // The DMA's arithmetic across dtypes: each DMA dtype as the destination
  // and as a source, one to three sources, both roundings, the FP8
  // configs, dst aliasing the first source.
  std::vector<int> dma;
  for (int d = 0; d < dtypes; ++d)
    if (isDmaDtype(d))
      dma.push_back(d);
  for (int to : dma)
    for (int from : {16, to})
      for (int op : {1, 2, 3})
        for (int rounding : {0, 1}) {
          if (op != 1 && rounding)
            continue;
          unsigned config = op == 1 && rounding ? 1u : op == 3 ? 0xFF00u : 0u;
          std::string v = std::string(opNames[op]) + " " + dtypeName(from) +
                          " into " + dtypeName(to) +
                          (rounding ? " stochastic" : "") + " config " +
                          std::to_string(config);
          for (size_t sources = 1; sources <= 3; ++sources)
            for (bool alias : {false, true}) {
              if ((alias && (sources == 1 || from != to)) ||
                  (op != 1 && sources != 2))
                continue;
              add("birsim_dma_compute",
                  v + " sources " + std::to_string(sources) +
                      (alias ? " dst = srcs[0]" : ""),
                  [=](size_t n) {
                    std::vector<Buffer> ins;
                    for (size_t k = alias ? 1 : 0; k < sources; ++k)
                      ins.push_back(ofDtype(k == 0 ? to : from, n));
                    return Call{ins, {ofDtype(to, n)}, [=](In in, Out out) {
                                  std::vector<const void *> srcs;
                                  std::vector<int> types;
                                  for (size_t k = 0; k < sources; ++k) {
                                    srcs.push_back(alias && k == 0
                                                       ? out[0]
                                                       : in[k - (alias ? 1 : 0)]);
                                    types.push_back(k == 0 ? to : from);
                                  }
                                  return birsim_dma_compute(
                                      op, srcs.data(), types.data(), sources,
                                      out[0], to, n, config, rounding, 7);
                                }};
                  },
                  kStridedCounts);
            }
          add("birsim_accumulate_mixed", v, [=](size_t n) {
            return Call{{ofDtype(from, n)}, {ofDtype(to, n)},
                        [=](In in, Out out) {
                          return birsim_accumulate_mixed(op, out[0], to, in[0],
                                                         from, n, config,
                                                         rounding, 11);
                        }};
          }, kStridedCounts);
          add("birsim_scatter_accumulate_mixed", v, [=](size_t n) {
            size_t dstCount = n / 3 + 1;
            return Call{{ofDtype(from, n), indices(n, dstCount)},
                        {ofDtype(to, dstCount)}, [=](In in, Out out) {
                          return birsim_scatter_accumulate_mixed(
                              op, out[0], dstCount, to, in[0], from,
                              reinterpret_cast<const int64_t *>(in[1]), n,
                              config, rounding, 13);
                        }};
          }, kStridedCounts);
        }
  // tt-metal's FP8 policies, and one past them.
  for (int policy = 0; policy <= 3; ++policy) {
    add("birsim_tt_fp8_encode", "policy " + std::to_string(policy),
        [=](size_t n) {
          return Call{{f32(n)}, {raw(n)}, [=](In in, Out out) {
                        return birsim_tt_fp8_encode(
                            policy, reinterpret_cast<const float *>(in[0]), n,
                            out[0]);
                      }};
        },
        kEveryCount);
    add("birsim_tt_fp8_decode", "policy " + std::to_string(policy),
        [=](size_t n) {
          return Call{{raw(n)}, {f32(n)}, [=](In in, Out out) {
                        return birsim_tt_fp8_decode(
                            policy, in[0], n, reinterpret_cast<float *>(out[0]));
                      }};
        },
        kEveryCount);
  }

  //===-- Block floating point (§5) ---------------------------------------===//
  const int formats = [] {
    int n = 0;
    while (birsim_bfp_format_name(n))
      ++n;
    return n;
  }();
  auto isMx = [](int f) {
    return std::string(birsim_bfp_exponent_kind(f)) == "e8m0";
  };
  // Tiles of one row: 16 values (32 for MX), so that many tiles are cheap.
  auto rowTile = [&](int f) { return isMx(f) ? 32u : 16u; };
  auto stride = [](int f, unsigned rows, unsigned cols, unsigned flags) {
    unsigned align = flags & BIRSIM_BFP_PAGE32   ? 32
                     : flags & BIRSIM_BFP_PAGE64 ? 64
                                                 : 0;
    size_t bytes = birsim_bfp_page_bytes(f, rows, cols, align);
    return bytes ? bytes : 64; // a rejected call: any destination
  };
  const unsigned flagSets[] = {0,
                               BIRSIM_BFP_FACES,
                               BIRSIM_BFP_TRANSPOSE,
                               BIRSIM_BFP_EXP_SEARCH,
                               BIRSIM_BFP_PAGE32,
                               BIRSIM_BFP_PAGE64 | BIRSIM_BFP_FACES,
                               BIRSIM_BFP_PAGE32 | BIRSIM_BFP_PAGE64};
  for (int f = 0; f <= formats; ++f) { // one past the table too
    std::string name = f < formats ? birsim_bfp_format_name(f) : "unknown";
    add("birsim_bfp_pack_tiles", name, [=](size_t n) {
      size_t bytes = birsim_bfp_tile_bytes(f) ? birsim_bfp_tile_bytes(f) : 64;
      return Call{{f32(n * 1024)}, {raw(n * bytes)}, [=](In in, Out out) {
                    return birsim_bfp_pack_tiles(
                        f, reinterpret_cast<const float *>(in[0]), n, out[0]);
                  }};
    }, kTileCounts);
    add("birsim_bfp_unpack_tiles", name, [=](size_t n) {
      size_t bytes = birsim_bfp_tile_bytes(f) ? birsim_bfp_tile_bytes(f) : 64;
      return Call{{raw(n * bytes)}, {f32(n * 1024)}, [=](In in, Out out) {
                    return birsim_bfp_unpack_tiles(
                        f, in[0], n, reinterpret_cast<float *>(out[0]));
                  }};
    }, kTileCounts);
    if (f == formats)
      continue;
    unsigned cols = rowTile(f);
    for (unsigned flags : flagSets)
      for (int src : {16, 12, 15, 0}) {
        if (src != 16 && flags != 0)
          continue;
        std::string v = name + " from " + dtypeName(src) + " flags " +
                        std::to_string(flags);
        add("birsim_bfp_pack", v, [=](size_t n) {
          return Call{{ofDtype(src, n * cols)},
                      {raw(n * stride(f, 1, cols, flags))},
                      [=](In in, Out out) {
                        return birsim_bfp_pack(f, src, in[0], n, 1, cols,
                                               flags, out[0]);
                      }};
        }, kBfpCounts);
        if (src == 16)
          add("birsim_bfp_unpack", v, [=](size_t n) {
            return Call{{raw(n * stride(f, 1, cols, flags))}, {f32(n * cols)},
                        [=](In in, Out out) {
                          return birsim_bfp_unpack(
                              f, in[0], n, 1, cols, flags,
                              reinterpret_cast<float *>(out[0]));
                        }};
          }, kBfpCounts);
        // Matrices of n rows of one-row tiles, or (transposed) of n 16x16
        // tiles side by side.
        unsigned tileRows = flags & BIRSIM_BFP_TRANSPOSE ? 16 : 1;
        unsigned tileCols = flags & BIRSIM_BFP_TRANSPOSE ? 16 : cols;
        auto shape = [=](size_t n) {
          return flags & BIRSIM_BFP_TRANSPOSE
                     ? std::pair<size_t, size_t>(16, 16 * n)
                     : std::pair<size_t, size_t>(n, 2 * cols);
        };
        add("birsim_bfp_pack_matrix", v, [=](size_t n) {
          auto [rows, columns] = shape(n);
          size_t tiles = rows / tileRows * (columns / tileCols);
          return Call{{ofDtype(src, rows * columns)},
                      {raw(tiles * stride(f, tileRows, tileCols, flags))},
                      [=](In in, Out out) {
                        return birsim_bfp_pack_matrix(f, src, in[0], rows,
                                                      columns, tileRows,
                                                      tileCols, flags, out[0]);
                      }};
        }, kBfpCounts);
        if (src == 16)
          add("birsim_bfp_unpack_matrix", v, [=](size_t n) {
            auto [rows, columns] = shape(n);
            size_t tiles = rows / tileRows * (columns / tileCols);
            return Call{{raw(tiles * stride(f, tileRows, tileCols, flags))},
                        {f32(rows * columns)}, [=](In in, Out out) {
                          return birsim_bfp_unpack_matrix(
                              f, in[0], rows, columns, tileRows, tileCols,
                              flags, reinterpret_cast<float *>(out[0]));
                        }};
          }, kBfpCounts);
      }
  }
  // Where the conversion runs: every site, with its Dest's element type
  // (and float32), every "b" format and one "a" and one MX format.
  for (int where = 0; birsim_bfp_site_name(where); ++where)
    for (int f : {BIRSIM_BFP8_B, BIRSIM_BFP4_B, BIRSIM_BFP2_B, BIRSIM_BFP8_A,
                  BIRSIM_MXFP8_E4M3})
      for (int src : {16, 12, 13})
        for (unsigned flags : {0u, BIRSIM_BFP_FACES | BIRSIM_BFP_PAGE64}) {
          int siteDest = where == 3 || where == 4 ? 12 : where == 5 ? 13 : 16;
          if (src != 16 && src != siteDest)
            continue; // float32, and a 16-bit Dest's own type
          unsigned cols = rowTile(f);
          std::string v = std::string(birsim_bfp_site_name(where)) + " " +
                          birsim_bfp_format_name(f) + " from " +
                          dtypeName(src) + " flags " + std::to_string(flags);
          add("birsim_bfp_pack_at", v, [=](size_t n) {
            return Call{{ofDtype(src, n * cols)},
                        {raw(n * stride(f, 1, cols, flags))},
                        [=](In in, Out out) {
                          return birsim_bfp_pack_at(where, f, src, in[0], n, 1,
                                                    cols, flags, out[0]);
                        }};
          }, kBfpCounts);
          add("birsim_bfp_device_diff", v, [=](size_t n) {
            return Call{{ofDtype(src, n * cols)}, {raw(n * cols), raw(8)},
                        [=](In in, Out out) {
                          return birsim_bfp_device_diff(
                              where, f, src, in[0], n, 1, cols, flags, out[0],
                              reinterpret_cast<uint64_t *>(out[1]));
                        }};
          }, kBfpCounts);
          unsigned matrixFlags = flags & ~BIRSIM_BFP_FACES;
          add("birsim_bfp_pack_matrix_at", v, [=](size_t n) {
            return Call{{ofDtype(src, n * 2 * cols)},
                        {raw(2 * n * stride(f, 1, cols, matrixFlags))},
                        [=](In in, Out out) {
                          return birsim_bfp_pack_matrix_at(
                              where, f, src, in[0], n, 2 * cols, 1, cols,
                              matrixFlags, out[0]);
                        }};
          }, kBfpCounts);
          if (src != 16)
            continue;
          add("birsim_bfp_unpack_at", v, [=](size_t n) {
            return Call{{raw(n * stride(f, 1, cols, flags))}, {f32(n * cols)},
                        [=](In in, Out out) {
                          return birsim_bfp_unpack_at(
                              where, f, in[0], n, 1, cols, flags,
                              reinterpret_cast<float *>(out[0]));
                        }};
          }, kBfpCounts);
          add("birsim_bfp_unpack_matrix_at", v, [=](size_t n) {
            return Call{{raw(2 * n * stride(f, 1, cols, matrixFlags))},
                        {f32(n * 2 * cols)}, [=](In in, Out out) {
                          return birsim_bfp_unpack_matrix_at(
                              where, f, in[0], n, 2 * cols, 1, cols,
                              matrixFlags, reinterpret_cast<float *>(out[0]));
                        }};
          }, kBfpCounts);
        }
  // Per-tile mixed BFP: n 32x32 tiles side by side, codes cycling through
  // every code from n (the codes decide the packed size, so they are the
  // case's, not the harness's).
  auto mixedCodes = [](size_t tiles) {
    std::vector<uint8_t> one(tiles), codes(birsim_bfp_mixed_code_bytes(tiles));
    for (size_t t = 0; t < tiles; ++t)
      one[t] = uint8_t((t * 7 + tiles) % 4);
    birsim_bfp_mixed_pack_codes(one.data(), tiles, codes.data());
    return codes;
  };
  add("birsim_bfp_mixed_pack_codes", "", [=](size_t n) {
    return Call{{Buffer{n, 1, Fill::tileCodes, -1, 4}},
                {raw(birsim_bfp_mixed_code_bytes(n))}, [=](In in, Out out) {
                  return birsim_bfp_mixed_pack_codes(in[0], n, out[0]);
                }};
  }, kEveryCount);
  add("birsim_bfp_mixed_unpack_codes", "", [=](size_t n) {
    return Call{{raw(birsim_bfp_mixed_code_bytes(n))}, {raw(n)},
                [=](In in, Out out) {
                  return birsim_bfp_mixed_unpack_codes(in[0], n, out[0]);
                }};
  }, kEveryCount);
  for (int src : {16, 12})
    for (unsigned flags : {0u, BIRSIM_BFP_TRANSPOSE, BIRSIM_BFP_FACES}) {
      std::string v = dtypeName(src) + " flags " + std::to_string(flags);
      auto bytesOf = [=](size_t n) {
        std::vector<uint8_t> codes = mixedCodes(n);
        return birsim_bfp_mixed_bytes(codes.data(), 32, 32 * n);
      };
      for (bool checked : {false, true}) {
        add(checked ? "birsim_bfp_pack_mixed_checked" : "birsim_bfp_pack_mixed",
            v, [=](size_t n) {
              size_t bytes = bytesOf(n);
              return Call{{ofDtype(src, 32 * 32 * n)}, {raw(bytes)},
                          [=](In in, Out out) {
                            std::vector<uint8_t> codes = mixedCodes(n);
                            return checked
                                       ? birsim_bfp_pack_mixed_checked(
                                             src, in[0], 32, 32 * n, flags,
                                             codes.data(), out[0], bytes)
                                       : birsim_bfp_pack_mixed(
                                             src, in[0], 32, 32 * n, flags,
                                             codes.data(), out[0]);
                          }};
            },
            kTileCounts);
        if (src == 16)
          add(checked ? "birsim_bfp_unpack_mixed_checked"
                      : "birsim_bfp_unpack_mixed",
              v, [=](size_t n) {
                size_t bytes = bytesOf(n);
                return Call{{raw(bytes)}, {f32(32 * 32 * n)},
                            [=](In in, Out out) {
                              std::vector<uint8_t> codes = mixedCodes(n);
                              auto *o = reinterpret_cast<float *>(out[0]);
                              return checked
                                         ? birsim_bfp_unpack_mixed_checked(
                                               in[0], bytes, 32, 32 * n, flags,
                                               codes.data(), o)
                                         : birsim_bfp_unpack_mixed(
                                               in[0], 32, 32 * n, flags,
                                               codes.data(), o);
                            }};
              },
              kTileCounts);
      }
      for (int metric = 0; metric <= 3; ++metric)
        add("birsim_bfp_assign_mixed", v + " metric " + std::to_string(metric),
            [=](size_t n) {
              return Call{{ofDtype(src, 32 * 32 * n)},
                          {raw(birsim_bfp_mixed_code_bytes(n))},
                          [=](In in, Out out) {
                            return birsim_bfp_assign_mixed(
                                metric, metric == 2 ? 0.99 : 0.05, 0.01, 0xF,
                                src, in[0], 32, 32 * n, flags, out[0]);
                          }};
            },
            kTileCounts);
    }

  //===-- The Tensix FPU and packer (§7) ----------------------------------===//
  struct DestSrc {
    int dest, src;
  } destSrcs[] = {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {2, 2}, {2, 0}};
  for (int arch : {0, 1})
    for (DestSrc ds : destSrcs)
      for (int op : {0, 1, 2})
        for (unsigned phases : {0x1u, 0x5u, 0xFu})
          for (int accumulate : {0, 1, 2}) {
            // Blackhole and the non-boolean accumulate at HiFi4 only.
            if ((op != 0 && phases != 0x1) ||
                ((arch == 1 || accumulate == 2) && op == 0 && phases != 0xF))
              continue;
            int destDtype = birsim_tensix_dest_dtype(ds.dest);
            std::string v = std::string(birsim_tensix_name(0, arch)) + " " +
                            birsim_tensix_name(1, op) + " " +
                            birsim_tensix_name(2, ds.dest) + " " +
                            birsim_tensix_name(3, ds.src) + " phases " +
                            std::to_string(phases) + " accumulate " +
                            std::to_string(accumulate);
            add("birsim_tensix_eltwise", v, [=](size_t n) {
              return Call{{f32(n), f32(n)}, {ofDtype(destDtype, n)},
                          [=](In in, Out out) {
                            return birsim_tensix_eltwise(
                                arch, op, phases, ds.dest, ds.src,
                                reinterpret_cast<const float *>(in[0]),
                                reinterpret_cast<const float *>(in[1]), n,
                                out[0], accumulate);
                          }};
            }, arch == 0 && op == 0 && phases == 0xF && accumulate < 2
                   ? kEveryCount
                   : kStridedCounts);
            if (op != 0 || accumulate == 2)
              continue;
            // matmul shapes by count: m, k, n multiples of 32, zeros too.
            add("birsim_tensix_matmul", v + " in1 " +
                    birsim_tensix_name(3, ds.src), [=](size_t c) {
              static const size_t shapes[][3] = {
                  {32, 32, 32}, {64, 32, 32}, {32, 64, 32}, {32, 32, 96},
                  {0, 32, 32},  {32, 0, 32},  {32, 32, 0},  {32, 48, 32}};
              const size_t *s = shapes[(c - 1) % 8];
              size_t m = s[0], k = s[1], nn = s[2];
              return Call{{f32(m * k), f32(k * nn)}, {ofDtype(destDtype, m * nn)},
                          [=](In in, Out out) {
                            return birsim_tensix_matmul(
                                arch, phases, ds.dest, ds.src, ds.src,
                                reinterpret_cast<const float *>(in[0]),
                                reinterpret_cast<const float *>(in[1]), m, k,
                                nn, out[0], accumulate);
                          }};
            }, kMatmulShapes, true);
          }
  // The packer: every Dest kind to every dtype it packs to (and one it
  // does not), both architectures, with and without L1 accumulation, and
  // an l1_accumulate that is no C boolean.
  for (int arch : {0, 1})
    for (int dest = 0; dest < 3; ++dest)
      for (int to : {16, 12, 13, 4})
        for (int l1 : {0, 1, 7}) {
          int destDtype = birsim_tensix_dest_dtype(dest);
          add("birsim_tensix_pack",
              std::string(birsim_tensix_name(0, arch)) + " " +
                  birsim_tensix_name(2, dest) + " to " + dtypeName(to) +
                  " l1 " + std::to_string(l1),
              [=](size_t n) {
                return Call{{ofDtype(destDtype, n)}, {ofDtype(to, n)},
                            [=](In in, Out out) {
                              return birsim_tensix_pack(arch, dest, in[0], n,
                                                        to, out[0], l1);
                            }};
              },
              l1 == 7 || to == 4 ? kSmallCounts : kEveryCount);
        }
  // The SFPU: every named op and a program (x * x + 1, stored through
  // mode 0) on every Dest kind, both architectures; exp on an fp32 Dest
  // is refused (D87) and writes nothing.
  for (int arch : {0, 1})
    for (int dest = 0; dest < 3; ++dest) {
      int destDtype = birsim_tensix_dest_dtype(dest);
      std::string where = std::string(birsim_tensix_name(0, arch)) + " " +
                          birsim_tensix_name(2, dest);
      for (int op = 0; birsim_tensix_sfpu_op_name(op); ++op)
        add("birsim_tensix_sfpu",
            where + " " + birsim_tensix_sfpu_op_name(op), [=](size_t n) {
              return Call{{ofDtype(destDtype, n)}, {ofDtype(destDtype, n)},
                          [=](In in, Out out) {
                            return birsim_tensix_sfpu(arch, op, dest, in[0],
                                                      n, out[0]);
                          }};
            }, kStridedCounts);
      add("birsim_tensix_sfpu_run", where, [=](size_t n) {
        return Call{{ofDtype(destDtype, n)}, {ofDtype(destDtype, n)},
                    [=](In in, Out out) {
                      return birsim_tensix_sfpu_run(
                          arch,
                          "SFPLOAD 0, 0, 0, 0\nSFPMAD 0, 0, 10, 1, 0\n"
                          "SFPSTORE 1, 0, 0, 0\n",
                          dest, in[0], n, out[0]);
                    }};
      }, kStridedCounts);
    }
  return cases;
}

//===-- The harness --------------------------------------------------------===//

struct Outcome {
  int status = 0;
  std::string message;
  std::vector<Bytes> outs; ///< each output with its guard bytes
};

/// Runs `call` on the path in use with outputs between guard bytes;
/// reports a guard byte or an input byte that changed.
Outcome runGuarded(const Call &call, const std::vector<Bytes> &inputs,
                   const std::vector<Bytes> &initial, const std::string &what) {
  Outcome outcome;
  std::vector<Bytes> ins = inputs; // exact sizes: ASan sees an over-read
  std::vector<const uint8_t *> in;
  for (Bytes &b : ins)
    in.push_back(b.data());
  std::vector<uint8_t *> out;
  outcome.outs.reserve(initial.size());
  for (const Bytes &b : initial) {
    Bytes g(kGuard + b.size() + kGuard, kGuardByte);
    std::copy(b.begin(), b.end(), g.begin() + kGuard);
    outcome.outs.push_back(std::move(g));
  }
  for (Bytes &g : outcome.outs)
    out.push_back(g.data() + kGuard);
  outcome.status = call.run(in, out);
  if (outcome.status != BIRSIM_OK)
    outcome.message = birsim_last_error();
  for (size_t o = 0; o < outcome.outs.size(); ++o) {
    const Bytes &g = outcome.outs[o];
    for (size_t i = 0; i < kGuard; ++i)
      if (g[i] != kGuardByte || g[g.size() - 1 - i] != kGuardByte) {
        ADD_FAILURE() << what << " on " << birsim_active_isa() << ": output "
                      << o << " wrote "
                      << (g[i] != kGuardByte ? "before" : "past")
                      << " its bytes";
        break;
      }
  }
  for (size_t k = 0; k < ins.size(); ++k)
    if (ins[k] != inputs[k])
      ADD_FAILURE() << what << " on " << birsim_active_isa() << ": input "
                    << k << " changed";
  if (outcome.status != BIRSIM_OK)
    for (size_t o = 0; o < initial.size(); ++o)
      if (!std::equal(initial[o].begin(), initial[o].end(),
                      outcome.outs[o].begin() + kGuard))
        ADD_FAILURE() << what << " on " << birsim_active_isa()
                      << ": failed with status " << outcome.status
                      << " but wrote output " << o;
  return outcome;
}

/// One case at one count: every special at every position, each path
/// against the reference path. Returns the calls made.
size_t checkCase(const GuardCase &c, size_t count, bool counted) {
  Call call = c.make(count);
  const bool large = count > 4096 + 13;
  size_t calls = 0;
  core::Isa reference = test::referencePath();
  std::vector<core::Isa> paths = test::everyPath();
  for (int s = 0; s < 5; ++s)
    for (int position = 0; position < 3; ++position) {
      Special special = Special(s);
      if (special == Special::none && position > 0)
        continue;
      // The largest counts, counted calls and costly cases: a special at
      // the tail and one at the head.
      if ((large || counted || c.fewSpecials) && special != Special::none &&
          !(special == Special::nan && position == 2) &&
          !(special == Special::inf && position == 0))
        continue;
      std::mt19937_64 rng(count * 1000003 + s * 31 + position);
      std::vector<Bytes> inputs, initial;
      for (const Buffer &b : call.in) {
        inputs.emplace_back(b.bytes());
        fillBuffer(b, inputs.back().data(), rng);
        putSpecial(b, inputs.back().data(), special, position);
      }
      for (const Buffer &b : call.out) {
        initial.emplace_back(b.bytes());
        fillBuffer(b, initial.back().data(), rng);
        putSpecial(b, initial.back().data(), special, position);
      }
      std::string what = c.function + " " + c.variant + " count " +
                         std::to_string(count) + ", " + specialName(special) +
                         " at " + (position == 0   ? "first"
                                   : position == 1 ? "middle"
                                                   : "last") +
                         (counted ? ", counted" : "");
      birsim_fidelity_enable(counted);
      core::selectIsa(reference);
      Outcome want = runGuarded(call, inputs, initial, what);
      ++calls;
      for (core::Isa isa : paths) {
        if (isa == reference)
          continue;
        core::selectIsa(isa);
        Outcome got = runGuarded(call, inputs, initial, what);
        ++calls;
        EXPECT_EQ(got.status, want.status) << what << " on " << core::isaName(isa);
        EXPECT_EQ(got.message, want.message)
            << what << " on " << core::isaName(isa);
        for (size_t o = 0; o < got.outs.size(); ++o)
          if (got.outs[o] != want.outs[o]) {
            size_t i = 0;
            while (got.outs[o][i] == want.outs[o][i])
              ++i;
            ADD_FAILURE() << what << " on " << core::isaName(isa)
                          << ": output " << o << " byte "
                          << ptrdiff_t(i) - ptrdiff_t(kGuard) << " is "
                          << int(got.outs[o][i]) << ", "
                          << core::isaName(reference) << " gives "
                          << int(want.outs[o][i]);
            break;
          }
      }
      birsim_fidelity_enable(0);
      if (::testing::Test::HasFailure())
        return calls;
    }
  return calls;
}

/// The rows of RuntimeFunctions.def that write a buffer: a non-const
/// pointer for a destination, codes, or a byte result.
std::set<std::string> writingEntryPoints() {
  std::set<std::string> names;
  for (int f = 0; f < birsim_function_count(); ++f) {
    struct birsim_function_info info;
    birsim_function_info(f, &info, sizeof info);
    for (uint32_t p = 0; p < info.param_count; ++p) {
      std::string type = info.params[p].c_type, role = info.params[p].role;
      if (type.find('*') == std::string::npos || type.rfind("const ", 0) == 0)
        continue;
      if (role == "Dst" || role == "Codes" ||
          (role == "Result" && (type == "void *" || type == "uint8_t *")))
        names.insert(info.name);
    }
  }
  return names;
}

bool countedFunction(const std::string &name) {
  for (int f = 0; f < birsim_function_count(); ++f) {
    struct birsim_function_info info;
    birsim_function_info(f, &info, sizeof info);
    if (name == info.name)
      return info.counted;
  }
  return false;
}

/// The entry points in families of one test each, so that a failure names
/// its family and each test stays short.
const std::map<std::string, std::set<std::string>> kFamilies = {
    {"Accumulate",
     {"birsim_cast_copy_or_accumulate", "birsim_accumulate",
      "birsim_accumulate_into", "birsim_collective_reduce"}},
    {"Scatter",
     {"birsim_scatter_accumulate", "birsim_scatter_accumulate_mixed"}},
    {"Cast", {"birsim_cast", "birsim_tt_fp8_encode", "birsim_tt_fp8_decode"}},
    {"DmaCompute", {"birsim_dma_compute", "birsim_accumulate_mixed"}},
    {"BfpTiles",
     {"birsim_bfp_pack_tiles", "birsim_bfp_unpack_tiles", "birsim_bfp_pack",
      "birsim_bfp_unpack"}},
    {"BfpMatrix", {"birsim_bfp_pack_matrix", "birsim_bfp_unpack_matrix"}},
    {"BfpSites",
     {"birsim_bfp_pack_at", "birsim_bfp_pack_matrix_at", "birsim_bfp_unpack_at",
      "birsim_bfp_unpack_matrix_at", "birsim_bfp_device_diff"}},
    {"BfpMixed",
     {"birsim_bfp_mixed_pack_codes", "birsim_bfp_mixed_unpack_codes",
      "birsim_bfp_pack_mixed", "birsim_bfp_unpack_mixed",
      "birsim_bfp_pack_mixed_checked", "birsim_bfp_unpack_mixed_checked",
      "birsim_bfp_assign_mixed"}},
    {"TensixEltwise", {"birsim_tensix_eltwise"}},
    {"TensixMatmul", {"birsim_tensix_matmul"}},
    {"TensixPack", {"birsim_tensix_pack"}},
    {"TensixSfpu", {"birsim_tensix_sfpu", "birsim_tensix_sfpu_run"}},
};

TEST(AllOutputsGuarded, EveryWritingEntryPointHasACase) {
  std::set<std::string> covered, inFamilies;
  for (const GuardCase &c : guardCases())
    covered.insert(c.function);
  for (const auto &[family, names] : kFamilies)
    inFamilies.insert(names.begin(), names.end());
  std::set<std::string> writing = writingEntryPoints();
  EXPECT_GE(writing.size(), 30u);
  for (const std::string &name : writing) {
    EXPECT_TRUE(covered.count(name))
        << name << " writes a buffer: give it cases in guardCases()";
    EXPECT_TRUE(inFamilies.count(name))
        << name << " writes a buffer: add it to a family of kFamilies";
  }
  for (const std::string &name : covered)
    EXPECT_TRUE(writing.count(name)) << name << " is no writing entry point";
}

class EveryPath : public ::testing::TestWithParam<std::string> {};

/// The family's cases, every count, with the fidelity counters off, and on
/// for the counted entry points at the smaller counts (a counted call may
/// take another loop).
TEST_P(EveryPath, AsThePortablePathBetweenGuardBytes) {
  const std::set<std::string> &names = kFamilies.at(GetParam());
  test::PathGuard guard;
  size_t calls = 0;
  std::set<std::string> seen;
  for (const GuardCase &c : guardCases()) {
    if (!names.count(c.function))
      continue;
    seen.insert(c.function);
    bool counted = countedFunction(c.function);
    for (size_t count : *c.counts) {
      calls += checkCase(c, count, false);
      if (counted && count <= (c.fewSpecials ? 2 : 70))
        calls += checkCase(c, count, true);
      if (HasFailure())
        return;
    }
  }
  EXPECT_EQ(seen, names);
  RecordProperty("calls", int(calls));
}

INSTANTIATE_TEST_SUITE_P(AllOutputsGuarded, EveryPath, [] {
  std::vector<std::string> families;
  for (const auto &[family, names] : kFamilies)
    families.push_back(family);
  return ::testing::ValuesIn(families);
}(), [](const auto &info) { return info.param; });

} // namespace
