//===- FuzzRuntime.cpp - the C ABI against the portable core --------------===//
//
// libFuzzer target (utils/fuzz.sh), structure-aware: random calls (op,
// dtype, FP8 config, BFP format, counts, indices) over bounded buffers into
// libbirsim_runtime.so (the best vector path this CPU has). A success must
// equal the portable core's answer on the same inputs; a failure must leave
// the destination byte-identical and give the core's status. With the
// fidelity counters on (half the inputs), the runtime's counts must equal
// the portable core's for the same call, and a failed call counts nothing.
// The table queries (birsim_dtype_info and the name queries, the page
// flags' alignments and strides) must give the core's rows for any number
// and any caller's struct size; the mixed codes' packing the core's.
//
//===----------------------------------------------------------------------===//
#include "Kernels/Kernels.h" // lib/Core, private
#include "birsim/Core/Bfp.h"
#include "birsim/Core/BfpMixed.h"
#include "birsim/Core/Cast.h"
#include "birsim/Core/DmaCompute.h"
#include "birsim/Core/Enums.h"
#include "birsim/Core/Float.h"
#include "birsim/Core/Reduce.h"
#include "birsim/Core/Tensix.h"
#include "birsim/Core/TtFp8.h"
#include "birsim/Runtime/Runtime.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace birsim::core;

namespace {

/// Bytes from the input, then zeros.
class Input {
public:
  Input(const uint8_t *data, size_t size) : data(data), size(size) {}
  uint64_t take(unsigned bytes) {
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; ++i)
      v |= uint64_t(pos < size ? data[pos++] : 0) << (8 * i);
    return v;
  }
  std::vector<uint8_t> bytes(size_t n) {
    std::vector<uint8_t> v(n);
    for (uint8_t &b : v)
      b = uint8_t(take(1));
    return v;
  }

private:
  const uint8_t *data;
  size_t size, pos = 0;
};

/// A destination's prior contents: bytes of a generator seeded from the
/// input, so that the input's bytes go to the calls' arguments.
std::vector<uint8_t> pattern(uint64_t seed, size_t n) {
  std::vector<uint8_t> v(n);
  for (uint8_t &b : v) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    b = uint8_t(seed >> 56);
  }
  return v;
}

void check(bool ok) {
  if (!ok)
    std::abort();
}

/// The same call on the runtime (dst `got`) and on the portable core
/// (dst `want`): equal statuses and bytes; on error, both untouched.
void compare(int status, const Status &reference, const std::vector<uint8_t> &got,
             const std::vector<uint8_t> &want,
             const std::vector<uint8_t> &before) {
  check(status == int(reference.code));
  check(got == want);
  if (status != BIRSIM_OK)
    check(got == before);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static bool portable = (selectIsa(Isa::portable), true);
  (void)portable;
  Input in(data, size);
  bool counting = in.take(1) & 1;
  birsim_fidelity_reset();
  birsim_fidelity_enable(counting);
  FidelityCounts ref;
  FidelityCounts *refCounts = counting ? &ref : nullptr;
  unsigned call = unsigned(in.take(1)) % 12;
  int op = int(in.take(1) % 6) - 1;          // -1..4: invalid ones included
  int dtype = int(in.take(1) % 23) - 1;      // -1..21
  size_t count = size_t(in.take(2) % 1025);  // bounded buffers
  size_t maxBytes = 8;
  std::vector<uint8_t> src = in.bytes(count * maxBytes);
  // Every call's destination fits: up to 1024 elements of 8 bytes (a
  // scatter's dst_count is independent of count), BFP tiles beyond that.
  std::vector<uint8_t> before = pattern(in.take(8), 1025 * maxBytes + 4096 + 16);
  std::vector<uint8_t> got = before, want = before;
  switch (call) {
  case 0: { // birsim_accumulate, or birsim_accumulate_into from a copy of dst
    bool into = in.take(1) & 1;
    std::vector<uint8_t> dst = before;
    compare(into ? birsim_accumulate_into(op, got.data(), dst.data(),
                                          src.data(), dtype, count)
                 : birsim_accumulate(op, got.data(), src.data(), dtype, count),
            accumulate(op, want.data(), src.data(), dtype, count, refCounts),
            got, want, before);
    check(dst == before);
    break;
  }
  case 1: { // birsim_scatter_accumulate, indices possibly out of range
    size_t dstCount = size_t(in.take(2) % 1025);
    std::vector<int64_t> indices(count);
    for (int64_t &index : indices)
      index = int64_t(in.take(2) % (dstCount + 2)) - (in.take(1) == 0 ? 1 : 0);
    compare(birsim_scatter_accumulate(op, got.data(), dstCount, src.data(),
                                      indices.data(), count, dtype),
            scatterAccumulate(op, want.data(), dstCount, src.data(),
                              indices.data(), count, dtype, refCounts),
            got, want, before);
    break;
  }
  case 11: { // the DMA's arithmetic: any dtype pair, config, rounding
    int dstDtype = int(in.take(1) % 23) - 1;
    unsigned config = unsigned(in.take(1) & 1) | unsigned(in.take(1) << 8);
    if (in.take(1) == 0)
      config = unsigned(in.take(4)); // invalid bits too
    int rounding = int(in.take(1) % 4) - 1;
    uint64_t seed = in.take(8);
    Narrowing narrowing{config, Rounding(rounding), seed};
    unsigned form = unsigned(in.take(1) % 3);
    if (form == 0) {
      compare(birsim_accumulate_mixed(op, got.data(), dstDtype, src.data(),
                                      dtype, count, config, rounding, seed),
              accumulateMixed(op, want.data(), dstDtype, src.data(), dtype,
                              count, narrowing, refCounts),
              got, want, before);
    } else if (form == 1) {
      size_t dstCount = size_t(in.take(2) % 1025);
      std::vector<int64_t> indices(count);
      for (int64_t &index : indices)
        index =
            int64_t(in.take(2) % (dstCount + 2)) - (in.take(1) == 0 ? 1 : 0);
      compare(birsim_scatter_accumulate_mixed(
                  op, got.data(), dstCount, dstDtype, src.data(), dtype,
                  indices.data(), count, config, rounding, seed),
              scatterAccumulateMixed(op, want.data(), dstCount, dstDtype,
                                     src.data(), dtype, indices.data(), count,
                                     narrowing, refCounts),
              got, want, before);
    } else { // up to 17 sources in slices of src (one may be dst itself)
      size_t numSrcs = size_t(in.take(1) % 18);
      std::vector<const void *> srcsGot, srcsWant;
      std::vector<int> dtypes;
      bool aliasDst = in.take(1) & 1;
      size_t n = count / 8;
      for (size_t k = 0; k < numSrcs; ++k) {
        dtypes.push_back(int(in.take(1) % 23) - 1);
        srcsGot.push_back(k == 0 && aliasDst ? got.data()
                                             : src.data() + (k % 8) * n);
        srcsWant.push_back(k == 0 && aliasDst ? want.data() : srcsGot.back());
      }
      compare(birsim_dma_compute(op, srcsGot.data(), dtypes.data(), numSrcs,
                                 got.data(), dstDtype, n, config, rounding,
                                 seed),
              dmaCompute(op, srcsWant.data(), dtypes.data(), numSrcs,
                         want.data(), dstDtype, n, narrowing, refCounts),
              got, want, before);
    }
    break;
  }
  case 2: { // birsim_collective_reduce with any AluOpType
    int aluOp = int(in.take(1) % 35) - 1;
    compare(birsim_collective_reduce(aluOp, reinterpret_cast<float *>(got.data()),
                                     reinterpret_cast<const float *>(src.data()),
                                     count),
            collectiveReduce(aluOp, want.data(), src.data(), count), got, want,
            before);
    break;
  }
  case 3: { // birsim_cast with any config word
    int to = int(in.take(1) % 23) - 1;
    unsigned config = unsigned(in.take(2));
    if (in.take(1) & 1)
      config &= 0xFF01;
    compare(birsim_cast(dtype, src.data(), to, got.data(), count, config),
            castBuffer(dtype, src.data(), to, want.data(), count, config,
                       refCounts),
            got, want, before);
    break;
  }
  case 8: { // tt-metal's FP8 policies, invalid ones included
    int policy = int(in.take(1) % 5) - 1;
    if (in.take(1) & 1)
      compare(birsim_tt_fp8_decode(policy, src.data(), count,
                                   reinterpret_cast<float *>(got.data())),
              ttFp8DecodeBulk(policy, src.data(), count, want.data()), got,
              want, before);
    else
      compare(birsim_tt_fp8_encode(
                  policy, reinterpret_cast<const float *>(src.data()), count,
                  got.data()),
              ttFp8EncodeBulk(policy, src.data(), count, want.data(),
                              refCounts),
              got, want, before);
    break;
  }
  case 10: { // the Tensix FPU and packer, any settings, accumulating or not
    int arch = int(in.take(1) % 4) - 1; // -1..2: invalid ones included
    int destKind = int(in.take(1) % 5) - 1;
    // accumulate / l1_accumulate is a C boolean: -1 and 2 are refused
    // before anything else (nothing written, nothing counted).
    int accumulate = int(in.take(1) % 4) - 1;
    auto unlessNoBoolean = [&](auto reference) {
      return accumulate == 0 || accumulate == 1
                 ? reference()
                 : Status::error(ErrorCode::invalidArgument);
    };
    unsigned which = unsigned(in.take(1) % 3);
    if (which == 2) { // the matmul: shapes multiples of 32 or not
      const size_t ms[] = {0, 32, 48}, ks[] = {0, 16, 32, 64},
                   ns[] = {0, 32, 64};
      size_t m = ms[in.take(1) % 3], k = ks[in.take(1) % 4],
             n = ns[in.take(1) % 3];
      unsigned phases = unsigned(in.take(1) % 18);
      int in0Src = int(in.take(1) % 5) - 1, in1Src = int(in.take(1) % 5) - 1;
      std::vector<float> in0(m * k), in1(k * n);
      for (std::vector<float> *operand : {&in0, &in1})
        for (size_t i = 0; i < operand->size() * 4 && !src.empty(); ++i)
          reinterpret_cast<uint8_t *>(operand->data())[i] =
              src[i % src.size()] ^ uint8_t(i >> 8);
      compare(birsim_tensix_matmul(arch, phases, destKind, in0Src, in1Src,
                                   in0.data(), in1.data(), m, k, n,
                                   got.data(), accumulate),
              unlessNoBoolean([&] {
                return tensixMatmul(arch, phases, destKind, in0Src, in1Src,
                                    in0.data(), in1.data(), m, k, n,
                                    want.data(), accumulate, refCounts);
              }),
              got, want, before);
    } else if (which == 1) {
      int tensixOp = int(in.take(1) % 5) - 1;
      unsigned phases = unsigned(in.take(1) % 18);
      int srcFormat = int(in.take(1) % 5) - 1;
      auto *a = reinterpret_cast<const float *>(src.data());
      auto *b = reinterpret_cast<const float *>(src.data() + 4 * count);
      compare(birsim_tensix_eltwise(arch, tensixOp, phases, destKind,
                                    srcFormat, a, b, count, got.data(),
                                    accumulate),
              unlessNoBoolean([&] {
                return tensixEltwise(arch, tensixOp, phases, destKind,
                                     srcFormat, a, b, count, want.data(),
                                     accumulate, refCounts);
              }),
              got, want, before);
    } else {
      const int outDtypes[] = {-1, 1, 12, 13, 16, 40};
      int outDtype = outDtypes[in.take(1) % 6];
      // L1 may hold a NaN at its last value: the bf16 accumulation redoes
      // such a step apart, and on AVX-512 once redid a masked tail whole,
      // past the output (issue 64).
      const DtypeInfo *out = lookupDtype(outDtype);
      if ((in.take(1) & 1) && count && out && out->format) {
        uint32_t nan = out->bytes == 4 ? 0x7FC00000u
                       : outDtype == 12 ? 0x7FC0u
                                        : 0x7E00u;
        for (std::vector<uint8_t> *l1 : {&got, &want, &before})
          std::memcpy(l1->data() + (count - 1) * out->bytes, &nan, out->bytes);
      }
      compare(birsim_tensix_pack(arch, destKind, src.data(), count, outDtype,
                                 got.data(), accumulate),
              unlessNoBoolean([&] {
                return tensixPack(arch, destKind, src.data(), count, outDtype,
                                  want.data(), accumulate);
              }),
              got, want, before);
    }
    break;
  }
  case 9: { // per-tile mixed BFP: pack, unpack, the checked forms, assign
    size_t rows = 32 * size_t(in.take(1) % 3) + (in.take(1) % 8 == 0 ? 16 : 0);
    size_t cols = 32 * size_t(in.take(1) % 3);
    unsigned flags = unsigned(in.take(1) % 32); // every flag, invalid too
    int input = int(in.take(1) % 22) - 1;
    unsigned form = unsigned(in.take(1) % 5);
    std::vector<uint8_t> codes = in.bytes(3);
    size_t values = rows * cols, need = 1088 * (values / 1024 + 1);
    std::vector<uint8_t> src = in.bytes(values * 4 + 16);
    std::vector<uint8_t> out0 = in.bytes(std::max(need, values * 4) + 16);
    std::vector<uint8_t> out1 = out0, out2 = out0;
    size_t bytes = birsim_bfp_mixed_bytes(codes.data(), rows, cols);
    check(bytes <= need);
    size_t claimed = in.take(1) % 4 == 0 ? size_t(in.take(2)) : bytes;
    auto *f1 = reinterpret_cast<float *>(out1.data());
    auto *f2 = reinterpret_cast<float *>(out2.data());
    int metric = int(in.take(1) % 4);
    double bound = double(in.take(1)) / 255.0;
    unsigned formats = unsigned(in.take(1) % 17);
    int status =
        form == 0 ? birsim_bfp_pack_mixed(input, src.data(), rows, cols, flags,
                                          codes.data(), out1.data())
        : form == 1 ? birsim_bfp_unpack_mixed(src.data(), rows, cols, flags,
                                              codes.data(), f1)
        : form == 2 ? birsim_bfp_pack_mixed_checked(input, src.data(), rows,
                                                    cols, flags, codes.data(),
                                                    out1.data(), claimed)
        : form == 3 ? birsim_bfp_unpack_mixed_checked(
                          src.data(), claimed, rows, cols, flags, codes.data(),
                          f1)
                    : birsim_bfp_assign_mixed(metric, bound, bound / 8,
                                              formats, input, src.data(), rows,
                                              cols, flags, out1.data());
    Status reference =
        form == 0 || form == 2
            ? bfpPackMixed(input, src.data(), rows, cols, flags, codes.data(),
                           out2.data())
        : form == 1 || form == 3
            ? bfpUnpackMixed(src.data(), rows, cols, flags, codes.data(), f2)
            : bfpAssignMixed(metric, bound, bound / 8, formats, input,
                             src.data(), rows, cols, flags, out2.data());
    if ((form == 2 || form == 3) && claimed != bytes && reference.ok() &&
        rows % 32 == 0) { // the checked forms refuse a wrong length
      check(status == BIRSIM_EINVAL && out1 == out0);
      break;
    }
    compare(status, reference, out1, out2, out0);
    // Per-tile codes, one a byte (any byte), packed and back.
    size_t tiles = size_t(in.take(1) % 12);
    std::vector<uint8_t> each = in.bytes(tiles);
    std::vector<uint8_t> packedGot = out0, packedWant = out0;
    compare(birsim_bfp_mixed_pack_codes(each.data(), tiles, packedGot.data()),
            bfpMixedPackCodes(each.data(), tiles, packedWant.data()), packedGot,
            packedWant, out0);
    if (std::all_of(each.begin(), each.end(),
                    [](uint8_t c) { return c < kNumBfpMixedCodes; })) {
      std::vector<uint8_t> unpacked = out0;
      check(birsim_bfp_mixed_unpack_codes(packedGot.data(), tiles,
                                          unpacked.data()) == BIRSIM_OK);
      check(std::equal(each.begin(), each.end(), unpacked.begin()) &&
            std::equal(unpacked.begin() + tiles, unpacked.end(),
                       out0.begin() + tiles));
      check(std::equal(packedGot.begin() + bfpMixedCodeBytes(tiles),
                       packedGot.end(),
                       out0.begin() + bfpMixedCodeBytes(tiles)));
    }
    break;
  }
  case 4:
  case 5: { // BFP pack / unpack of up to 4 tiles
    int format = int(in.take(1) % (kNumBfpFormats + 2)) - 1; // BFP and MX
    size_t tiles = size_t(in.take(1) % 5);
    std::vector<uint8_t> input = in.bytes(tiles * 4096);
    std::vector<uint8_t> out0 = in.bytes(tiles * 4096 + 16);
    std::vector<uint8_t> out1 = out0, out2 = out0;
    uint64_t seen0, up0, seen1, up1;
    birsim_bfp_tie_counters(&seen0, &up0);
    int status =
        call == 4
            ? birsim_bfp_pack_tiles(format,
                                    reinterpret_cast<const float *>(input.data()),
                                    tiles, out1.data())
            : birsim_bfp_unpack_tiles(format, input.data(), tiles,
                                      reinterpret_cast<float *>(out1.data()));
    birsim_bfp_tie_counters(&seen1, &up1);
    Status reference = call == 4
                           ? bfpPack(format, int(Dtype::float32), input.data(), tiles, kBfpTileSide, kBfpTileSide, 0, out2.data(), refCounts)
                           : bfpUnpack(format, input.data(), tiles, kBfpTileSide, kBfpTileSide, 0, out2.data());
    compare(status, reference, out1, out2, out0);
    if (call == 5 || status != BIRSIM_OK)
      check(seen1 == seen0 && up1 == up0);
    break;
  }
  case 7: { // the shaped BFP forms at any site: tiles or matrix, the diff
    int where = int(in.take(1) % 8) - 1;   // -1..6: invalid ones included
    int format = int(in.take(1) % (kNumBfpFormats + 2)) - 1; // BFP and MX
    int input = int(in.take(1) % 22) - 1;
    uint32_t tileRows = uint32_t(in.take(1) % 34), tileCols = uint32_t(in.take(1) % 34);
    unsigned flags = unsigned(in.take(1) % 32); // every flag: pages, search
    unsigned form = unsigned(in.take(1) % 5); // pack, unpack, matrices, diff
    size_t tiles = size_t(in.take(1) % 4);
    size_t rows = tiles * std::max<uint32_t>(tileRows, 1) + (in.take(1) % 3 == 0);
    size_t cols = tileCols * size_t(in.take(1) % 3);
    size_t values = form < 2 || form == 4 ? tiles * tileRows * tileCols
                                          : rows * cols;
    std::vector<uint8_t> input0 = in.bytes(values * 4 + 16);
    std::vector<uint8_t> out0 = in.bytes(values * 4 + 1024);
    std::vector<uint8_t> out1 = out0, out2 = out0;
    auto *f1 = reinterpret_cast<float *>(out1.data());
    BfpCall tilesCall =
        bfpTilesCall(where, format, tiles, tileRows, tileCols, flags);
    BfpCall matrixCall =
        bfpMatrixCall(where, format, rows, cols, tileRows, tileCols, flags);
    uint64_t count1 = 7, count2 = 7;
    int status =
        form == 0 ? birsim_bfp_pack_at(where, format, input, input0.data(),
                                       tiles, tileRows, tileCols, flags,
                                       out1.data())
        : form == 1 ? birsim_bfp_unpack_at(where, format, input0.data(), tiles,
                                           tileRows, tileCols, flags, f1)
        : form == 2 ? birsim_bfp_pack_matrix_at(where, format, input,
                                                input0.data(), rows, cols,
                                                tileRows, tileCols, flags,
                                                out1.data())
        : form == 3 ? birsim_bfp_unpack_matrix_at(where, format, input0.data(),
                                                  rows, cols, tileRows,
                                                  tileCols, flags, f1)
                    : birsim_bfp_device_diff(where, format, input,
                                             input0.data(), tiles, tileRows,
                                             tileCols, flags, out1.data(),
                                             &count1);
    Status reference =
        form == 0 ? bfpPack(tilesCall, input, input0.data(), out2.data(),
                            where == 0 ? refCounts : nullptr)
        : form == 1 ? bfpUnpack(tilesCall, input0.data(), out2.data())
        : form == 2 ? bfpPack(matrixCall, input, input0.data(), out2.data(),
                              where == 0 ? refCounts : nullptr)
        : form == 3 ? bfpUnpack(matrixCall, input0.data(), out2.data())
                    : bfpDeviceDiff(tilesCall, input, input0.data(),
                                    out2.data(), &count2);
    compare(status, reference, out1, out2, out0);
    check(count1 == count2);
    break;
  }
  case 6: { // the table queries: the core's rows, nothing past them
    int n = int(int8_t(in.take(1)));
    const DtypeInfo *row = lookupDtype(n);
    size_t size = size_t(in.take(1) % (sizeof(struct birsim_dtype_info) + 17));
    std::vector<uint8_t> info = before; // larger than any `size`
    int status = birsim_dtype_info(
        n, reinterpret_cast<struct birsim_dtype_info *>(info.data()), size);
    bool fits = size >= sizeof(struct birsim_dtype_info);
    check(status == (!fits ? BIRSIM_EINVAL : row ? BIRSIM_OK : BIRSIM_EUNKNOWN_DTYPE));
    // Exactly the struct's bytes are written, and only on success.
    size_t written = status == BIRSIM_OK ? sizeof(struct birsim_dtype_info) : 0;
    check(std::equal(info.begin() + written, info.end(), before.begin() + written));
    if (status == BIRSIM_OK) {
      struct birsim_dtype_info got;
      std::memcpy(&got, info.data(), sizeof got);
      check(!std::strcmp(got.name, row->name) &&
            !std::strcmp(got.mlir_type, row->mlirSpelling) &&
            got.bytes == row->bytes &&
            got.mantissa_bits == (row->format ? row->format->mantissaBits : 0));
    }
    check((birsim_dtype_count() > n && n >= 0) == (row != nullptr));
    auto same = [](const char *a, const char *b) {
      return a == b || (a && b && !std::strcmp(a, b));
    };
    check(same(birsim_memory_reduction_op_name(n), memoryReductionOpName(n)));
    check(same(birsim_alu_op_type_name(n), aluOpTypeName(n)));
    const BfpFormatInfo *format = lookupBfpFormat(n);
    check(same(birsim_bfp_format_name(n), format ? format->name : nullptr));
    check((birsim_bfp_exponent_kind(n) != nullptr) == (format != nullptr));
    check(birsim_bfp_datum_bits(n) == (format ? format->datumBits : 0));
    int family = -1;
    const char *key = birsim_fidelity_event_key(n, &family);
    check((key != nullptr) == (n >= 0 && n < kNumFidelityEvents));
    check(!key || same(birsim_fidelity_family_name(family),
                       fidelityFamilyInfo(FidelityFamily(family)).name));
    check((birsim_fidelity_family_name(n) != nullptr) ==
          (n >= 0 && n < kNumFidelityFamilies));
    unsigned bits = 0xA5A5A5A5u;
    const char *flag = birsim_fp8_config_flag(n, &bits);
    bool isFlag = n >= 0 && n < int(std::size(kFp8ConfigFlags));
    check(isFlag ? same(flag, kFp8ConfigFlags[n].name) &&
                       bits == kFp8ConfigFlags[n].bits
                 : !flag && bits == 0xA5A5A5A5u);
    check(birsim_fidelity_enabled() == (counting ? 1 : 0));
    check(birsim_bfp_flag_page_bytes(n) ==
          (n >= 0 && n < int(std::size(kBfpFlags)) ? kBfpFlags[n].pageBytes
                                                     : 0u));
    // A tile stride with its rule: the core's status, `bytes` only on
    // success; any alignment, shape and format.
    uint32_t rows = uint32_t(in.take(1) % 40), cols = uint32_t(in.take(1) % 40);
    unsigned alignment = unsigned(in.take(1));
    size_t stride = 0xA5A5, core = 0xA5A5;
    int pageStatus =
        birsim_bfp_page_bytes_checked(n, rows, cols, alignment, &stride);
    Status pageReference = bfpCheckPage(n, rows, cols, alignment, &core);
    check(pageStatus == int(pageReference.code) && stride == core);
    check(stride == (pageStatus == BIRSIM_OK
                         ? birsim_bfp_page_bytes(n, rows, cols, alignment)
                         : 0xA5A5));
    check(birsim_overlap_error(n) == BIRSIM_EINVAL);
    break;
  }
  }
  // The runtime counted what the portable core counted (nothing on error:
  // `ref` then stays zero too, as the core counts only valid calls).
  birsim_fidelity_counts counts;
  check(birsim_fidelity_counters(&counts) == BIRSIM_OK);
  uint64_t fields[sizeof counts / sizeof(uint64_t)];
  std::memcpy(fields, &counts, sizeof counts);
  size_t k = 0;
#define BIRSIM_FIDELITY_FAMILY(Family)                                 \
  check(fields[k++] == ref.elements[int(FidelityFamily::Family)]);
#define BIRSIM_FIDELITY_EVENT(Family, Key)                                     \
  check(fields[k++] == ref.count[int(FidelityEvent::Family##_##Key)]);
#include "birsim/Core/Fidelity.def"
  birsim_fidelity_enable(0);
  return 0;
}
